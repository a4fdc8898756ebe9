import MotusCore
import MotusSignal

/// The per-window feature kernel that both extractors run (one code path for batch and live).
///
/// All buffers are allocated at init; `compute` allocates nothing. It reads channel c of the
/// window at `base + c × stride`, N contiguous values, and writes `featureCount` values.
///
/// Per channel: one pass for sum, Σx², Σ|x|, min, max; one pass for the centred moments and
/// mean crossings (branch-free), keeping x − mean for the later steps; quartiles by value
/// buckets (`Selection.quartilesBucketed`); the autocorrelation directly over the lag range
/// (O(N × lags), eight lags per pass over the data; cheaper than two zero-padded FFTs at
/// N = 128 on baseline x86-64); the spectrum with `PowerSpectrum` and an inline log.
/// Definitions of every value are in `Feature`.
struct WindowKernel: Sendable {
    let configuration: FeatureConfiguration
    let n: Int
    let fftLength: Int
    let rate: Double
    let channelCount: Int
    let valuesPerChannel: Int
    let needSort: Bool, needSpectrum: Bool, needACF: Bool
    let lagLo: Int, lagHi: Int          // lagHi < lagLo: no lag range
    let bandCount: Int
    let correlationIndices: [(Int, Int)]
    let features: [Feature]

    var fft: PowerSpectrum
    var hann: [Double]                  // N
    var bandOfBin: [Int]                // bins 0…M/2; −1 = in no band
    var centered: [Double]              // C × (N + zeroPad): x − mean per channel, then zeros
    /// Zeros after each centred channel, so the autocorrelation's vector loop can run past
    /// the end of the shorter lags (products with zeros add exactly nothing).
    static let zeroPad = 16
    var energy: [Double]                // C: Σ (x − mean)²
    var isConstant: [Bool]              // C
    var sorted: [Double]                // 2N: values to select in, then partition scratch
    var bucketWork: [Int]               // Selection.bucketIntCount(N)
    var fftInput: [Double]              // M
    var power: [Double]                 // M/2 + 1
    var acf: [Double]                   // N
    var bands: [Double]                 // bandCount

    /// Precondition: `configuration.validate()` passed.
    init(_ configuration: FeatureConfiguration) {
        self.configuration = configuration
        n = configuration.windowLength
        fftLength = configuration.fftLength
        rate = configuration.rateHz
        channelCount = configuration.channels.count
        valuesPerChannel = configuration.valuesPerChannel
        features = configuration.features
        let f = Set(configuration.features)
        needSort = f.contains(.median) || f.contains(.interquartileRange)
        needSpectrum = f.contains(.dominantFrequency) || f.contains(.bandEnergy) || f.contains(.spectralEntropy)
        needACF = f.contains(.autocorrelationPeak) || f.contains(.autocorrelationLag)
        if let r = configuration.lagRange { lagLo = r.lowerBound; lagHi = r.upperBound } else { lagLo = 1; lagHi = 0 }
        bandCount = f.contains(.bandEnergy) ? configuration.bandCount : 0
        correlationIndices = configuration.correlations.map {
            (configuration.channels.firstIndex(of: $0.first)!, configuration.channels.firstIndex(of: $0.second)!)
        }
        fft = PowerSpectrum(size: fftLength)
        hann = Window.hann(n)
        let half = fftLength / 2
        var bob = [Int](repeating: -1, count: half + 1)
        if bandCount > 0 {
            let edges = configuration.bandEdgesHz
            for k in 1...half {
                let fk = Double(k) * rate / Double(fftLength)
                for b in 0..<bandCount {
                    let last = b == bandCount - 1
                    if fk >= edges[b] && (fk < edges[b + 1] || (last && fk == edges[b + 1])) { bob[k] = b; break }
                }
            }
        }
        bandOfBin = bob
        centered = [Double](repeating: 0, count: channelCount * (n + Self.zeroPad))
        energy = [Double](repeating: 0, count: channelCount)
        isConstant = [Bool](repeating: false, count: channelCount)
        sorted = [Double](repeating: 0, count: 2 * n)
        bucketWork = [Int](repeating: 0, count: Selection.bucketIntCount(n))
        fftInput = [Double](repeating: 0, count: fftLength)
        power = [Double](repeating: 0, count: half + 1)
        acf = [Double](repeating: 0, count: n)
        bands = [Double](repeating: 0, count: max(1, bandCount))
    }

    var featureCount: Int { channelCount * valuesPerChannel + correlationIndices.count }

    /// Features of one window: channel c is `base[c × stride ..< c × stride + N]`.
    mutating func compute(base: UnsafePointer<Double>, stride: Int, into out: UnsafeMutablePointer<Double>) {
        for c in 0..<channelCount {
            computeChannel(c, base + c * stride, out + c * valuesPerChannel)
        }
        var o = out + channelCount * valuesPerChannel
        centered.withUnsafeBufferPointer { cp in
            let d = cp.baseAddress!
            for (a, b) in correlationIndices {
                if isConstant[a] || isConstant[b] { o.pointee = 0 }
                else {
                    let pa = d + a * (n + Self.zeroPad), pb = d + b * (n + Self.zeroPad)
                    var s0 = 0.0, s1 = 0.0
                    var i = 0
                    while i + 1 < n { s0 += pa[i] * pb[i]; s1 += pa[i + 1] * pb[i + 1]; i += 2 }
                    if i < n { s0 += pa[i] * pb[i] }
                    let r = (s0 + s1) / (energy[a] * energy[b]).squareRoot()
                    o.pointee = min(1, max(-1, r))
                }
                o += 1
            }
        }
    }

    private mutating func computeChannel(_ c: Int, _ x: UnsafePointer<Double>, _ out: UnsafeMutablePointer<Double>) {
        let n = self.n
        let fn = Double(n)
        // Pass 1: sum, Σx², Σ|x|, min, max.
        var sum = 0.0, sumSq = 0.0, sumAbs = 0.0
        var lo = x[0], hi = x[0]
        for i in 0..<n {
            let v = x[i]
            sum += v; sumSq += v * v; sumAbs += abs(v)
            lo = v < lo ? v : lo; hi = v > hi ? v : hi
        }
        let mean = sum / fn
        let constant = lo == hi
        // Pass 2: centred moments and mean crossings.
        var m2 = 0.0, m3 = 0.0, m4 = 0.0
        var crossings = 0
        centered.withUnsafeMutableBufferPointer { cb in
            let d = cb.baseAddress! + c * (n + Self.zeroPad)
            let shift = constant ? x[0] : mean
            var prevNeg = x[0] - shift < 0
            for i in 0..<n {
                let e = x[i] - shift
                d[i] = e
                let e2 = e * e
                m2 += e2; m3 += e2 * e; m4 += e2 * e2
                let neg = e < 0
                crossings &+= Int(unsafeBitCast(neg != prevNeg, to: UInt8.self))   // branch-free
                prevNeg = neg
            }
        }
        energy[c] = m2
        isConstant[c] = constant
        let variance = m2 / fn
        let std = variance.squareRoot()
        let skew = constant ? 0 : (m3 / fn) / (variance * std)
        let kurt = constant ? 0 : (m4 / fn) / (variance * variance) - 3

        var median = 0.0, iqr = 0.0
        if needSort {
            sorted.withUnsafeMutableBufferPointer { sb in
                bucketWork.withUnsafeMutableBufferPointer { wb in
                    let s = sb.baseAddress!
                    let q = Selection.quartilesBucketed(x, n, lo: lo, hi: hi, t: s, work: s + n, ints: wb.baseAddress!)
                    median = q.median
                    iqr = q.q75 - q.q25
                }
            }
        }

        var acfPeak = 0.0, acfLag = 0.0
        if needACF && !constant && lagHi >= lagLo {
            (acfPeak, acfLag) = autocorrelationPeak(c, m2)
        }

        var domFreq = 0.0, entropy = 0.0
        if needSpectrum {
            for b in 0..<bandCount { bands[b] = 0 }
            if !constant { (domFreq, entropy) = spectrum(c) }
        }

        var o = out
        for f in features {
            switch f {
            case .mean: o.pointee = mean
            case .standardDeviation: o.pointee = std
            case .minimum: o.pointee = lo
            case .maximum: o.pointee = hi
            case .range: o.pointee = hi - lo
            case .median: o.pointee = median
            case .interquartileRange: o.pointee = iqr
            case .rms: o.pointee = (sumSq / fn).squareRoot()
            case .skewness: o.pointee = skew
            case .kurtosis: o.pointee = kurt
            case .meanCrossingRate: o.pointee = Double(crossings) / Double(n - 1)
            case .signalMagnitudeArea: o.pointee = sumAbs / fn
            case .autocorrelationPeak: o.pointee = acfPeak
            case .autocorrelationLag: o.pointee = acfLag
            case .dominantFrequency: o.pointee = domFreq
            case .bandEnergy:
                for b in 0..<bandCount { o[b] = bands[b] }
                o += bandCount - 1
            case .spectralEntropy: o.pointee = entropy
            }
            o += 1
        }
    }

    /// Highest local maximum of the normalised autocorrelation in [lagLo, lagHi]; (0, 0) if none.
    private mutating func autocorrelationPeak(_ c: Int, _ m2: Double) -> (Double, Double) {
        let n = self.n
        let kFrom = lagLo - 1, kTo = min(n - 1, lagHi + 1)   // neighbours for the local-max test
        let lagLo = self.lagLo, lagHi = self.lagHi
        return centered.withUnsafeBufferPointer { cb in
            acf.withUnsafeMutableBufferPointer { ab in
                let d = cb.baseAddress! + c * (n + Self.zeroPad)
                let r = ab.baseAddress!
                Kernels.autocorrelation(d, n, kFrom, kTo, into: r)
                let inv = 1 / m2
                for k in kFrom...kTo { r[k] *= inv }
                var best = 0.0, bestLag = 0
                for k in lagLo...lagHi {
                    let v = r[k]
                    if v > r[k - 1] && (k == kTo || v >= r[k + 1]) && (bestLag == 0 || v > best) {
                        best = v; bestLag = k
                    }
                }
                return bestLag == 0 ? (0, 0) : (best, Double(bestLag) / rate)
            }
        }
    }

    /// Power spectrum of the Hann-windowed, mean-removed window; fills `bands`, returns
    /// (dominant frequency, normalised entropy).
    private mutating func spectrum(_ c: Int) -> (Double, Double) {
        let n = self.n, m = fftLength, half = m / 2
        centered.withUnsafeBufferPointer { cb in
            hann.withUnsafeBufferPointer { hb in
                fftInput.withUnsafeMutableBufferPointer { ib in
                    let d = cb.baseAddress! + c * (n + Self.zeroPad), w = hb.baseAddress!, p = ib.baseAddress!
                    for i in 0..<n { p[i] = d[i] * w[i] }
                    for i in n..<m { p[i] = 0 }
                }
            }
        }
        fftInput.withUnsafeBufferPointer { ib in
            power.withUnsafeMutableBufferPointer { pb in fft.compute(ib.baseAddress!, into: pb.baseAddress!) }
        }
        return power.withUnsafeBufferPointer { pb in
                bandOfBin.withUnsafeBufferPointer { bb in
                    bands.withUnsafeMutableBufferPointer { eb in
                        let p = pb.baseAddress!, bob = bb.baseAddress!, e = eb.baseAddress!
                        var total = 0.0, best = 0.0, bestK = 1
                        for k in 1...half {
                            let pk = p[k]
                            total += pk
                            if pk > best { best = pk; bestK = k }
                            let b = bob[k]
                            if b >= 0 { e[b] += pk }
                        }
                        guard total > 0 else {
                            for b in 0..<bandCount { e[b] = 0 }
                            return (0, 0)
                        }
                        let inv = 1 / total
                        for b in 0..<bandCount { e[b] *= inv }
                        // Entropy: −Σ p log p with p = P/T, = log T − Σ P log P / T.
                        var s = 0.0
                        // Two bins at a time; P = 0 contributes 0 (its log is taken of a tiny
                        // positive instead, and multiplied by 0).
                        var acc = SIMD2<Double>()
                        var k = 1
                        let tiny = SIMD2<Double>(repeating: 1e-300)
                        while k + 1 <= half {
                            let v = SIMD2<Double>(p[k], p[k + 1])
                            acc += v * Kernels.log(v.replacing(with: tiny, where: v .< tiny))
                            k += 2
                        }
                        s = acc[0] + acc[1]
                        if k <= half && p[k] > 0 { s += p[k] * Kernels.log(p[k]) }
                        let h = Math.log(total) - s * inv
                        let entropy = half > 1 ? max(0, h / Math.log(Double(half))) : 0
                        // Parabolic refinement of the peak bin.
                        var delta = 0.0
                        if bestK > 1 && bestK < half {
                            let a = p[bestK - 1], b = p[bestK], cc = p[bestK + 1]
                            let den = a - 2 * b + cc
                            if den < 0 { delta = 0.5 * (a - cc) / den }
                        }
                        return ((Double(bestK) + delta) * rate / Double(m), entropy)
                    }
                }
            }
    }
}

/// Small numeric helpers on raw pointers.
enum Kernels {
    /// r[k] = Σ_{i < n − k} d[i] d[i + k] for k in kFrom...kTo (unnormalised). Eight lags at a
    /// time share each load of d[i] (two-lane vectors, eight accumulators), all over the range
    /// of the block's shortest lag: `d[n ..< n + 8]` must be zero, so the longer lags' extra
    /// products are exact zeros. O(n × lags).
    static func autocorrelation(_ d: UnsafePointer<Double>, _ n: Int, _ kFrom: Int, _ kTo: Int, into r: UnsafeMutablePointer<Double>) {
        let rd = UnsafeRawPointer(d)
        @inline(__always) func load(_ i: Int) -> SIMD2<Double> { rd.loadUnaligned(fromByteOffset: i &* 8, as: SIMD2<Double>.self) }
        var k = kFrom
        while k + 7 <= kTo {
            let count = n - k                // pairs of lag k; i + 1 + k + 7 ≤ n + 7 stays in the zeros
            var s0 = SIMD2<Double>(), s1 = SIMD2<Double>(), s2 = SIMD2<Double>(), s3 = SIMD2<Double>()
            var s4 = SIMD2<Double>(), s5 = SIMD2<Double>(), s6 = SIMD2<Double>(), s7 = SIMD2<Double>()
            var i = 0
            while i < count {
                let x = load(i)
                let b = i &+ k
                s0 += x * load(b); s1 += x * load(b &+ 1); s2 += x * load(b &+ 2); s3 += x * load(b &+ 3)
                s4 += x * load(b &+ 4); s5 += x * load(b &+ 5); s6 += x * load(b &+ 6); s7 += x * load(b &+ 7)
                i += 2
            }
            r[k] = s0[0] + s0[1]; r[k + 1] = s1[0] + s1[1]; r[k + 2] = s2[0] + s2[1]; r[k + 3] = s3[0] + s3[1]
            r[k + 4] = s4[0] + s4[1]; r[k + 5] = s5[0] + s5[1]; r[k + 6] = s6[0] + s6[1]; r[k + 7] = s7[0] + s7[1]
            k += 8
        }
        while k <= kTo { r[k] = dot(d, d + k, n - k); k += 1 }
    }

    /// Natural logarithm without a library call, for x > 0 finite (subnormals and other
    /// inputs go to `Math.log`): x = 2^e m with m in [√½, √2), log m = 2 atanh(s),
    /// s = (m − 1)/(m + 1), |s| ≤ 0.172, by its series to s²¹ (truncation < 3e-17 relative).
    /// Agrees with the C library to a few units in the last place.
    @inline(__always)
    static func log(_ x: Double) -> Double {
        guard x >= 2.2250738585072014e-308 && x < .infinity else { return Math.log(x) }
        let bits = x.bitPattern
        var e = Int((bits >> 52) & 0x7ff) - 1023
        var m = Double(bitPattern: (bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000)
        if m > 1.4142135623730951 { m *= 0.5; e += 1 }
        let s = (m - 1) / (m + 1), z = s * s
        var p = 1.0 / 21
        p = p * z + 1.0 / 19; p = p * z + 1.0 / 17; p = p * z + 1.0 / 15; p = p * z + 1.0 / 13
        p = p * z + 1.0 / 11; p = p * z + 1.0 / 9; p = p * z + 1.0 / 7; p = p * z + 1.0 / 5; p = p * z + 1.0 / 3
        let logM = 2 * s + 2 * s * (z * p)
        // ln 2 split in a high part with trailing zeros (exact product with e) and a low part.
        return Double(e) * 0.6931471805598903 + (Double(e) * 5.497923018708371e-14 + logM)
    }

    /// `log` of two positive, finite, normal values at once (the same series, evaluated by
    /// Estrin's scheme so the lanes and terms run in parallel).
    @inline(__always)
    static func log(_ x: SIMD2<Double>) -> SIMD2<Double> {
        let bits = unsafeBitCast(x, to: SIMD2<UInt64>.self)
        let expo = SIMD2<Int64>(truncatingIfNeeded: (bits &>> 52) & 0x7ff) &- 1023
        var m = unsafeBitCast((bits & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000, to: SIMD2<Double>.self)
        var e = SIMD2<Double>(Double(expo[0]), Double(expo[1]))
        let big = m .> 1.4142135623730951
        m.replace(with: m * 0.5, where: big)
        e.replace(with: e + 1, where: big)
        let s = (m - 1) / (m + 1), z = s * s
        let z2 = z * z, z4 = z2 * z2, z8 = z4 * z4
        let a0 = 1.0 / 3 + z * (1.0 / 5), a1 = 1.0 / 7 + z * (1.0 / 9), a2 = 1.0 / 11 + z * (1.0 / 13)
        let a3 = 1.0 / 15 + z * (1.0 / 17), a4 = 1.0 / 19 + z * (1.0 / 21)
        let p = (a0 + z2 * a1) + z4 * (a2 + z2 * a3) + z8 * a4
        let logM = 2 * s + 2 * s * (z * p)
        return e * 0.6931471805598903 + (e * 5.497923018708371e-14 + logM)
    }

    /// Σ a[i] b[i], i < count: two-lane vectors, four independent accumulators.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ count: Int) -> Double {
        let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
        var s0 = SIMD2<Double>(), s1 = SIMD2<Double>(), s2 = SIMD2<Double>(), s3 = SIMD2<Double>()
        var i = 0
        while i + 8 <= count {
            let o = i &* 8
            s0 += ra.loadUnaligned(fromByteOffset: o, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: o, as: SIMD2<Double>.self)
            s1 += ra.loadUnaligned(fromByteOffset: o + 16, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: o + 16, as: SIMD2<Double>.self)
            s2 += ra.loadUnaligned(fromByteOffset: o + 32, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: o + 32, as: SIMD2<Double>.self)
            s3 += ra.loadUnaligned(fromByteOffset: o + 48, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: o + 48, as: SIMD2<Double>.self)
            i += 8
        }
        var s = (s0 + s1) + (s2 + s3)
        while i + 2 <= count {
            s += ra.loadUnaligned(fromByteOffset: i &* 8, as: SIMD2<Double>.self) * rb.loadUnaligned(fromByteOffset: i &* 8, as: SIMD2<Double>.self)
            i += 2
        }
        var t = s[0] + s[1]
        while i < count { t += a[i] * b[i]; i += 1 }
        return t
    }
}

/// Order statistics by quickselect with a branch-free partition (no allocation, O(n) expected;
/// sorting 128 random values is dominated by branch mispredictions).
enum Selection {
    /// Rearranges `p[lo..<hi]` so that `p[k]` holds the value a sort would put there, smaller
    /// or equal values before it and greater or equal ones after. `t` is scratch of the same
    /// size as `p`. Precondition: lo ≤ k < hi.
    static func select(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int, _ k: Int) {
        var lo = lo, hi = hi - 1          // inclusive bounds
        while hi - lo >= 16 {
            let a = p[lo], b = p[lo + (hi - lo) >> 1], c = p[hi]
            let pivot = max(min(a, b), min(max(a, b), c))     // median of three
            let l = partition(p, t, lo, hi, pivot, inclusive: false)   // [lo, l) < pivot
            if k < l { hi = l - 1; continue }
            if l > lo { lo = l; continue }
            // The pivot is the range's minimum: split off the values equal to it (ties are
            // common in quantised sensor data), which guarantees progress.
            let e = partition(p, t, l, hi, pivot, inclusive: true)     // [l, e) == pivot (e > l)
            if k < e { return }
            lo = e
        }
        if hi > lo { rankSort(p, t, lo, hi) }
    }

    /// Sorts the few values `p[lo...hi]` without branches on the data: each value's rank is
    /// the count of values before it (ties broken by position), O(m²) compares for m values.
    @inline(__always)
    static func rankSort(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int) {
        for a in lo...hi {
            let v = p[a]
            var rank = 0
            for b in lo..<a { rank &+= Int(unsafeBitCast(p[b] <= v, to: UInt8.self)) }
            for b in (a + 1)..<(hi + 1) { rank &+= Int(unsafeBitCast(p[b] < v, to: UInt8.self)) }
            t[lo + rank] = v
        }
        (p + lo).update(from: t + lo, count: hi - lo + 1)
    }

    /// Branch-free partition of `p[lo...hi]` through `t`: values `< pivot` (or `≤` when
    /// `inclusive`) first, the others after (in reverse order). Returns the end of the first
    /// group. Every value is written at both ends; the later writes leave each slot right.
    @inline(__always)
    static func partition(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ lo: Int, _ hi: Int,
                          _ pivot: Double, inclusive: Bool) -> Int {
        var l = lo, top = hi
        for j in lo...hi {
            let v = p[j]
            t[l] = v; t[top] = v
            let isLeft = inclusive ? v <= pivot : v < pivot
            let step = Int(unsafeBitCast(isLeft, to: UInt8.self))
            l &+= step; top &-= 1 &- step
        }
        (p + lo).update(from: t + lo, count: hi - lo + 1)
        return l
    }

    /// Smallest of `p[lo..<hi]` (hi > lo).
    @inline(__always)
    static func minimum(_ p: UnsafePointer<Double>, _ lo: Int, _ hi: Int) -> Double {
        var m = p[lo]
        for i in (lo + 1)..<max(lo + 1, hi) { let v = p[i]; m = v < m ? v : m }
        return m
    }

    /// numpy-style linear 25th, 50th and 75th percentiles of `p[0..<n]` (reordered). n ≥ 4.
    static func quartiles(_ p: UnsafeMutablePointer<Double>, _ t: UnsafeMutablePointer<Double>, _ n: Int) -> (q25: Double, median: Double, q75: Double) {
        let a = Double(n - 1)
        let h50 = a * 0.5, h25 = a * 0.25, h75 = a * 0.75
        let k50 = Int(h50), k25 = Int(h25), k75 = Int(h75)
        select(p, t, 0, n, k50)
        let v50 = p[k50]
        let median = k50 + 1 < n ? interpolate(v50, minimum(p, k50 + 1, n), h50 - Double(k50)) : v50
        select(p, t, 0, k50, k25)
        let v25 = p[k25]
        let next25 = k25 + 1 == k50 ? v50 : minimum(p, k25 + 1, k50)
        let q25 = interpolate(v25, next25, h25 - Double(k25))
        select(p, t, k50 + 1, n, k75)
        let v75 = p[k75]
        let q75 = k75 + 1 < n ? interpolate(v75, minimum(p, k75 + 1, n), h75 - Double(k75)) : v75
        return (q25, median, q75)
    }

    /// Buckets used by `quartilesBucketed` for n values.
    static func bucketCount(_ n: Int) -> Int { max(8, n / 2) }
    /// Int scratch needed by `quartilesBucketed` for n values.
    static func bucketIntCount(_ n: Int) -> Int { n + 6 * bucketCount(n) + 1 }

    /// The same quartiles as `quartiles`, from `x[0..<n]` (not modified) whose minimum and
    /// maximum are `lo` and `hi`: the values are spread into n/2 equal-width buckets by value
    /// (a counting sort by bucket, branch-free), and only the buckets holding the six order
    /// statistics needed are sorted (branch-free rank sort). When one of those buckets holds
    /// more than 32 values (a concentrated window, e.g. flat with one spike) it falls back to
    /// `quartiles`. Scratch: `t` and `work` n values each, `ints` `bucketIntCount(n)`.
    static func quartilesBucketed(_ x: UnsafePointer<Double>, _ n: Int, lo: Double, hi: Double,
                                  t: UnsafeMutablePointer<Double>, work: UnsafeMutablePointer<Double>,
                                  ints: UnsafeMutablePointer<Int>) -> (q25: Double, median: Double, q75: Double) {
        if !(hi > lo) { return (lo, lo, lo) }
        let buckets = bucketCount(n)
        let scale = Double(buckets) / (hi - lo)
        func fallback() -> (q25: Double, median: Double, q75: Double) {
            work.update(from: x, count: n)
            return quartiles(work, t, n)
        }
        guard scale.isFinite else { return fallback() }
        // Four interleaved histograms and cursor sets (value i uses set i mod 4): in smooth
        // signals neighbours share a bucket, and one counter per bucket would make every
        // increment wait for the previous one through memory.
        let ids = ints, cnt = ints + n, start = cnt + 4 * buckets, flag = start + (buckets + 1)
        for j in 0..<(4 * buckets) { cnt[j] = 0 }
        for i in 0..<n {
            let v = (x[i] - lo) * scale                  // in [0, buckets]; NaN input: last bucket
            let b = v < Double(buckets) ? Int(v) : buckets - 1
            ids[i] = b
            cnt[(i & 3) &* buckets &+ b] &+= 1
        }
        start[0] = 0
        for b in 0..<buckets {
            var offset = start[b]
            for lane in 0..<4 {
                let j = lane &* buckets &+ b
                let c = cnt[j]
                cnt[j] = offset                          // now the lane's write cursor
                offset &+= c
            }
            start[b + 1] = offset
            flag[b] = 0
        }
        for i in 0..<n {
            let j = (i & 3) &* buckets &+ ids[i]
            t[cnt[j]] = x[i]
            cnt[j] &+= 1
        }
        // Sort the bucket holding rank r (once); false when it is too big.
        @inline(__always) func ensure(_ r: Int) -> Bool {
            var a = 0, z = buckets            // largest b with start[b] ≤ r
            while z - a > 1 { let m = (a + z) >> 1; if start[m] <= r { a = m } else { z = m } }
            if flag[a] < 0 { return true }
            let s = start[a], e = start[a + 1]
            if e - s > 32 { return false }
            if e - s > 1 { rankSort(t, work, s, e - 1) }
            flag[a] = -1
            return true
        }
        let h = Double(n - 1)
        let h25 = h * 0.25, h50 = h * 0.5, h75 = h * 0.75
        let k25 = Int(h25), k50 = Int(h50), k75 = Int(h75)
        @inline(__always) func ensurePair(_ k: Int) -> Bool { ensure(k) && (k + 1 >= n || ensure(k + 1)) }
        if !(ensurePair(k25) && ensurePair(k50) && ensurePair(k75)) { return fallback() }
        @inline(__always) func at(_ k: Int, _ f: Double) -> Double { k + 1 < n ? interpolate(t[k], t[k + 1], f) : t[k] }
        return (at(k25, h25 - Double(k25)), at(k50, h50 - Double(k50)), at(k75, h75 - Double(k75)))
    }

    @inline(__always)
    static func interpolate(_ a: Double, _ b: Double, _ f: Double) -> Double { f == 0 ? a : a + f * (b - a) }
}

extension UnsafeMutablePointer where Pointee == Double {
    @inline(__always) func swapAt(_ i: Int, _ j: Int) { let t = self[i]; self[i] = self[j]; self[j] = t }
}
