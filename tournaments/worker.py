"""A tournament worker: a process of its own that plays local matches (trusted built-in bots).

    python -m standoff.tournaments.worker

Reads one JSON job per line on stdin, plays the match (writing its record file), and answers one
JSON line on stdout: ``{"result": {...}}`` (a results.jsonl line) or ``{"error": "..."}``. The
coordinator keeps one worker per core busy; CPU-bound matches then use every core.
"""

from __future__ import annotations

import json
import signal
import sys
import traceback
from pathlib import Path
from typing import Any

from ..sdk.plugin import capability
from ..server.core.seeds import derive_seed
from ..server.faults import TimeControl, policy_from_name
from ..server.local import bot_seed, play_match
from ..server.processes import die_with_parent
from ..server.records import RecordWriter
from .model import MatchSpec, Result
from .series import Series, result_of_game


def run_job(job: dict[str, Any], registry: Any) -> Result:
    game = registry.game(job["game"])
    spec = MatchSpec(**{**job["spec"], "seats": tuple(job["spec"]["seats"])})
    records = Path(job["records_dir"])
    tc = TimeControl(**job.get("time_control", {}))
    policy = policy_from_name(job.get("policy", "forfeit"))
    series = job.get("match_games") or job.get("target_score")
    roles = game.rules(job.get("ruleset"), job.get("options") or {}).roles
    fallbacks: dict[str, int] = {}  # role -> fallbacks its bot took, over every game

    def play_game(number: int, first: str | None):
        options = dict(job.get("options") or {})
        if first is not None:
            options["first"] = first
        rules = game.rules(job.get("ruleset"), options)
        seed = derive_seed(spec.seed, "game", number) if series else spec.seed
        name = f"{spec.match_id}-g{number}" if series else spec.match_id
        bots = {
            role: registry.make_bot(entrant, bot_seed(seed, role, spec.leg), game.name)
            for role, entrant in zip(roles, spec.seats, strict=True)
        }
        with RecordWriter(records / f"{name}.jsonl") as writer:
            played = play_match(
                game, rules, bots, seed, bot_names=dict(zip(roles, spec.seats, strict=True)), match_id=name,
                on_line=writer.write, time_control=tc, policy=policy, retries=job.get("retries", 0),
                position=job.get("position"), leg=spec.leg,
            )
        add_fallbacks(fallbacks, bots)
        claimed = capability(game, "flags_claimed")
        flags = claimed(played.state) if claimed is not None and played.state is not None else {}
        return played.outcome, flags, played.faults

    if series:
        match = Series(spec, roles, job.get("match_games"), job.get("target_score"))
        while (next_game := match.next_game()) is not None:
            match.add(*play_game(*next_game))
        result = match.result()
    else:
        outcome, _, faults = play_game(1, None)
        result = result_of_game(spec, roles, outcome, faults)
    result.fallbacks = fallbacks
    return result


def add_fallbacks(totals: dict[str, int], bots: dict[str, Any]) -> None:
    """Add each role's bot's fallback count (``Bot.fallbacks``: taken after an internal error,
    in the match just played) to ``totals``; zero counts are left out."""
    for role, bot in bots.items():
        count = getattr(bot, "fallbacks", 0)
        if type(count) is int and count > 0:
            totals[role] = totals.get(role, 0) + count


def main() -> int:
    from ..server.plugins import load_registry

    from ..server.logs import configure_logging

    die_with_parent()
    # stdout is the coordinator's channel: diagnostics (an engine error's traceback) go to stderr.
    configure_logging(json=False, level="warning", stream=sys.stderr)

    # Ctrl-C reaches the whole process group: the coordinator decides when workers stop (it
    # closes their stdin), so that a match in progress is never half-written by a worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # Workers run trusted bots only: built-ins and operator-named $STANDOFF_PLUGINS modules.
    registry = load_registry(entry_points=False)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            answer = {"result": run_job(json.loads(line), registry).to_json()}
        except Exception:  # noqa: BLE001 - reported to the coordinator, the worker lives on
            answer = {"error": traceback.format_exc(limit=5)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
