#!/usr/bin/env python3
"""Writes Tests/Fixtures/notes: a yellow sticky note on a blue desk, a
dark red MNIST test digit (Tests/Fixtures/mnist-sample) written on it,
turned 8 degrees and softly blurred as a photo. In grey the desk is dark
and the note light, so the whole picture's rules take the note for light
ink; the locator finds the digit, and `AroundLocatedTests` checks that the
rules, measured again around it, read it.

    /usr/bin/python3 Tests/Tools/make_note_fixtures.py

A fixed seed makes the same bytes.
"""

import os
import random

from PIL import Image, ImageFilter

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SAMPLES = os.path.join(ROOT, "Tests", "Fixtures", "mnist-sample")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "notes")
# The samples whose note 0.27.0 read wrong or doubted: 0009-9 a confident 7, 0024-4 "several digits".
SAMPLES_USED = ["0009-9.png", "0024-4.png"]
DESK, NOTE, PEN = (70, 60, 190), (245, 230, 110), (150, 40, 40)


def photo(sample, rng):
    width, height = 340, 480
    picture = Image.new("RGB", (width, height))
    picture.putdata([tuple(max(0, min(255, c + noise)) for c in DESK)
                     for noise in (rng.randint(-6, 6) for _ in range(width * height))])
    note = Image.new("RGB", (120, 120), NOTE)
    digit = Image.open(os.path.join(SAMPLES, sample)).convert("L").resize((61, 61), Image.BILINEAR)
    note.paste(Image.new("RGB", digit.size, PEN), ((note.width - digit.width) // 2, (note.height - digit.height) // 2), digit)
    mask = Image.new("L", note.size, 255).rotate(8, expand=True)
    picture.paste(note.rotate(8, expand=True), (90, 140), mask)
    return picture.filter(ImageFilter.GaussianBlur(0.7))


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(8)
    for sample in SAMPLES_USED:
        photo(sample, rng).save(os.path.join(OUT, f"note-{sample}"), optimize=True)


if __name__ == "__main__":
    main()
