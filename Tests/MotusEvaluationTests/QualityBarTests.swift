import Testing
import MotusCore
import MotusIO
import MotusClassifier
import MotusTracking
import MotusFusion
@testable import MotusEvaluation

/// The quality bars on the real data in ../shared/datasets, through the one evaluation loop
/// (skipped, with a message, when the data are absent).
private let shared = DatasetLocator.sharedDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath))

private func open(_ name: String) throws -> EvaluationDataset? {
    guard let shared else { print("skipped: ../shared/datasets not found (set MOTUS_DATASETS)"); return nil }
    return try EvaluationDataset.open(shared + "/" + name)
}

@Suite struct StepBarTests {
    func summary(_ ds: EvaluationDataset) throws -> StepEvaluation.Summary {
        StepEvaluation.summarize(try Evaluation.run([ds]) { StepEvaluation.evaluate($0) }.rows)
    }

    @Test func oxfordWalks() throws {
        guard let ds = try open("oxford") else { return }
        let s = try summary(ds)
        print("oxford: \(s.recordings) walks, MAPE \(s.mape) %, worst \(s.worstAbsErrorPercent) % (\(s.worstID ?? "-"))")
        #expect(s.recordings >= 14 && s.mape <= 2 && s.worstAbsErrorPercent <= 6)
    }

    @Test func ipolTrials() throws {
        guard let ds = try open("ipol/voisard2023_ipol497") else { return }
        let s = try summary(ds)
        print("ipol: \(s.recordings) trials, MAPE \(s.mape) %, distance median |error| \(s.distanceMedianAbsErrorPercent ?? .nan) %")
        #expect(s.recordings == 41 && s.mape <= 3 && (s.distanceMedianAbsErrorPercent ?? 100) <= 6)
    }

    @Test func weAllWalkIsScoredOverTheAnnotatedSegments() throws {
        guard let ds = try open("weallwalk") else { return }
        let run = try Evaluation.run([ds]) { StepEvaluation.evaluate($0) }
        let s = StepEvaluation.summarize(run.rows)
        print("weallwalk: \(s.recordings) recordings, MAPE \(s.mape) %, worst \(s.worstAbsErrorPercent) % (\(s.worstID ?? "-"))")
        #expect(run.rows.count == ds.entries.count && run.skipped.isEmpty)
        // Every reference step inside the annotated walk is counted as true (a few fall after a
        // phone stopped recording, and are still true steps).
        #expect(s.trueSteps > 5000)
        #expect(s.mape < 15)
    }
}

/// Issue #20: the offline step counter (the default for files) on the shared data, beside the
/// live one it starts from.
@Suite struct OfflineStepBarTests {
    func summaries(_ ds: EvaluationDataset) throws -> (live: StepEvaluation.Summary, offline: StepEvaluation.Summary) {
        let live = try Evaluation.run([ds]) { StepEvaluation.evaluate($0, mode: .live) }.rows
        let offline = try Evaluation.run([ds]) { StepEvaluation.evaluate($0, mode: .offline) }.rows
        #expect(live.count == offline.count && live.map(\.trueSteps) == offline.map(\.trueSteps))
        #expect(offline.allSatisfy { $0.source == "accelerometer (offline)" })
        return (StepEvaluation.summarize(live), StepEvaluation.summarize(offline))
    }

    @Test func oxfordAndWeAllWalkOfflineBeatLive() throws {
        for (name, mape, worst) in [("oxford", 1.5, 6.0), ("weallwalk", 1.8, 10.0)] {
            guard let ds = try open(name) else { return }
            let (live, offline) = try summaries(ds)
            print("\(name): MAPE live \(live.mape) %, offline \(offline.mape) % (worst \(offline.worstAbsErrorPercent) %)")
            #expect(offline.mape <= mape && offline.worstAbsErrorPercent <= worst && offline.mape < live.mape, "\(name)")
        }
    }

    @Test func ipolOffline() throws {
        guard let ds = try open("ipol/voisard2023_ipol497") else { return }
        let (live, offline) = try summaries(ds)
        print("ipol: MAPE live \(live.mape) %, offline \(offline.mape) %; distance \(offline.distanceMedianAbsErrorPercent ?? .nan) %")
        #expect(offline.recordings == 41 && offline.mape <= 3 && (offline.distanceMedianAbsErrorPercent ?? 100) <= 6)
    }
}

@Suite struct MotionBarTests {
    @Test func ipolMovingStillBars() throws {
        guard let ds = try open("ipol") else { return }
        let rows = try Evaluation.run([ds]) { try MotionEvaluation.evaluate($0, model: .shipped) }.rows
        #expect(rows.count >= 41)
        let s = MotionEvaluation.summarize(rows)
        #expect(s.pauseMedian <= 1.5 && s.pauseP90 <= 2.5, "\(s)")
        #expect(abs(s.resumeMedian) <= 1.0 && s.resumeDecisionStepsMedian <= 2, "\(s)")
        let healthy = rows.filter { !$0.id.contains("/") }
        #expect(healthy.allSatisfy { $0.falsePauses == 0 }, "\(healthy.filter { $0.falsePauses > 0 }.map(\.id))")
    }

    /// Issue #20's reading of sp-sw-har: moving = WALKING and TURNING, still = SEATED, standing
    /// up and sitting down not judged. On phone and watch apart: the resume dated within a
    /// median 0.5 s of the first WALKING sample, decided within two steps (estimated at each
    /// trial's cadence: the recordings have no step events), no pause while walking or turning.
    @Test func spSwHarResumeAfterStandingUp() throws {
        guard let ds = try open("sp-sw-har") else { return }
        let map = ["SEATED": "still", "WALKING": "moving", "TURNING": "moving"]
        let run = try Evaluation.run([ds]) { try MotionEvaluation.evaluate($0, labelMap: map, model: .shipped) }
        // Every execution starts seated: still → walk → … is there to judge.
        #expect(run.rows.count == ds.entries.count && run.skipped.isEmpty, "\(run.skipped)")
        for device in ["_sp", "_sw"] {
            let rows = run.rows.filter { $0.id.hasSuffix(device) }
            let s = MotionEvaluation.summarize(rows)
            print("sp-sw-har \(device): \(s.trials) trials, resume median \(s.resumeMedian) s (|median| \(s.resumeAbsoluteMedian) s), p90 \(s.resumeP90) s, decided after \(s.resumeDecisionStepsMedian) steps, retracted \(s.retractedResumes)")
            #expect(!rows.isEmpty && s.resumeAbsoluteMedian <= 0.5 && s.resumeDecisionStepsMedian <= 2 && s.falsePauses == 0, "\(device): \(s)")
            #expect(s.resumeDecisionStepsEstimated > rows.count / 2, "\(device): \(s)")
            // A provisional resume taken back is rare: the walk goes on.
            #expect(s.retractedResumes * 10 <= rows.count, "\(device): \(s)")
        }
    }
}

@Suite struct FusionBarTests {
    @Test func broadInclinationAgainstMotionCapture() throws {
        guard let ds = try open("broad") else { return }
        let rows = try Evaluation.run([ds]) { try FusionEvaluation.evaluate($0) }.rows
        let r = FusionEvaluation.aggregate(rows)
        print("broad: \(rows.count) trials, median \(r.overall.medianDegrees)°, p95 \(r.overall.p95Degrees)°, RMSE \(r.overall.rmseDegrees)°")
        #expect(rows.count == ds.entries.count)
        #expect(r.overall.count > 400_000)
        // Issue #19's bars for the causal filter with default settings.
        #expect(r.overall.medianDegrees <= 0.45 && r.overall.p95Degrees <= 1.7 && r.overall.rmseDegrees <= 0.75, "\(r.overall)")
    }

    @Test func broadOfflineAndWithMagnetometer() throws {
        guard let ds = try open("broad") else { return }
        let offline = try Evaluation.run([ds]) { e in try FusionEvaluation.evaluate(e, method: .offline(.default)) }.rows
        let o = FusionEvaluation.aggregate(offline).overall
        // Issue #19's bar for the offline mode.
        #expect(offline.count == ds.entries.count && o.rmseDegrees <= 0.55, "\(o)")
        let nine = try Evaluation.run([ds]) { try FusionEvaluation.evaluateWithMagnetometer($0) }.rows
        let n = FusionEvaluation.aggregate(nine).overall
        print("broad offline RMSE \(o.rmseDegrees)°, 9D median \(n.medianDegrees)°, p95 \(n.p95Degrees)°, RMSE \(n.rmseDegrees)°")
        // A guard a little above today's figures (VQF 9D: 0.92° / 3.44° / 1.72°).
        #expect(nine.count == ds.entries.count && n.medianDegrees < 0.9 && n.rmseDegrees < 1.9, "\(n)")
    }

    @Test func measuredOrientationIsLeftOutOfTheDeviceData() throws {
        guard let ds = try open("broad"), let e = ds.entries.first else { return }
        let r = try ds.load(e)
        #expect(!r.recording.streams.contains { $0.kind == .attitude })
        guard case .measured(let att, let scored) = r.truth.orientation else { Issue.record("no measured reference"); return }
        #expect(att.count > 40_000 && scored.allSatisfy { $0.label == "movement" } && !scored.isEmpty)
    }

    /// Without a magnetometer stream the 9D score is one error naming the file and the streams.
    @Test func magnetometerScoreNeedsAMagnetometer() throws {
        guard let ds = try open("broad"), let e = ds.entries.first else { return }
        var r = try ds.load(e)
        r.recording.streams.removeAll { $0.kind == .magneticField }
        do {
            _ = try FusionEvaluation.evaluateWithMagnetometer(r)
            Issue.record("no error without a magnetometer")
        } catch {
            let text = "\(error)"
            #expect(text.contains(r.entry.path) && text.contains("'mag'") && !text.contains("\n"), "\(text)")
        }
    }

    @Test func weAllWalkAgainstCoreMotionWithItsOwnRotationRate() throws {
        guard let ds = try open("weallwalk") else { return }
        let rows = try Evaluation.run([ds]) { e -> FusionEvaluation.RecordingResult? in
            // CoreMotion's rotation rate is bias-corrected: the filter is told so.
            guard case .deviceGravity(_, true) = e.truth.orientation else { Issue.record("\(e.id): no bias-corrected device reference"); return nil }
            return try FusionEvaluation.evaluate(e)
        }.rows
        let r = FusionEvaluation.aggregate(rows)
        print("weallwalk fusion: median \(r.overall.medianDegrees)°, p95 \(r.overall.p95Degrees)°")
        #expect(rows.count == ds.entries.count && r.overall.medianDegrees < 6.5)
    }

    /// mPower device motion (CoreMotion on an iPhone, 93–100 Hz), scored like MotionSense:
    /// acceleration rebuilt as gravity + userAcceleration, CoreMotion's bias-corrected rotation
    /// rate, the angle to CoreMotion's gravity after the first 2 s.
    @Test func mPowerAgainstCoreMotion() throws {
        guard let ds = try open("mpower") else { return }
        let rows = try Evaluation.run([ds]) { e -> FusionEvaluation.RecordingResult? in
            guard case .deviceGravity(_, true) = e.truth.orientation else { Issue.record("\(e.id): no bias-corrected device reference"); return nil }
            return try FusionEvaluation.evaluate(e)
        }.rows
        let r = FusionEvaluation.aggregate(rows)
        print("mpower fusion: \(rows.count) recordings, median \(r.overall.medianDegrees)°, p95 \(r.overall.p95Degrees)°, RMSE \(r.overall.rmseDegrees)°")
        #expect(rows.count == ds.entries.count && rows.count == 5 && r.overall.count > 7000)
        // Regression guards a little above what the filter gives today (see benchmarks/fusion/README.md).
        #expect(r.overall.medianDegrees < 2.5 && r.overall.p95Degrees < 12, "\(r.overall)")
        // Standing still (balance): the estimate stays close to CoreMotion's.
        let balance = try #require(rows.first { $0.name.contains("balance") })
        #expect(balance.summary.medianDegrees < 2, "\(balance.summary)")
    }

    @Test func motionSenseAgainstCoreMotion() throws {
        guard let ds = try open("motionsense") else { return }
        let rows = try Evaluation.run([ds]) { try FusionEvaluation.evaluate($0) }.rows
        let r = FusionEvaluation.aggregate(rows)
        // OrientationFilter follows the accelerometer's mean in the almost-inertial frame, where
        // CoreMotion on MotionSense follows its gyroscope: a guard, not issue #19's 1.8° / 12°.
        #expect(rows.count == 192 && r.overall.medianDegrees <= 2.4 && r.overall.p95Degrees <= 16.5, "\(r.overall)")
        // The filter the shipped models' features use keeps its figures.
        let legacy = try Evaluation.run([ds]) { e in try e.truth.orientation.flatMap { try FusionEvaluation.evaluate(e, method: FusionEvaluation.legacyMethod(for: $0)) } }.rows
        let l = FusionEvaluation.aggregate(legacy).overall
        #expect(l.medianDegrees <= 2.0 && l.p95Degrees <= 15, "\(l)")
    }
}

/// A folder of recordings with `@label` and `@event` lines is a dataset too.
@Suite struct RecordingFolderTests {
    @Test func bundledRecordingsAreADataset() throws {
        let root = DatasetLocator.bundledDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath))
        let ds = try EvaluationDataset.open(root + "/lowback-straight-walk.motus")
        #expect(ds.entries.count == 1)
        let rows = try Evaluation.run([ds]) { StepEvaluation.evaluate($0) }.rows
        #expect(rows.count == 1 && rows[0].trueSteps == 9, "\(rows)")
    }

    /// Steps are counted by the session, so a recording with device motion only (user
    /// acceleration + gravity, no raw acceleration) is scored like one with raw acceleration.
    @Test func deviceMotionOnlyRecordingsAreScored() throws {
        let root = DatasetLocator.bundledDatasets(packageRoot: DatasetLocator.packageRoot(fromFile: #filePath))
        let ds = try EvaluationDataset.open(root + "/lowback-straight-walk.motus")
        let e = try ds.load(ds.entries[0])
        var motionOnly = e.recording
        FusionPipeline.complete(&motionOnly)
        motionOnly.streams.removeAll { $0.kind == .acceleration || $0.kind == .rotationRate }
        let raw = try #require(StepEvaluation.evaluate(e))
        let derived = try #require(StepEvaluation.evaluate(EvaluationRecording(entry: e.entry, loaded: Recording(
            metadata: motionOnly.metadata, streams: motionOnly.streams, labels: e.truth.labels,
            events: e.truth.stepTimes.map { GroundTruthEvent(time: $0, kind: "step") }))))
        #expect(abs(derived.countedSteps - raw.countedSteps) <= 1, "\(derived.countedSteps) vs \(raw.countedSteps)")
    }
}
