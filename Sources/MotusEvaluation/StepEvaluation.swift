import MotusCore
import MotusIO
import MotusSignal
import MotusTracking

/// Evaluating the steps a live session counts against labelled walks, for every dataset with
/// reference steps (Oxford walks, IPOL trials, WeAllWalk, any recording with `step` events).
///
/// Which steps are compared:
/// - A recording with walk/turn labels (IPOL, WeAllWalk, Mobilise-D walking bouts) is judged
///   over its annotated walks: the non-`still` labels, each widened by `windowMargin` on each
///   side because a detection comes a little after its heel strike (`judgedSpans`; a trial's
///   touching walk and turn labels make one window). True steps = `step` events inside the
///   labels; counted = detected steps inside the widened windows. The pedometer still runs
///   over the whole file, so it starts from stillness. Steps after the protocol walk (IPOL
///   `steps_after_trial`) are reported apart, not judged: they are shuffles while standing,
///   which a pedometer is designed to ignore.
/// - Otherwise (Oxford) every `step` event against every detected step.
/// Before either, reference steps outside the span of the device's data (first to last
/// sample: a phone that stopped recording before the annotated walk ended, as some WeAllWalk
/// files do) are not judged, since no algorithm could count them; their number is reported
/// (`trueStepsOutsideRecording`, in the table and the JSON), never dropped silently.
/// Distance (when the truth has a course length and the height is known): Σ step
/// lengths of the counted steps with Weinberg's model, its `k` from the height alone (no
/// calibration), against the course; the plain height rule is reported beside it.
public enum StepEvaluation {
    /// One recording's result: steps counted against the reference, and the distance walked
    /// against the course when both are known. Encoded as it is in `evaluate-steps --json`.
    public struct Row: Sendable, Hashable, Codable {
        /// The entry's id (`Pixel_Jamie_Hard_FrontPocket_2`, `3-1`, a file's relative path).
        public var id: String
        /// The recording device as its metadata names it (Oxford's phone, `iPhone 6s`), when known.
        public var device: String?
        /// Where the device was worn (`front-pocket`, `lower-back`, Oxford's position), when known.
        public var placement: String?
        /// The group the data set puts the recording in (its entry's label: Oxford's carry
        /// position, WeAllWalk's mobility aid `long-cane`, `guide-dog` or `none`); nil when the
        /// data set has none. `summarizeGroups` gives the figures per group.
        public var group: String?
        /// Reference steps judged: those inside the annotated walk when the recording has
        /// walk/turn labels, else all those inside the span of the device's data.
        public var trueSteps: Int
        /// Steps the session counted that are judged: those inside the annotated walk widened
        /// by `windowMargin` on each side, else all of them.
        public var countedSteps: Int
        /// (counted − true) / true × 100 (%); 0 when there are no true steps.
        public var errorPercent: Percent
        /// Reference steps outside the annotated walk (inside the device's data), not judged;
        /// nil for a recording without walk/turn labels.
        public var trueStepsOutside: Int?
        /// Counted steps outside the widened annotated walk, not judged; nil for a recording
        /// without walk/turn labels.
        public var countedStepsOutside: Int?
        /// Reference steps outside the span of the device's data (not judged).
        public var trueStepsOutsideRecording: Int = 0
        /// Length of the walked course (m), from the ground truth (IPOL: 20 m; a native file's
        /// `@meta,x.course_m,…`); nil when the protocol fixes none.
        public var courseMeters: Meters?
        /// The subject's height (m) from the recording's metadata, nil when unknown.
        public var heightMeters: Meters?
        /// Distance walked (m): the sum of the judged steps' lengths by Weinberg's model with
        /// its `k` from the height; nil without a course or a height.
        public var distanceMeters: Meters?
        /// (distance − course) / course × 100 (%); nil when `distanceMeters` is nil.
        public var distanceErrorPercent: Percent?
        /// Distance with the plain height rule (0.415 × height × cadence factor), for comparison.
        public var heightRuleDistanceMeters: Meters?
        /// Where the steps came from: "accelerometer" or "platform step counter".
        public var source: String
        /// The windows the counted steps were judged in, [start, end] (s, the recording's
        /// clock; `judgedSpans`); nil when every step is judged (no walk/turn labels). A peer's
        /// steps counted inside them are judged as these were (benchmarks/steps).
        public var judgedSpans: [[Seconds]]? = nil
        /// The judged counted steps compared one by one with the judged reference steps
        /// (`StepMatch`): matched, missed and extra steps, and where in the walk they lie.
        public var match: StepMatch? = nil
    }

    /// The figures over a set of rows (`summarize`); the error figures are 0 when there are no rows.
    public struct Summary: Sendable, Hashable, Codable {
        /// Recordings scored.
        public var recordings: Int
        /// Reference steps judged, summed over the recordings.
        public var trueSteps: Int
        /// Counted steps judged, summed over the recordings.
        public var countedSteps: Int
        /// Mean |error %| over recordings (mean absolute percentage error, %).
        public var mape: Percent
        /// Median |error %| over recordings (%).
        public var medianAbsErrorPercent: Percent
        /// Largest |error %| of a recording (%).
        public var worstAbsErrorPercent: Percent
        /// The id of the recording with the largest |error %|; nil when there are no rows.
        public var worstID: String?
        /// Median |distance error %| over recordings with a course and a height (nil if none).
        public var distanceMedianAbsErrorPercent: Percent?
        /// Recordings with a distance error (a course and a height).
        public var distanceRecordings: Int
        /// Reference steps outside the span of their recording's device data, over all recordings.
        public var trueStepsOutsideRecording: Int = 0
        /// The recordings' step-by-step comparisons (`Row.match`) summed: precision, recall and
        /// F1 over every judged step, and where the misses and extra steps lie.
        public var match = StepMatch()
    }

    /// The figures of one group of recordings (`Row.group`).
    public struct GroupSummary: Sendable, Hashable, Codable {
        /// The group's name, as the rows give it.
        public var group: String
        /// `summarize` over the group's rows.
        public var summary: Summary
    }

    /// `summarize` per group of `rows` (those with a group), the groups in the order they first
    /// come in (as `evaluate` lists its groups); empty when no row has a group.
    public static func summarizeGroups(_ rows: [Row]) -> [GroupSummary] {
        groupedInFirstOrder(rows, by: \.group).map { GroupSummary(group: $0.key, summary: summarize($0.members)) }
    }

    /// The windows detected steps are judged in: each annotated walk (a label other than
    /// `still`) widened by `windowMargin` on each side, overlapping ones merged, in time order.
    /// A trial's walk and turn labels touch, so it is one window; separate walks (the
    /// Mobilise-D reference's walking bouts between sitting and standing) stay separate, and
    /// the movement between them, which their reference does not annotate, is not judged.
    public static func judgedSpans(_ active: [LabelSegment]) -> [(start: Seconds, end: Seconds)] {
        var out: [(start: Seconds, end: Seconds)] = []
        for l in active.sorted(by: { $0.start < $1.start }) {
            let a = l.start - windowMargin, b = l.end + windowMargin
            if let last = out.last, a <= last.end { out[out.count - 1].end = Swift.max(last.end, b) } else { out.append((a, b)) }
        }
        return out
    }

    /// The `steps` that lie inside one of `spans` (`judgedSpans`), in their order.
    public static func steps(_ steps: [StepEvent], inside spans: [(start: Seconds, end: Seconds)]) -> [StepEvent] {
        steps.filter { s in spans.contains { s.time >= $0.start && s.time <= $0.end } }
    }

    /// Margin (s) added to each side of an annotated trial window.
    public static let windowMargin: Seconds = 0.3

    /// Evaluates one recording; nil when `score` would skip it.
    public static func evaluate(_ e: EvaluationRecording, settings: Pedometer.Settings = .default,
                                usePlatformCounter: Bool = false, mode: StepMode = .live) -> Row? {
        if case .scored(let row) = score(e, settings: settings, usePlatformCounter: usePlatformCounter, mode: mode) { return row }
        return nil
    }

    /// Evaluates one recording, or says why it cannot be: no reference steps, no acceleration
    /// (raw or user acceleration), a session that could not run. The steps are those a live
    /// session counts: the recording is pushed through `MotionSession` (no classifier: step
    /// counting does not depend on it), without its platform step-counter stream unless
    /// `usePlatformCounter`. With `mode` `.offline` they are `OfflineStepDetector.steps(of:session:)`
    /// (the whole file is known), as `evaluate-steps` and `track` count files by default; the
    /// platform counter has no offline mode.
    public static func score(_ e: EvaluationRecording, settings: Pedometer.Settings = .default,
                             usePlatformCounter: Bool = false, mode: StepMode = .live) -> Evaluation.Outcome<Row> {
        let r = e.recording
        let allTruth = e.truth.stepTimes
        guard !allTruth.isEmpty else {
            // A reader that looked for annotations and found none says so (IPOL: "none (no 1-2.json)").
            let note = r.metadata.extra["annotations"].map { " (annotations: \($0))" } ?? ""
            return .skipped("no step events in its ground truth" + note)
        }
        return countedSteps(r, settings: settings, usePlatformCounter: usePlatformCounter, mode: mode).flatMap {
            judge(e, $0, truth: allTruth, mode: mode)
        }
    }

    /// Judges another detector's step times `steps` (s, the recording's clock) on `e` as `score`
    /// judges Motus's: the same reference steps and windows, and the step-by-step comparison.
    /// No distance: the steps carry no swing for the stride model. `source` names the steps
    /// (`evaluate-steps --steps-from FILE`: the file).
    public static func score(_ e: EvaluationRecording, steps: [Seconds], source: String) -> Evaluation.Outcome<Row> {
        guard !e.truth.stepTimes.isEmpty else { return .skipped("no step events in its ground truth") }
        var inputs = e.recording
        inputs.streams.removeAll { $0.kind == .stepCounter }
        let counted = CountedSteps(steps: steps.sorted().map { StepEvent(time: $0, peakToPeak: 0) }, inputs: inputs, platform: false)
        return judge(e, counted, truth: e.truth.stepTimes, mode: .offline, source: source)
    }

    /// `score`'s judgement of the steps `countedSteps` gave on `e` against its reference steps
    /// `allTruth` (not empty); `source` names steps that are not Motus's (then no distance).
    static func judge(_ e: EvaluationRecording, _ c: CountedSteps, truth allTruth: [Seconds], mode: StepMode,
                      source external: String? = nil) -> Evaluation.Outcome<Row> {
        let r = e.recording, id = e.id
        let (detected, inputs, platform) = (c.steps, c.inputs, c.platform)
        // Reference steps the device's data cannot hold are not judged, and are counted.
        var truth = allTruth
        var outsideRecording = 0
        if let span = inputs.timeRange {
            truth = allTruth.filter { span.contains($0) }
            outsideRecording = allTruth.count - truth.count
        }
        guard !truth.isEmpty else {
            return .skipped("all \(allTruth.count) reference steps lie outside the recording's span")
        }
        let source = external ?? (platform ? "platform step counter" : mode == .offline ? "accelerometer (offline)" : "accelerometer")
        let active = e.truth.labels.filter { $0.label != "still" }
        var row = Row(id: id, device: r.metadata.device, placement: r.metadata.placement, group: e.entry.label, trueSteps: truth.count,
                      countedSteps: detected.count, errorPercent: 0, source: source)
        row.trueStepsOutsideRecording = outsideRecording
        var judged = detected
        var judgedTruth = truth
        if !active.isEmpty {
            judgedTruth = truth.filter { t in active.contains { t >= $0.start && t <= $0.end } }
            let inTrue = judgedTruth.count
            let spans = judgedSpans(active)
            judged = steps(detected, inside: spans)
            row.judgedSpans = spans.map { [$0.start, $0.end] }
            row.trueStepsOutside = truth.count - inTrue
            row.countedStepsOutside = detected.count - judged.count
            row.trueSteps = inTrue
            row.countedSteps = judged.count
        }
        row.errorPercent = row.trueSteps > 0 ? 100 * Double(row.countedSteps - row.trueSteps) / Double(row.trueSteps) : 0
        let turns = active.filter { $0.label.lowercased().hasPrefix("turn") }.map { (start: $0.start, end: $0.end) }
        row.match = StepMatch.compare(counted: judged.map(\.time), reference: judgedTruth, turns: turns)
        row.heightMeters = r.metadata.heightMeters
        if let c = e.truth.distanceMeters, external == nil {
            row.courseMeters = c
            if let h = r.metadata.heightMeters, h > 0 {
                let d = StrideEstimator.distance(judged, model: .weinberg(k: StrideModel.weinbergK(heightMeters: h)))
                row.distanceMeters = d
                row.distanceErrorPercent = 100 * (d - c) / c
                row.heightRuleDistanceMeters = StrideEstimator.distance(judged, model: .height(heightMeters: h))
            }
        }
        return .scored(row)
    }

    /// The steps one recording's device data give (`score` judges them): those a live session
    /// counts (the recording pushed through `MotionSession` without a classifier, without its
    /// platform step-counter stream unless `usePlatformCounter`), or with `mode` `.offline`
    /// `OfflineStepDetector.steps(of:session:)`; with the recording the counter read (`inputs`)
    /// and whether the platform counter gave them. Skipped, with the reason, without
    /// acceleration or when the session cannot run.
    public static func countedSteps(_ r: Recording, settings: Pedometer.Settings = .default, usePlatformCounter: Bool = false,
                                    mode: StepMode = .live) -> Evaluation.Outcome<CountedSteps> {
        func has(_ k: StreamKind) -> Bool { r.stream(k).map { !$0.isEmpty } ?? false }
        guard has(.acceleration) || has(.userAcceleration) || (usePlatformCounter && has(.stepCounter)) else {
            return .skipped(usePlatformCounter ? "no acceleration and no step-counter stream" : "no acceleration (raw or user acceleration)")
        }
        let platform = usePlatformCounter && has(.stepCounter)
        var inputs = r
        if !platform { inputs.streams.removeAll { $0.kind == .stepCounter } }
        var sessionSettings = SessionSettings()
        sessionSettings.tuning.pedometer = settings
        if mode == .offline && !platform, let steps = OfflineStepDetector.steps(of: inputs, session: sessionSettings) {
            return .scored(CountedSteps(steps: steps, inputs: inputs, platform: false))
        }
        do {
            let steps = try MotionSession.run(inputs, settings: sessionSettings, model: nil, keepStepEvents: true).events
                .compactMap { if case .step(let s) = $0 { s } else { nil } }
            return .scored(CountedSteps(steps: steps, inputs: inputs, platform: platform))
        } catch {
            return .skipped("the session could not run: \(error)")
        }
    }

    /// What `countedSteps` gives: the steps, in time order, the recording they were counted on
    /// (its platform step-counter stream removed unless that counted them), and whether it did.
    public struct CountedSteps: Sendable {
        /// The steps counted, in time order.
        public var steps: [StepEvent]
        /// The recording they were counted on.
        public var inputs: Recording
        /// Whether the platform step counter gave them.
        public var platform: Bool
    }

    /// The figures over `rows`: step totals, the mean, median and worst |error %|, and the
    /// median |distance error %|.
    public static func summarize(_ rows: [Row]) -> Summary {
        let abs = rows.map { Swift.abs($0.errorPercent) }
        let worst = rows.max { Swift.abs($0.errorPercent) < Swift.abs($1.errorPercent) }
        let dist = rows.compactMap(\.distanceErrorPercent).map { Swift.abs($0) }
        return Summary(recordings: rows.count, trueSteps: rows.reduce(0) { $0 + $1.trueSteps },
                       countedSteps: rows.reduce(0) { $0 + $1.countedSteps },
                       mape: abs.isEmpty ? 0 : abs.reduce(0, +) / Double(abs.count),
                       medianAbsErrorPercent: median(abs), worstAbsErrorPercent: abs.max() ?? 0, worstID: worst?.id,
                       distanceMedianAbsErrorPercent: dist.isEmpty ? nil : median(dist), distanceRecordings: dist.count,
                       trueStepsOutsideRecording: rows.reduce(0) { $0 + $1.trueStepsOutsideRecording },
                       match: StepMatch.total(rows.compactMap(\.match)))
    }

    static func median(_ xs: [Double]) -> Double {
        xs.isEmpty ? 0 : TimingStatistics.percentile(xs.sorted(), 0.5)
    }
}
