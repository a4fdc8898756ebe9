import Foundation
import Testing
import MotusCore
import MotusIO
@testable import MotusRecorder

/// Tests that run the built `motus record` as a real process.
@Suite(.serialized) struct ProcessTests {
    struct Running {
        let process: Process
        let stdin: FileHandle
        let stderr: Pipe
        let dir: String
        var stderrText: String { String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
    }

    static func start(_ args: [String], dir: String) throws -> Running {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: TestData.binary!)
        p.arguments = ["record"] + args
        let input = Pipe(), err = Pipe()
        p.standardInput = input
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        return Running(process: p, stdin: input.fileHandleForWriting, stderr: err, dir: dir)
    }

    static func recordingFile(_ dir: String) -> String? {
        (try? FileManager.default.contentsOfDirectory(atPath: dir))?.first { $0.hasSuffix(".motus") }.map { dir + "/" + $0 }
    }

    /// `kill -9` during recording: everything fed more than a second before the kill is in the
    /// file, which reads back (its unfinished last line left out), and `inspect` reads it.
    @Test(.enabled(if: TestData.binary != nil)) func killMinus9LosesAtMostTheLastSecond() throws {
        let dir = TestData.tempDir() + "/rec"
        let run = try Self.start(["--source", "stdin", "--out", dir], dir: dir)
        try run.stdin.write(contentsOf: Data("t,acc_x,acc_y,acc_z\n".utf8))
        let t0 = monotonicClock()
        var fedAt: [Double] = []
        var i = 0
        // Feed 200 lines a second for 2.5 s, then kill while still feeding.
        while monotonicClock() - t0 < 2.5 {
            let line = "\(Double(i) / 200),\(i),0.5,9.81\n"
            try run.stdin.write(contentsOf: Data(line.utf8))
            fedAt.append(monotonicClock())
            i += 1
            usleep(5000)
        }
        let killedAt = monotonicClock()
        kill(run.process.processIdentifier, SIGKILL)
        run.process.waitUntilExit()
        #expect(run.process.terminationReason == .uncaughtSignal)
        let path = try #require(Self.recordingFile(dir))
        let r = try NativeFormat.read(path: path, options: NativeReadOptions(allowTruncatedTail: true))
        let acc = try #require(r.stream(.acceleration))
        let olderThan1s = fedAt.filter { killedAt - $0 > 1.0 }.count
        print("kill -9 test: fed \(fedAt.count) lines, \(olderThan1s) older than 1 s at the kill; the file holds \(acc.count)")
        #expect(olderThan1s > 200)
        #expect(acc.count >= olderThan1s)
        // In order and exactly what was fed.
        for k in 0..<acc.count {
            #expect(acc.times[k] == Double(k) / 200 && acc.value(k, 0) == Double(k))
            if acc.times[k] != Double(k) / 200 { break }
        }
        let summary = try RecordingLoader.summarize(path: path)
        #expect(summary.streams.first?.samples == acc.count)
    }

    /// SIGTERM finalises cleanly: exit status 0, and a file that reads back without tolerance,
    /// with every line fed before the signal.
    @Test(.enabled(if: TestData.binary != nil)) func sigtermFinalisesCleanly() throws {
        let dir = TestData.tempDir() + "/rec"
        let run = try Self.start(["--source", "stdin", "--out", dir, "--label", "walking", "--subject", "s7", "--placement", "hand",
                                  "--height", "1.72", "--device", "Pixel 7"], dir: dir)
        var text = "t,acc_x,acc_y,acc_z\n"
        for i in 0..<300 { text += "\(Double(i) / 100),0,0,9.81\n" }
        text += "broken,row\n"
        try run.stdin.write(contentsOf: Data(text.utf8))
        // While it runs, inspect reads the live file.
        #expect(waitUntil(5) { (Self.recordingFile(dir).flatMap { try? RecordingLoader.summarize(path: $0) }?.streams.first?.samples ?? 0) == 300 })
        kill(run.process.processIdentifier, SIGTERM)
        run.process.waitUntilExit()
        let err = run.stderrText
        #expect(run.process.terminationStatus == 0, "\(err)")
        #expect(err.contains("malformed 1"))
        let r = try NativeFormat.read(path: try #require(Self.recordingFile(dir)))
        #expect(r.stream(.acceleration)?.count == 300)
        #expect(r.metadata.subject == "s7" && r.metadata.placement == "hand" && r.metadata.heightMeters == 1.72 && r.metadata.device == "Pixel 7")
        #expect(r.labelNames == ["walking"])
    }

    /// A full disk in the middle of a recording (simulated with a file-size limit) stops the
    /// recorder at once with a clear one-line message and a non-zero status; the file keeps
    /// complete lines only (it ends with a newline and reads back strictly, in order).
    @Test(.enabled(if: TestData.binary != nil)) func fullDiskIsReportedAtOnce() throws {
        let dir = TestData.tempDir()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        // 16 blocks of 512 bytes; SIGXFSZ ignored so write(2) fails with EFBIG as on a full disk.
        p.arguments = ["-c", "trap '' XFSZ; ulimit -f 16; exec \"$0\" record --source stdin --out \"$1\"", TestData.binary!, dir + "/r.motus"]
        let input = Pipe(), err = Pipe()
        p.standardInput = input; p.standardError = err; p.standardOutput = FileHandle.nullDevice
        try p.run()
        var text = "t,acc_x,acc_y,acc_z\n"
        for i in 0..<5000 { text += "\(Double(i) / 100),0.123456,0.654321,9.81\n" }
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
        let t0 = monotonicClock()
        while p.isRunning && monotonicClock() - t0 < 10 { usleep(20_000) }
        let stopped = !p.isRunning
        if !stopped { p.terminate() }
        p.waitUntilExit()
        let msg = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stopped)
        #expect(p.terminationStatus == 1)
        #expect(msg.contains("cannot write") && msg.contains("File too large"), "\(msg)")
        let errors = msg.split(separator: "\n").filter { $0.contains("cannot write") }
        #expect(errors.count == 1 && errors[0].hasPrefix("motus: ") && errors[0].contains(dir + "/r.motus"), "\(msg)")
        let bytes = try #require(FileManager.default.contents(atPath: dir + "/r.motus"))
        #expect(bytes.count > 0 && bytes.count <= 16 * 512 && bytes.last == 0x0A, "\(bytes.count) bytes, last \(String(describing: bytes.last))")
        let r = try NativeFormat.read(path: dir + "/r.motus")
        let acc = try #require(r.stream(.acceleration))
        #expect(acc.count > 10)
        #expect(acc.times == (0..<acc.count).map { Double($0) / 100 })
    }

    /// `motus record --source udp` on port 0: one packet with time 1e26 among 100 good ones is
    /// left out and shown as "bad time 1" in the summary; the other 100 are written.
    @Test(.enabled(if: TestData.binary != nil)) func udpBadTimeIsCountedInTheSummary() throws {
        let dir = TestData.tempDir()
        let run = try Self.start(["--source", "udp", "--packet-format", "sensorstream", "--port", "0", "--out", dir + "/u.motus"], dir: dir)
        // The first stderr line names the port: "motus: recording udp on 127.0.0.1:PORT to …".
        var text = ""
        let end = monotonicClock() + 10
        while !text.contains(" to "), monotonicClock() < end {
            let d = run.stderr.fileHandleForReading.availableData
            if d.isEmpty { break }
            text += String(decoding: d, as: UTF8.self)
        }
        let port = try #require(text.split(separator: ":").dropFirst(2).first.flatMap { Int($0.prefix { $0.isNumber }) }, "\(text)")
        let tx = UDPSender(port: port)
        for i in 0..<101 { tx.send(i == 50 ? "1e26, 3, 0.1,0.2,9.8" : "\(500 + Double(i) * 0.01), 3, 0.1,0.2,9.8") }
        #expect(waitUntil(5) { (try? RecordingLoader.summarize(path: dir + "/u.motus"))?.streams.first?.samples == 100 })
        kill(run.process.processIdentifier, SIGTERM)
        run.process.waitUntilExit()
        let err = run.stderrText
        #expect(run.process.terminationStatus == 0, "\(err)")
        #expect(err.contains("100 samples in 1 streams") && err.contains("bad time 1,") && err.contains("bad-time 1 "), "\(err)")
    }

    @Test(.enabled(if: TestData.binary != nil)) func readOnlyPlaceIsReportedAtOnce() throws {
        let run = try Self.start(["--source", "stdin", "--out", "/proc/motus-rec-test/"], dir: "")
        run.process.waitUntilExit()
        #expect(run.process.terminationStatus == 1)
        #expect(run.stderrText.contains("/proc/motus-rec-test"))
    }
}
