"""How `standoff replay` ends (issue 44): the fault policy only when a fault happened, and
``--step`` stopped by Ctrl-C (exit 130, one line, no traceback) or by the end of input (exit 0).
"""

from __future__ import annotations

import os
import re
import pty
import select
import shutil
import signal
import sys
import time
from pathlib import Path

import pytest

from standoff.server.core.record import Record
from standoff.server.games import get_game
from standoff.server.local import bot_seed, play_match
from standoff.server.plugins import load_registry
from standoff.server.records import write_record
from standoff.server.review import interactive, replay_lines

GAME = get_game("schotten-totten")
ROLES = ("p1", "p2")


@pytest.fixture(scope="module")
def record() -> Record:
    """A match without faults whose outcome line names its fault policy, as `standoff play`'s do."""
    registry = load_registry(entry_points=False)
    bots = {role: registry.make_bot("greedy", bot_seed(7, role), GAME.name) for role in ROLES}
    played = play_match(GAME, GAME.rules(None, {}), bots, 7, bot_names={r: "greedy" for r in ROLES}).record
    return Record(played.header, played.moves, dict(played.footer, fault_policy="forfeit"))


def test_no_fault_policy_line_without_faults(record):
    assert record.footer["faults"] == {}
    for seat in (None, "p1", "p2"):
        text = "\n".join(replay_lines(GAME, record, as_role=seat, quiet=True))
        assert " wins by " in text or "draw by " in text
        assert "fault" not in text, seat


def test_the_fault_policy_is_shown_with_the_faults(record):
    footer = dict(record.footer, faults={"p2": {"timeout": 1}})
    text = "\n".join(replay_lines(GAME, Record(record.header, record.moves, footer), quiet=True))
    assert text.splitlines()[-2:] == ["faults: p2 timeout x1", "fault policy: forfeit"]


def test_interactive_ends_on_ctrl_c_and_on_the_end_of_input(record):
    import io

    def interrupted(prompt):
        raise KeyboardInterrupt

    def ended(prompt):
        raise EOFError

    with pytest.raises(KeyboardInterrupt):  # the command turns it into exit 130
        interactive(GAME, record, "p1", input=interrupted, output=io.StringIO())
    assert interactive(GAME, record, "p1", input=ended, output=io.StringIO()) == 0


def _standoff() -> str:
    script = Path(sys.executable).with_name("standoff")
    return str(script) if script.exists() else shutil.which("standoff") or "standoff"


def _step_on_a_terminal(path: Path, keys: bytes) -> tuple[int, str]:
    """Run ``standoff replay PATH --step`` on a pseudo-terminal, type ``keys`` once the first
    prompt shows, and return the exit status and everything the terminal showed."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, on the terminal
        os.execv(_standoff(), ["standoff", "replay", str(path), "--step", "--as", "p1"])
    shown = b""

    def read_until(predicate, seconds: float) -> None:
        nonlocal shown
        end = time.monotonic() + seconds
        while not predicate() and time.monotonic() < end:
            if select.select([fd], [], [], 0.2)[0]:
                try:
                    data = os.read(fd, 65536)
                except OSError:  # the child closed the terminal
                    return
                if not data:
                    return
                shown += data

    status: list[int] = []

    def exited() -> bool:
        if not status:
            reaped, code = os.waitpid(pid, os.WNOHANG)
            if reaped == pid:
                status.append(os.waitstatus_to_exitcode(code))
        return bool(status)

    try:
        read_until(lambda: b"review> " in shown, 120)
        assert b"review> " in shown, shown[-500:]
        # CPython writes input()'s prompt, then reads: a Ctrl-C in between is only handled when
        # the read returns (a person is never that fast; a test typing at the prompt is).
        time.sleep(0.5)
        os.write(fd, keys)
        read_until(lambda: False, 60)  # until the terminal closes: the child has exited
        end = time.monotonic() + 60
        while not exited() and time.monotonic() < end:
            time.sleep(0.05)
    finally:
        if not exited():
            os.kill(pid, signal.SIGKILL)  # never leave it waiting on the terminal
            os.waitpid(pid, 0)
        os.close(fd)
    assert status, f"still running 60 s after {keys!r}: {shown[-300:]!r}"
    return status[0], shown.decode("utf-8", "replace")


@pytest.mark.parametrize(("keys", "status", "ending"), [
    (b"\x03", 130, "review> ^C\r\nstandoff: interrupted\r\n"),  # Ctrl-C
    (b"\x04", 0, "review> \r\n"),  # Ctrl-D: the end of input quits, like q
    (b"n\r\x04", 0, "review> \r\n"),
])
def test_step_on_a_terminal_ends_cleanly(tmp_path, record, keys, status, ending):
    path = tmp_path / "st.jsonl"
    write_record(path, record)
    code, shown = _step_on_a_terminal(path, keys)
    assert "Traceback" not in shown
    assert (code, shown[-len(ending):]) == (status, ending), shown[-300:]


def test_the_final_position_says_the_match_is_over(record):
    """Not "p1 to move" after the last decision: nobody is to move any more."""
    for seat, who in ((None, "everything"), ("p1", "as seen by p1"), ("p2", "as seen by p2")):
        lines = list(replay_lines(GAME, record, as_role=seat))
        final = lines[lines.index("final position:") + 1].splitlines()[0].strip()
        assert re.fullmatch(rf"turn \d+, the match is over - {who}", final), final
