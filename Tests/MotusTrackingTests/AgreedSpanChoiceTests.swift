import Testing
import MotusTestSupport
import MotusCore
@testable import MotusTracking

/// The live choice between agreed steps (`AgreedSpanChoice`): the offline rule on steps as they
/// come, with its bounded wait.
@Suite struct AgreedSpanChoiceTests {
    /// The second detector's steps from an array (all held, or only the newest `held`).
    struct Peaks: AgreedSpanChoice.Peaks {
        var times: [Double]
        var held = Int.max
        var count: Int { times.count }
        var oldest: Int { Swift.max(0, times.count - held) }
        func step(_ n: Int) -> StepEvent { StepEvent(time: times[n], peakToPeak: 2) }
    }

    func regular(from a: Double, count: Int, interval: Double = 0.5) -> [Double] { (0..<count).map { a + Double($0) * interval } }

    /// Pushes `steps` in order (agreed where `peaks` has a step within 0.15 s), taking the
    /// decided steps after each; `release` at the end lets the held ones go.
    func run(_ steps: [Double], peaks: Peaks, maxSpan: Double = 8, settings: OfflineStepDetector.Settings = .default) -> [Double] {
        var choice = AgreedSpanChoice(settings: settings, maximumSpanSeconds: maxSpan)
        var out: [Double] = []
        for t in steps {
            let agreed = peaks.times.contains { Swift.abs($0 - t) <= 0.15 }
            choice.push(StepEvent(time: t, peakToPeak: 1), agreed: agreed, vertical: peaks)
            while let s = choice.pop() { out.append(s.time) }
        }
        choice.release()
        while let s = choice.pop() { out.append(s.time) }
        return out
    }

    @Test func aTurnsStepsComeFromTheVerticalPeaksAndATapGoes() {
        let walk = regular(from: 10, count: 30)
        // The pedometer misses three steps of a turn (15, 15.5, 16) and adds a tap at 20.2;
        // the vertical detector has every step, none of the tap.
        let pedometer = (walk.filter { ![15, 15.5, 16].contains($0) } + [20.2]).sorted()
        #expect(run(pedometer, peaks: Peaks(times: walk)) == walk)
        // Where the vertical detector misses the turn too, the checked steps stay as they came;
        // the tap still goes (no vertical peak there is the nearer rhythm).
        let missesTheTurn = Peaks(times: walk.filter { ![15, 15.5, 16].contains($0) })
        #expect(run(pedometer, peaks: missesTheTurn) == pedometer.filter { $0 != 20.2 })
    }

    @Test func nearerByLessThanTheResolutionKeepsTheCheckedSteps() {
        // One step for two between 21.5 and 23 s on both sides: the checked one at 22.2 s
        // (hops 0.7 and 0.8 s), the vertical one at 22.4 s (0.9 and 0.6 s, 0.04 nearer in Σ |log|).
        let walk = regular(from: 10, count: 30).filter { $0 != 22 && $0 != 22.5 }
        let mine = (walk + [22.2]).sorted(), theirs = (walk + [22.4]).sorted()
        #expect(run(mine, peaks: Peaks(times: theirs)) == mine)
        var sharp = OfflineStepDetector.Settings()
        sharp.rhythmResolutionRatio = 1
        #expect(run(mine, peaks: Peaks(times: theirs), settings: sharp) == theirs)
    }

    @Test func aSpanTooLongOrPeaksNoLongerHeldGoOutAsTheyCame() {
        // Agreed steps 9 s apart (beyond the 8 s bound), two unagreed steps between (0.2 s from
        // the nearest peaks): not replaced by the vertical peaks, though those keep the rhythm.
        let a = regular(from: 0, count: 10), b = regular(from: 13.5, count: 10)
        let pedometer = a + [6.3, 12.7] + b
        let turn = regular(from: 5.0, count: 17)
        let vertical = Peaks(times: a + turn + b)
        #expect(run(pedometer, peaks: vertical) == pedometer)
        // Within the bound the vertical peaks are taken…
        #expect(run(pedometer, peaks: vertical, maxSpan: 20) == a + turn + b)
        // …unless the span's first peaks were already dropped from the second detector's ring.
        #expect(run(pedometer, peaks: Peaks(times: a + turn + b, held: 20), maxSpan: 20) == pedometer)
    }

    @Test func noStepIsLostOrReorderedWhateverTheSpans() {
        // Random walks with random misses, extras, pauses and agreements: the output is in
        // time order, each step once, every one a checked step or a vertical peak; a walk whose
        // vertical peaks are its own steps, or that has none, comes out unchanged.
        var rng = SplitMix64(seed: 11)
        for _ in 0..<200 {
            var t = 0.0, steps: [Double] = [], peaks: [Double] = []
            for _ in 0..<Int.random(in: 5...150, using: &rng) {
                t += Double.random(in: 0.3...(Bool.random(using: &rng) ? 0.8 : 3), using: &rng)
                if Double.random(in: 0...1, using: &rng) < 0.8 { steps.append(t) }
                if Double.random(in: 0...1, using: &rng) < 0.7 { peaks.append(t + Double.random(in: -0.2...0.2, using: &rng)) }
            }
            peaks.sort()
            let out = run(steps, peaks: Peaks(times: peaks), maxSpan: Double.random(in: 2...20, using: &rng))
            #expect(zip(out, out.dropFirst()).allSatisfy { $0 < $1 })
            let known = Set(steps).union(peaks)
            #expect(out.allSatisfy { known.contains($0) })
            #expect(run(steps, peaks: Peaks(times: steps)) == steps)
            #expect(run(steps, peaks: Peaks(times: [])) == steps)
        }
    }
}
