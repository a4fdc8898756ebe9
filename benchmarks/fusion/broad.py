#!/usr/bin/env python3
"""Motus vs VQF, imufusion and Madgwick on BROAD, in one run, against optical motion capture.

For every BROAD trial (MATLAB v5 `.mat` files, Laidig et al., Data 2021) in the data folder,
each filter runs on the raw IMU data with its default parameters, as a new user would:

  6D (accelerometer + gyroscope)
    - Motus: the release `motus fuse TRIAL.mat --out TMP.motus`, its `att` stream read back
      from the native file (so this is exactly what any user of the command gets), and the
      same with `--offline` (forward-backward, not causal);
    - VQF 6D, causal (`vqf` package, `VQF(Ts).updateBatch`, C++ loop), default parameters;
    - VQF offline (`offlineVQF`, forward-backward: uses future samples, not causal);
    - imufusion (x-io Fusion's Python package), default `AhrsSettings` with the trial's
      sample rate, `update_no_magnetometer` per sample;
    - Madgwick from the `ahrs` package (default gain), batch mode.
  9D (with the magnetometer), where the peer has it
    - VQF 9D, causal and offline; imufusion with `update`; Motus: `motus fuse` uses the
      magnetometer stream of a BROAD trial in its live mode, so its `att` stream is scored as
      9D too (--no-motus-9d leaves that out). `motus fuse --offline` is 6D only.

Scoring (BROAD's protocol, written here from its paper and README):
  - scored samples: the movement phase (`movement` = 1) where the reference `opt_quat` is not
    NaN (markers seen);
  - 6D: the inclination error, the angle between the estimated and the reference up axis,
    both in the IMU frame (q⁻¹·ẑ·q for a quaternion q rotating IMU vectors into an Earth
    frame with z up); heading plays no part;
  - 9D: the full orientation error after removing one constant heading offset per trial:
    the error quaternion in the Earth frame, e = q_est ⊗ q_ref⁻¹, has a heading part
    ψ = 2·atan2(e_z, e_w); the offset is the circular mean of ψ over the scored samples, the
    estimate is turned by −offset about the vertical, and the error is the angle of the
    remaining rotation, 2·acos(|w|) of q_z(−offset) ⊗ e. (The Earth frames differ: optical
    ENU, magnetic north for the filters; one constant offset absorbs that.)
  - per trial RMSE; pooled over all scored samples of all trials: median, 95th percentile
    (numpy's linear interpolation, as `motus evaluate-fusion`) and RMSE.
  The script also runs `motus evaluate-fusion DATA --format json` and checks that its per-trial
  and pooled figures equal this script's scoring of `motus fuse`'s output (same protocol).

Timing (ns per sample, wall clock over all trials, one run, machine shared with other jobs):
VQF's are its compiled batch loops (outputs into arrays); imufusion's and Madgwick's are
Python loops, dominated by the interpreter; Motus's is the fusion inside `motus fuse` as its
`--format json` reports it (filter and output streams, no reading or writing), and the whole
process (reading the .mat, writing ~25 MB of text) is given beside it.

Setup (keep the venv out of git):
  python3 -m venv .venv-fusion && .venv-fusion/bin/pip install numpy scipy vqf imufusion ahrs
  swift build -c release --product motus
  .venv-fusion/bin/python benchmarks/fusion/broad.py [--data ../shared/datasets/broad] [--json out.json]
"""
import argparse
import glob
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.io

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


# ---------------------------------------------------------------------------------------------
# Quaternions (w, x, y, z), rows of an n×4 array, rotating IMU-frame vectors into the Earth frame.

def qmul(a, b):
    aw, ax, ay, az = a[:, 0], a[:, 1], a[:, 2], a[:, 3]
    bw, bx, by, bz = b[:, 0], b[:, 1], b[:, 2], b[:, 3]
    return np.stack([aw * bw - ax * bx - ay * by - az * bz,
                     aw * bx + ax * bw + ay * bz - az * by,
                     aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw], axis=1)


def qconj(q):
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def qnormalize(q):
    return q / np.linalg.norm(q, axis=1)[:, None]


def up_in_imu(q):
    """The Earth's z axis seen in the IMU frame: q⁻¹·ẑ·q (unit vectors)."""
    w, x, y, z = q[:, 0], q[:, 1], q[:, 2], q[:, 3]
    return np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], axis=1)


def angle_between(u, v):
    """Angle (degrees) between rows of u and v, by atan2 (accurate near 0 and 180°)."""
    c = np.cross(u, v)
    return np.degrees(np.arctan2(np.linalg.norm(c, axis=1), np.sum(u * v, axis=1)))


def inclination_errors(q_est, q_ref, scored):
    return angle_between(up_in_imu(qnormalize(q_est[scored])), up_in_imu(qnormalize(q_ref[scored])))


def heading_free_errors(q_est, q_ref, scored):
    """Full orientation error (degrees) after one constant heading offset (see the docstring)."""
    e = qmul(qnormalize(q_est[scored]), qconj(qnormalize(q_ref[scored])))
    psi = 2 * np.arctan2(e[:, 3], e[:, 0])
    offset = math.atan2(np.mean(np.sin(psi)), np.mean(np.cos(psi)))
    turn = np.array([[math.cos(-offset / 2), 0.0, 0.0, math.sin(-offset / 2)]])
    r = qmul(np.repeat(turn, len(e), axis=0), e)
    return np.degrees(2 * np.arccos(np.clip(np.abs(r[:, 0]) / np.linalg.norm(r, axis=1), 0, 1))), math.degrees(offset)


def summary(errors):
    e = np.asarray(errors, float)
    if e.size == 0:
        return dict(count=0, median_deg=float("nan"), p95_deg=float("nan"), rmse_deg=float("nan"))
    return dict(count=int(e.size), median_deg=float(np.percentile(e, 50)), p95_deg=float(np.percentile(e, 95)),
                rmse_deg=float(np.sqrt(np.mean(e * e))))


# ---------------------------------------------------------------------------------------------
# Data

def load_trial(path):
    m = scipy.io.loadmat(path)
    rate = float(np.squeeze(m["sampling_rate"]))
    return dict(name=os.path.basename(path)[:-4], path=path, rate=rate,
                acc=np.ascontiguousarray(m["imu_acc"], float), gyr=np.ascontiguousarray(m["imu_gyr"], float),
                mag=np.ascontiguousarray(m["imu_mag"], float), ref=np.asarray(m["opt_quat"], float),
                movement=np.squeeze(m["movement"]).astype(bool))


def read_native_stream(path, name, width, rate, n):
    """One stream of a native .motus file as an n×width array indexed by sample (time × rate)."""
    prefix = name + ","
    rows = []
    with open(path) as f:
        for line in f:
            if line.startswith(prefix):
                rows.append(line[len(prefix):])
    if not rows:
        raise SystemExit(f"{path}: no '{name}' stream (did `motus fuse` find a rotation rate?)")
    a = np.loadtxt(rows, delimiter=",", ndmin=2)
    if a.shape[1] != width + 1:
        raise SystemExit(f"{path}: stream '{name}' has {a.shape[1] - 1} values per sample, expected {width}")
    idx = np.rint(a[:, 0] * rate).astype(np.int64)
    if len(idx) != n or not np.array_equal(idx, np.arange(n)):
        raise SystemExit(f"{path}: stream '{name}' has {len(idx)} samples, not on the {n} IMU sample times")
    return a[:, 1:]


# ---------------------------------------------------------------------------------------------
# Filters: each returns (6D quaternions, 9D quaternions or None, seconds spent in 6D, in 9D).

MOTUS_PROCESS_SECONDS = [0.0]  # the whole `motus fuse` processes, reading and writing included


def run_motus(t, motus, workdir, want_9d, offline=False):
    """The timing returned is the fusion's own (`fusion_seconds` of `--format json`)."""
    out = os.path.join(workdir, t["name"] + ".motus")
    start = time.perf_counter()
    p = subprocess.run([motus, "fuse", t["path"], "--out", out, "--format", "json"] + (["--offline"] if offline else []),
                       capture_output=True, text=True)
    MOTUS_PROCESS_SECONDS[0] += time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"motus fuse {t['path']} failed: {p.stderr.strip()}")
    seconds = json.loads(p.stdout)["fusion_seconds"]
    q = read_native_stream(out, "att", 4, t["rate"], len(t["acc"]))
    os.remove(out)
    return q, (q if want_9d else None), seconds, (seconds if want_9d else 0.0)


def run_vqf(t):
    import vqf
    ts = 1.0 / t["rate"]
    start = time.perf_counter()
    q6 = vqf.VQF(ts).updateBatch(t["gyr"], t["acc"])["quat6D"]
    s6 = time.perf_counter() - start
    start = time.perf_counter()
    q9 = vqf.VQF(ts).updateBatch(t["gyr"], t["acc"], t["mag"])["quat9D"]
    s9 = time.perf_counter() - start
    return q6, q9, s6, s9


def run_vqf_offline(t):
    import vqf
    ts = 1.0 / t["rate"]
    start = time.perf_counter()
    q6 = vqf.offlineVQF(t["gyr"], t["acc"], None, ts)["quat6D"]
    s6 = time.perf_counter() - start
    start = time.perf_counter()
    q9 = vqf.offlineVQF(t["gyr"], t["acc"], t["mag"], ts)["quat9D"]
    s9 = time.perf_counter() - start
    return q6, q9, s6, s9


def run_imufusion(t):
    import imufusion
    gyr = np.degrees(t["gyr"])
    acc = t["acc"] / 9.80665
    n = len(acc)

    def run(mag):
        ahrs = imufusion.Ahrs()
        s = imufusion.AhrsSettings()  # the package's defaults; only the sample rate is the trial's
        s.sample_rate = t["rate"]
        ahrs.set_settings(s)
        out = np.empty((n, 4))
        start = time.perf_counter()
        if mag is None:
            for i in range(n):
                ahrs.update_no_magnetometer(gyr[i], acc[i])
                out[i] = ahrs.get_quaternion()
        else:
            for i in range(n):
                ahrs.update(gyr[i], acc[i], mag[i])
                out[i] = ahrs.get_quaternion()
        return out, time.perf_counter() - start

    q6, s6 = run(None)
    q9, s9 = run(t["mag"])
    return q6, q9, s6, s9


def run_madgwick(t):
    from ahrs.filters import Madgwick
    start = time.perf_counter()
    q6 = Madgwick(gyr=t["gyr"], acc=t["acc"], frequency=t["rate"]).Q
    return q6, None, time.perf_counter() - start, 0.0


FILTERS = [  # key, title
    ("motus", "Motus `motus fuse`, default (causal)"),
    ("motus_offline", "Motus `motus fuse --offline` (not causal)"),
    ("vqf", "VQF 2.1.2, default (causal)"),
    ("vqf_offline", "VQF offline (not causal)"),
    ("imufusion", "imufusion, default"),
    ("madgwick", "Madgwick (`ahrs`), default"),
]


# ---------------------------------------------------------------------------------------------

def fmt(x, digits=2):
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def evaluate_fusion(motus, data):
    p = subprocess.run([motus, "evaluate-fusion", data, "--format", "json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"motus evaluate-fusion {data} failed: {p.stderr.strip()}")
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    datasets = os.environ.get("MOTUS_DATASETS", os.path.join(os.path.dirname(ROOT), "shared", "datasets"))
    ap.add_argument("--data", default=os.path.join(datasets, "broad"), help="BROAD folder (holding data_mat/*.mat)")
    ap.add_argument("--motus", default=os.path.join(ROOT, ".build", "release", "motus"), help="the motus binary")
    ap.add_argument("--trials", default="", help="only trials whose name contains this text (skips the evaluate-fusion check, which covers all)")
    ap.add_argument("--skip", default="", help="comma-separated filters to leave out (motus, vqf, vqf_offline, imufusion, madgwick)")
    ap.add_argument("--no-motus-9d", action="store_true", help="do not score Motus's attitude as 9D")
    ap.add_argument("--motus-9d", action="store_true",
                    help="also score Motus's attitude as 9D (heading offset removed): for a `motus fuse` that uses the magnetometer")
    ap.add_argument("--no-check", action="store_true", help="do not compare with `motus evaluate-fusion`")
    ap.add_argument("--json", help="write all figures to this file")
    args = ap.parse_args()

    files = sorted(glob.glob(os.path.join(args.data, "data_mat", "*.mat")) or glob.glob(os.path.join(args.data, "*.mat")))
    files = [f for f in files if args.trials in os.path.basename(f)]
    if not files:
        raise SystemExit(f"no BROAD .mat trials under {args.data}")
    skip = set(s for s in args.skip.split(",") if s)
    filters = [(k, title) for k, title in FILTERS if k not in skip]
    if "motus" not in skip and not os.access(args.motus, os.X_OK):
        raise SystemExit(f"{args.motus}: not found; build it with `swift build -c release --product motus` or pass --motus")

    per_trial = []
    pooled6 = {k: [] for k, _ in filters}
    pooled9 = {k: [] for k, _ in filters}
    seconds6 = {k: 0.0 for k, _ in filters}
    seconds9 = {k: 0.0 for k, _ in filters}
    samples = 0
    with tempfile.TemporaryDirectory(prefix="motus-broad-") as work:
        for path in files:
            t = load_trial(path)
            n = len(t["acc"])
            samples += n
            scored = t["movement"] & ~np.isnan(t["ref"]).any(axis=1)
            row = dict(trial=t["name"], samples=n, scored=int(scored.sum()), rmse6={}, rmse9={}, heading_offset_deg={})
            for key, _ in filters:
                if key == "motus":
                    q6, q9, s6, s9 = run_motus(t, args.motus, work, not args.no_motus_9d)
                elif key == "motus_offline":
                    q6, q9, s6, s9 = run_motus(t, args.motus, work, False, offline=True)
                else:
                    q6, q9, s6, s9 = globals()["run_" + key](t)
                seconds6[key] += s6
                seconds9[key] += s9
                e6 = inclination_errors(q6, t["ref"], scored)
                pooled6[key].append(e6)
                row["rmse6"][key] = float(np.sqrt(np.mean(e6 * e6)))
                if q9 is not None:
                    e9, offset = heading_free_errors(q9, t["ref"], scored)
                    pooled9[key].append(e9)
                    row["rmse9"][key] = float(np.sqrt(np.mean(e9 * e9)))
                    row["heading_offset_deg"][key] = offset
            per_trial.append(row)
            print(f"{t['name']}: " + ", ".join(f"{k} {v:.2f}°" for k, v in row["rmse6"].items()), file=sys.stderr)

    result = dict(data=args.data, trials=len(per_trial), samples=samples, per_trial=per_trial, pooled6={}, pooled9={},
                  ns_per_sample6={}, ns_per_sample9={})
    result["motus_process_ns_per_sample"] = 1e9 * MOTUS_PROCESS_SECONDS[0] / samples
    for key, _ in filters:
        result["pooled6"][key] = summary(np.concatenate(pooled6[key]))
        result["ns_per_sample6"][key] = 1e9 * seconds6[key] / samples
        if pooled9[key]:
            result["pooled9"][key] = summary(np.concatenate(pooled9[key]))
            result["ns_per_sample9"][key] = 1e9 * seconds9[key] / samples

    # The same protocol, scored by Motus itself.
    if "motus" not in skip and not args.no_check and not args.trials:
        ev = evaluate_fusion(args.motus, args.data)
        by_name = {r["name"]: r["rmse_deg"] for r in ev["recordings"]}
        diffs = [abs(by_name[r["trial"]] - r["rmse6"]["motus"]) for r in per_trial if r["trial"] in by_name]
        mine = result["pooled6"]["motus"]
        pooled_diff = max(abs(ev["median_deg"] - mine["median_deg"]), abs(ev["p95_deg"] - mine["p95_deg"]),
                          abs(ev["rmse_deg"] - mine["rmse_deg"]))
        # evaluate-fusion scores the filter's gravity output, this script the `att` stream: the
        # gravity's delay compensation is exact to third order in the predicted rotation, the
        # attitude's exact, so they differ by well under 1e-3°.
        same = len(diffs) == len(per_trial) and ev["count"] == mine["count"] and max(diffs) < 1e-3 and pooled_diff < 1e-3
        result["evaluate_fusion_check"] = dict(trials_compared=len(diffs), samples=ev["count"], max_trial_rmse_diff_deg=max(diffs, default=float("nan")),
                                               max_pooled_diff_deg=pooled_diff, same=same)
        if not same:
            print(f"MISMATCH with motus evaluate-fusion: {result['evaluate_fusion_check']}", file=sys.stderr)

    # Tables (Markdown).
    keys = [k for k, _ in filters]
    titles = dict(filters)
    print(f"BROAD, {len(per_trial)} trials, {samples} samples; inclination error over the movement phases (6D)\n")
    print("| filter | median ° | p95 ° | RMSE ° | ns/sample |")
    print("|---|---|---|---|---|")
    for k in keys:
        s = result["pooled6"][k]
        ns = f"{result['ns_per_sample6'][k]:.0f}"
        if k == "motus":
            ns += f" (whole process {result['motus_process_ns_per_sample']:.0f})"
        print(f"| {titles[k]} | {fmt(s['median_deg'])} | {fmt(s['p95_deg'])} | {fmt(s['rmse_deg'])} | {ns} |")
    print()
    have_vqf = "vqf" in keys and "motus" in keys
    print("| trial | " + " | ".join(keys) + (" | Motus − VQF |" if have_vqf else " |"))
    print("|---" * (len(keys) + 1 + (1 if have_vqf else 0)) + "|")
    for r in per_trial:
        cells = [fmt(r["rmse6"][k]) for k in keys]
        if have_vqf:
            cells.append(f"{r['rmse6']['motus'] - r['rmse6']['vqf']:+.2f}")
        print(f"| {r['trial']} | " + " | ".join(cells) + " |")
    if have_vqf:
        worse = sum(1 for r in per_trial if r["rmse6"]["motus"] > r["rmse6"]["vqf"])
        print(f"\nMotus's RMSE is above VQF's in {worse} of {len(per_trial)} trials.")

    keys9 = [k for k in keys if k in result["pooled9"] or k == "motus"]
    print("\n9D: full orientation error after one constant heading offset per trial\n")
    print("| filter | median ° | p95 ° | RMSE ° | ns/sample |")
    print("|---|---|---|---|---|")
    for k in keys9:
        s = result["pooled9"].get(k)
        ns = result["ns_per_sample9"].get(k)
        print(f"| {titles[k]} | {fmt(s and s['median_deg'])} | {fmt(s and s['p95_deg'])} | {fmt(s and s['rmse_deg'])} | {fmt(ns, 0)} |")
    print()
    print("| trial | " + " | ".join(keys9) + " |")
    print("|---" * (len(keys9) + 1) + "|")
    for r in per_trial:
        print(f"| {r['trial']} | " + " | ".join(fmt(r["rmse9"].get(k)) for k in keys9) + " |")

    if "evaluate_fusion_check" in result:
        c = result["evaluate_fusion_check"]
        print(f"\n`motus evaluate-fusion {args.data}`: {c['trials_compared']} trials, {c['samples']} samples; largest difference "
              f"from this script's scoring of `motus fuse`: {c['max_trial_rmse_diff_deg']:.2e}° per trial RMSE, "
              f"{c['max_pooled_diff_deg']:.2e}° pooled: {'same' if c['same'] else 'DIFFERENT'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    if "evaluate_fusion_check" in result and not result["evaluate_fusion_check"]["same"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
