"""A small learned Schotten Totten agent: a linear scoring of (card, flag) placements, read from
the observation vector of standoff.sdk.rl, and its plugin registration.

`train_schotten_totten.py` learns the weights; this module turns them into a policy (observation,
mask → action id) and into a Standoff bot named `st-agent`, registered as a plugin so that
tournaments (and their worker processes) find it:

    PYTHONPATH=examples STANDOFF_PLUGINS=st_agent STANDOFF_ST_AGENT=runs/rl/st_agent.json \\
        standoff tournament runs/rl/tournament.toml

The policy sees only what the environments give an agent: the observation vector (built from
its seat's view) and the mask of legal action ids. Every decision of the game goes through it:

* `play` (which card): the best score over the open flags of each hand card; `place` (which
  flag): the score of the card just played (the last history entry) on each flag;
* `claim`: a flag when one can be proved (always worth it), `done` otherwise;
* anything else (draws, passes; the tactics steps of Battle Line): the first legal action.

The score of a card on a flag is `weights · features(card, flag)`: value, colour and run
matches with my cards there, how full both sides are, the formation it would complete...
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

from standoff.sdk import BotSpec, hookimpl
from standoff.sdk.rl import PolicyBot, spec_for

GAME = "schotten-totten"
RULESET = "classic"
FEATURES = (
    "bias", "value", "same_colour", "run_fit", "same_value", "fill_before", "completes",
    "completed_rank", "opp_cards", "opp_sum", "my_sum", "opp_complete", "centre", "lonely_high",
)


class Scorer:
    """Features of (card, flag) pairs from the observation vector, and the policy."""

    def __init__(self, ruleset: str = RULESET) -> None:
        spec = spec_for(GAME, ruleset)
        self.spec = spec
        table, layout = spec.table, spec.encoder.layout
        self.layout = layout
        n = len(table)
        self.card_action = {}  # action id -> card number (troops only: 0..59)
        self.flag_action = {}  # action id -> flag 0..8
        for i, key in enumerate(table.keys):
            kind, _, name = key.partition(":")
            if kind == "card" and name.rsplit("-", 1)[-1].isdigit():
                colour, value = name.rsplit("-", 1)
                number = ("red", "orange", "yellow", "green", "blue", "purple").index(colour) * 10 + int(value) - 1
                self.card_action[i] = number
            elif kind == "flag":
                self.flag_action[i] = int(name) - 1
        self.claim_step = layout["step"].start + spec.encoder.STEPS.index("claim")
        self.recent = layout["recent0"].start
        self.n = n

    def _flag(self, obs: np.ndarray, f: int, seat: int) -> list[int]:
        sl = self.layout[f"flag{f + 1}.seat{seat}"]
        return [int(c) for c in np.flatnonzero(obs[sl][:60])]  # troop cards (tactics: ignored)

    def features(self, obs: np.ndarray, card: int, f: int) -> np.ndarray:
        mine, theirs = self._flag(obs, f, 0), self._flag(obs, f, 1)
        colour, value = card // 10, card % 10 + 1
        colours = [c // 10 for c in mine]
        values = sorted(c % 10 + 1 for c in mine)
        after = sorted(values + [value])
        size = 3  # classic and three-player: three cards a side (Battle Line too, without Mud)
        run = after[-1] - after[0] <= size - 1 and len(set(after)) == len(after)
        flush = all(c == colour for c in colours)
        kind = all(v == value for v in values)
        completes = len(mine) == size - 1
        rank = 0.0
        if completes:
            rank = (4 if run and flush else 3 if kind else 2 if flush else 1 if run else 0) / 4
        opp_complete = obs[self.layout[f"flag{f + 1}.seat1.complete"].start]
        return np.array([
            1.0,
            value / 10,
            sum(c == colour for c in colours) / 2,
            float(run and len(mine) > 0),
            float(kind and len(mine) > 0),
            len(mine) / 2,
            float(completes),
            rank,
            len(theirs) / 3,
            sum(c % 10 + 1 for c in theirs) / 30,
            (sum(values) + value) / 30,
            float(opp_complete),
            1.0 - abs(f - 4) / 4,
            float(not mine and value >= 8),
        ], dtype=np.float32)

    def policy(self, weights: np.ndarray, temperature: float = 0.0, rng: np.random.Generator | None = None):
        """A policy(obs, mask) -> action id: greedy, or softmax sampling with ``temperature``."""
        weights = np.asarray(weights, dtype=np.float32)

        def choose(scored: list[tuple[int, float]]) -> int:
            actions, scores = zip(*scored)
            if temperature <= 0 or rng is None:
                return actions[int(np.argmax(scores))]
            z = np.array(scores) / temperature
            p = np.exp(z - z.max())
            return actions[int(rng.choice(len(actions), p=p / p.sum()))]

        def act(obs: np.ndarray, mask: np.ndarray) -> int:
            legal = np.flatnonzero(mask)
            flags = [a for a in legal if a in self.flag_action]
            cards = [a for a in legal if a in self.card_action]
            if obs[self.claim_step] and flags:
                return int(flags[0])  # claim what can be proved
            if cards:  # play: the best placement of each card on the open flags
                open_flags = self._open_flags(obs)
                return int(choose([(a, max(float(weights @ self.features(obs, self.card_action[a], f))
                                           for f in open_flags)) for a in cards]))
            if flags:  # place: the card just played
                played = int(np.argmax(obs[self.recent:self.recent + self.n]))
                card = self.card_action.get(played)
                if card is None:
                    return int(flags[0])
                return int(choose([(a, float(weights @ self.features(obs, card, self.flag_action[a]))) for a in flags]))
            return int(legal[0])

        return act

    def _open_flags(self, obs: np.ndarray) -> list[int]:
        L = self.layout
        return [f for f in range(9)
                if obs[L[f"flag{f + 1}.claimed"]][-1] and np.count_nonzero(obs[L[f"flag{f + 1}.seat0"]]) < 3] or [0]


def load_weights(path: str | os.PathLike[str]) -> tuple[np.ndarray, str]:
    data = json.loads(Path(path).read_text())
    return np.array(data["weights"], dtype=np.float32), data.get("ruleset", RULESET)


def agent_bot(weights: np.ndarray, seed: int = 0, ruleset: str = RULESET, name: str = "st-agent") -> PolicyBot:
    """The trained agent as a Standoff bot (PolicyBot: the policy adapter of standoff.sdk.rl)."""
    return PolicyBot(Scorer(ruleset).policy(weights), GAME, ruleset=ruleset, name=name, seed=seed)


@hookimpl
def standoff_bots():
    """The plugin hook: `st-agent`, with the weights of $STANDOFF_ST_AGENT."""
    path = os.environ.get("STANDOFF_ST_AGENT", "runs/rl/st_agent.json")
    if not Path(path).exists():
        return []
    weights, ruleset = load_weights(path)
    return [BotSpec(name="st-agent", factory=lambda seed: agent_bot(weights, seed, ruleset),
                    games=(GAME,), description="a linear Schotten Totten agent trained by train_schotten_totten.py",
                    trusted=True)]
