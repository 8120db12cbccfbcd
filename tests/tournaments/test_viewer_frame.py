"""The match viewer's frame (issue 44, items 2 and 3): at 1366x768 the board, the decision, both
hands and the latest log lines are in the window without scrolling; at 800 and 1920 pixels wide
nothing overflows; the map zooms and pans; the viewer jumps by chapter (turn, action round,
claim), steps by keys, plays itself, and keeps the address's fragment on the decision shown; the
log pane tells the track's story grouped under chapter titles.

The pages are the report's real pages (Twilight Struggle and Schotten Totten: with the chapters
and the story of the game's teller, server/story.py, where the game has one) and the same records'
pages made by ``_viewer_page`` from tracks given chapters and a story by hand here (both games
get them, whatever tellers exist, with detail lists on claims and scoring cards). Each page is loaded in
headless Chromium with a probe script added at its end: the probe measures the layout
(``getBoundingClientRect``, ``scrollWidth``/``clientWidth``), drives the controls with real DOM
events, and writes what it found into the DOM, which the test reads from ``--dump-dom``. Nothing
relies on a flag the page sets about itself.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from standoff.server.core.record import replay_steps
from standoff.server.games import get_game
from standoff.server.records import read_record
from standoff.tournaments.config import parse_config
from standoff.tournaments.html import _viewer_page, match_tracks, write_report
from standoff.tournaments.runner import run_tournament
from test_html import _browse, _chromium, _screenshot_dir, pages

TS = get_game("twilight-struggle")
ST = get_game("schotten-totten")
#: The page viewports measured, and a 1366x768 window (None): headless Chromium's frame leaves its
#: page 1366x625, near what a browser on a 1366x768 laptop screen leaves; the page must fit there too.
CASES = (("1366x768", (1366, 768)), ("800x900", (800, 900)), ("1920x1080", (1920, 1080)), ("1366x768 window", None))


# -- chapters and a story, made by hand from a record (the contract of brief viewer44.md) ------------


def _ts_chapter(state: Any, step: str) -> str:
    if step in ("setup_place", "bid") or state.turn == 0:
        return "Setup"
    if step == "space_discard":
        return f"Turn {state.turn} \u00b7 End of turn"
    if state.ar == 0:
        return f"Turn {state.turn} \u00b7 Headline"
    return f"Turn {state.turn} \u00b7 Action round {state.ar}"


def chapters_of(game: Any, record: Any) -> list[list[Any]]:
    """``[[title, number]]``: a chapter where the turn (Schotten Totten) or the phase of the turn
    (Twilight Struggle) of the state a decision was asked in changes."""
    moves = record.moves
    titles: list[str] = []
    state = None
    steps = iter(replay_steps(game, record))
    for n, move in enumerate(moves, 1):
        if n > 1:
            state = next(steps).state
        if state is None:  # the first decision: asked in the start state
            titles.append("Setup" if game is TS else "Turn 1")
            continue
        titles.append(_ts_chapter(state, move["step"]) if game is TS else f"Turn {state.turn + 1}")
    chapters, last = [], None
    for n, title in enumerate(titles, 1):
        if title != last:
            chapters.append([title, n])
            last = title
    if game is TS and (record.footer or {}).get("termination") == "final_scoring":
        chapters.append(["Final scoring", len(moves) + 1])
    return chapters


def story_of(track: dict[str, Any]) -> list[list[Any]]:
    """A story line per entry of the track's own log (what that seat saw): ``[n, sentence, kind,
    role]``, and a scoring card's or a claim's line with a detail list."""
    story = []
    for n, role, step, key in track["log"]:
        kind = {"die": "die", "deal": "deal", "headline": "headline", "claim": "claim", "coup": "coup",
                "influence": "ops", "realign": "realign", "draw": "deal", "draw_card": "deal"}.get(step, "play")
        text = f"{role.upper()} {step.replace('_', ' ')}: {key.split(':', 1)[-1].replace('_', ' ')}."
        line: list[Any] = [n, text, kind, None if role == "chance" else role]
        if role != "chance" and ("scoring" in key or step == "claim"):
            line[2] = "scoring" if "scoring" in key else "claim"
            line.append([f"{line[2]} detail {n}: presence, domination", "battlegrounds 2, adjacent 1"])
        story.append(line)
    return story


def with_story(game: Any, record: Any) -> dict[str, Any]:
    data = match_tracks(game, record)
    chapters = chapters_of(game, record)
    for track in data["tracks"].values():
        track["chapters"] = chapters
        track["story"] = story_of(track)
    return data


# -- fixtures -------------------------------------------------------------------------------------


def _tournament(folder: Path, name: str, game: str, entrants: list[str], games: int) -> Path:
    config = parse_config({"name": name, "game": game, "entrants": entrants, "games_per_pairing": games,
                           "output_dir": str(folder), "master_seed": 7}, source="t")
    summary = run_tournament(config)
    assert summary.complete
    return write_report(summary.run_dir)


LONG_BOT = "a-submitted-bot-with-a-very-long-name-that-goes-on@12"
LONG_ID = "c1-a-submitted-bot-with-a-very-long-name-that-goes-on-vs-another-one-g01-and-more-words"


@pytest.fixture(scope="module")
def frame_pages(tmp_path_factory):
    """The pages the browser loads: name -> (path, the record, the viewer's data)."""
    folder = tmp_path_factory.mktemp("frame")
    ts_index = _tournament(folder, "ts", "twilight-struggle", ["ts-heuristic", "random"], 2)
    st_index = _tournament(folder, "st", "schotten-totten", ["greedy", "probability"], 2)
    out: dict[str, tuple[Path, Any]] = {}
    for label, index in (("ts", ts_index), ("st", st_index)):
        page = max(pages(index)[1:], key=lambda p: p.stat().st_size)  # the longer match
        record = read_record(index.parent.parent / "records" / f"{page.stem}.jsonl")
        out[label] = (page, record)
        game = TS if label == "ts" else ST
        story_page = folder / f"{label}-story.html"  # the same record, its tracks with chapters and a story
        story_page.write_text(_viewer_page(f"Match {page.stem}", '<a href="x.html">report</a>', "with a story",
                                           with_story(game, record), {}), encoding="utf-8")
        out[f"{label}-story"] = (story_page, record)
    record = out["st"][1]
    long_page = folder / "long.html"
    long_page.write_text(_viewer_page(f"Match {LONG_ID}", '<a href="x.html">\u2190 report</a> \u00b7 '
                                      f'<a href="y.html">next match {LONG_ID}</a>',
                                      f"schotten-totten \u00b7 p1 {LONG_BOT} vs p2 {LONG_BOT}2 \u00b7 {LONG_BOT} (p1) wins",
                                      match_tracks(ST, record), {"p1": LONG_BOT, "p2": LONG_BOT + "2"}),
                         encoding="utf-8")
    out["long"] = (long_page, record)  # (the record of the "st" page)
    return out


# -- the probe ------------------------------------------------------------------------------------

PROBE = r"""
<script>
(function () {
  "use strict";
  var out = { errors: [] };
  function rect(el) {
    if (!el) { return null; }
    var r = el.getBoundingClientRect();
    return [Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)];
  }
  function name(el) {
    return el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && el.className.baseVal === undefined && el.className ? "." + String(el.className).trim().split(/\s+/).join(".") : "");
  }
  // Elements that clip a long text by design (overflow hidden + an ellipsis) are not overflowing.
  function clips(el) {
    var s = getComputedStyle(el);
    return s.textOverflow === "ellipsis" && s.overflowX === "hidden";
  }
  function overflowing() {
    var sel = "header.top, header.top *, section, .controls, .controls > *, .seats, .seats label, .scrub, .panes, " +
      "#board-pane, #board, #board > *, #side, #side > *, .ts-tracks, .ts-tracks > *, .ts-hand, .hand, .zoombox, " +
      ".zoombar, #ts-effects, .decision > *";
    var bad = [];
    Array.prototype.forEach.call(document.querySelectorAll(sel), function (el) {
      // (the text board, pre.board, scrolls inside its own box: what matters is that its pane does not)
      if (getComputedStyle(el).display === "inline" || clips(el) || el.matches("pre.board")) { return; }
      if (el.scrollWidth > el.clientWidth + 1) { bad.push(name(el) + " " + el.scrollWidth + ">" + el.clientWidth); }
    });
    return bad;
  }
  function measure() {
    var root = document.documentElement;
    var lines = document.querySelectorAll("#log .lines > div");
    var hands = {};
    Array.prototype.forEach.call(document.querySelectorAll("#viewer [data-seat].ts-hand, #viewer .hand[data-seat]"),
      function (el) { hands[el.getAttribute("data-seat")] = rect(el); });
    return {
      inner: [innerWidth, innerHeight], scroll: [root.scrollWidth, root.scrollHeight], client: [root.clientWidth, root.clientHeight],
      board: rect(document.querySelector("#board svg[data-zoom]") || document.querySelector("#board table.st") ||
                  document.querySelector("#board > *")),
      decision: rect(document.getElementById("decision")), hands: hands, log: rect(document.getElementById("log")),
      lastLine: rect(lines[lines.length - 1]), lines: lines.length, overflow: overflowing()
    };
  }
  function key(k) { document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true })); }
  function state() {
    var t = document.getElementById("pos").textContent;
    return { pos: Number(document.getElementById("slider").value), hash: location.hash, text: t,
             chapter: document.getElementById("chapter").value,
             phase: (document.getElementById("ts-phase") || { getAttribute: function () { return null; } }).getAttribute("data-phase"),
             board: (document.getElementById("board").textContent || "").length,
             log: (document.querySelector("#log .lines > div:last-child") || {}).textContent || "" };
  }
  function run() {
  try {
    out.first = measure();
    out.title = document.title;
    out.ticks = document.querySelectorAll("#ticks .tick").length;
    out.tickLabels = Array.prototype.map.call(document.querySelectorAll("#ticks .lbl"), function (el) { return el.textContent; });
    out.chapters = Array.prototype.map.call(document.querySelectorAll("#chapter option"), function (el) { return el.textContent; });
    out.storyTitles = Array.prototype.map.call(document.querySelectorAll("#log .lines > .ch"), function (el) { return el.textContent; });
    out.details = document.querySelectorAll("#log ul.detail li").length;
    out.wrapLabels = Array.prototype.map.call(document.querySelectorAll("svg.tsmap .edges text"), function (el) { return el.textContent; });
    var steps = [];
    out.steps = steps;
    steps.push(["start", state()]);
    key("]"); steps.push(["]", state()]);
    key("]"); steps.push(["]", state()]);
    key("["); steps.push(["[", state()]);
    key("PageDown"); steps.push(["PageDown", state()]);
    key("ArrowRight"); steps.push(["ArrowRight", state()]);
    key("ArrowLeft"); steps.push(["ArrowLeft", state()]);
    var select = document.getElementById("chapter");
    var values = Array.prototype.map.call(select.options, function (o) { return o.value; });
    var plain = values.filter(function (v) { return v.charAt(0) !== "m"; });
    if (plain.length > 3) {  // the chapter before last
      select.value = plain[plain.length - 2];
      select.dispatchEvent(new Event("change", { bubbles: true }));
      steps.push(["select", state()]);
    }
    var moments = values.filter(function (v) { return v.charAt(0) === "m"; });
    out.moments = moments;
    if (moments.length) {  // a claim or a scoring: the frame right after it
      select.value = moments[0];
      select.dispatchEvent(new Event("change", { bubbles: true }));
      steps.push(["moment", state()]);
    }
    key("End"); steps.push(["End", state()]);
    key("Home"); steps.push(["Home", state()]);
    // zoom: a country name's height on screen, fitted and after two "+"; a drag pans
    var label = document.querySelector("svg.tsmap g.ts-country text");
    if (label) {
      var svg = document.querySelector("svg[data-zoom]");
      out.zoom = { fit: label.getBoundingClientRect().height, box: svg.getAttribute("viewBox") };
      key("+"); key("+");
      label = document.querySelector("svg.tsmap g.ts-country text");
      out.zoom.zoomed = label.getBoundingClientRect().height;
      out.zoom.pct = document.querySelector(".zoombar span").textContent;
      svg = document.querySelector("svg[data-zoom]");
      var before = svg.getAttribute("viewBox"), r = svg.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
      svg.dispatchEvent(new PointerEvent("pointerdown", { pointerId: 7, clientX: cx, clientY: cy, bubbles: true, button: 0, pointerType: "mouse" }));
      svg.dispatchEvent(new PointerEvent("pointermove", { pointerId: 7, clientX: cx - 120, clientY: cy - 40, bubbles: true, pointerType: "mouse" }));
      svg.dispatchEvent(new PointerEvent("pointerup", { pointerId: 7, clientX: cx - 120, clientY: cy - 40, bubbles: true, pointerType: "mouse" }));
      out.zoom.panned = [before, svg.getAttribute("viewBox")];
      key("ArrowRight");  // the zoom stays on the next frame
      out.zoom.kept = document.querySelector("svg[data-zoom]").getAttribute("viewBox");
      out.zoomedMeasure = measure();
      key("0");
      out.zoom.fitted = document.querySelector("svg[data-zoom]").getAttribute("viewBox");
      svg = document.querySelector("svg[data-zoom]");
      r = svg.getBoundingClientRect();
      svg.dispatchEvent(new WheelEvent("wheel", { deltaY: -300, clientX: r.left + 50, clientY: r.top + 50, bubbles: true, cancelable: true }));
      out.zoom.wheel = document.querySelector("svg[data-zoom]").getAttribute("viewBox");
      key("0");
      key("Home");
    }
    var toggle = document.getElementById("as-text");
    if (toggle && !toggle.disabled) {  // the text board scrolls inside its own box
      toggle.click();
      out.text = { pre: !!document.querySelector("#board pre.board"), overflow: overflowing(),
                   scroll: [document.documentElement.scrollWidth, document.documentElement.clientWidth] };
      toggle.click();
    }
    // a link to a decision: the fragment, changed by hand, moves the viewer
    var timeline = JSON.parse(document.getElementById("timeline").textContent);
    var target = timeline[Math.floor(timeline.length / 2)];
    var seat = JSON.parse(document.getElementById("meta").textContent).roles[0];
    location.hash = "#seat=" + seat + "&n=" + target.n;
    setTimeout(function () {
      out.followed = { want: [seat, Math.floor(timeline.length / 2)], got: state(),
                       checked: document.querySelector("input[name=seat]:checked").value };
      out.atFollowed = measure();
      document.getElementById("speed").value = "4";
      document.getElementById("speed").dispatchEvent(new Event("change", { bubbles: true }));
      var from = Number(document.getElementById("slider").value);
      document.getElementById("play").click();
      out.play = { from: from, pressed: document.getElementById("play").getAttribute("aria-pressed") };
      setTimeout(function () {
        out.play.after = Number(document.getElementById("slider").value);
        out.play.hash = location.hash;
        key(" ");  // space pauses
        out.play.paused = document.getElementById("play").getAttribute("aria-pressed");
        var stopped = Number(document.getElementById("slider").value);
        setTimeout(function () {
          out.play.still = Number(document.getElementById("slider").value) === stopped;
          document.body.appendChild(Object.assign(document.createElement("pre"), { id: "probe", textContent: JSON.stringify(out) }));
        }, 600);
      }, 1300);
    }, 50);
  } catch (e) {
    out.errors.push(String(e && e.stack || e));
    document.body.appendChild(Object.assign(document.createElement("pre"), { id: "probe", textContent: JSON.stringify(out) }));
  }
  }
  setTimeout(run, 100);  // the page as shown: laid out, its observers run
})();
</script>
"""


def probed(page: Path, folder: Path) -> Path:
    """A copy of ``page`` with the probe script at the end of its body (after the viewer's)."""
    text = page.read_text(encoding="utf-8")
    copy = folder / f"probed-{page.name}"
    copy.write_text(text.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    return copy


def read_probe(dom: str) -> dict[str, Any]:
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, re.S)
    assert found, dom[-1500:]
    result = json.loads(unescape(found.group(1)))
    assert not result["errors"], result["errors"]
    return result


def inside(box, width: int, height: int) -> bool:
    return box is not None and box[0] >= 0 and box[1] >= 0 and box[2] <= width and box[3] <= height


# -- tests ----------------------------------------------------------------------------------------


def test_every_element_the_viewer_script_looks_up_is_on_the_page(tmp_path):
    """The script finds its controls by id: each id it asks for is on a viewer page, once."""
    from standoff.bots.random_bot import RandomBot
    from standoff.server.local import play_match
    from standoff.tournaments.html_assets import VIEWER_JS

    record = play_match(ST, ST.rules(), {"p1": RandomBot(1), "p2": RandomBot(2)}, 3, timing=False).record
    page = _viewer_page("Match x", "", "", with_story(ST, record), {"p1": "random", "p2": "random"})
    wanted = set(re.findall(r'getElementById\("([^"]+)"\)', VIEWER_JS)) - {"meta", "timeline", "board-data", "as-text"}
    assert {"chapter", "play", "speed", "ticks", "side-board", "chapter-next", "chapter-prev"} <= wanted
    for name in wanted:
        assert len(re.findall(rf'\bid="{re.escape(name)}"', page)) == 1, name
    assert '<body class="viewer-page">' in page
    track = json.loads(unescape(re.search(r'id="track-p1" data-track="p1">(.*?)</script>', page).group(1)))
    assert track["chapters"][0] == ["Turn 1", 1] and track["story"]


def test_the_frame_fits_navigates_and_nothing_overflows(frame_pages, tmp_path, tmp_path_factory):
    """At 1366x768 (the viewport, and the window: a 1366x625 viewport) the board, the decision,
    both hands and the last log line are inside the window and the page does not scroll; at
    800x900 and 1920x1080 too nothing overflows its section, banner or control and the page has no
    horizontal scroll; the map zooms (text readable at 800 px), pans and keeps its zoom from frame
    to frame; chapters, keys, the fragment and autoplay move the viewer."""
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed: the pages were not loaded in a browser")
    shots = _screenshot_dir(tmp_path_factory)
    ts_record = frame_pages["ts"][1]
    mid = [m["n"] for m in ts_record.moves if m["role"] != "chance"][len(ts_record.moves) // 4]
    headline = next(m["n"] for m in ts_record.moves if m["step"] == "headline")
    targets = [("ts", f"#seat=omniscient&n={mid}"), ("ts", f"#seat=ussr&n={mid}"), ("st", "#n=30"),
               ("ts-story", f"#n={mid}"), ("st-story", "#n=40"), ("long", ""), ("ts", f"#seat=us&n={headline}")]
    # At 1366x768 every page; at the other sizes (overflow, one column, a larger board) a page of
    # each kind is enough, and keeps the test's Chromium time down (CI runs it on two cores).
    others = {("ts", f"#seat=omniscient&n={mid}"), ("st-story", "#n=40"), ("long", "")}
    results = {}
    for case, viewport in CASES:
        folder = tmp_path / case.replace(" ", "-")
        folder.mkdir()
        window = _window_for(browser, viewport, folder) if viewport else "1366,768"
        jobs = []
        shown = [t for t in targets if case.startswith("1366") or t in others]
        for label, fragment in shown:
            name = f"frame-{label}-{fragment[1:].replace('&', '-').replace('=', '')}.png"
            jobs.append((probed(frame_pages[label][0], folder).resolve().as_uri() + fragment,
                         shots / name if viewport is None else None))  # the 1366x768 window's screenshots
        for (label, fragment), dom in zip(shown, _browse(browser, jobs, folder, size=window)):
            results[(case, label, fragment)] = read_probe(dom)
    for (case, label, fragment), got in results.items():
        where = (case, label, fragment)
        first = got["first"]
        width, height = first["inner"]
        viewport = dict(CASES)[case]
        assert viewport is None or [width, height] == list(viewport), where
        # no horizontal scroll, nothing sticks out of its box, at every size
        assert first["scroll"][0] <= first["client"][0], where
        for measured in (first, got.get("zoomedMeasure") or first, got["atFollowed"]):
            assert measured["overflow"] == [], (where, measured["overflow"])
        if got.get("text"):
            assert got["text"]["pre"] and got["text"]["overflow"] == [], (where, got["text"])
            assert got["text"]["scroll"][0] <= got["text"]["scroll"][1], where
        if width == 1366:  # everything that matters in the window, no vertical scroll either
            assert first["scroll"][1] <= height, (where, first["scroll"])
            for part in ("board", "decision", "log", "lastLine"):
                assert inside(first[part], width, height), (where, part, first[part])
            assert len(first["hands"]) == 2 and all(inside(b, width, height) for b in first["hands"].values()), where
            last, log = first["lastLine"], first["log"]
            assert log[1] <= last[1] and last[3] <= log[3] + 1, (where, "the last log line is scrolled into view")
            board, side = first["board"], first["decision"]
            assert board[2] <= side[0] and board[3] - board[1] > 250, (where, "two columns, a board of some size")
            after = got["atFollowed"]
            assert after["scroll"][1] <= height and inside(after["lastLine"], width, height), where
        if width == 1920 and label.startswith("ts"):
            assert first["board"][3] - first["board"][1] > 600, where  # the board grows with the window
        # the map: readable once zoomed in, pans, keeps its zoom on the next frame, fits back
        if label.startswith("ts"):
            zoom = got["zoom"]
            assert zoom["zoomed"] >= 1.9 * zoom["fit"] and zoom["pct"] == "225%", (where, zoom)
            if width == 800:
                assert zoom["fit"] < 7 and zoom["zoomed"] >= 9, (where, zoom)
            assert zoom["panned"][0] != zoom["panned"][1] and zoom["kept"] == zoom["panned"][1], (where, zoom)
            assert zoom["fitted"] == zoom["box"], where
            if width != 800:  # the wheel zooms in the two-column layout
                assert zoom["wheel"] != zoom["fitted"], (where, zoom)
            assert "Japan \u2192" in got["wrapLabels"] and not any("japan" in t for t in got["wrapLabels"]), got["wrapLabels"]
        if fragment.startswith("#seat=us&n="):  # the headline phase is named so, not "AR 0"
            assert got["steps"][0][1]["phase"] == "Headline", got["steps"][0]
        seat = re.search(r"seat=(\w+)", fragment).group(1) if "seat=" in fragment else "omniscient"
        _check_navigation(where, got, frame_pages[label][1], _track(frame_pages[label][0], seat))
    print(f"\nframe screenshots (a 1366x768 window): {shots}")


def _window_for(browser: str, viewport: tuple[int, int], folder: Path) -> str:
    """The ``--window-size`` whose page viewport is ``viewport``: headless Chromium's window has a
    frame (a 1366x768 window leaves the page 1366x625, as a browser on a laptop of that screen does)."""
    page = folder / "viewport.html"
    page.write_text("<!DOCTYPE html><html><body><script>document.body.setAttribute('data-inner', "
                    "innerWidth + ',' + innerHeight);</script></body></html>", encoding="utf-8")
    window = f"{viewport[0]},{viewport[1]}"
    dom = _browse(browser, [(page.resolve().as_uri(), None)], folder, size=window)[0]
    inner = [int(v) for v in re.search(r'data-inner="(\d+),(\d+)"', dom).groups()]
    return ",".join(str(2 * w - i) for w, i in zip(viewport, inner))


def _track(page: Path, seat: str) -> dict[str, Any]:
    """The track ``seat`` of a page, as its JSON island holds it."""
    text = page.read_text(encoding="utf-8")
    found = re.search(rf'<script type="application/json" id="track-{re.escape(seat)}"[^>]*>(.*?)</script>', text, re.S)
    return json.loads(found.group(1))


def _check_navigation(where, got: dict[str, Any], record: Any, track: dict[str, Any]) -> None:
    """The keys, the chapter list, the fragment and autoplay, against the record and the track
    the probe started on (its chapters and story, when it has them)."""
    states = got["steps"]
    start = states[0][1]
    timeline = [m["n"] for m in record.moves if m["role"] != "chance"]
    # ← and → step one decision; Home and End go to the ends; the fragment follows
    by = {name: s for name, s in states}
    assert by["ArrowRight"]["pos"] == min(by["PageDown"]["pos"] + 1, len(timeline)), where
    assert by["ArrowLeft"]["pos"] == by["ArrowRight"]["pos"] - 1, where
    assert by["Home"]["pos"] == 0 and by["Home"]["hash"].endswith(f"&n={timeline[0]}"), where
    assert by["End"]["pos"] == len(timeline) and by["End"]["hash"].endswith("&n=end"), where
    for name, s in states:
        n = "end" if s["pos"] == len(timeline) else timeline[s["pos"]]
        assert s["hash"].endswith(f"&n={n}"), (where, name, s)
    chapters = [c[0] for c in track.get("chapters") or []]
    story = track.get("story") or []
    if chapters:  # ] and [ jump between the chapters' first frames, the select too; ticks on the slider
        assert got["chapters"][:len(chapters)] == chapters and got["ticks"] >= 2 and got["tickLabels"], where
        first, second, back = states[1][1], states[2][1], states[3][1]
        assert start["pos"] < first["pos"] < second["pos"] and back["pos"] == first["pos"], (where, states[:4])
        assert int(first["chapter"]) > int(start["chapter"]) and first["board"] and first["log"], where
        assert chapters[int(by["select"]["chapter"])] in (chapters[-2], chapters[-1]), where
        # the story's claims and scorings are listed too: a jump to the frame right after each
        moments = [line[0] for line in story if line[2] in ("claim", "scoring")]
        assert len(got["moments"]) == len(moments), where
        if moments:
            after = next((i for i, m in enumerate(timeline) if m > moments[0]), len(timeline))
            assert by["moment"]["pos"] == after, (where, by["moment"])
        if "phase" in start and start["phase"] is not None:  # the tracks name the chapter's phase
            for name, s in states:
                if int(s["chapter"]) >= 0:
                    assert s["phase"] == chapters[int(s["chapter"])].split(" \u00b7 ")[-1], (where, name, s)
    else:  # no chapters: the select is disabled, ] goes to the end
        assert got["chapters"] == ["no chapters"] and by["]"]["pos"] == len(timeline), where
    if story:  # the log tells the story: the titles of the chapters begun, the lines before the frame
        shown_n = timeline[start["pos"]] if start["pos"] < len(timeline) else float("inf")
        assert not chapters or got["storyTitles"][0] == chapters[0], where
        assert got["details"] == sum(len(line[4]) for line in story if len(line) > 4 and line[0] < shown_n), where
    # the fragment, changed by hand, moves the viewer and picks the seat
    followed = got["followed"]
    assert followed["got"]["pos"] == followed["want"][1] and followed["checked"] == followed["want"][0], (where, followed)
    # autoplay at 4 decisions a second advances; space pauses it
    play = got["play"]
    assert play["pressed"] == "true" and play["after"] >= play["from"] + 3, (where, play)
    n = "end" if play["after"] == len(timeline) else timeline[play["after"]]
    assert play["hash"].endswith(f"&n={n}") and play["paused"] == "false" and play["still"], (where, play)
