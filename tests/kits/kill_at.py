"""Run ``standoff ARGS...`` in this process and SIGKILL it at the Nth call of one place of a run's
write step: ``python -m kits.kill_at PLACE N ARGS...`` (the crash test of the run folder's index,
tests/tournaments/test_run_index_crash.py). Nothing here is in the program: the places are wrapped
from outside, as a kill -9 would find them.

Places:

* ``results``: results.jsonl appended and fsync'd, nothing else of the step done;
* ``torn``: half of a batch of results lines written (a line cut by the kill);
* ``elo``: results and their elo.jsonl lines appended, the index's transaction not committed;
* ``rows``: inside the index's transaction, every row and sum written, before ``COMMIT`` (a
  run's step, or the catch-up at an open of an index a kill left behind);
* ``rewrite``: halfway through rewriting elo.jsonl (an Elo K changed);
* ``ratings``: ratings.json just replaced;
* ``round``: in a ladder's summary between rounds.
"""

from __future__ import annotations

import os
import signal
import sys


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def install(place: str, nth: int) -> None:
    from standoff.server.ledger import LedgerWriter
    from standoff.tournaments import elo_file, report, run_index

    calls = 0

    def due() -> bool:
        nonlocal calls
        calls += 1
        return calls == nth

    def after(owner, name):
        original = getattr(owner, name)

        def wrapper(*args, **kwargs):
            value = original(*args, **kwargs)
            if due():
                _die()
            return value
        setattr(owner, name, wrapper)

    if place == "results":
        after(LedgerWriter, "append")
    elif place == "torn":
        original = LedgerWriter.append

        def torn(self, text):
            if due():
                cut = max(1, len(text) // 2)
                while text[cut - 1] in "}\n":  # never a whole line: a torn one
                    cut -= 1
                self._file.write(text[:cut])
                self._file.flush()
                os.fsync(self._file.fileno())
                _die()
            return original(self, text)
        LedgerWriter.append = torn
    elif place == "elo":
        after(elo_file.EloFile, "append")
    elif place == "rows":
        after(run_index.RunIndex, "_store")
    elif place == "rewrite":
        original_rewrite = elo_file.EloFile.rewrite

        def rewrite(self, chunks):
            def some():
                for number, chunk in enumerate(chunks):
                    if number == 5 and due():
                        _die()
                    yield chunk
            return original_rewrite(self, some())
        elo_file.EloFile.rewrite = rewrite
    elif place == "ratings":
        after(report, "_atomic_write")
    elif place == "round":
        after(run_index, "ratings_from_index")  # the ladder's summary imports it when it runs
    else:
        raise SystemExit(f"unknown place {place!r}")


def main() -> int:
    place, nth, *args = sys.argv[1:]
    install(place, int(nth))
    from standoff.tournaments.cli import main as standoff

    return standoff(args)


if __name__ == "__main__":
    sys.exit(main())
