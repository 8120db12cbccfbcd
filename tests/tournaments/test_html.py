"""The static HTML report of a run folder (standoff.tournaments.html): structure, links, no
external resources, per-seat JSON that hides the other seat's cards, and (when Chromium is
installed) every page loaded in headless Chromium without console errors."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from standoff.server.core.record import replay_steps
from standoff.server.games import get_game
from standoff.server.games.schotten_totten.cards import card_name
from standoff.server.records import read_record
from standoff.tournaments.config import parse_config
from standoff.server.local import bot_seed, play_match
from standoff.server.plugins import load_registry
from standoff.tournaments.html import (
    ReportError,
    apply_delta,
    frame_options,
    match_tracks,
    omniscient_boards,
    page_name,
    write_report,
)
from standoff.tournaments.report import read_results
from standoff.tournaments.runner import run_tournament

GAME = get_game("schotten-totten")


def run(folder: Path, name: str, **extra):
    config = parse_config(
        {"name": name, "game": "schotten-totten", "entrants": ["greedy", "random"], "games_per_pairing": 4,
         "output_dir": str(folder), **extra},
        source="t",
    )
    return run_tournament(config)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A 4-game greedy-vs-random run and its report: (run dir, index path)."""
    folder = tmp_path_factory.mktemp("html")
    summary = run(folder, "rr")
    assert summary.complete and len(summary.results) == 4
    index = write_report(summary.run_dir)
    return summary.run_dir, index


class Page(HTMLParser):
    """Collects links, resources, tables, scripts and JSON islands of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.resources: list[tuple[str, str]] = []
        self.tags: list[str] = []
        self.ids: set[str] = set()
        self.islands: dict[str, str] = {}
        self.stack: list[str] = []
        self._island: str | None = None
        self._text: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append(tag)
        if a.get("id"):
            assert a["id"] not in self.ids, f"duplicate id {a['id']}"
            self.ids.add(a["id"])
        for name, value in attrs:
            if value is None:
                continue
            if name == "href" and tag != "link":
                self.links.append(value)
            elif name in ("href", "src", "xlink:href", "action", "data", "poster", "srcset"):
                self.resources.append((tag, value))
        if tag == "script" and a.get("type") == "application/json":
            self._island = a.get("id", "")
            self._text = []

    def handle_endtag(self, tag):
        if tag == "script" and self._island is not None:
            self.islands[self._island] = "".join(self._text)
            self._island = None

    def handle_data(self, data):
        if self._island is not None:
            self._text.append(data)
        else:
            self.text.append(data)


def parse(path: Path) -> Page:
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def pages(index: Path) -> list[Path]:
    return [index] + sorted((index.parent / "matches").glob("*.html"))


# -- structure ----------------------------------------------------------------------------------------


def test_every_page_parses_links_resolve_and_nothing_is_external(report):
    run_dir, index = report
    assert index == run_dir / "report" / "index.html"
    all_pages = pages(index)
    assert len(all_pages) == 5  # the index and one page per match
    for path in all_pages:
        text = path.read_text(encoding="utf-8")
        assert text.startswith("<!DOCTYPE html>") and text.rstrip().endswith("</html>")
        page = parse(path)
        assert "html" in page.tags and "body" in page.tags
        for link in page.links + [src for _, src in page.resources]:
            assert not re.match(r"^(https?:)?//", link), (path.name, link)
            parts = urlsplit(link)
            assert parts.scheme == "", (path.name, link)  # no http(s):, data:, javascript:, file:
            if parts.path:
                target = (path.parent / unquote(parts.path)).resolve()
                assert target.is_file(), (path.name, link)
        assert not [r for r in page.resources if r[0] in ("script", "link", "img", "iframe")], page.resources
        assert "http://" not in text.replace('"http://www.w3.org', "") and "https://" not in text
        assert len(text) < 400_000, (path.name, len(text))  # pages stay small


def test_index_lists_standings_charts_and_every_match(report):
    run_dir, index = report
    text = index.read_text(encoding="utf-8")
    page = parse(index)
    standings = text[text.index('<table id="standings">') : text.index("</table>", text.index('<table id="standings">'))]
    assert ">greedy<" in standings and ">random<" in standings
    assert "\u00b1 95%" in standings and "interval" in standings
    assert text.count("<svg") >= 3  # intervals, Elo over time, terminations
    assert text.count("<polyline") == 2  # one Elo line per entrant
    assert "Likelihood of superiority" in text and "Crosstable" in text and "Terminations" in text
    assert "Faults per bot" in text and 'id="faults-none"' in text
    results = read_results(run_dir / "results.jsonl")
    for result in results:
        assert f"matches/{page_name(result.match_id)}" in page.links
    ratings = json.loads((run_dir / "ratings.json").read_text())
    for term, count in ratings["terminations"].items():
        assert f"{term}: {count}" in text


def test_the_index_counts_player_decisions_as_the_match_page_does(report):
    """The matches table's "decisions" column counts the players' decisions (issue 44), not the
    deals: the number of decisions the match page steps through (its timeline, the end aside)."""
    run_dir, index = report
    text = index.read_text(encoding="utf-8")
    rows = re.findall(r'<a href="matches/([^"]+)\.html">[^<]*</a></td>.*?<td>(\d+)</td><td class="text">',
                      text[text.index('<table id="matches">'):])
    assert len(rows) == 4
    for stem, shown in rows:
        record = read_record(run_dir / "records" / f"{unquote(stem)}.jsonl")
        players = sum(1 for m in record.moves if m["role"] != "chance")
        assert players < len(record.moves) and int(shown) == players
        timeline = json.loads(parse(index.parent / "matches" / f"{unquote(stem)}.html").islands["timeline"])
        assert int(shown) == len(timeline) - 1


def test_match_pages_embed_a_viewer_with_per_seat_tracks(report):
    run_dir, index = report
    for path in pages(index)[1:]:
        page = parse(path)
        assert {"viewer", "board", "decision", "log", "slider", "timeline", "meta"} <= page.ids
        assert {"track-p1", "track-p2", "track-omniscient"} <= set(page.islands)
        timeline = json.loads(page.islands["timeline"])
        meta = json.loads(page.islands["meta"])
        record = read_record(run_dir / "records" / (path.stem + ".jsonl"))
        players = [m for m in record.moves if m["role"] != "chance"]
        assert [t["n"] for t in timeline[:-1]] == [m["n"] for m in players]  # player decisions only
        assert timeline[-1] == {"end": True}
        assert meta["decisions"] == len(players) and meta["game"] == "schotten-totten"  # chance steps aside
        omniscient = json.loads(page.islands["track-omniscient"])
        boards = omniscient_boards(omniscient)
        assert len(boards) == len(timeline) and all("flag 9:" in b for b in boards)
        assert "p1 hand (" in boards[0] and "p2 hand (" in boards[0]
        for seat in ("p1", "p2"):
            track = json.loads(page.islands[f"track-{seat}"])
            assert len(track["frames"]) == len(timeline)
            assert all("b" not in f for f in track["frames"])  # no omniscient boards in a seat's track
            view = None
            for t, frame in zip(timeline, track["frames"]):
                view = apply_delta(view, frame["v"])
                assert view["role"] == seat and "history" not in view
                assert ("o" in frame) == (t.get("r") == seat)  # options only for its own decisions


def test_views_round_trip_through_deltas(report):
    """The delta-encoded views are exactly the seat's views at each player decision."""
    run_dir, index = report
    path = pages(index)[1]
    page = parse(path)
    record = read_record(run_dir / "records" / (path.stem + ".jsonl"))
    timeline = json.loads(page.islands["timeline"])
    track = json.loads(page.islands["track-p2"])
    wanted = {t["n"] for t in timeline[:-1]}
    rules = GAME.rules(record.header["ruleset"], record.header["options"])
    previous = GAME.new_state(rules)
    expected = []
    for step in replay_steps(GAME, record):
        if step.number in wanted:
            expected.append(previous)
        previous = step.state.copy()
    view = None
    for state, frame in zip(expected, track["frames"]):
        view = apply_delta(view, frame["v"])
        full = GAME.view(state, "p2")
        full.pop("history"), full.pop("history_from")
        assert view == full


def hidden_from(record, seat: str) -> list[set[str]]:
    """Cards hidden from ``seat`` after each decision (index 0: before the first): the other
    hand minus the cards ``seat`` knows there (Scout) or put back on a deck itself."""
    rules = GAME.rules(record.header.get("ruleset"), record.header.get("options"))
    me = rules.roles.index(seat)

    def hidden(state, returned):
        cards = set()
        for r, hand in enumerate(state.hands):
            if r != me:
                cards |= {card_name(c) for c in hand}
        return cards - {card_name(c) for c in state.known[me]} - returned

    result = [hidden(GAME.new_state(rules), set())]
    returned: set[str] = set()
    for step in replay_steps(GAME, record):
        if step.decision.role == seat and step.decision.step == "scout_return":
            returned.add(step.option.key.removeprefix("card:"))
        result.append(hidden(step.state, returned))
    return result


def named(text: str, name: str) -> bool:
    """Whether plain ``text`` names card ``name`` (``red-1`` never matches inside ``red-10``)."""
    return re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text) is not None


def in_json(text: str, name: str) -> bool:
    """Whether JSON ``text`` holds card ``name`` as a value (``"red-1"`` or ``"card:red-1"``;
    never the ``"fog"``/``"mud"`` keys of a flag)."""
    return re.search(r'[":]' + re.escape(name) + r'"(?!\s*:)', text) is not None


@pytest.mark.parametrize("seat", ["p1", "p2"])
def test_a_seats_json_never_holds_the_other_seats_hidden_cards(report, seat):
    run_dir, index = report
    checked = 0
    for path in pages(index)[1:]:
        page = parse(path)
        record = read_record(run_dir / "records" / (path.stem + ".jsonl"))
        hidden = hidden_from(record, seat)
        timeline = json.loads(page.islands["timeline"])
        track = json.loads(page.islands[f"track-{seat}"])
        view = None
        for t, frame in zip(timeline, track["frames"]):
            view = apply_delta(view, frame["v"])
            n = len(record.moves) if t.get("end") else t["n"]
            before = hidden[n] if t.get("end") else hidden[n - 1]
            text = json.dumps({"view": view, "delta": frame["v"], "options": frame.get("o"), "prompt": frame.get("p")})
            for name in before:
                assert not in_json(text, name), (path.name, seat, n, name)
            for name in hidden[n]:
                assert not named(frame.get("k", ""), name), (path.name, seat, n, name)
            checked += len(before)
        for number, role, step, key in track["log"]:
            for name in hidden[number]:
                assert not named(key, name), (path.name, seat, number, name)
        # the omniscient track on the same page does name them (the check can see a leak)
        omniscient = " ".join(omniscient_boards(json.loads(page.islands["track-omniscient"])))
        assert any(named(omniscient, name) for name in hidden[len(record.moves) // 2])
    assert checked > 1000


def test_three_player_tracks_hold_only_their_own_seats_cards():
    registry = load_registry(entry_points=False)
    rules = GAME.rules("three_player")
    bots = {role: registry.make_bot("random", bot_seed(9, role), GAME.name) for role in rules.roles}
    record = play_match(GAME, rules, bots, 9).record
    data = match_tracks(GAME, record)
    assert set(data["tracks"]) == {*rules.roles, "omniscient"}
    for seat in rules.roles:
        hidden = hidden_from(record, seat)
        track = data["tracks"][seat]
        view = None
        for t, frame in zip(data["timeline"], track["frames"]):
            view = apply_delta(view, frame["v"])
            n = len(record.moves) if t.get("end") else t["n"] - 1
            assert not any(in_json(json.dumps(view), name) for name in hidden[n]), (seat, n)
        assert sorted(view["opponents"]) == sorted(r for r in rules.roles if r != seat)


def test_a_game_the_viewer_does_not_draw_gets_its_own_text_boards():
    """A game registered without html_board (a game plugin): each seat's track holds the text of
    the game's seat board, rendered from that seat's views alone; the omniscient track its
    state board."""
    from standoff.bots.random_bot import RandomBot
    from standoff.sdk import GameSpec, hookimpl
    from standoff.server.games.schotten_totten import SchottenTotten

    class Renamed(SchottenTotten):
        name = "st-text-boards"

    class Plugin:
        @hookimpl
        def standoff_games(self):
            return [GameSpec(Renamed(), seat_board=lambda view: f"{view['role']} holds {' '.join(view['hand'])}",
                             state_board=lambda state: f"everything at {state.number}")]

    registry = load_registry(entry_points=False, extra_plugins=[Plugin()])
    game = registry.game("st-text-boards")
    record = play_match(game, game.rules(), {"p1": RandomBot(1), "p2": RandomBot(2)}, 3, timing=False).record
    data = match_tracks(game, record)
    player_moves = [n for n, m in enumerate(record.moves, 1) if m["role"] != "chance"]
    assert omniscient_boards(data["tracks"]["omniscient"])[-1] == f"everything at {len(record.moves)}"
    for role in ("p1", "p2"):
        track = data["tracks"][role]
        assert all("v" not in frame for frame in track["frames"])
        boards = omniscient_boards(track)
        assert len(boards) == len(player_moves) + 1
        before = next(step.state for step in replay_steps(game, record) if step.number == player_moves[0] - 1)
        assert boards[0] == f"{role} holds {' '.join(game.view(before, role)['hand'])}"  # when first asked
        assert all(b.startswith(f"{role} holds") for b in boards)


def _plugin_game_with_an_html_board(name: str):
    """A game plugin (Schotten Totten's rules renamed) that brings its own HtmlBoard: a script
    drawing a seat's hand and the page's data, a style, data, a whole-table view and a wide board."""
    from standoff.bots.random_bot import RandomBot
    from standoff.sdk import GameSpec, hookimpl
    from standoff.server.boards import HtmlBoard
    from standoff.server.games.schotten_totten import SchottenTotten

    class Renamed(SchottenTotten):
        pass

    Renamed.name = name
    script = """BOARD = function (view, ctx) {
    var hand = view.hands ? Object.keys(view.hands).map(function (r) { return r + ":" + view.hands[r].length; }).join(" ")
      : view.hand.join(" ");
    return h("div", { id: "plugin-board", "data-seat": ctx.seat, "data-turn": String(view.turn),
      "data-label": json("board-data").label, text: hand });
  };"""
    board = HtmlBoard(script=script, style="#plugin-board { color: #123456; }", data=lambda: {"label": "own data"},
                      table=lambda state: {"turn": state.turn, "hands": {"p1": ["x"], "p2": []}, "role": None}, wide=True)

    class Plugin:
        @hookimpl
        def standoff_games(self):
            return [GameSpec(Renamed(), html_board=board)]

    registry = load_registry(entry_points=False, extra_plugins=[Plugin()])
    game = registry.game(name)
    record = play_match(game, game.rules(), {"p1": RandomBot(1), "p2": RandomBot(2)}, 5, timing=False).record
    return game, record


def test_a_plugin_games_html_board_draws_its_pages(tmp_path):
    """A game plugin's own HtmlBoard: the seat tracks carry views (not texts), the omniscient
    track the board's whole-table views, the page its script, style, data and width; and in
    Chromium (when installed) its script draws the board."""
    from standoff.tournaments.html import _viewer_page

    game, record = _plugin_game_with_an_html_board("st-own-html-board")
    data = match_tracks(game, record)
    for role in ("p1", "p2"):
        assert all("v" in frame and "b" not in frame for frame in data["tracks"][role]["frames"])
    omniscient = data["tracks"]["omniscient"]
    view = apply_delta(None, omniscient["frames"][0]["v"])
    assert view["hands"] == {"p1": ["x"], "p2": []} and view["role"] is None
    path = tmp_path / "own.html"
    path.write_text(_viewer_page("own", "", "", data, {}), encoding="utf-8")
    page = parse(path)
    assert json.loads(page.islands["board-data"]) == {"label": "own data"}
    text = path.read_text(encoding="utf-8")
    assert "#plugin-board { color: #123456; }" in text and 'BOARD = function (view, ctx)' in text
    assert '<main class="wide">' in text
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed: the page was not loaded in a browser")
    n = next(i for i, m in enumerate(record.moves, 1) if m["role"] == "p1")
    dom = _browse(browser, [(path.resolve().as_uri() + f"#seat=p1&n={n}", None), (path.resolve().as_uri(), None)],
                  tmp_path)
    seat, whole = (re.search(r'<div id="plugin-board"[^>]*>[^<]*</div>', d).group(0) for d in dom)
    assert 'data-seat="p1"' in seat and 'data-label="own data"' in seat
    assert f'>{" ".join(game.view(states_before(game, record)[n], "p1")["hand"])}<' in seat
    assert 'data-seat="omniscient"' in whole and ">p1:1 p2:0<" in whole


def test_the_report_names_no_game():
    """The report's modules and the generic boards reach every game through its GameSpec: no
    game's name or module in their source (docstrings and comments included)."""
    import standoff.server.boards
    import standoff.tournaments

    folder = Path(standoff.tournaments.__file__).parent
    sources = sorted(folder.glob("html*.py")) + [Path(standoff.server.boards.__file__)]
    words = re.compile(r"schotten|twilight|goofspiel|ts_map|\bts\b|html_ts", re.IGNORECASE)
    found = {path.name: sorted(set(words.findall(path.read_text(encoding="utf-8")))) for path in sources}
    assert len(sources) >= 5 and not any(found.values()), found


def test_series_matches_get_a_page_per_game(tmp_path):
    summary = run(tmp_path, "series", games_per_pairing=2, match={"games": 2})
    index = write_report(summary.run_dir)
    matches = index.parent / "matches"
    for result in summary.results:
        assert len(result.games) == 2
        page = parse(matches / page_name(result.match_id))
        games = [link for link in page.links if link.startswith(result.match_id + "-g")]
        assert games == [f"{result.match_id}-g1.html", f"{result.match_id}-g2.html"]
        for link in games:
            game_page = parse(matches / link)
            assert "track-p1" in game_page.islands and "../index.html" in game_page.links


def test_unplayed_matches_stale_pages_determinism_and_errors(report, tmp_path):
    run_dir, _ = report
    copy = tmp_path / "copy"
    shutil.copytree(run_dir, copy)
    first = {p.name: p.read_bytes() for p in (copy / "report" / "matches").glob("*.html")}
    (copy / "report" / "matches" / "old-match.html").write_text("stale")
    results = (copy / "results.jsonl").read_text().splitlines()
    ghost = json.loads(results[-1])
    ghost.update(index=99, match_id="ghost-1", played=False, winner=None, winner_role=None,
                 scores={"p1": 0.0, "p2": 0.0}, termination="not_played", reason="never connected: remote:ghost")
    (copy / "results.jsonl").write_text("\n".join(results + [json.dumps(ghost)]) + "\n")
    index = write_report(copy)
    matches = index.parent / "matches"
    assert not (matches / "old-match.html").exists()
    assert "not played: never connected: remote:ghost" in (matches / "ghost-1.html").read_text()
    for name, data in first.items():
        if name != page_name(json.loads(results[-1])["match_id"]):  # its "next match" link is new
            assert (matches / name).read_bytes() == data  # the same run folder, the same bytes
    with pytest.raises(ReportError, match="not a folder"):
        write_report(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ReportError, match=r"not a run folder \(no results.jsonl\)"):
        write_report(tmp_path / "empty")
    (copy / "results.jsonl").write_text("garbage\n{}\n")
    with pytest.raises(ReportError, match="line 1"):
        write_report(copy)


# -- in a real browser ----------------------------------------------------------------------------------


def _chromium() -> str | None:
    """The browser (.ci/run installs Debian's package in CI when it is missing)."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-logging=stderr", "--v=0", "--virtual-time-budget=3000", "--window-size=1280,1600",
]

# Chromium's console lines look like "[pid:tid:time:INFO:CONSOLE:12] "message", source: ...".
# Our pages log nothing, so every console line counts as an error; other stderr noise (D-Bus,
# GPU, sandbox warnings) does not.
CONSOLE = re.compile(r":CONSOLE[:(\]]|Uncaught|SyntaxError|ReferenceError|TypeError")


def test_pages_load_in_headless_chromium(report, tmp_path):
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed (no `chromium` or `chromium-browser` on PATH): "
                    "the pages were not loaded in a browser")
    run_dir, index = report
    shots = Path(os.environ["STANDOFF_SCREENSHOTS"]) if os.environ.get("STANDOFF_SCREENSHOTS") else tmp_path / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    targets = [(path, "") for path in pages(index)]
    targets.append((pages(index)[1], "#seat=p1&n=60"))  # a seat's board drawn by the page's script
    jobs = []
    for i, (path, fragment) in enumerate(targets):
        url = path.resolve().as_uri() + fragment
        shot = shots / f"{i:02d}-{path.stem}.png"
        for mode in (f"--screenshot={shot}", "--dump-dom"):
            profile = tmp_path / f"profile-{i}-{'dom' if mode == '--dump-dom' else 'shot'}"
            jobs.append((path, fragment, mode, shot, [browser, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", mode, url]))

    def load(job):
        command = job[-1]
        return subprocess.run(command, capture_output=True, cwd=tmp_path, timeout=120,
                              env={**os.environ, "LANG": "C.UTF-8"})

    with ThreadPoolExecutor(max_workers=4) as pool:
        done = list(pool.map(load, jobs))
    runs = [(path, fragment, mode, shot, process) for (path, fragment, mode, shot, _), process in zip(jobs, done)]
    for path, fragment, mode, shot, process in runs:
        out, stderr = process.stdout, process.stderr.decode("utf-8", "replace")
        errors = [line for line in stderr.splitlines() if CONSOLE.search(line)]
        assert not errors, (path.name, fragment, errors)
        assert process.returncode == 0, (path.name, mode, stderr[-2000:])
        if mode == "--dump-dom":
            dom = out.decode("utf-8", "replace")
            assert "</html>" in dom, (path.name, dom[-500:])
            if path.name == "index.html":
                assert "<svg" in dom and "greedy" in dom
            else:  # the viewer's script ran: it is shown and drew a board and a decision
                assert 'id="viewer" hidden' not in dom, path.name
                assert re.search(r'id="decision"[^>]*><div class="title">', dom), path.name
                viewer = dom[dom.index('id="viewer"'):dom.index("<noscript>")]
                assert '<table class="st">' in viewer  # a board, never the text dump by default
                assert '<pre class="board">' not in viewer
                if fragment:  # p1's hand at decision 60, as the record has it
                    assert "as p1" in dom
                    record = read_record(run_dir / "records" / (path.stem + ".jsonl"))
                    n = next(m["n"] for m in record.moves if m["n"] >= 60 and m["role"] != "chance")
                    state = next(s.state.copy() for s in replay_steps(GAME, record) if s.number == n - 1)
                    hand = re.search(r'class="hand" data-seat="p1">(.*?)</div>', viewer).group(1)
                    assert re.findall(r'<span class="card[^"]*">([^<]+)</span>', hand) == GAME.view(state, "p1")["hand"]
                else:  # omniscient: every hand face up
                    assert "every hand face up" in viewer
                    assert 'class="hand" data-seat="p1"' in viewer and 'class="hand" data-seat="p2"' in viewer
        else:
            assert shot.exists() and shot.stat().st_size > 5000, shot
    print(f"\nchromium screenshots: {shots}")


# -- Twilight Struggle: the map, and every view a board ----------------------------------------------------

TS = get_game("twilight-struggle")


@pytest.fixture(scope="module")
def ts_report(tmp_path_factory):
    """A 2-game ts-heuristic-vs-random Twilight Struggle run and its report: (run dir, index path)."""
    folder = tmp_path_factory.mktemp("html-ts")
    config = parse_config({"name": "ts", "game": "twilight-struggle", "entrants": ["ts-heuristic", "random"],
                           "games_per_pairing": 2, "output_dir": str(folder)}, source="t")
    summary = run_tournament(config)
    assert summary.complete and len(summary.results) == 2
    return summary.run_dir, write_report(summary.run_dir)


@pytest.fixture(scope="module")
def ts_full(tmp_path_factory):
    """A full 10-turn match (ts-heuristic self-play, ended by final scoring), its record and its page."""
    from standoff.tournaments.html import _viewer_page

    registry = load_registry(entry_points=False)
    for seed in range(24, 40):
        bots = {role: registry.make_bot("ts-heuristic", bot_seed(seed, role), TS.name) for role in ("ussr", "us")}
        result = play_match(TS, TS.rules(), bots, seed, timing=False)
        if result.outcome.termination == "final_scoring":
            break
    else:
        pytest.skip("no 10-turn match in 16 seeds")
    record = result.record
    page = tmp_path_factory.mktemp("ts-full") / "ts-full.html"
    page.write_text(_viewer_page("Match ts-full", '<a href="ts-full.html">this page</a>', "ts-heuristic vs ts-heuristic",
                                 match_tracks(TS, record), {"ussr": "ts-heuristic", "us": "ts-heuristic"}),
                    encoding="utf-8")
    return record, page


def states_before(game, record) -> dict[int, object]:
    """The state when each decision was asked (copies), and ``"end"``."""
    rules = game.rules(record.header.get("ruleset"), record.header.get("options"))
    states, state = {1: game.new_state(rules)}, None
    for step in replay_steps(game, record):
        state = step.state
        states[step.number + 1] = state.copy()
    states["end"] = states.pop(len(record.moves) + 1)
    return states


def test_ts_pages_carry_the_map_layout_and_board_views(ts_report, ts_full):
    _, index = ts_report
    for path in pages(index)[1:] + [ts_full[1]]:
        page = parse(path)
        layout = json.loads(page.islands["board-data"])
        assert len(layout["countries"]) == 84
        omniscient = json.loads(page.islands["track-omniscient"])
        view = None
        for frame in omniscient["frames"]:
            view = apply_delta(view, frame["v"])
            assert view["role"] is None and set(view["hands"]) == {"ussr", "us"}
        assert omniscient_boards(omniscient)[0].startswith("turn ")  # the text, for the toggle
        assert 'id="as-text"' in path.read_text(encoding="utf-8")
    text = ts_full[1].read_text(encoding="utf-8")
    print(f"\nfull 10-turn Twilight Struggle match page: {len(text.encode('utf-8')):,} bytes "
          f"({len(ts_full[0].moves)} decisions)")
    assert len(text.encode("utf-8")) < 1_000_000


def test_omniscient_text_is_the_cli_replays_board(ts_full):
    """The page's text toggle shows what ``standoff replay`` prints for the same decisions."""
    from standoff.server.review import review

    record, _ = ts_full
    data = match_tracks(TS, record)
    result = review(TS, record, as_role=None)
    keep = [f.board for f in result.frames if f.role != "chance"] + [result.final_board]
    assert omniscient_boards(data["tracks"]["omniscient"]) == keep


def test_ts_seat_tracks_never_hold_the_other_hand(ts_report, ts_full):
    """A seat's JSON (views, deltas, options, prompts, choices as it saw them) never names a card
    of the other hand, but those it may see (a hand opened by an event; cards also public)."""
    from standoff.server.games.twilight_struggle.game import card_name

    _, index = ts_report
    targets = [(parse(p), read_record(index.parent.parent / "records" / (p.stem + ".jsonl"))) for p in pages(index)[1:]]
    targets.append((parse(ts_full[1]), ts_full[0]))
    checked = 0
    for page, record in targets:
        states = states_before(TS, record)
        timeline = json.loads(page.islands["timeline"])
        for seat in ("ussr", "us"):
            track = json.loads(page.islands[f"track-{seat}"])
            options = frame_options(track)
            them = ("ussr", "us").index(seat) ^ 1
            view = None
            for t, frame, opts in zip(timeline, track["frames"], options):
                view = apply_delta(view, frame["v"])
                state = states["end" if t.get("end") else t["n"]]
                public = set(view["discard"]) | set(view["removed"]) | set(view["events_played"]) | set(view["hand"])
                public |= set(view["opponent_hand"]) | set(view["headline"].values())
                hidden = {card_name(c) for c in state.hands[them]} - public
                text = json.dumps({"view": view, "delta": frame["v"], "options": opts, "prompt": frame.get("p")})
                for name in hidden:
                    assert not in_json(text, name), (seat, t, name)
                checked += len(hidden)
    assert checked > 1000


def _dom_parse(dom: str) -> dict:
    """What the Twilight Struggle board shows: countries, tracks, hands, effects, highlights."""
    class Board(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.countries, self.tracks, self.hands, self.effects, self.tags = {}, {}, {}, [], []
            self.highlight = {}
            self._hand = None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            cls = (a.get("class") or "").split()
            if "ts-country" in cls:
                self.countries[a["data-country"]] = (int(a["data-us"]), int(a["data-ussr"]), a["data-control"])
                if a.get("data-highlight"):
                    self.highlight[a["data-country"]] = a["data-highlight"]
            elif a.get("id") == "ts-tracks":
                self.tracks = {k[5:]: v for k, v in a.items() if k.startswith("data-")}
            elif "ts-hand" in cls:
                self._hand = self.hands.setdefault(a["data-seat"], [])
            elif "tscard" in cls and self._hand is not None and a.get("data-card") != "the_china_card":
                self._hand.append(a["data-card"])
            elif "badge" in cls:
                self.effects.append(a["data-effect"])
            elif "ts-tag" in cls:
                self.tags.append((a["data-target"], a["data-dice"]))

        def handle_endtag(self, tag):
            if tag == "div":
                self._hand = None

    board = Board()
    board.feed(dom)
    return {"countries": board.countries, "tracks": board.tracks, "hands": board.hands,
            "effects": board.effects, "highlight": board.highlight, "tags": board.tags}


def _screenshot_dir(tmp_path_factory) -> Path:
    wanted = os.environ.get("STANDOFF_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _browse(browser, jobs, tmp_path, size="1366,1500"):
    """Load each ``(url, screenshot path or None)`` in headless Chromium; returns (dom, stderr) per job."""
    flags = [f for f in CHROMIUM_FLAGS if not f.startswith("--window-size")] + [f"--window-size={size}"]

    def one(args):
        i, (url, shot) = args
        out = []
        for mode in (["--dump-dom"] + ([f"--screenshot={shot}"] if shot else [])):
            profile = tmp_path / f"profile-{i}-{mode[2:8]}"
            process = subprocess.run([browser, *flags, f"--user-data-dir={profile}", mode, url], capture_output=True,
                                     cwd=tmp_path, timeout=120, env={**os.environ, "LANG": "C.UTF-8"})
            out.append(process)
        return out

    with ThreadPoolExecutor(max_workers=4) as pool:
        done = list(pool.map(one, enumerate(jobs)))
    results = []
    for (url, shot), processes in zip(jobs, done):
        stderr = "".join(p.stderr.decode("utf-8", "replace") for p in processes)
        errors = [line for line in stderr.splitlines() if CONSOLE.search(line)]
        assert not errors, (url, errors)
        assert all(p.returncode == 0 for p in processes), (url, stderr[-2000:])
        if shot:
            assert Path(shot).exists() and Path(shot).stat().st_size > 5000, shot
        results.append(processes[0].stdout.decode("utf-8", "replace"))
    return results


def _expect_board(board: dict, view: dict, hands: dict) -> None:
    """The board's DOM against a view (a seat's, or the whole table's) and the hands it must show."""
    influence = view["influence"]
    assert len(board["countries"]) == 84
    for cid, (us, ussr, control) in board["countries"].items():
        amounts = influence.get(cid, {"us": 0, "ussr": 0})
        assert (us, ussr) == (amounts["us"], amounts["ussr"]), cid
    tracks = board["tracks"]
    assert int(tracks["turn"]) == view["turn"] and int(tracks["ar"]) == view["action_round"]
    assert int(tracks["defcon"]) == view["defcon"] and int(tracks["vp"]) == view["vp"]
    assert int(tracks["milops-us"]) == view["military_ops"]["us"] and int(tracks["milops-ussr"]) == view["military_ops"]["ussr"]
    assert int(tracks["space-us"]) == view["space"]["us"] and int(tracks["space-ussr"]) == view["space"]["ussr"]
    assert tracks["china"] == (view["china_card"]["holder"] or "")
    assert board["hands"] == hands
    assert board["effects"] == view["effects"]


def test_ts_pages_in_headless_chromium(ts_report, ts_full, tmp_path, tmp_path_factory):
    """An index page and match pages of Twilight Struggle load without console errors (their
    layout is measured by tests/tournaments/test_viewer_frame.py); at three decisions (two seats and the omniscient view) and at the end
    of a full match, the board's DOM shows the record's influence, tracks, hands and effects."""
    browser = _chromium()
    if browser is None:
        pytest.skip("chromium is not installed: the pages were not loaded in a browser")
    from standoff.server.games.twilight_struggle.game import card_name
    from standoff.server.games.twilight_struggle.html_board import table_view

    run_dir, index = ts_report
    record, full = ts_full
    shots = _screenshot_dir(tmp_path_factory)
    players = [i for i, m in enumerate(record.moves, 1) if m["role"] != "chance"]
    coup = next((n for n in players if record.moves[n - 1]["step"] == "coup"), players[len(players) // 4])
    picks = [("ussr", coup), ("us", players[len(players) // 2]), ("omniscient", players[3 * len(players) // 4])]
    jobs = [(index.resolve().as_uri(), shots / "ts-index.png"),
            (pages(index)[1].resolve().as_uri(), shots / "ts-match.png")]
    for seat, n in picks:
        jobs.append((full.resolve().as_uri() + f"#seat={seat}&n={n}", shots / f"ts-full-{seat}-{n}.png"))
    jobs.append((full.resolve().as_uri() + "#n=end", shots / "ts-full-end.png"))
    doms = _browse(browser, jobs, tmp_path)
    assert "BT rating" in doms[0] and "<svg" in doms[0]
    states = states_before(TS, record)
    for (seat, n), dom in zip(picks + [("omniscient", "end")], doms[2:]):
        board = _dom_parse(dom)
        state = states[n]
        if seat == "omniscient":
            view = table_view(TS, state)
            hands = {r: [card_name(c) for c in state.hands[i]] for i, r in enumerate(("ussr", "us"))}
        else:
            view = TS.view(state, seat)
            other = "us" if seat == "ussr" else "ussr"
            hands = {seat: view["hand"], other: view["opponent_hand"] or ["?"] * view["opponent_hand_size"]}
        _expect_board(board, view, hands)
        if n == coup and record.moves[n - 1]["step"] == "coup":
            target = record.moves[n - 1]["key"].removeprefix("country:")
            die = record.moves[n]["key"].removeprefix("die:")
            assert board["highlight"].get(target) == "now" and board["tags"] == [(target, die)]
        if n != "end":  # the decision box names the option chosen, its key the tooltip
            chosen = re.search(r'<span class="opt chosen" title="([^"]+)" data-key="[^"]+">([^<]+)</span>', dom)
            key = record.moves[n - 1]["key"]
            assert chosen and chosen.group(1) == key, (seat, n, key)
            if key.startswith(("country:", "card:")):
                assert ":" not in chosen.group(2) and chosen.group(2).strip(), (key, chosen.group(2))
    match_dom = _dom_parse(doms[1])
    assert len(match_dom["countries"]) == 84 and set(match_dom["hands"]) == {"ussr", "us"}
    assert all("?" not in hand for hand in match_dom["hands"].values())  # omniscient by default: face up
    print(f"\nTwilight Struggle screenshots: {shots}")


def test_report_fixes_faults_ratings_numbering_and_seat_order(report, ts_report):
    """No fault lines without faults; "Elo" names only the incremental Elo (the standings' are
    Bradley-Terry ratings); matches are numbered from 1; the header lists the seats in the order
    of the seat buttons."""
    for run_dir, index in (report, ts_report):
        text = index.read_text(encoding="utf-8")
        standings = text[text.index('<table id="standings">'):text.index("</table>", text.index('<table id="standings">'))]
        assert "BT rating" in standings and "Elo" not in standings.replace("Elo scale", "")
        matches = text[text.index('<table id="matches">'):]
        assert re.search(r"<tbody><tr><td>1</td>", matches)
        for path in pages(index)[1:]:
            page = parse(path)
            meta = json.loads(page.islands["meta"])
            assert meta["faults"] == []  # no "fault policy: forfeit" line when nothing went wrong
            html_text = path.read_text(encoding="utf-8")
            sub = html_text[html_text.index('<div class="sub">'):]
            roles = meta["roles"]
            positions = [sub.index(f"{role} ") for role in roles]
            assert positions == sorted(positions), roles
            buttons = re.findall(r'name="seat" value="([^"]+)"', html_text)
            assert buttons[:len(roles)] == roles


def test_a_match_started_from_a_position_is_drawn_from_it(tmp_path):
    """Matches started from a position (a tournament's ``positions``: two legs, seats swapped):
    a page's first board is the position's, not the deal's, on the omniscient track (drawn and
    text) and each seat's; and a seat's track still never holds the other hand's hidden cards."""
    from standoff.sdk.positions import read_position
    from standoff.server.games.schotten_totten.html_board import table_view
    from standoff.server.core.record import start_state

    source = Path(__file__).resolve().parents[1] / "positions" / "st" / "claim_wedge_threat.txt"
    position = read_position(source, GAME)
    summary = run(tmp_path, "from-a-position", games_per_pairing=2, ruleset=position["ruleset"],
                  positions=[str(source)])
    assert summary.complete and len(summary.results) == 2
    index = write_report(summary.run_dir)
    wedge = {"red-10", "orange-10", "yellow-10"}  # on flag 1, against green-9 green-10
    for result in summary.results:
        path = index.parent / "matches" / page_name(result.match_id)
        page = parse(path)
        record = read_record(summary.run_dir / "records" / (path.stem + ".jsonl"))
        assert record.header.get("position") is not None
        start = record.header["position"]  # the subtitle says so, and where (issue 44)
        sub = path.read_text(encoding="utf-8").split('<div class="sub">', 1)[1].split("</div>", 1)[0]
        assert f" \u00b7 from a position (turn {start['turn']}, {start['to_move']} to move)" in sub
        rules = GAME.rules(record.header["ruleset"], record.header["options"])
        start = start_state(GAME, rules, record.header)
        assert start.hands != GAME.new_state(rules).hands
        timeline = json.loads(page.islands["timeline"])
        assert timeline[0]["n"] == 1  # the position asks a player first
        omniscient = json.loads(page.islands["track-omniscient"])
        view = apply_delta(None, omniscient["frames"][0]["v"])
        assert view == table_view(GAME, start)
        assert view["turn"] in (4, 5)  # the position's turn (the deal's is 0)
        flag1 = view["flags"][0]["sides"]
        assert sorted([set(side["cards"]) for side in flag1.values()], key=len) == [{"green-9", "green-10"}, wedge]
        assert all(named(omniscient_boards(omniscient)[0], name) for name in wedge)
        for me, seat in enumerate(rules.roles):
            track = json.loads(page.islands[f"track-{seat}"])
            seat_view = apply_delta(None, track["frames"][0]["v"])
            assert sorted(seat_view["hand"]) == sorted(card_name(c) for c in start.hands[me])
            assert seat_view["flags"][0]["sides"] == flag1

            def other(state):
                cards = {card_name(c) for r, hand in enumerate(state.hands) if r != me for c in hand}
                return cards - {card_name(c) for c in state.known[me]}

            hidden, returned = [other(start)], set()
            assert hidden[0] == {card_name(c) for c in start.hands[1 - me]}
            for step in replay_steps(GAME, record):
                if step.decision.role == seat and step.decision.step == "scout_return":
                    returned.add(step.option.key.removeprefix("card:"))
                hidden.append(other(step.state) - returned)
            view, checked = None, 0
            for t, frame in zip(timeline, track["frames"]):
                view = apply_delta(view, frame["v"])
                n = len(record.moves) if t.get("end") else t["n"] - 1
                text = json.dumps({"view": view, "delta": frame["v"], "options": frame.get("o"),
                                   "prompt": frame.get("p")})
                for name in hidden[n]:
                    assert not in_json(text, name), (path.name, seat, n, name)
                checked += len(hidden[n])
            assert checked > 20
