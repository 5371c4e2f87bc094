#!/usr/bin/env python3
"""Measures, in one run on one machine with one model, digits against the
C++ floor (libtorch alone) and against the Python a user would otherwise
write, and prints markdown tables with ratios (the source of BENCHMARKS.md).
On demand, not part of CI:

    swift build -c release --product digits
    cmake -S . -B .build-cmake -DCMAKE_BUILD_TYPE=Release && cmake --build .build-cmake --target digits_floor
    /usr/bin/python3 Benchmarks/run_benchmarks.py [--count 2000] [--runs 7]

(a) throughput: `digits eval` end to end and forward only, at batch 1 and 256,
    on 1 and 2 threads; (b) the C++ floor's forward passes on pre-built tensors;
(c) Python: torch.jit.load and a torchvision transform loop, end to end;
(d) time to first result for one PNG as a whole process, and peak RSS.
The three throughput programs run interleaved, so drift on a noisy machine
affects them alike.
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DIGITS = os.path.join(ROOT, ".build/release/digits")
FLOOR = os.path.join(ROOT, ".build-cmake/digits_floor")
PYTHON = [sys.executable, os.path.join(ROOT, "Benchmarks/python_baseline.py")]
MODEL = os.path.join(ROOT, "Models/digits.pt")
IMAGES = os.path.join(ROOT, "Tests/Fixtures/mnist/t10k-images-idx3-ubyte.gz")
LABELS = os.path.join(ROOT, "Tests/Fixtures/mnist/t10k-labels-idx1-ubyte.gz")
PNG = os.path.join(ROOT, "Examples/seven.png")


def run(command):
    """(stdout, wall seconds, peak RSS in MB) of one process."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    out = process.stdout.read()
    if status != 0:
        sys.exit(f"failed: {' '.join(command)}\n{process.stderr.read()}")
    return out, wall, usage.ru_maxrss / 1024


def rate(out):
    return float(out.split()[-1])


def machine():
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    version = subprocess.run([DIGITS, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    return f"{os.cpu_count()} cores, {cpu}, {platform.system()} {platform.release()}; {version}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=2000, help="images per throughput run")
    ap.add_argument("--runs", type=int, default=7, help="runs per measurement (the median is reported)")
    args = ap.parse_args()
    for path in (DIGITS, FLOOR):
        if not os.path.exists(path):
            sys.exit(f"missing {path}: build it first (see the docstring)")

    print(f"Measured {datetime.date.today()} on {machine()}. Model: Models/digits.pt. "
          f"Medians of {args.runs} runs; {args.count} MNIST test images per throughput run.\n")

    print("## Throughput (images per second)\n")
    print("| batch | threads | C++ floor, forward only | digits eval, forward only | digits eval, end to end | end to end / floor | Python, end to end | Python / floor |")
    print("|---|---|---|---|---|---|---|---|")
    for batch in (1, 256):
        for threads in (1, 2):
            floor, e2e, forward, python, ratio, python_ratio = [], [], [], [], [], []
            for _ in range(args.runs):
                floor.append(rate(run([FLOOR, "throughput", MODEL, IMAGES, str(batch), str(threads), str(args.count)])[0]))
                report = json.loads(run([DIGITS, "eval", "--model", MODEL, "--images", IMAGES, "--labels", LABELS, "--batch", str(batch),
                                         "--threads", str(threads), "--limit", str(args.count), "--json"])[0])
                e2e.append(report["images_per_second"])
                forward.append(report["forward_images_per_second"])
                python.append(rate(run(PYTHON + ["throughput", MODEL, IMAGES, str(batch), str(threads), str(args.count)])[0]))
                # Ratios within one round: the three ran back to back, under the same load.
                ratio.append(e2e[-1] / floor[-1])
                python_ratio.append(python[-1] / floor[-1])
            f, d, dfw, p, r, pr = (statistics.median(v) for v in (floor, e2e, forward, python, ratio, python_ratio))
            print(f"| {batch} | {threads} | {f:.0f} | {dfw:.0f} | {d:.0f} | {r:.2f} | {p:.0f} | {pr:.2f} |")

    print("\n## Time to first result: classify one 28x28 PNG, whole process\n")
    print("| program | wall time (median) | / floor | peak RSS |")
    print("|---|---|---|---|")
    programs = [("C++ floor (libtorch + libpng)", [FLOOR, "classify", MODEL, PNG]),
                ("digits classify", [DIGITS, "classify", "--model", MODEL, PNG]),
                ("Python (torch + torchvision)", PYTHON + ["classify", MODEL, PNG])]
    results = {name: [] for name, _ in programs}
    for _ in range(args.runs):
        for name, command in programs:
            results[name].append(run(command))
    floor_wall = statistics.median(r[1] for r in results[programs[0][0]])
    for name, _ in programs:
        wall = statistics.median(r[1] for r in results[name])
        rss = max(r[2] for r in results[name])
        print(f"| {name} | {wall * 1000:.0f} ms | {wall / floor_wall:.2f} | {rss:.0f} MB |")


if __name__ == "__main__":
    main()
