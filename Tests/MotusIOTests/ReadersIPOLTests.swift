import Foundation
import Testing
import MotusCore
@testable import MotusIO

@Suite("IPOL reader")
struct ReadersIPOLTests {
    static let gait = "ipol/voisard2023_ipol497/GaitData/"

    /// From the dataset README: true steps within TrialBoundaries, extra steps after.
    static let readmeSteps: [String: (inTrial: Int, after: Int, heightCm: Double?)] = [
        "1-2": (33, 0, 175), "1-3": (37, 2, 175), "3-1": (39, 0, 180), "3-3": (41, 2, 180), "6-5": (31, 6, 169),
        "8-5": (38, 7, 176), "10-1": (33, 0, nil), "14-4": (32, 0, nil), "17-2": (32, 6, 166), "19-6": (35, 0, 180),
    ]

    @Test("every set-1 trial: counts, gaps kept, events = JSON, ordered labels, units",
          .enabled(if: ReadersData.available, ReadersData.skipMessage),
          arguments: ReadersData.ipolTrials)
    func trial(_ id: String) throws {
        let path = ReadersData.path(Self.gait + id + "_lb.txt")
        let r = try IPOLReader.read(path: path)
        let lines = ReadersData.lines(path)
        let acc = try #require(r.stream(.acceleration)), gyro = try #require(r.stream(.rotationRate))
        #expect(acc.count == lines.count - 2 && gyro.count == acc.count)
        // Time = PacketCounter / 100, gaps kept (independent count of lost packets).
        let counters = lines.dropFirst(2).map { Double($0.split(separator: "\t")[0])! }
        #expect(acc.times == counters.map { $0 / 100 })
        var lost = 0
        for (a, b) in zip(counters, counters.dropFirst()) where b - a > 1 { lost += Int(b - a) - 1 }
        #expect(r.metadata.extra["lost_packets"] == "\(lost)")
        // Events = the JSON lists.
        let json = try #require(ReadersData.json(ReadersData.path(Self.gait + id + ".json")) as? [String: Any])
        let left = json["LeftFootEvents"] as! [[Int]], right = json["RightFootEvents"] as! [[Int]]
        let steps = r.events.filter { $0.kind == "step" }
        #expect(steps.count == left.count + right.count)
        #expect(steps.filter { $0.detail == "left" }.map(\.time).sorted() == left.map { Double($0[1]) / 100 }.sorted())
        #expect(r.events.filter { $0.kind == "toe-off" }.count == left.count + right.count)
        #expect(zip(r.events, r.events.dropFirst()).allSatisfy { $0.time <= $1.time })
        // Labels: contiguous, ordered, still/walk/turn/walk/still.
        #expect(r.labels.map(\.label) == ["still", "walk", "turn", "walk", "still"])
        #expect(zip(r.labels, r.labels.dropFirst()).allSatisfy { $0.end == $1.start && $0.start < $0.end })
        #expect(r.labels.first!.start == acc.times[0] && r.labels.last!.end == (counters.last! + 1) / 100)
        let tb = json["TrialBoundaries"] as! [Int], ub = json["UTurnBoundaries"] as! [Int]
        #expect(r.labels[1].start == Double(tb[0]) / 100 && r.labels[2].start == Double(ub[0]) / 100)
        #expect(r.label(at: Double(tb[1]) / 100) == "walk" && r.label(at: Double(tb[1] + 1) / 100) == "still")
        // README figures where listed.
        if let f = Self.readmeSteps[id] {
            let all: [[Int]] = left + right
            let inTrial = all.filter { $0[0] >= tb[0] && $0[1] <= tb[1] }.count
            #expect(inTrial == f.inTrial)
            #expect(r.metadata.extra["steps_after_trial"] == "\(f.after)")
            #expect(r.metadata.heightMeters == f.heightCm.map { $0 / 100 })
        }
        // Units: m/s² with gravity, still at the start (|a| ≈ 9.8 over the first still segment).
        var sum = 0.0, n = 0
        for i in 0..<acc.count where acc.times[i] < r.labels[0].end { sum += acc.vector(i).norm; n += 1 }
        #expect(n > 100 && abs(sum / Double(n) - 9.8) < 0.5)
        #expect(r.metadata.extra["course_m"] == "20" && r.metadata.placement == "lower-back" && r.metadata.nominalRateHz == 100)
        #expect(r.metadata.subject == String(id.split(separator: "-")[0]))
    }

    @Test("foot sensors of 3-1 and 8-5 become acc.lf/gyro.lf/acc.rf/gyro.rf",
          .enabled(if: ReadersData.available, ReadersData.skipMessage), arguments: ["3-1", "8-5"])
    func feet(_ id: String) throws {
        let r = try IPOLReader.read(path: ReadersData.path(Self.gait + id + "_lb.txt"))
        for side in ["lf", "rf"] {
            let n = ReadersData.lines(ReadersData.path(Self.gait + "\(id)_\(side).txt")).count - 2
            #expect(r.stream(named: "acc.\(side)")?.count == n)
            #expect(r.stream(named: "gyro.\(side)")?.count == n)
            #expect(r.stream(named: "acc.\(side)")?.kind == .acceleration)
        }
        #expect(r.stream(.acceleration)?.name == "acc")
    }

    static let semiogramSteps = ["multiple_sclerosis/M0_edss_6_lb.txt": 64, "multiple_sclerosis/M6_edss_7_lb.txt": 78,
                                 "equino_varus_foot/M0_pre_chir_lb.txt": 92, "equino_varus_foot/M6_post_chir_lb.txt": 54]

    @Test("Semiogram raw XSens exports: // comments, columns by name, events, attitude vs free acceleration",
          .enabled(if: ReadersData.available, ReadersData.skipMessage),
          arguments: ReadersData.semiogramFiles)
    func semiogram(_ rel: String) throws {
        let path = ReadersData.path("ipol/voisard_semiogram_ipol535/example_datasets/" + rel)
        let r = try IPOLReader.read(path: path)
        let lines = ReadersData.lines(path)
        let headerIndex = lines.firstIndex { $0.hasPrefix("PacketCounter") }!
        let acc = try #require(r.stream(.acceleration)), att = try #require(r.stream(.attitude))
        #expect(acc.count == lines.count - headerIndex - 1 && att.count == acc.count)
        #expect(acc.times[0] == 0)
        // Steps within [gait start, gait end] as the README counts them.
        let json = try #require(ReadersData.json(String(path.dropLast(7)) + "_ge.json") as? [String: Any])
        let gs = Double(json["gait start"] as! Int) / 100, ge = Double(json["gait end"] as! Int) / 100
        let pairs = (json["LeftFootEvents"] as! [[Int]]) + (json["RightFootEvents"] as! [[Int]])
        let inWindow = pairs.filter { Double($0[0]) / 100 >= gs && Double($0[1]) / 100 <= ge }.count
        #expect(inWindow == Self.semiogramSteps[rel])
        #expect(r.events.filter { $0.kind == "step" }.count == pairs.count)
        #expect(r.labels.map(\.label) == ["still", "walk", "turn", "walk", "still"])
        // Attitude check: rotating the measured acceleration into the earth frame and removing
        // gravity gives XSens' own free acceleration (FreeAcc_E/N/U or FreeAcc_X/Y/Z).
        let header = lines[headerIndex].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        let fx = header.firstIndex { $0 == "FreeAcc_E" || $0 == "FreeAcc_X" }!
        var errors: [Double] = []
        for (i, line) in lines.dropFirst(headerIndex + 1).enumerated() where i % 10 == 0 {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            let free = Vector3(Double(f[fx])!, Double(f[fx + 1])!, Double(f[fx + 2])!)
            let world = att.quaternion(i).rotate(acc.vector(i))
            errors.append((world - Vector3(0, 0, world.z - free.z) - free).norm)   // horizontal part
            errors.append(abs(world.z - free.z - 9.81))                           // vertical: gravity ≈ 9.81
        }
        errors.sort()
        #expect(errors[errors.count / 2] < 0.02 && errors[errors.count * 99 / 100] < 0.1, "median \(errors[errors.count / 2])")
    }
}
