#!/usr/bin/env python3
"""Leave-one-subject-out and leave-one-dataset-out figures of moving-vs-still model variants.

Usage (the venv of benchmarks/compare/run.sh, or any with numpy, pandas and scikit-learn):
  swift build -c release --product motus
  D=../shared/datasets
  .build/release/motus features $D/motionsense $D/ipol/voisard2023_ipol497 $D/weallwalk $D/sp-sw-har \\
      --map moving=wlk,jog,ups,dws,walk,WALKING,TURNING --map still=sit,std,still,SEATED \\
      --labelled-only --out /tmp/moving-still-features.csv
  benchmarks/.venv-compare/bin/python benchmarks/compare/moving_still_variants.py \\
      /tmp/moving-still-features.csv --l2 1e-3 1e-2 --bands share absolute
  benchmarks/.venv-compare/bin/python benchmarks/compare/moving_still_variants.py \\
      /tmp/moving-still-features.csv --drop none acf uaccMag corr --moving-threshold 0.5 0.4

The windows and features are Motus's own (`motus features`, the road `train` and `evaluate`
take). Each variant is a standard scaler and an L2-regularised logistic regression with
balanced class weights, as `motus train --model logistic` fits it: Motus's `l2` is
scikit-learn's 1 / (C · n). `--bands share` keeps the band features as Motus computes them
(each band's share of the window's power); `absolute` replaces each by log10(share × std² +
1e-6), the log of a number in proportion to the band's power, so that a slow, strong motion
is not read as the low-frequency share of a still window. With `--l2 1e-3 --bands share` it gives the shipped model's
cross-validated figures of models/README.md to the last digit. `--drop` leaves features out,
one variant per value: `none` keeps them all; otherwise a comma-separated list, each item a
channel (`uaccMag`: every feature of it) or the start of a feature's name (`acf`: acfPeak and
acfLag of every channel; `corr`: the two correlations). `--moving-threshold P` calls a window
moving when the model's p(moving) is at least P (the shipped model: 0.5).

Prints one line per variant and scheme: balanced accuracy per data set (%) and their mean (by
which the shipped settings were chosen), WeAllWalk's walking windows called moving per group, and
IPOL's still windows called still.
"""
import argparse
import warnings

import numpy as np
import pandas as pd
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler

DATASETS = ("motionsense", "ipol", "weallwalk", "sp-sw-har")
CHANNELS = ("accMag", "uaccMag", "accVert", "accHoriz", "gyroMag")


def dataset_of(recording):
    for d in DATASETS:
        if d in recording:
            return d
    raise SystemExit(f"moving_still_variants: recording {recording!r} is from none of {', '.join(DATASETS)}")


def features(frame, bands, cols=None):
    """The feature matrix: Motus's columns (`cols`, default all), the band shares replaced when
    `bands` is absolute."""
    cols = list(frame.columns[5:]) if cols is None else cols
    if bands == "absolute":
        frame = frame.copy()
        for ch in CHANNELS:
            for c in [c for c in cols if c.startswith(ch + ".band_")]:
                # The band's power from its share and the channel's deviation (kept even when
                # --drop leaves the deviation itself out).
                frame[c] = np.log10(frame[c] * frame[ch + ".std"] ** 2 + 1e-6)
    return frame[cols].to_numpy(dtype=float)


def kept_columns(columns, drop):
    """The feature columns `drop` (see the module's description) leaves in."""
    if drop == "none":
        return list(columns)
    items = [d for d in drop.split(",") if d]

    def matches(column, item):
        # A channel's every feature, or the features whose name starts with the item.
        channel, _, name = column.partition(".")
        return channel == item or name.startswith(item)

    unknown = [d for d in items if not any(matches(c, d) for c in columns)]
    if unknown:
        raise SystemExit(f"moving_still_variants: --drop {drop!r}: no feature matches {unknown}")
    return [c for c in columns if not any(matches(c, d) for d in items)]


def predict_held_out(x, y, folds, l2, moving_threshold=0.5):
    """Each fold's predictions (1: still) from a model trained on all the other folds; a window
    is called moving when p(moving) reaches `moving_threshold`."""
    pred = np.zeros(len(y), dtype=int)
    for f in np.unique(folds):
        test = folds == f
        train = ~test
        scaler = StandardScaler().fit(x[train])
        model = LogisticRegression(C=1 / (l2 * train.sum()), class_weight="balanced", max_iter=5000)
        model.fit(scaler.transform(x[train]), y[train])
        p_still = model.predict_proba(scaler.transform(x[test]))[:, list(model.classes_).index(1)]
        pred[test] = (1 - p_still < moving_threshold).astype(int)
    return pred


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("features", help="CSV written by `motus features … --labelled-only` (see the usage above)")
    p.add_argument("--l2", type=float, nargs="+", default=[1e-3], help="Motus l2 values (default: the shipped 1e-3)")
    p.add_argument("--bands", choices=("share", "absolute"), nargs="+", default=["share"])
    p.add_argument("--drop", nargs="+", default=["none"], help="features to leave out, one variant per value (see above)")
    p.add_argument("--moving-threshold", type=float, nargs="+", default=[0.5],
                   help="p(moving) at or above which a window is called moving (default: the shipped 0.5)")
    a = p.parse_args()
    try:
        frame = pd.read_csv(a.features)
    except (OSError, pd.errors.ParserError, pd.errors.EmptyDataError) as e:
        raise SystemExit(f"{a.features}: {e}".replace("\n", " "))
    if list(frame.columns[:5]) != ["recording", "subject", "label", "start_s", "end_s"]:
        raise SystemExit(f"{a.features}:1: columns {list(frame.columns[:5])}, expected recording, subject, label, start_s, end_s")
    for c in frame.columns[5:]:
        if not pd.api.types.is_numeric_dtype(frame[c]):
            numbers = pd.to_numeric(frame[c], errors="coerce")
            row = next(i for i in range(len(frame)) if numbers.iloc[i] != numbers.iloc[i] and frame[c].iloc[i] == frame[c].iloc[i])
            raise SystemExit(f"{a.features}:{row + 2}: column {c!r} holds {frame[c].iloc[row]!r}, expected a number")
    bad = sorted(set(frame.label) - {"moving", "still"})
    if bad:
        raise SystemExit(f"{a.features}: labels {bad}, expected moving and still only (map them with --map, keep --labelled-only)")
    ds = frame.recording.map(dataset_of).to_numpy()
    subject = (pd.Series(ds) + "/" + frame.subject.astype(str)).to_numpy()
    rec = frame.recording.to_numpy()
    group = np.where(np.char.find(rec.astype(str), "_WC") >= 0, "cane",
                     np.where(np.char.find(rec.astype(str), "_GD") >= 0, "guide dog", "sighted"))
    y = (frame.label == "still").to_numpy(dtype=int)
    warnings.filterwarnings("ignore", category=ConvergenceWarning)
    if any(not 0 < t < 1 for t in a.moving_threshold):
        raise SystemExit(f"moving_still_variants: --moving-threshold {a.moving_threshold}: each must lie between 0 and 1")
    kept = {drop: kept_columns(frame.columns[5:], drop) for drop in a.drop}
    for bands in a.bands:
        for drop in a.drop:
            x = features(frame, bands, kept[drop])
            for l2 in a.l2:
                for threshold in a.moving_threshold:
                    for scheme, folds in (("LOSO", subject), ("LODO", ds)):
                        pred = predict_held_out(x, y, folds, l2, threshold)
                        parts, balanced = [], []
                        for d in DATASETS:
                            recalls = [np.mean(pred[(ds == d) & (y == c)] == c) for c in (0, 1) if np.any((ds == d) & (y == c))]
                            balanced.append(100 * np.mean(recalls))
                            parts.append(f"{d} {balanced[-1]:.2f}")
                        parts.append(f"mean {np.mean(balanced):.2f}")
                        wa = (ds == "weallwalk") & (y == 0)
                        parts.append("WeAllWalk walking " + ", ".join(
                            f"{g} {100 * np.mean(pred[wa & (group == g)] == 0):.2f}" for g in ("cane", "guide dog", "sighted")))
                        still = (ds == "ipol") & (y == 1)
                        parts.append(f"IPOL still {100 * np.mean(pred[still] == 1):.2f}")
                        variant = f"bands {bands}, drop {drop} ({len(kept[drop])} features), l2 {l2:g}, p(moving) ≥ {threshold:g}"
                        print(f"{variant}, {scheme}: " + " | ".join(parts), flush=True)


if __name__ == "__main__":
    main()
