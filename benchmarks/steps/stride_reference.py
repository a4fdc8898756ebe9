#!/usr/bin/env python3
"""How well Weinberg's stride model, with the reference peak-to-peak Motus ships
(`StrideModel.weinbergK`), gets IPOL's distances, and which reference IPOL itself would choose,
scored leave-one-subject-out.

IPOL (Voisard 2023, lower back) is the only shared data set with a known course: every trial
walks 20 m (10 m, a U-turn, 10 m back) and gives the walker's height. `motus evaluate-steps
--format json` reports each trial's distance from height and steps (`distance_meters`); this
script needs nothing else, and no Python package beyond the standard library.

Every step's length is k * p2p^(1/4) with k = 0.415 * height / reference^(1/4), so a change of
the reference scales a trial's distance by one factor common to all trials. The factor that
makes the median trial right is median(course / distance); a reference divided by that
factor to the fourth power gives it. Leave-one-subject-out: each subject's trials are scored
with the factor chosen on the other subjects' trials (the subject is the id's part before the
dash). Printed: median |distance error| as shipped, with the factor chosen on all trials, and
leave-one-subject-out; the factor and the reference it implies.

    python3 benchmarks/steps/stride_reference.py [--motus BIN] [--datasets DIR] [--step-mode offline|live]
"""

import os
import re
import statistics
import sys

import stdlib_motus


def shipped_reference(repo):
    """StrideModel.weinbergK's default referencePeakToPeak (m/s²), read from the source so that
    this script cannot drift from it."""
    path = os.path.join(repo, "Sources", "MotusTracking", "StrideLength.swift")
    with open(path, encoding="utf-8") as f:
        m = re.search(r"referencePeakToPeak: MetersPerSecondSquared = ([0-9.]+)", f.read())
    if not m:
        sys.exit(f"stride_reference: no default referencePeakToPeak in {path}")
    return float(m.group(1))


def main():
    repo = stdlib_motus.REPO
    ap = stdlib_motus.parser(__doc__)
    ap.add_argument("--step-mode", default="offline", choices=["offline", "live"])
    args = ap.parse_args()
    folder = os.path.join(args.datasets, "ipol", "voisard2023_ipol497")
    if not os.path.isdir(folder):
        sys.exit(f"stride_reference: {folder} not found (give --datasets)")
    rows = [r for r in stdlib_motus.evaluate_steps("stride_reference", args.motus, folder, args.step_mode)["recordings"]
            if r.get("distance_meters") and r.get("course_meters") and r.get("height_meters")]
    if len(rows) < 4:
        sys.exit("stride_reference: fewer than four trials with a course, a height and a distance")
    ratio = {r["id"]: r["course_meters"] / r["distance_meters"] for r in rows}
    reference = shipped_reference(repo)

    def err(i, factor):  # |distance error| in % of trial i with the distance scaled by factor
        return abs(factor / ratio[i] - 1) * 100

    ids = [r["id"] for r in rows]
    shipped = statistics.median(err(i, 1) for i in ids)
    factor = statistics.median(ratio.values())
    fitted = statistics.median(err(i, factor) for i in ids)
    subject = {i: i.split("-")[0] for i in ids}
    loso = []
    for s in sorted(set(subject.values())):
        train = statistics.median(ratio[i] for i in ids if subject[i] != s)
        loso += [err(i, train) for i in ids if subject[i] == s]
    print(f"IPOL, {len(ids)} trials of {len(set(subject.values()))} subjects, --step-mode {args.step_mode}")
    print(f"median |distance error| as shipped (reference {reference} m/s²): {shipped:.2f} %")
    print(f"median-calibrated on all trials: factor {factor:.4f}, reference {reference / factor ** 4:.2f} m/s², "
          f"median |error| {fitted:.2f} %")
    print(f"leave-one-subject-out (factor chosen on the other subjects): median |error| {statistics.median(loso):.2f} %")


if __name__ == "__main__":
    main()
