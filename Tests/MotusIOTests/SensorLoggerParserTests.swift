import Testing
import MotusTestSupport
import MotusCore
@testable import MotusIO

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

func samples(_ b: SampleBatch, _ kind: StreamKind) -> [(Double, [Double])] {
    (0..<b.count).filter { b.kinds[$0] == kind }.map { (b.times[$0], Array(b.values(of: $0))) }
}

@Suite struct SensorLoggerTests {
    static let example = SensorLoggerSample.message

    @Test func exampleMessage() {
        var b = SampleBatch()
        let (o, env) = SensorLoggerParser.parse(bytes(Self.example), into: &b)
        #expect(o.samples == 6 && o.malformed == 0 && o.ignored == 1)
        #expect(env.messageId == 12 && env.deviceId == "7d1c0bff-f830-4dc9-a431-26873453ebb1")
        // Sorted by time: the barometer reading (earliest) first, accelerometer before gyroscope.
        #expect(b.kinds == [.pressure, .userAcceleration, .rotationRate, .attitude, .location, .stepCounter])
        #expect(b.times[1] == 1700000000 + 0.123456768)
        #expect(samples(b, .pressure)[0].1 == [99428.662109375])
        let loc = samples(b, .location)[0].1
        #expect(loc[3].isNaN && loc[4] == 87.5)   // negative speed = invalid
        #expect(samples(b, .attitude)[0].1[0] > 0.8)
    }

    @Test func coreMotionSignNegatesAccelerationOnly() {
        var b = SampleBatch()
        let body = #"[{"name":"gravity","time":1,"values":{"x":"0.1","y":"0.2","z":"-9.8"}},{"name":"gyroscope","time":2,"values":{"x":1,"y":2,"z":3}}]"#
        let (o, _) = SensorLoggerParser.parse(bytes(body), coreMotionSign: true, into: &b)
        #expect(o.samples == 2)
        #expect(samples(b, .gravity)[0].1 == [-0.1, -0.2, 9.8])
        #expect(samples(b, .rotationRate)[0].1 == [1, 2, 3])
    }

    @Test func malformed() {
        var b = SampleBatch()
        #expect(SensorLoggerParser.parse(bytes("{not json"), into: &b).0.malformed == 1)
        #expect(SensorLoggerParser.parse(bytes(#"{"payload":3}"#), into: &b).0.malformed == 1)
        let (o, _) = SensorLoggerParser.parse(bytes(#"{"payload":[{"name":"accelerometer","time":"soon","values":{"x":1,"y":2,"z":3}},{"name":"gyroscope","time":5,"values":{"x":1,"y":2}},{"name":"gyroscope","time":5,"values":{"x":1,"y":2,"z":3}}]}"#), into: &b)
        #expect(o.samples == 1 && o.malformed == 2)
    }
}
