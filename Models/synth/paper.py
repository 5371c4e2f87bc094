"""Backgrounds the subject is written on: papers, boards, desks.

All return float32 RGB in 0..1 of shape [h, w, 3]. Printed rules, squares
and dots are part of the background (never of the subject's ink mask); the
locator must learn to tell them from the subject's strokes.
"""

import numpy as np
from PIL import Image

LIGHT_PAPERS = ["plain", "ruled", "squared", "dotted", "coloured", "kraft", "whiteboard"]
DARK_PAPERS = ["blackboard", "dark"]
PAPER_SHARES = {"plain": 0.22, "ruled": 0.17, "squared": 0.15, "dotted": 0.06, "coloured": 0.08,
                "kraft": 0.05, "whiteboard": 0.07, "blackboard": 0.07, "dark": 0.07, "sticky": 0.06}


def smooth_noise(rng, h, w, cell):
    """Zero-mean noise that varies over about `cell` pixels (a small random field scaled up)."""
    small = rng.standard_normal((max(2, h // cell + 2), max(2, w // cell + 2)), dtype=np.float32)
    return np.asarray(Image.fromarray(small, "F").resize((w, h), Image.BICUBIC), dtype=np.float32)


def grain(rng, h, w, amount):
    """Multiplicative paper texture: fibres, blotches and fine grain."""
    g = 1 + amount * (0.6 * smooth_noise(rng, h, w, int(rng.integers(20, 80)))
                      + 0.4 * rng.standard_normal((h, w), dtype=np.float32))
    return g[..., None]


def lines_coverage(coords, spacing, offset, width):
    """Antialiased coverage of parallel lines across `coords` (1-D pixel positions)."""
    d = np.abs((coords - offset + spacing / 2) % spacing - spacing / 2)
    return np.clip(width / 2 + 0.5 - d, 0, 1).astype(np.float32)


def paint(rgb, cov, colour):
    """`colour` laid over `rgb` with coverage `cov` (broadcast), in place."""
    rgb += (np.asarray(colour, np.float32) - rgb) * cov[..., None]


def base_colour(rng, kind):
    jitter = rng.uniform(-0.03, 0.03, 3)
    colour = {
        "plain": rng.uniform(0.78, 1.0) * np.array([1, 1, 1]) + np.array([0.02, 0.01, -0.03]) * rng.uniform(0, 2),
        "coloured": rng.uniform(0.55, 0.95, 3),
        "sticky": [(1.0, 0.93, 0.45), (1.0, 0.7, 0.8), (0.7, 0.95, 0.6), (0.6, 0.85, 1.0), (1.0, 0.75, 0.4)][int(rng.integers(5))],
        "kraft": np.array([0.72, 0.56, 0.38]) * rng.uniform(0.8, 1.15),
        "whiteboard": rng.uniform(0.85, 1.0) * np.array([0.97, 0.99, 1.0]),
        "blackboard": [(0.12, 0.2, 0.15), (0.1, 0.1, 0.11), (0.15, 0.2, 0.25)][int(rng.integers(3))],
        "dark": rng.uniform(0.0, 0.3, 3),
    }.get(kind, rng.uniform(0.8, 1.0) * np.array([1, 1, 1]))
    return np.clip(np.asarray(colour, np.float32) + jitter, 0, 1).astype(np.float32)


# When on (make_set.py --dark-lines), this share of ruled and squared sheets has dark grey
# lines, as dark as pencil: printed forms, photocopies, a pen-ruled page. Off, no random number
# is drawn for it, so a seed's scenes are those of the generator before it.
dark_lines = False
DARK_LINE_SHARE = 0.3


def make_paper(rng, h, w, kind=None):
    """(rgb, kind, dark): a sheet of paper or board filling [h, w]."""
    if kind is None:
        kind = list(PAPER_SHARES)[int(rng.choice(len(PAPER_SHARES), p=np.array(list(PAPER_SHARES.values()))))]
    rgb = np.empty((h, w, 3), np.float32)
    rgb[:] = base_colour(rng, kind)
    amount = {"kraft": 0.08, "blackboard": 0.12, "whiteboard": 0.01, "dark": 0.05}.get(kind, 0.025)
    rgb *= grain(rng, h, w, rng.uniform(0.3, 1.0) * amount)
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    spacing = rng.uniform(14, 40)
    line_colour = [(0.55, 0.7, 0.9), (0.6, 0.6, 0.65), (0.45, 0.6, 0.85), (0.7, 0.8, 0.75)][int(rng.integers(4))]
    width = rng.uniform(0.8, 2.5)
    if dark_lines and kind in ("ruled", "squared") and rng.random() < DARK_LINE_SHARE:
        line_colour = (rng.uniform(0.15, 0.45),) * 3
    if kind == "ruled":
        paint(rgb, np.broadcast_to(lines_coverage(ys, spacing, rng.uniform(0, spacing), width), (h, w)), line_colour)
        if rng.random() < 0.4:  # the red margin line
            paint(rgb, np.broadcast_to(lines_coverage(xs, 10 * w, rng.uniform(0, w), width * 1.3), (h, w)), (0.9, 0.4, 0.4))
    elif kind == "squared":
        cov = np.maximum(lines_coverage(ys, spacing, rng.uniform(0, spacing), width),
                         lines_coverage(xs, spacing, rng.uniform(0, spacing), width))
        paint(rgb, cov * rng.uniform(0.5, 1.0), line_colour)
    elif kind == "dotted":
        cov = lines_coverage(ys, spacing, 3, width * 1.5) * lines_coverage(xs, spacing, 3, width * 1.5)
        paint(rgb, cov, line_colour)
    elif kind in ("whiteboard", "blackboard") and rng.random() < 0.7:  # ghosts of wiped writing
        ghost = np.clip(smooth_noise(rng, h, w, int(rng.integers(8, 30))) - 0.8, 0, 1) * rng.uniform(0.05, 0.25)
        paint(rgb, ghost, (0.6, 0.6, 0.6) if kind == "whiteboard" else (0.5, 0.5, 0.5))
    dark = kind in DARK_PAPERS
    return np.clip(rgb, 0, 1), kind, dark


def make_desk(rng, h, w):
    """A desk around a sheet: wood grain, dark or coloured plastic, cloth,
    a checked table cloth, speckled stone or a woven fabric: patterns with
    edges and dots of their own that are never the subject's ink."""
    kind = int(rng.integers(6))
    rgb = np.empty((h, w, 3), np.float32)
    ys = np.arange(h, dtype=np.float32)[:, None]
    xs = np.arange(w, dtype=np.float32)[None, :]
    if kind == 0:  # wood: streaks along one axis
        rgb[:] = np.array([0.55, 0.36, 0.2], np.float32) * rng.uniform(0.5, 1.3)
        streak = smooth_noise(rng, 1, w, int(rng.integers(3, 12)))
        rgb *= (1 + 0.15 * streak + 0.1 * smooth_noise(rng, h, w, 60))[..., None]
    elif kind in (1, 2):
        rgb[:] = rng.uniform(0.05, 0.35, 3) if kind == 1 else rng.uniform(0.2, 0.8, 3)
        rgb *= grain(rng, h, w, rng.uniform(0.02, 0.08))
    elif kind == 3:  # checked cloth: two sets of bands, darker where they cross
        colour = rng.uniform(0.1, 0.8, 3)
        rgb[:] = rng.uniform(0.8, 1.0, 3)
        t = rng.uniform(0, np.pi / 2)
        u, v = xs * np.cos(t) + ys * np.sin(t), -xs * np.sin(t) + ys * np.cos(t)
        period = rng.uniform(6, 40)
        a = ((u / period) % 1 < 0.5).astype(np.float32)
        b = ((v / period) % 1 < 0.5).astype(np.float32)
        paint(rgb, 0.5 * (a + b), colour)
        rgb *= grain(rng, h, w, 0.03)
    elif kind == 4:  # stone or terrazzo: speckles of several greys on a mottled ground
        rgb[:] = rng.uniform(0.35, 0.9) * (1 + rng.uniform(-0.08, 0.08, 3))
        rgb *= (1 + 0.08 * smooth_noise(rng, h, w, int(rng.integers(10, 60))))[..., None]
        for _ in range(3):
            spots = np.clip(np.abs(rng.standard_normal((h, w), dtype=np.float32)) - rng.uniform(1.6, 2.6), 0, 1)
            paint(rgb, np.clip(spots * 3, 0, 1), np.full(3, rng.uniform(0.05, 0.95)))
    else:  # woven fabric: a fine crossing weave
        rgb[:] = rng.uniform(0.15, 0.85, 3)
        period = rng.uniform(2, 6)
        weave = np.sin(2 * np.pi * xs / period) * np.sin(2 * np.pi * ys / period)
        rgb *= (1 + rng.uniform(0.05, 0.2) * weave + 0.05 * smooth_noise(rng, h, w, 40))[..., None]
    return np.clip(rgb, 0, 1)
