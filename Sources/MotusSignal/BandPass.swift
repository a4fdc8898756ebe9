import MotusCore

/// A cascade of biquads: a higher-order filter as second-order sections, filtered causally
/// or forwards and backwards (zero phase) over a whole signal.
public struct BiquadCascade: Sendable, Hashable {
    /// The sections, applied in order.
    public let sections: [Biquad]

    /// A cascade of `sections`, applied in order.
    public init(sections: [Biquad]) { self.sections = sections }

    /// Butterworth band-pass of order `order` per edge (the order of the low-pass prototype:
    /// `order` sections, a filter of degree 2 × `order`), as scipy's `butter(order, [low, high],
    /// 'band')` designs it: the analog prototype's poles moved to the band by the low-pass to
    /// band-pass transform, both edges pre-warped, then the bilinear transform. Each section has
    /// one zero at DC and one at Nyquist and unit gain at the band's centre, so the cascade is
    /// −3 dB at `lowHz` and `highHz` and exactly 1 at the centre. Precondition: order ≥ 1,
    /// 0 < low < high < rate / 2.
    public static func butterworthBandPass(order: Int, lowHz: Hertz, highHz: Hertz, sampleRateHz fs: Hertz) -> BiquadCascade {
        precondition(order >= 1, "order must be at least 1")
        precondition(lowHz > 0 && lowHz < highHz && highHz < fs / 2, "need 0 < low < high < rate / 2")
        let (k, wl) = Biquad.warp(lowHz, fs)
        let (_, wh) = Biquad.warp(highHz, fs)
        let bw = wh - wl, w02 = wl * wh
        // The centre frequency on the digital axis, where each section is normalised to 1.
        let centre = 2 * Math.atan2(w02.squareRoot(), k)
        var out: [Biquad] = []
        out.reserveCapacity(order)
        // The prototype's poles come in conjugate pairs (and one real pole for odd orders); each
        // prototype pole p gives the band-pass poles of s² − p·bw·s + w0² = 0. Taking the
        // prototype poles in the upper half-plane (and the real one) and both roots of each
        // quadratic yields one pole of every conjugate pair of the band-pass filter.
        var upper: [Complex] = []
        for i in 0..<order {
            let m = Double(2 * i - order + 1)
            let p = Complex(-Math.cos(Double.pi * m / Double(2 * order)), -Math.sin(Double.pi * m / Double(2 * order)))
            if p.im >= -1e-12 { upper.append(p) }
        }
        for p in upper {
            let half = p * (bw / 2)
            let disc = (half * half - Complex(w02, 0)).squareRoot()
            let roots = [half + disc, half - disc]
            if abs(p.im) < 1e-12 {
                // A real prototype pole gives either a conjugate pair or two real poles: one section.
                let z1 = digital(roots[0], k: k), z2 = digital(roots[1], k: k)
                let pair = abs(z1.im) > 1e-12
                out.append(section(a1: pair ? -2 * z1.re : -(z1.re + z2.re),
                                   a2: pair ? z1.re * z1.re + z1.im * z1.im : z1.re * z2.re, centre: centre))
            } else {
                for r in roots {
                    let z = digital(r, k: k)
                    out.append(section(a1: -2 * z.re, a2: z.re * z.re + z.im * z.im, centre: centre))
                }
            }
        }
        return BiquadCascade(sections: out)
    }

    /// The bilinear transform of an analog pole: z = (K + s) / (K − s), K = 2 × rate.
    static func digital(_ s: Complex, k: Double) -> Complex { (Complex(k, 0) + s) / (Complex(k, 0) - s) }

    /// The section with denominator 1 + a1 z⁻¹ + a2 z⁻², zeros at z = ±1, and unit gain at the
    /// digital frequency `centre` (rad per sample).
    static func section(a1: Double, a2: Double, centre: Double) -> Biquad {
        let raw = Biquad(b0: 1, b1: 0, b2: -1, a1: a1, a2: a2)
        let g = raw.magnitude(atHz: centre / (2 * Double.pi), sampleRateHz: 1)
        return Biquad(b0: 1 / g, b1: 0, b2: -1 / g, a1: a1, a2: a2)
    }

    /// Magnitude of the cascade's response at `frequencyHz`.
    public func magnitude(atHz f: Hertz, sampleRateHz fs: Hertz) -> Double {
        sections.reduce(1) { $0 * $1.magnitude(atHz: f, sampleRateHz: fs) }
    }

    /// Zero-phase filtering of a whole signal, as scipy's `sosfiltfilt` does it by default: the
    /// signal is extended at both ends by its odd reflection (3 × (2 × sections + 1) samples,
    /// fewer for a short signal), filtered forwards from the steady state of its first value,
    /// then backwards from the steady state of the last, and the extension is cut off. The
    /// reflection and the steady start keep the ends free of the start-up transient. For
    /// offline use (it reads the whole signal).
    public func filteredZeroPhase(_ xs: [Double]) -> [Double] {
        let n = xs.count
        guard n > 1 else {
            // One sample is a constant signal: the steady-state output is the DC gain times it.
            let dc = sections.reduce(1.0) { $0 * $1.dcGain }
            return xs.map { $0 * dc }
        }
        let pad = Swift.min(3 * (2 * sections.count + 1), n - 1)
        var y = [Double]()
        y.reserveCapacity(n + 2 * pad)
        for i in stride(from: pad, through: 1, by: -1) { y.append(2 * xs[0] - xs[i]) }
        y.append(contentsOf: xs)
        for i in 1...pad { y.append(2 * xs[n - 1] - xs[n - 1 - i]) }
        run(&y)
        y.reverse()
        run(&y)
        y.reverse()
        return Array(y[pad..<(pad + n)])
    }

    /// Filters `y` in place, forwards (causal), each section starting in the steady state of the
    /// constant input `y[0]` (scaled by the gains of the sections before it): one pass of
    /// `filteredZeroPhase`, and a sensor's own anti-alias filter (`resampledAsDevice`).
    func run(_ y: inout [Double]) {
        var level = y[0]
        for s in sections {
            var f = s
            f.reset(); f.prime(with: level)
            level *= s.dcGain
            f.process(&y)
        }
    }
}

/// A complex number, for filter design only.
struct Complex: Sendable {
    var re: Double, im: Double
    init(_ re: Double, _ im: Double) { self.re = re; self.im = im }
    static func + (a: Complex, b: Complex) -> Complex { Complex(a.re + b.re, a.im + b.im) }
    static func - (a: Complex, b: Complex) -> Complex { Complex(a.re - b.re, a.im - b.im) }
    static func * (a: Complex, b: Complex) -> Complex { Complex(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re) }
    static func * (a: Complex, b: Double) -> Complex { Complex(a.re * b, a.im * b) }
    static func / (a: Complex, b: Complex) -> Complex {
        let d = b.re * b.re + b.im * b.im
        return Complex((a.re * b.re + a.im * b.im) / d, (a.im * b.re - a.re * b.im) / d)
    }
    /// The principal square root.
    func squareRoot() -> Complex {
        let r = (re * re + im * im).squareRoot()
        let x = ((r + re) / 2).squareRoot()
        let y = ((r - re) / 2).squareRoot()
        return Complex(x, im < 0 ? -y : y)
    }
}
