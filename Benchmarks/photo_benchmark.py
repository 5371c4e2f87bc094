#!/usr/bin/env python3
"""A 12-megapixel phone photo, decoded and preprocessed: digits against a
Pillow + numpy implementation of the same steps, side by side in one run.

    swift build -c release && /usr/bin/python3 Benchmarks/photo_benchmark.py [--rounds N]

Makes two 4000x3000 JPEGs (quality 90, 4:2:0; one baseline, one progressive)
from a photo fixture, enlarged, with a camera's grain, in a temporary folder.
digits: `preprocess-benchmark` (median of 7 rounds of at least 0.3 s) with
the decoder `digits classify` uses, which decodes a large JPEG at 1/2, 1/4 or
1/8 size in the DCT domain when the analysis (512 px) needs no more. Python:
Pillow's `draft` (the same DCT-domain scaling, through the same libjpeg-turbo),
`exif_transpose`, `convert("L")`, then Tests/Tools/reference_preprocess.py's
steps (numpy) with scipy's labelling (as Benchmarks/python_files_baseline.py
does); the median of --rounds calls. Needs Debian's python3-pil, -numpy and
-scipy; no torch.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from PIL import Image, ImageOps

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
import python_files_baseline  # noqa: E402,F401  (scipy labelling for the reference)
import reference_preprocess  # noqa: E402

SOURCE = os.path.join(ROOT, "Tests/Fixtures/photos/shadow-012-8.jpg")


def make_photo(path, progressive):
    rng = np.random.default_rng(12)
    big = Image.open(SOURCE).convert("RGB").resize((4000, 3000), Image.LANCZOS)
    pixels = np.asarray(big, dtype=np.float32) + rng.normal(0, 3, (3000, 4000, 1)).astype(np.float32)
    Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(
        path, quality=90, subsampling="4:2:0", progressive=progressive)


def python_pipeline(path):
    image = Image.open(path)
    image.draft("L", (image.width // 4, image.height // 4))
    gray = np.asarray(ImageOps.exif_transpose(image).convert("L"))
    return reference_preprocess.field_from_gray(gray)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--digits-benchmark", default=os.path.join(ROOT, ".build/release/preprocess-benchmark"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        photos = []
        for name, progressive in (("photo-4000x3000-baseline.jpg", False), ("photo-4000x3000-progressive.jpg", True)):
            path = os.path.join(folder, name)
            make_photo(path, progressive)
            photos.append(path)
        out = subprocess.run([args.digits_benchmark, *photos], capture_output=True, text=True, check=True).stdout
        swift = {}
        for line in out.splitlines():
            match = re.match(r"\| (\S+) \(decoded at (\d+x\d+)\) \|\s*([\d.]+) µs.*?\|\s*([\d.]+) µs", line)
            if match:
                swift[match.group(1)] = (match.group(2), float(match.group(3)) / 1000, float(match.group(4)) / 1000)
        print("| photo (4000x3000, q90) | size | digits: decode | digits: decode + pipeline | Python: decode + pipeline | ratio |")
        print("|---|---:|---:|---:|---:|---:|")
        for path in photos:
            python_pipeline(path)  # warm up
            times = []
            for _ in range(args.rounds):
                start = time.perf_counter()
                python_pipeline(path)
                times.append((time.perf_counter() - start) * 1000)
            python_ms = statistics.median(times)
            name = os.path.basename(path)
            size, decode_ms, pipeline_ms = swift[name]
            print(f"| {name} | {os.path.getsize(path) / 1e6:.2f} MB | {decode_ms:.1f} ms (at {size}) | "
                  f"{pipeline_ms:.1f} ms | {python_ms:.1f} ms | {python_ms / pipeline_ms:.1f}x |")


if __name__ == "__main__":
    main()
