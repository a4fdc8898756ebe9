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

    @Test func liveGapCountsBothWaysAndNeedsTheOfflineMode() throws {
        let offline = try CLI.run(["evaluate-steps", Self.data, "--format", "json", "--allow-skipped"])
        let live = try CLI.run(["evaluate-steps", Self.data, "--format", "json", "--allow-skipped", "--step-mode", "live"])
        func mape(_ r: CLI.Result) throws -> Double {
            let j = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            return try #require((j["summary"] as? [String: Any])?["mape"] as? Double)
        }
        let d = try mape(live) - mape(offline)
        let line = String(format: "live %.2f points %@ offline", Swift.abs(d), d > 0 ? "above" : "below")
        let pass = try CLI.run(["evaluate-steps", Self.data, "--allow-skipped", "--max-live-gap", String(format: "%.2f", Swift.max(0, d) + 0.01)])
        #expect(pass.status == 0 && pass.stderr.contains(line), "\(pass.stderr)")
        if d > 0.02 {
            let fail = try CLI.run(["evaluate-steps", Self.data, "--allow-skipped", "--max-live-gap", String(format: "%.2f", d - 0.02)])
            #expect(fail.status == 1 && fail.stderr.contains("bar failed: live step MAPE"))
        }
        let wrong = try CLI.run(["evaluate-steps", Self.data, "--step-mode", "live", "--max-live-gap", "1"])
        #expect(wrong.status != 0 && wrong.stderr.contains("--max-live-gap compares the live count with the offline one"))
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

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// `x` as motus prints a figure (6 significant digits), for comparing with a printed report.
    static func printed(_ x: Double) -> Double { Double(JSONNumbers.format(x, .significant(6))) ?? .nan }

    /// `evaluate --recording` per recording: the windows' exact parts pool (through the library's
    /// own report) to the whole run's figures; the counts add up to the whole run's confusion.
    static func checkEvaluatePools(_ path: String, flags: [String]) throws {
        let whole = try CLI.run(["evaluate", path, "--format", "json"] + flags)
        #expect(whole.status == 0, "\(whole.stderr)")
        let report = try json(whole.stdout)
        var yTrue: [Int] = [], p: [Double] = [], datasets: [String] = [], groups: [String] = []
        var classes: [String] = [], recordings = 0, confusion: [[Int]]? = nil
        for e in try listing(path) {
            let one = try CLI.run(["evaluate", path, "--recording", e["recording"] as? String ?? "", "--format", "json"] + flags)
            #expect(one.status == 0, "\(one.stderr)")
            let r = try json(one.stdout)
            let exact = try #require(r["exact"] as? [String: Any])
            classes = exact["classes"] as? [String] ?? []
            recordings += exact["recordings"] as? Int ?? 0
            if let rep = r["report"] as? [String: Any], let c = rep["confusion"] as? [[Int]] {
                confusion = confusion.map { a in zip(a, c).map { zip($0, $1).map { $0 + $1 } } } ?? c
            }
            for s in exact["scored"] as? [[String: Any]] ?? [] {
                let t = s["true_classes"] as? [Int] ?? []
                yTrue += t
                p += (s["probabilities"] as? [[Double]] ?? []).flatMap { $0 }
                datasets += Array(repeating: s["dataset"] as? String ?? "", count: t.count)
                groups += Array(repeating: s["group"] as? String ?? "", count: t.count)
            }
        }
        #expect(confusion == report["confusion"] as? [[Int]])
        let pooled = try EvaluationReport(classes: classes, yTrue: yTrue, probabilities: try Matrix(rows: yTrue.count, cols: classes.count, values: p), scheme: "")
            .withGroups(datasets: datasets, groups: groups, yTrue: yTrue, probabilities: try Matrix(rows: yTrue.count, cols: classes.count, values: p))
        #expect(pooled.windows == report["windows"] as? Int && pooled.confusion == report["confusion"] as? [[Int]])
        #expect((report["scheme"] as? String)?.hasSuffix("on \(recordings) recordings") == true)
        for (k, v) in [("accuracy", pooled.accuracy), ("balanced_accuracy", pooled.balancedAccuracy), ("macro_f1", pooled.macroF1), ("log_loss", pooled.logLoss)] {
            #expect(printed(v) == report[k] as? Double, "\(k)")
        }
        #expect(pooled.rocAUC.map(printed) == report["roc_auc"] as? Double)
        let wholeGroups = report["groups"] as? [[String: Any]]
        #expect(pooled.groups?.map(\.name) == wholeGroups?.map { $0["name"] as? String ?? "" })
        for (g, w) in zip(pooled.groups ?? [], wholeGroups ?? []) {
            #expect(printed(g.balancedAccuracy) == w["balanced_accuracy"] as? Double && g.windowsPerClass == w["windows_per_class"] as? [Int])
        }
    }

    @Test func evaluateByIdPoolsToTheWholeRun() throws {
        try Self.checkEvaluatePools(Self.data, flags: [])
        // The recording without a window inside a mapped label: a null report, not an error.
        let none = try CLI.run(["evaluate", Self.data, "--recording", "iphone-belt-stand-then-walk.motus", "--format", "json"])
        #expect(none.status == 0, "\(none.stderr)")
        let r = try Self.json(none.stdout)
        #expect(r["report"] is NSNull && (r["exact"] as? [String: Any])?["recordings"] as? Int == 1)
        let refused = try CLI.run(["evaluate", Self.data, "--recording", "a", "--cross-validate", "subjects"])
        #expect(refused.status != 0 && refused.stderr.contains("--recording scores recordings with a model"))
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func evaluateByIdPoolsOverTwoDatasetsAndTheirGroups() throws {
        // Two data sets and WeAllWalk's groups: per-data-set and per-group rows.
        let flags = ["--map", "moving=walk,turn", "--map", "still=still"]
        try Self.checkEvaluatePools(Self.shared! + "/ipol/voisard2023_ipol497", flags: flags)
        try Self.checkEvaluatePools(Self.shared! + "/weallwalk", flags: flags)
    }

    @Test func evaluateMotionByIdReportsARecordingItCannotJudge() throws {
        // The belt recording has neither labels nor reference steps.
        let one = try CLI.run(["evaluate-motion", Self.data, "--recording", "iphone-belt-stand-then-walk.motus", "--format", "json"])
        #expect(one.status == 1 && one.stderr.contains("1 recording not scored"), "\(one.stderr)")
        let r = try Self.json(one.stdout)
        #expect((r["skipped"] as? [[String: Any]])?.first?["id"] as? String == "iphone-belt-stand-then-walk.motus")
        #expect(((r["exact"] as? [String: Any])?["trials"] as? [Any])?.isEmpty == true)
        #expect(try CLI.run(["evaluate-motion", Self.data, "--recording", "iphone-belt-stand-then-walk.motus", "--allow-skipped"]).status == 0)
        let two = try CLI.run(["evaluate-motion", Self.data, Self.data, "--recording", "x"])
        #expect(two.status != 0 && two.stderr.contains("--recording takes one dataset folder, not 2 paths"))
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func evaluateMotionByIdPoolsToTheWholeRun() throws {
        let path = Self.shared! + "/ipol/voisard2023_ipol497"
        let flags = ["--format", "json", "--allow-skipped", "--allow-false-pauses"]
        let whole = try Self.json(try CLI.run(["evaluate-motion", path] + flags).stdout)
        var trials: [[String: Any]] = [], rows: [MotionEvaluation.Row] = []
        for e in try Self.listing(path) {
            let one = try CLI.run(["evaluate-motion", path, "--recording", e["recording"] as? String ?? ""] + flags)
            #expect(one.status == 0, "\(one.stderr)")
            let r = try Self.json(one.stdout)
            trials += r["trials"] as? [[String: Any]] ?? []
            for var x in (r["exact"] as? [String: Any])?["trials"] as? [[String: Any]] ?? [] {
                // null: an event that never came (infinite latency), or no steps to count (NaN).
                for k in ["resume_latency", "resume_decision_latency", "pause_latency", "pause_event_latency"] where x[k] is NSNull { x[k] = "inf" }
                if x["resume_decision_steps"] is NSNull { x["resume_decision_steps"] = "nan" }
                let d = JSONDecoder()
                d.keyDecodingStrategy = .convertFromSnakeCase
                d.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
                rows.append(try d.decode(MotionEvaluation.Row.self, from: try JSONSerialization.data(withJSONObject: x)))
            }
        }
        let wholeTrials = try #require(whole["trials"] as? [[String: Any]])
        #expect(NSArray(array: trials) == NSArray(array: wholeTrials) && rows.count == wholeTrials.count && rows.count > 30)
        let s = MotionEvaluation.summarize(rows)
        let printedSummary = try #require(whole["summary"] as? [String: Any])
        for (k, v) in [("pause_median", s.pauseMedian), ("pause_p90", s.pauseP90), ("pause_event_median", s.pauseEventMedian),
                       ("resume_median", s.resumeMedian), ("resume_p90", s.resumeP90), ("resume_absolute_median", s.resumeAbsoluteMedian),
                       ("resume_decision_median", s.resumeDecisionMedian), ("resume_decision_steps_median", s.resumeDecisionStepsMedian)] {
            #expect(v.isFinite ? printedSummary[k] as? Double == Self.printed(v) : printedSummary[k] is NSNull, "\(k)")
        }
        #expect(printedSummary["retracted_resumes"] as? Int == s.retractedResumes && printedSummary["pauses_not_judged"] as? Int == s.pausesNotJudged)
    }
}
