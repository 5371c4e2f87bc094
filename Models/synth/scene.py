"""One domain-randomized training scene: a photo-like grey picture and the
subject's ink coverage.

A scene is composed in colour on a canvas at twice the output resolution
(paper or desk or meter, clutter, the subject's ink), turned to grey, seen
through a rotated and slightly perspective camera frame (the picture and the
mask through the same transform), area-averaged to the output size, lit
(shadows, vignetting, glare) and degraded (blur, low resolution, noise,
JPEG). The mask is the ink's coverage of each output pixel before light and
camera; rules, frames, shadows, clutter and a 7-segment display's unlit
segments are never in it. About 12% of scenes are blank (label -1).
"""

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

import camera
import desk_objects
import glyphs
import light
import number_marks
import paper
import pen

FACTOR = 2  # canvas pixels per output pixel
LAYOUTS = {"centred": 0.28, "corner": 0.12, "tight": 0.20, "desk": 0.16, "wheel": 0.06, "lcd": 0.06}
BLANK_SHARE = 0.12
# Scenes with a pencil or pen lying across (desk_objects), when `pencils` is on (make_set.py
# --pencils, since 0.20.0): most desks, a few others. Off, no random number is drawn for them,
# so the scenes of a seed are those of the generator before them.
pencils = False
# This share of digit glyphs (MNIST, fonts, pens) gets a minus before it or a decimal point after
# it, in the mask (number_marks): a short dash beside a digit stays ink. make_set.py --marks sets
# it; at 0 no random number is drawn for it, so a seed's scenes are those of the generator before.
mark_share = 0.0
# This share of counter-wheel scenes is cropped to one wheel's window (make_set.py --windows;
# tried after 0.24.3, docs/accuracy.md): the window fills most of the picture and the plate
# around it, light or dark, shows only as a margin, a rim cut by the frame or the next window's
# edge; drums dark, cream or red (the decimal wheels of water and gas meters). At 0 no random
# number is drawn for it, so a seed's scenes are those of the generator before.
window_share = 0.0
PENCIL_SHARES = {"desk": 0.45, "wheel": 0.0, "window": 0.0, "lcd": 0.0}
PENCIL_SHARE = 0.08
MIN_CONTRAST = 0.15
MIN_HEIGHT = 8  # output pixels


def choose(rng, shares):
    keys = list(shares)
    p = np.array([shares[k] for k in keys], np.float64)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


def polygon_coverage(size, points, blur=0.0):
    img = Image.new("L", size, 0)
    ImageDraw.Draw(img).polygon([tuple(p) for p in points], fill=255)
    if blur:
        img = img.filter(ImageFilter.GaussianBlur(blur))
    return np.asarray(img, np.float32) / 255


def rectangle(cx, cy, w, h, angle=0.0):
    c, s = np.cos(angle), np.sin(angle)
    return [(cx + c * x - s * y, cy + s * x + c * y) for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]


def frame_size(rng, layout, aspect_of_glyph, side):
    """(width, height) of the output, max side == `side`; aspect from 1:2 to 2:1."""
    if layout == "tight":
        aspect = aspect_of_glyph * rng.uniform(0.85, 1.5)
    elif layout == "wheel":
        aspect = rng.uniform(0.6, 1.1) if rng.random() < 0.6 else rng.uniform(1.3, 2.0)
    elif layout == "window":
        aspect = aspect_of_glyph * rng.uniform(1.0, 1.6)
    elif layout == "lcd":
        aspect = rng.uniform(0.8, 2.0)
    else:
        aspect = np.exp(np.clip(rng.normal(0, 0.25), -0.69, 0.69))
    aspect = float(np.clip(aspect, 0.5, 2.0))
    if aspect >= 1:
        return side, max(1, int(round(side / aspect)))
    return max(1, int(round(side * aspect))), side


def placement(rng, layout, ga, wi, hi):
    """(glyph height, centre offset (x, y) from the frame centre), canvas pixels."""
    fit = min(hi, wi / ga)  # the tallest glyph that fits the frame
    if layout == "tight":
        gh = fit * rng.uniform(0.8, 1.05)
        return gh, (rng.uniform(-0.06, 0.06) * wi, rng.uniform(-0.06, 0.06) * hi)
    if layout == "window":
        return fit * rng.uniform(0.55, 0.8), (rng.normal(0, 0.03) * wi, rng.normal(0, 0.03) * hi)
    if layout in ("wheel", "lcd"):
        return fit * rng.uniform(0.4, 0.7), (rng.normal(0, 0.03) * wi, rng.normal(0, 0.03) * hi)
    if layout == "corner":
        gh = max(MIN_HEIGHT * 1.3 * FACTOR, max(wi, hi) * rng.uniform(0.08, 0.25))
        gh = min(gh, 0.6 * fit)
        gw = gh * ga
        mx, my = rng.uniform(0.02, 0.1, 2) * (wi, hi)
        return gh, (rng.choice([-1, 1]) * (wi / 2 - gw / 2 - mx), rng.choice([-1, 1]) * (hi / 2 - gh / 2 - my))
    low, high = (0.12, 0.4) if layout == "desk" else (0.3, 0.75)
    gh = max(MIN_HEIGHT * 1.3 * FACTOR, fit * rng.uniform(low, high))
    room = np.maximum(0, (wi - gh * ga, hi - gh) / np.array(2.0)) * 0.8
    return gh, (rng.uniform(-1, 1) * room[0] * 0.5, rng.uniform(-1, 1) * room[1] * 0.5)


def background(rng, layout, hc, wc, gx, gy, gw, gh):
    """(rgb canvas, paper rgb under the subject, ghost colour) for `layout`; (gx, gy) the glyph centre."""
    if layout == "window":
        return window(rng, hc, wc, gx, gy, gw, gh)
    if layout == "wheel":
        body = paper.make_desk(rng, hc, wc) * rng.uniform(0.3, 1.0)
        drum_dark = rng.random() < 0.7
        drum = np.array([0.08, 0.08, 0.09] if drum_dark else [0.92, 0.9, 0.86], np.float32) * rng.uniform(0.85, 1.1)
        ww, wh, gap = gw * rng.uniform(1.2, 1.8), gh * rng.uniform(1.15, 1.45), gw * rng.uniform(0.2, 0.8)
        darkening = rng.uniform(0.2, 0.7)
        rim = rng.uniform(1, 5)
        rim_colour = np.clip(body[int(gy), int(gx)] * rng.uniform(0.3, 1.8), 0, 1)
        wheel_windows(body, drum, darkening, gx, gy, ww, wh, gap, rim, rim_colour, 3)
        return body, drum, None
    if layout == "lcd":
        body = paper.make_desk(rng, hc, wc) * rng.uniform(0.2, 0.8)
        panel = np.array([0.62, 0.68, 0.58], np.float32) * rng.uniform(0.8, 1.2) + rng.uniform(-0.05, 0.05, 3)
        pw, ph = gw * rng.uniform(1.3, 3.0), gh * rng.uniform(1.2, 1.6)
        px = gx + rng.uniform(-0.3, 0.3) * (pw - gw)
        rim = rng.uniform(2, 8)
        paper.paint(body, polygon_coverage((wc, hc), rectangle(px, gy, pw + 2 * rim, ph + 2 * rim)), body[0, 0] * 0.5)
        inside = polygon_coverage((wc, hc), rectangle(px, gy, pw, ph))
        body += (np.clip(panel, 0, 1) * paper.grain(rng, hc, wc, 0.02) - body) * inside[..., None]
        return body, np.clip(panel, 0, 1), np.array([0.12, 0.14, 0.12], np.float32)
    if layout == "desk" or rng.random() < 0.08:
        rgb = paper.make_desk(rng, hc, wc)
        sheet, kind, _ = paper.make_paper(rng, hc, wc)
        sw, sh = gw * rng.uniform(1.4, 6), gh * rng.uniform(1.4, 5)
        sx = gx + rng.uniform(-0.3, 0.3) * (sw - gw)
        sy = gy + rng.uniform(-0.3, 0.3) * (sh - gh)
        corners = rectangle(sx, sy, sw, sh, rng.normal(0, 0.3))
        shift = rng.normal(0, 0.02 * gh, 2) + 0.03 * gh
        shade = polygon_coverage((wc, hc), [(x + shift[0], y + shift[1]) for x, y in corners], blur=rng.uniform(1, 6))
        rgb *= (1 - rng.uniform(0.2, 0.6) * shade)[..., None]
        inside = polygon_coverage((wc, hc), corners)
        rgb += (sheet - rgb) * inside[..., None]
        return rgb, sheet[int(np.clip(gy, 0, hc - 1)), int(np.clip(gx, 0, wc - 1))], None
    rgb, kind, _ = paper.make_paper(rng, hc, wc)
    return rgb, rgb[int(np.clip(gy, 0, hc - 1)), int(np.clip(gx, 0, wc - 1))], None


def clutter(rng, rgb, keep_out):
    """Objects that are not the subject's ink: a pen, a coin, binder holes,
    small marks, a cup's ring, a phone."""
    hc, wc, _ = rgb.shape
    x0, y0, x1, y1 = keep_out
    for _ in range(int(rng.integers(1, 4))):
        what = int(rng.integers(6))
        for _ in range(10):
            cx, cy = rng.uniform(0, wc), rng.uniform(0, hc)
            r = rng.uniform(0.04, 0.12) * max(hc, wc)
            if cx + r < x0 or cx - r > x1 or cy + r < y0 or cy - r > y1:
                break
        else:
            continue
        if what == 0:  # a pen lying on the page
            angle = rng.uniform(0, np.pi)
            length = rng.uniform(2, 5) * r
            cov = polygon_coverage((wc, hc), rectangle(cx, cy, length, rng.uniform(0.15, 0.3) * r, angle), blur=0.7)
            paper.paint(rgb, cov, rng.uniform(0, 1, 3))
        elif what == 1:  # a coin
            cov = polygon_coverage((wc, hc), [(cx + r * np.cos(t), cy + r * np.sin(t)) for t in np.linspace(0, 2 * np.pi, 40)], blur=0.7)
            paper.paint(rgb, cov, np.array([0.75, 0.6, 0.35]) * rng.uniform(0.6, 1.2) if rng.random() < 0.5 else np.full(3, rng.uniform(0.4, 0.8)))
        elif what == 2:  # a ring binder's holes along one edge
            e = rng.uniform(0.03, 0.06) * max(hc, wc)
            x = rng.uniform(0.02, 0.08) * wc if rng.random() < 0.5 else wc * rng.uniform(0.92, 0.98)
            colour = rng.uniform(0, 0.5, 3)
            for y in np.arange(rng.uniform(0, 3 * e), hc, rng.uniform(4, 8) * e):
                paper.paint(rgb, polygon_coverage((wc, hc), rectangle(x, y, e, e, np.pi / 4), blur=e * 0.3), colour)
        elif what == 4:  # a cup's ring: a stain along a circle, part of it faded
            t = np.linspace(0, 2 * np.pi, 60)
            outer = polygon_coverage((wc, hc), [(cx + r * np.cos(a), cy + r * np.sin(a)) for a in t], blur=0.8)
            inner_r = r * rng.uniform(0.85, 0.95)
            inner = polygon_coverage((wc, hc), [(cx + inner_r * np.cos(a), cy + inner_r * np.sin(a)) for a in t], blur=0.8)
            fade = np.clip(0.5 + paper.smooth_noise(rng, hc, wc, max(4, int(r))), 0, 1)
            paper.paint(rgb, (outer - inner) * fade * rng.uniform(0.3, 0.8), np.array([0.45, 0.3, 0.15]) * rng.uniform(0.7, 1.2))
        elif what == 5:  # a phone: a dark or silver slab with a glossy streak
            angle = rng.uniform(0, np.pi)
            body = polygon_coverage((wc, hc), rectangle(cx, cy, 2 * r, 1.0 * r, angle), blur=1.0)
            paper.paint(rgb, body, np.full(3, rng.uniform(0.05, 0.25)) if rng.random() < 0.6 else rng.uniform(0.5, 0.85, 3))
            gloss = polygon_coverage((wc, hc), rectangle(cx, cy, 1.6 * r, 0.12 * r, angle + 0.5), blur=1.5)
            paper.paint(rgb, gloss * body * rng.uniform(0.2, 0.6), np.ones(3))
        else:  # a speck or a dot: longer stray strokes would read as a 1
            length = rng.uniform(0.005, 0.025) * max(hc, wc)
            t = rng.uniform(0, np.pi)
            pts = [(cx, cy), (cx + length * np.cos(t), cy + length * np.sin(t))]
            cov = glyphs.polyline(pts, rng.uniform(1, 4), (wc, hc), scale=1)
            paper.paint(rgb, cov, rng.uniform(0, 0.6, 3))


def window(rng, hc, wc, gx, gy, gw, gh):
    """A crop of one counter wheel's window (`window_share`): (rgb canvas, drum rgb, None)."""
    if rng.random() < 0.5:  # a light plate (white or grey plastic, a printed face)
        plate = np.full(3, rng.uniform(0.55, 0.95), np.float32) + rng.uniform(-0.05, 0.05, 3).astype(np.float32)
        body = np.clip(plate * paper.grain(rng, hc, wc, 0.03), 0, 1).astype(np.float32)
    else:
        body = paper.make_desk(rng, hc, wc) * rng.uniform(0.2, 0.7)
    drum = choose(rng, {"dark": 0.5, "cream": 0.25, "red": 0.25})
    drum = {"dark": np.array([0.08, 0.08, 0.09]), "cream": np.array([0.92, 0.9, 0.86]),
            "red": np.array([rng.uniform(0.55, 0.8), rng.uniform(0.04, 0.14), rng.uniform(0.04, 0.14)])}[drum]
    drum = np.clip(drum.astype(np.float32) * rng.uniform(0.85, 1.1), 0, 1)
    ww, wh, gap = gw * rng.uniform(1.1, 1.5), gh * rng.uniform(1.08, 1.35), gw * rng.uniform(0.15, 0.6)
    darkening = rng.uniform(0.1, 0.6)
    rim = rng.uniform(0.5, 4)
    rim_colour = np.clip(body[int(np.clip(gy, 0, hc - 1)), int(np.clip(gx, 0, wc - 1))] * rng.uniform(0.3, 1.6), 0, 1)
    wheel_windows(body, drum, darkening, gx, gy, ww, wh, gap, rim, rim_colour, 2)
    return body, drum, None


def wheel_windows(body, drum, darkening, gx, gy, ww, wh, gap, rim, rim_colour, beside):
    """Paints a row of counter-wheel windows into `body` (in place): the one at (gx, gy) and
    `beside` on each side, each ww x wh with a rim around it, showing the drum, which curves
    away and darkens by `darkening` at the window's top and bottom edges."""
    hc, wc = body.shape[:2]
    ys = np.arange(hc, dtype=np.float32)[:, None]
    shaded = np.clip(drum * (1 - darkening * ((ys - gy) / (wh / 2)) ** 2)[..., None], 0, 1)
    for k in range(-beside, beside + 1):
        cx = gx + k * (ww + gap)
        paper.paint(body, polygon_coverage((wc, hc), rectangle(cx, gy, ww + 2 * rim, wh + 2 * rim)), rim_colour)
        inside = polygon_coverage((wc, hc), rectangle(cx, gy, ww, wh))
        body += (shaded - body) * inside[..., None]


def make_scene(rng, bank, side=128):
    """dict(picture uint8 [H, W], mask float32 [H, W], label int, kind str), max(H, W) == side."""
    for _ in range(20):
        scene = _attempt(rng, bank, side)
        if scene is not None:
            return scene
    raise RuntimeError("scene: no visible scene in 20 attempts")


def _attempt(rng, bank, side):
    layout = choose(rng, LAYOUTS)
    if layout == "wheel" and window_share > 0 and rng.random() < window_share:
        layout = "window"
    blank = rng.random() < BLANK_SHARE
    ghost = None
    if layout in ("wheel", "window"):
        cov, label = bank.drum_digit(rng)
        kind = "drum"
    elif layout == "lcd" or (not blank and rng.random() < glyphs.KIND_SHARES["seg7"]):
        cov, ghost, label = bank.seven_segment(rng)
        kind = "seg7"
    else:
        cov, label, kind = bank.sample(rng)
        while kind == "seg7":
            cov, label, kind = bank.sample(rng)
    if cov is None:
        return None
    if mark_share > 0 and not blank and label < 10 and kind not in ("seg7", "drum") and rng.random() < mark_share:
        cov = number_marks.with_mark(rng, cov)
    ga = cov.shape[1] / cov.shape[0]
    wo, ho = frame_size(rng, layout, ga, side)
    wi, hi = wo * FACTOR, ho * FACTOR
    gh, (px, py) = placement(rng, layout, ga, wi, hi)
    gw = gh * ga
    small_turn = layout in ("tight", "wheel", "window", "lcd")
    angle = np.deg2rad(np.clip(rng.normal(0, 3 if small_turn else 7), -20, 20))
    jitter = rng.uniform(0, 0.03) * max(wi, hi)
    c, s = abs(np.cos(angle)), abs(np.sin(angle))
    margin = 3 * jitter + 4
    wc, hc = int(wi * c + hi * s + 2 * margin), int(wi * s + hi * c + 2 * margin)
    centre = (wc / 2, hc / 2)
    gx = centre[0] + np.cos(angle) * px - np.sin(angle) * py
    gy = centre[1] + np.sin(angle) * px + np.cos(angle) * py

    rgb, under, ghost_colour = background(rng, layout, hc, wc, gx, gy, gw, gh)
    if layout not in ("wheel", "window", "lcd") and rng.random() < 0.3:
        clutter(rng, rgb, (gx - gw, gy - gh, gx + gw, gy + gh))
    if pencils and rng.random() < PENCIL_SHARES.get(layout, PENCIL_SHARE):
        desk_objects.pencil(rng, rgb, (gx - gw, gy - gh, gx + gw, gy + gh))
    pen_kind = "printed" if kind in ("seg7", "drum") else pen.pick_pen(rng)
    colour = ghost_colour if ghost_colour is not None else pen.ink_colour(rng, under, pen_kind)
    if layout in ("wheel", "window") and pen.luma(under) < 0.5:
        colour = np.full(3, rng.uniform(0.85, 1.0), np.float32)
    elif layout in ("wheel", "window"):
        colour = np.full(3, rng.uniform(0.0, 0.15), np.float32)

    size = (max(2, int(round(gw))), max(2, int(round(gh))))
    glyph = glyphs.resize(cov, *size)
    mask = np.zeros((hc, wc), np.float32)
    x0, y0 = int(round(gx - size[0] / 2)), int(round(gy - size[1] / 2))
    opacity, area = pen.apply_pen(rng, glyph, pen_kind, FACTOR)
    region = (slice(max(y0, 0), min(y0 + size[1], hc)), slice(max(x0, 0), min(x0 + size[0], wc)))
    inner = (slice(region[0].start - y0, region[0].stop - y0), slice(region[1].start - x0, region[1].stop - x0))
    if ghost is not None and rng.random() < 0.6:  # unlit segments: background, not ink
        g = glyphs.resize(ghost, *size)[inner] * rng.uniform(0.04, 0.15)
        rgb[region] += (colour - rgb[region]) * g[..., None]
    if not blank:
        mask[region] = area[inner]
        rgb[region] += (colour - rgb[region]) * opacity[inner][..., None]

    rgb *= rng.uniform(0.85, 1.15, 3).astype(np.float32)  # colour cast
    grey = np.clip(0.299 * rgb[..., 0] + 0.587 * rgb[..., 1] + 0.114 * rgb[..., 2], 0, 1).astype(np.float32)
    quad = camera.frame_quad(centre, wi, hi, angle, jitter, rng)
    coefficients = camera.perspective_coefficients([(0, 0), (wi, 0), (wi, hi), (0, hi)], quad)
    grey = camera.area_down(camera.warp(grey, (wi, hi), coefficients), FACTOR)
    out_mask = np.clip(camera.area_down(camera.warp(mask, (wi, hi), coefficients), FACTOR), 0, 1)

    if layout == "tight" and rng.random() < 0.3:  # the dark or coloured border of a crop
        t = int(rng.integers(1, 5))
        edge = np.zeros_like(grey, dtype=bool)
        for side_index in rng.choice(4, int(rng.integers(1, 5)), replace=False):
            [edge[:t], edge[-t:], edge[:, :t], edge[:, -t:]][side_index][...] = True
        grey[edge] = rng.uniform(0, 0.6)
        out_mask[edge] = 0

    if not blank:
        rows = np.flatnonzero(out_mask.max(axis=1) > 0.3)
        cols = np.flatnonzero(out_mask.max(axis=0) > 0.3)
        if len(rows) == 0:
            return None
        extent = rows[-1] - rows[0] + 1 if label < 10 else max(rows[-1] - rows[0], cols[-1] - cols[0]) + 1
        if extent < MIN_HEIGHT:  # a digit's height, a dash's length
            return None
        kept = (mask * polygon_coverage((wc, hc), quad)).sum() / max(mask.sum(), 1e-6)
        if kept < 0.5:  # mostly outside the frame: a sliver nobody would call the subject
            return None
        if kept < 0.9 and label < 10:  # a digit cut by the frame is no longer a whole digit
            label, kind = 10, kind + "-cut"
    # The subject must stand out in the final picture: gentler light and another camera when not.
    for strength in (1.0, 0.6, 0.3, 0.0):
        gain, glare = light.light_field(rng, ho, wo, strength) if strength else (1.0, 0.0)
        picture = camera.degrade(rng, np.clip(grey * gain + glare, 0, 1))
        if blank or contrast(picture / np.float32(255), out_mask) >= MIN_CONTRAST:
            break
    else:
        return None
    if blank:
        return dict(picture=picture, mask=np.zeros_like(out_mask), label=-1, kind=f"blank-{layout}")
    return dict(picture=picture, mask=out_mask.astype(np.float32), label=int(label), kind=f"{kind}/{layout}/{pen_kind}")


def contrast(grey, mask):
    """Difference between the median grey of the ink and of the background around it."""
    ink = mask > 0.6 if (mask > 0.6).sum() >= 4 else mask > 0.3
    rows, cols = np.flatnonzero(mask.max(axis=1) > 0.3), np.flatnonzero(mask.max(axis=0) > 0.3)
    r0, r1 = max(rows[0] - 3, 0), rows[-1] + 4
    c0, c1 = max(cols[0] - 3, 0), cols[-1] + 4
    near = grey[r0:r1, c0:c1][mask[r0:r1, c0:c1] < 0.02]
    if near.size == 0 or ink.sum() == 0:
        return 1.0
    return abs(float(np.median(grey[ink])) - float(np.median(near)))
