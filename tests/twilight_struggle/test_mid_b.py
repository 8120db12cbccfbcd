"""Mid War events, part B (events/mid_b.py: #36, 39, 45, 47, 48, 51-57, 59-61): a scenario per card
and branch, against cards.md §4/§5/§6/§8."""

from __future__ import annotations

from tsposition import GAME, card, country, influence, keys, play, position, run_event

from standoff.server.games.twilight_struggle import game as G
from standoff.server.games.twilight_struggle import hooks as H
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import EVENTS, event_playable, mid_b
from standoff.server.games.twilight_struggle.events.primitives import CHOICES
from standoff.server.games.twilight_struggle.state import US, USSR

DIE = [f"die:{n}" for n in range(1, 7)]
MID_B_CARDS = (36, 39, 45, 47, 48, 51, 52, 53, 54, 55, 56, 57, 59, 60, 61)


def pos(*, phasing: str = "ussr", hands=None, rounds: int = 2, **kw):
    """A turn-4 position; ``rounds=2``: once the phasing side's play is over, the other side's
    action round asks (no end of turn behind the scenario)."""
    hands = dict(hands or {})
    hands.setdefault("ussr", ["captured_nazi_scientist"])
    hands.setdefault("us", ["nuclear_test_ban"])
    return position(phasing=phasing, hands=hands, turn=4, rounds=rounds, end_turn=10, **kw)


def countries(*ids: str) -> list[str]:
    """``country:<id>`` keys in the engine's order (map index)."""
    return [f"country:{c}" for c in sorted(ids, key=country)]


def step(state) -> str | None:
    decision = GAME.decision(state)
    return None if decision is None else decision.step


def who(state) -> str:
    return GAME.decision(state).role


# -- wiring ----------------------------------------------------------------------------------------


def test_cards_steps_choices_and_hooks_are_registered_once():
    for n in MID_B_CARDS:
        spec = EVENTS[n]
        assert spec.fn.__module__ == mid_b.__name__ and spec.fn.__doc__
    for s in mid_b.STEPS:
        assert G.STEPS[s.name] is s
    for name in ("brush_war", "summit_defcon", "junta", "south_african_unrest", "muslim_revolution"):
        assert CHOICES[name].__module__ == mid_b.__name__
    assert H.AFTER_EVENT_HOOKS.count(mid_b.flower_power_event_hook) == 1
    assert H.AFTER_EVENT_HOOKS.count(mid_b.u2_incident_hook) == 1
    assert H.OPERATIONS_HOOKS.count(mid_b.flower_power_operations_hook) == 1


# -- #36 Brush War ---------------------------------------------------------------------------------


def test_brush_war_ussr_attacks_mexico_superpower_space_and_neighbour_count_and_wins():
    # Guatemala US-controlled (-1) and the USA space (-1): modifier 2; 5 - 2 = 3 wins.
    state = pos(setup_influence=False, influence={"mexico": (2, 0), "guatemala": (1, 0)})
    run_event(state, "brush_war", "ussr")
    assert step(state) == "brush_war" and who(state) == "ussr"
    assert "country:mexico" in keys(state) and "country:cuba" not in keys(state)  # Cuba: stability 3
    play(state, "country:mexico")
    assert state.milops == [3, 0]  # credited before the roll
    assert keys(state) == DIE
    play(state, "die:5")
    assert influence(state, "mexico") == (0, 2)
    assert state.vp == -1 and state.milops == [3, 0] and state.defcon == 5
    assert step(state) == "action_round"


def test_brush_war_ussr_attacks_mexico_and_loses():
    state = pos(setup_influence=False, influence={"mexico": (2, 0), "guatemala": (1, 0)})
    run_event(state, "brush_war", "ussr", "country:mexico", "die:4")  # 4 - 2 = 2
    assert influence(state, "mexico") == (2, 0)
    assert state.vp == 0 and state.milops == [3, 0]


def test_brush_war_played_by_the_us_against_afghanistan_from_hand():
    # USSR space (-1) and USSR-controlled Iran (-1): 5 - 2 = 3 wins 1 VP.
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, setup_influence=False,
                influence={"afghanistan": (0, 1), "iran": (0, 2)})
    play(state, "card:brush_war", "use:event", "country:afghanistan", "die:5")
    assert influence(state, "afghanistan") == (1, 0)
    assert state.vp == 1 and state.milops == [0, 3]
    assert state.discard == (card("brush_war"),) and state.removed == ()
    assert step(state) == "action_round"


def test_brush_war_targets_any_stability_one_or_two_country_even_without_influence_or_defcon():
    state = pos(setup_influence=False, defcon=2)
    run_event(state, "brush_war", "ussr")
    offered = keys(state)
    assert offered == [f"country:{c.id}" for c in M.COUNTRIES if c.stability <= 2]
    assert {"country:lebanon", "country:italy", "country:afghanistan"} <= set(offered)  # no DEFCON bans


def test_brush_war_nato_shields_us_controlled_europe_from_the_ussr_only():
    inf = {"italy": (2, 0), "greece": (1, 1), "turkey": (0, 2)}
    state = pos(effects=["nato"], influence=inf)
    run_event(state, "brush_war", "ussr")
    assert "country:italy" not in keys(state)  # US-controlled, NATO
    assert {"country:greece", "country:turkey", "country:spain_portugal"} <= set(keys(state))
    # Without NATO Italy is a target.
    state = pos(influence=inf)
    run_event(state, "brush_war", "ussr")
    assert "country:italy" in keys(state)
    # NATO does not limit the US.
    state = pos(phasing="us", effects=["nato"], influence={"italy": (0, 2)})
    run_event(state, "brush_war", "us")
    assert "country:italy" in keys(state)


# -- #39 Arms Race ---------------------------------------------------------------------------------


def test_arms_race_one_vp_when_ahead_but_below_defcon():
    state = pos(defcon=4)
    state.milops = [3, 1]
    run_event(state, "arms_race", "ussr")
    assert state.vp == -1


def test_arms_race_three_vp_when_ahead_and_at_least_defcon_instead_of_one():
    state = pos(phasing="us", hands={"us": ["arms_race", "nuclear_test_ban"]}, defcon=3)
    state.milops = [1, 3]
    play(state, "card:arms_race", "use:event")
    assert state.vp == 3 and state.milops == [1, 3]
    assert state.discard == (card("arms_race"),)


def test_arms_race_nothing_when_not_strictly_ahead():
    state = pos(defcon=2)
    state.milops = [2, 2]
    run_event(state, "arms_race", "ussr")
    assert state.vp == 0
    state = pos(defcon=2)
    state.milops = [1, 4]
    run_event(state, "arms_race", "ussr")
    assert state.vp == 0


def test_arms_race_is_judged_for_the_phasing_player():
    state = pos(phasing="ussr", defcon=2)
    state.milops = [2, 0]
    run_event(state, "arms_race", "us")  # carried out by the US in the USSR's round
    assert state.vp == -3


# -- #45 Summit ------------------------------------------------------------------------------------

SUMMIT_BOARD = {
    # USSR: Europe domination (East Germany bg + Czechoslovakia, Finland), Middle East domination
    # (Iraq bg + Jordan), Asia domination via Southeast Asia (Thailand bg + Laos/Cambodia): 3.
    "east_germany": (0, 3), "czechoslovakia": (0, 3), "finland": (0, 4),
    "iraq": (0, 3), "jordan": (0, 2), "thailand": (0, 2), "laos_cambodia": (0, 1),
    # US: Central America control (Mexico, Cuba, Panama: every battleground): 1; South America
    # presence only (Chile): 0.
    "mexico": (2, 0), "cuba": (3, 0), "panama": (2, 0), "chile": (3, 0),
}


def test_summit_counts_each_region_dominated_or_controlled_once():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD)
    assert mid_b.summit_regions(state, USSR) == 3
    assert mid_b.summit_regions(state, US) == 1
    # Presence only (one battleground, no other country) is no domination.
    state = pos(setup_influence=False, influence={"chile": (3, 0), "iraq": (3, 0)})
    assert mid_b.summit_regions(state, US) == 0


def test_summit_tie_does_nothing():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=3)
    run_event(state, "summit", "ussr")
    assert GAME.decision(state).role == "chance" and keys(state) == DIE
    play(state, "die:2", "die:4")  # USSR 2 + 3 = 5, US 4 + 1 = 5
    assert state.vp == 0 and state.defcon == 3
    assert step(state) == "action_round"


def test_summit_winner_gains_two_vp_and_raises_defcon():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=3)
    run_event(state, "summit", "ussr", "die:3", "die:1")  # 6 against 2
    assert state.vp == -2
    assert step(state) == "summit_defcon" and who(state) == "ussr"
    assert keys(state) == ["choice:raise_defcon", "choice:lower_defcon", "choice:leave_defcon"]
    play(state, "choice:raise_defcon")
    assert state.defcon == 4 and step(state) == "action_round"


def test_summit_winner_lowers_defcon():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=3)
    run_event(state, "summit", "ussr", "die:3", "die:1", "choice:lower_defcon")
    assert state.defcon == 2 and state.vp == -2 and state.outcome is None


def test_summit_us_wins_and_leaves_defcon():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=3)
    run_event(state, "summit", "ussr", "die:1", "die:6")  # USSR 4, US 7
    assert state.vp == 2 and who(state) == "us"
    play(state, "choice:leave_defcon")
    assert state.defcon == 3 and step(state) == "action_round"


def test_summit_no_raise_offered_at_defcon_five():
    state = pos(setup_influence=False, influence=SUMMIT_BOARD, defcon=5)
    run_event(state, "summit", "ussr", "die:6", "die:1")
    assert keys(state) == ["choice:lower_defcon", "choice:leave_defcon"]


def test_summit_non_phasing_winner_drops_defcon_to_one_and_the_phasing_player_loses():
    state = pos(phasing="ussr", hands={"ussr": ["summit", "allende"]}, setup_influence=False,
                influence=SUMMIT_BOARD, defcon=2)
    play(state, "card:summit", "use:event", "die:1", "die:6", "choice:lower_defcon")
    assert state.defcon == 1
    assert state.outcome.winner == "us" and state.outcome.termination == "defcon"


# -- #47 Junta -------------------------------------------------------------------------------------

LATIN_AMERICA_KEYS = [f"country:{M.COUNTRIES[i].id}" for i in mid_b.LATIN_AMERICA]


def test_junta_influence_then_free_coup_in_latin_america_only():
    state = pos(hands={"ussr": ["junta", "allende"]}, setup_influence=False, defcon=3,
                influence={"panama": (2, 0), "italy": (2, 0), "iran": (1, 0)})
    play(state, "card:junta", "use:event")
    assert step(state) == "event_place" and keys(state) == LATIN_AMERICA_KEYS
    play(state, "country:nicaragua")
    assert influence(state, "nicaragua") == (0, 2)
    assert step(state) == "junta" and keys(state) == ["choice:coup", "choice:realign", "choice:neither"]
    play(state, "choice:coup")
    assert keys(state) == ["country:panama"]  # not Italy nor Iran
    play(state, "country:panama", "die:4")  # 4 + 2 - 2 x 2 = 2
    assert influence(state, "panama") == (0, 0)
    assert state.milops == [0, 0]  # free coup: no military ops
    assert state.defcon == 2  # a battleground coup still lowers DEFCON
    assert state.discard == (card("junta"),)
    assert step(state) == "action_round"


def test_junta_coup_uses_the_players_ops_modifiers():
    # Brezhnev Doctrine: Junta's 2 Ops become 3; 2 + 3 - 4 = 1 removes one US influence.
    state = pos(setup_influence=False, effects=["brezhnev_doctrine:turn"], influence={"panama": (2, 0)})
    run_event(state, "junta", "ussr", "country:mexico", "choice:coup", "country:panama", "die:2")
    assert influence(state, "panama") == (1, 0)
    state = pos(setup_influence=False, influence={"panama": (2, 0)})
    run_event(state, "junta", "ussr", "country:mexico", "choice:coup", "country:panama", "die:2")
    assert influence(state, "panama") == (2, 0)


def test_junta_free_realignments_in_latin_america():
    state = pos(setup_influence=False, defcon=2,
                influence={"panama": (2, 0), "mexico": (1, 0), "italy": (2, 0)})
    run_event(state, "junta", "ussr", "country:nicaragua", "choice:realign")
    assert step(state) == "realign"
    assert keys(state) == countries("mexico", "panama") + ["done"]
    play(state, "country:panama", "die:6", "die:1")  # USSR 6, US 1 + 1 (more influence)
    assert influence(state, "panama") == (0, 0)
    assert keys(state) == ["country:mexico", "done"]
    play(state, "country:mexico", "die:1", "die:6")  # USSR 1, US 6 + 1: the USSR has none to lose
    assert influence(state, "mexico") == (1, 0)
    assert step(state) == "action_round"  # two rolls spent
    assert state.milops == [0, 0] and state.defcon == 2


def test_junta_neither_and_no_targets():
    state = pos(setup_influence=False, influence={"panama": (2, 0)})
    run_event(state, "junta", "us", "country:panama")
    assert keys(state) == ["choice:neither"]  # no USSR influence in Latin America
    play(state, "choice:neither")
    assert influence(state, "panama") == (4, 0)
    assert step(state) == "action_round"
    state = pos(setup_influence=False, influence={"panama": (2, 0)})
    run_event(state, "junta", "ussr", "country:chile", "choice:neither")
    assert influence(state, "chile") == (0, 2) and influence(state, "panama") == (2, 0)
    assert step(state) == "action_round"


# -- #48 Kitchen Debates ---------------------------------------------------------------------------


def test_kitchen_debates_us_controls_more_battlegrounds():
    state = pos(phasing="us", hands={"us": ["kitchen_debates", "nuclear_test_ban"]}, setup_influence=False,
                influence={"mexico": (2, 0), "panama": (2, 0), "cuba": (0, 3), "canada": (4, 0)})
    play(state, "card:kitchen_debates", "use:event")
    assert state.vp == 2
    assert state.removed == (card("kitchen_debates"),) and state.discard == ()


def test_kitchen_debates_unplayable_on_a_tie_starred_card_discarded_not_removed():
    # 1 battleground each; Taiwan never counts, even under Formosan Resolution.
    board = {"mexico": (2, 0), "taiwan": (3, 0), "cuba": (0, 3)}
    state = pos(phasing="us", hands={"us": ["kitchen_debates", "nuclear_test_ban"]}, setup_influence=False,
                influence=board, effects=["formosan_resolution"])
    assert not event_playable(state, card("kitchen_debates"), US)
    play(state, "card:kitchen_debates")
    assert "use:event" not in keys(state) and "use:influence" in keys(state)
    # Played by the USSR for operations: no event; the starred card is discarded.
    state = pos(hands={"ussr": ["kitchen_debates", "allende"]}, setup_influence=False, influence=board)
    play(state, "card:kitchen_debates", "use:influence:event_first", "country:poland")
    assert state.vp == 0 and card("kitchen_debates") not in state.events_played
    assert state.discard == (card("kitchen_debates"),) and state.removed == ()
    assert step(state) == "action_round"


# -- #51 Brezhnev Doctrine -------------------------------------------------------------------------


def test_brezhnev_doctrine_plus_one_ops_capped_at_four_for_the_ussr_this_turn():
    state = pos(hands={"ussr": ["brezhnev_doctrine", "allende"]})
    play(state, "card:brezhnev_doctrine", "use:event")
    assert "brezhnev_doctrine:turn" in state.effects
    assert state.removed == (card("brezhnev_doctrine"),)
    assert O.ops_value(state, USSR, card("allende")) == 2
    assert O.ops_value(state, USSR, card("opec")) == 4
    assert O.ops_value(state, USSR, card("muslim_revolution")) == 4  # not above 4
    assert O.ops_value(state, US, card("opec")) == 3  # the US is unaffected
    # With Red Scare/Purge on the USSR too: 3 + 1 - 1.
    state.add_effect("red_scare:ussr:turn")
    assert O.ops_value(state, USSR, card("opec")) == 3


# -- #52 Portuguese Empire Crumbles, #54 Allende ---------------------------------------------------


def test_portuguese_empire_crumbles():
    state = pos(hands={"ussr": ["portuguese_empire_crumbles", "allende"]},
                influence={"angola": (1, 0), "se_african_states": (0, 1)})
    play(state, "card:portuguese_empire_crumbles", "use:event")
    assert influence(state, "angola") == (1, 2) and influence(state, "se_african_states") == (0, 3)
    assert state.removed == (card("portuguese_empire_crumbles"),)
    assert step(state) == "action_round"


def test_allende():
    state = pos(hands={"ussr": ["allende", "opec"]}, influence={"chile": (1, 0)})
    play(state, "card:allende", "use:event")
    assert influence(state, "chile") == (1, 2)
    assert state.removed == (card("allende"),)


# -- #53 South African Unrest ----------------------------------------------------------------------


def test_south_african_unrest_two_in_south_africa():
    state = pos(hands={"ussr": ["south_african_unrest", "allende"]})
    play(state, "card:south_african_unrest", "use:event")
    assert step(state) == "south_african_unrest" and who(state) == "ussr"
    assert keys(state) == ["choice:two_in_south_africa", "choice:one_in_south_africa_two_adjacent"]
    play(state, "choice:two_in_south_africa")
    assert influence(state, "south_africa") == (1, 2)
    assert influence(state, "angola") == (0, 0) and influence(state, "botswana") == (0, 0)
    assert state.discard == (card("south_african_unrest"),) and state.removed == ()


def test_south_african_unrest_one_there_and_two_adjacent_split_allowed():
    state = pos()
    run_event(state, "south_african_unrest", "ussr", "choice:one_in_south_africa_two_adjacent")
    assert influence(state, "south_africa") == (1, 1)
    assert step(state) == "event_place" and keys(state) == countries("angola", "botswana")
    play(state, "country:angola", "country:botswana")
    assert influence(state, "angola") == (0, 1) and influence(state, "botswana") == (0, 1)
    assert step(state) == "action_round"
    state = pos()
    run_event(state, "south_african_unrest", "ussr", "choice:one_in_south_africa_two_adjacent",
              "country:botswana", "country:botswana")
    assert influence(state, "botswana") == (0, 2) and influence(state, "angola") == (0, 0)


# -- #55 Willy Brandt ------------------------------------------------------------------------------


def test_willy_brandt_lifts_nato_for_west_germany_only():
    state = pos(hands={"ussr": ["willy_brandt", "allende"]}, effects=["nato"],
                influence={"west_germany": (5, 0), "france": (3, 0)})
    wg, fr = country("west_germany"), country("france")
    assert wg not in O.coup_targets(state, USSR) and fr not in O.coup_targets(state, USSR)
    play(state, "card:willy_brandt", "use:event")
    assert state.vp == -1 and influence(state, "west_germany") == (5, 1)
    assert "willy_brandt" in state.effects and state.removed == (card("willy_brandt"),)
    assert wg in O.coup_targets(state, USSR) and wg in O.realign_targets(state, USSR)
    assert fr not in O.coup_targets(state, USSR)  # France still shielded


def test_willy_brandt_blocked_after_tear_down_this_wall():
    state = pos(hands={"ussr": ["willy_brandt", "allende"]}, events_played=["tear_down_this_wall"])
    assert not event_playable(state, card("willy_brandt"), USSR)
    play(state, "card:willy_brandt")
    assert "use:event" not in keys(state)


# -- #56 Muslim Revolution -------------------------------------------------------------------------


def test_muslim_revolution_clears_us_influence_from_two_listed_countries():
    state = pos(setup_influence=False,
                influence={"iran": (2, 0), "egypt": (1, 0), "saudi_arabia": (3, 1), "israel": (1, 0)})
    run_event(state, "muslim_revolution", "ussr")
    assert step(state) == "muslim_revolution" and who(state) == "ussr"
    assert keys(state) == countries("iran", "egypt", "saudi_arabia")  # listed and holding US influence
    play(state, "country:iran")
    assert keys(state) == countries("egypt", "saudi_arabia")
    play(state, "country:saudi_arabia")
    assert influence(state, "iran") == (0, 0) and influence(state, "saudi_arabia") == (0, 1)
    assert influence(state, "egypt") == (1, 0) and influence(state, "israel") == (1, 0)
    assert step(state) == "action_round"


def test_muslim_revolution_with_one_target_and_blocked_by_awacs():
    state = pos(setup_influence=False, influence={"iraq": (2, 0), "israel": (2, 0)})
    run_event(state, "muslim_revolution", "ussr", "country:iraq")
    assert influence(state, "iraq") == (0, 0) and step(state) == "action_round"
    state = pos(events_played=["awacs_sale_to_saudis"])
    assert not event_playable(state, card("muslim_revolution"), USSR)


# -- #57 ABM Treaty --------------------------------------------------------------------------------


def test_abm_treaty_raises_defcon_then_four_ops_not_reduced_by_red_scare():
    state = pos(phasing="us", hands={"us": ["abm_treaty", "nuclear_test_ban"]}, defcon=3,
                effects=["red_scare:us:turn"], influence={"iraq": (0, 1)})
    play(state, "card:abm_treaty", "use:event")
    assert state.defcon == 4
    assert step(state) == "event_ops" and who(state) == "us"
    assert keys(state) == ["use:influence", "use:realign", "use:coup"]
    play(state, "use:coup")
    assert "country:east_germany" not in keys(state)  # DEFCON 4: no coups in Europe (not free)
    play(state, "country:iraq", "die:3")  # 3 + 4 - 6 = 1
    assert influence(state, "iraq") == (0, 0)
    assert state.milops == [0, 4] and state.defcon == 3  # battleground: DEFCON back down
    assert state.discard == (card("abm_treaty"),)
    assert step(state) == "action_round"


def test_abm_treaty_influence_and_defcon_five_stays():
    state = pos(defcon=5)
    run_event(state, "abm_treaty", "ussr", "use:influence")
    assert state.defcon == 5
    play(state, "country:poland", "country:poland", "country:poland", "country:poland")
    assert influence(state, "poland") == (0, 4) and step(state) == "action_round"


# -- #59 Flower Power ------------------------------------------------------------------------------


def test_flower_power_event_is_lasting_and_removed():
    state = pos(hands={"ussr": ["flower_power", "allende"]})
    play(state, "card:flower_power", "use:event")
    assert "flower_power" in state.effects and state.removed == (card("flower_power"),)
    assert state.vp == 0


def test_flower_power_us_war_card_as_event():
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, effects=["flower_power"],
                setup_influence=False, influence={"afghanistan": (0, 1)})
    play(state, "card:brush_war", "use:event", "country:afghanistan", "die:4")  # 4 - 1 = 3 wins
    assert state.vp == 1 - 2  # war +1 US, Flower Power +2 USSR (counted once)
    assert step(state) == "action_round"


def test_flower_power_us_war_event_in_the_headline():
    state = pos(phasing="us", hands={"us": ["nuclear_test_ban"]}, effects=["flower_power"])
    state.headline = [0, card("indo_pakistani_war")]
    state.stack.append(("headline_resolve", US))
    state.pending = None
    play(state, "choice:pakistan", "die:1")
    assert state.vp == -2 and state.milops == [0, 2]
    assert state.discard == (card("indo_pakistani_war"),)


def test_flower_power_us_plays_ussr_war_card_for_operations():
    state = pos(phasing="us", hands={"us": ["korean_war", "nuclear_test_ban"]}, effects=["flower_power"],
                setup_influence=False)
    play(state, "card:korean_war", "use:influence:event_first", "die:1")  # the USSR's war fails
    assert state.milops == [2, 0]
    play(state, "country:mexico", "country:mexico")
    assert state.vp == -2
    assert step(state) == "action_round"


def test_flower_power_us_plays_neutral_war_card_for_operations():
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, effects=["flower_power"],
                setup_influence=False)
    play(state, "card:brush_war", "use:influence", "country:mexico", "country:mexico", "country:mexico")
    assert state.vp == -2 and state.milops == [0, 0]


def test_flower_power_arab_israeli_war_for_operations_after_camp_david():
    state = pos(phasing="us", hands={"us": ["arab_israeli_war", "nuclear_test_ban"]},
                effects=["flower_power"], events_played=["camp_david_accords"], setup_influence=False)
    play(state, "card:arab_israeli_war", "use:influence:event_first", "country:mexico", "country:mexico")
    assert state.vp == -2 and state.milops == [0, 0]  # no war, but the USSR still scores
    assert state.discard == (card("arab_israeli_war"),)


def test_flower_power_not_for_space_race_nor_ussr_wars_nor_after_evil_empire():
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, effects=["flower_power"])
    play(state, "card:brush_war", "use:space", "die:6")
    assert state.vp == 0 and state.space == [0, 0]
    state = pos(hands={"ussr": ["brush_war", "allende"]}, effects=["flower_power"], setup_influence=False)
    play(state, "card:brush_war", "use:event", "country:mexico", "die:1")
    assert state.vp == 0  # the USSR's own war
    state = pos(phasing="us", hands={"us": ["brush_war", "nuclear_test_ban"]}, effects=["flower_power"],
                events_played=["an_evil_empire"], setup_influence=False)
    play(state, "card:brush_war", "use:influence", "country:mexico", "country:mexico", "country:mexico")
    assert state.vp == 0
    assert not event_playable(state, card("flower_power"), USSR)


def test_no_flower_power_no_vp():
    state = pos(phasing="us", hands={"us": ["korean_war", "nuclear_test_ban"]}, setup_influence=False)
    play(state, "card:korean_war", "use:influence:event_first", "die:1", "country:mexico", "country:mexico")
    assert state.vp == 0


# -- #60 U2 Incident -------------------------------------------------------------------------------


def test_u2_incident_then_un_intervention_later_this_turn():
    state = pos(hands={"ussr": ["u2_incident", "opec"], "us": ["un_intervention", "allende"]}, rounds=3)
    play(state, "card:u2_incident", "use:event")
    assert state.vp == -1 and "u2_incident:turn" in state.effects
    assert state.removed == (card("u2_incident"),)
    play(state, "card:un_intervention", "use:event", "choice:allende", "choice:influence", "country:uk")
    assert state.vp == -2  # one more USSR VP
    assert "u2_incident:turn" not in state.effects  # counted once
    assert step(state) == "action_round" and who(state) == "ussr"


def test_un_intervention_without_u2_incident_gives_nothing():
    state = pos(phasing="us", hands={"us": ["un_intervention", "allende"]})
    play(state, "card:un_intervention", "use:event", "choice:allende", "choice:influence", "country:uk")
    assert state.vp == 0


def test_u2_incident_watch_ends_with_the_turn():
    state = pos()
    run_event(state, "u2_incident", "ussr")
    state.stack = [("end_turn",)]
    state.milops = [5, 5]  # no military-ops VP
    state.pending = None
    assert GAME.decision(state).step == "deal"  # turn 5 begins
    assert "u2_incident:turn" not in state.effects and state.vp == -1


# -- #61 OPEC --------------------------------------------------------------------------------------


def test_opec_one_vp_per_controlled_listed_country():
    state = pos(hands={"ussr": ["opec", "allende"]}, setup_influence=False,
                influence={"egypt": (0, 2), "iraq": (1, 4), "venezuela": (0, 2), "libya": (0, 1),
                           "israel": (0, 4), "gulf_states": (2, 3)})
    play(state, "card:opec", "use:event")
    assert state.vp == -3  # Egypt, Iraq, Venezuela (Libya uncontrolled, Israel not listed)
    assert state.discard == (card("opec"),)


def test_opec_blocked_after_north_sea_oil():
    state = pos(hands={"ussr": ["opec", "allende"]}, events_played=["north_sea_oil"])
    assert not event_playable(state, card("opec"), USSR)
    play(state, "card:opec")
    assert "use:event" not in keys(state)


def test_flower_power_war_card_taken_by_grain_sales_and_played_as_event():
    state = pos(phasing="us", hands={"us": ["grain_sales_to_soviets", "nuclear_test_ban"], "ussr": ["brush_war"]},
                effects=["flower_power"], setup_influence=False, influence={"afghanistan": (0, 1)})
    play(state, "card:grain_sales_to_soviets", "use:event", "card:brush_war", "choice:play",
         "use:event", "country:afghanistan", "die:1")
    assert state.vp == -2 and state.milops == [0, 3]


def test_flower_power_war_card_taken_by_grain_sales_and_played_for_operations():
    state = pos(phasing="us", hands={"us": ["grain_sales_to_soviets", "nuclear_test_ban"], "ussr": ["brush_war"]},
                effects=["flower_power"], setup_influence=False)
    play(state, "card:grain_sales_to_soviets", "use:event", "card:brush_war", "choice:play",
         "use:influence", "country:mexico", "country:mexico", "country:mexico")
    assert influence(state, "mexico") == (3, 0)
    assert state.vp == -2
