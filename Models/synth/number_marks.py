"""A minus sign before a digit or a decimal point after it, in the subject's ink.

`digits read` keeps a number's short marks where the locator marks them; a
locator taught that long bars (pencils, `desk_objects`) are not ink must
still mark a short dash beside a digit, and a dot on its baseline. So some
digit glyphs get one, drawn with the same pen and counted in the mask.
"""

import numpy as np

import glyphs


def with_mark(rng, cov):
    """`cov` (a digit's coverage, 0-1) widened to hold a minus before it or a point after it."""
    h, w = cov.shape
    stroke = max(1.5, h * rng.uniform(0.07, 0.14))
    gap = h * rng.uniform(0.08, 0.35)
    if rng.random() < 0.5:  # a minus: a dash about mid-height, a third to two thirds of the digit long
        length = h * rng.uniform(0.3, 0.65)
        pad = int(np.ceil(length + gap + stroke))
        y = h * rng.uniform(0.3, 0.7)
        tilt = h * rng.uniform(-0.04, 0.04)
        x0 = stroke / 2 + 0.5
        mark = glyphs.polyline([(x0, y - tilt), (x0 + length, y + tilt)], stroke, (w + pad, h), scale=2)
        out = np.zeros((h, w + pad), np.float32)
        out[:, pad:] = cov
    else:  # a decimal point: a dot on the baseline
        d = stroke * rng.uniform(1.0, 1.6)
        pad = int(np.ceil(gap + d + 1))
        x, y = w + gap + d / 2, h - d / 2 - h * rng.uniform(0, 0.05)
        mark = glyphs.polyline([(x, y), (x + 0.01, y)], d, (w + pad, h), scale=2)
        out = np.zeros((h, w + pad), np.float32)
        out[:, :w] = cov
    return np.maximum(out, mark)
