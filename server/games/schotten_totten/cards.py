"""Cards of Battle Line / Schotten Totten as small integers.

A card is an ``int`` so that hands, decks and flag sides are plain lists that copy fast:

* troop cards: ``colour * 10 + (value - 1)`` for colour 0..5 and value 1..10, i.e. 0..59
  (the classic 54-card Schotten Totten deck uses values 1..9 of the same encoding);
* tactics cards: 60..69, one of each (see the constants below).

Names (used in option keys and records) are stable: ``red-5``, ``alexander``, ``fog``...
"""

from __future__ import annotations

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple")

ALEXANDER = 60
DARIUS = 61
COMPANION_CAVALRY = 62
SHIELD_BEARERS = 63
FOG = 64
MUD = 65
SCOUT = 66
REDEPLOY = 67
DESERTER = 68
TRAITOR = 69

TACTICS: tuple[int, ...] = tuple(range(60, 70))
LEADERS: frozenset[int] = frozenset((ALEXANDER, DARIUS))
#: Morale tactics sit in a formation slot like a troop and act as a joker.
MORALE: frozenset[int] = frozenset((ALEXANDER, DARIUS, COMPANION_CAVALRY, SHIELD_BEARERS))
#: Environment tactics lie beside a flag and take no slot.
ENVIRONMENT: frozenset[int] = frozenset((FOG, MUD))
#: Guile tactics are resolved, then discarded face up by their player.
GUILE: frozenset[int] = frozenset((SCOUT, REDEPLOY, DESERTER, TRAITOR))

TACTICS_NAMES: dict[int, str] = {
    ALEXANDER: "alexander",
    DARIUS: "darius",
    COMPANION_CAVALRY: "companion-cavalry",
    SHIELD_BEARERS: "shield-bearers",
    FOG: "fog",
    MUD: "mud",
    SCOUT: "scout",
    REDEPLOY: "redeploy",
    DESERTER: "deserter",
    TRAITOR: "traitor",
}

#: Values a morale card may take when a formation is resolved (without Fog).
MORALE_VALUES: dict[int, tuple[int, ...]] = {
    ALEXANDER: tuple(range(1, 11)),
    DARIUS: tuple(range(1, 11)),
    COMPANION_CAVALRY: (8,),
    SHIELD_BEARERS: (1, 2, 3),
}
#: Under Fog only the sum counts and morale cards count at their maximum.
MORALE_MAX: dict[int, int] = {ALEXANDER: 10, DARIUS: 10, COMPANION_CAVALRY: 8, SHIELD_BEARERS: 3}


def troop(colour: int, value: int) -> int:
    """The troop card of ``colour`` (0..5) and ``value`` (1..10)."""
    return colour * 10 + value - 1


def is_troop(card: int) -> bool:
    return card < 60


def colour_of(card: int) -> int:
    """Colour index of a troop card."""
    return card // 10


def value_of(card: int) -> int:
    """Value (1..10) of a troop card."""
    return card % 10 + 1


def card_name(card: int) -> str:
    """Stable, human-readable name: ``red-5`` or ``companion-cavalry``."""
    if card < 60:
        return f"{COLOURS[card // 10]}-{card % 10 + 1}"
    return TACTICS_NAMES[card]


CARD_BY_NAME: dict[str, int] = {card_name(c): c for c in range(70)}


def card_from_name(name: str) -> int:
    """Inverse of :func:`card_name`; raises ``KeyError`` for an unknown name."""
    return CARD_BY_NAME[name]


def troop_deck(max_value: int = 10) -> list[int]:
    """All troop cards of values 1..max_value, in id order."""
    return [colour * 10 + v for colour in range(6) for v in range(max_value)]
