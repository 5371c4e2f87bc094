"""Trains the ink locator (Models/locator.pt) on generated scenes.

The scenes come from Models/synth (make_set.py): a digit, a letter, a
symbol, a scribble or nothing on randomized paper under randomized light and
camera, with the coverage of the subject's ink as the target. Nothing else
is trained on: pictures from other people's repositories and data sets are
kept for evaluation.

    /usr/bin/python3 Models/synth/make_set.py --mnist <MNIST folder> --out /tmp/scenes.npz --count 60000 --seed 1 --side 128 --fine 0.12
    /usr/bin/python3 Models/synth/make_set.py --mnist <MNIST folder> --out /tmp/scenes-check.npz --count 1500 --seed 2 --side 128 --fine 0.12
    /usr/bin/python3 Models/train_locator.py --train /tmp/scenes.npz --check /tmp/scenes-check.npz --side 128 --epochs 4 --out Models/locator.pt

The loss is binary cross-entropy against the coverage plus a soft Dice term
per picture (ink is a few percent of the pixels; Dice keeps small digits
from being given up). The check set, another seed, reports per kind how
often the located ink overlaps the true ink and how often a blank scene has
no ink above one half.
"""

import argparse
import hashlib
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from locator_net import LocatorNet  # noqa: E402
import portable_save  # noqa: E402

# A scene "has ink" for the locator when its most probable pixel is above this.
INK = 0.5


def load(path, side):
    """The set's pictures and masks, area-averaged to `side` when it is smaller than the set's."""
    data = np.load(path)
    pictures = torch.from_numpy(data["pictures"]).unsqueeze(1)
    masks = torch.from_numpy(data["masks"]).unsqueeze(1)
    if side < pictures.shape[-1]:
        def shrink(t):
            return torch.cat([F.interpolate(t[i:i + 1000].float(), size=(side, side), mode="area").round().to(torch.uint8)
                              for i in range(0, len(t), 1000)])
        pictures, masks = shrink(pictures), shrink(masks)
    kinds = [str(k) for k in data["kinds"]]
    return pictures, masks, data["labels"], kinds


# Hard negatives: per scene, this many of the most probable pixels more than
# HARD_MARGIN pixels (in either direction) from the subject's ink.
HARD_PIXELS = 24
HARD_MARGIN = 3


def hard_negatives(logits, target, blank_only=False):
    """Binary cross-entropy toward "no ink" of each scene's HARD_PIXELS most
    probable pixels away from its subject. digits sees a subject where the map
    peaks (LocatedInk.seesInk: a peak and a few pixels); the mean over all pixels
    hardly feels a pencil or a plank's seam marked as ink, this does. With
    `blank_only`, only scenes without a subject count."""
    near = F.max_pool2d((target > 0).float(), 2 * HARD_MARGIN + 1, stride=1, padding=HARD_MARGIN)
    away = logits.masked_fill(near > 0, -1e4).flatten(1)
    top = away.topk(HARD_PIXELS, dim=1).values
    valid = top > -1e3
    if blank_only:
        valid = valid & (target.flatten(1).sum(dim=1, keepdim=True) == 0)
    losses = F.binary_cross_entropy_with_logits(top, torch.zeros_like(top), reduction="none")
    return (losses * valid).sum() / valid.sum().clamp(min=1)


def loss_of(logits, target, hard_weight=0.0, hard_blank_only=False):
    bce = F.binary_cross_entropy_with_logits(logits, target)
    p = torch.sigmoid(logits)
    inter = (p * target).sum(dim=(1, 2, 3))
    total = p.sum(dim=(1, 2, 3)) + target.sum(dim=(1, 2, 3))
    has = (target.sum(dim=(1, 2, 3)) > 0).float()
    dice = 1 - (2 * inter + 1) / (total + 1)
    loss = bce * 10 + (dice * has).sum() / has.sum().clamp(min=1)
    if hard_weight > 0:
        loss = loss + hard_weight * hard_negatives(logits, target, hard_blank_only)
    return loss


def check(model, pictures, masks, labels, kinds, batch=64):
    model.eval()
    found = {}
    with torch.no_grad():
        for start in range(0, len(pictures), batch):
            x = pictures[start:start + batch].float() / 255
            t = masks[start:start + batch].float() / 255
            p = model(x)
            for i in range(len(x)):
                kind = kinds[start + i]
                blank = labels[start + i] < 0
                seen = bool(p[i].max() > INK)
                if blank:
                    ok = not seen
                else:
                    pred, true = p[i] > INK, t[i] > 0.3
                    iou = (pred & true).sum().item() / max(1, (pred | true).sum().item())
                    ok = seen and iou >= 0.5
                found.setdefault(kind, []).append(ok)
    model.train()
    return {k: (sum(v) / len(v), len(v)) for k, v in sorted(found.items())}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--train", required=True, help="scenes to train on (make_set.py's npz)")
    ap.add_argument("--check", required=True, help="scenes of another seed to report on")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "locator.pt"))
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--width", type=int, default=16)
    ap.add_argument("--side", type=int, default=128, help="the longer side of the pictures the locator is given")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--init", help="a locator (TorchScript) to start from instead of random weights: a fine-tune")
    ap.add_argument("--hard-negatives", type=float, default=0.0,
                    help="weight of the hard-negative term (hard_negatives(); default 0, the recipe before it)")
    ap.add_argument("--hard-blanks-only", action="store_true", help="the hard-negative term on blank scenes only")
    args = ap.parse_args()
    if args.hard_negatives < 0:
        ap.error(f"--hard-negatives must be 0 or more, got {args.hard_negatives}")

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    pictures, masks, _, _ = load(args.train, args.side)
    check_set = load(args.check, args.side)
    model = LocatorNet(args.width)
    if args.init:
        model.load_state_dict(torch.jit.load(args.init).state_dict())
    print(f"torch {torch.__version__}, {args.threads} threads, {sum(p.numel() for p in model.parameters())} "
          f"parameters, {len(pictures)} scenes to train on, {len(check_set[0])} to check", flush=True)
    steps = (len(pictures) + args.batch - 1) // args.batch
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, epochs=args.epochs, steps_per_epoch=steps)
    started = time.time()
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(len(pictures), generator=gen)
        total = 0.0
        for step in range(steps):
            idx = order[step * args.batch:(step + 1) * args.batch]
            x = pictures[idx].float() / 255
            t = masks[idx].float() / 255
            # Mirrored pictures are pictures too (the subject's ink is no less ink).
            if torch.rand(1, generator=gen).item() < 0.5:
                x, t = x.flip(3), t.flip(3)
            loss = loss_of(model.logits(x), t, args.hard_negatives, args.hard_blanks_only)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss)
        report = check(model, *check_set)
        overall = sum(r * n for r, n in report.values()) / sum(n for _, n in report.values())
        print(f"epoch {epoch}: loss {total / steps:.4f}, check {overall * 100:.1f}%, {time.time() - started:.0f} s",
              flush=True)
    for kind, (rate, n) in check(model, *check_set).items():
        print(f"  {kind:<16} {rate * 100:5.1f}% of {n}")
    # check() leaves the model training; the export must use the running
    # batch-norm statistics, not those of its one picture.
    model.eval()
    with torch.no_grad():
        saved = torch.jit.trace(model, torch.rand(1, 1, args.side, args.side))
    portable_save.save(saved, args.out)
    with open(args.out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    print(f"saved {args.out}: training {time.time() - started:.0f} s, sha256 {digest}")


if __name__ == "__main__":
    main()
