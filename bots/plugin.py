"""The built-in bots, as the default ``standoff`` plugin (registered before any installed one)."""

from __future__ import annotations

import sys

from ..sdk import BotSpec, hookimpl
from . import BUILTIN_BOTS


def _description(cls: type) -> str:
    """The class docstring's first line, else the module's (``"``name``: what it does"``)."""
    doc = cls.__doc__ or getattr(sys.modules.get(cls.__module__), "__doc__", None) or ""
    first = doc.strip().splitlines()[0].strip() if doc.strip() else ""
    prefix = f"``{getattr(cls, 'name', '')}``:"
    first = first.removeprefix(prefix).strip()
    return first[:1].upper() + first[1:]


@hookimpl
def standoff_bots() -> list[BotSpec]:
    """Every bot of :data:`standoff.bots.BUILTIN_BOTS`; trusted: they may run in-process."""
    return [
        BotSpec.from_class(cls, trusted=True, description=_description(cls))
        for cls in BUILTIN_BOTS.values()
    ]
