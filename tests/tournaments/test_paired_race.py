"""Paired seeds against an entrant that races its matches (issue 40, item 1).

The legs of a paired seed deal the same cards with the seats swapped, so an entrant seated in
both that plays one leg ahead of the other reads its opponent's hand, future draws included, off
its own cards (tests/kits/mole.py). A pairing with a remote entrant is therefore played unpaired:
the mole, racing as before, names no more of its opponent's hand than a uniform guess among the
cards it cannot see, and no bot seed it is given is one its opponent got.
"""

from __future__ import annotations

import asyncio
import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from kits.mole import Mole, play_in_thread, score
from kits.tournament import serve_tournament

from standoff.bots.random_bot import RandomBot
from standoff.server.auth import TokenRegistry
from standoff.server.core.seeds import derive_seed
from standoff.server.faults import TimeControl
from standoff.server.hosting import MatchHost, host_job
from standoff.server.local import bot_seed
from standoff.server.plugins import BotSpec, load_registry
from standoff.server.records import read_record
from standoff.tournaments.config import load_config, parse_config
from standoff.tournaments.model import Result
from standoff.tournaments.report import compute_ratings
from standoff.tournaments.dispatch import Executor
from standoff.tournaments.run_folder import prepare
from standoff.tournaments.runner import RunError, run_tournament
from standoff.tournaments.schedule import ladder_round, schedule, untrusted_entrants
from standoff.tournaments.worker import run_job

GAMES = 6


def write_config(folder: Path, name: str, **extra) -> Path:
    lines = [f'name = "{name}"', 'game = "schotten-totten"', f'output_dir = "{folder / "runs"}"']
    lines += [f"{key} = {json.dumps(value)}" for key, value in extra.items()]
    lines += ["[options]", 'tactics = "off"']  # draws from the troop deck only: a leg's draws are the other's
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


def test_a_racing_entrant_learns_nothing_of_the_other_leg(tmp_path):
    tokens = TokenRegistry(tmp_path / "tokens.json")
    token = tokens.add("mole")
    # paired_seeds = true (the default), two matches at once: a paired schedule would start
    # the two legs of a seed together.
    path = write_config(tmp_path, "race", entrants=["random", "remote:mole"], games_per_pairing=GAMES,
                        paired_seeds=True, concurrency=2, remote_wait_s=20)
    runner, box, address = serve_tournament(path, tokens)
    mole = Mole(stall_s=0.5)
    thread, ended = play_in_thread(mole, address, token, GAMES)
    runner.join(120)
    thread.join(30)
    summary = box["summary"]
    assert summary.complete and len(summary.results) == GAMES and len(ended) == GAMES, ended
    assert all(r.played for r in summary.results)
    assert all(r.pair is None and r.leg == 0 for r in summary.results)  # played unpaired
    assert sum(r.seats["p1"] == "remote:mole" for r in summary.results) == GAMES // 2  # seats still rotate

    records = {r.match_id: read_record(summary.run_dir / "records" / f"{r.match_id}.jsonl") for r in summary.results}
    result = score(mole, records)
    assert result["decisions"] >= 3 * GAMES  # the attack ran: a match of the other seat to read from
    # Chance is ~0.2 of the hand (7 cards among 35-53 unseen); the race on paired legs names ~0.9.
    assert result["named"] <= result["chance"] + 0.15, result

    # No bot seed the mole was given is one its opponent got, in any match.
    theirs = {bot_seed(r.seed, role, r.leg) for r in summary.results for role, who in r.seats.items()
              if who != "remote:mole"}
    assert not {info.seed for info in mole.matches.values()} & theirs


# -- which pairings are paired ------------------------------------------------------------------


def test_pairings_with_a_remote_entrant_are_unpaired_and_the_others_keep_their_pairs(tmp_path):
    path = write_config(tmp_path, "mixed", entrants=["greedy", "random", "remote:ghost"], games_per_pairing=2,
                        master_seed=5, remote_wait_s=0)
    progress = io.StringIO()
    summary = run_tournament(load_config(path), tokens=TokenRegistry(tmp_path / "tokens.json"), progress=progress)
    assert summary.complete and len(summary.results) == 6
    notice = ("paired seeds: pairings with remote:ghost are played unpaired (their legs would show each leg's "
              "deal to an entrant seated in both)")
    assert progress.getvalue().splitlines().count(notice) == 1
    builtin = [r for r in summary.results if "remote:ghost" not in r.seats.values()]
    ghost = [r for r in summary.results if "remote:ghost" in r.seats.values()]
    # The built-ins' pair as before: same ids, indices, seed and pair number as without a remote entrant.
    assert [(r.match_id, r.index, r.pair, r.leg) for r in builtin] == [
        ("c1-greedy-vs-random-g01", 0, 0, 0), ("c1-greedy-vs-random-g02", 1, 0, 1)]
    assert {r.seed for r in builtin} == {derive_seed(5, "match", 1, "greedy", "random", 1)}
    # The remote entrant's games: a seed each (the game number), no pair, seats still swapped.
    for a in ("greedy", "random"):
        games = [r for r in ghost if a in r.seats.values()]
        assert [(r.pair, r.leg) for r in games] == [(None, 0), (None, 0)]
        assert [r.seed for r in games] == [derive_seed(5, "match", 1, a, "remote:ghost", n) for n in (1, 2)]
        assert games[0].seats["p1"] == games[1].seats["p2"]
    # A resume checks the results against this schedule and plays nothing again.
    again = run_tournament(load_config(path), tokens=TokenRegistry(tmp_path / "tokens.json"))
    assert [r.to_json() for r in again.results] == [r.to_json() for r in summary.results]


def test_an_untrusted_plugin_bot_s_pairings_are_unpaired():
    registry = load_registry(entry_points=False)
    registry.bots["outsider"] = BotSpec(name="outsider", factory=RandomBot, games=(), distribution="tests")
    assert registry.bots["outsider"].trusted is False  # an installed plugin: played by the referee
    config = parse_config({"name": "t", "game": "schotten-totten", "entrants": ["greedy", "random", "outsider"],
                           "games_per_pairing": 4, "master_seed": 3}, source="t.toml", registry=registry)
    untrusted = untrusted_entrants(config, registry)
    assert untrusted == {"outsider"}
    matches = schedule(config, untrusted=untrusted)
    assert [m.match_id for m in matches] == [m.match_id for m in schedule(config)]  # same ids and seats
    assert [m.seats for m in matches] == [m.seats for m in schedule(config)]
    for m in matches:
        assert (m.pair is None) == ("outsider" in m.seats)
    assert len({m.seed for m in matches if "outsider" in m.seats}) == 8
    ladder = replace(config, format="ladder")
    assert [m.pair for m in ladder_round(ladder, 1, untrusted=untrusted)] == [m.pair for m in matches]


def test_a_run_begun_with_paired_remote_legs_is_not_resumed_unpaired(tmp_path, monkeypatch):
    import standoff.tournaments.schedule as schedule_module

    path = write_config(tmp_path, "old", entrants=["greedy", "remote:ghost"], games_per_pairing=2, remote_wait_s=0)
    # As earlier versions did: the remote entrant's legs paired.
    monkeypatch.setattr(schedule_module, "_unpaired", lambda config, untrusted: frozenset())
    old = run_tournament(load_config(path), tokens=TokenRegistry(tmp_path / "tokens.json"))
    assert [r.pair for r in old.results] == [0, 0]
    monkeypatch.undo()
    with pytest.raises(RunError, match="not the one this version schedules.*--fresh"):
        prepare(load_config(path), load_registry(entry_points=False))
    fresh = run_tournament(load_config(path), tokens=TokenRegistry(tmp_path / "tokens.json"), fresh=True)
    assert [r.pair for r in fresh.results] == [None, None]


def test_ratings_take_paired_and_unpaired_pairs_of_one_run():
    def result(index, seats, winner, pair, leg, seed):
        return Result(index=index, match_id=f"m{index}", round=1, seed=seed, seats=dict(zip(("p1", "p2"), seats)),
                      played=True, winner=winner, winner_role="p1" if seats[0] == winner else "p2",
                      scores={"p1": float(seats[0] == winner), "p2": float(seats[1] == winner)},
                      termination="breakthrough", reason="", pair=pair, leg=leg)

    results = [
        result(0, ("a", "b"), "a", 0, 0, 1), result(1, ("b", "a"), "a", 0, 1, 1),
        result(2, ("a", "b"), "b", 1, 0, 2), result(3, ("b", "a"), "a", 1, 1, 2),
        result(4, ("a", "remote:c"), "a", None, 0, 3), result(5, ("remote:c", "a"), "remote:c", None, 0, 4),
        result(6, ("b", "remote:c"), "b", None, 0, 5), result(7, ("remote:c", "b"), "b", None, 0, 6),
    ]
    ratings = compute_ratings(results)
    pairs = {(p["a"], p["b"]): p for p in ratings["pairs"]}
    assert pairs[("a", "b")]["pentanomial"]["pairs"] == 2
    assert pairs[("a", "b")]["pentanomial"]["counts"] == [0, 0, 1, 0, 1]
    assert pairs[("a", "remote:c")]["pentanomial"] is None and pairs[("a", "remote:c")]["games"] == 2
    assert pairs[("b", "remote:c")]["pentanomial"] is None and pairs[("b", "remote:c")]["wins"] == 2


# -- bot seeds ----------------------------------------------------------------------------------


def test_bot_seeds_are_per_seat_and_per_leg():
    for seed in (1, 2**63 - 1, 123456789):
        seeds = {(role, leg): bot_seed(seed, role, leg) for role in ("p1", "p2", "p3") for leg in (0, 1, 2)}
        assert len(set(seeds.values())) == 9
        # Leg 0 (every unpaired match, first legs) is the seed as before: records and goldens unchanged.
        assert all(bot_seed(seed, role) == seeds[(role, 0)] == derive_seed(seed, "bot", role)
                   for role in ("p1", "p2", "p3"))


class _Recorder(RandomBot):
    """A random bot noting the seed it was made with and the one MatchStarted gave it."""

    seen: list = []

    def start(self, match) -> None:
        super().start(match)
        _Recorder.seen.append((match.match_id, match.role, self.seed, match.seed))


def test_no_entrant_gets_its_opponent_s_bot_seed_in_the_other_leg_in_workers(tmp_path):
    registry = load_registry(entry_points=False)
    for name in ("greedy", "random"):
        registry.bots[name] = replace(registry.bots[name], factory=_Recorder)
    path = write_config(tmp_path, "legs", entrants=["greedy", "random"], games_per_pairing=4, master_seed=9)
    config = load_config(path, registry=registry)
    specs = schedule(config)
    _Recorder.seen = []
    executor = Executor(config, tmp_path, registry, None, None)
    (tmp_path / "records").mkdir()
    for spec in specs:  # what a worker process or a Ray task runs
        run_job(executor._job(spec), registry)
    by_id = {spec.match_id: spec for spec in specs}
    held = {}  # (pair, leg, entrant) -> bot seed
    for match_id, role, made, started in _Recorder.seen:
        spec = by_id[match_id]
        assert made == started == bot_seed(spec.seed, role, spec.leg)
        held[(spec.pair, spec.leg, spec.seats[("p1", "p2").index(role)])] = started
    assert len(held) == 8 and len(set(held.values())) == 8
    for pair in (0, 1):
        for entrant, other in (("greedy", "random"), ("random", "greedy")):
            assert held[(pair, 1, entrant)] != held[(pair, 0, other)]  # the seat's seed of the other leg


def test_the_referee_and_a_match_host_seed_each_leg_s_bots_apart(tmp_path):
    from kits.server import ServerThread

    seed = 77
    registry = load_registry(entry_points=False)
    # A hosted match (split referee): the host seats the built-in bots.
    hosted = {}
    for leg, seats in ((0, ("greedy", "random")), (1, ("random", "greedy"))):
        job = host_job(f"h{leg}", "schotten-totten", "", {}, seed, dict(zip(("p1", "p2"), seats)), [],
                       TimeControl(), None, 0, None, leg=leg)
        host = MatchHost(job, registry)
        for role, seat in host.seats.items():
            assert seat.bot.seed == host.driver.started_message(role).match_started.seed
            hosted[(leg, seat.bot.name)] = seat.bot.seed
    assert hosted[(1, "random")] == bot_seed(seed, "p1", 1) != hosted[(0, "greedy")] == bot_seed(seed, "p1")
    assert len(set(hosted.values())) == 4

    server = ServerThread(tmp_path).start()
    try:
        referee = server.running.referee

        async def create(bots, leg):
            return referee.create_match("schotten-totten", None, {}, bots, seed=seed, leg=leg, match_id=f"m{leg}")

        async def in_trio(*args):
            return await server.running.bridge.call(create, *args)

        def call(*args):
            return asyncio.run_coroutine_threadsafe(in_trio(*args), server.loop).result(30)

        seated = {}
        for leg, bots in ((0, ["greedy", "random"]), (1, ["random", "greedy"])):
            match = call(bots, leg)
            for role, seat in match.seats.items():
                assert seat.local.bot.seed == match.driver.started_message(role).match_started.seed
                seated[(leg, seat.bot)] = seat.local.bot.seed
        assert seated == hosted
    finally:
        server.stop()
