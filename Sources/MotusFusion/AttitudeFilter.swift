import MotusCore

/// Gravity, user acceleration and attitude from a raw accelerometer and gyroscope.
///
/// ## Axis and sign conventions
/// - Inputs are in the device frame, Android sign: a phone lying face up measures about
///   `+9.81 m/s²` on z. Acceleration in m/s², rotation rate in rad/s (counter-clockwise
///   positive), time step in s.
/// - `attitude` rotates device-frame vectors into a reference frame whose z axis points up
///   (against gravity). Heading (rotation about z) is unobserved without a magnetometer: it
///   starts at the device's initial heading and then follows the gyroscope.
/// - `gravity` is the gravity component of the accelerometer reading in the device frame,
///   pointing **up** (`attitude.inverseRotate((0, 0, g))`), and
///   `userAcceleration = acceleration − gravity`, as `StreamKind` defines them.
///
/// ## Algorithm (an inclination filter with an inertial-frame low-pass)
/// The filter keeps two rotations. `strapdown` is the pure integral of the bias-corrected
/// gyroscope; it is never corrected and so drifts only with gyroscope error. Each
/// accelerometer sample is rotated into that strapdown frame and low-passed there with time
/// constant `Settings.accelerationTimeConstant`. In a frame that does not turn with the
/// device, the acceleration of a walking or running body averages to zero over a few strides
/// (the body's velocity stays bounded), while in the device frame a phone swinging in a
/// pocket sees a large non-zero mean. So the low-passed vector points along gravity, and the
/// second rotation, `inclination` (about horizontal axes only), is the one that maps that
/// vector onto +z. The attitude is `inclination ⊗ strapdown`, and gravity in the device frame
/// is simply the low-passed vector, rescaled, rotated back by `strapdown`.
/// This is the structure of VQF (Laidig & Seel 2023); the implementation here is our own.
///
/// - Start-up: the first sample levels the strapdown frame, and until `startupTime` has
///   passed the low-pass is the weighted running mean of all samples so far, so the first
///   sample already gives a full inclination and the estimate settles as fast as the data
///   allow (no slow ramp from a wrong attitude).
/// - Acceleration disturbances: while the accelerometer's RMS deviation from its short-term
///   mean exceeds `motionThreshold`, the low-pass uses the much longer `motionTimeConstant`
///   (`Flags.accelerationRejected`), so the gyroscope carries the estimate.
/// - Gyroscope bias: while the device is at rest (gyroscope and accelerometer both steady
///   for `restMinimumDuration`), the bias is the low-passed gyroscope reading.
/// - Gaps: a time step larger than `Settings.maximumTimeStep` is integrated as that step;
///   a non-positive or non-finite step integrates nothing.
///
/// One `update` per sample; the struct holds only numbers and allocates nothing.
@frozen
public struct AttitudeFilter: Sendable {
    /// Tuning values, with units and defaults. The time constants, motion threshold and
    /// start-up time were chosen on the odd-numbered MotionSense subjects only (see
    /// `benchmarks/fusion/README.md`); the rest thresholds follow VQF's defaults.
    @frozen
    public struct Settings: Sendable, Hashable, Codable {
        /// Magnitude of gravity (m/s²) used for the `gravity` output and for the
        /// acceleration-rejection test. Default: standard gravity, 9.80665.
        public var gravityMagnitude: MetersPerSecondSquared
        /// Time constant (s) of the low-pass of the accelerometer in the strapdown frame.
        /// Longer trusts the gyroscope more and rejects more motion; shorter follows the
        /// accelerometer and forgets gyroscope drift faster. Default 20 s (3 s suits a
        /// gyroscope with an unknown, changing bias).
        public var accelerationTimeConstant: Seconds
        /// Time constant (s) of the same low-pass while the device moves (see
        /// `motionThreshold`): much longer, so that walking, running or a swinging pocket
        /// barely tilt the estimate and the gyroscope carries it. Default 200 s.
        public var motionTimeConstant: Seconds
        /// RMS deviation (m/s²) of the accelerometer from its mean over `motionWindow` above
        /// which the device counts as moving. Default 1 m/s².
        public var motionThreshold: MetersPerSecondSquared
        /// RMS deviation (m/s²) of the accelerometer from its short-term mean below which the
        /// device counts as quiet: it measures gravity alone, so the low-pass may follow it
        /// quickly (`quietTimeConstant`). Default 0.2 m/s² (a person standing still at the
        /// lower back: 0.02–0.1; a phone in a trouser pocket while walking: 3–10). 0 turns it off.
        public var quietThreshold: MetersPerSecondSquared
        /// Time constant (s) of the low-pass while quiet. Default 2 s: after a walk, the tilt
        /// the gyroscope accumulated is corrected within a few seconds of standing still.
        public var quietTimeConstant: Seconds
        /// Time constant (s) of the motion-level estimate. Default 0.5 s.
        public var motionWindow: Seconds
        /// Start-up period (s): the low-pass is the weighted running mean of all samples
        /// so far, so the first sample already gives an estimate. Default 3 s.
        public var startupTime: Seconds
        /// Learn the gyroscope bias while the device is at rest. Default true.
        public var restBiasEstimation: Bool
        /// Largest deviation of the gyroscope (rad/s) from its short-term mean that still
        /// counts as rest. Default 0.035 rad/s (2°/s).
        public var restRotationThreshold: RadiansPerSecond
        /// Largest deviation of the accelerometer (m/s²) from its short-term mean (the mean
        /// of the motion level, time constant `motionWindow`) that still counts as rest.
        /// Default 0.5 m/s².
        public var restAccelerationThreshold: MetersPerSecondSquared
        /// How long (s) the device must stay within both rest thresholds before the bias is
        /// learned. Default 1.5 s.
        public var restMinimumDuration: Seconds
        /// Time constant (s) of the bias low-pass while at rest. Default 3 s.
        public var biasTimeConstant: Seconds
        /// Largest bias magnitude (rad/s) the filter will learn, per axis. Default 0.035 rad/s.
        public var maximumBias: RadiansPerSecond
        /// Longest time step (s) integrated at once; longer gaps are clipped. Default 0.5 s.
        public var maximumTimeStep: Seconds

        /// Settings; the defaults and units are given on each property.
        public init(gravityMagnitude: MetersPerSecondSquared = Units.standardGravity,
                    accelerationTimeConstant: Seconds = 20,
                    motionTimeConstant: Seconds = 200,
                    motionThreshold: MetersPerSecondSquared = 1,
                    quietThreshold: MetersPerSecondSquared = 0,
                    quietTimeConstant: Seconds = 2,
                    motionWindow: Seconds = 0.5,
                    startupTime: Seconds = 3,
                    restBiasEstimation: Bool = true,
                    restRotationThreshold: RadiansPerSecond = 0.035,
                    restAccelerationThreshold: MetersPerSecondSquared = 0.5,
                    restMinimumDuration: Seconds = 1.5,
                    biasTimeConstant: Seconds = 3,
                    maximumBias: RadiansPerSecond = 0.035,
                    maximumTimeStep: Seconds = 0.5) {
            self.gravityMagnitude = gravityMagnitude
            self.accelerationTimeConstant = accelerationTimeConstant
            self.motionTimeConstant = motionTimeConstant
            self.motionThreshold = motionThreshold
            self.quietThreshold = quietThreshold
            self.quietTimeConstant = quietTimeConstant
            self.motionWindow = motionWindow
            self.startupTime = startupTime
            self.restBiasEstimation = restBiasEstimation
            self.restRotationThreshold = restRotationThreshold
            self.restAccelerationThreshold = restAccelerationThreshold
            self.restMinimumDuration = restMinimumDuration
            self.biasTimeConstant = biasTimeConstant
            self.maximumBias = maximumBias
            self.maximumTimeStep = maximumTimeStep
        }

        /// For a general raw gyroscope: bias learned at rest.
        public static let `default` = Settings()

        /// For a rotation rate that the platform has already bias-corrected (CoreMotion's
        /// `rotationRate`, Android's calibrated `TYPE_GYROSCOPE`): the same values with rest
        /// bias learning off, because learning on top of the platform's correction mistakes
        /// slow real motion (a phone in a pocket while sitting) for bias. This is the preset
        /// `motus evaluate-fusion` uses on MotionSense.
        public static let biasCorrectedGyroscope: Settings = {
            var s = Settings()
            s.restBiasEstimation = false
            return s
        }()
    }

    /// What the filter is doing, for diagnostics (after the latest `update`).
    @frozen
    public struct Flags: Sendable, Hashable {
        /// Less than one `accelerationTimeConstant` of data seen: the low-pass is still a
        /// running mean and the estimate settles.
        public var initialising: Bool
        /// The device is moving (accelerometer RMS deviation above `motionThreshold`), so the
        /// accelerometer is mostly disturbance and the long `motionTimeConstant` is in force.
        public var accelerationRejected: Bool
        /// The device is at rest (both rest thresholds held for `restMinimumDuration`).
        public var atRest: Bool
        /// The gyroscope bias was updated by the latest sample.
        public var biasLearning: Bool
        /// The latest sample was skipped (non-finite input or time step).
        public var sampleSkipped: Bool
        /// The flags before the first sample (initialising).
        public init() { initialising = true; accelerationRejected = false; atRest = false; biasLearning = false; sampleSkipped = false }
    }

    /// Internal quantities, for diagnostics and plots.
    @frozen
    public struct InternalStates: Sendable, Hashable {
        /// Angle (rad) of the inclination correction applied by the latest sample.
        public var correctionAngle: Radians
        /// Weight (dt / time constant) of the latest sample in the low-pass.
        public var accelerationWeight: Double
        /// RMS deviation (m/s²) of the accelerometer from its short-term mean.
        public var motionLevel: MetersPerSecondSquared
        /// How long (s) the rest thresholds have held.
        public var restDuration: Seconds
        /// Current gyroscope bias estimate (rad/s), device frame.
        public var gyroscopeBias: Vector3
        /// All zero, as before the first sample.
        public init() { correctionAngle = 0; accelerationWeight = 0; motionLevel = 0; restDuration = 0; gyroscopeBias = .zero }
    }

    /// Settings; a change takes effect at the next sample.
    public var settings: Settings {
        didSet {
            cachedStep = -1; cacheThresholds()
            if !settings.restBiasEstimation { _flags.atRest = false; _flags.biasLearning = false }
        }
    }
    /// `settings.gravityMagnitude`, kept beside the settings so that `gravity`, inlined into a
    /// caller in another module, reads a stored number (set by `cacheThresholds`): through the
    /// settings' getter (not inlinable, it has an observer) the caller copied the whole filter.
    @usableFromInline var gravityScale = Units.standardGravity
    /// What the filter did with the latest sample.
    @inlinable public var flags: Flags { _flags }
    /// Diagnostics after the latest sample. `motionLevel` and `correctionAngle` are computed
    /// here, on demand, so that `update` needs no square root or trigonometry for them.
    public var internalStates: InternalStates {
        var s = _states
        s.motionLevel = motionVariance.squareRoot()
        let moving = _flags.accelerationRejected, quiet = !moving && motionVariance < quietThreshold2
        s.accelerationWeight = lastStep > 0 ? (moving ? movingWeight : quiet ? quietWeight : stillWeight) : 0
        // The low-pass before the latest correction (in direction): lowPass − g·a after
        // start-up, kept explicitly during start-up (`lastGain` is NaN then).
        let before = lastGain.isNaN ? previousLowPass : lowPassDevice - lastAcceleration * lastGain
        let n0 = before.norm, n1 = lowPassDevice.norm
        s.correctionAngle = n0 > 0 && n1 > 0 ? before.angle(to: lowPassDevice) : 0
        return s
    }

    /// Integral of the bias-corrected gyroscope: device frame → strapdown frame. The first
    /// sample levels it (the smallest tilt taking that sample's acceleration onto +z), so the
    /// low-passed vector stays near +z in this frame and the tilt below is well conditioned.
    @inlinable public var strapdown: Quaternion { _strapdown }
    /// Tilt correction, strapdown frame → reference frame (z up): the smallest rotation
    /// (about a horizontal axis) taking the low-passed acceleration onto +z.
    @inlinable public var inclination: Quaternion {
        let v = lowPass, n = v.norm
        return n > 0 ? Self.tiltOntoZ(v / n) : .identity
    }
    /// Low-passed acceleration in the strapdown frame (m/s²).
    @inlinable var lowPass: Vector3 { _strapdown.rotate(lowPassDevice) }

    @usableFromInline var _flags = Flags()
    @usableFromInline var _states = InternalStates()
    @usableFromInline var _strapdown: Quaternion = .identity
    /// The low-passed acceleration (m/s²), kept in the device frame: the strapdown-frame
    /// low-pass `lowPass` is `strapdown · lowPassDevice`. Each step turns it by the step's
    /// rotation backwards (one small rotation), instead of turning every sample into the
    /// strapdown frame and the result back (two rotations); the two are the same filter.
    @usableFromInline var lowPassDevice: Vector3 = .zero
    /// `lowPassDevice` before the latest sample's correction, in the latest device frame.
    @usableFromInline var previousLowPass: Vector3 = .zero
    /// The low-pass gain g of the latest sample after start-up; NaN while `previousLowPass`
    /// holds the low-pass before the latest correction instead.
    @usableFromInline var lastGain: Double = .nan
    /// Unit gravity direction in the device frame (pointing up): `lowPassDevice / |lowPassDevice|`,
    /// or `strapdown⁻¹·(0, 0, 1)` while that is zero (before the first sample).
    @usableFromInline var up = Vector3(0, 0, 1)
    /// `1 / |lowPassDevice|` (s²/m), 0 while unknown (see `setUp`).
    @usableFromInline var inverseNorm: Double = 0
    /// Sum of sample weights and time seen so far during start-up.
    @usableFromInline var startupWeight: Double = 0
    @usableFromInline var startupElapsed: Double = 0
    @usableFromInline var previousRate: Vector3 = .zero
    @usableFromInline var motionMean: Vector3 = .zero
    @usableFromInline var motionVariance: Double = 0
    @usableFromInline var motionElapsed: Double = 0
    /// Gains and weights for the time step `cachedStep` (recomputed when the step changes by
    /// more than one part in 10⁹, or the settings change): no `exp` or division per sample.
    @usableFromInline var cachedStep: Double = -1
    @usableFromInline var motionGain: Double = 0
    @usableFromInline var stillWeight: Double = 0
    @usableFromInline var movingWeight: Double = 0
    @usableFromInline var stillGain: Double = 0
    @usableFromInline var quietWeight: Double = 0
    @usableFromInline var quietGain: Double = 0
    @usableFromInline var movingGain: Double = 0
    /// `motionThreshold²` and `quietThreshold²` (m²/s⁴), kept with the settings.
    @usableFromInline var motionThreshold2: Double = 1
    @usableFromInline var quietThreshold2: Double = 0
    /// The rest thresholds squared: rotation (rad²/s²), acceleration (m²/s⁴), and the
    /// largest distance of the mean rate from the bias (rad²/s²).
    @usableFromInline var restRotation2: Double = 0
    @usableFromInline var restAcceleration2: Double = 0
    @usableFromInline var restBias2: Double = 0
    @usableFromInline var restGain: Double = 0
    @usableFromInline var biasGain: Double = 0
    /// Short-term mean of the gyroscope for rest detection (device frame).
    @usableFromInline var restGyroMean: Vector3 = .zero
    /// Samples seen, counted only up to the first (the hot path does not need the count).
    @usableFromInline var samples: Int = 0
    /// Counts samples modulo 256 between renormalisations of `strapdown`.
    @usableFromInline var renormalisationTick: UInt8 = 0
    @usableFromInline var lastAcceleration: Vector3 = .zero
    /// The time step (s) integrated by the latest sample.
    @usableFromInline var lastStep: Double = 0

    /// A filter that has seen no sample (it starts initialising).
    public init(settings: Settings = .default) {
        self.settings = settings
        cacheThresholds()
    }

    /// Starts from a known attitude (device → reference). Used by tests and by callers that
    /// resume; the heading part is kept, and the tilt is still refined by the accelerometer.
    public init(settings: Settings = .default, initialAttitude: Quaternion) {
        self.settings = settings
        self._strapdown = initialAttitude.normalized
        up = _strapdown.inverseRotate(Vector3(0, 0, 1))
        cacheThresholds()
    }

    /// Attitude, device frame → reference frame (z up). Unit quaternion.
    @inlinable public var attitude: Quaternion { inclination * _strapdown }

    /// Gravity in the device frame (m/s²), pointing up: face up reads about (0, 0, +9.81).
    /// It is the low-passed acceleration's direction, scaled to `gravityMagnitude` (the tilt
    /// itself is not needed for it). `update` keeps the unit direction, so reading it costs
    /// three multiplications.
    @inlinable public var gravity: Vector3 {
        let g = gravityScale
        return Vector3(up.x * g, up.y * g, up.z * g)
    }

    /// Acceleration without gravity (m/s²), device frame: latest acceleration − `gravity`.
    @inlinable public var userAcceleration: Vector3 { lastAcceleration - gravity }

    /// Angle (rad) between the latest accelerometer reading and the gravity estimate.
    public var accelerationError: Radians { lastAcceleration.angle(to: gravity) }

    /// Gyroscope bias estimate (rad/s).
    @inlinable public var gyroscopeBias: Vector3 { _states.gyroscopeBias }

    /// Forgets everything learned, keeping the settings.
    public mutating func reset() { self = AttitudeFilter(settings: settings) }

    /// Processes one sample: `acceleration` (m/s², gravity included, Android sign),
    /// `rotationRate` (rad/s) and the time `dt` (s) since the previous sample (ignored for
    /// the first one). Built to cost no more than Fusion's C `FusionAhrsUpdateNoMagnetometer`
    /// (benchmarks/fusion "Speed" compares them): no `exp`, trigonometry, division, square
    /// root or call per sample while the time step stays the same; the helpers are always
    /// inlined and the rare paths (first sample, a new time step, start-up, a fallback) are
    /// out of line.
    @inlinable
    public mutating func update(acceleration a: Vector3, rotationRate w: Vector3, dt dt0: Seconds) {
        // One test on the common path: the same step as before (within 1e-9, so > 0 and
        // ≤ maximumTimeStep) with finite inputs (a sum of finite numbers times zero is zero,
        // while NaN or ±∞ anywhere makes the probe NaN). Anything else — the first sample
        // (`cachedStep` is −1 until then), a new, non-positive, non-finite or too long step,
        // non-finite input — goes through `unusualSample`, out of line.
        let probe = dt0 + (a.x + a.y + a.z + w.x + w.y + w.z) * 0
        if Swift.abs(probe - cachedStep) <= 1e-9 * cachedStep {
            advance(a, w, dt0, positiveStep: true)
        } else {
            unusualSample(acceleration: a, rotationRate: w, dt: dt0)
        }
    }

    /// The body of `update` for a finite sample after the first, with the time step `dt`
    /// already checked and clipped. `positiveStep` (a constant at each use) says that
    /// `dt > 0`, so that the common path has no tests on it.
    @inlinable @inline(__always)
    mutating func advance(_ a: Vector3, _ w: Vector3, _ dt: Double, positiveStep: Bool) {
        // The order below keeps the chain from the inputs to `up` short (the filter is
        // bound by its latency, not by its arithmetic): what does not depend on the step
        // rotation is computed beside it.
        let stepping = positiveStep || dt > 0
        _flags.sampleSkipped = false
        lastAcceleration = a
        lastStep = dt

        // 1. Motion level: mean square deviation of the accelerometer from its short-term mean.
        motionElapsed += dt
        let k = motionGain
        let mx = motionMean.x + (a.x - motionMean.x) * k
        let my = motionMean.y + (a.y - motionMean.y) * k
        let mz = motionMean.z + (a.z - motionMean.z) * k
        motionMean = Vector3(mx, my, mz)
        let ex = a.x - mx, ey = a.y - my, ez = a.z - mz
        let deviation2 = ex * ex + ey * ey + ez * ez
        let variance = motionVariance + (deviation2 - motionVariance) * k
        motionVariance = variance

        // 2. Rest detection and bias learning (device frame), on the same short-term
        //    acceleration mean. (Both flags stay false while it is off: `settings.didSet`
        //    clears them.)
        if settings.restBiasEstimation { restDetection(deviation2, w, dt) }
        // Until one window has been seen the level is unknown: count as moving, so that a
        // jolt at start-up cannot claim the weight of a still sample.
        let moving = variance > motionThreshold2 || motionElapsed < settings.motionWindow
        let quiet = !moving && variance < quietThreshold2
        _flags.accelerationRejected = moving

        // 3. Low-pass of the acceleration in the strapdown frame, held in the device frame:
        //    lowPass ← R⁻¹·lowPass + g·(a − R⁻¹·lowPass) = R⁻¹·((1 − g)·lowPass) + g·a, with
        //    R the step rotation and g = 1 − exp(−dt/τ). Until the weights dt/τ add up to one
        //    (start-up) the low-pass is their weighted running mean instead (`startupStep`).
        let inStartup = startupElapsed < settings.startupTime
        let g = stepping && !inStartup ? (moving ? movingGain : quiet ? quietGain : stillGain) : 0
        let f = 1 - g
        let lp0 = lowPassDevice
        let scaled = Vector3(lp0.x * f, lp0.y * f, lp0.z * f)
        let corrected = Vector3(scaled.x + a.x * g, scaled.y + a.y * g, scaled.z + a.z * g)
        var turn = Vector3(0, 0, 0)   // R⁻¹·scaled − scaled (not `.zero`: a global's accessor is a call)

        // 4. Strapdown integration of the bias-corrected rate over [t − dt, t]: the mean of
        //    the rates at both ends plus the coning term (second order in the rotation),
        //    e = exp(r) = (c, s·r).
        let bias = _states.gyroscopeBias
        let wc = Vector3(w.x - bias.x, w.y - bias.y, w.z - bias.z)
        if stepping {
            let r = Self.stepVector(previousRate, wc, dt)
            // The cross products are ready before c and s (they need only r).
            let m = r.cross(scaled), n = r.cross(m)
            let (c, s2) = Self.halfAngleTerms(r.x * r.x + r.y * r.y + r.z * r.z, doubled: true)
            let s = 0.5 * s2
            _strapdown = _strapdown * Quaternion(w: c, x: r.x * s, y: r.y * s, z: r.z * s)
            renormalisationTick &+= 1
            if renormalisationTick == 0 { _strapdown = Self.renormalized(_strapdown) }
            // e⁻¹ = (c, u), u = −s·r: v + 2c(u × v) + 2u × (u × v) = v − 2cs(r × v) + 2s²(r × (r × v)).
            let cs2 = c * s2, beta = s * s2
            turn = Vector3(n.x * beta - m.x * cs2, n.y * beta - m.y * cs2, n.z * beta - m.z * cs2)
        }
        previousRate = wc
        var lp = Vector3(corrected.x + turn.x, corrected.y + turn.y, corrected.z + turn.z)
        lastGain = g
        if inStartup {
            // Here g = 0: `lp` is the previous low-pass turned into the current device frame.
            lp = startupStep(a, lp, stepping ? (moving ? movingWeight : quiet ? quietWeight : stillWeight) : 0, dt)
        }
        lowPassDevice = lp
        // 5. Gravity is the low-pass's direction. The inclination (the tilt taking `lowPass`
        //    onto +z) follows from it and `strapdown` when asked for.
        setUp(lp)
    }

    /// Everything but the common case (see `update`): non-finite input (skipped), the first
    /// sample, and a time step other than `cachedStep`.
    @inline(never) @usableFromInline
    mutating func unusualSample(acceleration a: Vector3, rotationRate w: Vector3, dt dt0: Double) {
        guard a.isFinite, w.isFinite else { _flags.sampleSkipped = true; return }
        if samples == 0 { updateFirst(acceleration: a, rotationRate: w, dt: dt0); return }
        let dt = newStep(dt0)
        advance(a, w, dt, positiveStep: false)
    }

    /// The time step to integrate for `dt0` (0 for a non-positive or non-finite one, at most
    /// `maximumTimeStep`), with the gains recomputed if it differs from `cachedStep`.
    @inline(never) @usableFromInline
    mutating func newStep(_ dt0: Double) -> Double {
        var dt = dt0 > 0 ? dt0 : 0
        if dt > settings.maximumTimeStep { dt = dt == .infinity ? 0 : settings.maximumTimeStep }
        if dt > 0 && !(Swift.abs(dt - cachedStep) <= 1e-9 * cachedStep) { updateGains(dt) }
        return dt
    }

    /// Start-up (the first `startupTime` seconds): the low-pass is the weighted running mean
    /// of the samples so far (still samples weigh more than moving ones). Out of line: it
    /// runs for a few seconds per recording and holds the per-sample division.
    @inline(never) @usableFromInline
    mutating func startupStep(_ a: Vector3, _ lp: Vector3, _ weight: Double, _ dt: Double) -> Vector3 {
        previousLowPass = lp
        lastGain = .nan
        startupElapsed += dt
        startupWeight += weight
        _flags.initialising = startupElapsed < settings.startupTime
        return startupWeight > 0 ? lp + (a - lp) * (weight / startupWeight) : lp
    }

    /// The first sample: levels the strapdown frame on it (see `strapdown`) and starts the
    /// means. Out of line, so that `update`'s hot path has no first-sample branches.
    @inline(never) @usableFromInline
    mutating func updateFirst(acceleration a: Vector3, rotationRate w: Vector3, dt dt0: Double) {
        _flags.sampleSkipped = false
        let dt = newStep(dt0)
        samples = 1
        lastAcceleration = a
        _flags.biasLearning = false
        _flags.atRest = false
        if settings.restBiasEstimation { restGyroMean = w }
        let wc = w - _states.gyroscopeBias
        if dt > 0 { _strapdown = Self.multiplyRenormalized(_strapdown, Self.stepRotation(wc, wc, dt)) }
        previousRate = wc
        let v = _strapdown.rotate(a), n = v.norm
        if n > 1e-9 { _strapdown = (Self.tiltOntoZ(v / n) * _strapdown).normalized }
        motionMean = a; motionVariance = 0; motionElapsed = 0
        let moving = 0 > motionThreshold2 || 0 < settings.motionWindow
        _flags.accelerationRejected = moving
        lastStep = dt
        previousLowPass = lowPassDevice
        lastGain = .nan
        // The strapdown-frame low-pass starts at the sample itself.
        lowPassDevice = a; startupWeight = 0; startupElapsed = 0
        _flags.initialising = 0 < settings.startupTime
        setUp(a)
    }

    /// `settings` thresholds squared, so that `update` compares squared levels.
    @usableFromInline
    mutating func cacheThresholds() {
        gravityScale = settings.gravityMagnitude
        motionThreshold2 = settings.motionThreshold * settings.motionThreshold
        quietThreshold2 = settings.quietThreshold * settings.quietThreshold
        let rr = settings.restRotationThreshold, ra = settings.restAccelerationThreshold, rb = rr + settings.maximumBias
        restRotation2 = rr * rr; restAcceleration2 = ra * ra; restBias2 = rb * rb
    }

    /// `up = lp / |lp|`. `1 / |lp|` comes from the previous sample's value y₀ and the
    /// series (1 + ε)^(−1/2) = 1 − ε/2 + 3ε²/8 − 5ε³/16 + …, ε = |lp|²·y₀² − 1: after
    /// start-up `lp` moves by a few parts in 10⁴ per sample at most, so the truncation
    /// (35ε⁴/128) is below rounding. When the check |lp|²·y² ≈ 1 fails (start-up, a jump,
    /// zero) `exactUp` computes it directly.
    @inlinable @inline(__always)
    mutating func setUp(_ lp: Vector3) {
        let n2 = lp.x * lp.x + lp.y * lp.y + lp.z * lp.z
        let y0 = inverseNorm
        let eps = n2 * (y0 * y0) - 1
        // Estrin's form: (y₀ − ½y₀ε) + ε²·(⅜y₀ − ⁵⁄₁₆y₀ε); the y₀ multiples do not wait for ε.
        let y = (y0 + (-0.5 * y0) * eps) + (eps * eps) * (0.375 * y0 + (-0.3125 * y0) * eps)
        if Swift.abs(n2 * (y * y) - 1) < 1e-13 {
            inverseNorm = y
            up = Vector3(lp.x * y, lp.y * y, lp.z * y)
        } else {
            exactUp(lp, n2)
        }
    }

    /// `setUp` with a square root and a division; `strapdown⁻¹·(0, 0, 1)` for a zero `lp`.
    @inline(never) @usableFromInline
    mutating func exactUp(_ lp: Vector3, _ n2: Double) {
        guard n2 > 0 else { inverseNorm = 0; up = _strapdown.inverseRotate(Vector3(0, 0, 1)); return }
        let y = 1 / n2.squareRoot()
        inverseNorm = y
        up = Vector3(lp.x * y, lp.y * y, lp.z * y)
    }

    /// The rotation vector of one step: r = (r0 + r1)/2 + (r0 × r1)/12, r0 = w0·dt,
    /// r1 = w1·dt (trapezoid plus coning term), = (w0 + w1)·dt/2 + (w0 × w1)·dt²/12.
    @inlinable @inline(__always)
    static func stepVector(_ w0: Vector3, _ w1: Vector3, _ dt: Double) -> Vector3 {
        let h = dt * 0.5, c = dt * dt * (1.0 / 12)
        return Vector3((w0.x + w1.x) * h + (w0.y * w1.z - w0.z * w1.y) * c,
                       (w0.y + w1.y) * h + (w0.z * w1.x - w0.x * w1.z) * c,
                       (w0.z + w1.z) * h + (w0.x * w1.y - w0.y * w1.x) * c)
    }

    /// The rotation over one step, exp(stepVector(w0, w1, dt)).
    @inlinable @inline(__always)
    static func stepRotation(_ w0: Vector3, _ w1: Vector3, _ dt: Double) -> Quaternion {
        exponential(stepVector(w0, w1, dt))
    }

    /// `q` times one Newton step towards unit norm, (3 − |q|²)/2: exact to rounding for a `q`
    /// within 1e-8 of unit norm. `update` applies it every 256 samples: a product of unit
    /// quaternions drifts from unit norm only by rounding (about 1e-16 per product).
    @inlinable @inline(__always)
    static func renormalized(_ q: Quaternion) -> Quaternion {
        let s = 1.5 - 0.5 * (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z)
        return Quaternion(w: q.w * s, x: q.x * s, y: q.y * s, z: q.z * s)
    }

    /// `q0 ⊗ e` renormalised by one Newton step on |q0| (|e| = 1 to rounding, so
    /// |q0 ⊗ e| = |q0|): the factor is computed beside the product, off the
    /// sample-to-sample dependency chain, and the norm stays within rounding of 1.
    @inlinable @inline(__always)
    static func multiplyRenormalized(_ q0: Quaternion, _ e: Quaternion) -> Quaternion {
        let s = 1.5 - 0.5 * (q0.w * q0.w + q0.x * q0.x + q0.y * q0.y + q0.z * q0.z)
        let q = q0 * e
        return Quaternion(w: q.w * s, x: q.x * s, y: q.y * s, z: q.z * s)
    }

    /// Recomputes the per-step gains for time step `dt` (> 0).
    @usableFromInline
    mutating func updateGains(_ dt: Double) {
        cachedStep = dt
        motionGain = 1 - Math.exp(-dt / settings.motionWindow)
        let ts = settings.accelerationTimeConstant, tm = settings.motionTimeConstant
        stillWeight = ts > 0 ? dt / ts : 1
        movingWeight = tm > 0 ? dt / tm : 1
        stillGain = 1 - Math.exp(-stillWeight)
        let tq = settings.quietTimeConstant
        quietWeight = tq > 0 ? dt / tq : 1
        quietGain = 1 - Math.exp(-quietWeight)
        movingGain = 1 - Math.exp(-movingWeight)
        restGain = 1 - Math.exp(-dt / 0.5)
        biasGain = 1 - Math.exp(-dt / settings.biasTimeConstant)
    }

    /// Convenience for callers with timestamps: dt from the previous call's time.
    @inlinable
    public mutating func update(acceleration a: Vector3, rotationRate w: Vector3, time: Seconds, previousTime: Seconds?) {
        update(acceleration: a, rotationRate: w, dt: previousTime.map { time - $0 } ?? 0)
    }

    @inlinable @inline(__always)
    mutating func restDetection(_ accelerationDeviation2: Double, _ w: Vector3, _ dt: Double) {
        _flags.biasLearning = false
        guard dt > 0 else { return }
        let k = restGain
        let gm = Vector3(restGyroMean.x + (w.x - restGyroMean.x) * k, restGyroMean.y + (w.y - restGyroMean.y) * k,
                         restGyroMean.z + (w.z - restGyroMean.z) * k)
        restGyroMean = gm
        let b = _states.gyroscopeBias
        let still = Self.squaredDistance(w, gm) < restRotation2
            && accelerationDeviation2 < restAcceleration2
            && Self.squaredDistance(gm, b) < restBias2
        let duration = still ? _states.restDuration + dt : 0
        _states.restDuration = duration
        let atRest = duration >= settings.restMinimumDuration
        _flags.atRest = atRest
        if atRest { learnBias(w) }
    }

    @inlinable @inline(__always)
    static func squaredDistance(_ a: Vector3, _ b: Vector3) -> Double {
        let x = a.x - b.x, y = a.y - b.y, z = a.z - b.z
        return x * x + y * y + z * z
    }

    /// One step of the bias low-pass towards `w`, clipped to ±`maximumBias` per axis.
    @inlinable @inline(__always)
    mutating func learnBias(_ w: Vector3) {
        let b0 = _states.gyroscopeBias, k = biasGain, m = settings.maximumBias
        var b = Vector3(b0.x + (w.x - b0.x) * k, b0.y + (w.y - b0.y) * k, b0.z + (w.z - b0.z) * k)
        b = Vector3(Swift.min(m, Swift.max(-m, b.x)), Swift.min(m, Swift.max(-m, b.y)), Swift.min(m, Swift.max(-m, b.z)))
        _states.gyroscopeBias = b
        _flags.biasLearning = true
    }

    /// exp of a rotation vector `r` (rad): the unit quaternion rotating by |r| about r,
    /// (c, s·r) with `halfAngleTerms`.
    @inlinable @inline(__always)
    static func exponential(_ r: Vector3) -> Quaternion {
        let (c, s) = halfAngleTerms(r.x * r.x + r.y * r.y + r.z * r.z, doubled: false)
        return Quaternion(w: c, x: r.x * s, y: r.y * s, z: r.z * s)
    }

    /// cos(θ/2) and sin(θ/2)/θ (twice that if `doubled`, a constant at each use) for
    /// θ² = `theta2`.
    ///
    /// Taylor series in θ² with constant coefficients (no division or trigonometry),
    /// evaluated in Estrin's form (pairs, then θ⁴, θ⁸: a short dependency chain), used for
    /// θ < 1/2, where the truncation is below 2e-16 (so c² + s²θ² = 1 to rounding); exact
    /// to rounding for tiny angles too. Larger rotations (25 rad/s at 50 Hz) are halved
    /// until they fit and the result squared back, exp(r) = exp(r/2)², all inline: no call,
    /// so nothing is spilled on the common path.
    @inlinable @inline(__always)
    static func halfAngleTerms(_ theta2: Double, doubled: Bool) -> (c: Double, s: Double) {
        if theta2 >= 0.25 {
            let (c, s) = largeHalfAngleTerms(theta2)
            return (c, doubled ? 2 * s : s)
        }
        return halfAngleSeries(theta2, doubled: doubled)
    }

    /// The series of `halfAngleTerms` in t = θ²: cos(θ/2) = Σ (−t)ᵏ / (4ᵏ (2k)!),
    /// sin(θ/2)/θ = ½ Σ (−t)ᵏ / (4ᵏ (2k+1)!), k ≤ 5.
    @inlinable @inline(__always)
    static func halfAngleSeries(_ t: Double, doubled: Bool) -> (c: Double, s: Double) {
        let t2 = t * t, t4 = t2 * t2
        let c = (1 - t * (1.0 / 8)) + t2 * (1.0 / 384 - t * (1.0 / 46080)) + t4 * (1.0 / 10321920 - t * (1.0 / 3715891200))
        // Coefficients of 2·sin(θ/2)/θ: halving them is exact, so `s` is the same either way.
        let s2 = (1 - t * (1.0 / 24)) + t2 * (1.0 / 1920 - t * (1.0 / 322560)) + t4 * (1.0 / 92897280 - t * (1.0 / 40874803200))
        if doubled { return (c, s2) }
        let s = (0.5 - t * (0.5 / 24)) + t2 * (0.5 / 1920 - t * (0.5 / 322560)) + t4 * (0.5 / 92897280 - t * (0.5 / 40874803200))
        return (c, s)
    }

    /// `halfAngleTerms` for θ ≥ 1/2 (or non-finite θ): halvings and squarings.
    @inlinable @inline(__always)
    static func largeHalfAngleTerms(_ theta2: Double) -> (c: Double, s: Double) {
        var t = theta2, scale = 1.0, halvings = 0
        while t >= 0.25 && halvings < 64 { t *= 0.25; scale *= 0.5; halvings += 1 }
        var (c, s) = halfAngleSeries(t, doubled: false)
        s *= scale
        // (c, s·r)² = (c² − s²θ², 2cs·r), once per halving.
        for _ in 0..<halvings { let c2 = c * c - s * s * theta2; s = 2 * c * s; c = c2 }
        return (c, s)
    }

    /// The smallest rotation taking unit vector `u` onto +z (about a horizontal axis).
    @inlinable
    static func tiltOntoZ(_ u: Vector3) -> Quaternion {
        // Rotation axis u × z = (u.y, −u.x, 0); half-angle form avoids trig.
        let w2 = (1 + u.z) / 2
        if w2 > 1e-12 {
            let w = w2.squareRoot()
            return Quaternion(w: w, x: u.y / (2 * w), y: -u.x / (2 * w), z: 0)
        }
        // u points straight down: turn half a turn about x.
        return Quaternion(w: 0, x: 1, y: 0, z: 0)
    }
}


extension AttitudeFilter.Settings {
    enum CodingKeys: String, CodingKey {
        case gravityMagnitude, accelerationTimeConstant, motionTimeConstant, motionThreshold, quietThreshold, quietTimeConstant, motionWindow, startupTime, restBiasEstimation, restRotationThreshold, restAccelerationThreshold, restMinimumDuration, biasTimeConstant, maximumBias, maximumTimeStep
    }

    /// Decodes settings, taking the default for any field the data lack, so files written
    /// before a setting existed (model files, for one) still read, with the behaviour they had.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = AttitudeFilter.Settings()
        self = d
        gravityMagnitude = try c.decodeIfPresent(Double.self, forKey: .gravityMagnitude) ?? d.gravityMagnitude
        accelerationTimeConstant = try c.decodeIfPresent(Double.self, forKey: .accelerationTimeConstant) ?? d.accelerationTimeConstant
        motionTimeConstant = try c.decodeIfPresent(Double.self, forKey: .motionTimeConstant) ?? d.motionTimeConstant
        motionThreshold = try c.decodeIfPresent(Double.self, forKey: .motionThreshold) ?? d.motionThreshold
        quietThreshold = try c.decodeIfPresent(Double.self, forKey: .quietThreshold) ?? d.quietThreshold
        quietTimeConstant = try c.decodeIfPresent(Double.self, forKey: .quietTimeConstant) ?? d.quietTimeConstant
        motionWindow = try c.decodeIfPresent(Double.self, forKey: .motionWindow) ?? d.motionWindow
        startupTime = try c.decodeIfPresent(Double.self, forKey: .startupTime) ?? d.startupTime
        restBiasEstimation = try c.decodeIfPresent(Bool.self, forKey: .restBiasEstimation) ?? d.restBiasEstimation
        restRotationThreshold = try c.decodeIfPresent(Double.self, forKey: .restRotationThreshold) ?? d.restRotationThreshold
        restAccelerationThreshold = try c.decodeIfPresent(Double.self, forKey: .restAccelerationThreshold) ?? d.restAccelerationThreshold
        restMinimumDuration = try c.decodeIfPresent(Double.self, forKey: .restMinimumDuration) ?? d.restMinimumDuration
        biasTimeConstant = try c.decodeIfPresent(Double.self, forKey: .biasTimeConstant) ?? d.biasTimeConstant
        maximumBias = try c.decodeIfPresent(Double.self, forKey: .maximumBias) ?? d.maximumBias
        maximumTimeStep = try c.decodeIfPresent(Double.self, forKey: .maximumTimeStep) ?? d.maximumTimeStep
    }
}
