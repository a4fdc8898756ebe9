import MotusCore

/// One sample of the fixed-rate input the feature extractors read, device frame, SI units.
@frozen
public struct MotionFrame: Sendable, Hashable {
    /// Raw acceleration, gravity included (m/s², Android sign: about +9.81 up at rest).
    public var acceleration: Vector3
    /// Gravity in the device frame, pointing up (m/s²), as fusion or CoreMotion gives it.
    /// `.zero` when unknown (then the vertical channel is 0 and the horizontal one |a|).
    public var gravity: Vector3
    /// Rotation rate (rad/s). Read only by configurations that `requiresRotationRate`.
    public var rotationRate: Vector3

    /// A frame (m/s², m/s², rad/s).
    @inlinable public init(acceleration: Vector3, gravity: Vector3, rotationRate: Vector3 = .zero) {
        self.acceleration = acceleration; self.gravity = gravity; self.rotationRate = rotationRate
    }

    /// The value of `channel` for this frame (see `FeatureChannel` for the definitions).
    @inlinable public func value(_ channel: FeatureChannel) -> Double {
        let a = acceleration
        switch channel {
        case .accelerationMagnitude: return a.norm
        case .userAccelerationMagnitude: return (a - gravity).norm
        case .verticalAcceleration:
            let gn = gravity.norm
            return gn > 0 ? a.dot(gravity) / gn - gn : 0
        case .horizontalAccelerationMagnitude:
            let gn = gravity.norm
            guard gn > 0 else { return a.norm }
            let u = gravity / gn
            return (a - a.dot(u) * u).norm
        case .rotationRateMagnitude: return rotationRate.norm
        case .accelerationX: return a.x
        case .accelerationY: return a.y
        case .accelerationZ: return a.z
        case .rotationRateX: return rotationRate.x
        case .rotationRateY: return rotationRate.y
        case .rotationRateZ: return rotationRate.z
        }
    }
}
