import MotusCore
import MotusIO
import MotusFusion

/// What a reference system measured about a recording: the truth an evaluation scores against.
/// An algorithm never reads it; `EvaluationRecording.recording` holds only what a device gave.
public struct GroundTruth: Sendable {
    /// Label segments (activities, walking/turning, still, movement phases).
    public var labels: [LabelSegment]
    /// Times (s) of the reference steps: heel strikes, initial contacts or foot switches.
    public var stepTimes: [Seconds]
    /// Length of the walked course (m), when the protocol fixes it.
    public var distanceMeters: Meters?
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

    /// A ground truth from its parts; see the properties for each argument (times in s on the
    /// recording's clock, `distanceMeters` in m). Every part defaults to none.
    public init(labels: [LabelSegment] = [], stepTimes: [Seconds] = [], distanceMeters: Meters? = nil,
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
    /// The dataset's entry this recording was loaded from (its id, subject, label and path).
    public var entry: DatasetEntry
    /// What the device recorded (reference streams removed), with its metadata. Its labels and
    /// events are those of `truth`, kept so that code reading a `Recording` (training windows)
    /// still finds them.
    public var recording: Recording
    /// The ground truth that came with the recording: labels, reference step times, course
    /// length and orientation reference. Scoring compares an algorithm's output on `recording` with it.
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
        if let ref = r.streams.first(where: { $0.kind == .attitude && $0.isMeasuredReference }) {
            device.streams.removeAll { $0.name == ref.name }
            let movement = r.labels.filter { $0.label == "movement" }
            orientation = .measured(ref, scored: movement.isEmpty ? r.labels : movement)
        } else if let g = r.stream(.gravity), !g.isEmpty {
            // The rotation rate is the device fusion's own, already bias-corrected, when the
            // reader says so, or when the acceleration was rebuilt from device motion (gravity +
            // user acceleration: then the file had no raw sensor at all); `motus fuse` decides
            // the same way.
            orientation = .deviceGravity(g, biasCorrectedRotationRate: RecordingFusion.rotationRateIsBiasCorrected(r.metadata))
        }
        recording = device
        truth = GroundTruth(labels: r.labels, stepTimes: r.events.filter { $0.kind == "step" }.map(\.time).sorted(),
                            distanceMeters: r.metadata.extra["course_m"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil },
                            orientation: orientation, events: r.events.filter { $0.kind != "step" })
    }

    /// The entry's id, unique within its dataset (`wlk_15/sub_2`,
    /// `Pixel_Jamie_Hard_FrontPocket_2`, `3-1`, or a file's path relative to the folder).
    public var id: String { entry.id }
    /// The subject: the dataset's, else the recording's metadata, else the id.
    public var subject: String { entry.subject ?? recording.metadata.subject ?? entry.id }
}

/// A dataset for evaluation (in the spirit of tpcp/gaitmap): its entries, each loaded with its
/// ground truth. Every `evaluate*` command is one loop over these (`Evaluation.run`), whatever
/// the dataset: MotionSense, Oxford, IPOL, mPower, WeAllWalk, sp-sw-har, BROAD, or any
/// recordings with labels and events (a folder of `.motus` files with `@label`/`@event` lines).
///
/// Opening it takes a `DatasetSnapshot` (the entries and the fingerprint of every file they
/// read); `verifyUnchanged()` lists the folder again and compares, so a run can tell that the
/// data changed under it (a walk folder replaced, a file rewritten) instead of mixing versions.
public struct EvaluationDataset: Sendable {
    /// The dataset reader it wraps (MotionSense, Oxford, IPOL, … or a folder of recordings).
    public let source: any Dataset
    /// The dataset's short name (`motionsense`, `oxford`, or a folder's or file's last path
    /// component); reports and `LabelledWindows.datasetNames` use it.
    public var name: String { source.name }
    /// The folder (or the one recording file) the dataset was opened from.
    public var root: String { source.root }
    /// Every recording the dataset lists, in its stable order, including those set aside
    /// (`DatasetEntry.setAside`) because a file they need is missing.
    public var entries: [DatasetEntry] { source.entries }
    /// The listing and file fingerprints when the dataset was opened.
    public let snapshot: DatasetSnapshot
    private let reopen: @Sendable () throws(InputError) -> any Dataset

    /// Wraps an opened dataset; `reopen` lists it again (nil: `verifyUnchanged` compares the
    /// files of the entries listed first only).
    public init(_ source: any Dataset, reopen: (@Sendable () throws(InputError) -> any Dataset)? = nil) {
        self.source = source
        self.snapshot = DatasetSnapshot(source)
        self.reopen = reopen ?? { source }
    }

    /// A dataset folder Motus knows (opened with its format's reader), else a recording file or
    /// a folder of recordings (read as `RecordingLoader` reads them, with `options` for
    /// delimited text). A known dataset is recognised only when `options` is empty: options
    /// mean the caller wants the files read as delimited text.
    ///
    /// With `recordings`, only the entries with those ids are kept (in the dataset's order, each
    /// once): one recording evaluated with its dataset's context (the dataset's name, subjects
    /// and labels), as one task of a run spread over many processes or machines sees it. Only
    /// the kept entries' files are fingerprinted and checked by `verifyUnchanged`.
    ///
    /// - Throws: `InputError` from the dataset's reader when its folder is not as the format
    ///   describes, `.emptyFile` when `path` holds no recording (or nothing is there), and
    ///   `.badValue` for an id in `recordings` the dataset does not list.
    public static func open(_ path: String, options: DelimitedOptions = .init(), recordings: [String]? = nil) throws(InputError) -> EvaluationDataset {
        let list: @Sendable () throws(InputError) -> any Dataset
        if options.isEmpty, let probe = DatasetFormat.probe(path: path), probe.isDataset {
            let format = probe.format
            list = { () throws(InputError) -> any Dataset in try format.openDataset(root: path) }
        } else {
            list = { () throws(InputError) -> any Dataset in try RecordingFolderDataset(root: path, options: options) }
        }
        guard let ids = recordings else { return EvaluationDataset(try list(), reopen: list) }
        let select: @Sendable () throws(InputError) -> any Dataset = { () throws(InputError) -> any Dataset in try SelectedRecordings(try list(), ids: ids) }
        return EvaluationDataset(try select(), reopen: select)
    }

    /// Loads one entry (`Dataset.load`) and separates its truth.
    ///
    /// - Throws: `InputError` from the reader (naming the file, line and column of bad input,
    ///   or the missing file of a set-aside entry), `.badValue` for an id the dataset does not
    ///   list, and `.unreadable` when one of the entry's files changed while it was read.
    public func load(_ entry: DatasetEntry) throws(InputError) -> EvaluationRecording {
        EvaluationRecording(entry: entry, loaded: try source.load(entry.id))
    }

    /// Lists the dataset again and throws when it lists other recordings than when it was
    /// opened, or when any file of its entries changed, appeared or went away since.
    ///
    /// - Throws: `.unreadable`, naming the first difference in the listing or the file that
    ///   changed since `snapshot`; or the reader's `InputError` when the dataset can no longer
    ///   be listed.
    public func verifyUnchanged() throws(InputError) {
        try snapshot.verifyUnchanged(try reopen())
    }
}

/// The one evaluation loop: every entry of every dataset, loaded with its truth, handed to a
/// scoring function (one algorithm's run and its comparison with the truth). Entries that
/// cannot be scored are listed apart with the reason, never dropped: those the dataset set
/// aside when listing (`DatasetEntry.setAside`: a file missing) and those the scoring cannot
/// judge (no truth of the kind it scores).
public enum Evaluation {
    /// What the scoring made of one recording.
    public enum Outcome<Row: Sendable>: Sendable {
        /// Scored: the scoring's row for this recording.
        case scored(Row)
        /// Not scored, and why (one line, for the report).
        case skipped(String)
        /// Left out on purpose by a filter the caller chose (`--subjects even`): counted in
        /// `Run.excluded`, not a recording that failed to be scored.
        case excluded

        /// The scored row made into the outcome `transform` gives; skipped and excluded stay
        /// as they are (a scoring built on another's: the steps counted, then judged).
        public func flatMap<T: Sendable>(_ transform: (Row) -> Outcome<T>) -> Outcome<T> {
            switch self {
            case .scored(let row): transform(row)
            case .skipped(let why): .skipped(why)
            case .excluded: .excluded
            }
        }
    }

    /// A recording that was not scored, and why.
    public struct Skipped: Sendable, Hashable, Codable, CustomStringConvertible {
        /// The entry's id (`DatasetEntry.id`).
        public var id: String
        /// Why it was not scored, in one line (the dataset's `setAside` reason, or the
        /// scoring's `Outcome.skipped` text).
        public var reason: String
        /// A skipped entry: its id and the reason.
        public init(id: String, reason: String) { self.id = id; self.reason = reason }
        public var description: String { "\(id) (\(reason))" }
    }

    /// What one `run` gives: the rows of the scored recordings and the account of the rest,
    /// so that scored + skipped + excluded is every entry of every dataset.
    public struct Run<Row: Sendable>: Sendable {
        /// One row per scored recording, in the order of the datasets and their entries.
        public var rows: [Row]
        /// The entries that were not scored, in order, each with its reason.
        public var skipped: [Skipped]
        /// How many entries the scoring left out on purpose (`Outcome.excluded`).
        public var excluded = 0
    }

    /// What to do with an entry the dataset set aside while listing (a file missing).
    public enum SetAsidePolicy: Sendable {
        /// List it in `skipped` with its reason (evaluation: the report says what is missing).
        case skip
        /// Load it anyway, so that the reader's error (naming the missing file) stops the run
        /// (training: a model must not silently learn from fewer recordings).
        case fail
    }

    /// Runs `score` over every entry of `datasets`, in order. `progress(done, total)` is called
    /// after each entry. Errors from loading or scoring stop the loop; so does a dataset that
    /// changed during the run (checked once every entry is done: `verifyUnchanged`).
    public static func run<Row: Sendable>(_ datasets: [EvaluationDataset], setAside: SetAsidePolicy = .skip,
                                          progress: ((Int, Int) -> Void)? = nil,
                                          outcome score: (EvaluationRecording) throws -> Outcome<Row>) throws -> Run<Row> {
        let total = datasets.reduce(0) { $0 + $1.entries.count }
        var out = Run<Row>(rows: [], skipped: [])
        var done = 0
        for ds in datasets {
            for e in ds.entries {
                if let reason = e.setAside, setAside == .skip {
                    out.skipped.append(Skipped(id: e.id, reason: reason))
                } else {
                    switch try score(try ds.load(e)) {
                    case .scored(let row): out.rows.append(row)
                    case .skipped(let reason): out.skipped.append(Skipped(id: e.id, reason: reason))
                    case .excluded: out.excluded += 1
                    }
                }
                done += 1
                progress?(done, total)
            }
        }
        for ds in datasets { try ds.verifyUnchanged() }
        return out
    }

    /// `run` for a scoring function that returns nil for a recording it cannot judge, which is
    /// then skipped with `skipReason`.
    public static func run<Row: Sendable>(_ datasets: [EvaluationDataset], setAside: SetAsidePolicy = .skip,
                                          skipReason: String = "no ground truth of the kind scored",
                                          progress: ((Int, Int) -> Void)? = nil,
                                          _ score: (EvaluationRecording) throws -> Row?) throws -> Run<Row> {
        try run(datasets, setAside: setAside, progress: progress, outcome: { e -> Outcome<Row> in
            if let row = try score(e) { return .scored(row) } else { return .skipped(skipReason) }
        })
    }
}

/// Some entries of a dataset, by id, in the dataset's order: its name, root, reader and files
/// are the dataset's own, so an entry loads and is named as in the whole dataset.
struct SelectedRecordings: Dataset {
    let source: any Dataset
    let entries: [DatasetEntry]
    var name: String { source.name }
    var root: String { source.root }

    /// The entries of `source` whose ids are in `ids`.
    ///
    /// - Throws: `.badValue` naming the first id `source` does not list.
    init(_ source: any Dataset, ids: [String]) throws(InputError) {
        let listed = Set(source.entries.map(\.id))
        if let unknown = ids.first(where: { !listed.contains($0) }) {
            throw InputError(.badValue, at: SourceLocation(file: source.root), found: unknown,
                             expected: "the id of one of its \(listed.count) recordings (`motus features --list-recordings \(source.root)` lists them)")
        }
        let wanted = Set(ids)
        self.source = source
        self.entries = source.entries.filter { wanted.contains($0.id) }
    }

    func read(_ entry: DatasetEntry) throws(InputError) -> Recording { try source.read(entry) }
    func files(of entry: DatasetEntry) -> [String] { source.files(of: entry) }
}
