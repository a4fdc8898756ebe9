import Testing
import Foundation

/// The benchmark folder's standard-library scripts (benchmarks/steps/oxford_reference.py,
/// stride_reference.py, grid_phase.py and ipol_walk_ends.py), and perturb.py where the steps
/// benchmark's venv is made, stop on bad input with one line on stderr that says what and where,
/// and a non-zero exit, as the command-line tool does. Run with python3 when it is found.
@Suite struct BenchmarkScriptErrorTests {
    struct Result { var status: Int32; var stdout: String; var stderr: String }

    /// Runs `python3 benchmarks/steps/SCRIPT ARGS` from the package root (or `interpreter`, a
    /// path, instead of python3); nil without python3.
    func python(_ script: String, _ args: [String], interpreter: String? = nil) throws -> Result? {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: interpreter ?? "/usr/bin/env")
        p.arguments = (interpreter == nil ? ["python3"] : []) + [CLI.root + "/benchmarks/steps/" + script] + args
        p.currentDirectoryURL = URL(fileURLWithPath: CLI.root)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        do { try p.run() } catch { print("skipping: python3 not found"); return nil }
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if p.terminationStatus == 127 { print("skipping: python3 not found"); return nil }
        return Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// An executable shell script at `dir/name` with `body`.
    func executable(_ dir: String, _ name: String, _ body: String) throws -> String {
        let path = dir + "/" + name
        try ("#!/bin/sh\n" + body).write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        return path
    }

    func tempDir() throws -> String {
        let dir = NSTemporaryDirectory() + "motus-scripts-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// One line on stderr, non-zero exit, the line equal to `line` (or ending with it).
    func expectOneLine(_ r: Result, endingWith line: String) {
        let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(r.status != 0, "exit status \(r.status)")
        #expect(lines.count == 1 && lines.first.map { $0.hasSuffix(line) } == true, "stderr: \(r.stderr)")
    }

    @Test func aMissingDataSetFolderIsNamed() throws {
        guard let r = try python("stride_reference.py", ["--datasets", "/nonexistent"]) else { return }
        expectOneLine(r, endingWith: "stride_reference: /nonexistent/ipol/voisard2023_ipol497 not found (give --datasets)")
        guard let o = try python("oxford_reference.py", ["--datasets", "/nonexistent"]) else { return }
        expectOneLine(o, endingWith: "oxford_reference: /nonexistent/oxford/optimisation/data not found (give --datasets)")
    }

    /// motus's progress lines come before its error on stderr: the script reports the error.
    @Test func aFailingMotusIsReportedByItsLastLine() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/ipol/voisard2023_ipol497", withIntermediateDirectories: true)
        let motus = try executable(dir, "motus", "echo 'evaluate-steps: 1/2 recordings' >&2\necho 'motus: a reason' >&2\nexit 1\n")
        guard let r = try python("stride_reference.py", ["--datasets", dir, "--motus", motus]) else { return }
        expectOneLine(r, endingWith: "stride_reference: motus evaluate-steps --step-mode offline failed: motus: a reason")
        guard let m = try python("stride_reference.py", ["--datasets", dir, "--motus", dir + "/no-such-motus"]) else { return }
        expectOneLine(m, endingWith: "stride_reference: cannot run \(dir)/no-such-motus: No such file or directory")
    }

    /// ipol_walk_ends.py names a missing folder, the file, line and cells of a bad sample row,
    /// a malformed foot event, and the trial whose `motus track` failed.
    @Test func walkEndsNamesTheFileAndLine() throws {
        guard let m = try python("ipol_walk_ends.py", ["--datasets", "/nonexistent"]) else { return }
        expectOneLine(m, endingWith: "ipol_walk_ends: /nonexistent/ipol/voisard2023_ipol497/GaitData not found (give --datasets)")
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let data = dir + "/ipol/voisard2023_ipol497/GaitData"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        var rows = "Acquisition frequency: 100 Hz\nPacketCounter\tAcc_X\tAcc_Y\tAcc_Z\n"
        for i in 0..<20 { rows += "\(i).0\t9.8\t0.1\t0.2\n" }
        try (rows + "20.0\t9.8\tx\t0.2\n").write(toFile: data + "/1-1_lb.txt", atomically: true, encoding: .utf8)
        let events = #"{"TrialBoundaries": [2, 18], "LeftFootEvents": [[1, 4], [8, 12]], "RightFootEvents": [[5, 9], [13, 16]]}"#
        try events.write(toFile: data + "/1-1.json", atomically: true, encoding: .utf8)
        let motus = try executable(dir, "motus", "echo 'motus: a reason' >&2\nexit 1\n")
        guard let r = try python("ipol_walk_ends.py", ["--datasets", dir, "--motus", motus]) else { return }
        expectOneLine(r, endingWith: "ipol_walk_ends: \(data)/1-1_lb.txt:23: not four numbers: 20.0 9.8 x 0.2")
        try rows.write(toFile: data + "/1-1_lb.txt", atomically: true, encoding: .utf8)
        guard let t = try python("ipol_walk_ends.py", ["--datasets", dir, "--motus", motus]) else { return }
        expectOneLine(t, endingWith: "ipol_walk_ends: motus track 1-1_lb.txt --step-mode offline failed: motus: a reason")
        try events.replacingOccurrences(of: "[13, 16]", with: "[13]").write(toFile: data + "/1-1.json", atomically: true, encoding: .utf8)
        guard let e = try python("ipol_walk_ends.py", ["--datasets", dir, "--motus", motus]) else { return }
        expectOneLine(e, endingWith: "ipol_walk_ends: \(data)/1-1.json: RightFootEvents has [13], expected [toe off, heel strike]")
    }

    /// grid_phase.py names a bad --phases, a missing folder, and the run of motus that failed
    /// (with its grid flags).
    @Test func gridPhaseNamesWhatItCannotRun() throws {
        for bad in ["0,x", "1", "0,-0.5", ""] {
            guard let r = try python("grid_phase.py", ["--phases=" + bad]) else { return }
            expectOneLine(r, endingWith: bad.contains("x") || bad.isEmpty
                          ? "grid_phase: --phases takes fractions separated by commas, not '\(bad)'"
                          : "grid_phase: every phase must lie in [0, 1), not '\(bad)'")
        }
        guard let m = try python("grid_phase.py", ["--datasets", "/nonexistent"]) else { return }
        expectOneLine(m, endingWith: "grid_phase: /nonexistent/oxford not found (give --datasets)")
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir + "/oxford", withIntermediateDirectories: true)
        // As recorded it runs; on a shifted grid it fails.
        let motus = try executable(dir, "motus", """
            case "$*" in *--grid-phase*) echo 'motus: a reason' >&2; exit 1;; esac
            echo '{"summary": {"mape": 1.0}, "recordings": []}'

            """)
        guard let r = try python("grid_phase.py", ["--datasets", dir, "--motus", motus, "--phases", "0.5"]) else { return }
        let lines = r.stderr.split(separator: "\n")
        #expect(r.status != 0 && lines.count == 1 && lines[0] == "grid_phase: motus evaluate-steps --step-mode offline --resample 100 --grid-phase 0.5 failed: motus: a reason",
                "\(r.stderr)")
    }

    /// perturb.py (numpy and scipy: run with the steps benchmark's venv, which
    /// `benchmarks/steps/run.sh` makes) names a missing binary, a missing data set folder and
    /// the run of motus that failed.
    @Test func perturbNamesWhatItCannotRun() throws {
        let venv = CLI.root + "/benchmarks/.venv-steps/bin/python"
        guard FileManager.default.isExecutableFile(atPath: venv) else {
            print("skipping: benchmarks/.venv-steps not made (benchmarks/steps/run.sh makes it); perturb.py needs its numpy and scipy")
            return
        }
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        guard let b = try python("perturb.py", ["--motus", dir + "/no-such-motus"], interpreter: venv) else { return }
        expectOneLine(b, endingWith: "perturb: \(dir)/no-such-motus not found (build it: swift build -c release, or give --motus)")
        let motus = try executable(dir, "motus", "echo 'evaluate-steps: 1/2 recordings' >&2\necho 'motus: a reason' >&2\nexit 1\n")
        guard let m = try python("perturb.py", ["--datasets", dir, "--motus", motus], interpreter: venv) else { return }
        expectOneLine(m, endingWith: "perturb: \(dir)/oxford not found (give --datasets)")
        for folder in ["oxford", "weallwalk", "ipol/voisard2023_ipol497"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
        }
        guard let r = try python("perturb.py", ["--datasets", dir, "--motus", motus], interpreter: venv) else { return }
        expectOneLine(r, endingWith: "perturb: Oxford: motus: a reason")
    }

    /// A reference file with a short row or a non-number stops the script at its line.
    @Test func aBadReferenceRowIsNamedByFileAndLine() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let walk = dir + "/oxford/optimisation/data/W"
        try FileManager.default.createDirectory(atPath: walk, withIntermediateDirectories: true)
        let motus = try executable(dir, "motus", "echo '{\"recordings\": [{\"id\": \"W\", \"true_steps\": 1, \"counted_steps\": 1}]}'\n")
        try "100,0,0\n200,1\n".write(toFile: walk + "/stepcounter.csv", atomically: true, encoding: .utf8)
        guard let r = try python("oxford_reference.py", ["--datasets", dir, "--motus", motus]) else { return }
        expectOneLine(r, endingWith: "oxford_reference: \(walk)/stepcounter.csv:2: 2 columns, expected 3 (time ns, foot 1, foot 2)")
        try "100,0,0\n200,1,x\n".write(toFile: walk + "/stepcounter.csv", atomically: true, encoding: .utf8)
        guard let n = try python("oxford_reference.py", ["--datasets", dir, "--motus", motus]) else { return }
        expectOneLine(n, endingWith: "oxford_reference: \(walk)/stepcounter.csv:2: not three integers: 200,1,x")
    }
}
