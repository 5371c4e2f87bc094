#!/usr/bin/env python3
"""Makes pictures of whole numbers ("2026", "3.14", "-12") written with
handwritten MNIST *test* digits, with fixed seeds, and the text each one
shows, for testing `digits read`.

Run with Debian's python3-numpy, python3-scipy and python3-pil, and the fonts
scripts/install-deps --dev installs:

    /usr/bin/python3 Tests/Tools/make_number_fixtures.py [--mnist DIR] [--out DIR] [--count N] [--seed S]

DIR holds the MNIST test IDX files (t10k-images-idx3-ubyte[.gz],
t10k-labels-idx1-ubyte[.gz]); by default ../shared/datasets/mnist beside the
repository, or Tests/Fixtures/mnist. Without --out it writes the
committed set into Tests/Fixtures/numbers/ (--count 20 pictures
of each kind, seed 1): the PNGs and numbers.tsv (file, kind, condition,
text). A larger set for measuring goes elsewhere, e.g.
`--out /tmp/numbers --count 200 --seed 2`. One picture of a given number:
`--text 2026 --kind close --condition paper --out year.png`. The README's
examples are made so: Examples/numbers/year-2026.png (--seed 2),
Examples/numbers/ruled-2026.png (--seed 2 --condition ruled),
Examples/numbers/price-3.14.png (--kind decimal), Examples/numbers/minus-12.png (--kind
negative --condition transparent) and Examples/numbers/touching-4711.png (--kind
touching --condition inverted), the last three with seed 1.

Kinds (how the digits lie; 1 to 10 characters in all):
  spaced       gaps of 0.25-0.5 of the digit height between digits
  close        gaps of 0.03-0.12 of the height
  touching     each digit moved left until its ink meets the previous one's
  overlapping  touching, then 0.04-0.10 of the height further
  decimal      spaced or close digits with one decimal point ("3.14")
  negative     a minus sign before spaced or close digits ("-12")
  printed      a number typeset in one of ten TrueType fonts (DejaVu, Liberation,
               FreeFont: sans, serif, mono, bold, italic), a third each plain,
               decimal and negative
Each handwritten digit's height varies by +-10% and its baseline by +-5% of the height.

Conditions (how the picture looks), in turn:
  paper        dark ink (20-70) on light paper, tinted, with a gradient, RGB
  inverted     white ink on black, like MNIST, greyscale
  transparent  dark ink as the alpha of an RGBA picture (a drawing app's export)
  ruled        as paper, on a notebook page: blue or grey lines behind the number, one
               under its baseline, sometimes a red margin (only with --conditions or
               --condition, so the committed set stays as it is)

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges, "The MNIST
database of handwritten digits"; only test-set digits are used, never
training ones, so the model has not seen them.
"""

import argparse
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from scipy import ndimage

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "Models"))
import mnist_idx  # noqa: E402
from make_realworld_fixtures import fonts  # noqa: E402

OUT = os.path.join(ROOT, "Tests", "Fixtures", "numbers")
MNIST_DIRS = [os.path.join(ROOT, "..", "shared", "datasets", "mnist"),
              os.path.join(ROOT, "Tests", "Fixtures", "mnist")]
KINDS = ["spaced", "close", "touching", "overlapping", "decimal", "negative", "printed"]
CONDITIONS = ["paper", "inverted", "transparent"]
ALL_CONDITIONS = CONDITIONS + ["ruled"]
HEIGHT = 40  # the digits' height in pixels, before jitter


def digit_alpha(images, labels, digit, rng, height):
    """A random MNIST test image of `digit`, cropped to its ink and scaled to
    `height` pixels tall, as ink coverage in [0, 1]."""
    choices = np.flatnonzero(labels == digit)
    image = images[rng.choice(choices)]
    rows = np.flatnonzero(image.max(axis=1) > 0)
    cols = np.flatnonzero(image.max(axis=0) > 0)
    crop = image[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    scale = height / crop.shape[0]
    width = max(2, int(round(crop.shape[1] * scale)))
    resized = Image.fromarray(crop, "L").resize((width, height), Image.BILINEAR)
    return np.asarray(resized, dtype=np.float32) / 255


def dot(height, rng):
    radius = height * rng.uniform(0.06, 0.09)
    side = int(np.ceil(radius * 2)) + 2
    y, x = np.mgrid[0:side, 0:side]
    centre = (side - 1) / 2
    return np.clip(radius + 0.5 - np.hypot(x - centre, y - centre), 0, 1).astype(np.float32)


def minus(height, rng):
    length = int(round(height * rng.uniform(0.35, 0.5)))
    thickness = max(2, int(round(height * rng.uniform(0.08, 0.12))))
    return np.ones((thickness, length), dtype=np.float32)


def meets(canvas, grown, x, y):
    """Whether a glyph whose ink, grown by one pixel, is `grown`, placed at
    (x, y), meets the canvas's ink."""
    h, w = grown.shape
    return bool((grown & (canvas[y:y + h, x:x + w] > 0.25)).any())


def compose(text, kind, images, labels, rng):
    """The ink coverage of `text` laid out as `kind` says, with a margin."""
    glyphs = []
    for char in text:
        if char == ".":
            glyphs.append((char, dot(HEIGHT, rng)))
        elif char == "-":
            glyphs.append((char, minus(HEIGHT, rng)))
        else:
            height = int(round(HEIGHT * rng.uniform(0.9, 1.1)))
            glyphs.append((char, digit_alpha(images, labels, int(char), rng, height)))
    margin = HEIGHT
    width = sum(g.shape[1] for _, g in glyphs) + int(HEIGHT * 0.6) * len(glyphs) + 2 * margin
    canvas = np.zeros((HEIGHT * 2 + 2 * margin, width), dtype=np.float32)
    baseline = margin + int(HEIGHT * 1.4)
    x = margin
    previous = None
    for char, glyph in glyphs:
        h, w = glyph.shape
        if char == ".":
            y = baseline - h
        elif char == "-":
            y = baseline - HEIGHT // 2 - h // 2
        else:
            y = baseline - h + int(round(HEIGHT * rng.uniform(-0.05, 0.05)))
        if previous is not None:
            digits_pair = previous.isdigit() and char.isdigit()
            if digits_pair and kind in ("touching", "overlapping"):
                # Move left until the ink meets, then (overlapping) further.
                grown = ndimage.binary_dilation(glyph > 0.25, structure=np.ones((3, 3), dtype=bool))
                x = x + int(HEIGHT * 0.2)
                while x > margin and not meets(canvas, grown, x, y):
                    x -= 1
                if kind == "overlapping":
                    x -= int(round(HEIGHT * rng.uniform(0.04, 0.10)))
            elif digits_pair and (kind == "close" or (kind in ("decimal", "negative") and rng.random() < 0.5)):
                x += int(round(HEIGHT * rng.uniform(0.03, 0.12)))
            else:
                x += int(round(HEIGHT * rng.uniform(0.25, 0.5) if digits_pair else HEIGHT * rng.uniform(0.15, 0.3)))
        region = canvas[y:y + h, x:x + w]
        np.maximum(region, glyph, out=region)
        x += w
        previous = char
    used = np.flatnonzero(canvas.max(axis=0) > 0)
    return canvas[:, :used[-1] + 1 + margin]


def typeset(text, rng):
    """The ink coverage of `text` typeset in a random font, digits about
    HEIGHT pixels tall, with a margin."""
    font = ImageFont.truetype(str(rng.choice(fonts())), size=int(round(HEIGHT * 1.4 * rng.uniform(0.9, 1.1))))
    left, top, right, bottom = font.getbbox(text)
    margin = HEIGHT
    image = Image.new("L", (right - left + 2 * margin, bottom - top + 2 * margin), 0)
    ImageDraw.Draw(image).text((margin - left, margin - top), text, fill=255, font=font)
    return np.asarray(image, dtype=np.float32) / 255


def number_text(kind, rng):
    if kind == "printed":
        kind = str(rng.choice(["spaced", "decimal", "negative"]))
    if kind == "decimal":
        whole = int(rng.integers(1, 5))
        fraction = int(rng.integers(1, 4))
        digits = "".join(str(d) for d in rng.integers(0, 10, whole + fraction))
        return digits[:whole] + "." + digits[whole:]
    if kind == "negative":
        return "-" + "".join(str(d) for d in rng.integers(0, 10, int(rng.integers(1, 6))))
    length = int(rng.choice([1, 2, 3, 4, 4, 4, 5, 6, 8, 10]))
    return "".join(str(d) for d in rng.integers(0, 10, length))


def render(alpha, condition, rng):
    """The picture for ink coverage `alpha` under `condition`."""
    h, w = alpha.shape
    if condition == "inverted":
        return Image.fromarray(np.round(alpha * 255).astype(np.uint8), "L")
    ink = rng.uniform(20, 70)
    if condition == "transparent":
        rgba = np.zeros((h, w, 4), dtype=np.uint8)
        rgba[..., :3] = int(ink)
        rgba[..., 3] = np.round(alpha * 255).astype(np.uint8)
        return Image.fromarray(rgba, "RGBA")
    tint = np.array(rng.choice([(243, 243, 240), (246, 244, 238), (245, 238, 215), (232, 234, 236)]), dtype=np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = (np.cos(angle) * xx / w + np.sin(angle) * yy / h) * rng.uniform(0.05, 0.15)
    paper = tint[None, None, :] * (1 - ramp[..., None])
    if condition == "ruled":
        paper = ruled(paper, alpha, rng)
    picture = paper * (1 - alpha[..., None]) + ink * alpha[..., None]
    picture += rng.normal(0, 2.0, (h, w, 1))  # sensor noise, the same in every channel
    return Image.fromarray(np.clip(np.round(picture), 0, 255).astype(np.uint8), "RGB")


def ruled(paper, alpha, rng):
    """`paper` as a notebook page: lines every 0.8-1.3 ink heights, one a
    little under the number's baseline, sometimes a red margin line."""
    h, w, _ = paper.shape
    rows = np.flatnonzero(alpha.max(axis=1) > 0.5)
    top, bottom = (rows[0], rows[-1]) if len(rows) else (0, h - 1)
    spacing = max(6.0, (bottom - top + 1) * rng.uniform(0.8, 1.3))
    colour = np.array(rng.choice([(120, 150, 220), (150, 170, 215), (160, 160, 160)]), dtype=np.float32)
    width = int(rng.integers(1, 3))
    lines = np.zeros(h, dtype=np.float32)
    start = bottom + rng.uniform(1, 4)
    for y in np.concatenate([np.arange(start, -1, -spacing), np.arange(start + spacing, h, spacing)]):
        lines[int(y):int(y) + width] = 1
    page = paper * (1 - lines[:, None, None]) + paper * (colour / 255) * lines[:, None, None]
    if rng.random() < 0.4:
        x = int(rng.uniform(0.02, 0.15) * w)
        page[:, x:x + width] = page[:, x:x + width] * np.array([0.95, 0.55, 0.55], dtype=np.float32)
    return page


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mnist")
    parser.add_argument("--out", default=OUT)
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--text", help="one picture of this number, written to --out (a .png file)")
    parser.add_argument("--kind", choices=KINDS, default="close")
    parser.add_argument("--condition", choices=ALL_CONDITIONS, default="paper")
    parser.add_argument("--conditions", default=",".join(CONDITIONS),
                        help="the conditions a set takes in turn, comma-separated (default: %(default)s)")
    args = parser.parse_args()
    images, labels = mnist_idx.load_first_split([args.mnist] if args.mnist else MNIST_DIRS, "t10k", "make_number_fixtures")
    if args.text:
        rng = np.random.default_rng(args.seed)
        render(compose(args.text, args.kind, images, labels, rng), args.condition, rng).save(args.out, optimize=True)
        print(f"make_number_fixtures: {args.text} in {args.out}")
        return
    conditions = args.conditions.split(",")
    if not set(conditions) <= set(ALL_CONDITIONS):
        parser.error(f"--conditions takes {', '.join(ALL_CONDITIONS)}")
    os.makedirs(args.out, exist_ok=True)
    rows = ["file\tkind\tcondition\ttext"]
    for k, kind in enumerate(KINDS):
        rng = np.random.default_rng([args.seed, k])
        for i in range(args.count):
            text = number_text(kind, rng)
            condition = conditions[i % len(conditions)]
            alpha = typeset(text, rng) if kind == "printed" else compose(text, kind, images, labels, rng)
            picture = render(alpha, condition, rng)
            name = f"{kind}-{i:03d}.png"
            picture.save(os.path.join(args.out, name), optimize=True)
            rows.append(f"{name}\t{kind}\t{condition}\t{text}")
    with open(os.path.join(args.out, "numbers.tsv"), "w") as table:
        table.write("\n".join(rows) + "\n")
    print(f"make_number_fixtures: {len(rows) - 1} pictures in {args.out}")


if __name__ == "__main__":
    main()
