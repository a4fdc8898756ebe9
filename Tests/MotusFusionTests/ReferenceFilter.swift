import MotusCore
@testable import MotusFusion

/// The filter written the plain way, as the optimised `AttitudeFilter.update` must behave:
/// an explicit inclination quaternion corrected every sample, `exp` and divisions per
/// sample, exact axis-angle exponential, full normalisations. Gravity and flags of the two
/// must agree to rounding (the attitudes agree up to heading, which is unobservable).
struct ReferenceAttitudeFilter {
    var settings: AttitudeFilter.Settings
    var strapdown = Quaternion.identity
    var inclination = Quaternion.identity
    var lowPass = Vector3.zero
    var startupWeight = 0.0, startupElapsed = 0.0
    var previousRate = Vector3.zero
    var motionMean = Vector3.zero, motionVariance = 0.0, motionElapsed = 0.0
    var restGyroMean = Vector3.zero, restAccMean = Vector3.zero, restDuration = 0.0
    var bias = Vector3.zero
    var samples = 0
    var moving = false, atRest = false

    init(settings: AttitudeFilter.Settings, initialAttitude: Quaternion = .identity) {
        self.settings = settings; strapdown = initialAttitude.normalized
    }

    var gravity: Vector3 { (inclination * strapdown).inverseRotate(Vector3(0, 0, settings.gravityMagnitude)) }

    static func exp(_ r: Vector3) -> Quaternion { r.norm == 0 ? .identity : Quaternion(axis: r, angle: r.norm) }

    mutating func update(acceleration a: Vector3, rotationRate w: Vector3, dt dt0: Double) {
        guard a.isFinite, w.isFinite else { return }
        var dt = dt0
        if !(dt > 0) || !dt.isFinite { dt = 0 }
        dt = min(dt, settings.maximumTimeStep)
        let first = samples == 0
        samples += 1
        if settings.restBiasEstimation {
            if first { restGyroMean = w; restAccMean = a } else if dt > 0 {
                let k = 1 - Math.exp(-dt / 0.5)
                restGyroMean = restGyroMean + (w - restGyroMean) * k
                restAccMean = restAccMean + (a - restAccMean) * k
                let still = (w - restGyroMean).norm < settings.restRotationThreshold
                    && (a - restAccMean).norm < settings.restAccelerationThreshold
                    && (restGyroMean - bias).norm < settings.restRotationThreshold + settings.maximumBias
                restDuration = still ? restDuration + dt : 0
                atRest = restDuration >= settings.restMinimumDuration
                if atRest {
                    let b = bias + (w - bias) * (1 - Math.exp(-dt / settings.biasTimeConstant))
                    let m = settings.maximumBias
                    bias = Vector3(min(m, max(-m, b.x)), min(m, max(-m, b.y)), min(m, max(-m, b.z)))
                }
            }
        }
        let wc = w - bias
        if dt > 0 {
            let r0 = (first ? wc : previousRate) * dt, r1 = wc * dt
            let r = (r0 + r1) * 0.5 + r0.cross(r1) * (1.0 / 12)
            strapdown = (strapdown * Self.exp(r)).normalized
        }
        previousRate = wc
        if first {
            motionMean = a; motionVariance = 0; motionElapsed = 0
        } else {
            motionElapsed += dt
            let k = 1 - Math.exp(-dt / settings.motionWindow)
            motionMean = motionMean + (a - motionMean) * k
            motionVariance += ((a - motionMean).squaredNorm - motionVariance) * k
        }
        moving = motionVariance.squareRoot() > settings.motionThreshold || motionElapsed < settings.motionWindow
        let quiet = !moving && motionVariance.squareRoot() < settings.quietThreshold
        let tau = moving ? settings.motionTimeConstant : quiet ? settings.quietTimeConstant : settings.accelerationTimeConstant
        let aS = strapdown.rotate(a)
        let weight = tau > 0 ? dt / tau : 1
        if first {
            lowPass = aS
        } else if startupElapsed < settings.startupTime {
            startupElapsed += dt
            startupWeight += weight
            if startupWeight > 0 { lowPass = lowPass + (aS - lowPass) * (weight / startupWeight) }
        } else {
            lowPass = lowPass + (aS - lowPass) * (1 - Math.exp(-weight))
        }
        // Inclination: rotate the low-passed vector onto +z by the smallest rotation.
        let v = inclination.rotate(lowPass)
        if v.norm > 1e-9 {
            let u = v.normalized
            let axis = u.cross(Vector3(0, 0, 1))
            let angle = Math.acos(max(-1, min(1, u.z)))
            let c = axis.norm > 1e-12 ? Quaternion(axis: axis, angle: angle) : (u.z > 0 ? .identity : Quaternion(w: 0, x: 1, y: 0, z: 0))
            inclination = (c * inclination).normalized
        }
    }
}
