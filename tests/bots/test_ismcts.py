"""The ``ismcts`` bot: budgets (constructor, environment, class attribute), legal answers, no
cheating (its choice is a function of the view: states with the same view get the same answer;
its samples come from the view only), and determinism given its seed."""

from __future__ import annotations

import random

import pytest
from kits import bots as botkit

from standoff.bots import BUILTIN_BOTS
from standoff.bots import ismcts as ismcts_module
from standoff.bots.greedy import GreedyBot
from standoff.bots.ismcts import ENV_ITERATIONS, ENV_SECONDS, IsmctsBot
from standoff.bots.random_bot import RandomBot
from standoff.sdk.simulate import Belief
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.local import chance_rng, play_match, sample_chance

GAME = get_game("schotten-totten")


@pytest.fixture(autouse=True)
def strict(monkeypatch):
    monkeypatch.setattr(IsmctsBot, "strict", True)
    monkeypatch.setattr(GreedyBot, "strict", True)
    monkeypatch.delenv(ENV_ITERATIONS, raising=False)
    monkeypatch.delenv(ENV_SECONDS, raising=False)


def wire(decision, view):
    """The decision and view as a bot receives them: encoded to bytes and decoded again."""
    return botkit.wire(GAME, decision, view)


def random_position(seed: int, number: int):
    """A state of a seeded random game at the first players' decision from ``number`` on."""
    rng, chance = random.Random(seed), chance_rng(seed)
    state = GAME.new_state(GAME.rules())
    while (d := GAME.decision(state)) is not None:
        if d.role != CHANCE and state.number >= number and len(d.options) > 1 and d.step != "claim":
            return state, d
        index = sample_chance(chance, d) if d.role == CHANCE else rng.randrange(len(d.options))
        GAME.apply(state, d.options[index])
    raise AssertionError("the game ended first")


def play_position(seed: int, number: int):
    """The first ``play`` decision (one the bot searches) of a seeded random game from ``number`` on."""
    while True:
        state, decision = random_position(seed, number)
        if decision.step == "play":
            return state, decision
        number = state.number + 1


def test_registered_and_budgets(monkeypatch):
    assert BUILTIN_BOTS["ismcts"] is IsmctsBot
    assert IsmctsBot(1).iterations == IsmctsBot.ITERATIONS and IsmctsBot(1).seconds is None
    assert IsmctsBot(1, iterations=7).iterations == 7
    bot = IsmctsBot(1, seconds=0.5)
    assert (bot.iterations, bot.seconds) == (None, 0.5)
    monkeypatch.setenv(ENV_ITERATIONS, "33")
    assert IsmctsBot(1).iterations == 33
    assert IsmctsBot(1, iterations=5).iterations == 5  # the constructor wins
    monkeypatch.setenv(ENV_SECONDS, "0.25")
    assert (IsmctsBot(1).iterations, IsmctsBot(1).seconds) == (None, 0.25)
    monkeypatch.delenv(ENV_ITERATIONS)
    monkeypatch.delenv(ENV_SECONDS)
    monkeypatch.setattr(IsmctsBot, "ITERATIONS", 12)  # a tournament may subclass or patch
    assert IsmctsBot(1).iterations == 12


def test_knobs_by_keyword():
    """A lower-case keyword sets the class attribute of that name on the instance only (what
    ``ismcts:margin=0.05,width=6`` in benchmarks/bot_strength.py does); an unknown one is an error
    that names the knobs."""
    bot = IsmctsBot(1, margin=0.05, width=6, sub_width=2, exploration=0.7, prior_visits=3)
    assert (bot.MARGIN, bot.WIDTH, bot.SUB_WIDTH, bot.EXPLORATION, bot.PRIOR_VISITS) == (0.05, 6, 2, 0.7, 3)
    assert (IsmctsBot.MARGIN, IsmctsBot.WIDTH) != (0.05, 6)
    plain = IsmctsBot(1)
    assert (plain.MARGIN, plain.WIDTH) == (IsmctsBot.MARGIN, IsmctsBot.WIDTH)
    with pytest.raises(ValueError, match="no knob 'iteration'.*margin"):
        IsmctsBot(1, iteration=5)
    with pytest.raises(ValueError, match="no knob 'strict'"):
        IsmctsBot(1, strict=False)


def test_width_limits_the_searched_candidates():
    """``width``/``sub_width`` bound the lines searched at a ``play`` (plus the anchor's group)."""
    state, decision = play_position(31, 30)
    decision, view = wire(decision, GAME.view(state, decision.role))
    wide = IsmctsBot(3, iterations=40, margin=None)
    wide.choose(decision, view)
    narrow = IsmctsBot(3, iterations=40, margin=None, width=1, sub_width=1)
    narrow.choose(decision, view)
    assert len(narrow.stats["moves"]) == 1
    assert len(wide.stats["moves"]) > 1
    assert len({line.split()[0] for line in wide.stats["moves"]}) <= IsmctsBot.WIDTH


def test_answers_from_wire_views_are_legal_in_random_positions():
    """Random games in which the bot (tiny budget) answers every decision of either role from the
    wire-decoded decision and view; every tactics step shows up."""
    steps = set()
    for g in range(3):
        rng, chance = random.Random(70 + g), chance_rng(70 + g)
        bots = {"p1": IsmctsBot(g, iterations=4), "p2": IsmctsBot(g + 1, iterations=4)}
        state = GAME.new_state(GAME.rules())
        while (d := GAME.decision(state)) is not None:
            if d.role == CHANCE:
                GAME.apply(state, d.options[sample_chance(chance, d)])
                continue
            bot_decision, view = wire(d, GAME.view(state, d.role))
            index = bots[d.role].choose(bot_decision, view)
            assert isinstance(index, int) and 0 <= index < len(d.options)
            steps.add(d.step)
            GAME.apply(state, d.options[rng.randrange(len(d.options))])
    assert {"play", "place", "claim", "draw"} <= steps


def test_same_view_same_choice():
    """No cheating: states that differ only in what the role cannot see (a re-deal of the
    opponent's hand and the deck) get the same answer from bots with the same seed."""
    checked = 0
    for seed in range(6):
        state, decision = random_position(seed, 40 + 7 * seed)
        role = decision.role
        other = GAME.determinize(state, role, random.Random(seed))
        assert GAME.view(other, role) == GAME.view(state, role)
        assert other.hands != state.hands or other.decks != state.decks
        answers = []
        for world in (state, other):
            bot = IsmctsBot(99, iterations=40)
            answers.append(bot.choose(*wire(GAME.decision(world), GAME.view(world, role))))
        assert answers[0] == answers[1]
        checked += 1
    assert checked == 6


@pytest.mark.parametrize("selection", ["paired", "ucb"])
def test_samples_come_from_the_view_only(monkeypatch, selection):
    """The search builds its samples with the SDK's Belief from the view it was given (nothing
    else reaches it), and every sample shows that same view (either way of sharing iterations:
    one sample per iteration, or one per round of every candidate)."""
    monkeypatch.setattr(IsmctsBot, "SELECTION", selection)
    made = []
    real = Belief.__init__

    def spy(self, game, view, **kwargs):
        made.append((view, kwargs))
        real(self, game, view, **kwargs)

    monkeypatch.setattr(Belief, "__init__", spy)
    samples = []
    real_sample = Belief.sample

    def sample(self, rng):
        state = real_sample(self, rng)
        samples.append(GAME.view(state, self.role))  # before the search plays on in it
        return state

    monkeypatch.setattr(Belief, "sample", sample)
    state, decision = random_position(4, 60)
    view = GAME.view(state, decision.role)
    bot = IsmctsBot(1, iterations=40)
    bot.choose(*wire(decision, view))
    assert len(made) == 1
    given, kwargs = made[0]
    assert given == view and set(kwargs) <= {"options", "rules", "check"}
    expected = 40 if selection == "ucb" else bot.stats["rounds"]
    assert expected >= 2 and len(samples) == expected and all(seen == view for seen in samples)
    assert ismcts_module.Belief is Belief


def test_deterministic_given_seed_and_time_budget():
    rules = GAME.rules()
    records = []
    for _ in range(2):
        bots = {"p1": IsmctsBot(5, iterations=8), "p2": RandomBot(6)}
        result = play_match(GAME, rules, bots, 21, timing=False)
        records.append([(m["role"], m["step"], m["key"]) for m in result.record.moves])
    assert records[0] == records[1]
    assert result.outcome.winner != "p2"  # it does not lose to random (a stalemate is possible)
    # a time budget answers too (its result may depend on the machine's speed)
    state, decision = random_position(8, 51)  # a `play` decision (a draw is not searched)
    assert decision.step == "play"
    bot = IsmctsBot(1, seconds=0.05)
    index = bot.choose(*wire(decision, GAME.view(state, decision.role)))
    assert 0 <= index < len(decision.options) and "iterations" in bot.stats


def best_placement_reference(model, state, role: int, cards) -> tuple[int, int] | None:
    """:meth:`FlagModel.best_placement` written plainly through :meth:`FlagModel.side`: the oracle."""
    n = len(state.rules.roles)
    opp = 1 - role
    hand_mask, count = ismcts_module._troop_mask(state.hands[role])
    external = state.unseen_mask() & ~hand_mask
    sides, claimed, fogs, muds = state.sides, state.claimed, state.fog, state.mud
    best, choice = -1e9, None
    opens = []
    for f in range(9):
        if claimed[f] >= 0:
            continue
        size = 4 if muds[f] >= 0 else 3
        mine = sides[f * n + role]
        if len(mine) >= size:
            continue
        theirs = sides[f * n + opp]
        if len(theirs) > size:
            theirs = ismcts_module._strongest(theirs, size, fogs[f] >= 0)
        fog = fogs[f] >= 0
        base = model.side(mine, theirs, False, size, fog, hand_mask, count, external)
        opens.append((f, mine, theirs, size, fog, base))
    for card in cards:
        rest = hand_mask & ~(1 << card)
        for f, mine, theirs, size, fog, base in opens:
            gain = model.side(mine + (card,), theirs, False, size, fog, rest, count - 1, external) - base
            gain -= 0.001 * (card % 10 + 1)
            if gain > best:
                best, choice = gain, (card, f)
    return choice


def test_fast_best_placement_equals_the_plain_one():
    """The rollout policy's hoisted, pruned troop choice gives exactly the plain per-pair answer
    (:func:`best_placement_reference`) for both roles in positions of random games,
    tactics (Fog, Mud) included."""
    model = ismcts_module.FlagModel(IsmctsBot)
    compared = 0
    for seed in range(12):
        rng, chance = random.Random(300 + seed), chance_rng(300 + seed)
        state = GAME.new_state(GAME.rules())
        while (d := GAME.decision(state)) is not None:
            if d.role != CHANCE and d.step == "play":
                for role in (0, 1):
                    troops = sorted(c for c in state.hands[role] if c < 60)
                    if troops:
                        fast = model.best_placement(state, role, troops)
                        assert fast == best_placement_reference(model, state, role, troops)
                        compared += fast is not None
            index = sample_chance(chance, d) if d.role == CHANCE else rng.randrange(len(d.options))
            GAME.apply(state, d.options[index])
    assert compared > 300


@pytest.mark.parametrize("selection", ["paired", "ucb"])
def test_same_seed_same_search(selection):
    """Determinism with an iteration budget, either selection: the same seed gives the same
    answer and the same statistics."""
    state, decision = play_position(11, 45)
    seen = []
    for _ in range(2):
        bot = IsmctsBot(3, iterations=60, selection=selection, depth=2)
        index = bot.choose(*wire(decision, GAME.view(state, decision.role)))
        seen.append((index, bot.stats))
    assert seen[0] == seen[1] and 0 <= seen[0][0] < len(decision.options)
    assert seen[0][1]["iterations"] >= 2


def test_paired_rounds_play_every_candidate_on_one_deal(monkeypatch):
    """A paired round samples once and plays each candidate line from a copy of that deal: as
    many samples as rounds, and each round's lines cost one iteration apiece."""
    state, decision = play_position(2, 50)
    sampled = []
    real_sample = Belief.sample
    monkeypatch.setattr(Belief, "sample", lambda self, rng: sampled.append(1) or real_sample(self, rng))
    bot = IsmctsBot(4, iterations=100)
    bot.choose(*wire(decision, GAME.view(state, decision.role)))
    stats = bot.stats
    lines = len(stats["moves"])
    assert lines >= 2 and len(sampled) == stats["rounds"] >= 2
    assert stats["iterations"] == stats["rounds"] * lines <= 100
    assert all(rounds == stats["rounds"] and 0.0 <= mean <= 1.0 for rounds, mean in stats["moves"].values())


def test_bad_depth_or_selection_is_a_clear_error():
    with pytest.raises(ValueError, match="depth"):
        IsmctsBot(1, depth=-1)
    with pytest.raises(ValueError, match="SELECTION"):
        IsmctsBot(1, selection="greedy")


def test_paired_search_keeps_the_probability_answer_within_the_margin(monkeypatch):
    """With a margin no mean can clear, the paired search answers as the probability bot would
    (it searches that answer's lines too); without an anchor it answers its own best line."""
    from standoff.bots.probability import ProbabilityBot

    checked = 0
    for seed in range(3):
        state, decision = play_position(20 + seed, 40)
        decision, view = wire(decision, GAME.view(state, decision.role))
        expected = ProbabilityBot(7).choose(decision, view)
        monkeypatch.setattr(IsmctsBot, "MARGIN", 1.0)
        bot = IsmctsBot(7, iterations=60)
        assert bot.choose(decision, view) == expected
        assert bot.stats["anchor"] == decision.options[expected].key
        assert any(line.split()[0] == bot.stats["anchor"] for line in bot.stats["moves"])
        monkeypatch.setattr(IsmctsBot, "MARGIN", None)
        free = IsmctsBot(7, iterations=60)
        index = free.choose(decision, view)
        assert free.stats["anchor"] is None
        top = max(mean for _, mean in free.stats["moves"].values())
        assert decision.options[index].key in {
            line.split()[0] for line, (_, mean) in free.stats["moves"].items() if mean == top}
        checked += 1
    assert checked == 3


def test_the_judge_is_greedys_flag_estimate():
    """``FlagModel.flags`` (computed from the state, with the hot path inlined) equals greedy's
    estimate of every open flag from the role's view, at the play and draw decisions of random
    games (tactics included)."""
    from standoff.bots.greedy_position import _Position

    compared = 0
    for seed in range(4):
        rng, chance = random.Random(seed), chance_rng(seed)
        state = GAME.new_state(GAME.rules())
        while (d := GAME.decision(state)) is not None:
            if d.role != CHANCE and d.step in ("play", "draw"):
                position = _Position(GAME.view(state, d.role), d.role, GreedyBot)
                judged = ismcts_module.FlagModel(IsmctsBot).flags(state, state.rules.roles.index(d.role))
                for f in range(9):
                    if state.claimed[f] < 0:
                        assert judged[f] == pytest.approx(position.base(f), abs=1e-12)
                        compared += 1
            index = sample_chance(chance, d) if d.role == CHANCE else rng.randrange(len(d.options))
            GAME.apply(state, d.options[index])
    assert compared > 1000
