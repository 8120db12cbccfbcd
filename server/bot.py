"""What a bot author subclasses.

A bot sees a match only through :meth:`Bot.choose`: the pending decision (its step, prompt and
ordered options) and the typed *view* of its seat, decoded from the wire; never the referee's
state. It answers with the index of an option. A bot is deterministic given its seed: use
``self.rng`` for every random choice.

A bot that catches its own internal error and falls back to a simpler answer says so with
:meth:`Bot.count_fallback`: it counts the fallback (``bot.fallbacks``, per match) and logs a
warning. Tournaments report the count of in-process bots per match; a remote bot's fallbacks
happen in its own process, out of the referee's sight.

    from standoff.sdk import Bot, run

    class First(Bot):
        name = "first"
        def choose(self, decision, view):
            return 0

    run(First(), "127.0.0.1:50051", token="...")
"""

from __future__ import annotations

import random
from typing import Any

import structlog

from .decisions import Decision, MatchInfo, MatchResult

log = structlog.get_logger("standoff.bots")


class Bot:
    """Base class of every bot, built-in or third-party.

    Subclasses set ``name`` and ``games`` (the games they play; empty means every game) and
    override :meth:`choose`. ``start`` and ``end`` are optional hooks. ``uses_view = False`` says
    the bot never reads its view: it gets ``None`` instead, in-process runners skip building
    views for it and the SDK's client skips decoding them. ``quick = True`` says :meth:`choose`
    answers within about a millisecond in any position: the referee then asks the bot in-process
    on its own thread instead of a worker thread (a thread's round trip costs ~0.2 ms); a quick
    bot that runs late is still a timeout, but the referee waits for it meanwhile, so leave it
    False for a bot that searches or may block.

    ``fallbacks`` counts the fallbacks taken in the current match after an internal error
    (:meth:`count_fallback`); ``start`` sets it to 0.
    """

    name: str = "bot"
    version: str = "0"
    games: tuple[str, ...] = ()
    uses_view: bool = True
    quick: bool = False
    #: fallbacks after an internal error in the current match (class default: subclasses that
    #: skip ``Bot.__init__`` still have one)
    fallbacks: int = 0
    #: the bot this one answers for, if it is a helper inside another bot (:meth:`adopt`)
    fallback_owner: Bot | None = None
    #: the match id that fallback warnings name when the decision has none (a simulated one)
    fallback_match: str = ""
    #: where this bot's fallbacks happen when not at the match's decisions (``"search"``: a
    #: helper that plays simulated positions), logged with each warning
    fallback_context: str = ""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def start(self, match: MatchInfo) -> None:
        """A match begins; ``match.role`` is this bot's seat. Reseeds ``self.rng`` from the
        match's bot seed so that a match is reproducible from its seed."""
        self.rng = random.Random(match.seed)
        self.fallbacks = 0
        self.fallback_match = match.match_id

    def choose(self, decision: Decision, view: Any) -> int:
        """Return the index of one of ``decision.options``."""
        raise TypeError(f"{type(self).__name__} must define choose(decision, view)")

    def end(self, result: MatchResult) -> None:
        """The match is over."""

    def plays(self, game: str) -> bool:
        return not self.games or game in self.games

    # -- fallbacks ------------------------------------------------------------------------------

    def count_fallback(self, error: BaseException | str, decision: Any, *, context: str = "") -> None:
        """Say that an internal error (``error``: the exception caught, or a description of an
        answer that could not be worked out) made this bot fall back to a simpler answer at
        ``decision``: adds one to ``fallbacks`` and logs a warning (logger ``standoff.bots``)
        with the bot, the match id, the step and the error's type and message. A helper bot
        (:meth:`adopt`) counts on, and logs as, the bot that adopted it. ``context`` says
        where, when that is not the match's own decision (``search``: inside a simulation)."""
        owner = self
        while owner.fallback_owner is not None:
            owner = owner.fallback_owner
        owner.fallbacks += 1
        fields: dict[str, Any] = {
            "bot": owner.name,
            "match": getattr(decision, "match_id", "") or owner.fallback_match,
            "step": getattr(decision, "step", "") or "",
            "error_type": type(error).__name__ if isinstance(error, BaseException) else "NoAnswer",
            "error": str(error),
            "fallbacks": owner.fallbacks,
        }
        if owner is not self:
            fields["helper"] = self.name
        context = context or self.fallback_context
        if context:
            fields["context"] = context
        log.warning("bot fell back after an internal error", **fields)

    def adopt(self, helper: Bot) -> Bot:
        """Make ``helper`` (a bot this one asks for answers) count its fallbacks on this bot;
        returns it."""
        helper.fallback_owner = self
        return helper
