"""The speed-ups of the Twilight Struggle engine and views (issue 22) change nothing a seat sees:
the views kept between decisions (boards derived from the last ones, piles and effects named once
per object) equal what the rules compute from the state at every decision, in interleaved matches
too; every view is fresh data; the target and placement shortcuts agree with their definitions."""

from __future__ import annotations

import random

import pytest

from standoff.server.games import get_game
from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.common import CARD_OPTIONS
from standoff.server.games.twilight_struggle.state import NOBODY, US, USSR

GAME = get_game("twilight-struggle")


def _expected(state, role: str) -> dict:
    """The view's fields the caches serve, computed straight from the rules."""
    roles = state.rules.roles
    name = lambda c: G.card_name(c)  # noqa: E731
    held = [i for i in range(len(M.COUNTRIES)) if state.inf[US][i] or state.inf[USSR][i]]
    return {
        "influence": {M.COUNTRIES[i].id: {"us": state.inf[US][i], "ussr": state.inf[USSR][i]} for i in held},
        "control": {M.COUNTRIES[i].id: roles[B.controller(state, i)] for i in held
                    if B.controller(state, i) != NOBODY},
        "discard": [name(c) for c in state.discard],
        "removed": [name(c) for c in state.removed],
        "effects": sorted(state.effects),
        "events_played": sorted(name(c) for c in state.events_played),
        "hand": [name(c) for c in state.hands[roles.index(role)]],
        "rules": G.rules_view(state.rules),
    }


def _check(state, role: str, history_from: int = 0) -> dict:
    view = GAME.view(state, role, history_from)
    expected = _expected(state, role)
    for key, value in expected.items():
        assert view[key] == value, key
    # map order, as the rules' country list
    assert list(view["influence"]) == list(expected["influence"])
    assert list(view["control"]) == list(expected["control"])
    return view


def _games(seeds, options=None):
    """Random matches advanced one decision at a time, interleaved (the boards of several
    matches in one process: what the kept boards must tell apart)."""
    rules = GAME.rules(None, options or {"end_turn": "10"})
    states = [GAME.new_state(rules) for _ in seeds]
    rngs = [random.Random(seed) for seed in seeds]
    live = list(range(len(seeds)))
    while live:
        for k in list(live):
            decision = GAME.decision(states[k])
            if decision is None:
                live.remove(k)
                continue
            yield states[k], decision
            GAME.apply(states[k], decision.options[rngs[k].randrange(len(decision.options))])


@pytest.mark.parametrize("seeds", [(1,), (2, 3), (4, 5, 6, 7, 8, 9)])
def test_views_match_the_rules_at_every_decision_of_interleaved_matches(seeds):
    checked = 0
    for state, decision in _games(seeds):
        if decision.role != "chance":
            for role in state.rules.roles:
                _check(state, role)
            checked += 1
    assert checked > 30 * len(seeds)


def test_views_are_fresh_data():
    for state, decision in _games((11,)):
        if decision.role == "chance" or state.turn < 2:
            continue
        first = GAME.view(state, decision.role)
        if not first["influence"] or not first["discard"]:
            continue
        # a bot scribbling on its view changes nothing of the next one
        for amounts in first["influence"].values():
            amounts["us"] += 7
        first["influence"]["nowhere"] = {"us": 1, "ussr": 1}
        first["control"].clear()
        for key in ("discard", "removed", "effects", "events_played", "hand"):
            first[key].append("scribble")
        first["rules"]["end_turn"] = 99
        _check(state, decision.role)
        return
    pytest.fail("no decision with influence and a discard pile")


def test_boards_far_apart_and_off_the_byte_range_are_computed_in_full():
    state = GAME.new_state(GAME.rules())
    GAME.decision(state)
    _check(state, "us")
    for i in range(0, len(M.COUNTRIES), 2):  # many countries changed at once
        state.inf[US][i] += 3
    _check(state, "us")
    state.inf[USSR][M.INDEX["poland"]] = 300  # a hand-made position: beyond a byte
    _check(state, "ussr")
    state.inf[USSR][M.INDEX["poland"]] = 0
    state.inf[US][M.INDEX["uk"]] = 0  # leaves the influence and control tables
    view = _check(state, "ussr")
    assert "uk" not in view["influence"] and "uk" not in view["control"]
    state.inf[USSR][M.INDEX["canada"]] = 9  # joins both, in map order
    view = _check(state, "us")
    assert view["control"]["canada"] == "ussr"


def test_kept_piles_follow_the_state_objects():
    state = GAME.new_state(GAME.rules())
    GAME.decision(state)
    cards = sorted(CARD_OPTIONS)[:5]
    state.discard = tuple(cards)
    assert GAME.view(state, "us")["discard"] == [G.card_name(c) for c in cards]
    state.discard = tuple(cards[:2])  # a new object, an equal-length prefix of the old
    assert GAME.view(state, "us")["discard"] == [G.card_name(c) for c in cards[:2]]
    state.removed = state.discard  # the same object in two piles
    view = GAME.view(state, "us")
    assert view["removed"] == view["discard"] and view["removed"] is not view["discard"]


def test_target_shortcuts_agree_with_their_definitions():
    checked = 0
    for state, decision in _games((21, 22, 23, 24, 25), {"end_turn": "10", "chinese_civil_war": "on"}):
        if decision.role == "chance":
            continue
        for side in (USSR, US):
            realign = O.realign_targets(state, side)
            coup = O.coup_targets(state, side)
            assert O.operation_uses(state, side) == (bool(realign), bool(coup))
            enemy = state.inf[1 - side]
            shielded = O.shielded(state, side)
            assert realign == [c for c in range(len(M.COUNTRIES))
                               if enemy[c] > 0 and c not in shielded and O.defcon_allows(state, c)]
        frame = state.stack[-1]
        if frame[0] == "influence":
            _, side, left, asia, sea, eligible = frame
            barred = O._union(O.H.PLACEMENT_BARS, state, side)
            keys = [o.key for o in decision.options if o.value != O.CIVIL_WAR]
            assert keys == [O.COUNTRY_OPTIONS[c].key for c in eligible if c not in barred
                            and O.influence_cost(state, side, c) <= O._usable(left, asia, sea, c)]
            checked += 1
    assert checked > 50


def test_mutable_piles_of_a_hand_made_state_are_not_kept():
    state = GAME.new_state(GAME.rules())
    GAME.decision(state)
    cards = sorted(CARD_OPTIONS)[:4]
    state.hands[US] = list(cards)  # not the engine's tuples: changed in place below
    assert GAME.view(state, "us")["hand"] == [G.card_name(c) for c in cards]
    state.hands[US].pop()
    assert GAME.view(state, "us")["hand"] == [G.card_name(c) for c in cards[:3]]
