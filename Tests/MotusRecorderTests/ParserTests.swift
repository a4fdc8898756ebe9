import Foundation
import Testing
import MotusCore
import MotusIO
@testable import MotusRecorder

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func json(_ s: String) throws -> ReaderJSON { try ReaderJSON.parse(bytes(s), file: "<test>") }

func samples(_ b: SampleBatch, _ kind: StreamKind) -> [(Double, [Double])] {
    (0..<b.count).filter { b.kinds[$0] == kind }.map { (b.times[$0], Array(b.values(of: $0))) }
}

@Suite struct HyperIMUTests {
    @Test func csvWithTimestampCRLF() {
        var p = HyperIMUParser(sensors: [.acceleration, .rotationRate])
        var b = SampleBatch()
        let o = p.parse(bytes("1700000000123,0.0123,9.7712,0.8123,0.0011,-0.0023,4.0E-4\r\n"), receivedAt: 5, into: &b)
        #expect(o == ParseOutcome(samples: 2))
        let acc = samples(b, .acceleration), gyro = samples(b, .rotationRate)
        #expect(acc.count == 1 && gyro.count == 1)
        #expect(acc[0].0 == 1700000000.123)
        #expect(acc[0].1 == [0.0123, 9.7712, 0.8123])
        #expect(gyro[0].1 == [0.0011, -0.0023, 4.0e-4])
    }

    @Test func hashTerminatedNoTimestampUsesReceiveTime() {
        var p = HyperIMUParser(sensors: [.acceleration, .gravity, .magneticField])
        var b = SampleBatch()
        let o = p.parse(bytes("0.123,0.586,0.2637,0.259,-0.5963,9.815,5.36,0.0,0.0#0.121,0.588,0.2641,0.251,-0.5971,9.811,5.35,0.0,0.0#"), receivedAt: 42.5, into: &b)
        #expect(o.samples == 6 && o.malformed == 0)
        #expect(samples(b, .gravity).map(\.0) == [42.5, 42.5])
        #expect(samples(b, .magneticField)[1].1 == [5.35, 0, 0])
    }

    @Test func headerLineFixesLayoutAndMACIsSkipped() {
        var p = HyperIMUParser()
        var b = SampleBatch()
        #expect(p.parse(bytes("timestamp,MPL_Gyroscope.x,MPL_Gyroscope.y,MPL_Gyroscope.z,MPL_Accelerometer.x,MPL_Accelerometer.y,MPL_Accelerometer.z,MPL_Orientation.x,MPL_Orientation.y,MPL_Orientation.z\r\n"), receivedAt: 0, into: &b) == ParseOutcome())
        #expect(p.learnedHeader)
        let o = p.parse(bytes("1510411143791,AA:BB:CC:DD:EE:FF,0.1,0.2,0.3,1,2,9.8,129.7,-0.19,0.019\r\n"), receivedAt: 0, into: &b)
        #expect(o.samples == 2)
        #expect(samples(b, .rotationRate)[0].1 == [0.1, 0.2, 0.3])
        #expect(samples(b, .acceleration)[0].1 == [1, 2, 9.8])
        #expect(samples(b, .acceleration)[0].0 == 1510411143.791)
    }

    @Test func gpsTripleAfterConfiguredSensorsAndNMEAIgnored() {
        var p = HyperIMUParser(sensors: [.acceleration])
        var b = SampleBatch()
        let o = p.parse(bytes("1700000000000,0.1,0.2,9.8,52.52,13.40,34.0,$GPGGA;123519;4807.038\r\n"), receivedAt: 0, into: &b)
        #expect(o.samples == 2)
        let loc = samples(b, .location)
        #expect(loc.count == 1 && loc[0].1[0] == 52.52 && loc[0].1[2] == 34 && loc[0].1[3].isNaN)
    }

    @Test func malformedPacketsAreCountedNotFatal() {
        var p = HyperIMUParser(sensors: [.acceleration])
        var b = SampleBatch()
        #expect(p.parse(bytes("1700000000000,0.1,abc,9.8\r\n"), receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse(bytes("0.1,0.2\r\n"), receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse(bytes("12,0.1,0.2,9.8\r\n"), receivedAt: 0, into: &b).malformed == 1)   // 12 is no epoch ms
        #expect(p.parse(bytes("1700000000000,0.1,,9.8\r\n"), receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse(bytes("1700000000000,0.1,nan,9.8\r\n"), receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse(bytes("{\"op\":\"hyperimu\",\"Timestamp\":17"), receivedAt: 0, into: &b).malformed == 1)
        #expect(b.isEmpty)
        // A good line after bad ones still parses; in one datagram the bad line is counted alone.
        let o = p.parse(bytes("garbage,1,2\r\n1700000000000,0.1,0.2,9.8\r\n"), receivedAt: 0, into: &b)
        #expect(o.samples == 1 && o.malformed == 1)
    }

    @Test func jsonObjectsBackToBack() {
        var p = HyperIMUParser()
        var b = SampleBatch()
        let text = #"{"op":"hyperimu","Timestamp":1700000000123,"LSM6DSO Accelerometer":[0.0123,9.7712,0.8123],"LSM6DSO Gyroscope":[0.0011,-0.0023,0.0004]}{"op":"hyperimu","Timestamp":1700000000143,"LSM6DSO Accelerometer":[0.0131,9.7702,0.8119],"LSM6DSO Gyroscope":[0.0012,-0.0021,0.0003]}"#
        let o = p.parse(bytes(text), receivedAt: 0, into: &b)
        #expect(o.samples == 4 && o.malformed == 0)
        #expect(samples(b, .acceleration).map(\.0) == [1700000000.123, 1700000000.143])
        #expect(samples(b, .rotationRate)[1].1 == [0.0012, -0.0021, 0.0003])
    }

    /// Every line of the real HyperIMU files, sent as one datagram each, parses with the layout
    /// from its header and gives the file's numbers.
    @Test(.enabled(if: TestData.shared != nil, "needs ../shared/datasets")) func realFilesAsPackets() throws {
        for name in ["HIMU-new_with_timestamp.csv", "HIMU-new_without_timestamp.csv", "short_y_impulse.csv"] {
            let path = TestData.shared! + "/apps/hyperimu/" + name
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            var p = HyperIMUParser()
            var b = SampleBatch()
            var rows = 0, malformed = 0
            for l in lines {
                let o = p.parse(bytes(String(l) + "\r\n"), receivedAt: 99, into: &b)
                malformed += o.malformed
                if o.samples > 0 { rows += 1 }
            }
            #expect(malformed == 0, "\(name)")
            #expect(p.learnedHeader)
            let dataLines = lines.filter { l in l.first.map { $0 == "-" || $0.isNumber } ?? false }
            #expect(rows == dataLines.count, "\(name)")
            // The first data row's accelerometer group, checked against the text.
            let header = lines.first { $0.hasPrefix("timestamp") || $0.hasPrefix("MPL") }!.split(separator: ",").map(String.init)
            let first = dataLines[0].split(separator: ",").map { Double($0)! }
            let ax = header.firstIndex(of: "MPL_Accelerometer.x")!
            let acc = samples(b, .acceleration)[0]
            #expect(acc.1 == [first[ax], first[ax + 1], first[ax + 2]])
            if header[0] == "timestamp" { #expect(acc.0 == first[0] / 1000) } else { #expect(acc.0 == 99) }
        }
    }
}

@Suite struct SensorStreamTests {
    @Test func minimalPacket() {
        var p = SensorStreamParser()
        var b = SampleBatch()
        let o = p.parse(bytes("86412.34567, 3, 0.123,-0.046,9.801, 4, 0.001,-0.002,0.000, 5, 21.375,-4.125,-40.500"), into: &b)
        #expect(o == ParseOutcome(samples: 3))
        #expect(samples(b, .acceleration)[0].0 == 86412.34567)
        #expect(samples(b, .acceleration)[0].1 == [0.123, -0.046, 9.801])
        #expect(samples(b, .magneticField)[0].1 == [21.375, -4.125, -40.5])
    }

    @Test func everythingEnabledAndGPSDeduplicated() {
        let text = "86412.34567, 1,  52.520008,  13.404954,  34.0, 3, 0.123,-0.046,9.801, 4, 0.001,-0.002,0.000, 5, 21.375,-4.125,-40.500, 6,  3783265.217,  901646.595, 5038246.623, 7,  0.000, 0.000, 0.000, 8, 1700000000000, 81, 123.456,-1.234,0.567, 82, 0.012,-0.034,0.005, 83, 0.111,-0.045,9.806, 84, 0.010,-0.005,0.500, 85,0.500,-0.866,0.010,0.866,0.500,-0.020,0.000,0.020,1.000, 86,0.866,0.010,-0.005,0.500, 87, 1013.250, 88, 31"
        var p = SensorStreamParser()
        var b = SampleBatch()
        let o = p.parse(bytes(text), into: &b)
        #expect(o.malformed == 0 && o.warning == nil)
        #expect(Set(b.kinds) == [.location, .acceleration, .rotationRate, .magneticField, .userAcceleration, .gravity, .attitude, .pressure])
        #expect(samples(b, .pressure)[0].1 == [101325.0])
        #expect(samples(b, .location)[0].1[0] == 52.520008)
        let q = samples(b, .attitude)[0].1
        #expect(abs(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3] - 1) < 1e-12)
        // The same fix repeated in the next packet is not a new location sample.
        var b2 = SampleBatch()
        _ = p.parse(bytes(text.replacingOccurrences(of: "86412.34567", with: "86412.36567")), into: &b2)
        #expect(samples(b2, .location).isEmpty && samples(b2, .acceleration).count == 1)
    }

    @Test func olderNumberingRecognised() {
        var p = SensorStreamParser()
        var b = SampleBatch()
        let o = p.parse(bytes("10.00000, 3, 0.1,0.2,9.8, 85, 1013.250, 86, 31"), into: &b)
        #expect(o.samples == 2 && o.malformed == 0)
        #expect(samples(b, .pressure)[0].1 == [101325.0])
    }

    @Test func malformedAndPartial() {
        var p = SensorStreamParser()
        var b = SampleBatch()
        #expect(p.parse(bytes("abc, 3, 0.1,0.2,9.8"), into: &b).malformed == 1)
        #expect(p.parse(bytes("10.0, 3, 0.1,0.2"), into: &b).malformed == 1)
        #expect(p.parse(bytes("10.0, 3, 0.1,x,9.8"), into: &b).malformed == 1)
        #expect(p.parse(bytes(""), into: &b).malformed == 1)
        #expect(b.isEmpty)
        // An unknown id keeps what came before it, with a warning.
        let o = p.parse(bytes("10.0, 3, 0.1,0.2,9.8, 99, 1, 2"), into: &b)
        #expect(o.samples == 1 && o.malformed == 0 && o.warning != nil)
    }
}

@Suite struct LineParserTests {
    @Test func csvWithHeaderAndFlags() {
        var o = DelimitedOptions()
        o.timeColumn = .name("ts"); o.timeUnit = .milliseconds
        o.accelColumns = [.name("x"), .name("y"), .name("z")]; o.accelUnit = .g
        var p = CSVLineParser(options: o)
        var b = SampleBatch()
        #expect(p.parse("ts,x,y,z", receivedAt: 0, into: &b) == ParseOutcome())
        #expect(p.parse("1000,0,0,1", receivedAt: 0, into: &b).samples == 1)
        #expect(p.parse("1010,0,x,1", receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse("1020,0", receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse("# comment", receivedAt: 0, into: &b) == ParseOutcome())
        #expect(p.parse("1030,0,0,-1", receivedAt: 0, into: &b).samples == 1)
        #expect(samples(b, .acceleration).map(\.0) == [1.0, 1.03])
        #expect(samples(b, .acceleration)[0].1 == [0, 0, 9.80665])
    }

    @Test func csvKnownHeaderAndReceiveTime() {
        var p = CSVLineParser()
        var b = SampleBatch()
        _ = p.parse("acc_x,acc_y,acc_z,gyro_x,gyro_y,gyro_z", receivedAt: 0, into: &b)
        #expect(p.streamKinds == [.acceleration, .rotationRate])
        #expect(p.parse("1,2,3,4,5,6", receivedAt: 77, into: &b).samples == 2)
        #expect(b.times == [77, 77])
    }

    @Test func csvUnknownHeaderIsReported() {
        var p = CSVLineParser()
        var b = SampleBatch()
        let o = p.parse("foo,bar", receivedAt: 0, into: &b)
        #expect(o.malformed == 1 && o.warning!.contains("expected columns Motus knows"))
    }

    @Test func jsonLines() {
        let p = JSONLinesParser()
        var b = SampleBatch()
        #expect(p.parse(#"{"t":1.5,"acc":[0.1,0.2,9.8],"gyro":[0,0,0.1]}"#, receivedAt: 0, into: &b).samples == 2)
        #expect(p.parse(#"{"acc":[1,2,3]}"#, receivedAt: 9, into: &b).samples == 1)
        #expect(p.parse(#"{"name":"gyroscope","time":2000000000,"values":{"x":1,"y":2,"z":3}}"#, receivedAt: 0, into: &b).samples == 1)
        #expect(p.parse(#"{"t":1,"acc":[1,2]}"#, receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse(#"{"t":1,"loc":[52,13,null,null,null,null,null]}"#, receivedAt: 0, into: &b).samples == 1)
        #expect(p.parse(#"{"t":1,"acc":[1,2,null]}"#, receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse("[1,2]", receivedAt: 0, into: &b).malformed == 1)
        #expect(p.parse("{oops", receivedAt: 0, into: &b).malformed == 1)
        #expect(samples(b, .acceleration).map(\.0) == [1.5, 9])
        #expect(samples(b, .rotationRate).map(\.0) == [1.5, 2])
    }

    @Test func boundedLineSplitterDropsOverlongLines() {
        var s = BoundedLineSplitter(maxLineBytes: 8)
        var lines: [String] = []
        var overlong = 0
        let input = bytes("short\nthis line is far too long\nok\nlast")
        input.withUnsafeBufferPointer { p in
            s.feed(UnsafeBufferPointer(rebasing: p[0..<10]), { lines.append(String(decoding: $0, as: UTF8.self)) }, overlong: { overlong += 1 })
            s.feed(UnsafeBufferPointer(rebasing: p[10...]), { lines.append(String(decoding: $0, as: UTF8.self)) }, overlong: { overlong += 1 })
        }
        s.finish { lines.append(String(decoding: $0, as: UTF8.self)) }
        #expect(lines == ["short", "ok", "last"])
        #expect(overlong == 1)
    }
}

@Suite struct PhyphoxProtocolTests {
    @Test func firstFullThenPartial() throws {
        var p = PhyphoxProtocol(channels: [PhyphoxProtocol.standardChannels[0]])
        #expect(p.query() == "/get?acc_time=full&accX=full&accY=full&accZ=full")
        let answer = try json(#"""
        {"buffer":{
        "acc_time":{"size":0,"updateMode":"full", "buffer":[1.235062E1,1.236064E1,null]},
        "accX":{"size":0,"updateMode":"full", "buffer":[1.2E-2,1.31E-2,null]},
        "accY":{"size":0,"updateMode":"full", "buffer":[9.7712E0,9.7702E0,null]},
        "accZ":{"size":0,"updateMode":"full", "buffer":[8.123E-1,8.119E-1,null]}
        },
        "status":{"session":"3f2a1c", "measuring":true, "timedRun":false, "countDown":0}}
        """#)
        var b = SampleBatch()
        let o = p.apply(answer, into: &b)
        #expect(o.samples == 2 && o.ignored == 1)
        #expect(b.times == [12.35062, 12.36064])
        #expect(Array(b.values(of: 1)) == [0.0131, 9.7702, 0.8119])
        #expect(p.query() == "/get?acc_time=12.36064&accX=12.36064%7Cacc_time&accY=12.36064%7Cacc_time&accZ=12.36064%7Cacc_time")
        // The same values again are not recorded twice; a new session starts over.
        var b2 = SampleBatch()
        #expect(p.apply(answer, into: &b2).samples == 0)
        let other = try json(#"{"buffer":{},"status":{"session":"new"}}"#)
        _ = p.apply(other, into: &b2)
        #expect(p.query().contains("=full"))
    }

    @Test func configDiscovery() throws {
        let cfg = try json(#"""
        {"crc32":"1","title":"Acceleration without g","buffers":[],
         "inputs":[{"source":"linear_acceleration","outputs":[{"x":"accX"},{"y":"accY"},{"z":"accZ"},{"t":"acc_time"},{"abs":"acc"}]},
                   {"source":"pressure","outputs":[{"component":"x","buffer":"pressure"},{"component":"t","buffer":"p_time"}]},
                   {"source":"audio","outputs":[{"out":"rec"}]}]}
        """#)
        let c = PhyphoxProtocol.channels(config: cfg)
        #expect(c == [PhyphoxChannel(kind: .userAcceleration, time: "acc_time", components: ["accX", "accY", "accZ"]),
                      PhyphoxChannel(kind: .pressure, time: "p_time", components: ["pressure"], scale: 100)])
    }

    @Test func malformedAnswer() throws {
        var p = PhyphoxProtocol(channels: PhyphoxProtocol.standardChannels)
        var b = SampleBatch()
        #expect(p.apply(try json(#"{"status":{}}"#), into: &b).malformed == 1)
        #expect(p.apply(try json(#"{"buffer":{"acc_time":{"buffer":[1,2]}}}"#), into: &b).malformed == 1)
        #expect(b.isEmpty)
    }
}

@Suite struct KeyTests {
    @Test func labelKeysToggleAndPause() throws {
        let b = KeyBindings(labels: try KeyBindings.parseLabels("w=walking,r=running"), eventKey: UInt8(ascii: "m"), pauseKey: UInt8(ascii: "p"))
        var k = KeyLabeller(bindings: b)
        let presses = "wrrxmpp".utf8.map { k.press($0) }
        #expect(presses == [.label("walking"), .label("running"), .label(nil), .none, .event, .pause(true), .pause(false)])
        #expect(throws: KeyError.self) { try KeyBindings.parseLabels("ww=walking") }
        #expect(throws: KeyError.self) { try KeyBindings.parseLabels("w=a,w=b") }
    }

    @Test func statusLine() {
        var s = RecordingSession.Stats()
        s.streams = [RecordingSession.StreamStats(name: "acc", kind: .acceleration, source: 1, samples: 600, lastTime: 3)]
        s.dropped = 1; s.late = 2; s.malformed = 3; s.label = "walking"; s.duration = 65
        var prev = s
        prev.streams[0].samples = 400
        #expect(StatusLine.format(s, previous: prev, interval: 2) == "01:05 | acc 100 Hz 600 | dropped 1 late 2 bad-time 0 malformed 3 | label walking")
    }
}
