#!/usr/bin/env python3
"""Decodes every valid PngSuite image with Pillow (a decoder independent of
libpng) and reduces it to grey by the rules DigitKit documents, so the Swift
tests can compare PNGDecoder's pixels with it (within +-1):

- samples as stored (Pillow ignores gAMA, and so does DigitKit);
- 16-bit grey scaled to 8 bits as round(v / 257); Pillow itself keeps only
  the high byte of 16-bit colour, which is within 1 of that;
- colour to luma with Pillow's convert("L") integer weights;
- transparency (alpha or tRNS) composited over white, rounded.

Run with Debian's python3-pil and python3-numpy:

    /usr/bin/python3 Tests/Tools/make_pngsuite_reference.py

Writes Tests/DigitsTests/Resources/pngsuite-reference/reference.tsv (file,
width, height, byte offset into gray.u8) and gray.u8 (the pixels, row-major).
The corrupt x*.png files are listed with width and height 0: every decoder
must refuse them.
"""

import os

import numpy as np
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SUITE = os.path.join(ROOT, "Tests/DigitsTests/Resources/pngsuite")
OUT = os.path.join(ROOT, "Tests/DigitsTests/Resources/pngsuite-reference")


def over_white(gray, alpha):
    return (gray * alpha + 255 * (255 - alpha) + 127) // 255


def reference_gray(path):
    image = Image.open(path)
    image.load()
    if image.mode in ("I;16", "I;16B", "I"):
        samples = np.asarray(image).astype(np.int64)
        gray = (samples * 255 + 32895) >> 16
        key = image.info.get("transparency")
        if key is not None:
            gray = over_white(gray, np.where(samples == key, 0, 255))
        return gray
    rgba = np.asarray(image.convert("RGBA")).astype(np.int64)
    luma = (rgba[..., 0] * 19595 + rgba[..., 1] * 38470 + rgba[..., 2] * 7471 + 0x8000) >> 16
    return over_white(luma, rgba[..., 3])


def main():
    os.makedirs(OUT, exist_ok=True)
    rows, blob = [], bytearray()
    for name in sorted(os.listdir(SUITE)):
        if not name.endswith(".png"):
            continue
        if name.startswith("x"):
            rows.append(f"{name}\t0\t0\t0")
            continue
        gray = reference_gray(os.path.join(SUITE, name)).astype(np.uint8)
        height, width = gray.shape
        rows.append(f"{name}\t{width}\t{height}\t{len(blob)}")
        blob += gray.tobytes()
    with open(os.path.join(OUT, "reference.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    with open(os.path.join(OUT, "gray.u8"), "wb") as f:
        f.write(blob)
    print(f"{len(rows)} files, {len(blob)} reference pixels")


if __name__ == "__main__":
    main()
