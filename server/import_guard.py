"""The import guard: a compiled engine module that no longer matches its source is refused
wherever the engine is imported, not only by the command line (README.md, "Optional compiled
engine").

``standoff accelerate`` puts extension modules beside the engine's ``.py`` files, and Python then
loads the extension instead of the source: after an edit of the source (or a ``git pull``), the
old extension would silently play the old rules. The engine is imported through many doors (the
command line, the SDK and its forward model, the RL bridges, Ray tasks, a plain ``import``), and
all of them go through the package ``standoff.server``, whose ``__init__`` calls :func:`install`:
a finder ahead of Python's own looks at each submodule of the package before it is loaded. When
what would be loaded is an extension module beside a ``.py``, its sources are hashed and compared
with the build's manifest (:mod:`standoff.server.accelerate` writes it), and a stale one is
refused with :class:`StaleEngineError`: one line naming the module and the fix.

The engine (``server/core``, ``server/games``) does no I/O; this check does, so it lives here,
outside the engine. Cost: a pure install pays one more lookup of each submodule in the import
system's cached folder listings, and reads or hashes nothing (no extension module is found).
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader, PathFinder

PACKAGE = __name__.rpartition(".")[0]  # "standoff.server"

#: Written beside the compiled modules by the build: ``{module: {"sources": sha256, "file": name}}``.
MANIFEST = ".accelerated.json"


class StaleEngineError(ImportError):
    """A compiled engine module that does not match its source: refused when imported."""


def source_files(root: str | os.PathLike, module: str) -> list[str]:
    """The files a compiled module is made from: its ``.py`` and, if present, its ``.pxd``."""
    py = os.path.join(root, *module.split(".")) + ".py"
    pxd = py[:-3] + ".pxd"
    return [py, pxd] if os.path.exists(pxd) else [py]


def source_hash(root: str | os.PathLike, module: str) -> str:
    """The hash the build records for ``module`` (relative to ``root``, dotted)."""
    import hashlib

    digest = hashlib.sha256()
    for path in source_files(root, module):
        with open(path, "rb") as file:
            digest.update(os.path.splitext(path)[1].encode() + b"\0" + file.read() + b"\0")
    return digest.hexdigest()


def read_manifest(root: str | os.PathLike) -> dict:
    """The build's manifest in ``root``; empty if there is none or it cannot be read (then
    every compiled module counts as unvouched, hence stale)."""
    import json

    try:
        with open(os.path.join(root, MANIFEST), encoding="utf-8") as file:
            manifest = json.load(file)
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def matches(manifest: dict, root: str | os.PathLike, module: str, file_name: str) -> bool:
    """Whether the extension ``file_name`` of ``module`` is the one the build recorded, made
    from the sources that are there now."""
    entry = manifest.get(module)
    return (isinstance(entry, dict) and entry.get("file") == file_name
            and entry.get("sources") == source_hash(root, module))


def stale_message(modules: list[str]) -> str:
    """The one line that refuses ``modules`` (relative, dotted; at least one)."""
    which = (f"module {PACKAGE}.{modules[0]} does not match its source" if len(modules) == 1 else
             f"modules {PACKAGE}.{modules[0]} and {len(modules) - 1} more do not match their sources")
    return (f"the compiled engine {which} (edited since `standoff accelerate` built it, or not built by it): "
            "run `standoff accelerate` again, or `standoff accelerate --remove`")


class _Guard:
    """A meta path finder that only vetoes: it finds nothing itself (``None``: the usual
    finders load the module), and raises :class:`StaleEngineError` when what they would load is
    a stale extension module of this package."""

    @staticmethod
    def find_spec(fullname: str, path=None, target=None):
        if path is None or not fullname.startswith(PACKAGE + "."):
            return None
        spec = PathFinder.find_spec(fullname, path)  # what Python's own finder would load
        if spec is None or not isinstance(spec.loader, ExtensionFileLoader) or not spec.origin:
            return None
        folder, file_name = os.path.split(spec.origin)
        stem = next(file_name[:-len(s)] for s in EXTENSION_SUFFIXES if file_name.endswith(s))
        if not os.path.exists(os.path.join(folder, stem + ".py")):
            return None  # an extension with no source beside it: not one `standoff accelerate` made
        # Named as accelerate.status names it: relative to the package, a package's own module
        # as "<package>.__init__".
        module = fullname[len(PACKAGE) + 1:] + (".__init__" if stem == "__init__" else "")
        root = folder
        for _ in range(module.count(".")):
            root = os.path.dirname(root)
        if not matches(read_manifest(root), root, module, file_name):
            raise StaleEngineError(stale_message([module]), name=fullname, path=spec.origin)
        return None


def install() -> None:
    """Put the guard first on ``sys.meta_path`` (once per process)."""
    if not any(finder is _Guard for finder in sys.meta_path):
        sys.meta_path.insert(0, _Guard)
