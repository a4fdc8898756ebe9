import MotusCore

/// The smartphone + smartwatch activity dataset (Matey-Sanz et al.): every
/// `DATA/sXX/sXX_YY_{sp|sw}.csv` under `root` (the folder holding `DATA/`, `DATA/` itself, or
/// one subject's folder). One entry per file: id `s01/s01_01_sp`, subject `s01`, label the
/// device suffix (`sp` or `sw`). `devices` lists only the phone or only the watch files. The
/// information files (`subjects_info.csv`, `executions_info.csv`) are read once, here.
public struct SPSWHARDataset: Dataset {
    /// `sp-sw-har`.
    public let name = "sp-sw-har"
    /// The folder it was opened from.
    public let root: String
    /// One entry per recording file of the devices asked for, subject by subject.
    public let entries: [DatasetEntry]
    /// Subject id → age, gender, height, weight, dominant hand, from `subjects_info.csv` (nil
    /// when the file is absent).
    public let subjectInfo: [String: SPSWHARReader.Subject]?
    /// Execution id (`sXX_YY`) → the phone's orientation and the turns' directions, from
    /// `executions_info.csv` (nil when the file is absent).
    public let executionInfo: [String: SPSWHARReader.Execution]?
    private let infoFiles: [String]

    /// Lists the recordings of `devices` under `root`. Throws `.emptyFile` when there are none, and
    /// the reader's `InputError` when an information file is there but cannot be read.
    public init(root: String, devices: Set<SPSWHARReader.Device> = Set(SPSWHARReader.Device.allCases)) throws(InputError) {
        self.root = root
        var data = root
        if ReaderFiles.isDirectory(ReaderFiles.join(root, "DATA")) { data = ReaderFiles.join(root, "DATA") }
        var list: [DatasetEntry] = []
        func add(_ folder: String, _ prefix: String) {
            for f in ReaderFiles.list(folder) {
                guard let n = SPSWHARReader.parseFileName(f), devices.contains(n.device) else { continue }
                let p = ReaderFiles.join(folder, f)
                guard ReaderFiles.isFile(p) else { continue }
                list.append(DatasetEntry(id: prefix + String(f.dropLast(4)), subject: n.subject, label: n.device.rawValue, path: p))
            }
        }
        var infoFolder = data
        let names = ReaderFiles.list(data)
        if names.contains(where: { SPSWHARReader.parseFileName($0) != nil }) {
            // One subject's folder: ids keep the subject folder, the information files are one up.
            add(data, ReaderFiles.lastComponent(data) + "/")
            infoFolder = ReaderFiles.parent(data)
        } else {
            for s in names where ReaderFiles.isDirectory(ReaderFiles.join(data, s)) { add(ReaderFiles.join(data, s), s + "/") }
        }
        guard !list.isEmpty else { throw noRecordings(root, "an sp-sw-har folder with DATA/sXX/sXX_YY_{sp|sw}.csv") }
        entries = list
        let sp = ReaderFiles.join(infoFolder, "subjects_info.csv"), ep = ReaderFiles.join(infoFolder, "executions_info.csv")
        infoFiles = [sp, ep]
        subjectInfo = ReaderFiles.isFile(sp) ? try SPSWHARReader.subjectInfo(path: sp) : nil
        executionInfo = ReaderFiles.isFile(ep) ? try SPSWHARReader.executionInfo(path: ep) : nil
    }

    /// True when `dir` (whose entries are `names`) is the dataset folder, `DATA/`, or a subject
    /// folder of recordings with the dataset's header.
    static func isDatasetFolder(_ dir: String, names: [String]) -> Bool {
        if names.contains("DATA") { return isDatasetFolder(ReaderFiles.join(dir, "DATA"), names: ReaderFiles.list(ReaderFiles.join(dir, "DATA"))) }
        if names.contains("subjects_info.csv") && names.contains("executions_info.csv") { return true }
        if let f = names.first(where: { SPSWHARReader.parseFileName($0) != nil }) { return isRecording(ReaderFiles.join(dir, f)) }
        // `DATA/` without its information files: subject folders `sXX` of recordings.
        for s in names where s.hasPrefix("s") && s.dropFirst().allSatisfy(\.readerIsDigit) {
            let sub = ReaderFiles.join(dir, s)
            if let f = ReaderFiles.list(sub).first(where: { SPSWHARReader.parseFileName($0) != nil }) { return isRecording(ReaderFiles.join(sub, f)) }
        }
        return false
    }

    /// A file whose first line is the dataset's header.
    static func isRecording(_ path: String) -> Bool {
        var text = String(decoding: ReaderFiles.headBytes(path, count: 256), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        return text.hasPrefix(SPSWHARReader.header + "\n") || text.hasPrefix(SPSWHARReader.header + "\r\n") || text == SPSWHARReader.header
    }

    /// Reads the file with its subject's and execution's information (`SPSWHARReader.read`); throws
    /// the reader's `InputError`.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try SPSWHARReader.read(path: entry.path, subjects: subjectInfo, executions: executionInfo)
    }

    /// The recording and the two information files (read once, when listing).
    public func files(of entry: DatasetEntry) -> [String] { [entry.path] + infoFiles }
}
