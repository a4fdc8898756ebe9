import MotusCore
import MotusSignal

/// The per-window feature kernel that both extractors run (one code path for batch and live).
///
/// All buffers are allocated at init; `compute` allocates nothing. It reads channel c of the
/// window at `base + c × stride`, N contiguous values, and writes `featureCount` values.
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

    var fft: RealFFT
    var hann: [Double]                  // N
    var bandOfBin: [Int]                // bins 0…M/2; −1 = in no band
    var centered: [Double]              // C × N: x − mean per channel
    var energy: [Double]                // C: Σ (x − mean)²
    var isConstant: [Bool]              // C
    var sorted: [Double]                // N
    var fftInput: [Double]              // M
    var real: [Double], imag: [Double]  // M/2 + 1
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
        fft = RealFFT(size: fftLength)
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
        centered = [Double](repeating: 0, count: channelCount * n)
        energy = [Double](repeating: 0, count: channelCount)
        isConstant = [Bool](repeating: false, count: channelCount)
        sorted = [Double](repeating: 0, count: n)
        fftInput = [Double](repeating: 0, count: fftLength)
        real = [Double](repeating: 0, count: half + 1)
        imag = [Double](repeating: 0, count: half + 1)
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
                    let pa = d + a * n, pb = d + b * n
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
            lo = min(lo, v); hi = max(hi, v)
        }
        let mean = sum / fn
        let constant = lo == hi
        // Pass 2: centred moments and mean crossings.
        var m2 = 0.0, m3 = 0.0, m4 = 0.0
        var crossings = 0
        centered.withUnsafeMutableBufferPointer { cb in
            let d = cb.baseAddress! + c * n
            var prevNeg = false
            for i in 0..<n {
                let e = constant ? 0 : x[i] - mean
                d[i] = e
                let e2 = e * e
                m2 += e2; m3 += e2 * e; m4 += e2 * e2
                let neg = e < 0
                if i > 0 && neg != prevNeg { crossings += 1 }
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
                let s = sb.baseAddress!
                s.update(from: x, count: n)
                Sorting.sort(s, n)
                median = Sorting.percentileSorted(s, n, 0.5)
                iqr = Sorting.percentileSorted(s, n, 0.75) - Sorting.percentileSorted(s, n, 0.25)
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
                let d = cb.baseAddress! + c * n
                let r = ab.baseAddress!
                let inv = 1 / m2
                for k in kFrom...kTo {
                    r[k] = Kernels.dot(d, d + k, n - k) * inv
                }
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
                    let d = cb.baseAddress! + c * n, w = hb.baseAddress!, p = ib.baseAddress!
                    for i in 0..<n { p[i] = d[i] * w[i] }
                    for i in n..<m { p[i] = 0 }
                }
            }
        }
        fftInput.withUnsafeBufferPointer { ib in
            real.withUnsafeMutableBufferPointer { rb in
                imag.withUnsafeMutableBufferPointer { jb in fft.forward(ib, real: rb, imag: jb) }
            }
        }
        return real.withUnsafeMutableBufferPointer { rb in
            imag.withUnsafeBufferPointer { jb in
                bandOfBin.withUnsafeBufferPointer { bb in
                    bands.withUnsafeMutableBufferPointer { eb in
                        let p = rb.baseAddress!, q = jb.baseAddress!, bob = bb.baseAddress!, e = eb.baseAddress!
                        var total = 0.0, best = 0.0, bestK = 1
                        for k in 1...half {
                            let pk = p[k] * p[k] + q[k] * q[k]
                            p[k] = pk
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
                        for k in 1...half where p[k] > 0 { s += p[k] * Math.log(p[k]) }
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
}

/// Small numeric helpers on raw pointers.
enum Kernels {
    /// Σ a[i] b[i], i < count, with four independent accumulators.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ count: Int) -> Double {
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0
        var i = 0
        while i + 4 <= count {
            s0 += a[i] * b[i]; s1 += a[i + 1] * b[i + 1]
            s2 += a[i + 2] * b[i + 2]; s3 += a[i + 3] * b[i + 3]
            i += 4
        }
        while i < count { s0 += a[i] * b[i]; i += 1 }
        return (s0 + s1) + (s2 + s3)
    }
}

/// In-place sorting of doubles (no allocation) and percentiles of a sorted buffer.
enum Sorting {
    /// Sorts `p[0..<n]` ascending: quicksort with median-of-three pivots, insertion sort below
    /// 16 elements. NaN must not occur.
    static func sort(_ p: UnsafeMutablePointer<Double>, _ n: Int) {
        var lo = 0, hi = n - 1
        // Recurse on the smaller part, loop on the larger: O(log n) stack.
        while hi - lo >= 16 {
            let mid = lo + (hi - lo) / 2
            if p[mid] < p[lo] { p.swapAt(mid, lo) }
            if p[hi] < p[lo] { p.swapAt(hi, lo) }
            if p[hi] < p[mid] { p.swapAt(hi, mid) }
            let pivot = p[mid]
            var i = lo, j = hi
            while i <= j {
                while p[i] < pivot { i += 1 }
                while pivot < p[j] { j -= 1 }
                if i <= j { p.swapAt(i, j); i += 1; j -= 1 }
            }
            if j - lo < hi - i { sort(p + lo, j - lo + 1); lo = i }
            else { sort(p + i, hi - i + 1); hi = j }
        }
        if hi > lo {
            for i in (lo + 1)...hi {
                let v = p[i]
                var j = i - 1
                while j >= lo && p[j] > v { p[j + 1] = p[j]; j -= 1 }
                p[j + 1] = v
            }
        }
    }

    /// numpy's default (linear) percentile of sorted `p[0..<n]`: fractional index (n − 1) q.
    @inline(__always)
    static func percentileSorted(_ p: UnsafePointer<Double>, _ n: Int, _ q: Double) -> Double {
        let h = Double(n - 1) * q
        let i = Int(h)
        let f = h - Double(i)
        if i + 1 >= n { return p[n - 1] }
        return p[i] + f * (p[i + 1] - p[i])
    }
}

extension UnsafeMutablePointer where Pointee == Double {
    @inline(__always) func swapAt(_ i: Int, _ j: Int) { let t = self[i]; self[i] = self[j]; self[j] = t }
}
