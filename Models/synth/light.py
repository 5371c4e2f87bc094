"""Light on the scene: shadows, vignetting, glare, uneven exposure.

Applied to the grey picture at output size; none of it is the subject's
ink. `light_field` returns a multiplier and an additive glare so that the
scene can check the ink still stands out and retry with gentler light.
"""

import numpy as np
from PIL import Image, ImageDraw, ImageFilter


def shadow(rng, h, w):
    """A soft-edged dark polygon (a hand or a phone) reaching in from a side."""
    img = Image.new("L", (w, h), 0)
    side = int(rng.integers(4))
    corners = [(0, 0), (w, 0), (w, h), (0, h)]
    a, b = corners[side], corners[(side + 1) % 4]
    reach = rng.uniform(0.2, 0.8)
    c = (a[0] + (w / 2 - a[0]) * reach * 2 + rng.normal(0, w * 0.1), a[1] + (h / 2 - a[1]) * reach * 2 + rng.normal(0, h * 0.1))
    d = (b[0] + (w / 2 - b[0]) * reach * 2 + rng.normal(0, w * 0.1), b[1] + (h / 2 - b[1]) * reach * 2 + rng.normal(0, h * 0.1))
    ImageDraw.Draw(img).polygon([a, b, d, c], fill=255)
    img = img.filter(ImageFilter.GaussianBlur(rng.uniform(1, 0.15 * max(h, w))))
    return np.asarray(img, np.float32) / 255


def light_field(rng, h, w, strength=1.0):
    """(gain, glare) arrays [h, w]: the picture becomes picture * gain + glare."""
    ys = (np.arange(h, dtype=np.float32)[:, None] - h / 2) / max(h, w)
    xs = (np.arange(w, dtype=np.float32)[None, :] - w / 2) / max(h, w)
    gain = np.full((h, w), rng.uniform(0.7, 1.15), np.float32)
    if rng.random() < 0.5:  # uneven exposure: a gradient
        angle = rng.uniform(0, 2 * np.pi)
        gain = gain * (1 + strength * rng.uniform(0.1, 0.5) * (np.cos(angle) * xs + np.sin(angle) * ys))
    if rng.random() < 0.4:  # vignetting
        gain = gain * (1 - strength * rng.uniform(0.2, 0.7) * (xs ** 2 + ys ** 2))
    if rng.random() < 0.35:
        gain = gain * (1 - strength * rng.uniform(0.2, 0.6) * shadow(rng, h, w))
    glare = np.zeros((h, w), np.float32)
    if rng.random() < 0.15:
        cy, cx, r = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(0.05, 0.3)
        glare = strength * rng.uniform(0.2, 0.6) * np.exp(-((ys - cy) ** 2 + (xs - cx) ** 2) / (2 * r * r))
    return np.clip(gain, 0.05, 2).astype(np.float32), glare.astype(np.float32)
