import MotusCore

/// Turns samples at any rate, regular or not, into a regular grid: output `k` is the mean
/// over the cell `(t₀ + (k−1)·T, t₀ + k·T]` of the straight-line interpolation between input
/// samples, stamped at the cell's end. For inputs faster than the grid this is a box
/// anti-aliasing filter of width `T` (same for every input rate); for slower inputs it is
/// linear interpolation, averaged. Inputs whose time does not increase are dropped; a gap
/// longer than `maximumGap` restarts the grid at the new sample (nothing is invented across it).
///
/// Cell ends are computed as `t₀ + k·T` from the integer `k`, never by adding `T` cell after
/// cell: a running sum adds one rounding error per cell, and at large clock values (Unix time in
/// seconds) each rounding is of the order of 10⁻⁷ s, so over thousands of cells the grid would
/// move and the same recording would give other step times on another clock origin.
///
/// Up to four channels sampled together (`push(time:values:emit:)`) are averaged on one grid:
/// each lane as a scalar input alone would be.
///
/// O(1) per input plus O(1) per emitted cell, no allocation.
public struct CellAverager: Sendable {
    /// Cell length in seconds.
    public let period: Seconds
    /// Longest input gap (s) bridged by interpolation.
    public let maximumGap: Seconds
    @usableFromInline var prevT = 0.0
    @usableFromInline var prevV = SIMD4<Double>()
    @usableFromInline var cellEnd = 0.0
    @usableFromInline var origin = 0.0      // t₀: the first sample of the current grid
    @usableFromInline var cellIndex = 1     // k of `cellEnd`
    @usableFromInline var acc = SIMD4<Double>()
    @usableFromInline var started = false
    /// Two times closer than this (s) are one instant: far below any sample period, far above
    /// the rounding of a clock in Unix seconds. `MotionPolicy` uses the same value.
    public static let tolerance: Seconds = 1e-6
    /// Number of times the grid was restarted after a long gap.
    public private(set) var restarts = 0

    /// Precondition: `rateHz > 0`, `maximumGap > 0`.
    public init(rateHz: Hertz, maximumGap: Seconds = 1.0) {
        precondition(rateHz > 0 && maximumGap > 0, "rate and maximum gap must be > 0")
        period = 1 / rateHz
        self.maximumGap = maximumGap
    }

    /// True once a sample has been seen.
    @inlinable public var hasStarted: Bool { started }

    /// Feeds one input sample and calls `emit(time, value)` for every cell it completes (0, 1
    /// or several). `emit` is non-escaping, so no closure context is allocated.
    public mutating func push(time t: Seconds, value v: Double, emit: (Double, Double) -> Void) {
        push(time: t, values: SIMD4(v, 0, 0, 0)) { emit($0, $1[0]) }
    }

    /// Feeds one sample of up to four channels and calls `emit(time, values)` for every cell it
    /// completes, each lane averaged as `push(time:value:emit:)` averages one channel.
    public mutating func push(time t: Seconds, values v: SIMD4<Double>, emit: (Double, SIMD4<Double>) -> Void) {
        if !started || t - prevT > maximumGap {
            if started { restarts += 1 }
            started = true
            prevT = t; prevV = v; origin = t; cellIndex = 1; cellEnd = t + period; acc = SIMD4()
            return
        }
        guard t > prevT else { return }
        let slope = (v - prevV) / (t - prevT)
        var a = prevT, va = prevV
        // A cell that ends within `tolerance` after this sample ends at it: the same instant
        // read on another clock origin (rounded differently) must complete the same cells.
        while cellEnd <= t + Self.tolerance {
            let vb = prevV + slope * (cellEnd - prevT)
            acc += 0.5 * (va + vb) * (cellEnd - a)
            emit(cellEnd, acc / period)
            acc = SIMD4()
            a = cellEnd; va = vb
            cellIndex += 1
            cellEnd = origin + Double(cellIndex) * period
        }
        acc += 0.5 * (va + v) * (t - a)
        prevT = t; prevV = v
    }
}
