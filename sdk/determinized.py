"""The generic forward model: for a game whose spec brings none (``GameSpec.forward_model``)
but whose game object can re-deal what a role cannot see (the ``determinize`` capability).

:class:`standoff.sdk.simulate.Belief` uses it the same way as a game's own model:

1. **Rules.** The rules given, else ``game.rules(<the view's ruleset>, options)``: a view need
   not carry its match's options, so pass ``match.options`` (the final check below names the
   fields that disagree when the options were not the match's).
2. **Replay.** The view's ``history`` (every decision the role saw, chance included, in the
   engine's words) is replayed on a fresh state of the real engine. A decision whose entry names
   one of its options is applied with it; one whose choice the role could not see (its key is
   redacted: no option has it) is tried with each option in turn, depth first: after each
   decision the role's view of the entries it produced must be the history's, so a later public
   fact (a revealed bid, a card played) rules out the fillers that disagree with it and the
   replay backs up to the last hidden choice. At most :data:`MAX_APPLIES` decisions are applied
   in all (a game whose hidden choices are never revealed replays in a straight line; one whose
   early hidden choices surface only much later may run out: :class:`SimulationError`).
3. **Check.** The replayed state's view for the role must equal the view (history included).
4. **Samples.** ``game.determinize(state, role, rng)`` on the replayed state: everything the
   role cannot see re-dealt consistently with what it knows (the capability's contract), so the
   fillers the replay chose do not matter.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..server.core.game import RulesError
from ..server.forward_model import ForwardModel, SimulationError, differences
from ..server.specs import capability

__all__ = ["DETERMINIZED", "DeterminizedBelief", "MAX_APPLIES", "infer_rules"]

#: The most decisions a replay applies, backing up included, before it gives up.
MAX_APPLIES = 200_000

#: The hint for a history that does not start at the match's first decision.
_FROM_POSITION = (" (the history does not start at the match's first decision: a match started from a "
                  "position? Belief.from_position(game, view, position) starts from one)")


def infer_rules(game: Any, view: dict[str, Any], options: Mapping[str, str] | None = None) -> Any:
    """``game.rules(<the view's ruleset>, options)``: a view (a dict) names its ruleset, not its
    options. Raises :class:`SimulationError` when the rules refuse them."""
    try:
        return game.rules(view.get("ruleset") or None, dict(options or {}))
    except RulesError as exc:
        raise SimulationError(f"the rules of the view: {exc}") from None


class DeterminizedBelief:
    """The replayed state of one role's view (see the module's documentation): ``rules``,
    ``state`` (its hidden choices are fillers), ``me``; :meth:`sample` is the game's
    ``determinize`` of it."""

    def __init__(self, game: Any, view: dict[str, Any], options: Mapping[str, str] | None,
                 rules: Any, check: bool) -> None:
        determinize = capability(game, "determinize")
        if determinize is None:
            raise SimulationError(f"no forward model for game {game.name!r}: its spec brings none and "
                                  "the game has no determinize capability")
        self.rules = rules if rules is not None else infer_rules(game, view, options)
        role = view["role"]
        if role not in self.rules.roles:
            raise SimulationError(f"role {role!r} is not a role of the rules {self.rules.roles!r}")
        self.role = role
        self.me = self.rules.roles.index(role)
        history = [tuple(entry[:4]) for entry in view.get("history") or ()]
        self.state = _replay(game, self.rules, role, history)
        if check:
            mine = game.view(self.state, role)
            if mine != view:
                raise SimulationError("the replayed state shows a different view (fields: "
                                      + ", ".join(differences(mine, view)) + ")")
        self._determinize = determinize

    def sample(self, rng: random.Random) -> Any:
        """The game's ``determinize`` of the replayed state for the role."""
        return self._determinize(self.state, self.role, rng)


def _replay(game: Any, rules: Any, role: str, history: list[tuple]) -> Any:
    """A state of ``rules`` whose history, as ``role`` sees it, is ``history``: depth first over
    the choices the role could not see (see the module's documentation)."""
    state = game.new_state(rules)
    done = last = 0  # history entries matched so far; the number of the last one
    #: the hidden choices still open: (state before it, done, last, the options not tried yet)
    frames: list[tuple[Any, int, int, list]] = []
    applies = 0
    first_error: str | None = None
    while done < len(history):
        decision = game.decision(state)
        entry = history[done]
        candidates = _candidates(decision, entry)
        if not candidates:
            moved = None
            error = _refusal(decision, entry)
        else:
            if len(candidates) > 1:
                frames.append((state.copy(), done, last, candidates[1:]))
            moved, error = _advance(game, state, candidates[0], role, history, done, last)
            applies += 1
        while moved is None:  # back up to the last hidden choice with an option left to try
            if first_error is None:
                first_error = error + (_FROM_POSITION if done == 0 else "")
            if not frames:
                raise SimulationError(first_error)
            if applies >= MAX_APPLIES:
                raise SimulationError(f"{first_error} (no hidden choices reproduce the history within "
                                      f"{MAX_APPLIES} decisions)")
            saved, done, last, rest = frames[-1]
            option = rest.pop(0)
            if not rest:
                frames.pop()
            state = saved.copy()
            moved, error = _advance(game, state, option, role, history, done, last)
            applies += 1
        done, last = moved
    return state


def _candidates(decision: Any, entry: tuple) -> list:
    """The options the history's next ``entry`` may stand for: the one it names, else (a choice
    the role could not see, or a decision the history does not show) every option."""
    if decision is None:
        return []
    options = list(decision.options)
    _, who, step, key = entry
    if who == decision.role and step == decision.step:
        named = [option for option in options if option.key == key]
        if named:
            return named
    return options


def _refusal(decision: Any, entry: tuple) -> str:
    number, who, step, key = entry
    if decision is None:
        return f"the history goes on after the end of the match (entry {number})"
    return f"entry {number}: the history has {who} at {step!r} ({key!r}), the engine has no option for it"


def _advance(game: Any, state: Any, option: Any, role: str, history: list[tuple], done: int,
             last: int) -> tuple[tuple[int, int] | None, str]:
    """Apply ``option`` to ``state``; ``((done, last), "")`` with the entries it produced matched
    against ``history[done:]``, or ``(None, why)`` when the role's view of them differs."""
    decision = game.decision(state)
    game.apply(state, option)
    new = [tuple(e[:4]) for e in game.view(state, role, last)["history"]]
    expected = history[done : done + len(new)]
    if new != expected:
        number = expected[0][0] if expected else last + 1
        return None, (f"entry {number}: the history has {expected[:2]!r}, {decision.role} at "
                      f"{decision.step!r} gives {new[:2]!r}")
    if new:
        return (done + len(new), new[-1][0]), ""
    return (done, last), ""


#: The generic model, as a spec would carry it (the SDK uses it for a spec without one).
DETERMINIZED = ForwardModel(belief=DeterminizedBelief, infer_rules=infer_rules)
