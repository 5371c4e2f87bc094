#!/usr/bin/env python3
"""Measures what a `digits` command costs before it does anything: the whole
process, start to exit, of `digits --help` and `digits --version` (which load
no libtorch) and `digits ascii Examples/seven.png` (which runs the ink locator
since 0.10.0), against a C++ program that only links libtorch and exits
(Benchmarks/startup/links_libtorch.cpp, built here with the flags of
digits-libtorch.pc and --no-as-needed so that libtorch is really loaded).
`digits classify Examples/seven.png`, which loads libtorch and the models, is
shown for scale, and again with OPENBLAS_NUM_THREADS set to the cores: the
thread pool OpenBLAS starts when nothing sets it, as before 0.32.3. Prints a
markdown table; asserts nothing. On demand, not part of CI:

    swift build -c release
    /usr/bin/python3 Benchmarks/startup_benchmark.py [--rounds 30] [--digits .build/release/digits]
        [--before OLD_DIGITS]

Each round runs every command once, in turn, so that drift on a noisy
machine affects all alike. Wall time from fork to exit (time.perf_counter
around the child; stdout to /dev/null) and peak resident memory (the child's
ru_maxrss from wait4), and CPU time (its user + system time from wait4);
medians over the rounds; ratio = the command's median time / the C++
program's.
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


def run_once(argv, environment=None):
    """(seconds, peak RSS in MB, CPU seconds) of one whole process."""
    with open(os.devnull, "wb") as null:
        start = time.perf_counter()
        child = subprocess.Popen(argv, stdout=null, stderr=null, cwd=ROOT, env=environment)
        _, status, usage = os.wait4(child.pid, 0)
        elapsed = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(f"startup_benchmark: {' '.join(argv)} exited {child.returncode}")
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


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
        own = {name: value for name, value in os.environ.items() if name != "OPENBLAS_NUM_THREADS"}
        pool = dict(own, OPENBLAS_NUM_THREADS=str(os.cpu_count()))
        commands = [
            ("C++ program that only links libtorch", [reference]),
            ("`digits --help`", [args.digits, "--help"]),
            ("`digits --version`", [args.digits, "--version"]),
            ("`digits ascii Examples/seven.png`", [args.digits, "ascii", seven]),
            ("`digits classify Examples/seven.png` (loads libtorch and the model)", [args.digits, "classify", seven]),
            (f"the same with OPENBLAS_NUM_THREADS={os.cpu_count()}", [args.digits, "classify", seven], pool),
        ]
        if args.before:
            commands += [
                (f"before: `digits --help`", [args.before, "--help"]),
                (f"before: `digits --version`", [args.before, "--version"]),
                (f"before: `digits ascii Examples/seven.png`", [args.before, "ascii", seven]),
                (f"before: `digits classify Examples/seven.png`", [args.before, "classify", seven]),
            ]
        commands = [(name, argv, environment[0] if environment else own) for name, argv, *environment in commands]
        for _, argv, environment in commands:  # warm the page cache
            run_once(argv, environment)
        times = {name: [] for name, _, _ in commands}
        memory = {name: [] for name, _, _ in commands}
        cpu = {name: [] for name, _, _ in commands}
        for _ in range(args.rounds):
            for name, argv, environment in commands:
                seconds, megabytes, cpu_seconds = run_once(argv, environment)
                times[name].append(seconds)
                memory[name].append(megabytes)
                cpu[name].append(cpu_seconds)

    version = subprocess.run([args.digits, "--version"], capture_output=True, text=True).stdout.strip()
    print(f"{version}; {platform.machine()}, {os.cpu_count()} cores; {args.rounds} rounds, medians\n")
    print("| process | time | ratio to the C++ program | peak RSS | CPU time |")
    print("|---|---:|---:|---:|---:|")
    base = statistics.median(times[commands[0][0]])
    for name, _, _ in commands:
        median = statistics.median(times[name])
        print(f"| {name} | {median * 1000:.1f} ms | {median / base:.3f}x | {statistics.median(memory[name]):.1f} MB"
              f" | {statistics.median(cpu[name]) * 1000:.1f} ms |")


if __name__ == "__main__":
    main()
