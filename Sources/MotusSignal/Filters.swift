import MotusCore

/// A fixed-capacity ring buffer of `Double`, storage allocated once at init. Pushing onto a
/// full buffer overwrites the oldest value. Indexing is oldest first: `self[0]` is the oldest,
/// `self[count − 1]` the newest. All operations O(1), none allocates (the struct holds a
/// uniquely referenced array; copying the struct shares storage until a copy is mutated).
public struct RingBuffer: Sendable {
    @usableFromInline var storage: [Double]
    @usableFromInline var head = 0      // index of the oldest value
    /// Values held.
    public private(set) var count = 0
    /// The most values it holds; pushing more drops the oldest.
    public let capacity: Int

    /// Precondition: `capacity > 0`.
    public init(capacity: Int) {
        precondition(capacity > 0, "capacity must be > 0")
        self.capacity = capacity
        storage = [Double](repeating: 0, count: capacity)
    }

    /// True when `count == capacity`.
    @inlinable public var isFull: Bool { count == capacity }
    /// True when it holds nothing.
    @inlinable public var isEmpty: Bool { count == 0 }

    /// Appends `x`; returns the value pushed out when the buffer was full, else nil.
    @discardableResult
    public mutating func push(_ x: Double) -> Double? {
        if count < capacity {
            var i = head + count
            if i >= capacity { i -= capacity }
            storage[i] = x
            count += 1
            return nil
        }
        let old = storage[head]
        storage[head] = x
        head += 1
        if head == capacity { head = 0 }
        return old
    }

    /// Removes and returns the oldest value (nil when empty).
    public mutating func popFirst() -> Double? {
        guard count > 0 else { return nil }
        let v = storage[head]
        head += 1
        if head == capacity { head = 0 }
        count -= 1
        return v
    }

    /// Value `i`, oldest first. Precondition: `0 ≤ i < count`.
    @inlinable public subscript(i: Int) -> Double {
        precondition(i >= 0 && i < count, "index out of range")
        var j = head + i
        if j >= capacity { j -= capacity }
        return storage[j]
    }

    /// Newest value (nil when empty).
    @inlinable public var last: Double? { count > 0 ? self[count - 1] : nil }
    /// Oldest value (nil when empty).
    @inlinable public var first: Double? { count > 0 ? self[0] : nil }

    /// Empties the buffer, keeping its storage.
    public mutating func removeAll() { head = 0; count = 0 }

    /// The contents oldest first (allocates; for tests and batch code).
    public var array: [Double] { (0..<count).map { self[$0] } }
}

/// Mean of the last `window` inputs (fewer at the start: the mean of what has been seen).
/// The running sum is recomputed from the buffer every `window` samples, so rounding error
/// cannot accumulate over long streams. O(1) amortised per sample, no allocation after init.
public struct MovingAverage: Sendable {
    /// Number of inputs averaged.
    public let window: Int
    private var buffer: RingBuffer
    private var sum = 0.0
    private var sinceRefresh = 0

    /// Precondition: `window > 0`.
    public init(window: Int) {
        self.window = window
        buffer = RingBuffer(capacity: window)
    }

    /// Forgets every input.
    public mutating func reset() { buffer.removeAll(); sum = 0; sinceRefresh = 0 }

    /// Feeds `x`, returns the mean of the last `min(window, samples so far)` inputs.
    public mutating func process(_ x: Double) -> Double {
        if let old = buffer.push(x) { sum += x - old } else { sum += x }
        sinceRefresh += 1
        if sinceRefresh >= window {
            sinceRefresh = 0
            var s = 0.0
            for i in 0..<buffer.count { s += buffer[i] }
            sum = s
        }
        return sum / Double(buffer.count)
    }

    /// Filters a whole signal from a fresh state (this value's state is not touched).
    public func filtered(_ xs: [Double]) -> [Double] {
        var f = MovingAverage(window: window)
        return xs.map { f.process($0) }
    }
}

/// Smoothing factor of an RC filter with cutoff `cutoffHz` sampled at `sampleRateHz`:
/// RC = 1 / (2π fc), dt = 1 / fs.
@usableFromInline func rcAndDt(_ cutoffHz: Double, _ sampleRateHz: Double) -> (Double, Double) {
    precondition(cutoffHz > 0 && sampleRateHz > 0, "cutoff and rate must be > 0")
    return (1 / (2 * Double.pi * cutoffHz), 1 / sampleRateHz)
}

/// First-order (RC, exponential smoothing) low-pass: `y[n] = y[n−1] + α (x[n] − y[n−1])`.
/// The first output equals the first input (no start-up transient from zero).
public struct FirstOrderLowPass: Sendable {
    /// Smoothing factor in (0, 1]; α = dt / (RC + dt).
    public let alpha: Double
    private var y = 0.0
    private var started = false

    /// Precondition: `0 < alpha ≤ 1`.
    public init(alpha: Double) {
        precondition(alpha > 0 && alpha <= 1, "alpha must be in (0, 1]")
        self.alpha = alpha
    }

    /// Cutoff (−3 dB of the analog prototype) in Hz at sample rate in Hz.
    public init(cutoffHz: Hertz, sampleRateHz: Hertz) {
        let (rc, dt) = rcAndDt(cutoffHz, sampleRateHz)
        self.init(alpha: dt / (rc + dt))
    }

    /// Back to the fresh state: the next input passes unchanged.
    public mutating func reset() { y = 0; started = false }

    /// The latest output.
    @inlinable public var state: Double { _state }
    @usableFromInline var _state: Double { y }

    /// Filters one input; returns the output (the first input passes unchanged).
    public mutating func process(_ x: Double) -> Double {
        if !started { started = true; y = x; return y }
        y += alpha * (x - y)
        return y
    }

    /// Filters a whole signal from a fresh state.
    public func filtered(_ xs: [Double]) -> [Double] {
        var f = FirstOrderLowPass(alpha: alpha)
        return xs.map { f.process($0) }
    }
}

/// First-order (RC) high-pass: `y[n] = α (y[n−1] + x[n] − x[n−1])`, `y[0] = 0`.
/// Equals the input minus a first-order low-pass only approximately; this is the discrete
/// RC high-pass (steady input decays to 0 with factor α per sample).
public struct FirstOrderHighPass: Sendable {
    /// α = RC / (RC + dt), in (0, 1).
    public let alpha: Double
    private var y = 0.0
    private var xPrev = 0.0
    private var started = false

    /// Precondition: `0 < alpha < 1`.
    public init(alpha: Double) {
        precondition(alpha > 0 && alpha < 1, "alpha must be in (0, 1)")
        self.alpha = alpha
    }

    /// The RC high-pass with this cutoff (Hz) at this sample rate (Hz).
    public init(cutoffHz: Hertz, sampleRateHz: Hertz) {
        let (rc, dt) = rcAndDt(cutoffHz, sampleRateHz)
        self.init(alpha: rc / (rc + dt))
    }

    /// Back to the fresh state: the next output is 0.
    public mutating func reset() { y = 0; xPrev = 0; started = false }

    /// Filters one input; returns the output (0 for the first).
    public mutating func process(_ x: Double) -> Double {
        if !started { started = true; xPrev = x; y = 0; return 0 }
        y = alpha * (y + x - xPrev)
        xPrev = x
        return y
    }

    /// Filters a whole signal from a fresh state.
    public func filtered(_ xs: [Double]) -> [Double] {
        var f = FirstOrderHighPass(alpha: alpha)
        return xs.map { f.process($0) }
    }
}

/// A second-order IIR section, `H(z) = (b0 + b1 z⁻¹ + b2 z⁻²) / (1 + a1 z⁻¹ + a2 z⁻²)`, run in
/// transposed direct form II (two state values). Starts at rest (zero state); `prime(with:)`
/// sets the steady state for a constant input so a signal with an offset (gravity) does
/// not ring at the start.
public struct Biquad: Sendable, Hashable {
    /// Feed-forward coefficient of x[n].
    public let b0: Double
    /// Feed-forward coefficient of x[n−1].
    public let b1: Double
    /// Feed-forward coefficient of x[n−2].
    public let b2: Double
    /// Feedback coefficient of y[n−1] (a0 = 1).
    public let a1: Double
    /// Feedback coefficient of y[n−2].
    public let a2: Double
    private var s1 = 0.0, s2 = 0.0

    /// Coefficients normalised so that a0 = 1.
    public init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
        self.b0 = b0; self.b1 = b1; self.b2 = b2; self.a1 = a1; self.a2 = a2
    }

    /// 2nd-order Butterworth low-pass (bilinear transform with the cutoff pre-warped, so the
    /// gain is exactly −3 dB at `cutoffHz`; unity at DC). Precondition: 0 < cutoff < rate / 2.
    public static func butterworthLowPass(cutoffHz: Hertz, sampleRateHz: Hertz) -> Biquad {
        let (k, wc) = warp(cutoffHz, sampleRateHz)
        let r2 = 2.0.squareRoot()
        let a0 = k * k + r2 * k * wc + wc * wc
        let b = wc * wc / a0
        return Biquad(b0: b, b1: 2 * b, b2: b, a1: (2 * wc * wc - 2 * k * k) / a0, a2: (k * k - r2 * k * wc + wc * wc) / a0)
    }

    /// 2nd-order low-pass with quality `quality` at `cutoffHz` (bilinear transform, the cutoff
    /// pre-warped; unity at DC): the sections of a higher-order Butterworth low-pass
    /// (`butterworthLowPassSections`). Quality 1/√2 is `butterworthLowPass`. Precondition:
    /// 0 < cutoff < rate / 2, quality > 0.
    public static func lowPass(cutoffHz: Hertz, sampleRateHz: Hertz, quality q: Double) -> Biquad {
        precondition(q > 0, "quality must be > 0")
        let (k, wc) = warp(cutoffHz, sampleRateHz)
        let a0 = k * k + wc / q * k + wc * wc
        let b = wc * wc / a0
        return Biquad(b0: b, b1: 2 * b, b2: b, a1: (2 * wc * wc - 2 * k * k) / a0, a2: (k * k - wc / q * k + wc * wc) / a0)
    }

    /// The `order / 2` sections of a Butterworth low-pass of even order `order` (scipy's
    /// `butter(order, cutoff)`): section i has quality 1 / (2 cos((2i + 1) π / (2 order))), so
    /// the cascade is −3 dB at `cutoffHz` and falls 6 × `order` dB per octave above it.
    /// Precondition: order even and ≥ 2, 0 < cutoff < rate / 2.
    public static func butterworthLowPassSections(order: Int, cutoffHz: Hertz, sampleRateHz: Hertz) -> [Biquad] {
        precondition(order >= 2 && order % 2 == 0, "order must be even and at least 2")
        return (0..<(order / 2)).map { i in
            lowPass(cutoffHz: cutoffHz, sampleRateHz: sampleRateHz,
                    quality: 1 / (2 * Math.cos(Double(2 * i + 1) * Double.pi / Double(2 * order))))
        }
    }

    /// 2nd-order Butterworth high-pass, −3 dB at `cutoffHz`, unity at Nyquist.
    public static func butterworthHighPass(cutoffHz: Hertz, sampleRateHz: Hertz) -> Biquad {
        let (k, wc) = warp(cutoffHz, sampleRateHz)
        let r2 = 2.0.squareRoot()
        let a0 = k * k + r2 * k * wc + wc * wc
        let b = k * k / a0
        return Biquad(b0: b, b1: -2 * b, b2: b, a1: (2 * wc * wc - 2 * k * k) / a0, a2: (k * k - r2 * k * wc + wc * wc) / a0)
    }

    /// Band-pass from the first-order Butterworth prototype (low-pass to band-pass transform,
    /// then bilinear with both edges pre-warped): unity gain at the centre sqrt(ωl·ωh), exactly
    /// −3 dB at `lowHz` and `highHz`. Precondition: 0 < low < high < rate / 2.
    public static func butterworthBandPass(lowHz: Hertz, highHz: Hertz, sampleRateHz: Hertz) -> Biquad {
        precondition(lowHz < highHz, "lowHz must be below highHz")
        let (k, wl) = warp(lowHz, sampleRateHz)
        let (_, wh) = warp(highHz, sampleRateHz)
        let bw = wh - wl, w02 = wl * wh
        let a0 = k * k + bw * k + w02
        let b = bw * k / a0
        return Biquad(b0: b, b1: 0, b2: -b, a1: (2 * w02 - 2 * k * k) / a0, a2: (k * k - bw * k + w02) / a0)
    }

    /// Bilinear constant K = 2 fs and pre-warped analog frequency 2 fs tan(π f / fs).
    static func warp(_ f: Double, _ fs: Double) -> (Double, Double) {
        precondition(f > 0 && fs > 0 && f < fs / 2, "need 0 < frequency < rate / 2")
        let k = 2 * fs
        let th = Double.pi * f / fs
        return (k, k * Math.sin(th) / Math.cos(th))
    }

    /// The gain for a constant input: (b0 + b1 + b2) / (1 + a1 + a2).
    var dcGain: Double { (b0 + b1 + b2) / (1 + a1 + a2) }

    /// Back to rest (zero state).
    public mutating func reset() { s1 = 0; s2 = 0 }

    /// Sets the state to the steady state for constant input `x` (output = DC gain × x).
    public mutating func prime(with x: Double) {
        let y = dcGain * x
        s2 = b2 * x - a2 * y
        s1 = b1 * x - a1 * y + s2
    }

    /// Filters one input; returns the output.
    @inlinable public mutating func process(_ x: Double) -> Double {
        let y = b0 * x + _s1
        _s1 = b1 * x - a1 * y + _s2
        _s2 = b2 * x - a2 * y
        return y
    }
    @usableFromInline var _s1: Double { get { s1 } set { s1 = newValue } }
    @usableFromInline var _s2: Double { get { s2 } set { s2 = newValue } }

    /// Filters a whole signal from rest (this value's state is not touched).
    public func filtered(_ xs: [Double]) -> [Double] {
        var f = self
        f.reset()
        return xs.map { f.process($0) }
    }

    /// Filters in place from the current state.
    public mutating func process(_ xs: inout [Double]) {
        for i in xs.indices { xs[i] = process(xs[i]) }
    }

    /// Zero-phase (forward then backward) filtering of a whole signal, each pass primed with
    /// the first sample it sees: no delay, squared magnitude response. For offline use.
    public func filteredZeroPhase(_ xs: [Double]) -> [Double] {
        guard let first = xs.first else { return [] }
        var f = self
        f.reset(); f.prime(with: first)
        var y = xs
        f.process(&y)
        y.reverse()
        f.reset(); f.prime(with: y[0])
        f.process(&y)
        y.reverse()
        return y
    }

    /// Complex gain magnitude at `frequencyHz` for sample rate `sampleRateHz`.
    public func magnitude(atHz f: Hertz, sampleRateHz fs: Hertz) -> Double {
        let w = 2 * Double.pi * f / fs
        let c1 = Math.cos(w), s1 = Math.sin(w), c2 = Math.cos(2 * w), s2 = Math.sin(2 * w)
        let nr = b0 + b1 * c1 + b2 * c2, ni = -(b1 * s1 + b2 * s2)
        let dr = 1 + a1 * c1 + a2 * c2, di = -(a1 * s1 + a2 * s2)
        return ((nr * nr + ni * ni) / (dr * dr + di * di)).squareRoot()
    }

    public static func == (a: Biquad, b: Biquad) -> Bool {
        a.b0 == b.b0 && a.b1 == b.b1 && a.b2 == b.b2 && a.a1 == b.a1 && a.a2 == b.a2
    }
    public func hash(into h: inout Hasher) { h.combine(b0); h.combine(b1); h.combine(b2); h.combine(a1); h.combine(a2) }
}
