"""Playing one match of a run where it may be played: in the match executor (trusted plugin bots
only: worker processes or Ray, :mod:`.executors`) or on the referee (remote entrants, untrusted
plugin bots, submissions), which keeps hidden information out of any process an untrusted bot
shares. A match that cannot be played has a result that counts for nobody (``not_played`` or
``error``), with a record that says why.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, TextIO

import structlog
import trio

from ..server.core.game import Outcome
from ..server.core.record import Record, make_header, outcome_line, replay_steps
from ..server.core.seeds import derive_seed
from ..server.faults import ERROR, TimeControl, policy_from_name
from ..server.local import code_version
from ..server.plugins import PLUGINS_ENV
from ..server.records import write_record
from .config import TournamentConfig, is_remote, is_submission, remote_name
from .errors import RunError
from .executors import MatchCrashed, MatchExecutor, store_records
from .model import MatchSpec, Result
from .series import Series, result_of_game
from .worker import add_fallbacks

__all__ = ["Executor"]

log = structlog.get_logger("standoff.tournament")


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
                return await self._without_result(spec, ERROR, str(exc), keep_played=True)
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

    async def _without_result(self, spec: MatchSpec, termination: str, reason: str, *,
                              keep_played: bool = False) -> Result:
        """A result that counts for nobody, with a record (header and outcome line) that says why.
        ``keep_played``: the match began in a worker that died; its record keeps the decisions
        that worker wrote (:func:`played_lines`), the outcome line after them."""
        c = self.config
        roles = c.game_roles
        outcome = Outcome.no_result(roles, termination, reason)
        game = self.registry.game(c.game)
        rules = game.rules(c.ruleset, c.options)
        header = make_header(game, rules, spec.seed, dict(zip(roles, spec.seats, strict=True)),
                             match_id=spec.match_id, code_version=code_version())
        path = self.folder / "records" / f"{spec.match_id}.jsonl"
        moves: list[dict[str, Any]] = []
        if keep_played:
            header, moves = await trio.to_thread.run_sync(played_lines, path, header, game)
        record = Record(header, moves, outcome_line(outcome, roles, faults={}))
        await trio.to_thread.run_sync(write_record, path, record)
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


def played_lines(path: Path, header: dict[str, Any], game: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The header and decision lines of the record a dead worker left at ``path``, if it is the
    record of this match (``header``'s game, match id and seed; its own header is kept: it says
    where play started, a position included). Its complete lines only (a line the death cut is
    left out), up to the last decision that replays without ending the match: the outcome line
    that follows says the referee stopped it, which a replay must agree with. ``(header, [])``
    when there is no such record."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return header, []
    lines = []
    for raw in text.split("\n")[:-1]:  # the last piece is "" or a line cut short
        try:
            line = json.loads(raw)
        except ValueError:
            break
        if not isinstance(line, dict) or line.get("type") != ("header" if not lines else "decision"):
            break
        lines.append(line)
    if not lines or any(lines[0].get(key) != header.get(key) for key in ("game", "match_id", "seed")):
        return header, []
    found, moves = lines[0], lines[1:]
    keep = 0
    try:
        for step in replay_steps(game, Record(found, moves)):
            if game.outcome(step.state) is not None:
                break
            keep = step.number
    except ValueError:  # ReplayError: a line that is no option here; the lines before it stay
        pass
    return found, moves[:keep]
