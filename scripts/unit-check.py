#!/usr/bin/env python3
"""Every public `Double` of a library module names its unit (issue #22).

A physical value in a public signature (property, parameter, return value, tuple element,
enum payload) must say its unit: in its type (`Seconds`, `Meters`, … from MotusCore's
UnitTypes.swift, `Pixels` in MotusPlot) or in its name (`distanceMeters`, `rateHz`, `xG`).
What is left as a plain `Double` must be dimensionless, and say so: a word of its name in
DIMENSIONLESS below (`probability`, `ratio`, `count`, …), or its declaration in EXEMPT (values
whose unit is the caller's, such as a filter's input sample or a vector's component).

Reads the symbol graphs that `.ci/docs` (`swift package generate-documentation`) leaves under
.build/*/extracted-symbols/, as scripts/doc-coverage.py does; `--extract` makes them instead
from the debug build's modules (`swift build` first), which takes a second.

  scripts/unit-check.py             exit 1, listing them, when a public Double names no unit
  scripts/unit-check.py --extract   the same on symbol graphs made from .build/debug
  scripts/unit-check.py --all       also list what passes and why (unit type, name, marker)
"""
import argparse
import fnmatch
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

# MotusLearn is left out on purpose: it sits beside the stack, knows nothing about sensors
# and cannot see MotusCore's unit types; its values are features, weights and probabilities.
MODULES = ["MotusCore", "MotusIO", "MotusSignal", "MotusFusion", "MotusFeatures", "MotusClassifier",
           "MotusGeo", "MotusTracking", "MotusEvaluation", "MotusPlot"]

DOUBLE = "s:Sd"
# A unit type: a type alias declared in MotusCore's UnitTypes.swift or MotusPlot's Pixels.swift
# (its precise identifier ends in `a`, for alias).
UNIT_TYPE = re.compile(r"^s:(9MotusCore|9MotusPlot)\d+[A-Za-z]+a$")

# A unit in a name: a camelCase word (or the whole name, any case) from this list. `G` is a
# multiple of standard gravity (`accelerationG`), `S` seconds (`largestGapS`).
UNIT_WORDS = {"meters", "metres", "seconds", "milliseconds", "hz", "hertz", "degrees", "radians", "pascals", "microteslas",
              "kg", "kilograms", "watts", "kcal", "kilocalories", "joules", "percent", "rpm", "bpm", "km",
              "px", "pixels", "g", "s", "ms", "ns", "per", "nats"}

# Words that mark a dimensionless value, and why it has no unit.
DIMENSIONLESS = {
    "probability": "a probability (0…1)", "probabilities": "probabilities (0…1)",
    "ratio": "a ratio of two like quantities", "fraction": "a fraction of a like quantity",
    "factor": "a multiplier", "scale": "a multiplier", "scales": "multipliers",
    "weight": "a weight in a weighted mean", "gain": "a filter gain", "alpha": "a filter coefficient",
    "count": "a count", "steps": "a count of steps", "exponent": "an exponent", "loss": "a log loss",
    "accuracy": "a share of windows classified right (0…1)", "recall": "a share (0…1)",
    "f1": "a score (0…1)", "auc": "an area under the ROC curve (0…1)", "correlation": "a correlation (−1…1)",
    "efficiency": "a share of power (0…1)", "resistance": "a rolling resistance coefficient",
    "opacity": "an opacity (0…1)", "sine": "the sine of an angle", "norm": "a unit-free vector's length",
    "compensation": "a lead in sample periods", "percentile": "a percentile of the caller's values",
    "asymmetry": "a ratio of the longest interval to the shortest",
    "periodicity": "a normalised autocorrelation (−1…1)",
    "share": "a share of the time (0…1)",
    "phase": "a fraction of a sample period (0…1)",
}

# Declarations (Module.Type.member, fnmatch patterns; a parameter is `…member.name`) whose
# Doubles carry the caller's unit, or several units, so no one type fits.
EXEMPT = [
    ("MotusCore.Vector3.*", "components carry the unit of the vector's stream (documented on it)"),
    ("MotusCore.Quaternion.*", "quaternion components and interpolation weights are unit-free"),
    ("MotusCore.Math.*", "elementary functions of numbers; the angles among them are typed Radians"),
    ("MotusCore.AndroidSensorAdapter.quaternion(*", "rotation-vector components are unit-free"),
    ("MotusCore.*.toSI", "a conversion factor into SI"),
    ("*.attitude", "quaternion components (w, x, y, z), flat"),
    # Values in the SI unit of a stream's kind, which differs from kind to kind.
    ("MotusCore.SensorStream.*value*", "values in the SI unit of the stream's kind"),
    ("MotusCore.SensorStream.append(*", "values in the SI unit of the stream's kind"),
    ("MotusCore.SensorStream.replace(*", "values in the SI unit of the stream's kind"),
    ("MotusCore.SensorSample.init(kind:time:value:)*", "values in the SI unit of the stream's kind"),
    ("MotusCore.RecordingMetadata.setField(*", "the field's unit is the key's (height_m, weight_kg)"),
    ("MotusIO.SampleBatch.*", "values in the SI unit of the sample's kind"),
    ("MotusIO.*.sample(stream:time:values:)*", "values in the SI unit of the stream's kind"),
    ("MotusIO.PlausibilityCheck.add(*", "values in the SI unit of the stream's kind"),
    ("MotusIO.ReadingRules.*", "limits and values in the SI unit of the stream's kind"),
    ("MotusIO.StreamSummary.meanMagnitude", "in the SI unit of the stream's kind"),
    ("MotusSignal.*.value*", "values in the SI unit of the stream's kind"),
    ("MotusSignal.*Resampler.*(*.values", "values in the SI unit of the stream's kind"),
    ("MotusSignal.StreamingResampler.push(time:_:)*", "values in the SI unit of the stream's kind"),
    ("MotusSignal.StreamingResampler.*utput(*", "values in the SI unit of the stream's kind"),
    # Numbers of any unit: parsers and array files.
    ("MotusIO.NumberParser.*", "parses numbers of any unit"),
    ("MotusIO.JSON*", "numbers of any unit"),
    ("MotusIO.ReaderJSON*", "numbers of any unit"),
    ("MotusIO.MATArray*", "a MATLAB file's numbers, of any unit"),
    ("MotusIO.NumPyArray*", "a NumPy file's numbers, of any unit"),
    # Signal processing on samples of the caller's unit (times and rates are typed).
    ("MotusSignal.RingBuffer.*", "holds samples of the caller's unit"),
    ("MotusSignal.MovingAverage.*", "filters samples of the caller's unit"),
    ("MotusSignal.FirstOrder*", "filters samples of the caller's unit"),
    ("MotusSignal.Biquad*", "filters samples of the caller's unit; coefficients and gains are unit-free"),
    ("MotusSignal.StreamingZeroPhaseFilter.*", "filters samples of the caller's unit"),
    ("MotusSignal.RealFFT.*", "transforms samples of the caller's unit"),
    ("MotusSignal.Window.*", "window weights"),
    ("MotusSignal.Peaks.*", "peaks of a signal of the caller's unit"),
    ("MotusSignal.TimingStatistics.percentile(*", "a percentile of the caller's values"),
    ("MotusCore.RandomAccessCollection.sortedFirstIndex(*", "searches values of the caller's unit"),
    ("MotusFusion.Matrix3.*", "a 3×3 matrix of any unit"),
    ("MotusFusion.LowPassState.*", "filters samples of the caller's unit"),
    ("MotusFusion.HeadingEstimator.Settings.normTolerance", "a relative change of the field's magnitude"),
    ("MotusTracking.CellAverager.push(*", "averages samples of the caller's unit"),
    # Features, estimators and scores: as many units as there are features, or none.
    ("MotusFeatures.FeatureMatrix.*", "feature values, of as many units as features"),
    ("MotusFeatures.FeatureExtractor.extract(channelMajor:*.channelMajor", "channel values, of several units"),
    ("MotusFeatures.MotionFrame.value(*", "a channel's value, in that channel's unit"),
    ("MotusFeatures.StreamingFeatureExtractor.features(*", "feature values, of as many units as features"),
    ("MotusClassifier.*robabilities(row:*", "a feature row in, probabilities out"),
    ("MotusTracking.StreamingClassifier.lastFeatures", "feature values, of as many units as features"),
    ("MotusEvaluation.FeatureExport.RecordingRows.*values", "feature values, of as many units as features"),
    ("MotusClassifier.Augmentation.scalingDynamics(*.by", "a multiplier"),
    ("MotusTracking.StrideEstimator.scale(*.by", "a multiplier"),
    ("MotusTracking.StrideModel.weinberg(k:)*", "Weinberg's constant, in m per (m/s²)^¼"),
    ("MotusTracking.StrideModel.weinbergK(*", "Weinberg's constant, in m per (m/s²)^¼"),
    ("MotusTracking.StepCounterIntegrator.update(*", "the steps a reading added (a count)"),
    ("MotusTracking.MotionPolicy.Settings.probabilitySmoothing", "a weight in a running mean"),
    ("MotusGeo.Geodesic.f", "the WGS84 flattening, a ratio"),
    ("MotusGeo.SessionComparison.*", "metres or seconds, as the comparison's axis says"),
    ("MotusEvaluation.*percentile*", "a percentile of the caller's values"),
    ("MotusEvaluation.FusionEvaluation.Summary.*", "a summary of errors in the caller's unit (degrees for fusion)"),
    ("MotusEvaluation.FusionEvaluation.angleErrors(*", "the reference may be in any unit (same sign)"),
    ("MotusEvaluation.FusionEvaluation.*rrors(*.estimate", "flat gravity or attitude estimates of the method"),
    ("MotusEvaluation.FusionEvaluation.errors(*.referenceGravity", "the reference may be in any unit (same sign)"),
    ("MotusEvaluation.StreamedScoring.*", "probabilities"),
    ("MotusEvaluation.MotionEvaluation.Summary.resumeDecisionStepsMedian", "a median count of steps"),
    # Pictures: sizes are Pixels; the data drawn is in the chart's own units.
    ("MotusPlot.*Series.*", "plotted data in the chart's own units"),
    ("MotusPlot.Panel.*", "plotted data in the chart's own units"),
    ("MotusPlot.Chart*", "plotted data in the chart's own units"),
    ("MotusPlot.RowChart*", "plotted data in the chart's own units"),
    ("MotusPlot.Ticks*", "tick values in the axis's own units"),
    ("MotusPlot.PathData*", "coordinates in the plot's own units"),
    ("MotusPlot.SessionTrace.probabilities", "probabilities"),
]


def words(name):
    """The camelCase words of an identifier, lower-cased (`maxGapS` → max, gap, s; `macroF1` → macro, f1)."""
    name = name.split("(")[0]
    return [w.lower() for w in re.findall(r"[A-Z]+\d*(?=[A-Z][a-z]|$)|[A-Z]?[a-z]+\d*|[A-Z]+\d*|\d+", name)]


def verdict(names):
    """(ok, why) for a Double whose names (property, label, parameter, tuple element) are given."""
    for n in names:
        if not n or n == "_":
            continue
        ws = words(n)
        for w in ws:
            if w in UNIT_WORDS and (w not in ("g", "s", "per") or len(ws) > 1):
                return True, "unit in name %s" % n
        # The last word is the noun (`enterProbability`, `gapFactor`; not `lastStepTime`).
        if ws and ws[-1] in DIMENSIONLESS:
            return True, "dimensionless: %s (%s)" % (DIMENSIONLESS[ws[-1]], n)
    return False, ""


def doubles(fragments):
    """For each plain `Double` in a type's fragments: the tuple label right before it, if any."""
    out = []
    text = ""
    for f in fragments:
        if f.get("kind") == "typeIdentifier" and f.get("preciseIdentifier") == DOUBLE:
            m = re.search(r"(\w+)\s*:\s*[\[(]*$", text)
            out.append(m.group(1) if m else None)
        text += f.get("spelling", "")
    return out


def type_fragments(fragments):
    """The fragments after the declared name's `:` (a property's or a case's type)."""
    for i, f in enumerate(fragments):
        if f.get("kind") == "identifier":
            return fragments[i + 1:]
    return fragments


def typed(graph_files):
    """How many times a unit type names the type of a public declaration's value."""
    n = {}
    for f in graph_files:
        for s in json.load(open(f))["symbols"]:
            if "::SYNTHESIZED::" in s["identifier"]["precise"] or s.get("accessLevel") not in ("public", "open"):
                continue
            if s["kind"]["identifier"] == "swift.typealias":
                continue
            n[s["identifier"]["precise"]] = sum(1 for x in s.get("declarationFragments", [])
                                                if UNIT_TYPE.match(x.get("preciseIdentifier", "")))
    return sum(n.values())


def findings(graph_files, module):
    seen = {}
    for f in graph_files:
        for s in json.load(open(f))["symbols"]:
            if "::SYNTHESIZED::" in s["identifier"]["precise"] or s.get("accessLevel") not in ("public", "open"):
                continue
            kind = s["kind"]["identifier"]
            path = module + "." + ".".join(s["pathComponents"])
            loc = s.get("location", {})
            where = "%s:%d" % (loc.get("uri", "?").split("/Sources/")[-1],
                               loc.get("position", {}).get("line", -1) + 1)
            member = s["pathComponents"][-1]
            uses = []   # (what, names, path for EXEMPT)
            sig = s.get("functionSignature")
            if sig is not None:
                # External labels, in order, from the declaration.
                labels = [f["spelling"] for f in s.get("declarationFragments", []) if f["kind"] == "externalParam"]
                for k, p in enumerate(sig.get("parameters", [])):
                    label = labels[k] if k < len(labels) else None
                    for el in doubles(p.get("declarationFragments", [])):
                        uses.append(("parameter %s" % p["name"], [el, label, p["name"]] if el else [label, p["name"]],
                                     path + "." + p["name"]))
                for el in doubles(sig.get("returns", [])):
                    uses.append(("return value", [el] if el else [member], path + ("." + el if el else "")))
            elif kind in ("swift.property", "swift.type.property", "swift.enum.case"):
                for el in doubles(type_fragments(s.get("declarationFragments", []))):
                    uses.append(("property" if kind != "swift.enum.case" else "payload",
                                 [el] if el else [member], path + ("." + el if el else "")))
            for what, names, p in uses:
                ok, why = verdict(names)
                if not ok:
                    for pat, reason in EXEMPT:
                        if fnmatch.fnmatchcase(p, pat):
                            ok, why = True, "exempt: " + reason
                            break
                seen[(s["identifier"]["precise"], what, tuple(n or "" for n in names))] = (where, path, what, ok, why)
    return list(seen.values())


def extract(root, out):
    """Symbol graphs of the library modules from the debug build's modules."""
    triple = subprocess.run(["swift", "-print-target-info"], capture_output=True, text=True).stdout
    triple = json.loads(triple)["target"]["triple"]
    debug = os.path.join(root, ".build", "debug")
    # The C targets' module maps (generated by the build, or the package's own for CBLAS).
    maps = glob.glob(os.path.join(debug, "*.build", "module.modulemap"))
    cflags = [x for m in maps for x in ("-Xcc", "-fmodule-map-file=" + m)] + ["-I", os.path.join(root, "Sources", "CBLAS")]
    for m in MODULES:
        d = os.path.join(out, m)
        os.makedirs(d, exist_ok=True)
        r = subprocess.run(["swift", "symbolgraph-extract", "-module-name", m, "-I", os.path.join(debug, "Modules"),
                            "-target", triple, "-minimum-access-level", "public", "-output-dir", d] + cflags,
                           capture_output=True, text=True)
        if r.returncode != 0:
            sys.stderr.write(r.stderr)
            return False
    return True


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--extract", action="store_true", help="make the symbol graphs from .build/debug first")
    p.add_argument("--all", action="store_true", help="also list the Doubles that pass, and why")
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    a = p.parse_args()
    tmp = None
    if a.extract:
        tmp = tempfile.mkdtemp(prefix="unit-check-")
        if not extract(a.root, tmp):
            print("could not extract the symbol graphs: run `swift build` first")
            return 2
    bad = 0
    print("%-16s %10s %8s %8s" % ("module", "unit types", "doubles", "no unit"))
    for m in MODULES:
        if tmp:
            files = glob.glob(os.path.join(tmp, m, "*.symbols.json"))
        else:
            files = glob.glob(os.path.join(a.root, ".build", "*", "extracted-symbols", "*", m, "*.symbols.json"))
        if not files:
            print("%-16s no symbol graph: run .ci/docs first, or pass --extract" % m)
            return 2
        fs = sorted(findings(files, m))
        n = sum(1 for x in fs if not x[3])
        bad += n
        print("%-16s %10d %8d %8d" % (m, typed(files), len(fs), n))
        for where, path, what, ok, why in fs:
            if not ok or a.all:
                print("    %s  %s  %s%s" % (where, path, what, ("  [" + why + "]") if ok else ""))
    if bad:
        print("%d public Double values name no unit: give them a unit type (MotusCore/UnitTypes.swift) or a "
              "unit in the name; a dimensionless one goes in scripts/unit-check.py's lists, with its reason" % bad)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
