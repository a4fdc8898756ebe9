import MotusCore

/// BROAD (Berlin Robust Orientation Estimation Assessment Dataset): every `data_mat/*.mat`
/// trial under `root` (the folder holding `data_mat`, or `data_mat` itself). Entry ids are the
/// trial names (`01_undisturbed_slow_rotation_A`); labels the trial's top-level group from
/// `data_mat/trials.json` (`undisturbed` or `disturbed`), nil when the file does not name one.
/// Loading reads the trial with `BROADReader`: IMU streams, the optical reference attitude
/// (`reference_attitude`) and movement/rest labels.
public struct BROADDataset: Dataset {
    /// `broad`.
    public let name = "broad"
    /// The folder it was opened from (holding `data_mat`, or `data_mat` itself).
    public let root: String
    /// One entry per trial file, in natural order of the file names.
    public let entries: [DatasetEntry]
    /// Trial → groups from `trials.json` (nil when absent).
    public let trialGroups: [String: [String]]?

    /// Lists the trials under `root` (`data_mat/*.mat`, with their groups from `trials.json` when it
    /// is there). Throws `.emptyFile` when there is no trial, and the `InputError` of reading
    /// `trials.json` when it does not parse.
    public init(root: String) throws(InputError) {
        self.root = root
        let dir = BROADDataset.matFolder(root)
        var groups: [String: [String]]? = nil
        var topLevel: Set<String> = []
        let json = ReaderFiles.join(dir, "trials.json")
        if ReaderFiles.isFile(json) {
            let t = try BROADDataset.readTrials(path: json)
            groups = t.groups
            topLevel = t.topLevel
        }
        var list: [DatasetEntry] = []
        for f in ReaderFiles.list(dir) where f.hasSuffix(".mat") && ReaderFiles.isFile(ReaderFiles.join(dir, f)) {
            let id = String(f.dropLast(4))
            let label = groups?[id]?.first { topLevel.contains($0) }
            list.append(DatasetEntry(id: id, subject: nil, label: label, path: ReaderFiles.join(dir, f)))
        }
        guard !list.isEmpty else { throw noRecordings(root, "a BROAD folder with data_mat/<trial>.mat files") }
        entries = list
        trialGroups = groups
    }

    /// Reads the trial (`BROADReader.read(path:groups:)`) with its groups from `trials.json`;
    /// throws the reader's `InputError`.
    public func read(_ entry: DatasetEntry) throws(InputError) -> Recording {
        try BROADReader.read(path: entry.path, groups: trialGroups.map { $0[entry.id] ?? [] })
    }

    /// The trial's MAT-file and `trials.json` (read once, when listing).
    public func files(of entry: DatasetEntry) -> [String] {
        [entry.path, ReaderFiles.join(ReaderFiles.parent(entry.path), "trials.json")]
    }

    /// `root/data_mat` when it is a folder, else `root`.
    static func matFolder(_ root: String) -> String {
        let d = ReaderFiles.join(root, "data_mat")
        return ReaderFiles.isDirectory(d) ? d : root
    }

    /// `trials.json`: each trial's groups, and the names of the level-1 groups.
    static func readTrials(path: String) throws(InputError) -> (groups: [String: [String]], topLevel: Set<String>) {
        let doc = try ReaderJSONDocument(path: path)
        guard doc.root.isObject else {
            throw InputError(.badValue, at: doc.location(doc.root), found: doc.snippet(doc.root), expected: "a JSON object with 'groups' and 'trials'")
        }
        var topLevel: Set<String> = []
        for g in try doc.array(try doc.member(doc.root, "groups", context: "trials.json"), context: "groups") {
            let name = try doc.member(g, "name", context: "a group")
            guard let n = name.string else {
                throw InputError(.badValue, at: doc.location(name), found: doc.snippet(name), expected: "a group name (text)")
            }
            if let level = g["level"]?.number, level == 1 { topLevel.insert(n) }
        }
        let trialsNode = try doc.member(doc.root, "trials", context: "trials.json")
        guard case .object(let trials) = trialsNode.value else {
            throw InputError(.badValue, at: doc.location(trialsNode), found: doc.snippet(trialsNode), expected: "an object of trials")
        }
        var groups: [String: [String]] = [:]
        for (trial, info) in trials {
            var list: [String] = []
            for g in try doc.array(try doc.member(info, "groups", context: "trial \(trial)"), context: "groups of \(trial)") {
                guard let s = g.string else {
                    throw InputError(.badValue, at: doc.location(g), found: doc.snippet(g), expected: "a group name (text) for \(trial)")
                }
                list.append(s)
            }
            groups[trial] = list
        }
        return (groups, topLevel)
    }

    /// Whether the MAT-file at `path` holds BROAD's variables (reads only the variable names).
    static func isTrialFile(_ path: String) -> Bool {
        guard path.hasSuffix(".mat"), let names = try? MATFile.variableNames(path: path) else { return false }
        return BROADReader.requiredVariables.isSubset(of: names)
    }

    /// The error for a `.mat` file that is not a BROAD trial (nor a MATLAB Mobile log, which
    /// the loader reads): what it holds, or why it cannot be read as a MAT-file at all.
    static func notATrial(_ path: String) -> InputError {
        let names: [String]
        do { names = try MATFile.variableNames(path: path) } catch { return error }
        let want = BROADReader.requiredVariables.sorted().joined(separator: ", ")
        return InputError(.badValue, at: SourceLocation(file: path), found: "variables \(names.joined(separator: ", "))",
                          expected: "a BROAD trial (\(want)); read other MAT-files with MATFile.read")
    }

    /// A BROAD dataset folder: `data_mat/` (or the folder itself) holding `.mat` files, the
    /// first of which has BROAD's variables.
    static func isDatasetFolder(_ dir: String, names: [String]) -> Bool {
        let matDir = names.contains("data_mat") ? ReaderFiles.join(dir, "data_mat") : dir
        let files = matDir == dir ? names : ReaderFiles.list(matDir)
        guard let first = files.first(where: { $0.hasSuffix(".mat") }) else { return false }
        return isTrialFile(ReaderFiles.join(matDir, first))
    }
}
