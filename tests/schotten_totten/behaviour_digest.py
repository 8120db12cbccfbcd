"""A digest of everything the Battle Line engine shows the outside world, over many random games.

    python tests/schotten_totten/behaviour_digest.py [--games 100]   # per ruleset/option set

Speed work on the engine must leave behaviour byte-identical: the same decisions (role, step,
prompt, option keys and labels, weights) in the same order, the same state fields that the SDK,
bots, kits and position files read (hands, decks, tops, sides, placed, claims, environment,
discards, known cards, the stack, counters, the unseen-troop mask), the same views for every seat,
copies that play on like the original, the same determinizations, claim explanations and timeout
defaults, and the same outcomes. This script plays ``--games`` uniformly random games for each of
:data:`CONFIGS` and hashes all of it; run it before and after a change and compare the lines.
``test_behaviour_digest.py`` keeps a small version of it as a regression test.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random

from standoff.server.games import get_game
from standoff.server.games.schotten_totten.position import to_position

CONFIGS: tuple[tuple[str, dict[str, str]], ...] = (
    ("battle_line", {}),
    ("battle_line", {"tactics": "off"}),
    ("battle_line", {"claim_timing": "start_of_turn"}),
    ("battle_line", {"claim_timing": "end_of_turn", "stalemate": "flags"}),
    ("battle_line", {"first": "p2", "decision_cap": "150"}),
    ("classic", {}),
    ("classic", {"claim_timing": "after_play", "stalemate": "flags"}),
    ("three_player", {}),
    ("three_player", {"claim_timing": "end_of_turn", "first": "p3"}),
)


def _fields(state) -> tuple:
    """The state fields other packages read, as plain data."""
    return (
        state.hands, state.decks, state.tops, state.sides, state.placed, state.fog, state.mud,
        state.claimed, state.tactics_played, state.leader_played, state.discards, state.known,
        state.current, state.passes, state.turn, state.table, state.unseen_mask(), state.number,
        state.stack, [state.completed_at(f, r) for f in range(9) for r in range(len(state.rules.roles))],
    )


def digest_game(game, rules, seed: int, h) -> None:
    """Feed one random game (and its side trips: views, copies, determinizations) into ``h``."""
    rng = random.Random(seed)
    side_rng = random.Random(seed + 1_000_003)
    state = game.new_state(rules)
    roles = rules.roles
    step_no = 0
    while (d := game.decision(state)) is not None:
        h.update(repr((d.role, d.step, d.prompt, d.options, d.weights)).encode())
        if step_no % 7 == 0:
            h.update(repr(_fields(state)).encode())
            h.update(repr(game.fallback_index(state)).encode())
        if step_no % 11 == 0:
            for role in roles:
                h.update(json.dumps(game.view(state, role, step_no // 2), sort_keys=True).encode())
            h.update(repr([game.explain_claim(state, roles[state.current], f) for f in range(1, 10)]).encode())
            h.update(repr(game.flags_claimed(state)).encode())
        if step_no % 17 == 0:
            # a copy plays on like the original for a few decisions, and leaves it untouched
            before = repr(_fields(state))
            twin = state.copy()
            for _ in range(6):
                td = game.decision(twin)
                if td is None:
                    break
                game.apply(twin, td.options[side_rng.randrange(len(td.options))])
                h.update(repr((td.step, td.options)).encode())
            h.update(repr(_fields(twin)).encode())
            assert repr(_fields(state)) == before, "playing a copy changed the original"
        if step_no % 23 == 0:
            role = roles[side_rng.randrange(len(roles))]
            det = game.determinize(state, role, random.Random(seed * 31 + step_no))
            h.update(repr(_fields(det)).encode())
            h.update(json.dumps(game.view(det, role), sort_keys=True).encode())
            dd = game.decision(det)
            h.update(repr(dd).encode())
            if dd is not None:
                game.apply(det, dd.options[-1])
                h.update(repr(_fields(det)).encode())
        if step_no % 29 == 0:
            h.update(json.dumps(to_position(state), sort_keys=True, default=repr).encode())
        game.apply(state, d.options[int(rng.random() * len(d.options))])
        step_no += 1
    h.update(repr((game.outcome(state), _fields(state))).encode())
    for role in roles:
        h.update(json.dumps(game.view(state, role), sort_keys=True).encode())


def digests(games: int) -> list[tuple[str, str]]:
    game = get_game("schotten-totten")
    out = []
    for ruleset, options in CONFIGS:
        rules = game.rules(ruleset, options)
        h = hashlib.sha256()
        for seed in range(games):
            digest_game(game, rules, seed, h)
        out.append((f"{ruleset} {json.dumps(options, sort_keys=True)}", h.hexdigest()))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="games per ruleset/option set")
    args = parser.parse_args()
    for name, hexdigest in digests(args.games):
        print(f"{hexdigest}  {name}")


if __name__ == "__main__":
    main()
