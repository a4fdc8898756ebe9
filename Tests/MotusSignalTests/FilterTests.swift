import Testing
import MotusTestSupport
import MotusCore
@testable import MotusSignal

func noise(seed: UInt64, count: Int, offset: Double = 0, scale: Double = 1) -> [Double] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in offset + scale * rng.uniform(-1, 1) }
}

@Suite struct RingBufferTests {
    @Test func behavesLikeAnArrayModel() {
        var rng = SplitMix64(seed: 1)
        var ring = RingBuffer(capacity: 7)
        var model: [Double] = []
        for step in 0..<5000 {
            if rng.uniform(0, 1) < 0.75 {
                let x = Double(step)
                let evicted = ring.push(x)
                model.append(x)
                if model.count > 7 { #expect(evicted == model.removeFirst()) } else { #expect(evicted == nil) }
            } else {
                #expect(ring.popFirst() == (model.isEmpty ? nil : model.removeFirst()))
            }
            #expect(ring.count == model.count && ring.array == model)
            #expect(ring.first == model.first && ring.last == model.last)
            #expect(ring.isFull == (model.count == 7))
        }
        ring.removeAll()
        #expect(ring.isEmpty && ring.popFirst() == nil)
    }
}

@Suite struct FilterTests {
    @Test(arguments: [1, 5, 64]) func movingAverageMatchesNaive(window: Int) {
        // Large offset and long run: rounding drift would show without the periodic refresh.
        let x = noise(seed: UInt64(window), count: 200_000, offset: 1e4, scale: 3)
        let y = MovingAverage(window: window).filtered(x)
        var worst = 0.0
        for i in stride(from: 0, to: x.count, by: 97) {
            let lo = max(0, i - window + 1)
            var s = 0.0
            for j in lo...i { s += x[j] }
            worst = max(worst, abs(y[i] - s / Double(i - lo + 1)))
        }
        #expect(worst < 1e-9, "worst \(worst)")
    }

    @Test func firstOrderFiltersMatchNaive() {
        let x = noise(seed: 4, count: 10_000, offset: 9.81)
        let lp = FirstOrderLowPass(cutoffHz: 2, sampleRateHz: 100)
        let rc = 1 / (2 * Double.pi * 2), dt = 0.01
        #expect(abs(lp.alpha - dt / (rc + dt)) < 1e-15)
        let y = lp.filtered(x)
        var ref = x[0]
        var worst = abs(y[0] - ref)
        for i in 1..<x.count { ref = (1 - lp.alpha) * ref + lp.alpha * x[i]; worst = max(worst, abs(y[i] - ref)) }
        #expect(worst < 1e-9)

        let hp = FirstOrderHighPass(cutoffHz: 0.5, sampleRateHz: 100)
        let z = hp.filtered(x)
        var yr = 0.0
        worst = abs(z[0])
        for i in 1..<x.count { yr = hp.alpha * (yr + x[i] - x[i - 1]); worst = max(worst, abs(z[i] - yr)) }
        #expect(worst < 1e-9)
        // A constant decays to zero through the high-pass.
        let c = hp.filtered([Double](repeating: 5, count: 3000))
        #expect(abs(c.last!) < 1e-9)
    }

    @Test func biquadMatchesDirectFormIAndScipy() {
        // Reference coefficients from scipy.signal.butter (1.17.1): butter(2, 5, fs=100),
        // butter(2, 0.5, 'highpass', fs=50), butter(1, [0.5, 3], 'bandpass', fs=100).
        let cases: [(Biquad, [Double], [Double])] = [
            (.butterworthLowPass(cutoffHz: 5, sampleRateHz: 100),
             [0.02008336556421123, 0.04016673112842246, 0.02008336556421123], [-1.5610180758007182, 0.6413515380575631]),
            (.butterworthHighPass(cutoffHz: 0.5, sampleRateHz: 50),
             [0.9565432255568767, -1.9130864511137533, 0.9565432255568767], [-1.911197067426073, 0.9149758348014336]),
            (.butterworthBandPass(lowHz: 0.5, highHz: 3, sampleRateHz: 100),
             [0.07295965726826668, 0, -0.07295965726826668], [-1.8485823721343748, 0.8540806854634666]),
        ]
        let x = noise(seed: 9, count: 20_000, offset: 3)
        for (f, b, a) in cases {
            #expect(abs(f.b0 - b[0]) < 1e-12 && abs(f.b1 - b[1]) < 1e-12 && abs(f.b2 - b[2]) < 1e-12)
            #expect(abs(f.a1 - a[0]) < 1e-12 && abs(f.a2 - a[1]) < 1e-12)
            // Naive direct form I with the same coefficients.
            let y = f.filtered(x)
            var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0, worst = 0.0
            for i in x.indices {
                let r = f.b0 * x[i] + f.b1 * x1 + f.b2 * x2 - f.a1 * y1 - f.a2 * y2
                x2 = x1; x1 = x[i]; y2 = y1; y1 = r
                worst = max(worst, abs(y[i] - r))
            }
            #expect(worst < 1e-9)
        }
    }

    @Test func butterworthResponses() {
        let lp = Biquad.butterworthLowPass(cutoffHz: 3, sampleRateHz: 100)
        #expect(abs(lp.magnitude(atHz: 0, sampleRateHz: 100) - 1) < 1e-12)
        #expect(abs(lp.magnitude(atHz: 3, sampleRateHz: 100) - 0.5.squareRoot()) < 1e-12)
        let bp = Biquad.butterworthBandPass(lowHz: 1, highHz: 4, sampleRateHz: 100)
        #expect(abs(bp.magnitude(atHz: 1, sampleRateHz: 100) - 0.5.squareRoot()) < 1e-12)
        #expect(abs(bp.magnitude(atHz: 4, sampleRateHz: 100) - 0.5.squareRoot()) < 1e-12)
        // Centre: pre-warped geometric mean.
        let k = 200.0
        func tanw(_ f: Double) -> Double { let t = Double.pi * f / 100; return Math.sin(t) / Math.cos(t) }
        let w0 = (k * tanw(1) * k * tanw(4)).squareRoot()
        let t = 2 * Math.atan2(w0 / k, 1)   // back to digital radians
        #expect(abs(bp.magnitude(atHz: t * 100 / (2 * Double.pi), sampleRateHz: 100) - 1) < 1e-12)
        #expect(bp.magnitude(atHz: 0.01, sampleRateHz: 100) < 0.01)
    }

    @Test func primeAndZeroPhase() {
        var lp = Biquad.butterworthLowPass(cutoffHz: 2, sampleRateHz: 100)
        lp.prime(with: 9.81)
        for _ in 0..<50 { #expect(abs(lp.process(9.81) - 9.81) < 1e-12) }
        // A 0.5 Hz sine through a 5 Hz zero-phase low-pass comes out with no delay.
        let x = (0..<2000).map { Math.sin(2 * Double.pi * 0.5 * Double($0) / 100) }
        let y = Biquad.butterworthLowPass(cutoffHz: 5, sampleRateHz: 100).filteredZeroPhase(x)
        let mid = Array(500..<1500)
        #expect(mid.map { abs(y[$0] - x[$0]) }.max()! < 1e-3)
        // Same thing forward only is delayed, so it differs more.
        let z = Biquad.butterworthLowPass(cutoffHz: 5, sampleRateHz: 100).filtered(x)
        #expect(mid.map { abs(z[$0] - x[$0]) }.max()! > 1e-2)
    }
}

@Suite struct FFTTests {
    func naiveDFT(_ x: [Double]) -> ([Double], [Double]) {
        let n = x.count
        var re = [Double](repeating: 0, count: n / 2 + 1), im = re
        for k in 0...(n / 2) {
            for j in 0..<n {
                let a = -2 * Double.pi * Double((k * j) % n) / Double(n)
                re[k] += x[j] * Math.cos(a); im[k] += x[j] * Math.sin(a)
            }
        }
        return (re, im)
    }

    @Test(arguments: [2, 4, 8, 16, 64, 256, 1024]) func matchesNaiveDFT(size: Int) {
        let x = noise(seed: UInt64(size), count: size, offset: 0.5, scale: 10)
        var fft = RealFFT(size: size)
        var re: [Double] = [], im: [Double] = []
        fft.forward(x, real: &re, imag: &im)
        let (rr, ri) = naiveDFT(x)
        #expect(re.count == size / 2 + 1 && fft.binCount == re.count)
        #expect(maxAbsDiff(re, rr) < 1e-9 && maxAbsDiff(im, ri) < 1e-9, "size \(size)")
        #expect(im[0] == 0 && abs(im[size / 2]) < 1e-12)
        // Parseval: Σ x² = (|X0|² + 2 Σ|Xk|² + |X_{N/2}|²) / N.
        var p: [Double] = [], s: [Double] = []
        fft.powerSpectrum(x, into: &p, scratch: &s)
        var e = p[0] + (size > 2 ? 2 * p[1..<(size / 2)].reduce(0, +) : 0) + p[size / 2]
        e /= Double(size)
        #expect(abs(e - x.map { $0 * $0 }.reduce(0, +)) < 1e-9 * e)
    }

    @Test func pureToneLandsInItsBin() {
        let n = 512, fs = 100.0, f = 12.5   // 12.5 Hz = bin 64
        let x = (0..<n).map { Math.cos(2 * Double.pi * f * Double($0) / fs) }
        var fft = RealFFT(size: n)
        var p: [Double] = [], s: [Double] = []
        fft.powerSpectrum(x, into: &p, scratch: &s)
        let peak = p.indices.max { p[$0] < p[$1] }!
        #expect(peak == 64)
        #expect(abs(p[64] - Double(n * n) / 4) < 1e-6)
        #expect(RealFFT.nextPowerOfTwo(300) == 512 && RealFFT.nextPowerOfTwo(1) == 1)
        let w = Window.hann(8)
        #expect(w[0] == 0 && abs(w[4] - 1) < 1e-15 && abs(w[2] - 0.5) < 1e-15)
    }
}
