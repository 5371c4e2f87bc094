#!/usr/bin/env python3
"""Compares TorchScript model files in our own runtime, side by side in one
run: `digits eval` forward-only throughput at batch 1 and 256 (1 thread), and
`digits classify` of one PNG as a whole process (load + probe + forward).

    python3 Benchmarks/compare_models.py MODEL.pt [MODEL.pt ...] [--runs 5] [--count 1000]
"""

import argparse
import json
import os
import statistics
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DIGITS = os.path.join(ROOT, ".build/release/digits")
IMAGES = os.path.join(ROOT, "Tests/Fixtures/mnist/t10k-images-idx3-ubyte.gz")
LABELS = os.path.join(ROOT, "Tests/Fixtures/mnist/t10k-labels-idx1-ubyte.gz")
PNG = os.path.join(ROOT, "Examples/seven.png")


def forward_rate(model, batch, count):
    out = subprocess.run([DIGITS, "eval", "--model", model, "--images", IMAGES, "--labels", LABELS, "--batch", str(batch),
                          "--threads", "1", "--limit", str(count), "--json"], capture_output=True, text=True, check=True).stdout
    report = json.loads(out)
    return report["forward_images_per_second"], report["accuracy"]


def classify_seconds(model):
    start = time.perf_counter()
    subprocess.run([DIGITS, "classify", "--model", model, PNG], capture_output=True, check=True)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--count", type=int, default=1000)
    args = ap.parse_args()
    rows = {m: {"b1": [], "b256": [], "ttfr": [], "acc": None} for m in args.models}
    for _ in range(args.runs):
        for model in args.models:  # interleaved, so drift affects all alike
            rate1, _ = forward_rate(model, 1, args.count // 4)
            rate256, accuracy = forward_rate(model, 256, args.count)
            rows[model]["b1"].append(rate1)
            rows[model]["b256"].append(rate256)
            rows[model]["ttfr"].append(classify_seconds(model))
            rows[model]["acc"] = accuracy
    first = args.models[0]
    base = {k: statistics.median(rows[first][k]) for k in ("b1", "b256", "ttfr")}
    print(f"| model | forward images/s, batch 1 | vs first | batch 256 | vs first | classify one PNG | vs first | accuracy (first {args.count}) |")
    print("|---|---|---|---|---|---|---|---|")
    for model in args.models:
        m = {k: statistics.median(rows[model][k]) for k in ("b1", "b256", "ttfr")}
        print(f"| {os.path.relpath(model, ROOT) if model.startswith(ROOT) else model} | {m['b1']:.0f} | {m['b1'] / base['b1']:.2f} | "
              f"{m['b256']:.0f} | {m['b256'] / base['b256']:.2f} | {m['ttfr'] * 1000:.0f} ms | {m['ttfr'] / base['ttfr']:.2f} | "
              f"{rows[model]['acc'] * 100:.2f}% |")


if __name__ == "__main__":
    main()
