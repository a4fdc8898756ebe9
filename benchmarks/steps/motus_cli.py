"""Everything that goes through the motus command-line tool: its step evaluation (the Motus
columns and the list of recordings every method is scored on), and `motus convert`, which
hands each recording to Python exactly as motus reads it (samples in SI units, labels and
`step` events), so that no data set reader is written twice.

Scoring (`judge`) takes what Motus judged a recording by from its own evaluate-steps JSON,
so that no rule of Sources/MotusEvaluation/StepEvaluation.swift is written twice: the
reference steps it judged (`true_steps`: those inside the annotated walks, inside the span of
the device's data) and the windows it counted its steps in (`judged_spans`: the annotated
walks widened by 0.3 s on each side, overlapping ones merged; absent when every step is
judged). A peer's steps are counted inside the same windows.
"""

import json
import os
import re
import subprocess
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

import stdlib_motus

def step_modes(motus):
    """The Motus columns: (title, extra evaluate-steps arguments). Live and offline when this
    build's `evaluate-steps --help` offers `--step-mode`, else the one mode it has."""
    helptext = subprocess.run([motus, "evaluate-steps", "--help"], capture_output=True, text=True).stdout
    if "--step-mode" in helptext:
        return [("Motus live", ["--step-mode", "live"]), ("Motus offline", ["--step-mode", "offline"])]
    return [("Motus (current)", [])]


def evaluate_steps(motus, folder, extra_args):
    """Runs `motus evaluate-steps FOLDER --format json --allow-skipped` and returns
    (rows by id, skipped list, error text). A data set without any reference step makes the
    command fail ("no recording with acceleration and step ground truth"): then rows is empty
    and the error text says why."""
    cmd = [motus, "evaluate-steps", folder, "--format", "json", "--allow-skipped", *extra_args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return {}, [], stdlib_motus.last_line(p)
    report = json.loads(p.stdout)
    return {r["id"]: r for r in report["recordings"]}, report.get("skipped", []), None


def source_files(path):
    """The files a converted recording depends on (for the cache key)."""
    if os.path.isdir(path):
        return sorted(os.path.join(path, f) for f in os.listdir(path))
    files = [path]
    # IPOL: `<trial>_lb.txt` has its annotations in `<trial>.json`.
    if path.endswith("_lb.txt"):
        files.append(path[: -len("_lb.txt")] + ".json")
    m = re.match(r"iPhoneSensors_(T\d+_ID\d+)_\w\w_(\w+)\.csv$", os.path.basename(path))
    if m:  # WeAllWalk: the trial's XML in ../xml/ (or beside the phone file)
        xml = "%s_%s.xml" % m.groups()
        files += [os.path.join(os.path.dirname(os.path.dirname(path)), "xml", xml), os.path.join(os.path.dirname(path), xml)]
    return [f for f in files if os.path.exists(f)]


def convert(motus, path, out_csv, extra_args=()):
    """`motus convert PATH [EXTRA_ARGS] --out OUT.csv` (EXTRA_ARGS: `--resample HZ`), unless
    OUT.csv is there already and was written from the same input files (size and modification
    time) with the same arguments, kept in OUT.csv.key."""
    key = "\n".join(["%s %d %d" % (f, os.stat(f).st_size, os.stat(f).st_mtime_ns) for f in source_files(path)]
                    + [" ".join(extra_args)])
    key_file = out_csv + ".key"
    if os.path.exists(out_csv) and os.path.exists(key_file):
        with open(key_file) as fh:
            if fh.read() == key:
                return
    os.makedirs(os.path.dirname(out_csv), exist_ok=True)
    p = subprocess.run([motus, "convert", path, *extra_args, "--out", out_csv], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("motus convert %s failed: %s" % (path, p.stderr.strip()))
    with open(key_file, "w") as fh:
        fh.write(key)


@dataclass
class Recording:
    """One converted recording: the streams a step detector reads, and the truth."""
    acc_t: np.ndarray            # s
    acc: np.ndarray              # m/s², gravity included, n × 3
    gyro_t: np.ndarray = None    # s (None without a gyroscope)
    gyro: np.ndarray = None      # rad/s, n × 3
    steps: np.ndarray = field(default_factory=lambda: np.zeros(0))  # reference step times (s)
    labels: list = field(default_factory=list)                       # (start s, end s, label)
    height_m: float = None       # the subject's height, when the metadata gives it
    meta: dict = field(default_factory=dict)                         # every `meta` row: key → text


def read_converted(csv_path):
    """Reads what `motus convert` wrote (docs/FORMAT.md, "What motus convert writes").
    Acceleration: the stream named `acc`, else the first of kind `acc`, else user acceleration
    + gravity on the user acceleration's times (the two inputs motus's step evaluation accepts)."""
    df = pd.read_csv(csv_path, usecols=["kind", "stream", "time_s", "x", "y", "z", "end_s", "text", "detail"],
                     dtype={"kind": str, "stream": str, "text": str, "detail": str}, float_precision="round_trip")
    samples = df[~df.kind.isin(["meta", "label", "event"])]
    def stream(kind):
        rows = samples[samples.kind == kind]
        if rows.empty:
            return None
        name = kind if (rows.stream == kind).any() else rows.stream.iloc[0]
        rows = rows[rows.stream == name]
        return rows.time_s.to_numpy(), rows[["x", "y", "z"]].to_numpy()

    acc = stream("acc")
    if acc is None:
        ua, g = stream("uacc"), stream("grav")
        if ua is None or g is None:
            raise RuntimeError("%s: no acceleration (raw, or user acceleration with gravity)" % csv_path)
        gi = np.column_stack([np.interp(ua[0], g[0], g[1][:, k]) for k in range(3)])
        acc = (ua[0], ua[1] + gi)
    gyro = stream("gyro")
    events = df[(df.kind == "event") & (df.text == "step")]
    labels = [(float(r.time_s), float(r.end_s), str(r.text)) for r in df[df.kind == "label"].itertuples()]
    meta = dict(zip(df.text[df.kind == "meta"], df.detail[df.kind == "meta"]))
    height = float(meta["height_m"]) if "height_m" in meta else None
    return Recording(acc_t=acc[0], acc=acc[1], gyro_t=None if gyro is None else gyro[0],
                     gyro=None if gyro is None else gyro[1], steps=np.sort(events.time_s.to_numpy()),
                     labels=labels, height_m=height, meta=meta)


def inside(spans, times):
    """Which of `times` (s) lie inside any of `spans` ([start, end] pairs, as evaluate-steps'
    `judged_spans`, which do not overlap); all of them when `spans` is None (every step judged)."""
    times = np.asarray(times, dtype=float)
    mask = np.ones(len(times), dtype=bool) if spans is None else np.zeros(len(times), dtype=bool)
    for a, b in spans or []:
        mask |= (times >= a) & (times <= b)
    return mask


def count_inside(spans, detected):
    """How many of the times `detected` (s) lie inside any of `spans` (`inside`)."""
    return int(inside(spans, detected).sum())


def paired_counts(motus, folder, key, labels, extra_args):
    """Each recording's step count from `motus evaluate-steps FOLDER --pair-by KEY --within
    LABELS --format json --allow-skipped [EXTRA_ARGS]` (EXTRA_ARGS: `--step-mode live|offline`,
    `--resample HZ`), by recording id: (the steps counted inside the labels, the windows they
    were counted in)."""
    cmd = [motus, "evaluate-steps", folder, "--pair-by", key, "--within", ",".join(labels), "--format", "json",
           "--allow-skipped", *extra_args]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("%s failed: %s" % (" ".join(cmd[1:4]), stdlib_motus.last_line(p)))
    return {c["id"]: (c["counted_steps"], c.get("judged_spans")) for g in json.loads(p.stdout)["groups"] for c in g["counts"]}


def judges_step_times(motus):
    """Whether this build's evaluate-steps judges another detector's steps (`--steps-from`)."""
    helptext = subprocess.run([motus, "evaluate-steps", "--help"], capture_output=True, text=True).stdout
    return "--steps-from" in helptext


def judge_step_times(motus, folder, steps_by_id, csv_path, extra_args=()):
    """Judges a detector's step times the way Motus judges its own, by Motus's own code: writes
    `steps_by_id` ({recording id: step times in s}) to `csv_path` (header recording,time_s, a
    row with no time for a recording without steps) and runs `motus evaluate-steps FOLDER
    --steps-from CSV --format json --allow-skipped [EXTRA_ARGS]`. Returns the rows by id (each
    with `counted_steps` and the step-by-step `match`)."""
    os.makedirs(os.path.dirname(csv_path), exist_ok=True)
    with open(csv_path, "w", newline="") as fh:
        fh.write("recording,time_s\n")
        for rid, times in steps_by_id.items():
            if len(times) == 0:
                fh.write("%s,\n" % rid)
            for t in times:
                fh.write("%s,%r\n" % (rid, float(t)))
    rows, _, error = evaluate_steps(motus, folder, ["--steps-from", csv_path, *extra_args])
    if error:
        raise RuntimeError("evaluate-steps --steps-from %s failed: %s" % (csv_path, error))
    return rows


def match_total(rows):
    """The step-by-step comparisons (`match`) of evaluate-steps rows, summed: matched, missed,
    extra, and where the misses and extra steps lie; with precision, recall and F1 (%)."""
    keys = ["matched", "missed", "extra", "missed_at_ends", "extra_at_ends", "missed_in_turns", "extra_in_turns"]
    total = {k: sum(r["match"][k] for r in rows) for k in keys}
    found, counted, true = total["matched"], total["matched"] + total["extra"], total["matched"] + total["missed"]
    precision = 100.0 * found / counted if counted else 0.0
    recall = 100.0 * found / true if true else 0.0
    total["f1_percent"] = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return total


def judge(row, detected):
    """(true steps, counted steps, error %) for detected step times `detected` (s), judged as
    `motus evaluate-steps` judged the recording of its JSON row `row`: against the reference
    steps it judged, counting the steps inside its windows."""
    true = row["true_steps"]
    counted = count_inside(row.get("judged_spans"), detected)
    error = 100.0 * (counted - true) / true if true > 0 else 0.0
    return true, counted, error
