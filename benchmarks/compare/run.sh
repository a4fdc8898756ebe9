#!/usr/bin/env bash
# One command for every side-by-side figure: makes the Python venv (PyPI), builds motus-bench
# in release, and runs compare/run.py, which prints one markdown table (also written to
# benchmarks/.data/compare-table.md). Arguments are passed on (e.g. --quick, --only csv,learn).
# Finishes in well under 15 minutes on 2 cores once the venv and the release build exist.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bench="$(dirname "$here")"
venv="$bench/.venv-compare"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import numpy, scipy, pandas, sklearn, tsfel, imufusion, fitparse" 2>/dev/null; then
    "$venv/bin/pip" install --quiet numpy scipy pandas scikit-learn tsfel imufusion fitparse
fi
(cd "$bench" && swift build -c release --product motus-bench 2>&1 | tail -n 3)
(cd "$bench/.." && swift build -c release --product motus 2>&1 | tail -n 1)   # the CLI, for `motus track`
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
exec timeout 900 "$venv/bin/python" "$here/run.py" "$@"
