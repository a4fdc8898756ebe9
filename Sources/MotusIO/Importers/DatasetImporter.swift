#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import MotusCore

/// `motus import`: whole datasets to native recordings, one `.motus` file per recording.
public enum DatasetImporter {
    /// The dataset or app export `source` holds; the raw value is what `motus import --from` takes.
    public enum Format: String, Sendable, CaseIterable {
        /// The MotionSense dataset (`MotionSenseDataset`): device-motion CSV per subject and trial.
        case motionsense
        /// The Oxford step-counter walks (`OxfordDataset`).
        case oxford
        /// The IPOL gait trials (`IPOLDataset`): `_lb.txt` files with their JSON.
        case ipol
        /// The mPower walking records (`MPowerDataset`): CoreMotion JSON.
        case mpower
        /// MotionDataCollector CSV files (`MotionDataCollectorReader`): a file, a folder of them
        /// labelled by the folder's name, or a folder of such label folders.
        case motiondatacollector
        /// Sensor Logger exports (`SensorLoggerExportReader`): one export folder, or a folder of them.
        case sensorlogger
    }

    /// What an import wrote.
    public struct Report: Sendable {
        /// The `.motus` files written, in the order written.
        public var written: [String] = []
        /// Samples written, over every stream of every file.
        public var samples = 0
        /// Label segments written, over every file.
        public var labels = 0
    }

    /// Converts every recording under `source` into `out/<id>.motus` (folders in the id become
    /// `-`). `rateHz` is MotionDataCollector's rate. `progress` is told each file written.
    /// Throws `InputError` for bad input and `NativeWriter.WriteError` when `out` cannot be
    /// created or written.
    ///
    /// An import never writes what `read` would refuse, nor fewer samples than it read: each
    /// file written is read back (one streaming pass) and must give every stream with the same
    /// number of samples; otherwise the file is removed and the import fails naming the source.
    /// A dataset entry set aside when listing (a file missing) fails the import with the
    /// reader's error naming the missing file, rather than being left out.
    public static func run(source: String, format: Format, out: String, rateHz: Hertz? = nil,
                           progress: (String, Recording) -> Void = { _, _ in }) throws -> Report {
        try makeFolders(out)
        var report = Report()
        func write(_ id: String, _ r: Recording, from origin: String) throws {
            var safe = String(id.map { $0 == "/" ? "-" : $0 })
            if safe.hasSuffix(".csv") || safe.hasSuffix(".txt") || safe.hasSuffix(".json"), let dot = safe.lastIndex(of: ".") { safe = String(safe[..<dot]) }
            let path = out + "/" + safe + ".motus"
            try NativeWriter.write(r, to: path)
            try verifyWritten(path, r, from: origin)
            report.written.append(path)
            report.samples += r.streams.reduce(0) { $0 + $1.count }
            report.labels += r.labels.count
            progress(path, r)
        }
        func importDataset(_ f: DatasetFormat) throws {
            let ds = try f.openDataset(root: source)
            for e in ds.entries {
                var r = try ds.load(e.id)
                if r.metadata.subject == nil { r.metadata.subject = e.subject }
                if r.labels.isEmpty, let l = e.label, let range = r.timeRange {
                    r.labels = [LabelSegment(start: range.lowerBound, end: range.upperBound, label: l)]
                }
                try write(e.id, r, from: e.path)
            }
        }
        switch format {
        case .motionsense: try importDataset(.motionsense)
        case .oxford: try importDataset(.oxford)
        case .ipol: try importDataset(.ipol)
        case .mpower: try importDataset(.mpower)
        case .motiondatacollector:
            // SOURCE/<label>/<file>.csv, or one labelled folder, or one file.
            let files = try csvFiles(source)
            guard !files.isEmpty else {
                throw InputError(.emptyFile, at: SourceLocation(file: source), found: "no .csv files", expected: "MotionDataCollector CSV files in label folders")
            }
            for (rel, label) in files {
                let r = try MotionDataCollectorReader.read(path: source.hasSuffix(".csv") ? source : source + "/" + rel, label: label,
                                                           rateHz: rateHz ?? MotionDataCollectorReader.nominalRateHz)
                try write(rel, r, from: source.hasSuffix(".csv") ? source : source + "/" + rel)
            }
        case .sensorlogger:
            var folders: [String] = []
            if SensorLoggerExportReader.isExport(source) { folders = [""] } else {
                for n in ReaderFiles.list(source).sorted() where SensorLoggerExportReader.isExport(source + "/" + n) {
                    folders.append(n)
                }
            }
            guard !folders.isEmpty else {
                throw InputError(.emptyFile, at: SourceLocation(file: source), found: "no Sensor Logger export", expected: "a folder with Accelerometer.csv, Gyroscope.csv, Metadata.csv …")
            }
            for f in folders {
                let path = f.isEmpty ? source : source + "/" + f
                try write(f.isEmpty ? (source.split(separator: "/").last.map(String.init) ?? "export") : f, try SensorLoggerExportReader.read(folder: path), from: path)
            }
        }
        return report
    }

    /// Reads `path` back (as `motus read`/`inspect` would, whole: an unfinished last line is
    /// an error here) and compares each stream's sample count with `r`'s. On any difference
    /// the file is removed and the error names `origin`, the source of the recording.
    static func verifyWritten(_ path: String, _ r: Recording, from origin: String) throws(InputError) {
        func fail(_ found: String, _ expected: String) -> InputError {
            _ = unlink(path)
            return InputError(.badValue, at: SourceLocation(file: origin), found: found, expected: expected)
        }
        let summary: RecordingSummary
        do { summary = try RecordingLoader.summarize(path: path, allowTruncatedTail: false) } catch {
            throw fail("values the native format cannot hold", "a recording Motus can read back (writing it gave: \(error))")
        }
        for s in r.streams where !s.isEmpty {
            let back = summary.streams.first { $0.name == s.name }?.samples ?? 0
            if back != s.count {
                throw fail("\(s.count) samples of \(s.name) read, \(back) read back", "an import that keeps every sample")
            }
        }
    }

    /// (relative path, label from the parent folder) of the CSV files under `root`, in byte order.
    static func csvFiles(_ root: String) throws(InputError) -> [(String, String?)] {
        guard DatasetLocator.exists(root) else {
            throw InputError(.unreadable, at: SourceLocation(file: root), found: "nothing there", expected: "a folder or a .csv file")
        }
        if !DatasetLocator.isDirectory(root) {
            let parent = root.split(separator: "/").dropLast().last.map(String.init)
            return [(root.split(separator: "/").last.map(String.init) ?? root, parent)]
        }
        var out: [(String, String?)] = []
        let rootLabel = root.split(separator: "/").last.map(String.init)
        for name in ReaderFiles.list(root).sorted() {
            let p = root + "/" + name
            if DatasetLocator.isDirectory(p) {
                for f in ReaderFiles.list(p).sorted() where f.lowercased().hasSuffix(".csv") {
                    out.append((name + "/" + f, name))
                }
            } else if name.lowercased().hasSuffix(".csv") {
                out.append((name, rootLabel))
            }
        }
        return out
    }

    /// Creates `path` and any missing parent folders (`mkdir -p`).
    static func makeFolders(_ path: String) throws(NativeWriter.WriteError) {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            if DatasetLocator.isDirectory(prefix) { continue }
            if mkdir(prefix, 0o755) != 0 && !(errno == EEXIST && DatasetLocator.isDirectory(prefix)) {
                throw NativeWriter.WriteError(path: prefix, message: String(cString: strerror(errno)))
            }
        }
    }
}
