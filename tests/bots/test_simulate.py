"""The SDK's forward model (``standoff.sdk.simulate``): states sampled from a view show exactly
that view (history included) and the same pending decision, differ in the hidden cards, keep Scout
knowledge, and play on to the end with the real engine."""

from __future__ import annotations

import importlib
import json
import random

import pytest
from kits.bots import wire

from standoff.sdk.simulate import (
    Belief,
    SimulationError,
    infer_rules,
    random_policy,
    rollout,
    sample_state,
    sample_states,
    view_policy,
)
from standoff.sdk.types import HistoryBook
from standoff.sdk.views import as_dict
from standoff.server.core.flow import iter_history
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.games.schotten_totten import cards as C
from standoff.server.games.schotten_totten.state import NO_ONE
from standoff.server.local import chance_rng, sample_chance

GAME = get_game("schotten-totten")


def positions(ruleset: str, options: dict, seeds, every: int):
    """(state, decision) at players' decisions of seeded random games, every ``every`` numbers."""
    rules = GAME.rules(ruleset, options)
    for seed in seeds:
        chance, players = chance_rng(seed), random.Random(seed)
        state = GAME.new_state(rules)
        while (decision := GAME.decision(state)) is not None:
            if decision.role != CHANCE and state.number % every == 0:
                yield state, decision
            if decision.role == CHANCE:
                index = sample_chance(chance, decision)
            else:
                index = players.randrange(len(decision.options))
            GAME.apply(state, decision.options[index])


def check_cards(state) -> None:
    """Every card of the ruleset is in exactly one place; the table mask is right."""
    where: list[int] = []
    for cards in (*state.hands, *state.sides, *state.discards, *state.decks):
        where.extend(cards)
    for tops in state.tops:
        where.extend(c for c, _ in tops)
    where.extend(C.FOG for f in state.fog if f != NO_ONE)
    where.extend(C.MUD for f in state.mud if f != NO_ONE)
    where.extend(frame[1] for frame in state.stack if frame[0] in ("place", "environment"))
    expected = list(C.troop_deck(state.rules.max_value)) + (list(C.TACTICS) if state.rules.tactics else [])
    assert sorted(where) == sorted(expected)
    table = 0
    for c in [c for s in state.sides for c in s] + [c for p in state.discards for c in p]:
        if c < 60:
            table |= 1 << c
    assert state.table == table


def hidden(state, me: int):
    """What a role cannot see: the other hands, the decks, the tops put back by others."""
    return (
        tuple(h for r, h in enumerate(state.hands) if r != me),
        tuple(state.decks),
        tuple(tuple(c for c, k in t if k != me) for t in state.tops),
    )


CASES = [
    ("battle_line", {}, range(0, 6), 3),
    ("battle_line", {"claim_timing": "start_of_turn", "stalemate": "flags"}, range(6, 9), 5),
    ("battle_line", {"claim_timing": "end_of_turn"}, range(9, 12), 5),
    ("battle_line", {"tactics": "off"}, range(12, 15), 5),
    ("classic", {}, range(14, 17), 5),
]


@pytest.mark.parametrize(("ruleset", "options", "seeds", "every"), CASES)
def test_samples_show_the_same_view_and_decision(ruleset, options, seeds, every):
    """History *included*: json.dumps of the sample's view equals the original view's, byte for
    byte; the pending decision has the same step, role and option keys."""
    rules = GAME.rules(ruleset, options)
    checked = differ = 0
    for state, decision in positions(ruleset, options, seeds, every):
        role = decision.role
        me = rules.roles.index(role)
        view = GAME.view(state, role)
        text = json.dumps(view)
        belief = Belief(GAME, view, options=dict(rules.options))
        samples = belief.samples(random.Random(checked), 3)
        for sample in samples:
            check_cards(sample)
            assert json.dumps(GAME.view(sample, role)) == text
            mine = GAME.decision(sample)
            assert (mine.role, mine.step) == (decision.role, decision.step)
            assert [o.key for o in mine.options] == [o.key for o in decision.options]
            assert sample.number == state.number and sample.stack == state.stack
        if len({hidden(s, me) for s in samples}) > 1:
            differ += 1
        checked += 1
    assert checked > 50
    assert differ > checked // 2  # re-deals differ (not when nothing is hidden any more)


def test_scout_tops_and_known_cards_are_kept():
    """Positions where this role put cards back with Scout (its tops stay, in order), where the
    opponent holds a card this role knows, and where the opponent's tops are unknown."""
    tops = known = unknown = 0
    for state, decision in positions("battle_line", {}, range(20, 40), 1):
        role = decision.role
        view = GAME.view(state, role)
        mine_tops = any(t != "unknown" for d in view["decks"].values() for t in d["top"])
        others_tops = any(t == "unknown" for d in view["decks"].values() for t in d["top"])
        knows = any(o["known"] for o in view["opponents"].values())
        if not (mine_tops or others_tops or knows):
            continue
        me = state.rules.roles.index(role)
        belief = Belief(GAME, view, options=dict(state.rules.options))
        for k in range(2):
            sample = belief.sample(random.Random(k))
            assert GAME.view(sample, role) == view
            assert [[c for c, w in t if w == me] for t in sample.tops] == [
                [c for c, w in t if w == me] for t in state.tops
            ]
            for r, hand in enumerate(state.hands):
                if r != me:
                    assert set(hand) & set(state.known[me]) <= set(sample.hands[r])
        tops += mine_tops
        unknown += others_tops
        known += knows
    assert tops > 10 and unknown > 10 and known > 10


def test_typed_wire_views_and_inferred_rules():
    """A view decoded from wire bytes (as bots get it, history completed by HistoryBook) works
    without any options: tactics and the first player are inferred, the claim timing is one whose
    replay shows the same view."""
    rules = GAME.rules("battle_line", {"first": "p2", "claim_timing": "start_of_turn"})
    book = HistoryBook()
    sent = {"p1": 0, "p2": 0}
    chance, players = chance_rng(3), random.Random(3)
    state = GAME.new_state(rules)
    checked = 0
    while (decision := GAME.decision(state)) is not None:
        if decision.role == CHANCE:
            GAME.apply(state, decision.options[sample_chance(chance, decision)])
            continue
        role = decision.role
        view = GAME.view(state, role, sent[role])  # incremental, as the referee sends it
        if view["history"]:
            sent[role] = view["history"][-1][0]
        bot_decision, typed = wire(GAME, decision, view, f"m-{role}")
        book.complete(bot_decision.match_id, typed)
        full = GAME.view(state, role)
        assert as_dict(typed) == full
        if state.number % 4 == 0:
            inferred = infer_rules(GAME, typed)
            assert inferred.tactics and inferred.first == "p2"
            sample = sample_state(GAME, typed, random.Random(checked))
            assert GAME.view(sample, role) == full
            checked += 1
        GAME.apply(state, decision.options[players.randrange(len(decision.options))])
    assert checked > 10


def test_three_player_views():
    rules = GAME.rules("three_player")
    checked = 0
    for state, decision in positions("three_player", {}, range(2), 4):
        view = GAME.view(state, decision.role)
        sample = sample_state(GAME, view, random.Random(checked), options=dict(rules.options))
        assert GAME.view(sample, decision.role) == view
        checked += 1
    assert checked > 20


def test_rollouts_terminate_and_leave_the_belief_alone():
    n = 0
    for state, decision in positions("battle_line", {}, [50], 17):
        view = GAME.view(state, decision.role)
        belief = Belief(GAME, view)
        before = json.dumps(GAME.view(belief.state, decision.role))
        for k, sample in enumerate(sample_states(GAME, view, random.Random(n), 2)):
            outcome = rollout(GAME, sample, rng=random.Random(k))
            assert outcome is not None and GAME.decision(sample) is None
            assert sum(outcome.scores) == pytest.approx(1.0)
        assert json.dumps(GAME.view(belief.state, decision.role)) == before
        n += 1
    assert n > 5
    # a bounded rollout stops early; a view policy drives bots
    from standoff.bots.random_bot import RandomBot

    state = GAME.new_state(GAME.rules())
    assert rollout(GAME, state, rng=random.Random(1), max_decisions=20) is None
    policy = view_policy({"p1": RandomBot(1), "p2": RandomBot(2)})
    assert rollout(GAME, state, policy, random.Random(2)) is not None


def test_errors_are_clear():
    state = GAME.new_state(GAME.rules())
    chance = chance_rng(1)
    while (d := GAME.decision(state)).role == CHANCE:
        GAME.apply(state, d.options[sample_chance(chance, d)])
    view = GAME.view(state, d.role)
    with pytest.raises(SimulationError, match="incremental"):
        Belief(GAME, dict(view, history_from=5))
    tampered = json.loads(json.dumps(view))
    tampered["hand"][0] = "red-1" if tampered["hand"][0] != "red-1" else "red-2"
    with pytest.raises(SimulationError):
        Belief(GAME, tampered)
    with pytest.raises(SimulationError, match="no forward model"):
        Belief(get_game("twilight-struggle"), view)


@pytest.mark.parametrize("game_name", ["schotten-totten", "twilight-struggle"])
def test_uniform_rollout_fast_path_plays_the_general_loops_game(game_name):
    """``rollout`` with the default (uniform) policy takes a loop without a policy call per
    decision: it must draw the same numbers and so play the same game as the general loop (a
    policy that is not the default function forces that one), chance weights included. The
    final positions are the same; the history is not compared: a rollout need not log its
    choices (the games' own playouts do not), only number them."""
    game = get_game(game_name)
    rules = game.rules()
    for seed in range(3 if game_name == "schotten-totten" else 2):
        fast, general = game.new_state(rules), game.new_state(rules)
        a = rollout(game, fast, rng=random.Random(seed))
        b = rollout(game, general, policy=lambda g, s, d, r: random_policy(g, s, d, r), rng=random.Random(seed))
        assert a == b and fast.number == general.number > 20
        views = [game.view(state, rules.roles[0]) for state in (fast, general)]
        for view in views:
            view.pop("history")
        assert views[0] == views[1]
        # The game's own playout logged none of the choices (only what steps log themselves:
        # Twilight Struggle's reveals and dice); the general loop every one.
        logged = [set(iter_history(state.history)) for state in (fast, general)]
        assert logged[0] < logged[1] and len(logged[1] - logged[0]) == general.number
        if game_name == "schotten-totten":
            assert logged[0] == set()


def test_inline_draws_are_randoms_own():
    """The rollouts' inline ``randrange`` and the re-deal's inline ``shuffle`` (plain
    ``random.Random`` only) draw exactly what ``random.Random`` draws: same numbers, same
    permutations, the generator left in the same state."""
    from standoff.server.games.schotten_totten.determinize import shuffle
    from standoff.server.games.twilight_struggle.determinize import shuffle as ts_shuffle

    for seed in range(20):
        mine, ts, theirs = random.Random(seed), random.Random(seed), random.Random(seed)
        for size in (0, 1, 2, 3, 7, 31, 32, 33, 70, 200):
            a, b, c = list(range(size)), list(range(size)), list(range(size))
            shuffle(mine, a)
            ts_shuffle(ts, c)
            theirs.shuffle(b)
            assert a == b == c
        assert mine.getstate() == ts.getstate() == theirs.getstate()

    class Counting(random.Random):  # a subclass: shuffles itself
        calls = 0

        def shuffle(self, x):
            Counting.calls += 1
            super().shuffle(x)

    cards = list(range(10))
    shuffle(Counting(1), cards)
    assert Counting.calls == 1 and sorted(cards) == list(range(10))


@pytest.mark.parametrize("game_name", ["schotten-totten", "twilight-struggle"])
def test_rollouts_from_samples_match_the_general_loop(game_name):
    """From sampled states of mid-game positions: the default rollout (inline draws, on the
    engine's own functions: each game's playout.py) plays the same games as the general loop, and
    a ``random.Random`` subclass takes the general path with the same result."""
    game = get_game(game_name)
    assert importlib.import_module(f"{type(game).__module__.rpartition('.')[0]}.playout").plays(game)
    rules = game.rules()
    state = game.new_state(rules)
    rng = random.Random(7)
    seen = 0
    at = None  # the last player's decision before the target (a random game may end sooner)
    while (d := game.decision(state)) is not None and seen < 40:
        if d.role != CHANCE:
            seen, at = seen + 1, (state.copy(), d.role)
        game.apply(state, d.options[rng.randrange(len(d.options))])
    view = game.view(*at)
    belief = Belief(game, view, options=dict(rules.options))

    class Plain(random.Random):
        pass

    for seed in range(10):
        fast = belief.sample(random.Random(seed))
        general, subclass = fast.copy(), fast.copy()
        r1, r2, r3 = random.Random(seed), random.Random(seed), Plain(seed)
        a = rollout(game, fast, rng=r1)
        b = rollout(game, general, policy=lambda g, s, d, r: random_policy(g, s, d, r), rng=r2)
        c = rollout(game, subclass, rng=r3)
        assert a == b == c and fast.number == general.number == subclass.number
        assert r1.getstate() == r2.getstate() == r3.getstate()
