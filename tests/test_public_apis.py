"""Public APIs only of trio and grpc (the developers' guide): the server, the SDK and the tournament
runner reach no private module or attribute of theirs, and step no coroutine by hand. A static
scan of the sources (``ast``), so that a private use fails here before a dependency's release
breaks it at run time.

Three checks: (1) no import of, or attribute path through, a name starting with ``_`` under the
modules ``trio`` and ``grpc`` (``trio._core``, ``grpc._cython``, ``trio.lowlevel._x``,
``grpc.aio._base_call``...), whatever name they are imported as; (2) no attribute read whose name
starts with ``_`` and that only trio's or grpc's own sources define (an internal reached through
an object, as ``runner.io_manager._epoll``); (3) no ``.send(None)`` / ``.__await__()``: a coroutine
is awaited by its event loop's task, never driven by hand."""

from __future__ import annotations

import ast
import pathlib

import grpc
import trio

import standoff.sdk
import standoff.server
import standoff.tournaments

#: The dependencies whose internals are off limits (a module and everything under it).
GUARDED = ("trio", "grpc")


def _our_files() -> list[pathlib.Path]:
    files: list[pathlib.Path] = []
    for package in (standoff.server, standoff.sdk, standoff.tournaments):
        files.extend(sorted(pathlib.Path(package.__file__).parent.rglob("*.py")))
    return files


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _guarded(module: str) -> bool:
    return module.split(".")[0] in GUARDED


def _dotted(node: ast.AST) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``; None for anything but names and attributes."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def private_module_uses(source: str, where: str = "") -> list[str]:
    """Each import of, or attribute path through, a private name under trio or grpc in
    ``source``, as ``where:line what``."""
    tree = ast.parse(source)
    _mark_parents(tree)  # so that only the outermost attribute of a path is looked at
    aliases: dict[str, str] = {}  # a local name -> the guarded module it stands for
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if not _guarded(alias.name):
                    continue
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"{where}:{node.lineno} imports {alias.name}")
                aliases[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and _guarded(node.module):
            for alias in node.names:
                path = f"{node.module}.{alias.name}"
                if any(_private(part) for part in path.split(".")):
                    found.append(f"{where}:{node.lineno} imports {path}")
                aliases[alias.asname or alias.name] = path
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and not isinstance(getattr(node, "_parent_attr", None), ast.Attribute):
            parts = _dotted(node)
            if parts and parts[0] in aliases:
                path = aliases[parts[0]].split(".") + parts[1:]
                if any(_private(part) for part in path):
                    found.append(f"{where}:{node.lineno} reaches {'.'.join(path)}")
        elif (name := _named_attribute(node, "getattr")) is not None and _private(name):
            parts = _dotted(node.args[0])
            if parts and parts[0] in aliases:
                found.append(f"{where}:{node.lineno} reaches {'.'.join(aliases[parts[0]].split('.') + parts[1:])}.{name}")
    return sorted(set(found))


def _mark_parents(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child._parent_attr = node  # type: ignore[attr-defined]


def _defined_private_names(files: list[pathlib.Path]) -> set[str]:
    """The private names ``files`` define: functions and methods, class attributes, and
    attributes they assign (``self._x = ...``)."""
    names: set[str] = set()
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, ast.Assign) and any(_dotted(t) == ["__slots__"] for t in node.targets):
                names.update(c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant))
            elif _named_attribute(node, "setattr") is not None:
                names.add(_named_attribute(node, "setattr"))
    return {name for name in names if _private(name)}


def _named_attribute(node: ast.AST, function: str) -> str | None:
    """``name`` of a call ``function(obj, "name", ...)`` (getattr, setattr, hasattr), else None."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == function
            and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)):
        return node.args[1].value
    return None


def _dependency_files() -> list[pathlib.Path]:
    return [path for module in (trio, grpc) for path in sorted(pathlib.Path(module.__file__).parent.rglob("*.py"))]


def test_the_scan_finds_each_form_of_a_private_use():
    # The scanner itself: each way of reaching a private module is caught, public uses are not.
    source = (
        "import trio\nimport trio._core\nimport grpc.aio as aio\nfrom grpc import _cython\n"
        "from trio.lowlevel import _private_thing\nfrom trio import lowlevel as low\n"
        "x = trio._core._run\ny = low._hidden\nz = aio._base_call.Call\nw = getattr(trio, '_core')\n"
        "ok = trio.lowlevel.start_guest_run\nfine = aio.ServicerContext\nv = trio.__version__\n"
    )
    assert private_module_uses(source, "t") == [
        "t:10 reaches trio._core",
        "t:2 imports trio._core",
        "t:4 imports grpc._cython",
        "t:5 imports trio.lowlevel._private_thing",
        "t:7 reaches trio._core._run",
        "t:8 reaches trio.lowlevel._hidden",
        "t:9 reaches grpc.aio._base_call.Call",
    ]


def test_no_private_module_of_trio_or_grpc_is_imported_or_reached():
    found = []
    for path in _our_files():
        found.extend(private_module_uses(path.read_text(encoding="utf-8"), str(path.name)))
    assert found == []


def test_no_private_attribute_that_only_trio_or_grpc_define_is_read():
    ours = _our_files()
    theirs = _defined_private_names(_dependency_files()) - _defined_private_names(ours)
    assert "_epoll" in theirs  # the scan sees trio's internals (its epoll I/O manager's)
    found = []
    for path in ours:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in theirs:
                found.append(f"{path.name}:{node.lineno} reads .{node.attr}")
            for function in ("getattr", "hasattr"):
                if _named_attribute(node, function) in theirs:
                    found.append(f"{path.name}:{node.lineno} {function}(..., {_named_attribute(node, function)!r})")
    assert found == []


def test_no_coroutine_is_stepped_by_hand():
    found = []
    for path in _our_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            by_hand = node.func.attr == "__await__" or (
                node.func.attr == "send" and len(node.args) == 1
                and isinstance(node.args[0], ast.Constant) and node.args[0].value is None)
            if by_hand:
                found.append(f"{path.name}:{node.lineno} .{node.func.attr}(...)")
    assert found == []
