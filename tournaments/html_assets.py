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

Boards are drawn per game by ``RENDERERS[game]`` (Schotten Totten here, Twilight Struggle in
:mod:`.html_ts`; a game without one gets the view as indented JSON).
"""

from .html_ts import TS_CSS, TS_JS

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
/* Schotten Totten board */
table.st { width: 100%; }
table.st td, table.st th { white-space: normal; }
table.st th { text-align: left; }
table.st td.left { text-align: right; width: 44%; }
table.st td.right { text-align: left; width: 44%; }
table.st td.side { text-align: left; }
table.st td.flag { text-align: center; width: 12%; font-weight: 600; }
table.st td.flag .tag { display: block; font-size: 11px; font-weight: 400; color: var(--muted); }
table.st td.won { background: #e6f4ea; }
.card { display: inline-block; min-width: 3.2em; padding: 1px 5px; margin: 1px 2px; border-radius: 4px;
        border: 1px solid rgba(0,0,0,.25); font: 12px ui-monospace, monospace; text-align: center; color: #111; }
.card.red { background: #f6b0a8; } .card.orange { background: #f9cf94; } .card.yellow { background: #fbef8f; }
.card.green { background: #b5e3b0; } .card.blue { background: #acc9f5; } .card.purple { background: #d6b8f0; }
.card.tactic { background: #30384a; color: #fff; }
.card.back { background: repeating-linear-gradient(45deg, #8b95a8, #8b95a8 3px, #a4adbe 3px, #a4adbe 6px);
             color: #fff; min-width: 1.6em; }
.card.known { outline: 2px dashed var(--accent); }
.complete { color: var(--good); font-size: 11px; }
.hands div { margin: 4px 0; }
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
    tracks[name] = track;
    order.push(name);
  });
  if (!timeline.length || !order.length) { return; }

  // -- boards ---------------------------------------------------------------------------------
  var COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"];
  function card(name, extra) {
    var cls = "card";
    var dash = name.lastIndexOf("-");
    var colour = dash > 0 ? name.slice(0, dash) : "";
    if (COLOURS.indexOf(colour) >= 0) { cls += " " + colour; } else { cls += " tactic"; }
    if (extra) { cls += " " + extra; }
    return h("span", { "class": cls, text: name });
  }
  function cards(list, extra) {
    if (!list || !list.length) { return [h("span", { "class": "muted", text: "-" })]; }
    return list.map(function (c) { return card(c, extra); });
  }
  function stBoard(view, ctx) {
    var seat = ctx.seat;
    var flags = view.flags || [];
    var roles = flags.length ? Object.keys(flags[0].sides) : [seat];
    var me = view.role;
    // this seat first; two players face each other across the flags, more sit side by side
    var cols = roles.indexOf(me) >= 0 ? [me].concat(roles.filter(function (r) { return r !== me; })) : roles;
    var two = cols.length === 2;
    function label(role) { return role + (role === me && !view.hands ? " (this seat)" : ""); }
    var heads = two ? [h("th", { text: label(cols[0]) }), h("th", { text: "flag" }), h("th", { text: cols[1] })]
      : [h("th", { text: "flag" })].concat(cols.map(function (r) { return h("th", { text: label(r) }); }));
    var head = h("tr", null, heads);
    var rows = flags.map(function (f) {
      function side(role, cls) {
        var s = f.sides[role] || { cards: [] };
        var td = h("td", { "class": cls + (f.claimed_by === role ? " won" : "") }, cards(s.cards));
        if (s.completed_at !== null && s.completed_at !== undefined) {
          td.appendChild(h("span", { "class": "complete", text: " \u2713" }));
        }
        return td;
      }
      var tags = [];
      if (f.claimed_by) { tags.push(f.claimed_by + " won"); }
      if (f.fog) { tags.push("fog"); }
      if (f.mud) { tags.push("mud"); }
      var mid = h("td", { "class": "flag" }, [String(f.flag)].concat(
        tags.map(function (t) { return h("span", { "class": "tag", text: t }); })));
      if (two) { return h("tr", null, [side(cols[0], "left"), mid, side(cols[1], "right")]); }
      return h("tr", null, [mid].concat(cols.map(function (r) { return side(r, "side"); })));
    });
    var table = h("table", { "class": "st" }, [h("thead", null, [head]), h("tbody", null, rows)]);
    var hands = h("div", { "class": "hands" });
    if (view.hands) {  // the whole table: every hand face up
      cols.forEach(function (role) {
        hands.appendChild(h("div", { "class": "hand", "data-seat": role },
          [h("b", { text: "hand of " + role + ": " })].concat(cards(view.hands[role]))));
      });
    } else {
      hands.appendChild(h("div", { "class": "hand", "data-seat": me },
        [h("b", { text: "hand of " + me + ": " })].concat(cards(view.hand))));
    }
    Object.keys(view.hands ? {} : view.opponents || {}).forEach(function (role) {
      var o = view.opponents[role];
      var backs = [];
      for (var i = 0; i < (o.troops || 0) + (o.tactics || 0); i++) {
        backs.push(h("span", { "class": "card back", text: i < (o.troops || 0) ? "T" : "X" }));
      }
      var line = h("div", { "class": "hand", "data-seat": role }, [h("b", { text: "hand of " + role + ": " }),
        (o.troops || 0) + " troops, " + (o.tactics || 0) + " tactics "].concat(backs));
      if (o.known && o.known.length) {
        line.appendChild(document.createTextNode(" known: "));
        cards(o.known, "known").forEach(function (c) { line.appendChild(c); });
      }
      hands.appendChild(line);
    });
    var decks = Object.keys(view.decks || {}).map(function (name) {
      var d = view.decks[name];
      return name + " " + d.size + (d.top && d.top.length ? " (top: " + d.top.join(", ") + ")" : "");
    });
    hands.appendChild(h("div", null, [h("b", { text: "decks: " }), decks.join(" \u00b7 ")]));
    Object.keys(view.discards || {}).forEach(function (role) {
      var list = view.discards[role];
      if (list && list.length) {
        hands.appendChild(h("div", null, [h("b", { text: "discards of " + role + ": " })].concat(cards(list))));
      }
    });
    var info = "turn " + view.turn + ", " + view.to_move + " to move" + (view.step ? " (" + view.step + ")" : "") +
      (view.hands ? " \u00b7 everything: every hand face up" : " \u00b7 as seen by " + me);
    return h("div", null, [h("div", { "class": "muted", text: info }), table, hands]);
  }
  function genericBoard(view) {
    return h("pre", { "class": "board", text: JSON.stringify(view, null, 1) });
  }
/*@TS_BOARD@*/
  var RENDERERS = { "schotten-totten": stBoard, "twilight-struggle": tsBoard };

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
      var render = RENDERERS[meta.game] || genericBoard;
      var next = timeline[pos + 1];
      boardEl.appendChild(render(view, { seat: seat, log: track.log, n: t.end ? Infinity : t.n,
        next: next && !next.end ? next.n : Infinity }));
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

CSS += TS_CSS
VIEWER_JS = VIEWER_JS.replace("/*@TS_BOARD@*/", TS_JS)
