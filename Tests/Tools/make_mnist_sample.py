#!/usr/bin/env python3
"""Makes the MNIST sample regression fixtures: the first N test images of each
digit as PNG files, the tensors torchvision's ToTensor() + Normalize((0.1307,),
(0.3081,)) make of them, and the log-probabilities the model gives for those
tensors in Python torch. The Swift and C++ tests must reproduce both.

Run with Debian's python3-torch and python3-torchvision, after any change of
the model:

    /usr/bin/python3 Tests/Tools/make_mnist_sample.py

Writes into Tests/Fixtures/mnist-sample/:
  NNNN-D.png      test image NNNN (its index in t10k), label D
  samples.tsv     file, index, label; one line per image, in tensor order
  tensors.f32     N x 784 float32, little-endian, the reference tensors
  logprobs.f32    N x C float32, little-endian, the reference log-probabilities
                  (C = 10, or 11 for a model with a "not a digit" class)
  model.sha256    sha256 of the model the log-probabilities came from

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".
"""

import argparse
import hashlib
import os
import sys

import numpy as np
import torch
from PIL import Image
from torchvision import transforms

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "Models"))
import mnist_idx  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(ROOT, "Tests/Fixtures/mnist"))
    ap.add_argument("--model", default=os.path.join(ROOT, "Models/digits.pt"))
    ap.add_argument("--out", default=os.path.join(ROOT, "Tests/Fixtures/mnist-sample"))
    ap.add_argument("--per-digit", type=int, default=12)
    args = ap.parse_args()

    images, labels = mnist_idx.load_split(args.data, "t10k")
    chosen = []
    for digit in range(10):
        chosen += [int(i) for i in np.flatnonzero(labels == digit)[:args.per_digit]]
    chosen.sort()

    os.makedirs(args.out, exist_ok=True)
    for name in os.listdir(args.out):
        if name.endswith(".png"):
            os.remove(os.path.join(args.out, name))

    transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
    tensors, rows = [], []
    for index in chosen:
        name = f"{index:04d}-{labels[index]}.png"
        path = os.path.join(args.out, name)
        Image.fromarray(images[index], mode="L").save(path)
        # The reference tensor is made from the PNG as written, read back.
        tensors.append(transform(Image.open(path)))
        rows.append(f"{name}\t{index}\t{labels[index]}")

    batch = torch.stack(tensors)
    model = torch.jit.load(args.model)
    model.eval()
    with torch.no_grad():
        logprobs = torch.log_softmax(model(batch), dim=1)

    batch.numpy().astype("<f4").tofile(os.path.join(args.out, "tensors.f32"))
    logprobs.numpy().astype("<f4").tofile(os.path.join(args.out, "logprobs.f32"))
    with open(os.path.join(args.out, "samples.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    with open(args.model, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    with open(os.path.join(args.out, "model.sha256"), "w") as f:
        f.write(digest + "\n")
    correct = int((logprobs.argmax(1).numpy() == labels[chosen]).sum())
    print(f"wrote {len(chosen)} samples to {args.out}; model {digest[:12]} gets {correct}/{len(chosen)} right")


if __name__ == "__main__":
    main()
