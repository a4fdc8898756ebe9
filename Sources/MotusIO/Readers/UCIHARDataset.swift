#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// The UCI HAR dataset's raw inertial signals (`UCIHARReader`): `root` is the dataset folder
/// (holding `train/` and `test/`) or one split folder. One entry per split and subject, id
/// `<split>/<subject>` (`train/1`), subject the number, path the split folder.
public struct UCIHARDataset: Dataset {
    /// `uci-har`.
    public let name = "uci-har"
    /// The folder it was opened from.
    public let root: String
    /// Every subject of every split, split by split, subjects in natural order.
    public let entries: [DatasetEntry]
    /// The split last read: its subjects are cut from it, so a run over the dataset reads each
    /// split's files once rather than once per subject.
    let cache = SplitCache()

    /// Lists the subjects of the split folders at `root`; throws `.emptyFile` when there are none
    /// and the reader's error when a `subject_*.txt` cannot be read.
    public init(root: String) throws(InputError) {
        self.root = root
        var folders: [String] = []
        if UCIHARReader.split(of: root) != nil { folders = [root] } else {
            for f in ReaderFiles.list(root).sorted() where UCIHARReader.split(of: ReaderFiles.join(root, f)) != nil { folders.append(ReaderFiles.join(root, f)) }
        }
        var list: [DatasetEntry] = []
        for f in folders {
            let split = UCIHARReader.split(of: f) ?? ReaderFiles.lastComponent(f)
            for s in try UCIHARReader.subjects(folder: f).sorted(by: readerNaturalLess) {
                list.append(DatasetEntry(id: "\(split)/\(s)", subject: s, label: nil, path: f))
            }
        }
        guard !list.isEmpty else { throw noRecordings(root, "a UCI HAR folder (train/ or test/ with subject_S.txt, y_S.txt and Inertial Signals/)") }
        entries = list
    }

    /// True when `dir` is a split folder or holds one.
    static func isDatasetFolder(_ dir: String, names: [String]) -> Bool {
        if names.contains("Inertial Signals") && UCIHARReader.split(of: dir) != nil { return true }
        return names.contains { ($0 == "train" || $0 == "test") && UCIHARReader.split(of: ReaderFiles.join(dir, $0)) != nil }
    }

    /// Reads the entry's subject from its split folder, as `UCIHARReader.read(folder:subject:)`
    /// does, cutting it from the split read once (`UCIHARReader.readSplit`). The split is read
    /// again when one of its files changed since (their fingerprints differ), so a subject is
    /// never cut from files older than those on disk.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        let snapshot = FileSnapshot(files(of: entry))
        if let split = cache.split(folder: entry.path, snapshot: snapshot) { return try split.recording(subject: entry.subject ?? "") }
        let split = try UCIHARReader.readSplit(folder: entry.path)
        cache.keep(split, snapshot: snapshot)
        return try split.recording(subject: entry.subject ?? "")
    }

    /// One split read, with the fingerprints of its files taken before it was read.
    final class SplitCache: @unchecked Sendable {
        private var lock = pthread_mutex_t()
        private var kept: (split: UCIHARReader.Split, snapshot: FileSnapshot)?
        /// Splits read so far (tests check that a run reads each split once).
        private(set) var reads = 0
        init() { pthread_mutex_init(&lock, nil) }
        deinit { pthread_mutex_destroy(&lock) }

        /// The split of `folder` when it was read from files whose fingerprints are `snapshot`.
        func split(folder: String, snapshot: FileSnapshot) -> UCIHARReader.Split? {
            pthread_mutex_lock(&lock)
            defer { pthread_mutex_unlock(&lock) }
            guard let k = kept, k.split.folder == folder, k.snapshot == snapshot else { return nil }
            return k.split
        }

        func keep(_ split: UCIHARReader.Split, snapshot: FileSnapshot) {
            pthread_mutex_lock(&lock)
            kept = (split, snapshot)
            reads += 1
            pthread_mutex_unlock(&lock)
        }
    }

    /// The split's subject and activity files, every signal file, and `activity_labels.txt`.
    public func files(of entry: DatasetEntry) -> [String] {
        let split = UCIHARReader.split(of: entry.path) ?? ""
        let dir = ReaderFiles.join(entry.path, "Inertial Signals")
        var out = [ReaderFiles.join(entry.path, "subject_\(split).txt"), ReaderFiles.join(entry.path, "y_\(split).txt"),
                   ReaderFiles.join(ReaderFiles.parent(entry.path), "activity_labels.txt")]
        for sig in UCIHARReader.signals { for a in ["x", "y", "z"] { out.append(ReaderFiles.join(dir, "\(sig.prefix)_\(a)_\(split).txt")) } }
        return out
    }
}
