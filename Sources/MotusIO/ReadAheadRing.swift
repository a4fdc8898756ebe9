import Foundation

/// The hand-over between a thread that parses a file and the one that uses what it parsed, for
/// both read-aheads (`SampleReadAhead`, `SinkReadAhead`): a ring of batches, filled in order by
/// one thread and emptied in order by the other. The two semaphores count the empty and the
/// filled batches; each wait orders a batch's memory between the threads, so the batches need
/// no lock. The parsing side calls `firstEmpty`, `handOver` for each full batch and `close`
/// after the last; the using side `next`, `recycle` after each batch, and `finish`.
final class ReadAheadRing<Batch: AnyObject>: @unchecked Sendable {
    let batches: [Batch]
    // Made at 0 and signalled up to the ring's size: libdispatch traps when a semaphore is
    // freed holding less than the value it was made with, as `empty` does when the pass ends.
    private let empty = DispatchSemaphore(value: 0)
    private let filled = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    /// The batch the parsing side fills (`handOver`) and the next one to hand over (`next`).
    private var filling = 0, taken = 0

    init(_ batches: [Batch]) {
        self.batches = batches
        for _ in batches { empty.signal() }
    }

    /// Runs `pass` on a queue of its own rather than on the shared pool, whose threads may all
    /// be callers waiting here for their batches (libdispatch gives such a queue a thread of
    /// its own when needed).
    func start(_ label: String, _ pass: @escaping @Sendable () -> Void) {
        DispatchQueue(label: label, qos: .userInitiated).async(execute: pass)
    }

    /// The first batch to fill, once it is free (parsing side).
    func firstEmpty() -> Batch {
        empty.wait()
        return batches[0]
    }

    /// Hands the batch being filled over and returns the next one, once it is free (parsing side).
    func handOver() -> Batch {
        filled.signal()
        filling += 1
        empty.wait()
        return batches[filling % batches.count]
    }

    /// Hands the last batch over and says the parsing side has left (parsing side).
    func close() {
        filled.signal()
        done.signal()
    }

    /// The next filled batch, waiting for it.
    func next() -> Batch {
        filled.wait()
        return batches[taken % batches.count]
    }

    /// Gives the batch `next` returned back to the parsing side.
    func recycle() {
        taken += 1
        empty.signal()
    }

    /// Waits until the parsing side has left (after the last batch).
    func finish() { done.wait() }
}
