/// Walks the samples of several streams in time order, as a live app receives them: the next
/// sample is the earliest not yet visited; on equal timestamps the stream listed first comes
/// first. Batch runs (`MotionSession.run`, `FrameBuilder.frames(of:)`) use it so that a
/// recording replayed offline feeds the same calls, in the same order, as it would live.
///
/// Reads the streams in place: `next()` gives the stream's position in `streams` and the
/// sample's index, and allocates nothing. O(streams) per sample.
public struct SampleMerge: Sendable {
    /// The streams, in tie-break order.
    public let streams: [SensorStream]
    /// Each stream's kind (read per sample without touching the stream).
    public let kinds: [StreamKind]
    @usableFromInline var positions: [Int]

    /// The non-empty streams of `recording` whose kinds are in `kinds`, in that order (the
    /// tie-break order).
    public init(_ recording: Recording, kinds: [StreamKind]) {
        var s: [SensorStream] = []
        for k in kinds { if let st = recording.stream(k), !st.isEmpty { s.append(st) } }
        self.init(streams: s)
    }

    /// The merge of `streams`, in this order for equal times.
    public init(streams: [SensorStream]) {
        self.streams = streams
        kinds = streams.map(\.kind)
        positions = [Int](repeating: 0, count: streams.count)
    }

    /// The next sample: (position of its stream in `streams`, sample index, time); nil at the end.
    @inlinable
    public mutating func next() -> (stream: Int, index: Int, time: Seconds)? {
        var best = -1
        var bestT = Double.infinity
        for j in 0..<streams.count where positions[j] < streams[j].count {
            let t = streams[j].times[positions[j]]
            if best < 0 || t < bestT { best = j; bestT = t }
        }
        guard best >= 0 else { return nil }
        let i = positions[best]
        positions[best] = i + 1
        return (best, i, bestT)
    }

    /// Sample `index` of three-axis stream `stream`, read in place.
    @inlinable
    public func vector(_ stream: Int, _ index: Int) -> Vector3 { streams[stream].vector(index) }
}
