"""The story of a recorded match in a terminal (``standoff replay``): the sentences a game's
teller gives (:mod:`.story`, the same :class:`~.story.Story` as the report's pages), grouped
under their chapters, each line with the number of the decision it follows from in a margin, so
that ``--from N``, ``--step`` and ``j N`` can be used with what is read:

.. code-block:: text

    Turn 1 · Action round 1
       34  USSR plays Nuclear Test Ban (4) for Ops (influence).
       38  USSR places influence in Lebanon (+1), Egypt (+2) and Iran (+1); USSR now controls
           Lebanon and Egypt.

A game without a teller has no story: the replay prints its decisions' keys as before.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator

from .boards import WIDTH, HtmlBoard
from .core.game import Game
from .core.record import Record
from .plugins import find_game_spec
from .story import Chapter, Story, tell

__all__ = ["MARGIN", "story_lines", "story_of", "story_so_far"]

#: Width of the margin holding decision numbers.
MARGIN = 8


def story_of(game: Game, record: Record, as_role: str | None = None) -> Story | None:
    """The match told by the game's teller (``GameSpec.story``) as ``as_role`` saw it
    (``None``: the whole table, the game's own table view if its HTML board has one), or
    ``None`` for a game without a teller."""
    spec = find_game_spec(game.name)
    if spec is None or spec.story is None:
        return None
    board = spec.html_board if isinstance(spec.html_board, HtmlBoard) else None
    table = board.table if board is not None else None
    return tell(game, record, spec.story(), as_role=as_role, table=table)


def _wrapped(number: str, text: str, width: int, indent: int = 0) -> list[str]:
    pad = " " * (MARGIN + indent)
    first = f"{number:>{MARGIN - 2}}  " + " " * indent if number else pad
    return textwrap.wrap(text, width, initial_indent=first, subsequent_indent=pad, break_on_hyphens=False,
                         break_long_words=False) or [first.rstrip()]


def story_lines(story: Story, *, start: int = 1, upto: int | None = None, details: bool = True,
                width: int = WIDTH) -> Iterator[str]:
    """The story as terminal lines: each chapter's title (a blank line before it), then its
    sentences with their decision number in the margin (once per number) and their detail lines
    under them. ``start``: from the lines of decision ``start`` on (under the title of the
    chapter they belong to); ``upto``: only what was told before decision ``upto`` (a viewer
    there); ``details=False``: the sentences alone."""
    chapter: Chapter | None = None
    shown: Chapter | None = None
    last_number: int | None = None
    first = True
    for item in story.items:
        if isinstance(item, Chapter):
            chapter = item
            continue
        if item.number < start or (upto is not None and item.number >= upto):
            continue
        if chapter is not None and chapter is not shown:
            if not first:
                yield ""
            yield chapter.title
            shown, last_number = chapter, None
        first = False
        number = str(item.number) if item.number != last_number else ""
        last_number = item.number
        yield from _wrapped(number, item.text, width)
        if details:
            for detail in item.detail:
                yield from _wrapped("", detail, width, indent=4)


def story_so_far(story: Story, number: int, lines: int = 12, width: int = WIDTH) -> list[str]:
    """The last ``lines`` lines told before decision ``number`` (the interactive replay's
    screen), with the title of the chapter they are in."""
    told = [line for line in story_lines(story, upto=number, details=False, width=width) if line]
    if len(told) <= lines:
        return told
    tail = told[-lines:]
    titles = [line for line in told[: len(told) - lines] if not line.startswith(" ")]
    if titles and (not tail or tail[0].startswith(" ")):
        tail = [titles[-1] + " (continued)", *tail[1:]]
    return tail
