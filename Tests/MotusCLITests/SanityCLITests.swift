import Testing
import Foundation
import MotusIO

/// The plausibility warnings as a user sees them: one line each on stderr naming the flag,
/// `--strict` to stop instead; folders without recordings are an error.
@Suite(.serialized) struct SanityCLITests {
    /// mobgap's CSV (g, deg/s) away from its layout file, so only the flags say how to read it.
    static func mobgapCopy() throws -> String {
        let p = (CLI.temp("walk.csv", "") as NSString).deletingLastPathComponent + "/mobgap.csv"
        try FileManager.default.copyItem(atPath: CLI.root + "/datasets/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv", toPath: p)
        return p
    }

    @Test func unitsLeftOutAreSaidOnceWithTheFlagToGive() throws {
        let p = try Self.mobgapCopy()
        let accel = "motus: warning: \(p): median |acceleration| 0.981 m/s², expected about 9.81 (gravity alone): if the file is in g, give --accel-unit g (if it holds acceleration without gravity, --user-accel-columns) (--strict makes this an error)"
        let gyro = "motus: warning: \(p): p99 |rotation rate| 53.2 rad/s, expected under 35 rad/s (2000 °/s, a gyroscope's range): if the file is in °/s, give --gyro-unit degs (--strict makes this an error)"
        let leftOut = "motus: \(p): left out columns: samples (Motus reads no stream from them)"
        for args in [["track", p, "--rate", "100"], ["track", p, "--rate", "100", "--calibrate-distance", "4.35"], ["inspect", p, "--rate", "100"],
                     ["classify", p, "--rate", "100"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            let lines = r.stderr.split(separator: "\n").map(String.init).filter { $0 != leftOut }
            #expect(lines == [accel, gyro], "\(args)")
        }
        // With the units given there is nothing to say, and the walk is counted as the issue says.
        let good = try CLI.run(["track", p, "--rate", "100", "--accel-unit", "g", "--gyro-unit", "degs", "--format", "json"])
        #expect(good.status == 0)
        #expect(!good.stderr.contains("warning"))
    }

    @Test func strictStopsWithOneLine() throws {
        let p = try Self.mobgapCopy()
        let r = try CLI.run(["track", p, "--rate", "100", "--strict"])
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasSuffix("motus: \(p): found 'median |acceleration| 0.981 m/s²', expected about 9.81 (gravity alone): if the file is in g, give --accel-unit g (if it holds acceleration without gravity, --user-accel-columns)\n"))
        let out = (p as NSString).deletingLastPathComponent + "/out.motus"
        let c = try CLI.run(["convert", p, "--rate", "100", "--strict", "--out", out])
        #expect(c.status == 1)
        #expect(!FileManager.default.fileExists(atPath: out), "a refused conversion leaves no file")
        let ok = try CLI.run(["track", p, "--rate", "100", "--accel-unit", "g", "--gyro-unit", "degs", "--strict"])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    /// The case: `inspect` showed 100.00 Hz for a file whose timestamps say 102.5 Hz.
    @Test func inspectShowsTheTimestampsRate() throws {
        var text = "time,acc_x,acc_y,acc_z\n"
        for i in 0..<300 { text += "\(Double(i) / 102.5),0.1,0.2,9.8\n" }
        let p = CLI.temp("fast.csv", text)
        let r = try CLI.run(["inspect", p, "--rate", "100"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("acc     acceleration      300   102.50"), "\(r.stdout)")
        #expect(r.stderr == "motus: warning: \(p): timestamps at 102.5 Hz, expected the declared --rate 100 Hz: the timestamps are used; give --rate 102.5, or leave it out (--strict makes this an error)\n")
        #expect(try CLI.run(["inspect", p, "--rate", "100", "--strict"]).status == 1)
        #expect(try CLI.run(["inspect", p]).stderr.isEmpty)
    }

    @Test func foldersWithNoRecordingAreAClearError() throws {
        let empty = (CLI.temp("x", "") as NSString).deletingLastPathComponent + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        for command in ["inspect", "evaluate-steps"] {
            let r = try CLI.run([command, empty])
            #expect(r.status == 1, "\(command)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr == "motus: \(empty): found 'an empty folder', expected recordings (.motus, .csv, .txt or .json files or MATLAB Mobile .mat logs, in it or in its subfolders) or a dataset folder Motus knows\n", "\(command)")
        }
        let notes = CLI.temp("notes.md", "# not a recording\n")
        let r = try CLI.run(["inspect", (notes as NSString).deletingLastPathComponent])
        #expect(r.status == 1)
        #expect(r.stderr.contains("found '1 entry, no recording'") && r.stderr.contains("; it holds notes.md"))
    }

    @Test func recordRefusesStrict() throws {
        let dir = (CLI.temp("x", "") as NSString).deletingLastPathComponent
        let r = try CLI.run(["record", "--source", "stdin", "--out", dir + "/r", "--strict"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("Error: --strict checks a recording as a command reads it; record keeps what arrives (check it afterwards: motus inspect --strict FILE)"))
    }
}
