"""The Twilight Struggle card audit: docs/cards.md lists the 110 cards, each card's event function
and the tests that *prove* it: tests that carry the event out through the engine and assert on
what it did. Naming a card in a test proves nothing.

    python scripts/card_audit.py             # rewrite docs/cards.md (runs the proving tests)
    python scripts/card_audit.py --check     # exit 1 if docs/cards.md is stale or a card is unproved
    python scripts/card_audit.py --discover  # which tests resolve which events, marked or not

How a test proves a card (every part is needed):

1. **It is marked.** The test carries ``@proves(card, ...)`` from ``tests/kits/ts_positions.py``
   (literal card numbers or ids), imported from ``kits.ts_positions``.
2. **It resolves the event (checked at run time).** While the test runs, the decorator's
   ``EventWatch`` wraps the card's entry in the engine's ``EVENTS`` register and observes every
   step of the game. The event counts as *resolved* once its function has run through the
   register -- that is, through the engine's ``event`` step: a card played as an event, a
   headline, an event fired by an operations play or by another event, the kit's ``run_event``
   -- **and** every frame it pushed has been popped again (all its choices made, dice rolled,
   regions scored), or the match ended on the way. A test that stops at the event's first
   question, calls an event function by hand, or never gets the event played fails with
   "@proves(n): ... never carried out / not resolved". The audit runs every marked test itself
   (pytest in a subprocess, ``STANDOFF_PROOF_LOG`` set) and counts a (test, card) pair only when
   the decorator logged it, which it does only when the test body returned normally. A strict
   ``xfail`` test (an engine disagreement) therefore never proves anything; it is listed apart.
3. **It asserts on an effect (checked statically, on the AST).** After the test's first call
   that drives the engine (``run_event``, ``play``, ``choose``, ``GAME.decision``/``apply``,
   ``step``, ``keys``, ``who``, or a module helper that calls one), the test -- or a helper of the
   same module that it calls -- has an ``assert`` reading game state an event changes: an
   attribute in ``STATE_FIELDS`` (``state.vp``, ``.defcon``, ``.inf``, ``.hands``, ``.discard``,
   ``.effects``, ``.outcome``...), a reader in ``EFFECT_READERS`` (the kit's ``influence``,
   ``history``, ``events_in_order``; ``state.has``; ``O.ops_value``; ``B.controller``...), or a
   local name assigned from one of those. Asserts that look only at options or legality
   (``keys``, ``step``, ``who``, ``GAME.decision``, ``event_playable``, coup targets...) do not count.
   The run-time half sharpens "after": the decorator logs the line of the test at which the event
   got resolved, and one effect assert (or a call of a helper holding one) must come at or after
   that line -- a check made while the event is still half-way does not prove its outcome.
4. **Scoring cards** (#1-3, 37, 38, 79, 81) are proved against fixed numbers only: the test may not
   use engine code whose name contains "scor" (``B.score_region``, ``B.southeast_asia_scoring``,
   ``apply_region_scoring``, ``final_scoring``...), and one of its effect asserts must compare with
   a literal (``assert state.vp == (7 + 2) - (3 + 1)``, worked out by hand from map.md §6).

Limits: the audit proves that a marked test resolves the event and then checks game state that
events change; it cannot tell whether the state checked is the one this card's text changes (an
``assert state.vp == 0`` qualifies whatever the card). That part stays with review, helped by the
tests' comments citing cards.md/map.md. Mechanically checked, a mention is no longer enough.

The table lists, per card, the marked tests that qualify statically (so it does not change with
the day's state of the engine); ``--check`` also fails when one of them did not pass with its
event resolved. The China Card (#6) has no event by design: it is exempt. ``--check`` is run by
tests/twilight_struggle/test_card_audit.py and fails when a card has no proving test, a marked
test does not qualify or does not pass, or docs/cards.md is out of date.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "cards.md"
TESTS = ROOT / "tests" / "twilight_struggle"
KIT = "kits.ts_positions"
PROOF_LOG = "STANDOFF_PROOF_LOG"  # the kit's proves() appends to it (kits.ts_positions.PROOF_LOG)
DISCOVER_LOG = "STANDOFF_PROOF_DISCOVER"

#: Fields of the Twilight Struggle state that events change (state.py).
STATE_FIELDS = frozenset({
    "inf", "vp", "defcon", "turn", "ar", "phasing", "milops", "space", "space_attempts", "hands",
    "china", "china_face_up", "deck", "discard", "removed", "effects", "events_played", "headline",
    "ccw", "outcome",
})
#: Functions whose result is game state (not options or legality).
EFFECT_READERS = frozenset({
    "influence", "history", "events_in_order", "has", "view", "ops_value", "controller", "controls",
})
#: Calls that make the engine run: an event can only have had an effect after one of them.
DRIVERS = frozenset({"run_event", "play", "choose", "apply", "decision", "headline", "step", "keys", "who"})
SCORING = (1, 2, 3, 37, 38, 79, 81)


# -- static half -----------------------------------------------------------------------------


@dataclasses.dataclass
class TestInfo:
    __test__ = False  # not a pytest class

    module: str  # file stem
    name: str
    cls: str | None = None
    proves: tuple[int, ...] = ()
    xfail: str | None = None  # the reason of a pytest.mark.xfail, if any
    problems: list[str] = dataclasses.field(default_factory=list)
    names: set[int] = dataclasses.field(default_factory=set)  # cards its text names (the old audit)
    #: lines of the test where an effect is checked: its effect asserts, and its calls of module
    #: helpers holding one (the run-time half compares them with the line resolving the event)
    effect_lines: list[int] = dataclasses.field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.module}::{self.name}"

    @property
    def node(self) -> str:
        parts = [str((TESTS / f"{self.module}.py").relative_to(ROOT)), *([self.cls] if self.cls else []), self.name]
        return "::".join(parts)


def _ident(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _is_literal(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp):
        return _is_literal(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_literal(node.left) and _is_literal(node.right)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_is_literal(e) for e in node.elts)
    return False


class _Effects:
    """Which expressions of a test (and the module helpers it calls) read game state."""

    def __init__(self, functions: list[ast.FunctionDef]) -> None:
        self.names: set[str] = set()
        changed = True
        while changed:  # names assigned from effect expressions, to a fixed point
            changed = False
            for fn in functions:
                for node in ast.walk(fn):
                    targets, value = self._binding(node)
                    if value is not None and self.reads(value):
                        for target in targets:
                            for name in ast.walk(target):
                                if isinstance(name, ast.Name) and name.id not in self.names:
                                    self.names.add(name.id)
                                    changed = True

    @staticmethod
    def _binding(node):
        if isinstance(node, ast.Assign):
            return node.targets, node.value
        if isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
            return [node.target], node.value
        if isinstance(node, (ast.For, ast.comprehension)):
            return [node.target], node.iter
        if isinstance(node, ast.NamedExpr):
            return [node.target], node.value
        return [], None

    def reads(self, expr: ast.AST) -> bool:
        for node in ast.walk(expr):
            if isinstance(node, ast.Attribute) and node.attr in STATE_FIELDS:
                return True
            if isinstance(node, ast.Call) and _ident(node.func) in EFFECT_READERS:
                return True
            if isinstance(node, ast.Name) and node.id in self.names:
                return True
        return False


def _called_helpers(fn: ast.FunctionDef, helpers: dict[str, ast.FunctionDef]) -> list[ast.FunctionDef]:
    """``fn`` and the module-level functions it calls, transitively."""
    seen = {fn.name: fn}
    todo = [fn]
    while todo:
        for node in ast.walk(todo.pop()):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                helper = helpers.get(node.func.id)
                if helper is not None and helper.name not in seen:
                    seen[helper.name] = helper
                    todo.append(helper)
    return list(seen.values())


def _drives(fn: ast.FunctionDef, helpers: dict[str, ast.FunctionDef], seen: frozenset[str] = frozenset()) -> bool:
    """Whether ``fn`` (or a module helper it calls) drives the engine."""
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            name = _ident(node.func)
            if name in DRIVERS:
                return True
            helper = helpers.get(name) if isinstance(node.func, ast.Name) else None
            if helper is not None and helper.name not in seen and _drives(helper, helpers, seen | {fn.name}):
                return True
    return False


def _asserts_after_driving(fn: ast.FunctionDef, helpers: dict[str, ast.FunctionDef]) -> list[ast.Assert]:
    """The test's asserts after its first call driving the engine (an assert before the event
    cannot be about its effect), plus those of the module helpers it calls."""
    first = min((n.lineno for n in ast.walk(fn) if isinstance(n, ast.Call) and (
        _ident(n.func) in DRIVERS
        or (isinstance(n.func, ast.Name) and n.func.id in helpers and _drives(helpers[n.func.id], helpers)))),
        default=None)
    own = [n for n in ast.walk(fn) if isinstance(n, ast.Assert) and (first is None or n.lineno >= first)]
    others = [n for f in _called_helpers(fn, helpers) if f is not fn for n in ast.walk(f) if isinstance(n, ast.Assert)]
    return own + others


def effect_asserts(fn: ast.FunctionDef, helpers: dict[str, ast.FunctionDef]) -> tuple[list[ast.Assert], _Effects]:
    """The asserts of test ``fn`` that read an effect after the engine ran, and the reader used."""
    effects = _Effects(_called_helpers(fn, helpers))
    return [a for a in _asserts_after_driving(fn, helpers) if effects.reads(a.test)], effects


def _effect_lines(fn: ast.FunctionDef, helpers: dict[str, ast.FunctionDef], effects: _Effects) -> list[int]:
    lines = [a.lineno for a in ast.walk(fn) if isinstance(a, ast.Assert) and effects.reads(a.test)]
    for call in ast.walk(fn):
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in helpers:
            if any(effects.reads(a.test) for f in _called_helpers(helpers[call.func.id], helpers)
                   for a in ast.walk(f) if isinstance(a, ast.Assert)):
                lines.append(call.lineno)
    return sorted(lines)


def _engine_ident(node: ast.AST, engine_names: set[str]) -> str | None:
    """The name of engine code ``node`` refers to: an attribute (``B.score_region``) or a name
    imported from the engine (``from ...turn import final_scoring``); local names do not count."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name) and node.id in engine_names:
        return node.id
    return None


def _proves_args(call: ast.Call, card_by_id: dict[str, int]) -> tuple[int, ...] | str:
    numbers = set(card_by_id.values())
    out = []
    for arg in call.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, int) and arg.value in numbers:
            out.append(arg.value)
        elif isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value in card_by_id:
            out.append(card_by_id[arg.value])
        else:
            return f"@proves argument {ast.unparse(arg)!r} is not a literal card number or id"
    return tuple(out) if out else "@proves() names no card"


def _xfail(decorators: list[ast.expr]) -> str | None:
    for d in decorators:
        target = d.func if isinstance(d, ast.Call) else d
        if isinstance(target, ast.Attribute) and target.attr == "xfail":
            if isinstance(d, ast.Call):
                for kw in d.keywords:
                    if kw.arg == "reason" and isinstance(kw.value, ast.Constant):
                        return str(kw.value.value)
            return "xfail"
    return None


class _Module:
    """One test module's parsed text, its helpers and the names it imports."""

    def __init__(self, text: str, stem: str) -> None:
        self.text, self.stem = text, stem
        self.tree = ast.parse(text)
        imports = [n for n in self.tree.body if isinstance(n, ast.ImportFrom)]
        self.kit_names = {a.asname or a.name for n in imports if n.module == KIT for a in n.names}
        self.engine_names = {a.asname or a.name for n in imports if (n.module or "").startswith("standoff")
                             for a in n.names}
        self.helpers = {n.name: n for n in self.tree.body
                        if isinstance(n, ast.FunctionDef) and not n.name.startswith("test_")}
        self.tests: list[tuple[str | None, ast.FunctionDef]] = [
            (None, n) for n in self.tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
        for cls in (n for n in self.tree.body if isinstance(n, ast.ClassDef) and n.name.startswith("Test")):
            self.tests += [(cls.name, n) for n in cls.body
                           if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]

    def function(self, name: str) -> ast.FunctionDef:
        return next(fn for _, fn in self.tests if fn.name == name)


def scan_source(text: str, stem: str) -> list[TestInfo]:
    """The tests of one module: the cards each names and proves, and why a mark does not qualify."""
    from standoff.server.games.twilight_struggle import card_data as CD

    card_by_id = {c.id: c.number for c in CD.CARDS}
    module = _Module(text, stem)
    infos = []
    for cls, fn in module.tests:
        info = TestInfo(stem, fn.name, cls, xfail=_xfail(fn.decorator_list))
        segment = "\n".join(ast.get_source_segment(text, d) or "" for d in fn.decorator_list)
        segment += "\n" + (ast.get_source_segment(text, fn) or "")
        for c in CD.CARDS:  # the old audit's criterion (the text names the card), kept for --discover
            if re.search(rf"""(["']){re.escape(c.id)}\1|card:{re.escape(c.id)}(?![a-z0-9_])""", segment):
                info.names.add(c.number)
        marks = [d for d in fn.decorator_list if isinstance(d, ast.Call) and _ident(d.func) == "proves"]
        if marks:
            _qualify(info, fn, marks, module, card_by_id)
        infos.append(info)
    return infos


def scan() -> list[TestInfo]:
    """Every test function of tests/twilight_struggle (the audit's own test aside)."""
    infos = []
    for path in sorted(TESTS.glob("test_*.py")):
        if path.name != "test_card_audit.py":
            infos += scan_source(path.read_text(encoding="utf-8"), path.stem)
    return infos


def _qualify(info: TestInfo, fn: ast.FunctionDef, marks: list[ast.Call], module: _Module, card_by_id) -> None:
    cards: list[int] = []
    for mark in marks:
        if not (isinstance(mark.func, ast.Name) and mark.func.id in module.kit_names):
            info.problems.append(f"@proves is not the one imported from {KIT}")
        args = _proves_args(mark, card_by_id)
        if isinstance(args, str):
            info.problems.append(args)
        else:
            cards += args
    info.proves = tuple(sorted(set(cards)))
    found, effects = effect_asserts(fn, module.helpers)
    info.effect_lines = _effect_lines(fn, module.helpers, effects)
    if not found:
        info.problems.append("no assert reads an effect of the event after the engine runs "
                             "(only options/legality, or no assert)")
    if any(c in SCORING for c in info.proves):
        body = _called_helpers(fn, module.helpers)
        named = sorted({i for f in body for n in ast.walk(f)
                        if (i := _engine_ident(n, module.engine_names)) and "scor" in i.lower()})
        if named:
            info.problems.append(f"a scoring card's test must not compute the expected VP with {', '.join(named)}")
        literal = any(
            isinstance(n, ast.Compare)
            and any(_is_literal(x) for x in [n.left, *n.comparators])
            and any(not _is_literal(x) and effects.reads(x) for x in [n.left, *n.comparators])
            for a in found
            for n in ast.walk(a.test)
        )
        if not literal:
            info.problems.append("a scoring card's test must compare an effect with a literal number")


# -- run-time half ---------------------------------------------------------------------------


def run_proofs(infos: list[TestInfo]) -> tuple[dict[tuple[str, int], list[int | None]], str]:
    """Run every @proves test; return the (test, card) pairs their decorators logged (tests that
    passed with the events resolved), each with the test's line at which the event was first
    resolved (one per run: parametrized tests run several times), and pytest's report when some
    test failed ("" otherwise)."""
    nodes = sorted({i.node for i in infos if i.proves})
    if not nodes:
        return {}, ""
    with tempfile.TemporaryDirectory() as tmp:
        log = pathlib.Path(tmp) / "proofs.jsonl"
        out = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:warnings", *nodes],
            cwd=ROOT, env=dict(os.environ, **{PROOF_LOG: str(log)}), capture_output=True, text=True, timeout=600,
        )
        proved: dict[tuple[str, int], list[int | None]] = {}
        if log.exists():
            for line in log.read_text(encoding="utf-8").splitlines():
                entry = json.loads(line)
                for c in entry["cards"]:
                    proved.setdefault((entry["test"], c), []).append(entry["lines"].get(str(c)))
    return proved, (out.stdout[-4000:] + out.stderr[-2000:]) if out.returncode != 0 else ""


# -- the table -------------------------------------------------------------------------------


HEADER = """\
# Twilight Struggle: the 110 cards, their events and the tests that prove them

Generated by `python scripts/card_audit.py`; the test suite runs `--check`, which fails when this
file is stale or a card is not proved.

A test **proves** a card when (1) it carries the decorator `@proves(card)` of
`tests/kits/ts_positions.py`, which at run time watches the engine and fails the test unless the
card's event was *resolved*: run through the engine's event register (played as an event,
headlined, fired by an operations play or another event, the kit's `run_event`...) with every
frame it pushed popped again (all its choices made, dice rolled, scoring done) or the match ended
on the way; (2) the test passes: the audit runs every marked test and counts only those whose
decorator logged a success (a strict `xfail` never does); and (3) once the event is resolved
(the decorator logs the line), it asserts on an effect: an `assert` reads game state that events
change (VP, DEFCON, influence, hands, piles, lasting effects, outcome...), not only options or
legality. Naming a card in a test
proves nothing. Scoring cards (#1-3, 37, 38, 79, 81) must moreover be proved against literal
numbers worked out by hand from map.md §6, never with the engine's scoring functions. The China
Card (#6) has no event by design and is exempt. The mechanism is described in full in
`scripts/card_audit.py`.
"""


def render() -> tuple[str, list[str]]:
    """The table (from the static half: which marked tests qualify, so that it does not change
    with the engine's state of the day) and the problems (from both halves)."""
    from standoff.server.games.twilight_struggle import card_data as CD
    from standoff.server.games.twilight_struggle.events import EVENTS

    infos = scan()
    proved, report = run_proofs(infos)
    problems = []
    listed: dict[int, list[str]] = {c.number: [] for c in CD.CARDS}
    passed: dict[int, int] = {c.number: 0 for c in CD.CARDS}
    xfails: dict[int, list[TestInfo]] = {c.number: [] for c in CD.CARDS}
    for info in infos:
        for p in info.problems:
            problems.append(f"{info.id}: {p}")
        for c in info.proves:
            if info.xfail:
                xfails[c].append(info)
            elif not info.problems:
                listed[c].append(info.id)
                if (info.id, c) not in proved:
                    problems.append(f"{info.id}: did not pass with the event of #{c} resolved")
                    continue
                late = [n for n in proved[info.id, c] if n is not None and max(info.effect_lines, default=0) < n]
                if late:
                    problems.append(f"{info.id}: no effect assert after line {max(late)}, where the event of "
                                    f"#{c} was resolved")
                else:
                    passed[c] += 1
    if report:
        problems.append("some @proves tests failed:\n" + report)
    lines = [
        HEADER,
        "| # | card | period | side | ops | event | proved by |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    unproved = 0
    for card in CD.CARDS:
        spec = EVENTS.get(card.number)
        if spec is not None:
            event = f"`{spec.fn.__module__.rsplit('.', 1)[-1]}.{spec.fn.__name__}`"
        elif card.number == CD.CHINA_CARD:
            event = "(no event)"
        else:
            event = "**missing**"
            problems.append(f"#{card.number} {card.name}: no event function")
        names = listed[card.number]
        if card.number == CD.CHINA_CARD:
            shown = "exempt: no event"
        elif not names:
            unproved += 1
            problems.append(f"#{card.number} {card.name}: no test proves it")
            shown = "**none**"
        else:
            if not passed[card.number]:
                problems.append(f"#{card.number} {card.name}: none of its proving tests passed")
            shown = ", ".join(f"`{n}`" for n in names[:3]) + (f" (+{len(names) - 3})" if len(names) > 3 else "")
        if xfails[card.number]:
            shown += f"; engine disagreement: {', '.join(f'`{i.id}`' for i in xfails[card.number])}"
        lines.append(f"| {card.number} | {card.name} | {card.period} | {card.side} | {card.ops} | {event} | {shown} |")
    total = len(CD.CARDS) - 1
    lines += ["", f"{total - unproved} of the {total} cards with an event have a proving test."]
    disagreements = [i for i in infos if i.proves and i.xfail]
    if disagreements:
        lines += ["", "## Engine disagreements (strict xfail tests)", ""]
        for info in disagreements:
            cards = ", ".join(f"#{c}" for c in info.proves)
            lines.append(f"* `{info.id}` ({cards}): {info.xfail}")
    return "\n".join(lines) + "\n", problems


# -- discovery (a tool, not part of the check) --------------------------------------------------


def discover() -> int:
    """Run the whole Twilight Struggle suite watching every event, marked or not, and print per
    card the tests that name it, resolve its event and assert on an effect afterwards (the
    candidates for @proves), then the cards no test does that for."""
    from standoff.server.games.twilight_struggle import card_data as CD

    infos = {i.id: i for i in scan()}
    modules: dict[str, _Module] = {}
    with tempfile.TemporaryDirectory() as tmp:
        log = pathlib.Path(tmp) / "discover.jsonl"
        env = dict(os.environ, **{DISCOVER_LOG: str(log)})
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT / "scripts"), env.get("PYTHONPATH")]))
        subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:warnings", "-p", "card_audit",
             str(TESTS.relative_to(ROOT)), "--deselect", str((TESTS / "test_card_audit.py").relative_to(ROOT))],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
        )
        resolved: dict[str, set[int]] = {}
        for line in log.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            resolved.setdefault(entry["test"], set()).update(entry["resolved"])
    named_only = []
    for card in CD.CARDS:
        if card.number == CD.CHINA_CARD:
            continue
        good = []
        for test, cards in sorted(resolved.items()):
            info = infos.get(test)
            if info is None or card.number not in cards or card.number not in info.names:
                continue
            if info.module not in modules:
                modules[info.module] = _Module((TESTS / f"{info.module}.py").read_text(encoding="utf-8"), info.module)
            module = modules[info.module]
            if effect_asserts(module.function(info.name), module.helpers)[0]:
                good.append(test)
        print(f"#{card.number} {card.id}: {len(good)} test(s)" + (f", e.g. {good[0]}" if good else ""))
        if not good:
            named_only.append(card)
    print(f"\n{len(CD.CARDS) - 1 - len(named_only)} of {len(CD.CARDS) - 1} cards have a test that names the card, "
          "resolves its event and asserts on an effect after it; the others are only named:")
    for card in named_only:
        print(f"  #{card.number} {card.name}")
    return 0


# pytest plugin hooks, used by --discover (``-p card_audit``): watch every event of every test and
# log those resolved by the tests that pass.
_DISCOVERED: list[dict] = []

try:
    import pytest as _pytest_api
except ImportError:  # the audit itself does not need pytest in-process
    _pytest_api = None

if _pytest_api is not None:

    @_pytest_api.hookimpl(wrapper=True)
    def pytest_runtest_call(item):
        from kits.ts_positions import EventWatch

        with EventWatch() as watch:
            result = yield
        _DISCOVERED.append({"test": f"{item.path.stem}::{item.originalname}", "resolved": sorted(watch.resolved)})
        return result

    def pytest_sessionfinish(session):
        path = os.environ.get(DISCOVER_LOG)
        if path:
            with open(path, "a", encoding="utf-8") as out:
                for entry in _DISCOVERED:
                    out.write(json.dumps(entry) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if docs/cards.md is stale or a card is unproved")
    parser.add_argument("--discover", action="store_true", help="which tests resolve which events (marked or not)")
    args = parser.parse_args()
    if args.discover:
        return discover()
    text, problems = render()
    if args.check:
        current = DOC.read_text(encoding="utf-8") if DOC.exists() else ""
        if current != text:
            print("docs/cards.md is out of date: run python scripts/card_audit.py", file=sys.stderr)
        if problems:
            print("\n".join(problems), file=sys.stderr)
        return 1 if current != text or problems else 0
    DOC.parent.mkdir(exist_ok=True)
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)}; {len(problems)} problems")
    for problem in problems:
        print(" ", problem)
    return 0


if __name__ == "__main__":
    sys.exit(main())
