#!/usr/bin/env python3
"""mutate.py [--binary MOTUS] [--per-file N] [--seed S]: the issue #18 campaign, as a user runs it.

Makes N mutated copies of one real file of each kind Motus reads (native, delimited CSV,
MotionSense, Oxford walk, IPOL trial, mPower JSON, GPX, TCX, FIT, polyline, model JSON) by
the issue's recipes (cut at a random byte, byte flips, a number made huge / NaN / inf, a time
made absurd, a line dropped or doubled, a column removed or added, CRLF / CR-only line ends,
UTF-16) and runs the command a user would (`inspect`, `track`, `ride`, `classify --model`) on
each, with a 60 s limit. Counts per kind:
  crash  the process died on a signal (a trap)
  hang   it ran past the limit
  error  exit 1 with one stderr line naming the file, what was found and what was expected
         (most with a position: line and column, byte, or a model file's key path)
  vague  exit non-zero without that shape
  ok     exit 0 (then: same output as the original file, or a changed one, printed with its
         recipe so a person can judge it: a mutation of a value should change the result)
Data come from ../shared/datasets (MOTUS_DATASETS); mutants are written to a temporary folder.
"""
import argparse, os, random, re, shutil, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
data = os.environ.get("MOTUS_DATASETS", os.path.join(os.path.dirname(root), "shared", "datasets"))

def sources():
    oxford = os.path.join(data, "oxford/optimisation/data/Nexus_Jamie_Hard_InHand_1")
    ipol = os.path.join(data, "ipol/voisard2023_ipol497/GaitData")
    return [
        ("native", os.path.join(root, "datasets/lowback-straight-walk.motus"), ["track"], None),
        ("csv", os.path.join(root, "datasets/mobgap/MS001_TimeMeasure1_Test5_Trial1.csv"),
         ["track", "--rate", "100", "--accel-unit", "g", "--gyro-unit", "degs"], None),
        ("motionsense", os.path.join(data, "motionsense/A_DeviceMotion_data/wlk_15/sub_1.csv"), ["track"], None),
        ("oxford", os.path.join(oxford, "accelerometer.csv"), ["track"], oxford),
        ("ipol", os.path.join(ipol, "1-2_lb.txt"), ["track"], None),
        ("ipol-json", os.path.join(ipol, "1-2.json"), ["inspect"], ipol),
        ("mpower", os.path.join(data, "mpower/mhealthtools/walk_data.converted.json"), ["track"], None),
        ("gpx", os.path.join(data, "tracks/togeojson/run.gpx"), ["ride"], None),
        ("tcx", os.path.join(data, "tracks/tcxparser/test.tcx"), ["ride"], None),
        ("fit", os.path.join(data, "tracks/python-fitparse/activity-small-fenix2-run.fit"), ["ride"], None),
        ("polyline", os.path.join(data, "tracks/georust-polyline/route-geometry-sweden-west-coast.polyline6"), ["route"], None),
        ("model", os.path.join(root, "models/moving-still.json"), ["classify", os.path.join(root, "datasets/lowback-straight-walk.motus"), "--model"], None),
    ]

NUM = re.compile(rb"-?\d+\.\d+(?:[eE][-+]?\d+)?|-?\d+")

def mutate(b: bytes, rng: random.Random):
    lines = b.split(b"\n")
    recipe = rng.choice(["cut", "flip", "huge", "nan", "inf", "time", "drop", "double", "column-", "column+", "crlf", "cr", "utf16"])
    if recipe == "cut":
        return recipe, b[: rng.randrange(1, max(2, len(b)))]
    if recipe == "flip":
        a = bytearray(b)
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(a)); a[i] ^= 1 << rng.randrange(8)
        return recipe, bytes(a)
    if recipe in ("huge", "nan", "inf", "time"):
        nums = list(NUM.finditer(b))
        if not nums:
            return "cut", b[: len(b) // 2]
        m = rng.choice(nums)
        new = {"huge": rng.choice([b"1e308", b"9.3e18", b"-1e300"]), "nan": b"nan", "inf": b"inf", "time": rng.choice([b"1e300", b"-1e12", b"1e26"])}[recipe]
        return recipe, b[: m.start()] + new + b[m.end():]
    if recipe in ("drop", "double") and len(lines) > 3:
        i = rng.randrange(1, len(lines) - 1)
        lines = lines[:i] + lines[i + 1:] if recipe == "drop" else lines[:i + 1] + [lines[i]] + lines[i + 1:]
        return recipe, b"\n".join(lines)
    if recipe in ("column-", "column+") and len(lines) > 3:
        i = rng.randrange(1, len(lines) - 1)
        f = lines[i].split(b",")
        f = f[:-1] if recipe == "column-" and len(f) > 1 else f + [b"1.5"]
        lines[i] = b",".join(f)
        return recipe, b"\n".join(lines)
    if recipe == "crlf":
        return recipe, b.replace(b"\n", b"\r\n")
    if recipe == "cr":
        return recipe, b.replace(b"\n", b"\r")
    if recipe == "utf16":
        return recipe, b.decode("utf-8", "replace").encode("utf-16")
    return "cut", b[: len(b) // 2]

POSITION = re.compile(r":\d+(:\d+)?:| at byte \d+|:\d+: ")

def run(cmd, timeout, target=None):
    try:
        p = subprocess.run(cmd, capture_output=True, timeout=timeout)
        out = p.stdout
        if target:  # outputs that name the file compare equal whatever folder it is in
            out = out.replace(os.fsencode(os.path.dirname(target)), b"<dir>")
        return p.returncode, out, p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return None, b"", ""

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(root, ".build/release/motus"))
    ap.add_argument("--per-file", type=int, default=40)
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--timeout", type=float, default=60)
    a = ap.parse_args()
    rng = random.Random(a.seed)
    tmp = tempfile.mkdtemp(prefix="motus-mutate-")
    totals = {}
    changed = []
    try:
        for kind, path, command, folder in sources():
            if not os.path.exists(path):
                print(f"{kind}: {path} not found, skipped", file=sys.stderr); continue
            original = open(path, "rb").read()
            name = os.path.basename(path)
            def place(content):
                d = tempfile.mkdtemp(dir=tmp)
                if folder:  # the file's siblings too (an Oxford walk, an IPOL trial)
                    for f in os.listdir(folder):
                        if os.path.isfile(os.path.join(folder, f)):
                            shutil.copy(os.path.join(folder, f), d)
                target = os.path.join(d, name)
                open(target, "wb").write(content)
                return d if kind == "oxford" else target
            def cmdline(target):
                if kind == "model":
                    return [a.binary] + command + [target]
                return [a.binary, command[0], target] + command[1:]
            t0 = place(original)
            base = run(cmdline(t0), a.timeout, t0 if kind != "oxford" else t0 + "/x")
            counts = {"crash": 0, "hang": 0, "error": 0, "no position": 0, "vague": 0, "ok-same": 0, "ok-changed": 0}
            for _ in range(a.per_file):
                recipe, content = mutate(original, rng)
                target = place(content)
                code, out, err = run(cmdline(target), a.timeout, target if kind != "oxford" else target + "/x")
                if code is None: counts["hang"] += 1; print(f"HANG {kind} {recipe}: {target}")
                elif code < 0: counts["crash"] += 1; print(f"CRASH {kind} {recipe} (signal {-code}): {target}")
                elif code != 0:
                    lines = [l for l in err.strip().split("\n") if l.strip()]
                    last = lines[-1] if lines else ""
                    if last and name in last and "found" in last and "expected" in last:
                        counts["error"] += 1
                        if not POSITION.search(last) and " at " not in last: counts["no position"] += 1
                    else:
                        counts["vague"] += 1; print(f"VAGUE {kind} {recipe}: {last[:200]}")
                elif out == base[1]: counts["ok-same"] += 1
                else:
                    counts["ok-changed"] += 1; changed.append((kind, recipe))
            totals[kind] = counts
            print(f"{kind:12} " + "  ".join(f"{k} {v}" for k, v in counts.items()), flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    s = {k: sum(c[k] for c in totals.values()) for k in ["crash", "hang", "error", "no position", "vague", "ok-same", "ok-changed"]}
    print("total        " + "  ".join(f"{k} {v}" for k, v in s.items()))
    if changed:
        from collections import Counter
        print("exit 0 with a changed result, by kind and recipe: " + ", ".join(f"{k}/{r} {n}" for (k, r), n in sorted(Counter(changed).items())))
    return 1 if s["crash"] or s["hang"] else 0

if __name__ == "__main__":
    sys.exit(main())
