import Foundation
import Testing
import MotusCore
import MotusSignal
import MotusIO
@testable import MotusEvaluation

/// `EvaluationRecording.resampledAsDevice`: the device's streams and the truth on one grid.
@Suite struct EvaluationRateTests {
    /// 20 s at 200 Hz of a device turning about x (acceleration, gyroscope) with a measured
    /// orientation that misses 0.3 s from 8 s on (the markers hidden), movement from 2 to 18 s.
    static func turning() -> EvaluationRecording {
        var acc = SensorStream(kind: .acceleration), gyro = SensorStream(kind: .rotationRate)
        var ref = SensorStream(kind: .attitude, name: "reference_attitude")
        for i in 0..<4000 {
            let t = 5.0 + Double(i) / 200
            let angle = 0.4 * sin(2 * .pi * 0.5 * (t - 5)), rate = 0.4 * 2 * .pi * 0.5 * cos(2 * .pi * 0.5 * (t - 5))
            // The device turned by `angle` about x: gravity (up) seen in the device frame.
            acc.append(time: t, Vector3(0, 9.80665 * sin(angle), 9.80665 * cos(angle)))
            gyro.append(time: t, Vector3(rate, 0, 0))
            if !(t >= 13 && t < 13.3) { ref.append(time: t, Quaternion(axis: Vector3(1, 0, 0), angle: angle)) }
        }
        let r = Recording(streams: [acc, gyro, ref], labels: [LabelSegment(start: 7, end: 23, label: "movement")])
        return EvaluationRecording(entry: DatasetEntry(id: "turning", subject: nil, label: nil, path: "turning"), loaded: r)
    }

    @Test func deviceAndReferenceShareTheNewGridAndHolesStay() throws {
        let e = Self.turning()
        guard case .measured(let before, _) = e.truth.orientation else { Issue.record("no measured reference"); return }
        let r = e.resampledAsDevice(rateHz: 50)
        let acc = try #require(r.recording.stream(.acceleration)), gyro = try #require(r.recording.stream(.rotationRate))
        #expect(acc.times == gyro.times && acc.count == 1000 && acc.times.first == 5)
        guard case .measured(let ref, let scored) = r.truth.orientation else { Issue.record("no measured reference"); return }
        #expect(scored == [LabelSegment(start: 7, end: 23, label: "movement")])
        // Every reference time is a device time; none inside the hole (13 to 13.3 s).
        let times = Set(acc.times)
        #expect(ref.times.allSatisfy { times.contains($0) })
        let lastBefore = try #require(before.times.last { $0 < 13 })
        #expect(!ref.times.contains { $0 > lastBefore && $0 < 13.3 })
        #expect(ref.count < acc.count && ref.count > acc.count - 20)
        // The fusion evaluation runs on it (timestamps line up) and the filter follows the turn.
        let result = try #require(try FusionEvaluation.evaluate(r))
        #expect(result.errorsDegrees.count == ref.times.filter { $0 >= 7 && $0 < 23 }.count)   // labels are [start, end)
        #expect(FusionEvaluation.aggregate([result]).overall.medianDegrees < 2)
    }

    @Test func aDeviceGravityReferenceIsSampledAsTheDeviceWould() throws {
        // A device's own gravity (CoreMotion's) is sampled on the device's grid, unfiltered.
        var acc = SensorStream(kind: .acceleration), grav = SensorStream(kind: .gravity)
        for i in 0..<1000 {
            let t = Double(i) / 100
            acc.append(time: t, Vector3(sin(2 * .pi * 8 * t), 0, 9.81))
            grav.append(time: t, Vector3(sin(2 * .pi * 8 * t), 0, 9.81))   // a fast wobble the filter would remove
        }
        let e = EvaluationRecording(entry: DatasetEntry(id: "g", subject: nil, label: nil, path: "g"),
                                    loaded: Recording(streams: [acc, grav]))
        let r = e.resampledAsDevice(rateHz: 25)
        guard case .deviceGravity(let g, _) = r.truth.orientation else { Issue.record("no device gravity"); return }
        let a = try #require(r.recording.stream(.acceleration))
        #expect(g.times == a.times)
        // Not filtered: the wobble is still there, sampled (8 Hz read at 25 Hz).
        #expect(g.values.enumerated().filter { $0.offset % 3 == 0 }.map { Swift.abs($0.element) }.max()! > 0.9)
        // The device's accelerometer was filtered (0.4 × 25 = 10 Hz cut-off, 8 Hz attenuated).
        #expect(a.values.enumerated().filter { $0.offset % 3 == 0 }.map { Swift.abs($0.element) }.max()! < 0.9)
    }
}
