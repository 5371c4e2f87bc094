#!/usr/bin/env python3
"""Turns MNIST *test* digits and printed digits into pictures like the ones
people take of a digit with a phone, with fixed seeds: paper under a hand's
shadow, a sheet or a sticky note on a desk, tight crops, thin pen strokes on
large canvases, pencil, rotation and perspective, coloured ink and paper,
phone orientation stored as EXIF, JPEG artefacts and blank paper.

Run with Debian's python3-pil, python3-numpy and python3-scipy (and the fonts
that scripts/install-deps --dev installs):

    /usr/bin/python3 Tests/Tools/make_photo_fixtures.py [--out DIR] [--count-per-kind N]
        [--seed S] [--max-side PX] [--kinds K,...] [--mnist DIR] [--contact-sheet PATH] [--thumb PX]

Kinds (most handwritten, every fifth a printed digit from a system font):
  shadow       paper filling a 4:3 frame (portrait or landscape) under the soft
               shadow of a hand or a phone (15-45% darker), vignetting, noise
  desk         white or cream paper, or a yellow sticky note, slightly rotated and
               under mild keystone, on a desk (dark wood, grey, blue, a pattern)
               that fills 20-50% of the frame around it
  tight        the digit cropped tight, ink touching all four edges, with a paper
               margin of 0, 1 or 2 px
  thin         a 1-3 px pen stroke on a 600-1000 px canvas: photos of a ballpoint
               (JPEG) and clean drawing-app exports (PNG)
  pencil       light grey pencil (30-90 grey levels of contrast) on grainy paper,
               a soft shadow in a corner
  rotated      the digit rotated up to 15 degrees either way, mild perspective
  colour       blue, red, green or purple ink on yellow, pink, light blue or kraft
               paper
  orientation  a photo stored as a phone stores it: the pixels rotated, with the
               EXIF orientation (1, 3, 6 or 8) that makes it upright; JPEG with an
               APP1 segment, and a few PNGs with an eXIf chunk
  jpeg         pictures of the kinds above as JPEG at quality 50-95: baseline and
               progressive, 4:2:0 and 4:4:4, some greyscale
  blank        paper, sticky notes and desks, shadows, no digit ("no digit found")

Handwritten digits are MNIST test digits from index 1000 on (none is an
example or a regression sample), drawn as a marker (the MNIST stroke, with a
smooth, crisp edge) or redrawn along their skeleton as a pen or a pencil. The
few that do not survive that legibly (broken strokes, ink-filled loops whose
skeleton reads as another digit: see legible()) are skipped. The orientation
pictures are checked as they are made: ImageOps.exif_transpose of the file
must give the upright picture.

Mostly JPEG, as phones write, some PNG. Every picture's longer side is at most
--max-side (1200 by default), which keeps the default set (250 pictures) near
11 MB. Each picture has its own random generator, seeded by --seed, its kind
and its number, so changing one kind or count leaves the other pictures alone.

Writes into --out (Tests/Fixtures/photos by default) the
pictures and labels.tsv, one line per picture, no header: file, kind, label
(the digit, or - for blank), MNIST test index (or - for printed and blank),
EXIF orientation (or - when the file has none). --contact-sheet PATH also
writes a PNG grid of thumbnails of every picture, as a viewer shows it (EXIF
applied), with its file name and label, for a person to look at.

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import argparse
import io
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont, ImageOps
from scipy import ndimage

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Models"))
import mnist_idx  # noqa: E402
from make_hostile_fixtures import assemble, chunks  # noqa: E402
from make_realworld_fixtures import fonts, ink_alpha, to_u8  # noqa: E402

OUT = os.path.join(ROOT, "Tests/Fixtures/photos")
MNIST_DIRS = [os.path.join(ROOT, "..", "shared", "datasets", "mnist"),
              os.path.join(ROOT, "Tests", "Fixtures", "mnist")]
KINDS = ["shadow", "desk", "tight", "thin", "pencil", "rotated", "colour", "orientation", "jpeg", "blank"]
SCENES = ["shadow", "desk", "tight", "thin", "pencil", "rotated", "colour"]
ORIENTATION = 0x0112
# The stored pixels of a picture whose EXIF orientation is the key, from the
# upright picture; ImageOps.exif_transpose undoes it.
STORE = {1: None, 3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}

WHITE_PAPER = [(243, 243, 240), (236, 236, 232), (246, 244, 238), (232, 234, 236)]
CREAM_PAPER = [(245, 238, 215), (240, 232, 205), (248, 242, 222)]
STICKY_NOTE = [(252, 234, 110), (250, 228, 95), (255, 240, 135)]
COLOUR_PAPER = {"yellow": (250, 236, 150), "pink": (248, 200, 212), "light blue": (192, 220, 242),
                "kraft": (196, 160, 118)}
COLOUR_INK = {"blue": (30, 55, 165), "red": (185, 30, 35), "green": (25, 115, 55), "purple": (95, 40, 135)}


# Geometry

def homography(src, dst):
    """The 3x3 matrix that maps the four points src onto the four points dst."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(src, dst):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return np.append(np.linalg.solve(np.array(rows, float), np.array(rhs, float)), 1.0).reshape(3, 3)


def corners(width, height):
    return np.array([[0, 0], [width, 0], [width, height], [0, height]], float)


def warp(source, quad, width, height):
    """source (2-D, or 3-D with channels last) mapped onto the quadrilateral quad
    (its corners top-left, top-right, bottom-right, bottom-left) of a width x
    height field; zero outside. Bilinear, so edges are anti-aliased."""
    # Two pixels of zeros around the source, so the bilinear sampling fades the
    # edge out over a pixel instead of cutting it off (jagged edges).
    source = np.pad(source, ((2, 2), (2, 2)) + ((0, 0),) * (source.ndim - 2))
    h = homography(quad, corners(source.shape[1] - 4, source.shape[0] - 4) + 2)
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1 + 1), min(height, y1 + 1)
    shape = (height, width) + source.shape[2:]
    out = np.zeros(shape, np.float32)
    if x1 <= x0 or y1 <= y0:
        return out
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float64) + 0.5
    w = h[2, 0] * xs + h[2, 1] * ys + h[2, 2]
    sx = (h[0, 0] * xs + h[0, 1] * ys + h[0, 2]) / w - 0.5
    sy = (h[1, 0] * xs + h[1, 1] * ys + h[1, 2]) / w - 0.5
    channels = [source] if source.ndim == 2 else [source[..., c] for c in range(source.shape[2])]
    sampled = [ndimage.map_coordinates(c.astype(np.float32), [sy, sx], order=1, mode="nearest")
               for c in channels]
    out[y0:y1, x0:x1] = sampled[0] if source.ndim == 2 else np.stack(sampled, axis=-1)
    return out


def rectangle(cx, cy, width, height, degrees):
    """Corners of a width x height rectangle centred on (cx, cy), turned by degrees
    (counter-clockwise as seen)."""
    a = math.radians(degrees)
    rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    return (corners(width, height) - [width / 2, height / 2]) @ rot.T + [cx, cy]


def keystone(quad, rng, strength):
    """The quad as a phone tilted towards one of its edges sees it: that edge
    shorter by `strength` and a little farther."""
    q = quad.copy()
    a = int(rng.integers(4))
    b = (a + 1) % 4
    mid = (q[a] + q[b]) / 2
    centre = q.mean(axis=0)
    q[a] = mid + (q[a] - mid) * (1 - strength)
    q[b] = mid + (q[b] - mid) * (1 - strength)
    towards = (centre - mid) * strength * 0.3
    q[a] += towards
    q[b] += towards
    return q


def fit(quad, width, height, margin):
    """quad moved (and shrunk if need be) to lie inside the frame with margin."""
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    room = np.array([width, height], float) - 2 * margin
    scale = min(1.0, *(room / (hi - lo)))
    centre = (lo + hi) / 2
    quad = (quad - centre) * scale + centre
    lo, hi = quad.min(axis=0), quad.max(axis=0)
    shift = np.maximum(0, margin - lo) - np.maximum(0, hi - (np.array([width, height]) - margin))
    return quad + shift


# Digits as ink coverage

def thinned(binary):
    """Zhang-Suen thinning: the one-pixel skeleton of a boolean mask."""
    img = np.pad(binary.astype(np.uint8), 1)
    changed = True
    while changed:
        changed = False
        for step in (0, 1):
            p = img
            p2, p3, p4, p5 = p[:-2, 1:-1], p[:-2, 2:], p[1:-1, 2:], p[2:, 2:]
            p6, p7, p8, p9 = p[2:, 1:-1], p[2:, :-2], p[1:-1, :-2], p[:-2, :-2]
            ring = [p2, p3, p4, p5, p6, p7, p8, p9, p2]
            count = sum(n.astype(np.int32) for n in ring[:8])
            transitions = sum(((ring[k] == 0) & (ring[k + 1] == 1)).astype(np.int32) for k in range(8))
            if step == 0:
                side = ((p2 & p4 & p6) == 0) & ((p4 & p6 & p8) == 0)
            else:
                side = ((p2 & p4 & p8) == 0) & ((p2 & p6 & p8) == 0)
            remove = (p[1:-1, 1:-1] == 1) & (count >= 2) & (count <= 6) & (transitions == 1) & side
            if remove.any():
                img[1:-1, 1:-1][remove] = 0
                changed = True
    return img[1:-1, 1:-1].astype(bool)


def pen_stroke(alpha, width):
    """The same digit redrawn with a pen `width` pixels wide along the middle of
    its strokes, anti-aliased."""
    skeleton = thinned(ndimage.gaussian_filter(alpha, max(1.0, alpha.shape[0] / 150)) > 0.5)
    distance = ndimage.distance_transform_edt(~skeleton)
    stroke = np.clip(width / 2 + 0.5 - distance, 0, 1)
    # Round off the skeleton's one-pixel steps.
    return np.clip(ndimage.gaussian_filter(stroke, 0.5) * 1.15, 0, 1).astype(np.float32)


def sharp_edge(field, level, width=1.2):
    """Coverage of where field > level (a number or a field), its edge `width`
    pixels wide: the distance to the level line estimated from the gradient."""
    gy, gx = np.gradient(field)
    return np.clip((field - level) / (np.hypot(gx, gy) + 1e-6) / width + 0.5, 0, 1).astype(np.float32)


def mnist_mask(digit28, height, rng):
    """An MNIST digit enlarged so its ink is `height` pixels tall, with the crisp,
    smooth edge of a marker: ink coverage in [0, 1], a few pixels of margin."""
    rows = np.flatnonzero(digit28.max(axis=1) > 0)
    cols = np.flatnonzero(digit28.max(axis=0) > 0)
    crop = digit28[max(0, rows[0] - 2):rows[-1] + 3, max(0, cols[0] - 2):cols[-1] + 3]
    scale = height / (rows[-1] - rows[0] + 1)
    side = max(crop.shape)
    square = np.zeros((side, side), np.uint8)
    square[:crop.shape[0], :crop.shape[1]] = crop
    big = ink_alpha(square, max(8, int(round(side * scale))), rng, rotate=False)
    big = big[:int(round(crop.shape[0] * scale)), :int(round(crop.shape[1] * scale))]
    # Smoothed over half an MNIST pixel, so the outline follows the stroke and
    # not the 28x28 grid; each stroke cut at half its own height, so a light
    # stroke stays a (thinner) line instead of vanishing.
    smooth = ndimage.gaussian_filter(big, 0.5 * scale)
    peak = ndimage.gaussian_filter(ndimage.maximum_filter(smooth, size=max(3, int(3 * scale))), 1.5 * scale)
    return sharp_edge(smooth, np.clip(0.5 * peak, 0.08, 0.6))


def legible(digit28):
    """Whether the MNIST digit survives as a marker and as a pen drawing: in one
    piece, or two large ones (the bar of a 5), not broken with crumbs of stroke
    about, and with a pen skeleton a person can read. A blob of ink (a
    loop filled in) has no such skeleton: an 8 whose lower loop is a blob
    becomes a P, a 4 with a filled triangle an X. Blobs show as a skeleton far
    from the edge in places (a large inscribed circle compared with the typical
    stroke) or one that, thickened again, leaves ink uncovered. About 8% of
    digits fail."""
    mask = mnist_mask(digit28, 200, None) > 0.5
    pieces, _ = ndimage.label(mask, np.ones((3, 3)))
    sizes = np.sort(np.bincount(pieces.ravel())[1:])[::-1]
    sizes = sizes[sizes > 0.005 * mask.sum()]
    if len(sizes) > 2 or (len(sizes) == 2 and sizes[1] < 0.15 * mask.sum()):
        return False
    skeleton = thinned(mask)
    radii = ndimage.distance_transform_edt(mask)[skeleton]
    radius = np.median(radii)
    if np.percentile(radii, 98) > 1.9 * radius:
        return False
    redrawn = ndimage.distance_transform_edt(~skeleton) <= radius * 1.3 + 1
    return (redrawn & mask).sum() / mask.sum() >= 0.94


def font_mask(digit, height, font_path):
    """A printed digit whose ink is `height` pixels tall."""
    font = ImageFont.truetype(font_path, 100)
    left, top, right, bottom = font.getbbox(str(digit))
    font = ImageFont.truetype(font_path, max(6, int(round(100 * height / (bottom - top)))))
    left, top, right, bottom = font.getbbox(str(digit))
    pad = max(2, height // 20)
    mask = Image.new("L", (right - left + 2 * pad, bottom - top + 2 * pad), 0)
    ImageDraw.Draw(mask).text((pad - left, pad - top), str(digit), fill=255, font=font)
    return np.asarray(mask, np.float32) / 255


def digit_mask(source, height, rng, pen=None):
    """source: ("mnist", digit28) or ("font", digit, path). pen: None keeps the
    marker-thick stroke, a number redraws it with a pen that many pixels wide."""
    if source[0] == "mnist":
        mask = mnist_mask(source[1], height, rng)
    else:
        mask = font_mask(source[1], height, source[2])
    if pen is not None:
        mask = np.pad(mask, 4)
        mask = pen_stroke(mask, pen)
    return mask


def ink_field(mask, width, height, cx, cy, degrees=0.0, perspective=0.0, rng=None):
    """mask placed with its centre at (cx, cy) of a width x height field, turned and
    seen under a keystone of strength `perspective`."""
    quad = rectangle(cx, cy, mask.shape[1], mask.shape[0], degrees)
    if perspective > 0:
        quad = keystone(quad, rng, perspective)
    return warp(mask, quad, width, height)


# Paper, desks and light

def smooth_noise(height, width, rng, cell):
    """Gaussian noise smoothed over about `cell` pixels, unit deviation."""
    small = rng.normal(size=(max(2, int(height / cell) + 2), max(2, int(width / cell) + 2)))
    big = ndimage.zoom(small, (height / (small.shape[0] - 1.5), width / (small.shape[1] - 1.5)), order=3)
    big = big[:height, :width]
    return ((big - big.mean()) / (big.std() + 1e-9)).astype(np.float32)


def paper_albedo(width, height, rng, colour, grain=1.5, mottle=2.5):
    """Paper of the colour (RGB 0-255) with fibres and a faint mottle."""
    colour = np.array(colour, np.float32) + rng.uniform(-4, 4) + rng.uniform(-1.5, 1.5, 3).astype(np.float32)
    fibres = ndimage.gaussian_filter(rng.normal(size=(height, width)).astype(np.float32), 0.7) * 2.2 * grain
    shade = smooth_noise(height, width, rng, max(width, height) / 6) * mottle + fibres
    return colour[None, None, :] * (1 + shade[..., None] / 255)


def composite(albedo, alpha, ink):
    """Ink of colour `ink` (RGB) with coverage alpha on the albedo."""
    a = alpha[..., None]
    return albedo * (1 - a) + np.array(ink, np.float32)[None, None, :] * a


def wood(width, height, rng):
    dark = rng.uniform(0.55, 1.0)
    light = np.array([150, 95, 55], np.float32) * dark
    deep = np.array([80, 45, 25], np.float32) * dark
    vertical = rng.random() < 0.5
    w, h = (height, width) if vertical else (width, height)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    warp_ = smooth_noise(h, w, rng, w / 3) * rng.uniform(8, 25) + smooth_noise(h, w, rng, w / 12) * 3
    period = rng.uniform(9, 22)
    rings = 0.5 + 0.5 * np.sin(2 * np.pi * (ys + warp_ + 0.04 * xs) / period)
    streaks = ndimage.gaussian_filter(rng.normal(size=(h, w)).astype(np.float32), (0.8, 30))
    streaks /= streaks.std() + 1e-9
    t = np.clip(0.35 * rings ** 3 + 0.45 + 0.18 * streaks + 0.1 * smooth_noise(h, w, rng, w / 5), 0, 1)
    planks = rng.uniform(180, 360)
    seams = np.abs(((ys + 0.3 * warp_) % planks) - planks / 2) > planks / 2 - 1.2
    image = deep[None, None] + (light - deep)[None, None] * t[..., None]
    image[seams] *= 0.55
    return np.transpose(image, (1, 0, 2)) if vertical else image


def desk(width, height, rng, style):
    """A desk top: "wood", "grey", "blue" or "pattern"."""
    if style == "wood":
        return wood(width, height, rng)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    if style == "grey":
        base = np.array([rng.uniform(105, 165)] * 3, np.float32) + rng.uniform(-3, 3, 3).astype(np.float32)
        flecks = ndimage.gaussian_filter(rng.normal(size=(height, width)).astype(np.float32), 1.2) * 14
        return base[None, None] + (flecks + 4 * smooth_noise(height, width, rng, width / 4))[..., None]
    if style == "blue":
        base = np.array([rng.uniform(35, 60), rng.uniform(70, 95), rng.uniform(120, 160)], np.float32)
        if rng.random() < 0.5:  # a cutting mat: a grid of light lines
            step = rng.uniform(28, 45)
            lines = ((xs % step) < 1.6) | ((ys % step) < 1.6)
            image = np.broadcast_to(base, (height, width, 3)).copy()
            image[lines] = image[lines] * 0.5 + np.array([200, 210, 220], np.float32) * 0.5
            return image + (2 * smooth_noise(height, width, rng, width / 4))[..., None]
        weave = 6 * np.sin(xs * 1.9) * np.sin(ys * 1.9) + ndimage.gaussian_filter(
            rng.normal(size=(height, width)).astype(np.float32), 0.8) * 8
        return base[None, None] + (weave + 5 * smooth_noise(height, width, rng, width / 5))[..., None]
    # pattern: a gingham tablecloth or tiles
    if rng.random() < 0.5:
        step = rng.uniform(22, 40)
        colour = np.array([[190, 40, 45], [40, 80, 160], [40, 120, 60]][int(rng.integers(3))], np.float32)
        sx = ((xs // step) % 2 == 0).astype(np.float32)
        sy = ((ys // step) % 2 == 0).astype(np.float32)
        amount = (sx + sy) / 2
        white = np.array([238, 236, 230], np.float32)
        image = white + (colour - white) * amount[..., None]
        image += ndimage.gaussian_filter(rng.normal(size=(height, width)).astype(np.float32), 0.7)[..., None] * 6
        return image
    step = rng.uniform(70, 140)
    tile = np.array([rng.uniform(150, 220), rng.uniform(140, 200), rng.uniform(120, 190)], np.float32)
    grout = ((xs % step) < 3) | ((ys % step) < 3)
    image = tile[None, None] + (6 * smooth_noise(height, width, rng, step / 2))[..., None]
    image[grout] = np.array([95, 90, 85], np.float32)
    return image


def gradient(width, height, rng, amount):
    """A light falling off across the frame by `amount` (0-1) in a random direction."""
    angle = rng.uniform(0, 2 * math.pi)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    t = (np.cos(angle) * (xs / width - 0.5) + np.sin(angle) * (ys / height - 0.5)) / 0.7
    return 1 - amount * (t + 0.5)


def vignette(width, height, amount):
    """A lens's light falloff: the corners darker by `amount` (what a phone's
    lens-shading correction leaves, 3-12%)."""
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    r2 = ((xs / width - 0.5) ** 2 + (ys / height - 0.5) ** 2) * 2
    return 1 - amount * r2


def hand_shadow(width, height, rng):
    """The soft shadow of a hand or a phone reaching in from one edge: darkness
    in [0, 1] over part of the frame."""
    scale = 4
    w, h = width // scale, height // scale
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    side = int(rng.integers(4))
    s = min(w, h)
    along = rng.uniform(0.2, 0.8)
    depth = rng.uniform(0.35, 0.65)  # how far into the frame it reaches
    if rng.random() < 0.4:
        # The rounded shadow of a hand: an ellipse mostly outside the frame.
        rx, ry = rng.uniform(0.35, 0.6) * s, rng.uniform(0.5, 0.8) * s
        cx, cy = {0: (along * w, -ry + depth * h), 1: (w + rx - depth * w, along * h),
                  2: (along * w, h + ry - depth * h), 3: (-rx + depth * w, along * h)}[side]
        draw.ellipse([cx - rx, cy - ry, cx + rx, cy + ry], fill=255)
    else:
        # A phone and the arm holding it: a wide band from the edge, ending in
        # a slanted rectangle.
        width_ = rng.uniform(0.3, 0.55) * s
        tilt = rng.uniform(-0.35, 0.35)
        reach = depth * (h if side in (0, 2) else w)
        if side in (0, 2):
            x = along * w
            y_in = reach if side == 0 else h - reach
            y_out = -10 if side == 0 else h + 10
            dx = tilt * reach
            poly = [(x - width_ / 2, y_out), (x + width_ / 2, y_out),
                    (x + width_ / 2 + dx, y_in), (x - width_ / 2 + dx, y_in)]
        else:
            y = along * h
            x_in = reach if side == 3 else w - reach
            x_out = -10 if side == 3 else w + 10
            dy = tilt * reach
            poly = [(x_out, y - width_ / 2), (x_out, y + width_ / 2),
                    (x_in, y + width_ / 2 + dy), (x_in, y - width_ / 2 + dy)]
        draw.polygon(poly, fill=255)
        cx, cy = np.mean(poly[2:], axis=0)
        draw.ellipse([cx - width_ / 2, cy - width_ / 2, cx + width_ / 2, cy + width_ / 2], fill=255)
    soft = rng.uniform(0.04, 0.09) * s
    small = ndimage.gaussian_filter(np.asarray(mask, np.float32) / 255, soft)
    return np.asarray(Image.fromarray(small, "F").resize((width, height), Image.BILINEAR), np.float32)


def corner_shadow(width, height, rng):
    """A soft shadow over one corner."""
    cx = [0, width][int(rng.integers(2))]
    cy = [0, height][int(rng.integers(2))]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    r = rng.uniform(0.45, 0.75) * math.hypot(width, height)
    d = np.hypot(xs - cx, ys - cy) / r
    return np.clip(1.2 - d, 0, 1) ** 1.5 / 1.2 ** 1.5


def light(image, rng, gradient_amount=(0.0, 0.15), vignette_amount=(0.03, 0.12), shadow=None, darkness=0.0):
    """The scene lit: exposure, a falloff, an optional shadow (bluish), vignetting."""
    height, width = image.shape[:2]
    field = rng.uniform(0.9, 1.03) * gradient(width, height, rng, rng.uniform(*gradient_amount))
    field = field * vignette(width, height, rng.uniform(*vignette_amount))
    lit = image * field[..., None]
    if shadow is not None:
        tint = np.array([1.0, 0.97, 0.86], np.float32)
        lit = lit * (1 - darkness * shadow[..., None] * tint[None, None])
    return lit


def camera(image, rng, blur=(0.4, 0.9), noise=(0.6, 1.4)):
    """What a phone makes of the scene, downsized to at most 1200 px: lens blur,
    white balance, what noise is left after denoising and downsizing. Returns
    RGB uint8."""
    image = ndimage.gaussian_filter(image, (rng.uniform(*blur),) * 2 + (0,))
    warm = rng.uniform(-0.035, 0.045)  # white balance: between cool daylight and warm lamps
    image = image * np.array([1 + warm, 1 + rng.uniform(-0.01, 0.01), 1 - warm], np.float32)[None, None]
    height, width = image.shape[:2]
    sigma = rng.uniform(*noise)
    grain = ndimage.gaussian_filter(rng.normal(size=(height, width)).astype(np.float32), 0.6) * sigma * 2.0
    chroma = ndimage.gaussian_filter(rng.normal(size=image.shape).astype(np.float32), (1.5, 1.5, 0)) * sigma * 0.8
    return to_u8(image + grain[..., None] + chroma)


# Scenes: each returns the picture (RGB uint8) and whether the source is drawn

def frame(rng, max_side, low=0.67, portrait=None):
    """A 4:3 frame whose longer side is between low * max_side and max_side."""
    long_side = int(rng.uniform(low, 1.0) * max_side) // 8 * 8
    short_side = int(round(long_side * 0.75)) // 8 * 8
    if portrait is None:
        portrait = rng.random() < 0.6
    return (short_side, long_side) if portrait else (long_side, short_side)


def ink_colour(rng):
    """Black or dark blue marker or pen as a camera sees it."""
    if rng.random() < 0.6:
        return tuple(rng.uniform(25, 60) + rng.uniform(-5, 5, 3))
    return (rng.uniform(20, 45), rng.uniform(30, 60), rng.uniform(90, 130))


def pen_for(height, rng):
    """None (marker, the MNIST stroke) or a pen width for a digit `height` tall."""
    if rng.random() < 0.5:
        return None
    return max(3.0, height * rng.uniform(0.025, 0.06))


def scene_shadow(source, rng, max_side, portrait=None):
    if portrait is None:
        portrait = rng.random() < 0.6
    width, height = (int(max_side * 0.75), max_side) if portrait else (max_side, int(max_side * 0.75))
    albedo = paper_albedo(width, height, rng, WHITE_PAPER[int(rng.integers(len(WHITE_PAPER)))])
    if source is not None:
        tall = int(min(width, height) * rng.uniform(0.3, 0.6))
        mask = digit_mask(source, tall, rng, pen_for(tall, rng))
        cx = width * rng.uniform(0.35, 0.65)
        cy = height * rng.uniform(0.35, 0.65)
        albedo = composite(albedo, ink_field(mask, width, height, cx, cy, rng.uniform(-4, 4)), ink_colour(rng))
    lit = light(albedo, rng, shadow=hand_shadow(width, height, rng), darkness=rng.uniform(0.15, 0.45))
    return camera(lit, rng)


def sheet_on_desk(source, rng, max_side, sheet=None, portrait=None):
    width, height = frame(rng, max_side, portrait=portrait)
    kind = sheet or rng.choice(["white", "cream", "sticky"], p=[0.4, 0.25, 0.35])
    colour = {"white": WHITE_PAPER, "cream": CREAM_PAPER, "sticky": STICKY_NOTE}[kind]
    aspect = 1.0 if kind == "sticky" else rng.uniform(1.25, 1.45)
    if kind != "sticky" and (height > width) != (rng.random() < 0.2):
        aspect = 1 / aspect  # sheets mostly lie as the frame does
    area = rng.uniform(0.5, 0.8) * width * height
    sheet_w = math.sqrt(area * aspect)
    sheet_h = sheet_w / aspect
    quad = rectangle(width / 2, height / 2, sheet_w, sheet_h, rng.uniform(-8, 8))
    quad = keystone(quad, rng, rng.uniform(0.03, 0.12))
    quad = fit(quad, width, height, 0.03 * min(width, height))
    quad += rng.uniform(-0.02, 0.02, 2) * [width, height]
    quad = fit(quad, width, height, 0.015 * min(width, height))
    # The sheet at about the size it appears.
    sw = int(np.linalg.norm(quad[1] - quad[0]) / 2 + np.linalg.norm(quad[2] - quad[3]) / 2)
    sh = int(np.linalg.norm(quad[3] - quad[0]) / 2 + np.linalg.norm(quad[2] - quad[1]) / 2)
    albedo = paper_albedo(sw, sh, rng, colour[int(rng.integers(len(colour)))])
    if kind == "sticky":  # the glued strip along the top is a little darker
        albedo[: int(sh * 0.18)] *= 0.97
    if source is not None:
        tall = int(min(sw, sh) * rng.uniform(0.45, 0.75))
        mask = digit_mask(source, tall, rng, pen_for(tall, rng))
        field = ink_field(mask, sw, sh, sw * rng.uniform(0.42, 0.58), sh * rng.uniform(0.42, 0.58),
                          rng.uniform(-5, 5))
        albedo = composite(albedo, field, ink_colour(rng))
    style = rng.choice(["wood", "grey", "blue", "pattern"], p=[0.4, 0.2, 0.2, 0.2])
    table = desk(width, height, rng, style)
    cover = warp(np.ones((sh, sw), np.float32), quad, width, height)
    # The sheet's own soft shadow on the desk.
    offset = rng.uniform(2, 8, 2) * (max(width, height) / 1200)
    under = ndimage.shift(ndimage.gaussian_filter(cover, rng.uniform(3, 8)), offset[::-1], order=1)
    table = table * (1 - rng.uniform(0.25, 0.45) * under[..., None])
    sheet = warp(albedo, quad, width, height)
    scene = table * (1 - cover[..., None]) + sheet
    shadow = hand_shadow(width, height, rng) if rng.random() < 0.25 else None
    return camera(light(scene, rng, shadow=shadow, darkness=rng.uniform(0.15, 0.35)), rng)


def scene_desk(source, rng, max_side, portrait=None):
    return sheet_on_desk(source, rng, max_side, portrait=portrait)


def scene_tight(source, rng, max_side, small=False, margin=None):
    if margin is None:
        margin = int(rng.integers(3))
    tall = int(rng.uniform(0.07, 0.2) * max_side if small else rng.uniform(0.12, 0.45) * max_side)
    width = height = int(tall * 1.8)
    albedo = paper_albedo(width, height, rng, WHITE_PAPER[int(rng.integers(len(WHITE_PAPER)))])
    mask = digit_mask(source, tall, rng, pen_for(tall, rng))
    field = ink_field(mask, width, height, width / 2, height / 2, rng.uniform(-6, 6))
    lit = light(composite(albedo, field, ink_colour(rng)), rng, vignette_amount=(0, 0.05))
    picture = camera(lit, rng)
    # Like `convert -trim`: the box of whatever is clearly darker than the paper.
    grey = picture.mean(axis=2)
    ink = grey < np.median(grey) - 0.5 * (np.median(grey) - np.percentile(grey, 0.5))
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    return picture[max(0, rows[0] - margin):rows[-1] + 1 + margin, max(0, cols[0] - margin):cols[-1] + 1 + margin]


def scene_thin(source, rng, max_side, photo=True):
    side = int(rng.uniform(600, 1000) * max_side / 1200)
    width, height = (side, side) if rng.random() < 0.4 else (side, int(side * rng.uniform(0.7, 0.9)))
    if rng.random() < 0.5:
        width, height = height, width
    tall = int(min(width, height) * rng.uniform(0.4, 0.75))
    pen = float(rng.choice([1.0, 1.5, 2.0, 2.5, 3.0]))
    mask = digit_mask(source, tall, rng, pen)
    field = ink_field(mask, width, height, width * rng.uniform(0.35, 0.65), height * rng.uniform(0.35, 0.65),
                      rng.uniform(-5, 5))
    if not photo:  # a drawing app's export: flat white, a dark pen
        return to_u8(composite(np.full((height, width, 3), 255, np.float32), field, tuple(rng.uniform(0, 40, 3))))
    albedo = paper_albedo(width, height, rng, WHITE_PAPER[int(rng.integers(len(WHITE_PAPER)))])
    ink = (rng.uniform(15, 40), rng.uniform(25, 50), rng.uniform(70, 140)) if rng.random() < 0.5 else ink_colour(rng)
    return camera(light(composite(albedo, field, ink), rng), rng, blur=(0.3, 0.55), noise=(0.8, 1.8))


def scene_pencil(source, rng, max_side, portrait=None):
    width, height = frame(rng, max_side, portrait=portrait)
    paper = WHITE_PAPER[int(rng.integers(len(WHITE_PAPER)))]
    albedo = paper_albedo(width, height, rng, paper, grain=rng.uniform(2.5, 4.0), mottle=3.5)
    if source is not None:
        tall = int(min(width, height) * rng.uniform(0.35, 0.65))
        mask = digit_mask(source, tall, rng, max(3.0, tall * rng.uniform(0.015, 0.03)))
        field = ink_field(mask, width, height, width * rng.uniform(0.38, 0.62), height * rng.uniform(0.38, 0.62),
                          rng.uniform(-6, 6))
        # Graphite catches on the paper's tooth: coverage broken up by grain
        # (about 85% on average), the pressure varying along the stroke.
        grain = ndimage.gaussian_filter(rng.normal(size=(height, width)).astype(np.float32), 0.8)
        tooth = np.clip(0.95 + 0.25 * grain / grain.std(), 0.2, 1)
        pressure = np.clip(1 + 0.1 * smooth_noise(height, width, rng, tall / 3), 0.7, 1)
        contrast = rng.uniform(30, 90)  # the stroke's core against the paper, in grey levels
        level = np.mean(paper) - contrast
        albedo = composite(albedo, field * tooth * pressure, (level, level, level * 1.02))
    lit = light(albedo, rng, shadow=corner_shadow(width, height, rng), darkness=rng.uniform(0.15, 0.35))
    return camera(lit, rng)


def scene_rotated(source, rng, max_side, portrait=None):
    width, height = frame(rng, max_side, portrait=portrait)
    colour = (WHITE_PAPER + CREAM_PAPER)[int(rng.integers(len(WHITE_PAPER) + len(CREAM_PAPER)))]
    albedo = paper_albedo(width, height, rng, colour)
    tall = int(min(width, height) * rng.uniform(0.35, 0.65))
    mask = digit_mask(source, tall, rng, pen_for(tall, rng))
    angle = rng.uniform(5, 15) * rng.choice([-1, 1])
    field = ink_field(mask, width, height, width * rng.uniform(0.4, 0.6), height * rng.uniform(0.4, 0.6),
                      angle, rng.uniform(0.04, 0.15), rng)
    return camera(light(composite(albedo, field, ink_colour(rng)), rng), rng)


def scene_colour(source, rng, max_side, portrait=None):
    width, height = frame(rng, max_side, portrait=portrait)
    paper = list(COLOUR_PAPER)[int(rng.integers(len(COLOUR_PAPER)))]
    ink = list(COLOUR_INK)[int(rng.integers(len(COLOUR_INK)))]
    albedo = paper_albedo(width, height, rng, COLOUR_PAPER[paper], grain=2.5 if paper == "kraft" else 1.5)
    if source is not None:
        tall = int(min(width, height) * rng.uniform(0.35, 0.65))
        mask = digit_mask(source, tall, rng, pen_for(tall, rng))
        field = ink_field(mask, width, height, width * rng.uniform(0.4, 0.6), height * rng.uniform(0.4, 0.6),
                          rng.uniform(-6, 6))
        albedo = composite(albedo, field, np.array(COLOUR_INK[ink]) * rng.uniform(0.85, 1.1))
    return camera(light(albedo, rng), rng)


SCENE = {"shadow": scene_shadow, "desk": scene_desk, "tight": scene_tight, "thin": scene_thin,
         "pencil": scene_pencil, "rotated": scene_rotated, "colour": scene_colour}


def scene_sticky(source, rng, max_side, portrait=None):
    return sheet_on_desk(source, rng, max_side, sheet="sticky", portrait=portrait)


# Files

def png_has_exif(data):
    parts = chunks(data)
    names = [name for name, _ in parts]
    return b"eXIf" in names and names.index(b"eXIf") < names.index(b"IDAT")


def encode(picture, fmt, quality=90, progressive=False, grey=False, subsampling=2, orientation=None):
    """The bytes of the picture (RGB uint8, upright) as a file: the pixels stored
    as a phone would for the EXIF orientation."""
    image = Image.fromarray(picture, "RGB")
    if grey:
        image = image.convert("L")
    exif = None
    if orientation is not None:
        if STORE[orientation] is not None:
            image = image.transpose(STORE[orientation])
        tags = Image.Exif()
        tags[ORIENTATION] = orientation
        exif = tags.tobytes()
    out = io.BytesIO()
    if fmt == "jpeg":
        options = {"quality": quality, "optimize": True, "progressive": progressive}
        if not grey:
            options["subsampling"] = subsampling
        if exif is not None:
            options["exif"] = exif
        image.save(out, "JPEG", **options)
        return out.getvalue()
    image.save(out, "PNG", optimize=True, **({"exif": exif} if exif is not None else {}))
    data = out.getvalue()
    if exif is not None and not png_has_exif(data):
        # An older Pillow: put the eXIf chunk (TIFF data, no "Exif" prefix) before IDAT.
        parts = chunks(data)
        at = [name for name, _ in parts].index(b"IDAT")
        tiff = exif[6:] if exif.startswith(b"Exif\x00\x00") else exif
        data = assemble(parts[:at] + [(b"eXIf", tiff)] + parts[at:])
    return data


def check_upright(data, picture, orientation):
    """The file read back and turned by ImageOps.exif_transpose must be the upright
    picture, and its stored pixels, for 3, 6 and 8, must not be: turned half
    round (3), or a quarter, so of the other shape (6, 8)."""
    image = Image.open(io.BytesIO(data))
    assert image.getexif().get(ORIENTATION) == orientation, "orientation tag not read back"
    upright = np.asarray(ImageOps.exif_transpose(image).convert("L"), np.float32)
    expected = np.asarray(Image.fromarray(picture, "RGB").convert("L"), np.float32)
    assert upright.shape == expected.shape, f"exif_transpose gives {upright.shape}, expected {expected.shape}"
    error = float(np.abs(upright - expected).mean())
    assert error < 4, f"exif_transpose does not give the upright picture (mean error {error:.1f})"
    stored = np.asarray(image.convert("L"), np.float32)
    if orientation == 3:
        assert float(np.abs(stored - expected).mean()) > error, "stored pixels are not turned"
    if orientation in (6, 8):
        assert stored.shape == expected.shape[::-1], "stored pixels are not turned"


def contact_sheet(out_dir, rows, path, thumb=160, columns=None):
    """A PNG grid of every picture as a viewer shows it (EXIF applied), with its
    file name and label underneath."""
    columns = columns or max(1, min(10, len(rows)))
    font_path = next((f for f in fonts() if "DejaVuSans.ttf" in f), fonts()[0])
    font = ImageFont.truetype(font_path, max(9, thumb // 14))
    cell_w, cell_h = thumb + 8, thumb + 2 * (font.size + 3) + 8
    count = len(rows)
    sheet = Image.new("RGB", (columns * cell_w, ((count + columns - 1) // columns) * cell_h), (60, 60, 60))
    draw = ImageDraw.Draw(sheet)
    for i, row in enumerate(rows):
        name, kind, label, _, orientation = row
        stored = Image.open(os.path.join(out_dir, name))
        size = f"{stored.width}x{stored.height}"  # as stored
        image = ImageOps.exif_transpose(stored).convert("RGB")
        image.thumbnail((thumb, thumb), Image.LANCZOS)
        x, y = (i % columns) * cell_w + 4, (i // columns) * cell_h + 4
        sheet.paste(image, (x + (thumb - image.width) // 2, y + (thumb - image.height) // 2))
        draw.text((x, y + thumb + 2), name[:thumb // (font.size // 2 + 1) + 2], fill=(255, 255, 255), font=font)
        caption = f"label {label}  {size}" + (f"  exif {orientation}" if orientation != "-" else "")
        draw.text((x, y + thumb + 3 + font.size), caption, fill=(255, 230, 120), font=font)
    sheet.save(path)


def load_mnist(folder):
    return mnist_idx.load_first_split([folder] if folder else MNIST_DIRS, "t10k", "make_photo_fixtures")


def downsized(scene, source, rng, max_side, **options):
    """An edited copy: the photo made at up to max_side, then a third of the size
    (which also averages its noise away, as downsizing does)."""
    picture = scene(source, rng, int(max_side * rng.uniform(0.8, 1.0)), **options)
    return np.asarray(Image.fromarray(picture, "RGB").reduce(3))


def phone_quality(rng):
    return int(rng.integers(78, 91))


def generate(kind, i, rng, source, max_side):
    """(bytes, extension, orientation or None, detail for the file name)."""
    if kind == "tight":
        png = i % 3 == 0  # a crop exported from an editor
        margin = (i // 3) % 3
        picture = scene_tight(source, rng, max_side, small=png, margin=margin)
    elif kind == "thin":
        png = i % 4 == 3  # a drawing app's export
        picture = scene_thin(source, rng, max_side, photo=not png)
    elif kind in SCENES:
        png = i % 13 == 5
        picture = downsized(SCENE[kind], source, rng, max_side) if png else SCENE[kind](source, rng, max_side)
    if kind in SCENES:
        detail = f"m{margin}" if kind == "tight" else ""
        if png:
            return encode(picture, "png"), "png", None, detail
        return encode(picture, "jpeg", quality=phone_quality(rng)), "jpg", None, detail
    if kind == "orientation":
        orientation = [6, 8, 3, 1, 6, 8, 3, 6][i % 8]
        scene = ["shadow", "desk", "rotated", "colour", "pencil"][i % 5]
        png = i % 7 == 6
        # A phone's sensor is landscape: held upright (6, 8) it takes portraits.
        portrait = orientation in (6, 8) or (orientation == 3 and i % 2 == 0)
        if png:
            picture = downsized(SCENE[scene], source, rng, max_side, portrait=portrait)
        else:
            picture = SCENE[scene](source, rng, max_side, portrait=portrait)
        data = encode(picture, "png" if png else "jpeg", quality=phone_quality(rng), orientation=orientation)
        check_upright(data, picture, orientation)
        return data, "png" if png else "jpg", orientation, f"{scene}-o{orientation}"
    if kind == "jpeg":
        scene = SCENES[i % len(SCENES)]
        quality = int(round(50 + 45 * ((i * 7) % 26) / 25))
        progressive = i % 2 == 1
        grey = i % 3 == 0
        subsampling = 0 if i % 4 == 2 else 2
        picture = SCENE[scene](source, rng, max_side)
        data = encode(picture, "jpeg", quality=quality, progressive=progressive, grey=grey, subsampling=subsampling)
        detail = f"{scene}-q{quality}" + ("-prog" if progressive else "") + ("-grey" if grey else "") + \
                 ("-444" if subsampling == 0 and not grey else "")
        return data, "jpg", None, detail
    # blank
    variant = ["shadow", "desk", "sticky", "pencil", "colour"][i % 5]
    scene = {"shadow": scene_shadow, "desk": scene_desk, "sticky": scene_sticky, "pencil": scene_pencil,
             "colour": scene_colour}[variant]
    png = i % 6 == 5
    picture = downsized(scene, None, rng, max_side) if png else scene(None, rng, max_side)
    data = encode(picture, "png") if png else encode(picture, "jpeg", quality=phone_quality(rng))
    return data, "png" if png else "jpg", None, variant


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default=OUT, help="output folder (default: Tests/Fixtures/photos)")
    parser.add_argument("--count-per-kind", type=int, default=26,
                        help="pictures of each digit kind (default 26); blank gets 60%% of it")
    parser.add_argument("--seed", type=int, default=20261207, help="the seed of every picture (default 20261207)")
    parser.add_argument("--max-side", type=int, default=1200, help="longest side of a photo in pixels (default 1200)")
    parser.add_argument("--mnist", help="folder of t10k-images-idx3-ubyte[.gz] and t10k-labels-idx1-ubyte[.gz] "
                                        "(default: ../shared/datasets/mnist, else Tests/Fixtures/mnist)")
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds to make (default: all)")
    parser.add_argument("--contact-sheet", metavar="PATH", help="also write a PNG grid of thumbnails of every picture")
    parser.add_argument("--thumb", type=int, default=160, help="thumbnail size on the contact sheet (default 160)")
    args = parser.parse_args()

    kinds = [k for k in args.kinds.split(",") if k]
    unknown = set(kinds) - set(KINDS)
    if unknown:
        parser.error(f"unknown kinds: {', '.join(sorted(unknown))}")
    images, labels = load_mnist(args.mnist)
    font_paths = fonts()
    # Test digits from index 1000 on, so none is an example or a regression
    # sample; each kind draws from its own stretch of one permutation.
    pool = np.random.default_rng(args.seed).permutation(np.arange(1000, len(images)))
    os.makedirs(args.out, exist_ok=True)
    for name in os.listdir(args.out):
        if name.endswith((".png", ".jpg")) or name == "labels.tsv":
            os.remove(os.path.join(args.out, name))

    rows, sizes = [], {}
    for kind in kinds:
        k = KINDS.index(kind)
        count = args.count_per_kind if kind != "blank" else max(1, round(0.6 * args.count_per_kind))
        stretch = (int(j) for j in pool[1000 * k:1000 * (k + 1)] if legible(images[j]))
        for i in range(count):
            rng = np.random.default_rng([args.seed, k, i])
            index, label, source = None, None, None
            if kind != "blank":
                if i % 5 == 4:  # printed
                    label = (i // 5 + 3 * k) % 10
                    source = ("font", label, font_paths[(i // 5 + 7 * k) % len(font_paths)])
                else:
                    index = next(stretch)
                    label = int(labels[index])
                    source = ("mnist", images[index])
            data, ext, orientation, detail = generate(kind, i, rng, source, args.max_side)
            name = f"{kind}-{i:03d}" + (f"-{label}" if label is not None else "") + \
                   ("-printed" if source is not None and source[0] == "font" else "") + \
                   (f"-{detail}" if detail else "") + "." + ext
            with open(os.path.join(args.out, name), "wb") as f:
                f.write(data)
            width, height = Image.open(io.BytesIO(data)).size
            sizes.setdefault(kind, []).append((width, height, len(data), ext))
            rows.append((name, kind, "-" if label is None else str(label), "-" if index is None else str(index),
                         "-" if orientation is None else str(orientation)))
    with open(os.path.join(args.out, "labels.tsv"), "w") as f:
        f.write("".join("\t".join(row) + "\n" for row in rows))

    total = 0
    print(f"{'kind':12} {'count':>5} {'jpg':>4} {'png':>4} {'smallest':>10} {'largest':>10} {'bytes':>10}")
    for kind, entries in sizes.items():
        byte_count = sum(e[2] for e in entries)
        total += byte_count
        small = min(entries, key=lambda e: e[0] * e[1])
        large = max(entries, key=lambda e: e[0] * e[1])
        print(f"{kind:12} {len(entries):5d} {sum(e[3] == 'jpg' for e in entries):4d} "
              f"{sum(e[3] == 'png' for e in entries):4d} {small[0]:>4}x{small[1]:<5} {large[0]:>4}x{large[1]:<5} "
              f"{byte_count:10d}")
    print(f"wrote {len(rows)} pictures and labels.tsv to {args.out}: {total} bytes ({total / 1e6:.1f} MB)")
    if args.contact_sheet:
        contact_sheet(args.out, rows, args.contact_sheet, args.thumb)
        print(f"contact sheet: {args.contact_sheet}")


if __name__ == "__main__":
    main()
