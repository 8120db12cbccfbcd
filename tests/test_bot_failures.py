"""A failing bot is named, not the server (issue 41, item 5).

A third-party plugin bot (tests/kits/failing_bots.py, through $STANDOFF_PLUGINS) that raises in
``choose`` is its own ``crash`` fault, at once, whichever way it is played: on a server (its
runner, ``standoff bot run``, prints the traceback and one line and exits 3; the referee reads
that line when the runner exits, no grace window, no ``disconnect``), in a tournament (the same
referee; the run names it), and with ``standoff play --trust`` (in-process, under play's fault
policy: forfeit by default). The one line names the bot, the match and the bot's own file:line:
the innermost frame in the bot's code, not the standard library it called. Its traceback goes
to the match's log; "internal error ... please report it" is never said."""

from __future__ import annotations

import contextlib
import io
import json
import os
from pathlib import Path

import pytest

from standoff.server.logs import configure_logging

HERE = Path(__file__).parent
KIT = HERE / "kits" / "failing_bots.py"
#: The bot's own line that raised (the call into random.choice): what every path must name.
RAISER_LINE = next(n for n, line in enumerate(KIT.read_text().splitlines(), 1) if "RAISER_LINE" in line)
RAISED = "raised IndexError: Cannot choose from an empty sequence at "
WHERE = f"kits/failing_bots.py:{RAISER_LINE}"
GRACE_S = 20.0  # a disconnect would take this long; the crash is seen when the runner exits


@pytest.fixture
def plugins(monkeypatch):
    """The failing bots for this process and for the runners it starts."""
    monkeypatch.setenv("STANDOFF_PLUGINS", "kits.failing_bots")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH")])))


@pytest.fixture
def logs():
    stream = io.StringIO()
    configure_logging(json=True, level="warning", stream=stream)
    yield stream
    configure_logging(json=True, level="warning", stream=io.StringIO())


def _failures(logs: io.StringIO, match_id: str) -> list[dict]:
    entries = [json.loads(line) for line in logs.getvalue().splitlines() if line.startswith("{")]
    return [e for e in entries if e.get("event") == "bot failed" and e.get("match") == match_id]


@pytest.fixture(params=["sandboxed", "unsandboxed"])
def sandbox(request):
    """The runner in bubblewrap (the default), or a plain subprocess (``--unsandboxed``)."""
    from standoff.server.sandbox import Sandbox, backend_problem

    if request.param == "sandboxed" and backend_problem() is not None:
        pytest.skip(backend_problem())
    return Sandbox(enabled=request.param == "sandboxed")


def test_a_plugin_bot_that_raises_on_a_server_is_a_crash_at_once(plugins, logs, sandbox, tmp_path):
    from kits.server import ServerThread

    from standoff.server.plugins import load_registry

    registry = load_registry(entry_points=False)
    assert registry.bot("raiser").trusted is False  # played by a runner, in a process of its own
    server = ServerThread(tmp_path, grace_s=GRACE_S, registry=registry, sandbox=sandbox).start()
    try:
        response = server.start_match(["raiser", "random"], seed=3, wait=True, connect_timeout_ms=60_000)
        footer = json.loads(server.record(response.match_id).splitlines()[-1])
    finally:
        server.stop()
    result, match_id = response.summary.result, response.match_id
    assert (result.termination, result.winner) == ("forfeit", "p2")
    # A crash, not a disconnect after the grace window: seen when the runner exited.
    assert [(f.role, f.kind, f.count) for f in result.faults] == [("p1", "crash", 1)]
    line = f"bot 'raiser' (match {match_id}, p1) {RAISED}{WHERE}"
    assert result.reason == f"p1 (raiser) forfeits: {line}"
    assert footer["faults"] == {"p1": {"crash": 1}} and footer["reason"] == result.reason
    # The match's log: the one line and the bot's traceback (the runner's stderr), with the match id.
    (failure,) = _failures(logs, match_id)
    assert failure["level"] == "warning" and failure["detail"] == line and failure["status"] == 3
    trace = failure["exception"]
    assert trace.startswith("Traceback (most recent call last):") and "in _pick" in trace
    assert trace.rstrip().endswith(f"standoff: error: {line}")
    assert "internal error" not in logs.getvalue()


def test_a_plugin_bot_killed_on_a_server_is_a_crash_at_once(plugins, logs, sandbox, tmp_path):
    """A runner that dies without a word (SIGKILL: a sandbox limit, the OOM killer) is a crash
    too, named by how it ended."""
    from kits.server import ServerThread

    from standoff.server.plugins import load_registry

    server = ServerThread(tmp_path, grace_s=GRACE_S, registry=load_registry(entry_points=False),
                          sandbox=sandbox).start()
    try:
        response = server.start_match(["random", "vanisher"], seed=4, wait=True, connect_timeout_ms=60_000)
    finally:
        server.stop()
    result = response.summary.result
    assert (result.termination, result.winner) == ("forfeit", "p1")
    assert [(f.role, f.kind, f.count) for f in result.faults] == [("p2", "crash", 1)]
    assert result.reason.startswith(f"p2 (vanisher) forfeits: bot 'vanisher' (match {response.match_id}, p2): "
                                    "its runner "), result.reason
    assert _failures(logs, response.match_id)


def test_a_plugin_bot_that_raises_in_a_tournament_is_named(plugins, tmp_path):
    from standoff.server.plugins import load_registry
    from standoff.tournaments.config import load_config
    from standoff.tournaments.runner import run_tournament

    path = tmp_path / "crash.toml"
    path.write_text("\n".join([
        'name = "crash"', 'game = "schotten-totten"', f'output_dir = "{tmp_path / "runs"}"',
        'entrants = ["raiser", "random"]', "games_per_pairing = 2", "master_seed = 5",
    ]) + "\n")
    registry = load_registry(entry_points=False)
    progress = io.StringIO()
    summary = run_tournament(load_config(path, registry=registry), registry=registry, progress=progress)
    assert summary.complete and not summary.failed and len(summary.results) == 2
    for result in summary.results:
        role = next(role for role, bot in result.seats.items() if bot == "raiser")
        line = f"bot 'raiser' (match {result.match_id}, {role}) {RAISED}{WHERE}"
        assert (result.termination, result.faults) == ("forfeit", {role: {"crash": 1}})
        assert result.reason == f"{role} (raiser) forfeits: {line}"
        # The run names it as it happens: one line per failed match, the same line.
        assert f"{result.match_id}: {result.reason}\n" in progress.getvalue()
    assert "internal error" not in progress.getvalue()


def _play(*argv: str) -> tuple[int, str, str]:
    from standoff.tournaments.cli import main

    out, err = io.StringIO(), io.StringIO()
    configure_logging(json=False, level="warning", stream=err)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["play", "schotten-totten", "--seed", "3", "--trust", *argv])
    finally:
        configure_logging(json=True, level="warning", stream=io.StringIO())
    return code, out.getvalue(), err.getvalue()


def test_standoff_play_trust_a_raising_bot_forfeits_by_crash(plugins, tmp_path):
    record = tmp_path / "m.jsonl"
    code, out, err = _play("--bot", "raiser", "--bot", "random", "--record", str(record))
    assert code == 3  # the bot failed: not 0, and not 1 (an engine or referee error)
    line = f"bot 'raiser' (p1) {RAISED}{WHERE}"
    assert f"p2 (random) wins by forfeit: p1 (raiser) forfeits: {line}\n" in out
    footer = json.loads(record.read_text().splitlines()[-1])
    assert (footer["termination"], footer["winner"], footer["faults"]) == ("forfeit", "p2", {"p1": {"crash": 1}})
    assert footer["fault_policy"] == "forfeit" and "error_at" not in footer
    # The traceback on stderr, once; never "internal error", never a result-less "error".
    assert err.count("Traceback (most recent call last):") == 1 and "in _pick" in err
    assert "internal error" not in err and "no result" not in err


def test_standoff_play_trust_a_bad_index_is_illegal(plugins):
    code, out, err = _play("--bot", "random", "--bot", "liar")
    assert code == 3
    assert "p1 (random) wins by forfeit: p2 (liar) forfeits: answered " in out
    assert "faults: p2 (liar) illegal_choice x1\n" in out
    assert "Traceback" not in err and "error" not in err


def test_standoff_play_policy_random_substitutes_and_still_says_so(plugins):
    code, out, err = _play("--bot", "raiser", "--bot", "random", "--policy", "random")
    assert code == 3
    assert "forfeit" not in out and "faults: p1 (raiser) crash x1\n" in out
    assert f"bot 'raiser' (p1) {RAISED}{WHERE}" in err  # the log line, with its traceback


def test_standoff_play_refuses_an_unknown_policy(plugins):
    code, out, err = _play("--bot", "random", "--bot", "random", "--policy", "lenient")
    assert code == 2 and err.strip() == "standoff: error: unknown fault policy 'lenient' (choose from forfeit, random, retry)"
