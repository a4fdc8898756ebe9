"""mobgap's lab example recordings as a step data set Motus was not built on: a lower-back
McRoberts MoveMonitor+ at 100 Hz with the INDIP reference system's initial contacts, from the
mobgap 1.2.0 source distribution on PyPI (Apache-2.0, Mobilise-D consortium; the attribution
and what is changed are in datasets/README.md, whose `make_samples.py` writes each recording).

Three participants (healthy adults HA/001 and HA/002, MS/001 with multiple sclerosis), each in
Mobilise-D's Test5 "Straight Walk" (two trials) and Test11 "Simulated Daily Activities" (walking
bouts between sitting and standing); the recordings whose reference has initial contacts are
written, as Motus's native files, to benchmarks/.data/mobgap-lab/ (generated, not committed).
Two of them are also bundled in datasets/ (`lowback-straight-walk.motus`,
`lowback-daily-activities.motus`).

    benchmarks/.venv-steps/bin/python benchmarks/steps/mobgap_lab.py   # prints the folder

steps.py calls `prepare` itself; the download is kept in benchmarks/.data/mobgap-sdist/.
"""

import glob
import os
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "datasets"))
import make_samples  # noqa: E402  (the bundled samples' writer, so the two cannot differ)

VERSION = "1.2.0"
RECORDINGS = [(cohort, participant, test, trial)
              for cohort, participant in (("HA", "001"), ("HA", "002"), ("MS", "001"))
              for test, trial in (("Test5", "Trial1"), ("Test5", "Trial2"), ("Test11", "Trial1"))]
PROTOCOL = {"Test5": 'Mobilise-D TVS Test5 "Straight Walk": still, walk about 4 m, still',
            "Test11": 'Mobilise-D TVS Test11 "Simulated Daily Activities": walking bouts between sitting and standing'}


def source(data):
    """The unpacked mobgap sdist under `data` (downloaded with pip the first time)."""
    root = os.path.join(data, "mobgap-sdist", "mobgap-%s" % VERSION)
    if os.path.isdir(root):
        return root
    work = os.path.dirname(root)
    os.makedirs(work, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:", "-q",
                    "mobgap==%s" % VERSION, "-d", work], check=True)
    archive = glob.glob(os.path.join(work, "mobgap-%s.tar.gz" % VERSION))[0]
    with tarfile.open(archive) as t:
        # The "data" filter refuses links and paths outside `work`; Pythons before 3.11.4 lack it.
        t.extractall(work, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
    return root


def prepare(data):
    """Writes the recordings with reference initial contacts to `data`/mobgap-lab/ (when not
    there yet) and returns that folder."""
    out = os.path.join(data, "mobgap-lab")
    done = os.path.join(out, ".complete")
    if os.path.exists(done):
        return out
    root = source(data)
    os.makedirs(out, exist_ok=True)
    for cohort, participant, test, trial in RECORDINGS:
        path = os.path.join(out, "%s%s_%s_%s.motus" % (cohort, participant, test, trial))
        make_samples.mobgap_sample(root, cohort, test, trial, path, PROTOCOL[test], participant=participant)
        with open(path) as f:
            if not any(line.startswith('@event,') and '"step"' in line for line in f):
                os.remove(path)   # no initial contact in the reference (HA/002's Test5 trials)
    open(done, "w").close()
    return out


if __name__ == "__main__":
    print(prepare(os.path.join(REPO, "benchmarks", ".data")))
