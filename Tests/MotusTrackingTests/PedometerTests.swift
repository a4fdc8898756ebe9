import Testing
import MotusTestSupport
import MotusCore
import MotusIO
import MotusSignal
@testable import MotusTracking


/// Stillness, then `steps` steps at `stepHz` (a gait-like waveform: fundamental plus a second
/// harmonic, with noise), then stillness; sampled at `rateHz` with optional timing jitter.
func walkSignal(rateHz: Double, stepHz: Double = 2, steps: Int, stillBefore: Double = 3, stillAfter: Double = 3,
                noise: Double = 0.05, jitter: Double = 0, seed: UInt64 = 1) -> SensorStream {
    var rng = SplitMix64(seed: seed)
    let walk = Double(steps) / stepHz
    let total = stillBefore + walk + stillAfter
    var s = SensorStream(kind: .acceleration)
    var t = 0.0
    let dt = 1 / rateHz
    while t < total {
        var v = 0.0
        if t >= stillBefore && t < stillBefore + walk {
            let ph = 2 * Double.pi * stepHz * (t - stillBefore)
            v = 3 * Math.sin(ph - Double.pi / 2) + 0.8 * Math.sin(2 * ph)
        }
        let g = Vector3(0.3 + noise * rng.gaussian(), 0.2 + noise * rng.gaussian(), 9.8 + v + noise * rng.gaussian())
        s.append(time: t, g)
        t += dt * (1 + jitter * (rng.uniform() - 0.5))
    }
    return s
}

@Suite struct CellAveragerTests {
    /// Naive reference: the exact mean over each cell of the piecewise-linear interpolant,
    /// integrating every input segment's overlap with the cell.
    func reference(_ t: [Double], _ v: [Double], period: Double) -> [(Double, Double)] {
        var out: [(Double, Double)] = []
        var end = t[0] + period
        while end <= t[t.count - 1] {
            let start = end - period
            var integral = 0.0
            for i in 0..<(t.count - 1) {
                let a = max(start, t[i]), b = min(end, t[i + 1])
                guard b > a else { continue }
                func f(_ x: Double) -> Double { v[i] + (v[i + 1] - v[i]) * (x - t[i]) / (t[i + 1] - t[i]) }
                integral += 0.5 * (f(a) + f(b)) * (b - a)
            }
            out.append((end, integral / period))
            end += period
        }
        return out
    }

    @Test(arguments: [20.0, 50.0, 173.0, 400.0])
    func matchesNaiveReference(inputRate: Double) {
        var rng = SplitMix64(seed: 7)
        var t: [Double] = [], v: [Double] = []
        var x = 0.0
        while x < 5 { t.append(x); v.append(rng.gaussian()); x += (0.5 + rng.uniform()) / inputRate }
        var c = CellAverager(rateHz: 50, maximumGap: 10)
        var got: [(Double, Double)] = []
        for i in t.indices { c.push(time: t[i], value: v[i]) { got.append(($0, $1)) } }
        let want = reference(t, v, period: 0.02)
        #expect(abs(got.count - want.count) <= 1)
        for i in 0..<min(got.count, want.count) {
            #expect(abs(got[i].0 - want[i].0) < 1e-9)
            #expect(abs(got[i].1 - want[i].1) < 1e-9)
        }
    }

    /// Four channels pushed together are each averaged exactly as one channel pushed alone.
    @Test func channelsTogetherAverageAsEachAlone() {
        var rng = SplitMix64(seed: 3)
        var t: [Double] = [], v: [SIMD4<Double>] = []
        var x = 0.0
        while x < 3 { t.append(x); v.append(SIMD4(rng.gaussian(), rng.gaussian(), 9.8 + rng.gaussian(), rng.uniform())); x += (0.5 + rng.uniform()) / 37 }
        var together = CellAverager(rateHz: 50, maximumGap: 10)
        var got: [(Double, SIMD4<Double>)] = []
        for i in t.indices { together.push(time: t[i], values: v[i]) { got.append(($0, $1)) } }
        #expect(got.count > 100)
        for lane in 0..<4 {
            var alone = CellAverager(rateHz: 50, maximumGap: 10)
            var one: [(Double, Double)] = []
            for i in t.indices { alone.push(time: t[i], value: v[i][lane]) { one.append(($0, $1)) } }
            #expect(one.count == got.count)
            #expect(zip(one, got).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1[lane] }, "lane \(lane)")
        }
    }

    @Test func longGapRestartsAndBackwardsTimeIsDropped() {
        var c = CellAverager(rateHz: 10, maximumGap: 0.5)
        var n = 0
        c.push(time: 0, value: 1) { _, _ in n += 1 }
        c.push(time: 0.25, value: 1) { _, _ in n += 1 }
        #expect(n == 2)
        c.push(time: 0.2, value: 5) { _, _ in n += 1 }   // backwards: ignored
        #expect(n == 2)
        c.push(time: 3, value: 1) { _, _ in n += 1 }     // gap > 0.5 s: restart, nothing emitted
        #expect(n == 2 && c.restarts == 1)
    }
}

@Suite struct PedometerSyntheticTests {
    @Test(arguments: [20.0, 50.0, 100.0, 400.0])
    func twoHertzStepsAtAnyRate(rate: Double) {
        let s = walkSignal(rateHz: rate, steps: 120)
        let n = Pedometer.detect(s).count
        #expect(abs(n - 120) <= 1, "rate \(rate) Hz: counted \(n) of 120")
    }

    @Test(arguments: [1.4, 2.8])
    func slowWalkAndRunning(stepHz: Double) {
        let s = walkSignal(rateHz: 100, stepHz: stepHz, steps: 100, jitter: 0.3)
        let n = Pedometer.detect(s).count
        #expect(abs(n - 100) <= 1, "\(stepHz) Hz: counted \(n) of 100")
    }

    @Test func thirtyStepWalkFromStillnessKeepsItsFirstSteps() {
        for (i, rate) in [25.0, 100.0, 200.0].enumerated() {
            let s = walkSignal(rateHz: rate, stepHz: 1.8, steps: 30, stillBefore: 5, stillAfter: 5, seed: UInt64(10 + i))
            let steps = Pedometer.detect(s)
            #expect(steps.count >= 29 && steps.count <= 31, "\(rate) Hz: counted \(steps.count) of 30")
            // The first credited step is the first real one (within half a step of 5 s + 1 step period).
            if let f = steps.first { #expect(f.time < 5 + 1.5 / 1.8, "first step at \(f.time)") }
        }
    }

    @Test func noiseAndFidgetingAreNotCounted() {
        // Sensor noise only.
        let still = walkSignal(rateHz: 100, steps: 0, stillBefore: 60, stillAfter: 0, noise: 0.2)
        #expect(Pedometer.detect(still).count == 0)
        // Fidgeting: isolated jolts at irregular times (0.3–3 s apart), 60 of them.
        var rng = SplitMix64(seed: 3)
        var jolts: [Double] = []
        var t = 1.0
        for _ in 0..<60 { jolts.append(t); t += 0.3 + 2.7 * rng.uniform() }
        var s = SensorStream(kind: .acceleration)
        var x = 0.0
        while x < t + 2 {
            var v = 0.0
            for j in jolts where abs(x - j) < 0.15 { v += 4 * Math.cos(Double.pi * (x - j) / 0.3) }
            s.append(time: x, Vector3(0.1 * rng.gaussian(), 0.1 * rng.gaussian(), 9.81 + v + 0.1 * rng.gaussian()))
            x += 0.01
        }
        let found = Pedometer.detect(s)
        let n = found.count
        #expect(n <= 6, "fidgeting counted \(n) steps of 60 jolts: \(found.map(\.time)) jolts \(jolts)")
    }

    /// Impacts (half-cosine jolts 0.3 s wide) at the given times, sampled at `rateHz`.
    func jolts(_ times: [Double], rateHz: Double, seed: UInt64) -> SensorStream {
        var rng = SplitMix64(seed: seed)
        var s = SensorStream(kind: .acceleration)
        var x = 0.0
        while x < (times.last ?? 0) + 3 {
            var v = 0.0
            for j in times where abs(x - j) < 0.15 { v += 4 * Math.cos(Double.pi * (x - j) / 0.3) }
            s.append(time: x, Vector3(0.1 * rng.gaussian(), 0.1 * rng.gaussian(), 9.81 + v + 0.1 * rng.gaussian()))
            x += 1 / rateHz
        }
        return s
    }

    @Test func asymmetricGaitIsCounted() {
        // A limp: step intervals alternate 0.48 s and 0.72 s (ratio 1.5, beyond the step rule's
        // 1.4), strides a steady 1.2 s. Each walk of 12 steps starts from stillness, as after
        // a turn; the stride rule confirms it.
        for rate in [25.0, 100.0] {
            var times: [Double] = []
            var t = 3.0
            for walk in 0..<3 {
                for i in 0..<12 { times.append(t); t += i % 2 == 0 ? 0.48 : 0.72 }
                t += 5 + Double(walk)
            }
            let n = Pedometer.detect(jolts(times, rateHz: rate, seed: 7)).count
            #expect(abs(n - times.count) <= 1, "\(rate) Hz: counted \(n) of \(times.count)")
        }
    }

    @Test func strideRuleNeedsTwoStridesAndBoundedAsymmetry() {
        var p = Pedometer()
        func run(_ intervals: [Double]) -> Bool {
            p.pendTime[0] = 10
            for (i, d) in intervals.enumerated() { p.pendTime[i + 1] = p.pendTime[i] + d }
            return p.isRegularRun(count: intervals.count)
        }
        #expect(run([0.5, 0.52, 0.49]))                 // even steps: the step rule
        #expect(run([0.48, 0.72, 0.48, 0.72]))          // a limp: two equal strides
        #expect(!run([0.30, 0.46]))                     // one stride proves nothing
        #expect(run([0.30, 0.46, 0.30, 0.46]))          // the same pair repeated: a rhythm
        #expect(!run([0.40, 0.72, 0.40, 0.72]))         // asymmetry 1.8 > 1.6
        #expect(!run([0.45, 0.70, 0.70, 0.45]))         // strides 1.15, 1.40, 1.15: not regular
    }

    @Test func streamingEqualsBatchAndReportsState() {
        let s = walkSignal(rateHz: 60, steps: 40)
        var p = Pedometer()
        var credited = 0, sawWalking = false
        for i in 0..<s.count {
            credited += p.update(acceleration: s.vector(i), time: s.times[i])
            if p.isWalking { sawWalking = true; #expect(abs(p.cadence - 120) < 15) }
        }
        #expect(sawWalking)
        #expect(credited == p.steps)
        #expect(p.steps == Pedometer.detect(s).count)
        #expect(p.recentStep(0).time == Pedometer.detect(s).last?.time)
    }
}

@Suite struct StepCounterAndStrideTests {
    @Test func integratorHandlesResetsAndIrregularUpdates() {
        var s = StepCounterIntegrator()
        for (t, c) in [(0.0, 100.0), (0.7, 105), (3.1, 110), (3.2, 3), (9, 8), (9.5, 8), (20, 20)] {
            s.update(StepCounterSample(time: t, steps: c))
        }
        #expect(s.steps == 30)
        #expect(s.resets == 1)
        s.update(StepCounterSample(time: 19, steps: 50))     // time backwards: rejected
        s.update(StepCounterSample(time: 21, steps: .nan))   // not a number: rejected
        #expect(s.steps == 30 && s.rejected == 2)
        s.update(StepCounterSample(time: 22, steps: 25))
        #expect(s.steps == 35)
    }

    @Test func strideModelsAndCalibration() {
        let steps = (0..<20).map { StepEvent(time: Double($0) * 0.5, peakToPeak: 8) }
        let h = StrideModel.height(heightMeters: 1.8)
        #expect(abs(h.stepLength(peakToPeak: 0, cadence: 110) - 0.415 * 1.8) < 1e-12)
        #expect(h.stepLength(peakToPeak: 0, cadence: 130) > h.stepLength(peakToPeak: 0, cadence: 100))
        let w = StrideModel.weinberg(k: 0.5)
        #expect(abs(w.stepLength(peakToPeak: 16, cadence: 100) - 1.0) < 1e-12)
        // Naive distance: 20 steps at cadence 120.
        let expected = 20 * 0.415 * 1.8 * (120.0 / 110).squareRoot()
        #expect(abs(StrideEstimator.distance(steps, model: h) - expected) < 1e-9)
        for m in [h, w, StrideModel.fixed(stepMeters: 0.7)] {
            let c = StrideEstimator.calibrate(m, steps: steps, knownDistanceMeters: 13)
            #expect(abs(StrideEstimator.distance(steps, model: c) - 13) < 1e-9)
        }
    }
}
