import MotusCore
import MotusFusion

// Evaluation of whole recordings: the library side of `motus evaluate-fusion`.
extension FusionEvaluation {
    /// Which subjects to keep (the settings were tuned on the odd-numbered MotionSense subjects,
    /// so `even` is the out-of-sample set).
    public enum SubjectSet: String, Sendable, Hashable, CaseIterable, Codable {
        /// Every subject, unknown ones (0) included.
        case all
        /// Odd-numbered subjects (those the settings were tuned on).
        case odd
        /// Even-numbered subjects (the out-of-sample set); unknown subjects (0) are left out.
        case even

        /// Whether the subject numbered `subject` (`subjectNumber`, 0 when unknown) is in the set.
        public func contains(_ subject: Int) -> Bool {
            switch self {
            case .all: true
            case .odd: subject % 2 == 1
            case .even: subject % 2 == 0 && subject > 0
            }
        }
    }

    /// The subject number in names like "sub_12" or "12"; 0 when there is none.
    public static func subjectNumber(_ s: String?) -> Int {
        guard let s else { return 0 }
        let digits = s.reversed().prefix { $0.isNumber }
        return Int(String(digits.reversed())) ?? 0
    }

    /// Whether the reference says the rotation rate is already bias-corrected (CoreMotion's
    /// device motion): the filters are then told so, and learn no bias on top of it.
    static func biasCorrected(_ reference: GroundTruth.OrientationReference) -> Bool {
        if case .deviceGravity(_, true) = reference { return true }
        return false
    }

    /// `OrientationFilter`'s settings for a recording whose reference is `reference`:
    /// `.biasCorrectedGyroscope` when the reference says the rotation rate is bias-free, else
    /// `.default`.
    public static func defaultSettings(for reference: GroundTruth.OrientationReference) -> OrientationFilter.Settings {
        biasCorrected(reference) ? .biasCorrectedGyroscope : .default
    }

    /// The filter for a recording whose reference is `reference`, unless `method` is given:
    /// `OrientationFilter` with `defaultSettings(for:)`.
    public static func defaultMethod(for reference: GroundTruth.OrientationReference) -> Method {
        .orientationFilter(defaultSettings(for: reference))
    }

    /// `defaultMethod(for:)` in the offline mode (forwards and backwards in time).
    public static func offlineMethod(for reference: GroundTruth.OrientationReference) -> Method {
        .offline(defaultSettings(for: reference))
    }

    /// `AttitudeFilter`, the filter models of version 1 fuse with, set up for
    /// the reference as `defaultMethod(for:)` sets up `OrientationFilter`.
    public static func legacyMethod(for reference: GroundTruth.OrientationReference) -> Method {
        .attitudeFilter(biasCorrected(reference) ? .biasCorrectedGyroscope : .default)
    }

    /// Scores the gravity estimate of `method` (nil: `defaultMethod(for:)`) against the
    /// recording's orientation reference; nil when it has none.
    ///
    /// - Device gravity (CoreMotion's, Android's): the angle between the estimate and the
    ///   reference gravity at every sample at least `skipSeconds` after the first.
    /// - Measured orientation (BROAD's optical motion capture): the inclination error, the angle
    ///   between the estimated up direction and the reference's (the Earth's z axis seen in the
    ///   device frame) at every reference sample inside the scored phases. Heading plays no part.
    ///
    /// The filter runs on the acceleration (gravity included) and, for the attitude filter, the
    /// rotation rate, which must share the acceleration's timestamps; so must the reference
    /// gravity (a measured reference may have fewer samples, but only at those timestamps).
    /// Throws `.missingColumn` when a stream is missing and `.badValue` when timestamps differ.
    public static func evaluate(_ e: EvaluationRecording, method: Method? = nil, skipSeconds: Seconds = 2) throws(InputError) -> RecordingResult? {
        guard let reference = e.truth.orientation else { return nil }
        let recording = e.recording
        let here = SourceLocation(file: e.entry.path)
        let have = recording.streams.map(\.name).joined(separator: ", ")
        guard let acc = recording.stream(.acceleration), !acc.isEmpty else {
            throw InputError(.missingColumn, at: here, found: "streams \(have)", expected: "an acceleration stream 'acc' (gravity included)")
        }
        let m = method ?? defaultMethod(for: reference)
        var rate: [Double] = []
        if m.usesGyroscope {
            guard let gyro = recording.stream(.rotationRate) else {
                throw InputError(.missingColumn, at: here, found: "streams \(have)", expected: "a rotation-rate stream 'gyro'")
            }
            guard gyro.times == acc.times else {
                throw InputError(.badValue, at: here, found: "\(gyro.count) rotation-rate and \(acc.count) acceleration samples", expected: "the same timestamps")
            }
            rate = gyro.values
        }
        let estimate = gravityEstimates(times: acc.times, acceleration: acc.values, rotationRate: rate, method: m)
        let errors: [Double], errorTimes: [Double]
        switch reference {
        case .deviceGravity(let grav, _):
            guard grav.times == acc.times else {
                throw InputError(.badValue, at: here, found: "\(grav.count) gravity and \(acc.count) acceleration samples", expected: "the same timestamps")
            }
            errors = angleErrors(times: acc.times, estimate: estimate, reference: grav.values, skipSeconds: skipSeconds)
            // The samples `angleErrors` scores: those at least `skipSeconds` after the first.
            let t0 = acc.times.first ?? 0
            errorTimes = acc.times.filter { $0 - t0 >= skipSeconds }
        case .measured(let att, let scored):
            (errors, errorTimes) = try inclinationErrorsWithTimes(times: acc.times, estimate: estimate, reference: att, scored: scored, source: here)
        }
        return RecordingResult(name: e.id, activity: e.entry.label ?? "-", subject: subjectNumber(e.subject), errorsDegrees: errors,
                               errorTimes: errorTimes)
    }

    /// Scores `OrientationFilter` with the magnetometer (9D) against a measured orientation by
    /// BROAD's protocol: at each reference sample inside the scored phases, the angle of the
    /// rotation between estimate and reference after removing one constant heading offset (the
    /// circular mean of the per-sample heading differences over the scored samples), since the
    /// reference frame's north is not magnetic north. Nil when the recording has no measured
    /// orientation; throws when it has no magnetometer, gyroscope or acceleration stream on one
    /// set of timestamps.
    public static func evaluateWithMagnetometer(_ e: EvaluationRecording, settings: OrientationFilter.Settings = .default) throws(InputError) -> RecordingResult? {
        guard case .measured(let att, let scored) = e.truth.orientation else { return nil }
        let r = e.recording
        let here = SourceLocation(file: e.entry.path)
        let have = r.streams.map(\.name).joined(separator: ", ")
        guard let acc = r.stream(.acceleration), let gyro = r.stream(.rotationRate), let mag = r.stream(.magneticField), !acc.isEmpty else {
            throw InputError(.missingColumn, at: here, found: "streams \(have)", expected: "acceleration 'acc', rotation rate 'gyro' and magnetic field 'mag' streams")
        }
        guard gyro.times == acc.times, mag.times == acc.times else {
            throw InputError(.badValue, at: here, found: "\(acc.count) acceleration, \(gyro.count) rotation-rate and \(mag.count) magnetic-field samples", expected: "the same timestamps")
        }
        var f = OrientationFilter(settings: settings)
        var estimate = [Double](repeating: 0, count: 4 * acc.count)
        for i in 0..<acc.count {
            f.update(acceleration: acc.vector(i), rotationRate: gyro.vector(i), magneticField: mag.vector(i), dt: i == 0 ? 0 : acc.times[i] - acc.times[i - 1])
            let q = f.attitude
            estimate[4 * i] = q.w; estimate[4 * i + 1] = q.x; estimate[4 * i + 2] = q.y; estimate[4 * i + 3] = q.z
        }
        let errors = try orientationErrors(times: acc.times, estimate: estimate, reference: att, scored: scored, source: here)
        return RecordingResult(name: e.id, activity: e.entry.label ?? "-", subject: subjectNumber(e.subject), errorsDegrees: errors)
    }

    /// Orientation errors (degrees) with one constant heading offset removed (see
    /// `evaluateWithMagnetometer`); `estimate` holds one quaternion (w, x, y, z) per timestamp
    /// of `times` (s), `reference` the measured quaternions (device → Earth frame), and only
    /// reference samples inside `scored` count. `source` names the recording in errors.
    ///
    /// - Throws: `.badValue` when a reference timestamp is not one of `times`.
    public static func orientationErrors(times: [Seconds], estimate: [Double], reference: SensorStream, scored: [LabelSegment],
                                         source: SourceLocation) throws(InputError) -> [Degrees] {
        // Reference-frame error rotations d = q_ref ⊗ q_est⁻¹ at the scored samples.
        var errors: [Quaternion] = []
        try forEachScoredReference(times: times, reference: reference, scored: scored, source: source) { j, i, _ in
            let b = 4 * i
            let q = Quaternion(w: estimate[b], x: estimate[b + 1], y: estimate[b + 2], z: estimate[b + 3])
            errors.append(reference.quaternion(j) * q.conjugate)
        }
        // The heading part of each error, 2·atan2(z, w), and their circular mean.
        var sinSum = 0.0, cosSum = 0.0
        for d in errors {
            let psi = 2 * Math.atan2(d.z, d.w)
            sinSum += Math.sin(psi); cosSum += Math.cos(psi)
        }
        let offset = Math.atan2(sinSum, cosSum)
        let undo = Quaternion(w: Math.cos(-offset / 2), x: 0, y: 0, z: Math.sin(-offset / 2))
        return errors.map { d in
            let c = undo * d
            return 2 * Math.acos(Swift.min(1, Swift.abs(c.w) / (c.w * c.w + c.x * c.x + c.y * c.y + c.z * c.z).squareRoot())) * Math.degreesPerRadian
        }
    }

    /// Inclination errors (degrees) against a measured orientation: at each reference sample
    /// inside `scored`, the angle between the estimated gravity (up, device frame) at the same
    /// timestamp and the reference's up direction, `q⁻¹ · ẑ · q` for the reference quaternion q
    /// (device → Earth frame, z up). `estimate` is flat, three values per timestamp of `times`
    /// (s); `source` names the recording in errors.
    ///
    /// - Throws: `.badValue` when a reference timestamp is not one of `times`.
    public static func inclinationErrors(times: [Seconds], estimate: [Double], reference: SensorStream, scored: [LabelSegment],
                                         source: SourceLocation) throws(InputError) -> [Degrees] {
        try inclinationErrorsWithTimes(times: times, estimate: estimate, reference: reference, scored: scored, source: source).errors
    }

    /// `inclinationErrors`, with the reference time of each error.
    static func inclinationErrorsWithTimes(times: [Double], estimate: [Double], reference: SensorStream, scored: [LabelSegment],
                                           source: SourceLocation) throws(InputError) -> (errors: [Double], times: [Double]) {
        var out: [Double] = [], outTimes: [Double] = []
        out.reserveCapacity(reference.count)
        try forEachScoredReference(times: times, reference: reference, scored: scored, source: source) { j, i, t in
            let up = reference.quaternion(j).inverseRotate(Vector3(0, 0, 1))
            let b = 3 * i
            out.append(Vector3(estimate[b], estimate[b + 1], estimate[b + 2]).angle(to: up) * Math.degreesPerRadian)
            outTimes.append(t)
        }
        return (out, outTimes)
    }

    /// Calls `body(j, i, t)` for each reference sample j inside `scored`, with i the index of
    /// the same timestamp t in `times` (both sorted). Throws when a reference time is not one of
    /// `times`.
    static func forEachScoredReference(times: [Double], reference: SensorStream, scored: [LabelSegment], source: SourceLocation,
                                       _ body: (Int, Int, Double) -> Void) throws(InputError) {
        var i = 0, segment = 0
        let segments = scored.sorted { $0.start < $1.start }
        for j in 0..<reference.count {
            let t = reference.times[j]
            while i < times.count && times[i] < t { i += 1 }
            guard i < times.count, times[i] == t else {
                throw InputError(.badValue, at: source, found: "a reference orientation at \(t) s with no estimate at that time",
                                 expected: "reference timestamps that are acceleration timestamps")
            }
            while segment < segments.count && segments[segment].end <= t { segment += 1 }
            guard segment < segments.count, segments[segment].contains(t) else { continue }
            body(j, i, t)
        }
    }

    // MARK: - Other devices: still phases and zero-mean user acceleration

    /// Pass thresholds of `checkStillAndWalk`. Each default is the worst case seen on the
    /// IPOL lower-back trials and Oxford walks plus a margin (the measured values are in
    /// benchmarks/fusion/README.md), so they guard against regressions rather than state the
    /// physical target (about 1° at rest); the still phases after a walk get a looser one.
    public struct CheckThresholds: Sendable, Hashable, Codable {
        /// Largest angle (degrees) between the mean gravity estimate and the mean
        /// accelerometer direction over the first still phase (before any walking). Default
        /// 2.5°. At rest the accelerometer reads gravity alone, so only settling and the
        /// wearer's sway show.
        public var stillAngleDegrees: Degrees
        /// The same for still phases after a walk. Default 10°, looser than before the walk:
        /// during the walk the filter trusts the gyroscope (200 s time constant) and the
        /// bias a raw gyroscope has not had time to learn tilts the estimate, and the 20 s
        /// still time constant does not remove that within the 2–10 s of standing that follow.
        public var stillAfterWalkAngleDegrees: Degrees
        /// Largest |mean vertical user acceleration| (m/s²) over the walk, after removing the
        /// same mean over the still phases (the accelerometer's own scale and offset error,
        /// which no filter can know). Default 0.3 m/s².
        /// A walk from rest to rest has no net change of velocity, so the true mean is the
        /// difference of two small vertical velocities divided by the walk's length: near zero
        /// for walks of several seconds.
        public var walkVerticalMean: MetersPerSecondSquared
        /// The same without still phases to calibrate against (Oxford walks start and end
        /// walking): the phone's accelerometer scale error adds in. Default 0.75 m/s² (about
        /// a 7 % scale error).
        public var uncalibratedWalkVerticalMean: MetersPerSecondSquared
        /// Largest horizontal mean user acceleration (m/s², reference frame, needs a
        /// gyroscope). A mean tilt error θ during the walk shows here as about g·sin θ.
        /// Default 2 m/s² (a mean tilt of about 12°).
        public var walkHorizontalMean: MetersPerSecondSquared
        /// Thresholds; each argument defaults to the value its property describes (degrees for
        /// the angles, m/s² for the means).
        public init(stillAngleDegrees: Degrees = 2.5, stillAfterWalkAngleDegrees: Degrees = 10, walkVerticalMean: MetersPerSecondSquared = 0.3,
                    uncalibratedWalkVerticalMean: MetersPerSecondSquared = 0.75, walkHorizontalMean: MetersPerSecondSquared = 2) {
            self.stillAngleDegrees = stillAngleDegrees; self.stillAfterWalkAngleDegrees = stillAfterWalkAngleDegrees
            self.walkVerticalMean = walkVerticalMean; self.uncalibratedWalkVerticalMean = uncalibratedWalkVerticalMean
            self.walkHorizontalMean = walkHorizontalMean
        }
    }

    /// One still phase: times (s) and the angle (degrees) between the mean gravity estimate
    /// and the mean accelerometer direction over it.
    public struct StillPhase: Sendable, Hashable, Codable {
        /// Time of the phase's first sample (s after the recording's first acceleration sample).
        public var start: Seconds
        /// Time of the phase's last sample (s after the recording's first acceleration sample).
        public var end: Seconds
        /// Angle (degrees) between the mean gravity estimate and the mean accelerometer
        /// direction over the phase.
        public var angleDegrees: Degrees
    }

    /// Result of `checkStillAndWalk` for one recording.
    public struct DeviceCheck: Sendable, Hashable {
        /// The recording's name, as given to `checkStillAndWalk`.
        public var name: String
        /// Which estimator `FusionPipeline.complete` chose (accelerometer and gyroscope, or
        /// accelerometer only).
        public var method: FusionPipeline.Method
        /// Where the still phases came from: "labels" (IPOL's `still` segments) or "detector".
        public var stillSource: String
        /// The still phases used (trimmed), in time order.
        public var stillPhases: [StillPhase]
        /// Start of the walk (s after the recording's first acceleration sample): the start of
        /// the first `walk`/`turn` label, or, without labels, the first ground-truth step − 0.5 s,
        /// or the end of the first still phase. NaN when none of these exists.
        public var walkStart: Seconds
        /// End of the walk (s after the recording's first acceleration sample): the end of the
        /// last `walk`/`turn` label, the last ground-truth step + 0.5 s, or the start of the last
        /// still phase. NaN when none of these exists.
        public var walkEnd: Seconds
        /// Mean vertical user acceleration over the walk minus its mean over the still phases
        /// (m/s², up positive).
        public var walkVerticalMean: MetersPerSecondSquared
        /// Mean vertical user acceleration over the still phases (m/s²): the sensor's own
        /// scale and offset error along gravity.
        public var stillVerticalMean: MetersPerSecondSquared
        /// Norm of the horizontal mean user acceleration over the walk (m/s², reference frame,
        /// minus the still phases' mean), NaN without a gyroscope.
        public var walkHorizontalMean: MetersPerSecondSquared
        /// Median angle (degrees) between our gravity and the device's own attitude (XSens
        /// orientation in IPOL's Semiogram files), NaN when the recording has no `att` stream.
        public var deviceAttitudeMedianDegrees: Degrees
        /// The largest still-phase angle (degrees); NaN when there is no still phase.
        public var worstStillAngleDegrees: Degrees { stillPhases.map(\.angleDegrees).max() ?? .nan }

        /// Checks against `t`; the reasons for failing, empty when it passes. A recording
        /// whose labels name still phases must have at least one usable; without labels
        /// (Oxford) none may be found, and only the walk is checked.
        public func failures(_ t: CheckThresholds) -> [String] {
            var out: [String] = []
            if stillPhases.isEmpty && stillSource == "labels" { out.append("no usable still phase") }
            for p in stillPhases {
                let limit = walkStart.isFinite && p.start >= walkEnd ? t.stillAfterWalkAngleDegrees : t.stillAngleDegrees
                if !(p.angleDegrees <= limit) { out.append("still \(p.start)–\(p.end) s: \(p.angleDegrees)° > \(limit)°") }
            }
            let vLimit = stillPhases.isEmpty ? t.uncalibratedWalkVerticalMean : t.walkVerticalMean
            if !(abs(walkVerticalMean) <= vLimit) { out.append("walk vertical mean \(walkVerticalMean) m/s² > \(vLimit)") }
            if walkHorizontalMean.isFinite && !(walkHorizontalMean <= t.walkHorizontalMean) {
                out.append("walk horizontal mean \(walkHorizontalMean) m/s² > \(t.walkHorizontalMean)")
            }
            return out
        }
    }

    /// Settings of the stillness detector used when a recording has no `still` labels.
    public struct StillnessDetector: Sendable, Hashable, Codable {
        /// Window (s), centred on each sample.
        public var window: Seconds
        /// Largest RMS deviation (m/s²) of the accelerometer from its window mean.
        public var threshold: MetersPerSecondSquared
        /// Shortest still phase kept (s).
        public var minimumDuration: Seconds
        /// A detector with a `window` (s), a `threshold` (m/s²) and a `minimumDuration` (s).
        public init(window: Seconds = 1, threshold: MetersPerSecondSquared = 0.3, minimumDuration: Seconds = 1) {
            self.window = window; self.threshold = threshold; self.minimumDuration = minimumDuration
        }

        /// Still phases as sample-index ranges of `acc`: maximal runs of samples whose centred
        /// window has an RMS deviation below `threshold`, at least `minimumDuration` long.
        /// O(n) with running sums.
        public func phases(_ acc: SensorStream) -> [Range<Int>] {
            let n = acc.count, t = acc.times, v = acc.values
            guard n > 1 else { return [] }
            // Prefix sums of x, y, z and |a|² (values are centred on the first sample so the
            // sums do not lose precision).
            let c0 = acc.vector(0)
            var s = [Double](repeating: 0, count: 4 * (n + 1))
            for i in 0..<n {
                let x = v[3 * i] - c0.x, y = v[3 * i + 1] - c0.y, z = v[3 * i + 2] - c0.z
                s[4 * (i + 1)] = s[4 * i] + x; s[4 * (i + 1) + 1] = s[4 * i + 1] + y
                s[4 * (i + 1) + 2] = s[4 * i + 2] + z; s[4 * (i + 1) + 3] = s[4 * i + 3] + x * x + y * y + z * z
            }
            var still = [Bool](repeating: false, count: n)
            var lo = 0, hi = 0
            let h = window / 2
            for i in 0..<n {
                while lo < i && t[lo] < t[i] - h { lo += 1 }
                while hi < n && t[hi] <= t[i] + h { hi += 1 }
                let m = Double(hi - lo)
                guard m >= 2 else { continue }
                let mx = (s[4 * hi] - s[4 * lo]) / m, my = (s[4 * hi + 1] - s[4 * lo + 1]) / m, mz = (s[4 * hi + 2] - s[4 * lo + 2]) / m
                let var2 = (s[4 * hi + 3] - s[4 * lo + 3]) / m - (mx * mx + my * my + mz * mz)
                still[i] = var2 < threshold * threshold
            }
            var out: [Range<Int>] = []
            var i = 0
            while i < n {
                guard still[i] else { i += 1; continue }
                var j = i
                while j < n && still[j] { j += 1 }
                if t[j - 1] - t[i] >= minimumDuration { out.append(i..<j) }
                i = j
            }
            return out
        }
    }

    /// The plausibility check on devices without a reference gravity (IPOL lower back, Oxford
    /// phones): runs `FusionPipeline.complete` on the recording (without any gravity, user
    /// acceleration or attitude it already had), then
    /// - in each still phase, the angle between the mean gravity estimate and the mean
    ///   accelerometer direction (the accelerometer measures gravity alone at rest);
    /// - over the walk, the mean user acceleration, which must be near zero because a walk
    ///   from rest to rest has no net change of velocity.
    ///
    /// Still phases: `still` label segments when the recording has them (IPOL), shortened by
    /// `trim` seconds at both ends (the labels are set at toe-off, and the body starts
    /// leaning before it); else `detector`'s phases (Oxford), also trimmed. The first
    /// `skipSeconds` of the recording are never used (start-up).
    ///
    /// - Throws: `.missingColumn` when the recording has no acceleration stream with at least
    ///   two samples.
    public static func checkStillAndWalk(_ recording: Recording, name: String,
                                         settings: OrientationFilter.Settings = .default,
                                         lowPassSettings: LowPassGravity.Settings = .default,
                                         detector: StillnessDetector = .init(), trim: Seconds = 0.5,
                                         skipSeconds: Seconds = 1) throws(InputError) -> DeviceCheck {
        let deviceAttitude = recording.stream(.attitude)
        var r = recording
        r.streams.removeAll { $0.kind == .gravity || $0.kind == .userAcceleration || $0.kind == .attitude }
        guard let acc = r.stream(.acceleration), acc.count > 1 else {
            throw InputError(.missingColumn, at: SourceLocation(file: recording.metadata.source ?? name),
                             found: "streams \(recording.streams.map(\.name).joined(separator: ", "))", expected: "an acceleration stream 'acc'")
        }
        let method = FusionPipeline.complete(&r, settings: settings, lowPassSettings: lowPassSettings)
        let grav = r.stream(.gravity)!.values, att = r.stream(.attitude)
        let t = acc.times, t0 = t[0], n = acc.count
        func index(_ time: Double) -> Int { t.sortedFirstIndex(atOrAfter: time) }  // first sample at or after `time`

        // Still phases.
        var still: [Range<Int>] = []
        var source = "labels"
        let stillLabels = recording.labels.filter { $0.label == "still" }
        if !stillLabels.isEmpty {
            for s in stillLabels {
                let a = index(max(s.start + trim, t0 + skipSeconds)), b = index(s.end - trim)
                if a < b { still.append(a..<b) }
            }
        } else {
            source = "detector"
            for p in detector.phases(acc) {
                let a = index(max(t[p.lowerBound] + trim, t0 + skipSeconds)), b = index(t[p.upperBound - 1] - trim)
                if a < b && t[b - 1] - t[a] >= 0.5 { still.append(a..<b) }
            }
        }
        let angles = stillPhaseAngles(acceleration: acc.values, gravity: grav, phases: still)
        let phases = zip(still, angles).map { StillPhase(start: t[$0.0.lowerBound] - t0, end: t[$0.0.upperBound - 1] - t0, angleDegrees: $0.1) }

        // The walk.
        var ws = Double.nan, we = Double.nan
        let moving = recording.labels.filter { $0.label == "walk" || $0.label == "turn" }
        let steps = recording.events.filter { $0.kind == "step" }
        if let f = moving.first, let l = moving.last {
            ws = f.start; we = l.end
        } else if let f = steps.first, let l = steps.last, l.time > f.time {
            ws = f.time - 0.5; we = l.time + 0.5
        } else if let f = still.first, let l = still.last, f != l {
            ws = t[f.upperBound - 1]; we = t[l.lowerBound]
        }
        let walk = ws.isFinite ? index(ws)..<index(we) : 0..<0
        var stillVertical = 0.0, stillCount = 0
        var stillHorizontal = Vector3.zero
        for p in still {
            stillVertical += meanVerticalUserAcceleration(acceleration: acc.values, gravity: grav, range: p) * Double(p.count)
            if let att { stillHorizontal += meanUserAccelerationInReference(acceleration: acc.values, gravity: grav, attitude: att.values, range: p) * Double(p.count) }
            stillCount += p.count
        }
        if stillCount > 0 { stillVertical /= Double(stillCount); stillHorizontal = stillHorizontal / Double(stillCount) }
        let vertical = meanVerticalUserAcceleration(acceleration: acc.values, gravity: grav, range: walk)
        var horizontal = Double.nan
        if let att, !walk.isEmpty {
            let m = meanUserAccelerationInReference(acceleration: acc.values, gravity: grav, attitude: att.values, range: walk) - stillHorizontal
            horizontal = (m.x * m.x + m.y * m.y).squareRoot()
        }

        // Against the device's own orientation, when it has one.
        var deviceMedian = Double.nan
        if let q = deviceAttitude, q.count > 0 {
            var e: [Double] = []
            var j = 0
            for i in 0..<n where t[i] - t0 >= skipSeconds {
                j = FusionPipeline.nearestIndex(q.times, t[i], from: j)
                guard Swift.abs(q.times[j] - t[i]) < 0.005 else { continue }
                let g = Vector3(grav[3 * i], grav[3 * i + 1], grav[3 * i + 2])
                e.append(g.angle(to: q.quaternion(j).inverseRotate(Vector3(0, 0, 1))) * Math.degreesPerRadian)
            }
            deviceMedian = Summary(e).medianDegrees
        }
        return DeviceCheck(name: name, method: method, stillSource: source, stillPhases: phases,
                           walkStart: ws - t0, walkEnd: we - t0, walkVerticalMean: vertical - stillVertical,
                           stillVerticalMean: stillVertical, walkHorizontalMean: horizontal,
                           deviceAttitudeMedianDegrees: deviceMedian)
    }
}
