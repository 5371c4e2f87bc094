#!/usr/bin/env python3
"""Runs every ```console block of README.md, of the pages under docs/ and of
the DocC articles (the pages ReadmeTests runs) as ReadmeTests does (bash, from
the repository root, the built digits first on PATH, LC_ALL=C, stderr with
stdout) and writes what each command printed under it. For after a change
that moves figures on purpose (a new model); review the diff before
committing it: ReadmeTests compares the pages with the program, so a
wrong output written here would pass unnoticed.

    python3 Tests/Tools/update_readme_examples.py [path/to/bin/folder]
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
# Besides README.md, the folders whose .md pages hold console blocks, as in
# ReadmeTests.folders.
FOLDERS = ["docs", "Sources/DigitKit/DigitKit.docc"]


def run_block(commands, bin_folder):
    script = f'exec 2>&1\nexport LC_ALL=C PATH="{bin_folder}:$PATH"\ncd "{ROOT}"\n__status=0\n'
    for position, command in enumerate(commands):
        script += f"echo '@@@ {position}'\n(exit $__status); {command}\n__status=$?\n"
    out = subprocess.run(["/usr/bin/env", "--default-signal=PIPE", "/bin/bash", "-c", script],
                         capture_output=True, text=True).stdout
    outputs = []
    for line in out.split("\n"):
        if line.startswith("@@@ "):
            outputs.append([])
        elif outputs:
            outputs[-1].append(line)
    return ["\n".join(o).rstrip("\n") for o in outputs]


def normalized(text):
    """As ReadmeTests compares: timings as "#", trailing spaces dropped."""
    for pattern in [r'("fps": |"latency_ms": )[0-9.]+', r'(, )[0-9.]+( fps)', r'([ (])[0-9.]+( images/s| ms/image)',
                    r'(batch [0-9]+, )[0-9]+( threads?)']:
        text = re.sub(pattern, lambda m: m.group(1) + "#" + (m.group(2) if m.lastindex == 2 else ""), text)
    return "\n".join(line.rstrip(" ") for line in text.split("\n")).strip("\n")


def previous_outputs(body):
    """The output shown under each command of a block, in order."""
    outputs, current = [], None
    for line in body.split("\n"):
        if line.startswith("$ "):
            if current is not None:
                outputs.append("\n".join(current))
            current = []
        elif current is not None:
            current.append(line)
    if current is not None:
        outputs.append("\n".join(current))
    return outputs


def pages():
    """README.md, then every .md page of FOLDERS, sorted, as ReadmeTests.pages()."""
    found = ["README.md"]
    for folder in FOLDERS:
        found += [f"{folder}/{name}" for name in sorted(os.listdir(os.path.join(ROOT, folder))) if name.endswith(".md")]
    return found


def update(page, bin_folder):
    """Writes the outputs of one page's console blocks; returns how many changed."""
    path = os.path.join(ROOT, page)
    text = open(path, encoding="utf-8").read()
    pieces = re.split(r"(```console\n.*?\n```)", text, flags=re.S)
    changed = 0
    for i, piece in enumerate(pieces):
        if not piece.startswith("```console\n"):
            continue
        body = piece[len("```console\n"):-len("\n```")]
        commands = [line[2:] for line in body.split("\n") if line.startswith("$ ")]
        outputs = run_block(commands, bin_folder)
        # Where only timings differ, the page keeps its figures (measured
        # on a quiet machine, not in a debug build under a test run).
        outputs = [old if normalized(old) == normalized(new) else "\n".join(l.rstrip(" ") for l in new.split("\n"))
                   for old, new in zip(previous_outputs(body), outputs)]
        lines = []
        for command, output in zip(commands, outputs):
            lines.append("$ " + command)
            if output:
                lines.append(output)
        new = "```console\n" + "\n".join(lines) + "\n```"
        changed += new != piece
        pieces[i] = new
    if changed:
        open(path, "w", encoding="utf-8").write("".join(pieces))
    return changed


def main():
    bin_folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug")
    bin_folder = os.path.abspath(bin_folder)
    for page in pages():
        changed = update(page, bin_folder)
        if changed:
            print(f"update_readme_examples: {page}: {changed} blocks changed")
    print("update_readme_examples: done")


if __name__ == "__main__":
    main()
