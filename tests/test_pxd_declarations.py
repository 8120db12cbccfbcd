"""One truth for the compiled engine: its ``.pxd`` files agree with the ``.py`` they augment.

The ``.pxd`` beside an engine module restates what the ``.py`` defines (functions, their
parameters and return types, extension types and their attributes) for ``standoff accelerate``.
A ``.py`` edit that the compiled build would refuse, or would run differently, fails here, in
the default pure run, in about a second and without Cython: the rules are tests/kits/pxd.py's.
The oracle tests below break the real sources the way a day's edit would (the issue's
``open_flags`` returning a tuple first) and check that each is caught, with a message naming it.
"""

from __future__ import annotations

import ast
import functools
import shutil
from pathlib import Path

import pytest

import standoff.server
from kits import pxd as kit
from standoff.server.accelerate import MODULES

SERVER = Path(standoff.server.__file__).resolve().parent


def _source(module: str) -> str:
    return (SERVER / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8")


@functools.cache
def _package() -> kit.Package:
    return kit.Package(SERVER)


def _problems(module: str, source: str) -> list[str]:
    """The check of ``module`` with its ``.py`` replaced by ``source``."""
    return kit.check_module(_package(), module, source)


def _edit(module: str, old: str, new: str) -> str:
    source = _source(module)
    assert source.count(old) == 1, f"the oracle's anchor {old!r} is not unique in {module}"
    return source.replace(old, new)


def _function(module: str, function: str, cls: str | None) -> ast.FunctionDef:
    body = ast.parse(_source(module)).body
    if cls is not None:
        body = next(n for n in body if isinstance(n, ast.ClassDef) and n.name == cls).body
    return next(n for n in body if isinstance(n, ast.FunctionDef) and n.name == function)


def _insert_into(module: str, function: str, line: str, cls: str | None = None) -> str:
    """``module``'s source with ``line`` as the first statement of ``function`` (of ``cls``)."""
    node = _function(module, function, cls)
    lines = _source(module).splitlines(keepends=True)
    lines.insert(node.body[0].lineno - 1, f"{' ' * node.body[0].col_offset}{line}\n")
    return "".join(lines)


def _in_function(module: str, function: str, old: str, new: str, cls: str | None = None) -> str:
    """``module``'s source with ``old`` replaced by ``new`` within ``function`` (of ``cls``) only."""
    node = _function(module, function, cls)
    lines = _source(module).splitlines(keepends=True)
    start, end = node.lineno - 1, node.end_lineno
    text = "".join(lines[start:end])
    assert old in text, f"the oracle's anchor {old!r} is not in {function}"
    return "".join(lines[:start]) + text.replace(old, new) + "".join(lines[end:])


def test_every_pxd_agrees_with_the_py_it_augments():
    assert kit.check(SERVER, MODULES) == []


def test_the_check_reads_every_declaration():
    """The parser found the declarations the files hold (the issue counted 320): a parser that
    quietly read nothing would agree with anything."""
    package = _package()
    assert len(package.pxds) == len(list(SERVER.rglob("*.pxd"))) >= 24
    functions = [f for p in package.pxds.values() for f in p.functions.values()]
    classes = [c for p in package.pxds.values() for c in p.classes.values()]
    methods = [m for c in classes for m in c.methods.values()]
    attributes = [a for c in classes for a in c.attributes]
    assert len(functions) + len(classes) + len(methods) + len(attributes) >= 310
    assert all(p.functions or p.classes for p in package.pxds.values())
    board = package.pxds["games.schotten_totten.board"].functions["open_flags"]
    assert board.returns == "list" and [(p.type, p.name) for p in board.params] == [
        ("STState", "state"), ("Py_ssize_t", "role")] and board.locals == {"f": "Py_ssize_t"}
    assert package.attributes("games.schotten_totten.state", "STState")["hands"] == "list"
    assert package.attributes("games.schotten_totten.state", "STState")["outcome"] == "object"  # StackState's


# -- the oracle: edits the compiled build refuses or runs differently, each caught ----------------

OPEN_FLAGS = """    return [
        f
        for f, side in enumerate(state.sides[role :: len(state.rules.roles)])
        if len(side) < (3 if mud[f] < 0 else 4) and claimed[f] < 0
    ]
"""

CASES = {
    # The example: 23 compiled tests failed with "Expected list, got tuple".
    "open_flags returns a tuple": (
        "games.schotten_totten.board",
        lambda: _edit("games.schotten_totten.board", OPEN_FLAGS, f"    return tuple({OPEN_FLAGS.strip()[7:]})\n"),
        "board.py: open_flags: declared to return list, returns tuple(",
    ),
    "open_flags returns a tuple through a generator": (
        "games.schotten_totten.board",
        lambda: _edit("games.schotten_totten.board", OPEN_FLAGS,
                      OPEN_FLAGS.replace("return [", "return tuple(").replace("    ]\n", "    )\n")),
        "open_flags: a generator expression at line",
    ),
    "a renamed parameter": (
        "games.schotten_totten.board",
        lambda: _edit("games.schotten_totten.board", "def has_room(state: STState, role: int)",
                      "def has_room(state: STState, seat: int)"),
        "has_room: parameters (state, seat) in the .py, (state, role) in the .pxd",
    ),
    "an extra parameter": (
        "games.twilight_struggle.ops",
        lambda: _in_function("games.twilight_struggle.ops", "advance_space", "side: int)", "side: int, by=1)"),
        "advance_space: parameters (state, side, by) in the .py, (state, side) in the .pxd",
    ),
    "a removed function": (
        "games.schotten_totten.board",
        lambda: _in_function("games.schotten_totten.board", "_side_index", "def _side_index(", "def _side_slot("),
        "board.py: _side_index: declared cpdef in the .pxd, the .py has no function _side_index",
    ),
    "a default dropped": (
        "games.schotten_totten.game",
        lambda: _edit("games.schotten_totten.game", "option, logged=True)", "option, logged)"),
        "_st_apply_pending: defaults on (none) in the .py, =* on (logged) in the .pxd",
    ),
    "a default that is not the C type": (
        "games.schotten_totten.game",
        lambda: _edit("games.schotten_totten.game", "option, logged=True)", "option, logged=None)"),
        "_st_apply_pending: the default of logged (None) is not a bint",
    ),
    "an attribute the class does not declare": (
        "games.schotten_totten.state",
        lambda: _insert_into("games.schotten_totten.state", "__init__", "self.scores = []", cls="STState"),
        "state.py: STState.__init__: assigns self.scores at line",
    ),
    "a slot the class does not declare": (
        "games.schotten_totten.state",
        lambda: _edit("games.schotten_totten.state", '        "deck_options",\n',
                      '        "deck_options",\n        "scores",\n'),
        "STState: __slots__ in the .py has ['scores'] that the .pxd does not declare",
    ),
    "a list attribute given a tuple": (
        "games.schotten_totten.state",
        lambda: _edit("games.schotten_totten.state", "self.deck_options: list[tuple | None] = [None, None]",
                      "self.deck_options: tuple = (None, None)"),
        "self.deck_options is declared list, assigned (None, None)",
    ),
    "a typed state given an undeclared attribute": (
        "games.schotten_totten.board",
        lambda: _insert_into("games.schotten_totten.board", "_discard", "state.last_discard = card"),
        "_discard: assigns state.last_discard at line",
    ),
    "a lambda in a cpdef function": (
        "games.twilight_struggle.ops",
        lambda: _insert_into("games.twilight_struggle.ops", "coup_targets", "key = lambda c: -c"),
        "coup_targets: a lambda at line",
    ),
    "a cdef class given another base": (
        "games.schotten_totten.turn",
        lambda: _edit("games.schotten_totten.turn", "class Deal(STStep):", "class Deal(Step):"),
        "turn.py: Deal: bases (Step) in the .py, (STStep) in the .pxd",
    ),
    "a cpdef method removed from its class": (
        "games.twilight_struggle.turn",
        lambda: _in_function("games.twilight_struggle.turn", "run", "def run(", "def _run(", cls="Dispose"),
        "turn.py: Dispose.run: declared cpdef, not defined in the .py class body",
    ),
    "a bint function returning a tuple": (
        "games.twilight_struggle.board",
        lambda: _insert_into("games.twilight_struggle.board", "in_event", "return (state.stack,)"),
        "in_event: declared to return bint, returns (state.stack,) (tuple)",
    ),
    "an int function returning a string": (
        "games.twilight_struggle.state",
        lambda: _insert_into("games.twilight_struggle.state", "other", "return 'US'"),
        "other: declared to return int, returns 'US' (str)",
    ),
    "an int function ending without a return": (
        "games.schotten_totten.board",
        lambda: _edit("games.schotten_totten.board", "def _side_index(state: STState, flag: int, role: int) -> int:",
                      "def _side_index(state: STState, flag: int, role: int) -> int:\n    if flag < 0:\n"
                      "        return\n"),
        "_side_index: declared to return Py_ssize_t, returns nothing (None)",
    ),
    "a typed local renamed away": (
        "games.twilight_struggle.ops",
        lambda: _in_function("games.twilight_struggle.ops", "_union", "found", "hits"),
        "_union: @cython.locals types found, not a local of the .py function",
    ),
    "a tuple local given a list": (
        "games.schotten_totten.board",
        lambda: _insert_into("games.schotten_totten.board", "_add_to_hand", "hand = []"),
        "_add_to_hand: local hand is declared tuple, assigned [] at line",
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_edit_the_compiled_build_would_refuse_is_caught(case):
    module, edit, expected = CASES[case]
    source = edit()
    assert source != _source(module)
    compile(source, module, "exec")  # the pure engine would import it
    problems = _problems(module, source)
    assert any(expected in p for p in problems), "\n".join(problems) or "nothing found"


def _pxd_copy(tmp_path: Path) -> Path:
    """The ``.py`` and ``.pxd`` files of this tree's ``server``, to edit a ``.pxd``."""
    return Path(shutil.copytree(SERVER, tmp_path / "server", ignore=lambda folder, names: [
        n for n in names if not (n.endswith((".py", ".pxd")) or (Path(folder) / n).is_dir())
        or n == "__pycache__"]))


@pytest.mark.parametrize(("pxd", "old", "new", "expected"), [
    ("games/schotten_totten/board.pxd", "cpdef list open_flags", "cpdef list open_flags_",
     "tactics.pxd:7: cimports open_flags, which games.schotten_totten.board.pxd does not declare"),
    ("games/twilight_struggle/ops.pxd", "from .state cimport TSState, other",
     "from .state cimport other", "ops.pxd:", ),
    ("games/twilight_struggle/turn.pxd", "from . cimport ops", "from . cimport opz",
     "turn.pxd:10: cimports opz, but there is no games.twilight_struggle.opz.pxd"),
    ("games/schotten_totten/state.pxd", "    cdef public list deck_options\n", "",
     "STState: __slots__ in the .py has ['deck_options'] that the .pxd does not declare"),
])
def test_an_edited_pxd_is_checked_too(tmp_path, pxd, old, new, expected):
    root = _pxd_copy(tmp_path)
    path = root / pxd
    assert path.read_text().count(old) == 1
    path.write_text(path.read_text().replace(old, new))
    problems = kit.check(root, MODULES)
    assert any(expected in p for p in problems), "\n".join(problems) or "nothing found"


def test_a_pxd_beside_a_module_that_is_not_compiled_is_named(tmp_path):
    root = _pxd_copy(tmp_path)
    (root / "games" / "twilight_struggle" / "cards.pxd").write_text("cpdef card(n)\n")
    assert kit.check(root, MODULES) == [
        f"{root / 'games' / 'twilight_struggle' / 'cards.pxd'}: beside a module standoff accelerate does not compile"]


@pytest.mark.parametrize("line", [
    "ctypedef int flag_t", "cdef int* pointers(int n)", "cpdef f(int n=3)", "cpdef f(list cards not None)",
    "cdef extern from *:", "DEF N = 9", "cdef int counter", "    cpdef run(self)",
    "@cython.boundscheck(False)\ncpdef f(n)", "@cython.locals(x=cython.int)\nimport cython",
])
def test_the_parser_refuses_what_it_does_not_read(tmp_path, line):
    """A construct outside the subset fails the check loudly (extend the parser), never skipped."""
    path = tmp_path / "m.pxd"
    path.write_text(f"import cython\n\n{line}\n")
    with pytest.raises(kit.PxdSyntaxError, match=r"m\.pxd:\d+"):
        kit.parse(path)


# -- the rules are Cython's: what the check says Cython refuses, Cython refuses ---------------------

#: The oracle's edits that Cython itself refuses to compile. The others compile, and then fail or
#: compute something else at run time (the compiled engine's tests in tests/test_accelerate.py);
#: a cpdef method missing from its class but defined by a base compiles too, the base's method
#: silently standing in for the one the .pxd declares.
REFUSED_BY_CYTHON = ("open_flags returns a tuple through a generator", "an extra parameter", "a removed function",
                     "a default dropped", "a default that is not the C type", "a list attribute given a tuple",
                     "a lambda in a cpdef function", "a cdef class given another base",
                     "an int function ending without a return",
                     "a tuple local given a list")


def _cythonize(root: Path, module: str, tmp: Path) -> str | None:
    """Cython's verdict on ``module`` of the package folder ``root`` (C code only, no compiler):
    ``None`` if it compiles, else its error messages."""
    import contextlib
    import io

    from Cython.Build import cythonize
    from Cython.Compiler.Errors import CompileError

    from standoff.server import accelerate

    view = accelerate._package_view(tmp, root)
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(errors):
            cythonize([str(view / (module.replace(".", "/") + ".py"))], build_dir=str(tmp / "c"), quiet=True,
                      force=True, compiler_directives=accelerate.DIRECTIVES)
    except CompileError:
        return errors.getvalue() or "refused"
    return None


@pytest.mark.compiled
@pytest.mark.parametrize("case", REFUSED_BY_CYTHON)
def test_cython_refuses_what_the_check_says_it_refuses(case, tmp_path):
    """Each edit the check reports as one Cython refuses is refused by Cython 3.3 (only the
    edited module is cythonized: seconds, no C compiler); the unedited module compiles."""
    pytest.importorskip("Cython")
    module, edit, _ = CASES[case]
    root = _pxd_copy(tmp_path)
    py = root / (module.replace(".", "/") + ".py")
    assert _cythonize(root, module, tmp_path / "before") is None
    py.write_text(edit())
    assert _cythonize(root, module, tmp_path / "after") is not None
