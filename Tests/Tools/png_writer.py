"""A small PNG writer for test fixtures: colour types 0 (grey), 2 (RGB),
3 (palette, with optional tRNS), 4 (grey + alpha) and 6 (RGBA), bit depth 8
or 16, optionally Adam7-interlaced, none of which Pillow can write all of.
"""

import struct
import zlib

import numpy as np

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def _chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def _rows(samples, bit_depth):
    """Filter type 0 (None) before each row."""
    dtype = ">u2" if bit_depth == 16 else np.uint8
    out = bytearray()
    for row in samples:
        out += b"\x00" + row.astype(dtype).tobytes()
    return bytes(out)


def write_png(path, samples, color_type, bit_depth=8, interlaced=False, palette=None, transparency=None):
    """samples: [height, width] (or [height, width, channels]) of sample values
    (palette indices for colour type 3). palette: [[r, g, b], ...];
    transparency: alpha per palette entry (colour type 3)."""
    samples = np.asarray(samples)
    if samples.ndim == 2:
        samples = samples[..., None]
    height, width, channels = samples.shape
    assert channels == CHANNELS[color_type]
    flat = samples.reshape(height, width * channels)
    if interlaced:
        raw = b""
        for x0, y0, dx, dy in ADAM7:
            sub = samples[y0::dy, x0::dx]
            if sub.shape[0] and sub.shape[1]:
                raw += _rows(sub.reshape(sub.shape[0], sub.shape[1] * channels), bit_depth)
    else:
        raw = _rows(flat, bit_depth)
    png = b"\x89PNG\r\n\x1a\n"
    png += _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 1 if interlaced else 0))
    if palette is not None:
        png += _chunk(b"PLTE", bytes(np.asarray(palette, dtype=np.uint8).reshape(-1)))
        if transparency is not None:
            png += _chunk(b"tRNS", bytes(np.asarray(transparency, dtype=np.uint8)))
    png += _chunk(b"IDAT", zlib.compress(raw, 9))
    png += _chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)
