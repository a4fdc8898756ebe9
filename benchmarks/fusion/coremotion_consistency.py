"""Is CoreMotion's gravity physically consistent while walking? A check that needs no reference.

A body that walks or runs for a while keeps a bounded velocity, so over a window of
`--window` seconds (default 10) its acceleration in an Earth-fixed frame averages to about
zero horizontally: a change of speed of 1.5 m/s spread over 10 s is 0.15 m/s². An orientation
estimate whose up direction is off by an angle e puts g·sin(e) of gravity into the horizontal
part of its user acceleration, so the windowed horizontal mean of user acceleration, turned
into the estimate's own reference frame, measures its tilt error: e ≈ atan(mean / g).

For every recording of each data set found, the script turns the recording into CSV with
`motus convert` (the streams as Motus reads them: no second reader) and writes Motus's own
estimate with `motus fuse` (default settings, live), then prints, per data set and activity,
the median and 90th percentile over windows of that horizontal mean (m/s²) and the tilt it
implies (degrees), for:

- CoreMotion's estimate (MotionSense, WeAllWalk, mPower: the recording's own `att` and `uacc`);
- Motus's estimate (`motus fuse`);
- on BROAD, the optical motion capture (the trial's `reference_attitude` applied to the raw
  acceleration, minus g on the vertical; scored samples only): the check of the check, since
  there the orientation is measured, not estimated.

    swift build -c release --product motus
    python3 -m venv .venv-fusion && .venv-fusion/bin/pip install numpy
    .venv-fusion/bin/python benchmarks/fusion/coremotion_consistency.py [--data ../shared/datasets]
        [--sets motionsense,weallwalk,mpower,broad] [--window 10] [--motus .build/release/motus]
"""
import argparse
import csv
import glob
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

G = 9.80665


def read_csv(path):
    """The streams of a CSV written by `motus convert` (docs/FORMAT.md): {stream: (t, values)},
    and the label segments as (start, end, label)."""
    streams, labels = {}, []
    with open(path, newline="") as f:
        rows = csv.reader(f)
        header = next(rows)
        col = {name: i for i, name in enumerate(header)}
        for r in rows:
            kind = r[0]
            if kind == "label":
                labels.append((float(r[col["time_s"]]), float(r[col["end_s"]]), r[col["text"]]))
                continue
            if kind in ("meta", "event", "") or not r[col["time_s"]]:
                continue
            width = 4 if kind == "att" else 3
            names = ["w", "x", "y", "z"] if kind == "att" else ["x", "y", "z"]
            vals = [float(r[col[n]]) for n in names[:width]]
            streams.setdefault(r[1], ([], []))
            streams[r[1]][0].append(float(r[col["time_s"]]))
            streams[r[1]][1].append(vals)
    return {k: (np.array(t), np.array(v)) for k, (t, v) in streams.items()}, labels


def rotate(q, v):
    """Rotates vectors v (n×3) by unit quaternions q (n×4, w x y z)."""
    w, x, y, z = q.T
    u = np.stack([x, y, z], 1)
    t = 2 * np.cross(u, v)
    return v + w[:, None] * t + np.cross(u, t)


def window_means(t, h, window, skip=2.0):
    """|mean| of the horizontal vectors h (n×2) over consecutive windows of `window` seconds
    after the first `skip` seconds; only windows with samples covering at least 90 % of it."""
    keep = t >= t[0] + skip
    t, h = t[keep], h[keep]
    if len(t) < 2:
        return []
    out = []
    start = t[0]
    while start + window <= t[-1]:
        m = (t >= start) & (t < start + window)
        if m.sum() >= 2 and t[m][-1] - t[m][0] >= 0.9 * window - 0.5:
            out.append(float(np.linalg.norm(h[m].mean(0))))
        start += window
    return out


def horizontal(att, uacc):
    """User acceleration turned into the attitude's reference frame (z up): its x, y."""
    return rotate(att, uacc)[:, :2]


def run(motus, args, out):
    r = subprocess.run([motus] + args + ["--out", out], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join([motus] + args)} failed: {r.stderr.strip()}")


def recordings(data, name):
    """(path, group) pairs of a data set, group = the activity or kind of recording."""
    if name == "motionsense":
        for p in sorted(glob.glob(os.path.join(data, "motionsense/A_DeviceMotion_data/*/sub_*.csv"))):
            yield p, os.path.basename(os.path.dirname(p)).split("_")[0]
    elif name == "weallwalk":
        for p in sorted(glob.glob(os.path.join(data, "weallwalk/sensor/*.csv"))):
            m = re.search(r"_(WC|GD|NA)\.csv$", p)
            yield p, {"WC": "long cane", "GD": "guide dog", "NA": "sighted"}[m.group(1)] if m else "walk"
    elif name == "mpower":
        for p in sorted(glob.glob(os.path.join(data, "mpower/**/*.json"), recursive=True)):
            yield p, re.sub(r"[-_.].*$", "", os.path.basename(p)) or "mpower"
    elif name == "broad":
        for p in sorted(glob.glob(os.path.join(data, "broad/data_mat/*.mat"))):
            yield p, "disturbed" if "_disturbed_" in p else "undisturbed"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.normpath(os.path.join(here, "..", ".."))
    ap.add_argument("--data", default=os.environ.get("MOTUS_DATASETS", os.path.join(root, "..", "shared", "datasets")))
    ap.add_argument("--sets", default="motionsense,weallwalk,mpower,broad")
    ap.add_argument("--window", type=float, default=10.0, help="window length, s (default 10)")
    ap.add_argument("--motus", default=os.path.join(root, ".build", "release", "motus"))
    a = ap.parse_args()
    if not os.path.exists(a.motus):
        sys.exit(f"no motus at {a.motus}: swift build -c release --product motus")

    print(f"Windowed ({a.window:g} s) mean of horizontal user acceleration in each estimate's own frame:")
    print("median / p90 over windows, m/s², and the tilt error it implies, atan(mean / g), degrees.\n")
    print(f"| data set | group | windows | CoreMotion m/s² | CoreMotion ° | Motus m/s² | Motus ° | optical m/s² | optical ° |")
    print("|---|---|---:|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        conv, native, fused = os.path.join(tmp, "c.csv"), os.path.join(tmp, "f.motus"), os.path.join(tmp, "f.csv")
        for name in a.sets.split(","):
            groups = {}
            for path, group in recordings(a.data, name):
                run(a.motus, ["convert", path], conv)
                run(a.motus, ["fuse", path], native)      # fuse writes the native format
                run(a.motus, ["convert", native], fused)
                s, labels = read_csv(conv)
                f, _ = read_csv(fused)
                g = groups.setdefault(group, {"cm": [], "motus": [], "optical": []})
                if "att" in s and "uacc" in s:                     # the device's own fusion
                    t, q = s["att"]
                    g["cm"] += window_means(t, horizontal(q, s["uacc"][1]), a.window)
                t, q = f["att"]
                g["motus"] += window_means(t, horizontal(q, f["uacc"][1]), a.window)
                if "reference_attitude" in s:                      # BROAD: measured orientation
                    tr, qr = s["reference_attitude"]
                    ta, acc = s["acc"]
                    idx = np.searchsorted(ta, tr)
                    ok = (idx < len(ta)) & np.all(np.isfinite(qr), 1)
                    idx, tr, qr = idx[ok], tr[ok], qr[ok]
                    # BROAD's reference is NaN where the markers were hidden; the scored samples
                    # are the movement phases (labels).
                    moving = np.zeros(len(tr), bool)
                    for lo, hi, lab in labels:
                        if lab == "movement":
                            moving |= (tr >= lo) & (tr <= hi)
                    world = rotate(qr[moving], acc[idx[moving]])
                    g["optical"] += window_means(tr[moving], world[:, :2], a.window, skip=0)
            for group, v in sorted(groups.items()):
                n = max(len(v["cm"]), len(v["motus"]), len(v["optical"]))

                def cell(x):
                    if not x:
                        return "—", "—"
                    med, p90 = np.median(x), np.percentile(x, 90)
                    return (f"{med:.2f} / {p90:.2f}",
                            f"{np.degrees(np.arctan(med / G)):.1f} / {np.degrees(np.arctan(p90 / G)):.1f}")
                cm, mo, op = cell(v["cm"]), cell(v["motus"]), cell(v["optical"])
                print(f"| {name} | {group} | {n} | {cm[0]} | {cm[1]} | {mo[0]} | {mo[1]} | {op[0]} | {op[1]} |")


if __name__ == "__main__":
    main()
