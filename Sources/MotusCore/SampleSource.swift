extension SensorSample {
    /// The sample of a stream of `kind` whose components (in `kind.columns` order, NaN for a
    /// missing optional one) are `value(0)…value(kind.width - 1)`. Readers and in-memory
    /// streams build samples through this one function, so both give the same values.
    @inlinable
    public init(kind: StreamKind, time t: Seconds, value: (Int) -> Double) {
        func vector() -> Vector3 { Vector3(value(0), value(1), value(2)) }
        func optional(_ c: Int) -> Double? { let v = value(c); return v.isNaN ? nil : v }
        switch kind {
        case .acceleration: self = .acceleration(VectorSample(time: t, value: vector()))
        case .userAcceleration: self = .userAcceleration(VectorSample(time: t, value: vector()))
        case .gravity: self = .gravity(VectorSample(time: t, value: vector()))
        case .rotationRate: self = .rotationRate(VectorSample(time: t, value: vector()))
        case .magneticField: self = .magneticField(VectorSample(time: t, value: vector()))
        case .attitude: self = .attitude(AttitudeSample(time: t, attitude: Quaternion(w: value(0), x: value(1), y: value(2), z: value(3))))
        case .stepCounter: self = .stepCounter(StepCounterSample(time: t, steps: value(0), distanceMeters: optional(1)))
        case .location:
            self = .location(LocationSample(time: t, latitude: value(0), longitude: value(1), altitudeMeters: optional(2),
                                            speedMetersPerSecond: optional(3), courseDegrees: optional(4),
                                            horizontalAccuracyMeters: optional(5), verticalAccuracyMeters: optional(6)))
        case .pressure: self = .pressure(PressureSample(time: t, pascals: value(0)))
        }
    }
}

extension SensorStream {
    /// Sample `i` as a `SensorSample` (the shape a live app pushes).
    @inlinable
    public func sample(_ i: Int) -> SensorSample {
        let b = i * width
        return SensorSample(kind: kind, time: times[i]) { values[b + $0] }
    }
}

extension Recording {
    /// Calls `body` with every sample of the streams of `kinds` (the first stream of each kind),
    /// in `SampleMerge` order: time, ties in `kinds` order. The in-memory counterpart of
    /// MotusIO's `SampleReader.forEach`, which gives the same calls from a file without
    /// holding it.
    public func forEachSample(kinds: [StreamKind], _ body: (SensorSample) -> Void) {
        var merge = SampleMerge(self, kinds: kinds)
        while let (s, i, _) = merge.next() { body(merge.streams[s].sample(i)) }
    }
}
