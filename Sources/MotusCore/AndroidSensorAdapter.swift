/// The Android sensor types Motus reads, with `android.hardware.Sensor`'s `TYPE_*` numbers.
public enum AndroidSensorType: Int32, Sendable, Hashable, CaseIterable {
    /// `TYPE_ACCELEROMETER` (1): m/s², gravity included (+9.81 on z lying face up).
    case accelerometer = 1
    /// `TYPE_MAGNETIC_FIELD` (2): calibrated field, µT.
    case magneticField = 2
    /// `TYPE_GYROSCOPE` (4): rad/s, counter-clockwise positive, drift compensated.
    case gyroscope = 4
    /// `TYPE_PRESSURE` (6): hPa (millibar).
    case pressure = 6
    /// `TYPE_GRAVITY` (9): m/s², pointing up in the device frame.
    case gravity = 9
    /// `TYPE_LINEAR_ACCELERATION` (10): m/s², gravity removed.
    case linearAcceleration = 10
    /// `TYPE_ROTATION_VECTOR` (11): attitude against east-north-up, as axis·sin(θ/2) and cos(θ/2).
    case rotationVector = 11
    /// `TYPE_MAGNETIC_FIELD_UNCALIBRATED` (14): µT, values[0..2] uncalibrated, values[3..5] the
    /// estimated hard-iron bias.
    case magneticFieldUncalibrated = 14
    /// `TYPE_GAME_ROTATION_VECTOR` (15): as the rotation vector, without the magnetometer (its
    /// heading drifts and is not referenced to north).
    case gameRotationVector = 15
    /// `TYPE_GYROSCOPE_UNCALIBRATED` (16): rad/s, values[0..2] without drift compensation,
    /// values[3..5] the estimated drift.
    case gyroscopeUncalibrated = 16
    /// `TYPE_STEP_COUNTER` (19): steps since the last reboot, counted while the sensor is active.
    case stepCounter = 19

    /// How many values an event of this type carries at least.
    public var minimumValueCount: Int {
        switch self {
        case .accelerometer, .magneticField, .gyroscope, .gravity, .linearAcceleration, .rotationVector, .gameRotationVector: 3
        case .pressure, .stepCounter: 1
        case .magneticFieldUncalibrated, .gyroscopeUncalibrated: 6
        }
    }
}

/// Android `SensorEvent` values as Motus samples: plain functions of numbers (the event's
/// `sensor.type`, `timestamp` and `values`), so they build and are tested on every platform.
///
/// **Units and signs.** Android's device frame (x right, y to the top edge, z out of the
/// screen), its accelerations (m/s², gravity pointing up: +9.81 on z lying face up), rotation
/// rates (rad/s, counter-clockwise positive) and magnetic fields (µT) are Motus' own, so the
/// values pass unchanged. Pressure is converted from hPa to Pa, and the rotation vector to a
/// unit ``Quaternion`` (device frame into east-north-up).
///
/// **Time.** `SensorEvent.timestamp` is nanoseconds, on the `elapsedRealtimeNanos` clock
/// (since boot, deep sleep included) on current devices, the same for every sensor. Motus
/// takes seconds: ``seconds(timestampNanoseconds:originNanoseconds:)``.
public enum AndroidSensorAdapter {
    /// Nanoseconds to seconds, optionally from an origin (the first event's timestamp, say,
    /// to keep the numbers small). The difference is taken in integers when it fits, so no
    /// nanosecond is lost to rounding before the division.
    @inlinable
    public static func seconds(timestampNanoseconds: Int64, originNanoseconds: Int64 = 0) -> Seconds {
        let (d, overflow) = timestampNanoseconds.subtractingReportingOverflow(originNanoseconds)
        if overflow { return Double(timestampNanoseconds) * 1e-9 - Double(originNanoseconds) * 1e-9 }
        return Double(d) * 1e-9
    }

    /// The unit quaternion (device frame into east-north-up) of a `TYPE_ROTATION_VECTOR` or
    /// `TYPE_GAME_ROTATION_VECTOR` event: values[0..2] = axis·sin(θ/2), values[3] = cos(θ/2).
    /// Before API 18 values[3] may be absent; it is then recovered as √(1 − x² − y² − z²),
    /// as `SensorManager.getQuaternionFromVector` does. The result is normalised (the
    /// values are `Float`s).
    @inlinable
    public static func quaternion(rotationVectorX x: Double, y: Double, z: Double, w: Double? = nil) -> Quaternion {
        let scalar = w ?? Swift.max(0, 1 - x * x - y * y - z * z).squareRoot()
        return Quaternion(w: scalar, x: x, y: y, z: z).normalized
    }

    /// The Motus sample of one `SensorEvent`.
    ///
    /// - Parameters:
    ///   - sensorType: `event.sensor.getType()`; see ``AndroidSensorType`` for the types read.
    ///   - timestampNanoseconds: `event.timestamp`.
    ///   - values: `event.values` (`float[]`).
    ///   - originNanoseconds: subtracted from every timestamp (0: seconds since boot).
    ///   - removeGyroscopeDrift: for `TYPE_GYROSCOPE_UNCALIBRATED`, subtract Android's drift
    ///     estimate (values[3..5]); off by default, because Motus' fusion estimates its own bias.
    /// - Returns: `TYPE_ACCELEROMETER` → ``SensorSample/acceleration(_:)``,
    ///   `TYPE_LINEAR_ACCELERATION` → ``SensorSample/userAcceleration(_:)``, `TYPE_GRAVITY` →
    ///   ``SensorSample/gravity(_:)`` (all m/s²), `TYPE_GYROSCOPE(_UNCALIBRATED)` →
    ///   ``SensorSample/rotationRate(_:)`` (rad/s), `TYPE_MAGNETIC_FIELD` →
    ///   ``SensorSample/magneticField(_:)`` (µT; the uncalibrated type has its bias estimate
    ///   subtracted, since Motus' field is the calibrated one), `TYPE_(GAME_)ROTATION_VECTOR` →
    ///   ``SensorSample/attitude(_:)``, `TYPE_STEP_COUNTER` → ``SensorSample/stepCounter(_:)``
    ///   (cumulative since boot; `MotionSession` handles the resets), `TYPE_PRESSURE` →
    ///   ``SensorSample/pressure(_:)`` (Pa).
    /// - Throws: `InputError` naming the event when the type is not one of these, when there
    ///   are fewer values than the type carries, or when a value is not finite.
    public static func sample(sensorType: Int32, timestampNanoseconds: Int64, values: some Collection<Float>,
                              originNanoseconds: Int64 = 0, removeGyroscopeDrift: Bool = false) throws(InputError) -> SensorSample {
        let location = SourceLocation(file: "SensorEvent(type \(sensorType), timestamp \(timestampNanoseconds) ns)")
        guard let type = AndroidSensorType(rawValue: sensorType) else {
            throw InputError(.badValue, at: location, found: "sensor type \(sensorType)",
                             expected: "one of the types Motus reads: " + AndroidSensorType.allCases.map { "\($0.rawValue)" }.joined(separator: ", "))
        }
        var v = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        var n = 0
        for f in values where n < 6 {
            guard f.isFinite else {
                throw InputError(.nonFinite, at: location,
                                 found: "values[\(n)] = \(f)", expected: "finite values")
            }
            switch n {
            case 0: v.0 = Double(f)
            case 1: v.1 = Double(f)
            case 2: v.2 = Double(f)
            case 3: v.3 = Double(f)
            case 4: v.4 = Double(f)
            default: v.5 = Double(f)
            }
            n += 1
        }
        guard n >= type.minimumValueCount else {
            throw InputError(.missingColumn, at: location, found: "\(n) value\(n == 1 ? "" : "s")",
                             expected: "at least \(type.minimumValueCount) values for sensor type \(sensorType)")
        }
        let t = seconds(timestampNanoseconds: timestampNanoseconds, originNanoseconds: originNanoseconds)
        let xyz = Vector3(v.0, v.1, v.2)
        switch type {
        case .accelerometer: return .acceleration(VectorSample(time: t, value: xyz))
        case .linearAcceleration: return .userAcceleration(VectorSample(time: t, value: xyz))
        case .gravity: return .gravity(VectorSample(time: t, value: xyz))
        case .gyroscope: return .rotationRate(VectorSample(time: t, value: xyz))
        case .gyroscopeUncalibrated:
            return .rotationRate(VectorSample(time: t, value: removeGyroscopeDrift ? xyz - Vector3(v.3, v.4, v.5) : xyz))
        case .magneticField: return .magneticField(VectorSample(time: t, value: xyz))
        case .magneticFieldUncalibrated: return .magneticField(VectorSample(time: t, value: xyz - Vector3(v.3, v.4, v.5)))
        case .rotationVector, .gameRotationVector:
            return .attitude(AttitudeSample(time: t, attitude: quaternion(rotationVectorX: v.0, y: v.1, z: v.2, w: n >= 4 ? v.3 : nil)))
        case .stepCounter: return .stepCounter(StepCounterSample(time: t, steps: v.0))
        case .pressure: return .pressure(PressureSample(time: t, pascals: v.0 * 100))
        }
    }
}
