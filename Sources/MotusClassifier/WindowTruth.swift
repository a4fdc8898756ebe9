import MotusCore

/// The class a recording's ground truth gives each of its windows: the class of the run of
/// mapped labels that holds the window wholly (`LabelledWindows.classRuns`), unless the window
/// overlaps a span where the ground truth itself says the labelled activity was interrupted.
/// Training, evaluation, feature export and streamed scoring all ask this one type, so they
/// judge the same windows.
///
/// An interruption is
/// - an incident the annotators marked: an `annotation` event to the next `annotation-end`
///   event with the same detail (WeAllWalk's `<Feature>`s: a cane hitting a wall, a walker
///   stopping to side-step a pillar, a guide dog turning towards stairs). Its window's label
///   (`walk`) says the walker walked straight on; the annotation says they may not have;
/// - where the reference steps (`step` events, from sensors on the feet) contradict a run's
///   class: inside a run of the class named `still`, each reference step (IPOL's foot sensors
///   find a few steps after some trials, inside the `still` label); inside a run of any other
///   class, each gap of at least `standingGap` between consecutive reference steps (the person
///   stood, whatever the label says). Gaps between runs (a walk, a still label, the next walk)
///   are not interruptions: the label between them says what happened.
///
/// Such windows are left out, as windows that straddle two labels are: neither trained on nor
/// scored, and counted (`LabelledWindows.windowsInterrupted`).
public struct WindowTruth: Sendable {
    /// A gap between reference steps at least this long (s) is the person standing, not walking
    /// (the rule `evaluate-motion` judges pauses by, too).
    public static let standingGap: Seconds = 2.5

    /// The runs of mapped labels (`LabelledWindows.classRuns`).
    public let runs: [(start: Seconds, end: Seconds, class: Int)]
    /// The spans where the labelled activity was interrupted (s), in time order.
    public let interruptions: [(start: Seconds, end: Seconds)]

    /// What the ground truth says of one window.
    public enum Judgement: Equatable, Sendable {
        /// Wholly inside a run of this class, and overlapping no interruption.
        case labelled(Int)
        /// Not wholly inside one run of mapped labels.
        case unlabelled
        /// Inside a run, but overlapping an interruption of it.
        case interrupted
    }

    /// The truth of a recording with label segments `labels` and ground-truth `events`, its
    /// labels mapped to classes by `map`.
    public init(labels: [LabelSegment], events: [GroundTruthEvent], map: LabelMap) {
        runs = LabelledWindows.classRuns(labels, map)
        let still = map.classes.firstIndex(of: "still")
        interruptions = Self.interruptions(runs: runs, stillClass: still, events: events)
    }

    /// Judges the window from `start` to `end` (s).
    public func judge(start: Seconds, end: Seconds) -> Judgement {
        guard let c = LabelledWindows.windowClass(start: start, end: end, runs: runs) else { return .unlabelled }
        // Overlap in the open sense: a window that only touches an interruption's edge is kept.
        if interruptions.contains(where: { $0.start < end - 1e-9 && $0.end > start + 1e-9 }) { return .interrupted }
        return .labelled(c)
    }

    /// The class of the window from `start` to `end` (s), or nil when it is left out.
    public func windowClass(start: Seconds, end: Seconds) -> Int? {
        if case .labelled(let c) = judge(start: start, end: end) { return c }
        return nil
    }

    /// The windows a truth left out, counted as training and scoring report them.
    public struct LeftOut: Sendable, Hashable {
        /// Windows left out: not wholly inside one run of mapped labels, or across an interruption.
        public var all = 0
        /// Those of `all` inside a run that overlap an interruption of it.
        public var interrupted = 0
        /// None yet.
        public init() {}
    }

    /// `windowClass(start:end:)`, counting a window left out in `leftOut`.
    public func windowClass(start: Seconds, end: Seconds, countingIn leftOut: inout LeftOut) -> Int? {
        let judgement = judge(start: start, end: end)
        if case .labelled(let c) = judgement { return c }
        leftOut.all += 1
        if judgement == .interrupted { leftOut.interrupted += 1 }
        return nil
    }

    /// The annotated incidents of `events` (`annotation` to the next `annotation-end` with the
    /// same detail; an incident with no end is an instant), each `step` event inside a run of
    /// class `stillClass` (an instant), and the gaps of at least `standingGap` between
    /// consecutive `step` events inside a run of any other class, in time order.
    public static func interruptions(runs: [(start: Seconds, end: Seconds, class: Int)], stillClass: Int?,
                                     events: [GroundTruthEvent]) -> [(start: Seconds, end: Seconds)] {
        var out = incidents(events)
        let steps = events.filter { $0.kind == "step" }.map(\.time).sorted()
        for run in runs {
            let inside = steps.filter { $0 >= run.start - 1e-9 && $0 <= run.end + 1e-9 }
            if run.class == stillClass {
                out += inside.map { ($0, $0) }
            } else {
                for (a, b) in zip(inside, inside.dropFirst()) where b - a >= standingGap { out.append((a, b)) }
            }
        }
        return out.sorted { $0.start < $1.start }
    }

    /// The incidents annotated in `events`: each `annotation` event to the first
    /// `annotation-end` event after it with the same detail (its own time when none follows).
    public static func incidents(_ events: [GroundTruthEvent]) -> [(start: Seconds, end: Seconds)] {
        let sorted = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        var used = Set<Int>()
        var out: [(start: Seconds, end: Seconds)] = []
        for (i, e) in sorted.enumerated() where e.kind == "annotation" {
            let j = sorted.indices.first { $0 > i && !used.contains($0) && sorted[$0].kind == "annotation-end" && sorted[$0].detail == e.detail }
            if let j { used.insert(j) }
            out.append((e.time, j.map { sorted[$0].time } ?? e.time))
        }
        return out
    }
}
