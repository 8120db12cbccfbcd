"""The independent oracles of hidden information and card conservation (kits/oracles.py): they
agree with the rulebooks' card lists, find nothing on real matches of every ruleset, and do find
what they are meant to find (planted leaks and lost or duplicated cards), including a leak that
the determinize-based leak test cannot see."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from kits.conformance import LONG, SAFE, check_views_leak_free, deep_match
from kits.oracles import (
    ST_CARD_BY_NAME,
    TS_CARDS,
    TS_SCORING,
    STOracle,
    TSOracle,
    oracle_for,
    st_card_name,
)
from kits.reliability import report
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.local import chance_rng, sample_chance

SCALE = 10 if LONG else 1


def play(game: Any, rules: Any, seed: int, *, observed: Any = None, stop=None) -> tuple[Any, Any]:
    """A uniformly random match with an oracle on every state; ``observed`` is the game object
    the oracle reads views from (a wrapper planting a fault), ``stop(oracle)`` ends early."""
    state = game.new_state(rules)
    game.decision(state)
    oracle = oracle_for(observed or game, state)
    oracle.context = f"seed {seed}: "
    chance, players = chance_rng(seed), random.Random(seed ^ 0x5EED)
    while (decision := game.decision(state)) is not None:
        index = sample_chance(chance, decision) if decision.role == CHANCE else players.randrange(len(decision.options))
        game.apply(state, decision.options[index])
        oracle.observe(state)
        if stop is not None and stop(oracle):
            return oracle, state
    oracle.finish(state)
    return oracle, state


class Planted:
    """A game whose views (or decisions) carry a planted fault; everything else is the game's."""

    def __init__(self, game: Any, view=None, decision=None, determinize=None) -> None:
        self._game, self._view, self._decision, self._determinize = game, view, decision, determinize
        self.name = game.name

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def view(self, state: Any, role: str, history_from: int = 0) -> dict:
        view = self._game.view(state, role, history_from)
        return self._view(state, role, view) if self._view else view

    def decision(self, state: Any) -> Any:
        decision = self._game.decision(state)
        return self._decision(state, decision) if self._decision and decision is not None else decision

    def determinize(self, state: Any, role: str, rng: random.Random) -> Any:
        if self._determinize:
            return self._determinize(state, role, rng)
        return self._game.determinize(state, role, rng)


# -- the card tables -------------------------------------------------------------------------------


def test_twilight_struggle_cards_as_the_rulebook_counts_them():
    """cards.md §2: 110 cards (103 without the optional ones), 39/48/23 by period (The China Card
    counted in the Early War), 7 scoring cards; and the engine's card data agrees card by card."""
    from standoff.server.games.twilight_struggle import card_data as CD

    assert len(TS_CARDS) == 110
    assert sum(1 for c in TS_CARDS.values() if not c.optional) == 103
    assert Counter(c.period for c in TS_CARDS.values()) == {"early": 39, "mid": 48, "late": 23}
    assert len(TS_SCORING) == 7
    engine = {c.number: (c.id, c.period, c.scoring, c.optional) for c in CD.CARDS}
    assert engine == {n: (c.id, c.period, c.scoring, c.optional) for n, c in TS_CARDS.items()}


def test_schotten_totten_cards_as_the_rulebook_counts_them():
    from standoff.server.games.schotten_totten import cards as C

    assert len(ST_CARD_BY_NAME) == 70
    assert [st_card_name(c) for c in range(70)] == [C.card_name(c) for c in range(70)]


# -- real matches: nothing found -------------------------------------------------------------------

TS_CASES = [({}, 60), ({"optional_cards": "off"}, 20), ({"chinese_civil_war": "on", "bid": "us:2"}, 20)]
ST_CASES = [
    ("battle_line", {}, 80), ("classic", {}, 30), ("three_player", {}, 20), ("battle_line", {"tactics": "off"}, 20),
]


@pytest.mark.parametrize(("options", "games"), TS_CASES, ids=["deluxe", "no-optional-cards", "ccw-bid"])
def test_twilight_struggle_random_matches_are_clean(options, games):
    """Uniformly random full matches (the oracle also runs on the deep conformance games and on
    the 10,000-game soak: scripts/ts_soak.py --oracle)."""
    game = get_game("twilight-struggle")
    rules = game.rules(None, options)
    stats: Counter[str] = Counter()
    for seed in range(games * SCALE):
        oracle, _ = play(game, rules, seed)
        oracle.assert_clean()
        stats.update(oracle.stats)
    report("ts_oracle_random", options=options, games=games * SCALE, **dict(sorted(stats.items())))
    assert stats["states"] > 100 * games and stats["views"] == 2 * stats["states"]
    # The view keeps the last headline cards until the next headline phase (public, only stale):
    # only during the deal, where no side is asked anything.
    assert stats["stale_headline_views_at_own_decision"] == 0


@pytest.mark.parametrize(("ruleset", "options", "games"), ST_CASES,
                         ids=["battle_line", "classic", "three_player", "no-tactics"])
def test_schotten_totten_random_matches_are_clean(ruleset, options, games):
    game = get_game("schotten-totten")
    rules = game.rules(ruleset, options)
    stats: Counter[str] = Counter()
    for seed in range(games * SCALE):
        oracle, _ = play(game, rules, seed)
        oracle.assert_clean()
        stats.update(oracle.stats)
    report("st_oracle_random", ruleset=ruleset, options=options, games=games * SCALE, **dict(sorted(stats.items())))
    if rules.tactics:
        assert stats["scout_returns"] > 0 and stats["known_by_card_flow"] > 0  # Scout knowledge was exercised


# -- planted faults: found -------------------------------------------------------------------------


def _first_violation(game: Any, rules: Any, planted: Any, seeds=range(40)) -> str:
    for seed in seeds:
        oracle, _ = play(game, rules, seed, observed=planted, stop=lambda o: o.violation_count > 0)
        if oracle.violations:
            return oracle.violations[0]
    raise AssertionError("the planted fault was never found")


def test_a_leak_the_determinize_test_cannot_see_is_found():
    """A view that shows the other hand, with a determinize that forgets to re-deal it: the
    determinize-based leak test passes, the oracle does not."""
    game = get_game("twilight-struggle")
    rules = game.rules(None, {})

    def spy(state, role, view):
        them = 1 - state.rules.roles.index(role)
        return {**view, "intelligence": [TS_CARDS[c].id for c in state.hands[them]]}

    planted = Planted(game, view=spy, determinize=lambda state, role, rng: state.copy())
    state = game.new_state(rules)
    chance = chance_rng(1)
    while game.decision(state).role == CHANCE:
        game.apply(state, game.decision(state).options[sample_chance(chance, game.decision(state))])
    check_views_leak_free(planted, state, random.Random(0))  # passes: it compares the view with itself
    found = _first_violation(game, rules, planted)
    assert "leak:" in found and "view field 'intelligence'" in found and "hand:" in found


def test_a_secret_headline_shown_too_early_is_found():
    game = get_game("twilight-struggle")
    rules = game.rules(None, {})

    def early(state, role, view):
        them = 1 - state.rules.roles.index(role)
        if state.headline[them]:
            view["headline"] = {**view["headline"], state.rules.roles[them]: TS_CARDS[state.headline[them]].id}
        return view

    found = _first_violation(game, rules, Planted(game, view=early))
    assert "view field 'headline'" in found and "(headline:" in found


def test_the_cambridge_five_showing_more_than_scoring_cards_is_found():
    """#104 shows the USSR the scoring cards of the US hand, nothing else: a history entry that
    shows the whole hand is a leak (and the true entry is not)."""
    game = get_game("twilight-struggle")
    rules = game.rules(None, {})
    us = rules.roles.index("us")

    def whole_hand(state, role, view):
        for entry in view["history"]:
            if entry[2] == "reveal_scoring_cards" and role == "ussr":
                entry[3] = "hand:" + ",".join(TS_CARDS[c].id for c in state.hands[us])
        return view

    found = _first_violation(game, rules, Planted(game, view=whole_hand), seeds=range(200))
    assert "leak: ussr history entry" in found and "reveal_scoring_cards" in found and "(hand:us)" in found
    assert not any(TS_CARDS[int(part.split()[0][1:])].scoring for part in found.split("names ")[1].split(", "))


def test_a_hand_shown_after_its_look_is_found():
    """CIA Created (#26) is one look at the USSR hand: showing that hand from then on leaks the
    cards the USSR draws later."""
    game = get_game("twilight-struggle")
    rules = game.rules(None, {})
    ussr = rules.roles.index("ussr")
    looked = [False]

    def keeps_looking(state, role, view):
        if role == "us":
            if view["history_from"] == -1:  # a new match
                looked[0] = False
            if any(e[2] == "reveal_hand" and e[1] == "ussr" for e in view["history"]):
                looked[0] = True
            if looked[0]:
                view = {**view, "opponent_hand": [TS_CARDS[c].id for c in state.hands[ussr]]}
        return view

    found = _first_violation(game, rules, Planted(game, view=keeps_looking), seeds=range(200))
    assert "leak: us view field 'opponent_hand'" in found and "(hand:ussr)" in found


def test_a_hidden_card_in_a_prompt_is_found():
    game = get_game("twilight-struggle")
    rules = game.rules(None, {})

    def tell(state, decision):
        if decision.role == CHANCE or not state.deck:
            return decision
        return decision._replace(prompt=f"{decision.prompt} (the next card is {TS_CARDS[state.deck[0]].name})")

    found = _first_violation(game, rules, Planted(game, decision=tell))
    assert "decision" in found and "(deck)" in found


def test_lost_and_duplicated_cards_are_found():
    game = get_game("twilight-struggle")
    state = game.new_state(game.rules(None, {}))
    game.decision(state)
    oracle = TSOracle(game, state)
    oracle.assert_clean()
    twin = state.copy()
    twin.discard = twin.discard + (twin.deck[0],)
    oracle.observe(twin)
    assert any("is in ['deck', 'discard']" in v for v in oracle.violations)
    lost = state.copy()
    lost.deck = lost.deck[1:]
    oracle = TSOracle(game, lost)
    assert any("is nowhere" in v for v in oracle.violations)
    foreign = state.copy()
    foreign.hands[0] = foreign.hands[0] + (107,)  # Che: Mid War, not in play on turn 1
    assert any("#107 che is in ['hand:ussr', 'box']" in v for v in TSOracle(game, foreign).violations)


def test_schotten_totten_faults_are_found():
    game = get_game("schotten-totten")
    rules = game.rules("battle_line", {})

    def tops_for_all(state, role, view):
        for d, name in enumerate(("troops", "tactics")):
            view["decks"][name]["top"] = [st_card_name(c) for c, _ in reversed(state.tops[d])]
        return view

    found = _first_violation(game, rules, Planted(game, view=tops_for_all), seeds=range(200))
    assert "view field 'decks'" in found and "deck top)" in found

    def other_hand(state, role, view):
        them = 1 - state.rules.roles.index(role)
        view["opponents"][state.rules.roles[them]]["known"] = [st_card_name(c) for c in state.hands[them]]
        return view

    found = _first_violation(game, rules, Planted(game, view=other_hand))
    assert "view field 'opponents'" in found and "(hand:" in found

    state = game.new_state(rules)
    game.decision(state)
    oracle = STOracle(game, state)
    lost = state.copy()
    lost.decks[0] = lost.decks[0][1:]
    oracle.observe(lost)
    assert any("is nowhere" in v for v in oracle.violations)


def test_the_rules_reveal_what_they_reveal():
    """The reveals the rules make happen in real matches and are not reported: CIA Created, Lone
    Gunman, The Cambridge Five, Aldrich Ames Remix (an open hand), Our Man in Tehran, cards
    changing hands in the open (Missile Envy, SALT, Grain Sales). Played by the DEFCON-safe
    policy, whose matches reach the Late War."""
    game = get_game("twilight-struggle")
    rules = game.rules(None, {})
    stats: Counter[str] = Counter()
    wanted = ("reveal:26_cia_created", "reveal:62_lone_gunman", "reveal:104_cambridge_five",
              "reveal:98_aldrich_ames", "states_with_us_hand_open", "states_with_tehran_cards",
              "known_by_card_flow", "states_with_public_headline")
    seed = 0
    while not all(stats[k] for k in wanted):
        assert seed < 60, f"not every reveal happened in {seed} matches: {stats}"
        oracles = []

        def follow(state, decision, n):
            if n == 0:
                oracles.append(TSOracle(game, state))
            elif decision is None:
                oracles[0].finish(state)
            else:
                oracles[0].observe(state)

        deep_match(game, rules, seed, {"ussr": SAFE, "us": SAFE}, check=follow)
        oracles[0].assert_clean()
        stats.update(oracles[0].stats)
        seed += 1
    report("ts_oracle_reveals", matches=seed, **{k: stats[k] for k in wanted})
