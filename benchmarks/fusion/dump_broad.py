#!/usr/bin/env python3
"""Writes BROAD's IMU samples as one flat binary for the speed comparison (FilterSpeed and a
C driver for Fusion): 10 little-endian doubles per sample, ax ay az (m/s^2), gx gy gz (rad/s),
mx my mz (uT), dt (s), with dt = 0 at the first sample of each trial (a new filter starts there).

  python3 benchmarks/fusion/dump_broad.py [--data ../shared/datasets/broad] --out /tmp/broad.f64
  python3 benchmarks/fusion/dump_broad.py --resample 50 --out /tmp/broad50.f64   # BROAD as a 50 Hz device

--resample HZ takes each trial as `motus convert TRIAL.mat --resample HZ` writes it (the release
build's motus; --motus PATH for another). Needs numpy and scipy. The output is generated data:
keep it out of git.
"""
import argparse, glob, os, subprocess, sys, tempfile
import numpy as np
import scipy.io

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from coremotion_consistency import read_csv  # noqa: E402  (reads `motus convert` CSV)

ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
ap.add_argument('--data', default=os.path.join(os.path.dirname(__file__), '../../../shared/datasets/broad'))
ap.add_argument('--out', required=True)
ap.add_argument('--resample', type=float, help='rate (Hz) of a device to simulate, by motus convert --resample')
ap.add_argument('--motus', default=os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../.build/release/motus'))
a = ap.parse_args()
files = sorted(glob.glob(os.path.join(a.data, 'data_mat', '*.mat')))
if not files:
    sys.exit(f'dump_broad.py: no data_mat/*.mat under {a.data}')
rows = []
for f in files:
    if a.resample:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, 'trial.csv')
            r = subprocess.run([a.motus, 'convert', f, '--resample', str(a.resample), '--out', out], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f'motus convert {f} --resample {a.resample} failed: {r.stderr.strip()}')
            s, _ = read_csv(out)
        acc, gyr, mag = s['acc'][1], s['gyro'][1], s['mag'][1]
        if not (np.array_equal(s['acc'][0], s['gyro'][0]) and np.array_equal(s['acc'][0], s['mag'][0])):
            sys.exit(f'{f}: the resampled streams are not on one grid')
        dt = np.full((len(acc), 1), 1 / a.resample)
    else:
        m = scipy.io.loadmat(f)
        acc, gyr, mag = (np.asarray(m[k], float) for k in ('imu_acc', 'imu_gyr', 'imu_mag'))
        dt = np.full((len(acc), 1), 1 / float(np.ravel(m['sampling_rate'])[0]))
    dt[0] = 0
    rows.append(np.hstack([acc, gyr, mag, dt]))
data = np.ascontiguousarray(np.vstack(rows), '<f8')
data.tofile(a.out)
print(f'{len(files)} trials, {len(data)} samples -> {a.out}')
