#!/usr/bin/env python3
"""Run `motus features` and the evaluate commands over many recordings on a Dask cluster.

One task per recording: each task runs the motus binary on one recording of a dataset
(`motus features DATASET --recording ID`, `motus evaluate-steps DATASET --recording ID`), so
the recording keeps its dataset's context (subject ids, labels, the dataset's name) and its
rows are exactly those a single `motus` run over the dataset writes. The recordings come from
`motus features --list-recordings PATH...`, which expands dataset folders as every motus
command does. The driver gathers the feature rows into one pandas DataFrame (in the order a
single run writes them) and the step rows into one table, and pools the step metrics (MAPE,
median and worst |error|) from the per-recording rows, as `evaluate-steps` does. With
--motion it also runs `evaluate-motion` per recording and pools the latency medians and 90th
percentiles from the rows' exact numbers; with --evaluate, `evaluate` (a model on labelled
windows) per recording, pooling the confusion counts, log loss, ROC AUC and the per-data-set
and per-group rows from each window's true class and probabilities.

The workers need the motus binary at the same path (or give --motus) and the data at the same
paths: a shared file system, or the same folders on every machine.

    python3 scale/motus_dask.py ../shared/datasets/oxford --workers 2 --features no-gyroscope \\
        --rows-out rows.csv --compare
    python3 scale/motus_dask.py DATA... --scheduler tcp://10.0.0.5:8786

--compare also runs motus once over all the paths on this machine (one process per command),
checks that the cluster's rows and metrics equal it, and prints recordings per second both
ways. Exit status: 0, or 1 when a comparison differs or a task failed.

Needs: dask[distributed], pandas, numpy (pip install "dask[distributed]" pandas numpy).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import pandas as pd


# ---------------------------------------------------------------- running motus

def run_motus(motus: str, args: list[str]) -> str:
    """Runs motus with `args` and returns its standard output; raises with its stderr on failure."""
    p = subprocess.run([motus, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"motus {' '.join(args)} exited with status {p.returncode}: {p.stderr.strip()[-2000:]}")
    return p.stdout


def list_recordings(motus: str, paths: list[str]) -> list[dict]:
    """Every recording of `paths`, as motus lists them: dicts with path, dataset, recording, set_aside."""
    out = run_motus(motus, ["features", "--list-recordings", *paths])
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def feature_args(feature_set: str | None, maps: list[str], labelled_only: bool) -> list[str]:
    """The `motus features` flags that choose the rows (the same for every task and the single run)."""
    args: list[str] = []
    if feature_set:
        args += ["--features", feature_set]
    for m in maps:
        args += ["--map", m]
    if labelled_only:
        args.append("--labelled-only")
    return args


def parse_feature_lines(text: str) -> pd.DataFrame:
    """`motus features --format jsonl` output as a DataFrame; JSON null (no label, a feature that
    is not a number) becomes None / NaN. Python's float parsing is exact, so the numbers are the
    doubles motus computed."""
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    return typed(pd.DataFrame.from_records(records))


TEXT_COLUMNS = ("recording", "subject", "label")


def typed(frame: pd.DataFrame) -> pd.DataFrame:
    """The column types of feature rows, whatever the rows hold: text columns as objects (an
    unlabelled window's label None), every other column float64 (null as NaN)."""
    for c in frame.columns:
        frame[c] = frame[c].astype(object) if c in TEXT_COLUMNS else frame[c].astype("float64")
    return frame


def features_task(motus: str, path: str, recording: str, args: list[str]) -> pd.DataFrame:
    """One task: the feature rows of one recording of the dataset at `path`."""
    text = run_motus(motus, ["features", path, "--recording", recording, "--out", "-", "--format", "jsonl", *args])
    return parse_feature_lines(text)


def steps_task(motus: str, path: str, recording: str) -> dict:
    """One task: `evaluate-steps` on one recording: {"recordings": [row] or [], "skipped": [...]}."""
    out = run_motus(motus, ["evaluate-steps", path, "--recording", recording, "--format", "json", "--allow-skipped"])
    report = json.loads(out)
    return {"recordings": report["recordings"], "skipped": report["skipped"]}


def motion_task(motus: str, path: str, recording: str, args: list[str]) -> dict:
    """One task: `evaluate-motion` on one recording: {"trials": [row] or [] as printed,
    "exact": the same rows with their numbers as computed, "skipped": [...]}."""
    out = run_motus(motus, ["evaluate-motion", path, "--recording", recording, "--format", "json", "--allow-skipped",
                            "--allow-false-pauses", *args])
    report = json.loads(out)
    return {"trials": report["trials"], "exact": report["exact"]["trials"], "skipped": report["skipped"]}


def evaluate_task(motus: str, path: str, recording: str, args: list[str]) -> dict:
    """One task: `evaluate` (a model) on one recording: its "exact" part (model, classes,
    recordings read, and per recording its data set, group, windows' true classes and
    probabilities)."""
    out = run_motus(motus, ["evaluate", path, "--recording", recording, "--format", "json", *args])
    return json.loads(out)["exact"]


# ---------------------------------------------------------------- pooling the step metrics

def motus_rounded(v: float, significant: int = 6) -> float:
    """`v` rounded as motus's JSON writes a metric (JSONNumbers.format, `.significant(6)`): the
    fraction only, to `significant` significant digits, halves away from zero."""
    if not math.isfinite(v) or v == 0:
        return v
    digits = max(0, significant - 1 - math.floor(math.log(abs(v)) / 2.302585092994046))
    scale = 1.0
    for _ in range(min(digits, 308)):
        scale *= 10
    if abs(v * scale) >= 9e15:
        return v
    a = abs(v * scale)
    whole = math.floor(a)
    r = whole + 1 if a - whole >= 0.5 else whole  # a - whole is exact
    return math.copysign(r, v) / scale


def pooled_steps(rows: list[dict]) -> dict:
    """The step summary of `rows` (StepEvaluation.summarize): totals, MAPE, median and worst
    |error %|, each error recomputed from the integer step counts, as motus computes it."""
    errors = [100 * (r["counted_steps"] - r["true_steps"]) / r["true_steps"] if r["true_steps"] > 0 else 0.0 for r in rows]
    absolute = [abs(e) for e in errors]
    s = sorted(absolute)
    n = len(s)
    median = 0.0 if n == 0 else (s[n // 2] if n % 2 == 1 else 0.5 * (s[n // 2 - 1] + s[n // 2]))
    total = 0.0
    for a in absolute:  # summed in order, as motus sums them
        total += a
    worst_index = max(range(n), key=lambda i: absolute[i]) if n else None
    return {
        "recordings": n,
        "true_steps": sum(r["true_steps"] for r in rows),
        "counted_steps": sum(r["counted_steps"] for r in rows),
        "mape": total / n if n else 0.0,
        "median_abs_error_percent": median,
        "worst_abs_error_percent": max(absolute) if n else 0.0,
        "worst_id": rows[worst_index]["id"] if worst_index is not None else None,
    }


def pooled_step_groups(rows: list[dict]) -> list[dict]:
    """The step summary per group (StepEvaluation.summarizeGroups): the rows with a group, the
    groups in the order they first come in."""
    names = list(dict.fromkeys(r["group"] for r in rows if r.get("group") is not None))
    return [{"group": g, "summary": pooled_steps([r for r in rows if r.get("group") == g])} for g in names]


def step_summary_differences(mine: dict, theirs: dict, where: str) -> list[str]:
    """Where the pooled step summary `mine` differs from motus's `theirs` (numbers rounded as
    motus writes them)."""
    problems = []
    for key in ("recordings", "true_steps", "counted_steps", "worst_id"):
        if mine[key] != theirs[key]:
            problems.append(f"{where}{key}: {mine[key]} on the cluster, {theirs[key]} in one run")
    for key in ("mape", "median_abs_error_percent", "worst_abs_error_percent"):
        if motus_rounded(mine[key]) != theirs[key]:
            problems.append(f"{where}{key}: {mine[key]!r} on the cluster, {theirs[key]!r} in one run")
    return problems


# ---------------------------------------------------------------- pooling evaluate-motion

MOTION_LATENCIES = ("resume_latency", "resume_decision_latency", "pause_latency", "pause_event_latency")


def motion_rows(exact: list[dict]) -> list[dict]:
    """Exact rows as numbers: null is an infinite latency (the event never came) and a NaN
    count of decision steps (nothing to count)."""
    rows = []
    for r in exact:
        r = dict(r)
        for k in MOTION_LATENCIES:
            if r[k] is None:
                r[k] = math.inf
        if r["resume_decision_steps"] is None:
            r["resume_decision_steps"] = math.nan
        rows.append(r)
    return rows


def percentile(xs: list[float], p: float) -> float:
    """MotionEvaluation.percentile: linear interpolation between order statistics (numpy's
    default), infinities last, an infinite neighbour wins; NaN for no values."""
    if not xs:
        return math.nan
    s = sorted(xs)
    x = float(len(s) - 1) * p / 100
    i = math.floor(x)
    f = x - i
    if i + 1 >= len(s):
        return s[-1]
    if f == 0:
        return s[i]
    if not math.isfinite(s[i + 1]):
        return s[i + 1]
    return s[i] + f * (s[i + 1] - s[i])


def pooled_motion(rows: list[dict]) -> dict:
    """MotionEvaluation.summarize over exact rows (`motion_rows`)."""
    judged = [r for r in rows if r["pause_judged"]]
    resumed = [r for r in rows if r["resume_judged"]]
    steps = [r["resume_decision_steps"] for r in resumed if not math.isnan(r["resume_decision_steps"])]
    return {
        "trials": len(rows),
        "pause_median": percentile([r["pause_latency"] for r in judged], 50),
        "pause_p90": percentile([r["pause_latency"] for r in judged], 90),
        "pause_event_median": percentile([r["pause_event_latency"] for r in judged], 50),
        "resume_median": percentile([r["resume_latency"] for r in resumed], 50),
        "resume_p90": percentile([r["resume_latency"] for r in resumed], 90),
        "resume_absolute_median": percentile([abs(r["resume_latency"]) for r in resumed], 50),
        "resume_decision_median": percentile([r["resume_decision_latency"] for r in resumed], 50),
        "resume_decision_steps_median": percentile(steps, 50),
        "resume_decision_steps_estimated": sum(1 for r in resumed if r["resume_decision_steps_estimated"] and not math.isnan(r["resume_decision_steps"])),
        "retracted_resumes": sum(r["retracted_resumes"] for r in rows),
        "false_pauses": sum(r["false_pauses"] for r in rows),
        "false_resumes": sum(r["false_resumes"] for r in rows),
        "trials_with_false_pause": sum(1 for r in rows if r["false_pauses"] > 0),
        "pauses_not_judged": len(rows) - len(judged),
        "resumes_not_judged": len(rows) - len(resumed),
        "false_pauses_only": sum(1 for r in rows if not r["still_labelled"]),
        "pauses_in_standing_gaps": sum(r["pauses_in_standing_gaps"] for r in rows),
    }


# ---------------------------------------------------------------- pooling evaluate (a model)

EPSILON = 2.220446049250313e-16  # Double.ulpOfOne: the log loss's floor under a probability


def argmax(row: list[float]) -> int:
    """argmaxRows: the first of the largest."""
    best, bv = 0, row[0]
    for c in range(1, len(row)):
        if row[c] > bv:
            bv, best = row[c], c
    return best


def confusion_scores(y_true: list[int], y_pred: list[int], k: int) -> dict:
    """ConfusionMatrix: counts and the figures motus derives from them, in its order of operations."""
    cm = [[0] * k for _ in range(k)]
    for t, p in zip(y_true, y_pred):
        cm[t][p] += 1
    support = [sum(cm[c]) for c in range(k)]
    predicted = [sum(cm[t][c] for t in range(k)) for c in range(k)]
    total = sum(support)
    precision = [0.0 if predicted[c] == 0 else cm[c][c] / predicted[c] for c in range(k)]
    recall = [0.0 if support[c] == 0 else cm[c][c] / support[c] for c in range(k)]
    f1 = [0.0 if support[c] + predicted[c] == 0 else 2 * float(cm[c][c]) / (support[c] + predicted[c]) for c in range(k)]
    present = [c for c in range(k) if support[c] > 0]
    balanced = 0.0
    for c in present:
        balanced += recall[c]
    present_f1 = [c for c in range(k) if support[c] > 0 or predicted[c] > 0]
    macro = 0.0
    for c in present_f1:
        macro += f1[c]
    return {
        "confusion": cm, "support": support, "precision": precision, "recall": recall, "f1": f1,
        "accuracy": 0.0 if total == 0 else sum(cm[c][c] for c in range(k)) / total,
        "balanced_accuracy": balanced / len(present) if present else 0.0,
        "macro_f1": macro / len(present_f1) if present_f1 else 0.0,
    }


def roc_auc_binary(positive: list[bool], scores: list[float]) -> float | None:
    """Metrics.rocAUC(positive:scores:): the rank-sum AUC with tied scores sharing their mean
    rank; None where motus throws (a score not finite, no positive or no negative)."""
    if any(not math.isfinite(x) for x in scores):
        return None
    n_pos = sum(1 for p in positive if p)
    n_neg = len(positive) - n_pos
    if n_pos == 0 or n_neg == 0:
        return None
    order = sorted(range(len(scores)), key=lambda i: (scores[i], i))
    rank_sum = 0.0
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        avg = float(i + j + 2) / 2
        for t in range(i, j + 1):
            if positive[order[t]]:
                rank_sum += avg
        i = j + 1
    return (rank_sum - float(n_pos) * float(n_pos + 1) / 2) / (float(n_pos) * float(n_neg))


def roc_auc(y_true: list[int], probabilities: list[list[float]], k: int) -> float | None:
    """Metrics.rocAUC(yTrue:probabilities:) as EvaluationReport takes it: None unless every class
    occurs; binary from the second column, else the mean one-vs-rest AUC."""
    if len(set(y_true)) != k:
        return None
    if k == 2:
        return roc_auc_binary([t == 1 for t in y_true], [p[1] for p in probabilities])
    total, used = 0.0, 0
    for c in range(k):
        pos = [t == c for t in y_true]
        n = sum(pos)
        if n == 0 or n == len(pos):
            continue
        a = roc_auc_binary(pos, [p[c] for p in probabilities])
        if a is None:
            return None
        total += a
        used += 1
    return total / used if used else None


def pooled_evaluation(parts: list[dict]) -> dict | None:
    """The `motus evaluate` report of the windows of every task's "exact" part, in order, as one
    run over the same recordings computes it (EvaluationReport and its groups); None when no
    window was scored (a single run then fails)."""
    if not parts:
        return None
    classes, model = parts[0]["classes"], parts[0]["model"]
    k = len(classes)
    y_true: list[int] = []
    probabilities: list[list[float]] = []
    datasets: list[str] = []
    groups: list[str] = []
    for part in parts:
        for s in part["scored"]:
            y_true += s["true_classes"]
            probabilities += s["probabilities"]
            datasets += [s["dataset"]] * len(s["true_classes"])
            groups += [s["group"]] * len(s["true_classes"])
    if not y_true:
        return None
    y_pred = [argmax(p) for p in probabilities]
    c = confusion_scores(y_true, y_pred, k)
    loss, weight = 0.0, 0.0
    for t, p in zip(y_true, probabilities):
        loss -= math.log(min(max(p[t], EPSILON), 1.0))
        weight += 1
    report = {
        "classes": classes, "windows": len(y_true), "accuracy": c["accuracy"], "balanced_accuracy": c["balanced_accuracy"],
        "macro_f1": c["macro_f1"], "log_loss": loss / weight, "confusion": c["confusion"],
        "per_class": [{"precision": c["precision"][i], "recall": c["recall"][i], "f1": c["f1"][i], "support": c["support"][i]} for i in range(k)],
        "scheme": f"model {model} on {sum(p['recordings'] for p in parts)} recordings",
    }
    auc = roc_auc(y_true, probabilities, k)
    if auc is not None:
        report["roc_auc"] = auc
    rows = group_rows(datasets, groups, y_true, y_pred, k)
    if rows is not None:
        report["groups"] = rows
    return report


def group_rows(datasets: list[str], groups: list[str], y_true: list[int], y_pred: list[int], k: int) -> list[dict] | None:
    """EvaluationReport.withGroups: a row per data set when there are several, a row per group
    inside a data set that has several, in order of first appearance; None for fewer than two rows."""
    order: list[str] = []
    rows: dict[str, list[int]] = {}
    inner: dict[str, list[str]] = {}
    for r, (d, g) in enumerate(zip(datasets, groups)):
        if d not in rows:
            order.append(d)
            inner[d] = []
        rows.setdefault(d, []).append(r)
        key = f"{d}/{g}"
        if g:
            if key not in rows:
                inner.setdefault(d, []).append(g)
            rows.setdefault(key, []).append(r)

    def scores(name: str, idx: list[int]) -> dict:
        c = confusion_scores([y_true[i] for i in idx], [y_pred[i] for i in idx], k)
        return {"name": name, "windows": len(idx), "windows_per_class": c["support"],
                "recall": [c["recall"][i] if c["support"][i] > 0 else None for i in range(k)],
                "balanced_accuracy": c["balanced_accuracy"], "accuracy": c["accuracy"]}
    out = []
    for d in order:
        sub = inner.get(d, [])
        if len(order) > 1 or len(sub) < 2:
            out.append(scores(d if d else "(no data set)", rows.get(d, [])))
        if len(sub) > 1:
            for g in sub:
                out.append(scores(g if not d else f"{d}/{g}", rows.get(f"{d}/{g}", [])))
    return out if len(out) > 1 else None


def rounded_differences(mine, theirs, where: str = "") -> list[str]:
    """Where `mine` (numbers as computed) differs from `theirs` (a motus JSON report, numbers
    rounded as motus prints them: `motus_rounded`, null for not a number)."""
    if isinstance(theirs, dict) and isinstance(mine, dict):
        out = [f"{where}.{k}: missing on the cluster" for k in theirs if k not in mine]
        out += [f"{where}.{k}: not in the single run" for k in mine if k not in theirs]
        for k in theirs:
            if k in mine:
                out += rounded_differences(mine[k], theirs[k], f"{where}.{k}")
        return out
    if isinstance(theirs, list) and isinstance(mine, list):
        if len(mine) != len(theirs):
            return [f"{where}: {len(mine)} items on the cluster, {len(theirs)} in one run"]
        return [d for i, (a, b) in enumerate(zip(mine, theirs)) for d in rounded_differences(a, b, f"{where}[{i}]")]
    if isinstance(mine, float) and not isinstance(theirs, str):
        a = motus_rounded(mine) if math.isfinite(mine) else None
        return [] if a == theirs else [f"{where}: {mine!r} on the cluster, {theirs!r} in one run"]
    return [] if mine == theirs else [f"{where}: {mine!r} on the cluster, {theirs!r} in one run"]


# ---------------------------------------------------------------- the cluster run

def run_on_cluster(client, motus: str, recordings: list[dict], args: list[str], steps: bool = True, features: bool = True,
                   motion: list[str] | None = None, evaluate: list[str] | None = None) -> dict:
    """Submits one task per recording and command to the Dask `client` (features, evaluate-steps,
    and with `motion` / `evaluate` given, their arguments, evaluate-motion and evaluate) and
    gathers them in the listing's order: {"features": DataFrame, "step_rows": [...], "skipped":
    [...], "summary": {...}, "motion": {"trials", "skipped", "summary"} or None, "evaluation":
    the pooled report or None, "seconds": wall time from submit to gathered}."""
    t0 = time.perf_counter()
    paths = [r["path"] for r in recordings]
    ids = [r["recording"] for r in recordings]
    n = len(recordings)

    def submit(task, name, extra=None):
        more = [[extra] * n] if extra is not None else []
        return client.map(task, [motus] * n, paths, ids, *more, pure=False, key=[f"{name}-{i}" for i in range(n)])
    feature_futures = submit(features_task, "features", args) if features else []
    step_futures = submit(steps_task, "steps") if steps else []
    motion_futures = submit(motion_task, "motion", motion) if motion is not None else []
    evaluate_futures = submit(evaluate_task, "evaluate", evaluate) if evaluate is not None else []
    frames = client.gather(feature_futures)
    reports = client.gather(step_futures)
    motions = client.gather(motion_futures)
    evaluations = client.gather(evaluate_futures)
    seconds = time.perf_counter() - t0
    frames = [f for f in frames if len(f)]
    table = typed(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame()
    step_rows = [row for rep in reports for row in rep["recordings"]]
    skipped = [s for rep in reports for s in rep["skipped"]]
    pooled_motion_result = None
    if motion is not None:
        exact = motion_rows([row for m in motions for row in m["exact"]])
        pooled_motion_result = {"trials": [row for m in motions for row in m["trials"]],
                                "skipped": [s for m in motions for s in m["skipped"]], "summary": pooled_motion(exact)}
    return {"features": table, "step_rows": step_rows, "skipped": skipped,
            "summary": pooled_steps(step_rows) if steps else None,
            "groups": pooled_step_groups(step_rows) if steps else None, "motion": pooled_motion_result,
            "evaluation": pooled_evaluation(evaluations) if evaluate is not None else None, "seconds": seconds}


def run_single(motus: str, paths: list[str], args: list[str], steps: bool = True, features: bool = True,
               motion: list[str] | None = None, evaluate: list[str] | None = None) -> dict:
    """The same over all `paths` in one motus process per command, on this machine."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "features.jsonl")
        t0 = time.perf_counter()
        if features:
            run_motus(motus, ["features", *paths, "--out", out, *args])
        t1 = time.perf_counter()
        report = json.loads(run_motus(motus, ["evaluate-steps", *paths, "--format", "json", "--allow-skipped"])) if steps else None
        t2 = time.perf_counter()
        motion_report = json.loads(run_motus(motus, ["evaluate-motion", *paths, "--format", "json", "--allow-skipped",
                                                     "--allow-false-pauses", *motion])) if motion is not None else None
        evaluation = json.loads(run_motus(motus, ["evaluate", *paths, "--format", "json", *evaluate])) if evaluate is not None else None
        t3 = time.perf_counter()
        table = pd.DataFrame()
        if features:
            with open(out, encoding="utf-8") as f:
                table = parse_feature_lines(f.read())
    return {"features": table, "report": report, "motion": motion_report, "evaluation": evaluation, "seconds": t3 - t0,
            "features_seconds": t1 - t0, "steps_seconds": t2 - t1, "evaluate_seconds": t3 - t2}


def compare(cluster: dict, single: dict) -> list[str]:
    """What differs between the cluster's result and the single run's (empty when equal)."""
    problems: list[str] = []
    a, b = cluster["features"], single["features"]
    try:
        pd.testing.assert_frame_equal(a, b, check_exact=True)
    except AssertionError as e:
        problems.append(f"feature rows differ: {str(e).splitlines()[0:3]}")
    report = single["report"]
    if report is not None:
        if cluster["step_rows"] != report["recordings"]:
            problems.append("step rows differ")
        if cluster["skipped"] != report["skipped"]:
            problems.append(f"skipped recordings differ: {cluster['skipped']} vs {report['skipped']}")
        problems += step_summary_differences(cluster["summary"], report["summary"], "")
        mine_groups, their_groups = cluster["groups"], report.get("groups") or []
        if [g["group"] for g in mine_groups] != [g["group"] for g in their_groups]:
            problems.append(f"step groups: {[g['group'] for g in mine_groups]} on the cluster, "
                            f"{[g['group'] for g in their_groups]} in one run")
        else:
            for m, t in zip(mine_groups, their_groups):
                problems += step_summary_differences(m["summary"], t["summary"], f"group {m['group']}: ")
    if single.get("motion") is not None:
        m, theirs = cluster["motion"], single["motion"]
        if m["trials"] != theirs["trials"]:
            problems.append("evaluate-motion rows differ")
        if m["skipped"] != theirs["skipped"]:
            problems.append(f"evaluate-motion skipped recordings differ: {m['skipped']} vs {theirs['skipped']}")
        problems += [f"evaluate-motion summary{d}" for d in rounded_differences(m["summary"], theirs["summary"])]
    if single.get("evaluation") is not None:
        if cluster["evaluation"] is None:
            problems.append("evaluate: no window scored on the cluster")
        else:
            problems += [f"evaluate report{d}" for d in rounded_differences(cluster["evaluation"], single["evaluation"])]
    return problems


# ---------------------------------------------------------------- command line

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="See scale/README.md.", formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("paths", nargs="+", help="dataset folders, recordings or folders of recordings (as motus takes them)")
    ap.add_argument("--motus", default=os.environ.get("MOTUS", "motus"), help="the motus binary (every worker runs it; default $MOTUS or motus on PATH)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--scheduler", help="address of a running Dask scheduler (tcp://HOST:8786)")
    where.add_argument("--workers", type=int, default=2, help="start a local cluster of this many worker processes on 127.0.0.1 (default 2)")
    ap.add_argument("--features", dest="feature_set", help="motus features --features SET (standard, no-gyroscope, all-channels)")
    ap.add_argument("--map", action="append", default=[], help="motus features --map CLASS=LABELS (repeat)")
    ap.add_argument("--labelled-only", action="store_true", help="motus features --labelled-only")
    ap.add_argument("--no-steps", action="store_true", help="no evaluate-steps")
    ap.add_argument("--no-features", action="store_true", help="no motus features")
    ap.add_argument("--motion", action="store_true", help="also evaluate-motion (moving/still latencies) per recording")
    ap.add_argument("--motion-map", action="append", default=[], help="evaluate-motion --map still=LABELS / moving=LABELS (repeat)")
    ap.add_argument("--evaluate", action="store_true", help="also evaluate (a model on labelled windows) per recording")
    ap.add_argument("--model", help="evaluate --model FILE (default: the shipped moving-vs-still model)")
    ap.add_argument("--evaluate-map", action="append", default=[], help="evaluate --map CLASS=LABELS (repeat)")
    ap.add_argument("--rows-out", help="write the gathered feature rows: FILE.csv, FILE.jsonl, or FILE.parquet (needs pyarrow)")
    ap.add_argument("--metrics-out", help="write the step rows, skipped recordings and pooled summary and per-group summaries (and the pooled "
                    "evaluate-motion and evaluate results) as JSON")
    ap.add_argument("--compare", action="store_true", help="also run motus once on this machine; check equality, print recordings per second")
    o = ap.parse_args(argv)

    from distributed import Client, LocalCluster

    args = feature_args(o.feature_set, o.map, o.labelled_only)
    steps, features = not o.no_steps, not o.no_features
    motion = [a for m in o.motion_map for a in ("--map", m)] if o.motion else None
    evaluate = ([*(["--model", o.model] if o.model else []), *[a for m in o.evaluate_map for a in ("--map", m)]]
                if o.evaluate else None)
    recordings = list_recordings(o.motus, o.paths)
    print(f"motus_dask: {len(recordings)} recordings in {len(o.paths)} path(s)", file=sys.stderr)

    cluster = None
    t0 = time.perf_counter()
    if o.scheduler:
        client = Client(o.scheduler)
    else:
        cluster = LocalCluster(n_workers=o.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                               dashboard_address=None)
        client = Client(cluster)
    workers = len(client.scheduler_info()["workers"])
    start_seconds = time.perf_counter() - t0
    try:
        result = run_on_cluster(client, o.motus, recordings, args, steps=steps, features=features, motion=motion, evaluate=evaluate)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    n = len(recordings)
    rate = n / result["seconds"] if result["seconds"] > 0 else float("inf")
    commands = [c for c, on in (("features", features), ("evaluate-steps", steps), ("evaluate-motion", motion is not None),
                                ("evaluate", evaluate is not None)) if on]
    print(f"cluster ({workers} workers): {n} recordings in {result['seconds']:.2f} s = {rate:.1f} recordings/s "
          f"({' + '.join(commands)}; cluster start {start_seconds:.1f} s not counted)")
    lines = []
    if features:
        lines.append(f"{len(result['features'])} feature rows")
    if steps:
        s = result["summary"]
        lines.append(f"steps: {s['recordings']} recordings scored, {len(result['skipped'])} skipped, "
                     f"MAPE {motus_rounded(s['mape'])} %, median {motus_rounded(s['median_abs_error_percent'])} %, "
                     f"worst {motus_rounded(s['worst_abs_error_percent'])} % ({s['worst_id']})")
    if motion is not None:
        m = result["motion"]["summary"]
        lines.append(f"motion: {m['trials']} trials, {len(result['motion']['skipped'])} skipped, pause median "
                     f"{motus_rounded(m['pause_median'])} s, p90 {motus_rounded(m['pause_p90'])} s, |resume| median "
                     f"{motus_rounded(m['resume_absolute_median'])} s")
    if evaluate is not None:
        e = result["evaluation"]
        lines.append("evaluate: no window scored" if e is None else
                     f"evaluate: {e['windows']} windows, balanced accuracy {motus_rounded(e['balanced_accuracy'])}, "
                     f"macro F1 {motus_rounded(e['macro_f1'])}")
    print("  " + "; ".join(lines))

    if o.rows_out:
        f = result["features"]
        if o.rows_out.endswith(".parquet"):
            f.to_parquet(o.rows_out)
        elif o.rows_out.endswith(".jsonl"):
            f.to_json(o.rows_out, orient="records", lines=True, double_precision=15)
        else:
            f.to_csv(o.rows_out, index=False, float_format="%.17g")
    if o.metrics_out:
        metrics = {"recordings": result["step_rows"], "skipped": result["skipped"], "summary": result["summary"],
                   "groups": result["groups"]} if steps else {}
        if motion is not None:
            metrics["motion"] = result["motion"]
        if evaluate is not None:
            metrics["evaluation"] = result["evaluation"]
        with open(o.metrics_out, "w", encoding="utf-8") as fh:
            json.dump(metrics, fh, indent=1)  # Python writes infinity and NaN as Infinity and NaN

    status = 0
    if o.compare:
        single = run_single(o.motus, o.paths, args, steps=steps, features=features, motion=motion, evaluate=evaluate)
        srate = n / single["seconds"] if single["seconds"] > 0 else float("inf")
        parts = [f"{name} {single[key]:.2f} s" for name, key, on in (("features", "features_seconds", features), ("evaluate-steps", "steps_seconds", steps),
                 ("evaluate-motion and evaluate", "evaluate_seconds", motion is not None or evaluate is not None)) if on]
        print(f"one machine (one motus process per command): {n} recordings in {single['seconds']:.2f} s = {srate:.1f} recordings/s "
              f"({', '.join(parts)})")
        print(f"cluster / one machine: {rate / srate:.2f}x")
        problems = compare(result, single)
        if problems:
            for p in problems:
                print(f"DIFFERENT: {p}")
            status = 1
        else:
            what = [f"{len(result['features'])} feature rows"] if features else []
            if steps:
                what.append(f"{len(result['step_rows'])} step rows, skipped list and pooled step metrics (whole run and {len(result['groups'])} groups)")
            if motion is not None:
                what.append(f"{len(result['motion']['trials'])} evaluate-motion rows and pooled latencies")
            if evaluate is not None:
                what.append("the pooled evaluate report")
            print(f"equal: {', '.join(what)}, cluster vs one run")
    return status


if __name__ == "__main__":
    sys.exit(main())
