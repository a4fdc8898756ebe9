import Testing
import MotusCore
import MotusSignal
@testable import MotusTracking

/// A step's swing (Weinberg's input) is measured alike at every rate: on the acceleration
/// low-passed per axis by a 4th-order Butterworth (`StepSwingFilter`), not on |a|.
@Suite struct StepSwingTests {
    @Test func butterworthLowPassSectionsMatchTheDesign() {
        let c = BiquadCascade(sections: Biquad.butterworthLowPassSections(order: 4, cutoffHz: 3, sampleRateHz: 100))
        #expect(c.sections.count == 2)
        #expect(abs(c.magnitude(atHz: 1e-3, sampleRateHz: 100) - 1) < 1e-9)
        #expect(abs(c.magnitude(atHz: 3, sampleRateHz: 100) - 0.5.squareRoot()) < 1e-9)
        // An analog 4th order gives 1/√(1 + 2⁸) = 0.0623 an octave up; the bilinear transform
        // bends the response down a little towards Nyquist.
        let octave = c.magnitude(atHz: 6, sampleRateHz: 100)
        #expect(octave < 0.0624 && octave > 0.055, "\(octave)")
        // The 2nd-order section with quality 1/√2 is the existing Butterworth low-pass.
        let q = Biquad.lowPass(cutoffHz: 3, sampleRateHz: 100, quality: 0.5.squareRoot())
        let b = Biquad.butterworthLowPass(cutoffHz: 3, sampleRateHz: 100)
        #expect(abs(q.b0 - b.b0) < 1e-15 && abs(q.a1 - b.a1) < 1e-15 && abs(q.a2 - b.a2) < 1e-15)
    }

    /// A walk at 2 steps/s, sampled at 200 Hz: the body rises and falls 2 m/s² along gravity
    /// at the step rate, and each step's heel strike is a 30 ms impact of 20 m/s², across the
    /// device and along it (alternately, as a phone on one side feels the two feet).
    func walk(seconds: Double = 20) -> SensorStream {
        var s = SensorStream(kind: .acceleration)
        var t = 0.0
        while t < seconds {
            let phase = t.truncatingRemainder(dividingBy: 0.5)
            let step = Int(t / 0.5)
            let impact = phase < 0.03 ? 20 * Math.sin(Double.pi * phase / 0.03) : 0
            let across = step % 2 == 0 ? impact : -impact
            s.append(time: t, Vector3(across, 0.3 * impact, 9.81 + 2 * Math.sin(2 * Double.pi * 2 * t)))
            t += 0.005
        }
        return s
    }

    /// The median swing of the steps a detector finds (the walk's first and last 2 s left out).
    func medianSwing(_ steps: [StepEvent]) -> Double {
        let v = steps.filter { $0.time > 2 && $0.time < 18 }.map(\.peakToPeak).sorted()
        return v.isEmpty ? 0 : v[v.count / 2]
    }

    @Test func aStepsSwingHoldsFromTwoHundredToTwentyFiveHertz() throws {
        let fast = walk()
        let slow = fast.resampledAsDevice(rateHz: 25)
        // The vertical detector and the pedometer measure one swing, alike at both rates.
        let vertical = medianSwing(OfflineStepDetector.verticalSteps(fast)), verticalSlow = medianSwing(OfflineStepDetector.verticalSteps(slow))
        let pedometer = medianSwing(Pedometer.detect(fast)), pedometerSlow = medianSwing(Pedometer.detect(slow))
        try #require(vertical > 0 && pedometer > 0 && verticalSlow > 0 && pedometerSlow > 0)
        #expect(abs(verticalSlow / vertical - 1) < 0.03, "vertical: \(vertical) at 200 Hz, \(verticalSlow) at 25 Hz")
        #expect(abs(pedometerSlow / pedometer - 1) < 0.03, "pedometer: \(pedometer) at 200 Hz, \(pedometerSlow) at 25 Hz")
        #expect(abs(pedometer / vertical - 1) < 0.05, "pedometer \(pedometer), vertical \(vertical)")
        // The body's swing: 4 m/s² peak to peak, through the filter's gain at 2 Hz (0.98).
        #expect(abs(vertical - 4 * 0.98) < 0.3, "\(vertical)")

        // |a| low-passed (the swing before): the impact folded into |a| at 200 Hz, which the
        // 25 Hz device's anti-alias filter takes, shows as a swing that shrinks with the rate.
        func magnitudeSwing(_ s: SensorStream) -> Double {
            var lp = Biquad.butterworthLowPass(cutoffHz: 3, sampleRateHz: 1 / (s.times[1] - s.times[0]))
            let y = (0..<s.count).map { lp.process(s.vector($0).norm) }
            var ranges: [Double] = []
            var k = 0
            for cycle in stride(from: 4.0, to: 18.0, by: 0.5) {
                var lo = Double.infinity, hi = -Double.infinity
                while k < s.count && s.times[k] < cycle { k += 1 }
                var j = k
                while j < s.count && s.times[j] < cycle + 0.5 { lo = Swift.min(lo, y[j]); hi = Swift.max(hi, y[j]); j += 1 }
                ranges.append(hi - lo)
            }
            return ranges.sorted()[ranges.count / 2]
        }
        let before = magnitudeSwing(fast), beforeSlow = magnitudeSwing(slow)
        #expect(beforeSlow / before < 0.95, "|a| low-passed: \(before) at 200 Hz, \(beforeSlow) at 25 Hz")
    }

    @Test func theFilterPrimesAndReportsItsDelay() {
        var f = StepSwingFilter(cutoffHz: 3, sampleRateHz: 100)
        f.prime(with: Vector3(0.3, 0.2, 9.8))
        #expect(abs(f.process(Vector3(0.3, 0.2, 9.8)) - Vector3(0.3, 0.2, 9.8).norm) < 1e-9)
        // Σ 1 / (Q ωc) of a 4th-order Butterworth at 3 Hz: 2.613 / (2π · 3) s.
        #expect(abs(f.delaySeconds - 0.1386) < 1e-3)
    }
}
