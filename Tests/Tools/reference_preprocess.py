"""A Python reference (numpy + Pillow) of DigitKit's MNIST preprocessing
pipeline, step for step, so the tests can check the Swift tensor against an
independent implementation. See Sources/DigitKit/Preprocessing/Preprocessor.swift
for the description of each step; the names here follow the Swift files.

    reference_tensor(path) -> float32 array [28, 28], or None for "no digit found"
"""

import math
import os

import numpy as np

from reference_decode import reference_gray

MEAN = np.float32(0.1307)
STD = np.float32(0.3081)
ANALYSIS_SIDE = 512
BOX_SIDE = 20
FIELD_SIDE = 28
# MNIST's centre of mass, pixel 14 (MNISTNormalizer.massCentre).
MASS_CENTRE = 14.0


# RobustStatistics
def percentile(values, q):
    if len(values) == 0:
        return 0.0
    ordered = np.sort(np.asarray(values, dtype=np.float64), kind="stable")
    return float(ordered[int(math.floor(q * (len(ordered) - 1)))])


def lower_median(values):
    return percentile(values, 0.5)


# AreaResampler
def area_weights(source, target):
    scale = source / target
    taps = []
    for out in range(target):
        start, end = out * scale, (out + 1) * scale
        row = []
        index = int(math.floor(start))
        while index < end and index < source:
            covered = min(end, index + 1) - max(start, index)
            if covered > 1e-12:
                row.append((index, covered / scale))
            index += 1
        taps.append(row)
    return taps


def area_resize(raster, target_width, target_height):
    height, width = raster.shape
    if width == target_width and height == target_height:
        return raster.astype(np.float64)
    horizontal = np.zeros((height, target_width))
    for x, taps in enumerate(area_weights(width, target_width)):
        for index, weight in taps:
            horizontal[:, x] += raster[:, index].astype(np.float64) * weight
    result = np.zeros((target_height, target_width))
    for y, taps in enumerate(area_weights(height, target_height)):
        for index, weight in taps:
            result[y, :] += horizontal[index, :] * weight
    return result


# BilinearResampler
def bilinear_resize(raster, target_width, target_height):
    height, width = raster.shape
    sx, sy = width / target_width, height / target_height

    def taps(i, scale, size):
        position = min(max((i + 0.5) * scale - 0.5, 0.0), float(size - 1))
        lower = int(math.floor(position))
        return lower, min(lower + 1, size - 1), position - lower

    out = np.zeros((target_height, target_width))
    for y in range(target_height):
        y0, y1, fy = taps(y, sy, height)
        for x in range(target_width):
            x0, x1, fx = taps(x, sx, width)
            top = raster[y0, x0] * (1 - fx) + raster[y0, x1] * fx
            bottom = raster[y1, x0] * (1 - fx) + raster[y1, x1] * fx
            out[y, x] = top * (1 - fy) + bottom * fy
    return out


def round_half_up(x):
    return int(math.floor(x + 0.5))


# Preprocessor.analysisRaster
def analysis_raster(gray):
    height, width = gray.shape
    longer = max(width, height)
    if longer <= ANALYSIS_SIDE:
        return gray.astype(np.float64)
    scale = ANALYSIS_SIDE / longer
    return area_resize(gray, max(1, round_half_up(width * scale)), max(1, round_half_up(height * scale)))


# PaperRegion
PAPER_SIDE = 64


def median3x3(grid):
    """The lower median of each cell's 3x3 neighbourhood, edges repeated."""
    h, w = grid.shape
    padded = np.pad(grid, 1, mode="edge")
    out = np.empty_like(grid)
    for y in range(h):
        for x in range(w):
            out[y, x] = lower_median(padded[y:y + 3, x:x + 3].ravel())
    return out


def otsu_split(values):
    """Otsu's threshold over the grey levels int(v) (0-255): the first level
    that maximizes the between-class variance (a value is in the upper class
    when int(value) > the level), and the share of the levels' variance the
    split explains (0 when all levels are one)."""
    levels = np.clip(values.astype(np.int64), 0, 255)
    hist = np.bincount(levels.ravel(), minlength=256).astype(np.float64)
    total = all_mass = all_squares = 0.0
    for t in range(256):
        total += hist[t]
        all_mass += hist[t] * t
        all_squares += hist[t] * float(t * t)
    best, best_level = -1.0, 0
    weight = mass = 0.0
    for t in range(256):
        weight += hist[t]
        mass += hist[t] * t
        if weight == 0 or weight == total:
            continue
        between = (all_mass * weight - mass * total) ** 2 / (weight * (total - weight))
        if between > best:
            best, best_level = between, t
    spread = total * all_squares - all_mass * all_mass
    return best_level, (best / spread if best > 0 and spread > 0 else 0.0)


def otsu_level(values):
    return otsu_split(values)[0]


def components4(cls):
    """4-connected labels of the True cells (numbered from 1 in row-major
    order of their first cell) and their areas."""
    labels, areas, _ = label_components(cls, ((-1, 0), (1, 0), (0, -1), (0, 1)))
    return labels, areas


def filled(region):
    """`region` with its holes filled: every cell not reachable from the
    frame through cells outside it (4-connected)."""
    h, w = region.shape
    outside = np.zeros((h, w), dtype=bool)
    stack = [(x, y) for y in range(h) for x in range(w) if (x in (0, w - 1) or y in (0, h - 1)) and not region[y, x]]
    for x, y in stack:
        outside[y, x] = True
    while stack:
        x, y = stack.pop()
        for nx, ny in ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)):
            if 0 <= nx < w and 0 <= ny < h and not region[ny, nx] and not outside[ny, nx]:
                outside[ny, nx] = True
                stack.append((nx, ny))
    return ~outside


def eroded(region, times):
    """4-connected erosion, `times` times; the frame counts as outside."""
    for _ in range(times):
        padded = np.pad(region, 1, constant_values=False)
        region = region & padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:]
    return region


def dilated(region, times):
    """4-connected dilation, `times` times."""
    for _ in range(times):
        padded = np.pad(region, 1, constant_values=False)
        region = region | padded[:-2, 1:-1] | padded[2:, 1:-1] | padded[1:-1, :-2] | padded[1:-1, 2:]
    return region


OPENING_CELLS = 2


def depth(region):
    """How many 4-connected erosions leave nothing (CellGrid.depth)."""
    erosions = 0
    while region.any():
        region = eroded(region, 1)
        erosions += 1
    return erosions


def rectangularity(region):
    """The best share of a rotated box (-20 to 20 degrees, 2-degree steps) the
    region fills, and that box's shorter side, in cells."""
    ys, xs = np.nonzero(region)
    xs, ys = xs.astype(np.float64), ys.astype(np.float64)
    best, short = 0.0, 0.0
    for degrees in range(-20, 21, 2):
        a = math.radians(degrees)
        u = xs * math.cos(a) + ys * math.sin(a)
        v = ys * math.cos(a) - xs * math.sin(a)
        du, dv = u.max() - u.min() + 1, v.max() - v.min() + 1
        share = len(xs) / (du * dv)
        if share > best:
            best, short = share, min(du, dv)
    return best, short


def edge_sharpness(raster, boundary, scale):
    """The median over the boundary cells of the steepest two-pixel step in the
    raster around each (its cell and the cells beside it)."""
    height, width = raster.shape
    steps = np.zeros((height, width))
    steps[:, 1:-1] = np.abs(raster[:, 2:] - raster[:, :-2])
    steps[1:-1, :] = np.maximum(steps[1:-1, :], np.abs(raster[2:, :] - raster[:-2, :]))
    found = []
    for cy, cx in zip(*np.nonzero(boundary)):
        x0, x1 = int((cx - 1) / scale), min(width, int((cx + 2) / scale))
        y0, y1 = int((cy - 1) / scale), min(height, int((cy + 2) / scale))
        if x1 > x0 and y1 > y0:
            found.append(steps[y0:y1, x0:x1].max())
    return lower_median(found) if found else 0.0


def paper_region(raster, windows=True):
    """(mask or None, share of the frame's border in the bright class).

    With `windows` (one digit is read, as `classify` reads), a dark window
    in a light frame counts too: PaperRegion.find's classes swapped. True
    by default, where Swift's is false: the reference mirrors `classify`,
    and only `read`, which this reference does not mirror, leaves it off.
    """
    height, width = raster.shape
    small = min(width, height) < 48
    if small and not (windows and min(width, height) >= 16):
        return None, 0.0
    scale = 1.0 if small else PAPER_SIDE / max(width, height)
    cw, ch = max(1, round_half_up(width * scale)), max(1, round_half_up(height * scale))
    coarse = median3x3(area_resize(raster, cw, ch))
    bright = coarse.astype(np.int64) > otsu_level(coarse)
    ring = np.zeros((ch, cw), dtype=bool)
    ring[0, :] = ring[-1, :] = ring[:, 0] = ring[:, -1] = True
    ring_bright = float(bright[ring].sum()) / float(ring.sum())
    kept_share = 0.0 if small else ring_bright
    window = windows and ring_bright >= 1 - 0.3
    if not (window or (not small and ring_bright <= 0.3)):
        return None, kept_share
    labels, areas = components4(~bright if window else bright)
    if not areas:
        return None, kept_share
    sheet = labels == (int(np.argmax(areas)) + 1)
    whole = filled(sheet)
    # Opened by OPENING_CELLS: bright desk patches touching the sheet go.
    core_labels, core_areas = components4(eroded(whole, OPENING_CELLS))
    if not core_areas:
        return None, kept_share
    kept = dilated(core_labels == (int(np.argmax(core_areas)) + 1), OPENING_CELLS)
    sheet, whole = sheet & kept, whole & kept
    if whole.sum() < 0.12 * whole.size or sheet.sum() < (0.6 if window else 0.75) * whole.sum() or (~whole).sum() == 0:
        return None, kept_share
    # A window holds a light digit, thinner than the window around it (CellGrid.depth).
    if window:
        digit = whole & bright
        if digit.sum() < 0.02 * whole.sum() or depth(digit) >= depth(sheet):
            return None, kept_share
    contrast = lower_median(coarse[sheet]) - lower_median(coarse[~whole])
    if window:
        contrast = -contrast
    if contrast < 30:
        return None, kept_share
    share, short = rectangularity(whole)
    if share < 0.85 or short < 0.25 * min(cw, ch):
        return None, kept_share
    boundary = whole & ~eroded(whole, 1) & ~ring
    if edge_sharpness(raster, boundary, scale) < 0.35 * contrast:
        return None, kept_share
    inner = eroded(whole, 2)
    rows = np.minimum(((np.arange(height) + 0.5) * scale).astype(np.int64), ch - 1)
    columns = np.minimum(((np.arange(width) + 0.5) * scale).astype(np.int64), cw - 1)
    return inner[rows[:, None], columns[None, :]], kept_share


# BackgroundSurface
def surface_cell(width, height):
    return max(4, round_half_up(min(width, height) / 16))


def cell_medians(raster, region, cell):
    """The lower median of each cell's region pixels; NaN for cells with
    under a quarter of theirs in the region."""
    height, width = raster.shape
    ny, nx = -(-height // cell), -(-width // cell)
    levels = np.full((ny, nx), np.nan)
    for j in range(ny):
        for i in range(nx):
            block = raster[j * cell:(j + 1) * cell, i * cell:(i + 1) * cell]
            inside = region[j * cell:(j + 1) * cell, i * cell:(i + 1) * cell]
            if 4 * inside.sum() < block.size:
                continue
            levels[j, i] = lower_median(block[inside])
    return levels


# PolarityDetector.lightBackground
LIGHT_BACKGROUND = 128.0


def is_light(levels):
    """PolarityDetector.isLight: the lower median of the defined cell medians is light."""
    defined = levels[np.isfinite(levels)]
    return len(defined) > 0 and lower_median(defined) >= LIGHT_BACKGROUND


def background_surface(raster, region, cell, ink_dark=None, levels=None):
    """The background level at every pixel: the lower median of each cell's
    region pixels (cells with under a quarter of theirs in the region have
    none; `levels` when they are measured already), closed (dark ink) or
    opened (light ink) over 3x3 cells when the polarity is given, the lower
    median of the 5x5 cells around each, and bilinear between cell centres."""
    height, width = raster.shape
    ny, nx = -(-height // cell), -(-width // cell)
    if levels is None:
        levels = cell_medians(raster, region, cell)
    defined = np.isfinite(levels)
    if not defined.any():
        return np.full((height, width), lower_median(raster[region] if region.any() else raster.ravel()))
    if ink_dark is not None:
        grid = np.where(defined, levels, lower_median(levels[defined]))
        padded = np.pad(grid, 1, mode="edge")
        first = np.array([[(padded[y:y + 3, x:x + 3].max() if ink_dark else padded[y:y + 3, x:x + 3].min())
                           for x in range(nx)] for y in range(ny)])
        padded = np.pad(first, 1, mode="edge")
        second = np.array([[(padded[y:y + 3, x:x + 3].min() if ink_dark else padded[y:y + 3, x:x + 3].max())
                            for x in range(nx)] for y in range(ny)])
        levels = np.where(defined, second, np.nan)
    smooth = np.full((ny, nx), np.nan)
    for j in range(ny):
        for i in range(nx):
            near = levels[max(0, j - 2):j + 3, max(0, i - 2):i + 3]
            near = near[np.isfinite(near)]
            if len(near):
                smooth[j, i] = lower_median(near)
    missing = ~np.isfinite(smooth)
    if missing.any():
        smooth[missing] = lower_median(smooth[~missing])

    def taps(size, count):
        position = np.clip((np.arange(size) + 0.5) / cell - 0.5, 0, count - 1)
        lower = np.floor(position).astype(np.int64)
        return lower, np.minimum(lower + 1, count - 1), position - lower

    y0, y1, fy = taps(height, ny)
    x0, x1, fx = taps(width, nx)
    fx, fy = fx[None, :], fy[:, None]
    top = smooth[y0][:, x0] * (1 - fx) + smooth[y0][:, x1] * fx
    bottom = smooth[y1][:, x0] * (1 - fx) + smooth[y1][:, x1] * fx
    return top * (1 - fy) + bottom * fy


def residuals(raster, surface):
    # Rounded to a millionth of a grey level, as StandOutPixels does.
    return np.round((raster - surface) * 1e6) / 1e6


def noise_threshold(r, region):
    return max(8.0, 3 * 1.4826 * lower_median(np.abs(r[region])))


# StrokeWidth
def stroke_width(ink):
    """2 area / boundary of a mask: the width of the strokes it is made of."""
    padded = np.pad(ink, 1, constant_values=True)
    interior = ink & padded[:-2, 1:-1] & padded[2:, 1:-1] & padded[1:-1, :-2] & padded[1:-1, 2:]
    return 2.0 * ink.sum() / max(1, (ink & ~interior).sum())


STROKE_CELL_FACTOR = 1.2
TWO_LEVELS = 0.9


def is_tight_crop(marked):
    """Whether the largest 8-connected group of marked pixels reaches to
    within 3% of at least three of the picture's edges. (Its box lies inside
    the box of all marked pixels: when that one touches fewer than three
    edges, nothing need be labelled.)"""
    height, width = marked.shape
    if not marked.any():
        return False
    mx, my = max(1, width * 3 // 100), max(1, height * 3 // 100)

    def touches_three_edges(x0, y0, x1, y1):
        # Counted as ints: numpy's booleans add as "or".
        return int(x0 < mx) + int(y0 < my) + int(x1 >= width - mx) + int(y1 >= height - my) >= 3

    ys, xs = np.nonzero(marked)
    if not touches_three_edges(xs.min(), ys.min(), xs.max(), ys.max()):
        return False
    labels, areas, boxes = label8(marked)
    return touches_three_edges(*boxes[int(np.argmax(areas))])


def tight_paper(raster, region, invert):
    """TightCrop.paperSide: the region's pixels on the paper's side of
    Otsu's level when the picture is two levels (separability at least 0.9)
    and the ink's side of the split, its largest group, reaches three edges;
    None otherwise."""
    level, separability = otsu_split(raster[region])
    if separability < TWO_LEVELS:
        return None
    ink = ((np.clip(raster.astype(np.int64), 0, 255) <= level) == invert) & region
    if not is_tight_crop(ink):
        return None
    return region & ~ink


# PolarityDetector
def ink_is_dark(r, threshold, region):
    return np.maximum(0, -r - threshold)[region].sum() > np.maximum(0, r - threshold)[region].sum()


# InkExtractor
def ink_map(r, threshold, region, dark):
    above = np.maximum(0, -r if dark else r)
    above[~region] = 0
    levels = above[above > threshold]
    if len(levels) == 0:
        return None
    peak = percentile(levels, 0.9)
    if peak < 2 * threshold:
        return None
    return np.clip((above - threshold) / (peak - threshold), 0, 1)


WEAK_SHARE = 0.1


def strong(ink):
    """InkExtractor.strong: the map without the values under WEAK_SHARE."""
    return np.where(ink >= WEAK_SHARE, ink, 0.0)


# ConnectedComponents
NEAR_SHARE = 0.5
FAINT_SHARE = 0.5

EIGHT_NEIGHBOURS = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dx or dy)


def label_components(mask, neighbours):
    """Labels of the True pixels of a boolean mask, connected through
    `neighbours` (dx, dy) offsets (numbered from 1 in row-major order of their
    first pixel), their areas and boxes [x0, y0, x1, y1]."""
    height, width = mask.shape
    labels = np.zeros((height, width), dtype=np.int32)
    areas, boxes = [], []
    for sy in range(height):
        for sx in range(width):
            if not mask[sy, sx] or labels[sy, sx]:
                continue
            label = len(areas) + 1
            labels[sy, sx] = label
            stack, area, box = [(sx, sy)], 0, [sx, sy, sx, sy]
            while stack:
                x, y = stack.pop()
                area += 1
                box = [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
                for dx, dy in neighbours:
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < width and 0 <= ny < height and mask[ny, nx] and not labels[ny, nx]:
                        labels[ny, nx] = label
                        stack.append((nx, ny))
            areas.append(area)
            boxes.append(box)
    return labels, areas, boxes


def label8(mask):
    """8-connected labels of a boolean mask, their areas and boxes (the
    Python baselines swap in scipy's labelling here)."""
    return label_components(mask, EIGHT_NEIGHBOURS)


def digit_in(ink):
    height, width = ink.shape
    labels, areas, boxes = label8(ink > 0)
    if not areas:
        return None
    # The component holding the most ink anchors the digit. bincount adds
    # the weights one by one in row-major order, as the Swift pipeline adds
    # them, so the sums are the same Doubles.
    masses = np.bincount(labels.ravel(), weights=ink.ravel(), minlength=len(areas) + 1)[1:].tolist()
    anchor = masses.index(max(masses))
    if areas[anchor] < max(4, math.ceil(width * height * 0.0001)):
        return None
    keep = [area * 10 >= areas[anchor] for area in areas]
    # Not faint: a mean level at least FAINT_SHARE of the anchor's.
    mean = masses[anchor] / areas[anchor]
    keep = [k and masses[i] / areas[i] >= FAINT_SHARE * mean for i, k in enumerate(keep)]
    # Only the kept components near the anchor, gathered outwards.
    cluster = list(boxes[anchor])
    near = [i == anchor for i in range(len(areas))]
    grown = True
    while grown:
        grown = False
        reach = NEAR_SHARE * max(cluster[2] - cluster[0] + 1, cluster[3] - cluster[1] + 1)
        for i, b in enumerate(boxes):
            if keep[i] and not near[i]:
                gap = max(b[0] - cluster[2], cluster[0] - b[2], b[1] - cluster[3], cluster[1] - b[3], 0)
                if gap <= reach:
                    near[i] = grown = True
                    cluster = [min(cluster[0], b[0]), min(cluster[1], b[1]), max(cluster[2], b[2]), max(cluster[3], b[3])]
    keep = [k and n for k, n in zip(keep, near)]
    dot = mark_dot(anchor, keep, labels, areas, boxes, masses)
    if dot is not None:
        keep[dot] = True
    cleaned = ink.copy()
    for i, kept in enumerate(keep):
        if not kept:
            cleaned[labels == i + 1] = 0
    kept_boxes = [b for b, k in zip(boxes, keep) if k]
    box = [min(b[0] for b in kept_boxes), min(b[1] for b in kept_boxes),
           max(b[2] for b in kept_boxes), max(b[3] for b in kept_boxes)]
    return cleaned, box


DOT_SIDES = (0.7, 3.0)
DOT_ROUNDNESS = 0.5
DOT_FILL = 0.35
DOT_GAP_SHARE = 0.5
FOOT_STROKES = 2.0


def mark_dot(anchor, keep, labels, areas, boxes, masses):
    """MarkDot: the one round, solid component about a stroke wide just below
    the cluster and centred under the anchor's foot (the dot of a ? or a !),
    or None."""
    kept_boxes = [b for b, k in zip(boxes, keep) if k]
    cluster_bottom = max(b[3] for b in kept_boxes)
    cluster_height = cluster_bottom - min(b[1] for b in kept_boxes) + 1
    stem = boxes[anchor]
    stroke_width = areas[anchor] / ((stem[2] - stem[0] + 1) + (stem[3] - stem[1] + 1))
    mean = masses[anchor] / areas[anchor]
    dots = []
    for i, b in enumerate(boxes):
        width, height = b[2] - b[0] + 1, b[3] - b[1] + 1
        longer, shorter = max(width, height), min(width, height)
        gap = b[1] - cluster_bottom
        if (not keep[i] and shorter >= DOT_SIDES[0] * stroke_width and longer <= DOT_SIDES[1] * stroke_width
                and shorter >= DOT_ROUNDNESS * longer and areas[i] >= DOT_FILL * (width * height)
                and masses[i] / areas[i] >= FAINT_SHARE * mean
                and 1 <= gap <= DOT_GAP_SHARE * cluster_height):
            dots.append(i)
    if not dots:
        return None
    rows = max(2, int(FOOT_STROKES * stroke_width))
    ys, xs = np.nonzero(labels[max(0, stem[3] - rows + 1):stem[3] + 1] == anchor + 1)
    left, right = int(xs.min()), int(xs.max())
    under = [i for i in dots if left - stroke_width <= (boxes[i][0] + boxes[i][2]) / 2 <= right + stroke_width]
    return under[0] if len(under) == 1 else None


# MNISTNormalizer
def scaled(digit):
    height, width = digit.shape
    scale = BOX_SIDE / max(width, height)
    target_width = max(1, round_half_up(width * scale))
    target_height = max(1, round_half_up(height * scale))
    if scale < 1:
        return area_resize(digit, target_width, target_height)
    return bilinear_resize(digit, target_width, target_height)


def centred(box):
    mass = box.sum()
    if mass <= 0:
        return None
    height, width = box.shape
    ys, xs = np.mgrid[0:height, 0:width]
    cx, cy = (xs * box).sum() / mass, (ys * box).sum() / mass

    def offset(centre, size):
        return min(max(round_half_up(MASS_CENTRE - centre), 0), FIELD_SIDE - size)

    ox, oy = offset(cx, width), offset(cy, height)
    field = np.zeros((FIELD_SIDE, FIELD_SIDE))
    field[oy:oy + height, ox:ox + width] = box
    return field


# StrokeThickener
def thickened(box):
    values = box[box > 0]
    if len(values) == 0 or percentile(values, 0.95) >= 0.6 * 255:
        return box
    width = box.sum() / 255 / max(1, (box > 0.1 * 255).sum())
    padded = np.pad(box, 1, constant_values=0.0)
    height_, width_ = box.shape
    out = box.copy()
    for dy, dx in ((-1, 0), (1, 0), (0, -1), (0, 1)) + (((-1, -1), (-1, 1), (1, -1), (1, 1)) if width < 0.25 else ()):
        out = np.maximum(out, padded[1 + dy:1 + dy + height_, 1 + dx:1 + dx + width_])
    top = percentile(out[out > 0], 0.95)
    return np.minimum(255.0, out * (255.0 / top))


def field_from_gray(gray, inversion="auto"):
    """The 28x28 field (grey levels 0-255, float64), or None when no digit is found."""
    raster = analysis_raster(gray)
    height, width = raster.shape
    paper, ring_bright = paper_region(raster)
    region = paper if paper is not None else np.ones((height, width), dtype=bool)
    cell = surface_cell(width, height)
    # The first surface's cell medians also tell whether the paper is light.
    levels = cell_medians(raster, region, cell)
    r = residuals(raster, background_surface(raster, region, cell, levels=levels))
    threshold = noise_threshold(r, region)
    if inversion == "auto":
        invert = bool(ink_is_dark(r, threshold, region)) or (paper is None and ring_bright >= 0.75) \
            or is_light(levels)
    else:
        invert = inversion == "always"
    marked = ((-r if invert else r) > threshold) & region
    measured = tight_paper(raster, region, invert)
    if measured is None:
        measured = region
    cell = max(cell, math.ceil(STROKE_CELL_FACTOR * stroke_width(marked)))
    r = residuals(raster, background_surface(raster, measured, cell, invert))
    threshold = noise_threshold(r, measured)
    ink = ink_map(r, threshold, region, invert)
    if ink is None:
        return None
    found = digit_in(strong(ink))
    if found is None:
        return None
    cleaned, (x0, y0, x1, y1) = found
    return centred(thickened(scaled(cleaned[y0:y1 + 1, x0:x1 + 1] * 255)))


def record_references(folder, names):
    """Writes `folder`/reference.tsv (each name, 1 where the reference finds
    a digit) and reference.f32 (784 little-endian float32 a picture, in that
    order; zeros where it finds none), the tensors the Swift tests compare
    with; returns the rows."""
    rows, tensors = [], []
    for name in names:
        tensor = reference_tensor(os.path.join(folder, name))
        tensors.append(tensor.reshape(-1) if tensor is not None else np.zeros(784, dtype=np.float32))
        rows.append(f"{name}\t{int(tensor is not None)}")
    np.stack(tensors).astype("<f4").tofile(os.path.join(folder, "reference.f32"))
    with open(os.path.join(folder, "reference.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    return rows


def reference_tensor(path, inversion="auto"):
    """The normalized float32 [28, 28] tensor for the PNG at `path`, or None."""
    field = field_from_gray(reference_gray(path), inversion)
    if field is None:
        return None
    return (field.astype(np.float32) / np.float32(255) - MEAN) / STD
