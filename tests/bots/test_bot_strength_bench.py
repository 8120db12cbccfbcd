"""benchmarks/bot_strength.py, the strength benchmark: pairings named with bot arguments, games
cut into slices of whole seed pairs for ``--against``, both games' bots, and ``--against REV``
playing the same games with another revision's package (its worktree removed afterwards). Results
are checked for consistency, never for a strength or a speed."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bot_strength  # noqa: E402

SCRIPT = ROOT / "benchmarks" / "bot_strength.py"


def run(*words: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *words], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def test_pairs_split_at_the_second_bots_name():
    split = bot_strength.split_pair
    assert split("greedy,random") == ("greedy", "random")
    assert split("ismcts:iterations=9,depth=1,probability") == ("ismcts:iterations=9,depth=1", "probability")
    assert split("probability,ismcts:iterations=9,depth=1") == ("probability", "ismcts:iterations=9,depth=1")
    assert split("greedy") is None and split("greedy,nobody") is None


def test_slices_keep_seed_pairs_together_and_cover_every_game():
    for games in (1, 2, 7, 10, 200):
        for rounds in (1, 3, 4, 50):
            cut = bot_strength.slices(games, rounds)
            assert [i for r in cut for i in r] == list(range(games))
            assert all(r.start % 2 == 0 for r in cut) and len(cut) <= rounds


def test_results_and_their_interval():
    results, _ = bot_strength.play_games("greedy", "random", range(4), None, {}, 3, 1, "schotten-totten")
    summary = bot_strength.summarize("greedy", "random", results, 1.0)
    assert summary["games"] == 4 and sum(summary["wdl"].values()) == 4
    assert [r[2] for r in results] == ["p1", "p2", "p1", "p2"]  # seats swapped within a pair
    assert sum(summary["pairs"]) == 2  # two seed pairs, each counted once (pentanomial)
    assert summary["pairs"] == bot_strength.pentanomial(
        [sum(1.0 if r[1] == r[2] else 0.5 if r[1] is None else 0.0 for r in results[i:i + 2]) for i in (0, 2)])
    est = bot_strength.trinomial_elo(30, 10, 20)
    low, high = bot_strength.score_interval(est)
    assert low < (30 + 5) / 60 < high


def test_twilight_struggle_pairings_and_bad_input():
    played = run("2", "--game", "twilight-struggle", "--pair", "ts-heuristic,random", "--option", "end_turn=1")
    assert played.returncode == 0, played.stderr
    assert "ts-heuristic vs random: 2 games" in played.stdout and "W/D/L" in played.stdout
    wrong = run("2", "--pair", "ts-heuristic,random")
    assert wrong.returncode == 2 and "does not play schotten-totten" in wrong.stderr
    assert "Traceback" not in wrong.stderr
    unknown = run("2", "--ruleset", "nope")
    assert unknown.returncode == 2 and "unknown ruleset" in unknown.stderr and "Traceback" not in unknown.stderr


def test_a_plugin_bot_is_measured_and_unknown_without_its_variable():
    """A bot named in $STANDOFF_PLUGINS (here the frozen ts-heuristic-v1 of issue 25) can be
    measured (the deals depend on --seed and the game's index only, never on the bots' names, so
    a frozen copy plays the deals the built-in plays); without the variable it is unknown."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "tests" / "plugins" / "ts_heuristic_v1"),
               STANDOFF_PLUGINS="standoff_ts_heuristic_v1.plugin")
    words = [sys.executable, str(SCRIPT), "2", "--game", "twilight-struggle", "--option", "end_turn=2",
             "--seed", "7", "--pair"]
    frozen = subprocess.run([*words, "ts-heuristic-v1,random"], capture_output=True, text=True,
                            timeout=600, cwd=ROOT, env=env)
    assert frozen.returncode == 0, frozen.stderr
    assert "ts-heuristic-v1 vs random: 2 games" in frozen.stdout
    unknown = run("2", "--game", "twilight-struggle", "--pair", "ts-heuristic-v1,random")
    assert unknown.returncode != 0 and "unknown bot 'ts-heuristic-v1'" in unknown.stderr + unknown.stdout
    assert "Traceback" not in unknown.stderr


def test_against_plays_the_same_games_on_both_trees():
    played = run("4", "--pair", "greedy,random", "--against", "HEAD", "--rounds", "2")
    assert played.returncode == 0, played.stderr
    out = played.stdout
    assert "this tree: greedy vs random: 4 games" in out and "REV HEAD: greedy vs random: 4 games" in out
    assert "this tree - REV HEAD: score" in out and "think per decision, greedy" in out
    assert out.count("# games ") == 2  # two slices, each played by both trees
    worktree = re.search(r"\(worktree (\S+)\)", out).group(1)
    listed = subprocess.run(["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True).stdout
    assert worktree not in listed and not Path(worktree).exists()  # its worktree is gone
