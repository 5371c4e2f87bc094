"""The MNIST-style preprocessing a user would write in a few lines, the
baseline #31 and #33 compare against: polarity from the border, the ink's
box cropped, fitted into 20x20, placed in 28x28 at its centre of mass. No
paper, shadow, speck or component rules: that is the difference from the
numpy reference of digits' own pipeline (Tests/Tools/reference_preprocess.py).

    field = plain_field(gray)   # gray: 2-D uint8 array; 28x28 uint8 (ink bright) or None

Needs numpy, Pillow and scipy (Debian's python3-numpy, python3-pil, python3-scipy).
"""

import numpy as np
from PIL import Image
from scipy import ndimage

# Ink is what stands this far above the background (0-255), relative to the brightest ink.
INK_SHARE = 0.5
# Less contrast than this between the brightest ink and the background is a blank picture.
LEAST_CONTRAST = 30


def plain_field(gray):
    """The 28x28 MNIST field (uint8, white ink on black) for a grey picture,
    or None when nothing stands out of the background."""
    picture = gray.astype(np.float32)
    border = np.concatenate([picture[0], picture[-1], picture[:, 0], picture[:, -1]])
    if border.mean() > 127:  # dark ink on light paper: MNIST's ink is bright
        picture = 255 - picture
        border = 255 - border
    ink = np.clip(picture - np.median(border), 0, 255)
    peak = float(ink.max())
    if peak < LEAST_CONTRAST:
        return None
    rows, columns = np.nonzero(ink >= INK_SHARE * peak)
    crop = ink[rows.min():rows.max() + 1, columns.min():columns.max() + 1]
    scale = 20 / max(crop.shape)
    height, width = max(1, round(crop.shape[0] * scale)), max(1, round(crop.shape[1] * scale))
    small = np.asarray(Image.fromarray(crop * (255 / peak)).resize((width, height), Image.BILINEAR))
    field = np.zeros((28, 28), np.float32)
    top, left = (28 - height) // 2, (28 - width) // 2
    field[top:top + height, left:left + width] = small
    cy, cx = ndimage.center_of_mass(field)
    field = ndimage.shift(field, (14 - cy, 14 - cx), order=0, mode="constant")
    return np.clip(field, 0, 255).astype(np.uint8)
