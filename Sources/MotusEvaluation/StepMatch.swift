import MotusCore

/// Counted steps compared with reference steps one by one: which reference steps a detector
/// found, which it missed and which of its steps have no reference step, and where in a walk
/// the misses and the extra steps lie. A count can be right while its steps are wrong (a missed
/// turn step and an extra step at the walk's end cancel), and a walk's ends and turns are
/// where detectors and references disagree most; this says how much of an error lies there.
///
/// Matching: a counted step and a reference step at most `toleranceSeconds` apart match, each
/// step at most once, the closest pairs first (a step's peak comes a little after its heel
/// strike, as `StepEvaluation.windowMargin` allows for). Where they lie:
/// - a reference step is at a walk's end when it is the first or the last of its bout: the
///   reference steps split wherever two lie `boutGapSeconds` or more apart (a stop);
/// - a counted step is at a walk's end when no two reference steps of one bout lie on each
///   side of it (before the walk's first heel strike, after its last, or in a stop);
/// - a step not at an end is in a turn when it lies inside one of the `turns` spans (the
///   labels named `turn…`, IPOL's and WeAllWalk's), else in the walk.
public struct StepMatch: Sendable, Hashable, Codable {
    /// Reference steps a counted step matched.
    public let matched: Int
    /// Reference steps no counted step matched.
    public let missed: Int
    /// Counted steps that matched no reference step.
    public let extra: Int
    /// Of `missed`: the first or last reference step of a bout.
    public let missedAtEnds: Int
    /// Of `extra`: before a bout's first reference step, after its last, or between bouts.
    public let extraAtEnds: Int
    /// Of `missed`, not at an end: inside a turn label.
    public let missedInTurns: Int
    /// Of `extra`, not at an end: inside a turn label.
    public let extraInTurns: Int
    /// matched / (matched + extra) × 100 (%); 0 when nothing was counted.
    public let precisionPercent: Percent
    /// matched / (matched + missed) × 100 (%); 0 without reference steps.
    public let recallPercent: Percent
    /// The harmonic mean of precision and recall (%); 0 when both are 0.
    public let f1Percent: Percent

    /// Whether any step was compared (a reference step or a counted one): a report says
    /// nothing of a comparison without steps.
    public var comparedAny: Bool { matched + missed + extra > 0 }

    /// Counted and reference steps at most this far apart (s) match.
    public static let toleranceSeconds: Seconds = 0.3
    /// Reference steps this far apart (s) or more belong to two bouts.
    public static let boutGapSeconds: Seconds = 2

    /// A comparison with these counts; precision, recall and F1 follow from them.
    public init(matched: Int = 0, missed: Int = 0, extra: Int = 0, missedAtEnds: Int = 0, extraAtEnds: Int = 0,
                missedInTurns: Int = 0, extraInTurns: Int = 0) {
        self.matched = matched; self.missed = missed; self.extra = extra
        self.missedAtEnds = missedAtEnds; self.extraAtEnds = extraAtEnds
        self.missedInTurns = missedInTurns; self.extraInTurns = extraInTurns
        let p = matched + extra > 0 ? 100 * Double(matched) / Double(matched + extra) : 0
        let r = matched + missed > 0 ? 100 * Double(matched) / Double(matched + missed) : 0
        precisionPercent = p
        recallPercent = r
        f1Percent = p + r > 0 ? 2 * p * r / (p + r) : 0
    }

    /// The sum of several comparisons (a data set's, from its recordings').
    public static func total(_ parts: [StepMatch]) -> StepMatch {
        parts.reduce(StepMatch()) { a, b in
            StepMatch(matched: a.matched + b.matched, missed: a.missed + b.missed, extra: a.extra + b.extra,
                      missedAtEnds: a.missedAtEnds + b.missedAtEnds, extraAtEnds: a.extraAtEnds + b.extraAtEnds,
                      missedInTurns: a.missedInTurns + b.missedInTurns, extraInTurns: a.extraInTurns + b.extraInTurns)
        }
    }

    /// Compares `counted` with `reference` (times in s, each in any order) with the turn spans
    /// `turns` ([start, end] in s).
    public static func compare(counted: [Seconds], reference: [Seconds], turns: [(start: Seconds, end: Seconds)] = []) -> StepMatch {
        let c = counted.sorted(), r = reference.sorted()
        // Candidate pairs within the tolerance, closest first (ties: the earlier reference
        // step, then the earlier counted step, so the result does not depend on sort order).
        var pairs: [(d: Double, i: Int, j: Int)] = []
        var lo = 0
        for (j, t) in c.enumerated() {
            while lo < r.count && r[lo] < t - toleranceSeconds { lo += 1 }
            var i = lo
            while i < r.count && r[i] <= t + toleranceSeconds { pairs.append((Swift.abs(r[i] - t), i, j)); i += 1 }
        }
        pairs.sort { ($0.d, $0.i, $0.j) < ($1.d, $1.i, $1.j) }
        var refMatched = [Bool](repeating: false, count: r.count), countedMatched = [Bool](repeating: false, count: c.count)
        var matched = 0
        for p in pairs where !refMatched[p.i] && !countedMatched[p.j] {
            refMatched[p.i] = true; countedMatched[p.j] = true; matched += 1
        }
        func inTurn(_ t: Double) -> Bool { turns.contains { t >= $0.start && t <= $0.end } }
        var missed = 0, missedAtEnds = 0, missedInTurns = 0
        for (i, t) in r.enumerated() where !refMatched[i] {
            missed += 1
            let first = i == 0 || t - r[i - 1] >= boutGapSeconds
            let last = i == r.count - 1 || r[i + 1] - t >= boutGapSeconds
            if first || last { missedAtEnds += 1 } else if inTurn(t) { missedInTurns += 1 }
        }
        var extra = 0, extraAtEnds = 0, extraInTurns = 0, k = 0
        for (j, t) in c.enumerated() where !countedMatched[j] {
            extra += 1
            // The reference steps on each side of t: r[k - 1] < t <= r[k].
            while k < r.count && r[k] < t { k += 1 }
            let inside = k > 0 && k < r.count && r[k] - r[k - 1] < boutGapSeconds
            if !inside { extraAtEnds += 1 } else if inTurn(t) { extraInTurns += 1 }
        }
        return StepMatch(matched: matched, missed: missed, extra: extra, missedAtEnds: missedAtEnds,
                         extraAtEnds: extraAtEnds, missedInTurns: missedInTurns, extraInTurns: extraInTurns)
    }
}
