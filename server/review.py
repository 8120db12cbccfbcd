"""Reviewing a recorded match: per-seat and omniscient replays, text boards, interactive stepping.

``standoff replay RECORD [--as ROLE | --omniscient] [--from N] [--step] [--quiet] [--keys]`` runs
:func:`run_replay`. Everything here is built on :func:`review`, one pass over the record that
yields a :class:`Frame` per decision:

* **per seat** (``as_role``): the board is rendered from ``game.view(state, role)`` taken when
  the decision was asked, and *only* from it; the chosen option is shown as that seat saw it (a
  draw by the other seat reads ``deck:troops``); prompts and options only for the seat's own
  decisions. The state itself is never rendered.
* **omniscient**: the whole table (every hand), prompts and options of every player decision,
  and the real keys of chance decisions.

Text boards are the game's own: the ``seat_board`` and ``state_board`` of the
:class:`~standoff.sdk.GameSpec` it was registered with (the plugin registry, looked up by the
record's game name; built-in games included), else generic ones (:func:`~standoff.server.boards.
generic_board`). :func:`register_renderer` overrides them in this process (experiments, tests).

API
===

* :func:`render_view` — board text of one view dict (what a seat sees).
* :func:`render_state` — omniscient board text of a state.
* :func:`review` — the replayed :class:`Review` (frames, final board, outcome, log).
* :func:`replay_lines` — the plain-text replay, line by line.
* :func:`interactive` — a small REPL: Enter/``n`` next, ``b`` back, ``j N`` jump, ``q`` quit.
* :func:`run_replay` — the ``standoff replay`` command (argparse namespace in, exit status out).

User errors (unknown role, ``--from`` out of range, unreadable record, both ``--as`` and
``--omniscient``) raise :class:`ValueError` with one line; records that do not replay raise
:class:`~standoff.server.core.record.ReplayError` (also a ``ValueError``).
"""

from __future__ import annotations

import builtins
import json
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from .specs import GameSpec
from .boards import WIDTH, generic_board
from .core.game import CHANCE, Game, Outcome, RulesError
from .core.record import Record, ReplayError, replay, replay_steps, start_state
from .plugins import PluginError, find_game_spec, game_spec
from .review_story import story_lines, story_of, story_so_far
from .story import Story, history_base

__all__ = [
    "HISTORY_CAP",
    "BoardRenderer",
    "Frame",
    "Review",
    "game_for",
    "interactive",
    "register_renderer",
    "render_state",
    "render_view",
    "replay_lines",
    "review",
    "run_replay",
    "screen",
    "start_note",
]

#: History entries kept in a frame's view (the recent moves shown under a board).
HISTORY_CAP = 8

_WIDTH = WIDTH  # text is wrapped for a terminal this wide


# ---------------------------------------------------------------------------------------------
# Boards: the game's registered ones
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardRenderer:
    """Text boards that override a game's registered ones (:func:`register_renderer`).

    ``seat(view)``: the board a seat sees, from its view dict alone. ``omniscient(game, state)``
    (optional): the whole table; without it :func:`render_state` uses the game's own.
    """

    seat: Callable[[Mapping[str, Any]], str]
    omniscient: Callable[[Any, Any], str] | None = None


#: Overrides of games' registered boards, by game name.
RENDERERS: dict[str, BoardRenderer] = {}


def register_renderer(
    game: str,
    seat: Callable[[Mapping[str, Any]], str],
    omniscient: Callable[[Any, Any], str] | None = None,
) -> None:
    """Draw the boards of ``game`` (a game name) with these functions instead of the game's
    registered ones, in this process. A later call replaces an earlier one."""
    RENDERERS[game] = BoardRenderer(seat, omniscient)


def _spec(game: Game | str) -> GameSpec | None:
    """The registered spec of ``game`` (a name or a game object); for an unregistered game
    object, its bare spec (generic codec, its ``render`` if it has one); else ``None``."""
    name = game if isinstance(game, str) else getattr(game, "name", "")
    spec = find_game_spec(name) if name else None
    if spec is None and not isinstance(game, str):
        spec = GameSpec.of(game)
    return spec


def render_view(game: Game | str, view: Mapping[str, Any]) -> str:
    """The board ``view`` shows (one seat's view dict, as ``game.view`` returns it), as text:
    the game's ``seat_board``, else a generic listing of the view. A ``history`` in the view is
    shown as recent moves (trim it first to show fewer)."""
    renderer = RENDERERS.get(game if isinstance(game, str) else getattr(game, "name", ""))
    if renderer is not None:
        return renderer.seat(view)
    spec = _spec(game)
    if spec is not None and spec.seat_board is not None:
        return spec.seat_board(view)
    return generic_board(view)


def render_state(game: Game, state: Any) -> str:
    """The whole table of ``state`` (every hand), as text: the game's ``state_board``, else
    every seat's board."""
    renderer = RENDERERS.get(game.name)
    if renderer is not None and renderer.omniscient is not None:
        return renderer.omniscient(game, state)
    spec = _spec(game)
    if spec is not None and spec.state_board is not None:
        return spec.state_board(state)
    parts = []
    for role in state.rules.roles:
        parts.append(f"-- as {role} --")
        parts.append(render_view(game, game.view(state, role)))
    return "\n".join(parts)


# ---------------------------------------------------------------------------------------------
# Replaying into frames
# ---------------------------------------------------------------------------------------------


@dataclass
class Frame:
    """One decision of the record, as the viewer (a seat, or omniscient) saw it.

    ``board``: the table when the decision was asked (per seat: rendered from that seat's view
    only). ``key``/``label``: the option chosen, as the viewer saw it. ``prompt``/``options``/
    ``index``: only for the viewer's own decisions (every player decision when omniscient).
    ``move``: the record's decision line (timings, faults).
    """

    number: int
    role: str
    step: str
    key: str
    label: str | None
    own: bool
    prompt: str | None
    options: tuple[str, ...] | None
    index: int | None
    move: dict[str, Any]
    view: dict[str, Any] | None = None  # per seat: the view when the decision was asked
    labels: tuple[str | None, ...] | None = None  # the options' labels, beside ``options``
    _board: str | None = field(default=None, repr=False)
    _game: Any = field(default=None, repr=False)

    @property
    def board(self) -> str:
        if self._board is None:
            self._board = render_view(self._game, self.view or {})
        return self._board

    @property
    def chance(self) -> bool:
        return self.role == CHANCE


@dataclass
class Review:
    """A replayed record as one viewer saw it."""

    game: Any
    record: Record
    roles: tuple[str, ...]
    as_role: str | None  # None: omniscient
    frames: list[Frame]
    final_board: str
    final_view: dict[str, Any] | None
    outcome: Outcome | None
    #: the whole history as the viewer saw it: [number, role, step, key] per decision
    log: list[list[Any]]

    @property
    def header(self) -> dict[str, Any]:
        return self.record.header

    @property
    def footer(self) -> dict[str, Any] | None:
        return self.record.footer


def game_for(name: str | None) -> Game:
    """The game a record names, from the plugin registry (built-in games included). Raises
    :class:`ValueError` (one line) for an unknown game."""
    try:
        return game_spec(str(name)).game
    except PluginError as exc:
        raise ValueError(str(exc.args[0] if exc.args else exc)) from None


def roles_of(game: Game, record: Record) -> tuple[str, ...]:
    header = record.header
    try:
        return tuple(game.rules(header.get("ruleset"), header.get("options") or {}).roles)
    except RulesError as exc:
        raise ReplayError(f"record header: {exc}") from None


def check_role(game: Game, record: Record, as_role: str | None) -> tuple[str, ...]:
    """The match's roles; :class:`ValueError` if ``as_role`` is not one of them."""
    roles = roles_of(game, record)
    if as_role is not None and as_role not in roles:
        raise ValueError(f"--as {as_role!r}: not a role of this match (roles: {', '.join(roles)})")
    return roles


def review(
    game: Game,
    record: Record,
    *,
    as_role: str | None = None,
    history: int = HISTORY_CAP,
    boards: bool = True,
) -> Review:
    """Replay ``record`` once and return every decision as ``as_role`` saw it (``None``:
    omniscient). Per-seat frames are built from ``game.view(state, as_role)`` alone. ``history``:
    how many recent history entries each frame's view keeps. ``boards=False`` skips the
    omniscient boards (per-seat boards are rendered lazily anyway)."""
    roles = check_role(game, record, as_role)
    header = record.header
    rules = game.rules(header.get("ruleset"), header.get("options") or {})
    initial = start_state(game, rules, header)
    seat = as_role
    base = history_base(initial)  # a match from a position: its history numbers go on from there

    def seat_view(state: Any, number: int) -> dict[str, Any]:
        # at least the last entry: it tells how this seat saw the choice just made
        return game.view(state, seat, max(0, number - max(history, 1)))

    before_view = game.view(initial, seat) if seat is not None else None
    before_board = render_state(game, initial) if seat is None and boards else None
    frames: list[Frame] = []
    state = initial
    for step in replay_steps(game, record):
        state = step.state
        decision = step.decision
        move = record.moves[step.number - 1]
        if seat is None:
            own = decision.role != CHANCE
            key, label = step.option.key, step.option.label
            after_view = None
        else:
            own = decision.role == seat
            after_view = seat_view(state, base + step.number)
            # The choice as this seat saw it (redacted when hidden from it); never the record's key.
            key = _own_entry_key(after_view["history"], base + step.number, decision.role, decision.step)
            label = step.option.label if own or key == step.option.key else None
            if history < 1:
                after_view["history"] = []
        frames.append(
            Frame(
                number=step.number,
                role=decision.role,
                step=decision.step,
                key=key,
                label=label,
                own=own,
                prompt=decision.prompt if own else None,
                options=tuple(o.key for o in decision.options) if own else None,
                labels=tuple(o.label for o in decision.options) if own else None,
                index=step.index if own else None,
                move=move,
                view=before_view,
                _board=before_board,
                _game=game,
            )
        )
        if seat is None:
            before_board = render_state(game, state) if boards else None
        else:
            before_view = after_view
    if seat is None:
        log = [[m.get("n", i), m.get("role"), m.get("step"), m.get("key")] for i, m in enumerate(record.moves, 1)]
        final_board = before_board if before_board is not None else (render_state(game, state) if boards else "")
        final_view = None
    else:
        log = [list(e) for e in game.view(state, seat)["history"]]
        final_view = before_view
        final_board = render_view(game, final_view or {})
    return Review(game, record, roles, seat, frames, final_board, final_view, game.outcome(state), log)


def _own_entry_key(history: Iterable[Any], number: int, role: str, step: str) -> str:
    """The key of decision ``number``'s own history entry, as the view redacted it; ``"?"`` if
    the view has none. A decision can be followed by automatic entries with the same number (a
    headline's reveals and event, a coup's result): those are consequences, not the choice, so
    the *first* entry of that number, role and step is the decision's own."""
    for entry in history:
        if entry[0] == number and entry[1] == role and entry[2] == step:
            return entry[3]
    return "?"


# ---------------------------------------------------------------------------------------------
# Text output
# ---------------------------------------------------------------------------------------------


def _timing(move: Mapping[str, Any], role: str) -> str:
    parts = []
    if role != CHANCE:
        for name, label in (("think_ms", "think"), ("elapsed_ms", "elapsed"), ("rtt_ms", "rtt")):
            value = move.get(name)
            if value is not None:
                parts.append(f"{label} {value:g} ms" if isinstance(value, (int, float)) else f"{label} {value}")
    if move.get("fault"):
        text = f"FAULT {move['fault']}"
        if move.get("substituted"):
            text += ", substituted at random"
        parts.append(text)
    elif move.get("substituted"):
        parts.append("substituted at random")
    return f"  ({'; '.join(parts)})" if parts else ""


def decision_line(frame: Frame) -> str:
    """``[16] p1 play -> card:red-5  (think 12 ms)``: one line per decision."""
    chosen = frame.key
    label = frame.label
    if label and frame.own and not frame.chance and not _same(label, frame.key):
        chosen = label if label.startswith(frame.key + " ") else f"{chosen} ({label})"
    return f"[{frame.number}] {frame.role} {frame.step} -> {chosen}{_timing(frame.move, frame.role)}"


def _same(label: str, key: str) -> bool:
    """Whether a label only repeats its key (``red-5`` for ``card:red-5``, ``flag 4``)."""
    return label == key or key.endswith(":" + label) or label.replace(" ", ":") == key


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.splitlines())


def _options_lines(frame: Frame) -> list[str]:
    if not frame.options:
        return []
    items = [f"[{k}]" if i == frame.index else k for i, k in enumerate(frame.options)]
    return textwrap.wrap(
        " ".join(items),
        _WIDTH,
        initial_indent=f"    options ({len(items)}): ",
        subsequent_indent=" " * 8,
        break_on_hyphens=False,
    )


def _decision_block(frame: Frame, *, board: bool) -> list[str]:
    lines = [decision_line(frame)]
    if board and frame.own and not frame.chance:
        lines.append(_indent(_strip_history_board(frame)))
        if frame.prompt:
            lines.append(f"    prompt: {frame.prompt}")
        lines += _options_lines(frame)
    return lines


def _strip_history_board(frame: Frame) -> str:
    """The frame's board without the recent-history lines (the replay prints every move)."""
    if frame.view is not None and frame.view.get("history"):
        view = dict(frame.view)
        view["history"] = []
        return render_view(frame._game, view)
    return frame.board


#: Fields of a position (docs/positions.md) that say where in a match it is, and how a title
#: names them: the turn, the round within it, whose turn it is.
_WHERE = (("turn", "turn {}"), ("action_round", "action round {}"), ("phasing", "{} phasing"),
          ("to_move", "{} to move"))


def start_note(header: Mapping[str, Any]) -> str | None:
    """``from a position (turn 4, action round 6, ussr phasing)`` for a record whose match started
    from a position (its header's ``position``: a tournament's start position, ``standoff play
    --position``), with where in the match it is as the position says; ``None`` for one dealt
    from the start."""
    position = header.get("position")
    if not isinstance(position, Mapping):
        return None
    where = [text.format(position[key]) for key, text in _WHERE
             if isinstance(position.get(key), (int, str)) and not isinstance(position.get(key), bool)]
    return "from a position" + (f" ({', '.join(where)})" if where else "")


def _title(review_: Review) -> list[str]:
    header = review_.header
    seats = " vs ".join(f"{role} {bot}" for role, bot in (header.get("roles") or {}).items())
    match = f", match {header['match_id']}" if header.get("match_id") else ""
    line = f"{header.get('game')} ({header.get('ruleset')}) seed {header.get('seed')}{match}: {seats}"
    if (note := start_note(header)) is not None:
        line += f", {note}"
    if review_.as_role is None:
        who = "omniscient: every hand is shown"
    else:
        bot = (header.get("roles") or {}).get(review_.as_role)
        who = f"as seen by {review_.as_role}" + (f" ({bot})" if bot else "") + ": only what that seat saw"
    return [line, who]


def outcome_lines(review_: Review) -> list[str]:
    """How the match ended, the faults and the fault policy that handled them (none without
    faults). Raises :class:`ReplayError` if the
    replayed outcome contradicts the record's outcome line."""
    outcome = review_.outcome
    footer = review_.footer or {}
    lines = []
    if outcome is not None:
        who = f"{outcome.winner} wins" if outcome.winner else "draw"
        lines.append(f"{who} by {outcome.termination}: {outcome.reason}")
        if footer and (footer.get("winner"), footer.get("termination")) != (outcome.winner, outcome.termination):
            raise ReplayError("the replayed outcome differs from the record's outcome line")
    elif footer:
        winner = footer.get("winner")
        lines.append(
            f"stopped by the referee: {footer.get('termination')}: {footer.get('reason')}"
            + (f" ({winner} wins)" if winner else "")
        )
    else:
        lines.append("the record ends before the match is over")
    faults = footer.get("faults") or {}
    if faults:
        text = "; ".join(
            f"{role} " + ", ".join(f"{kind} x{count}" for kind, count in kinds.items())
            for role, kinds in faults.items()
        )
        lines.append(f"faults: {text}")
        if footer.get("fault_policy"):  # the policy that handled them (no faults: nothing to say)
            lines.append(f"fault policy: {footer['fault_policy']}")
    return lines


def check_start(record: Record, start: int) -> int:
    total = len(record.moves)
    if not isinstance(start, int) or isinstance(start, bool):
        raise ValueError(f"--from {start!r}: expected a decision number")
    if total == 0:
        if start != 1:
            raise ValueError(f"--from {start}: the record has no decisions")
        return start
    if not 1 <= start <= total:
        raise ValueError(f"--from {start}: the record has decisions 1 to {total}")
    return start


def replay_lines(
    game: Game,
    record: Record,
    *,
    as_role: str | None = None,
    start: int = 1,
    quiet: bool = False,
    story: bool = False,
) -> Iterator[str]:
    """The replay as text, one line (or block) at a time: a title, then one ``[N] role step ->
    key`` line per decision from ``start`` on (each of the viewer's own decisions followed by
    the board it saw, the prompt and the options, unless ``quiet``), the final board and the
    outcome. With ``story`` (``standoff replay`` without ``--keys``), for a game with a teller:
    the match told as a story instead of the keys (chapters, sentences numbered by decision,
    :mod:`.review_story`). Per seat (``as_role``) everything comes from that seat's views."""
    check_start(record, start)
    told = story_of(game, record, as_role) if story else None
    if told is not None:
        yield from _story_replay(game, record, told, as_role=as_role, start=start, quiet=quiet)
        return
    result = review(game, record, as_role=as_role, boards=not quiet)
    yield from _title(result)
    if start > 1:
        yield f"(decisions 1 to {start - 1} replayed silently)"
    for frame in result.frames:
        if frame.number >= start:
            yield from _decision_block(frame, board=not quiet)
    if not quiet:
        yield "final position:"
        yield _indent(_final_board(result))
    yield from outcome_lines(result)


def _story_replay(game: Game, record: Record, story: Story, *, as_role: str | None, start: int,
                  quiet: bool) -> Iterator[str]:
    result = review(game, record, as_role=as_role, boards=False)
    yield from _title(result)
    if start > 1:
        yield f"(the story from decision {start} on)"
    yield ""
    yield from story_lines(story, start=start)
    yield ""
    if not quiet:
        yield "final position:"
        yield _indent(_final_board(result) if as_role is not None else render_state(game, replay(game, record)))
    yield from outcome_lines(result)


def _final_board(result: Review) -> str:
    if result.final_view is not None and result.final_view.get("history"):
        view = dict(result.final_view)
        view["history"] = []
        return render_view(result.game, view)
    return result.final_board


# ---------------------------------------------------------------------------------------------
# Interactive stepping
# ---------------------------------------------------------------------------------------------

HELP = "[Enter/n] next  [b] back  [j N] jump to decision N  [q] quit"


def screen(result: Review, position: int, story: Story | None = None) -> str:
    """The text shown at ``position``: 0-based frame index, or ``len(frames)`` for the end.
    With the match's ``story``: its last lines told so far under the board."""
    total = len(result.frames)
    who = "omniscient" if result.as_role is None else f"as {result.as_role}"
    if position >= total:
        lines = [f"== end of the record ({total} decisions) - {who} ==", _indent(result.final_board, "  ")]
        if story is not None:
            lines += ["story, the end:", *story_so_far(story, 1 << 62)]
        lines += outcome_lines(result)
        return "\n".join(lines)
    frame = result.frames[position]
    lines = [f"== decision {frame.number} of {total}: {frame.role} {frame.step} - {who} =="]
    lines.append(_indent(frame.board, "  "))
    if story is not None:
        lines += ["story so far:", *story_so_far(story, frame.number)]
    if frame.own and not frame.chance:
        if frame.prompt:
            lines.append(f"  prompt: {frame.prompt}")
        lines += [line[2:] for line in _options_lines(frame)]
    lines.append(decision_line(frame))
    return "\n".join(lines)


def _reader(source: Any, output: TextIO) -> Callable[[str], str]:
    """A ``prompt -> line`` function over ``input()``, a callable, or an iterable of lines;
    raises ``EOFError`` at the end."""
    if source is None:

        def ask(prompt: str) -> str:
            try:
                return builtins.input(prompt)
            except (EOFError, KeyboardInterrupt):
                output.write("\n")  # end the prompt's line (Ctrl-D, Ctrl-C): the shell's starts clean
                output.flush()
                raise

        return ask
    if callable(source):
        return source
    iterator = iter(source)

    def read(prompt: str) -> str:
        output.write(prompt)
        try:
            line = next(iterator)
        except StopIteration:
            output.write("\n")
            raise EOFError from None
        output.write(line.rstrip("\n") + "\n")
        return line

    return read


def interactive(
    game: Game,
    record: Record,
    as_role: str | None = None,
    start: int = 1,
    *,
    input: Callable[[str], str] | Iterable[str] | None = None,  # noqa: A002 - mirrors builtins
    output: TextIO | None = None,
    story: bool = False,
) -> int:
    """Step through ``record`` one decision at a time: Enter or ``n`` next, ``b`` back, ``j N``
    (or just ``N``) jump to decision N, ``q`` quit. ``input``: ``None`` (the terminal), a
    ``prompt -> line`` callable, or an iterable of lines (tests); the end of input quits. With
    ``story``, each screen ends with the story told so far (a game with a teller). Returns 0;
    Ctrl-C raises :class:`KeyboardInterrupt` (the command's one line, exit 130)."""
    out = output if output is not None else sys.stdout
    check_start(record, start)
    result = review(game, record, as_role=as_role)
    told = story_of(game, record, as_role) if story else None
    total = len(result.frames)
    numbers = {frame.number: i for i, frame in enumerate(result.frames)}
    position = numbers.get(start, 0)
    read = _reader(input, out)
    clear = "\x1b[2J\x1b[H" if getattr(out, "isatty", lambda: False)() else ""
    title = "\n".join(_title(result)) + "\n"
    message = HELP
    while True:
        out.write(clear + title + screen(result, position, told) + "\n")
        if message:
            out.write(message + "\n")
        message = ""
        try:
            command = read("review> ").strip().lower()
        except EOFError:  # the end of input (Ctrl-D) quits, like q
            return 0
        if command in ("", "n", "next"):
            if position >= total:
                message = "end of the record: b to go back, q to quit"
            else:
                position += 1
        elif command in ("b", "back", "p", "prev"):
            if position == 0:
                message = "this is the first decision"
            else:
                position -= 1
        elif command in ("q", "quit", "exit"):
            return 0
        elif command in ("h", "help", "?"):
            message = HELP
        else:
            target = command[1:].strip() if command.startswith("j") else command
            if target in ("end", "$"):
                position = total
            elif target.isdigit() and int(target) in numbers:
                position = numbers[int(target)]
            elif target.isdigit():
                message = f"no decision {target}: the record has decisions 1 to {total}"
            else:
                message = f"unknown command {command!r}. {HELP}"


# ---------------------------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------------------------


def load(path: str) -> Record:
    from .records import read_record

    try:
        return read_record(path)
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror or exc}") from None


def position_text(game: Game, record: Record, number: int, *, notation: bool = False) -> str:
    """The position (docs/positions.md) at decision ``number`` of ``record`` (the state that asks
    it; ``len(moves) + 1``: the final state), as indented JSON or the game's text form."""
    from .positions import PositionError, to_position, write_notation

    last = len(record.moves) + 1
    if not 1 <= number <= last:
        raise ValueError(f"--position {number}: decisions are numbered 1 to {len(record.moves)} "
                         f"({last}: the final state)")
    header = record.header
    try:
        if number == 1:
            position = to_position(start_state(game, game.rules(header.get("ruleset"), header.get("options") or {}),
                                               header), game)
        else:
            # replay_steps updates one state in place: write it as soon as it is the one asked
            position = next(to_position(step.state, game) for step in replay_steps(game, record)
                            if step.number == number - 1)
        return write_notation(position).rstrip("\n") + "\n" if notation else json.dumps(position, indent=1) + "\n"
    except PositionError as exc:
        raise ValueError(str(exc)) from None


def run_replay(args: Any, *, stdout: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """``standoff replay``: ``args`` has ``record``, ``as_role``, ``omniscient``, ``start``,
    ``step``, ``quiet`` and ``keys`` (missing ones take their defaults). Without ``--as`` the replay is
    omniscient. ``--step`` steps interactively when stdin and stdout are terminals, and prints
    the plain replay otherwise."""
    out = stdout if stdout is not None else sys.stdout
    inp = stdin if stdin is not None else sys.stdin
    as_role = getattr(args, "as_role", None)
    omniscient = bool(getattr(args, "omniscient", False))
    start = getattr(args, "start", None)
    start = 1 if start is None else start
    if as_role is not None and omniscient:
        raise ValueError("--as and --omniscient are mutually exclusive: give one of them")
    record = load(args.record)
    game = game_for(record.header.get("game"))
    check_role(game, record, as_role)
    if getattr(args, "position", None) is not None:
        out.write(position_text(game, record, args.position, notation=bool(getattr(args, "notation", False))))
        return 0
    check_start(record, start)
    keys = bool(getattr(args, "keys", False))
    if getattr(args, "step", False):
        if inp.isatty() and out.isatty():
            return interactive(game, record, as_role, start, output=out, story=not keys)
        print("standoff: note: --step needs a terminal; printing the replay instead", file=sys.stderr)
    for line in replay_lines(game, record, as_role=as_role, start=start, quiet=bool(getattr(args, "quiet", False)),
                             story=not keys):
        out.write(line + "\n")
    return 0
