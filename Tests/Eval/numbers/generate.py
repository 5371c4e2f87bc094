#!/usr/bin/python3
# -*- coding: utf-8 -*-
"""Independent evaluation-set generator: whole numbers written or printed in pictures.

    /usr/bin/python3 Tests/Eval/numbers/generate.py --out DIR --seed N \
        [--per-kind K] [--kinds a,b,...] [--quiet]

Writes DIR/<kind>_<i>.png (or .jpg for the `photo` kind) and DIR/numbers.tsv
(`file  kind  condition  text`).  Every picture i of kind k is drawn from its own
numpy.random.default_rng(SeedSequence([seed, k, i])), where k is the index of the
kind in KINDS, so a picture does not depend on --kinds / --per-kind.

Written from the brief only (see README.md): it does not use, and was written
without reading, the reader's code, its models or its training generator.
Needs only numpy, scipy and Pillow.
"""

import os
# one BLAS thread: the nearest-neighbour look-ups are small, and CPU time stays honest
for _v in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")

import argparse
import glob
import gzip
import math
import struct
import subprocess
import sys
import time

import numpy as np
from scipy import ndimage
from PIL import Image, ImageDraw, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
MNIST_DIR = os.path.normpath(os.path.join(HERE, "..", "..", "Fixtures", "mnist"))

KINDS = ["plain", "ruled", "squared", "dotted", "sticky", "shadow", "desk",
         "pencil", "printed", "photo", "whiteboard", "decimal_negative"]

MAX_W, MAX_H = 900, 500
MIN_W, MIN_H = 120, 60


# ----------------------------------------------------------------------------
# small helpers
# ----------------------------------------------------------------------------

def lowfreq(rng, H, W, cells):
    """Smooth noise in [-1, 1] with about `cells` bumps along the longer side."""
    H = max(int(H), 1)
    W = max(int(W), 1)
    if H >= W:
        cy, cx = cells, max(2, int(round(cells * W / H)))
    else:
        cx, cy = cells, max(2, int(round(cells * H / W)))
    g = rng.standard_normal((cy + 2, cx + 2)).astype(np.float32)
    a = np.asarray(Image.fromarray(g, "F").resize((W, H), Image.BICUBIC), dtype=np.float64)
    m = np.abs(a).max()
    return a / m if m > 0 else a


def fine_noise(rng, H, W, sigma):
    z = rng.standard_normal((H, W))
    if sigma > 0:
        z = ndimage.gaussian_filter(z, sigma)
    s = z.std()
    return z / s if s > 0 else z


def crop_nonzero(a, thr):
    ys, xs = np.nonzero(a > thr)
    if len(ys) == 0:
        return a[:1, :1] * 0, 0, 0
    return a[ys.min():ys.max() + 1, xs.min():xs.max() + 1], ys.min(), xs.min()


def jitter_rgb(rng, rgb, amount=0.04):
    c = np.asarray(rgb, dtype=np.float64) * (1.0 + rng.uniform(-amount, amount, 3))
    return np.clip(c, 0.0, 1.0)


def pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def smoothstep(x):
    x = np.clip(x, 0.0, 1.0)
    return x * x * (3.0 - 2.0 * x)


def to_uint8(img):
    return (np.clip(img, 0.0, 1.0) * 255.0 + 0.5).astype(np.uint8)


# ----------------------------------------------------------------------------
# sources: MNIST test split, TrueType fonts
# ----------------------------------------------------------------------------

def read_idx(path, magic):
    with gzip.open(path, "rb") as f:
        data = f.read()
    m, n = struct.unpack(">II", data[:8])
    if m != magic:
        raise ValueError("%s: magic %d, expected %d" % (path, m, magic))
    if magic == 2051:
        rows, cols = struct.unpack(">II", data[8:16])
        arr = np.frombuffer(data, dtype=np.uint8, offset=16)
        return arr.reshape(n, rows, cols)
    return np.frombuffer(data, dtype=np.uint8, offset=8)[:n]


class Mnist:
    """MNIST test split with a 'would a person hesitate?' filter."""

    def __init__(self, directory):
        self.images = read_idx(os.path.join(directory, "t10k-images-idx3-ubyte.gz"), 2051)
        self.labels = read_idx(os.path.join(directory, "t10k-labels-idx1-ubyte.gz"), 2049)
        if len(self.images) != len(self.labels):
            raise ValueError("MNIST image / label count mismatch")
        # float64 holds these integer sums exactly (< 2**53): exact, BLAS-fast
        self.flat = self.images.reshape(len(self.images), -1).astype(np.float64)
        self.sq = (self.flat * self.flat).sum(axis=1)
        self.by_label = [np.flatnonzero(self.labels == d) for d in range(10)]
        self.cache = {}

    def good(self, idx):
        if idx in self.cache:
            return self.cache[idx]
        a = self.images[idx].astype(np.float64) / 255.0
        mask = a > 0.25
        ok = mask.sum() >= 30 and a.max() > 0.8
        if ok:
            # broken digits: the largest 8-connected piece must hold >= 85 % of the ink
            lab, n = ndimage.label(mask, structure=np.ones((3, 3)))
            mass = ndimage.sum(a, lab, index=np.arange(1, n + 1))
            ok = mass.max() >= 0.85 * mass.sum()
        if ok:
            c = crop_nonzero(a, 0.08)[0]
            # squat 4s, 7s, 9s ... read as other shapes (a 4 like a u); only 0, 2,
            # 3 and 5 are commonly written somewhat wider than tall
            squat = c.shape[0] / c.shape[1]
            if squat < (0.75 if self.labels[idx] in (0, 2, 3, 5) else 0.85):
                ok = False
            # Very fat digits (mean stroke wider than 1/4 of the height; 1s are
            # exempt) and digits with filled-in blobs (ink more than twice as
            # deep as the typical stroke): re-inked with a thin pen they lose a
            # loop (6 -> C, 9 -> 7) or turn into a scribble.
            z = ndimage.zoom(np.pad(c, 2), 3, order=1) > 0.4
            skel = thin(z)
            if self.labels[idx] != 1:
                ok = ok and z.sum() / max(int(skel.sum()), 1) <= 0.25 * z.shape[0]
            din = ndimage.distance_transform_edt(z)
            t = np.median(din[skel]) if skel.any() else 1.0
            ok = ok and (din > 2.0 * t).sum() <= 0.004 * z.sum()
        if ok:
            # odd-looking digits: its label must hold >= 7 of the votes of its 10
            # nearest neighbours inside the test split itself
            votes = self.votes(self.flat[idx], idx)
            lbl = self.labels[idx]
            ok = votes[lbl] >= 7
        self.cache[idx] = bool(ok)
        return bool(ok)

    def votes(self, vec, exclude):
        vec = np.asarray(vec, dtype=np.float64)
        d = self.sq + (vec * vec).sum() - 2.0 * (self.flat @ vec)
        d[exclude] = np.inf
        nn = np.argpartition(d, 10)[:10]
        return np.bincount(self.labels[nn], minlength=10)

    def reads_as(self, cov, digit, exclude):
        """Does coverage `cov` (any size), normalised the MNIST way (20 px box,
        centre of mass in the middle of 28x28), get >= 7 of 10 nearest-neighbour
        votes for `digit`?"""
        c = crop_nonzero(cov, 0.05)[0]
        s = 20.0 / max(c.shape)
        nh, nw = max(1, int(round(c.shape[0] * s))), max(1, int(round(c.shape[1] * s)))
        g = Image.fromarray(c.astype(np.float32), "F").resize((nw, nh), Image.BILINEAR)
        g = np.clip(np.asarray(g, dtype=np.float64), 0.0, 1.0)
        if g.sum() <= 0:
            return False
        cy, cx = ndimage.center_of_mass(g)
        y0 = int(np.clip(round(14 - cy), 0, 28 - nh))
        x0 = int(np.clip(round(14 - cx), 0, 28 - nw))
        out = np.zeros((28, 28))
        out[y0:y0 + nh, x0:x0 + nw] = g
        votes = self.votes(np.round(out * 255).ravel(), exclude)
        return votes[digit] >= 7

    def pick(self, rng, digit):
        pool = self.by_label[digit]
        for _ in range(200):
            idx = int(pool[rng.integers(len(pool))])
            if self.good(idx):
                return idx
        raise RuntimeError("no acceptable MNIST sample for %d" % digit)


FONT_FAMILIES = ("dejavu", "liberation", "freesans", "freeserif", "freemono", "texgyre")


def find_fonts():
    files = []
    try:
        out = subprocess.run(["fc-list", "--format", "%{file}\n"], capture_output=True,
                             text=True, timeout=30).stdout
        files = [l.strip() for l in out.splitlines() if l.strip()]
    except (OSError, subprocess.SubprocessError):
        files = []
    if not files:
        for pat in ("/usr/share/fonts/**/*.ttf", "/usr/share/fonts/**/*.otf",
                    "/usr/share/texmf/fonts/opentype/**/*.otf"):
            files += glob.glob(pat, recursive=True)
    keep = []
    for f in sorted(set(files)):
        base = os.path.basename(f).lower().replace("-", "").replace("_", "")
        if not base.endswith((".ttf", ".otf")):
            continue
        if not any(base.startswith(fam) for fam in FONT_FAMILIES):
            continue
        if "math" in base or "extralight" in base:
            continue
        try:
            font = ImageFont.truetype(f, 40)
            boxes = [font.getbbox(ch, anchor="ls") for ch in "0123456789.-"]
        except Exception:
            continue
        if any(b[2] - b[0] <= 0 or b[3] - b[1] <= 0 for b in boxes):
            continue
        keep.append(f)
    return keep


class Resources:
    def __init__(self):
        self._mnist = None
        self._fonts = None

    @property
    def mnist(self):
        if self._mnist is None:
            self._mnist = Mnist(MNIST_DIR)
        return self._mnist

    @property
    def fonts(self):
        if self._fonts is None:
            self._fonts = find_fonts()
            if not self._fonts:
                raise RuntimeError("no usable TrueType fonts found with fc-list")
        return self._fonts


# ----------------------------------------------------------------------------
# number content
# ----------------------------------------------------------------------------

def digit_string(rng, n, lead_nonzero=True):
    first = int(rng.integers(1, 10)) if lead_nonzero else int(rng.integers(0, 10))
    return str(first) + "".join(str(int(rng.integers(0, 10))) for _ in range(n - 1))


def gen_int(rng):
    n = int(rng.choice(np.arange(1, 9), p=[.04, .18, .22, .22, .15, .10, .05, .04]))
    if n == 1:
        return str(int(rng.integers(0, 10)))
    if rng.random() < 0.08:                      # leading zeros, e.g. 007
        z = int(rng.integers(1, min(2, n - 1) + 1))
        return "0" * z + digit_string(rng, n - z)
    return digit_string(rng, n)


def gen_decneg(rng):
    form = pick(rng, ["neg", "dec", "dec", "negdec"])
    for _ in range(50):
        if form == "neg":
            s = "-" + digit_string(rng, int(rng.integers(1, 5)))
        else:
            ni = int(rng.choice([0, 1, 2, 3], p=[.3, .35, .25, .1]))
            ip = "0" if ni == 0 else digit_string(rng, ni)
            nf = int(rng.choice([1, 2, 3], p=[.35, .5, .15]))
            fp = digit_string(rng, nf, lead_nonzero=False)
            if ip == "0" and int(fp) == 0:
                continue
            s = ("-" if form == "negdec" else "") + ip + "." + fp
        if len(s) <= 8:
            return s
    return "-12"


def gen_mixed(rng):
    """Mostly integers; sometimes a price (2 decimals) or a negative number."""
    r = rng.random()
    if r < 0.6:
        return gen_int(rng)
    if r < 0.8:
        ni = int(rng.integers(1, 5))
        return digit_string(rng, ni) + "." + digit_string(rng, 2, lead_nonzero=False)
    return gen_decneg(rng)


# ----------------------------------------------------------------------------
# pens and glyphs
# ----------------------------------------------------------------------------

BLACK = ("black", (0.10, 0.10, 0.12))
PENS = {
    # width: full stroke width as a fraction of the digit height; minw in px
    "ballpoint": dict(width=(0.035, 0.06), minw=1.5, opacity=(0.80, 0.95), pressure=(0.10, 0.30),
                      wvar=0.15, grain=None,
                      colors=[("blue", (0.13, 0.20, 0.58)), ("blue", (0.10, 0.14, 0.45)),
                              ("black", (0.13, 0.13, 0.16))]),
    "gel": dict(width=(0.05, 0.08), minw=1.8, opacity=(0.90, 1.0), pressure=(0.0, 0.10),
                wvar=0.08, grain=None,
                colors=[("black", (0.07, 0.07, 0.09)), ("blue", (0.10, 0.15, 0.55)),
                        ("navy", (0.08, 0.10, 0.32)), ("green", (0.08, 0.35, 0.20))]),
    "felt": dict(width=(0.07, 0.11), minw=2.2, opacity=(0.85, 0.97), pressure=(0.05, 0.15),
                 wvar=0.10, grain=None,
                 colors=[BLACK, ("blue", (0.12, 0.20, 0.60)), ("red", (0.65, 0.10, 0.12)),
                         ("green", (0.10, 0.42, 0.22)), ("purple", (0.35, 0.12, 0.45))]),
    "marker": dict(width=(0.11, 0.17), minw=3.0, opacity=(0.90, 1.0), pressure=(0.0, 0.12),
                   wvar=0.06, grain=None,
                   colors=[("black", (0.06, 0.06, 0.07)), ("blue", (0.10, 0.18, 0.55)),
                           ("red", (0.70, 0.08, 0.10)), ("green", (0.08, 0.40, 0.20))]),
    "pencil": dict(width=(0.04, 0.07), minw=1.7, opacity=(0.70, 0.90), pressure=(0.10, 0.25),
                   wvar=0.15, grain=(0.35, 0.55),
                   colors=[("graphite", (0.30, 0.30, 0.33)), ("graphite", (0.22, 0.22, 0.25))]),
    "wbmarker": dict(width=(0.09, 0.14), minw=2.6, opacity=(0.85, 1.0), pressure=(0.05, 0.25),
                     wvar=0.08, grain=(0.05, 0.15),
                     colors=[("black", (0.12, 0.12, 0.14)), ("blue", (0.12, 0.22, 0.62)),
                             ("red", (0.72, 0.14, 0.14)), ("green", (0.10, 0.45, 0.25))]),
    "chalk": dict(width=(0.08, 0.13), minw=2.6, opacity=(0.80, 0.95), pressure=(0.10, 0.25),
                  wvar=0.12, grain=(0.45, 0.65), mode="over",
                  colors=[("white", (0.93, 0.93, 0.90)), ("white", (0.97, 0.97, 0.95)),
                          ("yellow", (0.96, 0.90, 0.55)), ("pink", (0.96, 0.76, 0.80))]),
}


def make_pen(rng, ptype, h, exclude=()):
    P = PENS[ptype]
    colors = [c for c in P["colors"] if c[0] not in exclude]
    name, rgb = pick(rng, colors)
    return dict(type=ptype, name=name, color=jitter_rgb(rng, rgb, 0.05),
                width=max(P["minw"], rng.uniform(*P["width"]) * h),
                opacity=rng.uniform(*P["opacity"]), pressure=rng.uniform(*P["pressure"]),
                wvar=P["wvar"], grain=rng.uniform(*P["grain"]) if P["grain"] else 0.0,
                mode=P.get("mode", "multiply"))


def thin(mask):
    """Zhang-Suen thinning (vectorised)."""
    img = np.pad(mask.astype(np.uint8), 1)
    while True:
        changed = False
        for step in (0, 1):
            P = img
            p2, p3, p4 = P[:-2, 1:-1], P[:-2, 2:], P[1:-1, 2:]
            p5, p6, p7 = P[2:, 2:], P[2:, 1:-1], P[2:, :-2]
            p8, p9 = P[1:-1, :-2], P[:-2, :-2]
            B = (p2.astype(np.int16) + p3 + p4 + p5 + p6 + p7 + p8 + p9)
            seq = (p2, p3, p4, p5, p6, p7, p8, p9, p2)
            A = np.zeros_like(B)
            for k in range(8):
                A += (seq[k] == 0) & (seq[k + 1] == 1)
            if step == 0:
                c = ((p2 & p4 & p6) == 0) & ((p4 & p6 & p8) == 0)
            else:
                c = ((p2 & p4 & p8) == 0) & ((p2 & p6 & p8) == 0)
            rem = (P[1:-1, 1:-1] == 1) & (B >= 2) & (B <= 6) & (A == 1) & c
            if rem.any():
                img[1:-1, 1:-1][rem] = 0
                changed = True
        if not changed:
            break
    return img[1:-1, 1:-1].astype(bool)


def endpoints(x):
    """Skeleton pixels whose neighbours form one short arc (1 to 3 pixels)."""
    P = np.pad(x.astype(np.uint8), 1)
    ring = [P[:-2, 1:-1], P[:-2, 2:], P[1:-1, 2:], P[2:, 2:],
            P[2:, 1:-1], P[2:, :-2], P[1:-1, :-2], P[:-2, :-2]]
    B = sum(r.astype(np.int16) for r in ring)
    A = sum(((ring[k] == 0) & (ring[(k + 1) % 8] == 1)).astype(np.int16) for k in range(8))
    return x & (A == 1) & (B <= 3)


def prune(skel, k):
    """Remove skeleton spurs shorter than about k px (thinning artefacts)."""
    if k <= 0:
        return skel
    x = skel.copy()
    for _ in range(k):
        ends = endpoints(x)
        if not ends.any():
            break
        x &= ~ends
    # grow the surviving branch tips back along the original skeleton
    grow = ndimage.binary_dilation(endpoints(x), structure=np.ones((3, 3), bool),
                                   iterations=k, mask=skel)
    return x | grow


def extend_ends(skel, din, half, back):
    """Thinning stops a stroke about one half-width short of the writer's stroke
    end; walk each skeleton end on in its direction while a nib of half-width
    `half` still fits inside the writer's ink (din = depth inside the ink)."""
    sk = skel.copy()
    H, W = skel.shape
    for y, x in np.argwhere(endpoints(skel)):
        path = [(int(y), int(x))]
        cy, cx = path[0]
        for _ in range(back):
            nb = [(cy + dy, cx + dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                  if (dy or dx) and 0 <= cy + dy < H and 0 <= cx + dx < W
                  and skel[cy + dy, cx + dx] and (cy + dy, cx + dx) not in path]
            if len(nb) > 1:                       # prefer the 4-connected step
                nb4 = [p for p in nb if p[0] == cy or p[1] == cx]
                nb = nb4 if len(nb4) == 1 else nb
            if len(nb) != 1:
                break
            cy, cx = nb[0]
            path.append(nb[0])
        if len(path) < 3:
            continue
        dy, dx = y - path[-1][0], x - path[-1][1]
        norm = math.hypot(dy, dx)
        dy, dx = dy / norm, dx / norm
        for step in range(1, 4 * back):
            py, px = int(round(y + dy * step)), int(round(x + dx * step))
            if not (0 <= py < H and 0 <= px < W) or din[py, px] < max(half, 1.0):
                break
            sk[py, px] = True
    return sk


def skeleton_cover(skel, half, ss, rng, wvar):
    """Coverage (supersampled) of a round nib of half-width `half` run along `skel`,
    padded so that its size is a multiple of ss."""
    pad = int(math.ceil(half * (1 + wvar))) + 2
    skel = np.pad(skel, pad)
    H, W = skel.shape
    H2, W2 = -(-H // ss) * ss, -(-W // ss) * ss
    skel = np.pad(skel, ((0, H2 - H), (0, W2 - W)))
    d = ndimage.distance_transform_edt(~skel)
    wf = half
    if wvar > 0:
        wf = half * (1.0 + wvar * lowfreq(rng, H2, W2, 3))
    return np.clip(wf - d + 0.5, 0.0, 1.0), pad


def downsample(cov, ss):
    H2, W2 = cov.shape
    if ss > 1:
        cov = cov.reshape(H2 // ss, ss, W2 // ss, ss).mean(axis=(1, 3))
    return crop_nonzero(cov, 0.02)[0]


def ink_from_skeleton(skel, half, ss, rng, wvar):
    return downsample(skeleton_cover(skel, half, ss, rng, wvar)[0], ss)


def supersample(h):
    return int(np.clip(math.ceil(90.0 / h), 1, 4))


def shear_to(a, target):
    """Shear image `a` horizontally so that its principal slant (dx per dy, from
    the second moments) becomes `target`.  Done after the zoom, so that small
    loops do not close up."""
    m = a.sum()
    yy, xx = np.mgrid[0:a.shape[0], 0:a.shape[1]]
    cy, cx = (yy * a).sum() / m, (xx * a).sum() / m
    mu11 = ((yy - cy) * (xx - cx) * a).sum() / m
    mu02 = ((yy - cy) ** 2 * a).sum() / m
    k = float(np.clip(mu11 / mu02, -0.8, 0.8)) - target
    out = ndimage.affine_transform(a, np.array([[1.0, 0.0], [k, 1.0]]),
                                   offset=(0.0, -k * cy), order=1)
    return np.clip(out, 0.0, 1.0)


def count_holes(ink, min_area):
    """Background regions enclosed by ink, of at least min_area pixels."""
    lab, n = ndimage.label(np.pad(~ink, 1))
    if n <= 1:
        return 0
    sizes = np.bincount(lab.ravel(), minlength=n + 1)[1:]
    outer = lab[0, 0]
    return int(sum(1 for k in range(1, n + 1) if k != outer and sizes[k - 1] >= max(min_area, 1)))


def mnist_glyph(mn, digit, h, pen, rng, slant=0.0):
    ss = supersample(h)
    half = pen["width"] * ss / 2.0
    for attempt in range(10):
        idx = mn.pick(rng, digit)
        a = mn.images[idx].astype(np.float64) / 255.0
        rows = np.flatnonzero((a > 0.08).any(axis=1))
        a = a[rows[0]:rows[-1] + 1]
        f = h * ss / a.shape[0]
        shear = -(slant + rng.uniform(-0.05, 0.05))
        thr = rng.uniform(0.45, 0.55)
        for _ in range(2):      # second pass: make the visible ink exactly h tall
            z = np.clip(ndimage.zoom(np.pad(a, ((2, 2), (12, 12))), f, order=3), 0.0, 1.0)
            z = shear_to(z, shear)
            mask = z > thr
            lab, n = ndimage.label(mask, structure=np.ones((3, 3)))
            if n > 1:                           # drop specks, keep real pieces
                sizes = ndimage.sum(mask, lab, index=np.arange(1, n + 1))
                mask = np.isin(lab, 1 + np.flatnonzero(sizes >= 0.08 * sizes.sum()))
            mask = crop_nonzero(mask, 0)[0]
            if abs(mask.shape[0] - h * ss) <= 0.04 * h * ss:
                break
            f *= h * ss / mask.shape[0]
        skel = thin(mask)
        din = ndimage.distance_transform_edt(mask)
        t = float(np.median(din[skel])) if skel.any() else 1.0   # writer's half-width
        # prune thinning spurs, but never a real stroke end (the tail of a 4):
        # every ink pixel must stay within reach of the pruned skeleton
        for k in (1.6 * t, 0.8 * t, 0.0):
            pr = prune(skel, int(round(k)))
            if k == 0.0 or (ndimage.distance_transform_edt(~pr)[mask] > 1.8 * t + 1.0).mean() < 0.005:
                break
        skel = extend_ends(pr, din, half, max(3, int(round(t))))
        # re-ink the skeleton with the pen's nib
        cov, _ = skeleton_cover(skel, half, ss, rng, pen["wvar"])
        # The re-inked shape must still be the writer's digit (a loop the writer
        # filled in becomes a line: a 6 can turn into an L).  Draw the skeleton
        # with the writer's own stroke width: it must cover most of the
        # writer's ink, and the digit's nearest neighbours in the MNIST test
        # split (without the digit itself) must still vote for it.
        # Every loop must also stay plainly open with this pen (a broad nib
        # fills a tiny loop and a 6 turns into a blot, a 9 into a 1).
        check = np.clip(t - ndimage.distance_transform_edt(~skel) + 0.5, 0.0, 1.0)
        min_hole = max(2.0 * half, 0.12 * h * ss) ** 2
        if (cov.any() and (check > 0.5).sum() >= 0.85 * mask.sum()
                and count_holes(cov > 0.5, min_hole) >= count_holes(check > 0.5, 0)
                and mn.reads_as(check, digit, idx)):
            break
    return downsample(cov, ss), idx


def hand_minus(rng, h, pen):
    ss = supersample(h)
    L = rng.uniform(0.40, 0.60) * h * ss
    t = np.linspace(0.0, 1.0, int(L * 2) + 2)
    x = t * L
    y = rng.uniform(-0.08, 0.08) * x + rng.uniform(-0.05, 0.05) * L * 4 * t * (1 - t)
    y -= y.min()
    skel = np.zeros((int(math.ceil(y.max())) + 1, int(math.ceil(L)) + 1), bool)
    skel[np.round(y).astype(int), np.round(x).astype(int)] = True
    cov = ink_from_skeleton(skel, pen["width"] * ss / 2.0, ss, rng, pen["wvar"])
    centre = rng.uniform(0.42, 0.55) * h
    return cov, -centre - cov.shape[0] / 2.0


def hand_dot(rng, h, pen):
    ss = supersample(h)
    half = pen["width"] / 2.0
    R = max(1.4 * half, 0.07 * h, 1.5)
    rs = max(0.0, R - half) * ss
    n = 2 * int(math.ceil(rs)) + 1
    c = n // 2
    yy, xx = np.mgrid[0:n, 0:n]
    skel = (yy - c) ** 2 + (xx - c) ** 2 <= rs * rs
    skel[c, c] = True
    cov = ink_from_skeleton(skel, half * ss, ss, rng, 0.0)
    return cov, -cov.shape[0] - rng.uniform(0.0, 0.03) * h


class Layer:
    def __init__(self, cov, baseline, h):
        self.cov = cov
        self.baseline = baseline     # row of the baseline inside cov
        self.h = h

    @property
    def w(self):
        return self.cov.shape[1]

    @property
    def hgt(self):
        return self.cov.shape[0]


def compose(glyphs, gaps, h):
    xs, x = [], 0.0
    for i, (cov, _) in enumerate(glyphs):
        xs.append(int(round(x)))
        x += cov.shape[1] + (gaps[i] if i < len(gaps) else 0.0)
    tops = [int(round(t)) for _, t in glyphs]
    t0 = min(tops)
    b1 = max(t + g[0].shape[0] for t, g in zip(tops, glyphs))
    W = xs[-1] + glyphs[-1][0].shape[1]
    out = np.zeros((b1 - t0, W))
    for (cov, _), x0, t in zip(glyphs, xs, tops):
        sl = out[t - t0:t - t0 + cov.shape[0], x0:x0 + cov.shape[1]]
        np.maximum(sl, cov, out=sl)
    return Layer(out, -t0, h)


def handwritten_layer(rng, text, h, pen, mn):
    slant = rng.uniform(-0.08, 0.25)      # one writer, one slant (dx/dy, + leans right)
    glyphs = []
    for ch in text:
        if ch.isdigit():
            hj = h * (1.0 + rng.uniform(-0.10, 0.10))
            cov, _ = mnist_glyph(mn, int(ch), hj, pen, rng, slant)
            top = -cov.shape[0] + rng.uniform(-0.05, 0.05) * h
        elif ch == "-":
            cov, top = hand_minus(rng, h, pen)
        elif ch == ".":
            cov, top = hand_dot(rng, h, pen)
        else:
            raise ValueError(ch)
        glyphs.append((cov, top))
    base_gap = rng.uniform(0.15, 0.50)
    gaps = []
    for a, b in zip(text[:-1], text[1:]):
        if "." in (a, b) or a == "-":
            g = rng.uniform(0.15, 0.30)
        else:
            g = np.clip(base_gap * rng.uniform(0.8, 1.25), 0.15, 0.60)
        gaps.append(g * h)
    return compose(glyphs, gaps, h)


def printed_layer(rng, text, h, font_path):
    f100 = ImageFont.truetype(font_path, 100)
    l, t, r, b = f100.getbbox("0", anchor="ls")
    size = max(6, int(round(100.0 * h / (b - t))))
    font = ImageFont.truetype(font_path, size)
    glyphs = []
    for ch in text:
        l, t, r, b = font.getbbox(ch, anchor="ls")
        im = Image.new("L", (r - l + 8, b - t + 8), 0)
        ImageDraw.Draw(im).text((4 - l, 4 - t), ch, font=font, fill=255, anchor="ls")
        a = np.asarray(im, dtype=np.float64) / 255.0
        cov, y0, _ = crop_nonzero(a, 0.02)
        glyphs.append((cov, y0 - 4 + t))
    g = rng.uniform(0.15, 0.30)
    gaps = [g * h * rng.uniform(0.95, 1.05) for _ in text[:-1]]
    return compose(glyphs, gaps, h)


def choose_h(rng, text, photo):
    cap = min(80.0, (560.0 if photo else 760.0) / (1.45 * len(text)))
    cap = max(cap, 21.0)
    return float(np.exp(rng.uniform(np.log(20.0), np.log(cap))))


def build_layer(rng, text, photo, make):
    """make(h) -> Layer; shrinks h until the number fits the picture."""
    h = choose_h(rng, text, photo)
    limit = 620.0 if photo else None
    for _ in range(6):
        layer = make(h)
        lim = limit if limit else MAX_W - 0.8 * h
        if layer.w <= lim and layer.hgt <= MAX_H - 0.8 * h:
            return layer
        h = max(20.0, h * 0.92 * min(lim / layer.w, 1.0))
    return layer


def paint(img, layer, ox, oy, pen, rng):
    a = layer.cov * pen["opacity"]
    Hh, Ww = a.shape
    if pen["pressure"] > 0:
        a = a * (1.0 - pen["pressure"] * (0.5 + 0.5 * lowfreq(rng, Hh, Ww, max(3, Ww // 25))))
    if pen["grain"] > 0:
        z = fine_noise(rng, Hh, Ww, 0.6)
        a = a * np.clip(1.0 + 0.5 * pen["grain"] * (z - 1.0), 0.0, 1.0)
    reg = img[oy:oy + Hh, ox:ox + Ww]
    a = a[:reg.shape[0], :reg.shape[1], None]
    col = np.asarray(pen["color"])
    if pen["mode"] == "multiply":
        reg *= 1.0 - a * (1.0 - col)
    else:
        reg[:] = reg * (1.0 - a) + a * col


# ----------------------------------------------------------------------------
# surfaces
# ----------------------------------------------------------------------------

def white_paper(rng):
    b = rng.uniform(0.90, 1.0)
    warm = rng.uniform(0.0, 0.04)
    return np.array([b, b - 0.3 * warm, b - warm])


def paper_base(rng, H, W, color):
    img = np.empty((H, W, 3))
    img[:] = color
    tex = 1.0 + rng.uniform(0.004, 0.012) * fine_noise(rng, H, W, 0.7)
    tex += rng.uniform(0.005, 0.02) * lowfreq(rng, H, W, 5)
    img *= tex[..., None]
    return img


def make_surface(rng, stype, h):
    if stype == "ruled":
        s = dict(type="ruled", spacing=rng.uniform(1.0, 1.6) * h, thick=rng.uniform(1.0, 3.0),
                 offset=rng.uniform(-0.06, 0.04) * h)
        if rng.random() < 0.6:
            s["cname"], s["color"] = "blue", jitter_rgb(rng, pick(rng, [(0.55, 0.70, 0.93), (0.62, 0.76, 0.95), (0.48, 0.64, 0.90)]))
        else:
            s["cname"], s["color"] = "grey", jitter_rgb(rng, pick(rng, [(0.62, 0.62, 0.65), (0.70, 0.70, 0.72)]))
        if rng.random() < 0.35:
            s["margin"] = dict(gap=rng.uniform(0.35, 1.4) * h, thick=rng.uniform(1.0, 2.5),
                               color=jitter_rgb(rng, (0.93, 0.45, 0.47)), double=rng.random() < 0.3)
        return s
    if stype == "squared":
        cname, col = pick(rng, [("grey", (0.68, 0.70, 0.72)), ("blue", (0.62, 0.75, 0.93)),
                                ("green", (0.62, 0.84, 0.66))])
        return dict(type="squared", cell=rng.uniform(0.4, 0.8) * h, thick=rng.uniform(0.8, 1.4),
                    cname=cname, color=jitter_rgb(rng, col), major=rng.random() < 0.35,
                    offset=rng.uniform(-0.05, 0.05) * h, xoff=rng.uniform(0, 1))
    if stype == "dotted":
        g = rng.uniform(0.50, 0.72)
        return dict(type="dotted", spacing=rng.uniform(0.5, 1.0) * h,
                    radius=max(rng.uniform(0.6, 1.3), rng.uniform(0.015, 0.03) * h),
                    color=np.array([g, g, g + 0.03]), offset=rng.uniform(-0.05, 0.05) * h,
                    xoff=rng.uniform(0, 1))
    return dict(type="plain")


def surface_name(s):
    t = s["type"]
    if t == "ruled":
        return "ruled-%s%s" % (s["cname"], "+margin" if "margin" in s else "")
    if t == "squared":
        return "squared-%s%s" % (s["cname"], "+major" if s["major"] else "")
    return t


def line_profile(coords, centres, thick):
    cov = np.zeros(len(coords))
    for c in centres:
        np.maximum(cov, np.clip(thick / 2.0 + 0.5 - np.abs(coords - c), 0.0, 1.0), out=cov)
    return cov


def draw_surface(rng, img, s, base_y, x_left, h):
    """Print the paper's lines / grid / dots; base_y = baseline row, x_left = number's left."""
    H, W = img.shape[:2]
    rows = np.arange(H) + 0.5
    cols = np.arange(W) + 0.5
    t = s["type"]
    if t == "ruled":
        sp = s["spacing"]
        y0 = base_y + s["offset"]
        ks = np.arange(-int(y0 / sp) - 2, int((H - y0) / sp) + 3)
        cov = line_profile(rows, y0 + ks * sp, s["thick"])
        img *= (1.0 - cov[:, None, None] * (1.0 - s["color"]))
        m = s.get("margin")
        if m is not None and x_left - m["gap"] > 4:
            xs = [x_left - m["gap"]]
            if m["double"]:
                xs.append(xs[0] - m["thick"] - 3)
            cc = line_profile(cols, xs, m["thick"])
            img *= (1.0 - cc[None, :, None] * (1.0 - m["color"]))
    elif t == "squared":
        c = s["cell"]
        y0 = base_y + s["offset"]
        x0 = x_left + s["xoff"] * c
        ky = np.arange(-int(y0 / c) - 2, int((H - y0) / c) + 3)
        kx = np.arange(-int(x0 / c) - 2, int((W - x0) / c) + 3)
        ch = line_profile(rows, y0 + ky * c, s["thick"])
        cv = line_profile(cols, x0 + kx * c, s["thick"])
        if s["major"]:
            ch = np.maximum(ch, 0.6 * line_profile(rows, y0 + ky[ky % 5 == 0] * c, s["thick"] + 1.0))
            cv = np.maximum(cv, 0.6 * line_profile(cols, x0 + kx[kx % 5 == 0] * c, s["thick"] + 1.0))
        cov = np.maximum(ch[:, None], cv[None, :])
        img *= (1.0 - cov[..., None] * (1.0 - s["color"]))
    elif t == "dotted":
        sp = s["spacing"]
        y0 = base_y + s["offset"]
        x0 = x_left + s["xoff"] * sp
        dy = rows - y0
        dy = dy - sp * np.round(dy / sp)
        dx = cols - x0
        dx = dx - sp * np.round(dx / sp)
        d = np.sqrt(dy[:, None] ** 2 + dx[None, :] ** 2)
        cov = np.clip(s["radius"] + 0.5 - d, 0.0, 1.0)
        img *= (1.0 - cov[..., None] * (1.0 - s["color"]))


def lighting(rng, img, lo=0.03, hi=0.15):
    H, W = img.shape[:2]
    ang = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:H, 0:W]
    ramp = np.cos(ang) * xx / max(W, 1) + np.sin(ang) * yy / max(H, 1)
    ramp = (ramp - ramp.min()) / max(ramp.max() - ramp.min(), 1e-9)
    L = 1.0 - rng.uniform(lo, hi) * ramp + 0.015 * lowfreq(rng, H, W, 3)
    tint = jitter_rgb(rng, (1.0, 1.0, 1.0), 0.02)
    img *= L[..., None] * tint
    return img


def desk_texture(rng, H, W):
    kind = pick(rng, ["wood", "wood", "dark", "pattern"])
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    if kind == "wood":
        name, base = pick(rng, [("oak", (0.72, 0.55, 0.36)), ("walnut", (0.42, 0.27, 0.16)),
                                ("cherry", (0.60, 0.35, 0.22)), ("greywash", (0.62, 0.58, 0.52))])
        vertical = rng.random() < 0.5
        u, v = (yy, xx) if vertical else (xx, yy)      # u along the grain, v across
        period = rng.uniform(6.0, 22.0)
        warp = lowfreq(rng, H, W, 4) * period * rng.uniform(1.0, 3.0)
        rings = np.sin(2 * np.pi * (v + warp) / period)
        streak = rng.standard_normal((H, W))
        streak = ndimage.gaussian_filter(streak, (8.0, 0.6) if vertical else (0.6, 8.0))
        streak /= streak.std() + 1e-9
        val = 1.0 + 0.10 * rings + 0.05 * streak
        plank = rng.uniform(120, 260)
        pid = np.floor((v + rng.uniform(0, plank)) / plank)
        val *= 1.0 + 0.08 * np.sin(pid * 12.9898 + rng.uniform(0, 6))
        seam = np.abs(((v + rng.uniform(0, plank)) % plank) - plank / 2) > plank / 2 - 1.2
        val *= np.where(seam, 0.6, 1.0)
        img = jitter_rgb(rng, base, 0.06)[None, None, :] * val[..., None]
    elif kind == "dark":
        name = "dark"
        g = rng.uniform(0.06, 0.22)
        base = pick(rng, [(g, g, g), (g * 0.8, g * 0.9, g * 1.3), (g * 1.2, g, g * 0.8)])
        val = 1.0 + 0.08 * lowfreq(rng, H, W, 4) + 0.05 * fine_noise(rng, H, W, 0.8)
        img = np.asarray(base)[None, None, :] * val[..., None]
    else:
        name = "pattern"
        c1 = jitter_rgb(rng, pick(rng, [(0.75, 0.2, 0.2), (0.2, 0.3, 0.65), (0.25, 0.5, 0.3),
                                       (0.5, 0.5, 0.52)]), 0.08)
        c2 = jitter_rgb(rng, (0.92, 0.90, 0.86), 0.03)
        p = rng.uniform(10, 30)
        a = ((xx // p) % 2 == 0).astype(float)
        b = ((yy // p) % 2 == 0).astype(float)
        m = 0.5 * (a + b)                       # gingham
        img = c2[None, None, :] * (1 - m[..., None]) + c1[None, None, :] * m[..., None]
        img *= (1.0 + 0.03 * fine_noise(rng, H, W, 0.6))[..., None]
    return np.clip(img, 0.0, 1.0), name


# ----------------------------------------------------------------------------
# geometry: camera / sheet views
# ----------------------------------------------------------------------------

def homography(src, dst):
    A = np.zeros((8, 8))
    b = np.zeros(8)
    for k, ((x, y), (u, v)) in enumerate(zip(src, dst)):
        A[2 * k] = [x, y, 1, 0, 0, 0, -u * x, -u * y]
        A[2 * k + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y]
        b[2 * k], b[2 * k + 1] = u, v
    return np.append(np.linalg.solve(A, b), 1.0).reshape(3, 3)


def apply_h(M, pts):
    pts = np.asarray(pts, dtype=np.float64)
    p = np.c_[pts, np.ones(len(pts))] @ M.T
    return p[:, :2] / p[:, 2:3]


def make_view(rng, nw, nh, h, theta_max, persp_max, margins, max_wh=(MAX_W, MAX_H),
              src_rect=None, theta_range=None):
    """A camera frame looking at a number whose box is [0,nw]x[0,nh].

    Returns (W, H, M, theta_deg, margins) with M mapping output pixels to number coords.
    """
    lo, hi = theta_range if theta_range else (-theta_max, theta_max)
    theta0 = rng.uniform(lo, hi)
    jit = rng.uniform(-1.0, 1.0, size=(4, 2))
    p0 = rng.uniform(0.0, persp_max)
    mL, mR, mT, mB = [max(m, 0.3 * h) for m in margins]
    shrink = 1.0
    for attempt in range(14):
        if attempt == 13:
            shrink = 0.0
        th = math.radians(theta0 * shrink)
        c, s = math.cos(th), math.sin(th)
        ew = nw * abs(c) + nh * abs(s)
        eh = nw * abs(s) + nh * abs(c)
        ms = [mL, mR, mT, mB]
        for (i, j, e, mx, mn) in ((0, 1, ew, max_wh[0], MIN_W), (2, 3, eh, max_wh[1], MIN_H)):
            tot = ms[i] + ms[j]
            room = mx - 1 - e
            if tot > room:
                k = max(room, 0.6 * h) / tot
                ms[i] *= k
                ms[j] *= k
            if e + ms[i] + ms[j] < mn:
                extra = mn - (e + ms[i] + ms[j])
                f = rng.uniform(0.3, 0.7)
                ms[i] += extra * f
                ms[j] += extra * (1 - f)
        W = int(math.ceil(ew + ms[0] + ms[1]))
        H = int(math.ceil(eh + ms[2] + ms[3]))
        cu, cv = ms[0] + ew / 2.0, ms[2] + eh / 2.0
        out = np.array([[0, 0], [W, 0], [W, H], [0, H]], dtype=np.float64)
        R = np.array([[c, -s], [s, c]])
        src = (out - [cu, cv]) @ R.T + [nw / 2.0, nh / 2.0]
        src = src + jit * p0 * shrink * min(W, H)
        M = homography(out, src)
        nb = apply_h(np.linalg.inv(M), [[0, 0], [nw, 0], [nw, nh], [0, nh]])
        tol = 0.2 * h
        ok = (nb[:, 0].min() >= tol and nb[:, 0].max() <= W - tol and
              nb[:, 1].min() >= tol and nb[:, 1].max() <= H - tol)
        if ok and src_rect is not None:
            x0, y0, x1, y1 = src_rect
            ok = (src[:, 0].min() >= x0 and src[:, 0].max() <= x1 and
                  src[:, 1].min() >= y0 and src[:, 1].max() <= y1)
            if not ok:
                mL, mR, mT, mB = [max(0.3 * h, m * 0.85) for m in ms]
        if ok and W <= max_wh[0] and H <= max_wh[1]:
            return W, H, M, theta0 * shrink, ms
        shrink *= 0.6
    return W, H, M, 0.0, ms


def warp_image(src, M, W, H, offset=(0.0, 0.0), order=1):
    """Sample src (whose pixel (i,j) sits at (j+.5+offx, i+.5+offy)) through M: out -> src."""
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64) + 0.5
    den = M[2, 0] * xx + M[2, 1] * yy + M[2, 2]
    sx = (M[0, 0] * xx + M[0, 1] * yy + M[0, 2]) / den
    sy = (M[1, 0] * xx + M[1, 1] * yy + M[1, 2]) / den
    ci = sy - offset[1] - 0.5
    cj = sx - offset[0] - 0.5
    out = np.stack([ndimage.map_coordinates(src[..., k], [ci, cj], order=order, mode="nearest")
                    for k in range(src.shape[2])], axis=-1)
    return out, sx, sy


def number_bbox_after(M, nw, nh, W, H):
    nb = apply_h(np.linalg.inv(M), [[0, 0], [nw, 0], [nw, nh], [0, nh]])
    x0 = int(max(0, math.floor(nb[:, 0].min())))
    y0 = int(max(0, math.floor(nb[:, 1].min())))
    x1 = int(min(W, math.ceil(nb[:, 0].max())))
    y1 = int(min(H, math.ceil(nb[:, 1].max())))
    return (x0, y0, x1, y1)


# ----------------------------------------------------------------------------
# picture assembly
# ----------------------------------------------------------------------------

class Ctx:
    def __init__(self, res, photo=False):
        self.res = res
        self.photo = photo


def choose_canvas(rng, nw, nh, h, photo):
    mx = [rng.uniform(0.4, 2.5) * h, rng.uniform(0.4, 2.5) * h]
    my = [rng.uniform(0.4, 1.8) * h, rng.uniform(0.4, 1.8) * h]
    maxw, maxh = MAX_W, MAX_H
    if photo:
        extra = 0.12 * nw + 0.8 * h
        mx = [m + extra for m in mx]
        my = [m + extra for m in my]
        maxw, maxh = 1600, 1000
    for ms, n, mxs, mns in ((mx, nw, maxw, MIN_W), (my, nh, maxh, MIN_H)):
        tot = ms[0] + ms[1]
        if n + tot > mxs:
            k = max(mxs - n, 0.6 * h) / tot
            ms[0] *= k
            ms[1] *= k
        if n + ms[0] + ms[1] < mns:
            extra = mns - (n + ms[0] + ms[1])
            f = rng.uniform(0.3, 0.7)
            ms[0] += extra * f
            ms[1] += extra * (1 - f)
    ox, oy = int(round(mx[0])), int(round(my[0]))
    W = int(math.ceil(ox + nw + mx[1]))
    H = int(math.ceil(oy + nh + my[1]))
    return ox, oy, W, H


def hand_on_paper(rng, ctx, text, surfaces, pens, pen_exclude=()):
    pen = None
    ptype = pick(rng, pens)

    def make(h):
        nonlocal pen
        pen = make_pen(rng, ptype, h, pen_exclude)
        return handwritten_layer(rng, text, h, pen, ctx.res.mnist)

    layer = build_layer(rng, text, ctx.photo, make)
    h = layer.h
    surf = make_surface(rng, pick(rng, surfaces), h)
    ox, oy, W, H = choose_canvas(rng, layer.w, layer.hgt, h, ctx.photo)
    img = paper_base(rng, H, W, white_paper(rng))
    draw_surface(rng, img, surf, oy + layer.baseline, ox, h)
    paint(img, layer, ox, oy, pen, rng)
    cond = ["pen=%s-%s" % (pen["type"], pen["name"]), "paper=" + surface_name(surf),
            "h=%d" % round(h)]
    return img, (ox, oy, ox + layer.w, oy + layer.hgt), cond, h


def k_plain(rng, ctx):
    text = gen_int(rng)
    img, bbox, cond, h = hand_on_paper(rng, ctx, text, ["plain"], ["ballpoint", "gel", "felt", "marker"])
    lighting(rng, img, 0.02, 0.12)
    return img, bbox, cond, text, h


def k_ruled(rng, ctx):
    text = gen_int(rng)
    img, bbox, cond, h = hand_on_paper(rng, ctx, text, ["ruled"], ["ballpoint", "gel", "felt"])
    lighting(rng, img, 0.02, 0.12)
    return img, bbox, cond, text, h


def k_squared(rng, ctx):
    text = gen_int(rng)
    img, bbox, cond, h = hand_on_paper(rng, ctx, text, ["squared"], ["ballpoint", "gel", "felt"])
    lighting(rng, img, 0.02, 0.12)
    return img, bbox, cond, text, h


def k_dotted(rng, ctx):
    text = gen_int(rng)
    img, bbox, cond, h = hand_on_paper(rng, ctx, text, ["dotted"], ["ballpoint", "gel", "felt", "marker"])
    lighting(rng, img, 0.02, 0.12)
    return img, bbox, cond, text, h


def k_pencil(rng, ctx):
    text = gen_int(rng)
    img, bbox, cond, h = hand_on_paper(rng, ctx, text, ["plain", "ruled"], ["pencil"])
    lighting(rng, img, 0.02, 0.12)
    return img, bbox, cond, text, h


def k_decimal_negative(rng, ctx):
    text = gen_decneg(rng)
    img, bbox, cond, h = hand_on_paper(rng, ctx, text, ["plain", "ruled"],
                                       ["ballpoint", "gel", "felt", "marker"])
    lighting(rng, img, 0.02, 0.12)
    return img, bbox, cond, text, h


def k_shadow(rng, ctx):
    text = gen_int(rng)
    img, bbox, cond, h = hand_on_paper(rng, ctx, text, ["plain", "ruled"],
                                       ["ballpoint", "gel", "felt", "marker"])
    H, W = img.shape[:2]
    x0, y0, x1, y1 = bbox
    px = x0 + rng.uniform(0.25, 0.75) * (x1 - x0)
    py = y0 + rng.uniform(0.2, 0.8) * (y1 - y0)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64) + 0.5
    shape = pick(rng, ["edge", "blob", "phone"])
    ang = rng.uniform(0, 2 * np.pi)
    dx, dy = math.cos(ang), math.sin(ang)
    if shape == "edge":
        d = (xx - px) * dx + (yy - py) * dy                 # > 0 inside the shadow
    elif shape == "blob":
        R = rng.uniform(0.6, 2.5) * max(x1 - x0, 4 * h)
        cx, cy = px + R * dx, py + R * dy
        d = R - np.hypot(xx - cx, yy - cy)
    else:                                                   # corner of a phone / hand
        a2 = ang + rng.uniform(np.pi / 2 - 0.3, np.pi / 2 + 0.3)
        ex, ey = math.cos(a2), math.sin(a2)
        d1 = (xx - px) * dx + (yy - py) * dy
        sh = rng.uniform(-0.5, 0.5) * (x1 - x0)
        d2 = (xx - px - sh * ex) * ex + (yy - py - sh * ey) * ey
        d = np.minimum(d1, d2)
    soft = rng.uniform(0.3, 1.5) * h
    m = smoothstep(0.5 + d / soft)
    depth = rng.uniform(0.15, 0.45)
    tint = np.array([1.0, 1.0, rng.uniform(0.85, 1.0)])    # shade is a little bluish
    img *= 1.0 - depth * m[..., None] * tint
    lighting(rng, img, 0.02, 0.10)
    cond.append("shadow=%s-%d%%" % (shape, round(depth * 100)))
    return img, bbox, cond, text, h


def sheet_on_desk(rng, ctx, layer, pen, sheet_rgb, surf, n_visible, theta_max, persp_max,
                  note=False):
    h = layer.h
    nw, nh = layer.w, layer.hgt
    visible = set(int(s) for s in rng.permutation(4)[:n_visible])   # 0 L, 1 R, 2 T, 3 B
    dist, margins = [], []
    for side in range(4):
        if side in visible:
            d = rng.uniform(0.35, 1.5) * h
            margins.append(d + rng.uniform(0.5, 2.0) * h)
        else:
            d = None
            margins.append(rng.uniform(0.4, 2.2) * h)
        dist.append(d)
    maxwh = (MAX_W, MAX_H)
    if ctx.photo:
        extra = 0.12 * nw + 0.8 * h
        margins = [m + extra for m in margins]
        maxwh = (1600, 1000)
    W, H, M, theta, ms = make_view(rng, nw, nh, h, theta_max, persp_max, margins, maxwh)
    big = 1e6
    for side in range(4):
        d = dist[side]
        if d is not None:
            d = min(d, ms[side] - 0.35 * h)
            if d < 0.3 * h:
                d = None
        dist[side] = big if d is None else d
    if all(d == big for d in dist):                # keep at least one edge in view
        side = int(np.argmax(ms))
        dist[side] = max(0.3 * h, ms[side] * 0.5)
    dL, dR, dT, dB = dist
    Q = apply_h(M, [[0, 0], [W, 0], [W, H], [0, H]])
    bx0 = int(math.floor(Q[:, 0].min())) - 3
    by0 = int(math.floor(Q[:, 1].min())) - 3
    bx1 = int(math.ceil(Q[:, 0].max())) + 3
    by1 = int(math.ceil(Q[:, 1].max())) + 3
    paper = paper_base(rng, by1 - by0, bx1 - bx0, sheet_rgb)
    draw_surface(rng, paper, surf, -by0 + layer.baseline, -bx0, h)
    if note and dT < big and dB < big:             # curl / adhesive shading of a note
        rows = np.arange(by1 - by0) + by0 + 0.5
        t = np.clip((rows + dT) / (nh + dT + dB), 0, 1)
        shade = 1.0 - rng.uniform(0.03, 0.08) * t ** 2
        shade += np.where(t < rng.uniform(0.12, 0.2), 0.02, 0.0)
        paper *= shade[:, None, None]
    paint(paper, layer, -bx0, -by0, pen, rng)
    out, sx, sy = warp_image(paper, M, W, H, offset=(bx0, by0))
    din = np.minimum(np.minimum(sx + dL, nw + dR - sx), np.minimum(sy + dT, nh + dB - sy))
    mask = np.clip(din + 0.5, 0.0, 1.0)
    desk, dname = desk_texture(rng, H, W)
    sh = ndimage.shift(mask, (rng.uniform(1, 5), rng.uniform(-3, 4)), order=1, mode="nearest")
    sh = ndimage.gaussian_filter(sh, rng.uniform(2.0, 6.0))
    desk *= (1.0 - rng.uniform(0.2, 0.45) * sh)[..., None]
    img = desk * (1.0 - mask[..., None]) + out * mask[..., None]
    bbox = number_bbox_after(M, nw, nh, W, H)
    nvis = sum(d < big for d in dist)
    return img, bbox, ["desk=%s" % dname, "edges=%d" % nvis, "rot=%.1f" % theta]


def k_desk(rng, ctx):
    text = gen_int(rng)
    ptype = pick(rng, ["ballpoint", "gel", "felt", "marker"])
    pen = {}

    def make(h):
        pen.update(make_pen(rng, ptype, h))
        return handwritten_layer(rng, text, h, pen, ctx.res.mnist)

    layer = build_layer(rng, text, ctx.photo, make)
    surf = make_surface(rng, pick(rng, ["plain", "plain", "ruled", "squared"]), layer.h)
    n_vis = int(rng.choice([1, 2, 3], p=[.3, .5, .2]))
    img, bbox, extra = sheet_on_desk(rng, ctx, layer, pen, white_paper(rng), surf, n_vis, 12.0, 0.03)
    lighting(rng, img, 0.03, 0.18)
    cond = ["pen=%s-%s" % (pen["type"], pen["name"]), "paper=" + surface_name(surf)] + extra + \
           ["h=%d" % round(layer.h)]
    return img, bbox, cond, text, layer.h


NOTE_COLORS = [("yellow", (1.0, 0.93, 0.45)), ("yellow", (0.99, 0.90, 0.55)),
               ("pink", (1.0, 0.72, 0.80)), ("green", (0.72, 0.95, 0.62)),
               ("blue", (0.62, 0.86, 1.0)), ("orange", (1.0, 0.80, 0.55))]


def k_sticky(rng, ctx):
    text = gen_int(rng)
    ptype = pick(rng, ["felt", "marker", "ballpoint", "gel"])
    pen = {}

    def make(h):
        pen.update(make_pen(rng, ptype, h, exclude=("red", "green")))
        return handwritten_layer(rng, text, h, pen, ctx.res.mnist)

    layer = build_layer(rng, text, ctx.photo, make)
    h = layer.h
    cname, col = pick(rng, NOTE_COLORS)
    col = jitter_rgb(rng, col, 0.03)
    if rng.random() < 0.45:
        ox, oy, W, H = choose_canvas(rng, layer.w, layer.hgt, h, ctx.photo)
        img = paper_base(rng, H, W, col)
        t = (np.arange(H) + 0.5) / H
        img *= (1.0 - rng.uniform(0.02, 0.08) * t ** 2)[:, None, None]
        paint(img, layer, ox, oy, pen, rng)
        bbox = (ox, oy, ox + layer.w, oy + layer.hgt)
        extra = ["desk=none"]
    else:
        n_vis = int(rng.choice([2, 3, 4], p=[.3, .3, .4]))
        img, bbox, extra = sheet_on_desk(rng, ctx, layer, pen, col, dict(type="plain"), n_vis,
                                         8.0, 0.02, note=True)
    lighting(rng, img, 0.03, 0.15)
    cond = ["pen=%s-%s" % (pen["type"], pen["name"]), "note=" + cname] + extra + ["h=%d" % round(h)]
    return img, bbox, cond, text, h


def k_printed(rng, ctx):
    text = gen_mixed(rng)
    fonts = ctx.res.fonts
    font = fonts[int(rng.integers(len(fonts)))]
    layer = build_layer(rng, text, ctx.photo, lambda h: printed_layer(rng, text, h, font))
    h = layer.h
    layer.cov = np.clip(ndimage.gaussian_filter(layer.cov, rng.uniform(0.0, 0.5)) * 1.05, 0, 1)
    g = rng.uniform(0.04, 0.2)
    cname, col = pick(rng, [("black", (g, g, g)), ("black", (g, g, g * 1.1)),
                            ("blue", (0.10, 0.14, 0.40))])
    pen = dict(type="print", name=cname, color=np.array(col), opacity=rng.uniform(0.9, 1.0),
               pressure=rng.uniform(0.0, 0.06), grain=0.0, mode="multiply")
    ox, oy, W, H = choose_canvas(rng, layer.w, layer.hgt, h, ctx.photo)
    img = paper_base(rng, H, W, white_paper(rng))
    paint(img, layer, ox, oy, pen, rng)
    lighting(rng, img, 0.02, 0.10)
    fname = os.path.splitext(os.path.basename(font))[0]
    cond = ["font=%s" % fname, "ink=%s" % cname, "h=%d" % round(h)]
    return img, (ox, oy, ox + layer.w, oy + layer.hgt), cond, text, h


def k_whiteboard(rng, ctx):
    text = gen_int(rng)
    chalk = rng.random() < 0.4
    ptype = "chalk" if chalk else "wbmarker"
    pen = {}

    def make(h):
        pen.update(make_pen(rng, ptype, h))
        return handwritten_layer(rng, text, h, pen, ctx.res.mnist)

    layer = build_layer(rng, text, ctx.photo, make)
    h = layer.h
    ox, oy, W, H = choose_canvas(rng, layer.w, layer.hgt, h, ctx.photo)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64) + 0.5
    if not chalk:
        b = rng.uniform(0.88, 0.97)
        img = np.empty((H, W, 3))
        img[:] = jitter_rgb(rng, (b, b, b + 0.02), 0.01)
        ghost = np.maximum(lowfreq(rng, H, W, 7), 0.0) * rng.uniform(0.02, 0.06)
        img *= (1.0 - ghost)[..., None]
        img *= (1.0 + 0.004 * fine_noise(rng, H, W, 1.0))[..., None]
        paint(img, layer, ox, oy, pen, rng)
        g = np.zeros((H, W))
        for _ in range(int(rng.integers(1, 3))):
            cx, cy = rng.uniform(0, W), rng.uniform(0, H)
            rx = rng.uniform(0.2, 0.6) * max(W, H)
            ry = rx * rng.uniform(0.3, 0.8)
            a = rng.uniform(0, np.pi)
            u = ((xx - cx) * math.cos(a) + (yy - cy) * math.sin(a)) / rx
            v = (-(xx - cx) * math.sin(a) + (yy - cy) * math.cos(a)) / ry
            g = np.maximum(g, rng.uniform(0.2, 0.45) * np.exp(-(u * u + v * v) * 2.0))
        img = img * (1.0 - g[..., None]) + g[..., None]
        cond = ["board=white", "glare=%d%%" % round(g.max() * 100)]
    else:
        bname, base = pick(rng, [("green", (0.13, 0.24, 0.18)), ("green", (0.16, 0.28, 0.22)),
                                 ("black", (0.11, 0.11, 0.12)), ("slate", (0.18, 0.19, 0.21))])
        img = np.empty((H, W, 3))
        img[:] = jitter_rgb(rng, base, 0.05)
        dust = np.maximum(lowfreq(rng, H, W, 5), 0.0) * rng.uniform(0.03, 0.10)
        swirl = np.abs(np.sin(2 * np.pi * (xx * rng.uniform(0.5, 1.5) + yy) / rng.uniform(30, 80)))
        dust += 0.02 * swirl * (lowfreq(rng, H, W, 3) > 0)
        img = img * (1 - dust[..., None]) + 0.8 * dust[..., None]
        img *= (1.0 + 0.02 * fine_noise(rng, H, W, 0.8))[..., None]
        paint(img, layer, ox, oy, pen, rng)
        cond = ["board=%s" % bname]
    lighting(rng, img, 0.02, 0.15)
    cond = ["pen=%s-%s" % (pen["type"], pen["name"])] + cond + ["h=%d" % round(h)]
    return img, (ox, oy, ox + layer.w, oy + layer.hgt), cond, text, h


PHOTO_BASES = ["plain", "ruled", "squared", "dotted", "sticky", "shadow", "desk", "pencil",
               "printed", "whiteboard", "decimal_negative"]


def k_photo(rng, ctx):
    base = pick(rng, PHOTO_BASES)
    src, bbox, cond, text, h = RENDER[base](rng, Ctx(ctx.res, photo=True))
    Hb, Wb = src.shape[:2]
    x0, y0, x1, y1 = bbox
    nw, nh = x1 - x0, y1 - y0
    margins = [rng.uniform(0.4, 2.2) * h for _ in range(4)]
    src_rect = (-x0 + 1, -y0 + 1, Wb - x0 - 1, Hb - y0 - 1)
    # the camera turns by up to 8 degrees; a sheet that already lies turned on
    # the desk does not end up turned by more than 12 degrees in all
    base_rot = sum(float(c[4:]) for c in cond if c.startswith("rot="))
    rng_th = (max(-8.0, -12.0 - base_rot), min(8.0, 12.0 - base_rot))
    W, H, M, theta, _ = make_view(rng, nw, nh, h, 8.0, 0.04, margins, src_rect=src_rect,
                                  theta_range=rng_th)
    img, _, _ = warp_image(src, M, W, H, offset=(-x0, -y0))
    blur = rng.uniform(0.3, 1.0) * max(1.0, h / 45.0)
    blur = min(blur, 0.035 * h + 0.3)
    img = ndimage.gaussian_filter(img, (blur, blur, 0))
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float64)
    r2 = ((xx - W / 2) / (W / 2)) ** 2 + ((yy - H / 2) / (H / 2)) ** 2
    img *= (1.0 - rng.uniform(0.0, 0.2) * r2 / 2)[..., None]
    img *= rng.uniform(0.9, 1.08) * jitter_rgb(rng, (1, 1, 1), 0.04)
    sig = rng.uniform(0.008, 0.03)
    lum = rng.standard_normal((H, W)) * sig * np.sqrt(np.clip(img.mean(axis=2), 0.05, 1))
    chroma = ndimage.gaussian_filter(rng.standard_normal((H, W, 3)), (1.0, 1.0, 0)) * sig * 0.8
    img = img + lum[..., None] + chroma
    q = int(rng.integers(60, 91))
    cond = ["base=%s" % base] + cond + ["camrot=%.1f" % theta, "blur=%.1f" % blur,
                                        "noise=%.3f" % sig, "jpeg=%d" % q]
    return img, number_bbox_after(M, nw, nh, W, H), cond, text, h, q


RENDER = {
    "plain": k_plain, "ruled": k_ruled, "squared": k_squared, "dotted": k_dotted,
    "sticky": k_sticky, "shadow": k_shadow, "desk": k_desk, "pencil": k_pencil,
    "printed": k_printed, "photo": k_photo, "whiteboard": k_whiteboard,
    "decimal_negative": k_decimal_negative,
}


def make_picture(res, kind, seed, i):
    rng = np.random.default_rng(np.random.SeedSequence([seed, KINDS.index(kind), i]))
    r = RENDER[kind](rng, Ctx(res))
    img, bbox, cond, text, h = r[:5]
    quality = r[5] if len(r) > 5 else None
    return to_uint8(img), bbox, cond, text, quality


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="output folder")
    ap.add_argument("--seed", required=True, type=int)
    ap.add_argument("--per-kind", type=int, default=20)
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated subset of: " + ",".join(KINDS))
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    if args.seed < 0:
        ap.error("--seed must be >= 0")
    if args.per_kind < 0:
        ap.error("--per-kind must be >= 0")
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    bad = [k for k in kinds if k not in KINDS]
    if bad:
        ap.error("unknown kind(s): %s (known: %s)" % (",".join(bad), ",".join(KINDS)))
    os.makedirs(args.out, exist_ok=True)
    res = Resources()
    rows = []
    t_cpu, t_wall = time.process_time(), time.time()
    for kind in kinds:
        for i in range(args.per_kind):
            arr, bbox, cond, text, quality = make_picture(res, kind, args.seed, i)
            im = Image.fromarray(arr, "RGB")
            if quality is None:
                name = "%s_%03d.png" % (kind, i)
                im.save(os.path.join(args.out, name), format="PNG")
            else:
                name = "%s_%03d.jpg" % (kind, i)
                im.save(os.path.join(args.out, name), format="JPEG", quality=quality)
            rows.append((name, kind, ";".join(cond), text))
    with open(os.path.join(args.out, "numbers.tsv"), "w", encoding="utf-8", newline="\n") as f:
        f.write("file\tkind\tcondition\ttext\n")
        for r in rows:
            f.write("\t".join(r) + "\n")
    cpu = time.process_time() - t_cpu
    wall = time.time() - t_wall
    if not args.quiet:
        n = len(rows)
        print("wrote %d pictures (%d kinds x %d) and numbers.tsv to %s in %.1f s wall, %.2f s CPU/picture"
              % (n, len(kinds), args.per_kind, args.out, wall, cpu / max(n, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
