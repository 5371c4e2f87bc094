#!/usr/bin/env python3
"""Measures what a `digits` command costs before it does anything: the whole
process, start to exit, of `digits --help`, `digits --version` and
`digits ascii Examples/seven.png` (commands that run no model and load no
libtorch), against a C++ program that only links libtorch and exits
(Benchmarks/startup/links_libtorch.cpp, built here with the flags of
digits-libtorch.pc and --no-as-needed so that libtorch is really loaded).
`digits classify Examples/seven.png`, which loads libtorch and the model, is
shown for scale. Prints a markdown table; asserts nothing. On demand, not
part of CI:

    swift build -c release
    /usr/bin/python3 Benchmarks/startup_benchmark.py [--rounds 30] [--digits .build/release/digits]
        [--before OLD_DIGITS]

Each round runs every command once, in turn, so that drift on a noisy
machine affects all alike. Wall time from fork to exit (time.perf_counter
around the child; stdout to /dev/null) and peak resident memory (the child's
ru_maxrss from wait4); medians over the rounds; ratio = the command's median
time / the C++ program's.
"""

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def build_reference(folder):
    """Compiles links_libtorch.cpp against the libtorch digits uses."""
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "digits-libtorch"],
                           check=True, capture_output=True, text=True).stdout.split()
    program = os.path.join(folder, "links_libtorch")
    compiler = shutil.which("c++") or shutil.which("clang++")
    subprocess.run([compiler, "-O2", "-std=c++17", "-o", program,
                    os.path.join(ROOT, "Benchmarks", "startup", "links_libtorch.cpp"),
                    "-Wl,--no-as-needed"] + flags, check=True)
    needed = subprocess.run(["readelf", "-d", program], check=True, capture_output=True, text=True).stdout
    if "libtorch" not in needed:
        sys.exit("startup_benchmark: the reference program does not load libtorch")
    return program


def run_once(argv):
    """(seconds, peak RSS in MB) of one whole process."""
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=null, stderr=null, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"startup_benchmark: {' '.join(argv)} exited {child.returncode}")
    return elapsed, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--digits", default=os.path.join(ROOT, ".build", "release", "digits"))
    parser.add_argument("--before", metavar="PATH",
                        help="another digits binary (say, one built from an older commit) measured alongside")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        reference = build_reference(folder)
        seven = os.path.join(ROOT, "Examples", "seven.png")
        commands = [
            ("C++ program that only links libtorch", [reference]),
            ("`digits --help`", [args.digits, "--help"]),
            ("`digits --version`", [args.digits, "--version"]),
            ("`digits ascii Examples/seven.png`", [args.digits, "ascii", seven]),
            ("`digits classify Examples/seven.png` (loads libtorch and the model)", [args.digits, "classify", seven]),
        ]
        if args.before:
            commands += [
                (f"before: `digits --help`", [args.before, "--help"]),
                (f"before: `digits --version`", [args.before, "--version"]),
                (f"before: `digits ascii Examples/seven.png`", [args.before, "ascii", seven]),
                (f"before: `digits classify Examples/seven.png`", [args.before, "classify", seven]),
            ]
        for _, argv in commands:  # warm the page cache
            run_once(argv)
        times = {name: [] for name, _ in commands}
        memory = {name: [] for name, _ in commands}
        for _ in range(args.rounds):
            for name, argv in commands:
                seconds, megabytes = run_once(argv)
                times[name].append(seconds)
                memory[name].append(megabytes)

    version = subprocess.run([args.digits, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{version}; {platform.machine()}, {os.cpu_count()} cores; {args.rounds} rounds, medians\n")
    print("| process | time | ratio to the C++ program | peak RSS |")
    print("|---|---:|---:|---:|")
    base = statistics.median(times[commands[0][0]])
    for name, _ in commands:
        median = statistics.median(times[name])
        print(f"| {name} | {median * 1000:.1f} ms | {median / base:.3f}x | {statistics.median(memory[name]):.1f} MB |")


if __name__ == "__main__":
    main()
