#!/usr/bin/env python3
"""Accuracy of the built `digits` on the real-world fixture set, per kind,
with the MNIST pipeline and with --raw side by side: the table in docs/accuracy.md.
Needs only a build (no Python torch):

    swift build -c release && python3 Tests/Tools/realworld_accuracy.py [path/to/digits]
"""

import collections
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests/Fixtures/realworld")


def classify(binary, files, extra):
    out = subprocess.run([binary, "classify", "--json", *extra, *files], capture_output=True, text=True, check=False).stdout
    return {o["file"]: o for o in map(json.loads, out.splitlines())}


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/release/digits")
    rows = [line.split("\t") for line in open(os.path.join(FIXTURES, "fixtures.tsv")).read().splitlines()]
    files = [os.path.join(FIXTURES, r[0]) for r in rows]
    results = {mode: classify(binary, files, extra) for mode, extra in (("pipeline", []), ("raw", ["--raw"]))}
    table = collections.OrderedDict()
    misses = []
    for (name, kind, label, _, _), path in zip(rows, files):
        counts = table.setdefault(kind, {"n": 0, "pipeline": 0, "raw": 0, "uncertain": 0})
        counts["n"] += 1
        for mode in ("pipeline", "raw"):
            got = results[mode][path].get("digit")
            right = got is None if label == "-" else got == int(label)
            counts[mode] += right
            if mode == "pipeline" and not right:
                misses.append(f"{name}: got {got}")
        counts["uncertain"] += bool(results["pipeline"][path].get("uncertain"))
    print("| kind | pictures | MNIST pipeline | --raw | marked uncertain |")
    print("|---|---|---|---|---|")
    for kind, c in table.items():
        print(f"| {kind} | {c['n']} | {100 * c['pipeline'] / c['n']:.1f}% | {100 * c['raw'] / c['n']:.1f}% | {c['uncertain']} |")
    hand = [c for k, c in table.items() if k not in ("printed", "blank")]
    n = sum(c["n"] for c in hand)
    print(f"| all handwritten | {n} | {100 * sum(c['pipeline'] for c in hand) / n:.1f}% | "
          f"{100 * sum(c['raw'] for c in hand) / n:.1f}% | {sum(c['uncertain'] for c in hand)} |")
    if misses:
        print("\nmissed by the pipeline: " + ", ".join(misses))


if __name__ == "__main__":
    main()
