"""The web face's HTML (:mod:`.web`): the front page, the finished matches, a match in play.

The pages share the report's style and frame (:func:`standoff.tournaments.html._page`); a
finished match's page *is* the report's match page (:func:`.html.match_tracks` and the report's
viewer), made by :mod:`.web`. A match in play gets :func:`live_page`: the game's own board script
(``HtmlBoard.script``, the one the report's viewer splices in) draws the spectator's public view
(:mod:`.web_live`), redrawn at each event of the match's event stream; a game without an HTML
board shows the text board of that view. The page embeds only what ``/api/matches/ID/live``
gives: no hand, no seed, no record line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .html import _json_island, _page, esc
from .html_assets import HELPERS_JS

__all__ = ["front_page", "finished_page", "live_page", "message_page", "standings_table"]

#: The links at the top of every page of the web face.
NAV = '<a href="/">standings and matches</a> \u00b7 <a href="/matches">finished matches</a> \u00b7 <a href="/api/standings">JSON API</a>'

STYLE = """
.live-status { font-weight: 600; margin-bottom: 8px; }
.live-status .muted { font-weight: 400; }
#live-board { min-height: 120px; }
.pill { display: inline-block; border-radius: 9px; padding: 0 7px; font-size: 12px; background: #e7f0ff; color: #2f6fde; }
.pill.over { background: #e8f6ee; color: #1f8a4c; }
.side { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
@media (max-width: 900px) { .side { grid-template-columns: 1fr; } }
#live-side-board:empty { display: none; }
#live-log { flex-direction: column; }  /* oldest first, scrolled to the end (the viewer's log box is reversed) */
main.live-frame { max-width: 1600px; padding: 8px 12px 16px; }
/* A laptop's window: the board beside the hands, the latest moves and the standings, the map
   scaled to the height left (as the match pages' frame does), nothing below the fold. */
@media (min-width: 1000px) and (min-height: 560px) {
  main.live-frame { display: grid; grid-template-columns: minmax(0, 1fr) clamp(300px, 30vw, 480px); gap: 12px;
                    align-items: start; }
  main.live-frame > .side { grid-template-columns: 1fr; gap: 8px; }
  main.live-frame > .side section { margin: 0; }
  main.live-frame #live-board svg { display: block; width: 100%; height: auto; max-height: calc(100vh - 330px); }
  main.live-frame .log { max-height: calc(50vh - 120px); }
}
"""


def _seats(seats: Mapping[str, str]) -> str:
    return " vs ".join(f"{esc(role)} {esc(bot)}" for role, bot in seats.items())


def _result(match: Mapping[str, Any]) -> str:
    result = match.get("result") or {}
    winner = result.get("winner")
    if result.get("termination") in ("not_played", "error", "shutdown"):
        return f"no result ({esc(result.get('termination'))})"
    who = f"{esc(winner)} wins" if winner else "draw"
    return f"{who} by {esc(result.get('termination', '?'))}"


def standings_table(standings: Mapping[str, Any]) -> str:
    """The standings of ``/api/standings`` as a table (its columns are the rows' keys)."""
    rows = list(standings.get("standings") or [])
    if not rows:
        return '<p class="muted" id="standings-empty">No finished match yet.</p>'
    columns = list(rows[0])
    head = "".join(f'<th class="{"name" if i == 0 else ""}">{esc(c.replace("_", " "))}</th>'
                   for i, c in enumerate(columns))
    body = "".join(
        f"<tr><td>{number}</td>" + "".join(
            f'<td class="{"name" if i == 0 else ""}">{esc("-" if row.get(c) is None else row.get(c))}</td>'
            for i, c in enumerate(columns)) + "</tr>"
        for number, row in enumerate(rows, start=1))
    return f'<table id="standings"><thead><tr><th>#</th>{head}</tr></thead><tbody>{body}</tbody></table>'


def _playing_table(playing: Sequence[Mapping[str, Any]]) -> str:
    if not playing:
        return '<p class="muted" id="playing-empty">No match is being played.</p>'
    rows = "".join(
        f'<tr><td class="name"><a href="/matches/{esc(m["match_id"])}">{esc(m["match_id"])}</a></td>'
        f'<td class="name">{esc(m.get("game", ""))}</td><td class="name">{_seats(m.get("seats") or {})}</td>'
        f'<td class="name"><span class="pill">{"waiting for its bots" if m.get("waiting") else "live"}</span></td></tr>'
        for m in playing)
    return ('<table id="playing"><thead><tr><th class="name">match</th><th class="name">game</th>'
            f'<th class="name">seats</th><th class="name"></th></tr></thead><tbody>{rows}</tbody></table>')


def _finished_table(finished: Sequence[Mapping[str, Any]], token: str) -> str:
    if not finished:
        return '<p class="muted" id="finished-empty">No finished match to show.</p>'
    rows = "".join(
        f'<tr><td class="name"><a href="/matches/{esc(m["match_id"])}">{esc(m["match_id"])}</a></td>'
        f'<td class="name">{esc(m.get("game", ""))}</td><td class="name">{_seats(m.get("seats") or {})}</td>'
        f'<td class="name">{_result(m)}</td></tr>'
        for m in finished)
    more = f'<p><a id="older" href="/matches?page_token={esc(token)}">older matches \u2192</a></p>' if token else ""
    return ('<table id="finished"><thead><tr><th class="name">match</th><th class="name">game</th>'
            f'<th class="name">seats</th><th class="name">result</th></tr></thead><tbody>{rows}</tbody></table>{more}')


def front_sections(tables: Sequence[tuple[str, Mapping[str, Any]]], playing: Sequence[Mapping[str, Any]],
                   finished: Sequence[Mapping[str, Any]], token: str) -> str:
    """The front page's sections (also what its script fetches again when something changed):
    ``tables`` are (title, standings) pairs (none before the first finished match)."""
    standings = "".join(f"<section><h2>{esc(title)}</h2>{standings_table(table)}</section>" for title, table in tables)
    return ((standings or f"<section><h2>Standings</h2>{standings_table({})}</section>")
            + f"<section><h2>Matches in play ({len(playing)})</h2>{_playing_table(playing)}</section>"
            + f"<section><h2>Finished matches, newest first</h2>{_finished_table(finished, token)}</section>")


FRONT_JS = """
(function () {
  "use strict";
  var box = document.getElementById("sections");
  if (!window.EventSource || !box) { return; }
  var events = new EventSource("/api/events");
  events.addEventListener("change", function () {
    fetch("/?sections=1").then(function (r) { return r.text(); }).then(function (text) {
      box.innerHTML = text;
      document.body.setAttribute("data-updates", String(Number(document.body.getAttribute("data-updates") || 0) + 1));
    });
  });
})();
"""


def front_page(title: str, sections: str) -> str:
    body = (f'<header class="top"><h1>{esc(title)}</h1><div class="sub">live \u00b7 read-only</div>'
            f'<div class="sub">{NAV}</div></header><main><div id="sections">{sections}</div></main>')
    return _page(title, body, script=FRONT_JS, style=STYLE)


def finished_page(title: str, finished: Sequence[Mapping[str, Any]], token: str) -> str:
    body = (f'<header class="top"><h1>{esc(title)}: finished matches</h1><div class="sub">{NAV}</div></header>'
            f'<main><section>{_finished_table(finished, token)}</section></main>')
    return _page(title, body, style=STYLE)


def message_page(title: str, message: str) -> str:
    body = (f'<header class="top"><h1>{esc(title)}</h1><div class="sub">{NAV}</div></header>'
            f'<main><section><p id="message">{esc(message)}</p></section></main>')
    return _page(title, body, style=STYLE)


LIVE_JS = r"""
(function () {
  "use strict";
""" + HELPERS_JS + r"""  var BOARD = null;  // the game's board script sets it (HtmlBoard.script)
/*@BOARD@*/
  var meta = json("live-meta") || {};
  var boardEl = document.getElementById("live-board");
  var statusEl = document.getElementById("live-status");
  var logEl = document.getElementById("live-log");
  var standingsEl = document.getElementById("live-standings");
  var first = null;
  var updates = 0;
  function draw(snap) {
    if (first === null) { first = snap.n; }
    updates += 1;
    document.body.setAttribute("data-first-n", String(first));
    document.body.setAttribute("data-n", String(snap.n));
    document.body.setAttribute("data-updates", String(updates));
    document.body.setAttribute("data-over", String(!!snap.over));
    statusEl.textContent = "";
    if (snap.over) {
      var o = snap.outcome || {};
      statusEl.appendChild(h("span", { "class": "pill over", text: "over" }));
      statusEl.appendChild(document.createTextNode(" after " + snap.n + " decisions: " +
        (o.winner ? o.winner + " wins" : "no winner") + " by " + (o.termination || "?") + (o.reason ? " (" + o.reason + ")" : "")));
      statusEl.appendChild(document.createTextNode(" \u00b7 "));
      statusEl.appendChild(h("a", { href: meta.page, id: "match-page", text: "the match's page (every hand, every decision)" }));
    } else {
      statusEl.appendChild(h("span", { "class": "pill", text: "live" }));
      statusEl.appendChild(document.createTextNode(" " + snap.n + " decisions played" +
        (snap.pending ? " \u00b7 " + snap.pending.role + " to decide: " + snap.pending.step : "")));
    }
    if (snap.error) { statusEl.appendChild(h("div", { "class": "fault", text: snap.error })); }
    boardEl.textContent = "";
    var view = snap.view;
    if (snap.text !== undefined) {
      boardEl.appendChild(h("pre", { "class": "board", text: snap.text }));
    } else if (view && BOARD) {
      // n: the decision being asked (the end once over), as the report's viewer gives it
      boardEl.appendChild(BOARD(view, { seat: view.role, log: view.history || [], n: snap.over ? Infinity : snap.n + 1,
                                        next: Infinity, panels: snap.panels || null, chapter: null }));
      spectate(boardEl);
      // what the board puts beside the log (data-pane="side": the hands) goes to the side column
      var sideBoard = document.getElementById("live-side-board");
      sideBoard.textContent = "";
      Array.prototype.slice.call(boardEl.querySelectorAll("[data-pane=side]")).forEach(function (el) { sideBoard.appendChild(el); });
    } else if (view) {
      boardEl.appendChild(h("pre", { "class": "board", text: JSON.stringify(view, null, 1) }));
    }
    logEl.textContent = "";
    if (snap.story && snap.story.length) {  // the game's story, told from the public view
      logEl.className = "log story";
      snap.story.forEach(function (item) {
        if (item[0] === "c") { logEl.appendChild(h("div", { "class": "ch", text: item[1] })); return; }
        var style = (snap.story_kinds || {})[item[3]];
        var line = h("div", { "class": "ln k-" + item[3] + (style ? " s-" + style : ""), "data-n": String(item[1]), text: item[2] });
        if (item[5] && item[5].length) {
          line.appendChild(h("ul", { "class": "detail" }, item[5].map(function (d) { return h("li", { text: d }); })));
        }
        logEl.appendChild(line);
      });
    } else {  // a game without a teller: the history's keys, as the public view shows them
      ((view && view.history) || []).slice(-40).forEach(function (e) {
        logEl.appendChild(h("div", null, [h("span", { "class": "n", text: String(e[0]) }), e[1] + " " + e[2] + " " + e[3]]));
      });
    }
    logEl.scrollTop = logEl.scrollHeight;
  }
  // The boards label the seat whose view they draw ("this seat"); a spectator is no seat, and
  // that seat's hand is face down here like the others'.
  function spectate(el) {
    var walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT, null);
    var nodes = [];
    while (walker.nextNode()) { nodes.push(walker.currentNode); }
    nodes.forEach(function (node) {
      if (node.nodeValue.indexOf("this seat") >= 0) {
        node.nodeValue = node.nodeValue.replace(/ \u00b7 this seat/g, " \u00b7 face down").replace(/ \(this seat\)/g, "");
      }
    });
  }
  function standings() {
    fetch("/api/standings").then(function (r) { return r.json(); }).then(function (data) {
      var rows = data.standings || [];
      standingsEl.textContent = "";
      if (!rows.length) { standingsEl.appendChild(h("p", { "class": "muted", text: "No finished match yet." })); return; }
      var cols = Object.keys(rows[0]);
      var head = h("tr", null, cols.map(function (c) { return h("th", { "class": c === cols[0] ? "name" : "", text: c.replace("_", " ") }); }));
      var body = rows.map(function (row) {
        return h("tr", null, cols.map(function (c) {
          return h("td", { "class": c === cols[0] ? "name" : "", text: row[c] === null || row[c] === undefined ? "-" : String(row[c]) });
        }));
      });
      standingsEl.appendChild(h("table", { id: "standings" }, [h("thead", null, [head]), h("tbody", null, body)]));
      document.body.setAttribute("data-standings", JSON.stringify(rows));
    });
  }
  draw(json("live-init") || { n: 0 });
  standings();
  if (!window.EventSource) { return; }
  var events = new EventSource(meta.events);
  events.addEventListener("view", function (e) { draw(JSON.parse(e.data)); });
  events.addEventListener("end", function (e) {
    events.close();
    draw(JSON.parse(e.data));
    standings();
  });
})();
"""


def live_script(board_script: str) -> str:
    """The live page's script with a game's board script (``HtmlBoard.script``) spliced in."""
    return LIVE_JS.replace("/*@BOARD@*/", board_script)


def live_page(match: Mapping[str, Any], snapshot: Mapping[str, Any], board: Any) -> str:
    """The page of a match in play: ``snapshot`` (:meth:`.web_live.LiveBoard.snapshot`) drawn by
    ``board`` (the game's ``HtmlBoard``, or None: text), then each event of its stream."""
    match_id = match["match_id"]
    title = f"Match {match_id} (live)"
    meta = {"match_id": match_id, "events": f"/api/matches/{match_id}/events", "page": f"/matches/{match_id}"}
    islands = [f'<script type="application/json" id="live-meta">{_json_island(meta)}</script>',
               f'<script type="application/json" id="live-init">{_json_island(snapshot)}</script>']
    if board is not None and board.data is not None:
        islands.append(f'<script type="application/json" id="board-data">{_json_island(board.data())}</script>')
    wide = board is not None and board.wide
    sub = f"{esc(match.get('game', ''))} \u00b7 {_seats(match.get('seats') or {})}"
    body = f"""<header class="top"><h1>{esc(title)}</h1><div class="sub">{sub}</div><div class="sub">{NAV}</div></header>
<main class="live-frame{' wide' if wide else ''}">
<section id="live">
<div id="live-status" class="live-status"></div>
<div id="live-board"></div>
<p class="note">A spectator's board: public information only (hands face down, no deck order, private moves hidden), updated as the match is played. Every hand and decision are on the match's page once it is over.</p>
</section>
<div class="side"><section id="live-side-board"></section><section><h2>Latest moves</h2><div id="live-log" class="log"></div></section>
<section><h2>Standings</h2><div id="live-standings"></div></section></div>
</main>
{''.join(islands)}"""
    return _page(title, body, script=live_script(board.script if board is not None else ""),
                 style=STYLE + (board.style if board is not None else ""))
