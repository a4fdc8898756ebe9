/// CoreMotion's values as Motus samples: plain functions of numbers, so they build and are
/// tested everywhere; on Apple platforms thin overloads take the CoreMotion types themselves
/// (`CMDeviceMotion`, `CMAccelerometerData`, `CMGyroData`, `CMMagnetometerData`).
///
/// **Units and signs.** CoreMotion gives accelerations in g and with the opposite sign to
/// Motus (and Android): a phone lying face up reads gravity z = −1 g, and its accelerometer
/// reads z ≈ −1 g. Motus stores m/s² with gravity pointing up, so a phone face up reads
/// z ≈ +9.81 m/s². Every acceleration is therefore multiplied by ``accelerationScale``
/// (−9.80665). Rotation rates are rad/s in both, counter-clockwise positive about each
/// device axis, and pass unchanged. Magnetic fields are µT in both. The attitude quaternion
/// (`CMQuaternion` x, y, z, w) rotates device-frame vectors into CoreMotion's reference frame
/// (z up), as ``Quaternion`` does, so it passes unchanged too.
///
/// **Time.** CoreMotion's `timestamp` is seconds since the device booted, the same clock for
/// every CoreMotion stream; Motus takes it as is. Location fixes (`CLLocation.timestamp`) are
/// wall-clock dates: bring them onto the same clock before pushing them into one session.
///
/// **Device axes** are the same on both platforms: x to the right of the screen, y to its
/// top edge, z out of the screen.
public enum CoreMotionAdapter {
    /// Multiplies a CoreMotion acceleration (g, CoreMotion's sign) into Motus' m/s² with
    /// gravity pointing up: −9.80665 (``Units/standardGravity``, negated).
    public static let accelerationScale = -Units.standardGravity

    /// A CoreMotion acceleration (g, CoreMotion's sign: face up reads z = −1) in Motus' units
    /// and sign (m/s², face up reads z = +9.80665).
    @inlinable
    public static func acceleration(xG: Double, yG: Double, zG: Double) -> Vector3 {
        Vector3(xG * accelerationScale, yG * accelerationScale, zG * accelerationScale)
    }

    /// The inverse of ``acceleration(xG:yG:zG:)``: a Motus acceleration (m/s², gravity up)
    /// in CoreMotion's g and sign, for tests and for writing CoreMotion-shaped data.
    @inlinable
    public static func accelerationInG(_ a: Vector3) -> Vector3 {
        Vector3(a.x / accelerationScale, a.y / accelerationScale, a.z / accelerationScale)
    }

    /// `CMAccelerometerData`: the raw accelerometer, gravity included (g, CoreMotion's sign),
    /// as an ``SensorSample/acceleration(_:)`` sample (m/s², gravity up).
    /// - Parameters:
    ///   - timestamp: `CMLogItem.timestamp`, seconds since boot.
    ///   - xG: `acceleration.x` (g).
    ///   - yG: `acceleration.y` (g).
    ///   - zG: `acceleration.z` (g; face up reads −1).
    @inlinable
    public static func accelerometerSample(timestamp: Seconds, xG: Double, yG: Double, zG: Double) -> SensorSample {
        .acceleration(VectorSample(time: timestamp, value: acceleration(xG: xG, yG: yG, zG: zG)))
    }

    /// `CMGyroData`: the raw gyroscope (rad/s, not bias-corrected; Motus' fusion estimates
    /// the bias) as a ``SensorSample/rotationRate(_:)`` sample, unchanged.
    @inlinable
    public static func gyroSample(timestamp: Seconds, xRadiansPerSecond: RadiansPerSecond, yRadiansPerSecond: RadiansPerSecond,
                                  zRadiansPerSecond: RadiansPerSecond) -> SensorSample {
        .rotationRate(VectorSample(time: timestamp, value: Vector3(xRadiansPerSecond, yRadiansPerSecond, zRadiansPerSecond)))
    }

    /// `CMMagnetometerData`: the raw magnetometer (µT) as a ``SensorSample/magneticField(_:)``
    /// sample, unchanged. It still holds the device's own (hard-iron) bias, which can be tens
    /// of µT; prefer `CMDeviceMotion.magneticField`, which CoreMotion calibrates, for a heading.
    @inlinable
    public static func magnetometerSample(timestamp: Seconds, xMicroteslas: Microteslas, yMicroteslas: Microteslas,
                                          zMicroteslas: Microteslas) -> SensorSample {
        .magneticField(VectorSample(time: timestamp, value: Vector3(xMicroteslas, yMicroteslas, zMicroteslas)))
    }

    /// One `CMDeviceMotion` update in Motus' units and sign.
    ///
    /// - Parameters:
    ///   - timestamp: `CMLogItem.timestamp`, seconds since boot.
    ///   - userAccelerationG: `userAcceleration` (g, CoreMotion's sign), gravity removed.
    ///   - gravityG: `gravity` (g, CoreMotion's sign: face up reads z = −1).
    ///   - rotationRateRadiansPerSecond: `rotationRate` (rad/s, bias removed by CoreMotion).
    ///   - attitude: `attitude.quaternion` as `Quaternion(w:x:y:z:)`.
    ///   - magneticFieldMicroteslas: `magneticField.field` (µT, calibrated), or nil when
    ///     CoreMotion has none or reports its accuracy as `uncalibrated` (then the field is
    ///     not a field and must not reach a compass).
    @inlinable
    public static func deviceMotion(timestamp: Seconds, userAccelerationG: Vector3, gravityG: Vector3,
                                    rotationRateRadiansPerSecond: Vector3, attitude: Quaternion,
                                    magneticFieldMicroteslas: Vector3? = nil) -> DeviceMotionSamples {
        DeviceMotionSamples(
            userAcceleration: VectorSample(time: timestamp, value: acceleration(xG: userAccelerationG.x, yG: userAccelerationG.y,
                                                                                 zG: userAccelerationG.z)),
            gravity: VectorSample(time: timestamp, value: acceleration(xG: gravityG.x, yG: gravityG.y, zG: gravityG.z)),
            rotationRate: VectorSample(time: timestamp, value: rotationRateRadiansPerSecond),
            attitude: AttitudeSample(time: timestamp, attitude: attitude),
            magneticField: magneticFieldMicroteslas.map { VectorSample(time: timestamp, value: $0) })
    }
}

/// One `CMDeviceMotion` update as Motus samples, all at the update's time (s), in Motus'
/// units and sign (see ``CoreMotionAdapter``). A plain value: building it allocates nothing.
@frozen
public struct DeviceMotionSamples: Hashable, Sendable {
    /// Acceleration with gravity removed (m/s²).
    public var userAcceleration: VectorSample
    /// Gravity in the device frame, pointing up (m/s²): face up reads z ≈ +9.81.
    public var gravity: VectorSample
    /// Rotation rate (rad/s), bias removed by CoreMotion.
    public var rotationRate: VectorSample
    /// Attitude: device frame into CoreMotion's reference frame (z up).
    public var attitude: AttitudeSample
    /// Calibrated magnetic field (µT), nil when CoreMotion had none.
    public var magneticField: VectorSample?

    /// The samples, each wrapped.
    @inlinable
    public init(userAcceleration: VectorSample, gravity: VectorSample, rotationRate: VectorSample, attitude: AttitudeSample,
                magneticField: VectorSample?) {
        self.userAcceleration = userAcceleration; self.gravity = gravity; self.rotationRate = rotationRate
        self.attitude = attitude; self.magneticField = magneticField
    }

    /// Raw acceleration, gravity included (m/s²): what an accelerometer would read,
    /// `gravity + userAcceleration`, as CoreMotion defines the two.
    @inlinable public var acceleration: VectorSample {
        VectorSample(time: gravity.time, value: gravity.value + userAcceleration.value)
    }

    /// Calls `body` with each sample in the order a `MotionSession` wants them on one
    /// timestamp: gravity, rotation rate, magnetic field (when present) and attitude first,
    /// user acceleration last, because it drives the session.
    @inlinable
    public func forEach(_ body: (SensorSample) throws -> Void) rethrows {
        try body(.gravity(gravity))
        try body(.rotationRate(rotationRate))
        if let m = magneticField { try body(.magneticField(m)) }
        try body(.attitude(attitude))
        try body(.userAcceleration(userAcceleration))
    }
}

// The CoreMotion-typed overloads: each only reads the fields and calls the function of
// numbers above, which the tests check on every platform. Limited to the systems whose
// CoreMotion has all four types (macOS has CMDeviceMotion, for headphones, but not
// CMAccelerometerData).
#if canImport(CoreMotion) && (os(iOS) || os(watchOS) || os(visionOS))
import CoreMotion

extension CoreMotionAdapter {
    /// `CMDeviceMotion` in Motus' units and sign; see
    /// ``deviceMotion(timestamp:userAccelerationG:gravityG:rotationRateRadiansPerSecond:attitude:magneticFieldMicroteslas:)``.
    /// The magnetic field is left out while CoreMotion reports it `uncalibrated`.
    public static func deviceMotion(_ m: CMDeviceMotion) -> DeviceMotionSamples {
        let u = m.userAcceleration, g = m.gravity, w = m.rotationRate, q = m.attitude.quaternion
        let f = m.magneticField
        return deviceMotion(timestamp: m.timestamp, userAccelerationG: Vector3(u.x, u.y, u.z), gravityG: Vector3(g.x, g.y, g.z),
                            rotationRateRadiansPerSecond: Vector3(w.x, w.y, w.z), attitude: Quaternion(w: q.w, x: q.x, y: q.y, z: q.z),
                            magneticFieldMicroteslas: f.accuracy == .uncalibrated ? nil : Vector3(f.field.x, f.field.y, f.field.z))
    }

    /// `CMAccelerometerData` as an acceleration sample (m/s², gravity up).
    public static func sample(_ d: CMAccelerometerData) -> SensorSample {
        accelerometerSample(timestamp: d.timestamp, xG: d.acceleration.x, yG: d.acceleration.y, zG: d.acceleration.z)
    }

    /// `CMGyroData` as a rotation-rate sample (rad/s, not bias-corrected).
    public static func sample(_ d: CMGyroData) -> SensorSample {
        gyroSample(timestamp: d.timestamp, xRadiansPerSecond: d.rotationRate.x, yRadiansPerSecond: d.rotationRate.y,
                   zRadiansPerSecond: d.rotationRate.z)
    }

    /// `CMMagnetometerData` as a magnetic-field sample (µT, device bias included).
    public static func sample(_ d: CMMagnetometerData) -> SensorSample {
        magnetometerSample(timestamp: d.timestamp, xMicroteslas: d.magneticField.x, yMicroteslas: d.magneticField.y,
                           zMicroteslas: d.magneticField.z)
    }
}
#endif
