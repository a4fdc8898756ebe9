import MotusCore

/// One recording under a path, as `inspect` lists them: a file (or a folder such as an Oxford
/// walk) read on its own, or one entry of a dataset whose entries share their files (the users
/// of a WISDM v1.1 file, the subjects of a UCI HAR split), read through its dataset.
public struct RecordingItem: Sendable {
    /// The file or folder it is read from.
    public let path: String
    /// For an entry that shares its file with others: its id in the dataset (what
    /// `--recording` takes, e.g. `train/3`, `WISDM_ar_v1.1_raw/33`); nil for a file read on its own.
    public let recording: String?
    let dataset: (any Dataset)?

    /// The recording read on its own from `path`.
    public init(path: String) {
        self.path = path; recording = nil; dataset = nil
    }

    init(path: String, recording: String, dataset: any Dataset) {
        self.path = path; self.recording = recording; self.dataset = dataset
    }

    /// Its summary: a file read on its own in one streaming pass (`RecordingLoader.summarize`),
    /// a dataset entry loaded whole through its dataset (`recording` set in the summary).
    public func summarize(options: DelimitedOptions = .init()) throws(InputError) -> RecordingSummary {
        guard let dataset, let recording else { return try RecordingLoader.summarize(path: path, options: options) }
        var sink = SummarySink()
        RecordingBuilder.replay(try dataset.load(recording), into: &sink)
        var s = sink.summary(path: path)
        s.recording = recording
        return s
    }
}

extension RecordingLoader {
    /// The recordings under `path` (`recordings(under:)`), with each file or folder that holds
    /// several recordings of a dataset (a WISDM v1.1 file of several users, a UCI HAR split
    /// folder) given as one item per recording, in the dataset's order.
    public static func items(under path: String) throws(InputError) -> [RecordingItem] {
        var out: [RecordingItem] = []
        for p in try recordings(under: path) {
            if let ds = try sharedFileDataset(at: p) {
                out += ds.entries.map { RecordingItem(path: p, recording: $0.id, dataset: ds) }
            } else {
                out.append(RecordingItem(path: p))
            }
        }
        return out
    }

    /// The dataset at `path` when `path` holds several of its recordings in shared files: a WISDM
    /// v1.1 file of more than one user, or a UCI HAR split folder (or the folder above the
    /// splits); nil for anything else.
    static func sharedFileDataset(at path: String) throws(InputError) -> (any Dataset)? {
        guard path != "-", !InputSpool.needsSpooling(path), let probe = DatasetFormat.probe(path: path) else { return nil }
        switch probe.format {
        case .ucihar: return try UCIHARDataset(root: path)
        case .wisdm where !DatasetLocator.isDirectory(path):
            let ds = try WISDMDataset(root: path)
            return ds.entries.count > 1 ? ds : nil
        default: return nil
        }
    }

    /// The dataset at `path` as `--recording` opens it (the same ids `motus features
    /// --list-recordings` gives): a dataset folder Motus knows or a WISDM v1.1 file (with empty
    /// `options`), else any other folder as a folder of recordings; nil for a file or a folder
    /// that is one recording (an Oxford walk, a phyphox export).
    static func recordingsDataset(at path: String, options: DelimitedOptions) throws(InputError) -> (any Dataset)? {
        guard path != "-", !InputSpool.needsSpooling(path) else { return nil }
        let probe = options.isEmpty ? DatasetFormat.probe(path: path) : nil
        if let probe, probe.isDataset { return try probe.format.openDataset(root: path) }
        guard probe == nil, DatasetLocator.isDirectory(path), !PhyphoxExport.isExport(path) else { return nil }
        return try RecordingFolderDataset(root: path, options: options)
    }

    /// The ids of the recordings at `path` when it holds several, or is a folder (a dataset
    /// folder, a folder of recordings, a WISDM v1.1 file of several users, a UCI HAR folder:
    /// `recordingsDataset`); nil for one recording (a file, a walk folder, a WISDM file of one user).
    public static func datasetRecordingIDs(path: String, options: DelimitedOptions = .init()) throws(InputError) -> [String]? {
        guard let ds = try recordingsDataset(at: path, options: options) else { return nil }
        if !DatasetLocator.isDirectory(path) && ds.entries.count < 2 { return nil }
        return ds.recordingIDs
    }

    /// The recording `id` of the dataset at `path` (`recordingsDataset`: a dataset folder, a
    /// WISDM v1.1 file, a UCI HAR folder, a folder of recordings), read through the dataset as
    /// evaluation reads it. Throws `.badValue` when `path` holds no such dataset or no recording
    /// `id` (naming some that it has).
    public static func load(path: String, recording id: String, options: DelimitedOptions = .init()) throws(InputError) -> Recording {
        guard let ds = try recordingsDataset(at: path, options: options) else {
            throw InputError(.badValue, at: SourceLocation(file: path), found: "one recording",
                             expected: "a file or folder of several recordings to pick recording \(id) from (a dataset folder, a WISDM file, a UCI HAR folder)")
        }
        guard ds.entry(id) != nil else {
            throw InputError(.badValue, at: SourceLocation(file: path), found: id,
                             expected: "the id of one of its \(ds.entries.count) recordings (\(ds.entries.prefix(5).map(\.id).joined(separator: ", "))\(ds.entries.count > 5 ? ", …" : ""))")
        }
        return try ds.load(id)
    }
}
