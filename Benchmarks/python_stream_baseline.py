#!/usr/bin/env python3
"""What a user would otherwise write to recognize digits in a video stream:
a plain loop that reads YUV4MPEG2 frames from a file, crops the region of
interest, runs the same MNIST preprocessing as digits (the numpy reference,
Tests/Tools/reference_preprocess.py, with scipy's labelling as in
python_files_baseline.py) and the TorchScript model on each frame, one frame
at a time, on 1 thread. The comparison point for `digits stream`. Run with
Debian's python3-torch, python3-numpy and python3-scipy:

    /usr/bin/python3 Benchmarks/python_stream_baseline.py MODEL CLIP.y4m [--roi-fraction 0.5]

The clip's colour space may be Cmono, C420* (C420jpeg, C420paldv, ...),
C422 or C444; only the Y plane is read, the chroma bytes are skipped. The
region of interest is the centre square whose side is the fraction (0.5 by
default) of the frame's shorter side. Prints "frame<TAB>digit<TAB>confidence"
for each frame (frames counted from 0, confidence the model's probability
for the digit), or "frame<TAB>-" when no digit is found; then on stderr
"frames <n>", "seconds <n>" and "frames_per_second <n>", from the first frame
read to the last frame analysed (import, model load and two warm-up forwards
excluded: digits runs one probe forward when it loads the model, and the
second call of a TorchScript model is still several times slower than the
rest).

Fair to Python: the frames are read the way numpy would (one read of the Y
plane into np.frombuffer, the ROI a view of it, the chroma skipped with a
seek), the connected components are scipy.ndimage.label rather than the
reference's pure-Python loop (the files baseline's label8, imported from
it), the percentiles of the background and the ink map (a 360x360 ROI's
noise level ranks 130,000 values, twice a frame) are
np.partition rather than the reference's full sort, as digits selects
without sorting (the same values; the sort cost a quarter of the loop at
640x480 and 1280x720), torch runs under inference_mode with
torch.set_num_threads(1), and the BLAS/OpenMP pools are held to 1 thread so
that "1 thread" is true for numpy as well as for torch. The reference's other
steps are kept as they are: its Python-level resampler loops (over the
columns and rows of the area resampler, over the pixels of a box of at most
20x20 in the bilinear one) only run on the digit's box at the default ROI,
about a millisecond a frame (the ROI itself is resampled only when its side
is over 512 pixels), and it computes the background residuals twice a frame
(polarity, then ink), about a tenth of the loop at 1280x720.
"""

import os

for _name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
import torch  # noqa: E402

# Importing the files baseline puts Tests/Tools on the path and replaces
# reference_preprocess.label8 with its scipy.ndimage.label version.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import python_files_baseline  # noqa: E402,F401
import reference_preprocess  # noqa: E402
from reference_preprocess import MEAN, STD, field_from_gray  # noqa: E402


def percentile(values, q):
    """reference_preprocess.percentile (sorted[floor(q * (n - 1))]) by
    np.partition, in linear time, as digits selects, instead of a full sort."""
    if len(values) == 0:
        return 0.0
    rank = int(math.floor(q * (len(values) - 1)))
    return float(np.partition(np.asarray(values, dtype=np.float64), rank)[rank])


reference_preprocess.percentile = percentile

SIGNATURE = b"YUV4MPEG2"
# TorchScript's profiling executor makes the first two forwards slow (about
# 45 ms and 6 ms against under 2 ms); they are run at load, which is not timed.
WARM_UP_FORWARDS = 2


def chroma_bytes(colour, width, height):
    """Bytes of the chroma planes that follow the Y plane in each frame."""
    half_width, half_height = (width + 1) // 2, (height + 1) // 2
    if colour == "mono":
        return 0
    if colour.startswith("420"):
        return 2 * half_width * half_height
    if colour == "422":
        return 2 * half_width * height
    if colour == "444":
        return 2 * width * height
    sys.exit(f"unsupported y4m colour space C{colour} (Cmono, C420*, C422 and C444 are read)")


def read_header(f):
    """(width, height, chroma bytes a frame) from the stream header."""
    line = f.readline()
    tokens = line.rstrip(b"\n").split(b" ")
    if not line.endswith(b"\n") or tokens[0] != SIGNATURE:
        sys.exit("not a YUV4MPEG2 stream")
    width = height = None
    colour = "420jpeg"  # the format's default
    for token in tokens[1:]:
        if not token:
            continue
        tag, value = chr(token[0]), token[1:].decode("ascii", "replace")
        if tag == "W":
            width = int(value)
        elif tag == "H":
            height = int(value)
        elif tag == "C":
            colour = value
    if not width or not height or width <= 0 or height <= 0:
        sys.exit("y4m header without a positive W and H")
    return width, height, chroma_bytes(colour, width, height)


def frames(f, width, height, chroma):
    """The Y planes of the frames, [height, width] uint8, one at a time."""
    luma = width * height
    while True:
        line = f.readline()
        if not line:
            return
        if not line.startswith(b"FRAME") or not line.endswith(b"\n"):
            sys.exit("bad y4m frame header")
        data = f.read(luma)
        if len(data) != luma:
            sys.exit("y4m stream cut off inside a frame")
        if chroma:
            f.seek(chroma, os.SEEK_CUR)
        yield np.frombuffer(data, dtype=np.uint8).reshape(height, width)


def roi(width, height, fraction):
    """(x, y, side) of the centre square, side = fraction of the shorter side."""
    side = max(1, min(min(width, height), int(fraction * min(width, height))))
    return (width - side) // 2, (height - side) // 2, side


def tensor_from_gray(gray):
    """The normalized float32 [28, 28] tensor, as reference_tensor makes it, or None."""
    field = field_from_gray(gray)
    if field is None:
        return None
    return (field.astype(np.float32) / np.float32(255) - MEAN) / STD


def analyse_stream(model_path, clip_path, fraction):
    torch.set_num_threads(1)
    model = torch.jit.load(model_path).eval()
    with torch.inference_mode():
        for _ in range(WARM_UP_FORWARDS):
            model(torch.zeros(1, 1, 28, 28))
    out = sys.stdout
    count = 0
    with open(clip_path, "rb") as f, torch.inference_mode():
        width, height, chroma = read_header(f)
        x, y, side = roi(width, height, fraction)
        start = time.perf_counter()
        for index, plane in enumerate(frames(f, width, height, chroma)):
            tensor = tensor_from_gray(plane[y:y + side, x:x + side])
            if tensor is None:
                out.write(f"{index}\t-\n")
            else:
                log_probabilities = model(torch.from_numpy(tensor).reshape(1, 1, 28, 28))
                value, digit = log_probabilities[0].max(0)
                out.write(f"{index}\t{int(digit)}\t{float(value.exp()):.4f}\n")
            count += 1
        out.flush()
        seconds = time.perf_counter() - start
    print(f"frames {count}", file=sys.stderr)
    print(f"seconds {seconds:.3f}", file=sys.stderr)
    print(f"frames_per_second {count / seconds if seconds > 0 else 0:.1f}", file=sys.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model")
    parser.add_argument("clip")
    parser.add_argument("--roi-fraction", type=float, default=0.5)
    args = parser.parse_args()
    if not 0 < args.roi_fraction <= 1:
        parser.error("--roi-fraction must be in (0, 1]")
    analyse_stream(args.model, args.clip, args.roi_fraction)
