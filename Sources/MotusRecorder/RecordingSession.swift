import Foundation
import MotusCore
import MotusIO

/// Seconds since the Unix epoch from the laptop's wall clock.
public func wallClock() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// Seconds from an arbitrary origin that never steps back (for rates and timeouts).
public func monotonicClock() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// One live recording: a single writer thread that owns a `NativeWriter`, fed by any number
/// of sources through a bounded queue.
///
/// - Sources (`registerSource`) hand over parsed samples as `SampleBatch`es with `submit`.
///   When more than `queueCapacity` samples wait, a batch is refused and its samples are
///   counted as dropped (UDP), or the caller answers "busy" (HTTP): memory stays bounded.
/// - The writer appends and flushes at least every `flushInterval` seconds (0.25 s), so
///   `kill -9` loses at most that; it `fsync`s every `syncInterval` seconds and on `finish`.
/// - A write failure (full disk, read-only folder, removed file) stops the session at once:
///   `failure` is set and `onFailure` is called.
/// - Samples of a stream more than `lateTolerance` seconds older than the newest one already
///   written are counted as late and left out (the native format allows steps back of up to
///   1 s; within that, rows are kept for the resampler to re-sort).
/// - Each source's streams are named by kind (`acc`, `gyro`, …); a second source's get a
///   suffix (`acc.2`). Each source is described in `@meta,x.source.N`, with the estimated
///   offset of its clock from the laptop's (`x.clock_offset_s.N`, phone − laptop, the largest
///   value of sample time − receive time seen, written when the first sample arrives and at
///   the end).
/// - Labels (`setLabel`), events (`mark`) and pauses (`setPaused`) are taken at laptop time and
///   written on the clock of the first source that sent a sample (laptop time plus that
///   source's clock offset). A label in force is written as a segment every second (so a
///   crash loses at most a second of it); consecutive segments of one label are contiguous.
public final class RecordingSession: @unchecked Sendable {
    public struct Configuration: Sendable {
        /// The `.motus` file to write.
        public var path: String
        public var metadata: RecordingMetadata
        /// A label in force for the whole recording (`--label`).
        public var fixedLabel: String?
        /// Samples that may wait for the writer before batches are refused.
        public var queueCapacity: Int = 1 << 18
        public var flushInterval: Double = 0.25
        public var syncInterval: Double = 5
        public var lateTolerance: Double = 0.9
        /// How often a label in force is written out as a segment.
        public var labelCheckpoint: Double = 1
        public init(path: String, metadata: RecordingMetadata = RecordingMetadata(), fixedLabel: String? = nil) {
            self.path = path; self.metadata = metadata; self.fixedLabel = fixedLabel
        }
    }

    public struct StreamStats: Sendable, Equatable {
        public var name: String
        public var kind: StreamKind
        public var source: Int
        public var samples: Int
        public var lastTime: Double
    }

    public struct Stats: Sendable, Equatable {
        public var streams: [StreamStats] = []
        /// Samples written to the file.
        public var written = 0
        /// Samples refused because the queue was full (overload) or the session had failed.
        public var dropped = 0
        /// Samples older than `lateTolerance` behind their stream (left out).
        public var late = 0
        /// Packets, lines or readings that did not parse.
        public var malformed = 0
        /// Records that parsed but held nothing recorded.
        public var ignored = 0
        /// Samples received while paused (not recorded).
        public var whilePaused = 0
        public var label: String?
        public var paused = false
        /// Laptop seconds since the session started.
        public var duration = 0.0
        public var bytesWritten = 0
        public var failure: String?
    }

    enum Item {
        case batch(SampleBatch)
        case label(String?, Double)
        case event(String, String, Double)
        case pause(Bool, Double)
    }

    public let configuration: Configuration
    public let startedAt: Double
    let writer: NativeWriter
    let condition = NSCondition()
    // Guarded by `condition`:
    var items: [Item] = []
    var queued = 0
    var stopping = false
    var finished = false
    var shared = Stats()
    var sources: [(key: String, description: String)] = []
    var thread: Thread?
    // Writer-thread state:
    var streamTable: [Int] = []         // [source * kinds + kind ordinal] -> stream, -1 when none
    var streams: [StreamStats] = []
    var lastTime: [Double] = []
    var clockOffset: [Double] = []      // per source, -inf until the first sample
    var primarySource = -1
    var label: String?
    var labelStart: Double?             // on the recording clock
    var lastLabelWrite = 0.0
    var paused = false
    var lastFlush = 0.0
    var lastSync = 0.0
    var local = Stats()
    var failureValue: NativeWriter.WriteError?
    var offsetsWritten: Set<Int> = []

    /// Called once, on the writer thread, when writing fails.
    public var onFailure: (@Sendable (NativeWriter.WriteError) -> Void)?

    /// Opens (creates) the file, writes the metadata, and starts the writer thread.
    public init(configuration: Configuration) throws(NativeWriter.WriteError) {
        self.configuration = configuration
        startedAt = wallClock()
        writer = try NativeWriter(path: configuration.path)
        var m = configuration.metadata
        m.extra["recorded_at_unix_s"] = "\(startedAt)"
        m.extra["recorder"] = "motus record"
        writer.metadata(m)
        writer.comment("recorded live by motus record; laptop start \(startedAt) s since the Unix epoch; streams keep their source's clock, see x.source.N and x.clock_offset_s.N")
        try writer.flush()
        lastFlush = monotonicClock(); lastSync = lastFlush; lastLabelWrite = lastFlush
        if let l = configuration.fixedLabel { label = l; labelStart = startedAt; shared.label = l }
        let t = Thread { [unowned self] in self.run() }
        t.name = "motus-writer"
        thread = t
        t.start()
    }

    /// The recording's file name in `folder` for a session starting at `start` (s since the
    /// Unix epoch): `recording-YYYYMMDD-HHMMSS.motus` in UTC, with `-2`, `-3`… if taken.
    public static func outputPath(folder: String, start: Double) -> String {
        var t = time_t(start)
        var tmv = tm()
        gmtime_r(&t, &tmv)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let stamp = "\(tmv.tm_year + 1900)\(two(tmv.tm_mon + 1))\(two(tmv.tm_mday))-\(two(tmv.tm_hour))\(two(tmv.tm_min))\(two(tmv.tm_sec))"
        var p = folder + "/recording-" + stamp + ".motus"
        var n = 2
        while access(p, F_OK) == 0 { p = folder + "/recording-\(stamp)-\(n).motus"; n += 1 }
        return p
    }

    // MARK: Producers (any thread)

    /// Registers a source (a phone, a UDP peer, standard input) and returns its number (1, 2, …).
    public func registerSource(key: String, description: String) -> Int {
        condition.lock(); defer { condition.unlock() }
        if let i = sources.firstIndex(where: { $0.key == key }) { return i + 1 }
        sources.append((key, description))
        return sources.count
    }

    /// Queues a batch for the writer. False when refused (queue full or session stopped); the
    /// samples are then counted as dropped.
    @discardableResult
    public func submit(_ batch: SampleBatch) -> Bool {
        if batch.isEmpty { return true }
        condition.lock(); defer { condition.unlock() }
        if stopping || failureValue != nil || queued + batch.count > configuration.queueCapacity {
            shared.dropped += batch.count
            return false
        }
        queued += batch.count
        items.append(.batch(batch))
        if items.count == 1 { condition.signal() }
        return true
    }

    /// Counts what a parser rejected or ignored.
    public func count(_ o: ParseOutcome) {
        if o.malformed == 0 && o.ignored == 0 { return }
        condition.lock(); shared.malformed += o.malformed; shared.ignored += o.ignored; condition.unlock()
    }

    /// Counts samples refused upstream (e.g. a UDP packet too large to read).
    public func countDropped(_ n: Int) { condition.lock(); shared.dropped += n; condition.unlock() }

    /// Starts `label` (nil: no label) at laptop time `at`.
    public func setLabel(_ label: String?, at: Double = wallClock()) { enqueueControl(.label(label, at)) }

    /// Writes an event (e.g. kind "mark") at laptop time `at`.
    public func mark(_ kind: String, detail: String = "", at: Double = wallClock()) { enqueueControl(.event(kind, detail, at)) }

    /// Pauses or resumes recording at laptop time `at` (samples received while paused are
    /// counted, not written; "pause"/"resume" events are written).
    public func setPaused(_ paused: Bool, at: Double = wallClock()) { enqueueControl(.pause(paused, at)) }

    func enqueueControl(_ item: Item) {
        condition.lock(); defer { condition.unlock() }
        if stopping { return }
        items.append(item)
        switch item {
        case .label(let l, _): shared.label = l
        case .pause(let p, _): shared.paused = p
        default: break
        }
        condition.signal()
    }

    /// A snapshot of the counters.
    public func stats() -> Stats {
        condition.lock(); defer { condition.unlock() }
        var s = shared
        s.duration = wallClock() - startedAt
        return s
    }

    /// The write error that stopped the session, if any.
    public var failure: NativeWriter.WriteError? {
        condition.lock(); defer { condition.unlock() }
        return failureValue
    }

    /// Writes what is queued, closes the last label segment, flushes, syncs and closes the
    /// file. Idempotent. Throws the write error that stopped the session, if any.
    @discardableResult
    public func finish() throws(NativeWriter.WriteError) -> Stats {
        condition.lock()
        let first = !stopping
        stopping = true
        condition.broadcast()
        condition.unlock()
        if first {
            while true {
                condition.lock()
                let done = finished
                condition.unlock()
                if done { break }
                usleep(2000)
            }
        }
        if let f = failure { throw f }
        return stats()
    }

    // MARK: Writer thread

    func run() {
        while true {
            condition.lock()
            while items.isEmpty && !stopping {
                let due = lastFlush + configuration.flushInterval - monotonicClock()
                if due <= 0 { break }
                _ = condition.wait(until: Date(timeIntervalSinceNow: due))
            }
            let work = items
            items.removeAll(keepingCapacity: true)
            queued = 0
            let stop = stopping
            condition.unlock()

            if failureValue == nil {
                for item in work { process(item) }
                let now = monotonicClock()
                if stop || now - lastFlush >= configuration.flushInterval { flushTick(now: now, final: stop) }
            }
            publish()
            if stop || failureValue != nil { break }
        }
        if failureValue == nil {
            do { try writer.close() } catch { fail(error) }
        }
        publish()
        condition.lock(); finished = true; stopping = true; condition.unlock()
    }

    func fail(_ e: NativeWriter.WriteError) {
        if failureValue != nil { return }
        condition.lock(); failureValue = e; shared.failure = e.description; condition.unlock()
        onFailure?(e)
    }

    /// Copies writer-side counters into the shared snapshot.
    func publish() {
        condition.lock()
        shared.streams = streams
        shared.written = local.written
        shared.late = local.late
        shared.whilePaused = local.whilePaused
        shared.malformed += local.malformed; local.malformed = 0
        shared.bytesWritten = writer.bytesWritten
        condition.unlock()
    }

    /// The recording clock at laptop time `t`: the primary source's clock.
    func recordingTime(_ t: Double) -> Double {
        guard primarySource >= 0, clockOffset[primarySource].isFinite else { return t }
        return t + clockOffset[primarySource]
    }

    func process(_ item: Item) {
        switch item {
        case .batch(let b): write(b)
        case .label(let l, let at):
            endLabel(at: recordingTime(at))
            label = l
            if l != nil { labelStart = recordingTime(at) }
        case .event(let kind, let detail, let at):
            writer.event(GroundTruthEvent(time: recordingTime(at), kind: kind, detail: detail))
        case .pause(let p, let at):
            if p == paused { return }
            paused = p
            writer.event(GroundTruthEvent(time: recordingTime(at), kind: p ? "pause" : "resume"))
            if p { endLabel(at: recordingTime(at)) } else if label != nil { labelStart = recordingTime(at) }
        }
    }

    func endLabel(at t: Double) {
        if let l = label, let s = labelStart, !paused {
            if t > s { writer.label(LabelSegment(start: s, end: t, label: l)) }
        }
        labelStart = nil
    }

    func write(_ b: SampleBatch) {
        if paused { local.whilePaused += b.count; return }
        let src = b.source - 1
        while clockOffset.count <= src { clockOffset.append(-.infinity) }
        var newestOffset = clockOffset[max(src, 0)]
        b.values.withUnsafeBufferPointer { vp in
            for i in 0..<b.count {
                let kind = b.kinds[i], t = b.times[i]
                let o = b.offsets[i]
                let v = UnsafeBufferPointer(rebasing: vp[o ..< o + kind.width])
                guard SampleBatch.isValid(kind, time: t, v) else { local.malformed += 1; continue }
                let key = max(src, 0) * Self.kindCount + Self.ordinal(kind)
                while streamTable.count <= key { streamTable.append(-1) }
                var si = streamTable[key]
                if si < 0 {
                    si = streams.count
                    let name = src <= 0 ? kind.rawValue : "\(kind.rawValue).\(src + 1)"
                    streams.append(StreamStats(name: name, kind: kind, source: src + 1, samples: 0, lastTime: -.infinity))
                    lastTime.append(-.infinity)
                    streamTable[key] = si
                    writer.declare(stream: si, name: name, kind: kind)
                }
                if t < lastTime[si] - configuration.lateTolerance { local.late += 1; continue }
                writer.sample(stream: si, time: t, values: v)
                if t > lastTime[si] { lastTime[si] = t; streams[si].lastTime = t }
                streams[si].samples += 1
                local.written += 1
                let off = t - b.receivedAt
                if off > newestOffset { newestOffset = off }
            }
        }
        if src >= 0 && newestOffset.isFinite {
            clockOffset[src] = newestOffset
            if primarySource < 0 {
                primarySource = src
                // A label set before the first sample was on laptop time: move it to this clock.
                if let s = labelStart, label != nil { labelStart = s + newestOffset }
            }
            if !offsetsWritten.contains(src) {
                offsetsWritten.insert(src)
                writeSourceMetadata(src)
            }
        }
        if let e = writer.failure { fail(e) }
    }

    static let kindCount = StreamKind.allCases.count
    static func ordinal(_ k: StreamKind) -> Int {
        switch k {
        case .acceleration: 0
        case .userAcceleration: 1
        case .gravity: 2
        case .rotationRate: 3
        case .magneticField: 4
        case .attitude: 5
        case .stepCounter: 6
        case .location: 7
        case .pressure: 8
        }
    }

    func writeSourceMetadata(_ src: Int) {
        condition.lock()
        let d = src < sources.count ? sources[src].description : "source \(src + 1)"
        condition.unlock()
        var m = RecordingMetadata()
        m.extra["source.\(src + 1)"] = d
        m.extra["clock_offset_s.\(src + 1)"] = "\(clockOffset[src])"
        writer.metadata(m)
    }

    func flushTick(now: Double, final: Bool) {
        // Label checkpoint: the label in force so far becomes a segment.
        if label != nil && !paused && (final || now - lastLabelWrite >= configuration.labelCheckpoint) {
            let t = recordingTime(wallClock())
            endLabel(at: t)
            labelStart = t
            lastLabelWrite = now
        }
        if final {
            for src in clockOffset.indices where clockOffset[src].isFinite { writeSourceMetadata(src) }
        }
        do {
            if final || now - lastSync >= configuration.syncInterval {
                try writer.sync(); lastSync = now
            } else {
                try writer.flush()
            }
        } catch { fail(error) }
        lastFlush = now
    }
}
