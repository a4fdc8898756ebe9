import MotusCore
import MotusFusion

/// Accuracy of a gravity estimate against a reference (the device's own fusion, such as
/// CoreMotion's gravity on MotionSense and WeAllWalk, or optical motion capture on BROAD), and
/// plausibility checks on devices without a reference (IPOL, Oxford).
///
/// Arrays of vectors are flat `[x0, y0, z0, x1, …]`, as `SensorStream.values` stores them.
/// Angles are reported in degrees. The evaluation core takes plain arrays, so the
/// `motus evaluate-fusion` command is a loop: read a recording, `errors(…)`, collect
/// `RecordingResult`s, `aggregate`.
public enum FusionEvaluation {
    /// Which estimator to run.
    public enum Method: Sendable, Hashable {
        /// `OrientationFilter` with accelerometer and gyroscope (the default).
        case orientationFilter(OrientationFilter.Settings)
        /// `OfflineOrientation`: the same filter forwards and backwards in time (recordings only).
        case offline(OrientationFilter.Settings)
        /// `AttitudeFilter` with accelerometer and gyroscope (the filter models of version 1
        /// fuse with; `GravityFusion.attitude`).
        case attitudeFilter(AttitudeFilter.Settings)
        /// `LowPassGravity` with the accelerometer only.
        case lowPass(LowPassGravity.Settings)

        /// Whether the method needs a rotation-rate stream.
        public var usesGyroscope: Bool {
            if case .lowPass = self { return false }
            return true
        }
    }

    /// Median, 95th percentile, mean and root mean square of a set of angle errors (degrees).
    public struct Summary: Sendable, Hashable, Codable {
        /// Number of errors summarised (samples).
        public var count: Int
        /// Median error (degrees); NaN when there are none.
        public var medianDegrees: Degrees
        /// 95th percentile of the errors (degrees, `percentile(sorted:_:)`); NaN when there are none.
        public var p95Degrees: Degrees
        /// Mean error (degrees); NaN when there are none.
        public var meanDegrees: Degrees
        /// Root mean square of the errors (degrees); NaN when there are none.
        public var rmseDegrees: Degrees
        /// A summary from figures already computed (degrees); see the properties.
        public init(count: Int, medianDegrees: Degrees, p95Degrees: Degrees, meanDegrees: Degrees, rmseDegrees: Degrees) {
            self.count = count; self.medianDegrees = medianDegrees; self.p95Degrees = p95Degrees; self.meanDegrees = meanDegrees
            self.rmseDegrees = rmseDegrees
        }

        /// Summary of `values` (any order); NaN figures when empty.
        public init(_ values: [Double]) {
            let s = values.sorted()
            count = s.count
            medianDegrees = FusionEvaluation.percentile(sorted: s, 50)
            p95Degrees = FusionEvaluation.percentile(sorted: s, 95)
            meanDegrees = s.isEmpty ? .nan : s.reduce(0, +) / Double(s.count)
            rmseDegrees = s.isEmpty ? .nan : (s.reduce(0) { $0 + $1 * $1 } / Double(s.count)).squareRoot()
        }
    }

    /// One recording's errors after the skipped start.
    public struct RecordingResult: Sendable, Hashable {
        /// e.g. "wlk_15/sub_2".
        public var name: String
        /// e.g. "wlk".
        public var activity: String
        /// e.g. 2 (for odd/even splits); 0 when unknown.
        public var subject: Int
        /// Per-sample angle errors (degrees) after `skipSeconds`.
        public var errorsDegrees: [Degrees]
        /// The time (s, recording clock) of each error; empty when not known.
        public var errorTimes: [Seconds]
        /// The summary of `errorsDegrees`.
        public var summary: Summary
        /// A recording's result; `summary` is computed from `errorsDegrees` (degrees), and
        /// `errorTimes` (s, recording clock) gives one time per error or none.
        public init(name: String, activity: String, subject: Int, errorsDegrees: [Degrees], errorTimes: [Seconds] = []) {
            self.name = name; self.activity = activity; self.subject = subject
            self.errorsDegrees = errorsDegrees; self.errorTimes = errorTimes; self.summary = Summary(errorsDegrees)
        }
    }

    /// Figures per recording, per activity (in order of first appearance) and over all
    /// samples pooled.
    public struct Report: Sendable {
        /// Every recording's result, in the order given to `aggregate`.
        public var recordings: [RecordingResult]
        /// One summary per activity (`RecordingResult.activity`) of the errors of all its
        /// recordings pooled, in order of first appearance.
        public var activities: [(activity: String, summary: Summary)]
        /// The summary of every error of every recording pooled (so a long recording weighs
        /// more than a short one).
        public var overall: Summary
    }

    /// Percentile `p` (0…100) of sorted values, linear interpolation between closest ranks
    /// (numpy's default), so figures compare with the Python peers. NaN when empty.
    public static func percentile(sorted s: [Double], _ p: Double) -> Double {
        if s.isEmpty { return .nan }
        let pos = p / 100 * Double(s.count - 1)
        let lo = Int(pos.rounded(.down)), hi = Swift.min(lo + 1, s.count - 1)
        let f = pos - Double(lo)
        return s[lo] + (s[hi] - s[lo]) * f
    }

    /// Runs `method` over a recording and returns the gravity estimate after each sample
    /// (flat, m/s², device frame, pointing up). `times` in s; `acceleration` flat m/s² with
    /// gravity, Android sign; `rotationRate` flat rad/s on the same timestamps (ignored by
    /// `.lowPass`; required, same length, for the others).
    public static func gravityEstimates(times: [Seconds], acceleration: [MetersPerSecondSquared], rotationRate: [RadiansPerSecond],
                                        method: Method) -> [MetersPerSecondSquared] {
        let n = times.count
        precondition(acceleration.count == 3 * n, "acceleration must hold 3 values per time")
        var out = [Double](repeating: 0, count: 3 * n)
        /// One filter of accelerometer and gyroscope over the recording.
        func run<F: GyroscopeGravityFilter>(_ filter: F) {
            precondition(rotationRate.count == 3 * n, "rotationRate must hold 3 values per time")
            var f = filter
            for i in 0..<n {
                let dt = i == 0 ? 0 : times[i] - times[i - 1]
                let b = 3 * i
                f.update(acceleration: Vector3(acceleration[b], acceleration[b + 1], acceleration[b + 2]),
                         rotationRate: Vector3(rotationRate[b], rotationRate[b + 1], rotationRate[b + 2]), dt: dt)
                let g = f.gravity
                out[b] = g.x; out[b + 1] = g.y; out[b + 2] = g.z
            }
        }
        switch method {
        case .orientationFilter(let settings):
            run(OrientationFilter(settings: settings))
        case .offline(let settings):
            out = OfflineOrientation.estimate(times: times, acceleration: acceleration, rotationRate: rotationRate, settings: settings).gravity
        case .attitudeFilter(let settings):
            run(AttitudeFilter(settings: settings))
        case .lowPass(let settings):
            var f = LowPassGravity(settings: settings)
            for i in 0..<n {
                let dt = i == 0 ? 0 : times[i] - times[i - 1]
                let b = 3 * i
                f.update(acceleration: Vector3(acceleration[b], acceleration[b + 1], acceleration[b + 2]), dt: dt)
                let g = f.gravity
                out[b] = g.x; out[b + 1] = g.y; out[b + 2] = g.z
            }
        }
        return out
    }

    /// Angle (degrees) between `estimate` and `reference` gravity for every sample whose time
    /// is at least `skipSeconds` after the first sample. Only directions matter, so the
    /// reference may be in any unit, but it must use the same sign convention (up). Arrays are
    /// flat, three values per time; a length that does not match `times` stops the program (a
    /// caller's mistake, not bad input).
    public static func angleErrors(times: [Seconds], estimate: [Double], reference: [Double],
                                   skipSeconds: Seconds = 2) -> [Degrees] {
        let n = times.count
        precondition(estimate.count == 3 * n && reference.count == 3 * n)
        guard n > 0 else { return [] }
        var out: [Double] = []
        out.reserveCapacity(n)
        let t0 = times[0]
        for i in 0..<n where times[i] - t0 >= skipSeconds {
            let b = 3 * i
            let e = Vector3(estimate[b], estimate[b + 1], estimate[b + 2])
            let r = Vector3(reference[b], reference[b + 1], reference[b + 2])
            out.append(e.angle(to: r) * Math.degreesPerRadian)
        }
        return out
    }

    /// Runs `method` and returns the angle errors (degrees) against `referenceGravity` after
    /// `skipSeconds`. The one call per recording behind `motus evaluate-fusion`.
    public static func errors(times: [Seconds], acceleration: [MetersPerSecondSquared], rotationRate: [RadiansPerSecond],
                              referenceGravity: [Double], method: Method, skipSeconds: Seconds = 2) -> [Degrees] {
        let g = gravityEstimates(times: times, acceleration: acceleration, rotationRate: rotationRate, method: method)
        return angleErrors(times: times, estimate: g, reference: referenceGravity, skipSeconds: skipSeconds)
    }

    /// Pools recordings: a summary per activity and one over all samples.
    public static func aggregate(_ recordings: [RecordingResult]) -> Report {
        Report(recordings: recordings,
               activities: groupedInFirstOrder(recordings, by: \.activity).map { ($0.key, Summary($0.members.flatMap(\.errorsDegrees))) },
               overall: Summary(recordings.flatMap(\.errorsDegrees)))
    }

    // MARK: - Checks on devices without a reference

    /// For each still phase (a range of sample indices): the angle (degrees) between the mean
    /// gravity estimate and the mean accelerometer direction over that phase. While the device
    /// is still, the accelerometer measures gravity alone, so a good filter gives a small
    /// angle. `acceleration` (m/s², gravity included) and `gravity` are flat, three values per
    /// sample; a phase is clipped to the samples there are, and an empty one gives NaN.
    public static func stillPhaseAngles(acceleration: [MetersPerSecondSquared], gravity: [MetersPerSecondSquared], phases: [Range<Int>]) -> [Degrees] {
        precondition(acceleration.count == gravity.count)
        let n = acceleration.count / 3
        var out: [Double] = []
        for p in phases {
            let lo = Swift.max(0, p.lowerBound), hi = Swift.min(n, p.upperBound)
            guard lo < hi else { out.append(.nan); continue }
            var a = Vector3.zero, g = Vector3.zero
            for i in lo..<hi {
                let b = 3 * i
                a += Vector3(acceleration[b], acceleration[b + 1], acceleration[b + 2])
                g += Vector3(gravity[b], gravity[b + 1], gravity[b + 2])
            }
            out.append(a.angle(to: g) * Math.degreesPerRadian)
        }
        return out
    }

    /// Mean of the user acceleration (acceleration − gravity) in the **reference frame** over
    /// samples `range`, in m/s²: over a walk that starts and ends at rest the body's velocity
    /// change is zero, so a good estimate averages to nearly zero. `attitude` is flat
    /// `[w, x, y, z, …]` (device → reference), as an attitude stream stores it.
    public static func meanUserAccelerationInReference(acceleration: [MetersPerSecondSquared], gravity: [MetersPerSecondSquared], attitude: [Double],
                                                       range: Range<Int>) -> Vector3 {
        let n = acceleration.count / 3
        let lo = Swift.max(0, range.lowerBound), hi = Swift.min(n, range.upperBound)
        guard lo < hi else { return Vector3(.nan, .nan, .nan) }
        var s = Vector3.zero
        for i in lo..<hi {
            let b = 3 * i, q = 4 * i
            let u = Vector3(acceleration[b] - gravity[b], acceleration[b + 1] - gravity[b + 1], acceleration[b + 2] - gravity[b + 2])
            let att = Quaternion(w: attitude[q], x: attitude[q + 1], y: attitude[q + 2], z: attitude[q + 3])
            s += att.rotate(u)
        }
        return s / Double(hi - lo)
    }

    /// Mean of the user acceleration along the gravity direction (m/s², positive up) over
    /// `range`: the vertical part, which is what a walk's zero-mean check can test without an
    /// attitude (needs only gravity estimates, so it also works for `LowPassGravity`).
    public static func meanVerticalUserAcceleration(acceleration: [MetersPerSecondSquared], gravity: [MetersPerSecondSquared], range: Range<Int>) -> MetersPerSecondSquared {
        let n = acceleration.count / 3
        let lo = Swift.max(0, range.lowerBound), hi = Swift.min(n, range.upperBound)
        guard lo < hi else { return .nan }
        var s = 0.0
        for i in lo..<hi {
            let b = 3 * i
            let g = Vector3(gravity[b], gravity[b + 1], gravity[b + 2])
            let a = Vector3(acceleration[b], acceleration[b + 1], acceleration[b + 2])
            let u = g.normalized
            s += (a - g).dot(u)
        }
        return s / Double(hi - lo)
    }
}
