"""The camera: geometry (rotation and perspective) and image degradations.

The geometry maps the output frame into the composed canvas; the picture
and the subject mask go through the very same transform. The degradations
(blur, noise, low resolution, JPEG) act on the picture only: the mask is
the ink's coverage before them.
"""

import io

import numpy as np
from PIL import Image, ImageFilter
from scipy import ndimage


def perspective_coefficients(out_corners, in_corners):
    """PIL PERSPECTIVE data mapping output points to input points (4 pairs)."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(out_corners, in_corners):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    return solve(np.array(rows, np.float64), np.array(rhs, np.float64))


def solve(a, b):
    """a x = b by Gaussian elimination with partial pivoting. LAPACK's solver would
    start BLAS threads that fight the worker processes for the cores."""
    m = np.concatenate([a, b[:, None]], axis=1)
    n = len(b)
    for k in range(n):
        p = k + int(np.argmax(np.abs(m[k:, k])))
        m[[k, p]] = m[[p, k]]
        m[k + 1:] -= np.outer(m[k + 1:, k] / m[k, k], m[k])
    x = np.zeros(n)
    for k in range(n - 1, -1, -1):
        x[k] = (m[k, n] - m[k, k + 1:n] @ x[k + 1:]) / m[k, k]
    return x


def frame_quad(centre, w, h, angle, jitter, rng):
    """The canvas corners of a w x h output frame around `centre`, turned by `angle`, corners jittered."""
    c, s = np.cos(angle), np.sin(angle)
    quad = []
    for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)):
        quad.append((centre[0] + c * x - s * y + rng.normal(0, jitter), centre[1] + s * x + c * y + rng.normal(0, jitter)))
    return quad


def warp(array, size, coefficients):
    """`array` (float32 2-D) sampled into an output of `size` (w, h)."""
    img = Image.fromarray(array, "F").transform(size, Image.PERSPECTIVE, tuple(coefficients), Image.BILINEAR)
    return np.asarray(img, np.float32)


def area_down(array, factor):
    """Area average over factor x factor blocks (coverage stays coverage)."""
    h, w = array.shape
    return array[:h - h % factor, :w - w % factor].reshape(h // factor, factor, w // factor, factor).mean(axis=(1, 3))


def degrade(rng, grey):
    """grey (float32 0..1, [h, w]) after a random camera: blur, low resolution, noise, JPEG -> uint8."""
    h, w = grey.shape
    img = Image.fromarray(np.clip(grey * 255, 0, 255).astype(np.uint8))
    if rng.random() < 0.4:
        img = img.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 1.5)))
    if rng.random() < 0.15:  # motion blur along a random direction
        n = int(rng.integers(3, 7))
        kernel = np.zeros((n, n), np.float32)
        t = np.linspace(-1, 1, 2 * n)
        angle = rng.uniform(0, np.pi)
        kernel[np.round((n - 1) / 2 * (1 + t * np.sin(angle))).astype(int), np.round((n - 1) / 2 * (1 + t * np.cos(angle))).astype(int)] = 1
        img = Image.fromarray(np.clip(ndimage.convolve(np.asarray(img, np.float32), kernel / kernel.sum()), 0, 255).astype(np.uint8))
    if rng.random() < 0.25:  # a small photo scaled back up
        small_h = int(rng.uniform(20, max(21, h * 0.8)))
        small = img.resize((max(4, round(w * small_h / h)), small_h), Image.BOX)
        img = small.resize((w, h), [Image.BILINEAR, Image.BICUBIC, Image.NEAREST][int(rng.integers(3))])
    out = np.asarray(img, np.float32)
    if rng.random() < 0.7:
        sigma = rng.uniform(1, 12)
        out = out + rng.standard_normal((h, w), dtype=np.float32) * sigma
    img = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    if rng.random() < 0.6:
        buffer = io.BytesIO()
        img.save(buffer, "JPEG", quality=int(rng.integers(20, 96)))
        img = Image.open(io.BytesIO(buffer.getvalue())).convert("L")
    return np.asarray(img, np.uint8)
