#!/usr/bin/env python3
"""What a user would otherwise write to classify many PNG files: Pillow to
decode, the same MNIST preprocessing as digits (the numpy reference,
Tests/Tools/reference_preprocess.py) and torch.jit.load. Run with Debian's
python3-torch, python3-pil and python3-numpy:

    /usr/bin/python3 Benchmarks/python_files_baseline.py MODEL FILE_LIST BATCH THREADS [reference|plain]

With "plain" (#31's "plain Python MNIST-style script"), each file is instead
Image.open(path).convert("L") and the few steps of Benchmarks/plain_mnist.py
(polarity from the border, the ink's box, 20x20, centre of mass), then
ToTensor and Normalize as torchvision would: no paper, shadow, speck or
component rules, so it does much less than digits and the reference.

FILE_LIST holds one PNG path a line. Prints "path<TAB>digit" for each file,
or "path<TAB>-" when no digit is found, in list order; then on stderr
"load_seconds <n>" (import torch and load the model), "preprocess_seconds
<n>" (decode and preprocessing), "forward_seconds <n>" and "files_per_second
<n>", from the first file read to the last result (model load excluded).

Decoding is the reference's (reference_decode.reference_gray: Pillow's
convert to grey, with transparency over white and 16-bit kept to its high
byte, as digits decodes), not a bare Image.open(p).convert("L"), which
would lose the transparent drawings.

The reference finds connected components with a plain Python loop, written
for clarity; a user would call scipy.ndimage.label (python3-scipy), so this
baseline does, with the same rule (8-connected, components under a tenth of
the largest dropped). Without it Python would spend two thirds of its time
in that loop and the comparison would flatter digits.
"""

import time

STARTED = time.perf_counter()

import os  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

import math  # noqa: E402

from scipy import ndimage  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests/Tools"))
import reference_preprocess  # noqa: E402
from reference_preprocess import reference_tensor  # noqa: E402

EIGHT_CONNECTED = np.ones((3, 3), dtype=bool)


def label8(mask):
    """reference_preprocess.label8 with scipy's labelling (which numbers the
    components in the same row-major order of their first pixel): labels,
    areas and boxes [x0, y0, x1, y1]."""
    labels, count = ndimage.label(mask, structure=EIGHT_CONNECTED)
    areas = np.bincount(labels.ravel())[1:].tolist()
    boxes = [[s[1].start, s[0].start, s[1].stop - 1, s[0].stop - 1] for s in ndimage.find_objects(labels)]
    return labels, areas, boxes


reference_preprocess.label8 = label8

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from PIL import Image  # noqa: E402
from plain_mnist import plain_field  # noqa: E402

MEAN, STD = 0.1307, 0.3081


def plain_tensor(path):
    """The plain steps' 28x28 tensor (float32, normalized) for one file, or None when no ink stands out."""
    with Image.open(path) as image:
        gray = np.asarray(image.convert("L"))
    field = plain_field(gray)
    if field is None:
        return None
    return ((field.astype(np.float32) / 255) - MEAN) / STD


class Batcher:
    """Collects tensors BATCH at a time and writes the results in list order."""

    def __init__(self, model, batch, out):
        self.model, self.batch, self.out = model, batch, out
        self.pending = []  # (path, index into tensors or None)
        self.tensors = []
        self.forward_seconds = 0.0

    def add(self, path, tensor):
        if tensor is None:
            self.pending.append((path, None))
        else:
            self.pending.append((path, len(self.tensors)))
            self.tensors.append(tensor)
        if len(self.tensors) == self.batch:
            self.flush()

    def flush(self):
        digits = []
        if self.tensors:
            start = time.perf_counter()
            out = self.model(torch.from_numpy(np.stack(self.tensors)).unsqueeze(1))
            digits = out.argmax(1).tolist()
            self.forward_seconds += time.perf_counter() - start
        for path, index in self.pending:
            self.out.write(f"{path}\t{'-' if index is None else digits[index]}\n")
        self.pending, self.tensors = [], []


def classify_files(model_path, list_path, batch, threads, pipeline="reference"):
    tensor_of = plain_tensor if pipeline == "plain" else reference_tensor
    torch.set_num_threads(threads)
    model = torch.jit.load(model_path).eval()
    loaded = time.perf_counter()
    print(f"load_seconds {loaded - STARTED:.3f}", file=sys.stderr)

    start = time.perf_counter()
    with open(list_path) as f:
        paths = [line.rstrip("\n") for line in f if line.strip()]
    preprocess_seconds = 0.0
    with torch.inference_mode():
        batcher = Batcher(model, batch, sys.stdout)
        for path in paths:
            begin = time.perf_counter()
            tensor = tensor_of(path)
            preprocess_seconds += time.perf_counter() - begin
            batcher.add(path, tensor)
        batcher.flush()
    sys.stdout.flush()
    seconds = time.perf_counter() - start
    print(f"preprocess_seconds {preprocess_seconds:.3f}", file=sys.stderr)
    print(f"forward_seconds {batcher.forward_seconds:.3f}", file=sys.stderr)
    print(f"files_per_second {len(paths) / seconds:.1f}", file=sys.stderr)


if __name__ == "__main__":
    if len(sys.argv) not in (5, 6) or sys.argv[5:] not in ([], ["reference"], ["plain"]):
        sys.exit(__doc__)
    classify_files(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), *sys.argv[5:])
