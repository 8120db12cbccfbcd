"""Train a small Schotten Totten agent on CPU, measure it against `random`, then enter it in a
tournament against the built-in bots. numpy only (plus standoff[rl]); a few minutes.

    pip install -e '.[rl]'                 # or: pip install 'standoff[rl]'
    python examples/train_schotten_totten.py                  # train, evaluate, tournament
    python examples/train_schotten_totten.py --quick          # a smoke run (seconds)

What it does (docs/training.md explains each step):

1. Training: the cross-entropy method (CEM) over the 14 weights of `st_agent.Scorer` (a linear
   score of card-on-flag placements). Each generation samples weight vectors from a Gaussian,
   plays each for a few games in the Gymnasium environment `StandoffGymEnv` against `random`
   (the agent sees only its observation and action mask), keeps the best fifth and refits the
   Gaussian to them. Seeded: the same command trains the same weights.
2. Evaluation: 200 new games against `random` (seats alternate), win rate printed.
3. The tournament: the weights go to runs/rl/st_agent.json; `st_agent.py` registers them as
   the plugin bot `st-agent` (a PolicyBot), and `standoff tournament` plays a round robin
   against `random` and `greedy` (paired seeds), with its usual report.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from st_agent import FEATURES, GAME, RULESET, Scorer  # noqa: E402

from standoff.sdk.rl_envs import StandoffGymEnv  # noqa: E402


def play(env: StandoffGymEnv, act, seeds) -> float:
    """Score of ``act`` over one episode per seed (win 1, draw 0.5, loss 0)."""
    total = 0.0
    for seed in seeds:
        obs, _ = env.reset(seed=int(seed))
        done = False
        while not done:
            obs, reward, done, _, _ = env.step(act(obs["observation"], obs["action_mask"]))
        total += (reward + 1) / 2
    return total / len(seeds)


def train(generations: int, population: int, games: int, seed: int, opponent: str = "random", log=print) -> np.ndarray:
    rng = np.random.default_rng(seed)
    scorer = Scorer(RULESET)
    env = StandoffGymEnv(GAME, ruleset=RULESET, opponent=opponent)
    mean = np.zeros(len(FEATURES))
    std = np.ones(len(FEATURES))
    elite = max(2, population // 5)
    for generation in range(generations):
        candidates = mean + std * rng.standard_normal((population, len(FEATURES)))
        seeds = rng.integers(0, 2**31, games)  # the same games for every candidate: a fair race
        scores = np.array([play(env, scorer.policy(w), seeds) for w in candidates])
        best = candidates[np.argsort(scores)[-elite:]]
        mean, std = best.mean(axis=0), best.std(axis=0) + 0.05
        log(f"generation {generation + 1}/{generations}: best {scores.max():.2f}, mean {scores.mean():.2f}", flush=True)
    return mean


def tournament(weights_path: Path, out: Path, games: int) -> int:
    config = out / "tournament.toml"
    config.write_text(
        'name = "st-agent"\n'
        f'game = "{GAME}"\n'
        f'ruleset = "{RULESET}"\n'
        'entrants = ["st-agent", "random", "greedy"]\n'
        'format = "round_robin"\n'
        f"games_per_pairing = {games}\n"
        "master_seed = 23\n"
        f'output_dir = "{out}"\n'
    )
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(__file__).resolve().parent), env.get("PYTHONPATH")]))
    env["STANDOFF_PLUGINS"] = "st_agent"
    env["STANDOFF_ST_AGENT"] = str(weights_path)
    command = [sys.executable, "-m", "standoff.tournaments.cli", "tournament", str(config)]
    print("$ PYTHONPATH=examples STANDOFF_PLUGINS=st_agent STANDOFF_ST_AGENT=" f"{weights_path} standoff tournament {config}")
    return subprocess.run(command, env=env).returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=12)
    parser.add_argument("--population", type=int, default=20)
    parser.add_argument("--games", type=int, default=16, help="games per candidate per generation")
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--tournament-games", type=int, default=20, help="games per pairing (even)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponent", default="random", help="the built-in bot trained against (random, greedy...)")
    parser.add_argument("--out", default="runs/rl")
    parser.add_argument("--quick", action="store_true", help="a smoke run: tiny training, 20 evaluation games")
    parser.add_argument("--no-tournament", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.generations, args.population, args.games, args.eval_games, args.tournament_games = 2, 6, 2, 20, 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    env = StandoffGymEnv(GAME, ruleset=RULESET, opponent="random")
    eval_seeds = np.random.default_rng(args.seed + 1_000_003).integers(0, 2**31, args.eval_games)
    baseline = play(env, Scorer(RULESET).policy(np.zeros(len(FEATURES))), eval_seeds)
    print(f"untrained (all weights 0: first card, first flag) against random: {baseline:.1%} over {args.eval_games} games")

    started = time.perf_counter()
    weights = train(args.generations, args.population, args.games, args.seed, args.opponent)
    trained_s = time.perf_counter() - started
    print(f"trained in {trained_s:.0f} s against {args.opponent}: "
          + ", ".join(f"{n}={w:+.2f}" for n, w in zip(FEATURES, weights)))

    win_rate = play(env, Scorer(RULESET).policy(weights), eval_seeds)
    print(f"trained against random: {win_rate:.1%} over {args.eval_games} games (seats at random)")

    weights_path = out / "st_agent.json"
    weights_path.write_text(json.dumps({
        "game": GAME, "ruleset": RULESET, "features": FEATURES, "weights": [round(float(w), 6) for w in weights],
        "trained_s": round(trained_s, 1), "trained_against": args.opponent, "win_rate_vs_random": win_rate,
        "untrained_vs_random": baseline, "eval_games": args.eval_games,
    }, indent=1) + "\n")
    print(f"weights: {weights_path}")
    if args.no_tournament:
        return 0
    return tournament(weights_path.resolve(), out.resolve(), args.tournament_games)


if __name__ == "__main__":
    sys.exit(main())
