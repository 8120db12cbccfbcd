"""Schotten Totten's board in the report's match viewer (``GameSpec.html_board``): the script
and style in ``board.js`` and ``board.css`` beside this module, and the whole table as one view
(:func:`table_view`). Imported by ``spec.game_spec`` only (not by the engine's imports)."""

from __future__ import annotations

import functools
from typing import Any

from ... import boards


def table_view(game: Any, state: Any) -> dict[str, Any]:
    """The whole table (:func:`standoff.server.boards.table_view`) with the deck tops a seat put
    back with Scout: known to that seat alone, shown to the omniscient reviewer."""
    views = boards.seat_views(game, state)
    table = boards.table_view(game, state, views)
    decks = table.get("decks")
    if isinstance(decks, dict):
        merged = {}
        for name, deck in decks.items():
            tops = [list((view.get("decks") or {}).get(name, {}).get("top") or []) for view in views.values()]
            size = max((len(t) for t in tops), default=0)
            top = [next((t[i] for t in tops if i < len(t) and t[i] != "unknown"), "unknown") for i in range(size)]
            merged[name] = {**deck, "top": top}
        table["decks"] = merged
    return table


@functools.cache
def html_board(game: Any) -> boards.HtmlBoard:
    """The game's :class:`~standoff.server.boards.HtmlBoard` (its files read once a process)."""
    from importlib import resources  # pathlib underneath: kept out of the engine's imports

    files = resources.files(__package__)
    return boards.HtmlBoard(
        script=files.joinpath("board.js").read_text(encoding="utf-8"),
        style=files.joinpath("board.css").read_text(encoding="utf-8"),
        table=functools.partial(table_view, game),
    )
