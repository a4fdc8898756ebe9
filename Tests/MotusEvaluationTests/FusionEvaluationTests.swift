import MotusTestSupport
import Testing
import MotusCore
@testable import MotusFusion
@testable import MotusEvaluation

@Suite struct EvaluationTests {
    @Test func percentileMatchesNaiveLinearInterpolation() {
        var rng = SplitMix64(seed: 11)
        let v = (0..<101).map { _ in rng.uniform() * 10 }
        let s = v.sorted()
        #expect(FusionEvaluation.percentile(sorted: s, 50) == s[50])
        #expect(abs(FusionEvaluation.percentile(sorted: s, 95) - s[95]) < 1e-12)
        let four = [1.0, 2, 3, 4]
        #expect(abs(FusionEvaluation.percentile(sorted: four, 50) - 2.5) < 1e-12)   // numpy: 2.5
        #expect(abs(FusionEvaluation.percentile(sorted: four, 95) - 3.85) < 1e-12)  // numpy: 3.85
        #expect(FusionEvaluation.percentile(sorted: [], 50).isNaN)
    }

    @Test func angleErrorsSkipTheStart() {
        let times = (0..<10).map { Double($0) * 0.5 }
        let ref: [Double] = Array(repeating: [0.0, 0, 1], count: 10).flatMap { $0 }
        let tilt = 10 * Math.radiansPerDegree
        let one: [Double] = [Math.sin(tilt) * 9.8, 0, Math.cos(tilt) * 9.8]
        let est: [Double] = Array(repeating: one, count: 10).flatMap { $0 }
        let e = FusionEvaluation.angleErrors(times: times, estimate: est, reference: ref, skipSeconds: 2)
        #expect(e.count == 6)  // t = 2.0 … 4.5
        for x in e { #expect(abs(x - 10) < 1e-9) }
    }

    @Test func aggregatePoolsSamples() {
        let a = FusionEvaluation.RecordingResult(name: "wlk_1/sub_1", activity: "wlk", subject: 1, errorsDegrees: [1, 2, 3])
        let b = FusionEvaluation.RecordingResult(name: "sit_1/sub_2", activity: "sit", subject: 2, errorsDegrees: [10])
        let c = FusionEvaluation.RecordingResult(name: "wlk_1/sub_2", activity: "wlk", subject: 2, errorsDegrees: [4])
        let r = FusionEvaluation.aggregate([a, b, c])
        #expect(r.activities.map(\.activity) == ["wlk", "sit"])
        #expect(r.activities[0].summary.count == 4 && r.activities[0].summary.medianDegrees == 2.5)
        #expect(r.overall.count == 5 && r.overall.medianDegrees == 3 && r.overall.meanDegrees == 4)
    }

    @Test func stillPhaseAndZeroMeanChecks() {
        // Still phase: acceleration = gravity + noise; a 3° wrong estimate shows as 3°.
        var rng = SplitMix64(seed: 12)
        let n = 300
        var acc = [Double](), grav = [Double](), att = [Double]()
        let off = 3 * Math.radiansPerDegree
        for _ in 0..<n {
            let a = Vector3(0, 0, 9.80665) + rng.vector(0.05)
            acc += [a.x, a.y, a.z]
            grav += [Math.sin(off) * 9.80665, 0, Math.cos(off) * 9.80665]
            att += [1, 0, 0, 0]
        }
        let angles = FusionEvaluation.stillPhaseAngles(acceleration: acc, gravity: grav, phases: [0..<100, 100..<n, 5..<5])
        #expect(abs(angles[0] - 3) < 0.1 && abs(angles[1] - 3) < 0.1 && angles[2].isNaN)
        // Vertical user acceleration: a(t) = g + 2 sin(ωt) over whole periods averages to 0.
        var acc2 = [Double](), grav2 = [Double]()
        for i in 0..<n {
            let s = 2 * Math.sin(2 * Double.pi * Double(i) / 50)
            acc2 += [0, 0, 9.80665 + s]; grav2 += [0, 0, 9.80665]
        }
        #expect(abs(FusionEvaluation.meanVerticalUserAcceleration(acceleration: acc2, gravity: grav2, range: 0..<n)) < 1e-12)
        let m = FusionEvaluation.meanUserAccelerationInReference(acceleration: acc2, gravity: grav2, attitude: att, range: 0..<n)
        #expect(m.norm < 1e-12)
    }

    @Test func nearestIndexMatchesNaiveSearch() {
        var rng = SplitMix64(seed: 13)
        var t = 0.0
        let gyro = (0..<500).map { _ in t += 0.005 + rng.uniform() * 0.01; return t }
        var j = 0
        var q = -0.1
        while q < t + 0.1 {
            j = FusionPipeline.nearestIndex(gyro, q, from: j)
            let naive = gyro.indices.min { abs(gyro[$0] - q) < abs(gyro[$1] - q) }!
            #expect(abs(gyro[j] - q) == abs(gyro[naive] - q))
            q += 0.0037
        }
    }

    @Test func pipelineCompletesRecording() {
        var rng = SplitMix64(seed: 14)
        var acc = SensorStream(kind: .acceleration), gyro = SensorStream(kind: .rotationRate)
        let truth = Quaternion(axis: Vector3(1, 0, 0), angle: 0.3)
        for i in 0..<500 { acc.append(time: Double(i) * 0.01, truth.inverseRotate(Vector3(0, 0, 9.80665)) + rng.vector(0.02)) }
        for i in 0..<260 { gyro.append(time: 0.001 + Double(i) * 0.0192, rng.vector(0.001)) }
        var r = Recording(streams: [acc, gyro])
        #expect(FusionPipeline.complete(&r, settings: .biasCorrectedGyroscope) == .orientationFilter)
        let g = r.stream(.gravity)!, u = r.stream(.userAcceleration)!, att = r.stream(.attitude)!
        #expect(g.times == acc.times && u.times == acc.times && att.times == acc.times)
        for i in 0..<acc.count {
            #expect(((acc.vector(i) - g.vector(i)) - u.vector(i)).norm < 1e-9)
        }
        #expect(g.vector(499).angle(to: truth.inverseRotate(Vector3(0, 0, 1))) * Math.degreesPerRadian < 0.5)
        #expect(FusionPipeline.complete(&r) == .none)  // nothing missing any more

        var r2 = Recording(streams: [acc])
        #expect(FusionPipeline.complete(&r2) == .lowPass)
        #expect(r2.stream(.gravity) != nil && r2.stream(.userAcceleration) != nil && r2.stream(.attitude) == nil)
        var empty = Recording()
        #expect(FusionPipeline.complete(&empty) == .none)
    }
}
