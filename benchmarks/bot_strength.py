"""Head-to-head strength of built-in bots at Schotten Totten: W/D/L, score and Elo ± 95%.

    python benchmarks/bot_strength.py [N] --pair greedy,random --pair probability,greedy
        [--ruleset battle_line] [--option k=v ...] [--seed S] [--jobs J]

A bot is named as in ``standoff bots``, optionally with constructor arguments:
``ismcts:iterations=200`` or ``ismcts:seconds=1.0``. For every pairing ``A,B`` it plays ``N``
games through :func:`standoff.server.local.play_match` (bots get views decoded from wire bytes,
chance drawn from the match seed). Games come in pairs on the same match seed (``seed + i // 2``:
the same deal and draws) with the seats swapped, A being ``p1`` in even games. It prints A's wins,
draws and losses, A's score (a draw counts half), the trinomial Elo difference with its 95% margin
(:func:`standoff.tournaments.ratings.trinomial_elo`), the wall time, each bot's mean think time
per decision and each bot's fallbacks after an internal error (``Bot.count_fallback``: 0 unless a
bot hid an error of its own behind a simpler answer; each is also logged as a warning).
``--jobs`` plays games in that many worker processes (results do not depend on it).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from standoff.bots import BUILTIN_BOTS
from standoff.server.cli import UsageError, parse_options
from standoff.server.games import get_game
from standoff.server.local import play_match
from standoff.server.logs import configure_logging
from standoff.tournaments.ratings import trinomial_elo


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``name`` or ``name:key=value,key=value`` (values: int, float or string)."""
    name, _, rest = spec.partition(":")
    if name not in BUILTIN_BOTS:
        raise SystemExit(f"unknown bot {name!r} (known: {', '.join(BUILTIN_BOTS)})")
    kwargs: dict[str, Any] = {}
    for item in filter(None, rest.split(",")):
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"bot argument {item!r}: expected key=value")
        for kind in (int, float):
            try:
                kwargs[key] = kind(value)
                break
            except ValueError:
                continue
        else:
            kwargs[key] = value
    return name, kwargs


def make_bot(spec: str, seed: int):
    name, kwargs = parse_bot(spec)
    return BUILTIN_BOTS[name](seed, **kwargs)


def play_one(job: tuple) -> tuple:
    """One game: ``(index, winner, role of A, termination, think seconds, decisions, search,
    fallbacks)``; ``search[k] = (searched decisions, iterations, seconds)`` for bots that search,
    ``fallbacks[k]`` the fallbacks bot ``k`` took after an internal error."""
    index, a, b, ruleset, options, base_seed = job
    game = get_game("schotten-totten")
    rules = game.rules(ruleset, options)
    seed = base_seed + index // 2
    a_role, b_role = ("p1", "p2") if index % 2 == 0 else ("p2", "p1")
    bots = {a_role: make_bot(a, seed), b_role: make_bot(b, seed + 1)}
    result = play_match(game, rules, bots, seed)
    think: dict[str, float] = {a_role: 0.0, b_role: 0.0}
    count: dict[str, int] = {a_role: 0, b_role: 0}
    for move in result.record.moves:
        if "think_ms" in move:
            think[move["role"]] += move["think_ms"] / 1000.0
            count[move["role"]] += 1
    names = {a_role: "a", b_role: "b"}
    search = {
        names[r]: (bot.searches, bot.total_iterations, bot.search_seconds)
        for r, bot in bots.items()
        if hasattr(bot, "searches")
    }
    return (
        index,
        result.outcome.winner,
        a_role,
        result.outcome.termination,
        {names[r]: t for r, t in think.items()},
        {names[r]: c for r, c in count.items()},
        search,
        {names[r]: getattr(bot, "fallbacks", 0) for r, bot in bots.items()},
    )


def run_pairing(a: str, b: str, games: int, ruleset: str, options: dict, seed: int, jobs: int) -> dict:
    work = [(i, a, b, ruleset, options, seed) for i in range(games)]
    start = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(play_one, work, chunksize=1))
    else:
        results = [play_one(job) for job in work]
    elapsed = time.perf_counter() - start
    wdl: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    think = {"a": 0.0, "b": 0.0}
    decisions = {"a": 0, "b": 0}
    search: dict[str, list[float]] = {}
    fallbacks = {"a": 0, "b": 0}
    for _, winner, a_role, termination, t, c, s, f in results:
        for k in fallbacks:
            fallbacks[k] += f[k]
        for k, values in s.items():
            total = search.setdefault(k, [0, 0, 0.0])
            for i, v in enumerate(values):
                total[i] += v
        endings[termination] += 1
        wdl["draw" if winner is None else "win" if winner == a_role else "loss"] += 1
        for k in think:
            think[k] += t[k]
            decisions[k] += c[k]
    return {"a": a, "b": b, "wdl": wdl, "endings": endings, "elapsed": elapsed,
            "think": think, "decisions": decisions, "games": games, "search": search,
            "fallbacks": fallbacks}


def report(r: dict) -> str:
    w, d, l = r["wdl"]["win"], r["wdl"]["draw"], r["wdl"]["loss"]
    n = max(r["games"], 1)
    score = (w + 0.5 * d) / n
    est = trinomial_elo(w, d, l)
    elo = f"{est.elo:+.0f} ± {est.margin:.0f}" if est.margin != float("inf") else f"{est.elo:+.0f} (margin ∞)"
    per = {k: 1000 * r["think"][k] / max(r["decisions"][k], 1) for k in ("a", "b")}
    lines = [
        f"{r['a']} vs {r['b']}: {r['games']} games",
        f"  W/D/L {w}/{d}/{l}   score {100 * score:.1f}%   Elo {elo}",
        "  endings: " + ", ".join(f"{k} {v}" for k, v in r["endings"].most_common()),
        f"  wall {r['elapsed']:.0f} s; think per decision: {r['a']} {per['a']:.1f} ms, {r['b']} {per['b']:.1f} ms",
        f"  fallbacks after an internal error: {r['a']} {r['fallbacks']['a']}, {r['b']} {r['fallbacks']['b']}",
    ]
    for k, (searches, iterations, seconds) in sorted(r["search"].items()):
        if searches:
            lines.append(
                f"  {r[k]}: {searches} searched decisions, {iterations / searches:.0f} iterations "
                f"and {1000 * seconds / searches:.0f} ms per searched decision"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--pair", action="append", default=[], metavar="A,B", help="a pairing (repeatable)")
    parser.add_argument("--ruleset", default="battle_line")
    parser.add_argument("--option", action="append", default=[], metavar="K=V")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    args = parser.parse_args(argv)
    # Fallback warnings (and any other) on stderr, apart from the table; worker processes inherit it.
    configure_logging(json=False, level="warning", stream=sys.stderr)
    try:
        options = parse_options(args.option)
    except UsageError as exc:
        parser.error(str(exc))
    pairs = args.pair or ["greedy,random"]
    label = args.ruleset + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    print(f"# {label}; seed {args.seed}; {args.jobs} job(s); {os.cpu_count()} CPUs; "
          f"Python {platform.python_version()} on {platform.machine()}")
    for pair in pairs:
        a, sep, b = pair.partition(",")
        if not sep:
            parser.error(f"--pair {pair!r}: expected A,B")
        parse_bot(a), parse_bot(b)
        print(report(run_pairing(a, b, args.games, args.ruleset, options, args.seed, args.jobs)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
