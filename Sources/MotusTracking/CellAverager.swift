/// Turns samples at any rate, regular or not, into a regular grid: output `k` is the mean
/// over the cell `(t₀ + (k−1)·T, t₀ + k·T]` of the straight-line interpolation between input
/// samples, stamped at the cell's end. For inputs faster than the grid this is a box
/// anti-aliasing filter of width `T` (same for every input rate); for slower inputs it is
/// linear interpolation, averaged. Inputs whose time does not increase are dropped; a gap
/// longer than `maximumGap` restarts the grid at the new sample (nothing is invented across it).
///
/// O(1) per input plus O(1) per emitted cell, no allocation.
public struct CellAverager: Sendable {
    /// Cell length in seconds.
    public let period: Double
    /// Longest input gap (s) bridged by interpolation.
    public let maximumGap: Double
    @usableFromInline var prevT = 0.0, prevV = 0.0
    @usableFromInline var cellEnd = 0.0
    @usableFromInline var acc = 0.0
    @usableFromInline var started = false
    /// Number of times the grid was restarted after a long gap.
    public private(set) var restarts = 0

    /// Precondition: `rateHz > 0`, `maximumGap > 0`.
    public init(rateHz: Double, maximumGap: Double = 1.0) {
        precondition(rateHz > 0 && maximumGap > 0, "rate and maximum gap must be > 0")
        period = 1 / rateHz
        self.maximumGap = maximumGap
    }

    /// True once a sample has been seen.
    @inlinable public var hasStarted: Bool { started }

    /// Feeds one input sample and calls `emit(time, value)` for every cell it completes (0, 1
    /// or several). `emit` is non-escaping, so no closure context is allocated.
    public mutating func push(time t: Double, value v: Double, emit: (Double, Double) -> Void) {
        if !started || t - prevT > maximumGap {
            if started { restarts += 1 }
            started = true
            prevT = t; prevV = v; cellEnd = t + period; acc = 0
            return
        }
        guard t > prevT else { return }
        let slope = (v - prevV) / (t - prevT)
        var a = prevT, va = prevV
        while cellEnd <= t {
            let vb = prevV + slope * (cellEnd - prevT)
            acc += 0.5 * (va + vb) * (cellEnd - a)
            emit(cellEnd, acc / period)
            acc = 0
            a = cellEnd; va = vb
            cellEnd += period
        }
        acc += 0.5 * (va + v) * (t - a)
        prevT = t; prevV = v
    }
}
