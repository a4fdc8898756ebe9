#!/usr/bin/env python3
"""How much Motus's step figures owe to where the samples happen to fall: each data set taken
again on its own rate's grid started 0, 1/4, 1/2 and 3/4 of a period after its first sample
(`motus evaluate-steps --resample HZ --grid-phase F`), as devices that began sampling a moment
later would have recorded the same walks, offline and live.

A grid shifted by part of a period is the recording interpolated between its samples (by
straight lines, so slightly low-passed). Nothing about the walks changes, so a figure that
moves with the phase moves by chance: the spread over the four phases is the noise of that
figure on these recordings. Oxford's phones record at 200-400 Hz and are taken at 100 Hz
(low-passed first, as `--resample` does below a recording's rate); WeAllWalk's iPhones at
their own 25 Hz, IPOL's lower-back sensor at its own 100 Hz. Printed per data set and mode:
step MAPE as recorded, at each phase, and the phases' mean and range (WeAllWalk's walker groups
too). Only the Python standard library is needed.

    python3 benchmarks/steps/grid_phase.py [--motus BIN] [--datasets DIR] [--phases 0,0.25,0.5,0.75]
"""

import os
import sys

import stdlib_motus

# (name, folder under the datasets, rate of the grid in Hz)
SETS = [("Oxford", "oxford", 100), ("WeAllWalk", "weallwalk", 25), ("IPOL", os.path.join("ipol", "voisard2023_ipol497"), 100)]


def figures(report):
    """MAPE of the whole run and of each group, as {name: %}."""
    out = {"all": report["summary"]["mape"]}
    for g in report.get("groups") or []:
        out[g["group"]] = g["summary"]["mape"]
    return out


def main():
    ap = stdlib_motus.parser(__doc__)
    ap.add_argument("--phases", default="0,0.25,0.5,0.75", help="grid phases, comma-separated fractions in [0, 1)")
    args = ap.parse_args()
    try:
        phases = [float(p) for p in args.phases.split(",")]
    except ValueError:
        sys.exit(f"grid_phase: --phases takes fractions separated by commas, not '{args.phases}'")
    if not phases or any(not 0 <= p < 1 for p in phases):
        sys.exit(f"grid_phase: every phase must lie in [0, 1), not '{args.phases}'")
    print("| data set | grid | mode | as recorded | " + " | ".join(f"phase {p:g}" for p in phases) + " | mean | range |")
    print("|---|---|---|---|" + "---|" * len(phases) + "---|---|")
    for name, sub, hz in SETS:
        folder = os.path.join(args.datasets, sub)
        if not os.path.isdir(folder):
            sys.exit(f"grid_phase: {folder} not found (give --datasets)")
        for mode in ("offline", "live"):
            recorded = figures(stdlib_motus.evaluate_steps("grid_phase", args.motus, folder, mode))
            shifted = [figures(stdlib_motus.evaluate_steps("grid_phase", args.motus, folder, mode,
                                                           ["--resample", f"{hz:g}", "--grid-phase", f"{p:g}"])) for p in phases]
            for group in recorded:
                if group != "all" and name != "WeAllWalk":
                    continue   # Oxford's carry positions: too few walks each for a spread to mean much
                v = [s[group] for s in shifted]
                label = name if group == "all" else f"{name}, {group}"
                print(f"| {label} | {hz:g} Hz | {mode} | {recorded[group]:.2f} | " + " | ".join(f"{x:.2f}" for x in v)
                      + f" | {sum(v) / len(v):.2f} | {min(v):.2f}–{max(v):.2f} |")


if __name__ == "__main__":
    main()
