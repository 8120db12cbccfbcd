"""Tournament configuration: a TOML file, validated into a frozen :class:`TournamentConfig`.

:func:`load_config` reads a file, :func:`parse_config` checks an already parsed ``dict``. Every
problem raises :class:`ConfigError` (a ``ValueError``) with ONE line naming the file and the key::

    demo.toml: entrants[2]: unknown bot 'gredy' (known: greedy, random)
    demo.toml: time_control.bank_ms: expected a whole number >= 0, got -5
    demo.toml: line 3, column 7: TOML syntax error: Expected '=' after a key in a key/value pair

Unknown keys are errors too (a typo must not pass silently); the message lists the known keys.
Array positions are counted from 0 (``entrants[0]`` is the first entrant).

Keys (``tournaments/demo.toml`` is a commented example of every one):

``name``  (string, required)
    The tournament's name, also the name of its output folder: letters, digits, ``-``, ``_``
    and ``.`` (not only dots).
``game``  (string, required)
    A game of the registry (``standoff games`` lists them).
``ruleset``  (string, optional; default: the game's default ruleset)
    One of the game's rulesets (``standoff games`` lists them).
``[options]``  (table of string → string, optional; default: empty)
    Game options, e.g. ``tactics = "off"``; values are strings (quote numbers:
    ``decision_cap = "500"``). Checked by the game itself (``game.rules(ruleset, options)``).
``entrants``  (array of strings, required: at least 2, all different)
    A bot name from the registry that plays the game (``"greedy"``), ``"remote:NAME"`` for a
    bot that connects to the tournament's referee over the network, NAME matching
    ``[A-Za-z0-9][A-Za-z0-9_.-]*``, or ``"NAME@VERSION"`` (``"alice@2"``), a submitted bot of the
    ``submissions`` registry (active, and checked on the game). A game with more roles than two
    needs at least as many entrants as roles. A ladder with ``submissions`` may list fewer (or
    leave the key out): its rounds add the active submissions.
``submissions``  (string, optional; default: none)
    The folder of a submissions registry (``standoff submit --submissions DIR``; docs/submissions.md);
    a relative path is relative to the current directory, like ``output_dir``. Submitted bots
    are untrusted: always played by the tournament's referee, in the sandbox. In a ladder, each
    round's entrants are ``entrants`` (less the submissions retired since) and every active
    submission that plays the game, in the order registered, fixed when the round's first match
    is scheduled and recorded in the run folder (``rounds.jsonl``), so a resume plays each
    round with the entrants it began with. A submission added meanwhile joins at the next
    round; a retired one is not scheduled again (its matches in a round begun are not played).
``format``  (string, default ``"round_robin"``)
    ``round_robin``: every pairing once (one *cycle*); ``double_round_robin``: two cycles;
    ``gauntlet``: each entrant of the ``gauntlet`` list against every entrant not in it;
    ``ladder``: rounds (each one like a round-robin cycle) generated one after the other, forever.
``gauntlet``  (array of strings; required with ``format = "gauntlet"``, not allowed otherwise)
    A non-empty subset of ``entrants`` that leaves at least one entrant out.
``games_per_pairing``  (integer >= 1, default 2)
    Matches between each pairing, per cycle or round.
``paired_seeds``  (boolean, default true)
    Each seed is played once per seating, the seats rotated (swapped, for two roles), the legs
    adjacent in the schedule; ``games_per_pairing`` must then be a multiple of the number of roles
    (even, for two roles). False: every match has its own seed, and who sits first alternates.
    The legs of a seed deal the same cards, so each leg gives a player the cards its opponent
    holds in the other, future draws included (a bot seated in both that plays one leg ahead
    of the other reads them off its own hand). So only pairings among trusted plugin bots are
    paired: a pairing with a ``remote:NAME`` entrant or a third-party plugin that is not trusted
    is played unpaired (a seed per game, the seats still rotated, ``pair`` null in the results),
    and the run says so in one line. The cost is variance: the two legs of a seed cancel part
    of the luck of the deal, unpaired games do not, so such a pairing needs more games for the
    same confidence, and its pentanomial statistics are not available (``null``). How much
    depends on the game and the bots (docs/reliability.md, "Trust", has a measured case). Bot
    seeds differ from seat to seat and from leg to leg.
``positions``  (array of strings, optional; default: none, every match starts from the deal)
    Start positions, like opening books in engine tournaments (docs/positions.md): each a
    position file (JSON or the game's text form; a path relative to the config file) or the
    position's text itself. Each pairing plays every position with the seats swapped: the legs
    of a seed share a position, and the positions take turns seed after seed, so
    ``paired_seeds`` must be true and ``games_per_pairing`` a multiple of (number of roles ×
    number of positions). A position carries its ruleset and options: they must be the
    tournament's. Not with ``[match]``. Stored as the positions themselves (``config.json``).
``[match]``  (table, optional; only for a game that scores a lost game, by flags claimed: its
    rules object has the ``flags_claimed`` capability)
    A multi-game match (the rules digest's §7): ``games`` (integer >= 1) and/or ``target_score`` (integer >= 1).
    The winner of a game scores 5, the loser 1 per flag it claimed; the winner starts the next
    game; the match ends after ``games`` games or when someone reaches ``target_score``.
    Without the table a match is one game. Stored as ``match_games`` and ``target_score``.
``[time_control]``  (table, optional)
    ``bank_ms``, ``increment_ms``, ``max_per_decision_ms``: integers >= 0, default 0 each; all
    zero means the referee's default limit of 30 s per decision.
``[faults]``  (table, optional)
    ``policy``: ``"forfeit"`` (default), ``"random"`` (a random legal move is played for the
    faulty bot) or ``"retry"``; ``retries``: integer >= 0, default 2 (for ``retry``). Stored as
    ``fault_policy`` and ``retries``.
``concurrency``  (integer >= 1, default 2)
    Matches played at once.
``workers``  (integer >= 1, default ``min(2, os.cpu_count())``)
    Worker processes for the matches between plugin (local) bots; with ``executor = "ray"`` and
    ``ray_address = "local"``, the CPUs of the local Ray cluster.
``executor``  (string, default ``"local"``)
    Where the matches between trusted plugin bots are played: ``"local"``, ``workers`` worker
    processes on this machine; ``"ray"``, one Ray task per match on a Ray cluster (needs the
    optional extra: ``pip install 'standoff[ray]'``; ``docs/ray.md``). Results are identical
    either way, and a run may be resumed with the other executor. Matches with a remote entrant
    or an untrusted plugin bot are always played by this machine's referee. With ``"ray"``,
    ``concurrency`` is the number of matches in flight on the cluster: set it to the cluster's CPUs.
``split_referee``  (boolean, default false)
    Matches with a remote entrant are played by this machine's referee. With ``true`` the
    referee only holds the remote bots' sessions and routes their bytes, and each such match
    (engine, views, records, the built-in bot in it) is hosted elsewhere: in ``workers`` worker
    processes with ``executor = "local"``, in a Ray actor on any node of the cluster with
    ``executor = "ray"`` (docs/architecture.md, "A split referee"). Same records and results; a
    run may be resumed with the other value.
``ray_address``  (string, default ``"auto"``; only with ``executor = "ray"``)
    The Ray cluster: ``"auto"`` (``$RAY_ADDRESS``, or the cluster that ``ray start`` started on
    this machine), ``"ray://HOST:PORT"`` (Ray Client, from outside the cluster), ``"HOST:PORT"``
    (the cluster's GCS address, from one of its nodes), or ``"local"``: start a local Ray
    cluster for the run with ``ray.init(num_cpus=workers)`` (bound to 127.0.0.1, stopped after
    the run).
``master_seed``  (integer, optional)
    Every match seed is derived from it (SHA-256, :func:`standoff.server.core.seeds.derive_seed`).
    Without it, the run draws a secret one (:mod:`secrets`) and keeps it only in its run folder
    (file ``master_seed``; a resume reads it, ``--fresh`` draws a new one). With it, the same
    config plays the same matches; but anyone who knows or guesses it can compute every deal and
    draw of the run: set it only when every entrant is trusted (built-in bots).
``output_dir``  (string, default ``"runs"``)
    Outputs go to ``<output_dir>/<name>/``; a relative path is relative to the current
    directory, not to the config file. The run folder names no place (its records are named
    relative to it), so it may be moved or copied: a resume, with ``output_dir`` naming where it
    now is, goes on from it (``output_dir`` is not compared with the run's ``config.json``). It is
    private (``0700``, its files ``0600``; its ``report/`` excepted), as is ``output_dir`` when
    the run makes it.
``remote_wait_s``  (number >= 0, default 30)
    Seconds to wait for remote entrants to connect.
``address``  (string ``"HOST:PORT"``, default ``"127.0.0.1:0"``)
    Where the tournament's referee listens for remote entrants (port 0: any free port).
``[elo]``  (table, optional)
    ``k``: number > 0, default 32; ``start``: number, default 1500. Stored as ``elo_k`` and
    ``elo_start``.
``[sandbox]``  (table, optional)
    What each untrusted entrant (a plugin bot that is not trusted) may use in its sandbox
    (:mod:`standoff.server.sandbox`, bubblewrap): ``memory_mb`` (default 2048, address space per
    process), ``cpu_s_per_match`` (600, CPU seconds per process), ``processes`` (64, processes
    and threads; enforced when the tournament runs as root, each sandbox under a uid of its own
    from ``uid_base``), ``open_files`` (256), ``file_size_mb`` (64), ``tmp_mb`` (64, its private
    ``/tmp``): whole numbers >= 1; ``uid_base`` (default 1700000000): the first sandbox uid.
    Stored as ``sandbox`` (every key filled in); a run may be resumed with other values.
``unsandboxed``  (boolean, default false)
    Run untrusted entrants as plain subprocesses (the tournament's user, environment, network and
    files: the run's master seed and records included): only for bots you trust. Without it, where
    bubblewrap is missing the run is refused with one line (``apt-get install bubblewrap``).
    ``standoff tournament --unsandboxed`` says the same.
"""

from __future__ import annotations

import difflib
import importlib.util
import math
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Any, NoReturn

from ..server.specs import capability

__all__ = [
    "EXECUTORS",
    "FAULT_POLICIES",
    "FORMATS",
    "ConfigError",
    "TournamentConfig",
    "is_remote",
    "is_submission",
    "load_config",
    "parse_config",
    "remote_name",
]

FORMATS: tuple[str, ...] = ("round_robin", "double_round_robin", "gauntlet", "ladder")
FAULT_POLICIES: tuple[str, ...] = ("forfeit", "random", "retry")
EXECUTORS: tuple[str, ...] = ("local", "ray")
REMOTE_PREFIX = "remote:"

_NAME_RE = re.compile(r"[A-Za-z0-9_.-]+")
_REMOTE_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")
_HOST_PORT_RE = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):([0-9]{1,5})")

# The known keys of each table, in the order they are documented.
_TOP_KEYS = (
    "name", "game", "ruleset", "options", "entrants", "format", "gauntlet", "games_per_pairing",
    "paired_seeds", "positions", "match", "time_control", "faults", "concurrency", "workers", "executor",
    "split_referee", "ray_address", "master_seed", "output_dir", "remote_wait_s", "address", "elo",
    "submissions", "sandbox", "unsandboxed",
)
_MATCH_KEYS = ("games", "target_score")
_TIME_KEYS = ("bank_ms", "increment_ms", "max_per_decision_ms")
_FAULT_KEYS = ("policy", "retries")
_ELO_KEYS = ("k", "start")
_SANDBOX_KEYS = ("memory_mb", "cpu_s_per_match", "processes", "open_files", "file_size_mb", "tmp_mb", "uid_base")
#: The sandbox's defaults (:class:`standoff.server.sandbox.SandboxLimits`, ``DEFAULT_UID_BASE``),
#: repeated here so that reading a config does not import the server.
SANDBOX_DEFAULTS: dict[str, int] = {"memory_mb": 2048, "cpu_s_per_match": 600, "processes": 64, "open_files": 256,
                                    "file_size_mb": 64, "tmp_mb": 64, "uid_base": 1_700_000_000}


class ConfigError(ValueError):
    """A bad tournament configuration. ``str()`` is one line: ``"<source>: <key>: <problem>"``."""

    def __init__(self, source: str, key: str, message: str) -> None:
        self.source = source
        self.key = key
        self.message = " ".join(str(message).split())  # one line, whatever the cause said
        super().__init__(f"{source}: {key}: {self.message}" if key else f"{source}: {self.message}")


def is_submission(entrant: str) -> bool:
    """Whether ``entrant`` names a submitted bot, ``NAME@VERSION`` (:mod:`standoff.server.submissions`)."""
    from ..server.submissions import is_entrant

    return is_entrant(entrant)


def is_remote(entrant: str) -> bool:
    """Whether ``entrant`` is a ``remote:NAME`` entrant (a bot connecting over the network)."""
    return entrant.startswith(REMOTE_PREFIX)


def remote_name(entrant: str) -> str:
    """The NAME of a ``remote:NAME`` entrant."""
    if not is_remote(entrant):
        raise ValueError(f"{entrant!r} is not a remote entrant")
    return entrant[len(REMOTE_PREFIX):]


def _default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


@dataclass(frozen=True)
class TournamentConfig:
    """A validated tournament configuration (see the module docstring for every key).

    Build one with :func:`load_config` or :func:`parse_config`: they check what the constructor
    does not (the registry, the game's rules).
    """

    source: str
    name: str
    game: str
    entrants: tuple[str, ...]
    ruleset: str | None = None
    options: dict[str, str] = field(default_factory=dict, hash=False)
    format: str = "round_robin"
    gauntlet: tuple[str, ...] = ()
    games_per_pairing: int = 2
    paired_seeds: bool = True
    match_games: int | None = None
    target_score: int | None = None
    bank_ms: int = 0
    increment_ms: int = 0
    max_per_decision_ms: int = 0
    fault_policy: str = "forfeit"
    retries: int = 2
    concurrency: int = 2
    workers: int = field(default_factory=_default_workers)
    executor: str = "local"
    split_referee: bool = False  # matches with remote entrants hosted by workers / Ray actors
    ray_address: str = "auto"  # used with executor = "ray" only
    master_seed: int | None = None  # None: a secret seed kept in the run folder (runner.py)
    output_dir: str = "runs"
    remote_wait_s: float = 30.0
    address: str = "127.0.0.1:0"
    elo_k: float = 32
    elo_start: float = 1500
    #: The submissions registry's folder (``NAME@VERSION`` entrants; a ladder adds its active ones).
    submissions: str | None = None
    #: The ``[sandbox]`` table, every key filled in (:data:`SANDBOX_DEFAULTS`).
    sandbox: dict[str, int] = field(default_factory=lambda: dict(SANDBOX_DEFAULTS), hash=False)
    unsandboxed: bool = False
    #: The game's roles for the ruleset and options, found while validating (see :meth:`roles`).
    game_roles: tuple[str, ...] = ("p1", "p2")
    #: Start positions (position dicts, written whole), played in turn with the seats swapped.
    positions: tuple[dict[str, Any], ...] = field(default=(), hash=False)

    def roles(self) -> tuple[str, ...]:
        """The game's roles under this ruleset and options, in seat order (e.g. ``("p1", "p2")``)."""
        return self.game_roles

    @property
    def run_dir(self) -> Path:
        """Where the outputs go: ``<output_dir>/<name>`` (relative to the current directory)."""
        return Path(self.output_dir) / self.name

    @property
    def is_ladder(self) -> bool:
        return self.format == "ladder"

    @property
    def multi_game(self) -> bool:
        """Whether a match is a series of games (the ``[match]`` table)."""
        return self.match_games is not None or self.target_score is not None

    @property
    def remote_entrants(self) -> tuple[str, ...]:
        """The ``remote:NAME`` entrants, in entrant order."""
        return tuple(e for e in self.entrants if is_remote(e))

    def to_json(self) -> dict[str, Any]:
        """The configuration as JSON-ready data (for a run folder's ``config.json``): the TOML
        layout with every default filled in, plus ``source`` and the game's ``roles``.
        :meth:`from_json` reads it back."""
        data: dict[str, Any] = {
            "source": self.source,
            "name": self.name,
            "game": self.game,
            "ruleset": self.ruleset,
            "options": dict(self.options),
            "roles": list(self.game_roles),
            "entrants": list(self.entrants),
            "format": self.format,
        }
        if self.format == "gauntlet":
            data["gauntlet"] = list(self.gauntlet)
        data.update(
            {
                "games_per_pairing": self.games_per_pairing,
                "paired_seeds": self.paired_seeds,
                **({"positions": [dict(p) for p in self.positions]} if self.positions else {}),
                "match": {"games": self.match_games, "target_score": self.target_score},
                "time_control": {
                    "bank_ms": self.bank_ms,
                    "increment_ms": self.increment_ms,
                    "max_per_decision_ms": self.max_per_decision_ms,
                },
                "faults": {"policy": self.fault_policy, "retries": self.retries},
                "concurrency": self.concurrency,
                "workers": self.workers,
                "executor": self.executor,
            }
        )
        if self.split_referee:
            data["split_referee"] = True
        if self.executor == "ray":
            data["ray_address"] = self.ray_address
        data.update(
            {
                "master_seed": self.master_seed,
                "output_dir": self.output_dir,
                "remote_wait_s": self.remote_wait_s,
                "address": self.address,
                "elo": {"k": self.elo_k, "start": self.elo_start},
                "sandbox": dict(self.sandbox),
                "unsandboxed": self.unsandboxed,
            }
        )
        if self.submissions is not None:
            data["submissions"] = self.submissions
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], *, registry: Any = None) -> TournamentConfig:
        """The configuration :meth:`to_json` wrote, validated again (``ConfigError`` if it is no
        longer valid, e.g. a bot has been uninstalled)."""
        data = dict(data)
        source = str(data.pop("source", "config.json"))
        data.pop("roles", None)
        data["match"] = {k: v for k, v in (data.get("match") or {}).items() if v is not None}
        if not data["match"]:
            del data["match"]
        if data.get("ruleset") is None:
            data.pop("ruleset", None)
        return parse_config(data, source=source, registry=registry)


# --- loading -----------------------------------------------------------------------------------

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END = re.compile(r"\s*\(at end of document\)\s*$")


def load_config(path: str | os.PathLike[str], *, registry: Any = None) -> TournamentConfig:
    """Read and validate the TOML file ``path``. Errors name the file as given."""
    source = str(path)
    try:
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise ConfigError(source, "", f"cannot read the file: {exc.strerror or exc}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(source, "", f"not UTF-8 text (byte {exc.start})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        where = ""
        if m := _TOML_POSITION.search(message):
            where = f"line {m.group(1)}, column {m.group(2)}"
            message = message[: m.start()]
        elif m := _TOML_END.search(message):
            where = "end of file"
            message = message[: m.start()]
        raise ConfigError(source, where, f"TOML syntax error: {message}") from None
    return parse_config(data, source=source, registry=registry)


def parse_config(data: Mapping[str, Any], *, source: str, registry: Any = None) -> TournamentConfig:
    """Validate ``data`` (a parsed TOML document) into a :class:`TournamentConfig`.

    ``source`` names the file in error messages. ``registry`` (default:
    :func:`standoff.server.plugins.load_registry()`) provides the bots and games.
    """
    if not isinstance(data, Mapping):
        raise ConfigError(source, "", f"expected a table of settings, got {_show(data)}")
    if registry is None:
        from ..server.plugins import load_registry

        registry = load_registry()
    return _Parser(source, registry).parse(data)


class _Parser:
    def __init__(self, source: str, registry: Any) -> None:
        self.source = source
        self.registry = registry

    def fail(self, key: str, message: str) -> NoReturn:
        raise ConfigError(self.source, key, message)

    # --- generic checks ---------------------------------------------------------------------

    def check_keys(self, table: Mapping[str, Any], known: tuple[str, ...], prefix: str = "") -> None:
        for key in table:
            if key not in known:
                close = difflib.get_close_matches(str(key), known, n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                self.fail(f"{prefix}{key}", f"unknown key ({hint}known: {', '.join(known)})")

    def table(self, data: Mapping[str, Any], key: str, known: tuple[str, ...]) -> dict[str, Any]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, f"expected a table ([{key}]), got {_show(value)}")
        self.check_keys(value, known, f"{key}.")
        return value

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            self.fail(key, f"expected a string, got {_show(value)}")
        return value

    def integer(self, value: Any, key: str, minimum: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or (minimum is not None and value < minimum):
            bound = f" >= {minimum}" if minimum is not None else ""
            self.fail(key, f"expected a whole number{bound}, got {_show(value)}")
        return value

    def number(self, value: Any, key: str, minimum: float | None = None, *, strict: bool = False) -> float:
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if ok and minimum is not None:
            ok = value > minimum if strict else value >= minimum
        if not ok:
            bound = "" if minimum is None else f" {'>' if strict else '>='} {minimum:g}"
            self.fail(key, f"expected a number{bound}, got {_show(value)}")
        return value

    def choice(self, value: Any, key: str, choices: tuple[str, ...]) -> str:
        if not isinstance(value, str) or value not in choices:
            self.fail(key, f"expected one of {', '.join(choices)}, got {_show(value)}")
        return value

    def names(self, value: Any, key: str) -> list[str]:
        if not isinstance(value, list):
            self.fail(key, f"expected an array of names, got {_show(value)}")
        for i, item in enumerate(value):
            if not isinstance(item, str):
                self.fail(f"{key}[{i}]", f"expected a string, got {_show(item)}")
        return value

    # --- the document ----------------------------------------------------------------------

    def parse(self, data: Mapping[str, Any]) -> TournamentConfig:
        self.check_keys(data, _TOP_KEYS)

        # name
        if "name" not in data:
            self.fail("name", "required: the tournament's name (letters, digits, '-', '_', '.')")
        name = self.string(data["name"], "name")
        if not _NAME_RE.fullmatch(name) or set(name) == {"."}:
            self.fail(
                "name",
                f"expected letters, digits, '-', '_' and '.' only (it names the output folder), got {name!r}",
            )

        # game, ruleset, options
        if "game" not in data:
            self.fail("game", f"required: one of {', '.join(sorted(self.registry.games)) or 'none'}")
        game_name = self.string(data["game"], "game")
        if game_name not in self.registry.games:
            known = ", ".join(sorted(self.registry.games)) or "none"
            self.fail("game", f"unknown game {game_name!r} (known: {known})")
        game = self.registry.games[game_name]
        ruleset = None
        if "ruleset" in data:
            ruleset = self.string(data["ruleset"], "ruleset")
        options_table = data.get("options", {})
        if not isinstance(options_table, dict):
            self.fail("options", f"expected a table ([options]), got {_show(options_table)}")
        options: dict[str, str] = {}
        for key, value in options_table.items():
            if not isinstance(value, str):
                hint = f' (quote it: "{_toml(value)}")' if isinstance(value, (int, float, bool)) else ""
                self.fail(f"options.{key}", f"expected a string{hint}, got {_show(value)}")
            options[key] = value
        known = tuple(getattr(game, "rulesets", ()))
        if ruleset is not None and known and ruleset not in known:
            self.fail("ruleset", f"unknown ruleset {ruleset!r} for {game.name} (choose from {', '.join(known)})")
        rules = self._rules(game, ruleset, options, "options")
        roles = tuple(rules.roles)

        # submissions, entrants
        submissions = None
        if "submissions" in data:
            submissions = self.string(data["submissions"], "submissions")
            if not submissions.strip():
                self.fail("submissions", "expected a folder path, got an empty string")
        open_ladder = submissions is not None and data.get("format") == "ladder"
        if "entrants" not in data and not open_ladder:
            self.fail("entrants", "required: an array of at least 2 bot names or \"remote:NAME\"")
        entrants = self.names(data.get("entrants", []), "entrants")
        seen: set[str] = set()
        for i, entrant in enumerate(entrants):
            key = f"entrants[{i}]"
            if entrant in seen:
                self.fail(key, f"duplicate entrant {entrant!r}")
            seen.add(entrant)
            if is_remote(entrant):
                if not _REMOTE_NAME_RE.fullmatch(remote_name(entrant)):
                    self.fail(
                        key,
                        f"bad remote entrant {entrant!r}: NAME in \"remote:NAME\" must match "
                        "[A-Za-z0-9][A-Za-z0-9_.-]*",
                    )
                continue
            if is_submission(entrant):
                self._submission(entrant, key, submissions, game_name, open_ladder)
                continue
            spec = self.registry.bots.get(entrant)
            if spec is None:
                known = ", ".join(sorted(self.registry.bots)) or "none"
                hint = " (or \"remote:NAME\" for a bot that connects over the network)" if ":" in entrant else ""
                self.fail(key, f"unknown bot {entrant!r} (known: {known}){hint}")
            if not spec.plays(game_name):
                self.fail(key, f"bot {entrant!r} does not play {game_name} (it plays {', '.join(spec.games)})")
        minimum = max(2, len(roles))
        if len(entrants) < minimum and not open_ladder:
            self.fail("entrants", f"expected at least {minimum} entrants, got {len(entrants)}")

        # format, gauntlet
        fmt = self.choice(data.get("format", "round_robin"), "format", FORMATS)
        gauntlet: list[str] = []
        if fmt == "gauntlet":
            if "gauntlet" not in data:
                self.fail("gauntlet", "required with format = \"gauntlet\": the entrants that play every other entrant")
            gauntlet = self.names(data["gauntlet"], "gauntlet")
            if not gauntlet:
                self.fail("gauntlet", "expected at least one entrant")
            for i, entrant in enumerate(gauntlet):
                if entrant not in entrants:
                    self.fail(f"gauntlet[{i}]", f"{entrant!r} is not an entrant (entrants: {', '.join(entrants)})")
                if entrant in gauntlet[:i]:
                    self.fail(f"gauntlet[{i}]", f"duplicate name {entrant!r}")
            others = len(entrants) - len(gauntlet)
            if others < len(roles) - 1:
                self.fail(
                    "gauntlet",
                    "must leave at least "
                    + (f"{len(roles) - 1} entrants" if len(roles) > 2 else "one entrant")
                    + " out of the list (they are the opponents)",
                )
        elif "gauntlet" in data:
            self.fail("gauntlet", f"only used with format = \"gauntlet\" (format is {fmt!r})")

        # games
        games_per_pairing = self.integer(data.get("games_per_pairing", 2), "games_per_pairing", 1)
        paired = data.get("paired_seeds", True)
        if not isinstance(paired, bool):
            self.fail("paired_seeds", f"expected true or false, got {_show(paired)}")
        if paired and games_per_pairing % len(roles):
            what = "even" if len(roles) == 2 else f"a multiple of {len(roles)} (the number of roles)"
            self.fail(
                "games_per_pairing",
                f"must be {what} when paired_seeds = true (each seed is played once per seating), "
                f"got {games_per_pairing}",
            )

        positions = self._positions(data, game, rules, roles, paired, games_per_pairing)

        # [match]
        match = self.table(data, "match", _MATCH_KEYS)
        match_games = target_score = None
        if "match" in data:
            if capability(game, "flags_claimed") is None:
                multi = ", ".join(sorted(n for n, g in self.registry.games.items() if capability(g, "flags_claimed")))
                self.fail("match", f"multi-game matches are only defined for {multi or 'no game here'}, not {game_name!r}")
            if not match:
                self.fail("match", "expected games = N and/or target_score = S")
            if "games" in match:
                match_games = self.integer(match["games"], "match.games", 1)
            if "target_score" in match:
                target_score = self.integer(match["target_score"], "match.target_score", 1)
            if positions:
                self.fail("positions", "start positions are for one-game matches: drop the [match] table")

        # [time_control], [faults]
        tc = self.table(data, "time_control", _TIME_KEYS)
        times = {key: self.integer(tc.get(key, 0), f"time_control.{key}", 0) for key in _TIME_KEYS}
        faults = self.table(data, "faults", _FAULT_KEYS)
        policy = self.choice(faults.get("policy", "forfeit"), "faults.policy", FAULT_POLICIES)
        retries = self.integer(faults.get("retries", 2), "faults.retries", 0)

        # running
        concurrency = self.integer(data.get("concurrency", 2), "concurrency", 1)
        workers = self.integer(data.get("workers", _default_workers()), "workers", 1)
        executor = self.choice(data.get("executor", "local"), "executor", EXECUTORS)
        split_referee = data.get("split_referee", False)
        if not isinstance(split_referee, bool):
            self.fail("split_referee", f"expected true or false, got {_show(split_referee)}")
        ray_address = "auto"
        if executor == "ray":
            ray_address = self.string(data.get("ray_address", "auto"), "ray_address")
            self._check_ray_address(ray_address)
            if importlib.util.find_spec("ray") is None:
                self.fail("executor", "\"ray\" needs Ray, which is not installed: pip install 'standoff[ray]'")
        elif "ray_address" in data:
            self.fail("ray_address", f"only used with executor = \"ray\" (executor is {executor!r})")
        master_seed = data.get("master_seed")
        if master_seed is not None:
            master_seed = self.integer(master_seed, "master_seed")
        output_dir = self.string(data.get("output_dir", "runs"), "output_dir")
        if not output_dir.strip():
            self.fail("output_dir", "expected a folder path, got an empty string")
        remote_wait_s = float(self.number(data.get("remote_wait_s", 30.0), "remote_wait_s", 0))
        address = self.string(data.get("address", "127.0.0.1:0"), "address")
        self._check_address(address)
        elo = self.table(data, "elo", _ELO_KEYS)
        elo_k = self.number(elo.get("k", 32), "elo.k", 0, strict=True)
        elo_start = self.number(elo.get("start", 1500), "elo.start")
        table = self.table(data, "sandbox", _SANDBOX_KEYS)
        sandbox = {key: self.integer(table.get(key, default), f"sandbox.{key}", 1)
                   for key, default in SANDBOX_DEFAULTS.items()}
        if sandbox["uid_base"] + 100_000 > 2**32 - 2:
            self.fail("sandbox.uid_base", f"expected a uid below {2**32 - 100_002}, got {sandbox['uid_base']}")
        unsandboxed = data.get("unsandboxed", False)
        if not isinstance(unsandboxed, bool):
            self.fail("unsandboxed", f"expected true or false, got {_show(unsandboxed)}")

        return TournamentConfig(
            source=self.source,
            name=name,
            game=game_name,
            ruleset=ruleset,
            options=options,
            entrants=tuple(entrants),
            format=fmt,
            gauntlet=tuple(gauntlet),
            games_per_pairing=games_per_pairing,
            paired_seeds=paired,
            match_games=match_games,
            target_score=target_score,
            fault_policy=policy,
            retries=retries,
            concurrency=concurrency,
            workers=workers,
            executor=executor,
            split_referee=split_referee,
            ray_address=ray_address,
            master_seed=master_seed,
            output_dir=output_dir,
            remote_wait_s=remote_wait_s,
            address=address,
            elo_k=elo_k,
            elo_start=elo_start,
            submissions=submissions,
            sandbox=sandbox,
            unsandboxed=unsandboxed,
            game_roles=roles,
            positions=positions,
            **times,
        )

    def _positions(self, data: Mapping[str, Any], game: Any, rules: Any, roles: tuple[str, ...], paired: bool,
                   games_per_pairing: int) -> tuple[dict[str, Any], ...]:
        """The ``positions`` key: files (relative to the config file) or texts, loaded, checked and
        written whole."""
        if "positions" not in data:
            return ()
        items = data["positions"]
        if not isinstance(items, list) or not items:
            self.fail("positions", f"expected a non-empty array of position files, got {_show(items)}")
        from ..sdk.positions import PositionError, from_position, read_position, to_position

        base = Path(self.source).parent
        loaded = []
        for i, item in enumerate(items):
            key = f"positions[{i}]"
            try:
                if isinstance(item, dict):  # config.json keeps the positions themselves
                    text: Any = item
                elif isinstance(item, str):
                    path = base / item
                    text = read_position(path if path.is_file() else item, game)
                else:
                    self.fail(key, f"expected a file name, got {_show(item)}")
                state = from_position(game, text)
            except PositionError as exc:
                self.fail(key, str(exc))
            if (state.rules.ruleset, dict(state.rules.options)) != (rules.ruleset, dict(rules.options)):
                self.fail(key, "the position's ruleset and options differ from the tournament's")
            if game.decision(state) is None:
                self.fail(key, "the match is over in this position")
            loaded.append(to_position(state, game))
        if not paired:
            self.fail("positions", "start positions are played with the seats swapped: paired_seeds must be true")
        block = len(roles) * len(loaded)
        if games_per_pairing % block:
            self.fail("games_per_pairing", f"must be a multiple of {block} with {len(loaded)} position(s) "
                      f"(each played once per seating), got {games_per_pairing}")
        return tuple(loaded)

    def _submission(self, entrant: str, key: str, folder: str | None, game: str, ladder: bool) -> None:
        """An entrant ``NAME@VERSION``: a submission of the registry, that plays ``game``, active
        (a ladder's may be retired since: its rounds leave it out)."""
        from ..server.submissions import SubmissionError, lookup, resolve

        if folder is None:
            self.fail(key, f"{entrant!r} names a submitted bot: say where the registry is (submissions = \"DIR\")")
        try:
            found = lookup(folder, entrant)
            if not (ladder and found is not None and not found.active):
                resolve(folder, entrant, game)
        except SubmissionError as exc:
            self.fail(key, str(exc))

    def _rules(self, game: Any, ruleset: str | None, options: dict[str, str] | None, key: str) -> Any:
        from ..server.core.game import RulesError

        try:
            return game.rules(ruleset, options)
        except RulesError as exc:
            self.fail(key, str(exc))

    def _check_ray_address(self, address: str) -> None:
        if address in ("auto", "local"):
            return
        rest = address[len("ray://"):] if address.startswith("ray://") else address
        m = _HOST_PORT_RE.fullmatch(rest)
        if m is None or not 0 < int(m.group(2)) <= 65535:
            self.fail(
                "ray_address",
                f"expected \"auto\", \"local\", \"ray://HOST:PORT\" or \"HOST:PORT\" (port 1 to 65535), got {address!r}",
            )

    def _check_address(self, address: str) -> None:
        host, sep, port = address.rpartition(":")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        if not sep or not host or not port.isdigit() or int(port) > 65535:
            self.fail("address", f"expected \"HOST:PORT\" (port 0 to 65535; 0: any free port), got {address!r}")


# --- messages ----------------------------------------------------------------------------------


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _show(value: Any) -> str:
    """A value as it looks in TOML, with its kind when that is not obvious: ``-5``, ``2.5``,
    ``'5' (a string)``, ``true (a boolean)``, ``an array``, ``a table``."""
    if isinstance(value, bool):
        return f"{_toml(value)} (a boolean)"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        text = value if len(value) <= 40 else value[:37] + "..."
        return f"{text!r} (a string)"
    if isinstance(value, list):
        return f"an array of {len(value)}"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, (datetime, date, time)):
        return f"{value.isoformat()} (a date/time)"
    return type(value).__name__
