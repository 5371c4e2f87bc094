#!/usr/bin/env python3
"""Writes the small TorchScript models the tests use to check that the bridge
refuses models that are not digit models. Run with Debian's python3-torch:

    /usr/bin/python3 Tests/Tools/make_test_models.py Tests/Fixtures/models
"""

import io
import os
import random
import sys
import zipfile

import torch
import torch.nn as nn


class WrongShape(nn.Module):
    """Returns [N, 3] instead of [N, 10]."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x.flatten(1)[:, :3]


class TupleOutput(nn.Module):
    """Returns a tuple instead of a tensor."""

    def forward(self, x: torch.Tensor):
        scores = x.flatten(1)[:, :10]
        return scores, scores


class ThreeChannels(nn.Module):
    """Expects [N, 3, 28, 28] input: a colour model."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 10, 28)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x).flatten(1)


class Raises(nn.Module):
    """Its forward always raises."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        raise RuntimeError("this model always fails")


class FailsOnInk(nn.Module):
    """Loads and passes the bridge's probe (an all-zero picture), then fails
    in its forward pass on any picture with ink: a model that breaks only
    once real input reaches it, for the exit status of a failed forward."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.linear = nn.Linear(28 * 28, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if bool(x.max() > 0):
            raise RuntimeError("this model fails on ink")
        return self.linear(x.flatten(1))


class NaNOnInk(nn.Module):
    """Passes the bridge's probe (an all-zero picture) with finite scores,
    then returns NaN for any picture with ink: a model whose failure shows
    only in its numbers, which must not pass for a confident digit."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.linear = nn.Linear(28 * 28, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scores = self.linear(x.flatten(1))
        if bool(x.max() > 0):
            return scores * float("nan")
        return scores


class InfiniteScores(nn.Module):
    """Returns +infinity for every class, on the probe too: refused at load."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.full([x.size(0), 10], float("inf"))


class FailsOnBatch(nn.Module):
    """Answers one picture at a time (the fixed linear map of Logits) and
    fails on two or more at once: a forward pass that breaks for the size of
    its batch alone, as one does when a large batch cannot get its memory."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.linear = nn.Linear(28 * 28, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.size(0) > 1:
            raise RuntimeError("this model fails on more than one picture at once")
        return self.linear(x.flatten(1)) * 3.0


class Logits(nn.Module):
    """A fixed linear map returning raw logits (not log-probabilities):
    valid, and the bridge's log_softmax must normalize it."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.linear = nn.Linear(28 * 28, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x.flatten(1)) * 3.0


class RejectionLogits(nn.Module):
    """A fixed linear map to 11 scores: the ten digits and "not a digit".
    Valid: the bridge takes a model with a rejection class."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.linear = nn.Linear(28 * 28, 11)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x.flatten(1)) * 3.0


class LocatorNaNOnInk(nn.Module):
    """An ink locator that passes the probe (an all-zero picture: all zero
    back) and returns NaN for any picture with something in it."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if bool(x.max() > 0):
            return x * float("nan")
        return x


class LocatorHalfSize(nn.Module):
    """An ink locator that answers at half the picture's size: refused at load."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(x[:, :, ::2, ::2])


class LocatorEverywhere(nn.Module):
    """An ink locator that calls every pixel ink (probability 1), valid."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ones_like(x)


class LocatorDarkAt256(nn.Module):
    """An ink locator that sees dark pixels as ink, but only when it is
    given a picture 256 pixels wide (the closer look); at any other size it
    sees nothing."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.shape[-1] == 256:
            return (x < 0.5).float()
        return torch.zeros_like(x)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out, exist_ok=True)
    for name, module in [("wrong-shape", WrongShape()), ("tuple-output", TupleOutput()),
                         ("three-channels", ThreeChannels()), ("raises", Raises()), ("logits", Logits()),
                         ("fails-on-ink", FailsOnInk()), ("fails-on-batch", FailsOnBatch()), ("nan-on-ink", NaNOnInk()),
                         ("infinite-scores", InfiniteScores()), ("rejection-logits", RejectionLogits()),
                         ("locator-nan-on-ink", LocatorNaNOnInk()), ("locator-half-size", LocatorHalfSize()),
                         ("locator-everywhere", LocatorEverywhere()), ("locator-dark-at-256", LocatorDarkAt256())]:
        module.eval()
        torch.jit.script(module).save(os.path.join(out, name + ".pt"))
    # A valid model saved frozen: it has no "training" attribute, and the
    # bridge runs it as it is instead of optimizing it again.
    torch.jit.freeze(torch.jit.script(Logits().eval())).save(os.path.join(out, "frozen-logits.pt"))
    # Files that are not TorchScript at all.
    open(os.path.join(out, "empty.pt"), "wb").close()
    rng = random.Random(7)
    with open(os.path.join(out, "random-bytes.pt"), "wb") as f:
        f.write(bytes(rng.randrange(256) for _ in range(4096)))
    with zipfile.ZipFile(os.path.join(out, "not-torchscript.pt"), "w") as archive:
        archive.writestr("notes/readme.txt", "a zip archive, but not a TorchScript model\n")
    # A common mistake: torch.save of a state dict instead of a TorchScript export.
    torch.save(Logits().state_dict(), os.path.join(out, "state-dict.pt"))
    # A model "saved by a newer PyTorch": the archive's format version raised
    # beyond what libtorch 1.13 reads (what a newer exporter's file looks like to it).
    with zipfile.ZipFile(os.path.join(out, "logits.pt")) as source, \
            zipfile.ZipFile(os.path.join(out, "newer-pytorch.pt"), "w") as forged:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.endswith("/version"):
                data = b"99\n"
            forged.writestr(item, data)
    print("wrote", ", ".join(sorted(os.listdir(out))))


if __name__ == "__main__":
    main()
