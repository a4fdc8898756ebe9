import Testing
import Motus

/// The Swift example in README.md, kept compiling and true.
@Suite struct ReadmeExampleTests {
    @Test func readmeSwiftExampleRuns() throws {
        let recording = try RecordingLoader.load(path: CLI.root + "/datasets/lowback-straight-walk.motus")
        let acc = recording.stream(.acceleration)!
        var complete = recording
        FusionPipeline.complete(&complete, settings: .default)
        let segments = Resampler.resample(acc, settings: ResamplerSettings(rateHz: 50))
        let steps = Pedometer.detect(acc)
        #expect(steps.count >= 8 && steps.count <= 10, "the walk has 9 reference steps; counted \(steps.count)")
        #expect(complete.stream(.gravity) != nil && complete.stream(.userAcceleration) != nil)
        #expect(segments.count == 1)
        #expect(abs(complete.stream(.gravity)!.vector(0).norm - 9.7) < 0.3)
        var session = MotionSession(settings: SessionSettings())
        session.pushAcceleration(acc.vector(0), time: acc.times[0])
        #expect(session.nextEvent() == nil && session.state == .still)
        let result = try MotionSession.run(recording)
        #expect(result.summary.steps >= 8 && result.summary.steps <= 10, "\(result.summary.steps)")
        #expect(result.stateChanges.first?.state == .moving)
    }
}
