"""Head-to-head strength of built-in bots: W/D/L, score and Elo ± 95%, and with --against REV
the same games played by git revision REV's bots too.

    python benchmarks/bot_strength.py [N] --pair greedy,random --pair probability,greedy
        [--game schotten-totten] [--ruleset battle_line] [--option k=v ...] [--seed S] [--jobs J]
        [--against REV [--rounds R]]

A bot is named as in ``standoff bots`` (built-ins, installed plugins and the modules named in
``$STANDOFF_PLUGINS``), optionally with constructor arguments:
``ismcts:iterations=200`` or ``ismcts:seconds=1.0``. For every pairing ``A,B`` it plays ``N``
games through :func:`standoff.server.local.play_match` (bots get views decoded from wire bytes,
chance drawn from the match seed). Games come in pairs on the same match seed (``seed + i // 2``:
the same deal and draws) with the seats swapped, A in the first role in even games. It prints A's
wins, draws and losses, A's score (a draw counts half), the trinomial Elo difference with its 95%
margin (:func:`standoff.tournaments.ratings.trinomial_elo`), the score's 95% interval (that Elo
interval turned back into a score), the wall time, each bot's mean think time per decision and
each bot's fallbacks after an internal error (``Bot.count_fallback``: 0 unless a bot hid an error
of its own behind a simpler answer; each is also logged as a warning). ``--jobs`` plays games in
that many worker processes (results do not depend on it). ``--game twilight-struggle`` pits the
Twilight Struggle bots (``ts-search,ts-heuristic``; default ruleset deluxe).

``--against REV``: the same pairings on the same seeds are also played with the package of git
revision REV (a temporary worktree, imported through benchmarks/against.py's shim, so each side's
bots, engine and SDK come from its own tree). The games are split into ``--rounds`` slices of whole
pairs, each slice played in a fresh interpreter, the two trees alternating (this, REV, REV, this...)
so that both meet the same machine load. It prints both trees' results and the differences
(score in points, Elo), and per-decision think times with their ratio: what a change to a bot
(or to the engine under it) does to its strength and its speed, measured in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from typing import Any

import against
from standoff.server.cli import UsageError, parse_options
from standoff.server.games import get_game
from standoff.server.local import play_match
from standoff.server.logs import configure_logging
from standoff.server.plugins import UnknownBot, load_registry
from standoff.tournaments.ratings import pentanomial, pentanomial_elo, trinomial_elo


#: The built-ins, installed plugins and those named in ``$STANDOFF_PLUGINS``: a frozen copy of a
#: bot, loaded as a plugin, is measured against the built-in on the same deals (the match seeds
#: here never depend on the bots' names).
REGISTRY = load_registry()
BOTS = REGISTRY.bots


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """``name`` or ``name:key=value,key=value`` (values: int, float or string)."""
    name, _, rest = spec.partition(":")
    try:
        REGISTRY.bot(name)
    except UnknownBot as exc:  # names the known bots, and any plugin that failed to load
        raise SystemExit(str(exc)) from None
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


def split_pair(pair: str) -> tuple[str, str] | None:
    """``A,B`` where either may hold commas of its own arguments (``ismcts:iterations=9,depth=1,greedy``):
    split at the first comma followed by a bot's name."""
    at = pair.find(",")
    while at >= 0:
        right = pair[at + 1:]
        if right.partition(":")[0] in BOTS:
            return pair[:at], right
        at = pair.find(",", at + 1)
    return None


def make_bot(spec: str, seed: int):
    name, kwargs = parse_bot(spec)
    return BOTS[name].factory(seed, **kwargs)


def play_one(job: tuple) -> tuple:
    """One game: ``(index, winner, role of A, termination, think seconds, decisions, search,
    fallbacks)``; ``search[k] = (searched decisions, iterations, seconds)`` for bots that search,
    ``fallbacks[k]`` the fallbacks bot ``k`` took after an internal error."""
    index, a, b, ruleset, options, base_seed, game_name = job
    game = get_game(game_name)
    rules = game.rules(ruleset, options)
    seed = base_seed + index // 2
    first, second = rules.roles[:2]
    a_role, b_role = (first, second) if index % 2 == 0 else (second, first)
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
        if hasattr(bot, "searches") and hasattr(bot, "total_iterations")
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


def play_games(a: str, b: str, indices: range, ruleset: str | None, options: dict, seed: int, jobs: int,
               game: str, progress: bool = False) -> tuple[list[tuple], float]:
    """The games ``indices`` of pairing ``A,B``: their results (:func:`play_one`) and wall time."""
    work = [(i, a, b, ruleset, options, seed, game) for i in indices]
    start = time.perf_counter()
    results: list[tuple] = []
    with ProcessPoolExecutor(jobs) if jobs > 1 else nullcontext() as pool:
        for result in pool.map(play_one, work, chunksize=1) if pool else map(play_one, work):
            results.append(result)
            if progress:
                print(progress_line(a, results), file=sys.stderr, flush=True)
    return results, time.perf_counter() - start


def progress_line(a: str, results: list) -> str:
    """After each game (on stderr, so a long run can be watched): the game and A's running score."""
    index, winner, a_role, termination = results[-1][:4]
    w = sum(1 for r in results if r[1] is not None and r[1] == r[2])
    d = sum(1 for r in results if r[1] is None)
    outcome = "draw" if winner is None else "win" if winner == a_role else "loss"
    return (f"game {index}: {a} as {a_role} {outcome} ({termination}); {a} so far "
            f"{w}/{d}/{len(results) - w - d}, {100 * (w + 0.5 * d) / len(results):.1f}%")


def run_pairing(a: str, b: str, games: int, ruleset: str | None, options: dict, seed: int, jobs: int,
                game: str = "schotten-totten", progress: bool = False) -> dict:
    results, elapsed = play_games(a, b, range(games), ruleset, options, seed, jobs, game, progress)
    return summarize(a, b, results, elapsed)


def summarize(a: str, b: str, results: list, elapsed: float) -> dict:
    """Totals of a pairing's games (:func:`play_one` results, as tuples or as their JSON lists)."""
    wdl: Counter[str] = Counter()
    endings: Counter[str] = Counter()
    think = {"a": 0.0, "b": 0.0}
    decisions = {"a": 0, "b": 0}
    search: dict[str, list[float]] = {}
    fallbacks = {"a": 0, "b": 0}
    pair_totals: dict[int, list[float]] = {}
    for index, winner, a_role, termination, t, c, s, f in results:
        pair_totals.setdefault(index // 2, []).append(0.5 if winner is None else float(winner == a_role))
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
    pairs = [sum(games) for games in pair_totals.values() if len(games) == 2]
    return {"a": a, "b": b, "wdl": wdl, "endings": endings, "elapsed": elapsed,
            "think": think, "decisions": decisions, "games": len(results), "search": search,
            "fallbacks": fallbacks, "pairs": pentanomial(pairs) if pairs else None}


def score_interval(est) -> tuple[float, float]:
    """The 95% interval of the score: the Elo interval turned back into scores."""
    def score(elo: float) -> float:
        return 1.0 / (1.0 + 10 ** (-elo / 400))

    return score(est.elo - est.margin), score(est.elo + est.margin)


def report(r: dict) -> str:
    w, d, l = r["wdl"]["win"], r["wdl"]["draw"], r["wdl"]["loss"]
    n = max(r["games"], 1)
    score = (w + 0.5 * d) / n
    est = trinomial_elo(w, d, l)
    elo = f"{est.elo:+.0f} ± {est.margin:.0f}" if est.margin != float("inf") else f"{est.elo:+.0f} (margin ∞)"
    per = {k: 1000 * r["think"][k] / max(r["decisions"][k], 1) for k in ("a", "b")}
    if est.margin == float("inf"):
        interval = ""  # no finite Elo estimate (all won or all lost): no interval from it
    else:
        low, high = score_interval(est)
        interval = f" (95%: {100 * low:.1f}-{100 * high:.1f}%)"
    lines = [
        f"{r['a']} vs {r['b']}: {r['games']} games",
        f"  W/D/L {w}/{d}/{l}   score {100 * score:.1f}%{interval}   Elo {elo}",
        "  endings: " + ", ".join(f"{k} {v}" for k, v in r["endings"].most_common()),
        *pair_lines(r),
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


def pair_lines(r: dict) -> list[str]:
    """The pentanomial view (seed pairs, seats swapped: the deal's luck cancels within a pair)."""
    counts = r.get("pairs")
    if not counts:
        return []
    est = pentanomial_elo(counts)
    line = f"  pairs LL/LD/WL+DD/WD/WW {'/'.join(map(str, counts))}"
    if est.margin == float("inf"):
        return [line + f"   Elo (pentanomial) {est.elo:+.0f} (margin ∞)"]
    low, high = score_interval(est)
    return [line + f"   Elo (pentanomial) {est.elo:+.0f} ± {est.margin:.0f}   score 95%: {100 * low:.1f}-{100 * high:.1f}%"]


def think_per_decision(r: dict, k: str) -> float:
    return 1000 * r["think"][k] / max(r["decisions"][k], 1)


def compare(this: dict, rev: dict, label: str) -> str:
    """The differences between the two trees' results of one pairing."""
    def score(r: dict) -> float:
        return (r["wdl"]["win"] + 0.5 * r["wdl"]["draw"]) / max(r["games"], 1)

    elo_this = trinomial_elo(this["wdl"]["win"], this["wdl"]["draw"], this["wdl"]["loss"]).elo
    elo_rev = trinomial_elo(rev["wdl"]["win"], rev["wdl"]["draw"], rev["wdl"]["loss"]).elo
    finite = all(abs(e) != float("inf") for e in (elo_this, elo_rev))
    elo = f"Elo {elo_this - elo_rev:+.0f}" if finite else "Elo n/a (an estimate is infinite)"
    lines = [f"  this tree - {label}: score {100 * (score(this) - score(rev)):+.1f} points, {elo}"]
    for k in ("a", "b"):
        t, r = think_per_decision(this, k), think_per_decision(rev, k)
        ratio = f"{t / r:.2f}x" if r else "n/a"
        lines.append(f"  think per decision, {this[k]}: {t:.1f} ms vs {r:.1f} ms ({ratio} this / REV)")
    return "\n".join(lines)


def slices(games: int, rounds: int) -> list[range]:
    """``games`` cut into at most ``rounds`` consecutive slices of whole pairs (seed-sharing games)."""
    pairs = (games + 1) // 2
    rounds = max(1, min(rounds, pairs))
    cuts = [2 * (pairs * r // rounds) for r in range(rounds + 1)]
    return [range(cuts[r], min(cuts[r + 1], games)) for r in range(rounds) if cuts[r] < games]


def run_against(args: argparse.Namespace, pairs: list[tuple[str, str]]) -> None:
    """Every pairing on this tree and on ``args.against``, slice by slice, alternating."""
    here = against.this_tree()
    full = against._git(here, "rev-parse", "--verify", f"{args.against}^{{commit}}").strip()
    argv = against._argv_without_against(sys.argv[1:])
    sides = {"this": [[] for _ in pairs], "rev": [[] for _ in pairs]}
    elapsed = {"this": [0.0] * len(pairs), "rev": [0.0] * len(pairs)}
    with tempfile.TemporaryDirectory(prefix="standoff-strength-") as tmp:
        worktree = Path(tmp) / "tree"
        against._git(here, "worktree", "add", "--detach", "--quiet", str(worktree), full)
        try:
            shims = {"this": against._shim(here, Path(tmp) / "shim-this"),
                     "rev": against._shim(worktree, Path(tmp) / "shim-rev")}
            trees = {"this": here.resolve(), "rev": worktree.resolve()}
            print(f"# REV {args.against} = {full[:12]} (worktree {worktree})", flush=True)
            for r, games in enumerate(slices(args.games, args.rounds)):
                order = ("this", "rev") if r % 4 in (0, 3) else ("rev", "this")
                for side in order:
                    result = against._one_round(shims[side], argv + ["--games-slice", f"{games.start}:{games.stop}"])
                    if Path(result["_tree"]) != trees[side]:
                        raise SystemExit(f"a round meant for {trees[side]} imported another tree")
                    for p, (played, seconds) in enumerate(result["pairings"]):
                        sides[side][p].extend(played)
                        elapsed[side][p] += seconds
                print(f"# games {games.start}-{games.stop - 1} played ({' then '.join(order)})", flush=True)
        finally:
            subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force", str(worktree)],
                           capture_output=True)
    for p, (a, b) in enumerate(pairs):
        this = summarize(a, b, sides["this"][p], elapsed["this"][p])
        rev = summarize(a, b, sides["rev"][p], elapsed["rev"][p])
        print("this tree: " + report(this))
        print(f"REV {args.against}: " + report(rev))
        print(compare(this, rev, f"REV {args.against}"), flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--pair", action="append", default=[], metavar="A,B", help="a pairing (repeatable)")
    parser.add_argument("--game", default="schotten-totten", choices=("schotten-totten", "twilight-struggle"))
    parser.add_argument("--ruleset", default=None, help="the game's default (battle_line, deluxe)")
    parser.add_argument("--option", action="append", default=[], metavar="K=V")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--against", metavar="REV", default=None,
                        help="also play every pairing with git revision REV's package, interleaved")
    parser.add_argument("--rounds", type=int, default=4,
                        help="with --against: slices of games per tree, alternating (4)")
    parser.add_argument("--progress", action="store_true",
                        help="a line per finished game on stderr (the running W/D/L)")
    parser.add_argument("--round-json", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--games-slice", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("games must be at least 1")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    # Fallback warnings (and any other) on stderr, apart from the table; worker processes inherit it.
    configure_logging(json=False, level="warning", stream=sys.stderr)
    try:
        options = parse_options(args.option)
    except UsageError as exc:
        parser.error(str(exc))
    game = get_game(args.game)
    try:
        rules = game.rules(args.ruleset, options)
    except Exception as exc:  # the engine's own message for an unknown ruleset or option
        parser.error(f"{args.game}: {exc}")
    pairs = []
    for pair in args.pair or (["greedy,random"] if args.game == "schotten-totten" else ["ts-heuristic,random"]):
        split = split_pair(pair)
        if split is None:
            parser.error(f"--pair {pair!r}: expected A,B (B a bot's name: {', '.join(BOTS)})")
        a, b = split
        for spec in (a, b):
            bot_games = BOTS[parse_bot(spec)[0]].games
            if bot_games and args.game not in bot_games:
                parser.error(f"bot {spec!r} does not play {args.game}")
        pairs.append((a, b))
    if args.round_json:  # one slice of every pairing for --against's parent (one tree)
        start, _, stop = (args.games_slice or f"0:{args.games}").partition(":")
        indices = range(int(start), int(stop))
        out = [play_games(a, b, indices, rules.ruleset, options, args.seed, args.jobs, args.game, args.progress)
               for a, b in pairs]
        print(against.RESULT_PREFIX + json.dumps({"pairings": out, "_tree": str(against.this_tree())}), flush=True)
        return 0
    label = f"{args.game} {rules.ruleset}" + "".join(f" {k}={v}" for k, v in sorted(options.items()))
    print(f"# {label}; seed {args.seed}; {args.jobs} job(s); {os.cpu_count()} CPUs; "
          f"Python {platform.python_version()} on {platform.machine()}", flush=True)
    if args.against is not None:
        run_against(args, pairs)
        return 0
    for a, b in pairs:
        print(report(run_pairing(a, b, args.games, rules.ruleset, options, args.seed, args.jobs, args.game,
                                 args.progress)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
