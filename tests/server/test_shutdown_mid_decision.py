"""A shutdown tells every seated bot its match ended, also the bots thinking at that moment.

Each try starts a server, seats bots (each p1 of its own match against ``greedy``) and shuts the
server down as ``standoff serve --drain-s 0`` does on SIGTERM (in-process: the same drain, then
stop; or a real ``standoff serve`` process and SIGTERM) while every bot is inside its first
decision: the bot is held there until the shutdown has begun, then thinks THINK_S more before it
answers. Every bot must get ``MatchEnded`` (termination ``shutdown``). Clients: the SDK
(``standoff.sdk.run``) and a plain grpc.aio client written from the .proto (read, think, write,
no error handling of its own), whose stream must also end with status OK after
``Error(SHUTTING_DOWN)``. The Node.js example is tried the same way in tests/test_node_bot.py.

Before the fix every such bot lost it: the server ended the stream as soon as its last messages
were written, so the bot's Choice, written a moment later, failed (INTERNAL), and grpc.aio then
gives no read of what the stream still held (the ``MatchEnded``). Now the server keeps a stream
open for the answers its bot still owes (rpc.LATE_ANSWERS_S at most), and the SDK reads on after
a failed write.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading

import grpc
from kits.server import ServerThread

from standoff.sdk import Bot
from standoff.sdk.client import run_in_thread
from standoff.server import rpc
from standoff.server.auth import TokenRegistry
from standoff.v1 import referee_pb2 as pb

LONG_RUN = os.environ.get("STANDOFF_LONG") == "1"
TRIES = 20  # in-process servers, 3 bots each
OTHER_TRIES = 20 if LONG_RUN else 1  # split referees and `standoff serve` processes (slower to start)
THINK_S = 0.2  # after the shutdown began: what a bot still thinks before its answer goes out
NO_TIMEOUT = pb.TimeControl(max_per_decision_ms=120_000)  # nobody times out during a try


class Thinker(Bot):
    """Holds its first decision until ``go`` (the shutdown began), then thinks THINK_S more."""

    name = "thinker"

    def __init__(self, go: threading.Event) -> None:
        super().__init__()
        self.go = go
        self.thinking = threading.Event()
        self.ended: list = []

    def choose(self, decision, view):
        self.thinking.set()
        assert self.go.wait(60)
        threading.Event().wait(THINK_S)
        return 0

    def end(self, result):
        self.ended.append(result)


class SdkClient:
    """A bot run by the SDK (no reconnect: a try is over when its stream is)."""

    def __init__(self, address: str, token: str, go: threading.Event) -> None:
        self.bot = Thinker(go)
        self.thinking = self.bot.thinking
        self.thread, self.box = run_in_thread(self.bot, address, token, reconnect=False)

    def problem(self, match_id: str) -> str | None:
        ended = [(r.match_id, r.termination) for r in self.bot.ended]
        return None if ended == [(match_id, "shutdown")] else f"SDK: Bot.end got {ended}, run() gave {self.box!r}"


async def plain_client(address: str, token: str, go: threading.Event, thinking: threading.Event) -> dict:
    """A bot as anyone would write it from the .proto with grpc.aio: hello, then read; a
    decision is answered after thinking (held until ``go``, then THINK_S). No error handling:
    what it saw and how its stream ended are returned."""
    seen: dict = {"ended": [], "errors": [], "status": None}
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.stream_stream(
            "/standoff.v1.RefereeService/Play",
            request_serializer=pb.PlayRequest.SerializeToString,
            response_deserializer=pb.PlayResponse.FromString,
        )(metadata=(("authorization", f"Bearer {token}"),))
        hello = pb.PlayRequest()
        hello.hello.protocol_version = 1
        hello.hello.bot_name = "plain"
        try:
            await call.write(hello)
            while (message := await call.read()) is not grpc.aio.EOF:
                kind = message.WhichOneof("body")
                if kind == "decision":
                    thinking.set()
                    assert await asyncio.to_thread(go.wait, 60)
                    await asyncio.sleep(THINK_S)
                    answer = pb.PlayRequest()
                    answer.choice.match_id = message.decision.match_id
                    answer.choice.decision_id = message.decision.decision_id
                    answer.choice.option_index = 0
                    await call.write(answer)
                elif kind == "match_ended":
                    seen["ended"].append((message.match_ended.match_id, message.match_ended.termination))
                elif kind == "error":
                    seen["errors"].append(message.error.code)
            seen["status"] = (await call.code()).name
        except (grpc.RpcError, asyncio.InvalidStateError) as exc:
            seen["status"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
    return seen


class PlainClient:
    """:func:`plain_client` on a loop of its own, in a thread."""

    def __init__(self, address: str, token: str, go: threading.Event) -> None:
        self.thinking = threading.Event()
        self.seen: dict | None = None

        def main() -> None:
            try:
                self.seen = asyncio.run(plain_client(address, token, go, self.thinking))
            except BaseException as exc:  # noqa: BLE001 - reported by problem()
                self.seen = {"raised": repr(exc)}

        self.thread = threading.Thread(target=main, daemon=True)
        self.thread.start()

    def problem(self, match_id: str) -> str | None:
        seen = self.seen or {}
        if seen.get("ended") != [(match_id, "shutdown")] or seen.get("status") != "OK":
            return f"plain grpc.aio: saw {self.seen}"
        if seen["errors"][-1:] != [pb.ERROR_CODE_SHUTTING_DOWN]:
            return f"plain grpc.aio: Error(SHUTTING_DOWN) not last: {seen}"
        return None


class ServeProcess:
    """``standoff serve --drain-s 0`` in a process: the same calls as :class:`ServerThread`
    that a try makes; :meth:`shutdown` is SIGTERM."""

    def __init__(self, data) -> None:
        self.tokens = TokenRegistry(data / "tokens.json")
        self.admin = self.tokens.add("admin", admin=True)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "standoff.tournaments.cli", "serve", "--address", "127.0.0.1:0", "--data-dir",
             str(data), "--drain-s", "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        line = self.process.stdout.readline()
        assert "listening on" in line, self.process.stderr.read()
        self.address = line.split()[-1]

    def start_match(self, bots, time_control) -> pb.StartMatchResponse:
        request = pb.StartMatchRequest(game="schotten-totten", bots=bots, time_control=time_control)
        with grpc.insecure_channel(self.address) as channel:
            call = channel.unary_unary("/standoff.v1.RefereeService/StartMatch",
                                       request_serializer=pb.StartMatchRequest.SerializeToString,
                                       response_deserializer=pb.StartMatchResponse.FromString)
            return call(request, metadata=(("authorization", f"Bearer {self.admin}"),), timeout=30)

    def shutdown(self, drain_s: float = 0) -> None:
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(30) == 0, self.process.stderr.read()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        self.process.stderr.close()


def one_try(server, kinds: list[type]) -> list[str]:
    """Seat one client of each of ``kinds`` (each p1 against greedy), shut ``server`` down while
    all of them think, stop it; the problems seen (one line each)."""
    go = threading.Event()
    clients, seated = [], []
    try:
        for i, kind in enumerate(kinds):
            token = server.tokens.add(f"bot{i}", replace=True)
            clients.append(kind(server.address, token, go))
            seated.append(server.start_match([f"remote:bot{i}", "greedy"], time_control=NO_TIMEOUT).match_id)
        for client in clients:
            assert client.thinking.wait(30), "a bot was never asked"
        go.set()
        server.shutdown(drain_s=0)
    finally:
        go.set()
        server.stop()
    for client in clients:
        client.thread.join(30)
    return [p for client, match_id in zip(clients, seated, strict=True) if (p := client.problem(match_id))]


def tries(make_server, count: int, kinds: list[type]) -> None:
    lost = []
    for n in range(count):
        lost += one_try(make_server(n), kinds)
    assert lost == [], f"{len(lost)} of {count * len(kinds)} bots lost MatchEnded: {lost[:3]}"


def test_sdk_bots_mid_decision_get_match_ended_at_shutdown(tmp_path):
    tries(lambda n: ServerThread(tmp_path / str(n)).start(), TRIES, [SdkClient] * 3)


def test_sdk_bots_thinking_past_the_servers_wait_still_get_match_ended(tmp_path, monkeypatch):
    """A bot that answers after the server stopped waiting for late answers: its write fails,
    yet the SDK reads what the stream held (MatchEnded) before it reports the stream's end."""
    monkeypatch.setattr(rpc, "LATE_ANSWERS_S", 0.0)
    tries(lambda n: ServerThread(tmp_path / str(n)).start(), TRIES // 2, [SdkClient] * 3)


def test_plain_grpc_aio_clients_mid_decision_get_match_ended_at_shutdown(tmp_path):
    tries(lambda n: ServerThread(tmp_path / str(n)).start(), TRIES, [PlainClient] * 3)


def test_split_referee_bots_mid_decision_get_match_ended_at_shutdown(tmp_path):
    """Matches hosted in a worker process: the front's seats know the owed answers all the same."""
    tries(lambda n: ServerThread(tmp_path / str(n), match_workers=1).start(), OTHER_TRIES,
          [SdkClient, SdkClient, PlainClient, PlainClient])


def test_sigterm_with_bots_mid_decision_tells_every_one(tmp_path):
    """`standoff serve --drain-s 0` and SIGTERM: the drain, the wait for owed answers, then the
    stop, as the process runs them; it exits 0."""
    tries(lambda n: ServeProcess(tmp_path / str(n)), OTHER_TRIES, [SdkClient, SdkClient, PlainClient, PlainClient])
