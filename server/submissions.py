"""Submitted bots: packages handed in by their authors, each built into a venv of its own and
played as an untrusted entrant ``NAME@VERSION`` (``alice@2``).

A registry is a folder (default ``<data dir>/submissions``)::

    registry.json              the submissions, in the order they were registered
    venvs/alice@2/             the venv of alice@2: its package and its own dependencies
    logs/alice-<time>.log      every attempt's build and check log (a rejected one's too)

:func:`submit` takes a wheel, an sdist or a project folder and:

1. makes a venv (``python -m venv --without-pip``) whose ``site-packages`` ends with a ``.pth``
   file that appends the server's own site folders to ``sys.path``: the SDK, grpc and protobuf
   are importable without being installed again, read-only, and the submission's own packages
   come first, so two submissions may pin different versions of one dependency;
2. installs the package into it with pip (the server's pip, ``--python`` the venv's);
3. checks it, in the sandbox when one is used (:func:`run_check`): its ``standoff.bots`` entry
   point loads, names one bot (or the one ``--bot`` says), and that bot answers one decision of
   each game it claims with an option index the server accepts;
4. registers it as version ``max(versions of NAME) + 1``.

A submission that fails any step is rejected with one line (:class:`Rejected`), its venv
removed and its log kept; nothing already registered changes. Retired submissions stay in the
registry (their results keep a name) but are never scheduled again.

The referee resolves an entrant ``NAME@VERSION`` with :func:`lookup` and plays it through a
runner seat whose process is the venv's Python (:meth:`Submission.launch`).
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import hashlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from .private_files import private_dir, replace_private

__all__ = [
    "REGISTRY_FILE",
    "Rejected",
    "Submission",
    "SubmissionError",
    "active",
    "default_folder",
    "is_entrant",
    "load",
    "lookup",
    "parse_entrant",
    "resolve",
    "retire",
    "submit",
]

REGISTRY_FILE = "registry.json"
#: A submission's NAME: it is part of entrant names, match ids and file names.
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
_ENTRANT_RE = re.compile(r"([A-Za-z0-9][A-Za-z0-9_-]{0,39})@([1-9][0-9]{0,5})")
#: How long pip may take to build and install one submission, and the check to answer.
BUILD_TIMEOUT_S = 900.0
CHECK_TIMEOUT_S = 120.0
ACTIVE, RETIRED = "active", "retired"


class SubmissionError(Exception):
    """A mistake in what was asked (a bad name, a missing file, an unknown entrant) or a broken
    registry. ``str()`` is one line, fit for the user."""


class Rejected(SubmissionError):
    """A submission that did not build or did not pass the check; ``log`` keeps what happened."""

    def __init__(self, message: str, log: Path) -> None:
        super().__init__(f"{message} (log: {log})")
        self.log = log


def parse_entrant(text: str) -> tuple[str, int] | None:
    """``("alice", 2)`` for ``"alice@2"``; None for anything that is not a submission entrant."""
    m = _ENTRANT_RE.fullmatch(text)
    return (m.group(1), int(m.group(2))) if m else None


def is_entrant(text: str) -> bool:
    """Whether ``text`` names a submission (``NAME@VERSION``)."""
    return parse_entrant(text) is not None


def default_folder(data_dir: str | os.PathLike[str]) -> Path:
    """The registry of a server's data folder: ``<data_dir>/submissions``."""
    return Path(data_dir) / "submissions"


@dataclass(frozen=True)
class Submission:
    """One registered version of a submitted bot. ``folder`` is its registry's folder; the
    paths in ``registry.json`` are relative to it (a registry may be moved whole)."""

    name: str
    version: int
    status: str  # ACTIVE or RETIRED
    bot: str  # the bot's name inside the package (``standoff bot run BOT`` in its venv)
    games: tuple[str, ...]  # the games it was checked on (those it claims, of this server's)
    distribution: str  # the distribution pip installed
    source: str  # the file or folder name submitted
    digest: str  # sha256 of the file (of a folder: of its files' names and contents)
    submitted: str  # UTC time, ISO 8601
    log: str  # relative to the folder
    folder: Path = field(default=Path("."), compare=False)

    @property
    def entrant(self) -> str:
        return f"{self.name}@{self.version}"

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    @property
    def venv(self) -> Path:
        return self.folder / "venvs" / self.entrant

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    @property
    def log_path(self) -> Path:
        return self.folder / self.log

    def plays(self, game: str) -> bool:
        return game in self.games

    def launch(self) -> Any:
        """How a runner starts this bot (:class:`standoff.server.sandbox.Launch`): the venv's
        Python, ``-m standoff.sdk.cli bot run BOT --address ... --matches 1``, seeing its venv,
        the server's site folders and the standoff source its ``.pth`` points at, and the base
        Python."""
        from .sandbox import Launch, runner_argv

        return Launch(python=self.python, argv_tail=runner_argv(self.bot), read_only=read_only_paths(self.venv))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["folder"]
        data["games"] = list(self.games)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any], folder: Path) -> Submission:
        return cls(**{**data, "games": tuple(data["games"]), "folder": folder})


# -- the registry ---------------------------------------------------------------------------------


def load(folder: str | os.PathLike[str]) -> list[Submission]:
    """Every submission of the registry in ``folder``, in the order registered (none if the
    folder has no registry yet). :class:`SubmissionError` for an unreadable one."""
    folder = Path(folder).absolute()  # a runner's process starts elsewhere (the sandbox: in /tmp)
    path = folder / REGISTRY_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise SubmissionError(f"{path}: cannot read the registry: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
        return [Submission.from_json(item, folder) for item in data["submissions"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise SubmissionError(f"{path}: not a submissions registry ({type(exc).__name__}: {exc})") from None


def lookup(folder: str | os.PathLike[str] | None, entrant: str) -> Submission | None:
    """The submission ``entrant`` (``NAME@VERSION``) of the registry in ``folder``, retired or
    not; None if there is none (or no registry)."""
    if folder is None or not is_entrant(entrant):
        return None
    return next((s for s in load(folder) if s.entrant == entrant), None)


def resolve(folder: str | os.PathLike[str] | None, entrant: str, game: str | None = None) -> Submission:
    """The active submission ``entrant``, which plays ``game`` if one is given; otherwise
    :class:`SubmissionError`, one line saying why (no registry, unknown, retired, another game)."""
    if folder is None:
        raise SubmissionError(f"{entrant!r} names a submission, but no submissions folder is configured")
    found = lookup(folder, entrant)
    if found is None:
        known = ", ".join(s.entrant for s in load(folder) if s.active) or "none"
        raise SubmissionError(f"unknown submission {entrant!r} in {folder} (active: {known})")
    if not found.active:
        raise SubmissionError(f"submission {entrant!r} is retired")
    if game is not None and not found.plays(game):
        raise SubmissionError(f"submission {entrant!r} does not play {game} (it plays {', '.join(found.games)})")
    return found


def active(folder: str | os.PathLike[str] | None, game: str | None = None) -> list[Submission]:
    """The active submissions (that play ``game``, if given), in the order registered."""
    if folder is None:
        return []
    return [s for s in load(folder) if s.active and (game is None or s.plays(game))]


def retire(folder: str | os.PathLike[str], entrant: str) -> Submission:
    """Retire ``entrant``: it stays in the registry (and in the ratings of runs it played) but is
    never scheduled again. Retiring a retired one is a no-op."""
    folder = Path(folder)
    if not is_entrant(entrant):
        raise SubmissionError(f"{entrant!r}: expected NAME@VERSION, e.g. alice@2")
    with _locked(folder):
        items = load(folder)
        found = next((s for s in items if s.entrant == entrant), None)
        if found is None:
            raise SubmissionError(f"unknown submission {entrant!r} in {folder}")
        retired = replace(found, status=RETIRED)
        _write(folder, [retired if s.entrant == entrant else s for s in items])
    return retired


def _write(folder: Path, items: list[Submission]) -> None:
    data = {"format": 1, "submissions": [s.to_json() for s in items]}
    replace_private(folder / REGISTRY_FILE, json.dumps(data, indent=1) + "\n")


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One writer of the registry at a time (two ``standoff submit`` at once take turns)."""
    private_dir(folder)
    with open(folder / ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


# -- building -------------------------------------------------------------------------------------


def server_site_dirs() -> tuple[Path, ...]:
    """The server's own site folders (its packages, standoff's editable finder if any)."""
    paths = sysconfig.get_paths()
    return tuple(dict.fromkeys(Path(paths[key]) for key in ("purelib", "platlib")))


def server_paths() -> tuple[Path, ...]:
    """What a submission's Python must be able to read besides its venv: the server's site
    folders, the folders of the standoff packages (an editable install imports them from the
    source tree) and the base Python."""
    # by name: the server imports no package above it (docs/architecture.md, "Layers")
    names = ("standoff.server", "standoff.sdk", "standoff.bots", "standoff.tournaments", "standoff.v1")
    sources = (Path(importlib.util.find_spec(name).origin).resolve().parent for name in names)
    return tuple(dict.fromkeys((*server_site_dirs(), *sources, Path(sys.base_prefix).resolve())))


def read_only_paths(venv: Path) -> tuple[Path, ...]:
    """Everything a submission's Python reads: its venv and :func:`server_paths`."""
    return (venv.resolve(), *server_paths())


def kind_of(path: Path) -> str:
    """``"wheel"``, ``"sdist"`` or ``"project"``; :class:`SubmissionError` for anything else."""
    if path.is_dir():
        if (path / "pyproject.toml").is_file() or (path / "setup.py").is_file():
            return "project"
        raise SubmissionError(f"{path}: a project folder needs a pyproject.toml (or setup.py)")
    if not path.exists():
        raise SubmissionError(f"{path}: no such file or folder")
    if path.name.endswith(".whl"):
        return "wheel"
    if path.name.endswith((".tar.gz", ".zip")):
        return "sdist"
    raise SubmissionError(f"{path}: expected a wheel (.whl), an sdist (.tar.gz, .zip) or a project folder")


def digest_of(path: Path) -> str:
    """sha256 of a file; of a folder, of its files' relative names and contents, in name order
    (caches and VCS folders left out)."""
    h = hashlib.sha256()
    if path.is_file():
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        return "sha256:" + h.hexdigest()
    skip = {"__pycache__", ".git", ".hg", ".venv", "build", "dist", ".eggs"}
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        rel = file.relative_to(path)
        if skip.intersection(rel.parts) or any(part.endswith(".egg-info") for part in rel.parts):
            continue
        h.update(str(rel).encode() + b"\0" + hashlib.sha256(file.read_bytes()).digest())
    return "sha256:" + h.hexdigest()


def make_venv(venv: Path) -> None:
    """A venv without pip whose ``site-packages`` ends with the server's site folders (a
    ``.pth`` processed after the venv's own packages are on ``sys.path``)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = subprocess.run([str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                         check=True, capture_output=True, text=True, env=_build_env())
    site = Path(out.stdout.strip())
    # addsitedir (not a bare path) so that the server's own .pth files run too: an editable
    # install of standoff is found through one.
    lines = [f"import site; site.addsitedir({str(p)!r})" for p in server_site_dirs()]
    (site / "zz_standoff_server.pth").write_text("\n".join(lines) + "\n")


def _readable(venv: Path) -> None:
    """Make the venv readable by everyone (folders also searchable), whatever the umask: the
    sandboxed bot runs as a user of its own. Nothing in it is secret; its registry folder stays
    private (the sandbox sees the venv at its path, not through the folder)."""
    for root, dirs, files in os.walk(venv):
        for name in dirs:
            path = os.path.join(root, name)
            os.chmod(path, os.stat(path).st_mode | 0o555)
        for name in files:
            path = os.path.join(root, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode | 0o444)
    os.chmod(venv, os.stat(venv).st_mode | 0o555)


def _build_env() -> dict[str, str]:
    """pip's environment: the server's, without what would make Python look elsewhere."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP",
                                                            "PYTHONUSERBASE", "VIRTUAL_ENV")}
    env["PYTHONNOUSERSITE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def pip_install(venv: Path, path: Path, log: Any, *, find_links: Sequence[str] = (), no_index: bool = False,
                binary_only: bool = False, timeout_s: float = BUILD_TIMEOUT_S) -> str:
    """Install ``path`` (and its dependencies) into ``venv`` with the server's pip; the name of
    the distribution it installed. :class:`_Failed` if pip fails or installs nothing new."""
    report = venv / "pip-report.json"
    argv = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-input",
            "--progress-bar", "off", "--report", str(report)]
    argv += ["--no-index"] if no_index else []
    for link in find_links:
        argv += ["--find-links", str(link)]
    argv += ["--only-binary", ":all:"] if binary_only else []
    argv.append(str(path.resolve()))
    log.write(f"$ {' '.join(argv)}\n")
    log.flush()
    try:
        done = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                              env=_build_env(), timeout=timeout_s, cwd=venv)
    except subprocess.TimeoutExpired:
        raise _Failed(f"pip did not finish within {timeout_s:g} s") from None
    if done.returncode != 0:
        raise _Failed(f"pip failed to build or install it (exit status {done.returncode}){_last_error(log)}")
    try:
        items = json.loads(report.read_text())["install"]
    except (OSError, ValueError, KeyError) as exc:
        raise _Failed(f"pip's report is unreadable: {exc}") from None
    finally:
        report.unlink(missing_ok=True)
    requested = [item["metadata"]["name"] for item in items if item.get("requested")]
    if not requested:
        raise _Failed("pip installed nothing: a distribution of that name is installed on the server already "
                      "(give the package a name of its own)")
    return requested[0]


def _last_error(log: Any) -> str:
    """pip's last ``ERROR:`` line in the log so far, for the one-line rejection."""
    try:
        lines = Path(log.name).read_text(errors="replace").splitlines()
    except OSError:
        return ""
    errors = [line.strip() for line in lines if line.startswith("ERROR:")]
    return f": {errors[-1][:200]}" if errors else ""


class _Failed(Exception):
    """One step of a build failed: the rejection's one line."""


# -- the check ------------------------------------------------------------------------------------


def check_messages(registry: Any, game_names: Sequence[str], seed: int = 1) -> list[dict[str, Any]]:
    """For each game, the wire bytes of a ``MatchStarted`` and of the first decision of a match
    between the submission and ``random``, as a runner's bot receives them (base64)."""
    from .core.game import CHANCE
    from .faults import FORFEIT, TimeControl
    from .match import MatchDriver
    from .seats import decision_bytes
    from .wire import serialize

    requests = []
    for name in game_names:
        game = registry.game(name)
        rules = game.rules(None, {})
        names = {role: "random" for role in rules.roles}
        driver = MatchDriver(game, rules, seed, names, match_id=f"check-{name}", time_control=TimeControl(),
                             policy=FORFEIT)
        ask = driver.next_ask()
        assert ask is not None and ask.decision.role != CHANCE
        role = ask.decision.role
        driver.names[role] = "submission"
        wire, _ = decision_bytes(game, driver.state, role, driver.match_id, ask, 0)
        requests.append({
            "game": name,
            "options": len(ask.decision.options),
            "started": base64.b64encode(serialize(driver.started_message(role))).decode(),
            "decision": base64.b64encode(wire).decode(),
        })
    return requests


def run_check(venv: Path, distribution: str, requests: list[dict[str, Any]], log: Any, *,
              unsandboxed: bool, timeout_s: float = CHECK_TIMEOUT_S) -> dict[str, Any]:
    """Run :mod:`standoff.server.submission_probe` with the venv's Python and return what it
    printed. In the sandbox unless ``unsandboxed`` (then a plain subprocess with a bare
    environment)."""
    python = venv / "bin" / "python"
    tail = ("-m", "standoff.server.submission_probe", distribution)
    stdin = "".join(json.dumps(r) + "\n" for r in requests).encode()
    argv, env, options, cleanup = _check_command(python, tail, venv, unsandboxed=unsandboxed)
    log.write(f"$ {' '.join(argv)}\n")
    log.flush()
    try:
        done = subprocess.run(argv, input=stdin, stdout=subprocess.PIPE, stderr=log, env=env, timeout=timeout_s,
                              cwd="/", **options)
    except subprocess.TimeoutExpired:
        raise _Failed(f"the check did not finish within {timeout_s:g} s") from None
    finally:
        cleanup()
    try:
        return json.loads(done.stdout.decode().strip().splitlines()[-1])
    except (ValueError, IndexError, UnicodeDecodeError):
        raise _Failed(f"its Python did not run the check (exit status {done.returncode}){_last_line(log)}") from None


def _check_command(python: Path, tail: tuple[str, ...], venv: Path, *, unsandboxed: bool) -> tuple:
    """The one place the check chooses between the sandbox and a plain subprocess: the argv,
    environment, :class:`subprocess.Popen` options and a cleanup for the check's process. In the
    sandbox it runs as a bot runner does (:func:`standoff.server.sandbox.sandboxed`, default
    limits), with no referee socket to reach (an empty file stands in for it)."""
    if unsandboxed:
        env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": "/tmp", "PYTHONNOUSERSITE": "1"}
        return [str(python), *tail], env, {"start_new_session": True}, lambda: None
    import tempfile

    from .sandbox import SLOTS, SOCKET_NAME, Launch, SandboxLimits, backend_problem, sandboxed

    problem = backend_problem()
    if problem is not None:
        raise SubmissionError(f"the check runs in the sandbox: {problem}")
    socket_dir = Path(tempfile.mkdtemp(prefix="standoff-check-"))
    (socket_dir / SOCKET_NAME).touch()
    slot = SLOTS.take()
    launch = Launch(python=python, argv_tail=tail, read_only=read_only_paths(venv))
    argv, env, _ = sandboxed(launch, socket_dir=socket_dir, token="", limits=SandboxLimits(), slot=slot)

    def cleanup() -> None:
        SLOTS.give_back(slot)
        shutil.rmtree(socket_dir, ignore_errors=True)

    return argv, env, {"start_new_session": True}, cleanup


def _last_line(log: Any) -> str:
    try:
        lines = [line for line in Path(log.name).read_text(errors="replace").splitlines() if line.strip()]
    except OSError:
        return ""
    return f": {lines[-1].strip()[:200]}" if lines else ""


def judge(found: dict[str, Any], requests: list[dict[str, Any]], server_games: Sequence[str],
          bot: str | None) -> tuple[str, tuple[str, ...]]:
    """The bot to register and the games it was checked on, from the probe's report; raises
    :class:`_Failed` with the first reason to reject."""
    if found.get("problems"):
        raise _Failed(found["problems"][0])
    bots = {b["name"]: tuple(b["games"]) for b in found.get("bots", [])}
    if not bots:
        raise _Failed("the package registers no bot (entry point group standoff.bots, hook standoff_bots)")
    if bot is None:
        if len(bots) > 1:
            raise _Failed(f"the package has several bots ({', '.join(bots)}): choose one with --bot")
        bot = next(iter(bots))
    elif bot not in bots:
        raise _Failed(f"the package has no bot {bot!r} (it has {', '.join(bots)})")
    claimed = bots[bot] or tuple(server_games)
    unknown = [g for g in claimed if g not in server_games]
    if unknown:
        raise _Failed(f"bot {bot!r} claims {', '.join(unknown)}, which this server does not have "
                      f"(it has {', '.join(server_games)})")
    options = {r["game"]: r["options"] for r in requests}
    answers = found.get("answers", {}).get(bot, {})
    for game in claimed:
        answer = answers.get(game)
        if answer is None:
            raise _Failed(f"bot {bot!r} was not asked its {game} decision")
        if "error" in answer:
            raise _Failed(f"bot {bot!r} failed its {game} decision: {answer['error']}")
        if not 0 <= answer["index"] < options[game]:
            raise _Failed(f"bot {bot!r} answered {answer['index']} to its {game} decision; options are "
                          f"0..{options[game] - 1}")
    return bot, tuple(claimed)


# -- submitting -----------------------------------------------------------------------------------


def submit(path: str | os.PathLike[str], name: str, folder: str | os.PathLike[str], *, registry: Any,
           bot: str | None = None, find_links: Sequence[str] = (), no_index: bool = False,
           binary_only: bool = False, unsandboxed: bool = False) -> Submission:
    """Build, check and register ``path`` as the next version of ``name`` in the registry in
    ``folder`` (see the module docstring). ``registry``: the server's plugin registry (the games
    a bot may claim). ``find_links``, ``no_index``: passed to pip; ``binary_only``: wheels only,
    the package's and its dependencies' (no build code of theirs runs at all). Returns the new
    submission; :class:`SubmissionError` for a mistake in the request, :class:`Rejected` (with
    its log) for a package that fails to build or to pass the check."""
    path = Path(path)
    if not NAME_RE.fullmatch(name):
        raise SubmissionError(f"--name {name!r}: expected letters, digits, '-' and '_' (at most 40, "
                              "the first a letter or digit)")
    kind = kind_of(path)
    if binary_only and kind != "wheel":
        raise SubmissionError(f"{path}: only wheels are accepted with --binary-only (this is {'an sdist' if kind == 'sdist' else 'a project folder'})")
    folder = Path(folder).absolute()
    digest = digest_of(path)
    with _locked(folder):
        items = load(folder)
        version = max((s.version for s in items if s.name == name), default=0) + 1
        entrant = f"{name}@{version}"
        stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
        private_dir(folder / "logs")
        log_rel = f"logs/{name}-{stamp}-{secrets.token_hex(2)}.log"
        venv = folder / "venvs" / entrant
        (folder / "venvs").mkdir(exist_ok=True)
        shutil.rmtree(venv, ignore_errors=True)  # an attempt cut short (not registered: nothing to keep)
        with open(folder / log_rel, "w", encoding="utf-8") as log:
            log.write(f"submission {entrant}: {kind} {path.resolve()} ({digest})\n")
            try:
                make_venv(venv)
                distribution = pip_install(venv, path, log, find_links=find_links, no_index=no_index,
                                           binary_only=binary_only)
                _readable(venv)
                log.write(f"installed {distribution}; checking it\n")
                log.flush()
                games = sorted(registry.games)
                requests = check_messages(registry, games)
                found = run_check(venv, distribution, requests, log, unsandboxed=unsandboxed)
                log.write(f"check: {json.dumps(found)}\n")
                chosen, claimed = judge(found, requests, games, bot)
            except BaseException as exc:
                shutil.rmtree(venv, ignore_errors=True)
                if isinstance(exc, (_Failed, subprocess.CalledProcessError)):
                    log.write(f"rejected: {exc}\n")
                    raise Rejected(f"{entrant} rejected: {exc}", folder / log_rel) from None
                log.write(f"not registered: {type(exc).__name__}: {exc}\n")
                raise
            log.write(f"registered {entrant}: bot {chosen!r}, games {', '.join(claimed)}\n")
        submission = Submission(
            name=name, version=version, status=ACTIVE, bot=chosen, games=claimed, distribution=distribution,
            source=path.resolve().name, digest=digest, submitted=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            log=log_rel, folder=folder,
        )
        _write(folder, [*items, submission])
    return submission


def format_list(items: Sequence[Submission]) -> str:
    """What ``standoff submissions`` prints: one line per submission (no trailing newline)."""
    if not items:
        return "no submissions"
    width = max(len(s.entrant) for s in items)
    bots = max(len(s.bot) for s in items)
    return "\n".join(
        f"{s.entrant:<{width}}  {s.status:<7}  {s.bot:<{bots}}  {', '.join(s.games)}  {s.submitted}  {s.source}"
        for s in items
    )
