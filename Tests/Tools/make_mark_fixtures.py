#!/usr/bin/env python3
"""Writes Tests/Fixtures/marks: a question mark and an exclamation mark
drawn with a felt pen on pale paper, softly blurred as a photo, and
reference.f32: what the Python reference preprocessing makes of each
(784 float32 each, little-endian, question first). Their dots are too
small to pass the rules' speck test; without it the hook reads as a
confident 7. `MarkDotTests` checks that the dot is kept, that the
question mark is no confident digit, and that the Swift tensors match the
reference's.

    /usr/bin/python3 Tests/Tools/make_mark_fixtures.py

A fixed seed makes the same bytes.
"""

import os
import random
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_preprocess import reference_tensor  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "marks")
PAPER, PEN, WIDTH = (236, 232, 220), (30, 40, 90), 9


def paper(rng, size=(300, 360)):
    picture = Image.new("RGB", size)
    picture.putdata([tuple(max(0, min(255, c + noise)) for c in PAPER)
                     for noise in (rng.randint(-5, 5) for _ in range(size[0] * size[1]))])
    return picture


def dot(draw, x, y, radius=7):
    draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=PEN)


def question(rng):
    picture = paper(rng)
    draw = ImageDraw.Draw(picture)
    draw.arc((100, 70, 200, 170), start=180, end=70, fill=PEN, width=WIDTH)
    draw.line((167, 163, 150, 185, 150, 225), fill=PEN, width=WIDTH, joint="curve")
    dot(draw, 150, 262)
    return picture.filter(ImageFilter.GaussianBlur(0.8))


def exclamation(rng):
    picture = paper(rng)
    draw = ImageDraw.Draw(picture)
    draw.line((148, 40, 152, 250), fill=PEN, width=WIDTH)
    dot(draw, 151, 290, radius=6)
    return picture.filter(ImageFilter.GaussianBlur(0.8))


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(11)
    question(rng).save(os.path.join(OUT, "question.png"), optimize=True)
    exclamation(rng).save(os.path.join(OUT, "exclamation.png"), optimize=True)
    tensors = [reference_tensor(os.path.join(OUT, name)).reshape(-1) for name in ("question.png", "exclamation.png")]
    np.stack(tensors).astype("<f4").tofile(os.path.join(OUT, "reference.f32"))


if __name__ == "__main__":
    main()
