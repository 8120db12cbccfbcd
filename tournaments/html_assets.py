"""Static assets of the HTML tournament report, inlined into every page (no CDN, works offline).

``CSS`` styles every page; ``VIEWER_JS`` is the match page's step-through board viewer. The
viewer reads JSON islands of its page (``<script type="application/json">``):

* ``#timeline`` — one entry per player decision (``n`` number, ``r`` role, ``s`` step, ``t``
  think ms, ``e`` elapsed ms, ``q`` rtt ms, ``f`` fault, ``x`` substituted), then ``{"end": true}``;
* ``script[data-track]`` — one track per seat (``data-track="p1"``) and ``omniscient``: ``frames``
  aligned with the timeline and the ``log`` (history as that seat saw it). A seat frame has
  ``v`` (its view, as a delta on the previous frame's: see :func:`standoff.tournaments.html.
  apply_delta`), ``k`` (the choice as the seat saw it) and, for its own decisions, ``p`` prompt,
  ``o`` option keys (indices into the track's ``keys``; ``"="``: the previous list), ``c``
  chosen index. Text boards are ``b``: the board text as ``{"board": [lines]}``, delta-encoded
  the same way (a game the script does not draw; the omniscient track has both ``v``, the whole
  table with every hand, and ``b``, shown by the "text" toggle). The omniscient track
  (``"choices": "seats"``) takes prompts and options from the deciding seat's track.

A game's board is drawn by its ``GameSpec.html_board`` (:class:`standoff.server.boards.HtmlBoard`):
:func:`viewer_script` splices its script into the viewer's, and the page adds its style and its
``#board-data`` island. A game without one has text boards (``b``) in every track; a view with
no board to draw it is shown as indented JSON.
"""

CSS = r"""
:root { --ink: #1d2330; --muted: #5d6678; --line: #d9dee8; --bg: #f7f8fb; --card: #ffffff;
        --accent: #2f6fde; --good: #1f8a4c; --bad: #c0392b; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       color: var(--ink); background: var(--bg); }
header.top { background: #1d2330; color: #fff; padding: 14px 24px; }
header.top h1 { margin: 0; font-size: 20px; }
header.top .sub { color: #c5cbd8; font-size: 13px; }
header.top a { color: #9cc2ff; }
main { max-width: 1200px; margin: 0 auto; padding: 16px 24px 48px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px;
          padding: 12px 16px; margin: 16px 0; overflow-x: auto; }
h2 { font-size: 16px; margin: 0 0 10px; }
p.note { color: var(--muted); font-size: 12px; margin: 6px 0 0; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 8px; text-align: right; white-space: nowrap; }
th { background: #eef1f7; font-weight: 600; }
td.name, th.name, td.text, th.text { text-align: left; }
td.text { white-space: normal; }
tr:hover td { background: #f3f6fc; }
td.diag { background: #eceff4; color: #9aa3b5; text-align: center; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
.win { color: var(--good); font-weight: 600; }
.loss { color: var(--bad); }
.muted { color: var(--muted); }
.chips span { display: inline-block; margin: 1px 4px 1px 0; }
svg text { font: 11px system-ui, sans-serif; fill: #3b4356; }
svg .axis { stroke: #9aa3b5; stroke-width: 1; }
svg .grid { stroke: #e3e7ef; stroke-width: 1; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(360px, 1fr)); gap: 0 16px; }
.grid2 > section { margin: 16px 0; }
/* -- match viewer -- */
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; margin-bottom: 10px; }
.controls button { font-size: 14px; padding: 3px 10px; border: 1px solid var(--line); background: #fff;
                   border-radius: 4px; cursor: pointer; }
.controls button:hover { background: #eef3ff; }
.controls input[type=range] { flex: 1 1 240px; }
.seats { border: 1px solid var(--line); border-radius: 6px; padding: 2px 8px; }
.seats label { margin-right: 10px; cursor: pointer; }
#pos { font-variant-numeric: tabular-nums; color: var(--muted); min-width: 12em; }
.panes { display: grid; grid-template-columns: minmax(0, 2fr) minmax(260px, 1fr); gap: 16px; }
@media (max-width: 900px) { .panes { grid-template-columns: 1fr; } }
pre.board { background: #fbfcfe; border: 1px solid var(--line); border-radius: 6px; padding: 8px;
            margin: 0; font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow-x: auto; }
.decision { border: 1px solid var(--line); border-radius: 6px; padding: 8px; margin-bottom: 12px; }
.decision .title { font-weight: 600; }
.decision .opts { margin-top: 6px; }
.opt { display: inline-block; border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; margin: 2px;
       font: 12px ui-monospace, monospace; }
.opt.chosen { background: var(--accent); color: #fff; border-color: var(--accent); }
.fault { color: var(--bad); font-weight: 600; }
.log { max-height: 360px; overflow-y: auto; font: 12px/1.4 ui-monospace, monospace; border: 1px solid var(--line);
       border-radius: 6px; padding: 6px; }
.log div.now { background: #fff3c4; }
.log .n { color: var(--muted); display: inline-block; min-width: 3.5em; }
/* a wide board (HtmlBoard.wide): the board takes the page's width, the decision and log below */
main.wide { max-width: 1340px; padding-left: 12px; padding-right: 12px; }
.panes.wide { grid-template-columns: 1fr; }
.panes.wide > div:last-child { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 16px; }
@media (max-width: 900px) { .panes.wide > div:last-child { grid-template-columns: 1fr; } }
"""

VIEWER_JS = r"""
(function () {
  "use strict";
  function json(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        if (k === "text") { el.textContent = attrs[k]; } else { el.setAttribute(k, attrs[k]); }
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) { return; }
      el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return el;
  }
  function applyDelta(prev, delta) {
    var view = Object.assign({}, prev || {});
    Object.keys(delta).forEach(function (k) {
      var x = delta[k];
      if (k === "@gone") { x.forEach(function (g) { delete view[g]; }); return; }
      if (x && typeof x === "object" && !Array.isArray(x) && x["@patch"] !== undefined && Array.isArray(view[k])) {
        var arr = view[k].slice();
        Object.keys(x["@patch"]).forEach(function (i) { arr[Number(i)] = x["@patch"][i]; });
        view[k] = arr;
      } else if (x && typeof x === "object" && !Array.isArray(x) && x["@sorted"] !== undefined && Array.isArray(view[k])) {
        view[k] = view[k].concat(x["@sorted"]).sort();
      } else if (x && typeof x === "object" && !Array.isArray(x) && x["@add"] !== undefined && Array.isArray(view[k])) {
        view[k] = view[k].concat(x["@add"]);
      } else if (x && typeof x === "object" && !Array.isArray(x) && x["@dict"] !== undefined && view[k] && typeof view[k] === "object") {
        var merged = Object.assign({}, view[k], x["@dict"]);
        (x["@del"] || []).forEach(function (g) { delete merged[g]; });
        view[k] = merged;
      } else {
        view[k] = x;
      }
    });
    return view;
  }

  var meta = json("meta") || {};
  var timeline = json("timeline") || [];
  var tracks = {};
  var order = [];
  Array.prototype.forEach.call(document.querySelectorAll("script[data-track]"), function (el) {
    var name = el.getAttribute("data-track");
    var track = JSON.parse(el.textContent);
    var prev = null;
    var board = null;
    track.texts = track.frames.map(function (f) {
      if (f.b === undefined) { return null; }  // the board as text, a delta on its lines
      board = applyDelta(board, f.b);
      return board.board.join("\n");
    });
    var options = null;
    track.frames.forEach(function (f) {  // "=": the same options as the track's previous ones
      if (f.o === "=") { f.o = options; } else if (f.o) { options = f.o.map(function (i) { return track.keys[i]; }); f.o = options; }
    });
    track.views = track.frames.map(function (f) {
      if (f.v === undefined) { return null; }
      prev = applyDelta(prev, f.v);
      return prev;
    });
    var panels = null;  // HtmlBoard.panels: "x", a delta on the previous frame's (absent: unchanged)
    track.panels = track.frames.map(function (f) {
      if (f.x !== undefined) { panels = applyDelta(panels, f.x); }
      return panels;
    });
    tracks[name] = track;
    order.push(name);
  });
  if (!timeline.length || !order.length) { return; }

  // -- boards ---------------------------------------------------------------------------------
  function genericBoard(view) {
    return h("pre", { "class": "board", text: JSON.stringify(view, null, 1) });
  }
  var BOARD = null;  // the game's board script sets it (HtmlBoard.script)
/*@BOARD@*/

  // -- the viewer -------------------------------------------------------------------------------
  var pos = 0;
  var seat = order.indexOf("omniscient") >= 0 ? "omniscient" : order[0];
  var boardEl = document.getElementById("board");
  var decisionEl = document.getElementById("decision");
  var logEl = document.getElementById("log");
  var posEl = document.getElementById("pos");
  var slider = document.getElementById("slider");
  var textBox = document.getElementById("as-text") || { checked: false };
  if (textBox.addEventListener) { textBox.addEventListener("change", function () { show(); }); }
  slider.max = String(timeline.length - 1);

  function timing(t) {
    var parts = [];
    if (t.t !== undefined) { parts.push("think " + t.t + " ms"); }
    if (t.e !== undefined) { parts.push("elapsed " + t.e + " ms"); }
    if (t.q !== undefined) { parts.push("rtt " + t.q + " ms"); }
    return parts.join(" \u00b7 ");
  }
  function showDecision(t, f) {
    decisionEl.textContent = "";
    if (t.end) {
      decisionEl.appendChild(h("div", { "class": "title", text: "end of the match" }));
      decisionEl.appendChild(h("div", { text: meta.outcome || "" }));
      (meta.faults || []).forEach(function (line) { decisionEl.appendChild(h("div", { "class": "fault", text: line })); });
      return;
    }
    decisionEl.appendChild(h("div", { "class": "title", text: "decision " + t.n + ": " + t.r + " " + t.s }));
    if (f.p) { decisionEl.appendChild(h("div", { "class": "muted", text: f.p })); }
    if (f.o) {
      var opts = h("div", { "class": "opts" });
      f.o.forEach(function (key, i) { opts.appendChild(h("span", { "class": "opt" + (i === f.c ? " chosen" : ""), text: key })); });
      decisionEl.appendChild(opts);
    } else {
      decisionEl.appendChild(h("div", null, [t.r + " chose ", h("span", { "class": "opt chosen", text: f.k })]));
    }
    var tm = timing(t);
    if (tm) { decisionEl.appendChild(h("div", { "class": "muted", text: tm })); }
    if (t.f) {
      decisionEl.appendChild(h("div", { "class": "fault", text: "fault: " + t.f + (t.x ? " (substituted at random)" : "") }));
    } else if (t.x) {
      decisionEl.appendChild(h("div", { "class": "fault", text: "substituted at random" }));
    }
  }
  function showLog(track, t) {
    logEl.textContent = "";
    var upto = t.end ? Infinity : t.n;
    var entries = track.log.filter(function (e) { return e[0] <= upto; });
    entries.slice(-60).forEach(function (e) {
      logEl.appendChild(h("div", { "class": e[0] === t.n ? "now" : "" }, [
        h("span", { "class": "n", text: String(e[0]) }), e[1] + " " + e[2] + " " + e[3]
      ]));
    });
    logEl.scrollTop = logEl.scrollHeight;
  }
  function show() {
    var t = timeline[pos];
    var track = tracks[seat];
    var f = track.frames[pos] || {};
    if (track.choices === "seats" && !t.end && tracks[t.r]) {  // the decision as its seat was asked it
      var own = tracks[t.r].frames[pos] || {};
      f = Object.assign({}, own, { k: f.k, b: f.b, v: f.v });
    }
    boardEl.textContent = "";
    var text = track.texts[pos];
    textBox.disabled = text === null;
    if (text !== null && (textBox.checked || !track.views[pos])) {
      boardEl.appendChild(h("pre", { "class": "board", text: text }));
    } else {
      var view = track.views[pos] || {};
      var render = BOARD || genericBoard;
      var next = timeline[pos + 1];
      boardEl.appendChild(render(view, { seat: seat, log: track.log, n: t.end ? Infinity : t.n,
        next: next && !next.end ? next.n : Infinity, panels: track.panels[pos] }));
    }
    showDecision(t, f);
    showLog(track, t);
    slider.value = String(pos);
    // wider than the window? (a horizontal scroll bar; the browser test reads it)
    var root = document.documentElement;
    document.body.setAttribute("data-overflow-x", String(root.scrollWidth > root.clientWidth));
    posEl.textContent = (t.end ? "end" : "decision " + t.n) + " \u00b7 " + (pos + 1) + "/" + timeline.length +
      " \u00b7 " + (seat === "omniscient" ? "omniscient" : "as " + seat);
  }
  function go(p) { pos = Math.max(0, Math.min(timeline.length - 1, p)); show(); }
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(pos - 1); });
  document.getElementById("next").addEventListener("click", function () { go(pos + 1); });
  document.getElementById("last").addEventListener("click", function () { go(timeline.length - 1); });
  slider.addEventListener("input", function () { go(Number(slider.value)); });
  Array.prototype.forEach.call(document.querySelectorAll("input[name=seat]"), function (el) {
    el.checked = el.value === seat;
    el.addEventListener("change", function () { if (el.checked) { seat = el.value; show(); } });
  });
  document.addEventListener("keydown", function (ev) {
    if (ev.target && ev.target.tagName === "INPUT" && ev.target.type !== "radio") { return; }
    if (ev.key === "ArrowRight" || ev.key === "n") { go(pos + 1); }
    else if (ev.key === "ArrowLeft" || ev.key === "b") { go(pos - 1); }
    else if (ev.key === "Home") { go(0); }
    else if (ev.key === "End") { go(timeline.length - 1); }
    else { return; }
    ev.preventDefault();
  });
  // A link may open a given seat and decision: page.html#seat=p1&n=42 (n: decision number or "end").
  var wanted = {};
  String(window.location.hash || "").replace(/^#/, "").split("&").forEach(function (part) {
    var kv = part.split("=");
    if (kv.length === 2) { wanted[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1]); }
  });
  if (wanted.seat && tracks[wanted.seat]) {
    seat = wanted.seat;
    Array.prototype.forEach.call(document.querySelectorAll("input[name=seat]"), function (el) { el.checked = el.value === seat; });
  }
  if (wanted.n === "end") { pos = timeline.length - 1; }
  else if (wanted.n) {
    var n = Number(wanted.n);
    pos = timeline.length - 1;  // past the last player decision: the end
    for (var i = 0; i < timeline.length; i++) { if (!timeline[i].end && timeline[i].n >= n) { pos = i; break; } }
  }
  document.getElementById("viewer").removeAttribute("hidden");
  show();
})();
"""


def viewer_script(board_script: str = "") -> str:
    """The viewer's script with a game's board script (``HtmlBoard.script``) spliced in."""
    return VIEWER_JS.replace("/*@BOARD@*/", board_script)
