"""The server's index (issue 43): ``ListMatches`` paged and filtered, ``GetStandings`` from
stored aggregates, and a start that repairs the index from the files after a kill at any point.

Oracles are written from the issue's words and read the files directly (``matches.jsonl``,
``records/``), never the index code: the standings are recomputed from the ledger lines; the
pages must together be every finished match once, newest first; after a start the index and the
ledger name the same finished matches.
"""

from __future__ import annotations

import json
from pathlib import Path

import grpc
import pytest
from kits.data_folder import START_MS, finished_record, write_finished_matches
from kits.server import ServerThread

from standoff.server.archive import Archive
from standoff.server.match_index import MatchIndex
from standoff.server.plugins import load_registry
from standoff.server.storage import connect
from standoff.server.verify import VerifyError, verify_folder
from standoff.v1 import referee_pb2 as pb

UNRATED = {"not_played", "error", "shutdown", "stopped"}  # docs/protocol.md: no result, counts for nobody


def ledger_lines(data: Path) -> list[dict]:
    return [json.loads(line) for line in (data / "matches.jsonl").read_text().splitlines() if line.strip()]


def standings_oracle(data: Path, game: str = "") -> dict[str, tuple]:
    """Per bot (played, wins, draws, losses, score) from the ledger lines: every seat of a rated
    match counts; 1 is a win, 0 a loss, anything between a draw."""
    table: dict[str, list] = {}
    for line in ledger_lines(data):
        if line["termination"] in UNRATED or (game and line["game"] != game):
            continue
        for role, bot in line["seats"].items():
            score = line["scores"][role]
            row = table.setdefault(bot, [0, 0, 0, 0, 0.0])
            row[0] += 1
            row[1 if score == 1 else 2 if score > 0 else 3] += 1
            row[4] += score
    return {bot: tuple(row) for bot, row in table.items()}


def served_standings(server: ServerThread, game: str = "") -> dict[str, tuple]:
    response = server.call("GetStandings", pb.GetStandingsRequest(game=game), pb.GetStandingsResponse)
    scores = [s.score for s in response.standings]
    assert scores == sorted(scores, reverse=True)  # best first
    return {s.bot: (s.played, s.wins, s.draws, s.losses, s.score) for s in response.standings}


def pages(server: ServerThread, limit: int = 100, **fields) -> list[list[pb.MatchSummary]]:
    """Every page of ``ListMatches`` for these filters, following next_page_token."""
    found, token = [], ""
    while True:
        response = server.call("ListMatches", pb.ListMatchesRequest(limit=limit, page_token=token, **fields),
                               pb.ListMatchesResponse)
        found.append(list(response.matches))
        token = response.next_page_token
        if not token:
            return found
        assert len(found) < 100, "paging does not end"


def index_rows(data: Path) -> dict[str, str]:
    """match id -> status, read from index.sqlite with a read-only connection (as an organiser would)."""
    conn = connect(data / "index.sqlite", readonly=True)
    try:
        return dict(conn.execute("SELECT match_id, status FROM matches").fetchall())
    finally:
        conn.close()


def index_agrees_with_ledger(data: Path) -> None:
    """The matches the index has finished are those the ledger has lines for, and their ``seq``
    is the line number."""
    lines = ledger_lines(data)
    conn = connect(data / "index.sqlite", readonly=True)
    try:
        finished = dict(conn.execute("SELECT match_id, seq FROM matches WHERE status = 'finished'").fetchall())
    finally:
        conn.close()
    assert finished == {line["match_id"]: number for number, line in enumerate(lines, start=1)}


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    """A data folder with 250 finished matches, served."""
    data = tmp_path_factory.mktemp("history")
    written = write_finished_matches(data, 250, seed=43)
    server = ServerThread(data).start()
    yield server, written
    server.stop()


def test_three_pages_of_250_matches_newest_first_without_duplicates_or_gaps(history):
    server, written = history
    got = pages(server)
    assert [len(page) for page in got] == [100, 100, 50]
    ids = [s.match_id for page in got for s in page]
    assert ids == [w.match_id for w in reversed(written)]  # newest first, each once
    summary = got[0][0]
    last = written[-1]
    assert summary.status == pb.MATCH_STATUS_FINISHED and summary.seed != 0  # over: its seed is served
    assert summary.finished_ms == last.finished_ms and summary.game == last.game
    assert {s.role: s.bot for s in summary.seats} == last.seats
    assert summary.result.termination == last.termination
    assert {s.role: s.score for s in summary.result.scores} == last.scores
    assert [s.role for s in summary.seats] == list(last.seats)  # role order, as the record's header


@pytest.mark.parametrize("fields", [
    {"bot": "remote:alice"}, {"bot": "carol@1.0", "game": "twilight-struggle"}, {"game": "schotten-totten"},
    {"status": pb.MATCH_STATUS_FINISHED}, {"finished_after_ms": START_MS + 100_000},
    {"finished_before_ms": START_MS + 60_500}, {"finished_after_ms": START_MS + 30_000, "finished_before_ms": START_MS + 200_000, "bot": "greedy"},
])
def test_filters_by_bot_game_status_and_time_over_pages(history, fields):
    server, written = history

    def passes(w) -> bool:
        return ((not fields.get("bot") or fields["bot"] in w.seats.values())
                and (not fields.get("game") or w.game == fields["game"])
                and w.finished_ms >= fields.get("finished_after_ms", 0)
                and w.finished_ms < fields.get("finished_before_ms", 1 << 62))

    expected = [w.match_id for w in reversed(written) if passes(w)]
    assert 0 < len(expected) < 250 or fields.get("status")
    got = pages(server, limit=30, **fields)
    assert all(len(page) == 30 for page in got[:-1]) and len(got[-1]) <= 30
    assert [s.match_id for page in got for s in page] == expected


def test_no_finished_match_is_listed_as_running_and_a_bad_page_token_is_one_line(history):
    server, _ = history
    running = server.call("ListMatches", pb.ListMatchesRequest(status=pb.MATCH_STATUS_RUNNING), pb.ListMatchesResponse)
    assert list(running.matches) == [] and running.next_page_token == ""
    for bad in ("nope", "c2VxOi0x", "x" * 5000):
        with pytest.raises(grpc.RpcError) as info:
            server.call("ListMatches", pb.ListMatchesRequest(page_token=bad), pb.ListMatchesResponse)
        assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "page_token" in info.value.details() and "\n" not in info.value.details()
    # a limit past the largest page is cut to it; the token goes on from there
    response = server.call("ListMatches", pb.ListMatchesRequest(limit=5000), pb.ListMatchesResponse)
    assert len(response.matches) == 250 and response.next_page_token == ""


def test_standings_from_the_index_equal_the_standings_recomputed_from_the_ledger(history):
    server, _ = history
    data = server.data_dir
    assert served_standings(server) == standings_oracle(data)
    for game in ("schotten-totten", "twilight-struggle"):
        assert served_standings(server, game) == standings_oracle(data, game)


def test_matches_played_after_a_restart_are_indexed_as_they_finish(tmp_path):
    write_finished_matches(tmp_path, 20, seed=5)
    server = ServerThread(tmp_path).start()
    try:
        played = [server.start_match(["greedy", "random"], wait=True).match_id for _ in range(2)]
        got = pages(server, limit=15)
        assert [s.match_id for s in got[0][:2]] == played[::-1]  # newest first
        assert sum(len(page) for page in got) == 22
        newest = got[0][0]
        assert newest.finished_ms > START_MS and newest.seed != 0
        assert served_standings(server) == standings_oracle(tmp_path)
        record = server.record(played[0])
        assert json.loads(record.splitlines()[-1])["type"] == "outcome"
        mine = pages(server, bot="greedy", game="schotten-totten")
        assert played[1] in [s.match_id for s in mine[0]]
        line = ledger_lines(tmp_path)[-1]
        assert line["match_id"] == played[1] and line["finished_ms"] >= line["started_ms"] > START_MS
    finally:
        server.stop()
    index_agrees_with_ledger(tmp_path)


# -- repairs at start -----------------------------------------------------------------------------


def served_once(data: Path) -> None:
    """Start and stop a server on ``data`` (the index is then at the ledger's last line)."""
    ServerThread(data).start().stop()


def begin_row(data: Path, match_id: str, seats: dict[str, str], game: str = "schotten-totten") -> None:
    """The ``playing`` row a server writes when a match starts (what a kill leaves of it)."""
    index, _ = MatchIndex.open(data)
    try:
        index.begin(match_id, game, "battle_line", seats, f"{match_id}.jsonl", START_MS)
    finally:
        index.close()


def test_a_kill_between_the_record_outcome_and_the_ledger_line(tmp_path):
    write_finished_matches(tmp_path, 30, seed=7)
    served_once(tmp_path)
    seats = {"p1": "greedy", "p2": "remote:bob"}
    # Killed after the outcome line of k1's record, before its ledger line; k2 cut mid-match
    # (record without outcome); k3 killed before its record's first line.
    for match_id in ("k1", "k2", "k3"):
        begin_row(tmp_path, match_id, seats)
    finished_record(tmp_path, "k1", "schotten-totten", seats, 99, "breakthrough", "p2")
    finished_record(tmp_path, "k2", "schotten-totten", seats, 98, "breakthrough", "p1", footer=False)
    server = ServerThread(tmp_path).start()
    try:
        listed = {s.match_id: s for page in pages(server) for s in page}
        assert "k1" in listed and listed["k1"].result.winner == "p2" and listed["k1"].seed == 99
        assert "k2" not in listed and "k3" not in listed
        for cut in ("k2", "k3"):
            with pytest.raises(grpc.RpcError) as info:
                server.record(cut)
            assert info.value.code() == grpc.StatusCode.NOT_FOUND
        assert served_standings(server) == standings_oracle(tmp_path)
    finally:
        server.stop()
    lines = ledger_lines(tmp_path)
    assert [line["match_id"] for line in lines].count("k1") == 1 and lines[-1]["match_id"] == "k1"
    assert index_rows(tmp_path)["k2"] == "aborted" and index_rows(tmp_path)["k3"] == "aborted"
    index_agrees_with_ledger(tmp_path)
    assert verify_folder(tmp_path, replay_records=False).lines == 31


def test_a_kill_between_the_ledger_line_and_the_index_row(tmp_path):
    write_finished_matches(tmp_path, 30, seed=8)
    served_once(tmp_path)
    begin_row(tmp_path, "m000030", {"p1": "random", "p2": "greedy"})  # the match had its playing row
    write_finished_matches(tmp_path, 5, seed=9, first=30)  # lines (and records) the index has not read
    before = (tmp_path / "matches.jsonl").read_bytes()
    server = ServerThread(tmp_path).start()
    try:
        assert sum(len(page) for page in pages(server)) == 35
        assert served_standings(server) == standings_oracle(tmp_path)
    finally:
        server.stop()
    assert (tmp_path / "matches.jsonl").read_bytes() == before  # nothing to add: the lines were there
    index_agrees_with_ledger(tmp_path)


def test_a_folder_without_an_index_is_indexed_on_first_start(tmp_path):
    """Files written before the index: the ledger, and records a kill left without a line (found
    by looking through records/ once, as every start did before)."""
    write_finished_matches(tmp_path, 40, seed=10)
    write_finished_matches(tmp_path, 3, seed=11, first=40, ledger=False)  # records only
    finished_record(tmp_path, "cut", "schotten-totten", {"p1": "random", "p2": "greedy"}, 5, "breakthrough", "p1",
                    footer=False)
    assert not (tmp_path / "index.sqlite").exists()
    server = ServerThread(tmp_path).start()
    try:
        ids = [s.match_id for page in pages(server) for s in page]
        assert len(ids) == 43 and "cut" not in ids and {"m000040", "m000041", "m000042"} <= set(ids)
        assert served_standings(server) == standings_oracle(tmp_path)
    finally:
        server.stop()
    assert len(ledger_lines(tmp_path)) == 43
    index_agrees_with_ledger(tmp_path)


def test_a_start_reads_only_the_ledger_since_its_point_and_never_lists_records(tmp_path, monkeypatch):
    write_finished_matches(tmp_path, 30, seed=12)
    served_once(tmp_path)
    write_finished_matches(tmp_path, 2, seed=13, first=30)
    import os

    real_scandir, looked = os.scandir, []

    def scandir(path="."):
        looked.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    monkeypatch.setattr(Path, "glob", lambda self, pattern: pytest.fail(f"globbed {self}/{pattern}"))
    archive = Archive(tmp_path, load_registry(entry_points=False))
    try:
        archive.load()
        assert archive.has("m000031") and archive.get("m000000") is not None
    finally:
        archive.close()
    assert not [p for p in looked if p.rstrip("/").endswith("records")]


def test_a_line_edited_after_the_point_refuses_the_start_an_earlier_one_is_verifys(tmp_path):
    write_finished_matches(tmp_path, 10, seed=14)
    served_once(tmp_path)
    write_finished_matches(tmp_path, 3, seed=15, first=10)
    ledger = tmp_path / "matches.jsonl"
    lines = ledger.read_text().splitlines()
    original = list(lines)
    # an edit of line 12 (after the index's point, line 10): the start reads it and refuses
    line = json.loads(lines[11])
    line["reason"] = "edited"
    lines[11] = json.dumps(line, sort_keys=True)
    ledger.write_text("\n".join(lines) + "\n")
    archive = Archive(tmp_path, load_registry(entry_points=False))
    with pytest.raises(VerifyError, match="line 1[23]"):
        archive.load()
    # an edit of line 3 (before the point): not read at start (docs/storage.md); verify shows it
    ledger.write_text("\n".join(original) + "\n")
    served_once(tmp_path)
    line = json.loads(original[2])
    line["reason"] = "edited"
    original[2] = json.dumps(line, sort_keys=True)
    ledger.write_text("\n".join(original) + "\n")
    with pytest.raises(VerifyError, match="line 4"):  # line 4 no longer follows line 3
        verify_folder(tmp_path, replay_records=False)


def test_a_new_line_naming_a_record_an_indexed_line_names_refuses_the_start(tmp_path):
    """A line appended after the point that claims an earlier match's record again (a second
    result for one game): the start does not re-read the earlier lines, the index knows."""
    from standoff.server.ledger import LedgerWriter

    write_finished_matches(tmp_path, 6, seed=21)
    served_once(tmp_path)
    ledger = tmp_path / "matches.jsonl"
    again = json.loads(ledger.read_text().splitlines()[1])
    del again["prev"]
    again["match_id"] = "m-again"
    writer = LedgerWriter(ledger)
    writer.append(writer.text(again))
    writer.close()
    archive = Archive(tmp_path, load_registry(entry_points=False))
    with pytest.raises(VerifyError, match="line 7 .*named by an earlier line"):
        archive.load()


def test_a_ledger_cut_before_the_point_refuses_the_start(tmp_path):
    from standoff.server.storage import StorageError

    write_finished_matches(tmp_path, 10, seed=16)
    served_once(tmp_path)
    ledger = tmp_path / "matches.jsonl"
    ledger.write_text("".join(ledger.read_text().splitlines(keepends=True)[:7]))
    archive = Archive(tmp_path, load_registry(entry_points=False))
    with pytest.raises(StorageError, match="standoff verify .*standoff reindex"):
        archive.load()


def test_a_long_read_transaction_does_not_block_the_server(tmp_path):
    """An organiser's read-only connection (another thread here) holding a read transaction: the
    server still adds matches; the reader sees its snapshot until it ends the transaction."""
    write_finished_matches(tmp_path, 5, seed=17)
    server = ServerThread(tmp_path).start()
    reader = connect(tmp_path / "index.sqlite", readonly=True)
    try:
        reader.execute("BEGIN")
        assert reader.execute("SELECT COUNT(*) FROM matches WHERE status = 'finished'").fetchone() == (5,)
        played = [server.start_match(["greedy", "random"], wait=True).match_id for _ in range(2)]
        assert reader.execute("SELECT COUNT(*) FROM matches WHERE status = 'finished'").fetchone() == (5,)
        listed = [s.match_id for s in pages(server)[0]]
        assert listed[:2] == played[::-1]
        reader.execute("COMMIT")
        assert reader.execute("SELECT COUNT(*) FROM matches WHERE status = 'finished'").fetchone() == (7,)
    finally:
        reader.close()
        server.stop()


def test_a_reader_in_another_process_does_not_block_the_server(tmp_path):
    import subprocess
    import sys

    write_finished_matches(tmp_path, 3, seed=18)
    server = ServerThread(tmp_path).start()
    script = ("import sqlite3, sys\n"
              f"c = sqlite3.connect('file:{tmp_path / 'index.sqlite'}?mode=ro', uri=True, isolation_level=None)\n"
              "c.execute('BEGIN'); print(c.execute('SELECT COUNT(*) FROM matches').fetchone()[0], flush=True)\n"
              "sys.stdin.read()\n")
    reader = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert reader.stdout.readline().strip() == "3"
        server.start_match(["greedy", "random"], wait=True)
        assert sum(len(page) for page in pages(server)) == 4
    finally:
        reader.stdin.close()
        reader.wait(10)
        server.stop()


def test_the_documented_sqlite3_shell_query_works(tmp_path):
    """docs/storage.md's example, as an organiser would run it."""
    import shutil
    import subprocess

    if shutil.which("sqlite3") is None:
        pytest.skip("no sqlite3 shell")
    write_finished_matches(tmp_path, 12, seed=19)
    served_once(tmp_path)
    docs = (Path(__file__).parents[2] / "docs" / "storage.md").read_text()
    command = next(line.strip() for line in docs.splitlines() if line.strip().startswith("sqlite3 -readonly"))
    command = command.replace("standoff-data/", f"{tmp_path}/")
    run = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    shown = {bot: (int(played), int(wins), int(draws), int(losses), float(score))
             for bot, played, wins, draws, losses, score in (line.split("|") for line in run.stdout.splitlines())}
    assert shown and shown == standings_oracle(tmp_path, "schotten-totten")


def test_live_matches_come_first_on_the_first_page_only_filtered_the_same_way(tmp_path):
    write_finished_matches(tmp_path, 3, seed=20)
    server = ServerThread(tmp_path).start()
    try:
        waiting = server.start_match(["remote:ghost", "greedy"], connect_timeout_ms=60_000).match_id
        first = server.call("ListMatches", pb.ListMatchesRequest(limit=2), pb.ListMatchesResponse)
        assert [s.match_id for s in first.matches] == [waiting, "m000002"]
        assert first.matches[0].status == pb.MATCH_STATUS_WAITING and first.matches[0].seed == 0
        second = server.call("ListMatches", pb.ListMatchesRequest(limit=2, page_token=first.next_page_token),
                             pb.ListMatchesResponse)
        assert [s.match_id for s in second.matches] == ["m000001", "m000000"] and not second.next_page_token

        def listed(**fields) -> list[str]:
            return [s.match_id for page in pages(server, **fields) for s in page]

        assert listed(bot="remote:ghost") == [waiting]
        assert waiting not in listed(bot="random") and waiting not in listed(game="twilight-struggle")
        assert waiting not in listed(finished_after_ms=1)  # not finished: no finishing time
        assert listed(status=pb.MATCH_STATUS_WAITING) == [waiting]
        assert waiting not in listed(status=pb.MATCH_STATUS_FINISHED)
        # a page the live matches fill still leads on to the finished ones
        full = server.call("ListMatches", pb.ListMatchesRequest(limit=1), pb.ListMatchesResponse)
        assert [s.match_id for s in full.matches] == [waiting] and full.next_page_token
        rest = server.call("ListMatches", pb.ListMatchesRequest(limit=10, page_token=full.next_page_token),
                           pb.ListMatchesResponse)
        assert [s.match_id for s in rest.matches] == ["m000002", "m000001", "m000000"]
        with pytest.raises(grpc.RpcError) as info:
            server.record(waiting)
        assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    finally:
        server.shutdown()


def test_time_filters_are_exact_when_times_are_out_of_order_or_missing(tmp_path):
    """Lines without times (written before the index) never pass a time filter; times that go
    back in ledger order (a ledger another program wrote) still filter exactly."""
    old = write_finished_matches(tmp_path, 10, seed=21, start_ms=None)
    late = write_finished_matches(tmp_path, 10, seed=22, first=10, start_ms=START_MS + 100_000)
    early = write_finished_matches(tmp_path, 10, seed=23, first=20, start_ms=START_MS)  # earlier than `late`
    written = old + late + early
    server = ServerThread(tmp_path).start()
    try:
        for after, before in ((START_MS + 25_000, 0), (0, START_MS + 115_000), (START_MS + 5_000, START_MS + 112_000)):
            expected = [w.match_id for w in reversed(written) if w.finished_ms is not None
                        and w.finished_ms >= after and (not before or w.finished_ms < before)]
            got = pages(server, limit=4, finished_after_ms=after, finished_before_ms=before)
            assert [s.match_id for page in got for s in page] == expected and expected
        untimed = {s.match_id: s for page in pages(server) for s in page}["m000003"]
        assert untimed.finished_ms == 0
    finally:
        server.stop()
