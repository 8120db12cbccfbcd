"""A complete Standoff bot: copy this file and change `choose`.

    standoff token add mybot            # on the server machine: prints the bot's token once
    STANDOFF_TOKEN=sto_... python examples/random_bot.py --address 127.0.0.1:50051

The bot connects, waits to be seated in matches (`standoff match ... --bot remote:mybot`) and
answers every decision with the index of one of its options. `view` is the typed view of its seat
(for Schotten Totten a `SchottenTottenView`: `view.hand`, `view.flags[i].sides["p1"].cards`, ...).
"""

from __future__ import annotations

import argparse
import sys

from standoff.sdk import Bot
from standoff.sdk.client import SessionError, run


class RandomBot(Bot):
    name = "my-random-bot"
    games = ("schotten-totten",)

    def choose(self, decision, view):
        # decision.step: "play", "place", "claim", "draw"...; decision.options[i].key: "card:red-5", "flag:4"...
        claims = [i for i, o in enumerate(decision.options) if decision.step == "claim" and o.key != "done"]
        if claims:
            return claims[0]  # always claim a flag when the referee says we can prove one
        return self.rng.randrange(len(decision.options))


def report(result):
    """Each match as it ends (one line per seat)."""
    print(result.match_id, result.role, result.winner or "draw", result.termination, flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--address", default="127.0.0.1:50051")
    parser.add_argument("--matches", type=int, default=0, help="stop after this many (0 = keep playing)")
    args = parser.parse_args()
    try:
        run(RandomBot(), args.address, matches=args.matches, on_result=report)
    except SessionError as exc:  # a bad token, an unsupported version...: retrying will not help
        sys.exit(f"random_bot: the referee refused the session: {exc}")
    except KeyboardInterrupt:
        sys.exit(130)
