import MotusCore

/// Natural logarithm by a 512-entry table and a short series, for Σ P log P over a spectrum:
/// x = 2^e m, m in [1, 2); c = the centre of m's 1/512 interval (m's top 9 fraction bits, then
/// a 1); log x = e log 2 + log c + log(1 + r), r = (m − c)/c (|r| ≤ 2⁻¹⁰), the series to r⁴
/// (truncation ≤ 2⁻⁵⁰/5 < 2e-16). m − c is exact: (1 + m's low 43 fraction bits) − (1 + 2⁻¹⁰).
enum LogTable {
    static let size = 512
    /// Doubles a table takes: 1/c and log c of each interval.
    static let storageCount = 2 * size
    /// Writes 1/c, log c for each interval (`storageCount` values).
    static func fill(_ t: UnsafeMutablePointer<Double>) {
        for i in 0..<size {
            let c = 1 + (Double(i) + 0.5) / Double(size)
            t[2 * i] = 1 / c; t[2 * i + 1] = Math.log(c)
        }
    }

    /// log x for a positive, finite, normal x (anything else gives garbage, never a trap).
    @inline(__always)
    static func log(_ x: Double, table t: UnsafePointer<Double>) -> Double {
        let bits = x.bitPattern
        let e = Double(Int((bits >> 52) & 0x7ff) - 1023)
        let idx = Int((bits >> 42) & 0x3fe)
        let y = Double(bitPattern: (bits & 0x0000_07ff_ffff_ffff) | 0x3ff0_0000_0000_0000)
        let r = (y - 1.0009765625) * t[idx]
        let poly = r + r * r * (-0.5 + r * (1.0 / 3 - 0.25 * r))
        return e * 0.6931471805598903 + (t[idx + 1] + (e * 5.497923018708371e-14 + poly))
    }

    /// Σ p[k] log p[k], k < count; values below the smallest normal (zeros) add 0.
    @inline(__always)
    static func sumPLogP(_ p: UnsafePointer<Double>, _ count: Int, table t: UnsafePointer<Double>) -> Double {
        var s0 = 0.0, s1 = 0.0
        var k = 0
        while k + 1 < count {
            let a = p[k], b = p[k + 1]
            let la = log(a >= 2.2250738585072014e-308 ? a : 1, table: t)
            let lb = log(b >= 2.2250738585072014e-308 ? b : 1, table: t)
            s0 += a * la; s1 += b * lb
            k += 2
        }
        if k < count { let a = p[k]; s0 += a * log(a >= 2.2250738585072014e-308 ? a : 1, table: t) }
        return s0 + s1
    }
}
