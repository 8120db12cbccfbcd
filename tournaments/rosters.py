"""The entrants of each round of a ladder open to submissions (config key ``submissions``).

Such a ladder's entrants change between rounds: each round has the config's ``entrants`` (less
the submissions retired since) and every active submission of the registry that plays the game,
in the order registered. A round's entrants are fixed when its first match is scheduled and
written to the run folder's ``rounds.jsonl`` (one line per round, fsync'd before any of its
matches starts)::

    {"round": 2, "entrants": ["greedy", "alice@1", "bob@1"], "first_index": 12}

so that a resume plays each round begun with the entrants it began with, whatever was
submitted or retired meanwhile. ``first_index`` is the index of the round's first match: a
round is numbered on from where the one before ended (:func:`~.schedule.ladder_round`'s
``first_index``), so indices stay unique and in play order across rounds of different sizes.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from pathlib import Path

from ..server.private_files import open_private
from ..server.submissions import SubmissionError, is_entrant, load
from .config import TournamentConfig, is_submission
from .errors import RunError
from .model import MatchSpec
from .schedule import ladder_round, pairings

__all__ = ["ROUNDS_FILE", "Round", "Rosters", "current_entrants", "round_matches"]

#: The run folder's file of the entrants of each round.
ROUNDS_FILE = "rounds.jsonl"


@dataclass(frozen=True)
class Round:
    """One ladder round's entrants and the index of its first match."""

    number: int
    entrants: tuple[str, ...]
    first_index: int


def current_entrants(config: TournamentConfig) -> tuple[str, ...]:
    """The entrants a round beginning now has: ``config.entrants`` less the submissions retired
    (or gone from the registry), then the active submissions that play the game."""
    try:
        submissions = load(config.submissions) if config.submissions is not None else []
    except SubmissionError as exc:
        raise RunError(str(exc)) from None
    active = {s.entrant for s in submissions if s.active}
    named = [e for e in config.entrants if not is_entrant(e) or e in active]
    added = [s.entrant for s in submissions if s.active and s.plays(config.game) and s.entrant not in named]
    return (*named, *added)


class Rosters:
    """The rounds of a run folder's ``rounds.jsonl``, and the rounds made as the ladder goes on."""

    def __init__(self, config: TournamentConfig, folder: Path) -> None:
        self.config = config
        self.path = Path(folder) / ROUNDS_FILE
        self.rounds: dict[int, Round] = {}
        if self.path.exists():
            self._read()

    def _read(self) -> None:
        lines = self.path.read_text(encoding="utf-8").splitlines(keepends=True)
        for n, line in enumerate(lines, 1):
            try:
                data = json.loads(line)
                item = Round(int(data["round"]), tuple(map(str, data["entrants"])), int(data["first_index"]))
            except (ValueError, KeyError, TypeError):
                if n == len(lines):  # torn by a kill mid-write: that round had not begun
                    with open_private(self.path, "w") as f:
                        f.write("".join(lines[:-1]))
                    break
                raise RunError(f"{self.path}: line {n}: not a round's entrants; use --fresh to start again") from None
            self.rounds[item.number] = item

    def round(self, number: int) -> Round:
        """Round ``number``'s entrants: those recorded, or (the next round) those of now,
        recorded first. :class:`RunError` when fewer entrants than the game has seats are
        active."""
        found = self.rounds.get(number)
        if found is not None:
            return found
        before = self.rounds.get(number - 1)
        if number > 1 and before is None:
            raise RunError(f"{self.path}: round {number - 1} is not recorded; use --fresh to start again")
        first = 0 if before is None else before.first_index + self.size(before)
        entrants = current_entrants(self.config)
        minimum = max(2, len(self.config.roles()))
        if len(entrants) < minimum:
            raise RunError(f"ladder round {number} needs at least {minimum} entrants; active now: "
                           f"{', '.join(entrants) or 'none'} (submit more, or add entrants)")
        made = Round(number, entrants, first)
        with open_private(self.path, "a") as f:
            f.write(json.dumps({"round": number, "entrants": list(entrants), "first_index": first}) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self.rounds[number] = made
        return made

    def size(self, item: Round) -> int:
        """How many matches the full round has (every pairing of its entrants)."""
        return len(pairings(self.config_of(item), round_robin=True)) * self.config.games_per_pairing

    def config_of(self, item: Round) -> TournamentConfig:
        """The config with the round's entrants (what :func:`~.schedule.ladder_round` schedules)."""
        return replace(self.config, entrants=item.entrants)

    def everyone(self) -> list[str]:
        """Every entrant of a round recorded so far (and of the config), in order of appearance."""
        names = dict.fromkeys(self.config.entrants)
        for number in sorted(self.rounds):
            names.update(dict.fromkeys(self.rounds[number].entrants))
        return list(names)


def round_matches(config: TournamentConfig, number: int, untrusted: frozenset[str],
                  rosters: Rosters | None) -> list[MatchSpec]:
    """Ladder round ``number``'s matches: among the config's entrants, or, with ``rosters``,
    those its roster has (recorded now if the round is new; a submission's pairings unpaired).
    ``untrusted``: as for :func:`~.schedule.ladder_round`."""
    if rosters is None:
        return ladder_round(config, number, untrusted=untrusted)
    item = rosters.round(number)
    submitted = frozenset(e for e in item.entrants if is_submission(e))
    return ladder_round(rosters.config_of(item), number, untrusted=untrusted | submitted,
                        first_index=item.first_index)
