"""A self-contained static HTML report of a tournament run folder (``standoff report RUN_DIR``).

:func:`write_report` reads the run folder alone (``config.json``, its index of ``results.jsonl``
(:mod:`.run_index`), ``elo.jsonl``, ``records/``) and writes::

    <run>/report/index.html                 standings with 95% intervals, crosstable,
                                            likelihood of superiority, Elo over time, faults,
                                            terminations, head to head, every match
    <run>/report/matches/<match id>.html    one page per match: a step-through board viewer
    <run>/report/matches/<id>-g<k>.html     (multi-game matches: one page per game, and the
                                            match page lists them)

Everything is inline (CSS, JavaScript, SVG charts drawn here in Python): the pages work offline
from ``file://`` and load nothing from anywhere. The same run folder always gives the same bytes.

The report is meant to be shared, so, alone of what a run writes, it keeps the usual modes (the
umask's: ``0644`` files in ``0755`` folders, typically), where every other file of the run is
private (:mod:`standoff.server.private_files`). It stays inside the private run folder, so nobody
else reads it until its owner copies it out: write it, and share it, once the run is over. Its
omniscient pages show every hand of a finished match, and a finished paired leg's hands are the
deal of its partner leg, which may still be being played.

The board viewer: every record is replayed with the game its header names, looked up in the
plugin registry (built-in games and game plugins alike). For each player decision (chance
decisions only show in the logs) each seat's track embeds that seat's ``game.view`` taken when
the decision was asked — and nothing else: a seat's JSON never holds another seat's hidden
cards — as a delta on its previous view (:func:`apply_delta`), the choice as that seat saw it,
and the prompt and options of its own decisions. The game's ``GameSpec.html_board``
(:class:`standoff.server.boards.HtmlBoard`) draws the views: its script and style join the
page's, its data is the ``#board-data`` island. For a game without one a seat's track embeds the
text of the game's seat board instead (the generic board if it has none), rendered from that
seat's view alone. The omniscient track embeds the whole table as a view with every hand
(``HtmlBoard.table``, else :func:`standoff.server.boards.table_view`; drawn by the same board as
a seat's) and the game's full board text (:func:`standoff.server.review.render_state`, what
``standoff replay`` prints: the page's "text" toggle); the prompt and options of a decision are
taken from its seat's track. The log of each track is the history as that seat saw it. The SVG
charts are in :mod:`.html_charts`.
"""

from __future__ import annotations

import functools
import html
import json
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..server.core.game import CHANCE
from ..server.boards import HtmlBoard, table_view
from ..server.core.record import ReplayError, replay_steps, start_state
from ..server.records import read_record
from ..server.plugins import find_game_spec
from ..server.review import Review, game_for, outcome_lines, render_view, review, start_note
from ..server.story import tell
from .html_assets import CSS, viewer_script
from .html_charts import bar_chart, elo_chart, interval_chart
from .html_tracks import apply_delta, frame_options, share_options, text_frames, view_delta
from .model import Result
from .ranks import standings_ranks
from ..server.storage import StorageError
from ..server.verify import VerifyError
from .errors import RunError
from .report import ELO_FILE, RESULTS_FILE, elo_lines
from .run_index import RunIndex, ratings_from_index

__all__ = ["ReportError", "apply_delta", "frame_options", "match_tracks", "omniscient_boards", "view_delta", "write_report"]

REPORT_DIR = "report"
MATCHES_DIR = "matches"


class ReportError(ValueError):
    """A run folder the report cannot be made from. The message is one line."""


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _json_island(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">`` (no ``</script>``, no ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_name(match_id: str) -> str:
    """A file name for a match id (ids are ``[A-Za-z0-9._-]``; anything else becomes ``_``)."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", match_id) + ".html"


def _num(value: Any, spec: str = ".1f") -> str:
    if value is None:
        return "-"
    if isinstance(value, str):
        return value
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    return format(value, spec)


def _page(title: str, body: str, *, script: str = "", style: str = "", body_class: str = "") -> str:
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        f"<title>{esc(title)}</title>\n<style>{CSS}{style}</style>\n</head>\n"
        + (f'<body class="{esc(body_class)}">' if body_class else "<body>") + f"\n{body}\n"
        + (f"<script>{script}</script>\n" if script else "")
        + "</body>\n</html>\n"
    )


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def _bare(view: Mapping[str, Any] | None) -> dict[str, Any]:
    view = dict(view or {})
    view.pop("history", None)
    view.pop("history_from", None)
    return view


def _timeline_entry(frame: Any) -> dict[str, Any]:
    move = frame.move
    entry: dict[str, Any] = {"n": frame.number, "r": frame.role, "s": frame.step}
    for name, short in (("think_ms", "t"), ("elapsed_ms", "e"), ("rtt_ms", "q"), ("fault", "f")):
        if move.get(name) is not None:
            entry[short] = move[name]
    if move.get("substituted"):
        entry["x"] = True
    return entry


def _frame_choice(frame: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"k": frame.key}
    if frame.own and frame.options is not None:
        out["p"] = frame.prompt
        out["o"] = list(frame.options)
        out["c"] = frame.index
    return out


def html_board(game_name: str) -> HtmlBoard | None:
    """The game's registered :class:`~standoff.server.boards.HtmlBoard`, or ``None`` (text boards)."""
    spec = find_game_spec(game_name)
    board = spec.html_board if spec is not None else None
    return board if isinstance(board, HtmlBoard) else None


def match_tracks(game: Any, record: Any) -> dict[str, Any]:
    """The viewer's data for one record: ``timeline`` (player decisions, then the end),
    ``tracks`` (one per seat, plus ``omniscient``) and ``meta``. Each seat's track is made from
    that seat's views only: the views themselves (``v``) for a game with an :func:`html_board`,
    else the text of the game's seat board (``b``)."""
    omniscient = review(game, record, as_role=None, history=0)
    roles = omniscient.roles
    keep = [i for i, frame in enumerate(omniscient.frames) if frame.role != CHANCE]
    timeline = [_timeline_entry(omniscient.frames[i]) for i in keep] + [{"end": True}]
    board = html_board(game.name)
    drawn = board is not None
    table = (board.table if board is not None else None) or functools.partial(table_view, game)
    tracks: dict[str, Any] = {}
    for role in roles:
        seat = review(game, record, as_role=role, history=0)
        if not drawn:  # text boards, rendered from this seat's views alone
            views = [seat.frames[i].view for i in keep] + [seat.final_view]
            boards = [render_view(game, _bare(view)) for view in views]
            choices = [_frame_choice(seat.frames[i]) for i in keep] + [{}]
            tracks[role] = {"seat": role, **share_options(text_frames(boards, choices)), "log": seat.log,
                            **_story(game, record, role, table)}
            continue
        frames, previous = [], None
        views = [_bare(seat.frames[i].view) for i in keep] + [_bare(seat.final_view)]
        for view, choice in zip(views, [_frame_choice(seat.frames[i]) for i in keep] + [{}]):
            frames.append({"v": view_delta(previous, view), **choice})
            previous = view
        _add_panels(board, frames, views)
        tracks[role] = {"seat": role, **share_options(frames), "log": seat.log,
                        **_story(game, record, role, table)}
    boards = [omniscient.frames[i].board for i in keep] + [omniscient.final_board]
    # the prompt and options of a decision are in its seat's track ("seats": the viewer takes them there)
    choices = [{"k": omniscient.frames[i].key} for i in keep] + [{}]
    frames = text_frames(boards, choices)
    if drawn:  # the same board as the seats', every hand face up; the text stays (a toggle)
        previous = None
        views = _table_views(game, record, {omniscient.frames[i].number for i in keep}, table)
        for frame, view in zip(frames, views):
            frame["v"] = view_delta(previous, view)
            previous = view
        _add_panels(board, frames, views)
    tracks["omniscient"] = {"seat": None, "frames": frames, "log": omniscient.log, "choices": "seats",
                            **_story(game, record, None, table)}
    lines = _safe_outcome_lines(omniscient)
    meta = {
        "game": game.name,
        "roles": list(roles),
        "outcome": _outcome_text(omniscient),
        "faults": [line for line in lines if line.startswith("faults:")],
        "decisions": len(keep),  # the players' (the viewer's counter): chance steps are no one's decision
        "start": start_note(record.header),  # "from a position (turn 5, p2 to move)", or None: the deal
    }
    if meta["faults"]:  # the policy that handled them (no faults: nothing to say)
        meta["faults"] += [line for line in lines if line.startswith("fault policy:")]
    return {"timeline": timeline, "tracks": tracks, "meta": meta, "final_board": omniscient.final_board,
            "labels": _labels(omniscient)}


def _labels(omniscient: Review) -> dict[str, str]:
    """The options' labels by key ("card:fidel" -> "Fidel"), for the page's decision box (the key
    stays its tooltip): each key's first label, where it says more than the key."""
    labels: dict[str, str] = {}
    for frame in omniscient.frames:
        for key, label in zip(frame.options or (), frame.labels or ()):
            if label and label != key and key not in labels:
                labels[key] = label
    return labels


def _story(game: Any, record: Any, role: str | None, table: Any) -> dict[str, Any]:
    """The track's ``chapters`` and ``story`` (the game's teller, :mod:`standoff.server.story`),
    told from ``role``'s views (``None``: the whole table); nothing for a game without one."""
    spec = find_game_spec(game.name)
    if spec is None or spec.story is None:
        return {}
    return tell(game, record, spec.story(), as_role=role, table=table).to_json()


def _add_panels(board: HtmlBoard | None, frames: list[dict[str, Any]], views: Sequence[Mapping[str, Any]]) -> None:
    """Each frame's panel data (``HtmlBoard.panels``, from the view that frame shows) as ``x``,
    a delta on the previous frame's (left out when nothing changed)."""
    if board is None or board.panels is None:
        return
    previous = None
    for frame, view in zip(frames, views):
        panels = board.panels(view)
        delta = view_delta(previous, panels)
        if delta:  # no ``x``: the previous frame's panels
            frame["x"] = delta
        previous = panels


def _table_views(game: Any, record: Any, numbers: set[int], table: Any) -> list[dict[str, Any]]:
    """The whole table (``table(state)``: ``HtmlBoard.table``) when each decision in ``numbers``
    was asked, then at the end."""
    rules = game.rules(record.header.get("ruleset"), record.header.get("options") or {})
    state = start_state(game, rules, record.header)  # the deal, or the header's position
    views = [table(state)] if 1 in numbers else []
    for step in replay_steps(game, record):  # step.state: after the step (one object, updated)
        state = step.state
        if step.number + 1 in numbers:
            views.append(table(state))
    views.append(table(state))
    return views


def omniscient_boards(track: Mapping[str, Any]) -> list[str]:
    """The board texts of a track of text boards (the omniscient one; a seat's of a game the
    viewer's script does not draw): its frames carry line deltas."""
    boards, current = [], None
    for frame in track["frames"]:
        current = apply_delta(current, frame["b"])
        boards.append("\n".join(current["board"]))
    return boards


def _safe_outcome_lines(result: Review) -> list[str]:
    try:
        return outcome_lines(result)
    except ReplayError as exc:
        return [f"record inconsistent: {exc}"]


def _outcome_text(result: Review) -> str:
    lines = _safe_outcome_lines(result)
    return lines[0] if lines else ""


# ---------------------------------------------------------------------------------------------
# The index page
# ---------------------------------------------------------------------------------------------


def _standings(ratings: Mapping[str, Any]) -> str:
    players = ratings.get("players", [])
    many = len(ratings.get("components", [])) > 1
    head = (
        "<tr><th>#</th><th class=\"name\">player</th><th title=\"Bradley-Terry rating, Elo scale, mean 0\">BT rating</th><th>\u00b1 95%</th><th>interval</th>"
        "<th>games</th><th>W</th><th>D</th><th>L</th><th>score</th>" + ("<th>group</th>" if many else "") + "</tr>"
    )
    rows = []
    for rank, p in zip(standings_ranks(players), players):  # tied ratings share a place
        games = p.get("games", 0)
        margin = p.get("margin")
        if games and isinstance(margin, (int, float)):
            interval = f"[{p['rating'] - margin:+.0f}, {p['rating'] + margin:+.0f}]"
        elif games:
            interval = "unbounded"
        else:
            interval = "-"
        score = p.get("score_pct")
        rows.append(
            f"<tr><td>{rank}</td><td class=\"name\">{esc(p['name'])}</td>"
            f"<td>{_num(p.get('rating'), '+.1f') if games else '-'}</td>"
            f"<td>{_num(margin) if games else '-'}</td><td>{interval}</td><td>{games}</td>"
            f"<td>{p.get('wins', 0)}</td><td>{p.get('draws', 0)}</td><td>{p.get('losses', 0)}</td>"
            f"<td>{'-' if score is None else f'{score:.1f}%'}</td>"
            + (f"<td>{p.get('component', 0) + 1}</td>" if many else "")
            + "</tr>"
        )
    note = "BT rating: Bradley-Terry maximum-likelihood ratings on the Elo scale, mean 0 (not the incremental Elo of the chart below); \u00b1 is the half-width of the 95% interval (Fisher information)."
    if many:
        note += " Ratings compare only within a group: no games link the groups."
    if any(c.get("regularized") for c in ratings.get("components", [])):
        note += " Regularised: one virtual draw per player against a 0-rated opponent."
    return (
        f'<table id="standings"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'
        f'<p class="note">{note}</p>{interval_chart(players)}'
    )


def _heat(value: float) -> str:
    """A background colour from red (0) through white (0.5) to green (1)."""
    v = min(max(value, 0.0), 1.0)
    if v >= 0.5:
        t = (v - 0.5) * 2
        r, g, b = 255 - 120 * t, 255 - 40 * t, 255 - 120 * t
    else:
        t = (0.5 - v) * 2
        r, g, b = 255 - 20 * t, 255 - 130 * t, 255 - 130 * t
    return f"rgb({r:.0f},{g:.0f},{b:.0f})"


def _matrix(names: Sequence[str], cell, *, corner: str) -> str:
    head = f'<tr><th class="name">{esc(corner)}</th>' + "".join(
        f'<th title="{esc(n)}">{i + 1}</th>' for i, n in enumerate(names)
    ) + "</tr>"
    rows = []
    for r, name in enumerate(names):
        cells = []
        for c in range(len(names)):
            if r == c:
                cells.append('<td class="diag">-</td>')
            else:
                cells.append(cell(r, c))
        rows.append(f'<tr><td class="name">{r + 1}. {esc(name)}</td>{"".join(cells)}</tr>')
    return f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def _los(ratings: Mapping[str, Any]) -> str:
    names = [p["name"] for p in ratings.get("players", [])]
    if len(names) < 2:
        return '<p class="muted">Needs two players.</p>'
    comp = {p["name"]: p.get("component", 0) for p in ratings["players"]}
    los = ratings.get("los", {})

    def cell(r: int, c: int) -> str:
        a, b = names[r], names[c]
        if comp[a] != comp[b]:
            return '<td class="muted" title="not linked by games">?</td>'
        value = los.get(a, {}).get(b)
        if value is None:
            return "<td>-</td>"
        return f'<td style="background:{_heat(value)}" title="P({esc(a)} stronger than {esc(b)})">{100 * value:.1f}</td>'

    return _matrix(names, cell, corner="row better than column, %") + (
        '<p class="note">Likelihood of superiority: the probability that the row player is stronger.</p>'
    )


def _crosstable(ratings: Mapping[str, Any]) -> str:
    names = [p["name"] for p in ratings.get("players", [])]
    if len(names) < 2:
        return '<p class="muted">Needs two players.</p>'
    cross = ratings.get("crosstable", {})

    def cell(r: int, c: int) -> str:
        entry = cross.get(names[r], {}).get(names[c])
        if not entry:
            return '<td class="muted">.</td>'
        share = entry["score"] / entry["games"] if entry["games"] else 0.5
        return f'<td style="background:{_heat(share)}">{entry["score"]:g}/{entry["games"]}</td>'

    return _matrix(names, cell, corner="points of row vs column / games")


def _pairs(ratings: Mapping[str, Any]) -> str:
    pairs = ratings.get("pairs", [])
    if not pairs:
        return '<p class="muted">No games played.</p>'
    rows = []
    for q in pairs:
        tri = q.get("trinomial") or {}
        pe = q.get("pentanomial")
        penta = "-"
        if pe:
            penta = f"{_num(pe.get('elo'), '+.1f')} \u00b1 {_num(pe.get('margin'))} ({pe['pairs']} pairs: {' '.join(map(str, pe['counts']))})"
        rows.append(
            f"<tr><td class=\"name\">{esc(q['a'])} vs {esc(q['b'])}</td><td>{q['games']}</td><td>{q['wins']}</td>"
            f"<td>{q['draws']}</td><td>{q['losses']}</td><td>{_num(q.get('score_pct'))}%</td>"
            f"<td>{_num(tri.get('elo'), '+.1f')} \u00b1 {_num(tri.get('margin'))}</td><td>{esc(penta)}</td></tr>"
        )
    return (
        "<table><thead><tr><th class=\"name\">pair</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th>"
        "<th title=\"the rating difference the score implies, Elo scale\">rating diff (trinomial)</th>"
        "<th>pentanomial [LL LD WL+DD WD WW]</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table><p class=\"note\">From the first player's point of view; \u00b1 95%.</p>"
    )


def _faults(ratings: Mapping[str, Any]) -> str:
    faults = ratings.get("faults", {})
    kinds = sorted({kind for per in faults.values() for kind in per})
    names = [p["name"] for p in ratings.get("players", [])] or sorted(faults)
    if not kinds:
        return '<p id="faults-none">No faults: every bot answered every decision in time with a legal option.</p>'
    head = '<tr><th class="name">bot</th>' + "".join(f"<th>{esc(k)}</th>" for k in kinds) + "<th>total</th></tr>"
    rows = []
    for name in names:
        per = faults.get(name, {})
        cells = "".join(f"<td>{per.get(k, 0) or ''}</td>" for k in kinds)
        rows.append(f'<tr><td class="name">{esc(name)}</td>{cells}<td>{sum(per.values())}</td></tr>')
    return f"<table id=\"faults\"><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def _matches_table(results: Sequence[Result], info: Mapping[str, Mapping[str, Any]], roles: Sequence[str]) -> str:
    head = (
        "<tr><th>#</th><th>round</th><th class=\"name\">match</th>"
        + "".join(f'<th class="name">{esc(r)}</th>' for r in roles)
        + "<th class=\"name\">winner</th><th class=\"name\">termination</th><th>decisions</th>"
        "<th class=\"name\">faults</th></tr>"
    )
    rows = []
    for result in results:
        meta = info.get(result.match_id, {})
        link = f'<a href="{MATCHES_DIR}/{esc(page_name(result.match_id))}">{esc(result.match_id)}</a>'
        seats = "".join(f'<td class="name">{esc(result.seats.get(r, "-"))}</td>' for r in roles)
        if not result.played:
            winner = f'<span class="muted">{"error: no result" if result.termination == "error" else "not played"}</span>'
        elif result.winner:
            winner = f'<span class="win">{esc(result.winner)}</span> ({esc(result.winner_role)})'
        else:
            winner = "draw"
        faults = "; ".join(
            f"{result.seats.get(role, role)}: " + ", ".join(f"{k} {n}" for k, n in kinds.items())
            for role, kinds in (result.faults or {}).items()
        )
        rows.append(
            f"<tr><td>{result.index + 1}</td><td>{result.round}</td><td class=\"name\">{link}</td>{seats}"
            f"<td class=\"name\">{winner}</td><td class=\"name\">{esc(result.termination)}</td>"
            f"<td>{meta.get('decisions', '-')}</td><td class=\"text\">{esc(faults)}</td></tr>"
        )
    return f"<table id=\"matches\"><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def _index_page(config: Mapping[str, Any], results: Sequence[Result], ratings: Mapping[str, Any],
                elo: Sequence[Mapping[str, Any]], info: Mapping[str, Mapping[str, Any]], name: str) -> str:
    matches = ratings.get("matches", {})
    roles = list(config.get("roles") or sorted({r for res in results for r in res.seats}))
    game = config.get("game", "?")
    ruleset = config.get("ruleset") or "default"
    summary = (
        f"{esc(game)} ({esc(ruleset)}) \u00b7 {esc(config.get('format', '?'))} \u00b7 "
        f"{matches.get('total', 0)} matches ({matches.get('played', 0)} played, "
        f"{matches.get('not_played', 0)} not played"
        + (f", {matches['error']} ended by an error" if matches.get("error") else "")
        + f") \u00b7 {matches.get('games', 0)} pairwise games"
    )
    names = [p["name"] for p in ratings.get("players", [])]
    terms = sorted(ratings.get("terminations", {}).items(), key=lambda kv: (-kv[1], kv[0]))
    start = float((config.get("elo") or {}).get("start", 1500.0))
    body = f"""<header class="top"><h1>Tournament {esc(name)}</h1><div class="sub">{summary}</div></header>
<main>
<section id="standings-section"><h2>Standings</h2>{_standings(ratings)}</section>
<div class="grid2">
<section><h2>Crosstable</h2>{_crosstable(ratings)}</section>
<section><h2>Likelihood of superiority</h2>{_los(ratings)}</section>
</div>
<section><h2>Elo over time</h2>{elo_chart(elo, names, start)}
<p class="note">Incremental Elo (K {esc((config.get('elo') or {}).get('k', 32))}, start {start:g}) after each pairwise game, in canonical match order (elo.jsonl).</p></section>
<section><h2>Head to head</h2>{_pairs(ratings)}</section>
<div class="grid2">
<section><h2>Faults per bot</h2>{_faults(ratings)}</section>
<section><h2>Terminations</h2>{bar_chart(terms, label="terminations")}</section>
</div>
<section><h2>Matches</h2>{_matches_table(results, info, roles)}</section>
</main>"""
    return _page(f"Tournament {name}", body)


# ---------------------------------------------------------------------------------------------
# Match pages
# ---------------------------------------------------------------------------------------------


def _nav(prev_page: str | None, next_page: str | None) -> str:
    parts = ['<a href="../index.html">\u2190 report</a>']
    if prev_page:
        parts.append(f'<a href="{esc(prev_page)}">previous match</a>')
    if next_page:
        parts.append(f'<a href="{esc(next_page)}">next match</a>')
    return " \u00b7 ".join(parts)


def _result_line(result: Result) -> str:
    if not result.played:
        what = "no result, the match ended by an error" if result.termination == "error" else "not played"
        return f"{what}: {result.reason}"
    who = f"{result.winner} ({result.winner_role}) wins" if result.winner else "draw"
    return f"{who} by {result.termination}: {result.reason}"


def _viewer_page(title: str, nav: str, subtitle: str, data: Mapping[str, Any], seats: Mapping[str, str]) -> str:
    meta = data["meta"]
    named = {role: f"{role} ({seats[role]})" if seats.get(role) else role for role in meta["roles"]}
    radios = "".join(  # a long bot name ends in an ellipsis (the label's title holds it whole)
        f'<label title="{esc(named[role])}"><input type="radio" name="seat" value="{esc(role)}"> {esc(named[role])}</label>'
        for role in meta["roles"]
    ) + '<label><input type="radio" name="seat" value="omniscient" checked> omniscient</label>'
    islands = [f'<script type="application/json" id="meta">{_json_island(meta)}</script>',
               f'<script type="application/json" id="labels">{_json_island(data.get("labels") or {})}</script>',
               f'<script type="application/json" id="timeline">{_json_island(data["timeline"])}</script>']
    for name, track in data["tracks"].items():
        islands.append(
            f'<script type="application/json" id="track-{esc(name)}" data-track="{esc(name)}">{_json_island(track)}</script>'
        )
    board = html_board(meta["game"])
    if board is not None and board.data is not None:
        islands.append(f'<script type="application/json" id="board-data">{_json_island(board.data())}</script>')
    wide = ' class="wide"' if board is not None and board.wide else ""
    text_toggle = ""
    if any("b" in frame and "v" in frame for track in data["tracks"].values() for frame in track["frames"][:1]):
        text_toggle = ('<label class="seats" title="the board as text, as standoff replay prints it">'
                       '<input type="checkbox" id="as-text"> text</label>')
    final = data["final_board"]
    body = f"""<header class="top"><div class="bar"><h1 title="{esc(title)}">{esc(title)}</h1><div class="sub links">{nav}</div></div><div class="sub"><span title="{esc(_plain(subtitle))}">{subtitle}</span></div></header>
<main{wide}>
<section id="viewer" hidden>
<div class="controls">
<span class="seats" title="whose eyes: a seat sees only what it saw">{radios}</span>
<span class="group"><button id="first" title="first (Home)">\u00ab</button><button id="prev" title="back (\u2190)">\u25c0</button><button id="next" title="next (\u2192)">\u25b6</button><button id="last" title="end (End)">\u00bb</button></span>
<span class="group"><button id="chapter-prev" title="previous turn, action round or claim ([ or PageUp)">\u21e4</button><select id="chapter" aria-label="jump to a turn, action round or claim"></select><button id="chapter-next" title="next turn, action round or claim (] or PageDown)">\u21e5</button></span>
<span class="group"><button id="play" title="play / pause (space)" aria-pressed="false">\u25b6 play</button><select id="speed" title="autoplay speed: decisions per second" aria-label="autoplay speed"></select></span>
<span id="pos"></span>{text_toggle}
{_VIEWER_HELP}
</div>
<div class="scrub"><input type="range" id="slider" min="0" max="0" value="0" aria-label="decision"><div id="ticks"></div></div>
<div class="panes"><div id="board-pane"><div id="board"></div></div><div id="side"><div id="decision" class="decision"></div><div id="side-board"></div><div id="log" class="log"></div></div></div>
</section>
<noscript><section><h2>Final position</h2><pre class="board">{esc(final)}</pre></section></noscript>
</main>
{''.join(islands)}"""
    return _page(title, body, script=viewer_script(board.script if board else ""), style=board.style if board else "",
                 body_class="viewer-page")


def _plain(markup: str) -> str:
    """The text of a line of markup (a title attribute's: the whole line where the page cuts it short)."""
    return html.unescape(re.sub(r"<[^>]*>", "", markup))


#: The viewer's help: what it shows and its keys.
_VIEWER_HELP = (
    '<details class="help"><summary title="keys and what the viewer shows">?</summary><div>'
    "<p>Player decisions only (deals and draws are in the log). A seat\u2019s view shows only what that seat "
    "saw when it was asked; \u201comniscient\u201d shows every hand. The address links to the decision shown.</p>"
    "<p><kbd>\u2190</kbd> <kbd>\u2192</kbd> a decision \u00b7 <kbd>[</kbd> <kbd>]</kbd> or <kbd>PageUp</kbd> "
    "<kbd>PageDown</kbd> a turn, round or claim \u00b7 <kbd>Home</kbd> <kbd>End</kbd> \u00b7 <kbd>space</kbd> "
    "play / pause \u00b7 <kbd>+</kbd> <kbd>\u2212</kbd> <kbd>0</kbd> zoom the map (or the wheel, a pinch; "
    "drag to pan)</p></div></details>"
)


def _message_page(title: str, nav: str, subtitle: str, message: str, extra: str = "") -> str:
    body = (
        f'<header class="top"><h1>{esc(title)}</h1><div class="sub">{subtitle}</div><div class="sub">{nav}</div></header>'
        f'<main><section><p>{esc(message)}</p>{extra}</section></main>'
    )
    return _page(title, body)


def _game_data(records: Path, stem: str) -> tuple[dict[str, Any] | None, str | None]:
    """The viewer data of ``records/<stem>.jsonl``, or an error message."""
    path = records / f"{stem}.jsonl"
    if not path.exists():
        return None, f"no record file records/{stem}.jsonl"
    try:
        record = read_record(path)
        game = game_for(record.header.get("game"))
        return match_tracks(game, record), None
    except (OSError, ValueError) as exc:  # ReplayError, unknown game
        return None, f"the record does not replay: {exc}"


def _seat_order(config: Mapping[str, Any], seats: Mapping[str, str]) -> list[str]:
    """The seats in the game's role order (the order of the viewer's seat buttons)."""
    roles = list(config.get("roles") or [])
    if not roles:
        try:
            roles = list(game_for(config.get("game")).rules().roles)
        except (ValueError, TypeError, AttributeError):
            roles = []
    return [r for r in roles if r in seats] + [r for r in seats if r not in roles]


def _subtitle(config: Mapping[str, Any], result: Result, extra: str = "") -> str:
    seats = " vs ".join(f"{esc(role)} {esc(result.seats[role])}" for role in _seat_order(config, result.seats))
    return (
        f"{esc(config.get('game', ''))} ({esc(config.get('ruleset') or 'default')}) \u00b7 round {result.round} "
        f"\u00b7 seed {result.seed} \u00b7 {seats} \u00b7 {esc(_result_line(result))}{extra}"
    )


def _write_match(folder: Path, records: Path, config: Mapping[str, Any], result: Result,
                 prev_page: str | None, next_page: str | None) -> tuple[dict[str, Any], list[str]]:
    """Write the page(s) of one match; returns summary info and the file names written."""
    nav = _nav(prev_page, next_page)
    title = f"Match {result.match_id}"
    name = page_name(result.match_id)
    written = [name]
    info: dict[str, Any] = {}
    if not result.played:
        _write(folder / name, _message_page(title, nav, _subtitle(config, result), _result_line(result)))
        return info, written
    game_files = sorted(
        (p for p in records.glob(f"{glob_escape(result.match_id)}-g*.jsonl")
         if re.fullmatch(re.escape(result.match_id) + r"-g\d+", p.stem)),
        key=lambda p: int(p.stem.rsplit("-g", 1)[1]),
    )
    if result.games or (game_files and not (records / f"{result.match_id}.jsonl").exists()):
        items, decisions = [], 0
        by_number = {g.get("game"): g for g in result.games}
        for path in game_files:
            number = int(path.stem.rsplit("-g", 1)[1])
            game_page = page_name(path.stem)
            data, error = _game_data(records, path.stem)
            game_title = f"Match {result.match_id}, game {number}"
            back = f'<a href="{esc(name)}">\u2190 match {esc(result.match_id)}</a> \u00b7 ' + nav
            seats = result.seats
            if data is None:
                info.setdefault("errors", []).append(f"game {number}: {error}")
                _write(folder / game_page, _message_page(game_title, back, _subtitle(config, result), error or ""))
            else:
                decisions += data["meta"]["decisions"]
                sub = _subtitle(config, result, f" \u00b7 game {number}: {esc(data['meta']['outcome'])}{_start(data)}")
                _write(folder / game_page, _viewer_page(game_title, back, sub, data, seats))
            written.append(game_page)
            g = by_number.get(number, {})
            points = ", ".join(f"{esc(r)} {p}" for r, p in (g.get("points") or {}).items())
            items.append(
                f'<tr><td>{number}</td><td class="name"><a href="{esc(game_page)}">game {number}</a></td>'
                f'<td class="name">{esc(g.get("winner") or ("draw" if g else "-"))}</td>'
                f'<td class="name">{esc(g.get("termination", "-"))}</td><td class="name">{points}</td></tr>'
            )
        table = (
            '<table><thead><tr><th>#</th><th class="name">game</th><th class="name">winner</th>'
            '<th class="name">termination</th><th class="name">points</th></tr></thead>'
            f"<tbody>{''.join(items)}</tbody></table>"
        ) if items else '<p class="muted">No game records found.</p>'
        _write(folder / name, _message_page(title, nav, _subtitle(config, result),
                                            f"A match of {len(result.games) or len(items)} games.", table))
        info["decisions"] = decisions or "-"
        return info, written
    data, error = _game_data(records, result.match_id)
    if data is None:
        info["errors"] = [error]
        _write(folder / name, _message_page(title, nav, _subtitle(config, result), error or ""))
        return info, written
    info["decisions"] = data["meta"]["decisions"]
    _write(folder / name, _viewer_page(title, nav, _subtitle(config, result, _start(data)), data, result.seats))
    return info, written


def _start(data: Mapping[str, Any]) -> str:
    """`` · from a position (...)`` for a subtitle, when the match did not start from the deal."""
    note = data["meta"].get("start")
    return f" \u00b7 {esc(note)}" if note else ""


def glob_escape(text: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", text)


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def _read_elo(run: Path, results: Iterable[Result], config: Mapping[str, Any]) -> list[dict[str, Any]]:
    path = run / ELO_FILE
    elo = config.get("elo") or {}
    if path.exists():
        try:
            return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except (OSError, ValueError):
            pass  # a torn or broken derived file: recompute it
    return elo_lines(results, k=float(elo.get("k", 32.0)), start=float(elo.get("start", 1500.0)))


def _record_ruleset(records: Path) -> str | None:
    """The ruleset a record of the run names (a config may leave it to the game's default)."""
    for path in sorted(records.glob("*.jsonl"))[:1]:
        try:
            with open(path, encoding="utf-8") as file:
                return json.loads(file.readline()).get("ruleset")
        except (OSError, ValueError, AttributeError):
            return None
    return None


def write_report(run_dir: str | os.PathLike[str]) -> Path:
    """Write the HTML report of the run folder ``run_dir`` into ``run_dir/report/`` and return
    the path of its ``index.html``. Raises :class:`ReportError` (one line) if ``run_dir`` is
    not a readable run folder."""
    return report_with_problems(run_dir)[0]


def report_with_problems(run_dir: str | os.PathLike[str], *, verify: bool = False) -> tuple[Path, list[str]]:
    """:func:`write_report`, and one line per match whose record could not be shown (missing,
    or not replaying): those pages say why, and the caller should too. The results and the
    ratings come from the run's index (caught up with the files first; ``verify``: checking what
    it did not hold yet, as a resume does); the match pages read their records."""
    run = Path(run_dir)
    results_path = run / RESULTS_FILE
    if not run.is_dir():
        raise ReportError(f"{run}: not a folder")
    if not results_path.exists():
        raise ReportError(f"{run}: not a run folder (no {RESULTS_FILE})")
    try:
        index = RunIndex.open(run, verify=verify)
    except VerifyError as exc:
        raise ReportError(f"{exc} (--no-verify to read it anyway)") from None
    except (RunError, StorageError) as exc:
        raise ReportError(str(exc)) from None
    except OSError as exc:
        raise ReportError(f"cannot read {exc.filename or results_path}: {exc.strerror or exc}") from None
    config: dict[str, Any] = {}
    with index:
        try:
            results = list(index.results())
            config_path = run / "config.json"
            if config_path.exists():
                try:
                    config = json.loads(config_path.read_text(encoding="utf-8"))
                except (OSError, ValueError) as exc:
                    raise ReportError(f"cannot read {config_path}: {exc}") from None
            ratings = ratings_from_index(index, entrants=config.get("entrants"))
        except StorageError as exc:
            raise ReportError(str(exc)) from None
    elo = _read_elo(run, results, config)
    if not config.get("ruleset"):
        config["ruleset"] = _record_ruleset(run / "records")

    out = run / REPORT_DIR
    matches = out / MATCHES_DIR
    matches.mkdir(parents=True, exist_ok=True)
    records = run / "records"
    pages = [page_name(r.match_id) for r in results]
    info: dict[str, dict[str, Any]] = {}
    written: set[str] = set()
    for i, result in enumerate(results):
        prev_page = pages[i - 1] if i > 0 else None
        next_page = pages[i + 1] if i + 1 < len(pages) else None
        info[result.match_id], files = _write_match(matches, records, config, result, prev_page, next_page)
        written.update(files)
    for stale in matches.glob("*.html"):  # pages of matches no longer in the results
        if stale.name not in written:
            stale.unlink()
    index = out / "index.html"
    _write(index, _index_page(config, results, ratings, elo, info, config.get("name") or run.name))
    problems = [f"{match_id}: {error}" for match_id, data in info.items() for error in data.get("errors", ())]
    return index, problems
