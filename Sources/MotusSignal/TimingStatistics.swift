import MotusCore

/// When an interval between consecutive samples counts as a gap.
///
/// An interval `dt` is a gap when `dt > factor × median interval` (if `factor` is set) **or**
/// `dt > maxSeconds` (if `maxSeconds` is set). The default, `factor` 2.5, flags two or more
/// consecutive lost samples on a regular clock (IPOL packet loss, Pixel 20 ms holes) while
/// staying quiet on Samsung/MPU6500 phones, whose intervals spread from 0.3× to 1.6× the
/// median (99th percentile) as a matter of course. A single lost sample (2 × median) is
/// not a gap by default but still counts in `TimingStatistics.missingSamplesEstimate`.
public struct GapPolicy: Sendable, Hashable {
    /// Multiple of the median interval above which an interval is a gap; nil: not used.
    public var factor: Double?
    /// Interval in seconds above which an interval is a gap; nil: not used.
    public var maxSeconds: Seconds?
    /// A gap is an interval above `factor` × the median, or above `maxSeconds` (s).
    public init(factor: Double? = 2.5, maxSeconds: Seconds? = nil) { self.factor = factor; self.maxSeconds = maxSeconds }

    /// Whether interval `dt` (s) is a gap given the stream's median interval (s).
    @inlinable public func isGap(_ dt: Seconds, medianInterval: Seconds) -> Bool {
        if let f = factor, dt > f * medianInterval { return true }
        if let m = maxSeconds, dt > m { return true }
        return false
    }
}

/// A hole in a stream: no sample in the open interval `(start, end)`.
public struct Gap: Sendable, Hashable {
    /// Index of the sample just before the gap (in the stream analysed).
    public var startIndex: Int
    /// Time of the sample before the gap (s, stream clock).
    public var start: Seconds
    /// Time of the sample after the gap (s, stream clock).
    public var end: Seconds
    /// `end - start`, seconds.
    public var duration: Seconds { end - start }
    /// Samples that would have been there on the median clock: `round(duration / median) − 1`.
    public var missingSamples: Int
    /// A gap after sample `startIndex`, from `start` to `end` (s).
    public init(startIndex: Int, start: Seconds, end: Seconds, missingSamples: Int) {
        self.startIndex = startIndex; self.start = start; self.end = end; self.missingSamples = missingSamples
    }
}

/// Rate, jitter and gaps of a stream's timestamps, measured without resampling. All times in
/// seconds, rates in Hz. `motus inspect` prints these.
///
/// Intervals are `times[i+1] − times[i]` in the order given; the stream should be cleaned
/// (sorted) first, otherwise negative intervals are counted in `nonPositiveIntervals`.
public struct TimingStatistics: Sendable, Hashable {
    /// Number of samples.
    public var count: Int
    /// Last minus first timestamp (0 for fewer than two samples).
    public var duration: Seconds
    /// Median interval; the stream's "real" period. NaN with fewer than two samples.
    public var medianInterval: Seconds
    /// Mean interval = duration / (count − 1).
    public var meanInterval: Seconds
    /// 1 / median interval: the measured rate, robust to gaps and repeats.
    public var medianRateHz: Hertz { 1 / medianInterval }
    /// (count − 1) / duration: counts every sample, so bursts of repeats raise it.
    public var meanRateHz: Hertz { 1 / meanInterval }
    /// Smallest and largest interval.
    public var minInterval: Seconds
    /// Largest interval (s).
    public var maxInterval: Seconds
    /// Standard deviation (population formula) of the intervals that lose no sample
    /// (≤ 1.5 × median and not a gap): timing noise, not losses.
    public var jitterStd: Seconds
    /// 99th percentile of |interval − median| over the same intervals: the jitter tail.
    public var jitterP99: Seconds
    /// 1st and 99th percentiles of all intervals.
    public var intervalP01: Seconds
    /// 99th percentile of all intervals (s).
    public var intervalP99: Seconds
    /// Intervals ≤ 0 (duplicate or backwards timestamps).
    public var nonPositiveIntervals: Int
    /// Every interval the gap policy flags, in time order.
    public var gaps: [Gap]
    /// Sum over all intervals longer than 1.5 × median of `round(dt / median) − 1`: lost
    /// samples on a regular clock (equals the lost-packet count for IPOL's counter clock).
    public var missingSamplesEstimate: Int
    /// Total time inside gaps, seconds.
    public var gapSeconds: Seconds { gaps.reduce(0) { $0 + $1.duration } }

    /// Measures `times`. O(n log n) time (one sort of the intervals), O(n) memory.
    public init(times: [Seconds], gapPolicy: GapPolicy = GapPolicy()) {
        let n = times.count
        count = n
        guard n >= 2 else {
            duration = 0; medianInterval = .nan; meanInterval = .nan; minInterval = .nan; maxInterval = .nan
            jitterStd = .nan; jitterP99 = .nan; intervalP01 = .nan; intervalP99 = .nan
            nonPositiveIntervals = 0; gaps = []; missingSamplesEstimate = 0
            return
        }
        duration = times[n - 1] - times[0]
        meanInterval = duration / Double(n - 1)
        var dts = [Double](repeating: 0, count: n - 1)
        var nonPos = 0
        for i in 0..<(n - 1) {
            let d = times[i + 1] - times[i]
            dts[i] = d
            if d <= 0 { nonPos += 1 }
        }
        nonPositiveIntervals = nonPos
        var sorted = dts
        sorted.sort()
        let med = Self.percentile(sorted, 0.5)
        medianInterval = med
        minInterval = sorted[0]; maxInterval = sorted[sorted.count - 1]
        intervalP01 = Self.percentile(sorted, 0.01); intervalP99 = Self.percentile(sorted, 0.99)
        var g: [Gap] = []
        var missing = 0
        var sum = 0.0, m = 0
        var dev: [Double] = []
        dev.reserveCapacity(n - 1)
        for i in 0..<(n - 1) {
            let d = dts[i]
            if med > 0 && d > 1.5 * med { missing += max(0, Int((d / med).rounded()) - 1) }
            if gapPolicy.isGap(d, medianInterval: med) {
                let miss = med > 0 ? max(0, Int((d / med).rounded()) - 1) : 0
                g.append(Gap(startIndex: i, start: times[i], end: times[i + 1], missingSamples: miss))
            } else if d <= 1.5 * med {
                sum += d; m += 1
                dev.append(abs(d - med))
            }
        }
        gaps = g
        missingSamplesEstimate = missing
        if m > 0 {
            let mean = sum / Double(m)
            // Two-pass for accuracy: recompute around the mean.
            var ss = 0.0
            for d in dts where !gapPolicy.isGap(d, medianInterval: med) && d <= 1.5 * med { ss += (d - mean) * (d - mean) }
            jitterStd = (ss / Double(m)).squareRoot()
            dev.sort()
            jitterP99 = Self.percentile(dev, 0.99)
        } else {
            jitterStd = .nan; jitterP99 = .nan
        }
    }

    /// The median of the positive intervals between consecutive `times` (s), nil when there is
    /// none: a stream's own sample period, robust to gaps and repeated times.
    public static func medianPositiveInterval(_ times: [Seconds]) -> Seconds? {
        var intervals: [Double] = []
        intervals.reserveCapacity(Swift.max(0, times.count - 1))
        for i in times.indices.dropFirst() where times[i] > times[i - 1] { intervals.append(times[i] - times[i - 1]) }
        guard !intervals.isEmpty else { return nil }
        intervals.sort()
        return percentile(intervals, 0.5)
    }

    /// Percentile `p` in [0, 1] of sorted values, linear between order statistics (numpy's
    /// default). Precondition: `sorted` is non-empty and ascending.
    @inlinable public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        precondition(!sorted.isEmpty)
        let pos = p * Double(sorted.count - 1)
        let lo = Int(pos.rounded(.down))
        let hi = min(lo + 1, sorted.count - 1)
        let f = pos - Double(lo)
        return f == 0 ? sorted[lo] : sorted[lo] + f * (sorted[hi] - sorted[lo])
    }
}

/// Timing of a stream's timestamps.
extension SensorStream {
    /// Rate, jitter and gaps of this stream's timestamps (see `TimingStatistics`).
    public func timingStatistics(gapPolicy: GapPolicy = GapPolicy()) -> TimingStatistics {
        TimingStatistics(times: times, gapPolicy: gapPolicy)
    }
}
