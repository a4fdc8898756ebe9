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
///   steady for `restMinimumDuration`) the low-passed gyroscope reading measures the bias
///   directly, with a smaller uncertainty. The bias is clipped to ±`maximumBias`.
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
        public var gravityMagnitude: Double = Units.standardGravity
        /// Time constant (s) of the accelerometer low-pass in the almost-inertial frame. Longer
        /// rejects more motion and trusts the gyroscope for longer. Default 3 s.
        public var accelerationTimeConstant: Double = 3
        /// Estimate the gyroscope bias while moving. Default true.
        public var motionBiasEstimation: Bool = true
        /// Estimate the gyroscope bias at rest. Default true.
        public var restBiasEstimation: Bool = true
        /// Time constant (s) of the low-pass of gyroscope and accelerometer used to detect rest.
        /// Default 0.5 s.
        public var restTimeConstant: Double = 0.5
        /// Largest deviation (rad/s) of the gyroscope from its low-pass that counts as rest.
        /// Default 2°/s.
        public var restRotationThreshold: Double = 2 * Math.radiansPerDegree
        /// Largest deviation (m/s²) of the accelerometer from its low-pass that counts as rest.
        /// Default 0.5 m/s².
        public var restAccelerationThreshold: Double = 0.5
        /// How long (s) both rest thresholds must hold before the device counts as at rest.
        /// Default 1.5 s.
        public var restMinimumDuration: Double = 1.5
        /// Standard deviation (rad/s) of the bias before anything is known. Default 0.5°/s.
        public var initialBiasUncertainty: Double = 0.5 * Math.radiansPerDegree
        /// Time (s) in which, without measurements, the bias variance grows by (0.1°/s)².
        /// Default 100 s.
        public var biasForgettingTime: Double = 100
        /// Standard deviation (rad/s) of the bias that steady motion can pin down. Default 0.1°/s.
        public var motionBiasUncertainty: Double = 0.1 * Math.radiansPerDegree
        /// How much weaker the vertical pseudo-measurement is than the horizontal ones (a
        /// factor on their variance's inverse). Default 1e-4.
        public var verticalBiasForgettingFactor: Double = 1e-4
        /// Standard deviation (rad/s) of the bias that rest can pin down. Default 0.03°/s.
        public var restBiasUncertainty: Double = 0.03 * Math.radiansPerDegree
        /// Largest bias (rad/s) per axis, and largest disagreement one sample may bring.
        /// Default 2°/s.
        public var maximumBias: Double = 2 * Math.radiansPerDegree
        /// How far ahead (in sample periods) the outputs are predicted at the latest rotation
        /// rate, to make up for the sensor's own output delay. Default 0.5. 0 reports the
        /// attitude as integrated up to the latest sample.
        public var delayCompensation: Double = 0.5
        /// Longest time step (s) integrated at once; longer gaps are clipped. Default 0.5 s.
        public var maximumTimeStep: Double = 0.5

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
        public var correctionAngle: Double = 0
        /// How long (s) the rest thresholds have held.
        public var restDuration: Double = 0
        /// The low-passed acceleration (m/s²) in the almost-inertial frame.
        public var inertialAcceleration: Vector3 = .zero
        public init() {}
    }

    /// Settings; a change takes effect at the next sample.
    public var settings: Settings { didSet { coefficientStep = -1 } }

    @usableFromInline var _flags = Flags()
    @usableFromInline var strapdownQ: Quaternion = .identity
    @usableFromInline var inclinationQ: Quaternion = .identity
    @usableFromInline var bias: Vector3 = .zero
    /// Bias covariance (rad²/s²).
    @usableFromInline var biasCovariance: Matrix3
    /// Low-pass of the acceleration in I, of the attitude's rotation matrix (rows) and of the
    /// horizontal part of the bias seen in the reference frame (x, y; z unused).
    @usableFromInline var accelerationLP = LowPassState3()
    @usableFromInline var rotationLP = (LowPassState3(), LowPassState3(), LowPassState3())
    @usableFromInline var rotatedBiasLP = LowPassState3()
    /// Low-passes for rest detection, device frame.
    @usableFromInline var restGyroLP = LowPassState3()
    @usableFromInline var restAccelerationLP = LowPassState3()
    /// Running means during start-up and the time they cover.
    @usableFromInline var startAcceleration: Vector3 = .zero
    @usableFromInline var startRotation = Matrix3.scaledIdentity(0)
    @usableFromInline var startRotatedBias: Vector3 = .zero
    @usableFromInline var startSamples: Double = 0
    @usableFromInline var startElapsed: Double = 0
    @usableFromInline var restStartGyro: Vector3 = .zero
    @usableFromInline var restStartAcceleration: Vector3 = .zero
    @usableFromInline var restStartSamples: Double = 0
    @usableFromInline var restStartElapsed: Double = 0
    @usableFromInline var restDuration: Double = 0
    @usableFromInline var lastCorrection: Vector3 = .zero
    @usableFromInline var lastAcceleration: Vector3 = .zero
    @usableFromInline var lastRate: Vector3 = .zero
    @usableFromInline var lastStep: Double = 0
    @usableFromInline var inertialLP: Vector3 = .zero
    /// Coefficients for the time step `coefficientStep` (recomputed when the step changes by
    /// more than 1 %, or the settings change).
    @usableFromInline var coefficientStep: Double = -1
    @usableFromInline var accelerationCoefficients = LowPassCoefficients(timeConstant: 1, dt: 0.01)
    @usableFromInline var restCoefficients = LowPassCoefficients(timeConstant: 1, dt: 0.01)
    /// Bias Kalman filter: variance growth per step, its cap, and the measurement variances.
    @usableFromInline var biasGrowth: Double = 0
    @usableFromInline var biasVarianceCap: Double = 0
    @usableFromInline var motionVariance: Double = 0
    @usableFromInline var verticalVariance: Double = 0
    @usableFromInline var restVariance: Double = 0

    public init(settings: Settings = .default) {
        self.settings = settings
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

    /// Attitude, device frame → reference frame (z up), predicted `delayCompensation` sample
    /// periods ahead. Unit quaternion.
    @inlinable public var attitude: Quaternion {
        let q = inclinationQ * strapdownQ
        let k = settings.delayCompensation * lastStep
        guard k != 0 else { return q }
        return (q * AttitudeFilter.exponential(lastRate * k)).normalized
    }

    /// Gravity in the device frame (m/s²), pointing up.
    @inlinable public var gravity: Vector3 {
        let q = attitude, g = settings.gravityMagnitude
        // attitude⁻¹ · (0, 0, 1): the third row of the rotation matrix.
        return Vector3(2 * (q.x * q.z - q.w * q.y), 2 * (q.y * q.z + q.w * q.x), 1 - 2 * (q.x * q.x + q.y * q.y)) * g
    }

    /// Acceleration without gravity (m/s²), device frame: latest acceleration − `gravity`.
    @inlinable public var userAcceleration: Vector3 { lastAcceleration - gravity }

    /// Gyroscope bias estimate (rad/s).
    @inlinable public var gyroscopeBias: Vector3 { bias }

    @inlinable public var flags: Flags { _flags }

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

    /// Processes one sample: `acceleration` (m/s², gravity included, Android sign),
    /// `rotationRate` (rad/s) and the time `dt` (s) since the previous sample (0 for the first).
    @inlinable
    public mutating func update(acceleration a: Vector3, rotationRate w: Vector3, dt dt0: Double) {
        guard a.isFinite, w.isFinite else { _flags.sampleSkipped = true; return }
        _flags.sampleSkipped = false
        let dt = dt0.isFinite && dt0 > 0 ? Swift.min(dt0, settings.maximumTimeStep) : 0
        if dt > 0 && Swift.abs(dt - coefficientStep) > 0.01 * coefficientStep { setCoefficients(dt) }
        lastAcceleration = a
        lastStep = dt
        let rate = w - bias
        lastRate = rate
        if dt > 0 {
            strapdownQ = (strapdownQ * AttitudeFilter.exponential(rate * dt)).normalized
        }
        let rest = dt > 0 ? detectRest(a, w, dt) : false
        _flags.atRest = rest

        // The acceleration in I, low-passed there (running mean during start-up).
        let inertial = strapdownQ.rotate(a)
        let rotation = Matrix3(rotation: inclinationQ * strapdownQ)
        let rotatedBias = Vector3(rotation.r0.dot(bias), rotation.r1.dot(bias), 0)
        let lp: Vector3, rotationMean: Matrix3, rotatedBiasMean: Vector3
        if startElapsed < settings.accelerationTimeConstant || coefficientStep < 0 {
            startSamples += 1
            startElapsed += dt
            let k = 1 / startSamples
            startAcceleration += (inertial - startAcceleration) * k
            startRotation = Matrix3(startRotation.r0 + (rotation.r0 - startRotation.r0) * k, startRotation.r1 + (rotation.r1 - startRotation.r1) * k,
                                    startRotation.r2 + (rotation.r2 - startRotation.r2) * k)
            startRotatedBias += (rotatedBias - startRotatedBias) * k
            lp = startAcceleration; rotationMean = startRotation; rotatedBiasMean = startRotatedBias
            _flags.initialising = true
            if startElapsed >= settings.accelerationTimeConstant && coefficientStep > 0 {
                accelerationLP = LowPassState3(value: startAcceleration)
                rotationLP = (LowPassState3(value: startRotation.r0), LowPassState3(value: startRotation.r1), LowPassState3(value: startRotation.r2))
                rotatedBiasLP = LowPassState3(value: startRotatedBias)
            }
        } else {
            _flags.initialising = false
            let c = accelerationCoefficients
            lp = accelerationLP.step(inertial, c)
            rotationMean = Matrix3(rotationLP.0.step(rotation.r0, c), rotationLP.1.step(rotation.r1, c), rotationLP.2.step(rotation.r2, c))
            rotatedBiasMean = rotatedBiasLP.step(rotatedBias, c)
        }
        inertialLP = lp

        // Inclination correction: the smallest rotation taking the low-passed vector, seen in
        // the reference frame, onto +z.
        let e = inclinationQ.rotate(lp)
        let n = e.norm
        guard n > 0 else { _flags.biasUpdated = false; return }
        let u = e * (1 / n)
        let correction = AttitudeFilter.tiltOntoZ(u)
        lastCorrection = Vector3(correction.x, correction.y, 0)
        inclinationQ = (correction * inclinationQ).normalized

        _flags.biasUpdated = dt > 0 ? updateBias(rest: rest, up: u, rotationMean: rotationMean, rotatedBiasMean: rotatedBiasMean, dt: dt) : false
    }

    /// Rest detection: the gyroscope and accelerometer each within their threshold of their
    /// own low-pass, for `restMinimumDuration`.
    @inlinable @inline(__always)
    mutating func detectRest(_ a: Vector3, _ w: Vector3, _ dt: Double) -> Bool {
        let gyroMean: Vector3, accelerationMean: Vector3
        if restStartElapsed < settings.restTimeConstant {
            restStartSamples += 1
            restStartElapsed += dt
            let k = 1 / restStartSamples
            restStartGyro += (w - restStartGyro) * k
            restStartAcceleration += (a - restStartAcceleration) * k
            gyroMean = restStartGyro; accelerationMean = restStartAcceleration
            if restStartElapsed >= settings.restTimeConstant {
                restGyroLP = LowPassState3(value: restStartGyro)
                restAccelerationLP = LowPassState3(value: restStartAcceleration)
            }
        } else {
            gyroMean = restGyroLP.step(w, restCoefficients)
            accelerationMean = restAccelerationLP.step(a, restCoefficients)
        }
        restGyroMean = gyroMean
        let tw = settings.restRotationThreshold, ta = settings.restAccelerationThreshold
        if (w - gyroMean).squaredNorm < tw * tw && (a - accelerationMean).squaredNorm < ta * ta {
            restDuration += dt
        } else {
            restDuration = 0
        }
        return restDuration >= settings.restMinimumDuration
    }

    @usableFromInline var restGyroMean: Vector3 = .zero

    /// One Kalman step of the bias: the variance grows, then a measurement (rest or motion)
    /// corrects it. Returns whether a measurement was used.
    @inlinable @inline(__always)
    mutating func updateBias(rest: Bool, up u: Vector3, rotationMean: Matrix3, rotatedBiasMean: Vector3, dt: Double) -> Bool {
        guard settings.motionBiasEstimation || settings.restBiasEstimation else { return false }
        // Growth of the variance (diagonal), capped at the initial variance.
        var p = biasCovariance
        if p.r0.x < biasVarianceCap { p.r0.x += biasGrowth }
        if p.r1.y < biasVarianceCap { p.r1.y += biasGrowth }
        if p.r2.z < biasVarianceCap { p.r2.z += biasGrowth }
        let h: Matrix3, innovation: Vector3, w: Vector3
        if rest && settings.restBiasEstimation {
            h = .scaledIdentity(1)
            innovation = restGyroMean - bias
            w = Vector3(restVariance, restVariance, restVariance)
        } else if settings.motionBiasEstimation {
            // The correction rate (−u.y, u.x)/dt is the horizontal bias error seen in the
            // reference frame; the filtered model term `rotationMean · bias` matches it.
            h = rotationMean
            innovation = Vector3(-u.y / dt + rotatedBiasMean.x - rotationMean.r0.dot(bias),
                                 u.x / dt + rotatedBiasMean.y - rotationMean.r1.dot(bias),
                                 -rotationMean.r2.dot(bias))
            w = Vector3(motionVariance, motionVariance, verticalVariance)
        } else {
            biasCovariance = p
            return false
        }
        let m = settings.maximumBias
        let clipped = Vector3(Swift.min(m, Swift.max(-m, innovation.x)), Swift.min(m, Swift.max(-m, innovation.y)),
                              Swift.min(m, Swift.max(-m, innovation.z)))
        let pht = p * h.transposed
        var s = h * pht
        s.r0.x += w.x; s.r1.y += w.y; s.r2.z += w.z
        guard let sInverse = s.inverse else { biasCovariance = p; return false }
        let gain = pht * sInverse
        let b = bias + gain * clipped
        bias = Vector3(Swift.min(m, Swift.max(-m, b.x)), Swift.min(m, Swift.max(-m, b.y)), Swift.min(m, Swift.max(-m, b.z)))
        biasCovariance = p - gain * (h * p)
        return true
    }

    /// Low-pass coefficients and Kalman variances for time step `dt` (> 0).
    @usableFromInline
    mutating func setCoefficients(_ dt: Double) {
        coefficientStep = dt
        let s = settings
        accelerationCoefficients = LowPassCoefficients(timeConstant: Swift.max(s.accelerationTimeConstant, dt), dt: dt)
        restCoefficients = LowPassCoefficients(timeConstant: Swift.max(s.restTimeConstant, dt), dt: dt)
        let s0 = s.initialBiasUncertainty
        biasVarianceCap = s0 * s0
        // The variance grows by (0.1°/s)² per forgetting time.
        let f = 0.1 * Math.radiansPerDegree
        biasGrowth = f * f * dt / Swift.max(s.biasForgettingTime, dt)
        // Measurement variances chosen so that steady measurements hold the bias variance at
        // the stated uncertainty: w = p²/v + p gives a steady posterior variance p.
        let pm = s.motionBiasUncertainty * s.motionBiasUncertainty
        motionVariance = pm * pm / biasGrowth + pm
        verticalVariance = motionVariance / Swift.max(s.verticalBiasForgettingFactor, 1e-10)
        let pr = s.restBiasUncertainty * s.restBiasUncertainty
        restVariance = pr * pr / biasGrowth + pr
    }
}
