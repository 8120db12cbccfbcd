"""Submitted bots (issue 41, docs/submissions.md): ``standoff submit`` builds a wheel, an sdist or a
project folder into a venv of its own, checks that its bot loads and answers one decision of each
game it claims, and registers it as NAME@VERSION; a broken one is rejected with one line and its
log kept, the registry unchanged. Packages are made on the spot (tests/kits/packages.py) and
installed with ``--no-index``: no network.

Most tests check unsandboxed (``unsandboxed=True``: the sandbox is not their point); the ones that
are about the sandbox are skipped where bubblewrap is missing. The ladder is
tests/tournaments/test_submission_ladder.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from kits import packages as P
from standoff.tournaments.cli import main
from standoff.server.plugins import load_registry
from standoff.server.sandbox import backend_problem
from standoff.server.submissions import Rejected, SubmissionError, load, lookup, resolve, retire, submit

REGISTRY = load_registry()


def _wheel(folder: Path, name: str, *, body: str | None = None, imports: str = "", requires=(),
           games=("schotten-totten",), module: str | None = None) -> Path:
    """A wheel of distribution ``{name}-bot`` with one bot ``name`` (its plugin module
    ``module``, default the bot module of :func:`kits.packages.bot_module`)."""
    package = f"{name}_bot"
    source = module if module is not None else P.bot_module(
        name, games, imports=imports, **({"body": body} if body is not None else {}))
    return P.write_wheel(folder / "dist", f"{name}-bot", "0.1", P.bot_files(package, source), requires,
                         P.bot_entry_points(package))


def _clashlib(folder: Path) -> Path:
    """Wheels of ``clashlib`` 1.0 and 2.0 (a module saying its version) in ``folder/wheels``."""
    for version in ("1.0", "2.0"):
        P.write_wheel(folder / "wheels", "clashlib", version, {"clashlib/__init__.py": f"VERSION = {version!r}\n"})
    return folder / "wheels"


def _submit(path: Path, name: str, folder: Path, **kwargs):
    kwargs.setdefault("unsandboxed", True)
    return submit(path, name, folder, registry=REGISTRY, no_index=True, **kwargs)


def _python(submission, code: str) -> str:
    done = subprocess.run([str(submission.python), "-c", code], capture_output=True, text=True, check=True,
                          env={"PATH": "/usr/bin:/bin"})
    return done.stdout.strip()


# -- submitting ---------------------------------------------------------------------------------------


def test_a_wheel_is_built_into_a_venv_of_its_own_and_registered(tmp_path):
    folder = tmp_path / "subs"
    first = _submit(_wheel(tmp_path, "alice"), "alice", folder)
    assert (first.entrant, first.bot, first.games, first.distribution) == ("alice@1", "alice", ("schotten-totten",),
                                                                           "alice-bot")
    assert first.digest.startswith("sha256:") and first.log_path.is_file()
    assert [s.entrant for s in load(folder)] == ["alice@1"]
    assert json.loads((folder / "registry.json").read_text())["submissions"][0]["bot"] == "alice"
    # Its Python imports its own package from its venv, and the SDK, grpc and protobuf from the
    # server's environment (not installed again into the venv).
    where = _python(first, "import alice_bot, standoff.sdk, grpc, google.protobuf as p; "
                           "print(alice_bot.__file__, standoff.sdk.__file__, grpc.__file__, p.__file__, sep='|')")
    own, sdk, grpc_, protobuf = where.split("|")
    assert Path(own).is_relative_to(first.venv.resolve()) or Path(own).is_relative_to(first.venv)
    for path in (sdk, grpc_, protobuf):
        assert not Path(path).is_relative_to(first.venv)
    assert not list(first.venv.glob("lib/python*/site-packages/grpc"))
    # The next version of the same name is @2; both stay.
    second = _submit(_wheel(tmp_path / "v2", "alice"), "alice", folder)
    assert second.entrant == "alice@2"
    assert [s.entrant for s in load(folder)] == ["alice@1", "alice@2"]
    assert resolve(folder, "alice@2", "schotten-totten") == second


def test_a_project_folder_and_an_sdist_are_built(tmp_path):
    folder = tmp_path / "subs"
    project = P.write_project(tmp_path / "proj", "bob-bot", "0.1", "bob_bot", P.bot_module("bob"))
    from_folder = _submit(project, "bob", folder)
    sdist = P.write_sdist(project, tmp_path / "sdist")
    assert sdist.name == "bob_bot-0.1.tar.gz"
    from_sdist = _submit(sdist, "bob", folder)
    assert [(s.entrant, s.source, s.distribution) for s in (from_folder, from_sdist)] == [
        ("bob@1", "proj", "bob-bot"), ("bob@2", "bob_bot-0.1.tar.gz", "bob-bot")]
    assert _python(from_sdist, "import bob_bot; print(bob_bot.SubmittedBot.name)") == "bob"


def test_two_submissions_keep_conflicting_versions_of_a_dependency(tmp_path):
    wheels = _clashlib(tmp_path)
    folder = tmp_path / "subs"
    made = {}
    for name, version in (("alice", "1.0"), ("bob", "2.0")):
        # The bot checks, at its decision, the version it imports: the check would reject it.
        body = f"assert clashlib.VERSION == {version!r}, clashlib.VERSION\nreturn 0"
        wheel = _wheel(tmp_path / name, name, imports="import clashlib", body=body, requires=[f"clashlib=={version}"])
        made[name] = _submit(wheel, name, folder, find_links=[str(wheels)])
    assert _python(made["alice"], "import clashlib; print(clashlib.VERSION)") == "1.0"
    assert _python(made["bob"], "import clashlib; print(clashlib.VERSION)") == "2.0"


# -- rejections -------------------------------------------------------------------------------------------


def _broken(tmp_path: Path, how: str) -> Path:
    """A package that fails in one way."""
    if how == "build":  # its build backend raises
        project = P.write_project(tmp_path / "broken", "broken-bot", "0.1", "broken_bot", P.bot_module("broken"))
        (project / "tinybackend.py").write_text("def build_wheel(*a, **k):\n    raise RuntimeError('no wheel today')\n")
        return project
    if how == "dependency":  # it needs what no index has
        return _wheel(tmp_path, "broken", requires=["nosuchlib==9.9"])
    if how == "import":  # its plugin module fails to import
        return _wheel(tmp_path, "broken", module="import nosuchmodule_at_all\n")
    if how == "raises":  # its bot raises on the check's decision
        return _wheel(tmp_path, "broken", body="return 1 // 0")
    if how == "illegal":  # its bot answers an index that is no option
        return _wheel(tmp_path, "broken", body="return 999")
    if how == "game":  # it claims a game this server does not have
        return _wheel(tmp_path, "broken", games=("checkers",))
    if how == "no bot":  # its entry point gives no bot
        return _wheel(tmp_path, "broken", module="from standoff.sdk import hookimpl\n\n@hookimpl\n"
                                                  "def standoff_bots():\n    return []\n")
    raise AssertionError(how)


REJECTIONS = {
    "build": ("pip failed to build or install it", "no wheel today"),
    "dependency": ("pip failed to build or install it", "nosuchlib"),
    "import": ("broken-bot (entry point bot = broken_bot): failed to import: ModuleNotFoundError", "nosuchmodule_at_all"),
    "raises": ("bot 'broken' failed its schotten-totten decision: ZeroDivisionError: integer division or modulo "
               "by zero (__init__.py:", "ZeroDivisionError"),
    "illegal": ("bot 'broken' answered 999 to its schotten-totten decision; options are 0..", "answered"),
    "game": ("bot 'broken' claims checkers, which this server does not have", "checkers"),
    "no bot": ("the package registers no bot", "registers no bot"),
}


@pytest.fixture(scope="module")
def one_good(tmp_path_factory) -> Path:
    """A registry holding broken@1, a good one (copied by each test that changes it)."""
    root = tmp_path_factory.mktemp("one-good")
    _submit(_wheel(root / "good", "broken"), "broken", root / "subs")
    return root / "subs"


@pytest.mark.parametrize("how", sorted(REJECTIONS))
def test_a_broken_submission_is_rejected_with_one_line_its_log_kept_the_registry_unchanged(tmp_path, how, one_good):
    folder = tmp_path / "subs"
    shutil.copytree(one_good, folder, symlinks=True)
    kept = lookup(folder, "broken@1")
    before = (folder / "registry.json").read_bytes()
    with pytest.raises(Rejected) as caught:
        _submit(_broken(tmp_path, how), "broken", folder)
    message, in_log = REJECTIONS[how]
    text = str(caught.value)
    assert "\n" not in text
    assert text.startswith(f"broken@2 rejected: {message}"), text
    assert text.endswith(f"(log: {caught.value.log})")
    log = caught.value.log.read_text()
    assert in_log in log and "rejected: " in log
    assert (folder / "registry.json").read_bytes() == before
    assert not (folder / "venvs" / "broken@2").exists()
    assert kept.venv.is_dir() and lookup(folder, "broken@2") is None
    if how == "raises":  # the next good one still gets version 2
        assert _submit(_wheel(tmp_path / "fixed", "broken"), "broken", folder).entrant == "broken@2"


def test_mistakes_in_the_request_are_one_line_and_build_nothing(tmp_path):
    folder = tmp_path / "subs"
    wheel = _wheel(tmp_path, "alice")
    for path, name, expected in (
        (tmp_path / "nothing.whl", "alice", "no such file or folder"),
        (tmp_path, "alice", "a project folder needs a pyproject.toml"),
        (wheel, "al ice", "--name 'al ice': expected letters"),
        (wheel, "alice@2", "expected letters"),
    ):
        with pytest.raises(SubmissionError, match=expected) as caught:
            _submit(path, name, folder)
        assert not isinstance(caught.value, Rejected)
    assert load(folder) == [] and not (folder / "venvs").exists()
    notes = tmp_path / "notes.txt"
    notes.write_text("hi")
    with pytest.raises(SubmissionError, match="expected a wheel"):
        _submit(notes, "alice", folder)
    project = P.write_project(tmp_path / "proj", "bob-bot", "0.1", "bob_bot", P.bot_module("bob"))
    with pytest.raises(SubmissionError, match="only wheels are accepted with --binary-only"):
        _submit(project, "bob", folder, binary_only=True)


def test_retire_and_resolve(tmp_path):
    folder = tmp_path / "subs"
    _submit(_wheel(tmp_path, "alice"), "alice", folder)
    assert resolve(folder, "alice@1").active
    with pytest.raises(SubmissionError, match="does not play twilight-struggle"):
        resolve(folder, "alice@1", "twilight-struggle")
    with pytest.raises(SubmissionError, match=r"unknown submission 'alice@2' in .* \(active: alice@1\)"):
        resolve(folder, "alice@2")
    assert retire(folder, "alice@1").status == "retired"
    with pytest.raises(SubmissionError, match="submission 'alice@1' is retired"):
        resolve(folder, "alice@1")
    assert lookup(folder, "alice@1").status == "retired"  # kept: its results keep a name
    with pytest.raises(SubmissionError, match="expected NAME@VERSION"):
        retire(folder, "alice")


# -- the command line ---------------------------------------------------------------------------------------


def test_the_commands(tmp_path, capsys):
    folder = tmp_path / "subs"
    common = ["--submissions", str(folder), "--no-index", "--unsandboxed"]
    assert main(["submit", str(_wheel(tmp_path, "alice")), "--name", "alice", *common]) == 0
    out = capsys.readouterr().out
    assert out.startswith("registered alice@1: bot 'alice' (schotten-totten) from alice_bot-0.1-py3-none-any.whl; log: ")
    assert main(["submit", str(_broken(tmp_path, "raises")), "--name", "alice", *common]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("standoff: error: alice@2 rejected: bot 'broken' failed its")
    assert main(["submit", str(tmp_path / "missing.whl"), "--name", "alice", *common]) == 2
    assert capsys.readouterr().err == f"standoff: error: {tmp_path / 'missing.whl'}: no such file or folder\n"
    assert main(["submissions", "--submissions", str(folder)]) == 0
    assert capsys.readouterr().out.startswith("alice@1  active   alice  schotten-totten  ")
    assert main(["retire", "alice@1", "--submissions", str(folder)]) == 0
    assert capsys.readouterr().out == "retired alice@1: no longer scheduled (its results stay)\n"
    assert main(["submissions", "--submissions", str(folder)]) == 0
    assert capsys.readouterr().out == "no submissions\n"
    assert main(["submissions", "--all", "--submissions", str(folder)]) == 0
    assert "alice@1  retired" in capsys.readouterr().out
    assert main(["retire", "alice@7", "--submissions", str(folder)]) == 2
    assert capsys.readouterr().err == f"standoff: error: unknown submission 'alice@7' in {folder}\n"
    # The default registry is the data folder's.
    data = tmp_path / "data"
    assert main(["submit", str(_wheel(tmp_path / "b", "bob")), "--name", "bob", "--data-dir", str(data),
                 "--no-index", "--unsandboxed"]) == 0
    assert [s.entrant for s in load(data / "submissions")] == ["bob@1"]


# -- the check in the sandbox ---------------------------------------------------------------------------------

needs_bwrap = pytest.mark.skipif(backend_problem() is not None, reason=str(backend_problem()))


@needs_bwrap
def test_the_check_runs_in_the_sandbox(tmp_path):
    """The bot answers its decision only where the registry's own file cannot be seen and no
    network exists: in the sandbox (unsandboxed, the same package is rejected)."""
    folder = tmp_path / "subs"
    secret = (folder / "registry.json").resolve()
    body = (f"assert not os.path.exists({str(secret)!r}), 'I can see the registry'\n"
            "assert socket.if_nameindex() == [(1, 'lo')], socket.if_nameindex()\n"
            "assert os.environ.get('STANDOFF_TOKEN') == '' and 'HOSTNAME' not in os.environ, dict(os.environ)\n"
            "return 0")
    _submit(_wheel(tmp_path / "first", "first"), "first", folder)  # the registry exists now
    wheel = _wheel(tmp_path, "boxed", imports="import os, socket", body=body)
    with pytest.raises(Rejected, match="I can see the registry"):
        _submit(wheel, "boxed", folder, unsandboxed=True)
    boxed = _submit(wheel, "boxed", folder, unsandboxed=False)
    assert boxed.entrant == "boxed@1"
    assert "bwrap" in boxed.log_path.read_text()


def test_no_sandbox_no_check_unless_unsandboxed(tmp_path, monkeypatch):
    """Where bubblewrap is missing, the check is refused with one line naming the package (the
    registry unchanged), unless --unsandboxed says to check it in a plain subprocess."""
    import standoff.server.sandbox as sandbox

    monkeypatch.setattr(sandbox, "backend_problem", lambda: "bubblewrap (bwrap) is not installed: "
                        "apt-get install bubblewrap, or run untrusted bots --unsandboxed")
    folder = tmp_path / "subs"
    with pytest.raises(SubmissionError, match="the check runs in the sandbox: bubblewrap .* apt-get install bubblewrap"):
        _submit(_wheel(tmp_path, "alice"), "alice", folder, unsandboxed=False)
    assert load(folder) == [] and not (folder / "venvs" / "alice@1").exists()
    assert _submit(_wheel(tmp_path, "alice"), "alice", folder, unsandboxed=True).entrant == "alice@1"
