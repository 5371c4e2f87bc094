#!/usr/bin/env python3
"""Makes synthetic "camera" video clips, with fixed seeds, for testing
`digits stream`: a webcam looking at a sheet of paper on which handwritten
MNIST test digits come and go, and, beside every clip, the events a correct
stream reader must report.

Run with Debian's python3-numpy, python3-pil and python3-torch (the torch only
picks the digits; see "Digits" below):

    /usr/bin/python3 Tests/Tools/make_stream_clips.py --mnist DIR

DIR holds the MNIST test IDX files (t10k-images-idx3-ubyte[.gz],
t10k-labels-idx1-ubyte[.gz]). That writes the committed set into
Tests/Fixtures/stream/ (see SET below, and the README.md written
there). One clip, of any scenario, size and format, e.g. a bigger one for a
benchmark:

    /usr/bin/python3 Tests/Tools/make_stream_clips.py --mnist DIR \\
        --clip scenario --size 1280x720 --format y4m-420 --out /tmp/big.y4m [--repeat 5]

--clip takes a scenario (scenario, short, swap; seed 1, 320x240, y4m-mono
unless --seed, --size, --format say otherwise) or the file name of a clip of
the committed set (its scenario and seed; --size and --format override its
own). --out is the clip's file, gzipped when it ends in .gz.
The events go beside the clip as <clip file>.events.json. `--check DIR` reads every
clip of DIR back, counts its frames and compares them with its events file;
with --ascii it also draws the region of interest of a few frames as text.

Formats: y4m-mono (YUV4MPEG2, Cmono), y4m-420 (YUV4MPEG2, C420jpeg, the chroma
planes flat 128), png (concatenated greyscale PNG files, like `ffmpeg -f
image2pipe -c:v png`), pgm (concatenated binary P5 files), mjpeg
(concatenated greyscale JPEG files, quality 85). The committed y4m and pgm
clips are gzipped (mtime 0), so re-running gives the same bytes.

Scene model, frame by frame (all sizes in units of the region of interest, the
ROI, so that one scenario looks the same at any size):
  ROI      the centre square whose side is half the frame's shorter side
           (integer pixels: side = min(w, h) // 2, left = (w - side) // 2,
           top = (h - side) // 2); written into the events file.
  paper    bright grey (about 190-225): a base level, a gentle linear gradient
           in a random direction and a slight vignette; a slow lighting drift
           over the clip (3-6% from first to last frame) multiplies everything.
  noise    camera noise as a denoising webcam leaves it: gaussian blotches
           (sigma 2.3 grey levels), constant over square cells of 2 px at
           320x240, scaled with the frame to a power of two (4 px at 640x480,
           8 at 1280x720, aligned with JPEG's blocks). No per-pixel noise: it
           would make the stored clips incompressible (gzip finds no repeats).
           Rounded to uint8.
  digit    an MNIST 28x28 test image scaled up (bilinear) so that its 28x28
           field is 55-70% of the ROI side, drawn as dark ink (30-60) with the
           MNIST intensity as alpha, centred in the ROI with a hand's jitter
           (a smooth random walk within +-3 px at 320x240, scaled). The field
           side and the ink level are fixed for a clip.
  blur     a sheet moving sideways: the digit's alpha smeared by a box filter
           along the motion (swaps, a digit entering, a sheet pulled away).
  hand     a one-frame occlusion: a dark hand (a palm and four fingers, soft
           edged, 45-85 grey) reaching in from one side over most of the ROI.

Scenarios (frame counts at 30 fps; every hold is >= 8 frames, every blank
>= 6, so that K = 3 decisions are unambiguous):
  scenario  blank; digit A held, with a one-frame hand occlusion in the
            middle; blank; digit B slides in from the left or right frame
            edge over 3 frames (the third at the centre), held; swap to digit
            C over 1 motion-blurred frame (B leaving and C arriving, blended)
            or 2 (B leaving, then C arriving); C held; C pulled away (one
            blurred frame); blank.  56-61 frames.
  short     blank, digit, blank.  30 frames.
  swap      blank, digit A, swap to digit B (1 or 2 blurred frames), blank.
            About 30 frames.
--repeat N plays a scenario N times in a row (new digits each time).

Events (the "events" list of <clip>.events.json), derived from what the ROI
shows in each frame: "digit" when a digit is fully inside the ROI, sharp and
unoccluded; "blank" when no ink of a digit is in the ROI (no hand either);
anything else (a hand, a motion-blurred frame, a digit partly in the ROI) is a
transient and changes nothing. From the start, with nothing reported:
  {"event": "digit", "digit": D, "first_frame": F, "earliest_frame": E}
      F is the first "digit" frame showing D while nothing or another digit is
      reported (so a swap gives A then B with no clear between, and a
      one-frame occlusion gives no event); for an entering digit, the first
      frame it is fully inside the ROI.
  {"event": "clear", "first_frame": F, "earliest_frame": E}
      F is the first "blank" frame after a digit was reported.
E is the first of the transient frames right before F (E = F when there are
none). A transient frame may or may not look like what follows it (a blurred
2 still reads as a 2; a smear often reads as a 2 or an 8; a sheet pulled away
may read as "no digit"), so a reader with K = 3 reports the event on a frame
from E + K - 1 to F + K - 1: its K frames in a row start somewhere in E..F.
Transient runs are at most 2 frames, so they never make an event of their own.
The file also has "fps", "roi", "seed", "scenario" and "segments" (what each
run of frames shows, with the MNIST test index of each digit), which readers
may ignore.

Digits: only MNIST *test* images that the shipped model (Models/digits.pt)
classifies correctly with probability >= 0.99 on the raw 28x28 image, chosen
with a fixed seed, so that the clips test the stream machinery, not the 0.4%
of MNIST the model gets wrong.

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import argparse
import glob
import gzip
import io
import json
import math
import os
import sys

import numpy as np
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Models"))
import mnist_idx  # noqa: E402

OUT = os.path.join(ROOT, "Tests", "Fixtures", "stream")
MODEL = os.path.join(ROOT, "Models", "digits.pt")
FORMATS = ["y4m-mono", "y4m-420", "png", "pgm", "mjpeg"]
EXTENSIONS = {"y4m-mono": ".y4m", "y4m-420": ".y4m", "png": ".png", "pgm": ".pgm", "mjpeg": ".mjpeg"}
SCENARIOS = ["scenario", "short", "swap"]
FPS = 30
K = 3

# The committed set: file (gzipped when it ends in .gz), scenario, size, format, seed.
SET = [
    ("scenario-320x240-mono.y4m.gz", "scenario", (320, 240), "y4m-mono", 101),
    ("scenario-320x240-420.y4m.gz", "scenario", (320, 240), "y4m-420", 202),
    ("scenario-320x240.png", "scenario", (320, 240), "png", 303),
    ("scenario-320x240.pgm.gz", "scenario", (320, 240), "pgm", 404),
    ("short-640x480-420.y4m.gz", "short", (640, 480), "y4m-420", 505),
    ("short-1280x720.mjpeg", "swap", (1280, 720), "mjpeg", 606),
]

POOL_SEED = 2024        # which test images are looked at for the digit pool
POOL_SIZE = 800         # how many (about 80 per digit)
MIN_PROBABILITY = 0.99
JITTER = 3 / 120        # +-3 px at 320x240 (ROI side 120), in ROI units
NOISE_SIGMA = 2.3       # camera noise, grey levels
NOISE_CELL = 2          # its grain, px at 320x240
JPEG_QUALITY = 85


# Digits

def digit_pool(images, labels, model_path):
    """{digit: [test index, ...]}: test images, in a seeded order, that the model
    gets right with probability >= MIN_PROBABILITY on the raw 28x28 image."""
    import torch
    torch.set_num_threads(1)
    model = torch.jit.load(model_path)
    model.eval()
    order = np.random.default_rng(POOL_SEED).permutation(len(images))[:POOL_SIZE]
    batch = torch.from_numpy((images[order].astype(np.float32) / 255 - 0.1307) / 0.3081).unsqueeze(1)
    with torch.no_grad():
        probabilities = model(batch).exp().numpy()
    pool = {d: [] for d in range(10)}
    for row, index in enumerate(order):
        label = int(labels[index])
        if probabilities[row].argmax() == label and probabilities[row, label] >= MIN_PROBABILITY:
            pool[label].append(int(index))
    return pool


class Digits:
    """Hands out digits for one clip: a label different from the last few, and a
    test image of it from the pool."""

    def __init__(self, rng, pool, images):
        self.rng, self.pool, self.images = rng, pool, images
        self.recent = []

    def next(self):
        label = int(self.rng.choice([d for d in range(10) if d not in self.recent[-3:]]))
        index = int(self.rng.choice(self.pool[label]))
        self.recent.append(label)
        image = self.images[index]
        return {"label": label, "index": index, "image": image, "ink": ink_box(image)}


def ink_box(image):
    """(left, top, right, bottom) of the ink of a 28x28 image, in field units
    (0..1), counting pixels of at least 10% intensity."""
    rows = np.flatnonzero((image >= 26).any(axis=1))
    cols = np.flatnonzero((image >= 26).any(axis=0))
    return cols[0] / 28, rows[0] / 28, (cols[-1] + 1) / 28, (rows[-1] + 1) / 28


# Scene script: what every frame shows, in ROI units (size independent)

class Script:
    """Builds the frame list of a clip segment by segment. A frame is a dict:
    "digits" (list of placed digits: digit, field side, dx, dy offsets of the
    field centre from the ROI centre, blur the length of a horizontal motion
    blur (0 for none), weight its opacity) and "hand" (the occluder's
    parameters, or None)."""

    def __init__(self, rng, digits, aspect):
        self.rng, self.digits, self.aspect = rng, digits, aspect
        self.frames, self.segments = [], []
        self.field = rng.uniform(0.55, 0.70)
        self.jitter = np.zeros(2)

    def _segment(self, kind, count, **extra):
        self.segments.append(dict(kind=kind, first_frame=len(self.frames), frames=count, **extra))

    def _hand_offset(self):
        # A smooth random walk, kept within +-JITTER.
        self.jitter = np.clip(0.6 * self.jitter + self.rng.normal(0, 0.45 * JITTER, 2), -JITTER, JITTER)
        return float(self.jitter[0]), float(self.jitter[1])

    def _placed(self, digit, dx=0.0, dy=0.0, blur=0.0, weight=1.0):
        return dict(digit=digit, field=self.field, dx=dx, dy=dy, blur=blur, weight=weight)

    def blank(self, count):
        self._segment("blank", count)
        self.frames += [dict(digits=[], hand=None) for _ in range(count)]

    def hold(self, digit, count, occlude_at=None):
        extra = {"occlusion_frame": len(self.frames) + occlude_at} if occlude_at is not None else {}
        self._segment("hold", count, digit=digit["label"], mnist_test_index=digit["index"], **extra)
        for i in range(count):
            hand = self._hand() if i == occlude_at else None
            self.frames.append(dict(digits=[self._placed(digit, *self._hand_offset())], hand=hand))

    def _hand(self):
        return dict(side=str(self.rng.choice(["left", "right", "bottom"])),
                    shift=self.rng.uniform(-0.12, 0.12), tilt=self.rng.uniform(-0.12, 0.12),
                    reach=self.rng.uniform(0.8, 0.95), shade=self.rng.uniform(45, 70))

    def enter(self, digit):
        """The digit slides in from the left or right frame edge over 3 frames,
        blurred while it moves, sharp on the third at the centre."""
        sign = float(self.rng.choice([-1.0, 1.0]))
        edge = self.aspect  # the frame edge is this far from the ROI centre (ROI units)
        start = edge + self.field / 2 + 0.05
        self._segment("enter", 3, digit=digit["label"], mnist_test_index=digit["index"],
                      side="left" if sign < 0 else "right")
        for k in (1, 2, 3):
            dx, dy = self._hand_offset()
            x = sign * start * (1 - k / 3)
            blur = start / 3 if k < 3 else 0.0   # the shutter open the whole 1/30 s
            self.frames.append(dict(digits=[self._placed(digit, x + dx, dy, blur)], hand=None))

    def swap(self, old, new):
        """Sheet old is pulled away sideways while new is pushed in: 1 frame (both,
        blurred, blended) or 2 (old leaving, then new arriving)."""
        count = int(self.rng.integers(1, 3))
        sign = float(self.rng.choice([-1.0, 1.0]))
        self._segment("swap", count, old=old["label"], new=new["label"], mnist_test_index=new["index"])
        blur = 0.6
        if count == 1:
            dx, dy = self._hand_offset()
            self.frames.append(dict(hand=None, digits=[
                self._placed(old, sign * 0.35 + dx, dy, blur, 0.6),
                self._placed(new, -sign * 0.35 + dx, dy, blur, 0.6)]))
        else:
            for digit, x in ((old, sign * 0.35), (new, -sign * 0.35)):
                dx, dy = self._hand_offset()
                self.frames.append(dict(digits=[self._placed(digit, x + dx, dy, blur)], hand=None))

    def leave(self, digit):
        """The sheet is pulled away sideways: one blurred frame."""
        sign = float(self.rng.choice([-1.0, 1.0]))
        self._segment("leave", 1, digit=digit["label"])
        dx, dy = self._hand_offset()
        self.frames.append(dict(digits=[self._placed(digit, sign * 0.4 + dx, dy, 0.5)], hand=None))


def play(script, scenario):
    """Appends one run of a scenario to the script."""
    rng, digits = script.rng, script.digits
    start = len(script.frames)
    if scenario == "scenario":
        a, b, c = digits.next(), digits.next(), digits.next()
        script.blank(int(rng.integers(6, 9)))
        hold = int(rng.integers(12, 15))
        script.hold(a, hold, occlude_at=int(rng.integers(5, hold - 4)))
        script.blank(7)
        script.enter(b)
        script.hold(b, 9)
        script.swap(b, c)
        script.hold(c, int(rng.integers(9, 11)))
        script.leave(c)
        script.blank(7)
    elif scenario == "short":
        script.blank(8)
        script.hold(digits.next(), 12)
        script.blank(10)
    elif scenario == "swap":
        a, b = digits.next(), digits.next()
        script.blank(7)
        script.hold(a, 9)
        script.swap(a, b)
        script.hold(b, start + 24 - len(script.frames))   # B held to frame 23, after 1 or 2 swap frames
        script.blank(6)
    else:
        raise ValueError(f"unknown scenario {scenario}")


# What the ROI shows, and the events that follow

def roi_view(frame):
    """("digit", label), ("blank", None) or ("transient", None) for a frame."""
    if frame["hand"] is not None:
        return "transient", None
    inside, touching = [], []
    for placed in frame["digits"]:
        left, top, right, bottom = placed["digit"]["ink"]
        f = placed["field"]
        x0, x1 = placed["dx"] + (left - 0.5) * f, placed["dx"] + (right - 0.5) * f
        y0, y1 = placed["dy"] + (top - 0.5) * f, placed["dy"] + (bottom - 0.5) * f
        x0, x1 = x0 - placed["blur"] / 2, x1 + placed["blur"] / 2
        if x1 > -0.5 and x0 < 0.5 and y1 > -0.5 and y0 < 0.5:
            touching.append(placed)
            if x0 >= -0.5 and x1 <= 0.5 and y0 >= -0.5 and y1 <= 0.5:
                inside.append(placed)
    if not touching:
        return "blank", None
    if len(touching) == 1 and inside and inside[0]["blur"] == 0 and inside[0]["weight"] == 1.0:
        return "digit", inside[0]["digit"]["label"]
    return "transient", None


def expected_events(views):
    """The event list for a sequence of roi_view results (see the docstring)."""
    events, shown, settled = [], None, -1   # settled: the last frame that was not a transient
    for index, (kind, label) in enumerate(views):
        if kind == "digit" and label != shown:
            events.append({"event": "digit", "digit": label, "first_frame": index, "earliest_frame": settled + 1})
            shown = label
        elif kind == "blank" and shown is not None:
            events.append({"event": "clear", "first_frame": index, "earliest_frame": settled + 1})
            shown = None
        if kind != "transient":
            settled = index
    kinds = "".join(kind[0] for kind, _ in views)
    assert "t" * K not in kinds, f"{K} transient frames in a row could make an event of their own"
    for event in events:
        # Every event must be held for at least K frames, so K = 3 is unambiguous.
        start = event["first_frame"]
        run = views[start:start + K]
        assert len(run) == K and all(v == run[0] for v in run), f"event {event} is not held for {K} frames"
    return events


# Rendering

class Camera:
    """Renders the frames of one clip at one size."""

    def __init__(self, width, height, seed, frame_count):
        self.width, self.height = width, height
        self.side = min(width, height) // 2
        self.left, self.top = (width - self.side) // 2, (height - self.side) // 2
        self.centre = (self.left + self.side / 2, self.top + self.side / 2)
        self.seed, self.frame_count = seed, frame_count
        rng = np.random.default_rng([seed, 1])
        self.ink = rng.uniform(30, 60)
        self.drift = rng.uniform(0.03, 0.06) * rng.choice([-1, 1])
        self.paper = self._paper(rng)

    def _paper(self, rng):
        ys, xs = np.mgrid[0:self.height, 0:self.width].astype(np.float32)
        u, v = (xs + 0.5) / self.width - 0.5, (ys + 0.5) / self.height - 0.5
        angle = rng.uniform(0, 2 * math.pi)
        gradient = rng.uniform(6, 12) * (u * math.cos(angle) + v * math.sin(angle))
        vignette = 1 - rng.uniform(0.02, 0.04) * (u * u + v * v) * 2
        return ((rng.uniform(200, 212) + gradient) * vignette).astype(np.float32)

    def to_pixels(self, x, y):
        """Pixel coordinates of a point given in ROI units from the ROI centre."""
        return self.centre[0] + x * self.side, self.centre[1] + y * self.side

    def render(self, frame, index):
        alpha = np.zeros((self.height, self.width), np.float32)
        for placed in frame["digits"]:
            a = self._digit_alpha(placed) * placed["weight"]
            alpha = 1 - (1 - alpha) * (1 - a)
        picture = self.paper * (1 - alpha) + self.ink * alpha
        if frame["hand"] is not None:
            mask, shade = self._hand(frame["hand"])
            picture = picture * (1 - mask) + shade * mask
        t = index / max(1, self.frame_count - 1)
        picture = picture * (1 + self.drift * (t - 0.5)) + self._noise(index)
        return np.clip(np.rint(picture), 0, 255).astype(np.uint8)

    def _digit_alpha(self, placed):
        """The MNIST intensity (0..1) of a placed digit, as a frame-sized layer."""
        field = placed["field"] * self.side
        cx, cy = self.to_pixels(placed["dx"], placed["dy"])
        k = 28 / field
        source = Image.fromarray(placed["digit"]["image"].astype(np.float32) / 255, mode="F")
        layer = source.transform((self.width, self.height), Image.Transform.AFFINE,
                                 (k, 0, 14 - cx * k, 0, k, 14 - cy * k), resample=Image.Resampling.BILINEAR)
        alpha = np.asarray(layer, dtype=np.float32)
        if placed["blur"] > 0:
            alpha = box_blur(alpha, int(round(placed["blur"] * self.side)))
        return np.clip(alpha, 0, 1)

    def _hand(self, hand):
        """(mask 0..1, grey level) of a hand reaching over the ROI from one side:
        a palm and four fingers, in ROI units, with a soft (out of focus) edge."""
        ys, xs = np.mgrid[0:self.height, 0:self.width].astype(np.float32) + 0.5
        x, y = (xs - self.centre[0]) / self.side, (ys - self.centre[1]) / self.side
        # u across the hand, v from the ROI edge the hand comes from (0) inwards (1).
        u, v = {"bottom": (x, 0.5 - y), "left": (y, x + 0.5), "right": (-y, 0.5 - x)}[hand["side"]]
        u = u - hand["shift"]
        distance = np.hypot(u / 0.5, (v + 0.25) / 0.4) - 1   # the palm, an ellipse
        distance *= 0.4
        for i, offset in enumerate((-0.27, -0.09, 0.09, 0.27)):
            tip = hand["reach"] - 0.08 * abs(i - 1.5)
            distance = np.minimum(distance, capsule(u, v, (offset, 0.0), (offset + hand["tilt"], tip), 0.085))
        mask = np.clip(0.5 - distance / 0.03, 0, 1)
        shade = hand["shade"] + 15 * np.clip(v, 0, 1)
        return mask.astype(np.float32), shade.astype(np.float32)

    def _noise(self, index):
        """Camera noise as a denoising webcam leaves it: gaussian blotches,
        constant over square cells of NOISE_CELL px at 320x240, scaled with the
        frame and rounded to a power of two (2 px at 320x240, 4 at 640x480, 8 at
        1280x720: aligned with JPEG's 8x8 blocks), so that the stored clips stay
        compressible."""
        scaled = NOISE_CELL * min(self.width, self.height) / 240
        cell = 2 ** max(0, round(math.log2(scaled)))
        rows, cols = -(-self.height // cell), -(-self.width // cell)
        rng = np.random.default_rng([self.seed, 2, index])
        low = rng.normal(0, NOISE_SIGMA, (rows, cols)).astype(np.float32)
        return np.repeat(np.repeat(low, cell, axis=0), cell, axis=1)[:self.height, :self.width]


def box_blur(layer, length):
    """layer smeared horizontally by a centred box filter of length pixels."""
    if length <= 1:
        return layer
    sums = np.cumsum(np.pad(layer, ((0, 0), (length // 2 + 1, length - length // 2))), axis=1, dtype=np.float64)
    width = layer.shape[1]
    return ((sums[:, length:length + width] - sums[:, :width]) / length).astype(np.float32)


def capsule(u, v, a, b, radius):
    """Distance from (u, v) to the segment a-b, minus radius."""
    du, dv = b[0] - a[0], b[1] - a[1]
    t = np.clip(((u - a[0]) * du + (v - a[1]) * dv) / (du * du + dv * dv), 0, 1)
    return np.hypot(u - a[0] - t * du, v - a[1] - t * dv) - radius


# Formats

def write_clip(path, frames, width, height, fmt):
    """Writes frames (uint8 [height, width] arrays, an iterable) as a clip in
    format fmt, gzipped (mtime 0, so the bytes are reproducible) when path ends
    in .gz. Frame by frame, so long clips need little memory."""
    with open(path, "wb") as raw:
        if path.endswith(".gz"):
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, compresslevel=9, mtime=0) as out:
                encode(frames, width, height, fmt, out)
        else:
            encode(frames, width, height, fmt, raw)


def encode(frames, width, height, fmt, out):
    if fmt in ("y4m-mono", "y4m-420"):
        colour = "mono" if fmt == "y4m-mono" else "420jpeg"
        out.write(f"YUV4MPEG2 W{width} H{height} F{FPS}:1 Ip A1:1 C{colour}\n".encode())
        chroma = bytes([128]) * (2 * ((width + 1) // 2) * ((height + 1) // 2)) if fmt == "y4m-420" else b""
        for frame in frames:
            out.write(b"FRAME\n" + frame.tobytes() + chroma)
    elif fmt == "pgm":
        for frame in frames:
            out.write(f"P5\n{width} {height}\n255\n".encode() + frame.tobytes())
    elif fmt == "png":
        for frame in frames:
            Image.fromarray(frame, mode="L").save(out, format="PNG", compress_level=9)
    elif fmt == "mjpeg":
        for frame in frames:
            Image.fromarray(frame, mode="L").save(out, format="JPEG", quality=JPEG_QUALITY)
    else:
        raise ValueError(f"unknown format {fmt}")


def decode(data, fmt):
    """The frames of a clip as uint8 arrays, and (width, height); raises on
    anything malformed."""
    if fmt in ("y4m-mono", "y4m-420"):
        return decode_y4m(data)
    if fmt == "pgm":
        return decode_pgm(data)
    pieces = split_png(data) if fmt == "png" else split_jpeg(data)
    frames = []
    for piece in pieces:
        image = Image.open(io.BytesIO(piece))
        image.load()
        if image.mode != "L":
            raise ValueError(f"frame {len(frames)}: mode {image.mode}, expected L")
        frames.append(np.asarray(image))
    size = (frames[0].shape[1], frames[0].shape[0]) if frames else (0, 0)
    if any(f.shape != frames[0].shape for f in frames):
        raise ValueError("frames of different sizes")
    return frames, size


def decode_y4m(data):
    end = data.index(b"\n")
    fields = data[:end].split(b" ")
    if fields[0] != b"YUV4MPEG2":
        raise ValueError("not YUV4MPEG2")
    params = {f[:1].decode(): f[1:].decode() for f in fields[1:]}
    width, height = int(params["W"]), int(params["H"])
    chroma = {"mono": 0, "420jpeg": 2 * ((width + 1) // 2) * ((height + 1) // 2)}[params.get("C", "420jpeg")]
    frames, at = [], end + 1
    while at < len(data):
        line_end = data.index(b"\n", at)
        if not data[at:line_end].startswith(b"FRAME"):
            raise ValueError(f"frame {len(frames)}: no FRAME header")
        at = line_end + 1
        if at + width * height + chroma > len(data):
            raise ValueError(f"frame {len(frames)}: truncated")
        frames.append(np.frombuffer(data, np.uint8, width * height, at).reshape(height, width))
        at += width * height + chroma
    return frames, (width, height)


def decode_pgm(data):
    frames, at, size = [], 0, None
    while at < len(data):
        tokens = []
        if data[at:at + 2] != b"P5":
            raise ValueError(f"frame {len(frames)}: not P5")
        at += 2
        while len(tokens) < 3:
            while data[at:at + 1].isspace():
                at += 1
            if data[at:at + 1] == b"#":
                at = data.index(b"\n", at)
                continue
            start = at
            while not data[at:at + 1].isspace():
                at += 1
            tokens.append(int(data[start:at]))
        at += 1   # the single whitespace after maxval
        width, height, maxval = tokens
        if maxval != 255 or (size and size != (width, height)):
            raise ValueError(f"frame {len(frames)}: unexpected header {tokens}")
        size = (width, height)
        frames.append(np.frombuffer(data, np.uint8, width * height, at).reshape(height, width))
        at += width * height
    return frames, size


def split_png(data):
    pieces, at = [], 0
    while at < len(data):
        if data[at:at + 8] != b"\x89PNG\r\n\x1a\n":
            raise ValueError(f"frame {len(pieces)}: no PNG signature")
        end = at + 8
        while True:
            length = int.from_bytes(data[end:end + 4], "big")
            kind = data[end + 4:end + 8]
            end += 12 + length
            if kind == b"IEND":
                break
            if end > len(data):
                raise ValueError(f"frame {len(pieces)}: truncated")
        pieces.append(data[at:end])
        at = end
    return pieces


def split_jpeg(data):
    """Concatenated JPEG files split at their EOI markers (the segments walked,
    the entropy-coded data scanned for markers)."""
    pieces, at = [], 0
    while at < len(data):
        if data[at:at + 2] != b"\xff\xd8":
            raise ValueError(f"frame {len(pieces)}: no SOI")
        end = at + 2
        while True:
            if data[end] != 0xFF:
                raise ValueError(f"frame {len(pieces)}: bad marker at {end}")
            marker = data[end + 1]
            if marker == 0xD9:
                end += 2
                break
            length = int.from_bytes(data[end + 2:end + 4], "big")
            end += 2 + length
            if marker == 0xDA:   # scan data up to the next marker that is not RSTn or a stuffed FF
                while not (data[end] == 0xFF and data[end + 1] != 0 and not 0xD0 <= data[end + 1] <= 0xD7):
                    end += 1
        pieces.append(data[at:end])
        at = end
    return pieces


# Clips

def make_clip(path, scenario, size, fmt, seed, repeat, pool, images):
    """Writes one clip to path, and returns its events document (all but "clip")."""
    width, height = size
    rng = np.random.default_rng([seed, 0])
    script = Script(rng, Digits(rng, pool, images), aspect=(width / 2) / (min(width, height) // 2))
    for _ in range(repeat):
        play(script, scenario)
    events = expected_events([roi_view(f) for f in script.frames])
    camera = Camera(width, height, seed, len(script.frames))
    write_clip(path, (camera.render(f, i) for i, f in enumerate(script.frames)), width, height, fmt)
    return {
        "format": fmt, "width": width, "height": height, "frames": len(script.frames),
        "events": events,
        "fps": FPS, "roi": {"left": camera.left, "top": camera.top, "side": camera.side},
        "scenario": scenario, "seed": seed, "segments": script.segments,
    }


def write_events(path, document):
    lines = json.dumps(document, indent=1).splitlines()
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write_set(out, pool, images):
    os.makedirs(out, exist_ok=True)
    rows = []
    for file_name, scenario, size, fmt, seed in SET:
        document = make_clip(os.path.join(out, file_name), scenario, size, fmt, seed, 1, pool, images)
        write_events(os.path.join(out, file_name + ".events.json"), dict(clip=file_name, **document))
        rows.append((file_name, scenario, size, fmt, seed, document))
        print(f"{file_name}: {os.path.getsize(os.path.join(out, file_name)):,} bytes, {document['frames']} frames, "
              f"{len(document['events'])} events")
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write(readme(rows))
    total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(out, "*")))
    print(f"{len(SET)} clips, README.md and events files: {total:,} bytes in all")


def describe_events(events):
    return ", ".join(f"{e['digit']}@{e['first_frame']}" if e["event"] == "digit" else f"clear@{e['first_frame']}"
                     for e in events)


def readme(rows):
    lines = [
        "# Synthetic camera clips for `digits stream`",
        "",
        "A webcam's view of a sheet of paper on which handwritten MNIST test digits come and go:",
        "paper with a gradient, a lighting drift and camera noise; digits held with a hand's jitter,",
        "one-frame hand occlusions, digits sliding in from the frame edge, sheet swaps with motion-",
        "blurred frames. Beside each clip, `<clip>.events.json` lists the events a stream reader with",
        "K = 3 must report (`first_frame`: the first frame the digit is fully and clearly in the",
        "region of interest, or the first blank frame after it left; `earliest_frame`: the first of",
        "the transient frames just before it, which may or may not already look like the new state,",
        "so the reader's K frames in a row start somewhere in earliest_frame..first_frame) and the",
        "region of interest: the centre square whose side is half the frame's shorter side. The",
        "scene model and the event rules are described in the generator's docstring.",
        "",
        "| clip | scenario | size | format | frames | events (digit@first_frame) |",
        "|---|---|---|---|---|---|",
    ]
    for file_name, scenario, size, fmt, seed, document in rows:
        packed = " (gzipped)" if file_name.endswith(".gz") else ""
        lines.append(f"| `{file_name}` | {scenario} (seed {seed}) | {size[0]}x{size[1]} | {fmt}{packed} | "
                     f"{document['frames']} | {describe_events(document['events'])} |")
    lines += [
        "",
        "Formats: `y4m-mono` is YUV4MPEG2 `Cmono`; `y4m-420` is YUV4MPEG2 `C420jpeg` with flat (128)",
        "chroma; `png`, `pgm` and `mjpeg` are concatenated greyscale PNG, binary PGM (P5) and JPEG",
        "(quality 85) files. The y4m and pgm clips are stored gzipped.",
        "",
        "Made, with fixed seeds, by",
        "",
        "```sh",
        "/usr/bin/python3 Tests/Tools/make_stream_clips.py --mnist DIR",
        "```",
        "",
        "where DIR holds the MNIST test IDX files. Re-running gives the same bytes. Other sizes and",
        "formats of any scenario (e.g. for a benchmark):",
        "",
        "```sh",
        "/usr/bin/python3 Tests/Tools/make_stream_clips.py --mnist DIR --clip scenario --size 1280x720 \\",
        "    --format y4m-420 --out /tmp/scenario-1280x720.y4m [--repeat 5]",
        "/usr/bin/python3 Tests/Tools/make_stream_clips.py --check Tests/Fixtures/stream [--ascii]",
        "```",
        "",
        "The digits are MNIST test images that `Models/digits.pt` classifies correctly with",
        "probability >= 0.99 on the raw 28x28 image.",
        "",
        "MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,",
        "\"The MNIST database of handwritten digits\".",
        "",
    ]
    return "\n".join(lines)


def write_one(args, pool, images):
    """The --clip mode: one clip of a scenario or of a clip of the set."""
    by_name = {row[0]: row for row in SET}
    if args.clip in by_name:
        _, scenario, size, fmt, seed = by_name[args.clip]
    elif args.clip in SCENARIOS:
        scenario, size, fmt, seed = args.clip, (320, 240), "y4m-mono", 1
    else:
        sys.exit(f"--clip: {args.clip} is neither a scenario ({', '.join(SCENARIOS)}) nor a clip of the set")
    size = args.size or size
    fmt = args.format or fmt
    seed = args.seed if args.seed is not None else seed
    out = args.out or f"{scenario}-{seed}-{size[0]}x{size[1]}{EXTENSIONS[fmt]}"
    document = make_clip(out, scenario, size, fmt, seed, args.repeat, pool, images)
    events = out + ".events.json"
    write_events(events, dict(clip=os.path.basename(out), **document))
    print(f"{out}: {os.path.getsize(out):,} bytes, {document['frames']} frames; events in {events}")


# Checking

def read_clip(path, fmt):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return decode(f.read(), fmt)


def ascii_roi(frame, roi, columns=24):
    """The ROI of a frame as text, columns x columns cells, darkest ink '@'."""
    crop = frame[roi["top"]:roi["top"] + roi["side"], roi["left"]:roi["left"] + roi["side"]]
    small = np.asarray(Image.fromarray(crop).resize((columns, columns), Image.Resampling.BOX), dtype=np.float32)
    paper = np.percentile(small, 90)
    ramp = " .:-=+*#%@"
    darkness = np.clip((paper - small) / max(1.0, paper - 30), 0, 0.999)
    return ["".join(ramp[int(d * len(ramp))] * 2 for d in row) for row in darkness]


def check(folder, show_ascii):
    failures = 0
    for events_path in sorted(glob.glob(os.path.join(folder, "*.events.json"))):
        with open(events_path) as f:
            document = json.load(f)
        path = os.path.join(folder, document["clip"])
        try:
            frames, size = read_clip(path, document["format"])
            problems = []
            if len(frames) != document["frames"]:
                problems.append(f"{len(frames)} frames, events file says {document['frames']}")
            if size != (document["width"], document["height"]):
                problems.append(f"size {size}, events file says {document['width']}x{document['height']}")
        except Exception as error:  # a malformed clip is reported, the others still checked
            frames, problems = [], [f"unreadable: {error}"]
        failures += bool(problems)
        print(f"{document['clip']}: {len(frames)} frames, {'; '.join(problems) or 'ok'}; "
              f"events {describe_events(document['events'])}")
        if show_ascii and not problems:
            for index, label in ascii_frames(document):
                print(f"  frame {index}: {label}")
                for line in ascii_roi(frames[index], document["roi"]):
                    print("    |" + line + "|")
    return failures


def ascii_frames(document):
    """Frames worth drawing: the first frame of every segment, and the middle
    frame of every hold."""
    chosen = []
    for s in document["segments"]:
        label = s["kind"] + (f" {s['digit']}" if "digit" in s else "") + (f" {s['old']}->{s['new']}" if "new" in s else "")
        chosen.append((s["first_frame"], label))
        if "occlusion_frame" in s:
            chosen.append((s["occlusion_frame"], "occlusion"))
        if s["kind"] == "enter":
            chosen += [(s["first_frame"] + 1, label), (s["first_frame"] + 2, label)]
        if s["kind"] == "swap" and s["frames"] == 2:
            chosen.append((s["first_frame"] + 1, label))
    return sorted(set(chosen))


# Command line

def parse_size(text):
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text}: expected WIDTHxHEIGHT")
    if width < 16 or height < 16:
        raise argparse.ArgumentTypeError(f"{text}: at least 16x16")
    return width, height


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mnist", help="folder with the MNIST test IDX files (required to make clips)")
    ap.add_argument("--model", default=MODEL, help="TorchScript model that vets the digits (Models/digits.pt)")
    ap.add_argument("--out", help="the folder of the set (Tests/Fixtures/stream), or with --clip "
                                  "the clip file (gzipped when it ends in .gz)")
    ap.add_argument("--clip", help=f"make one clip: a scenario ({', '.join(SCENARIOS)}) or the file name of a clip "
                                   "of the set")
    ap.add_argument("--size", type=parse_size, help="WIDTHxHEIGHT, with --clip")
    ap.add_argument("--format", choices=FORMATS, help="with --clip")
    ap.add_argument("--seed", type=int, help="with --clip")
    ap.add_argument("--repeat", type=int, default=1, help="with --clip: play the scenario this many times")
    ap.add_argument("--check", metavar="DIR", help="read back every clip in DIR and compare with its events file")
    ap.add_argument("--ascii", action="store_true", help="with --check: draw the ROI of a few frames")
    args = ap.parse_args()

    if args.check:
        sys.exit(1 if check(args.check, args.ascii) else 0)
    if not args.mnist:
        ap.error("--mnist DIR is required")
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")
    images, labels = mnist_idx.load_split(args.mnist, "t10k")
    pool = digit_pool(images, labels, args.model)
    if args.clip:
        write_one(args, pool, images)
    else:
        write_set(args.out or OUT, pool, images)


if __name__ == "__main__":
    main()
