#!/usr/bin/env python3
"""Measures `digits read` on a folder made by make_number_fixtures.py or
Tests/Eval/numbers/generate.py (numbers.tsv: file, kind, condition, text):
exact-string accuracy per kind and per condition, how many readings were
marked uncertain, and how many were wrong without the mark (confidently
wrong). Prints a markdown table; with --check, fails (exit 1) when a set
falls under its floor.

    /usr/bin/python3 Tests/Tools/read_accuracy.py FOLDER [--digits .build/debug/digits] [--length] [--plain-split | --no-line-model] [--check FLOORS] [--kinds-only] [--no-locator]

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
    parser.add_argument("--check", help="floors as set=percent,... (a kind, a condition or 'all'); "
                        "'confidently-wrong' is a ceiling on all the pictures")
    parser.add_argument("--kinds-only", action="store_true", help="print the kinds and 'all', not each condition")
    parser.add_argument("--no-locator", action="store_true", help="read by the rules alone (digits read --no-locator)")
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
            + (["--no-line-model"] if args.no_line_model else []) \
            + (["--no-locator"] if args.no_locator else []) + files
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
    kinds = {kind for _, kind, _, _ in rows} | {"all"}
    for key, (total, right, uncertain, confident_wrong) in stats.items():
        if args.kinds_only and key not in kinds:
            continue
        print(f"| {key} | {total} | {100 * right / total:.1f}% | {100 * uncertain / total:.1f}% | {100 * confident_wrong / total:.1f}% |")
    if "-v" in sys.argv or os.environ.get("VERBOSE"):
        print("\n".join(wrong))
    if args.check:
        failures = []
        for item in args.check.split(","):
            key, floor = item.split("=")
            floor = float(floor) / 100
            if key == "confidently-wrong":
                total, _, _, confident_wrong = stats["all"]
                if confident_wrong / total > floor:
                    failures.append(f"confidently wrong {confident_wrong / total:.1%} above {floor:.1%}")
            elif key in stats:
                total, right = stats[key][:2]
                if right / total < floor:
                    failures.append(f"{key} {right / total:.1%} under {floor:.1%}")
            else:
                failures.append(f"{key}: no such set among the pictures")
        if failures:
            print("\nunder the floors: " + "; ".join(failures))
            sys.exit(1)


if __name__ == "__main__":
    main()
