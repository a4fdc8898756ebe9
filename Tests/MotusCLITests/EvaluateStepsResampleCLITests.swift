import Testing
import Foundation
import MotusIO

/// `motus evaluate-steps --resample HZ`: the recordings counted as a device at another rate
/// would have recorded them.
@Suite(.serialized) struct EvaluateStepsResampleCLITests {
    static let walk = "datasets/lowback-straight-walk.motus"

    func summary(_ args: [String]) throws -> [String: Any] {
        let out = try CLI.run(["evaluate-steps", Self.walk, "--format", "json"] + args)
        #expect(out.status == 0, "\(out.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    }

    @Test func countsAtAnotherRateAndSaysSo() throws {
        let native = try summary([])
        #expect(native["resample_hz"] == nil)
        // The recording's own rate (100 Hz): the same grid, nothing filtered, the same steps.
        let same = try summary(["--resample", "100"])
        #expect(same["resample_hz"] as? Double == 100)
        let count = { (j: [String: Any]) in (j["summary"] as? [String: Any])?["counted_steps"] as? Int }
        #expect(count(same) == count(native) && count(native) == 9)
        // At 25 Hz the walk's 9 steps are still found, by both counters.
        #expect(count(try summary(["--resample", "25"])) == 9)
        #expect(count(try summary(["--resample", "25", "--step-mode", "live"])) != nil)
        let table = try CLI.run(["evaluate-steps", Self.walk, "--resample", "12.5"])
        #expect(table.status == 0 && table.stdout.contains("(offline step counter, resampled to 12.5 Hz)"), "\(table.stdout)")
    }

    /// `--grid-phase F` takes the recording again on a grid F of a period later, and says so.
    @Test func aGridPhaseShiftsTheGridAndSaysSo() throws {
        let count = { (j: [String: Any]) in (j["summary"] as? [String: Any])?["counted_steps"] as? Int }
        let shifted = try summary(["--resample", "100", "--grid-phase", "0.5"])
        #expect(shifted["grid_phase"] as? Double == 0.5 && shifted["resample_hz"] as? Double == 100)
        #expect(count(shifted) == 9)
        let table = try CLI.run(["evaluate-steps", Self.walk, "--resample", "25", "--grid-phase", "0.25"])
        #expect(table.status == 0 && table.stdout.contains("resampled to 25 Hz, grid 0.25 of a period later)"), "\(table.stdout)")
        // The samples convert writes with the same flags lie on that grid.
        let out = NSTemporaryDirectory() + "motus-grid-phase-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let c = try CLI.run(["convert", Self.walk, "--resample", "25", "--grid-phase", "0.5", "--out", out])
        #expect(c.status == 0, "\(c.stderr)")
        let first = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("acc,") }.map { Double($0.split(separator: ",")[2])! }
        let original = try CLI.run(["convert", Self.walk, "--resample", "25", "--out", out])
        #expect(original.status == 0)
        let start = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
            .first { $0.hasPrefix("acc,") }.map { Double($0.split(separator: ",")[2])! }
        #expect(Swift.abs(try #require(first) - (try #require(start) + 0.02)) < 1e-9)
        for (args, message) in [(["--grid-phase", "0.5"], "--grid-phase shifts the grid of --resample HZ: give --resample too"),
                                (["--resample", "25", "--grid-phase", "1"], "--grid-phase must be a fraction of a sample period from 0 up to (not including) 1, not 1.0"),
                                (["--resample", "25", "--grid-phase=-0.1"], "--grid-phase must be a fraction"),
                                (["--resample", "25", "--grid-phase", "nan"], "--grid-phase must be a fraction")] {
            for command in [["evaluate-steps", Self.walk], ["convert", Self.walk, "--out", out], ["evaluate-fusion", Self.walk]] {
                let r = try CLI.run(command + args)
                #expect(r.status == 64 && r.stderr.hasPrefix("Error: " + message), "\(command[0]) \(args): \(r.stderr)")
            }
        }
    }

    @Test func refusesARateThatCannotBe() throws {
        for bad in ["0", "0.5", "nan", "20000"] {
            let r = try CLI.run(["evaluate-steps", Self.walk, "--resample", bad])
            #expect(r.status == 64 && r.stderr.hasPrefix("Error: --resample must be a rate in Hz from 1 to 10000"), "\(bad): \(r.stderr)")
        }
        let r = try CLI.run(["evaluate-steps", Self.walk, "--resample", "20", "--platform-counter"])
        #expect(r.status == 64 && r.stderr.contains("--platform-counter"), "\(r.stderr)")
    }
}

/// `motus convert --resample HZ` and `motus evaluate-fusion --resample HZ`.
@Suite(.serialized) struct ResampleCLITests {
    @Test func convertWritesTheRecordingAtTheNewRate() throws {
        let out = NSTemporaryDirectory() + "motus-resample-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try CLI.run(["convert", "datasets/lowback-straight-walk.motus", "--resample", "25", "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        // 14.5 s at 100 Hz become 14.5 s at 25 Hz: acceleration and gyroscope on one grid, the
        // reference steps (events) and the walk label kept.
        var times: [String: [Double]] = [:]
        var events = 0, labels = 0
        for line in try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            switch f[0] {
            case "acc", "gyro": times[String(f[1]), default: []].append(Double(f[2])!)
            case "event": events += 1
            case "label": labels += 1
            default: break
            }
        }
        #expect(times["acc"] == times["gyro"] && (times["acc"]?.count ?? 0) == 363)
        let t = try #require(times["acc"])
        for i in 1..<t.count { #expect(Swift.abs(t[i] - t[i - 1] - 0.04) < 1e-9) }
        #expect(events == 9 && labels == 1)
        let bad = try CLI.run(["convert", "datasets/lowback-straight-walk.motus", "--resample", "0", "--out", out])
        #expect(bad.status == 64 && bad.stderr.hasPrefix("Error: --resample must be a rate in Hz from 1 to 10000"), "\(bad.stderr)")
    }

    @Test func evaluateFusionRefusesWhatItCannotResample() throws {
        let a = try CLI.run(["evaluate-fusion", "datasets/lowback-straight-walk.motus", "--resample", "nan"])
        #expect(a.status == 64 && a.stderr.hasPrefix("Error: --resample must be a rate in Hz from 1 to 10000"), "\(a.stderr)")
        let b = try CLI.run(["evaluate-fusion", "--check-still", "datasets/lowback-straight-walk.motus", "--resample", "50"])
        #expect(b.status == 64 && b.stderr.contains("--check-still"), "\(b.stderr)")
    }
}

/// `motus evaluate-steps --max-group-mape GROUP=X` and the per-group summary.
@Suite(.serialized) struct EvaluateStepsGroupCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    @Test func refusesAGroupBarItCannotRead() throws {
        for bad in ["long-cane", "=2", "long-cane=", "long-cane=-1", "long-cane=nan", "long-cane=x"] {
            let r = try CLI.run(["evaluate-steps", EvaluateStepsResampleCLITests.walk, "--max-group-mape", bad])
            #expect(r.status == 64 && r.stderr.hasPrefix("Error: --max-group-mape takes GROUP=X with X a percentage ≥ 0, not '\(bad)'"),
                    "\(bad): \(r.stderr)")
        }
    }

    @Test func evaluateRefusesARecallBarItCannotReadTheSameWay() throws {
        // `evaluate --min-recall` reads its CLASS=X by the same parser (NamedValues).
        for bad in ["moving", "=0.5", "moving=2", "moving=x"] {
            let r = try CLI.run(["evaluate", EvaluateStepsResampleCLITests.walk, "--map", "moving=walk", "--min-recall", bad])
            #expect(r.status == 1 && r.stderr.contains("--min-recall takes CLASS=X with X in 0…1, like moving=0.995, not '\(bad)'"),
                    "\(bad): \(r.stderr)")
        }
    }

    @Test func aGroupNoRecordingIsInFailsTheBar() throws {
        // A single recording has no group: a bar on one cannot pass silently.
        let r = try CLI.run(["evaluate-steps", EvaluateStepsResampleCLITests.walk, "--max-group-mape", "long-cane=100"])
        #expect(r.status == 1 && r.stderr.contains("no recording of group 'long-cane' to check --max-group-mape (the recordings have no groups)"),
                "\(r.stderr)")
        let j = try CLI.run(["evaluate-steps", EvaluateStepsResampleCLITests.walk, "--format", "json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        #expect(report["groups"] == nil && report["summary"] != nil)
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func weAllWalkPerMobilityAidWithItsBars() throws {
        let ds = Self.shared! + "/weallwalk"
        let j = try CLI.run(["evaluate-steps", ds, "--format", "json"])
        #expect(j.status == 0, "\(j.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let groups = try #require(report["groups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["group"] as? String } == ["long-cane", "guide-dog", "none"])
        let summaries = groups.compactMap { $0["summary"] as? [String: Any] }
        let whole = try #require(report["summary"] as? [String: Any])
        // The groups split the recordings and their steps.
        for key in ["recordings", "true_steps", "counted_steps"] {
            #expect(summaries.compactMap { $0[key] as? Int }.reduce(0, +) == whole[key] as? Int, "\(key)")
        }
        let cane = try #require(summaries[0]["mape"] as? Double)
        // A bar at the group's figure passes, one below it fails naming the group and its figure.
        let pass = try CLI.run(["evaluate-steps", ds, "--max-group-mape", "long-cane=\(cane + 0.01)"])
        #expect(pass.status == 0, "\(pass.stderr)")
        #expect(pass.stdout.contains("  long-cane: 12 recordings, MAPE"), "\(pass.stdout)")
        // Each group's step-by-step F1 is its recordings' matches summed (the JSON's, as printed).
        let caneMatch = try #require(summaries[0]["match"] as? [String: Any])
        let caneF1 = try #require(caneMatch["f1_percent"] as? Double)
        #expect(pass.stdout.contains("step-by-step F1 \(String(format: "%.2f", caneF1)) %"), "\(pass.stdout)")
        let fail = try CLI.run(["evaluate-steps", ds, "--max-group-mape", "long-cane=\(max(0, cane - 0.01))"])
        #expect(fail.status == 1 && fail.stderr.contains("step MAPE of long-cane "), "\(fail.stderr)")
    }
}

/// `motus evaluate-steps` compares the counted steps with the reference steps one by one.
@Suite(.serialized) struct EvaluateStepsMatchCLITests {
    @Test func theTableAndTheJSONSayWhichStepsMatched() throws {
        let walk = EvaluateStepsResampleCLITests.walk
        let table = try CLI.run(["evaluate-steps", walk])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.contains("steps matched within 0.3 s: precision "), "\(table.stdout)")
        let out = try CLI.run(["evaluate-steps", walk, "--format", "json"])
        let j = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        let s = try #require((j["summary"] as? [String: Any])?["match"] as? [String: Any])
        let rows = try #require(j["recordings"] as? [[String: Any]])
        let row = try #require(rows.first?["match"] as? [String: Any])
        let counted = try #require((j["summary"] as? [String: Any])?["counted_steps"] as? Int)
        let truth = try #require((j["summary"] as? [String: Any])?["true_steps"] as? Int)
        // Every judged step is matched, missed or extra, once.
        let matched = try #require(s["matched"] as? Int), missed = try #require(s["missed"] as? Int), extra = try #require(s["extra"] as? Int)
        #expect(matched + missed == truth && matched + extra == counted)
        #expect(row["matched"] as? Int == matched && rows.count == 1)
        for key in ["precision_percent", "recall_percent", "f1_percent", "missed_at_ends", "extra_in_turns"] { #expect(s[key] != nil, "\(key)") }
    }

    @Test func aBarOnTheStepByStepF1() throws {
        let walk = EvaluateStepsResampleCLITests.walk
        let pass = try CLI.run(["evaluate-steps", walk, "--min-f1", "99"])
        #expect(pass.status == 0, "\(pass.stderr)")
        // Every step of this walk matches (F1 100 %): nothing passes a bar above that.
        let fail = try CLI.run(["evaluate-steps", walk, "--min-f1", "100.5"])
        #expect(fail.status == 1 && fail.stderr.contains("bar failed: step-by-step F1 100.00 % < 100.50 %"), "\(fail.stderr)")
        let bad = try CLI.run(["evaluate-steps", walk, "--min-f1", "nan"])
        #expect(bad.status != 0 && bad.stderr.contains("--min-f1 must be a percentage"), "\(bad.stderr)")
    }
}

/// `motus evaluate-steps --steps-from FILE`: another detector's steps judged as Motus's are.
@Suite(.serialized) struct EvaluateStepsFromFileCLITests {
    static let walk = EvaluateStepsResampleCLITests.walk

    func json(_ args: [String]) throws -> [String: Any] {
        let out = try CLI.run(["evaluate-steps", Self.walk, "--format", "json"] + args)
        #expect(out.status == 0, "\(out.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    }

    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("steps-from-\(UUID().uuidString).csv").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func motusOwnStepsFromAFileAreJudgedAsItJudgesThem() throws {
        // The steps `motus track` counts on the file (offline, as evaluate-steps counts), written
        // as another detector's: the same count, the same windows, the same matches.
        let track = try CLI.run(["track", Self.walk, "--step-events", "--format", "json"])
        #expect(track.status == 0, "\(track.stderr)")
        let t = try #require(try JSONSerialization.jsonObject(with: Data(track.stdout.utf8)) as? [String: Any])
        let times = try #require(t["events"] as? [[String: Any]]).filter { $0["type"] as? String == "step" }.compactMap { $0["time_s"] as? Double }
        #expect(times.count > 9, "steps outside the walk too")
        let file = try write("recording,time_s\n" + times.map { "lowback-straight-walk.motus,\($0)\n" }.joined())
        defer { try? FileManager.default.removeItem(atPath: file) }
        let own = try json([]), judged = try json(["--steps-from", file])
        let row = { (j: [String: Any]) in try #require((j["recordings"] as? [[String: Any]])?.first) }
        let a = try row(own), b = try row(judged)
        #expect(a["counted_steps"] as? Int == b["counted_steps"] as? Int && a["counted_steps_outside"] as? Int == b["counted_steps_outside"] as? Int)
        #expect((a["match"] as? [String: Any])?["matched"] as? Int == (b["match"] as? [String: Any])?["matched"] as? Int)
        #expect(b["source"] as? String == "steps from \(file)" && b["distance_meters"] == nil)
        #expect(judged["steps_from"] as? String == file && own["steps_from"] == nil)
        // Half of them: half the count, and the rest missed.
        let half = try write("recording,time_s\n" + times.enumerated().filter { $0.offset % 2 == 0 }.map { "lowback-straight-walk.motus,\($0.element)\n" }.joined())
        defer { try? FileManager.default.removeItem(atPath: half) }
        let h = try row(try json(["--steps-from", half]))
        #expect((h["match"] as? [String: Any])?["missed"] as? Int ?? 0 >= 4)
    }

    @Test func aRecordingWithoutRowsIsSkippedAndAnUnknownOneFails() throws {
        let none = try write("recording,time_s\nlowback-straight-walk.motus,\n")
        defer { try? FileManager.default.removeItem(atPath: none) }
        let n = try json(["--steps-from", none])
        #expect((n["summary"] as? [String: Any])?["counted_steps"] as? Int == 0)
        let other = try write("recording,time_s\nanother.motus,1.0\n")
        defer { try? FileManager.default.removeItem(atPath: other) }
        let r = try CLI.run(["evaluate-steps", Self.walk, "datasets/lowback-daily-activities.motus", "--steps-from", other])
        #expect(r.status == 1 && r.stderr.contains("no row for it in \(other)"), "\(r.stderr)")
        let typo = try write("recording,time_s\nlowback-straight-walk.motus,7.0\nlowback-straight-wlak.motus,7.0\n")
        defer { try? FileManager.default.removeItem(atPath: typo) }
        let u = try CLI.run(["evaluate-steps", Self.walk, "--steps-from", typo])
        #expect(u.status == 1 && u.stderr.contains("has steps for 1 recording the data sets do not list: lowback-straight-wlak.motus"), "\(u.stderr)")
    }

    @Test func badInputAndFlagsThatNeedMotusToCountAreRefused() throws {
        let bad = try write("recording,time_s\nlowback-straight-walk.motus,seven\n")
        defer { try? FileManager.default.removeItem(atPath: bad) }
        let r = try CLI.run(["evaluate-steps", Self.walk, "--steps-from", bad])
        #expect(r.status == 1 && r.stderr == "motus: \(bad):2:29: found 'seven', expected a time in seconds\n", "\(r.stderr)")
        for flag in [["--platform-counter"], ["--max-live-gap", "1"], ["--timing"], ["--pair-by", "execution"]] {
            let f = try CLI.run(["evaluate-steps", Self.walk, "--steps-from", bad] + flag)
            #expect(f.status != 0 && f.stderr.contains("--steps-from judges steps counted elsewhere"), "\(flag) \(f.stderr)")
        }
    }
}
