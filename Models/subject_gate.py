"""A second head on the ink locator: is there a subject in the picture at all?

The locator's map is trained pixel by pixel, and digits decides "no digit
found" from the map's peak (LocatedInk.seesInk). A pencil on a desk or a
plank's seam is a few dozen pixels the map marks as ink: cheap for a
per-pixel loss, and enough for a peak. Every try to teach the map itself to
leave those out also taught it to leave out fine pens (docs/accuracy.md).

This head leaves the map alone. It reads the locator's deepest features
(1/8 scale, with context) three ways: their maximum and mean over the
picture, and their mean weighted by the map where it marks ink (what the
marked thing looks like), beside the map's highest logit and its ninth
highest (digits' rule asks for a peak and nine pixels). It answers one
logit: the picture holds a subject (a digit, a letter, a scribble) rather
than only paper, desk and clutter. Trained with the locator frozen, so the
map is the shipped locator's, bit for bit, wherever the gate lets it pass.

`GatedLocator` is what is exported: the locator's probabilities, or all
zeros where the gate's probability is under its threshold, so that the
bridge and digits read it as any locator's map.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


class SubjectGate(nn.Module):
    def __init__(self, channels=48, hidden=24):
        super().__init__()
        self.reduce = nn.Conv2d(channels, hidden, 1)
        self.classify = nn.Sequential(nn.Linear(3 * hidden + 2, 16), nn.ReLU(inplace=True), nn.Linear(16, 1))

    @staticmethod
    def map_summary(e3, logits):
        """The map's part of what the head reads, which training computes once:
        the map's probabilities pooled to the features' grid, and its highest
        and ninth highest logits."""
        weights = F.adaptive_avg_pool2d(torch.sigmoid(logits), e3.shape[-2:])
        top = logits.flatten(1).topk(9, dim=1).values
        return weights, torch.cat([top[:, :1], top[:, 8:9]], dim=1) / 10

    def from_summary(self, e3, weights, top):
        h = F.relu(self.reduce(e3))
        attended = (h * weights).sum(dim=(2, 3)) / (weights.sum(dim=(2, 3)) + 1e-3)
        features = torch.cat([h.amax(dim=(2, 3)), h.mean(dim=(2, 3)), attended, top], dim=1)
        return self.classify(features).squeeze(1)

    def forward(self, e3, logits):
        return self.from_summary(e3, *self.map_summary(e3, logits))


class GatedLocator(nn.Module):
    """The locator's map where the gate sees a subject, zeros where it does not."""

    def __init__(self, locator, gate, threshold):
        super().__init__()
        self.locator = locator
        self.gate = gate
        self.threshold = threshold

    def forward(self, x):
        e1, e2, e3 = self.locator.encode(x)
        logits = self.locator.decode(e1, e2, e3)
        subject = torch.sigmoid(self.gate(e3, logits)) >= self.threshold
        return torch.sigmoid(logits) * subject.to(logits.dtype).view(-1, 1, 1, 1)
