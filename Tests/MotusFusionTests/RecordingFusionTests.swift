import MotusTestSupport
import Testing
import MotusCore
import MotusFusion

/// `RecordingFusion.fuse`, the library side of `motus fuse`.
@Suite struct RecordingFusionTests {
    static let rotations: [SyntheticRotation] = [
        SyntheticRotation(axis: Vector3(1, 0, 0), rate: 0.3),                 // tilting over, through upside down
        SyntheticRotation(axis: Vector3(0, 1, 0), rate: -0.8, seconds: 10),   // the other way, faster
        SyntheticRotation(axis: Vector3(0, 0, 1), rate: 0.5,                  // a cone: turning about a tilted z axis
                          start: Quaternion(axis: Vector3(0, 1, 0), angle: 0.5)),
    ]

    /// A device turning about one axis at a known rate: the written attitude follows the true
    /// one at every sample, gravity is the accelerometer reading (nothing else acts), and the
    /// user acceleration is zero.
    @Test(arguments: rotations)
    func attitudeFollowsAKnownRotation(_ motion: SyntheticRotation) throws {
        var r = motion.recording
        let result = try RecordingFusion.fuse(&r, source: "synthetic")
        #expect(result.method == .orientationFilter && result.replaced.isEmpty && result.written == ["grav", "uacc", "att"])
        #expect(result.samples == motion.count && !result.biasCorrectedRotationRate && result.settings == .default)
        let att = try #require(r.stream(named: "att")), grav = try #require(r.stream(named: "grav")), uacc = try #require(r.stream(named: "uacc"))
        #expect(att.count == motion.count && grav.count == motion.count && uacc.count == motion.count)
        var worstAttitude = 0.0, worstGravity = 0.0, worstUser = 0.0
        for i in 0..<att.count {
            let t = att.times[i]
            #expect(t == motion.time(i))
            worstAttitude = max(worstAttitude, att.quaternion(i).angle(to: motion.attitude(at: t)) * Math.degreesPerRadian)
            worstGravity = max(worstGravity, grav.vector(i).angle(to: motion.acceleration(at: t)) * Math.degreesPerRadian)
            worstUser = max(worstUser, uacc.vector(i).norm)
        }
        // The total turn is several radians: a filter that did not follow would be off by tens of degrees.
        #expect(worstAttitude < 0.5, "attitude off by \(worstAttitude)°")
        #expect(worstGravity < 0.5, "gravity off by \(worstGravity)°")
        #expect(worstUser < 0.1, "user acceleration up to \(worstUser) m/s²")
    }

    /// A device's own estimates are replaced; a measured reference is kept untouched.
    @Test func replacesTheDeviceEstimatesAndKeepsTheReference() throws {
        let motion = SyntheticRotation(axis: Vector3(1, 0, 0), rate: 0.3, seconds: 5)
        var r = motion.recording
        let n = motion.count, times = r.streams[0].times
        // A wrong device estimate (face down, no heading) under other names, and a true reference.
        r.streams.append(SensorStream(kind: .gravity, name: "gravity", times: times, values: [Double](repeating: -9.8, count: 3 * n)))
        r.streams.append(SensorStream(kind: .attitude, name: "att", times: times, values: (0..<n).flatMap { _ in [0.0, 1, 0, 0] }))
        let reference = SensorStream(kind: .attitude, name: "reference_attitude", times: times,
                                     values: (0..<n).flatMap { i -> [Double] in let q = motion.attitude(at: times[i]); return [q.w, q.x, q.y, q.z] })
        r.streams.append(reference)
        let result = try RecordingFusion.fuse(&r, source: "synthetic")
        #expect(result.replaced == ["gravity", "att"])
        #expect(r.streams.map(\.name) == ["acc", "gyro", "grav", "uacc", "att", "reference_attitude"])
        #expect(r.stream(named: "reference_attitude") == reference)
        let att = try #require(r.stream(.attitude))
        #expect(att.name == "att")
        #expect(att.quaternion(n - 1).angle(to: motion.attitude(at: times[n - 1])) * Math.degreesPerRadian < 0.5)
    }

    /// Without a rotation rate, gravity from the accelerometer alone and no attitude.
    @Test func accelerometerOnlyGivesGravityWithoutAttitude() throws {
        var r = SyntheticRotation(axis: Vector3(1, 0, 0), rate: 0, seconds: 3).recording
        r.streams.removeAll { $0.kind == .rotationRate }
        let result = try RecordingFusion.fuse(&r, source: "still.csv")
        #expect(result.method == .lowPass && result.written == ["grav", "uacc"] && r.stream(.attitude) == nil)
        let g = try #require(r.stream(.gravity))
        #expect(abs(g.vector(g.count - 1).z - Units.standardGravity) < 1e-9)
    }

    /// Device motion only (gravity + user acceleration, CoreMotion's rotation rate): the
    /// acceleration is rebuilt and the rotation rate is taken as bias-corrected.
    @Test func deviceMotionOnlyIsRebuilt() throws {
        let motion = SyntheticRotation(axis: Vector3(0, 1, 0), rate: 0.4, seconds: 5)
        let base = motion.recording
        let acc = base.streams[0]
        var r = Recording(streams: [base.streams[1],
                                    SensorStream(kind: .gravity, times: acc.times, values: acc.values),
                                    SensorStream(kind: .userAcceleration, times: acc.times, values: [Double](repeating: 0, count: acc.values.count))])
        let result = try RecordingFusion.fuse(&r, source: "motion.csv")
        #expect(result.accelerationRebuilt && result.biasCorrectedRotationRate && result.settings == .biasCorrectedGyroscope)
        #expect(result.replaced == ["grav", "uacc"] && r.stream(.acceleration)?.values == acc.values)
        #expect(r.metadata.extra["acc"] == "derived: gravity + userAcceleration")
    }

    /// Gravity and user acceleration at different rates: each user sample takes the latest
    /// gravity, as a session pairs them (`Recording.deviceMotionAcceleration`).
    @Test func deviceMotionAtTwoRatesIsRebuilt() throws {
        let base = SyntheticRotation(axis: Vector3(1, 0, 0), rate: 0.3, seconds: 1).recording
        let acc = base.streams[0]
        var gravity = SensorStream(kind: .gravity)
        for i in Swift.stride(from: 0, to: acc.count, by: 2) { gravity.append(time: acc.times[i], acc.vector(i)) }
        let user = SensorStream(kind: .userAcceleration, times: acc.times, values: [Double](repeating: 0.5, count: acc.values.count))
        var r = Recording(streams: [base.streams[1], gravity, user])
        let result = try RecordingFusion.fuse(&r, source: "motion.csv")
        let rebuilt = try #require(r.stream(.acceleration))
        #expect(result.accelerationRebuilt && rebuilt.times == acc.times)
        for i in [0, 1, 2, 3, acc.count - 1] {
            #expect(rebuilt.vector(i) == acc.vector(i - i % 2) + Vector3(0.5, 0.5, 0.5))
        }
    }

    @Test func noAccelerationIsAnError() throws {
        var r = SyntheticRotation(axis: Vector3(1, 0, 0), rate: 0.3, seconds: 1).recording
        r.streams.removeAll { $0.kind == .acceleration }
        #expect(throws: InputError(.missingColumn, at: SourceLocation(file: "gyro.csv"), found: "streams gyro",
                                   expected: "an acceleration stream 'acc' (gravity included), or gravity and user acceleration")) {
            try RecordingFusion.fuse(&r, source: "gyro.csv")
        }
    }

    /// A recording built in code may hold a NaN (the readers refuse one): it is named, not
    /// spread through the filter's state into every later sample.
    @Test func nonFiniteSampleIsAnError() throws {
        let base = SyntheticRotation(axis: Vector3(1, 0, 0), rate: 0.3, seconds: 1).recording
        var gyro = base.streams[1].values
        gyro[3 * 10 + 1] = .nan
        var r = Recording(streams: [base.streams[0], SensorStream(kind: .rotationRate, times: base.streams[1].times, values: gyro)])
        #expect(throws: InputError(.badValue, at: SourceLocation(file: "app"), found: "nan in stream 'gyro' at 0.1 s",
                                   expected: "finite rotation rate values")) {
            try RecordingFusion.fuse(&r, source: "app")
        }
    }

    @Test func biasCorrectedRotationRateIsReadFromTheMetadata() {
        #expect(RecordingFusion.rotationRateIsBiasCorrected(RecordingMetadata(extra: ["acc": "derived: gravity + userAcceleration"])))
        #expect(RecordingFusion.rotationRateIsBiasCorrected(RecordingMetadata(extra: ["gyro": "CoreMotion rotationRate (bias-corrected)"])))
        #expect(!RecordingFusion.rotationRateIsBiasCorrected(RecordingMetadata(extra: ["acc": "raw"])))
    }
}

extension SyntheticRotation: CustomTestStringConvertible {
    public var testDescription: String { "axis \(axis) at \(rate) rad/s" }
}
