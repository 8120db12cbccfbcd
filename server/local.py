"""Play one match in-process, synchronously: the engine, the bots and the chance role in one loop.

This is what ``standoff play`` runs and what tests use. The referee server (grpc + trio) has its
own loop with clocks and fault policies; both sample chance the same way, from a
``random.Random`` seeded with ``derive_seed(seed, "chance")``, so a seed means the same deal
everywhere.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .core.game import CHANCE, Decision, Game, Outcome
from .core.record import Record, make_header, move_line, outcome_line
from .core.seeds import derive_seed


def chance_rng(seed: int) -> random.Random:
    """The generator the chance role of match ``seed`` draws from."""
    return random.Random(derive_seed(seed, "chance"))


def bot_seed(seed: int, role: str) -> int:
    """The seed handed to the bot in ``role`` of match ``seed``."""
    return derive_seed(seed, "bot", role)


def sample_chance(rng: random.Random, decision: Decision) -> int:
    """Pick a chance option: uniform, or by the decision's weights."""
    if decision.weights is None:
        return rng.randrange(len(decision.options))
    return rng.choices(range(len(decision.options)), weights=decision.weights)[0]


class BadChoice(RuntimeError):
    """A bot returned something that is not an option index."""


@dataclass
class MatchResult:
    outcome: Outcome
    record: Record
    state: Any


def play_match(
    game: Game,
    rules: Any,
    bots: Mapping[str, Any],
    seed: int,
    *,
    bot_names: Mapping[str, str] | None = None,
    match_id: str = "",
    on_line: Callable[[dict[str, Any]], None] | None = None,
    timing: bool = True,
) -> MatchResult:
    """Play a match between ``bots`` (role → bot) and return its outcome and record.

    ``on_line`` receives every record line as it is produced (to append it to a file). A bot that
    returns anything but a valid index raises :class:`BadChoice`: in-process bots are trusted code,
    the referee server applies fault policies to untrusted ones.
    """
    roles = rules.roles
    names = dict(bot_names or {role: getattr(bots[role], "name", "bot") for role in roles})
    header = make_header(game, rules, seed, names, match_id=match_id, code_version=_code_version())
    record = Record(header)
    emit = on_line or (lambda line: None)
    emit(header)
    rng = chance_rng(seed)
    state = game.new_state(rules)
    for role in roles:
        bots[role].start(game.name, role, rules.ruleset, dict(rules.options))
    clock = time.perf_counter
    while (decision := game.decision(state)) is not None:
        role = decision.role
        extra: dict[str, Any] = {}
        if role == CHANCE:
            index = sample_chance(rng, decision)
        else:
            bot = bots[role]
            view = game.view(state, role) if getattr(bot, "uses_view", True) else None
            started = clock()
            index = bot.choose(decision, view)
            if timing:
                extra["think_ms"] = round((clock() - started) * 1000.0, 3)
            if not isinstance(index, int) or not 0 <= index < len(decision.options):
                raise BadChoice(
                    f"bot {names[role]!r} ({role}) returned {index!r} at step {decision.step!r}; "
                    f"expected an index in 0..{len(decision.options) - 1}"
                )
        option = decision.options[index]
        game.apply(state, option)
        line = move_line(len(record.moves) + 1, role, decision.step, option.key, **extra)
        record.moves.append(line)
        emit(line)
    outcome = game.outcome(state)
    assert outcome is not None
    footer = outcome_line(outcome, roles, faults={})
    record.footer = footer
    emit(footer)
    for role in roles:
        bots[role].end(outcome)
    return MatchResult(outcome, record, state)


@functools.cache
def _code_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"standoff {version('standoff')}"
    except PackageNotFoundError:
        return "standoff (not installed)"
