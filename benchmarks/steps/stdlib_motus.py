"""What the standard-library scripts of this folder (oxford_reference.py, stride_reference.py,
grid_phase.py, ipol_walk_ends.py)
share: their --motus and --datasets options, and running `motus evaluate-steps` so that a
failure is reported on one line (`last_line`, which motus_cli uses too). Only the Python
standard library is needed."""

import argparse
import json
import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parser(doc):
    """An argument parser described by the first paragraph of `doc`, with --motus (default: the
    release build) and --datasets (default: $MOTUS_DATASETS, else ../shared/datasets)."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--motus", default=os.path.join(REPO, ".build", "release", "motus"))
    ap.add_argument("--datasets", default=os.environ.get("MOTUS_DATASETS", os.path.join(REPO, "..", "shared", "datasets")))
    return ap


def last_line(proc):
    """The last line a finished motus process wrote to stderr (its error; the lines before are
    progress), or its exit status when it wrote none: a failure reported on one line."""
    lines = proc.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit status {proc.returncode}"


def motus_json(script, motus, args, what):
    """The JSON that `motus ARGS…` prints. On failure the script stops with one line on stderr:
    `SCRIPT: motus WHAT failed: ` and the last line motus wrote there (its error; the lines
    before are progress), or `SCRIPT: cannot run MOTUS: …` when it does not start."""
    try:
        out = subprocess.run([motus, *args], capture_output=True, text=True)
    except OSError as e:
        sys.exit(f"{script}: cannot run {motus}: {e.strerror}")
    if out.returncode != 0:
        sys.exit(f"{script}: motus {what} failed: {last_line(out)}")
    return json.loads(out.stdout)


def evaluate_steps(script, motus, folder, mode, extra=()):
    """The report of `motus evaluate-steps FOLDER --format json --step-mode MODE [EXTRA…]`,
    failures reported as `motus_json` reports them."""
    return motus_json(script, motus, ["evaluate-steps", folder, "--format", "json", "--step-mode", mode, *extra],
                      "evaluate-steps " + " ".join(["--step-mode", mode, *extra]))
