import MotusCore

/// How values between two samples are estimated.
public enum Interpolation: Sendable, Hashable {
    /// Component-wise straight line between the two neighbours (vectors, scalars, location).
    case linear
    /// Spherical linear interpolation of unit quaternions (w, x, y, z) along the shorter arc.
    case slerp
    /// Sample-and-hold: the latest sample at or before the grid time. For cumulative counts
    /// (step counter), where a fractional count between two readings means nothing and the
    /// count must never run ahead of what the sensor reported.
    case hold

    /// `.slerp` for attitude, `.hold` for the step counter, `.linear` for everything else.
    public static func natural(for kind: StreamKind) -> Interpolation {
        switch kind {
        case .attitude: .slerp
        case .stepCounter: .hold
        default: .linear
        }
    }
}

/// The fixed-rate grid and the gap rule shared by every resampler and by alignment.
///
/// Grid point `k` (any integer) is at `originSeconds + Double(k) / rateHz`, computed that way
/// (not by accumulating a step), so two streams resampled separately with the same origin and
/// rate put identical `Double` times at identical indices and line up exactly.
public struct ResamplerSettings: Sendable, Hashable {
    /// Output rate in Hz. Precondition: finite and > 0.
    public var rateHz: Hertz
    /// Time of grid point 0 on the stream clock, seconds. Default 0: grid times are exact
    /// multiples of 1/rate, so streams on one clock align without agreeing on anything else.
    public var originSeconds: Seconds
    /// No value is interpolated across an interval between samples longer than this
    /// (seconds): the output splits into segments there. Default 0.1 s. It bridges the
    /// holes real walking data has (IPOL loses at most 6 packets in a row while walking,
    /// 0.07 s; Pixel phones drop about 20 ms; Samsung/MPU6500 intervals reach 12.8 ms) while a
    /// bridge of 0.1 s is at most a fifth of a step at walking cadence, short next to the
    /// 0.3–0.6 s features the step counter looks at. Longer losses (IPOL's 0.34 s) split.
    /// For slow streams (location at 1 Hz, step counter, pressure) pass a few periods of
    /// the source, e.g. 2.5 / nominal rate, or `.infinity` to never split.
    public var maxGapSeconds: Seconds
    /// nil: `Interpolation.natural(for:)` of the stream's kind.
    public var interpolation: Interpolation?

    /// Settings; traps on a rate that is not finite and positive, a non-finite origin or a
    /// non-positive gap (programming errors, not input).
    public init(rateHz: Hertz, originSeconds: Seconds = 0, maxGapSeconds: Seconds = 0.1, interpolation: Interpolation? = nil) {
        precondition(rateHz.isFinite && rateHz > 0, "rateHz must be finite and > 0")
        precondition(originSeconds.isFinite, "originSeconds must be finite")
        precondition(maxGapSeconds > 0, "maxGapSeconds must be > 0")
        self.rateHz = rateHz; self.originSeconds = originSeconds; self.maxGapSeconds = maxGapSeconds
        self.interpolation = interpolation
    }

    /// Time of grid point `k`, seconds.
    @inlinable public func time(_ k: Int) -> Seconds { originSeconds + Double(k) / rateHz }

    /// Smallest `k` with `time(k) >= t`.
    @inlinable public func firstIndex(atOrAfter t: Seconds) -> Int {
        var k = Int(((t - originSeconds) * rateHz).rounded(.up))
        while time(k) < t { k += 1 }
        while time(k - 1) >= t { k -= 1 }
        return k
    }

    /// Largest `k` with `time(k) <= t`.
    @inlinable public func lastIndex(atOrBefore t: Seconds) -> Int {
        var k = Int(((t - originSeconds) * rateHz).rounded(.down))
        while time(k) > t { k -= 1 }
        while time(k + 1) <= t { k += 1 }
        return k
    }
}

/// A contiguous run of fixed-rate output: `count` samples at grid indices
/// `firstIndex ..< firstIndex + count`, values flat (`values[i * width + c]`), SI units of the
/// source stream.
public struct ResampledSegment: Sendable, Equatable {
    /// Output rate (Hz).
    public var rateHz: Hertz
    /// Origin of the grid (s, source clock).
    public var originSeconds: Seconds
    /// Grid index of the first sample (see `ResamplerSettings.time(_:)`).
    public var firstIndex: Int
    /// Values per sample.
    public var width: Int
    /// The samples' values, `width` per sample.
    public var values: [Double]

    /// A segment; `values.count` must be a multiple of `width`.
    public init(rateHz: Hertz, originSeconds: Seconds, firstIndex: Int, width: Int, values: [Double]) {
        precondition(width > 0 && values.count % width == 0)
        self.rateHz = rateHz; self.originSeconds = originSeconds; self.firstIndex = firstIndex; self.width = width; self.values = values
    }

    /// Samples in the segment.
    @inlinable public var count: Int { values.count / width }
    /// One past the grid index of the last sample.
    @inlinable public var endIndex: Int { firstIndex + count }
    /// Time of the first sample, seconds on the source clock.
    @inlinable public var start: Seconds { time(0) }
    /// Time of sample `i`: `origin + (firstIndex + i) / rate`.
    @inlinable public func time(_ i: Int) -> Seconds { originSeconds + Double(firstIndex + i) / rateHz }
    /// Component `c` of sample `i`.
    @inlinable public func value(_ i: Int, _ c: Int) -> Double { values[i * width + c] }
    /// Duration covered, seconds: `(count − 1) / rate`.
    public var duration: Seconds { count > 1 ? Double(count - 1) / rateHz : 0 }
}

/// Resamples one sample at a time onto the fixed grid of `ResamplerSettings`: push a sample,
/// then read the zero or more grid outputs it completed. Gives exactly (bit for bit) the
/// output of `Resampler.resample`, which is built on it.
///
/// Rules: every grid time `g` with `t_a ≤ g ≤ t_b` inside a run of samples `a…b` whose
/// consecutive intervals are all ≤ `maxGapSeconds` gets a value; at `g` equal to a sample
/// time the value is that sample's, exactly; nothing is produced inside a longer interval,
/// and the first output after one has `startsSegment` set. A sample whose time is not
/// finite or not later than the previous one is ignored and counted in `rejected` (clean
/// the stream first to handle such samples deliberately).
///
/// Allocation: two buffers of `width` values at init; `push` and the output accessors
/// allocate nothing. Outputs are computed on demand from the two samples around them, so
/// there is no output buffer and no limit on outputs per push.
public struct StreamingResampler: Sendable {
    /// Rate, origin, gap limit.
    public let settings: ResamplerSettings
    /// Values per sample.
    public let width: Int
    /// How outputs are drawn between two samples.
    public let interpolation: Interpolation
    private var lo: [Double]
    private var hi: [Double]
    private var loTime = -Double.infinity
    private var hiTime = -Double.infinity
    private var hasSample = false
    private var nextIndex = 0
    private var segmentHasOutput = false

    /// Grid index of the first output completed by the last push.
    public private(set) var outputFirstIndex = 0
    /// Number of outputs completed by the last push.
    public private(set) var outputCount = 0
    /// Whether the first output of the last push begins a new segment (first output ever,
    /// or first after a gap longer than `maxGapSeconds`).
    public private(set) var outputStartsSegment = false
    /// Samples ignored because their time was not finite or not increasing.
    public private(set) var rejected = 0
    /// Intervals longer than `maxGapSeconds` seen so far (each one splits the output).
    public private(set) var splits = 0

    /// - Parameters: `width` values per sample (`StreamKind.width`); `interpolation` (use
    ///   `.slerp` only with width 4 quaternions w, x, y, z).
    public init(width: Int, settings: ResamplerSettings, interpolation: Interpolation = .linear) {
        precondition(width > 0)
        precondition(interpolation != .slerp || width == 4, "slerp needs width-4 quaternions")
        self.width = width; self.settings = settings; self.interpolation = interpolation
        lo = [Double](repeating: 0, count: width)
        hi = [Double](repeating: 0, count: width)
    }

    /// A resampler for streams of `kind`, interpolating as `settings.interpolation` says or
    /// naturally for the kind.
    public init(kind: StreamKind, settings: ResamplerSettings) {
        self.init(width: kind.width, settings: settings, interpolation: settings.interpolation ?? .natural(for: kind))
    }

    /// Forgets all samples (keeps settings and buffers).
    public mutating func reset() {
        hasSample = false; loTime = -.infinity; hiTime = -.infinity; nextIndex = 0; segmentHasOutput = false
        outputCount = 0; outputFirstIndex = 0; outputStartsSegment = false; rejected = 0; splits = 0
    }

    /// Pushes one sample (`width` values) at `time` seconds; returns `outputCount`.
    /// Outputs of the previous push are no longer available afterwards.
    @discardableResult
    public mutating func push(time t: Seconds, _ sample: UnsafeBufferPointer<Double>) -> Int {
        precondition(sample.count >= width)
        outputCount = 0; outputStartsSegment = false
        guard t.isFinite, !hasSample || t > hiTime else { rejected += 1; return 0 }
        swap(&lo, &hi)
        loTime = hiTime
        for c in 0..<width { hi[c] = sample[c] }
        hiTime = t
        if !hasSample || t - loTime > settings.maxGapSeconds {
            // New segment starts at this sample: only a grid point exactly at t is available.
            if hasSample { splits += 1 }
            hasSample = true
            for c in 0..<width { lo[c] = hi[c] }
            loTime = t
            segmentHasOutput = false
            nextIndex = settings.firstIndex(atOrAfter: t)
        }
        let last = settings.lastIndex(atOrBefore: t)
        if last >= nextIndex {
            outputFirstIndex = nextIndex
            outputCount = last - nextIndex + 1
            outputStartsSegment = !segmentHasOutput
            segmentHasOutput = true
            nextIndex = last + 1
        }
        return outputCount
    }

    /// Pushes sample `index` of a flat value array (`values[index * width ..< (index + 1) * width]`).
    @discardableResult
    public mutating func push(time t: Seconds, values: [Double], index: Int) -> Int {
        values.withUnsafeBufferPointer { p in
            push(time: t, UnsafeBufferPointer(rebasing: p[(index * width)..<((index + 1) * width)]))
        }
    }

    /// Pushes a three-axis sample (width 3).
    @discardableResult
    public mutating func push(time t: Seconds, _ v: Vector3) -> Int {
        precondition(width == 3)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 3) { p in
            p[0] = v.x; p[1] = v.y; p[2] = v.z
            return push(time: t, UnsafeBufferPointer(p))
        }
    }

    /// Pushes a quaternion sample (width 4, w first).
    @discardableResult
    public mutating func push(time t: Seconds, _ q: Quaternion) -> Int {
        precondition(width == 4)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: 4) { p in
            p[0] = q.w; p[1] = q.x; p[2] = q.y; p[3] = q.z
            return push(time: t, UnsafeBufferPointer(p))
        }
    }

    /// Grid index of output `j` (0 ≤ j < outputCount) of the last push.
    @inlinable public func outputIndex(_ j: Int) -> Int { outputFirstIndex + j }
    /// Time of output `j` of the last push, seconds.
    @inlinable public func outputTime(_ j: Int) -> Seconds { settings.time(outputFirstIndex + j) }

    /// Writes the `width` values of output `j` of the last push to `out[0..<width]`.
    public func output(_ j: Int, into out: UnsafeMutableBufferPointer<Double>) {
        precondition(j >= 0 && j < outputCount && out.count >= width)
        let g = outputTime(j)
        if g == hiTime { for c in 0..<width { out[c] = hi[c] }; return }
        if g == loTime { for c in 0..<width { out[c] = lo[c] }; return }
        switch interpolation {
        case .hold:
            for c in 0..<width { out[c] = lo[c] }
        case .linear:
            let f = (g - loTime) / (hiTime - loTime)
            for c in 0..<width { out[c] = lo[c] + f * (hi[c] - lo[c]) }
        case .slerp:
            let f = (g - loTime) / (hiTime - loTime)
            let q = Quaternion.slerp(Quaternion(w: lo[0], x: lo[1], y: lo[2], z: lo[3]),
                                     Quaternion(w: hi[0], x: hi[1], y: hi[2], z: hi[3]), f)
            out[0] = q.w; out[1] = q.x; out[2] = q.y; out[3] = q.z
        }
    }

    /// Component `c` of output `j` of the last push (for slerp, computes the whole quaternion).
    public func output(_ j: Int, _ c: Int) -> Double {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: width) { p in
            output(j, into: p)
            return p[c]
        }
    }

    /// Output `j` of a three-axis stream.
    public func outputVector(_ j: Int) -> Vector3 {
        Vector3(output(j, 0), output(j, 1), output(j, 2))
    }

    /// Output `j` of an attitude stream.
    public func outputQuaternion(_ j: Int) -> Quaternion {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 4) { p in
            output(j, into: p)
            return Quaternion(w: p[0], x: p[1], y: p[2], z: p[3])
        }
    }

    /// Appends the `width` values of output `j` to `array` (for batch use).
    public func appendOutput(_ j: Int, to array: inout [Double]) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: width) { p in
            output(j, into: p)
            for c in 0..<width { array.append(p[c]) }
        }
    }
}

/// Resamples whole streams onto a fixed-rate grid (see `ResamplerSettings` for the grid and
/// the gap rule, `StreamingResampler` for the interpolation rules).
public enum Resampler {
    /// Resamples `times`/`values` (width values per sample, strictly increasing finite
    /// times; anything else is skipped as in `StreamingResampler`). Returns the contiguous
    /// fixed-rate segments in time order, none empty. O(n + outputs) time.
    public static func resample(times: [Seconds], values: [Double], width: Int, settings: ResamplerSettings,
                                interpolation: Interpolation = .linear) -> [ResampledSegment] {
        precondition(values.count == times.count * width)
        var r = StreamingResampler(width: width, settings: settings, interpolation: interpolation)
        // All outputs go to one buffer first; segment boundaries are recorded and copied out
        // at the end, so no segment array keeps spare capacity.
        var all: [Double] = []
        if times.count > 1, (times[times.count - 1] - times[0]).isFinite {
            let est = (times[times.count - 1] - times[0]) * settings.rateHz + 2
            if est > 0 && est < Double(1 << 28) { all.reserveCapacity(Int(est) * width) }
        }
        var starts: [(offset: Int, firstIndex: Int)] = []
        values.withUnsafeBufferPointer { vp in
            for i in 0..<times.count {
                let n = r.push(time: times[i], UnsafeBufferPointer(rebasing: vp[(i * width)..<((i + 1) * width)]))
                if n == 0 { continue }
                if r.outputStartsSegment { starts.append((all.count, r.outputFirstIndex)) }
                for j in 0..<n { r.appendOutput(j, to: &all) }
            }
        }
        var segments: [ResampledSegment] = []
        segments.reserveCapacity(starts.count)
        for (s, start) in starts.enumerated() {
            let end = s + 1 < starts.count ? starts[s + 1].offset : all.count
            segments.append(ResampledSegment(rateHz: settings.rateHz, originSeconds: settings.originSeconds,
                                             firstIndex: start.firstIndex, width: width, values: Array(all[start.offset..<end])))
        }
        return segments
    }

    /// Resamples `stream`, interpolating as `settings.interpolation` says or naturally for its
    /// kind (`Interpolation.natural(for:)`). `offsetSeconds` is added to every timestamp first.
    public static func resample(_ stream: SensorStream, settings: ResamplerSettings, offsetSeconds: Seconds = 0) -> [ResampledSegment] {
        let times = offsetSeconds == 0 ? stream.times : stream.times.map { $0 + offsetSeconds }
        return resample(times: times, values: stream.values, width: stream.width, settings: settings,
                        interpolation: settings.interpolation ?? .natural(for: stream.kind))
    }
}
