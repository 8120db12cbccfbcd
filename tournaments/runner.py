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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

import structlog
import trio

from ..server.core.game import Outcome
from ..server.core.record import Record, make_header, outcome_line
from ..server.faults import CRASH, ERROR, TimeControl, policy_from_name
from ..server.local import code_version, new_seed
from ..server.private_files import open_private, private_dir, replace_private
from ..server.records import cut_torn_tail, write_record
from ..server.plugins import PLUGINS_ENV
from ..server.core.seeds import derive_seed
from .config import TournamentConfig, is_remote, is_submission, remote_name
from .executors import MatchCrashed, MatchExecutor, RunError, make_executor, store_records
from .errors import ClusterFailed
from .model import MatchSpec, Result
from .ratings import elo_update
from ..server.ledger import LedgerWriter, digests
from .report import elo_text, read_results, write_outputs
from .rosters import ROUNDS_FILE, Rosters
from .schedule import ladder_round, schedule, untrusted_entrants
from .series import Series, result_of_game
from .worker import add_fallbacks


log = structlog.get_logger("standoff.tournament")


@dataclass
class RunSummary:
    run_dir: Path
    results: list[Result]
    ratings: dict[str, Any]
    complete: bool

    @property
    def failed(self) -> list[Result]:
        """Matches an engine or referee error ended (no result; their records say why)."""
        return [r for r in self.results if r.termination == ERROR]


# -- the run folder ---------------------------------------------------------------------------


def run_dir_of(config: TournamentConfig) -> Path:
    return Path(config.output_dir) / config.name


def prepare_run_dir(config: TournamentConfig, *, fresh: bool = False, verify: bool = True,
                    registry: Any = None) -> tuple[Path, list[Result]]:
    """Create or reopen the run folder; returns it and the results already there.

    A folder made by a different configuration is refused (resume must not mix tournaments),
    except for :data:`EXECUTION_KEYS` (where matches run does not change them); ``fresh`` wipes
    the previous results (and the secret master seed) first. A torn last line (a kill mid-write)
    is cut off. With ``verify``, results already there are checked first (the chain, every record
    against its digest and its line; replaying every record is ``standoff verify``'s job): a run
    whose files were changed is refused (:class:`RunError` naming the first bad line). The folder,
    ``records/`` and every file the run writes are private (``0700``/``0600``, those of an older
    version too: :mod:`standoff.server.private_files`).
    """
    folder = run_dir_of(config)
    private_dir(folder)
    private_dir(folder / "records")
    config_path = folder / "config.json"
    wanted = json.dumps(config.to_json(), sort_keys=True, indent=2) + "\n"
    results_path = folder / "results.jsonl"
    if fresh:
        for name in ("results.jsonl", "elo.jsonl", "ratings.json", SECRET_SEED_FILE, ROUNDS_FILE):
            (folder / name).unlink(missing_ok=True)
        for record in (folder / "records").glob("*.jsonl"):
            record.unlink()
    elif config_path.exists() and (differ := _differences(config_path.read_text(), config)):
        raise RunError(
            f"{folder} holds a run of a different configuration ({'; '.join(differ)}); use another "
            "name, or --fresh to start it again"
        )
    replace_private(config_path, wanted)
    # a record, result file or seed being stored when the run was killed
    for torn in [*folder.glob(".*.tmp"), *(folder / "records").glob(".*.tmp")]:
        torn.unlink(missing_ok=True)
    if results_path.exists():
        cut_torn_tail(results_path)
        if verify:
            from ..server.verify import VerifyError, verify_folder

            try:
                verify_folder(folder, registry=registry, replay_records=False)
            except VerifyError as exc:
                raise RunError(f"{exc}; refusing to resume (--no-verify to resume anyway)") from None
        results = read_results(results_path)
    else:
        results = []
    return folder, results


#: The run folder's file holding a secret master seed (a config without ``master_seed``).
SECRET_SEED_FILE = "master_seed"


def resolve_master_seed(config: TournamentConfig, folder: Path) -> TournamentConfig:
    """``config`` with a master seed: its own, or the run's secret one (drawn with
    :mod:`secrets` on the first run and kept only in ``folder/master_seed``, readable by its
    owner only; a resume reads it back)."""
    if config.master_seed is not None:
        return config
    path = folder / SECRET_SEED_FILE
    if path.exists():
        try:
            seed = int(path.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            raise RunError(f"{path}: not a seed (a whole number); restore it, or --fresh to start again") from None
    else:
        seed = new_seed()
        replace_private(path, f"{seed}\n")
    return replace(config, master_seed=seed)


#: Config keys that do not change any result: a run may be resumed with other values. Where
#: and how fast matches run (every executor gives the same results: start on this machine, finish
#: on a Ray cluster), where the config file and the run folder are (a run folder moved or copied
#: elsewhere, with its config or not, resumes: nothing in it names its own place), where the
#: referee listens, the Elo log's K and start (elo.jsonl is recomputed from the results), and
#: the untrusted entrants' sandbox (its limits may be raised for the rest of a run).
EXECUTION_KEYS = ("source", "output_dir", "executor", "split_referee", "ray_address", "concurrency", "workers",
                  "address", "elo", "sandbox", "unsandboxed")


def _differences(saved: str, config: TournamentConfig) -> list[str]:
    """The keys (with old and new value) where ``saved`` (a run folder's config.json) and
    ``config`` differ in what changes results; ``["config.json"]`` if it is unreadable."""
    try:
        old = json.loads(saved)
    except ValueError:
        return ["config.json (unreadable)"]
    if not isinstance(old, dict):
        return ["config.json (not an object)"]
    new = json.loads(json.dumps(config.to_json()))
    return [
        f"{key}: {json.dumps(old.get(key))} → {json.dumps(new.get(key))}"
        for key in sorted(set(old) | set(new))
        if key not in EXECUTION_KEYS and old.get(key) != new.get(key)
    ]


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
    """The only writer of results.jsonl and elo.jsonl: appends in canonical order. Each results
    line carries its records' digests and the digest of the line before it
    (:mod:`standoff.server.ledger`)."""

    def __init__(self, folder: Path, done: list[Result], config: TournamentConfig,
                 entrants: list[str] | None = None) -> None:
        self.folder = folder
        self.results = list(done)
        self.k, self.start = config.elo_k, config.elo_start
        # elo.jsonl is derived: rewrite it from the results so far, then append as they come.
        write_outputs(folder, self.results, entrants=entrants if entrants is not None else list(config.entrants),
                      k=self.k, start=self.start)
        self.elo = {}
        for result in self.results:
            self._update_elo(result)
        self.ledger = LedgerWriter(folder / "results.jsonl")
        self.elo_file = open_private(folder / "elo.jsonl", "a")

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

    def take(self, result: Result) -> str:
        """Take ``result`` in; return its elo.jsonl text (its results line is made by
        :meth:`write`, which reads its records)."""
        self.results.append(result)
        # elo lines are the same as a full recompute writes
        return elo_text(self._update_elo(result))

    def write(self, results: list[Result], elo_lines: str) -> None:
        """Append the results (in order: each line chains to the one before) and their Elo lines
        and make them durable. Runs in a thread: reading records and fsync must not stall the
        coordinator."""
        records = self.folder / "records"
        text = []
        for result in results:
            result.records = digests(records, result.records)
            text.append(self.ledger.text(result.to_json()))
        self.ledger.append("".join(text))
        self.elo_file.write(elo_lines)
        self.elo_file.flush()

    def close(self) -> None:
        self.ledger.close()
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
        self.stream: TextIO | None = None  # where one-line match errors go (the progress stream)

    def say(self, line: str) -> None:
        """One line for the operator (a match that failed on a Ray node), else a log line."""
        if self.stream is None:
            log.error(line)
            return
        # On a terminal the progress bar holds the line (no newline yet): the message goes below it.
        self.stream.write(("\n" if self.stream.isatty() else "") + line + "\n")
        self.stream.flush()

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
        """Play ``spec`` and return its result. A match that cannot be played because of an
        error (an exception in a worker, a worker process that keeps dying on it) is an
        ``error`` result, never a win or a draw; the run goes on. :class:`RunError` for a paired
        leg that only the referee could play (the schedule pairs trusted bots only)."""
        absent = [e for e in spec.seats if e in self.absent]
        if retired := self._retired(spec):
            return await self._without_result(spec, "not_played", f"retired: {', '.join(retired)}")
        if self.ladder and self.referee is not None:
            absent += [e for e in spec.seats if is_remote(e) and remote_name(e) not in self.referee.sessions]
        if absent:
            reason = f"never connected: {', '.join(sorted(set(absent)))}"
            return await self._without_result(spec, "not_played", reason)
        if self.local(spec):
            try:
                answer = await self.pool.run(self._job(spec))
            except MatchCrashed as exc:
                if self.pool is not None and self.pool.name == "ray":
                    self.say(f"standoff: error: {exc}")
                else:
                    log.error("match failed: its worker processes kept dying", match=spec.match_id, error=str(exc))
                return await self._without_result(spec, ERROR, str(exc))
            if "error" in answer:
                trace = answer["error"].rstrip()
                last = trace.splitlines()[-1] if trace else "unknown error"
                if "node" in answer:  # played on a cluster: one line that names the node
                    self.say(f"standoff: error: match {spec.match_id} on node {answer['node']}: {last}")
                else:
                    log.error("match failed in a worker", match=spec.match_id, traceback=trace)
                return await self._without_result(spec, ERROR, f"engine or referee error: {last}"[:500])
            if answer.get("records"):
                # Played where the run folder is not (Ray): the coordinator writes the records,
                # before the result, so that every result line has its complete record.
                await trio.to_thread.run_sync(store_records, self.folder / "records", answer["records"])
            result = Result.from_json(answer["result"])
            if result.termination == ERROR and "node" in answer:  # an engine error, on a cluster node
                self.say(f"standoff: error: match {spec.match_id} on node {answer['node']}: {result.reason}")
            return result
        if spec.pair is not None:
            # Its partner leg would deal an entrant seated in both the cards it faces here.
            raise RunError(f"match {spec.match_id}: a paired leg with a remote or untrusted entrant")
        return await self._on_referee(spec)

    def _retired(self, spec: MatchSpec) -> list[str]:
        """The submissions of ``spec`` retired since its round began (a ladder's round keeps its
        entrants; their matches not yet begun are not played)."""
        names = [e for e in spec.seats if is_submission(e)]
        if not names or self.config.submissions is None:
            return []
        from ..server.submissions import load

        active = {s.entrant for s in load(self.config.submissions) if s.active}
        return sorted(e for e in set(names) if e not in active)

    async def _without_result(self, spec: MatchSpec, termination: str, reason: str) -> Result:
        """A result that counts for nobody, with a record (header and outcome line) that says why."""
        c = self.config
        roles = c.game_roles
        outcome = Outcome.no_result(roles, termination, reason)
        game = self.registry.game(c.game)
        rules = game.rules(c.ruleset, c.options)
        header = make_header(game, rules, spec.seed, dict(zip(roles, spec.seats, strict=True)),
                             match_id=spec.match_id, code_version=code_version())
        record = Record(header, footer=outcome_line(outcome, roles, faults={}))
        await trio.to_thread.run_sync(write_record, self.folder / "records" / f"{spec.match_id}.jsonl", record)
        return result_of_game(spec, roles, outcome, {})

    def _job(self, spec: MatchSpec) -> dict[str, Any]:
        c = self.config
        return {
            "spec": {"index": spec.index, "match_id": spec.match_id, "round": spec.round,
                     "seats": list(spec.seats), "seed": spec.seed, "pair": spec.pair, "leg": spec.leg,
                     "position": spec.position},
            "position": c.positions[spec.position] if spec.position is not None else None,
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
        series = c.multi_game
        tc = TimeControl(c.bank_ms, c.increment_ms, c.max_per_decision_ms)

        fallbacks: dict[str, int] = {}  # of the built-in bots seated in this process

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
                position=c.positions[spec.position] if spec.position is not None else None, leg=spec.leg,
            )
            self.referee.start_match(match)
            await match.done.wait()
            if match.outcome.termination == ERROR and match.host is not None and match.host.announce_errors:
                self.say(f"standoff: error: match {match.id} on {match.host.where}: {match.outcome.reason}")
            # A trusted bot the referee seated (in this process, or in the match's host): its
            # own count (a remote or runner bot's fallbacks are in another process, out of sight).
            add_fallbacks(fallbacks, {role: seat.local.bot for role, seat in match.seats.items()
                                      if getattr(seat, "local", None) is not None})
            for role, count in match.hosted_fallbacks.items():
                if count > 0:
                    fallbacks[role] = fallbacks.get(role, 0) + count
            return match.outcome, match.flags_claimed(), match.faults

        if series:
            match = Series(spec, roles, c.match_games, c.target_score)
            while (next_game := match.next_game()) is not None:
                match.add(*await play_game(*next_game))
            result = match.result()
        else:
            outcome, _, faults = await play_game(1, None)
            result = result_of_game(spec, roles, outcome, faults)
        result.fallbacks = fallbacks
        return result


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
        yield from _round(config, number, untrusted, rosters)
        number += 1


def _round(config: TournamentConfig, number: int, untrusted: frozenset[str],
           rosters: Rosters | None) -> list[MatchSpec]:
    """Ladder round ``number``: among the config's entrants, or those its roster has."""
    if rosters is None:
        return ladder_round(config, number, untrusted=untrusted)
    item = rosters.round(number)
    submitted = frozenset(e for e in item.entrants if is_submission(e))
    return ladder_round(rosters.config_of(item), number, untrusted=untrusted | submitted,
                        first_index=item.first_index)


def _unpaired_notice(config: TournamentConfig, untrusted: frozenset[str]) -> str | None:
    """The line saying which pairings ``paired_seeds`` does not pair, or None."""
    names = [e for e in config.entrants if e in untrusted]
    if not config.paired_seeds or not names:
        return None
    return (f"paired seeds: pairings with {', '.join(names)} are played unpaired (their legs would show "
            "each leg's deal to an entrant seated in both)")


def _check_schedule(config: TournamentConfig, done: list[Result], untrusted: frozenset[str], folder: Path,
                    rosters: Rosters | None = None) -> None:
    """Refuse to resume results that the schedule no longer gives (seed, seats, pair, leg): a
    run begun by a version that paired the legs of untrusted entrants would mix the two."""
    if not done:
        return
    # A finite format may be run as a ladder too (`standoff ladder`): its rounds' ids are apart.
    rounds = sorted({res.round for res in done})
    if rosters is not None:  # a ladder open to submissions: the rounds recorded
        rounds = [r for r in rounds if r in rosters.rounds]
    specs = [m for r in rounds for m in _round(config, r, untrusted, rosters)]
    if config.format != "ladder":
        specs += schedule(config, untrusted=untrusted)
    by_id = {spec.match_id: spec for spec in specs}
    for result in done:
        spec = by_id.get(result.match_id)
        if spec is not None and (spec.seed, spec.seats, spec.pair, spec.leg) != (
                result.seed, tuple(result.seats.values()), result.pair, result.leg):
            raise RunError(
                f"{folder}: results.jsonl: match {result.match_id} is not the one this version schedules "
                "(pairings with remote or untrusted entrants are now played unpaired); use --fresh to start "
                "the run again")


def _first_round(config: TournamentConfig, done: list[Result], rosters: Rosters | None = None) -> int:
    """The ladder round to go on with: the last one begun, unless every match of it is done."""
    if rosters is not None and rosters.rounds:  # a round is begun once its entrants are recorded
        last = max(rosters.rounds)
    elif not done:
        return 1
    else:
        last = max(result.round for result in done)
    done_ids = {result.match_id for result in done}
    return last + 1 if all(m.match_id in done_ids for m in _round(config, last, frozenset(), rosters)) else last


@dataclass
class Prepared:
    """A run folder opened for a run: the config with its master seed resolved and the results
    already there."""

    config: TournamentConfig
    folder: Path
    done: list[Result]
    rosters: Rosters | None = None  # a config with submissions: each ladder round's entrants

    def entrants(self) -> list[str]:
        """Every entrant of the run so far (a ladder's submissions included), for the ratings."""
        return self.rosters.everyone() if self.rosters is not None else list(self.config.entrants)


def prepare(config: TournamentConfig, registry: Any, *, fresh: bool = False, verify: bool = True) -> Prepared:
    """Open (or create) the run folder, resolve the master seed and check that the results
    already there are the matches the schedule gives. ``verify``: check them first
    (:func:`standoff.server.verify.verify_folder`), refusing a run whose results or records were
    changed."""
    folder, done = prepare_run_dir(config, fresh=fresh, verify=verify, registry=registry)
    resolved = resolve_master_seed(config, folder)
    rosters = Rosters(resolved, folder) if resolved.submissions is not None else None
    _check_schedule(resolved, done, untrusted_entrants(resolved, registry), folder, rosters)
    return Prepared(resolved, folder, done, rosters)


async def run_schedule(
    prepared: Prepared,
    registry: Any,
    *,
    referee: Any | None = None,
    ladder: bool = False,
    rounds: int | None = None,
    progress: TextIO | None = None,
    on_round: Callable[[list[Result]], None] | None = None,
) -> RunSummary:
    """The trio part of a run, in the run folder :func:`prepare` opened. ``referee`` (serving
    ``prepared.folder``) is needed when some matches cannot run in the match executor (remote
    entrants, untrusted plugin bots)."""
    config, folder, done = prepared.config, prepared.folder, prepared.done
    done_ids = {r.match_id for r in done}
    writer = ResultWriter(folder, done, config, prepared.entrants())
    is_ladder = ladder or config.format == "ladder"
    endless = is_ladder and rounds is None
    # `--rounds N` plays N rounds from where the run stands (a round begun counts as the first).
    untrusted = untrusted_entrants(config, registry)
    rosters = prepared.rosters if is_ladder else None
    specs = _specs(config, is_ladder, _first_round(config, done, rosters) if is_ladder else 1, rounds, untrusted,
                   rosters)
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
                batch_elo, heads, new_round = [], [], []
                for head in order.add(result):
                    new_round.append(last_round is not None and head.round != last_round)
                    last_round = head.round
                    batch_elo.append(writer.take(head))
                    heads.append(head)
                if heads:
                    await trio.to_thread.run_sync(writer.write, heads, "".join(batch_elo))
                    first = len(writer.results) - len(heads)
                    for i, head in enumerate(heads):
                        if new_round[i] and on_round is not None:  # a round ended: its summary,
                            on_round(writer.results[: first + i])  # after its matches' lines
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
        if on_round is not None and is_ladder and writer.results:
            on_round(list(writer.results))  # the last round's summary
    except BaseException as exc:
        if (failed := _run_error(exc, ClusterFailed)) is None:
            raise
        # The matches it hit have no line (a Ray failure is not theirs): the same command plays them.
        played = len(writer.results) - len(done)
        left = "the matches not yet played are" if total is None else _matches(total - already - played)
        raise RunError(f"{failed}: {left} left unplayed; run the same command again to resume, once "
                       "the cluster is back") from None
    finally:
        bar.close()
        writer.close()
        with trio.CancelScope(shield=True):
            await pool.aclose()
    ratings = write_outputs(folder, writer.results, entrants=prepared.entrants(), k=config.elo_k,
                            start=config.elo_start)
    return RunSummary(folder, writer.results, ratings, complete)


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


def needs_referee(config: TournamentConfig, registry: Any) -> bool:
    """Whether some entrant must play through the referee server (remote, or an untrusted
    plugin bot, which runs in a subprocess of its own), or may (submissions, a ladder's later ones
    too)."""
    if config.submissions is not None:
        return True
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
    verify: bool = True,
) -> RunSummary:
    """Run (or resume) a tournament to its end and return the summary. Ctrl-C stops it cleanly:
    the results so far are kept and the outputs rewritten from them. A resume first verifies
    the results already there (``verify``; :class:`RunError` if they were changed)."""
    if registry is None:
        from ..server.plugins import load_registry

        registry = load_registry()
    kwargs = dict(ladder=ladder, rounds=rounds, progress=progress, on_round=on_round)
    try:
        prepared = prepare(config, registry, fresh=fresh, verify=verify)
        if not needs_referee(config, registry):
            return trio.run(lambda: run_schedule(prepared, registry, **kwargs))
        return _run_with_server(prepared, registry, tokens, announce, kwargs)
    except BaseException as exc:
        if not _interrupted(exc):
            if (error := _run_error(exc)) is not None:
                raise error from None  # one line, not a nursery's exception group
            raise
        folder = run_dir_of(config)
        results = read_results(folder / "results.jsonl") if (folder / "results.jsonl").exists() else []
        ratings = write_outputs(folder, results, entrants=list(config.entrants), k=config.elo_k,
                                start=config.elo_start)
        return RunSummary(folder, results, ratings, False)


def _run_error(exc: BaseException, kind: type[RunError] = RunError) -> RunError | None:
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


def referee_hosts(config: TournamentConfig) -> Any:
    """Where the referee's matches are hosted (``split_referee = true``): ``workers`` worker
    processes, or Ray actors with the Ray executor; None: in the referee's own process."""
    if not config.split_referee:
        return None
    if config.executor == "ray":
        from .ray_hosts import RayHosts, coordinator_paths

        return RayHosts(coordinator_paths())
    from ..server.host_pool import ProcessHosts

    return ProcessHosts(config.workers)


def tournament_sandbox(config: TournamentConfig, registry: Any) -> Any:
    """The referee's sandbox for the run's untrusted entrants (``[sandbox]``, ``unsandboxed``);
    :class:`RunError` (one line naming the package) if some entrant needs one and none can be
    made here: before anything is played, not at each of its matches."""
    from ..server.sandbox import LIMIT_NAMES, Sandbox, SandboxLimits, backend_problem

    sandbox = Sandbox(enabled=not config.unsandboxed,
                      limits=SandboxLimits(**{name: config.sandbox[name] for name in LIMIT_NAMES}),
                      uid_base=config.sandbox["uid_base"])
    if config.submissions is not None and sandbox.enabled and (problem := backend_problem()) is not None:
        # submitted bots, also those a ladder's later rounds add: said now, not at their first match
        raise RunError(f"{config.source}: submitted bots run only in a sandbox: {problem} "
                       "(or unsandboxed = true / --unsandboxed)")
    untrusted = [e for e in config.entrants if not is_remote(e) and not getattr(registry.bots.get(e), "trusted", False)]
    if untrusted and (refusal := sandbox.refusal(untrusted[0])) is not None:
        raise RunError(f"{config.source}: {refusal} (or unsandboxed = true / --unsandboxed)")
    return sandbox


def _run_with_server(prepared: Prepared, registry, tokens, announce, kwargs) -> RunSummary:
    import asyncio

    from ..server.auth import TokenRegistry
    from ..server.rpc import start_server

    config = prepared.config

    def with_submissions(referee: Any) -> None:
        if config.submissions is not None:  # NAME@VERSION entrants resolve through it
            referee.submissions = Path(config.submissions)

    sandbox = tournament_sandbox(config, registry)

    async def main() -> RunSummary:
        running = await start_server(
            config.address, tokens=tokens if tokens is not None else TokenRegistry(),
            registry=registry, data_dir=prepared.folder, on_referee=with_submissions, ledger=False,
            hosts=referee_hosts(config), sandbox=sandbox,
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
                functools.partial(run_schedule, prepared, registry, referee=running.referee, **kwargs)
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
