import Foundation
import Testing
import MotusIO

/// `evaluate-steps --pair-by KEY`: devices worn at once checked against each other, on copies of
/// the bundled recordings given a pairing key, and on sp-sw-har's phones and watches.
@Suite(.serialized) struct EvaluateStepsPairCLITests {
    static let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root)

    /// A folder with copies of bundled recordings, each given `@meta,x.pair,VALUE`.
    static func pairedFolder(_ copies: [(file: String, value: String, name: String)]) throws -> String {
        let dir = NSTemporaryDirectory() + "motus-pair-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for c in copies {
            var lines = try String(contentsOfFile: CLI.root + "/datasets/" + c.file, encoding: .utf8).components(separatedBy: "\n")
            lines.insert("@meta,x.pair,\"\(c.value)\"", at: 1)
            try lines.joined(separator: "\n").write(toFile: dir + "/" + c.name, atomically: true, encoding: .utf8)
        }
        return dir
    }

    @Test func pairingOptionsAreRefusedWhereTheyMeanNothing() throws {
        let walk = CLI.root + "/datasets/lowback-straight-walk.motus"
        let cases: [([String], String)] = [
            (["--within", "walk"], "Error: --within goes with --pair-by KEY"),
            (["--max-spread", "1"], "Error: --max-spread goes with --pair-by KEY"),
            (["--pair-by", "pair", "--max-mape", "2"], "Error: --max-mape scores against reference steps; --pair-by compares devices"),
            (["--pair-by", "pair", "--max-spread=-1"], "Error: --max-spread must be a number of steps ≥ 0, not -1.0"),
            (["--pair-by", "pair", "--within", " , "], "Error: --within needs one or more labels, comma-separated, not ' , '"),
        ]
        for (args, message) in cases {
            let r = try CLI.run(["evaluate-steps", walk] + args)
            #expect(r.status == 64 && r.stderr.hasPrefix(message), "\(args): \(r.stderr)")
        }
    }

    @Test func copiesOfOneRecordingAgreeAndADifferentOneDoesNot() throws {
        let dir = try Self.pairedFolder([("lowback-straight-walk.motus", "same", "a1.motus"), ("lowback-straight-walk.motus", "same", "a2.motus"),
                                         ("lowback-straight-walk.motus", "mixed", "b1.motus"), ("iphone-belt-stand-then-walk.motus", "mixed", "b2.motus")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let j = try CLI.run(["evaluate-steps", dir, "--pair-by", "pair", "--format", "json"])
        #expect(j.status == 0, "\(j.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let groups = try #require(report["groups"] as? [[String: Any]])
        #expect(groups.compactMap { $0["key"] as? String } == ["same", "mixed"])
        let spreads = groups.compactMap { $0["spread"] as? Int }
        #expect(spreads.count == 2 && spreads[0] == 0 && spreads[1] > 0)
        // Counted inside the walk label only, the straight walk's copy counts fewer steps than
        // in the whole file, and the belt recording (no `walk` label) none.
        let w = try CLI.run(["evaluate-steps", dir, "--pair-by", "pair", "--within", "walk", "--format", "json"])
        let within = try #require(try JSONSerialization.jsonObject(with: Data(w.stdout.utf8)) as? [String: Any])
        let mixed = try #require((within["groups"] as? [[String: Any]])?.last?["counts"] as? [[String: Any]])
        #expect(mixed.compactMap { $0["counted_steps"] as? Int }.last == 0)
        // Each count says the windows it was counted in: the walk label widened, none for the
        // belt recording, and no key at all without --within (every step counted).
        #expect((mixed.first?["judged_spans"] as? [[Double]])?.count == 1)
        #expect((mixed.last?["judged_spans"] as? [[Double]]) == [])
        #expect(groups.allSatisfy { (($0["counts"] as? [[String: Any]]) ?? []).allSatisfy { $0["judged_spans"] == nil } })
        // The bar: the mean spread against X.
        let pass = try CLI.run(["evaluate-steps", dir, "--pair-by", "pair", "--max-spread", "\(Double(spreads[1]) / 2)"])
        #expect(pass.status == 0, "\(pass.stderr)")
        let fail = try CLI.run(["evaluate-steps", dir, "--pair-by", "pair", "--max-spread", "\(Double(spreads[1]) / 2 - 0.01)"])
        #expect(fail.status == 1 && fail.stderr.contains("bar failed: counts of one pair"), "\(fail.stderr)")
    }

    @Test func aRecordingWithoutAPartnerOrAKeyIsSkippedAndSaysWhy() throws {
        let dir = try Self.pairedFolder([("lowback-straight-walk.motus", "p", "a1.motus"), ("lowback-straight-walk.motus", "p", "a2.motus"),
                                         ("lowback-straight-walk.motus", "alone", "c.motus")])
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: CLI.root + "/datasets/lowback-straight-walk.motus", toPath: dir + "/nokey.motus")
        let r = try CLI.run(["evaluate-steps", dir, "--pair-by", "pair"])
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("no other recording with pair 'alone'") && r.stdout.contains("no metadata 'pair' to pair it by"), "\(r.stdout)")
        #expect(try CLI.run(["evaluate-steps", dir, "--pair-by", "pair", "--allow-skipped"]).status == 0)
        let none = try CLI.run(["evaluate-steps", dir, "--pair-by", "nosuchkey"])
        #expect(none.status == 1 && none.stderr.contains("no two recordings share a value of 'nosuchkey'"), "\(none.stderr)")
    }

    @Test(.enabled(if: shared != nil, "../shared/datasets not found (or MOTUS_DATASETS absent): skipped"))
    func spSwHarPhonesAndWatchesAgainstEachOther() throws {
        let ds = Self.shared! + "/sp-sw-har"
        let j = try CLI.run(["evaluate-steps", ds, "--pair-by", "execution", "--within", "WALKING,TURNING", "--format", "json"])
        #expect(j.status == 0, "\(j.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let summary = try #require(report["summary"] as? [String: Any])
        let groups = try #require(report["groups"] as? [[String: Any]])
        // Every execution pairs one phone with one watch.
        #expect(summary["recordings"] as? Int == 2 * groups.count && groups.count == summary["groups"] as? Int)
        #expect(groups.allSatisfy { (($0["counts"] as? [[String: Any]]) ?? []).compactMap { $0["device"] as? String }.sorted() == ["smartphone", "smartwatch"] })
        let spread = try #require(summary["mean_spread_steps"] as? Double)
        #expect(try CLI.run(["evaluate-steps", ds, "--pair-by", "execution", "--within", "WALKING,TURNING", "--max-spread", "\(spread + 0.01)"]).status == 0)
        let fail = try CLI.run(["evaluate-steps", ds, "--pair-by", "execution", "--within", "WALKING,TURNING", "--max-spread", "\(spread - 0.01)"])
        #expect(fail.status == 1 && fail.stderr.contains("bar failed: counts of one execution"), "\(fail.stderr)")
    }
}
