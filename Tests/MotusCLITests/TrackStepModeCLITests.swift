import Testing
import Foundation
import MotusIO

/// `motus track --step-mode`: a file's steps by default from the offline detector (the count
/// `evaluate-steps` scores), `live` as an app counts them, and live beyond the sample limit.
@Suite(.serialized) struct TrackStepModeCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    func steps(_ args: [String]) throws -> (steps: Int, stderr: String) {
        let out = try CLI.run(["track"] + args + ["--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
        return (try #require(json["steps"] as? Int), out.stderr)
    }

    @Test func offlineByDefaultLiveWhenAskedOrTooLong() throws {
        let file = "datasets/iphone-belt-stand-then-walk.motus"
        let byDefault = try steps([file]), offline = try steps([file, "--step-mode", "offline"])
        let live = try steps([file, "--step-mode", "live"])
        #expect(byDefault.steps == offline.steps && byDefault.stderr.isEmpty)
        // The offline detector also counts the steps of the recording's first seconds, on which
        // the session resumes but which the live pedometer never confirms as a walk.
        #expect(offline.steps > live.steps, "offline \(offline.steps), live \(live.steps)")
        let capped = try steps([file, "--offline-sample-limit", "1000"])
        #expect(capped.steps == live.steps)
        #expect(capped.stderr == "motus: \(file): more than 1000 acceleration samples: steps counted live (as --step-mode live), the offline detector would hold them all in memory\n")
        let bad = try CLI.run(["track", file, "--step-mode", "zero-phase"])
        #expect(bad.status != 0 && bad.stderr.contains("zero-phase"))
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func trackCountsWhatEvaluateStepsScores() throws {
        // A WeAllWalk walk where the live count loses steps the offline detector keeps (107
        // reference steps; live 102, offline 107 when written: the live count misses the first
        // steps of the recording's first walk and of its last): track's count is the offline count
        // evaluate-steps scores.
        let dataset = try #require(Self.shared) + "/weallwalk"
        let file = dataset + "/sensor/iPhoneSensors_T2_ID12_2R_NA.csv"
        let tracked = try steps([file]).steps, live = try steps([file, "--step-mode", "live"]).steps
        let e = try CLI.run(["evaluate-steps", dataset, "--recording", "T2_ID12_2R_NA", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(e.stdout.utf8)) as? [String: Any])
        let row = try #require((json["recordings"] as? [[String: Any]])?.first)
        #expect(tracked == row["counted_steps"] as? Int)
        #expect(tracked > live, "offline \(tracked), live \(live)")
    }
}
