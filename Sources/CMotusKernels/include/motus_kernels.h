#ifndef MOTUS_KERNELS_H
#define MOTUS_KERNELS_H

// Four-lane (AVX2) versions of MotusFeatures' per-window kernels, chosen at run time.
//
// Each function does, in every lane, exactly the operations of the portable Swift code it
// stands for (the same products, sums and order, no fused multiply-add), one channel per lane,
// so both paths give the same values bit for bit. The Swift side calls them only when
// `motus_kernels_wide_available()` returns 1 (an x86-64 processor and OS with AVX2); elsewhere
// (Apple silicon, older x86) the functions are never called.

#ifdef __cplusplus
extern "C" {
#endif

/// 1 when this processor and OS run AVX2 code (x86-64 only), else 0.
int motus_kernels_wide_available(void);

/// Power spectra of four real inputs of M = 2h values at once, packed into `work` by
/// `motus_channels4` (the two-input transform of `PowerSpectrum`, four lanes). Tables as
/// `PowerSpectrum` stores them: twiddles `twr`/`twi` of every stage (stage len's at
/// len/2 − 2), split `sc`/`ss` (h + 1). `work`: 8h doubles. Writes the power of bin k, lane c
/// at `power[4k + c]`, k = 0 … h.
void motus_transform4(long h, const double *twr, const double *twi, const double *sc, const double *ss,
                      double *work, double *power);

/// For four channels x_c[0..<n] (lane c): d_i = x_c[i] − shift[c], kept in d_c when d0 is not
/// NULL; Σd², Σd³, Σd⁴ into moments[c], [4 + c], [8 + c] (the order of
/// `Kernels.centeredMoments`); the count of i < n − 1 with (d_i < 0) ≠ (d_{i+1} < 0) into
/// crossings[c] (`Kernels.signChanges`). When h > 0 (2h ≥ n), also packs d_i × window[i]
/// (window may be NULL: d_i), then zeros up to 2h, into `work` for `motus_transform4`;
/// `bitReverse` is the bit reversal of h as `PowerSpectrum` keeps it. n ≥ 1.
void motus_channels4(const double *x0, const double *x1, const double *x2, const double *x3, long n,
                     const double *shift, double *d0, double *d1, double *d2, double *d3,
                     double *moments, long *crossings,
                     const double *window, long h, const long *bitReverse, double *work);

/// Per lane c over the interleaved powers p[4k + c], k = 1 … half: the total (the order of
/// `Kernels.sum`), Σ P log P (the order and table log of `LogTable.sumPLogP`; `logTable` as
/// `LogTable.fill` writes it) and the first k of the largest
/// positive power (1 when none is positive, as `Kernels.firstMaxIndex`).
void motus_spectrum4(const double *power, long half, const double *logTable,
                     double *total, double *plogp, long *firstMax);

/// Sorts x_c[0..<n] into out_c for four inputs at once with the bitonic network of
/// `Selection.sortPair` (padded with +∞ to `size`, a power of two ≥ n). `work`: 4 × size.
/// Also writes each input's `Kernels.basicSums` (Σx, Σx², Σ|x|, min, max, in its order) at
/// sums[5c … 5c + 4]. n ≥ 1.
void motus_sort4(const double *x0, const double *x1, const double *x2, const double *x3, long n, long size,
                 double *out0, double *out1, double *out2, double *out3, double *work, double *sums);

/// numpy-style linear 25th, 50th and 75th percentiles of the union of the sorted a[0..<p] and
/// b[0..<q] (p, q ≥ 1) into out[0], out[1], out[2]: `Selection.quartilesOfSorted`, whose
/// splits it finds by counting the same compares four at a time.
void motus_quartiles_sorted(const double *a, long p, const double *b, long q, double *out);

#ifdef __cplusplus
}
#endif

#endif
