#!/usr/bin/env python3
"""Records what every command prints for the committed fixtures, to check that
a change of structure changes no behaviour.

    Tests/Tools/json_snapshot.py .build/debug/digits OUT_DIR
    diff -r OUT_BEFORE OUT_AFTER

Each run writes one file per command line: its exit status, standard output
(--json where the command has it) and standard error. Run it from the checkout
before and after a refactor, with the same build configuration, and compare.
Fields that measure time (fps, latency_ms, ms_per_image, ...) are blanked.
"""

import gzip
import os
import re
import subprocess
import sys
from pathlib import Path

RESOURCES = Path("Tests/Fixtures")
PICTURE_SUFFIXES = {".png", ".jpg", ".jpeg", ".pgm", ".ppm", ".pbm", ".pnm", ".gif",
                    ".bmp", ".tiff", ".webp", ".avif", ".heic", ".svg", ".pdf", ""}


# Fields that measure time, not behaviour: their values are blanked.
TIMING = re.compile(rb'("(?:\w*images_per_second|\w*ms_per_image|latency_ms|fps|\w*seconds)": )[0-9.e+-]+')


def masked(output):
    """`output` with the values of timing fields blanked."""
    return TIMING.sub(rb'\1_', output)


def pictures(folder):
    """The files of a folder, sorted, whatever their names (hostile ones included)."""
    root = RESOURCES / folder
    return sorted(p for p in root.rglob("*") if p.is_file()
                  and (p.suffix.lower() in PICTURE_SUFFIXES or folder == "hostile"))


def command_lines():
    """Every (name, argv, stdin) to record."""
    lines = []
    classify_sets = ["photos", "formats", "hostile", "light-paper", "held-out",
                     "pngsuite", "mnist-sample", "realworld"]
    for folder in classify_sets:
        files = [str(p) for p in pictures(folder)]
        lines.append((f"classify-{folder}", ["classify", "--json", "--top", "3", *files], None))
        lines.append((f"classify-csv-{folder}", ["classify", "--format", "csv", *files], None))
    for folder in ["photos", "held-out"]:
        files = [str(p) for p in pictures(folder)]
        lines.append((f"classify-rules-{folder}", ["classify", "--json", "--no-locator", *files], None))
    examples = sorted(str(p) for p in Path("Examples").rglob("*") if p.is_file())
    lines.append(("classify-examples", ["classify", "--json", *examples], None))
    lines.append(("classify-examples-text", ["classify", *examples], None))
    lines.append(("read-examples", ["read", "--json", *examples], None))
    for folder in ["numbers", "hostile", "held-out"]:
        files = [str(p) for p in pictures(folder)]
        lines.append((f"read-{folder}", ["read", "--json", *files], None))
        lines.append((f"read-text-{folder}", ["read", *files], None))
    for path in pictures("formats")[:12] + [Path(p) for p in examples[:6]]:
        name = path.name
        lines.append((f"preprocess-{name}", ["preprocess", "--json", str(path)], None))
        lines.append((f"ascii-steps-{name}", ["ascii", "--steps", str(path)], None))
    for path in sorted((RESOURCES / "stream").iterdir()):
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        lines.append((f"stream-{path.name}", ["stream", "--every-frame", "--json", "-"], data))
    mnist = RESOURCES / "mnist"
    images = sorted(mnist.glob("*images*"))
    labels = sorted(mnist.glob("*labels*"))
    if images and labels:
        base = ["eval", "--json", "--images", str(images[0]), "--labels", str(labels[0]),
                "--misclassified", "5"]
        lines.append(("eval", base, None))
        lines.append(("eval-pipeline", base + ["--pipeline", "--limit", "300"], None))
    return lines


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: json_snapshot.py DIGITS OUT_DIR")
    digits, out = os.path.abspath(sys.argv[1]), Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1")
    for name, argv, stdin in command_lines():
        done = subprocess.run([digits, *argv], input=stdin or b"", capture_output=True,
                              env=env, timeout=600)
        with open(out / f"{name}.txt", "wb") as record:
            record.write(f"$ digits {' '.join(argv[:4])} ...\nexit {done.returncode}\n".encode())
            record.write(b"--- stdout\n" + masked(done.stdout) + b"--- stderr\n" + masked(done.stderr))
    print(f"{len(command_lines())} command lines recorded in {out}")


if __name__ == "__main__":
    main()
