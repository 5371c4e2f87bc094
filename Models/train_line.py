#!/usr/bin/env python3
"""Trains the line model that reads a run of touching digits, and exports it
as TorchScript.

Run with Debian's python3-torch (the interpreter in the system bin dir), so
that the exported file matches the libtorch the Swift package links:

    /usr/bin/python3 Models/train_line.py --data ../shared/datasets/mnist --out Models/digit-line.pt

Why a second model: the single-digit model reads halves of a digit and pairs
of digits as surely as whole digits, so cutting a glyph of touching digits
and asking it about every piece (the reader's cuts) chooses the wrong cut
more often than not. This network reads the whole run at once and is
trained with CTC (connectionist temporal classification), so it learns
where one digit ends and the next begins from runs of digits that touch and
overlap, and needs no cut at all.

Input: float32 [N, 1, 28, W], W >= 8: a run's ink box scaled to 20 pixels
high (aspect kept: area averaging when shrinking, bilinear when enlarging),
with 4 background pixels on every side, light ink on black, normalized as
MNIST: (p/255 - 0.1307) / 0.3081 (the reader's LineTensor does exactly
this). Output: float32 [N, W // 2, 11] log-probabilities, one row per two
columns; class 0 is CTC's blank, class d + 1 is digit d.

Runs are made here from MNIST *training* digits only (the reader's test
fixtures are made from test digits): 1 to 10 digits, touching or overlapping
as Tests/Tools/make_number_fixtures.py lays them out, or a few pixels apart,
with the same size and baseline jitter; a share is typeset in the fonts
scripts/install-deps --dev installs, letter-spaced until the digits touch.
The last 5,000 training digits are held out to measure the exact-run
accuracy printed at the end.

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import argparse
import glob
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from PIL import Image, ImageDraw, ImageFont
from scipy import ndimage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mnist_idx  # noqa: E402
import portable_save  # noqa: E402

MEAN = 0.1307
STD = 0.3081
BOX = 20  # the run's ink height in the tensor
PAD = 4  # background on every side
CLASSES = 11  # blank + ten digits
FONT_PATTERNS = ["dejavu/DejaVu*.ttf", "liberation2/Liberation*.ttf", "freefont/Free*.ttf"]


class LineNet(nn.Module):
    """Three conv blocks over the 28-pixel-high run (16, 32, 64 channels; the
    first pools 2x2, the others halve only the height), then the columns
    as a sequence: a 1x1 and two width-5 1-D convolutions (128 channels)
    and a per-column classifier over blank and the ten digits."""

    def __init__(self):
        super().__init__()

        def conv(cin, cout):
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

        self.features = nn.Sequential(
            *conv(1, 16), *conv(16, 32), nn.MaxPool2d(2),  # 14 x W/2
            *conv(32, 64), nn.MaxPool2d((2, 1)),  # 7 x W/2
            *conv(64, 64),
        )
        self.sequence = nn.Sequential(
            nn.Conv1d(64 * 7, 128, 1), nn.ReLU(inplace=True), nn.Dropout(0.2),
            nn.Conv1d(128, 128, 5, padding=2), nn.ReLU(inplace=True), nn.Dropout(0.2),
            nn.Conv1d(128, 128, 5, padding=2), nn.ReLU(inplace=True),
            nn.Conv1d(128, CLASSES, 1),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x)
        f = f.reshape(f.shape[0], f.shape[1] * f.shape[2], f.shape[3])
        return F.log_softmax(self.sequence(f), dim=1).transpose(1, 2)


def fonts():
    found = []
    for pattern in FONT_PATTERNS:
        found += glob.glob(os.path.join("/usr/share/fonts/truetype", pattern))
    return sorted(found)


class RunMaker:
    """Pictures of runs of digits (ink coverage in [0, 1]) and their text."""

    def __init__(self, images, labels, fonts, rng):
        self.by_digit = [images[labels == d] for d in range(10)]
        self.fonts = fonts
        self.rng = rng

    def digit(self, d, height):
        rng = self.rng
        pool = self.by_digit[d]
        image = pool[rng.integers(len(pool))]
        rows = np.flatnonzero(image.max(axis=1) > 0)
        cols = np.flatnonzero(image.max(axis=0) > 0)
        crop = image[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
        scale = height / crop.shape[0] * rng.uniform(0.9, 1.1)
        width = max(2, int(round(crop.shape[1] * scale * rng.uniform(0.85, 1.15))))
        resized = Image.fromarray(crop, "L").resize((width, max(2, int(round(height * rng.uniform(0.9, 1.1))))),
                                                    Image.BILINEAR)
        return np.asarray(resized, dtype=np.float32) / 255

    def handwritten(self, text, layout):
        rng = self.rng
        height = int(rng.integers(22, 44))
        glyphs = [self.digit(int(c), height) for c in text]
        margin = height
        width = sum(g.shape[1] for g in glyphs) + height * len(glyphs) + 2 * margin
        canvas = np.zeros((height * 2 + 2 * margin, width), dtype=np.float32)
        baseline = margin + int(height * 1.4)
        x = margin
        for k, glyph in enumerate(glyphs):
            h, w = glyph.shape
            y = baseline - h + int(round(height * rng.uniform(-0.05, 0.05)))
            if k > 0:
                x = self.place(canvas, glyph, x, y, height, layout)
            region = canvas[y:y + h, x:x + w]
            np.maximum(region, glyph, out=region)
            x += w
        return canvas

    def place(self, canvas, glyph, x, y, height, layout):
        """The column at which `glyph` starts after the ink so far: moved left
        until its ink, grown by a pixel, meets the canvas's (touching), then
        further (overlapping), or a small gap after it."""
        rng = self.rng
        grown = ndimage.binary_dilation(glyph > 0.25, structure=np.ones((3, 3), dtype=bool))
        h, w = glyph.shape
        ink = canvas[y:y + h] > 0.25
        # For every row, the last ink column of the canvas and the first of the glyph.
        has_canvas = ink.any(axis=1)
        has_glyph = grown.any(axis=1)
        rows = has_canvas & has_glyph
        if not rows.any():
            return x + int(height * 0.05)
        last = np.where(has_canvas, ink.shape[1] - 1 - np.argmax(ink[:, ::-1], axis=1), -1)
        first = np.argmax(grown, axis=1)
        meet = int(np.max(last[rows] - first[rows])) + 1  # the leftmost start where no row overlaps
        if layout == "touching":
            return max(0, meet - 1)
        if layout == "overlapping":
            return max(0, meet - 1 - int(round(height * rng.uniform(0.04, 0.12))))
        return meet + int(round(height * rng.uniform(0.0, 0.06)))

    def printed(self, text):
        rng = self.rng
        height = int(rng.integers(22, 44))
        font = ImageFont.truetype(str(rng.choice(self.fonts)), size=int(round(height * 1.4)))
        spacing = -rng.uniform(0.0, 0.15) * height
        image = Image.new("L", (int(height * 1.2) * len(text) + 4 * height, 4 * height), 0)
        draw = ImageDraw.Draw(image)
        x = float(height)
        for c in text:
            left, _, right, _ = font.getbbox(c)
            draw.text((x - left, height), c, fill=255, font=font)
            x += right - left + spacing
        return np.asarray(image, dtype=np.float32) / 255

    def run(self):
        rng = self.rng
        length = int(rng.choice([1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 6, 7, 8, 9, 10]))
        text = "".join(str(d) for d in rng.integers(0, 10, length))
        if self.fonts and rng.random() < 0.12:
            alpha = self.printed(text)
        else:
            layout = rng.choice(["touching", "overlapping", "gap"], p=[0.45, 0.4, 0.15])
            alpha = self.handwritten(text, layout)
        if rng.random() < 0.25:  # thinner or bolder strokes
            alpha = (ndimage.grey_dilation if rng.random() < 0.5 else ndimage.grey_erosion)(alpha, size=(2, 2))
        if rng.random() < 0.5:  # the reader's ink map drops the faintest edge pixels
            alpha = np.where(alpha < rng.uniform(0.05, 0.3), 0, alpha)
        return line_tensor(alpha), text


def line_tensor(alpha):
    """What LineTensor.swift makes of a run's ink in [0, 1]: the ink box
    scaled to BOX pixels high, PAD pixels of background around it, in
    [0, 255]. Nil for no ink."""
    rows = np.flatnonzero(alpha.max(axis=1) > 0)
    cols = np.flatnonzero(alpha.max(axis=0) > 0)
    if len(rows) == 0:
        return None
    crop = alpha[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]
    scale = BOX / crop.shape[0]
    width = max(1, int(crop.shape[1] * scale + 0.5))
    resample = Image.BOX if scale < 1 else Image.BILINEAR
    scaled = np.asarray(Image.fromarray(crop * 255, "F").resize((width, BOX), resample), dtype=np.float32)
    out = np.zeros((BOX + 2 * PAD, width + 2 * PAD), dtype=np.float32)
    out[PAD:PAD + BOX, PAD:PAD + width] = np.clip(scaled, 0, 255)
    return out


def batches(samples, size, rng):
    """Batches of similar widths, in random order: (x [N,1,28,W], targets,
    input lengths, target lengths)."""
    order = sorted(range(len(samples)), key=lambda i: samples[i][0].shape[1] + rng.uniform(0, 6))
    groups = [order[i:i + size] for i in range(0, len(order), size)]
    rng.shuffle(groups)
    for group in groups:
        width = max(samples[i][0].shape[1] for i in group)
        x = np.full((len(group), 1, BOX + 2 * PAD, width), 0, dtype=np.float32)
        for k, i in enumerate(group):
            image = samples[i][0]
            x[k, 0, :, :image.shape[1]] = image
        x = (torch.from_numpy(x) / 255 - MEAN) / STD
        targets = torch.tensor([int(c) + 1 for i in group for c in samples[i][1]], dtype=torch.long)
        input_lengths = torch.tensor([samples[i][0].shape[1] // 2 for i in group], dtype=torch.long)
        target_lengths = torch.tensor([len(samples[i][1]) for i in group], dtype=torch.long)
        yield x, targets, input_lengths, target_lengths, group


def greedy(log_probabilities, length):
    best = log_probabilities[:length].argmax(1).tolist()
    out, previous = [], 0
    for c in best:
        if c != 0 and c != previous:
            out.append(str(c - 1))
        previous = c
    return "".join(out)


def accuracy(model, samples):
    model.eval()
    right = 0
    rng = np.random.default_rng(0)
    with torch.no_grad():
        for x, _, lengths, _, group in batches(samples, 256, rng):
            out = model(x)
            for k, i in enumerate(group):
                right += greedy(out[k], int(lengths[k])) == samples[i][1]
    return right / len(samples)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="folder with the MNIST training IDX files (.gz or raw)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "digit-line.pt"))
    ap.add_argument("--runs", type=int, default=40000, help="training runs made anew for each epoch")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate of the one-cycle schedule")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    images, labels = mnist_idx.load_split(args.data, "train")
    held = 5000
    found = fonts()
    maker = RunMaker(images[:-held], labels[:-held], found, rng)
    check = RunMaker(images[-held:], labels[-held:], found, np.random.default_rng(args.seed + 1000))
    validation = [check.run() for _ in range(2000)]

    model = LineNet()
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * ((args.runs + args.batch - 1) // args.batch + 64)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=args.lr, total_steps=steps, pct_start=0.15)
    ctc = nn.CTCLoss(blank=0, zero_infinity=True)
    started = time.time()
    for epoch in range(args.epochs):
        made = time.time()
        samples = [maker.run() for _ in range(args.runs)]
        made = time.time() - made
        model.train()
        total, count = 0.0, 0
        for x, targets, input_lengths, target_lengths, _ in batches(samples, args.batch, rng):
            out = model(x).transpose(0, 1)  # [T, N, C] for CTCLoss
            loss = ctc(out, targets, input_lengths, target_lengths)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            total += float(loss) * len(input_lengths)
            count += len(input_lengths)
        print(f"epoch {epoch + 1}: loss {total / count:.4f}, held-out runs read exactly "
              f"{accuracy(model, validation) * 100:.1f}% ({made:.0f} s making runs, "
              f"{time.time() - started:.0f} s in all)", flush=True)

    model.eval()
    scripted = torch.jit.script(model)
    portable_save.save(scripted, args.out)
    final = accuracy(torch.jit.load(args.out), validation)
    print(f"saved {args.out}: held-out runs read exactly {final * 100:.2f}% "
          f"({round(final * len(validation))}/{len(validation)})")


if __name__ == "__main__":
    main()
