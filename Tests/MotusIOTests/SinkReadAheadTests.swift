import Testing
import MotusCore
@testable import MotusIO

/// `SinkReadAhead`: a pass parsed on a second thread reaches the sink with the very calls, in
/// the very order, that the pass into the sink directly makes, also when it fails.
@Suite struct SinkReadAheadTests {
    /// Writes every call down as a line.
    struct LogSink: RecordingSink {
        var lines: [String] = []
        mutating func metadata(_ m: RecordingMetadata) { lines.append("meta \(m.device ?? "-") \(m.extra.sorted { $0.key < $1.key })") }
        mutating func declare(stream index: Int, name: String, kind: StreamKind) { lines.append("declare \(index) \(name) \(kind)") }
        mutating func sample(stream index: Int, time: Double, values: UnsafeBufferPointer<Double>) {
            lines.append("sample \(index) \(time) \(Array(values))")
        }
        mutating func label(_ l: LabelSegment) { lines.append("label \(l.start) \(l.end) \(l.label)") }
        mutating func event(_ e: GroundTruthEvent) { lines.append("event \(e.time) \(e.kind) \(e.detail)") }
        mutating func expectSamples(_ count: Int) { lines.append("expect \(count)") }
    }

    /// A pass over `n` samples of two streams of different widths, with every other kind of
    /// call between them, at batch boundaries too; it fails after sample `failAt` when given.
    static func pass<S: RecordingSink>(_ sink: inout S, samples n: Int, failAt: Int? = nil) throws(InputError) {
        sink.expectSamples(n)
        sink.metadata(RecordingMetadata(device: "phone"))
        sink.declare(stream: 0, name: "acc", kind: .acceleration)
        var v = [0.0, 0, 0, 0]
        for k in 0..<n {
            if k == 3000 { sink.declare(stream: 1, name: "att", kind: .attitude) }
            if k == SinkReadAhead.batchSize || k == 2 * SinkReadAhead.batchSize - 1 {
                sink.label(LabelSegment(start: Double(k), end: Double(k + 1), label: "walk"))
                sink.event(GroundTruthEvent(time: Double(k), kind: "step", detail: "left"))
            }
            if k == 7000 { var m = RecordingMetadata(device: "phone"); m.extra["note"] = "later"; sink.metadata(m) }
            if let failAt, k == failAt {
                throw InputError(.badValue, at: SourceLocation(file: "x.csv", line: k + 2, column: 3), found: "x", expected: "a number")
            }
            let s = k >= 3000 && k % 3 == 0 ? 1 : 0
            let width = s == 1 ? 4 : 3
            for c in 0..<width { v[c] = Double(k) + Double(c) / 10 }
            v.withUnsafeBufferPointer { sink.sample(stream: s, time: Double(k) / 100, values: UnsafeBufferPointer(rebasing: $0[0..<width])) }
        }
        sink.event(GroundTruthEvent(time: 1e6, kind: "end"))
    }

    @Test(arguments: [0, 1, SinkReadAhead.batchSize, 3 * SinkReadAhead.batchSize + 17])
    func everyCallArrivesInOrder(samples n: Int) throws {
        var direct = LogSink()
        try Self.pass(&direct, samples: n)
        var ahead = LogSink()
        try SinkReadAhead.run(into: &ahead) { (b: inout BatchingSink) throws(InputError) in try Self.pass(&b, samples: n) }
        #expect(ahead.lines.count == direct.lines.count)
        #expect(ahead.lines == direct.lines)
    }

    @Test(arguments: [0, 5, SinkReadAhead.batchSize, 2 * SinkReadAhead.batchSize + 5])
    func aFailingPassDeliversWhatCameBeforeTheError(failAt k: Int) {
        var direct = LogSink()
        let e1 = #expect(throws: InputError.self) { try Self.pass(&direct, samples: 20_000, failAt: k) }
        var ahead = LogSink()
        let e2 = #expect(throws: InputError.self) {
            try SinkReadAhead.run(into: &ahead) { (b: inout BatchingSink) throws(InputError) in try Self.pass(&b, samples: 20_000, failAt: k) }
        }
        #expect(e1 != nil && e1 == e2)
        #expect(ahead.lines == direct.lines)
        #expect(ahead.lines.filter { $0.hasPrefix("sample") }.count == k)
    }

    @Test func aPassReturnsItsValue() throws {
        var sink = LogSink()
        let r = try SinkReadAhead.run(into: &sink) { (b: inout BatchingSink) throws(InputError) -> Int in
            try Self.pass(&b, samples: 10)
            return 42
        }
        #expect(r == 42 && sink.lines.filter { $0.hasPrefix("sample") }.count == 10)
    }
}
