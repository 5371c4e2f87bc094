"""A Python reference (numpy + Pillow) of DigitKit's MNIST preprocessing
pipeline, step for step, so the tests can check the Swift tensor against an
independent implementation. See Sources/DigitKit/Preprocessing/Preprocessor.swift
for the description of each step; the names here follow the Swift files.

    reference_tensor(path) -> float32 array [28, 28], or None for "no digit found"
"""

import math

import numpy as np

from reference_decode import reference_gray

MEAN = np.float32(0.1307)
STD = np.float32(0.3081)
ANALYSIS_SIDE = 512
BOX_SIDE = 20
FIELD_SIDE = 28


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


# BackgroundModel
REFITS = 2


def border_thickness(width, height):
    return max(1, min(width, height) // 16)


def border(raster):
    """(x, y, value) of the border ring, row-major."""
    height, width = raster.shape
    t = border_thickness(width, height)
    ys, xs = np.mgrid[0:height, 0:width]
    ring = (xs < t) | (xs >= width - t) | (ys < t) | (ys >= height - t)
    return xs[ring].astype(np.float64), ys[ring].astype(np.float64), raster[ring].astype(np.float64)


def fit_plane(x, y, v):
    if len(v) < 3:
        return None
    n = float(len(v))
    m = np.array([[n, x.sum(), y.sum()], [x.sum(), (x * x).sum(), (x * y).sum()], [y.sum(), (x * y).sum(), (y * y).sum()]])
    if abs(np.linalg.det(m)) <= 1e-9 * max(1.0, n ** 3):
        return None
    return tuple(np.linalg.solve(m, np.array([v.sum(), (x * v).sum(), (y * v).sum()])))


def noise_threshold(x, y, v, plane):
    a, b, c = plane
    return max(8.0, 3 * 1.4826 * lower_median(np.abs(v - (a + b * x + c * y))))


def background_model(raster):
    """(a, b, c, threshold): the border's plane and noise threshold."""
    x, y, v = border(raster)
    plane = fit_plane(x, y, v) or (lower_median(v), 0.0, 0.0)
    threshold = noise_threshold(x, y, v, plane)
    for _ in range(REFITS):
        a, b, c = plane
        inliers = np.abs(v - (a + b * x + c * y)) <= threshold
        plane = fit_plane(x[inliers], y[inliers], v[inliers]) or plane
        threshold = noise_threshold(x, y, v, plane)
    return (*plane, threshold)


def residuals(raster, model):
    a, b, c, _ = model
    height, width = raster.shape
    ys, xs = np.mgrid[0:height, 0:width]
    # Rounded to a millionth of a grey level, as BackgroundModel.residual does.
    return np.round((raster - (a + b * xs + c * ys)) * 1e6) / 1e6


# PolarityDetector
def ink_is_dark(raster, model):
    r, threshold = residuals(raster, model), model[3]
    return np.maximum(0, -r - threshold).sum() > np.maximum(0, r - threshold).sum()


# InkExtractor
def ink_map(raster, model, dark):
    threshold = model[3]
    r = residuals(raster, model)
    above = np.maximum(0, -r if dark else r)
    levels = above[above > threshold]
    if len(levels) == 0:
        return None
    peak = percentile(levels, 0.9)
    if peak < 2 * threshold:
        return None
    return np.clip((above - threshold) / (peak - threshold), 0, 1)


# ConnectedComponents
def digit_in(ink):
    height, width = ink.shape
    labels = np.zeros((height, width), dtype=np.int32)
    areas, boxes = [], []
    for sy in range(height):
        for sx in range(width):
            if ink[sy, sx] <= 0 or labels[sy, sx]:
                continue
            label = len(areas) + 1
            labels[sy, sx] = label
            stack, area, box = [(sx, sy)], 0, [sx, sy, sx, sy]
            while stack:
                x, y = stack.pop()
                area += 1
                box = [min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)]
                for dy in (-1, 0, 1):
                    for dx in (-1, 0, 1):
                        nx, ny = x + dx, y + dy
                        if (dx or dy) and 0 <= nx < width and 0 <= ny < height and ink[ny, nx] > 0 and not labels[ny, nx]:
                            labels[ny, nx] = label
                            stack.append((nx, ny))
            areas.append(area)
            boxes.append(box)
    if not areas or max(areas) < max(4, math.ceil(width * height * 0.0001)):
        return None
    largest = max(areas)
    keep = [area * 10 >= largest for area in areas]
    cleaned = ink.copy()
    for i, kept in enumerate(keep):
        if not kept:
            cleaned[labels == i + 1] = 0
    kept_boxes = [b for b, k in zip(boxes, keep) if k]
    box = [min(b[0] for b in kept_boxes), min(b[1] for b in kept_boxes),
           max(b[2] for b in kept_boxes), max(b[3] for b in kept_boxes)]
    return cleaned, box


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
        return min(max(round_half_up(13.5 - centre), 0), FIELD_SIDE - size)

    ox, oy = offset(cx, width), offset(cy, height)
    field = np.zeros((FIELD_SIDE, FIELD_SIDE))
    field[oy:oy + height, ox:ox + width] = box
    return field


def field_from_gray(gray, inversion="auto"):
    """The 28x28 field (grey levels 0-255, float64), or None when no digit is found."""
    raster = analysis_raster(gray)
    model = background_model(raster)
    invert = {"auto": ink_is_dark(raster, model), "always": True, "never": False}[inversion]
    ink = ink_map(raster, model, invert)
    if ink is None:
        return None
    found = digit_in(ink)
    if found is None:
        return None
    cleaned, (x0, y0, x1, y1) = found
    return centred(scaled(cleaned[y0:y1 + 1, x0:x1 + 1] * 255))


def reference_tensor(path, inversion="auto"):
    """The normalized float32 [28, 28] tensor for the PNG at `path`, or None."""
    field = field_from_gray(reference_gray(path), inversion)
    if field is None:
        return None
    return (field.astype(np.float32) / np.float32(255) - MEAN) / STD
