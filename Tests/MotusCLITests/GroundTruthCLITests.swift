import Testing
import Foundation
import Motus

/// Ground truth coming in: `evaluate-steps` on a folder of `.motus` files (one of them with
/// gravity and user acceleration but no acceleration stream), and on a CSV whose steps and
/// labels are columns, on the bundled mobgap walk with its INDIP reference steps.
@Suite(.serialized) struct GroundTruthCLITests {
    static let walk = CLI.root + "/datasets/lowback-straight-walk.motus"

    static func rows(_ json: String) throws -> [[String: Any]] {
        let o = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(o["recordings"] as? [[String: Any]])
    }

    @Test func evaluateStepsTakesAFolderOfMotusFilesWithAndWithoutAnAccelerationStream() throws {
        let folder = (CLI.temp("x", "") as NSString).deletingLastPathComponent
        try FileManager.default.removeItem(atPath: folder + "/x")
        try FileManager.default.copyItem(atPath: Self.walk, toPath: folder + "/walk.motus")
        // The same walk as gravity + user acceleration only (as CoreMotion gives it).
        var r = try RecordingLoader.load(path: Self.walk)
        _ = try RecordingFusion.fuse(&r, source: Self.walk)
        r.streams.removeAll { $0.kind == .acceleration || $0.kind == .attitude }
        #expect(Set(r.streams.map(\.kind)) == [.gravity, .userAcceleration, .rotationRate])
        try NativeWriter.write(r, to: folder + "/device-motion.motus")
        let out = try CLI.run(["evaluate-steps", folder, "--format", "json"])
        #expect(out.status == 0, "\(out.stderr)")
        let rows = try Self.rows(out.stdout)
        #expect(Set(rows.compactMap { $0["id"] as? String }) == ["walk.motus", "device-motion.motus"])
        #expect(rows.allSatisfy { $0["true_steps"] as? Int == 9 })
    }

    @Test func stepAndLabelColumnsJudgeAsTheNativeLinesDo() throws {
        let r = try RecordingLoader.load(path: Self.walk)
        let acc = try #require(r.stream(.acceleration)), gyro = try #require(r.stream(.rotationRate))
        #expect(acc.times == gyro.times)
        let steps = r.events.filter { $0.kind == "step" }
        var text = "time,acc_x,acc_y,acc_z,gyr_x,gyr_y,gyr_z,activity,step\n"
        var next = 0
        for i in 0..<acc.count {
            let t = acc.times[i]
            var step = ""
            while next < steps.count && steps[next].time <= t + 1e-9 { step = steps[next].detail; next += 1 }
            text += "\(t),\(acc.value(i, 0)),\(acc.value(i, 1)),\(acc.value(i, 2)),\(gyro.value(i, 0)),\(gyro.value(i, 1)),\(gyro.value(i, 2)),\(r.label(at: t) ?? ""),\(step)\n"
        }
        let csv = CLI.temp("walk.csv", text)
        let native = try Self.rows(try CLI.run(["evaluate-steps", Self.walk, "--format", "json"]).stdout)
        let viaColumns = try CLI.run(["evaluate-steps", csv, "--step-column", "step", "--label-column", "activity", "--format", "json"])
        #expect(viaColumns.status == 0, "\(viaColumns.stderr)")
        let columns = try Self.rows(viaColumns.stdout)
        #expect(columns.first?["true_steps"] as? Int == 9)
        for key in ["true_steps", "counted_steps", "counted_steps_outside"] {
            #expect(columns.first?[key] as? Int == native.first?[key] as? Int, "\(key)")
        }
        // The same truth as a sidecar beside the CSV, found without a flag.
        let plain = CLI.temp("plain.csv", text)
        var sidecar = "time,kind,detail\n"
        for s in steps { sidecar += "\(s.time),step,\(s.detail)\n" }
        _ = FileManager.default.createFile(atPath: plain + ".truth.csv", contents: Data(sidecar.utf8))
        let bySidecar = try CLI.run(["evaluate-steps", plain, "--format", "json"])
        #expect(bySidecar.status == 0, "\(bySidecar.stderr)")
        #expect(try Self.rows(bySidecar.stdout).first?["true_steps"] as? Int == 9)
    }
}
