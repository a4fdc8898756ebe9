import Testing
import Foundation
import Motus

/// `motus features --out FILE.npy` (matrix and sidecar) and the per-recording runs a scale-out
/// task makes (`--list-recordings`, `--recording ID` on features and evaluate-steps): the .npy
/// read back holds the library's numbers bit for bit, and one recording run by id gives the
/// rows the whole dataset's run gives.
@Suite(.serialized) struct FeaturesScaleOutCLITests {
    static let data = CLI.root + "/datasets"
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    static func tempDir() -> String {
        let dir = NSTemporaryDirectory() + "motus-npy-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Every row `FeatureExport.forEachRecording` makes of `path`: text columns and numbers.
    static func library(_ path: String, features: FeatureConfiguration) throws -> (recording: [String], subject: [String], label: [String?], numbers: [[Double]]) {
        var out: ([String], [String], [String?], [[Double]]) = ([], [], [], [])
        try FeatureExport.forEachRecording([try EvaluationDataset.open(path)], pipeline: MotionPipeline(features: features), labels: nil) { r in
            for i in 0..<r.count {
                out.0.append(r.recording); out.1.append(r.subject); out.2.append(r.labels[i])
                out.3.append([r.startTimes[i], r.endTimes[i]] + r.values[(i * r.columns)..<((i + 1) * r.columns)])
            }
        }
        return out
    }

    /// Writes `path`'s features as .npy and checks matrix and sidecar against the library.
    static func checkNumPy(_ path: String, features: FeatureConfiguration, flags: [String]) throws {
        let dir = tempDir(), out = dir + "/features.npy"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["features", path, "--out", out] + flags)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + ".partial") && !FileManager.default.fileExists(atPath: out + ".json.partial"))
        let matrix = try NumPyArray(path: out)
        let meta = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + ".json"))) as? [String: Any])
        let lib = try library(path, features: features)
        #expect(matrix.rows == lib.numbers.count && matrix.rows > 0)
        #expect(matrix.columns == 2 + features.featureCount)
        #expect(meta["columns"] as? [String] == ["start_s", "end_s"] + features.featureNames)
        #expect(meta["leading_columns"] as? [String] == FeatureExport.leadingColumns)
        #expect(meta["rows"] as? Int == matrix.rows && meta["npy"] as? String == "features.npy")
        #expect(meta["recording"] as? [String] == lib.recording)
        #expect(meta["subject"] as? [String] == lib.subject)
        let labels = try #require(meta["label"] as? [Any])
        #expect(labels.map { $0 as? String } == lib.label)
        #expect(labels.count == matrix.rows)
        var differing = 0
        for i in 0..<min(matrix.rows, lib.numbers.count) {
            for j in 0..<matrix.columns where matrix[i, j].bitPattern != lib.numbers[i][j].bitPattern { differing += 1 }
        }
        #expect(differing == 0)
        #expect(r.stderr.contains("wrote \(out) and \(out).json: \(matrix.rows) rows"))
    }

    @Test func npyHoldsTheLibrarysRowsOnTheRepositorysRecordings() throws {
        // Unlabelled windows among them: their label is null in the sidecar.
        try Self.checkNumPy(Self.data, features: .standard, flags: [])
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func npyHoldsTheLibrarysRowsOnSharedRecordings() throws {
        // The Oxford walks (no gyroscope) and the IPOL trials (labelled, with subjects).
        try Self.checkNumPy(Self.shared! + "/oxford", features: .standardNoGyroscope, flags: ["--features", "no-gyroscope"])
        try Self.checkNumPy(Self.shared! + "/ipol/voisard2023_ipol497", features: .standard, flags: [])
    }

    @Test func npyKeepsNaNAndTheSidecarKeepsMissingLabels() throws {
        let rows = FeatureExport.RecordingRows(recording: "a/b.motus", subject: "s \"1\"", labels: ["walk", nil], startTimes: [0, 1.5],
                                               endTimes: [2.56, 4.06], columns: 3, values: [1, .nan, -.infinity, -0.0, 0.1, .nan])
        let bytes = NumPyArray.header(rows: 2, columns: 5) + FeatureExport.matrixBytes(rows)
        let a = try NumPyArray(bytes: bytes, file: "x.npy")
        let expected: [Double] = [0, 2.56, 1, .nan, -.infinity, 1.5, 4.06, -0.0, 0.1, .nan]
        #expect(a.values.map(\.bitPattern) == expected.map(\.bitPattern))
        var sidecar = FeatureExport.NumPySidecar(featureNames: ["f1", "f2", "f3"])
        sidecar.add(rows)
        let meta = try #require(try JSONSerialization.jsonObject(with: Data(sidecar.json(npyFile: "x.npy").utf8)) as? [String: Any])
        #expect(meta["subject"] as? [String] == ["s \"1\"", "s \"1\""])
        #expect((meta["label"] as? [Any])?.first as? String == "walk" && (meta["label"] as? [Any])?.last is NSNull)
    }

    @Test func npyIsRefusedOnStandardOutputAndWithAFormat() throws {
        let r = try CLI.run(["features", Self.data, "--out", "/tmp/x.npy", "--format", "csv"])
        #expect(r.status != 0 && r.stderr.contains("--format csv but --out /tmp/x.npy names npy"))
        let missing = try CLI.run(["features", Self.data])
        #expect(missing.status != 0 && missing.stderr.contains("give --out FILE"))
    }

    /// The listing's ids, one JSON object per line.
    static func listing(_ path: String) throws -> [[String: Any]] {
        let r = try CLI.run(["features", "--list-recordings", path])
        #expect(r.status == 0, "\(r.stderr)")
        return try r.stdout.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    /// Concatenated per-recording runs equal the whole run, byte for byte (JSON Lines).
    static func checkOneByOne(_ path: String, flags: [String]) throws -> Int {
        let entries = try listing(path)
        let ds = try EvaluationDataset.open(path)
        #expect(entries.map { $0["recording"] as? String } == ds.entries.map(\.id))
        #expect(entries.allSatisfy { $0["path"] as? String == path && $0["dataset"] as? String == ds.name && $0["set_aside"] is NSNull })
        let whole = try CLI.run(["features", path, "--out", "-", "--format", "jsonl"] + flags)
        #expect(whole.status == 0)
        var pieces = ""
        for e in entries {
            let one = try CLI.run(["features", path, "--recording", e["recording"] as? String ?? "", "--out", "-", "--format", "jsonl"] + flags)
            #expect(one.status == 0, "\(one.stderr)")
            #expect(one.stderr.contains("from 1 recordings"))
            pieces += one.stdout
        }
        #expect(pieces == whole.stdout && !pieces.isEmpty)
        return entries.count
    }

    @Test func oneRecordingByIdGivesTheWholeRunsRows() throws {
        #expect(try Self.checkOneByOne(Self.data, flags: []) == 4)
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func oneRecordingByIdKeepsTheDatasetsContext() throws {
        // IPOL: subjects come from the dataset's layout and carry its name (`ipol…/3`), labels from its JSON.
        let path = Self.shared! + "/ipol/voisard2023_ipol497"
        let one = try CLI.run(["features", path, "--recording", "3-1", "--out", "-", "--format", "jsonl", "--labelled-only"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("\"subject\":\"voisard2023_ipol497/3\"") || one.stdout.contains("\"subject\":\"ipol/3\""), "\(one.stdout.prefix(300))")
        #expect(try Self.checkOneByOne(Self.shared! + "/oxford", flags: ["--features", "no-gyroscope"]) == 14)
    }

    @Test func unknownIdsAndSeveralPathsAreRefused() throws {
        let r = try CLI.run(["features", Self.data, "--recording", "nope.motus", "--out", "-"])
        #expect(r.status != 0)
        #expect(r.stderr.contains("\(Self.data): found 'nope.motus', expected the id of one of its 4 recordings"))
        let two = try CLI.run(["evaluate-steps", Self.data, Self.data, "--recording", "lowback-straight-walk.motus"])
        #expect(two.status != 0 && two.stderr.contains("--recording takes one dataset folder, not 2 paths"))
    }

    @Test func evaluateStepsByIdGivesTheWholeRunsRowOrItsSkippedLine() throws {
        let whole = try CLI.run(["evaluate-steps", Self.data, "--format", "json", "--allow-skipped"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(whole.stdout.utf8)) as? [String: Any])
        let rows = try #require(report["recordings"] as? [[String: Any]]), skipped = try #require(report["skipped"] as? [[String: Any]])
        #expect(rows.count == 2 && skipped.count == 2)
        for row in rows {
            let id = row["id"] as? String ?? ""
            let one = try CLI.run(["evaluate-steps", Self.data, "--recording", id, "--format", "json"])
            #expect(one.status == 0, "\(one.stderr)")
            let r = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
            #expect((r["recordings"] as? [[String: Any]]).map { NSArray(array: $0) } == NSArray(array: [row]))
        }
        for s in skipped {
            let id = s["id"] as? String ?? ""
            // Not scored: reported, status 1 as for a dataset with skipped recordings; 0 with --allow-skipped.
            let one = try CLI.run(["evaluate-steps", Self.data, "--recording", id, "--format", "json"])
            #expect(one.status == 1 && one.stderr.contains("1 recording not scored"))
            let r = try #require(try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any])
            #expect((r["skipped"] as? [[String: Any]]).map { NSArray(array: $0) } == NSArray(array: [s]))
            #expect((r["recordings"] as? [Any])?.isEmpty == true)
            #expect(try CLI.run(["evaluate-steps", Self.data, "--recording", id, "--allow-skipped"]).status == 0)
        }
    }
}
