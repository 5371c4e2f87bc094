"""Typeset digits to train on beside MNIST's handwritten ones.

MNIST holds no printed digits, and the model reads some typeset shapes
badly (a 6 with a flat top as a 5). These are rendered from fonts that
no fixture generator uses: the test fixtures' printed digits come from
DejaVu, Liberation and FreeFont (Tests/Tools/make_realworld_fixtures.py),
so training on those would measure the model on faces it has seen.
`scripts/install-deps --dev` installs the training faces.

Each digit is normalized as MNIST's were: its ink box scaled to fit
20x20 (aspect kept), then placed in 28x28 with its centre of mass at the
centre. Light ink on black, uint8.
"""

import glob
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFont

# Folders of the training faces (Debian packages), under /usr/share/fonts.
TRAINING_FONT_FOLDERS = [
    "opentype/urw-base35", "opentype/cantarell", "opentype/comic-neue", "opentype/linux-libertine",
    "truetype/crosextra", "truetype/lato", "truetype/open-sans", "truetype/hack", "truetype/humor-sans",
    "truetype/inconsolata", "truetype/roboto", "truetype/noto",
]
# Faces that hold symbols, or digits drawn in keyboard keys, at the digits'
# code points.
NOT_DIGITS = ("StandardSymbolsPS", "D050000L", "LinBiolinum_K")
# The faces the test fixtures are typeset in: never trained on.
FIXTURE_FACES = ("DejaVu", "Liberation", "FreeSans", "FreeSerif", "FreeMono")


def training_fonts(root="/usr/share/fonts"):
    found = []
    for folder in TRAINING_FONT_FOLDERS:
        for pattern in ("*.ttf", "*.otf"):
            found += glob.glob(os.path.join(root, folder, "**", pattern), recursive=True)
    found = sorted(f for f in found if not any(s in f for s in NOT_DIGITS))
    leaked = [f for f in found if any(s in os.path.basename(f) for s in FIXTURE_FACES)]
    if leaked:
        raise SystemExit(f"typeset: fixture faces among the training fonts: {leaked}")
    if len(found) < 20:
        raise SystemExit("typeset: too few training fonts; run scripts/install-deps --dev")
    return found


def mnist_normalized(ink):
    """ink: float array, any size, ink > 0. Returns 28x28 uint8 as MNIST normalized its digits."""
    ys, xs = np.nonzero(ink > 0.02 * ink.max())
    box = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = box.shape
    scale = 20.0 / max(h, w)
    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = np.asarray(Image.fromarray((box / box.max() * 255).astype(np.uint8)).resize(size, Image.LANCZOS),
                       dtype=np.float64)
    # Hairline faces shrink to faint traces; stretch them to full ink as the
    # pipeline's stroke thickener does (MNIST's strokes are full ink).
    small = np.clip(small * 255 / np.percentile(small[small > 0], 95), 0, 255)
    out = np.zeros((28, 28))
    total = small.sum()
    cy = (small.sum(1) * np.arange(small.shape[0])).sum() / total
    cx = (small.sum(0) * np.arange(small.shape[1])).sum() / total
    # 13.5 as the shipped model was trained; MNIST's centre is pixel 14
    # (Models/README.md, "Centre of mass").
    top = int(round(13.5 - cy))
    left = int(round(13.5 - cx))
    top = min(max(top, 0), 28 - small.shape[0])
    left = min(max(left, 0), 28 - small.shape[1])
    out[top:top + small.shape[0], left:left + small.shape[1]] = small
    return np.clip(out, 0, 255).astype(np.uint8)


def render(digit, font_path, stroke=0, size=96):
    font = ImageFont.truetype(font_path, size)
    canvas = Image.new("L", (size * 3, size * 3), 0)
    ImageDraw.Draw(canvas).text((size, size // 2), str(digit), fill=255, font=font,
                                stroke_width=stroke, stroke_fill=255)
    ink = np.asarray(canvas, dtype=np.float64)
    if ink.max() == 0:
        return None
    return mnist_normalized(ink)


def make(strokes=(0, 3)):
    """Every training face's ten digits, plain and emboldened: (images [N,28,28] uint8, labels [N])."""
    images, labels = [], []
    for path in training_fonts():
        for stroke in strokes:
            for digit in range(10):
                picture = render(digit, path, stroke)
                if picture is not None:
                    images.append(picture)
                    labels.append(digit)
    return np.stack(images), np.array(labels, dtype=np.int64)


if __name__ == "__main__":
    x, y = make()
    print(f"{len(x)} typeset digits from {len(training_fonts())} faces")
