// The Schotten Totten board of the report's match pages (GameSpec.html_board: see
// standoff.server.boards.HtmlBoard). Spliced into the viewer's script, it sets BOARD to
// stBoard(view, ctx): the nine flags with each side's cards (two players face each other across
// the flags, more sit side by side), the hands (a seat's own face up, the others as backs and
// the cards it knows; the whole table: every hand face up), the decks and the discards, all
// drawn from one view dict.
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
    var hands = h("div", { "class": "hands", "data-pane": "side" });  // beside the log
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
  // -- the flag panels (HtmlBoard.panels, ctx.panels: {flags: [{sides, proof, can}]}) ------------
  // Under each side's cards the formation they make ("wedge 27"), or for an incomplete side the
  // best it could still make ("at best: battalion 24", the troops that would make it on hover);
  // a claimed flag shows its claim's proof on hover (the flag cell and the winner's side).
  function stFormationLabel(side) {
    if (!side || side.c === undefined) { return null; }
    if (side.c) { return h("div", { "class": "fm done", text: side.f + " " + side.s }); }
    if (side.f === null) { return h("div", { "class": "fm none", text: "cannot be completed" }); }
    return h("div", { "class": "fm best", title: "with " + (side.w || []).join(", ") + " (cards off the table)",
      text: "at best: " + side.f + " " + side.s });
  }
  function stPanels(el, view, panels) {
    var list = panels && panels.flags;
    if (!list) { return el; }
    var flags = view.flags || [];
    var roles = flags.length ? Object.keys(flags[0].sides) : [];
    var me = view.role;
    var cols = roles.indexOf(me) >= 0 ? [me].concat(roles.filter(function (r) { return r !== me; })) : roles;
    var two = cols.length === 2;
    var rows = el.querySelectorAll("table.st tbody tr");
    Array.prototype.forEach.call(rows, function (tr, i) {
      var p = list[i], f = flags[i];
      if (!p || !f) { return; }
      var cells = tr.children;
      cols.forEach(function (role, k) {
        var td = two ? cells[k === 0 ? 0 : 2] : cells[k + 1];
        var label = td && stFormationLabel(p.sides[role]);
        if (label) { td.appendChild(label); }
        if (td && p.proof && f.claimed_by === role) { td.setAttribute("title", p.proof.join("\n")); }
      });
      var mid = two ? cells[1] : cells[0];
      if (!mid) { return; }
      if (p.proof) {
        mid.setAttribute("title", f.claimed_by + " won flag " + f.flag + ":\n" + p.proof.join("\n"));
        mid.classList.add("proved");
        mid.appendChild(h("span", { "class": "tag proof", text: "proof" }));
      }
      (p.can || []).forEach(function (role) {
        mid.appendChild(h("span", { "class": "tag can", text: role + " can claim" }));
      });
    });
    return el;
  }
  BOARD = function (view, ctx) { return stPanels(stBoard(view, ctx), view, ctx && ctx.panels); };
