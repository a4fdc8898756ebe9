import Testing
import MotusCore
@testable import MotusSignal

/// The higher-order band-pass and the peak finder against scipy 1.17's `butter`, `sosfreqz`,
/// `sosfiltfilt` and `find_peaks` (reference values computed there, quoted here), and against
/// their definitions.
@Suite struct BandPassTests {
    @Test func fourthOrderBandPassHasScipysResponse() {
        let f = BiquadCascade.butterworthBandPass(order: 4, lowHz: 1, highHz: 5, sampleRateHz: 100)
        #expect(f.sections.count == 4)
        // scipy: abs(sosfreqz(butter(4, [1, 5], 'band', fs=100, output='sos'), worN=f, fs=100)).
        let want: [(Double, Double)] = [(0.25, 0.001693090867991213), (0.5, 0.031576563312048125), (1, 0.7071067811865623),
                                        (5.0.squareRoot(), 1.0000000000000142), (5, 0.7071067811865486),
                                        (10, 0.028265792713630465), (20, 0.0009684039205081317)]
        for (hz, m) in want { #expect(abs(f.magnitude(atHz: hz, sampleRateHz: 100) - m) < 1e-9 * Swift.max(1, m), "\(hz) Hz") }
        let slow = BiquadCascade.butterworthBandPass(order: 4, lowHz: 0.6, highHz: 3, sampleRateHz: 25)
        let want25: [(Double, Double)] = [(0.3, 0.03236438911364522), (0.6, 0.7071067811865495), (1.8.squareRoot(), 0.9999999999999984),
                                          (3, 0.7071067811865471), (6, 0.015552788974990597)]
        for (hz, m) in want25 { #expect(abs(slow.magnitude(atHz: hz, sampleRateHz: 25) - m) < 1e-9, "\(hz) Hz at 25 Hz") }
    }

    @Test func oddOrdersKeepTheEdgesAndTheCentre() {
        for order in [1, 3, 5] {
            let f = BiquadCascade.butterworthBandPass(order: order, lowHz: 0.5, highHz: 3, sampleRateHz: 50)
            #expect(f.sections.count == order)
            #expect(abs(f.magnitude(atHz: 0.5, sampleRateHz: 50) - 0.5.squareRoot()) < 1e-9)
            #expect(abs(f.magnitude(atHz: 3, sampleRateHz: 50) - 0.5.squareRoot()) < 1e-9)
            // The centre is the geometric mean of the pre-warped edges, mapped back.
            let tl = Math.sin(Double.pi * 0.5 / 50) / Math.cos(Double.pi * 0.5 / 50)
            let th = Math.sin(Double.pi * 3 / 50) / Math.cos(Double.pi * 3 / 50)
            let centre = 50 / Double.pi * Math.atan2((tl * th).squareRoot(), 1)
            #expect(abs(f.magnitude(atHz: centre, sampleRateHz: 50) - 1) < 1e-9)
        }
    }

    @Test func zeroPhaseMatchesSosfiltfilt() {
        // scipy: sosfiltfilt(butter(4, [1, 5], 'band', fs=100, output='sos'), sin(0.2 k) + 0.01 k), k < 300.
        let x = (0..<300).map { Math.sin(0.2 * Double($0)) + 0.01 * Double($0) }
        let y = BiquadCascade.butterworthBandPass(order: 4, lowHz: 1, highHz: 5, sampleRateHz: 100).filteredZeroPhase(x)
        let want: [(Int, Double)] = [(0, -0.056898191828), (1, 0.156162823345), (50, -0.540875595534), (150, -1.013726633865),
                                     (298, 0.55781359719), (299, 0.377214300491)]
        for (i, v) in want { #expect(abs(y[i] - v) < 1e-9, "sample \(i): \(y[i])") }
        #expect(BiquadCascade(sections: []).filteredZeroPhase([]).isEmpty)
    }
}

@Suite struct PeakTests {
    @Test func findPeaksMatchesScipy() {
        // scipy: find_peaks(sin(0.7 k) + 0.3 cos(2.1 k), distance=3, prominence=0.5), k < 40.
        let x = (0..<40).map { Math.sin(0.7 * Double($0)) + 0.3 * Math.cos(2.1 * Double($0)) }
        #expect(Peaks.find(x, minimumDistance: 3, minimumProminence: 0.5) == [3, 12, 21, 30])
        let prominences = [0.863166957564, 2.296448531107, 2.295514007674, 2.292866317986]
        for (p, want) in zip([3, 12, 21, 30], prominences) { #expect(abs(Peaks.prominence(of: p, in: x) - want) < 1e-9) }
    }

    @Test func flatTopsEndsAndDistance() {
        #expect(Peaks.localMaxima([0, 1, 1, 1, 0]) == [2])
        #expect(Peaks.localMaxima([0, 1, 1, 0]) == [1])
        #expect(Peaks.localMaxima([2, 1, 2]) == [])          // the ends are never peaks
        #expect(Peaks.localMaxima([0, 1, 1]) == [])          // a top that never comes down
        // Of two peaks closer than the distance the higher stays, whatever their order.
        #expect(Peaks.find([0, 3, 0, 5, 0, 0, 0, 4, 0], minimumDistance: 3, minimumProminence: 0) == [3, 7])
        #expect(Peaks.find([0, 5, 0, 3, 0], minimumDistance: 3, minimumProminence: 0) == [1])
        // Prominence: a small bump on a slope stands only as far as its own dip.
        let bump: [Double] = [0, 1, 2, 1.8, 2.1, 3, 0]
        #expect(abs(Peaks.prominence(of: 2, in: bump) - 0.2) < 1e-12)
        #expect(Peaks.find(bump, minimumDistance: 1, minimumProminence: 0.5) == [5])
    }

    @Test func prominenceFollowsItsDefinition() {
        // A brute-force prominence on pseudo-random signals: lowest point between the peak and
        // the nearest higher sample on each side (or the end), the higher of the two bases.
        var seed: UInt64 = 7
        for _ in 0..<50 {
            let x = (0..<60).map { _ -> Double in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Double(seed >> 40) / Double(1 << 24)
            }
            for p in Peaks.localMaxima(x) {
                var l = p; while l > 0 && x[l - 1] <= x[p] { l -= 1 }
                var r = p; while r < x.count - 1 && x[r + 1] <= x[p] { r += 1 }
                let base = Swift.max(x[l...p].min()!, x[p...r].min()!)
                #expect(abs(Peaks.prominence(of: p, in: x) - (x[p] - base)) < 1e-12)
            }
        }
    }
}
