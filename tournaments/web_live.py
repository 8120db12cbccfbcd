"""A match in play as a spectator of the web face sees it (:mod:`.web`): public information only.

A :class:`LiveBoard` follows a match's record file as it is written (records are flushed line by
line: :class:`standoff.server.records.RecordWriter`), whichever process plays the match (the
server's referee, a host of a split referee, a tournament's worker), and replays it here, in the
serving process, one new line at a time (a torn last line waits for its end). What leaves is
:meth:`LiveBoard.snapshot`: the number of decisions played, whose decision is pending (role and
step, never its options: they would show a hand) and the *public* view of the table, the game's
own (``GameRL.public_view``, e.g. no card of any hand, a headline before its reveal, the
history's private entries redacted) or the generic one (what every seat sees alike):
:func:`standoff.sdk.rl_views.public_view`. The record itself (its header carries the seed, its
chance lines every draw) never leaves this module.

:class:`Changes` is how the web face's event streams learn that something moved: bumped by the
referee's observers (each decision of a match it plays, each match that ends) and by the web
face's own look at the record files of a tournament's workers.
"""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import trio

from ..sdk.rl_views import public_view
from ..server.boards import generic_board
from ..server.core.game import CHANCE
from ..server.core.record import ReplayError, start_state
from ..server.plugins import find_game_spec
from ..server.review import game_for, render_view
from ..server.story import Chapter, Narrator, public_entries, styled
from .html import html_board

__all__ = ["Changes", "LiveBoard", "spectator_view"]

#: How many of the latest history entries a snapshot's view carries (the live page's log).
RECENT = 40
#: How many of the latest story items (chapters and lines) a snapshot carries.
STORY_ITEMS = 60
#: Face-down card: how the boards draw a card whose face is not shown.
FACE_DOWN = "?"


class Changes:
    """A counter of changes with a way to wait for the next one (trio)."""

    def __init__(self) -> None:
        self.version = 0
        self._event = trio.Event()

    def bump(self, *_: Any) -> None:
        """Something changed (the referee's observer signature: ``(match_id, number)``)."""
        self.version += 1
        event, self._event = self._event, trio.Event()
        event.set()

    async def wait(self, seen: int, timeout: float) -> int:
        """The version once it is past ``seen``, or after ``timeout`` seconds."""
        if self.version == seen:
            event = self._event
            with trio.move_on_after(timeout):
                await event.wait()
        return self.version


def spectator_view(view: dict[str, Any]) -> dict[str, Any]:
    """A public view as a spectator's board draws it: the seat's own hand, emptied by the public
    view, drawn as that many face-down cards (``hand_size``: a count, or counts by kind)."""
    out = dict(view)
    size = out.get("hand_size")
    if out.get("hand") == [] and size is not None:
        count = sum(size.values()) if isinstance(size, dict) else size
        if isinstance(count, int) and 0 <= count <= 1000:
            out["hand"] = [FACE_DOWN] * count
    out.pop("history_from", None)
    return out


class LiveBoard:
    """The record file ``path`` of one match in play, replayed as it grows."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0  # bytes of the file read (complete lines only)
        self.header: dict[str, Any] | None = None
        self.game: Any = None
        self.rules: Any = None
        self.state: Any = None
        self.number = 0  # decision lines applied (chance included: the record's n)
        self.outcome: dict[str, Any] | None = None
        self.error: str | None = None
        self._spec: Any = None
        self._narrator: Narrator | None = None  # the game's teller, told from the public views

    def advance(self) -> bool:
        """Read and apply the lines written since the last call; whether anything changed. A
        record that does not replay stops here with :attr:`error` set (shown, never raised)."""
        if self.error is not None or self.outcome is not None:
            return False
        try:
            with open(self.path, "rb") as file:
                file.seek(self.offset)
                data = file.read()
        except FileNotFoundError:
            return False  # not begun yet (the header is written when play begins)
        except OSError as exc:
            self.error = f"cannot read the record: {exc.strerror or exc}"
            return True
        end = data.rfind(b"\n")
        if end < 0:
            return False  # nothing, or a line still being written
        self.offset += end + 1
        try:
            for raw in data[:end].split(b"\n"):
                if raw.strip():
                    self._take(json.loads(raw))
        except (ValueError, KeyError, TypeError, ReplayError) as exc:
            self.error = f"the record does not replay: {exc}"
        return True

    def _take(self, line: dict[str, Any]) -> None:
        kind = line.get("type")
        if kind == "header":
            self.header = line
            self.game = game_for(line.get("game"))
            self.rules = self.game.rules(line.get("ruleset"), line.get("options") or {})
            self.state = start_state(self.game, self.rules, line)
            spec = find_game_spec(self.game.name)
            self._spec = types.SimpleNamespace(game=self.game, roles=tuple(self.rules.roles),
                                               parts=getattr(spec, "rl", None))
            if spec is not None and spec.story is not None:
                try:
                    self._narrator = Narrator(spec.story(), self.state, self._story_view, public_entries)
                except Exception:  # noqa: BLE001 - as in _tell: no live story, the board goes on
                    self._narrator = None
        elif kind == "decision":
            if self.state is None:
                raise ReplayError("a decision before the header")
            decision = self.game.decision(self.state)
            if decision is None:
                raise ReplayError(f"decision {line.get('n')}: the match was already over")
            self.game.apply(self.state, decision.options[decision.index_of(line["key"])])
            self.number += 1
            self._tell()
        elif kind == "outcome":
            self.outcome = line

    def _story_view(self, state: Any) -> dict[str, Any]:
        """The public view as the game's teller reads a spectator's: the first seat's view made
        public, its own hand unknown (``None``: counted, not shown), no history."""
        seat = self.game.view(state, self._spec.roles[0], 1 << 62)
        view = dict(public_view(self._spec, state, seat))
        view.pop("history", None)
        view.pop("history_from", None)
        view["hand"] = None
        return view

    def _tell(self) -> None:
        if self._narrator is None:
            return
        try:
            self._narrator.step(self.state, self.number)
        except Exception:  # noqa: BLE001 - a teller's bug costs the live story, never the board
            self._narrator = None

    def story(self, last: int = STORY_ITEMS) -> list[list[Any]]:
        """The latest ``last`` items of the match's story as a spectator is told it (public views,
        the history's private entries redacted): ``["c", title, number]`` for a chapter,
        ``["l", number, text, kind, role, detail]`` for a line; [] for a game without a teller."""
        if self._narrator is None:
            return []
        items = self._narrator.items
        window = items[-last:]
        if window and not isinstance(window[0], Chapter):  # begin under the chapter it belongs to
            heading = next((i for i in reversed(items[: len(items) - len(window)]) if isinstance(i, Chapter)), None)
            window = ([heading] if heading is not None else []) + window
        out = []
        for item in window:
            if isinstance(item, Chapter):
                out.append(["c", item.title, item.number])
            else:
                out.append(["l", item.number, item.text, item.kind, item.role, list(item.detail)])
        return out

    @property
    def over(self) -> bool:
        return self.outcome is not None

    def snapshot(self) -> dict[str, Any]:
        """What a spectator may see now: ``n`` (decisions played, chance included), ``over``,
        ``outcome`` (once over: winner, termination, reason), ``pending`` (role and step of the
        decision asked, no options) and ``view`` (the public view, :func:`spectator_view`), or
        ``text`` instead for a game whose board is text only; ``panels`` (``HtmlBoard.panels``
        of that view) for a board that draws some; ``story`` (:meth:`story`) and
        ``story_kinds`` (the style of its kinds of line) for a game with a teller; ``error`` if the record does not replay."""
        out: dict[str, Any] = {"n": self.number, "over": self.over}
        if self.error is not None:
            out["error"] = self.error
        if self.outcome is not None:
            out["outcome"] = {key: self.outcome.get(key) for key in ("winner", "termination", "reason")}
        if self.state is None:
            return out
        game, state = self.game, self.state
        decision = None if self.over else game.decision(state)
        if decision is not None and decision.role != CHANCE:
            out["pending"] = {"role": decision.role, "step": decision.step}
        roles = self._spec.roles
        seat = game.view(state, roles[0], max(0, self.number - RECENT))
        view = public_view(self._spec, state, seat)
        out["view"] = spectator_view(view)
        story = self.story()
        if story and self._narrator is not None:
            out["story"] = story
            out["story_kinds"] = styled(self._narrator.kinds)
        board = html_board(game.name)
        if board is not None and board.panels is not None:  # drawn from the public view: public too
            out["panels"] = board.panels(out["view"])
        if not board:
            bare = {k: v for k, v in view.items() if k not in ("history", "history_from")}
            try:
                out["text"] = render_view(game, bare)
            except Exception:  # noqa: BLE001 - a seat board that needs a seat's own fields
                out["text"] = generic_board(bare)
        return out
