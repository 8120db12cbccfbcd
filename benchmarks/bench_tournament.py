"""Tournament throughput: matches per minute of a random-vs-random (and a greedy-vs-random)
Schotten Totten round robin with 1 and with 2 worker processes, and the speed-up between them.

    python benchmarks/bench_tournament.py [--games 400]

Each run starts from an empty run folder in a temporary directory; concurrency = workers + 1 so
that a worker never waits for the coordinator. Worker start-up is included in the timing.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

from standoff.server.plugins import load_registry
from standoff.tournaments.config import parse_config
from standoff.tournaments.runner import run_tournament


def measure(games: int, workers: int, folder: Path, entrants: list[str]) -> float:
    config = parse_config(
        {
            "name": f"bench-{workers}", "game": "schotten-totten", "entrants": entrants,
            "games_per_pairing": games, "workers": workers, "concurrency": workers + 1,
            "output_dir": str(folder),
        },
        source="bench", registry=load_registry(entry_points=False),
    )
    started = time.perf_counter()
    summary = run_tournament(config, registry=load_registry(entry_points=False))
    elapsed = time.perf_counter() - started
    assert summary.complete and len(summary.results) == games
    return games / elapsed * 60


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    args = parser.parse_args()
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    # The random twin lives next to this file; workers inherit the environment.
    here = str(Path(__file__).resolve().parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    os.environ["STANDOFF_PLUGINS"] = "benchbots"
    sys.path.insert(0, here)
    for entrants in (["random", "random-twin"], ["greedy", "random"]):
        with tempfile.TemporaryDirectory() as tmp:
            one = measure(args.games, 1, Path(tmp) / "one", entrants)
            two = measure(args.games, 2, Path(tmp) / "two", entrants)
        print(f"{entrants[0]} vs {entrants[1]} round robin, {args.games} matches")
        print(f"  1 worker:  {one:,.0f} matches/min")
        print(f"  2 workers: {two:,.0f} matches/min")
        print(f"  speed-up:  {two / one:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
