import MotusCore

/// Fast Fourier transform of real signals whose length is a power of two.
///
/// `forward` computes `X[k] = Σₙ x[n] e^{−2πi k n / N}` for k = 0 … N/2 (the other half is
/// the complex conjugate mirror), unnormalised, via a complex radix-2 FFT of size N/2 on the
/// even/odd-packed input and one split pass. Tables and work buffers are allocated once at
/// init; `forward` allocates nothing. O(N log N).
public struct RealFFT: Sendable {
    /// Transform length N (power of two, ≥ 2).
    public let size: Int
    private let half: Int
    private let cosTable: [Double]   // e^{−2πij/half}, j < half/2
    private let sinTable: [Double]
    private let splitCos: [Double]   // e^{−2πik/N}, k ≤ half
    private let splitSin: [Double]
    private let bitReverse: [Int]
    private var re: [Double]
    private var im: [Double]

    /// Precondition: `size` is a power of two ≥ 2.
    public init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "size must be a power of two ≥ 2")
        self.size = size
        let m = size / 2
        half = m
        var c = [Double](repeating: 0, count: max(1, m / 2)), s = c
        for j in 0..<(m / 2) {
            let a = -2 * Double.pi * Double(j) / Double(m)
            c[j] = Math.cos(a); s[j] = Math.sin(a)
        }
        cosTable = c; sinTable = s
        var sc = [Double](repeating: 0, count: m + 1), ss = sc
        for k in 0...m {
            let a = -2 * Double.pi * Double(k) / Double(size)
            sc[k] = Math.cos(a); ss[k] = Math.sin(a)
        }
        sc[0] = 1; ss[0] = 0; sc[m] = -1; ss[m] = 0
        splitCos = sc; splitSin = ss
        var br = [Int](repeating: 0, count: m)
        var bits = 0
        while (1 << bits) < m { bits += 1 }
        for i in 0..<m {
            var r = 0, v = i
            for _ in 0..<bits { r = (r << 1) | (v & 1); v >>= 1 }
            br[i] = r
        }
        bitReverse = br
        re = [Double](repeating: 0, count: m)
        im = [Double](repeating: 0, count: m)
    }

    /// Number of output bins, N/2 + 1. Bin k is at frequency k × rate / N.
    @inlinable public var binCount: Int { size / 2 + 1 }

    /// Transforms `input[0..<N]` into `real[0...N/2]`, `imag[0...N/2]`.
    public mutating func forward(_ input: UnsafeBufferPointer<Double>, real: UnsafeMutableBufferPointer<Double>,
                                 imag: UnsafeMutableBufferPointer<Double>) {
        precondition(input.count >= size && real.count >= half + 1 && imag.count >= half + 1)
        let m = half
        for j in 0..<m {
            let r = bitReverse[j]
            re[r] = input[2 * j]; im[r] = input[2 * j + 1]
        }
        // Iterative radix-2 butterflies.
        var len = 2
        while len <= m {
            let h = len / 2, step = m / len
            var start = 0
            while start < m {
                for j in 0..<h {
                    let wr = cosTable[j * step], wi = sinTable[j * step]
                    let a = start + j, b = a + h
                    let tr = wr * re[b] - wi * im[b], ti = wr * im[b] + wi * re[b]
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
                start += len
            }
            len <<= 1
        }
        // Split: X[k] = E[k] + W^k O[k].
        for k in 0...m {
            let ka = k == m ? 0 : k, kb = k == 0 ? 0 : m - k
            let ar = re[ka], ai = im[ka], br = re[kb], bi = im[kb]
            let er = 0.5 * (ar + br), ei = 0.5 * (ai - bi)
            let or = 0.5 * (ai + bi), oi = -0.5 * (ar - br)
            let wr = splitCos[k], wi = splitSin[k]
            real[k] = er + wr * or - wi * oi
            imag[k] = ei + wr * oi + wi * or
        }
    }

    /// Array form of `forward`; `real` and `imag` are resized to N/2 + 1 (no allocation when
    /// they already have that count).
    public mutating func forward(_ input: [Double], real: inout [Double], imag: inout [Double]) {
        precondition(input.count == size, "input must have `size` values")
        if real.count != half + 1 { real = [Double](repeating: 0, count: half + 1) }
        if imag.count != half + 1 { imag = [Double](repeating: 0, count: half + 1) }
        input.withUnsafeBufferPointer { ip in
            real.withUnsafeMutableBufferPointer { rp in
                imag.withUnsafeMutableBufferPointer { jp in forward(ip, real: rp, imag: jp) }
            }
        }
    }

    /// |X[k]|² for k = 0 … N/2 into `power` (resized to N/2 + 1 if needed). Uses `scratch`
    /// (resized likewise) for the imaginary part.
    public mutating func powerSpectrum(_ input: [Double], into power: inout [Double], scratch: inout [Double]) {
        forward(input, real: &power, imag: &scratch)
        for k in power.indices { power[k] = power[k] * power[k] + scratch[k] * scratch[k] }
    }

    /// Smallest power of two ≥ n (n ≥ 1).
    public static func nextPowerOfTwo(_ n: Int) -> Int {
        var p = 1
        while p < n { p <<= 1 }
        return p
    }
}

/// Window functions for spectral analysis.
public enum Window {
    /// Periodic Hann window of length n: w[i] = 0.5 − 0.5 cos(2π i / n) (the DFT-even form,
    /// right for spectra of consecutive frames).
    public static func hann(_ n: Int) -> [Double] {
        (0..<n).map { 0.5 - 0.5 * Math.cos(2 * Double.pi * Double($0) / Double(n)) }
    }
}
