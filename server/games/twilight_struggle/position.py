"""Twilight Struggle positions: a whole state as data, in the words of the views and option keys.

Sides by name (``ussr``, ``us``), cards by their ids (``nato``, ``the_china_card``), countries by
their ids (``west_germany``), regions by name (``Europe``). Lasting effects are written by card
number, with the side that played the card where the effect depends on it (Red Scare/Purge, the
Cuban Missile Crisis, Missile Envy, Latin American Death Squads) and the region or country the
card named (Chernobyl, Shuttle Diplomacy). A position is complete: both hands, the headline
cards of the turn, the draw pile, what each side has seen of the other hand, and the engine's
pending steps (``stack``), so that loading it asks the very decision that was pending.
docs/positions.md is the reference; :func:`to_position` writes every field, :func:`from_position`
also takes the short form a person writes (omitted countries hold no influence, an omitted draw
pile is the cards of the periods in play that are nowhere else, an omitted stack is the start of
``phasing``'s action round).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.position import (
    BOOL,
    INT,
    NOTHING,
    STR,
    STRINGS,
    FieldSpec,
    FieldType,
    PositionError,
    decode_stack,
    encode_stack,
    enum_type,
    expect,
    fail,
    list_of,
    rules_from,
)
from . import card_data as CD
from . import effects as E
from . import map_data as M
from .rules import TSRules, make_rules
from .state import NOBODY, SIDE_NAMES, TSState
from .turn import regular_rounds

GAME = "twilight-struggle"
CHINA = CD.CHINA_CARD


# -- value types -----------------------------------------------------------------------------------


def _card_decode(value: Any, where: str) -> int:
    if isinstance(value, str) and value in CD.CARD_BY_ID:
        return CD.CARD_BY_ID[value].number
    if isinstance(value, int) and not isinstance(value, bool) and value in CD.CARD_BY_NUMBER:
        return value
    raise fail(where, f"unknown card {value!r} (cards are named by id, as in option keys: card:nato)")


def _country_decode(value: Any, where: str) -> int:
    if not isinstance(value, str) or value not in M.INDEX:
        raise fail(where, f"unknown country {value!r} (countries are named by id, as in option keys: country:iran)")
    return M.INDEX[value]


def _card_encode(card: int) -> str:
    return CD.CARD_BY_NUMBER[card].id


def _region_decode(value: Any, where: str) -> str:
    if value not in M.REGIONS and value not in M.SUBREGIONS:
        raise fail(where, f"unknown region {value!r} (regions: {', '.join(M.REGIONS + M.SUBREGIONS)})")
    return value


SIDE = enum_type("side", SIDE_NAMES)
SIDE_OR_NONE = enum_type("side", SIDE_NAMES, none=NOBODY, nullable=True)
#: (the JSON Schema of position files defines these: position_schema.py)
_CARD_SCHEMA = {"$ref": "#/$defs/ts-card"}
CARD = FieldType("card", _card_encode, _card_decode, _CARD_SCHEMA)
#: Frames write 0 for "no card"
CARD_OR_NONE = FieldType(
    "card or null",
    lambda c: _card_encode(c) if c else None,
    lambda v, w: 0 if v is None else _card_decode(v, w),
    {"oneOf": [_CARD_SCHEMA, {"type": "null"}]},
)
CARDS = list_of(CARD)
_COUNTRY_SCHEMA = {"$ref": "#/$defs/ts-country"}
COUNTRY = FieldType("country", lambda c: M.COUNTRIES[c].id, _country_decode, _COUNTRY_SCHEMA)
#: Frames write -1 for "no country"
COUNTRY_OR_NONE = FieldType(
    "country or null",
    lambda c: M.COUNTRIES[c].id if c >= 0 else None,
    lambda v, w: -1 if v is None else _country_decode(v, w),
    {"oneOf": [_COUNTRY_SCHEMA, {"type": "null"}]},
)
COUNTRIES = list_of(COUNTRY)
COUNTRIES_OR_NONE = list_of(COUNTRY, nullable=True)
REGION = FieldType("region", str, _region_decode, {"enum": list(M.REGIONS + M.SUBREGIONS)})
# The Operations bonuses and flags frames keep are booleans; a few are computed as ints 0/1.
FLAG = FieldType("boolean", bool, lambda v, w: expect(v, bool, w, "true or false"), {"type": "boolean"})


# -- the pending steps -------------------------------------------------------------------------------

#: The data an event's choice (``ev_choice``, ``event_country``) carries, by choice name: the
#: field it is written as and its type. Other choices carry none.
CHOICE_DATA: dict[str, tuple[str, FieldType]] = {
    "olympic_games": ("sponsor", SIDE),
    "missile_envy": ("player", SIDE),
    "un_intervention_ops": ("card", CARD),
    "missile_envy_ops": ("card", CARD),
    "grain_sales_to_soviets": ("card", CARD),
    "warsaw_pact_remove": ("left", INT),
    "muslim_revolution": ("left", INT),
    "latin_american_debt_crisis_double": ("chosen", COUNTRIES),
}


def _choice_spec(options_field: str, options_type: FieldType):
    def spec(frame: Any) -> FieldSpec:
        name = frame[2] if isinstance(frame, tuple) else frame.get("choice")
        data = CHOICE_DATA.get(name)
        base: FieldSpec = (("actor", SIDE, True), ("choice", STR, True), (options_field, options_type, True))
        if data is None:
            return base + (("data", NOTHING, True),)
        return base + ((data[0], data[1], True),)

    return spec


#: Every step's frame fields, in frame order (docs/positions.md lists them with their meaning).
FRAME_SPECS: dict[str, Any] = {
    "setup": (),
    "deal": (),
    "turn": (),
    "headline": (),
    "headline_reveal": (),
    "action_rounds": (),
    "grain_sales_draw": (),
    "five_year_plan_discard": (),
    "setup_place": (("side", SIDE, True), ("left", INT, True), ("region", REGION, True)),
    "bid": (("side", SIDE, True), ("left", INT, True)),
    "headline_choose": (("side", SIDE, True), ("public", FLAG, True)),
    "headline_resolve": (("side", SIDE, True),),
    "dispose": (("card", CARD, True), ("remove", FLAG, True)),
    "action_round": (
        ("round", INT, True), ("side", SIDE, True), ("hooks_done", INT, False), ("extra_taken", FLAG, False),
    ),
    "ar_end": (
        ("side", SIDE, True), ("defcon_before", INT, True), ("card", CARD, False), ("use", STR, False),
    ),
    "card_use": (("card", CARD, True), ("side", SIDE, True)),
    "space_discard": (("side", SIDE, True),),
    "end_turn": (("space_discard", STR, False),),
    "score_region": (("region", REGION, True), ("hooks_done", INT, False)),
    "event": (("card", CARD, True), ("actor", SIDE, True)),
    "after_event": (("card", CARD, True), ("actor", SIDE, True)),
    "influence": (
        ("side", SIDE, True), ("left", INT, True), ("china_bonus", FLAG, True), ("vietnam_bonus", FLAG, True),
        ("eligible", COUNTRIES, True),
    ),
    "realign": (
        ("side", SIDE, True), ("left", INT, True), ("china_bonus", FLAG, True), ("vietnam_bonus", FLAG, True),
        ("free", FLAG, True), ("among", COUNTRIES_OR_NONE, True),
    ),
    "realign_roll": (("side", SIDE, True), ("country", COUNTRY, True), ("first_die", INT, True)),
    "coup": (
        ("side", SIDE, True), ("ops", INT, True), ("china_bonus", FLAG, True), ("vietnam_bonus", FLAG, True),
        ("free", FLAG, True), ("card", CARD_OR_NONE, True), ("among", COUNTRIES_OR_NONE, True),
    ),
    "coup_roll": (("side", SIDE, True), ("country", COUNTRY, True), ("ops", INT, True), ("free", FLAG, True)),
    "space_roll": (("side", SIDE, True),),
    "war": (
        ("actor", SIDE, True), ("country", COUNTRY, True), ("modifier", INT, True), ("at_least", INT, True),
        ("vp", INT, True),
    ),
    "ev_ops": (("actor", SIDE, True), ("ops", INT, True), ("hooks_done", INT, False)),
    "ev_place": (
        ("actor", SIDE, True), ("left", INT, True), ("allowed", COUNTRIES, True), ("max_per", INT, True),
        ("placed", COUNTRIES, True), ("optional", FLAG, True),
    ),
    "ev_remove": (
        ("actor", SIDE, True), ("target", SIDE, True), ("left", INT, True), ("allowed", COUNTRIES, True),
        ("max_per", INT, True), ("removed", COUNTRIES, True), ("optional", FLAG, True),
    ),
    "ev_remove_each": (
        ("actor", SIDE, True), ("target", SIDE, True), ("picks", INT, True), ("per", INT, True),
        ("allowed", COUNTRIES, True), ("chosen", COUNTRIES, True),
    ),
    "ev_place_one": (("actor", SIDE, True), ("amount", INT, True), ("allowed", COUNTRIES, True)),
    "ev_choice": _choice_spec("keys", STRINGS),
    "event_country": _choice_spec("countries", COUNTRIES),
    "ev_destalinize": (("actor", SIDE, True), ("influence_before", INT, True)),
    "olympic_roll": (("sponsor", SIDE, True), ("first_die", INT, True)),
    "summit_roll": (("actor", SIDE, True), ("first_die", INT, True)),
    "trap_roll": (("side", SIDE, True),),
    "terrorism_discard": (("side", SIDE, True), ("left", INT, True)),
    "ask_not_discard": (("discarded", INT, True),),
    "ask_not_draw": (("left", INT, True),),
    "che_coup": (("ops", INT, True), ("excluded", COUNTRY_OR_NONE, True), ("first", FLAG, True)),
    "che_check": (("country", COUNTRY, True), ("us_before", INT, True), ("ops", INT, True)),
    "tehran_draw": (("left", INT, True), ("drawn", CARDS, True)),
    "tehran_discard": (("drawn", CARDS, True),),
}


# -- lasting effects -----------------------------------------------------------------------------------

#: Effects that name a side (per_side in effects.py), and whether that side is the one that
#: played the card (True) or its opponent (False), as each card says.
_NAMED_SIDE_PLAYED: dict[int, bool] = {31: False, 40: False, 49: False, 69: True}


def _effect_tables() -> tuple[dict[str, dict[str, Any]], dict[tuple, str], list[E.Family]]:
    """name → public entry, (card, played_by, detail) → name, and the families."""
    to_public: dict[str, dict[str, Any]] = {}
    to_name: dict[tuple, str] = {}
    families: list[E.Family] = []
    plain: dict[int, list[str]] = {}
    for value in vars(E).values():
        if isinstance(value, E.Family):
            families.append(value)
        elif isinstance(value, tuple) and len(value) == 2 and all(v in E.CARD_OF for v in value):
            card = E.CARD_OF[value[0]]
            for side, name in enumerate(value):
                played = side if _NAMED_SIDE_PLAYED[card] else 1 - side
                to_public[name] = {"card": card, "played_by": SIDE_NAMES[played]}
                to_name[(card, SIDE_NAMES[played], None)] = name
        elif isinstance(value, str) and value in E.CARD_OF and value != E.TURN:
            plain.setdefault(E.CARD_OF[value], []).append(value)
    for card, names in plain.items():
        names.sort(key=len)
        base = names[0]
        for name in names:
            detail = name[len(base) + 1:] if name != base else None
            entry: dict[str, Any] = {"card": card}
            if detail:
                entry["detail"] = detail
            to_public[name] = entry
            to_name[(card, None, detail)] = name
    return to_public, to_name, families


_EFFECT_PUBLIC, _EFFECT_NAME, _FAMILIES = _effect_tables()
#: A family's argument is a region (Chernobyl) or a country id (Shuttle Diplomacy's ignored country).
_FAMILY_FIELD = {E.CHERNOBYL.card: "region", E.SCORING_IGNORE.card: "country"}


def effect_entry(name: str) -> dict[str, Any]:
    """The public entry of the engine's effect ``name`` (``red_scare:us:turn`` →
    ``{"card": 31, "played_by": "ussr"}``)."""
    if name in _EFFECT_PUBLIC:
        return dict(_EFFECT_PUBLIC[name])
    for family in _FAMILIES:
        if name in family:
            argument = family.args((name,))[0]
            return {"card": family.card, _FAMILY_FIELD[family.card]: argument}
    raise ValueError(f"effect {name!r} has no public form (position module out of date)")


#: The cards with a lasting effect (what an effect's ``card`` may be), by number.
_EFFECT_CARDS = tuple(sorted({e["card"] for e in _EFFECT_PUBLIC.values()} | set(_FAMILY_FIELD)))


def _effect_card(value: Any, where: str) -> int:
    """An effect's card: its number (as positions write it), or its id."""
    if (isinstance(value, int) and not isinstance(value, bool) and value in CD.CARD_BY_NUMBER) or (
            isinstance(value, str) and value in CD.CARD_BY_ID):
        return _card_decode(value, where)
    raise fail(where, f"unknown card {value!r} (an effect names its card by number, 1 to {max(CD.CARD_BY_NUMBER)}: "
                      f"31 for red_scare_purge; cards with a lasting effect: {' '.join(map(str, _EFFECT_CARDS))})")


def effect_name(entry: Any, where: str) -> str:
    """The engine's effect name of a public entry; raises :class:`PositionError`."""
    expect(entry, dict, where, 'an effect object {"card": N, ...}')
    card = _effect_card(entry.get("card"), f"{where}.card")
    for family in _FAMILIES:
        if family.card == card and _FAMILY_FIELD[card] in entry:
            field = _FAMILY_FIELD[card]
            argument = entry[field]
            if field == "region":
                if argument not in M.REGIONS:
                    raise fail(f"{where}.region", f"unknown region {argument!r}")
            else:
                _country_decode(argument, f"{where}.country")
            return family(argument)
    played = entry.get("played_by")
    if played is not None:
        SIDE.decode(played, f"{where}.played_by")
    key = (card, played, entry.get("detail"))
    if key not in _EFFECT_NAME:
        forms = [dict(v) for v in _EFFECT_PUBLIC.values() if v["card"] == card]
        forms += [{"card": card, _FAMILY_FIELD[card]: "..."}] if card in _FAMILY_FIELD else []
        if not forms:
            raise fail(where, f"card {CD.CARD_BY_NUMBER[card].id} (#{card}) has no lasting effect")
        raise fail(where, f"no such effect of card #{card}; its forms: {forms}")
    return _EFFECT_NAME[key]


# -- writing ---------------------------------------------------------------------------------------


def _sides(values: list[Any]) -> dict[str, Any]:
    return {SIDE_NAMES[s]: values[s] for s in (0, 1)}


def _cards(cards: Any) -> list[str]:
    return [_card_encode(c) for c in cards]


def to_position(state: TSState) -> dict[str, Any]:
    """The whole of ``state`` as a position (every field written, JSON-ready)."""
    rules = state.rules
    return {
        "game": GAME,
        "ruleset": rules.ruleset,
        "options": dict(rules.options),
        "number": state.number,
        "turn": state.turn,
        "action_round": state.ar,
        "phasing": SIDE_NAMES[state.phasing],
        "vp": state.vp,
        "defcon": state.defcon,
        "military_ops": _sides(state.milops),
        "space": _sides(state.space),
        "space_attempts": _sides(state.space_attempts),
        "influence": {
            c.id: {"ussr": state.inf[0][i], "us": state.inf[1][i]}
            for i, c in enumerate(M.COUNTRIES)
            if state.inf[0][i] or state.inf[1][i]
        },
        "hands": {SIDE_NAMES[s]: _cards(state.hands[s]) for s in (0, 1)},
        "china_card": {"holder": SIDE_OR_NONE.encode(state.china), "face_up": state.china_face_up},
        "headline": {SIDE_NAMES[s]: CARD_OR_NONE.encode(state.headline[s]) for s in (0, 1)},
        "deck": _cards(state.deck),
        "discard": _cards(state.discard),
        "removed": _cards(state.removed),
        "effects": sorted((effect_entry(e) for e in state.effects), key=_effect_order),
        "events_played": sorted(_cards(state.events_played)),
        # cards of each side's hand (or secret headline) that the other side has seen there
        "seen_by_opponent": {SIDE_NAMES[s]: sorted(_cards(state.known[s])) for s in (0, 1)},
        "chinese_civil_war": state.ccw,
        "stack": encode_stack(state.stack, FRAME_SPECS),
    }


def _effect_order(entry: dict[str, Any]) -> tuple:
    return (entry["card"], sorted((k, str(v)) for k, v in entry.items()))


# -- loading ---------------------------------------------------------------------------------------


def _int(data: Mapping[str, Any], key: str, default: int, low: int | None = None, high: int | None = None) -> int:
    return _bounded(data.get(key, default), key, low, high)


def _bounded(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    expect(value, int, where, "a whole number")
    if (low is not None and value < low) or (high is not None and value > high):
        raise fail(where, f"{value} is out of range ({low} to {high})")
    return value


def _per_side(data: Mapping[str, Any], key: str, default: Any) -> list[Any]:
    value = data.get(key)
    if value is None:
        return [default, default]
    expect(value, dict, key, "an object keyed by side (ussr, us)")
    for name in value:
        if name not in SIDE_NAMES:
            raise fail(f"{key}.{name}", "unknown side (sides: ussr, us)")
    return [value.get(name, default) for name in SIDE_NAMES]


def cards_in_game(rules: TSRules, turn: int) -> list[int]:
    """The cards of the periods shuffled in by ``turn`` (the China Card apart)."""
    cards = list(CD.EARLY_WAR)
    if turn >= 4:
        cards += CD.MID_WAR
    if turn >= 8:
        cards += CD.LATE_WAR
    return [c for c in cards if rules.optional_cards or c not in CD.OPTIONAL_CARDS]


class _Places:
    """Where each card was put while loading: a card in two places is an error."""

    def __init__(self, allowed: set[int]) -> None:
        self.allowed = allowed
        self.at: dict[int, str] = {}

    def cards(self, value: Any, where: str) -> tuple[int, ...]:
        expect(value, list, where, "a list of cards")
        return tuple(self.card(item, f"{where}[{i}]") for i, item in enumerate(value))

    def card(self, item: Any, where: str) -> int:
        card = _card_decode(item, where)
        if card == CHINA:
            raise fail(where, "the_china_card is never in a hand or pile: give china_card.holder")
        if card not in self.allowed:
            raise fail(where, f"{_card_encode(card)} is not in play at this turn with these options")
        if card in self.at:
            raise fail(where, f"card {_card_encode(card)} is in two places (also at {self.at[card]})")
        self.at[card] = where
        return card


def _referenced(stack: list[tuple]) -> set[int]:
    """Cards the pending steps hold (a card being played, Our Man in Tehran's drawn cards)."""
    held: set[int] = set()
    for frame in stack:
        spec = FRAME_SPECS[frame[0]]
        if callable(spec):
            spec = spec(frame)
        for (_, kind, _), value in zip(spec, frame[1:], strict=False):
            if kind is CARD or (kind is CARD_OR_NONE and value):
                held.add(value)
            elif kind is CARDS:
                held.update(value)
    return held


def from_position(data: Mapping[str, Any]) -> TSState:
    """The state a position describes; raises :class:`PositionError` naming the field at fault."""
    rules: TSRules = rules_from(data, GAME, make_rules)
    state = TSState(rules, len(M.COUNTRIES))
    state.number = _int(data, "number", 0, 0)
    state.turn = _int(data, "turn", 1, 0, 10)
    state.ar = _int(data, "action_round", 1, 0, 9)
    state.phasing = SIDE.decode(data.get("phasing", "ussr"), "phasing")
    state.vp = _int(data, "vp", 0, -20, 20)
    state.defcon = _int(data, "defcon", 5, 1, 5)
    for key, attr, high in (("military_ops", "milops", 5), ("space", "space", 8), ("space_attempts", "space_attempts", 9)):
        values = _per_side(data, key, 0)
        setattr(state, attr, [_bounded(values[s], f"{key}.{SIDE_NAMES[s]}", 0, high) for s in (0, 1)])

    influence = data.get("influence") or {}
    expect(influence, dict, "influence", "an object keyed by country id")
    for country, amounts in influence.items():
        at = f"influence.{country}"
        i = _country_decode(country, at)
        expect(amounts, dict, at, 'an object {"ussr": n, "us": n}')
        for side_name in amounts:
            if side_name not in SIDE_NAMES:
                raise fail(f"{at}.{side_name}", "unknown side (sides: ussr, us)")
        for s, side_name in enumerate(SIDE_NAMES):
            value = expect(amounts.get(side_name, 0), int, f"{at}.{side_name}", "a whole number")
            if value < 0:
                raise fail(f"{at}.{side_name}", f"influence cannot be negative ({value})")
            state.inf[s][i] = value

    china = data.get("china_card") or {}
    expect(china, dict, "china_card", 'an object {"holder": side, "face_up": bool}')
    state.china = SIDE_OR_NONE.decode(china.get("holder", "ussr"), "china_card.holder")
    state.china_face_up = expect(china.get("face_up", True), bool, "china_card.face_up", "true or false")

    allowed = set(cards_in_game(rules, state.turn))
    places = _Places(allowed)
    hands = _per_side(data, "hands", [])
    state.hands = [tuple(sorted(places.cards(hands[s], f"hands.{SIDE_NAMES[s]}"))) for s in (0, 1)]
    state.discard = places.cards(data.get("discard", []), "discard")
    state.removed = places.cards(data.get("removed", []), "removed")
    headline = _per_side(data, "headline", None)
    state.headline = [CARD_OR_NONE.decode(headline[s], f"headline.{SIDE_NAMES[s]}") for s in (0, 1)]
    for s in (0, 1):
        if state.headline[s] and state.headline[s] not in allowed:
            raise fail(f"headline.{SIDE_NAMES[s]}", f"{_card_encode(state.headline[s])} is not in play")

    stack = data.get("stack")
    if stack is None:
        # the start of the phasing side's action round, the rest of the turn after it
        state.stack = _rest_of_turn(state)
    else:
        state.stack = decode_stack(stack, FRAME_SPECS)
        if not state.stack:
            raise fail("stack", "empty: a position of a match under way has at least one pending step")
    effects = data.get("effects", [])
    expect(effects, list, "effects", "a list of effect objects")
    state.effects = frozenset(effect_name(e, f"effects[{i}]") for i, e in enumerate(effects))
    # A card being played or drawn by an event is held by a pending step, in no pile yet; a
    # card whose lasting effect is in play may lie in front of its player (Shuttle Diplomacy).
    held = _referenced(state.stack) | {c for c in state.headline if c}
    held |= {E.CARD_OF.get(e, 0) for e in state.effects}
    deck = data.get("deck")
    if deck is None:
        state.deck = tuple(c for c in sorted(allowed) if c not in places.at and c not in held)
    else:
        state.deck = tuple(sorted(places.cards(deck, "deck")))
        missing = [_card_encode(c) for c in sorted(allowed) if c not in places.at and c not in held]
        if missing:
            raise fail("deck", f"card counts off: {len(missing)} card(s) in play are nowhere: {', '.join(missing)}")

    played = data.get("events_played", [])
    expect(played, list, "events_played", "a list of cards")
    state.events_played = frozenset(_card_decode(c, f"events_played[{i}]") for i, c in enumerate(played))
    seen = _per_side(data, "seen_by_opponent", [])
    known = []
    for s in (0, 1):
        where = f"seen_by_opponent.{SIDE_NAMES[s]}"
        expect(seen[s], list, where, "a list of cards")
        cards = frozenset(_card_decode(c, f"{where}[{i}]") for i, c in enumerate(seen[s]))
        for card in sorted(cards):
            if card not in state.hands[s] and card != state.headline[s]:
                raise fail(where, f"{_card_encode(card)} is not in the {SIDE_NAMES[s]} hand nor its headline")
        known.append(cards)
    state.known = known
    state.ccw = _int(data, "chinese_civil_war", 0, 0, 3)
    return state


def _rest_of_turn(state: TSState) -> list[tuple]:
    """The pending steps at the start of ``phasing``'s action round ``ar``: its round, then the
    other rounds of the turn, then the end of the turn (a hand-written position's default); at
    ``ar`` 0, the turn's headline then its action rounds."""
    if state.ar == 0:
        return [("end_turn",), ("action_rounds",), ("headline",)]
    stack: list[tuple] = [("end_turn",)]
    rounds = regular_rounds(state)
    for ar in range(rounds, state.ar - 1, -1):
        stack.append(("action_round", ar, 1))
        if ar > state.ar or state.phasing == 0:
            stack.append(("action_round", ar, 0))
    return stack


def stops(until: str) -> Any:
    """For ``standoff play --until``: the action round a state is in (the headline counts as
    one), or its turn."""
    if until == "action_round":
        return lambda state: (state.turn, state.ar, state.phasing)
    if until == "turn":
        return lambda state: state.turn
    raise PositionError(f"until: Twilight Struggle has action rounds and turns, not {until!r}")
