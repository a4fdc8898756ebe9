import Testing
import MotusCore
import MotusIO
@testable import MotusTracking

/// A session counting offline steps (`SessionSettings.stepMode` `.offline`): it counts the
/// steps pushed to it and only those, `MotionSession.run` pushes the offline detector's steps
/// of the whole recording, and the rest of the session (moving/still, events) is the live one.
@Suite struct OfflineSessionTests {
    static let root = DatasetLocator.packageRoot(fromFile: #filePath)

    func walk() -> Recording {
        Recording(metadata: RecordingMetadata(), streams: [walkSignal(rateHz: 100, steps: 30, jitter: 0.1, seed: 11)])
    }

    @Test func pushedStepsCountOnlyInOfflineMode() throws {
        var offline = SessionSettings()
        offline.stepMode = .offline
        var s = try MotionSession(settings: offline, model: nil)
        var live = try MotionSession(settings: .default, model: nil)
        for i in 0..<6 {
            let step = StepEvent(time: 1 + 0.5 * Double(i), peakToPeak: 4)
            s.pushStep(step)
            live.pushStep(step)
        }
        #expect(s.steps == 6 && live.steps == 0)
        #expect(s.distanceMeters > 0)
        // The cadence of the last four pushed steps, 0.5 s apart: 120 steps/min; after a
        // pause longer than the longest step interval, none until the next step.
        #expect(abs(s.pushedCadence - 120) < 1e-9)
        s.pushStep(StepEvent(time: 10, peakToPeak: 4))
        #expect(s.pushedCadence == 0)
        s.pushStep(StepEvent(time: 10.6, peakToPeak: 4))
        #expect(abs(s.pushedCadence - 100) < 1e-9)
        // A non-finite time is not a step.
        s.pushStep(StepEvent(time: .nan, peakToPeak: 4))
        #expect(s.steps == 8)
    }

    @Test func aRideCountsNoPushedSteps() throws {
        var ride = SessionSettings()
        ride.mode = .ride
        ride.stepMode = .offline
        var s = try MotionSession(settings: ride, model: nil)
        s.pushStep(StepEvent(time: 1, peakToPeak: 4))
        #expect(s.steps == 0)
    }

    @Test func anOfflineRunCountsTheOfflineDetectorsSteps() throws {
        for r in [walk(), try RecordingLoader.load(path: Self.root + "/datasets/iphone-belt-stand-then-walk.motus")] {
            var settings = SessionSettings()
            settings.stepMode = .offline
            let offline = try MotionSession.run(r, settings: settings, keepStepEvents: true)
            let expected = try #require(OfflineStepDetector.steps(of: r))
            #expect(offline.summary.steps == expected.count)
            #expect(offline.stepTimes == expected.map(\.time))
            // Moving/still is the live session's: the same changes, at the same times.
            let live = try MotionSession.run(r, keepStepEvents: true)
            #expect(offline.stateChanges.map { [$0.change.time, $0.change.decidedAt] } == live.stateChanges.map { [$0.change.time, $0.change.decidedAt] })
        }
    }

    @Test func aPlatformStepCounterCountsInEitherMode() throws {
        var r = walk()
        var counter = SensorStream(kind: .stepCounter)
        for i in 0...10 { counter.append(time: 2 + 2.5 * Double(i), [Double(3 * i), .nan]) }
        r.streams.append(counter)
        var settings = SessionSettings()
        settings.stepMode = .offline
        let offline = try MotionSession.run(r, settings: settings, model: nil)
        let live = try MotionSession.run(r, model: nil)
        #expect(offline.summary.steps == live.summary.steps)
        #expect(offline.summary.steps == 30)
    }

    @Test func userAccelerationAloneIsCountedOffline() throws {
        // The synthetic walk's user acceleration: acceleration minus 9.8 m/s² along z.
        let a = walkSignal(rateHz: 100, steps: 30, jitter: 0.1, seed: 11)
        var u = SensorStream(kind: .userAcceleration)
        for i in 0..<a.count { u.append(time: a.times[i], a.vector(i) - Vector3(0, 0, 9.80665)) }
        let r = Recording(metadata: RecordingMetadata(), streams: [u])
        let steps = try #require(OfflineStepDetector.steps(of: r))
        #expect(abs(steps.count - 30) <= 1, "\(steps.count) steps")
    }
}
