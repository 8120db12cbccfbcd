"""What writing a match's record costs: in-process matches with their records, and the writes alone.

    python benchmarks/bench_records.py [--game schotten-totten] [--matches 200] [--rounds 5]
        [--clock wall|cpu] [--against REV]

A record is written line by line as the match goes (server/records.py ``RecordWriter``: the
header, one line per decision, the outcome; fsync'd at close). Issue 44 made each line reach the
operating system as it is written (a flush per line, one ``write(2)``), so that a process killed
mid-match leaves the decisions played; before, lines waited in an 8 KiB buffer. This measures that
cost where it weighs most: cheap bots, nothing else between the lines. Per round, in a temporary
folder (``$TMPDIR``):

* **matches/s**: ``--matches`` random-vs-random matches played in this process (``play_match``,
  untimed decisions), each writing its record through ``RecordWriter`` (match ``m`` seeded ``m``);
* **µs per line, writes only**: the same records' lines written again through ``RecordWriter``
  into new files, nothing else timed: open, every line, close (with its fsync), per line;
* **µs per line, fsync aside**: the same without the close's fsync (the writes and flushes alone);
* **lines per match** (a check: the same on both trees).

With ``--against REV`` both trees run interleaved in fresh interpreters (benchmarks/against.py);
medians of ``--rounds``. ``--clock cpu`` times by this process's CPU time (user and system: a
``write(2)`` counts) instead of the wall clock, steadier on a shared machine.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import against
from standoff.bots.random_bot import RandomBot
from standoff.server.games import get_game
from standoff.server.local import play_match
from standoff.server.records import RecordWriter

METRICS = (
    against.Metric("matches/s", "{:,.1f}"),
    against.Metric("µs per line, writes only", "{:.2f}", "lower"),
    against.Metric("µs per line, fsync aside", "{:.2f}", "lower"),
    against.Metric("lines per match", "{:.1f}", "same"),
)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}


def measure(args: argparse.Namespace) -> dict[str, float]:
    clock = CLOCKS[args.clock]
    game = get_game(args.game)
    rules = game.rules()
    records: list[list[dict]] = []
    with tempfile.TemporaryDirectory(prefix="bench-records-") as tmp:
        folder = Path(tmp)
        started = clock()
        for m in range(args.matches):
            with RecordWriter(folder / f"m{m}.jsonl") as writer:
                lines: list[dict] = []

                def keep(line: dict, writer: RecordWriter = writer, lines: list[dict] = lines) -> None:
                    writer.write(line)
                    lines.append(line)

                bots = {role: RandomBot(m * 10 + i) for i, role in enumerate(rules.roles)}
                play_match(game, rules, bots, m + 1, on_line=keep, timing=False)
            records.append(lines)
        played = clock() - started
        total = sum(len(lines) for lines in records)
        started = clock()
        for m, lines in enumerate(records):
            with RecordWriter(folder / f"w{m}.jsonl") as writer:
                for line in lines:
                    writer.write(line)
        written = clock() - started
        started = clock()
        for m, lines in enumerate(records):
            writer = RecordWriter(folder / f"n{m}.jsonl")
            for line in lines:
                writer.write(line)
            file = writer._file  # closed without the fsync: the writes (and flushes) alone
            writer._file = None
            file.close()
        unsynced = clock() - started
    return {
        "matches/s": args.matches / played,
        "µs per line, writes only": written / total * 1e6,
        "µs per line, fsync aside": unsynced / total * 1e6,
        "lines per match": total / args.matches,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="schotten-totten", help="the game (default schotten-totten)")
    parser.add_argument("--matches", type=int, default=200, help="matches per round (default 200)")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="time by the wall clock (default) or by this process's CPU time")
    against.add_arguments(parser)
    args = parser.parse_args()
    where = os.environ.get("TMPDIR") or tempfile.gettempdir()
    title = f"{args.game}, {args.matches} random-vs-random matches per round, records in {where}; {args.clock} clock"
    return against.run(args, measure, METRICS, title=title)


if __name__ == "__main__":
    sys.exit(main())
