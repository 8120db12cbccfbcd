"""One bot object per match (issue: a bot object played two matches at once).

* The referee honours ``Hello.max_concurrent_matches``: a session that says 1 (the SDK's, for a
  single ``Bot`` object) is seated in one match at a time; the next waits for it to end.
* The SDK's ``run`` takes a factory: every seat gets a bot object of its own.
* An in-process bot whose ``choose`` ran past its time is never asked again (nor told the match
  ended) before that late call returns.
* So two runs of one tournament with the same master seed, a remote entrant included, give the
  same records apart from timing.
"""

from __future__ import annotations

import json
import threading
import time
from types import SimpleNamespace

import trio
from kits.server import comparable_record
from kits.tournament import serve_tournament

from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import run_in_thread
from standoff.server.auth import TokenRegistry
from standoff.server.answers import SeatAnswer, SeatFault
from standoff.server.seats import InProcessSeat, LocalSeat


class Diary(RandomBot):
    """A random bot that notes every call, and how many of its calls were ever running at once."""

    quick = False
    made: list = []  # every Diary made (a factory's seats)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.events: list[tuple[str, str]] = []
        self.inside = self.most_inside = 0
        self.lock = threading.Lock()
        Diary.made.append(self)

    def _enter(self, what: str, match_id: str) -> None:
        with self.lock:
            self.inside += 1
            self.most_inside = max(self.most_inside, self.inside)
            self.events.append((what, match_id))

    def _leave(self) -> None:
        with self.lock:
            self.inside -= 1

    def start(self, match) -> None:
        self._enter("start", match.match_id)
        super().start(match)
        self._leave()

    def choose(self, decision, view) -> int:
        self._enter("choose", decision.match_id)
        time.sleep(0.002)  # long enough for two matches' decisions to overlap, were they allowed to
        index = super().choose(decision, view)
        self._leave()
        return index

    def end(self, result) -> None:
        self._enter("end", result.match_id)
        self._leave()


def _matches(server, bots, count):
    ids = [server.start_match(bots, seed=100 + n).match_id for n in range(count)]
    return [server.wait_finished(match_id, timeout=90) for match_id in ids]


def test_a_single_bot_object_plays_one_match_at_a_time(server):
    token = server.tokens.mint_ephemeral("alice")
    bot = Diary(1)
    thread, box = run_in_thread(bot, server.address, token, matches=3)
    summaries = _matches(server, ["remote:alice", "random"], 3)  # created together
    thread.join(60)
    assert all(s.result.termination not in ("not_played", "error") for s in summaries)
    assert bot.most_inside == 1
    # each match from its start to its end before the next starts
    order = [(what, m) for what, m in bot.events if what != "choose"]
    assert [what for what, _ in order] == ["start", "end"] * 3
    assert [m for _, m in order[::2]] == [m for _, m in order[1::2]]


def test_a_factory_gives_every_seat_a_bot_of_its_own_and_may_play_matches_at_once(server):
    Diary.made = []
    token = server.tokens.mint_ephemeral("alice")
    thread, box = run_in_thread(Diary, server.address, token, matches=4, concurrency=2)
    ids = [server.start_match(bots, seed=7 + n).match_id
           for n, bots in enumerate((["remote:alice", "remote:alice"], ["random", "remote:alice"],
                                     ["remote:alice", "random"]))]
    summaries = [server.wait_finished(match_id, timeout=90) for match_id in ids]
    thread.join(60)
    assert all(s.result.termination not in ("not_played", "error") for s in summaries)
    played = [bot for bot in Diary.made if bot.events]
    assert len(played) == 4  # a seat each (the self-play match has two); the hello's sample none
    for bot in played:
        assert bot.most_inside == 1
        matches = {m for _, m in bot.events}
        assert len(matches) == 1 and bot.events[0][0] == "start" and bot.events[-1][0] == "end"
    assert sorted(m for bot in played for m in {m for _, m in bot.events}) == sorted([ids[0], *ids])


class _Late(RandomBot):
    """An in-process bot whose first choose takes 300 ms."""

    quick = False

    def __init__(self) -> None:
        super().__init__(0)
        self.calls = self.inside = self.most_inside = 0
        self.ended = False

    def choose(self, decision, view) -> int:
        self.calls += 1
        self.inside += 1
        self.most_inside = max(self.most_inside, self.inside)
        time.sleep(0.3 if self.calls == 1 else 0)
        self.inside -= 1
        return 0

    def end(self, result) -> None:
        self.ended = self.inside == 0  # told only once no choose is running


def _ask(allowance_ms: int, number: int) -> SimpleNamespace:
    options = (SimpleNamespace(key="a", label="a"), SimpleNamespace(key="b", label="b"))
    decision = SimpleNamespace(role="p1", step="s", prompt="", options=options)
    return SimpleNamespace(role="p1", number=number, decision=decision, allowance_ms=allowance_ms, clocks={},
                           attempt=0)


def test_a_late_choose_finishes_before_the_bot_is_asked_again():
    bot = _Late()
    seat = LocalSeat("p1", "late", InProcessSeat(bot, None, "m1"))
    match = SimpleNamespace(driver=SimpleNamespace(state=None))
    results = []

    async def main() -> None:
        results.append(await seat.ask(match, _ask(50, 1)))  # runs 300 ms: a timeout, left running
        results.append(await seat.ask(match, _ask(50, 2)))  # waits for it, runs out: never asked
        results.append(await seat.ask(match, _ask(5_000, 3)))  # asked once the late call returned

    trio.run(main)
    assert [type(r) for r in results] == [SeatFault, SeatFault, SeatAnswer]
    assert results[0].kind == "timeout" == results[1].kind
    assert bot.calls == 2 and bot.most_inside == 1


def test_the_end_waits_for_a_late_choose():
    from standoff.v1 import referee_pb2 as pb

    bot = _Late()
    local = InProcessSeat(bot, None, "m1")
    seat = LocalSeat("p1", "late", local)
    match = SimpleNamespace(driver=SimpleNamespace(state=None))
    message = pb.PlayResponse()
    message.match_ended.match_id = "m1"
    message.match_ended.role = "p1"

    async def main() -> None:
        assert (await seat.ask(match, _ask(50, 1))).kind == "timeout"
        await seat.end(match, message)  # the late choose is still running: the end waits for it

    trio.run(main)
    assert bot.ended


def _tournament(folder, token_dir, seed):
    tokens = TokenRegistry(token_dir / "tokens.json")
    token = tokens.add("alice", replace=True)
    folder.mkdir(parents=True)
    path = folder / "t.toml"
    path.write_text("\n".join([
        'name = "t"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"',
        'entrants = ["greedy", "random", "remote:alice"]', "games_per_pairing = 2", "concurrency = 4",
        f"master_seed = {seed}", 'address = "127.0.0.1:0"', "",
    ]))
    runner, box, address = serve_tournament(path, tokens)
    thread, _ = run_in_thread(Diary(3), address, token, matches=4)
    runner.join(120)
    thread.join(30)
    summary = box["summary"]
    return {r.match_id: comparable_record((summary.run_dir / "records" / f"{r.match_id}.jsonl").read_text())
            for r in summary.results}


def test_two_runs_with_one_master_seed_give_the_same_records_a_remote_entrant_included(tmp_path):
    first = _tournament(tmp_path / "a", tmp_path, 1234)
    second = _tournament(tmp_path / "b", tmp_path, 1234)
    assert len(first) == 6 and first.keys() == second.keys()
    for match_id in first:
        assert json.dumps(first[match_id]) == json.dumps(second[match_id]), match_id
