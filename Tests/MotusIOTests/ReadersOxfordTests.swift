import Foundation
import Testing
import MotusCore
@testable import MotusIO

@Suite("Oxford reader")
struct ReadersOxfordTests {
    /// stats.csv parsed with Foundation: folder → steps.
    static func stats() -> [String: Int] {
        var out: [String: Int] = [:]
        for line in ReadersData.lines(ReadersData.path("oxford/optimisation/stats.csv")).dropFirst() {
            let f = line.components(separatedBy: ", ")
            if f.count == 7, let n = Int(f[6].trimmingCharacters(in: .whitespaces)) { out[f[0]] = n }
        }
        return out
    }

    @Test("placement names are normalised, whatever the spelling")
    func placements() {
        let cases = ["InHand": "hand", "Armband": "armband", "ArmBand": "armband", "BackPocket": "back-pocket",
                     "Backpocket": "back-pocket", "FrontPocket": "front-pocket", "NeckPouch": "neck-pouch",
                     "Purse": "bag", "SwingingArm": "swinging-arm"]
        for (k, v) in cases { #expect(OxfordReader.placement(k) == v, "\(k)") }
        let w = OxfordReader.parseName("Samsung_Dario_Hard_Backpocket_2")
        #expect(w?.phone == "Samsung" && w?.person == "Dario" && w?.surface == "Hard" && w?.placement == "back-pocket" && w?.repeatNumber == "2")
        #expect(OxfordReader.parseName("_Patient_1") == nil)
    }

    @Test("every walk: sample count = lines, step total = stats.csv = naive rising-edge count, events inside the recording",
          .enabled(if: ReadersData.available, ReadersData.skipMessage),
          arguments: ReadersData.oxfordWalks)
    func walk(_ name: String) throws {
        let folder = ReadersData.path("oxford/optimisation/data/" + name)
        let r = try OxfordReader.read(folder: folder)
        let acc = try #require(r.stream(.acceleration))
        #expect(acc.count == ReadersData.lines(folder + "/accelerometer.csv").count)
        let steps = r.events.filter { $0.kind == "step" }
        let expected = try #require(Self.stats()[name], "\(name) missing from stats.csv")
        #expect(steps.count == expected)
        // Naive reference: rising edges per column with Foundation parsing.
        let rows = ReadersData.lines(folder + "/stepcounter.csv").map { $0.split(separator: ",").map { Int($0)! } }
        var right = 0, left = 0
        for i in 1..<rows.count {
            if rows[i - 1][1] == 0 && rows[i][1] == 1 { right += 1 }
            if rows[i - 1][2] == 0 && rows[i][2] == 1 { left += 1 }
        }
        #expect(steps.filter { $0.detail == "right" }.count == right)
        #expect(steps.filter { $0.detail == "left" }.count == left)
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.time <= $1.time })
        let range = try #require(r.timeRange)
        #expect(steps.allSatisfy { range.contains($0.time) })
        // Seconds since boot, m/s² with gravity: median |a| between 9 and 11.
        let firstNs = Double(ReadersData.lines(folder + "/accelerometer.csv")[0].split(separator: ",")[0])!
        #expect(acc.times[0] == firstNs / 1e9)
        let norms = (0..<acc.count).map { acc.vector($0).norm }.sorted()
        #expect(norms[norms.count / 2] > 9 && norms[norms.count / 2] < 11)
        // Metadata from the folder name.
        let w = try #require(OxfordReader.parseName(name))
        #expect(r.metadata.device == w.phone && r.metadata.subject == w.person && r.metadata.placement == w.placement)
        #expect(r.metadata.extra["surface"] == w.surface.lowercased())
        // Repeats are counted, never dropped: the irregular Samsung/MPU6500 repeats 10–19 % of rows.
        let repeated = try #require(Int(r.metadata.extra["repeated_values"] ?? ""))
        if name.hasPrefix("Samsung_Carmelo") || name.hasPrefix("Samsung_Dario") {
            let f = Double(repeated) / Double(acc.count)
            #expect(f > 0.05 && f < 0.25, "repeated fraction \(f)")
        }
    }

    @Test("stats.csv reader: 48 walks", .enabled(if: ReadersData.available, ReadersData.skipMessage))
    func statsTable() throws {
        let t = try OxfordReader.statsTable(path: ReadersData.path("oxford/optimisation/stats.csv"))
        #expect(t.count == 48 && t == Self.stats())
        #expect(t["Nexus_Jamie_Hard_InHand_1"] == 305)
    }
}
