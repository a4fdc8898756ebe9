import MotusCore

/// Samples parsed from one packet, line, request or exported row, on their way to a writer
/// (the live recorder's session, or an importer's `RecordingBuilder`). Stored
/// column-wise (one array each for kinds, times and values) so a batch costs a few
/// allocations however many samples it holds. Values are SI, in Motus's sign convention.
public struct SampleBatch: Sendable {
    /// Which source sent the batch (`RecordingSession.registerSource`).
    public var source: Int
    /// Laptop receive time, seconds since the Unix epoch.
    public var receivedAt: Seconds
    /// Each sample's stream kind, in the order appended.
    public private(set) var kinds: [StreamKind] = []
    /// Each sample's time (s, on its source's clock).
    public private(set) var times: [Seconds] = []
    /// Start of each sample's values in `values` (widths follow from `kinds`).
    public private(set) var offsets: [Int] = []
    /// Every sample's values one after another, in SI units (`values(of:)` gives one sample's).
    public private(set) var values: [Double] = []

    /// An empty batch from `source`, received at `receivedAt` (seconds since the Unix epoch).
    public init(source: Int = 0, receivedAt: Seconds = 0) { self.source = source; self.receivedAt = receivedAt }

    /// The number of samples held.
    @inlinable public var count: Int { times.count }
    /// True when the batch holds no sample.
    @inlinable public var isEmpty: Bool { times.isEmpty }

    /// Empties the batch and keeps its storage, for the next packet.
    public mutating func removeAll() {
        kinds.removeAll(keepingCapacity: true); times.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true); values.removeAll(keepingCapacity: true)
    }

    /// Appends a sample of a three-value kind (acceleration, rotation rate, magnetic field …) at
    /// `time` (s), its values in SI units. Precondition: `kind.width == 3`.
    public mutating func append(_ kind: StreamKind, time: Seconds, _ v0: Double, _ v1: Double, _ v2: Double) {
        precondition(kind.width == 3)
        kinds.append(kind); times.append(time); offsets.append(values.count)
        values.append(v0); values.append(v1); values.append(v2)
    }

    /// Appends a sample of any kind at `time` (s), its values in SI units in the kind's order.
    /// Precondition: `v.count == kind.width`.
    public mutating func append(_ kind: StreamKind, time: Seconds, values v: some Collection<Double>) {
        precondition(v.count == kind.width)
        kinds.append(kind); times.append(time); offsets.append(values.count)
        values.append(contentsOf: v)
    }

    /// Values of sample `i`.
    public func values(of i: Int) -> ArraySlice<Double> { values[offsets[i] ..< offsets[i] + kinds[i].width] }

    /// Removes the samples from `count` on (undoing a partly parsed packet).
    public mutating func truncate(to n: Int) {
        guard n < count else { return }
        let cut = offsets[n]
        kinds.removeSubrange(n...); times.removeSubrange(n...); offsets.removeSubrange(n...)
        values.removeSubrange(cut...)
    }

    /// True when every value the kind requires is finite (a native file accepts nothing else).
    public static func isValid(_ kind: StreamKind, time: Seconds, _ v: some Collection<Double>) -> Bool {
        guard time.isFinite else { return false }
        for (c, x) in v.enumerated() where !x.isFinite {
            if !(x.isNaN && kind.allowsMissing(component: c)) { return false }
        }
        return true
    }
}

/// What parsing one packet (datagram, line, request body) gave: how many samples were
/// appended, how many records (lines, readings) were rejected whole, and a description of
/// the first problem. A rejected record appends nothing; a record of which only a part could
/// be read keeps that part and carries a `warning` without counting as malformed.
public struct ParseOutcome: Sendable, Equatable {
    /// Samples appended.
    public var samples: Int = 0
    /// Records rejected whole (nothing of them appended).
    public var malformed: Int = 0
    /// Records that parsed but hold nothing Motus records (a battery reading, say).
    public var ignored: Int = 0
    /// The first problem met, in words (why a record was rejected or only partly read); nil when none.
    public var warning: String?
    /// An outcome with these counts and warning.
    public init(samples: Int = 0, malformed: Int = 0, ignored: Int = 0, warning: String? = nil) {
        self.samples = samples; self.malformed = malformed; self.ignored = ignored; self.warning = warning
    }
    /// One rejected record, with why.
    public static func bad(_ why: String) -> ParseOutcome { ParseOutcome(samples: 0, malformed: 1, warning: why) }

    /// Adds another record's outcome (the first warning is kept).
    public mutating func merge(_ o: ParseOutcome) {
        samples += o.samples; malformed += o.malformed; ignored += o.ignored
        if warning == nil { warning = o.warning }
    }
}
