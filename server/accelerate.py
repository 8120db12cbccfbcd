"""The optional compiled engine: ``standoff accelerate`` (README.md, "Optional compiled
engine").

The engine modules listed in :data:`MODULES` are plain Python. With Cython installed
(``pip install -e '.[accel]'``) they can be compiled, unchanged, into extension modules placed
next to their ``.py`` files; Python's import system then loads the extension instead of the
source. Typing hints for the compiler live in *augmenting* ``.pxd`` files beside some modules
(Cython reads them, Python never does), so the source that runs without the accelerator is the
very source that was compiled, and records are byte-identical either way (tests/test_accelerate.py).

A compiled module is only right while its sources are the ones it was compiled from: an old
extension beside edited rules would silently play the old rules. The build therefore records a
hash of each module's sources in :data:`MANIFEST`. Importing a compiled module that no longer
matches them fails (:mod:`standoff.server.import_guard`, installed by the package ``standoff.server``,
outside the engine, which does no I/O), whatever imports it: the SDK, the RL bridges, a Ray task, a
plain ``import``. The command line refuses to start while :func:`stale` names any module
(``standoff accelerate`` again rebuilds, ``--remove`` goes back to pure Python); so do the test
suite (tests/conftest.py) and the Ray executor's start-up check on every node
(``ray_executor.check_node``).

C files and compiler temporaries go to a temporary folder, removed afterwards: the only files the
build adds to the package are the extension modules and the manifest (both git-ignored).
"""

from __future__ import annotations

import ast
import importlib.machinery
import json
import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from .import_guard import MANIFEST, matches, read_manifest, source_files, source_hash, stale_message

def _game_modules() -> tuple[str, ...]:
    """Each game package's own list of compiled modules (``games/<game>/compiled.py``), read as a
    file of its own: the engine is not imported before it is built."""
    found: list[str] = []
    for listing in sorted((Path(__file__).resolve().parent / "games").glob("*/compiled.py")):
        tree = ast.parse(listing.read_text(encoding="utf-8"), str(listing))
        names = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                     and [getattr(t, "id", None) for t in node.targets] == ["MODULES"])
        found += (f"games.{listing.parent.name}.{name}" for name in names)
    return tuple(found)


#: Modules compiled by ``standoff accelerate``, relative to the ``server`` package: the kernel's
#: and each game's (README.md has the figures).
MODULES = ("core.flow", "core.game", "core.shuffle", *_game_modules())

#: Directives that keep Python's semantics: no change to division, overflow, bounds or negative
#: indexing (``cdivision``, ``boundscheck``, ``wraparound`` keep their safe defaults).
#: Annotations are not read as C types (``annotation_typing``): an ``int`` or ``float`` hint
#: in the source must not change what a function accepts or returns; C types come only from the
#: ``.pxd`` files, where each is checked against the code.
DIRECTIVES = {
    "language_level": 3,
    "annotation_typing": False,
    "always_allow_keywords": True,
}

PACKAGE = __name__.rpartition(".")[0]  # "standoff.server"


class AccelerateError(Exception):
    """A mistake the user can fix: printed as one line."""


def package_dir() -> Path:
    """The ``server`` folder the running ``standoff`` imports."""
    return Path(__file__).resolve().parent


def _py(root: Path, module: str) -> Path:
    return root.joinpath(*module.split(".")).with_suffix(".py")


def sources(root: Path, module: str) -> list[Path]:
    """The files a compiled module is made from: its ``.py`` and, if present, its ``.pxd``."""
    return [Path(path) for path in source_files(root, module)]


def _extension_files(root: Path) -> dict[str, Path]:
    """Every extension module beside a ``.py`` of the package, by module (relative, dotted)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found: dict[str, Path] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(suffixes):
                suffix = next(s for s in suffixes if name.endswith(s))
                stem = name[: -len(suffix)]
                if stem + ".py" in files:
                    path = Path(folder, name)
                    found[".".join(path.relative_to(root).with_name(stem).parts)] = path
    return found


def status(root: Path | None = None) -> list[tuple[str, str]]:
    """``(module, state)`` for every compilable module and any other extension found: state is
    ``compiled`` (matches its sources), ``stale`` (its sources changed since, or nothing vouches
    for it) or ``pure``."""
    root = root or package_dir()
    built = _extension_files(root)
    manifest = read_manifest(root)
    result = []
    for module in sorted(set(MODULES) | set(built)):
        path = built.get(module)
        if path is None:
            result.append((module, "pure"))
            continue
        result.append((module, "compiled" if matches(manifest, root, module, path.name) else "stale"))
    return result


def stale(root: Path | None = None) -> list[str]:
    """Compiled modules that no longer match their sources (empty when all is well)."""
    return [module for module, state in status(root) if state == "stale"]


def check_fresh(root: Path | None = None) -> None:
    """Raise :class:`AccelerateError` (one line) if a compiled module is stale."""
    old = stale(root)
    if old:
        raise AccelerateError(stale_message(old))


def remove(root: Path | None = None) -> list[str]:
    """Delete every compiled module and the manifest; returns the modules removed."""
    root = root or package_dir()
    removed = []
    for module, path in sorted(_extension_files(root).items()):
        path.unlink()
        removed.append(module)
    (root / MANIFEST).unlink(missing_ok=True)
    return removed


def _compiler() -> list[str]:
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    words = shlex.split(cc)
    if not words or shutil.which(words[0]) is None:
        raise AccelerateError(
            f"no C compiler found ({words[0] if words else cc!r} is not on PATH): install one "
            "(e.g. `apt-get install gcc`) or set CC"
        )
    return words


def _package_view(tmp: Path, root: Path) -> Path:
    """``root`` seen at the place its import name says (``<tmp>/src/standoff/server``, a symbolic
    link): Cython names a module by the package folders around its file, and looks for its
    augmenting ``.pxd`` (and the ``.pxd`` files it cimports) by that name, so the folder must be
    called as the package is imported (the source tree's ``server`` folder is imported as
    ``standoff.server``)."""
    view = tmp / "src"
    *parents, last = PACKAGE.split(".")
    folder = view.joinpath(*parents)
    if not folder.exists():
        folder.mkdir(parents=True)
        for depth in range(1, len(parents) + 1):
            (view.joinpath(*parents[:depth]) / "__init__.py").write_text("")
        (folder / last).symlink_to(root, target_is_directory=True)
    return folder / last


def build(modules: Iterable[str] = MODULES, root: Path | None = None, jobs: int | None = None,
          log: Callable[[str], None] = lambda line: None) -> list[str]:
    """Compile ``modules`` and put them beside their sources; returns the modules built.

    Nothing in the package changes unless every module compiled: the extensions are built in a
    temporary folder first, then moved in one by one (``os.replace``) with the manifest last.
    """
    root = root or package_dir()
    modules = list(modules)
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError:
        raise AccelerateError(
            "Cython is not installed: install the accelerator's extra, `pip install -e '.[accel]'` "
            "(or `pip install 'standoff[accel]'`)"
        ) from None
    compiler = _compiler()[0]
    for folder in sorted({_py(root, m).parent for m in modules}):
        if not os.access(folder, os.W_OK):
            raise AccelerateError(f"{folder}: not writable, so the compiled modules cannot go beside their "
                                  "sources (run as the user who installed standoff)")
    for module in modules:
        if not _py(root, module).exists():
            raise AccelerateError(f"{_py(root, module)}: no such module to compile")
    hashes = {m: source_hash(root, m) for m in modules}
    with tempfile.TemporaryDirectory(prefix="standoff-accelerate-") as tmp:
        extensions = [Extension(f"{PACKAGE}.{m}", [str(_py(_package_view(Path(tmp), root), m))])
                      for m in modules]
        log(f"cythonizing {len(modules)} modules")
        try:
            compiled = cythonize(extensions, build_dir=str(Path(tmp) / "c"), compiler_directives=DIRECTIVES,
                                 quiet=True, force=True, nthreads=jobs or os.cpu_count() or 1)
        except Exception as exc:  # a Cython compile error: its own messages are printed already
            raise AccelerateError(f"Cython could not compile the engine: {exc}") from None
        log(f"compiling C with {compiler} ({jobs or os.cpu_count()} jobs)")
        dist = Distribution({"ext_modules": compiled, "script_name": "standoff-accelerate"})
        command = dist.get_command_obj("build_ext")
        command.build_lib = str(Path(tmp) / "lib")
        command.build_temp = str(Path(tmp) / "temp")
        command.parallel = jobs or os.cpu_count() or 1
        try:
            command.ensure_finalized()
            command.run()
        except Exception as exc:  # noqa: BLE001 - setuptools' CompileError, LinkError...
            raise AccelerateError(f"the C compiler failed: {str(exc).strip().splitlines()[-1]}") from None
        manifest = read_manifest(root)
        present = _extension_files(root)
        for module in modules:
            built = Path(command.get_ext_fullpath(f"{PACKAGE}.{module}"))
            target = _py(root, module).with_name(built.name)
            if module in present and present[module] != target:  # another ABI tag's file would shadow ours
                present[module].unlink()
            partial = target.with_name(target.name + ".partial")
            shutil.copyfile(built, partial)
            os.replace(partial, target)
            manifest[module] = {"sources": hashes[module], "file": target.name}
        (root / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    changed = [m for m in modules if source_hash(root, m) != hashes[m]]
    if changed:  # edited while compiling: the status says stale, the user must build again
        raise AccelerateError(f"{_py(root, changed[0])} changed while it was compiled: run `standoff accelerate` again")
    return modules


def main(args) -> int:
    """``standoff accelerate [--status | --remove]``."""
    root = package_dir()
    if args.remove:
        removed = remove(root)
        print(f"removed {len(removed)} compiled modules: the engine is pure Python" if removed
              else "no compiled modules: the engine is pure Python")
        return 0
    if args.status:
        for module, state in status(root):
            print(f"{state:<9} {PACKAGE}.{module}")
        return 0
    built = build(MODULES, root, log=lambda line: print(line, file=sys.stderr))
    print(f"compiled {len(built)} modules in {root}: `standoff accelerate --status` lists them, "
          "`standoff accelerate --remove` goes back to pure Python")
    return 0
