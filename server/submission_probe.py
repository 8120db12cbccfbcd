"""The check of a submitted bot, run by the submission's own Python (in its venv, in the sandbox):
``python -m standoff.server.submission_probe DISTRIBUTION``.

It finds the bots the distribution ``DISTRIBUTION`` registers (entry-point group
``standoff.bots``, through the same loader the referee and ``standoff bot run`` use), then reads
one JSON line per game from stdin, ``{"game": ..., "started": ..., "decision": ...}`` (the wire
bytes of a ``MatchStarted`` and of the first ``Decision`` of a match, base64, built by the
server: :func:`standoff.server.submissions.check_messages`), and asks each bot that plays the
game that one decision, decoded by the SDK exactly as a bot connected to a referee gets it.

What it prints on its standard output is one JSON object, and nothing else: the bot's own prints
go to the standard error (the build log). The server judges the answers, not this process::

    {"bots": [{"name": "alice", "games": ["GAME"]}],
     "problems": ["alice-bot (entry point alice = alice_bot): failed to import: ..."],
     "answers": {"alice": {"GAME": {"index": 3} | {"error": "ValueError: ... (bot.py:12)"}}}}
"""

from __future__ import annotations

import base64
import json
import os
import re
import sys
import traceback
from typing import Any, TextIO


def _canonical(name: str) -> str:
    """A distribution name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _where(exc: BaseException) -> str:
    """Where ``exc`` was raised in the submission's own code, as ``file:line``: the innermost
    frame of a file in its venv (not the standard library's, nor the SDK's), else the innermost."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if f.filename.startswith(sys.prefix + os.sep)]
    frame = (own or frames or [None])[-1]
    return f"{os.path.basename(frame.filename)}:{frame.lineno}" if frame is not None else "?"


def _ask(spec: Any, request: dict[str, Any]) -> dict[str, Any]:
    """Start a new bot of ``spec`` with the request's ``MatchStarted`` and ask it its decision,
    as the SDK's client does (:func:`standoff.sdk.client.run`). Its answer, or the one line of
    what it raised."""
    from standoff.v1 import referee_pb2 as pb

    from .decisions import HistoryBook, decode_decision, decode_match_started

    try:
        started = pb.PlayResponse.FromString(base64.b64decode(request["started"])).match_started
        message = pb.PlayResponse.FromString(base64.b64decode(request["decision"])).decision
        info = decode_match_started(started)
        bot = spec.factory(info.seed)
        bot.start(info)
        uses_view = getattr(bot, "uses_view", True) is not False
        decision, view = decode_decision(message, uses_view)
        if uses_view:
            HistoryBook().complete(f"{decision.match_id}/{decision.role}", view)
        index = bot.choose(decision, view)
    except Exception as exc:  # noqa: BLE001 - the bot's own bug is the answer
        traceback.print_exc(file=sys.stderr)
        return {"error": f"{type(exc).__name__}: {exc} ({_where(exc)})"[:300]}
    if type(index) is not int:
        return {"error": f"answered {index!r}, not an option index"[:300]}
    return {"index": index}


def probe(distribution: str, requests: list[dict[str, Any]]) -> dict[str, Any]:
    """What the module prints (see the module docstring)."""
    from .plugins import load_registry

    registry = load_registry()
    wanted = _canonical(distribution)
    mine = [spec for spec in registry.bots.values() if _canonical(spec.distribution) == wanted]
    problems = [p for p in registry.problems if _canonical(p.split(" ", 1)[0]) == wanted]
    answers: dict[str, dict[str, Any]] = {}
    for spec in mine:
        answers[spec.name] = {r["game"]: _ask(spec, r) for r in requests if spec.plays(r["game"])}
    return {
        "bots": [{"name": spec.name, "games": list(spec.games)} for spec in mine],
        "problems": problems,
        "answers": answers,
    }


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m standoff.server.submission_probe DISTRIBUTION", file=sys.stderr)
        return 2
    # Our answer goes to the real stdout; anything the bot prints goes to stderr (the log).
    out: TextIO = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    requests = [json.loads(line) for line in sys.stdin if line.strip()]
    out.write(json.dumps(probe(argv[0], requests)) + "\n")
    out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
