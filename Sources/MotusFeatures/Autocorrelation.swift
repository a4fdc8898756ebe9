// The autocorrelation features of `WindowKernel` (peak and lag) and the single-precision
// screen they start from.

extension WindowKernel {
    /// Highest local maximum of the normalised autocorrelation r(k) = Σ dᵢ dᵢ₊ₖ / m2 in
    /// [lagLo, lagHi]; (0, 0) if none. `d` is the centred window followed by `zeroPad` zeros.
    ///
    /// The exact answer is the one the double-precision sums `Kernels.dot(d, d + k, N − k) / m2`
    /// give. All lags are first screened in single precision on d / std (so Σ values² = N and
    /// nothing overflows), with a proven bound ε on |r̃(k) − r(k)|: a comparison between lags
    /// whose screened values differ by more than 2ε is decided by the screen; any other is
    /// decided by the double-precision values of both lags. Among the peaks, those within 2ε
    /// of the screened maximum get their double-precision values, and the first largest wins;
    /// its value is the double-precision one. So the result is exactly that of evaluating every
    /// lag in double precision, while most lags are only ever evaluated in single precision
    /// (twice the lanes per vector). Windows whose scale does not fit single precision take
    /// the double-precision path for every lag.
    mutating func autocorrelationPeak(_ d: UnsafePointer<Double>, _ m2: Double) -> (Double, Double) {
        let n = self.n
        let kFrom = lagLo - 1, kTo = min(n - 1, lagHi + 1)   // neighbours for the local-max test
        let lagLo = self.lagLo, lagHi = self.lagHi
        let exact = buffers.doubles + oExact
        let inv = 1 / m2
        let scale = (Double(n) / m2).squareRoot()
        guard m2.isFinite && scale.isFinite && scale > 0 && scale < 1e30 && 1 / scale < 1e30 else {
            // Every lag in double precision.
            for k in kFrom...kTo { exact[k] = Kernels.dot(d, d + k, n - k) * inv }
            var best = 0.0, bestLag = 0
            for k in lagLo...lagHi {
                let v = exact[k]
                if v > exact[k - 1] && (k == kTo || v >= exact[k + 1]) && (bestLag == 0 || v > best) { best = v; bestLag = k }
            }
            return bestLag == 0 ? (0, 0) : (best, Double(bestLag) / rate)
        }
        let f = buffers.floats + oScaled, a = buffers.floats + oApprox
        for i in 0..<n { f[i] = Float(d[i] * scale) }
        for i in n..<(n + 16) { f[i] = 0 }
        Kernels.autocorrelationSingle(f, n, kFrom, kTo, into: a)
        // Bound on |a[k] / N − r(k)|: rounding d / std to single precision (2u per product),
        // the product (u) and at most N/4 + 6 additions per lane and across lanes, each
        // relative to Σ|dᵢ dᵢ₊ₖ| / m2 ≤ 1 (Cauchy–Schwarz); u = 2⁻²⁴. Doubled for margin, plus
        // the double-precision sums' own error.
        // The screened differences a[k] − a[k − 1] are rounded once more (≤ 2u relative to N).
        let eps = 2 * (Double(n / 4) + 12) * 0x1p-24 + Double(n) * 0x1p-51
        for k in kFrom...kTo { exact[k] = .nan }
        @inline(__always) func exactAt(_ k: Int) -> Double {
            var v = exact[k]
            if v.isNaN { v = Kernels.dot(d, d + k, n - k) * inv; exact[k] = v }
            return v
        }
        // rise[k] = r(k) > r(k − 1) for k in lagLo ... lagHi + 1: 1 or 0 when the screen
        // decides it, 2 when undecided (then settled in double precision).
        let threshold = Float(2 * eps * Double(n))
        // Usual case first: every comparison decided by the screen. One vectorised pass gives
        // each lag's screened value if it is a peak (else −∞) into `f` (free after the screen)
        // and their maximum; any undecided comparison sends the window to the general path.
        do {
            typealias F4 = SIMD4<Float>
            let thr = F4(repeating: threshold), ninf = F4(repeating: -.infinity)
            let absMask = SIMD4<UInt32>(repeating: 0x7fff_ffff)
            let ra = UnsafeRawPointer(a), rf = UnsafeMutableRawPointer(f)
            @inline(__always) func load(_ i: Int) -> F4 { ra.loadUnaligned(fromByteOffset: i &* 4, as: F4.self) }
            var unsure = SIMDMask<SIMD4<Int32>>(repeating: false)
            var topV = ninf
            var k = lagLo
            while k &+ 3 <= lagHi {
                let prev = load(k &- 1), cur = load(k), next = load(k &+ 1)
                let dPrev = cur - prev, dNext = next - cur
                let absPrev = unsafeBitCast(unsafeBitCast(dPrev, to: SIMD4<UInt32>.self) & absMask, to: F4.self)
                unsure = unsure .| .!(absPrev .> thr)
                let isPeak = (dPrev .> thr) .& .!(dNext .> thr)
                let cand = ninf.replacing(with: cur, where: isPeak)
                rf.storeBytes(of: cand, toByteOffset: k &* 4, as: F4.self)
                topV = topV.replacing(with: cand, where: cand .> topV)
                k &+= 4
            }
            var top = topV.max()
            var undecided = any(unsure)
            while k <= lagHi {
                let dPrev = a[k] - a[k &- 1], dNext = a[k &+ 1] - a[k]
                undecided = undecided || !(abs(dPrev) > threshold)
                let cand = dPrev > threshold && !(dNext > threshold) ? a[k] : -Float.infinity
                f[k] = cand
                top = cand > top ? cand : top
                k &+= 1
            }
            undecided = undecided || !(abs(a[lagHi &+ 1] - a[lagHi]) > threshold)
            if !undecided {
                if top == -.infinity { return (0, 0) }
                let floor = Double(top) / Double(n) - 2 * eps
                var best = 0.0, bestLag = 0
                for k in lagLo...lagHi where f[k] != -.infinity && Double(f[k]) / Double(n) >= floor {
                    let v = exactAt(k)
                    if bestLag == 0 || v > best { best = v; bestLag = k }
                }
                return bestLag == 0 ? (0, 0) : (best, Double(bestLag) / rate)
            }
        }
        let rise = buffers.ints + oRise
        var undecided = 0
        for k in lagLo...(lagHi + 1) {
            let diff = a[k] - a[k &- 1]
            let up = Int(unsafeBitCast(diff > threshold, to: UInt8.self))
            let unsure = Int(unsafeBitCast(abs(diff) > threshold, to: UInt8.self)) ^ 1
            rise[k] = up | (unsure << 1)
            undecided |= unsure
        }
        if undecided != 0 {
            for k in lagLo...(lagHi + 1) where rise[k] > 1 { rise[k] = exactAt(k) > exactAt(k - 1) ? 1 : 0 }
        }
        // Peaks: r(k) > r(k − 1) and r(k) ≥ r(k + 1) (kTo = lagHi + 1 always). Branch-free
        // collection, with the screened maximum over them.
        let peaks = buffers.ints + oPeaks
        var peakCount = 0
        var top = -Float.infinity
        var riseHere = rise[lagLo]
        for k in lagLo...lagHi {
            let riseNext = rise[k &+ 1]
            let isPeak = riseHere & (riseNext ^ 1)
            riseHere = riseNext
            peaks[peakCount] = k
            peakCount &+= isPeak
            // a[k] when a peak, else −∞, by bit masks (a branch here mispredicts).
            let mask = UInt32(truncatingIfNeeded: 0 &- isPeak)
            let v = Float(bitPattern: (a[k].bitPattern & mask) | ((-Float.infinity).bitPattern & ~mask))
            top = v > top ? v : top
        }
        // Candidates within 2ε of the screened maximum: their double-precision values decide.
        let floor = Double(top) / Double(n) - 2 * eps
        var best = 0.0, bestLag = 0
        for j in 0..<peakCount {
            let k = peaks[j]
            guard Double(a[k]) / Double(n) >= floor else { continue }
            let v = exactAt(k)
            if bestLag == 0 || v > best { best = v; bestLag = k }
        }
        return bestLag == 0 ? (0, 0) : (best, Double(bestLag) / rate)
    }
}

extension Kernels {
    /// r[k] = Σ_{i < n − k} f[i] f[i + k] for k in kFrom...kTo, in single precision: eight lags
    /// at a time share each four-lane load of f[i]; `f[n ..< n + 12]` must be zero (products
    /// with zeros add nothing, so every lag of a block runs over the block's longest range).
    static func autocorrelationSingle(_ f: UnsafePointer<Float>, _ n: Int, _ kFrom: Int, _ kTo: Int,
                                      into r: UnsafeMutablePointer<Float>) {
        let rf = UnsafeRawPointer(f)
        @inline(__always) func load(_ i: Int) -> SIMD4<Float> { rf.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<Float>.self) }
        var k = kFrom
        while k <= kTo {
            let count = n - k
            var s0 = SIMD4<Float>(), s1 = SIMD4<Float>(), s2 = SIMD4<Float>(), s3 = SIMD4<Float>()
            var s4 = SIMD4<Float>(), s5 = SIMD4<Float>(), s6 = SIMD4<Float>(), s7 = SIMD4<Float>()
            var i = 0
            while i < count {                    // i + k + 7 + 3 < n + 12 reads only the zeros past n
                let x = load(i)
                let b = i &+ k
                s0 += x * load(b); s1 += x * load(b &+ 1); s2 += x * load(b &+ 2); s3 += x * load(b &+ 3)
                s4 += x * load(b &+ 4); s5 += x * load(b &+ 5); s6 += x * load(b &+ 6); s7 += x * load(b &+ 7)
                i += 4
            }
            r[k] = s0.sum()
            if k + 1 <= kTo { r[k + 1] = s1.sum() }
            if k + 2 <= kTo { r[k + 2] = s2.sum() }
            if k + 3 <= kTo { r[k + 3] = s3.sum() }
            if k + 4 <= kTo { r[k + 4] = s4.sum() }
            if k + 5 <= kTo { r[k + 5] = s5.sum() }
            if k + 6 <= kTo { r[k + 6] = s6.sum() }
            if k + 7 <= kTo { r[k + 7] = s7.sum() }
            k += 8
        }
    }
}
