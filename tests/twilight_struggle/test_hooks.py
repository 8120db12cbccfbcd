"""The hook mechanism (hooks.py): every lasting effect acts through a hook registered next to its
card, in a fixed order; the turn, operations, scoring and views name no card effect themselves."""

from __future__ import annotations

import ast
import pathlib

from kits.ts_positions import card, country, influence, position

from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import hooks as H
from standoff.server.games.twilight_struggle import ops as O
from standoff.server.games.twilight_struggle.events import early_war, late_war, mid_war_36_59, mid_war_60_108
from standoff.server.games.twilight_struggle.state import US, USSR

ENGINE = pathlib.Path(H.__file__).parent

#: Every hook list with its entries, in the order they run (registration order: the event modules
#: in card order, and within Mid War the order the rules need for the action-round hooks).
REGISTERED = {
    "ACTION_ROUNDS_HOOKS": [late_war._north_sea_oil_round],
    "ACTION_ROUND_HOOKS": [mid_war_36_59._offer_cancel, mid_war_36_59._bury_you_round, mid_war_36_59._trap_round],
    "EVENT_OPS_HOOKS": [mid_war_36_59._offer_cancel_for_ops],
    "CARD_FILTERS": [mid_war_36_59._restrict_cards],
    "HEADLINE_FILTERS": [mid_war_36_59._owed_missile_envy_not_headlined],
    "HEADLINE_HOOKS": [early_war._defectors_headline],
    "USE_FILTERS": [mid_war_36_59._restrict_uses],
    "CARD_USE_HOOKS": [early_war._defectors_for_operations],
    "CHINA_CARD_HOOKS": [early_war._formosan_ends],
    "AFTER_EVENT_HOOKS": [mid_war_36_59.flower_power_event_hook, mid_war_60_108.u2_incident_hook],
    "AFTER_ROUND_HOOKS": [early_war._norad, mid_war_36_59._after_round],
    "DISCARD_HOOKS": [mid_war_36_59._missile_envy_discarded],
    "OPS_BONUSES": [early_war._containment, mid_war_36_59._brezhnev_doctrine],
    "OPS_PENALTIES": [early_war._red_scare],
    "SOUTHEAST_ASIA_BONUSES": [early_war._vietnam_revolts_bonus],
    "PLACEMENT_BARS": [late_war._chernobyl_bars],
    "PROTECTIONS": [early_war._nato_shield, early_war._us_japan_shield],
    "COUP_BARS": [late_war._reformer_bars],
    "REALIGN_MODIFIERS": [late_war._iran_contra],
    "OPERATIONS_HOOKS": [mid_war_36_59.flower_power_operations_hook],
    "BEFORE_COUP_HOOKS": [mid_war_36_59._offer_cancel_before_coup],
    "COUP_HOOKS": [mid_war_36_59._missile_crisis_coup],
    "COUP_MODIFIERS": [mid_war_36_59._salt_coups, mid_war_60_108._death_squads],
    "WAR_MODIFIERS": [early_war._civil_war_korean_war],
    "AFTER_COUP_HOOKS": [late_war._yuri_and_samantha],
    "DEFCON_EXEMPTIONS": [mid_war_36_59._nuclear_subs],
    "SCORING_HOOKS": [mid_war_60_108._shuttle_scoring],
    "SCORING_EXCLUSIONS": [mid_war_60_108._ignored_in_scoring],
    "EXTRA_BATTLEGROUNDS": [early_war._taiwan_battleground],
    "AFTER_SCORING_HOOKS": [mid_war_60_108._ignore_once],
    "OPEN_HANDS": [late_war._aldrich_ames_open_hand],
}


def test_every_hook_list_holds_its_entries_once_in_a_fixed_order():
    lists = {name for name, value in vars(H).items() if name.isupper() and isinstance(value, list)}
    assert lists == set(REGISTERED)
    for name, entries in REGISTERED.items():
        assert getattr(H, name) == entries, name
        assert f"``{name}``" in H.__doc__, name


def test_the_rules_core_names_no_lasting_effect():
    """The turn, operations, board, views and the shared helpers never test nor set an effect:
    the hooks do (turn.EndTurn only drops the ``:turn`` ones)."""
    for name in ("turn.py", "ops.py", "board.py", "game.py", "common.py", "events/registry.py", "events/primitives.py"):
        tree = ast.parse((ENGINE / name).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("has", "add_effect", "drop_effect"), f"{name}:{node.lineno}"
            if isinstance(node, ast.ImportFrom):
                assert node.module != "effects" or name == "turn.py", name  # turn: lasts_the_turn only


# -- the order of effects the hooks keep ----------------------------------------------------------


def test_ops_bonuses_come_before_penalties():
    """Brezhnev +1 (not above 4) then Red Scare −1: a 4-Op card stays at 3, a 3-Op card at 3."""
    state = position(effects=["brezhnev_doctrine:turn", "red_scare:ussr:turn"])
    assert O.ops_value(state, USSR, card("nato")) == 3  # 4: no bonus, then −1
    assert O.ops_value(state, USSR, card("comecon")) == 3  # 3 + 1, then −1
    state = position(effects=["containment:turn", "red_scare:us:turn"])
    assert O.ops_value(state, US, card("nato")) == 3 and O.ops_value(state, US, card("cia_created")) == 1


def test_a_coup_in_the_missile_crisis_loses_before_anything_else():
    state = position(effects=["cuban_missile_crisis:us:turn", "salt:turn", "yuri_and_samantha:turn"],
                     influence={"iran": (0, 2)}, defcon=3)
    O.resolve_coup(state, US, country("iran"), 3, 6, free=False)
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.MISSILE_CRISIS
    assert state.milops == [0, 0] and state.vp == 0 and state.defcon == 3 and influence(state, "iran") == (0, 2)


def test_yuri_and_samantha_vp_land_before_the_battleground_lowers_defcon():
    """At DEFCON 2 a US battleground coup ends the game; with Yuri and Samantha the USSR's VP come
    first: at 19 VP it wins by VP, not by the DEFCON."""
    state = position(effects=["yuri_and_samantha:turn"], influence={"iran": (0, 2)}, defcon=2, vp=-19,
                     phasing="us")
    O.resolve_coup(state, US, country("iran"), 3, 6, free=False)
    assert state.milops[US] == 3 and state.vp == -20
    assert state.outcome.winner == "ussr" and state.outcome.termination == B.VP_20
