"""Does a walk's step count depend on what the file holds around it? Each recording of Oxford,
WeAllWalk and IPOL is counted twice by `motus evaluate-steps`: alone, and with MINUTES of
another activity before and after it. The steps inside the recording's judged spans are the
same steps either way, so a counter whose count moves has let the surroundings change how it
judges the walk.

The surroundings are real MotionSense recordings of a phone in a trouser pocket (50 Hz, in g),
`--filler sitting` (`sit_13/sub_3`: stillness, with the odd fidget) or `--filler jogging`
(`jog_16/sub_3`: a run before and after the walk, as in a workout with a walking warm-up),
`--filler upstairs` or `--filler downstairs` (`ups_12/sub_3`, `dws_11/sub_3`: stairs, which
move a pocket more than a level walk and less than a run; none of the counter's constants was
chosen on them),
played forwards and backwards in turn to fill the time (so no seam jumps), turned so that
their gravity lies along the recording's own in its first (before) and last (after) second.
Both versions are written as native `.motus` files with one acceleration stream (the samples
`motus convert` gives: raw acceleration, or user acceleration plus gravity), the labels and
the reference steps, so the surroundings are the only difference. A recording without labels
(Oxford) gets one `walk` label over its own span in both versions, so that the surroundings'
own steps are not judged.

    benchmarks/.venv-steps/bin/python benchmarks/steps/surroundings.py [--filler sitting|jogging|upstairs|downstairs] [--minutes M] [--motus PATH] [--datasets DIR]

Prints one markdown table: per data set and step mode, how many recordings change, the steps
gained and lost, and the MAPE alone and surrounded. Files go to benchmarks/.data/surroundings/.
"""

import argparse
import os
import sys

import numpy as np

import motus_cli
import steps as steps_table

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(REPO, "benchmarks", ".data", "surroundings")
G = 9.80665
FILLERS = {"sitting": os.path.join("motionsense", "B_Accelerometer_data", "sit_13", "sub_3.csv"),
           "jogging": os.path.join("motionsense", "B_Accelerometer_data", "jog_16", "sub_3.csv"),
           "upstairs": os.path.join("motionsense", "B_Accelerometer_data", "ups_12", "sub_3.csv"),
           "downstairs": os.path.join("motionsense", "B_Accelerometer_data", "dws_11", "sub_3.csv")}
FILLER_RATE_HZ = 50.0

DATASETS = [("Oxford", "oxford", "oxford"), ("WeAllWalk", "weallwalk", "weallwalk"),
            ("IPOL", os.path.join("ipol", "voisard2023_ipol497"), "ipol")]


def read_filler(path):
    """MotionSense's accelerometer CSV (index, x, y, z in g) as m/s², n × 3."""
    rows = np.loadtxt(path, delimiter=",", skiprows=1)
    return rows[:, 1:4] * G


def rotation_onto(u, v):
    """The rotation matrix turning direction u onto direction v (both non-zero)."""
    u = u / np.linalg.norm(u)
    v = v / np.linalg.norm(v)
    axis = np.cross(u, v)
    s, c = np.linalg.norm(axis), float(np.dot(u, v))
    if s < 1e-12:
        if c > 0:
            return np.eye(3)
        # Opposite: half a turn about any axis perpendicular to u.
        p = np.cross(u, [1.0, 0.0, 0.0] if abs(u[0]) < 0.9 else [0.0, 1.0, 0.0])
        p /= np.linalg.norm(p)
        return 2 * np.outer(p, p) - np.eye(3)
    k = axis / s
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + s * kx + (1 - c) * kx @ kx


def filler_samples(filler, n, gravity, offset):
    """n samples of `filler`, played forwards and backwards in turn from `offset`, turned so
    that their mean lies along `gravity`."""
    m = len(filler)
    k = (np.arange(n) + offset) % (2 * m)
    rows = filler[np.where(k < m, k, 2 * m - 1 - k)]
    return rows @ rotation_onto(filler.mean(axis=0), gravity).T


def write_motus(path, rec, meta, t, acc):
    """A native recording: metadata, one `acc` stream, the labels and the reference steps."""
    with open(path, "w") as fh:
        fh.write("#motus,1\n")
        for key, value in meta.items():
            fh.write('@meta,%s,"%s"\n' % (key, str(value).replace('"', '""')))
        fh.write("@stream,acc,acc,t_s,x_mps2,y_mps2,z_mps2\n")
        fh.writelines("acc,%.6f,%.6f,%.6f,%.6f\n" % (ti, a[0], a[1], a[2]) for ti, a in zip(t, acc))
        # A recording without labels: one walk over its own span (not the surroundings').
        for start, end, label in (rec.labels or [(rec.acc_t[0], rec.acc_t[-1], "walk")]):
            fh.write('@label,%.6f,%.6f,"%s"\n' % (start, end, label))
        fh.writelines('@event,%.6f,"step"\n' % s for s in rec.steps)


# The metadata a written recording keeps (height for the distance, the rest for the reports).
META_KEYS = ("device", "placement", "subject", "height_m")


def scored_recordings(motus, datasets, title, folder, kind):
    """Each recording `motus evaluate-steps` scores in `folder`, in id order, as (its id, its
    `evaluate-steps` row, the recording as `motus convert` gives it, the metadata a written
    copy keeps). The conversions are cached in benchmarks/.data/steps/ (`motus_cli.convert`)."""
    rows, _, error = motus_cli.evaluate_steps(motus, os.path.join(datasets, folder), [])
    if error:
        raise RuntimeError("%s: %s" % (title, error))
    for rid in sorted(rows):
        src = steps_table.entry_path(kind, os.path.join(datasets, folder), rid)
        csv = os.path.join(REPO, "benchmarks", ".data", "steps", kind, rid + ".csv")
        motus_cli.convert(motus, src, csv)
        rec = motus_cli.read_converted(csv)
        yield rid, rows[rid], rec, {k: v for k, v in rec.meta.items() if k in META_KEYS}


def prepare(motus, datasets, title, folder, kind, filler, name, minutes):
    """Writes both versions of each recording Motus scores in `folder` (`filler`, named `name`,
    `minutes` before and after); returns the two folders."""
    alone, padded = os.path.join(OUT, kind, "alone"), os.path.join(OUT, kind, "%s-%gmin" % (name, minutes))
    os.makedirs(alone, exist_ok=True)
    os.makedirs(padded, exist_ok=True)
    n = int(round(minutes * 60 * FILLER_RATE_HZ))
    for rid, _, rec, meta in scored_recordings(motus, datasets, title, folder, kind):
        t, acc = rec.acc_t, rec.acc
        write_motus(os.path.join(alone, rid + ".motus"), rec, meta, t, acc)
        first = acc[t <= t[0] + 1].mean(axis=0)
        last = acc[t >= t[-1] - 1].mean(axis=0)
        before = filler_samples(filler, n, first, 0)
        after = filler_samples(filler, n, last, 7)
        dt = 1 / FILLER_RATE_HZ
        tb = t[0] - dt * np.arange(n, 0, -1)
        ta = t[-1] + dt * np.arange(1, n + 1)
        write_motus(os.path.join(padded, rid + ".motus"), rec, meta,
                    np.concatenate([tb, t, ta]), np.vstack([before, acc, after]))
    return alone, padded


def counts(motus, folder, mode):
    """Per recording id: its `motus evaluate-steps FOLDER --step-mode MODE` row."""
    rows, _, error = motus_cli.evaluate_steps(motus, folder, ["--step-mode", mode])
    if error:
        raise RuntimeError("evaluate-steps %s: %s" % (folder, error))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--filler", choices=sorted(FILLERS), default="sitting", help="what surrounds each walk (default sitting)")
    ap.add_argument("--minutes", type=float, default=10, help="minutes of it before and after each recording (default 10)")
    ap.add_argument("--motus", default=os.path.join(REPO, ".build", "release", "motus"))
    ap.add_argument("--datasets", default=os.environ.get("MOTUS_DATASETS", os.path.join(os.path.dirname(REPO), "shared", "datasets")))
    args = ap.parse_args()
    filler = read_filler(os.path.join(args.datasets, FILLERS[args.filler]))
    print("| data set | mode | recordings | changed | steps gained / lost | MAPE alone | MAPE surrounded |")
    print("|---|---|---:|---:|---|---|---|")
    for title, folder, kind in DATASETS:
        print("%s: writing both versions…" % title, file=sys.stderr)
        alone, padded = prepare(args.motus, args.datasets, title, folder, kind, filler, args.filler, args.minutes)
        for mode in ("offline", "live"):
            a, p = counts(args.motus, alone, mode), counts(args.motus, padded, mode)
            ids = sorted(set(a) & set(p))
            diff = [p[i]["counted_steps"] - a[i]["counted_steps"] for i in ids]
            print("| %s | %s | %d | %d | +%d / −%d | %.2f | %.2f |" % (
                title, mode, len(ids), sum(d != 0 for d in diff), sum(d for d in diff if d > 0),
                -sum(d for d in diff if d < 0), steps_table.summary([a[i]["error_percent"] for i in ids])[0],
                steps_table.summary([p[i]["error_percent"] for i in ids])[0]))
    print("\n%g min of MotionSense's phone in a pocket, %s, before and after each recording; command: "
          "`benchmarks/.venv-steps/bin/python benchmarks/steps/surroundings.py --filler %s --minutes %g`."
          % (args.minutes, args.filler, args.filler, args.minutes))


if __name__ == "__main__":
    main()
