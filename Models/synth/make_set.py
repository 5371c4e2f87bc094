"""Writes a set of synthetic training scenes (see scene.py) into one npz, or PNG previews.

    /usr/bin/python3 Models/synth/make_set.py --mnist DIR --out FILE.npz --count N --seed S
        [--side 128] [--processes P] [--fine SHARE] [--pencils] [--rods SHARE] [--marks SHARE] [--dark-lines]
        [--windows SHARE]
    /usr/bin/python3 Models/synth/make_set.py --mnist DIR --preview DIR --count 60 --seed S

The npz holds pictures [N, side, side] uint8 (each padded by replicating its
edge), sizes [N, 2] (the real height and width), masks [N, side, side] uint8
(ink coverage * 255, zero in the padding), labels [N] int64 (-1 blank, 0-9,
10 not a digit) and kinds [N] str. Scene i is seeded by SeedSequence([seed, i]),
so a set is the same for the same seed whatever the process count.
"""

import os

# One thread per process: BLAS threads only fight the worker processes for the cores.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse
import multiprocessing
import sys

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import glyphs  # noqa: E402

# The shared data sets sit beside the repository.
DEFAULT_MNIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "datasets", "mnist")
import desk_objects  # noqa: E402
import paper  # noqa: E402
import scene  # noqa: E402

_bank = None


def _init(mnist_dir, fine_share=0.0, pencils=False, dark_lines=False, mark_share=0.0, window_share=0.0, rod_share=0.0):
    global _bank
    _bank = glyphs.load_bank(mnist_dir, "make_set")
    glyphs.set_share("fine", fine_share)
    scene.pencils = pencils
    scene.window_share = window_share
    scene.mark_share = mark_share
    paper.dark_lines = dark_lines
    desk_objects.rod_share = rod_share


def _make(job):
    seed, index, side = job
    rng = np.random.default_rng(np.random.SeedSequence([seed, index]))
    s = scene.make_scene(rng, _bank, side)
    h, w = s["picture"].shape
    picture = np.pad(s["picture"], ((0, side - h), (0, side - w)), mode="edge")
    mask = np.zeros((side, side), np.uint8)
    mask[:h, :w] = np.round(s["mask"] * 255).astype(np.uint8)
    return picture, mask, (h, w), s["label"], s["kind"]


def generate(mnist_dir, count, seed, side, processes, fine_share=0.0, pencils=False, dark_lines=False, mark_share=0.0,
             window_share=0.0, rod_share=0.0):
    jobs = [(seed, i, side) for i in range(count)]
    if processes <= 1:
        _init(mnist_dir, fine_share, pencils, dark_lines, mark_share, window_share, rod_share)
        return [_make(j) for j in jobs]
    options = (mnist_dir, fine_share, pencils, dark_lines, mark_share, window_share, rod_share)
    with multiprocessing.Pool(processes, _init, options) as pool:
        return pool.map(_make, jobs, chunksize=32)


def write_previews(results, folder):
    """One PNG per scene: the picture, the mask, and the mask over the picture in red."""
    os.makedirs(folder, exist_ok=True)
    for i, (picture, mask, (h, w), label, kind) in enumerate(results):
        p, m = picture[:h, :w], mask[:h, :w]
        f = m.astype(np.float32) / 255
        dim = p * (1 - f)
        overlay = np.stack([dim + 255 * f, dim, dim], axis=-1).astype(np.uint8)
        grey = lambda a: np.repeat(a[..., None], 3, axis=-1)
        gap = np.full((h, 4, 3), 128, np.uint8)
        row = np.concatenate([grey(p), gap, grey(m), gap, overlay], axis=1)
        name = f"{i:04d}_{label}_{kind.replace('/', '-')}.png"
        Image.fromarray(row).resize((row.shape[1] * 2, h * 2), Image.NEAREST).save(os.path.join(folder, name))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mnist", default=DEFAULT_MNIST, help="folder with MNIST's train-*-idx*-ubyte[.gz] files")
    parser.add_argument("--out", help="npz file to write")
    parser.add_argument("--preview", help="folder to write PNG previews into instead")
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--side", type=int, default=128)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--fine", type=float, default=0.0,
                        help="share of fine-pen MNIST digits among the glyphs, beside the others' (default 0)")
    parser.add_argument("--pencils", action="store_true",
                        help="lay pencils and pens across scenes (desk_objects.py): most desks, 8%% of the others")
    parser.add_argument("--windows", type=float, default=0.0,
                        help="share of counter-wheel scenes cropped to one wheel's window (scene.py; default 0)")
    parser.add_argument("--marks", type=float, default=0.0,
                        help="share of digits with a minus before or a point after them, in the mask (default 0)")
    parser.add_argument("--rods", type=float, default=0.0,
                        help="share of --pencils' objects painted as plain round-capped rods (desk_objects.py; default 0)")
    parser.add_argument("--dark-lines", action="store_true",
                        help="dark grey lines on 30%% of ruled and squared sheets (paper.py)")
    args = parser.parse_args()
    if not args.out and not args.preview:
        parser.error("give --out FILE.npz or --preview DIR")
    glyphs.load_bank(args.mnist, "make_set")  # fail early, once, with one line
    results = generate(args.mnist, args.count, args.seed, args.side, args.processes, args.fine, args.pencils,
                       args.dark_lines, args.marks, args.windows, args.rods)
    if args.preview:
        write_previews(results, args.preview)
    if args.out:
        pictures, masks, sizes, labels, kinds = zip(*results)
        np.savez_compressed(args.out, pictures=np.stack(pictures), masks=np.stack(masks),
                            sizes=np.array(sizes, np.int32), labels=np.array(labels, np.int64),
                            kinds=np.array(kinds))
        print(f"make_set: {len(results)} scenes -> {args.out}")


if __name__ == "__main__":
    main()
