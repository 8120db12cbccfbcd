"""Options of Twilight Struggle (Deluxe edition).

* ``optional_cards``: ``on`` (default: the Deluxe deck of 110 cards) | ``off`` (103 cards)
* ``chinese_civil_war``: ``off`` (default) | ``on`` (map.md §13 variant)
* ``bid``: extra setup influence for one side after normal setup, only where it already has
  influence: ``none`` (default) or ``us:N`` / ``ussr:N`` (N 1..9)
* ``end_turn``: the last turn played (1..10, default 10); final scoring follows it. A shorter game
  is useful for tests and quick matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ...core.game import RulesError

ROLES = ("ussr", "us")  # the USSR moves first in every action round
RULESETS = ("deluxe",)

_DEFAULTS = {"optional_cards": "on", "chinese_civil_war": "off", "bid": "none", "end_turn": "10"}


@dataclass(frozen=True)
class TSRules:
    ruleset: str
    options: Mapping[str, str] = field(hash=False)
    roles: tuple[str, ...]
    optional_cards: bool
    chinese_civil_war: bool
    bid_side: str | None
    bid: int
    end_turn: int


def make_rules(ruleset: str | None = None, options: Mapping[str, str] | None = None) -> TSRules:
    """Validate the options."""
    name = ruleset or "deluxe"
    if name not in RULESETS:
        raise RulesError(f"unknown ruleset {name!r} for twilight-struggle (choose from {', '.join(RULESETS)})")
    values = dict(_DEFAULTS)
    for key, raw in (options or {}).items():
        value = str(raw).strip().lower()
        if key not in values:
            raise RulesError(f"unknown option {key!r} for twilight-struggle (known: {', '.join(sorted(values))})")
        values[key] = value
    for key in ("optional_cards", "chinese_civil_war"):
        if values[key] not in ("on", "off"):
            raise RulesError(f"option {key}={values[key]!r}: choose from on, off")
    end = values["end_turn"]
    if not end.isdigit() or not 1 <= int(end) <= 10:
        raise RulesError(f"option end_turn={end!r}: a whole number from 1 to 10")
    bid_side, bid = None, 0
    if values["bid"] != "none":
        side, _, amount = values["bid"].partition(":")
        if side not in ROLES or not amount.isdigit() or not 1 <= int(amount) <= 9:
            raise RulesError(f"option bid={values['bid']!r}: 'none', or us:N / ussr:N with N from 1 to 9")
        bid_side, bid = side, int(amount)
    return TSRules(
        ruleset=name,
        options=values,
        roles=ROLES,
        optional_cards=values["optional_cards"] == "on",
        chinese_civil_war=values["chinese_civil_war"] == "on",
        bid_side=bid_side,
        bid=bid,
        end_turn=int(end),
    )
