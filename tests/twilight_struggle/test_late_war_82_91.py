"""Late War events #82-91 (events/late_war.py): a scenario per card and branch, against
cards.md §4/§5/§6/§8 (#92-110 in test_late_war_92_110.py)."""

from __future__ import annotations

import pytest
from kits.ts_positions import (
    GAME, SIDE, card, influence, keys, play, proves, run_event, spare_position, step, who,
)

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import EVENTS, event_playable, late_war
from standoff.server.games.twilight_struggle.events.primitives import CHOICES

US, USSR = SIDE["us"], SIDE["ussr"]
EUROPE = M.REGION_COUNTRIES[M.EUROPE]


def pos(**kw):
    return spare_position(turn=kw.pop("turn", 8), **kw)


def cards(*names: str) -> tuple[int, ...]:
    return tuple(card(n) for n in names)


def headline(state, side: int, name: str) -> None:
    """Resolve ``name`` as ``side``'s headline (the action rounds of ``state`` follow)."""
    state.headline = [0, 0]
    state.headline[side] = card(name)
    state.stack.append(("headline_resolve", side))
    state.pending = None


def test_events_and_choices_are_registered_here():
    numbers = (82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 109, 110)
    for n in numbers:
        assert EVENTS[n].fn.__module__ == late_war.__name__
        assert EVENTS[n].fn.__doc__ and "\n" not in EVENTS[n].fn.__doc__.strip()
    for name in ("star_wars", "kal_007_ops", "glasnost_ops", "ortega_elected_in_nicaragua"):
        assert CHOICES[name].__module__ == late_war.__name__


# -- #82 Iranian Hostage Crisis ---------------------------------------------------------------------


@proves("iranian_hostage_crisis")
def test_iranian_hostage_crisis_clears_iran_and_sets_the_lasting_effect():
    state = pos(hands={"ussr": ["iranian_hostage_crisis", "fidel"]}, influence={"iran": (2, 1)})
    play(state, "card:iranian_hostage_crisis", "use:event")
    assert influence(state, "iran") == (0, 3)
    assert "iranian_hostage_crisis" in state.effects  # read by Terrorism (#92)
    assert state.removed == (card("iranian_hostage_crisis"),)
    assert step(state) == "action_round" and who(state) == "us"


@proves("iranian_hostage_crisis")
def test_iranian_hostage_crisis_fired_by_a_us_ops_play_is_carried_out_by_the_ussr():
    state = pos(phasing="us", hands={"us": ["iranian_hostage_crisis", "nato"]})
    play(state, "card:iranian_hostage_crisis", "use:influence:event_first")
    assert influence(state, "iran") == (0, 2) and "iranian_hostage_crisis" in state.effects
    play(state, "country:japan", "country:japan", "country:japan")
    assert influence(state, "japan") == (4, 0)
    assert state.removed == (card("iranian_hostage_crisis"),)


def _settle_chance(state) -> None:
    """Answer pending chance decisions with their first option."""
    while (decision := GAME.decision(state)) is not None and decision.role == "chance":
        GAME.apply(state, decision.options[0])


@proves("iranian_hostage_crisis", "terrorism")
def test_terrorism_played_by_the_ussr_after_iranian_hostage_crisis_costs_the_us_two_cards():
    state = pos(hands={"ussr": ["terrorism", "fidel"], "us": ["nato", "containment", "duck_and_cover"]})
    run_event(state, "iranian_hostage_crisis", "ussr")
    assert "iranian_hostage_crisis" in state.effects
    play(state, "card:terrorism", "use:event")
    _settle_chance(state)
    assert len(state.hands[US]) == 1 and len(state.discard) == 3  # 2 US cards and Terrorism
    assert step(state) == "action_round" and who(state) == "us"


@proves("terrorism")
def test_terrorism_played_by_the_us_after_iranian_hostage_crisis_still_costs_one_card():
    state = pos(phasing="us", hands={"us": ["terrorism", "nato"], "ussr": ["fidel", "comecon", "blockade"]},
                effects=["iranian_hostage_crisis"])
    play(state, "card:terrorism", "use:event")
    _settle_chance(state)
    assert len(state.hands[USSR]) == 2
    assert step(state) == "action_round" and who(state) == "ussr"


# -- #83 The Iron Lady --------------------------------------------------------------------------------


@proves("the_iron_lady")
def test_the_iron_lady_vp_argentina_uk_and_socialist_governments_blocked():
    state = pos(phasing="us", hands={"us": ["the_iron_lady", "nato"], "ussr": ["socialist_governments", "fidel"]},
                vp=-3, influence={"uk": (5, 2), "argentina": (1, 0)})
    assert event_playable(state, card("socialist_governments"), USSR)
    play(state, "card:the_iron_lady", "use:event")
    assert state.vp == -2
    assert influence(state, "argentina") == (1, 1)
    assert influence(state, "uk") == (5, 0)
    assert state.removed == (card("the_iron_lady"),)
    assert not event_playable(state, card("socialist_governments"), USSR)
    assert step(state) == "action_round" and who(state) == "ussr"
    play(state, "card:socialist_governments")
    options = keys(state)
    assert "use:event" not in options and "use:influence" in options


def test_socialist_governments_headlined_after_the_iron_lady_is_discarded_without_effect():
    state = pos(events_played=["the_iron_lady"], influence={"france": (2, 0), "italy": (2, 0)})
    headline(state, USSR, "socialist_governments")
    assert step(state) == "action_round"  # no removal decision
    assert influence(state, "france") == (2, 0) and influence(state, "italy") == (2, 0)
    assert state.discard == (card("socialist_governments"),) and state.removed == ()


@proves("the_iron_lady")
def test_the_iron_lady_fired_by_a_ussr_ops_play_gives_no_access_from_argentina_that_round():
    state = pos(hands={"ussr": ["the_iron_lady", "fidel"]}, vp=0)
    play(state, "card:the_iron_lady", "use:influence:event_first")
    assert influence(state, "argentina") == (0, 1) and state.vp == 1
    options = keys(state)
    assert step(state) == "influence" and who(state) == "ussr"
    # Placement eligibility was fixed at the start of the play (cards.md §4 note).
    assert "country:argentina" not in options and "country:chile" not in options
    assert "country:syria" in options


# -- #84 Reagan Bombs Libya ---------------------------------------------------------------------------


@proves("reagan_bombs_libya")
@pytest.mark.parametrize(("libya", "vp"), [(0, 0), (3, 1), (5, 2)])
def test_reagan_bombs_libya_one_vp_per_two_ussr_influence(libya, vp):
    state = pos(phasing="us", hands={"us": ["reagan_bombs_libya", "nato"]}, vp=1, influence={"libya": (0, libya)})
    play(state, "card:reagan_bombs_libya", "use:event")
    assert state.vp == 1 + vp
    assert influence(state, "libya") == (0, libya)
    assert state.removed == (card("reagan_bombs_libya"),)  # played even with no effect (§5.2)


# -- #85 Star Wars ----------------------------------------------------------------------------------------


@proves("star_wars")
def test_star_wars_ahead_picks_a_non_scoring_discard_whose_event_happens_now():
    state = pos(phasing="us", hands={"us": ["star_wars", "nato"]})
    state.space = [1, 2]
    state.discard = cards("asia_scoring", "fidel", "duck_and_cover")
    play(state, "card:star_wars", "use:event")
    assert step(state) == "star_wars" and who(state) == "us"
    assert keys(state) == ["choice:duck_and_cover", "choice:fidel"]  # no scoring card
    play(state, "choice:duck_and_cover")
    assert state.defcon == 4 and state.vp == 1
    assert state.discard == cards("asia_scoring", "fidel", "duck_and_cover")  # not starred: back to the pile
    assert state.removed == (card("star_wars"),)
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("star_wars")
def test_star_wars_picking_a_ussr_card_the_ussr_carries_out_its_event():
    state = pos(phasing="us", hands={"us": ["star_wars", "nato"]}, influence={"cuba": (1, 0)})
    state.space = [3, 4]
    state.discard = cards("fidel", "socialist_governments")
    play(state, "card:star_wars", "use:event", "choice:fidel")
    assert influence(state, "cuba") == (0, 3)
    assert state.removed == cards("fidel", "star_wars")  # the starred pick is removed
    assert state.discard == cards("socialist_governments")
    # A USSR event needing choices: the USSR makes them.
    state = pos(phasing="us", hands={"us": ["star_wars", "nato"]}, influence={"france": (2, 0), "italy": (1, 0)})
    state.space = [0, 1]
    state.discard = cards("socialist_governments")
    play(state, "card:star_wars", "use:event", "choice:socialist_governments")
    assert step(state) == "event_remove" and who(state) == "ussr"
    play(state, "country:france", "country:france", "country:italy")
    assert influence(state, "france") == (0, 0) and influence(state, "italy") == (0, 0)
    assert state.discard == cards("socialist_governments") and state.removed == cards("star_wars")


@proves("star_wars")
def test_star_wars_pick_with_an_unplayable_event_does_nothing_and_is_discarded():
    state = pos(phasing="us", hands={"us": ["star_wars", "nato"]})
    state.space = [0, 1]
    state.discard = cards("arab_israeli_war")
    state.events_played = frozenset({card("camp_david_accords")})
    play(state, "card:star_wars", "use:event", "choice:arab_israeli_war")
    assert step(state) == "action_round" and state.milops == [0, 0]
    assert state.discard == cards("arab_israeli_war") and state.removed == cards("star_wars")


@pytest.mark.parametrize("space", [(0, 0), (3, 3), (4, 2)])
def test_star_wars_not_strictly_ahead_is_unplayable_and_discarded_not_removed(space):
    ussr_box, us_box = space
    state = pos(phasing="us", hands={"us": ["star_wars", "nato"]})
    state.space = [ussr_box, us_box]
    state.discard = cards("containment")
    assert not event_playable(state, card("star_wars"), US)
    play(state, "card:star_wars")
    assert "use:event" not in keys(state)
    state = pos(phasing="us")
    state.space = [ussr_box, us_box]
    state.discard = cards("containment")
    headline(state, US, "star_wars")
    assert step(state) == "action_round"  # no pick
    assert state.discard == cards("containment", "star_wars") and state.removed == ()
    assert "containment:turn" not in state.effects


@proves("star_wars")
def test_star_wars_with_only_scoring_cards_discarded_happens_without_effect():
    state = pos(phasing="us", hands={"us": ["star_wars", "nato"]})
    state.space = [0, 1]
    state.discard = cards("europe_scoring")
    play(state, "card:star_wars", "use:event")
    assert step(state) == "action_round"
    assert state.discard == cards("europe_scoring") and state.removed == cards("star_wars")


# -- #86 North Sea Oil --------------------------------------------------------------------------------


def _late_rounds(state, *frames) -> None:
    state.stack = [("end_turn",), *frames]
    state.pending = None


@proves("north_sea_oil")
def test_north_sea_oil_in_an_action_round_gives_the_us_an_eighth_round_after_everyone_else():
    state = pos(phasing="us", hands={"us": ["north_sea_oil", "nato", "containment"], "ussr": ["fidel"]})
    _late_rounds(state, ("action_round", 7, US), ("action_round", 7, USSR), ("action_round", 6, US))
    assert event_playable(state, card("opec"), USSR)
    play(state, "card:north_sea_oil", "use:event")
    assert state.stack[:2] == [("end_turn",), ("action_round", 8, US)]
    assert not event_playable(state, card("opec"), USSR)  # OPEC blocked for the rest of the game
    assert state.removed == (card("north_sea_oil"),)
    assert step(state) == "action_round" and who(state) == "ussr" and state.ar == 7
    play(state, "card:fidel", "use:realign", "done")
    assert step(state) == "action_round" and who(state) == "us" and state.ar == 7
    play(state, "card:nato", "use:realign", "done")
    # North Sea Oil's round is the US's to take or decline ("may take an 8th action round")
    assert step(state) == "extra_action_round" and who(state) == "us" and keys(state) == ["choice:accept", "pass"]
    play(state, "choice:accept")
    assert step(state) == "action_round" and who(state) == "us" and state.ar == 8
    assert [o for o in keys(state)] == ["card:containment"]


def test_north_sea_oil_round_comes_after_a_ussr_space_station_round():
    state = pos(phasing="us", hands={"us": ["north_sea_oil", "nato"]})
    _late_rounds(state, ("action_round", 8, USSR), ("action_round", 7, US), ("action_round", 7, USSR),
                 ("action_round", 6, US))
    play(state, "card:north_sea_oil", "use:event")
    assert state.stack[:3] == [("end_turn",), ("action_round", 8, US), ("action_round", 8, USSR)]


@proves("north_sea_oil")
def test_north_sea_oil_fired_by_a_ussr_ops_play_still_gives_the_us_its_round():
    state = pos(hands={"ussr": ["north_sea_oil", "fidel"]})
    _late_rounds(state, ("action_round", 7, US), ("action_round", 7, USSR))
    play(state, "card:north_sea_oil", "use:realign:event_first", "done")
    assert state.stack[:2] == [("end_turn",), ("action_round", 8, US)]
    assert state.removed == (card("north_sea_oil"),)


def test_north_sea_oil_does_not_stack_with_the_us_space_station_round():
    state = pos(phasing="us", hands={"us": ["north_sea_oil", "nato"]})
    state.space = [0, 8]
    _late_rounds(state, ("action_round", 8, US), ("action_round", 7, US), ("action_round", 7, USSR),
                 ("action_round", 6, US))
    play(state, "card:north_sea_oil", "use:event")
    assert sum(1 for f in state.stack if f[0] == "action_round" and f[1] == 8) == 1
    # Played in that Space Station round itself: nothing more either.
    state = pos(phasing="us", hands={"us": ["north_sea_oil", "nato"]})
    state.space = [0, 8]
    _late_rounds(state, ("action_round", 8, US))
    play(state, "choice:accept")  # the Space Station round, taken
    play(state, "card:north_sea_oil", "use:event")
    assert not any(f[0] == "action_round" for f in state.stack)
    assert step(state) == "space_discard"  # the end of the turn (box 6's discard) has begun


@proves("north_sea_oil")
def test_north_sea_oil_headlined_adds_the_round_when_the_action_rounds_start():
    state = pos(phasing="us")
    _late_rounds(state, ("action_rounds",))
    headline(state, US, "north_sea_oil")
    assert step(state) == "action_round" and who(state) == "ussr" and state.ar == 1
    assert "north_sea_oil:turn" in state.effects
    assert state.stack[:3] == [("end_turn",), ("action_round", 8, US), ("action_round", 7, US)]
    assert sum(1 for f in state.stack if f[0] == "action_round") == 15
    assert state.removed == (card("north_sea_oil"),)


def test_north_sea_oil_headlined_with_the_us_space_station_gives_one_eighth_round():
    state = pos(phasing="us")
    state.space = [2, 8]
    _late_rounds(state, ("action_rounds",))
    headline(state, US, "north_sea_oil")
    assert step(state) == "action_round"
    assert [f for f in state.stack if f[0] == "action_round" and f[1] == 8] == [("action_round", 8, US)]


# -- #87 The Reformer ---------------------------------------------------------------------------------


@proves("the_reformer")
@pytest.mark.parametrize(("vp", "count"), [(-1, 6), (0, 4), (3, 4)])
def test_the_reformer_four_or_six_in_europe_two_per_country(vp, count):
    state = pos(hands={"ussr": ["the_reformer", "fidel"]}, vp=vp)
    play(state, "card:the_reformer", "use:event")
    assert step(state) == "event_place" and who(state) == "ussr"
    assert sorted(keys(state)) == sorted(f"country:{M.COUNTRIES[c].id}" for c in EUROPE)
    play(state, "country:poland", "country:poland")
    assert "country:poland" not in keys(state)
    play(state, *["country:italy", "country:italy", "country:france", "country:france"][: count - 2])
    assert step(state) == "action_round" and who(state) == "us"
    assert sum(state.inf[USSR][c] for c in EUROPE) == 4 + count  # Finland 1 and East Germany 3 before
    assert influence(state, "poland") == (0, 2)
    assert "the_reformer" in state.effects
    assert state.removed == (card("the_reformer"),)


@proves("the_reformer")
def test_the_reformer_bars_ussr_coups_in_europe_but_not_realignments():
    state = pos(influence={"italy": (1, 1), "syria": (1, 1)})
    italy = M.INDEX["italy"]
    assert italy in O.coup_targets(state, USSR)
    run_event(state, "the_reformer", "ussr", *["country:poland"] * 2, *["country:hungary"] * 2)
    assert "the_reformer" in state.effects
    targets = O.coup_targets(state, USSR)
    assert not set(targets) & set(EUROPE) and M.INDEX["syria"] in targets
    assert not set(O.coup_targets(state, USSR, free=True)) & set(EUROPE)  # free coups too
    assert italy in O.realign_targets(state, USSR)  # realignments stay allowed
    assert italy in O.coup_targets(state, US)  # the US is not restricted


@proves("the_reformer")
def test_the_reformer_then_glasnost_grants_its_four_ops():
    state = pos(hands={"ussr": ["the_reformer", "glasnost"]}, defcon=3, rounds=3)
    play(state, "card:the_reformer", "use:event", *["country:poland"] * 2, *["country:hungary"] * 2)
    play(state, "card:truman_doctrine", "use:realign", "done")  # the US round
    play(state, "card:glasnost", "use:event")
    assert step(state) == "glasnost_ops" and who(state) == "ussr"
    assert state.vp == -2 and state.defcon == 4


# -- #88 Marine Barracks Bombing ---------------------------------------------------------------------


@proves("marine_barracks_bombing")
def test_marine_barracks_bombing_clears_lebanon_then_two_more_in_the_middle_east():
    state = pos(hands={"ussr": ["marine_barracks_bombing", "fidel"]},
                influence={"lebanon": (2, 0), "saudi_arabia": (2, 0), "egypt": (0, 1)})
    play(state, "card:marine_barracks_bombing", "use:event")
    assert influence(state, "lebanon") == (0, 0)
    assert step(state) == "event_remove" and who(state) == "ussr"
    assert sorted(keys(state)) == sorted(["country:israel", "country:iran", "country:saudi_arabia"])
    play(state, "country:saudi_arabia", "country:israel")  # split
    assert influence(state, "saudi_arabia") == (1, 0) and influence(state, "israel") == (0, 0)
    assert influence(state, "iran") == (1, 0)
    assert step(state) == "action_round" and who(state) == "us"
    assert state.removed == (card("marine_barracks_bombing"),)


@proves("marine_barracks_bombing")
def test_marine_barracks_bombing_both_from_one_country_or_what_is_left():
    state = pos(influence={"lebanon": (1, 0), "israel": (0, 0), "iran": (3, 0)})
    run_event(state, "marine_barracks_bombing", "ussr", "country:iran", "country:iran")
    assert influence(state, "iran") == (1, 0) and step(state) == "action_round"
    state = pos(influence={"lebanon": (3, 0), "israel": (0, 0), "iran": (1, 0)})
    run_event(state, "marine_barracks_bombing", "ussr", "country:iran")
    assert influence(state, "iran") == (0, 0) and influence(state, "lebanon") == (0, 0)
    assert step(state) == "action_round"  # nothing left to remove


# -- #89 Soviets Shoot Down KAL-007 ----------------------------------------------------------------------


@proves("soviets_shoot_down_kal_007")
def test_kal_007_with_south_korea_controlled_four_ops_of_influence_at_normal_cost():
    state = pos(phasing="us", hands={"us": ["soviets_shoot_down_kal_007", "nato"]}, defcon=4,
                influence={"south_korea": (3, 0), "north_korea": (0, 3)}, effects=["red_scare:us:turn"])
    play(state, "card:soviets_shoot_down_kal_007", "use:event")
    assert state.defcon == 3 and state.vp == 2
    assert step(state) == "kal_007_ops" and who(state) == "us"
    assert keys(state) == ["choice:influence", "choice:realign", "choice:none"]
    play(state, "choice:influence")
    assert state.stack[-1][:3] == ("influence", US, 4)  # a fixed grant: Red Scare does not reduce it
    options = keys(state)
    assert "country:north_korea" in options and "country:japan" in options
    assert "country:chile" not in options  # normal Ops adjacency
    play(state, "country:north_korea")  # USSR-controlled: costs 2
    assert state.stack[-1][:3] == ("influence", US, 2)
    play(state, "country:north_korea", "country:japan")  # control broken: 1 each
    assert influence(state, "north_korea") == (2, 3) and influence(state, "japan") == (2, 0)
    assert step(state) == "action_round" and who(state) == "ussr"
    assert state.removed == (card("soviets_shoot_down_kal_007"),)


@proves("soviets_shoot_down_kal_007")
def test_kal_007_realignment_keeps_the_defcon_geography_and_may_be_declined():
    state = pos(phasing="us", defcon=4, influence={"south_korea": (3, 0), "north_korea": (0, 3)})
    run_event(state, "soviets_shoot_down_kal_007", "us", "choice:realign")
    assert state.stack[-1] == ("realign", US, 4, False, False, False, None)
    options = keys(state)
    assert "country:north_korea" not in options and "country:east_germany" not in options  # DEFCON 3
    assert "country:syria" in options and "done" in options
    play(state, "done")
    assert step(state) == "action_round"
    state = pos(phasing="us", influence={"south_korea": (3, 0)})
    run_event(state, "soviets_shoot_down_kal_007", "us", "choice:none")
    assert step(state) == "action_round" and state.vp == 2 and state.defcon == 4


@proves("soviets_shoot_down_kal_007")
def test_kal_007_without_control_of_south_korea_only_defcon_and_vp():
    state = pos(phasing="us", hands={"us": ["soviets_shoot_down_kal_007", "nato"]}, vp=-5,
                influence={"south_korea": (3, 1)})
    play(state, "card:soviets_shoot_down_kal_007", "use:event")
    assert state.defcon == 4 and state.vp == -3
    assert step(state) == "action_round" and who(state) == "ussr"


@proves("soviets_shoot_down_kal_007")
def test_kal_007_at_defcon_two_fired_by_a_ussr_ops_play_loses_for_the_ussr():
    state = pos(hands={"ussr": ["soviets_shoot_down_kal_007", "fidel"]}, defcon=2,
                influence={"south_korea": (3, 0)})
    play(state, "card:soviets_shoot_down_kal_007", "use:influence:event_first")
    assert state.defcon == 1 and state.vp == 0
    assert state.outcome.winner == "us" and state.outcome.termination == B.DEFCON_1


# -- #90 Glasnost -------------------------------------------------------------------------------------


@proves("glasnost")
def test_glasnost_without_the_reformer_vp_and_defcon_only():
    state = pos(hands={"ussr": ["glasnost", "fidel"]}, defcon=3, vp=1)
    play(state, "card:glasnost", "use:event")
    assert state.vp == -1 and state.defcon == 4
    assert step(state) == "action_round" and who(state) == "us"
    assert state.removed == (card("glasnost"),)


@proves("glasnost")
def test_glasnost_with_the_reformer_four_ops_of_influence_or_realignment():
    state = pos(hands={"ussr": ["glasnost", "fidel"]}, effects=["the_reformer", "red_scare:ussr:turn"],
                influence={"syria": (0, 1)})
    play(state, "card:glasnost", "use:event")
    assert state.vp == -2 and state.defcon == 5  # never above 5
    assert keys(state) == ["choice:influence", "choice:realign", "choice:none"]  # no coup, no space
    play(state, "choice:influence")
    assert state.stack[-1][:3] == ("influence", USSR, 4)
    play(state, "country:syria", "country:syria", "country:iraq", "country:iraq")
    assert influence(state, "syria") == (0, 3) and influence(state, "iraq") == (0, 3)
    assert step(state) == "action_round" and who(state) == "us"
    state = pos(effects=["the_reformer"])
    run_event(state, "glasnost", "ussr", "choice:none")
    assert step(state) == "action_round" and state.vp == -2


# -- #91 Ortega Elected in Nicaragua -----------------------------------------------------------------


@proves("ortega_elected_in_nicaragua")
def test_ortega_clears_nicaragua_then_a_free_coup_in_cuba():
    state = pos(hands={"ussr": ["ortega_elected_in_nicaragua", "fidel"]},
                influence={"nicaragua": (2, 0), "cuba": (1, 0), "costa_rica": (1, 0), "honduras": (0, 1)})
    play(state, "card:ortega_elected_in_nicaragua", "use:event")
    assert influence(state, "nicaragua") == (0, 0)
    assert step(state) == "ortega_elected_in_nicaragua" and who(state) == "ussr"
    assert keys(state) == ["choice:coup", "choice:none"]
    play(state, "choice:coup")
    assert step(state) == "coup" and sorted(keys(state)) == ["country:costa_rica", "country:cuba"]
    play(state, "country:cuba", "die:6")  # 6 + 2 − 2×3 = 2
    assert influence(state, "cuba") == (0, 1)
    assert state.defcon == 4  # a battleground
    assert state.milops == [0, 0]  # free: no military ops
    assert step(state) == "action_round" and who(state) == "us"
    assert state.removed == (card("ortega_elected_in_nicaragua"),)


@proves("ortega_elected_in_nicaragua")
def test_ortega_coup_uses_the_cards_ops_with_the_ussr_modifiers():
    for effects, us_left in (((), 1), (("brezhnev_doctrine:turn",), 0)):
        state = pos(influence={"nicaragua": (1, 0), "costa_rica": (1, 0)}, effects=effects)
        run_event(state, "ortega_elected_in_nicaragua", "ussr", "choice:coup", "country:costa_rica", "die:4")
        assert influence(state, "costa_rica") == (us_left, 0)  # 4 + 2 (or 3) − 6
        assert state.defcon == 5  # not a battleground


@proves("ortega_elected_in_nicaragua")
def test_ortega_coup_is_optional_and_needs_a_target_with_us_influence():
    state = pos(influence={"nicaragua": (1, 0), "cuba": (2, 0)})
    run_event(state, "ortega_elected_in_nicaragua", "ussr", "choice:none")
    assert influence(state, "cuba") == (2, 0) and step(state) == "action_round"
    state = pos(influence={"nicaragua": (1, 0), "honduras": (0, 2), "panama": (3, 0)})
    run_event(state, "ortega_elected_in_nicaragua", "ussr")
    assert influence(state, "nicaragua") == (0, 0)
    assert step(state) == "action_round"  # no target: no offer
