import Testing
import MotusCore
import MotusFusion
import MotusEvaluation

/// The quality bars on real data: gravity against CoreMotion's own estimate on all
/// MotionSense subjects, first 2 s of each recording skipped, samples pooled.
@Suite struct MotionSenseQualityTests {
    @Test(.enabled(if: TestData.motionSense != nil, "MotionSense not found: ../shared/datasets or MOTUS_DATASETS absent, skipped"))
    func qualityBarsAgainstCoreMotion() throws {
        let files = try TestData.allMotionSense()
        #expect(files.count == 192)
        var results: [FusionEvaluation.RecordingResult] = []
        var lowPass: [FusionEvaluation.RecordingResult] = []
        for f in files {
            let e = FusionEvaluation.errors(times: f.times, acceleration: f.acceleration, rotationRate: f.rotationRate,
                                            referenceGravity: f.referenceGravity, method: .attitudeFilter(.biasCorrectedGyroscope))
            results.append(.init(name: f.name, activity: f.activity, subject: f.subject, errorsDegrees: e))
            if f.subject % 4 == 0 {
                let l = FusionEvaluation.errors(times: f.times, acceleration: f.acceleration, rotationRate: [],
                                                referenceGravity: f.referenceGravity, method: .lowPass(.default))
                lowPass.append(.init(name: f.name, activity: f.activity, subject: f.subject, errorsDegrees: l))
            }
        }
        let all = FusionEvaluation.aggregate(results).overall
        let even = FusionEvaluation.aggregate(results.filter { $0.subject % 2 == 0 }).overall
        print("MotionSense vs CoreMotion: all \(all.medianDegrees)° / \(all.p95Degrees)°, even \(even.medianDegrees)° / \(even.p95Degrees)°")
        #expect(all.medianDegrees <= 2.0)
        #expect(all.p95Degrees <= 15)
        // No worse than tuned VQF (2.04° / 14.3°) on the subjects the settings were not tuned on.
        #expect(even.medianDegrees <= 2.04)
        #expect(even.p95Degrees <= 14.3)
        // The accelerometer-only fallback is much worse, as it must be, yet sane.
        let lp = FusionEvaluation.aggregate(lowPass).overall
        #expect(lp.medianDegrees > all.medianDegrees && lp.medianDegrees < 10)
    }

    @Test(.enabled(if: TestData.motionSense != nil, "MotionSense not found: ../shared/datasets or MOTUS_DATASETS absent, skipped"))
    func stillRecordingConvergesFromWrongAttitude() throws {
        guard let base = TestData.motionSense else { return }
        let f = try TestData.readMotionSense(base + "/std_14/sub_5.csv", name: "std_14/sub_5", activity: "std", subject: 5)
        // Start the filter upside down; after 2 s it must agree with CoreMotion within 2°.
        var filter = AttitudeFilter(settings: .biasCorrectedGyroscope, initialAttitude: Quaternion(axis: Vector3(1, 0, 0), angle: 3.0))
        var worstAfter2s = 0.0
        for i in 0..<f.times.count {
            let b = 3 * i
            filter.update(acceleration: Vector3(f.acceleration[b], f.acceleration[b + 1], f.acceleration[b + 2]),
                          rotationRate: Vector3(f.rotationRate[b], f.rotationRate[b + 1], f.rotationRate[b + 2]),
                          dt: i == 0 ? 0 : 0.02)
            if f.times[i] >= 2 && f.times[i] < 20 {
                let r = Vector3(f.referenceGravity[b], f.referenceGravity[b + 1], f.referenceGravity[b + 2])
                worstAfter2s = max(worstAfter2s, filter.gravity.angle(to: r) * Math.degreesPerRadian)
            }
        }
        #expect(worstAfter2s < 2, "worst error 2–20 s: \(worstAfter2s)°")
    }
}
