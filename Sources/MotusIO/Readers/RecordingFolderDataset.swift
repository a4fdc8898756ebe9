import MotusCore

/// Any recordings as a dataset: one file, or every recording under a folder
/// (`RecordingLoader.recordings(under:)`: `.motus`, `.csv`, `.txt`, `.json` files, READMEs and
/// licences left out). Their ground truth is what the files carry: `@label` and `@event` lines
/// of the native format, label, event and step columns and sidecar files (`GroundTruthInput`),
/// or a dataset reader's labels and events. Ids are the
/// paths relative to `root`; the subject is read when a recording is loaded
/// (`metadata.subject`), since listing does not open the files.
public struct RecordingFolderDataset: Dataset {
    /// The folder's (or the file's) last path component.
    public let name: String
    /// The folder (or the one file) it was opened from.
    public let root: String
    /// Every recording found, in the order `RecordingLoader.recordings(under:)` gives; no subject
    /// and no label until loaded.
    public let entries: [DatasetEntry]
    /// How delimited text files are read (empty: by their header).
    public let options: DelimitedOptions

    /// Lists the recordings under `root`, to be read with `options`. Throws `.emptyFile` when there
    /// is none (naming what the folder holds) or nothing is at `root`.
    public init(root: String, options: DelimitedOptions = .init()) throws(InputError) {
        self.root = root
        self.options = options
        name = ReaderFiles.lastComponent(root)
        let files = try RecordingLoader.recordings(under: root)
        guard !files.isEmpty else { throw noRecordings(root, "a recording, or a folder holding recordings (.motus, .csv, .txt, .json)") }
        let prefix = root.hasSuffix("/") ? root : root + "/"
        entries = files.map { f in
            let id = f.hasPrefix(prefix) ? String(f.dropFirst(prefix.count)) : ReaderFiles.lastComponent(f)
            return DatasetEntry(id: id, subject: nil, label: nil, path: f)
        }
    }

    /// Reads the recording as `RecordingLoader.load(path:options:)` does, with its ground truth;
    /// throws what the loader throws.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try RecordingLoader.load(path: entry.path, options: options)
    }

    /// The recording, its ground-truth sidecar (`GroundTruthInput`; may be absent) and the
    /// one `options` names.
    public func files(of entry: DatasetEntry) -> [String] {
        [entry.path, entry.path + GroundTruthInput.sidecarSuffix] + (options.groundTruthFile.map { [$0] } ?? [])
    }
}
