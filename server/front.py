"""The front of a split referee (``standoff serve --match-workers N``, :mod:`.hosting`): a match
played by a host, this process keeping only its remote seats' sessions. The front sends each
remote seat the bytes the host built for it, waits for its answer as the referee always does
(:meth:`.seats.RemoteSeat.wait_for_answer`) and passes the seat's result on; it writes the record
lines the host returns.
"""

from __future__ import annotations

import os
from typing import Any

import trio

from standoff.v1 import referee_pb2 as pb

from .answers import SeatFault
from .core.game import Outcome
from .host_pool import HostGone, HostLink, HostPool
from .hosting import host_job
from .match import MatchDriver
from .plugins import PLUGINS_ENV
from .seats import RemoteSeat


async def play_hosted(hosts: HostPool, match: Any, mlog: Any) -> None:
    """The referee's :meth:`~.referee.Referee._play` for a match played by a host of ``hosts``
    (split referee, :mod:`.hosting`): the host plays chance and its built-in bots and sends each
    remote seat's decision as the bytes that seat gets; this process sends them, waits for the
    answer as :meth:`~.referee.Referee._ask` does, and passes it on. The record lines come from
    the host; this process writes them. The match driver here (a :class:`FrontDriver`) never
    plays: it holds the header, the faults and the outcome, and writes the outcome line itself
    only when the host could not (a host gone, a shutdown)."""
    driver = match.driver
    match.status = pb.MATCH_STATUS_RUNNING
    remote = {role: seat for role, seat in match.seats.items() if isinstance(seat, RemoteSeat)}
    for role, seat in remote.items():
        await seat.start(match, driver.started_message(role))
    job = host_job(match.id, match.game.name, match.rules.ruleset, dict(match.rules.options), match.seed,
                   driver.names, list(remote), match.time_control, match.policy, match.retries, match.position,
                   os.environ.get(PLUGINS_ENV, ""), driver.leg)
    host = match.host = await hosts.open(job)
    step = None
    try:
        async with trio.open_nursery() as nursery:
            async def watch() -> None:  # a host gone ends the match now, not at the next call
                await host.gone.wait()
                nursery.cancel_scope.cancel()

            nursery.start_soon(watch)
            step = await _host_loop(match, host, remote)
            nursery.cancel_scope.cancel()
        if step is None:
            raise HostGone(host.gone_reason)
        over = step["over"]
        driver.outcome = Outcome(*over["outcome"])
        driver.error_at = over["error_at"]
        driver.finished = True
        match.hosted_flags = over["flags"]
        match.hosted_fallbacks = over["fallbacks"]
        if over["error"]:
            mlog.error("match ended by an error", where=host.where, decision=over["error_at"],
                       traceback=over["error"])
    finally:
        with trio.CancelScope(shield=True):
            await host.stop()

async def _host_loop(match: Any, host: HostLink, remote: dict[str, RemoteSeat]) -> dict[str, Any]:
    """Route a hosted match's decisions until the host says it is over; returns that step."""
    driver = match.driver

    def history() -> dict[str, int]:
        return {role: seat.history_sent for role, seat in remote.items()}

    sent = history()
    step = await host.begin(sent)
    while True:
        for line in step["lines"]:
            take_line(driver, line)
        driver.faults = step["faults"]
        if "over" in step:
            break
        ask = step["ask"]
        seat = remote[ask["role"]]
        message, history_to = ask["message"], ask["history_to"]
        if seat.history_sent != sent[seat.role]:  # a reconnect while the host built it
            message, history_to = await host.message(seat.role, seat.history_sent)
        if history_to is not None:
            seat.history_sent = history_to

        async def rebuild(history_from: int, seat: RemoteSeat = seat) -> bytes:
            again, history_to = await host.message(seat.role, history_from)
            if history_to is not None:
                seat.history_sent = history_to
            return again

        result = await seat.wait_for_answer(match, ask["number"], ask["options"], ask["allowance_ms"],
                                            message, rebuild)
        if type(result) is SeatFault:
            seat.faulted(match.id, ask["number"], result.kind, result.detail)
        counts, driver.pending_counts = driver.pending_counts, []
        sent = history()
        step = await host.advance(result, counts, sent)
        if "ask" not in step or step["ask"]["number"] != ask["number"]:
            seat.asked()
    return step


class FrontDriver(MatchDriver):
    """The driver of a hosted match on the front: it never plays (the host does); it counts the
    faults only the front sees (stale answers refused) for the host to count in its turn."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pending_counts: list[tuple[str, str]] = []

    def count(self, role: str, kind: str) -> None:
        super().count(role, kind)
        self.pending_counts.append((role, kind))


def take_line(driver: MatchDriver, line: dict[str, Any]) -> None:
    """A record line a host wrote: into the record file; the front's driver keeps up (the
    header went out, the decision number, the outcome line once it came)."""
    driver.begun = True
    driver.emit(line)
    if line.get("type") == "decision":
        driver.number = line["n"]
    elif line.get("type") == "outcome":
        driver.record.footer = line
