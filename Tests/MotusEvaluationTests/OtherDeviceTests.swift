import MotusTestSupport
import Testing
import MotusCore
import MotusIO
@testable import MotusFusion
@testable import MotusEvaluation

/// Real data from devices without a reference gravity: IPOL lower-back trials (XSens,
/// accelerometer + raw gyroscope, labelled still/walk/turn) and Oxford walks (phones,
/// accelerometer only, no labels).
@Suite struct OtherDeviceTests {
    @Test(.enabled(if: TestData.ipol != nil, "IPOL not found: ../shared/datasets or MOTUS_DATASETS absent, skipped"))
    func pipelineOnIPOLTrialUsesGyroscope() throws {
        let ds = try IPOLDataset(root: TestData.ipol!)
        var r = try ds.load("1-2")
        let acc = r.stream(.acceleration)!
        #expect(r.stream(.gravity) == nil && r.stream(.rotationRate) != nil)
        #expect(FusionPipeline.complete(&r) == .orientationFilter)
        let g = r.stream(.gravity)!, u = r.stream(.userAcceleration)!, att = r.stream(.attitude)!
        #expect(g.times == acc.times && u.times == acc.times && att.times == acc.times)
        for i in stride(from: 0, to: acc.count, by: 97) {
            #expect(((acc.vector(i) - g.vector(i)) - u.vector(i)).norm < 1e-9)
            // Gravity's delay compensation is exact to third order in the predicted rotation
            // (a few mrad), the attitude's exact: they agree to well under a microradian.
            #expect(abs(g.vector(i).norm - Units.standardGravity) < 1e-6)
            // The attitude maps gravity onto +z.
            #expect(att.quaternion(i).rotate(g.vector(i)).angle(to: Vector3(0, 0, 1)) < 1e-6)
        }
        // Lower back, standing: +x points roughly up, so gravity is mostly along +x.
        #expect(g.vector(100).x > 8)
        #expect(FusionPipeline.complete(&r) == .none)
    }

    @Test(.enabled(if: TestData.oxford != nil, "Oxford not found: ../shared/datasets or MOTUS_DATASETS absent, skipped"))
    func pipelineOnOxfordWalkUsesAccelerometerOnly() throws {
        let ds = try OxfordDataset(root: TestData.oxford!)
        var r = try ds.load(ds.entries[0].id)
        let acc = r.stream(.acceleration)!
        #expect(FusionPipeline.complete(&r) == .lowPass)
        let g = r.stream(.gravity)!, u = r.stream(.userAcceleration)!
        #expect(r.stream(.attitude) == nil)
        #expect(g.times == acc.times && u.times == acc.times)
        // Over the whole walk the user acceleration averages to nearly zero in the device frame.
        var m = Vector3.zero
        for i in 0..<u.count { m += u.vector(i) }
        #expect((m / Double(u.count)).norm < 1)
    }

    /// The check on other devices, with the documented thresholds.
    @Test(.enabled(if: TestData.ipol != nil, "IPOL not found: ../shared/datasets or MOTUS_DATASETS absent, skipped"))
    func ipolStillPhasesAndWalks() throws {
        let ds = try IPOLDataset(root: TestData.ipol!)
        let t = FusionEvaluation.CheckThresholds()
        var before: [Double] = [], after: [Double] = []
        for e in ds.entries {
            let c = try FusionEvaluation.checkStillAndWalk(try ds.load(e.id), name: e.id)
            #expect(c.stillSource == "labels" && c.method == .orientationFilter)
            #expect(c.failures(t).isEmpty, "\(e.id): \(c.failures(t))")
            #expect(c.walkEnd - c.walkStart > 10)
            for p in c.stillPhases { if p.start < c.walkStart { before.append(p.angleDegrees) } else { after.append(p.angleDegrees) } }
        }
        let b = FusionEvaluation.Summary(before), a = FusionEvaluation.Summary(after)
        print("IPOL still phases: before the walk median \(b.medianDegrees)°, after \(a.medianDegrees)°")
        #expect(before.count == ds.entries.count)
        #expect(b.medianDegrees < 1)
    }

    @Test(.enabled(if: TestData.oxford != nil, "Oxford not found: ../shared/datasets or MOTUS_DATASETS absent, skipped"))
    func oxfordWalksAverageToZero() throws {
        let ds = try OxfordDataset(root: TestData.oxford!)
        let t = FusionEvaluation.CheckThresholds()
        for e in ds.entries {
            let c = try FusionEvaluation.checkStillAndWalk(try ds.load(e.id), name: e.id)
            #expect(c.method == .lowPass && c.stillSource == "detector")
            #expect(c.walkEnd - c.walkStart > 60)  // from the first to the last foot-switch step
            #expect(c.failures(t).isEmpty, "\(e.id): \(c.failures(t))")
        }
    }

    /// The stillness detector against a naive windowed RMS.
    @Test func stillnessDetectorMatchesNaive() {
        var rng = SplitMix64(seed: 31)
        var s = SensorStream(kind: .acceleration)
        for i in 0..<1500 {
            let t = Double(i) * 0.01
            let moving = (t > 4 && t < 8) || (t > 11 && t < 11.3)
            s.append(time: t, Vector3(0.3, 0, 9.8) + rng.vector(moving ? 2 : 0.05))
        }
        let d = FusionEvaluation.StillnessDetector()
        let phases = d.phases(s)
        var naive = [Bool](repeating: false, count: s.count)
        for i in 0..<s.count {
            let idx = (0..<s.count).filter { s.times[$0] >= s.times[i] - 0.5 && s.times[$0] <= s.times[i] + 0.5 }
            var m = Vector3.zero
            for j in idx { m += s.vector(j) }
            m = m / Double(idx.count)
            var v = 0.0
            for j in idx { v += (s.vector(j) - m).squaredNorm }
            naive[i] = (v / Double(idx.count)).squareRoot() < d.threshold
        }
        for p in phases { for i in p { #expect(naive[i]) } }
        #expect(phases.count == 3)  // before 4 s, 8–11 s, after 11.3 s
        #expect(phases.allSatisfy { s.times[$0.upperBound - 1] - s.times[$0.lowerBound] >= 1 })
    }
}
