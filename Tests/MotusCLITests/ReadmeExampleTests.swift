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
    }
}
