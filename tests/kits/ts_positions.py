"""Test kit for Twilight Struggle: build positions and drive events with scripted choices."""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import inspect
import json
import os
import pathlib
import sys
from collections.abc import Iterable

from standoff.sdk.positions import from_position
from standoff.server.core.flow import iter_history
from standoff.server.games.twilight_struggle import TwilightStruggle
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.position import cards_in_game, effect_entry
from standoff.server.games.twilight_struggle.rules import make_rules
from standoff.server.games.twilight_struggle.state import US, USSR, TSState

GAME = TwilightStruggle()
SIDE = {"us": US, "ussr": USSR}
OTHER = {"us": "ussr", "ussr": "us"}


def card(name: str) -> int:
    return CD.CARD_BY_ID[name].number


def country(name: str) -> int:
    return M.INDEX[name]


def position(
    *,
    hands: dict[str, Iterable[str]] | None = None,
    influence: dict[str, tuple[int, int]] | None = None,
    defcon: int = 5,
    turn: int = 1,
    phasing: str = "ussr",
    vp: int = 0,
    effects: Iterable[str] = (),
    events_played: Iterable[str] = (),
    headline: dict[str, str] | None = None,
    setup_influence: bool = True,
    end_turn: int = 3,
    rounds: int = 1,
) -> TSState:
    """A state at an action round of ``phasing``, built through the public position format
    (docs/positions.md: ``standoff.sdk.positions.from_position``); this helper only fills in the
    test defaults.

    * ``influence`` maps country id → (us, ussr) and overrides the set-up influence there (set
      ``setup_influence=False`` to start empty).
    * ``effects``: the engine's effect names (``"nato"``, ``"red_scare:us:turn"``).
    * ``headline``: side → card, the headline cards of the turn (held there, not in the pile).
    * ``rounds`` action rounds are pending, alternating from ``phasing`` (use 2 to stop at the
      other side's round after a play).
    * The draw pile is the loader's default: every card of the periods in play found nowhere
      else. The periods in play are ``turn``'s; a hand holding a card of a later period (a Late
      War card's event tried "at turn 1") moves the position to the first turn at which that card
      is in play (4 for Mid War, 8 for Late War), as the loader requires.
    """
    rules = make_rules(None, {"end_turn": str(end_turn)})
    table: dict[str, dict[str, int]] = {}
    if setup_influence:
        for c in M.COUNTRIES:
            if c.start_us or c.start_ussr:
                table[c.id] = {"us": c.start_us, "ussr": c.start_ussr}
    for name, (us, ussr) in (influence or {}).items():
        table[name] = {"us": us, "ussr": ussr}
    hands = {side: list(cards) for side, cards in (hands or {}).items()}
    held = {card(c) for cards in hands.values() for c in cards} | {card(c) for c in (headline or {}).values()}
    turn = next(t for t in sorted({turn, 4, 8}) if t >= turn and held <= set(cards_in_game(rules, t)))
    sides = [phasing if k % 2 == 0 else OTHER[phasing] for k in range(rounds)]
    stack = [{"step": "end_turn"}]
    stack += [{"step": "action_round", "round": 1 + k // 2, "side": s} for k, s in reversed(list(enumerate(sides)))]
    return from_position(GAME, {
        "game": GAME.name, "options": dict(rules.options), "turn": turn, "action_round": 1,
        "phasing": phasing, "vp": vp, "defcon": defcon, "influence": table, "hands": hands,
        "headline": dict(headline or {}),
        "effects": [effect_entry(e) for e in effects],
        "events_played": list(events_played),
        "stack": stack,
    })


def keys(state: TSState) -> list[str]:
    decision = GAME.decision(state)
    return [] if decision is None else [o.key for o in decision.options]


def choose(state: TSState, key: str) -> None:
    """Apply the option ``key`` of the pending decision (it must exist)."""
    decision = GAME.decision(state)
    assert decision is not None, "no pending decision"
    GAME.apply(state, decision.options[decision.index_of(key)])


def play(state: TSState, *script: str) -> TSState:
    """Apply a sequence of option keys (e.g. "card:fidel", "use:event", "die:4")."""
    for key in script:
        choose(state, key)
    return state


def run_event(state: TSState, name: str, actor: str, *script: str) -> TSState:
    """Carry out the event of card ``name`` for ``actor`` directly (no card play), then apply
    the scripted keys. The state's stack must end at a decision afterwards or be settled."""
    state.stack.append(("event", card(name), SIDE[actor]))
    state.pending = None
    GAME.decision(state)  # run the event's automatic part now
    return play(state, *script)


def influence(state: TSState, name: str) -> tuple[int, int]:
    i = M.INDEX[name]
    return state.inf[US][i], state.inf[USSR][i]


def spare_position(*, turn: int, phasing: str = "ussr", hands=None, rounds: int = 4, **kw) -> TSState:
    """A position at ``turn`` with several action rounds pending (alternating from ``phasing``)
    and a spare card on each side, so that a play stops at the next round rather than running
    into the end of the turn."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["comecon"])
    hands.setdefault("us", ["truman_doctrine"])
    return position(phasing=phasing, hands=hands, rounds=rounds, turn=turn, **kw)


def step(state: TSState) -> str | None:
    """The pending step's name, or None once the match is over."""
    decision = GAME.decision(state)
    return None if decision is None else decision.step


def who(state: TSState) -> str:
    """The role of the pending decision."""
    return GAME.decision(state).role


def country_keys(*names: str) -> list[str]:
    """``country:<id>`` keys in the engine's order (map index)."""
    return [f"country:{n}" for n in sorted(names, key=country)]


def region_keys(*names: str) -> list[str]:
    """``country:<id>`` keys of the countries of regions or sub-regions, in the engine's order."""
    indices: set[int] = set()
    for name in names:
        indices.update(M.REGION_COUNTRIES.get(name) or M.SUBREGION_COUNTRIES[name])
    return [f"country:{M.COUNTRIES[i].id}" for i in sorted(indices)]


def history(state: TSState, role: str, step_name: str) -> list[str]:
    """The keys of ``step_name`` entries of the history as ``role`` sees it."""
    return [key for _, _, s, key in GAME.view(state, role)["history"] if s == step_name]


def events_in_order(state: TSState) -> list[str]:
    """The ``card:<id>`` keys of the events carried out so far, in order."""
    return [e.key for e in iter_history(state.history) if e.step == "event"]


# -- proving a card's event: @proves (scripts/card_audit.py) -------------------------------------


class EventWatch:
    """A context manager that watches the engine carry out card events, without changing what it
    does. ``resolved[n]`` counts the events of card ``n`` that were *resolved*: the event's
    function ran (through the registry, as the engine's ``event`` step calls it) **and** every
    frame it pushed was then popped again (its choices made, its rolls rolled, its scoring
    scored), or the match ended on the way. ``started[n]`` counts those that merely began.

    It wraps the EVENTS entries of the watched cards (all cards when ``cards`` is None), puts
    observing proxies in front of the game's steps (to notice the moment the stack falls back
    below the event's frames) and follows copies of a state whose event is still open. Everything
    is restored on exit; watches nest."""

    def __init__(self, cards: Iterable[int] | None = None, *, code=None) -> None:
        from collections import Counter

        self.cards = None if cards is None else frozenset(cards)
        self.started: Counter[int] = Counter()
        self.resolved: Counter[int] = Counter()
        #: the line of the function whose code is ``code`` (the test) running when each card's
        #: event was first resolved (None if that function was not on the call stack)
        self.lines: dict[int, int | None] = {}
        self._code = code
        self._open: list[list] = []  # [card, state, depth]: resolved once len(stack) <= depth

    def __enter__(self) -> EventWatch:
        from standoff.server.games.twilight_struggle.events import EVENTS

        self._events = EVENTS
        self._saved_events = {n: spec for n, spec in EVENTS.items() if self.cards is None or n in self.cards}
        for n, spec in self._saved_events.items():
            EVENTS[n] = dataclasses.replace(spec, fn=self._observe_event(n, spec.fn))
        self._saved_steps = TwilightStruggle.steps
        TwilightStruggle.steps = {name: _ObservedStep(s, self) for name, s in self._saved_steps.items()}
        self._saved_copy = TSState.copy
        saved_copy, watch = self._saved_copy, self

        def copy(state: TSState) -> TSState:
            new = saved_copy(state)
            watch._inherit(state, new)
            return new

        _set_type_attribute(TSState, "copy", copy)
        return self

    def __exit__(self, *exc) -> None:
        _set_type_attribute(TSState, "copy", self._saved_copy)
        TwilightStruggle.steps = self._saved_steps
        self._events.update(self._saved_events)

    def _observe_event(self, number: int, fn):
        watch = self

        @functools.wraps(fn)
        def observed(state: TSState, actor: int) -> None:
            before = list(state.stack)  # kept alive so that the ids below stay unique
            ids = {id(f) for f in before}
            fn(state, actor)
            # The event's own frames are those above the topmost frame that was already there.
            depth = 0
            for i in range(len(state.stack) - 1, -1, -1):
                if id(state.stack[i]) in ids:
                    depth = i + 1
                    break
            del before
            watch.started[number] += 1
            watch._open.append([number, state, depth])
            watch._settle(state)

        return observed

    def _settle(self, state: TSState) -> None:
        still = []
        for entry in self._open:
            number, watched, depth = entry
            if watched is state and (state.outcome is not None or len(state.stack) <= depth):
                self.resolved[number] += 1
                self.lines.setdefault(number, self._line())
            else:
                still.append(entry)
        self._open = still

    def _line(self) -> int | None:
        frame = sys._getframe(1)
        while frame is not None and self._code is not None:
            if frame.f_code is self._code:
                return frame.f_lineno
            frame = frame.f_back
        return None

    def _inherit(self, state: TSState, new: TSState) -> None:
        self._open.extend([n, new, d] for n, s, d in list(self._open) if s is state)


#: Py_TPFLAGS_IMMUTABLETYPE (CPython's object.h)
_IMMUTABLE_TYPE = 1 << 8


def _set_type_attribute(cls: type, name: str, value) -> None:
    """``setattr(cls, name, value)``, also when ``cls`` is an extension type of the compiled
    engine (TSState: state.pxd), whose type Python marks immutable: the flag is lifted for the
    assignment only (the watch must follow every copy of a state, however it is made)."""
    try:
        setattr(cls, name, value)
        return
    except TypeError:
        if not cls.__flags__ & _IMMUTABLE_TYPE:
            raise
    # tp_flags: the machine word of the type object holding ``cls.__flags__``
    words = (ctypes.c_ulong * 64).from_address(id(cls))
    offset = next(i for i in range(3, 64) if words[i] == cls.__flags__)
    flags = ctypes.c_ulong.from_address(id(cls) + offset * ctypes.sizeof(ctypes.c_ulong))
    flags.value &= ~_IMMUTABLE_TYPE
    try:
        setattr(cls, name, value)
    finally:
        flags.value |= _IMMUTABLE_TYPE


class _ObservedStep:
    """A step of the game, observed: after each run/choose the watch checks whether an event's
    frames are gone."""

    def __init__(self, step, watch: EventWatch) -> None:
        self.step, self.watch = step, watch
        self.name, self.hidden = step.name, step.hidden

    def run(self, game, state, frame):
        decision = self.step.run(game, state, frame)
        if self.watch._open:
            self.watch._settle(state)
        return decision

    def choose(self, game, state, frame, option):
        self.step.choose(game, state, frame, option)
        if self.watch._open:
            self.watch._settle(state)

    def visibility(self, state, frame, decision, option):
        return self.step.visibility(state, frame, decision, option)


#: Environment variable: a file to which each passing @proves test appends one JSON line
#: ``{"test": "<module>::<function>", "cards": [...], "lines": {card: line}}``, ``lines`` giving the
#: line of the test at which each event was first resolved (scripts/card_audit.py sets it).
PROOF_LOG = "STANDOFF_PROOF_LOG"


def proves(*cards: int | str):
    """Mark a test as *proving* the events of ``cards`` (numbers or ids): the test must resolve
    each card's event through the engine (see :class:`EventWatch`) or it fails. Its body must
    also assert on an effect of the event once resolved: scripts/card_audit.py checks that part
    on the test's text, against the line at which the event was resolved (logged here when
    ``STANDOFF_PROOF_LOG`` is set). The card audit counts a card only through the passing tests
    marked this way."""
    numbers = tuple(c if isinstance(c, int) else card(c) for c in cards)
    if not numbers or any(n not in CD.CARD_BY_NUMBER for n in numbers):
        raise ValueError(f"proves({cards!r}): card numbers or ids expected")

    def decorate(test):
        @functools.wraps(test)
        def proving(*args, **kwargs):
            with EventWatch(numbers, code=test.__code__) as watch:
                result = test(*args, **kwargs)
            for n in numbers:
                name = CD.CARD_BY_NUMBER[n].name
                assert watch.started[n], f"@proves({n}): the event of #{n} {name} was never carried out"
                assert watch.resolved[n], f"@proves({n}): the event of #{n} {name} began but was not resolved"
            log = os.environ.get(PROOF_LOG)
            if log:
                where = pathlib.Path(inspect.getsourcefile(test)).stem
                with open(log, "a", encoding="utf-8") as out:
                    entry = {"test": f"{where}::{test.__name__}", "cards": list(numbers),
                             "lines": {str(n): watch.lines.get(n) for n in numbers}}
                    out.write(json.dumps(entry) + "\n")
            return result

        proving.__proves__ = numbers
        return proving

    return decorate
