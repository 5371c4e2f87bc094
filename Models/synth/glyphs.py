"""Glyph sources for the synthetic training scenes and the 11-class classifier.

Every source returns an ink *coverage* array (float32, 0..1, ink = 1, about
64-160 px tall, cropped to its ink with a small margin) and a label: 0-9 for
a digit, 10 for "not a digit". Digits come from MNIST's training split
(handwriting, as scanned or redrawn as an even pen line along its skeleton),
the training fonts (print), a procedural 7-segment display and condensed
counter-wheel faces. The negatives are what a reader must not
call a digit: letters that look like no digit, symbols, scribbles, hatching,
checkers, circles, lines, several digits, half a digit, a digit with a
letter touching it.

Fonts: only `typeset.training_fonts()` (it refuses the faces the evaluation
fixtures are typeset in). MNIST: only the training split.
"""

import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from scipy import ndimage

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mnist_idx  # noqa: E402
import typeset  # noqa: E402

DIGIT, NOT_DIGIT = "digit", "not-digit"
# Letters no reader would take for a digit (O, I, l, S, Z, B, G, q, T... are left out).
LETTERS = "ACEFHKMNPRUVWXYacdefhkmnpruvwxy"
SYMBOLS = "#%?&@*+=<>$!()[]{}~^-\u2212\u2192\u2190\u2191\u2193"
# Letters and signs for the "letter+" kind (glyph_set.py --more-negatives): a typeset T was
# read as a 7 and a section sign as a 5. T is in on purpose, typeset: LETTERS leaves it out
# because a hand-drawn T can be a 7. k is among LETTERS too.
MORE_CHARACTERS = "LTkt\u00a7\u00b6\u00a3\u20ac\u00a9\u00ae"
# Segments a-g as (x0, y0, x1, y1) in a 1x2 box; DIGIT_SEGMENTS lists the lit ones.
SEGMENTS = {"a": (0, 0, 1, 0), "b": (1, 0, 1, 1), "c": (1, 1, 1, 2), "d": (0, 2, 1, 2),
            "e": (0, 1, 0, 2), "f": (0, 0, 0, 1), "g": (0, 1, 1, 1)}
DIGIT_SEGMENTS = ["abcdef", "bc", "abdeg", "abcdg", "bcfg", "acdfg", "acdefg", "abc", "abcdefg", "abcdfg"]


def crop(cov, margin=2):
    """`cov` cropped to its ink plus `margin`, float32; None when it holds no ink."""
    rows = np.flatnonzero(cov.max(axis=1) > 0.05)
    cols = np.flatnonzero(cov.max(axis=0) > 0.05)
    if len(rows) == 0 or len(cols) == 0:
        return None
    r0, r1 = max(rows[0] - margin, 0), rows[-1] + margin + 1
    c0, c1 = max(cols[0] - margin, 0), cols[-1] + margin + 1
    return np.ascontiguousarray(cov[r0:r1, c0:c1], dtype=np.float32)


def resize(cov, width, height):
    resample = Image.BOX if width < cov.shape[1] else Image.BICUBIC
    out = Image.fromarray(cov.astype(np.float32), mode="F").resize((max(1, width), max(1, height)), resample)
    return np.clip(np.asarray(out, dtype=np.float32), 0, 1)


def shear(cov, amount):
    """Slanted by `amount` (x shift per unit of height, positive leans right)."""
    h, w = cov.shape
    pad = int(abs(amount) * h) + 2
    out = Image.fromarray(cov, mode="F").transform(
        (w + pad, h), Image.AFFINE, (1, amount, -pad if amount > 0 else 0, 0, 1, 0), Image.BILINEAR)
    return np.asarray(out, dtype=np.float32)


def stroke_width(rng, cov, lo=-2, hi=3):
    """Thinner or bolder strokes by grey erosion/dilation of a random radius."""
    r = int(rng.integers(lo, hi + 1))
    if r > 0:
        return ndimage.grey_dilation(cov, size=(2 * r + 1, 2 * r + 1))
    if r < 0:
        thin = ndimage.grey_erosion(cov, size=(1 - 2 * r, 1 - 2 * r))
        return thin if thin.sum() > 0.5 * cov.sum() else cov  # not so thin that strokes break
    return cov


def elastic(rng, cov, strength=3.0):
    """A gentle random warp: a smooth displacement field of a few pixels."""
    h, w = cov.shape
    small = (4, 4)
    dy = np.asarray(Image.fromarray(rng.normal(0, strength, small).astype(np.float32), "F").resize((w, h), Image.BICUBIC))
    dx = np.asarray(Image.fromarray(rng.normal(0, strength, small).astype(np.float32), "F").resize((w, h), Image.BICUBIC))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    return ndimage.map_coordinates(cov, [ys + dy, xs + dx], order=1, mode="constant").astype(np.float32)


def polyline(points, width, size, scale=2):
    """Antialiased coverage of a pen line through `points` (drawn at `scale`x, then averaged)."""
    w, h = size
    canvas = Image.new("L", (w * scale, h * scale), 0)
    draw = ImageDraw.Draw(canvas)
    pts = [(x * scale, y * scale) for x, y in points]
    lw = max(1, int(round(width * scale)))
    draw.line(pts, fill=255, width=lw, joint="curve")
    r = lw / 2
    for x, y in (pts[0], pts[-1]):
        draw.ellipse((x - r, y - r, x + r, y + r), fill=255)
    return np.asarray(canvas.resize((w, h), Image.BOX), dtype=np.float32) / 255


def bezier(rng, count, size):
    """Points along a smooth random curve through `count` random control points in `size`."""
    w, h = size
    ctrl = rng.uniform(0.1, 0.9, (count, 2)) * (w, h)
    t = np.linspace(0, 1, 24 * count)[:, None]
    pts = []
    for a, b, c in zip(ctrl[:-2], ctrl[1:-1], ctrl[2:]):
        p0, p2 = (a + b) / 2, (b + c) / 2
        seg = (1 - t[:24]) ** 2 * p0 + 2 * (1 - t[:24]) * t[:24] * b + t[:24] ** 2 * p2
        pts += [tuple(p) for p in seg]
    return pts or [tuple(p) for p in ctrl]


class GlyphBank:
    """MNIST's training digits and the training fonts, loaded once."""

    def __init__(self, mnist_dir):
        self.mnist, self.mnist_labels = mnist_idx.load_split(mnist_dir, "train")
        self.fonts = typeset.training_fonts()
        self.condensed = [f for f in self.fonts if any(k in os.path.basename(f) for k in
                                                       ("Mono", "Condensed", "Narrow", "Hack", "Inconsolata"))]
        self._cache = {}

    def font(self, path, size):
        key = (path, size)
        if key not in self._cache:
            self._cache[key] = ImageFont.truetype(path, size)
        return self._cache[key]

    def _index_of(self, rng, digit):
        """A random MNIST index holding `digit`."""
        while True:
            i = int(rng.integers(len(self.mnist)))
            if self.mnist_labels[i] == digit:
                return i

    def _missing(self, font, text):
        """Whether `font` draws `text` as its missing-glyph box (a box reads as a 0)."""
        key = (id(font), "tofu")
        if key not in self._cache:
            self._cache[key] = bytes(font.getmask("\uE000"))
        return bytes(font.getmask(text)) == self._cache[key]

    # --- digits -------------------------------------------------------
    def mnist_digit(self, rng, index=None):
        i = int(rng.integers(len(self.mnist))) if index is None else index
        big = resize(self.mnist[i].astype(np.float32) / 255, 112, 112)
        gamma = rng.uniform(0.25, 0.45)
        cov = np.clip((big - gamma) / rng.uniform(0.15, 0.35), 0, 1)
        cov = stroke_width(rng, cov, -3, 2)
        if rng.random() < 0.6:
            cov = elastic(rng, cov)
        if rng.random() < 0.3:
            cov = shear(cov, rng.uniform(-0.25, 0.25))
        return crop(cov), int(self.mnist_labels[i])

    def text(self, rng, text, path=None, size=96, stroke=None):
        """Coverage of `text` in a font (random unless `path`), or None when the font lacks it."""
        path = path or self.fonts[int(rng.integers(len(self.fonts)))]
        font = self.font(path, size)
        stroke = int(rng.choice([0, 0, 0, 1, 2, 4])) if stroke is None else stroke
        if self._missing(font, text):
            return None
        left, top, right, bottom = font.getbbox(text, stroke_width=stroke)
        canvas = Image.new("L", (right - left + 8, bottom - top + 8), 0)
        ImageDraw.Draw(canvas).text((4 - left, 4 - top), text, fill=255, font=font,
                                    stroke_width=stroke, stroke_fill=255)
        return crop(np.asarray(canvas, dtype=np.float32) / 255)

    def pen_digit(self, rng):
        """An MNIST digit redrawn as a pen line of even width along its skeleton."""
        return self._redrawn(rng, 56, (0.6, 2.2), 112)

    def fine_digit(self, rng):
        """An MNIST digit redrawn as a fine pen line (0.5 to 1.8 px wide in a 168 px frame where
        the digit is about 120 px tall: 0.4-1.5% of its height): on a large photo a ballpoint's
        stroke is that thin beside the digit."""
        return self._redrawn(rng, 168, (0.05, 0.9), 168)

    def _redrawn(self, rng, side, half_widths, out):
        """(coverage, label): a random MNIST digit's skeleton at `side` px drawn as a line of
        half-width drawn from `half_widths` (px at `side`), brought to `out` px, often warped."""
        i = int(rng.integers(len(self.mnist)))
        skeleton = thin(resize(self.mnist[i].astype(np.float32) / 255, side, side) > 0.4)
        if not skeleton.any():
            return None, int(self.mnist_labels[i])
        distance = ndimage.distance_transform_edt(~skeleton)
        cov = np.clip(rng.uniform(*half_widths) + 0.5 - distance, 0, 1).astype(np.float32)
        if out != side:
            cov = resize(cov, out, out)
        if rng.random() < 0.6:
            cov = elastic(rng, cov)
        if rng.random() < 0.3:
            cov = shear(cov, rng.uniform(-0.25, 0.25))
        return crop(cov), int(self.mnist_labels[i])

    def font_digit(self, rng, digit=None):
        digit = int(rng.integers(10)) if digit is None else digit
        cov = self.text(rng, str(digit))
        if cov is not None and rng.random() < 0.2:
            cov = crop(shear(cov, rng.uniform(0.1, 0.3)))
        return cov, digit

    def drum_digit(self, rng, digit=None):
        """A counter-wheel digit: a condensed face, often squeezed further."""
        digit = int(rng.integers(10)) if digit is None else digit
        return self.wheel_face(rng, str(digit)), digit

    def wheel_face(self, rng, text):
        """Coverage of `text` in a condensed face, squeezed further (None when the face lacks it)."""
        cov = self.text(rng, text, path=self.condensed[int(rng.integers(len(self.condensed)))],
                        stroke=int(rng.integers(0, 3)))
        if cov is not None:
            h, w = cov.shape
            cov = resize(cov, int(w * rng.uniform(0.6, 1.0)), h)
        return cov

    def seven_segment(self, rng, digit=None):
        """(lit, unlit, digit): coverage of the lit segments and of the faint unlit ones
        (the unlit ones belong to the background, never to the subject's ink)."""
        digit = int(rng.integers(10)) if digit is None else digit
        unit, width = rng.uniform(28, 40), rng.uniform(5, 11)
        slant, gap = rng.uniform(0, 0.2), rng.uniform(1, 3)
        size = (int(unit + 2 * width + 2 * unit * slant) + 8, int(2 * unit + 2 * width) + 8)
        lit = Image.new("L", size, 0)
        unlit = Image.new("L", size, 0)
        for name, (x0, y0, x1, y1) in SEGMENTS.items():
            def at(x, y):
                return (4 + width + x * unit + (2 - y) * unit * slant, 4 + width + y * unit)
            (ax, ay), (bx, by) = at(x0, y0), at(x1, y1)
            horizontal = y0 == y1
            dx, dy = (gap, 0) if horizontal else (-slant * gap, gap)
            ax, ay, bx, by = ax + dx, ay + dy, bx - dx, by - dy
            h = width / 2
            if horizontal:
                poly = [(ax, ay), (ax + h, ay - h), (bx - h, by - h), (bx, by), (bx - h, by + h), (ax + h, ay + h)]
            else:
                poly = [(ax, ay), (ax + h, ay + h), (bx + h, by - h), (bx, by), (bx - h, by - h), (ax - h, ay + h)]
            target = lit if name in DIGIT_SEGMENTS[digit] else unlit
            ImageDraw.Draw(target).polygon(poly, fill=255)
        lit = np.asarray(lit, dtype=np.float32) / 255
        unlit = np.asarray(unlit, dtype=np.float32) / 255
        return lit, unlit, digit

    # --- negatives ----------------------------------------------------
    def letter(self, rng):
        return self.text(rng, LETTERS[int(rng.integers(len(LETTERS)))])

    def symbol(self, rng):
        return self.text(rng, SYMBOLS[int(rng.integers(len(SYMBOLS)))])

    def more_characters(self, rng):
        """A letter or sign of MORE_CHARACTERS, typeset, slanted or warped now and then."""
        cov = self.text(rng, MORE_CHARACTERS[int(rng.integers(len(MORE_CHARACTERS)))])
        if cov is not None and rng.random() < 0.3:
            cov = crop(shear(cov, rng.uniform(-0.25, 0.25)))
        if cov is not None and rng.random() < 0.3:
            cov = crop(elastic(rng, cov))
        return cov

    def typed_run(self, rng):
        """Two to four digits set in one face, as on a counter or a label: one glyph of several
        digits (a meter crop holding the whole count is no one digit)."""
        text = "".join(str(d) for d in rng.integers(0, 10, int(rng.integers(2, 5))))
        return self.text(rng, text) if rng.random() < 0.5 else self.wheel_face(rng, text)

    def scribble(self, rng):
        size = (int(rng.integers(60, 140)), int(rng.integers(60, 130)))
        if rng.random() < 0.4:
            n = int(rng.integers(3, 9))
            xs = np.linspace(0.1, 0.9, n) * size[0]
            ys = np.where(np.arange(n) % 2, 0.15, 0.85) * size[1] + rng.normal(0, 5, n)
            pts = list(zip(xs, ys))
        else:
            pts = bezier(rng, int(rng.integers(8, 14)), size)
        return crop(polyline(pts, rng.uniform(3, 10), size))

    def hatching(self, rng):
        size = (int(rng.integers(50, 120)), int(rng.integers(50, 120)))
        img = Image.new("L", (size[0] * 2, size[1] * 2), 0)
        draw = ImageDraw.Draw(img)
        step, angle = rng.uniform(8, 20), rng.uniform(0, np.pi)
        for k in range(-20, 20):
            c, s = np.cos(angle), np.sin(angle)
            ox, oy = size[0] + k * step * 2 * -s, size[1] + k * step * 2 * c
            draw.line([(ox - 400 * c, oy - 400 * s), (ox + 400 * c, oy + 400 * s)], fill=255, width=int(rng.integers(3, 9)))
        return crop(np.asarray(img.resize(size, Image.BOX), dtype=np.float32) / 255)

    def checkerboard(self, rng):
        n, cell = int(rng.integers(2, 7)), int(rng.integers(8, 24))
        board = (np.indices((n, n)).sum(0) % 2).astype(np.float32)
        return crop(np.kron(board, np.ones((cell, cell), np.float32)), 0)

    def circle(self, rng):
        size = int(rng.integers(60, 120))
        w = rng.uniform(3, 10)
        img = Image.new("L", (size * 2, size * 2), 0)
        draw = ImageDraw.Draw(img)
        draw.ellipse((w, w, 2 * size - w, 2 * size - w), outline=255, width=int(2 * w))
        if rng.random() < 0.5:  # a cross inside: a bare ring would read as a 0
            draw.line((0.5 * size, 0.5 * size, 1.5 * size, 1.5 * size), fill=255, width=int(2 * w))
            draw.line((0.5 * size, 1.5 * size, 1.5 * size, 0.5 * size), fill=255, width=int(2 * w))
        else:  # a smiley
            e = size * 0.15
            for cx in (0.7 * size, 1.3 * size):
                draw.ellipse((cx - e, 0.65 * size - e, cx + e, 0.65 * size + e), fill=255)
            draw.arc((0.5 * size, 0.6 * size, 1.5 * size, 1.45 * size), 20, 160, fill=255, width=int(2 * w))
        return crop(np.asarray(img.resize((size, size), Image.BOX), dtype=np.float32) / 255)

    def line_or_cross(self, rng):
        size = (int(rng.integers(40, 140)), int(rng.integers(40, 140)))
        w, h = size
        width = rng.uniform(3, 10)
        if rng.random() < 0.5:
            # never steeper than 40 degrees: a steep line reads as a 1
            y0, y1 = h / 2 + rng.uniform(-0.4, 0.4, 2) * min(h, w * 0.8)
            a = polyline([(4, y0), (w - 4, y1)], width, size)
        else:
            a = polyline([(w / 2 + rng.normal(0, 4), 4), (w / 2 + rng.normal(0, 4), h - 4)], width, size)
            a = np.maximum(a, polyline([(4, h / 2 + rng.normal(0, 4)), (w - 4, h / 2 + rng.normal(0, 4))], width, size))
        return crop(a)

    def several_digits(self, rng):
        parts = [self.mnist_digit(rng)[0] for _ in range(int(rng.integers(2, 5)))]
        return crop(side_by_side(rng, parts))

    def partial_digit(self, rng):
        digit = int(rng.choice([0, 2, 3, 4, 5, 6, 7, 8, 9]))  # never a 1: half a 1 is still a 1
        cov = self.mnist_digit(rng, self._index_of(rng, digit))[0] if rng.random() < 0.6 else self.font_digit(rng, digit)[0]
        h, w = cov.shape
        if rng.random() < 0.7:  # the left or the right part
            keep = int(w * rng.uniform(0.3, 0.5))
            cov = cov[:, :keep] if rng.random() < 0.5 else cov[:, w - keep:]
        else:  # the top or the bottom part
            keep = int(h * rng.uniform(0.3, 0.5))
            cov = cov[:keep] if rng.random() < 0.5 else cov[h - keep:]
        parts, n = ndimage.label(cov > 0.2)
        if n > 1:  # crumbs of the cut-off side are no part of what a reader sees
            sizes = ndimage.sum(np.ones_like(cov), parts, range(1, n + 1))
            cov = cov * np.isin(parts, 1 + np.flatnonzero(sizes >= 0.15 * sizes.max()))
        return crop(cov)

    def digit_with_letter(self, rng):
        digit = self.mnist_digit(rng)[0] if rng.random() < 0.5 else self.font_digit(rng)[0]
        letter = self.letter(rng)
        parts = [digit, letter] if rng.random() < 0.5 else [letter, digit]
        return crop(side_by_side(rng, parts, overlap=(0.05, 0.2)))

    def sample(self, rng, kind=None):
        """(coverage, label, kind) of one glyph; `kind` one of KINDS, or drawn by SHARES."""
        if kind is None:
            kind = KINDS[int(rng.choice(len(KINDS), p=SHARES))]
        for _ in range(8):
            if kind == "seg7":
                cov, _, label = self.seven_segment(rng)
                cov = crop(cov)
            elif kind in DIGIT_SOURCES:
                cov, label = getattr(self, DIGIT_SOURCES[kind])(rng)
            else:
                cov, label = getattr(self, NEGATIVE_SOURCES[kind])(rng), 10
            if cov is None or min(cov.shape) < 4:
                continue
            if label == 10 and cov.shape[1] < 0.3 * cov.shape[0]:
                continue  # a thin upright stroke reads as a 1
            return cov, label, kind
        raise RuntimeError(f"glyphs: no ink from {kind}")


def thin(ink):
    """Zhang-Suen thinning of a boolean image to one-pixel-wide lines."""
    b = np.pad(ink, 1).astype(np.uint8)
    while True:
        changed = False
        for step in (0, 1):
            p = [b[0:-2, 1:-1], b[0:-2, 2:], b[1:-1, 2:], b[2:, 2:], b[2:, 1:-1], b[2:, 0:-2], b[1:-1, 0:-2], b[0:-2, 0:-2]]
            count = sum(q.astype(np.int32) for q in p)
            turns = sum(((p[k] == 0) & (p[(k + 1) % 8] == 1)).astype(np.int32) for k in range(8))
            p2, p4, p6, p8 = p[0], p[2], p[4], p[6]
            if step == 0:
                side = (p2 * p4 * p6 == 0) & (p4 * p6 * p8 == 0)
            else:
                side = (p2 * p4 * p8 == 0) & (p2 * p6 * p8 == 0)
            drop = (b[1:-1, 1:-1] == 1) & (count >= 2) & (count <= 6) & (turns == 1) & side
            if drop.any():
                b[1:-1, 1:-1][drop] = 0
                changed = True
        if not changed:
            return b[1:-1, 1:-1].astype(bool)


def side_by_side(rng, parts, overlap=(-0.1, 0.1)):
    """`parts` scaled to one height and set left to right, spaced or overlapping a little."""
    height = max(p.shape[0] for p in parts)
    scaled = [resize(p, int(p.shape[1] * height / p.shape[0]), height) for p in parts]
    x, placed = 0, []
    for p in scaled:
        placed.append(x)
        x += p.shape[1] - int(p.shape[1] * rng.uniform(*overlap))
    canvas = np.zeros((height + 10, max(x, placed[-1] + scaled[-1].shape[1]) + 2), np.float32)
    for p, x in zip(scaled, placed):
        y = int(rng.integers(0, 10))
        region = canvas[y:y + height, x:x + p.shape[1]]
        np.maximum(region, p[:, :region.shape[1]], out=region)
    return canvas


DIGIT_SOURCES = {"mnist": "mnist_digit", "pen": "pen_digit", "font": "font_digit", "drum": "drum_digit",
                 "fine": "fine_digit"}
NEGATIVE_SOURCES = {"letter": "letter", "symbol": "symbol", "scribble": "scribble", "hatching": "hatching",
                    "checker": "checkerboard", "circle": "circle", "line": "line_or_cross",
                    "several": "several_digits", "partial": "partial_digit", "digit+letter": "digit_with_letter",
                    "letter+": "more_characters", "typed-run": "typed_run"}
# Digits about 70%, not-digits about 30%.
KIND_SHARES = {"mnist": 0.20, "pen": 0.10, "font": 0.22, "drum": 0.08, "seg7": 0.10,
               "letter": 0.07, "symbol": 0.05, "scribble": 0.04, "hatching": 0.015, "checker": 0.01,
               "circle": 0.02, "line": 0.02, "several": 0.03, "partial": 0.025, "digit+letter": 0.02,
               # None by default, so that sets made before they came are made again alike
               # (an added kind with no share leaves every draw as it was); set_share.
               "fine": 0.0, "letter+": 0.0, "typed-run": 0.0}
KINDS = list(KIND_SHARES)
SHARES = np.array(list(KIND_SHARES.values())) / sum(KIND_SHARES.values())


def set_share(kind, share):
    """Gives `kind` this share (before the shares are made to add up to one again)."""
    global SHARES
    KIND_SHARES[kind] = share
    SHARES = np.array(list(KIND_SHARES.values())) / sum(KIND_SHARES.values())


def load_bank(mnist_dir, tool):
    """A GlyphBank, or exit with one line naming `tool` when MNIST is not in `mnist_dir`."""
    try:
        return GlyphBank(mnist_dir)
    except (FileNotFoundError, ValueError) as error:
        sys.exit(f"{tool}: {error} (pass --mnist DIR)")


def sample_glyph(rng, bank, kind=None):
    """(coverage, label, kind_name) from `bank` (a GlyphBank)."""
    return bank.sample(rng, kind)
