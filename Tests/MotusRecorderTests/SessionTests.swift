import Foundation
import Testing
import MotusTestSupport
import MotusCore
import MotusIO
import NIOCore
import NIOPosix
@testable import MotusRecorder

let quietLog = RateLimitedLog { _ in }

func waitUntil(_ seconds: Double, _ cond: () -> Bool) -> Bool {
    let end = monotonicClock() + seconds
    while monotonicClock() < end { if cond() { return true }; usleep(10_000) }
    return cond()
}

@Suite struct SessionTests {
    @Test func writesReadsBackCountsLateAndLabels() throws {
        let dir = TestData.tempDir()
        let path = RecordingSession.outputPath(folder: dir, start: 1_700_000_000)
        #expect(path.hasSuffix("/recording-20231114-221320.motus"))
        var cfg = RecordingSession.Configuration(path: path, metadata: RecordingMetadata(device: "Pixel", placement: "hand", subject: "s1", heightMeters: 1.8))
        cfg.labelCheckpoint = 0.05
        let s = try RecordingSession(configuration: cfg)
        let src = try #require(s.registerSource(key: "a", description: "test source"))
        #expect(src == 1 && s.registerSource(key: "a", description: "x") == 1)
        let now = wallClock()
        var b = SampleBatch(source: src, receivedAt: now)
        for i in 0..<100 { b.append(.acceleration, time: 100 + Double(i) * 0.01, 0, 0, 9.81) }
        b.append(.acceleration, time: 98.0, 0, 0, 9.81)   // 2.99 s behind: late
        b.append(.acceleration, time: 100.5, 0, 0, 9.81)  // 0.49 s behind: kept
        b.append(.acceleration, time: .nan, 0, 0, 9.81)   // no clock gives it: counted as a bad time
        #expect(s.submit(b))
        s.setLabel("walking", at: now)
        s.mark("mark", at: now + 0.1)
        usleep(200_000)
        s.setLabel(nil, at: now + 0.2)
        var b2 = SampleBatch(source: try #require(s.registerSource(key: "b", description: "second")), receivedAt: now)
        b2.append(.rotationRate, time: 5, 1, 2, 3)
        #expect(s.submit(b2))
        let stats = try s.finish()
        #expect(stats.written == 102 && stats.late == 1 && stats.badTime == 1 && stats.malformed == 0)
        let r = try NativeFormat.read(path: path)
        #expect(r.stream(named: "acc")?.count == 101)
        #expect(r.stream(named: "acc")?.count == 101)
        #expect(r.stream(named: "gyro.2")?.count == 1)
        #expect(r.metadata.device == "Pixel" && r.metadata.heightMeters == 1.8)
        #expect(r.metadata.extra["source.1"] == "test source")
        let offset = Double(r.metadata.extra["clock_offset_s.1"]!)!
        #expect(abs(offset - (100.99 - now)) < 1e-6)
        // The label is on the first source's clock; checkpointed pieces are contiguous.
        #expect(!r.labels.isEmpty && r.labels.allSatisfy { $0.label == "walking" })
        #expect(abs(r.labels.first!.start - (now + offset)) < 1e-6)
        #expect(abs(r.labels.last!.end - (now + 0.2 + offset)) < 1e-6)
        for (a, c) in zip(r.labels, r.labels.dropFirst()) { #expect(a.end == c.start) }
        #expect(r.events.map(\.kind) == ["mark"])
    }

    @Test func boundedQueueRefusesAndCounts() throws {
        var cfg = RecordingSession.Configuration(path: TestData.tempDir() + "/q.motus")
        cfg.queueCapacity = 5
        let s = try RecordingSession(configuration: cfg)
        var b = SampleBatch(source: try #require(s.registerSource(key: "a", description: "a")), receivedAt: 0)
        for i in 0..<10 { b.append(.acceleration, time: Double(i), 0, 0, 1) }
        #expect(!s.submit(b))
        let st = try s.finish()
        #expect(st.dropped == 10 && st.written == 0)
        #expect(!s.submit(b))  // after finish: refused
    }

    @Test func pauseDropsSamplesAndWritesEvents() throws {
        let path = TestData.tempDir() + "/p.motus"
        let s = try RecordingSession(configuration: .init(path: path))
        let src = try #require(s.registerSource(key: "a", description: "a"))
        func send(_ t: Double) { var b = SampleBatch(source: src, receivedAt: t); b.append(.acceleration, time: t, 0, 0, 1); s.submit(b) }
        send(1); s.setPaused(true, at: 1.5); send(2); s.setPaused(false, at: 2.5); send(3)
        let st = try s.finish()
        #expect(st.written == 2 && st.whilePaused == 1)
        let r = try NativeFormat.read(path: path)
        #expect(r.stream(.acceleration)?.times == [1, 3])
        #expect(r.events.map(\.kind) == ["pause", "resume"])
    }

    @Test func keysFromAPipeBecomeLabelsAndEvents() throws {
        let path = TestData.tempDir() + "/k.motus"
        let s = try RecordingSession(configuration: .init(path: path))
        let src = try #require(s.registerSource(key: "a", description: "a"))
        var b = SampleBatch(source: src, receivedAt: wallClock())
        b.append(.acceleration, time: wallClock(), 0, 0, 1)
        s.submit(b)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bindings = KeyBindings(labels: [(UInt8(ascii: "w"), "walking"), (UInt8(ascii: "r"), "running")], eventKey: UInt8(ascii: "m"))
        let reader = KeyReader(fd: fds[0], labeller: KeyLabeller(bindings: bindings), session: s)
        reader.start()
        for k in ["w", "m", "r", "r"] {
            var c = UInt8(ascii: Unicode.Scalar(k)!)
            _ = write(fds[1], &c, 1)
            usleep(60_000)
        }
        #expect(waitUntil(2) { s.stats().label == nil })
        reader.stop()
        close(fds[1]); close(fds[0])
        try s.finish()
        let r = try NativeFormat.read(path: path)
        #expect(r.labelNames == ["walking", "running"])
        #expect(r.events.map(\.kind) == ["mark"])
    }

    @Test func unwritablePlacesAreReportedAtOnce() {
        // A full disk: /dev/full refuses every write with ENOSPC.
        #expect(throws: NativeWriter.WriteError.self) { try RecordingSession(configuration: .init(path: "/dev/full")) }
        do { _ = try RecordingSession(configuration: .init(path: "/dev/full")) } catch {
            #expect(error.description.contains("No space left on device"))
        }
        // A folder that cannot hold files (/proc refuses new files even to root).
        #expect(throws: NativeWriter.WriteError.self) { try RecordingSession(configuration: .init(path: "/proc/motus-test.motus")) }
    }
}

@Suite(.serialized) struct NetworkTests {
    @Test func udpHyperIMUAndSensorStreamEndToEnd() throws {
        for format in PacketFormat.allCases {
            let path = TestData.tempDir() + "/u.motus"
            let s = try RecordingSession(configuration: .init(path: path))
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            let r = try UDPReceiver(configuration: .init(port: 0, format: format, hyperIMUSensors: [.acceleration, .rotationRate]), session: s, group: group, log: quietLog)
            let tx = UDPSender(port: r.port)
            for i in 0..<50 {
                switch format {
                case .hyperimu: tx.send("\(1700000000000 + i * 10),0.1,0.2,9.8,0.01,0.02,0.03\r\n")
                case .sensorstream: tx.send("\(100 + Double(i) * 0.01), 3, 0.100,0.200,9.800, 4, 0.010,0.020,0.030")
                }
            }
            tx.send("this is not a packet")
            tx.send(String(repeating: "1", count: 5000))   // over the packet limit
            #expect(waitUntil(5) { let st = s.stats(); return st.written == 100 && st.malformed == 2 })
            r.close()
            try group.syncShutdownGracefully()
            let st = try s.finish()
            #expect(st.written == 100 && st.malformed == 2, "\(format)")
            let rec = try NativeFormat.read(path: path)
            #expect(rec.stream(.acceleration)?.count == 50 && rec.stream(.rotationRate)?.count == 50)
            #expect(rec.metadata.extra["source.1"]?.contains("udp \(format.rawValue) from 127.0.0.1") == true)
        }
    }

    @Test func httpSensorLoggerPushTokenLimitsAndDuplicates() throws {
        let path = TestData.tempDir() + "/h.motus"
        let s = try RecordingSession(configuration: .init(path: path))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var cfg = HTTPReceiver.Configuration(port: 0, token: "s3cret")
        cfg.maxBodyBytes = 4096
        let h = try HTTPReceiver(configuration: cfg, session: s, group: group, log: quietLog)
        let body = bytes(SensorLoggerSample.message)
        #expect(httpRequest(port: h.port, body: body)?.0 == 401)
        #expect(httpRequest(port: h.port, path: "/data?token=wrong", body: body)?.0 == 401)
        #expect(httpRequest(port: h.port, path: "/data?token=s3cret", body: body)?.0 == 200)
        #expect(httpRequest(port: h.port, headers: ["Authorization: Bearer s3cret"], body: body)?.0 == 200)   // same messageId: ignored
        #expect(httpRequest(port: h.port, headers: ["Authorization: Bearer s3cret"], body: bytes("{nope"))?.0 == 400)
        #expect(httpRequest(port: h.port, headers: ["Authorization: Bearer s3cret"], body: [UInt8](repeating: 0x20, count: 10000))?.0 == 413)
        #expect(httpRequest(port: h.port, method: "PUT", headers: ["Authorization: Bearer s3cret"], body: body)?.0 == 405)
        // Out of order: message 14 before 13.
        let m14 = #"{"messageId":14,"sessionId":"S","deviceId":"D","payload":[{"name":"gyroscope","time":1700000000300000000,"values":{"x":1,"y":2,"z":3}}]}"#
        let m13 = #"{"messageId":13,"sessionId":"S","deviceId":"D","payload":[{"name":"gyroscope","time":1700000000200000000,"values":{"x":1,"y":2,"z":3}}]}"#
        #expect(httpRequest(port: h.port, path: "/?token=s3cret", body: bytes(m14))?.0 == 200)
        #expect(httpRequest(port: h.port, path: "/?token=s3cret", body: bytes(m13))?.0 == 200)
        // The documented message's barometer reading is stamped 2022, 16 months before its
        // other readings: no live phone sends that, so it is a bad time (counted, not written).
        #expect(waitUntil(5) { s.stats().written == 7 })
        h.close()
        try group.syncShutdownGracefully()
        let st = try s.finish()
        #expect(st.written == 7 && st.badTime == 1 && st.malformed == 2 && st.dropped == 0, "\(st)")
        let r = try NativeFormat.read(path: path)
        #expect(r.stream(named: "uacc")?.count == 1 && r.stream(named: "gyro")?.count == 1)
        #expect(r.stream(named: "gyro.2")?.times == [1700000000.3, 1700000000.2])
    }

    @Test func phyphoxPollerAgainstAFakePhone() throws {
        let phone = FakePhyphox(perPoll: 7)
        defer { phone.stop() }
        let path = TestData.tempDir() + "/ph.motus"
        let s = try RecordingSession(configuration: .init(path: path))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let p = try PhyphoxPoller(url: "http://127.0.0.1:\(phone.port)", pollInterval: 0.02, session: s, group: group, log: quietLog)
        p.start()
        #expect(waitUntil(10) { p.polls >= 10 })
        p.stop()
        try group.syncShutdownGracefully()
        try s.finish()
        phone.lock.lock(); let produced = phone.produced; let reqs = phone.requests; phone.lock.unlock()
        let r = try NativeFormat.read(path: path)
        let acc = try #require(r.stream(.acceleration))
        // Every value the phone produced up to the last answer, once, in order.
        #expect(acc.count == produced)
        #expect(acc.times == (0..<produced).map { Double($0) / 100 })
        #expect(acc.vector(3) == Vector3(0.03, 9.81, -0.003))
        #expect(reqs.first == "/config")
        #expect(reqs.dropFirst().first?.contains("acc_time=full") == true)
        #expect(reqs.last?.contains("%7Cacc_time") == true)
    }

    /// The load test: 20 UDP senders on loopback, each a HyperIMU stream at 400 Hz, for a
    /// bounded 3 s. Prints the achieved rate and the loss count; no sample may be lost.
    @Test func load20StreamsAt400Hz() throws {
        let streams = 20, rate = 400.0, seconds = 3.0
        let path = TestData.tempDir() + "/load.motus"
        let s = try RecordingSession(configuration: .init(path: path))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let r = try UDPReceiver(configuration: .init(port: 0, format: .hyperimu, hyperIMUSensors: [.acceleration]), session: s, group: group, log: quietLog)
        let senders = (0..<streams).map { _ in UDPSender(port: r.port) }
        let total = Int(rate * seconds)
        var sent = 0, sendErrors = 0
        let t0 = monotonicClock()
        // Paced: every 5 ms, each sender catches up to where 400 Hz says it should be.
        var next = 0
        while next < total {
            let due = min(total, Int((monotonicClock() - t0) * rate) + 1)
            while next < due {
                let line = "\(1700000000000 + next * 5 / 2),\(Double(next) * 0.001),0.5,9.81\r\n"
                for tx in senders { if tx.send(line) { sent += 1 } else { sendErrors += 1 } }
                next += 1
            }
            usleep(5000)
        }
        let sendSeconds = monotonicClock() - t0
        _ = waitUntil(10) { s.stats().written >= sent }
        r.close()
        try group.syncShutdownGracefully()
        let st = try s.finish()
        let loss = streams * total - st.written
        let achieved = Double(st.written) / sendSeconds
        print("recorder load test: \(streams) streams x \(Int(rate)) Hz for \(seconds) s on 127.0.0.1 (debug build): sent \(sent), written \(st.written), achieved \(Int(achieved)) samples/s, loss \(loss) (dropped \(st.dropped), malformed \(st.malformed), send errors \(sendErrors))")
        #expect(sendErrors == 0)
        #expect(loss == 0)
        #expect(st.streams.count == streams && st.streams.allSatisfy { $0.samples == total })
        let summary = try RecordingLoader.summarize(path: path)
        #expect(summary.streams.count == streams)
        #expect(summary.streams.allSatisfy { abs(Double($0.samples - 1) / $0.durationS - rate) < 1 })
    }
}

/// What a client sends is quoted in log lines: its control characters are escaped, so a packet
/// cannot write escape sequences into the operator's terminal.
@Suite struct LogEscapingTests {
    @Test func clientBytesAreEscapedInLogLines() {
        final class Lines: @unchecked Sendable { var all: [String] = [] }
        let lines = Lines()
        let log = RateLimitedLog { lines.all.append($0) }
        log("udp: malformed packet: '\u{1B}]0;owned\u{07}\n2nd line'")
        #expect(lines.all == ["udp: malformed packet: '\\u{1B}]0;owned\\u{7}\\u{A}2nd line'"])
    }
}

/// `--out FILE` never truncates a recording that is already there.
@Suite struct ExistingOutputTests {
    @Test func anExistingFileIsRefusedAndKept() throws {
        let dir = TestData.tempDir()
        let path = dir + "/walk.motus"
        let before = "#motus,1\n@stream,acc,acc\nacc,0,0,0,9.81\n"
        try before.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: RecorderError.self) { _ = try Recorder(options: RecorderOptions(source: .stdin(format: .auto, options: DelimitedOptions()), out: path), log: quietLog) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        // A text file too.
        let txt = dir + "/notes.txt"
        try "keep me".write(toFile: txt, atomically: true, encoding: .utf8)
        #expect(throws: RecorderError.self) { _ = try Recorder(options: RecorderOptions(source: .stdin(format: .auto, options: DelimitedOptions()), out: txt), log: quietLog) }
        #expect(try String(contentsOfFile: txt, encoding: .utf8) == "keep me")
    }
}
