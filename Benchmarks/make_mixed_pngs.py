#!/usr/bin/env python3
"""Makes the input set of Benchmarks/files_benchmark.py: a few thousand PNGs
of the kinds users really have, drawn by the real-world test fixture
generator (Tests/Tools/make_realworld_fixtures.py, whose functions this
imports) from MNIST *test* digits, at their natural random sizes and in
about the proportions of that generator's COUNTS. Run with Debian's
python3-pil and python3-numpy (and the fonts of scripts/install-deps --dev):

    /usr/bin/python3 Benchmarks/make_mixed_pngs.py [--count 3000] [--seed 20261122] OUT_DIR

Writes into OUT_DIR (give a temporary folder: the set is not part of the
repository) the PNGs, labels.tsv (file, kind, label or -) and files.txt (the
absolute path of each PNG, one a line, in a shuffled order of kinds), and
prints the mean and max pixel count of the set.

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import argparse
import os
import sys

import numpy as np
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Tests/Tools"))
sys.path.insert(0, os.path.join(ROOT, "Models"))
import make_realworld_fixtures as fixtures  # noqa: E402
import mnist_idx  # noqa: E402

MNIST = os.path.join(ROOT, "../shared/datasets/mnist")
FORMAT_VARIANTS = ["palette", "gray", "gray16", "rgb16", "interlaced"]


def kind_counts(total):
    """fixtures.COUNTS scaled to `total`, largest remainders first."""
    weight = sum(fixtures.COUNTS.values())
    exact = {kind: total * n / weight for kind, n in fixtures.COUNTS.items()}
    counts = {kind: int(x) for kind, x in exact.items()}
    for kind in sorted(exact, key=lambda k: counts[k] - exact[k])[:total - sum(counts.values())]:
        counts[kind] += 1
    return counts


def draw(kind, i, path, digit28, label, rng, font_paths):
    """Draws the i-th picture of `kind` with the fixture generator's functions."""
    if kind == "paper":
        fixtures.make_paper(path, digit28, rng)
    elif kind == "transparent":
        fixtures.make_transparent(path, digit28, rng)
    elif kind == "formats":
        fixtures.make_formats(path, digit28, rng, FORMAT_VARIANTS[i % len(FORMAT_VARIANTS)])
    elif kind == "negative":
        fixtures.make_negative(path, digit28, rng)
    elif kind == "strokes":
        fixtures.make_strokes(path, digit28, rng, thick=i % 2 == 0)
    elif kind == "printed":
        fixtures.make_printed(path, label, rng, font_paths[i % len(font_paths)])
    else:
        fixtures.make_blank(path, rng)


def make_set(out, count, seed):
    """Writes the set; returns the pixel count of each picture."""
    images, labels = mnist_idx.load_split(MNIST, "t10k")
    rng = np.random.default_rng(seed)
    font_paths = fixtures.fonts()
    os.makedirs(out, exist_ok=True)
    kinds = [kind for kind, n in kind_counts(count).items() for _ in range(n)]
    kinds = [kinds[j] for j in rng.permutation(len(kinds))]
    order = rng.permutation(len(images))
    handwritten = 0
    seen = {kind: 0 for kind in fixtures.COUNTS}
    rows, paths, pixels = [], [], []
    for n, kind in enumerate(kinds):
        i = seen[kind]
        seen[kind] += 1
        digit28, label = None, None
        if kind == "printed":
            label = i % 10
        elif kind != "blank":
            index = int(order[handwritten % len(order)])
            handwritten += 1
            digit28, label = images[index], int(labels[index])
        name = f"{n:05d}-{kind}" + (f"-{label}" if label is not None else "") + ".png"
        path = os.path.join(out, name)
        draw(kind, i, path, digit28, label, rng, font_paths)
        width, height = Image.open(path).size
        pixels.append(width * height)
        rows.append(f"{name}\t{kind}\t{'-' if label is None else label}")
        paths.append(os.path.abspath(path))
    with open(os.path.join(out, "labels.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    with open(os.path.join(out, "files.txt"), "w") as f:
        f.write("\n".join(paths) + "\n")
    return pixels, seen


def main():
    ap = argparse.ArgumentParser(description="Makes a set of mixed real-world PNGs for the files benchmark.")
    ap.add_argument("out", help="output folder (a temporary one: the set is not part of the repository)")
    ap.add_argument("--count", type=int, default=3000, help="number of PNGs")
    ap.add_argument("--seed", type=int, default=20261122, help="random seed")
    args = ap.parse_args()
    pixels, kinds = make_set(args.out, args.count, args.seed)
    size = sum(os.path.getsize(os.path.join(args.out, n)) for n in os.listdir(args.out) if n.endswith(".png"))
    print(f"wrote {len(pixels)} PNGs, {size / 1e6:.1f} MB, to {args.out}: "
          + ", ".join(f"{kind} {n}" for kind, n in kinds.items()))
    print(f"pixels per picture: mean {np.mean(pixels):.0f}, max {max(pixels)}")


if __name__ == "__main__":
    main()
