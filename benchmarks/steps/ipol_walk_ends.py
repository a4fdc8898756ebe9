#!/usr/bin/env python3
"""How much the lower back moves at the first and the last reference step of each IPOL trial,
and which of those steps Motus counts.

Each IPOL trial is a walk from standing to standing (10 m, a U-turn, 10 m back). Its reference
steps are the heel strikes of foot-worn sensors (`LeftFootEvents`/`RightFootEvents`, [toe off,
heel strike]); the trial ends at the heel strike of the closing step, the foot brought beside
the other. For every heel strike this script measures the swing of |a| at the lower back
around it: the range of |a|, smoothed over 50 ms, from 0.1 s before to 0.2 s after the strike,
over the median of that range at all the trial's strikes. A closing step whose swing is under
`--quiet` (0.25) of the trial's median moved the sensor about as much as standing does: no
amplitude or rhythm rule can find it there. The script runs `motus track` on every trial in
both step modes and prints one markdown table: per mode, how many trials' last steps are quiet,
how many of the quiet and of the other last steps Motus counts (a step within 0.2 s before to
0.35 s after the strike), and in how many trials Motus counts a step more than 0.2 s (and less
than 1.5 s) before the first heel strike (the push-off of the first step, which is no heel
strike). Then one row per trial. Only the Python standard library is needed.

    python3 benchmarks/steps/ipol_walk_ends.py [--motus BIN] [--datasets DIR] [--quiet F]
"""

import bisect
import json
import math
import os
import statistics
import sys

import stdlib_motus

SCRIPT = "ipol_walk_ends"


def lower_back(path):
    """(times in s, |a| in m/s²) of one `_lb.txt` file: the packet counter over 100 Hz."""
    times, norms = [], []
    with open(path, encoding="ascii") as f:
        for n, line in enumerate(f, start=1):
            if n <= 2:
                continue
            cells = line.split("\t")
            if len(cells) < 4:
                sys.exit(f"{SCRIPT}: {path}:{n}: {len(cells)} columns, expected at least 4 (PacketCounter, Acc_X, Acc_Y, Acc_Z)")
            try:
                t, x, y, z = (float(c) for c in cells[:4])
            except ValueError:
                sys.exit(f"{SCRIPT}: {path}:{n}: not four numbers: {' '.join(cells[:4])}")
            times.append(t / 100)
            norms.append(math.sqrt(x * x + y * y + z * z))
    if len(times) < 10:
        sys.exit(f"{SCRIPT}: {path}: {len(times)} samples, expected a trial")
    return times, norms


def heel_strikes(path):
    """The trial's heel strikes (s) inside its `TrialBoundaries` (some files list strikes after
    the trial, as `motus evaluate-steps` does not judge them either), in time order."""
    try:
        with open(path, encoding="utf-8") as f:
            # Some files write a bare NaN, which Python's json reads.
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{SCRIPT}: {path}: {e}")
    bounds = doc.get("TrialBoundaries")
    if not isinstance(bounds, list) or len(bounds) != 2:
        sys.exit(f"{SCRIPT}: {path}: TrialBoundaries is {bounds!r}, expected [first, last]")
    out = []
    for key in ("LeftFootEvents", "RightFootEvents"):
        for event in doc.get(key, []):
            if not isinstance(event, list) or len(event) != 2:
                sys.exit(f"{SCRIPT}: {path}: {key} has {event!r}, expected [toe off, heel strike]")
            if bounds[0] <= event[1] <= bounds[1]:
                out.append(event[1] / 100)
    return sorted(out)


def swings(times, norms, strikes):
    """Each strike's swing of smoothed |a| over its trial's median swing."""
    half = 2  # 5 samples at 100 Hz: 50 ms
    smooth = [statistics.fmean(norms[max(0, i - half):i + half + 1]) for i in range(len(norms))]
    out = []
    for h in strikes:
        w = smooth[bisect.bisect_left(times, h - 0.1):bisect.bisect_right(times, h + 0.2)]
        out.append(max(w) - min(w) if w else 0.0)
    median = statistics.median(out)
    return [s / median if median > 0 else 0.0 for s in out]


def counted_steps(motus, path, mode, origin):
    """Motus's step times (s, on the file's clock) from `motus track PATH --step-events`."""
    report = stdlib_motus.motus_json(SCRIPT, motus, ["track", path, "--format", "json", "--step-events", "--step-mode", mode],
                                     f"track {os.path.basename(path)} --step-mode {mode}")
    return [origin + e["time_s"] for e in report["events"] if e["type"] == "step"]


def main():
    ap = stdlib_motus.parser(__doc__)
    ap.add_argument("--quiet", type=float, default=0.25,
                    help="a step is quiet when its swing is under this fraction of the trial's median (default 0.25)")
    args = ap.parse_args()
    data = os.path.join(args.datasets, "ipol", "voisard2023_ipol497", "GaitData")
    if not os.path.isdir(data):
        sys.exit(f"{SCRIPT}: {data} not found (give --datasets)")
    trials = sorted(f[:-len("_lb.txt")] for f in os.listdir(data) if f.endswith("_lb.txt"))
    if not trials:
        sys.exit(f"{SCRIPT}: {data} has no trial (<subject>-<trial>_lb.txt)")
    rows = []
    for done, trial in enumerate(trials, start=1):
        path = os.path.join(data, trial + "_lb.txt")
        times, norms = lower_back(path)
        strikes = heel_strikes(os.path.join(data, trial + ".json"))
        if len(strikes) < 3:
            continue
        rel = swings(times, norms, strikes)
        first, last = strikes[0], strikes[-1]
        row = {"trial": trial, "steps": len(strikes), "first": rel[0], "last": rel[-1]}
        for mode in ("offline", "live"):
            steps = counted_steps(args.motus, path, mode, times[0])
            row[mode] = {
                "last": any(last - 0.2 <= t <= last + 0.35 for t in steps),
                "push_off": any(first - 1.5 < t < first - 0.2 for t in steps),
            }
        rows.append(row)
        print(f"{SCRIPT}: {done}/{len(trials)} trials", file=sys.stderr)
    if not rows:
        sys.exit(f"{SCRIPT}: no trial with three heel strikes")

    quiet = [r for r in rows if r["last"] < args.quiet]
    loud = [r for r in rows if r["last"] >= args.quiet]
    print(f"IPOL, {len(rows)} trials; a step is quiet when the lower back swings less than {args.quiet:g} "
          f"of the trial's median step around it. The last step is quiet in {len(quiet)} trials "
          f"(median swing of the last steps {statistics.median(r['last'] for r in rows):.2f}, "
          f"of the first {statistics.median(r['first'] for r in rows):.2f}).")
    print()
    print("| mode | last step counted: quiet ones | the others | push-off counted before the first heel strike |")
    print("|---|---|---|---|")
    for mode in ("offline", "live"):
        q = sum(r[mode]["last"] for r in quiet)
        o = sum(r[mode]["last"] for r in loud)
        p = sum(r[mode]["push_off"] for r in rows)
        print(f"| {mode} | {q} of {len(quiet)} | {o} of {len(loud)} | {p} of {len(rows)} trials |")
    print()
    print("| trial | heel strikes | swing at the first / last | last counted (offline / live) | push-off counted (offline / live) |")
    print("|---|---:|---|---|---|")
    yes = {True: "yes", False: "no"}
    for r in rows:
        print(f"| {r['trial']} | {r['steps']} | {r['first']:.2f} / {r['last']:.2f} | "
              f"{yes[r['offline']['last']]} / {yes[r['live']['last']]} | "
              f"{yes[r['offline']['push_off']]} / {yes[r['live']['push_off']]} |")


if __name__ == "__main__":
    main()
