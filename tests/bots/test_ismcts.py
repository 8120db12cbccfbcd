"""The ``ismcts`` bot: budgets (constructor, environment, class attribute), legal answers, no
cheating (its choice is a function of the view: states with the same view get the same answer;
its samples come from the view only), and determinism given its seed."""

from __future__ import annotations

import random

import pytest
from kits import bots as botkit

from standoff.bots import BUILTIN_BOTS
from standoff.bots import flag_model
from standoff.bots import ismcts as ismcts_module
from standoff.bots.greedy import GreedyBot
from standoff.bots.ismcts import ENV_ITERATIONS, ENV_SECONDS, IsmctsBot
from standoff.bots.random_bot import RandomBot
from standoff.sdk.simulate import Belief
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.games.schotten_totten import cards as C
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
    hand_mask, count = flag_model._troop_mask(state.hands[role])
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
            theirs = flag_model._strongest(theirs, size, fogs[f] >= 0)
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


def tactics_reply_position(held: bool = True):
    """A ``play`` decision of a seeded random game at which the opponent holds a tactics card
    (so a line's reply may play one; ``held=False``: holds none), and its decision."""
    for seed in range(40):
        state, decision = play_position(300 + seed, 30)
        opp = 1 - state.rules.roles.index(decision.role)
        if any(c >= 60 for c in state.hands[opp]) == held:
            return state, decision
    raise AssertionError("no position with a tactics card in the opponent's hand")


def test_reply_knob_is_checked():
    assert IsmctsBot(1).REPLY == "probability" and IsmctsBot(1).REPLY_ALL == 1  # the default
    assert IsmctsBot(1, reply="troops")._reply is None
    assert isinstance(IsmctsBot(1, reply="greedy")._reply, GreedyBot)
    bot = IsmctsBot(1, reply="probability", reply_scenarios=3)
    assert bot._reply.name == "probability" and bot._reply.SCENARIOS == 3
    from standoff.bots.probability import ProbabilityBot

    assert ProbabilityBot.SCENARIOS == 24  # the instance's, not the class's
    with pytest.raises(ValueError, match="REPLY"):
        IsmctsBot(1, reply="tactics")


@pytest.mark.parametrize("reply", ["greedy", "probability"])
def test_tactics_replies_come_from_the_reply_bot_on_the_opponents_view_of_a_sample(monkeypatch, reply):
    """With ``reply`` set, a line's opponent move that may use a tactics card is the reply bot's
    answer, given the opponent's view of the sampled state (its sampled hand, the table we see);
    the default troop policy never asks it; the answer is a legal option and the search stays
    deterministic given its seed."""
    state, decision = tactics_reply_position()
    me = decision.role
    decision, view = wire(decision, GAME.view(state, me))
    plain = IsmctsBot(5, iterations=80, reply="troops")
    plain.choose(decision, view)
    assert plain.replies == 0
    asked = []
    cls = GreedyBot if reply == "greedy" else __import__("standoff.bots.probability", fromlist=["x"]).ProbabilityBot
    real = cls._choose

    def spy(self, d, v):
        index = real(self, d, v)
        asked.append((d.role, d.step, v["role"], v["hand"], index, len(d.options)))
        return index

    real_planned = cls.planned

    def planned_spy(self, d):  # a target step its play's plan answers: no view, no position
        index = real_planned(self, d)
        if index is not None:
            asked.append((d.role, d.step, d.role, None, index, len(d.options)))
        return index

    monkeypatch.setattr(cls, "_choose", spy)
    monkeypatch.setattr(cls, "planned", planned_spy)
    seen = []
    for _ in range(2):
        bot = IsmctsBot(5, iterations=80, reply=reply, reply_all=0)
        index = bot.choose(decision, view)
        seen.append((index, bot.stats, bot.replies))
    assert seen[0] == seen[1] and 0 <= seen[0][0] < len(decision.options)
    mine = [a for a in asked if a[0] == me]  # the probability anchor (and nothing else) is ours
    theirs = [a for a in asked if a[0] != me]
    assert len(theirs) == seen[0][2] + seen[1][2] > 0
    assert all(role == seen_as and 0 <= i < n for role, _, seen_as, _, i, n in theirs)
    plays = [hand for _, step, _, hand, _, _ in theirs if step == "play"]
    assert plays and all(any(C.card_from_name(name) >= 60 for name in hand) for hand in plays)
    assert len(mine) == 2  # the probability anchor, once per search (greedy's _choose serves it)


def test_reply_all_answers_every_opponent_move_of_a_line():
    """``reply_all=1``: the reply bot plays the opponent's moves without a tactics card too (more
    replies than with tactics moves only, where the opponent holds none: then the tactics-only
    reply is never asked), still legal and deterministic."""
    state, decision = tactics_reply_position(held=False)
    decision, view = wire(decision, GAME.view(state, decision.role))
    counts = []
    for knobs in ({"reply": "greedy", "reply_all": 0}, {"reply": "greedy", "reply_all": 1}, {"reply": "greedy", "reply_all": 1}):
        bot = IsmctsBot(5, iterations=80, **knobs)
        index = bot.choose(decision, view)
        assert 0 <= index < len(decision.options)
        counts.append((bot.replies, index, bot.stats))
    assert counts[1] == counts[2]
    assert counts[1][0] > counts[0][0] == 0


def test_last_opponent_play_is_read_from_the_history():
    """The opponent's last troop play (card, flag) and our troops placed since; None after its
    pass or tactics card, or after a tactics card of ours."""
    last = ismcts_module._last_opponent_play
    history = [
        [1, "p2", "play", "card:red-3"], [2, "p2", "place", "flag:2"], [3, "p2", "draw", "deck:troops"],
        [4, "chance", "draw_card", "deck:troops"],
        [5, "p1", "play", "card:blue-9"], [6, "p1", "place", "flag:7"], [7, "p1", "draw", "deck:troops"],
        [8, "chance", "draw_card", "card:green-1"],
    ]
    red3, blue9 = C.card_from_name("red-3"), C.card_from_name("blue-9")
    assert last({"history": history}, "p1") == (red3, 1, ((blue9, 6),))
    assert last({"history": history[:4]}, "p1") == (red3, 1, ())
    assert last({"history": history + [[9, "p2", "play", "pass"]]}, "p1") is None
    assert last({"history": history[:4] + [[5, "p1", "play", "card:fog"], [6, "p1", "environment", "flag:7"]]},
                "p1") is None
    assert last({"history": [[1, "p2", "play", "card:traitor"], [2, "p2", "traitor", "card:red-3"]]}, "p1") is None
    assert last({"history": []}, "p1") is None


def test_belief_weights_deals_by_the_opponents_last_play():
    """``belief_tau``: every sampled deal weighs ``exp(...)`` in (0, 1] (1 for a deal whose hand
    would have made the opponent's last play), the means are weighted (their sum below the
    rounds when some deal explains it worse), and the search stays a function of the view;
    without it every deal weighs 1."""
    checked = 0
    for seed in range(8):
        state, decision = play_position(400 + seed, 40)
        role = decision.role
        view = GAME.view(state, role)
        found = ismcts_module._last_opponent_play(view, role)
        if found is None:
            continue
        other = GAME.determinize(state, role, random.Random(seed))
        answers = []
        for world in (state, other):
            bot = IsmctsBot(9, iterations=120, belief_tau=0.05)
            answers.append((bot.choose(*wire(GAME.decision(world), GAME.view(world, role))), bot.stats,
                            bot.weight_sum))
        assert answers[0] == answers[1]
        rounds = answers[0][1]["rounds"]
        assert 0.0 < answers[0][2] <= rounds
        checked += answers[0][2] < rounds - 1e-9
        bot = IsmctsBot(9, iterations=120)
        bot.choose(*wire(decision, view))
        assert bot.weight_sum == bot.stats["rounds"]
        weigher = IsmctsBot(9, belief_tau=0.05)
        weigher._model = ismcts_module.FlagModel(weigher)
        for _ in range(5):
            w = weigher._deal_weight(GAME.determinize(state, role, random.Random(_)), role, found)
            assert 0.0 < w <= 1.0
    assert checked >= 2


def test_the_anchor_at_a_target_step_is_probabilitys_answer_for_our_card():
    """At ``play`` the search may choose another card than the probability bot's answer (the
    anchor); that bot's plan then names the other card's target, so it is dropped and at our
    card's target steps the anchor (and the answer if the search fails) is worked out from the
    card we played. With the stale plan, seed 301's game (reply=probability, 60 lines) took a
    counted fallback: at an ``environment`` step the plan was for a troop card, no answer."""
    from standoff.bots.probability import ProbabilityBot

    bot = IsmctsBot(301, iterations=60, reply="probability", reply_all=0)
    overridden = []
    real = IsmctsBot.choose

    def spy(self, decision, view):
        index = real(self, decision, view)
        if decision.step == "play" and self._anchor is not None and decision.options[index].key != self._anchor:
            overridden.append(self.fallback._plan)
        return index

    bot.choose = spy.__get__(bot)
    bots = {"p1": bot, "p2": ProbabilityBot(901)}
    play_match(GAME, GAME.rules(None, {}), bots, 301, timing=False)
    assert overridden and all(plan == {} for plan in overridden)
    assert bot.fallbacks == 0
