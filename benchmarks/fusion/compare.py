#!/usr/bin/env python3
"""Motus vs VQF vs imufusion on MotionSense: gravity angle error against CoreMotion.

Runs, in one process and on the same data:
  - VQF (Laidig & Seel 2023, PyPI `vqf`, C++ core through updateBatch), default settings
    and tuned (tauAcc 20 s, bias estimation off);
  - imufusion (x-io Fusion's Python package, PyPI `imufusion`), default settings and tuned
    (gain 0.05, acceleration rejection 45 degrees);
  - a 1 s low-pass of the accelerometer (numpy);
  - Motus, through the FusionEval executable of this folder (`swift build -c release` here
    first), which reads the same CSVs and prints JSON with its own timing.
With --tune, the peers' settings are instead chosen by a small grid search on the odd-numbered
subjects only (the figures on even-numbered subjects are then out of sample).

Raw acceleration is rebuilt as gravity + userAcceleration (CoreMotion sign flipped to the
Android/VQF convention, gravity pointing up), the gyroscope is CoreMotion's rotationRate, the
reference is CoreMotion's gravity, and the first 2 s of every recording are skipped. Medians and
95th percentiles are over all samples pooled. Time per sample is the filter alone on
in-memory arrays (best of --repeats).

Setup (keep the venv out of git):
  python3 -m venv .venv-fusion && .venv-fusion/bin/pip install numpy imufusion vqf pandas
  (cd benchmarks/fusion && swift build -c release)
  .venv-fusion/bin/python benchmarks/fusion/compare.py [--data DIR] [--tune] [--json]
"""
import argparse, glob, json, os, subprocess, sys, time
import numpy as np
import pandas as pd

G = 9.80665
HERE = os.path.dirname(os.path.abspath(__file__))


def load(root):
    files = []
    for path in sorted(glob.glob(os.path.join(root, "motionsense", "A_DeviceMotion_data", "*", "sub_*.csv"))):
        d = pd.read_csv(path, index_col=0)
        grav = d[["gravity.x", "gravity.y", "gravity.z"]].to_numpy()
        uacc = d[["userAcceleration.x", "userAcceleration.y", "userAcceleration.z"]].to_numpy()
        gyr = np.ascontiguousarray(d[["rotationRate.x", "rotationRate.y", "rotationRate.z"]].to_numpy())
        folder = os.path.basename(os.path.dirname(path))
        files.append(dict(name=folder + "/" + os.path.basename(path)[:-4], activity=folder.split("_")[0],
                          subject=int(os.path.basename(path)[4:-4]),
                          acc=np.ascontiguousarray(-(grav + uacc) * G), gyr=gyr, ref=-grav))
    return files


def quat_inv_rotate_z(q):
    """Gravity direction (up) in the body frame for body->earth quaternions q (n x 4, wxyz)."""
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], axis=1)


def run_vqf(f, params):
    import vqf
    v = vqf.VQF(0.02, **params)
    out = v.updateBatch(f["gyr"], f["acc"])
    return quat_inv_rotate_z(out["quat6D"])


def run_imufusion(f, params):
    import imufusion
    ahrs = imufusion.Ahrs()
    # Fusion's documented defaults (gain 0.5, 10 degree rejection, 5 s timeout) at 50 Hz.
    params = params or dict(gain=0.5, acceleration_rejection=10.0, magnetic_rejection=10.0)
    if True:
        s = imufusion.AhrsSettings()
        s.convention = imufusion.CONVENTION_NWU
        s.gain = params["gain"]
        s.gyroscope_range = 2000.0
        s.acceleration_rejection = params["acceleration_rejection"]
        s.magnetic_rejection = params.get("magnetic_rejection", 0.0)
        s.rejection_timeout = 5 * 50
        s.sample_rate = 50
        ahrs.set_settings(s)
    gyr_deg = np.degrees(f["gyr"])
    acc_g = f["acc"] / G
    n = len(acc_g)
    out = np.empty((n, 3))
    for i in range(n):
        ahrs.update_no_magnetometer(gyr_deg[i], acc_g[i])
        out[i] = ahrs.get_gravity()
    return out


def run_lowpass(f, tau=1.0):
    a = f["acc"]
    out = np.empty_like(a)
    k = 1 - np.exp(-0.02 / tau)
    s = a[0].copy()
    for i in range(len(a)):
        s += (a[i] - s) * k
        out[i] = s
    return out


def errors(est, ref, skip=100):
    e, r = est[skip:], ref[skip:]
    c = np.sum(e * r, axis=1) / (np.linalg.norm(e, axis=1) * np.linalg.norm(r, axis=1))
    return np.degrees(np.arccos(np.clip(c, -1, 1)))


def summarise(files, errs):
    def s(sel):
        x = np.concatenate([errs[i] for i, f in enumerate(files) if sel(f)])
        return dict(median_deg=float(np.median(x)), p95_deg=float(np.percentile(x, 95)), count=int(x.size))
    res = dict(overall=s(lambda f: True), odd=s(lambda f: f["subject"] % 2 == 1), even=s(lambda f: f["subject"] % 2 == 0))
    for act in sorted({f["activity"] for f in files}):
        res[act] = s(lambda f, a=act: f["activity"] == a)
    return res


def evaluate(files, fn, repeats=1):
    best, errs = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        ests = [fn(f) for f in files]
        best = min(best, time.perf_counter() - t0)
        errs = [errors(e, f["ref"]) for e, f in zip(ests, files)]
    n = sum(len(f["acc"]) for f in files)
    r = summarise(files, errs)
    r["ns_per_sample"] = best / n * 1e9
    return r


def tune(files, fn, grid):
    odd = [f for f in files if f["subject"] % 2 == 1]
    best = None
    for p in grid:
        r = evaluate(odd, lambda f: fn(f, p))["overall"]
        key = (r["median_deg"] + r["p95_deg"] / 10)  # both matter; p95 is ~10x the median
        print(f"  tune {p}: median {r['median_deg']:.2f} p95 {r['p95_deg']:.1f}", file=sys.stderr)
        if best is None or key < best[0]:
            best = (key, p)
    return best[1]


def motus(data, binary, extra):
    out = subprocess.run([binary, "--data", data, "--repeats", "3"] + extra, capture_output=True, text=True, check=True)
    d = json.loads(out.stdout)
    r = dict(overall=d["overall"], odd=d["odd"], even=d["even"], ns_per_sample=d["ns_per_sample"])
    r.update(d["activities"])
    return r


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=os.environ.get("MOTUS_DATASETS", os.path.join(HERE, "..", "..", "..", "shared", "datasets")))
    ap.add_argument("--motus", default=os.path.join(HERE, ".build", "release", "FusionEval"))
    ap.add_argument("--tune", action="store_true", help="grid-search the peers' settings on odd-numbered subjects")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--skip-imufusion", action="store_true", help="imufusion runs a Python loop (slow)")
    a = ap.parse_args()
    files = load(a.data)
    print(f"{len(files)} recordings, {sum(len(f['acc']) for f in files)} samples", file=sys.stderr)

    vqf_tuned = dict(tauAcc=20.0, motionBiasEstEnabled=False, restBiasEstEnabled=False)
    imu_tuned = dict(gain=0.05, acceleration_rejection=45.0)
    if a.tune:
        vqf_tuned = tune(files, run_vqf, [dict(tauAcc=t, motionBiasEstEnabled=b, restBiasEstEnabled=b)
                                          for t in (3.0, 10.0, 20.0, 40.0) for b in (True, False)])
        if not a.skip_imufusion:
            imu_tuned = tune(files, run_imufusion, [dict(gain=g, acceleration_rejection=r)
                                                    for g in (0.05, 0.1, 0.5) for r in (10.0, 45.0, 90.0)])
    rows = {}
    rows["Motus AttitudeFilter"] = motus(a.data, a.motus, [])
    rows["Motus LowPassGravity 1 s"] = motus(a.data, a.motus, ["--method", "lowpass"])
    rows["VQF default"] = evaluate(files, lambda f: run_vqf(f, {}), 3)
    rows[f"VQF tuned {vqf_tuned}"] = evaluate(files, lambda f: run_vqf(f, vqf_tuned), 3)
    if not a.skip_imufusion:
        rows["imufusion default"] = evaluate(files, lambda f: run_imufusion(f, None))
        rows[f"imufusion tuned {imu_tuned}"] = evaluate(files, lambda f: run_imufusion(f, imu_tuned))
    rows["numpy low-pass 1 s"] = evaluate(files, run_lowpass)
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    cols = ["overall", "odd", "even", "sit", "std", "ups", "dws", "wlk", "jog"]
    print("median / p95 gravity angle error (deg) against CoreMotion, first 2 s skipped; ns per sample")
    print(f"{'':44s}" + "".join(f"{c:>13s}" for c in cols) + f"{'ns/sample':>11s}")
    for name, r in rows.items():
        cells = "".join(f"{r[c]['median_deg']:6.2f}/{r[c]['p95_deg']:<6.1f}" for c in cols)
        print(f"{name[:44]:44s}{cells}{r['ns_per_sample']:11.0f}")


if __name__ == "__main__":
    main()
