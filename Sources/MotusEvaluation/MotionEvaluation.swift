import MotusCore
import MotusClassifier
import MotusTracking

/// Judging the session's moving/still events on labelled recordings of "still, move, still"
/// (the IPOL trials: `still`, `walk`, `turn`, `walk`, `still`).
///
/// True resume = start of the first non-`still` label; true stop = end of the last one. A
/// recording is judged when it has a moving label and a `still` label before or after it; the
/// resume only when a `still` label ends at or before the true start (a recording that starts
/// moving, like sp-sw-har's few that begin while the person stands up, shows no resume to
/// judge, but its false pauses and its pause are judged all the same). A walk with reference
/// steps and no `still` label (WeAllWalk's paths, Oxford's walks: nothing says where the person
/// stood) is judged for its false pauses only, its resume and pause n/j; without labels its
/// moving span runs from the first reference step to the last.
/// - **Resume latency** = time of the first `resumed` event at or after true start − 2 s,
///   minus the true start (the event is dated back to the first credited step, so this is
///   how well the session dates the start); its decision latency (`decidedAt` − true start)
///   is reported beside it.
/// - **Pause latency** = `decidedAt` of the first `paused` event dated at or after
///   true stop − 1 s, minus the true stop: when the session *says* it stopped. The event's own
///   time (when it dates the stop) is reported beside it.
/// - **False pause**: a `paused` event dated inside [true start, true stop − 1 s), unless the
///   recording's `step` events show the person standing there (the true steps before and
///   after it are at least `standingGap` apart: a patient who stops for 4 s mid-trial has
///   paused) or the stillness it reports (from its date to the next resume's) overlaps an
///   incident the annotators marked (`WindowTruth.incidents`: WeAllWalk's walker who
///   "briefly stopped and side stepped"); such pauses are counted apart as
///   `pausesInStandingGaps`.
/// - **False resume**: a `resumed` event dated more than 2 s before the true start.
/// - **Retracted resume**: a provisional resume (`firstSteps`) followed by its retraction (a
///   pause with cause `unconfirmed`, no moving time). Neither counts as the resume or as a
///   pause; they are counted apart.
/// - **Resume decided after N steps**: true steps (the recording's `step` events) from 1 s
///   before the true start up to the resume's decision, when the recording has them. Without
///   step events (sp-sw-har) the steps are estimated: the walk's steps at the trial's own
///   cadence (the median interval of the steps the session counted inside the moving span),
///   the first at the true start, so a decision before the start is 0 steps, within the first
///   interval 1, and so on; `resumeDecisionStepsEstimated` marks such trials.
/// A trial whose resume or pause is never reported gets an infinite latency.
public enum MotionEvaluation {
    /// One trial's result. Times and latencies are in seconds; a time is on the recording's
    /// clock, a latency is the difference to the true time (negative when early, infinite when
    /// the event never came). Encoded as it is in `evaluate-motion --json`.
    public struct Row: Sendable, Hashable, Codable {
        /// The entry's id (`3-1` for an IPOL trial, a file's relative path).
        public var id: String
        /// Start of the first non-`still` label (s, recording clock): when the person started moving.
        public var trueStart: Seconds
        /// End of the last non-`still` label (s, recording clock): when the person stopped.
        public var trueStop: Seconds
        /// The resume event's time minus `trueStart` (s): how well the session dates the
        /// start. Infinite when no resume was reported.
        public var resumeLatency: Seconds
        /// The resume's decision time (`decidedAt`) minus `trueStart` (s): when the session
        /// said so. Infinite when no resume was reported.
        public var resumeDecisionLatency: Seconds
        /// The pause's decision time (`decidedAt`) minus `trueStop` (s): when the session said
        /// it stopped. Infinite when no pause was reported, and for a walk with no `still`
        /// label (`stillLabelled`), whose pause is not judged.
        public var pauseLatency: Seconds
        /// The pause event's own time minus `trueStop` (s): how well it dates the stop.
        /// Infinite when no pause was reported (or not judged, as `pauseLatency`).
        public var pauseEventLatency: Seconds
        /// Pauses dated inside the walk (from `trueStart` to 1 s before `trueStop`) where the
        /// reference steps show no standing.
        public var falsePauses: Int
        /// Pauses dated inside the walk where the reference steps are at least `standingGap`
        /// apart around the pause, or inside an annotated incident: the person stood, or the
        /// annotators say the walk was interrupted there, so they are not false.
        public var pausesInStandingGaps: Int
        /// Resumes dated more than 2 s before `trueStart`.
        public var falseResumes: Int
        /// Provisional resumes retracted (the pedometer did not confirm them).
        public var retractedResumes: Int
        /// True steps taken up to the resume decision (NaN without a resume, or without step
        /// events and too few counted steps to estimate them).
        public var resumeDecisionSteps: Double
        /// True when `resumeDecisionSteps` is estimated from the trial's cadence (the recording
        /// has no step events).
        public var resumeDecisionStepsEstimated: Bool
        /// Steps counted over the whole recording.
        public var steps: Int
        /// Seconds of recording after the true stop.
        public var stillAfterStop: Seconds
        /// False when no pause was reported and the recording ends less than
        /// `minimumStillAfterStop` after the stop (left out of the pause statistics).
        public var pauseJudged: Bool
        /// False when no `still` label ends at or before the true start: the recording starts
        /// moving, so no resume can be judged (left out of the resume statistics; its resume
        /// figures stay infinite and NaN, and no resume of it counts as false).
        public var resumeJudged: Bool
        /// False for a walk with reference steps and no `still` label: only its false pauses
        /// are judged (`pauseJudged` and `resumeJudged` are false too).
        public var stillLabelled: Bool = true
    }

    /// A trial with no pause reported is judged (as an infinite latency) only when the
    /// recording goes on at least this long (s) after the true stop: a pause cannot be
    /// reported after the data ends (the p90 bar is 2.5 s).
    public static let minimumStillAfterStop: Seconds = 2.5
    /// Why `evaluate` scores no row for a recording (listed with it when it is skipped).
    public static let unjudgedReason = "no moving label, or neither a still label nor reference steps"
    /// A gap between true steps at least this long (s) is standing, not walking (the rule by
    /// which windows are judged, too).
    public static let standingGap: Seconds = WindowTruth.standingGap

    /// The figures over a set of trials (`summarize`). Latencies are in seconds: percentiles
    /// by `percentile`, infinite when the trials at that rank had no event, NaN when there
    /// are no trials. Pause figures cover the trials whose pause was judged (`Row.pauseJudged`).
    public struct Summary: Sendable, Hashable, Codable {
        /// Trials scored.
        public var trials: Int
        /// Median pause latency (s).
        public var pauseMedian: Seconds
        /// 90th percentile of the pause latency (s).
        public var pauseP90: Seconds
        /// Median pause event latency (s): how well pauses date the stop.
        public var pauseEventMedian: Seconds
        /// Median resume latency (s), signed: early resumes are negative.
        public var resumeMedian: Seconds
        /// 90th percentile of the resume latency (s).
        public var resumeP90: Seconds
        /// Median |resume latency| (s): what the resume bar checks (early counts like late).
        public var resumeAbsoluteMedian: Seconds
        /// Median resume decision latency (s).
        public var resumeDecisionMedian: Seconds
        /// Median of the true steps taken up to the resume decision (trials with step events,
        /// or with an estimate from the cadence).
        public var resumeDecisionStepsMedian: Double
        /// Trials whose decision steps were estimated from the cadence (no step events).
        public var resumeDecisionStepsEstimated: Int
        /// Provisional resumes retracted, over all trials.
        public var retractedResumes: Int
        /// False pauses, over all trials.
        public var falsePauses: Int
        /// False resumes, over all trials.
        public var falseResumes: Int
        /// Trials with at least one false pause.
        public var trialsWithFalsePause: Int
        /// Trials whose pause was not judged (recording ends too soon after the stop).
        public var pausesNotJudged: Int
        /// Trials whose resume was not judged (no `still` label before the true start).
        public var resumesNotJudged: Int
        /// Walks with reference steps and no `still` label, judged for their false pauses only
        /// (counted in `pausesNotJudged` and `resumesNotJudged` too).
        public var falsePausesOnly: Int = 0
        /// Pauses dated inside a walk where the reference steps show the person standing (at
        /// least `standingGap` between them), over all trials: not false.
        public var pausesInStandingGaps: Int = 0
    }

    /// Evaluates one recording; nil when it has no moving label, or neither a `still` label nor
    /// reference steps. A recording without a `still` label ending at or before the first moving
    /// one is scored with `resumeJudged` false, one that ends too soon after the stop with
    /// `pauseJudged` false, and a walk with reference steps but no `still` label for its false
    /// pauses only (`stillLabelled` false); without labels its moving span is that of its steps.
    /// `labelMap` (label → `still` or `moving`) renames the truth's labels first, leaving out
    /// those it does not name; nil takes them as they are (`still`, and anything else moving).
    /// The recording runs through `MotionSession` with `settings` (its height from the
    /// recording's metadata when `settings` has none) and `model` (nil: pedometer and
    /// stillness only).
    ///
    /// - Throws: `StreamingClassifier.Failure` when `model` cannot run live (no `moving` or
    ///   `still` class, or features that cannot be computed live).
    public static func evaluate(_ e: EvaluationRecording, labelMap: [String: String]? = nil, settings: SessionSettings = .default,
                                model: MotionModel?) throws(StreamingClassifier.Failure) -> Row? {
        let r = e.recording, id = e.id
        let labels = labelMap.map { e.truth.labels(mappedBy: $0) } ?? e.truth.labels
        let active = labels.filter { $0.label != "still" }
        let truth = e.truth.stepTimes
        // Incidents the annotators marked (a walker stopping to side-step): a pause whose stillness overlaps one is not false.
        let incidents = WindowTruth.incidents(e.truth.events)
        let stillLabelled = labels.contains { $0.label == "still" }
        // A walk with reference steps and no still label: its labels' span, or its steps' when
        // it has no labels at all (Oxford's walks).
        let span = active.isEmpty && e.truth.labels.isEmpty && !truth.isEmpty ? [truth[0], truth[truth.count - 1]]
            : active.map(\.start) + active.map(\.end)
        guard let start = span.min(), let stop = span.max(), stillLabelled || !truth.isEmpty else { return nil }
        let resumeJudged = labels.contains { $0.label == "still" && $0.end <= start + 1e-9 }
        var s = settings
        if s.heightMeters == nil { s.heightMeters = r.metadata.heightMeters }
        let res = try MotionSession.run(r, settings: s, model: model)
        var row = Row(id: id, trueStart: start, trueStop: stop, resumeLatency: .infinity, resumeDecisionLatency: .infinity,
                      pauseLatency: .infinity, pauseEventLatency: .infinity, falsePauses: 0, pausesInStandingGaps: 0, falseResumes: 0,
                      retractedResumes: 0, resumeDecisionSteps: .nan, resumeDecisionStepsEstimated: truth.isEmpty, steps: res.summary.steps,
                      stillAfterStop: (r.timeRange?.upperBound ?? stop) - stop, pauseJudged: false,
                      resumeJudged: resumeJudged, stillLabelled: stillLabelled)
        var pauseFound = false
        let changes = res.stateChanges
        for (i, (state, c)) in changes.enumerated() {
            if c.cause == .unconfirmed { continue }
            if state == .moving, i + 1 < changes.count, changes[i + 1].change.cause == .unconfirmed {
                row.retractedResumes += 1
                continue
            }
            switch state {
            case .moving:
                if !resumeJudged { continue }
                if c.time < start - 2 { row.falseResumes += 1 } else if !row.resumeLatency.isFinite && c.time <= stop {
                    row.resumeLatency = c.time - start
                    row.resumeDecisionLatency = c.decidedAt - start
                    if !truth.isEmpty {
                        row.resumeDecisionSteps = Double(truth.filter { $0 >= start - 1 && $0 <= c.decidedAt }.count)
                    } else if let interval = cadenceInterval(res.stepTimes, from: start, to: stop) {
                        row.resumeDecisionSteps = c.decidedAt < start ? 0 : ((c.decidedAt - start) / interval).rounded(.down) + 1
                    }
                }
            case .still:
                if c.time >= start && c.time < stop - 1 {
                    let before = truth.last { $0 <= c.time } ?? -Double.infinity
                    let after = truth.first { $0 > c.time } ?? Double.infinity
                    let stood = !truth.isEmpty && after - before >= standingGap
                    // The stillness the pause reports runs from its date to the next resume's.
                    let resumedAt = changes[(i + 1)...].first { $0.state == .moving }?.change.time ?? .infinity
                    let incident = incidents.contains { $0.start <= resumedAt && c.time <= $0.end }
                    if stood || incident { row.pausesInStandingGaps += 1 } else { row.falsePauses += 1 }
                } else if stillLabelled && c.time >= stop - 1 && !row.pauseLatency.isFinite {
                    row.pauseLatency = c.decidedAt - stop
                    row.pauseEventLatency = c.time - stop
                    pauseFound = true
                }
            }
        }
        // Without a still label nothing says the person stood after the walk.
        row.pauseJudged = stillLabelled && (pauseFound || row.stillAfterStop >= minimumStillAfterStop)
        return row
    }

    /// The figures over `rows`: latency medians and 90th percentiles (the pause's over the
    /// rows whose pause was judged, the resume's over those whose resume was), and the counts
    /// of false and retracted events and of unjudged pauses and resumes.
    public static func summarize(_ rows: [Row]) -> Summary {
        let judged = rows.filter(\.pauseJudged), resumed = rows.filter(\.resumeJudged)
        return Summary(trials: rows.count,
                pauseMedian: percentile(judged.map(\.pauseLatency), 50), pauseP90: percentile(judged.map(\.pauseLatency), 90),
                pauseEventMedian: percentile(judged.map(\.pauseEventLatency), 50),
                resumeMedian: percentile(resumed.map(\.resumeLatency), 50), resumeP90: percentile(resumed.map(\.resumeLatency), 90),
                resumeAbsoluteMedian: percentile(resumed.map { Swift.abs($0.resumeLatency) }, 50),
                resumeDecisionMedian: percentile(resumed.map(\.resumeDecisionLatency), 50),
                resumeDecisionStepsMedian: percentile(resumed.map(\.resumeDecisionSteps).filter { !$0.isNaN }, 50),
                resumeDecisionStepsEstimated: resumed.filter { $0.resumeDecisionStepsEstimated && !$0.resumeDecisionSteps.isNaN }.count,
                retractedResumes: rows.reduce(0) { $0 + $1.retractedResumes },
                falsePauses: rows.reduce(0) { $0 + $1.falsePauses }, falseResumes: rows.reduce(0) { $0 + $1.falseResumes },
                trialsWithFalsePause: rows.filter { $0.falsePauses > 0 }.count, pausesNotJudged: rows.count - judged.count,
                resumesNotJudged: rows.count - resumed.count, falsePausesOnly: rows.filter { !$0.stillLabelled }.count,
                pausesInStandingGaps: rows.reduce(0) { $0 + $1.pausesInStandingGaps })
    }

    /// The median interval (s) between consecutive counted steps inside [`start`, `stop`],
    /// leaving out intervals longer than 2 s (a stop or a missed run); nil with fewer than three.
    static func cadenceInterval(_ steps: [Double], from start: Double, to stop: Double) -> Double? {
        let inside = steps.filter { $0 >= start && $0 <= stop }
        let intervals = zip(inside.dropFirst(), inside).map { $0 - $1 }.filter { $0 > 0 && $0 <= 2 }
        guard intervals.count >= 3 else { return nil }
        return percentile(intervals, 50)
    }

    /// Percentile with linear interpolation between order statistics (numpy's default);
    /// infinities sort last. NaN for no values.
    public static func percentile(_ xs: [Double], _ p: Double) -> Double {
        guard !xs.isEmpty else { return .nan }
        let s = xs.sorted()
        let x = (Double(s.count - 1) * p / 100)
        let i = Int(x.rounded(.down))
        let f = x - Double(i)
        if i + 1 >= s.count { return s[s.count - 1] }
        if f == 0 { return s[i] }
        if !s[i + 1].isFinite { return s[i + 1] }
        return s[i] + f * (s[i + 1] - s[i])
    }
}
