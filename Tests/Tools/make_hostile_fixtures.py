#!/usr/bin/env python3
"""Writes the hostile and edge-case PNG inputs the tests feed to digits:
valid but unusual pictures, and broken files of every kind a user or an
attacker can hand over. Run with Debian's python3-pil and python3-numpy:

    /usr/bin/python3 Tests/Tools/make_hostile_fixtures.py

Writes Tests/Fixtures/hostile/.
"""

import os
import struct
import sys
import zlib

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from png_writer import write_png  # noqa: E402

OUT = os.path.join(ROOT, "Tests/Fixtures/hostile")


def chunks(png):
    """[(type, data)] of a PNG stream."""
    out, i = [], 8
    while i < len(png):
        length, = struct.unpack(">I", png[i:i + 4])
        out.append((png[i + 4:i + 8], png[i + 8:i + 8 + length]))
        i += 12 + length
    return out


def assemble(parts, fix_crc=True, bad_crc_type=None):
    png = b"\x89PNG\r\n\x1a\n"
    for kind, data in parts:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        if kind == bad_crc_type:
            crc ^= 0xFF
        png += struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)
    return png


def main():
    os.makedirs(OUT, exist_ok=True)
    seven = open(os.path.join(ROOT, "Examples/seven.png"), "rb").read()
    parts = chunks(seven)
    ihdr = dict(parts)[b"IHDR"]

    def write(name, data):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)

    # Valid, unusual pictures.
    write_png(os.path.join(OUT, "one-pixel.png"), np.array([[255]], dtype=np.uint8), 0)
    write_png(os.path.join(OUT, "one-by-5000.png"), (np.arange(5000) % 256).astype(np.uint8).reshape(5000, 1), 0)
    digit = np.asarray(Image.open(os.path.join(ROOT, "Examples/seven.png")), dtype=np.uint16)
    rgba16 = np.zeros((28, 28, 4), dtype=np.uint16)
    rgba16[..., :3] = 5000
    rgba16[..., 3] = digit * 257  # dark strokes on a transparent background
    write_png(os.path.join(OUT, "rgba-16bit.png"), rgba16, 6, bit_depth=16)
    palette = np.array([[255, 255, 255], [0, 0, 0], [128, 128, 128]])
    indices = np.where(digit > 128, 1, np.where(digit > 0, 2, 0)).astype(np.uint8)
    write_png(os.path.join(OUT, "palette-trns-interlaced.png"), indices, 3, interlaced=True,
              palette=palette, transparency=[0, 255, 255])

    # Not PNG at all.
    write("empty.png", b"")
    write("text.png", b"this is not an image\n")
    write("jpeg.png", bytes([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]) + b"JFIF\x00" + bytes(100))

    # Broken PNGs.
    for cut in (4, 8, 20, 33, len(seven) // 2, len(seven) - 12, len(seven) - 1):
        write(f"truncated-at-{cut}.png", seven[:cut])
    write("bad-crc.png", assemble(parts, bad_crc_type=b"IHDR"))
    idat = dict(parts)[b"IDAT"]
    corrupt = idat[:2] + bytes(b ^ 0x5A for b in idat[2:12]) + idat[12:]
    write("corrupt-zlib.png", assemble([(k, corrupt if k == b"IDAT" else d) for k, d in parts]))
    write("missing-idat.png", assemble([(k, d) for k, d in parts if k != b"IDAT"]))
    huge = struct.pack(">II", 100000, 100000) + ihdr[8:]
    write("huge-dimensions.png", assemble([(k, huge if k == b"IHDR" else d) for k, d in parts]))
    wide = struct.pack(">II", 2_000_000_000, 1) + ihdr[8:]
    write("two-billion-wide.png", assemble([(k, wide if k == b"IHDR" else d) for k, d in parts]))
    zero = struct.pack(">II", 0, 28) + ihdr[8:]
    write("zero-width.png", assemble([(k, zero if k == b"IHDR" else d) for k, d in parts]))
    print("wrote", len(os.listdir(OUT)), "files")


if __name__ == "__main__":
    main()
