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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..server.local import new_seed
from ..server.private_files import private_dir, replace_private
from ..server.records import cut_torn_tail
from .config import TournamentConfig
from .errors import RunError
from .model import Result
from .report import read_results
from .rosters import ROUNDS_FILE, Rosters, round_matches
from .schedule import schedule, untrusted_entrants

__all__ = ["EXECUTION_KEYS", "SECRET_SEED_FILE", "Prepared", "first_round", "prepare", "prepare_run_dir",
           "resolve_master_seed", "run_dir_of"]


def run_dir_of(config: TournamentConfig) -> Path:
    return Path(config.output_dir) / config.name


def prepare_run_dir(config: TournamentConfig, *, fresh: bool = False, verify: bool = True,
                    registry: Any = None) -> tuple[Path, list[Result]]:
    """Create or reopen the run folder; returns it and the results already there.

    A folder made by a different configuration is refused (resume must not mix tournaments),
    except for :data:`EXECUTION_KEYS` (where matches run does not change them); ``fresh`` wipes
    the previous results (and the secret master seed) first. A torn last line (a kill mid-write)
    is cut off. With ``verify``, results already there are checked first (the chain, every record
    against its digest and its line; replaying every record is ``standoff verify``'s job): a run
    whose files were changed is refused (:class:`RunError` naming the first bad line). The folder,
    ``records/`` and every file the run writes are private (``0700``/``0600``, those of an older
    version too: :mod:`standoff.server.private_files`).
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
    elif config_path.exists() and (differ := _differences(config_path.read_text(), config)):
        raise RunError(
            f"{folder} holds a run of a different configuration ({'; '.join(differ)}); use another "
            "name, or --fresh to start it again"
        )
    replace_private(config_path, wanted)
    # a record, result file or seed being stored when the run was killed
    for torn in [*folder.glob(".*.tmp"), *(folder / "records").glob(".*.tmp")]:
        torn.unlink(missing_ok=True)
    if results_path.exists():
        cut_torn_tail(results_path)
        if verify:
            from ..server.verify import VerifyError, verify_folder

            try:
                verify_folder(folder, registry=registry, replay_records=False)
            except VerifyError as exc:
                raise RunError(f"{exc}; refusing to resume (--no-verify to resume anyway)") from None
        results = read_results(results_path)
    else:
        results = []
    return folder, results


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


def _check_schedule(config: TournamentConfig, done: list[Result], untrusted: frozenset[str], folder: Path,
                    rosters: Rosters | None = None) -> None:
    """Refuse to resume results that the schedule no longer gives (seed, seats, pair, leg): a
    run begun by a version that paired the legs of untrusted entrants would mix the two."""
    if not done:
        return
    # A finite format may be run as a ladder too (`standoff ladder`): its rounds' ids are apart.
    rounds = sorted({res.round for res in done})
    if rosters is not None:  # a ladder open to submissions: the rounds recorded
        rounds = [r for r in rounds if r in rosters.rounds]
    specs = [m for r in rounds for m in round_matches(config, r, untrusted, rosters)]
    if config.format != "ladder":
        specs += schedule(config, untrusted=untrusted)
    by_id = {spec.match_id: spec for spec in specs}
    for result in done:
        spec = by_id.get(result.match_id)
        if spec is not None and (spec.seed, spec.seats, spec.pair, spec.leg) != (
                result.seed, tuple(result.seats.values()), result.pair, result.leg):
            raise RunError(
                f"{folder}: results.jsonl: match {result.match_id} is not the one this version schedules "
                "(pairings with remote or untrusted entrants are now played unpaired); use --fresh to start "
                "the run again")


def first_round(config: TournamentConfig, done: list[Result], rosters: Rosters | None = None) -> int:
    """The ladder round to go on with: the last one begun, unless every match of it is done."""
    if rosters is not None and rosters.rounds:  # a round is begun once its entrants are recorded
        last = max(rosters.rounds)
    elif not done:
        return 1
    else:
        last = max(result.round for result in done)
    done_ids = {result.match_id for result in done}
    return last + 1 if all(m.match_id in done_ids for m in round_matches(config, last, frozenset(), rosters)) else last


@dataclass
class Prepared:
    """A run folder opened for a run: the config with its master seed resolved and the results
    already there."""

    config: TournamentConfig
    folder: Path
    done: list[Result]
    rosters: Rosters | None = None  # a config with submissions: each ladder round's entrants

    def entrants(self) -> list[str]:
        """Every entrant of the run so far (a ladder's submissions included), for the ratings."""
        return self.rosters.everyone() if self.rosters is not None else list(self.config.entrants)


def prepare(config: TournamentConfig, registry: Any, *, fresh: bool = False, verify: bool = True) -> Prepared:
    """Open (or create) the run folder, resolve the master seed and check that the results
    already there are the matches the schedule gives. ``verify``: check them first
    (:func:`standoff.server.verify.verify_folder`), refusing a run whose results or records were
    changed."""
    folder, done = prepare_run_dir(config, fresh=fresh, verify=verify, registry=registry)
    resolved = resolve_master_seed(config, folder)
    rosters = Rosters(resolved, folder) if resolved.submissions is not None else None
    _check_schedule(resolved, done, untrusted_entrants(resolved, registry), folder, rosters)
    return Prepared(resolved, folder, done, rosters)
