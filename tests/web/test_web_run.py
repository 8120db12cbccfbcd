"""The web face of a running tournament (``standoff tournament --http``), over real loopback
sockets: a match in play (a remote entrant the test plays at its pace) with its live board, the
standings changing when it ends, the report's page of a finished match; a paired leg withheld
while its twin plays; the live board of a record being written (torn lines); bad input."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import types
from pathlib import Path

import httpx
import pytest
import trio
from kits.web import PacedSeat, get, wait_until

from standoff.server.auth import TokenRegistry
from standoff.tournaments.config import load_config
from standoff.tournaments.model import MatchSpec
from standoff.tournaments.runner import run_tournament
from standoff.tournaments.web import make_app, run_beside
from standoff.tournaments.web_http import bind_http, serve_app, url_of
from standoff.tournaments.web_live import LiveBoard
from standoff.tournaments.web_sources import RunSource


def write_config(folder: Path, name: str, **extra) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"', "master_seed = 5"]
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def _players(url: str) -> dict:
    return {p["name"]: p for p in get(url + "api/standings").json()["standings"]}


def test_a_running_tournament_shows_its_matches_live_and_its_standings_change(tmp_path):
    tokens = TokenRegistry(tmp_path / "tokens.json")
    token = tokens.add("slow")
    path = write_config(tmp_path, "live", entrants=["greedy", "probability", "remote:slow"], games_per_pairing=1,
                        remote_wait_s=30, concurrency=1, paired_seeds=False)
    beside = run_beside("127.0.0.1:0")
    url = beside.url
    address, ready, box = {}, threading.Event(), {}

    def announce(value: str) -> None:
        address["value"] = value
        ready.set()

    runner = threading.Thread(target=lambda: box.setdefault("summary", run_tournament(
        load_config(path), tokens=tokens, announce=announce, beside=beside)), daemon=True)
    runner.start()
    assert ready.wait(60)
    seat = PacedSeat(None, "slow", seed=1, address=address["value"], token=token)
    seat.play(2)
    assert seat.wait_for_decision() is not None  # its first match, held mid-game
    playing = get(url + "api/matches", state="playing").json()["matches"]
    assert len(playing) == 1 and "remote:slow" in playing[0]["seats"].values() and "seed" not in playing[0]
    match_id = playing[0]["match_id"]
    live = get(url + f"api/matches/{match_id}/live").json()
    assert live["n"] > 0 and live["over"] is False and live["view"]["flags"]
    assert 'id="live-board"' in get(url + f"matches/{match_id}").text
    before = _players(url)
    assert before["greedy"]["games"] == 1 and before["remote:slow"]["games"] == 0  # greedy-probability played
    finished = get(url + "api/matches", state="finished").json()["matches"]
    assert len(finished) == 1 and finished[0]["seed"]  # over and unpaired: its seed is public
    assert 'data-track="omniscient"' in get(url + f"matches/{finished[0]['match_id']}").text
    # the match ends: the standings count it, its page is the report's, the next one plays
    seat.play(1)
    while True:
        decision = seat.wait_for_decision(next_match=True)
        current = get(url + "api/matches", state="playing").json()["matches"]
        if not current or current[0]["match_id"] != match_id:
            break
        seat.play(1)
    wait_until(lambda: _players(url)["remote:slow"]["games"] == 1, timeout=60)
    assert json.loads(get(url + f"api/matches/{match_id}").text)["state"] == "finished"
    assert 'data-track="omniscient"' in get(url + f"matches/{match_id}").text
    while decision is not None and runner.is_alive():  # its other matches
        seat.finish()
        decision = seat.wait_for_decision(next_match=True)
    runner.join(120)
    assert "forfeit" not in [r.termination for r in box["summary"].results]  # every decision answered
    assert box["summary"].complete
    with pytest.raises(httpx.TransportError):  # the web face stopped with the run
        httpx.get(url, timeout=5)
    seat.close()


# -- a paired leg whose twin is still to play ---------------------------------------------------------


class Served:
    """``make_app(source)`` served on a loopback socket by Hypercorn in a trio thread."""

    def __init__(self, app) -> None:
        sock = bind_http("127.0.0.1:0")
        self.url = url_of(sock)
        self.stop: trio.Event | None = None
        self.token = None
        started = threading.Event()

        async def main() -> None:
            self.stop, self.token = trio.Event(), trio.lowlevel.current_trio_token()
            async with trio.open_nursery() as nursery:
                await nursery.start(serve_app, app, sock)
                started.set()
                await self.stop.wait()
                nursery.cancel_scope.cancel()

        self.thread = threading.Thread(target=trio.run, args=(main,), daemon=True)
        self.thread.start()
        assert started.wait(30)

    def close(self) -> None:
        trio.from_thread.run_sync(self.stop.set, trio_token=self.token)
        self.thread.join(30)


def test_a_paired_leg_is_withheld_while_its_twin_plays(tmp_path):
    path = write_config(tmp_path, "paired", entrants=["greedy", "probability"], games_per_pairing=2,
                        paired_seeds=True)
    config = load_config(path)
    summary = run_tournament(config)
    legs = sorted(summary.results, key=lambda r: r.leg)
    assert [r.pair for r in legs] == [legs[0].pair] * 2 and legs[0].pair is not None
    first, twin = legs
    prepared = types.SimpleNamespace(config=config, folder=summary.run_dir, entrants=lambda: list(config.entrants))
    playing = {twin.match_id: MatchSpec(twin.index, twin.match_id, twin.round, tuple(twin.seats.values()), twin.seed,
                                        twin.pair, twin.leg)}
    source = RunSource(prepared, playing)  # as the run stands while the twin is played again
    served = Served(make_app(source))
    try:
        url = served.url
        refused = get(url + f"api/matches/{first.match_id}")
        assert refused.status_code == 403 and "withheld" in refused.json()["error"]
        page = get(url + f"matches/{first.match_id}")
        assert page.status_code == 403 and "data-track" not in page.text and str(first.seed) not in page.text
        listed = [m["match_id"] for m in get(url + "api/matches", state="finished").json()["matches"]]
        assert first.match_id not in listed
        assert get(url + f"api/matches/{twin.match_id}").json()["state"] == "playing"
        assert str(first.seed) not in get(url).text
        # the standings are the run's ratings as they are
        ratings = json.loads((summary.run_dir / "ratings.json").read_text())
        assert [p["name"] for p in ratings["players"]] == [p["name"] for p in get(url + "api/standings").json()["standings"]]
        # once no leg of its pair is left to play, it is shown
        playing.clear()
        shown = get(url + f"matches/{first.match_id}")
        assert shown.status_code == 200 and 'data-track="omniscient"' in shown.text
        assert get(url + f"api/matches/{first.match_id}").json()["seed"] == first.seed
    finally:
        served.close()
        source.close()


# -- the live board of a record being written ------------------------------------------------------


def test_a_live_board_follows_a_record_as_it_is_written_torn_lines_included(tmp_path):
    record = tmp_path / "st.jsonl"
    subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "play", "schotten-totten", "--seed", "7",
                    "--record", str(record), "--bot", "greedy", "--bot", "probability"], check=True,
                   capture_output=True, timeout=120)
    lines = record.read_bytes().splitlines(keepends=True)
    growing = tmp_path / "growing.jsonl"
    board = LiveBoard(growing)
    assert board.advance() is False and board.snapshot() == {"n": 0, "over": False}  # not begun
    growing.write_bytes(lines[0] + lines[1] + lines[2][:7])  # header, a decision, half a line
    assert board.advance() is True and board.number == 1
    growing.write_bytes(b"".join(lines[:3]))  # the torn line completed
    assert board.advance() is True and board.number == 2
    assert board.advance() is False
    growing.write_bytes(b"".join(lines))
    board.advance()
    snap = board.snapshot()
    assert snap["over"] is True and snap["n"] == len(lines) - 2 and snap["outcome"]["termination"]
    assert "pending" not in snap
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(lines[0] + b'{"type":"decision","n":1,"role":"chance","step":"deal","key":"card:nope"}\n')
    bad = LiveBoard(broken)
    bad.advance()
    assert "does not replay" in bad.snapshot()["error"]


def test_tournament_with_a_port_in_use_exits_2_before_playing(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    path = write_config(tmp_path, "busy", entrants=["greedy", "random"], games_per_pairing=2)
    run = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "tournament", str(path),
                          "--http", f"127.0.0.1:{port}"], capture_output=True, text=True, timeout=120)
    taken.close()
    assert run.returncode == 2 and "address in use" in run.stderr and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "runs" / "busy" / "results.jsonl").exists()


def test_a_multi_game_match_has_a_page_per_game(tmp_path):
    path = write_config(tmp_path, "series", entrants=["greedy", "random"], games_per_pairing=1, paired_seeds=False)
    path.write_text(path.read_text() + "[match]\ngames = 2\n")
    config = load_config(path)
    summary = run_tournament(config)
    (result,) = summary.results
    prepared = types.SimpleNamespace(config=config, folder=summary.run_dir, entrants=lambda: list(config.entrants))
    source = RunSource(prepared, {})
    served = Served(make_app(source))
    try:
        url = served.url
        one = get(url + f"api/matches/{result.match_id}").json()
        assert [g["page"] for g in one["games"]] == [f"/matches/{result.match_id}-g1", f"/matches/{result.match_id}-g2"]
        listing = get(url + f"matches/{result.match_id}")
        assert listing.status_code == 200 and f'href="/matches/{result.match_id}-g2"' in listing.text
        game = get(url + f"matches/{result.match_id}-g2")
        assert game.status_code == 200 and 'data-track="omniscient"' in game.text
        assert get(url + f"matches/{result.match_id}-g3").status_code == 404
        assert get(url + f"api/matches/{result.match_id}-g9").status_code == 404
    finally:
        served.close()
        source.close()


@pytest.mark.parametrize("game, bots", [("schotten-totten", ("greedy", "probability")),
                                        ("twilight-struggle", ("ts-heuristic", "random"))])
def test_a_live_board_tells_the_match_as_a_spectator_is_told_it(tmp_path, game, bots):
    """The live page's log is the game's story told from the public view: sentences, not keys;
    draws counted, never named; the same story whether the record arrives at once or line by
    line."""
    import re

    record = tmp_path / "match.jsonl"
    subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "play", game, "--seed", "11",
                    "--record", str(record), "--bot", bots[0], "--bot", bots[1]], check=True,
                   capture_output=True, timeout=300)
    whole = LiveBoard(record)
    whole.advance()
    story = whole.story(last=10**6)
    assert story[0][0] == "c" and any(item[0] == "l" for item in story)
    texts = [item[2] for item in story if item[0] == "l"]
    assert not [t for t in texts if re.search(r"\b(card|country|deck|flag|use|die|hand):\S", t)]
    assert not [t for t in texts if "?" in t]  # no face-down placeholder read as a card's name
    if game == "schotten-totten":
        draws = [t for t in texts if " draws " in t]
        assert draws and all(re.search(r"draws (a troop card|a tactics card|\w+ cards?)", t) for t in draws), draws[:3]
    else:
        deals = [t for t in texts if " draws " in t]
        assert deals and all(re.fullmatch(r"The USSR draws \d+ cards?; the US draws \d+ cards?\.", t) for t in deals), deals[:3]
    # line by line, as a live board meets it
    growing = tmp_path / "growing.jsonl"
    stepped = LiveBoard(growing)
    with open(growing, "wb") as out:
        for line in record.read_bytes().splitlines(keepends=True):
            out.write(line)
            out.flush()
            stepped.advance()
    assert stepped.story(last=10**6) == story
    assert whole.snapshot()["story"] == whole.story()  # the snapshot carries the latest items
    assert len(whole.story(last=5)) <= 6 and whole.story(last=5)[0][0] == "c"
