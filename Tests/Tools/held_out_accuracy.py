#!/usr/bin/env python3
"""How the built `digits` reads a set made by an evaluation generator
(Tests/Eval/generator_a or generator_b), per kind: pictures no rule or model
was tuned on. Prints a Markdown table and, with --check, fails (exit 1) when
a kind falls under its floor.

    /usr/bin/python3 Tests/Eval/generator_a/generate.py --out /tmp/eval-a --seed 101 --per-kind 40
    python3 Tests/Tools/held_out_accuracy.py /tmp/eval-a [--digits path/to/digits] [--check FLOORS] [-- classify options]

What counts as right, by what `labels.tsv` expects:
  - a digit: that digit is the answer (marked uncertain or not);
  - none (a blank picture): no digit is given;
  - reject (letters, symbols, scribbles): no confident digit: no digit, or
    a digit marked uncertain.
Two rates across all digit pictures beside: "no digit" (a digit shown, none
given) and "confidently wrong" (a wrong digit not marked uncertain).
"""

import argparse
import collections
import json
import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def answers(binary, folder, files, extra):
    out = subprocess.run([binary, "classify", "--json", *extra, *[os.path.join(folder, f) for f in files]],
                         capture_output=True, text=True, check=False, cwd=ROOT).stdout
    found = {}
    for line in out.splitlines():
        answer = json.loads(line)
        found[os.path.basename(answer["file"])] = answer
    return found


def right(expect, answer):
    digit = answer.get("digit")
    if expect == "none":
        return digit is None
    if expect == "reject":
        return digit is None or bool(answer.get("uncertain"))
    return digit == int(expect)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("set", help="a folder with labels.tsv (file, kind, expect)")
    parser.add_argument("--digits", default=os.path.join(ROOT, ".build/release/digits"))
    parser.add_argument("--check", help="floors as kind=percent,...; 'digit', 'none' and 'reject' stand for all the "
                        "pictures expecting that, pooled; 'no-digit' and 'confidently-wrong' are ceilings")
    args, extra = parser.parse_known_args()
    args.extra = [a for a in extra if a != "--"]
    rows = [line.split("\t") for line in open(os.path.join(args.set, "labels.tsv")).read().splitlines() if line]
    rows = [r for r in rows if r[0] != "file"]
    got = answers(args.digits, args.set, [r[0] for r in rows], args.extra)
    kinds = collections.OrderedDict()
    expects = {}
    no_digit = wrong = digit_pictures = 0
    misses = []
    for name, kind, expect in rows:
        answer = got.get(name, {})
        ok = right(expect, answer)
        counts = kinds.setdefault(kind, collections.Counter())
        counts["pictures"] += 1
        counts["right"] += ok
        expects[kind] = "digit" if expect.isdigit() else expect
        if expect.isdigit():
            digit_pictures += 1
            no_digit += answer.get("digit") is None
            wrong += answer.get("digit") not in (None, int(expect)) and not answer.get("uncertain")
        if not ok:
            mark = ", uncertain" if answer.get("uncertain") else ""
            shown = answer.get("digit") if answer.get("digit") is not None else answer.get("reason", answer.get("error"))
            misses.append(f"{name} (expect {expect}): {shown} ({answer.get('confidence') or 0:.1%}{mark})")
    print("| kind | expects | pictures | right |")
    print("|---|---|---:|---:|")
    for kind, c in kinds.items():
        print(f"| {kind} | {expects[kind]} | {c['pictures']} | {c['right'] / c['pictures']:.1%} |")
    rates = {"no-digit": no_digit / max(1, digit_pictures), "confidently-wrong": wrong / max(1, digit_pictures)}
    print(f"\nno digit given on a digit: {no_digit} of {digit_pictures} ({rates['no-digit']:.1%}); "
          f"confidently wrong: {wrong} ({rates['confidently-wrong']:.1%})")
    if misses:
        print("\nmissed:\n  " + "\n  ".join(misses))
    if args.check:
        failures = []
        for item in args.check.split(","):
            key, floor = item.split("=")
            floor = float(floor) / 100
            if key in rates:
                if rates[key] > floor:
                    failures.append(f"{key} {rates[key]:.1%} above {floor:.1%}")
                continue
            # A kind's name: that kind; digit, none or reject: all the
            # pictures expecting that, pooled.
            chosen = [k for k in kinds if k == key or expects[k] == key]
            pooled_right = sum(kinds[k]["right"] for k in chosen)
            pictures = sum(kinds[k]["pictures"] for k in chosen)
            if pictures and pooled_right / pictures < floor:
                failures.append(f"{key} {pooled_right / pictures:.1%} under {floor:.1%}")
        if failures:
            print("\nunder the floors: " + "; ".join(failures))
            sys.exit(1)


if __name__ == "__main__":
    main()
