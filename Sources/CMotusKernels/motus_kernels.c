// Four-lane (AVX2) feature kernels; see include/motus_kernels.h. Every function repeats, lane by
// lane, the operations of the Swift code named in its comment, in the same order, so the two
// paths agree bit for bit. No fused multiply-add: the functions are compiled for "avx2" only
// (not "fma"), and contraction is off.
#include "motus_kernels.h"

#pragma clang fp contract(off)

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

#define WIDE __attribute__((target("avx2")))
#define WIDE_INLINE static inline __attribute__((target("avx2"), always_inline))

typedef __m256d V;

int motus_kernels_wide_available(void) {
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    if (!((c >> 27) & 1) || !((c >> 28) & 1)) return 0;       // OSXSAVE and AVX
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    if ((lo & 6) != 6) return 0;                                 // the OS saves XMM and YMM state
    if (__get_cpuid_max(0, 0) < 7) return 0;
    __cpuid_count(7, 0, a, b, c, d);
    return (b >> 5) & 1;                                         // AVX2
}

WIDE_INLINE V ld(const double *p) { return _mm256_loadu_pd(p); }
WIDE_INLINE void st(double *p, V v) { _mm256_storeu_pd(p, v); }
WIDE_INLINE V splat(double x) { return _mm256_set1_pd(x); }

/// Columns of the 4 × 4 block whose rows are r0 … r3.
WIDE_INLINE void transpose(V r0, V r1, V r2, V r3, V *c0, V *c1, V *c2, V *c3) {
    V t0 = _mm256_unpacklo_pd(r0, r1), t1 = _mm256_unpackhi_pd(r0, r1);
    V t2 = _mm256_unpacklo_pd(r2, r3), t3 = _mm256_unpackhi_pd(r2, r3);
    *c0 = _mm256_permute2f128_pd(t0, t2, 0x20); *c1 = _mm256_permute2f128_pd(t1, t3, 0x20);
    *c2 = _mm256_permute2f128_pd(t0, t2, 0x31); *c3 = _mm256_permute2f128_pd(t1, t3, 0x31);
}

/// PowerSpectrum's butterfly: t = w·b; b = a − t; a = a + t.
WIDE_INLINE void butterfly(V *ar, V *ai, V *br, V *bi, V c, V s) {
    V tr = _mm256_sub_pd(_mm256_mul_pd(c, *br), _mm256_mul_pd(s, *bi));
    V ti = _mm256_add_pd(_mm256_mul_pd(c, *bi), _mm256_mul_pd(s, *br));
    *br = _mm256_sub_pd(*ar, tr); *bi = _mm256_sub_pd(*ai, ti);
    *ar = _mm256_add_pd(*ar, tr); *ai = _mm256_add_pd(*ai, ti);
}

// Kernels.centeredMoments and Kernels.signChanges of four channels, with the packing of
// PowerSpectrum's two-input transform fused in (even values to re, odd to im, in bit-reversed
// order, each vector one position of the four inputs). `pack` and `windowed` are constants at
// each call, so every variant's loop runs without those tests.
WIDE_INLINE void channels4(const double *x0, const double *x1, const double *x2, const double *x3, long n,
                           const double *shift, double *d0, double *d1, double *d2, double *d3,
                           double *moments, long *crossings,
                           const double *window, long h, const long *br, double *work, int pack, int windowed) {
    double *re = work, *im = work + 4 * h;
    const V sh = ld(shift), zero = _mm256_setzero_pd();
    // Partial sums by index mod 4 (Swift: two two-lane accumulators per power).
    V s2[4], s3[4], s4[4];
    for (int k = 0; k < 4; k++) { s2[k] = zero; s3[k] = zero; s4[k] = zero; }
    __m256i cross = _mm256_setzero_si256();
    // The sign mask of the previous value; first, that of value 0 itself (no change there).
    V before = _mm256_cmp_pd(_mm256_sub_pd(_mm256_set_pd(x3[0], x2[0], x1[0], x0[0]), sh), zero, _CMP_LT_OQ);
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        V col[4];
        transpose(ld(x0 + i), ld(x1 + i), ld(x2 + i), ld(x3 + i), &col[0], &col[1], &col[2], &col[3]);
        for (int k = 0; k < 4; k++) {
            V d = _mm256_sub_pd(col[k], sh);
            col[k] = d;
            V sq = _mm256_mul_pd(d, d);
            s2[k] = _mm256_add_pd(s2[k], sq);
            s3[k] = _mm256_add_pd(s3[k], _mm256_mul_pd(sq, d));
            s4[k] = _mm256_add_pd(s4[k], _mm256_mul_pd(sq, sq));
            V neg = _mm256_cmp_pd(d, zero, _CMP_LT_OQ);
            cross = _mm256_sub_epi64(cross, _mm256_castpd_si256(_mm256_xor_pd(neg, before)));
            before = neg;
            if (pack) {
                long j = i + k;
                st(((j & 1) ? im : re) + 4 * br[j >> 1], windowed ? _mm256_mul_pd(d, splat(window[j])) : d);
            }
        }
        if (d0) {
            V r0, r1, r2, r3;
            transpose(col[0], col[1], col[2], col[3], &r0, &r1, &r2, &r3);
            st(d0 + i, r0); st(d1 + i, r1); st(d2 + i, r2); st(d3 + i, r3);
        }
    }
    V m2 = _mm256_add_pd(_mm256_add_pd(s2[0], s2[2]), _mm256_add_pd(s2[1], s2[3]));
    V m3 = _mm256_add_pd(_mm256_add_pd(s3[0], s3[2]), _mm256_add_pd(s3[1], s3[3]));
    V m4 = _mm256_add_pd(_mm256_add_pd(s4[0], s4[2]), _mm256_add_pd(s4[1], s4[3]));
    for (; i < n; i++) {
        V d = _mm256_sub_pd(_mm256_set_pd(x3[i], x2[i], x1[i], x0[i]), sh);
        V sq = _mm256_mul_pd(d, d);
        m2 = _mm256_add_pd(m2, sq); m3 = _mm256_add_pd(m3, _mm256_mul_pd(sq, d)); m4 = _mm256_add_pd(m4, _mm256_mul_pd(sq, sq));
        V neg = _mm256_cmp_pd(d, zero, _CMP_LT_OQ);
        cross = _mm256_sub_epi64(cross, _mm256_castpd_si256(_mm256_xor_pd(neg, before)));
        before = neg;
        if (pack) st(((i & 1) ? im : re) + 4 * br[i >> 1], windowed ? _mm256_mul_pd(d, splat(window[i])) : d);
        if (d0) {
            double v[4];
            st(v, d);
            d0[i] = v[0]; d1[i] = v[1]; d2[i] = v[2]; d3[i] = v[3];
        }
    }
    if (pack) for (; i < 2 * h; i++) st(((i & 1) ? im : re) + 4 * br[i >> 1], zero);
    st(moments, m2); st(moments + 4, m3); st(moments + 8, m4);
    _mm256_storeu_si256((__m256i *)crossings, cross);
}

WIDE void motus_channels4(const double *x0, const double *x1, const double *x2, const double *x3, long n,
                          const double *shift, double *d0, double *d1, double *d2, double *d3,
                          double *moments, long *crossings,
                          const double *window, long h, const long *br, double *work) {
    if (h > 0 && window)
        channels4(x0, x1, x2, x3, n, shift, d0, d1, d2, d3, moments, crossings, window, h, br, work, 1, 1);
    else if (h > 0)
        channels4(x0, x1, x2, x3, n, shift, d0, d1, d2, d3, moments, crossings, NULL, h, br, work, 1, 0);
    else
        channels4(x0, x1, x2, x3, n, shift, d0, d1, d2, d3, moments, crossings, NULL, 0, br, work, 0, 0);
}

// The stages and split of PowerSpectrum's two-input transform, four lanes, on packed input.
WIDE void motus_transform4(long h, const double *twr, const double *twi, const double *sc, const double *ss,
                           double *work, double *power) {
    double *re = work, *im = work + 4 * h;
    long len = 2;
    if (h >= 4) {
        // Stages len = 2 and 4 (twiddles 1 and −i exactly, no products).
        for (long a = 0; a < h; a += 4) {
            V r0 = ld(re + 4 * a), r1 = ld(re + 4 * (a + 1)), r2 = ld(re + 4 * (a + 2)), r3 = ld(re + 4 * (a + 3));
            V i0 = ld(im + 4 * a), i1 = ld(im + 4 * (a + 1)), i2 = ld(im + 4 * (a + 2)), i3 = ld(im + 4 * (a + 3));
            V t, u;
            t = _mm256_add_pd(r0, r1); u = _mm256_sub_pd(r0, r1); r0 = t; r1 = u;
            t = _mm256_add_pd(i0, i1); u = _mm256_sub_pd(i0, i1); i0 = t; i1 = u;
            t = _mm256_add_pd(r2, r3); u = _mm256_sub_pd(r2, r3); r2 = t; r3 = u;
            t = _mm256_add_pd(i2, i3); u = _mm256_sub_pd(i2, i3); i2 = t; i3 = u;
            t = _mm256_add_pd(r0, r2); u = _mm256_sub_pd(r0, r2); r0 = t; r2 = u;
            t = _mm256_add_pd(i0, i2); u = _mm256_sub_pd(i0, i2); i0 = t; i2 = u;
            V nr1 = _mm256_add_pd(r1, i3), ni1 = _mm256_sub_pd(i1, r3);
            V nr3 = _mm256_sub_pd(r1, i3), ni3 = _mm256_add_pd(i1, r3);
            st(re + 4 * a, r0); st(im + 4 * a, i0); st(re + 4 * (a + 1), nr1); st(im + 4 * (a + 1), ni1);
            st(re + 4 * (a + 2), r2); st(im + 4 * (a + 2), i2); st(re + 4 * (a + 3), nr3); st(im + 4 * (a + 3), ni3);
        }
        len = 8;
    } else if (h >= 2) {
        for (long a = 0; a < h; a += 2) {
            V xr = ld(re + 4 * a), xi = ld(im + 4 * a), yr = ld(re + 4 * (a + 1)), yi = ld(im + 4 * (a + 1));
            st(re + 4 * a, _mm256_add_pd(xr, yr)); st(im + 4 * a, _mm256_add_pd(xi, yi));
            st(re + 4 * (a + 1), _mm256_sub_pd(xr, yr)); st(im + 4 * (a + 1), _mm256_sub_pd(xi, yi));
        }
        len = 4;
    }
    // Stages two at a time (len, 2 len) on four points held in registers.
    while (2 * len <= h) {
        long hl = len / 2;
        const double *ar_ = twr + (hl - 2), *ai_ = twi + (hl - 2), *br2 = twr + (len - 2), *bi2 = twi + (len - 2);
        for (long start = 0; start < h; start += 2 * len) {
            for (long j = 0; j < hl; j++) {
                long p0 = start + j, p1 = p0 + hl, p2 = p0 + len, p3 = p2 + hl;
                V r0 = ld(re + 4 * p0), i0 = ld(im + 4 * p0), r1 = ld(re + 4 * p1), i1 = ld(im + 4 * p1);
                V r2 = ld(re + 4 * p2), i2 = ld(im + 4 * p2), r3 = ld(re + 4 * p3), i3 = ld(im + 4 * p3);
                V ca = splat(ar_[j]), sa = splat(ai_[j]);
                butterfly(&r0, &i0, &r1, &i1, ca, sa);
                butterfly(&r2, &i2, &r3, &i3, ca, sa);
                butterfly(&r0, &i0, &r2, &i2, splat(br2[j]), splat(bi2[j]));
                butterfly(&r1, &i1, &r3, &i3, splat(br2[j + hl]), splat(bi2[j + hl]));
                st(re + 4 * p0, r0); st(im + 4 * p0, i0); st(re + 4 * p1, r1); st(im + 4 * p1, i1);
                st(re + 4 * p2, r2); st(im + 4 * p2, i2); st(re + 4 * p3, r3); st(im + 4 * p3, i3);
            }
        }
        len <<= 2;
    }
    if (len <= h) {
        long hl = len / 2;
        const double *wr = twr + (hl - 2), *wi = twi + (hl - 2);
        for (long start = 0; start < h; start += len) {
            for (long j = 0; j < hl; j++) {
                long p = start + j, q = p + hl;
                V ar = ld(re + 4 * p), ai = ld(im + 4 * p), br_ = ld(re + 4 * q), bi = ld(im + 4 * q);
                butterfly(&ar, &ai, &br_, &bi, splat(wr[j]), splat(wi[j]));
                st(re + 4 * p, ar); st(im + 4 * p, ai); st(re + 4 * q, br_); st(im + 4 * q, bi);
            }
        }
    }
    // Split: X[k] = E[k] + W^k O[k], power |X[k]|². Bins k and h − k read the same two
    // points: E and O of h − k are those of k with ei, oi negated (exactly: a − b = −(b − a),
    // up to the sign of a zero, which the squares of the power drop), so each pair of bins
    // computes them once.
    const V half = splat(0.5), minusHalf = splat(-0.5), sign = splat(-0.0);
    for (long k = 0; k <= h / 2; k++) {
        long ka = k, kb = k == 0 ? 0 : h - k;
        V ar = ld(re + 4 * ka), ai = ld(im + 4 * ka), br_ = ld(re + 4 * kb), bi = ld(im + 4 * kb);
        V er = _mm256_mul_pd(half, _mm256_add_pd(ar, br_)), ei = _mm256_mul_pd(half, _mm256_sub_pd(ai, bi));
        V or_ = _mm256_mul_pd(half, _mm256_add_pd(ai, bi)), oi = _mm256_mul_pd(minusHalf, _mm256_sub_pd(ar, br_));
        V c = splat(sc[k]), s = splat(ss[k]);
        V xr = _mm256_sub_pd(_mm256_add_pd(er, _mm256_mul_pd(c, or_)), _mm256_mul_pd(s, oi));
        V xi = _mm256_add_pd(_mm256_add_pd(ei, _mm256_mul_pd(c, oi)), _mm256_mul_pd(s, or_));
        st(power + 4 * k, _mm256_add_pd(_mm256_mul_pd(xr, xr), _mm256_mul_pd(xi, xi)));
        long m = k == 0 ? h : h - k;          // bin h reads point 0 twice, as bin 0 does
        if (m == k) continue;
        V ni = _mm256_xor_pd(ei, sign), no = _mm256_xor_pd(oi, sign);
        c = splat(sc[m]); s = splat(ss[m]);
        xr = _mm256_sub_pd(_mm256_add_pd(er, _mm256_mul_pd(c, or_)), _mm256_mul_pd(s, no));
        xi = _mm256_add_pd(_mm256_add_pd(ni, _mm256_mul_pd(c, no)), _mm256_mul_pd(s, or_));
        st(power + 4 * m, _mm256_add_pd(_mm256_mul_pd(xr, xr), _mm256_mul_pd(xi, xi)));
    }
}

/// LogTable.log, four lanes (positive, finite, normal values).
WIDE_INLINE V tableLog(V x, const double *t) {
    __m256i bits = _mm256_castpd_si256(x);
    // e: the exponent field (x is positive: no sign bit) OR-ed into the mantissa of 2⁵², less
    // 2⁵² + 1023 (exact).
    V e = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(bits, 52), _mm256_set1_epi64x(0x4330000000000000LL))),
                        splat(4503599627370496.0 + 1023.0));
    // Each lane's (1/c, log c): two 2-value loads per pair of lanes, interleaved.
    long long at[4];
    _mm256_storeu_si256((__m256i *)at, _mm256_and_si256(_mm256_srli_epi64(bits, 42), _mm256_set1_epi64x(0x3fe)));
    V ac = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(t + at[0])), _mm_loadu_pd(t + at[2]), 1);
    V bd = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(t + at[1])), _mm_loadu_pd(t + at[3]), 1);
    V invC = _mm256_unpacklo_pd(ac, bd), logC = _mm256_unpackhi_pd(ac, bd);
    // m − c = (1 + low 43 bits) − (1 + 2⁻¹⁰), exact.
    V y = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0x000007ffffffffffLL)),
                                              _mm256_set1_epi64x(0x3ff0000000000000LL)));
    V r = _mm256_mul_pd(_mm256_sub_pd(y, splat(1.0009765625)), invC);
    V inner = _mm256_add_pd(splat(-0.5), _mm256_mul_pd(r, _mm256_sub_pd(splat(1.0 / 3), _mm256_mul_pd(splat(0.25), r))));
    V poly = _mm256_add_pd(r, _mm256_mul_pd(_mm256_mul_pd(r, r), inner));
    return _mm256_add_pd(_mm256_mul_pd(e, splat(0.6931471805598903)),
                         _mm256_add_pd(logC, _mm256_add_pd(_mm256_mul_pd(e, splat(5.497923018708371e-14)), poly)));
}

/// P log P of four lanes, with values below the smallest normal (zeros) as log 1.
WIDE_INLINE V pLogP(V a, const double *t) {
    V ok = _mm256_cmp_pd(a, splat(2.2250738585072014e-308), _CMP_GE_OQ);
    V la = tableLog(_mm256_blendv_pd(splat(1.0), a, ok), t);
    return _mm256_mul_pd(a, la);
}

/// One step of a largest-value chain: a strict "greater" keeps the first of equals.
WIDE_INLINE void maxStep(V v, long k, V *best, __m256i *at) {
    V gt = _mm256_cmp_pd(v, *best, _CMP_GT_OQ);
    *best = _mm256_blendv_pd(*best, v, gt);
    *at = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(*at), _mm256_castsi256_pd(_mm256_set1_epi64x(k)), gt));
}

// Kernels.sum, LogTable.sumPLogP and Kernels.firstMaxIndex over bins 1 … half, four lanes.
WIDE void motus_spectrum4(const double *power, long half, const double *logTable,
                          double *total, double *plogp, long *firstMax) {
    const double *p = power + 4;      // bin 1
    const V zero = _mm256_setzero_pd();
    // Kernels.sum: partial sums by index mod 4, then (s0 + s2) + (s1 + s3). With it, the
    // largest value in two chains (odd and even bins, each keeping its first largest; one
    // chain would wait on each compare), merged below.
    V s0 = zero, s1 = zero, s2 = zero, s3 = zero, b0 = zero, b1 = zero;
    const __m256i none = _mm256_set1_epi64x(1L << 62);
    __m256i a0 = none, a1 = none;
    long i = 0;
    for (; i + 4 <= half; i += 4) {
        V v0 = ld(p + 4 * i), v1 = ld(p + 4 * (i + 1)), v2 = ld(p + 4 * (i + 2)), v3 = ld(p + 4 * (i + 3));
        s0 = _mm256_add_pd(s0, v0); s1 = _mm256_add_pd(s1, v1); s2 = _mm256_add_pd(s2, v2); s3 = _mm256_add_pd(s3, v3);
        maxStep(v0, i + 1, &b0, &a0); maxStep(v1, i + 2, &b1, &a1); maxStep(v2, i + 3, &b0, &a0); maxStep(v3, i + 4, &b1, &a1);
    }
    V t = _mm256_add_pd(_mm256_add_pd(s0, s2), _mm256_add_pd(s1, s3));
    for (; i < half; i++) {
        V v = ld(p + 4 * i);
        t = _mm256_add_pd(t, v);
        maxStep(v, i + 1, &b0, &a0);
    }
    st(total, t);
    // Merge: the larger value, or the smaller bin among equals (a chain without a positive
    // value keeps 0 and `none`); no positive value at all gives bin 1.
    V gt = _mm256_cmp_pd(b1, b0, _CMP_GT_OQ), eq = _mm256_cmp_pd(b1, b0, _CMP_EQ_OQ);
    V take = _mm256_or_pd(gt, _mm256_and_pd(eq, _mm256_castsi256_pd(_mm256_cmpgt_epi64(a0, a1))));
    a0 = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(a0), _mm256_castsi256_pd(a1), take));
    V found = _mm256_castsi256_pd(_mm256_cmpgt_epi64(none, a0));
    a0 = _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(_mm256_set1_epi64x(1)), _mm256_castsi256_pd(a0), found));
    _mm256_storeu_si256((__m256i *)firstMax, a0);
    // LogTable.sumPLogP: even and odd indices apart, then even + odd.
    V e0 = zero, e1 = zero;
    long k = 0;
    for (; k + 3 < half; k += 4) {
        V l0 = pLogP(ld(p + 4 * k), logTable), l1 = pLogP(ld(p + 4 * (k + 1)), logTable);
        V l2 = pLogP(ld(p + 4 * (k + 2)), logTable), l3 = pLogP(ld(p + 4 * (k + 3)), logTable);
        e0 = _mm256_add_pd(_mm256_add_pd(e0, l0), l2);
        e1 = _mm256_add_pd(_mm256_add_pd(e1, l1), l3);
    }
    for (; k + 1 < half; k += 2) {
        e0 = _mm256_add_pd(e0, pLogP(ld(p + 4 * k), logTable));
        e1 = _mm256_add_pd(e1, pLogP(ld(p + 4 * (k + 1)), logTable));
    }
    if (k < half) e0 = _mm256_add_pd(e0, pLogP(ld(p + 4 * k), logTable));
    st(plogp, _mm256_add_pd(e0, e1));
}

/// Selection.sortPair's compare-exchange: b < a swaps them. minpd(b, a) is b < a ? b : a and
/// maxpd(a, b) is a > b ? a : b: exactly its two outcomes (signed zeros and NaN included).
WIDE_INLINE void cx(V *a, V *b) {
    V lo = _mm256_min_pd(*b, *a), hi = _mm256_max_pd(*a, *b);
    *a = lo; *b = hi;
}

/// Kernels.basicSums of x[0..<n], n ≥ 1: four-lane vectors whose lane j sums the values of
/// index ≡ j (mod 4), combined as Swift's two two-lane accumulators are.
WIDE_INLINE void basicSums(const double *x, long n, double *out) {
    const V signBit = splat(-0.0);
    V s = _mm256_setzero_pd(), q = s, a = s, lo = splat(x[0]), hi = lo;
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        V v = ld(x + i);
        s = _mm256_add_pd(s, v); q = _mm256_add_pd(q, _mm256_mul_pd(v, v)); a = _mm256_add_pd(a, _mm256_andnot_pd(signBit, v));
        lo = _mm256_min_pd(v, lo);                       // v < lo ? v : lo
        hi = _mm256_max_pd(v, hi);                       // v > hi ? v : hi
    }
    // (j0 + j2, j1 + j3), then their sum; minima: (j2 < j0 ? j2 : j0, …), then lane 1 < lane 0.
    __m128d s2 = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
    __m128d q2 = _mm_add_pd(_mm256_castpd256_pd128(q), _mm256_extractf128_pd(q, 1));
    __m128d a2 = _mm_add_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
    __m128d l2 = _mm_min_pd(_mm256_extractf128_pd(lo, 1), _mm256_castpd256_pd128(lo));
    __m128d h2 = _mm_max_pd(_mm256_extractf128_pd(hi, 1), _mm256_castpd256_pd128(hi));
    double sum = _mm_cvtsd_f64(s2) + _mm_cvtsd_f64(_mm_unpackhi_pd(s2, s2));
    double sumSq = _mm_cvtsd_f64(q2) + _mm_cvtsd_f64(_mm_unpackhi_pd(q2, q2));
    double sumAbs = _mm_cvtsd_f64(a2) + _mm_cvtsd_f64(_mm_unpackhi_pd(a2, a2));
    double l0 = _mm_cvtsd_f64(l2), l1 = _mm_cvtsd_f64(_mm_unpackhi_pd(l2, l2));
    double h0 = _mm_cvtsd_f64(h2), h1 = _mm_cvtsd_f64(_mm_unpackhi_pd(h2, h2));
    double mn = l1 < l0 ? l1 : l0, mx = h1 > h0 ? h1 : h0;
    for (; i < n; i++) {
        double v = x[i];
        sum += v; sumSq += v * v; sumAbs += __builtin_fabs(v);
        mn = v < mn ? v : mn; mx = v > mx ? v : mx;
    }
    out[0] = sum; out[1] = sumSq; out[2] = sumAbs; out[3] = mn; out[4] = mx;
}

// Selection.sortPair, four lanes, and each input's basicSums.
WIDE void motus_sort4(const double *x0, const double *x1, const double *x2, const double *x3, long n, long size,
                      double *out0, double *out1, double *out2, double *out3, double *w, double *sums) {
    basicSums(x0, n, sums); basicSums(x1, n, sums + 5); basicSums(x2, n, sums + 10); basicSums(x3, n, sums + 15);
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        V c0, c1, c2, c3;
        transpose(ld(x0 + i), ld(x1 + i), ld(x2 + i), ld(x3 + i), &c0, &c1, &c2, &c3);
        st(w + 4 * i, c0); st(w + 4 * (i + 1), c1); st(w + 4 * (i + 2), c2); st(w + 4 * (i + 3), c3);
    }
    for (; i < n; i++) st(w + 4 * i, _mm256_set_pd(x3[i], x2[i], x1[i], x0[i]));
    for (; i < size; i++) st(w + 4 * i, splat(__builtin_inf()));
    int grouped = size >= 8;
    if (grouped) {
        for (long g = 0; g < size; g += 8) {
            double *q = w + 4 * g;
            V v0 = ld(q), v1 = ld(q + 4), v2 = ld(q + 8), v3 = ld(q + 12);
            V v4 = ld(q + 16), v5 = ld(q + 20), v6 = ld(q + 24), v7 = ld(q + 28);
            cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7);
            cx(&v0, &v3); cx(&v1, &v2); cx(&v4, &v7); cx(&v5, &v6);
            cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7);
            cx(&v0, &v7); cx(&v1, &v6); cx(&v2, &v5); cx(&v3, &v4);
            cx(&v0, &v2); cx(&v1, &v3); cx(&v4, &v6); cx(&v5, &v7);
            cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7);
            st(q, v0); st(q + 4, v1); st(q + 8, v2); st(q + 12, v3);
            st(q + 16, v4); st(q + 20, v5); st(q + 24, v6); st(q + 28, v7);
        }
    }
    for (long k = grouped ? 16 : 2; k <= size; k <<= 1) {
        // k = 32 and 64: the mirrored step and the steps of distance 16 and 8 (those left for
        // memory) on groups of 4 or 8 values that they only exchange among themselves,
        // {t + 8m, k − 1 − t − 8m} in each block, t < 8, held in registers: one pass instead of
        // two or three, with the same compare-exchanges (those of one step are disjoint, so
        // their order is free).
        if (grouped && k == 32) {
            for (long block = 0; block < size; block += 32) {
                for (long t = 0; t < 8; t++) {
                    double *p0 = w + 4 * (block + t), *p1 = w + 4 * (block + t + 8);
                    double *p2 = w + 4 * (block + 23 - t), *p3 = w + 4 * (block + 31 - t);
                    V a0 = ld(p0), a1 = ld(p1), a2 = ld(p2), a3 = ld(p3);
                    cx(&a0, &a3); cx(&a1, &a2);                 // mirrored
                    cx(&a0, &a1); cx(&a2, &a3);                 // distance 8
                    st(p0, a0); st(p1, a1); st(p2, a2); st(p3, a3);
                }
            }
        } else if (grouped && k == 64) {
            for (long block = 0; block < size; block += 64) {
                for (long t = 0; t < 8; t++) {
                    double *p0 = w + 4 * (block + t), *p1 = w + 4 * (block + t + 8);
                    double *p2 = w + 4 * (block + t + 16), *p3 = w + 4 * (block + t + 24);
                    double *p4 = w + 4 * (block + 39 - t), *p5 = w + 4 * (block + 47 - t);
                    double *p6 = w + 4 * (block + 55 - t), *p7 = w + 4 * (block + 63 - t);
                    V a0 = ld(p0), a1 = ld(p1), a2 = ld(p2), a3 = ld(p3), a4 = ld(p4), a5 = ld(p5), a6 = ld(p6), a7 = ld(p7);
                    cx(&a0, &a7); cx(&a1, &a6); cx(&a2, &a5); cx(&a3, &a4);   // mirrored
                    cx(&a0, &a2); cx(&a1, &a3); cx(&a4, &a6); cx(&a5, &a7);   // distance 16
                    cx(&a0, &a1); cx(&a2, &a3); cx(&a4, &a5); cx(&a6, &a7);   // distance 8
                    st(p0, a0); st(p1, a1); st(p2, a2); st(p3, a3); st(p4, a4); st(p5, a5); st(p6, a6); st(p7, a7);
                }
            }
        } else {
            for (long block = 0; block < size; block += k) {
                for (long t = 0; t < k / 2; t++) {
                    V a = ld(w + 4 * (block + t)), b = ld(w + 4 * (block + k - 1 - t));
                    cx(&a, &b);
                    st(w + 4 * (block + t), a); st(w + 4 * (block + k - 1 - t), b);
                }
            }
            for (long j = k / 4; j >= (grouped ? 8 : 1); j >>= 1) {
                for (long block = 0; block < size; block += 2 * j) {
                    for (long t = 0; t < j; t++) {
                        V a = ld(w + 4 * (block + t)), b = ld(w + 4 * (block + t + j));
                        cx(&a, &b);
                        st(w + 4 * (block + t), a); st(w + 4 * (block + t + j), b);
                    }
                }
            }
        }
        if (grouped) {
            for (long g = 0; g < size; g += 8) {
                double *q = w + 4 * g;
                V v0 = ld(q), v1 = ld(q + 4), v2 = ld(q + 8), v3 = ld(q + 12);
                V v4 = ld(q + 16), v5 = ld(q + 20), v6 = ld(q + 24), v7 = ld(q + 28);
                cx(&v0, &v4); cx(&v1, &v5); cx(&v2, &v6); cx(&v3, &v7);
                cx(&v0, &v2); cx(&v1, &v3); cx(&v4, &v6); cx(&v5, &v7);
                cx(&v0, &v1); cx(&v2, &v3); cx(&v4, &v5); cx(&v6, &v7);
                st(q, v0); st(q + 4, v1); st(q + 8, v2); st(q + 12, v3);
                st(q + 16, v4); st(q + 20, v5); st(q + 24, v6); st(q + 28, v7);
            }
        }
    }
    i = 0;
    for (; i + 4 <= n; i += 4) {
        V c0, c1, c2, c3;
        transpose(ld(w + 4 * i), ld(w + 4 * (i + 1)), ld(w + 4 * (i + 2)), ld(w + 4 * (i + 3)), &c0, &c1, &c2, &c3);
        st(out0 + i, c0); st(out1 + i, c1); st(out2 + i, c2); st(out3 + i, c3);
    }
    for (; i < n; i++) { out0[i] = w[4 * i]; out1[i] = w[4 * i + 1]; out2[i] = w[4 * i + 2]; out3[i] = w[4 * i + 3]; }
}

/// Selection.split: the start of rank k's range plus the count of i in it with b[k − i] > a[i].
WIDE_INLINE long splitOf(const double *a, long p, const double *b, long q, long k) {
    long lo = k + 1 - q > 0 ? k + 1 - q : 0, hi = k + 1 < p ? k + 1 : p;
    __m256i acc0 = _mm256_setzero_si256(), acc1 = acc0;
    long i = lo;
    for (; i + 8 <= hi; i += 8) {
        // b[k − i − 3 … k − i], reversed, against a[i … i + 3].
        V b0 = _mm256_permute4x64_pd(ld(b + k - i - 3), 0x1B), b1 = _mm256_permute4x64_pd(ld(b + k - i - 7), 0x1B);
        acc0 = _mm256_sub_epi64(acc0, _mm256_castpd_si256(_mm256_cmp_pd(b0, ld(a + i), _CMP_GT_OQ)));
        acc1 = _mm256_sub_epi64(acc1, _mm256_castpd_si256(_mm256_cmp_pd(b1, ld(a + i + 4), _CMP_GT_OQ)));
    }
    for (; i + 4 <= hi; i += 4) {
        V b0 = _mm256_permute4x64_pd(ld(b + k - i - 3), 0x1B);
        acc0 = _mm256_sub_epi64(acc0, _mm256_castpd_si256(_mm256_cmp_pd(b0, ld(a + i), _CMP_GT_OQ)));
    }
    long long c[4];
    _mm256_storeu_si256((__m256i *)c, _mm256_add_epi64(acc0, acc1));
    long count = (long)(c[0] + c[1] + c[2] + c[3]);
    for (; i < hi; i++) count += b[k - i] > a[i];
    return lo + count;
}

/// Selection.mergedRank then Selection.interpolate: the value of rank k and the next one,
/// interpolated at f (max and min written as Swift's, `y >= x ? y : x` and `y < x ? y : x`).
WIDE_INLINE double pick(const double *a, long p, const double *b, long q, long k, long i, double f) {
    long j = k + 1 - i;
    double fromA = i > 0 ? a[i - 1] : -__builtin_inf(), fromB = j > 0 ? b[j - 1] : -__builtin_inf();
    double v = i == 0 ? fromB : (j == 0 ? fromA : (fromB >= fromA ? fromB : fromA));
    if (f == 0) return v;
    double w = v;
    if (k + 1 < p + q) {
        double nextA = i < p ? a[i] : __builtin_inf(), nextB = j < q ? b[j] : __builtin_inf();
        w = i >= p ? nextB : (j >= q ? nextA : (nextB < nextA ? nextB : nextA));
    }
    return v + f * (w - v);
}

WIDE void motus_quartiles_sorted(const double *a, long p, const double *b, long q, double *out) {
    double h = (double)(p + q - 1);
    double h25 = h * 0.25, h50 = h * 0.5, h75 = h * 0.75;
    long k25 = (long)h25, k50 = (long)h50, k75 = (long)h75;
    out[0] = pick(a, p, b, q, k25, splitOf(a, p, b, q, k25), h25 - (double)k25);
    out[1] = pick(a, p, b, q, k50, splitOf(a, p, b, q, k50), h50 - (double)k50);
    out[2] = pick(a, p, b, q, k75, splitOf(a, p, b, q, k75), h75 - (double)k75);
}

#else

// Not x86-64: the Swift kernels run; these are never called.
int motus_kernels_wide_available(void) { return 0; }
void motus_channels4(const double *x0, const double *x1, const double *x2, const double *x3, long n,
                     const double *shift, double *d0, double *d1, double *d2, double *d3,
                     double *moments, long *crossings,
                     const double *window, long h, const long *bitReverse, double *work) {
    (void)x0; (void)x1; (void)x2; (void)x3; (void)n; (void)shift; (void)d0; (void)d1; (void)d2; (void)d3;
    (void)moments; (void)crossings; (void)window; (void)h; (void)bitReverse; (void)work;
}
void motus_transform4(long h, const double *twr, const double *twi, const double *sc, const double *ss,
                      double *work, double *power) {
    (void)h; (void)twr; (void)twi; (void)sc; (void)ss; (void)work; (void)power;
}
void motus_spectrum4(const double *power, long half, const double *logTable,
                     double *total, double *plogp, long *firstMax) {
    (void)power; (void)half; (void)logTable; (void)total; (void)plogp; (void)firstMax;
}
void motus_quartiles_sorted(const double *a, long p, const double *b, long q, double *out) {
    (void)a; (void)p; (void)b; (void)q; (void)out;
}
void motus_sort4(const double *x0, const double *x1, const double *x2, const double *x3, long n, long size,
                 double *out0, double *out1, double *out2, double *out3, double *work, double *sums) {
    (void)x0; (void)x1; (void)x2; (void)x3; (void)n; (void)size; (void)out0; (void)out1; (void)out2; (void)out3; (void)work;
    (void)sums;
}

#endif
