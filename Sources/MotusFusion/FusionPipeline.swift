import MotusCore

/// Fills in what CoreMotion would have given: gravity, user acceleration and attitude, from
/// a recording's raw acceleration (and rotation rate, when it has one).
public enum FusionPipeline {
    /// How the whole recording is used.
    public enum Mode: String, Sendable, Hashable, CaseIterable, Codable {
        /// Causal: each estimate from the samples up to it, as the live session gets it.
        case live
        /// Forwards and backwards in time (`OfflineOrientation`), for recordings on disk.
        /// The magnetometer is not used in this mode.
        case offline
    }

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
    /// be meaningless). In `.live` mode with a magnetic-field stream (paired the same way) the
    /// attitude's reference frame is east-north-up with magnetic north (`OrientationFilter`'s
    /// 9D update); otherwise its heading is the device's first heading.
    @discardableResult
    public static func complete(_ recording: inout Recording, settings: OrientationFilter.Settings = .default, mode: Mode = .live,
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
            if mode == .offline {
                // The rotation rate nearest in time to each acceleration sample, for the two passes.
                var rates = [Double](repeating: 0, count: 3 * n)
                var j = 0
                for i in 0..<n {
                    j = nearestIndex(gyro.times, acc.times[i], from: j)
                    rates[3 * i] = gyro.values[3 * j]; rates[3 * i + 1] = gyro.values[3 * j + 1]; rates[3 * i + 2] = gyro.values[3 * j + 2]
                }
                let (g, q) = OfflineOrientation.estimate(times: acc.times, acceleration: acc.values, rotationRate: rates, settings: settings)
                gravity = g
                for i in 0..<n {
                    user.append(acc.values[3 * i] - g[3 * i]); user.append(acc.values[3 * i + 1] - g[3 * i + 1]); user.append(acc.values[3 * i + 2] - g[3 * i + 2])
                }
                if needAttitude { attitude = q }
            } else {
                let mag = recording.stream(.magneticField).flatMap { $0.isEmpty ? nil : $0 }
                var f = OrientationFilter(settings: settings)
                var j = 0, k = 0
                for i in 0..<n {
                    let t = acc.times[i]
                    let dt = i == 0 ? 0 : t - acc.times[i - 1]
                    // The rotation rate (and field) nearest in time to this acceleration sample.
                    j = nearestIndex(gyro.times, t, from: j)
                    let w = gyro.vector(j)
                    if let mag {
                        k = nearestIndex(mag.times, t, from: k)
                        f.update(acceleration: acc.vector(i), rotationRate: w, magneticField: mag.vector(k), dt: dt)
                    } else {
                        f.update(acceleration: acc.vector(i), rotationRate: w, dt: dt)
                    }
                    let g = f.gravity, u = f.userAcceleration
                    gravity.append(g.x); gravity.append(g.y); gravity.append(g.z)
                    user.append(u.x); user.append(u.y); user.append(u.z)
                    if needAttitude { let q = f.attitude; attitude.append(q.w); attitude.append(q.x); attitude.append(q.y); attitude.append(q.z) }
                }
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
    public static func nearestIndex(_ times: [Seconds], _ t: Seconds, from start: Int) -> Int {
        var j = Swift.min(Swift.max(start, 0), times.count - 1)
        while j + 1 < times.count && times[j + 1] <= t { j += 1 }
        if j + 1 < times.count && times[j] < t && (times[j + 1] - t) < (t - times[j]) { return j + 1 }
        return j
    }
}

/// A filter of accelerometer and gyroscope that gives gravity: what evaluation loops need of
/// `OrientationFilter` and `AttitudeFilter`.
public protocol GyroscopeGravityFilter {
    /// One sample: acceleration (m/s², gravity included), rotation rate (rad/s), time step (s).
    mutating func update(acceleration: Vector3, rotationRate: Vector3, dt: Seconds)
    /// Gravity in the device frame (m/s², pointing up).
    var gravity: Vector3 { get }
}

extension OrientationFilter: GyroscopeGravityFilter {}
extension AttitudeFilter: GyroscopeGravityFilter {}
