import MotusCore

/// What `motus inspect` reports about one stream, computed in one pass with bounded memory.
public struct StreamSummary: Sendable, Equatable, Codable {
    /// The stream's name, as the file declares it (`acc`, `gyro.raw` …).
    public var name: String
    /// What the stream holds.
    public var kind: StreamKind
    /// Samples read.
    public var samples: Int
    /// The time of the first sample read (s, the stream's clock); 0 without samples.
    public var firstTime: Seconds
    /// The latest time of any sample (s, the stream's clock); 0 without samples.
    public var lastTime: Seconds
    /// Rate from the median sampling interval (Hz); 0 with fewer than two samples.
    public var rateHz: Hertz
    /// Median sampling interval (s), to within 0.5 % (from a log-spaced histogram); 0 with
    /// fewer than two samples.
    public var medianIntervalS: Seconds
    /// Standard deviation of the sampling intervals (s), equal and backward steps left out.
    public var jitterStdS: Seconds
    /// 99th percentile of the sampling intervals (s), to within 0.5 %.
    public var p99IntervalS: Seconds
    /// Intervals longer than 3 × the median (and longer than 50 ms): where data are missing.
    public var gaps: Int
    /// The longest of those gaps (s); 0 without gaps.
    public var largestGapS: Seconds
    /// Time the gaps leave uncovered (s): each gap's length less one median interval, summed.
    public var missingTimeS: Seconds
    /// Rows with the same time as the row before.
    public var duplicates: Int
    /// Rows with a time earlier than the row before.
    public var outOfOrder: Int
    /// Mean of the vector norm (3-axis kinds) or of the first component, in the kind's SI unit
    /// (m/s², rad/s, µT, Pa …); 0 for attitude.
    public var meanMagnitude: Double
    /// `lastTime − firstTime` (s); 0 with fewer than two samples.
    public var durationS: Seconds { samples > 1 ? lastTime - firstTime : 0 }
}

/// A recording's summary: metadata, streams, labels and events.
public struct RecordingSummary: Sendable, Equatable {
    /// The file summarised, as named.
    public var path: String
    /// The recording's metadata (the last `@meta` of each key wins).
    public var metadata: RecordingMetadata
    /// One summary per stream, in order of declaration.
    public var streams: [StreamSummary]
    /// Total seconds and segment count per label, in order of first appearance.
    public var labels: [(label: String, seconds: Seconds, segments: Int)]
    /// Count per event kind.
    public var events: [(kind: String, count: Int)]
    /// The last line, when it had no newline, looked cut and was left out.
    public var leftOut: LeftOutLine? = nil
    /// The recording's id in its dataset when it shares its file with others (a WISDM v1.1
    /// user, a UCI HAR subject: `RecordingItem`); nil for a file read on its own.
    public var recording: String? = nil

    /// Equal paths, metadata, streams, left-out lines, label names and event kinds (the
    /// per-label totals and per-kind counts are not compared).
    public static func == (a: RecordingSummary, b: RecordingSummary) -> Bool {
        a.path == b.path && a.recording == b.recording && a.metadata == b.metadata && a.streams == b.streams
            && a.labels.map(\.label) == b.labels.map(\.label) && a.events.map(\.kind) == b.events.map(\.kind) && a.leftOut == b.leftOut
    }

    /// From the earliest first time to the latest last time over the streams with samples
    /// (s; streams on different clocks make this meaningless); nil when no stream has one.
    public var timeRange: ClosedRange<Seconds>? {
        let s = streams.filter { $0.samples > 0 }
        guard let lo = s.map(\.firstTime).min(), let hi = s.map(\.lastTime).max() else { return nil }
        return lo...hi
    }
}

/// Intervals are counted in a log-spaced histogram (1 µs to 1000 s, 0.5 % wide bins) so
/// median and 99th percentile come out to 0.5 % without keeping the intervals.
struct IntervalHistogram {
    static let bins = 2800
    static let lo = 1e-6
    /// Allocated at the first interval, so streams with one sample (a recording may declare
    /// thousands) cost nothing here.
    var counts: [Int] = []
    /// Sum of the intervals in each bin, so a quantile falling in a bin is the mean of what
    /// is there (exact for regularly sampled data).
    var sums: [Double] = []
    var total = 0

    mutating func add(_ dt: Double) {
        guard dt > 0 else { return }
        if counts.isEmpty {
            counts = [Int](repeating: 0, count: Self.bins)
            sums = [Double](repeating: 0, count: Self.bins)
        }
        var b = Int(((log10(dt / Self.lo)) / 0.005).rounded(.down))
        b = Swift.max(0, Swift.min(Self.bins - 1, b))
        counts[b] += 1
        sums[b] += dt
        total += 1
    }

    func quantile(_ q: Double) -> Double {
        guard total > 0 else { return 0 }
        let target = Int((Double(total - 1) * q).rounded(.down)) + 1
        var acc = 0
        for (i, c) in counts.enumerated() {
            acc += c
            if acc >= target { return sums[i] / Double(c) }
        }
        return 0
    }

    func log10(_ x: Double) -> Double { Math.log(x) / 2.302585092994046 }
}

/// A `RecordingSink` that keeps only statistics: memory does not grow with the recording.
public struct SummarySink: RecordingSink {
    struct Acc {
        var name: String
        var kind: StreamKind
        var n = 0
        var first = Double.nan
        var last = -Double.infinity
        var prev = Double.nan
        var hist = IntervalHistogram()
        var sum = 0.0, sumSq = 0.0
        var duplicates = 0, outOfOrder = 0
        var magnitudeSum = 0.0
        var intervals: [Double] = []     // only the largest ones, for gap accounting
        var largest = 0.0
    }
    var accs: [Acc] = []
    var order: [Int] = []
    /// Position in `accs` of each stream name (declarations stay linear in the stream count).
    var byName: [String: Int] = [:]
    /// The metadata received (the last call wins).
    public var metadata = RecordingMetadata()
    var labelOrder: [String] = []
    var labelTotals: [String: (Double, Int)] = [:]
    var eventOrder: [String] = []
    var eventCounts: [String: Int] = [:]
    /// Intervals above this are kept for gap counting (capped list).
    let keepAbove = 0.05

    /// A sink with nothing seen yet.
    public init() {}

    /// Keeps `m` as the recording's metadata.
    public mutating func metadata(_ m: RecordingMetadata) { metadata = m }
    /// Declares stream `index`; a name declared before continues that stream's statistics.
    public mutating func declare(stream index: Int, name: String, kind: StreamKind) {
        while order.count <= index { order.append(-1) }
        if let i = byName[name] { order[index] = i; return }
        order[index] = accs.count
        byName[name] = accs.count
        accs.append(Acc(name: name, kind: kind))
    }
    /// Counts one sample (time in s, values in SI units) into its stream's statistics.
    public mutating func sample(stream index: Int, time: Seconds, values: UnsafeBufferPointer<Double>) {
        let i = order[index]
        accs[i].n += 1
        if accs[i].first.isNaN { accs[i].first = time }
        if time > accs[i].last { accs[i].last = time }
        let p = accs[i].prev
        if !p.isNaN {
            let dt = time - p
            if dt == 0 { accs[i].duplicates += 1 } else if dt < 0 { accs[i].outOfOrder += 1 } else {
                accs[i].hist.add(dt)
                accs[i].sum += dt; accs[i].sumSq += dt * dt
                if dt > keepAbove && accs[i].intervals.count < 100_000 { accs[i].intervals.append(dt) }
                if dt > accs[i].largest { accs[i].largest = dt }
            }
        }
        accs[i].prev = time
        if accs[i].kind == .attitude {
            // no meaningful magnitude
        } else if values.count == 3 {
            accs[i].magnitudeSum += (values[0] * values[0] + values[1] * values[1] + values[2] * values[2]).squareRoot()
        } else if let v = values.first, !v.isNaN {
            accs[i].magnitudeSum += v
        }
    }
    /// Adds the segment's duration (s) to its label's total.
    public mutating func label(_ l: LabelSegment) {
        if labelTotals[l.label] == nil { labelOrder.append(l.label); labelTotals[l.label] = (0, 0) }
        let t = labelTotals[l.label]!
        labelTotals[l.label] = (t.0 + l.duration, t.1 + 1)
    }
    /// Counts the event under its kind.
    public mutating func event(_ e: GroundTruthEvent) {
        if eventCounts[e.kind] == nil { eventOrder.append(e.kind) }
        eventCounts[e.kind, default: 0] += 1
    }

    /// The statistics so far as a summary of the file `path` (no left-out line: the reader sets it).
    public func summary(path: String) -> RecordingSummary {
        let streams = accs.map { a -> StreamSummary in
            let median = a.hist.quantile(0.5)
            let m = a.hist.total
            let mean = m > 0 ? a.sum / Double(m) : 0
            let variance = m > 1 ? Swift.max(0, (a.sumSq - Double(m) * mean * mean) / Double(m - 1)) : 0
            let limit = Swift.max(3 * median, keepAbove)
            let gapIntervals = a.intervals.filter { $0 > limit }
            return StreamSummary(
                name: a.name, kind: a.kind, samples: a.n, firstTime: a.n > 0 ? a.first : 0, lastTime: a.n > 0 ? a.last : 0,
                rateHz: median > 0 ? 1 / median : 0, medianIntervalS: median, jitterStdS: variance.squareRoot(),
                p99IntervalS: a.hist.quantile(0.99), gaps: gapIntervals.count, largestGapS: gapIntervals.max() ?? 0,
                missingTimeS: gapIntervals.reduce(0) { $0 + $1 - median }, duplicates: a.duplicates, outOfOrder: a.outOfOrder,
                meanMagnitude: a.n > 0 ? a.magnitudeSum / Double(a.n) : 0)
        }
        return RecordingSummary(path: path, metadata: metadata, streams: streams,
                                labels: labelOrder.map { ($0, labelTotals[$0]!.0, labelTotals[$0]!.1) },
                                events: eventOrder.map { ($0, eventCounts[$0]!) })
    }
}
