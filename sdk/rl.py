"""Reinforcement learning on Standoff's engines: fixed action ids, observation tensors built from a
seat's view alone, and the adapter that turns a trained policy into a :class:`~standoff.sdk.Bot`.

Needs the ``rl`` extra (``pip install 'standoff[rl]'``: numpy; the environments also need
gymnasium, pettingzoo and open-spiel). The engines never import numpy: this module sits on top.

    from standoff.sdk.rl import spec_for, policy_bot

    spec = spec_for(game_name, ruleset)                # action table + observation encoder
    obs = spec.observe(game.view(state, role))         # float32 vector, from the view only
    mask = spec.mask(decision)                         # int8, 1 for the legal action ids
    bot = policy_bot(lambda obs, mask: int(mask.argmax()), game_name, ruleset=ruleset)

The same :class:`RLSpec` (action table and encoder) serves the PettingZoo and Gymnasium
environments (:mod:`standoff.sdk.rl_envs`), the OpenSpiel games (:mod:`standoff.sdk.rl_openspiel`)
and :class:`PolicyBot`, so an agent trained in any of them plays unchanged in tournaments and over
gRPC. docs/training.md walks through it.

Every game gets one, found by name in the plugin registry: a game whose
:class:`~standoff.sdk.GameSpec` has an ``rl`` part (a :class:`~standoff.server.rl.GameRL`: the
built-in games' are in their packages) uses its tables; any other game gets the generic ones.

Action ids: one table per game and rules, every option key the engine can offer (chance outcomes
included, so OpenSpiel chance nodes use the same ids), sorted; :attr:`ActionTable.keys`. The keys
come from the game's ``GameRL.keys(rules)``, else from its ``option_keys(rules)`` method. Keys the
table lacks raise :class:`UnknownAction`.

Observations: :meth:`RLSpec.observe` reads only the view dict (``game.view(state, role)`` or, in a
bot, ``as_dict(view)``), its history included: a game's ``GameRL.memory`` keeps what a seat's
history showed it beyond its current view (:mod:`standoff.sdk.rl_views`). Seats are ordered from
the observer: "me" first, then the others in the rules' order after it, so one policy can play
every seat. :attr:`Encoder.layout` names the slices for hand-written features. The generic
encoder (:class:`GenericEncoder`) hashes the view's facts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..server.rl import RECENT, ActionTable, Encoder, GameRL, UnknownAction, bucket
from ..server.specs import capability
from .bot import Bot
from .views import as_dict

__all__ = [
    "ActionTable",
    "Encoder",
    "GameRL",
    "GenericEncoder",
    "PolicyBot",
    "RLSpec",
    "UnknownAction",
    "action_table",
    "recent_view",
    "policy_bot",
    "spec_for",
]


def recent_view(game: Any, state: Any, role: str, applied: int) -> dict[str, Any]:
    """``game.view(state, role)`` with only the recent history the observation needs (entries
    numbered after ``applied - 16``, ``applied`` being the number of decisions applied so far,
    chance included): the whole history costs time linear in the match's length. For a game
    without a seat memory (``GameRL.memory``) the observation is the same as from the full view;
    with one, along a match, ask views from :meth:`RLSpec.observer`'s ``history_from`` and observe
    them with that observer."""
    return game.view(state, role, max(0, applied - 16))


# -- the game's parts, through the registry ------------------------------------------------------------


def _game_spec(name: str) -> Any:
    """The registry's spec of game ``name`` (``ValueError`` naming the known games)."""
    from ..server.plugins import UnknownGame, game_spec

    try:
        return game_spec(name)
    except UnknownGame as exc:
        raise ValueError(str(exc)) from None


def _keys(spec: Any, rules: Any) -> list[str]:
    if spec.rl is not None:
        return list(spec.rl.keys(rules))
    option_keys = capability(spec.game, "option_keys")
    if option_keys is None:
        raise ValueError(f"game {spec.name!r} has no action table: its GameSpec has no rl part and the game "
                         "no option_keys(rules) method (docs/training.md)")
    return list(option_keys(rules))


def action_table(game: str, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> ActionTable:
    """The action table of game ``game`` under a ruleset and rules options (the default ones if
    not given; a game may offer the same keys under every ruleset)."""
    return _table(game, ruleset, tuple(sorted((options or {}).items())))


@lru_cache(maxsize=64)
def _table(game: str, ruleset: str | None, options: tuple[tuple[str, str], ...]) -> ActionTable:
    spec = _game_spec(game)
    return ActionTable(game, _keys(spec, spec.game.rules(ruleset, dict(options))))


# -- the generic observation -------------------------------------------------------------------------


class GenericEncoder(Encoder):
    """The observation of a game that brings no encoder: the seat (one-hot, in the rules' order),
    the view's facts hashed into :attr:`BUCKETS` counters, and the last history entries (action
    id one-hot, by me or not, by chance or not).

    A fact is one leaf of the view as a path and a value: ``.scores.@0=3``, ``.hand[]=5`` (a list
    of plain values counts each value, and its length as ``.hand#=4``), ``.rounds[2].prize=7`` (a
    list of records keeps positions). Roles are written from the seat: ``@0`` for the observer,
    ``@1``... for the others in turn order, in keys and values alike, so one policy plays every
    seat. Each fact adds 1 to its bucket (crc32 of its text; counts stop at 8): two facts may
    share a bucket, and numbers are categories, not magnitudes. The view's ``role``, ``history``
    and ``history_from`` are left out (the history's last entries have their own slices); what
    the seat's memory knows (``known``) is a fact ``known=<item>`` each."""

    BUCKETS = 1024
    SKIP = frozenset(("role", "history", "history_from"))

    def _build(self) -> None:
        self._add("seat", len(self.roles))
        self._add("facts", self.BUCKETS)
        for back in range(RECENT):
            self._add(f"recent{back}", len(self.table) + 2)

    def facts(self, view: Mapping[str, Any]) -> list[str]:
        """The facts of ``view`` as text, in a fixed order (for hand-written features and tests)."""
        names = {role: f"@{i}" for i, role in enumerate(self.seats(view["role"]))}
        return list(_facts({k: v for k, v in view.items() if k not in self.SKIP}, "", names))

    def encode(self, view: Mapping[str, Any], known: Any = ()) -> np.ndarray:
        out = self.zeros()
        me = view["role"]
        out[self.layout["seat"].start + self.roles.index(me)] = 1.0
        base = self.layout["facts"].start
        for fact in [*self.facts(view), *(f"known={k}" for k in known)]:
            j = base + bucket(fact, self.BUCKETS)
            out[j] = min(out[j] + 1.0, RLSpec.HIGH)
        self._recent(out, view, me)
        return out


def _plain(value: Any, names: Mapping[str, str]) -> str:
    if isinstance(value, str):
        return names.get(value, value)
    return json.dumps(value, sort_keys=True)


def _facts(value: Any, path: str, names: Mapping[str, str]) -> Iterator[str]:
    """The leaves of ``value`` under ``path``: see :class:`GenericEncoder`."""
    if isinstance(value, Mapping):
        for name, key in sorted((_plain(key, names), key) for key in value):  # by the seat's names
            yield from _facts(value[key], f"{path}.{name}", names)
    elif isinstance(value, (list, tuple)):
        if all(not isinstance(v, (Mapping, list, tuple)) for v in value):
            yield f"{path}#={len(value)}"
            for v in value:
                yield f"{path}[]={_plain(v, names)}"
        else:
            for i, v in enumerate(value):
                yield from _facts(v, f"{path}[{i}]", names)
    else:
        yield f"{path}={_plain(value, names)}"


# -- the spec: everything the environments share ----------------------------------------------------


@dataclass(frozen=True)
class RLSpec:
    """A game and ruleset as an RL problem: the engine's game and rules, the action table, the
    observation encoder."""

    game: Any
    rules: Any
    table: ActionTable
    encoder: Encoder
    #: the game's :class:`GameRL` (``None``: the generic tables)
    parts: GameRL | None = None
    #: the game's omniscient text board (``GameSpec.state_board``), if it has one
    state_board: Callable[[Any], str] | None = None

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(self.rules.roles)

    @property
    def num_actions(self) -> int:
        return len(self.table)

    #: every observation value lies in [LOW, HIGH] (the environments' Box bounds)
    LOW = -1.0
    HIGH = 8.0

    @property
    def observation_size(self) -> int:
        return self.encoder.size

    def observe(self, view: Any) -> np.ndarray:
        """The observation vector of a view (a dict, or a typed view from the SDK) with its whole
        history (``history_from`` 0: a seat memory reads what it showed; ``ValueError``
        otherwise). Along a match, :meth:`observer` reads only each view's new entries."""
        view = as_dict(view)
        return self.observer(view["role"]).observe(view)

    def observer(self, role: str) -> Any:
        """A :class:`~standoff.sdk.rl_views.SeatObserver`: ``role``'s observations along one match,
        remembering what its history showed (``GameRL.memory``)."""
        from .rl_views import SeatObserver

        return SeatObserver(self, role)

    def render(self, state: Any) -> str:
        """The whole table as text (every hand shown: never give it to a seat): the game's
        ``render``, else its spec's ``state_board``, else every seat's view as canonical JSON."""
        render = getattr(self.game, "render", None)
        board = render if callable(render) else self.state_board
        if board is not None:
            return board(state)
        return json.dumps({role: self.game.view(state, role) for role in self.roles}, sort_keys=True)

    def mask(self, decision: Any) -> np.ndarray:
        return self.table.mask(decision.options)

    def legal_actions(self, decision: Any) -> list[int]:
        return sorted(self.table.ids(decision.options))

    def option_index(self, decision: Any, action: int) -> int:
        """The index in ``decision.options`` of action id ``action`` (``ValueError`` if illegal)."""
        key = self.table.keys[action]
        for i, option in enumerate(decision.options):
            if option.key == key:
                return i
        raise ValueError(f"action {action} ({key}) is not legal at step {decision.step!r}")


def spec_for(game: str, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> RLSpec:
    """The :class:`RLSpec` of a game of the registry, ruleset and rules options (made once, then
    shared: specs are read-only). ``ValueError`` for an unknown game."""
    return _spec(game, ruleset, tuple(sorted((options or {}).items())))


@lru_cache(maxsize=64)
def _spec(game: str, ruleset: str | None, options: tuple[tuple[str, str], ...]) -> RLSpec:
    spec = _game_spec(game)
    rules = spec.game.rules(ruleset, dict(options))
    table = _table(game, ruleset, options)
    parts = spec.rl
    make = parts.encoder if parts is not None and parts.encoder is not None else GenericEncoder
    return RLSpec(spec.game, rules, table, make(table, rules.roles), parts, spec.state_board)


# -- from a policy to a Bot ----------------------------------------------------------------------------

#: ``policy(observation, mask) -> action id``; ``mask`` is int8 with 1 for the legal ids.
Policy = Callable[[np.ndarray, np.ndarray], int]


class PolicyBot(Bot):
    """A :class:`~standoff.sdk.Bot` that plays a policy (observation, mask → action id).

    It builds the observation from its seat's view (exactly what the environments give the
    agent) and answers with the index of the chosen action's option. It plays in tournaments
    (register it as a plugin bot: docs/training.md), in ``standoff play`` and over gRPC with
    :func:`standoff.sdk.client.run`. A policy that returns an illegal id is a bug: the bot counts
    a fallback and plays the first legal option. ``policy`` may take a third argument, the bot's
    ``random.Random`` (seeded per match), to sample."""

    name = "policy"
    games: tuple[str, ...] = ()

    def __init__(self, policy: Policy, game: str, *, ruleset: str | None = None,
                 options: Mapping[str, str] | None = None, name: str | None = None, seed: int = 0,
                 sample: bool = False) -> None:
        super().__init__(seed)
        self.policy = policy
        self.game = game
        self.games = (game,)
        if name:
            self.name = name
        self.sample = sample
        self._ruleset = ruleset
        self._options = dict(options or {})
        self.spec = spec_for(game, ruleset, self._options)
        self._observer: Any = None  # this match's SeatObserver (its memory of the history)

    def start(self, match: Any) -> None:
        super().start(match)
        if match.ruleset != self.spec.rules.ruleset or dict(match.options) != dict(self.spec.rules.options):
            self.spec = spec_for(self.game, match.ruleset, match.options)
        self._observer = None

    def choose(self, decision: Any, view: Any) -> int:
        spec = self.spec
        view = as_dict(view)
        observer = self._observer
        if observer is None or observer.role != view["role"]:
            observer = self._observer = spec.observer(view["role"])
        obs = observer.observe(view)
        mask = spec.mask(decision)
        action = self.policy(obs, mask, self.rng) if self.sample else self.policy(obs, mask)
        try:
            return spec.option_index(decision, int(action))
        except (ValueError, IndexError) as exc:
            self.count_fallback(exc, decision)
            return 0


def policy_bot(policy: Policy, game: str, **kwargs: Any) -> PolicyBot:
    """``PolicyBot(policy, game, **kwargs)``: see :class:`PolicyBot`."""
    return PolicyBot(policy, game, **kwargs)
