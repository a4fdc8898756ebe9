import MotusCore

/// The WISDM datasets (`WISDMReader`): a v1.1 raw file (`WISDM_ar_v1.1_raw.txt`, one entry per
/// user: id `<file>/<user>`, subject the user), or a folder holding such files or the 2019
/// layout (`raw/{phone|watch}/{accel|gyro}/data_<subject>_<sensor>_<device>.txt`, searched
/// four folders deep: one entry per subject and device, id `<device>/<subject>`, label the
/// device; the accelerometer file is the entry's path and its gyroscope file comes along). A
/// gyroscope file without its accelerometer file is an entry of its own.
public struct WISDMDataset: Dataset {
    /// `wisdm`.
    public let name = "wisdm"
    /// The file or folder it was opened from.
    public let root: String
    /// Every user (v1.1) or subject and device (2019), in natural order.
    public let entries: [DatasetEntry]
    /// Entry id → the user to read from the entry's file (v1.1), nil for a 2019 file.
    private let users: [String: String]

    /// Lists the dataset at `root`: reads every v1.1 file once to find its users. Throws
    /// `.emptyFile` when there are no recordings, and the reader's error for a v1.1 file that
    /// cannot be read.
    public init(root: String) throws(InputError) {
        self.root = root
        var list: [DatasetEntry] = []
        var users: [String: String] = [:]
        func addUsers(of file: String) throws(InputError) {
            let base = String(ReaderFiles.lastComponent(file).dropLast(4))
            for u in try WISDMReader.users(path: file) {
                let id = "\(base)/\(u)"
                users[id] = u
                list.append(DatasetEntry(id: id, subject: u, label: nil, path: file))
            }
        }
        if ReaderFiles.isFile(root) {
            try addUsers(of: root)
        } else {
            var files: [String] = []
            WISDMDataset.collect(root, depth: 4, into: &files)
            var accel = Set<String>()
            for f in files { if let n = WISDMReader.parseFileName(ReaderFiles.lastComponent(f)), n.sensor == "accel" { accel.insert("\(n.device)/\(n.subject)") } }
            for f in files.sorted(by: readerNaturalLess) {
                if let n = WISDMReader.parseFileName(ReaderFiles.lastComponent(f)) {
                    let id = "\(n.device)/\(n.subject)"
                    if n.sensor == "accel" || !accel.contains(id) {
                        list.append(DatasetEntry(id: id, subject: n.subject, label: n.device, path: f))
                    }
                } else {
                    try addUsers(of: f)
                }
            }
        }
        guard !list.isEmpty else { throw noRecordings(root, "a WISDM raw file or a folder with raw/<device>/<sensor>/data_<subject>_<sensor>_<device>.txt") }
        entries = list.sorted { readerNaturalLess($0.id, $1.id) }
        self.users = users
    }

    /// 2019 data files and v1.1 raw files (`WISDMDataset.isV1File`) under `dir`.
    static func collect(_ dir: String, depth: Int, into out: inout [String]) {
        for f in ReaderFiles.list(dir) where !f.hasPrefix(".") {
            let p = ReaderFiles.join(dir, f)
            if ReaderFiles.isDirectory(p) {
                if depth > 0 { collect(p, depth: depth - 1, into: &out) }
            } else if WISDMReader.parseFileName(f) != nil || isV1File(p) {
                out.append(p)
            }
        }
    }

    /// A `.txt` file whose first record is a WISDM record with an activity word (the v1.1 layout).
    static func isV1File(_ path: String) -> Bool {
        guard path.hasSuffix(".txt"), let f = WISDMReader.firstRecordFields(path) else { return false }
        return f[1].count > 1
    }

    /// True when `dir` (whose entries are `names`) holds WISDM files, directly or in the 2019
    /// layout's folders (`raw`, `phone`, `watch`, `accel`, `gyro`).
    static func isDatasetFolder(_ dir: String, names: [String]) -> Bool {
        if names.contains(where: { WISDMReader.parseFileName($0) != nil }) { return true }
        if names.contains(where: { $0.hasPrefix("WISDM") && $0.hasSuffix(".txt") && isV1File(ReaderFiles.join(dir, $0)) }) { return true }
        for sub in ["raw", "phone", "watch", "accel", "gyro"] where names.contains(sub) {
            let p = ReaderFiles.join(dir, sub)
            if ReaderFiles.isDirectory(p) && isDatasetFolder(p, names: ReaderFiles.list(p)) { return true }
        }
        return false
    }

    /// Reads the entry (`WISDMReader.read(path:user:)`); throws the reader's `InputError`.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try WISDMReader.read(path: entry.path, user: users[entry.id])
    }

    /// The entry's file and, for a 2019 file, its partner sensor's file.
    public func files(of entry: DatasetEntry) -> [String] {
        guard let n = WISDMReader.parseFileName(ReaderFiles.lastComponent(entry.path)) else { return [entry.path] }
        let other = n.sensor == "accel" ? "gyro" : "accel"
        return [entry.path, ReaderFiles.join(ReaderFiles.join(ReaderFiles.parent(ReaderFiles.parent(entry.path)), other), "data_\(n.subject)_\(other)_\(n.device).txt")]
    }
}
