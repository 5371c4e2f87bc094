#!/usr/bin/env python3
"""Reads the same number pictures with `digits read` and with Tesseract
(Debian's tesseract-ocr: a digits-only whitelist, page segmentation modes 7,
one line, and 8, one word; the better of the two over the whole set is kept),
and prints, per kind, the exact-string accuracy of both and the time per
picture. Also the time `digits classify` takes for the same pictures, since a
number should cost at most a few single-digit classifications. Asserts
nothing. On demand, not part of CI:

    swift build -c release --product digits
    /usr/bin/python3 Tests/Tools/make_number_fixtures.py --out /tmp/numbers --count 100 --seed 4
    /usr/bin/python3 Benchmarks/read_benchmark.py /tmp/numbers [--digits .build/release/digits]
        [--digit-count 4] [--no-tesseract]

--digit-count N keeps only the numbers of N digits (the issue's time target
is for 4-digit numbers); --no-tesseract leaves Tesseract out (its start-up per
picture is most of the script's time).

Times: digits reads (and classifies) all pictures of a kind three times over
(--repeat) in one process, and one picture in another, which measures the
start-up and model load; the figure is (all - one) / (pictures read - 1),
the fastest of 3 runs each (--rounds), read and classify taking turns so
that a slow spell of this noisy machine falls on both, libtorch on one
thread (digits' own choice for read and classify). Tesseract runs once per picture, as it would
from a script (its start-up is part of each picture's time).
"""

import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(command):
    start = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True)
    return time.perf_counter() - start, result.stdout


def per_picture(commands, files, repeat=3, rounds=3):
    """Seconds per picture of each of `commands + files` in one process,
    start-up excluded: the fastest of `rounds` runs on one picture and of
    `rounds` runs on the files `repeat` times over, the commands taking
    turns so that a slow spell of the machine falls on all of them; and
    the output of one pass of the first command over the files."""
    one = [[] for _ in commands]
    many = [[] for _ in commands]
    for _ in range(rounds):
        for i, command in enumerate(commands):
            one[i].append(timed(command + files[:1])[0])
            many[i].append(timed(command + files * repeat)[0])
    seconds = [(min(m) - min(o)) / max(1, len(files) * repeat - 1) for o, m in zip(one, many)]
    return seconds, timed(commands[0] + files)[1]


def tesseract(path, psm):
    whitelist = "tessedit_char_whitelist=0123456789.-"
    start = time.perf_counter()
    output = subprocess.run(["tesseract", path, "stdout", "--psm", str(psm), "-c", whitelist],
                            capture_output=True, text=True).stdout
    return time.perf_counter() - start, "".join(output.split())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--digits", default=os.path.join(ROOT, ".build", "release", "digits"))
    parser.add_argument("--digit-count", type=int, help="only numbers with this many digits")
    parser.add_argument("--no-tesseract", action="store_true", help="time digits only")
    parser.add_argument("--repeat", type=int, default=3, help="passes over a kind's pictures in one process")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each command; the fastest counts")
    args = parser.parse_args()
    with open(os.path.join(args.folder, "numbers.tsv")) as table:
        rows = [line.rstrip("\n").split("\t") for line in table][1:]
    kinds = collections.defaultdict(list)
    for name, kind, _, text in rows:
        if args.digit_count is not None and sum(c.isdigit() for c in text) != args.digit_count:
            continue
        kinds[kind].append((os.path.join(args.folder, name), text))

    results = {}
    tess_right = {7: collections.Counter(), 8: collections.Counter()}
    tess_time = {7: collections.Counter(), 8: collections.Counter()}
    for kind, pictures in kinds.items():
        files = [path for path, _ in pictures]
        (read_seconds, classify_seconds), output = per_picture(
            [[args.digits, "read", "--threads", "1", "--json"], [args.digits, "classify", "--threads", "1"]], files,
            repeat=args.repeat, rounds=args.rounds)
        texts = {json.loads(line)["file"]: json.loads(line).get("text") for line in output.splitlines()}
        right = sum(texts.get(path) == text for path, text in pictures)
        for psm in () if args.no_tesseract else (7, 8):
            for path, text in pictures:
                seconds, got = tesseract(path, psm)
                tess_right[psm][kind] += got == text
                tess_time[psm][kind] += seconds
        results[kind] = (len(pictures), right, read_seconds, classify_seconds)
    digits_version = subprocess.run([args.digits, "--version"], capture_output=True, text=True).stdout.strip()
    if args.no_tesseract:
        print(f"{digits_version}\n")
        print("| kind | pictures | digits read | read, ms per picture | classify, ms per picture |")
        print("|---|---:|---:|---:|---:|")
        for kind, (count, right, read_seconds, classify_seconds) in results.items():
            print(f"| {kind} | {count} | {100 * right / count:.0f}% | {read_seconds * 1000:.1f} | {classify_seconds * 1000:.1f} |")
        return
    best = max((7, 8), key=lambda psm: sum(tess_right[psm].values()))
    version = subprocess.run(["tesseract", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    print(f"{digits_version}; {version}, "
          f"--psm {best} (psm 7: {sum(tess_right[7].values())} right, psm 8: {sum(tess_right[8].values())})\n")
    print("| kind | pictures | digits read | Tesseract | read, ms per picture | classify, ms per picture | Tesseract, ms per picture |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    totals = [0, 0, 0]
    for kind, (count, right, read_seconds, classify_seconds) in results.items():
        totals[0] += count
        totals[1] += right
        totals[2] += tess_right[best][kind]
        print(f"| {kind} | {count} | {100 * right / count:.0f}% | {100 * tess_right[best][kind] / count:.0f}% | "
              f"{read_seconds * 1000:.1f} | {classify_seconds * 1000:.1f} | {tess_time[best][kind] / count * 1000:.0f} |")
    print(f"| all | {totals[0]} | {100 * totals[1] / totals[0]:.1f}% | {100 * totals[2] / totals[0]:.1f}% | | | |")

if __name__ == "__main__":
    sys.exit(main())
