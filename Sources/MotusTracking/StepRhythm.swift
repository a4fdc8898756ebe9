import MotusCore

/// The walking-rhythm rule every step counter here applies to a run of step times: the live
/// pedometer before it confirms a walk (`Pedometer`), the live check of unheard peaks
/// (`LiveStepCheck`), the rhythm check of unconfirmed runs (`StepRhythmCheck`) and the offline
/// look-back before a bout (`OfflineStepDetector.isWalk`). Each applies it with its own ratios
/// (its settings) to its own run; the rule itself is this one.
///
/// A run keeps a walking rhythm when either
/// - (steady steps) every interval lies within `intervalRatio` of the median of the judging
///   intervals; or
/// - (alternating intervals, as a pocket's near and far leg or a limp give) there are at least
///   three judging intervals (two strides: one stride is regular by definition), the longest
///   interval is at most `asymmetry` times the shortest, and every stride (two consecutive
///   intervals) lies within `strideRatio` of the median of the judging strides.
///
/// With `longIntervalsBreak` false only an interval shorter than the median over the ratio
/// breaks the steady rule: rules that judge whether a run holds extra steps pass false, as a long
/// interval is a missed step or a pause. The median of an even count is the mean of the two
/// middle values, or with `median` `.lower` the smaller one: the pedometer confirms a walk
/// against the lower median (`benchmarks/README.md` gives what the usual one changes).
struct StepRhythm: Sendable {
    /// Which middle value an even count's median takes.
    enum Median: Sendable { case middle, lower }

    let intervalRatio: Double
    let strideRatio: Double
    let asymmetry: Double
    let longIntervalsBreak: Bool
    var median: Median = .middle

    /// The step (s) of the run `time(0) … time(count)` (`count` intervals) when it keeps a
    /// walking rhythm judged against its first `judging` intervals (1 ≤ judging ≤ count): their
    /// median interval (steady steps) or half their median stride (alternating); nil when it
    /// does not keep one. `scratch` holds the work: at least `count` values, overwritten;
    /// allocates nothing.
    func step(count n: Int, judging m: Int, scratch: inout [Double], time: (Int) -> Double) -> Double? {
        precondition(m >= 1 && m <= n && scratch.count >= n, "a run of at least one judging interval, with room for them")
        for i in 0..<m { scratch[i] = time(i + 1) - time(i) }
        let median = middle(&scratch, m)
        var lo = Double.infinity, hi = 0.0, steady = true
        for i in 0..<n {
            let d = time(i + 1) - time(i)
            lo = Swift.min(lo, d); hi = Swift.max(hi, d)
            if d * intervalRatio < median || (longIntervalsBreak && d > median * intervalRatio) { steady = false }
        }
        if steady { return median }
        guard m >= 3, hi <= asymmetry * lo else { return nil }
        for i in 0..<(m - 1) { scratch[i] = time(i + 2) - time(i) }
        let stride = middle(&scratch, m - 1)
        for i in 0..<(n - 1) {
            let s = time(i + 2) - time(i)
            if s * strideRatio < stride || s > stride * strideRatio { return nil }
        }
        return stride / 2
    }

    /// The median of `values[0..<m]` as `median` takes it, sorting them in place.
    func middle(_ values: inout [Double], _ m: Int) -> Double {
        switch median {
        case .middle: return values.medianOfFirst(m)
        case .lower:
            values[0..<m].sort()
            return values[(m - 1) / 2]
        }
    }
}

extension Array where Element == Double {
    /// The median of the first `m` values (m ≥ 1), sorting them in place (allocates nothing).
    mutating func medianOfFirst(_ m: Int) -> Double {
        self[0..<m].sort()
        return m % 2 == 1 ? self[m / 2] : 0.5 * (self[m / 2 - 1] + self[m / 2])
    }
}
