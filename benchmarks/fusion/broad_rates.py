"""BROAD at other sampling rates: Motus and VQF on the very same resampled samples.

Issue #19 asks for a filter that is right against the truth at any rate from 25 to 400 Hz, and
BROAD is recorded at 285.7 Hz. For each rate, every trial is written as a device sampling at that
rate would have recorded it by `motus convert TRIAL.mat --resample HZ` (accelerometer, gyroscope
and magnetometer low-passed at 0.4 × HZ first, causally, as a sensor's anti-alias filter is; the
optical reference taken on the same grid by slerp, holes kept; Sources/MotusSignal/DeviceRate.swift),
and scored by BROAD's protocol (inclination error, the angle between the estimated and the
reference up direction, over the movement phases):

- Motus: `motus evaluate-fusion BROAD --resample HZ` (causal, default settings), and `--offline`;
- VQF 2.1.2 (the `vqf` package), 6D, default parameters, causal (`VQF.updateBatch`) and offline
  (`offlineVQF`), on the samples `motus convert` wrote, read back from its CSV.

Median / p95 / RMSE in degrees, pooled over all scored samples of the shared trials.

    swift build -c release --product motus
    python3 -m venv .venv-fusion && .venv-fusion/bin/pip install numpy vqf
    .venv-fusion/bin/python benchmarks/fusion/broad_rates.py [--data ../shared/datasets/broad] [--rates 25,50,100,200,400]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coremotion_consistency import read_csv  # noqa: E402  (the CSV reader of `motus convert` output)


def up_in_device(q):
    """Up (Earth z) in the device frame for quaternions q (n×4, w x y z, device → Earth)."""
    w, x, y, z = q.T
    return np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], 1)


def angles(a, b):
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return np.degrees(np.arccos(np.clip((a * b).sum(1), -1, 1)))


def summary(e):
    e = np.concatenate(e)
    return np.median(e), np.percentile(e, 95), np.sqrt(np.mean(e ** 2))


def vqf_errors(path, motus, rate, tmp):
    """VQF causal and offline inclination errors (degrees) on one trial resampled to `rate`."""
    import vqf
    out = os.path.join(tmp, "trial.csv")
    r = subprocess.run([motus, "convert", path, "--resample", str(rate), "--out", out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"motus convert {path} --resample {rate} failed: {r.stderr.strip()}")
    s, labels = read_csv(out)
    t, acc = s["acc"]
    tg, gyr = s["gyro"]
    if not np.array_equal(t, tg):
        sys.exit(f"{path}: accelerometer and gyroscope are not on one grid after --resample {rate}")
    tr, ref = s["reference_attitude"]
    idx = np.searchsorted(t, tr)
    ok = (idx < len(t)) & (t[np.minimum(idx, len(t) - 1)] == tr)
    moving = np.zeros(len(tr), bool)
    for lo, hi, lab in labels:
        if lab == "movement":
            moving |= (tr >= lo) & (tr <= hi)
    sel = ok & moving
    ts = 1.0 / rate
    acc, gyr = np.ascontiguousarray(acc), np.ascontiguousarray(gyr)
    up_ref = up_in_device(ref[sel])
    causal = up_in_device(vqf.VQF(ts).updateBatch(gyr, acc)["quat6D"])[idx[sel]]
    offline = up_in_device(vqf.offlineVQF(gyr, acc, None, ts)["quat6D"])[idx[sel]]
    return angles(causal, up_ref), angles(offline, up_ref)


def motus_figures(motus, data, rate, offline):
    args = [motus, "evaluate-fusion", data, "--resample", str(rate), "--format", "json"] + (["--offline"] if offline else [])
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(args)} failed: {r.stderr.strip()}")
    j = json.loads(r.stdout)
    return j["median_deg"], j["p95_deg"], j["rmse_deg"]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", default=os.path.join(os.environ.get("MOTUS_DATASETS", os.path.join(root, "..", "shared", "datasets")), "broad"))
    ap.add_argument("--rates", default="25,50,100,200,400", help="comma-separated rates in Hz")
    ap.add_argument("--motus", default=os.path.join(root, ".build", "release", "motus"))
    a = ap.parse_args()
    trials = sorted(os.path.join(a.data, "data_mat", f) for f in os.listdir(os.path.join(a.data, "data_mat")) if f.endswith(".mat"))
    print(f"BROAD, {len(trials)} trials, inclination error over the movement phases (median / p95 / RMSE, degrees)\n")
    print("| rate (Hz) | Motus causal | VQF causal | Motus offline | VQF offline |")
    print("|---|---|---|---|---|")
    fmt = lambda f: " / ".join(f"{x:.2f}" for x in f)
    with tempfile.TemporaryDirectory() as tmp:
        for rate in [float(x) for x in a.rates.split(",")]:
            causal, offline = [], []
            for path in trials:
                c, o = vqf_errors(path, a.motus, rate, tmp)
                causal.append(c); offline.append(o)
            print(f"| {rate:g} | {fmt(motus_figures(a.motus, a.data, rate, False))} | {fmt(summary(causal))} | "
                  f"{fmt(motus_figures(a.motus, a.data, rate, True))} | {fmt(summary(offline))} |", flush=True)


if __name__ == "__main__":
    main()
