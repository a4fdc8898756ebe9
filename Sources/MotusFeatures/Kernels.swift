import MotusCore

/// Small numeric helpers on raw pointers: the per-channel passes (basic sums, centred
/// moments, sign changes), dot products and a log. The spectrum's sums are in
/// SpectrumSummary.swift, the autocorrelation screen in Autocorrelation.swift.
enum Kernels {
    @inline(__always) static func load2(_ p: UnsafePointer<Double>, _ i: Int) -> SIMD2<Double> {
        UnsafeRawPointer(p).loadUnaligned(fromByteOffset: i &* 8, as: SIMD2<Double>.self)
    }
    @inline(__always) static func store2(_ v: SIMD2<Double>, _ p: UnsafeMutablePointer<Double>, _ i: Int) {
        UnsafeMutableRawPointer(p).storeBytes(of: v, toByteOffset: i &* 8, as: SIMD2<Double>.self)
    }

    /// (Σx, Σx², Σ|x|, min, max) of x[0..<n], n ≥ 1: two-lane vectors, two accumulator sets.
    /// min and max skip NaN unless x[0] is NaN.
    @inline(__always)
    static func basicSums(_ x: UnsafePointer<Double>, _ n: Int) -> (Double, Double, Double, Double, Double) {
        var s0 = SIMD2<Double>(), s1 = SIMD2<Double>(), q0 = SIMD2<Double>(), q1 = SIMD2<Double>()
        var a0 = SIMD2<Double>(), a1 = SIMD2<Double>()
        var lo0 = SIMD2<Double>(repeating: x[0]), hi0 = lo0, lo1 = lo0, hi1 = lo0
        let signMask = SIMD2<UInt64>(repeating: 0x7fff_ffff_ffff_ffff)
        var i = 0
        while i + 4 <= n {
            let u = load2(x, i), v = load2(x, i &+ 2)
            s0 += u; s1 += v; q0 += u * u; q1 += v * v
            a0 += unsafeBitCast(unsafeBitCast(u, to: SIMD2<UInt64>.self) & signMask, to: SIMD2<Double>.self)
            a1 += unsafeBitCast(unsafeBitCast(v, to: SIMD2<UInt64>.self) & signMask, to: SIMD2<Double>.self)
            lo0.replace(with: u, where: u .< lo0); hi0.replace(with: u, where: u .> hi0)
            lo1.replace(with: v, where: v .< lo1); hi1.replace(with: v, where: v .> hi1)
            i += 4
        }
        let s = s0 + s1, q = q0 + q1, a = a0 + a1
        lo0.replace(with: lo1, where: lo1 .< lo0); hi0.replace(with: hi1, where: hi1 .> hi0)
        var sum = s[0] + s[1], sumSq = q[0] + q[1], sumAbs = a[0] + a[1]
        var lo = lo0[1] < lo0[0] ? lo0[1] : lo0[0], hi = hi0[1] > hi0[0] ? hi0[1] : hi0[0]
        while i < n {
            let v = x[i]
            sum += v; sumSq += v * v; sumAbs += abs(v)
            lo = v < lo ? v : lo; hi = v > hi ? v : hi
            i += 1
        }
        return (sum, sumSq, sumAbs, lo, hi)
    }

    /// Writes d[i] = x[i] − shift and returns (Σd², Σd³, Σd⁴), i < n.
    @inline(__always)
    static func centeredMoments(_ x: UnsafePointer<Double>, _ n: Int, shift: Double,
                                into d: UnsafeMutablePointer<Double>) -> (Double, Double, Double) {
        let sh = SIMD2<Double>(repeating: shift)
        var m20 = SIMD2<Double>(), m21 = SIMD2<Double>(), m30 = SIMD2<Double>(), m31 = SIMD2<Double>()
        var m40 = SIMD2<Double>(), m41 = SIMD2<Double>()
        var i = 0
        while i + 4 <= n {
            let u = load2(x, i) - sh, v = load2(x, i &+ 2) - sh
            store2(u, d, i); store2(v, d, i &+ 2)
            let u2 = u * u, v2 = v * v
            m20 += u2; m21 += v2; m30 += u2 * u; m31 += v2 * v; m40 += u2 * u2; m41 += v2 * v2
            i += 4
        }
        let a = m20 + m21, b = m30 + m31, c = m40 + m41
        var m2 = a[0] + a[1], m3 = b[0] + b[1], m4 = c[0] + c[1]
        while i < n {
            let e = x[i] - shift
            d[i] = e
            let e2 = e * e
            m2 += e2; m3 += e2 * e; m4 += e2 * e2
            i += 1
        }
        return (m2, m3, m4)
    }

    /// Number of i < n − 1 with (d[i] < 0) ≠ (d[i + 1] < 0).
    @inline(__always)
    static func signChanges(_ d: UnsafePointer<Double>, _ n: Int) -> Int {
        var acc0 = SIMD2<Int64>(), acc1 = SIMD2<Int64>()
        let zero = SIMD2<Double>()
        var i = 0
        while i + 5 <= n {                       // pairs i … i + 3 read d[i … i + 4]
            let a = load2(d, i), b = load2(d, i &+ 1), c = load2(d, i &+ 2), e = load2(d, i &+ 3)
            // A true lane of a mask is −1: subtracting the masks counts them.
            acc0 &-= unsafeBitCast((a .< zero) .^ (b .< zero), to: SIMD2<Int64>.self)
            acc1 &-= unsafeBitCast((c .< zero) .^ (e .< zero), to: SIMD2<Int64>.self)
            i += 4
        }
        let acc = acc0 &+ acc1
        var count = Int(acc[0] &+ acc[1])
        while i + 1 < n {
            count &+= (d[i] < 0) != (d[i + 1] < 0) ? 1 : 0
            i += 1
        }
        return count
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
