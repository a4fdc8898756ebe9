import Testing
import Foundation
import MotusIO

/// `convert`, `track` and `classify` read their file as they go (#18): the output is what the
/// whole-recording road gives, and a bad line leaves no half-written output behind.
@Suite(.serialized) struct StreamingCLITests {
    @Test func convertLeavesNothingBehindOnABadLine() throws {
        let bad = CLI.temp("bad.motus", "#motus,1\n@stream,a,acc,t_s,x,y,z\na,0,0,0,9.8\na,0.01,0,x,9.8\n")
        let out = (bad as NSString).deletingLastPathComponent + "/out.motus"
        let r = try CLI.run(["convert", bad, "--out", out])
        #expect(r.status == 1)
        #expect(r.stderr.contains("bad.motus:4:10"))
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: out + ".partial"))
    }

    /// A recording written stream after stream (as older `convert` did) tracks and classifies
    /// exactly as the same samples interleaved by time.
    @Test func blockAndInterleavedLayoutsGiveTheSameResults() throws {
        let src = CLI.root + "/datasets/lowback-straight-walk.motus"
        let text = try String(contentsOfFile: src, encoding: .utf8)
        var header: [Substring] = [], acc: [Substring] = [], gyro: [Substring] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("acc,") { acc.append(line) } else if line.hasPrefix("gyro,") { gyro.append(line) } else if !line.hasPrefix("@stream") { header.append(line) }
        }
        #expect(acc.count == 1450 && gyro.count == 1450)
        // Interleaved: acc and gyro lines alternate, both streams declared first.
        var lines = header.map(String.init) + ["@stream,acc,acc,t_s,x_mps2,y_mps2,z_mps2", "@stream,gyro,gyro,t_s,x_rads,y_rads,z_rads"]
        for (a, g) in zip(acc, gyro) { lines.append(String(g)); lines.append(String(a)) }
        let interleaved = CLI.temp("interleaved.motus", lines.joined(separator: "\n") + "\n")
        for command in [["track", "--format", "json", "--step-events"], ["classify", "--segments"], ["classify"]] {
            let a = try CLI.run([command[0], src] + command.dropFirst())
            let b = try CLI.run([command[0], interleaved] + command.dropFirst())
            #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
            #expect(a.stdout == b.stdout && a.stdout.count > 100, "\(command)")
        }
    }
}
