import Foundation
import Testing
import MotusTestSupport
import MotusCore
import MotusIO
import NIOCore
import NIOPosix
@testable import MotusRecorder

/// The attacker's cases for the recorder (issue #18): absurd timestamps, floods of senders,
/// unauthenticated bodies, slow headers, connection exhaustion.
@Suite(.serialized) struct HostileClientTests {
    /// One SensorStream packet with an impossible time, first or in the middle of 200 good
    /// ones: it alone is rejected and counted; every good sample after it is written.
    @Test(arguments: ["1e300", "1e26", "9000000000", "-1e12"], [0, 100])
    func oneAbsurdUDPTimeIsRejectedAndDoesNotPoisonTheStream(bad: String, at position: Int) throws {
        let path = TestData.tempDir() + "/t.motus"
        let s = try RecordingSession(configuration: .init(path: path))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let r = try UDPReceiver(configuration: .init(port: 0, format: .sensorstream), session: s, group: group, log: quietLog)
        let tx = UDPSender(port: r.port)
        for i in 0..<200 {
            let t = i == position ? bad : "\(1000 + Double(i) * 0.01)"
            tx.send("\(t), 3, 0.100,0.200,9.800")
        }
        #expect(waitUntil(5) { let st = s.stats(); return st.written + st.badTime == 200 })
        r.close()
        try group.syncShutdownGracefully()
        let st = try s.finish()
        #expect(st.written == 199 && st.badTime == 1 && st.late == 0 && st.malformed == 0, "\(st)")
        let acc = try #require(try NativeFormat.read(path: path).stream(.acceleration))
        #expect(acc.count == 199 && acc.times.allSatisfy { $0 >= 1000 && $0 < 1002 })
        #expect(StatusLine.format(st, previous: nil, interval: 0).contains("bad-time 1"))
    }

    /// Over HTTP: a message whose readings carry 1e26 s, 1e291 s and 9e9 s (epoch ns ×1e9)
    /// between two messages of good readings: the three are rejected, all 2,500 good ones kept.
    @Test func absurdHTTPReadingsAreRejectedPerReading() throws {
        let path = TestData.tempDir() + "/h.motus"
        let s = try RecordingSession(configuration: .init(path: path))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let h = try HTTPReceiver(configuration: .init(port: 0), session: s, group: group, log: quietLog)
        let start = Int64(wallClock() * 1000 - 6000) * 1_000_000   // six seconds ago, epoch ns
        func reading(_ time: String) -> String { #"{"name":"accelerometer","time":\#(time),"values":{"x":0.1,"y":0.2,"z":9.8}}"# }
        func message(_ id: Int, _ readings: [String]) -> [UInt8] {
            Array(#"{"messageId":\#(id),"sessionId":"S","deviceId":"D","payload":[\#(readings.joined(separator: ","))]}"#.utf8)
        }
        let first = (0..<1000).map { reading("\(start + Int64($0) * 2_000_000)") }
        let absurd = ["1e35", "1e300", "9000000000000000000"].map(reading) + [reading("\(start + 2_000_000_000)")]
        let later = (0..<1499).map { reading("\(start + 2_002_000_000 + Int64($0) * 2_000_000)") }
        #expect(httpRequest(port: h.port, body: message(1, first))?.0 == 200)
        #expect(httpRequest(port: h.port, body: message(2, absurd))?.0 == 200)
        #expect(httpRequest(port: h.port, body: message(3, later))?.0 == 200)
        // The reader refuses the times it cannot turn into seconds (1e35, 1e300: malformed);
        // the recorder's time rule refuses the one it can (9e9 s): each counted, none kept.
        #expect(waitUntil(5) { let st = s.stats(); return st.written + st.badTime + st.malformed == 2503 })
        h.close()
        try group.syncShutdownGracefully()
        let st = try s.finish()
        #expect(st.written == 2500 && st.badTime == 1 && st.malformed == 2 && st.late == 0, "\(st)")
        let rec = try NativeFormat.read(path: path)
        #expect(rec.streams.map(\.count) == [2500], "\(rec.streams.map { ($0.name, $0.count) })")
    }

    /// The phone's clock set forward by an hour mid-recording: its samples are rejected for
    /// `reanchorAfter` seconds, then the source is anchored afresh and recorded again.
    @Test func aClockSetForwardIsFollowedAfterTheReanchorTime() throws {
        let path = TestData.tempDir() + "/c.motus"
        var cfg = RecordingSession.Configuration(path: path)
        cfg.timeRule.reanchorAfter = 1
        let s = try RecordingSession(configuration: cfg)
        let src = try #require(s.registerSource(key: "phone", description: "phone"))
        // Laptop receive times are given, so the test does not wait for them.
        for k in 0..<40 {
            let received = 1_700_000_000 + Double(k) * 0.125
            var b = SampleBatch(source: src, receivedAt: received)
            b.append(.acceleration, time: received + (k >= 20 ? 3600 : 0), 0, 0, 9.81)
            s.submit(b)
        }
        let st = try s.finish()
        // Samples 20…27 fall in the first second after the step (rejected), 28… are taken.
        #expect(st.badTime == 8 && st.written == 32, "\(st)")
    }

    /// Standard input replays a file faster than real time: only the absolute rule applies.
    @Test func standardInputKeepsFastReplaysAndRejectsOnlyImpossibleTimes() throws {
        let path = TestData.tempDir() + "/s.motus"
        let s = try RecordingSession(configuration: .init(path: path))
        let src = try #require(s.registerSource(key: "stdin", description: "stdin", liveClock: false))
        var b = SampleBatch(source: src, receivedAt: 5)
        for i in 0..<1000 { b.append(.acceleration, time: Double(i) * 60, 0, 0, 9.81) }   // 1000 minutes at once
        b.append(.acceleration, time: 1e26, 0, 0, 9.81)
        b.append(.acceleration, time: .infinity, 0, 0, 9.81)
        b.append(.acceleration, time: 60_000, 0, 0, 9.81)
        s.submit(b)
        let st = try s.finish()
        #expect(st.written == 1001 && st.badTime == 2, "\(st)")
    }

    /// Packets from 300 source ports make at most `maxSources` sources; the rest are counted
    /// as refused, and the sources already taken keep recording.
    @Test func udpSendersBeyondTheCapAreRefusedAndCounted() throws {
        let path = TestData.tempDir() + "/u.motus"
        var cfg = RecordingSession.Configuration(path: path)
        cfg.maxSources = 8
        let s = try RecordingSession(configuration: cfg)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        final class Lines: @unchecked Sendable { let lock = NSLock(); var all: [String] = [] }
        let lines = Lines()
        let log = RateLimitedLog(perSecond: 5) { m in lines.lock.lock(); lines.all.append(m); lines.lock.unlock() }
        let r = try UDPReceiver(configuration: .init(port: 0, format: .sensorstream), session: s, group: group, log: log)
        let senders = (0..<300).map { _ in UDPSender(port: r.port) }
        for (k, tx) in senders.enumerated() {
            tx.send("\(1000 + Double(k) * 0.001), 3, 0.1,0.2,9.8")
            if k < 8 { usleep(2000) }   // the first eight arrive first
        }
        #expect(waitUntil(5) { s.stats().refusedPackets == 292 })
        for tx in senders.prefix(8) { tx.send("1001, 3, 0.1,0.2,9.8") }
        #expect(waitUntil(5) { s.stats().written == 16 })
        r.close()
        try group.syncShutdownGracefully()
        let st = try s.finish()
        #expect(st.streams.count == 8 && st.written == 16 && st.refusedPackets == 292 && st.refusedSources == 292, "\(st)")
        lines.lock.lock(); let logged = lines.all; lines.lock.unlock()
        #expect(logged.count <= 6 && logged.first?.contains("at most 8 senders") == true, "\(logged)")
    }

    /// HTTP devices beyond `maxSources` get 503 and are counted; invented session ids do not
    /// grow the duplicate-message memory beyond its bound.
    @Test func httpDevicesBeyondTheCapAreRefused() throws {
        let path = TestData.tempDir() + "/d.motus"
        var cfg = RecordingSession.Configuration(path: path)
        cfg.maxSources = 2
        let s = try RecordingSession(configuration: cfg)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let h = try HTTPReceiver(configuration: .init(port: 0), session: s, group: group, log: quietLog)
        let now = Int64(wallClock() * 1000 - 1000) * 1_000_000
        var codes: [Int] = []
        for d in 0..<5 {
            let m = #"{"messageId":1,"sessionId":"S\#(d)","deviceId":"D\#(d)","payload":[{"name":"gyroscope","time":\#(now),"values":{"x":1,"y":2,"z":3}}]}"#
            codes.append(httpRequest(port: h.port, body: bytes(m))?.0 ?? 0)
        }
        #expect(codes == [200, 200, 503, 503, 503])
        let state = SensorLoggerState()
        for k in 0..<1000 { _ = state.firstTime(session: "invented-\(k)", id: 1) }
        #expect(state.seen.count == SensorLoggerState.sessions && state.lastUse.count == SensorLoggerState.sessions)
        #expect(state.firstTime(session: "invented-999", id: 2) && !state.firstTime(session: "invented-999", id: 2))
        h.close()
        try group.syncShutdownGracefully()
        let st = try s.finish()
        #expect(st.written == 2 && st.refusedPackets == 3 && st.refusedSources == 3, "\(st)")
    }

    func httpReceiver(_ configure: (inout HTTPReceiver.Configuration) -> Void) throws -> (RecordingSession, MultiThreadedEventLoopGroup, HTTPReceiver) {
        let s = try RecordingSession(configuration: .init(path: TestData.tempDir() + "/h.motus"))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var c = HTTPReceiver.Configuration(port: 0, token: "s3cret")
        configure(&c)
        return (s, group, try HTTPReceiver(configuration: c, session: s, group: group, log: quietLog))
    }

    /// The token, the method and the announced size are checked on the headers: the answer
    /// comes before a single body byte is sent, and the connection is closed.
    @Test func refusalsComeBeforeTheBody() throws {
        let (s, group, h) = try httpReceiver { _ in }
        let cases: [(String, Int)] = [
            ("POST /data HTTP/1.1\r\nHost: x\r\nContent-Length: 8388608\r\n\r\n", 401),
            ("POST /data?token=wrong HTTP/1.1\r\nHost: x\r\nContent-Length: 8388608\r\n\r\n", 401),
            ("POST /data HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\nContent-Length: 8388609\r\n\r\n", 413),
            ("PUT /data?token=s3cret HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n", 405),
        ]
        for (head, code) in cases {
            let c = RawConnection(port: h.port)
            #expect(c.connected && c.send(head))
            let (text, closed) = c.receive(for: 3)
            #expect(text.hasPrefix("HTTP/1.1 \(code) "), "\(text)")
            #expect(closed)
        }
        // A chunked body is counted as it arrives: past the cap, 413 and closed.
        let c = RawConnection(port: h.port)
        c.send("POST /data HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer s3cret\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = String(repeating: "a", count: 1 << 20)
        for _ in 0..<9 { if !c.send("100000\r\n" + chunk + "\r\n") { break } }
        let (text, closed) = c.receive(for: 3)
        #expect(text.hasPrefix("HTTP/1.1 413 "), "\(text.prefix(80))")
        #expect(closed)
        h.close()
        try group.syncShutdownGracefully()
        try s.finish()
    }

    /// A connection that does not finish its headers in time is closed; one that does is served.
    @Test func slowHeadersAreClosedAtTheDeadline() throws {
        let (s, group, h) = try httpReceiver { $0.headerTimeout = 0.5 }
        let slow = RawConnection(port: h.port)
        slow.send("POST /data HTTP/1.1\r\nHost: x\r\n")
        let t0 = monotonicClock()
        let (_, closed) = slow.receive(for: 5)
        let waited = monotonicClock() - t0
        #expect(closed && waited > 0.4 && waited < 2, "closed \(closed) after \(waited) s")
        #expect(h.connectionCounts.headerTimeouts == 1)
        #expect(httpRequest(port: h.port, path: "/?token=s3cret", body: bytes(SensorLoggerSample.message))?.0 == 200)
        h.close()
        try group.syncShutdownGracefully()
        try s.finish()
    }

    /// Beyond `maxConnections`: a newcomer evicts the oldest connection still without headers,
    /// so 20 slow clients do not lock out a real one; when every connection is inside a
    /// request, the newcomer is closed at once.
    @Test func theConnectionCapEvictsSlowClientsFirst() throws {
        let (s, group, h) = try httpReceiver { $0.maxConnections = 4; $0.headerTimeout = 30 }
        let slow = (0..<20).map { _ in RawConnection(port: h.port) }
        for c in slow { c.send("POST /data HTTP/1.1\r\n") }
        #expect(waitUntil(3) { h.connectionCounts.evicted == 16 })
        #expect(httpRequest(port: h.port, path: "/?token=s3cret", body: bytes(SensorLoggerSample.message))?.0 == 200)
        #expect(waitUntil(3) { h.connectionCounts.evicted == 17 && h.connectionCounts.open == 3 }, "\(h.connectionCounts)")
        // Four requests whose bodies have not come yet fill the server.
        let busy = (0..<4).map { _ in RawConnection(port: h.port) }
        for c in busy { c.send("POST /data?token=s3cret HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n") }
        #expect(waitUntil(3) { h.connectionCounts.evicted == 20 && h.connectionCounts.open == 4 }, "\(h.connectionCounts)")
        let late = RawConnection(port: h.port)
        let (text, closed) = late.receive(for: 3)
        #expect(text.isEmpty && closed)
        #expect(h.connectionCounts.refused == 1)
        h.close()
        try group.syncShutdownGracefully()
        try s.finish()
    }
}
