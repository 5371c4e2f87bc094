"""Long round objects lying across a scene: pencils, pens and markers.

A pencil on a desk photo is a long bright or coloured bar that runs across
the sheet or off the picture. The flat pen of `scene.clutter` is a uniform
rectangle; a real one is a shaded cylinder (darker at its sides, a bright
streak along it), with a sharpened tip at one end and an eraser or a cap at
the other, often casting a soft shadow. The locator must learn that such a
bar is not a 1, however long or bright, so these are never in the mask.
"""

import numpy as np

import paper

BODIES = {
    "yellow": (0.95, 0.78, 0.15), "white": (0.93, 0.93, 0.9), "red": (0.8, 0.12, 0.1),
    "blue": (0.15, 0.3, 0.75), "green": (0.2, 0.55, 0.25), "black": (0.1, 0.1, 0.1),
    "silver": (0.7, 0.72, 0.75), "wood": (0.8, 0.6, 0.38),
}
WOOD = np.array([0.88, 0.7, 0.5], np.float32)
GRAPHITE = np.array([0.22, 0.22, 0.24], np.float32)
FERRULE = np.array([0.75, 0.75, 0.72], np.float32)
ERASER = np.array([0.95, 0.55, 0.6], np.float32)


def _ramp(distance):
    """Coverage from a signed distance inside an edge (canvas pixels): a one-pixel soft edge."""
    return np.clip(0.5 + distance, 0, 1)


def _profile(rng, t):
    """Brightness across a cylinder (t from -1 to 1): darker towards the sides,
    a highlight where the light catches it; facets for a hexagonal pencil."""
    if rng.random() < 0.4:
        t = np.round(t * 1.5) / 1.5
    side = rng.uniform(0.35, 0.75)
    shade = side + (1 - side) * np.sqrt(np.clip(1 - t * t, 0, 1))
    centre, width = rng.uniform(-0.6, 0.2), rng.uniform(0.08, 0.25)
    highlight = rng.uniform(0.1, 0.5) * np.exp(-((t - centre) / width) ** 2)
    return shade, highlight


# This share of the objects `pencil` paints is a plain rod instead: a round-capped cylinder with
# no tip (a closed marker, a chopstick, a cable), often black or white, 2-7% of the picture wide
# (make_set.py --rods). At 0 no random number is drawn for it, so a seed's scenes are those of
# the generator before.
rod_share = 0.0


def _grid(rgb, keep_out):
    """The canvas's height, width and longer side, its pixel coordinates
    (column and row vectors), and `keep_out` clipped to it in whole pixels."""
    hc, wc, _ = rgb.shape
    ys = np.arange(hc, dtype=np.float32)[:, None]
    xs = np.arange(wc, dtype=np.float32)[None, :]
    box = tuple(int(np.clip(v, 0, s)) for v, s in zip(keep_out, (wc, hc, wc, hc)))
    return hc, wc, max(hc, wc), xs, ys, box


def _axes(xs, ys, cx, cy, angle):
    """Coordinates along (u) and across (v) an object centred at cx, cy and turned by `angle`."""
    c, s = np.cos(angle), np.sin(angle)
    return (xs - cx) * c + (ys - cy) * s, -(xs - cx) * s + (ys - cy) * c


def _fits(outline, box):
    """Whether an object's `outline` stays out of `box` and shows on the canvas."""
    x0, y0, x1, y1 = box
    return not (x1 > x0 and y1 > y0 and outline[y0:y1, x0:x1].max() > 0.02) and outline.max() >= 0.5


def pencil(rng, rgb, keep_out, attempts=10):
    """Paints a pencil, pen or marker across `rgb` (in place) outside the box
    `keep_out` (x0, y0, x1, y1); it may run off the canvas. Returns whether
    one was painted."""
    if rod_share > 0 and rng.random() < rod_share:
        return rod(rng, rgb, keep_out, attempts)
    hc, wc, side, xs, ys, box = _grid(rgb, keep_out)
    for _ in range(attempts):
        length = rng.uniform(0.4, 1.4) * side
        width = np.exp(rng.uniform(np.log(0.012), np.log(0.07))) * side
        cx, cy = rng.uniform(0.1, 0.9) * wc, rng.uniform(0.1, 0.9) * hc
        angle = rng.uniform(0, np.pi)
        u, v = _axes(xs, ys, cx, cy, angle)
        half = width / 2
        tip = width * rng.uniform(1.2, 2.5)
        end = width * rng.uniform(0.6, 1.6)
        # The whole outline: body, the tip narrowing to a point, the far end.
        taper = np.clip((length / 2 + tip - u) / tip, 0, 1)
        outline = _ramp(half * np.minimum(1, taper) - np.abs(v)) * _ramp(length / 2 + tip - u) * _ramp(u + length / 2 + end)
        if _fits(outline, box):
            break
    else:
        return False
    if rng.random() < 0.6:  # a soft shadow beside it
        shift = rng.normal(0, 0.4, 2) * width
        su, sv = _axes(xs - shift[0], ys - shift[1], cx, cy, angle)
        shadow = _ramp(half * 1.2 - np.abs(sv)) * _ramp(length / 2 + tip - su) * _ramp(su + length / 2 + end)
        rgb *= (1 - rng.uniform(0.15, 0.45) * shadow)[..., None]
    name = list(BODIES)[int(rng.integers(len(BODIES)))]
    body = np.clip(np.array(BODIES[name], np.float32) * rng.uniform(0.8, 1.15) + rng.uniform(-0.05, 0.05, 3), 0, 1)
    shade, highlight = _profile(rng, np.clip(v / half, -1, 1))
    is_pencil = rng.random() < 0.6
    colour = np.broadcast_to(body, rgb.shape).copy()
    in_tip = (u > length / 2)[..., None]
    if is_pencil:  # sharpened wood, then graphite at the point
        point = (u > length / 2 + tip * 0.7)[..., None]
        colour = np.where(in_tip, np.where(point, GRAPHITE, WOOD), colour)
    else:  # a pen's cone and nib, darker than the barrel
        colour = np.where(in_tip, body * 0.4, colour)
    in_end = (u < -length / 2)[..., None]
    if is_pencil and rng.random() < 0.7:
        ferrule = (u > -length / 2 - end * 0.45)[..., None]
        colour = np.where(in_end, np.where(ferrule, FERRULE, ERASER), colour)
    else:
        colour = np.where(in_end, body * rng.uniform(0.3, 1.0), colour)
    colour = np.clip(colour * shade[..., None] + highlight[..., None], 0, 1)
    rgb += (colour - rgb) * outline[..., None]
    return True


def rod(rng, rgb, keep_out, attempts=10):
    """Paints a plain rod across `rgb` (in place) outside `keep_out`, as `pencil`
    does: a shaded cylinder with round caps, a soft shadow beside it half the time."""
    hc, wc, side, xs, ys, box = _grid(rgb, keep_out)
    for _ in range(attempts):
        length = rng.uniform(0.3, 1.3) * side
        half = np.exp(rng.uniform(np.log(0.02), np.log(0.07))) * side / 2
        cx, cy = rng.uniform(0.05, 0.95) * wc, rng.uniform(0.05, 0.95) * hc
        angle = rng.uniform(0, np.pi)
        u, v = _axes(xs, ys, cx, cy, angle)
        # Distance to the rod's axis segment: round caps at both ends.
        outline = _ramp(half - np.sqrt((u - np.clip(u, -length / 2, length / 2)) ** 2 + v ** 2))
        if _fits(outline, box):
            break
    else:
        return False
    if rng.random() < 0.5:
        shift = rng.normal(0, 0.5, 2) * half * 2
        su, sv = _axes(xs - shift[0], ys - shift[1], cx, cy, angle)
        shadow = _ramp(half * 1.3 - np.sqrt((su - np.clip(su, -length / 2, length / 2)) ** 2 + sv ** 2))
        rgb *= (1 - rng.uniform(0.15, 0.45) * shadow)[..., None]
    names = list(BODIES)
    name = names[int(rng.integers(len(names)))] if rng.random() < 0.5 else ("black" if rng.random() < 0.5 else "white")
    body = np.clip(np.array(BODIES[name], np.float32) * rng.uniform(0.8, 1.15) + rng.uniform(-0.05, 0.05, 3), 0, 1)
    shade, highlight = _profile(rng, np.clip(v / half, -1, 1))
    colour = np.clip(body[None, None, :] * shade[..., None] + highlight[..., None], 0, 1)
    rgb += (colour - rgb) * outline[..., None]
    return True
