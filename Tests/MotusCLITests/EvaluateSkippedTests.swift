import Testing
import Foundation

/// `motus evaluate-steps` on an Oxford folder where one walk lacks `stepcounter.csv` once
/// reported one recording fewer, exit 0, with an empty `skipped` list.
@Suite struct EvaluateSkippedTests {
    static func oxford() -> String {
        let root = NSTemporaryDirectory() + "motus-cli-" + UUID().uuidString
        for (name, steps) in [("Pixel_Ann_Hard_InHand_1", true), ("Pixel_Ann_Hard_InHand_2", false)] {
            let dir = root + "/optimisation/data/" + name
            try! FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            var acc = ""
            for i in 0..<300 { acc += "\(1_000_000_000 + i * 10_000_000),3,0.1,\(0.2 + Double(i % 7) * 0.01),9.8\r\n" }
            try! acc.write(toFile: dir + "/accelerometer.csv", atomically: true, encoding: .utf8)
            if steps { try! "1000000000,0,0\r\n1500000000,1,0\r\n".write(toFile: dir + "/stepcounter.csv", atomically: true, encoding: .utf8) }
        }
        return root
    }

    @Test func skippedWalkIsReportedAndFailsUnlessAllowed() throws {
        let root = Self.oxford()
        let r = try CLI.run(["evaluate-steps", root])
        #expect(r.status == 1)
        #expect(r.stdout.contains("1 recordings, 1 true steps"))
        #expect(r.stdout.hasSuffix("skipped 1 recording:\n  Pixel_Ann_Hard_InHand_2: no stepcounter.csv in the walk folder\n"))
        #expect(r.stderr == "motus: bar failed: 1 recording not scored (Pixel_Ann_Hard_InHand_2 (no stepcounter.csv in the walk folder)); --allow-skipped accepts them\n")

        let j = try CLI.run(["evaluate-steps", root, "--allow-skipped", "--format", "json"])
        #expect(j.status == 0, "\(j.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any])
        let skipped = try #require(json["skipped"] as? [[String: String]])
        #expect(skipped == [["id": "Pixel_Ann_Hard_InHand_2", "reason": "no stepcounter.csv in the walk folder"]])
        #expect((json["recordings"] as? [Any])?.count == 1)
    }
}
