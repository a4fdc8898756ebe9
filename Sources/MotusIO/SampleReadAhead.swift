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

/// The hand-over between the thread that parses a file (`SampleReader.forEachReadingAhead`)
/// and the one that uses its samples: a ring of batches, filled in order by one thread and
/// emptied in order by the other. The two semaphores count the empty and the filled batches;
/// each wait orders the batch's memory between the threads, so the batches need no lock.
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
    private let ring: [Batch]
    // Made at 0 and signalled up to the ring's size: libdispatch traps when a semaphore is
    // freed holding less than the value it was made with, as `empty` does when the pass ends.
    private let empty = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// The next batch to hand over (consumer side).
    private var taken = 0

    init(reader: SampleReader) {
        self.reader = reader
        ring = (0..<SampleReadAhead.batches).map { _ in Batch() }
        for _ in ring { empty.signal() }
    }

    /// Starts the parsing thread: every sample of `reader.forEach` into the ring, in order,
    /// the last batch marked (with the error, when one ended the pass). It runs on a queue of
    /// its own rather than on the shared pool, whose threads may all be callers waiting here
    /// for their batches (libdispatch gives such a queue a thread of its own when needed).
    func start() {
        DispatchQueue(label: "motus.sample-read-ahead", qos: .userInitiated).async { [self] in
            var index = 0
            empty.wait()
            var batch = ring[0]
            batch.samples.removeAll(keepingCapacity: true)
            do throws(InputError) {
                try reader.forEach { s in
                    batch.samples.append(s)
                    if batch.samples.count == SampleReadAhead.batchSize {
                        filled.signal()
                        index += 1
                        empty.wait()
                        batch = ring[index % SampleReadAhead.batches]
                        batch.samples.removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                batch.failure = error
            }
            batch.isLast = true
            filled.signal()
            done.signal()
        }
    }

    /// The next filled batch, waiting for it.
    func next() -> Batch {
        filled.wait()
        return ring[taken % SampleReadAhead.batches]
    }

    /// Gives the batch `next` returned back to the parsing thread.
    func recycle() {
        taken += 1
        empty.signal()
    }

    /// Waits until the parsing thread has left (after the last batch).
    func finish() {
        done.wait()
    }
}
