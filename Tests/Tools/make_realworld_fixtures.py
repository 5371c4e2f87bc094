#!/usr/bin/env python3
"""Turns MNIST *test* digits into the kinds of pictures users really have,
with fixed seeds, and records what the Python reference preprocessing
(reference_preprocess.py) makes of each, for the Swift tests.

Run with Debian's python3-pil and python3-numpy (and the fonts that
scripts/install-deps --dev installs):

    /usr/bin/python3 Tests/Tools/make_realworld_fixtures.py [--reference-only]

--reference-only keeps the pictures and recomputes only what the reference
finds in them (after a change to the preprocessing and its reference).

Kinds (handwritten unless said otherwise):
  paper        dark ink on light, tinted paper; canvases of many sizes and aspect
               ratios; off-centre; noise; illumination gradients; slight rotation
  transparent  drawing-app exports: dark strokes on a transparent background (RGBA)
  formats      paper pictures stored as palette (with tRNS), greyscale, 16-bit grey,
               16-bit RGB and Adam7-interlaced PNGs
  negative     white on black on large canvases, small and off-centre
  strokes      thin and thick strokes: ink eroded by 3 px, or dilated by about 5% of
               the digit's height (at least 3 px), on paper as above
  printed      printed digits rendered from system fonts (not handwritten)
  blank        paper with noise, tint and gradient but no digit: "no digit found"

Writes Tests/Fixtures/realworld/: the PNGs, fixtures.tsv (file,
kind, label or -, MNIST test index or -, 1 if the reference finds a digit)
and reference.f32 (the reference tensors, 784 float32 each, little-endian,
in fixtures.tsv order; zeros where no digit is found).

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import glob
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Models"))
import mnist_idx  # noqa: E402
from png_writer import write_png  # noqa: E402
from reference_preprocess import reference_tensor  # noqa: E402

OUT = os.path.join(ROOT, "Tests/Fixtures/realworld")
COUNTS = {"paper": 60, "transparent": 40, "formats": 50, "negative": 40, "strokes": 40, "printed": 40, "blank": 10}
FONT_PATTERNS = ["dejavu/DejaVuSans.ttf", "dejavu/DejaVuSerif.ttf", "dejavu/DejaVuSansMono.ttf",
                 "dejavu/DejaVuSans-Bold.ttf", "dejavu/DejaVuSerif-Italic.ttf",
                 "liberation2/LiberationSans-Regular.ttf", "liberation2/LiberationSerif-Regular.ttf",
                 "liberation2/LiberationMono-Regular.ttf", "freefont/FreeSans.ttf", "freefont/FreeSerifItalic.ttf"]


def fonts():
    found = []
    for pattern in FONT_PATTERNS:
        found += glob.glob(os.path.join("/usr/share/fonts/truetype", pattern))
    if len(found) < 5:
        sys.exit("make_realworld_fixtures: too few fonts; run scripts/install-deps --dev")
    return sorted(found)


def canvas_size(rng, low=48, high=320):
    side = int(rng.integers(low, high + 1))
    aspect = float(rng.uniform(0.5, 2.0))
    width = max(low // 2, min(high, int(side * math.sqrt(aspect))))
    height = max(low // 2, min(high, int(side / math.sqrt(aspect))))
    return width, height


def ink_alpha(digit28, size, rng, rotate=True):
    """The MNIST digit enlarged to size x size as ink coverage in [0, 1]."""
    image = Image.fromarray(digit28, "L")
    if rotate:
        image = image.rotate(float(rng.uniform(-8, 8)), resample=Image.BICUBIC)
    return np.asarray(image.resize((size, size), Image.BICUBIC), dtype=np.float32) / 255


def place(alpha, width, height, rng):
    """alpha placed at a random position in a width x height field."""
    field = np.zeros((height, width), dtype=np.float32)
    size = alpha.shape[0]
    x = int(rng.integers(0, width - size + 1))
    y = int(rng.integers(0, height - size + 1))
    field[y:y + size, x:x + size] = alpha
    return field


def paper(width, height, rng, tint=True):
    """Light paper (RGB floats) with a tint and an illumination gradient."""
    base = np.array([rng.uniform(205, 250)] * 3, dtype=np.float32)
    if tint:
        base += rng.uniform(-12, 4, size=3).astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    amplitude = rng.uniform(0, 40)
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = (np.cos(angle) * xs / width + np.sin(angle) * ys / height) * amplitude
    return base[None, None, :] - ramp[..., None]


def add_noise(image, rng, sigma_max=6.0):
    sigma = rng.uniform(0, sigma_max)
    return image + rng.normal(0, sigma, size=image.shape).astype(np.float32)


def to_u8(image):
    return np.clip(np.round(image), 0, 255).astype(np.uint8)


def digit_on_paper(digit28, rng, stroke=None):
    """stroke: None, "thin" or "thick"."""
    width, height = canvas_size(rng, 96 if stroke else 48)
    size = int(min(width, height) * rng.uniform(0.35, 0.85))
    alpha = ink_alpha(digit28, size, rng)
    if stroke is not None:
        kernel = 3 if stroke == "thin" else max(3, 2 * int(round(0.05 * size / 2)) + 1)
        shape = ImageFilter.MinFilter(kernel) if stroke == "thin" else ImageFilter.MaxFilter(kernel)
        image = Image.fromarray(to_u8(alpha * 255), "L").filter(shape)
        alpha = np.asarray(image, dtype=np.float32) / 255
    ink = np.array(rng.uniform(10, 90, size=3), dtype=np.float32)
    field = place(alpha, width, height, rng)[..., None]
    return add_noise(paper(width, height, rng) * (1 - field) + ink[None, None, :] * field, rng)


def make_paper(path, digit28, rng):
    Image.fromarray(to_u8(digit_on_paper(digit28, rng)), "RGB").save(path)


def make_transparent(path, digit28, rng):
    width, height = canvas_size(rng, 64, 300)
    size = int(min(width, height) * rng.uniform(0.4, 0.9))
    field = place(ink_alpha(digit28, size, rng), width, height, rng)
    rgba = np.zeros((height, width, 4), dtype=np.uint8)
    rgba[..., :3] = to_u8(rng.uniform(0, 60, size=3))
    rgba[..., 3] = to_u8(field * 255)
    Image.fromarray(rgba, "RGBA").save(path)


def make_formats(path, digit28, rng, variant):
    rgb = digit_on_paper(digit28, rng)
    gray = to_u8(rgb.mean(axis=2))
    if variant == "palette":
        image = Image.fromarray(to_u8(rgb), "RGB").quantize(colors=64, method=Image.MEDIANCUT)
        palette = np.array(image.getpalette()[:64 * 3]).reshape(-1, 3)
        # Mark the lightest entry as half transparent: tRNS on a palette.
        transparency = np.full(len(palette), 255)
        transparency[int(np.argmax(palette.sum(axis=1)))] = 128
        write_png(path, np.asarray(image), 3, palette=palette, transparency=transparency)
    elif variant == "gray":
        write_png(path, gray, 0)
    elif variant == "gray16":
        write_png(path, np.clip(np.round(rgb.mean(axis=2) * 257), 0, 65535).astype(np.uint16), 0, bit_depth=16)
    elif variant == "rgb16":
        write_png(path, np.clip(np.round(rgb * 257), 0, 65535).astype(np.uint16), 2, bit_depth=16, interlaced=True)
    else:  # interlaced
        write_png(path, to_u8(rgb), 2, interlaced=True)


def make_negative(path, digit28, rng):
    width, height = canvas_size(rng, 160, 400)
    size = int(min(width, height) * rng.uniform(0.2, 0.5))
    field = place(ink_alpha(digit28, size, rng), width, height, rng)
    background = rng.uniform(0, 30)
    image = add_noise(background + field * (rng.uniform(200, 255) - background), rng, 4.0)
    Image.fromarray(to_u8(image), "L").save(path)


def make_strokes(path, digit28, rng, thick):
    Image.fromarray(to_u8(digit_on_paper(digit28, rng, "thick" if thick else "thin")), "RGB").save(path)


def make_printed(path, digit, rng, font_path):
    width, height = canvas_size(rng, 48, 240)
    size = int(min(width, height) * rng.uniform(0.4, 0.8))
    font = ImageFont.truetype(font_path, size)
    mask = Image.new("L", (width, height), 0)
    draw = ImageDraw.Draw(mask)
    left, top, right, bottom = draw.textbbox((0, 0), str(digit), font=font)
    x = int(rng.integers(0, max(1, width - (right - left)))) - left
    y = int(rng.integers(0, max(1, height - (bottom - top)))) - top
    draw.text((x, y), str(digit), fill=255, font=font)
    alpha = np.asarray(mask, dtype=np.float32)[..., None] / 255
    ink = np.array(rng.uniform(0, 60, size=3), dtype=np.float32)
    image = add_noise(paper(width, height, rng) * (1 - alpha) + ink[None, None, :] * alpha, rng, 4.0)
    Image.fromarray(to_u8(image), "RGB").save(path)


def make_blank(path, rng):
    width, height = canvas_size(rng)
    Image.fromarray(to_u8(add_noise(paper(width, height, rng), rng)), "RGB").save(path)


def write_reference(rows, tensors):
    np.stack(tensors).astype("<f4").tofile(os.path.join(OUT, "reference.f32"))
    with open(os.path.join(OUT, "fixtures.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")


def reference_only():
    rows, tensors = [], []
    for line in open(os.path.join(OUT, "fixtures.tsv")).read().splitlines():
        fields = line.split("\t")
        tensor = reference_tensor(os.path.join(OUT, fields[0]))
        tensors.append(tensor.reshape(-1) if tensor is not None else np.zeros(784, dtype=np.float32))
        rows.append("\t".join(fields[:4] + [str(int(tensor is not None))]))
    write_reference(rows, tensors)
    print(f"recomputed the reference of {len(rows)} fixtures; it finds a digit in "
          f"{sum(r.endswith(chr(9) + '1') for r in rows)}")


def main():
    if sys.argv[1:] == ["--reference-only"]:
        return reference_only()
    images, labels = mnist_idx.load_split(os.path.join(ROOT, "Tests/Fixtures/mnist"), "t10k")
    rng = np.random.default_rng(20261121)
    font_paths = fonts()
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if name.endswith(".png"):
            os.remove(os.path.join(OUT, name))

    # Test digits from index 1000 on, so none is an example or a regression sample.
    pool = iter(rng.permutation(np.arange(1000, len(images))))
    rows, tensors = [], []
    for kind, count in COUNTS.items():
        for i in range(count):
            index = int(next(pool)) if kind not in ("printed", "blank") else None
            label = int(labels[index]) if index is not None else (i % 10 if kind == "printed" else None)
            name = f"{kind}-{i:03d}" + (f"-{label}" if label is not None else "") + ".png"
            path = os.path.join(OUT, name)
            if kind == "paper":
                make_paper(path, images[index], rng)
            elif kind == "transparent":
                make_transparent(path, images[index], rng)
            elif kind == "formats":
                make_formats(path, images[index], rng, ["palette", "gray", "gray16", "rgb16", "interlaced"][i % 5])
            elif kind == "negative":
                make_negative(path, images[index], rng)
            elif kind == "strokes":
                make_strokes(path, images[index], rng, thick=i % 2 == 0)
            elif kind == "printed":
                make_printed(path, label, rng, font_paths[i % len(font_paths)])
            else:
                make_blank(path, rng)
            tensor = reference_tensor(path)
            found = tensor is not None
            tensors.append(tensor.reshape(-1) if found else np.zeros(784, dtype=np.float32))
            rows.append(f"{name}\t{kind}\t{'-' if label is None else label}\t{'-' if index is None else index}\t{int(found)}")

    write_reference(rows, tensors)
    size = sum(os.path.getsize(os.path.join(OUT, n)) for n in os.listdir(OUT))
    print(f"wrote {len(rows)} fixtures, {size / 1e6:.1f} MB; reference finds a digit in "
          f"{sum(r.endswith(chr(9) + '1') for r in rows)}")


if __name__ == "__main__":
    main()
