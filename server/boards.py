"""The generic boards of any game: what ``standoff replay`` and the report show of a game that
brings none of its own, and the parts every board shares.

A game registers its boards with its :class:`~standoff.sdk.GameSpec`: ``seat_board(view)`` (one
seat's board as text, from its view dict alone), ``state_board(state)`` (the whole table as text)
and ``html_board`` (an :class:`HtmlBoard`: how the report's match viewer draws its views). The
built-in games bring theirs in their own packages (``standoff.server.games.<game>``); a game
without boards gets :func:`generic_board`, and the report shows its text boards.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "WIDTH",
    "HtmlBoard",
    "generic_board",
    "history_lines",
    "seat_views",
    "table_view",
]

#: Text is wrapped for a terminal this wide.
WIDTH = 100


def generic_board(view: Mapping[str, Any]) -> str:
    """Any view as text: one ``key: JSON value`` line per entry (wrapped), then the recent history."""
    lines = []
    for key, value in view.items():
        if key in ("history", "history_from"):
            continue
        text = f"  {key}: {json.dumps(value, ensure_ascii=False)}"
        lines += textwrap.wrap(text, WIDTH, subsequent_indent="      ", break_on_hyphens=False) or [text]
    lines += history_lines(view.get("history") or [])
    return "\n".join(lines)


def seat_views(game: Any, state: Any) -> dict[str, dict[str, Any]]:
    """Every seat's view of ``state``, by role (in the rules' order of roles)."""
    number = getattr(state, "number", 0)
    return {role: game.view(state, role, number) for role in state.rules.roles}


def table_view(game: Any, state: Any, views: Mapping[str, Mapping[str, Any]] | None = None) -> dict[str, Any]:
    """The whole table as one view dict, for omniscient boards: the first seat's view (``views``,
    else :func:`seat_views`) without its history, its ``hand`` and what it sees of the others
    (``opponents``), with ``role`` ``None`` and ``hands`` (every seat's hand, face up). A game
    whose views keep more of one seat's own (a card only it has seen) merges that in through its
    :attr:`HtmlBoard.table`. Built from ``game.view`` alone, so the omniscient page, the seat pages
    and the text boards agree."""
    views = seat_views(game, state) if views is None else views
    roles = list(views)
    table = dict(views[roles[0]])
    for key in ("history", "history_from", "opponents", "hand"):
        table.pop(key, None)
    table["role"] = None
    table["hands"] = {role: list(views[role].get("hand") or []) for role in roles}
    return table


@dataclass(frozen=True)
class HtmlBoard:
    """How the report's match viewer draws a game's boards (``GameSpec.html_board``).

    * ``script``: JavaScript spliced into the viewer's script (inside its function, so that it
      may use the viewer's helpers ``h(tag, attrs, children)``, which makes an element, and
      ``json(id)``, which reads a JSON island of the page). It must set ``BOARD`` to a function
      ``(view, ctx) -> Element`` that draws one view dict: a seat's view, or the whole table
      (``view.hands``: every hand, face up). ``ctx``: ``seat`` (the track shown), ``log`` (the
      history as that seat saw it), ``n`` (the decision shown; ``Infinity`` at the end),
      ``next`` (the next player decision's number), ``panels`` (that frame's :attr:`panels`
      data, or ``null``) and ``chapter`` (the title of the track's chapter shown, or ``null``).
      The page frame moves an element marked ``data-pane="side"`` (the hands) beside the log,
      and zooms and pans an ``<svg data-zoom>`` (a map).
    * ``style``: CSS added to the match pages.
    * ``data()``: JSON-ready data the script needs on every page (a map's layout, the cards),
      embedded once as the JSON island ``#board-data``; ``None``: none.
    * ``table(state)``: the whole table as one view dict (the omniscient track); ``None``:
      :func:`table_view`.
    * ``wide``: the page takes the window's whole width (a map), not a column of reading width.
    * ``panels(view)``: JSON-ready panel data the script draws beside the board (region scoring,
      formations), computed from the same view the frame shows (a seat's, or the table), so a
      panel can tell a seat nothing its view does not; shipped in each frame as ``x`` (a
      delta on the previous frame's, like the view). ``None``: no panels.

    A game without one gets its text boards (``seat_board``, or :func:`generic_board`) in the
    viewer. A game package reads its script and style with :mod:`importlib.resources`.
    """

    script: str
    style: str = ""
    data: Callable[[], Any] | None = None
    table: Callable[[Any], dict[str, Any]] | None = None
    wide: bool = False
    panels: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None


def history_lines(history: Sequence[Sequence[Any]], indent: str = "  ") -> list[str]:
    """``recent: 12 p1 play card:red-5; 13 p1 place flag:4; ...``, wrapped between entries."""
    lines: list[str] = []
    current = f"{indent}recent:"
    for n, role, step, key in history:
        entry = f"{n} {role} {step} {key}"
        if len(current) + len(entry) + 2 > WIDTH and not current.endswith(":"):
            lines.append(current + ";")
            current = indent + " " * len("recent:")
        else:
            current += ";" if not current.endswith(":") else ""
        current += " " + entry
    if history:
        lines.append(current)
    return lines
