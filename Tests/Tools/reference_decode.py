"""PNG to 8-bit grey by the rules DigitKit's PNGDecoder documents, with
Pillow (a decoder independent of libpng):

- samples as stored (Pillow ignores gAMA and the other colour-management chunks);
- 16-bit samples keep their high byte (v >> 8), which is what Pillow does
  with 16-bit colour (it keeps 16-bit grey whole, so it is shifted here);
- colour to luma with Pillow's convert("L") integer weights;
- transparency (alpha or tRNS) composited over white, rounded.

Shared by make_pngsuite_reference.py and reference_preprocess.py.
"""

import numpy as np
from PIL import Image


def over_white(gray, alpha):
    return (gray * alpha + 255 * (255 - alpha) + 127) // 255


def reference_gray(path):
    """The grey pixels of the PNG at `path`, as a uint8 array [height, width]."""
    image = Image.open(path)
    image.load()
    if image.mode in ("I;16", "I;16B", "I"):
        samples = np.asarray(image).astype(np.int64)
        gray = samples >> 8
        key = image.info.get("transparency")
        if key is not None:
            gray = over_white(gray, np.where(samples == key, 0, 255))
        return gray.astype(np.uint8)
    rgba = np.asarray(image.convert("RGBA")).astype(np.int64)
    luma = (rgba[..., 0] * 19595 + rgba[..., 1] * 38470 + rgba[..., 2] * 7471 + 0x8000) >> 16
    return over_white(luma, rgba[..., 3]).astype(np.uint8)
