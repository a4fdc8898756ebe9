import Testing
import MotusCore

/// CoreMotion's and Android's values into Motus samples, on known poses.
@Suite struct DeviceAdapterTests {
    static let g = 9.80665

    static func close(_ a: Vector3, _ b: Vector3, _ tol: Double = 1e-12) -> Bool { (a - b).norm <= tol }
    static func vector(_ s: SensorSample) -> Vector3? {
        switch s {
        case .acceleration(let v), .userAcceleration(let v), .gravity(let v), .rotationRate(let v), .magneticField(let v): v.value
        default: nil
        }
    }

    @Test func coreMotionPhoneFaceUp() {
        // At rest face up CoreMotion reads gravity (0, 0, −1) g and no user acceleration.
        let m = CoreMotionAdapter.deviceMotion(timestamp: 12.5, userAccelerationG: .zero, gravityG: Vector3(0, 0, -1),
                                               rotationRateRadiansPerSecond: .zero, attitude: .identity,
                                               magneticFieldMicroteslas: Vector3(0, 22, -40))
        #expect(m.gravity == VectorSample(time: 12.5, value: Vector3(0, 0, Self.g)))
        #expect(m.acceleration.value == Vector3(0, 0, Self.g))
        #expect(m.userAcceleration.value == .zero)
        #expect(m.magneticField?.value == Vector3(0, 22, -40))
        // The attitude takes the device's gravity (up) to the reference frame's up.
        #expect(Self.close(m.attitude.attitude.rotate(m.gravity.value), Vector3(0, 0, Self.g)))
        // The raw accelerometer reads the same as gravity + user acceleration.
        let raw = CoreMotionAdapter.accelerometerSample(timestamp: 12.5, xG: 0, yG: 0, zG: -1)
        #expect(raw == .acceleration(m.acceleration))
        // Order for a session: the driver (user acceleration) last.
        var kinds: [StreamKind] = []
        m.forEach { kinds.append($0.kind) }
        #expect(kinds == [.gravity, .rotationRate, .magneticField, .attitude, .userAcceleration])
    }

    @Test func coreMotionTiltedPoseAgreesWithItsAttitude() {
        // CoreMotion's gravity is the reference frame's down seen from the device:
        // gravity = q⁻¹ · (0, 0, −1). After the adapter, gravity must be q⁻¹ · (0, 0, +g), so
        // the attitude and the gravity keep agreeing in Motus' sign.
        for (roll, pitch, yaw) in [(0.3, -0.7, 2.0), (-1.2, 0.4, -0.5), (2.9, 1.1, 0.0)] {
            let q = (Quaternion(axis: Vector3(0, 0, 1), angle: yaw) * Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
                     * Quaternion(axis: Vector3(0, 1, 0), angle: roll))
            let cmGravity = q.inverseRotate(Vector3(0, 0, -1))
            let m = CoreMotionAdapter.deviceMotion(timestamp: 0, userAccelerationG: Vector3(0.1, -0.2, 0.05), gravityG: cmGravity,
                                                   rotationRateRadiansPerSecond: Vector3(0.1, 0.2, 0.3), attitude: q)
            #expect(Self.close(m.gravity.value, q.inverseRotate(Vector3(0, 0, Self.g)), 1e-9))
            #expect(Self.close(m.userAcceleration.value, Vector3(-0.1, 0.2, -0.05) * Self.g, 1e-12))
            #expect(m.magneticField == nil)
        }
    }

    @Test func coreMotionTurnAboutZ() {
        // Turning left (counter-clockwise seen from above) on a table at 1.5 rad/s: the rate
        // passes unchanged; a quarter turn of yaw takes the device's x axis to the reference y.
        let gyro = CoreMotionAdapter.gyroSample(timestamp: 3, xRadiansPerSecond: 0, yRadiansPerSecond: 0, zRadiansPerSecond: 1.5)
        #expect(gyro == .rotationRate(VectorSample(time: 3, value: Vector3(0, 0, 1.5))))
        let yaw90 = Quaternion(w: (0.5).squareRoot(), x: 0, y: 0, z: (0.5).squareRoot())
        let m = CoreMotionAdapter.deviceMotion(timestamp: 3, userAccelerationG: .zero, gravityG: Vector3(0, 0, -1),
                                               rotationRateRadiansPerSecond: Vector3(0, 0, 1.5), attitude: yaw90)
        #expect(Self.close(m.attitude.attitude.rotate(Vector3(1, 0, 0)), Vector3(0, 1, 0)))
        #expect(m.rotationRate.value == Vector3(0, 0, 1.5))
        let mag = CoreMotionAdapter.magnetometerSample(timestamp: 3, xMicroteslas: 1, yMicroteslas: 2, zMicroteslas: 3)
        #expect(mag == .magneticField(VectorSample(time: 3, value: Vector3(1, 2, 3))))
    }

    @Test func coreMotionRoundTripOfUnits() {
        let a = Vector3(-2.1437083114624023, 4.811896424102783, 8.406191666412353)
        let inG = CoreMotionAdapter.accelerationInG(a)
        #expect(inG.z < 0, "face-up-ish reads negative z in CoreMotion")
        #expect(Self.close(CoreMotionAdapter.acceleration(xG: inG.x, yG: inG.y, zG: inG.z), a, 1e-14 * a.norm))
    }

    @Test func androidRotationVectorToQuaternion() throws {
        // Flat on a table, top edge pointing west: a quarter turn counter-clockwise about up.
        // Android's rotation vector is axis·sin(θ/2), then cos(θ/2).
        let s = Float(0.5).squareRoot()
        let flatWest = try AndroidSensorAdapter.sample(sensorType: 11, timestampNanoseconds: 5_000_000_000, values: [0, 0, s, s, -1])
        guard case .attitude(let a) = flatWest else { Issue.record("not an attitude: \(flatWest)"); return }
        #expect(a.time == 5)
        // East-north-up: the device's y axis (top edge) points west, -x.
        #expect(Self.close(a.attitude.rotate(Vector3(0, 1, 0)), Vector3(-1, 0, 0), 1e-6))
        #expect(abs(a.attitude.norm - 1) < 1e-12)
        // Upright in portrait, facing north: the screen (z) faces south, the top edge (y) up.
        // Its accelerometer reads +9.81 on y; the attitude must agree.
        let upright = try AndroidSensorAdapter.sample(sensorType: 11, timestampNanoseconds: 0, values: [s, 0, 0])   // no values[3]: pre-API-18
        guard case .attitude(let u) = upright else { Issue.record("not an attitude"); return }
        #expect(abs(u.attitude.w - Double(s)) < 1e-6, "w recovered from the vector part")
        #expect(Self.close(u.attitude.inverseRotate(Vector3(0, 0, Self.g)), Vector3(0, Self.g, 0), 1e-5))
        #expect(Self.close(u.attitude.rotate(Vector3(0, 0, 1)), Vector3(0, -1, 0), 1e-6))
    }

    @Test func androidSensorTypesAndUnits() throws {
        let t: Int64 = 1_234_567_890_123
        func sample(_ type: Int32, _ v: [Float]) throws -> SensorSample {
            try AndroidSensorAdapter.sample(sensorType: type, timestampNanoseconds: t, values: v, originNanoseconds: 1_000_000_000_000)
        }
        let time = 234.567890123
        #expect(try sample(1, [0.1, 0.2, 9.81]) == .acceleration(VectorSample(time: time, value: Vector3(Double(Float(0.1)), Double(Float(0.2)), Double(Float(9.81))))))
        #expect(try sample(10, [1, 0, 0]).kind == .userAcceleration)
        #expect(try sample(9, [0, 0, 9.5]).kind == .gravity)
        #expect(try sample(4, [0, 0, 1.5]) == .rotationRate(VectorSample(time: time, value: Vector3(0, 0, 1.5))))
        #expect(try sample(16, [0, 0, 1.5, 0, 0, 0.25]) == .rotationRate(VectorSample(time: time, value: Vector3(0, 0, 1.5))))
        #expect(try AndroidSensorAdapter.sample(sensorType: 16, timestampNanoseconds: 0, values: [0, 0, 1.5, 0, 0, 0.25] as [Float],
                                                removeGyroscopeDrift: true) == .rotationRate(VectorSample(time: 0, value: Vector3(0, 0, 1.25))))
        #expect(try sample(2, [10, 20, -40]) == .magneticField(VectorSample(time: time, value: Vector3(10, 20, -40))))
        #expect(try sample(14, [15, 20, -40, 5, 0, 0]) == .magneticField(VectorSample(time: time, value: Vector3(10, 20, -40))))
        #expect(try sample(19, [4711]) == .stepCounter(StepCounterSample(time: time, steps: 4711)))
        #expect(try sample(6, [1013.25]) == .pressure(PressureSample(time: time, pascals: Double(Float(1013.25)) * 100)))
        #expect(try sample(15, [0, 0, 0, 1]) == .attitude(AttitudeSample(time: time, attitude: .identity)))
    }

    @Test func androidTimestamps() {
        #expect(AndroidSensorAdapter.seconds(timestampNanoseconds: 1_000_000_123, originNanoseconds: 123) == 1)
        #expect(AndroidSensorAdapter.seconds(timestampNanoseconds: 86_400_000_000_000) == 86_400)
        // Differences that do not fit in 64 bits still give a number (no trap).
        let far = AndroidSensorAdapter.seconds(timestampNanoseconds: .max, originNanoseconds: .min)
        #expect(far.isFinite && abs(far - 1.8446744073709552e10) < 1)
    }

    @Test func androidBadEventsAreErrors() {
        #expect(throws: InputError(.badValue, at: SourceLocation(file: "SensorEvent(type 5, timestamp 7 ns)"),
                                   found: "sensor type 5", expected: "one of the types Motus reads: 1, 2, 4, 6, 9, 10, 11, 14, 15, 16, 19")) {
            try AndroidSensorAdapter.sample(sensorType: 5, timestampNanoseconds: 7, values: [Float(300)])
        }
        #expect(throws: InputError(.missingColumn, at: SourceLocation(file: "SensorEvent(type 16, timestamp 7 ns)"),
                                   found: "3 values", expected: "at least 6 values for sensor type 16")) {
            try AndroidSensorAdapter.sample(sensorType: 16, timestampNanoseconds: 7, values: [Float](repeating: 0, count: 3))
        }
        #expect(throws: InputError(.nonFinite, at: SourceLocation(file: "SensorEvent(type 1, timestamp 7 ns)"),
                                   found: "values[1] = nan", expected: "finite values")) {
            try AndroidSensorAdapter.sample(sensorType: 1, timestampNanoseconds: 7, values: [0, .nan, 9.81] as [Float])
        }
    }
}
