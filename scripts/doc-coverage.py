#!/usr/bin/env python3
"""Share of public declarations with a doc comment, per library module.

Reads the symbol graphs that `swift package generate-documentation` (or `.ci/docs`) leaves
under .build/*/extracted-symbols/, so run one of them first. A declaration counts when it is
written in the module's own sources (not synthesised by the compiler, such as `hashValue`
or `!=`); it is documented when it has a doc comment of its own. Members whose only comment
is inherited from a protocol of another module (`description`, `==`, `init(from:)`) are left
out of both counts: the protocol documents them.

  scripts/doc-coverage.py                      table of every module
  scripts/doc-coverage.py --list MotusCore     also list the undocumented declarations
  scripts/doc-coverage.py --min 90             exit 1 when the total share is lower
  scripts/doc-coverage.py --complete MotusCore exit 1 (listing them) when any public
                                               declaration of MotusCore is undocumented
"""
import argparse
import glob
import json
import os
import sys

MODULES = ["MotusCore", "MotusIO", "MotusSignal", "MotusFusion", "MotusFeatures", "MotusLearn",
           "MotusClassifier", "MotusGeo", "MotusTracking", "MotusEvaluation", "MotusPlot"]


def declarations(root, module):
    """(path, file:line, documented) for each public declaration of `module`."""
    files = glob.glob(os.path.join(root, ".build", "*", "extracted-symbols", "*", module, "*.symbols.json"))
    if not files:
        return None
    seen = {}
    for f in files:
        graph = json.load(open(f))
        for s in graph["symbols"]:
            if "::SYNTHESIZED::" in s["identifier"]["precise"] or s.get("accessLevel") not in ("public", "open"):
                continue
            doc = s.get("docComment")
            if doc is not None and doc.get("module", module) != module:
                continue   # documented by another module's protocol
            loc = s.get("location", {})
            where = "%s:%d" % (loc.get("uri", "?").replace("file://" + root + "/", ""),
                               loc.get("position", {}).get("line", -1) + 1)
            seen[s["identifier"]["precise"]] = (".".join(s["pathComponents"]), where, doc is not None)
    return list(seen.values())


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--list", action="append", default=[], metavar="MODULE", help="list the undocumented declarations")
    p.add_argument("--complete", action="append", default=[], metavar="MODULE",
                   help="fail when any public declaration of MODULE is undocumented")
    p.add_argument("--min", type=float, help="fail when the total share (percent) is lower")
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    a = p.parse_args()
    total = documented = 0
    incomplete = []
    print("%-16s %6s %6s %7s" % ("module", "public", "doc'd", "share"))
    for m in MODULES:
        d = declarations(a.root, m)
        if d is None:
            print("%-16s no symbol graph: run .ci/docs first" % m)
            return 2
        n, k = len(d), sum(1 for x in d if x[2])
        total += n; documented += k
        print("%-16s %6d %6d %6.1f%%" % (m, n, k, 100.0 * k / n if n else 100))
        if m in a.complete and k < n:
            incomplete.append(m)
        if m in a.list or (m in a.complete and k < n):
            for name, where, doc in sorted(d, key=lambda x: x[1]):
                if not doc:
                    print("    %s  %s" % (where, name))
    share = 100.0 * documented / total if total else 100
    print("%-16s %6d %6d %6.1f%%" % ("all", total, documented, share))
    if incomplete:
        print("undocumented public declarations in %s (listed above)" % ", ".join(incomplete))
        return 1
    if a.min is not None and share < a.min:
        print("documented share %.1f%% is below %.1f%%" % (share, a.min))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
