/// What a stream measures. Each kind has a fixed number of components, stored in SI units.
public enum StreamKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// Raw acceleration as an accelerometer measures it, gravity included (m/s²), in the
    /// Android sign convention: a phone lying face up reads about +9.81 on z.
    case acceleration = "acc"
    /// Acceleration with gravity removed (m/s²), same sign convention.
    case userAcceleration = "uacc"
    /// The gravity component of `acceleration` in the device frame (m/s²): pointing up, so a
    /// phone face up reads about +9.81 on z and acceleration = gravity + userAcceleration.
    case gravity = "grav"
    /// Rotation rate (rad/s), counter-clockwise positive about each device axis.
    case rotationRate = "gyro"
    /// Calibrated magnetic field (µT).
    case magneticField = "mag"
    /// Attitude as a unit quaternion (w, x, y, z) rotating device frame into reference frame.
    case attitude = "att"
    /// Cumulative step count and optional cumulative distance (m; NaN when absent), as
    /// CMPedometer and Android's TYPE_STEP_COUNTER report them. The count may reset.
    case stepCounter = "steps"
    /// Location fix: latitude and longitude (degrees, WGS84), altitude (m), speed (m/s),
    /// course (degrees from north), horizontal and vertical accuracy (m). NaN when absent.
    case location = "loc"
    /// Barometric pressure (Pa).
    case pressure = "baro"

    /// Number of values per sample.
    @inlinable public var width: Int {
        switch self {
        case .acceleration, .userAcceleration, .gravity, .rotationRate, .magneticField: 3
        case .attitude: 4
        case .stepCounter: 2
        case .location: 7
        case .pressure: 1
        }
    }

    /// Column names with their SI unit, as the native format and `motus inspect` print them.
    public var columns: [String] {
        switch self {
        case .acceleration, .userAcceleration, .gravity: ["x_mps2", "y_mps2", "z_mps2"]
        case .rotationRate: ["x_rads", "y_rads", "z_rads"]
        case .magneticField: ["x_uT", "y_uT", "z_uT"]
        case .attitude: ["w", "x", "y", "z"]
        case .stepCounter: ["steps", "distance_m"]
        case .location: ["lat_deg", "lon_deg", "alt_m", "speed_mps", "course_deg", "hacc_m", "vacc_m"]
        case .pressure: ["pressure_pa"]
        }
    }

    /// Which components may be NaN, meaning "not reported" (all others must be finite).
    public func allowsMissing(component: Int) -> Bool {
        switch self {
        case .stepCounter: component == 1
        case .location: component >= 2
        default: false
        }
    }

    /// A human name for tables.
    public var title: String {
        switch self {
        case .acceleration: "acceleration"
        case .userAcceleration: "user acceleration"
        case .gravity: "gravity"
        case .rotationRate: "rotation rate"
        case .magneticField: "magnetic field"
        case .attitude: "attitude"
        case .stepCounter: "step counter"
        case .location: "location"
        case .pressure: "pressure"
        }
    }
}
