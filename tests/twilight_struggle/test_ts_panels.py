"""Twilight Struggle's panels on the match pages (issue 44, item 4): region scoring now and at
final scoring (``HtmlBoard.panels``: html_board.panels, from the view each frame shows), the final
scoring itself at the end of a game that reached it, and every card's text on hover (the page's
#board-data carries each card's name, Ops, side, period and summary).

The oracle of the numbers is the engine: its final scoring (turn.final_scoring) run on a copy of
the state a frame shows, and the record's outcome at the end."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess
from html import unescape

import pytest

from standoff.server.core.record import replay_steps, start_state
from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.html_board import html_board, layout, panels, table_view
from standoff.server.games.twilight_struggle.spec import GAME
from standoff.server.games.twilight_struggle.turn import final_scoring
from standoff.server.local import play_match
from standoff.server.plugins import load_registry
from standoff.tournaments.html import _viewer_page, match_tracks
from standoff.tournaments.html_tracks import apply_delta


@functools.cache
def result():
    """ts-heuristic self-play, seed 7: ten turns, ended by final scoring (US by 17 VP)."""
    registry = load_registry(entry_points=False)
    bots = {role: registry.make_bot("ts-heuristic", 7 * 7 + i, GAME.name) for i, role in enumerate(("ussr", "us"))}
    return play_match(GAME, GAME.rules(), bots, 7)


def states():
    """(number of the decision asked, state) for a sample of decisions, then the end."""
    record = result().record
    rules = GAME.rules(record.header.get("ruleset"), record.header.get("options") or {})
    yield 1, start_state(GAME, rules, record.header)
    for step in replay_steps(GAME, record):
        if step.number % 37 == 0 or step.number == len(record.moves):
            yield step.number + 1, step.state.copy()


def engine_final(state) -> tuple[int, str | None]:
    """The engine's final scoring on this board: (VP it adds, US positive; Europe's winner)."""
    copy = state.copy()
    copy.vp, copy.outcome = 0, None
    final_scoring(copy)
    if copy.outcome is not None and copy.outcome.termination == B.EUROPE_CONTROL:
        return 0, copy.outcome.winner
    return copy.vp, None


def test_the_scoring_panel_is_the_engines_scoring_of_the_board_shown():
    for number, state in states():
        table = panels(table_view(GAME, state))
        for region in M.REGIONS:
            us, ussr, _ = B.score_region(state, region)
            assert (table[region]["us"][4], table[region]["ussr"][4], table[region]["net"]) == (us, ussr, us - ussr)
        net, winner = engine_final(state)
        assert table["final"]["wins"] == winner
        if winner is None:
            assert table["final"]["net"] == net, number
        # the board is public: each seat's panel is the table's
        assert panels(GAME.view(state, "ussr")) == panels(GAME.view(state, "us")) == table


def test_at_the_end_the_panel_is_the_final_scoring_that_was_played():
    record = result().record
    end = next(state for number, state in states() if number == len(record.moves) + 1)
    panel = panels(table_view(GAME, end))
    assert result().outcome.termination == "final_scoring"
    assert panel["final"]["done"] is True and panel["final"]["vp"] == end.vp == 17
    assert sum(panel[r]["net"] for r in M.REGIONS) + (1 if panel["final"]["china"] == "us" else -1) == panel["final"]["net"]
    # mid-game it is what final scoring would give now, and the VP track it would leave
    mid = next(state for number, state in states() if number > 300)
    now = panels(GAME.view(mid, "us"))
    assert now["final"]["done"] is False and now["final"]["vp"] == mid.vp + now["final"]["net"]


def test_every_frame_of_every_track_ships_its_panels():
    record = result().record
    tracks = match_tracks(GAME, record)["tracks"]
    assert html_board(GAME).panels is panels
    for name, track in tracks.items():
        current, views = None, None
        for frame in track["frames"]:
            if "x" in frame:
                current = apply_delta(current, frame["x"])
            views = apply_delta(views, frame["v"]) if "v" in frame else views
            assert current == panels(views), name


def test_board_data_gives_every_card_its_text():
    cards, texts = layout()["cards"], layout()["texts"]
    assert set(cards) == set(texts) == {c.id for c in CD.CARDS}
    for card in CD.CARDS:
        name, ops, side, _, _, scoring = cards[card.id]
        period, summary = texts[card.id]
        assert (name, ops, side, bool(scoring), period) == (card.name, card.ops, card.side, card.scoring, card.period)
        assert summary == card.summary and len(summary) > 20


# -- in headless Chromium ------------------------------------------------------------------------

PROBE = """<script>
setTimeout(function () {
  var out = {};
  var box = document.getElementById("ts-scoring");
  out.done = box && box.getAttribute("data-done");
  out.rows = Array.prototype.map.call(document.querySelectorAll("#ts-scoring tr[data-region]"),
    function (r) { return [r.getAttribute("data-region"), r.getAttribute("data-net"), r.textContent]; });
  out.tips = [];
  ["#ts-tracks .tscard[data-card]", ".ts-hand .tscard[data-card]:not([data-card='?'])", "#ts-effects [data-card]",
   "details.pile .tscard[data-card]"].forEach(function (sel) {
    var card = document.querySelector(sel);
    if (!card) { return; }
    card.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
    var tip = document.getElementById("ts-tip");
    out.tips.push([sel, card.getAttribute("data-card"), tip && !tip.hasAttribute("hidden"), tip && tip.textContent,
                   card.getAttribute("title")]);
  });
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
}, 500);
</script>"""


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def _probe(browser, page, fragment, tmp_path) -> dict:
    run = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                          "--virtual-time-budget=4000", "--window-size=1366,768", f"--user-data-dir={tmp_path / 'p'}",
                          "--dump-dom", page.resolve().as_uri() + fragment],
                         capture_output=True, timeout=120, env={**os.environ, "LANG": "C.UTF-8"})
    dom = run.stdout.decode("utf-8", "replace")
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom, flags=re.S)
    assert found, run.stderr.decode("utf-8", "replace")[-2000:]
    return json.loads(unescape(found.group(1)))


def test_the_panel_and_card_text_in_headless_chromium(tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (no `chromium` or `chromium-browser` on PATH): not loaded in a browser")
    record = result().record
    page = tmp_path / "ts.html"
    html = _viewer_page("Match ts", "", "ts-heuristic vs ts-heuristic", match_tracks(GAME, record),
                        {"ussr": "ts-heuristic", "us": "ts-heuristic"})
    page.write_text(html.replace("</body>", PROBE + "</body>"), encoding="utf-8")
    end = _probe(browser, page, "#n=end", tmp_path)
    final = panels(table_view(GAME, next(s for n, s in states() if n == len(record.moves) + 1)))
    assert end["done"] == "1"
    rows = {region: (net, text) for region, net, text in end["rows"]}
    for region in M.REGIONS:
        assert rows[region][0] == str(final[region]["net"])
    assert rows["final"][0] == str(final["final"]["net"]) and "US +17" in rows["final"][1]
    mid = _probe(browser, page, "#seat=us&n=400", tmp_path)
    assert mid["done"] == "0" and len([r for r in mid["rows"] if r[0] in M.REGIONS]) == 6
    assert len(mid["tips"]) >= 3
    for _, card, shown, text, title in mid["tips"] + end["tips"]:
        summary = CD.CARD_BY_ID[card].summary
        assert shown and CD.CARD_BY_ID[card].name in text and summary in text, card
        assert summary in title
