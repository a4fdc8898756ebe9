import MotusCore

/// Fills in what CoreMotion would have given: gravity, user acceleration and attitude, from
/// a recording's raw acceleration (and rotation rate, when it has one).
public enum FusionPipeline {
    /// Which estimator `complete` used.
    public enum Method: String, Sendable, Hashable {
        /// `OrientationFilter`: accelerometer and gyroscope.
        case orientationFilter
        /// `LowPassGravity`: accelerometer only (no rotation-rate stream).
        case lowPass
        /// Nothing was done: no acceleration stream, or gravity and user acceleration
        /// were both there already.
        case none
    }

    /// Adds the streams `recording` lacks among gravity (`grav`), user acceleration (`uacc`)
    /// and, when a rotation rate is present, attitude (`att`); streams already present are
    /// left as they are.
    ///
    /// Works sample by sample on the acceleration stream's own timestamps and resamples
    /// nothing: the new streams have exactly the acceleration timestamps. When there is a
    /// rotation-rate stream, each acceleration sample is paired with the rotation-rate sample
    /// nearest in time (ties go to the earlier one), so both sensors should share a clock; at
    /// different rates a gyroscope sample may be used twice or skipped. The time step is the
    /// difference of consecutive acceleration timestamps. Without a rotation rate the
    /// accelerometer-only `LowPassGravity` is used and no attitude is added (its heading would
    /// be meaningless).
    @discardableResult
    public static func complete(_ recording: inout Recording, settings: OrientationFilter.Settings = .default,
                                lowPassSettings: LowPassGravity.Settings = .default) -> Method {
        guard let acc = recording.stream(.acceleration), !acc.isEmpty else { return .none }
        let needGravity = recording.stream(.gravity) == nil
        let needUser = recording.stream(.userAcceleration) == nil
        let gyro = recording.stream(.rotationRate).flatMap { $0.isEmpty ? nil : $0 }
        let needAttitude = gyro != nil && recording.stream(.attitude) == nil
        guard needGravity || needUser || needAttitude else { return .none }

        let n = acc.count
        var gravity = [Double](), user = [Double](), attitude = [Double]()
        gravity.reserveCapacity(3 * n); user.reserveCapacity(3 * n)
        if needAttitude { attitude.reserveCapacity(4 * n) }
        let method: Method
        if let gyro {
            method = .orientationFilter
            var f = OrientationFilter(settings: settings)
            var j = 0
            let gt = gyro.times
            for i in 0..<n {
                let t = acc.times[i]
                j = nearestIndex(gt, t, from: j)
                let dt = i == 0 ? 0 : t - acc.times[i - 1]
                f.update(acceleration: acc.vector(i), rotationRate: gyro.vector(j), dt: dt)
                let g = f.gravity, u = f.userAcceleration, q = f.attitude
                gravity.append(g.x); gravity.append(g.y); gravity.append(g.z)
                user.append(u.x); user.append(u.y); user.append(u.z)
                if needAttitude { attitude.append(q.w); attitude.append(q.x); attitude.append(q.y); attitude.append(q.z) }
            }
        } else {
            method = .lowPass
            var f = LowPassGravity(settings: lowPassSettings)
            for i in 0..<n {
                let dt = i == 0 ? 0 : acc.times[i] - acc.times[i - 1]
                f.update(acceleration: acc.vector(i), dt: dt)
                let g = f.gravity, u = f.userAcceleration
                gravity.append(g.x); gravity.append(g.y); gravity.append(g.z)
                user.append(u.x); user.append(u.y); user.append(u.z)
            }
        }
        if needGravity { recording.setStream(SensorStream(kind: .gravity, times: acc.times, values: gravity)) }
        if needUser { recording.setStream(SensorStream(kind: .userAcceleration, times: acc.times, values: user)) }
        if needAttitude { recording.setStream(SensorStream(kind: .attitude, times: acc.times, values: attitude)) }
        return method
    }

    /// Index of the element of sorted `times` nearest to `t`, searching forward from `start`
    /// (the previous answer), so a whole pass costs O(n + m).
    public static func nearestIndex(_ times: [Double], _ t: Double, from start: Int) -> Int {
        var j = Swift.min(Swift.max(start, 0), times.count - 1)
        while j + 1 < times.count && times[j + 1] <= t { j += 1 }
        if j + 1 < times.count && times[j] < t && (times[j + 1] - t) < (t - times[j]) { return j + 1 }
        return j
    }
}
