"""Late War events #92-102 and the optional #109, #110 (events/late_war.py): a scenario per card
and branch, against cards.md §4/§5/§8/§11 and map.md §12 (#82-91 in test_late_war_82_91.py)."""

from __future__ import annotations

import random

from kits.ts_positions import (
    GAME, SIDE, card, country_keys, influence, keys, play, position, proves, run_event, spare_position,
    step, who,
)

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import EVENTS, event_playable, late_war
from standoff.server.games.twilight_struggle.events.primitives import CHOICES

US, USSR = SIDE["us"], SIDE["ussr"]
M = G.M


def pos(*, phasing: str = "ussr", hands=None, rounds: int = 2, **kw):
    """A Late War position (turn 8) with ``rounds`` action rounds pending, alternating from
    ``phasing``, so that a play stops at the next round rather than at the end of the turn."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["comecon"])
    hands.setdefault("us", ["truman_doctrine"])
    kw.setdefault("turn", 8)
    return position(phasing=phasing, hands=hands, rounds=rounds, **kw)


def spare_pos(**kw):
    """A turn-8 position with several action rounds pending and a spare card on each side (the
    kit's spare_position)."""
    return spare_position(turn=kw.pop("turn", 8), **kw)


def cards(*names: str) -> tuple[int, ...]:
    return tuple(sorted(card(n) for n in names))


def headline(state, side: int, name: str) -> None:
    """Resolve ``name`` as ``side``'s headline (the action rounds of ``state`` follow)."""
    state.headline = [0, 0]
    state.headline[side] = card(name)
    state.stack.append(("headline_resolve", side))
    state.pending = None


def test_events_steps_and_choices_are_wired():
    for n in range(92, 103):
        assert EVENTS[n].fn.__module__ == late_war.__name__ and EVENTS[n].fn.__doc__
    for s in late_war.STEPS:
        assert G.STEPS[s.name] is s
    for name in ("chernobyl", "latin_american_debt_crisis", "latin_american_debt_crisis_double",
                 "tear_down_this_wall", "aldrich_ames_remix", "iran_iraq_war"):
        assert CHOICES[name].__module__ == late_war.__name__


# -- #92 Terrorism -----------------------------------------------------------------------------------


@proves("terrorism")
def test_terrorism_by_the_ussr_one_random_us_discard_without_its_event():
    state = pos(hands={"ussr": ["terrorism"], "us": ["duck_and_cover", "chernobyl"]}, defcon=3)
    state.china = US
    play(state, "card:terrorism", "use:event")
    decision = GAME.decision(state)
    assert decision.role == "chance" and decision.step == "terrorism"
    assert keys(state) == ["card:duck_and_cover", "card:chernobyl"]  # never The China Card
    play(state, "card:duck_and_cover")
    assert state.hands[US] == cards("chernobyl")
    assert state.defcon == 3 and state.vp == 0  # Duck and Cover's event did not happen
    assert state.discard == cards("duck_and_cover") + cards("terrorism")  # not starred
    assert state.removed == () and state.china == US
    assert step(state) == "action_round" and who(state) == "us"
    # The discard is face up: both sides see which card went.
    for role in ("us", "ussr"):
        seen = [k for _, _, s, k in GAME.view(state, role)["history"] if s == "terrorism"]
        assert seen == ["card:duck_and_cover"]


@proves("terrorism")
def test_terrorism_by_the_us_the_ussr_discards_one():
    state = pos(phasing="us", hands={"us": ["terrorism"], "ussr": ["comecon", "five_year_plan"]})
    play(state, "card:terrorism", "use:event")
    assert keys(state) == ["card:five_year_plan", "card:comecon"]
    play(state, "card:five_year_plan")
    assert state.hands[USSR] == cards("comecon") and state.vp == 0
    assert state.discard == cards("five_year_plan") + cards("terrorism")
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("terrorism")
def test_terrorism_doubled_by_the_ussr_after_iranian_hostage_crisis():
    state = pos(hands={"ussr": ["terrorism"], "us": ["duck_and_cover", "chernobyl", "solidarity"]},
                effects=["iranian_hostage_crisis"])
    play(state, "card:terrorism", "use:event", "card:chernobyl")
    assert step(state) == "terrorism" and keys(state) == ["card:duck_and_cover", "card:solidarity"]
    play(state, "card:solidarity")
    assert state.hands[US] == cards("duck_and_cover")
    assert state.discard == (card("chernobyl"), card("solidarity"), card("terrorism"))
    assert step(state) == "action_round" and who(state) == "us"


@proves("terrorism")
def test_terrorism_by_the_us_after_iranian_hostage_crisis_still_one_card():
    state = pos(phasing="us", hands={"us": ["terrorism"], "ussr": ["comecon", "five_year_plan"]},
                effects=["iranian_hostage_crisis"])
    play(state, "card:terrorism", "use:event", "card:comecon")
    assert state.hands[USSR] == cards("five_year_plan")
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("terrorism")
def test_terrorism_doubled_but_one_card_left_and_empty_hand():
    state = pos(hands={"ussr": ["terrorism"], "us": ["chernobyl"]}, effects=["iranian_hostage_crisis"])
    state.china = US
    play(state, "card:terrorism", "use:event", "card:chernobyl")
    assert state.hands[US] == () and state.discard == (card("chernobyl"), card("terrorism"))
    assert step(state) == "action_round" and who(state) == "us"  # only The China Card left
    state = pos(hands={"ussr": ["terrorism"], "us": []})
    state.china = US
    play(state, "card:terrorism", "use:event")
    assert state.discard == cards("terrorism") and state.china == US
    assert step(state) == "action_round" and who(state) == "us"


@proves("terrorism")
def test_terrorism_takes_an_owed_missile_envy_and_its_obligation():
    state = pos(phasing="us", hands={"us": ["terrorism"], "ussr": ["missile_envy"]}, effects=["missile_envy:ussr"])
    play(state, "card:terrorism", "use:event", "card:missile_envy")
    assert state.hands[USSR] == () and "missile_envy:ussr" not in state.effects


# -- #93 Iran-Contra Scandal -------------------------------------------------------------------------


def _realign_angola(state):
    play(state, "card:solidarity", "use:realign", "country:angola", "die:4", "die:4")


@proves("iran_contra_scandal")
def test_iran_contra_us_realignment_rolls_minus_one_for_the_turn():
    state = pos(hands={"ussr": ["iran_contra_scandal"], "us": ["solidarity"]}, setup_influence=False,
                influence={"angola": (1, 1)})
    play(state, "card:iran_contra_scandal", "use:event")
    assert "iran_contra:turn" in state.effects and state.removed == cards("iran_contra_scandal")
    assert O.realign_modifier(state, US, M.INDEX["angola"]) == -1
    assert O.realign_modifier(state, USSR, M.INDEX["angola"]) == 0
    _realign_angola(state)  # US 4 - 1 = 3 against USSR 4: the US loses 1
    assert influence(state, "angola") == (0, 1)
    # Without it the same dice tie.
    state = pos(hands={"ussr": ["comecon"], "us": ["solidarity"]}, phasing="us", setup_influence=False,
                influence={"angola": (1, 1)})
    _realign_angola(state)
    assert influence(state, "angola") == (1, 1)


def test_iran_contra_leaves_us_coups_alone():
    state = pos(phasing="us", hands={"us": ["solidarity"]}, setup_influence=False, influence={"angola": (0, 1)},
                effects=["iran_contra:turn"])
    play(state, "card:solidarity", "use:coup", "country:angola", "die:1")  # 1 + 2 - 2 = 1
    assert influence(state, "angola") == (0, 0)


# -- #94 Chernobyl -----------------------------------------------------------------------------------


@proves("chernobyl")
def test_chernobyl_bars_ussr_influence_by_operations_in_the_named_region():
    state = pos(phasing="us", hands={"us": ["chernobyl"], "ussr": ["comecon"]}, setup_influence=False,
                influence={"cuba": (0, 1), "angola": (0, 1), "panama": (1, 0)})
    play(state, "card:chernobyl", "use:event")
    assert step(state) == "chernobyl" and who(state) == "us"
    assert keys(state) == ["choice:europe", "choice:middle_east", "choice:asia", "choice:africa",
                           "choice:central_america", "choice:south_america"]
    play(state, "choice:central_america")
    assert "chernobyl:Central America:turn" in state.effects and state.removed == cards("chernobyl")
    assert "use:coup" in keys(play(state, "card:comecon")) and "use:realign" in keys(state)
    play(state, "use:influence")
    offered = keys(state)
    central = {f"country:{M.COUNTRIES[c].id}" for c in M.REGION_COUNTRIES[M.CENTRAL_AMERICA]}
    assert not central & set(offered)
    assert "country:angola" in offered and "country:zaire" in offered and "country:poland" in offered


def test_chernobyl_europe_covers_both_sub_regions():
    state = pos(setup_influence=False, influence={"poland": (0, 1), "finland": (0, 1)},
                effects=["chernobyl:Europe:turn"])
    play(state, "card:comecon", "use:influence")
    europe = {f"country:{M.COUNTRIES[c].id}" for c in M.REGION_COUNTRIES[M.EUROPE]}
    assert not europe & set(keys(state))
    assert "country:afghanistan" in keys(state) and "country:north_korea" in keys(state)


def test_chernobyl_does_not_stop_events_nor_the_us():
    state = pos(setup_influence=False, effects=["chernobyl:Central America:turn"])
    run_event(state, "liberation_theology", "ussr", "country:cuba", "country:cuba", "country:nicaragua")
    assert influence(state, "cuba") == (0, 2) and influence(state, "nicaragua") == (0, 1)
    state = pos(phasing="us", hands={"us": ["solidarity"]}, setup_influence=False,
                effects=["chernobyl:Central America:turn"])
    play(state, "card:solidarity", "use:influence", "country:mexico", "country:mexico")
    assert influence(state, "mexico") == (2, 0)


@proves("chernobyl")
def test_chernobyl_ends_with_the_turn():
    state = pos(phasing="us", hands={"us": ["chernobyl"]}, rounds=1, end_turn=10)
    state.milops = [5, 5]
    play(state, "card:chernobyl", "use:event", "choice:africa")
    assert state.turn == 9 and not any(e.startswith("chernobyl") for e in state.effects)


# -- #95 Latin American Debt Crisis ------------------------------------------------------------------


@proves("latin_american_debt_crisis")
def test_debt_crisis_the_us_discards_a_three_ops_card_without_its_event():
    state = pos(hands={"ussr": ["latin_american_debt_crisis"], "us": ["chernobyl", "solidarity", "asia_scoring"]})
    state.china = US
    play(state, "card:latin_american_debt_crisis", "use:event")
    assert step(state) == "latin_american_debt_crisis" and who(state) == "us"
    assert keys(state) == ["choice:chernobyl", "choice:double_ussr_influence"]  # no China Card
    play(state, "choice:chernobyl")
    assert state.hands[US] == cards("solidarity", "asia_scoring")
    assert not any(e.startswith("chernobyl") for e in state.effects)
    assert state.discard == cards("chernobyl") + cards("latin_american_debt_crisis")  # not starred
    assert step(state) == "action_round" and who(state) == "us"


@proves("latin_american_debt_crisis")
def test_debt_crisis_threshold_after_containment_and_red_scare():
    state = pos(hands={"ussr": ["latin_american_debt_crisis"], "us": ["chernobyl", "solidarity"]},
                effects=["containment:turn"])
    play(state, "card:latin_american_debt_crisis", "use:event")
    assert keys(state) == ["choice:chernobyl", "choice:solidarity", "choice:double_ussr_influence"]
    play(state, "choice:solidarity")  # 2 + 1 = 3 Ops: qualifies
    assert state.hands[US] == cards("chernobyl")
    state = pos(hands={"ussr": ["latin_american_debt_crisis"], "us": ["chernobyl", "solidarity"]},
                effects=["red_scare:us:turn"])
    play(state, "card:latin_american_debt_crisis", "use:event")
    assert keys(state) == ["choice:double_ussr_influence"]  # Chernobyl is worth 2 now


@proves("latin_american_debt_crisis")
def test_debt_crisis_the_ussr_doubles_two_different_south_american_countries():
    state = pos(hands={"ussr": ["latin_american_debt_crisis"], "us": ["chernobyl"]}, setup_influence=False,
                influence={"brazil": (1, 2), "argentina": (0, 1), "cuba": (0, 3)})
    play(state, "card:latin_american_debt_crisis", "use:event", "choice:double_ussr_influence")
    assert step(state) == "latin_american_debt_crisis_double" and who(state) == "ussr"
    assert keys(state) == country_keys("brazil", "argentina")
    play(state, "country:brazil")
    assert influence(state, "brazil") == (1, 4)
    assert keys(state) == country_keys("argentina")  # distinct countries
    play(state, "country:argentina")
    assert influence(state, "argentina") == (0, 2) and influence(state, "cuba") == (0, 3)
    assert state.hands[US] == cards("chernobyl")
    assert step(state) == "action_round" and who(state) == "us"


@proves("latin_american_debt_crisis")
def test_debt_crisis_double_with_one_or_no_country():
    state = pos(hands={"ussr": ["latin_american_debt_crisis"], "us": []}, setup_influence=False,
                influence={"chile": (0, 3)})
    state.china = US
    play(state, "card:latin_american_debt_crisis", "use:event")
    assert keys(state) == ["choice:double_ussr_influence"]
    play(state, "choice:double_ussr_influence", "country:chile")
    assert influence(state, "chile") == (0, 6) and step(state) == "action_round"
    state = pos(hands={"ussr": ["latin_american_debt_crisis"], "us": []}, setup_influence=False)
    state.china = US
    play(state, "card:latin_american_debt_crisis", "use:event", "choice:double_ussr_influence")
    assert step(state) == "action_round" and who(state) == "us"


# -- interactions ----------------------------------------------------------------------------------------


@proves("latin_american_debt_crisis")
def test_debt_crisis_in_a_us_operations_play_the_us_still_chooses():
    state = pos(phasing="us", hands={"us": ["latin_american_debt_crisis", "chernobyl"]}, setup_influence=False,
                influence={"brazil": (0, 1)})
    play(state, "card:latin_american_debt_crisis", "use:influence:event_first")
    assert step(state) == "latin_american_debt_crisis" and who(state) == "us"
    play(state, "choice:chernobyl", "country:mexico", "country:mexico")
    assert state.hands[US] == () and influence(state, "mexico") == (2, 0)
    assert state.discard == (card("chernobyl"), card("latin_american_debt_crisis"))


# -- #96 "Tear Down This Wall" -----------------------------------------------------------------------


@proves("tear_down_this_wall")
def test_tear_down_this_wall_cancels_willy_brandt_nato_shields_west_germany_again():
    state = pos(phasing="us", hands={"us": ["tear_down_this_wall"]}, defcon=4,
                effects=["nato", "willy_brandt"], events_played=["warsaw_pact_formed", "nato", "willy_brandt"],
                influence={"west_germany": (5, 1)})
    wg = M.INDEX["west_germany"]
    assert not O.protected(state, USSR, wg)
    play(state, "card:tear_down_this_wall", "use:event")
    assert influence(state, "east_germany") == (3, 3)
    assert step(state) == "tear_down_this_wall" and who(state) == "us"
    play(state, "choice:neither")
    assert "willy_brandt" not in state.effects and O.protected(state, USSR, wg)
    assert not event_playable(state, card("willy_brandt"), USSR)
    assert state.removed == cards("tear_down_this_wall") and state.defcon == 4
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("tear_down_this_wall")
def test_tear_down_this_wall_free_coup_in_europe_at_defcon_four():
    state = pos(phasing="us", hands={"us": ["tear_down_this_wall"]}, defcon=4, setup_influence=False,
                influence={"east_germany": (0, 3), "poland": (0, 2), "angola": (0, 1)})
    play(state, "card:tear_down_this_wall", "use:event")
    assert keys(state) == ["choice:coup", "choice:realign", "choice:neither"]
    play(state, "choice:coup")
    assert keys(state) == country_keys("east_germany", "poland")  # Europe only, DEFCON ban ignored
    play(state, "country:east_germany", "die:6")  # 6 + 3 - 6 = 3
    assert influence(state, "east_germany") == (3, 0)
    assert state.defcon == 3  # a battleground coup still lowers DEFCON
    assert state.milops == [0, 0]  # free: no military ops
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("tear_down_this_wall")
def test_tear_down_this_wall_coup_uses_the_us_modifiers():
    state = pos(phasing="us", hands={"us": ["tear_down_this_wall"]}, defcon=4, setup_influence=False,
                influence={"east_germany": (0, 3)}, effects=["containment:turn"])
    play(state, "card:tear_down_this_wall", "use:event", "choice:coup", "country:east_germany", "die:6")
    assert influence(state, "east_germany") == (4, 0)  # 6 + 4 - 6 = 4


@proves("tear_down_this_wall")
def test_tear_down_this_wall_free_realignments_in_europe():
    state = pos(phasing="us", hands={"us": ["tear_down_this_wall"]}, defcon=4, setup_influence=False,
                influence={"east_germany": (0, 3), "poland": (0, 2)})
    play(state, "card:tear_down_this_wall", "use:event", "choice:realign")
    assert keys(state) == country_keys("east_germany", "poland") + ["done"]
    # Poland: US +0; USSR +1 (more influence) +1 (next to the USSR) → 6 against 1 + 2 = 3
    play(state, "country:poland", "die:6", "die:1")
    assert influence(state, "poland") == (0, 0)
    assert keys(state) == country_keys("east_germany") + ["done"]
    play(state, "done")
    assert state.defcon == 4 and step(state) == "action_round"


def test_tear_down_this_wall_no_target_only_neither():
    state = pos(phasing="us", hands={"us": ["tear_down_this_wall"]}, defcon=4, setup_influence=False,
                influence={"angola": (0, 1)})
    play(state, "card:tear_down_this_wall", "use:event")
    assert influence(state, "east_germany") == (3, 0)
    assert keys(state) == ["choice:neither"]


@proves("tear_down_this_wall")
def test_tear_down_this_wall_battleground_coup_at_defcon_two_loses_for_the_us():
    state = pos(phasing="us", hands={"us": ["tear_down_this_wall"]}, defcon=2, setup_influence=False,
                influence={"east_germany": (0, 3)})
    play(state, "card:tear_down_this_wall", "use:event", "choice:coup", "country:east_germany", "die:1")
    assert state.defcon == 1
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.DEFCON_1


# -- #97 "An Evil Empire" ----------------------------------------------------------------------------


@proves("an_evil_empire")
def test_an_evil_empire_cancels_flower_power():
    state = pos(phasing="us", hands={"us": ["an_evil_empire", "iran_iraq_war"]}, effects=["flower_power"],
                events_played=["flower_power"], setup_influence=False)
    play(state, "card:an_evil_empire", "use:event")
    assert state.vp == 1 and "flower_power" not in state.effects
    assert state.removed == cards("an_evil_empire")
    assert not event_playable(state, card("flower_power"), USSR)
    # A later US war card (event) gives the USSR nothing.
    run_event(state, "iran_iraq_war", "us", "choice:iran", "die:1")
    assert state.vp == 1 and state.milops == [0, 2]


def test_flower_power_still_scores_without_an_evil_empire():
    state = pos(phasing="us", hands={"us": ["iran_iraq_war"]}, effects=["flower_power"], setup_influence=False)
    play(state, "card:iran_iraq_war", "use:event", "choice:iran", "die:1")
    assert state.vp == -2
    state = pos(phasing="us", hands={"us": ["iran_iraq_war"]}, effects=["flower_power"], setup_influence=False,
                events_played=["an_evil_empire"])
    play(state, "card:iran_iraq_war", "use:influence", "country:mexico", "country:mexico")
    assert state.vp == 0  # nor for Operations


# -- #98 Aldrich Ames Remix ---------------------------------------------------------------------------


@proves("aldrich_ames_remix")
def test_aldrich_ames_opens_the_us_hand_to_the_ussr_and_discards_one_without_event():
    state = pos(hands={"ussr": ["aldrich_ames_remix", "comecon"],
                       "us": ["duck_and_cover", "chernobyl", "asia_scoring"]}, defcon=3)
    state.china = US
    assert GAME.view(state, "ussr")["opponent_hand"] == []
    play(state, "card:aldrich_ames_remix", "use:event")
    assert "aldrich_ames:turn" in state.effects
    assert step(state) == "aldrich_ames_remix" and who(state) == "ussr"
    assert keys(state) == ["choice:asia_scoring", "choice:duck_and_cover", "choice:chernobyl"]  # no China Card
    assert GAME.view(state, "ussr")["opponent_hand"] == ["asia_scoring", "duck_and_cover", "chernobyl"]
    assert GAME.view(state, "us")["opponent_hand"] == []  # the USSR hand stays closed
    play(state, "choice:duck_and_cover")
    assert state.defcon == 3 and state.vp == 0  # its event did not happen
    assert state.hands[US] == cards("asia_scoring", "chernobyl")
    assert state.discard == cards("duck_and_cover") and state.removed == cards("aldrich_ames_remix")
    assert GAME.view(state, "ussr")["opponent_hand"] == ["asia_scoring", "chernobyl"]
    # The USSR's determinization keeps the open US hand.
    seen = GAME.determinize(state, "ussr", random.Random(1))
    assert seen.hands[US] == state.hands[US]
    assert step(state) == "action_round" and who(state) == "us"


@proves("aldrich_ames_remix")
def test_aldrich_ames_discarded_scoring_card_does_not_score():
    state = pos(hands={"ussr": ["aldrich_ames_remix"], "us": ["asia_scoring"]})
    state.china = US
    play(state, "card:aldrich_ames_remix", "use:event", "choice:asia_scoring")
    assert state.vp == 0 and state.hands[US] == () and state.discard == cards("asia_scoring")


@proves("aldrich_ames_remix")
def test_aldrich_ames_hand_closes_at_the_end_of_the_turn():
    state = pos(hands={"ussr": ["aldrich_ames_remix"], "us": ["chernobyl", "solidarity"]}, rounds=1, end_turn=10)
    state.milops = [5, 5]
    play(state, "card:aldrich_ames_remix", "use:event", "choice:chernobyl")
    assert state.turn == 9 and "aldrich_ames:turn" not in state.effects
    assert GAME.view(state, "ussr")["opponent_hand"] == []


# -- #99 Pershing II Deployed -------------------------------------------------------------------------


@proves("pershing_ii_deployed")
def test_pershing_ii_one_vp_and_three_different_western_european_countries():
    state = pos(hands={"ussr": ["pershing_ii_deployed"]}, setup_influence=False,
                influence={"uk": (5, 0), "france": (2, 0), "italy": (1, 0), "west_germany": (3, 0),
                           "poland": (2, 0)})
    play(state, "card:pershing_ii_deployed", "use:event")
    assert state.vp == -1
    assert keys(state) == country_keys("uk", "france", "west_germany", "italy") + ["done"]  # not Poland
    play(state, "country:uk")
    assert "country:uk" not in keys(state)
    play(state, "country:france", "country:italy")
    assert [influence(state, c) for c in ("uk", "france", "italy", "west_germany", "poland")] == [
        (4, 0), (1, 0), (0, 0), (3, 0), (2, 0)]
    assert state.removed == cards("pershing_ii_deployed")
    assert step(state) == "action_round" and who(state) == "us"


@proves("pershing_ii_deployed")
def test_pershing_ii_up_to_three():
    state = pos(hands={"ussr": ["pershing_ii_deployed"]}, setup_influence=False,
                influence={"uk": (5, 0), "france": (2, 0)})
    play(state, "card:pershing_ii_deployed", "use:event", "country:france", "done")
    assert influence(state, "france") == (1, 0) and influence(state, "uk") == (5, 0)
    assert state.vp == -1 and step(state) == "action_round"


# -- #100 Wargames ---------------------------------------------------------------------------------------


@proves("wargames")
def test_wargames_at_defcon_two_the_opponent_gets_six_and_the_game_ends():
    state = pos(hands={"ussr": ["wargames"]}, defcon=2, vp=1)
    play(state, "card:wargames", "use:event")
    assert state.vp == 7
    assert state.outcome.winner == "us" and state.outcome.termination == B.WARGAMES
    assert GAME.decision(state) is None


@proves("wargames")
def test_wargames_played_by_the_us_behind_wins_for_the_ussr_no_vp_20_check():
    state = pos(phasing="us", hands={"us": ["wargames"]}, defcon=2, vp=-15)
    play(state, "card:wargames", "use:event")
    assert state.vp == -21
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.WARGAMES


@proves("wargames")
def test_wargames_level_is_a_draw_no_final_scoring_no_china_card_vp():
    state = pos(hands={"ussr": ["wargames"]}, defcon=2, vp=-6)  # set-up influence: final scoring would move VP
    assert state.china == USSR
    play(state, "card:wargames", "use:event")
    assert state.vp == 0
    assert state.outcome.winner is None and state.outcome.scores == (0.5, 0.5)
    assert state.outcome.termination == B.WARGAMES


def test_wargames_unplayable_at_defcon_three_discarded_not_removed():
    state = pos(hands={"ussr": ["wargames"]}, defcon=3)
    play(state, "card:wargames")
    assert "use:event" not in keys(state) and "use:influence" in keys(state)
    assert not event_playable(state, card("wargames"), USSR)
    # Headlined at DEFCON 3: no event, the card is discarded.
    state = pos(hands={"ussr": ["comecon"]}, defcon=3)
    state.headline = [card("wargames"), 0]
    state.stack.append(("headline_resolve", USSR))
    state.pending = None
    assert step(state) == "action_round"
    assert state.outcome is None and state.vp == 0
    assert state.discard == cards("wargames") and state.removed == ()


@proves("wargames")
def test_wargames_headlined_at_defcon_two_ends_the_game():
    state = pos(hands={"ussr": ["comecon"]}, defcon=2, vp=-7)
    state.headline = [card("wargames"), 0]
    state.stack.append(("headline_resolve", USSR))
    state.pending = None
    assert GAME.decision(state) is None
    assert state.vp == -1 and state.outcome.winner == "ussr" and state.outcome.termination == B.WARGAMES


# -- #101 Solidarity -------------------------------------------------------------------------------------


@proves("solidarity")
def test_solidarity_after_john_paul_ii():
    state = pos(phasing="us", hands={"us": ["solidarity"]}, events_played=["john_paul_ii_elected_pope"],
                influence={"poland": (1, 2)})
    play(state, "card:solidarity", "use:event")
    assert influence(state, "poland") == (4, 2)
    assert state.removed == cards("solidarity") and step(state) == "action_round"


def test_solidarity_without_john_paul_ii_is_unplayable_and_discarded():
    state = pos(phasing="us", hands={"us": ["solidarity"]}, influence={"poland": (1, 2)})
    play(state, "card:solidarity")
    assert "use:event" not in keys(state)
    state = pos(phasing="us", hands={"us": ["truman_doctrine"]}, influence={"poland": (1, 2)})
    state.headline = [0, card("solidarity")]
    state.stack.append(("headline_resolve", US))
    state.pending = None
    assert step(state) == "action_round"
    assert influence(state, "poland") == (1, 2)
    assert state.discard == cards("solidarity") and state.removed == ()


# -- #102 Iran-Iraq War ----------------------------------------------------------------------------------


@proves("iran_iraq_war")
def test_iran_iraq_war_ussr_attacks_iran_and_wins():
    state = pos(hands={"ussr": ["iran_iraq_war"]}, setup_influence=False,
                influence={"iran": (2, 1), "pakistan": (2, 0), "afghanistan": (0, 0)})
    play(state, "card:iran_iraq_war", "use:event")
    assert step(state) == "iran_iraq_war" and who(state) == "ussr"
    assert keys(state) == ["choice:iran", "choice:iraq"]
    play(state, "choice:iran", "die:5")  # 5 - 1 (US Pakistan) = 4: won
    assert influence(state, "iran") == (0, 3) and state.vp == -2 and state.milops == [2, 0]
    assert state.removed == cards("iran_iraq_war")
    assert step(state) == "action_round" and who(state) == "us"


@proves("iran_iraq_war")
def test_iran_iraq_war_ussr_attacks_iran_and_loses():
    state = pos(hands={"ussr": ["iran_iraq_war"]}, setup_influence=False,
                influence={"iran": (2, 1), "pakistan": (2, 0)})
    play(state, "card:iran_iraq_war", "use:event", "choice:iran", "die:4")  # 4 - 1 = 3: lost
    assert influence(state, "iran") == (2, 1) and state.vp == 0 and state.milops == [2, 0]
    assert state.removed == cards("iran_iraq_war")  # the event happened: starred card removed


@proves("iran_iraq_war")
def test_iran_iraq_war_us_attacks_iraq():
    influence_ = {"iraq": (1, 3), "saudi_arabia": (0, 3), "jordan": (0, 2), "gulf_states": (0, 1), "iran": (2, 0)}
    state = pos(phasing="us", hands={"us": ["iran_iraq_war"]}, setup_influence=False, influence=influence_)
    play(state, "card:iran_iraq_war", "use:event", "choice:iraq", "die:6")  # 6 - 2 = 4: won
    assert influence(state, "iraq") == (4, 0) and state.vp == 2 and state.milops == [0, 2]
    state = pos(phasing="us", hands={"us": ["iran_iraq_war"]}, setup_influence=False, influence=influence_)
    play(state, "card:iran_iraq_war", "use:event", "choice:iraq", "die:5")  # 5 - 2 = 3: lost
    assert influence(state, "iraq") == (1, 3) and state.vp == 0 and state.milops == [0, 2]


# -- #109 Yuri and Samantha -----------------------------------------------------------------------------


@proves("yuri_and_samantha")
def test_yuri_and_samantha_one_vp_per_us_coup_this_turn():
    state = spare_pos(hands={"ussr": ["yuri_and_samantha", "fidel", "comecon"], "us": ["nato", "containment"]},
                      influence={"syria": (0, 2)}, rounds=5)
    play(state, "card:yuri_and_samantha", "use:event")
    assert "yuri_and_samantha:turn" in state.effects
    assert state.removed == (card("yuri_and_samantha"),)
    play(state, "card:containment", "use:coup", "country:syria", "die:1")  # 1 + 3 − 4: fails, still counts
    assert state.vp == -1 and influence(state, "syria") == (0, 2)
    play(state, "card:fidel", "use:realign", "done")
    play(state, "card:nato", "use:coup", "country:syria", "die:6")  # 6 + 4 − 4 = 6
    assert state.vp == -2
    assert influence(state, "syria") == (4, 0) and state.defcon == 5  # not a battleground
    assert state.milops[US] == 5


def test_yuri_and_samantha_ends_with_the_turn():
    state = spare_pos(rounds=0, effects=["yuri_and_samantha:turn"], end_turn=10)
    state.milops = [5, 5]
    GAME.decision(state)
    assert "yuri_and_samantha:turn" not in state.effects


# -- #110 AWACS Sale to Saudis ------------------------------------------------------------------------


@proves("awacs_sale_to_saudis")
def test_awacs_sale_to_saudis_and_muslim_revolution_blocked():
    state = spare_pos(phasing="us", hands={"us": ["awacs_sale_to_saudis", "nato"], "ussr": ["muslim_revolution", "fidel"]},
                      influence={"saudi_arabia": (0, 2)})
    assert event_playable(state, card("muslim_revolution"), USSR)
    play(state, "card:awacs_sale_to_saudis", "use:event")
    assert influence(state, "saudi_arabia") == (2, 2)
    assert state.removed == (card("awacs_sale_to_saudis"),)
    assert not event_playable(state, card("muslim_revolution"), USSR)
    assert step(state) == "action_round" and who(state) == "ussr"
    play(state, "card:muslim_revolution")
    assert "use:event" not in keys(state)
    state = spare_pos(events_played=["awacs_sale_to_saudis"], influence={"iran": (2, 0)})
    headline(state, USSR, "muslim_revolution")
    assert step(state) == "action_round" and influence(state, "iran") == (2, 0)
    assert state.discard == (card("muslim_revolution"),) and state.removed == ()
