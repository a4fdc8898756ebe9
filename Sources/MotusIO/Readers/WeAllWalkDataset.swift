import MotusCore

/// WeAllWalk: every phone file `sensor/iPhoneSensors_T<path>_ID<subject>_<phone>_<tool>.csv`
/// under `root` (the folder holding `sensor/` and `xml/`, or `sensor/` itself). One entry per
/// phone file: id `T1_ID3_1L_WC` (the file name without `iPhoneSensors_` and `.csv`), subject `ID3`, label the mobility tool (`long-cane`,
/// `guide-dog`, `none`). Loading reads the file with its trial's XML (`WeAllWalkReader`); a
/// file whose XML is missing is listed, set aside (`DatasetEntry.setAside`) with the XML's
/// name, and fails to load with an error naming the XML.
public struct WeAllWalkDataset: Dataset {
    /// `weallwalk`.
    public let name = "weallwalk"
    /// The folder it was opened from.
    public let root: String
    /// One entry per phone file, in natural order of the file names; a file without its XML is set aside.
    public let entries: [DatasetEntry]

    /// Lists the phone files under `root`; throws `.emptyFile` when there are none.
    public init(root: String) throws(InputError) {
        self.root = root
        let sensor = WeAllWalkDataset.sensorFolder(root)
        var list: [DatasetEntry] = []
        for f in ReaderFiles.list(sensor) {
            guard let n = WeAllWalkReader.parseFileName(f) else { continue }
            let p = ReaderFiles.join(sensor, f)
            guard ReaderFiles.isFile(p) else { continue }
            // Without its trial's XML a phone file has no ground truth: listed, set aside.
            let xml = WeAllWalkReader.annotationPath(forSensorFile: p) == nil ? "no \(n.annotationFileName) (the trial's annotations) in ../xml/ or beside it" : nil
            list.append(DatasetEntry(id: n.id, subject: n.subject, label: n.mobilityTool, path: p, setAside: xml))
        }
        guard !list.isEmpty else {
            throw noRecordings(root, "a WeAllWalk folder with sensor/iPhoneSensors_T<path>_ID<subject>_<phone>_<tool>.csv")
        }
        entries = list
    }

    /// `root/sensor` when it exists, else `root`.
    static func sensorFolder(_ root: String) -> String {
        let s = ReaderFiles.join(root, "sensor")
        return ReaderFiles.isDirectory(s) ? s : root
    }

    /// True when `dir` (whose entries are `names`) is a WeAllWalk folder or its `sensor/` folder.
    static func isDatasetFolder(_ dir: String, names: [String]) -> Bool {
        let files = names.contains("sensor") ? ReaderFiles.list(ReaderFiles.join(dir, "sensor")) : names
        return files.contains { WeAllWalkReader.parseFileName($0) != nil }
    }

    /// Reads the phone file with its trial's annotations (`WeAllWalkReader.read(path:)`); throws
    /// the reader's `InputError` (naming the XML when it is missing).
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try WeAllWalkReader.read(path: entry.path)
    }

    /// The phone file and both places its trial's XML may be (`../xml/`, then beside it).
    public func files(of entry: DatasetEntry) -> [String] {
        guard let f = WeAllWalkReader.parseFileName(ReaderFiles.lastComponent(entry.path)) else { return [entry.path] }
        let dir = ReaderFiles.parent(entry.path)
        return [entry.path, ReaderFiles.join(ReaderFiles.join(ReaderFiles.parent(dir), "xml"), f.annotationFileName),
                ReaderFiles.join(dir, f.annotationFileName)]
    }
}
