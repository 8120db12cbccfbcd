"""Schotten Totten / Battle Line as a :class:`~standoff.server.core.game.Game`."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...core.flow import SETTLE_BUDGET, EngineStall, StackGame, history_since
from . import cards as C
from .determinize import redeal
from .formations import strength
from .rules import RULESETS, STRules, make_rules
from .state import DECK_NAMES, NO_ONE, STState
from .steps import STEPS, explain_claim
from .text import render


#: The steps whose choices some roles may not see (only their ``visibility`` is asked).
_HIDDEN = frozenset(name for name, step in STEPS.items() if step.hidden)
_BUDGET = range(SETTLE_BUDGET)


# -- the hot path: StackGame's decision/apply on this game's own step table --------------------
# Same semantics as StackGame (every choice logged, automatic frames run until a decision, at
# most SETTLE_BUDGET of them). They are module functions, made the methods of SchottenTotten
# below, so that the compiled engine can type their locals (game.pxd): the state is then an
# STState and each step an STStep, whose run/choose are called as C methods. A subclass or test
# that swaps ``steps`` gets StackGame's generic path.


def _st_decision(game, state: STState):
    pending = state.pending
    if pending is None and state.outcome is None:
        game._settle(state)
        return state.pending
    return pending


def _st_apply(game, state: STState, option) -> None:
    if state.pending is None or game.steps is not STEPS:
        StackGame.apply(game, state, option)
        return
    _st_apply_pending(game, state, option)


def _st_apply_pending(game, state: STState, option, logged=True) -> None:
    """:func:`_st_apply` once it is known that a decision is pending and ``game`` plays
    :data:`STEPS` (the playout checks the game once, not at every choice). With ``logged``
    false the choice is numbered but not added to ``state.history``: for rollouts, whose
    outcome is all that is kept (no step reads the history, so play is the same)."""
    decision = state.pending
    frame = state.stack[-1]
    name = frame[0]
    step = STEPS[name]
    number = state.number = state.number + 1
    if logged:
        hidden = step.visibility(state, frame, decision, option) if name in _HIDDEN else None
        # (Fields by name: compiled, indexing a NamedTuple goes through its __getitem__ method.)
        if hidden is None:
            state.history = ((number, decision.role, decision.step, option.key, None, ""), state.history)
        else:
            state.history = ((number, decision.role, decision.step, option.key, hidden[0], hidden[1]),
                             state.history)
    state.pending = None
    step.choose(game, state, frame, option)
    if state.outcome is not None:
        return
    # _st_settle's loop, inlined: one call less per choice, measurable in the pure engine's
    # games/s (benchmarks/bench_schotten_totten.py --clock cpu).
    stack = state.stack
    for _ in _BUDGET:
        frame = stack[-1]
        step = STEPS[frame[0]]
        decision = step.run(game, state, frame)
        if decision is not None:
            state.pending = decision
            return
        if state.outcome is not None:
            return
    raise EngineStall(f"{SETTLE_BUDGET} automatic steps without a decision (top frame {stack[-1][0]!r})")


def _st_settle(game, state: STState) -> None:
    if game.steps is not STEPS:
        StackGame._settle(game, state)
        return
    stack = state.stack
    for _ in _BUDGET:
        if state.outcome is not None:
            return
        frame = stack[-1]
        step = STEPS[frame[0]]
        decision = step.run(game, state, frame)
        if decision is not None:
            state.pending = decision
            return
    raise EngineStall(f"{SETTLE_BUDGET} automatic steps without a decision (top frame {stack[-1][0]!r})")


class SchottenTotten(StackGame):
    """The referee's rules object for Schotten Totten (Battle Line rules by default)."""

    name = "schotten-totten"
    rules_version = "1"
    rulesets = RULESETS
    steps = STEPS

    # StackGame's decision/apply, on this game's own step table (see _st_apply above)
    decision = _st_decision
    apply = _st_apply
    _settle = _st_settle

    def rules(self, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> STRules:
        return make_rules(ruleset, options)

    def new_state(self, rules: STRules | None = None) -> STState:
        state = STState(rules or make_rules())
        # The stack runs from its end: deal every hand, then choose who starts.
        state.stack = [("first_player",), ("deal", 0)]
        return state

    def view(self, state, role: str, history_from: int = 0) -> dict[str, Any]:
        """What ``role`` may see (rules digest §6): its own hand; the other hands as counts of
        troops and tactics plus cards it knows through Scout; deck sizes and the Scout tops it put
        back itself; the whole table, discards and counts; the history as it saw it (entries
        numbered after ``history_from``). ``state`` is an :class:`STState`."""
        # (Not annotated: Cython 3.3 miscompiles a comprehension over an attribute of an
        # argument annotated with an extension type it cannot type, here STState, which game.pxd
        # cimports: the attribute the comprehension iterates over is never read, a crash.)
        rules = state.rules
        roles = rules.roles
        me = roles.index(role)
        n = len(roles)
        flags = []
        for f in range(9):
            sides = {}
            for r, name in enumerate(roles):
                at = state.completed_at(f, r)
                sides[name] = {
                    "cards": [C.card_name(c) for c in state.sides[f * n + r]],
                    "completed_at": at,
                }
            entry: dict[str, Any] = {
                "flag": f + 1,
                "claimed_by": roles[state.claimed[f]] if state.claimed[f] != NO_ONE else None,
                "fog": roles[state.fog[f]] if state.fog[f] != NO_ONE else None,
                "mud": roles[state.mud[f]] if state.mud[f] != NO_ONE else None,
                "sides": sides,
            }
            flags.append(entry)
        others = {}
        for r, name in enumerate(roles):
            if r == me:
                continue
            hand = state.hands[r]
            others[name] = {
                "troops": sum(1 for c in hand if c < 60),
                "tactics": sum(1 for c in hand if c >= 60),
                "known": [C.card_name(c) for c in hand if c in state.known[me]],
            }
        decks = {}
        for d, name in enumerate(DECK_NAMES):
            tops = state.tops[d]
            decks[name] = {
                "size": state.deck_size(d),
                # from the top down; a top card someone else put back is "unknown" to us
                "top": [
                    C.card_name(card) if knower == me else "unknown" for card, knower in reversed(tops)
                ],
            }
        decision = state.pending if state.pending is not None else self.decision(state)
        return {
            "game": self.name,
            "ruleset": rules.ruleset,
            "role": role,
            "turn": state.turn,
            "to_move": roles[state.current],
            "step": decision.step if decision is not None else None,
            "hand": [C.card_name(c) for c in state.hands[me]],
            "opponents": others,
            "flags": flags,
            "decks": decks,
            "discards": {name: [C.card_name(c) for c in state.discards[r]] for r, name in enumerate(roles)},
            "tactics_played": dict(zip(roles, state.tactics_played, strict=True)),
            "leader_played": dict(zip(roles, state.leader_played, strict=True)),
            # Entries numbered after history_from (the referee sends only what a seat lacks).
            "history_from": history_from,
            "history": [
                [e.number, e.role, e.step, e.seen_by(role)]
                for e in history_since(state.history, history_from)
            ],
        }

    # -- helpers for referees, bots and the CLI -----------------------------------------------

    def render(self, state: STState) -> str:
        """The whole table as text (omniscient: both hands shown)."""
        return render(state)

    def explain_claim(self, state: STState, role: str, flag: int) -> str | None:
        """Why ``role`` cannot claim flag number ``flag`` (1-9) now; ``None`` if it can."""
        if not 1 <= flag <= 9:
            raise ValueError(f"flag {flag} does not exist: flags are numbered 1 to 9")
        return explain_claim(state, state.rules.roles.index(role), flag - 1)

    def flags_claimed(self, state: STState) -> dict[str, int]:
        """Flags claimed by each role (multi-game matches score the loser 1 per flag)."""
        roles = state.rules.roles
        return {role: state.claimed.count(r) for r, role in enumerate(roles)}

    def determinize(self, state: STState, role: str, rng: random.Random) -> STState:
        """A copy of ``state`` with everything ``role`` cannot see re-dealt (see
        :mod:`.determinize`): the view of ``role`` is unchanged."""
        return redeal(state, state.rules.roles.index(role), rng)

    def fallback_index(self, state: STState) -> int | None:
        """The option a referee substitutes when a bot times out on a step whose rules name a
        default (Mud leaving: discard the card whose removal leaves the strongest formation).
        ``None`` where the rules name none (the fault policy decides)."""
        decision = self.decision(state)
        if decision is None or decision.step != "mud_discard":
            return None
        _, flag, role = state.stack[-1]
        side = state.side(flag, role)
        fog = state.fog[flag] != NO_ONE
        best, best_index = None, 0
        for i, card in enumerate(side):
            rest = side[:i] + side[i + 1 :]
            value = strength(rest, fog)
            if best is None or value > best:
                best, best_index = value, i
        return best_index

