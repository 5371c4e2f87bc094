"""Pictures that are not one whole digit, for outlier exposure.

`digits read` cuts touching digits apart by asking the model about every
candidate piece and keeping the cut whose pieces it is surest of. A model
trained on whole digits only is sure of almost anything: the right half of a
4 is a confident 1, a 3 and a 1 squashed together a confident 4. Outlier
exposure (Hendrycks, Mazeika and Dietterich, "Deep Anomaly Detection with
Outlier Exposure", ICLR 2019) trains the model to spread its probability
evenly over the ten digits on such pictures, so that a wrong cut scores low.

The outliers are made from MNIST training digits the way the reader sees its
pieces: ink cropped to its box, scaled so the longer side is 20 pixels and
centred by mass in 28x28 (as MNIST normalized its digits, but at pixel 13.5
rather than MNIST's 14; Models/README.md, "Centre of mass"):
  - pairs: two digits side by side, touching or overlapping;
  - parts: a digit cut by a straight vertical cut near its middle, one side kept.
A whole digit with a sliver of its neighbour is not an outlier: a right cut
through touching digits leaves one.

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import numpy as np
from PIL import Image

BOX = 20
FIELD = 28


def ink_box(image, threshold=0.05):
    """The image cropped to the rows and columns holding ink, or None."""
    rows = np.flatnonzero(image.max(axis=1) > threshold)
    cols = np.flatnonzero(image.max(axis=0) > threshold)
    if len(rows) == 0 or len(cols) == 0:
        return None
    return image[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]


def resize(image, width, height):
    """Area resampling when shrinking, bilinear when growing (as digits' MNISTNormalizer)."""
    shrink = width < image.shape[1] or height < image.shape[0]
    picture = Image.fromarray(image.astype(np.float32), mode="F")
    return np.asarray(picture.resize((width, height), Image.BOX if shrink else Image.BILINEAR), dtype=np.float32)


def normalized(ink):
    """`ink` (values 0-1) scaled into the 20-pixel box and centred by mass in 28x28, or None."""
    ink = ink_box(ink)
    if ink is None:
        return None
    scale = BOX / max(ink.shape)
    height = max(1, int(ink.shape[0] * scale + 0.5))
    width = max(1, int(ink.shape[1] * scale + 0.5))
    box = np.clip(resize(ink, width, height), 0, 1)
    mass = box.sum()
    if mass <= 0:
        return None
    ys, xs = np.indices(box.shape)
    cy, cx = (ys * box).sum() / mass, (xs * box).sum() / mass
    # 13.5, half a pixel up and left of MNIST's own centre (pixel 14, where
    # the pipeline puts digits since 0.31.0): kept so that the model card's
    # recipes make the shipped model again (Models/README.md, "Centre of mass").
    oy = min(max(int(13.5 - cy + 0.5), 0), FIELD - height)
    ox = min(max(int(13.5 - cx + 0.5), 0), FIELD - width)
    field = np.zeros((FIELD, FIELD), dtype=np.float32)
    field[oy:oy + height, ox:ox + width] = box
    return field


def side_by_side(left, right, overlap, lift):
    """`right` placed `overlap` columns into `left`'s box (its ink touching or
    crossing `left`'s), `lift` rows higher; the brighter pixel wins."""
    height = max(left.shape[0], right.shape[0] + abs(lift)) + abs(lift)
    width = left.shape[1] + right.shape[1] - overlap
    canvas = np.zeros((height, width), dtype=np.float32)
    top = abs(lift)
    canvas[top:top + left.shape[0], :left.shape[1]] = left
    y = max(0, top - lift)
    region = canvas[y:y + right.shape[0], width - right.shape[1]:]
    np.maximum(region, right[:region.shape[0]], out=region)
    return canvas


def scaled_to_height(ink, height):
    width = max(1, int(round(ink.shape[1] * height / ink.shape[0])))
    return np.clip(resize(ink, width, height), 0, 1)


def make(images, count, rng):
    """`count` outlier pictures ([count, 28, 28] float32, ink 0-1) from
    `images` ([N, 28, 28] uint8 MNIST digits)."""
    out = []
    while len(out) < count:
        a = ink_box(images[rng.integers(len(images))].astype(np.float32) / 255)
        b = ink_box(images[rng.integers(len(images))].astype(np.float32) / 255)
        if a is None or b is None:
            continue
        kind = rng.random()
        b = scaled_to_height(b, max(4, int(a.shape[0] * rng.uniform(0.85, 1.15))))
        lift = int(a.shape[0] * rng.uniform(-0.1, 0.1))
        if kind < 0.5:
            # A pair: the second digit's ink reaching into the first's box by up to 40% of the narrower.
            narrower = min(a.shape[1], b.shape[1])
            piece = side_by_side(a, b, int(narrower * rng.uniform(0.05, 0.4)), lift)
        else:
            # A part: a cut between 35% and 65% of a digit at least half as wide as high.
            if a.shape[1] < 0.5 * a.shape[0]:
                continue
            cut = int(a.shape[1] * rng.uniform(0.35, 0.65))
            piece = a[:, :cut] if rng.random() < 0.5 else a[:, cut:]
        field = normalized(piece)
        if field is not None:
            out.append(field)
    return np.stack(out)
