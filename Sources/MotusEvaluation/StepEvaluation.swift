import MotusCore
import MotusIO
import MotusTracking

/// Evaluating the steps a live session counts against labelled walks, for every dataset with
/// reference steps (Oxford walks, IPOL trials, WeAllWalk, any recording with `step` events).
///
/// Which steps are compared:
/// - A recording with walk/turn labels (IPOL, WeAllWalk) is judged over its annotated walk: from the
///   start of the first non-`still` label to the end of the last one, widened by
///   `windowMargin` on each side because a detection comes a little after its heel strike.
///   True steps = `step` events inside the trial; counted = detected steps inside the widened
///   window. The pedometer still runs over the whole file, so it starts from stillness. Steps
///   after the protocol walk (IPOL `steps_after_trial`) are reported apart, not judged: they
///   are shuffles while standing, which a pedometer is designed to ignore.
/// - Otherwise (Oxford) every `step` event against every detected step.
/// Distance (when the truth has a course length and the height is known): Σ step
/// lengths of the counted steps with Weinberg's model, its `k` from the height alone (no
/// calibration), against the course; the plain height rule is reported beside it.
public enum StepEvaluation {
    public struct Row: Sendable, Hashable, Codable {
        public var id: String
        public var device: String?
        public var placement: String?
        public var trueSteps: Int
        public var countedSteps: Int
        /// (counted − true) / true × 100.
        public var errorPercent: Double
        /// Steps outside the judged window: true and detected (IPOL), nil otherwise.
        public var trueStepsOutside: Int?
        public var countedStepsOutside: Int?
        public var courseMeters: Double?
        public var heightMeters: Double?
        public var distanceMeters: Double?
        public var distanceErrorPercent: Double?
        /// Distance with the plain height rule (0.415 × height × cadence factor), for comparison.
        public var heightRuleDistanceMeters: Double?
        /// Where the steps came from: "accelerometer" or "platform step counter".
        public var source: String
    }

    public struct Summary: Sendable, Hashable, Codable {
        public var recordings: Int
        public var trueSteps: Int
        public var countedSteps: Int
        /// Mean |error %| over recordings.
        public var mape: Double
        public var medianAbsErrorPercent: Double
        public var worstAbsErrorPercent: Double
        public var worstID: String?
        /// Median |distance error %| over recordings with a course and a height (nil if none).
        public var distanceMedianAbsErrorPercent: Double?
        public var distanceRecordings: Int
    }

    /// Margin (s) added to each side of an annotated trial window.
    public static let windowMargin = 0.3

    /// Evaluates one recording. `nil` when it has no acceleration (raw, or user acceleration
    /// with gravity) or no reference steps. The steps are those a live session counts: the
    /// recording is pushed through `MotionSession` (no classifier: step counting does not
    /// depend on it), without its platform step-counter stream unless `usePlatformCounter`.
    public static func evaluate(_ e: EvaluationRecording, settings: Pedometer.Settings = .default,
                                usePlatformCounter: Bool = false) -> Row? {
        let r = e.recording, id = e.id
        let truth = e.truth.stepTimes
        guard !truth.isEmpty else { return nil }
        func has(_ k: StreamKind) -> Bool { r.stream(k).map { !$0.isEmpty } ?? false }
        guard has(.acceleration) || (has(.userAcceleration) && has(.gravity)) || (usePlatformCounter && has(.stepCounter)) else { return nil }
        let platform = usePlatformCounter && has(.stepCounter)
        var inputs = r
        if !platform { inputs.streams.removeAll { $0.kind == .stepCounter } }
        var sessionSettings = SessionSettings()
        sessionSettings.tuning.pedometer = settings
        // Without a model the session cannot fail to start.
        guard let result = try? MotionSession.run(inputs, settings: sessionSettings, model: nil, keepStepEvents: true) else { return nil }
        let detected: [StepEvent] = result.events.compactMap { if case .step(let s) = $0 { s } else { nil } }
        let source = platform ? "platform step counter" : "accelerometer"
        let active = e.truth.labels.filter { $0.label != "still" }
        var row = Row(id: id, device: r.metadata.device, placement: r.metadata.placement, trueSteps: truth.count,
                      countedSteps: detected.count, errorPercent: 0, source: source)
        var judged = detected
        if let lo = active.map(\.start).min(), let hi = active.map(\.end).max() {
            let inTrue = truth.filter { $0 >= lo && $0 <= hi }.count
            judged = detected.filter { $0.time >= lo - windowMargin && $0.time <= hi + windowMargin }
            row.trueStepsOutside = truth.count - inTrue
            row.countedStepsOutside = detected.count - judged.count
            row.trueSteps = inTrue
            row.countedSteps = judged.count
        }
        row.errorPercent = row.trueSteps > 0 ? 100 * Double(row.countedSteps - row.trueSteps) / Double(row.trueSteps) : 0
        row.heightMeters = r.metadata.heightMeters
        if let c = e.truth.distanceMeters {
            row.courseMeters = c
            if let h = r.metadata.heightMeters, h > 0 {
                let d = StrideEstimator.distance(judged, model: .weinberg(k: StrideModel.weinbergK(heightMeters: h)))
                row.distanceMeters = d
                row.distanceErrorPercent = 100 * (d - c) / c
                row.heightRuleDistanceMeters = StrideEstimator.distance(judged, model: .height(heightMeters: h))
            }
        }
        return row
    }

    public static func summarize(_ rows: [Row]) -> Summary {
        let abs = rows.map { Swift.abs($0.errorPercent) }
        let worst = rows.max { Swift.abs($0.errorPercent) < Swift.abs($1.errorPercent) }
        let dist = rows.compactMap(\.distanceErrorPercent).map { Swift.abs($0) }
        return Summary(recordings: rows.count, trueSteps: rows.reduce(0) { $0 + $1.trueSteps },
                       countedSteps: rows.reduce(0) { $0 + $1.countedSteps },
                       mape: abs.isEmpty ? 0 : abs.reduce(0, +) / Double(abs.count),
                       medianAbsErrorPercent: median(abs), worstAbsErrorPercent: abs.max() ?? 0, worstID: worst?.id,
                       distanceMedianAbsErrorPercent: dist.isEmpty ? nil : median(dist), distanceRecordings: dist.count)
    }

    static func median(_ xs: [Double]) -> Double {
        guard !xs.isEmpty else { return 0 }
        let s = xs.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : 0.5 * (s[s.count / 2 - 1] + s[s.count / 2])
    }
}
