"""How often the ink locator "sees ink" on a check set, by digits' rule: its
map (over the picture, not the padding) peaks at PEAK or more with at least
PIXELS pixels at 0.5 (LocatedInk.seenPeak / seenPixels). Prints, for a grid
of both, how often blank scenes are seen as ink, how often subjects (digits
and not-digits) are missed, and how often fine-pen digits are missed: the
figures the locator's model card gives.

    /usr/bin/python3 Models/locator_seen.py --check /tmp/scenes-check.npz --model Models/locator.pt [--side 128]

The check set is make_set.py's npz (another seed than the training set's);
a locator given smaller pictures (--side 96) sees them area-averaged, as
train_locator.py trains it.
"""

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train_locator import load  # noqa: E402

# digits' rule (LocatedInk.seenPeak / seenPixels / inkLevel).
SEEN_PEAK, SEEN_PIXELS, INK = 0.7, 9, 0.5


def peak_and_count(content):
    """A map's highest probability over the picture (its padding cut off) and
    how many of its pixels reach INK: what digits' rule reads."""
    return float(content.max()), int((content >= INK).sum())


def sees_ink(content):
    """Whether digits sees ink in this map, by its rule (LocatedInk.seesInk)."""
    peak, count = peak_and_count(content)
    return peak >= SEEN_PEAK and count >= SEEN_PIXELS


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", required=True, help="scenes to measure on (make_set.py's npz)")
    ap.add_argument("--model", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "locator.pt"))
    ap.add_argument("--side", type=int, default=128)
    args = ap.parse_args()

    torch.set_num_threads(os.cpu_count() or 1)
    pictures, _, labels, kinds = load(args.check, args.side)
    stored = np.load(args.check)
    sizes = stored["sizes"]
    # The real sizes are of the stored pictures; load() may have made them smaller.
    scale = pictures.shape[-1] / stored["pictures"].shape[-1]
    model = torch.jit.load(args.model).eval()
    peaks, counts = [], []
    with torch.no_grad():
        for start in range(0, len(pictures), 100):
            maps = model(pictures[start:start + 100].float() / 255)
            for i in range(maps.shape[0]):
                height, width = (max(1, round(n * scale)) for n in sizes[start + i])
                peak, count = peak_and_count(maps[i, 0, :height, :width])
                peaks.append(peak)
                counts.append(count)
    peaks, counts = np.array(peaks), np.array(counts)
    blank = labels < 0
    fine = np.array([kind.startswith("fine") for kind in kinds])
    print(f"{blank.sum()} blank scenes, {(~blank).sum()} with a subject, {fine.sum()} of them fine-pen digits")
    for peak in (0.5, 0.6, 0.7, 0.8):
        for pixels in (1, 3, 5, 7, 9, 12):
            seen = (peaks >= peak) & (counts >= pixels)
            fine_missed = f"{100 * (~seen[fine]).mean():5.1f}%" if fine.any() else "    -"
            print(f"peak {peak} pixels {pixels:2d}: blank seen {100 * seen[blank].mean():5.1f}%, "
                  f"subject missed {100 * (~seen[~blank]).mean():5.1f}%, fine-pen digit missed {fine_missed}")


if __name__ == "__main__":
    main()
