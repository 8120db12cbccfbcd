"""Scale benchmark (issue 43): ``standoff serve`` and ``standoff ladder`` on a long generated history.

    python benchmarks/bench_storage.py --data-root DIR [--matches 1000000] [--small-matches 1000]
        [--max-seconds 600] [--rounds 3] [--only server|ladder] [--against REV]

The history is ``DATA_ROOT/<matches>/`` (and ``DATA_ROOT/<small-matches>/`` for the ladder's
small side), written by benchmarks/gen_history.py; a missing one is generated first, once,
outside the rounds (about 15 GB and several minutes per million matches). Only public entry
points are used (benchmarks/storage_probes.py), so that any tree can be measured: today's main
and the tree with the index alike. Per round:

* **serve start-up**: from ``standoff serve --data-dir DATA_ROOT/N/server`` to the first answered
  ``ListMatches``; first with no ``index.sqlite`` (it is removed: derived, a tree before the index
  never writes one), then again with whatever the first start left; and on an empty data folder
  (what is not the history's: the interpreter, imports, gRPC);
* **ListMatches**: ``--calls`` calls for a page of 100 with a filter (a bot, a game, both in turn);
  p50 and p99. A tree whose ``ListMatchesRequest`` has no ``bot``/``game`` fields (checked in its
  descriptor) is asked with the status filter (finished) instead: the figure *filter kind*
  says which (1 bot/game, 0 status), and --against flags the trees as doing different work.
  With paging (``page_token``), the next 10 pages of one filter are walked too (*next page*);
  *wrong rows* counts rows a filter should have excluded (0);
* **GetStandings**: ``--standings-calls`` calls per game, p50 per game and p99 of both;
* **server RSS**: VmRSS after the calls, and of a server on an empty data folder asked the same;
* **ladder**: ``standoff ladder DATA_ROOT/N/ladder.toml --rounds 1`` (a small round of three cheap
  built-in bots, six matches) on the run folder of N results and on one of ``--small-matches``:
  first with no index in the run folder, then again, then ``--rounds K`` (``--ladder-rounds``,
  default 4). The per-round part is the median time between the K rounds' summary lines
  (``after N rounds ...``, printed as each round ends), read as the ladder prints them: a whole
  round each (its matches, their lines, the ratings), without start-up and resume; for a tree
  that prints none, ``--rounds K`` minus ``--rounds 1`` over K - 1. Each run adds its rounds to
  the run folder (six matches a round: a bench round adds about 40 to N).

``--max-seconds S``: a measurement that takes longer is stopped (the process killed) and shown
as "> S s"; the figures that depend on it (a ratio, a difference) are left out. A first start or
resume stopped so is followed by the next one anyway (it may have indexed part of the history);
a ladder's second ``--rounds 1`` stopped so is not followed by ``--rounds K``. Today's main needs
minutes per 10^5 matches to start: measure it at 10^4 and 10^5 too, for the trend. The machine
is shared and noisy: medians of --rounds; the page cache holds part of the history after the
first read (a 10^6 history does not fit in it), so a first round reads more from the disk.

"Before" figures: today's main (da52df5; measured on branch wip/43-bench, whose serve, ladder,
archive and verify code is da52df5's), 2 cores shared with other test runs (load 2-5), cap 600 s;
medians of 3 rounds at 10^4, 2 at 10^5, 1 at 10^6 (the ladder's rows: ``--only ladder`` runs);
GetStandings in ms; ListMatches with the status filter (that tree has no bot/game filters:
*filter kind* 0). Goals are issue 43's.

==================================  ==============  ==============  ===========  ==============
figure                              10^4            10^5            10^6         goal
==================================  ==============  ==============  ===========  ==============
serve start, no index / again       23.2 / 23.6 s   311 / 240 s     > 600 s      <= 2 s
serve start, empty folder           0.57 s          0.85 s          -
ListMatches p50 / p99               6.7 / 12.7 ms   82 / 122 ms     not started  <= 5 / 50 ms
GetStandings p50 (ST, TS) / p99     25, 25 / 44 ms  262, 259 / 343  not started  <= 20 ms
server RSS over empty (56 MB)       +22 MB          +206 MB         not started  <= +50 MB
ladder --rounds 1, N (10^3)         18.5 s (3.6 s)  241 s (4.6 s)   > 600 s (4.8)
ladder --rounds 1, N / 10^3         5.1x            55x             > 125x       <= 2x
ladder per round, N (10^3)          0.41 s (0.36)   1.80 s (0.63)
==================================  ==============  ==============  ===========  ==============

A start reads every record twice (the ledger's check of every digest, then the summaries), about
2.4 ms a match here: the 10^6 start was stopped at the cap twice, and would take 40-50 minutes by
that rate; its memory grows by about 2 KB a match. A ladder's resume checks every record's digest
and the schedule of every round done (about 2.3 ms a result: 40 minutes at 10^6, stopped at the
cap twice); each round then recomputes the ratings from every result (1.8 s a round at 10^5).
Generating the 10^6 history (both folders, benchmarks/gen_history.py): 7 minutes, 32 GB.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import against  # noqa: E402
import storage_probes as probes  # noqa: E402

ST, TS = "schotten-totten", "twilight-struggle"
#: Filters of the ListMatches calls, in turn (bots and games of gen_history's server folder).
FILTERS = ({"bot": "remote:alice"}, {"game": TS}, {"bot": "random"}, {"bot": "ts-search", "game": TS},
           {"game": ST}, {"bot": "greedy", "game": ST})
PAGE = 100
NEXT_PAGES = 10


@dataclass(frozen=True)
class Capped(against.Metric):
    """A figure that may have hit the cap (``cap``, in the figure's unit: ``per_s`` of them a
    second): shown as "> S s" then."""

    cap: float = math.inf
    per_s: float = 1.0

    def show(self, value: float) -> str:
        if value >= self.cap:
            return f"> {self.cap / self.per_s:g} s"
        return super().show(value)


def capped(name: str, fmt: str, unit: str, cap_s: float, per_s: float = 1.0) -> Capped:
    return Capped(name, fmt, "lower", unit, cap_s * per_s, per_s)


def metrics(args: argparse.Namespace) -> list[against.Metric]:
    cap, n, small = args.max_seconds, f"{args.matches:,}", f"{args.small_matches:,}"
    ms, k = 1000.0, args.ladder_rounds
    server = [
        capped("serve start, empty folder", "{:,.2f}", "s", cap),
        capped("serve start, no index", "{:,.2f}", "s", cap),
        capped("serve start, again", "{:,.2f}", "s", cap),
        capped("ListMatches p50", "{:,.1f}", "ms", cap, ms),
        capped("ListMatches p99", "{:,.1f}", "ms", cap, ms),
        capped("ListMatches next page p50", "{:,.1f}", "ms", cap, ms),
        capped(f"GetStandings {ST} p50", "{:,.1f}", "ms", cap, ms),
        capped(f"GetStandings {TS} p50", "{:,.1f}", "ms", cap, ms),
        capped("GetStandings p99", "{:,.1f}", "ms", cap, ms),
        against.Metric("server RSS", "{:,.1f}", "lower", "MB"),
        against.Metric("server RSS, empty folder", "{:,.1f}", "lower", "MB"),
        against.Metric("server RSS over empty", "{:,.1f}", "lower", "MB"),
        against.Metric("ListMatches filter kind", "{:.0f}", "same"),
        against.Metric("ListMatches calls done", "{:.0f}", "same"),
        against.Metric("ListMatches wrong rows", "{:.0f}", "same"),
    ]
    ladder = [
        capped(f"ladder --rounds 1 on {small}, no index", "{:,.2f}", "s", cap),
        capped(f"ladder --rounds 1 on {small}", "{:,.2f}", "s", cap),
        capped(f"ladder --rounds {k} on {small}", "{:,.2f}", "s", cap),
        against.Metric(f"ladder per round on {small}", "{:,.2f}", "lower", "s"),
        capped(f"ladder --rounds 1 on {n}, no index", "{:,.2f}", "s", cap),
        capped(f"ladder --rounds 1 on {n}", "{:,.2f}", "s", cap),
        capped(f"ladder --rounds {k} on {n}", "{:,.2f}", "s", cap),
        against.Metric(f"ladder per round on {n}", "{:,.2f}", "lower", "s"),
        against.Metric(f"ladder --rounds 1, {n} / {small}", "{:.2f}", "lower", "x"),
    ]
    return (server if args.only != "ladder" else []) + (ladder if args.only != "server" else [])


# -- one round ---------------------------------------------------------------------------------------


def run_round(args: argparse.Namespace) -> dict[str, float]:
    result: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="bench-storage-") as tmp:
        tmp_path = Path(tmp)
        if args.only != "ladder":
            result.update(measure_server(args, tmp_path))
        if args.only != "server":
            result.update(measure_ladder(args, tmp_path))
    return result


def measure_server(args: argparse.Namespace, tmp: Path) -> dict[str, float]:
    cap = args.max_seconds
    tokens, token = probes.make_token(tmp)
    log = tmp / "serve.log"
    data = history(args, args.matches) / "server"
    out: dict[str, float] = {}

    empty = probes.Server(tmp / "empty", tokens, token, log)
    try:
        out["serve start, empty folder"] = empty.start(cap)
        calls(empty, args, cap)
        out["server RSS, empty folder"] = empty.rss_mb()
    finally:
        empty.stop()

    if not args.keep_index:
        probes.remove_index(data)
        server = probes.Server(data, tokens, token, log)
        try:  # stopped at the cap, it may have indexed part of the history: started again anyway
            out["serve start, no index"] = server.start(cap)
        except probes.Capped:
            out["serve start, no index"] = cap
        finally:
            server.stop()
    server = probes.Server(data, tokens, token, log)
    try:
        try:
            out["serve start, again"] = server.start(cap)
        except probes.Capped:
            out["serve start, again"] = cap
            return out
        out.update(calls(server, args, cap))
        out["server RSS"] = server.rss_mb()
        out["server RSS over empty"] = out["server RSS"] - out["server RSS, empty folder"]
    finally:
        server.stop()
    return out


def calls(server: probes.Server, args: argparse.Namespace, cap: float) -> dict[str, float]:
    """The ListMatches and GetStandings figures of a started server (ms)."""
    out: dict[str, float] = {}
    new = probes.new_fields()
    requests = [probes.list_request(PAGE, **FILTERS[i % len(FILTERS)]) if new
                else probes.list_request(PAGE, status=probes.pb.MATCH_STATUS_FINISHED) for i in range(args.calls)]
    listed = server.series(requests, "ListMatches", cap, probes.wrong_rows)
    out.update(_latencies(listed, "ListMatches", cap))
    out["ListMatches filter kind"] = 1.0 if new else 0.0
    out["ListMatches calls done"] = len(listed.times)
    out["ListMatches wrong rows"] = listed.wrong
    if new and probes.paging() and not listed.capped:
        out["ListMatches next page p50"] = next_pages(server, cap)
    everything = []
    for game in (ST, TS):
        request = probes.pb.GetStandingsRequest(game=game)
        standings = server.series([request] * args.standings_calls, "GetStandings", cap)
        if not standings.times:
            out[f"GetStandings {game} p50"] = out["GetStandings p99"] = cap * 1000
            return out
        out[f"GetStandings {game} p50"] = standings.percentile(50)
        everything += standings.times
    out["GetStandings p99"] = probes.Series(everything).percentile(99)
    return out


def _latencies(series: probes.Series, name: str, cap: float) -> dict[str, float]:
    if not series.times:
        return {f"{name} p50": cap * 1000, f"{name} p99": cap * 1000}
    return {f"{name} p50": series.percentile(50), f"{name} p99": series.percentile(99)}


def next_pages(server: probes.Server, cap: float) -> float:
    """p50 (ms) of the pages after the first of one filter, following next_page_token."""
    request = probes.list_request(PAGE, **FILTERS[0])
    times = []
    for _ in range(NEXT_PAGES + 1):
        started = time.perf_counter()
        response = server.stub.ListMatches(request, metadata=server.metadata, timeout=cap)
        times.append((time.perf_counter() - started) * 1000)
        if not response.next_page_token:
            break
        request = probes.list_request(PAGE, page_token=response.next_page_token, **FILTERS[0])
    return statistics.median(times[1:] or times)


def measure_ladder(args: argparse.Namespace, tmp: Path) -> dict[str, float]:
    cap, out = args.max_seconds, {}
    n, small = f"{args.matches:,}", f"{args.small_matches:,}"
    for label, count in ((small, args.small_matches), (n, args.matches)):
        root = history(args, count)
        config, folder = root / "ladder.toml", root / "ladder"
        log = tmp / f"ladder-{count}.log"
        names = (f"ladder --rounds 1 on {label}, no index", f"ladder --rounds 1 on {label}",
                 f"ladder --rounds {args.ladder_rounds} on {label}")
        runs = tuple(zip(names, (1, 1, args.ladder_rounds), strict=True))
        if args.keep_index:
            runs = runs[1:]
        else:
            probes.remove_index(folder)
        # The first run may index the folder (and be stopped at the cap while at it): the next
        # one is run anyway. Past the cap again, --rounds K would be too.
        for name, rounds in runs:
            try:
                run = probes.ladder(config, rounds, cap, log)
                out[name] = run.seconds
            except probes.Capped:
                out[name] = cap
                if name == names[1]:
                    out[names[2]] = cap
                    break
        else:
            if out[names[2]] < cap:
                between = run.round_times()
                out[f"ladder per round on {label}"] = (
                    statistics.median(between) if between
                    else (out[names[2]] - out[names[1]]) / (args.ladder_rounds - 1))
    one_small, one_big = out[f"ladder --rounds 1 on {small}"], out[f"ladder --rounds 1 on {n}"]
    if one_big < cap and one_small < cap:
        out[f"ladder --rounds 1, {n} / {small}"] = one_big / one_small
    return out


# -- the histories ---------------------------------------------------------------------------------------


def history(args: argparse.Namespace, matches: int) -> Path:
    return Path(args.data_root) / str(matches)


def ensure_histories(args: argparse.Namespace) -> None:
    """Generate what is missing (this tree's benchmarks/gen_history.py), before any round."""
    import gen_history

    wanted = {args.matches: "server" if args.only == "server" else "both"}
    if args.only != "server":
        wanted.setdefault(args.small_matches, "ladder")
    for matches, kind in sorted(wanted.items()):
        root = history(args, matches)
        missing = [k for k in ("server", "ladder") if kind in (k, "both") and not _complete(root, k)]
        for part in missing:
            if (root / part).exists():
                raise SystemExit(f"{root / part} is incomplete (no ledger): remove it, or generate it again")
            print(f"generating {root} ({part}, {matches:,} matches): benchmarks/gen_history.py", flush=True)
            gen_history.main(["--matches", str(matches), "--kind", part, "--out", str(root)])


def _complete(root: Path, kind: str) -> bool:
    return (root / "server" / "matches.jsonl").is_file() if kind == "server" else (
        (root / "ladder.toml").is_file() and (root / "ladder" / "results.jsonl").is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=1_000_000, help="stored matches (default 10^6)")
    parser.add_argument("--small-matches", type=int, default=1_000, help="the ladder's small side (default 10^3)")
    parser.add_argument("--data-root", required=True, metavar="DIR",
                        help="where the histories are, DIR/N (outside the repository: ~30 GB for N = 10^6)")
    parser.add_argument("--max-seconds", type=float, default=600.0, metavar="S",
                        help="stop a measurement past S seconds and show it as '> S s' (default 600)")
    parser.add_argument("--calls", type=int, default=200, help="ListMatches calls (default 200)")
    parser.add_argument("--standings-calls", type=int, default=20, help="GetStandings calls per game (default 20)")
    parser.add_argument("--ladder-rounds", type=int, default=4, metavar="K",
                        help="rounds of the run that times the ladder's rounds (default 4)")
    parser.add_argument("--only", choices=("server", "ladder"), default=None, help="measure only one side")
    parser.add_argument("--keep-index", action="store_true",
                        help="leave the folders' index.sqlite as it is and skip the first (indexing) start: "
                             "for a history indexed once beforehand (`standoff reindex`), whose first start "
                             "takes longer than a round should")
    against.add_arguments(parser, rounds=3)
    args = parser.parse_args()
    if args.ladder_rounds < 2:
        parser.error("--ladder-rounds takes 2 or more")
    if not args.round_json:
        ensure_histories(args)
    title = (f"storage at scale: {args.matches:,} stored matches (ladder: {args.small_matches:,} vs "
             f"{args.matches:,} results), cap {args.max_seconds:g} s")
    return against.run(args, run_round, metrics(args), title=title)


if __name__ == "__main__":
    raise SystemExit(main())
