#!/usr/bin/env python3
"""Records what the Python reference preprocessing (reference_preprocess.py)
makes of the photo fixtures stored as PNG without an orientation (the
reference reads PNGs and applies none), for the Swift test that the
pipeline agrees with it on photos too: their tight crops on plain paper,
sheets on desks and shadows take steps no real-world fixture needs.

Run after make_photo_fixtures.py, or after a change to the preprocessing
and its reference, with Pillow and numpy:

    /usr/bin/python3 Tests/Tools/make_photo_reference.py

Writes Tests/Fixtures/photos/reference.tsv (file, 1 if the
reference finds a digit) and reference.f32 (the reference tensors, 784
float32 each, little-endian, in reference.tsv order; zeros where no digit
is found).
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from reference_preprocess import record_references  # noqa: E402

PHOTOS = os.path.abspath(os.path.join(HERE, "..", "Fixtures", "photos"))


def main():
    names = [line.split("\t")[0] for line in open(os.path.join(PHOTOS, "labels.tsv")).read().splitlines()]
    names = [n for n in names if n.endswith(".png") and not n.startswith("orientation-")]
    rows = record_references(PHOTOS, names)
    print(f"recorded the reference of {len(rows)} photos; it finds a digit in {sum(r.endswith('1') for r in rows)}")


if __name__ == "__main__":
    main()
