"""The engine (server.core, server.games) stays pure: no I/O, clock, logging, grpc or trio."""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import standoff.server

ENGINE_DIRS = ("core", "games")
FORBIDDEN_MODULES = {
    "grpc", "trio", "structlog", "asyncio", "logging", "socket", "threading", "subprocess",
    "time", "datetime", "os", "io", "pathlib",
}
FORBIDDEN_CALLS = {"open", "print", "input", "hash"}


def _engine_files():
    root = pathlib.Path(standoff.server.__file__).parent
    for folder in ENGINE_DIRS:
        yield from sorted((root / folder).rglob("*.py"))


def test_importing_the_engine_pulls_in_no_runtime_services():
    code = (
        "import sys; before = set(sys.modules)\n"
        "import standoff.server.core, standoff.server.games\n"
        f"bad = sorted(m for m in set(sys.modules) - before if m.split('.')[0] in {sorted(FORBIDDEN_MODULES)!r})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_engine_source_has_no_io_clock_or_hash_seeds():
    problems = []
    for path in _engine_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                for name in names:
                    if name.split(".")[0] in FORBIDDEN_MODULES:
                        problems.append(f"{path.name}:{node.lineno} imports {name}")
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                if node.func.id in FORBIDDEN_CALLS:
                    problems.append(f"{path.name}:{node.lineno} calls {node.func.id}()")
    assert problems == []
