"""A guard for a Cython 3.3 miscompile the compiled engine once hit (server/games/schotten_totten/
game.py, ``view``): in a function whose argument is typed as an extension type (``STState``,
``StackState``...) a comprehension iterating over an attribute of that argument,
``[x for x in state.hands]``, compiles to code that never reads the attribute: a crash, in the
compiled engine only. The argument is typed by the module's ``.pxd`` (``cpdef f(STState state)``,
a ``cdef class`` method) or by an annotation naming such a type. Read from the sources alone, so
it runs without Cython: every compiled module (server/accelerate.py's list) is checked."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from standoff.server.accelerate import MODULES

SERVER = Path(__file__).resolve().parents[1] / "server"
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _extension_types() -> set[str]:
    names: set[str] = set()
    for pxd in SERVER.rglob("*.pxd"):
        names.update(re.findall(r"^\s*cdef class (\w+)", pxd.read_text(), re.M))
    return names


def _typed_in_pxd(pxd: Path, types: set[str]) -> dict[str, set[str]]:
    """``{function name: its arguments typed as extension types}`` from a ``.pxd``'s cpdef/cdef
    declarations (methods of a cdef class by their bare name)."""
    typed: dict[str, set[str]] = {}
    if not pxd.exists():
        return typed
    for match in re.finditer(r"^\s*c(?:p)?def\s+(?:[\w.]+\s+)*?(\w+)\s*\(([^)]*)\)", pxd.read_text(), re.M):
        name, params = match.groups()
        for param in params.split(","):
            words = param.split()
            if len(words) >= 2 and words[-2] in types:
                typed.setdefault(name, set()).add(words[-1].split("=")[0])
    return typed


def _annotation_names(node: ast.expr | None) -> set[str]:
    if node is None:
        return set()
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return set(re.findall(r"\w+", node.value))
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)}


def pitfalls(path: Path, types: set[str]) -> list[str]:
    """Each comprehension of ``path`` over an attribute of an extension-typed argument."""
    from_pxd = _typed_in_pxd(path.with_suffix(".pxd"), types)
    found = []
    for function in ast.walk(ast.parse(path.read_text())):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        arguments = function.args.posonlyargs + function.args.args + function.args.kwonlyargs
        typed = set(from_pxd.get(function.name, ()))
        typed |= {a.arg for a in arguments if _annotation_names(a.annotation) & types}
        if not typed:
            continue
        for node in ast.walk(function):
            if not isinstance(node, _COMPREHENSIONS):
                continue
            for generator in node.generators:
                it = generator.iter
                if isinstance(it, ast.Attribute) and isinstance(it.value, ast.Name) and it.value.id in typed:
                    found.append(f"{path.relative_to(SERVER.parent)}:{it.lineno} {function.name}: "
                                 f"a comprehension over {it.value.id}.{it.attr}")
    return found


def test_no_compiled_module_iterates_an_attribute_of_an_extension_typed_argument_in_a_comprehension():
    types = _extension_types()
    assert {"STState", "StackState", "Step"} <= types  # the scan reads the .pxd files it should
    found = []
    for module in MODULES:
        found += pitfalls(SERVER / (module.replace(".", "/") + ".py"), types)
    assert not found, "Cython 3.3 miscompiles these (bind the attribute to a local first):\n" + "\n".join(found)


def test_the_guard_finds_the_pattern(tmp_path):
    """The oracle: the forms that crashed are found, the safe rewrite is not."""
    (tmp_path / "m.pxd").write_text("cpdef f(game, STState state)\ncdef class S(Step):\n    cpdef run(self, STState s)\n")
    (tmp_path / "m.py").write_text(
        "def f(game, state):\n    return [h for h in state.hands]\n"
        "def g(state: 'STState'):\n    return {k: 1 for k in state.decks}\n"
        "def h(state):\n    return [x for x in state.hands]\n"  # not typed: fine
        "def safe(game, state: STState):\n    hands = state.hands\n    return [x for x in hands]\n"
        "class S:\n    def run(self, s):\n        return list(c for c in s.sides)\n"
    )
    global SERVER
    saved, SERVER = SERVER, tmp_path.parent
    try:
        found = pitfalls(tmp_path / "m.py", {"STState", "Step", "S"})
    finally:
        SERVER = saved
    assert [line.split(" ", 1)[1] for line in found] == [
        "f: a comprehension over state.hands",
        "g: a comprehension over state.decks",
        "run: a comprehension over s.sides",
    ]
