#!/usr/bin/env python3
"""Run `motus features` and `motus evaluate-steps` over many recordings on a Dask cluster.

One task per recording: each task runs the motus binary on one recording of a dataset
(`motus features DATASET --recording ID`, `motus evaluate-steps DATASET --recording ID`), so
the recording keeps its dataset's context (subject ids, labels, the dataset's name) and its
rows are exactly those a single `motus` run over the dataset writes. The recordings come from
`motus features --list-recordings PATH...`, which expands dataset folders as every motus
command does. The driver gathers the feature rows into one pandas DataFrame (in the order a
single run writes them) and the step rows into one table, and pools the step metrics (MAPE,
median and worst |error|) from the per-recording rows, as `evaluate-steps` does.

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


# ---------------------------------------------------------------- the cluster run

def run_on_cluster(client, motus: str, recordings: list[dict], args: list[str], steps: bool = True) -> dict:
    """Submits one features task (and one evaluate-steps task) per recording to the Dask
    `client` and gathers them in the listing's order: {"features": DataFrame, "step_rows":
    [...], "skipped": [...], "summary": {...}, "seconds": wall time from submit to gathered}."""
    t0 = time.perf_counter()
    paths = [r["path"] for r in recordings]
    ids = [r["recording"] for r in recordings]
    n = len(recordings)
    feature_futures = client.map(features_task, [motus] * n, paths, ids, [args] * n, pure=False, key=[f"features-{i}" for i in range(n)])
    step_futures = client.map(steps_task, [motus] * n, paths, ids, pure=False, key=[f"steps-{i}" for i in range(n)]) if steps else []
    frames = client.gather(feature_futures)
    reports = client.gather(step_futures) if steps else []
    seconds = time.perf_counter() - t0
    frames = [f for f in frames if len(f)]
    features = typed(pd.concat(frames, ignore_index=True)) if frames else pd.DataFrame()
    step_rows = [row for rep in reports for row in rep["recordings"]]
    skipped = [s for rep in reports for s in rep["skipped"]]
    return {"features": features, "step_rows": step_rows, "skipped": skipped,
            "summary": pooled_steps(step_rows) if steps else None, "seconds": seconds}


def run_single(motus: str, paths: list[str], args: list[str], steps: bool = True) -> dict:
    """The same over all `paths` in one motus process per command, on this machine."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "features.jsonl")
        t0 = time.perf_counter()
        run_motus(motus, ["features", *paths, "--out", out, *args])
        t1 = time.perf_counter()
        report = json.loads(run_motus(motus, ["evaluate-steps", *paths, "--format", "json", "--allow-skipped"])) if steps else None
        t2 = time.perf_counter()
        with open(out, encoding="utf-8") as f:
            features = parse_feature_lines(f.read())
    return {"features": features, "report": report, "seconds": t2 - t0, "features_seconds": t1 - t0, "steps_seconds": t2 - t1}


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
        mine, theirs = cluster["summary"], report["summary"]
        for key in ("recordings", "true_steps", "counted_steps", "worst_id"):
            if mine[key] != theirs[key]:
                problems.append(f"{key}: {mine[key]} on the cluster, {theirs[key]} in one run")
        for key in ("mape", "median_abs_error_percent", "worst_abs_error_percent"):
            if motus_rounded(mine[key]) != theirs[key]:
                problems.append(f"{key}: {mine[key]!r} on the cluster, {theirs[key]!r} in one run")
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
    ap.add_argument("--no-steps", action="store_true", help="feature rows only, no evaluate-steps")
    ap.add_argument("--rows-out", help="write the gathered feature rows: FILE.csv, FILE.jsonl, or FILE.parquet (needs pyarrow)")
    ap.add_argument("--metrics-out", help="write the step rows, skipped recordings and pooled summary as JSON")
    ap.add_argument("--compare", action="store_true", help="also run motus once on this machine; check equality, print recordings per second")
    o = ap.parse_args(argv)

    from distributed import Client, LocalCluster

    args = feature_args(o.feature_set, o.map, o.labelled_only)
    steps = not o.no_steps
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
        result = run_on_cluster(client, o.motus, recordings, args, steps=steps)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()

    n = len(recordings)
    rate = n / result["seconds"] if result["seconds"] > 0 else float("inf")
    print(f"cluster ({workers} workers): {n} recordings in {result['seconds']:.2f} s = {rate:.1f} recordings/s "
          f"(features{'' if not steps else ' + evaluate-steps'}; cluster start {start_seconds:.1f} s not counted)")
    print(f"  {len(result['features'])} feature rows", end="")
    if steps:
        s = result["summary"]
        print(f"; steps: {s['recordings']} recordings scored, {len(result['skipped'])} skipped, "
              f"MAPE {motus_rounded(s['mape'])} %, median {motus_rounded(s['median_abs_error_percent'])} %, "
              f"worst {motus_rounded(s['worst_abs_error_percent'])} % ({s['worst_id']})")
    else:
        print()

    if o.rows_out:
        f = result["features"]
        if o.rows_out.endswith(".parquet"):
            f.to_parquet(o.rows_out)
        elif o.rows_out.endswith(".jsonl"):
            f.to_json(o.rows_out, orient="records", lines=True, double_precision=15)
        else:
            f.to_csv(o.rows_out, index=False, float_format="%.17g")
    if o.metrics_out and steps:
        with open(o.metrics_out, "w", encoding="utf-8") as fh:
            json.dump({"recordings": result["step_rows"], "skipped": result["skipped"], "summary": result["summary"]}, fh, indent=1)

    status = 0
    if o.compare:
        single = run_single(o.motus, o.paths, args, steps=steps)
        srate = n / single["seconds"] if single["seconds"] > 0 else float("inf")
        print(f"one machine (one motus process per command): {n} recordings in {single['seconds']:.2f} s = {srate:.1f} recordings/s "
              f"(features {single['features_seconds']:.2f} s, evaluate-steps {single['steps_seconds']:.2f} s)")
        print(f"cluster / one machine: {rate / srate:.2f}x")
        problems = compare(result, single)
        if problems:
            for p in problems:
                print(f"DIFFERENT: {p}")
            status = 1
        else:
            print(f"equal: {len(result['features'])} feature rows and "
                  f"{len(result['step_rows'])} step rows, skipped list and pooled metrics, cluster vs one run")
    return status


if __name__ == "__main__":
    sys.exit(main())
