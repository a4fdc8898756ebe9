#!/usr/bin/env python3
"""make-long.py SECONDS [SOURCE]: writes benchmarks/.data/long-<SECONDS>s.motus, a long recording
for the memory benchmark: the bundled 100 Hz lower-back recording (acc + gyro,
datasets/lowback-daily-activities.motus) repeated end to end until SECONDS, each copy shifted
by the source's length, its streams interleaved by time as the recorder writes them. Streams
its output (memory stays flat however long the file)."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
seconds = float(sys.argv[1])
source = sys.argv[2] if len(sys.argv) > 2 else os.path.join(root, "datasets", "lowback-daily-activities.motus")
out = os.path.join(root, "benchmarks", ".data", f"long-{int(seconds)}s.motus")
if os.path.exists(out):
    print(out)
    sys.exit(0)
os.makedirs(os.path.dirname(out), exist_ok=True)

header, rows = [], []
with open(source) as f:
    for line in f:
        line = line.rstrip("\n")
        if line.startswith(("#", "@")):
            if not line.startswith(("@label", "@event")):
                header.append(line)
            continue
        name, t, rest = line.split(",", 2)
        rows.append((float(t), name, rest))
rows.sort(key=lambda r: r[0])          # stable: ties keep the file's order
first, last = rows[0][0], rows[-1][0]
period = (last - first) + 0.01          # one 100 Hz interval after the last sample
with open(out + ".tmp", "w") as f:
    f.write("\n".join(header) + "\n")
    f.write(f"# {os.path.basename(source)} repeated to {seconds:.0f} s (benchmarks/memory/make-long.py)\n")
    k = 0
    while True:
        shift = k * period
        if first + shift >= seconds:
            break
        lines = []
        for t, name, rest in rows:
            tt = t - first + shift
            if tt >= seconds:
                break
            lines.append(f"{name},{tt:.4f},{rest}")
        f.write("\n".join(lines) + "\n")
        k += 1
os.replace(out + ".tmp", out)
print(out)
