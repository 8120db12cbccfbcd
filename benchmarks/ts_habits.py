"""Habit counters for Twilight Struggle bots (issue 25): mirror games of each bot, counted per bot.

    python benchmarks/ts_habits.py [N] [--bot NAME ...] [--seed S] [--jobs J] [--option k=v ...]

Each ``--bot`` (default: ``ts-heuristic`` and the frozen ``ts-heuristic-v1``; also ``ts-search``)
plays N full games against itself on match seeds ``seed .. seed+N-1`` (the same deals and dice for
every bot: paired). Games are played by :func:`standoff.server.local.play_match`; the counters
watch the engine state before every decision (its ``until`` hook, which never stops the match)
and the option each bot chose. What is counted, summed over both sides and per game:

1. **space unused** — side-turns in which the side fired an opponent's event with its own
   Operations (the event playable, so it really fired) when that play could have gone to the
   space race (``use:space`` offered), and the side made no space attempt later that turn;
   ``opp events`` is every opponent event fired by a side's own play (for scale).
2. **self-trap** — the victim playing the trap on itself: the US playing Quagmire, the USSR
   playing Bear Trap, for Operations (or the headline), the event playable.
3. **surplus** — countries ending the game with influence at least ``stability + 3`` above what
   control needs (``own >= other + stability + 3``).
4. **wasted coup** — coups (action-round coups and free ones) in a non-battleground country
   when the side's military operations already met DEFCON; ``bg coup to 2`` (shown apart) are
   battleground coups at DEFCON 3 by a side that had not met its military operations.
5. **own goal** — the US using a war card (not for space) while its own Flower Power is in play;
   the US playing "An Evil Empire" for Operations while Flower Power is in play; the USSR giving
   Nixon Plays the China Card's event to the US on turn 10 while holding The China Card.
   **held scoring** (shown apart) — a region's scoring card held from the side's first action
   round of the turn and played at its last (the turn's 6th / 7th) without the side's net VP
   from that region having improved meanwhile.

``--frozen`` loads ``ts-heuristic-v1``, the copy of the heuristic before issue 25's fixes, from
``tests/plugins/ts_heuristic_v1`` (not a built-in bot).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from standoff.server.cli import UsageError, parse_options
from standoff.server.games import get_game
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.board import score_region
from standoff.server.games.twilight_struggle.common import card_side
from standoff.server.games.twilight_struggle.events.registry import event_playable
from standoff.server.games.twilight_struggle.state import US, USSR
from standoff.server.local import play_match

FROZEN = Path(__file__).resolve().parent.parent / "tests" / "plugins" / "ts_heuristic_v1"
HABITS = ("space unused", "opp events", "self-trap", "surplus", "wasted coup", "bg coup to 2", "own goal",
          "held scoring")

QUAGMIRE = CD.CARD_BY_ID["quagmire"].number
BEAR_TRAP = CD.CARD_BY_ID["bear_trap"].number
EVIL_EMPIRE = CD.CARD_BY_ID["an_evil_empire"].number
NIXON = CD.CARD_BY_ID["nixon_plays_the_china_card"].number
WAR_CARDS = set(CD.WAR_CARDS)
BG = {i for i, c in enumerate(M.COUNTRIES) if c.battleground}
STAB = [c.stability for c in M.COUNTRIES]
#: scoring card number -> the region it scores (Southeast Asia Scoring, a part of Asia, left out)
SCORING_REGION = {CD.CARD_BY_ID[f"{r.lower().replace(' ', '_')}_scoring"].number: r for r in M.REGION_COUNTRIES}


def region_net(state, region: str, side: int) -> int:
    """``side``'s net VP if ``region`` were scored now (Europe control as ±100)."""
    us_vp, ussr_vp, europe = score_region(state, region)
    if europe in (US, USSR):
        return 100 if europe == side else -100
    return (us_vp - ussr_vp) if side == US else (ussr_vp - us_vp)


def make_bot(name: str, seed: int):
    if name == "ts-heuristic":
        from standoff.bots.ts_heuristic import TSHeuristicBot
        return TSHeuristicBot(seed)
    if name == "ts-search":
        from standoff.bots.ts_search import TSSearchBot
        return TSSearchBot(seed)
    if name == "ts-heuristic-v1":
        if str(FROZEN) not in sys.path:
            sys.path.insert(0, str(FROZEN))
        from standoff_ts_heuristic_v1.bot import TSHeuristicBot as Frozen
        return Frozen(seed)
    raise SystemExit(f"unknown bot {name!r}")


class Watch:
    """Records each decision's facts (from the engine state) and the option then chosen."""

    def __init__(self, game):
        self.game = game
        self.rows: list[dict] = []

    def until(self, state) -> bool:
        d = self.game.decision(state)
        row = {"step": d.step, "keys": [o.key for o in d.options], "turn": state.turn, "defcon": state.defcon,
               "milops": tuple(state.milops), "flower": state.has("flower_power") and EVIL_EMPIRE not in state.events_played,
               "china": state.china, "choice": None, "side": None, "card": None}
        if d.step == "action_round":
            side = USSR if d.role == "ussr" else US
            row["ar"], row["last_ar"] = state.ar, 6 if state.turn <= 3 else 7
            row["nets"] = {c: region_net(state, SCORING_REGION[c], side) for c in state.hands[side]
                           if c in SCORING_REGION}
        frame = state.stack[-1] if state.stack else ()
        if d.step == "card_use" and len(frame) >= 3:
            row["card"], row["side"] = frame[1], frame[2]
            owner = card_side(frame[1])
            row["playable"] = owner is not None and owner != frame[2] and event_playable(state, frame[1], owner)
        self.rows.append(row)
        return False

    def wrap(self, bot, role):
        watch = self

        class Seat:
            name = getattr(bot, "name", "bot")

            def __getattr__(self, attr):
                return getattr(bot, attr)

            def choose(self, decision, view):
                i = bot.choose(decision, view)
                if watch.rows:
                    watch.rows[-1]["choice"] = decision.options[i].key
                    watch.rows[-1]["role"] = role
                return i

        return Seat()


def count(rows: list[dict], final) -> Counter:
    c: Counter = Counter()
    unused: set = set()
    spaced: set = set()
    held: dict = {}  # (turn, side) -> {scoring card: net VP} at the side's first action round
    for r in rows:
        role, key = r.get("role"), r["choice"]
        if role is None or key is None:
            continue
        side = USSR if role == "ussr" else US
        if r["step"] == "card_use" and r["card"] is not None:
            card = r["card"]
            owner = card_side(card)
            opp_card = owner is not None and owner != side
            if key == "use:space":
                spaced.add((r["turn"], side))
                if (r["turn"], side) in unused:
                    unused.discard((r["turn"], side))
            elif opp_card and r.get("playable"):
                c["opp events"] += 1
                if "use:space" in r["keys"]:
                    unused.add((r["turn"], side))
                    c["card:space unused:" + CD.CARD_BY_NUMBER[card].id] += 1
                if (card == QUAGMIRE and side == US) or (card == BEAR_TRAP and side == USSR):
                    c["self-trap"] += 1
            if side == US and r["flower"] and key != "use:space" and (
                    card in WAR_CARDS or (card == EVIL_EMPIRE and key != "use:event")):
                c["own goal"] += 1
                c[f"card:own goal:{CD.CARD_BY_NUMBER[card].id}:{key}"] += 1
            if side == USSR and card == NIXON and r["turn"] >= 10 and r["china"] == USSR and key != "use:space":
                c["own goal"] += 1
                c[f"card:own goal:{CD.CARD_BY_NUMBER[card].id}:{key}"] += 1
        elif r["step"] == "action_round":
            first = held.setdefault((r["turn"], side), r["nets"])
            n = CD.CARD_BY_ID.get(key[5:]) if key.startswith("card:") else None
            if n is not None and n.number in first and r["ar"] >= r["last_ar"] \
                    and r["nets"][n.number] <= first[n.number]:
                c["held scoring"] += 1
        elif r["step"] == "headline" and key.startswith("card:"):
            n = CD.CARD_BY_ID.get(key[5:])
            if n is not None and ((n.number == QUAGMIRE and side == US) or (n.number == BEAR_TRAP and side == USSR)):
                c["self-trap"] += 1
        elif r["step"] == "coup" and key.startswith("country:") and key[8:] in M.INDEX:
            country = M.INDEX[key[8:]]
            met = r["milops"][side] >= r["defcon"]
            if country not in BG and met:
                c["wasted coup"] += 1
            if country in BG and r["defcon"] == 3 and not met:
                c["bg coup to 2"] += 1
    c["space unused"] += len(unused)
    for i in range(len(M.COUNTRIES)):
        for side in (US, USSR):
            if final.inf[side][i] >= final.inf[1 - side][i] + STAB[i] + 3:
                c["surplus"] += 1
    return c


def play_one(job: tuple) -> tuple:
    name, seed, options = job
    game = get_game("twilight-struggle")
    rules = game.rules(None, options)
    watch = Watch(game)
    bots = {role: watch.wrap(make_bot(name, seed + k), role) for k, role in enumerate(("ussr", "us"))}
    start = time.perf_counter()
    result = play_match(game, rules, bots, seed, until=watch.until)
    return name, seed, count(watch.rows, result.state), result.outcome.winner, result.outcome.termination, \
        time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="?", type=int, default=20, help="mirror games per bot (20)")
    parser.add_argument("--bot", action="append", default=[], help="bot (repeatable; default ts-heuristic and "
                        "ts-heuristic-v1)")
    parser.add_argument("--seed", type=int, default=0, help="first match seed (0)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--option", action="append", default=[], metavar="K=V", help="rules option")
    parser.add_argument("--detail", type=int, default=0, metavar="K", help="also the K cards most often behind "
                        "'space unused' (opponent events fired with space offered) and 'own goal'")
    args = parser.parse_args(argv)
    try:
        options = parse_options(args.option)
    except UsageError as exc:
        parser.error(str(exc))
    names = args.bot or ["ts-heuristic-v1", "ts-heuristic"]
    work = [(name, args.seed + i, options) for name in names for i in range(args.games)]
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(play_one, work, chunksize=1))
    else:
        results = list(map(play_one, work))
    totals = {name: Counter() for name in names}
    ends = {name: Counter() for name in names}
    secs = Counter()
    for name, seed, c, winner, termination, s in results:
        totals[name].update(c)
        ends[name][f"{winner or 'draw'}:{termination}"] += 1
        secs[name] += s
    label = "".join(f" {k}={v}" for k, v in sorted(options.items()))
    print(f"# habit counters, {args.games} mirror games per bot, seeds {args.seed}..{args.seed + args.games - 1}{label}")
    print(f"{'bot':17s}" + "".join(f"{h:>14s}" for h in HABITS) + "   (totals; per game)")
    for name in names:
        n = max(args.games, 1)
        print(f"{name:17s}" + "".join(f"{totals[name][h]:>6d} ({totals[name][h] / n:4.1f})" for h in HABITS))
    for name in names:
        if args.detail:
            cards = Counter({k[5:]: v for k, v in totals[name].items() if k.startswith("card:")})
            print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in cards.most_common(args.detail)))
    for name in names:
        print(f"{name}: endings {', '.join(f'{k} {v}' for k, v in ends[name].most_common())}; "
              f"{secs[name] / max(args.games, 1):.1f} s/game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
