"""Glyphs for the 11-class digit classifier, normalized as MNIST's digits were.

Digits from the training fonts, the 7-segment display and counter wheels
(the classifier reads MNIST's handwriting from its own loader), and a share
of label-10 "not a digit" glyphs of glyphs.py's negative kinds. Each is
its ink box scaled so the longer side is 20 px (aspect kept), centred by
centre of mass in 28x28 (at pixel 13.5 by `outliers.normalized`, not MNIST's
14; Models/README.md, "Centre of mass"), light ink on black, with the soft edges of its
rendered coverage.

    /usr/bin/python3 Models/synth/glyph_set.py --mnist DIR --out FILE.npz --count N --seed S [--more-negatives]

--more-negatives adds two kinds of "not a digit": the letters and signs of
glyphs.MORE_CHARACTERS and runs of typeset digits (Models/README.md, "More letters,
signs and runs of digits": measured, not shipped). Without it a seed makes the set
it made before they came, v4's among them.
"""

import os

# One thread per process: BLAS threads only fight the worker processes for the cores.
for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import glyphs  # noqa: E402

# The shared data sets sit beside the repository.
DEFAULT_MNIST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "datasets", "mnist")
import outliers  # noqa: E402

NEGATIVE_SHARE = 0.4
# Shares of the two kinds --more-negatives adds, beside the 0.30 of the other negatives.
MORE_NEGATIVES = {"letter+": 0.05, "typed-run": 0.03}
DIGIT_KINDS = {"font": 0.6, "seg7": 0.2, "drum": 0.2}


def make_glyph_set(rng, bank, count):
    """(uint8 [count, 28, 28], int64 [count]) of digits (not MNIST's) and not-digits (label 10)."""
    negatives = [k for k in glyphs.KINDS if k not in glyphs.DIGIT_SOURCES and k != "seg7"]
    neg_p = np.array([glyphs.KIND_SHARES[k] for k in negatives])
    neg_p /= neg_p.sum()
    digit_kinds = list(DIGIT_KINDS)
    digit_p = np.array(list(DIGIT_KINDS.values()))
    images = np.zeros((count, 28, 28), np.uint8)
    labels = np.zeros(count, np.int64)
    i = 0
    while i < count:
        if rng.random() < NEGATIVE_SHARE:
            kind = negatives[int(rng.choice(len(negatives), p=neg_p))]
        else:
            kind = digit_kinds[int(rng.choice(len(digit_kinds), p=digit_p))]
        cov, label, _ = bank.sample(rng, kind)
        field = outliers.normalized(cov)
        if field is None:
            continue
        images[i] = np.round(np.clip(field, 0, 1) * 255).astype(np.uint8)
        labels[i] = label
        i += 1
    return images, labels


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mnist", default=DEFAULT_MNIST, help="folder with MNIST's training IDX files (for the negatives made of digits)")
    parser.add_argument("--out", required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--more-negatives", action="store_true",
                        help="also letters and signs the first set lacked, and runs of typeset digits")
    args = parser.parse_args()
    if args.more_negatives:
        for kind, share in MORE_NEGATIVES.items():
            glyphs.set_share(kind, share)
    images, labels = make_glyph_set(np.random.default_rng(args.seed), glyphs.load_bank(args.mnist, "glyph_set"), args.count)
    np.savez_compressed(args.out, images=images, labels=labels)
    print(f"glyph_set: {len(labels)} glyphs ({int((labels == 10).sum())} not digits) -> {args.out}")


if __name__ == "__main__":
    main()
