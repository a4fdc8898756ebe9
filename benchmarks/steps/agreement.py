"""Phone against watch on sp-sw-har: a step check without a step reference.

sp-sw-har's phone (`_sp`) and watch (`_sw`) recorded each execution of its course (seated,
stand up, walk, turn, walk back, turn, sit down) at once, so the person took the same steps
in both files. It has activity labels, not steps, so no method can be scored against the truth
there; but a method that counts steps right on the phone and on the watch counts the same
number in both files. Per execution this module counts each method's steps inside the labelled
`WALKING` and `TURNING` (widened by motus_cli.WINDOW_MARGIN_S on each side, as `motus
evaluate-steps` widens annotated walks) in both files, and summarises |phone − watch|. Equal
counts do not prove both right (both may miss the same steps); unequal counts prove one wrong.

Every method reads the same samples: the peers the CSV of `motus convert`, Motus its
`.motus` conversion through `motus track --step-events` (so `--resample HZ` reaches both).
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


def moving_spans(rec):
    """The windows steps are counted in: the recording's WALKING and TURNING labels, widened
    and merged as `evaluate-steps` widens annotated walks."""
    return motus_cli.judged_spans(sorted((s, e) for s, e, label in rec.labels if label in MOVING))


def score(root, motus, modes, detectors, cache_dir, pool, rate_args=()):
    """Counts every method's steps in both files of every execution. Returns (methods in
    column order, per-execution rows {execution, method: (phone, watch)}, notes)."""
    found = pairs(root)
    files = [f for _, p, w in found for f in (p, w)]

    def cached(path, ext):
        rel = os.path.relpath(path, root).replace(os.sep, "__")
        return os.path.join(cache_dir, rel[: -len(".csv")] + ext)

    # One conversion of each kind per file (kept for the next run, like the other data sets').
    jobs = [(f, cached(f, ext)) for f in files for ext in (".csv", ".motus")]
    list(pool.map(lambda j: motus_cli.convert(motus, j[0], j[1], list(rate_args)), jobs))

    methods = [name for name, _ in detectors] + [title for title, _ in modes]
    counts = {}  # file → method → steps inside its moving spans
    notes = []

    def count_file(f):
        rec = motus_cli.read_converted(cached(f, ".csv"))
        spans = moving_spans(rec)
        got = {}
        for name, detect in detectors:
            got[name] = motus_cli.count_inside(spans, detect(rec))
        for title, args in modes:
            got[title] = motus_cli.count_inside(spans, motus_cli.track_steps(motus, cached(f, ".motus"), args))
        return f, got, bool(spans)

    for f, got, has_spans in pool.map(count_file, files):
        counts[f] = got
        if not has_spans:
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
