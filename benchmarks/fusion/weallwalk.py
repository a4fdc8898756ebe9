"""WeAllWalk against CoreMotion: VQF's figures and why no filter fed these files follows CoreMotion.

Reads WeAllWalk's iPhone sensor files (../shared/datasets/weallwalk/sensor, 25 Hz; columns as
Sources/MotusIO/Readers/WeAllWalkReader.swift documents them) and prints:

1. VQF 2.1.2 (Python package), 6D causal, on the raw accelerometer and CoreMotion's rotation
   rate, scored like `motus evaluate-fusion`: the angle between VQF's up direction and
   CoreMotion's gravity at every sample after the first 2 s, pooled median and p95. Once with
   default parameters, once with tauAcc = 1 s and no bias estimation.
2. How well the logged 25 Hz rate carries CoreMotion's own rotation: over windows of 1 s, the
   angle between the rotation integrated from the rate and the rotation between CoreMotion's
   attitudes at the window's ends; with the rate at the end of each step, the mean of both
   ends, and a cubic spline through the rates (8 sub-steps).
3. Whether CoreMotion follows its own rate: CoreMotion's first gravity carried by the rate
   alone (the rate at the end of each step), against CoreMotion's gravity, median over the
   recording and at its end.
4. The row shift at which the raw accelerometer best matches CoreMotion's gravity +
   userAcceleration, and their mean difference there.

    python3 -m venv .venv-fusion && .venv-fusion/bin/pip install numpy scipy vqf
    .venv-fusion/bin/python benchmarks/fusion/weallwalk.py [--data ../shared/datasets/weallwalk] [--files T1_]
"""
import argparse
import glob
import os

import numpy as np
from scipy.interpolate import CubicSpline
from scipy.spatial.transform import Rotation

G = 9.80665


def angle_deg(a, b):
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return np.degrees(np.arccos(np.clip((a * b).sum(1), -1, 1)))


def read(path):
    d = np.loadtxt(path, delimiter=",")
    # A repeated time is a re-emitted row (the reader's documentation): keep the first.
    d = d[np.r_[True, np.diff(d[:, 0]) > 0]]
    return {
        "t": d[:, 0],
        "quat": d[:, 13:17],                     # x, y, z, w: device -> reference
        "rate": np.ascontiguousarray(d[:, 17:20]),  # rad/s, bias-corrected
        "device_acc": -(d[:, 20:23] + d[:, 23:26]) * G,  # m/s², Android sign
        "up": -d[:, 23:26],                      # CoreMotion's gravity, pointing up
        "acc": np.ascontiguousarray(-d[:, 30:33] * G),   # raw accelerometer, m/s², Android sign
    }


def vqf_errors(rec, **params):
    from vqf import VQF
    dt = float(np.median(np.diff(rec["t"])))
    q = VQF(dt, **params).updateBatch(rec["rate"], rec["acc"])["quat6D"]  # w, x, y, z
    w, x, y, z = q.T
    up = np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], 1)
    return angle_deg(up, rec["up"])[rec["t"] - rec["t"][0] > 2]


def window_errors(rec, rule, samples=25):
    t, w = rec["t"], rec["rate"]
    dts = np.diff(t)[:, None]
    if rule == "end":
        steps = Rotation.from_rotvec(w[1:] * dts)
    elif rule == "mean of both ends":
        steps = Rotation.from_rotvec(0.5 * (w[1:] + w[:-1]) * dts)
    else:
        spline, sub, parts = CubicSpline(t, w, axis=0), 8, []
        for k in range(len(t) - 1):
            edges = np.linspace(t[k], t[k + 1], sub + 1)
            r = Rotation.identity()
            for rate in spline(0.5 * (edges[1:] + edges[:-1])):
                r = r * Rotation.from_rotvec(rate * (edges[1] - edges[0]))
            parts.append(r)
        steps = Rotation.concatenate(parts)
    att = Rotation.from_quat(rec["quat"])
    out = []
    for s in range(0, len(t) - 1 - samples, samples):
        r = Rotation.identity()
        for k in range(s, s + samples):
            r = r * steps[k]
        out.append(np.degrees((( att[s].inv() * att[s + samples]).inv() * r).magnitude()))
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    p.add_argument("--data", default=os.path.join(here, "../../../shared/datasets/weallwalk"))
    p.add_argument("--files", default="T1_", help="file-name part for the rate and shift checks (slow)")
    a = p.parse_args()
    files = sorted(glob.glob(os.path.join(a.data, "sensor", "*.csv")))
    if not files:
        raise SystemExit(f"weallwalk.py: no sensor files under {a.data}/sensor")
    recs = [read(f) for f in files]
    print(f"{len(files)} recordings")
    for name, params in [("VQF default", {}),
                         ("VQF tauAcc 1 s, no bias estimation",
                          dict(tauAcc=1.0, motionBiasEstEnabled=False, restBiasEstEnabled=False))]:
        e = np.concatenate([vqf_errors(r, **params) for r in recs])
        print(f"{name}: median {np.median(e):.2f}°, p95 {np.percentile(e, 95):.2f}° ({len(e)} samples)")
    few = [r for f, r in zip(files, recs) if a.files in os.path.basename(f)]
    print(f"rate against CoreMotion's attitude over 1 s ({len(few)} recordings with '{a.files}'):")
    for rule in ["end", "mean of both ends", "cubic spline"]:
        e = np.array([x for r in few for x in window_errors(r, rule)])
        print(f"  {rule}: median {np.median(e):.2f}°, p95 {np.percentile(e, 95):.2f}°")
    for f, r in zip([f for f in files if a.files in os.path.basename(f)], few):
        rot = Rotation.from_rotvec(r["rate"][1:] * np.diff(r["t"])[:, None])
        carried = [Rotation.identity()]
        for step in rot:
            carried.append(carried[-1] * step)
        up = Rotation.concatenate(carried).inv().apply(r["up"][0])
        e = angle_deg(up, r["up"])
        print(f"  {os.path.basename(f)}: CoreMotion's first gravity carried by its rate: median {np.median(e):.1f}°, at the end {e[-1]:.1f}°")
    for r in few[:4]:
        fits = []
        for shift in range(-3, 4):
            a_, b_ = r["acc"], r["device_acc"]
            lo, hi = max(0, shift), len(a_) + min(0, shift)
            fits.append((np.mean(np.linalg.norm(a_[lo:hi] - b_[lo - shift:hi - shift], axis=1)) / G, shift))
        best = min(fits)
        print(f"  raw accelerometer row i best matches device motion row i{-best[1]:+d}: mean difference {best[0]:.3f} g")


if __name__ == "__main__":
    main()
