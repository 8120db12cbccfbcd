"""A match told as a story: sentences grouped in chapters (turns, action rounds), for the text
replay and the report's pages alike (one teller per game feeds both).

A game's :class:`StoryTeller` (made by ``GameSpec.story()``, one per match told) turns each
decision into sentences. It reads only what the viewer saw: a seat's story is told from that
seat's views and history alone (the views :meth:`Game.view` gives it), so it can never name a
card the seat did not see; the omniscient story is told from the whole table
(:func:`~.boards.table_view`, or the game's ``HtmlBoard.table``) and the true history.

:func:`tell` replays a record once and asks the teller about every decision, in order:
``teller.tell(before, entries, after)`` with ``before`` the viewer's view when decision ``k``
was asked, ``entries`` the history entries numbered ``k`` (the choice itself, then its automatic
consequences: an event's effects, a die roll's result) and ``after`` the view once they are
done. The views carry no history (the entries come apart). The teller returns :class:`Chapter`
and :class:`StoryLine` items; :func:`tell` numbers them ``k``.

Numbering (the viewer's contract): a line numbered ``k`` tells what happened when decision ``k``
was answered, so the page shows it from the frame of decision ``k + 1`` on. A chapter numbered
``k`` begins with decision ``k``: the lines numbered ``k`` and later belong to it, and the
viewer's "jump to chapter" goes to the first player decision numbered ``k`` or later.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from .boards import table_view
from .core.flow import history_since
from .core.game import Game
from .core.record import Record, replay_steps, start_state

__all__ = ["KINDS", "STYLES", "Chapter", "Narrator", "Story", "StoryLine", "StoryTeller", "history_base", "kinds_of",
           "public_entries", "styled", "tell", "viewer_entries"]

#: The kinds of line every teller may give, and how the pages show each: ``moment`` (bold, and a
#: jump in the page's chapter list), ``major`` (bold), ``minor`` (grey), ``aside`` (muted), ``""``
#: (plain). A game's own kinds (a war, a claim) are its teller's ``kinds``, styled the same way.
KINDS: dict[str, str] = {
    "setup": "aside", "deal": "aside", "turn": "aside", "play": "", "event": "", "die": "minor",
    "scoring": "moment", "end": "major",
}
STYLES = ("moment", "major", "minor", "aside", "")


def kinds_of(teller: Any) -> dict[str, str]:
    """Every kind ``teller`` may give with its style: :data:`KINDS` and the teller's own
    ``kinds`` (a mapping, optional)."""
    own = dict(getattr(teller, "kinds", None) or {})
    for kind, style in own.items():
        if style not in STYLES:
            raise ValueError(f"story kind {kind!r}: style {style!r} is not one of {', '.join(map(repr, STYLES))}")
    return {**KINDS, **own}


def styled(kinds: Mapping[str, str]) -> dict[str, str]:
    """The kinds that have a style, with it: what a page needs to show a story's lines."""
    return {kind: style for kind, style in kinds.items() if style}


@dataclass(frozen=True)
class StoryLine:
    """One sentence. ``role``: who acted (``None``: nobody, or chance); ``detail``: lines under
    it (a scoring's breakdown, a claim's proof)."""

    text: str
    kind: str = "play"
    role: str | None = None
    detail: tuple[str, ...] = ()
    number: int = 0  # set by :func:`tell`: the decision it follows from

    def to_json(self) -> list[Any]:
        """``[number, text, kind, role]`` (+ ``detail`` when there is one): the viewer's form."""
        item: list[Any] = [self.number, self.text, self.kind, self.role]
        if self.detail:
            item.append(list(self.detail))
        return item


@dataclass(frozen=True)
class Chapter:
    """A heading, as the rulebook names the part of the game ("Turn 3 · Action round 2")."""

    title: str
    number: int = 0  # set by :func:`tell`: the first decision it covers

    def to_json(self) -> list[Any]:
        return [self.title, self.number]


@dataclass(frozen=True)
class Story:
    """A whole match told: ``items`` in order (chapters and lines interleaved); ``kinds``: the
    style of each kind of line (:func:`kinds_of` its teller)."""

    items: tuple[Chapter | StoryLine, ...]
    kinds: Mapping[str, str] = field(default_factory=lambda: dict(KINDS))

    @property
    def chapters(self) -> list[Chapter]:
        return [item for item in self.items if isinstance(item, Chapter)]

    @property
    def lines(self) -> list[StoryLine]:
        return [item for item in self.items if isinstance(item, StoryLine)]

    def text(self, *, upto: int | None = None) -> list[str]:
        """The story as text lines: chapter titles, then their sentences indented, details
        under them; ``upto``: only what a viewer at decision ``upto`` has seen (lines numbered
        below it)."""
        out: list[str] = []
        for item in self.items:
            if upto is not None and item.number >= upto:
                continue
            if isinstance(item, Chapter):
                out.append(item.title)
                continue
            out.append("  " + item.text)
            out.extend("      " + line for line in item.detail)
        return out

    def to_json(self) -> dict[str, Any]:
        """The viewer's ``chapters`` and ``story`` lists (tournaments/html.py tracks), and
        ``kinds``: :func:`styled`."""
        return {"chapters": [c.to_json() for c in self.chapters], "story": [s.to_json() for s in self.lines],
                "kinds": styled(self.kinds)}


@runtime_checkable
class StoryTeller(Protocol):
    """A game's teller for one match (``GameSpec.story()`` makes one). Pure: no I/O. It may
    keep what it learned earlier in the match (the card being played, the turn). Its own kinds
    of line, besides :data:`KINDS`, are its ``kinds`` attribute: ``{kind: style}``."""

    def start(self, view: Mapping[str, Any]) -> Iterable[Chapter | StoryLine]:
        """The opening (the first chapter, e.g. "Setup"), from the viewer's first view."""
        ...

    def tell(
        self, before: Mapping[str, Any], entries: Sequence[Sequence[Any]], after: Mapping[str, Any]
    ) -> Iterable[Chapter | StoryLine]:
        """What decision ``entries[0][0]`` and its consequences did, as the viewer saw it."""
        ...


_NO_HISTORY = object()


def viewer_entries(game: Game, state: Any, roles: Sequence[str], as_role: str | None, number: int,
                   decision_key: str | None = None) -> list[list[Any]]:
    """The history entries numbered ``number`` as ``as_role`` saw them. Omniscient
    (``as_role=None``): a game built on :mod:`.core.flow` keeps each entry's true key in its
    state's ``history``; for another game, the decision's own entry gets the record's key
    (``decision_key``) and its other entries are as the first seat saw them."""
    if as_role is not None:
        return [list(e) for e in game.view(state, as_role, number - 1)["history"] if e[0] == number]
    history = getattr(state, "history", _NO_HISTORY)
    if history is None or (isinstance(history, tuple) and len(history) == 2):  # core.flow's list
        return [[e.number, e.role, e.step, e.key] for e in history_since(history, number - 1) if e.number == number]
    entries = [list(e) for e in game.view(state, roles[0], number - 1)["history"] if e[0] == number]
    if entries and decision_key is not None:
        entries[0][3] = decision_key
    return entries


def history_base(initial: Any) -> int:
    """What to add to a record's move number to get its history entries' number. A match from a
    position numbers its history on from the position's own decision number (the record's moves
    count from 1): the entries of move ``k`` are numbered ``history_base(initial) + k``; 0 for a
    match from the deal, or a game whose state does not count its decisions."""
    base = getattr(initial, "number", 0)
    return base if isinstance(base, int) else 0


class Narrator:
    """Tells a match one decision at a time: :func:`tell` drives it over a record, a live board
    (the web face) as the match's record grows. ``view_of(state)``: the viewer's view, without
    history; ``entries_of(state, number, decision_key)``: the history entries numbered
    ``number`` as the viewer saw them (``decision_key``: the record's key of that decision)."""

    def __init__(self, teller: StoryTeller, initial: Any, view_of: Callable[[Any], dict[str, Any]],
                 entries_of: Callable[[Any, int, str | None], list[list[Any]]]) -> None:
        self.teller = teller
        self.view_of = view_of
        self.entries_of = entries_of
        self.kinds = kinds_of(teller)
        self.base = history_base(initial)
        self.before = view_of(initial)
        self.items: list[Chapter | StoryLine] = list(_numbered(teller.start(self.before), 1, self.kinds))

    def step(self, state: Any, number: int, decision_key: str | None = None) -> list[Chapter | StoryLine]:
        """Tell decision ``number`` (the record's, from 1), ``state`` being the state after it;
        returns (and keeps) the new items."""
        entries = self.entries_of(state, self.base + number, decision_key)
        after = self.view_of(state)
        new = list(_numbered(self.teller.tell(self.before, entries, after), number, self.kinds))
        self.items.extend(new)
        self.before = after
        return new

    def story(self) -> Story:
        return Story(tuple(self.items), self.kinds)


def public_entries(state: Any, number: int, decision_key: str | None = None) -> list[list[Any]]:
    """The history entries numbered ``number`` as nobody's seat sees them (a spectator): every
    entry shown to only some roles in its redacted form. Only a game built on :mod:`.core.flow`
    keeps its history where this can read it; another game gets no entries (its story, if any,
    is then told from the public views alone)."""
    history = getattr(state, "history", _NO_HISTORY)
    if not (history is None or (isinstance(history, tuple) and len(history) == 2)):
        return []
    return [[e.number, e.role, e.step, e.seen_by("")] for e in history_since(history, number - 1) if e.number == number]


def tell(game: Game, record: Record, teller: StoryTeller, *, as_role: str | None = None,
         table: Any = None) -> Story:
    """Replay ``record`` and tell it as ``as_role`` saw it (``None``: omniscient, from the whole
    table: ``table(state)``, default :func:`~.boards.table_view`). ``teller``: a new one
    (``GameSpec.story()``) for each match told."""
    header = record.header
    rules = game.rules(header.get("ruleset"), header.get("options") or {})
    roles = list(rules.roles)
    state = start_state(game, rules, header)

    def view_of(state: Any) -> dict[str, Any]:
        if as_role is not None:
            view = dict(game.view(state, as_role, 1 << 62))  # no history: the entries come apart
        else:
            view = dict(table(state) if table is not None else table_view(game, state))
        view.pop("history", None)
        view.pop("history_from", None)
        return view

    def entries_of(state: Any, number: int, decision_key: str | None) -> list[list[Any]]:
        return viewer_entries(game, state, roles, as_role, number, decision_key)

    narrator = Narrator(teller, state, view_of, entries_of)
    for step in replay_steps(game, record):
        narrator.step(step.state, step.number, step.option.key if as_role is None else None)
    return narrator.story()


def _numbered(items: Iterable[Chapter | StoryLine], number: int,
              kinds: Mapping[str, str]) -> Iterator[Chapter | StoryLine]:
    for item in items:
        if isinstance(item, StoryLine) and item.kind not in kinds:
            raise ValueError(f"story line kind {item.kind!r} is not one of {', '.join(kinds)}")
        yield replace(item, number=number)
