#!/usr/bin/env python3
"""Measures `digits stream` on synthetic camera clips: how many frames a
second it analyses on one thread, against the plain Python loop a user would
otherwise write (Benchmarks/python_stream_baseline.py: numpy/scipy reference
preprocessing and the TorchScript model, 1 thread), and how soon it reports a
digit when the frames arrive live at 30 frames per second. Prints markdown
tables; asserts nothing. On demand, not part of CI:

    swift build -c release --product digits
    /usr/bin/python3 Benchmarks/stream_benchmark.py --mnist MNIST_DIR [--rounds 3] [--repeat 3]
        [--latency-runs 2] [--latency-repeat 6] [--settle 2] [--skip-latency] [--keep DIR] [--digits PATH] [--model PATH]

MNIST_DIR holds the MNIST test IDX files. The clips are y4m-mono "scenario"
clips from Tests/Tools/make_stream_clips.py (seed 1: MNIST digits held up,
swapped, occluded and taken away in the centre of the frame), made into a
temporary folder (removed at the end), or into DIR with --keep, where they are
kept and reused by later runs.

Frames per second, at 320x240, 640x480 and 1280x720 (one clip of --repeat 3,
175 frames, each): each round runs, back to back so that drift on a noisy
machine affects both alike, `digits stream --json CLIP` (a regular file, so
every frame is analysed; libtorch on 1 thread, the analysis on one thread
plus a reader thread that only reads bytes) and the Python baseline on the
same clip. digits' figure is the fps of its end line, Python's the
frames_per_second it prints: both are frames analysed over the seconds from
the first frame read to the last analysed (process start-up and model load
excluded). Medians over the rounds; ratio = digits / Python. As a check that
both did the same work, the digit and clear events of digits are compared
with the events the clip was made to produce, and with those that Python's
per-frame readings give under the same stability rule (a digit after 3
consecutive frames read it with probability >= 0.8, a clear after 3 without;
digits prints events, not per-frame readings, so only Python's frames with a
digit can be counted).

Latency at 30 frames per second, at 640x480 and 1280x720 (clips of
--latency-repeat 6, 351 frames, about 12 s): a pacer thread writes the clip
(read into memory first) into `digits stream --json -` through a pipe, the
header and the first frame at once, then frame i at t0 + i/30 s (time.perf_counter, sleeping until each
deadline), t0 being --settle seconds (default 2) after the first frame's write returned: digits reads
frames while it loads its models, so without the wait the load would count as the first event's
latency, and the frames written meanwhile as dropped. From a pipe digits analyses only
the newest frame when busy; "dropped" (end line) counts the frames it
skipped. latency_ms (digits' own figure, from the moment the frame's last
byte was read to the event) is summarised over the digit events of all runs;
"end to end" is measured here, from the start of the write of the event's
frame to the arrival of the event line. The pacer's lateness (how far behind
its schedule a write started) is printed so that a slow writer is not
mistaken for a slow digits.
"""

import argparse
import datetime
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DIGITS = os.path.join(ROOT, ".build/release/digits")
MODEL = os.path.join(ROOT, "Models/digits.pt")
MAKE_CLIP = [sys.executable, os.path.join(ROOT, "Tests/Tools/make_stream_clips.py")]
PYTHON = [sys.executable, os.path.join(ROOT, "Benchmarks/python_stream_baseline.py")]

RATE_SIZES = ("320x240", "640x480", "1280x720")
LATENCY_SIZES = ("640x480", "1280x720")
SEED = 1
PACE_FPS = 30.0
# digits stream's defaults (--stable, --uncertain-below), for the Python events.
STABLE_FRAMES = 3
UNCERTAIN_BELOW = 0.8


def machine(digits):
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    version = subprocess.run([digits, "--version"], capture_output=True, text=True, check=True).stdout.strip()
    return (f"{os.cpu_count()} cores ({len(os.sched_getaffinity(0))} available to this process), {cpu}, "
            f"{platform.system()} {platform.release()}; {version}")


def load_average():
    return "/".join(f"{value:.2f}" for value in os.getloadavg())


def make_clip(mnist, folder, size, repeat):
    """The path of the y4m-mono scenario clip of this size and repeat in `folder`, made unless it is there."""
    path = os.path.join(folder, f"scenario-{size}-r{repeat}-s{SEED}.y4m")
    if not (os.path.exists(path) and os.path.exists(path + ".events.json")):
        subprocess.run(MAKE_CLIP + ["--mnist", mnist, "--clip", "scenario", "--size", size, "--format", "y4m-mono",
                                    "--seed", str(SEED), "--repeat", str(repeat), "--out", path],
                       check=True, stdout=sys.stderr)
    return path


def expected_events(clip):
    """[(event, digit or None)] the clip was made to produce (make_stream_clips.py's events file)."""
    with open(clip + ".events.json") as f:
        return [(e["event"], e.get("digit")) for e in json.load(f)["events"]]


def run_digits_file(digits, model, clip):
    """(end line, digit and clear events) of `digits stream --json CLIP`."""
    done = subprocess.run([digits, "stream", "--json", "--model", model, clip], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"digits stream failed ({done.returncode}) on {clip}:\n{done.stderr[-2000:]}")
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    ends = [line for line in lines if line["event"] == "end"]
    if not ends:
        sys.exit(f"digits stream printed no end line on {clip}")
    return ends[-1], [line for line in lines if line["event"] in ("digit", "clear")]


def run_python(model, clip):
    """(frames per second, [(frame, digit or None, confidence)]) of the Python baseline."""
    done = subprocess.run(PYTHON + [model, clip], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"the Python baseline failed ({done.returncode}) on {clip}:\n{done.stderr[-2000:]}")
    figures = dict(line.split(None, 1) for line in done.stderr.splitlines() if len(line.split()) == 2)
    if "frames_per_second" not in figures:
        sys.exit(f"the Python baseline printed no frames_per_second:\n{done.stderr[-2000:]}")
    readings = []
    for line in done.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) == 3:
            readings.append((int(fields[0]), int(fields[1]), float(fields[2])))
        elif len(fields) == 2:
            readings.append((int(fields[0]), None, 0.0))
    return float(figures["frames_per_second"]), readings


def tracked_events(readings):
    """The events of digits' StabilityTracker (default --stable and --uncertain-below) for per-frame readings:
    [(event, digit or None, frame)]."""
    events = []
    reported = candidate = None
    run = absent = 0
    for frame, digit, confidence in readings:
        if digit is None or confidence < UNCERTAIN_BELOW:
            candidate, run = None, 0
            absent += 1
            if reported is not None and absent >= STABLE_FRAMES:
                reported = None
                events.append(("clear", None, frame))
            continue
        absent = 0
        run = run + 1 if candidate == digit else 1
        candidate = digit
        if run >= STABLE_FRAMES and reported != digit:
            reported = digit
            events.append(("digit", digit, frame))
    return events


def measure_rates(args, clips):
    """size -> {"digits": [fps], "python": [fps], "end": end line, "events": digits' events, "readings": Python's},
    digits and Python interleaved on each clip in every round."""
    results = {size: {"digits": [], "python": []} for size in clips}
    for round_number in range(args.rounds):
        for size, clip in clips.items():
            end, events = run_digits_file(args.digits, args.model, clip)
            fps, readings = run_python(args.model, clip)
            result = results[size]
            result["digits"].append(float(end["fps"]))
            result["python"].append(fps)
            result.update(end=end, events=events, readings=readings)
            print(f"round {round_number + 1}/{args.rounds} {size}: digits {end['fps']:.1f} fps, "
                  f"Python {fps:.1f} fps", file=sys.stderr)
    return results


def report_rates(results, rounds):
    print("| size | frames | digits fps | Python fps | ratio |")
    print("|---|---|---|---|---|")
    for size, result in results.items():
        digits, python = statistics.median(result["digits"]), statistics.median(result["python"])
        print(f"| {size} | {result['end']['analysed']} | {digits:.1f} | {python:.1f} | {digits / python:.2f} |")
    print(f"\nMedians of {rounds} rounds. Every round, digits then Python:\n")
    for size, result in results.items():
        print(f"- {size}: digits " + ", ".join(f"{v:.1f}" for v in result["digits"])
              + "; Python " + ", ".join(f"{v:.1f}" for v in result["python"]))


def report_agreement(results, clips):
    print("| size | Python: frames with a digit (p >= 0.8) | digits: digit / clear events | "
          "same events as the clip's | same events as Python's readings give |")
    print("|---|---|---|---|---|")
    for size, result in results.items():
        readings = result["readings"]
        found = sum(digit is not None for _, digit, _ in readings)
        confident = sum(digit is not None and p >= UNCERTAIN_BELOW for _, digit, p in readings)
        ours = [(e["event"], e.get("digit"), e["frame"]) for e in result["events"]]
        theirs = tracked_events(readings)
        expected = expected_events(clips[size])
        same_as_clip = [(kind, digit) for kind, digit, _ in ours] == expected
        same_as_python = ours == theirs
        digit_events = sum(kind == "digit" for kind, _, _ in ours)
        print(f"| {size} | {found} of {len(readings)} ({confident}) | {digit_events} / {len(ours) - digit_events} | "
              f"{'yes' if same_as_clip else 'no'} ({len(expected)} events) | "
              f"{'yes' if same_as_python else 'no'} (frame and digit of {len(theirs)} events) |")
        if not same_as_python:
            print(f"\n{size}: digits {ours}\nPython {theirs}\n")


class Y4MFrames:
    """A y4m-mono clip read into memory (so that no page of it has to come from the disk while the
    pacer is on the clock): its header line and each frame's bytes ("FRAME...\\n" + plane)."""

    def __init__(self, path):
        with open(path, "rb") as f:
            self.data = memoryview(f.read())
        end = self.data.obj.find(b"\n") + 1
        self.header = self.data[:end]
        tokens = bytes(self.header).split()
        if tokens[0] != b"YUV4MPEG2" or b"Cmono" not in tokens:
            sys.exit(f"{path}: not a y4m-mono clip")
        width = next(int(t[1:]) for t in tokens if t.startswith(b"W"))
        height = next(int(t[1:]) for t in tokens if t.startswith(b"H"))
        self.spans = []
        while end < len(self.data):
            start = end
            end = self.data.obj.find(b"\n", start) + 1 + width * height
            self.spans.append((start, end))

    def __len__(self):
        return len(self.spans)

    def frame(self, index):
        start, end = self.spans[index]
        return self.data[start:end]


def write_all(fd, data):
    while data:
        data = data[os.write(fd, data):]


def paced_run(digits, model, frames, settle):
    """One paced run: (end line, [(event, arrival time)], [write start time per frame], [lateness per frame])."""
    process = subprocess.Popen([digits, "stream", "--json", "--model", model, "-"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    starts, lateness = [0.0] * len(frames), [0.0] * len(frames)
    failure = []

    def pace():
        fd = process.stdin.fileno()
        try:
            write_all(fd, frames.header)
            starts[0] = time.perf_counter()
            write_all(fd, frames.frame(0))
            # digits reads frames while it loads its models (a camera's frames do
            # not wait): give it the time to load before the clock starts, so
            # that the load is not counted as the first event's latency.
            time.sleep(settle)
            t0 = time.perf_counter()
            for index in range(1, len(frames)):
                deadline = t0 + index / PACE_FPS
                wait = deadline - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                starts[index] = time.perf_counter()
                lateness[index] = starts[index] - deadline
                write_all(fd, frames.frame(index))
        except OSError as error:
            failure.append(error)
        finally:
            process.stdin.close()

    pacer = threading.Thread(target=pace)
    pacer.start()
    events = []
    for line in process.stdout:
        arrival = time.perf_counter()
        if line.strip():
            events.append((json.loads(line), arrival))
    pacer.join()
    stderr = process.stderr.read().decode(errors="replace")
    if process.wait() != 0 or failure:
        sys.exit(f"paced digits stream failed ({process.returncode}, {failure}):\n{stderr[-2000:]}")
    ends = [event for event, _ in events if event["event"] == "end"]
    if not ends:
        sys.exit("paced digits stream printed no end line")
    return ends[-1], [(e, t) for e, t in events if e["event"] != "end"], starts, lateness


def percentile(values, q):
    """Nearest-rank percentile: the smallest value with at least q of the values at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)]


def measure_latency(args, clips):
    print("| size | runs x frames | events (digit / clear) | latency_ms p50 / p95 / max | "
          "end to end p50 / p95 / max | dropped | fps (end line) | pacer late: max (frames > 1 frame late) |")
    print("|---|---|---|---|---|---|---|---|")
    for size, clip in clips.items():
        frames = Y4MFrames(clip)
        latencies, end_to_end, dropped, fps, late = [], [], [], [], []
        digit_count = clear_count = 0
        for run_number in range(args.latency_runs):
            end, events, starts, lateness = paced_run(args.digits, args.model, frames, args.settle)
            for event, arrival in events:
                if event["event"] == "digit":
                    digit_count += 1
                    latencies.append(float(event["latency_ms"]))
                    end_to_end.append(1000 * (arrival - starts[event["frame"]]))
                else:
                    clear_count += 1
            dropped.append(end["dropped"])
            fps.append(float(end["fps"]))
            late.extend(lateness)
            print(f"paced run {run_number + 1}/{args.latency_runs} {size}: {len(events)} events, "
                  f"dropped {end['dropped']}, fps {end['fps']}, pacer late by up to {1000 * max(lateness):.1f} ms",
                  file=sys.stderr)
        behind = sum(value > 1 / PACE_FPS for value in late)

        def summary(values):
            return " / ".join(f"{percentile(values, q):.2f}" for q in (0.5, 0.95, 1.0)) if values else "-"

        print(f"| {size} | {args.latency_runs} x {len(frames)} | {digit_count} / {clear_count} | "
              f"{summary(latencies)} ms | {summary(end_to_end)} ms | {', '.join(map(str, dropped))} | "
              f"{', '.join(f'{v:.1f}' for v in fps)} | {1000 * max(late):.2f} ms ({behind}) |")
    print(f"\nPercentiles (nearest rank) over the digit events of all runs, each size on its own "
          f"(the number of latencies = digit events). Frames written at {PACE_FPS:.0f} per second; "
          "dropped and fps per run. The pacer writes late when a write blocks or the script is not "
          "scheduled; a frame more than a frame interval late is followed by a burst, which makes "
          "digits drop frames that a camera would not have sent.")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mnist", required=True, help="folder with the MNIST test IDX files, to make the clips")
    ap.add_argument("--digits", default=DIGITS, help="the digits binary (default: .build/release/digits)")
    ap.add_argument("--model", default=MODEL, help="TorchScript model (default: Models/digits.pt)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the frames-per-second runs (medians are reported)")
    ap.add_argument("--repeat", type=int, default=3, help="scenario repeats in the frames-per-second clips")
    ap.add_argument("--latency-runs", type=int, default=2, help="paced runs per size")
    ap.add_argument("--latency-repeat", type=int, default=6, help="scenario repeats in the paced clips")
    ap.add_argument("--settle", type=float, default=2.0, help="seconds given to digits to load its models before the paced frames")
    ap.add_argument("--skip-latency", action="store_true", help="only the frames-per-second table")
    ap.add_argument("--keep", metavar="DIR", help="make the clips in DIR and keep them (reused when there)")
    args = ap.parse_args()
    if not os.path.exists(args.digits):
        sys.exit(f"missing {args.digits}: build it first (see the docstring)")
    if args.rounds < 1 or args.latency_runs < 1:
        ap.error("--rounds and --latency-runs must be at least 1")

    work = tempfile.mkdtemp(prefix="digits-stream-benchmark-")
    try:
        folder = args.keep or work
        os.makedirs(folder, exist_ok=True)
        rate_clips = {size: make_clip(args.mnist, folder, size, args.repeat) for size in RATE_SIZES}
        latency_clips = {} if args.skip_latency else {
            size: make_clip(args.mnist, folder, size, args.latency_repeat) for size in LATENCY_SIZES}

        load_before = load_average()
        results = measure_rates(args, rate_clips)

        print(f"Measured {datetime.date.today()} on {machine(args.digits)}. "
              f"Model: {os.path.relpath(args.model, ROOT)}. Load average (1/5/15 min) at the start {load_before}.\n")
        print(f"Clips: make_stream_clips.py --clip scenario --format y4m-mono --seed {SEED}; "
              f"--repeat {args.repeat} for frames per second, --repeat {args.latency_repeat} for latency. "
              "Region of interest: the default, the centre square of half the shorter side.\n")
        print("## Frames analysed per second, 1 thread (digits from a file, every frame)\n")
        report_rates(results, args.rounds)
        print("\n## Same work\n")
        report_agreement(results, rate_clips)

        if latency_clips:
            print(f"\n## Latency, frames piped in at {PACE_FPS:.0f} per second\n")
            measure_latency(args, latency_clips)
        print(f"\nLoad average (1/5/15 min) at the end {load_average()}.")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
