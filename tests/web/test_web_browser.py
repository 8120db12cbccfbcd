"""The web face in headless Chromium (marker ``browser``; skipped without Chromium): the live page
of a running server loads and draws the game's board, the board advances as the match is played
(its event stream), and the standings change when the match ends; the front page follows too.

The page stays open while the test plays the match's remote seat (tests/kits/cdp.py: the
DevTools protocol on a pipe), so what is checked is the page changing, not a page loaded twice.
``STANDOFF_SCREENSHOTS=DIR`` keeps a screenshot of the live page (1366x768).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from kits.cdp import Browser
from kits.web import PacedSeat, patient, web_server


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        if found := shutil.which(name):
            return found
    return None


@pytest.fixture
def browser(tmp_path):
    binary = _chromium()
    if binary is None:
        pytest.skip("chromium is not installed (no `chromium` or `chromium-browser` on PATH): the live pages "
                    "were not loaded in a browser")
    opened = Browser(binary, tmp_path / "profile")
    yield opened
    opened.close()
    errors = [line for line in opened.stderr if ":CONSOLE" in line or "Uncaught" in line]
    assert not errors, errors


def test_the_live_page_advances_and_the_standings_change_when_the_match_ends(tmp_path, browser):
    server, url = web_server(tmp_path / "data")
    try:
        seat = PacedSeat(server, "watched", seed=2)
        match_id = server.start_match(["remote:watched", "greedy"], seed=11, **patient()).match_id
        seat.play(2)
        assert seat.wait_for_decision() is not None
        browser.open(url + f"matches/{match_id}")
        first = int(browser.wait_for("document.body && document.body.getAttribute('data-n')"))
        assert browser.evaluate("document.querySelector('#live-board table.st') !== null")  # the game's board
        # a spectator is no seat: no hand is "this seat"'s, the seat's own is face down too
        assert "this seat" not in browser.evaluate("document.getElementById('live').parentNode.textContent")
        # the hands sit beside the board (the side column), face down
        assert browser.evaluate("document.querySelectorAll('#live-side-board .hand .card').length") >= 7
        assert browser.evaluate("document.body.getAttribute('data-over')") == "false"
        browser.wait_for("document.body.getAttribute('data-standings') !== null || "
                         "document.querySelector('#live-standings p') !== null")
        assert "watched" not in (browser.evaluate("document.getElementById('live-standings').textContent") or "")
        if shots := os.environ.get("STANDOFF_SCREENSHOTS"):
            Path(shots).mkdir(parents=True, exist_ok=True)
            browser.screenshot(Path(shots) / "live-st.png")
        # the seat plays on: the open page's board follows
        seat.play(3)
        seat.wait_for_decision()
        later = int(browser.wait_for(f"Number(document.body.getAttribute('data-n')) > {first} && "
                                     "document.body.getAttribute('data-n')"))
        assert later > first
        assert int(browser.evaluate("document.body.getAttribute('data-first-n')")) == first
        # to the end: the page says so, links the match's page and shows the new standings
        seat.finish()
        browser.wait_for("document.body.getAttribute('data-over') === 'true'")
        rows = json.loads(browser.wait_for("(document.body.getAttribute('data-standings') || '').indexOf('watched') >= 0"
                                           " && document.body.getAttribute('data-standings')"))
        assert {row["bot"]: row["played"] for row in rows} == {"remote:watched": 1, "greedy": 1}
        assert browser.evaluate("document.getElementById('match-page').getAttribute('href')") == f"/matches/{match_id}"
        seat.close()
        # the front page, open while a match is played and ends, shows both
        seat = PacedSeat(server, "watched", seed=3)
        second = server.start_match(["greedy", "remote:watched"], seed=12, **patient()).match_id
        assert seat.wait_for_decision() is not None
        browser.open(url)
        browser.wait_for(f"document.getElementById('playing') && "
                         f"document.getElementById('playing').textContent.indexOf('{second}') >= 0")
        seat.finish()
        browser.wait_for(f"document.getElementById('playing-empty') && "
                         f"document.getElementById('finished').textContent.indexOf('{second}') >= 0")
        played = browser.evaluate("Array.prototype.map.call(document.querySelectorAll('#standings tbody tr'), "
                                  "function (r) { return r.children[1].textContent + '=' + r.children[2].textContent; })")
        assert sorted(played) == ["greedy=2", "remote:watched=2"]
        seat.close()
    finally:
        server.stop()
