#!/usr/bin/env python3
"""Decodes every valid PngSuite image with Pillow (a decoder independent of
libpng) and reduces it to grey by the rules DigitKit documents (see
reference_decode.py), so the Swift tests can compare PNGDecoder's pixels
with it (within +-1).

Run with Debian's python3-pil and python3-numpy:

    /usr/bin/python3 Tests/Tools/make_pngsuite_reference.py

Writes Tests/Fixtures/pngsuite-reference/reference.tsv (file,
width, height, byte offset into gray.u8) and gray.u8 (the pixels, row-major).
The corrupt x*.png files are listed with width and height 0: every decoder
must refuse them.
"""

import os

import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_decode import reference_gray  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SUITE = os.path.join(ROOT, "Tests/Fixtures/pngsuite")
OUT = os.path.join(ROOT, "Tests/Fixtures/pngsuite-reference")


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
