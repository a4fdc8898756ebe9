import Testing
import MotusTestSupport
import Foundation
import MotusCore
import MotusIO
import MotusClassifier
import MotusFusion
@testable import MotusTracking
import MotusEvaluation

/// Segments of a synthetic session: still, or walking/running at a step rate.
enum Segment { case still(Double), walk(steps: Int, hz: Double) }

/// A gait-like |a| signal (see `walkSignal`) over a sequence of segments, with the true
/// start and stop of every walking segment.
func sessionSignal(_ segments: [Segment], rateHz: Double = 100, amplitude: Double = 3, seed: UInt64 = 3)
    -> (SensorStream, starts: [Double], stops: [Double]) {
    var rng = SplitMix64(seed: seed)
    var s = SensorStream(kind: .acceleration)
    var starts: [Double] = [], stops: [Double] = []
    var t = 0.0
    let dt = 1 / rateHz
    for seg in segments {
        switch seg {
        case .still(let d):
            let end = t + d
            while t < end {
                s.append(time: t, Vector3(0.3 + 0.03 * rng.gaussian(), 0.2 + 0.03 * rng.gaussian(), 9.8 + 0.03 * rng.gaussian()))
                t += dt
            }
        case .walk(let n, let hz):
            let t0 = t, end = t + Double(n) / hz
            starts.append(t0); stops.append(end)
            while t < end {
                let ph = 2 * Double.pi * hz * (t - t0)
                let v = amplitude * Math.sin(ph - Double.pi / 2) + 0.8 * Math.sin(2 * ph)
                s.append(time: t, Vector3(0.3 + 0.05 * rng.gaussian(), 0.2 + 0.05 * rng.gaussian(), 9.8 + v + 0.05 * rng.gaussian()))
                t += dt
            }
        }
    }
    return (s, starts, stops)
}

/// The shipped model (embedded in the library).
func shippedModel() -> MotionModel? { .shipped }

/// Runs a session and returns its state changes.
func changes(_ r: Recording, settings: SessionSettings = .default, model: MotionModel? = nil) throws -> SessionResult {
    try MotionSession.run(r, settings: settings, model: model)
}

@Suite struct SessionSyntheticTests {
    @Test func walkStopWalkPausesAndResumesPromptly() throws {
        let (acc, starts, stops) = sessionSignal([.still(4), .walk(steps: 30, hz: 2), .still(6), .walk(steps: 30, hz: 2.4), .still(5)])
        let res = try changes(Recording(streams: [acc]))
        let resumes = res.stateChanges.filter { $0.state == .moving }.map(\.change)
        let pauses = res.stateChanges.filter { $0.state == .still }.map(\.change)
        #expect(resumes.count == 2 && pauses.count == 2, "\(res.stateChanges)")
        guard resumes.count == 2, pauses.count == 2 else { return }
        let rates = [2.0, 2.4]
        for i in 0..<2 {
            // Resumed on the first steps, decided by the second (provisional, then confirmed by
            // the pedometer: no retraction follows), dated within a step of the true start.
            #expect(abs(resumes[i].time - starts[i]) <= 1 / rates[i], "resume \(resumes[i]) vs \(starts[i])")
            #expect(resumes[i].decidedAt - starts[i] <= 2 / rates[i] + 0.05, "resume decided \(resumes[i]) vs \(starts[i])")
            #expect(resumes[i].cause == .firstSteps)
            #expect(pauses[i].cause != .unconfirmed)
            // Paused within about 2 s of the true stop (decision time).
            #expect(pauses[i].decidedAt - stops[i] >= 0 && pauses[i].decidedAt - stops[i] <= 2.0, "pause \(pauses[i]) vs \(stops[i])")
            #expect(pauses[i].latency >= 0)
        }
        // Every step counted, including the ones taken while the walk was being confirmed.
        #expect(abs(res.summary.steps - 60) <= 2, "\(res.summary.steps)")
        // Moving time ≈ the two walks (15 s + 12.5 s).
        #expect(abs(res.summary.movingTimeSeconds - 27.5) < 2.5, "\(res.summary.movingTimeSeconds)")
        #expect(abs(res.summary.elapsedTimeSeconds - (acc.times.last! - acc.times[0])) < 1e-9)
    }

    @Test func fidgetingNeitherResumesNorCounts() throws {
        var rng = SplitMix64(seed: 11)
        var s = SensorStream(kind: .acceleration)
        var t = 0.0
        var nextJolt = 1.0
        while t < 40 {
            var v = 0.03 * rng.gaussian()
            if t >= nextJolt && t < nextJolt + 0.15 { v += 4 * Math.sin(Double.pi * (t - nextJolt) / 0.15) }
            if t >= nextJolt + 0.15 { nextJolt = t + 0.4 + 2.5 * rng.uniform() }   // irregular jolts
            s.append(time: t, Vector3(0.3, 0.2, 9.8 + v))
            t += 0.01
        }
        let res = try changes(Recording(streams: [s]))
        #expect(res.summary.steps == 0)
        // Two jolts close together may resume provisionally, but every such resume is retracted
        // (a pause with cause `unconfirmed` at the same time): no moving time, no steps.
        let c = res.stateChanges
        #expect(c.count % 2 == 0, "\(c)")
        for i in Swift.stride(from: 0, to: c.count - 1, by: 2) {
            #expect(c[i].state == .moving && c[i].change.cause == .firstSteps, "\(c[i])")
            #expect(c[i + 1].state == .still && c[i + 1].change.cause == .unconfirmed && c[i + 1].change.time == c[i].change.time, "\(c[i + 1])")
        }
        #expect(res.summary.movingTimeSeconds == 0)
    }

    /// Two steps, then standing: the provisional resume on the first steps is retracted once the
    /// pedometer gives them up; the steps are not counted (fewer than a walk's five, and with the
    /// peak the signal's abrupt end adds, fewer than the four peaks a walk from rest counts from:
    /// three steps make four) and add no moving time. Then a real walk resumes by its second
    /// step and stays resumed.
    @Test func earlyResumeIsRetractedWhenTheWalkDoesNotGoOn() throws {
        let (acc, starts, _) = sessionSignal([.still(4), .walk(steps: 2, hz: 2), .still(6), .walk(steps: 20, hz: 2), .still(4)])
        let res = try changes(Recording(streams: [acc]))
        let c = res.stateChanges
        #expect(c.count == 4, "\(c)")
        guard c.count == 4 else { return }
        #expect(c[0].state == .moving && c[0].change.cause == .firstSteps)
        #expect(c[1].state == .still && c[1].change.cause == .unconfirmed && c[1].change.time == c[0].change.time)
        #expect(c[1].change.decidedAt > starts[0] + 1.5 && c[1].change.decidedAt < starts[1], "\(c[1])")
        #expect(c[2].state == .moving && c[2].change.cause == .firstSteps && c[2].change.decidedAt - starts[1] <= 1.05, "\(c[2])")
        #expect(c[3].state == .still && c[3].change.cause == .stillness)
        #expect(abs(res.summary.steps - 20) <= 1, "\(res.summary.steps)")
        #expect(abs(res.summary.movingTimeSeconds - 10) < 1.5, "\(res.summary.movingTimeSeconds)")
        // Off: the pedometer's confirmation resumes, five steps in.
        var off = SessionSettings(); off.provisionalResume = false
        let late = try changes(Recording(streams: [acc]), settings: off).stateChanges
        #expect(late.map(\.change.cause) == [.steps, .stillness], "\(late)")
        #expect((late.first?.change.decidedAt ?? 0) - starts[1] >= 4 / 2.0, "\(late)")
        // The evaluation leaves the retracted pair out of the resume and the pauses, and counts
        // the true steps up to the decision: the second step's rise decides, just before its peak.
        var r = Recording(streams: [acc])
        r.labels = [LabelSegment(start: 0, end: starts[1], label: "still"), LabelSegment(start: starts[1], end: starts[1] + 10, label: "walk"),
                    LabelSegment(start: starts[1] + 10, end: acc.times.last!, label: "still")]
        r.events = (0..<20).map { GroundTruthEvent(time: starts[1] + 0.25 + Double($0) * 0.5, kind: "step") }
        let entry = DatasetEntry(id: "shuffle-then-walk", subject: nil, label: nil, path: "synthetic")
        let row = try #require(try MotionEvaluation.evaluate(EvaluationRecording(entry: entry, loaded: r), model: nil))
        #expect(row.retractedResumes == 1 && row.falseResumes == 0 && row.falsePauses == 0, "\(row)")
        #expect(abs(row.resumeLatency) < 0.5 && row.resumeDecisionLatency <= 1.05, "\(row)")
        #expect(row.resumeDecisionSteps >= 1 && row.resumeDecisionSteps <= 2, "\(row)")
        #expect(row.resumeJudged && row.pauseJudged, "\(row)")
        // The same walk with no still label before it (a recording that starts while the person
        // stands up, labelled only from the walk on): no resume to judge, and the shuffle before
        // the walk is no false resume, but the walk and its pause are judged.
        var moving = r
        moving.labels.removeFirst()
        let started = try #require(try MotionEvaluation.evaluate(EvaluationRecording(entry: entry, loaded: moving), model: nil))
        #expect(!started.resumeJudged && started.pauseJudged && started.falseResumes == 0 && started.falsePauses == 0, "\(started)")
        #expect(started.resumeLatency == .infinity && started.resumeDecisionSteps.isNaN && started.pauseLatency == row.pauseLatency, "\(started)")
        let both = MotionEvaluation.summarize([row, started])
        #expect(both.trials == 2 && both.resumesNotJudged == 1 && both.pausesNotJudged == 0)
        #expect(both.resumeMedian == row.resumeLatency && both.resumeDecisionStepsMedian == row.resumeDecisionSteps)
        // No still label at all (WeAllWalk's walks and turns): with reference steps the walk is
        // judged for its false pauses only; without them, nothing says where anyone stood.
        var walkOnly = r
        walkOnly.labels = [r.labels[1]]
        let walked = try #require(try MotionEvaluation.evaluate(EvaluationRecording(entry: entry, loaded: walkOnly), model: nil))
        #expect(!walked.stillLabelled && !walked.pauseJudged && !walked.resumeJudged && walked.falsePauses == 0 && walked.falseResumes == 0,
                "\(walked)")
        #expect(MotionEvaluation.summarize([row, walked]).falsePausesOnly == 1)
        walkOnly.events = []
        #expect(try MotionEvaluation.evaluate(EvaluationRecording(entry: entry, loaded: walkOnly), model: nil) == nil)
    }

    /// A walk with reference steps and no still label (Oxford's walks have no labels at all: the
    /// moving span runs from the first reference step to the last): a pause while the reference
    /// steps go on is false, one where they stop for 2.5 s or more is the person standing.
    @Test func aWalkWithoutAStillLabelIsJudgedForItsFalsePauses() throws {
        let (acc, starts, stops) = sessionSignal([.walk(steps: 20, hz: 2), .still(6), .walk(steps: 20, hz: 2)])
        let entry = DatasetEntry(id: "walk-stand-walk", subject: nil, label: nil, path: "synthetic")
        func row(steps: [Double], events: [GroundTruthEvent] = []) throws -> MotionEvaluation.Row {
            var r = Recording(streams: [acc])
            r.events = steps.map { GroundTruthEvent(time: $0, kind: "step") } + events
            return try #require(try MotionEvaluation.evaluate(EvaluationRecording(entry: entry, loaded: r), model: nil))
        }
        func steps(from start: Double) -> [Double] { (0..<20).map { (i: Int) -> Double in start + 0.25 + Double(i) * 0.5 } }
        let walks = steps(from: starts[0]) + steps(from: starts[1])
        // The reference stands between the walks: the session's pause there is not false.
        let stood = try row(steps: walks)
        #expect(stood.trueStart == walks[0] && stood.trueStop == walks[walks.count - 1], "\(stood)")
        #expect(!stood.stillLabelled && stood.falsePauses == 0 && stood.pausesInStandingGaps == 1, "\(stood)")
        #expect(!stood.pauseJudged && stood.pauseLatency == .infinity && !stood.resumeJudged && stood.resumeLatency == .infinity, "\(stood)")
        // The reference steps on through the device's stillness (say a phone left on a bench
        // while its owner walked on): that pause is false.
        let bench: [Double] = Array(stride(from: stops[0] + 0.25, to: starts[1], by: 0.5))
        let through = try row(steps: (walks + bench).sorted())
        #expect(through.falsePauses == 1 && through.pausesInStandingGaps == 0, "\(through)")
        // The same with an incident the annotators marked where the device lay still (WeAllWalk:
        // "she briefly stopped and side stepped"): the walk was interrupted, the pause is not
        // false. An incident elsewhere in the walk changes nothing.
        let text = "stopped to let a person pass"
        let marked = try row(steps: (walks + bench).sorted(), events: [GroundTruthEvent(time: starts[1] - 0.5, kind: "annotation", detail: text),
                                                                         GroundTruthEvent(time: starts[1] + 1, kind: "annotation-end", detail: text)])
        #expect(marked.falsePauses == 0 && marked.pausesInStandingGaps == 1, "\(marked)")
        let elsewhere = try row(steps: (walks + bench).sorted(), events: [GroundTruthEvent(time: starts[0] + 1, kind: "annotation", detail: text),
                                                                            GroundTruthEvent(time: starts[0] + 3, kind: "annotation-end", detail: text)])
        #expect(elsewhere.falsePauses == 1 && elsewhere.pausesInStandingGaps == 0, "\(elsewhere)")
        let s = MotionEvaluation.summarize([stood, through])
        #expect(s.falsePauses == 1 && s.trialsWithFalsePause == 1 && s.pausesInStandingGaps == 1 && s.falsePausesOnly == 2)
        #expect(s.pausesNotJudged == 2 && s.resumesNotJudged == 2 && s.pauseMedian.isNaN && s.resumeMedian.isNaN)
    }

    /// A runner with the phone in a swinging hand: the phone turns with the arm (±0.6 rad at
    /// half the step rate), so |a| carries the centripetal swing and weak step impacts. The
    /// pedometer may lose steps; the session must not pause.
    @Test func swingingHandDuringARunDoesNotPause() throws {
        var rng = SplitMix64(seed: 5)
        var acc = SensorStream(kind: .acceleration), gyro = SensorStream(kind: .rotationRate)
        let stepHz = 2.8, swingHz = 1.4, r = 0.6, amp = 0.6
        var t = 0.0
        while t < 60 {
            let running = t >= 3 && t < 57
            let w = 2 * Double.pi * swingHz
            let theta = running ? amp * Math.sin(w * t) : 0
            let omega = running ? amp * w * Math.cos(w * t) : 0
            let impact = running ? 1.5 * max(0, Math.sin(2 * Double.pi * stepHz * t)) : 0
            // Specific force along the arm (pendulum) in the phone frame: g cos θ + ω²r, plus the impact.
            let along = 9.81 * Math.cos(theta) + omega * omega * r + impact
            let across = running ? -0.3 * 9.81 * Math.sin(theta) : 0
            acc.append(time: t, Vector3(across + 0.05 * rng.gaussian(), 0.05 * rng.gaussian(), along + 0.05 * rng.gaussian()))
            gyro.append(time: t, Vector3(omega, 0.02 * rng.gaussian(), 0.02 * rng.gaussian()))
            t += 0.01
        }
        let res = try changes(Recording(streams: [acc, gyro]), model: shippedModel())
        let inRun = res.stateChanges.filter { $0.state == .still && $0.change.time > 4 && $0.change.time < 56 }
        #expect(inRun.isEmpty, "false pauses: \(inRun)")
        #expect(res.stateChanges.first?.state == .moving)
    }

    @Test func liveBatchAndAsyncAreIdentical() async throws {
        let root = DatasetLocator.packageRoot(fromFile: #filePath)
        let r = try RecordingLoader.load(path: root + "/datasets/iphone-belt-stand-then-walk.motus")
        let model = shippedModel()
        var settings = SessionSettings()
        settings.splitMeters = 10
        settings.goalMeters = 15
        let batch = try MotionSession.run(r, settings: settings, model: model, keepStepEvents: true)
        // Live: samples one by one through `push(SensorSample)`, events read every 7 samples.
        var live = try MotionSession(settings: settings, model: model)
        var liveEvents: [SessionEvent] = []
        let samples = Self.merged(r)
        for (i, s) in samples.enumerated() {
            live.push(s)
            if i % 7 == 0 { while let e = live.nextEvent() { liveEvents.append(e) } }
        }
        live.finish()
        while let e = live.nextEvent() { liveEvents.append(e) }
        #expect(liveEvents == batch.events)
        #expect(live.snapshot == batch.summary)
        // Async adapter over the same samples.
        let stream = AsyncStream<SensorSample> { c in
            for s in samples { c.yield(s) }
            c.finish()
        }
        var asyncEvents: [SessionEvent] = []
        var last: SessionSnapshot? = nil
        for try await u in SessionUpdates(stream, session: try MotionSession(settings: settings, model: model)) {
            asyncEvents += u.events; last = u.snapshot
        }
        #expect(asyncEvents == batch.events)
        #expect(batch.splits.count >= 1)
        #expect(batch.events.contains { if case .goalReached = $0 { true } else { false } })
        _ = last
    }

    static func merged(_ r: Recording) -> [SensorSample] {
        var out: [(Double, Int, SensorSample)] = []
        for (p, k) in MotionSession.inputKinds.enumerated() {
            guard let s = r.stream(k) else { continue }
            for i in 0..<s.count {
                let t = s.times[i]
                let v = s.sample(i)
                out.append((t, p, v))
            }
        }
        // Stable sort by (time, kind order) = the batch runner's merge order.
        return out.enumerated().sorted { a, b in
            (a.element.0, a.element.1, a.offset) < (b.element.0, b.element.1, b.offset)
        }.map { $0.element.2 }
    }

    @Test func platformStepCounterIsUsedWhenPresent() throws {
        let (acc, _, _) = sessionSignal([.still(3), .walk(steps: 40, hz: 2), .still(4)])
        var sc = SensorStream(kind: .stepCounter)
        // Cumulative counts every ~2.5 s with a reset in the middle (1000 → 0).
        let readings: [(Double, Double)] = [(3.5, 1000), (6, 1004), (8.7, 1010), (11, 3), (14, 9), (17, 15), (20, 23), (26, 25)]
        for (t, n) in readings { sc.append(time: t, [n, Double.nan]) }
        let res = try changes(Recording(streams: [acc, sc]))
        #expect(res.summary.steps == 4 + 6 + 3 + 6 + 6 + 8 + 2)
    }

    @Test func paceSplitsGoalAndCalibration() throws {
        // 600 steps at 2.5 Hz with a fixed 0.8 m step: 480 m in 240 s, pace 500 s/km.
        let (acc, _, _) = sessionSignal([.still(3), .walk(steps: 600, hz: 2.5), .still(4)], rateHz: 50)
        var settings = SessionSettings()
        settings.strideModel = .fixed(stepMeters: 0.8)
        settings.splitMeters = 100
        settings.goalMeters = 300
        var session = try MotionSession(settings: settings, model: nil)
        let res = session.run(Recording(streams: [acc]))
        #expect(abs(res.summary.distanceMeters - 480) <= 2)
        #expect(res.splits.count == 4)
        for s in res.splits.dropFirst() { #expect(abs(s.paceSecondsPerKm - 500) < 10, "\(s)") }
        #expect(abs(res.summary.averagePaceSecondsPerKm - 500) < 15)
        #expect(formatPace(500) == "8:20 /km")
        #expect(res.events.contains { if case .goalReached(_, let d, _) = $0 { d >= 300 && d < 301 } else { false } })
        session.calibrate(knownDistanceMeters: 240)
        #expect(abs(session.strideCalibrationFactor - 0.5) < 0.01)
    }

    @Test func rideModeFollowsSpeed() throws {
        // A ride: still 10 s, 60 s at 6 m/s northwards (1 Hz fixes), still 20 s; phone jiggling.
        var rng = SplitMix64(seed: 9)
        var acc = SensorStream(kind: .acceleration), loc = SensorStream(kind: .location)
        var t = 0.0, lat = 48.0
        while t < 90 {
            let moving = t >= 10 && t < 70
            acc.append(time: t, Vector3(0.3 + (moving ? 0.8 : 0.02) * rng.gaussian(), 0.2, 9.8 + (moving ? 0.8 : 0.02) * rng.gaussian()))
            if Int((t * 100).rounded()) % 100 == 0 {
                if moving { lat += 6 / 111_195 }
                loc.append(time: t, [lat, 11.0, Double.nan, moving ? 6 : 0, Double.nan, 5, Double.nan])
            }
            t += 0.01
        }
        var settings = SessionSettings()
        settings.mode = .ride
        let res = try changes(Recording(streams: [acc, loc]), settings: settings)
        #expect(res.summary.steps == 0)
        let ch = res.stateChanges
        #expect(ch.count == 2, "\(ch)")
        if ch.count == 2 {
            #expect(ch[0].state == .moving && abs(ch[0].change.time - 10) <= 1.5)
            #expect(ch[1].state == .still && abs(ch[1].change.time - 70) <= 1.5)
        }
        #expect(abs(res.summary.distanceMeters - 360) < 15, "\(res.summary.distanceMeters)")
    }

    @Test func stillnessDetectorMatchesNaiveWindow() {
        var rng = SplitMix64(seed: 2)
        var d = StillnessDetector(rateHz: 50)
        var xs: [Double] = [], ws: [Double] = []
        for i in 0..<2000 {
            let x = 9.8 + (i % 300 < 150 ? 0.05 : 1.0) * rng.gaussian(), w = abs(0.1 * rng.gaussian())
            xs.append(x); ws.append(w)
            let still = d.push(accelerationMagnitude: x, rotationRateMagnitude: w)
            if i >= 24 {
                let win = xs[(i - 24)...i]
                let m = win.reduce(0, +) / 25
                let sd = (win.map { ($0 - m) * ($0 - m) }.reduce(0, +) / 25).squareRoot()
                let mw = ws[(i - 24)...i].reduce(0, +) / 25
                #expect(abs(d.accelerationStd - sd) < 1e-9)
                #expect(still == (sd <= 0.2 && mw <= 0.5))
            }
        }
    }
}

/// `motus track` end to end on the bundled recordings.
@Suite(.serialized) struct TrackCLITests {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)

    static var binary: String? {
        let c = [".build/debug/motus", ".build/release/motus"].map { root + "/" + $0 }
            .filter { FileManager.default.isExecutableFile(atPath: $0) }
        return c.max { a, b in
            let da = (try? FileManager.default.attributesOfItem(atPath: a)[.modificationDate] as? Date) ?? .distantPast
            let db = (try? FileManager.default.attributesOfItem(atPath: b)[.modificationDate] as? Date) ?? .distantPast
            return da < db
        }
    }

    /// The shipped model as a file this Motus can read (see `shippedModel`).
    static let modelPath: String? = {
        guard let m = shippedModel() else { return nil }
        let p = NSTemporaryDirectory() + "motus-track-test-model-\(getpid()).json"
        guard (try? JSONEncoder().encode(m).write(to: URL(fileURLWithPath: p))) != nil else { return nil }
        return p
    }()

    static func run(_ args: [String]) throws -> (Int32, String, String)? {
        guard let bin = binary, let model = modelPath else { return nil }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bin)
        p.arguments = args + ["--model", model]
        p.currentDirectoryURL = URL(fileURLWithPath: root)
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
    }

    @Test func lowBackStraightWalk() throws {
        guard let (status, out, err) = try Self.run(["track", "datasets/lowback-straight-walk.motus", "--format", "json"]) else {
            print("skipped: motus binary or model not found"); return
        }
        #expect(status == 0, "\(err)")
        let j = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        for k in ["steps", "distance_m", "moving_time_s", "elapsed_time_s", "average_pace_s_per_km", "cadence_spm", "splits", "events"] {
            #expect(j[k] != nil, "missing key \(k)")
        }
        // Reference: 9 initial contacts in the bout, 4.35 m.
        let steps = j["steps"] as? Int ?? -1
        #expect(steps >= 8 && steps <= 11, "\(steps)")
        let d = j["distance_m"] as? Double ?? -1
        #expect(d > 3 && d < 6.5, "\(d)")
        let events = j["events"] as? [[String: Any]] ?? []
        #expect(events.first?["type"] as? String == "resumed")
        #expect(events.last?["type"] as? String == "paused")
        // Calibrated to the true distance, the distance matches it.
        guard let (s2, out2, _) = try Self.run(["track", "datasets/lowback-straight-walk.motus", "--format", "json", "--calibrate-distance", "4.35"]) else { return }
        #expect(s2 == 0)
        let j2 = try JSONSerialization.jsonObject(with: Data(out2.utf8)) as! [String: Any]
        #expect(abs((j2["distance_m"] as? Double ?? 0) - 4.35) < 0.01)
    }

    @Test func iphoneBeltStandThenWalk() throws {
        guard let (status, out, err) = try Self.run(["track", "datasets/iphone-belt-stand-then-walk.motus", "--format", "json", "--goal-distance", "10", "--split", "5"]) else {
            print("skipped: motus binary or model not found"); return
        }
        #expect(status == 0, "\(err)")
        let j = try JSONSerialization.jsonObject(with: Data(out.utf8)) as! [String: Any]
        let moving = j["moving_time_s"] as? Double ?? -1, elapsed = j["elapsed_time_s"] as? Double ?? -1
        #expect(moving > 10 && moving < elapsed, "\(moving) / \(elapsed)")
        #expect(abs(elapsed - 114) < 2)
        #expect((j["splits"] as? [Any])?.isEmpty == false)
        let events = j["events"] as? [[String: Any]] ?? []
        #expect(events.contains { $0["type"] as? String == "goal" })
        // The u-turn walk starts after the 70 s balance test: the session is moving there.
        let resumes = events.filter { $0["type"] as? String == "resumed" }.compactMap { $0["time_s"] as? Double }
        #expect(resumes.contains { $0 > 85 && $0 < 100 }, "\(resumes)")
        guard let (s2, table, _) = try Self.run(["track", "datasets/iphone-belt-stand-then-walk.motus"]) else { return }
        #expect(s2 == 0 && table.contains("average pace") && table.contains("/km"))
        guard let (s3, csv, _) = try Self.run(["track", "datasets/iphone-belt-stand-then-walk.motus", "--format", "csv"]) else { return }
        #expect(s3 == 0 && csv.hasPrefix("type,time_s,"))
    }

    /// `--height` is metres in `track` as in `record` (#21); centimetres still read, with a notice.
    @Test func heightIsMetresAndCentimetresAreDeprecated() throws {
        guard let (status, _, err) = try Self.run(["track", "datasets/lowback-straight-walk.motus", "--height", "18"]) else { return }
        #expect(status != 0)
        #expect(err.contains("--height is in metres, 0.5…2.5 (e.g. 1.75), not 18.0"))
        guard let (s1, metres, e1) = try Self.run(["track", "datasets/lowback-straight-walk.motus", "--height", "1.8", "--format", "json"]),
              let (s2, cm, e2) = try Self.run(["track", "datasets/lowback-straight-walk.motus", "--height", "180", "--format", "json"]),
              let (s3, flag, e3) = try Self.run(["track", "datasets/lowback-straight-walk.motus", "--height-cm", "180", "--format", "json"]),
              let (_, other, _) = try Self.run(["track", "datasets/lowback-straight-walk.motus", "--height", "1.5", "--format", "json"]) else { return }
        #expect(s1 == 0 && s2 == 0 && s3 == 0)
        #expect(metres == cm && metres == flag, "the same height three ways")
        #expect(metres != other, "height changes the stride")
        #expect(e1.isEmpty && e3.isEmpty)
        #expect(e2 == "motus: --height 180 read as centimetres; --height is now in metres everywhere: give --height 1.80 or --height-cm 180 (centimetres will be refused in a later version)\n")
    }
}

