"""The SDK's forward model: beliefs built and random rollouts played from sampled states, per second.

    python benchmarks/bench_forward_model.py [--game schotten-totten] [--positions 10]
        [--rollouts 40] [--at 60] [--ismcts 100 [--ismcts-attr DEPTH=3 ...]] [--rounds 5] [--against REV]

What a search bot (``ismcts``, ``ts-search``) pays per decision and per iteration. A round takes
--positions positions (uniformly random game ``p``, seeded ``p``, stopped at its --at-th
decision of a player or earlier if it ends), the deciding player's full view of each, and:

* belief builds/s: ``Belief(game, view, options=...)`` (the replay of the view's history, as
  ``ismcts`` builds it once per decision, without the final view check);
* rollouts/s: from each belief, --rollouts times ``belief.sample(rng)`` (a uniform re-deal of
  what the player cannot see) then ``rollout(game, state, rng=rng)`` (uniformly random players
  and chance to the end of the match); sample and rollout both counted;
* rollout decisions/s: decisions of the rollouts (players' and chance's alike) per second of
  that same time, and rollout decisions per rollout (a check: the same in both trees);
* with ``--ismcts N`` (Schotten Totten): ``ismcts`` decisions per second at N iterations each,
  the bot choosing at every position (a search with its own rollout policy and flag model on
  sampled states), and a digest of its choices (a check: the same in both trees).
  ``--ismcts-attr NAME=VALUE`` sets a class attribute of ``IsmctsBot`` first (an int, else a
  string), e.g. ``SELECTION=ucb --ismcts-attr DEPTH=3`` to time the same search on a tree whose
  defaults changed (the digest then says whether both trees chose alike).

With ``--against REV`` the same code runs on git revision REV too, interleaved round by round
in fresh interpreters (see benchmarks/against.py).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import against
from standoff.sdk.simulate import Belief, rollout
from standoff.server.games import get_game

METRICS = (
    against.Metric("rollouts/s", "{:,.1f}"),
    against.Metric("rollout decisions/s"),
    against.Metric("belief builds/s", "{:,.1f}"),
    against.Metric("rollout decisions/rollout", "{:.2f}", "same"),
    against.Metric("ismcts decisions/s", "{:,.2f}"),
    against.Metric("ismcts choices digest", "{:.0f}", "same"),
)


def positions(game, rules, count: int, at: int) -> list[dict]:
    """The deciding player's view at the ``at``-th player decision of random games 0..count-1."""
    views = []
    for seed in range(count):
        state = game.new_state(rules)
        rng = random.Random(seed)
        seen, view = 0, None
        while (d := game.decision(state)) is not None:
            if d.role != "chance":
                view = game.view(state, d.role)
                seen += 1
                if seen >= at:
                    break
            game.apply(state, d.options[rng.randrange(len(d.options))])
        if view is not None:
            views.append(view)
    return views


def measure(args: argparse.Namespace) -> dict[str, float]:
    game = get_game(args.game)
    rules = game.rules(None, {})
    options = dict(rules.options)
    views = positions(game, rules, args.positions, args.at)
    started = time.perf_counter()
    beliefs = [Belief(game, view, options=options, check=False) for view in views]
    belief_time = time.perf_counter() - started
    decisions = rollouts = 0
    started = time.perf_counter()
    for p, belief in enumerate(beliefs):
        rng = random.Random(1000 + p)
        for _ in range(args.rollouts):
            state = belief.sample(rng)
            before = state.number
            rollout(game, state, rng=rng)
            decisions += state.number - before
            rollouts += 1
    rollout_time = time.perf_counter() - started
    result = {
        "rollouts/s": rollouts / rollout_time,
        "rollout decisions/s": decisions / rollout_time,
        "belief builds/s": len(beliefs) / belief_time,
        "rollout decisions/rollout": decisions / rollouts,
    }
    if args.ismcts and args.game == "schotten-totten":
        result.update(ismcts(game, rules, views, args.ismcts, args.ismcts_attr))
    return result


def ismcts(game, rules, views: list[dict], iterations: int, attrs: list[str] = ()) -> dict[str, float]:
    """``ismcts`` (seeded, ``iterations`` per decision) choosing at every position."""
    from standoff.bots.ismcts import IsmctsBot
    from standoff.sdk.types import MatchInfo

    for item in attrs:
        name, _, value = item.partition("=")
        setattr(IsmctsBot, name, int(value) if value.lstrip("-").isdigit() else value)

    decisions = [_decision_of(game, rules, view) for view in views]
    bots = []
    for p, view in enumerate(views):
        bot = IsmctsBot(seed=p, iterations=iterations)
        bot.start(MatchInfo(match_id=f"bench-{p}", game=game.name, rules_version=game.rules_version,
                            ruleset=rules.ruleset, options=dict(rules.options), role=view["role"],
                            seats={r: "bench" for r in rules.roles}, seed=p))
        bots.append(bot)
    choices = []
    started = time.perf_counter()
    for bot, decision, view in zip(bots, decisions, views, strict=True):
        choices.append(bot.choose(decision, view))
    elapsed = time.perf_counter() - started
    digest = 0
    for choice in choices:
        digest = (digest * 31 + choice + 1) % 1_000_000_007
    return {"ismcts decisions/s": len(views) / elapsed, "ismcts choices digest": digest}


def _decision_of(game, rules, view: dict):
    """The decision a view was made for (replayed from the view's history)."""
    return Belief(game, view, options=dict(rules.options), check=False).decision()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="schotten-totten", choices=("schotten-totten", "twilight-struggle"))
    parser.add_argument("--positions", type=int, default=10, help="positions per round (default 10)")
    parser.add_argument("--rollouts", type=int, default=40, help="rollouts per position (default 40)")
    parser.add_argument("--at", type=int, default=60,
                        help="the position: a game's N-th decision of a player (default 60)")
    parser.add_argument("--ismcts", type=int, default=0, metavar="N",
                        help="also time ismcts at N iterations per decision at every position")
    parser.add_argument("--ismcts-attr", action="append", default=[], metavar="NAME=VALUE",
                        help="set an IsmctsBot class attribute first (repeatable)")
    against.add_arguments(parser)
    args = parser.parse_args()
    for item in args.ismcts_attr:
        if "=" not in item or not item.partition("=")[0].isupper():
            parser.error(f"--ismcts-attr {item!r}: expected NAME=VALUE (an upper-case class attribute)")
    title = (f"{args.game}: {args.positions} positions (player decision {args.at} of random games), "
             f"{args.rollouts} sample+rollout each")
    return against.run(args, measure, METRICS, title=title)


if __name__ == "__main__":
    sys.exit(main())
