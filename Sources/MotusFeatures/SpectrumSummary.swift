import MotusCore

// The spectral features of `WindowKernel` (dominant frequency, band energies, normalised
// entropy) from the power spectra of its centred channels, and the sums they use.

extension WindowKernel {
    /// The spectral values of every non-constant channel (constant ones keep their zeros), two
    /// channels per transform (one per lane; a last one without a partner fills both lanes).
    /// Every lane does the same operations as the four-lane transform of `computeWide`, so a
    /// channel's values do not depend on its group or on the path. Channel c's values at
    /// `out + c × valuesPerChannel`.
    mutating func spectra(_ out: UnsafeMutablePointer<Double>) {
        let dbl = buffers.doubles
        let n = self.n, half = fftLength / 2
        let w = dbl + oHann
        @inline(__always) func centred(_ c: Int) -> UnsafePointer<Double> { UnsafePointer(dbl + oCentered + c * (n + Self.zeroPad)) }
        let list = buffers.ints + oChannelList
        var count = 0
        for c in 0..<channelCount where dbl[oConstant + c] == 0 { list[count] = c; count += 1 }
        let power0 = dbl + oPower, power1 = power0 + (half + 1)
        var i = 0
        while i < count {
            let a = list[i], b = list[min(i + 1, count - 1)]
            fft.compute(centred(a), centred(b), window: w, count: n, into: power0, power1)
            summarize(power0, out + a * valuesPerChannel)
            if b != a { summarize(power1, out + b * valuesPerChannel) }
            i += 2
        }
    }

    /// The spectral values of lane `lane` of the four-lane powers at `oQuadPower`, whose
    /// summary (`motus_spectrum4`) is at `oQuadStats` and `oQuadFirst`, into `out`.
    mutating func summarizeLane(_ lane: Int, _ out: UnsafeMutablePointer<Double>) {
        let dbl = buffers.doubles, half = fftLength / 2
        let pw = dbl + oQuadPower, stats = dbl + oQuadStats, e = dbl + oBands
        let total = stats[lane]
        if bandCount > 0 {
            let power = dbl + oPower
            for k in 0...half { power[k] = pw[4 * k + lane] }
            bands(power, total: total, into: e)
        }
        let first = buffers.ints[oQuadFirst + lane]
        let spectral = total > 0 ? finish(total: total, pLogP: stats[4 + lane], bestK: first, pw + lane, stride: 4) : (0, 0)
        write(spectral, bands: e, out)
    }

    /// From the power spectrum `p` of a Hann-windowed, mean-removed window: writes the band
    /// energies, dominant frequency and normalised entropy at their positions in `out`.
    private mutating func summarize(_ p: UnsafePointer<Double>, _ out: UnsafeMutablePointer<Double>) {
        let e = buffers.doubles + oBands
        write(spectrum(p, bands: e), bands: e, out)
    }

    @inline(__always)
    private func write(_ spectral: (Double, Double), bands e: UnsafePointer<Double>, _ out: UnsafeMutablePointer<Double>) {
        if domPosition >= 0 { out[domPosition] = spectral.0 }
        if entropyPosition >= 0 { out[entropyPosition] = spectral.1 }
        if bandPosition >= 0 { for b in 0..<bandCount { out[bandPosition + b] = e[b] } }
    }

    /// Bands, (dominant frequency, normalised entropy) of the power spectrum `p` (M/2 + 1 bins).
    private func spectrum(_ p: UnsafePointer<Double>, bands e: UnsafeMutablePointer<Double>) -> (Double, Double) {
        let half = fftLength / 2
        let total = Kernels.sum(p + 1, half)
        bands(p, total: total, into: e)
        guard total > 0 else { return (0, 0) }
        let s = LogTable.sumPLogP(p + 1, half, table: buffers.doubles + oLogTable)
        let bestK = Kernels.firstMaxIndex(p, from: 1, through: half)
        return finish(total: total, pLogP: s, bestK: bestK, p, stride: 1)
    }

    /// Each band's share of the total power (all 0 when the total is not positive).
    private func bands(_ p: UnsafePointer<Double>, total: Double, into e: UnsafeMutablePointer<Double>) {
        guard total > 0 else {
            for b in 0..<bandCount { e[b] = 0 }
            return
        }
        let inv = 1 / total
        let ranges = buffers.ints + oBandRange
        for b in 0..<bandCount {
            let s = ranges[2 * b], z = ranges[2 * b + 1]
            e[b] = s < z ? Kernels.sum(p + s, z - s) * inv : 0
        }
    }

    /// (Dominant frequency, normalised entropy) from a spectrum's positive total, Σ P log P
    /// and first largest bin; bin k's power at `p[k × stride]` (for the parabolic refinement).
    @inline(__always)
    private func finish(total: Double, pLogP s: Double, bestK: Int, _ p: UnsafePointer<Double>, stride: Int) -> (Double, Double) {
        let m = fftLength, half = m / 2
        // Entropy: −Σ p log p with p = P/T, = log T − Σ P log P / T.
        let h = Math.log(total) - s * (1 / total)
        let entropy = half > 1 ? max(0, h / logHalf) : 0
        // Parabolic refinement around the largest bin.
        var delta = 0.0
        if bestK > 1 && bestK < half {
            let a = p[(bestK - 1) * stride], b = p[bestK * stride], cc = p[(bestK + 1) * stride]
            let den = a - 2 * b + cc
            if den < 0 { delta = 0.5 * (a - cc) / den }
        }
        return ((Double(bestK) + delta) * rate / Double(m), entropy)
    }
}

extension Kernels {
    /// Σ p[i], i < count (two lanes, two accumulators).
    @inline(__always)
    static func sum(_ p: UnsafePointer<Double>, _ count: Int) -> Double {
        var s0 = SIMD2<Double>(), s1 = SIMD2<Double>()
        var i = 0
        while i + 4 <= count { s0 += load2(p, i); s1 += load2(p, i &+ 2); i += 4 }
        let s = s0 + s1
        var t = s[0] + s[1]
        while i < count { t += p[i]; i += 1 }
        return t
    }

    /// The first k in from...through with p[k] the largest (values ≤ 0 and NaN never win over
    /// a positive one); `from` when none is positive.
    @inline(__always)
    static func firstMaxIndex(_ p: UnsafePointer<Double>, from: Int, through: Int) -> Int {
        var m0 = SIMD2<Double>(), m1 = SIMD2<Double>()
        var k = from
        while k + 4 <= through + 1 {
            let u = load2(p, k), v = load2(p, k &+ 2)
            m0.replace(with: u, where: u .> m0); m1.replace(with: v, where: v .> m1)
            k += 4
        }
        m0.replace(with: m1, where: m1 .> m0)
        var best = m0[1] > m0[0] ? m0[1] : m0[0]
        while k <= through { let v = p[k]; best = v > best ? v : best; k += 1 }
        guard best > 0 else { return from }
        var j = from
        while j < through && p[j] != best { j += 1 }
        return j
    }
}
