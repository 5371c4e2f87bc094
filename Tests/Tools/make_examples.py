#!/usr/bin/env python3
"""Makes the PNGs in Examples/ from MNIST test digits, so a user can try
`digits` at once. Run with Debian's python3-pil:

    /usr/bin/python3 Tests/Tools/make_examples.py

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import os
import sys

import numpy as np
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Models"))
import mnist_idx  # noqa: E402

OUT = os.path.join(ROOT, "Examples")


def main():
    images, labels = mnist_idx.load_split(os.path.join(ROOT, "Tests/Fixtures/mnist"), "t10k")
    os.makedirs(OUT, exist_ok=True)

    # MNIST as it is: white on black, 28x28. Test images 0 and 1 are a 7 and a 2.
    assert labels[0] == 7 and labels[1] == 2
    Image.fromarray(images[0], "L").save(os.path.join(OUT, "seven.png"))
    Image.fromarray(images[1], "L").save(os.path.join(OUT, "two.png"))

    # MNIST-like but large: a 4 (test image 4) enlarged to 280x280.
    assert labels[4] == 4
    Image.fromarray(images[4], "L").resize((280, 280), Image.BICUBIC).save(os.path.join(OUT, "four-large.png"))

    # Not MNIST-like: dark ink on light, slightly tinted paper, off-centre on a
    # 300x200 canvas. A 3 (test image 18).
    assert labels[18] == 3
    digit = Image.fromarray(images[18], "L").resize((112, 112), Image.BICUBIC)
    ink = np.asarray(digit).astype(np.float32) / 255
    canvas = np.full((200, 300, 3), (236, 232, 220), dtype=np.float32)
    y, x = 30, 150
    region = canvas[y:y + 112, x:x + 112]
    region[:] = region * (1 - ink[..., None]) + np.array((30, 30, 60), dtype=np.float32) * ink[..., None]
    Image.fromarray(canvas.round().astype(np.uint8), "RGB").save(os.path.join(OUT, "three-on-paper.png"))

    # Not MNIST-like: a drawing-app export, dark strokes on a transparent
    # background (RGBA). A 5 (test image 15).
    assert labels[15] == 5
    alpha = np.asarray(Image.fromarray(images[15], "L").resize((140, 140), Image.BICUBIC))
    rgba = np.zeros((140, 140, 4), dtype=np.uint8)
    rgba[..., :3] = (20, 20, 20)
    rgba[..., 3] = alpha
    Image.fromarray(rgba, "RGBA").save(os.path.join(OUT, "five-transparent.png"))

    # Not MNIST-like: white on black but small in a large canvas (a 9, test image 7).
    assert labels[7] == 9
    canvas = np.zeros((256, 256), dtype=np.uint8)
    canvas[150:206, 30:86] = np.asarray(Image.fromarray(images[7], "L").resize((56, 56), Image.BICUBIC))
    Image.fromarray(canvas, "L").save(os.path.join(OUT, "nine-small-in-corner.png"))

    # Not MNIST-like: a 400x400 photo of an 8 on paper lit from one side, with
    # sensor noise (test image 61). Also the benchmark's large input.
    assert labels[61] == 8
    rng = np.random.default_rng(8)
    ys, xs = np.mgrid[0:400, 0:400].astype(np.float32)
    paper = 225 - 45 * (xs + ys) / 800
    ink = np.asarray(Image.fromarray(images[61], "L").resize((220, 220), Image.BICUBIC), dtype=np.float32) / 255
    gray = paper.copy()
    gray[120:340, 60:280] = paper[120:340, 60:280] * (1 - ink) + 40 * ink
    rgb = np.stack([gray * 1.0, gray * 0.97, gray * 0.9], axis=2) + rng.normal(0, 4, size=(400, 400, 3))
    Image.fromarray(np.clip(np.round(rgb), 0, 255).astype(np.uint8), "RGB").save(os.path.join(OUT, "eight-photo-400.png"))

    # No digit at all: the tinted paper of three-on-paper.png, with sensor
    # noise. digits says "no digit found" instead of guessing.
    rng = np.random.default_rng(0)
    paper = np.full((200, 300, 3), (236, 232, 220), dtype=np.float32) + rng.normal(0, 3, size=(200, 300, 3))
    Image.fromarray(np.clip(np.round(paper), 0, 255).astype(np.uint8), "RGB").save(os.path.join(OUT, "blank-paper.png"))

    # A format digits does not read: the seven as a GIF, which digits names,
    # with a command that converts it.
    Image.fromarray(images[0], "L").save(os.path.join(OUT, "seven.gif"))

    print("wrote", ", ".join(sorted(os.listdir(OUT))))


if __name__ == "__main__":
    main()
