"""The Ray executor against the local one on this machine: matches per minute of a greedy-vs-random
Schotten Totten round robin, Ray's start-up, and Ray's overhead per match.

    pip install -e '.[ray]'
    python benchmarks/bench_ray.py [--games 400] [--cpus 2]

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

Everything runs on 127.0.0.1 (a private local cluster). Outputs go to a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

# A private local cluster: every Ray service on 127.0.0.1 (read when ray is first imported).
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")

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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400, help="matches per tournament (even)")
    parser.add_argument("--cpus", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--noops", type=int, default=2000, help="no-op tasks for the round-trip figures")
    parser.add_argument("--concurrency", type=int, default=None, help="matches in flight (default: CPUs + 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each tournament (the best one counts)")
    args = parser.parse_args()
    games, cpus = args.games, args.cpus
    concurrency = args.concurrency or cpus + 1
    import ray

    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"ray {ray.__version__}; greedy vs random, {games} matches, {cpus} CPUs, concurrency {concurrency}")

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
    match_ms = local / games * cpus * 1000  # a match's time in a worker (local executor)
    overhead_wall = (on_ray - local) / games * 1000
    rows = [
        ("Ray start-up (not in the per-match figures):", None),
        (f"ray.init(num_cpus={cpus})", f"{init_s:8.2f} s"),
        ("first task on every CPU (workers start)", f"{warm_s:8.2f} s"),
        ("ray.shutdown()", f"{shutdown_s:8.2f} s"),
        ("No-op task round trip:", None),
        ("one at a time (submit, ray.get)", f"{one_ms:8.2f} ms"),
        (f"pipelined ({args.noops} in flight)", f"{piped_ms:8.3f} ms per task"),
        (f"Tournament, {games} matches (best of {args.repeat}; all runs: local "
         f"{', '.join(f'{t:.1f}' for t in locals_)} s, ray {', '.join(f'{t:.1f}' for t in rays)} s):", None),
        (f"local executor ({cpus} worker processes)", f"{local:8.2f} s {per_min['local']:8,.0f} matches/min"),
        ("ray executor (warm local cluster)", f"{on_ray:8.2f} s {per_min['ray']:8,.0f} matches/min"),
        ("ratio ray / local (matches/min)", f"{per_min['ray'] / per_min['local']:8.2f}"),
        ('ray, ray_address = "local" (start-up and', f"{own:8.2f} s {per_min['own']:8,.0f} matches/min"),
        ("  shutdown of its own cluster included)", ""),
        ("Ray's overhead per match (from the totals):", None),
        ("a match in a worker (local executor)", f"{match_ms:8.1f} ms"),
        ("extra wall time per match", f"{overhead_wall:8.2f} ms"),
        (f"extra worker time per match (x{cpus} CPUs)", f"{overhead_wall * cpus:8.2f} ms "
                                                      f"({overhead_wall * cpus / match_ms:+.1%} of a match)"),
    ]
    print()
    for label, value in rows:
        print(label if value is None else f"  {label:<44}{value}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
