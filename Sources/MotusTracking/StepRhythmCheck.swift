import MotusCore
import MotusSignal

/// The rhythm check on counted steps, one step at a time: a step that a second detector does
/// not confirm and that splits one regular interval in two is dropped (a stray oscillation in a
/// turn or between a cane's impacts, not a step).
///
/// A step's rhythm is the median interval of its walking bout around it as if it were not
/// there: up to `rhythmIntervals` + 1 steps on each side, the bout ending where two steps lie
/// `boutGapSeconds` or more apart; at least three intervals are needed, else the step is kept.
/// The step is dropped when it is not confirmed, its two intervals lie within the bout, one of
/// them is shorter than the median over `irregularityRatio` and the two together are within
/// that ratio of the median. Decisions look only at the steps as pushed (a dropped step still
/// counts as a neighbour), so one decision never changes another.
///
/// A second rule drops runs: `unconfirmedRunSteps` steps in a row, none confirmed, within one
/// bout, that come more often than their own rhythm (one interval shorter than their median
/// over `irregularityRatio`, and, when the intervals alternate, strides not regular either).
/// Each unconfirmed step is dropped when it lies in such a run. Steps that keep a rhythm the
/// other detector does not hear stay (a walk it misses); candidates at erratic times it does
/// not hear either are not a walk (a phone handled after a walk ends, a cane's taps while
/// turning on the spot). A long interval does not make a run irregular: it is a missed step or
/// a pause, which dropping steps cannot mend.
///
/// A step is decided once its confirmation is known (`confirm(until:_:)`) and the steps after
/// it that its rhythm needs have come (or cannot come any more: `next(noStepBefore:)`), so the
/// delay is bounded: at most `rhythmIntervals` + 2 steps (or `unconfirmedRunSteps`, if more),
/// or the bout gap after the last one.
/// Fixed storage: allocates nothing after `init`. The live session checks the pedometer's
/// steps against `VerticalStepStream` (`LiveStepCheck`); `OfflineStepDetector.reconcile` checks
/// a whole recording's chosen steps with the same rule.
public struct StepRhythmCheck: Sendable {
    /// Steps held: the undecided ones and the neighbours their rhythm needs. When full, `push`
    /// passes the oldest undecided step on unchecked (with the delays of `LiveStepCheck` and a
    /// caller that asks `next` after each push, a few dozen are held at walking rates).
    public static let capacity = 192

    let ratio: Double, gap: Seconds, side: Int, run: Int
    /// The run rule's rhythm (a long interval does not break it).
    let rhythm: StepRhythm
    var times: [Double], peaks: [Double], filled: [Bool]
    /// Whether the run rule may drop the step (`push(_:confirmed:inRuns:)`).
    var inRuns: [Bool]
    /// 0: not yet known, 1: confirmed, 2: not confirmed.
    var confirmation: [UInt8]
    /// Sequence numbers (the n-th pushed step): the oldest held, one past the newest, the next
    /// to decide, the next whose confirmation is unknown.
    var oldest = 0, end = 0, undecided = 0, unconfirmed = 0
    var scratch: [Double]
    /// Room for the intervals of one run (`keepsRhythm`).
    var runScratch: [Double]

    /// Steps dropped so far.
    public private(set) var dropped = 0

    /// A check with the rhythm settings of `settings` (ratio, intervals, bout gap).
    public init(settings: OfflineStepDetector.Settings = .default) {
        ratio = settings.irregularityRatio
        gap = settings.boutGapSeconds
        side = Swift.max(1, settings.rhythmIntervals)
        run = settings.unconfirmedRunSteps >= 2 ? settings.unconfirmedRunSteps : 0
        rhythm = StepRhythm(intervalRatio: settings.irregularityRatio, strideRatio: settings.strideRegularityRatio,
                            asymmetry: settings.maximumStepAsymmetry, longIntervalsBreak: false)
        precondition(run < Self.capacity / 4, "unconfirmedRunSteps must be below \(Self.capacity / 4)")
        let c = Self.capacity
        times = [Double](repeating: 0, count: c)
        peaks = [Double](repeating: 0, count: c)
        filled = [Bool](repeating: false, count: c)
        inRuns = [Bool](repeating: true, count: c)
        confirmation = [UInt8](repeating: 0, count: c)
        runScratch = [Double](repeating: 0, count: Swift.max(run, 2))
        scratch = []
        scratch.reserveCapacity(Swift.max(2 * side + 1, run))
    }

    /// Steps pushed and not yet decided.
    public var pending: Int { end - undecided }

    /// Time (s) of the oldest step not yet decided; nil when every step pushed is decided.
    var oldestUndecidedTime: Double? { undecided < end ? time(undecided) : nil }

    /// Adds the next step (in time order; a step earlier than the last one pushed is taken as
    /// coming at the last one's time). `confirmed`: whether the other detector found it, nil
    /// when not yet known (`confirm(until:_:)` says it later). `inRuns`: whether the run rule
    /// applies to it (a step the other detector itself reported does not make or join a run).
    /// When the check is full (see `capacity`), the oldest undecided step is returned, passed
    /// on unchecked: count it.
    @discardableResult
    public mutating func push(_ s: StepEvent, confirmed: Bool? = nil, inRuns: Bool = true) -> StepEvent? {
        var passed: StepEvent? = nil
        if end - oldest == Self.capacity {
            if undecided == oldest {
                let j = slot(undecided)
                passed = StepEvent(time: times[j], peakToPeak: peaks[j], filled: filled[j])
                undecided += 1
                unconfirmed = Swift.max(unconfirmed, undecided)
            }
            oldest += 1
        }
        let j = slot(end)
        let last = end > oldest ? times[slot(end - 1)] : -Double.infinity
        times[j] = Swift.max(s.time, last)
        peaks[j] = s.peakToPeak
        filled[j] = s.filled
        self.inRuns[j] = inRuns
        confirmation[j] = confirmed.map { $0 ? 1 : 2 } ?? 0
        end += 1
        if confirmed != nil && unconfirmed == end - 1 { unconfirmed = end }
        return passed
    }

    /// Says, for the held steps up to `horizon` (s) whose confirmation is not known yet, whether
    /// the other detector found them (`isConfirmed(time)`), oldest first.
    public mutating func confirm(until horizon: Seconds, _ isConfirmed: (Seconds) -> Bool) {
        while unconfirmed < end {
            let j = slot(unconfirmed)
            if confirmation[j] == 0 {
                guard times[j] <= horizon else { return }
                confirmation[j] = isConfirmed(times[j]) ? 1 : 2
            }
            unconfirmed += 1
        }
    }

    /// The next kept step, oldest first, if one can be decided: no step will be pushed dated
    /// before `noStepBefore` (s; +∞ at the end of the input). Dropped steps are passed over.
    public mutating func next(noStepBefore horizon: Seconds) -> StepEvent? {
        while undecided < end {
            guard let keep = decide(undecided, horizon: horizon) else { return nil }
            let j = slot(undecided)
            undecided += 1
            // Keep the neighbours the next decision needs.
            oldest = Swift.max(oldest, undecided - Swift.max(side + 1, run))
            if keep { return StepEvent(time: times[j], peakToPeak: peaks[j], filled: filled[j]) }
            dropped += 1
        }
        return nil
    }

    func slot(_ seq: Int) -> Int { seq % Self.capacity }
    func time(_ seq: Int) -> Double { times[slot(seq)] }

    /// Whether step `i` stays; nil while it cannot be decided yet.
    mutating func decide(_ i: Int, horizon: Double) -> Bool? {
        let c = confirmation[slot(i)]
        guard c != 0 else { return nil }
        if c == 2 && run > 0 && inRuns[slot(i)] {
            guard let inRun = isInIrregularRun(i, horizon: horizon) else { return nil }
            if inRun { return false }
        }
        let t = time(i)
        // The first step, and a step that opens a bout, are kept.
        guard i > oldest, t - time(i - 1) < gap else { return true }
        let a = t - time(i - 1)
        guard i + 1 < end else {
            // The last so far: kept when no step can follow within the gap.
            return horizon >= t + gap ? true : nil
        }
        let b = time(i + 1) - t
        guard b < gap, c == 2 else { return true }
        // The bout after the step: up to `side` + 1 steps, complete when they have come, the
        // bout ended (a gap), or no step can follow within the gap.
        var last = i + 1
        while last - (i + 1) < side && last + 1 < end && time(last + 1) - time(last) < gap { last += 1 }
        let complete = last - (i + 1) == side || last + 1 < end || horizon >= time(last) + gap
        guard complete else { return nil }
        var first = i - 1
        while (i - 1) - first < side && first > oldest && time(first) - time(first - 1) < gap { first -= 1 }
        // The intervals without the step, shorter than the gap (all but the joined one are).
        scratch.removeAll(keepingCapacity: true)
        for k in Swift.stride(from: first + 1, through: i - 1, by: 1) { scratch.append(time(k) - time(k - 1)) }
        if a + b < gap { scratch.append(a + b) }
        for k in Swift.stride(from: i + 2, through: last, by: 1) { scratch.append(time(k) - time(k - 1)) }
        guard scratch.count >= 3 else { return true }
        sortScratch()
        let median = TimingStatistics.percentile(scratch, 0.5)
        let splits = Swift.min(a, b) < median / ratio && a + b >= median / ratio && a + b <= median * ratio
        return !splits
    }

    /// Whether unconfirmed step `i` lies in a run of `run` unconfirmed steps within one bout
    /// that does not keep its rhythm (`keepsRhythm`); nil while the steps after it that could
    /// make such a run have not come, or their confirmation is not known.
    mutating func isInIrregularRun(_ i: Int, horizon: Double) -> Bool? {
        // The unconfirmed steps in a row around i, within its bout, at most `run` - 1 each side.
        var lo = i
        while i - lo < run - 1 && lo - 1 >= oldest && isRunStep(lo - 1) && time(lo) - time(lo - 1) < gap { lo -= 1 }
        var hi = i
        while hi - i < run - 1 {
            guard hi + 1 < end else {
                // A step may still come within the gap: wait for it.
                if horizon < time(hi) + gap { return nil }
                break
            }
            if confirmation[slot(hi + 1)] == 0 { return nil }
            guard isRunStep(hi + 1) && time(hi + 1) - time(hi) < gap else { break }
            hi += 1
        }
        guard hi - lo + 1 >= run else { return false }
        for first in lo...(hi - run + 1) where !keepsRhythm(from: first, count: run) { return true }
        return false
    }

    /// Whether held step `k` can be part of a run: not confirmed, and the run rule applies to it.
    func isRunStep(_ k: Int) -> Bool { confirmation[slot(k)] == 2 && inRuns[slot(k)] }

    /// Sorts `scratch` in place by insertion (a few values; allocates nothing).
    mutating func sortScratch() {
        guard scratch.count > 1 else { return }
        for k in 1..<scratch.count {
            let v = scratch[k]
            var m = k - 1
            while m >= 0 && scratch[m] > v { scratch[m + 1] = scratch[m]; m -= 1 }
            scratch[m + 1] = v
        }
    }

    /// Whether the `count` steps from `first` on keep their rhythm (`StepRhythm` with
    /// `irregularityRatio`, `strideRegularityRatio` and `maximumStepAsymmetry`): a longer
    /// interval does not break it (a missed step or a pause, not an extra step).
    mutating func keepsRhythm(from first: Int, count: Int) -> Bool {
        guard count >= 2 else { return true }
        let ts = times, c = Self.capacity
        return rhythm.step(count: count - 1, judging: count - 1, scratch: &runScratch, time: { ts[(first + $0) % c] }) != nil
    }
}
