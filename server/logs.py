"""Diagnostics logs: structlog JSON lines with bound ids (tournament, match, session, bot).

Logs are for people debugging a server; records are the truth of a match. Never mix the two.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

import structlog


class _Stderr:
    """Whatever ``sys.stderr`` is when a line is written (not the object it was at configuration:
    a replaced and closed stream must not break logging later)."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_logging(*, json: bool = True, level: str = "info", stream: TextIO | None = None) -> None:
    """JSON lines on stderr (or ``stream``) at ``level`` and above."""
    processors: list = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.format_exc_info,
    ]
    processors.append(structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False))
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelNamesMapping()[level.upper()]),
        logger_factory=structlog.PrintLoggerFactory(stream or _Stderr()),
        cache_logger_on_first_use=False,
    )
