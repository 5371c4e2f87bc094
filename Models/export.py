#!/usr/bin/env python3
"""Exports trained weights (train.py --state FILE) as TorchScript in each of
the ways the runtime could load them, so their speed can be compared in our
own runtime (Benchmarks/compare_models.py) before one is shipped:

    /usr/bin/python3 Models/export.py --state FILE --out-dir DIR

Writes DIR/scripted.pt (torch.jit.script), DIR/traced.pt (torch.jit.trace
on a [1, 1, 28, 28] input) and DIR/optimized.pt (the scripted model frozen
and run through torch.jit.optimize_for_inference), and checks that all three
give the same outputs.
"""

import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from train import Calibrated, DigitNet  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--state", required=True)
    ap.add_argument("--out-dir", required=True)
    args = ap.parse_args()
    state = torch.load(args.state)
    net = DigitNet()
    net.load_state_dict(state["weights"])
    model = Calibrated(net, state["temperature"]).eval()
    example = torch.zeros(1, 1, 28, 28)
    os.makedirs(args.out_dir, exist_ok=True)
    with torch.no_grad():
        variants = {
            "scripted": torch.jit.script(model),
            "traced": torch.jit.trace(model, example),
        }
        variants["optimized"] = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.script(model)))
        probe = torch.randn(8, 1, 28, 28)
        reference = model(probe)
        for name, module in variants.items():
            path = os.path.join(args.out_dir, name + ".pt")
            module.save(path)
            try:
                difference = float((torch.jit.load(path)(probe) - reference).abs().max())
            except RuntimeError as error:
                # With 1.13, a frozen, optimized module saves but does not load back.
                print(f"{path}: does not load: {str(error).splitlines()[0]}")
                continue
            print(f"{path}: max difference from eager {difference:.2e}")


if __name__ == "__main__":
    main()
