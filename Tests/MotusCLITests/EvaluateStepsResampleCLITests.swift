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
