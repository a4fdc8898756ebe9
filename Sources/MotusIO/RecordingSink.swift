import MotusCore

/// Receives a recording piece by piece, as streaming readers produce it, so a consumer can
/// keep everything (`RecordingBuilder`) or only running statistics (bounded memory).
///
/// Order: `declare` for a stream comes before its first `sample`; metadata, labels and events
/// may come at any point.
public protocol RecordingSink {
    /// The recording's metadata (device, placement, subject, nominal rate …); a later call
    /// replaces an earlier one.
    mutating func metadata(_ metadata: RecordingMetadata)
    /// Declares stream number `index` (0, 1, 2, … in order of declaration).
    mutating func declare(stream index: Int, name: String, kind: StreamKind)
    /// One sample of stream `index`; `values.count == kind.width`, SI units.
    mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>)
    /// A label segment: the interval [start, end) in seconds carries the label.
    mutating func label(_ label: LabelSegment)
    /// A ground-truth event at a time in seconds (a reference step, say).
    mutating func event(_ event: GroundTruthEvent)
    /// A hint that about `count` samples per stream will follow (readers that know the file
    /// size call it so in-memory sinks can reserve capacity once).
    mutating func expectSamples(_ count: Int)
    /// True when the sink wants no more samples: a reader that checks it between rows stops
    /// there, having read no further (the delimited reader does).
    var isSatisfied: Bool { get }
}

extension RecordingSink {
    /// Ignores the hint: a sink that keeps nothing per sample has nothing to reserve.
    public mutating func expectSamples(_ count: Int) {}
    /// Never satisfied: the whole file is read.
    public var isSatisfied: Bool { false }
}

/// Collects everything a reader produces into a `Recording`. Samples go straight into the
/// arrays the recording will hold (capacity reserved once from the reader's size hint), so
/// building costs no second copy.
public struct RecordingBuilder: RecordingSink {
    struct Column {
        var name: String
        var kind: StreamKind
        var times: [Double] = []
        var values: [Double] = []
    }
    private var metadataValue = RecordingMetadata()
    private var columns: [Column] = []
    private var order: [Int] = []
    private var labels: [LabelSegment] = []
    private var events: [GroundTruthEvent] = []

    /// An empty builder.
    public init() {}

    /// The recording collected so far.
    public var recording: Recording {
        Recording(metadata: metadataValue,
                  streams: columns.map { SensorStream(kind: $0.kind, name: $0.name, times: $0.times, values: $0.values) },
                  labels: labels, events: events)
    }

    /// Keeps `metadata` as the recording's (the last call wins).
    public mutating func metadata(_ metadata: RecordingMetadata) { metadataValue = metadata }
    /// Declares stream `index`; a name declared before (an appended file declaring its streams
    /// again) continues that stream rather than starting a second one.
    public mutating func declare(stream index: Int, name: String, kind: StreamKind) {
        while order.count <= index { order.append(-1) }
        if let existing = columns.firstIndex(where: { $0.name == name }) {
            order[index] = existing
        } else {
            order[index] = columns.count
            columns.append(Column(name: name, kind: kind))
        }
    }
    /// Appends one sample (time in s, values in SI units) to stream `index`'s arrays.
    @inline(__always)
    public mutating func sample(stream index: Int, time: Seconds, values: UnsafeBufferPointer<Double>) {
        let k = order[index]
        columns[k].times.append(time)
        for v in values { columns[k].values.append(v) }
    }
    /// Reserves room for about `count` samples in every stream declared so far.
    public mutating func expectSamples(_ count: Int) {
        for k in columns.indices {
            columns[k].times.reserveCapacity(count)
            columns[k].values.reserveCapacity(count * columns[k].kind.width)
        }
    }
    /// Appends a label segment, in the order received.
    public mutating func label(_ label: LabelSegment) { labels.append(label) }
    /// Appends a ground-truth event, in the order received.
    public mutating func event(_ event: GroundTruthEvent) { events.append(event) }

    /// Name and kind of each column, in order (the parallel reader numbers its chunks' streams so).
    var declaredColumns: [(name: String, kind: StreamKind)] { columns.map { ($0.name, $0.kind) } }
    func columnTimes(_ k: Int) -> [Double] { columns[k].times }
    /// Appends `other`'s samples, labels and events after this builder's (same columns),
    /// emptying `other` first so its arrays are not shared while they are copied.
    mutating func append(contentsOf other: inout RecordingBuilder) {
        let taken = other
        other = RecordingBuilder()
        for k in columns.indices {
            columns[k].times.append(contentsOf: taken.columns[k].times)
            columns[k].values.append(contentsOf: taken.columns[k].values)
        }
        labels += taken.labels
        events += taken.events
    }
    /// Puts `other`'s labels and events before this builder's.
    mutating func prepend(labelsAndEventsOf other: RecordingBuilder) {
        labels = other.labels + labels
        events = other.events + events
    }

    /// Feeds a whole recording to a sink (for writers and statistics over in-memory data).
    public static func replay<S: RecordingSink>(_ r: Recording, into sink: inout S) {
        sink.metadata(r.metadata)
        for (i, s) in r.streams.enumerated() {
            sink.declare(stream: i, name: s.name, kind: s.kind)
        }
        // Interleave streams by time so a replay looks like a live recording.
        var next = [Int](repeating: 0, count: r.streams.count)
        while true {
            var best = -1, bestT = Double.infinity
            for (i, s) in r.streams.enumerated() where next[i] < s.count && s.times[next[i]] < bestT {
                best = i; bestT = s.times[next[i]]
            }
            if best < 0 {
                // NaN timestamps (never produced by readers) would stall the loop: flush them.
                var any = false
                for (i, s) in r.streams.enumerated() where next[i] < s.count {
                    any = true
                    let j = next[i]
                    s.values.withUnsafeBufferPointer { v in
                        sink.sample(stream: i, time: s.times[j], values: UnsafeBufferPointer(rebasing: v[j * s.width ..< (j + 1) * s.width]))
                    }
                    next[i] += 1
                }
                if !any { break } else { continue }
            }
            let s = r.streams[best], j = next[best]
            s.values.withUnsafeBufferPointer { v in
                sink.sample(stream: best, time: bestT, values: UnsafeBufferPointer(rebasing: v[j * s.width ..< (j + 1) * s.width]))
            }
            next[best] += 1
        }
        for l in r.labels { sink.label(l) }
        for e in r.events { sink.event(e) }
    }
}
