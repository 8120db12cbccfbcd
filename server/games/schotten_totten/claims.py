"""Formations and claim proofs in words, from a view: what the story (:mod:`.story`) says when a
flag is claimed and what the report's flag panels (:mod:`.html_board`) show.

Everything here reads only the table of a view (the flags, their Fog and Mud, the discards):
public information, the same in every seat's view and in the whole table's. So the proof a seat
is told never depends on a card it did not see; the cards it names as "the best still possible"
are hypothetical completions drawn from the troops still off the table (rules digest §4: the
troop deck and both hands), exactly as the engine's own proof considers them
(:func:`.formations.best_completion`, :func:`.formations.strength`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import CARD_BY_NAME, COLOURS, troop_deck
from .formations import RANK_NAMES, best_completion, strength

#: The article before a formation's name ("a wedge", "a host").
_ARTICLE = {name: "an" if name[0] in "aeiou" else "a" for name in RANK_NAMES.values()}

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven")


def card_text(name: str) -> str:
    """A card as people say it: ``Red 8``, ``Alexander``, ``Companion Cavalry``."""
    colour, _, value = name.rpartition("-")
    if colour in COLOURS and value.isdigit():
        return f"{colour.capitalize()} {value}"
    return name.replace("-", " ").title()


def cards_text(names: Sequence[str]) -> str:
    """``Red 8, Red 9 and Red 10`` (``nothing`` for none)."""
    words = [card_text(n) for n in names]
    if not words:
        return "nothing"
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def count_text(n: int, noun: str) -> str:
    """``one troop card``, ``two troop cards``, ``12 troop cards``."""
    word = _NUMBERS[n] if 0 <= n < len(_NUMBERS) else str(n)
    return f"{word} {noun}{'s' * (n != 1)}"


def formation_text(rank: int, total: int) -> str:
    """``a wedge (sum 27)`` (under Fog every side is a host: only the sum counts)."""
    name = RANK_NAMES[rank]
    return f"{_ARTICLE[name]} {name} (sum {total})"


def is_card_name(name: str) -> bool:
    return name in CARD_BY_NAME


@dataclass(frozen=True)
class Side:
    """One side of a flag as the table shows it: its cards, whether it is complete and the
    formation it makes (complete), or the best it could still make (``best``, with the
    hypothetical cards ``adding``; ``None``: too few troops are left off the table to complete
    it)."""

    role: str
    cards: tuple[str, ...]
    size: int
    complete: bool
    completed_at: int | None
    rank: int | None = None
    total: int | None = None
    adding: tuple[str, ...] = ()

    @property
    def name(self) -> str | None:
        return RANK_NAMES[self.rank] if self.rank is not None else None

    @property
    def strength(self) -> tuple[int, int] | None:
        return (self.rank, self.total) if self.rank is not None and self.total is not None else None


@dataclass(frozen=True)
class Flag:
    """A flag of the table: its number, environment, claimant and sides (in role order)."""

    number: int
    fog: bool
    mud: bool
    claimed_by: str | None
    sides: tuple[Side, ...]

    def side(self, role: str) -> Side:
        return next(s for s in self.sides if s.role == role)


def _max_value(view: Mapping[str, Any]) -> int:
    return 9 if view.get("ruleset") == "classic" else 10


def unseen_troops(view: Mapping[str, Any]) -> list[int]:
    """The troop ids off the table (rules digest §4's U): every troop of the ruleset but those on
    a flag or discarded face up. Public: the same in every view of one moment."""
    table = set()
    for entry in view.get("flags") or []:
        for side in entry["sides"].values():
            table.update(side.get("cards") or [])
    for cards in (view.get("discards") or {}).values():
        table.update(cards)
    on_table = {CARD_BY_NAME[n] for n in table if n in CARD_BY_NAME}
    return [c for c in troop_deck(_max_value(view)) if c not in on_table]


def read_flags(view: Mapping[str, Any]) -> list[Flag]:
    """Every flag of ``view`` with each side's formation (or best completion), in flag order."""
    unseen = unseen_troops(view)
    return [_read(entry, unseen) for entry in view.get("flags") or []]


def read_flag(view: Mapping[str, Any], number: int) -> Flag | None:
    """Flag ``number`` of ``view`` (:func:`read_flags` for one flag), or ``None``."""
    for entry in view.get("flags") or []:
        if entry["flag"] == number:
            return _read(entry, unseen_troops(view))
    return None


def _read(entry: Mapping[str, Any], unseen: Sequence[int]) -> Flag:
    fog, mud = entry.get("fog") is not None, entry.get("mud") is not None
    size = 4 if mud else 3
    sides = []
    for role, side in entry["sides"].items():
        names = tuple(side.get("cards") or ())
        ids = [CARD_BY_NAME[n] for n in names]
        if len(ids) >= size and side.get("completed_at") is not None:
            rank, total = strength(ids, fog)
            sides.append(Side(role, names, size, True, side.get("completed_at"), rank, total))
            continue
        best = best_completion(ids, size, unseen, fog) if len(ids) < size else None
        if best is None:
            sides.append(Side(role, names, size, False, None))
        else:
            (rank, total), added = best
            sides.append(Side(role, names, size, False, None, rank, total, tuple(_name(c) for c in added)))
    return Flag(entry["flag"], fog, mud, entry.get("claimed_by"), tuple(sides))


def _name(card: int) -> str:
    return f"{COLOURS[card // 10]}-{card % 10 + 1}"


def _side_line(side: Side) -> str:
    cards = cards_text(side.cards) if side.cards else "no cards"
    if side.complete:
        assert side.rank is not None and side.total is not None
        return f"{side.role}: {cards}: {formation_text(side.rank, side.total)}, complete"
    need = side.size - len(side.cards)
    if side.rank is None or side.total is None:
        return (f"{side.role}: {cards}: needs {count_text(need, 'more card')}, and too few troop cards "
                "are left off the table to complete it")
    return (f"{side.role}: {cards}: needs {count_text(need, 'more card')}; the best still possible, "
            f"with {cards_text(side.adding)}, is {formation_text(side.rank, side.total)}")


def _verdict(mine: Side, other: Side, fog: bool) -> str:
    """Why ``mine`` (complete) beats ``other`` (complete, or its best completion)."""
    ours, theirs = mine.strength, other.strength
    assert ours is not None
    if theirs is None:
        return f"{other.role} can never complete its side: the claim holds"
    if fog:
        if theirs[1] < ours[1]:
            return f"sum {ours[1]} beats sum {theirs[1]}"
    elif theirs[0] < ours[0]:
        ahead, behind = RANK_NAMES[ours[0]], RANK_NAMES[theirs[0]]
        return f"{_ARTICLE[ahead]} {ahead} beats {_ARTICLE[behind]} {behind}"
    elif theirs[1] < ours[1]:
        return f"same formation, and sum {ours[1]} beats sum {theirs[1]}"
    if other.complete:
        return f"as strong, and {mine.role} completed its side first"
    return f"its best only equals it, and {mine.role} completed first"


def proof_lines(flag: Flag, role: str) -> list[str]:
    """Why ``role``'s claim of ``flag`` holds: its complete formation, then each other side
    (complete, or the best it could still make from the troops off the table) and the verdict."""
    mine = flag.side(role)
    lines = []
    if flag.fog:
        lines.append(f"Fog lies at flag {flag.number}: only the sum counts")
    if flag.mud:
        lines.append(f"Mud lies at flag {flag.number}: every side needs 4 cards")
    lines.append(_side_line(mine))
    for other in flag.sides:
        if other.role == role:
            continue
        lines.append(_side_line(other) + ": " + _verdict(mine, other, flag.fog))
    return lines


def claim_sentence(flag: Flag, role: str) -> str:
    """``p1 claims flag 3: a wedge (sum 27) against p2's battalion (sum 19).`` (the other sides
    named by their formation, or the best they could still make)."""
    mine = flag.side(role)
    assert mine.rank is not None and mine.total is not None
    against = []
    for other in flag.sides:
        if other.role == role:
            continue
        if other.complete and other.rank is not None:
            against.append(f"{other.role}'s {RANK_NAMES[other.rank]} (sum {other.total})")
        elif other.rank is not None:
            against.append(f"{other.role}'s side, at best {_ARTICLE[RANK_NAMES[other.rank]]} "
                           f"{RANK_NAMES[other.rank]} (sum {other.total})")
        else:
            against.append(f"{other.role}'s side, which can no longer be completed")
    fog = " under Fog (only the sum counts)" if flag.fog else ""
    joint = ", and " if any(", " in text for text in against) else " and "  # three players
    return (f"{role} claims flag {flag.number}{fog}: {formation_text(mine.rank, mine.total)} against "
            + joint.join(against) + ".")


def provable(flag: Flag, role: str) -> bool:
    """Whether ``role`` could claim ``flag`` now (rules digest §4): its side complete, and every
    other side weaker (complete), as strong but completed later, or unable to beat it with any
    troops off the table (an equal best loses to the side completed first)."""
    mine = flag.side(role)
    ours = mine.strength
    if flag.claimed_by is not None or not mine.complete or ours is None:
        return False
    for other in flag.sides:
        if other.role == role:
            continue
        theirs = other.strength
        if theirs is None:
            continue  # it can never be completed
        if other.complete:
            if theirs > ours or (theirs == ours and (other.completed_at or 0) <= (mine.completed_at or 0)):
                return False
        elif theirs > ours:
            return False
    return True


def complete_formation(flag: Flag, role: str) -> str | None:
    """``a wedge (sum 27)`` when ``role``'s side of ``flag`` is complete, else ``None``."""
    side = flag.side(role)
    if not side.complete or side.rank is None or side.total is None:
        return None
    made = formation_text(side.rank, side.total)
    return made + ", only the sum counting under Fog" if flag.fog else made


__all__ = [
    "Flag", "Side", "card_text", "cards_text", "claim_sentence", "complete_formation", "count_text",
    "formation_text", "is_card_name", "proof_lines", "provable", "read_flag", "read_flags", "unseen_troops",
]
