"""The conformance checks every game must pass (DESIGN §7), written once, used per game.

A *game case* is ``(game, rules)``. Matches are driven by seeded random choices; chance is
sampled the way the referee samples it.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

from standoff.sdk import capability
from standoff.server.core.game import CHANCE
from standoff.server.core.record import Record, make_header, move_line, outcome_line, replay
from standoff.server.local import chance_rng, sample_chance

#: Long soak/fuzz runs (STANDOFF_LONG=1); CI runs the bounded default.
LONG = os.environ.get("STANDOFF_LONG") == "1"


def fingerprint(game: Any, state: Any) -> str:
    """Everything observable about a state: every role's view and the pending decision."""
    decision = game.decision(state)
    views = {role: game.view(state, role) for role in state.rules.roles}
    pending = None if decision is None else [decision.role, decision.step, [o.key for o in decision.options]]
    return json.dumps([views, pending, game.outcome(state)], sort_keys=True)


def random_match(game: Any, rules: Any, seed: int, *, check=None) -> tuple[Record, Any]:
    """Play one match with uniformly random choices; ``check(state, decision, n)`` runs before
    each decision. Returns the record and the final state."""
    rng = chance_rng(seed)
    players = random.Random(seed ^ 0x5EED)
    state = game.new_state(rules)
    record = Record(make_header(game, rules, seed, {r: "random" for r in rules.roles}))
    n = 0
    while (decision := game.decision(state)) is not None:
        assert decision.options, f"dead end: no options at step {decision.step} (seed {seed})"
        if check is not None:
            check(state, decision, n)
        if decision.role == CHANCE:
            index = sample_chance(rng, decision)
        else:
            index = players.randrange(len(decision.options))
        option = decision.options[index]
        game.apply(state, option)
        n += 1
        record.moves.append(move_line(n, decision.role, decision.step, option.key))
        assert n < 100_000, "match does not terminate"
    outcome = game.outcome(state)
    assert outcome is not None
    assert abs(sum(outcome.scores) - 1.0) < 1e-9
    record.footer = outcome_line(outcome, rules.roles)
    return record, state


def check_replays(game: Any, record: Record, state: Any) -> None:
    replayed = replay(game, record)
    assert game.outcome(replayed) == game.outcome(state)
    assert fingerprint(game, replayed) == fingerprint(game, state)


def check_every_option_applies(game: Any, state: Any, decision: Any) -> None:
    """Each option applies to a copy and leads to a decision or an outcome; the original state
    is untouched (copies are independent)."""
    before = fingerprint(game, state)
    for option in decision.options:
        child = state.copy()
        game.apply(child, option)
        assert game.decision(child) is not None or game.outcome(child) is not None
        assert game.decision(child) is None or game.decision(child).options
    assert fingerprint(game, state) == before, "applying to a copy changed the original"


def check_views_leak_free(game: Any, state: Any, rng: random.Random, redeals: int = 2) -> None:
    """Re-deal what each role cannot see (the game's ``determinize`` capability, which every
    game with hidden information must have): its view must be byte-identical."""
    determinize = capability(game, "determinize")
    assert determinize is not None, f"{game.name} has no determinize(): its views cannot be checked for leaks"
    for role in state.rules.roles:
        view = json.dumps(game.view(state, role), sort_keys=True)
        assert view == json.dumps(game.view(state, role), sort_keys=True), "view not deterministic"
        for _ in range(redeals):
            other = determinize(state, role, rng)
            assert json.dumps(game.view(other, role), sort_keys=True) == view, (
                f"the view of {role} changed when hidden cards were re-dealt"
            )
