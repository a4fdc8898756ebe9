#!/usr/bin/env bash
# The scale-out test (scale/README.md): a real Dask LocalCluster with two worker processes on
# 127.0.0.1 runs `motus features` and `motus evaluate-steps` one recording per task over the
# Oxford walks, the IPOL trials and WeAllWalk, and the gathered rows and pooled step metrics
# must equal one motus run over the same folders; likewise `motus evaluate-motion` and `motus
# evaluate` over the IPOL trials and WeAllWalk, pooled from each task's exact numbers. Also: pandas and numpy read `motus
# features --out FILE.npy` (with its sidecar) and get the CSV's numbers, and the comparison
# itself is shown to catch a changed value.
#
# Environment: MOTUS_BIN (folder of the motus binary; default .build/release, else
# .build/debug), MOTUS_DATASETS (default ../shared/datasets), MOTUS_DASK_VENV (a venv with
# dask[distributed], pandas and numpy; default .venv-dask, made and filled from PyPI when missing).
# Skips, saying so, when the datasets are absent. Prints "N passed, N failed" last.
set -euo pipefail
cd "$(dirname "$0")/.."
DATA="${MOTUS_DATASETS:-../shared/datasets}"
if [ ! -d "$DATA/oxford" ] || [ ! -d "$DATA/ipol/voisard2023_ipol497" ] || [ ! -d "$DATA/weallwalk" ]; then
  echo "skipping the Dask test: $DATA/oxford, $DATA/ipol/voisard2023_ipol497 or $DATA/weallwalk not found"
  echo "0 passed, 0 failed, 5 skipped"
  exit 0
fi
if [ -n "${MOTUS_BIN:-}" ]; then MOTUS="$MOTUS_BIN/motus"
elif [ -x .build/release/motus ]; then MOTUS=.build/release/motus
else swift build --product motus >/dev/null; MOTUS=.build/debug/motus; fi
MOTUS="$(cd "$(dirname "$MOTUS")" && pwd)/$(basename "$MOTUS")"
[ -x "$MOTUS" ] || { echo "no motus binary at $MOTUS"; exit 1; }

VENV="${MOTUS_DASK_VENV:-.venv-dask}"
if ! "$VENV/bin/python" -c "import distributed, pandas, numpy" 2>/dev/null; then
  echo "== venv $VENV: pip install dask[distributed] pandas numpy"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check "dask[distributed]" pandas numpy
fi
PY="$VENV/bin/python"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0; failed=0
check() {  # check NAME COMMAND...
  local name=$1; shift
  if "$@"; then echo "passed: $name"; passed=$((passed + 1)); else echo "FAILED: $name"; failed=$((failed + 1)); fi
}

# 1. .npy + sidecar read with numpy and pandas equal the CSV, number for number.
npy_matches_csv() {
  "$MOTUS" features "$DATA/oxford" --features no-gyroscope --out "$TMP/f.npy" 2>/dev/null &&
  "$MOTUS" features "$DATA/oxford" --features no-gyroscope --out "$TMP/f.csv" 2>/dev/null &&
  "$PY" - "$TMP/f.npy" "$TMP/f.csv" <<'EOF'
import json, sys, warnings
import numpy, pandas
npy, csv = sys.argv[1], sys.argv[2]
warnings.simplefilter("ignore")  # pandas 3 deprecates float_precision (exact by default there); 2.x needs it
meta = json.load(open(npy + ".json"))
x = numpy.load(npy)
df = pandas.DataFrame(x, columns=meta["columns"])
for k in ("label", "subject", "recording"):
    df.insert(0, k, meta[k])
ref = pandas.read_csv(csv, float_precision="round_trip", keep_default_na=False, na_values={c: [""] for c in meta["columns"]})
ref["label"] = ref["label"].replace("", None)
assert list(df.columns) == list(ref.columns), "columns differ"
assert x.dtype == numpy.float64 and x.shape == (len(ref), len(meta["columns"])) and len(ref) > 1000, x.shape
for c in ("recording", "subject"):
    assert (df[c] == ref[c].astype(str)).all(), c
assert df["label"].isna().equals(ref["label"].isna())
a, b = df[meta["columns"]].to_numpy(), ref[meta["columns"]].to_numpy(dtype=numpy.float64)
assert numpy.array_equal(a, b, equal_nan=True), "numbers differ"
print(f"   {x.shape[0]} rows x {x.shape[1]} columns, {int(numpy.isnan(x).sum())} NaN, equal to the CSV")
EOF
}
check ".npy and its sidecar read by numpy/pandas equal the CSV" npy_matches_csv

# 2. The comparison catches a difference: one feature value and one step count changed (in the
# whole run's summary and in its group's).
comparison_can_fail() {
  "$PY" - "$MOTUS" "$DATA/oxford" <<'EOF'
import sys, copy
sys.path.insert(0, "scale")
import motus_dask as md
motus, path = sys.argv[1], sys.argv[2]
single = md.run_single(motus, [path], ["--features", "no-gyroscope"])
recs = md.list_recordings(motus, [path])[:2]
import pandas
rows = single["report"]["recordings"]
fake = {"features": single["features"].copy(), "step_rows": copy.deepcopy(rows), "skipped": [], "summary": md.pooled_steps(rows),
        "groups": md.pooled_step_groups(rows)}
assert md.compare(fake, single) == [], md.compare(fake, single)
assert len(fake["groups"]) > 1, fake["groups"]  # Oxford's carry positions
fake["features"].iloc[3, 7] = fake["features"].iloc[3, 7] * (1 + 2 ** -52)
fake["step_rows"][0]["counted_steps"] += 1
fake["summary"] = md.pooled_steps(fake["step_rows"])
fake["groups"] = md.pooled_step_groups(fake["step_rows"])
problems = md.compare(fake, single)
group = f"group {rows[0]['group']}: mape"
assert any("feature rows differ" in p for p in problems) and any(p.startswith("mape") for p in problems), problems
assert any(p.startswith(group) for p in problems), problems
print(f"   a one-ulp feature change and one extra step are caught (the whole run's and its group's figures): {len(problems)} differences")
EOF
}
check "the comparison catches a changed value" comparison_can_fail

# 3. The cluster run equals one motus run (rows, step rows, skipped list, pooled metrics).
cluster_equals_single() {
  "$PY" scale/motus_dask.py --motus "$MOTUS" --workers 2 --features no-gyroscope --compare \
    "$DATA/oxford" "$DATA/ipol/voisard2023_ipol497" "$DATA/weallwalk" 2> "$TMP/dask.log" | sed 's/^/   /'
  local s=${PIPESTATUS[0]}
  [ "$s" = 0 ] || { tail -20 "$TMP/dask.log"; return 1; }
}
check "Dask LocalCluster (2 workers, 127.0.0.1), one task per recording, equals one motus run" cluster_equals_single

# 4. evaluate-motion and evaluate (a model), one task per recording over the IPOL trials and
#    WeAllWalk (two data sets, WeAllWalk's groups), pooled from the tasks' exact numbers, equal
#    one motus run.
evaluations_equal_single() {
  "$PY" scale/motus_dask.py --motus "$MOTUS" --workers 2 --no-features --no-steps --motion --evaluate \
    --evaluate-map moving=walk,turn --evaluate-map still=still --compare \
    "$DATA/ipol/voisard2023_ipol497" "$DATA/weallwalk" 2> "$TMP/dask-eval.log" | sed 's/^/   /'
  local s=${PIPESTATUS[0]}
  [ "$s" = 0 ] || { tail -20 "$TMP/dask-eval.log"; return 1; }
}
check "Dask LocalCluster: evaluate-motion and evaluate per recording pool to one motus run" evaluations_equal_single

# 5. The pooling of evaluate-motion and evaluate notices a changed input: three IPOL trials run
#    as tasks (here, without a cluster), pooled, printed as motus prints; then the resumes 10 ms
#    later and one window's probabilities swapped change the pooled figures.
pooling_can_fail() {
  "$PY" - "$MOTUS" "$DATA/ipol/voisard2023_ipol497" <<'EOF'
import copy, math, sys
sys.path.insert(0, "scale")
import motus_dask as md
motus, path = sys.argv[1], sys.argv[2]
ids = [r["recording"] for r in md.list_recordings(motus, [path])[:3]]
motions = [md.motion_task(motus, path, i, []) for i in ids]
parts = [md.evaluate_task(motus, path, i, []) for i in ids]
def printed(x):
    if isinstance(x, dict):
        return {k: printed(v) for k, v in x.items()}
    if isinstance(x, list):
        return [printed(v) for v in x]
    if isinstance(x, float):
        return md.motus_rounded(x) if math.isfinite(x) else None
    return x
rows = md.motion_rows([r for m in motions for r in m["exact"]])
motion, report = md.pooled_motion(rows), md.pooled_evaluation(parts)
assert md.rounded_differences(motion, printed(motion)) == [] and md.rounded_differences(report, printed(report)) == []
for r in rows:
    r["resume_latency"] += 0.01
changed = copy.deepcopy(parts)
scored = next(s for p in changed for s in p["scored"] if s["true_classes"])
scored["probabilities"][0].reverse()
problems = md.rounded_differences(md.pooled_motion(rows), printed(motion)) + md.rounded_differences(md.pooled_evaluation(changed), printed(report))
assert any("resume" in p for p in problems) and any("log_loss" in p for p in problems), problems
print(f"   resumes 10 ms later and one window's swapped probabilities are caught: {len(problems)} differences")
EOF
}
check "the pooled evaluate-motion and evaluate figures notice a changed input" pooling_can_fail

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
