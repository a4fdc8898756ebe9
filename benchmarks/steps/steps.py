"""Steps against the peers (issue #20): one markdown table of step MAPE / worst |error| for
every method on every data set with reference steps, each method scored on the same
recordings the same way `motus evaluate-steps` scores them; and, where the course is known
(IPOL's 20 m), the distance each method that estimates one gives from the walker's height,
scored as evaluate-steps scores Motus's.

Run through benchmarks/steps/run.sh (venv, release build). Directly:
    benchmarks/.venv-steps/bin/python benchmarks/steps/steps.py [--motus PATH] [--datasets DIR] [--resample HZ]

With `--resample HZ` every method gets each recording as a device sampling at HZ would have
recorded it: Motus through `evaluate-steps --resample HZ`, the peers through the CSV of `motus
convert --resample HZ` (the same samples); the files are then named with the rate
(steps-table-HZhz.md, steps-recordings-HZhz.csv, converted recordings in steps-HZhz/).

For each data set: `motus evaluate-steps DIR --format json --allow-skipped` in each step mode
gives the Motus columns and the recordings Motus scored (those it skipped are skipped for every
method, and listed); each of those recordings is converted by `motus convert` into
benchmarks/.data/steps/ (kept for the next run) and read back in Python; the peers run on it
and are scored by motus_cli.judge, whose true step count is checked against Motus's own for
every recording. Distance: Motus's own per recording (`distance_meters`, its step lengths summed
over its steps inside the judged spans); each peer's inside the same spans (peers.py:
`mobgap_pipeline_distance`, `skdh_distance`); per trial 100 × (distance − course) / course, and
the row gives the median |error| and the median signed error over the trials Motus gives a
distance for. Then step by step: each method's counted steps matched one by one to the
reference steps (F1, misses and extra steps, and how many of them lie at a walk's ends), Motus's
from its own evaluate-steps rows, each peer's by `motus evaluate-steps --steps-from` on a CSV of
its step times (benchmarks/.data/steps/<kind>/steps-of-<method>.csv), whose counts are checked
against motus_cli.judge's; a second table. Per-recording rows go to
benchmarks/.data/steps-recordings.csv, the tables to benchmarks/.data/steps-table.md.
"""

import argparse
import csv
import glob
import os
import platform
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version

import numpy as np

import agreement
import mobgap_lab
import motus_cli
import peers

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DATA = os.path.join(REPO, "benchmarks", ".data")

# (title, folder under the datasets root, how its ids name files); the mobgap lab recordings
# are made from mobgap's source distribution (mobgap_lab.py), not read from the datasets root.
DATASETS = [
    ("Oxford", "oxford", "oxford"),
    ("WeAllWalk", "weallwalk", "weallwalk"),
    ("IPOL", os.path.join("ipol", "voisard2023_ipol497"), "ipol"),
    ("mobgap lab (INDIP)", None, "mobgaplab"),
    ("sp-sw-har", "sp-sw-har", "spswhar"),
]

# Data sets from a lower-back sensor, the only ones mobgap's detectors are built for.
LOWER_BACK = ("ipol", "mobgaplab")

# skdh's gait pipeline is given each recording whole as one gait bout (peers._run_skdh), which
# suits IPOL's short walks and not the mobgap lab's long recordings with other activities.
SKDH_DATASETS = ("ipol",)

# The per-group rows: each recording's group as `motus evaluate-steps` gives it (WeAllWalk's
# mobility aid, Oxford's carry position), named for the table; WeAllWalk's in a fixed order,
# the others in the order they first come in.
GROUP_NAMES = {"none": "sighted", "long-cane": "cane", "guide-dog": "guide dog"}
GROUP_ORDER = {"weallwalk": ["sighted", "cane", "guide dog"]}

SCIPY = "tuned scipy"


def entry_path(kind, root, rid):
    """The file (or Oxford walk folder) motus reads for the recording with id `rid`."""
    if kind == "oxford":
        for sub in ("optimisation/data", "data", ""):
            p = os.path.join(root, sub, rid)
            if os.path.isdir(p):
                return p
    elif kind == "weallwalk":
        # The id is the file name's own part, mobility tool included (T1_ID3_1L_WC).
        for p in (os.path.join(root, "sensor", "iPhoneSensors_%s.csv" % rid), os.path.join(root, "iPhoneSensors_%s.csv" % rid)):
            if os.path.isfile(p):
                return p
    elif kind == "mobgaplab":
        p = os.path.join(root, rid)
        if os.path.isfile(p):
            return p
    elif kind == "ipol":
        folder, _, base = rid.rpartition("/")
        pattern = os.path.join(root, "**", folder, base + "_lb.txt") if folder else os.path.join(root, "**", base + "_lb.txt")
        found = sorted(glob.glob(pattern, recursive=True))
        if found:
            return found[0]
    raise RuntimeError("cannot find the file of %s recording %s under %s" % (kind, rid, root))


def group_of(motus_row):
    """The per-group row a recording also counts in, from Motus's row for it ("" for none)."""
    g = motus_row.get("group")
    return GROUP_NAMES.get(g, g.replace("-", " ")) if g else ""


def summary(errors):
    """(MAPE %, worst |error| %) over a list of error percentages."""
    a = np.abs(np.asarray(errors, dtype=float))
    return float(a.mean()), float(a.max())


def machine():
    cpu = subprocess.run(["sh", "-c", "lscpu | grep 'Model name'"], capture_output=True, text=True).stdout
    cpu = cpu.split(":", 1)[-1].strip() or platform.processor()
    commit = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    versions = "Python %s, numpy %s, scipy %s, pandas %s, mobgap %s, scikit-digital-health %s" % (
        platform.python_version(), version("numpy"), version("scipy"), version("pandas"),
        peers.mobgap_version() or "not installed", peers.skdh_version() or "not installed")
    return "%s UTC; %d cores (nproc), %s; motus %s; %s" % (
        time.strftime("%Y-%m-%d %H:%M", time.gmtime()), os.cpu_count(), cpu, commit or "?", versions)


def median_errors(errors):
    """(median |error| %, median signed error %) over a list of error percentages."""
    a = np.asarray(errors, dtype=float)
    return float(np.median(np.abs(a))), float(np.median(a))


def score_dataset(title, root, kind, motus, modes, detectors, distances, methods, unavailable, pool, resample=None):
    """Scores every method on one data set (at `resample` Hz when given): steps with `detectors`
    ([(column, rec → step times)]), and where Motus gives a distance (a known course) distances
    with `distances` ([(column, (rec, judged spans) → {name: metres} or None)], the first name
    the column's figure, the others further readings). `unavailable`: {column: why it has no
    figures here} for methods that would run on this data set but could not be loaded. Returns
    (table rows, per-recording rows, notes)."""
    rate_args = ["--resample", resample] if resample else []
    runs = dict(zip([t for t, _ in modes], pool.map(lambda m: motus_cli.evaluate_steps(motus, root, m[1] + rate_args), modes)))
    if all(not rows for rows, _, _ in runs.values()):
        error = next(iter(runs.values()))[2] or "no recording scored"
        if "no step events" not in error:
            return [(title, "—", {m: "motus failed" for m in methods})], [], ["%s: motus: %s" % (title, error)], []
        note = ("%s: Motus finds no step events in any of its %d recordings (its ground truth is activity labels "
                "only), so no method is scored on it." % (title, error.count("(no step events")))
        return [(title, "—", {m: "no reference steps" for m in methods})], [], [note], []

    # The recordings every method is scored on: those Motus scored in every mode.
    notes = []
    first = next(iter(runs.values()))[0]
    ids = [i for i in first if all(i in rows for rows, _, _ in runs.values())]
    skipped = {s["id"]: s["reason"] for _, sk, _ in runs.values() for s in sk}
    skipped.update({i: "not scored by Motus in every mode" for i in first if i not in ids})
    if skipped:
        notes.append("%s: %d recording%s skipped by Motus, and so by every method: %s" % (
            title, len(skipped), "" if len(skipped) == 1 else "s", "; ".join("%s (%s)" % kv for kv in sorted(skipped.items()))))

    paths = {i: entry_path(kind, root, i) for i in ids}
    folder = "steps-%shz" % resample if resample else "steps"
    cache = {i: os.path.join(DATA, folder, kind, i.replace("/", "__") + ".csv") for i in ids}
    list(pool.map(lambda i: motus_cli.convert(motus, paths[i], cache[i], rate_args), ids))

    errors = {m: {} for m in methods}  # method → id → (counted, error %)
    detections = {}  # peer → id → its step times (s), judged step by step below
    failed = {m: [] for m in methods}
    # Distance where Motus gives one in every mode (its course is known, and the walker's height).
    course_ids = [i for i in ids if all(rows[i].get("distance_meters") is not None for rows, _, _ in runs.values())]
    walked = {}  # method or further reading → id → (metres, error %)
    walk_failed = {m: [] for m, _ in distances}
    recording_rows = []
    for i in ids:
        rec = motus_cli.read_converted(cache[i])
        # Every method is judged as Motus judged itself: its reference steps and its windows.
        true = first[i]["true_steps"]
        for mode, (rows, _, _) in runs.items():
            if rows[i]["true_steps"] != true or rows[i].get("judged_spans") != first[i].get("judged_spans"):
                raise RuntimeError("%s %s: Motus's step modes judge it differently" % (title, i))
            errors[mode][i] = (rows[i]["counted_steps"], rows[i]["error_percent"])
        for name, detect in detectors:
            try:
                times = detect(rec)
                _, counted, error = motus_cli.judge(first[i], times)
            except Exception as e:  # listed under the table; the cell says how many failed
                failed[name].append(i)
                notes.append("%s failed on %s %s: %s" % (name, title, i, e))
                continue
            errors[name][i] = (counted, error)
            detections.setdefault(name, {})[i] = np.asarray(times, dtype=float)
        row = {"dataset": title, "id": i, "group": group_of(first[i]), "true_steps": true}
        for m in methods:
            if i in errors[m]:
                row[m + " counted"], row[m + " error %"] = errors[m][i][0], round(errors[m][i][1], 3)
        if i in course_ids:
            course = first[i]["course_meters"]
            row["course m"] = course
            for mode, (rows, _, _) in runs.items():
                walked.setdefault(mode, {})[i] = (rows[i]["distance_meters"], rows[i]["distance_error_percent"])
            for name, distance in distances:
                try:
                    got = distance(rec, first[i].get("judged_spans"))
                except Exception as e:  # listed under the table; the cell says how many failed
                    walk_failed[name].append(i)
                    notes.append("%s distance failed on %s %s: %s" % (name, title, i, e))
                    continue
                for reading, metres in (got or {}).items():
                    walked.setdefault(reading, {})[i] = (metres, 100.0 * (metres - course) / course)
            for reading in walked:
                if i in walked[reading]:
                    metres, error = walked[reading][i]
                    row[reading + " distance m"], row[reading + " distance error %"] = round(metres, 3), round(error, 3)
        recording_rows.append(row)

    # Step by step: Motus's own comparisons from its runs; each peer's steps judged by Motus's
    # code (`evaluate-steps --steps-from`), whose counts must be the ones judged above.
    matches = {}  # method → id → evaluate-steps row (with "match")
    if all("match" in rows[i] for rows, _, _ in runs.values() for i in ids) and motus_cli.judges_step_times(motus):
        for mode, (rows, _, _) in runs.items():
            matches[mode] = {i: rows[i] for i in ids}
        for name, by_id in detections.items():
            slug = "".join(c if c.isalnum() else "-" for c in name.lower())
            path = os.path.join(DATA, folder, kind, "steps-of-%s.csv" % slug)
            try:
                judged = motus_cli.judge_step_times(motus, root, by_id, path, rate_args)
            except Exception as e:
                notes.append("%s: %s's steps could not be judged step by step: %s" % (title, name, e))
                continue
            for i in by_id:
                if i not in judged or judged[i]["counted_steps"] != errors[name][i][0]:
                    raise RuntimeError("%s %s: evaluate-steps --steps-from counts %s steps of %s, Python %d" % (
                        title, i, judged.get(i, {}).get("counted_steps"), name, errors[name][i][0]))
            matches[name] = judged

    def match_cells(subset):
        out = {}
        for m in methods:
            got = [matches[m][i] for i in subset if i in matches.get(m, {})]
            if got and len(got) == len(subset):
                t = motus_cli.match_total(got)
                out[m] = "%.2f (−%d +%d; ends −%d +%d)" % (t["f1_percent"], t["missed"], t["extra"], t["missed_at_ends"], t["extra_at_ends"])
            elif m in unavailable:
                out[m] = unavailable[m]
            elif failed.get(m):
                out[m] = "failed on %d of %d" % (len(subset) - len(got), len(subset))
            else:
                out[m] = "—"
        return out

    def cells(subset):
        out = {}
        for m in methods:
            got = [errors[m][i][1] for i in subset if i in errors[m]]
            if len(got) == len(subset):
                out[m] = "%.2f / %.1f" % summary(got)
            elif m in unavailable:
                out[m] = unavailable[m]
            elif failed[m]:
                out[m] = "failed on %d of %d" % (len(subset) - len(got), len(subset))
            else:
                out[m] = "—"
        return out

    found = list(dict.fromkeys(r["group"] for r in recording_rows if r["group"]))
    groups = [g for g in GROUP_ORDER.get(kind, found) if g in found] + [g for g in found if g not in GROUP_ORDER.get(kind, found)]
    table = [(title + (", all" if len(groups) > 1 else ""), str(len(ids)), cells(ids))]
    match_table = [(title + (", all" if len(groups) > 1 else ""), str(len(ids)), match_cells(ids))] if matches else []
    if len(groups) > 1:
        for g in groups:
            subset = [r["id"] for r in recording_rows if r["group"] == g]
            table.append(("%s, %s" % (title, g), str(len(subset)), cells(subset)))
            if matches:
                match_table.append(("%s, %s" % (title, g), str(len(subset)), match_cells(subset)))
    if course_ids:
        out = {}
        for m in methods:
            got = [walked[m][i][1] for i in course_ids if i in walked.get(m, {})]
            if got and len(got) == len(course_ids):
                out[m] = "%.2f (%+.2f)" % median_errors(got)
            elif m in unavailable:
                out[m] = unavailable[m]
            elif walk_failed.get(m):
                out[m] = "failed on %d of %d" % (len(course_ids) - len(got), len(course_ids))
            elif got:
                out[m] = "no distance on %d of %d" % (len(course_ids) - len(got), len(course_ids))
            else:
                out[m] = "—"
        table.append(("%s distance from height, median \\|error\\| (signed)" % title, str(len(course_ids)), out))
        further = ["%s %.2f (%+.2f)" % ((r,) + median_errors([walked[r][i][1] for i in course_ids]))
                   for r in walked if r not in methods and all(i in walked[r] for i in course_ids)]
        notes.append("%s distance from height: per trial 100 × (distance − course) / course, the distance walked inside "
                     "the judged spans against the course; median |error| %% (median signed error %%) over the %d trials "
                     "Motus gives a distance for (the walker's height known). Motus: its step lengths (Weinberg) summed "
                     "over its steps inside the judged spans (evaluate-steps' `distance_meters`); mobgap pipeline: each "
                     "walking bout's walking speed × its seconds inside the judged spans (mobgap's own outcome); %s: its "
                     "step lengths (model 2) summed over its steps inside the judged spans; \"—\": no distance.%s" % (
                         title, len(course_ids), peers.SKDH,
                         " Further readings, same trials: %s." % "; ".join(further) if further else ""))
    return table, recording_rows, notes, match_table


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--motus", default=os.path.join(REPO, ".build", "release", "motus"))
    ap.add_argument("--datasets", default=os.environ.get("MOTUS_DATASETS") or os.path.join(REPO, "..", "shared", "datasets"))
    ap.add_argument("--resample", metavar="HZ", help="every method on each recording as a device sampling at HZ would "
                    "record it (motus evaluate-steps / convert --resample HZ)")
    args = ap.parse_args()
    if args.resample is not None:
        try:
            ok = 0 < float(args.resample) < float("inf")
        except ValueError:
            ok = False
        if not ok:
            sys.exit("steps.py: --resample needs a rate in Hz, a positive number; got %r" % args.resample)
    started = time.time()
    motus = os.path.abspath(args.motus)
    if not os.access(motus, os.X_OK):
        sys.exit("no motus binary at %s (build it: swift build -c release --product motus)" % motus)

    modes = motus_cli.step_modes(motus)
    mobgap, mobgap_note = [], None
    try:
        mobgap = peers.mobgap_detectors()
    except ImportError:  # pip could not install it (offline): the other columns still run
        mobgap_note = "mobgap not installed"
    except Exception as e:
        mobgap_note = "mobgap failed to load (%s)" % e.__class__.__name__
    skdh, skdh_note = [], None
    try:
        skdh = peers.skdh_detectors()
    except ImportError:  # pip could not install it: the other columns still run
        skdh_note = "skdh not installed"
    except Exception as e:
        skdh_note = "skdh failed to load (%s)" % e.__class__.__name__
    methods = [SCIPY] + ([t for t, _ in mobgap] or ["mobgap"]) + [peers.SKDH] + [t for t, _ in modes]

    table_rows, recording_rows, notes, match_rows = [], [], [], []
    agreed = None  # (methods, per-execution rows, notes) of sp-sw-har's phone against watch
    pool = ThreadPoolExecutor(max_workers=2)
    for title, folder, kind in DATASETS:
        if folder is None:
            try:
                root = mobgap_lab.prepare(DATA)
            except Exception as e:  # no network for the first download: the other rows still run
                table_rows.append((title, "—", {m: "no data" for m in methods}))
                notes.append("%s: could not be made from mobgap's source distribution (%s)" % (title, e))
                continue
        else:
            root = os.path.join(args.datasets, folder)
        if not os.path.isdir(root):
            table_rows.append((title, "—", {m: "no data" for m in methods}))
            notes.append("%s: no folder %s" % (title, root))
            continue
        t0 = time.time()
        # mobgap's detectors are built for a lower-back sensor; skdh's pipeline takes each recording whole.
        detectors = [(SCIPY, peers.scipy_steps)] + (mobgap if kind in LOWER_BACK else []) + (skdh if kind in SKDH_DATASETS else [])
        distances = (([("mobgap pipeline", peers.mobgap_pipeline_distance)] if mobgap and kind in LOWER_BACK else [])
                     + ([(peers.SKDH, peers.skdh_distance)] if skdh and kind in SKDH_DATASETS else []))
        unavailable = {}
        if mobgap_note and kind in LOWER_BACK:
            unavailable.update({m: mobgap_note for m in methods if m.startswith("mobgap")})
        if skdh_note and kind in SKDH_DATASETS:
            unavailable[peers.SKDH] = skdh_note
        t, r, n, mt = score_dataset(title, root, kind, motus, modes, detectors, distances, methods, unavailable, pool, args.resample)
        table_rows += t
        match_rows += mt
        recording_rows += r
        notes += n
        if kind == "spswhar":  # no step reference: phone against watch instead (agreement.py)
            converted = os.path.join(DATA, "steps-%shz" % args.resample if args.resample else "steps", kind)
            rate_args = ["--resample", args.resample] if args.resample else []
            try:
                agreed = agreement.score(root, motus, modes, [(SCIPY, peers.scipy_steps)], converted, pool, rate_args)
                notes += agreed[2]
            except Exception as e:  # the reference tables still print; the note says why this one does not
                notes.append("%s: phone against watch failed: %s" % (title, e))
        print("%s: %d recordings in %.0f s" % (title, len(r), time.time() - t0), file=sys.stderr)
    pool.shutdown()

    rate = (" Every recording as a device sampling at %s Hz would record it (`evaluate-steps --resample %s`; the peers "
            "read `motus convert --resample %s`)." % ((args.resample,) * 3)) if args.resample else ""
    lines = ["Step MAPE % / worst |error| % per method, scored as `motus evaluate-steps` scores (same recordings in every column)."
             + rate, "",
             "| " + " | ".join(["data set", "recordings"] + methods) + " |", "|---|---:|" + "---|" * len(methods)]
    for name, n, c in table_rows:
        lines.append("| " + " | ".join([name, n] + [c[m] for m in methods]) + " |")
    lines += ["", "- " + machine(),
              "- %s: |a| at 100 Hz − median, Butterworth order 4 band-pass 1.0–5.0 Hz (`sosfiltfilt`), "
              "`find_peaks` distance 0.3 s, prominence 1.0 × std (offline, zero phase)." % SCIPY,
              "- mobgap: initial-contact detectors on the whole lower-back recording at 100 Hz; \"mobgap pipeline\": its full "
              "pipeline for healthy walkers (Iluz gait sequences, then Ionescu's initial contacts in them). IPOL and mobgap lab "
              "only: they are built for a lower-back sensor; \"—\": not run on that data set.",
              "- %s: scikit-digital-health's lumbar gait pipeline (AP CWT initial contacts, then its stride checks), "
              "on the lower-back acceleration at 100 Hz with the walker's height (leg length 0.53 × height), each "
              "recording whole as one gait bout (skdh's gait classifier marks 3 s windows and keeps bouts of at "
              "least 8 s); its initial contacts are steps. IPOL only: its trials are short walks; \"—\": not run on "
              "that data set." % peers.SKDH,
              "- mobgap lab (INDIP): mobgap 1.2.0's lab example recordings (lower back, 100 Hz; HA/001, HA/002, MS/001 in "
              "Test5 and Test11) with the INDIP system's initial contacts, written by benchmarks/steps/mobgap_lab.py from "
              "mobgap's source distribution on PyPI; judged inside the reference's walking bouts."]
    if len(modes) == 1:
        lines.append("- This motus build has no `evaluate-steps --step-mode`: one Motus column, its default mode.")
    lines += ["- " + n for n in notes]
    lines.append("- Total run time %.0f s. Command: `benchmarks/steps/run.sh%s`." % (
        time.time() - started, " --resample " + args.resample if args.resample else ""))
    if match_rows:
        lines += ["", "Step by step: F1 % (reference steps missed −, counted steps with no reference step +; of them, at a "
                  "walk's ends), each counted step matched to a reference step at most 0.3 s away, each once, closest "
                  "pairs first; a walk's ends are the first and last reference step of a bout (reference steps 2 s or "
                  "more apart split bouts) and the counted steps outside a bout. Every method judged by `motus "
                  "evaluate-steps` (the peers' steps through `--steps-from`), on the recordings of the table above.", "",
                  "| " + " | ".join(["data set", "recordings"] + methods) + " |", "|---|---:|" + "---|" * len(methods)]
        for name, n, c in match_rows:
            lines.append("| " + " | ".join([name, n] + [c[m] for m in methods]) + " |")
    if agreed and agreed[1]:
        lines += ["", "sp-sw-har has no step reference, but its phone and watch recorded each execution at once: steps "
                  "counted inside the labelled WALKING and TURNING (widened by 0.3 s), phone against watch, per method "
                  "(benchmarks/steps/agreement.py). Equal counts do not prove both right; unequal ones prove one wrong.",
                  ""] + agreement.table(agreed[0], agreed[1])
    text = "\n".join(lines) + "\n"
    print(text)
    os.makedirs(DATA, exist_ok=True)
    suffix = "-%shz" % args.resample if args.resample else ""
    with open(os.path.join(DATA, "steps-table%s.md" % suffix), "w") as fh:
        fh.write(text)
    fields = ["dataset", "id", "group", "true_steps"] + [m + s for m in methods for s in (" counted", " error %")]
    fields += [k for k in dict.fromkeys(k for r in recording_rows for k in r) if k not in fields]  # course and distances
    with open(os.path.join(DATA, "steps-recordings%s.csv" % suffix), "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=fields, restval="")
        w.writeheader()
        w.writerows(recording_rows)
    print("per-recording rows: %s" % os.path.join(DATA, "steps-recordings%s.csv" % suffix), file=sys.stderr)
    if agreed and agreed[1]:
        path = os.path.join(DATA, "steps-agreement%s.csv" % suffix)
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["execution"] + [m + s for m in agreed[0] for s in (" phone", " watch")])
            w.writerows([[r["execution"]] + [n for m in agreed[0] for n in r[m]] for r in agreed[1]])
        print("phone against watch per execution: %s" % path, file=sys.stderr)


if __name__ == "__main__":
    main()
