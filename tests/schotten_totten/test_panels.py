"""Schotten Totten's flag panels (issue 44, item 4): the formation each side of each flag makes
(or the best it could still make), the proof of each claim, who could claim a flag now; shipped
in the report's frames as ``x`` and drawn under the cards, the proof on hover.

Oracles: the engine's own formation strength (:func:`formations.strength`) and claim rule
(:func:`board.claimable_flags`, what the referee offers), and the rule that a panel tells a seat
nothing its view does not (the same panels for every seat and for the whole table).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from standoff.server.core.record import Record, replay_steps
from standoff.server.games.schotten_totten.board import claimable_flags
from standoff.server.games.schotten_totten.formations import RANK_NAMES, strength
from standoff.server.local import play_match
from standoff.server.plugins import game_spec, load_registry
from standoff.tournaments.html import _viewer_page, match_tracks
from standoff.tournaments.html_tracks import apply_delta

SPEC = game_spec("schotten-totten")
GAME = SPEC.game
PANELS = SPEC.html_board.panels


def _record(ruleset: str, bots: tuple[str, ...], seed: int) -> Record:
    registry = load_registry(entry_points=False)
    rules = GAME.rules(ruleset)
    lines: list[dict] = []
    play_match(GAME, rules, {r: registry.make_bot(b, seed + i, GAME.name) for i, (r, b) in
                             enumerate(zip(rules.roles, bots, strict=True))}, seed, on_line=lines.append)
    return Record(lines[0], lines[1:-1], lines[-1])


@pytest.fixture(scope="module")
def records():
    return [_record("battle_line", ("greedy", "probability"), 7), _record("battle_line", ("random", "random"), 204),
            _record("classic", ("greedy", "random"), 2), _record("three_player", ("random",) * 3, 2)]


def test_panels_name_each_sides_formation_and_who_could_claim_as_the_engine_decides(records):
    checked = claims = 0
    for record in records:
        for step in replay_steps(GAME, record):
            state = step.state
            if step.number % 3:
                continue
            roles = state.rules.roles
            views = [GAME.view(state, role) for role in roles]
            panels = PANELS(views[0])
            # public: every seat and the whole table get the same panels
            assert all(PANELS(view) == panels for view in views[1:])
            assert PANELS(SPEC.html_board.table(state)) == panels
            n = len(roles)
            for f, item in enumerate(panels["flags"]):
                for r, role in enumerate(roles):
                    side = state.sides[f * n + r]
                    shown = item["sides"][role]
                    if not side:
                        assert shown == {}
                    elif state.completed_at(f, r) is not None:
                        rank, total = strength(side, state.fog[f] >= 0)
                        assert shown == {"f": RANK_NAMES[rank], "s": total, "c": True}
                    else:
                        assert shown["c"] is False and (shown["f"] is None or shown["f"] in RANK_NAMES.values())
                    checked += 1
                # "can claim": what the engine would accept from that role now
                can = {role for r, role in enumerate(roles) if f in claimable_flags(state, r)}
                assert set(item.get("can", [])) == can, (step.number, f + 1, item)
                if state.claimed[f] >= 0:
                    claims += 1
                    winner = roles[state.claimed[f]]
                    proof = item["proof"]
                    assert any(line.startswith(f"{winner}: ") and line.endswith(", complete") for line in proof)
                    assert len([line for line in proof if re.match(r"p\d: ", line)]) == n
    assert checked > 5000 and claims > 100


def test_an_incomplete_side_shows_the_best_it_could_still_make():
    """Seed 7, p1's view once p2 claimed flag 3 (decision 81): p1's Orange 8 and 10 could still
    become a wedge with Orange 9, which is off the table."""
    record = _record("battle_line", ("greedy", "probability"), 7)
    for step in replay_steps(GAME, record):
        if step.number == 81:
            panels = PANELS(GAME.view(step.state, "p1"))
            break
    flag3 = panels["flags"][2]
    assert flag3["sides"]["p2"] == {"f": "wedge", "s": 27, "c": True}
    assert flag3["sides"]["p1"] == {"f": "wedge", "s": 27, "c": False, "w": ["Orange 9"]}
    assert flag3["can"] == ["p2"] and "proof" not in flag3


def test_report_frames_carry_the_panels_of_their_view(records):
    record = records[0]
    data = match_tracks(GAME, record)
    for name, track in data["tracks"].items():
        panels, shown = None, 0
        views = None
        for frame in track["frames"]:
            if "x" in frame:
                panels = apply_delta(panels, frame["x"])
                shown += 1
            views = apply_delta(views, frame["v"]) if "v" in frame else views
            assert panels == PANELS(views), name
        assert 0 < shown < len(track["frames"])  # deltas: a frame without a change sends none


def _chromium() -> str | None:
    for name in ("chromium", "chromium-browser"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def test_the_page_names_formations_where_the_cards_lie_and_proves_claims_on_hover(records, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (no `chromium` or `chromium-browser` on PATH): the page was not loaded")
    record = records[0]
    path = tmp_path / "st.html"
    path.write_text(_viewer_page("st", "", "", match_tracks(GAME, record), {}), encoding="utf-8")
    # the frame after p1's claims of flags 6 and 7... the end of the match: every claim made
    profile = tmp_path / "profile"
    process = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--virtual-time-budget=3000",
         "--window-size=1366,768", f"--user-data-dir={profile}", "--dump-dom", path.resolve().as_uri() + "#seat=p1&n=end"],
        capture_output=True, timeout=120, env={**os.environ, "LANG": "C.UTF-8"})
    dom = process.stdout.decode("utf-8", "replace")
    assert "</html>" in dom, process.stderr.decode("utf-8", "replace")[-2000:]
    rows = re.findall(r"<tr>(.*?)</tr>", dom.split('<table class="st">', 1)[1].split("</table>", 1)[0], re.S)[1:]
    assert len(rows) == 9
    final = list(replay_steps(GAME, record))[-1].state
    for f, row in enumerate(rows):
        cells = re.findall(r"<td([^>]*)>(.*?)</td>", row, re.S)
        for role, (attrs, cell) in zip(("p1", "p2"), (cells[0], cells[2])):
            side = final.sides[f * 2 + (role == "p2")]
            if final.completed_at(f, role == "p2") is not None:
                rank, total = strength(side, final.fog[f] >= 0)
                assert f'<div class="fm done">{RANK_NAMES[rank]} {total}</div>' in cell, (f + 1, role, cell)
        attrs, mid = cells[1]
        if final.claimed[f] >= 0:
            winner = ("p1", "p2")[final.claimed[f]]
            title = re.search(r'title="([^"]*)"', attrs).group(1)
            assert title.startswith(f"{winner} won flag {f + 1}:") and f"{winner}: " in title, title
            assert "proof" in mid
