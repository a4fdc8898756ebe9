import Testing
import MotusTestSupport
import MotusCore
import MotusSignal
@testable import MotusFeatures

/// A configuration that reads the given raw channels, so channel values are exactly the
/// signals put in (via `extract(channelMajor:)`).
func rawConfiguration(n: Int, hop: Int, rate: Double = 50, channels: [FeatureChannel] = [.accelerationX, .accelerationY, .rotationRateZ],
                      correlations: [ChannelPair]? = nil) -> FeatureConfiguration {
    FeatureConfiguration(rateHz: rate, windowSeconds: Double(n) / rate, hopSeconds: Double(hop) / rate, channels: channels,
                         correlations: correlations ?? [ChannelPair(channels[0], channels[1]), ChannelPair(channels[1], channels[channels.count - 1])])
}

/// Random-ish signals with periodic content, noise and an offset, channel-major.
func testSignals(channels: Int, frames: Int, seed: UInt64) -> [Double] {
    var rng = SplitMix64(seed: seed)
    var out: [Double] = []
    for c in 0..<channels {
        let f = 0.5 + 3 * rng.uniform(), a = 0.5 + rng.uniform(), off = 10 * rng.uniform() - 5
        for i in 0..<frames {
            let t = Double(i) / 50
            out.append(off + a * Math.sin(2 * Double.pi * f * t + Double(c)) + 0.3 * rng.gaussian())
        }
    }
    return out
}

@Suite struct KernelTests {
    @Test(arguments: [128, 50, 100, 64, 37, 200])
    func kernelMatchesNaiveReference(n: Int) throws {
        let config = rawConfiguration(n: n, hop: max(1, n / 3))
        let frames = 3 * n + 7
        let data = testSignals(channels: 3, frames: frames, seed: UInt64(n))
        let m = try FeatureExtractor(configuration: config).extract(channelMajor: data, frameCount: frames, startTime: 2)
        #expect(m.rows == (frames - n) / config.hopLength + 1)
        #expect(m.columns == config.featureNames.count)
        for r in 0..<m.rows {
            let start = r * config.hopLength
            let chans = (0..<3).map { c in Array(data[(c * frames + start)..<(c * frames + start + n)]) }
            let want = Reference.window(chans, configuration: config)
            let got = m.row(r)
            #expect(want.count == got.count)
            for j in got.indices where !close(got[j], want[j]) {
                Issue.record("n=\(n) window \(r) \(m.names[j]): got \(got[j]), want \(want[j])")
            }
            #expect(close(m.startTimes[r], 2 + Double(start) / 50))
            #expect(close(m.endTimes[r] - m.startTimes[r], Double(n) / 50))
        }
    }

    /// Windows of two hop blocks (N = 2H): quartiles from the sorted blocks and Σx, Σx², Σ|x|,
    /// min, max from the blocks' sums, shared by neighbouring windows; against the reference.
    @Test(arguments: [128, 64, 50, 200])
    func blockPathMatchesNaiveReference(n: Int) throws {
        let config = rawConfiguration(n: n, hop: n / 2)
        let frames = 5 * n + 3
        let data = testSignals(channels: 3, frames: frames, seed: UInt64(n) + 100)
        let kernel = WindowKernel(config)
        #expect(kernel.blockLength == n / 2)
        let m = try FeatureExtractor(configuration: config).extract(channelMajor: data, frameCount: frames)
        #expect(m.rows == (frames - n) / (n / 2) + 1)
        for r in 0..<m.rows {
            let start = r * config.hopLength
            let chans = (0..<3).map { c in Array(data[(c * frames + start)..<(c * frames + start + n)]) }
            let want = Reference.window(chans, configuration: config)
            let got = m.row(r)
            for j in got.indices where !close(got[j], want[j]) {
                Issue.record("n=\(n) window \(r) \(m.names[j]): got \(got[j]), want \(want[j])")
            }
        }
    }

    @Test func constantAndDegenerateWindows() throws {
        let n = 64
        let config = rawConfiguration(n: n, hop: n)
        var data = [Double](repeating: 0.1, count: n)          // constant, not exactly summable
        data += (0..<n).map { Double($0 % 2) }                   // alternating 0, 1
        data += (0..<n).map { $0 == 10 ? 5.0 : 0 }              // one spike
        let m = try FeatureExtractor(configuration: config).extract(channelMajor: data, frameCount: n)
        let names = m.names, row = m.row(0)
        func v(_ name: String) -> Double { row[names.firstIndex(of: name)!] }
        #expect(v("accX.std") == 0 && v("accX.skewness") == 0 && v("accX.kurtosis") == 0)
        #expect(v("accX.mcr") == 0 && v("accX.acfPeak") == 0 && v("accX.domFreq") == 0 && v("accX.specEntropy") == 0)
        #expect(v("accX.median") == 0.1 && v("accX.iqr") == 0)
        #expect(v("corr.accX.accY") == 0)
        #expect(v("accY.mcr") == 1)
        #expect(close(v("accY.domFreq"), 25))
        #expect(close(v("accY.median"), 0.5) && close(v("accY.iqr"), 1))
        for (j, x) in row.enumerated() { #expect(x.isFinite, "\(names[j])") }
        let want = Reference.window([Array(data[0..<n]), Array(data[n..<2 * n]), Array(data[2 * n..<3 * n])], configuration: config)
        for j in row.indices { #expect(close(row[j], want[j]), "\(names[j]): \(row[j]) vs \(want[j])") }
    }

    /// Non-finite input (which cleaned, resampled streams never have) gives non-finite or
    /// meaningless features, but must not trap or hang.
    @Test func nonFiniteInputDoesNotTrap() throws {
        let n = 128
        let config = rawConfiguration(n: n, hop: n)
        for bad in [Double.nan, .infinity, -.infinity] {
            var data = testSignals(channels: 3, frames: n, seed: 2)
            data[5] = bad; data[n + 77] = bad
            let m = try FeatureExtractor(configuration: config).extract(channelMajor: data, frameCount: n)
            #expect(m.rows == 1)
            #expect(m.row(0).contains { !$0.isFinite })
        }
    }

    /// Values computed once with numpy 2.4.6 / scipy 1.17.1 and pasted (see
    /// benchmarks/compare/features_numpy.py): x[i] = sin(0.37 i) + 0.4 cos(1.9 i + 0.3) + 0.002 i² − 0.5,
    /// i < 50, at 50 Hz (FFT zero-padded to 64).
    @Test func matchesNumpyAndScipy() throws {
        let x = (0..<50).map { i -> Double in
            let t = Double(i)
            return Math.sin(0.37 * t) + 0.4 * Math.cos(1.9 * t + 0.3) + 0.002 * t * t - 0.5
        }
        let config = rawConfiguration(n: 50, hop: 50, channels: [.accelerationX], correlations: [])
        let m = try FeatureExtractor(configuration: config).extract(channelMajor: x, frameCount: 50)
        // np.mean, np.std, min, max, range, np.median, iqr, rms, scipy.stats.skew, scipy.stats.kurtosis,
        // mcr, sma, acf peak, lag, dominant frequency, 4 bands, entropy.
        let numpy: [Double] = [1.1271341759206188, 1.4865042526838768, -1.353406930751051, 3.907609115702509, 5.26101604645356,
                               0.8087307654179491, 2.5732602843131462, 1.8655096739967616, 0.2767352115522145, -1.0637916832017187,
                               0.10204081632653061, 1.440782234074038, 0.16192447515421796, 0.26, 0.78125, 0.0, 0.6070581757396041,
                               0.3185292265016459, 0.07441259775875009, 0.47736919853624554]
        #expect(m.columns == numpy.count)
        for j in numpy.indices { #expect(close(m[0, j], numpy[j]), "\(m.names[j]): \(m[0, j]) vs numpy \(numpy[j])") }
    }

    /// The benchmark input (same formula as features_numpy.py `generate`), all eleven channels:
    /// some values of the numpy implementation pasted, so the two benchmarks compute the same thing.
    @Test func benchmarkInputMatchesNumpyImplementation() throws {
        let frames = 128 + 64 * 3
        let data = benchmarkSignal(frames: frames)
        let m = try FeatureExtractor(configuration: .allChannels).extract(channelMajor: data, frameCount: frames)
        #expect(m.rows == 4 && m.columns == 228)
        let w0: [Double] = [0.021706635853719902, 0.7583097659141957, -1.292358170808104, 1.3776437925148552, 2.6700019633229592,
                            -0.01456769321151723, 1.3819161946594485, 0.7586203787935889, 0.045904165690873466, -1.2559566170857006,
                            0.08661417322834646, 0.6653775533356963, 0.7649652487976366, 0.28, 0.390625, 0.713352167069984,
                            0.19803061523181115, 4.608393531466168e-07, 0.08861675685885154, 0.21201892386300042]
        let w3c7: [Double] = [1.4162469202296244, 0.7455167683016516, 0.06428598334123459, 2.7355121070152455, 2.671226123674011,
                              1.4370549308289522, 1.3220763172826762, 1.6004844862974568, -0.012301364805910084, -1.2656753364807847,
                              0.14173228346456693, 1.4162469202296244, 0.8331352283173419, 0.3, 3.1555576132693197,
                              0.00014901766438584036, 0.0926940606849433, 0.8164650843321515, 0.09069183731851926, 0.29425062046070166]
        let w3corr: [Double] = [0.03365232234166197, -0.09262324587769853, 0.014384455752814024, -0.009264041043343819,
                                0.014598573321484232, 0.020446820711842187, -0.020924667917085395, 0.012990983883210816]
        // sin() of numpy and glibc may differ in the last bit: 1e-8 relative.
        for j in 0..<20 { #expect(close(m[0, j], w0[j], rel: 1e-8, abs: 1e-11), "\(m.names[j])") }
        for j in 0..<20 { #expect(close(m[3, 140 + j], w3c7[j], rel: 1e-8, abs: 1e-11), "\(m.names[140 + j])") }
        for j in 0..<8 { #expect(close(m[3, 220 + j], w3corr[j], rel: 1e-8, abs: 1e-11), "\(m.names[220 + j])") }
    }

    @Test func powerSpectrumMatchesSignalRealFFT() {
        var rng = SplitMix64(seed: 11)
        for bits in 1...10 {
            let m = 1 << bits
            let x = (0..<m).map { _ in rng.gaussian() + 3 }
            var fft = RealFFT(size: m)
            var want: [Double] = [], scratch: [Double] = []
            fft.powerSpectrum(x, into: &want, scratch: &scratch)
            var ps = PowerSpectrum(size: m)
            var got = [Double](repeating: .nan, count: m / 2 + 1)
            x.withUnsafeBufferPointer { xp in got.withUnsafeMutableBufferPointer { ps.compute(xp.baseAddress!, into: $0.baseAddress!) } }
            let scale = want.max()!
            for k in want.indices { #expect(abs(got[k] - want[k]) <= 1e-12 * scale, "m=\(m) k=\(k): \(got[k]) vs \(want[k])") }
            // Two inputs in one transform (one per lane): each the single transform, bit for bit.
            let y = (0..<m).map { i in Math.sin(0.3 * Double(i)) + 0.1 * rng.gaussian() }
            var got0 = [Double](repeating: .nan, count: m / 2 + 1), got1 = got0, single1 = got0
            x.withUnsafeBufferPointer { xp in y.withUnsafeBufferPointer { yp in
                got0.withUnsafeMutableBufferPointer { g0 in got1.withUnsafeMutableBufferPointer { g1 in
                    ps.compute(xp.baseAddress!, yp.baseAddress!, into: g0.baseAddress!, g1.baseAddress!)
                } }
                single1.withUnsafeMutableBufferPointer { ps.compute(yp.baseAddress!, into: $0.baseAddress!) }
            } }
            #expect(got0 == got && got1 == single1, "pair transform, m=\(m)")
        }
    }

    @Test func fastLogMatchesLibm() {
        var rng = SplitMix64(seed: 12)
        var xs: [Double] = [1, 2, 0.5, 1.4142135623730951, 1.4142135623730954, 0.7071067811865476, 1e-300, 1e300, .leastNonzeroMagnitude, 3, 10]
        for _ in 0..<20000 { xs.append(Math.exp(1400 * rng.uniform() - 700)) }
        for _ in 0..<20000 { xs.append(0.5 + rng.uniform()) }
        for x in xs {
            let want = Math.log(x), got = Kernels.log(x)
            #expect(abs(got - want) <= 4e-16 * max(1, abs(want)), "log(\(x)): \(got) vs \(want)")
            if x >= 2.2250738585072014e-308 {
                let two = Kernels.log(SIMD2(x, 1 / x))
                #expect(abs(two[0] - want) <= 4e-16 * max(1, abs(want)), "log2(\(x)): \(two[0]) vs \(want)")
                #expect(abs(two[1] - Math.log(1 / x)) <= 4e-16 * max(1, abs(want)), "log2(1/\(x))")
            }
        }
    }

    @Test func selectEveryRank() {
        var rng = SplitMix64(seed: 4)
        for n in [1, 2, 17, 40, 128] {
            for k in 0..<n {
                let xs = (0..<n).map { _ in Double(Int(rng.uniform() * Double(n / 3 + 2))) + (k % 2 == 0 ? rng.uniform() : 0) }
                let want = xs.sorted()
                var ys = xs + xs
                ys.withUnsafeMutableBufferPointer { Selection.select($0.baseAddress!, $0.baseAddress! + n, 0, n, k) }
                ys.removeLast(n)
                #expect(ys[k] == want[k], "n=\(n) k=\(k)")
                #expect(ys[..<k].allSatisfy { $0 <= ys[k] } && ys[(k + 1)...].allSatisfy { $0 >= ys[k] })
                #expect(ys.sorted() == want)
            }
        }
    }

    @Test func quartilesBothWays() {
        var rng = SplitMix64(seed: 9)
        for n in [1, 2, 3, 4, 5, 6, 7, 13, 15, 16, 17, 50, 100, 127, 128, 129, 1000] {
            for pattern in 0..<8 {
                let xs = (0..<n).map { i -> Double in
                    switch pattern {
                    case 0: rng.gaussian()
                    case 1: Double(i)
                    case 2: Double(n - i)
                    case 3: Double(Int(rng.uniform() * 4))     // many ties
                    case 4: 1.5                                  // all equal
                    case 5: i == n / 3 ? 1e6 : rng.gaussian()     // one spike: falls back
                    case 6: Math.exp(8 * rng.gaussian())           // heavy tail
                    default: i % 7 == 0 ? -1e-300 : 1e-300 * Double(i)   // tiny range
                    }
                }
                let want = xs.sorted()
                if n >= 4 {
                    var ys = xs + xs
                    let q = ys.withUnsafeMutableBufferPointer { Selection.quartiles($0.baseAddress!, $0.baseAddress! + n, n) }
                    ys.removeLast(n)
                    #expect(q.q25 == Reference.percentile(want, 0.25), "n=\(n) pattern \(pattern)")
                    #expect(q.median == Reference.percentile(want, 0.5), "n=\(n) pattern \(pattern)")
                    #expect(q.q75 == Reference.percentile(want, 0.75), "n=\(n) pattern \(pattern)")
                    #expect(ys.sorted() == want)   // a permutation
                    var scratch = [Double](repeating: .nan, count: 2 * n)
                    var ints = [Int](repeating: -7, count: Selection.bucketIntCount(n))
                    let orig = xs
                    let b = orig.withUnsafeBufferPointer { xp in
                        scratch.withUnsafeMutableBufferPointer { sp in
                            ints.withUnsafeMutableBufferPointer { ip in
                                Selection.quartilesBucketed(xp.baseAddress!, n, lo: want[0], hi: want[n - 1], t: sp.baseAddress!,
                                                            work: sp.baseAddress! + n, ints: ip.baseAddress!)
                            }
                        }
                    }
                    #expect(b.q25 == q.q25 && b.median == q.median && b.q75 == q.q75, "bucketed n=\(n) pattern \(pattern)")
                }
                // Sorted blocks: the bucketed sort against the library sort, then the quartiles
                // of every split into two sorted parts against the reference percentiles.
                var sorted = [Double](repeating: .nan, count: n)
                var sortInts = [Int](repeating: -7, count: Selection.sortIntCount(n))
                xs.withUnsafeBufferPointer { xp in
                    sorted.withUnsafeMutableBufferPointer { sp in
                        sortInts.withUnsafeMutableBufferPointer { Selection.sortBucketed(xp.baseAddress!, n, into: sp.baseAddress!, ints: $0.baseAddress!) }
                    }
                }
                #expect(sorted == want, "sortBucketed n=\(n) pattern \(pattern)")
                // The two-lane sorting network, with a reversed copy in the other lane.
                if n >= 1 {
                    let rev = Array(xs.reversed())
                    var o0 = [Double](repeating: .nan, count: n), o1 = o0
                    var work = [SIMD2<Double>](repeating: .zero, count: Selection.networkSize(n))
                    xs.withUnsafeBufferPointer { xp in rev.withUnsafeBufferPointer { rp in
                        o0.withUnsafeMutableBufferPointer { p0 in o1.withUnsafeMutableBufferPointer { p1 in
                            work.withUnsafeMutableBufferPointer {
                                Selection.sortPair(xp.baseAddress!, rp.baseAddress!, n, into: p0.baseAddress!, p1.baseAddress!,
                                                   work: $0.baseAddress!)
                            }
                        } }
                    } }
                    #expect(o0 == want && o1 == want, "sortPair n=\(n) pattern \(pattern)")
                }
                for p in Set([0, 1, n / 2, n / 3, n - 1, n].filter { $0 >= 0 && $0 <= n }) {
                    let a = Array(xs[..<p]).sorted(), b = Array(xs[p...]).sorted()
                    let q = a.withUnsafeBufferPointer { ap in
                        b.withUnsafeBufferPointer { bp in
                            Selection.quartilesOfSorted(ap.baseAddress ?? UnsafePointer(bitPattern: 8)!, p,
                                                        bp.baseAddress ?? UnsafePointer(bitPattern: 8)!, n - p)
                        }
                    }
                    #expect(q.q25 == Reference.percentile(want, 0.25), "merged n=\(n) split \(p) pattern \(pattern)")
                    #expect(q.median == Reference.percentile(want, 0.5), "merged n=\(n) split \(p) pattern \(pattern)")
                    #expect(q.q75 == Reference.percentile(want, 0.75), "merged n=\(n) split \(p) pattern \(pattern)")
                }
            }
        }
    }
}

/// x[c, i] = sin(0.05 (c+1) i) + 0.3 sin(1.3 i + c) + 0.1 sin(0.001 (c+1) i²) + 0.2 c, channel-major.
func benchmarkSignal(frames: Int, channels: Int = 11) -> [Double] {
    var out = [Double](repeating: 0, count: channels * frames)
    for c in 0..<channels {
        let cc = Double(c)
        for i in 0..<frames {
            let t = Double(i)
            out[c * frames + i] = Math.sin(0.05 * (cc + 1) * t) + 0.3 * Math.sin(1.3 * t + cc) + 0.1 * Math.sin(0.001 * (cc + 1) * t * t) + 0.2 * cc
        }
    }
    return out
}

@Suite struct FastPathTests {
    /// The spectral entropy's table log against the C library's.
    @Test func tableLogMatchesLibm() {
        var table = [Double](repeating: 0, count: LogTable.storageCount)
        table.withUnsafeMutableBufferPointer { LogTable.fill($0.baseAddress!) }
        var rng = SplitMix64(seed: 21)
        var xs: [Double] = [1, 2, 0.5, 1.0078125, 1.9999999999999998, 1 + 0x1p-52, 1 - 0x1p-53, 2.2250738585072014e-308, 1.7976931348623157e308, 3, 10]
        for _ in 0..<20000 { xs.append(Math.exp(1400 * rng.uniform() - 700)) }
        for _ in 0..<20000 { xs.append(0.5 + rng.uniform()) }
        table.withUnsafeBufferPointer { t in
            for x in xs {
                let want = Math.log(x), got = LogTable.log(x, table: t.baseAddress!)
                #expect(abs(got - want) <= 4e-16 * max(1, abs(want)), "log(\(x)): \(got) vs \(want)")
            }
            // Σ p log p, zeros adding nothing, against the obvious loop.
            let p: [Double] = (0..<65).map { i in i % 9 == 0 ? 0 : Math.exp(30 * rng.uniform() - 20) }
            let want = p.reduce(0.0) { $0 + ($1 > 0 ? $1 * Math.log($1) : 0) }
            let got = p.withUnsafeBufferPointer { LogTable.sumPLogP($0.baseAddress!, p.count, table: t.baseAddress!) }
            #expect(abs(got - want) <= 1e-13 * p.reduce(0.0) { $0 + abs($1 * Math.log(max($1, 1e-300))) })
        }
    }

    /// The screened autocorrelation peak is exactly the all-double-precision one: same lag,
    /// same value bit for bit, over signals with flat, periodic, noisy, tied and quantised ACFs.
    @Test func screenedAutocorrelationPeakIsExact() throws {
        var rng = SplitMix64(seed: 31)
        for n in [16, 37, 64, 128, 200] {
            let config = rawConfiguration(n: n, hop: n, channels: [.accelerationX], correlations: [])
            let lags = try #require(config.lagRange)
            for pattern in 0..<10 {
                for trial in 0..<40 {
                    let f = 0.3 + 4 * rng.uniform()
                    let x: [Double] = (0..<n).map { i in
                        let t = Double(i) / 50
                        switch pattern {
                        case 0: return rng.gaussian()
                        case 1: return Math.sin(2 * Double.pi * f * t)                       // clean tone: near-ties at the peak
                        case 2: return Math.sin(2 * Double.pi * f * t) + 0.01 * rng.gaussian()
                        case 3: return Double(Int(3 * rng.uniform()))                        // quantised: exact ties
                        case 4: return Double(i % (2 + trial % 7))                           // sawtooth: many equal lags
                        case 5: return i == n / 2 ? 1 : 0                                    // single spike
                        case 6: return 1e-200 * rng.gaussian()                                 // tiny scale
                        case 7: return 1e200 * Math.sin(2 * Double.pi * f * t)               // huge scale
                        case 8: return 1000 + 1e-6 * rng.gaussian()                            // offset ≫ spread
                        default: return Double(i % 2) + 1e-9 * Double(i)                     // alternating
                        }
                    }
                    var kernel = WindowKernel(config)
                    var out = [Double](repeating: 0, count: config.featureCount)
                    x.withUnsafeBufferPointer { xp in out.withUnsafeMutableBufferPointer { kernel.compute(base: xp.baseAddress!, stride: n, into: $0.baseAddress!) } }
                    let names = config.featureNames
                    let peak = out[names.firstIndex(of: "accX.acfPeak")!], lag = out[names.firstIndex(of: "accX.acfLag")!]
                    // All lags in double precision, with the same sums the kernel settles with.
                    // Centred as the kernel centres (its vectorised mean).
                    var d = [Double](repeating: 0, count: n + WindowKernel.zeroPad)
                    let (sum, _, _, lo, hi) = x.withUnsafeBufferPointer { Kernels.basicSums($0.baseAddress!, n) }
                    let m2 = x.withUnsafeBufferPointer { xp in d.withUnsafeMutableBufferPointer {
                        Kernels.centeredMoments(xp.baseAddress!, n, shift: lo == hi ? x[0] : sum / Double(n), into: $0.baseAddress!).0 } }
                    var wantPeak = 0.0, wantLag = 0
                    if lo != hi {
                        let r: [Double] = (0..<n).map { k in d.withUnsafeBufferPointer { Kernels.dot($0.baseAddress!, $0.baseAddress! + k, n - k) } * (1 / m2) }
                        for k in lags where r[k] > r[k - 1] && r[k] >= r[k + 1] && (wantLag == 0 || r[k] > wantPeak) { wantPeak = r[k]; wantLag = k }
                    }
                    #expect(peak == wantPeak && lag == Double(wantLag) / 50, "n=\(n) pattern \(pattern) trial \(trial): \(peak)@\(lag) vs \(wantPeak)@\(Double(wantLag) / 50)")
                }
            }
        }
    }

    /// Batch extraction on several threads gives the same matrix bit for bit.
    @Test func threadsDoNotChangeValues() throws {
        let frames = 64 * 300 + 128
        let data = benchmarkSignal(frames: frames)
        let one = try FeatureExtractor(configuration: .allChannels).extract(channelMajor: data, frameCount: frames, startTime: 1)
        for t in [2, 3, 7] {
            let many = try FeatureExtractor(configuration: .allChannels, threadCount: t).extract(channelMajor: data, frameCount: frames, startTime: 1)
            #expect(many == one, "threads \(t)")
        }
        #expect(one.rows == 301)
    }
}
