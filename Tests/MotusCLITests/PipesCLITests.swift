import Testing
import Foundation
import MotusIO

/// Standard input, /dev/stdin and FIFOs read completely; `convert` writes the format its
/// --out names, to a file or to standard output.
@Suite(.serialized) struct PipesCLITests {
    /// Runs a shell command line in the package root with `motus` meaning the built binary.
    static func shell(_ line: String) throws -> CLI.Result {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = ["-o", "pipefail", "-c", "motus() { \"\(CLI.binary)\" \"$@\"; }; " + line]
        p.currentDirectoryURL = URL(fileURLWithPath: CLI.root)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return CLI.Result(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Everything after the first line (the path `inspect` names).
    static func body(_ s: String) -> String { s.split(separator: "\n", maxSplits: 1).dropFirst().joined() }

    /// The case: the header arrived as `tamp` because looking at the input (is it a
    /// native file?) read its first bytes from the pipe before the reader did.
    @Test func pipedInputIsReadWhole() throws {
        let text = "timestamp,acc_x,acc_y,acc_z\n" + (0..<300).map { "\(Double($0) / 100),0.1,0.2,9.8" }.joined(separator: "\n") + "\n"
        let p = CLI.temp("walk.csv", text)
        let direct = try CLI.run(["inspect", p, "--format", "json"])
        #expect(direct.status == 0)
        for line in ["cat \(p) | motus inspect /dev/stdin --format json", "cat \(p) | motus inspect - --format json", "motus inspect - --format json < \(p)"] {
            let r = try Self.shell(line)
            #expect(r.status == 0, "\(line): \(r.stderr)")
            #expect(r.stderr.isEmpty, "\(line): \(r.stderr)")
            let a = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
            let b = try #require(try JSONSerialization.jsonObject(with: Data(direct.stdout.utf8)) as? [[String: Any]])
            #expect((a[0]["streams"] as? [[String: Any]])?.first?["samples"] as? Int == 300, "\(line)")
            #expect(NSDictionary(dictionary: (a[0]["streams"] as! [[String: Any]])[0]) == NSDictionary(dictionary: (b[0]["streams"] as! [[String: Any]])[0]), "\(line)")
        }
        // Native recordings, every command that reads one.
        let walk = "datasets/lowback-straight-walk.motus"
        for command in ["track", "classify", "inspect"] {
            let direct = try CLI.run([command, walk])
            let piped = try Self.shell("cat \(walk) | motus \(command) -")
            #expect(piped.status == 0, "\(command): \(piped.stderr)")
            #expect(command == "inspect" ? Self.body(piped.stdout) .contains(Self.body(direct.stdout)) : piped.stdout == direct.stdout, "\(command)")
        }
        let steps = try Self.shell("cat \(walk) | motus evaluate-steps -")
        #expect(steps.status == 0, "\(steps.stderr)")
        #expect(steps.stdout.contains("<stdin>") || steps.stdout.contains(" - "), "\(steps.stdout)")
    }

    @Test func errorsInPipedInputNameStandardInput() throws {
        let r = try Self.shell("printf 'timestamp,acc_x,acc_y,acc_z\\n0,1,2,x\\n' | motus inspect -")
        #expect(r.status == 1)
        #expect(r.stderr == "motus: <stdin>:2:7: found 'x', expected a number in column 'acc_z'\n")
        let dev = try Self.shell("printf 'timestamp,acc_x,acc_y,acc_z\\n0,1,2,x\\n' | motus track /dev/stdin")
        #expect(dev.stderr == "motus: /dev/stdin:2:7: found 'x', expected a number in column 'acc_z'\n")
    }

    @Test func aFIFOIsReadWhole() throws {
        let dir = (CLI.temp("x", "") as NSString).deletingLastPathComponent
        let fifo = dir + "/in.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let r = try Self.shell("cat datasets/lowback-straight-walk.motus > \(fifo) & motus track \(fifo); wait")
        let direct = try CLI.run(["track", "datasets/lowback-straight-walk.motus"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == direct.stdout)
    }

    /// A full disk (a file-size limit, SIGXFSZ ignored, so write(2) fails with EFBIG) while
    /// `convert` writes each format: one line on stderr naming the file being written, status 1,
    /// and no output left behind (convert writes `OUT.partial` and renames it only when whole).
    @Test func convertOnAFullDiskLeavesNoHalfFile() throws {
        let dir = (CLI.temp("x", "") as NSString).deletingLastPathComponent
        for ext in ["motus", "csv", "jsonl"] {
            let out = dir + "/full." + ext
            // 8 blocks of 512 bytes: the 197 kB walk needs far more.
            let r = try Self.shell("trap '' XFSZ; ulimit -f 8; motus convert datasets/lowback-straight-walk.motus --out '\(out)'")
            #expect(r.status == 1, "\(ext): \(r.stderr)")
            #expect(r.stderr == "motus: \(out).partial: cannot write: File too large\n", "\(ext): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out) && !FileManager.default.fileExists(atPath: out + ".partial"), "\(ext)")
        }
    }

    @Test func convertWritesTheFormatItsOutNames() throws {
        let dir = (CLI.temp("x", "") as NSString).deletingLastPathComponent
        let walk = "datasets/lowback-straight-walk.motus"
        let recording = try RecordingLoader.load(path: CLI.root + "/" + walk)
        // CSV: the documented header, one row per sample, label, event and metadata field, values exact.
        let csv = try CLI.run(["convert", walk, "--out", dir + "/w.csv"])
        #expect(csv.status == 0, "\(csv.stderr)")
        let rows = try String(contentsOfFile: dir + "/w.csv", encoding: .utf8).split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows[0].joined(separator: ",") == RecordingCSVWriter.header)
        let acc = try #require(recording.stream(.acceleration))
        let accRows = rows.filter { $0[0] == "acc" }
        #expect(accRows.count == acc.count)
        for (i, row) in accRows.enumerated() {
            #expect(Double(row[2]) == acc.times[i] && Double(row[3]) == acc.vector(i).x && Double(row[4]) == acc.vector(i).y && Double(row[5]) == acc.vector(i).z)
            #expect(row.count == rows[0].count && row[6...].allSatisfy(\.isEmpty))
        }
        #expect(rows.filter { $0[0] == "event" }.count == 9 && rows.filter { $0[0] == "label" }.map { $0[18] } == ["walk"])
        #expect(rows.contains { $0[0] == "meta" && $0[18] == "subject" && $0[19] == "MS/001" })
        // JSON Lines: every line an object; the samples exact.
        let jsonl = try CLI.run(["convert", walk, "--out", dir + "/w.jsonl"])
        #expect(jsonl.status == 0)
        let objects = try String(contentsOfFile: dir + "/w.jsonl", encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let samples = objects.filter { $0["type"] as? String == "sample" && $0["stream"] as? String == "acc" }
        #expect(samples.count == acc.count)
        // Numbers read back exactly (parsed with Swift's correctly rounded Double(String), not
        // Foundation's JSON number parsing).
        let sampleLines = try String(contentsOfFile: dir + "/w.jsonl", encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("{\"type\":\"sample\",\"stream\":\"acc\"") }
        for (i, line) in sampleLines.enumerated() {
            let t = line.split(separator: ",")[2].dropFirst(4)
            let v = line[line.range(of: "\"v\":[")!.upperBound...].dropLast(2).split(separator: ",").map { Double($0) }
            #expect(Double(t) == acc.times[i] && v == [acc.vector(i).x, acc.vector(i).y, acc.vector(i).z], "\(line)")
        }
        #expect(objects.filter { $0["type"] as? String == "event" }.count == 9)
        // To standard output: native unless --to says otherwise, the same bytes as the file.
        let native = try CLI.run(["convert", walk, "--out", dir + "/w.motus"])
        #expect(native.status == 0)
        let piped = try Self.shell("cat \(walk) | motus convert - --out -")
        #expect(piped.status == 0)
        #expect(piped.stdout == (try String(contentsOfFile: dir + "/w.motus", encoding: .utf8)).replacingOccurrences(of: walk, with: "<stdin>"))
        #expect(!FileManager.default.fileExists(atPath: CLI.root + "/-"), "no file named '-'")
        let toCSV = try CLI.run(["convert", walk, "--out", "-", "--to", "csv"])
        #expect(toCSV.stdout == (try String(contentsOfFile: dir + "/w.csv", encoding: .utf8)))
    }

    @Test func convertRefusesAnOutItCannotWrite() throws {
        let dir = (CLI.temp("x", "") as NSString).deletingLastPathComponent
        let r = try CLI.run(["convert", "datasets/lowback-straight-walk.motus", "--out", dir + "/w.txt"])
        #expect(r.status == 1)
        #expect(r.stderr == "motus: convert writes .motus (native), .csv or .jsonl; --out '\(dir)/w.txt' names none of them (or give --to motus|csv|jsonl)\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/w.txt"))
        let clash = try CLI.run(["convert", "datasets/lowback-straight-walk.motus", "--out", dir + "/w.motus", "--to", "csv"])
        #expect(clash.stderr == "motus: --to csv but --out '\(dir)/w.motus' names motus: give an --out ending in .csv, or leave out --to\n")
        let bad = try CLI.run(["convert", "datasets/lowback-straight-walk.motus", "--out", "-", "--to", "xml"])
        #expect(bad.status == 1 && bad.stderr == "motus: --to must be motus, csv or jsonl, not 'xml'\n")
    }

    /// `train --out -` writes the model to standard output: the same bytes as the file.
    @Test func trainWritesTheModelToStandardOutput() throws {
        let dir = (CLI.temp("x", "") as NSString).deletingLastPathComponent
        let args = ["train", "datasets/iphone-belt-stand-then-walk.motus", "--map", "moving=u-turn", "--map", "still=static-balance"]
        let file = try CLI.run(args + ["--out", dir + "/m.json"])
        let piped = try CLI.run(args + ["--out", "-"])
        #expect(file.status == 0 && piped.status == 0, "\(piped.stderr)")
        // The same model; only the command line it records differs (--out).
        let saved = try String(contentsOfFile: dir + "/m.json", encoding: .utf8)
        func model(_ s: String) -> [Substring] { s.split(separator: "\n").filter { !$0.contains("\"command\" : ") } }
        #expect(model(piped.stdout) == model(saved) && model(saved).count > 100)
        #expect(piped.stderr.hasSuffix("motus: wrote standard output (moving, still; 102 features; logistic)\n"))
        #expect(!FileManager.default.fileExists(atPath: CLI.root + "/-"))
    }

    /// Track files (FIT, GPX) from standard input: detecting the format read the first bytes,
    /// which `/dev/stdin` then lacked (`found '<trkpt>', expected <gpx> as the root element`).
    @Test func tracksFromStandardInput() throws {
        guard let shared = DatasetLocator.sharedDatasets(packageRoot: CLI.root) else {
            print("skipping: ../shared/datasets not found (set MOTUS_DATASETS)"); return
        }
        for (command, file) in [("ride", "/tracks/fitfiler/garmin-edge530-ride.fit"), ("route", "/tracks/brouter/rondanestien-test-route.gpx")] {
            let direct = try CLI.run([command, shared + file])
            for input in ["-", "/dev/stdin"] {
                let piped = try Self.shell("cat \(shared + file) | motus \(command) \(input)")
                #expect(piped.status == 0, "\(command) \(input): \(piped.stderr)")
                #expect(Self.body(piped.stdout) == Self.body(direct.stdout), "\(command) \(input)")
            }
        }
        let bad = try Self.shell("printf '<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"0\"/></trkseg></trk></gpx>' | motus ride -")
        #expect(bad.status == 1 && bad.stderr.hasPrefix("motus: <stdin>:"), "\(bad.stderr)")
    }
}
