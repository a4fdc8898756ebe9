/// A timestamped three-axis sample: acceleration, user acceleration, gravity (m/s²),
/// rotation rate (rad/s) or magnetic field (µT). `time` is in seconds on the stream's clock.
@frozen
public struct VectorSample: Hashable, Sendable, Codable {
    /// Time (s) on the stream's clock.
    public var time: Seconds
    /// The three components, in the stream's SI unit (see above).
    public var value: Vector3
    /// A sample at `time` (s).
    @inlinable public init(time: Seconds, value: Vector3) { self.time = time; self.value = value }
}

/// A timestamped attitude.
@frozen
public struct AttitudeSample: Hashable, Sendable, Codable {
    /// Time (s) on the stream's clock.
    public var time: Seconds
    /// Unit quaternion rotating device-frame vectors into the reference frame (z up).
    public var attitude: Quaternion
    /// An attitude at `time` (s).
    @inlinable public init(time: Seconds, attitude: Quaternion) { self.time = time; self.attitude = attitude }
}

/// A platform step-counter reading: a cumulative count (and distance when the platform
/// estimates one) since some origin. CMPedometer counts from the `start` date passed to it;
/// Android's TYPE_STEP_COUNTER counts since boot and resets on reboot. `time` is the time of
/// the last step included (Android) or the end of the interval (CMPedometer).
@frozen
public struct StepCounterSample: Hashable, Sendable, Codable {
    /// Time (s) of the reading, as the platform dates it (see above).
    public var time: Seconds
    /// Cumulative step count since the platform's origin; it may reset (Android: at reboot).
    public var steps: Double
    /// Cumulative distance in metres, when the platform estimates one.
    public var distanceMeters: Meters?
    /// A reading at `time` (s) of `steps`, with the cumulative distance (m) when known.
    @inlinable public init(time: Seconds, steps: Double, distanceMeters: Meters? = nil) {
        self.time = time; self.steps = steps; self.distanceMeters = distanceMeters
    }
}

/// A location fix. Latitude and longitude in degrees (WGS84); other fields SI, `nil` when the
/// source does not report them.
@frozen
public struct LocationSample: Hashable, Sendable, Codable {
    /// Time (s) of the fix, on the same clock as the motion samples.
    public var time: Seconds
    /// Degrees north (WGS84).
    public var latitude: Degrees
    /// Degrees east (WGS84).
    public var longitude: Degrees
    /// Altitude (m) above mean sea level.
    public var altitudeMeters: Meters?
    /// Speed over ground (m/s) as the receiver measures it.
    public var speedMetersPerSecond: MetersPerSecond?
    /// Course over ground, degrees clockwise from true north.
    public var courseDegrees: Degrees?
    /// Horizontal accuracy (m): the radius the platform reports.
    public var horizontalAccuracyMeters: Meters?
    /// Vertical accuracy (m).
    public var verticalAccuracyMeters: Meters?
    /// A fix; the optional fields default to unknown.
    @inlinable public init(time: Seconds, latitude: Degrees, longitude: Degrees, altitudeMeters: Meters? = nil,
                           speedMetersPerSecond: MetersPerSecond? = nil, courseDegrees: Degrees? = nil,
                           horizontalAccuracyMeters: Meters? = nil, verticalAccuracyMeters: Meters? = nil) {
        self.time = time; self.latitude = latitude; self.longitude = longitude
        self.altitudeMeters = altitudeMeters; self.speedMetersPerSecond = speedMetersPerSecond
        self.courseDegrees = courseDegrees; self.horizontalAccuracyMeters = horizontalAccuracyMeters
        self.verticalAccuracyMeters = verticalAccuracyMeters
    }
}

/// A timestamped barometric pressure reading in pascals.
@frozen
public struct PressureSample: Hashable, Sendable, Codable {
    /// Time (s) on the stream's clock.
    public var time: Seconds
    /// Pressure (Pa); Android's hPa × 100, CoreMotion's kPa × 1000.
    public var pascals: Pascals
    /// A reading at `time` (s) of `pascals` (Pa).
    @inlinable public init(time: Seconds, pascals: Pascals) { self.time = time; self.pascals = pascals }
}

/// One sample of any stream, for APIs that take samples as they arrive.
public enum SensorSample: Hashable, Sendable {
    /// Raw acceleration, gravity included (m/s², gravity up: face up reads +9.81 on z).
    case acceleration(VectorSample)
    /// Acceleration with gravity removed (m/s²).
    case userAcceleration(VectorSample)
    /// Gravity in the device frame, pointing up (m/s²).
    case gravity(VectorSample)
    /// Rotation rate (rad/s), counter-clockwise positive about each device axis.
    case rotationRate(VectorSample)
    /// Calibrated magnetic field (µT).
    case magneticField(VectorSample)
    /// Attitude: device frame into the reference frame.
    case attitude(AttitudeSample)
    /// A platform step-counter reading (cumulative).
    case stepCounter(StepCounterSample)
    /// A location fix.
    case location(LocationSample)
    /// Barometric pressure (Pa).
    case pressure(PressureSample)

    /// The kind of stream the sample belongs to.
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

    /// The sample's time (s).
    public var time: Seconds {
        switch self {
        case .acceleration(let s), .userAcceleration(let s), .gravity(let s), .rotationRate(let s), .magneticField(let s): s.time
        case .attitude(let s): s.time
        case .stepCounter(let s): s.time
        case .location(let s): s.time
        case .pressure(let s): s.time
        }
    }
}
