"""A tournament's referee (``Archive(ledger=False)``): its run folder keeps its own results and
index, so the referee opens no ``index.sqlite``; it keeps the last matches it finished, a bounded
number (:class:`~standoff.server.match_store.RecentMatches`), and serves a record of ``records/``
that has its outcome line."""

from __future__ import annotations

import pytest
import trio
from kits.data_folder import finished_record

from standoff.server.archive import Archive
from standoff.server.match_store import Filters, PageTokenError, RecentMatches, summary_of
from standoff.server.plugins import load_registry
from standoff.v1 import referee_pb2 as pb


def summary(i: int, *, bot: str = "greedy", termination: str = "breakthrough") -> pb.MatchSummary:
    return summary_of(f"r{i}", "schotten-totten", "battle_line", {"p1": bot, "p2": "random"}, winner="p1",
                      scores={"p1": 1.0, "p2": 0.0}, termination=termination, reason="", faults={}, seed=i,
                      finished_ms=1000 + i)


def test_recent_matches_keep_the_last_ones_newest_first_in_pages():
    recent = RecentMatches(maxlen=5)
    for i in range(8):
        recent.add(summary(i, bot="alice" if i % 2 else "greedy", termination="error" if i == 7 else "forfeit"))
    assert [recent.has(f"r{i}") for i in range(8)] == [False] * 3 + [True] * 5  # bounded: the oldest forgotten
    assert recent.get("r2") is None and recent.get("r5").seed == 5
    first, token = recent.page(Filters(), "", 3)
    assert [s.match_id for s in first] == ["r7", "r6", "r5"] and token
    rest, last = recent.page(Filters(), token, 3)
    assert [s.match_id for s in rest] == ["r4", "r3"] and last == ""
    mine, _ = recent.page(Filters(bot="alice"), "", 10)
    assert [s.match_id for s in mine] == ["r7", "r5", "r3"]
    timed, _ = recent.page(Filters(finished_after_ms=1004, finished_before_ms=1006), "", 10)
    assert [s.match_id for s in timed] == ["r5", "r4"]
    # r7 ended in an error: no result, counted for nobody; alice won r3 and r5
    standings = {s.bot: (s.played, s.wins, s.losses) for s in recent.standings("")}
    assert standings == {"alice": (2, 2, 0), "greedy": (2, 2, 0), "random": (4, 0, 4)}
    with pytest.raises(PageTokenError):
        recent.page(Filters(), "not-a-token", 3)


def test_a_tournament_referee_opens_no_server_index_and_serves_finished_records(tmp_path):
    seats = {"p1": "greedy", "p2": "random"}
    finished_record(tmp_path, "done", "schotten-totten", seats, 1, "breakthrough", "p1")
    finished_record(tmp_path, "cut", "schotten-totten", seats, 2, "breakthrough", "p1", footer=False)
    archive = Archive(tmp_path, load_registry(entry_points=False), ledger=False)
    archive.load()
    assert not (tmp_path / "index.sqlite").exists() and not (tmp_path / "matches.jsonl").exists()
    assert '"type":"outcome"' in archive.record_text("done")
    assert archive.record_text("cut") is None and archive.record_text("../nope") is None

    async def finish() -> None:
        await archive.begin("new", "schotten-totten", "battle_line", seats, tmp_path / "records" / "new.jsonl")
        await archive.add(summary(1), tmp_path / "records" / "new.jsonl", {})

    trio.run(finish)
    assert archive.has("r1") and archive.page(Filters(), "", 10)[0][0].finished_ms > 0
    assert not (tmp_path / "index.sqlite").exists()
