import MotusCore

/// Orientation from an accelerometer and a gyroscope: inclination (gravity) that is right
/// against optical motion capture, with the gyroscope's bias estimated at rest and in motion.
///
/// ## Conventions
/// Inputs in the device frame, Android sign (a phone lying face up measures about
/// `+9.81 m/s²` on z), acceleration in m/s², rotation rate in rad/s, time step in s.
/// `attitude` rotates device-frame vectors into a reference frame with z up; its heading
/// (rotation about z) follows the gyroscope from the device's first heading.
/// `gravity` points up in the device frame, `userAcceleration = acceleration − gravity`.
///
/// ## Method (the structure of VQF, Laidig & Seel 2023; this implementation is our own)
/// - **Strapdown.** The bias-corrected gyroscope is integrated into `strapdown` (device →
///   an almost-inertial frame I). It is never corrected by the accelerometer, so I turns
///   only with the gyroscope's error.
/// - **Inclination in I.** Each accelerometer sample is turned into I and low-passed there by
///   a second-order Butterworth filter of time constant `accelerationTimeConstant`. In a frame
///   that does not turn with the device, the acceleration of a moving body averages out (its
///   velocity stays bounded) while gravity stays put, so the low-passed vector is gravity.
///   `inclination` (I → reference, about a horizontal axis) is corrected at every sample so
///   that it takes that vector onto +z; the filter in I, not a gain, sets how fast.
/// - **Gyroscope bias, a Kalman filter on three numbers.** In motion, the corrections the
///   inclination needs are the horizontal part of the bias error seen in the reference frame
///   (low-passed the same way, so the model matches the measurement); a weak pseudo-measurement
///   keeps the unobservable vertical part near zero. At rest (gyroscope and accelerometer both
///   steady for `restMinimumDuration`, with a mean rate no larger than a bias can be) the
///   low-passed gyroscope reading measures the bias directly, with a smaller uncertainty. The
///   bias is clipped to ±`maximumBias`.
/// - **Sensor delay.** A sensor's output describes the motion a little before its timestamp
///   (a MEMS gyroscope's anti-alias filter and averaging delay it by about half to one output
///   period). The reported attitude, gravity and user acceleration are predicted
///   `delayCompensation` sample periods ahead at the latest rotation rate; the filter's own
///   states are not.
/// - **Start-up.** Until one `accelerationTimeConstant` has passed, the low-pass outputs the
///   running mean of the samples so far, so the first sample already gives a full inclination.
/// - **Gaps.** A time step above `maximumTimeStep` is integrated as that step; a non-positive
///   or non-finite step integrates nothing; a sample with a non-finite value is skipped.
///
/// One `update` per sample; the struct holds only numbers and allocates nothing.
@frozen
public struct OrientationFilter: Sendable {
    /// Tuning values, with units. The defaults are VQF's published ones for the parts
    /// it shares; none was chosen on a data set Motus is scored on.
    @frozen
    public struct Settings: Sendable, Hashable, Codable {
        /// Magnitude (m/s²) of the `gravity` output. Default: standard gravity, 9.80665.
        public var gravityMagnitude: MetersPerSecondSquared = Units.standardGravity
        /// Time constant (s) of the accelerometer low-pass in the almost-inertial frame. Longer
        /// rejects more motion and trusts the gyroscope for longer. Default 3 s.
        public var accelerationTimeConstant: Seconds = 3
        /// Estimate the gyroscope bias while moving. Default true.
        public var motionBiasEstimation: Bool = true
        /// Estimate the gyroscope bias at rest. Default true.
        public var restBiasEstimation: Bool = true
        /// Time constant (s) of the low-pass of gyroscope and accelerometer used to detect rest.
        /// Default 0.5 s.
        public var restTimeConstant: Seconds = 0.5
        /// Largest deviation (rad/s) of the gyroscope from its low-pass that counts as rest.
        /// Default 2°/s.
        public var restRotationThreshold: RadiansPerSecond = 2 * Math.radiansPerDegree
        /// Largest deviation (m/s²) of the accelerometer from its low-pass that counts as rest.
        /// Default 0.5 m/s².
        public var restAccelerationThreshold: MetersPerSecondSquared = 0.5
        /// How long (s) both rest thresholds must hold before the device counts as at rest.
        /// Default 1.5 s.
        public var restMinimumDuration: Seconds = 1.5
        /// Standard deviation (rad/s) of the bias before anything is known. Default 0.5°/s.
        public var initialBiasUncertainty: RadiansPerSecond = 0.5 * Math.radiansPerDegree
        /// Time (s) in which, without measurements, the bias variance grows by (0.1°/s)².
        /// Default 100 s.
        public var biasForgettingTime: Seconds = 100
        /// Standard deviation (rad/s) of the bias that steady motion can pin down. Default 0.1°/s.
        public var motionBiasUncertainty: RadiansPerSecond = 0.1 * Math.radiansPerDegree
        /// How much weaker the vertical pseudo-measurement is than the horizontal ones (a
        /// factor on their variance's inverse). Default 1e-4.
        public var verticalBiasForgettingFactor: Double = 1e-4
        /// Standard deviation (rad/s) of the bias that rest can pin down. Default 0.03°/s.
        public var restBiasUncertainty: RadiansPerSecond = 0.03 * Math.radiansPerDegree
        /// Largest bias (rad/s) per axis, and largest disagreement one sample may bring.
        /// Default 2°/s.
        public var maximumBias: RadiansPerSecond = 2 * Math.radiansPerDegree
        /// How far ahead (in sample periods) the outputs are predicted at the latest rotation
        /// rate, to make up for the sensor's own output delay. Default 0.5. 0 reports the
        /// attitude as integrated up to the latest sample.
        public var delayCompensation: Double = 0.5
        /// Longest time step (s) integrated at once; longer gaps are clipped. Default 0.5 s.
        public var maximumTimeStep: Seconds = 0.5
        /// The magnetometer's part (heading), used by `update(…magneticField:…)`.
        public var magnetometer = HeadingEstimator.Settings()

        /// The defaults, as given on each property.
        public init() {}

        /// The defaults.
        public static let `default` = Settings()

        /// For a rotation rate the platform has already bias-corrected (CoreMotion's
        /// `rotationRate`, Android's calibrated gyroscope): no bias estimation, which would only
        /// add its own noise.
        public static let biasCorrectedGyroscope: Settings = {
            var s = Settings()
            s.motionBiasEstimation = false
            s.restBiasEstimation = false
            return s
        }()
    }

    /// What the filter did with the latest sample.
    @frozen
    public struct Flags: Sendable, Hashable {
        /// Less than one `accelerationTimeConstant` of data seen: the low-pass is a running mean.
        public var initialising = true
        /// Both rest thresholds have held for `restMinimumDuration`.
        public var atRest = false
        /// The bias was updated by a measurement (at rest or in motion) at the latest sample.
        public var biasUpdated = false
        /// The latest sample was skipped (a non-finite value).
        public var sampleSkipped = false
        /// The latest magnetometer sample was disturbed and not used for the heading.
        public var magneticDisturbance = false
        /// The defaults, as given on each property.
        public init() {}
    }

    /// Internal quantities after the latest sample, for diagnostics and plots.
    @frozen
    public struct InternalStates: Sendable, Hashable {
        /// Gyroscope bias estimate (rad/s), device frame.
        public var gyroscopeBias: Vector3 = .zero
        /// Standard deviation (rad/s) of the bias estimate, per axis.
        public var biasStandardDeviation: Vector3 = .zero
        /// Angle (rad) of the inclination correction made at the latest sample.
        public var correctionAngle: Radians = 0
        /// How long (s) the rest thresholds have held.
        public var restDuration: Seconds = 0
        /// The low-passed acceleration (m/s²) in the almost-inertial frame.
        public var inertialAcceleration: Vector3 = .zero
        /// The defaults, as given on each property.
        public init() {}
    }

    /// Settings; a change takes effect at the next sample.
    public var settings: Settings {
        didSet {
            coefficientStep = -1; stepTolerance = -1; blockCoefficientsTime = -1; heading9D.settings = settings.magnetometer
            outputScales = (settings.gravityMagnitude, settings.delayCompensation)
        }
    }
    /// `settings.gravityMagnitude` and `settings.delayCompensation`, kept beside the settings
    /// so that `gravity`, inlined into a caller in another module, reads two stored numbers:
    /// through the settings' getter (not inlinable, it has an observer) the caller copied the
    /// whole filter for every read.
    @usableFromInline var outputScales: (gravity: Double, lead: Double)

    /// The heading part, fed by `update(…magneticField:…)`.
    @inlinable public var headingEstimator: HeadingEstimator { heading9D }
    @usableFromInline var heading9D = HeadingEstimator()
    /// Time (s) and magnetometer samples since the heading was last updated.
    @usableFromInline var headingElapsed: Double = 0
    @usableFromInline var headingSkipped: Int = 0

    @usableFromInline var _flags = Flags()
    @usableFromInline var strapdownQ: Quaternion = .identity
    @usableFromInline var inclinationQ: Quaternion = .identity
    @usableFromInline var bias: Vector3 = .zero
    /// Bias covariance (rad²/s²), symmetric.
    @usableFromInline var biasCovariance: Matrix3
    /// Low-pass of the acceleration in I.
    @usableFromInline var accelerationLP = LowPassState3()
    /// Low-passes for rest detection, device frame.
    @usableFromInline var restGyroLP = LowPassState3()
    @usableFromInline var restAccelerationLP = LowPassState3()
    @usableFromInline var restGyroMean: Vector3 = .zero
    @usableFromInline var restAccelerationMean: Vector3 = .zero
    /// Sums of the samples since the rest low-passes last stepped, and how many.
    @usableFromInline var restGyroSum: Vector3 = .zero
    @usableFromInline var restAccelerationSum: Vector3 = .zero
    @usableFromInline var restSumCount: Int = 0
    @usableFromInline var restSumElapsed: Double = 0
    /// Samples per step of the rest low-passes (about 80 ms of samples, at least 1).
    @usableFromInline var restStride: Int = 1
    /// Running mean of the acceleration in I during start-up, and the time it covers.
    @usableFromInline var startAcceleration: Vector3 = .zero
    @usableFromInline var startSamples: Double = 0
    @usableFromInline var startElapsed: Double = 0
    @usableFromInline var restStartSamples: Double = 0
    @usableFromInline var restStartElapsed: Double = 0
    @usableFromInline var restDuration: Double = 0
    /// The bias is updated once per block of about `biasBlock` seconds from the block's mean
    /// measurements (the bias changes over tens of seconds; a Kalman step per sample would
    /// cost more than all the rest of the filter). Sums over the current block:
    @usableFromInline var blockElapsed: Double = 0
    @usableFromInline var blockMotionAngle: Vector3 = .zero
    @usableFromInline var blockRestRate: Vector3 = .zero
    @usableFromInline var blockRestSamples: Double = 0
    /// The block-rate low-passes of the attitude's rotation matrix (rows) and of the bias seen
    /// in the reference frame (x, y), which model what the accelerometer low-pass does to a
    /// bias error; running means until they have covered one time constant.
    @usableFromInline var rotationLP = (LowPassState3(), LowPassState3(), LowPassState3())
    @usableFromInline var rotatedBiasLP = LowPassState3()
    @usableFromInline var blockStartRotation = Matrix3.scaledIdentity(0)
    @usableFromInline var blockStartRotatedBias: Vector3 = .zero
    @usableFromInline var blockStartCount: Double = 0
    @usableFromInline var blockStartElapsed: Double = 0
    /// Coefficients of the block-rate low-passes, for blocks of `blockCoefficientsTime` s
    /// (negative: none made yet for the current settings).
    @usableFromInline var blockCoefficients = LowPassCoefficients(timeConstant: 1, dt: 0.1)
    @usableFromInline var blockCoefficientsTime: Double = -1
    @usableFromInline var lastCorrection: Vector3 = .zero
    @usableFromInline var lastAcceleration: Vector3 = .zero
    @usableFromInline var lastRate: Vector3 = .zero
    @usableFromInline var lastStep: Double = 0
    @usableFromInline var inertialLP: Vector3 = .zero
    /// Sum of the accelerations in I since the low-pass last stepped, and how many.
    @usableFromInline var inertialSum: Vector3 = .zero
    @usableFromInline var inertialSumCount: Int = 0
    /// Samples per step of the acceleration low-pass and the inclination correction (about
    /// 80 ms of samples, at least 1).
    @usableFromInline var correctionStride: Int = 1
    /// Magnetometer samples per heading step (about `headingStep` of samples, at least 1).
    @usableFromInline var headingStride: Int = 1
    /// Up (unit) in I after the latest correction.
    @usableFromInline var upInertial = Vector3(0, 0, 1)
    /// Gravity (unit, up, device frame) after the latest sample, before the delay compensation.
    @usableFromInline var upNow = Vector3(0, 0, 1)
    /// 1 / |low-passed acceleration| (s²/m) at the latest sample; 0 before the first.
    @usableFromInline var inverseNorm: Double = 0
    /// Coefficients for the time step `coefficientStep` (recomputed when the step changes by
    /// more than 1 %, or the settings change).
    @usableFromInline var coefficientStep: Double = -1
    /// How far a time step may be from `coefficientStep` for `update`'s common path: 1 % of
    /// it (a step within 1 % keeps the coefficients), less if that would pass
    /// `maximumTimeStep`. Negative (the common path closed) until coefficients are made for
    /// the current settings and both start-ups (the acceleration's and the rest detection's
    /// running means) are over.
    @usableFromInline var stepTolerance: Double = -1
    @usableFromInline var accelerationCoefficients = LowPassCoefficients(timeConstant: 1, dt: 0.01)
    @usableFromInline var restCoefficients = LowPassCoefficients(timeConstant: 1, dt: 0.01)
    @usableFromInline var restRotation2: Double = 0
    @usableFromInline var restAcceleration2: Double = 0
    @usableFromInline var estimatesBias = true
    /// Counts samples between renormalisations of the two quaternions.
    @usableFromInline var renormalisationTick: UInt8 = 0

    /// About how often (s) the rest-detection low-passes, the acceleration low-pass and the
    /// inclination correction step: their time constants are 0.5 s and more, so nothing they
    /// pass changes within 80 ms, and at a phone's 50 Hz the correction runs every fourth sample.
    @usableFromInline static let restStep = 0.08

    /// About how often (s) the magnetometer's heading steps: it follows a disturbance's onset,
    /// which a longer step would judge later.
    @usableFromInline static let headingStep = 0.04

    /// Length (s) of the blocks the bias update averages over (the bias changes over tens of
    /// seconds).
    @usableFromInline static let biasBlock = 0.2

    /// A filter that has seen no sample (it starts initialising).
    public init(settings: Settings = .default) {
        self.settings = settings
        outputScales = (settings.gravityMagnitude, settings.delayCompensation)
        heading9D = HeadingEstimator(settings: settings.magnetometer)
        let s0 = settings.initialBiasUncertainty
        biasCovariance = .scaledIdentity(s0 * s0)
    }

    /// Forgets everything learned, keeping the settings.
    public mutating func reset() { self = OrientationFilter(settings: settings) }

    // MARK: - Outputs

    /// Integral of the bias-corrected gyroscope: device frame → almost-inertial frame.
    @inlinable public var strapdown: Quaternion { strapdownQ }
    /// Inclination correction: almost-inertial frame → reference frame (z up).
    @inlinable public var inclination: Quaternion { inclinationQ }

    /// The rotation over the delay compensation, as a rotation vector (rad, device frame).
    @inlinable var leadVector: Vector3 { lastRate * (outputScales.lead * lastStep) }

    /// Attitude, device frame → reference frame (z up), predicted `delayCompensation` sample
    /// periods ahead. Unit quaternion. With a magnetometer (`update(…magneticField:…)`) the
    /// reference frame is east-north-up (magnetic north); without one its heading is the
    /// device's first heading, followed by the gyroscope.
    @inlinable @inline(__always) public var attitude: Quaternion {
        // Always inlined: a call would take the whole filter by value, and callers that update
        // it in a loop then copy it for every call.
        var q = inclinationQ * strapdownQ
        let r = leadVector
        // Unit quaternions times a unit quaternion: unit to rounding, no normalisation needed.
        if r.x != 0 || r.y != 0 || r.z != 0 { q = q * AttitudeFilter.exponential(r) }
        return heading9D.isInitialised ? heading9D.rotation * q : q
    }

    /// Compass heading (rad, clockwise from magnetic north, in [0, 2π)) of the device's +y axis
    /// (a phone's top edge) projected onto the horizontal; nil until a magnetometer sample has
    /// been used, or when that axis points straight up or down.
    public var heading: Radians? {
        guard headingEstimator.isInitialised else { return nil }
        let v = attitude.rotate(Vector3(0, 1, 0))
        guard v.x * v.x + v.y * v.y > 1e-12 else { return nil }
        let a = Math.atan2(v.x, v.y)
        return a < 0 ? a + 2 * Double.pi : a
    }

    /// Gravity in the device frame (m/s²), pointing up, predicted like `attitude`.
    @inlinable public var gravity: Vector3 {
        // Turning the device by r turns a fixed vector by −r in the device frame:
        // v' = v − r × v + ½ r × (r × v), exact to third order in |r| (a few mrad).
        let r = leadVector, v = upNow
        let c = r.cross(v)
        let turned = v - c + r.cross(c) * 0.5
        return turned * outputScales.gravity
    }

    /// Acceleration without gravity (m/s²), device frame: latest acceleration − `gravity`.
    @inlinable public var userAcceleration: Vector3 { lastAcceleration - gravity }

    /// Gyroscope bias estimate (rad/s).
    @inlinable public var gyroscopeBias: Vector3 { bias }

    /// Diagnostics of the latest sample: initialising, at rest, bias updated, sample skipped,
    /// magnetic disturbance.
    @inlinable public var flags: Flags { _flags }

    /// Internal quantities of the latest sample, for diagnostics and plots.
    public var internalStates: InternalStates {
        var s = InternalStates()
        s.gyroscopeBias = bias
        s.biasStandardDeviation = Vector3(Swift.max(0, biasCovariance.r0.x).squareRoot(), Swift.max(0, biasCovariance.r1.y).squareRoot(),
                                          Swift.max(0, biasCovariance.r2.z).squareRoot())
        s.correctionAngle = 2 * Math.asin(Swift.min(1, lastCorrection.norm))
        s.restDuration = restDuration
        s.inertialAcceleration = inertialLP
        return s
    }

    // MARK: - Update

    /// Processes one sample with a magnetometer reading `magneticField` (µT, device frame):
    /// the 6D update, then the heading. A non-finite field is left out (the 6D part still runs).
    @inlinable
    public mutating func update(acceleration a: Vector3, rotationRate w: Vector3, magneticField m: Vector3, dt: Seconds) {
        update(acceleration: a, rotationRate: w, dt: dt)
        guard !_flags.sampleSkipped, m.isFinite else { return }
        // The heading changes over seconds: one magnetometer sample per `headingStride`
        // (about every 40 ms; every sample at 25 Hz and below) updates it, with the time
        // since the previous update.
        headingElapsed += lastStep
        headingSkipped += 1
        guard headingSkipped >= headingStride || !heading9D.isInitialised else { return }
        heading9D.update(field: m, attitude: inclinationQ * strapdownQ, rotationRate: lastRate, dt: headingElapsed)
        headingElapsed = 0; headingSkipped = 0
        _flags.magneticDisturbance = heading9D.disturbed
    }

    /// Processes one sample: `acceleration` (m/s², gravity included, Android sign),
    /// `rotationRate` (rad/s) and the time `dt` (s) since the previous sample (0 for the first).
    @inlinable
    public mutating func update(acceleration a: Vector3, rotationRate w: Vector3, dt dt0: Seconds) {
        // The common case in one test. 0·(sum of the inputs) is NaN when an input is not
        // finite, and NaN fails every comparison, so the test holds only for finite input
        // with a time step within `stepTolerance` of the one the coefficients were made for:
        // positive, no longer than `maximumTimeStep`, and past both start-ups. Anything else
        // takes the general path, which checks each condition on its own.
        let probe = dt0 + 0 * ((a.x + a.y + a.z) + (w.x + w.y + w.z))
        if Swift.abs(probe - coefficientStep) <= stepTolerance {
            advance(a, w, dt0, general: false)
        } else {
            unusualSample(a, w, dt0)
        }
    }

    /// `update` for a sample the common-case test let through: a non-finite value (skipped),
    /// a time step that is not positive, changed or too long, new settings, or a start-up
    /// not yet over.
    @usableFromInline @inline(never)
    mutating func unusualSample(_ a: Vector3, _ w: Vector3, _ dt0: Double) {
        guard a.isFinite, w.isFinite else { _flags.sampleSkipped = true; return }
        let dt = dt0.isFinite && dt0 > 0 ? Swift.min(dt0, settings.maximumTimeStep) : 0
        if dt > 0 && Swift.abs(dt - coefficientStep) > 0.01 * coefficientStep { setCoefficients(dt) }
        advance(a, w, dt, general: true)
        let pastStartUp = coefficientStep > 0 && startElapsed >= settings.accelerationTimeConstant
            && restStartElapsed >= settings.restTimeConstant
        // Within 1 % of `coefficientStep` (the same product as the test above) and at most
        // `maximumTimeStep`. Where the second bound is the smaller, the two steps are within
        // 1 % of each other, so it and `update`'s difference are exact.
        stepTolerance = pastStartUp ? Swift.min(0.01 * coefficientStep, settings.maximumTimeStep - coefficientStep) : -1
    }

    /// One sample with a valid time step `dt` (0 when there is none to integrate). `general`
    /// is a constant at each call: false on the common path, where `dt` > 0 and both
    /// start-ups are over, so those tests fold away.
    @inlinable @inline(__always)
    mutating func advance(_ a: Vector3, _ w: Vector3, _ dt: Double, general: Bool) {
        _flags.sampleSkipped = false
        _flags.biasUpdated = false
        lastAcceleration = a
        lastStep = dt
        let rate = w - bias
        lastRate = rate
        renormalisationTick &+= 1
        let integrates = !general || dt > 0
        if integrates {
            // exp(rate·dt) by `AttitudeFilter`'s series, or its first four terms for a step
            // below about 0.03 rad (most steps at high rates), where the rest is below 1e-19;
            // the rare large step (above 0.5 rad) out of line, so that its loops do not crowd
            // the registers of the common path.
            let r = rate * dt
            let t = r.squaredNorm
            let c: Double, sn: Double
            if t < 1e-3 {
                let t2 = t * t
                c = (1 - t * (1.0 / 8)) + t2 * (1.0 / 384 - t * (1.0 / 46080))
                sn = (0.5 - t * (0.5 / 24)) + t2 * (0.5 / 1920 - t * (0.5 / 322560))
            } else {
                (c, sn) = t >= 0.25 ? Self.largeHalfAngleTerms(t) : AttitudeFilter.halfAngleSeries(t, doubled: false)
            }
            let q = strapdownQ * Quaternion(w: c, x: r.x * sn, y: r.y * sn, z: r.z * sn)
            strapdownQ = renormalisationTick == 0 ? AttitudeFilter.renormalized(q) : q
        }

        // Rest first: it does not depend on the rotation, and a correction made at this
        // sample counts towards the bias only in motion. Without a time step nothing is
        // judged or counted.
        var rest = _flags.atRest
        if integrates {
            rest = detectRest(a, w, dt, general: general)
            _flags.atRest = rest
        }
        let countsMotion = integrates && estimatesBias && !rest

        // The acceleration in I, low-passed there (running mean during start-up, then once per
        // `correctionStride` samples, about every 80 ms, on their mean: the low-pass's time
        // constant is seconds, so nothing it passes changes within a stride). The corrections
        // over their time are the horizontal bias error seen in the reference frame (through
        // the low-pass); the block's mean rate in motion is their sum over the time they took.
        let (c0, c1, c2) = Self.rotationColumns(strapdownQ)
        let inertial = c0 * a.x + c1 * a.y + c2 * a.z
        if general && (startElapsed < settings.accelerationTimeConstant || coefficientStep < 0) {
            if let c = correctInclination(startUp(inertial, dt)), countsMotion { blockMotionAngle += c }
        } else {
            inertialSum += inertial
            inertialSumCount &+= 1
            if inertialSumCount >= correctionStride {
                let lp = accelerationLP.step(inertialSum * (1 / Double(inertialSumCount)), accelerationCoefficients)
                inertialSum = Vector3(0, 0, 0); inertialSumCount = 0
                if let c = correctInclination(lp), countsMotion { blockMotionAngle += c }
            }
        }

        // Gravity (up) in the device frame: up in I (the low-passed vector's direction, which
        // the inclination takes onto +z) turned back by the strapdown rotation.
        let u = upInertial
        upNow = Vector3(c0.dot(u), c1.dot(u), c2.dot(u))

        guard integrates && estimatesBias else { return }
        if rest {
            blockRestRate += restGyroMean
            blockRestSamples += 1
        }
        blockElapsed += dt
        if blockElapsed >= Self.biasBlock { endBlock(inclinationQ * strapdownQ) }
    }

    /// `AttitudeFilter.halfAngleTerms` for θ² = `theta2` ≥ 1/4 (or not finite), out of line.
    @usableFromInline @inline(never)
    static func largeHalfAngleTerms(_ theta2: Double) -> (c: Double, s: Double) {
        AttitudeFilter.largeHalfAngleTerms(theta2)
    }

    /// The columns of the rotation matrix of unit quaternion `q`.
    @inlinable @inline(__always)
    static func rotationColumns(_ q: Quaternion) -> (Vector3, Vector3, Vector3) {
        let x2 = q.x + q.x, y2 = q.y + q.y, z2 = q.z + q.z
        let xx = q.x * x2, yy = q.y * y2, zz = q.z * z2
        let xy = q.x * y2, xz = q.x * z2, yz = q.y * z2
        let wx = q.w * x2, wy = q.w * y2, wz = q.w * z2
        return (Vector3(1 - (yy + zz), xy + wz, xz - wy),
                Vector3(xy - wz, 1 - (xx + zz), yz + wx),
                Vector3(xz + wy, yz - wx, 1 - (xx + yy)))
    }

    /// Turns the inclination so that it takes `lp` (the low-passed acceleration in I) onto +z;
    /// returns the correction's horizontal part (rad, reference frame), nil when `lp` is zero
    /// (nothing to correct with).
    @inlinable @inline(__always)
    mutating func correctInclination(_ lp: Vector3) -> Vector3? {
        inertialLP = lp
        let e = inclinationQ.rotate(lp)
        let n2 = e.squaredNorm
        guard n2 > 0 else { return nil }
        // 1/|e| by one Newton step from the previous value (|e| changes slowly: no square root
        // or division), exact when that step is not close enough.
        var inv = inverseNorm * (1.5 - 0.5 * n2 * inverseNorm * inverseNorm)
        if Swift.abs(n2 * inv * inv - 1) > 1e-9 { inv = 1 / n2.squareRoot() }
        inverseNorm = inv
        let u = e * inv
        let h2 = u.x * u.x + u.y * u.y
        let correction: Quaternion
        if h2 < 1e-8 {
            // A small correction (after start-up, always): the first-order quaternion, exact
            // to |u_h|³ < 1e-12 rad, and one Newton step towards unit norm keeps |q| within
            // rounding of 1.
            correction = Quaternion(w: 1, x: 0.5 * u.y, y: -0.5 * u.x, z: 0)
            // correction ⊗ inclination with the product's terms in 1 and 0 left out (the
            // same sums in the same order, so the same numbers).
            let cx = correction.x, cy = correction.y, q = inclinationQ
            let p = Quaternion(w: q.w - cx * q.x - cy * q.y, x: q.x + cx * q.w + cy * q.z,
                               y: q.y - cx * q.z + cy * q.w, z: q.z + cx * q.y - cy * q.x)
            inclinationQ = AttitudeFilter.renormalized(p)
        } else {
            correction = tiltInclination(u)
        }
        lastCorrection = Vector3(correction.x, correction.y, 0)
        // Products of unit quaternions leave unit norm by rounding only: one Newton step
        // (`renormalized`) brings the strapdown back.
        if renormalisationTick == 0 || h2 >= 1e-8 { strapdownQ = AttitudeFilter.renormalized(strapdownQ) }
        upInertial = lp * inv
        return Vector3(-u.y, u.x, 0)
    }

    /// A large inclination correction (start-up, jumps), out of line: the inclination turned
    /// by the smallest rotation taking unit vector `u` onto +z, and that rotation returned.
    @usableFromInline @inline(never)
    mutating func tiltInclination(_ u: Vector3) -> Quaternion {
        let correction = AttitudeFilter.tiltOntoZ(u)
        inclinationQ = (correction * inclinationQ).normalized
        return correction
    }

    /// The start-up low-pass: the running mean of the samples so far; when it has covered one
    /// time constant the filter takes over from it.
    @usableFromInline
    mutating func startUp(_ inertial: Vector3, _ dt: Double) -> Vector3 {
        startSamples += 1
        startElapsed += dt
        startAcceleration += (inertial - startAcceleration) * (1 / startSamples)
        _flags.initialising = true
        if startElapsed >= settings.accelerationTimeConstant && coefficientStep > 0 {
            accelerationLP = LowPassState3(value: startAcceleration)
            _flags.initialising = false
        }
        return startAcceleration
    }

    /// Rest detection: the gyroscope and accelerometer each within their threshold of their
    /// own low-pass, and the low-passed rate within ±`maximumBias`, for `restMinimumDuration`.
    /// The two low-passes (time constant `restTimeConstant`, far longer than 80 ms) step once
    /// per `restStride` samples, about every 80 ms, on those samples' mean, and the sample
    /// that completes the stride is checked against them: rest is judged at about 100 Hz
    /// whatever the input rate (every sample below it), and holds in between. `general` as
    /// in `advance` (false: the start-up is over).
    @inlinable @inline(__always)
    mutating func detectRest(_ a: Vector3, _ w: Vector3, _ dt: Double, general: Bool) -> Bool {
        restSumElapsed += dt
        if general && restStartElapsed < settings.restTimeConstant {
            (restGyroMean, restAccelerationMean) = restStartUp(a, w, dt)
        } else {
            restGyroSum += w
            restAccelerationSum += a
            restSumCount &+= 1
            // Between stride ends nothing the test reads changes: the common path keeps the
            // latest verdict (the general path, which may follow new settings, recomputes it).
            guard restSumCount >= restStride else { return general ? restDuration >= settings.restMinimumDuration : _flags.atRest }
            let k = 1 / Double(restSumCount)
            restGyroMean = restGyroLP.step(restGyroSum * k, restCoefficients)
            restAccelerationMean = restAccelerationLP.step(restAccelerationSum * k, restCoefficients)
            restGyroSum = Vector3(0, 0, 0); restAccelerationSum = Vector3(0, 0, 0); restSumCount = 0
        }
        let gyroMean = restGyroMean
        // Steady readings, and a mean rate no larger than a bias can be: a steady turn (a
        // turntable, a car's curve) is not rest.
        let m = settings.maximumBias
        if (w - gyroMean).squaredNorm < restRotation2 && (a - restAccelerationMean).squaredNorm < restAcceleration2
            && Swift.abs(gyroMean.x) <= m && Swift.abs(gyroMean.y) <= m && Swift.abs(gyroMean.z) <= m {
            restDuration += restSumElapsed
        } else {
            restDuration = 0
        }
        restSumElapsed = 0
        return restDuration >= settings.restMinimumDuration
    }

    @usableFromInline
    mutating func restStartUp(_ a: Vector3, _ w: Vector3, _ dt: Double) -> (Vector3, Vector3) {
        restStartSamples += 1
        restStartElapsed += dt
        let k = 1 / restStartSamples
        // The low-pass states hold the running means until they take over.
        let g = restGyroLP.value + (w - restGyroLP.value) * k
        let m = restAccelerationLP.value + (a - restAccelerationLP.value) * k
        restGyroLP = LowPassState3(value: g)
        restAccelerationLP = LowPassState3(value: m)
        return (g, m)
    }

    /// The end of a bias block: the block-rate low-passes step once, then one Kalman update
    /// from the block's mean measurement (rest, when the block saw rest; else motion).
    @usableFromInline
    mutating func endBlock(_ attitude: Quaternion) {
        let t = blockElapsed
        let rotation = Matrix3(rotation: attitude)
        let rotatedBias = Vector3(rotation.r0.dot(bias), rotation.r1.dot(bias), 0)
        let rotationMean: Matrix3, rotatedBiasMean: Vector3
        if blockStartElapsed < settings.accelerationTimeConstant {
            blockStartCount += 1
            blockStartElapsed += t
            let k = 1 / blockStartCount
            let m = blockStartRotation
            blockStartRotation = Matrix3(m.r0 + (rotation.r0 - m.r0) * k, m.r1 + (rotation.r1 - m.r1) * k, m.r2 + (rotation.r2 - m.r2) * k)
            blockStartRotatedBias += (rotatedBias - blockStartRotatedBias) * k
            rotationMean = blockStartRotation
            rotatedBiasMean = blockStartRotatedBias
            let r = blockStartRotation
            rotationLP = (LowPassState3(value: r.r0), LowPassState3(value: r.r1), LowPassState3(value: r.r2))
            rotatedBiasLP = LowPassState3(value: blockStartRotatedBias)
        } else {
            // Blocks of a steady input rate all have the same length: the coefficients are
            // made again only when it changes.
            if t != blockCoefficientsTime {
                blockCoefficients = LowPassCoefficients(timeConstant: Swift.max(settings.accelerationTimeConstant, t), dt: t)
                blockCoefficientsTime = t
            }
            let c = blockCoefficients
            rotationMean = Matrix3(rotationLP.0.step(rotation.r0, c), rotationLP.1.step(rotation.r1, c), rotationLP.2.step(rotation.r2, c))
            rotatedBiasMean = rotatedBiasLP.step(rotatedBias, c)
        }

        // The variance grows by (0.1°/s)² per forgetting time, up to the initial variance;
        // measurement variances w = p²/v + p hold it at p under steady measurements.
        let s = settings
        let f = 0.1 * Math.radiansPerDegree
        let growth = f * f * t / Swift.max(s.biasForgettingTime, t)
        var p = biasCovariance
        let cap = s.initialBiasUncertainty * s.initialBiasUncertainty
        if p.r0.x < cap { p.r0.x += growth }
        if p.r1.y < cap { p.r1.y += growth }
        if p.r2.z < cap { p.r2.z += growth }
        func variance(_ sigma: Double) -> Double { let q = sigma * sigma; return q * q / growth + q }

        let h: Matrix3, innovation: Vector3, w: Vector3
        let restMeasurement = blockRestSamples > 0 && s.restBiasEstimation
        if restMeasurement {
            h = .scaledIdentity(1)
            innovation = blockRestRate * (1 / blockRestSamples) - bias
            let v = variance(s.restBiasUncertainty)
            w = Vector3(v, v, v)
        } else if t > 0 && blockRestSamples == 0 && s.motionBiasEstimation && !_flags.initialising {
            // A block without rest was all motion: its length is the time the corrections took.
            let mean = blockMotionAngle * (1 / t)
            h = rotationMean
            innovation = Vector3(mean.x + rotatedBiasMean.x - rotationMean.r0.dot(bias),
                                 mean.y + rotatedBiasMean.y - rotationMean.r1.dot(bias),
                                 -rotationMean.r2.dot(bias))
            let v = variance(s.motionBiasUncertainty)
            w = Vector3(v, v, v / Swift.max(s.verticalBiasForgettingFactor, 1e-10))
        } else {
            h = .scaledIdentity(0); innovation = .zero; w = .zero
        }
        blockElapsed = 0; blockMotionAngle = .zero; blockRestRate = .zero; blockRestSamples = 0
        guard w != .zero else { biasCovariance = p; return }

        let m = s.maximumBias
        func clip(_ v: Vector3) -> Vector3 {
            Vector3(Swift.min(m, Swift.max(-m, v.x)), Swift.min(m, Swift.max(-m, v.y)), Swift.min(m, Swift.max(-m, v.z)))
        }
        // At rest the measurement matrix is the identity: P·Hᵀ = P and H·P·Hᵀ = P.
        let pht = restMeasurement ? p : p * h.transposed
        var sMatrix = restMeasurement ? p : h * pht
        sMatrix.r0.x += w.x; sMatrix.r1.y += w.y; sMatrix.r2.z += w.z
        guard let sInverse = sMatrix.inverse else { biasCovariance = p; return }
        let gain = pht * sInverse
        bias = clip(bias + gain * clip(innovation))
        biasCovariance = p - gain * pht.transposed
        _flags.biasUpdated = true
    }

    /// Low-pass coefficients and thresholds for time step `dt` (> 0).
    @usableFromInline
    mutating func setCoefficients(_ dt: Double) {
        coefficientStep = dt
        let s = settings
        restStride = Swift.max(1, Int((Self.restStep / dt).rounded()))
        correctionStride = restStride
        headingStride = Swift.max(1, Int((Self.headingStep / dt).rounded()))
        let restDt = dt * Double(restStride)
        accelerationCoefficients = LowPassCoefficients(timeConstant: Swift.max(s.accelerationTimeConstant, restDt), dt: restDt)
        restCoefficients = LowPassCoefficients(timeConstant: Swift.max(s.restTimeConstant, restDt), dt: restDt)
        restRotation2 = s.restRotationThreshold * s.restRotationThreshold
        restAcceleration2 = s.restAccelerationThreshold * s.restAccelerationThreshold
        estimatesBias = s.motionBiasEstimation || s.restBiasEstimation
    }
}
