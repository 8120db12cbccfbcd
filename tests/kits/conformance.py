"""The conformance checks every game must pass (DESIGN §7), written once, used per game.

A *game case* is ``(game, rules)``. Matches are driven by seeded random choices; chance is
sampled the way the referee samples it.
"""

from __future__ import annotations

import functools
import json
import os
import random
from collections import Counter
from typing import Any

from standoff.sdk import capability
from standoff.server.core.game import CHANCE
from standoff.server.core.record import Record, make_header, move_line, outcome_line, replay, replay_steps
from standoff.server.local import chance_rng, sample_chance

from .oracles import TS_SCORING, oracle_for

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
    players = random.Random(seed ^ 0x5EED)
    return _play_out(game, rules, seed, {r: "random" for r in rules.roles},
                     lambda state, decision: players.randrange(len(decision.options)), check)


def _play_out(game: Any, rules: Any, seed: int, seats: dict[str, str], choose, check) -> tuple[Record, Any]:
    """The loop both matches share: chance sampled as the referee samples it, ``choose(state,
    decision)`` for the players, a record line per decision; the record and the final state."""
    rng = chance_rng(seed)
    state = game.new_state(rules)
    record = Record(make_header(game, rules, seed, seats))
    n = 0
    while (decision := game.decision(state)) is not None:
        assert decision.options, f"dead end: no options at step {decision.step} (seed {seed})"
        if check is not None:
            check(state, decision, n)
        index = sample_chance(rng, decision) if decision.role == CHANCE else choose(state, decision)
        option = decision.options[index]
        game.apply(state, option)
        n += 1
        record.moves.append(move_line(n, decision.role, decision.step, option.key))
        assert n < 100_000, "match does not terminate"
    outcome = game.outcome(state)
    assert outcome is not None and abs(sum(outcome.scores) - 1.0) < 1e-9
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


# -- Twilight Struggle played to the end (the deep conformance) --------------------------------------
#
# Uniform random play rarely leaves the Early War (it ends by DEFCON or a held scoring card), so
# the per-state checks hardly ever saw Late War states. These policies survive: most of their
# games reach turn 8, many reach final scoring.


def _follow_chance(game: Any, state: Any, limit: int = 6) -> None:
    """Resolve the chance decisions that follow at once (dice, random discards), taking their
    first option, but no deal (the turn is over by then): enough to see whether a choice loses."""
    for _ in range(limit):
        if state.outcome is not None:
            return
        decision = game.decision(state)
        if decision is None or decision.role != CHANCE or decision.step == "deal":
            return
        game.apply(state, decision.options[0])


def _lost(state: Any, role: str) -> bool:
    outcome = state.outcome
    return outcome is not None and outcome.winner is not None and outcome.winner != role


def loses_on_the_spot(game: Any, state: Any, option: Any, role: str) -> bool:
    """Applying ``option`` (on a copy) ends the match as a loss for ``role`` before anybody
    else decides: DEFCON 1 on its own action, a coup under the Cuban Missile Crisis, the
    opponent's 20 VP or Europe control from its own scoring card..."""
    child = state.copy()
    game.apply(child, option)
    _follow_chance(game, child)
    return _lost(child, role)


def commits_to_loss(game: Any, state: Any, option: Any, role: str, budget: int = 40) -> bool:
    """``option`` leads to a loss before the opponent decides anything: e.g. operations with the
    opponent's DEFCON-lowering event after them at DEFCON 2, or a coup whose only targets are
    battlegrounds at DEFCON 2. Follows ``role``'s own next decisions (at most ``budget``), each
    time with the first option that does not lose on the spot: a loss found that way is one it
    could hardly avoid."""
    child = state.copy()
    game.apply(child, option)
    for _ in range(budget):
        _follow_chance(game, child)
        if child.outcome is not None:
            break
        decision = game.decision(child)
        if decision.role != role:
            break
        pick = next((o for o in decision.options if not loses_on_the_spot(game, child, o, role)), decision.options[0])
        game.apply(child, pick)
    return _lost(child, role)


def _in_danger(state: Any) -> bool:
    """Where one card can lose the match (DEFCON 2, a VP lead near 20, the Cuban Missile Crisis):
    only there does the policy look past the next decision."""
    return state.defcon <= 2 or abs(state.vp) >= 12 or any(e.startswith("cuban_missile_crisis") for e in state.effects)


class DefconSafePolicy:
    """Uniform random play that survives: uniform (seeded) over the legal options minus those
    that lose on the spot (:func:`loses_on_the_spot`; in danger, at the choice of a card and of
    its use, also those that commit to a loss: :func:`commits_to_loss`), and a held scoring card
    is played as soon as no spare action round is left for it (scoring cards held ≥ rounds left).
    When every option loses, any option (uniform)."""

    name = "defcon-safe-random"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, state: Any, decision: Any) -> int:
        options = decision.options
        role = decision.role
        indices = list(range(len(options)))
        if decision.step == "action_round":
            side = state.rules.roles.index(role)
            scoring = [i for i in indices if options[i].value in TS_SCORING]
            held = sum(1 for c in state.hands[side] if c in TS_SCORING)
            rounds_left = sum(1 for f in state.stack if f[0] == "action_round" and f[2] == side)
            if scoring and rounds_left <= held:
                indices = scoring
        if _in_danger(state) and decision.step == "card_use":
            safe = [i for i in indices if not commits_to_loss(game, state, options[i], role)]
        elif _in_danger(state) and decision.step == "action_round":
            safe = [i for i in indices if self._card_survives(game, state, options[i], role)]
        else:
            safe = [i for i in indices if not loses_on_the_spot(game, state, options[i], role)]
        return self.rng.choice(safe or indices)

    @staticmethod
    def _card_survives(game: Any, state: Any, option: Any, role: str) -> bool:
        child = state.copy()
        game.apply(child, option)
        _follow_chance(game, child)
        if _lost(child, role):
            return False
        decision = game.decision(child)
        if decision is None or decision.role != role or decision.step != "card_use":
            return True
        return any(not commits_to_loss(game, child, o, role) for o in decision.options)


#: who plays a side of a deep match: the DEFCON-safe random policy or a registry bot
SAFE = "defcon-safe-random"
HEURISTIC = "ts-heuristic"


@functools.lru_cache(maxsize=1)
def _registry() -> Any:
    from standoff.server.plugins import load_registry

    return load_registry(entry_points=False)


class _BotSeat:
    """A registry bot asked through the wire adapter (InProcessSeat): it sees only its view."""

    def __init__(self, name: str, game: Any, rules: Any, role: str, seed: int, names: dict[str, str]) -> None:
        from standoff.server.match import bot_seed
        from standoff.server.seats import InProcessSeat
        from standoff.server.wire import match_started_message

        self.match_id, self.role = f"deep-{seed}", role
        bot = _registry().make_bot(name, bot_seed(seed, role), game.name)
        self.seat = InProcessSeat(bot, game, self.match_id)
        self.seat.start(match_started_message(self.match_id, game, rules, role, names, bot_seed(seed, role)))

    def choose(self, game: Any, state: Any, decision: Any) -> int:
        index = self.seat.ask(state, decision, state.number + 1, {})
        assert type(index) is int and 0 <= index < len(decision.options), f"bot answered {index!r}"
        return index

    def end(self, outcome: Any, roles: tuple[str, ...]) -> None:
        from standoff.server.wire import match_ended_message

        self.seat.end(match_ended_message(self.match_id, outcome, roles, {}, self.role))


def deep_match(game: Any, rules: Any, seed: int, players: dict[str, str], *, check=None) -> tuple[Record, Any]:
    """Play one match with the given players (role → :data:`SAFE` or a registry bot name);
    chance is sampled as the referee samples it. ``check(state, decision, n)`` runs before each
    decision (chance included) and once more on the final state with ``decision`` None."""
    seats = {}
    for k, role in enumerate(rules.roles):
        if players[role] == SAFE:
            seats[role] = DefconSafePolicy(seed * 2 + k + 0x5AFE)
        else:
            seats[role] = _BotSeat(players[role], game, rules, role, seed, dict(players))
    record, state = _play_out(game, rules, seed, dict(players),
                              lambda state, decision: seats[decision.role].choose(game, state, decision), check)
    if check is not None:
        check(state, None, len(record.moves))
    outcome = game.outcome(state)
    for seat in seats.values():
        if isinstance(seat, _BotSeat):
            seat.end(outcome, rules.roles)
    return record, state


class StateChecks:
    """The per-state checks of the conformance suite on a sample of states: every option
    applies and copies are independent (:func:`check_every_option_applies`), views are
    deterministic and unchanged by re-dealing what a role cannot see
    (:func:`check_views_leak_free`), and the record replays through that very state (its
    fingerprint is compared during replay: :meth:`check_replay`). A state is checked when it is
    the first of its (turn, deciding role) in the match, and every ``every``-th decision.
    The independent oracle (:mod:`kits.oracles`) follows every state."""

    KINDS = ("options_apply", "views_determinize", "replay")

    def __init__(self, game: Any, every: int, seed: int = 11) -> None:
        self.game = game
        self.every = every
        self.rng = random.Random(seed)
        self.coverage: dict[str, Counter] = {kind: Counter() for kind in self.KINDS}
        self.oracle_stats: Counter = Counter()
        self.oracle_violations: list[str] = []
        self.states = 0

    def __call__(self, state: Any, decision: Any, n: int) -> None:
        if n == 0:
            self.keys: set = set()
            self.fingerprints: dict[int, tuple[str, tuple]] = {}
            self.oracle = oracle_for(self.game, state)
        else:
            self.oracle.observe(state)
        self.states += 1
        if decision is None:
            self.oracle.finish(state)
            self.oracle_stats.update(self.oracle.stats)
            self.oracle_violations.extend(self.oracle.violations)
            return
        if decision.role == CHANCE:
            return
        key = (state.turn, decision.role)
        if key in self.keys and n % self.every:
            return
        self.keys.add(key)
        check_every_option_applies(self.game, state, decision)
        self.coverage["options_apply"][key] += 1
        check_views_leak_free(self.game, state, self.rng)
        self.coverage["views_determinize"][key] += 1
        self.fingerprints[n] = (fingerprint(self.game, state), key)

    def check_replay(self, record: Record, state: Any) -> None:
        """The record replays to the same final state and outcome, through every sampled state."""
        for step in replay_steps(self.game, record):
            expected = self.fingerprints.get(step.number)
            if expected is not None:
                assert fingerprint(self.game, step.state) == expected[0], f"replay differs at decision {step.number}"
                self.coverage["replay"][expected[1]] += 1
        check_replays(self.game, record, state)
