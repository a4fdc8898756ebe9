import MotusCore

/// Receives a recording piece by piece, as streaming readers produce it, so a consumer can
/// keep everything (`RecordingBuilder`) or only running statistics (bounded memory).
///
/// Order: `declare` for a stream comes before its first `sample`; metadata, labels and events
/// may come at any point.
public protocol RecordingSink {
    mutating func metadata(_ metadata: RecordingMetadata)
    /// Declares stream number `index` (0, 1, 2, … in order of declaration).
    mutating func declare(stream index: Int, name: String, kind: StreamKind)
    /// One sample of stream `index`; `values.count == kind.width`, SI units.
    mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>)
    mutating func label(_ label: LabelSegment)
    mutating func event(_ event: GroundTruthEvent)
}

/// Collects everything a reader produces into a `Recording`.
public struct RecordingBuilder: RecordingSink {
    public var recording = Recording()
    private var order: [Int] = []

    public init() {}

    public mutating func metadata(_ metadata: RecordingMetadata) { recording.metadata = metadata }
    public mutating func declare(stream index: Int, name: String, kind: StreamKind) {
        while order.count <= index { order.append(-1) }
        if let existing = recording.streams.firstIndex(where: { $0.name == name }) {
            order[index] = existing
        } else {
            order[index] = recording.streams.count
            recording.streams.append(SensorStream(kind: kind, name: name))
        }
    }
    public mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>) {
        recording.streams[order[index]].append(time: time, values: values)
    }
    public mutating func label(_ label: LabelSegment) { recording.labels.append(label) }
    public mutating func event(_ event: GroundTruthEvent) { recording.events.append(event) }

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
