"""A tournament's run folder: opened or created, checked, and resumed from where it stands.

A run folder (``output_dir/name``) holds the config it was begun with, the secret master seed,
``results.jsonl`` (the ledger, :mod:`standoff.server.ledger`), ``elo.jsonl``, ``ratings.json``,
``records/`` and, for a ladder open to submissions, each round's entrants (:mod:`.rosters`).
:func:`prepare` opens one for a run: a folder of a different configuration, results that were
changed, or results the schedule no longer gives are refused (:class:`RunError`, one line); what
is there is what a resume goes on from.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..server.local import new_seed
from ..server.private_files import private_dir, replace_private
from ..server.records import cut_torn_tail
from ..server.storage import StorageError
from ..server.verify import VerifyError
from . import run_index
from .config import TournamentConfig
from .errors import RunError
from .rosters import ROUNDS_FILE, Rosters, round_matches
from .run_index import RunIndex
from .schedule import schedule, untrusted_entrants

__all__ = ["EXECUTION_KEYS", "SECRET_SEED_FILE", "Prepared", "first_round", "open_index", "prepare", "prepare_run_dir",
           "resolve_master_seed", "run_dir_of"]


def run_dir_of(config: TournamentConfig) -> Path:
    return Path(config.output_dir) / config.name


def prepare_run_dir(config: TournamentConfig, *, fresh: bool = False, verify: bool = True,
                    registry: Any = None) -> tuple[Path, RunIndex]:
    """Create or reopen the run folder; returns it and its index (open, caught up with the
    files: :mod:`.run_index`).

    A folder made by a different configuration is refused (resume must not mix tournaments),
    except for :data:`EXECUTION_KEYS` (where matches run does not change them); ``fresh`` wipes
    the previous results (and the secret master seed, and the index) first. A torn last line (a
    kill mid-write) is cut off. With ``verify``, what the index does not hold yet is checked as it
    is indexed: the chain from the last point the index checked, and every record the new lines
    name (its digest and its outcome against the line); a results file cut or rewritten before
    that point, or changed in place, is checked whole. A run whose files were changed is refused
    (:class:`RunError` naming the first bad line). Records of lines indexed earlier, and the
    replay of every record by the rules, are ``standoff verify``'s job. The folder, ``records/``
    and every file the run writes are private (``0700``/``0600``, those of an older version too:
    :mod:`standoff.server.private_files`).
    """
    folder = run_dir_of(config)
    private_dir(folder)
    private_dir(folder / "records")
    config_path = folder / "config.json"
    wanted = json.dumps(config.to_json(), sort_keys=True, indent=2) + "\n"
    results_path = folder / "results.jsonl"
    if fresh:
        for name in ("results.jsonl", "elo.jsonl", "ratings.json", SECRET_SEED_FILE, ROUNDS_FILE):
            (folder / name).unlink(missing_ok=True)
        for record in (folder / "records").glob("*.jsonl"):
            record.unlink()
        run_index.remove(folder)
    elif config_path.exists() and (differ := _differences(config_path.read_text(), config)):
        raise RunError(
            f"{folder} holds a run of a different configuration ({'; '.join(differ)}); use another "
            "name, or --fresh to start it again"
        )
    replace_private(config_path, wanted)
    # a record, result file or seed being stored when the run was killed
    for torn in [*folder.glob(".*.tmp"), *(folder / "records").glob(".*.tmp")]:
        torn.unlink(missing_ok=True)
    index = open_index(folder, verify=verify, elo=(config.elo_k, config.elo_start), registry=registry)
    if results_path.exists():
        try:
            cut_torn_tail(results_path)  # past the index's point: it never holds a torn line
            index.record_stat()
        except BaseException:
            index.close()
            raise
    return folder, index


def open_index(folder: Path, *, verify: bool = True, elo: tuple[float, float] | None = None,
               registry: Any = None) -> RunIndex:
    """The run folder's index, open and caught up (:meth:`.run_index.RunIndex.open`), its
    failures as one line: :class:`RunError` (a changed file: "refusing to resume"; an index file
    that cannot be used)."""
    try:
        return RunIndex.open(folder, verify=verify, elo=elo, registry=registry)
    except VerifyError as exc:
        raise RunError(f"{exc}; refusing to resume (--no-verify to resume anyway)") from None
    except StorageError as exc:
        raise RunError(str(exc)) from None


#: The run folder's file holding a secret master seed (a config without ``master_seed``).
SECRET_SEED_FILE = "master_seed"


def resolve_master_seed(config: TournamentConfig, folder: Path) -> TournamentConfig:
    """``config`` with a master seed: its own, or the run's secret one (drawn with
    :mod:`secrets` on the first run and kept only in ``folder/master_seed``, readable by its
    owner only; a resume reads it back)."""
    if config.master_seed is not None:
        return config
    path = folder / SECRET_SEED_FILE
    if path.exists():
        try:
            seed = int(path.read_text(encoding="utf-8").strip())
        except (OSError, ValueError):
            raise RunError(f"{path}: not a seed (a whole number); restore it, or --fresh to start again") from None
    else:
        seed = new_seed()
        replace_private(path, f"{seed}\n")
    return replace(config, master_seed=seed)


#: Config keys that do not change any result: a run may be resumed with other values. Where
#: and how fast matches run (every executor gives the same results: start on this machine, finish
#: on a Ray cluster), where the config file and the run folder are (a run folder moved or copied
#: elsewhere, with its config or not, resumes: nothing in it names its own place), where the
#: referee listens, the Elo log's K and start (elo.jsonl is recomputed from the results), and
#: the untrusted entrants' sandbox (its limits may be raised for the rest of a run).
EXECUTION_KEYS = ("source", "output_dir", "executor", "split_referee", "ray_address", "concurrency", "workers",
                  "address", "elo", "sandbox", "unsandboxed")


def _differences(saved: str, config: TournamentConfig) -> list[str]:
    """The keys (with old and new value) where ``saved`` (a run folder's config.json) and
    ``config`` differ in what changes results; ``["config.json"]`` if it is unreadable."""
    try:
        old = json.loads(saved)
    except ValueError:
        return ["config.json (unreadable)"]
    if not isinstance(old, dict):
        return ["config.json (not an object)"]
    new = json.loads(json.dumps(config.to_json()))
    return [
        f"{key}: {json.dumps(old.get(key))} → {json.dumps(new.get(key))}"
        for key in sorted(set(old) | set(new))
        if key not in EXECUTION_KEYS and old.get(key) != new.get(key)
    ]


def _check_schedule(config: TournamentConfig, index: RunIndex, untrusted: frozenset[str], folder: Path,
                    rosters: Rosters | None = None, rounds: Iterable[int] = ()) -> None:
    """Refuse to resume results that the schedule no longer gives (seed, seats, pair, leg): a
    run begun by a version that paired the legs of untrusted entrants would mix the two. What is
    compared: the results of the ladder ``rounds`` the run goes on from (the last one begun) and,
    for a finite format, of its whole schedule (bounded); each looked up in the index, not read
    from the file. Earlier ladder rounds were compared when the run went on from them."""
    if not index.count():
        return
    # A finite format may be run as a ladder too (`standoff ladder`): its rounds' ids are apart.
    rounds = sorted(set(rounds))
    if rosters is not None:  # a ladder open to submissions: the rounds recorded
        rounds = [r for r in rounds if r in rosters.rounds]
    specs = [m for r in rounds for m in round_matches(config, r, untrusted, rosters)]
    if config.format != "ladder":
        specs += schedule(config, untrusted=untrusted)
    found = index.lookup(spec.match_id for spec in specs)
    for spec in specs:
        result = found.get(spec.match_id)
        if result is not None and (spec.seed, spec.seats, spec.pair, spec.leg) != (
                result.seed, tuple(result.seats.values()), result.pair, result.leg):
            raise RunError(
                f"{folder}: results.jsonl: match {result.match_id} is not the one this version schedules "
                "(pairings with remote or untrusted entrants are now played unpaired); use --fresh to start "
                "the run again")


def first_round(config: TournamentConfig, index: RunIndex, rosters: Rosters | None = None) -> int:
    """The ladder round to go on with: the last one begun, unless every match of it is done
    (looked up in the index: the round's matches, not the history)."""
    if rosters is not None and rosters.rounds:  # a round is begun once its entrants are recorded
        last = max(rosters.rounds)
    else:
        last = index.max_round()
        if last is None:
            return 1
    ids = [m.match_id for m in round_matches(config, last, frozenset(), rosters)]
    return last + 1 if len(index.done_among(ids)) == len(set(ids)) else last


@dataclass
class Prepared:
    """A run folder opened for a run: the config with its master seed resolved, the run's index
    (open: the runner writes through it and closes it) and what the runner needs of the results
    already there: ``done``, the match ids with a result among those it may play (the ladder
    rounds from ``first``, or the finite schedule), never the whole history."""

    config: TournamentConfig
    folder: Path
    done: set[str]
    rosters: Rosters | None = None  # a config with submissions: each ladder round's entrants
    index: RunIndex | None = None
    first: int = 1  # a ladder: the round to go on with

    def entrants(self) -> list[str]:
        """Every entrant of the run so far (a ladder's submissions included), for the ratings."""
        return self.rosters.everyone() if self.rosters is not None else list(self.config.entrants)


def prepare(config: TournamentConfig, registry: Any, *, fresh: bool = False, verify: bool = True,
            ladder: bool = False) -> Prepared:
    """Open (or create) the run folder, resolve the master seed and check that the results
    already there are the matches the schedule gives. ``verify``: check what the index does not
    hold yet first (:func:`prepare_run_dir`), refusing a run whose results or records were
    changed. ``ladder``: the run goes on as a ladder (a finite format run by ``standoff
    ladder``)."""
    folder, index = prepare_run_dir(config, fresh=fresh, verify=verify, registry=registry)
    try:
        resolved = resolve_master_seed(config, folder)
        rosters = Rosters(resolved, folder) if resolved.submissions is not None else None
        untrusted = untrusted_entrants(resolved, registry)
        is_ladder = ladder or resolved.format == "ladder"
        first = first_round(resolved, index, rosters if is_ladder else None) if is_ladder else 1
        last = index.max_round()
        _check_schedule(resolved, index, untrusted, folder, rosters, [r for r in (last, first) if r is not None])
        if is_ladder:
            done = index.ids_from_round(first)
        else:
            done = index.done_among(spec.match_id for spec in schedule(resolved, untrusted=untrusted))
    except StorageError as exc:
        index.close()
        raise RunError(str(exc)) from None
    except BaseException:
        index.close()
        raise
    return Prepared(resolved, folder, done, rosters, index, first)
