"""Referee overhead per decision: an SDK bot over loopback vs an in-process bot.

    python benchmarks/bench_referee.py [--matches 20] [--in-thread] [--rounds 3] [--against REV]

Starts a real server on 127.0.0.1, plays random-vs-random Schotten Totten matches with p1 a remote
SDK bot (`standoff bot run random`, a process of its own; --in-thread shares the server's) and p2 the in-process `random` plugin, then reads the
records: per decision the referee measures `elapsed_ms` (decision sent → answer in), the bot
reports `think_ms`; the difference is what the referee, the wire and the SDK cost. A plain
grpc.aio bidi ping-pong in the same process is measured first as the floor. Printed per round
and as medians of --rounds (each round a fresh server, bot and floor):

* floor p50/p99: one 64-byte message there and back on a bare grpc.aio bidi stream, in ms;
* remote p50/p99: referee + wire + SDK cost of one decision of the remote bot (its think time
  taken out), in ms; remote/floor: the ratio of the two p50s;
* in-process p50: the same cost for the in-process bot (no wire);
* bot decisions/s: player decisions of both bots per second of the whole run (chance decisions
  are not counted; nor is server start-up).

With ``--against REV`` each round runs on git revision REV too, interleaved, in fresh
interpreters (server, SDK bot process and floor all from that tree; see benchmarks/against.py).
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


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


async def ping_pong(n: int) -> list[float]:
    """Floor: a bare grpc.aio bidi echo on loopback, one message at a time."""

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


METRICS = (
    against.Metric("floor p50", "{:.3f}", "lower", "ms"),
    against.Metric("floor p99", "{:.3f}", "lower", "ms"),
    against.Metric("remote p50", "{:.3f}", "lower", "ms"),
    against.Metric("remote p99", "{:.3f}", "lower", "ms"),
    against.Metric("remote/floor p50", "{:.2f}", "lower"),
    against.Metric("in-process p50", "{:.3f}", "lower", "ms"),
    against.Metric("bot decisions/s"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--in-thread", action="store_true", help="run the SDK bot in the server's process")
    against.add_arguments(parser, rounds=3)
    args = parser.parse_args()
    title = f"{args.matches} random-vs-random Schotten Totten matches per round, p1 a remote SDK bot" + (
        " (in the server's process)" if args.in_thread else " (a process of its own)")
    return against.run(args, measure, METRICS, title=title)


def measure(args: argparse.Namespace) -> dict[str, float]:
    configure_logging(level="warning")
    floor = asyncio.run(ping_pong(3000))
    data = Path(tempfile.mkdtemp(prefix="standoff-bench-"))
    tokens = TokenRegistry(data / "tokens.json")
    admin, alice = tokens.add("admin", admin=True), tokens.add("alice")
    ready = threading.Event()
    box: dict = {}

    async def serve() -> None:
        running = await start_server("127.0.0.1:0", tokens=tokens, registry=load_registry(entry_points=False), data_dir=data)
        box["address"], box["stop"], box["loop"] = running.address, asyncio.Event(), asyncio.get_running_loop()
        ready.set()
        await box["stop"].wait()
        await running.stop()

    server_thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    server_thread.start()
    ready.wait(30)
    address = box["address"]
    import subprocess
    import sys

    if args.in_thread:  # the bot shares the server's process (and its GIL)
        bot_thread, _ = run_in_thread(RandomBot(1), address, alice, matches=args.matches)
    else:  # the realistic set-up: the bot is a process of its own
        bot_process = subprocess.Popen(
            [sys.executable, "-m", "standoff.server.cli", "bot", "run", "random", "--address", address,
             "--matches", str(args.matches)],
            env=dict(os.environ, STANDOFF_TOKEN=alice), stdout=subprocess.DEVNULL,
        )
    started = time.perf_counter()
    with grpc.insecure_channel(address) as channel:
        start = channel.unary_unary("/standoff.v1.RefereeService/StartMatch",
                                    request_serializer=pb.StartMatchRequest.SerializeToString,
                                    response_deserializer=pb.StartMatchResponse.FromString)
        for seed in range(1, args.matches + 1):
            start(pb.StartMatchRequest(game="schotten-totten", bots=["remote:alice", "random"], seed=seed, wait=True),
                  metadata=(("authorization", f"Bearer {admin}"),))
    wall = time.perf_counter() - started
    if args.in_thread:
        bot_thread.join(30)
    else:
        bot_process.wait(30)
    remote, local, decisions = [], [], 0
    for path in (data / "records").glob("*.jsonl"):
        for line in path.read_text().splitlines():
            move = json.loads(line)
            if move.get("type") != "decision" or move["role"] == "chance":
                continue
            decisions += 1
            overhead = move["elapsed_ms"] - move.get("think_ms", 0.0)
            (remote if move["role"] == "p1" else local).append(overhead)
    box["loop"].call_soon_threadsafe(box["stop"].set)
    server_thread.join(30)
    shutil.rmtree(data, ignore_errors=True)
    return {
        "floor p50": percentile(floor, .5),
        "floor p99": percentile(floor, .99),
        "remote p50": percentile(remote, .5),
        "remote p99": percentile(remote, .99),
        "remote/floor p50": percentile(remote, .5) / percentile(floor, .5),
        "in-process p50": percentile(local, .5),
        "bot decisions/s": decisions / wall,
    }


if __name__ == "__main__":
    raise SystemExit(main())
