"""Connect a bot to a referee server: :func:`run` is all a bot author needs.

    from standoff.sdk import Bot, run

    class Random(Bot):
        def choose(self, decision, view):
            return self.rng.randrange(len(decision.options))

    run(Random(), "127.0.0.1:50051", token="sto_...")

``run`` is synchronous. It opens one session (a ``Play`` stream), says hello, and answers every
decision the referee sends by calling ``bot.choose``. Transient failures (server unavailable,
connection reset) are retried with backoff, resuming the bot's seats; the referee re-sends any
pending decision. It returns the results of the matches played once ``matches`` have ended, or
when the server closes the session.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import grpc

from standoff.v1 import referee_pb2 as pb

from .bot import Bot
from .failures import BotFailed
from .types import HistoryBook, MatchResult, decode_decision, decode_match_ended, decode_match_started

PROTOCOL_VERSION = 1
_log = logging.getLogger("standoff.sdk")
_TRANSIENT = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN,
              grpc.StatusCode.DEADLINE_EXCEEDED}


class SessionError(RuntimeError):
    """The referee ended the session for a reason retrying will not fix (bad token, flooding,
    unsupported protocol version...)."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(f"{code.name}: {details}")
        self.code = code
        self.details = details


@dataclass
class Tls:
    """TLS settings for :func:`run`: the CA that signed the server (PEM bytes), and an optional
    client certificate/key pair."""

    root_certificates: bytes | None = None
    certificate_chain: bytes | None = None
    private_key: bytes | None = None
    server_name: str | None = None


def open_channel(address: str, tls: Tls | None = None) -> grpc.aio.Channel:
    options = [("grpc.keepalive_time_ms", 20_000), ("grpc.max_receive_message_length", 16 << 20)]
    if tls is None:
        return grpc.aio.insecure_channel(address, options=options)
    credentials = grpc.ssl_channel_credentials(tls.root_certificates, tls.private_key, tls.certificate_chain)
    if tls.server_name:
        options.append(("grpc.ssl_target_name_override", tls.server_name))
    return grpc.aio.secure_channel(address, credentials, options=options)


def run(
    bot: Bot | Callable[[], Bot],
    address: str,
    token: str | None = None,
    *,
    matches: int = 0,
    tls: Tls | None = None,
    reconnect: bool = True,
    max_retries: int = 20,
    on_error=None,
    on_result=None,
    concurrency: int = 1,
) -> list[MatchResult]:
    """Play as ``bot`` on the referee at ``address`` until ``matches`` matches have ended
    (0 = until the server ends the session). ``token`` defaults to ``$STANDOFF_TOKEN``.

    ``bot`` is a :class:`~.bot.Bot`, or a factory that makes one (a ``Bot`` subclass, or any
    callable without arguments). With a factory every seat gets a bot object of its own, made
    when its match starts and dropped when it ends, so no state is shared between matches (nor
    between the two seats of a match the session plays against itself); ``concurrency`` then
    says how many matches the session plays at once (``Hello.max_concurrent_matches``; its
    decisions are still answered one at a time). A single ``Bot`` object plays one match at a
    time: the referee does not seat it in another until the match ends, whatever
    ``concurrency`` says (a second match at once would overwrite its per-match state and its
    ``rng``).

    Raises :class:`SessionError` when the referee refuses the session for good, and
    :class:`~.failures.BotFailed` when the bot's own code raises (``choose``, ``start``, ``end``
    or the factory): the session ends there (the referee sees the bot go), and the exception
    names the bot, the match and the file:line in the bot's code, its own exception chained.
    ``on_error(error)`` receives every ``Error`` message the referee sends (refused choices...);
    ``on_result(result)`` each :class:`~.types.MatchResult` as its match ends (one per seat: a
    session may hold several seats of a match, ``result.role`` says which).
    The client runs grpc.aio on a private event loop (lower latency than the threaded sync
    API); ``bot.choose`` is called on that loop's thread.
    """
    token = token or os.environ.get("STANDOFF_TOKEN")
    if not token:
        raise SessionError(grpc.StatusCode.UNAUTHENTICATED, "no token: pass token= or set STANDOFF_TOKEN")
    if isinstance(bot, Bot):
        seats = _Seats(bot, None, 1)
    elif callable(bot):
        if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
            raise ValueError(f"concurrency must be a whole number >= 1, got {concurrency!r}")
        seats = _Seats(None, bot, concurrency)
    else:
        raise TypeError(f"run() plays a Bot or a factory of bots, not {type(bot).__name__}")
    hooks = (on_error, on_result)
    return asyncio.run(_run(seats, address, token, matches, tls, reconnect, max_retries, hooks))


class _Seats:
    """The bot object of each seat the session holds: the one ``Bot`` given, or one made by the
    factory for each seat (a match id and a role) when its match starts."""

    def __init__(self, bot: Bot | None, factory: Callable[[], Bot] | None, concurrency: int) -> None:
        self.bot, self.factory, self.concurrency = bot, factory, concurrency
        self.by_seat: dict[tuple[str, str], Bot] = {}
        # What the hello says (name, version, games): the bot's, or a first made bot's (then
        # dropped: every seat gets a new one).
        self.sample = bot if bot is not None else self._make()

    def _make(self, match_id: str = "", role: str = "") -> Bot:
        try:
            made = self.factory()
        except Exception as exc:
            # Named as the bot it makes (a first one made, or a Bot class's own name).
            name = getattr(getattr(self, "sample", None), "name", "") or getattr(self.factory, "name", "")
            raise BotFailed.of(exc, None, match_id, role, name=name, when="when it was made") from exc
        if not isinstance(made, Bot):
            raise TypeError(f"the bot factory made a {type(made).__name__}, not a Bot")
        return made

    def of(self, match_id: str, role: str) -> Bot:
        """The bot of a seat (made now if its match started before this process knew it)."""
        if self.bot is not None:
            return self.bot
        seat = (match_id, role)
        if seat not in self.by_seat:
            self.by_seat[seat] = self._make(match_id, role)
        return self.by_seat[seat]

    def ended(self, match_id: str, role: str) -> Bot:
        """The bot of a seat whose match is over, forgotten."""
        bot = self.of(match_id, role)
        self.by_seat.pop((match_id, role), None)
        return bot


async def _run(seats, address, token, matches, tls, reconnect, max_retries, hooks) -> list[MatchResult]:
    if isinstance(seats, Bot):  # one bot object (scripts/soak.py runs many sessions on one loop)
        seats = _Seats(seats, None, 1)
    results: list[MatchResult] = []
    started: set[str] = set()
    book = HistoryBook()
    retries = 0
    while True:
        channel = open_channel(address, tls)
        try:
            done = await _session(seats, channel, token, matches, results, started, book, hooks)
            if done:
                return results
            retries = 0  # the session ended normally but early: reconnect
        except grpc.RpcError as exc:
            code = exc.code()
            if code not in _TRANSIENT or not reconnect or retries >= max_retries:
                raise SessionError(code, exc.details() or "") from None
            retries += 1
            delay = min(5.0, 0.1 * 2**retries)
            _log.warning("session lost (%s); reconnecting in %.1f s", code.name, delay)
            await asyncio.sleep(delay)
        finally:
            await channel.close()
        if not reconnect:
            return results


async def _session(seats, channel, token, matches, results, started, book, hooks) -> bool:
    """One ``Play`` stream. Returns True when done (enough matches, or the server closed). A
    seat is a match id and a role (one session may hold both seats of a match)."""
    on_error, on_result = hooks or (None, None)
    bot = seats.sample
    uses_view = getattr(bot, "uses_view", True) is not False
    call = channel.stream_stream(
        "/standoff.v1.RefereeService/Play",
        request_serializer=pb.PlayRequest.SerializeToString,
        response_deserializer=pb.PlayResponse.FromString,
    )(metadata=(("authorization", f"Bearer {token}"),))
    hello = pb.PlayRequest()
    hello.hello.protocol_version = PROTOCOL_VERSION
    hello.hello.bot_name = bot.name
    hello.hello.bot_version = getattr(bot, "version", "")
    hello.hello.games.extend(bot.games)
    hello.hello.max_concurrent_matches = seats.concurrency
    try:
        await call.write(hello)
        # Iterated, not call.read(): after a failed write read() ends at once, but the iterator
        # still gives what the stream held (a MatchEnded sent while the bot thought).
        async for message in call:
            kind = message.WhichOneof("body")
            if kind == "decision":
                # A bot that reads no view (``uses_view = False``) gets None, as in-process runners
                # give it: no view decoded, no history completed for it.
                decision, view = decode_decision(message.decision, uses_view)
                if uses_view:
                    book.complete(f"{decision.match_id}/{decision.role}", view)
                begin = time.perf_counter()
                player = seats.of(decision.match_id, decision.role)
                try:
                    index = player.choose(decision, view)
                except Exception as exc:
                    raise BotFailed.of(exc, player, decision.match_id, decision.role) from exc
                think_us = int((time.perf_counter() - begin) * 1e6)
                request = pb.PlayRequest()
                choice = request.choice
                choice.match_id = decision.match_id
                choice.decision_id = decision.decision_id
                # Anything but a valid index is sent as an out-of-range one: the referee's fault
                # policy decides, as for any bot.
                choice.option_index = index if type(index) is int and 0 <= index < 2**32 else 2**32 - 1
                choice.think_us = think_us
                try:
                    await call.write(request)
                except (grpc.RpcError, asyncio.InvalidStateError) as exc:
                    # The server ended the stream while the bot thought (a shutdown...): read on
                    # what it still holds (MatchEnded), then its end.
                    _log.debug("choice not sent, the stream is over: %s", exc)
            elif kind == "match_started":
                info = decode_match_started(message.match_started)
                if (info.match_id, info.role) not in started:  # a resumed seat is not started twice
                    started.add((info.match_id, info.role))
                    player = seats.of(info.match_id, info.role)
                    try:
                        player.start(info)
                    except Exception as exc:
                        raise BotFailed.of(exc, player, info.match_id, info.role,
                                           when="when the match started") from exc
            elif kind == "match_ended":
                result = decode_match_ended(message.match_ended)
                book.forget(f"{result.match_id}/{result.role}")
                results.append(result)
                player = seats.ended(result.match_id, result.role)
                try:
                    player.end(result)
                except Exception as exc:
                    raise BotFailed.of(exc, player, result.match_id, result.role,
                                       when="when the match ended") from exc
                if on_result is not None:
                    on_result(result)
                if matches and len(results) >= matches:
                    return True
            elif kind == "error" and on_error is not None:
                on_error(message.error)
        await call.wait_for_connection()
        code = await call.code()
        if code != grpc.StatusCode.OK:
            raise _StatusError(code, await call.details())
        return True  # the server closed the session
    finally:
        call.cancel()


class _StatusError(grpc.RpcError):
    """A stream that ended with a non-OK status (raised like the sync API's errors)."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self._code, self._details = code, details

    def code(self) -> grpc.StatusCode:
        return self._code

    def details(self) -> str:
        return self._details


def run_in_thread(bot: Bot | Callable[[], Bot], address: str, token: str, **kwargs) -> tuple[threading.Thread, list]:
    """Start :func:`run` in a daemon thread; returns the thread and the list its results (or the
    exception it raised) are put in. Handy for tests and for running several bots at once."""
    box: list = []

    def target() -> None:
        try:
            box.extend(run(bot, address, token, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box.append(exc)

    thread = threading.Thread(target=target, name=f"standoff-bot-{getattr(bot, 'name', 'bot')}", daemon=True)
    thread.start()
    return thread, box
