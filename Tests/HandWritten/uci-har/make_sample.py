"""Writes the hand-made UCI HAR sample in this folder (python3 make_sample.py; numpy not needed).

Not real data: smooth made-up signals written to the layout of the UCI HAR dataset's
"Inertial Signals" (README.txt): one line per 128-sample window at 50 Hz, consecutive windows
of one stretch overlapping by 64 samples, values in g (acceleration) and rad/s (gyroscope),
printed as the dataset prints them (e.g. " 1.0181039e+00", two leading spaces).
Windows, in file order:
  1-4  subject 1, one stretch: WALKING, WALKING, WALKING, STANDING
  5-6  subject 3, one stretch: SITTING, SITTING
  7    subject 3, a second stretch (does not overlap window 6): LAYING
"""
import math, os

RATE, N, HOP = 50.0, 128, 64
here = os.path.dirname(os.path.abspath(__file__))
base = os.path.join(here, "UCI HAR Dataset")
os.makedirs(os.path.join(base, "train", "Inertial Signals"), exist_ok=True)

def signal(stretch, i):
    """Sample i of a stretch: (total_acc xyz in g, body_acc xyz in g, body_gyro xyz in rad/s)."""
    t = i / RATE
    walk = 0.25 * math.sin(2 * math.pi * 1.8 * t + stretch)
    body = (walk, 0.05 * math.cos(2 * math.pi * 0.9 * t), 0.1 * math.sin(2 * math.pi * 1.8 * t + 1))
    g = (1.0, -0.1 * stretch, 0.05)
    total = tuple(a + b for a, b in zip(g, body))
    gyro = (0.3 * math.sin(2 * math.pi * 0.9 * t), 0.2 * math.cos(2 * math.pi * 1.8 * t), -0.1 * math.sin(2 * math.pi * 0.9 * t + stretch))
    return total, body, gyro

# (subject, activity code, stretch number, window index within the stretch)
windows = [(1, 1, 0, 0), (1, 1, 0, 1), (1, 1, 0, 2), (1, 5, 0, 3), (3, 4, 1, 0), (3, 4, 1, 1), (3, 6, 2, 0)]
files = {}
for sig, idx in (("total_acc", 0), ("body_acc", 1), ("body_gyro", 2)):
    for a, axis in enumerate("xyz"):
        lines = []
        for subject, code, stretch, w in windows:
            vals = [signal(stretch, w * HOP + i)[idx][a] for i in range(N)]
            lines.append("".join("  %.7e" % v for v in vals))
        files["%s_%s_train.txt" % (sig, axis)] = lines
for name, lines in files.items():
    with open(os.path.join(base, "train", "Inertial Signals", name), "w") as f:
        f.write("\n".join(lines) + "\n")
with open(os.path.join(base, "train", "subject_train.txt"), "w") as f:
    f.write("".join("%d\n" % w[0] for w in windows))
with open(os.path.join(base, "train", "y_train.txt"), "w") as f:
    f.write("".join("%d\n" % w[1] for w in windows))
with open(os.path.join(base, "activity_labels.txt"), "w") as f:
    f.write("1 WALKING\n2 WALKING_UPSTAIRS\n3 WALKING_DOWNSTAIRS\n4 SITTING\n5 STANDING\n6 LAYING\n")
