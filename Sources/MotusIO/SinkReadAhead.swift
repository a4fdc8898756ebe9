import Foundation
import MotusCore

/// A reader's pass into a `RecordingSink`, parsed on a second thread while this one hands the
/// sink what was parsed: `motus convert` reads a file on one core and formats it on the other.
///
/// The parsing thread runs the pass into a sink that writes every call down, in order, into
/// batches (`SinkReadAhead.batchSize` samples each, flat; a metadata, stream, label or event
/// call is kept with the number of samples before it) handed over in a `ReadAheadRing`; this
/// thread replays each batch into the caller's sink. The sink therefore sees the very calls, in
/// the very order, that the pass into it directly would make, and when the pass fails it has
/// had every call made before the failure. The parsing thread runs at most
/// `SinkReadAhead.batches` batches ahead, so memory stays bounded however long the file is,
/// and the batches are reused.
///
/// A sink that can be satisfied early (`RecordingSink.isSatisfied`) cannot tell the parsing
/// thread so in time: read into it directly instead, as on a machine with one core
/// (`worthIt`).
public enum SinkReadAhead {
    /// Whether a second thread can parse ahead here: more than one core online.
    public static var worthIt: Bool { SampleReadAhead.cores > 1 }

    /// Samples per batch.
    static let batchSize = 4096
    /// Batches in the ring: how far the parsing thread may run ahead.
    static let batches = 4

    /// Runs `pass` with a sink whose calls reach `sink`, in order, on this thread, while `pass`
    /// runs on a second one; returns what `pass` returned, or throws the error it threw after
    /// `sink` has had every call made before it. `pass` must only call its sink (and read
    /// files): it runs on another thread. The task-local reading policy
    /// (`ReadingPolicy.incompleteLastLine`) in force here is in force there too.
    public static func run<S: RecordingSink, R: Sendable>(
        into sink: inout S, _ pass: @escaping @Sendable (inout BatchingSink) throws(InputError) -> R
    ) throws(InputError) -> R {
        let ring = ReadAheadRing((0..<SinkReadAhead.batches).map { _ in BatchingSink.Batch() })
        let policy = ReadingPolicy.incompleteLastLine
        ring.start("motus.sink-read-ahead") {
            var batching = BatchingSink(ring: ring)
            let outcome: Result<R, InputError> = ReadingPolicy.$incompleteLastLine.withValue(policy) {
                do throws(InputError) { return Result<R, InputError>.success(try pass(&batching)) } catch { return .failure(error) }
            }
            batching.batch.isLast = true
            batching.batch.outcome = outcome
            ring.close()
        }
        var result: Result<R, InputError>? = nil
        while result == nil {
            let batch = ring.next()
            batch.replay(into: &sink)
            if batch.isLast {
                // The last batch carries the pass's outcome, of the type the pass returns.
                guard let outcome = batch.outcome as? Result<R, InputError> else { preconditionFailure("the pass's outcome is a Result<R, InputError>") }
                result = outcome
            }
            ring.recycle()
        }
        ring.finish()
        return try result!.get()
    }
}

/// The sink `SinkReadAhead.run` gives its pass: it writes every call down into the ring's
/// batches, and hands a batch over once it holds `SinkReadAhead.batchSize` samples.
public struct BatchingSink: RecordingSink {
    /// A call other than a sample, with the number of the batch's samples before it.
    enum Call {
        case metadata(RecordingMetadata)
        case declare(Int, String, StreamKind)
        case label(LabelSegment)
        case event(GroundTruthEvent)
        case expectSamples(Int)
    }

    /// One batch of calls: the samples flat (stream, time, where their values start), the
    /// other calls beside them; whether it ends the pass, and how.
    final class Batch {
        var streams: [Int] = []
        var times: [Double] = []
        var starts: [Int] = []
        var values: [Double] = []
        var calls: [(before: Int, call: Call)] = []
        var isLast = false
        var outcome: Any? = nil

        init() {
            streams.reserveCapacity(SinkReadAhead.batchSize); times.reserveCapacity(SinkReadAhead.batchSize)
            starts.reserveCapacity(SinkReadAhead.batchSize + 1); values.reserveCapacity(4 * SinkReadAhead.batchSize)
            starts.append(0)
        }

        func clear() {
            streams.removeAll(keepingCapacity: true); times.removeAll(keepingCapacity: true)
            starts.removeAll(keepingCapacity: true); starts.append(0)
            values.removeAll(keepingCapacity: true); calls.removeAll(keepingCapacity: true)
        }

        /// Makes the batch's calls on `sink`, in the order they were made.
        func replay<S: RecordingSink>(into sink: inout S) {
            var next = 0
            func callsBefore(_ k: Int, _ sink: inout S) {
                while next < calls.count && calls[next].before == k {
                    switch calls[next].call {
                    case .metadata(let m): sink.metadata(m)
                    case .declare(let i, let name, let kind): sink.declare(stream: i, name: name, kind: kind)
                    case .label(let l): sink.label(l)
                    case .event(let e): sink.event(e)
                    case .expectSamples(let n): sink.expectSamples(n)
                    }
                    next += 1
                }
            }
            values.withUnsafeBufferPointer { v in
                for k in 0..<times.count {
                    callsBefore(k, &sink)
                    let a = starts[k], b = starts[k + 1]
                    sink.sample(stream: streams[k], time: times[k], values: UnsafeBufferPointer(rebasing: v[a..<b]))
                }
            }
            callsBefore(times.count, &sink)
        }
    }

    private let ring: ReadAheadRing<Batch>
    var batch: Batch

    init(ring: ReadAheadRing<Batch>) {
        self.ring = ring
        batch = ring.firstEmpty()
        batch.clear()
    }

    private mutating func note(_ call: Call) { batch.calls.append((batch.times.count, call)) }

    public mutating func metadata(_ m: RecordingMetadata) { note(.metadata(m)) }
    public mutating func declare(stream index: Int, name: String, kind: StreamKind) { note(.declare(index, name, kind)) }
    public mutating func label(_ l: LabelSegment) { note(.label(l)) }
    public mutating func event(_ e: GroundTruthEvent) { note(.event(e)) }
    public mutating func expectSamples(_ count: Int) { note(.expectSamples(count)) }

    public mutating func sample(stream i: Int, time: Double, values: UnsafeBufferPointer<Double>) {
        batch.streams.append(i); batch.times.append(time)
        batch.values.append(contentsOf: values); batch.starts.append(batch.values.count)
        if batch.times.count == SinkReadAhead.batchSize {
            batch = ring.handOver()
            batch.clear()
        }
    }
}
