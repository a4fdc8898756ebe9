import MotusCore

/// One recording of a dataset, as listed before loading it.
public struct DatasetEntry: Sendable, Hashable {
    /// Unique within the dataset, stable across runs, e.g. "dws_1/sub_3", "Pixel_Jamie_Hard_FrontPocket_2", "3-1".
    public var id: String
    /// Subject as the dataset names it (for leave-subject-out splits).
    public var subject: String?
    /// Whole-recording label when the dataset has one (MotionSense activity code; Oxford
    /// placement), else nil.
    public var label: String?
    /// The path a reader opens (a file, or a walk folder for Oxford).
    public var path: String
    /// Why this recording, found while listing, cannot be loaded with its ground truth (a file it
    /// needs is missing, e.g. an Oxford walk without `stepcounter.csv`); nil for a loadable one.
    /// Such an entry is listed rather than left out, so that a run never silently covers fewer
    /// recordings: evaluation reports it as skipped with this reason, and `load` throws an error
    /// naming the missing file.
    public var setAside: String?

    /// An entry; see the properties for each argument.
    public init(id: String, subject: String?, label: String?, path: String, setAside: String? = nil) {
        self.id = id; self.subject = subject; self.label = label; self.path = path; self.setAside = setAside
    }
}

/// A dataset in the tpcp/gaitmap sense: a list of recordings and a way to load each, so that
/// evaluation is one loop (`for e in ds.entries { let r = try ds.load(e.id); … }`) whatever
/// the dataset. Listing is cheap (done once, at initialisation); loading reads the files.
public protocol Dataset: Sendable {
    /// Short name, e.g. "motionsense".
    var name: String { get }
    /// The folder it was opened from.
    var root: String { get }
    /// Every recording, in a stable (natural) order.
    var entries: [DatasetEntry] { get }
    /// Reads one recording (the format's reader). Callers use `load(_:)`, which checks that
    /// the files did not change while they were read.
    func read(_ entry: DatasetEntry) throws(InputError) -> Recording
    /// Every file `read(entry)` may open, including optional ones that may be absent (an IPOL
    /// trial's JSON, WeAllWalk's two places for the XML) and information files shared by all
    /// entries: what `load` and `DatasetSnapshot` fingerprint.
    func files(of entry: DatasetEntry) -> [String]
}

extension Dataset {
    /// Reads one recording; `id` is an entry's id. Unknown ids throw `.badValue`. The files of
    /// the entry (`files(of:)`) are fingerprinted before and after the read: when one changed,
    /// appeared or went away meanwhile, the read is an `.unreadable` error naming that file
    /// ("changed while it was read"), never a recording made of two versions.
    public func load(_ id: String) throws(InputError) -> Recording {
        let e = try requireEntry(id)
        return try StableRead.read(files(of: e)) { () throws(InputError) -> Recording in try read(e) }
    }

    /// The entry's own path when it is a file; every file of the folder when it is one.
    public func files(of entry: DatasetEntry) -> [String] {
        ReaderFiles.isDirectory(entry.path) ? ReaderFiles.list(entry.path).map { ReaderFiles.join(entry.path, $0) } : [entry.path]
    }

    /// The ids of every entry, in the entries' order.
    public var recordingIDs: [String] { entries.map(\.id) }
    /// The entry with this id; nil when there is none.
    public func entry(_ id: String) -> DatasetEntry? { entries.first { $0.id == id } }
    /// Distinct subjects in order of first appearance.
    public var subjects: [String] {
        var seen = Set<String>(), out: [String] = []
        for e in entries { if let s = e.subject, seen.insert(s).inserted { out.append(s) } }
        return out
    }

    /// Throws `.badValue` naming both files when two entries share an id. `load(_:)` finds a
    /// recording by its id, so a second entry with the same id would silently be read as the
    /// first: one recording counted twice and the other never. A reader whose ids leave out a
    /// part of the file name that tells two recordings apart fails here instead.
    public func requireUniqueIDs() throws(InputError) {
        var first: [String: String] = [:]
        for e in entries {
            if let other = first[e.id] {
                throw InputError(.badValue, at: SourceLocation(file: e.path), found: "recording id \(e.id)",
                                 expected: "one recording per id in the \(name) dataset (\(other) has this id too)")
            }
            first[e.id] = e.path
        }
    }

    func requireEntry(_ id: String) throws(InputError) -> DatasetEntry {
        guard let e = entry(id) else {
            throw InputError(.badValue, at: SourceLocation(file: root), found: id,
                             expected: "a recording id of the \(name) dataset (\(entries.prefix(3).map(\.id).joined(separator: ", ")), …)")
        }
        return e
    }
}

func noRecordings(_ root: String, _ what: String) -> InputError {
    InputError(.emptyFile, at: SourceLocation(file: root), found: ReaderFiles.isDirectory(root) ? "no recordings" : "no such folder", expected: what)
}

/// MotionSense: every `A_DeviceMotion_data/<act>_<trial>/sub_<n>.csv`. `root` is the folder
/// holding `A_DeviceMotion_data` (or that folder itself). Entry ids are `<act>_<trial>/sub_<n>`,
/// labels the activity code, subjects `sub_<n>`. Loading attaches the raw B/C streams when
/// present and the subject information.
public struct MotionSenseDataset: Dataset {
    /// `motionsense`.
    public let name = "motionsense"
    /// The folder holding `A_DeviceMotion_data` (also when opened from that folder itself).
    public let root: String
    /// Every device-motion file, in natural order, with the raw-only trials set aside.
    public let entries: [DatasetEntry]
    /// Subject number → weight, height, age and gender from `data_subjects_info.csv`; nil when the
    /// file is absent.
    public let subjectInfo: [Int: MotionSenseSubject]?

    /// Lists the dataset at `root`. Throws `.emptyFile` when no recording is found, and the
    /// reader's error when `data_subjects_info.csv` is there but cannot be read.
    public init(root: String) throws(InputError) {
        var r = root
        if ReaderFiles.lastComponent(root) == "A_DeviceMotion_data" { r = ReaderFiles.parent(root) }
        self.root = r
        let a = ReaderFiles.join(r, "A_DeviceMotion_data")
        var list: [DatasetEntry] = []
        for trial in ReaderFiles.list(a) where ReaderFiles.isDirectory(ReaderFiles.join(a, trial)) {
            guard let u = trial.lastIndex(of: "_"), MotionSenseReader.activityCodes.contains(String(trial[..<u])) else { continue }
            let act = String(trial[..<u])
            for f in ReaderFiles.list(ReaderFiles.join(a, trial)) where f.hasPrefix("sub_") && f.hasSuffix(".csv") {
                let sub = String(f.dropLast(4))
                list.append(DatasetEntry(id: "\(trial)/\(sub)", subject: sub, label: act, path: ReaderFiles.join(a, "\(trial)/\(f)")))
            }
        }
        // Raw B/C files whose device-motion file is missing: a recording found, set aside.
        let listed = Set(list.map(\.id))
        var setAside: [String: String] = [:]
        for raw in ["B_Accelerometer_data", "C_Gyroscope_data"] {
            let folder = ReaderFiles.join(r, raw)
            for trial in ReaderFiles.list(folder) where ReaderFiles.isDirectory(ReaderFiles.join(folder, trial)) {
                guard let u = trial.lastIndex(of: "_"), MotionSenseReader.activityCodes.contains(String(trial[..<u])) else { continue }
                for f in ReaderFiles.list(ReaderFiles.join(folder, trial)) where f.hasPrefix("sub_") && f.hasSuffix(".csv") {
                    let id = "\(trial)/\(f.dropLast(4))"
                    if !listed.contains(id) && setAside[id] == nil {
                        setAside[id] = "no A_DeviceMotion_data/\(id).csv (only the raw \(raw) file)"
                        list.append(DatasetEntry(id: id, subject: String(f.dropLast(4)), label: String(trial[..<u]),
                                                 path: ReaderFiles.join(a, "\(trial)/\(f)"), setAside: setAside[id]))
                    }
                }
            }
        }
        guard !list.isEmpty else { throw noRecordings(root, "a MotionSense folder with A_DeviceMotion_data/<act>_<trial>/sub_<n>.csv") }
        entries = setAside.isEmpty ? list : list.sorted { readerNaturalLess($0.id, $1.id) }
        let info = ReaderFiles.join(r, "data_subjects_info.csv")
        subjectInfo = ReaderFiles.isFile(info) ? try MotionSenseReader.subjectInfo(path: info) : nil
    }

    /// Reads the entry's device-motion file with its raw accelerometer and gyroscope streams and
    /// its subject's information (`MotionSenseReader.read`); throws the reader's `InputError`.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try MotionSenseReader.read(path: entry.path, subjects: subjectInfo, includeRaw: true)
    }

    /// The device-motion file, its raw accelerometer and gyroscope files, the subjects' table.
    public func files(of entry: DatasetEntry) -> [String] {
        let rel = entry.id + ".csv"
        return [entry.path, ReaderFiles.join(root, "B_Accelerometer_data/" + rel), ReaderFiles.join(root, "C_Gyroscope_data/" + rel),
                ReaderFiles.join(root, "data_subjects_info.csv")]
    }
}

/// Oxford step counter: every walk folder (holding `accelerometer.csv` and `stepcounter.csv`)
/// under `root`, `root/data` or `root/optimisation/data`. Folders starting with `_` (the
/// `_Patient_*` recordings, skipped by upstream's `stats.js` too) are left out. Entry ids are
/// the folder names, subjects the person, labels the normalised placement. `stepTotals` is
/// `optimisation/stats.csv` when found.
public struct OxfordDataset: Dataset {
    /// `oxford`.
    public let name = "oxford"
    /// The folder it was opened from (holding the walks, `data/` or `optimisation/data/`).
    public let root: String
    /// Every walk folder in natural order; a walk missing one of its two files is set aside.
    public let entries: [DatasetEntry]
    /// Walk folder → ground-truth steps, from `stats.csv` (nil when absent).
    public let stepTotals: [String: Int]?

    /// Lists the walks under `root`. Throws `.emptyFile` when there are none, and the reader's
    /// error when `stats.csv` is there but cannot be read.
    public init(root: String) throws(InputError) {
        self.root = root
        var dataDir = root
        for c in ["optimisation/data", "data"] where ReaderFiles.isDirectory(ReaderFiles.join(root, c)) {
            dataDir = ReaderFiles.join(root, c); break
        }
        var list: [DatasetEntry] = []
        for f in ReaderFiles.list(dataDir) where !f.hasPrefix("_") {
            let p = ReaderFiles.join(dataDir, f)
            guard ReaderFiles.isDirectory(p) else { continue }
            // A folder holding one of the two files, or named like a walk, is a walk: when a file
            // is missing it is listed, set aside with the reason, never left out unseen.
            let hasAcc = ReaderFiles.isFile(ReaderFiles.join(p, "accelerometer.csv"))
            let hasSteps = ReaderFiles.isFile(ReaderFiles.join(p, "stepcounter.csv"))
            let w = OxfordReader.parseName(f)
            guard hasAcc || hasSteps || w != nil else { continue }
            let missing = [hasAcc ? nil : "accelerometer.csv", hasSteps ? nil : "stepcounter.csv"].compactMap { $0 }
            let reason = missing.isEmpty ? nil : "no \(missing.joined(separator: " and ")) in the walk folder"
            list.append(DatasetEntry(id: f, subject: w?.person, label: w?.placement, path: p, setAside: reason))
        }
        guard !list.isEmpty else { throw noRecordings(root, "an Oxford folder with walk folders holding accelerometer.csv and stepcounter.csv") }
        entries = list
        statsPath = ReaderFiles.join(ReaderFiles.parent(dataDir), "stats.csv")
        stepTotals = ReaderFiles.isFile(statsPath) ? try OxfordReader.statsTable(path: statsPath) : nil
    }

    private let statsPath: String

    static func isWalk(_ p: String) -> Bool {
        ReaderFiles.isFile(ReaderFiles.join(p, "accelerometer.csv")) && ReaderFiles.isFile(ReaderFiles.join(p, "stepcounter.csv"))
    }

    /// Reads the walk folder (`OxfordReader.read(folder:)`): acceleration and the reference step
    /// counter; throws the reader's `InputError`.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try OxfordReader.read(folder: entry.path)
    }

    /// The walk's two CSV files, its `metadata.txt` and `notes.txt`, and `stats.csv`.
    public func files(of entry: DatasetEntry) -> [String] {
        ["accelerometer.csv", "stepcounter.csv", "metadata.txt", "notes.txt"].map { ReaderFiles.join(entry.path, $0) } + [statsPath]
    }
}

/// IPOL gait trials: every `*_lb.txt` under `root` (searched four folders deep), i.e. set 1
/// (`GaitData/<subj>-<trial>_lb.txt`, id `<subj>-<trial>`, subject `<subj>`) and the Semiogram
/// examples (`<group>/<visit>_lb.txt`, id `<group>/<visit>`, subject `<group>`).
public struct IPOLDataset: Dataset {
    /// `ipol`.
    public let name = "ipol"
    /// The folder it was opened from.
    public let root: String
    /// Every trial, ordered by path; annotations without their `_lb.txt` are set aside.
    public let entries: [DatasetEntry]

    /// Lists the trials under `root`; throws `.emptyFile` when there are none.
    public init(root: String) throws(InputError) {
        self.root = root
        var files: [String] = []
        var orphans: [String] = []
        IPOLDataset.collect(root, depth: 4, into: &files, orphans: &orphans)
        var list: [DatasetEntry] = []
        for p in files {
            let base = String(ReaderFiles.lastComponent(p).dropLast("_lb.txt".count))
            let folder = ReaderFiles.lastComponent(ReaderFiles.parent(p))
            if folder == "GaitData" || ReaderFiles.isFile(ReaderFiles.join(ReaderFiles.parent(p), base + ".json")) {
                let subj = base.split(separator: "-").first.map(String.init) ?? base
                list.append(DatasetEntry(id: base, subject: subj, label: nil, path: p))
            } else {
                list.append(DatasetEntry(id: "\(folder)/\(base)", subject: folder, label: nil, path: p))
            }
        }
        // Annotations whose lower-back file is missing: a trial found, set aside with the reason.
        for j in orphans {
            let folder = ReaderFiles.lastComponent(ReaderFiles.parent(j))
            let sensor = DatasetFormat.ipolSensorFile(forAnnotations: j)
            let base = String(ReaderFiles.lastComponent(sensor).dropLast("_lb.txt".count))
            let set1 = !j.hasSuffix("_ge.json")
            let id = set1 ? base : "\(folder)/\(base)"
            let subj = set1 ? (base.split(separator: "-").first.map(String.init) ?? base) : folder
            list.append(DatasetEntry(id: id, subject: subj, label: nil, path: sensor,
                                     setAside: "no \(ReaderFiles.lastComponent(sensor)) beside its annotations \(ReaderFiles.lastComponent(j))"))
        }
        guard !list.isEmpty else { throw noRecordings(root, "an IPOL folder with <trial>_lb.txt files") }
        entries = list.sorted { readerNaturalLess($0.path, $1.path) }
    }

    /// The `_lb.txt` files under `dir`, and the IPOL annotation files (`<trial>.json` in
    /// `GaitData`, `<visit>_ge.json`) whose `_lb.txt` is missing.
    static func collect(_ dir: String, depth: Int, into out: inout [String], orphans: inout [String]) {
        let names = ReaderFiles.list(dir)
        let isGaitData = ReaderFiles.lastComponent(dir) == "GaitData"
        for f in names {
            let p = ReaderFiles.join(dir, f)
            if f.hasSuffix("_lb.txt") && ReaderFiles.isFile(p) { out.append(p) }
            else if f.hasSuffix(".json") && (f.hasSuffix("_ge.json") || isGaitData) && ReaderFiles.isFile(p)
                        && !names.contains(ReaderFiles.lastComponent(DatasetFormat.ipolSensorFile(forAnnotations: p))) {
                orphans.append(p)
            }
            else if depth > 0 && ReaderFiles.isDirectory(p) { collect(p, depth: depth - 1, into: &out, orphans: &orphans) }
        }
    }

    /// Reads the trial (`IPOLReader.read(path:)`): the lower-back sensor with its annotated steps;
    /// throws the reader's `InputError`.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try IPOLReader.read(path: entry.path)
    }

    /// The lower-back file, its annotations (either name) and the two foot files.
    public func files(of entry: DatasetEntry) -> [String] {
        let dir = ReaderFiles.parent(entry.path)
        let base = String(ReaderFiles.lastComponent(entry.path).dropLast("_lb.txt".count))
        return [entry.path] + [".json", "_ge.json", "_lf.txt", "_rf.txt"].map { ReaderFiles.join(dir, base + $0) }
    }
}

/// mPower JSON recordings: every `*.json` under `root` (two folders deep) that starts like a
/// JSON array of objects. Ids are paths relative to `root` without `.json`.
public struct MPowerDataset: Dataset {
    /// `mpower`.
    public let name = "mpower"
    /// The folder it was opened from (or the one JSON file).
    public let root: String
    /// Every mPower JSON file, folder by folder in natural order.
    public let entries: [DatasetEntry]
    /// How many folders deep the listing looks (a Synapse download is three below the folder
    /// holding its `cache/`; the bound only stops a folder link that loops).
    static let listingDepth = 16

    /// Lists the mPower files under `root` (`recordingName(ofFile:)`: `X.json`, or as Synapse
    /// stores the study's files, `X.json.items-<uuid>.tmp`), or `root` itself when it is one;
    /// the id is the path below `root` with the file's recording name. Throws `.emptyFile` when
    /// there are none.
    public init(root: String) throws(InputError) {
        self.root = root
        var list: [DatasetEntry] = []
        func scan(_ dir: String, _ prefix: String, _ depth: Int) {
            for f in ReaderFiles.list(dir) {
                let p = ReaderFiles.join(dir, f)
                if let name = Self.recordingName(ofFile: f), DatasetFormat.looksLikeMPower(p) {
                    list.append(DatasetEntry(id: prefix + name, subject: nil, label: nil, path: p))
                } else if depth > 0 && ReaderFiles.isDirectory(p) {
                    scan(p, prefix + f + "/", depth - 1)
                }
            }
        }
        if ReaderFiles.isFile(root), let name = Self.recordingName(ofFile: ReaderFiles.lastComponent(root)), DatasetFormat.looksLikeMPower(root) {
            list.append(DatasetEntry(id: name, subject: nil, label: nil, path: root))
        } else {
            scan(root, "", Self.listingDepth)
        }
        guard !list.isEmpty else { throw noRecordings(root, "a folder of mPower device-motion JSON files") }
        entries = list
    }

    /// Reads the file (`MPowerReader.read(path:)`); throws the reader's `InputError`.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try MPowerReader.read(path: entry.path)
    }

    /// The recording's name in an mPower file's name: `walk_data.json` → `walk_data`; as the
    /// study's files come from Synapse, `accel_walking_outbound.json.items-<uuid>.tmp` →
    /// `accel_walking_outbound`; nil for any other name.
    public static func recordingName(ofFile name: String) -> String? {
        if name.hasSuffix(".json") { return name.count > 5 ? String(name.dropLast(5)) : nil }
        guard name.hasSuffix(".tmp"), let r = name.firstRange(of: ".json.items-"), r.lowerBound > name.startIndex else { return nil }
        return String(name[..<r.lowerBound])
    }

    /// True when `dir` is (or holds, at most `depth` folders down) a Synapse download of the
    /// study's files: folders only, down to files named `X.json.items-<uuid>.tmp` that read as
    /// mPower (the first one found ends the search). A Synapse `cache/` holds them two folders
    /// down (`cache/<n>/<file handle>/`). A folder with files of its own is not one, so a
    /// folder of other recordings is never taken for mPower because of a file deep inside it.
    static func isSynapseDownload(_ dir: String, depth: Int) -> Bool {
        var folders: [String] = []
        for f in ReaderFiles.list(dir) {
            let p = ReaderFiles.join(dir, f)
            if ReaderFiles.isDirectory(p) {
                folders.append(p)
            } else if f.hasSuffix(".tmp"), recordingName(ofFile: f) != nil, DatasetFormat.looksLikeMPower(p) {
                return true
            } else {
                return false
            }
        }
        return depth > 0 && folders.contains { isSynapseDownload($0, depth: depth - 1) }
    }
}

/// The dataset formats Motus reads, and guessing which one a path holds.
public enum DatasetFormat: String, Sendable, CaseIterable {
    /// MotionSense (`MotionSenseDataset`, `MotionSenseReader`).
    case motionsense
    /// Oxford step counter walks (`OxfordDataset`, `OxfordReader`).
    case oxford
    /// IPOL gait trials (`IPOLDataset`, `IPOLReader`).
    case ipol
    /// mPower CoreMotion JSON (`MPowerDataset`, `MPowerReader`).
    case mpower
    /// WeAllWalk (`WeAllWalkDataset`, `WeAllWalkReader`).
    case weallwalk
    /// BROAD MAT-file trials (`BROADDataset`, `BROADReader`).
    case broad
    /// sp-sw-har smartphone and smartwatch recordings (`SPSWHARDataset`, `SPSWHARReader`).
    case spswhar = "sp-sw-har"
    /// WISDM v1.1 and 2019 raw text (`WISDMDataset`, `WISDMReader`).
    case wisdm
    /// UCI HAR raw inertial signals (`UCIHARDataset`, `UCIHARReader`).
    case ucihar = "uci-har"

    /// What `probe` found: the format, and whether the path is one recording or a dataset folder.
    public struct Probe: Sendable, Hashable {
        /// The format found.
        public var format: DatasetFormat
        /// True for a folder of many recordings (open with `openDataset`), false for one
        /// recording (read with `readRecording`).
        public var isDataset: Bool
    }

    /// Guesses the format of a file or folder from names and the first bytes; nil when it is
    /// none of these. Reads at most a few kilobytes.
    public static func detect(path: String) -> DatasetFormat? { probe(path: path)?.format }

    /// Guesses the format of a file or folder and whether it is one recording or a dataset, from
    /// names and at most a few kilobytes of the first bytes; nil when it is none Motus knows (or a
    /// folder whose subfolders hold two different formats).
    public static func probe(path: String) -> Probe? {
        if ReaderFiles.isDirectory(path) {
            if let f = probeFolder(path) { return Probe(format: f.0, isDataset: f.1) }
            // One level down (e.g. the `mpower/` folder holding `mhealthtools/`).
            var found: DatasetFormat? = nil
            for sub in ReaderFiles.list(path) {
                let p = ReaderFiles.join(path, sub)
                guard ReaderFiles.isDirectory(p), let f = probeFolder(p) else { continue }
                if found == nil { found = f.0 } else if found != f.0 { return nil }
            }
            if let found { return Probe(format: found, isDataset: true) }
            // mPower as Synapse delivers it: files two or three folders down.
            return MPowerDataset.isSynapseDownload(path, depth: 3) ? Probe(format: .mpower, isDataset: true) : nil
        }
        guard ReaderFiles.isFile(path) else { return nil }
        let name = ReaderFiles.lastComponent(path)
        if name.hasSuffix(".mat") { return BROADDataset.isTrialFile(path) ? Probe(format: .broad, isDataset: false) : nil }
        if name == "accelerometer.csv" || name == "stepcounter.csv" {
            return OxfordDataset.isWalk(ReaderFiles.parent(path)) ? Probe(format: .oxford, isDataset: false) : nil
        }
        let head = ReaderFiles.headBytes(path, count: 4096)
        var text = String(decoding: head, as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let firstLine = String(text.prefix { $0 != "\n" && $0 != "\r\n" && $0 != "\r" })
        if name.hasSuffix(".csv") && (firstLine.hasPrefix(",attitude.") || firstLine == ",x,y,z") {
            return Probe(format: .motionsense, isDataset: false)
        }
        if WeAllWalkReader.parseFileName(name) != nil { return Probe(format: .weallwalk, isDataset: false) }
        if SPSWHARDataset.isRecording(path) { return Probe(format: .spswhar, isDataset: false) }
        if name.hasSuffix(".txt"), let f = WISDMReader.firstRecordFields(path) {
            // v1.1 (activity words) holds many users: a dataset; a 2019 file one subject.
            return Probe(format: .wisdm, isDataset: f[1].count > 1)
        }
        if firstLine.hasPrefix("Acquisition frequency:") || firstLine.hasPrefix("PacketCounter")
            || (firstLine.hasPrefix("//") && text.contains("PacketCounter")) {
            return Probe(format: .ipol, isDataset: false)
        }
        if MPowerDataset.recordingName(ofFile: name) != nil && looksLikeMPower(head: head) { return Probe(format: .mpower, isDataset: false) }
        if name.hasSuffix(".json") {
            if text.contains("\"LeftFootEvents\"") || text.contains("\"TrialBoundaries\"") || text.contains("\"gait start\"") {
                return ReaderFiles.isFile(ipolSensorFile(forAnnotations: path)) ? Probe(format: .ipol, isDataset: false) : nil
            }
        }
        return nil
    }

    /// (format, isDataset) from a folder's own entries.
    static func probeFolder(_ dir: String) -> (DatasetFormat, Bool)? {
        let names = ReaderFiles.list(dir)
        if names.contains("accelerometer.csv") && names.contains("stepcounter.csv") { return (.oxford, false) }
        if names.contains("A_DeviceMotion_data") || ReaderFiles.lastComponent(dir) == "A_DeviceMotion_data" { return (.motionsense, true) }
        if ReaderFiles.isDirectory(ReaderFiles.join(dir, "optimisation/data")) { return (.oxford, true) }
        if names.contains("GaitData") || names.contains("example_datasets") { return (.ipol, true) }
        if names.contains(where: { $0.hasSuffix("_lb.txt") }) { return (.ipol, true) }
        if names.contains(where: { OxfordDataset.isWalk(ReaderFiles.join(dir, $0)) }) { return (.oxford, true) }
        if names.contains(where: { MPowerDataset.recordingName(ofFile: $0) != nil && looksLikeMPower(ReaderFiles.join(dir, $0)) }) { return (.mpower, true) }
        if WeAllWalkDataset.isDatasetFolder(dir, names: names) { return (.weallwalk, true) }
        if SPSWHARDataset.isDatasetFolder(dir, names: names) { return (.spswhar, true) }
        if BROADDataset.isDatasetFolder(dir, names: names) { return (.broad, true) }
        if WISDMDataset.isDatasetFolder(dir, names: names) { return (.wisdm, true) }
        if UCIHARDataset.isDatasetFolder(dir, names: names) { return (.ucihar, true) }
        return nil
    }

    /// A JSON array whose first element is an object with a `timestamp` key.
    static func looksLikeMPower(_ path: String) -> Bool {
        looksLikeMPower(head: ReaderFiles.headBytes(path, count: mPowerHeadBytes))
    }

    /// The bytes `looksLikeMPower` reads.
    static let mPowerHeadBytes = 2048

    /// `looksLikeMPower` on a file's first bytes already read (at most `mPowerHeadBytes` of
    /// them are looked at, so the answer is the one the path gives).
    static func looksLikeMPower(head: [UInt8]) -> Bool {
        let b = head.prefix(mPowerHeadBytes)
        var i = b.startIndex
        if b.count >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF { i = 3 }
        func skip() { while i < b.count && (b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09) { i += 1 } }
        skip()
        guard i < b.count, b[i] == UInt8(ascii: "[") else { return false }
        i += 1; skip()
        guard i < b.count, b[i] == UInt8(ascii: "{") else { return false }
        return String(decoding: b, as: UTF8.self).contains("\"timestamp\"")
    }

    /// `X.json` or `X_ge.json` → `X_lb.txt`.
    static func ipolSensorFile(forAnnotations path: String) -> String {
        var p = String(path.dropLast(5))
        if p.hasSuffix("_ge") { p = String(p.dropLast(3)) }
        return p + "_lb.txt"
    }

    /// Reads one recording of this format (an Oxford walk folder or one of its two files; a
    /// MotionSense CSV; an IPOL `_lb.txt` or its JSON; an mPower JSON file).
    public func readRecording(path: String) throws(InputError) -> Recording {
        switch self {
        case .motionsense: return try MotionSenseReader.read(path: path)
        case .oxford: return try OxfordReader.read(folder: ReaderFiles.isDirectory(path) ? path : ReaderFiles.parent(path))
        case .ipol: return try IPOLReader.read(path: path.hasSuffix(".json") ? DatasetFormat.ipolSensorFile(forAnnotations: path) : path)
        case .mpower: return try MPowerReader.read(path: path)
        case .weallwalk: return try WeAllWalkReader.read(path: path)
        case .spswhar: return try SPSWHARReader.read(path: path)
        case .broad: return try BROADReader.read(path: path)
        case .wisdm: return try WISDMReader.read(path: path)
        case .ucihar:
            // A split folder holds every subject: `probe` calls it a dataset, never one recording.
            throw InputError(.badValue, at: SourceLocation(file: path), found: "a UCI HAR split folder",
                             expected: "one recording: open the folder as a dataset (one recording per subject)")
        }
    }

    /// Opens a dataset folder of this format.
    public func openDataset(root: String) throws(InputError) -> any Dataset {
        let ds: any Dataset
        switch self {
        case .motionsense: ds = try MotionSenseDataset(root: root)
        case .oxford: ds = try OxfordDataset(root: root)
        case .ipol: ds = try IPOLDataset(root: root)
        case .mpower: ds = try MPowerDataset(root: root)
        case .weallwalk: ds = try WeAllWalkDataset(root: root)
        case .spswhar: ds = try SPSWHARDataset(root: root)
        case .broad: ds = try BROADDataset(root: root)
        case .wisdm: ds = try WISDMDataset(root: root)
        case .ucihar: ds = try UCIHARDataset(root: root)
        }
        try ds.requireUniqueIDs()
        return ds
    }

    /// Detects the format and reads the recording at `path`; `.badValue` when the format is
    /// unknown or the path is a dataset folder.
    public static func readRecording(path: String) throws(InputError) -> Recording {
        guard let p = probe(path: path) else {
            throw InputError(.badValue, at: SourceLocation(file: path), found: ReaderFiles.lastComponent(path),
                             expected: "a MotionSense, Oxford, IPOL, mPower, WeAllWalk, sp-sw-har, BROAD, WISDM or UCI HAR recording")
        }
        guard !p.isDataset else {
            throw InputError(.badValue, at: SourceLocation(file: path), found: "a \(p.format.rawValue) dataset folder",
                             expected: "one recording (open the folder as a dataset instead)")
        }
        return try p.format.readRecording(path: path)
    }

    /// Detects the format and opens the dataset at `root`.
    public static func openDataset(root: String) throws(InputError) -> any Dataset {
        guard let p = probe(path: root) else {
            throw InputError(.badValue, at: SourceLocation(file: root), found: ReaderFiles.lastComponent(root),
                             expected: "a MotionSense, Oxford, IPOL, mPower, WeAllWalk, sp-sw-har, BROAD, WISDM or UCI HAR dataset folder")
        }
        return try p.format.openDataset(root: root)
    }
}
