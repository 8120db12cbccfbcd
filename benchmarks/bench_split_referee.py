"""A split referee's front vs a single-process referee, with 1, 16 and 64 remote matches in flight.

    python benchmarks/bench_split_referee.py [--concurrent 1,16,64] [--match-workers 2] [--rounds 3]
        [--opponent random] [--bot-processes P]

Each round runs, for every ``--concurrent`` N, :mod:`bench_referee`'s measurement twice,
interleaved: a referee that plays every match in its own process (``standoff serve``), and a
split one (``standoff serve --match-workers W``: the server holds the sessions and routes bytes,
the matches run in W worker processes). Remote seats are SDK ``random`` bots in processes of
their own (``--bot-processes``, default min(N, 16): on 2 cores 64 bot processes would measure
the bots); the other seat is the built-in ``--opponent``. Printed per N, medians of the rounds:

* bot decisions/s: player decisions of both seats per second of wall time;
* remote p50/p99: per remote decision, referee + wire + SDK cost (its think time taken out), ms;
* front CPU s: CPU seconds of the server's process (front and, single-process, every match; the
  benchmark's starter threads are in it too, the same in both; its floor measurements are not);
* worker CPU s: CPU seconds of the match worker processes (split only).

A referee whose process is full caps every match it serves; the split one moves the engine, the
views, the records and the built-in opponents out, which shows with an opponent that thinks
(``--opponent ismcts``) and with many matches in flight.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import bench_referee  # noqa: E402

from standoff.server.host_pool import ProcessHosts  # noqa: E402
from standoff.server.rpc import start_server  # noqa: E402


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(concurrent: int, workers: int, args: argparse.Namespace) -> dict[str, float]:
    pools: list[ProcessHosts] = []
    worker_cpu: dict[int, float] = {}

    async def serve(*a, **kw):
        if workers:
            pool = ProcessHosts(workers)
            pools.append(pool)
            kw["hosts"] = pool
        return await start_server(*a, **kw)

    original_aclose = ProcessHosts.aclose

    async def aclose(self):  # the workers' CPU, read just before they are stopped
        for worker in self.workers:
            try:
                worker_cpu[worker.process.pid] = _cpu_of(worker.process.pid)
            except OSError:
                pass
        await original_aclose(self)

    floors_cpu = []

    def timed(floor):
        async def run(*a, **kw):
            cpu = time.process_time()
            try:
                return await floor(*a, **kw)
            finally:
                floors_cpu.append(time.process_time() - cpu)
        return run

    floors = bench_referee.remote_ping_pong, bench_referee.ping_pong
    bench_referee.remote_ping_pong, bench_referee.ping_pong = map(timed, floors)
    ProcessHosts.aclose = aclose
    bench_referee.start_server = serve
    bench_referee.OPPONENT = args.opponent
    namespace = argparse.Namespace(concurrent=concurrent, bot_processes=min(concurrent, args.bot_processes),
                                   matches=max(args.matches, concurrent), in_thread=False)
    cpu = time.process_time()
    try:
        figures = bench_referee.measure(namespace)
    finally:
        ProcessHosts.aclose = original_aclose
        bench_referee.start_server = start_server
        bench_referee.remote_ping_pong, bench_referee.ping_pong = floors
    figures["front CPU s"] = time.process_time() - cpu - sum(floors_cpu)
    figures["worker CPU s"] = sum(worker_cpu.values())
    return figures


KEYS = ("bot decisions/s", "remote p50", "remote p99", "front CPU s", "worker CPU s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--concurrent", default="1,16,64", help="matches in flight, comma-separated")
    parser.add_argument("--match-workers", type=int, default=2, metavar="W")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--matches", type=int, default=20, help="matches per measurement (at least N)")
    parser.add_argument("--bot-processes", type=int, default=16, metavar="P")
    parser.add_argument("--opponent", default="random", help="the built-in bot of the other seat")
    args = parser.parse_args()
    try:
        levels = [int(n) for n in args.concurrent.split(",")]
    except ValueError:
        parser.error("--concurrent takes comma-separated integers")
    if min(levels) < 1 or args.match_workers < 1 or args.rounds < 1 or args.bot_processes < 1:
        parser.error("--concurrent, --match-workers, --rounds and --bot-processes must be at least 1")
    print(f"machine: {os.cpu_count()} cores; remote SDK random bots vs {args.opponent}; "
          f"split = {args.match_workers} match worker processes", flush=True)
    results: dict[tuple[int, str], list[dict[str, float]]] = {}
    for round_number in range(1, args.rounds + 1):
        for n in levels:
            order = [("single", 0), ("split", args.match_workers)]
            if round_number % 2 == 0:
                order.reverse()
            for name, workers in order:
                figures = measure(n, workers, args)
                results.setdefault((n, name), []).append(figures)
                print(f"round {round_number}, {n} in flight, {name}: "
                      + ", ".join(f"{k} {figures[k]:.3f}" for k in KEYS), flush=True)
    print()
    print(f"{'medians':<22}" + "".join(f"{k:>17}" for k in KEYS))
    for n in levels:
        for name in ("single", "split"):
            rows = results[(n, name)]
            print(f"{n:>3} in flight, {name:<7}" + "".join(
                f"{statistics.median(r[k] for r in rows):>17.3f}" for k in KEYS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
