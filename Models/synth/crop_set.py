"""Classifier inputs made by digits' own pipeline from synthetic scenes.

The classifier was trained on MNIST's digits and on glyphs normalized in
Python; what it is given in use is what the pipeline cuts out of a picture:
thin or faint strokes, a rule's stub, a turned digit. This renders scenes
(scene.py, at a random size), runs `digits preprocess --json` over them in
chunks (one process loads the locator once per chunk) and keeps each 28x28
input with the scene's label: 0-9, or 10 ("not a digit") for a letter or
scribble and for a blank scene in which the pipeline found something.

    /usr/bin/python3 Models/synth/crop_set.py --digits PATH --out FILE.npz --count N --seed S
        [--mnist DIR] [--processes P] [--fine SHARE] [--rods SHARE]

The npz holds images [N, 28, 28] uint8 (0 paper to 255 ink) and labels [N]
int64, as glyph_set.py's, so Models/train.py --glyphs reads it.
"""

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse
import json
import multiprocessing
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_set  # noqa: E402

MEAN, STD = 0.1307, 0.3081
CHUNK = 200


def _scene(job):
    seed, index, folder = job
    rng = np.random.default_rng(np.random.SeedSequence([seed, index]))
    side = int(rng.integers(112, 321))
    s = make_set.scene.make_scene(rng, make_set._bank, side)
    path = os.path.join(folder, f"{index:06d}.png")
    Image.fromarray(s["picture"]).save(path)
    return path, s["label"]


def _preprocess(job):
    digits, paths = job
    out = subprocess.run([digits, "preprocess", "--json", *paths], capture_output=True, text=True)
    if out.returncode not in (0, 1):  # 1: a picture it could not read, named on stderr; the rest printed
        raise RuntimeError(f"{digits} preprocess failed: {out.stderr.strip()}")
    tensors = {}
    for line in out.stdout.splitlines():
        obj = json.loads(line)
        if obj["tensor"] is not None:
            values = np.array(obj["tensor"], np.float32).reshape(28, 28)
            tensors[obj["file"]] = np.clip(np.round((values * STD + MEAN) * 255), 0, 255).astype(np.uint8)
    return tensors


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digits", required=True, help="the digits executable whose pipeline makes the inputs")
    parser.add_argument("--mnist", default=make_set.DEFAULT_MNIST)
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--fine", type=float, default=0.12, help="share of fine-pen MNIST digits (make_set.py --fine)")
    parser.add_argument("--rods", type=float, default=0.3, help="share of pencils painted as rods (make_set.py --rods)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        options = (args.mnist, args.fine, True, True, 0.0, 0.3, args.rods)
        with multiprocessing.Pool(args.processes, make_set._init, options) as pool:
            scenes = pool.map(_scene, [(args.seed, i, folder) for i in range(args.count)], chunksize=16)
            chunks = [(args.digits, [p for p, _ in scenes[i:i + CHUNK]]) for i in range(0, len(scenes), CHUNK)]
            found = {}
            for part in pool.imap(_preprocess, chunks):
                found.update(part)
    images, labels = [], []
    for path, label in scenes:
        if path in found:
            images.append(found[path])
            labels.append(10 if label < 0 else label)
    labels = np.array(labels, np.int64)
    np.savez_compressed(args.out, images=np.stack(images), labels=labels)
    counts = ", ".join(f"{k}: {int((labels == k).sum())}" for k in range(11))
    print(f"{len(images)} inputs of {args.count} scenes ({counts})", flush=True)


if __name__ == "__main__":
    main()
