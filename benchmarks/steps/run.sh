#!/usr/bin/env bash
# Steps against the peers (issue #20), one command from the repository root or anywhere:
# makes the Python venv benchmarks/.venv-steps (numpy, scipy, pandas, mobgap 1.2.0 and
# scikit-digital-health 0.17.18 from PyPI; gitignored), builds the release motus CLI (not
# when --motus names a binary), and runs steps.py, which prints one markdown table (also in
# benchmarks/.data/steps-table.md; per-recording rows in benchmarks/.data/steps-recordings.csv).
# Converted recordings are kept in benchmarks/.data/steps/ so a second run is quick. Arguments
# are passed on to steps.py (--datasets DIR instead of ../shared/datasets or $MOTUS_DATASETS;
# --motus BINARY; --resample HZ). If mobgap or scikit-digital-health cannot be installed (no
# network), its columns say so and the rest still runs.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(dirname "$here")"
repo="$(dirname "$bench")"
venv="$bench/.venv-steps"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import numpy, scipy, pandas" 2>/dev/null; then
    "$venv/bin/pip" install --quiet numpy scipy pandas
fi
if ! "$venv/bin/python" -c "import mobgap" 2>/dev/null; then
    "$venv/bin/pip" install --quiet "mobgap==1.2.0" || echo "steps: mobgap did not install; its columns will say so" >&2
fi
# After mobgap, so that its pins stand: skdh's requirements leave numpy, scipy and pandas as they are.
if ! "$venv/bin/python" -c "import skdh" 2>/dev/null; then
    "$venv/bin/pip" install --quiet "scikit-digital-health==0.17.18" \
        || echo "steps: scikit-digital-health did not install; its column will say so" >&2
fi
case " $* " in
    *" --motus "* | *" --motus="*) ;;  # a binary of the caller's: nothing to build
    *) (cd "$repo" && swift build -c release --product motus 2>&1 | tail -n 1) ;;
esac
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
exec timeout 900 "$venv/bin/python" "$here/steps.py" "$@"
