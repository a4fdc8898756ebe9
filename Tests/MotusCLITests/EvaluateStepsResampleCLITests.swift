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
