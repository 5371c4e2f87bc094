"""Schemathesis hooks for scripts/test-schemathesis: picture bodies that mean
something. Without them schemathesis sends random bytes as every image/*
body, which only ever tests the "cannot decode" path. With them a body is
one of: a shipped picture (PNG, JPEG, GIF, MNIST digits, a photo), a grey
PNG made here of any size from 1x1 to 64x64 and any pixels (a blank, a bar,
noise), a PGM (binary or plain), a shipped picture cut short or with bytes
changed, or random bytes. The server must answer each with a 200 or a 4xx
(never a 5xx) in the shape its /openapi.json says.

Loaded with SCHEMATHESIS_HOOKS=schemathesis_hooks and this folder on
PYTHONPATH. Standard library and hypothesis only (the test venv has no
numpy or Pillow).
"""

import os
import struct
import zlib

import schemathesis
from hypothesis import strategies as st

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SHIPPED = [
    "Examples/seven.png", "Examples/two.png", "Examples/five-transparent.png", "Examples/four-large.png",
    "Examples/nine-small-in-corner.png", "Examples/three-on-paper.png", "Examples/seven.gif",
    "Examples/letter-p.jpg", "Examples/scribble.jpg", "Examples/numbers/touching-4711.png",
    "Tests/Fixtures/mnist-sample/0000-7.png", "Tests/Fixtures/mnist-sample/0001-2.png",
    "Tests/Fixtures/mnist-sample/0003-0.png",
]


def _read(path):
    with open(os.path.join(ROOT, path), "rb") as f:
        return f.read()


PICTURES = [_read(path) for path in SHIPPED]


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def grey_png(width, height, pixels):
    """An 8-bit grey PNG, rows unfiltered."""
    rows = b"".join(b"\x00" + pixels[y * width:(y + 1) * width] for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + _chunk(b"IDAT", zlib.compress(rows)) + _chunk(b"IEND", b""))


@st.composite
def made_pixels(draw):
    """(width, height, pixels): blank paper, a dark bar on paper, or noise."""
    width = draw(st.integers(1, 64))
    height = draw(st.integers(1, 64))
    kind = draw(st.sampled_from(["blank", "bar", "noise"]))
    if kind == "noise":
        pixels = draw(st.binary(min_size=width * height, max_size=width * height))
    else:
        paper = draw(st.integers(0, 255))
        ink = 255 - paper
        x0 = draw(st.integers(0, width - 1))
        x1 = draw(st.integers(x0, width - 1))
        pixels = bytes(ink if kind == "bar" and x0 <= x <= x1 and height // 5 <= y <= height - 1 - height // 5
                       else paper for y in range(height) for x in range(width))
    return width, height, pixels


@st.composite
def made_png(draw):
    return grey_png(*draw(made_pixels()))


@st.composite
def made_pgm(draw):
    width, height, pixels = draw(made_pixels())
    if draw(st.booleans()):
        return b"P5\n%d %d\n255\n" % (width, height) + pixels
    return (b"P2\n# made by schemathesis_hooks\n%d %d\n255\n" % (width, height)
            + b" ".join(b"%d" % p for p in pixels) + b"\n")


@st.composite
def damaged(draw):
    picture = draw(st.sampled_from(PICTURES))
    if draw(st.booleans()):
        return picture[:draw(st.integers(0, len(picture) - 1))]
    changed = bytearray(picture)
    for _ in range(draw(st.integers(1, 8))):
        changed[draw(st.integers(0, len(changed) - 1))] = draw(st.integers(0, 255))
    return bytes(changed)


PICTURE_BODIES = st.one_of(st.sampled_from(PICTURES), made_png(), made_pgm(), damaged(), st.binary(max_size=2048))

schemathesis.openapi.media_type(
    "image/png", PICTURE_BODIES,
    aliases=["image/jpeg", "image/gif", "image/x-portable-anymap", "image/x-portable-graymap",
             "image/x-portable-pixmap", "image/x-portable-bitmap", "application/octet-stream", "image/*"])
