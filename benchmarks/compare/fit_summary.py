#!/usr/bin/env python3
"""Decode and summarise a FIT ride: python-fitparse + numpy against Motus, side by side.

Usage:
  python3 -m venv /tmp/venv-geo && /tmp/venv-geo/bin/pip install fitparse numpy
  swift build -c release --product motus
  /tmp/venv-geo/bin/python benchmarks/compare/fit_summary.py [FIT] [--motus .build/release/motus] [--runs 5]

Both sides do the same work: decode every record (timestamp, position, altitude, speed),
then sum the distance between fixes, count elevation gain with a 5 m dead band and moving
time with a speed threshold. Motus is timed twice: in-process (`motus ride --time-runs N`,
the median of N decode+summary runs, which also runs outlier rejection, splits, grade
profile and energy) and as a whole process (start-up included).
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import time

import numpy as np
import fitparse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
DEFAULT = os.path.join(ROOT, "..", "shared", "datasets", "tracks", "python-fitparse", "garmin-edge-500-activity.fit")


def python_summary(path):
    ff = fitparse.FitFile(path)
    ts, lat, lon, alt, spd = [], [], [], [], []
    for m in ff.get_messages("record"):
        v = m.get_values()
        t = v.get("timestamp")
        ts.append(t.timestamp() if t is not None else np.nan)
        la, lo = v.get("position_lat"), v.get("position_long")
        lat.append(la * 180 / 2**31 if la is not None else np.nan)
        lon.append(lo * 180 / 2**31 if lo is not None else np.nan)
        a = v.get("enhanced_altitude", v.get("altitude"))
        alt.append(a if a is not None else np.nan)
        s = v.get("enhanced_speed", v.get("speed"))
        spd.append(s if s is not None else np.nan)
    ts, lat, lon, alt, spd = map(np.asarray, (ts, lat, lon, alt, spd))
    ok = ~np.isnan(lat) & ~np.isnan(lon)
    la, lo = np.radians(lat[ok]), np.radians(lon[ok])
    h = np.sin(np.diff(la) / 2) ** 2 + np.cos(la[:-1]) * np.cos(la[1:]) * np.sin(np.diff(lo) / 2) ** 2
    distance = float(np.sum(2 * 6371008.8 * np.arcsin(np.sqrt(h))))
    e = alt[~np.isnan(alt)]
    gain, ref = 0.0, e[0]
    for x in e[1:]:
        if x - ref >= 5:
            gain += x - ref; ref = x
        elif ref - x >= 5:
            ref = x
    dt = np.diff(ts)
    moving = float(np.sum(dt[(spd[1:] > 0.9) & (dt <= 30)]))
    return len(ts), distance, gain, moving


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("fit", nargs="?", default=DEFAULT)
    ap.add_argument("--motus", default=os.path.join(ROOT, ".build", "release", "motus"))
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()

    py = []
    for _ in range(a.runs):
        t0 = time.perf_counter()
        n, d, g, mv = python_summary(a.fit)
        py.append(time.perf_counter() - t0)
    py_s = statistics.median(py)

    out = subprocess.run([a.motus, "ride", a.fit, "--time-runs", str(max(20, a.runs))], capture_output=True, text=True, check=True).stdout
    fields = dict(kv.split("=") for kv in out.split())
    motus_in = float(fields["median_s"])

    whole = []
    for _ in range(a.runs):
        t0 = time.perf_counter()
        subprocess.run([a.motus, "ride", a.fit, "--format", "json"], capture_output=True, check=True)
        whole.append(time.perf_counter() - t0)
    motus_whole = statistics.median(whole)
    # Peak RSS of one whole `motus ride` process (GNU time; the children's ru_maxrss would
    # include the forked Python before exec).
    rss = "n/a"
    if os.path.exists("/usr/bin/time"):
        r = subprocess.run(["/usr/bin/time", "-f", "%M", a.motus, "ride", a.fit, "--format", "json"], capture_output=True, text=True)
        rss = f"{int(r.stderr.strip().splitlines()[-1]) / 1024:.1f} MB"

    print(f"file: {a.fit} ({os.path.getsize(a.fit):,} bytes, {n} records)")
    print(f"python fitparse+numpy: distance {d:,.0f} m, gain {g:,.1f} m, moving {mv:,.0f} s")
    print(f"{'':34s}{'median s':>12s}{'ratio':>10s}")
    print(f"{'python-fitparse + numpy':34s}{py_s:12.4f}{1:10.0f}")
    print(f"{'motus in-process (decode+summary)':34s}{motus_in:12.5f}{py_s / motus_in:10.0f}x")
    print(f"{'motus whole process':34s}{motus_whole:12.5f}{py_s / motus_whole:10.0f}x")
    print(f"motus peak RSS (one whole process): {rss}")


if __name__ == "__main__":
    sys.exit(main())
