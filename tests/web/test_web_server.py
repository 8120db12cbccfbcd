"""The web face of a running ``standoff serve`` (``--http``), over real loopback sockets: its JSON
API and pages, the live board of a match in play, the standings as matches end, bad input.
The leak test is tests/web/test_web_leaks.py; the browser test tests/web/test_web_browser.py."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys

import pytest
from kits.web import PacedSeat, get, patient, read_events, wait_until, web_server

from standoff.server.cli_common import UsageError
from standoff.tournaments.web_http import bind_http


@pytest.fixture
def served(tmp_path):
    server, url = web_server(tmp_path)
    yield server, url
    server.stop()


@pytest.fixture(params=["in-process", "split"])
def served_both(tmp_path, request):
    """The server playing its matches in its process, and a split referee (matches hosted in a
    worker process: the front writes the record lines the host sends)."""
    server, url = web_server(tmp_path, match_workers=1 if request.param == "split" else 0)
    yield server, url
    server.stop()


def _bots(standings: dict) -> dict:
    return {row["bot"]: row for row in standings["standings"]}


def test_finished_matches_standings_and_pages(served):
    server, url = served
    assert get(url + "api/standings").json() == {"kind": "server", "game": "", "standings": []}
    first = server.start_match(["greedy", "probability"], wait=True, seed=7).match_id
    second = server.start_match(["probability", "greedy"], wait=True, seed=8).match_id
    standings = _bots(get(url + "api/standings").json())
    assert standings["greedy"]["played"] == 2 and standings["probability"]["played"] == 2
    assert standings["greedy"]["wins"] + standings["greedy"]["draws"] + standings["greedy"]["losses"] == 2
    # GetStandings' game: one game's, or every game's added up
    third = server.start_match(["random", "ts-heuristic"], game="twilight-struggle", options={"end_turn": "1"},
                               wait=True).match_id
    assert set(_bots(get(url + "api/standings", game="schotten-totten").json())) == {"greedy", "probability"}
    assert set(_bots(get(url + "api/standings", game="twilight-struggle").json())) == {"random", "ts-heuristic"}
    assert len(_bots(get(url + "api/standings").json())) == 4
    # finished matches: newest first, a page at a time, with their seeds (they are over)
    pages, token = [], ""
    for number in range(3):
        assert token or not number
        page = get(url + "api/matches", state="finished", limit="1", **({"page_token": token} if token else {})).json()
        pages.append([m["match_id"] for m in page["matches"]])
        token = page["next_page_token"]
    assert pages == [[third], [second], [first]]
    one = get(url + f"api/matches/{first}").json()
    assert one["state"] == "finished" and one["seed"] == 7 and one["seats"] == {"p1": "greedy", "p2": "probability"}
    assert one["result"]["termination"] and one["links"]["page"] == f"/matches/{first}"
    assert get(url + "api/matches", state="playing").json() == {"matches": [], "next_page_token": ""}
    assert [m["match_id"] for m in get(url + "api/matches", state="finished").json()["matches"]] == [third, second, first]
    # the pages: the front page lists both, a finished match is the report's viewer page
    front = get(url).text
    assert first in front and second in front and 'id="standings"' in front
    assert "Standings: schotten-totten" in front and "Standings: twilight-struggle" in front
    page = get(url + f"matches/{first}")
    assert page.status_code == 200
    assert 'id="viewer"' in page.text and 'data-track="omniscient"' in page.text and 'data-track="p1"' in page.text
    assert "seed 7" in page.text
    listing = get(url + "matches").text
    assert first in listing and second in listing


def test_bad_requests_are_answered_in_json(served):
    server, url = served
    missing = get(url + "api/matches/no-such-match")
    assert missing.status_code == 404 and missing.json() == {"error": "no match 'no-such-match'"}
    assert get(url + "api/matches/no-such-match/live").status_code == 404
    assert get(url + "api/matches/no-such-match/events").status_code == 404
    assert get(url + "matches/no-such-match").status_code == 404
    assert get(url + "api/nothing").status_code == 404 and "error" in get(url + "api/nothing").json()
    assert get(url + "api/matches", state="bogus").status_code == 400
    assert get(url + "api/matches", state="finished", limit="0").status_code == 400
    bad = get(url + "api/matches", state="finished", page_token="not-a-token")
    assert bad.status_code == 400 and "error" in bad.json()
    assert get(url + "matches", page_token="not-a-token").status_code == 400
    import httpx

    refused = httpx.post(url + "api/standings", timeout=30)
    assert refused.status_code == 405 and "read-only" in refused.json()["error"]


def test_a_match_in_play_advances_live_and_standings_change_when_it_ends(served_both):
    server, url = served_both
    seat = PacedSeat(server, "slow")
    match_id = server.start_match(["remote:slow", "greedy"], **patient()).match_id
    seat.play(3)
    seat.wait_for_decision()
    playing = get(url + "api/matches", state="playing").json()["matches"]
    assert [m["match_id"] for m in playing] == [match_id]
    assert "seed" not in playing[0] and playing[0]["seats"] == {"p1": "remote:slow", "p2": "greedy"}
    one = get(url + f"api/matches/{match_id}").json()
    assert one["state"] == "playing" and "seed" not in one and one["links"]["events"].endswith("/events")
    live = get(url + f"api/matches/{match_id}/live").json()
    assert live["over"] is False and live["n"] >= 6 and live["pending"]["role"] == "p1"
    assert live["view"]["flags"] and "hand" in live["view"]
    assert len(live["panels"]["flags"]) == len(live["view"]["flags"]) == 9  # the board's panels, of the public view
    page = get(url + f"matches/{match_id}").text  # the live page, not the record's
    assert 'id="live-board"' in page and 'data-track="omniscient"' not in page
    before = get(url + "api/standings").json()
    assert "remote:slow" not in _bots(before)
    # the event stream: the board now, then a newer board once the seat plays on
    events, reader = read_events(url + f"api/matches/{match_id}/events", 2)
    wait_until(lambda: events)
    seat.play(2)
    reader.join(30)
    assert [name for name, _ in events] == ["view", "view"]
    assert events[1][1]["n"] > events[0][1]["n"] >= live["n"]
    # to the end: the stream says so, the standings count the match, its page is the report's
    stream, reader = read_events(url + f"api/matches/{match_id}/events", 10_000)
    wait_until(lambda: stream)
    seat.finish()
    reader.join(60)
    assert stream and stream[-1][0] == "end" and stream[-1][1]["over"] is True
    assert stream[-1][1]["outcome"]["termination"]
    wait_until(lambda: not get(url + "api/matches", state="playing").json()["matches"])
    after = _bots(get(url + "api/standings").json())
    assert after["remote:slow"]["played"] == 1 and after["greedy"]["played"] == 1
    assert 'data-track="omniscient"' in get(url + f"matches/{match_id}").text
    assert get(url + f"api/matches/{match_id}/live").status_code == 409
    seat.close()


def test_the_front_pages_event_stream_says_when_something_changed(served):
    server, url = served
    events, reader = read_events(url + "api/events", 2)
    wait_until(lambda: events)  # "hello": the stream is open
    server.start_match(["greedy", "greedy"], wait=True, seed=3)
    reader.join(30)
    assert [name for name, _ in events] == ["hello", "change"]


# -- --http: the address --------------------------------------------------------------------------


def test_a_bad_address_or_a_port_in_use_is_one_clear_error():
    for address, said in (("nonsense", "expected PORT or HOST:PORT"), ("127.0.0.1:99999", "not 0-65535"),
                          ("no-such-host.invalid:8080", "cannot listen on host"), ("1.2.3.4.5:80", "cannot listen")):
        with pytest.raises(UsageError, match=re.escape(said)):
            bind_http(address)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    with pytest.raises(UsageError, match="address in use"):
        bind_http(f"127.0.0.1:{port}")
    taken.close()
    sock = bind_http("0")  # a port alone: loopback, the port the system picks
    assert sock.getsockname()[0] == "127.0.0.1" and sock.getsockname()[1] > 0
    sock.close()


def test_serve_with_a_port_in_use_exits_2_with_one_line(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    port = taken.getsockname()[1]
    run = subprocess.run([sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0",
                          "--data-dir", str(tmp_path), "--http", f"127.0.0.1:{port}"],
                         capture_output=True, text=True, timeout=60)
    taken.close()
    assert run.returncode == 2, run.stderr
    assert run.stderr.strip().splitlines() == [
        f"standoff: error: --http 127.0.0.1:{port}: cannot listen: address in use (something already listens "
        "there: stop it or pick another port)"]
    assert "Traceback" not in run.stderr and json.dumps(run.stdout) == '""'
