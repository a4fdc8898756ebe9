import MotusCore
import MotusTracking

/// Steps counted by devices worn at once, against each other: a check of a step counter on data
/// with no reference steps. sp-sw-har's phone and watch recorded each execution of its course
/// together, so the person took the same steps in both files; a counter that is right on both
/// devices counts the same number in both. Equal counts do not prove both right (both may
/// miss the same steps); unequal counts prove one wrong.
///
/// Recordings are grouped by one metadata value (`Recording.Metadata.extra[key]`; sp-sw-har:
/// `execution`, a native file's `@meta,x.KEY,…`). In each recording the steps
/// `StepEvaluation.countedSteps` gives are counted inside the windows of the chosen labels, each
/// widened by `StepEvaluation.windowMargin` and overlapping ones merged (`judgedSpans`, as
/// `evaluate-steps` judges annotated walks), or all of them when no label is chosen. A group's
/// spread is its largest count minus its smallest.
public enum StepAgreement {
    /// One recording's count.
    public struct Count: Sendable, Hashable, Codable {
        /// The entry's id (`s01/s01_03_sp`).
        public var id: String
        /// The metadata value the recording is grouped by (`s01_03`).
        public var key: String
        /// The device as the metadata names it (`smartphone`, `smartwatch`), when known.
        public var device: String?
        /// Steps counted inside the windows of the chosen labels (all steps without labels).
        public var countedSteps: Int
        /// Those windows, [start, end] (s, the recording's clock; `StepEvaluation.judgedSpans`
        /// of the chosen labels); nil when every step is counted (no labels chosen).
        public var judgedSpans: [[Seconds]]? = nil
    }

    /// The recordings that share one metadata value, and how far their counts lie apart.
    public struct Group: Sendable, Hashable, Codable {
        /// The metadata value they share.
        public var key: String
        /// Their counts, in the order the data set lists them.
        public var counts: [Count]
        /// The largest count minus the smallest (steps).
        public var spread: Int
        /// `spread` over the counts' mean × 100 (%); 0 when every count is 0.
        public var spreadPercent: Percent
    }

    /// The figures over the groups; the spreads are 0 when there are no groups.
    public struct Summary: Sendable, Hashable, Codable {
        /// Groups of two or more recordings.
        public var groups: Int
        /// Recordings in those groups.
        public var recordings: Int
        /// Mean spread over the groups (steps).
        public var meanSpreadSteps: Double
        /// Mean `spreadPercent` over the groups (%).
        public var meanSpreadPercent: Percent
        /// The largest `spreadPercent` (%).
        public var worstSpreadPercent: Percent
        /// The key of the group with the largest spread (nil without groups).
        public var worstKey: String?
        /// Groups whose counts are all equal.
        public var equal: Int
        /// Groups whose counts lie within one step.
        public var withinOne: Int
    }

    /// One recording's count (see the type's description), or why it has none: no value for
    /// `key` in its metadata, or what `StepEvaluation.countedSteps` skips it for.
    public static func count(_ e: EvaluationRecording, key: String, labels: Set<String>, mode: StepMode,
                             settings: Pedometer.Settings = .default) -> Evaluation.Outcome<Count> {
        let r = e.recording
        guard let value = r.metadata.extra[key], !value.isEmpty else { return .skipped("no metadata '\(key)' to pair it by") }
        return StepEvaluation.countedSteps(r, settings: settings, mode: mode).flatMap { c in
            // Without labels every step counts, and there are no windows.
            let spans = labels.isEmpty ? nil : StepEvaluation.judgedSpans(e.truth.labels.filter { labels.contains($0.label) })
            return .scored(Count(id: e.id, key: value, device: r.metadata.device,
                                 countedSteps: spans.map { StepEvaluation.steps(c.steps, inside: $0).count } ?? c.steps.count,
                                 judgedSpans: spans?.map { [$0.start, $0.end] }))
        }
    }

    /// The counts grouped by key, each group in the order its first count comes in; counts
    /// alone with their key are returned apart (`unpaired`), since nothing checks them.
    public static func group(_ counts: [Count]) -> (groups: [Group], unpaired: [Count]) {
        var groups: [Group] = [], unpaired: [Count] = []
        for (k, m) in groupedInFirstOrder(counts, by: \.key) {
            guard m.count >= 2 else { unpaired += m; continue }
            let n = m.map(\.countedSteps), spread = n.max()! - n.min()!
            let mean = Double(n.reduce(0, +)) / Double(n.count)
            groups.append(Group(key: k, counts: m, spread: spread, spreadPercent: mean > 0 ? 100 * Double(spread) / mean : 0))
        }
        return (groups, unpaired)
    }

    /// The figures over `groups`.
    public static func summarize(_ groups: [Group]) -> Summary {
        let worst = groups.max { $0.spreadPercent < $1.spreadPercent }
        let n = Double(Swift.max(groups.count, 1))
        return Summary(groups: groups.count, recordings: groups.reduce(0) { $0 + $1.counts.count },
                       meanSpreadSteps: Double(groups.reduce(0) { $0 + $1.spread }) / n,
                       meanSpreadPercent: groups.reduce(0) { $0 + $1.spreadPercent } / n,
                       worstSpreadPercent: worst?.spreadPercent ?? 0, worstKey: worst?.key,
                       equal: groups.filter { $0.spread == 0 }.count, withinOne: groups.filter { $0.spread <= 1 }.count)
    }
}
