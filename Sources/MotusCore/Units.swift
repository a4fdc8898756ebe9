/// Unit conversion happens once, at the edge: readers convert to SI and everything inside
/// Motus is m/s², rad/s, s, m, m/s, Pa, µT.
public enum Units {
    /// Standard gravity, 9.80665 m/s² (CGPM 1901). CoreMotion's g is converted with this value.
    public static let standardGravity: MetersPerSecondSquared = 9.80665
}

/// Unit of an acceleration column in an input file.
public enum AccelerationUnit: String, Sendable, Codable, CaseIterable {
    /// Multiples of standard gravity (CoreMotion, many wearables).
    case g
    /// Metres per second squared (Android, XSens, phyphox).
    case metersPerSecondSquared = "mps2"

    /// Factor that turns a value in this unit into m/s².
    @inlinable public var toSI: Double { self == .g ? Units.standardGravity : 1 }
}

/// Unit of a rotation-rate column in an input file.
public enum RotationUnit: String, Sendable, Codable, CaseIterable {
    /// rad/s (CoreMotion, Android).
    case radiansPerSecond = "rads"
    /// °/s (many wearables and IMUs).
    case degreesPerSecond = "degs"

    /// Factor that turns a value in this unit into rad/s.
    @inlinable public var toSI: Double { self == .degreesPerSecond ? Double.pi / 180 : 1 }
}

/// Unit of a time column in an input file.
public enum TimeUnit: String, Sendable, Codable, CaseIterable {
    /// Seconds.
    case seconds = "s"
    /// Milliseconds (epoch milliseconds of many apps).
    case milliseconds = "ms"
    /// Microseconds.
    case microseconds = "us"
    /// Nanoseconds (Android's `SensorEvent.timestamp`).
    case nanoseconds = "ns"

    /// Factor that turns a value in this unit into seconds.
    @inlinable public var toSI: Double {
        switch self {
        case .seconds: 1
        case .milliseconds: 1e-3
        case .microseconds: 1e-6
        case .nanoseconds: 1e-9
        }
    }
}
