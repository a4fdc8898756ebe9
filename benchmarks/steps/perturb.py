"""Does a step count hold when the same walk is felt more or less strongly, or through a noisier
sensor? Each recording of Oxford, WeAllWalk and IPOL is counted as recorded and changed in one
way that leaves its steps where they were:

- `motion ×K`: the acceleration's motion around gravity scaled by K (gravity, estimated by a
  zero-phase 0.3 Hz low-pass of each axis, kept): a walker who moves the device more (×1.4: a
  looser pocket, a heavier tread) or less (×0.7). |a| is not simply scaled with it: the
  sideways motion enters |a| squared, as it does for a harder walk;
- `noise S`: white Gaussian noise of S m/s² added to each axis, seeded by the recording's id
  (a phone accelerometer's own noise is about 0.01–0.03 m/s² at these rates; 0.05 and 0.1
  m/s² are a poor sensor's).

Nothing about the walk changes, so the counts should not: a method whose figure moves with a
change this small has thresholds that depend on how hard a walker steps or how clean a sensor
is, and the spread over the changes is the noise of its figure on these recordings. Motus is
counted by `motus evaluate-steps` in both step modes; the tuned scipy pipeline of issue #20
(`peers.scipy_steps`) on the same samples, counted inside the windows Motus judged (as
`steps.py` does).

The changed recordings are written as native `.motus` files (one acceleration stream, the
labels and the reference steps, as `surroundings.py` writes them) to benchmarks/.data/perturb/.

    benchmarks/.venv-steps/bin/python benchmarks/steps/perturb.py [--motus PATH] [--datasets DIR]

Prints one markdown table: step MAPE % per data set, method and change, and the range over
the changes.
"""

import argparse
import dataclasses
import os
import sys
import zlib

import numpy as np
from scipy.signal import butter, sosfiltfilt

import motus_cli
import peers
import steps as steps_table
import surroundings

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(REPO, "benchmarks", ".data", "perturb")

# (column title, folder name, change): ("scale", K) or ("noise", S m/s²); None as recorded.
CHANGES = [("as recorded", "recorded", None), ("motion ×0.7", "scale0.7", ("scale", 0.7)),
           ("motion ×1.4", "scale1.4", ("scale", 1.4)), ("noise 0.05 m/s²", "noise0.05", ("noise", 0.05)),
           ("noise 0.1 m/s²", "noise0.1", ("noise", 0.1))]

GRAVITY_CUTOFF_HZ = 0.3


def changed(t, acc, change, rid):
    """The acceleration `acc` (n × 3, m/s², times `t`) with `change` applied."""
    if change is None:
        return acc
    how, amount = change
    if how == "scale":
        rate = 1 / np.median(np.diff(t))
        gravity = sosfiltfilt(butter(2, GRAVITY_CUTOFF_HZ, fs=rate, output="sos"), acc, axis=0)
        return gravity + amount * (acc - gravity)
    rng = np.random.default_rng(zlib.crc32(rid.encode()))
    return acc + rng.normal(0.0, amount, acc.shape)


def prepare(motus, datasets, title, folder, kind):
    """Writes every version of each recording Motus scores in `folder`; returns
    {folder name: (its path, {id: changed recording})} and {id: its group's name} (the group
    `motus evaluate-steps` puts the recording in, "" for none; a written file has none)."""
    out, groups = {}, {}
    for _, name, _ in CHANGES:
        path = os.path.join(OUT, kind, name)
        os.makedirs(path, exist_ok=True)
        out[name] = (path, {})
    for rid, row, rec, meta in surroundings.scored_recordings(motus, datasets, title, folder, kind):
        file_id = rid.replace("/", "_") + ".motus"
        groups[file_id] = steps_table.group_of(row)
        for _, name, change in CHANGES:
            acc = changed(rec.acc_t, rec.acc, change, rid)
            path, recs = out[name]
            surroundings.write_motus(os.path.join(path, file_id), rec, meta, rec.acc_t, acc)
            recs[file_id] = dataclasses.replace(rec, acc=acc)
    return out, groups


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--motus", default=os.path.join(REPO, ".build", "release", "motus"))
    ap.add_argument("--datasets", default=os.environ.get("MOTUS_DATASETS", os.path.join(os.path.dirname(REPO), "shared", "datasets")))
    args = ap.parse_args()
    if not os.path.isfile(args.motus):
        sys.exit("perturb: %s not found (build it: swift build -c release, or give --motus)" % args.motus)
    for _, folder, _ in surroundings.DATASETS:
        if not os.path.isdir(os.path.join(args.datasets, folder)):
            sys.exit("perturb: %s not found (give --datasets)" % os.path.join(args.datasets, folder))
    print("| data set | method | " + " | ".join(title for title, _, _ in CHANGES) + " | range |")
    print("|---|---|" + "---|" * (len(CHANGES) + 1))
    for title, folder, kind in surroundings.DATASETS:
        versions, groups = prepare(args.motus, args.datasets, title, folder, kind)
        # figures[(group, method)]: MAPE per change; group "" is the whole data set.
        figures = {}

        def add(method, errors):
            # Per group too where a group holds enough walks to mean something (WeAllWalk's
            # walkers; an Oxford carry position has one to three).
            for group in [""] + (sorted(set(groups.values()) - {""}) if kind == "weallwalk" else []):
                e = [x for i, x in errors.items() if group in ("", groups[i])]
                figures.setdefault((group, method), []).append(steps_table.summary(e)[0])

        for mode in ("offline", "live"):
            for _, name, _ in CHANGES:
                rows = surroundings.counts(args.motus, versions[name][0], mode)
                add("Motus " + mode, {i: r["error_percent"] for i, r in rows.items()})
                if mode == "offline":
                    # The scipy pipeline on the same samples, judged in the windows Motus judged.
                    recs = versions[name][1]
                    add(steps_table.SCIPY, {i: motus_cli.judge(rows[i], peers.scipy_steps(recs[i]))[2] for i in rows})
        for group in [""] + sorted(set(g for g, _ in figures) - {""}):
            for method in (steps_table.SCIPY, "Motus live", "Motus offline"):
                v = figures[(group, method)]
                label = title + (", " + group if group else "")
                print("| %s | %s | %s | %.2f–%.2f |" % (label, method, " | ".join("%.2f" % x for x in v), min(v), max(v)))
    print("\nEach recording as recorded and changed as the column says (benchmarks/steps/perturb.py); "
          "command: `benchmarks/.venv-steps/bin/python benchmarks/steps/perturb.py`.")


if __name__ == "__main__":
    try:
        main()
    except RuntimeError as e:
        # A data set motus cannot read, a recording it cannot convert: one line, as motus says it.
        sys.exit("perturb: %s" % e)
