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
  (``"choices": "seats"``) takes prompts and options from the deciding seat's track. A track
  may have ``chapters`` (``[[title, number]]``: turns, action rounds) and a ``story``
  (``[[number, text, kind, role, detail?]]``, what decision ``number``'s answer did, a frame
  showing the lines of the decisions before its own; made by ``server/story.py``): the log pane then tells the story under
  the chapters' titles (else it lists the raw history), and the chapters (with the story's claims
  and scorings) give the jumps, the keys ``[`` ``]`` and the slider's ticks.

The page frame: two columns when the window is at least 1000x560 (the board takes the height
left, the decision, the hands and the log beside it: what a 1366x768 laptop shows without
scrolling), one column below. The board script marks what the frame places: ``data-pane="side"``
(the hands go beside the log) and ``<svg data-zoom>`` (a map: zoom and pan). The address's
fragment (``#seat=p1&n=42``) opens a decision and follows the viewer; autoplay steps 0.5 to 4
decisions a second; the keys are in the page's help (``?``).

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
/* -- match viewer: the page frame. Two columns when the window is wide and tall enough (the
   "app" layout: the page fits the window, the board takes the height left, the log scrolls in its
   box); one column below, the page then scrolls. The media query is the script's APP_LAYOUT. -- */
body.viewer-page header.top { padding: 6px 16px; }
body.viewer-page header.top h1 { font-size: 17px; }
header.top .bar { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 16px; min-width: 0; }
header.top .bar h1 { min-width: 0; max-width: 100%; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
header.top .sub { overflow-wrap: anywhere; }
body.viewer-page main { max-width: 1400px; padding: 8px 12px 16px; }
body.viewer-page main.wide { max-width: none; }
#viewer { margin: 0; padding: 8px 10px; }
#viewer[hidden] { display: none; }
.controls { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; margin-bottom: 4px; min-width: 0; }
.controls .group { display: inline-flex; align-items: center; gap: 3px; min-width: 0; max-width: 100%; }
.controls button, .zoombar button { font-size: 14px; padding: 2px 9px; border: 1px solid var(--line); background: #fff;
                   border-radius: 4px; cursor: pointer; color: var(--ink); }
.controls button:hover, .zoombar button:hover { background: #eef3ff; }
.controls button[aria-pressed=true] { background: var(--accent); color: #fff; border-color: var(--accent); }
.controls select { font-size: 13px; min-width: 0; max-width: 14em; padding: 2px; }
.controls label { white-space: nowrap; }
.seats { display: inline-flex; flex-wrap: wrap; min-width: 0; max-width: 100%; border: 1px solid var(--line);
         border-radius: 6px; padding: 2px 8px; }
.seats label { margin-right: 10px; cursor: pointer; overflow: hidden; text-overflow: ellipsis; max-width: 20em; }
.controls .seats label:last-child { margin-right: 0; }
#pos { font-variant-numeric: tabular-nums; color: var(--muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis;
       min-width: 0; }
details.help { position: relative; }
details.help summary { cursor: pointer; list-style: none; border: 1px solid var(--line); border-radius: 50%; width: 22px;
                       height: 22px; text-align: center; line-height: 20px; color: var(--muted); }
details.help summary::-webkit-details-marker { display: none; }
details.help > div { position: absolute; right: 0; top: 28px; z-index: 5; width: min(380px, 90vw); background: #fff;
                     border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; box-shadow: 0 4px 14px rgba(0,0,0,.15);
                     font-size: 12px; }
details.help kbd { font: 11px ui-monospace, monospace; border: 1px solid var(--line); border-radius: 3px; padding: 0 3px; }
.scrub { margin: 0 0 6px; }
.scrub input[type=range] { display: block; width: 100%; margin: 0; }
#ticks { position: relative; height: 15px; margin: 0 8px; font-size: 10px; color: var(--muted); overflow: hidden; }
#ticks .tick { position: absolute; top: 0; width: 1px; height: 4px; background: #9aa3b5; }
#ticks .lbl { position: absolute; top: 3px; transform: translateX(-50%); white-space: nowrap; cursor: pointer; line-height: 12px; }
#ticks .lbl:hover { color: var(--accent); }
#ticks .lbl.now { color: var(--ink); font-weight: 700; }
.panes { display: grid; grid-template-columns: minmax(0, 1fr) minmax(280px, 380px); gap: 12px; }
@media (max-width: 899px) { .panes { grid-template-columns: minmax(0, 1fr); } }
#board-pane, #side, #board { min-width: 0; }
#side { display: flex; flex-direction: column; gap: 8px; }
pre.board { background: #fbfcfe; border: 1px solid var(--line); border-radius: 6px; padding: 8px;
            margin: 0; font: 12px/1.35 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; overflow: auto; max-width: 100%; }
.decision { border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; overflow: auto; overflow-wrap: anywhere; }
.decision .title { font-weight: 600; }
.decision .opts { margin-top: 4px; }
.opt { display: inline-block; max-width: 100%; border: 1px solid var(--line); border-radius: 4px; padding: 0 5px; margin: 2px;
       font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
.opt.chosen { background: var(--accent); color: #fff; border-color: var(--accent); }
.fault { color: var(--bad); font-weight: 600; }
#side-board { border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; overflow: auto; overflow-wrap: anywhere; }
#side-board:empty { display: none; }
.log { max-height: 360px; overflow-y: auto; overflow-x: hidden; font: 12px/1.4 ui-monospace, monospace;
       border: 1px solid var(--line); border-radius: 6px; padding: 0 6px 6px; overflow-wrap: anywhere;
       display: flex; flex-direction: column-reverse; }  /* scrolled to its end, and kept there when resized */
.log div.now { background: #fff3c4; }
.log .n { color: var(--muted); display: inline-block; min-width: 3.5em; }
/* the story (track.story): sentences grouped under chapter titles */
.log.story { font: 12.5px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
.log .ch { position: sticky; top: 0; margin: 0 -6px; padding: 2px 6px; background: #eef1f7; font-weight: 700;
           font-size: 12px; border-bottom: 1px solid var(--line); }
.log .ln { padding: 1px 2px; cursor: pointer; }
.log .ln:hover { background: #f3f6fc; }
/* a line's style, its kind's (server/story.py: the common kinds' and each teller's own kinds) */
.log .ln.s-moment, .log .ln.s-major { font-weight: 600; }
.log .ln.s-minor { color: #4a5263; }
.log .ln.s-aside { color: var(--muted); }
.log ul.detail { margin: 0 0 2px 18px; padding: 0; font-weight: 400; color: #4a5263; }
/* the board's map (an <svg data-zoom>): zoom and pan */
.zoombox { position: relative; overflow: hidden; touch-action: none; min-width: 0; }
.zoombox:not(.zoomed) { touch-action: pan-y; }  /* one column: a finger still scrolls the page past a fitted map */
.zoombox > svg { display: block; width: 100%; height: auto; }
.zoombox.zoomed > svg { cursor: grab; }
.zoombox.dragging > svg { cursor: grabbing; }
.zoombar { position: absolute; top: 6px; right: 6px; display: flex; gap: 3px; align-items: center; }
.zoombar button { padding: 0; min-width: 26px; height: 26px; line-height: 22px; font-weight: 700; background: rgba(255,255,255,.9); }
.zoombar span { font-size: 11px; color: var(--muted); background: rgba(255,255,255,.8); border-radius: 3px; padding: 0 3px; }
@media (min-width: 1000px) and (min-height: 560px) {
  body.viewer-page { height: 100vh; display: flex; flex-direction: column; }
  body.viewer-page header.top .bar { flex-wrap: nowrap; }
  body.viewer-page header.top .bar > .sub, body.viewer-page header.top > .sub { white-space: nowrap; overflow: hidden;
                                                                               text-overflow: ellipsis; min-width: 0; }
  body.viewer-page header.top .bar > .sub { flex: 0 1 auto; }
  body.viewer-page > header.top { flex: none; }
  body.viewer-page > main { flex: 1 1 auto; min-height: 0; width: 100%; display: flex; flex-direction: column; padding-bottom: 8px; }
  #viewer { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; overflow: hidden; }
  .panes { flex: 1 1 auto; min-height: 0; grid-template-rows: minmax(0, 1fr);
           grid-template-columns: minmax(0, 1fr) clamp(300px, 28vw, 460px); }
  #board-pane { min-height: 0; overflow: auto; display: flex; flex-direction: column; }
  #board { flex: 1 1 auto; min-height: 0; display: flex; flex-direction: column; }
  #board > * { flex: 1 1 auto; min-height: 0; }
  #board .zoombox { flex: 1 1 0; min-height: 160px; touch-action: none; }
  #board .zoombox > svg { height: 100%; }
  #side { min-height: 0; }
  .decision { flex: 0 1 auto; min-height: 3.2em; max-height: 38%; }
  #side-board { flex: 0 1 auto; min-height: 3.2em; }
  .log { flex: 1 1 0; min-height: 90px; max-height: none; }
}
"""

#: The page scripts' two helpers (the viewer's, the web face's live page's): ``json(id)`` reads a
#: JSON island, ``h(tag, attrs, children)`` makes an element (a board script uses both).
HELPERS_JS = r"""
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
"""

VIEWER_JS = r"""
(function () {
  "use strict";
""" + HELPERS_JS + r"""  function applyDelta(prev, delta) {
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
  var APP_LAYOUT = "(min-width: 1000px) and (min-height: 560px)";  // the CSS's two-column layout
  var SPEEDS = [0.5, 1, 2, 4];  // autoplay: decisions per second
  var pos = 0;
  var seat = order.indexOf("omniscient") >= 0 ? "omniscient" : order[0];
  var boardEl = document.getElementById("board");
  var sideEl = document.getElementById("side-board");
  var decisionEl = document.getElementById("decision");
  var logBox = document.getElementById("log");  // a column-reverse box: it stays on its last lines
  var logEl = logBox.appendChild(h("div", { "class": "lines" }));
  var posEl = document.getElementById("pos");
  var slider = document.getElementById("slider");
  var ticksEl = document.getElementById("ticks");
  var chapterEl = document.getElementById("chapter");
  var playEl = document.getElementById("play");
  var speedEl = document.getElementById("speed");
  var textBox = document.getElementById("as-text") || { checked: false };
  if (textBox.addEventListener) { textBox.addEventListener("change", function () { show(); }); }
  slider.max = String(timeline.length - 1);
  function appLayout() { return !!(window.matchMedia && window.matchMedia(APP_LAYOUT).matches); }

  // -- chapters (track.chapters: [[title, number]], number the first decision a chapter covers) --
  function chapters() { return tracks[seat].chapters || []; }
  function frameAt(number) {  // the first frame whose decision is numbered `number` or later (else the end)
    for (var i = 0; i < timeline.length; i++) {
      if (timeline[i].end || timeline[i].n >= number) { return i; }
    }
    return timeline.length - 1;
  }
  function starts() {  // the frame each chapter of the shown track starts at
    var track = tracks[seat];
    if (!track.starts) { track.starts = chapters().map(function (c) { return frameAt(c[1]); }); }
    return track.starts;
  }
  function chapterIndex(t) {  // the chapter of frame t: the last one begun at its decision (at the end: the last)
    var list = chapters(), at = -1;
    for (var i = 0; i < list.length && (t.end || list[i][1] <= t.n); i++) { at = i; }
    return at;
  }
  function nextChapter() {
    var s = starts();
    for (var i = 0; i < s.length; i++) { if (s[i] > pos) { go(s[i]); return; } }
    go(timeline.length - 1);
  }
  function prevChapter() {  // the start of this chapter, or of the previous one when already there
    var s = starts();
    for (var i = s.length - 1; i >= 0; i--) { if (s[i] < pos) { go(s[i]); return; } }
    go(0);
  }
  function buildChapters() {  // the select and the slider's ticks, from the shown track's chapters
    var list = chapters(), s = starts();
    chapterEl.textContent = "";
    chapterEl.disabled = !list.length;
    document.getElementById("chapter-prev").disabled = !list.length;
    document.getElementById("chapter-next").disabled = !list.length;
    if (!list.length) { chapterEl.appendChild(h("option", { value: "-1", text: "no chapters" })); }
    list.forEach(function (c, i) { chapterEl.appendChild(h("option", { value: String(i), text: c[0] })); });
    var moments = momentLines();
    if (moments.length) {  // the story's moments (claims, scorings): the frame right after each
      chapterEl.appendChild(h("optgroup", { label: "key moments" }, moments.map(function (line) {
        var text = String(line[1]);
        return h("option", { value: "m" + line[0], text: text.length > 60 ? text.slice(0, 59) + "\u2026" : text });
      })));
    }
    ticksEl.textContent = "";
    var last = timeline.length - 1 || 1, width = ticksEl.clientWidth || 600, room = -Infinity, head = null;
    list.forEach(function (c, i) {  // a tick where the part of the title before " · " changes (each turn)
      var part = c[0].split(" \u00b7 ")[0];
      if (part === head) { return; }
      head = part;
      var at = s[i] / last;
      ticksEl.appendChild(h("span", { "class": "tick", style: "left:" + (100 * at).toFixed(3) + "%" }));
      var label = part.replace(/^Turn (\d+)$/, "T$1"), size = 8 + 6 * label.length;
      // the label's anchor: its left end at the start, its right end at the end, else its middle
      var from = at * width < size / 2 ? 0 : at * width > width - size / 2 ? size : size / 2;
      if (at * width - from < room + 6) { return; }  // no room for it
      room = at * width - from + size;
      ticksEl.appendChild(h("span", { "class": "lbl", "data-chapter": String(i), "data-pos": String(s[i]), title: c[0],
        style: "left:" + (100 * at).toFixed(3) + "%;transform:translateX(" + (-100 * from / size).toFixed(0) + "%)", text: label }));
    });
    ticksEl.hidden = !list.length;
  }
  ticksEl.addEventListener("click", function (ev) {
    var at = ev.target.getAttribute && ev.target.getAttribute("data-pos");
    if (at !== null && at !== undefined) { go(Number(at)); }
  });
  function momentLines() {
    // the lines whose kind is a moment (a scoring, a claim): the chapter list lists them too
    var kinds = tracks[seat].kinds || {};
    return (tracks[seat].story || []).filter(function (line) { return kinds[line[2]] === "moment"; });
  }
  chapterEl.addEventListener("change", function () {
    var value = chapterEl.value;
    if (value.charAt(0) === "m") { go(frameAt(Number(value.slice(1)) + 1)); }
    else if (Number(value) >= 0) { go(starts()[Number(value)]); }
    chapterEl.blur();  // the keys (space: play) go back to the page
  });
  document.getElementById("chapter-prev").addEventListener("click", prevChapter);
  document.getElementById("chapter-next").addEventListener("click", nextChapter);

  // -- the decision and the log ------------------------------------------------------------------
  function timing(t) {
    var parts = [];
    if (t.t !== undefined) { parts.push("think " + t.t + " ms"); }
    if (t.e !== undefined) { parts.push("elapsed " + t.e + " ms"); }
    if (t.q !== undefined) { parts.push("rtt " + t.q + " ms"); }
    return parts.join(" \u00b7 ");
  }
  // An option by its label ("Fidel", "operations: a coup"), its key the tooltip (#labels: the
  // options' labels by key; a key without one, or a hidden choice, is shown as it is).
  var LABELS = json("labels") || {};
  function option(key, chosen) {
    var label = LABELS[key];
    return h("span", { "class": "opt" + (chosen ? " chosen" : ""), title: key, "data-key": key, text: label || key });
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
      f.o.forEach(function (key, i) { opts.appendChild(option(key, i === f.c)); });
      decisionEl.appendChild(opts);
    } else {
      decisionEl.appendChild(h("div", null, [t.r + " chose ", option(f.k, true)]));
    }
    var tm = timing(t);
    if (tm) { decisionEl.appendChild(h("div", { "class": "muted", text: tm })); }
    if (t.f) {
      decisionEl.appendChild(h("div", { "class": "fault", text: "fault: " + t.f + (t.x ? " (substituted at random)" : "") }));
    } else if (t.x) {
      decisionEl.appendChild(h("div", { "class": "fault", text: "substituted at random" }));
    }
  }
  // The story (track.story: [number, text, kind, role, detail?]) as elements, made once per track:
  // each chapter's title before its lines. A frame shows the titles of the chapters begun and the
  // lines of the decisions answered before its own (number < n): a prefix of this list.
  function storyItems(track) {
    if (track.items) { return track.items; }
    var list = track.chapters || [], items = [], ci = 0;
    function title(c) { items.push({ n: c[1], head: true, el: h("div", { "class": "ch", "data-n": String(c[1]), text: c[0] }) }); }
    track.story.forEach(function (line) {
      while (ci < list.length && list[ci][1] <= line[0]) { title(list[ci++]); }
      var detail = line[4] || [];
      var kind = String(line[2] || "").replace(/[^a-z0-9_-]/gi, ""), style = (track.kinds || {})[kind];
      var el = h("div", { "class": "ln k-" + kind + (style ? " s-" + style : ""), "data-n": String(line[0]),
        title: "decision " + line[0] + (line[3] ? " \u00b7 " + line[3] : "") }, [String(line[1])]);
      if (line[3]) { el.setAttribute("data-role", line[3]); }
      if (detail.length) { el.appendChild(h("ul", { "class": "detail" }, detail.map(function (d) { return h("li", { text: String(d) }); }))); }
      items.push({ n: line[0], el: el });
    });
    while (ci < list.length) { title(list[ci++]); }
    track.items = items;
    return items;
  }
  var lit = [];  // the story lines marked "now"
  function showStory(track, t) {
    var items = storyItems(track), upto = t.end ? Infinity : t.n, shown = document.createDocumentFragment(), latest = null;
    lit.forEach(function (el) { el.classList.remove("now"); });
    lit = [];
    for (var i = 0; i < items.length && (items[i].head ? items[i].n <= upto : items[i].n < upto); i++) {
      shown.appendChild(items[i].el);
      if (!items[i].head) { latest = items[i].n; }
    }
    for (var j = i - 1; j >= 0 && latest !== null && (items[j].head || items[j].n === latest); j--) {
      if (!items[j].head) { items[j].el.classList.add("now"); lit.push(items[j].el); }
    }
    logEl.textContent = "";
    logEl.appendChild(shown);
  }
  function showLog(track, t) {
    logBox.className = "log" + (track.story ? " story" : "");
    if (track.story) {
      showStory(track, t);
    } else {  // the history's raw keys (a game without a story teller)
      logEl.textContent = "";
      var upto = t.end ? Infinity : t.n;
      var entries = track.log.filter(function (e) { return e[0] <= upto; });
      entries.slice(-60).forEach(function (e) {
        logEl.appendChild(h("div", { "class": e[0] === t.n ? "now" : "" }, [
          h("span", { "class": "n", text: String(e[0]) }), e[1] + " " + e[2] + " " + e[3]
        ]));
      });
    }
    logBox.scrollTop = 0;  // the latest lines (the box is reversed: 0 is its bottom)
  }
  logEl.addEventListener("click", function (ev) {  // a story line: the frame right after its decision
    var line = ev.target.closest ? ev.target.closest(".ln[data-n]") : null;
    if (line) { go(frameAt(Number(line.getAttribute("data-n")) + 1)); }
  });

  // -- zoom and pan of the board's map (an <svg data-zoom> the board script draws) ----------------
  var zoom = { k: 1, cx: 0, cy: 0 };
  var zoomPct = h("span", { text: "100%" });
  var zoomBar = h("div", { "class": "zoombar" }, [
    h("button", { type: "button", id: "zoom-in", title: "zoom in (+, the wheel, a pinch; drag to pan)", text: "+" }),
    h("button", { type: "button", id: "zoom-out", title: "zoom out (\u2212)", text: "\u2212" }),
    h("button", { type: "button", id: "zoom-fit", title: "fit the map (0)", text: "fit" }), zoomPct]);
  function mapSvg() { return boardEl.querySelector("svg[data-zoom]"); }
  function baseBox(svg) {
    if (!svg.getAttribute("data-box")) { svg.setAttribute("data-box", svg.getAttribute("viewBox") || "0 0 100 100"); }
    return svg.getAttribute("data-box").split(/[\s,]+/).map(Number);
  }
  function applyZoom(svg) {  // the view box of the zoom (kept inside the map), the same on every frame
    var b = baseBox(svg), w = b[2] / zoom.k, hh = b[3] / zoom.k;
    var x = Math.max(b[0], Math.min(b[0] + b[2] - w, zoom.cx - w / 2));
    var y = Math.max(b[1], Math.min(b[1] + b[3] - hh, zoom.cy - hh / 2));
    zoom.cx = x + w / 2;
    zoom.cy = y + hh / 2;
    svg.setAttribute("viewBox", [x, y, w, hh].map(function (v) { return +v.toFixed(2); }).join(" "));
    svg.parentNode.classList.toggle("zoomed", zoom.k > 1);
    zoomPct.textContent = Math.round(zoom.k * 100) + "%";
  }
  function wrapMap() {
    var svg = mapSvg();
    if (!svg) { return; }
    var box = h("div", { "class": "zoombox" });
    svg.parentNode.insertBefore(box, svg);
    box.appendChild(svg);
    box.appendChild(zoomBar);
    if (zoom.k === 1) { var b = baseBox(svg); zoom.cx = b[0] + b[2] / 2; zoom.cy = b[1] + b[3] / 2; }
    applyZoom(svg);
  }
  function zoomAt(factor, x, y) {  // x, y: the point (client pixels) that stays put; none: the centre
    var svg = mapSvg();
    if (!svg) { return; }
    var b = baseBox(svg), k = Math.max(1, Math.min(8, zoom.k * factor));
    var px = zoom.cx, py = zoom.cy, m = svg.getScreenCTM();
    if (x !== undefined && m) {
      var p = svg.createSVGPoint();
      p.x = x; p.y = y;
      p = p.matrixTransform(m.inverse());
      px = p.x; py = p.y;
    }
    var ratio = zoom.k / k;  // the new view box's size over the old's
    zoom.cx = px + (zoom.cx - px) * ratio;
    zoom.cy = py + (zoom.cy - py) * ratio;
    zoom.k = k;
    if (k === 1) { zoom.cx = b[0] + b[2] / 2; zoom.cy = b[1] + b[3] / 2; }
    applyZoom(svg);
  }
  function panBy(dx, dy) {
    var svg = mapSvg(), m = svg && svg.getScreenCTM();
    if (!m || zoom.k <= 1) { return; }
    zoom.cx -= dx / m.a;
    zoom.cy -= dy / m.d;
    applyZoom(svg);
  }
  // In two columns a map is bound by the height: the side column takes the width it leaves (up to
  // half the page), so that the hands wrap less and the log has more lines.
  function fitColumns() {
    var panes = document.querySelector(".panes"), svg = mapSvg();
    panes.style.gridTemplateColumns = "";
    if (!appLayout() || !svg) { return; }
    var b = baseBox(svg), box = svg.parentNode;
    var spare = box.clientWidth - box.clientHeight * b[2] / b[3];
    var side = document.getElementById("side").getBoundingClientRect().width;
    if (spare > 8) {
      var wide = Math.max(side, Math.min(side + spare, panes.clientWidth / 2));
      panes.style.gridTemplateColumns = "minmax(0, 1fr) " + Math.round(wide) + "px";
    }
  }
  zoomBar.addEventListener("click", function (ev) {
    var id = ev.target.id;
    if (id === "zoom-in") { zoomAt(1.5); } else if (id === "zoom-out") { zoomAt(1 / 1.5); } else if (id === "zoom-fit") { zoomAt(0); }
  });
  var pointers = {};  // pointer id -> its last position: one drags (pans), two pinch (zoom)
  boardEl.addEventListener("pointerdown", function (ev) {
    var svg = mapSvg();
    if (!svg || !svg.contains(ev.target) || (ev.pointerType === "mouse" && ev.button !== 0)) { return; }
    pointers[ev.pointerId] = [ev.clientX, ev.clientY];
    try { boardEl.setPointerCapture(ev.pointerId); } catch (e) { /* a pointer already gone */ }
  });
  boardEl.addEventListener("pointermove", function (ev) {
    var last = pointers[ev.pointerId];
    if (!last) { return; }
    var now = [ev.clientX, ev.clientY], ids = Object.keys(pointers);
    pointers[ev.pointerId] = now;
    if (ids.length >= 2) {
      var other = pointers[ids[0] === String(ev.pointerId) ? ids[1] : ids[0]];
      var before = Math.hypot(last[0] - other[0], last[1] - other[1]), after = Math.hypot(now[0] - other[0], now[1] - other[1]);
      if (before > 0) { zoomAt(after / before, (now[0] + other[0]) / 2, (now[1] + other[1]) / 2); }
    } else {
      panBy(now[0] - last[0], now[1] - last[1]);
      var box = boardEl.querySelector(".zoombox");
      if (box && zoom.k > 1) { box.classList.add("dragging"); }
    }
  });
  function release(ev) {
    delete pointers[ev.pointerId];
    var box = boardEl.querySelector(".zoombox");
    if (box) { box.classList.remove("dragging"); }
  }
  boardEl.addEventListener("pointerup", release);
  boardEl.addEventListener("pointercancel", release);
  boardEl.addEventListener("wheel", function (ev) {
    var svg = mapSvg();
    if (!svg || !svg.contains(ev.target)) { return; }
    // in one column the page scrolls: the wheel zooms a fitted map only with Ctrl (a trackpad's pinch)
    if (!appLayout() && !ev.ctrlKey && zoom.k <= 1) { return; }
    ev.preventDefault();
    var dy = ev.deltaY * (ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? 400 : 1);
    zoomAt(Math.exp(-dy * 0.002), ev.clientX, ev.clientY);
  }, { passive: false });

  // -- the frame ------------------------------------------------------------------------------
  var written = null;
  function writeHash(t) {  // the link to this decision, as the address (no new history entry)
    var hash = "#seat=" + encodeURIComponent(seat) + "&n=" + (t.end ? "end" : t.n);
    // only when the viewer moved: a redraw (a resize) must not undo a fragment the reader just typed
    if (hash === written) { return; }
    written = hash;
    if (window.location.hash === hash) { return; }
    try { window.history.replaceState(null, "", hash); } catch (e) { window.location.replace(hash); }
  }
  function show() {
    var t = timeline[pos];
    var track = tracks[seat];
    var f = track.frames[pos] || {};
    if (track.choices === "seats" && !t.end && tracks[t.r]) {  // the decision as its seat was asked it
      var own = tracks[t.r].frames[pos] || {};
      f = Object.assign({}, own, { k: f.k, b: f.b, v: f.v });
    }
    var ci = chapterIndex(t);
    boardEl.textContent = "";
    sideEl.textContent = "";
    var text = track.texts[pos];
    textBox.disabled = text === null;
    if (text !== null && (textBox.checked || !track.views[pos])) {
      boardEl.appendChild(h("pre", { "class": "board", text: text }));
    } else {
      var view = track.views[pos] || {};
      var render = BOARD || genericBoard;
      var next = timeline[pos + 1];
      var drawn = render(view, { seat: seat, log: track.log, n: t.end ? Infinity : t.n,
        next: next && !next.end ? next.n : Infinity, panels: track.panels[pos], chapter: ci >= 0 ? chapters()[ci][0] : null });
      boardEl.appendChild(drawn);
      // parts the board puts beside the log (data-pane="side": the hands), the map made zoomable
      Array.prototype.slice.call(drawn.querySelectorAll("[data-pane=side]")).forEach(function (el) { sideEl.appendChild(el); });
      wrapMap();
    }
    showDecision(t, f);
    showLog(track, t);
    slider.value = String(pos);
    chapterEl.value = String(ci);
    var s = starts();
    Array.prototype.forEach.call(ticksEl.querySelectorAll(".lbl"), function (el) {
      var i = Number(el.getAttribute("data-chapter")), j = i + 1;
      while (j < s.length && chapters()[j][0].split(" \u00b7 ")[0] === chapters()[i][0].split(" \u00b7 ")[0]) { j++; }
      el.classList.toggle("now", s[i] <= pos && (j >= s.length || pos < s[j]));
    });
    posEl.textContent = (t.end ? "end" : "decision " + t.n) + " \u00b7 " + (pos + 1) + "/" + timeline.length +
      " \u00b7 " + (seat === "omniscient" ? "omniscient" : "as " + seat);
    writeHash(t);
  }
  function go(p) { pos = Math.max(0, Math.min(timeline.length - 1, p)); show(); }

  // -- autoplay -------------------------------------------------------------------------------
  var timer = null;
  SPEEDS.forEach(function (v) {
    speedEl.appendChild(h("option", { value: String(v), text: (v < 1 ? "\u00bd" : String(v)) + "/s" }));
  });
  speedEl.value = "1";
  function tick() {
    timer = window.setTimeout(function () {
      if (pos >= timeline.length - 1) { play(false); return; }
      go(pos + 1);
      tick();
    }, 1000 / Number(speedEl.value || 1));
  }
  function play(on) {
    if (timer !== null) { window.clearTimeout(timer); timer = null; }
    if (on) {
      if (pos >= timeline.length - 1) { go(0); }
      tick();
    }
    playEl.setAttribute("aria-pressed", on ? "true" : "false");
    playEl.textContent = on ? "\u275a\u275a pause" : "\u25b6 play";
  }
  playEl.addEventListener("click", function () { play(timer === null); });
  speedEl.addEventListener("change", function () { if (timer !== null) { play(true); } speedEl.blur(); });

  // -- controls and keys ------------------------------------------------------------------------
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", function () { go(pos - 1); });
  document.getElementById("next").addEventListener("click", function () { go(pos + 1); });
  document.getElementById("last").addEventListener("click", function () { go(timeline.length - 1); });
  slider.addEventListener("input", function () { go(Number(slider.value)); });
  function pickSeat(name) {
    seat = name;
    Array.prototype.forEach.call(document.querySelectorAll("input[name=seat]"), function (el) { el.checked = el.value === seat; });
    buildChapters();
  }
  Array.prototype.forEach.call(document.querySelectorAll("input[name=seat]"), function (el) {
    el.addEventListener("change", function () { if (el.checked) { pickSeat(el.value); show(); } });
  });
  document.addEventListener("click", function (ev) {  // a button clicked with the mouse leaves the keys to the page
    var b = ev.target.closest ? ev.target.closest("button") : null;
    if (b && ev.detail > 0) { b.blur(); }
  });
  document.addEventListener("keydown", function (ev) {
    var el = ev.target || {}, tag = el.tagName, type = el.type;
    if (ev.ctrlKey || ev.metaKey || ev.altKey || tag === "TEXTAREA") { return; }
    if (tag === "INPUT" && ["radio", "checkbox", "range"].indexOf(type) < 0) { return; }
    var native = tag === "BUTTON" || tag === "SELECT" || tag === "SUMMARY" || type === "checkbox";
    if (native && (ev.key === " " || ev.key === "Enter")) { return; }  // the focused control's own
    if (tag === "SELECT" && (ev.key === "ArrowUp" || ev.key === "ArrowDown")) { return; }
    var k = ev.key;
    if (k === "ArrowRight" || k === "n") { go(pos + 1); }
    else if (k === "ArrowLeft" || k === "b") { go(pos - 1); }
    else if (k === "Home") { go(0); }
    else if (k === "End") { go(timeline.length - 1); }
    else if (k === "PageDown" || k === "]") { nextChapter(); }
    else if (k === "PageUp" || k === "[") { prevChapter(); }
    else if (k === " ") { play(timer === null); }
    else if (k === "+" || k === "=") { zoomAt(1.5); }
    else if (k === "-" || k === "_") { zoomAt(1 / 1.5); }
    else if (k === "0") { zoomAt(0); }
    else { return; }
    ev.preventDefault();
  });
  // A link opens a given seat and decision: page.html#seat=p1&n=42 (n: a decision number or "end";
  // a number no player decision has: the next one). The address follows the viewer.
  function follow(hash) {
    var wanted = {};
    String(hash || "").replace(/^#/, "").split("&").forEach(function (part) {
      var kv = part.split("=");
      if (kv.length === 2) { wanted[decodeURIComponent(kv[0])] = decodeURIComponent(kv[1]); }
    });
    if (wanted.seat && tracks[wanted.seat] && wanted.seat !== seat) { pickSeat(wanted.seat); }
    if (wanted.n === "end") { pos = timeline.length - 1; }
    else if (wanted.n) { pos = frameAt(Number(wanted.n)); }
  }
  window.addEventListener("hashchange", function () { follow(window.location.hash); show(); });
  // The window's size: the columns (fitColumns) and the ticks' labels (the slider's width) follow it.
  var width = null;
  function refit() {
    var panes = document.querySelector(".panes"), now = panes.clientWidth + "x" + window.innerHeight;
    if (now === width) { return; }
    width = now;
    fitColumns();
    buildChapters();
    show();
  }
  if (window.ResizeObserver) { new window.ResizeObserver(refit).observe(document.querySelector(".panes")); }
  window.addEventListener("resize", refit);
  document.getElementById("viewer").removeAttribute("hidden");
  pickSeat(seat);
  follow(window.location.hash);
  play(false);
  show();
  refit();
})();
"""


def viewer_script(board_script: str = "") -> str:
    """The viewer's script with a game's board script (``HtmlBoard.script``) spliced in."""
    return VIEWER_JS.replace("/*@BOARD@*/", board_script)
