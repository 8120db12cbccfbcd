"""Referee overhead per decision: an SDK bot over loopback vs an in-process bot.

    python benchmarks/bench_referee.py [--matches 20] [--in-thread] [--rounds 3] [--against REV]
    python benchmarks/bench_referee.py --concurrent 32 [--bot-processes 32] [--matches 128]

Starts a real server on 127.0.0.1, plays random-vs-random Schotten Totten matches with p1 a remote
SDK bot (`standoff bot run random`, a process of its own; --in-thread shares the server's) and p2
the in-process `random` plugin, then reads the records: per decision the referee measures
`elapsed_ms` (decision sent → answer in), the bot reports `think_ms`; the difference is what the
referee, the wire and the SDK cost (the referee's building of the view comes before the send, as
the bot's clock starts there: it shows in bot decisions/s, not in these). Two bare gRPC floors are
measured first, in the same process as the server, before it starts:

* **aio floor** (the one the goal ratio uses): what a real remote bot's wire costs at the least.
  A grpc.aio server in this process sends, on a bidi stream, the serialised decision messages of a
  seeded Schotten Totten game (real sizes, ~0.9 kB) to a grpc.aio client in a *process of its own*
  (as the SDK is), which answers each with a real-size ``Choice`` (~30 bytes); timed on the server
  from the write of the decision to the answer read, as the referee times a decision. Neither
  side parses: this is gRPC and loopback only.
* **paced aio floor** (one match in flight only; measured after the matches): the aio floor with
  the referee's pace. In a match the bot waits between its answer and its next decision while the
  referee plays the rest of the turn (the other bot, chance, the next view): on average ``wall
  time / remote decisions - their mean elapsed time``, printed as *referee's gap*. Here the floor's
  server plays Schotten Totten that long before each decision (random moves and p1's views). A
  client that slept longer, and a server whose caches the engine's work has turned over, take
  longer over the same bytes (on these virtual machines by ~0.02-0.1 ms), so this is the least a
  remote decision can cost at the pace and with the work of a match; *remote/paced floor p50*
  compares with it. The goal ratio stays the one against the aio floor.
* **sync floor** (the older figure): a sync gRPC client *thread of this process* bouncing 64-byte
  messages off a grpc.aio echo server. Cheaper than any real bot's wire (no process switch, tiny
  messages); kept for comparison with earlier runs.

Printed per round and as medians of --rounds (each round a fresh server, bot and floors):

* aio floor p50/p99, sync floor p50/p99: a round trip, in ms;
* remote p50/p99: referee + wire + SDK cost of one decision of the remote bot (its think time
  taken out), in ms; remote/aio floor p50 (the goal ratio) and remote/sync floor p50: the ratio
  of the p50s;
* remote p50/p99 to the match (one match in flight only): the same, but up to when the match
  loop has the answer, as earlier trees' records measured it. The bot's clock (and so the
  records' ``elapsed_ms``) stops when the answer reaches the referee (docs/protocol.md,
  "Clocks"), where the floor stops too; routing it to its seat and waking the match come after.
  Measured here by wrapping the referee's clock (for a tree whose clock stops at the match loop,
  its records' figure); *to the match/aio floor p50* is its ratio;
* in-process p50: the same cost for the in-process bot (no wire);
* bot decisions/s: player decisions of both bots per second of the whole run (chance decisions
  are not counted; nor are the start-ups of the server and the bots).

``--concurrent N`` keeps N matches in flight at once (N starters, each starting its next match as
its last one ends; --matches in all, default 4 per starter). The remote seats are played by
``--bot-processes`` SDK bot processes (default N: one bot, with a token of its own, per match in
flight, as N different bots of a tournament; 1: one bot process and session playing all N
matches at once, its decisions answered one after the other). The same figures are printed.

With ``--against REV`` each round runs on git revision REV too, interleaved, in fresh
interpreters (server, SDK bot process and floors all from that tree; see benchmarks/against.py).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import tempfile
import threading
import time
from pathlib import Path

import grpc

import against
from standoff.bots.random_bot import RandomBot
from standoff.sdk.client import run_in_thread
from standoff.server.auth import TokenRegistry
from standoff.server.logs import configure_logging
from standoff.server.plugins import load_registry
from standoff.server.rpc import start_server
from standoff.v1 import referee_pb2 as pb


#: The built-in bot of the other seat (benchmarks/bench_split_referee.py sets it: --opponent).
OPPONENT = "random"


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def ping_pong(n: int) -> list[float]:
    """The sync floor: a sync gRPC client thread of this process bouncing 64 bytes off a grpc.aio
    echo server, one message at a time."""

    async def echo(request_iterator, context):
        async for message in request_iterator:
            yield message

    server = grpc.aio.server()
    handler = grpc.stream_stream_rpc_method_handler(echo, request_deserializer=bytes, response_serializer=bytes)
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("bench.Echo", {"Echo": handler})])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    samples: list[float] = []
    done = threading.Event()

    def client() -> None:
        import queue

        q: queue.Queue = queue.Queue()
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            call = channel.stream_stream("/bench.Echo/Echo", request_serializer=bytes, response_deserializer=bytes)
            responses = call(iter(q.get, None))
            for _ in range(n):
                start = time.perf_counter()
                q.put(b"x" * 64)
                next(responses)
                samples.append((time.perf_counter() - start) * 1000)
            q.put(None)
        done.set()

    threading.Thread(target=client, daemon=True).start()
    while not done.is_set():
        await asyncio.sleep(0.01)
    await server.stop(0)
    return samples


def real_messages() -> tuple[list[bytes], bytes]:
    """The serialised decision messages p1 gets in a seeded random Schotten Totten game (views
    sent incrementally, as the referee sends them), and a ``Choice`` of a real size."""
    import random

    from standoff.server.games import get_game
    from standoff.server.wire import decision_message, encode_view, serialize

    game = get_game("schotten-totten")
    state, rng, sent, messages, number = game.new_state(game.rules(None, {})), random.Random(1), 0, [], 0
    while (decision := game.decision(state)) is not None:
        number += 1
        if decision.role == "p1":
            view = game.view(state, "p1", sent)
            if view["history"]:
                sent = view["history"][-1][0]
            messages.append(serialize(decision_message("0123456789ab", number, decision,
                                                       encode_view(game.name, view), {})))
        game.apply(state, decision.options[rng.randrange(len(decision.options))])
    choice = pb.PlayRequest()
    choice.choice.match_id, choice.choice.decision_id = "0123456789ab", 123
    choice.choice.option_index, choice.choice.think_us = 7, 25
    return messages, choice.SerializeToString()


async def remote_ping_pong(n: int, gap_ms: float = 0.0) -> list[float]:
    """The aio floor: decisions of real sizes from a grpc.aio server here to a grpc.aio client in
    a process of its own, answered with a real-size choice; timed from write to answer, as the
    referee times a decision. With ``gap_ms`` the server plays Schotten Totten that long between
    an answer and the next decision (random moves and p1's views, engine work as a match's), as
    the referee does: the paced floor."""
    import random
    import sys

    from standoff.server.games import get_game

    messages, choice = real_messages()
    samples: list[float] = []
    game, rng = get_game("schotten-totten"), random.Random(0)
    state = game.new_state(game.rules(None, {}))

    def play_for(seconds: float) -> None:
        nonlocal state
        until = time.perf_counter() + seconds
        while time.perf_counter() < until:
            decision = game.decision(state)
            if decision is None:
                state = game.new_state(game.rules(None, {}))
                continue
            game.apply(state, decision.options[rng.randrange(len(decision.options))])
            game.view(state, "p1", 0)

    async def play(request_iterator, context):
        await context.read()  # the client's hello
        for i in range(n):
            message = messages[i % len(messages)]
            if gap_ms:
                play_for(gap_ms / 1000)
            start = time.perf_counter()
            await context.write(message)
            await context.read()
            samples.append((time.perf_counter() - start) * 1000)

    server = grpc.aio.server()
    handler = grpc.stream_stream_rpc_method_handler(play, request_deserializer=bytes, response_serializer=bytes)
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler("bench.Floor", {"Play": handler})])
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    client = await asyncio.create_subprocess_exec(
        sys.executable, str(Path(__file__).resolve()), "--floor-client", f"127.0.0.1:{port}", choice.hex())
    await client.wait()
    await server.stop(0)
    if client.returncode or len(samples) != n:
        raise SystemExit(f"the aio floor's client failed (exit {client.returncode}, {len(samples)} of {n} answers)")
    return samples


async def floor_client(address: str, choice: bytes) -> None:
    """The aio floor's other end (``--floor-client``): answer every message with ``choice``."""
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.stream_stream("/bench.Floor/Play", request_serializer=bytes, response_deserializer=bytes)()
        await call.write(b"hello")
        while (await call.read()) is not grpc.aio.EOF:
            await call.write(choice)


METRICS = (
    against.Metric("aio floor p50", "{:.3f}", "lower", "ms"),
    against.Metric("aio floor p99", "{:.3f}", "lower", "ms"),
    against.Metric("sync floor p50", "{:.3f}", "lower", "ms"),
    against.Metric("sync floor p99", "{:.3f}", "lower", "ms"),
    against.Metric("remote p50", "{:.3f}", "lower", "ms"),
    against.Metric("remote p99", "{:.3f}", "lower", "ms"),
    against.Metric("remote/aio floor p50", "{:.2f}", "lower"),
    against.Metric("remote/sync floor p50", "{:.2f}", "lower"),
    against.Metric("in-process p50", "{:.3f}", "lower", "ms"),
    against.Metric("bot decisions/s"),
    against.Metric("remote p50 to the match", "{:.3f}", "lower", "ms"),
    against.Metric("remote p99 to the match", "{:.3f}", "lower", "ms"),
    against.Metric("to the match/aio floor p50", "{:.2f}", "lower"),
    against.Metric("referee's gap", "{:.3f}", "lower", "ms"),
    against.Metric("paced aio floor p50", "{:.3f}", "lower", "ms"),
    against.Metric("remote/paced floor p50", "{:.2f}", "lower"),
)


def _bot_runner() -> str:
    """The module that runs ``standoff bot run`` in the tree under test: the SDK's since issue 42,
    the server's command line before (``--against`` an older tree)."""
    import standoff.server

    # Not resolved: under --against the path goes through the tree's shim, whose links say which
    # tree's folders these are.
    sdk_cli = Path(standoff.server.__file__).parent.parent / "sdk" / "cli.py"
    return "standoff.sdk.cli" if sdk_cli.exists() else "standoff.server.cli"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=None,
                        help="matches per round (default 20; with --concurrent N, 4 per match in flight)")
    parser.add_argument("--in-thread", action="store_true", help="run the SDK bot in the server's process")
    parser.add_argument("--concurrent", type=int, default=1, metavar="N", help="matches in flight at once")
    parser.add_argument("--bot-processes", type=int, default=None, metavar="P",
                        help="SDK bot processes playing the remote seats with --concurrent (default N)")
    parser.add_argument("--floor-client", nargs=2, metavar=("ADDRESS", "CHOICE"), help=argparse.SUPPRESS)
    against.add_arguments(parser, rounds=3)
    args = parser.parse_args()
    if args.floor_client:
        asyncio.run(floor_client(args.floor_client[0], bytes.fromhex(args.floor_client[1])))
        return 0
    if args.concurrent < 1:
        parser.error("--concurrent must be at least 1")
    if args.matches is None:
        args.matches = 20 if args.concurrent == 1 else 4 * args.concurrent
    if args.bot_processes is None:
        args.bot_processes = args.concurrent
    if not 1 <= args.bot_processes <= args.concurrent:
        parser.error("--bot-processes must be between 1 and --concurrent")
    if args.in_thread and args.bot_processes != 1:
        parser.error("--in-thread runs one bot: use it with --bot-processes 1")
    if args.matches < args.concurrent:
        parser.error("--matches must be at least --concurrent")
    where = " (in the server's process)" if args.in_thread else (
        " (a process of its own)" if args.bot_processes == 1 else f" ({args.bot_processes} SDK bot processes)")
    title = f"{args.matches} random-vs-random Schotten Totten matches per round, p1 a remote SDK bot{where}"
    if args.concurrent > 1:
        title += f", {args.concurrent} matches in flight at once"
    return against.run(args, measure, METRICS, title=title)


def to_the_match() -> list[float] | None:
    """Per remote decision (one match in flight), the referee's cost as the records of earlier
    trees measured it: from the send to when the *match loop* has the answer, think time out.
    A bot's clock now stops when its answer reaches the referee (docs/protocol.md,
    "Clocks"), before the referee routes it to its seat and wakes the match, so the records'
    ``elapsed_ms`` no longer hold that part; this keeps it measured, for a comparison with the
    earlier definition. None for a tree whose clock still stops at the match loop (its records'
    figure is this one)."""
    from standoff.server import match as match_module
    from standoff.server import seats as seats_module

    if not hasattr(seats_module.Seat, "elapsed_ms"):
        return None
    samples: list[float] = []
    last: dict[str, float] = {}
    elapsed_ms, answer = seats_module.Seat.elapsed_ms, match_module.MatchDriver.answer

    def timed_elapsed(self, started, now):  # called by the referee just before the driver's answer
        if self.remote:
            last["to match"] = (now - (started if self.asked_at is None else self.asked_at)) * 1000.0
        return elapsed_ms(self, started, now)

    def timed_answer(self, ask, index, elapsed, timing, *rest, **named):
        if "rtt_ms" in timing and "to match" in last:  # a remote seat's answer, think time known
            samples.append(last.pop("to match") - timing["think_ms"])
        return answer(self, ask, index, elapsed, timing, *rest, **named)

    seats_module.Seat.elapsed_ms = timed_elapsed
    match_module.MatchDriver.answer = timed_answer
    return samples


def measure(args: argparse.Namespace) -> dict[str, float]:
    import subprocess
    import sys

    configure_logging(level="warning")
    aio_floor = asyncio.run(remote_ping_pong(3000))
    sync_floor = asyncio.run(ping_pong(3000))
    data = Path(tempfile.mkdtemp(prefix="standoff-bench-"))
    tokens = TokenRegistry(data / "tokens.json")
    admin = tokens.add("admin", admin=True)
    # Match m goes to starter m % N; starter s's remote seat is played by bot s % P.
    slots, processes = args.concurrent, args.bot_processes
    names = [f"bot{b}" for b in range(processes)]
    secrets = [tokens.add(name) for name in names]
    per_slot = [list(range(s, args.matches, slots)) for s in range(slots)]
    per_bot = [sum(len(per_slot[s]) for s in range(slots) if s % processes == b) for b in range(processes)]
    ready = threading.Event()
    box: dict = {}

    async def serve() -> None:
        running = await start_server("127.0.0.1:0", tokens=tokens, registry=load_registry(entry_points=False), data_dir=data)
        box["address"], box["stop"], box["loop"] = running.address, asyncio.Event(), asyncio.get_running_loop()
        box["referee"] = running.referee
        ready.set()
        await box["stop"].wait()
        await running.stop()

    match_samples = to_the_match() if args.concurrent == 1 else None
    server_thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    server_thread.start()
    ready.wait(30)
    address = box["address"]

    bots: list[subprocess.Popen] = []
    try:
        if args.in_thread:  # the bot shares the server's process (and its GIL)
            bot_thread, _ = run_in_thread(RandomBot(1), address, secrets[0], matches=per_bot[0])
        else:  # the realistic set-up: bots are processes of their own
            bots = [subprocess.Popen(
                [sys.executable, "-m", _bot_runner(), "bot", "run", "random", "--address", address,
                 "--matches", str(per_bot[b])],
                env=dict(os.environ, STANDOFF_TOKEN=secrets[b]), stdout=subprocess.DEVNULL,
            ) for b in range(processes)]
        # Every bot connected before the first match starts: a bot still starting up when its
        # match gives up waiting for it would wait for a match that never comes.
        deadline = time.monotonic() + 120
        while not all(name in box["referee"].sessions for name in names):
            if time.monotonic() > deadline or any(bot.poll() is not None for bot in bots):
                raise SystemExit("the SDK bots did not all connect within 120 s")
            time.sleep(0.05)
        failures: list[BaseException] = []

        def starter(slot: int) -> None:
            try:
                with grpc.insecure_channel(address) as channel:
                    start = channel.unary_unary("/standoff.v1.RefereeService/StartMatch",
                                                request_serializer=pb.StartMatchRequest.SerializeToString,
                                                response_deserializer=pb.StartMatchResponse.FromString)
                    for m in per_slot[slot]:
                        start(pb.StartMatchRequest(game="schotten-totten", seed=m + 1, wait=True,
                                                   bots=[f"remote:{names[slot % processes]}", OPPONENT]),
                              metadata=(("authorization", f"Bearer {admin}"),))
            except BaseException as exc:  # noqa: BLE001 - reported below
                failures.append(exc)

        started = time.perf_counter()
        starters = [threading.Thread(target=starter, args=(s,), daemon=True) for s in range(slots)]
        for thread in starters:
            thread.start()
        for thread in starters:
            thread.join()
        wall = time.perf_counter() - started
        if failures:
            raise SystemExit(f"a match could not be started: {failures[0]}")
        if args.in_thread:
            bot_thread.join(30)
        else:
            for bot in bots:
                bot.wait(60)
    finally:
        for bot in bots:  # only if something above failed: they have all ended otherwise
            if bot.poll() is None:
                bot.kill()
                bot.wait()
    remote, local, decisions, games, remote_elapsed = [], [], 0, 0, []
    for path in (data / "records").glob("*.jsonl"):
        games += 1
        for line in path.read_text().splitlines():
            move = json.loads(line)
            if move.get("type") == "outcome" and move.get("termination") in ("not_played", "error", "shutdown"):
                raise SystemExit(f"match {path.stem} was not played through: {move.get('termination')}")
            if move.get("type") != "decision" or move["role"] == "chance":
                continue
            decisions += 1
            overhead = move["elapsed_ms"] - move.get("think_ms", 0.0)
            (remote if move["role"] == "p1" else local).append(overhead)
            if move["role"] == "p1":
                remote_elapsed.append(move["elapsed_ms"])
    box["loop"].call_soon_threadsafe(box["stop"].set)
    server_thread.join(30)
    shutil.rmtree(data, ignore_errors=True)
    if games != args.matches:
        raise SystemExit(f"{games} match records for {args.matches} matches")
    figures = {}
    if args.concurrent == 1:
        # The referee's pace: per remote decision, the time the remote bot waited for its next
        # one (the rest of the match's turn: the other bot, chance, the next view), on average.
        gap_ms = max(0.0, wall * 1000 / len(remote_elapsed) - sum(remote_elapsed) / len(remote_elapsed))
        paced = asyncio.run(remote_ping_pong(3000, gap_ms))
        to_match = remote if match_samples is None else match_samples
        figures = {
            "remote p50 to the match": percentile(to_match, .5),
            "remote p99 to the match": percentile(to_match, .99),
            "to the match/aio floor p50": percentile(to_match, .5) / percentile(aio_floor, .5),
            "referee's gap": gap_ms,
            "paced aio floor p50": percentile(paced, .5),
            "remote/paced floor p50": percentile(remote, .5) / percentile(paced, .5),
        }
    return {
        "aio floor p50": percentile(aio_floor, .5),
        "aio floor p99": percentile(aio_floor, .99),
        "sync floor p50": percentile(sync_floor, .5),
        "sync floor p99": percentile(sync_floor, .99),
        "remote p50": percentile(remote, .5),
        "remote p99": percentile(remote, .99),
        "remote/aio floor p50": percentile(remote, .5) / percentile(aio_floor, .5),
        "remote/sync floor p50": percentile(remote, .5) / percentile(sync_floor, .5),
        "in-process p50": percentile(local, .5),
        "bot decisions/s": decisions / wall,
        **figures,
    }


if __name__ == "__main__":
    raise SystemExit(main())
