import Testing
import Foundation
import MotusIO

/// `motus evaluate` over several data sets and per group of recordings, on the shared data.
@Suite(.serialized) struct SeveralDatasetsCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    static func json(_ r: CLI.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func weAllWalkWalkingWindowsPerWalkerGroupAndTheRecallBar() throws {
        let ds = Self.shared! + "/weallwalk"
        let r = try CLI.run(["evaluate", ds, "--map", "moving=walk", "--format", "json", "--min-recall", "moving=0.99"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try Self.json(r)
        let perClass = try #require(j["per_class"] as? [[String: Any]])
        let recall = try #require(perClass.first?["recall"] as? Double)
        let groups = try #require(j["groups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["name"] as? String } == ["weallwalk/long-cane", "weallwalk/guide-dog", "weallwalk/none"])
        // The groups split the windows, and their moving windows add up to the whole.
        let counts = groups.compactMap { ($0["windows_per_class"] as? [Int])?.first }
        #expect(counts.reduce(0, +) == (j["windows"] as? Int) && perClass.first?["support"] as? Int == j["windows"] as? Int)
        // A bar above the figure fails, naming the class and the figure.
        let bar = ((recall + 1e-4) * 1e6).rounded(.up) / 1e6
        if bar <= 1 {
            let f = try CLI.run(["evaluate", ds, "--map", "moving=walk", "--min-recall", "moving=\(bar)"])
            #expect(f.status == 1)
            #expect(f.stderr.contains("recall of moving") && f.stderr.contains("below --min-recall moving=\(bar)"), "\(f.stderr)")
        }
        let bad = try CLI.run(["evaluate", ds, "--map", "moving=walk", "--min-recall", "walking=0.9"])
        #expect(bad.status == 1 && bad.stderr.contains("--min-recall names 'walking', but the classes are moving, still"), "\(bad.stderr)")
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func leaveOneDatasetOutScoresEachFolderHeldOut() throws {
        // Two folders that are both IPOL data sets: their rows are named by path, not both "ipol".
        let a = Self.shared! + "/ipol/voisard_semiogram_ipol535", b = Self.shared! + "/ipol/voisard2023_ipol497"
        let r = try CLI.run(["evaluate", "--cross-validate", "datasets", a, b, "--map", "moving=walk", "--map", "still=still", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try Self.json(r)
        #expect(j["scheme"] as? String == "leave-one-dataset-out (2 data sets)")
        let groups = try #require(j["groups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["name"] as? String } == [a, b])
        #expect(groups.compactMap { $0["windows"] as? Int }.reduce(0, +) == j["windows"] as? Int)
        // Subjects of the two folders never share a fold: leave-one-subject-out counts them apart.
        let s = try CLI.run(["evaluate", "--cross-validate", "subjects", a, b, "--map", "moving=walk", "--map", "still=still", "--format", "json"])
        #expect(s.status == 0, "\(s.stderr)")
        let scheme = try Self.json(s)["scheme"] as? String
        #expect(scheme == "leave-one-subject-out (21 subjects)", "\(scheme ?? "-")")
    }
}
