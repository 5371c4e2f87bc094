#!/usr/bin/env python3
"""Measures `digits read` on a folder made by make_number_fixtures.py:
exact-string accuracy per kind and per condition, how many readings were
marked uncertain, and how many were wrong without the mark (confidently
wrong). Prints a markdown table; asserts nothing.

    /usr/bin/python3 Tests/Tools/read_accuracy.py FOLDER [--digits .build/debug/digits] [--length] [--plain-split | --no-line-model]

--length passes each number's digit count as `--length N`; --plain-split
reads every glyph as one digit (connected components only, no cuts);
--no-line-model cuts wide glyphs into pieces for the digit model instead of
reading them with the line model (0.6.0's reader).
"""

import argparse
import collections
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--digits", default=os.path.join(ROOT, ".build", "debug", "digits"))
    parser.add_argument("--length", action="store_true")
    parser.add_argument("--plain-split", action="store_true",
                        help="read every glyph as one digit (digits read --no-cuts), for comparison")
    parser.add_argument("--no-line-model", action="store_true",
                        help="cut wide glyphs for the digit model (digits read --no-line-model), for comparison")
    args = parser.parse_args()
    with open(os.path.join(args.folder, "numbers.tsv")) as table:
        rows = [line.rstrip("\n").split("\t") for line in table][1:]
    readings = {}
    groups = collections.defaultdict(list)
    for name, kind, condition, text in rows:
        key = sum(c.isdigit() for c in text) if args.length else None
        groups[key].append(os.path.join(args.folder, name))
    for key, files in groups.items():
        command = [args.digits, "read", "--json"] + (["--length", str(key)] if key else []) \
            + (["--no-cuts"] if args.plain_split else []) \
            + (["--no-line-model"] if args.no_line_model else []) + files
        output = subprocess.run(command, capture_output=True, text=True).stdout
        for line in output.splitlines():
            entry = json.loads(line)
            readings[os.path.basename(entry["file"])] = entry
    stats = collections.defaultdict(lambda: [0, 0, 0, 0])  # total, right, uncertain, confidently wrong
    wrong = []
    for name, kind, condition, text in rows:
        entry = readings.get(name, {})
        got = entry.get("text")
        right = got == text
        uncertain = entry.get("uncertain", True)
        for key in (kind, condition, "all"):
            s = stats[key]
            s[0] += 1
            s[1] += right
            s[2] += uncertain
            s[3] += (not right) and not uncertain
        if not right:
            wrong.append(f"{name}: {text} read as {got} ({entry.get('confidence', 0):.3f}{', uncertain' if uncertain else ''})")
    print("| set | pictures | exact | uncertain | confidently wrong |")
    print("|---|---:|---:|---:|---:|")
    for key, (total, right, uncertain, confident_wrong) in stats.items():
        print(f"| {key} | {total} | {100 * right / total:.1f}% | {100 * uncertain / total:.1f}% | {100 * confident_wrong / total:.1f}% |")
    if "-v" in sys.argv or os.environ.get("VERBOSE"):
        print("\n".join(wrong))


if __name__ == "__main__":
    main()
