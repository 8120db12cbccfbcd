"""The matches of a tournament, in canonical order: :func:`schedule` for the finite formats
(round robin, double round robin, gauntlet) and :func:`ladder_round` for the rounds of a ladder.

Everything here is a pure function of the configuration: the same config gives the same list,
run after run and machine after machine (seeds come from SHA-256, never from ``hash()``).

**Order.** Cycles (rounds, for a ladder), then pairings, then the games of a pairing. Pairings
follow the order of ``entrants``: every ``(entrants[i], entrants[j])`` with ``i < j`` (for a game
with k roles, every k-combination, in :func:`itertools.combinations` order). In a gauntlet, each
entrant of the gauntlet list (taken in entrant order) against every entrant not in it (in
entrant order). With paired seeds, the legs of a seed are adjacent: leg 0, then leg 1 with the
seats swapped (rotated, for more roles), same seed, same ``pair``.

**Index.** ``index`` counts from 0 across the whole tournament: ``(cycle - 1) * M + k``, where
``M`` is the number of matches in one cycle (``pairings × games_per_pairing``) and ``k`` the
position within the cycle. A ladder round ``r`` is numbered the same way (``(r - 1) * M + k``,
``M`` for the full entrant list), so indices continue across rounds. A round among a *subset* of
the entrants (``ladder_round(config, r, entrants=[...])``) is the full round filtered to the
pairings whose entrants are all in the subset: every match keeps the index, id, seed and seats
it has in the full round. Indices are then not contiguous, but they are unique across all rounds
and the same whichever subset is asked for.

**Positions.** With start positions (``positions``), the legs of seed ``n`` of a pairing start from
position ``(n - 1) mod len(positions)`` (``position``, an index), so every position is played with
the seats swapped; without them ``position`` is ``None`` (the deal).

**Pair.** ``pair`` is ``index // len(roles)`` for paired-seed matches (so every leg of a seed has
the same value and the values are unique across the tournament), ``None`` otherwise.

**Untrusted pairings.** A pairing with an entrant the tournament plays on its referee (a
``remote:NAME`` entrant, always; a plugin bot that is not ``trusted``, given as ``untrusted``
by the runner: :func:`untrusted_entrants`) is played *unpaired* even with ``paired_seeds``:
each of its games has its own seed (``n`` the game number, ``pair`` ``None``, ``leg`` 0), as
without paired seeds. The legs of a seed deal the same cards with the seats rotated, so an
entrant seated in both could play one leg ahead of the other and read its opponent's hand and
every future draw off its own cards. Seats, indices, ids and positions are those the pairing
has paired (seats still rotate: every entrant holds every seat equally often), and pairings
among trusted entrants keep their pairs.

**Match id.** ``c<cycle>-<a>-vs-<b>-g<NN>`` (ladders: ``r<round, 3 digits>-<a>-vs-<b>-g<NN>``),
e.g. ``c1-greedy-vs-random-g03``: ``a``, ``b`` are the pairing's entrants in pairing order (not
the seats: both legs of a pair share the pairing), ``NN`` the game number within the pairing
(from 1, at least 2 digits). Entrant names are made file-name safe: any character other than
letters, digits, ``_``, ``.`` and ``-`` becomes ``_`` (``remote:alice`` → ``remote_alice``),
and a name is cut to 48 characters. Should two ids of a cycle still coincide (names equal after
this), each of them gets ``-i<index>`` appended.

**Seeds.** ``derive_seed(master_seed, "match", cycle_or_round, a, b, n)`` (a config without
``master_seed`` is scheduled with the run's secret one, see
:func:`standoff.tournaments.run_folder.resolve_master_seed`), with ``a``, ``b`` the
pairing's entrant names *sorted* (so a seed does not depend on where the entrants are in the
list) and ``n`` the pair number within the pairing (paired seeds, from 1) or the game number
(from 1; an unpaired pairing, see above). For more roles, every name of the pairing, sorted.

**Seats.** Game ``t`` of a pairing seats the pairing's entrants rotated by
``(sum of their positions in entrants + 1 + cycle - 1 + t) mod k`` for ``k`` roles. With two roles:
without paired seeds, who sits first alternates from game to game within a pairing, starts
differently from pairing to pairing (by the parity of the entrants' positions, so that with one
game per pairing each entrant has p1 about half the time), and flips from one cycle or round to
the next; with paired seeds the two legs of a seed swap the seats. With three roles (e.g.
a three-player ruleset) the same rotation walks the three cyclic seatings: with paired
seeds the three legs of a seed (``games_per_pairing`` is a multiple of 3) seat every entrant once
in each role, and without them each block of three games (games 1-3, 4-6...) does. Turns go
p1 → p2 → p3 → p1, so a rotation alone keeps who plays *after* whom: the entrant after A is
always B. So blocks alternate between the pairing's cyclic order and its reverse (A, C, B): the
second block (and, with two cycles, the second cycle) uses the reverse, and six games per pairing
play all six seatings once each. (Legs of one seed stay in one block: they share the
orientation.) For a pairing of more roles the same rule applies (the reverse is one
orientation among others: only the rotation is guaranteed).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from collections.abc import Iterable
from itertools import combinations
from typing import Any

from ..server.core.seeds import derive_seed
from .config import TournamentConfig, is_remote
from .model import MatchSpec

__all__ = ["ladder_round", "matches_per_cycle", "pairings", "schedule", "untrusted_entrants"]

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
_LABEL_MAX = 48


def pairings(config: TournamentConfig, *, round_robin: bool | None = None) -> list[tuple[str, ...]]:
    """The pairings of one cycle, in canonical order: tuples of ``len(roles)`` entrants.
    ``round_robin`` (default: unless the format is a gauntlet) ignores the gauntlet list."""
    size = len(config.roles())
    if round_robin is None:
        round_robin = config.format != "gauntlet"
    if round_robin:
        return list(combinations(config.entrants, size))
    chosen = set(config.gauntlet)
    others = [e for e in config.entrants if e not in chosen]
    return [
        (entrant, *rest)
        for entrant in config.entrants
        if entrant in chosen
        for rest in combinations(others, size - 1)
    ]


def matches_per_cycle(config: TournamentConfig) -> int:
    """How many matches one cycle (or one full ladder round) has."""
    return len(pairings(config)) * config.games_per_pairing


def untrusted_entrants(config: TournamentConfig, registry: Any) -> frozenset[str]:
    """The entrants the tournament plays on its referee: ``remote:NAME`` entrants, and plugin
    bots of ``registry`` that are not ``trusted`` (or that it does not know). Their pairings are
    played unpaired (see the module docstring)."""
    return frozenset(
        entrant for entrant in config.entrants
        if is_remote(entrant) or not getattr(registry.bots.get(entrant), "trusted", False)
    )


def schedule(config: TournamentConfig, *, untrusted: Iterable[str] = ()) -> list[MatchSpec]:
    """Every match of a finite format, in canonical order (see the module docstring).
    ``untrusted``: entrants whose pairings are played unpaired besides the remote ones (the
    runner passes :func:`untrusted_entrants`)."""
    if config.format == "ladder":
        raise ValueError("a ladder has no finite schedule: generate its rounds with ladder_round()")
    cycles = 2 if config.format == "double_round_robin" else 1
    unpaired = _unpaired(config, untrusted)
    matches: list[MatchSpec] = []
    for cycle in range(1, cycles + 1):
        matches += _cycle(config, cycle, pairings(config), f"c{cycle}", unpaired)
    return matches


def ladder_round(
    config: TournamentConfig, round_number: int, entrants: list[str] | tuple[str, ...] | None = None, *,
    untrusted: Iterable[str] = (), first_index: int | None = None,
) -> list[MatchSpec]:
    """The matches of ladder round ``round_number`` (from 1): every pairing among ``entrants``
    (default: all of ``config.entrants``) with ``games_per_pairing`` games, like one round-robin
    cycle. With a subset, the full round filtered to its pairings: indices, ids and seeds are those
    of the full round (see the module docstring). ``ValueError`` for a name not among the
    entrants. ``untrusted``: as for :func:`schedule`. ``first_index``: the index of the round's
    first match, instead of ``(round_number - 1) * M`` (a ladder whose rounds have entrants of
    their own numbers each round on from where the one before ended)."""
    if isinstance(round_number, bool) or not isinstance(round_number, int) or round_number < 1:
        raise ValueError(f"round_number must be a whole number >= 1, got {round_number!r}")
    full = _cycle(config, round_number, pairings(config, round_robin=True), f"r{round_number:03d}",
                  _unpaired(config, untrusted), first_index)
    if entrants is None:
        return full
    unknown = [e for e in entrants if e not in config.entrants]
    if unknown:
        raise ValueError(f"not entrants of {config.name}: {', '.join(map(repr, unknown))}")
    present = set(entrants)
    return [match for match in full if present.issuperset(match.seats)]


def _unpaired(config: TournamentConfig, untrusted: Iterable[str]) -> frozenset[str]:
    """The entrants whose pairings are played unpaired: remote ones and ``untrusted``."""
    return frozenset(config.remote_entrants).union(untrusted)


def _cycle(config: TournamentConfig, cycle: int, groups: list[tuple[str, ...]], prefix: str,
           unpaired: frozenset[str], first_index: int | None = None) -> list[MatchSpec]:
    """One cycle (or ladder round) over ``groups``, numbered from ``first_index`` (default
    ``(cycle - 1) * len(result)``); the pairings with an entrant of ``unpaired`` are played
    unpaired."""
    if config.master_seed is None:
        # Never derive seeds from a placeholder: a run resolves its secret seed first
        # (run_folder.resolve_master_seed).
        raise ValueError("the config has no master_seed: resolve the run's secret seed first")
    roles = len(config.roles())
    games = config.games_per_pairing
    per_cycle = len(groups) * games
    width = max(2, len(str(games)))
    position = {entrant: i for i, entrant in enumerate(config.entrants)}
    labels = {entrant: _UNSAFE.sub("_", entrant)[:_LABEL_MAX] for entrant in config.entrants}
    matches: list[MatchSpec] = []
    index = (cycle - 1) * per_cycle if first_index is None else first_index
    for group in groups:
        names = sorted(group)
        base = sum(position[e] for e in group) + 1 + (cycle - 1)
        vs = "-vs-".join(labels[e] for e in group)
        # With three or more roles, every other block of `roles` games (and every other cycle)
        # seats the entrants in the reverse cyclic order, so that who plays after whom is
        # balanced too (see the module docstring).
        reverse = (group[0], *group[:0:-1])
        paired = config.paired_seeds and not unpaired.intersection(group)
        for t in range(games):
            turn = (base + t) % roles
            order = reverse if roles > 2 and (t // roles + cycle - 1) % 2 else group
            seats = order[turn:] + order[:turn]
            if paired:
                n, pair, leg = t // roles + 1, index // roles, t % roles
            else:
                n, pair, leg = t + 1, None, 0
            # start positions take turns seed after seed; the legs of a seed share one
            start = (t // roles) % len(config.positions) if config.positions else None
            matches.append(
                MatchSpec(
                    index=index,
                    match_id=f"{prefix}-{vs}-g{t + 1:0{width}d}",
                    round=cycle,
                    seats=seats,
                    seed=derive_seed(config.master_seed, "match", cycle, *names, n),
                    pair=pair,
                    leg=leg,
                    position=start,
                )
            )
            index += 1
    counts = Counter(match.match_id for match in matches)
    if len(counts) < len(matches):
        matches = [
            replace(m, match_id=f"{m.match_id}-i{m.index}") if counts[m.match_id] > 1 else m for m in matches
        ]
    return matches
