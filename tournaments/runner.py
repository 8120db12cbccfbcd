"""Run a tournament: schedule, play (an executor and/or the referee), write, rate, resume.

The coordinator is a trio program:

* matches between trusted plugin bots go to the match executor the config's ``executor`` names
  (:mod:`standoff.tournaments.executors`): ``local``, :class:`WorkerPool` (one worker process
  per core: ``python -m standoff.tournaments.worker``), so CPU-bound matches use every core; or
  ``ray``, one Ray task per match anywhere on a Ray cluster
  (:mod:`standoff.tournaments.ray_executor`, ``docs/ray.md``). Both play a match with
  :func:`standoff.tournaments.worker.run_job`, so they give identical results;
* matches with a remote entrant or a third-party plugin bot are played by the referee (the same
  trio :class:`~standoff.server.referee.Referee` as ``standoff serve``, with its gRPC server), so
  hidden information never shares a process with an untrusted bot. They stay on this machine
  with any executor: a remote bot's session is bound to this referee;
* one writer task owns ``results.jsonl`` and ``elo.jsonl``: it appends results in canonical
  match order (holding back early finishers), flushing and fsyncing each line, and ignores a
  second result for a match id already written or waiting (a retried or duplicated task). A run
  killed at any moment therefore leaves a canonical prefix; rerunning the same command plays the
  rest, and matches that were in flight are played again from their seeds. The final
  ``results.jsonl``, ``elo.jsonl`` and ``ratings.json`` are identical to an uninterrupted run's,
  whichever executor played which part.
"""

from __future__ import annotations

import functools
import json
import math
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import trio

from ..server.faults import TimeControl, policy_from_name
from ..server.plugins import PLUGINS_ENV
from ..server.core.seeds import derive_seed
from .config import TournamentConfig, is_remote, remote_name
from .executors import MatchExecutor, RunError, make_executor, store_records
from .executors import Worker, WorkerPool  # noqa: F401 - re-exported: they used to live here
from .model import MatchSpec, Result
from .ratings import elo_update
from .report import elo_text, read_results, write_outputs
from .schedule import ladder_round, schedule
from .series import Series, result_of_game


@dataclass
class RunSummary:
    run_dir: Path
    results: list[Result]
    ratings: dict[str, Any]
    complete: bool


# -- the run folder ---------------------------------------------------------------------------


def run_dir_of(config: TournamentConfig) -> Path:
    return Path(config.output_dir) / config.name


def prepare_run_dir(config: TournamentConfig, *, fresh: bool = False) -> tuple[Path, list[Result]]:
    """Create or reopen the run folder; returns it and the results already there.

    A folder made by a different configuration is refused (resume must not mix tournaments),
    except for :data:`EXECUTION_KEYS` (where matches run does not change them); ``fresh`` wipes
    the previous results first. A torn last line (a kill mid-write) is cut off.
    """
    folder = run_dir_of(config)
    (folder / "records").mkdir(parents=True, exist_ok=True)
    config_path = folder / "config.json"
    wanted = json.dumps(config.to_json(), sort_keys=True, indent=2) + "\n"
    results_path = folder / "results.jsonl"
    if fresh:
        for name in ("results.jsonl", "elo.jsonl", "ratings.json"):
            (folder / name).unlink(missing_ok=True)
        for record in (folder / "records").glob("*.jsonl"):
            record.unlink()
    elif config_path.exists() and not _same_tournament(config_path.read_text(), config):
        raise RunError(
            f"{folder} holds a run of a different configuration; use another name, or --fresh to "
            "start it again"
        )
    _atomic_write(config_path, wanted)
    for torn in (folder / "records").glob(".*.tmp"):  # a record being stored when the run was killed
        torn.unlink(missing_ok=True)
    if results_path.exists():
        _cut_torn_tail(results_path)
        results = read_results(results_path)
    else:
        results = []
    return folder, results


#: Config keys that only say where matches run: a run may be resumed with other values (every
#: executor gives the same results), e.g. started on this machine and finished on a Ray cluster.
EXECUTION_KEYS = ("executor", "ray_address")


def _same_tournament(saved: str, config: TournamentConfig) -> bool:
    """Whether ``saved`` (a run folder's config.json) is the tournament ``config`` describes."""
    try:
        old = json.loads(saved)
    except ValueError:
        return False
    new = config.to_json()
    if not isinstance(old, dict):
        return False
    for key in EXECUTION_KEYS:
        old.pop(key, None)
        new.pop(key, None)
    return old == json.loads(json.dumps(new))


def _cut_torn_tail(path: Path) -> None:
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        with open(path, "r+b") as file:
            file.truncate(data.rfind(b"\n") + 1)
            file.flush()
            os.fsync(file.fileno())


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8") as file:
        file.write(text)
        file.flush()
        os.fsync(file.fileno())
    os.replace(tmp, path)


# -- results writer ------------------------------------------------------------------------------


class CanonicalOrder:
    """Results in (in any order, possibly twice), results to write out (in canonical order,
    each match id once).

    :meth:`expect` is called in canonical order as matches are started; :meth:`add` takes a
    finished result and returns those that can now be written. Idempotent by match id: a result
    for an id already written or already waiting (a task retried or completed twice), or for an
    id never expected, is ignored.
    """

    def __init__(self, written: set[str] | None = None) -> None:
        self.written: set[str] = set(written or ())
        self.expected: set[str] = set()
        self.order: deque[str] = deque()
        self.pending: dict[str, Result] = {}
        self.duplicates = 0

    def expect(self, match_id: str) -> None:
        if match_id not in self.written and match_id not in self.expected:
            self.expected.add(match_id)
            self.order.append(match_id)

    def add(self, result: Result) -> list[Result]:
        match_id = result.match_id
        if match_id not in self.expected or match_id in self.pending:
            self.duplicates += 1
            return []
        self.pending[match_id] = result
        ready = []
        while self.order and self.order[0] in self.pending:
            head = self.order.popleft()
            self.expected.discard(head)
            self.written.add(head)
            ready.append(self.pending.pop(head))
        return ready



class ResultWriter:
    """The only writer of results.jsonl and elo.jsonl: appends in canonical order."""

    def __init__(self, folder: Path, done: list[Result], config: TournamentConfig) -> None:
        self.folder = folder
        self.results = list(done)
        self.k, self.start = config.elo_k, config.elo_start
        # elo.jsonl is derived: rewrite it from the results so far, then append as they come.
        write_outputs(folder, self.results, entrants=list(config.entrants), k=self.k, start=self.start)
        self.elo = {}
        for result in self.results:
            self._update_elo(result)
        self.results_file = open(folder / "results.jsonl", "a", encoding="utf-8")  # noqa: SIM115
        self.elo_file = open(folder / "elo.jsonl", "a", encoding="utf-8")  # noqa: SIM115

    def _update_elo(self, result: Result) -> list[dict[str, Any]]:
        lines = []
        for a, b, score in result.pairwise():
            ra, rb = self.elo.get(a, self.start), self.elo.get(b, self.start)
            na, nb = elo_update(ra, rb, score, self.k)
            self.elo[a], self.elo[b] = na, nb
            lines.append({
                "index": result.index, "match_id": result.match_id, "a": a, "b": b, "score_a": score,
                "a_before": round(ra, 4), "b_before": round(rb, 4), "a_after": round(na, 4), "b_after": round(nb, 4),
            })
        return lines

    def lines(self, result: Result) -> tuple[str, str]:
        """Take ``result`` in; return its results.jsonl and elo.jsonl text (to :meth:`write`)."""
        self.results.append(result)
        # elo lines are the same as a full recompute writes
        return json.dumps(result.to_json(), sort_keys=True) + "\n", elo_text(self._update_elo(result))

    def write(self, results_text: str, elo_lines: str) -> None:
        """Append and make durable (runs in a thread: fsync must not stall the coordinator)."""
        self.results_file.write(results_text)
        self.results_file.flush()
        os.fsync(self.results_file.fileno())
        self.elo_file.write(elo_lines)
        self.elo_file.flush()

    def close(self) -> None:
        self.results_file.close()
        self.elo_file.close()


# -- progress ------------------------------------------------------------------------------------


class Progress:
    """A progress bar with ETA on a terminal; plain lines every 10% otherwise."""

    def __init__(self, total: int | None, done: int, stream: TextIO | None) -> None:
        self.total, self.done, self.stream = total, done, stream
        self.started = time.monotonic()
        self.first = done
        self.tty = bool(stream is not None and stream.isatty())
        self.next_line = done

    def update(self, result: Result) -> None:
        self.done += 1
        if self.stream is None:
            return
        rate = (self.done - self.first) / max(time.monotonic() - self.started, 1e-9)
        if self.total:
            eta = (self.total - self.done) / rate if rate > 0 else float("inf")
            label = f"{self.done}/{self.total} matches, ETA {_duration(eta)}"
        else:
            label = f"{self.done} matches ({rate * 60:.0f}/min)"
        if self.tty:
            width = 30
            filled = int(width * self.done / self.total) if self.total else 0
            bar = "#" * filled + "." * (width - filled) if self.total else ""
            self.stream.write(f"\r[{bar}] {label}   ")
            self.stream.flush()
        elif self.done >= self.next_line or self.done == self.total:
            step = max(1, (self.total or 100) // 10)
            self.next_line = self.done + step
            self.stream.write(f"{label}: {result.match_id} {result.termination}\n")
            self.stream.flush()

    def close(self) -> None:
        if self.tty and self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


def _duration(seconds: float) -> str:
    if not math.isfinite(seconds):
        return "?"
    seconds = int(seconds)
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


# -- playing one match ---------------------------------------------------------------------------


class Executor:
    """Plays a MatchSpec, choosing the match executor (``pool``: local workers or Ray) or the
    referee."""

    def __init__(self, config: TournamentConfig, folder: Path, registry: Any, pool: MatchExecutor | None,
                 referee: Any | None) -> None:
        self.config = config
        self.folder = folder
        self.registry = registry
        self.pool = pool
        self.referee = referee
        self.absent: set[str] = set()  # remote entrants that never connected
        self.connect_timeout_s = config.remote_wait_s
        self.ladder = False  # a ladder plays each round among the remote entrants connected now

    def local(self, spec: MatchSpec) -> bool:
        """Whether every seat is a trusted plugin bot (then the match executor may play it)."""
        for entrant in spec.seats:
            if is_remote(entrant):
                return False
            bot = self.registry.bots.get(entrant)
            if bot is None or not bot.trusted:
                return False
        return True

    async def play(self, spec: MatchSpec) -> Result:
        roles = self.config.game_roles
        absent = [e for e in spec.seats if e in self.absent]
        if self.ladder and self.referee is not None:
            absent += [e for e in spec.seats if is_remote(e) and remote_name(e) not in self.referee.sessions]
        if absent:
            return Result(
                index=spec.index, match_id=spec.match_id, round=spec.round, seed=spec.seed,
                seats=dict(zip(roles, spec.seats, strict=True)), played=False, winner=None, winner_role=None,
                scores=dict.fromkeys(roles, 0.0), termination="not_played",
                reason=f"never connected: {', '.join(sorted(set(absent)))}", pair=spec.pair, leg=spec.leg,
            )
        if self.local(spec):
            answer = await self.pool.run(self._job(spec))
            if "error" in answer:
                raise RunError(f"match {spec.match_id} failed in a worker:\n{answer['error']}")
            if answer.get("records"):
                # Played where the run folder is not (Ray): the coordinator writes the records,
                # before the result, so that every result line has its complete record.
                await trio.to_thread.run_sync(store_records, self.folder / "records", answer["records"])
            return Result.from_json(answer["result"])
        return await self._on_referee(spec)

    def _job(self, spec: MatchSpec) -> dict[str, Any]:
        c = self.config
        return {
            "spec": {"index": spec.index, "match_id": spec.match_id, "round": spec.round,
                     "seats": list(spec.seats), "seed": spec.seed, "pair": spec.pair, "leg": spec.leg},
            "game": c.game, "ruleset": c.ruleset, "options": dict(c.options),
            "time_control": {"bank_ms": c.bank_ms, "increment_ms": c.increment_ms,
                             "max_per_decision_ms": c.max_per_decision_ms},
            "policy": c.fault_policy, "retries": c.retries,
            "records_dir": str(self.folder / "records"),
            "match_games": c.match_games, "target_score": c.target_score,
            # The trusted plugin modules the coordinator loaded: a Ray task loads the same ones.
            "plugins": os.environ.get(PLUGINS_ENV, ""),
        }

    async def _on_referee(self, spec: MatchSpec) -> Result:
        c = self.config
        roles = c.game_roles
        series = c.match_games or c.target_score
        tc = TimeControl(c.bank_ms, c.increment_ms, c.max_per_decision_ms)

        async def play_game(number: int, first: str | None):
            options = dict(c.options)
            if first is not None:
                options["first"] = first
            seed = derive_seed(spec.seed, "game", number) if series else spec.seed
            match = self.referee.create_match(
                c.game, c.ruleset, options, list(spec.seats), seed=seed, time_control=tc,
                policy=policy_from_name(c.fault_policy), retries=c.retries,
                connect_timeout_s=self.connect_timeout_s,
                match_id=f"{spec.match_id}-g{number}" if series else spec.match_id,
            )
            self.referee.start_match(match)
            await match.done.wait()
            state = getattr(match, "final_state", None)
            game = self.registry.games[c.game]
            flags = game.flags_claimed(state) if state is not None and hasattr(game, "flags_claimed") else {}
            return match.outcome, flags, match.faults

        if series:
            match = Series(spec, roles, c.match_games, c.target_score)
            while (next_game := match.next_game()) is not None:
                match.add(*await play_game(*next_game))
            return match.result()
        outcome, _, faults = await play_game(1, None)
        return result_of_game(spec, roles, outcome, faults)


# -- the run -------------------------------------------------------------------------------------


def _specs(config: TournamentConfig, ladder: bool, rounds: int | None) -> Iterator[MatchSpec]:
    if not ladder:
        yield from schedule(config)
        return
    number = 1
    while rounds is None or number <= rounds:
        yield from ladder_round(config, number)
        number += 1


async def run_schedule(
    config: TournamentConfig,
    registry: Any,
    *,
    referee: Any | None = None,
    fresh: bool = False,
    ladder: bool = False,
    rounds: int | None = None,
    progress: TextIO | None = None,
    on_round: Callable[[list[Result]], None] | None = None,
) -> RunSummary:
    """The trio part of a run. ``referee`` is needed when some matches cannot run in the match
    executor (remote entrants, untrusted plugin bots)."""
    folder, done = prepare_run_dir(config, fresh=fresh)
    if referee is not None:
        referee.data_dir = folder  # its records land in the run folder
    done_ids = {r.match_id for r in done}
    writer = ResultWriter(folder, done, config)
    endless = (ladder or config.format == "ladder") and rounds is None
    specs = _specs(config, ladder or config.format == "ladder", rounds)
    total = None
    if not endless:
        finite = list(specs)
        specs = iter(finite)
        total = len(finite)
    bar = Progress(total, len(done), progress)
    pool = make_executor(config)
    executor = Executor(config, folder, registry, pool, referee)
    executor.ladder = endless or ladder or config.format == "ladder"
    complete = False
    try:
        if _plays_locally(config, registry):
            await pool.start()
            if progress is not None and (line := pool.describe()):
                progress.write(line + "\n")
                progress.flush()
            bar.started = time.monotonic()  # the ETA counts from here, not from a cluster's start-up
        await _wait_for_remotes(config, referee, executor)
        # Match ids in canonical order, not yet written; results that finished early wait there.
        order = CanonicalOrder({r.match_id for r in done})
        results_send, results_receive = trio.open_memory_channel[Result](math.inf)
        limiter = trio.CapacityLimiter(max(1, config.concurrency))

        async def play(spec: MatchSpec, send: trio.MemorySendChannel[Result]) -> None:
            async with send:
                try:
                    send.send_nowait(await executor.play(spec))
                finally:
                    limiter.release_on_behalf_of(spec)

        async def write() -> None:
            last_round = None
            async for result in results_receive:
                # Everything now writable in canonical order goes out in one durable batch (a
                # second result for a match id already written or waiting is dropped).
                batch_results, batch_elo, heads = [], [], []
                for head in order.add(result):
                    if on_round is not None and last_round is not None and head.round != last_round:
                        on_round(list(writer.results))
                    last_round = head.round
                    text, elo = writer.lines(head)
                    batch_results.append(text)
                    batch_elo.append(elo)
                    heads.append(head)
                if heads:
                    await trio.to_thread.run_sync(writer.write, "".join(batch_results), "".join(batch_elo))
                    for head in heads:
                        bar.update(head)

        async with trio.open_nursery() as nursery:
            nursery.start_soon(write)
            async with results_send:
                for spec in specs:
                    if spec.match_id in done_ids:
                        continue
                    await limiter.acquire_on_behalf_of(spec)
                    order.expect(spec.match_id)
                    nursery.start_soon(play, spec, results_send.clone())
        complete = True
    finally:
        bar.close()
        writer.close()
        with trio.CancelScope(shield=True):
            await pool.aclose()
    ratings = write_outputs(folder, writer.results, entrants=list(config.entrants), k=config.elo_k,
                            start=config.elo_start)
    return RunSummary(folder, writer.results, ratings, complete)


def _plays_locally(config: TournamentConfig, registry: Any) -> bool:
    """Whether some match can be one for the match executor: as many trusted plugin bots as
    the game has seats (otherwise the executor is not started: no Ray cluster for nothing)."""
    trusted = [e for e in config.entrants if not is_remote(e) and getattr(registry.bots.get(e), "trusted", False)]
    return len(trusted) >= len(config.game_roles)


async def _wait_for_remotes(config: TournamentConfig, referee: Any | None, executor: Executor) -> None:
    """Remote entrants get ``remote_wait_s`` to connect; the matches of those who never do are
    recorded as not played (never as losses)."""
    remotes = {remote_name(e): e for e in config.entrants if is_remote(e)}
    if not remotes or referee is None:
        executor.absent = set(remotes.values())
        return
    with trio.move_on_after(config.remote_wait_s):
        while not all(name in referee.sessions for name in remotes):
            await trio.sleep(0.05)
    executor.absent = {entrant for name, entrant in remotes.items() if name not in referee.sessions}


# -- entry points ----------------------------------------------------------------------------------


def needs_referee(config: TournamentConfig, registry: Any) -> bool:
    """Whether some entrant must play through the referee server (remote, or an untrusted
    plugin bot, which runs in a subprocess of its own)."""
    for entrant in config.entrants:
        if is_remote(entrant):
            return True
        spec = registry.bots.get(entrant)
        if spec is None or not spec.trusted:
            return True
    return False


def run_tournament(
    config: TournamentConfig,
    *,
    registry: Any = None,
    fresh: bool = False,
    ladder: bool = False,
    rounds: int | None = None,
    progress: TextIO | None = None,
    tokens: Any = None,
    announce: Callable[[str], None] | None = None,
    on_round: Callable[[list[Result]], None] | None = None,
) -> RunSummary:
    """Run (or resume) a tournament to its end and return the summary. Ctrl-C stops it cleanly:
    the results so far are kept and the outputs rewritten from them."""
    if registry is None:
        from ..server.plugins import load_registry

        registry = load_registry()
    kwargs = dict(fresh=fresh, ladder=ladder, rounds=rounds, progress=progress, on_round=on_round)
    try:
        if not needs_referee(config, registry):
            return trio.run(lambda: run_schedule(config, registry, **kwargs))
        return _run_with_server(config, registry, tokens, announce, kwargs)
    except BaseException as exc:
        if not _interrupted(exc):
            raise
        folder = run_dir_of(config)
        results = read_results(folder / "results.jsonl") if (folder / "results.jsonl").exists() else []
        ratings = write_outputs(folder, results, entrants=list(config.entrants), k=config.elo_k,
                                start=config.elo_start)
        return RunSummary(folder, results, ratings, False)


def _interrupted(exc: BaseException) -> bool:
    """A Ctrl-C, possibly wrapped in the exception groups of trio's nurseries."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, BaseExceptionGroup):
        matched, rest = exc.split(KeyboardInterrupt)
        return matched is not None and rest is None
    return False


def _run_with_server(config, registry, tokens, announce, kwargs) -> RunSummary:
    import asyncio

    from ..server.auth import TokenRegistry
    from ..server.rpc import start_server

    async def main() -> RunSummary:
        running = await start_server(
            config.address, tokens=tokens if tokens is not None else TokenRegistry(),
            registry=registry, data_dir=run_dir_of(config),
        )
        loop = asyncio.get_running_loop()
        interrupted = asyncio.Event()
        handle_sigint = threading.current_thread() is threading.main_thread()
        stop = asyncio.ensure_future(interrupted.wait())
        work = None
        try:
            if handle_sigint:
                loop.add_signal_handler(signal.SIGINT, interrupted.set)
            if announce is not None:
                announce(running.address)
            work = running.bridge.call(
                functools.partial(run_schedule, config, registry, referee=running.referee, **kwargs)
            )
            await asyncio.wait({work, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if handle_sigint:
                loop.remove_signal_handler(signal.SIGINT)
            stop.cancel()
            await running.stop(grace=1.0)  # cancels trio: an unfinished run stops cleanly
        assert work is not None
        if work.done() and not work.cancelled() and work.exception() is None:
            return work.result()
        if work.done() and not work.cancelled() and not isinstance(work.exception(), trio.Cancelled):
            raise work.exception()
        raise KeyboardInterrupt

    return asyncio.run(main())
