/// A timestamped three-axis sample: acceleration, user acceleration, gravity (m/s²),
/// rotation rate (rad/s) or magnetic field (µT). `time` is in seconds on the stream's clock.
@frozen
public struct VectorSample: Hashable, Sendable, Codable {
    public var time: Double
    public var value: Vector3
    @inlinable public init(time: Double, value: Vector3) { self.time = time; self.value = value }
}

/// A timestamped attitude.
@frozen
public struct AttitudeSample: Hashable, Sendable, Codable {
    public var time: Double
    public var attitude: Quaternion
    @inlinable public init(time: Double, attitude: Quaternion) { self.time = time; self.attitude = attitude }
}

/// A platform step-counter reading: a cumulative count (and distance when the platform
/// estimates one) since some origin. CMPedometer counts from the `start` date passed to it;
/// Android's TYPE_STEP_COUNTER counts since boot and resets on reboot. `time` is the time of
/// the last step included (Android) or the end of the interval (CMPedometer).
@frozen
public struct StepCounterSample: Hashable, Sendable, Codable {
    public var time: Double
    public var steps: Double
    /// Cumulative distance in metres, when the platform estimates one.
    public var distanceMeters: Double?
    @inlinable public init(time: Double, steps: Double, distanceMeters: Double? = nil) {
        self.time = time; self.steps = steps; self.distanceMeters = distanceMeters
    }
}

/// A location fix. Latitude and longitude in degrees (WGS84); other fields SI, `nil` when the
/// source does not report them.
@frozen
public struct LocationSample: Hashable, Sendable, Codable {
    public var time: Double
    public var latitude: Double
    public var longitude: Double
    public var altitudeMeters: Double?
    public var speedMetersPerSecond: Double?
    /// Course over ground, degrees clockwise from true north.
    public var courseDegrees: Double?
    public var horizontalAccuracyMeters: Double?
    public var verticalAccuracyMeters: Double?
    @inlinable public init(time: Double, latitude: Double, longitude: Double, altitudeMeters: Double? = nil,
                           speedMetersPerSecond: Double? = nil, courseDegrees: Double? = nil,
                           horizontalAccuracyMeters: Double? = nil, verticalAccuracyMeters: Double? = nil) {
        self.time = time; self.latitude = latitude; self.longitude = longitude
        self.altitudeMeters = altitudeMeters; self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees; self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.verticalAccuracyMeters = verticalAccuracyMeters
    }
}

/// A timestamped barometric pressure reading in pascals.
@frozen
public struct PressureSample: Hashable, Sendable, Codable {
    public var time: Double
    public var pascals: Double
    @inlinable public init(time: Double, pascals: Double) { self.time = time; self.pascals = pascals }
}

/// One sample of any stream, for APIs that take samples as they arrive.
public enum SensorSample: Hashable, Sendable {
    case acceleration(VectorSample)
    case userAcceleration(VectorSample)
    case gravity(VectorSample)
    case rotationRate(VectorSample)
    case magneticField(VectorSample)
    case attitude(AttitudeSample)
    case stepCounter(StepCounterSample)
    case location(LocationSample)
    case pressure(PressureSample)

    public var kind: StreamKind {
        switch self {
        case .acceleration: .acceleration
        case .userAcceleration: .userAcceleration
        case .gravity: .gravity
        case .rotationRate: .rotationRate
        case .magneticField: .magneticField
        case .attitude: .attitude
        case .stepCounter: .stepCounter
        case .location: .location
        case .pressure: .pressure
        }
    }

    public var time: Double {
        switch self {
        case .acceleration(let s), .userAcceleration(let s), .gravity(let s), .rotationRate(let s), .magneticField(let s): s.time
        case .attitude(let s): s.time
        case .stepCounter(let s): s.time
        case .location(let s): s.time
        case .pressure(let s): s.time
        }
    }
}
