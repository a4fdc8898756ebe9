import Testing
import CMotusKernels
import MotusTestSupport
import MotusCore
@testable import MotusFeatures

private func bits(_ x: [Double]) -> [UInt64] { x.map(\.bitPattern) }

/// Channel-major values of 11 channels that exercise the kernels' edge cases: constant
/// channels (which change how the others are grouped four or two to a transform), tiny and
/// huge scales, an offset far above the spread, quantised values with ties, spikes, noise.
private func edgeSignals(frames: Int, seed: UInt64) -> [Double] {
    var rng = SplitMix64(seed: seed)
    var out: [Double] = []
    for c in 0..<11 {
        let f = 0.3 + 4 * rng.uniform()
        for i in 0..<frames {
            let t = Double(i) / 50
            let v: Double
            switch (c + Int(seed)) % 11 {
            case 0: v = 9.81                                                    // constant
            case 1: v = Math.sin(2 * Double.pi * f * t) + 0.1 * rng.gaussian()
            case 2: v = 1e-200 * rng.gaussian()
            case 3: v = 1e200 * Math.sin(2 * Double.pi * f * t)
            case 4: v = 1000 + 1e-6 * rng.gaussian()
            case 5: v = Double(Int(3 * rng.uniform()))
            case 6: v = i % 97 == 13 ? 5 : 0
            case 7: v = i / 64 % 2 == 0 ? 2 : 2 + rng.gaussian()                // constant in every other block
            case 8: v = rng.gaussian()
            case 9: v = -0.0                                                    // constant, negative zero
            default: v = Double(i % 2) - 0.5
            }
            out.append(v)
        }
    }
    return out
}

/// The four-lane (AVX2) kernels against the portable Swift ones they stand for: the same
/// values bit for bit, kernel by kernel and for whole feature matrices.
@Suite(.enabled(if: WideKernels.available, "this processor has no AVX2: only the portable kernels run here"))
struct WideKernelTests {
    @Test func sortingNetworkOfFourEqualsPairs() {
        var rng = SplitMix64(seed: 5)
        for n in [1, 2, 3, 5, 8, 13, 16, 31, 64, 100, 256] {
            let size = Selection.networkSize(n)
            var x: [[Double]] = []
            for lane in 0..<4 {
                var v: [Double] = []
                for i in 0..<n {
                    switch lane {
                    case 2: v.append(i % 4 == 3 ? -0.0 : (i % 4 == 1 ? 0.0 : 1))   // signed zeros: the order of equals, of minima
                    case 3: v.append(Double(i % 3))                    // ties
                    default: v.append(rng.gaussian())
                    }
                }
                x.append(v)
            }
            var w0 = [Double](repeating: .nan, count: n), w1 = w0, w2 = w0, w3 = w0
            var work = [Double](repeating: 0, count: 4 * size), sums = [Double](repeating: .nan, count: 20)
            motus_sort4(x[0], x[1], x[2], x[3], n, size, &w0, &w1, &w2, &w3, &work, &sums)
            let wide = [w0, w1, w2, w3]
            for lane in 0..<4 {
                let s = x[lane].withUnsafeBufferPointer { Kernels.basicSums($0.baseAddress!, n) }
                #expect(bits(Array(sums[(5 * lane)..<(5 * lane + 5)])) == bits([s.0, s.1, s.2, s.3, s.4]), "n=\(n) lane \(lane) block sums")
            }
            var pairWork = [SIMD2<Double>](repeating: .zero, count: size)
            for pair in [0, 2] {
                var a = [Double](repeating: .nan, count: n), b = a
                Selection.sortPair(x[pair], x[pair + 1], n, into: &a, &b, work: &pairWork)
                #expect(bits(wide[pair]) == bits(a) && bits(wide[pair + 1]) == bits(b), "n=\(n) lanes \(pair), \(pair + 1)")
            }
        }
    }

    @Test func quartilesOfSortedBlocksEqualPortable() {
        var rng = SplitMix64(seed: 7)
        for (p, q) in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 5), (4, 4), (7, 9), (8, 8), (13, 13), (32, 32), (64, 64), (64, 1),
                       (1, 64), (100, 100), (128, 128)] {
            for pattern in 0..<7 {
                func value(_ i: Int) -> Double {
                    switch pattern {
                    case 0: return rng.gaussian()
                    case 1: return Double(Int(3 * rng.uniform()))                    // ties across both blocks
                    case 2: return i % 2 == 0 ? 0.0 : -0.0                          // signed zeros
                    case 3: return 5                                                // all equal
                    case 4: return i % 5 == 0 ? .infinity : (i % 7 == 0 ? -.infinity : rng.gaussian())
                    case 5: return i % 4 == 1 ? .nan : rng.gaussian()               // unsorted by NaN: the same count
                    default: return Double(i)                                       // a wholly below b
                    }
                }
                var a = (0..<p).map { value($0) }, b = (0..<q).map { value(p + $0) }
                if pattern != 5 { a.sort(); b.sort() }
                let want = Selection.quartilesOfSorted(a, p, b, q)
                var got = [Double](repeating: 0, count: 3)
                motus_quartiles_sorted(a, p, b, q, &got)
                #expect(bits(got) == bits([want.q25, want.median, want.q75]), "p=\(p) q=\(q) pattern \(pattern)")
                if pattern != 4 && pattern != 5 {          // finite values: numpy's percentiles of both blocks
                    let all = (a + b).sorted()
                    #expect(got == [0.25, 0.5, 0.75].map { Reference.percentile(all, $0) }, "p=\(p) q=\(q) pattern \(pattern)")
                }
            }
        }
    }

    @Test func powerSpectraOfFourEqualPairs() {
        var rng = SplitMix64(seed: 6)
        for m in [2, 4, 8, 16, 32, 64, 128, 256, 512] {
            var fft = PowerSpectrum(size: m)
            for count in Set([m, max(1, m / 2 + 1), max(1, m - 3)]) {
                let x: [[Double]] = (0..<4).map { lane in (0..<m).map { _ in rng.gaussian() * (lane == 1 ? 1e-150 : 3) } }
                let window: [Double] = (0..<m).map { 0.5 - 0.5 * Math.cos(2 * Double.pi * Double($0) / Double(m)) }
                var quad = [Double](repeating: .nan, count: 4 * (m / 2 + 1))
                var work = [Double](repeating: 0, count: fft.quadWorkCount)
                for w in [window, nil] as [[Double]?] {
                    // Packed by the channel pass with no shift (d = x exactly), then transformed.
                    let flat = x[0] + x[1] + x[2] + x[3]
                    let shift = [Double](repeating: 0, count: 4)
                    var moments = [Double](repeating: 0, count: 12), crossings = [Int](repeating: 0, count: 4)
                    flat.withUnsafeBufferPointer { fb in
                        let b = fb.baseAddress!
                        fft.withBitReverse { br in
                            motus_channels4(b, b + m, b + 2 * m, b + 3 * m, count, shift, nil, nil, nil, nil, &moments, &crossings,
                                            w, m / 2, br, &work)
                        }
                    }
                    fft.transformQuad(work: &work, into: &quad)
                    for pair in [0, 2] {
                        var p0 = [Double](repeating: .nan, count: m / 2 + 1), p1 = p0
                        if let w { fft.compute(x[pair], x[pair + 1], window: w, count: count, into: &p0, &p1) }
                        else { fft.compute(x[pair], x[pair + 1], window: nil, count: count, into: &p0, &p1) }
                        let q0 = (0...(m / 2)).map { quad[4 * $0 + pair] }, q1 = (0...(m / 2)).map { quad[4 * $0 + pair + 1] }
                        #expect(bits(q0) == bits(p0) && bits(q1) == bits(p1), "M=\(m) count=\(count) window=\(w != nil) lanes \(pair), \(pair + 1)")
                    }
                }
            }
        }
    }

    @Test func spectrumSummaryOfFourEqualsScalar() {
        var rng = SplitMix64(seed: 7)
        var table = [Double](repeating: 0, count: LogTable.storageCount)
        table.withUnsafeMutableBufferPointer { LogTable.fill($0.baseAddress!) }
        for half in [1, 2, 3, 5, 8, 32, 64, 129] {
            // Lanes: random powers, one with zeros and ties, one all zero, one with subnormals.
            let p: [[Double]] = (0..<4).map { lane in
                (0...half).map { k in
                    switch lane {
                    case 0: return rng.uniform() * 100
                    case 1: return k % 3 == 0 ? 0 : min(Double(k), Double(half / 2 + 1))   // ties in odd and even bins
                    case 2: return 0
                    default: return k % 2 == 0 ? Double.leastNonzeroMagnitude * Double(k) : rng.uniform() * 1e-300
                    }
                }
            }
            var interleaved = [Double](repeating: 0, count: 4 * (half + 1))
            for k in 0...half { for lane in 0..<4 { interleaved[4 * k + lane] = p[lane][k] } }
            var total = [Double](repeating: .nan, count: 4), plogp = total
            var first = [Int](repeating: -1, count: 4)
            motus_spectrum4(interleaved, half, table, &total, &plogp, &first)
            for lane in 0..<4 {
                p[lane].withUnsafeBufferPointer { pp in
                    table.withUnsafeBufferPointer { t in
                        let b = pp.baseAddress!
                        #expect(total[lane].bitPattern == Kernels.sum(b + 1, half).bitPattern, "half=\(half) lane \(lane) total")
                        #expect(plogp[lane].bitPattern == LogTable.sumPLogP(b + 1, half, table: t.baseAddress!).bitPattern,
                                "half=\(half) lane \(lane) Σ P log P")
                        #expect(first[lane] == Kernels.firstMaxIndex(b, from: 1, through: half), "half=\(half) lane \(lane) first max")
                    }
                }
            }
        }
    }

    /// Whole matrices: the full set and the 14 basic features, windows of two hop blocks (the
    /// shared sorted blocks) and others (one whose length is not a multiple of four and whose
    /// transform is zero-padded), 11 channels of benchmark and edge-case signals.
    @Test func featureMatricesEqualPortable() throws {
        var basic = FeatureConfiguration.allChannels
        basic.features = [.mean, .standardDeviation, .minimum, .maximum, .range, .median, .interquartileRange, .rms,
                          .skewness, .kurtosis, .meanCrossingRate, .signalMagnitudeArea, .dominantFrequency, .spectralEntropy]
        basic.correlations = []
        var odd = FeatureConfiguration.allChannels
        odd.windowSeconds = 100 / 50; odd.hopSeconds = 30 / 50
        var short = basic                      // N = 50: a tail after the four-value blocks, zero padding to M = 64
        short.windowSeconds = 50 / 50; short.hopSeconds = 13 / 50
        var timeOnly = basic                   // no spectrum: the channel pass packs nothing
        timeOnly.features.removeAll { $0 == .dominantFrequency || $0 == .spectralEntropy }
        let frames = 64 * 40 + 128
        let inputs = [benchmarkSignal(frames: frames)] + (0..<11).map { edgeSignals(frames: frames, seed: UInt64($0)) }
        for (name, config) in [("all", FeatureConfiguration.allChannels), ("basic", basic), ("100/30", odd), ("basic 50/13", short),
                               ("time only", timeOnly)] {
            for (i, data) in inputs.enumerated() {
                var portable = try FeatureExtractor(configuration: config)
                portable.wideKernels = false
                var wide = try FeatureExtractor(configuration: config)
                wide.wideKernels = true
                let a = portable.extract(channelMajor: data, frameCount: frames), b = wide.extract(channelMajor: data, frameCount: frames)
                #expect(a.rows > 0 && bits(a.values) == bits(b.values), "\(name), input \(i)")
                if bits(a.values) != bits(b.values), let j = a.values.indices.first(where: { a.values[$0].bitPattern != b.values[$0].bitPattern }) {
                    Issue.record("first difference: \(a.names[j % a.columns]) window \(j / a.columns): \(a.values[j]) vs \(b.values[j])")
                }
            }
        }
    }
}
