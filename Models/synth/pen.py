"""Pens: how a glyph's coverage becomes ink on the page.

`apply_pen` returns the ink's opacity (what is painted), the subject mask
(the area the ink covers, which the locator must find: a pencil's or a
chalk's grainy strokes still cover their whole area) and the ink colour.
"""

import numpy as np
from scipy import ndimage

from paper import smooth_noise

PENS = {"ballpoint": 0.2, "gel": 0.12, "felt": 0.12, "marker": 0.08, "pencil": 0.12, "chalk": 0.06,
        "brush": 0.06, "mouse": 0.08, "printed": 0.16}
DARK_INKS = [(0.05, 0.05, 0.07), (0.1, 0.15, 0.55), (0.0, 0.2, 0.75), (0.7, 0.1, 0.1), (0.1, 0.45, 0.15), (0.3, 0.3, 0.3)]
LIGHT_INKS = [(0.97, 0.97, 0.97), (0.95, 0.95, 0.75), (0.8, 0.95, 1.0), (1.0, 0.85, 0.85), (0.9, 1.0, 0.6), (1.0, 0.3, 0.2)]


def luma(rgb):
    return float(np.dot(np.asarray(rgb, np.float32)[..., :3], (0.299, 0.587, 0.114)))


def pick_pen(rng):
    return list(PENS)[int(rng.choice(len(PENS), p=np.array(list(PENS.values())) / sum(PENS.values())))]


def ink_colour(rng, paper_rgb, pen):
    """An ink colour that stands out clearly from `paper_rgb` (luma difference at least 0.3)."""
    paper = luma(paper_rgb)
    light = paper < 0.5
    if pen == "pencil":
        choices = [(0.35, 0.35, 0.37)] if not light else [(0.75, 0.75, 0.75)]
    elif pen == "chalk":
        choices = LIGHT_INKS[:4] if light else [(0.2, 0.2, 0.2), (0.3, 0.3, 0.6)]
    else:
        choices = LIGHT_INKS if light else DARK_INKS
    colour = np.asarray(choices[int(rng.integers(len(choices)))], np.float32)
    if abs(luma(colour) - paper) < 0.3:
        colour = np.full(3, 1.0 if light else 0.0, np.float32)
    return colour


def apply_pen(rng, cov, pen, scale):
    """(opacity, mask) of `cov` drawn with `pen`; `scale` is pixels per output pixel (stroke sizes)."""
    r = max(1, int(round(scale)))
    if pen in ("felt", "brush") and rng.random() < 0.6:
        cov = ndimage.grey_dilation(cov, size=(r + 1, r + 1))
    elif pen == "marker":
        cov = ndimage.grey_dilation(cov, size=(2 * r + 1, 2 * r + 1))
    elif pen == "mouse":  # a drawing program's aliased line: hard edges, no antialiasing
        cov = (cov > 0.5).astype(np.float32)
    mask = cov
    h, w = cov.shape
    if pen == "ballpoint":
        opacity = cov * np.clip(rng.uniform(0.8, 1.0) + 0.15 * smooth_noise(rng, h, w, 6), 0.55, 1)
    elif pen == "pencil":
        texture = np.clip(rng.uniform(0.55, 0.85) + 0.2 * rng.standard_normal((h, w), dtype=np.float32), 0.2, 1)
        opacity = cov * texture
    elif pen == "chalk":
        broken = np.clip(0.75 + 0.5 * smooth_noise(rng, h, w, 2) + 0.2 * rng.standard_normal((h, w), dtype=np.float32), 0.15, 1)
        opacity = cov * broken
    elif pen == "brush":
        opacity = cov * np.clip(0.9 + 0.2 * smooth_noise(rng, h, w, 10), 0.6, 1)
    else:
        opacity = cov
    return opacity.astype(np.float32), mask.astype(np.float32)
