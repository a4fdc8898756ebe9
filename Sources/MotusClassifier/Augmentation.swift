import MotusCore

/// Training-time augmentation for carry positions the training data lack. The same walk
/// shakes a phone in a trouser pocket far more than a sensor at the lower back or in a belt;
/// copies of each recording whose dynamic part (user acceleration and rotation rate) is
/// scaled down teach the model that stepping is movement at any amplitude, while gravity and
/// the rhythm of the signal stay as recorded. Augmented windows are used for training only;
/// every evaluation uses the recordings as recorded.
public struct Augmentation: Codable, Equatable, Sendable {
    /// Factors applied to user acceleration and rotation rate; empty: no augmentation.
    public var dynamicScales: [Double]

    /// Augmentation by these factors of the dynamic part.
    public init(dynamicScales: [Double]) { self.dynamicScales = dynamicScales }

    /// No augmentation: the recordings as recorded.
    public static let none = Augmentation(dynamicScales: [])
    /// Half the recorded motion: `train`'s default, for data from one carry position (the shipped
    /// model, trained on four placements, uses none; see models/README.md).
    public static let carryPositions = Augmentation(dynamicScales: [0.5])

    /// A copy of the recording with acceleration = gravity + s × user acceleration and
    /// rotation rate × s. Needs gravity and user acceleration (or acceleration and gravity).
    public static func scalingDynamics(_ r: Recording, by s: Double) -> Recording {
        var out = r
        guard let g = r.stream(.gravity) else { return r }
        let uacc = r.stream(.userAcceleration) ?? r.stream(.acceleration).map { a -> SensorStream in
            var u = SensorStream(kind: .userAcceleration, times: a.times, values: a.values)
            if a.count == g.count && a.times == g.times {
                u.replace(times: a.times, values: zip(a.values, g.values).map { $0 - $1 })
            }
            return u
        }
        guard let u = uacc, u.count == g.count, u.times == g.times else { return r }
        var newU = u
        newU.replace(times: u.times, values: u.values.map { $0 * s })
        var acc = SensorStream(kind: .acceleration, name: r.stream(.acceleration)?.name)
        acc.replace(times: g.times, values: zip(g.values, newU.values).map { $0 + $1 })
        out.setStream(acc)
        if r.stream(.userAcceleration) != nil { out.setStream(newU) }
        if var w = r.stream(.rotationRate) {
            w.replace(times: w.times, values: w.values.map { $0 * s })
            out.setStream(w)
        }
        return out
    }
}
