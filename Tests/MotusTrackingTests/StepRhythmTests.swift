import Testing
@testable import MotusTracking

/// The one walking-rhythm rule the pedometer, the live step check, the rhythm check and the
/// offline look-back share.
@Suite struct StepRhythmTests {
    /// The rule on the run starting at 10 s with these intervals, judged against the first
    /// `judging` of them (all when nil).
    func step(_ rhythm: StepRhythm, _ intervals: [Double], judging: Int? = nil) -> Double? {
        var times = [10.0]
        for d in intervals { times.append(times[times.count - 1] + d) }
        var scratch = [Double](repeating: 0, count: intervals.count)
        return rhythm.step(count: intervals.count, judging: judging ?? intervals.count, scratch: &scratch, time: { times[$0] })
    }

    // Steady steps within 1.2 of their median: two alternating intervals more than 1.4 apart
    // fail the steady rule and are judged by their strides.
    let twoWays = StepRhythm(intervalRatio: 1.2, strideRatio: 1.2, asymmetry: 1.6, longIntervalsBreak: true)
    let shortOnly = StepRhythm(intervalRatio: 1.2, strideRatio: 1.2, asymmetry: 1.6, longIntervalsBreak: false)

    @Test func steadyStepsGiveTheirMedianInterval() throws {
        let s = try #require(step(twoWays, [0.5, 0.52, 0.49]))
        #expect(abs(s - 0.5) < 1e-12)
        #expect(step(twoWays, [0.5, 0.3, 0.5]) == nil)              // an extra step: 0.3 < 0.5 / 1.2
    }

    @Test func aLongIntervalBreaksOnlyWhereAsked() {
        // A missed step doubles one interval: no rhythm for a walk's start, but no extra step
        // either for the rule that drops extra ones.
        #expect(step(twoWays, [0.5, 0.5, 1.0, 0.5]) == nil)
        #expect(step(shortOnly, [0.5, 0.5, 1.0, 0.5]) != nil)
        #expect(step(shortOnly, [0.5, 0.3, 0.5, 0.5]) == nil)
    }

    @Test func alternatingIntervalsNeedTwoStridesAndBoundedAsymmetry() throws {
        let limp = try #require(step(twoWays, [0.48, 0.72, 0.48, 0.72]))
        #expect(abs(limp - 0.6) < 1e-12)                           // half the 1.2 s stride
        #expect(step(twoWays, [0.30, 0.46]) == nil)                  // one stride proves nothing
        #expect(step(twoWays, [0.30, 0.46, 0.30, 0.46]) != nil)
        #expect(step(twoWays, [0.40, 0.72, 0.40, 0.72]) == nil)      // asymmetry 1.8 > 1.6
        #expect(step(twoWays, [0.45, 0.70, 0.70, 0.45]) == nil)      // strides 1.15, 1.40, 1.15
    }

    @Test func theRhythmComesFromTheJudgingIntervals() throws {
        // The same run, its rhythm set by its first two intervals or by all five.
        let first = try #require(step(twoWays, [0.5, 0.5, 0.55, 0.55, 0.55], judging: 2))
        #expect(abs(first - 0.5) < 1e-12)
        let all = try #require(step(twoWays, [0.5, 0.5, 0.55, 0.55, 0.55]))
        #expect(abs(all - 0.55) < 1e-12)
        // Two judging intervals make one stride: no stride rhythm to judge a limp by.
        #expect(step(twoWays, [0.48, 0.72, 0.48, 0.72], judging: 2) == nil)
        #expect(step(twoWays, [0.48, 0.72, 0.48, 0.72], judging: 3) != nil)
    }

    @Test func anEvenCountsMedianIsTheMeanOrTheLowerMiddle() throws {
        let usual = StepRhythm(intervalRatio: 1.4, strideRatio: 1.2, asymmetry: 1.6, longIntervalsBreak: true)
        var lower = usual
        lower.median = .lower
        let mean = try #require(step(usual, [0.4, 0.5, 0.6, 0.65]))
        #expect(abs(mean - 0.55) < 1e-12)
        let low = try #require(step(lower, [0.4, 0.5, 0.6, 0.65]))
        #expect(abs(low - 0.5) < 1e-12)
        // 0.36 s is within 1.4 of the lower median (0.5 s) but not of the mean (0.55 s), and
        // too short against 0.6 s for an alternating walk.
        #expect(step(lower, [0.36, 0.5, 0.6, 0.6]) != nil)
        #expect(step(usual, [0.36, 0.5, 0.6, 0.6]) == nil)
    }
}
