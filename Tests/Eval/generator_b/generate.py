#!/usr/bin/env python3
"""Evaluation-set generator B for `digits` (written independently of the training generator).

    /usr/bin/python3 generate.py --out DIR --seed N [--per-kind K] [--kinds a,b,...]

Writes pictures into DIR and DIR/labels.tsv (file, kind, expect). See README.md beside this file.
Only numpy, scipy and Pillow are used.
"""
import argparse
import gzip
import math
import os
import struct
import subprocess
import sys
import time

for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")     # one core; small matrices only

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont
from scipy import ndimage as ndi

HERE = os.path.dirname(os.path.abspath(__file__))
MNIST_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "Fixtures", "mnist"))

KINDS = ["shadow", "desk", "tight", "thin", "pencil", "rotated", "colour", "jpeg", "ruled", "squared",
         "transparent", "meter", "printed", "blank", "letter", "symbol", "scribble"]

# Letters that cannot honestly be read as a digit (the brief's look-alikes and a few more are left out:
# O o l I S s Z z B G g q b, and also i j J t y Q whose handwritten forms come near 1, 7, 4, 0).
LETTERS = "ACDEFHKLMNPRTUVWXYacdefhkmnpruvwx"
SYMBOLS = "#%&?@+*=$<>"


# --------------------------------------------------------------------------------------------------
# small helpers

def clamp01(a):
    return np.clip(a, 0.0, 1.0)


def noise(rng, h, w, scale):
    """Smooth random field, roughly zero mean / unit-ish spread, features about `scale` px."""
    h = max(1, int(h)); w = max(1, int(w))
    if scale <= 1.0:
        return rng.standard_normal((h, w)).astype(np.float32)
    gh = max(2, int(h / scale) + 2)
    gw = max(2, int(w / scale) + 2)
    g = rng.standard_normal((gh, gw)).astype(np.float32)
    im = Image.fromarray(g, mode="F").resize((w, h), Image.BICUBIC)
    return np.asarray(im, dtype=np.float32) * 1.4


def mat_t(tx, ty):
    return np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]], float)


def mat_rs(deg, s):
    a = math.radians(deg)
    c, si = math.cos(a) * s, math.sin(a) * s
    return np.array([[c, -si, 0], [si, c, 0], [0, 0, 1]], float)


def inv3(M):
    a, b, c, d, e, f, g, h, i = [float(v) for v in np.asarray(M).flatten()]
    A = e * i - f * h; B = -(d * i - f * g); C = d * h - e * g
    det = a * A + b * B + c * C
    return np.array([[A, -(b * i - c * h), b * f - c * e],
                     [B, a * i - c * g, -(a * f - c * d)],
                     [C, -(a * h - b * g), a * e - b * d]], float) / det


def solve_h(src, dst):
    A, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y]); b.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y]); b.append(v)
    h = np.linalg.solve(np.array(A, float), np.array(b, float))
    return np.append(h, 1.0).reshape(3, 3)


def apply_h(H, pts):
    pts = np.asarray(pts, float)
    p = np.c_[pts, np.ones(len(pts))] @ H.T
    return p[:, :2] / p[:, 2:3]


def warp_persp(im, H, size, resample=Image.BICUBIC, fill=0):
    """im: PIL image in source pixel coords; H maps source -> output. Returns output PIL image."""
    Hi = inv3(H)
    Hi = Hi / Hi[2, 2]
    coeffs = tuple(Hi.flatten()[:8])
    return im.transform(size, Image.PERSPECTIVE, coeffs, resample, fillcolor=fill)


def to_u8(a):
    return (clamp01(a) * 255.0 + 0.5).astype(np.uint8)


def lum(rgb):
    rgb = np.asarray(rgb, float)
    return 0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2]


# --------------------------------------------------------------------------------------------------
# data sources: MNIST test split and fonts

class Mnist:
    def __init__(self):
        with gzip.open(os.path.join(MNIST_DIR, "t10k-images-idx3-ubyte.gz"), "rb") as f:
            data = f.read()
        magic, n, r, c = struct.unpack(">IIII", data[:16])
        if magic != 2051:
            raise SystemExit("bad MNIST image file")
        self.images = np.frombuffer(data, np.uint8, count=n * r * c, offset=16).reshape(n, r, c)
        with gzip.open(os.path.join(MNIST_DIR, "t10k-labels-idx1-ubyte.gz"), "rb") as f:
            data = f.read()
        magic, n2 = struct.unpack(">II", data[:8])
        if magic != 2049 or n2 != n:
            raise SystemExit("bad MNIST label file")
        self.labels = np.frombuffer(data, np.uint8, count=n, offset=8)
        # plausibility filter: a sample is used only when most of its nearest neighbours (in the same
        # test split, 14x14 pooled pixels) carry its label -- this drops the ambiguous / mislabelled-
        # looking ones a person could not answer plainly.
        pooled = self.images.reshape(n, 14, 2, 14, 2).astype(np.float32).mean((2, 4)).reshape(n, -1)
        pooled /= np.linalg.norm(pooled, axis=1, keepdims=True) + 1e-6
        self.feat = pooled
        self.by_digit = [np.nonzero(self.labels == d)[0] for d in range(10)]
        self._ok = {}

    def plausible(self, idx):
        if idx in self._ok:
            return self._ok[idx]
        sims = self.feat @ self.feat[idx]
        sims[idx] = -1
        nn = np.argpartition(-sims, 15)[:15]
        agree = int((self.labels[nn] == self.labels[idx]).sum())
        img = self.images[idx] > 100
        lab, n = ndi.label(img, structure=np.ones((3, 3)))
        ok = agree >= 14 and n <= 2
        self._ok[idx] = ok
        return ok

    def pick(self, rng, digit):
        pool = self.by_digit[digit]
        for _ in range(200):
            idx = int(pool[rng.integers(len(pool))])
            if self.plausible(idx):
                return idx
        return idx


def find_fonts():
    """The faces this generator uses: GNU FreeFont and TeX Gyre (not Chorus, not the Math faces).

    IBM Plex would be allowed but Debian 12 does not package it; it is left out on purpose so that a set
    made on a machine that has it installed some other way is the same as one made without it."""
    files = []
    try:
        out = subprocess.run(["fc-list", "--format", "%{file}\n"], capture_output=True, text=True,
                             timeout=30).stdout.split("\n")
        files = [f.strip() for f in out if f.strip()]
    except Exception:
        pass
    if not files:
        for root, _, names in os.walk("/usr/share/fonts"):
            files += [os.path.join(root, n) for n in names]
    keep = []
    for f in files:
        b = os.path.basename(f).lower()
        if not (b.endswith(".ttf") or b.endswith(".otf")):
            continue
        if b.startswith("free") and ("sans" in b or "serif" in b or "mono" in b):
            keep.append(f)
        elif b.startswith("texgyre") and "math" not in b and "chorus" not in b:
            keep.append(f)
    # one file per basename (fonts may be installed twice, as .otf and .ttf, or in two folders)
    seen = {}
    for f in sorted(keep):
        key = os.path.splitext(os.path.basename(f))[0].lower()
        if key not in seen or f.endswith(".otf"):
            seen[key] = f
    fonts = sorted(seen.values(), key=lambda p: os.path.basename(p).lower())
    if not fonts:
        raise SystemExit("no allowed fonts found (need fonts-freefont-ttf and fonts-texgyre)")
    if not any("texgyre" in os.path.basename(f).lower() for f in fonts):
        print("warning: TeX Gyre fonts missing (apt-get install fonts-texgyre); the set will differ",
              file=sys.stderr)
    return fonts


def font_is_bold(path):
    b = os.path.basename(path).lower()
    return "bold" in b or "semibold" in b


def font_is_italic(path):
    b = os.path.basename(path).lower()
    return "italic" in b or "oblique" in b


# --------------------------------------------------------------------------------------------------
# content: centre-line strokes (for the pen model) or filled glyph masks (print)

class Strokes:
    """segs: (N,4) x0,y0,x1,y1 in units of the reference height, centred at (0,0), y down."""

    def __init__(self, segs):
        self.segs = np.asarray(segs, float).reshape(-1, 4)

    def bounds(self):
        s = self.segs
        xs = np.r_[s[:, 0], s[:, 2]]; ys = np.r_[s[:, 1], s[:, 3]]
        return xs.min(), ys.min(), xs.max(), ys.max()


class Filled:
    """mask: float array (glyph ink), ref: the reference height in mask pixels; centre = mask centre."""

    def __init__(self, mask, ref):
        self.mask = mask.astype(np.float32)
        self.ref = float(ref)


class Group:
    def __init__(self, parts):
        self.parts = parts      # list of (content, dx, dy, scale) in reference heights


def thin_mask(mask):
    """Zhang-Suen thinning (vectorised)."""
    img = np.pad(mask.astype(np.uint8), 1)
    while True:
        changed = False
        for step in (0, 1):
            P = img
            p2 = P[:-2, 1:-1]; p3 = P[:-2, 2:]; p4 = P[1:-1, 2:]; p5 = P[2:, 2:]
            p6 = P[2:, 1:-1]; p7 = P[2:, :-2]; p8 = P[1:-1, :-2]; p9 = P[:-2, :-2]
            c = P[1:-1, 1:-1]
            B = (p2.astype(np.int16) + p3 + p4 + p5 + p6 + p7 + p8 + p9)
            seq = [p2, p3, p4, p5, p6, p7, p8, p9, p2]
            A = np.zeros_like(B)
            for k in range(8):
                A += (seq[k] == 0) & (seq[k + 1] == 1)
            if step == 0:
                m = ((p2 & p4 & p6) == 0) & ((p4 & p6 & p8) == 0)
            else:
                m = ((p2 & p4 & p8) == 0) & ((p2 & p6 & p8) == 0)
            rem = (c == 1) & (B >= 2) & (B <= 6) & (A == 1) & m
            if rem.any():
                img[1:-1, 1:-1][rem] = 0
                changed = True
        if not changed:
            break
    return img[1:-1, 1:-1].astype(bool)


NB8 = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


def prune_spurs(sk, max_len):
    """Remove short side branches (from an end point to a junction) that thinning leaves behind."""
    sk = sk.copy()
    H, W = sk.shape
    for _ in range(2):
        nb = ndi.convolve(sk.astype(np.uint8), np.ones((3, 3), np.uint8), mode="constant") - sk
        ends = list(zip(*np.nonzero(sk & (nb == 1))))
        removed = False
        for y, x in ends:
            path = [(y, x)]
            prev = None
            cy, cx = y, x
            junction = False
            while len(path) <= max_len:
                nxt = [(cy + dy, cx + dx) for dy, dx in NB8
                       if 0 <= cy + dy < H and 0 <= cx + dx < W and sk[cy + dy, cx + dx]
                       and (cy + dy, cx + dx) != prev and (cy + dy, cx + dx) not in path]
                if len(nxt) == 0:
                    break
                if len(nxt) > 1 and not all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a in nxt for b in nxt if a != b):
                    junction = True
                    break
                if nb[nxt[0]] >= 3:
                    junction = True
                    break
                prev = (cy, cx)
                cy, cx = nxt[0]
                path.append((cy, cx))
            if junction and len(path) <= max_len:
                for p in path:
                    sk[p] = False
                removed = True
        if not removed:
            break
    return sk


def skeleton_segments(sk):
    """Skeleton pixels -> short line segments joining 8-neighbours (x0, y0, x1, y1)."""
    H, W = sk.shape
    sp = np.pad(sk, 1)
    segs = []
    for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
        both = sk & sp[1 + dy:1 + dy + H, 1 + dx:1 + dx + W]
        ys, xs = np.nonzero(both)
        if dx != 0 and dy != 0 and len(ys):
            # skip a diagonal where an orthogonal path already joins the two pixels
            orth = sp[1 + ys + dy, 1 + xs] | sp[1 + ys, 1 + xs + dx]
            ys, xs = ys[~orth], xs[~orth]
        segs.append(np.c_[xs, ys, xs + dx, ys + dy])
    lab, n = ndi.label(sk, structure=np.ones((3, 3)))
    if n:
        sizes = ndi.sum(sk, lab, range(1, n + 1))
        for i, s in enumerate(sizes):
            if s <= 2:
                ys, xs = np.nonzero(lab == i + 1)
                segs.append(np.c_[xs, ys, xs, ys])
    if not segs:
        return np.zeros((0, 4))
    segs = np.concatenate(segs, 0).astype(int)
    # smooth the pixel staircase: each skeleton pixel moves to the mean of the skeleton pixels near it
    skf = sk.astype(np.float32)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    cnt = ndi.uniform_filter(skf, 5, mode="constant")
    mx = ndi.uniform_filter(skf * xx, 5, mode="constant") / np.maximum(cnt, 1e-6)
    my = ndi.uniform_filter(skf * yy, 5, mode="constant") / np.maximum(cnt, 1e-6)
    out = np.c_[mx[segs[:, 1], segs[:, 0]], my[segs[:, 1], segs[:, 0]],
                mx[segs[:, 3], segs[:, 2]], my[segs[:, 3], segs[:, 2]]]
    return out.astype(float)


def smooth_warp(rng, segs, amount):
    """Random smooth displacement of the stroke geometry (handwriting variation)."""
    if amount <= 0:
        return segs
    out = segs.copy()
    for _ in range(2):
        fx, fy = rng.uniform(0.5, 1.6, 2)
        px, py = rng.uniform(0, 2 * math.pi, 2)
        ax, ay = rng.uniform(-amount, amount, 2)
        for (xi, yi) in ((0, 1), (2, 3)):
            x = segs[:, xi]; y = segs[:, yi]
            out[:, xi] += ax * np.sin(2 * math.pi * fy * y + py)
            out[:, yi] += ay * np.sin(2 * math.pi * fx * x + px)
    return out


def count_holes(mask):
    lab, n = ndi.label(~mask)
    if n == 0:
        return 0
    border = set(np.unique(np.r_[lab[0], lab[-1], lab[:, 0], lab[:, -1]]).tolist())
    sizes = ndi.sum(np.ones_like(lab), lab, range(1, n + 1))
    return sum(1 for i in range(1, n + 1) if i not in border and sizes[i - 1] >= 12)


def mnist_strokes(rng, mn, idx, warp=0.04):
    img = mn.images[idx].astype(np.float32) / 255.0
    big = ndi.zoom(img, 6, order=3)
    big = ndi.gaussian_filter(big, 1.2)
    ref_mask = ndi.zoom(img, 6, order=1) > 0.5
    ref_holes = count_holes(ref_mask)
    lab, n = ndi.label(ref_mask, structure=np.ones((3, 3)))
    ref_parts = int((ndi.sum(ref_mask, lab, range(1, n + 1)) >= 60).sum()) if n else 0
    # a 0, 6 or 9 without its loop, or an 8 with one, is not plainly that digit
    need = {0: 1, 6: 1, 8: 2, 9: 1}.get(int(mn.labels[idx]), 0)
    if ref_holes < need:
        return None
    # the loops of 0 6 8 9 (and 4) must stay open: raise the threshold until the holes are back
    for thr in (rng.uniform(0.3, 0.45), 0.5, 0.6, 0.7):
        mask = big > thr
        lab, n = ndi.label(mask, structure=np.ones((3, 3)))
        if n > 1:
            sizes = ndi.sum(mask, lab, range(1, n + 1))
            keep = np.nonzero(sizes >= 0.12 * sizes.max())[0] + 1
            mask = np.isin(lab, keep)
            n = len(keep)
        if n > max(1, ref_parts):
            return None      # a raised threshold broke a thin joint: the strokes would fall apart
        if count_holes(mask) >= ref_holes:
            break
    else:
        return None
    if count_holes(mask) > {1: 0, 8: 2}.get(int(mn.labels[idx]), 1):
        return None          # an extra loop (a 0 closed twice over, a looped 1) makes another shape
    ys, xs = np.nonzero(mask)
    if xs.max() - xs.min() > 1.15 * (ys.max() - ys.min()):
        return None          # flattened-wide MNIST samples do not look like anyone's handwriting
    sk = thin_mask(mask)
    # a loop the writer filled in (a thick 6, 9 or 4) thins to a tree, not to the digit: refuse it
    dist = ndi.distance_transform_edt(mask)
    vals = dist[sk]
    if len(vals) == 0 or vals.max() > 1.75 * np.median(vals) + 1.0:
        return None
    med = float(np.median(vals))
    sk = prune_spurs(sk, int(max(4, 3.0 * med)))
    # the centre line, inked again at the writer's own width, must give back the writer's digit: nothing
    # of it lost (a dropped part, a cut joint) and nothing added (spurs, a tree in a filled loop)
    redrawn = ndi.distance_transform_edt(~sk) <= med * 1.15
    ink = big > 0.5
    both = float((redrawn & ink).sum())
    if both < 0.85 * ink.sum() or both < 0.8 * redrawn.sum():
        return None
    segs = skeleton_segments(sk)
    ys, xs = np.nonzero(mask)
    h = ys.max() - ys.min() + 1
    cy = (ys.max() + ys.min()) / 2.0
    cx = (xs.max() + xs.min()) / 2.0
    segs = (segs - [cx, cy, cx, cy]) / h
    return Strokes(smooth_warp(rng, segs, warp))


_GLYPH_CACHE = {}


def glyph_mask(font_path, ch, size=160):
    """Anti-aliased mask of one character, cropped to its ink, and the digit-height reference (px)."""
    key = (font_path, ch, size)
    if key in _GLYPH_CACHE:
        return _GLYPH_CACHE[key]
    font = ImageFont.truetype(font_path, size)
    ref_box = font.getbbox("8")
    ref = ref_box[3] - ref_box[1]
    box = font.getbbox(ch)
    w = box[2] - box[0] + 8; h = box[3] - box[1] + 8
    im = Image.new("L", (max(w, 8), max(h, 8)), 0)
    ImageDraw.Draw(im).text((4 - box[0], 4 - box[1]), ch, font=font, fill=255)
    a = np.asarray(im, np.float32) / 255.0
    ys, xs = np.nonzero(a > 0.05)
    if len(ys) == 0:
        res = (np.zeros((4, 4), np.float32), float(ref))
    else:
        res = (a[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy(), float(ref))
    _GLYPH_CACHE[key] = res
    return res


def printed_glyph(font_path, ch):
    m, ref = glyph_mask(font_path, ch)
    return Filled(m, ref)


def font_strokes(rng, font_path, ch, warp=0.04):
    """A handwriting-like character: the glyph's centre line, re-drawn later by the pen model."""
    m, ref = glyph_mask(font_path, ch)
    mask = m > 0.5
    sk = thin_mask(mask)
    vals = ndi.distance_transform_edt(mask)[sk]
    if len(vals):
        sk = prune_spurs(sk, int(max(4, 2.5 * np.median(vals))))   # serifs are not written by hand
    segs = skeleton_segments(sk)
    if len(segs) == 0:
        return None
    h, w = m.shape
    segs = (segs - [w / 2.0, h / 2.0, w / 2.0, h / 2.0]) / ref
    # a random slant and jitter makes it look written rather than typeset
    return Strokes(smooth_warp(rng, segs, warp))


# --------------------------------------------------------------------------------------------------
# the pen: centre lines -> coverage, with width, pressure and texture

def stroke_coverage(h, w, segs, radius, rng, pressure=0.2, ss=2):
    out = np.zeros((h, w), np.float32)
    if len(segs) == 0:
        return out
    rmax = radius * (1 + abs(pressure)) + 2
    xs = np.r_[segs[:, 0], segs[:, 2]]; ys = np.r_[segs[:, 1], segs[:, 3]]
    x0 = int(max(0, math.floor(xs.min() - rmax - 2))); x1 = int(min(w, math.ceil(xs.max() + rmax + 2)))
    y0 = int(max(0, math.floor(ys.min() - rmax - 2))); y1 = int(min(h, math.ceil(ys.max() + rmax + 2)))
    if x1 <= x0 or y1 <= y0:
        return out
    bw, bh = x1 - x0, y1 - y0
    im = Image.new("L", (bw * ss, bh * ss), 0)
    dr = ImageDraw.Draw(im)
    s = (segs - [x0, y0, x0, y0]) * ss - 0.5
    for a, b, c, d in s.tolist():
        if a == c and b == d:
            dr.point((a, b), fill=255)
        else:
            dr.line((a, b, c, d), fill=255, width=1)
    line = np.asarray(im) > 0
    if not line.any():
        return out
    dist = ndi.distance_transform_edt(~line).astype(np.float32) / ss
    r = radius * (1.0 + pressure * np.tanh(noise(rng, bh * ss, bw * ss, max(4.0, 12.0 * radius * ss))))
    cov = clamp01((r - dist) * ss + 0.5)
    cov = cov.reshape(bh, ss, bw, ss).mean(axis=(1, 3))
    out[y0:y1, x0:x1] = cov
    return out


def transform_segs(segs, cx, cy, height, angle, slant):
    s = segs.copy()
    for xi, yi in ((0, 1), (2, 3)):
        x = s[:, xi] - slant * s[:, yi]
        y = s[:, yi]
        a = math.radians(angle)
        xr = x * math.cos(a) - y * math.sin(a)
        yr = x * math.sin(a) + y * math.cos(a)
        s[:, xi] = cx + height * xr
        s[:, yi] = cy + height * yr
    return s


def filled_coverage(h, w, content, cx, cy, height, angle, slant, spread=0.0):
    m = content.mask
    scale = height / content.ref
    tw = max(1, int(round(m.shape[1] * scale))); th = max(1, int(round(m.shape[0] * scale)))
    im = Image.fromarray(to_u8(m)).resize((tw, th), Image.LANCZOS if scale < 1 else Image.BICUBIC)
    if slant:
        pad = int(abs(slant) * th) + 2
        im2 = Image.new("L", (tw + 2 * pad, th), 0); im2.paste(im, (pad, 0))
        im = im2.transform(im2.size, Image.AFFINE, (1, slant, -slant * th / 2.0, 0, 1, 0), Image.BICUBIC)
    if angle:
        im = im.rotate(-angle, Image.BICUBIC, expand=True)
    a = np.asarray(im, np.float32) / 255.0
    if spread > 0:
        a = clamp01(ndi.gaussian_filter(a, spread) * 1.6)
    out = np.zeros((h, w), np.float32)
    ph, pw = a.shape
    px = int(round(cx - pw / 2.0)); py = int(round(cy - ph / 2.0))
    xa, ya = max(0, px), max(0, py)
    xb, yb = min(w, px + pw), min(h, py + ph)
    if xb > xa and yb > ya:
        out[ya:yb, xa:xb] = a[ya - py:yb - py, xa - px:xb - px]
    return out


def render_content(rng, content, h, w, cx, cy, height, angle, slant, pen):
    if isinstance(content, Group):
        out = np.zeros((h, w), np.float32)
        a = math.radians(angle)
        for part, dx, dy, sc in content.parts:
            ox = cx + height * (dx * math.cos(a) - dy * math.sin(a))
            oy = cy + height * (dx * math.sin(a) + dy * math.cos(a))
            out = np.maximum(out, render_content(rng, part, h, w, ox, oy, height * sc, angle, slant, pen))
        return out
    if isinstance(content, Filled):
        return filled_coverage(h, w, content, cx, cy, height, angle, slant, pen.get("spread", 0.0))
    segs = transform_segs(content.segs, cx, cy, height, angle, slant)
    return stroke_coverage(h, w, segs, pen["r"], rng, pen.get("pressure", 0.2))


def ink_texture(rng, cov, pen):
    """Coverage -> ink amount, with the pen's texture (ballpoint skips, graphite grain, chalk holes)."""
    out = np.zeros_like(cov)
    rows = np.nonzero(cov.max(1) > 0)[0]
    cols = np.nonzero(cov.max(0) > 0)[0]
    if len(rows) == 0:
        return out
    y0, y1, x0, x1 = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    out[y0:y1, x0:x1] = _ink_texture(rng, cov[y0:y1, x0:x1], pen)
    return out


def _ink_texture(rng, cov, pen):
    h, w = cov.shape
    kind = pen["kind"]
    dens = pen["density"]
    if kind == "ballpoint":
        skip = clamp01((noise(rng, h, w, 2.0) - 1.2) * 0.8)
        a = cov * dens * (1 - 0.6 * skip)
    elif kind == "pencil":
        grain = clamp01(0.75 + 0.35 * noise(rng, h, w, 1.0) + 0.15 * noise(rng, h, w, 3.0))
        a = cov * dens * grain
    elif kind == "chalk":
        # chalk leaves powder on the board's high spots: fine holes, streaks along the board
        fine = noise(rng, h, w, 1.0)
        streak = noise(rng, h, max(1, w // 6), 1.0)
        streak = np.asarray(Image.fromarray(streak, mode="F").resize((w, h), Image.BILINEAR))
        grain = clamp01(0.8 + 0.25 * fine + 0.15 * streak)
        a = cov * dens * grain
    elif kind == "marker":
        a = cov * dens * (1 - 0.08 * clamp01(noise(rng, h, w, 6.0)))
    else:
        a = cov * dens
    return clamp01(a)


def apply_ink(img, a, pen):
    col = np.asarray(pen["color"], np.float32)
    a3 = a[..., None]
    if pen.get("mode", "absorb") == "cover":
        return img * (1 - a3) + col * a3
    return img * (1 - a3 * (1 - col))


def choose_pen(rng, style, height_px):
    """Return a pen dict; height_px: the content's reference height where it is drawn."""
    inks = {"black": (0.08, 0.08, 0.1), "blue": (0.1, 0.18, 0.55), "darkblue": (0.08, 0.1, 0.35),
            "red": (0.7, 0.1, 0.1), "green": (0.1, 0.4, 0.2)}
    if style == "ballpoint":
        name = ["blue", "blue", "black", "darkblue", "red"][rng.integers(5)]
        return dict(kind="ballpoint", r=max(0.55, height_px * rng.uniform(0.018, 0.035)),
                    color=inks[name], density=rng.uniform(0.75, 0.95), pressure=rng.uniform(0.1, 0.35))
    if style == "fineliner":
        name = ["black", "black", "blue", "darkblue"][rng.integers(4)]
        return dict(kind="fineliner", r=max(0.6, height_px * rng.uniform(0.02, 0.035)),
                    color=inks[name], density=rng.uniform(0.85, 1.0), pressure=0.08)
    if style == "marker":
        name = ["black", "black", "blue", "red", "green"][rng.integers(5)]
        return dict(kind="marker", r=max(1.0, height_px * rng.uniform(0.045, 0.08)),
                    color=inks[name], density=rng.uniform(0.85, 1.0), pressure=0.06)
    if style == "pencil":
        g = rng.uniform(0.22, 0.4)
        return dict(kind="pencil", r=max(0.6, height_px * rng.uniform(0.018, 0.035)),
                    color=(g, g, g * 1.05), density=rng.uniform(0.45, 0.8), pressure=rng.uniform(0.2, 0.4))
    if style == "print":
        return dict(kind="print", r=1, color=(0.06, 0.06, 0.07), density=rng.uniform(0.85, 1.0),
                    spread=rng.uniform(0.0, 0.6))
    raise ValueError(style)


# --------------------------------------------------------------------------------------------------
# paper, desk, objects

PAPERS = {
    "white": (0.96, 0.96, 0.95), "offwhite": (0.94, 0.93, 0.88), "cream": (0.95, 0.92, 0.82),
    "grey": (0.86, 0.86, 0.84), "notebook": (0.97, 0.97, 0.96),
}
STICKY = [(0.99, 0.93, 0.45), (0.98, 0.75, 0.82), (0.72, 0.93, 0.72), (0.68, 0.86, 0.97),
          (1.0, 0.78, 0.45)]


def random_paper_spec(rng, allow=("plain", "ruled", "squared", "dotted")):
    t = allow[rng.integers(len(allow))]
    base = list(PAPERS.values())[rng.integers(len(PAPERS))]
    spec = dict(type=t, base=base, grain=rng.uniform(0.006, 0.02))
    if t == "ruled":
        spec.update(line=[(0.55, 0.7, 0.9), (0.6, 0.62, 0.66), (0.5, 0.65, 0.85)][rng.integers(3)],
                    spacing_mm=rng.uniform(6.5, 9.0), lw_mm=rng.uniform(0.15, 0.3),
                    margin=rng.random() < 0.45)
    elif t == "squared":
        spec.update(line=[(0.62, 0.64, 0.66), (0.55, 0.72, 0.92), (0.55, 0.8, 0.6)][rng.integers(3)],
                    spacing_mm=rng.uniform(4.0, 6.0), lw_mm=rng.uniform(0.1, 0.22))
    elif t == "dotted":
        spec.update(line=[(0.55, 0.56, 0.58), (0.6, 0.7, 0.85)][rng.integers(2)],
                    spacing_mm=rng.uniform(4.5, 5.5), lw_mm=rng.uniform(0.25, 0.4))
    return spec


def render_paper(rng, spec, ox, oy, w, h, ppmm):
    base = np.asarray(spec["base"], np.float32)
    img = np.ones((h, w, 3), np.float32) * base
    g = spec.get("grain", 0.01)
    # fibre grain at pixel scale plus a faint cloudiness of the pulp (a few mm)
    tex = g * noise(rng, h, w, 1.0) + 0.4 * g * noise(rng, h, w, max(2.0, 3 * ppmm))
    img = img * (1 + tex[..., None])
    t = spec["type"]
    if t == "blackboard":
        # wiped chalk dust: faint broad smears along the wiping direction
        smear = noise(rng, h, max(2, w // 8), 30.0)
        smear = np.asarray(Image.fromarray(smear, mode="F").resize((w, h), Image.BILINEAR))
        img = img + 0.025 * clamp01(smear + 0.5)[..., None]
    if t in ("ruled", "squared", "dotted"):
        sp = spec["spacing_mm"] * ppmm
        lw = max(0.8, spec["lw_mm"] * ppmm)
        phase = spec.get("phase", 0.0)
        yy = (np.arange(h, dtype=np.float32) + oy + 0.5 - phase)
        xx = (np.arange(w, dtype=np.float32) + ox + 0.5 - spec.get("phase_x", 0.0))
        dy = np.abs(((yy + sp / 2) % sp) - sp / 2)
        dx = np.abs(((xx + sp / 2) % sp) - sp / 2)
        strength = spec.get("strength", 0.9)
        if t == "ruled":
            cov = np.broadcast_to(clamp01(lw / 2 - dy + 0.5)[:, None], (h, w))
        elif t == "squared":
            cy_ = clamp01(lw / 2 - dy + 0.5)[:, None]
            cx_ = clamp01(lw / 2 - dx + 0.5)[None, :]
            cov = np.maximum(cy_, cx_)
        else:
            d = np.sqrt(dy[:, None] ** 2 + dx[None, :] ** 2)
            cov = clamp01(lw / 2 - d + 0.5)
        line = np.asarray(spec["line"], np.float32)
        cov = cov * strength * (1 + 0.1 * noise(rng, h, w, 3.0))
        img = img * (1 - clamp01(cov)[..., None] * (1 - line))
        if t == "ruled" and spec.get("margin"):
            mx = spec.get("margin_x", 0.0)
            d = np.abs(np.arange(w, dtype=np.float32) + ox + 0.5 - mx)
            mc = clamp01(lw * 0.6 - d + 0.5)[None, :] * 0.85
            red = np.asarray((0.85, 0.3, 0.32), np.float32)
            img = img * (1 - mc[..., None] * (1 - red))
    return img


def render_desk(rng, h, w):
    t = ["wood", "wood", "fabric", "gingham", "laminate", "stone"][rng.integers(6)]
    yy = np.arange(h, dtype=np.float32)[:, None]
    xx = np.arange(w, dtype=np.float32)[None, :]
    if t == "wood":
        base = [(0.72, 0.55, 0.36), (0.38, 0.24, 0.14), (0.56, 0.32, 0.19), (0.8, 0.74, 0.64),
                (0.25, 0.17, 0.12)][rng.integers(5)]
        a = rng.uniform(0, math.pi)
        v = xx * math.cos(a) + yy * math.sin(a)
        u = -xx * math.sin(a) + yy * math.cos(a)
        per = rng.uniform(12, 40)
        vw = v + 0.35 * per * noise(rng, h, w, 160) + 0.02 * u
        rings = 0.5 + 0.5 * np.sin(2 * math.pi * vw / per)
        line_tab = rng.standard_normal(4096).astype(np.float32)
        streak = line_tab[(np.abs(vw * 1.3).astype(np.int64)) % 4096]
        m = 1 + 0.09 * (rings - 0.5) + 0.05 * streak + 0.025 * noise(rng, h, w, 3)
        img = np.asarray(base, np.float32) * m[..., None]
    elif t == "fabric":
        base = np.asarray(rng.uniform(0.15, 0.8, 3), np.float32)
        p = rng.uniform(2.5, 5)
        weave = np.sin(2 * math.pi * xx / p) * np.sin(2 * math.pi * yy / p)
        m = 1 + 0.08 * weave + 0.05 * noise(rng, h, w, 1.5) + 0.02 * noise(rng, h, w, 50)
        img = base * m[..., None]
    elif t == "gingham":
        c1 = np.asarray([(0.75, 0.15, 0.15), (0.2, 0.3, 0.7), (0.2, 0.5, 0.3)][rng.integers(3)], np.float32)
        p = rng.uniform(20, 50)
        a = rng.uniform(-0.3, 0.3)
        x2 = xx * math.cos(a) - yy * math.sin(a); y2 = xx * math.sin(a) + yy * math.cos(a)
        sx = ((x2 // p) % 2 == 0).astype(np.float32); sy = ((y2 // p) % 2 == 0).astype(np.float32)
        k = (sx + sy) / 2.0
        white = np.asarray((0.93, 0.92, 0.9), np.float32)
        img = white * (1 - k[..., None]) + (white * 0.3 + c1 * 0.7) * k[..., None]
        img = img * (1 + 0.04 * noise(rng, h, w, 1.5))[..., None]
    elif t == "laminate":
        base = [(0.15, 0.15, 0.16), (0.85, 0.85, 0.83), (0.45, 0.47, 0.5), (0.9, 0.88, 0.8)][rng.integers(4)]
        img = np.asarray(base, np.float32) * (1 + 0.03 * noise(rng, h, w, 2) + 0.04 * noise(rng, h, w, 80))[..., None]
    else:
        base = np.asarray(rng.uniform(0.3, 0.7) * np.array([1, 0.98, 0.95]), np.float32)
        m = 1 + 0.1 * np.tanh(noise(rng, h, w, 1.0)) + 0.04 * noise(rng, h, w, 2.5) + 0.02 * noise(rng, h, w, 60)
        img = base * m[..., None]
    return clamp01(img).astype(np.float32)


def draw_cup_ring(rng, img, avoid, r_px):
    h, w, _ = img.shape
    for _ in range(20):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if math.hypot(cx - avoid[0], cy - avoid[1]) > r_px + avoid[2]:
            break
    else:
        return img
    width = r_px * rng.uniform(0.04, 0.1)
    x0, x1 = int(max(0, cx - r_px - 3 * width)), int(min(w, cx + r_px + 3 * width + 1))
    y0, y1 = int(max(0, cy - r_px - 3 * width)), int(min(h, cy + r_px + 3 * width + 1))
    if x1 <= x0 or y1 <= y0:
        return img
    yy = np.arange(y0, y1, dtype=np.float32)[:, None]
    xx = np.arange(x0, x1, dtype=np.float32)[None, :]
    d = np.sqrt((xx - cx) ** 2 + (yy - cy) ** 2)
    ring = np.exp(-((d - r_px) / width) ** 2) * (1 + 0.3 * noise(rng, y1 - y0, x1 - x0, 10))
    inside = (d < r_px) * 0.15
    k = clamp01(ring * rng.uniform(0.3, 0.6) + inside * rng.uniform(0, 0.5))
    brown = np.asarray((0.45, 0.28, 0.12), np.float32)
    img = img.copy()
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - k[..., None] * (1 - brown))
    return img


def draw_pen_object(rng, img, avoid):
    """A ballpoint pen / pencil lying on the desk, away from the content."""
    h, w, _ = img.shape
    L = rng.uniform(0.5, 0.9) * max(h, w)
    t = L * rng.uniform(0.05, 0.08)
    for _ in range(30):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        ang = rng.uniform(0, math.pi)
        dx, dy = math.cos(ang), math.sin(ang)
        # distance of avoid-centre to the pen segment
        px, py = avoid[0] - cx, avoid[1] - cy
        tt = max(-L / 2, min(L / 2, px * dx + py * dy))
        dist = math.hypot(px - tt * dx, py - tt * dy)
        if dist > avoid[2] + t * 1.5:
            break
    else:
        return img
    body = [(0.1, 0.25, 0.7), (0.1, 0.1, 0.1), (0.85, 0.7, 0.1), (0.7, 0.1, 0.1), (0.9, 0.9, 0.92)][rng.integers(5)]
    ex, ey = abs(dx) * L / 2 + t * 2, abs(dy) * L / 2 + t * 2
    x0, x1 = int(max(0, cx - ex)), int(min(w, cx + ex + 1))
    y0, y1 = int(max(0, cy - ey)), int(min(h, cy + ey + 1))
    if x1 <= x0 + 2 or y1 <= y0 + 2:
        return img
    yy = np.arange(y0, y1, dtype=np.float32)[:, None]
    xx = np.arange(x0, x1, dtype=np.float32)[None, :]
    along = (xx - cx) * dx + (yy - cy) * dy
    across = -(xx - cx) * dy + (yy - cy) * dx
    inside = clamp01(t / 2 - np.abs(across) + 0.5) * clamp01(L / 2 - np.abs(along) + 0.5)
    shade = 0.75 + 0.35 * np.cos(np.clip(across / (t / 2), -1, 1) * 1.4)
    col = np.asarray(body, np.float32)[None, None, :] * shade[..., None]
    # cast shadow on the desk
    oy_, ox_ = max(1, int(t * 0.4)), max(1, int(t * 0.3))
    sh = np.zeros_like(inside)
    sh[oy_:, ox_:] = inside[:-oy_, :-ox_]
    sh = np.asarray(Image.fromarray(to_u8(sh)).filter(ImageFilter.GaussianBlur(t * 0.3)), np.float32) / 255.0
    img = img.copy()
    sub = img[y0:y1, x0:x1] * (1 - 0.35 * sh[..., None])
    a = inside[..., None]
    img[y0:y1, x0:x1] = sub * (1 - a) + col * a
    return img


def draw_block_object(rng, img, avoid):
    """A phone (dark glass, rounded) or an eraser lying on the desk, with its soft shadow."""
    h, w, _ = img.shape
    phone = rng.random() < 0.6
    if phone:
        ow = rng.uniform(0.25, 0.4) * max(h, w); oh = ow * rng.uniform(1.9, 2.1)
        body = np.asarray([(0.05, 0.05, 0.06), (0.8, 0.8, 0.82), (0.2, 0.25, 0.35)][rng.integers(3)], np.float32)
    else:
        ow = rng.uniform(0.06, 0.1) * max(h, w); oh = ow * rng.uniform(1.6, 2.4)
        body = np.asarray([(0.95, 0.6, 0.65), (0.93, 0.93, 0.9), (0.3, 0.45, 0.8)][rng.integers(3)], np.float32)
    ow, oh = int(ow), int(oh)
    m = Image.new("L", (ow, oh), 0)
    ImageDraw.Draw(m).rounded_rectangle((0, 0, ow - 1, oh - 1), radius=int(ow * 0.12), fill=255)
    ang = rng.uniform(0, 180)
    m = m.rotate(ang, Image.BILINEAR, expand=True)
    mw, mh = m.size
    half = math.hypot(mw, mh) / 2
    for _ in range(30):
        cx, cy = rng.uniform(-0.1, 1.1) * w, rng.uniform(-0.1, 1.1) * h
        if math.hypot(cx - avoid[0], cy - avoid[1]) > avoid[2] + half:
            break
    else:
        return img
    full = Image.new("L", (w, h), 0)
    full.paste(m, (int(cx - mw / 2), int(cy - mh / 2)))
    a = np.asarray(full, np.float32) / 255.0
    if a.max() == 0:
        return img
    off = max(2, int(0.04 * ow))
    sh = Image.new("L", (w, h), 0); sh.paste(m, (int(cx - mw / 2) + off, int(cy - mh / 2) + off))
    sh = np.asarray(sh.filter(ImageFilter.GaussianBlur(off * 1.5)), np.float32) / 255.0
    img = img * (1 - 0.4 * sh[..., None])
    yy = np.arange(h, dtype=np.float32)[:, None] / h; xx = np.arange(w, dtype=np.float32)[None, :] / w
    sheen = 1 + (0.25 if phone else 0.08) * np.clip(np.sin((xx * 1.3 + yy) * rng.uniform(3, 6)), 0, 1)
    col = body * sheen[..., None]
    return img * (1 - a[..., None]) + col * a[..., None]


# --------------------------------------------------------------------------------------------------
# light and camera

def shadow_mask(rng, h, w, what):
    S = 2 if max(h, w) > 300 else 1
    sw, sh_ = max(8, w // S), max(8, h // S)
    im = Image.new("L", (sw, sh_), 0)
    d = ImageDraw.Draw(im)
    side = rng.integers(4)
    # entry point on an edge and inward direction
    t = rng.uniform(0.15, 0.85)
    if side == 0:
        ex, ey, ang = t * sw, 0, math.pi / 2
    elif side == 1:
        ex, ey, ang = sw, t * sh_, math.pi
    elif side == 2:
        ex, ey, ang = t * sw, sh_, -math.pi / 2
    else:
        ex, ey, ang = 0, t * sh_, 0.0
    ang += rng.uniform(-0.6, 0.6)
    size = max(sw, sh_)
    depth = rng.uniform(0.25, 0.6) * size
    if what == "hand":
        pr = size * rng.uniform(0.25, 0.4)
        pcx = ex + math.cos(ang) * (depth - pr * 1.2)
        pcy = ey + math.sin(ang) * (depth - pr * 1.2)
        d.ellipse((pcx - pr, pcy - pr, pcx + pr, pcy + pr), fill=255)
        # arm toward the edge
        d.line((ex - math.cos(ang) * size, ey - math.sin(ang) * size, pcx, pcy), fill=255, width=int(pr * 1.4))
        fw = pr * 0.32
        for k in range(4):
            fa = ang + (k - 1.5) * 0.28
            fl = pr * rng.uniform(0.9, 1.5)
            sx, sy = pcx + math.cos(fa) * pr * 0.6, pcy + math.sin(fa) * pr * 0.6
            tx, ty = sx + math.cos(fa) * fl, sy + math.sin(fa) * fl
            d.line((sx, sy, tx, ty), fill=255, width=int(fw))
            d.ellipse((tx - fw / 2, ty - fw / 2, tx + fw / 2, ty + fw / 2), fill=255)
    else:
        pw = size * rng.uniform(0.3, 0.5); pl = size * 1.5
        cx, cy = ex + math.cos(ang) * (depth - pl / 2), ey + math.sin(ang) * (depth - pl / 2)
        dx, dy = math.cos(ang), math.sin(ang)
        pts = [(cx + dx * pl / 2 + -dy * pw / 2, cy + dy * pl / 2 + dx * pw / 2),
               (cx + dx * pl / 2 - -dy * pw / 2, cy + dy * pl / 2 - dx * pw / 2),
               (cx - dx * pl / 2 - -dy * pw / 2, cy - dy * pl / 2 - dx * pw / 2),
               (cx - dx * pl / 2 + -dy * pw / 2, cy - dy * pl / 2 + dx * pw / 2)]
        d.polygon(pts, fill=255)
    blur = rng.uniform(0.02, 0.09) * size
    im = im.filter(ImageFilter.GaussianBlur(blur))
    im = im.resize((w, h), Image.BILINEAR)
    return np.asarray(im, np.float32) / 255.0


def light_field(rng, h, w, grad=(0.05, 0.3), vignette=(0.0, 0.25), shadow=None, shadow_depth=(0.3, 0.6),
                cast=None, shadow_target=None):
    yy = (np.arange(h, dtype=np.float32) / max(1, h - 1) - 0.5)[:, None]
    xx = (np.arange(w, dtype=np.float32) / max(1, w - 1) - 0.5)[None, :]
    a = rng.uniform(0, 2 * math.pi)
    g = rng.uniform(*grad)
    L = 1 + g * (xx * math.cos(a) + yy * math.sin(a)) * 1.4
    v = rng.uniform(*vignette)
    L = L * (1 - v * (xx ** 2 + yy ** 2) * 1.6)
    L = L + 0.012 * noise(rng, h, w, max(h, w) / 3.0)
    L = np.broadcast_to(L, (h, w))[..., None] * np.ones(3, np.float32)
    if shadow:
        for _ in range(12):
            m = shadow_mask(rng, h, w, shadow)
            if shadow_target is None:
                break
            tx, ty, tr = shadow_target
            ya, yb = int(max(0, ty - tr)), int(min(h, ty + tr + 1))
            xa, xb = int(max(0, tx - tr)), int(min(w, tx + tr + 1))
            cover = float(m[ya:yb, xa:xb].mean()) if yb > ya and xb > xa else 0.0
            if 0.2 <= cover <= 0.85:      # the shadow's edge runs across the content
                break
        dep = rng.uniform(*shadow_depth)
        tint = np.asarray((1.08, 1.0, 0.9), np.float32)   # shade is lit by bluish skylight
        L = L * (1 - dep * m[..., None] * tint)
    if cast is not None:
        L = L * np.asarray(cast, np.float32)
    return L.astype(np.float32)


CASTS = [(1.0, 1.0, 1.0), (1.0, 0.94, 0.82), (1.0, 0.9, 0.75), (0.92, 0.97, 1.0), (0.96, 1.0, 0.93),
         (1.0, 0.97, 0.92), (1.0, 1.0, 1.0)]


def glare(rng, h, w, avoid, strength):
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(20):
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        if math.hypot(gx - avoid[0], gy - avoid[1]) > avoid[2] * 1.1:
            break
    sx = rng.uniform(0.08, 0.3) * w; sy = rng.uniform(0.06, 0.25) * h
    return strength * np.exp(-((xx - gx) / sx) ** 2 - ((yy - gy) / sy) ** 2)


def camera(rng, img, blur=(0.3, 1.2), noise_lv=(0.005, 0.03), motion=0.15, exposure=(0.9, 1.12),
           gamma=(0.9, 1.1), wb=0.04, sharpen=0.4):
    h, w, _ = img.shape
    e = rng.uniform(*exposure)
    img = img * e * (1 + rng.uniform(-wb, wb, 3)).astype(np.float32)
    s = rng.uniform(*blur)
    if s > 0.25:
        im = Image.fromarray(to_u8(img)).filter(ImageFilter.GaussianBlur(s))
        img = np.asarray(im, np.float32) / 255.0
    if rng.random() < motion:
        L = int(rng.integers(2, 5))
        img = ndi.uniform_filter1d(img, L, axis=int(rng.integers(2)))
    if rng.random() < sharpen:      # phone pipelines sharpen: light halos along edges
        im = Image.fromarray(to_u8(img)).filter(ImageFilter.UnsharpMask(
            radius=float(rng.uniform(0.8, 2.0)), percent=int(rng.integers(40, 140)), threshold=2))
        img = np.asarray(im, np.float32) / 255.0
    n = rng.uniform(*noise_lv)
    lumi = rng.standard_normal((h, w, 1), dtype=np.float32)
    # chroma noise comes in 2x2 blocks, as after demosaicing
    chroma = rng.standard_normal(((h + 1) // 2, (w + 1) // 2, 3), dtype=np.float32)
    chroma = np.repeat(np.repeat(chroma, 2, 0), 2, 1)[:h, :w]
    img = img + n * (0.7 * lumi + 0.5 * chroma) * np.sqrt(clamp01(img) + 0.05)
    g = rng.uniform(*gamma)
    img = clamp01(img) ** g
    return img


# --------------------------------------------------------------------------------------------------
# photographing a sheet

def shoot(rng, P):
    """Render a sheet (paper + content) and photograph it.

    P keys: size (W,H); c_out; gh_out (content height in output px); u (sheet px per output px at the
    content); rot (camera roll, deg); keystone (0..0.3); sheet_mm (w,h) or None (paper fills the view);
    content, pen (chosen for sheet px), angle/slant (writing), glyph_mm (content height in mm);
    paper spec; desk (bool); light kwargs; objects.
    Returns float image (H,W,3) and the ink coverage seen in the output (H,W).
    """
    W, H = P["size"]
    u = P.get("u", 1.0)
    gh_s = P["gh_out"] * u
    ppmm = gh_s / P["glyph_mm"]
    c_out = np.asarray(P["c_out"], float)
    sheet_mm = P.get("sheet_mm")
    if sheet_mm is not None:
        sw, sh = sheet_mm[0] * ppmm, sheet_mm[1] * ppmm
        cpos = P.get("c_in_sheet", (0.5, 0.5))
        c_sheet = np.array([cpos[0] * sw, cpos[1] * sh])
        rect = (0.0, 0.0, sw, sh)
    else:
        c_sheet = np.array([0.0, 0.0])
        rect = None
    S = mat_t(*c_out) @ mat_rs(P.get("rot", 0.0), 1.0 / u) @ mat_t(-c_sheet[0], -c_sheet[1])
    k = P.get("keystone", 0.0)
    corners = np.array([(0, 0), (W, 0), (W, H), (0, H)], float)
    if k > 0:
        # camera tilt: one side of the view farther away (shrinks), plus a little random corner play
        side = rng.integers(4)
        disp = np.zeros((4, 2))
        kk = rng.uniform(0.4, 1.0) * k
        far = [(0, 1), (1, 2), (2, 3), (3, 0)][side]
        for i in far:
            disp[i] = (np.array([W / 2, H / 2]) - corners[i]) * kk
        disp += rng.uniform(-0.03, 0.03, (4, 2)) * [W, H]
        K = solve_h(corners, corners + disp)
    else:
        K = np.eye(3)
    c2 = apply_h(K @ S, [c_sheet])[0]
    Hm = mat_t(*(c_out - c2)) @ K @ S
    Hinv = inv3(Hm)
    vis = apply_h(Hinv, corners)
    x0, y0 = np.floor(vis.min(0)) - 4
    x1, y1 = np.ceil(vis.max(0)) + 4
    if rect is not None:
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, math.ceil(rect[2])), min(y1, math.ceil(rect[3]))
    x0, y0, x1, y1 = int(x0), int(y0), int(x1), int(y1)
    out_cov = np.zeros((H, W), np.float32)
    if P.get("desk", False) or rect is not None:
        img = render_desk(rng, H, W)
        if P.get("cup_ring"):
            img = draw_cup_ring(rng, img, (c_out[0], c_out[1], P["gh_out"] * 1.5), rng.uniform(0.08, 0.18) * max(W, H))
    else:
        img = np.zeros((H, W, 3), np.float32)
    if x1 > x0 + 1 and y1 > y0 + 1:
        sw_, sh_ = x1 - x0, y1 - y0
        paper = render_paper(rng, P["paper"], x0, y0, sw_, sh_, ppmm)
        for extra in P.get("sheet_extras", []):
            paper = extra(rng, paper, x0, y0, ppmm, c_sheet)
        cov = np.zeros((sh_, sw_), np.float32)
        if P.get("content") is not None:
            cov = render_content(rng, P["content"], sh_, sw_, c_sheet[0] - x0, c_sheet[1] - y0, gh_s,
                                 P.get("angle", 0.0), P.get("slant", 0.0), P["pen"])
            a = ink_texture(rng, cov, P["pen"])
            paper = apply_ink(paper, a, P["pen"])
        Hs = Hm @ mat_t(x0, y0)
        sheet_im = Image.fromarray(to_u8(paper))
        warped = np.asarray(warp_persp(sheet_im, Hs, (W, H)), np.float32) / 255.0
        if rect is not None or P.get("desk", False):
            alpha = np.asarray(warp_persp(Image.new("L", (sw_, sh_), 255), Hs, (W, H), Image.BILINEAR), np.float32) / 255.0
        else:
            alpha = np.ones((H, W), np.float32)
        if P.get("content") is not None and P.get("want_cov"):
            out_cov = np.asarray(warp_persp(Image.fromarray(to_u8(cov)), Hs, (W, H), Image.BILINEAR), np.float32) / 255.0
        if rect is not None or P.get("desk", False):
            # the sheet's own soft shadow on the desk
            sh_a = np.zeros_like(alpha)
            sh_a[3:, 2:] = alpha[:-3, :-2]
            sh_a = ndi.gaussian_filter(sh_a, 3.0)
            img = img * (1 - 0.3 * sh_a[..., None])
        img = img * (1 - alpha[..., None]) + warped * alpha[..., None]
    if P.get("pen_object"):
        img = draw_pen_object(rng, img, (c_out[0], c_out[1], P["gh_out"] * 1.3))
    if P.get("block_object"):
        img = draw_block_object(rng, img, (c_out[0], c_out[1], P["gh_out"] * 1.3))
    L = light_field(rng, H, W, **P.get("light", {}))
    img = img * L
    if P.get("glare", 0) > 0:
        img = img + glare(rng, H, W, (c_out[0], c_out[1], P["gh_out"] * 0.8), P["glare"])[..., None]
    img = camera(rng, img, **P.get("camera", {}))
    return img, out_cov


# --------------------------------------------------------------------------------------------------
# saving (PNG / JPEG with an optional EXIF orientation written by hand)

def exif_app1(orientation):
    ifd = struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + ifd
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload


def save_picture(im, path_noext, fmt, quality=90, orientation=1, subsampling=None):
    if fmt == "png":
        path = path_noext + ".png"
        im.save(path, format="PNG", optimize=False)
        return path
    path = path_noext + ".jpg"
    if orientation == 6:
        im = im.transpose(Image.ROTATE_90)
    elif orientation == 8:
        im = im.transpose(Image.ROTATE_270)
    elif orientation == 3:
        im = im.transpose(Image.ROTATE_180)
    import io
    buf = io.BytesIO()
    kw = dict(format="JPEG", quality=int(quality))
    if subsampling is not None:
        kw["subsampling"] = subsampling
    im.convert("RGB" if im.mode != "L" else "L").save(buf, **kw)
    data = buf.getvalue()
    if orientation != 1:
        assert data[:2] == b"\xff\xd8"
        rest = data[2:]
        if rest[:2] == b"\xff\xe0":          # drop the JFIF APP0; phones write Exif APP1 first
            n = struct.unpack(">H", rest[2:4])[0]
            rest = rest[2 + n:]
        data = b"\xff\xd8" + exif_app1(orientation) + rest
    with open(path, "wb") as f:
        f.write(data)
    return path


# --------------------------------------------------------------------------------------------------
# scene recipes shared by the kinds

ASPECTS = [(4, 3), (3, 4), (1, 1), (16, 9), (9, 16), (3, 2), (2, 3)]


def pick_size(rng, lo, hi):
    L = int(rng.integers(lo, hi + 1))
    a, b = ASPECTS[rng.integers(len(ASPECTS))]
    if a >= b:
        return L, max(16, int(round(L * b / a)))
    return max(16, int(round(L * a / b))), L


def hand_digit(rng, ctx, d, warp=0.035):
    for _ in range(100):
        st = mnist_strokes(rng, ctx["mnist"], ctx["mnist"].pick(rng, d), warp)
        if st is not None:
            return st
    raise RuntimeError("no usable MNIST sample for %d" % d)


def print_font(rng, ctx, bold=None):
    fonts = ctx["fonts"]
    if bold is not None:
        sel = [f for f in fonts if font_is_bold(f) == bold]
        if sel:
            fonts = sel
    return fonts[rng.integers(len(fonts))]


def content_extent(content):
    """(width, height) of the content in reference heights."""
    if content is None:
        return 0.7, 1.0
    if isinstance(content, Strokes):
        x0, y0, x1, y1 = content.bounds()
        return x1 - x0, y1 - y0
    if isinstance(content, Filled):
        return content.mask.shape[1] / content.ref, content.mask.shape[0] / content.ref
    xs, ys = [], []
    for part, dx, dy, sc in content.parts:
        w, h = content_extent(part)
        xs += [dx - w * sc / 2, dx + w * sc / 2]; ys += [dy - h * sc / 2, dy + h * sc / 2]
    return max(xs) - min(xs), max(ys) - min(ys)


def base_params(rng, content, pen_style, size=(300, 1000), gh=(0.25, 0.6)):
    W, H = pick_size(rng, *size)
    frac = rng.uniform(*gh)
    gh_out = frac * min(W, H)
    ew, eh = content_extent(content)
    ew, eh = max(ew, 0.3), max(eh, 0.3)
    gh_out = min(gh_out, 0.85 * W / (ew + 0.3), 0.85 * H / (eh + 0.3))
    room_x = max(0.0, W / 2 - gh_out * (ew / 2 + 0.15) - 4); room_y = max(0.0, H / 2 - gh_out * (eh / 2 + 0.15) - 4)
    c_out = (W / 2 + rng.uniform(-0.6, 0.6) * room_x, H / 2 + rng.uniform(-0.6, 0.6) * room_y)
    u = rng.uniform(1.0, 1.3)
    if pen_style == "marker":
        glyph_mm = rng.uniform(25, 60)
    elif pen_style == "print":
        glyph_mm = rng.uniform(4, 30)
    else:
        glyph_mm = rng.uniform(7, 20)
    P = dict(size=(W, H), c_out=c_out, gh_out=gh_out, u=u, glyph_mm=glyph_mm, content=content,
             pen=choose_pen(rng, pen_style, gh_out * u), angle=rng.uniform(-6, 6),
             slant=rng.uniform(-0.12, 0.12) if pen_style != "print" else 0.0,
             rot=rng.uniform(-4, 4), keystone=rng.uniform(0, 0.08) if rng.random() < 0.6 else 0.0,
             paper=random_paper_spec(rng, ("plain", "plain", "ruled", "squared")),
             light=dict(grad=(0.05, 0.3), cast=CASTS[rng.integers(len(CASTS))]),
             camera={})
    align_paper(rng, P)
    return P


def align_paper(rng, P):
    """Put ruled / grid lines where they cross the content, the margin line left of it."""
    spec = P["paper"]
    if spec["type"] in ("ruled", "squared", "dotted"):
        gh_s = P["gh_out"] * P.get("u", 1.0)
        ppmm = gh_s / P["glyph_mm"]
        sp = spec["spacing_mm"] * ppmm
        spec["phase"] = rng.uniform(0, sp)
        spec["phase_x"] = rng.uniform(0, sp)
        if spec.get("margin"):
            spec["margin_x"] = -gh_s * rng.uniform(0.7, 2.5)


def pick_format(rng, P_png=0.15, q=(72, 95), exif=0.1):
    """PNG, or JPEG; a phone JPEG sometimes stores its pixels rotated with an EXIF orientation tag."""
    if rng.random() < P_png:
        return dict(fmt="png")
    o = [3, 6, 8][rng.integers(3)] if rng.random() < exif else 1
    return dict(fmt="jpg", quality=int(rng.integers(q[0], q[1] + 1)), orientation=o)


def finish(img):
    return Image.fromarray(to_u8(img))


def contrast_ok(paper_rgb, pen):
    col = np.asarray(pen["color"], float)
    base = np.asarray(paper_rgb, float)
    if pen.get("mode") == "cover":
        inked = base * (1 - pen["density"]) + col * pen["density"]
    else:
        inked = base * (1 - pen["density"] * (1 - col))
    return abs(lum(base) - lum(inked))


# --------------------------------------------------------------------------------------------------
# digit kinds

def kind_shadow(rng, ctx, d):
    style = ["ballpoint", "ballpoint", "fineliner", "marker"][rng.integers(4)]
    P = base_params(rng, hand_digit(rng, ctx, d), style, size=(300, 1000), gh=(0.25, 0.55))
    P["paper"] = random_paper_spec(rng, ("plain", "plain", "plain", "ruled"))
    align_paper(rng, P)
    if rng.random() < 0.3:
        P["desk"] = True
        P["sheet_mm"] = (rng.uniform(90, 210), rng.uniform(90, 210))
        P["c_in_sheet"] = (rng.uniform(0.35, 0.65), rng.uniform(0.35, 0.65))
        P["glyph_mm"] = min(P["sheet_mm"]) * rng.uniform(0.25, 0.45)
    P["light"] = dict(grad=(0.1, 0.45), vignette=(0.05, 0.3), shadow=["hand", "phone"][rng.integers(2)],
                      shadow_depth=(0.3, 0.62), shadow_target=(P["c_out"][0], P["c_out"][1], P["gh_out"] * 0.6),
                      cast=CASTS[rng.integers(len(CASTS))])
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng)


def kind_desk(rng, ctx, d):
    hand = rng.random() < 0.8
    content = hand_digit(rng, ctx, d) if hand else printed_glyph(print_font(rng, ctx), str(d))
    style = ["ballpoint", "marker", "fineliner"][rng.integers(3)] if hand else "print"
    P = base_params(rng, content, style, size=(400, 1100), gh=(0.12, 0.28))
    what = rng.integers(4)
    if what == 0:      # sticky note
        side = rng.choice([76.0, 50.0, 100.0])
        P["sheet_mm"] = (side, side * rng.choice([1.0, 0.8, 1.0]))
        P["paper"] = dict(type="plain", base=STICKY[rng.integers(len(STICKY))], grain=0.01)
    elif what == 1:    # index card / notebook piece
        P["sheet_mm"] = (rng.uniform(100, 150), rng.uniform(70, 100))
        P["paper"] = random_paper_spec(rng, ("plain", "ruled", "squared"))
    else:              # a sheet, partly in view
        P["sheet_mm"] = (rng.uniform(140, 210), rng.uniform(140, 297))
        P["paper"] = random_paper_spec(rng, ("plain", "plain", "ruled", "squared"))
    P["c_in_sheet"] = (rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7))
    P["glyph_mm"] = min(P["sheet_mm"]) * rng.uniform(0.18, 0.4)
    P["pen"] = choose_pen(rng, style, P["gh_out"] * P["u"])
    align_paper(rng, P)
    P["rot"] = rng.uniform(-25, 25)
    P["keystone"] = rng.uniform(0.0, 0.15)
    P["desk"] = True
    P["pen_object"] = rng.random() < 0.6
    P["block_object"] = rng.random() < 0.35
    P["cup_ring"] = rng.random() < 0.45
    P["light"] = dict(grad=(0.05, 0.35), vignette=(0.05, 0.35), cast=CASTS[rng.integers(len(CASTS))],
                      shadow=["hand", "phone", None, None][rng.integers(4)], shadow_depth=(0.15, 0.35))
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng, 0.1)


def frame_extra(color, gap, lw):
    def f(rng, paper, x0, y0, ppmm, c):
        h, w, _ = paper.shape
        yy = np.arange(h, dtype=np.float32)[:, None] + y0
        xx = np.arange(w, dtype=np.float32)[None, :] + x0
        gx, gy = gap
        dx = np.abs(np.abs(xx - c[0]) - gx); dy = np.abs(np.abs(yy - c[1]) - gy)
        inx = np.abs(xx - c[0]) <= gx + lw; iny = np.abs(yy - c[1]) <= gy + lw
        cov = np.maximum(clamp01(lw / 2 - dx + 0.5) * iny, clamp01(lw / 2 - dy + 0.5) * inx)
        return paper * (1 - cov[..., None] * (1 - np.asarray(color, np.float32)))
    return f


def kind_tight(rng, ctx, d):
    hand = rng.random() < 0.75
    content = hand_digit(rng, ctx, d) if hand else printed_glyph(print_font(rng, ctx), str(d))
    style = ["ballpoint", "marker", "fineliner", "pencil"][rng.integers(4)] if hand else "print"
    gh_out = rng.uniform(40, 140)
    W = H = int(gh_out * 2.4)
    P = dict(size=(W, H), c_out=(W / 2, H / 2), gh_out=gh_out, u=rng.uniform(1.0, 1.2),
             glyph_mm=rng.uniform(8, 30), content=content, angle=rng.uniform(-5, 5),
             slant=rng.uniform(-0.1, 0.1) if hand else 0.0, rot=rng.uniform(-3, 3), keystone=0.0,
             paper=random_paper_spec(rng, ("plain", "plain", "ruled", "squared")),
             light=dict(grad=(0.0, 0.2), vignette=(0.0, 0.1)), camera=dict(blur=(0.2, 0.9)))
    P["pen"] = choose_pen(rng, style, gh_out * P["u"])
    align_paper(rng, P)
    extra = rng.integers(3)   # 0 nothing, 1 a form-box frame, 2 the paper's edge
    if extra == 1:
        gh_s = gh_out * P["u"]
        P["sheet_extras"] = [frame_extra((0.15, 0.15, 0.2), (gh_s * rng.uniform(0.55, 0.75), gh_s * rng.uniform(0.58, 0.7)),
                                         max(1.0, gh_s * rng.uniform(0.015, 0.05)))]
    elif extra == 2:
        gh_s = gh_out * P["u"]
        ppmm = gh_s / P["glyph_mm"]
        sw = 200 * ppmm
        off = gh_s * rng.uniform(0.6, 0.8) / sw
        pos = [(off, 0.5), (1 - off, 0.5), (0.5, off * 1.2), (0.5, 1 - off * 1.2)][rng.integers(4)]
        P["sheet_mm"] = (200.0, 200.0 * 1.2)
        P["c_in_sheet"] = pos
        P["desk"] = True
    P["want_cov"] = True
    img, cov = shoot(rng, P)
    ys, xs = np.nonzero(cov > 0.3)
    if len(ys) == 0:
        y0, y1, x0, x1 = 0, H, 0, W
    else:
        y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    bh = y1 - y0
    m = [rng.uniform(-0.01, 0.22) * bh if rng.random() < 0.75 else rng.uniform(-0.02, 0.02) * bh for _ in range(4)]
    if extra == 1:      # include the frame around
        m = [max(mm, rng.uniform(0.15, 0.3) * bh) for mm in m]
    if extra == 2:
        m = [max(mm, rng.uniform(0.12, 0.35) * bh) for mm in m]
    cx0 = int(max(0, x0 - m[0])); cx1 = int(min(W, x1 + m[1]))
    cy0 = int(max(0, y0 - m[2])); cy1 = int(min(H, y1 + m[3]))
    crop = finish(img).crop((cx0, cy0, cx1, cy1))
    th = int(rng.integers(24, 160))
    if crop.size[1] > th:
        crop = crop.resize((max(6, int(round(crop.size[0] * th / crop.size[1]))), th), Image.LANCZOS)
    return crop, str(d), pick_format(rng, 0.4, exif=0.0)


def kind_thin(rng, ctx, d):
    style = ["ballpoint", "fineliner"][rng.integers(2)]
    P = base_params(rng, hand_digit(rng, ctx, d), style, size=(200, 700), gh=(0.3, 0.6))
    pen = P["pen"]
    width_out = rng.uniform(1.0, 2.0)
    pen["r"] = width_out * P["u"] / 2.0
    pen["density"] = rng.uniform(0.5, 0.9) if rng.random() < 0.7 else rng.uniform(0.85, 1.0)
    pen["pressure"] = rng.uniform(0.05, 0.25)
    P["paper"] = random_paper_spec(rng, ("plain", "plain", "plain", "ruled", "squared"))
    align_paper(rng, P)
    P["camera"] = dict(blur=(0.0, 0.6), noise_lv=(0.003, 0.02))
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng, 0.3, (85, 96))


def kind_pencil(rng, ctx, d):
    P = base_params(rng, hand_digit(rng, ctx, d), "pencil", size=(250, 1000), gh=(0.25, 0.6))
    P["paper"] = random_paper_spec(rng, ("plain", "plain", "plain", "ruled"))
    P["paper"]["base"] = [PAPERS["white"], PAPERS["offwhite"], PAPERS["cream"], PAPERS["notebook"]][rng.integers(4)]
    P["paper"]["grain"] = rng.uniform(0.008, 0.02)
    align_paper(rng, P)
    P["light"] = dict(grad=(0.05, 0.35), vignette=(0.05, 0.3), cast=CASTS[rng.integers(len(CASTS))])
    P["camera"] = dict(blur=(0.3, 1.0), noise_lv=(0.01, 0.035))
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng, 0.15)


def kind_rotated(rng, ctx, d):
    hand = rng.random() < 0.8
    content = hand_digit(rng, ctx, d) if hand else printed_glyph(print_font(rng, ctx), str(d))
    style = ["ballpoint", "marker", "fineliner"][rng.integers(3)] if hand else "print"
    P = base_params(rng, content, style, size=(300, 1000), gh=(0.22, 0.45))
    sign = 1 if rng.random() < 0.5 else -1
    P["rot"] = sign * rng.uniform(4, 18)
    P["angle"] = rng.uniform(-2, 2)
    P["keystone"] = rng.uniform(0.1, 0.3)
    if rng.random() < 0.4:
        P["desk"] = True
        P["sheet_mm"] = (rng.uniform(100, 210), rng.uniform(100, 210))
        P["c_in_sheet"] = (rng.uniform(0.35, 0.65), rng.uniform(0.35, 0.65))
        P["glyph_mm"] = min(P["sheet_mm"]) * rng.uniform(0.2, 0.35)
        P["pen"] = choose_pen(rng, style, P["gh_out"] * P["u"])
    align_paper(rng, P)
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng)


COLOUR_PAIRS = [  # (ink rgb, paper rgb)
    ((0.1, 0.2, 0.65), (0.98, 0.92, 0.42)), ((0.75, 0.08, 0.1), (0.7, 0.9, 0.68)),
    ((0.1, 0.45, 0.15), (0.98, 0.78, 0.85)), ((0.4, 0.1, 0.55), (0.7, 0.87, 0.97)),
    ((0.08, 0.08, 0.1), (1.0, 0.72, 0.4)), ((0.1, 0.15, 0.5), (0.78, 0.95, 0.78)),
    ((0.8, 0.1, 0.35), (0.95, 0.95, 0.75)), ((0.05, 0.3, 0.55), (0.98, 0.85, 0.6)),
]


def kind_colour(rng, ctx, d):
    hand = rng.random() < 0.85
    content = hand_digit(rng, ctx, d) if hand else printed_glyph(print_font(rng, ctx, True), str(d))
    variant = rng.integers(4)
    style = ["marker", "ballpoint", "fineliner"][rng.integers(3)] if hand else "print"
    P = base_params(rng, content, style, size=(300, 1000), gh=(0.25, 0.55))
    if variant == 0:        # coloured ink on coloured paper
        ink, base = COLOUR_PAIRS[rng.integers(len(COLOUR_PAIRS))]
        P["paper"] = dict(type="plain", base=base, grain=0.012)
        P["pen"]["color"] = ink
        P["pen"]["density"] = rng.uniform(0.85, 1.0)
    elif variant == 1:      # chalk on a blackboard
        P["content"] = hand_digit(rng, ctx, d, 0.04)
        P["glyph_mm"] = rng.uniform(60, 200)
        base = [(0.13, 0.2, 0.16), (0.1, 0.1, 0.11), (0.16, 0.24, 0.2)][rng.integers(3)]
        P["paper"] = dict(type="blackboard", base=base, grain=0.03)
        col = [(0.93, 0.93, 0.9), (0.95, 0.9, 0.55), (0.95, 0.75, 0.8)][rng.integers(3)]
        P["pen"] = dict(kind="chalk", r=P["gh_out"] * P["u"] * rng.uniform(0.04, 0.065), color=col,
                        density=rng.uniform(0.85, 1.0), mode="cover", pressure=0.25)
    elif variant == 2:      # whiteboard marker with glare
        P["content"] = hand_digit(rng, ctx, d, 0.04)
        P["glyph_mm"] = rng.uniform(50, 150)
        P["paper"] = dict(type="plain", base=(0.94, 0.95, 0.96), grain=0.004)
        col = [(0.1, 0.1, 0.12), (0.1, 0.25, 0.75), (0.8, 0.12, 0.12), (0.1, 0.5, 0.2)][rng.integers(4)]
        P["pen"] = dict(kind="marker", r=P["gh_out"] * P["u"] * rng.uniform(0.04, 0.07), color=col,
                        density=rng.uniform(0.8, 0.95), pressure=0.1)
        P["glare"] = rng.uniform(0.25, 0.6)
    else:                   # ordinary ink and paper under a strongly coloured lamp
        P["paper"] = random_paper_spec(rng, ("plain", "ruled"))
        align_paper(rng, P)
    cast = [(1.0, 0.78, 0.5), (1.0, 0.7, 0.42), (0.75, 0.88, 1.0), (0.85, 1.0, 0.8), (1.0, 0.85, 0.95),
            (1.0, 1.0, 1.0)][rng.integers(6)]
    if variant == 3:
        cast = [(1.0, 0.72, 0.42), (0.7, 0.85, 1.0), (0.8, 1.0, 0.75), (1.0, 0.75, 0.9)][rng.integers(4)]
    P["light"] = dict(grad=(0.05, 0.35), vignette=(0.05, 0.3), cast=cast)
    if contrast_ok(P["paper"]["base"], P["pen"]) < 0.2:
        P["pen"]["color"] = tuple(np.asarray(P["pen"]["color"]) * 0.5)
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng)


def kind_jpeg(rng, ctx, d):
    hand = rng.random() < 0.8
    content = hand_digit(rng, ctx, d) if hand else printed_glyph(print_font(rng, ctx), str(d))
    style = ["ballpoint", "marker", "fineliner", "pencil"][rng.integers(4)] if hand else "print"
    P = base_params(rng, content, style, size=(60, 320), gh=(0.4, 0.7))
    if hand and P["pen"]["r"] < 0.9:
        P["pen"]["r"] = 0.9
    P["camera"] = dict(blur=(0.2, 1.0), noise_lv=(0.02, 0.06))
    img, _ = shoot(rng, P)
    o = [1, 1, 3, 6, 8][rng.integers(5)] if rng.random() < 0.5 else 1
    return finish(img), str(d), dict(fmt="jpg", quality=int(rng.integers(10, 41)), orientation=o)


def kind_ruled(rng, ctx, d):
    style = ["ballpoint", "ballpoint", "fineliner", "pencil", "marker"][rng.integers(5)]
    P = base_params(rng, hand_digit(rng, ctx, d), style, size=(300, 1000), gh=(0.25, 0.55))
    P["paper"] = random_paper_spec(rng, ("ruled",))
    P["paper"]["base"] = [PAPERS["white"], PAPERS["notebook"], PAPERS["offwhite"], PAPERS["cream"]][rng.integers(4)]
    P["paper"]["margin"] = rng.random() < 0.45
    P["glyph_mm"] = P["paper"]["spacing_mm"] * rng.uniform(0.9, 1.6)
    P["pen"] = choose_pen(rng, style if style != "marker" else "fineliner", P["gh_out"] * P["u"])
    align_paper(rng, P)
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng)


def kind_squared(rng, ctx, d):
    style = ["ballpoint", "ballpoint", "fineliner", "pencil"][rng.integers(4)]
    P = base_params(rng, hand_digit(rng, ctx, d), style, size=(300, 1000), gh=(0.25, 0.55))
    P["paper"] = random_paper_spec(rng, ("squared", "squared", "dotted"))
    P["paper"]["base"] = [PAPERS["white"], PAPERS["notebook"], PAPERS["offwhite"]][rng.integers(3)]
    P["glyph_mm"] = P["paper"]["spacing_mm"] * rng.uniform(1.4, 3.0)
    P["pen"] = choose_pen(rng, style, P["gh_out"] * P["u"])
    align_paper(rng, P)
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng)


def kind_transparent(rng, ctx, d):
    sizes = [(280, 280), (400, 400), (512, 512), (600, 400), (800, 600), (1024, 768), (300, 500), (256, 256),
             (768, 1024), (200, 200)]
    W, H = sizes[rng.integers(len(sizes))]
    gh = min(W, H) * rng.uniform(0.35, 0.8)
    content = hand_digit(rng, ctx, d, 0.04)
    finger = rng.random() < 0.5
    r = gh * (rng.uniform(0.04, 0.07) if finger else rng.uniform(0.015, 0.035))
    r = max(r, 1.0)
    room_x = max(0.0, W / 2 - gh * 0.5 - r - 2); room_y = max(0.0, H / 2 - gh * 0.5 - r - 2)
    cx = W / 2 + rng.uniform(-0.7, 0.7) * room_x; cy = H / 2 + rng.uniform(-0.7, 0.7) * room_y
    segs = transform_segs(content.segs, cx, cy, gh, rng.uniform(-5, 5), rng.uniform(-0.1, 0.1))
    cov = stroke_coverage(H, W, segs, r, rng, pressure=0.05 if not finger else 0.12, ss=3)
    alpha = to_u8(cov * (1.0 if rng.random() < 0.8 else rng.uniform(0.7, 1.0)))
    flat = [(255, 255, 255), (0, 0, 0), (0, 0, 0), tuple(int(v) for v in rng.integers(0, 256, 3))][rng.integers(4)]
    rgb = np.empty((H, W, 3), np.uint8); rgb[...] = flat
    im = Image.fromarray(np.dstack([rgb, alpha]), "RGBA")
    return im, str(d), dict(fmt="png")


def kind_printed(rng, ctx, d):
    font = print_font(rng, ctx)
    content = printed_glyph(font, str(d))
    scanned = rng.random() < 0.4
    P = base_params(rng, content, "print", size=(100, 900), gh=(0.15, 0.6))
    P["paper"] = random_paper_spec(rng, ("plain", "plain", "plain", "squared"))
    P["paper"]["base"] = [PAPERS["white"], PAPERS["offwhite"], PAPERS["grey"], (0.99, 0.99, 0.99)][rng.integers(4)]
    align_paper(rng, P)
    P["pen"]["spread"] = rng.uniform(0.0, 0.8)
    if rng.random() < 0.25:
        gh_s = P["gh_out"] * P["u"]
        P["sheet_extras"] = [frame_extra((0.2, 0.2, 0.25), (gh_s * rng.uniform(0.6, 0.9), gh_s * rng.uniform(0.65, 0.9)),
                                         max(1.0, gh_s * rng.uniform(0.01, 0.04)))]
    if scanned:
        P["rot"] = rng.uniform(-2, 2); P["keystone"] = 0.0
        P["light"] = dict(grad=(0.0, 0.08), vignette=(0.0, 0.05))
        P["camera"] = dict(blur=(0.2, 1.2), noise_lv=(0.002, 0.015), wb=0.01, sharpen=0.1, motion=0.0)
        img, _ = shoot(rng, P)
        im = finish(img)
        if rng.random() < 0.5:
            im = im.convert("L")
        return im, str(d), pick_format(rng, 0.5, (80, 95), exif=0.0)
    P["camera"] = dict(blur=(0.3, 2.0))
    img, _ = shoot(rng, P)
    return finish(img), str(d), pick_format(rng)


# --------------------------------------------------------------------------------------------------
# meters: drum / wheel counters, LCD and LED seven-segment digits (drawn as polygons, no font)

SEGMENTS = {0: "abcdef", 1: "bc", 2: "abdeg", 3: "abcdg", 4: "bcfg", 5: "acdfg", 6: "acdefg", 7: "abc",
            8: "abcdefg", 9: "abcdfg"}


def seven_seg_polys(x0, y0, w, h, t, skew, gap):
    def hseg(yc, xa, xb):
        return [(xa + gap, yc), (xa + gap + t / 2, yc - t / 2), (xb - gap - t / 2, yc - t / 2), (xb - gap, yc),
                (xb - gap - t / 2, yc + t / 2), (xa + gap + t / 2, yc + t / 2)]

    def vseg(xc, ya, yb):
        return [(xc, ya + gap), (xc + t / 2, ya + gap + t / 2), (xc + t / 2, yb - gap - t / 2), (xc, yb - gap),
                (xc - t / 2, yb - gap - t / 2), (xc - t / 2, ya + gap + t / 2)]
    L, R, T, M, B = t / 2, w - t / 2, t / 2, h / 2, h - t / 2
    segs = dict(a=hseg(T, L, R), g=hseg(M, L, R), d=hseg(B, L, R), f=vseg(L, T, M), b=vseg(R, T, M),
                e=vseg(L, M, B), c=vseg(R, M, B))
    k = math.tan(math.radians(skew))
    return {n: [(x0 + x + (h - y) * k, y0 + y) for x, y in p] for n, p in segs.items()}


def meter_camera(rng, img_hi, out_w, out_h):
    """ESP32-cam like: low resolution, blur, strong noise, uneven light, colour cast."""
    h, w, _ = img_hi.shape
    yy = (np.arange(h, dtype=np.float32) / h - 0.5)[:, None]
    xx = (np.arange(w, dtype=np.float32) / w - 0.5)[None, :]
    a = rng.uniform(0, 2 * math.pi)
    L = 1 + rng.uniform(0.1, 0.6) * (xx * math.cos(a) + yy * math.sin(a))
    if rng.random() < 0.5:  # flash LED hotspot
        hx, hy = rng.uniform(-0.5, 0.5, 2)
        L = L + rng.uniform(0.1, 0.5) * np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / rng.uniform(0.02, 0.1))
    img = img_hi * L[..., None]
    cast = [(1, 1, 1), (1.0, 0.85, 0.95), (0.9, 1.0, 0.95), (1.0, 0.92, 0.8)][rng.integers(4)]
    img = img * np.asarray(cast, np.float32) * rng.uniform(0.7, 1.2)
    im = Image.fromarray(to_u8(img)).resize((out_w, out_h), Image.BOX)
    a = np.asarray(im, np.float32) / 255.0
    s = rng.uniform(0.3, 1.3)
    a = ndi.gaussian_filter(a, (s, s, 0))
    n = rng.uniform(0.015, 0.07)
    a = a + n * (noise(rng, out_h, out_w, 1.0)[..., None] * 0.8 + 0.4 * np.stack([noise(rng, out_h, out_w, 1.0) for _ in range(3)], -1))
    a = clamp01(a)
    if rng.random() < 0.25:   # night / IR mode: grey picture
        g = lum(a)
        a = np.repeat(g[..., None], 3, -1)
    return Image.fromarray(to_u8(a))


def meter_font(rng, ctx):
    fonts = ctx["fonts"]
    names = ("freesansbold.", "freemonobold.", "texgyreheros-bold.", "texgyreheroscn-bold.",
             "texgyreadventor-bold.", "texgyreheroscn-regular.", "freesans.")
    pool = [f for f in fonts if os.path.basename(f).lower().startswith(names)] or fonts
    return pool[rng.integers(len(pool))]


def meter_drum(rng, ctx, d, blank=False):
    Wc = int(rng.integers(20, 91)); Hc = int(round(Wc * rng.uniform(1.2, 1.7)))
    S = 4
    w, h = Wc * S, Hc * S
    dark = rng.random() < 0.6
    if dark:
        face = np.asarray([rng.uniform(0.05, 0.15)] * 3, np.float32)
        ink = np.asarray([rng.uniform(0.82, 0.95)] * 3, np.float32)
        if rng.random() < 0.2:
            face = np.asarray((0.55, 0.07, 0.07), np.float32)
    else:
        face = np.asarray([rng.uniform(0.8, 0.93)] * 3, np.float32) * np.asarray((1, 0.99, 0.96), np.float32)
        ink = np.asarray([rng.uniform(0.05, 0.15)] * 3, np.float32)
    frame = np.asarray([(0.05, 0.05, 0.06), (0.7, 0.7, 0.7), (0.45, 0.45, 0.47), (0.85, 0.85, 0.8)][rng.integers(4)], np.float32)
    ml, mr = [int(rng.uniform(0, 0.14) * w) if rng.random() < 0.7 else 0 for _ in range(2)]
    mt, mb = [int(rng.uniform(0, 0.12) * h) if rng.random() < 0.7 else 0 for _ in range(2)]
    win_w, win_h = w - ml - mr, h - mt - mb
    Dh = win_h / rng.uniform(1.12, 1.35)
    pitch = Dh * rng.uniform(1.2, 1.35)
    smax = (win_h - Dh) / 2 + 0.1 * Dh
    shift = 0.0 if rng.random() < 0.45 else rng.uniform(-1, 1) * smax
    R = win_h / 2 * rng.uniform(1.05, 1.6)
    yrel = np.arange(win_h, dtype=np.float32) - win_h / 2 + 0.5
    ang = np.arcsin(np.clip(yrel / R, -1, 1))
    s_face = R * ang                        # position on the drum surface for each window row
    strip_h = int(4 * pitch + win_h)
    strip_c = strip_h / 2
    strip = np.ones((strip_h, win_w, 3), np.float32) * face
    if not blank:
        font = meter_font(rng, ctx)
        for k in (-2, -1, 0, 1, 2):
            g = printed_glyph(font, str((d + k) % 10))
            cov = filled_coverage(strip_h, win_w, g, win_w / 2, strip_c + shift + k * pitch, Dh, 0.0, 0.0)
            strip = strip * (1 - cov[..., None]) + ink * cov[..., None]
    rows = np.clip((strip_c + s_face).astype(int), 0, strip_h - 1)
    win = strip[rows]
    win = win * (0.45 + 0.55 * np.cos(ang))[:, None, None]
    img = np.ones((h, w, 3), np.float32) * frame
    img[mt:mt + win_h, ml:ml + win_w] = win
    # window edge shadow and a plastic cover's haze
    shade = np.ones((h, w), np.float32)
    shade[mt:mt + max(1, S * 2), ml:ml + win_w] *= 0.6
    img = img * shade[..., None]
    img = img * (1 - 0.1) + 0.1 * rng.uniform(0.3, 0.8)
    im = meter_camera(rng, img, Wc, Hc)
    return im


def meter_seven(rng, ctx, d, blank=False):
    lcd = rng.random() < 0.55
    Wc = int(rng.integers(20, 91))
    S = 4
    aspect = rng.uniform(1.3, 1.9)
    Hc = int(round(Wc * aspect))
    w, h = Wc * S, Hc * S
    dh = h * rng.uniform(0.62, 0.82)
    dw = dh * rng.uniform(0.45, 0.6)
    dw = min(dw, w * 0.8)
    t = dh * rng.uniform(0.1, 0.15)
    skew = rng.uniform(0, 9) if rng.random() < 0.6 else 0.0
    sk_off = dh * math.tan(math.radians(skew))
    dw = min(dw, w * 0.9 - sk_off)
    x0 = (w - dw - sk_off) / 2 + rng.uniform(-0.06, 0.06) * w
    x0 = min(max(x0, 0.04 * w), w * 0.96 - dw - sk_off)
    y0 = (h - dh) / 2 + rng.uniform(-0.06, 0.06) * h
    polys = seven_seg_polys(x0, y0, dw, dh, t, skew, t * 0.12)
    on = "" if blank else SEGMENTS[d]
    if lcd:
        bg = np.asarray((0.6, 0.66, 0.55), np.float32) * rng.uniform(0.8, 1.12)
        on_col = np.asarray((0.12, 0.14, 0.12), np.float32)
        ghost = rng.uniform(0.0, 0.05)
    else:
        bg = np.asarray([rng.uniform(0.03, 0.1)] * 3, np.float32)
        red = rng.random() < 0.6
        on_col = np.asarray((1.0, 0.15, 0.08) if red else (0.25, 1.0, 0.35), np.float32)
        ghost = rng.uniform(0.03, 0.1)
    if blank:
        ghost = 0.0      # unlit segments of an empty window would draw a faint 8
    mask_on = Image.new("L", (w, h), 0); mask_off = Image.new("L", (w, h), 0)
    do, df = ImageDraw.Draw(mask_on), ImageDraw.Draw(mask_off)
    for n, p in polys.items():
        (do if n in on else df).polygon(p, fill=255)
    mon = np.asarray(mask_on, np.float32)[..., None] / 255.0
    moff = np.asarray(mask_off, np.float32)[..., None] / 255.0
    img = np.ones((h, w, 3), np.float32) * bg
    if lcd:
        img = img * (1 - moff * ghost)
        img = img * (1 - mon) + on_col * mon
        # the segments' shadow on the reflector behind the liquid crystal
        sh = ndi.shift(mon[..., 0], (S * 1.5, S * 1.5), order=0)
        img = img * (1 - 0.12 * sh[..., None])
        if rng.random() < 0.5:   # bezel
            b = int(rng.uniform(0.03, 0.12) * (w if rng.random() < 0.5 else h))
            side = rng.integers(4)
            col = np.asarray((0.15, 0.15, 0.16), np.float32)
            if side == 0: img[:b] = col
            elif side == 1: img[-b:] = col
            elif side == 2: img[:, :b] = col
            else: img[:, -b:] = col
    else:
        img = img + moff * on_col * ghost
        core = mon * on_col
        glow = ndi.gaussian_filter(mon[..., 0], S * rng.uniform(1.5, 4))[..., None] * on_col * rng.uniform(0.3, 0.8)
        img = img + core + glow
        img = img + mon * rng.uniform(0.0, 0.4)     # saturated centre looks whitish
    return meter_camera(rng, img, Wc, Hc)


def kind_meter(rng, ctx, d):
    if rng.random() < 0.5:
        im = meter_drum(rng, ctx, d)
    else:
        im = meter_seven(rng, ctx, d)
    return im, str(d), pick_format(rng, 0.3, (30, 85), exif=0.0)


# --------------------------------------------------------------------------------------------------
# non-digit kinds

def kind_blank(rng, ctx, d):
    what = rng.integers(8)
    if what == 6:
        im = meter_drum(rng, ctx, 0, blank=True) if rng.random() < 0.5 else meter_seven(rng, ctx, 0, blank=True)
        return im, "none", pick_format(rng, 0.3, (30, 85), exif=0.0)
    P = base_params(rng, None, "ballpoint", size=(150, 1000), gh=(0.2, 0.5))
    P["content"] = None
    if what == 0:
        P["paper"] = random_paper_spec(rng, ("plain", "ruled", "squared", "dotted"))
    elif what == 1:
        P["desk"] = True
        side = rng.uniform(50, 150)
        P["sheet_mm"] = (side, side * rng.uniform(0.7, 1.4))
        P["c_in_sheet"] = (rng.uniform(0.3, 0.7), rng.uniform(0.3, 0.7))
        P["glyph_mm"] = side * rng.uniform(0.2, 0.4)
        P["paper"] = dict(type="plain", base=STICKY[rng.integers(len(STICKY))], grain=0.01) if rng.random() < 0.5 \
            else random_paper_spec(rng)
        P["rot"] = rng.uniform(-30, 30)
        P["pen_object"] = rng.random() < 0.5
        P["cup_ring"] = rng.random() < 0.4
        P["block_object"] = rng.random() < 0.25
    elif what == 2:
        P["paper"] = dict(type="plain", base=(0.94, 0.95, 0.96), grain=0.004)
        P["glare"] = rng.uniform(0.25, 0.6)
    elif what == 3:
        P["paper"] = dict(type="blackboard", base=[(0.13, 0.2, 0.16), (0.1, 0.1, 0.11)][rng.integers(2)], grain=0.03)
    elif what == 4:      # the desk alone
        P["desk"] = True
        P["sheet_mm"] = (1.0, 1.0)
        P["c_in_sheet"] = (-500.0, -500.0)
        P["pen_object"] = rng.random() < 0.4
        P["cup_ring"] = rng.random() < 0.4
        P["block_object"] = rng.random() < 0.4
    elif what == 5:      # strong shadows on paper
        P["paper"] = random_paper_spec(rng)
        P["light"] = dict(grad=(0.1, 0.5), vignette=(0.1, 0.4), shadow=["hand", "phone"][rng.integers(2)],
                          shadow_depth=(0.35, 0.65))
    else:                # coloured / sticky paper filling the view
        P["paper"] = dict(type="plain", base=[c[1] for c in COLOUR_PAIRS][rng.integers(len(COLOUR_PAIRS))], grain=0.015)
    align_paper(rng, P)
    if rng.random() < 0.3 and what not in (5,):
        P["light"]["shadow"] = ["hand", "phone"][rng.integers(2)]
        P["light"]["shadow_depth"] = (0.2, 0.5)
    img, _ = shoot(rng, P)
    fmt = pick_format(rng)
    if rng.random() < 0.15:
        fmt = dict(fmt="jpg", quality=int(rng.integers(15, 45)))
    return finish(img), "none", fmt


def reject_picture(rng, ctx, content, hand):
    """Put a non-digit on the same papers, desks and boards as the digits (or in a drawing-app PNG)."""
    what = rng.integers(10)
    if hand and what == 9 and isinstance(content, Strokes):
        W, H = [(280, 280), (400, 400), (512, 512), (800, 600)][rng.integers(4)]
        gh = min(W, H) * rng.uniform(0.35, 0.7)
        r = max(1.0, gh * rng.uniform(0.02, 0.08))
        segs = transform_segs(content.segs, W / 2, H / 2, gh, rng.uniform(-5, 5), 0.0)
        cov = stroke_coverage(H, W, segs, r, rng, 0.05, ss=3)
        flat = [(255, 255, 255), (0, 0, 0)][rng.integers(2)]
        rgb = np.empty((H, W, 3), np.uint8); rgb[...] = flat
        return Image.fromarray(np.dstack([rgb, to_u8(cov)]), "RGBA"), dict(fmt="png")
    style = (["ballpoint", "ballpoint", "marker", "fineliner", "pencil"][rng.integers(5)]) if hand else "print"
    P = base_params(rng, content, style, size=(150, 1000), gh=(0.2, 0.5))
    if what in (0, 1, 2):
        P["paper"] = random_paper_spec(rng, ("plain", "ruled", "squared", "dotted"))
        align_paper(rng, P)
    elif what == 3:
        P["desk"] = True
        side = rng.uniform(60, 150)
        P["sheet_mm"] = (side, side * rng.uniform(0.7, 1.4))
        P["c_in_sheet"] = (rng.uniform(0.35, 0.65), rng.uniform(0.35, 0.65))
        P["glyph_mm"] = side * rng.uniform(0.2, 0.4)
        P["pen"] = choose_pen(rng, style, P["gh_out"] * P["u"])
        P["paper"] = dict(type="plain", base=STICKY[rng.integers(len(STICKY))], grain=0.01)
        P["pen_object"] = rng.random() < 0.5
        P["rot"] = rng.uniform(-25, 25)
        P["gh_out"] *= 0.6
    elif what == 4 and hand:
        P["paper"] = dict(type="blackboard", base=(0.13, 0.2, 0.16), grain=0.03)
        P["pen"] = dict(kind="chalk", r=P["gh_out"] * P["u"] * 0.045, color=(0.93, 0.93, 0.9), density=0.85,
                        mode="cover", pressure=0.25)
    elif what == 5:
        P["paper"] = dict(type="plain", base=(0.94, 0.95, 0.96), grain=0.004)
        P["glare"] = rng.uniform(0.2, 0.5)
    elif what == 6:
        ink, base = COLOUR_PAIRS[rng.integers(len(COLOUR_PAIRS))]
        P["paper"] = dict(type="plain", base=base, grain=0.012)
        P["pen"]["color"] = ink
    elif what == 7:
        P["light"] = dict(grad=(0.1, 0.4), shadow=["hand", "phone"][rng.integers(2)], shadow_depth=(0.3, 0.55),
                          shadow_target=(P["c_out"][0], P["c_out"][1], P["gh_out"] * 0.6))
    elif what == 8:
        P["size"] = pick_size(rng, 40, 200)
        W, H = P["size"]
        P["gh_out"] = min(W, H) * rng.uniform(0.5, 0.75)
        P["c_out"] = (W / 2, H / 2)
        P["pen"] = choose_pen(rng, style, P["gh_out"] * P["u"])
        if hand:
            P["pen"]["r"] = max(P["pen"]["r"], 0.9)
        img, _ = shoot(rng, P)
        return finish(img), dict(fmt="jpg", quality=int(rng.integers(15, 60)))
    img, _ = shoot(rng, P)
    return finish(img), pick_format(rng)


def handwriting_font(rng, ctx):
    fonts = [f for f in ctx["fonts"] if not font_is_bold(f) and "mono" not in os.path.basename(f).lower()]
    return fonts[rng.integers(len(fonts))]


def kind_letter(rng, ctx, d):
    ch = LETTERS[rng.integers(len(LETTERS))]
    hand = rng.random() < 0.6
    content = None
    if hand:
        content = font_strokes(rng, handwriting_font(rng, ctx), ch, 0.05)
    if content is None:
        hand = False
        content = printed_glyph(print_font(rng, ctx), ch)
    im, fmt = reject_picture(rng, ctx, content, hand)
    return im, "reject", fmt


def digits_group(rng, ctx, n, hand):
    ds = [int(rng.integers(10)) for _ in range(n)]
    if hand:
        parts = [hand_digit(rng, ctx, x) for x in ds]
        bounds = [p.bounds() for p in parts]
        widths = [max(0.3, b[2] - b[0]) for b in bounds]
        gap = rng.uniform(0.12, 0.3)
        total = sum(widths) + gap * (n - 1)
        x = -total / 2
        out = []
        for p, b, wd in zip(parts, bounds, widths):
            cx = x + wd / 2 - (b[0] + b[2]) / 2
            out.append((p, cx, rng.uniform(-0.05, 0.05), 1.0))
            x += wd + gap
        return Group(out)
    return printed_glyph(print_font(rng, ctx), "".join(str(x) for x in ds))


def kind_symbol(rng, ctx, d):
    if rng.random() < 0.38:
        hand = rng.random() < 0.65
        content = digits_group(rng, ctx, int(rng.integers(2, 4)), hand)
        im, fmt = reject_picture(rng, ctx, content, hand)
        return im, "reject", fmt
    ch = SYMBOLS[rng.integers(len(SYMBOLS))]
    hand = rng.random() < 0.6
    content = font_strokes(rng, handwriting_font(rng, ctx), ch, 0.04) if hand else None
    if content is None:
        hand = False
        content = printed_glyph(print_font(rng, ctx), ch)
    im, fmt = reject_picture(rng, ctx, content, hand)
    return im, "reject", fmt


def polyline_segs(pts):
    pts = np.asarray(pts, float)
    return np.c_[pts[:-1], pts[1:]]


def catmull(rng, ctrl, n=20):
    ctrl = np.asarray(ctrl, float)
    P = np.vstack([ctrl[0], ctrl, ctrl[-1]])
    out = []
    for i in range(1, len(P) - 2):
        p0, p1, p2, p3 = P[i - 1], P[i], P[i + 1], P[i + 2]
        for t in np.linspace(0, 1, n, endpoint=False):
            t2, t3 = t * t, t * t * t
            out.append(0.5 * ((2 * p1) + (-p0 + p2) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t2 + (-p0 + 3 * p1 - 3 * p2 + p3) * t3))
    out.append(P[-2])
    return np.asarray(out)


def scribble_content(rng):
    what = rng.integers(8)
    segs = []
    if what == 0:       # random looping scribble
        n = int(rng.integers(12, 22))
        ctrl = rng.uniform(-0.5, 0.5, (n, 2)) * [rng.uniform(0.8, 1.6), 1.0]
        segs.append(polyline_segs(catmull(rng, ctrl, 12)))
    elif what == 1:     # hatching / cross-hatching
        for k in range(1 if rng.random() < 0.5 else 2):
            a = rng.uniform(0, math.pi)
            n = int(rng.integers(6, 14))
            for i in range(n):
                o = (i / (n - 1) - 0.5)
                half = 0.5 * rng.uniform(0.7, 1.0)
                dx, dy = math.cos(a), math.sin(a)
                px, py = -dy * o, dx * o
                segs.append(polyline_segs([(px - dx * half, py - dy * half), (px + dx * half, py + dy * half)]))
    elif what == 2:     # spiral
        turns = rng.uniform(2.8, 4.5)
        th = np.linspace(0, turns * 2 * math.pi, int(turns * 60))
        r = 0.03 + 0.47 * th / th.max()
        sgn = 1 if rng.random() < 0.5 else -1
        segs.append(polyline_segs(np.c_[r * np.cos(sgn * th), r * np.sin(sgn * th)]))
    elif what == 3:     # checker pattern, drawn as a filled mask
        n = int(rng.integers(3, 7))
        cell = 24
        m = np.indices((n * cell, n * cell)).sum(0) * 0
        yy, xx = np.indices((n * cell, n * cell)) // cell
        m = ((yy + xx) % 2 == 0).astype(np.float32)
        return Filled(m, n * cell)
    elif what == 4:     # smiley
        th = np.linspace(0, 2 * math.pi, 80)
        segs.append(polyline_segs(np.c_[0.5 * np.cos(th), 0.5 * np.sin(th)]))
        for ex in (-0.18, 0.18):
            segs.append(polyline_segs(np.c_[ex + 0.04 * np.cos(th), -0.15 + 0.05 * np.sin(th)]))
        ta = np.linspace(0.2 * math.pi, 0.8 * math.pi, 30)
        segs.append(polyline_segs(np.c_[0.3 * np.cos(ta), 0.02 + 0.25 * np.sin(ta)]))
    elif what == 5:     # star
        k = 2 if rng.random() < 0.6 else 1
        pts = []
        if k == 2:
            for i in range(6):
                a = -math.pi / 2 + i * 4 * math.pi / 5
                pts.append((0.5 * math.cos(a), 0.5 * math.sin(a)))
        else:
            for i in range(11):
                a = -math.pi / 2 + i * math.pi / 5
                r = 0.5 if i % 2 == 0 else 0.2
                pts.append((r * math.cos(a), r * math.sin(a)))
        segs.append(polyline_segs(pts))
    elif what == 6:     # crossed-out: a zigzag scratched over a wavy line, and strike lines
        n = int(rng.integers(14, 26))
        xs = np.linspace(-0.7, 0.7, n)
        ys = np.where(np.arange(n) % 2 == 0, -0.35, 0.35) + rng.uniform(-0.08, 0.08, n)
        segs.append(polyline_segs(np.c_[xs, ys]))
        for _ in range(int(rng.integers(1, 3))):
            y = rng.uniform(-0.2, 0.2)
            segs.append(polyline_segs([(-0.75, y + rng.uniform(-0.1, 0.1)), (0.75, y + rng.uniform(-0.1, 0.1))]))
        th = np.linspace(0, 1, 60)
        segs.append(polyline_segs(np.c_[-0.6 + 1.2 * th, 0.12 * np.sin(th * 25)]))
    else:               # a big X over a box, a cloud of loops (cursive "eeee")
        th = np.linspace(0, 5 * 2 * math.pi, 300)
        x = -0.7 + 1.4 * th / th.max() + 0.15 * np.cos(th)
        y = 0.2 * np.sin(th)
        segs.append(polyline_segs(np.c_[x, y]))
        segs.append(polyline_segs([(-0.75, -0.35), (0.75, 0.35)]))
    s = np.concatenate(segs, 0)
    x0, y0, x1, y1 = Strokes(s).bounds()
    s = s - [(x0 + x1) / 2, (y0 + y1) / 2] * 2
    return Strokes(s / max(1e-6, (y1 - y0)) if (y1 - y0) > 0.3 * (x1 - x0) else s / max(1e-6, (x1 - x0)) * 1.0)


def kind_scribble(rng, ctx, d):
    content = scribble_content(rng)
    if isinstance(content, Strokes):
        content = Strokes(smooth_warp(rng, content.segs, 0.03))
        im, fmt = reject_picture(rng, ctx, content, True)
    else:
        im, fmt = reject_picture(rng, ctx, content, False)
    return im, "reject", fmt


KIND_FUNCS = dict(shadow=kind_shadow, desk=kind_desk, tight=kind_tight, thin=kind_thin, pencil=kind_pencil,
                  rotated=kind_rotated, colour=kind_colour, jpeg=kind_jpeg, ruled=kind_ruled,
                  squared=kind_squared, transparent=kind_transparent, meter=kind_meter, printed=kind_printed,
                  blank=kind_blank, letter=kind_letter, symbol=kind_symbol, scribble=kind_scribble)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--per-kind", type=int, default=40)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    for k in kinds:
        if k not in KIND_FUNCS:
            raise SystemExit("unknown kind %r (kinds: %s)" % (k, ",".join(KINDS)))
    os.makedirs(args.out, exist_ok=True)
    ctx = dict(mnist=Mnist(), fonts=find_fonts())
    rows = []
    t0 = time.time()
    for k in kinds:
        ki = KINDS.index(k)
        tk = time.time()
        for i in range(args.per_kind):
            # the seed rule: item i of kind k depends on (seed, kind's index, i) only
            d = int(np.random.default_rng([args.seed, ki, 1000003, i // 10]).permutation(10)[i % 10])
            rng = np.random.default_rng([args.seed, ki, i])
            im, expect, fmt = KIND_FUNCS[k](rng, ctx, d)
            base = os.path.join(args.out, "%s_%03d" % (k, i))
            path = save_picture(im, base, fmt["fmt"], fmt.get("quality", 90), fmt.get("orientation", 1))
            rows.append((os.path.basename(path), k, expect))
        if not args.quiet:
            print("%-12s %3d pictures  %.1f s" % (k, args.per_kind, time.time() - tk), file=sys.stderr)
    with open(os.path.join(args.out, "labels.tsv"), "w") as f:
        f.write("file\tkind\texpect\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    if not args.quiet:
        print("%d pictures in %.1f s -> %s" % (len(rows), time.time() - t0, args.out), file=sys.stderr)


if __name__ == "__main__":
    main()
