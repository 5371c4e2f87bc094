"""The ink locator's network: a small fully-convolutional encoder-decoder.

It maps a grey picture (0 black, 1 white; any height and width that are
multiples of 8, at most 256) to the probability, per pixel, that the pixel
is the ink of the picture's subject: a digit, a letter or a scribble someone
wrote or printed, but not paper grain, ruled or squared lines, shadows, a
desk, a sheet's edge or the frame around a crop. The picture is standardized
inside the network (its own mean and spread), so exposure and polarity are
the network's to learn, not the caller's.

Sized for a CPU: the first convolution halves the picture, the deepest level
works at 1/8 with dilated convolutions for context (a ruled line is a line
only across the whole picture), and the decoder adds the skips rather than
concatenating them. The map is predicted at half size and enlarged.
"""

import torch
import torch.nn as nn
import torch.nn.functional as F


def conv(cin, cout, stride=1, dilation=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride=stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class LocatorNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        w1, w2, w3 = width, 2 * width, 3 * width
        self.stem = conv(1, w1, stride=2)
        self.level1 = conv(w1, w1)
        self.down2 = conv(w1, w2, stride=2)
        self.level2 = conv(w2, w2)
        self.down3 = conv(w2, w3, stride=2)
        self.context = nn.Sequential(conv(w3, w3, dilation=2), conv(w3, w3, dilation=4), conv(w3, w3, dilation=8))
        self.lateral3 = nn.Conv2d(w3, w2, 1)
        self.up2 = conv(w2, w2)
        self.lateral2 = nn.Conv2d(w2, w1, 1)
        self.up1 = conv(w1, w1)
        self.head = nn.Conv2d(w1, 1, 1)

    def encode(self, x):
        """The encoder's three levels: at 1/2, 1/4 and 1/8 (the last with context)."""
        mean = x.mean(dim=(2, 3), keepdim=True)
        spread = x.std(dim=(2, 3), keepdim=True) + 0.05
        x = (x - mean) / spread
        e1 = self.level1(self.stem(x))
        e2 = self.level2(self.down2(e1))
        e3 = self.context(self.down3(e2))
        return e1, e2, e3

    def decode(self, e1, e2, e3):
        """The map's logits at full size from the encoder's levels."""
        d2 = self.up2(F.interpolate(self.lateral3(e3), scale_factor=2.0, mode="nearest") + e2)
        d1 = self.up1(F.interpolate(self.lateral2(d2), scale_factor=2.0, mode="nearest") + e1)
        return F.interpolate(self.head(d1), scale_factor=2.0, mode="bilinear", align_corners=False)

    def logits(self, x):
        return self.decode(*self.encode(x))

    def forward(self, x):
        return torch.sigmoid(self.logits(x))
