"""The wire contract's ``.proto`` files, as shipped in the installed package.

Bots in other languages generate their stubs from these files. ``standoff proto --out DIR``
(:func:`copy_protos`) writes them as ``DIR/standoff/v1/*.proto``, the paths their ``import``
lines use, so that ``protoc -I DIR ...`` or ``buf`` work on ``DIR`` without a checkout of the
repository::

    from standoff.server.protofiles import copy_protos
    copy_protos("protos")   # -> [Path("protos/standoff/v1/referee.proto"), ...]
"""

from __future__ import annotations

import os
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

#: The import package that holds the .proto files (and the generated Python code).
PACKAGE = "standoff.v1"
#: Where the files sit relative to an include root: their ``import "standoff/v1/..."`` paths.
IMPORT_DIR = Path("standoff", "v1")


class ProtoCopyError(FileExistsError):
    """The output directory holds a different file where a .proto file would go."""


def proto_files() -> list[Traversable]:
    """The shipped ``.proto`` files of package ``standoff.v1``, sorted by name."""
    root = files(PACKAGE)
    found = [entry for entry in root.iterdir() if entry.name.endswith(".proto") and entry.is_file()]
    if not found:  # a broken install (package data missing): say so rather than copy nothing
        raise FileNotFoundError(f"no .proto files in the installed {PACKAGE} package ({root})")
    return sorted(found, key=lambda entry: entry.name)


def copy_protos(out_dir: str | os.PathLike[str], *, overwrite: bool = False) -> list[Path]:
    """Write the shipped .proto files as ``out_dir/standoff/v1/<name>.proto``.

    Returns the paths of the files, in name order. An existing identical file is left as it is
    (so a second copy is a no-op). An existing *different* file raises :class:`ProtoCopyError`
    naming it, and nothing is written, unless ``overwrite`` is true.
    """
    target_dir = Path(out_dir) / IMPORT_DIR
    sources = [(entry.name, entry.read_bytes()) for entry in proto_files()]
    plan: list[tuple[Path, bytes, bool]] = []  # (path, content, needs writing)
    conflicts: list[Path] = []
    for name, content in sources:
        path = target_dir / name
        if path.is_dir():
            raise ProtoCopyError(f"cannot write {path}: it is a directory")
        if path.exists():
            same = path.read_bytes() == content
            if not same and not overwrite:
                conflicts.append(path)
            plan.append((path, content, not same))
        else:
            plan.append((path, content, True))
    if conflicts:
        listed = ", ".join(str(p) for p in conflicts)
        raise ProtoCopyError(
            f"refusing to overwrite {listed}: different from the {PACKAGE} files of this version "
            "(`standoff proto --overwrite` replaces them; in Python, overwrite=True)"
        )
    try:
        target_dir.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise ProtoCopyError(f"cannot create {target_dir}: a file is in the way") from None
    for path, content, needs_writing in plan:
        if needs_writing:
            path.write_bytes(content)
    return [path for path, _, _ in plan]
