import Testing
import Foundation
import MotusIO

/// `-` as the file to write: `route --profile -` and `fuse --out -` write to standard output
/// what they would write to the file, and the summary to standard error.
@Suite(.serialized) struct StandardOutputCLITests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="hand" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
        <trkpt lat="61.0000" lon="9.0000"><ele>1000</ele></trkpt>
        <trkpt lat="61.0010" lon="9.0000"><ele>1010</ele></trkpt>
        <trkpt lat="61.0020" lon="9.0000"><ele>1030</ele></trkpt>
        <trkpt lat="61.0030" lon="9.0000"><ele>1020</ele></trkpt>
        </trkseg></trk></gpx>

        """

    @Test func routeProfileToStandardOutput() throws {
        let route = CLI.temp("hill.gpx", Self.gpx)
        let file = (route as NSString).deletingLastPathComponent + "/profile.csv"
        let toFile = try CLI.run(["route", route, "--profile", file])
        #expect(toFile.status == 0, "\(toFile.stderr)")
        let piped = try CLI.run(["route", route, "--profile", "-"])
        #expect(piped.status == 0, "\(piped.stderr)")
        let written = try String(contentsOfFile: file, encoding: .utf8)
        #expect(written.hasPrefix("distance_m,elevation_m,grade_percent\n") && written.split(separator: "\n").count > 2)
        #expect(piped.stdout == written)
        #expect(piped.stderr == toFile.stdout, "the summary moves to standard error")
        #expect(!FileManager.default.fileExists(atPath: CLI.root + "/-"), "no file named -")
    }

    @Test func fuseToStandardOutput() throws {
        let dir = NSTemporaryDirectory() + "motus-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let walk = "datasets/lowback-straight-walk.motus"
        let toFile = try CLI.run(["fuse", walk, "--out", dir + "/fused.motus"])
        #expect(toFile.status == 0, "\(toFile.stderr)")
        let piped = try CLI.run(["fuse", walk, "--out", "-"])
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == (try String(contentsOfFile: dir + "/fused.motus", encoding: .utf8)))
        #expect(piped.stderr.hasPrefix("motus: wrote standard output: "), "\(piped.stderr)")
        let json = try CLI.run(["fuse", walk, "--out", "-", "--format", "json"])
        #expect(json.stdout == piped.stdout && json.stderr.hasPrefix("{"), "\(json.stderr)")
    }

    /// `report - --out -`: a recording piped in, the page piped out; the same page as from and
    /// to files but for the name of the input.
    @Test func reportFromStandardInputToStandardOutput() throws {
        let walk = "datasets/lowback-straight-walk.motus"
        let dir = NSTemporaryDirectory() + "motus-cli-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let toFile = try CLI.run(["report", walk, "--out", dir + "/walk.html"])
        #expect(toFile.status == 0, "\(toFile.stderr)")
        let piped = try PipesCLITests.shell("cat \(walk) | motus report - --out -")
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr == "motus: wrote standard output (recording; 1 picture)\n")
        let page = try String(contentsOfFile: dir + "/walk.html", encoding: .utf8)
        #expect(piped.stdout.hasPrefix("<!DOCTYPE html>") || piped.stdout.hasPrefix("<!doctype html>"))
        func strip(_ s: String) -> String {
            s.replacingOccurrences(of: "datasets/lowback-straight-walk.motus", with: "IN").replacingOccurrences(of: "lowback-straight-walk.motus", with: "IN")
                .replacingOccurrences(of: "&lt;stdin&gt;", with: "IN").replacingOccurrences(of: "<td>-</td>", with: "<td>IN</td>")
        }
        #expect(strip(piped.stdout) == strip(page))
    }
}
