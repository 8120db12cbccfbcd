"""Schotten Totten / Battle Line positions: a whole state as data, in the words of the views.

Roles by name (``p1``), cards by name (``red-5``, ``fog``), flags numbered 1 to 9, decks by name
(``troops``, ``tactics``). A position is complete: both hands, the decks (cards nobody knows the
order of, and the Scout tops in order with who put each back), what each role knows of the other
hands, when each card reached its side (completion order breaks ties between equal formations),
and the engine's pending steps (``stack``) named as in decisions. docs/positions.md is the
reference; :func:`to_position` writes every field, :func:`from_position` also takes the short
form a person writes (omitted decks are the cards not elsewhere, omitted counts are derived,
an omitted stack is the start of ``to_move``'s turn).

Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.position import (
    INT,
    FieldSpec,
    FieldType,
    PositionError,
    decode_stack,
    encode_stack,
    enum_type,
    expect,
    fail,
    rules_from,
)
from . import cards as C
from .rules import STRules, make_rules
from .state import DECK_NAMES, NO_ONE, STState
from .turn import _TURN_FRAMES

GAME = "schotten-totten"


def _card_decode(value: Any, where: str) -> int:
    if not isinstance(value, str) or value not in C.CARD_BY_NAME:
        raise fail(where, f"unknown card {value!r} (cards are named like red-5 or alexander)")
    return C.CARD_BY_NAME[value]


CARD = FieldType("card", C.card_name, _card_decode, {"$ref": "#/$defs/st-card"})  # position_schema.py
#: Flags are 0-based in the engine, 1-based in every key, view and position.
FLAG = FieldType("flag (1-9)", lambda f: f + 1, lambda v, w: _flag_decode(v, w),
                 {"type": "integer", "minimum": 1, "maximum": 9})
DECK = enum_type("deck", DECK_NAMES)


def _flag_decode(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 9:
        raise fail(where, f"flags are numbered 1 to 9, got {value!r}")
    return value - 1


def _frame_specs(roles: tuple[str, ...]) -> dict[str, FieldSpec]:
    role = enum_type("role", roles)
    return {
        "deal": (("dealt", INT, True),),  # cards dealt so far (round-robin from roles[0])
        "first_player": (),
        "turn": (),
        "end_turn": (),
        "play": (),
        "claim": (),
        "draw": (),
        "place": (("card", CARD, True),),
        "draw_card": (("deck", DECK, True), ("role", role, True)),
        "environment": (("card", CARD, True),),
        "scout_draw": (("left", INT, True),),
        "scout_return": (),
        "redeploy": (),
        "redeploy_to": (("card", CARD, True), ("from_flag", FLAG, True)),
        "mud_discard": (("flag", FLAG, True), ("role", role, True)),
        "deserter": (),
        "traitor": (),
        "traitor_to": (("card", CARD, True),),
    }


_SPECS: dict[tuple[str, ...], dict[str, FieldSpec]] = {}


def frame_specs(roles: tuple[str, ...]) -> dict[str, FieldSpec]:
    """The declared fields of every step's frame (docs/positions.md lists them)."""
    specs = _SPECS.get(roles)
    if specs is None:
        specs = _SPECS[roles] = _frame_specs(roles)
    return specs


def _role_or_none(roles: tuple[str, ...], r: int) -> str | None:
    return roles[r] if r != NO_ONE else None


def to_position(state: STState) -> dict[str, Any]:
    """The whole of ``state`` as a position (every field written, JSON-ready)."""
    rules = state.rules
    roles = rules.roles
    n = len(roles)
    names = C.card_name
    flags = []
    for f in range(9):
        flags.append({
            "flag": f + 1,
            "claimed_by": _role_or_none(roles, state.claimed[f]),
            "fog": _role_or_none(roles, state.fog[f]),
            "mud": _role_or_none(roles, state.mud[f]),
            "sides": {roles[r]: [names(c) for c in state.sides[f * n + r]] for r in range(n)},
            "placed": {roles[r]: list(state.placed[f * n + r]) for r in range(n)},
        })
    return {
        "game": GAME,
        "ruleset": rules.ruleset,
        "options": dict(rules.options),
        "number": state.number,
        "turn": state.turn,
        "to_move": roles[state.current],
        "passes": state.passes,
        "flags": flags,
        "hands": {roles[r]: [names(c) for c in state.hands[r]] for r in range(n)},
        "decks": {DECK_NAMES[d]: [names(c) for c in state.decks[d]] for d in range(2)},
        # top card first, as views list them
        "deck_tops": {
            DECK_NAMES[d]: [{"card": names(c), "known_by": roles[k]} for c, k in reversed(state.tops[d])]
            for d in range(2)
        },
        "discards": {roles[r]: [names(c) for c in state.discards[r]] for r in range(n)},
        "known": {roles[r]: [names(c) for c in state.known[r]] for r in range(n)},
        "tactics_played": {roles[r]: state.tactics_played[r] for r in range(n)},
        "leader_played": {roles[r]: state.leader_played[r] for r in range(n)},
        "stack": encode_stack(state.stack, frame_specs(roles)),
    }


# -- loading -------------------------------------------------------------------------------------


def _per_role(data: Mapping[str, Any], key: str, roles: tuple[str, ...], default: Any, at: str = "") -> list[Any]:
    """``data[key]`` as a list indexed by role (``{role name: value}``; missing roles get
    ``default``); ``at`` is the path of ``data`` in the position."""
    value = data.get(key)
    where = f"{at}.{key}" if at else key
    if value is None:
        return [default for _ in roles]
    expect(value, dict, where, "an object keyed by role")
    for name in value:
        if name not in roles:
            raise fail(f"{where}.{name}", f"unknown role (roles: {', '.join(roles)})")
    return [value.get(name, default) for name in roles]


class _Places:
    """Where each card was put while loading, to report a card in two places."""

    def __init__(self, rules: STRules) -> None:
        self.rules = rules
        self.at: dict[int, str] = {}

    def cards(self, value: Any, where: str) -> tuple[int, ...]:
        expect(value, list, where, "a list of cards")
        out = []
        for i, item in enumerate(value):
            out.append(self.card(item, f"{where}[{i}]"))
        return tuple(out)

    def card(self, item: Any, where: str) -> int:
        card = _card_decode(item, where)
        if C.is_troop(card) and C.value_of(card) > self.rules.max_value:
            raise fail(where, f"{item} is not in the {self.rules.ruleset} deck (values 1-{self.rules.max_value})")
        if not C.is_troop(card) and not self.rules.tactics:
            raise fail(where, f"{item}: this ruleset has no tactics cards")
        if card in self.at:
            raise fail(where, f"card {item} is in two places (also at {self.at[card]})")
        self.at[card] = where
        return card


def from_position(data: Mapping[str, Any]) -> STState:
    """The state a position describes; raises :class:`PositionError` naming the field at fault."""
    rules: STRules = rules_from(data, GAME, make_rules)
    roles = rules.roles
    n = len(roles)
    role = enum_type("role", roles, none=NO_ONE, nullable=True)
    state = STState(rules)
    places = _Places(rules)

    for key in ("number", "turn", "passes"):
        value = data.get(key, 0 if key != "turn" else 1)
        setattr(state, key, expect(value, int, key, "a whole number"))
    to_move = data.get("to_move", roles[0])
    state.current = enum_type("role", roles).decode(to_move, "to_move")

    # the table
    flags = data.get("flags", [])
    expect(flags, list, "flags", "a list of flags")
    seen_flags: dict[int, int] = {}  # flag → its index in the list (for error paths)
    for i, entry in enumerate(flags):
        at = f"flags[{i}]"
        expect(entry, dict, at, "a flag object")
        f = FLAG.decode(entry.get("flag", i + 1), f"{at}.flag")
        if f in seen_flags:
            raise fail(f"{at}.flag", f"flag {f + 1} listed twice")
        seen_flags[f] = i
        for key in entry:
            if key not in ("flag", "claimed_by", "fog", "mud", "sides", "placed"):
                raise fail(f"{at}.{key}", "unknown field (flag, claimed_by, fog, mud, sides, placed)")
        state.claimed[f] = role.decode(entry.get("claimed_by"), f"{at}.claimed_by")
        for env, card in (("fog", C.FOG), ("mud", C.MUD)):
            owner = role.decode(entry.get(env), f"{at}.{env}")
            if owner != NO_ONE:
                places.card(C.card_name(card), f"{at}.{env}")
                getattr(state, env)[f] = owner
        sides = _per_role(entry, "sides", roles, [], at)
        placed = entry.get("placed") or {}
        expect(placed, dict, f"{at}.placed", "an object keyed by role")
        for r in range(n):
            where = f"{at}.sides.{roles[r]}"
            cards = places.cards(sides[r], where)
            if len(cards) > 4:
                raise fail(where, f"{len(cards)} cards: a side holds at most 3, or 4 with Mud")
            state.sides[f * n + r] = cards
            times = placed.get(roles[r])
            if times is None:
                times = [0] * len(cards)  # all at once: equal formations are then a tie
            expect(times, list, f"{at}.placed.{roles[r]}", "a list of decision numbers")
            if len(times) != len(cards) or not all(isinstance(t, int) for t in times):
                raise fail(f"{at}.placed.{roles[r]}", f"needs one decision number per card ({len(cards)})")
            state.placed[f * n + r] = tuple(times)
            for card in cards:
                if C.is_troop(card):
                    state.table |= 1 << card

    hands = _per_role(data, "hands", roles, [])
    for r in range(n):
        state.hands[r] = tuple(sorted(places.cards(hands[r], f"hands.{roles[r]}")))
    discards = _per_role(data, "discards", roles, [])
    for r in range(n):
        state.discards[r] = places.cards(discards[r], f"discards.{roles[r]}")
        for card in state.discards[r]:
            if C.is_troop(card):
                state.table |= 1 << card

    stack = data.get("stack")
    if stack is None:
        # the start of to_move's turn, its phases in the order of the claim timing
        state.stack = list(_TURN_FRAMES[rules.claim_timing])
    else:
        state.stack = decode_stack(stack, frame_specs(roles))
        if not state.stack:
            raise fail("stack", "empty: a position of a match under way has at least one pending step")
    # A side holds 3 cards, 4 with Mud; 4 without Mud only while its owner must discard one
    # because Mud left (a pending mud_discard).
    for f in range(9):
        for r in range(n):
            size = len(state.sides[f * n + r])
            if size > state.capacity(f) and ("mud_discard", f, r) not in state.stack:
                raise fail(f"flags[{seen_flags[f]}].sides.{roles[r]}",
                           f"{size} cards: a side holds at most {state.capacity(f)} (4 with Mud)")
    # A card being played (place, environment) has left the hand and is in no other place yet.
    for i, frame in enumerate(state.stack):
        if frame[0] in ("place", "environment"):
            places.card(C.card_name(frame[1]), f"stack[{i}].card")

    # the decks: Scout tops (top first), then the cards of unknown order
    tops = data.get("deck_tops") or {}
    expect(tops, dict, "deck_tops", "an object keyed by deck")
    for name in tops:
        if name not in DECK_NAMES:
            raise fail(f"deck_tops.{name}", f"unknown deck (decks: {', '.join(DECK_NAMES)})")
    knower_type = enum_type("role", roles)
    for d, name in enumerate(DECK_NAMES):
        items = tops.get(name, [])
        expect(items, list, f"deck_tops.{name}", "a list of {card, known_by}")
        loaded = []
        for i, item in enumerate(items):
            at = f"deck_tops.{name}[{i}]"
            expect(item, dict, at, "an object {card, known_by}")
            card = places.card(item.get("card"), f"{at}.card")
            if (d == 0) != C.is_troop(card):
                raise fail(f"{at}.card", f"{item.get('card')} does not belong in the {name} deck")
            loaded.append((card, knower_type.decode(item.get("known_by"), f"{at}.known_by")))
        state.tops[d] = tuple(reversed(loaded))  # the engine keeps the top card last
    full = (tuple(C.troop_deck(rules.max_value)), C.TACTICS if rules.tactics else ())
    decks = data.get("decks")
    if decks is None:
        for d in range(2):
            state.decks[d] = tuple(c for c in full[d] if c not in places.at)
    else:
        expect(decks, dict, "decks", "an object keyed by deck")
        for name in decks:
            if name not in DECK_NAMES:
                raise fail(f"decks.{name}", f"unknown deck (decks: {', '.join(DECK_NAMES)})")
        for d, name in enumerate(DECK_NAMES):
            cards = places.cards(decks.get(name, []), f"decks.{name}")
            for i, card in enumerate(cards):
                if card not in full[d]:
                    raise fail(f"decks.{name}[{i}]", f"{C.card_name(card)} does not belong in the {name} deck")
            state.decks[d] = tuple(sorted(cards))
        missing = [C.card_name(c) for d in range(2) for c in full[d] if c not in places.at]
        if missing:
            raise fail("decks", f"card counts off: {len(missing)} card(s) are nowhere: {', '.join(missing)}")

    # Cards each role saw go into another hand (a Scout top it put back, drawn by another).
    # Entries may outlive the card's stay in that hand: views only show those still there.
    known = _per_role(data, "known", roles, [])
    for r in range(n):
        where = f"known.{roles[r]}"
        expect(known[r], list, where, "a list of cards")
        cards = tuple(_card_decode(c, f"{where}[{i}]") for i, c in enumerate(known[r]))
        state.known[r] = cards

    # counts the table shows, unless given
    played = [0] * n
    leaders = [False] * n
    for r in range(n):
        mine = [c for f in range(9) for c in state.sides[f * n + r]] + list(state.discards[r])
        mine += [C.FOG for f in range(9) if state.fog[f] == r] + [C.MUD for f in range(9) if state.mud[f] == r]
        if r == state.current:  # the card being played counts from the moment it left the hand
            mine += [frame[1] for frame in state.stack if frame[0] in ("place", "environment")]
        played[r] = sum(1 for c in mine if not C.is_troop(c))
        leaders[r] = any(c in C.LEADERS for c in mine)
    given = _per_role(data, "tactics_played", roles, None)
    state.tactics_played = [
        played[r] if given[r] is None else expect(given[r], int, f"tactics_played.{roles[r]}", "a whole number")
        for r in range(n)
    ]
    given = _per_role(data, "leader_played", roles, None)
    state.leader_played = [
        leaders[r] if given[r] is None else expect(given[r], bool, f"leader_played.{roles[r]}", "true or false")
        for r in range(n)
    ]

    return state



def stops(until: str) -> Any:
    """For ``standoff play --until``: the turn a state is in (the game has turns, no rounds)."""
    if until != "turn":
        raise PositionError("until: Schotten Totten has turns only (until turn)")
    return lambda state: state.turn
