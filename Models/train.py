#!/usr/bin/env python3
"""Trains the digits CNN on MNIST and exports it as TorchScript.

Run with Debian's python3-torch (the interpreter in the system bin dir), so
that the exported file matches the libtorch the Swift package links:

    /usr/bin/python3 Models/train.py --data ../shared/datasets/mnist --out Models/digits.pt

The network reads a [N, 1, 28, 28] float32 tensor normalized as
torchvision's ToTensor() + Normalize((0.1307,), (0.3081,)) and returns
[N, 10] log-probabilities (log_softmax), or [N, 11] with a "not a digit"
class last when trained with --glyphs (Models/synth/glyph_set.py: typeset,
7-segment and counter digits, and letters, symbols, scribbles, parts and
pairs of digits labelled 10).

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import argparse
import hashlib
import math
import os
import random
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mnist_idx  # noqa: E402
import outliers  # noqa: E402
import portable_save  # noqa: E402
import typeset  # noqa: E402

MEAN = 0.1307
STD = 0.3081


class DigitNet(nn.Module):
    """Two conv blocks (32 and 64 channels, two 3x3 convs each) and a
    128-unit classifier head; batch norm after every conv, dropout in the head."""

    def __init__(self, classes=10):
        super().__init__()

        def block(cin, cout):
            return nn.Sequential(
                nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True),
                nn.MaxPool2d(2),
            )

        self.features = nn.Sequential(block(1, 32), block(32, 64))
        self.head = nn.Sequential(
            nn.Flatten(),
            nn.Dropout(0.25),
            nn.Linear(64 * 7 * 7, 128),
            nn.ReLU(inplace=True),
            nn.Dropout(0.25),
            nn.Linear(128, classes),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.log_softmax(self.head(self.features(x)), dim=1)


def random_affine(x, gen, degrees, scale, shear, translate):
    """Applies one small random affine warp per image of x ([N,1,28,28], ink
    bright on 0 background) with bilinear resampling."""
    n = x.shape[0]

    def uniform(lo, hi):
        return torch.rand(n, generator=gen) * (hi - lo) + lo

    angle = uniform(-degrees, degrees) * math.pi / 180
    s = uniform(1 - scale, 1 + scale)
    sh = uniform(-shear, shear)
    tx = uniform(-translate, translate) * 2 / 28
    ty = uniform(-translate, translate) * 2 / 28
    cos, sin = torch.cos(angle), torch.sin(angle)
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = cos / s
    theta[:, 0, 1] = (-sin + sh * cos) / s
    theta[:, 1, 0] = sin / s
    theta[:, 1, 1] = (cos + sh * sin) / s
    theta[:, 0, 2] = tx
    theta[:, 1, 2] = ty
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)


def stroke_width(x, gen, probability=0.3):
    """Thickens (3x3 dilation) or thins (half-strength 3x3 erosion: a full one
    erases MNIST's 2-3 pixel strokes) the strokes of a random share of the
    images, as pens and scanners do."""
    n = x.shape[0]
    choice = torch.rand(n, generator=gen)
    thick = F.max_pool2d(x, 3, stride=1, padding=1)
    thin = (x - F.max_pool2d(-x, 3, stride=1, padding=1)) / 2
    pick_thick = (choice < probability / 2).view(n, 1, 1, 1)
    pick_thin = ((choice >= probability / 2) & (choice < probability)).view(n, 1, 1, 1)
    return torch.where(pick_thick, thick, torch.where(pick_thin, thin, x))


def elastic(x, gen, alpha=1.5, sigma=4.0, probability=0.5):
    """Elastic distortion (Simard et al., 2003): a smooth random displacement
    field of up to about `alpha` pixels, for a random share of the images."""
    n = x.shape[0]
    field = torch.rand(n, 2, 28, 28, generator=gen) * 2 - 1
    radius = int(2 * sigma)
    kernel = torch.exp(-torch.arange(-radius, radius + 1, dtype=torch.float32) ** 2 / (2 * sigma ** 2))
    kernel = kernel / kernel.sum()
    field = F.conv2d(field.reshape(n * 2, 1, 28, 28), kernel.view(1, 1, 1, -1), padding=(0, radius))
    field = F.conv2d(field, kernel.view(1, 1, -1, 1), padding=(radius, 0)).reshape(n, 2, 28, 28)
    field = field / field.abs().amax(dim=(2, 3), keepdim=True).clamp_min(1e-6) * alpha * 2 / 28
    apply = (torch.rand(n, generator=gen) < probability).view(n, 1, 1, 1)
    base = F.affine_grid(torch.eye(2, 3).expand(n, 2, 3), [n, 1, 28, 28], align_corners=False)
    grid = base + field.permute(0, 2, 3, 1) * apply
    return F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)


def augment(x, gen, level):
    """level 1: the first model's affine warp only; level 2: also stroke width and elastic distortion."""
    x = random_affine(x, gen, degrees=10, scale=0.1, shear=0.15, translate=2)
    if level >= 2:
        x = elastic(stroke_width(x, gen), gen)
    return x


def normalize(pixels01):
    return (pixels01 - MEAN) / STD


class Calibrated(nn.Module):
    """The trained network with its logits divided by a fitted temperature
    before log_softmax, so the exported model's probabilities are calibrated."""

    def __init__(self, net: DigitNet, temperature: float):
        super().__init__()
        self.features = net.features
        self.head = net.head
        self.temperature = temperature

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.log_softmax(self.head(self.features(x)) / self.temperature, dim=1)


def logits_of(net, images, batch=1000):
    net.eval()
    with torch.no_grad():
        return torch.cat([net.head(net.features(normalize(images[i:i + batch]))) for i in range(0, len(images), batch)])


def fit_temperature(logits, labels):
    """The temperature minimizing the negative log-likelihood (LBFGS on log T)."""
    log_t = torch.zeros(1, requires_grad=True)
    opt = torch.optim.LBFGS([log_t], lr=0.1, max_iter=200)

    def closure():
        opt.zero_grad()
        loss = F.cross_entropy(logits / log_t.exp(), labels)
        loss.backward()
        return loss

    opt.step(closure)
    return float(log_t.exp())


def expected_calibration_error(logits, labels, bins=15):
    """ECE: the confidence-weighted gap between confidence and accuracy, in 15 equal bins."""
    probabilities = F.softmax(logits, dim=1)
    confidence, predicted = probabilities.max(1)
    correct = (predicted == labels).float()
    edges = torch.linspace(0, 1, bins + 1)
    ece = torch.zeros(1)
    for lo, hi in zip(edges[:-1], edges[1:]):
        inside = (confidence > lo) & (confidence <= hi)
        if inside.any():
            ece += inside.float().mean() * (confidence[inside].mean() - correct[inside].mean()).abs()
    return float(ece)


def outlier_confidence(model, images, batch=1000):
    """The mean top probability the model gives pictures that are not one
    digit (0.1 is the floor: the ten digits equally likely)."""
    model.eval()
    with torch.no_grad():
        top = [model(normalize(images[i:i + batch])).exp().amax(1) for i in range(0, len(images), batch)]
    return float(torch.cat(top).mean())


def outlier_loss(log_probabilities):
    """Cross-entropy to the uniform distribution over the ten digits (outlier exposure)."""
    return -log_probabilities.mean(1).mean()


def glyph_report(model, images, labels):
    """How the held-out glyphs fare: not-digits answered "not a digit", digits read right."""
    model.eval()
    with torch.no_grad():
        predicted = torch.cat([model(normalize(images[i:i + 1000])).argmax(1) for i in range(0, len(images), 1000)])
    negative = labels == 10
    rejected = float((predicted[negative] == 10).float().mean())
    read = float((predicted[~negative] == labels[~negative]).float().mean())
    return f", held-out glyphs: not digits rejected {rejected * 100:.1f}%, digits read {read * 100:.1f}%"


def evaluate(model, images, labels, batch=1000):
    model.eval()
    correct = 0
    with torch.no_grad():
        for i in range(0, len(images), batch):
            out = model(normalize(images[i:i + batch]))
            correct += int((out.argmax(1) == labels[i:i + batch]).sum())
    return correct / len(images)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="folder with the four MNIST IDX files (.gz or raw)")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "digits.pt"))
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3, help="peak learning rate of the one-cycle schedule")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--augment", type=int, default=2, choices=(1, 2),
                    help="1: affine warp; 2: also stroke width and elastic distortion")
    ap.add_argument("--validation", type=int, default=5000,
                    help="hold out this many training images to fit a temperature (0: no calibration)")
    ap.add_argument("--export", choices=("script", "trace"), default="trace",
                    help="trace: measured faster in digits' runtime than script (Models/README.md)")
    ap.add_argument("--init", help="start from this model's weights (a TorchScript file such as Models/digits.pt) "
                    "instead of random ones: fine-tuning")
    ap.add_argument("--outliers", type=float, default=0.0,
                    help="outlier pictures (pairs, parts, overhangs: Models/outliers.py) per training digit "
                         "in each batch, trained toward equal probabilities (0: none)")
    ap.add_argument("--outlier-weight", type=float, default=0.5, help="weight of the outlier loss")
    ap.add_argument("--typeset", type=float, default=0.0,
                    help="typeset digits (Models/typeset.py: faces no test fixture uses) per training digit "
                         "in each batch (0: none)")
    ap.add_argument("--glyphs", help="glyphs with a \"not a digit\" class (Models/synth/glyph_set.py's npz): "
                    "the model gets an 11th class")
    ap.add_argument("--glyph-share", type=float, default=0.3,
                    help="glyphs per training digit in each batch (with --glyphs)")
    ap.add_argument("--state", help="also save the trained weights and temperature here (for Models/export.py)")
    args = ap.parse_args()

    # Debian's OpenMP build starts with one thread; ask for all cores.
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)

    train_x, train_y = mnist_idx.load_split(args.data, "train")
    test_x, test_y = mnist_idx.load_split(args.data, "t10k")
    to01 = lambda a: torch.from_numpy(a.astype(np.float32) / 255.0).unsqueeze(1)  # noqa: E731
    train_x, test_x = to01(train_x), to01(test_x)
    train_y, test_y = torch.from_numpy(train_y.astype(np.int64)), torch.from_numpy(test_y.astype(np.int64))
    if args.validation:
        held = torch.randperm(len(train_x), generator=torch.Generator().manual_seed(args.seed + 1000))
        val_x, val_y = train_x[held[:args.validation]], train_y[held[:args.validation]]
        train_x, train_y = train_x[held[args.validation:]], train_y[held[args.validation:]]

    glyphs = glyphs_y = check_glyphs = check_glyphs_y = None
    if args.glyphs:
        data = np.load(args.glyphs)
        all_glyphs = torch.from_numpy(data["images"].astype(np.float32) / 255).unsqueeze(1)
        all_glyphs_y = torch.from_numpy(data["labels"].astype(np.int64))
        # A tenth is held out: half to fit the temperature with, half to report on.
        split = len(all_glyphs) // 10
        glyphs, glyphs_y = all_glyphs[split:], all_glyphs_y[split:]
        check_glyphs, check_glyphs_y = all_glyphs[:split // 2], all_glyphs_y[:split // 2]
        if args.validation:
            val_x = torch.cat([val_x, all_glyphs[split // 2:split]])
            val_y = torch.cat([val_y, all_glyphs_y[split // 2:split]])
        print(f"{len(glyphs)} glyphs to train on ({int((glyphs_y == 10).sum())} not digits)", flush=True)
    model = DigitNet(11 if args.glyphs else 10)
    if args.init:
        weights = torch.jit.load(args.init).state_dict()
        own = model.state_dict()
        for name, value in weights.items():
            if own[name].shape == value.shape:
                own[name] = value
            else:
                # A 10-class model's last layer into an 11-class one: the
                # digits' rows kept, "not a digit" starts at zero.
                own[name][:value.shape[0]] = value
                own[name][value.shape[0]:] = 0
        model.load_state_dict(own)
    pool = held_out_outliers = None
    if args.outliers:
        rng = np.random.default_rng(args.seed)
        as_bytes = lambda t: (t.squeeze(1).numpy() * 255).astype(np.uint8)  # noqa: E731
        pool = torch.from_numpy(outliers.make(as_bytes(train_x), 40000, rng)).unsqueeze(1)
        held_out_outliers = torch.from_numpy(outliers.make(as_bytes(test_x), 5000, rng)).unsqueeze(1)
        print(f"{len(pool)} outlier pictures to train on; 5000 more from the test digits to measure; "
              f"mean top probability on those before: {outlier_confidence(model, held_out_outliers) * 100:.1f}%",
              flush=True)
    printed = printed_y = None
    if args.typeset:
        printed, printed_y = typeset.make()
        printed, printed_y = torch.from_numpy(printed.astype(np.float32) / 255).unsqueeze(1), torch.from_numpy(printed_y)
        print(f"{len(printed)} typeset digits to train on", flush=True)
    params = sum(p.numel() for p in model.parameters())
    print(f"torch {torch.__version__}, {args.threads} threads, {params} parameters", flush=True)

    steps_per_epoch = math.ceil(len(train_x) / args.batch)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, epochs=args.epochs, steps_per_epoch=steps_per_epoch)

    started = time.time()
    for epoch in range(1, args.epochs + 1):
        model.train()
        order = torch.randperm(len(train_x), generator=gen)
        total_loss = 0.0
        for step in range(steps_per_epoch):
            idx = order[step * args.batch:(step + 1) * args.batch]
            x, y = augment(train_x[idx], gen, args.augment), train_y[idx]
            if printed is not None:
                pick = torch.randint(len(printed), (max(1, int(len(idx) * args.typeset)),), generator=gen)
                x = torch.cat([x, augment(printed[pick], gen, args.augment)])
                y = torch.cat([y, printed_y[pick]])
            if glyphs is not None:
                pick = torch.randint(len(glyphs), (max(1, int(len(idx) * args.glyph_share)),), generator=gen)
                x = torch.cat([x, augment(glyphs[pick], gen, args.augment)])
                y = torch.cat([y, glyphs_y[pick]])
            if pool is not None:
                extra = max(1, int(len(idx) * args.outliers))
                junk = augment(pool[torch.randint(len(pool), (extra,), generator=gen)], gen, args.augment)
                out = model(normalize(torch.cat([x, junk])))
                loss = F.nll_loss(out[:len(y)], y) + args.outlier_weight * outlier_loss(out[len(y):])
            else:
                loss = F.nll_loss(model(normalize(x)), y)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total_loss += float(loss)
        acc = evaluate(model, test_x, test_y)
        junk = "" if pool is None else f", outlier top probability {outlier_confidence(model, held_out_outliers) * 100:.1f}%"
        if check_glyphs is not None:
            junk += glyph_report(model, check_glyphs, check_glyphs_y)
        print(f"epoch {epoch}: loss {total_loss / steps_per_epoch:.4f}, test accuracy {acc * 100:.2f}%{junk}, "
              f"{time.time() - started:.0f} s", flush=True)

    model.eval()
    exported = model
    test_logits = logits_of(model, test_x)
    print(f"test ECE before calibration: {expected_calibration_error(test_logits, test_y) * 100:.2f}%")
    if args.validation:
        temperature = fit_temperature(logits_of(model, val_x), val_y)
        exported = Calibrated(model, temperature).eval()
        print(f"temperature {temperature:.4f} (fitted on {args.validation} held-out training images); "
              f"test ECE after: {expected_calibration_error(test_logits / temperature, test_y) * 100:.2f}%")
    if args.state:
        torch.save({"weights": model.state_dict(), "temperature": getattr(exported, "temperature", 1.0)}, args.state)
    with torch.no_grad():
        if args.export == "trace":
            saved = torch.jit.trace(exported, torch.zeros(1, 1, 28, 28))
        else:
            saved = torch.jit.script(exported)
    portable_save.save(saved, args.out)
    with open(args.out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    final = evaluate(torch.jit.load(args.out), test_x, test_y)
    if held_out_outliers is not None:
        print(f"saved model's mean top probability on the held-out outliers: "
              f"{outlier_confidence(torch.jit.load(args.out), held_out_outliers) * 100:.1f}%")
    print(f"saved {args.out}: test accuracy {final * 100:.2f}% ({round(final * len(test_x))}/{len(test_x)}), "
          f"training {time.time() - started:.0f} s, sha256 {digest}")


if __name__ == "__main__":
    main()
