import MotusCore

/// User acceleration (gravity removed) with neither gravity nor raw acceleration beside it:
/// Android's `TYPE_LINEAR_ACCELERATION` alone, phyphox's "Linear Acceleration", a CoreMotion
/// export that kept only `userAcceleration`. This adapter turns it into acceleration the
/// session can count steps on.
///
/// **The physics.** The pedometer counts oscillations of |a| = |u + g|, which for |u| ≪ |g| is
/// |g| + u·ĝ: the user acceleration along the vertical. Without gravity ĝ is unknown. While a
/// person walks, the vertical bounce of each step and the fore-aft braking and push-off that
/// go with it oscillate at the step frequency and carry most of the user acceleration, so the
/// principal axis of u over the last few seconds carries the step rhythm. It is the vertical
/// only roughly (in a trouser pocket often within a few tens of degrees; at the waist, in
/// turns, it may lie far from it), which is why the model is not fed with it. The
/// adapter keeps that axis ê (`axis`: an exponentially weighted covariance of u over
/// `Settings.timeConstant`, one power-iteration step per sample) and hands the session
/// a = u + `Units.standardGravity`·ê. The axis alone does not say which way is up, and the
/// count depends on it: a step's vertical acceleration is a sharp upward peak at the heel's
/// impact and a long shallow dip between impacts, and upside down the pedometer misses many of
/// them. That same shape says which way is up: the acceleration along the axis is skewed
/// towards up (its third moment is positive), so ê is turned to make the running third moment
/// of u·ê (over `Settings.signTimeConstant`) positive.
///
/// **What is lost.** The direction of gravity itself: the moving/still model's features
/// (vertical and horizontal acceleration) and the posture tracker (standing up) read it, and
/// ê is not it. A session fed through this adapter therefore runs without a model
/// (`MotionSession(settings:model: nil)`): moving/still comes from the pedometer's steps and
/// the stillness detector alone. `MotionSession.run(_:settings:model:keepStepEvents:)` and
/// `motus track` do so by themselves for such a recording.
///
/// O(1) per sample, no allocation.
public struct UserAccelerationOnlyInput: Sendable {
    /// How the axis follows the motion; units on each property.
    public struct Settings: Sendable, Hashable, Codable {
        /// Time constant (s) of the covariance: a few steps, so that the axis follows a
        /// change of carry but not each stride.
        public var timeConstant: Seconds = 2
        /// Time constant (s) of the third moment that picks the sign of the axis: longer than
        /// the covariance's, so that the sign turns only when the motion's shape does.
        public var signTimeConstant: Seconds = 4
        /// The axis moves only while the root-mean-square user acceleration (m/s², the
        /// square root of the covariance's trace) is at least this: above sensor noise and
        /// fidgeting, below the slowest walk's bounce. At rest the axis stays where the last
        /// motion left it.
        public var minimumMotionRMS: MetersPerSecondSquared = 0.3
        /// The defaults, as given on each property.
        public init() {}
        /// The defaults (the same as `init()`).
        public static let `default` = Settings()
    }

    /// The settings this adapter runs with.
    public let settings: Settings
    /// The axis taken for the vertical (unit vector, device frame): the principal axis of the
    /// recent user acceleration, turned so that the acceleration along it is skewed the way a
    /// step's upward impact skews it; the device's z axis until the first motion.
    public var axis: Vector3 { thirdMoment >= 0 ? principal : -principal }
    /// The principal axis, its sign kept from sample to sample (not turned up).
    var principal = Vector3(0, 0, 1)
    /// Running third moment of u·`principal` (m³/s⁶).
    var thirdMoment = 0.0
    /// True once the axis has followed some motion.
    public private(set) var hasMotion = false
    // The covariance's six distinct entries (m²/s⁴).
    var cxx = 0.0, cyy = 0.0, czz = 0.0, cxy = 0.0, cxz = 0.0, cyz = 0.0
    var lastTime = Double.nan

    /// An adapter with `settings`.
    public init(settings: Settings = .default) {
        precondition(settings.timeConstant > 0 && settings.signTimeConstant > 0 && settings.minimumMotionRMS >= 0,
                     "time constants must be > 0 and the motion floor ≥ 0")
        self.settings = settings
    }

    /// True when a recording with streams of these kinds needs the adapter: user
    /// acceleration, and neither gravity nor raw acceleration.
    public static func isNeeded(for kinds: Set<StreamKind>) -> Bool {
        kinds.contains(.userAcceleration) && !kinds.contains(.gravity) && !kinds.contains(.acceleration)
    }

    /// The acceleration (m/s², gravity along `axis` included) for one user-acceleration sample
    /// `u` (m/s²) at `time` (s). A sample that is not finite passes unchanged (the session
    /// rejects it).
    public mutating func acceleration(userAcceleration u: Vector3, time: Seconds) -> Vector3 {
        guard u.isFinite, time.isFinite else { return u }
        // The first sample, a gap in time or time going back weighs as one time constant.
        let dt = lastTime.isNaN || !(time > lastTime) ? settings.timeConstant : time - lastTime
        lastTime = time
        let w = 1 - Math.exp(-Swift.min(dt, settings.timeConstant) / settings.timeConstant)
        cxx += w * (u.x * u.x - cxx); cyy += w * (u.y * u.y - cyy); czz += w * (u.z * u.z - czz)
        cxy += w * (u.x * u.y - cxy); cxz += w * (u.x * u.z - cxz); cyz += w * (u.y * u.z - cyz)
        let floor = settings.minimumMotionRMS * settings.minimumMotionRMS
        if cxx + cyy + czz >= floor && cxx + cyy + czz > 0 {
            if !hasMotion {
                // Start the power iteration from the covariance's column of largest variance:
                // never orthogonal to the principal axis.
                principal = cxx >= cyy && cxx >= czz ? Vector3(cxx, cxy, cxz) : cyy >= czz ? Vector3(cxy, cyy, cyz) : Vector3(cxz, cyz, czz)
                hasMotion = true
            }
            // One power-iteration step. C is positive semi-definite, so C·ê never points
            // against ê: the sign is kept.
            let e = principal
            let next = Vector3(cxx * e.x + cxy * e.y + cxz * e.z, cxy * e.x + cyy * e.y + cyz * e.z, cxz * e.x + cyz * e.y + czz * e.z)
            let n = next.norm
            if n > 0 && n.isFinite { principal = next / n }
            let p = u.dot(principal)
            let ws = 1 - Math.exp(-Swift.min(dt, settings.signTimeConstant) / settings.signTimeConstant)
            thirdMoment += ws * (p * p * p - thirdMoment)
        }
        return u + axis * Units.standardGravity
    }

    /// The sample the session should get: user acceleration becomes acceleration
    /// (`acceleration(userAcceleration:time:)`); every other sample passes unchanged.
    public mutating func adapt(_ s: SensorSample) -> SensorSample {
        guard case .userAcceleration(let v) = s else { return s }
        return .acceleration(VectorSample(time: v.time, value: acceleration(userAcceleration: v.value, time: v.time)))
    }
}
