import Testing
import Foundation
import MotusCore
import MotusIO
@testable import MotusTracking

/// Resuming after a stop: a walker who stood still (a crossing, a chat) and walks on must be
/// resumed within about two steps, without losing those steps, while standing still with
/// the phone fidgeting must not resume.
@Suite struct ResumeTests {
    /// `r`'s motion streams cut to the time ranges `parts`, laid end to end (each part shifted
    /// to start one sample period after the previous one ends). Returns the recording and the
    /// start time of every part in it.
    static func splice(_ r: Recording, _ parts: [Range<Double>]) -> (Recording, [Double]) {
        var streams: [SensorStream] = []
        var starts: [Double] = []
        for (n, kind) in [StreamKind.acceleration, .userAcceleration, .gravity, .rotationRate].enumerated() {
            guard let s = r.stream(kind) else { continue }
            var out = SensorStream(kind: kind)
            var t = 0.0
            for p in parts {
                if n == 0 { starts.append(t) }
                let idx = s.times.indices.filter { p.contains(s.times[$0]) }
                guard let first = idx.first else { continue }
                for i in idx { out.append(time: t + s.times[i] - s.times[first], s.vector(i)) }
                t += s.times[idx.last!] - s.times[first] + 0.02
            }
            streams.append(out)
        }
        return (Recording(streams: streams), starts)
    }

    /// The bundled iPhone belt recording (stand, then a U-turn walk), spliced into walk,
    /// stand, walk: real standing sway and real first steps.
    @Test func walkStandWalkOnRealDataResumesWithinTwoSteps() throws {
        let root = DatasetLocator.packageRoot(fromFile: #filePath)
        let r = try RecordingLoader.load(path: root + "/datasets/iphone-belt-stand-then-walk.motus")
        let stand = try #require(r.labels.first { $0.label == "static-balance" })
        let walk = try #require(r.labels.first { $0.label == "u-turn" })
        // Skip the first seconds of each part (the balance test starts with the phone being
        // put on; the U-turn test with 20 s of standing while the instruction is read).
        let (spliced, starts) = Self.splice(r, [walk.start + 21 ..< walk.end, stand.start + 10 ..< stand.end, walk.start + 21 ..< walk.end])
        #expect(starts.count == 3)
        let res = try MotionSession.run(spliced, settings: SessionSettings(), model: shippedModel(), keepStepEvents: true)
        let resumes = res.stateChanges.filter { $0.state == .moving }.map(\.change)
        let pauses = res.stateChanges.filter { $0.state == .still }.map(\.change)
        // Moving from the start, paused in the standing part, resumed once in the second walk.
        #expect(resumes.count == 2 && pauses.count >= 1, "\(res.stateChanges.map { ($0.state, $0.change.time, $0.change.decidedAt, $0.change.cause) }) starts \(starts)")
        guard resumes.count == 2, let pause = pauses.first else { return }
        #expect(pause.decidedAt > starts[1] && pause.decidedAt < starts[1] + 4, "pause \(pause) vs stand from \(starts[1])")
        let again = resumes[1]
        #expect(again.time >= starts[2] - 0.5, "no resume while standing: \(again) vs walk from \(starts[2])")
        // Decided within two step intervals (plus the band-pass delay) of the first step.
        let walkSteps = res.stepTimes.filter { $0 < starts[1] }
        let diffs = zip(walkSteps.dropFirst(), walkSteps).map { $0 - $1 }.sorted()
        let interval = diffs.isEmpty ? 0.5 : diffs[diffs.count / 2]
        let steps = res.stepTimes.filter { $0 >= again.time - 1e-9 }
        let stepsBeforeDecision = steps.filter { $0 <= again.decidedAt }.count
        #expect(again.decidedAt - again.time <= 2 * interval + 0.3, "decided \(again.decidedAt - again.time) s after the first step (step interval \(interval) s)")
        #expect(stepsBeforeDecision <= 3, "\(stepsBeforeDecision) steps before the decision")
        // The steps taken while the resume was being decided are counted: the second walk
        // keeps every step the full confirmation gives it. (It has 4 more here: three
        // candidates 0.54–0.64 s apart, 1.3–2.4 s into the walk, that the full confirmation
        // drops because a 1.1 s gap follows them; with no step reference in this recording,
        // which count is right is not known.)
        var full = SessionSettings()
        full.pedometer.resumeConfirmationSteps = full.pedometer.confirmationSteps
        let slow = try MotionSession.run(spliced, settings: full, model: shippedModel(), keepStepEvents: true)
        let second = res.stepTimes.filter { $0 >= starts[2] }.count, secondFull = slow.stepTimes.filter { $0 >= starts[2] }.count
        #expect(second > 20 && second >= secondFull && second <= secondFull + 4, "second walk \(second) steps, \(secondFull) with the full confirmation")
        let slowResume = try #require(slow.stateChanges.filter { $0.state == .moving }.last?.change)
        #expect(slowResume.decidedAt - again.decidedAt >= 0.5, "full confirmation decided at \(slowResume.decidedAt), fast at \(again.decidedAt)")
        print("resume after a stop on the spliced belt recording: decided \(again.decidedAt - again.time) s after the first step (\(stepsBeforeDecision) steps, step interval \(interval) s); full confirmation \(slowResume.decidedAt - slowResume.time) s")
    }

    /// Standing after a walk with the phone jolted at irregular moments (strong jolts, whose
    /// ringing in the step band can fool even the full confirmation now and then): the fast
    /// resume must add no false resume and no step to what the full confirmation gives.
    @Test(arguments: [11, 12, 13, 14, 15, 16])
    func fidgetingAfterAWalkAddsNoFalseResume(seed: UInt64) throws {
        let (walk, _, stops) = sessionSignal([.still(3), .walk(steps: 30, hz: 2)], seed: seed)
        var rng = SeededRandom(seed: seed)
        var s = walk
        var t = stops[0] + 0.01
        var nextJolt = t + 3
        while t < stops[0] + 60 {
            var v = 0.03 * rng.gaussian()
            if t >= nextJolt && t < nextJolt + 0.15 { v += 3 * Math.sin(Double.pi * (t - nextJolt) / 0.15) }
            if t >= nextJolt + 0.15 { nextJolt = t + 0.4 + 2.5 * rng.uniform() }   // irregular jolts
            s.append(time: t, Vector3(0.3, 0.2, 9.8 + v))
            t += 0.01
        }
        var full = SessionSettings()
        full.pedometer.resumeConfirmationSteps = full.pedometer.confirmationSteps
        let fast = try MotionSession.run(Recording(streams: [s]), settings: SessionSettings(), model: nil)
        let slow = try MotionSession.run(Recording(streams: [s]), settings: full, model: nil)
        let resumes = { (r: SessionResult) in r.stateChanges.filter { $0.state == .moving }.count }
        #expect(resumes(fast) <= resumes(slow), "fast \(fast.stateChanges) vs full \(slow.stateChanges)")
        #expect(fast.summary.steps <= slow.summary.steps + 1, "fast \(fast.summary.steps) steps vs full \(slow.summary.steps)")
        #expect(resumes(fast) >= 1 && fast.summary.steps >= 29)
    }

    /// The fast resume is a setting: with it off, the same walk–stop–walk resumes only after
    /// the full confirmation run, which shows the fast path is what makes it quick.
    @Test func fastResumeCanBeTurnedOff() throws {
        let (acc, starts, _) = sessionSignal([.still(4), .walk(steps: 30, hz: 2), .still(6), .walk(steps: 30, hz: 2)])
        var slow = SessionSettings()
        slow.pedometer.resumeConfirmationSteps = slow.pedometer.confirmationSteps
        let fast = try MotionSession.run(Recording(streams: [acc]), settings: SessionSettings(), model: nil)
        let full = try MotionSession.run(Recording(streams: [acc]), settings: slow, model: nil)
        func secondResume(_ r: SessionResult) -> StateChange? { r.stateChanges.filter { $0.state == .moving }.dropFirst().first?.change }
        let f = try #require(secondResume(fast)), s = try #require(secondResume(full))
        #expect(f.decidedAt - starts[1] <= 2 * 0.5 + 0.3, "fast: \(f)")
        #expect(s.decidedAt - f.decidedAt >= 0.9, "full confirmation should take about two steps longer: \(s) vs \(f)")
        #expect(fast.summary.steps == full.summary.steps)
        // The first walk has nothing to continue: the full confirmation both times.
        #expect(fast.stateChanges.first?.change == full.stateChanges.first?.change)
    }
}
