#!/usr/bin/env python3
"""How far a model's MNIST test accuracy holds when the digits are turned or
seen in mild perspective: the measurement behind "does the model need
retraining for rotation up to 15 degrees?" (#11). Every one of the 10,000
test digits is warped by the same amount per row of the table (not a random
amount), so each row is the worst case for that angle or keystone.

    /usr/bin/python3 Benchmarks/model_robustness.py [Models/digits.pt ...]

Needs Debian's python3-torch (the interpreter that trained the model).
"""

import math
import os
import sys

import torch
import torch.nn.functional as F

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.path.join(ROOT, "Models"))
import mnist_idx  # noqa: E402

MNIST = os.path.join(ROOT, "Tests/Fixtures/mnist")
ANGLES = [0, 5, -5, 10, -10, 15, -15, 20, -20, 25, -25]
# Keystone: one edge of the digit this much narrower than the other (0.2 =
# the top 20% narrower than the bottom), as a sheet photographed at a slant.
KEYSTONES = [("top", 0.1), ("top", 0.2), ("bottom", 0.1), ("bottom", 0.2), ("left", 0.2), ("right", 0.2)]


def rotated(x, degrees):
    a = math.radians(degrees)
    theta = torch.tensor([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0]]).repeat(len(x), 1, 1)
    return F.grid_sample(x, F.affine_grid(theta, list(x.shape), align_corners=False), align_corners=False)


def keystoned(x, edge, amount):
    # Output coordinates u, v in [-1, 1]; the narrow edge samples a wider
    # span of the source, so the digit shrinks toward that edge.
    n = x.shape[-1]
    v, u = torch.meshgrid(torch.linspace(-1, 1, n), torch.linspace(-1, 1, n), indexing="ij")
    along = {"top": -v, "bottom": v, "left": -u, "right": u}[edge]
    # Sampling the source 1 / (1 - amount) times wider at the narrow edge
    # shows the digit there (1 - amount) times as wide.
    stretch = 1 + (1 / (1 - amount) - 1) * (along + 1) / 2
    grid = torch.stack([u * stretch, v], dim=-1) if edge in ("top", "bottom") else torch.stack([u, v * stretch], dim=-1)
    return F.grid_sample(x, grid.unsqueeze(0).repeat(len(x), 1, 1, 1), align_corners=True)


def accuracy(model, x, labels):
    with torch.no_grad():
        guesses = torch.cat([model((x[i:i + 1000] - 0.1307) / 0.3081).argmax(1) for i in range(0, len(x), 1000)])
    return (guesses == labels).float().mean().item() * 100


def main():
    models = sys.argv[1:] or [os.path.join(ROOT, "Models/digits.pt")]
    torch.set_num_threads(os.cpu_count() or 1)
    images = mnist_idx.load_images(os.path.join(MNIST, "t10k-images-idx3-ubyte.gz"))
    labels = torch.tensor(mnist_idx.load_labels(os.path.join(MNIST, "t10k-labels-idx1-ubyte.gz")))
    x = torch.tensor(images, dtype=torch.float32).unsqueeze(1) / 255
    loaded = [torch.jit.load(m) for m in models]
    print("| warp | " + " | ".join(os.path.relpath(m, ROOT) for m in models) + " |")
    print("|---|" + "---|" * len(models))
    for degrees in ANGLES:
        warped = rotated(x, degrees)
        print(f"| rotated {degrees:+d}° | " + " | ".join(f"{accuracy(m, warped, labels):.2f}%" for m in loaded) + " |", flush=True)
    for edge, amount in KEYSTONES:
        warped = keystoned(x, edge, amount)
        print(f"| {edge} {int(amount * 100)}% narrower | " + " | ".join(f"{accuracy(m, warped, labels):.2f}%" for m in loaded) + " |",
              flush=True)


if __name__ == "__main__":
    main()
