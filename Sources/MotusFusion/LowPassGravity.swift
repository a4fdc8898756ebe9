import MotusCore

/// Gravity from an accelerometer alone, for devices without a gyroscope: a first-order
/// low-pass of the acceleration in the device frame, scaled to `gravityMagnitude`.
///
/// It cannot tell a turn of the device from a change in acceleration, so it lags every
/// rotation by about `timeConstant` and a phone swinging in a pocket pulls it towards the
/// mean acceleration in the device frame, so it follows CoreMotion's gravity far less closely
/// than `AttitudeFilter` (benchmarks/fusion/README.md compares them). Start-up: the running
/// mean until `timeConstant` of data has been seen, so the first sample already gives an
/// estimate.
///
/// Conventions as `AttitudeFilter`: Android sign, gravity pointing up in the device frame,
/// `userAcceleration = acceleration − gravity`. One `update` per sample, no allocation.
@frozen
public struct LowPassGravity: Sendable {
    /// What a user sets; units and defaults on each property.
    @frozen
    public struct Settings: Sendable, Hashable, Codable {
        /// Low-pass time constant (s). Default 1 s.
        public var timeConstant: Seconds
        /// Magnitude of the `gravity` output (m/s²). Default standard gravity.
        public var gravityMagnitude: MetersPerSecondSquared
        /// Longest time step (s) taken at once. Default 0.5 s.
        public var maximumTimeStep: Seconds
        /// Settings; units and defaults as on each property.
        public init(timeConstant: Seconds = 1, gravityMagnitude: MetersPerSecondSquared = Units.standardGravity, maximumTimeStep: Seconds = 0.5) {
            self.timeConstant = timeConstant; self.gravityMagnitude = gravityMagnitude; self.maximumTimeStep = maximumTimeStep
        }
        /// The defaults (the same as `init()`).
        public static let `default` = Settings()
    }

    /// Diagnostics of the latest sample.
    @frozen
    public struct Flags: Sendable, Hashable {
        /// Less than one time constant of data seen.
        public var initialising: Bool = true
        /// The latest sample was not finite and was skipped.
        public var sampleSkipped: Bool = false
        /// The flags before the first sample (initialising).
        public init() {}
    }

    /// The settings; a change takes effect at the next sample.
    public var settings: Settings
    /// Diagnostics of the latest sample.
    public private(set) var flags = Flags()
    /// Low-passed acceleration (m/s²), device frame.
    public private(set) var lowPass: Vector3 = .zero
    @usableFromInline var seen: Double = 0
    @usableFromInline var started = false
    @usableFromInline var count: Double = 0
    @usableFromInline var lastAcceleration: Vector3 = .zero

    /// A filter that has seen no sample.
    public init(settings: Settings = .default) { self.settings = settings }

    /// Gravity estimate (m/s²), device frame, pointing up; zero before the first sample.
    @inlinable public var gravity: Vector3 { lowPass.normalized * settings.gravityMagnitude }
    /// Latest acceleration − `gravity` (m/s²).
    @inlinable public var userAcceleration: Vector3 { lastAcceleration - gravity }

    /// Tilt-only attitude (device → reference, z up) whose heading is arbitrary: the smallest
    /// rotation taking the gravity direction onto +z.
    @inlinable public var attitude: Quaternion {
        let u = lowPass.normalized
        return u == .zero ? .identity : AttitudeFilter.tiltOntoZ(u)
    }

    /// One accelerometer sample (m/s²) and the time (s) since the previous one.
    public mutating func update(acceleration a: Vector3, dt dt0: Seconds) {
        guard a.isFinite else { flags.sampleSkipped = true; return }
        flags.sampleSkipped = false
        lastAcceleration = a
        var dt = dt0.isFinite && dt0 > 0 ? dt0 : 0
        if dt > settings.maximumTimeStep { dt = settings.maximumTimeStep }
        let tau = settings.timeConstant
        if !started {
            started = true; lowPass = a; seen = 0; count = 1
        } else if seen < tau {
            seen += dt; count += 1
            lowPass += (a - lowPass) / count
        } else {
            lowPass += (a - lowPass) * (1 - Math.exp(-dt / tau))
        }
        flags.initialising = seen < tau
    }

    /// Forgets every sample, keeping the settings.
    public mutating func reset() { self = LowPassGravity(settings: settings) }
}
