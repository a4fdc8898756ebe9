#!/usr/bin/env python3
"""Hand-vectorised numpy implementation of the MotusFeatures feature set, for speed comparison.

Same definitions as Sources/MotusFeatures (FeatureConfiguration / WindowKernel):
per channel: mean, std (ddof 0), min, max, range, median, iqr (numpy linear percentile),
rms, skewness and excess kurtosis (biased, scipy defaults; 0 for constant windows),
mean-crossing rate, sma (mean |x|), autocorrelation peak (highest local max of the biased
normalised ACF in [ceil(0.25 rate), floor(2.5 rate)] clipped to [1, N-2]) and its lag (s),
dominant frequency (Hann-windowed, mean removed, zero-padded to a power of two, DC excluded,
parabolic refinement), band energy fractions, normalised spectral entropy; then Pearson
correlations of channel pairs.

Input: the generated signal of `generate` (the Swift benchmark uses the same formula):
11 channels, windows of 128 samples at 50 Hz, hop 64.

Run: OPENBLAS_NUM_THREADS=1 python3 benchmarks/compare/features_numpy.py [frames] [--basic]
(--basic: the 14 features mean, std, min, max, range, median, iqr, rms, skewness, kurtosis,
mcr, sma, dominant frequency, spectral entropy per channel, no correlations.)
Times are CPU time of this process (best of 3), so other load on the machine counts less.
"""
import sys
import time

import numpy as np

RATE = 50.0
N = 128
HOP = 64
BAND_EDGES = [0.0, 0.5, 3.0, 8.0, 25.0]
MIN_LAG, MAX_LAG = 0.25, 2.5
CHANNELS = 11
# Correlation pairs as channel indices, in the order of FeatureConfiguration.allChannels:
# channels accMag, uaccMag, accVert, accHoriz, gyroMag, accX, accY, accZ, gyroX, gyroY, gyroZ.
PAIRS = [(2, 3), (1, 4), (5, 6), (5, 7), (6, 7), (8, 9), (8, 10), (9, 10)]


def generate(frames, channels=CHANNELS):
    """x[c, i] = sin(0.05 (c+1) i) + 0.3 sin(1.3 i + c) + 0.1 sin(0.001 (c+1) i^2) + 0.2 c."""
    i = np.arange(frames, dtype=np.float64)
    c = np.arange(channels, dtype=np.float64)[:, None]
    return np.sin(0.05 * (c + 1) * i) + 0.3 * np.sin(1.3 * i + c) + 0.1 * np.sin(0.001 * (c + 1) * i * i) + 0.2 * c


def windows(x, n=N, hop=HOP):
    """(channels, frames) -> (W, channels, n) copy."""
    v = np.lib.stride_tricks.sliding_window_view(x, n, axis=1)[:, ::hop, :]
    return np.ascontiguousarray(v.transpose(1, 0, 2))


BASIC = ["mean", "std", "min", "max", "range", "median", "iqr", "rms", "skewness", "kurtosis", "mcr", "sma",
         "domFreq", "specEntropy"]


def features(X, rate=RATE, pairs=PAIRS, basic=False):
    """Feature matrix (W, C * F + len(pairs)). basic=True: only the 14 features of BASIC per
    channel (no autocorrelation, no bands) and no pairs."""
    W, C, n = X.shape
    m = 1 << int(np.ceil(np.log2(n)))
    mean = X.mean(-1)
    d = X - mean[..., None]
    lo = X.min(-1)
    hi = X.max(-1)
    const = lo == hi
    d[const] = 0.0
    d2 = d * d
    m2s = d2.sum(-1)
    var = m2s / n
    std = np.sqrt(var)
    safe = np.where(const, 1.0, var)
    skew = np.where(const, 0.0, (d2 * d).mean(-1) / (safe * np.sqrt(safe)))
    kurt = np.where(const, 0.0, (d2 * d2).mean(-1) / (safe * safe) - 3.0)
    q25, med, q75 = np.percentile(X, [25, 50, 75], axis=-1)
    rms = np.sqrt((X * X).mean(-1))
    neg = d < 0
    mcr = (neg[..., 1:] != neg[..., :-1]).sum(-1) / (n - 1)
    sma = np.abs(X).mean(-1)
    if basic:
        pairs = []
    else:
        acf_peak, acf_lag = autocorrelation(d, m2s, const, n, rate)
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(n) / n)
    S = np.fft.rfft(d * hann, n=m, axis=-1)[..., 1:]
    P = S.real ** 2 + S.imag ** 2
    half = m // 2
    total = P.sum(-1)
    tsafe = np.where(total > 0, total, 1.0)
    kb = P.argmax(-1)  # index into bins 1..half
    pa = np.take_along_axis(P, np.clip(kb - 1, 0, half - 1)[..., None], -1)[..., 0]
    pb = np.take_along_axis(P, kb[..., None], -1)[..., 0]
    pc = np.take_along_axis(P, np.clip(kb + 1, 0, half - 1)[..., None], -1)[..., 0]
    den = pa - 2 * pb + pc
    inner = (kb >= 1) & (kb < half - 1) & (den < 0)
    delta = np.where(inner, 0.5 * (pa - pc) / np.where(den < 0, den, -1.0), 0.0)
    dom = np.where(total > 0, (kb + 1 + delta) * rate / m, 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        plogp = np.where(P > 0, P * np.log(np.where(P > 0, P, 1.0)), 0.0).sum(-1)
    ent = np.where(total > 0, np.maximum(0.0, (np.log(tsafe) - plogp / tsafe) / np.log(half)), 0.0)
    if basic:
        per = np.stack([mean, std, lo, hi, hi - lo, med, q75 - q25, rms, skew, kurt, mcr, sma, dom, ent], axis=-1)
        return per.reshape(W, -1)
    freqs = np.arange(1, half + 1) * rate / m
    bands = []
    for b in range(len(BAND_EDGES) - 1):
        a, e = BAND_EDGES[b], BAND_EDGES[b + 1]
        mask = (freqs >= a) & ((freqs < e) | ((b == len(BAND_EDGES) - 2) & (freqs == e)))
        bands.append(np.where(total > 0, (P * mask).sum(-1) / tsafe, 0.0))
    per = np.stack([mean, std, lo, hi, hi - lo, med, q75 - q25, rms, skew, kurt, mcr, sma,
                    acf_peak, acf_lag, dom] + bands + [ent], axis=-1)  # (W, C, F)
    out = [per.reshape(W, -1)]
    if pairs:
        a = np.array([p[0] for p in pairs])
        b = np.array([p[1] for p in pairs])
        num = (d[:, a, :] * d[:, b, :]).sum(-1)
        den = np.sqrt(m2s[:, a] * m2s[:, b])
        bad = const[:, a] | const[:, b]
        out.append(np.where(bad, 0.0, np.clip(num / np.where(bad, 1.0, den), -1, 1)))
    return np.concatenate(out, axis=1)


def autocorrelation(d, m2s, const, n, rate):
    """Highest local maximum of the biased normalised ACF in the lag range, and its lag (s),
    by FFT (zero-padded to avoid wrap-around)."""
    ma = 1 << int(np.ceil(np.log2(2 * n)))
    F = np.fft.rfft(d, n=ma, axis=-1)
    r = np.fft.irfft(F.real ** 2 + F.imag ** 2, n=ma, axis=-1)[..., :n]
    r = r / np.where(const, 1.0, m2s)[..., None]
    klo = max(1, int(np.ceil(MIN_LAG * rate - 1e-9)))
    khi = min(n - 2, int(np.floor(MAX_LAG * rate + 1e-9)))
    mid = r[..., klo:khi + 1]
    is_peak = (mid > r[..., klo - 1:khi]) & (mid >= r[..., klo + 1:khi + 2])
    masked = np.where(is_peak, mid, -np.inf)
    k = masked.argmax(-1)
    has = is_peak.any(-1) & ~const
    acf_peak = np.where(has, np.take_along_axis(mid, k[..., None], -1)[..., 0], 0.0)
    acf_lag = np.where(has, (k + klo) / rate, 0.0)
    return acf_peak, acf_lag



def extract(x, chunk=256, basic=False):
    """All windows of x, in chunks of `chunk` windows so the temporaries stay in cache."""
    W = (x.shape[1] - N) // HOP + 1
    parts = []
    for w0 in range(0, W, chunk):
        w1 = min(W, w0 + chunk)
        parts.append(features(windows(x[:, w0 * HOP:(w1 - 1) * HOP + N]), basic=basic))
    return np.concatenate(parts, axis=0)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    basic = "--basic" in sys.argv
    frames = int(args[0]) if args else 64 * 20000 + N
    x = generate(frames)
    features(windows(x[:, :N * 4]), basic=basic)  # warm-up
    best = float("inf")
    for _ in range(3):
        t0 = time.process_time()
        f = extract(x, basic=basic)
        best = min(best, time.process_time() - t0)
    W = f.shape[0]
    print(("basic 14-feature set, " if basic else "full set, ") +f"numpy {np.__version__}: {W} windows x {CHANNELS} channels x {N} samples -> {f.shape[1]} features; "
          f"best of 3 (CPU time): {best:.3f} s, {W / best:,.0f} windows/s")


if __name__ == "__main__":
    main()
