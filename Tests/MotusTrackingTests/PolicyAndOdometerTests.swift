import Testing
import MotusCore
@testable import MotusTracking

/// The moving/still policy and the odometer, each driven alone with hand-made evidence.
private func context(_ mode: SessionMode = .foot) -> MotionPolicy.Context {
    MotionPolicy.Context(mode: mode, framePeriod: 0.02, stillnessWindowSeconds: 0.5, windowSeconds: 2.56, hopSeconds: 1.28,
                         maximumStepInterval: 2.0, stopTimeout: 2.0)
}

private func drain(_ q: inout EventQueue) -> [SessionEvent] {
    var out: [SessionEvent] = []
    while let e = q.next() { out.append(e) }
    return out
}

@Suite struct MotionPolicyTests {
    @Test func twoRegularCandidatesResumeProvisionallyAndATimeoutRetracts() {
        var p = MotionPolicy(context: context())
        var q = EventQueue()
        // Moving frames (not still) so the policy sees motion.
        for i in 0..<50 { p.frame(at: Double(i) * 0.02, still: false, accelerationStd: 2, windowProbability: .nan, walk: .none, events: &q) }
        // One candidate: nothing. Two, 0.5 s apart, with a strong motion: a provisional resume.
        p.stepCandidates(count: 1, earliest: .nan, newest: 1.0, motionStd: 2, at: 1.0, events: &q)
        #expect(p.state == .still)
        p.stepCandidates(count: 2, earliest: 1.0, newest: 1.5, motionStd: 2, at: 1.5, events: &q)
        #expect(p.state == .moving && p.isProvisional)
        guard case .resumed(let r) = drain(&q).first else { Issue.record("no resume"); return }
        #expect(r.cause == .firstSteps && r.time == 1.0)
        // No confirmation within the timeout: retracted, dated at the resume, no moving time.
        p.stepCandidates(count: 2, earliest: 1.0, newest: 1.5, motionStd: 2, at: 1.5 + p.settings.earlyResumeTimeout + 0.01, events: &q)
        #expect(p.state == .still)
        guard case .paused(let c) = drain(&q).first else { Issue.record("no retraction"); return }
        #expect(c.cause == .unconfirmed && c.time == r.time && p.movingTime(at: 10) == 0)
        // The same candidates cannot resume again.
        p.stepCandidates(count: 2, earliest: 1.0, newest: 1.5, motionStd: 2, at: 6, events: &q)
        #expect(p.state == .still)
    }

    @Test func weakMotionOrSlowCandidatesDoNotResume() {
        var p = MotionPolicy(context: context())
        var q = EventQueue()
        p.frame(at: 0, still: false, accelerationStd: 0.5, windowProbability: .nan, walk: .none, events: &q)
        p.stepCandidates(count: 2, earliest: 1.0, newest: 1.5, motionStd: 0.5, at: 1.5, events: &q)   // like shifting weight
        p.stepCandidates(count: 2, earliest: 1.0, newest: 2.5, motionStd: 2, at: 2.5, events: &q)     // 40 steps/min
        #expect(p.state == .still && q.count == 0)
    }

    @Test func confirmedStepsResumeAndStillnessAfterTheLastStepPauses() {
        var p = MotionPolicy(context: context())
        var q = EventQueue()
        p.frame(at: 0.98, still: true, accelerationStd: 0.01, windowProbability: .nan, walk: .none, events: &q)
        p.frame(at: 1.0, still: false, accelerationStd: 2, windowProbability: .nan, walk: .none, events: &q)   // onset 0.98
        p.stepsConfirmed(firstStep: 1.3, at: 3.5, events: &q)
        for t in stride(from: 1.3, through: 3.5, by: 0.5) { p.stepCounted(at: t) }
        guard case .resumed(let r) = drain(&q).first else { Issue.record("no resume"); return }
        #expect(r.cause == .steps && r.time == 0.98 && r.decidedAt == 3.5)   // dated at the motion onset
        // Still from 4.0 s; the pedometer says a step is due until 3.3 + 2 × 0.5 = 4.3 s.
        let walk = WalkEvidence(isWalking: true, lastStepTime: 3.3, stepInterval: 0.5)
        var t = 4.0
        while t < 4.29 { p.frame(at: t, still: true, accelerationStd: 0.05, windowProbability: .nan, walk: walk, events: &q); t += 0.02 }
        #expect(p.state == .moving)
        while t < 4.5 { p.frame(at: t, still: true, accelerationStd: 0.05, windowProbability: .nan, walk: walk, events: &q); t += 0.02 }
        #expect(p.state == .still)
        guard case .paused(let c) = drain(&q).first else { Issue.record("no pause"); return }
        // Dated at the later of the stillness window's start (4.0 − 0.5) and the last step (3.5).
        #expect(c.cause == .stillness && c.time == 3.5)
        #expect(abs(p.movingTime(at: 100) - (3.5 - 0.98)) < 1e-12)
    }

    @Test func confidentWindowsResumeAndPauseWithoutSteps() {
        var p = MotionPolicy(context: context())
        var q = EventQueue()
        var t = 0.0
        for _ in 0..<3 { t += 1.28; p.frame(at: t, still: false, accelerationStd: 1, windowProbability: 0.99, walk: .none, events: &q) }
        #expect(p.state == .still)   // three windows: not yet
        t += 1.28; p.frame(at: t, still: false, accelerationStd: 1, windowProbability: 0.99, walk: .none, events: &q)
        #expect(p.state == .moving)
        guard case .resumed(let r) = drain(&q).first else { Issue.record("no resume"); return }
        #expect(r.cause == .classifier && r.time == t)   // no motion onset seen: dated at the decision
        // Confident still windows while quiet: pause after two.
        for _ in 0..<3 { t += 1.28; p.frame(at: t, still: false, accelerationStd: 0.3, windowProbability: 0.0, walk: .none, events: &q) }
        #expect(p.state == .still)
        guard case .paused(let c) = drain(&q).first else { Issue.record("no pause"); return }
        #expect(c.cause == .classifier)
    }

    @Test func rideFollowsSpeed() {
        var p = MotionPolicy(context: context(.ride))
        var q = EventQueue()
        #expect(!p.speed(3, at: 0, events: &q))
        #expect(!p.speed(3, at: 1, events: &q))
        #expect(p.speed(3, at: 2, events: &q) && p.state == .moving)
        _ = p.speed(0.2, at: 10, events: &q)
        _ = p.speed(0.2, at: 12, events: &q)
        #expect(p.state == .still)
        let e = drain(&q)
        #expect(e.count == 2 && e[0].time == 0 && e[1].time == 10)
    }
}

@Suite struct OdometerTests {
    @Test func stepsMakeSplitsAndTheGoal() {
        var o = Odometer(stride: .fixed(stepMeters: 0.75), splitMeters: 100, goalMeters: 250)
        var q = EventQueue()
        o.start(at: 0)
        for i in 1...400 {
            let t = Double(i) * 0.5
            o.addStep(StepEvent(time: t, peakToPeak: 9), cadence: 120, movingTime: t, events: &q)
        }
        let e = drain(&q)
        let splits = e.compactMap { if case .split(let s) = $0 { s } else { nil } }
        #expect(o.steps == 400 && abs(o.distanceMeters - 300) < 1e-9)
        #expect(splits.map(\.index) == [1, 2, 3] && splits.map(\.steps) == [134, 133, 133])
        #expect(abs(splits[0].paceSecondsPerKm - 670) < 1e-9)                       // 134 steps × 0.5 s per 100 m
        #expect(e.filter { if case .goalReached = $0 { true } else { false } }.count == 1)
        #expect(e.filter { if case .step = $0 { true } else { false } }.count == 400)
        // 1.5 m/s: 666.7 s/km over the last 10 s.
        #expect(abs(o.currentPace(now: 200) - 1000 / 1.5) < 1e-6)
        #expect(o.currentPace(now: 210).isNaN)                                       // no distance lately
    }

    @Test func gpsScalesTheStrideOnceEnoughDistanceIsCovered() {
        var o = Odometer(stride: .fixed(stepMeters: 0.7), splitMeters: 0, goalMeters: nil)
        var q = EventQueue()
        for i in 1...80 { o.addStep(StepEvent(time: Double(i) * 0.5, peakToPeak: 9), cadence: 120, movingTime: 0, events: &q) }
        o.gpsDistanceWalked(30)
        #expect(!o.isGPSCalibrated)
        o.gpsDistanceWalked(30)                  // 60 m of GPS for 56 m of steps
        #expect(o.isGPSCalibrated && abs(o.strideScale - 60.0 / 56.0) < 1e-12)
        #expect(abs(o.stepLength(peakToPeak: 9, cadence: 120) - 0.75) < 1e-12)
    }
}
