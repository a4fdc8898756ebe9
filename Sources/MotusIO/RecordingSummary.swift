import MotusCore

/// What `motus inspect` reports about one stream, computed in one pass with bounded memory.
public struct StreamSummary: Sendable, Equatable, Codable {
    public var name: String
    public var kind: StreamKind
    public var samples: Int
    public var firstTime: Double
    public var lastTime: Double
    /// Rate from the median sampling interval (Hz); 0 with fewer than two samples.
    public var rateHz: Double
    /// Median sampling interval and its spread (s).
    public var medianIntervalS: Double
    public var jitterStdS: Double
    public var p99IntervalS: Double
    /// Intervals longer than 3 × the median (and longer than 50 ms): where data are missing.
    public var gaps: Int
    public var largestGapS: Double
    public var missingTimeS: Double
    /// Rows with the same time as the one before, and rows earlier than the one before.
    public var duplicates: Int
    public var outOfOrder: Int
    /// Mean of the vector norm (3-axis kinds) or of the first component; 0 for attitude.
    public var meanMagnitude: Double
    public var durationS: Double { samples > 1 ? lastTime - firstTime : 0 }
}

/// A recording's summary: metadata, streams, labels and events.
public struct RecordingSummary: Sendable, Equatable {
    public var path: String
    public var metadata: RecordingMetadata
    public var streams: [StreamSummary]
    /// Total seconds and segment count per label, in order of first appearance.
    public var labels: [(label: String, seconds: Double, segments: Int)]
    /// Count per event kind.
    public var events: [(kind: String, count: Int)]
    /// The last line, when it had no newline, looked cut and was left out.
    public var leftOut: LeftOutLine? = nil

    public static func == (a: RecordingSummary, b: RecordingSummary) -> Bool {
        a.path == b.path && a.metadata == b.metadata && a.streams == b.streams
            && a.labels.map(\.label) == b.labels.map(\.label) && a.events.map(\.kind) == b.events.map(\.kind) && a.leftOut == b.leftOut
    }

    public var timeRange: ClosedRange<Double>? {
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
    public var metadata = RecordingMetadata()
    var labelOrder: [String] = []
    var labelTotals: [String: (Double, Int)] = [:]
    var eventOrder: [String] = []
    var eventCounts: [String: Int] = [:]
    /// Intervals above this are kept for gap counting (capped list).
    let keepAbove = 0.05

    public init() {}

    public mutating func metadata(_ m: RecordingMetadata) { metadata = m }
    public mutating func declare(stream index: Int, name: String, kind: StreamKind) {
        while order.count <= index { order.append(-1) }
        if let i = byName[name] { order[index] = i; return }
        order[index] = accs.count
        byName[name] = accs.count
        accs.append(Acc(name: name, kind: kind))
    }
    public mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>) {
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
    public mutating func label(_ l: LabelSegment) {
        if labelTotals[l.label] == nil { labelOrder.append(l.label); labelTotals[l.label] = (0, 0) }
        let t = labelTotals[l.label]!
        labelTotals[l.label] = (t.0 + l.duration, t.1 + 1)
    }
    public mutating func event(_ e: GroundTruthEvent) {
        if eventCounts[e.kind] == nil { eventOrder.append(e.kind) }
        eventCounts[e.kind, default: 0] += 1
    }

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
