#!/usr/bin/env python3
"""How many of the Oxford walks' reference steps are a foot switch pressed twice, and what
Motus's step error is with and without them.

The Oxford walks' reference steps are the presses (0 -> 1 edges) of pressure pads under both
shoes, polled over Bluetooth about every 0.1 s (../shared/datasets/oxford/README.md). Walking
alternates the feet, so two presses of the same foot in a row mean that either the other
foot's press was lost (the two presses are then about a stride apart) or one pad was pressed
twice during one stance (a bounce: the two presses come within a step interval or so, and the
count has one step too many). This script reads each walk's `stepcounter.csv`, counts the
presses of the same foot in a row less than `--bounce-ratio` (1.5) times the walk's median
interval between presses apart (bounces) and those further apart (a lost press), runs
`motus evaluate-steps` on the Oxford folder in both step modes, and prints one markdown table:
per walk, the reference steps `evaluate-steps` judges, the bounces, the steps Motus counts and
its error against the reference as it is (what the quality bars and every table use) and
against the reference without the bounces. Only the Python standard library is needed.

    python3 benchmarks/steps/oxford_reference.py [--motus BIN] [--datasets DIR] [--bounce-ratio R]
"""

import csv
import os
import statistics
import sys

import stdlib_motus


def presses(path):
    """The reference presses of one walk, in time order: (seconds from the first row, foot 1 or 2)."""
    rows = []
    with open(path, newline="", encoding="ascii") as f:
        for n, row in enumerate(csv.reader(f), start=1):
            if not row:
                continue
            if len(row) < 3:
                sys.exit(f"oxford_reference: {path}:{n}: {len(row)} columns, expected 3 (time ns, foot 1, foot 2)")
            try:
                rows.append((int(row[0]), int(row[1]), int(row[2])))
            except ValueError:
                sys.exit(f"oxford_reference: {path}:{n}: not three integers: {','.join(row)}")
    if not rows:
        return []
    t0 = rows[0][0]
    out = []
    for prev, cur in zip(rows, rows[1:]):
        for foot in (1, 2):
            if prev[foot] == 0 and cur[foot] == 1:
                out.append(((cur[0] - t0) / 1e9, foot))
    out.sort()
    return out


def repeats(steps, ratio):
    """(bounces, lost): presses of the same foot in a row closer than `ratio` times the median
    interval between presses, and further apart."""
    if len(steps) < 3:
        return 0, 0
    median = statistics.median(b[0] - a[0] for a, b in zip(steps, steps[1:]))
    bounces = lost = 0
    for a, b in zip(steps, steps[1:]):
        if a[1] == b[1]:
            if b[0] - a[0] < ratio * median:
                bounces += 1
            else:
                lost += 1
    return bounces, lost


def main():
    ap = stdlib_motus.parser(__doc__)
    ap.add_argument("--bounce-ratio", type=float, default=1.5)
    args = ap.parse_args()
    folder = os.path.join(args.datasets, "oxford")
    data = os.path.join(folder, "optimisation", "data")
    if not os.path.isdir(data):
        sys.exit(f"oxford_reference: {data} not found (give --datasets)")
    modes = {m: {r["id"]: r for r in stdlib_motus.evaluate_steps("oxford_reference", args.motus, folder, m)["recordings"]}
             for m in ("offline", "live")}
    print("| walk | reference steps | bounces | lost presses | Motus offline | live | error % as is (offline / live) | error % without bounces (offline / live) |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    as_is = {"offline": [], "live": []}
    cleaned = {"offline": [], "live": []}
    total_bounces = 0
    for walk in sorted(os.listdir(data)):
        path = os.path.join(data, walk, "stepcounter.csv")
        if not os.path.isfile(path) or walk not in modes["offline"]:
            continue
        steps = presses(path)
        bounces, lost = repeats(steps, args.bounce_ratio)
        total_bounces += bounces
        true = modes["offline"][walk]["true_steps"]
        if true != len(steps):
            print(f"oxford_reference: {walk}: evaluate-steps judges {true} reference steps, the file has {len(steps)}",
                  file=sys.stderr)
        cells = []
        for m in ("offline", "live"):
            counted = modes[m][walk]["counted_steps"]
            as_is[m].append(100 * (counted - true) / true)
            cleaned[m].append(100 * (counted - (true - bounces)) / (true - bounces))
        print(f"| {walk} | {true} | {bounces} | {lost} | {modes['offline'][walk]['counted_steps']} | "
              f"{modes['live'][walk]['counted_steps']} | {as_is['offline'][-1]:+.2f} / {as_is['live'][-1]:+.2f} | "
              f"{cleaned['offline'][-1]:+.2f} / {cleaned['live'][-1]:+.2f} |")
    if not as_is["offline"]:
        sys.exit("oxford_reference: no walk scored")

    def mape(v):
        return statistics.fmean(abs(x) for x in v)

    def worst(v):
        return max(abs(x) for x in v)

    print(f"| **MAPE / worst** | | {total_bounces} | | | | {mape(as_is['offline']):.2f} / {worst(as_is['offline']):.2f}, "
          f"{mape(as_is['live']):.2f} / {worst(as_is['live']):.2f} | {mape(cleaned['offline']):.2f} / "
          f"{worst(cleaned['offline']):.2f}, {mape(cleaned['live']):.2f} / {worst(cleaned['live']):.2f} |")


if __name__ == "__main__":
    main()
