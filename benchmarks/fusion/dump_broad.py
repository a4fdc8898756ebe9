#!/usr/bin/env python3
"""Writes BROAD's IMU samples as one flat binary for the speed comparison (FilterSpeed and a
C driver for Fusion): 10 little-endian doubles per sample, ax ay az (m/s^2), gx gy gz (rad/s),
mx my mz (uT), dt (s), with dt = 0 at the first sample of each trial (a new filter starts there).

  python3 benchmarks/fusion/dump_broad.py [--data ../shared/datasets/broad] --out /tmp/broad.f64

Needs numpy and scipy. The output is generated data: keep it out of git.
"""
import argparse, glob, os, sys
import numpy as np
import scipy.io

ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
ap.add_argument('--data', default=os.path.join(os.path.dirname(__file__), '../../../shared/datasets/broad'))
ap.add_argument('--out', required=True)
a = ap.parse_args()
files = sorted(glob.glob(os.path.join(a.data, 'data_mat', '*.mat')))
if not files:
    sys.exit(f'dump_broad.py: no data_mat/*.mat under {a.data}')
rows = []
for f in files:
    m = scipy.io.loadmat(f)
    acc, gyr, mag = (np.asarray(m[k], float) for k in ('imu_acc', 'imu_gyr', 'imu_mag'))
    dt = np.full((len(acc), 1), 1 / float(np.ravel(m['sampling_rate'])[0]))
    dt[0] = 0
    rows.append(np.hstack([acc, gyr, mag, dt]))
data = np.ascontiguousarray(np.vstack(rows), '<f8')
data.tofile(a.out)
print(f'{len(files)} trials, {len(data)} samples -> {a.out}')
