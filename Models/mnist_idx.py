"""Reads the MNIST IDX files (gzipped or raw) into numpy arrays.

MNIST: Yann LeCun, Corinna Cortes, Christopher J. C. Burges,
"The MNIST database of handwritten digits".

Shared by Models/train.py and the test-fixture scripts under Tests/Tools so
that both read the data set the same way.
"""

import gzip
import sys
import os

import numpy as np

IMAGES_MAGIC = 0x00000803
LABELS_MAGIC = 0x00000801


def _read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read()


def _header(data, path, magic, dims):
    need = 4 + 4 * dims
    if len(data) < need:
        raise ValueError(f"{path}: truncated header")
    words = np.frombuffer(data[:need], dtype=">u4")
    if int(words[0]) != magic:
        raise ValueError(f"{path}: bad magic 0x{int(words[0]):08x}, expected 0x{magic:08x}")
    return [int(w) for w in words[1:]], need


def load_images(path):
    """Returns a uint8 array of shape [N, rows, cols]."""
    data = _read(path)
    (count, rows, cols), offset = _header(data, path, IMAGES_MAGIC, 3)
    if len(data) != offset + count * rows * cols:
        raise ValueError(f"{path}: expected {count}x{rows}x{cols} pixels, file has {len(data) - offset} bytes")
    return np.frombuffer(data, dtype=np.uint8, offset=offset).reshape(count, rows, cols)


def load_labels(path):
    """Returns a uint8 array of shape [N]."""
    data = _read(path)
    (count,), offset = _header(data, path, LABELS_MAGIC, 1)
    if len(data) != offset + count:
        raise ValueError(f"{path}: expected {count} labels, file has {len(data) - offset} bytes")
    return np.frombuffer(data, dtype=np.uint8, offset=offset)


def find(folder, stem):
    """Path of `stem` in `folder`, gzipped or raw."""
    for name in (stem + ".gz", stem):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError(f"{stem}[.gz] not found in {folder}")


def load_split(folder, split):
    """(images, labels) for split 'train' or 't10k'."""
    images = load_images(find(folder, f"{split}-images-idx3-ubyte"))
    labels = load_labels(find(folder, f"{split}-labels-idx1-ubyte"))
    if len(images) != len(labels):
        raise ValueError(f"{split}: {len(images)} images but {len(labels)} labels")
    return images, labels


def load_first_split(folders, split, tool):
    """(images, labels) of `split` from the first of `folders` that has it;
    exits naming `tool` and the folders when none does."""
    for folder in folders:
        try:
            return load_split(folder, split)
        except FileNotFoundError:
            continue
    sys.exit(f"{tool}: MNIST {split} files not found in {' or '.join(folders)}")
