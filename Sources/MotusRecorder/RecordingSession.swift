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
/// - Times a clock cannot give are rejected per sample and counted (`Stats.badTime`), so one
///   absurd sample never holds back the samples after it (see `TimeRule`):
///   a time must be finite and within ±`maxAbsoluteTime` (1e10 s: seconds since the Unix epoch
///   reach that in the year 2286; seconds since boot or since a start are far smaller). For a
///   live source (a phone on the network, whose clock runs with the laptop's), each sample's
///   offset from the laptop clock, time − receive time, must also stay within
///   `maxLead` (plus `driftAllowance` per second since the anchor) ahead of and `maxLag` behind
///   the source's anchor offset. The anchor is the lower median of the offsets seen in the
///   source's first `anchorWindow` seconds (its samples are held that long, then written), so a
///   forged first packet does not set it. When every sample of a source has been rejected for
///   `reanchorAfter` seconds (the phone's clock was set forward, say), the source is anchored
///   afresh. Standard input replays files as fast as they come, so only the first rule applies to it.
/// - At most `maxSources` sources are taken (`registerSource` returns nil beyond that), so a
///   flood of senders cannot make thousands of streams.
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
        /// Sources (phones, UDP senders, standard input) taken; more are refused.
        public var maxSources = 64
        /// The plausibility rule for sample times.
        public var timeRule = TimeRule()
        public init(path: String, metadata: RecordingMetadata = RecordingMetadata(), fixedLabel: String? = nil) {
            self.path = path; self.metadata = metadata; self.fixedLabel = fixedLabel
        }
    }

    /// Which sample times are possible (see the type's documentation). Times in seconds.
    public struct TimeRule: Sendable, Equatable {
        /// No clock a sensor or a phone keeps gives a time further from 0 than this.
        public var maxAbsoluteTime: Double = 1e10
        /// How far a live source's sample may run ahead of its anchor offset.
        public var maxLead: Double = 10
        /// Extra lead allowed per second since the anchor (clock drift; 1e-3 is ten times a poor quartz).
        public var driftAllowance: Double = 1e-3
        /// How far a live source's sample may lag behind its anchor offset (buffered uploads).
        public var maxLag: Double = 3600
        /// Seconds of a new source's samples held to find its anchor.
        public var anchorWindow: Double = 0.3
        /// Samples held at most while anchoring (the anchor is taken early when reached).
        public var maxHeldSamples = 2048
        /// Seconds of nothing but rejected samples after which a live source is anchored afresh.
        public var reanchorAfter: Double = 5
        public init() {}
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
        /// Samples whose time no clock can give (see `TimeRule`; left out).
        public var badTime = 0
        /// Senders refused because `maxSources` were taken (distinct senders counted up to
        /// 4,096, so the count itself takes bounded memory), and the packets or requests they sent.
        public var refusedSources = 0
        public var refusedPackets = 0
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
    var sources: [(key: String, description: String, live: Bool)] = []
    var refusedKeys: Set<String> = []
    var thread: Thread?
    // Writer-thread state:
    var streamTable: [Int] = []         // [source * kinds + kind ordinal] -> stream, -1 when none
    var streams: [StreamStats] = []
    var lastTime: [Double] = []
    var clockOffset: [Double] = []      // per source, -inf until the first sample
    var primarySource = -1
    var label: String?
    var labelStart: Double?             // on the recording clock
    var labelOnLaptopClock = false      // labelStart was taken before any source's clock was known
    var lastLabelWrite = 0.0
    var paused = false
    var lastFlush = 0.0
    var lastSync = 0.0
    var local = Stats()
    var failureValue: NativeWriter.WriteError?
    var offsetsWritten: Set<Int> = []
    var clocks: [SourceClock] = []      // per source

    /// A source's clock check (writer thread): its anchor, or the batches held to find one.
    struct SourceClock {
        var live = true
        var anchored = false
        var anchor = 0.0            // sample time − receive time
        var anchoredAt = 0.0        // receive time (laptop) when anchored
        var held: [SampleBatch] = []
        var heldSamples = 0
        var heldSince = 0.0         // monotonic
        var rejectingSince: Double? // receive time of the first rejection since the last accepted sample
    }

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
        if let l = configuration.fixedLabel { label = l; labelStart = startedAt; labelOnLaptopClock = true; shared.label = l }
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

    /// Registers a source (a phone, a UDP peer, standard input) and returns its number (1, 2, …),
    /// or nil when `maxSources` are taken (the refusal is counted once per key). `liveClock`:
    /// the source's times run with the laptop's clock (a phone on the network), so the
    /// lead/lag rule of `TimeRule` applies to them.
    public func registerSource(key: String, description: String, liveClock: Bool = true) -> Int? {
        condition.lock(); defer { condition.unlock() }
        if let i = sources.firstIndex(where: { $0.key == key }) { return i + 1 }
        if sources.count >= configuration.maxSources {
            if refusedKeys.count < 4096, refusedKeys.insert(key).inserted { shared.refusedSources += 1 }
            return nil
        }
        sources.append((key, description, liveClock))
        return sources.count
    }

    /// Counts a packet or request refused because its sender could not be taken as a source.
    public func countRefusedPacket() { condition.lock(); shared.refusedPackets += 1; condition.unlock() }

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
        shared.badTime = local.badTime
        shared.whilePaused = local.whilePaused
        shared.malformed += local.malformed; local.malformed = 0
        shared.bytesWritten = writer.bytesWritten
        condition.unlock()
    }

    /// The recording clock at laptop time `t`: the primary source's clock.
    func recordingTime(_ t: Double) -> Double {
        if primarySource >= 0, clockOffset[primarySource].isFinite { return t + clockOffset[primarySource] }
        return t + (provisionalOffset() ?? 0)
    }

    /// True once labels and events can be put on a source's clock (anchored or being anchored).
    var recordingClockKnown: Bool {
        (primarySource >= 0 && clockOffset[primarySource].isFinite) || provisionalOffset() != nil
    }

    /// While the first source is still being anchored: the clock offset its anchoring will
    /// give (the largest held offset that the lead rule will accept), so labels and events
    /// taken meanwhile are on the clock its samples will be on.
    func provisionalOffset() -> Double? {
        guard primarySource < 0, let src = clocks.firstIndex(where: { !$0.held.isEmpty }) else { return nil }
        let rule = configuration.timeRule
        var offsets: [Double] = []
        for b in clocks[src].held {
            for t in b.times where t.isFinite && abs(t) <= rule.maxAbsoluteTime { offsets.append(t - b.receivedAt) }
        }
        guard !offsets.isEmpty else { return nil }
        offsets.sort()
        let anchor = offsets[(offsets.count - 1) / 2]
        return offsets.last { $0 <= anchor + rule.maxLead } ?? anchor
    }

    /// Starts the label in force at laptop time `at`.
    func startLabel(at: Double) {
        labelOnLaptopClock = !recordingClockKnown
        labelStart = recordingTime(at)
    }

    func process(_ item: Item) {
        switch item {
        case .batch(let b): write(b)
        case .label(let l, let at):
            endLabel(at: recordingTime(at))
            label = l
            if l != nil { startLabel(at: at) }
        case .event(let kind, let detail, let at):
            writer.event(GroundTruthEvent(time: recordingTime(at), kind: kind, detail: detail))
        case .pause(let p, let at):
            if p == paused { return }
            paused = p
            writer.event(GroundTruthEvent(time: recordingTime(at), kind: p ? "pause" : "resume"))
            if p { endLabel(at: recordingTime(at)) } else if label != nil { startLabel(at: at) }
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
        if src >= 0 {
            let c = clock(src)
            if c.live {
                // After a spell of nothing but rejections, find the source's clock again.
                if c.anchored, let since = c.rejectingSince, b.receivedAt - since >= configuration.timeRule.reanchorAfter {
                    clocks[src].anchored = false; clocks[src].rejectingSince = nil
                }
                if !clocks[src].anchored {
                    hold(b, src)
                    return
                }
            }
        }
        emit(b)
    }

    /// The clock state of source `src`, created on first use.
    func clock(_ src: Int) -> SourceClock {
        while clocks.count <= src {
            let i = clocks.count
            condition.lock()
            let live = i < sources.count ? sources[i].live : true
            condition.unlock()
            clocks.append(SourceClock(live: live))
        }
        return clocks[src]
    }

    func hold(_ b: SampleBatch, _ src: Int) {
        if clocks[src].held.isEmpty { clocks[src].heldSince = monotonicClock() }
        clocks[src].held.append(b)
        clocks[src].heldSamples += b.count
        if clocks[src].heldSamples >= configuration.timeRule.maxHeldSamples
            || b.receivedAt - clocks[src].held[0].receivedAt >= configuration.timeRule.anchorWindow {
            anchor(src)
        }
    }

    /// Anchors source `src` on the lower median of its held samples' offsets (time − receive
    /// time; a forged sample ahead of the source's clock is outvoted) and writes them.
    func anchor(_ src: Int) {
        let held = clocks[src].held
        var offsets: [Double] = []
        offsets.reserveCapacity(clocks[src].heldSamples)
        for b in held {
            for t in b.times where t.isFinite && abs(t) <= configuration.timeRule.maxAbsoluteTime { offsets.append(t - b.receivedAt) }
        }
        clocks[src].held = []
        clocks[src].heldSamples = 0
        if !offsets.isEmpty {
            offsets.sort()
            clocks[src].anchored = true
            clocks[src].anchor = offsets[(offsets.count - 1) / 2]
            clocks[src].anchoredAt = held[0].receivedAt
            clocks[src].rejectingSince = nil
        }
        // Without an anchor every held time failed the absolute rule: emit counts them.
        for b in held { emit(b) }
    }

    /// Anchors the sources whose holding time is up (or all of them at the end).
    func anchorDue(final: Bool) {
        let now = monotonicClock()
        for src in clocks.indices where !clocks[src].held.isEmpty {
            if final || now - clocks[src].heldSince >= configuration.timeRule.anchorWindow { anchor(src) }
        }
    }

    /// True when `t`, received at `receivedAt` from source `src`, is a time its clock can give.
    @inline(__always)
    func plausible(_ t: Double, receivedAt: Double, src: Int) -> Bool {
        let rule = configuration.timeRule
        guard t.isFinite, abs(t) <= rule.maxAbsoluteTime else { return false }
        guard src >= 0, src < clocks.count, clocks[src].live, clocks[src].anchored else { return true }
        let c = clocks[src]
        let lead = (t - receivedAt) - c.anchor
        let allowed = rule.maxLead + rule.driftAllowance * max(0, receivedAt - c.anchoredAt)
        if lead > allowed || lead < -rule.maxLag {
            if c.rejectingSince == nil { clocks[src].rejectingSince = receivedAt }
            return false
        }
        clocks[src].rejectingSince = nil
        return true
    }

    func emit(_ b: SampleBatch) {
        let src = b.source - 1
        while clockOffset.count <= src { clockOffset.append(-.infinity) }
        var newestOffset = clockOffset[max(src, 0)]
        b.values.withUnsafeBufferPointer { vp in
            for i in 0..<b.count {
                let kind = b.kinds[i], t = b.times[i]
                let o = b.offsets[i]
                let v = UnsafeBufferPointer(rebasing: vp[o ..< o + kind.width])
                guard plausible(t, receivedAt: b.receivedAt, src: src) else { local.badTime += 1; continue }
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
                if labelOnLaptopClock, let s = labelStart, label != nil { labelStart = s + newestOffset }
                labelOnLaptopClock = false
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
        anchorDue(final: final)
        // Label checkpoint: the label in force so far becomes a segment (once the recording
        // clock is known: until the first source is anchored it would be laptop time).
        if label != nil && !paused && (final || (primarySource >= 0 && now - lastLabelWrite >= configuration.labelCheckpoint)) {
            let t = recordingTime(wallClock())
            labelOnLaptopClock = false
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
