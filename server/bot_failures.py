"""A bot's own failure, named: which bot, which match, and where in the bot's code.

A bot that raises is the bot's fault, never the server's. Whoever runs it (the SDK's
:func:`~standoff.sdk.client.run`, so ``standoff bot run``; the referee's in-process seats;
``standoff play``) says so in one line, the same everywhere::

    bot 'raiser' (match 2cecda08ba46, p1) raised IndexError: Cannot choose from an empty sequence at kits/failing_bots.py:16

The place is the innermost frame of the traceback that lies in the bot's own code (the package
its class comes from), not in the standard library it called nor in standoff's code that called
it; it is written as Python finds the module (relative to its ``sys.path`` entry), so that a
record or a log names the file in the bot's distribution, not the machine's folders. The full
traceback goes to the log.
"""

from __future__ import annotations

import os
import sys
import sysconfig
import traceback
from pathlib import Path
from typing import Any

__all__ = ["BotFailed", "failure_line", "where"]

#: At most this much of an exception's message goes into the one line.
MESSAGE_CHARS = 200


class BotFailed(Exception):
    """The bot's own code raised (``choose``, ``start``, ``end``, or the factory making it):
    :func:`~standoff.sdk.client.run` stops with this, the bot's exception as ``__cause__``.
    ``str()`` is the one line (:func:`failure_line`); ``bot``, ``match_id``, ``role`` and
    ``location`` (``file:line``) say the same as fields."""

    def __init__(self, line: str, bot: str, match_id: str, role: str, location: str) -> None:
        super().__init__(line)
        self.bot, self.match_id, self.role, self.location = bot, match_id, role, location

    @classmethod
    def of(cls, exc: BaseException, bot: Any, match_id: str = "", role: str = "", *, name: str = "",
           when: str = "") -> BotFailed:
        """The failure ``exc`` of ``bot`` (a bot object, or None if it was never made) in a
        match; raise it ``from exc``."""
        name = name or str(getattr(bot, "name", "") or "bot")
        line = failure_line(exc, bot, name, match_id, role, when=when)
        return cls(line, name, match_id, role, where(exc, bot))


def failure_line(exc: BaseException, bot: Any, name: str, match_id: str = "", role: str = "", *,
                 when: str = "") -> str:
    """One line: ``bot NAME (match ID, ROLE) raised TYPE: MESSAGE [when ...] at FILE:LINE``
    (the match and role left out where there are none; ``when``, e.g. ``"when the match
    started"``)."""
    seat = ", ".join(x for x in (f"match {match_id}" if match_id else "", role) if x)
    message = " ".join(str(exc).split())
    if len(message) > MESSAGE_CHARS:
        message = message[: MESSAGE_CHARS - 3] + "..."
    what = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return (f"bot {name!r}" + (f" ({seat})" if seat else "") + f" raised {what}"
            + (f" {when}" if when else "") + f" at {where(exc, bot)}")


def where(exc: BaseException, bot: Any = None) -> str:
    """``file:line`` of the innermost frame of ``exc``'s traceback in ``bot``'s own code; else
    of the innermost frame outside standoff's machinery and the standard library; else of the
    innermost frame (``"?"`` without a traceback)."""
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return "?"
    own = _code_of(bot)
    machinery = _machinery()
    chosen = (_innermost(frames, lambda path: own is not None and _under(path, own))
              or _innermost(frames, lambda path: not any(_under(path, root) for root in machinery))
              or frames[-1])
    return f"{_shown(Path(os.path.abspath(chosen.filename)))}:{chosen.lineno}"


def _innermost(frames: Any, keep: Any) -> Any:
    for frame in reversed(frames):
        if keep(Path(frame.filename)):
            return frame
    return None


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _code_of(bot: Any) -> Path | None:
    """The bot's own code: the folder of the top-level package its class comes from (of
    ``standoff.bots`` for a built-in bot), or that module's file when it is a lone module."""
    if bot is None:
        return None
    parts = type(bot).__module__.split(".")
    top = sys.modules.get(".".join(parts[: 2 if parts[0] == "standoff" else 1]))
    file = getattr(top, "__file__", None)
    if not file or top.__name__ in ("standoff", "standoff.sdk", "standoff.server"):
        return None
    path = Path(file)
    return path.parent if path.name == "__init__.py" else path


def _machinery() -> list[Path]:
    """Where standoff's own machinery and the standard library live: a frame there is not the
    bot's line (a bot that calls ``random.choice([])`` failed on its own line)."""
    roots = [Path(p) for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}]
    for name in ("standoff.sdk", "standoff.server", "standoff.tournaments"):
        module = sys.modules.get(name)
        if getattr(module, "__file__", None):
            roots.append(Path(module.__file__).parent)
    return roots


def _shown(path: Path) -> str:
    """``path`` as Python finds the module: relative to the longest ``sys.path`` folder holding
    it (``kits/failing_bots.py``), or ``standoff/bots/...`` for standoff's own folders; else whole."""
    bases = [(Path(os.path.abspath(entry or ".")), "") for entry in sys.path]
    for name in ("bots", "sdk", "server", "tournaments"):
        module = sys.modules.get(f"standoff.{name}")
        if getattr(module, "__file__", None):
            bases.append((Path(module.__file__).parent, f"standoff/{name}/"))
    best = None
    for base, prefix in bases:
        if _under(path, base) and path != base and (best is None or len(base.parts) > len(best[0].parts)):
            best = (base, prefix)
    return f"{best[1]}{path.relative_to(best[0]).as_posix()}" if best else str(path)
