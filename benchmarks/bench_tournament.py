"""Tournament throughput: matches per minute of a random-vs-random (and a greedy-vs-random)
Schotten Totten round robin with 1 and with 2 worker processes, and the speed-up between them.

    python benchmarks/bench_tournament.py [--games 400] [--rounds 3] [--against REV]

Each run starts from an empty run folder in a temporary directory; concurrency = workers + 1 so
that a worker never waits for the coordinator. Worker start-up is included in the timing. A round
runs the four tournaments (two pairings, 1 and 2 workers); figures are complete matches (games,
not decisions) per minute of wall time, medians of --rounds. With ``--against REV`` each round
runs on git revision REV too, interleaved, in fresh interpreters (see benchmarks/against.py).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import against
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


PAIRINGS = (["random", "random-twin"], ["greedy", "random"])
METRICS = tuple(
    against.Metric(f"{a} vs {b}, {w}", "{:,.0f}", unit="matches/min")
    for a, b in PAIRINGS for w in ("1 worker", "2 workers")
) + tuple(against.Metric(f"{a} vs {b}, speed-up 2/1", "{:.2f}") for a, b in PAIRINGS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=400)
    against.add_arguments(parser, rounds=3)
    args = parser.parse_args()
    return against.run(args, run_round, METRICS, title=f"round robins of {args.games} matches, Schotten Totten")


def run_round(args: argparse.Namespace) -> dict[str, float]:
    # The random twin lives next to this file; workers inherit the environment.
    here = str(Path(__file__).resolve().parent)
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")]))
    os.environ["STANDOFF_PLUGINS"] = "benchbots"
    sys.path.insert(0, here)
    result = {}
    for entrants in PAIRINGS:
        with tempfile.TemporaryDirectory() as tmp:
            one = measure(args.games, 1, Path(tmp) / "one", entrants)
            two = measure(args.games, 2, Path(tmp) / "two", entrants)
        name = f"{entrants[0]} vs {entrants[1]}"
        result[f"{name}, 1 worker"] = one
        result[f"{name}, 2 workers"] = two
        result[f"{name}, speed-up 2/1"] = two / one
    return result


if __name__ == "__main__":
    raise SystemExit(main())
