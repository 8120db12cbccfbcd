// The Twilight Struggle board of the report's match pages (GameSpec.html_board: see
// standoff.server.boards.HtmlBoard). Spliced into the viewer's script, it sets BOARD to
// tsBoard(view, ctx): the map as inline SVG from the page's #board-data JSON island
// (html_board.layout(): positions, regions, adjacency, cards, effects), the tracks, the hands as
// cards and the lasting effects as badges, all drawn from one view dict (a seat's game.view, or
// the whole table with every hand: view.hands). ctx: seat, log (the history as that seat saw
// it), n (the decision shown; Infinity at the end) and next (the next player decision's number):
// the last action's countries, the target of the decision shown and the dice that follow it are
// highlighted from the log.
//
// The DOM carries what tests read: g.ts-country[data-country][data-us][data-ussr][data-control],
// #ts-tracks[data-turn][data-ar][data-defcon][data-vp][data-milops-us]...,
// .ts-hand[data-seat] .tscard[data-card] (data-card="?": face down) and .badge[data-effect].
  // -- Twilight Struggle ----------------------------------------------------------------------
  var SVGNS = "http://www.w3.org/2000/svg";
  var TS = json("board-data");
  var SIDE_NAME = { us: "US", ussr: "USSR", neutral: "neutral" };
  function sv(tag, attrs, children) {
    var el = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") { el.textContent = attrs[k]; } else { el.setAttribute(k, attrs[k]); }
    });
    (children || []).forEach(function (c) { if (c) { el.appendChild(c); } });
    return el;
  }
  function tsCard(id, extra) {
    var c = TS.cards[id] || [id, "?", "neutral", 0, 0, 0];
    var cls = "tscard " + (id === "the_china_card" ? "china" : c[5] ? "scoring" : c[2]) + (extra ? " " + extra : "");
    var title = c[0] + (c[5] ? " (scoring card)" : " (" + c[1] + " Ops, " + SIDE_NAME[c[2]] + " event)") +
      (c[3] ? ", removed after its event" : "") + (c[4] ? ", lasting effect" : "");
    return h("span", { "class": cls, "data-card": id, title: title }, [
      h("span", { "class": "ops", text: c[5] ? "S" : String(c[1]) }),
      h("span", { "class": "nm" + (c[4] ? " ul" : ""), text: c[0] }),
      c[3] ? h("span", { "class": "star", text: "\u2605" }) : null
    ]);
  }
  function tsBack() { return h("span", { "class": "tscard back", "data-card": "?", title: "face down", text: "?" }); }
  function cardName(id) { return (TS.cards[id] || [id])[0]; }
  function effectBadge(name) {
    var card = TS.effects[name];
    var rest = "";
    if (!card) {
      Object.keys(TS.effects).forEach(function (k) {
        if (!card && k.slice(-1) === ":" && name.indexOf(k) === 0) { card = TS.effects[k]; rest = name.slice(k.length); }
      });
    } else {
      rest = name.split(":").slice(1).join(":");
    }
    var side = "";
    var details = rest.split(":").filter(function (p) { return p; }).map(function (p) {
      if (p === "turn") { return "this turn"; }
      if (p === "us" || p === "ussr") { side = p; return SIDE_NAME[p]; }
      return p.replace(/_/g, " ");
    });
    var text = (card ? cardName(card) : name) + (details.length ? " (" + details.join(", ") + ")" : "");
    return h("span", { "class": "badge" + (side ? " " + side : ""), "data-effect": name, title: name, text: text });
  }
  function controlOf(stab, us, ussr) {
    if (us - ussr >= stab) { return "us"; }
    if (ussr - us >= stab) { return "ussr"; }
    return "";
  }
  // The last action's countries (and the decision shown), from the log: ids -> step, the target
  // now, the dice that follow it, the card played.
  function tsAction(log, n, next) {
    var out = { now: null, recent: {}, dice: [], step: null, play: null, last: null };
    var i = -1;
    for (var j = 0; j < log.length && log[j][0] <= n; j++) { i = j; }
    var found = -1;
    for (var k = i; k >= 0 && k > i - 80; k--) {
      var e = log[k];
      if (e[1] !== "chance" && /^country:/.test(e[3]) && !/_result$/.test(e[2])) {
        var id = e[3].slice(8).split(":")[0];
        if (found < 0) { found = k; out.last = id; out.step = e[2]; }
        if (e[0] === n) { out.now = id; } else if (out.recent[id] === undefined && id !== out.now) { out.recent[id] = e[2]; }
      }
      if ((e[2] === "action_round" || e[2] === "headline") && e[0] < n && found >= 0) { out.play = e; break; }
      if (e[1] === "chance" && e[2] === "deal" && found >= 0) { break; }
    }
    if (found >= 0) {
      for (var m = found + 1; m < log.length && log[m][0] < next; m++) {
        if (log[m][1] !== "chance" && /^(country:|card:|use:)/.test(log[m][3])) { break; }
        if (/^die:/.test(log[m][3])) { out.dice.push(log[m][3].slice(4)); }
      }
    }
    return out;
  }
  function tsMap(view, act) {
    var W = TS.w, H = TS.h, bw = TS.box[0], bh = TS.box[1];
    var pos = {};
    TS.countries.forEach(function (c) { pos[c[0]] = [c[5], c[6]]; });
    Object.keys(TS.spaces).forEach(function (s) { pos[s] = [TS.spaces[s][0], TS.spaces[s][1]]; });
    var svg = sv("svg", { "class": "tsmap", viewBox: "0 0 " + W + " " + H, role: "img",
      "aria-label": "Twilight Struggle map", "data-zoom": "" });  // data-zoom: the viewer zooms and pans it
    var REGION_LABELS = [["Europe", 770, 34], ["Middle East", 950, 610], ["Asia", 1200, 140],
      ["Southeast Asia", 1218, 448], ["Africa", 420, 690], ["Central America", 120, 148], ["South America", 4, 492]];
    REGION_LABELS.forEach(function (r) {
      svg.appendChild(sv("text", { "class": "region", x: r[1], y: r[2], "text-anchor": r[1] < 10 ? "start" : "middle", text: r[0] }));
    });
    var lines = sv("g", { "class": "edges" });
    TS.edges.forEach(function (e) {
      var a = pos[e[0]], b = pos[e[1]];
      var cls = "adj" + (e[0] === "USA" || e[1] === "USA" ? " us" : e[0] === "USSR" || e[1] === "USSR" ? " ussr" : "");
      if (e[2]) {  // off the edge and back, as on the printed board
        var left = a[0] < b[0] ? a : b, right = a[0] < b[0] ? b : a;
        var leftName = a[0] < b[0] ? e[0] : e[1], rightName = a[0] < b[0] ? e[1] : e[0];
        lines.appendChild(sv("line", { "class": cls, x1: right[0], y1: right[1], x2: W, y2: right[1], "data-edge": e[0] + "-" + e[1] }));
        lines.appendChild(sv("line", { "class": cls, x1: 0, y1: left[1], x2: left[0], y2: left[1] }));
        lines.appendChild(sv("text", { x: W - 3, y: right[1] - 4, "text-anchor": "end", text: "\u2192 " + placeName(leftName) }));
        lines.appendChild(sv("text", { x: 3, y: left[1] - 4, text: placeName(rightName) + " \u2192" }));
        return;
      }
      lines.appendChild(sv("line", { "class": cls, x1: a[0], y1: a[1], x2: b[0], y2: b[1], "data-edge": e[0] + "-" + e[1] }));
    });
    svg.appendChild(lines);
    Object.keys(TS.spaces).forEach(function (s) {
      var b = TS.spaces[s], us = s === "USA";
      svg.appendChild(sv("g", { "class": "ts-space", "data-space": s }, [
        sv("rect", { x: b[0] - b[2] / 2, y: b[1] - b[3] / 2, width: b[2], height: b[3], rx: 6,
          fill: us ? "#1f5fbf" : "#c62828", stroke: "#222" }),
        sv("text", { "class": "space", x: b[0], y: b[1] + 5, "text-anchor": "middle", text: s })
      ]));
    });
    var inf = view.influence || {};
    TS.countries.forEach(function (c) {
      var id = c[0], x = c[5], y = c[6], bg = c[4];
      var amounts = inf[id] || { us: 0, ussr: 0 };
      var ctl = controlOf(c[3], amounts.us, amounts.ussr);
      var x0 = x - bw / 2, y0 = y - bh / 2;
      var g = sv("g", { "class": "ts-country", "data-country": id, "data-us": amounts.us, "data-ussr": amounts.ussr,
        "data-control": ctl, "data-bg": bg });
      g.appendChild(sv("title", { text: c[1] + " (" + c[2] + ", stability " + c[3] + (bg ? ", battleground" : "") +
        "): US " + amounts.us + ", USSR " + amounts.ussr + (ctl ? ", " + SIDE_NAME[ctl] + " controlled" : "") }));
      g.appendChild(sv("rect", { x: x0, y: y0, width: bw, height: bh, rx: 3, fill: c[7], stroke: "#4a5263" }));
      g.appendChild(sv("rect", { x: x0, y: y0, width: bw, height: 13, rx: 3, fill: bg ? "#7b1f3a" : "rgba(255,255,255,.55)" }));
      var label = { "class": bg ? "bgnm" : "nm", x: x, y: y0 + 10, "text-anchor": "middle", text: c[1] };
      if (c[1].length > 12) { label.textLength = bw - 6; label.lengthAdjust = "spacingAndGlyphs"; }
      g.appendChild(sv("text", label));
      // US influence left, stability in the middle, USSR influence right (controlled: solid)
      [["us", x0 + 3, amounts.us, "#1f5fbf"], ["ussr", x0 + bw - 25, amounts.ussr, "#c62828"]].forEach(function (s) {
        var solid = ctl === s[0];
        g.appendChild(sv("rect", { x: s[1], y: y0 + 15, width: 22, height: 18, rx: 2,
          fill: solid ? s[3] : s[2] ? "#fff" : "rgba(255,255,255,.35)", stroke: s[2] ? s[3] : "rgba(0,0,0,.15)" }));
        if (s[2]) {
          g.appendChild(sv("text", { "class": "inf", x: s[1] + 11, y: y0 + 29, "text-anchor": "middle",
            fill: solid ? "#fff" : s[3], text: String(s[2]) }));
        }
      });
      g.appendChild(sv("text", { "class": "stab", x: x, y: y0 + 29, "text-anchor": "middle", text: String(c[3]) }));
      if (act.now === id || act.recent[id] !== undefined) {
        g.setAttribute("data-highlight", act.now === id ? "now" : "recent");
        g.appendChild(sv("rect", { "class": act.now === id ? "hl-now" : "hl-recent", x: x0 - 3, y: y0 - 3,
          width: bw + 6, height: bh + 6, rx: 5 }));
      }
      svg.appendChild(g);
    });
    var target = act.now || act.last;
    if (target && pos[target]) {
      var p = pos[target];
      var tag = act.step.replace(/_/g, " ") + (act.dice.length ? " \u00b7 die " + act.dice.join(", ") : "");
      var w = 8 + tag.length * 6;
      var ty = p[1] - bh / 2 - 20 < 2 ? p[1] + bh / 2 + 4 : p[1] - bh / 2 - 20;
      svg.appendChild(sv("g", { "class": "ts-tag", "data-target": target, "data-dice": act.dice.join(",") }, [
        sv("rect", { x: p[0] - w / 2, y: ty, width: w, height: 16, rx: 8, fill: "#ffcc80", stroke: "#e65100" }),
        sv("text", { "class": "tag", x: p[0], y: ty + 12, "text-anchor": "middle", text: tag })
      ]));
    }
    return svg;
  }
  function cells(label, lo, hi, value, cls, reverse) {
    var box = h("span", { "class": "trk" }, [h("span", { "class": "lbl", text: label })]);
    for (var i = lo; i <= hi; i++) {
      var v = reverse ? hi - (i - lo) : i;
      box.appendChild(h("span", { "class": "cell " + (cls === "defcon" ? "d" + v : cls) + (v === value ? " on" : ""), text: String(v) }));
    }
    return box;
  }
  function vpBar(vp) {
    var s = sv("svg", { width: 170, height: 18, viewBox: "0 0 170 18" });
    s.appendChild(sv("rect", { x: 5, y: 6, width: 80, height: 6, fill: "#fadada" }));
    s.appendChild(sv("rect", { x: 85, y: 6, width: 80, height: 6, fill: "#dbe7fb" }));
    s.appendChild(sv("line", { x1: 85, x2: 85, y1: 2, y2: 16, stroke: "#555" }));
    var x = 85 + Math.max(-20, Math.min(20, vp)) * 4;
    s.appendChild(sv("circle", { cx: x, cy: 9, r: 6, fill: vp > 0 ? "#1f5fbf" : vp < 0 ? "#c62828" : "#555", stroke: "#fff" }));
    return s;
  }
  // A country's name (the map's label) or a superpower space's, for an id.
  function placeName(id) {
    var found = null;
    TS.countries.forEach(function (c) { if (c[0] === id) { found = c[1]; } });
    return found || id.replace(/_/g, " ");
  }
  // The phase of the turn: the title of the page's chapter when it has chapters ("Turn 3 · Headline":
  // "Headline"), else read from the view: set-up, the headline (action round 0), an end-of-turn
  // decision, an action round with the side phasing.
  function tsPhase(view, ctx) {
    var title = ctx && ctx.chapter ? ctx.chapter.split(" \u00b7 ").slice(1).join(" \u00b7 ") || ctx.chapter : "";
    if (!title) {
      if (ctx && ctx.n === Infinity) { title = "End of the match"; }
      else if (view.step === "setup_place" || view.step === "bid") { title = "Setup"; }
      else if (view.step === "space_discard") { title = "End of turn"; }
      else if (!view.action_round) { title = "Headline"; }
      else { title = "Action round " + view.action_round; }
    }
    var round = /^Action round/.test(title);
    return h("span", { "class": "trk", id: "ts-phase", "data-phase": title }, [h("span", { "class": "lbl", text: "Phase" }),
      round ? h("span", { "class": "cell on " + (view.phasing || ""), text: String(view.action_round) }) : null,
      h("span", { "class": round ? "side-" + view.phasing : "", text: " " + title +
        (round && view.phasing ? " \u00b7 " + (SIDE_NAME[view.phasing] || view.phasing) + " phasing" : "") })]);
  }
  function tsTracks(view, ctx) {
    var mil = view.military_ops || {}, space = view.space || {}, china = view.china_card || {};
    var vp = view.vp || 0;
    var box = h("div", { "class": "ts-tracks", id: "ts-tracks", "data-turn": view.turn, "data-ar": view.action_round,
      "data-phasing": view.phasing, "data-defcon": view.defcon, "data-vp": vp,
      "data-milops-us": mil.us || 0, "data-milops-ussr": mil.ussr || 0,
      "data-space-us": space.us || 0, "data-space-ussr": space.ussr || 0,
      "data-china": china.holder || "", "data-china-face-up": china.face_up ? "1" : "0" });
    box.appendChild(cells("Turn", 1, 10, view.turn, ""));
    box.appendChild(tsPhase(view, ctx));
    box.appendChild(cells("DEFCON", 1, 5, view.defcon, "defcon", true));
    box.appendChild(h("span", { "class": "trk" }, [h("span", { "class": "lbl", text: "VP" }), vpBar(vp),
      h("span", { "class": vp > 0 ? "side-us" : vp < 0 ? "side-ussr" : "", text: vp === 0 ? "0" : (vp > 0 ? "US +" + vp : "USSR +" + (-vp)) })]));
    var mil_box = h("span", { "class": "trk" }, [h("span", { "class": "lbl", text: "Mil. ops (need " + view.defcon + ")" })]);
    ["ussr", "us"].forEach(function (s) {
      mil_box.appendChild(h("span", { "class": "side-" + s, text: " " + SIDE_NAME[s] + " " }));
      mil_box.appendChild(h("span", { "class": "cell " + s + " on", text: String(mil[s] || 0) }));
    });
    box.appendChild(mil_box);
    var space_box = h("span", { "class": "trk" }, [h("span", { "class": "lbl", text: "Space race" })]);
    ["ussr", "us"].forEach(function (s) {
      space_box.appendChild(h("span", { "class": "side-" + s, text: " " + SIDE_NAME[s] + " " }));
      space_box.appendChild(h("span", { "class": "cell " + s + " on", text: String(space[s] || 0) }));
    });
    space_box.appendChild(h("span", { "class": "muted", text: " /8" }));
    box.appendChild(space_box);
    var chinaBox = h("span", { "class": "trk" }, [h("span", { "class": "lbl", text: "China Card:" }),
      tsCard("the_china_card", china.face_up ? "" : "facedown"),
      h("span", { "class": china.holder ? "side-" + china.holder : "muted",
        text: (china.holder ? SIDE_NAME[china.holder] : "nobody") + (china.face_up ? ", face up" : ", face down") })]);
    box.appendChild(chinaBox);
    var head = view.headline || {};
    var headBox = h("span", { "class": "trk", id: "ts-headline" }, [h("span", { "class": "lbl", text: "Headline:" })]);
    var any = false;
    ["ussr", "us"].forEach(function (s) {
      if (head[s]) { any = true; headBox.appendChild(h("span", { "class": "side-" + s, text: SIDE_NAME[s] + " " })); headBox.appendChild(tsCard(head[s])); }
    });
    if (!any) { headBox.appendChild(h("span", { "class": "muted", text: "-" })); }
    box.appendChild(headBox);
    return box;
  }
  function tsBoard(view, ctx) {
    var act = tsAction(ctx.log || [], ctx.n, ctx.next);
    var box = h("div", { "class": "tsboard" });
    box.appendChild(tsTracks(view, ctx));
    box.appendChild(tsMap(view, act));
    var last = h("div", { "class": "ts-last muted" });
    if (act.play) {
      last.appendChild(document.createTextNode((act.now ? "this action: " : "last action: ") +
        (SIDE_NAME[act.play[1]] || act.play[1]) + (act.play[2] === "headline" ? " headlined " : " played ")));
      if (/^card:/.test(act.play[3])) { last.appendChild(tsCard(act.play[3].slice(5))); }
    }
    if (act.last) {
      last.appendChild(document.createTextNode(" \u00b7 " + (act.now ? "now: " : "last: ") + act.step.replace(/_/g, " ") + " " +
        act.last.replace(/_/g, " ") + (act.dice.length ? " (die " + act.dice.join(", ") + ")" : "")));
    }
    box.appendChild(last);
    var hands = h("div", { "class": "ts-hands", "data-pane": "side" });  // beside the log
    var china = view.china_card || {};
    function handLine(role, list, hidden, note) {
      var line = h("div", { "class": "ts-hand", "data-seat": role }, [
        h("span", { "class": "who side-" + role, text: SIDE_NAME[role] + " hand (" + (list.length + hidden) + ")" + (note || "") })]);
      list.forEach(function (id) { line.appendChild(tsCard(id)); });
      for (var i = 0; i < hidden; i++) { line.appendChild(tsBack()); }
      if (china.holder === role) { line.appendChild(document.createTextNode(" + ")); line.appendChild(tsCard("the_china_card", china.face_up ? "" : "facedown")); }
      return line;
    }
    var roles = ["ussr", "us"];
    if (view.hands) {  // the whole table: every hand face up
      roles.forEach(function (r) { hands.appendChild(handLine(r, view.hands[r] || [], 0)); });
    } else {
      var me = view.role, them = me === "us" ? "ussr" : "us";
      roles.forEach(function (r) {
        if (r === me) { hands.appendChild(handLine(r, view.hand || [], 0, " \u00b7 this seat")); }
        else if ((view.opponent_hand || []).length) { hands.appendChild(handLine(r, view.opponent_hand, 0, " \u00b7 open to " + SIDE_NAME[me])); }
        else { hands.appendChild(handLine(r, [], view.opponent_hand_size || 0, " \u00b7 face down")); }
      });
      void them;
    }
    var effects = h("div", { id: "ts-effects" }, [h("b", { text: "Lasting effects: " })]);
    if ((view.effects || []).length) { view.effects.forEach(function (e) { effects.appendChild(effectBadge(e)); }); }
    else { effects.appendChild(h("span", { "class": "muted", text: "none" })); }
    hands.appendChild(effects);
    var piles = h("div", { "class": "muted" }, ["deck " + (view.deck_size || 0) + " \u00b7 discard " + (view.discard || []).length +
      " \u00b7 removed " + (view.removed || []).length]);
    hands.appendChild(piles);
    [["discard", view.discard], ["removed", view.removed]].forEach(function (p) {
      if (p[1] && p[1].length) {
        var d = h("details", { "class": "pile" }, [h("summary", { text: p[0] + " pile (" + p[1].length + ")" })]);
        p[1].forEach(function (id) { d.appendChild(tsCard(id)); });
        hands.appendChild(d);
      }
    });
    box.appendChild(hands);
    return box;
  }
  BOARD = tsBoard;
