import Dispatch
import MotusCore

extension SampleReader {
    /// Calls `body` with every sample, exactly as `forEach(_:)` does (the same samples in the
    /// same order, the same checks, the same error after the same samples), while a second
    /// thread reads and parses the file ahead of it.
    ///
    /// Parsing a long native or delimited file takes about 40 % of `motus track`'s time; on a
    /// machine with two cores or more it overlaps the work `body` does. The second
    /// thread runs at most `SampleReadAhead.batches` batches of `SampleReadAhead.batchSize`
    /// samples ahead, so memory stays bounded however long the file is, and the batches are
    /// reused, so nothing is allocated per sample. A recording read whole (a dataset file, a
    /// pipe) has nothing left to parse and is walked on this thread.
    public mutating func forEachReadingAhead(_ body: (SensorSample) -> Void) throws(InputError) {
        try forEach(readingAhead: SampleReadAhead.cores > 1, body)
    }

    /// `forEachReadingAhead` with the choice of a second thread given (tests force it on a
    /// machine with one core).
    mutating func forEach(readingAhead: Bool, _ body: (SensorSample) -> Void) throws(InputError) {
        guard isStreamed, readingAhead else { return try forEach(body) }
        let ahead = SampleReadAhead(reader: self)
        ahead.start()
        var failure: InputError? = nil
        while true {
            let batch = ahead.next()
            for s in batch.samples { body(s) }
            if batch.isLast { failure = batch.failure; break }
            ahead.recycle()
        }
        ahead.finish()
        checked = ahead.reader.checked
        if let failure { throw failure }
    }
}

/// The read-ahead of `SampleReader.forEachReadingAhead`: the reader's samples, parsed on a
/// second thread, handed over in a `ReadAheadRing` of batches.
final class SampleReadAhead: @unchecked Sendable {
    /// Samples per batch.
    static let batchSize = 4096
    /// Batches in the ring: how far the parsing thread may run ahead.
    static let batches = 4
    /// Processors online; read once.
    static let cores = onlineProcessors()

    /// One batch: its samples, and whether it ends the file (with the error that ended it).
    final class Batch {
        var samples: [SensorSample] = []
        var isLast = false
        var failure: InputError? = nil
        init() { samples.reserveCapacity(SampleReadAhead.batchSize) }
    }

    /// The reader, as the parsing thread leaves it (its `checked` flag after a full pass).
    var reader: SampleReader
    private let ring = ReadAheadRing((0..<SampleReadAhead.batches).map { _ in Batch() })

    init(reader: SampleReader) { self.reader = reader }

    /// Starts the parsing thread: every sample of `reader.forEach` into the ring, in order,
    /// the last batch marked (with the error, when one ended the pass).
    func start() {
        ring.start("motus.sample-read-ahead") { [self] in
            var batch = ring.firstEmpty()
            batch.samples.removeAll(keepingCapacity: true)
            do throws(InputError) {
                try reader.forEach { s in
                    batch.samples.append(s)
                    if batch.samples.count == SampleReadAhead.batchSize {
                        batch = ring.handOver()
                        batch.samples.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                batch.failure = error
            }
            batch.isLast = true
            ring.close()
        }
    }

    /// The next filled batch, waiting for it.
    func next() -> Batch { ring.next() }

    /// Gives the batch `next` returned back to the parsing thread.
    func recycle() { ring.recycle() }

    /// Waits until the parsing thread has left (after the last batch).
    func finish() { ring.finish() }
}
