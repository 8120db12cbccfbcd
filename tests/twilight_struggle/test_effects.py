"""Lasting effects (effects.py): named constants keyed to card numbers, whose strings are part of the
wire (the views' ``effects`` list) and never change; the engine names effects only through them."""

from __future__ import annotations

import ast
import pathlib
import random

import pytest
from kits.ts_positions import GAME

from standoff.server.core.game import CHANCE
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import effects as E
from standoff.server.games.twilight_struggle.events import EVENTS
from standoff.server.games.twilight_struggle.state import US, USSR

ENGINE = pathlib.Path(E.__file__).parent

#: The wire strings, typed in: a change here is a protocol change (docs/protocol.md, bots).
WIRE = {
    "VIETNAM_REVOLTS": (9, "vietnam_revolts:turn"),
    "DE_GAULLE": (17, "de_gaulle"),
    "NATO": (21, "nato"),
    "CONTAINMENT": (25, "containment:turn"),
    "US_JAPAN_PACT": (27, "us_japan_pact"),
    "FORMOSAN_RESOLUTION": (35, "formosan_resolution"),
    "NUCLEAR_SUBS": (41, "nuclear_subs:turn"),
    "QUAGMIRE": (42, "quagmire"),
    "SALT_NEGOTIATIONS": (43, "salt:turn"),
    "BEAR_TRAP": (44, "bear_trap"),
    "WE_WILL_BURY_YOU": (50, "we_will_bury_you"),
    "WE_WILL_BURY_YOU_UN": (50, "we_will_bury_you:un_intervention"),
    "BREZHNEV_DOCTRINE": (51, "brezhnev_doctrine:turn"),
    "WILLY_BRANDT": (55, "willy_brandt"),
    "FLOWER_POWER": (59, "flower_power"),
    "U2_INCIDENT": (60, "u2_incident:turn"),
    "SHUTTLE_DIPLOMACY": (73, "shuttle_diplomacy"),
    "IRANIAN_HOSTAGE_CRISIS": (82, "iranian_hostage_crisis"),
    "NORTH_SEA_OIL": (86, "north_sea_oil:turn"),
    "THE_REFORMER": (87, "the_reformer"),
    "IRAN_CONTRA": (93, "iran_contra:turn"),
    "ALDRICH_AMES": (98, "aldrich_ames:turn"),
    "NORAD": (106, "norad"),
    "YURI_AND_SAMANTHA": (109, "yuri_and_samantha:turn"),
}
PER_SIDE = {
    "RED_SCARE": (31, "red_scare:ussr:turn", "red_scare:us:turn"),
    "CUBAN_MISSILE_CRISIS": (40, "cuban_missile_crisis:ussr:turn", "cuban_missile_crisis:us:turn"),
    "MISSILE_ENVY": (49, "missile_envy:ussr", "missile_envy:us"),
    "DEATH_SQUADS": (69, "death_squads:ussr:turn", "death_squads:us:turn"),
}
FAMILIES = {
    "SCORING_IGNORE": (73, "iran", "scoring_ignore:iran"),
    "CHERNOBYL": (94, "Middle East", "chernobyl:Middle East:turn"),
}


def test_effect_names_are_the_wire_strings_keyed_to_their_cards():
    for name, (card, wire) in WIRE.items():
        assert getattr(E, name) == wire and E.CARD_OF[wire] == card
    for name, (card, ussr, us) in PER_SIDE.items():
        assert getattr(E, name)[USSR] == ussr and getattr(E, name)[US] == us
        assert E.CARD_OF[ussr] == E.CARD_OF[us] == card
    for name, (card, argument, wire) in FAMILIES.items():
        family = getattr(E, name)
        assert family(argument) == wire and family.card == card and E.CARD_OF[family.prefix] == card
        assert wire in family and family.args([wire, "nato"]) == [argument]
    assert len(E.CARD_OF) == len(WIRE) + 2 * len(PER_SIDE) + len(FAMILIES)


def test_an_effect_name_is_registered_once():
    with pytest.raises(ValueError, match="nato"):
        E.effect(21, "nato")


def test_turn_effects_are_the_ones_ending_with_turn():
    assert E.lasts_the_turn(E.CONTAINMENT) and E.lasts_the_turn(E.CHERNOBYL("Europe"))
    assert not E.lasts_the_turn(E.NATO) and not E.lasts_the_turn(E.MISSILE_ENVY[US])
    assert not E.lasts_the_turn(E.WE_WILL_BURY_YOU_UN)


def test_every_effect_is_used_by_the_module_of_its_card():
    def registered(value) -> bool:
        if isinstance(value, E.Family):
            return True
        names = value if isinstance(value, tuple) else (value,)
        return all(isinstance(n, str) and n in E.CARD_OF for n in names)

    constants = {name: value for name, value in vars(E).items() if name.isupper() and registered(value)}
    assert set(constants) == set(WIRE) | set(PER_SIDE) | set(FAMILIES)
    for name, value in constants.items():
        card = value.card if isinstance(value, E.Family) else E.CARD_OF[value if isinstance(value, str) else value[0]]
        module = pathlib.Path(__import__(EVENTS[card].fn.__module__, fromlist=["x"]).__file__)
        # the source, also when the compiled engine (standoff accelerate) loaded an extension
        source = module.with_name(module.name.split(".")[0] + ".py").read_text(encoding="utf-8")
        assert f"E.{name}" in source, (name, card)


def _known(effect: str) -> bool:
    return effect in E.CARD_OF or any(effect in f for f in (E.SCORING_IGNORE, E.CHERNOBYL))


def test_effects_of_random_full_games_are_known_names():
    seen: set[str] = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_state(GAME.rules(None, {}))
        while (decision := GAME.decision(state)) is not None:
            seen.update(state.effects)
            option = decision.options[rng.randrange(len(decision.options))]
            GAME.apply(state, option)
            if decision.role != CHANCE:
                view = GAME.view(state, decision.role)
                assert view["effects"] == sorted(state.effects)
        seen.update(state.effects)
    assert seen and all(_known(e) for e in seen), sorted(e for e in seen if not _known(e))


def _engine_sources():
    for path in sorted(ENGINE.rglob("*.py")):
        if path.name not in ("effects.py", "card_data.py", "map_data.py"):
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def test_the_engine_names_effects_only_through_the_constants():
    """No ``has`` / ``add_effect`` / ``drop_effect`` with a literal name, and no literal that looks
    like an effect (``...:turn``, a family's prefix) outside effects.py."""
    prefixes = (E.SCORING_IGNORE.prefix, E.CHERNOBYL.prefix)
    for path, tree in _engine_sources():
        docstrings = {
            id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args and \
                    node.func.attr in ("has", "add_effect", "drop_effect"):
                assert not isinstance(node.args[0], (ast.Constant, ast.JoinedStr)), f"{path.name}:{node.lineno}"
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text = node.value
                assert not text.endswith(E.TURN) and not text.startswith(prefixes), f"{path.name}:{node.lineno}: {text!r}"


def test_cards_of_effects_exist():
    assert all(n in CD.CARD_BY_NUMBER for n in E.CARD_OF.values())
