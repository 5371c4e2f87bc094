"""Saves TorchScript modules without the debug records torch.jit writes beside their code.

    /usr/bin/python3 Models/portable_save.py MODEL.pt [MODEL.pt ...]    # strips saved files in place

Each `*.debug_pkl` record of a TorchScript archive holds the Python source the
module was traced or scripted from, under the absolute paths of the machine
that trained it: folders of that machine must not ship in a model file.
libtorch loads a module without them; only its error messages lose the
Python lines they point to. The training scripts save through `save`; the
command strips files saved before, and checks that each still loads with
the same weights.
"""

import io
import sys
import zipfile

import torch


def portable_bytes(archive: bytes) -> bytes:
    """`archive` (a saved TorchScript module) without its `*.debug_pkl`
    records, its records under the folder `archive/`, as torch.jit.save names
    them when it saves to memory (to a file, it names them after the file):
    the same module makes the same bytes wherever it was saved."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(archive)) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as target:
        for info in source.infolist():
            if info.filename.endswith(".debug_pkl"):
                continue
            data = source.read(info)
            info.filename = "archive/" + info.filename.split("/", 1)[1]
            target.writestr(info, data)
    return out.getvalue()


def save(module, path):
    """Saves `module` to `path` as torch.jit.save does, without debug records."""
    buffer = io.BytesIO()
    torch.jit.save(module, buffer)
    with open(path, "wb") as f:
        f.write(portable_bytes(buffer.getvalue()))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.splitlines()[2].strip())
    for path in sys.argv[1:]:
        with open(path, "rb") as f:
            archive = f.read()
        stripped = portable_bytes(archive)
        before = torch.jit.load(io.BytesIO(archive)).state_dict()
        after = torch.jit.load(io.BytesIO(stripped)).state_dict()
        if before.keys() != after.keys() or any(not torch.equal(before[k], after[k]) for k in before):
            sys.exit(f"{path}: the weights changed when stripped; left as it was")
        with open(path, "wb") as f:
            f.write(stripped)
        print(f"{path}: {len(archive)} -> {len(stripped)} bytes")


if __name__ == "__main__":
    main()
