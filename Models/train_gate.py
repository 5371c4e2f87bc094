"""Trains the subject gate (Models/subject_gate.py) on an ungated locator, frozen, and exports both.

The gate answers whether a scene holds a subject at all; the locator's map
stays as it is. Scenes come from Models/synth (make_set.py); blank scenes
(label -1) hold the same clutter as the others (pencils, rods, desks, meter
windows), so they are the negatives.

    /usr/bin/python3 Models/synth/make_set.py --mnist <MNIST folder> --out /tmp/gate-train.npz --count 60000 --seed 12 \\
        --side 128 --fine 0.12 --pencils --rods 0.5 --windows 0.5 --dark-lines
    /usr/bin/python3 Models/synth/make_set.py --mnist <MNIST folder> --out /tmp/gate-check.npz --count 3000 --seed 2 \\
        --side 128 --fine 0.12 --pencils --rods 0.5 --windows 0.5 --dark-lines
    git show a802415:Models/locator.pt > /tmp/locator-0.22.pt   # the locator 0.22.0 to 0.32.3 shipped
    /usr/bin/python3 Models/train_gate.py --locator /tmp/locator-0.22.pt --train /tmp/gate-train.npz \\
        --check /tmp/gate-check.npz --threads 2 --out Models/locator.pt

The threshold (--threshold, 0.05) was chosen among 0.05, 0.1, 0.2 and 0.3 on
development seeds of the evaluation generators and the committed photos
(docs/accuracy.md, the 0.33.0 paragraph): from 0.1 up the gate shut out
a committed pencil photo the locator reads. The script prints, on the check
scenes (another seed of the training generator), how many subjects the map
sees by digits' rule (LocatedInk.seesInk) each threshold would shut out, and
how many blank scenes it would leave seen as ink.
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
from subject_gate import GatedLocator, SubjectGate  # noqa: E402
from locator_seen import sees_ink  # noqa: E402
import portable_save  # noqa: E402


def features(locator, path, batch=100):
    """Per scene: the locator's deepest features (float16), the map's summary
    for the gate, whether digits' rule sees ink in the picture (not its
    padding), the label and the kind."""
    data = np.load(path)
    pictures = torch.from_numpy(data["pictures"]).unsqueeze(1)
    sizes = data["sizes"]
    deep, weights, tops, seen = [], [], [], []
    with torch.no_grad():
        for start in range(0, len(pictures), batch):
            x = pictures[start:start + batch].float() / 255
            e1, e2, e3 = locator.encode(x)
            logits = locator.decode(e1, e2, e3)
            w, top = SubjectGate.map_summary(e3, logits)
            deep.append(e3.half())
            weights.append(w)
            tops.append(top)
            p = torch.sigmoid(logits)
            for i in range(len(x)):
                height, width = sizes[start + i]
                seen.append(sees_ink(p[i, 0, :height, :width]))
    kinds = np.array([str(k) for k in data["kinds"]])
    return torch.cat(deep), torch.cat(weights), torch.cat(tops), np.array(seen), data["labels"], kinds


def scores(gate, deep, weights, tops, batch=1000):
    gate.eval()
    with torch.no_grad():
        out = torch.cat([torch.sigmoid(gate.from_summary(deep[s:s + batch].float(), weights[s:s + batch], tops[s:s + batch]))
                         for s in range(0, len(deep), batch)])
    gate.train()
    return out.numpy()


def threshold_table(score, seen, labels, kinds):
    """What each threshold would shut out on the check scenes."""
    subject = (labels >= 0) & seen
    fine = subject & np.array([k.startswith("fine") for k in kinds])
    blank_seen = (labels < 0) & seen
    print(f"check: {subject.sum()} subjects seen ({fine.sum()} fine-pen digits), "
          f"{blank_seen.sum()} of {(labels < 0).sum()} blank scenes seen as ink")
    for t in (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7):
        shut = score < t
        lost, lost_fine = (shut & subject).sum(), (shut & fine).sum()
        lost_digits = (shut & subject & (labels < 10)).sum()
        print(f"  threshold {t:4.2f}: subjects shut out {lost} ({100 * lost / max(1, subject.sum()):.2f}%; "
              f"digits {lost_digits}, fine-pen {lost_fine}), blanks seen left {(blank_seen & ~shut).sum()}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--locator", required=True, help="an ungated locator (TorchScript; 0.22.0's) the gate reads, kept as it is")
    ap.add_argument("--train", required=True)
    ap.add_argument("--check", required=True)
    ap.add_argument("--out", required=True, help="the gated locator to write (TorchScript)")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--state", help="where to save the trained gate's weights (torch.save)")
    ap.add_argument("--from-state", help="a gate's weights saved with --state: no training, only the threshold and the export")
    ap.add_argument("--threshold", type=float, default=0.05, help="the gate's probability under which the map is shut out")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    locator = LocatorNet()
    locator.load_state_dict(torch.jit.load(args.locator).state_dict())
    locator.eval()
    started = time.time()
    check = features(locator, args.check)
    gate = SubjectGate()
    if args.from_state:
        gate.load_state_dict(torch.load(args.from_state))
    else:
        train(gate, features(locator, args.train), check, args, gen)
        print(f"trained, the features of the training and the {len(check[0])} check scenes included: {time.time() - started:.0f} s")
    if args.state:
        torch.save(gate.state_dict(), args.state)

    threshold_table(scores(gate, *check[:3]), check[3], check[4], check[5])
    print(f"threshold {args.threshold}")
    model = GatedLocator(locator, gate.eval(), args.threshold).eval()
    with torch.no_grad():
        saved = torch.jit.trace(model, torch.rand(1, 1, 128, 128))
    portable_save.save(saved, args.out)
    with open(args.out, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    print(f"saved {args.out}: {time.time() - started:.0f} s, sha256 {digest}")


def train(gate, scenes, check, args, gen):
    deep, weights, tops, _, labels, _ = scenes

    target = torch.from_numpy((labels >= 0).astype(np.float32))
    # Blanks are an eighth of the scenes: weighed as much as the subjects in all.
    blank_weight = float(target.sum() / (len(target) - target.sum()))
    opt = torch.optim.AdamW(gate.parameters(), lr=args.lr, weight_decay=1e-4)
    batch = 256
    steps = (len(deep) + batch - 1) // batch
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=args.lr, epochs=args.epochs, steps_per_epoch=steps)
    for epoch in range(1, args.epochs + 1):
        order = torch.randperm(len(deep), generator=gen)
        total = 0.0
        for step in range(steps):
            idx = order[step * batch:(step + 1) * batch]
            y = target[idx]
            logit = gate.from_summary(deep[idx].float(), weights[idx], tops[idx])
            w = torch.where(y > 0, torch.ones_like(y), torch.full_like(y, blank_weight))
            loss = F.binary_cross_entropy_with_logits(logit, y, weight=w)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss)
        if epoch % 5 == 0 or epoch == args.epochs:
            s = scores(gate, *check[:3])
            blank = check[4] < 0
            print(f"epoch {epoch}: loss {total / steps:.4f}, check blanks under 0.5 {100 * (s[blank] < 0.5).mean():.1f}%, "
                  f"subjects under 0.5 {100 * (s[~blank] < 0.5).mean():.2f}%", flush=True)


if __name__ == "__main__":
    main()
