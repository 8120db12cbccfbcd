"""Run a tournament: schedule, play (an executor and/or the referee), write, rate, resume.

The coordinator is a trio program:

* matches between trusted plugin bots go to the match executor the config's ``executor`` names
  (:mod:`standoff.tournaments.executors`): ``local``, :class:`WorkerPool` (one worker process
  per core: ``python -m standoff.tournaments.worker``), so CPU-bound matches use every core; or
  ``ray``, one Ray task per match anywhere on a Ray cluster
  (:mod:`standoff.tournaments.ray_executor`, ``docs/ray.md``). Both play a match with
  :func:`standoff.tournaments.worker.run_job`, so they give identical results;
* matches with a remote entrant or a third-party plugin bot are played by the referee (the same
  trio :class:`~standoff.server.referee.Referee` as ``standoff serve``, with its gRPC server:
  :mod:`standoff.tournaments.serving`), so hidden information never shares a process with an
  untrusted bot. They stay on this machine with any executor: a remote bot's session is bound to
  this referee. Which of the two plays a match: :mod:`standoff.tournaments.dispatch`;
* one writer task owns ``results.jsonl`` and ``elo.jsonl`` (:mod:`standoff.tournaments.results_writer`):
  it appends results in canonical match order (holding back early finishers), flushing and
  fsyncing each line, then indexing it in the run's index (:mod:`standoff.tournaments.run_index`,
  which every lookup of the run asks instead of reading the results: what is done, the ratings
  between ladder rounds and at the end), and ignores a second result for a match id already
  written or waiting (a retried or duplicated task). A run killed at any moment therefore leaves a
  canonical prefix, and an index behind it that the next start catches up;
  rerunning the same command plays the rest (the run folder: :mod:`standoff.tournaments.run_folder`),
  and matches that were in flight are played again from their seeds. The final
  ``results.jsonl``, ``elo.jsonl`` and ``ratings.json`` are identical to an uninterrupted run's,
  whichever executor played which part.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import trio

from ..server.faults import CRASH, ERROR
from .config import TournamentConfig, is_remote, remote_name
from .dispatch import Executor
from .errors import ClusterFailed, RunError
from .executors import make_executor
from .model import MatchSpec, Result
from ..server.storage import StorageError, connect, errors_as_storage, index_path
from .report import write_outputs, write_ratings
from .results_writer import CanonicalOrder, ResultWriter
from .rosters import Rosters, round_matches
from .run_folder import Prepared, open_index, prepare, run_dir_of
from .run_index import RunIndex, ratings_from_index
from .schedule import schedule, untrusted_entrants
from .serving import needs_referee, run_served

__all__ = ["Progress", "RunError", "RunSummary", "run_schedule", "run_tournament"]


@dataclass
class RunSummary:
    """How a run ended: its folder, its ratings and whether it is complete. The results are in
    the run's index: :attr:`results` reads them all from it when first asked (a ladder's
    history may be long: nothing loads it unless asked), :attr:`failed` only those an error
    ended."""

    run_dir: Path
    ratings: dict[str, Any]
    complete: bool

    @functools.cached_property
    def results(self) -> list[Result]:
        """Every result of the run, in canonical order (read once, when first asked)."""
        return indexed_results(self.run_dir)

    @functools.cached_property
    def failed(self) -> list[Result]:
        """Matches an engine or referee error ended (no result; their records say why)."""
        return indexed_results(self.run_dir, f"termination = '{ERROR}'")  # a literal: the index of errors serves it


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
        if result.termination == "forfeit" and any(CRASH in kinds for kinds in result.faults.values()):
            # A bot that failed in its own code is named at once, whatever the bar shows: the
            # reason is its one line (bot, match, its file:line).
            line = f"{result.match_id}: {result.reason}"
            self.stream.write(f"\r{line:<70}\n" if self.tty else f"{line}\n")  # over the bar, on a terminal
        rate = (self.done - self.first) / max(time.monotonic() - self.started, 1e-9)
        if self.total:
            eta = (self.total - self.done) / rate if rate > 0 else float("inf")
            label = f"{self.done}/{self.total} matches, ETA {_duration(eta)}"
        else:  # an endless ladder: no bar to fill, the round instead
            label = f"round {result.round}: {self.done} matches ({rate * 60:.0f}/min)"
        if self.tty:
            width = 30
            filled = int(width * self.done / self.total) if self.total else 0
            bar = f"[{'#' * filled + '.' * (width - filled)}] " if self.total else ""
            self.stream.write(f"\r{bar}{label}   ")
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


# -- the run -------------------------------------------------------------------------------------


def _specs(config: TournamentConfig, ladder: bool, first: int, rounds: int | None,
           untrusted: frozenset[str] = frozenset(), rosters: Rosters | None = None) -> Iterator[MatchSpec]:
    """The matches to play: the schedule, or ladder rounds ``first``, ``first + 1``... (``rounds``
    of them, or without end). ``untrusted``: the entrants whose pairings are played unpaired.
    ``rosters``: a ladder open to submissions, each round with the entrants it has (recorded
    when its first match is scheduled)."""
    if not ladder:
        yield from schedule(config, untrusted=untrusted)
        return
    number = first
    while rounds is None or number < first + rounds:
        yield from round_matches(config, number, untrusted, rosters)
        number += 1


def _unpaired_notice(config: TournamentConfig, untrusted: frozenset[str]) -> str | None:
    """The line saying which pairings ``paired_seeds`` does not pair, or None."""
    names = [e for e in config.entrants if e in untrusted]
    if not config.paired_seeds or not names:
        return None
    return (f"paired seeds: pairings with {', '.join(names)} are played unpaired (their legs would show "
            "each leg's deal to an entrant seated in both)")


async def run_schedule(
    prepared: Prepared,
    registry: Any,
    *,
    referee: Any | None = None,
    ladder: bool = False,
    rounds: int | None = None,
    progress: TextIO | None = None,
    on_round: Callable[[RunIndex], None] | None = None,
    playing: dict[str, MatchSpec] | None = None,
) -> RunSummary:
    """The trio part of a run, in the run folder :func:`prepare` opened. ``referee`` (serving
    ``prepared.folder``) is needed when some matches cannot run in the match executor (remote
    entrants, untrusted plugin bots). ``playing``: kept up to date with the matches being
    played, by id (the web face's matches in play)."""
    config, folder, done_ids, index = prepared.config, prepared.folder, prepared.done, prepared.index
    assert index is not None, "prepare() opens the run's index"
    writer = ResultWriter(folder, index, config, prepared.entrants())
    is_ladder = ladder or config.format == "ladder"
    endless = is_ladder and rounds is None
    # `--rounds N` plays N rounds from where the run stands (a round begun counts as the first).
    untrusted = untrusted_entrants(config, registry)
    rosters = prepared.rosters if is_ladder else None
    specs = _specs(config, is_ladder, prepared.first if is_ladder else 1, rounds, untrusted, rosters)
    total, already = None, 0
    if not endless:
        finite = list(specs)
        specs = iter(finite)
        total = len(finite)
        already = sum(1 for spec in finite if spec.match_id in done_ids)
    bar = Progress(total, already, progress)
    pool = make_executor(config, registry)
    executor = Executor(config, folder, registry, pool, referee)
    executor.ladder = is_ladder
    executor.stream = progress
    if progress is not None and (notice := _unpaired_notice(config, untrusted)):
        progress.write(notice + "\n")
        progress.flush()
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
        order = CanonicalOrder(done_ids)
        results_send, results_receive = trio.open_memory_channel[Result](math.inf)
        limiter = trio.CapacityLimiter(max(1, config.concurrency))

        async def play(spec: MatchSpec, send: trio.MemorySendChannel[Result]) -> None:
            async with send:
                if playing is not None:
                    playing[spec.match_id] = spec
                try:
                    send.send_nowait(await executor.play(spec))
                finally:
                    if playing is not None:
                        playing.pop(spec.match_id, None)
                    limiter.release_on_behalf_of(spec)

        async def write() -> None:
            last_round = None
            async for result in results_receive:
                # Everything now writable in canonical order goes out in durable batches, one per
                # round (a second result for a match id already written or waiting is dropped):
                # a round's summary reads the index when it holds exactly the rounds before.
                for heads in _by_round(order.add(result)):
                    if last_round is not None and heads[0].round != last_round and on_round is not None:
                        on_round(index)  # a round ended: its summary, after its matches' lines
                    last_round = heads[-1].round
                    batch_elo = "".join(writer.take(head) for head in heads)
                    await trio.to_thread.run_sync(writer.write, heads, batch_elo)
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
        if on_round is not None and is_ladder and index.count():
            on_round(index)  # the last round's summary
    except BaseException as exc:
        if (failed := _run_error(exc, ClusterFailed)) is None:
            raise
        # The matches it hit have no line (a Ray failure is not theirs): the same command plays them.
        left = "the matches not yet played are" if total is None else _matches(total - already - writer.written)
        raise RunError(f"{failed}: {left} left unplayed; run the same command again to resume, once "
                       "the cluster is back") from None
    finally:
        bar.close()
        writer.close()
        with trio.CancelScope(shield=True):
            await pool.aclose()
    ratings = ratings_from_index(index, prepared.entrants())
    write_ratings(folder, ratings)
    return RunSummary(folder, ratings, complete)


def _by_round(results: list[Result]) -> Iterator[list[Result]]:
    """``results`` (canonical order) cut where the round changes."""
    group: list[Result] = []
    for result in results:
        if group and result.round != group[-1].round:
            yield group
            group = []
        group.append(result)
    if group:
        yield group


def indexed_results(run_dir: Path, where: str = "", params: tuple[Any, ...] = ()) -> list[Result]:
    """The results of the run folder ``run_dir`` (those matching ``where``), in canonical order,
    from its index as it is (whoever writes it catches it up first). Not a read-only connection:
    closing the last connection is what folds SQLite's WAL back into the file and removes it."""
    path = index_path(run_dir)
    if not path.exists():
        return []
    conn = connect(path)
    try:
        with errors_as_storage(path):
            return list(RunIndex(Path(run_dir), conn).results(where, params))
    finally:
        conn.close()


def _matches(count: int) -> str:
    return f"{count} match{'' if count == 1 else 'es'} {'is' if count == 1 else 'are'}"


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
    on_round: Callable[[RunIndex], None] | None = None,
    verify: bool = True,
    beside: Callable[..., Any] | None = None,
) -> RunSummary:
    """Run (or resume) a tournament to its end and return the summary. Ctrl-C stops it cleanly:
    the results so far are kept and the outputs rewritten from them. A resume first verifies
    the results already there (``verify``; :class:`RunError` if they were changed). ``beside``:
    a trio task run next to the run and cancelled when it ends (the web face, ``--http``):
    ``await beside(prepared, referee, playing, task_status=...)``, ``playing`` the matches in
    play by id (:func:`run_schedule`), ``referee`` None when the run needs none."""
    if registry is None:
        from ..server.plugins import load_registry

        registry = load_registry()
    kwargs = dict(ladder=ladder, rounds=rounds, progress=progress, on_round=on_round)
    prepared = None
    try:
        prepared = prepare(config, registry, fresh=fresh, verify=verify, ladder=ladder)

        async def play(referee: Any = None) -> RunSummary:
            if beside is None:
                return await run_schedule(prepared, registry, referee=referee, **kwargs)
            playing: dict[str, MatchSpec] = {}
            async with trio.open_nursery() as nursery:
                await nursery.start(beside, prepared, referee, playing)
                summary = await run_schedule(prepared, registry, referee=referee, playing=playing, **kwargs)
                nursery.cancel_scope.cancel()
            return summary

        if not needs_referee(config, registry):
            return trio.run(play)
        return run_served(prepared, registry, tokens, announce, play)
    except BaseException as exc:
        if not _interrupted(exc):
            if (error := _run_error(exc)) is not None:
                raise error from None  # one line, not a nursery's exception group
            if (broken := _run_error(exc, StorageError)) is not None:  # the run's index, read mid-run
                raise RunError(str(broken)) from None
            raise
        # Ctrl-C: the outputs from what was kept (the index catches up with anything written
        # after its last step: a batch the interrupt cut between its lines and its rows).
        folder = run_dir_of(config)
        if not (folder / "results.jsonl").exists():
            ratings = write_outputs(folder, [], entrants=list(config.entrants), k=config.elo_k, start=config.elo_start)
            return RunSummary(folder, ratings, False)
        with open_index(folder, verify=verify, elo=(config.elo_k, config.elo_start), registry=registry) as index:
            ratings = ratings_from_index(index, list(config.entrants))
        write_ratings(folder, ratings)
        return RunSummary(folder, ratings, False)
    finally:
        if prepared is not None and prepared.index is not None:
            prepared.index.close()


def _run_error(exc: BaseException, kind: type[Exception] = RunError) -> Any:
    """The :class:`RunError` (of ``kind``) that stopped the run, possibly wrapped in the exception
    groups of trio's nurseries (None if something else did too: a bug keeps its traceback)."""
    if isinstance(exc, kind):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        matched, rest = exc.split(kind)
        if matched is not None and rest is None:
            while isinstance(matched, BaseExceptionGroup):
                matched = matched.exceptions[0]
            return matched
    return None


def _interrupted(exc: BaseException) -> bool:
    """A Ctrl-C, possibly wrapped in the exception groups of trio's nurseries."""
    if isinstance(exc, KeyboardInterrupt):
        return True
    if isinstance(exc, BaseExceptionGroup):
        matched, rest = exc.split(KeyboardInterrupt)
        return matched is not None and rest is None
    return False
