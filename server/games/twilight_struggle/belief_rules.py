"""Rules inference of the Twilight Struggle forward model (:mod:`.belief`): the
rules options a view may come from, most likely first. A view carries its match's rules
(``rules``, since the field exists): those are used, exactly. A view without them (an older
server) is read for what it implies (the China Card's holder, ``bid`` entries, optional cards
seen), completed by the options passed in; see :mod:`.belief` for what can and
cannot be inferred then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core.game import RulesError
from ...forward_model import SimulationError
from .belief_cards import _OPTIONAL, _number
from .game import options_of

# -- rules --------------------------------------------------------------------------------------------


def _optional_seen(view: dict[str, Any]) -> bool:
    names: list[str] = []
    names += view.get("hand") or []
    names += view.get("opponent_hand") or []
    names += view.get("discard") or []
    names += view.get("removed") or []
    names += view.get("events_played") or []
    names += list((view.get("headline") or {}).values())
    for entry in view.get("history") or ():
        kind, _, rest = str(entry[3]).partition(":")
        if kind in ("card", "choice"):
            names.append(rest)
        elif kind == "hand":
            names += rest.split(",")
    return any((n := _number(name)) is not None and n in _OPTIONAL for name in names)


def candidate_rules(game: Any, view: dict[str, Any], options: Mapping[str, str] | None = None) -> list[Any]:
    """The rules the view may come from, most likely first (see the module's documentation)."""
    opts = {key: str(value) for key, value in (options or {}).items()}
    carried = view.get("rules")
    if carried:
        # The view's own rules win over options given out of band (kept for older views).
        try:
            return [game.rules(carried.get("ruleset") or None, {**opts, **options_of(carried)})]
        except (RulesError, KeyError, TypeError) as exc:
            raise SimulationError(f"the view's rules {carried!r}: {exc}") from exc
    history = view.get("history") or []
    if "chinese_civil_war" not in opts:
        on = (
            (view.get("china_card") or {}).get("holder", "ussr") is None
            or bool(view.get("chinese_civil_war"))
            or any(entry[2] == "china_card_claimed" for entry in history)
        )
        opts["chinese_civil_war"] = "on" if on else "off"
    if "bid" not in opts:
        bids = [entry[1] for entry in history if entry[2] == "bid"]
        pending = view.get("step") == "bid"
        if bids or pending:
            opts["bid"] = f"{bids[0] if bids else view['role']}:{len(bids) + pending}"
    if "optional_cards" in opts or _optional_seen(view):
        values = [opts.get("optional_cards", "on")]
    else:
        values = ["on", "off"]
    try:
        return [game.rules(None, {**opts, "optional_cards": value}) for value in values]
    except RulesError as exc:
        raise SimulationError(str(exc)) from exc


def infer_rules(game: Any, view: dict[str, Any], options: Mapping[str, str] | None = None) -> Any:
    """The most likely rules of the match the view comes from (``options`` win)."""
    return candidate_rules(game, view, options)[0]
