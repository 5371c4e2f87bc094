#!/usr/bin/env python3
"""What a user would otherwise write: torch.jit.load plus a torchvision
transform loop. Run with Debian's python3-torch and python3-torchvision.

    python_baseline.py throughput MODEL IMAGES_IDX BATCH THREADS COUNT
        prints "images_per_second <n>", end to end: PIL image -> ToTensor ->
        Normalize -> stack -> forward, BATCH images at a time
    python_baseline.py classify MODEL PNG
        prints "<png>: <digit>"
"""

import os
import sys
import time

import torch
from PIL import Image
from torchvision import transforms

TRANSFORM = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])


def throughput(model_path, images_path, batch, threads, count):
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Models"))
    import mnist_idx

    torch.set_num_threads(threads)
    model = torch.jit.load(model_path).eval()
    pictures = [Image.fromarray(a, "L") for a in mnist_idx.load_images(images_path)[:count]]
    with torch.inference_mode():
        model(torch.stack([TRANSFORM(p) for p in pictures[:batch]]))  # warm-up
        start = time.perf_counter()
        sink = 0
        for first in range(0, count, batch):
            out = model(torch.stack([TRANSFORM(p) for p in pictures[first:first + batch]]))
            sink += int(out.argmax(1).sum())
        seconds = time.perf_counter() - start
    print(f"images_per_second {count / seconds:.1f}")


def classify(model_path, png):
    model = torch.jit.load(model_path).eval()
    with torch.inference_mode():
        out = model(TRANSFORM(Image.open(png).convert("L")).unsqueeze(0))
    print(f"{png}: {int(out.argmax(1))}")


if __name__ == "__main__":
    if len(sys.argv) == 7 and sys.argv[1] == "throughput":
        throughput(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
    elif len(sys.argv) == 4 and sys.argv[1] == "classify":
        classify(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
