"""Writes sensorlog_20260101_120000.mat, a made-up sensor log in MATLAB Mobile's layout.

Run with mat-io 1.0.2 (PyPI, BSD-3-Clause) installed:
    python3 -m venv /tmp/venv-matio && /tmp/venv-matio/bin/pip install mat-io==1.0.2 numpy pandas
    /tmp/venv-matio/bin/python make_sample.py

The file is written by mat-io's MAT-file writer (`save_to_mat`, version v7), NOT by MATLAB
or MATLAB Mobile: no real log can be shipped with Motus. It follows the layout MathWorks'
documentation and examples show for a log (`load sensorlog_….mat` gives one timetable per
sensor, row times `Timestamp` as a datetime):
  Acceleration     X, Y, Z          m/s², gravity included (face up: +9.81 on Z)
  AngularVelocity  X, Y, Z          rad/s
  MagneticField    X, Y, Z          µT
  Orientation      X, Y, Z          degrees: azimuth, pitch, roll
  Position         latitude, longitude (degrees), altitude (m), speed (m/s), course
                   (degrees), hacc (horizontal accuracy, m)
The numbers are smooth made-up signals (a phone lying face up, turning slowly), not
measurements. Sensors at 10 Hz (the app's default rate) for 3 s, each with its own
timestamps (as the phone delivers them); position at 1 Hz. Timestamps carry no time zone.
"""
import math, os
import numpy as np
import pandas as pd
from matio import save_to_mat

here = os.path.dirname(os.path.abspath(__file__))
START_MS = 1_767_268_800_000  # 2026-01-01 12:00:00 (no time zone)

def timetable(offset_ms, rate_hz, n, columns):
    """A DataFrame with datetime row times `Timestamp` (mat-io writes it as a timetable)."""
    ms = np.array([START_MS + offset_ms + round(i * 1000 / rate_hz) for i in range(n)], dtype="datetime64[ms]")
    idx = pd.DatetimeIndex(ms, name="Timestamp")
    return pd.DataFrame({k: [round(f(i), 6) for i in range(n)] for k, f in columns.items()}, index=idx)

N = 30
acc = timetable(0, 10, N, {
    "X": lambda i: 0.12 * math.sin(0.4 * i),
    "Y": lambda i: -0.08 + 0.05 * math.cos(0.4 * i),
    "Z": lambda i: 9.81 + 0.02 * math.sin(1.1 * i),
})
gyro = timetable(13, 10, N, {
    "X": lambda i: 0.01 * math.cos(0.3 * i),
    "Y": lambda i: -0.005,
    "Z": lambda i: 0.2 + 0.01 * math.sin(0.2 * i),
})
mag = timetable(27, 10, N, {
    "X": lambda i: 22.0 * math.cos(0.02 * i),
    "Y": lambda i: -22.0 * math.sin(0.02 * i),
    "Z": lambda i: -40.5,
})
orient = timetable(41, 10, N, {
    "X": lambda i: (10 + 1.15 * i),
    "Y": lambda i: 0.5,
    "Z": lambda i: -0.4,
})
pos = timetable(500, 1, 3, {
    "latitude": lambda i: 48.858370 + 0.00001 * i,
    "longitude": lambda i: 2.294481 + 0.00002 * i,
    "altitude": lambda i: 35.2 + 0.1 * i,
    "speed": lambda i: 1.4,
    "course": lambda i: 54.0,
    "hacc": lambda i: 4.5,
})

path = os.path.join(here, "sensorlog_20260101_120000.mat")
save_to_mat(path, {"Acceleration": acc, "AngularVelocity": gyro, "MagneticField": mag, "Orientation": orient, "Position": pos},
            version="v7")
print(path, os.path.getsize(path), "bytes")
