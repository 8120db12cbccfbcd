"""The Ray executor against the local one on this machine: matches per minute of a greedy-vs-random
Schotten Totten round robin, Ray's start-up, and Ray's overhead per match.

    pip install -e '.[ray]'
    python benchmarks/bench_ray.py [--games 400] [--cpus 2] [--rounds 1] [--against REV]

What it measures, in this order:

1. ``executor = "ray"``, ``ray_address = "local"`` end to end: the run starts its own Ray cluster
   and stops it (start-up and shutdown included): what a user sees for a small tournament.
2. Ray's start-up alone: ``ray.init(num_cpus=CPUS)`` in this process (kept open from here on,
   so that the runs below use it and the per-match figures leave the start-up out), then the
   first no-op task on every CPU (worker processes starting).
3. A no-op task's round trip: one at a time (submit, wait), and pipelined (many in flight).
4. The tournament with ``executor = "local"`` (``workers = CPUS`` worker processes, their start
   included, as in bench_tournament.py) and with ``executor = "ray"`` (the warm session), both
   with ``concurrency = CPUS + 1`` (``--concurrency``); matches/min, the ratio, and Ray's overhead per match from
   the totals: (Ray's wall time - local wall time) / matches, in wall time and in worker time
   (times CPUS: what each match costs a worker beyond playing it). Each tournament is run
   ``--repeat`` times, alternating executors, and the fastest run of each counts (other load on
   the machine only ever slows a run down).

Everything runs on 127.0.0.1 (a private local cluster). Outputs go to a temporary folder. A
round is all of the above; with --rounds N the medians of N rounds are printed, and with
``--against REV`` each round also runs on git revision REV, interleaved, in fresh interpreters
(Ray's workers import the same tree; see benchmarks/against.py).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

# A private local cluster: every Ray service on 127.0.0.1 (read when ray is first imported).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

import against  # noqa: E402
from standoff.server.plugins import load_registry  # noqa: E402
from standoff.tournaments.config import parse_config  # noqa: E402
from standoff.tournaments.runner import run_tournament  # noqa: E402


def tournament(folder: Path, games: int, cpus: int, concurrency: int, **extra) -> float:
    """Seconds for a greedy-vs-random round robin of ``games`` matches."""
    registry = load_registry(entry_points=False)
    config = parse_config(
        {"name": "bench", "game": "schotten-totten", "entrants": ["greedy", "random"],
         "games_per_pairing": games, "workers": cpus, "concurrency": concurrency, "output_dir": str(folder),
         **extra},
        source="bench", registry=registry,
    )
    started = time.perf_counter()
    summary = run_tournament(config, registry=registry)
    elapsed = time.perf_counter() - started
    assert summary.complete and len(summary.results) == games
    return elapsed


METRICS = (
    against.Metric("local executor", "{:,.0f}", unit="matches/min"),
    against.Metric("ray executor (warm cluster)", "{:,.0f}", unit="matches/min"),
    against.Metric("ratio ray / local", "{:.2f}"),
    against.Metric("ray, own cluster (start/stop included)", "{:,.0f}", unit="matches/min"),
    against.Metric("extra wall time per match", "{:.2f}", "lower", "ms"),
    against.Metric("extra worker time per match", "{:.2f}", "lower", "ms"),
    against.Metric("ray.init", "{:.2f}", "lower", "s"),
    against.Metric("first task on every CPU", "{:.2f}", "lower", "s"),
    against.Metric("ray.shutdown", "{:.2f}", "lower", "s"),
    against.Metric("no-op round trip, one at a time", "{:.2f}", "lower", "ms"),
    against.Metric("no-op, pipelined", "{:.3f}", "lower", "ms"),
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="matches per tournament (even)")
    parser.add_argument("--cpus", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--noops", type=int, default=2000, help="no-op tasks for the round-trip figures")
    parser.add_argument("--concurrency", type=int, default=None, help="matches in flight (default: CPUs + 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each tournament (the best one counts)")
    against.add_arguments(parser, rounds=1)
    args = parser.parse_args()
    import ray

    title = (f"ray {ray.__version__}; greedy vs random, {args.games} matches, {args.cpus} CPUs, "
             f"concurrency {args.concurrency or args.cpus + 1}")
    return against.run(args, measure, METRICS, title=title)


def measure(args: argparse.Namespace) -> dict[str, float]:
    games, cpus = args.games, args.cpus
    concurrency = args.concurrency or cpus + 1
    import ray

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        # 1. end to end, with its own cluster
        own = tournament(folder / "own", games, cpus, concurrency, executor="ray", ray_address="local")

        # 2. start-up
        started = time.perf_counter()
        ray.init(address="local", num_cpus=cpus, include_dashboard=False, logging_level="error")
        init_s = time.perf_counter() - started

        @ray.remote
        def noop(x=None):
            return x

        started = time.perf_counter()
        ray.get([noop.remote() for _ in range(cpus)])
        warm_s = time.perf_counter() - started

        # 3. no-op round trips
        samples = []
        for _ in range(200):
            t = time.perf_counter()
            ray.get(noop.remote())
            samples.append(time.perf_counter() - t)
        one_ms = statistics.median(samples) * 1000
        started = time.perf_counter()
        ray.get([noop.remote(i) for i in range(args.noops)])
        piped_ms = (time.perf_counter() - started) / args.noops * 1000

        # 4. the tournaments, alternately (the best of --repeat each: the least disturbed run)
        locals_, rays = [], []
        for i in range(args.repeat):
            locals_.append(tournament(folder / f"local{i}", games, cpus, concurrency))
            rays.append(tournament(folder / f"ray{i}", games, cpus, concurrency, executor="ray"))
        local, on_ray = min(locals_), min(rays)
        started = time.perf_counter()
        ray.shutdown()
        shutdown_s = time.perf_counter() - started

    per_min = {name: games / seconds * 60 for name, seconds in
               (("local", local), ("ray", on_ray), ("own", own))}
    overhead_wall = (on_ray - local) / games * 1000
    print(f"tournament runs: local {', '.join(f'{t:.1f}' for t in locals_)} s, "
          f"ray {', '.join(f'{t:.1f}' for t in rays)} s (the best of each counts)")
    return {
        "local executor": per_min["local"],
        "ray executor (warm cluster)": per_min["ray"],
        "ratio ray / local": per_min["ray"] / per_min["local"],
        "ray, own cluster (start/stop included)": per_min["own"],
        "extra wall time per match": overhead_wall,
        "extra worker time per match": overhead_wall * cpus,
        "ray.init": init_s,
        "first task on every CPU": warm_s,
        "ray.shutdown": shutdown_s,
        "no-op round trip, one at a time": one_ms,
        "no-op, pipelined": piped_ms,
    }


if __name__ == "__main__":
    raise SystemExit(main())
