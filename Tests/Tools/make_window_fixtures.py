#!/usr/bin/env python3
"""Writes Tests/Fixtures/windows: meter-reader crops of one counter window,
a light digit in a dark window inside a light plate, 40x56 px, blurred and
noisy as a small camera crop. The shipped locator takes the window for the
ink in these, and the model answers "not a digit" on the first look;
WindowInkTests checks that the second look reads the digit inside.

    /usr/bin/python3 Tests/Tools/make_window_fixtures.py

Made with Pillow and Debian's DejaVu and Liberation faces, which no model
was trained on (Models/typeset.py); a fixed seed makes the same bytes.
"""

import os
import random

from PIL import Image, ImageDraw, ImageFilter, ImageFont

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "windows")
FACES = {"dejavu": "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
         "liberation": "/usr/share/fonts/truetype/liberation2/LiberationSans-Bold.ttf"}
# (digit, face): the crops whose first look is "not a digit" with the shipped models.
CROPS = [(0, "dejavu"), (3, "dejavu"), (7, "liberation")]


def crop(digit, face, rng):
    width, height = 40, 56
    image = Image.new("L", (width, height), 205)
    draw = ImageDraw.Draw(image)
    draw.rectangle([4, 5, width - 5, height - 6], fill=35)
    font = ImageFont.truetype(FACES[face], 34)
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
    for digit, face in CROPS:
        crop(digit, face, rng).save(os.path.join(OUT, f"window-{face}-{digit}.png"), optimize=True)


if __name__ == "__main__":
    main()
