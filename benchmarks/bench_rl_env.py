"""Environment steps per second of the RL bridges (standoff.sdk.rl_envs, rl_openspiel), both games.

    python benchmarks/bench_rl_env.py [--seconds 5] [--only pettingzoo,gym,openspiel]

One step is one agent decision: the environment builds the acting seat's observation vector from
its view and its action mask, the agent picks a uniformly random legal action, the engine applies
it and plays chance (deals, draws, dice) up to the next decision. Printed per game and framework:

* PettingZoo AEC: ``env.last()`` + ``env.step()`` of the acting agent (all seats are agents);
* Gymnasium: ``env.step()`` against the built-in bot ``random`` (its moves included in the step);
* OpenSpiel: ``state.observation_tensor(player)`` + ``legal_actions()`` + ``apply_action()``
  (chance sampled from ``chance_outcomes()``), when open-spiel is installed;
* raw engine: the same random playout with no observations (the floor the bridges add to).

Each row runs whole episodes for about --seconds (wall clock, one core); seeded.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from standoff.sdk.rl import spec_for
from standoff.sdk.rl_envs import StandoffAECEnv, StandoffGymEnv

GAMES = (("schotten-totten", "battle_line"), ("schotten-totten", "classic"), ("twilight-struggle", "deluxe"))


def _timed(run_episode, seconds: float) -> tuple[float, int, int]:
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or episodes == 0:
        steps += run_episode(episodes)
        episodes += 1
    return steps / (time.perf_counter() - start), steps, episodes


def bench_raw(game: str, ruleset: str, seconds: float):
    spec = spec_for(game, ruleset)
    engine = spec.game

    def episode(n: int) -> int:
        rng = random.Random(n)
        state = engine.new_state(spec.rules)
        steps = 0
        while (d := engine.decision(state)) is not None:
            steps += d.role != "chance"
            engine.apply(state, d.options[rng.randrange(len(d.options))])
        return steps

    return _timed(episode, seconds)


def bench_pettingzoo(game: str, ruleset: str, seconds: float):
    env = StandoffAECEnv(game, ruleset=ruleset)

    def episode(n: int) -> int:
        env.reset(seed=n)
        rng = random.Random(n)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return _timed(episode, seconds)


def bench_gym(game: str, ruleset: str, seconds: float):
    env = StandoffGymEnv(game, ruleset=ruleset, opponent="random")

    def episode(n: int) -> int:
        obs, _ = env.reset(seed=n)
        rng = random.Random(n)
        steps, done = 0, False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _, done, _, _ = env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        return steps

    return _timed(episode, seconds)


def bench_openspiel(game: str, ruleset: str, seconds: float):
    from standoff.sdk import rl_openspiel

    os_game = rl_openspiel.load(game, ruleset=ruleset)

    def episode(n: int) -> int:
        rng = random.Random(n)
        state = os_game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])  # uniform in these games
                continue
            state.observation_tensor(state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            steps += 1
        return steps

    return _timed(episode, seconds)


BENCHES = {"raw": bench_raw, "pettingzoo": bench_pettingzoo, "gym": bench_gym, "openspiel": bench_openspiel}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per row")
    parser.add_argument("--only", default=",".join(BENCHES), help="comma-separated: " + ",".join(BENCHES))
    args = parser.parse_args()
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    print(f"{'game':<32} {'framework':<11} {'steps/s':>9} {'steps':>8} {'episodes':>8}")
    for game, ruleset in GAMES:
        for name in only:
            if name == "openspiel":
                try:
                    import pyspiel  # noqa: F401
                except ImportError:
                    print(f"{game + ' ' + ruleset:<32} {name:<11} {'(open-spiel not installed)':>9}")
                    continue
            rate, steps, episodes = BENCHES[name](game, ruleset, args.seconds)
            print(f"{game + ' ' + ruleset:<32} {name:<11} {rate:>9,.0f} {steps:>8} {episodes:>8}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
