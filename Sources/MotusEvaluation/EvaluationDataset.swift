import MotusCore
import MotusIO

/// What a reference system measured about a recording: the truth an evaluation scores against.
/// An algorithm never reads it; `EvaluationRecording.recording` holds only what a device gave.
public struct GroundTruth: Sendable {
    /// Label segments (activities, walking/turning, still, movement phases).
    public var labels: [LabelSegment]
    /// Times (s) of the reference steps: heel strikes, initial contacts or foot switches.
    public var stepTimes: [Double]
    /// Length of the walked course (m), when the protocol fixes it.
    public var distanceMeters: Double?
    /// The orientation reference, when there is one.
    public var orientation: OrientationReference?
    /// Other reference events (toe-offs, turns, annotations).
    public var events: [GroundTruthEvent]

    /// Where the true orientation comes from.
    public enum OrientationReference: Sendable {
        /// Gravity as the device's own sensor fusion gave it (CoreMotion's `gravity`, Android's
        /// gravity sensor), pointing up, m/s², on the acceleration's timestamps: a reference
        /// that is itself an estimate. `biasCorrectedRotationRate`: the recording's rotation
        /// rate is the same fusion's output (CoreMotion's device motion), already free of
        /// gyroscope bias.
        case deviceGravity(SensorStream, biasCorrectedRotationRate: Bool)
        /// Orientation measured from outside (optical motion capture): unit quaternions (w, x,
        /// y, z) of the device frame in an Earth frame whose z axis is up, on a subset of the
        /// acceleration's timestamps; scored inside `scored` only (the movement phases).
        case measured(SensorStream, scored: [LabelSegment])
    }

    public init(labels: [LabelSegment] = [], stepTimes: [Double] = [], distanceMeters: Double? = nil,
                orientation: OrientationReference? = nil, events: [GroundTruthEvent] = []) {
        self.labels = labels; self.stepTimes = stepTimes; self.distanceMeters = distanceMeters
        self.orientation = orientation; self.events = events
    }

    /// The labels renamed by `map` (label → class name); labels the map does not name are left out.
    public func labels(mappedBy map: [String: String]) -> [LabelSegment] {
        labels.compactMap { s in map[s.label].map { LabelSegment(start: s.start, end: s.end, label: $0) } }
    }
}

/// One entry of an `EvaluationDataset`, loaded: the device's streams, and the truth apart.
public struct EvaluationRecording: Sendable {
    public var entry: DatasetEntry
    /// What the device recorded (reference streams removed), with its metadata. Its labels and
    /// events are those of `truth`, kept so that code reading a `Recording` (training windows)
    /// still finds them.
    public var recording: Recording
    public var truth: GroundTruth

    /// Splits a loaded recording into device data and truth:
    /// - labels and `step` events are truth; `metadata.extra["course_m"]` is the course length;
    /// - a stream of kind `attitude` whose name starts with `reference` is measured orientation
    ///   (BROAD's optical motion capture), scored inside the `movement` labels when there are
    ///   any; it is removed from the device data;
    /// - otherwise a `gravity` stream is the device's own fusion (CoreMotion, Android), kept in
    ///   the device data (an app gets it too) and used as the orientation reference.
    public init(entry: DatasetEntry, loaded r: Recording) {
        self.entry = entry
        var device = r
        var orientation: GroundTruth.OrientationReference? = nil
        if let ref = r.streams.first(where: { $0.kind == .attitude && $0.name.hasPrefix("reference") }) {
            device.streams.removeAll { $0.name == ref.name }
            let movement = r.labels.filter { $0.label == "movement" }
            orientation = .measured(ref, scored: movement.isEmpty ? r.labels : movement)
        } else if let g = r.stream(.gravity), !g.isEmpty {
            // The rotation rate is the device fusion's own, already bias-corrected, when the
            // reader says so, or when the acceleration was rebuilt from device motion (gravity +
            // user acceleration: then the file had no raw sensor at all).
            let derived = r.metadata.extra["acc"]?.hasPrefix("derived") ?? false
            let corrected = r.metadata.extra["gyro"]?.contains("bias-corrected") ?? false
            orientation = .deviceGravity(g, biasCorrectedRotationRate: derived || corrected)
        }
        recording = device
        truth = GroundTruth(labels: r.labels, stepTimes: r.events.filter { $0.kind == "step" }.map(\.time).sorted(),
                            distanceMeters: r.metadata.extra["course_m"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil },
                            orientation: orientation, events: r.events.filter { $0.kind != "step" })
    }

    public var id: String { entry.id }
    /// The subject: the dataset's, else the recording's metadata, else the id.
    public var subject: String { entry.subject ?? recording.metadata.subject ?? entry.id }
}

/// A dataset for evaluation (in the spirit of tpcp/gaitmap): its entries, each loaded with its
/// ground truth. Every `evaluate*` command is one loop over these (`Evaluation.run`), whatever
/// the dataset: MotionSense, Oxford, IPOL, mPower, WeAllWalk, sp-sw-har, BROAD, or any
/// recordings with labels and events (a folder of `.motus` files with `@label`/`@event` lines).
public struct EvaluationDataset: Sendable {
    public let source: any Dataset
    public var name: String { source.name }
    public var root: String { source.root }
    public var entries: [DatasetEntry] { source.entries }

    public init(_ source: any Dataset) { self.source = source }

    /// A dataset folder Motus knows (opened with its format's reader), else a recording file or
    /// a folder of recordings (read as `RecordingLoader` reads them, with `options` for
    /// delimited text).
    public static func open(_ path: String, options: DelimitedOptions = .init()) throws(InputError) -> EvaluationDataset {
        if options.isEmpty, let probe = DatasetFormat.probe(path: path), probe.isDataset {
            return EvaluationDataset(try probe.format.openDataset(root: path))
        }
        return EvaluationDataset(try RecordingFolderDataset(root: path, options: options))
    }

    /// Loads one entry and separates its truth.
    public func load(_ entry: DatasetEntry) throws(InputError) -> EvaluationRecording {
        EvaluationRecording(entry: entry, loaded: try source.load(entry.id))
    }
}

/// The one evaluation loop: every entry of every dataset, loaded with its truth, handed to a
/// scoring function (one algorithm's run and its comparison with the truth); entries the
/// scoring cannot judge (it returns nil: no truth of the kind it scores) are listed apart.
public enum Evaluation {
    public struct Run<Row: Sendable>: Sendable {
        public var rows: [Row]
        /// Ids of the entries that had no truth of the kind scored.
        public var skipped: [String]
    }

    /// Runs `score` over every entry of `datasets`, in order. `progress(done, total)` is called
    /// after each entry. Errors from loading or scoring stop the loop.
    public static func run<Row: Sendable>(_ datasets: [EvaluationDataset], progress: ((Int, Int) -> Void)? = nil,
                                          _ score: (EvaluationRecording) throws -> Row?) throws -> Run<Row> {
        let total = datasets.reduce(0) { $0 + $1.entries.count }
        var out = Run<Row>(rows: [], skipped: [])
        var done = 0
        for ds in datasets {
            for e in ds.entries {
                let r = try ds.load(e)
                if let row = try score(r) { out.rows.append(row) } else { out.skipped.append(e.id) }
                done += 1
                progress?(done, total)
            }
        }
        return out
    }
}
