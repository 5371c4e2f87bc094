#!/usr/bin/env python3
"""Accuracy of the built `digits` on the phone-photo fixtures, per kind,
with the MNIST pipeline and with --raw side by side, how many answers are
marked uncertain and how many are confidently wrong (a wrong digit with no
uncertain mark): the figures of the photo table in docs/accuracy.md. A blank photo is
right when no digit is found. Needs only a build:

    swift build -c release && python3 Tests/Tools/photo_accuracy.py [path/to/digits]

The committed photos are the ones the preprocessing rules were tuned on, so
they flatter it. `--photos FOLDER` measures a set made fresh from another
seed, which no rule has seen (docs/accuracy.md, "Phone photos"):

    /usr/bin/python3 Tests/Tools/make_photo_fixtures.py --out /tmp/fresh --count-per-kind 60 --seed 7
    python3 Tests/Tools/photo_accuracy.py --photos /tmp/fresh
"""

import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from realworld_accuracy import ROOT, classify  # noqa: E402

PHOTOS = os.path.join(ROOT, "Tests/Fixtures/photos")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("digits", nargs="?", default=os.path.join(ROOT, ".build/release/digits"))
    parser.add_argument("--photos", default=PHOTOS, help="a folder with labels.tsv (default: the committed photos)")
    args = parser.parse_args()
    binary = args.digits
    rows = [line.split("\t") for line in open(os.path.join(args.photos, "labels.tsv")).read().splitlines()]
    files = [os.path.join(args.photos, r[0]) for r in rows]
    results = {mode: classify(binary, files, extra) for mode, extra in (("pipeline", []), ("raw", ["--raw"]))}
    kinds = collections.OrderedDict()
    misses = []
    for row, path in zip(rows, files):
        label = None if row[2] == "-" else int(row[2])
        answer = results["pipeline"][path]
        for key in (row[1], "all"):
            counts = kinds.setdefault(key, collections.Counter())
            counts["pictures"] += 1
            for mode in ("pipeline", "raw"):
                counts[mode] += results[mode][path].get("digit") == label
            counts["uncertain"] += bool(answer.get("uncertain"))
            counts["confidently wrong"] += answer.get("digit") not in (None, label) and not answer.get("uncertain")
        if answer.get("digit") != label:
            mark = ", uncertain" if answer.get("uncertain") else ""
            misses.append(f"{row[0]}: got {answer.get('digit')} ({answer.get('confidence') or 0:.1%}{mark})")
    print("| kind | pictures | MNIST pipeline | `--raw` | marked uncertain | confidently wrong |")
    print("|---|---|---|---|---|---|")
    for kind, c in sorted(kinds.items(), key=lambda item: item[0] == "all"):
        print(f"| {kind} | {c['pictures']} | {c['pipeline'] / c['pictures']:.1%} | {c['raw'] / c['pictures']:.1%} "
              f"| {c['uncertain']} | {c['confidently wrong']} |")
    print()
    print("missed by the pipeline:\n  " + "\n  ".join(misses))


if __name__ == "__main__":
    main()
