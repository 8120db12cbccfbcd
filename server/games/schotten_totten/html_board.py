"""Schotten Totten's board in the report's match viewer (``GameSpec.html_board``): the script
and style in ``board.js`` and ``board.css`` beside this module, the whole table as one view
(:func:`table_view`) and the flag panels (:func:`panels`: the formation on each side of each
flag and the proof of each claim). Imported by ``spec.game_spec`` only (not by the engine's
imports)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from ... import boards
from .claims import card_text, proof_lines, provable, read_flags


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


def panels(view: Mapping[str, Any]) -> dict[str, Any]:
    """The flag panels of one frame (``HtmlBoard.panels``), from the table of ``view`` alone
    (public: the same for every seat). ``flags``: one item per flag, in order, with ``sides``:
    role -> ``{"f": formation, "s": sum, "c": complete}`` (an incomplete side: the best it could
    still make, ``"w"`` the troops that would make it; ``{"c": false, "f": null}``: it can no
    longer be completed; ``{}``: no card yet); ``proof``: the lines proving a claimed flag's
    claim; ``can``: the roles that could claim it now."""
    out = []
    for flag in read_flags(view):
        sides: dict[str, Any] = {}
        for side in flag.sides:
            if not side.cards:
                sides[side.role] = {}
            elif side.complete:
                sides[side.role] = {"f": side.name, "s": side.total, "c": True}
            elif side.name is None:
                sides[side.role] = {"f": None, "c": False}
            else:
                sides[side.role] = {"f": side.name, "s": side.total, "c": False,
                                    "w": [card_text(c) for c in side.adding]}
        item: dict[str, Any] = {"sides": sides}
        if flag.claimed_by is not None and flag.side(flag.claimed_by).complete:
            item["proof"] = proof_lines(flag, flag.claimed_by)
        can = [side.role for side in flag.sides if provable(flag, side.role)]
        if can:
            item["can"] = can
        out.append(item)
    return {"flags": out}


@functools.cache
def html_board(game: Any) -> boards.HtmlBoard:
    """The game's :class:`~standoff.server.boards.HtmlBoard` (its files read once a process)."""
    from importlib import resources  # pathlib underneath: kept out of the engine's imports

    files = resources.files(__package__)
    return boards.HtmlBoard(
        script=files.joinpath("board.js").read_text(encoding="utf-8"),
        style=files.joinpath("board.css").read_text(encoding="utf-8"),
        table=functools.partial(table_view, game),
        panels=panels,
    )
