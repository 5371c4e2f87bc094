#!/usr/bin/env python3
"""Writes Tests/Fixtures/windows: meter-reader crops of one counter window,
a light digit in a dark window inside a light plate, 40x56 px (one 64x90),
blurred and noisy as a small camera crop. The shipped locator takes the window for the
ink in these, and the model answered "not a digit" on the first look;
WindowInkTests checks that the second look reads the digit inside, and
that since step 2 finds a window in a light frame the first look reads
three of the four. With Pillow and numpy it also records the Python reference's
tensors (reference_preprocess.py, rules alone), which WindowInkTests
compares with the Swift pipeline's: the window search has a twin there.

    /usr/bin/python3 Tests/Tools/make_window_fixtures.py

Made with Pillow and Debian's DejaVu and Liberation faces, which no model
was trained on (Models/typeset.py); a fixed seed makes the same bytes.
"""

import os
import random
import sys

from PIL import Image, ImageDraw, ImageFilter, ImageFont

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_preprocess import record_references  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "windows")
FACES = {"dejavu": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
         "liberation": "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf"}
# (digit, face, scale): the crops whose first look was "not a digit" with the
# shipped models, 40x56 px; then one 1.6 times as large, over the 48 px from
# which step 2 shrinks a picture to search it.
CROPS = [(0, "dejavu", 1), (3, "dejavu", 1), (7, "liberation", 1), (5, "dejavu", 1.6)]


def crop(digit, face, rng, scale):
    width, height = round(40 * scale), round(56 * scale)
    image = Image.new("L", (width, height), 205)
    draw = ImageDraw.Draw(image)
    draw.rectangle([round(4 * scale), round(5 * scale), width - 1 - round(4 * scale), height - 1 - round(5 * scale)], fill=35)
    font = ImageFont.truetype(FACES[face], round(34 * scale))
    left, top, right, bottom = draw.textbbox((0, 0), str(digit), font=font)
    draw.text(((width - (right - left)) // 2 - left, (height - (bottom - top)) // 2 - top), str(digit), fill=235, font=font)
    image = image.filter(ImageFilter.GaussianBlur(0.8))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            pixels[x, y] = max(0, min(255, pixels[x, y] + rng.randint(-8, 8)))
    return image


def main():
    os.makedirs(OUT, exist_ok=True)
    rng = random.Random(4)
    names = []
    for digit, face, scale in CROPS:
        names.append(f"window-{face}-{digit}.png" if scale == 1 else f"window-{face}-large-{digit}.png")
        crop(digit, face, rng, scale).save(os.path.join(OUT, names[-1]), optimize=True)
    record_references(OUT, names)


if __name__ == "__main__":
    main()
