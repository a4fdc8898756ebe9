import Foundation
import Testing
import MotusIO

/// `--fusion offline` on classify, evaluate and train, run as a user would.
@Suite struct OfflineFusionCLITests {
    static let walk = CLI.root + "/datasets/lowback-straight-walk.motus"

    @Test func classifyAndEvaluateOffline() throws {
        let live = try CLI.run(["classify", Self.walk, "--segments", "--format", "json"])
        let offline = try CLI.run(["classify", Self.walk, "--segments", "--format", "json", "--fusion", "offline"])
        #expect(live.status == 0 && offline.status == 0, "\(offline.stderr)")
        // The bundled walk: still, a walk, still, in both modes.
        for r in [live, offline] {
            let runs = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
            #expect(runs.map { $0["label"] as? String } == ["still", "moving", "still"], "\(r.stdout)")
        }
        let e = try CLI.run(["evaluate", Self.walk, "--map", "moving=walk", "--map", "still=stand,still", "--fusion", "offline", "--format", "json"])
        #expect(e.status == 0, "\(e.stderr)")
        let bad = try CLI.run(["classify", Self.walk, "--fusion", "later"])
        #expect(bad.status != 0 && bad.stderr.contains("later"))
    }

    @Test func trainOfflineRecordsTheMode() throws {
        guard let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root) else { print("skipping: ../shared/datasets not found"); return }
        let dir = NSTemporaryDirectory() + "motus-offline-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try CLI.run(["train", shared + "/ipol/voisard2023_ipol497", "--map", "moving=walk", "--map", "still=still",
                             "--fusion", "offline", "--out", dir + "/m.json"])
        #expect(r.status == 0, "\(r.stderr)")
        let model = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/m.json"))) as? [String: Any])
        #expect(model["fusionMode"] as? String == "offline")
    }
}
