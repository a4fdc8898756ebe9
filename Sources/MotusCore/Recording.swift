/// Descriptive facts about a recording. Physical quantities are SI.
public struct RecordingMetadata: Sendable, Equatable, Codable {
    /// Device model, e.g. "iPhone 6s", "Pixel", "XSens MTw".
    public var device: String?
    /// Where the device was carried: "front-pocket", "hand", "lower-back", "belt", …
    public var placement: String?
    /// Subject identifier as the source names it.
    public var subject: String?
    /// The subject's height (m).
    public var heightMeters: Meters?
    /// The subject's weight (kg).
    public var weightKg: Kilograms?
    /// The subject's age (years).
    public var age: Years?
    /// The subject's gender as the source states it.
    public var gender: String?
    /// The rate the source claims (Hz); the measured rate is in `motus inspect`.
    public var nominalRateHz: Hertz?
    /// Where the data came from: dataset name and file, or the app that streamed it.
    public var source: String?
    /// Anything else, as key/value text.
    public var extra: [String: String]

    /// Metadata; every field is optional.
    public init(device: String? = nil, placement: String? = nil, subject: String? = nil, heightMeters: Meters? = nil,
                weightKg: Kilograms? = nil, age: Years? = nil, gender: String? = nil, nominalRateHz: Hertz? = nil,
                source: String? = nil, extra: [String: String] = [:]) {
        self.device = device; self.placement = placement; self.subject = subject
        self.heightMeters = heightMeters; self.weightKg = weightKg; self.age = age; self.gender = gender
        self.nominalRateHz = nominalRateHz; self.source = source; self.extra = extra
    }

    /// The keys that name fields, as the native format's `@meta` lines (and `convert --meta`)
    /// write them.
    public static let fieldKeys = ["device", "placement", "subject", "height_m", "weight_kg", "age", "gender", "nominal_rate_hz", "source"]
    /// The field keys whose value is a number.
    public static let numericKeys: Set<String> = ["height_m", "weight_kg", "age", "nominal_rate_hz"]

    /// Sets the field `key` names: `text` for the text fields, `number` for the numeric ones
    /// (the caller parses it, to report a bad one where it stands). Returns false, setting
    /// nothing, when `key` names no field.
    public mutating func setField(_ key: String, text: String, number: Double?) -> Bool {
        switch key {
        case "device": device = text
        case "placement": placement = text
        case "subject": subject = text
        case "gender": gender = text
        case "source": source = text
        case "height_m": heightMeters = number
        case "weight_kg": weightKg = number
        case "age": age = number
        case "nominal_rate_hz": nominalRateHz = number
        default: return false
        }
        return true
    }
}

/// A labelled time interval `[start, end)` in seconds, on the recording's clock.
public struct LabelSegment: Sendable, Hashable, Codable {
    /// Start (s), included.
    public var start: Seconds
    /// End (s), excluded.
    public var end: Seconds
    /// The label, as the source names it (`walk`, `still`, `static-balance`, …).
    public var label: String
    /// The span `[start, end)` (s) labelled `label`.
    public init(start: Seconds, end: Seconds, label: String) { self.start = start; self.end = end; self.label = label }
    /// `end − start` (s).
    public var duration: Seconds { end - start }
    /// True when `t` (s) is in `[start, end)`.
    public func contains(_ t: Seconds) -> Bool { t >= start && t < end }
}

/// A ground-truth event from a dataset's reference system, e.g. a step (heel strike or foot
/// switch) with `detail` "left"/"right", or a toe-off.
public struct GroundTruthEvent: Sendable, Hashable, Codable {
    /// When it happened (s, on the recording's clock).
    public var time: Seconds
    /// What happened: "step", "toe-off", …
    public var kind: String
    /// Optional qualifier, e.g. which foot; empty when none.
    public var detail: String
    /// An event of `kind` at `time` (s).
    public init(time: Seconds, kind: String, detail: String = "") { self.time = time; self.kind = kind; self.detail = detail }
}

/// Several sensor streams, each on its own clock, with metadata, labels and ground truth.
public struct Recording: Sendable, Equatable {
    /// Device, placement, subject and source.
    public var metadata: RecordingMetadata
    /// The streams, each on its own clock (s); names are unique.
    public var streams: [SensorStream]
    /// Labelled time spans (activities, test phases), on the recording's clock.
    public var labels: [LabelSegment]
    /// Reference events (steps from a reference system, instructions), on the recording's clock.
    public var events: [GroundTruthEvent]

    /// A recording; everything optional.
    public init(metadata: RecordingMetadata = RecordingMetadata(), streams: [SensorStream] = [],
                labels: [LabelSegment] = [], events: [GroundTruthEvent] = []) {
        self.metadata = metadata; self.streams = streams; self.labels = labels; self.events = events
    }

    /// The stream of this kind: the one named by the kind's short id if there is one, else
    /// the first of that kind.
    public func stream(_ kind: StreamKind) -> SensorStream? {
        streams.first { $0.kind == kind && $0.name == kind.rawValue } ?? streams.first { $0.kind == kind }
    }

    /// The stream with this name (`acc`, `acc.raw`, `reference_attitude`, …).
    public func stream(named name: String) -> SensorStream? { streams.first { $0.name == name } }

    /// Adds or replaces the stream with the same name.
    public mutating func setStream(_ s: SensorStream) {
        if let i = streams.firstIndex(where: { $0.name == s.name }) { streams[i] = s } else { streams.append(s) }
    }

    /// Time span covered by all streams (nil when there is no sample).
    public var timeRange: ClosedRange<Seconds>? {
        var lo = Double.infinity, hi = -Double.infinity
        for s in streams where !s.isEmpty {
            lo = Swift.min(lo, s.times[0]); hi = Swift.max(hi, s.times[s.count - 1])
        }
        return lo <= hi ? lo...hi : nil
    }

    /// The label in force at time `t`, if any (the last segment containing `t` wins).
    public func label(at t: Seconds) -> String? { labels.last { $0.contains(t) }?.label }

    /// Distinct labels in order of first appearance.
    public var labelNames: [String] {
        var seen = Set<String>(), out: [String] = []
        for l in labels where seen.insert(l.label).inserted { out.append(l.label) }
        return out
    }
}
