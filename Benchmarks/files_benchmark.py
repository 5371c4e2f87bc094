#!/usr/bin/env python3
"""Measures how fast `digits classify` classifies many PNG *files* in one
process, against the Python a user would otherwise write
(Benchmarks/python_files_baseline.py: Pillow, the numpy reference
preprocessing and torch.jit.load), and how digits scales from 1 to 2 cores.
Prints markdown tables; asserts nothing. On demand, not part of CI:

    swift build -c release --product digits
    /usr/bin/python3 Benchmarks/files_benchmark.py [--count 3000] [--runs 5] [--set DIR] [--digits PATH]

The set of mixed real-world PNGs comes from Benchmarks/make_mixed_pngs.py,
made into DIR (or a temporary folder, removed at the end) unless DIR already
holds files.txt. Each round runs, back to back so that drift on a noisy
machine affects all alike: (a) digits classify on the whole list, 2 threads;
(b) the same pinned to one core (taskset -c 0, 1 thread); (c) the Python
baseline (batch 64, 2 threads); (d) the plain Python script #31 names
(python_files_baseline.py ... plain: Pillow's grey and Benchmarks/plain_mnist.py's
few steps, batch 64, 2 threads); then the start-up of each, one PNG
(Examples/seven.png) as a whole process. Files per second are given for the
whole process and in steady state (the median start-up subtracted). Ratios
are medians of per-round ratios. Finally the results of digits and Python
are compared file by file: they implement the same pipeline.
"""

import argparse
import csv
import datetime
import io
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DIGITS = os.path.join(ROOT, ".build/release/digits")
MAKE_SET = [sys.executable, os.path.join(ROOT, "Benchmarks/make_mixed_pngs.py")]
PYTHON = [sys.executable, os.path.join(ROOT, "Benchmarks/python_files_baseline.py")]
MODEL = os.path.join(ROOT, "Models/digits.pt")
PNG = os.path.join(ROOT, "Examples/seven.png")
PYTHON_BATCH = 64


def run(command, out_path, ok=(0,)):
    """(wall seconds, peak RSS in MB, stderr, CPU seconds) of one process; stdout goes to out_path."""
    with open(out_path, "w") as out, tempfile.TemporaryFile("w+") as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        err.seek(0)
        stderr = err.read()
    code = os.waitstatus_to_exitcode(status)
    if code not in ok:
        sys.exit(f"failed ({code}): {' '.join(command[:6])} ...\n{stderr[-2000:]}")
    return wall, usage.ru_maxrss / 1024, stderr, usage.ru_utime + usage.ru_stime


def machine(digits):
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    version = subprocess.run([digits, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    return (f"{os.cpu_count()} cores ({len(os.sched_getaffinity(0))} available), {cpu}, "
            f"{platform.system()} {platform.release()}; {version}")


def ensure_set(folder, count):
    """Makes the set in `folder` unless it already holds files.txt; returns the paths."""
    list_path = os.path.join(folder, "files.txt")
    if not os.path.exists(list_path):
        subprocess.run(MAKE_SET + ["--count", str(count), folder], check=True, stdout=sys.stderr)
    with open(list_path) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def pixel_counts(paths):
    counts = []
    for path in paths:
        with Image.open(path) as image:
            counts.append(image.size[0] * image.size[1])
    return counts


def labels(folder):
    """file name -> (kind, label or -), from labels.tsv if the set has one."""
    path = os.path.join(folder, "labels.tsv")
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        return {row[0]: (row[1], row[2]) for row in csv.reader(f, delimiter="\t")}


def digits_commands(digits, list_path, paths):
    """(whole list, one PNG, parser, description) for this digits: --files-from and --format csv if it has them."""
    help_text = subprocess.run([digits, "classify", "--help"], capture_output=True, text=True).stdout
    csv_output = "--format" in help_text and "csv" in help_text
    output = ["--format", "csv"] if csv_output else []
    files = ["--files-from", list_path] if "--files-from" in help_text else paths
    base = [digits, "classify", "--model", MODEL] + output
    how = ("--files-from LIST" if files != paths else "paths as arguments") + (", --format csv" if csv_output else ", text output")
    return base + files, base + [PNG], parse_csv if csv_output else parse_text, how


def digit_or_dash(text):
    text = text.strip()
    return text if len(text) == 1 and text.isdigit() else "-"


def parse_csv(text):
    """path -> digit or - from digits' CSV output, with or without a header row."""
    rows = [row for row in csv.reader(io.StringIO(text, newline="")) if row]
    file_column, digit_column = 0, 1
    if rows and any(cell.strip().lower() in ("file", "path") for cell in rows[0]):
        header = [cell.strip().lower() for cell in rows.pop(0)]
        file_column = header.index("file") if "file" in header else header.index("path")
        digit_column = header.index("digit")
    return {row[file_column]: digit_or_dash(row[digit_column]) for row in rows if len(row) > max(file_column, digit_column)}


def parse_text(text):
    """path -> digit or - from digits' text output ("a.png: 7 (99.8%)", "b.png: no digit found")."""
    results = {}
    for line in text.splitlines():
        path, sep, rest = line.rpartition(": ")
        if sep:
            results[path] = digit_or_dash(rest.split(" ", 1)[0])
    return results


def parse_python(text):
    return dict(line.split("\t", 1) for line in text.splitlines() if "\t" in line)


def aligned(results, paths):
    """The result for each of `paths` (None if missing), matching by file name when the program printed
    another form of the path."""
    by_name = {os.path.basename(p): d for p, d in results.items()}
    return [results[p] if p in results else by_name.get(os.path.basename(p)) for p in paths]


def python_figures(stderr):
    """name -> value of the "name value" lines the baseline prints on stderr."""
    figures = {}
    for line in stderr.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                figures[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return figures


def measure(programs, runs):
    """name -> list of (wall, rss, stderr) per round, all programs interleaved in each round.
    programs: (name, command, stdout path, accepted exit statuses)."""
    results = {name: [] for name, *_ in programs}
    for round_number in range(runs):
        for name, command, out_path, ok in programs:
            results[name].append(run(command, out_path, ok))
        print(f"round {round_number + 1}/{runs}: "
              + ", ".join(f"{name} {results[name][-1][0]:.2f} s" for name, *_ in programs), file=sys.stderr)
    return results


def report_rates(names, results, startups, count):
    print("| program | wall time (median) | files/s, whole process | start-up (median) | files/s, steady state | peak RSS | CPU time (median) |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        wall = statistics.median(r[0] for r in results[name])
        startup = statistics.median(r[0] for r in results[startups[name]])
        steady = count / (wall - startup) if wall > startup else float("nan")
        rss = max(r[1] for r in results[name])
        cpu = statistics.median(r[3] for r in results[name])
        print(f"| {name} | {wall:.2f} s | {count / wall:.1f} | {startup:.2f} s | {steady:.1f} | {rss:.0f} MB | {cpu:.2f} s |")


def report_ratios(pairs, results, startups):
    print("| ratio | whole process | steady state |")
    print("|---|---|---|")
    for top, bottom in pairs:
        startup = {name: statistics.median(r[0] for r in results[startups[name]]) for name in (top, bottom)}
        whole, steady = [], []
        for a, b in zip(results[top], results[bottom]):
            whole.append(b[0] / a[0])  # rate ratio = inverse wall ratio
            steady.append((b[0] - startup[bottom]) / (a[0] - startup[top]))
        print(f"| {top} / {bottom} | {statistics.median(whole):.2f} | {statistics.median(steady):.2f} |")


def report_agreement(paths, digits_results, python_results, one_core_results, truth):
    d2, d1, py = (aligned(r, paths) for r in (digits_results, one_core_results, python_results))
    disagreements = [(path, d, p) for path, d, p in zip(paths, d2, py) if d is None or d != p]
    same = len(paths) - len(disagreements)
    print(f"digits (2 cores) and Python agree on {same} of {len(paths)} files ({100 * same / len(paths):.2f}%; "
          "same digit, or both no digit)")
    print(f"digits on 1 core and on 2 cores agree on {sum(a == b for a, b in zip(d1, d2))} of {len(paths)} files")
    if truth:
        expected = [truth.get(os.path.basename(p), (None, None))[1] for p in paths]
        for name, found in (("digits", d2), ("Python", py)):
            right = sum(f == e for f, e in zip(found, expected))
            print(f"{name} matches labels.tsv (the digit, or - for blank) on {right} of {len(paths)} files")
    if disagreements:
        print("\nFirst disagreements:\n")
        print("| file | kind | label | digits | Python |")
        print("|---|---|---|---|---|")
        for path, d, p in disagreements[:10]:
            kind, label = truth.get(os.path.basename(path), ("?", "?"))
            print(f"| {os.path.basename(path)} | {kind} | {label} | {d or 'missing'} | {p or 'missing'} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=3000, help="PNGs in the set when it is made")
    ap.add_argument("--runs", type=int, default=5, help="rounds (medians are reported)")
    ap.add_argument("--set", help="folder of the set: reused if it holds files.txt, else made there and kept")
    ap.add_argument("--digits", default=DIGITS, help="the digits binary")
    args = ap.parse_args()
    if not os.path.exists(args.digits):
        sys.exit(f"missing {args.digits}: build it first (see the docstring)")

    work = tempfile.mkdtemp(prefix="digits-files-benchmark-")
    try:
        folder = args.set or os.path.join(work, "set")
        paths = ensure_set(folder, args.count)
        list_path = os.path.join(work, "files.txt")
        one_list = os.path.join(work, "one.txt")
        with open(list_path, "w") as f:
            f.write("\n".join(paths) + "\n")
        with open(one_list, "w") as f:
            f.write(PNG + "\n")
        pixels = pixel_counts(paths)
        whole, single, parse, how = digits_commands(args.digits, list_path, paths)

        def out(name):
            return os.path.join(work, name + ".out")

        pin = ["taskset", "-c", "0"]
        d2, d1, py, plain = "digits, 2 cores", "digits, 1 core", "Python, 2 threads", "Python plain, 2 threads"
        # digits exits 1 when some file could not be read; the others are still classified.
        programs = [(d2, whole + ["--threads", "2"], out("d2"), (0, 1)),
                    (d1, pin + whole + ["--threads", "1"], out("d1"), (0, 1)),
                    (py, PYTHON + [MODEL, list_path, str(PYTHON_BATCH), "2"], out("py"), (0,)),
                    (plain, PYTHON + [MODEL, list_path, str(PYTHON_BATCH), "2", "plain"], out("plain"), (0,)),
                    (d2 + " start-up", single + ["--threads", "2"], out("d2-startup"), (0,)),
                    (d1 + " start-up", pin + single + ["--threads", "1"], out("d1-startup"), (0,)),
                    (py + " start-up", PYTHON + [MODEL, one_list, str(PYTHON_BATCH), "2"], out("py-startup"), (0,)),
                    (plain + " start-up", PYTHON + [MODEL, one_list, str(PYTHON_BATCH), "2", "plain"], out("plain-startup"), (0,))]
        load_before = os.getloadavg()[0]
        results = measure(programs, args.runs)

        print(f"Measured {datetime.date.today()} on {machine(args.digits)}. Model: Models/digits.pt. "
              f"Medians of {args.runs} runs. Load average (1 min) {load_before:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after.\n")
        print(f"Set: {len(paths)} mixed PNGs (Benchmarks/make_mixed_pngs.py), "
              f"{sum(os.path.getsize(p) for p in paths) / 1e6:.1f} MB; pixels per picture: "
              f"mean {statistics.mean(pixels):.0f}, max {max(pixels)}. digits classify: {how}; "
              f"Python: batch {PYTHON_BATCH}.\n")

        print("## Files per second, one process for the whole list\n")
        startups = {name: name + " start-up" for name in (d2, d1, py, plain)}
        report_rates((d2, d1, py, plain), results, startups, len(paths))
        print("\nStart-up: one PNG (Examples/seven.png) as a whole process, with the same options; "
              "steady state = files / (wall time - start-up). CPU time: user + system, all threads.\n")
        report_ratios([(d2, py), (d2, plain), (d2, d1)], results, startups)

        figures = [python_figures(r[2]) for r in results[py]]
        if figures and all("files_per_second" in f for f in figures):
            med = {key: statistics.median(f.get(key, float("nan")) for f in figures)
                   for key in ("load_seconds", "preprocess_seconds", "forward_seconds", "files_per_second")}
            print(f"\nPython, as it measures itself (medians): import torch and load the model {med['load_seconds']:.2f} s; "
                  f"then {med['files_per_second']:.1f} files/s, of which decode and preprocessing "
                  f"{med['preprocess_seconds']:.1f} s and forward passes {med['forward_seconds']:.1f} s.")

        print("\n## Agreement\n")
        with open(out("d2")) as f:
            digits_results = parse(f.read())
        with open(out("d1")) as f:
            one_core_results = parse(f.read())
        with open(out("py")) as f:
            python_results = parse_python(f.read())
        truth = labels(folder)
        report_agreement(paths, digits_results, python_results, one_core_results, truth)
        if truth:
            with open(out("plain")) as f:
                plain_results = aligned(parse_python(f.read()), paths)
            expected = [truth.get(os.path.basename(p), (None, None))[1] for p in paths]
            right = sum(f == e for f, e in zip(plain_results, expected))
            print(f"Python plain matches labels.tsv on {right} of {len(paths)} files")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
