#!/usr/bin/env python3
"""Runs every ```console block of README.md as ReadmeTests does (bash, from
the repository root, the built digits first on PATH, LC_ALL=C, stderr with
stdout) and writes what each command printed under it. For after a change
that moves figures on purpose (a new model); review the diff before
committing it: ReadmeTests compares the README with the program, so a
wrong output written here would pass unnoticed.

    python3 Tests/Tools/update_readme_examples.py [path/to/bin/folder]
"""

import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


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


def main():
    bin_folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug")
    path = os.path.join(ROOT, "README.md")
    text = open(path, encoding="utf-8").read()
    pieces = re.split(r"(```console\n.*?\n```)", text, flags=re.S)
    changed = 0
    for i, piece in enumerate(pieces):
        if not piece.startswith("```console\n"):
            continue
        body = piece[len("```console\n"):-len("\n```")]
        commands = [line[2:] for line in body.split("\n") if line.startswith("$ ")]
        outputs = run_block(commands, bin_folder)
        lines = []
        for command, output in zip(commands, outputs):
            lines.append("$ " + command)
            if output:
                lines.append(output)
        new = "```console\n" + "\n".join(lines) + "\n```"
        changed += new != piece
        pieces[i] = new
    open(path, "w", encoding="utf-8").write("".join(pieces))
    print(f"update_readme_examples: {changed} blocks changed")


if __name__ == "__main__":
    main()
