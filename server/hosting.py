"""A match hosted away from the referee's front: the match side of a split referee.

With ``standoff serve --match-workers N`` (or a tournament with remote entrants and
``match_workers``) the referee process keeps only the bot sessions and routes bytes; the work of
each match, the engine, chance, the record lines, every view and its encoding, and the built-in
bots seated in it, runs in a :class:`MatchHost` in a worker process (:mod:`.match_worker`) or in
a Ray actor (:mod:`standoff.tournaments.ray_hosts`). The front asks a host for the next decision
of a remote seat and gets back the bytes that seat is sent, *its own view only*; it answers with
what the seat chose (or its fault), and the host plays on: chance, and every decision of its
built-in bots, until the next remote decision or the end.

A host speaks in small picklable values, so that the same object serves a pipe and Ray:

* :meth:`MatchHost.begin` → a step, :meth:`MatchHost.advance` (the answer to the last ask) →
  the next step; a step is ``{"ask": {...}, "lines": [...], "faults": {...}}`` or, at the end,
  ``{"over": {...}, "lines": [...], "faults": {...}}``;
* :meth:`MatchHost.message` → a remote seat's pending decision again, from another history
  point (after a reconnect);
* :meth:`MatchHost.stop` → the match ended by the front (shutdown, a front error): no more steps.

The decisions, answers, faults and verdicts are the match driver's (:class:`~.match.MatchDriver`),
so a hosted match writes the same record lines, and sends the same bytes, as the referee playing
it in its own process.
"""

from __future__ import annotations

import concurrent.futures
import traceback
from collections.abc import Generator
from typing import Any

from .specs import capability
from .answers import DecisionTimeout, SeatResult, ask_in_process
from .core.game import Game
from .faults import CRASH, Forfeit, TimeControl
from .local import code_version
from .match import RETRIED, Ask, MatchDriver, bot_seed
from .seats import END_WAIT_S, InProcessSeat, Ticket, bot_crashed, decision_bytes


class HostError(RuntimeError):
    """A host that cannot play the match it was given (unknown game or bot on this node)."""


def host_job(match_id: str, game: str, ruleset: str, options: dict[str, str], seed: int, names: dict[str, str],
             remote: list[str], time_control: TimeControl, policy: int | None, retries: int,
             position: dict[str, Any] | None, plugins: str = "", leg: int = 0) -> dict[str, Any]:
    """What a host needs to play a match (JSON-ready): ``names`` is every role's bot as
    written (``remote:NAME`` included), ``remote`` the roles the front answers for, ``leg`` the
    leg of a paired seed (for the bot seeds)."""
    return {
        "match_id": match_id, "game": game, "ruleset": ruleset, "options": dict(options), "seed": seed, "leg": leg,
        "names": dict(names), "remote": list(remote), "position": position, "policy": policy,
        "retries": retries, "plugins": plugins, "code_version": code_version(),
        "time_control": [time_control.bank_ms, time_control.increment_ms, time_control.max_per_decision_ms],
    }


class MatchHost:
    """One match played on the match side (see the module docstring). ``registry``: where the
    game and the built-in bots of the job are found (the worker's own plugin registry)."""

    def __init__(self, job: dict[str, Any], registry: Any) -> None:
        game: Game | None = registry.games.get(job["game"])
        if game is None:
            raise HostError(f"game {job['game']!r} is not available here")
        self.game = game
        self.match_id = job["match_id"]
        self.remote = tuple(job["remote"])
        rules = game.rules(job["ruleset"] or None, job["options"])
        if job["position"] is not None:
            from .positions import from_position

            rules = from_position(game, job["position"]).rules
        self.lines: list[dict[str, Any]] = []
        self.driver = MatchDriver(
            game, rules, job["seed"], job["names"], match_id=self.match_id,
            time_control=TimeControl(*job["time_control"]), policy=job["policy"], retries=job["retries"],
            on_line=self.lines.append, code_version=job["code_version"], position=job["position"],
            leg=job.get("leg", 0),
        )
        self.seats: dict[str, InProcessSeat] = {}
        for role, bot in job["names"].items():
            if role in self.remote:
                continue
            try:
                spec = registry.bot(bot)
            except LookupError as exc:
                raise HostError(str(exc.args[0] if exc.args else exc)) from None
            bot_object = spec.factory(bot_seed(job["seed"], role, self.driver.leg))
            self.seats[role] = InProcessSeat(bot_object, game, self.match_id)
        # One thread per built-in seat, so that a bot overrunning its time can be left behind
        # (as the referee's own LocalSeat does) while the match goes on.
        self.pools: dict[str, concurrent.futures.ThreadPoolExecutor] = {}
        self.history: dict[str, int] = {}
        self.pending: Ask | None = None  # the remote seat's decision the front is asking
        self.run: Generator[dict[str, Any], Any, dict[str, Any]] | None = None
        self.over = False

    # -- the front's calls --------------------------------------------------------------------------

    def begin(self, history: dict[str, int] | None = None) -> dict[str, Any]:
        """Start the built-in bots and play to the first remote decision (or the end)."""
        self.history = dict(history or {})
        self.run = self._play()
        return self._step(None)

    def advance(self, answer: SeatResult, counts: list[tuple[str, str]] = (), history: dict[str, int] | None = None,
                ) -> dict[str, Any]:
        """The front's answer to the pending ask: its remote seat's result, as the front's seat
        settled it (:class:`~.answers.SeatAnswer` or :class:`~.answers.SeatFault`); ``counts``:
        faults that change nothing but the count (stale answers refused), ``history``: each remote
        role's history point."""
        for role, kind in counts:
            self.driver.count(role, kind)
        if history is not None:
            self.history = dict(history)
        return self._step(answer)

    def message(self, role: str, history_from: int) -> tuple[bytes, int | None]:
        """The pending decision of remote ``role`` again, its history from ``history_from``."""
        ask = self.pending
        if ask is None or ask.role != role:
            raise HostError(f"{role} has no pending decision in match {self.match_id}")
        return decision_bytes(self.game, self.driver.state, role, self.match_id, ask, history_from)

    def stop(self) -> None:
        """The front ended the match (its own record lines say how): let the bots go."""
        self.over = True
        if self.run is not None:
            self.run.close()
        for pool in self.pools.values():
            pool.shutdown(wait=False, cancel_futures=True)

    # -- playing ------------------------------------------------------------------------------------

    def _step(self, answer: Any) -> dict[str, Any]:
        assert self.run is not None and not self.over, "the match is over"
        try:
            ask = self.run.send(answer) if answer is not None else next(self.run)
            step = {"ask": ask}
        except StopIteration as end:
            step = {"over": end.value}
            self.stop()
        step["lines"], self.lines[:] = list(self.lines), []
        step["faults"] = {role: dict(kinds) for role, kinds in self.driver.faults.items()}
        return step

    def _play(self) -> Generator[dict[str, Any], Any, dict[str, Any]]:
        """The match loop of the match side: the referee's (:meth:`~.referee.Referee._play`)
        with its remote asks yielded to the front."""
        driver = self.driver
        error = ""
        try:
            try:
                for role, seat in self.seats.items():
                    try:
                        seat.start(driver.started_message(role))
                    except Exception as exc:  # noqa: BLE001 - a built-in bot's bug: a crash
                        detail = bot_crashed(exc, seat.bot, driver.names[role], self.match_id, role,
                                             when="when the match started")
                        driver.count(role, CRASH)
                        raise Forfeit(role, CRASH, f"{role} ({driver.names[role]}) forfeits: {detail}") from None
                while (ask := driver.next_ask()) is not None:
                    while True:
                        if ask.role in self.seats:
                            result = self._ask_local(ask)
                        else:
                            self.pending = ask
                            message, history_to = decision_bytes(self.game, driver.state, ask.role, self.match_id,
                                                                 ask, self.history.get(ask.role, 0))
                            result = yield {"role": ask.role, "number": ask.number, "attempt": ask.attempt,
                                            "allowance_ms": ask.allowance_ms, "options": len(ask.decision.options),
                                            "message": message, "history_to": history_to}
                        if driver.settle(ask, result) != RETRIED:
                            break
                        ask = driver.retry(ask)
            except Forfeit as forfeit:
                driver.forfeit(forfeit)
        except Exception as exc:  # an engine bug ends this match only, never as a result
            driver.end_by_error(exc)
            error = "".join(traceback.format_exception(exc, limit=8))
        driver.finish()
        for role, seat in self.seats.items():
            try:
                seat.end(driver.ended_message(role), END_WAIT_S)  # not told if still in a late choose
            except Exception:  # noqa: BLE001 - the match is over; a bot failing to take it in changes nothing
                pass
        fallbacks = {role: getattr(seat.bot, "fallbacks", 0) for role, seat in self.seats.items()}
        claimed = capability(self.game, "flags_claimed")
        flags = claimed(driver.state) if claimed is not None and driver.state is not None else {}
        return {"outcome": tuple(driver.outcome), "error_at": driver.error_at, "error": error,
                "number": driver.number, "flags": flags, "fallbacks": fallbacks}

    def _ask_local(self, ask: Ask) -> SeatResult:
        """A built-in bot's answer, as the referee's :class:`~.seats.LocalSeat` gets it: in a
        thread of its own, left behind if it overruns its time."""
        seat, name = self.seats[ask.role], self.driver.names[ask.role]

        def crashed(exc: Exception) -> str:  # one line naming the bot, the match and its file:line
            return bot_crashed(exc, seat.bot, name, self.match_id, ask.role)

        return ask_in_process(seat, self.driver.state, ask, self._in_thread, crashed, timing=_elapsed_and_think)

    def _in_thread(self, answer: Any, prepared: Any, ask: Ask) -> Any:
        """``answer(prepared)`` in the role's thread, waited for ``ask.allowance_ms`` at most
        (then :class:`~.answers.DecisionTimeout`)."""
        pool = self.pools.get(ask.role)
        if pool is None:
            pool = self.pools[ask.role] = concurrent.futures.ThreadPoolExecutor(1, f"bot-{ask.role}")
        ticket = Ticket()
        future = pool.submit(answer, prepared, ticket)
        try:
            return future.result(ask.allowance_ms / 1000.0)
        except concurrent.futures.TimeoutError:
            # Left running (the next ask waits for it: a bot is never in two calls at once), or
            # still waiting for the bot's late answer before it: then it never asks.
            ticket.abandoned = True
            pool.shutdown(wait=False)
            del self.pools[ask.role]
            raise DecisionTimeout() from None


def _elapsed_and_think(elapsed_ms: float) -> dict[str, float]:
    """A built-in bot's record timing: the host times its ``choose`` alone, so both are one."""
    rounded = round(elapsed_ms, 3)
    return {"elapsed_ms": rounded, "think_ms": rounded}
