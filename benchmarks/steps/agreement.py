"""Phone against watch on sp-sw-har: a step check without a step reference.

sp-sw-har's phone (`_sp`) and watch (`_sw`) recorded each execution of its course (seated,
stand up, walk, turn, walk back, turn, sit down) at once, so the person took the same steps
in both files. It has activity labels, not steps, so no method can be scored against the truth
there; but a method that counts steps right on the phone and on the watch counts the same
number in both files. Per execution this module counts each method's steps inside the labelled
`WALKING` and `TURNING` in both files, in the windows Motus counts its own steps in (the
`judged_spans` of `motus evaluate-steps --pair-by`: the labels widened by 0.3 s on each side,
as annotated walks are), and summarises |phone − watch|. Equal
counts do not prove both right (both may miss the same steps); unequal counts prove one wrong.

Every method reads the same samples: the peers the CSV of `motus convert [--resample HZ]`,
Motus the recordings through `motus evaluate-steps --pair-by execution --within
WALKING,TURNING [--resample HZ]`, which counts the same way (`StepAgreement`); its counts per
recording are the Motus columns.
"""

import glob
import os

import numpy as np

import motus_cli

# The labels inside which steps are counted: the person walks or turns.
MOVING = ("WALKING", "TURNING")


def pairs(root):
    """(execution, phone file, watch file) for every execution with both files, in name order."""
    out = []
    for phone in sorted(glob.glob(os.path.join(root, "DATA", "s*", "s*_sp.csv"))):
        watch = phone[: -len("_sp.csv")] + "_sw.csv"
        if os.path.isfile(watch):
            out.append((os.path.basename(phone)[: -len("_sp.csv")], phone, watch))
    return out


def score(root, motus, modes, detectors, cache_dir, pool, rate_args=()):
    """Counts every method's steps in both files of every execution. Returns (methods in
    column order, per-execution rows {execution, method: (phone, watch)}, notes)."""
    found = pairs(root)
    files = [f for _, p, w in found for f in (p, w)]

    def cached(path):
        rel = os.path.relpath(path, root).replace(os.sep, "__")
        return os.path.join(cache_dir, rel)

    # One conversion per file (kept for the next run, like the other data sets').
    list(pool.map(lambda f: motus_cli.convert(motus, f, cached(f), list(rate_args)), files))

    methods = [name for name, _ in detectors] + [title for title, _ in modes]
    counts = {f: {} for f in files}  # file → method → steps inside its moving spans
    spans = {}  # file → the windows Motus counted in (the same in every step mode)
    notes = []
    # Motus's counts, one evaluate-steps run per step mode; its ids are the files' paths under
    # DATA/ without the extension (s01/s01_03_sp).
    for title, args in modes:
        by_id = motus_cli.paired_counts(motus, root, "execution", MOVING, list(args) + list(rate_args))
        for f in files:
            rid = os.path.relpath(f, os.path.join(root, "DATA"))[: -len(".csv")].replace(os.sep, "/")
            if rid not in by_id:
                raise RuntimeError("motus evaluate-steps --pair-by counted no steps for %s" % rid)
            counts[f][title], spans[f] = by_id[rid]

    def count_file(f):
        rec = motus_cli.read_converted(cached(f))
        return f, {name: motus_cli.count_inside(spans[f], detect(rec)) for name, detect in detectors}

    for f, got in pool.map(count_file, files):
        counts[f].update(got)
        if not spans[f]:
            notes.append("sp-sw-har %s: no WALKING or TURNING label" % os.path.relpath(f, root))
    rows = [dict(execution=e, **{m: (counts[p][m], counts[w][m]) for m in methods}) for e, p, w in found]
    return methods, rows, notes


def table(methods, rows):
    """Markdown lines: one row per method, summarising |phone − watch| over the executions."""
    lines = ["| method | executions | mean \\|phone − watch\\| (steps) | mean / worst \\|phone − watch\\| "
             "(% of their mean) | equal / within one step | mean steps, phone / watch |",
             "|---|---:|---:|---|---|---|"]
    for m in methods:
        phone = np.array([r[m][0] for r in rows], dtype=float)
        watch = np.array([r[m][1] for r in rows], dtype=float)
        diff = np.abs(phone - watch)
        mean = (phone + watch) / 2
        rel = np.where(mean > 0, 100 * diff / np.maximum(mean, 1e-9), 0.0)
        lines.append("| %s | %d | %.2f | %.1f / %.0f | %d / %d | %.1f / %.1f |" % (
            m, len(rows), diff.mean(), rel.mean(), rel.max(), int((diff == 0).sum()), int((diff <= 1).sum()),
            phone.mean(), watch.mean()))
    return lines
