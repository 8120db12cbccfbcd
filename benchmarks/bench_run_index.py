"""A ladder's overhead per round with the run folder's index (issue 43): the same with a history
of 10³ and of 10⁶ results (within 2×), where it used to grow with the history.

    python benchmarks/bench_run_index.py [--sizes 1000,1000000] [--rounds 20] [--keep DIR]

For each size, a run folder is made with that many results of a ladder of 8 entrants
(results.jsonl chained, elo.jsonl and the index written by the run's own write step,
:meth:`RunIndex.add`, in large batches; no records: nothing here reads them, and no match is
played), then a ladder's per-round work on its index is timed, matches aside:

* ``open``: the start of a resume: :meth:`RunIndex.open` (checks where the files stand, catches
  up nothing), the round to go on with and the done ids of that round, ratings.json rewritten;
* ``round``: one round of 56 results, each written by its own step (results line fsync'd, Elo
  line, rows committed), then the round's summary (the ratings from the index's sums);
* ``ratings``: ``ratings_from_index`` alone.

Figures are medians over ``--rounds`` rounds (and 5 opens), in milliseconds, then the ratio of
the largest size to the smallest. Building the 10⁶ history takes a few minutes (it is written by
the same step a ladder uses, batch by batch).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from standoff.server.ledger import LedgerWriter
from standoff.tournaments.model import Result
from standoff.tournaments.report import write_ratings
from standoff.tournaments.run_index import RunIndex, ratings_from_index

ENTRANTS = ["greedy", "random", "probability", "ismcts", "alice@1", "bob@1", "carol@1", "dave@1"]
PER_ROUND = len(ENTRANTS) * (len(ENTRANTS) - 1)  # every pairing, both seatings


def round_results(rng: random.Random, number: int, first: int) -> list[Result]:
    """A ladder round: every pairing twice (paired legs), outcomes at random."""
    results = []
    for i, a in enumerate(ENTRANTS):
        for b in ENTRANTS[i + 1:]:
            for leg in (0, 1):
                index = first + len(results)
                seats = {"p1": a, "p2": b} if leg == 0 else {"p1": b, "p2": a}
                roll = rng.random()
                winner = None if roll < 0.2 else rng.choice(["p1", "p2"])
                scores = {"p1": 0.5, "p2": 0.5} if winner is None else {r: float(r == winner) for r in seats}
                match_id = f"r{number:06d}-{a}-vs-{b}-g{leg + 1:02d}"
                results.append(Result(
                    index=index, match_id=match_id, round=number, seed=rng.getrandbits(62), seats=seats,
                    played=True, winner=seats[winner] if winner else None, winner_role=winner, scores=scores,
                    termination="stalemate" if winner is None else "breakthrough", reason="",
                    faults={"p2": {"timeout": 1}} if roll > 0.98 else {}, pair=index - leg, leg=leg,
                    records={f"{match_id}.jsonl": "0" * 64}))
    return results


def step(index: RunIndex, ledger: LedgerWriter, results: list[Result]) -> None:
    """The run's write step (ResultWriter.write without the records' digests)."""
    elo = "".join(index.elo_step(r) for r in results)
    text = "".join(ledger.text(r.to_json()) for r in results)
    index.add(results, text, ledger.append, elo)


def build(folder: Path, size: int, rng: random.Random) -> int:
    """A run folder of ``size`` results (rounded up to whole rounds); returns the next round."""
    (folder / "records").mkdir(parents=True)
    ledger = LedgerWriter(folder / "results.jsonl")
    number, batch, started = 1, [], time.perf_counter()
    with RunIndex.open(folder) as index:
        done = 0
        while done < size:
            batch += round_results(rng, number, done)
            done += PER_ROUND
            number += 1
            if len(batch) >= 20_000 or done >= size:
                step(index, ledger, batch)
                batch = []
                print(f"  {done} results, {time.perf_counter() - started:.0f} s", end="\r", file=sys.stderr)
    ledger.close()
    print(file=sys.stderr)
    return number


def measure(folder: Path, next_round: int, rounds: int, rng: random.Random) -> dict[str, float]:
    opens, per_round, ratings = [], [], []
    for _ in range(5):
        started = time.perf_counter()
        with RunIndex.open(folder, elo=(32.0, 1500.0)) as index:
            last = index.max_round()
            index.done_among(r.match_id for r in round_results(random.Random(0), last, 0))
            write_ratings(folder, ratings_from_index(index, ENTRANTS))
        opens.append(time.perf_counter() - started)
    ledger = LedgerWriter(folder / "results.jsonl")
    with RunIndex.open(folder, elo=(32.0, 1500.0)) as index:
        first = index.count()
        for number in range(next_round, next_round + rounds):
            results = round_results(rng, number, first)
            first += len(results)
            started = time.perf_counter()
            for result in results:
                step(index, ledger, [result])
            ratings_from_index(index, ENTRANTS)
            index.last_round(), index.count()
            per_round.append(time.perf_counter() - started)
            started = time.perf_counter()
            ratings_from_index(index, ENTRANTS)
            ratings.append(time.perf_counter() - started)
    ledger.close()
    return {name: 1000 * statistics.median(values)
            for name, values in (("open", opens), ("round", per_round), ("ratings", ratings))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,1000000")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--keep", default=None, help="build the run folders here (default: a temporary folder)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as scratch:
        where = Path(args.keep or scratch)
        figures = {}
        for size in sizes:
            folder = where / f"history-{size}"
            rng = random.Random(size)
            print(f"building {size} results in {folder}", file=sys.stderr)
            next_round = build(folder, size, rng)
            figures[size] = measure(folder, next_round, args.rounds, rng)
        print(f"{'results':>10}  {'open ms':>8}  {'round ms':>8}  {'ratings ms':>10}   ({PER_ROUND} results a round)")
        for size, f in figures.items():
            print(f"{size:>10}  {f['open']:8.1f}  {f['round']:8.1f}  {f['ratings']:10.2f}")
        small, large = figures[min(sizes)], figures[max(sizes)]
        print("ratio     " + "  ".join(f"{large[k] / small[k]:8.2f}" for k in ("open", "round", "ratings")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
