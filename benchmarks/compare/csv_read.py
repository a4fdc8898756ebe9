#!/usr/bin/env python3
"""CSV reading: Motus's delimited reader against pandas.read_csv, on the same files, in one run.

Generates a 10-column IMU CSV (time, acc xyz, gyro xyz, mag xyz; 180,000 rows as in the
foundation issue) with a fixed seed, times pandas.read_csv in-process (median of N runs, all
columns parsed to float64) and Motus's `DelimitedReader` in-process through `motus-bench`
(the same: every column parsed, every value converted to SI doubles; all cores, then one
thread), and prints rows/s and the ratios (the target is on the all-core figure). Then it checks bounded memory: a streaming pass (`motus-bench scan`, what
`motus inspect` does) over a file 20x larger must peak at about the same resident memory
as over the small one.

Usage: python3 benchmarks/compare/csv_read.py [--rows 180000] [--repeat 7]
(run from the repository root after `swift build -c release` in benchmarks/, or let
benchmarks/compare/run.sh do it all).
"""
import argparse, json, os, platform, subprocess, sys, time

import numpy as np
import pandas as pd

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(ROOT, "benchmarks", ".data")
BENCH = os.path.join(ROOT, "benchmarks", ".build", "release", "motus-bench")


def make_csv(path, rows, seed=42):
    if os.path.exists(path):
        return
    rng = np.random.default_rng(seed)
    t = np.arange(rows) / 100.0 + rng.normal(0, 1e-4, rows)
    acc = rng.normal(0, 2, (rows, 3)) + [0, 0, 9.81]
    gyro = rng.normal(0, 0.5, (rows, 3))
    mag = rng.normal(0, 5, (rows, 3)) + [20, -5, 40]
    df = pd.DataFrame(np.column_stack([np.sort(t), acc, gyro, mag]),
                      columns=["time", "acc_x", "acc_y", "acc_z", "gyr_x", "gyr_y", "gyr_z", "mag_x", "mag_y", "mag_z"])
    tmp = path + ".tmp"
    df.to_csv(tmp, index=False, float_format="%.6f")
    os.replace(tmp, path)


def time_pandas(path, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        df = pd.read_csv(path, dtype=np.float64)
        times.append(time.perf_counter() - t0)
    times.sort()
    return len(df), times[len(times) // 2]


def motus(mode, path, repeat, *extra):
    out = subprocess.run([BENCH, mode, path, "--repeat", str(repeat), *extra], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=180_000)
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    os.makedirs(DATA, exist_ok=True)
    small = os.path.join(DATA, f"imu_{a.rows}.csv")
    big = os.path.join(DATA, f"imu_{a.rows * 20}.csv")
    make_csv(small, a.rows)
    make_csv(big, a.rows * 20, seed=43)

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    n, pd_s = time_pandas(small, a.repeat)
    m = motus("csv", small, a.repeat)
    m1 = motus("csv", small, a.repeat, "--threads", "1")
    print(f"# CSV reading, {n} rows x 10 columns ({os.path.getsize(small) / 1e6:.1f} MB), median of {a.repeat} runs")
    print(f"# machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; Python {platform.python_version()}, pandas {pd.__version__}, numpy {np.__version__}")
    print(f"| reader | rows/s | median s | vs pandas |")
    print(f"|---|---:|---:|---:|")
    print(f"| pandas.read_csv (float64) | {n / pd_s / 1e6:.2f} M | {pd_s:.4f} | 1.00x |")
    print(f"| Motus DelimitedReader (into Recording, SI) | {m['rows_per_s'] / 1e6:.2f} M | {m['median_s']:.4f} | {pd_s / m['median_s']:.2f}x |")
    print(f"| Motus DelimitedReader, one thread | {m1['rows_per_s'] / 1e6:.2f} M | {m1['median_s']:.4f} | {pd_s / m1['median_s']:.2f}x |")
    target = 2.0
    ok = pd_s / m["median_s"] >= target
    print(f"target: at least {target:.0f}x pandas -> {'met' if ok else 'NOT met'}")

    s_small = motus("scan", small, 1)
    s_big = motus("scan", big, 1)
    print(f"# bounded memory: streaming pass (motus inspect) peak RSS {s_small['peak_rss_bytes'] / 2**20:.1f} MiB on "
          f"{os.path.getsize(small) / 1e6:.0f} MB, {s_big['peak_rss_bytes'] / 2**20:.1f} MiB on {os.path.getsize(big) / 1e6:.0f} MB "
          f"({s_big['rows_per_s'] / 1e6:.2f} M rows/s)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
