"""Rulesets and options of Schotten Totten / Battle Line.

Rulesets:

* ``battle_line`` (default): the rules we were given. 60 troops (1-10 in 6 colours), 10 tactics
  cards, hands of 7, claims after playing.
* ``classic``: the original Schotten Totten. 54 troops (1-9), no tactics, hands of 6, claims at
  the start of the turn.
* ``three_player``: three players (roles ``p1``, ``p2``, ``p3``), rules digest §7. The seed gives
  one line (no tactics; three adjacent flags or any four flags win); the digest fixes the rest:
  every flag has three sides, a player claims a flag when its complete formation provably beats
  *both* other sides (the §4 proof against each of them, ties to the side completed first), turn
  order rotates p1 → p2 → p3 → p1 from the (random) first player, one deck of the 60 troops.
  Policy on the points neither text fixes:

  - hands of **7** (Battle Line's hand size: the deck is Battle Line's 60 troops, so we keep its
    convention; 21 troops are dealt, 39 stay in the deck);
  - claims **after playing** (Battle Line's default; ``claim_timing`` may change it);
  - ``tactics`` is ``off`` and asking for ``on`` is a rules error;
  - stalemate: as in two-player games, when all three players pass in succession (each could do
    nothing but pass) and nobody can prove a flag, the game ends (``stalemate`` option: a draw,
    1/3 each, or the single player holding the most flags wins; a tie for most is a draw).

Options (strings, as they travel in configs, records and on the wire):

* ``claim_timing``: ``after_play`` | ``start_of_turn`` | ``end_of_turn``
* ``tactics``: ``on`` | ``off`` (``battle_line`` only; ``classic`` and ``three_player`` have none)
* ``first``: ``random`` (a chance decision) | a role name (a multi-game match lets the winner start)
* ``stalemate``: ``draw`` | ``flags`` — what happens when every player passes in succession
  (policy, rules digest §2): a draw, or the player with the most claimed flags wins (a tie for
  the most: a draw)
* ``decision_cap``: a safety net; reaching it ends the match as a draw (termination
  ``decision_cap``)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...core.game import RulesError

RULESETS: tuple[str, ...] = ("battle_line", "classic", "three_player")

_CHOICES: dict[str, tuple[str, ...]] = {
    "claim_timing": ("after_play", "start_of_turn", "end_of_turn"),
    "tactics": ("on", "off"),
    "stalemate": ("draw", "flags"),
}
_DEFAULTS: dict[str, dict[str, str]] = {
    "battle_line": {
        "claim_timing": "after_play",
        "tactics": "on",
        "first": "random",
        "stalemate": "draw",
        "decision_cap": "2000",
    },
    "classic": {
        "claim_timing": "start_of_turn",
        "tactics": "off",
        "first": "random",
        "stalemate": "draw",
        "decision_cap": "2000",
    },
    "three_player": {
        "claim_timing": "after_play",
        "tactics": "off",
        "first": "random",
        "stalemate": "draw",
        "decision_cap": "2000",
    },
}
_ROLES: dict[str, tuple[str, ...]] = {
    "battle_line": ("p1", "p2"),
    "classic": ("p1", "p2"),
    "three_player": ("p1", "p2", "p3"),
}


@dataclass(frozen=True)
class STRules:
    """A validated ruleset with its options; shared, immutable, by every state of a match."""

    ruleset: str
    options: Mapping[str, str] = field(hash=False)
    roles: tuple[str, ...]
    max_value: int  # highest troop value: 10 (Battle Line) or 9 (classic)
    hand_size: int
    tactics: bool
    claim_timing: str
    first: str  # "random" or a role
    stalemate: str
    decision_cap: int
    flags_to_envelop: int = 5  # any this many flags win
    run_to_break_through: int = 3  # this many adjacent flags win


def make_rules(ruleset: str | None = None, options: Mapping[str, str] | None = None) -> STRules:
    """Validate ``ruleset`` and ``options``; raise :class:`RulesError` with one clear line."""
    name = ruleset or "battle_line"
    if name not in _DEFAULTS:
        raise RulesError(
            f"unknown ruleset {name!r} for schotten-totten (choose from {', '.join(RULESETS)})"
        )
    values = dict(_DEFAULTS[name])
    roles = _ROLES[name]
    for key, raw in (options or {}).items():
        value = str(raw).strip().lower()
        if key not in values:
            raise RulesError(
                f"unknown option {key!r} for schotten-totten (known: {', '.join(sorted(values))})"
            )
        if key in _CHOICES and value not in _CHOICES[key]:
            raise RulesError(f"option {key}={value!r}: choose from {', '.join(_CHOICES[key])}")
        if key == "first" and value != "random" and value not in roles:
            raise RulesError(f"option first={value!r}: choose 'random' or one of {', '.join(roles)}")
        if key == "decision_cap" and (not value.isdigit() or int(value) < 100):
            raise RulesError(f"option decision_cap={value!r}: a whole number of at least 100")
        values[key] = value
    if name == "classic" and values["tactics"] == "on":
        raise RulesError("option tactics=on: the classic ruleset has no tactics cards")
    if name == "three_player" and values["tactics"] == "on":
        raise RulesError("option tactics=on: the three_player ruleset has no tactics cards")
    classic = name == "classic"
    three = name == "three_player"
    return STRules(
        ruleset=name,
        options=values,
        roles=roles,
        max_value=9 if classic else 10,
        hand_size=6 if classic else 7,
        tactics=values["tactics"] == "on",
        claim_timing=values["claim_timing"],
        first=values["first"],
        stalemate=values["stalemate"],
        decision_cap=int(values["decision_cap"]),
        flags_to_envelop=4 if three else 5,
        run_to_break_through=3,
    )
