import MotusCore

/// Maps the sensor names phone apps use (Android sensor names such as `MPL_Gyroscope`,
/// `LSM6DSO Accelerometer`, `Linear Acceleration Sensor`; phyphox sources; short Motus ids)
/// to Motus stream kinds. Values these sensors report are already SI (Android units) except
/// where a caller says otherwise.
public enum SensorNames {
    /// The kind of a three-value sensor group named `name`, or nil for sensors Motus does
    /// not record (orientation angles, light, proximity, uncalibrated variants, …).
    /// `rotationVector` is returned as `.attitude` (the caller completes the quaternion).
    public static func kind(_ name: String) -> StreamKind? {
        let n = name.lowercased()
        if let k = StreamKind(rawValue: n) { return k }
        if n.contains("uncalibrated") || n.contains("uncal") { return nil }
        if n.contains("linear") && n.contains("acc") { return .userAcceleration }
        if n.contains("gravity") { return .gravity }
        if n.contains("rotation_vector") || n.contains("rotation vector") || n.contains("rotationvector") {
            return n.contains("geomag") ? nil : .attitude
        }
        if n.contains("accelerometer") || n.contains("acceleration") || n == "accel" { return .acceleration }
        if n.contains("gyro") { return .rotationRate }
        if n.contains("magnetic") || n.contains("magnetometer") || n == "mag" { return .magneticField }
        return nil
    }

    /// Completes an Android rotation vector (x, y, z = axis · sin(θ/2)) to a unit quaternion
    /// (w, x, y, z); nil when |v| > 1 by more than rounding.
    public static func quaternion(rotationVector x: Double, _ y: Double, _ z: Double) -> (Double, Double, Double, Double)? {
        let s = x * x + y * y + z * z
        if !(s <= 1.0001) { return nil }
        return ((Swift.max(0, 1 - s)).squareRoot(), x, y, z)
    }
}
