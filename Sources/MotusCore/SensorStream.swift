/// One stream of timestamped samples of one kind, stored column-wise: `times[i]` and
/// `values[i * width ..< (i + 1) * width]`. SI units (see `StreamKind`).
///
/// A stream keeps its own clock: timestamps are seconds on whatever time base the source
/// used (since boot, since the Unix epoch, or from 0), never shifted silently.
public struct SensorStream: Sendable, Equatable {
    /// Unique name within a recording; by default the kind's short id (`acc`, `gyro`, …).
    public var name: String
    /// What the stream measures, which fixes its width and unit.
    public var kind: StreamKind
    /// Sample times (s), one per sample.
    public private(set) var times: [Seconds]
    /// Sample values, `width` per sample, row after row (SI units).
    public private(set) var values: [Double]

    /// A stream; `values` must hold `width × times.count` numbers (a programming error otherwise).
    public init(kind: StreamKind, name: String? = nil, times: [Seconds] = [], values: [Double] = []) {
        precondition(values.count == times.count * kind.width, "values must hold width × count numbers")
        self.kind = kind
        self.name = name ?? kind.rawValue
        self.times = times
        self.values = values
    }

    /// Values per sample.
    @inlinable public var width: Int { kind.width }
    /// Number of samples.
    @inlinable public var count: Int { times.count }
    /// True when the stream has no sample.
    @inlinable public var isEmpty: Bool { times.isEmpty }

    /// Reserves room for `n` samples.
    public mutating func reserveCapacity(_ n: Int) {
        times.reserveCapacity(n)
        values.reserveCapacity(n * kind.width)
    }

    /// Appends one sample from a buffer of `width` values (the readers' hot path: concrete,
    /// so no generic dispatch per sample).
    public mutating func append(time: Seconds, values sample: UnsafeBufferPointer<Double>) {
        precondition(sample.count == kind.width)
        times.append(time)
        values.append(contentsOf: sample)
    }

    /// Appends one sample; `sample.count` must equal `width`.
    public mutating func append(time: Seconds, _ sample: some Collection<Double>) {
        precondition(sample.count == kind.width)
        times.append(time)
        values.append(contentsOf: sample)
    }

    /// Appends a three-axis sample (a stream of width 3).
    public mutating func append(time: Seconds, _ v: Vector3) {
        precondition(kind.width == 3)
        times.append(time)
        values.append(v.x); values.append(v.y); values.append(v.z)
    }

    /// Appends an attitude sample (an attitude stream), stored w, x, y, z.
    public mutating func append(time: Seconds, _ q: Quaternion) {
        precondition(kind == .attitude)
        times.append(time)
        values.append(q.w); values.append(q.x); values.append(q.y); values.append(q.z)
    }

    /// Component `c` of sample `i`.
    @inlinable public func value(_ i: Int, _ c: Int) -> Double { values[i * width + c] }

    /// Sample `i` of a three-axis stream.
    @inlinable public func vector(_ i: Int) -> Vector3 {
        let b = i * 3
        return Vector3(values[b], values[b + 1], values[b + 2])
    }

    /// Sample `i` of an attitude stream.
    @inlinable public func quaternion(_ i: Int) -> Quaternion {
        let b = i * 4
        return Quaternion(w: values[b], x: values[b + 1], y: values[b + 2], z: values[b + 3])
    }

    /// All samples of a three-axis stream.
    public var vectorSamples: [VectorSample] {
        (0..<count).map { VectorSample(time: times[$0], value: vector($0)) }
    }

    /// Sample `i` of a step-counter stream.
    public func stepCounterSample(_ i: Int) -> StepCounterSample {
        let d = value(i, 1)
        return StepCounterSample(time: times[i], steps: value(i, 0), distanceMeters: d.isNaN ? nil : d)
    }

    /// Sample `i` of a location stream.
    public func locationSample(_ i: Int) -> LocationSample {
        func opt(_ c: Int) -> Double? { let v = value(i, c); return v.isNaN ? nil : v }
        return LocationSample(time: times[i], latitude: value(i, 0), longitude: value(i, 1), altitudeMeters: opt(2),
                              speedMetersPerSecond: opt(3), courseDegrees: opt(4),
                              horizontalAccuracyMeters: opt(5), verticalAccuracyMeters: opt(6))
    }

    /// Duration from first to last timestamp in seconds (0 for fewer than two samples).
    public var duration: Seconds { count > 1 ? times[count - 1] - times[0] : 0 }

    /// True for a measured reference, not a device's output: a stream whose name starts with
    /// `reference` (BROAD's optical motion capture, `reference_attitude`). Evaluation takes it
    /// as the truth, `fuse` keeps it, and resampling keeps its holes.
    public var isMeasuredReference: Bool { name.hasPrefix("reference") }

    /// Replaces the contents (used by cleaning and resampling code).
    public mutating func replace(times: [Seconds], values: [Double]) {
        precondition(values.count == times.count * kind.width)
        self.times = times
        self.values = values
    }

    /// Streams are equal when names, kinds and every number are equal, NaN matching NaN
    /// (NaN marks a value the source did not report).
    public static func == (a: SensorStream, b: SensorStream) -> Bool {
        guard a.name == b.name, a.kind == b.kind, a.times.count == b.times.count, a.values.count == b.values.count else { return false }
        for i in a.times.indices where !(a.times[i] == b.times[i] || (a.times[i].isNaN && b.times[i].isNaN)) { return false }
        for i in a.values.indices where !(a.values[i] == b.values[i] || (a.values[i].isNaN && b.values[i].isNaN)) { return false }
        return true
    }
}
