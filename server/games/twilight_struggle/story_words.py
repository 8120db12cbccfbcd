"""The words of Twilight Struggle's story (:mod:`.story`): how a card, a country, a side, a key
or a change of the board is written in a sentence, and what changed between two views.

Only names and arithmetic on views: nothing here reads a state. A key the story does not know
still becomes words (:func:`words`: a card, a country or a region by its name, anything else with
its underscores as spaces), so that no raw key (``card:...``, ``country:...``) ever reaches a
reader.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import card_data as CD
from . import effects as FX
from . import map_data as M

SIDES = ("ussr", "us")
SIDE = {"us": "US", "ussr": "USSR"}

#: The space race boxes as the printed track names them.
SPACE_BOXES = {
    1: "Earth Satellite", 2: "Animal in Space", 3: "Man in Space", 4: "Man in Earth Orbit",
    5: "Lunar Orbit", 6: "Eagle/Bear Has Landed", 7: "Space Shuttle", 8: "Space Station",
}

#: Region names as the engine's choices write them (Chernobyl's ``central_america``).
_REGION_KEYS = {r.lower().replace(" ", "_"): r for r in (*M.REGIONS, *M.SUBREGIONS)}

#: Event steps whose name is not the card's id: step -> card id.
STEP_CARDS = {
    "warsaw_pact_remove": "warsaw_pact_formed", "un_intervention_ops": "un_intervention",
    "missile_envy_ops": "missile_envy", "latin_american_debt_crisis_double": "latin_american_debt_crisis",
    "summit_defcon": "summit", "tehran_draw": "our_man_in_tehran", "tehran_discard": "our_man_in_tehran",
    "che_coup": "che", "grain_sales": "grain_sales_to_soviets", "ask_not_discard": "ask_not_what_your_country_can_do_for_you",
    "olympic_result": "olympic_games", "summit_result": "summit", "star_wars": "star_wars",
    "salt_negotiations": "salt_negotiations",
}


def other(side: str) -> str:
    return "us" if side == "ussr" else "ussr"


def side_name(side: str | None) -> str:
    return SIDE.get(side or "", "Chance")


def card(cid: str) -> CD.Card | None:
    return CD.CARD_BY_ID.get(cid)


def card_name(cid: str) -> str:
    found = card(cid)
    return found.name if found else words(cid)


def card_ops(cid: str) -> str:
    """``Fidel (2)``; a scoring card without Ops: ``Europe Scoring``."""
    found = card(cid)
    if found is None:
        return words(cid)
    if found.scoring:
        return found.name
    return f"{found.name} ({found.ops})"


def cards_list(cids: Iterable[str]) -> str:
    return join([card_name(c) for c in cids]) or "none"


def country_name(cid: str) -> str:
    found = M.COUNTRY_BY_ID.get(cid)
    if found is not None:
        return found.name
    if cid == "chinese_civil_war":
        return "the Chinese Civil War space"
    return words(cid)


def join(items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def words(text: str) -> str:
    """Any key or id as words: a card, a country or a region by its name; ``done``/``pass``;
    ``a:b`` parts joined; underscores as spaces."""
    if text in CD.CARD_BY_ID:
        return CD.CARD_BY_ID[text].name
    if text in M.COUNTRY_BY_ID:
        return M.COUNTRY_BY_ID[text].name
    if text in _REGION_KEYS:
        return _REGION_KEYS[text]
    if text == "hidden":
        return "a hidden card"
    kind, _, rest = text.partition(":")
    if rest:
        if kind == "hand":
            return cards_list(c for c in rest.split(",") if c) if rest != "hidden" else "a hidden hand"
        if kind == "defcon":
            return f"DEFCON {rest}"
        return " ".join(words(part) for part in rest.split(":"))
    if text.startswith("defcon_") and text[7:].isdigit():
        return f"DEFCON {text[7:]}"
    return " ".join(SIDE.get(part, part) for part in text.split("_"))


def choice_words(key: str) -> str:
    """The object of a choice key (``choice:lose_west_germany`` -> ``lose West Germany``)."""
    kind, _, rest = key.partition(":")
    if kind in ("choice", "country", "card", "use"):
        rest = rest or kind
        if kind == "use":
            return USES.get(rest.split(":")[0], words(rest))
        if rest in CD.CARD_BY_ID or rest in M.COUNTRY_BY_ID or rest in _REGION_KEYS:
            return words(rest)
        parts = rest.split("_")
        # a card or country id inside a phrase: lose_west_germany, double_ussr_influence
        for i in range(len(parts)):
            tail = "_".join(parts[i:])
            if i and (tail in M.COUNTRY_BY_ID or tail in CD.CARD_BY_ID):
                return words("_".join(parts[:i])) + " " + words(tail)
        return words(rest)
    if key == "done":
        return "to stop"
    if key == "pass":
        return "to pass"
    return words(key)


def step_card(step: str) -> str | None:
    """The card whose event asks decision ``step`` (``blockade``, ``warsaw_pact_remove``), if any."""
    if step in STEP_CARDS:
        return STEP_CARDS[step]
    return step if step in CD.CARD_BY_ID else None


#: How a card is used (``use:<kind>``), after "plays <card>".
USES = {
    "event": "as Event", "influence": "for Ops (influence)", "realign": "for Ops (realignment rolls)",
    "coup": "for Ops (coup)", "space": "to the Space Race",
}


def vp_track(vp: int) -> str:
    """The VP track (signed, US positive) as players say it: ``US 3``, ``USSR 5``, ``even``."""
    if vp > 0:
        return f"US {vp}"
    if vp < 0:
        return f"USSR {-vp}"
    return "even"


def vp_change(delta: int, total: int) -> str:
    """``USSR +2 VP (VP: USSR 5)``: ``delta`` on the signed track (US positive)."""
    if delta == 0:
        return ""
    gainer = "US" if delta > 0 else "USSR"
    return f"{gainer} +{abs(delta)} VP (VP: {vp_track(total)})"


def defcon_change(before: int, after: int) -> str:
    if after < before:
        return f"DEFCON falls to {after}"
    if after > before:
        return f"DEFCON improves to {after}"
    return ""


def effect_card(name: str) -> str:
    """The card a lasting effect comes from, by name (Red Scare/Purge for the US's)."""
    number = FX.CARD_OF.get(name)
    if number is None:
        for prefix, n in FX.CARD_OF.items():
            if name.startswith(prefix) and prefix.endswith(":"):
                number = n
                break
    if number is None:
        for prefix, n in FX.CARD_OF.items():
            if name.startswith(prefix.split(":")[0] + ":"):
                number = n
                break
    return CD.CARD_BY_NUMBER[number].name if number is not None else words(name)


def effect_words(name: str) -> str:
    """A lasting effect as words: its card, and the side or argument it names."""
    base = effect_card(name)
    parts = name.split(":")
    extra = [p for p in parts[1:] if p and p != "turn"]
    if name in FX.SCORING_IGNORE:
        return f"{base} (ignoring {country_name(parts[1])})"
    if name in FX.CHERNOBYL:
        return f"{base} ({parts[1]})"
    sides = [SIDE[p] for p in extra if p in SIDE]
    return f"{base} ({', '.join(sides)})" if sides else base


# -- what changed between two views ---------------------------------------------------------------


def _cell(view: Mapping[str, Any], cid: str, side: str) -> int:
    return int(((view.get("influence") or {}).get(cid) or {}).get(side, 0))


def controller(view: Mapping[str, Any], cid: str) -> str | None:
    return (view.get("control") or {}).get(cid)


@dataclass
class Diff:
    """What changed from one view to the next, as the story explains it: parts are taken out
    as sentences explain them (:meth:`take_country`...), what is left is told at the end."""

    before: Mapping[str, Any]
    after: Mapping[str, Any]
    influence: dict[tuple[str, str], int] = field(default_factory=dict)
    vp: int = 0
    defcon: int = 0
    milops: dict[str, int] = field(default_factory=dict)
    space: dict[str, int] = field(default_factory=dict)
    added: list[str] = field(default_factory=list)
    ended: list[str] = field(default_factory=list)
    discarded: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    china: bool = False
    #: the end of the turn's share of the VP and DEFCON changes (told after the rest)
    later_vp: int = 0
    later_defcon: int = 0

    @classmethod
    def of(cls, before: Mapping[str, Any], after: Mapping[str, Any]) -> Diff:
        diff = cls(before, after)
        countries = set((before.get("influence") or {})) | set((after.get("influence") or {}))
        for country in M.COUNTRIES:  # map order
            if country.id not in countries:
                continue
            for side in SIDES:
                delta = _cell(after, country.id, side) - _cell(before, country.id, side)
                if delta:
                    diff.influence[(country.id, side)] = delta
        diff.vp = int(after.get("vp", 0)) - int(before.get("vp", 0))
        diff.defcon = int(after.get("defcon", 5)) - int(before.get("defcon", 5))
        for side in SIDES:
            for name, into in (("military_ops", diff.milops), ("space", diff.space)):
                delta = int((after.get(name) or {}).get(side, 0)) - int((before.get(name) or {}).get(side, 0))
                if delta:
                    into[side] = delta
        old, new = list(before.get("effects") or []), list(after.get("effects") or [])
        diff.added = [e for e in new if e not in old]
        diff.ended = [e for e in old if e not in new]
        diff.discarded = _new_cards(before.get("discard"), after.get("discard"))
        diff.removed = _new_cards(before.get("removed"), after.get("removed"))
        diff.china = (before.get("china_card") or {}) != (after.get("china_card") or {})
        return diff

    def take_country(self, cid: str) -> dict[str, int]:
        """The influence change in ``cid`` (side -> delta), taken out of the diff."""
        return {side: self.influence.pop((cid, side)) for side in SIDES if (cid, side) in self.influence}

    def countries(self) -> list[str]:
        seen: list[str] = []
        for cid, _ in self.influence:
            if cid not in seen:
                seen.append(cid)
        return seen

    def empty(self) -> bool:
        return not (self.influence or self.vp or self.defcon or self.milops or self.space or self.added
                    or self.ended or self.discarded or self.removed or self.china)


def _new_cards(before: Sequence[str] | None, after: Sequence[str] | None) -> list[str]:
    """Cards in ``after`` beyond those of ``before`` (a pile that may also have been emptied)."""
    before, after = list(before or []), list(after or [])
    if after[: len(before)] == before:
        return after[len(before):]
    return [c for c in after if c not in before]


def influence_phrase(changes: Mapping[str, Mapping[str, int]], before: Mapping[str, Any],
                     after: Mapping[str, Any]) -> str:
    """The influence changes (country -> side -> delta, in map order) in words, grouped by side
    and direction, then who gained or lost control: "removes all US influence from Cuba (−1),
    adds 3 USSR influence to Cuba; USSR now controls Cuba"."""
    parts: list[str] = []
    for sign in (-1, 1):  # what was taken, then what was put
        for side in SIDES:
            cells = [(cid, d[side]) for cid, d in changes.items() if d.get(side, 0) * sign > 0]
            if not cells:
                continue
            if sign > 0:
                if len(cells) == 1:
                    cid, delta = cells[0]
                    parts.append(f"adds {delta} {SIDE[side]} influence to {country_name(cid)}")
                else:
                    parts.append(f"adds {SIDE[side]} influence to "
                                 + join([f"{country_name(c)} (+{d})" for c, d in cells]))
                continue
            if len(cells) == 1:
                cid, delta = cells[0]
                if _cell(after, cid, side) == 0:
                    parts.append(f"removes all {SIDE[side]} influence from {country_name(cid)} ({delta})")
                else:
                    parts.append(f"removes {-delta} {SIDE[side]} influence from {country_name(cid)}")
            else:
                parts.append(f"removes {SIDE[side]} influence from "
                             + join([f"{country_name(c)} ({d}{', none left' if _cell(after, c, side) == 0 else ''})"
                                     for c, d in cells]))
    text = ", ".join(parts).replace("(-", "(−")
    control = control_phrase(changes, before, after)
    return f"{text}; {control}" if control and text else (text or control)


def control_phrase(countries: Iterable[str], before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """Who gained and lost control among ``countries``: "USSR now controls Cuba; US loses France"."""
    gained: dict[str, list[str]] = {"ussr": [], "us": []}
    lost: dict[str, list[str]] = {"ussr": [], "us": []}
    for cid in countries:
        was, now = controller(before, cid), controller(after, cid)
        if was == now:
            continue
        if now:
            gained[now].append(country_name(cid))
        if was:
            lost[was].append(country_name(cid))
    parts = []
    for side in SIDES:
        if gained[side]:
            parts.append(f"{SIDE[side]} now controls {join(gained[side])}")
    for side in SIDES:
        if lost[side]:
            parts.append(f"{SIDE[side]} loses control of {join(lost[side])}")
    return "; ".join(parts)


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


def number(n: int) -> str:
    """An integer with a typographic minus (``−2``), as the rest of the sentences write them."""
    return str(n) if n >= 0 else f"−{-n}"
