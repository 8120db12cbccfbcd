"""Building blocks of card events: each pushes a frame whose step asks the decisions.

Frames (all data):

* ``("ev_place", actor, left, allowed, max_per, placed, optional)``: ``actor`` adds 1 influence
  at a time to countries of ``allowed`` (at most ``max_per`` each; ``placed`` lists those so far);
  ``optional`` adds ``done`` (an "up to" event).
* ``("ev_remove", actor, target, left, allowed, max_per, removed, optional)``: ``actor`` removes
  ``target``'s influence one at a time.
* ``("ev_choice", actor, name, keys, data)``: ``actor`` picks one of ``keys`` (``choice:<key>``);
  ``CHOICES[name](state, actor, key, data)`` carries it out.
* ``("war", actor, target, modifier, at_least, vp, milops)``: a war card's die (chance).
* ``("ev_ops", actor, value)``: operations granted by an event (influence, realignment or coup),
  not reduced by Red Scare/Purge (FAQ).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ....core.flow import Step, log
from ....core.game import CHANCE, Option, make_decision
from .. import board as B
from .. import map_data as M
from ..state import SIDE_NAMES, TSState, other
from ..steps import DIE_OPTIONS, DONE, country_options, role

N = len(M.COUNTRIES)
CHOICES: dict[str, Callable[[TSState, int, str, Any], None]] = {}


def choice(name: str):
    """Register the callback of ``ev_choice`` frames called ``name``."""

    def register(fn):
        CHOICES[name] = fn
        return fn

    return register


def countries(*names: str) -> tuple[int, ...]:
    return tuple(sorted(M.INDEX[n] for n in names))


def region(name: str) -> tuple[int, ...]:
    """Countries of a region or sub-region (Europe and Asia include their sub-regions)."""
    if name in M.REGION_COUNTRIES:
        return M.REGION_COUNTRIES[name]
    return M.SUBREGION_COUNTRIES[name]


def place(state: TSState, actor: int, count: int, allowed: Iterable[int], *, max_per: int = 99,
          optional: bool = False) -> None:
    state.stack.append(("ev_place", actor, count, tuple(sorted(set(allowed))), max_per, (), optional))


def remove(state: TSState, actor: int, target: int, count: int, allowed: Iterable[int], *,
           max_per: int = 99, optional: bool = False) -> None:
    state.stack.append(("ev_remove", actor, target, count, tuple(sorted(set(allowed))), max_per, (), optional))


def ask(state: TSState, actor: int, name: str, keys: Iterable[str], data: Any = None) -> None:
    state.stack.append(("ev_choice", actor, name, tuple(keys), data))


def war(state: TSState, actor: int, target: int, modifier: int, *, at_least: int = 4, vp: int = 2,
        milops: int = 2) -> None:
    """A war card: ``actor`` gets ``milops`` at once; a die minus ``modifier`` ≥ ``at_least``
    wins ``vp`` and swaps the enemy's influence in ``target`` for the actor's."""
    state.milops[actor] = min(5, state.milops[actor] + milops)
    state.stack.append(("war", actor, target, modifier, at_least, vp))


def grant_ops(state: TSState, actor: int, value: int) -> None:
    state.stack.append(("ev_ops", actor, value))


def enemy_controlled_neighbours(state: TSState, actor: int, country: int) -> int:
    """Neighbours of ``country`` controlled by ``actor``'s enemy; a bordering enemy superpower
    space counts as one (rule 2.1.5)."""
    enemy = other(actor)
    count = sum(1 for n in M.NEIGHBOURS[country] if B.controls(state, enemy, n))
    if M.COUNTRIES[country].id in M.SUPERPOWER_NEIGHBOURS[SIDE_NAMES[enemy]]:
        count += 1
    return count


def set_to_control(state: TSState, side: int, country: int) -> None:
    """Add influence until ``side`` controls ``country`` (no more than needed)."""
    needed = state.inf[other(side)][country] + B.STABILITY[country]
    state.inf[side][country] = max(state.inf[side][country], needed)


# -- steps -----------------------------------------------------------------------------------------


class EvPlace(Step):
    name = "ev_place"

    def run(self, game, state, frame):
        _, actor, left, allowed, max_per, placed, optional = frame
        options = [c for c in allowed if placed.count(c) < max_per] if left > 0 else []
        if not options:
            state.stack.pop()
            return None
        opts = country_options(options) + ((DONE,) if optional else ())
        return make_decision(role(state, actor), "event_place", f"add influence ({left} left)", opts)

    def choose(self, game, state, frame, option):
        _, actor, left, allowed, max_per, placed, optional = frame
        if option.value is None:
            state.stack.pop()
            return
        state.inf[actor][option.value] += 1
        state.stack[-1] = ("ev_place", actor, left - 1, allowed, max_per, placed + (option.value,), optional)


class EvRemove(Step):
    name = "ev_remove"

    def run(self, game, state, frame):
        _, actor, target, left, allowed, max_per, removed, optional = frame
        options = (
            [c for c in allowed if state.inf[target][c] > 0 and removed.count(c) < max_per] if left > 0 else []
        )
        if not options:
            state.stack.pop()
            return None
        opts = country_options(options) + ((DONE,) if optional else ())
        return make_decision(role(state, actor), "event_remove",
                             f"remove {SIDE_NAMES[target]} influence ({left} left)", opts)

    def choose(self, game, state, frame, option):
        _, actor, target, left, allowed, max_per, removed, optional = frame
        if option.value is None:
            state.stack.pop()
            return
        state.inf[target][option.value] -= 1
        state.stack[-1] = ("ev_remove", actor, target, left - 1, allowed, max_per, removed + (option.value,), optional)


class EvChoice(Step):
    name = "ev_choice"

    def run(self, game, state, frame):
        _, actor, name, keys, data = frame
        if not keys:
            state.stack.pop()
            return None
        options = tuple(Option(f"choice:{k}", k.replace("_", " "), k) for k in keys)
        return make_decision(role(state, actor), name, f"choose: {name.replace('_', ' ')}", options)

    def choose(self, game, state, frame, option):
        _, actor, name, keys, data = frame
        state.stack.pop()
        CHOICES[name](state, actor, option.value, data)


class War(Step):
    name = "war"

    def run(self, game, state, frame):
        return make_decision(CHANCE, "die", "war die", DIE_OPTIONS)

    def choose(self, game, state, frame, option):
        _, actor, target, modifier, at_least, vp = frame
        state.stack.pop()
        result = option.value - modifier
        won = result >= at_least
        log(state, role(state, actor), "war_result", f"country:{M.COUNTRIES[target].id}:{'won' if won else 'lost'}")
        if won:
            enemy = other(actor)
            state.inf[actor][target] += state.inf[enemy][target]
            state.inf[enemy][target] = 0
            B.add_vp(state, actor, vp)


class EvOps(Step):
    """Operations granted by an event: choose their use."""

    name = "ev_ops"

    def run(self, game, state, frame):
        from .. import ops

        _, actor, value = frame
        uses = ["influence"]
        if ops.realign_targets(state, actor):
            uses.append("realign")
        if ops.coup_targets(state, actor):
            uses.append("coup")
        options = tuple(Option(f"use:{u}", u, u) for u in uses)
        return make_decision(role(state, actor), "event_ops", f"use {value} Operations", options)

    def choose(self, game, state, frame, option):
        from .. import ops

        _, actor, value = frame
        state.stack.pop()
        ops.push_operations(state, actor, 0, option.value, value=value)


STEPS = (EvPlace(), EvRemove(), EvChoice(), War(), EvOps())
