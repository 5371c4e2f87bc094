#!/usr/bin/env python3
"""Independent evaluation-set generator "A" for the `digits` reader.

    python3 generate.py --out DIR --seed N [--per-kind K] [--kinds a,b,...]

Writes pictures into DIR and DIR/labels.tsv (file, kind, expect).  Only numpy,
scipy and Pillow are used.  See README.md beside this file for the models.
"""
import argparse
import gzip
import io
import math
import os
import struct
import subprocess
import sys

import numpy as np
from scipy import ndimage
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
MNIST_DIR = os.path.normpath(os.path.join(HERE, '..', '..', 'Fixtures', 'mnist'))

KINDS = ['shadow', 'desk', 'tight', 'thin', 'pencil', 'rotated', 'colour', 'jpeg', 'ruled',
         'squared', 'transparent', 'meter', 'printed', 'blank', 'letter', 'symbol', 'scribble']
DIGIT_KINDS = set(KINDS[:13])

# Letters that a person would not take for a digit (O o l I S s Z z B G g q b are left out as the
# brief asks; D Q J y u c i j are left out too because handwritten they can pass for 0, 9, 1, 4, 4, 0, 1, 1).
LETTERS = list('ACEFHKLMNPRTUVWXY') + list('adefhkmnprtvwx')
SYMBOLS = list('#%&?@+*=$!<>~^{}') + ['\u00a7']  # no '/' or '(' ')': written alone they pass for a 1

F32 = np.float32


# ----------------------------------------------------------------------------------------------
# Fonts (DejaVu and Liberation for print, DSEG7 for meters); found through fontconfig.
# ----------------------------------------------------------------------------------------------

def _font_files():
    files = []
    try:
        out = subprocess.run(['fc-list', '--format', '%{file}\n'], capture_output=True, text=True,
                             check=False).stdout
        files = [l.strip() for l in out.splitlines() if l.strip()]
    except OSError:
        pass
    if not files:
        for root in ('/usr/share/fonts', '/usr/local/share/fonts'):
            for dp, _, fns in os.walk(root):
                files += [os.path.join(dp, f) for f in fns]
    byname = {}
    for f in files:
        if f.lower().endswith('.ttf'):
            byname.setdefault(os.path.basename(f), f)
    return byname


FONT_FILES = _font_files()


def _fonts(names):
    got = [FONT_FILES[n] for n in names if n in FONT_FILES]
    return got


PRINT_FONTS = _fonts(
    ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'DejaVuSans-Oblique.ttf', 'DejaVuSans-BoldOblique.ttf',
     'DejaVuSans-ExtraLight.ttf', 'DejaVuSansCondensed.ttf', 'DejaVuSansCondensed-Bold.ttf',
     'DejaVuSansMono.ttf', 'DejaVuSansMono-Bold.ttf', 'DejaVuSerif.ttf', 'DejaVuSerif-Bold.ttf',
     'DejaVuSerif-Italic.ttf', 'DejaVuSerifCondensed.ttf', 'DejaVuSerifCondensed-Bold.ttf',
     'LiberationSans-Regular.ttf', 'LiberationSans-Bold.ttf', 'LiberationSans-Italic.ttf',
     'LiberationSans-BoldItalic.ttf', 'LiberationSerif-Regular.ttf', 'LiberationSerif-Bold.ttf',
     'LiberationSerif-Italic.ttf', 'LiberationMono-Regular.ttf', 'LiberationMono-Bold.ttf'])
SKEL_FONTS = _fonts(['DejaVuSans.ttf', 'DejaVuSans-Oblique.ttf', 'DejaVuSansMono.ttf',
                     'LiberationSans-Regular.ttf', 'LiberationSans-Italic.ttf', 'LiberationMono-Regular.ttf',
                     'DejaVuSansCondensed.ttf'])
DRUM_FONTS = _fonts(['DejaVuSansCondensed-Bold.ttf', 'DejaVuSansCondensed.ttf', 'LiberationSans-Bold.ttf',
                     'LiberationSans-Regular.ttf', 'DejaVuSansMono-Bold.ttf', 'LiberationMono-Bold.ttf',
                     'DejaVuSans-Bold.ttf'])
SEG_FONTS = _fonts(['DSEG7Classic-Regular.ttf', 'DSEG7Classic-Bold.ttf', 'DSEG7Classic-Italic.ttf',
                    'DSEG7Classic-BoldItalic.ttf', 'DSEG7Modern-Regular.ttf', 'DSEG7Modern-Bold.ttf',
                    'DSEG7Modern-Italic.ttf', 'DSEG7Classic-Light.ttf'])
if not PRINT_FONTS:
    sys.exit('generate.py: no DejaVu or Liberation fonts found (fonts-dejavu-core, fonts-liberation2)')
if not SEG_FONTS:
    SEG_FONTS = DRUM_FONTS  # meters fall back to drum-style faces when fonts-dseg is missing
if not DRUM_FONTS:
    DRUM_FONTS = PRINT_FONTS
if not SKEL_FONTS:
    SKEL_FONTS = PRINT_FONTS

_FONT_CACHE = {}


def font(path, size):
    key = (path, int(size))
    if key not in _FONT_CACHE:
        _FONT_CACHE[key] = ImageFont.truetype(path, int(size))
    return _FONT_CACHE[key]


# ----------------------------------------------------------------------------------------------
# MNIST test split -> stroke skeletons
# ----------------------------------------------------------------------------------------------

def load_mnist():
    with gzip.open(os.path.join(MNIST_DIR, 't10k-images-idx3-ubyte.gz'), 'rb') as f:
        data = f.read()
    magic, n, r, c = struct.unpack('>IIII', data[:16])
    if magic != 2051:
        raise ValueError('bad MNIST image magic')
    imgs = np.frombuffer(data, np.uint8, count=n * r * c, offset=16).reshape(n, r, c)
    with gzip.open(os.path.join(MNIST_DIR, 't10k-labels-idx1-ubyte.gz'), 'rb') as f:
        data = f.read()
    magic, n2 = struct.unpack('>II', data[:8])
    if magic != 2049 or n2 != n:
        raise ValueError('bad MNIST label file')
    labels = np.frombuffer(data, np.uint8, count=n, offset=8)
    return imgs, labels


MNIST = None
BY_DIGIT = None


def mnist():
    global MNIST, BY_DIGIT
    if MNIST is None:
        MNIST = load_mnist()
        BY_DIGIT = [np.flatnonzero(MNIST[1] == d) for d in range(10)]
    return MNIST


def zhang_suen(img):
    b = np.pad(img.astype(np.uint8), 1)
    while True:
        changed = False
        for step in range(2):
            c = b[1:-1, 1:-1]
            p2, p3, p4, p5 = b[:-2, 1:-1], b[:-2, 2:], b[1:-1, 2:], b[2:, 2:]
            p6, p7, p8, p9 = b[2:, 1:-1], b[2:, :-2], b[1:-1, :-2], b[:-2, :-2]
            seq = [p2, p3, p4, p5, p6, p7, p8, p9, p2]
            B = sum(p.astype(np.int16) for p in seq[:8])
            A = sum(((seq[k] == 0) & (seq[k + 1] == 1)).astype(np.int16) for k in range(8))
            if step == 0:
                m = ((p2 & p4 & p6) == 0) & ((p4 & p6 & p8) == 0)
            else:
                m = ((p2 & p4 & p8) == 0) & ((p2 & p6 & p8) == 0)
            rem = (c == 1) & (B >= 2) & (B <= 6) & (A == 1) & m
            if rem.any():
                c[rem] = 0
                changed = True
        if not changed:
            break
    return b[1:-1, 1:-1].astype(bool)


def skeleton_segments(sk, smooth=3, by_max=False):
    """Skeleton pixels -> smoothed graph -> segments (N,4) normalised to height 1, centred at 0."""
    ys, xs = np.nonzero(sk)
    H, W = sk.shape
    idx = -np.ones(sk.shape, np.int64)
    idx[ys, xs] = np.arange(len(ys))
    edges = []
    for dy, dx in ((0, 1), (1, 0), (1, 1), (1, -1)):
        y2, x2 = ys + dy, xs + dx
        ok = (y2 >= 0) & (y2 < H) & (x2 >= 0) & (x2 < W)
        j = np.full(len(ys), -1)
        j[ok] = idx[y2[ok], x2[ok]]
        if dy == 1 and dx != 0:  # diagonal: drop when an orthogonal two-step path exists
            xa = np.clip(xs + dx, 0, W - 1)
            yb = np.clip(ys + 1, 0, H - 1)
            red = sk[ys, xa] | sk[yb, xs]
            j[red] = -1
        m = j >= 0
        edges.append(np.stack([np.flatnonzero(m), j[m]], 1))
    E = np.concatenate(edges) if edges else np.zeros((0, 2), np.int64)
    pts = np.stack([xs, ys], 1).astype(np.float64)
    deg = np.bincount(E.ravel(), minlength=len(pts)) if len(E) else np.zeros(len(pts), np.int64)
    mov = deg == 2
    for _ in range(smooth):
        acc = np.zeros_like(pts)
        np.add.at(acc, E[:, 0], pts[E[:, 1]])
        np.add.at(acc, E[:, 1], pts[E[:, 0]])
        mean = acc / np.maximum(deg, 1)[:, None]
        pts[mov] = 0.5 * pts[mov] + 0.5 * mean[mov]
    segs = np.concatenate([pts[E[:, 0]], pts[E[:, 1]]], 1)
    iso = np.flatnonzero(deg == 0)
    if len(iso):
        segs = np.concatenate([segs, np.concatenate([pts[iso], pts[iso]], 1)], 0)
    return normalise_segs(segs, by_max)


def normalise_segs(segs, by_max=False):
    """Centre at 0 and scale to height 1 (digits) or to a longest side of 1 (letters, symbols,
    scribbles, so that a flat '=' or '~' does not grow to many times the picture's width)."""
    p = segs.reshape(-1, 2)
    x0, y0 = p.min(0)
    x1, y1 = p.max(0)
    h = max(y1 - y0, (x1 - x0) if by_max else 0.0, 1e-6)
    out = segs.copy().astype(np.float64)
    out[:, 0::2] = (out[:, 0::2] - (x0 + x1) / 2) / h
    out[:, 1::2] = (out[:, 1::2] - (y0 + y1) / 2) / h
    return out


_SEG_CACHE = {}


def mnist_bw(i):
    img = mnist()[0][i].astype(F32) / 255.0
    z = ndimage.zoom(img, 4, order=3)
    z = ndimage.gaussian_filter(z, 1.0)
    bw = z > 0.5
    lab, n = ndimage.label(bw)
    if n > 1:  # drop specks
        sizes = ndimage.sum(bw, lab, range(1, n + 1))
        keep = np.isin(lab, 1 + np.flatnonzero(sizes >= max(30, 0.08 * sizes.max())))
        bw = bw & keep
    return bw


_OK_CACHE = {}


def mnist_ok(i, d):
    """Keep samples whose strokes a skeleton can carry: no ink blobs (a loop written so thick that
    its hole closed), no digit wider than tall (0: 1.5 times), and a closed loop for 0, 6, 8 and 9,
    so that every re-inked digit stays plainly readable."""
    if i not in _OK_CACHE:
        bw = mnist_bw(i)
        sk = zhang_suen(bw)
        dt = ndimage.distance_transform_edt(bw)
        ok = sk.sum() > 20 and dt.max() <= 2.0 * float(np.median(dt[sk])) + 1.0
        ys, xs = np.nonzero(bw)
        if ok:  # digits lying flat (a 5 squashed into a wave) are not plainly readable
            ok = (xs.max() - xs.min() + 1) <= (1.5 if d == 0 else 1.1) * (ys.max() - ys.min() + 1)
        if ok and d in (0, 6, 8, 9):
            lab, n = ndimage.label(~bw)
            sizes = ndimage.sum(~bw, lab, range(1, n + 1))
            border = set(np.unique(np.concatenate([lab[0], lab[-1], lab[:, 0], lab[:, -1]]))) - {0}
            holes = [sz for k, sz in enumerate(sizes, 1) if k not in border and sz >= 25]
            ok = len(holes) >= 1
        _OK_CACHE[i] = ok
    return _OK_CACHE[i]


def pick_mnist(rng, d):
    mnist()
    for _ in range(40):
        i = int(rng.choice(BY_DIGIT[d]))
        if mnist_ok(i, d):
            return i
    return i


def mnist_segs(i):
    key = ('m', int(i))
    if key not in _SEG_CACHE:
        _SEG_CACHE[key] = skeleton_segments(zhang_suen(mnist_bw(i)), smooth=10)
    return _SEG_CACHE[key]


def glyph_segs(path, ch):
    key = ('f', path, ch)
    if key not in _SEG_CACHE:
        f = font(path, 160)
        bb = f.getbbox(ch)
        im = Image.new('L', (bb[2] - bb[0] + 40, bb[3] - bb[1] + 40), 0)
        ImageDraw.Draw(im).text((20 - bb[0], 20 - bb[1]), ch, fill=255, font=f)
        a = np.asarray(im) > 110
        _SEG_CACHE[key] = skeleton_segments(zhang_suen(a), smooth=2, by_max=True)
    return _SEG_CACHE[key]


def polyline_segs(lines):
    segs = []
    for pl in lines:
        pl = np.asarray(pl, np.float64)
        if len(pl) == 1:
            segs.append(np.concatenate([pl, pl], 1))
        else:
            segs.append(np.concatenate([pl[:-1], pl[1:]], 1))
    return normalise_segs(np.concatenate(segs, 0), by_max=True)


# ----------------------------------------------------------------------------------------------
# Noise helpers
# ----------------------------------------------------------------------------------------------

def smooth_noise(rng, h, w, cells):
    """Low-frequency noise, zero mean, unit std, of shape (h, w)."""
    cy = max(2, int(round(cells * h / max(h, w)))) + 2
    cx = max(2, int(round(cells * w / max(h, w)))) + 2
    g = rng.standard_normal((cy, cx)).astype(F32)
    im = Image.fromarray(g, 'F').resize((max(1, w), max(1, h)), Image.BICUBIC)
    a = np.asarray(im, F32)
    s = a.std()
    return (a - a.mean()) / (s if s > 1e-6 else 1.0)


def fine_noise(rng, h, w, sigma=0.7):
    n = rng.standard_normal((h, w)).astype(F32)
    if sigma > 0:
        n = ndimage.gaussian_filter(n, sigma)
        n /= max(n.std(), 1e-6)
    return n


# ----------------------------------------------------------------------------------------------
# Pen model: strokes -> distance field -> ink coverage
# ----------------------------------------------------------------------------------------------

def stroke_alpha(rng, segs, H, W, cx, cy, h, pen, angle=0.0, slant=0.0, aspect=1.0):
    p = segs.reshape(-1, 2).astype(np.float64).copy()
    wob = pen.get('wobble', 0.0)
    if wob > 0:
        for _ in range(2):
            f = rng.uniform(0.7, 2.2, 2)
            ph = rng.uniform(0, 2 * np.pi, 2)
            p[:, 0] += wob * np.sin(2 * np.pi * f[0] * p[:, 1] + ph[0])
            p[:, 1] += 0.7 * wob * np.sin(2 * np.pi * f[1] * p[:, 0] + ph[1])
    p[:, 0] = (p[:, 0] - slant * p[:, 1]) * aspect
    p *= h
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    x = ca * p[:, 0] - sa * p[:, 1] + cx
    y = sa * p[:, 0] + ca * p[:, 1] + cy
    wpx = float(pen['width'])
    m = wpx * 1.6 + 3
    x0, x1 = int(max(0, math.floor(x.min() - m))), int(min(W, math.ceil(x.max() + m)))
    y0, y1 = int(max(0, math.floor(y.min() - m))), int(min(H, math.ceil(y.max() + m)))
    out = np.zeros((H, W), F32)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return out
    ss = 4 if wpx < 2.5 else (2 if wpx < 7 else 1)
    rw, rh = (x1 - x0) * ss, (y1 - y0) * ss
    im = Image.new('L', (rw, rh), 0)
    dr = ImageDraw.Draw(im)
    X = (x - x0) * ss
    Y = (y - y0) * ss
    for i in range(0, len(X), 2):
        dr.line([(X[i], Y[i]), (X[i + 1], Y[i + 1])], fill=255, width=1)
    d = ndimage.distance_transform_edt(np.asarray(im) == 0).astype(F32)
    r = wpx * ss / 2.0
    pr = pen.get('pressure', 0.0)
    if pr > 0:
        r = r * np.clip(1 + pr * smooth_noise(rng, rh, rw, 3), 0.35, 2.0)
    a = np.clip(r - d + 0.5, 0, 1)
    if ss > 1:
        a = a.reshape(rh // ss, ss, rw // ss, ss).mean(axis=(1, 3))
    hh, ww = a.shape
    sk = pen.get('skip', 0.0)
    if sk > 0:  # ballpoint skipping / dry felt-tip
        n = smooth_noise(rng, hh, ww, max(4, int(h / 6)))
        a *= np.clip(1 - sk * np.clip(n - 0.5, 0, None), 0.4, 1)
    gr = pen.get('grain', 0.0)
    if gr > 0:  # graphite on paper tooth
        n = fine_noise(rng, hh, ww, pen.get('grain_sigma', 0.6))
        a *= np.clip(1 - gr + gr * (0.6 + 0.5 * n), 0, 1)
    a *= pen.get('density', 1.0)
    out[y0:y1, x0:x1] = a
    return out


def text_alpha(text, fpath, H, W, cx, cy, h, angle=0.0, stroke=0, sx=1.0):
    """Filled printed glyphs; h is the ink height in px."""
    size = max(6, int(round(200.0 * h / ref_height(fpath))))
    ss = 3 if h < 60 else (2 if h < 160 else 1)
    f = font(fpath, size * ss)
    sw = int(round(stroke * size * ss))
    bb = f.getbbox(text, stroke_width=sw)
    tw, th = bb[2] - bb[0], bb[3] - bb[1]
    pad = int(0.35 * max(tw, th)) + 4
    im = Image.new('L', (tw + 2 * pad, th + 2 * pad), 0)
    ImageDraw.Draw(im).text((pad - bb[0], pad - bb[1]), text, fill=255, font=f, stroke_width=sw,
                            stroke_fill=255)
    if abs(sx - 1.0) > 1e-3:
        im = im.resize((max(1, int(im.width * sx)), im.height), Image.BICUBIC)
    if angle:
        im = im.rotate(-angle, resample=Image.BICUBIC)
    if ss > 1:
        im = im.resize((max(1, im.width // ss), max(1, im.height // ss)), Image.BOX)
    a = np.asarray(im, F32) / 255.0
    out = np.zeros((H, W), F32)
    paste_max(out, a, int(round(cx - a.shape[1] / 2)), int(round(cy - a.shape[0] / 2)))
    return out


def ref_height(fpath):
    """Ink height of '8' at size 200: printed text is sized so that a digit would be h px tall."""
    bb = font(fpath, 200).getbbox('8')
    return max(1, bb[3] - bb[1])


def paste_max(dst, src, x0, y0):
    H, W = dst.shape[:2]
    h, w = src.shape[:2]
    sx0, sy0 = max(0, -x0), max(0, -y0)
    dx0, dy0 = max(0, x0), max(0, y0)
    dx1, dy1 = min(W, x0 + w), min(H, y0 + h)
    if dx1 <= dx0 or dy1 <= dy0:
        return
    region = src[sy0:sy0 + dy1 - dy0, sx0:sx0 + dx1 - dx0]
    np.maximum(dst[dy0:dy1, dx0:dx1], region, out=dst[dy0:dy1, dx0:dx1])


# ----------------------------------------------------------------------------------------------
# Content: what is written
# ----------------------------------------------------------------------------------------------

def digit_content(rng, d, printed_p=0.0):
    if rng.random() < printed_p:
        return {'type': 'font', 'text': str(d), 'font': PRINT_FONTS[rng.integers(len(PRINT_FONTS))],
                'stroke': float(rng.choice([0, 0, 0, 0.02, 0.04]))}
    return {'type': 'mnist', 'idx': pick_mnist(rng, d)}


def draw_content(rng, c, H, W, cx, cy, h, pen, angle=0.0):
    t = c['type']
    slant = c.get('slant', 0.0)
    if t == 'mnist':
        return stroke_alpha(rng, mnist_segs(c['idx']), H, W, cx, cy, h, pen, angle, slant,
                            c.get('aspect', 1.0))
    if t == 'skel':
        return stroke_alpha(rng, glyph_segs(c['font'], c['text']), H, W, cx, cy, h, pen, angle, slant,
                            c.get('aspect', 1.0))
    if t == 'font':
        return text_alpha(c['text'], c['font'], H, W, cx, cy, h, angle, c.get('stroke', 0.0), c.get('sx', 1.0))
    if t == 'segs':
        if 'pen_scale' in c:
            pen = dict(pen)
            pen['width'] = max(1.0, pen['width'] * c['pen_scale'])
        return stroke_alpha(rng, c['segs'], H, W, cx, cy, h, pen, angle, slant, c.get('aspect', 1.0))
    if t == 'multi':  # several items side by side
        parts = c['parts']
        widths = [content_width(p) * h for p in parts]
        gap = c.get('gap', 0.25) * h
        total = sum(widths) + gap * (len(parts) - 1)
        out = np.zeros((H, W), F32)
        ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        x = -total / 2
        for p, w in zip(parts, widths):
            ox = x + w / 2
            hh = h * p.get('scale', 1.0)
            px, py = cx + ca * ox, cy + sa * ox + p.get('dy', 0.0) * h
            np.maximum(out, draw_content(rng, p, H, W, px, py, hh, pen, angle), out=out)
            x += w + gap
        return out
    raise ValueError(t)


def content_width(c):
    t = c['type']
    if t == 'mnist':
        s = mnist_segs(c['idx'])
    elif t == 'skel':
        s = glyph_segs(c['font'], c['text'])
    elif t == 'segs':
        s = c['segs']
    elif t == 'font':
        bb = font(c['font'], 200).getbbox(c['text'])
        return (bb[2] - bb[0]) / ref_height(c['font']) * c.get('sx', 1.0) + c.get('stroke', 0.0) * 2
    elif t == 'multi':
        return sum(content_width(p) for p in c['parts']) + c.get('gap', 0.25) * (len(c['parts']) - 1)
    else:
        return 1.0
    p = s.reshape(-1, 2)
    w = max(0.25, p[:, 0].max() - p[:, 0].min())
    if t != 'segs' and t != 'font':  # handwriting may be widened and slanted
        w = w * c.get('aspect', 1.0) + abs(c.get('slant', 0.0))
    return w * c.get('scale', 1.0)


# ----------------------------------------------------------------------------------------------
# Paper model
# ----------------------------------------------------------------------------------------------

WHITE_PAPERS = [(0.95, 0.95, 0.94), (0.94, 0.93, 0.89), (0.95, 0.92, 0.84), (0.86, 0.85, 0.81),
                (0.97, 0.97, 0.98), (0.92, 0.93, 0.95)]
NOTE_COLOURS = [(0.99, 0.93, 0.45), (0.98, 0.86, 0.55), (0.98, 0.75, 0.82), (0.72, 0.92, 0.72),
                (0.70, 0.86, 0.97), (0.99, 0.80, 0.55)]


def paper(rng, H, W, base, tex=None):
    tex = rng.uniform(0.005, 0.02) if tex is None else tex
    img = np.empty((H, W, 3), F32)
    img[:] = np.asarray(base, F32)
    mott = smooth_noise(rng, H, W, int(rng.integers(3, 9))) * rng.uniform(0.005, 0.025)
    fib = fine_noise(rng, H, W, rng.uniform(0.4, 1.2)) * tex
    img *= (1 + mott + fib)[..., None]
    return img


def line_profile(n, spacing, offset, width):
    t = np.arange(n, dtype=F32)
    d = np.abs(((t - offset) + spacing / 2) % spacing - spacing / 2)
    return np.clip(width / 2 - d + 0.5, 0, 1)


def add_lines(img, rng, alpha, colour, strength):
    a = alpha * strength * np.clip(1 + 0.15 * smooth_noise(rng, *alpha.shape, 5), 0.5, 1.3)
    img *= (1 - a[..., None] * (1 - np.asarray(colour, F32)))


def ruled(img, rng, spacing, margin_x=None):
    H, W = img.shape[:2]
    col = [(0.45, 0.6, 0.9), (0.55, 0.65, 0.85), (0.55, 0.55, 0.6), (0.4, 0.55, 0.8)][rng.integers(4)]
    w = rng.uniform(0.8, 1.8)
    ay = line_profile(H, spacing, rng.uniform(0, spacing), w)
    add_lines(img, rng, np.repeat(ay[:, None], W, 1), col, rng.uniform(0.55, 0.9))
    if margin_x is not None:
        ax = np.clip(rng.uniform(1.0, 2.2) / 2 - np.abs(np.arange(W, dtype=F32) - margin_x) + 0.5, 0, 1)
        add_lines(img, rng, np.repeat(ax[None, :], H, 0), (0.9, 0.3, 0.35), rng.uniform(0.6, 0.9))


def squared(img, rng, spacing, style):
    H, W = img.shape[:2]
    col = [(0.55, 0.55, 0.58), (0.45, 0.62, 0.9), (0.45, 0.75, 0.55), (0.6, 0.7, 0.85)][rng.integers(4)]
    ox, oy = rng.uniform(0, spacing, 2)
    if style == 'dotted':
        r = rng.uniform(0.7, 1.4)
        ax = line_profile(W, spacing, ox, 2 * r)
        ay = line_profile(H, spacing, oy, 2 * r)
        a = ay[:, None] * ax[None, :]
        add_lines(img, rng, a, (0.4, 0.4, 0.45) if rng.random() < 0.5 else col, rng.uniform(0.6, 0.95))
        return
    w = rng.uniform(0.6, 1.4)
    ax = line_profile(W, spacing, ox, w)
    ay = line_profile(H, spacing, oy, w)
    a = np.maximum(ay[:, None], ax[None, :])
    if style == 'graph':
        bx = line_profile(W, spacing * 5, ox, w * 1.9)
        by = line_profile(H, spacing * 5, oy, w * 1.9)
        a = np.maximum(a * 0.6, np.maximum(by[:, None], bx[None, :]))
    add_lines(img, rng, a, col, rng.uniform(0.45, 0.85))


def ink_multiply(img, a, colour, density=1.0):
    img *= (1 - (a * density)[..., None] * (1 - np.asarray(colour, F32)))


def ink_over(img, a, colour):
    a3 = a[..., None]
    img *= (1 - a3)
    img += a3 * np.asarray(colour, F32)


# ----------------------------------------------------------------------------------------------
# Desk, objects
# ----------------------------------------------------------------------------------------------

def desk(rng, H, W, kind=None):
    kind = kind or ['wood', 'wood', 'darkwood', 'fabric', 'check', 'dark', 'light', 'stone'][rng.integers(8)]
    yy, xx = np.mgrid[0:H, 0:W].astype(F32)
    if kind in ('wood', 'darkwood'):
        th = rng.uniform(0, np.pi)
        u = xx * math.cos(th) + yy * math.sin(th)
        v = -xx * math.sin(th) + yy * math.cos(th)
        period = rng.uniform(0.02, 0.06) * max(H, W)
        warp = smooth_noise(rng, H, W, 4) * period * rng.uniform(0.3, 1.2)
        g = 0.5 + 0.5 * np.sin(2 * np.pi * (v + warp) / period)
        g = g ** rng.uniform(1.5, 4)
        streak = smooth_noise(rng, H, W, 60) * 0.5
        g = np.clip(g + 0.25 * streak, 0, 1)
        if kind == 'wood':
            c1, c2 = np.array([0.72, 0.52, 0.33]), np.array([0.55, 0.36, 0.2])
            c1 = c1 * rng.uniform(0.85, 1.15)
        else:
            c1, c2 = np.array([0.36, 0.22, 0.13]), np.array([0.22, 0.12, 0.07])
        img = c1[None, None] * (1 - g[..., None]) + c2[None, None] * g[..., None]
        plank = rng.uniform(0.25, 0.6) * max(H, W)
        pl = line_profile(int(v.max() - v.min()) + 2, plank, rng.uniform(0, plank), 2.0)
        img *= (1 - 0.5 * pl[(v - v.min()).astype(int)])[..., None]
    elif kind == 'fabric':
        p = rng.uniform(3, 7)
        weave = 0.5 + 0.25 * np.sin(2 * np.pi * xx / p) * np.sin(2 * np.pi * yy / p)
        col = np.array([[0.2, 0.3, 0.5], [0.45, 0.45, 0.48], [0.55, 0.2, 0.2], [0.3, 0.45, 0.3],
                        [0.75, 0.7, 0.6]][rng.integers(5)])
        img = col[None, None] * (0.8 + 0.3 * weave[..., None] + 0.05 * fine_noise(rng, H, W)[..., None])
    elif kind == 'check':
        p = rng.uniform(0.06, 0.14) * max(H, W)
        bx = ((xx // p) % 2).astype(F32)
        by = ((yy // p) % 2).astype(F32)
        col = np.array([[0.8, 0.15, 0.15], [0.2, 0.3, 0.7], [0.2, 0.5, 0.25]][rng.integers(3)])
        base = np.array([0.93, 0.92, 0.9])
        k = (bx + by)[..., None] / 2 * 0.8
        img = base[None, None] * (1 - k) + col[None, None] * k
        img = img * (1 + 0.04 * fine_noise(rng, H, W, 1.0)[..., None])
    elif kind == 'dark':
        c = rng.uniform(0.08, 0.2)
        img = np.full((H, W, 3), c, F32) * np.array([1, 1, rng.uniform(0.95, 1.1)], F32)
        img = img * (1 + 0.08 * fine_noise(rng, H, W, 0.8)[..., None])
    elif kind == 'stone':
        c = np.array([0.6, 0.58, 0.55]) * rng.uniform(0.6, 1.3)
        img = c[None, None] * (1 + 0.12 * fine_noise(rng, H, W, 1.5)[..., None]
                               + 0.1 * smooth_noise(rng, H, W, 12)[..., None])
    else:  # light laminate
        c = rng.uniform(0.72, 0.9)
        img = np.full((H, W, 3), c, F32) * np.array([1, rng.uniform(0.97, 1.0), rng.uniform(0.92, 1.0)], F32)
        img = img * (1 + 0.02 * fine_noise(rng, H, W, 0.8)[..., None])
    return np.clip(img, 0, 1).astype(F32)


def draw_pen(rng, img, avoid, rad):
    """A pen lying on the table, away from `avoid` (x, y) by `rad` px."""
    H, W = img.shape[:2]
    L = rng.uniform(0.4, 0.7) * max(H, W)
    wd = rng.uniform(0.02, 0.035) * max(H, W)
    for _ in range(20):
        th = rng.uniform(0, np.pi)
        cx, cy = rng.uniform(0, W), rng.uniform(0, H)
        ux, uy = math.cos(th), math.sin(th)
        ts = np.linspace(-L / 2, L / 2, 30)
        px, py = cx + ts * ux, cy + ts * uy
        dist = np.min(np.hypot(px - avoid[0], py - avoid[1]))
        if dist > rad + wd:
            break
    else:
        return
    s = 2
    m = Image.new('L', (W * s, H * s), 0)
    d = ImageDraw.Draw(m)
    p0 = ((cx - ux * L / 2) * s, (cy - uy * L / 2) * s)
    p1 = ((cx + ux * L / 2) * s, (cy + uy * L / 2) * s)
    d.line([p0, p1], fill=255, width=int(wd * s))
    r = wd * s / 2
    d.ellipse([p1[0] - r, p1[1] - r, p1[0] + r, p1[1] + r], fill=255)
    tip = Image.new('L', (W * s, H * s), 0)
    dt = ImageDraw.Draw(tip)
    q = (p0[0] - ux * wd * 1.6 * s, p0[1] - uy * wd * 1.6 * s)
    nx, ny = -uy * r, ux * r
    dt.polygon([(p0[0] + nx, p0[1] + ny), (p0[0] - nx, p0[1] - ny), q], fill=255)
    m = np.asarray(m.resize((W, H), Image.BOX), F32) / 255
    tip = np.asarray(tip.resize((W, H), Image.BOX), F32) / 255
    body = [(0.1, 0.2, 0.6), (0.1, 0.1, 0.1), (0.9, 0.9, 0.9), (0.75, 0.1, 0.1), (0.95, 0.8, 0.1)][rng.integers(5)]
    # cylindrical shading across the pen
    yy, xx = np.mgrid[0:H, 0:W].astype(F32)
    across = ((xx - cx) * -uy + (yy - cy) * ux) / (wd / 2)
    shade = np.clip(1.0 - 0.45 * across ** 2 + 0.35 * np.exp(-((across + 0.35) / 0.2) ** 2), 0.3, 1.4)
    col = np.asarray(body, F32)[None, None] * shade[..., None]
    # soft drop shadow
    sh = ndimage.gaussian_filter(np.roll(np.roll(m, int(wd * 0.4), 0), int(wd * 0.3), 1), wd * 0.3)
    img *= (1 - 0.35 * sh)[..., None]
    ink_over(img, m, (0, 0, 0))
    img += m[..., None] * np.clip(col, 0, 1)
    ink_over(img, tip, (0.75, 0.7, 0.6))


def draw_cup_ring(rng, img, avoid, rad):
    H, W = img.shape[:2]
    R = rng.uniform(0.08, 0.15) * max(H, W)
    for _ in range(20):
        cx, cy = rng.uniform(-0.1 * W, 1.1 * W), rng.uniform(-0.1 * H, 1.1 * H)
        if math.hypot(cx - avoid[0], cy - avoid[1]) > R + rad + 0.1 * R:
            break
    else:
        return
    yy, xx = np.mgrid[0:H, 0:W].astype(F32)
    r = np.hypot(xx - cx, yy - cy)
    ang = np.arctan2(yy - cy, xx - cx)
    w = R * rng.uniform(0.03, 0.08) * (1 + 0.8 * np.cos(ang - rng.uniform(0, 6.3)))
    a = np.exp(-((r - R) / np.maximum(w, 0.5)) ** 2) * rng.uniform(0.2, 0.45)
    a += (r < R) * rng.uniform(0.0, 0.06)
    ink_multiply(img, a.astype(F32), (0.55, 0.35, 0.2))


# ----------------------------------------------------------------------------------------------
# Geometry (camera view of a sheet)
# ----------------------------------------------------------------------------------------------

def homography(src, dst):
    A, b = [], []
    for (x, y), (u, v) in zip(src, dst):
        A.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        b.append(u)
        A.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        b.append(v)
    h = np.linalg.solve(np.array(A, float), np.array(b, float))
    return np.append(h, 1).reshape(3, 3)


def view(sheet, out_w, out_h, cx, cy, scale, angle=0.0, tx=0.0, ty=0.0, bg=None):
    """Photograph the sheet (float HxWx3, or with an alpha plane) with a camera looking at (cx, cy).
    Returns (frame float out_h x out_w x 3, H mapping frame -> sheet)."""
    hw, hh = out_w * scale / 2, out_h * scale / 2
    src = [(0, 0), (out_w, 0), (out_w, out_h), (0, out_h)]
    ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    dst = []
    for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        x = sx * hw * (1 - ty * sy)
        y = sy * hh * (1 - tx * sx) * (1 - 0.4 * ty * sy)
        x = x * (1 - 0.4 * tx * sx)
        dst.append((ca * x - sa * y + cx, sa * x + ca * y + cy))
    Hm = homography(src, dst)
    if scale > 1.6:  # pre-filter against aliasing
        sheet = ndimage.gaussian_filter(sheet, (0.45 * scale, 0.45 * scale, 0))
    has_alpha = sheet.shape[2] == 4
    u8 = (np.clip(sheet, 0, 1) * 255 + 0.5).astype(np.uint8)
    im = Image.fromarray(u8, 'RGBA' if has_alpha else 'RGB')
    fill = (0, 0, 0, 0) if has_alpha else tuple(int(v) for v in u8[u8.shape[0] // 2, 0])
    w = im.transform((out_w, out_h), Image.PERSPECTIVE, tuple(Hm.ravel()[:8]), Image.BICUBIC, fillcolor=fill)
    a = np.asarray(w, F32) / 255.0
    if has_alpha:
        fr = bg.copy() if bg is not None else np.full((out_h, out_w, 3), 0.5, F32)
        al = a[..., 3:4]
        # the sheet's soft contact shadow on the table
        sh = ndimage.gaussian_filter(al[..., 0], max(1.0, 0.006 * max(out_w, out_h)))
        sh = np.roll(np.roll(sh, 2, 0), 2, 1)
        fr *= (1 - 0.35 * sh)[..., None]
        fr = fr * (1 - al) + a[..., :3] * al
        return fr.astype(F32), Hm
    return a.astype(F32), Hm


def map_point(Hm, x, y):
    Hi = np.linalg.inv(Hm)
    v = Hi @ np.array([x, y, 1.0])
    return v[0] / v[2], v[1] / v[2]


# ----------------------------------------------------------------------------------------------
# Light model
# ----------------------------------------------------------------------------------------------

LAMP_CASTS = [(1.0, 1.0, 1.0), (1.0, 0.92, 0.78), (1.0, 0.85, 0.65), (0.9, 0.95, 1.05), (0.95, 1.0, 0.92),
              (1.0, 0.95, 0.9)]


def shadow_mask(rng, H, W, focus, dh, kind=None):
    """Soft shadow of a hand, a phone or a body edge, whose edge passes near focus."""
    s = 4
    w, h = W // s + 1, H // s + 1
    m = Image.new('L', (w, h), 0)
    d = ImageDraw.Draw(m)
    fx, fy = focus[0] / s, focus[1] / s
    kind = kind or ['hand', 'phone', 'edge', 'edge'][rng.integers(4)]
    th = rng.uniform(0, 2 * np.pi)
    ux, uy = math.cos(th), math.sin(th)
    off = rng.uniform(-0.35, 0.35) * dh / s
    ex, ey = fx + ux * off, fy + uy * off  # a point on the shadow edge
    big = 4 * max(w, h)
    if kind == 'edge':
        nx, ny = -uy, ux
        bend = rng.uniform(-0.3, 0.3)
        pts = [(ex + nx * big, ey + ny * big), (ex + (ux * bend) * big * 0.1, ey + (uy * bend) * big * 0.1),
               (ex - nx * big, ey - ny * big), (ex - nx * big - ux * big, ey - ny * big - uy * big),
               (ex + nx * big - ux * big, ey + ny * big - uy * big)]
        d.polygon(pts, fill=255)
    elif kind == 'phone':
        L, Wd = rng.uniform(1.0, 2.0) * max(w, h), rng.uniform(0.25, 0.45) * max(w, h)
        c0 = (ex - ux * L / 2, ey - uy * L / 2)
        nx, ny = -uy * Wd / 2, ux * Wd / 2
        pts = [(c0[0] + ux * L / 2 + nx, c0[1] + uy * L / 2 + ny), (c0[0] + ux * L / 2 - nx, c0[1] + uy * L / 2 - ny),
               (c0[0] - ux * L / 2 - nx, c0[1] - uy * L / 2 - ny), (c0[0] - ux * L / 2 + nx, c0[1] - uy * L / 2 + ny)]
        d.polygon(pts, fill=255)
    else:  # hand: palm beyond the edge point, fingers reaching across
        palm = (ex - ux * 0.35 * max(w, h), ey - uy * 0.35 * max(w, h))
        pr = 0.3 * max(w, h)
        d.ellipse([palm[0] - pr, palm[1] - pr, palm[0] + pr, palm[1] + pr], fill=255)
        fw = rng.uniform(0.05, 0.08) * max(w, h)
        nx, ny = -uy, ux
        for k in range(4):
            o = (k - 1.5) * fw * 1.25
            ln = rng.uniform(0.35, 0.5) * max(w, h)
            a0 = (palm[0] + nx * o, palm[1] + ny * o)
            a1 = (a0[0] + ux * ln, a0[1] + uy * ln)
            d.line([a0, a1], fill=255, width=int(fw))
            d.ellipse([a1[0] - fw / 2, a1[1] - fw / 2, a1[0] + fw / 2, a1[1] + fw / 2], fill=255)
    soft = rng.uniform(0.015, 0.07) * max(w, h)
    m = m.filter(ImageFilter.GaussianBlur(soft))
    return np.asarray(m.resize((W, H), Image.BILINEAR), F32) / 255.0


def lighting(rng, img, grad=0.15, vignette=0.15, cast=True, shadow=None, glare=0.0):
    H, W = img.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W].astype(F32)
    xn, yn = xx / max(W, 1) - 0.5, yy / max(H, 1) - 0.5
    th = rng.uniform(0, 2 * np.pi)
    f = 1 + rng.uniform(-grad, grad) * 2 * (xn * math.cos(th) + yn * math.sin(th))
    f *= 1 - rng.uniform(0, vignette) * (xn ** 2 + yn ** 2) * 2
    f *= 1 + 0.04 * smooth_noise(rng, H, W, 3) * grad * 4
    out = img * f[..., None]
    if shadow is not None:
        m, dark = shadow
        tint = np.array([0.92, 0.97, 1.08], F32)  # skylight fill in the shadow
        out = out * (1 - dark * m[..., None] * (2 - tint))
    if cast:
        c = np.asarray(LAMP_CASTS[rng.integers(len(LAMP_CASTS))], F32)
        out = out * c
    if glare > 0:
        gx, gy = rng.uniform(0.15, 0.85) * W, rng.uniform(0.1, 0.5) * H
        r = rng.uniform(0.15, 0.35) * max(W, H)
        g = np.exp(-(((xx - gx) / r) ** 2 + ((yy - gy) / (r * rng.uniform(0.4, 1.0))) ** 2))
        out = out + glare * g[..., None] * (1.05 - out)
    out *= rng.uniform(0.9, 1.12)
    return out.astype(F32)


# ----------------------------------------------------------------------------------------------
# Camera model and writers
# ----------------------------------------------------------------------------------------------

def camera(rng, img, blur=0.6, noise=0.015, motion=0.0, sharpen=True, gamma_jit=0.08):
    out = img
    if blur > 0:
        out = ndimage.gaussian_filter(out, (blur, blur, 0))
    if motion > 0.5:
        k = int(round(motion))
        th = rng.uniform(0, np.pi)
        ker = np.zeros((2 * k + 1, 2 * k + 1), F32)
        for t in np.linspace(-k, k, 4 * k + 1):
            ker[int(round(k + t * math.sin(th))), int(round(k + t * math.cos(th)))] = 1
        ker /= ker.sum()
        out = np.stack([ndimage.convolve(out[..., c], ker, mode='nearest') for c in range(3)], -1)
    if noise > 0:
        H, W = out.shape[:2]
        lum = fine_noise(rng, H, W, 0.5)[..., None]
        chroma = rng.standard_normal((H, W, 3)).astype(F32) * 0.5
        out = out + noise * np.sqrt(np.clip(out, 0.02, 1)) * (lum + chroma)
    out = np.clip(out, 0, 1) ** rng.uniform(1 - gamma_jit, 1 + gamma_jit)
    im = Image.fromarray((np.clip(out, 0, 1) * 255 + 0.5).astype(np.uint8), 'RGB')
    if sharpen and rng.random() < 0.5:
        im = im.filter(ImageFilter.UnsharpMask(radius=rng.uniform(0.8, 2.0), percent=int(rng.integers(40, 140)),
                                               threshold=2))
    return im


def exif_app1(orientation):
    tiff = (b'MM\x00\x2a' + struct.pack('>I', 8) + struct.pack('>H', 1)
            + struct.pack('>HHIHH', 0x0112, 3, 1, orientation, 0) + struct.pack('>I', 0))
    payload = b'Exif\x00\x00' + tiff
    return b'\xff\xe1' + struct.pack('>H', len(payload) + 2) + payload


def jpeg_bytes(im, quality, orientation=None, subsampling=None):
    buf = io.BytesIO()
    kw = {'quality': int(quality)}
    if subsampling is not None:
        kw['subsampling'] = subsampling
    im.save(buf, 'JPEG', **kw)
    data = buf.getvalue()
    if orientation:
        rest = data[2:]
        if rest[:2] == b'\xff\xe0':  # drop JFIF APP0: phones write Exif APP1 first
            n = struct.unpack('>H', rest[2:4])[0]
            rest = rest[2 + n:]
        data = b'\xff\xd8' + exif_app1(orientation) + rest
    return data


def rotate_for_exif(im, orientation):
    """Pixels as stored for a picture that displays upright after applying `orientation`."""
    if orientation == 3:
        return im.transpose(Image.ROTATE_180)
    if orientation == 6:
        return im.transpose(Image.ROTATE_90)
    if orientation == 8:
        return im.transpose(Image.ROTATE_270)
    return im


def save(rng, im, path_noext, fmt=None, quality=None, orientation=None):
    """Write as a phone (JPEG), a scanner or app (PNG).  Returns the file name."""
    if fmt is None:
        fmt = 'jpg' if rng.random() < 0.7 else 'png'
    if fmt == 'jpg':
        q = quality if quality is not None else int(rng.integers(70, 96))
        if im.mode not in ('RGB', 'L'):
            im = im.convert('RGB')
        if orientation:
            im = rotate_for_exif(im, orientation)
        data = jpeg_bytes(im, q, orientation, subsampling=int(rng.choice([0, 2, 2])))
        name = path_noext + '.jpg'
    else:
        buf = io.BytesIO()
        im.save(buf, 'PNG')
        data = buf.getvalue()
        name = path_noext + '.png'
    with open(name, 'wb') as f:
        f.write(data)
    return os.path.basename(name)


# ----------------------------------------------------------------------------------------------
# Pens
# ----------------------------------------------------------------------------------------------

INKS = {'blue': (0.12, 0.2, 0.62), 'black': (0.1, 0.1, 0.12), 'darkblue': (0.08, 0.1, 0.35),
        'red': (0.78, 0.12, 0.12), 'green': (0.1, 0.45, 0.2), 'purple': (0.4, 0.15, 0.55)}


def pen_for(rng, h, style=None):
    """Pen parameters for a digit of skeleton height h px."""
    style = style or ['ballpoint', 'gel', 'felt', 'marker', 'fineliner'][rng.integers(5)]
    if style == 'ballpoint':
        p = dict(width=max(1.0, h * rng.uniform(0.03, 0.06)), pressure=0.25, skip=rng.uniform(0, 0.5),
                 density=rng.uniform(0.7, 0.95))
    elif style == 'gel':
        p = dict(width=max(1.2, h * rng.uniform(0.05, 0.08)), pressure=0.15, density=rng.uniform(0.85, 1.0))
    elif style == 'felt':
        p = dict(width=max(1.5, h * rng.uniform(0.07, 0.12)), pressure=0.1, density=rng.uniform(0.85, 1.0),
                 skip=rng.uniform(0, 0.3))
    elif style == 'marker':
        p = dict(width=max(2.0, h * rng.uniform(0.11, 0.18)), pressure=0.08, density=rng.uniform(0.85, 1.0))
    else:
        p = dict(width=max(1.0, h * rng.uniform(0.035, 0.05)), pressure=0.05, density=rng.uniform(0.85, 1.0))
    p['wobble'] = rng.uniform(0.0, 0.015)
    p['style'] = style
    return p


def pick_ink(rng, choices=('blue', 'blue', 'black', 'black', 'darkblue', 'red', 'green', 'purple')):
    c = np.asarray(INKS[choices[rng.integers(len(choices))]], F32)
    return np.clip(c * rng.uniform(0.85, 1.15), 0, 1)


def hand_params(c, rng):
    if c['type'] in ('mnist', 'skel', 'segs'):
        c.setdefault('slant', rng.uniform(-0.12, 0.12))
        c.setdefault('aspect', rng.uniform(0.85, 1.2))
    return c


# ----------------------------------------------------------------------------------------------
# The generic "something written on a sheet, photographed" scene
# ----------------------------------------------------------------------------------------------

def out_size(rng, lo, hi, aspect_choices=(1.0, 0.75, 1.333, 0.5625, 1.0, 0.8)):
    L = int(rng.integers(lo, hi + 1))
    a = float(aspect_choices[rng.integers(len(aspect_choices))])
    if a >= 1:
        return L, max(16, int(round(L / a)))
    return max(16, int(round(L * a))), L


def sheet_scene(rng, content, *, paper_style='plain', paper_rgb=None, size=(300, 1000), frac=(0.3, 0.7),
                pen=None, ink=None, ink_mode='mul', angle=0.0, tilt=0.0, on_desk=False, shadow=False,
                light=0.15, cast=True, glare=0.0, blur=None, noise=None, motion=0.0, lines_over=False,
                sheet_frac=(0.45, 0.8), note=False, objects=False, aspects=None):
    """Returns (PIL RGB image). content may be None (nothing written)."""
    W, H = out_size(rng, size[0], size[1], aspects or (1.0, 0.75, 1.333, 0.5625, 1.0, 0.8))
    scale = rng.uniform(1.0, 1.35)
    f = rng.uniform(*frac)
    dh = f * H  # digit height in frame pixels
    if on_desk:
        sf = rng.uniform(*sheet_frac)
        if note:
            sw_f = sh_f = sf * min(W, H)
        else:
            sh_f = sf * H * rng.uniform(1.0, 1.5)
            sw_f = sh_f * rng.uniform(0.7, 1.05)
        SW, SH = int(sw_f * scale), int(sh_f * scale)
        dh = min(dh, 0.6 * sh_f)
    else:
        # the sheet must cover the whole view: bound the view's quad (see view()) on the sheet
        k = (1 + abs(tilt)) * (1 + 0.4 * abs(tilt))
        hx, hy = W * scale / 2 * k, H * scale / 2 * k
        ca, sa = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
        SW = int(2.08 * (hx * ca + hy * sa)) + 8
        SH = int(2.08 * (hx * sa + hy * ca)) + 8
    cw = 0.85
    if content is not None:  # the whole item stays in the picture
        hand_params(content, rng)
        cw = max(content_width(content), 0.3)
        room_w = 0.7 * sw_f if on_desk else 0.76 * W
        dh = min(dh, room_w / max(content_width(content), 0.3))
    hs = dh * scale  # digit height on the sheet
    # paper
    if paper_rgb is None:
        if note:
            paper_rgb = NOTE_COLOURS[rng.integers(len(NOTE_COLOURS))]
        else:
            paper_rgb = WHITE_PAPERS[rng.integers(len(WHITE_PAPERS))]
    sheet = paper(rng, SH, SW, paper_rgb)
    mm = hs / rng.uniform(7, 16)  # sheet px per mm (a written digit is 7-16 mm tall)
    # where the digit sits on the sheet
    if on_desk:
        dcx = SW / 2 + rng.uniform(-0.15, 0.15) * SW
        dcy = SH / 2 + rng.uniform(-0.15, 0.15) * SH
    else:
        room_x = max(0.0, (W * scale - hs * max(cw, 0.85) * 1.2) / 2) * 0.5
        room_y = max(0.0, (H * scale - hs * 1.2) / 2) * 0.5
        dcx = SW / 2 + rng.uniform(-room_x, room_x)
        dcy = SH / 2 + rng.uniform(-room_y, room_y)
    if paper_style == 'ruled':
        spacing = hs / rng.uniform(1.0, 2.0)
        mx = dcx - rng.uniform(-0.3, 2.5) * hs if rng.random() < 0.5 else None
        ruled(sheet, rng, spacing, mx)
    elif paper_style in ('squared', 'dotted', 'graph'):
        spacing = mm * rng.uniform(4, 6)
        squared(sheet, rng, spacing, paper_style)
    if content is not None:
        if pen is None:
            pen = pen_for(rng, hs)
        else:
            pen = dict(pen)
            if 'width_f' in pen:
                pen['width'] = max(pen.get('min_w', 0.8), hs * pen['width_f'])
            if 'grain_rel' in pen:  # chalk crumbles in grains that scale with the stick
                pen['grain_sigma'] = max(0.6, pen['grain_rel'] * pen['width'])
        a = draw_content(rng, hand_params(content, rng), SH, SW, dcx, dcy, hs, pen)
        if ink is None:
            ink = pick_ink(rng)
        if ink_mode == 'over':
            ink_over(sheet, a, ink)
        else:
            ink_multiply(sheet, a, ink)
    if note and on_desk:  # sticky-note curl: the glued top is flat, the bottom lifts
        g = np.linspace(0, 1, SH, dtype=F32) ** 3
        sheet *= (1 - rng.uniform(0.02, 0.12) * g)[:, None, None]
    # camera view
    if on_desk:
        bg = desk(rng, H, W)
        sheet = np.concatenate([sheet, np.ones((SH, SW, 1), F32)], 2)
        # frame centre in sheet coordinates: digit roughly central, sheet edges in view
        ccx = dcx + rng.uniform(-0.25, 0.25) * W * scale
        ccy = dcy + rng.uniform(-0.2, 0.2) * H * scale
        frame, Hm = view(sheet, W, H, ccx, ccy, scale, angle, tilt * rng.choice([-1, 1]),
                         tilt * rng.uniform(-1, 1), bg=bg)
    else:
        frame, Hm = view(sheet, W, H, SW / 2, SH / 2, scale, angle,
                         tilt * rng.uniform(-1, 1), tilt * rng.choice([-1, 1]))
    fx, fy = map_point(Hm, dcx, dcy)
    if objects:
        if rng.random() < 0.7:
            draw_pen(rng, frame, (fx, fy), dh * 1.2)
        if rng.random() < 0.6:
            draw_cup_ring(rng, frame, (fx, fy), dh * 0.9)
    sh = None
    if shadow:
        sh = (shadow_mask(rng, H, W, (fx, fy), dh), rng.uniform(0.3, 0.6))
    frame = lighting(rng, frame, grad=light, cast=cast, shadow=sh, glare=glare)
    if blur is None:
        blur = rng.uniform(0.0, 1.0) * max(1.0, max(W, H) / 500)
    if noise is None:
        noise = rng.uniform(0.005, 0.03)
    return camera(rng, frame, blur=blur, noise=noise, motion=motion)


# ----------------------------------------------------------------------------------------------
# Kinds
# ----------------------------------------------------------------------------------------------

def any_paper(rng):
    r = rng.random()
    if r < 0.45:
        return {'paper_style': 'plain'}
    if r < 0.6:
        return {'paper_style': 'ruled'}
    if r < 0.72:
        return {'paper_style': ['squared', 'dotted', 'graph'][rng.integers(3)]}
    if r < 0.85:
        return {'paper_style': 'plain', 'paper_rgb': NOTE_COLOURS[rng.integers(len(NOTE_COLOURS))]}
    return {'paper_style': 'plain', 'paper_rgb': WHITE_PAPERS[rng.integers(len(WHITE_PAPERS))]}


def k_shadow(rng, d):
    c = digit_content(rng, d, 0.2)
    p = any_paper(rng)
    return sheet_scene(rng, c, size=(200, 1000), frac=(0.3, 0.7), shadow=True, light=0.25, **p)


def k_desk(rng, d):
    c = digit_content(rng, d, 0.2)
    note = rng.random() < 0.45
    p = {} if note else any_paper(rng)
    p.pop('paper_rgb', None) if note else None
    return sheet_scene(rng, c, size=(320, 1100), frac=(0.22, 0.45), on_desk=True, note=note, objects=True,
                       angle=rng.uniform(-12, 12), tilt=rng.uniform(0, 0.12), light=0.2,
                       sheet_frac=(0.5, 0.85), **p)


def k_tight(rng, d):
    c = hand_params(digit_content(rng, d, 0.25), rng)
    h = int(rng.integers(24, 180))  # picture height
    mode = ['margin', 'touch', 'frame', 'paperedge', 'margin'][rng.integers(5)]
    # draw the digit large on a roomy sheet, then crop around its ink box
    dh = 240.0
    CS = 720
    base = WHITE_PAPERS[rng.integers(len(WHITE_PAPERS))] if rng.random() < 0.8 else \
        NOTE_COLOURS[rng.integers(len(NOTE_COLOURS))]
    big = paper(rng, CS, CS, base)
    pen = pen_for(rng, dh)
    a = draw_content(rng, c, CS, CS, CS / 2, CS / 2, dh, pen, angle=rng.uniform(-4, 4))
    ys, xs = np.nonzero(a > 0.25)
    by0, by1, bx0, bx1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    bh = by1 - by0
    if mode == 'touch':  # the ink touches one or two crop edges (never cut off)
        mt, mb = rng.choice([0.0, rng.uniform(0.0, 0.05)], 2)
        ml, mr = rng.choice([0.0, rng.uniform(0.0, 0.12)], 2)
    elif mode in ('frame', 'paperedge'):  # room for a border or an edge beside the ink
        mt, mb = rng.uniform(0.1, 0.25, 2)
        ml, mr = rng.uniform(0.12, 0.3, 2)
    else:
        mt, mb = rng.uniform(0.03, 0.18, 2)
        ml, mr = rng.uniform(0.05, 0.3, 2)
    y0, y1 = by0 - mt * bh, by1 + mb * bh
    x0, x1 = bx0 - ml * bh, bx1 + mr * bh
    if rng.random() < 0.3:  # square crop
        side = max(y1 - y0, x1 - x0)
        cxm, cym = (x0 + x1) / 2, (y0 + y1) / 2
        x0, x1, y0, y1 = cxm - side / 2, cxm + side / 2, cym - side / 2, cym + side / 2
    elif x1 - x0 < 0.5 * (y1 - y0):  # a "1" still gets a plausible crop width
        extra = 0.5 * (y1 - y0) - (x1 - x0)
        x0 -= extra / 2
        x1 += extra / 2
    x0, y0 = int(max(0, math.floor(x0))), int(max(0, math.floor(y0)))
    x1, y1 = int(min(CS, math.ceil(x1))), int(min(CS, math.ceil(y1)))
    img = big[y0:y1, x0:x1].copy()
    ink_multiply(img, a[y0:y1, x0:x1], pick_ink(rng))
    SH, SW = img.shape[:2]
    W = max(8, int(round(h * SW / SH)))
    room = [by0 - y0, y1 - by1, bx0 - x0, x1 - bx1]  # free paper above, below, left, right of the ink
    if mode == 'frame':  # a printed box or form border along one or two sides
        fa = np.zeros((SH, SW), F32)
        for side in rng.choice(4, size=int(rng.integers(1, 3)), replace=False):
            fw = max(1.5, min(rng.uniform(0.012, 0.03) * SH, 0.4 * room[side]))
            pos = rng.uniform(0.0, 0.45) * room[side]
            if side == 0:
                fa[:int(pos + fw), :] = 1; fa[:int(pos), :] = 0
            elif side == 1:
                fa[SH - int(pos + fw):, :] = 1; fa[SH - int(pos):, :] = 0
            elif side == 2:
                fa[:, :int(pos + fw)] = 1; fa[:, :int(pos)] = 0
            else:
                fa[:, SW - int(pos + fw):] = 1; fa[:, SW - int(pos):] = 0
        ink_multiply(img, fa, (0.15, 0.15, 0.2) if rng.random() < 0.6 else (0.4, 0.5, 0.8), 0.9)
    if mode == 'paperedge':  # the sheet's edge, with the table beyond it
        side = int(rng.integers(4))
        depth = int(rng.uniform(0.3, 0.75) * room[side])
        bgc = desk(rng, SH, SW)
        m = np.zeros((SH, SW), F32)
        if side == 0:
            m[:depth] = 1
        elif side == 1:
            m[SH - depth:] = 1
        elif side == 2:
            m[:, :depth] = 1
        else:
            m[:, SW - depth:] = 1
        m = ndimage.gaussian_filter(m, 1.0)
        img = img * (1 - m[..., None]) + bgc * m[..., None]
    img = lighting(rng, img, grad=0.1, cast=rng.random() < 0.5)
    im = Image.fromarray((np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)).resize((W, h), Image.BOX)
    fr = np.asarray(im, F32) / 255
    out = camera(rng, fr, blur=rng.uniform(0, 0.6), noise=rng.uniform(0.0, 0.02), sharpen=False)
    if rng.random() < 0.3:
        out = out.convert('L')
    return out


def k_thin(rng, d):
    c = digit_content(rng, d, 0.0)
    pen = dict(width_f=0.0, pressure=0.2, skip=rng.uniform(0.0, 0.4), density=rng.uniform(0.6, 1.0),
               wobble=rng.uniform(0, 0.02))
    # width 1-2 px at the picture's size: the sheet is rendered at `scale` px per picture px
    w_out = rng.uniform(1.0, 2.0)
    pen['width'] = w_out * 1.15
    ink = pick_ink(rng, ('blue', 'black', 'black', 'darkblue', 'blue'))
    p = any_paper(rng) if rng.random() < 0.6 else {'paper_style': 'plain'}
    return sheet_scene(rng, c, size=(90, 420), frac=(0.4, 0.8), pen=pen, ink=ink, light=0.12,
                       blur=rng.uniform(0.0, 0.5), noise=rng.uniform(0.003, 0.015), **p)


def k_pencil(rng, d):
    c = digit_content(rng, d, 0.0)
    dens = rng.uniform(0.45, 0.8)
    pen = dict(width_f=rng.uniform(0.025, 0.06), min_w=1.2, pressure=0.35, grain=rng.uniform(0.4, 0.85),
               density=dens, wobble=rng.uniform(0, 0.02))
    g = rng.uniform(0.2, 0.4)
    ink = (g, g, g * 1.03)
    base = [(0.96, 0.96, 0.95), (0.94, 0.93, 0.89), (0.95, 0.92, 0.84), (0.9, 0.9, 0.88)][rng.integers(4)]
    p = {'paper_style': ['plain', 'plain', 'plain', 'ruled', 'squared'][rng.integers(5)]}
    return sheet_scene(rng, c, paper_rgb=base, size=(150, 1000), frac=(0.3, 0.75), pen=pen, ink=ink,
                       light=0.15, **p)


def k_rotated(rng, d):
    c = digit_content(rng, d, 0.2)
    ang = rng.uniform(5, 20) * rng.choice([-1, 1])
    c['slant'] = rng.uniform(-0.06, 0.06)
    p = any_paper(rng)
    if rng.random() < 0.35:
        p.pop('paper_rgb', None)
        return sheet_scene(rng, c, size=(300, 1000), frac=(0.25, 0.45), on_desk=True, angle=ang,
                           tilt=rng.uniform(0.08, 0.3), sheet_frac=(0.7, 0.95), **p)
    return sheet_scene(rng, c, size=(150, 1000), frac=(0.3, 0.65), angle=ang, tilt=rng.uniform(0.05, 0.3), **p)


def k_colour(rng, d):
    sch = ['blue_yellow', 'red_green', 'green_pink', 'purple_blue', 'orange_blue', 'chalk', 'whiteboard',
           'whiteboard', 'chalk', 'blue_yellow'][rng.integers(10)]
    c = digit_content(rng, d, 0.0 if sch in ('chalk', 'whiteboard') else 0.2)
    if sch == 'chalk':
        board = [(0.16, 0.24, 0.2), (0.12, 0.13, 0.14), (0.1, 0.2, 0.16)][rng.integers(3)]
        chalk = [(0.93, 0.93, 0.9), (0.95, 0.9, 0.55), (0.95, 0.7, 0.75)][rng.integers(3)] \
            if rng.random() < 0.4 else (0.93, 0.93, 0.9)
        pen = dict(width_f=rng.uniform(0.06, 0.1), pressure=0.2, grain=rng.uniform(0.3, 0.6),
                   density=rng.uniform(0.7, 0.95), skip=0.4, wobble=0.015, grain_rel=rng.uniform(0.03, 0.08))
        return sheet_scene(rng, c, paper_rgb=board, size=(200, 1000), frac=(0.3, 0.65), pen=pen, ink=chalk,
                           ink_mode='over', light=0.25, cast=True)
    if sch == 'whiteboard':
        pen = dict(width_f=rng.uniform(0.08, 0.14), pressure=0.05, density=rng.uniform(0.8, 1.0),
                   skip=rng.uniform(0, 0.4), wobble=0.01)
        ink = pick_ink(rng, ('black', 'blue', 'red', 'green'))
        return sheet_scene(rng, c, paper_rgb=(0.93, 0.94, 0.95), size=(200, 1000), frac=(0.3, 0.6), pen=pen,
                           ink=ink, light=0.2, glare=rng.uniform(0.35, 0.8))
    papers = {'blue_yellow': ((0.99, 0.92, 0.4), 'blue'), 'red_green': ((0.7, 0.9, 0.68), 'red'),
              'green_pink': ((0.98, 0.75, 0.82), 'green'), 'purple_blue': ((0.65, 0.82, 0.97), 'purple'),
              'orange_blue': ((0.55, 0.7, 0.95), 'black')}
    prgb, inkname = papers[sch]
    ink = np.asarray(INKS[inkname], F32) if sch != 'orange_blue' else np.array([0.85, 0.35, 0.05], F32)
    return sheet_scene(rng, c, paper_rgb=prgb, size=(150, 1000), frac=(0.3, 0.7), ink=ink, light=0.2)


def k_jpeg(rng, d):
    c = digit_content(rng, d, 0.25)
    p = any_paper(rng)
    return sheet_scene(rng, c, size=(40, 320), frac=(0.35, 0.8), noise=rng.uniform(0.02, 0.06),
                       blur=rng.uniform(0.2, 1.0), angle=rng.uniform(-5, 5), **p)


def k_ruled(rng, d):
    c = digit_content(rng, d, 0.05)
    base = WHITE_PAPERS[rng.integers(len(WHITE_PAPERS))] if rng.random() < 0.8 else (0.97, 0.95, 0.8)
    return sheet_scene(rng, c, paper_style='ruled', paper_rgb=base, size=(150, 1000), frac=(0.25, 0.55),
                       angle=rng.uniform(-4, 4))


def k_squared(rng, d):
    c = digit_content(rng, d, 0.05)
    st = ['squared', 'squared', 'graph', 'dotted'][rng.integers(4)]
    return sheet_scene(rng, c, paper_style=st, size=(150, 1000), frac=(0.25, 0.6), angle=rng.uniform(-4, 4))


def k_transparent(rng, d, content=None):
    c = content or digit_content(rng, d, 0.0)
    c = hand_params(c, rng)
    W, H = out_size(rng, 200, 1000, (1.0, 1.0, 0.75, 1.333, 0.5625))
    h = min(rng.uniform(0.4, 0.8) * H, 0.8 * W / max(content_width(c), 0.3))
    finger = rng.random() < 0.5
    pen = dict(width=max(2.0, h * (rng.uniform(0.08, 0.16) if finger else rng.uniform(0.025, 0.06))),
               pressure=0.0 if rng.random() < 0.6 else 0.15, wobble=rng.uniform(0.0, 0.03) if finger else 0.0)
    if not finger:  # a mouse: jerky, slightly polygonal strokes
        pen['wobble'] = rng.uniform(0.005, 0.02)
    cx = W / 2 + rng.uniform(-0.15, 0.15) * (W - h * 0.7)
    cy = H / 2 + rng.uniform(-0.15, 0.15) * (H - h)
    a = draw_content(rng, c, H, W, cx, cy, h, pen)
    r = rng.random()
    if r < 0.4:
        col = (255, 255, 255)
    elif r < 0.8:
        col = (0, 0, 0)
    else:
        col = tuple(int(v) for v in rng.integers(0, 256, 3))
    arr = np.zeros((H, W, 4), np.uint8)
    arr[..., :3] = col
    arr[..., 3] = (np.clip(a, 0, 1) * 255 + 0.5).astype(np.uint8)
    return Image.fromarray(arr, 'RGBA')


def k_printed(rng, d, text=None):
    text = text if text is not None else str(d)
    fpath = PRINT_FONTS[rng.integers(len(PRINT_FONTS))]
    c = {'type': 'font', 'text': text, 'font': fpath, 'stroke': float(rng.choice([0, 0, 0, 0.015, 0.03]))}
    ink = np.array([0.08, 0.08, 0.1], F32) * rng.uniform(0.6, 2.5) if rng.random() < 0.85 else pick_ink(rng)
    if rng.random() < 0.35:  # a flatbed scan: flat light, slight skew, PNG or greyscale
        im = sheet_scene(rng, c, size=(80, 900), frac=(0.25, 0.7), ink=ink, light=0.03, cast=False,
                         angle=rng.uniform(-2, 2), blur=rng.uniform(0.2, 1.0), noise=rng.uniform(0.002, 0.01))
        return im.convert('L') if rng.random() < 0.5 else im
    p = any_paper(rng) if rng.random() < 0.4 else {'paper_style': 'plain'}
    return sheet_scene(rng, c, size=(60, 1000), frac=(0.25, 0.75), ink=ink, light=0.18,
                       angle=rng.uniform(-6, 6), tilt=rng.uniform(0, 0.15), blur=rng.uniform(0, 2.0), **p)


# ---------------------------------------------------------------- meters

def meter_image(rng, d, blank=False):
    """Returns (PIL image, label) for one digit window of a utility meter."""
    typ = ['drum', 'drum', 'lcd', 'led'][rng.integers(4)]
    out_w = int(rng.integers(20, 91))
    s = 4  # render at 4x
    label = d
    if typ == 'drum':
        ar = rng.uniform(1.2, 1.7)  # window height / width
        out_h = int(round(out_w * ar))
        W, H = out_w * s, out_h * s
        white_on_black = rng.random() < 0.6
        face = np.array([0.08, 0.08, 0.09]) if white_on_black else np.array([0.9, 0.89, 0.85])
        fg = np.array([0.92, 0.92, 0.9]) if white_on_black else np.array([0.07, 0.07, 0.08])
        if rng.random() < 0.25:  # red drums for the decimals
            face = np.array([0.7, 0.1, 0.1]) if white_on_black else face
        img = np.empty((H, W, 3), F32)
        img[:] = face
        img *= (1 + 0.05 * fine_noise(rng, H, W, 1.5))[..., None]
        # window: the visible drum area inside a frame
        fx = int(rng.uniform(0.04, 0.18) * W)
        fy = int(rng.uniform(0.03, 0.15) * H)
        wh = H - 2 * fy
        dh = wh * rng.uniform(0.6, 0.78)
        pitch = dh * rng.uniform(1.3, 1.6)
        fpath = DRUM_FONTS[rng.integers(len(DRUM_FONTS))]
        roll = 0.0
        if not blank and rng.random() < 0.4:
            roll = rng.uniform(0.08, 0.22) * rng.choice([-1, 1])  # dominant digit still clearly in view
        cy = H / 2 - roll * pitch
        a = np.zeros((H, W), F32)
        if not blank:
            for k in (-1, 0, 1):
                np.maximum(a, text_alpha(str((d + k) % 10), fpath, H, W, W / 2, cy + k * pitch, dh), out=a)
            # the drum's curvature squeezes digits away from the window centre
            yy = np.arange(H, dtype=F32)
            t = (yy - H / 2) / (H / 2)
            half = rng.uniform(0.6, 1.0)  # half the drum's arc seen through the window, in radians
            src = H / 2 + np.arcsin(t * math.sin(half)) / half * (H / 2)
            a = ndimage.map_coordinates(a, [np.repeat(src[:, None], W, 1),
                                            np.repeat(np.arange(W, dtype=F32)[None], H, 0)], order=1)
        ink_over(img, a, fg)
        # cylinder shading
        t = (np.arange(H, dtype=F32) - H / 2) / (H / 2)
        img *= (1 - rng.uniform(0.2, 0.6) * t ** 2)[:, None, None]
        frame_col = np.array([[0.1, 0.1, 0.1], [0.85, 0.85, 0.82], [0.3, 0.3, 0.32], [0.6, 0.55, 0.45]][rng.integers(4)])
        fm = np.zeros((H, W), F32)
        fm[:fy] = 1; fm[H - fy:] = 1; fm[:, :fx] = 1; fm[:, W - fx:] = 1
        fm = ndimage.gaussian_filter(fm, 1.5)
        fr = frame_col[None, None] * (1 + 0.06 * fine_noise(rng, H, W, 2)[..., None])
        # inner edge shadow of the frame on the drum
        inner = ndimage.gaussian_filter(fm, 4) * (1 - fm)
        img *= (1 - 0.5 * inner)[..., None]
        img = img * (1 - fm[..., None]) + fr * fm[..., None]
    elif typ == 'lcd':
        ar = rng.uniform(1.3, 1.9)
        out_h = int(round(out_w * ar))
        W, H = out_w * s, out_h * s
        bgc = np.array([[0.62, 0.68, 0.58], [0.7, 0.74, 0.66], [0.55, 0.62, 0.55], [0.66, 0.68, 0.66]][rng.integers(4)])
        img = np.empty((H, W, 3), F32)
        img[:] = bgc
        img *= (1 + 0.02 * fine_noise(rng, H, W, 2))[..., None]
        fpath = SEG_FONTS[rng.integers(len(SEG_FONTS))]
        dh = H * rng.uniform(0.6, 0.8)
        cx, cy = W / 2 + rng.uniform(-0.04, 0.04) * W, H / 2 + rng.uniform(-0.04, 0.04) * H
        if not blank:
            ghost = text_alpha('8', fpath, H, W, cx, cy, dh)
            ink_multiply(img, ghost, (0.2, 0.22, 0.2), rng.uniform(0.02, 0.06))
            a = text_alpha(str(d), fpath, H, W, cx, cy, dh)
            # segments cast a faint shadow on the reflector behind the liquid crystal
            sh = np.roll(np.roll(ndimage.gaussian_filter(a, 2), int(s * 1.5), 0), int(s * 1.5), 1)
            ink_multiply(img, sh, (0.3, 0.33, 0.3), 0.35)
            ink_multiply(img, a, (0.12, 0.14, 0.12), rng.uniform(0.8, 0.95))
        fw = int(rng.uniform(0.0, 0.08) * W)
        if fw > 0:
            img[:, :fw] *= 0.4
            img[:, W - fw:] *= 0.4
    else:  # led
        ar = rng.uniform(1.3, 1.8)
        out_h = int(round(out_w * ar))
        W, H = out_w * s, out_h * s
        col = np.array([1.0, 0.12, 0.08]) if rng.random() < 0.6 else np.array([0.2, 1.0, 0.3])
        img = np.empty((H, W, 3), F32)
        img[:] = rng.uniform(0.03, 0.12)
        img *= (1 + 0.1 * fine_noise(rng, H, W, 2))[..., None]
        fpath = SEG_FONTS[rng.integers(len(SEG_FONTS))]
        dh = H * rng.uniform(0.62, 0.8)
        cx, cy = W / 2, H / 2
        if not blank:  # unlit segments glimmer; left out of blanks, where they would read as an 8
            ghost = text_alpha('8', fpath, H, W, cx, cy, dh)
            img += (ghost * rng.uniform(0.02, 0.06))[..., None] * col
        if not blank:
            a = text_alpha(str(d), fpath, H, W, cx, cy, dh)
            glow = ndimage.gaussian_filter(a, rng.uniform(3, 8))
            img += (a * rng.uniform(0.8, 1.2))[..., None] * col + (glow * 0.6)[..., None] * col
            img += (np.clip(a - 0.6, 0, 1) * rng.uniform(0.2, 0.9))[..., None]  # sensor saturation
    # ESP32-cam: uneven light, blur, low resolution, noise, pinkish/greenish sensor cast
    img = lighting(rng, img, grad=0.3, vignette=0.3, cast=False)
    img = img * np.array([rng.uniform(0.9, 1.1), rng.uniform(0.9, 1.05), rng.uniform(0.9, 1.1)], F32)
    if rng.random() < 0.4:
        ang = rng.uniform(-4, 4)
        im = Image.fromarray((np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)).rotate(ang, Image.BICUBIC,
                                                                                          fillcolor=(20, 20, 20))
        img = np.asarray(im, F32) / 255
    img = ndimage.gaussian_filter(img, (rng.uniform(1, 5), rng.uniform(1, 5), 0))
    im = Image.fromarray((np.clip(img, 0, 1) * 255 + 0.5).astype(np.uint8)).resize((out_w, out_h), Image.BILINEAR)
    fr = np.asarray(im, F32) / 255
    out = camera(rng, fr, blur=rng.uniform(0.0, 0.5), noise=rng.uniform(0.01, 0.05), sharpen=False)
    return out, label


def k_meter(rng, d):
    return meter_image(rng, d)[0]


# ---------------------------------------------------------------- non-digit kinds

def k_blank(rng, _):
    r = rng.random()
    if r < 0.12:
        return meter_image(rng, 0, blank=True)[0]
    if r < 0.22:  # whiteboard or blackboard
        if rng.random() < 0.5:
            return sheet_scene(rng, None, paper_rgb=(0.93, 0.94, 0.95), size=(150, 1000), glare=rng.uniform(0.3, 0.8))
        return sheet_scene(rng, None, paper_rgb=[(0.16, 0.24, 0.2), (0.12, 0.13, 0.14)][rng.integers(2)],
                           size=(150, 1000))
    if r < 0.45:
        note = rng.random() < 0.4
        p = {} if note else any_paper(rng)
        p.pop('paper_rgb', None)
        return sheet_scene(rng, None, size=(200, 1100), frac=(0.25, 0.4), on_desk=True, note=note,
                           objects=rng.random() < 0.4, angle=rng.uniform(-15, 15), tilt=rng.uniform(0, 0.2), **p)
    if r < 0.52:  # desk only
        W, H = out_size(rng, 200, 1000)
        fr = lighting(rng, desk(rng, H, W), grad=0.2)
        return camera(rng, fr, blur=rng.uniform(0, 1.5), noise=rng.uniform(0.005, 0.03))
    if r < 0.62:  # small crops of paper texture
        return sheet_scene(rng, None, size=(20, 120), frac=(0.5, 0.8), **any_paper(rng))
    p = any_paper(rng)
    return sheet_scene(rng, None, size=(100, 1100), frac=(0.3, 0.6), shadow=rng.random() < 0.5, light=0.25,
                       angle=rng.uniform(-10, 10), tilt=rng.uniform(0, 0.2), **p)


def reject_scene(rng, c, printed=False):
    """Letters, symbols, scribbles on the same papers and through the same cameras as digits."""
    r = rng.random()
    ink = None
    if printed:
        ink = np.array([0.08, 0.08, 0.1], F32) * rng.uniform(0.6, 2.5) if rng.random() < 0.8 else pick_ink(rng)
    if r < 0.1:
        return k_transparent(rng, 0, content=c) if c['type'] != 'font' else \
            sheet_scene(rng, c, size=(100, 800), frac=(0.3, 0.65), ink=ink)
    if r < 0.2:
        pen = dict(width_f=rng.uniform(0.06, 0.1), pressure=0.2, grain=rng.uniform(0.3, 0.6),
                   density=0.9, skip=0.4, wobble=0.01, grain_rel=rng.uniform(0.03, 0.08))
        return sheet_scene(rng, c, paper_rgb=(0.14, 0.2, 0.17), size=(150, 1000), frac=(0.3, 0.6),
                           pen=pen, ink=(0.92, 0.92, 0.9), ink_mode='over')
    if r < 0.3:
        pen = dict(width_f=rng.uniform(0.03, 0.07), min_w=1.2, pressure=0.35, grain=rng.uniform(0.4, 0.8),
                   density=rng.uniform(0.35, 0.65), wobble=0.01)
        g = rng.uniform(0.2, 0.4)
        return sheet_scene(rng, c, size=(100, 1000), frac=(0.3, 0.7), pen=pen, ink=(g, g, g))
    if r < 0.45:
        note = rng.random() < 0.5
        p = {} if note else any_paper(rng)
        p.pop('paper_rgb', None)
        return sheet_scene(rng, c, size=(300, 1000), frac=(0.22, 0.45), on_desk=True, note=note, objects=True,
                           angle=rng.uniform(-12, 12), tilt=rng.uniform(0, 0.15), ink=ink, **p)
    if r < 0.55:
        return sheet_scene(rng, c, size=(40, 300), frac=(0.4, 0.8), noise=rng.uniform(0.02, 0.05), ink=ink,
                           **any_paper(rng))
    return sheet_scene(rng, c, size=(100, 1000), frac=(0.3, 0.7), shadow=rng.random() < 0.3, ink=ink,
                       angle=rng.uniform(-10, 10), tilt=rng.uniform(0, 0.2), **any_paper(rng))


def k_letter(rng, _):
    ch = LETTERS[rng.integers(len(LETTERS))]
    if rng.random() < 0.6:  # handwritten style: the letter's skeleton re-inked by the pen model
        c = {'type': 'skel', 'text': ch, 'font': SKEL_FONTS[rng.integers(len(SKEL_FONTS))]}
        return reject_scene(rng, c)
    c = {'type': 'font', 'text': ch, 'font': PRINT_FONTS[rng.integers(len(PRINT_FONTS))]}
    return reject_scene(rng, c, printed=True)


def k_symbol(rng, _):
    r = rng.random()
    if r < 0.35:  # two or three digits side by side
        n = int(rng.integers(2, 4))
        ds = [int(v) for v in rng.integers(0, 10, n)]
        if rng.random() < 0.6:
            parts = [{'type': 'mnist', 'idx': pick_mnist(rng, v), 'aspect': rng.uniform(0.85, 1.1),
                      'slant': 0.0, 'scale': rng.uniform(0.9, 1.1), 'dy': rng.uniform(-0.06, 0.06)} for v in ds]
            c = {'type': 'multi', 'parts': parts, 'gap': rng.uniform(0.1, 0.35)}
            return reject_scene(rng, c)
        c = {'type': 'font', 'text': ''.join(map(str, ds)), 'font': PRINT_FONTS[rng.integers(len(PRINT_FONTS))]}
        return reject_scene(rng, c, printed=True)
    ch = SYMBOLS[rng.integers(len(SYMBOLS))]
    if rng.random() < 0.55:
        c = {'type': 'skel', 'text': ch, 'font': SKEL_FONTS[rng.integers(len(SKEL_FONTS))]}
        return reject_scene(rng, c)
    c = {'type': 'font', 'text': ch, 'font': PRINT_FONTS[rng.integers(len(PRINT_FONTS))]}
    return reject_scene(rng, c, printed=True)


def scribble_lines(rng):
    kind = ['scribble', 'hatch', 'spiral', 'checker', 'smiley', 'star', 'crossout', 'scribble', 'zigzag'][rng.integers(9)]
    L = []
    if kind == 'scribble':  # a tangle: a smooth random walk with many loops, never a lone curve
        for _ in range(12):
            n = int(rng.integers(250, 500))
            ang = np.cumsum(rng.normal(0, 0.45, n) + rng.uniform(-0.25, 0.25))
            p = np.cumsum(np.stack([np.cos(ang), np.sin(ang)], 1), 0)
            p -= (p.max(0) + p.min(0)) / 2
            p = p / np.maximum(np.abs(p).max(0), 1e-6)  # a compact tangle, not a long wavy line
            length = np.hypot(*np.diff(p, axis=0).T).sum()
            turns = abs(ang[-1] - ang[0]) / (2 * np.pi)
            if length >= 14 and turns >= 2:
                break
        p[:, 0] *= rng.uniform(0.8, 1.6)
        L.append(p)
    elif kind == 'hatch':
        n = int(rng.integers(6, 14))
        th = rng.uniform(0, np.pi)
        for k in range(n):
            o = (k / (n - 1) - 0.5) * 1.0
            a = np.array([-0.5, o]) + rng.normal(0, 0.03, 2)
            b = np.array([0.5, o]) + rng.normal(0, 0.03, 2)
            R = np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]])
            L.append(np.stack([R @ a, R @ b]))
        if rng.random() < 0.5:  # cross-hatch
            th2 = th + rng.uniform(0.8, 1.6)
            R = np.array([[math.cos(th2), -math.sin(th2)], [math.sin(th2), math.cos(th2)]])
            for k in range(n):
                o = (k / (n - 1) - 0.5)
                L.append(np.stack([R @ np.array([-0.5, o]), R @ np.array([0.5, o])]))
    elif kind == 'spiral':
        turns = rng.uniform(2.5, 4.5)
        t = np.linspace(0, turns * 2 * np.pi, 400)
        r = 0.05 + t / t.max()
        L.append(np.stack([r * np.cos(t), r * np.sin(t) * rng.uniform(0.8, 1.1)], 1) * rng.choice([-1, 1]))
    elif kind == 'checker':
        n = int(rng.integers(3, 6))
        for i in range(n):
            for j in range(n):
                x0, y0 = i / n, j / n
                L.append(np.array([[x0, y0], [x0 + 1 / n, y0], [x0 + 1 / n, y0 + 1 / n], [x0, y0 + 1 / n], [x0, y0]]))
                if (i + j) % 2 == 0:
                    for k in range(7):
                        yk = y0 + (k + 0.5) / 7 / n
                        L.append(np.array([[x0, yk], [x0 + 1 / n, yk]]))
    elif kind == 'smiley':
        t = np.linspace(0, 2 * np.pi, 120)
        L.append(np.stack([np.cos(t), np.sin(t)], 1))
        for ex in (-0.35, 0.35):
            t2 = np.linspace(0, 2 * np.pi, 20)
            L.append(np.stack([ex + 0.08 * np.cos(t2), -0.3 + 0.12 * np.sin(t2)], 1))
        t3 = np.linspace(0.2 * np.pi, 0.8 * np.pi, 40)
        L.append(np.stack([0.55 * np.cos(t3), 0.1 + 0.45 * np.sin(t3)], 1))
    elif kind == 'star':
        k = int(rng.choice([5, 5, 6, 7]))
        if k == 6:
            t = np.linspace(0, 2 * np.pi, 4)[:4] - np.pi / 2
            L.append(np.stack([np.cos(t), np.sin(t)], 1))
            L.append(np.stack([np.cos(t + np.pi), np.sin(t + np.pi)], 1))
        else:
            step = 2 if k == 5 else 3
            idx = (np.arange(k + 1) * step) % k
            t = idx * 2 * np.pi / k - np.pi / 2
            L.append(np.stack([np.cos(t), np.sin(t)], 1))
    elif kind == 'crossout':  # a few written-looking waves, struck through with a zigzag
        for row in range(int(rng.integers(1, 3))):
            x = np.linspace(-1, 1, 80)
            L.append(np.stack([x, row * 0.5 + 0.12 * np.sin(x * rng.uniform(8, 14))], 1))
        n = int(rng.integers(4, 8))
        xs = np.linspace(-1.05, 1.05, 2 * n)
        ys = np.where(np.arange(2 * n) % 2 == 0, -0.25, 0.25 + 0.5 * (row > 0))
        L.append(np.stack([xs, ys], 1))
    else:  # zigzag / sawtooth
        n = int(rng.integers(5, 10))
        xs = np.linspace(-1, 1, n)
        ys = np.where(np.arange(n) % 2 == 0, -0.4, 0.4) + rng.normal(0, 0.05, n)
        L.append(np.stack([xs, ys], 1))
        if rng.random() < 0.5:
            L.append(np.stack([xs, ys + 0.4], 1))
    return L


def k_scribble(rng, _):
    segs = polyline_segs(scribble_lines(rng))
    c = {'type': 'segs', 'segs': segs, 'slant': 0.0, 'aspect': 1.0, 'pen_scale': rng.uniform(0.35, 0.7)}
    return reject_scene(rng, c)


KIND_FUN = {'shadow': k_shadow, 'desk': k_desk, 'tight': k_tight, 'thin': k_thin, 'pencil': k_pencil,
            'rotated': k_rotated, 'colour': k_colour, 'jpeg': k_jpeg, 'ruled': k_ruled, 'squared': k_squared,
            'transparent': k_transparent, 'meter': k_meter, 'printed': k_printed, 'blank': k_blank,
            'letter': k_letter, 'symbol': k_symbol, 'scribble': k_scribble}


def make_one(kind, seed, i, outdir):
    # Seed rule: every picture has its own generator seeded by (seed, kind's index in KINDS, i), so a
    # picture does not depend on --kinds or --per-kind.
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), KINDS.index(kind), int(i)]))
    base = os.path.join(outdir, '%s_%04d' % (kind, i))
    if kind in DIGIT_KINDS:
        d = i % 10
        expect = str(d)
    else:
        d = 0
        expect = 'none' if kind == 'blank' else 'reject'
    im = KIND_FUN[kind](rng, d)
    if kind == 'transparent' or im.mode == 'RGBA':
        name = save(rng, im, base, fmt='png')
    elif kind == 'jpeg':
        orient = [None, None, 3, 6, 8][rng.integers(5)]
        name = save(rng, im, base, fmt='jpg', quality=int(rng.integers(10, 41)), orientation=orient)
    elif kind == 'meter':
        name = save(rng, im, base, fmt='jpg' if rng.random() < 0.5 else 'png', quality=int(rng.integers(55, 92)))
    elif kind == 'tight':
        name = save(rng, im, base, fmt='png' if rng.random() < 0.6 else 'jpg')
    else:
        name = save(rng, im, base)
    return name, expect


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', required=True)
    ap.add_argument('--seed', type=int, required=True)
    ap.add_argument('--per-kind', type=int, default=40)
    ap.add_argument('--kinds', default=','.join(KINDS))
    a = ap.parse_args(argv)
    kinds = [k.strip() for k in a.kinds.split(',') if k.strip()]
    for k in kinds:
        if k not in KIND_FUN:
            ap.error('unknown kind %r (known: %s)' % (k, ','.join(KINDS)))
    os.makedirs(a.out, exist_ok=True)
    rows = []
    for k in kinds:
        for i in range(a.per_kind):
            name, expect = make_one(k, a.seed, i, a.out)
            rows.append((name, k, expect))
    with open(os.path.join(a.out, 'labels.tsv'), 'w', newline='\n') as f:
        f.write('file\tkind\texpect\n')
        for r in rows:
            f.write('\t'.join(r) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
