"""The sandbox's settings and refusals (issue 41 item 1): tournament config ``[sandbox]`` and
``unsandboxed``, ``standoff serve`` flags, the command it builds, and the one-line refusal of
an untrusted bot where bubblewrap is missing. None of these needs bubblewrap itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from standoff.server import sandbox as sandbox_module
from standoff.server.cli import build_parser, _sandbox
from standoff.server.plugins import load_registry
from standoff.server.sandbox import (
    INSIDE_SOCKET,
    Launch,
    Sandbox,
    SandboxLimits,
    backend_problem,
    runner_argv,
    sandboxed,
)
from standoff.tournaments.config import SANDBOX_DEFAULTS, ConfigError, parse_config

BASE = {"name": "t", "game": "schotten-totten", "entrants": ["greedy", "random"]}


@pytest.fixture(scope="module")
def registry():
    return load_registry(entry_points=False)


def test_config_defaults_match_the_sandbox(registry):
    config = parse_config(dict(BASE), source="t.toml", registry=registry)
    assert config.sandbox == SANDBOX_DEFAULTS and config.unsandboxed is False
    assert SandboxLimits(**{k: v for k, v in SANDBOX_DEFAULTS.items() if k != "uid_base"}) == SandboxLimits()
    assert SANDBOX_DEFAULTS["uid_base"] == sandbox_module.DEFAULT_UID_BASE


def test_config_sandbox_table_and_unsandboxed(registry):
    config = parse_config({**BASE, "sandbox": {"memory_mb": 512, "processes": 8}, "unsandboxed": True},
                          source="t.toml", registry=registry)
    assert config.sandbox["memory_mb"] == 512 and config.sandbox["processes"] == 8
    assert config.sandbox["tmp_mb"] == SANDBOX_DEFAULTS["tmp_mb"] and config.unsandboxed is True
    again = type(config).from_json(config.to_json(), registry=registry)
    assert again.sandbox == config.sandbox and again.unsandboxed


@pytest.mark.parametrize("data, message", [
    ({"sandbox": {"memory_mb": 0}}, "t.toml: sandbox.memory_mb: expected a whole number >= 1, got 0"),
    ({"sandbox": {"memroy_mb": 5}}, "t.toml: sandbox.memroy_mb: unknown key (did you mean 'memory_mb'?"),
    ({"sandbox": 5}, "t.toml: sandbox: expected a table ([sandbox]), got 5"),
    ({"unsandboxed": "yes"}, "t.toml: unsandboxed: expected true or false, got 'yes' (a string)"),
])
def test_config_errors_are_one_line(registry, data, message):
    with pytest.raises(ConfigError) as caught:
        parse_config({**BASE, **data}, source="t.toml", registry=registry)
    assert str(caught.value).startswith(message) and "\n" not in str(caught.value)


def test_serve_flags():
    args = build_parser().parse_args(["serve", "--sandbox-memory-mb", "300", "--sandbox-tmp-mb", "9",
                                      "--sandbox-uid-base", "2000000000"])
    found = _sandbox(args)
    assert found == Sandbox(enabled=True, limits=SandboxLimits(memory_mb=300, tmp_mb=9), uid_base=2_000_000_000)
    assert _sandbox(build_parser().parse_args(["serve", "--unsandboxed"])).enabled is False
    with pytest.raises(SystemExit):
        build_parser().parse_args(["serve", "--sandbox-processes", "0"])


def test_the_command_keeps_the_token_off_the_command_line(tmp_path):
    launch = Launch(Path("/usr/bin/python3"), runner_argv("demo"), (tmp_path,), (("PYTHONPATH", str(tmp_path)),))
    argv, env, options = sandboxed(launch, socket_dir=tmp_path, token="s3cret", limits=SandboxLimits(processes=7),
                                   slot=3, uid_base=1000)
    assert "s3cret" not in " ".join(argv) and env["STANDOFF_TOKEN"] == "s3cret"
    assert set(env) == {"PATH", "LANG", "HOME", "PYTHONPATH", "STANDOFF_TOKEN"}
    for flag in ("--unshare-net", "--unshare-pid", "--die-with-parent", "--new-session"):
        assert flag in argv
    assert argv[argv.index("--bind") + 1:argv.index("--bind") + 3] == [str(tmp_path / "referee.sock"), INSIDE_SOCKET]
    assert f"--ro-bind {tmp_path} {tmp_path}" in " ".join(argv)
    assert argv[-len(launch.argv_tail):] == list(launch.argv_tail)
    assert f"unix:{INSIDE_SOCKET}" in launch.argv_tail
    assert launch.at("127.0.0.1:5")[launch.at("127.0.0.1:5").index("--address") + 1] == "127.0.0.1:5"


def test_without_bubblewrap_an_untrusted_bot_is_refused_in_one_line(monkeypatch):
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name: None)
    sandbox_module._backend_problem.cache_clear()
    try:
        problem = backend_problem()
        assert problem is not None and "apt-get install bubblewrap" in problem and "\n" not in problem
        refusal = Sandbox().refusal("demo")
        assert refusal.startswith("bot 'demo' is an untrusted plugin and runs only in a sandbox: ")
        assert Sandbox(enabled=False).refusal("demo") is None  # --unsandboxed
    finally:
        sandbox_module._backend_problem.cache_clear()


def test_a_tournament_without_bubblewrap_is_refused_before_it_plays(monkeypatch, registry):
    from standoff.sdk.bot import Bot
    from standoff.server.plugins import BotSpec
    from standoff.tournaments.executors import RunError
    from standoff.tournaments.serving import tournament_sandbox

    class Untrusted(Bot):
        name = "untrusted-one"

        def choose(self, decision, view):
            return 0

    registry = load_registry(entry_points=False)
    registry.bots["untrusted-one"] = BotSpec.from_class(Untrusted, trusted=False)
    config = parse_config({**BASE, "entrants": ["greedy", "untrusted-one"]}, source="t.toml", registry=registry)
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name: None)
    sandbox_module._backend_problem.cache_clear()
    try:
        with pytest.raises(RunError, match=r"^t\.toml: bot 'untrusted-one' is an untrusted plugin .*apt-get install "
                                           r"bubblewrap.*--unsandboxed\)$"):
            tournament_sandbox(config, registry)
        unsandboxed = parse_config({**BASE, "entrants": ["greedy", "untrusted-one"], "unsandboxed": True},
                                   source="t.toml", registry=registry)
        assert tournament_sandbox(unsandboxed, registry).enabled is False
    finally:
        sandbox_module._backend_problem.cache_clear()
