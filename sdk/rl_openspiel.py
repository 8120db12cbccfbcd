"""Standoff's games as OpenSpiel Python games.

    import pyspiel
    from standoff.sdk import rl_openspiel  # registers the games the plugin registry finds

    game = pyspiel.load_game(rl_openspiel.short_name(game_name), {"ruleset": ruleset})
    game = rl_openspiel.load(game_name, ruleset=ruleset)       # registers a game first if need be

Every game of the plugin registry is one (:func:`standoff.sdk.rl.spec_for`: its own tables or the
generic ones), named ``python_standoff_<name>`` (:func:`short_name`). Every ruleset and rules
option is a game parameter: strings (``""`` takes the ruleset's default), and ints for the options
whose defaults are whole numbers in every ruleset (0: the default). The games are sequential,
imperfect information, with explicit chance nodes: a chance node's outcomes are the engine's
chance options (the deal, each draw, each die) as action ids of the game's table
(:func:`standoff.sdk.rl.action_table`), with their probabilities (uniform, or the decision's
weights). Players are the rules' roles in order. Returns are zero-sum: +1 / -1, 0 for a draw (with
three seats a loss is -1/2).

What a player observes is built from its seat's view (``game.view(state, role)``) and nothing
else:

* ``information_state_string``: the view as canonical JSON with its whole history (every
  decision as that seat saw it, hidden keys redacted): perfect recall;
* ``observation_string``: the same view without the history (with a seat memory, ``GameRL.memory``,
  it lists what the seat's history showed it beyond the view: ``opponent_known``);
* ``information_state_tensor`` and ``observation_tensor``: the observation vector of
  :mod:`standoff.sdk.rl` (the view's current facts, what its history showed of the other hand
  and its last history entries; the same vector for both, it is not a perfect-recall encoding).

``game.make_py_observer(pyspiel.IIGObservationType(...))`` honours the observation type:
``private_info`` ``NONE`` is the public observation (no card of any hand, nothing only one seat
knows, the history's private entries redacted: :func:`standoff.sdk.rl_views.public_view`),
``SINGLE_PLAYER`` the seat's view (the default above), ``ALL_PLAYERS`` every seat's view (one
vector per seat, in the rules' order); ``public_info=False`` keeps only what the seat's view adds
to the public one; ``perfect_recall`` gives the strings the whole history.

``state.resample_from_infostate(player, sampler)`` re-deals what the player cannot see with the
engine's ``determinize`` (so OpenSpiel's ISMCTS runs unchanged; the sampler's stream seeds the
re-deal).

Needs open-spiel (``pip install 'standoff[rl]'``).
"""

from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import numpy as np
import pyspiel

from ..server.core.game import CHANCE
from ..server.specs import capability
from .rl import RLSpec, spec_for
from .rl_views import SeatObserver, private_part, public_view

__all__ = ["GAMES", "StandoffOpenSpielGame", "StandoffOpenSpielState", "load", "register", "short_name"]

#: OpenSpiel short name → Standoff game name, of the games registered so far (:func:`register`)
GAMES: dict[str, str] = {}
#: a bound on a match's length for a game whose ``GameRL`` gives none (OpenSpiel's
#: ``max_game_length``: a bound, not a measure)
GENERIC_MAX_GAME_LENGTH = 100_000
_TYPES: dict[str, pyspiel.GameType] = {}
#: per short name: the rules options that are OpenSpiel ints (the others are strings)
_INTS: dict[str, frozenset[str]] = {}


def short_name(game: str) -> str:
    """The OpenSpiel short name of game ``game``: ``python_standoff_`` and the name with ``-``
    and spaces as ``_``."""
    return "python_standoff_" + re.sub(r"[- ]+", "_", game)


def _options(engine: Any) -> tuple[dict[str, str], frozenset[str]]:
    """Every rules option of the game (its rulesets' defaults, first seen first) and those that
    are whole numbers in every ruleset (OpenSpiel reads ``end_turn=10`` in a game string as an
    int, so those are int parameters)."""
    names: dict[str, str] = {}
    ints: set[str] = set()
    strings: set[str] = set()
    for ruleset in engine.rulesets:
        for name, value in engine.rules(ruleset).options.items():
            names.setdefault(name, "")
            (ints if str(value).isdigit() else strings).add(name)
    return names, frozenset(ints - strings)


def _game_type(short: str, game: str, engine: Any) -> pyspiel.GameType:
    options, ints = _options(engine)
    players = [len(engine.rules(r).roles) for r in engine.rulesets]
    _INTS[short] = ints
    params = {"ruleset": ""} | {name: (0 if name in ints else "") for name in options}
    return pyspiel.GameType(
        short_name=short,
        long_name=f"Standoff {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _spec_of(game: str, params: dict[str, Any]) -> RLSpec:
    ruleset = params.get("ruleset") or None
    options = {k: str(v) for k, v in params.items() if k != "ruleset" and v not in ("", None, 0)}
    return spec_for(game, ruleset, options)


class StandoffOpenSpielGame(pyspiel.Game):
    """One Standoff game, ruleset and option set as an OpenSpiel game."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.rl = _spec_of(GAMES[self.short_name], params)
        n = len(self.rl.roles)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rl.num_actions,
            max_chance_outcomes=self.rl.num_actions,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=(self.rl.parts and self.rl.parts.max_game_length) or GENERIC_MAX_GAME_LENGTH,
        )
        full = {"ruleset": self.rl.rules.ruleset} | dict(self.rl.rules.options)
        game_type = _TYPES[self.short_name]
        ints = _INTS[self.short_name]
        super().__init__(game_type, info, {
            k: (int if k in ints else str)(full.get(k, v)) for k, v in game_type.parameter_specification.items()
        })

    def new_initial_state(self) -> StandoffOpenSpielState:
        return StandoffOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        """The observer of ``iig_obs_type`` (``None``: the seat's view without perfect recall):
        see :class:`_Observer`. Takes no parameters."""
        if params:
            raise ValueError(f"{self.short_name} observers take no parameters, got {dict(params)}")
        if iig_obs_type is None:
            return _Observer(self.rl, False, True, pyspiel.PrivateInfoType.SINGLE_PLAYER)
        return _Observer(self.rl, bool(iig_obs_type.perfect_recall), bool(iig_obs_type.public_info),
                         iig_obs_type.private_info)


class _Match:
    """What a state holds: the spec (shared), the engine state and its pending decision. Copied by
    the engine's own ``copy()`` when OpenSpiel clones a state (deepcopy of the Python state)."""

    __slots__ = ("rl", "state", "decision", "observers")

    def __init__(self, rl: RLSpec, state: Any, observers: dict[int, SeatObserver] | None = None) -> None:
        self.rl = rl
        self.state = state
        self.decision = rl.game.decision(state)
        # each player's observer, made at its first observation: what it remembers of its history
        self.observers = observers if observers is not None else {}

    def __deepcopy__(self, memo: dict) -> _Match:
        clone = _Match.__new__(_Match)
        clone.rl = self.rl
        copy_state = getattr(self.state, "copy", None)
        clone.state = copy_state() if callable(copy_state) else copy.deepcopy(self.state, memo)
        clone.decision = self.decision
        clone.observers = {p: o.copy() for p, o in self.observers.items()}
        return clone


class StandoffOpenSpielState(pyspiel.State):
    """An engine state with OpenSpiel's API; the engine's decision tells who is to act."""

    def __init__(self, game: StandoffOpenSpielGame) -> None:
        super().__init__(game)
        self.match = _Match(game.rl, game.rl.game.new_state(game.rl.rules))

    @property
    def rl(self) -> RLSpec:
        return self.match.rl

    @property
    def decision(self) -> Any:
        return self.match.decision

    @property
    def engine_state(self) -> Any:
        """The engine's state (omniscient: never give it to a player)."""
        return self.match.state

    # -- players and actions --

    def current_player(self) -> int:
        decision = self.decision
        if decision is None:
            return pyspiel.PlayerId.TERMINAL
        if decision.role == CHANCE:
            return pyspiel.PlayerId.CHANCE
        return self.rl.roles.index(decision.role)

    def _legal_actions(self, player: int) -> list[int]:
        return self.rl.legal_actions(self.decision)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        decision = self.decision
        ids = self.rl.table.ids(decision.options)
        if decision.weights is None:
            p = 1.0 / len(ids)
            return sorted((a, p) for a in ids)
        total = float(sum(decision.weights))
        return sorted((a, w / total) for a, w in zip(ids, decision.weights, strict=True))

    def _apply_action(self, action: int) -> None:
        match = self.match
        index = match.rl.option_index(match.decision, action)
        match.rl.game.apply(match.state, match.decision.options[index])
        match.decision = match.rl.game.decision(match.state)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.rl.table.keys[action]

    def is_terminal(self) -> bool:
        return self.decision is None

    def returns(self) -> list[float]:
        if self.decision is not None:
            return [0.0] * len(self.rl.roles)
        outcome = self.rl.game.outcome(self.engine_state)
        n = len(self.rl.roles)
        return [(n * s - 1) / (n - 1) for s in outcome.scores]

    def __str__(self) -> str:
        return self.rl.render(self.engine_state)

    # -- what a player knows --

    def view(self, player: int, recent: bool = False) -> dict[str, Any]:
        """The player's view; ``recent``: with only the history its observer has not read yet
        and the recent entries (what observations use)."""
        if recent:
            return self.seat(player)[0]
        return self.rl.game.view(self.match.state, self.rl.roles[player])

    def seat(self, player: int, whole: bool = False) -> tuple[dict[str, Any], list[str]]:
        """The player's view (``whole``: with the whole history, else the recent part) after its
        observer read it, and what that observer knows beyond the view
        (the game's seat memory, ``GameRL.memory``)."""
        match = self.match
        observer = match.observers.get(player)
        if observer is None:
            observer = match.observers[player] = self.rl.observer(self.rl.roles[player])
        state = match.state
        start = 0 if whole else observer.history_from(getattr(state, "number", 0))
        view = self.rl.game.view(state, self.rl.roles[player], start)
        observer.remember(view)
        return view, observer.known()

    def resample_from_infostate(self, player: int, sampler: Any = None) -> StandoffOpenSpielState:
        """A state the player cannot tell from this one: the engine's ``determinize`` for its
        role, seeded from ``sampler`` (a ``pyspiel.UniformProbabilitySampler``, or anything
        callable returning a float in [0, 1)) or else from Python's ``random``."""
        determinize = capability(self.rl.game, "determinize")
        if determinize is None:
            raise ValueError(f"{self.rl.game.name} has no determinize: its states cannot be resampled")
        seed = int(sampler() * 2**53) if callable(sampler) else random.getrandbits(53)
        other = determinize(self.engine_state, self.rl.roles[player], random.Random(seed))
        clone = copy.deepcopy(self)
        # the player's view is the same in the re-deal (its observer holds); the others' are not
        kept = self.match.observers.get(player)
        clone.match = _Match(self.rl, other, {player: kept.copy()} if kept is not None else None)
        return clone


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class _Observer:
    """OpenSpiel's PyObserver of one observation type (``pyspiel.IIGObservationType``): the tensor
    and strings of a player, built from its seat's view and nothing else.

    ``private_info``: ``SINGLE_PLAYER`` the player's own (its hand, what only it knows: the seat's
    view, the default); ``NONE`` none (:func:`~standoff.sdk.rl_views.public_view`: no card of any
    hand, the history's private entries redacted); ``ALL_PLAYERS`` every player's (each seat's
    part in the rules' order: the tensor is one vector per seat). ``public_info`` False leaves the
    public information out: the strings keep what differs from the public view
    (:func:`~standoff.sdk.rl_views.private_part`), the tensor the slices that differ (the others
    zero); with no private information either, both are empty. ``perfect_recall``: the strings
    carry the whole history (the tensors are the same: the view's current facts and its last
    entries). With a seat memory, a seat's strings list what its history showed it beyond its
    view (``opponent_known``)."""

    def __init__(self, spec: RLSpec, perfect_recall: bool, public_info: bool, private_info: Any) -> None:
        self.rl = spec
        self.perfect_recall = perfect_recall
        self.public_info = public_info
        self.private_info = private_info
        seats = len(spec.roles) if private_info == pyspiel.PrivateInfoType.ALL_PLAYERS else 1
        empty = private_info == pyspiel.PrivateInfoType.NONE and not public_info
        self.tensor = np.zeros(0 if empty else seats * spec.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def _players(self, state: StandoffOpenSpielState, player: int) -> list[int]:
        if self.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return list(range(len(self.rl.roles)))
        return [player]

    def set_from(self, state: StandoffOpenSpielState, player: int) -> None:
        if not len(self.tensor):
            return
        size = self.rl.observation_size
        for i, p in enumerate(self._players(state, player)):
            self.tensor[i * size:(i + 1) * size] = self._vector(state, p)

    def _vector(self, state: StandoffOpenSpielState, player: int) -> np.ndarray:
        encode = self.rl.encoder.encode
        view, known = state.seat(player)
        if self.private_info == pyspiel.PrivateInfoType.NONE:
            return encode(public_view(self.rl, state.engine_state, view))
        seat = encode(view, known)
        if self.public_info:
            return seat
        public = encode(public_view(self.rl, state.engine_state, view))
        for part in self.rl.encoder.layout.values():  # keep the slices the public view lacks
            if np.array_equal(seat[part], public[part]):
                seat[part] = 0.0
        return seat

    def string_from(self, state: StandoffOpenSpielState, player: int) -> str:
        if self.private_info == pyspiel.PrivateInfoType.NONE and not self.public_info:
            return ""
        parts = {self.rl.roles[p]: self._part(state, p) for p in self._players(state, player)}
        if self.private_info != pyspiel.PrivateInfoType.ALL_PLAYERS:
            return _canonical(parts[self.rl.roles[player]])
        return _canonical(parts)

    def _part(self, state: StandoffOpenSpielState, player: int) -> dict[str, Any]:
        view, known = state.seat(player, whole=self.perfect_recall)
        public = public_view(self.rl, state.engine_state, view)
        if self.private_info != pyspiel.PrivateInfoType.NONE:
            if known:
                view = {**view, "opponent_known": known}
            if not self.public_info:
                view = private_part(view, public)
        else:
            view = public
        if not self.perfect_recall:
            view = {k: v for k, v in view.items() if k not in ("history", "history_from")}
        return view


def register(game: str) -> str:
    """Register game ``game`` (any game of the plugin registry) with OpenSpiel, if it is not yet;
    its short name (:func:`short_name`)."""
    short = short_name(game)
    if GAMES.setdefault(short, game) != game:
        raise ValueError(f"games {GAMES[short]!r} and {game!r} have the same OpenSpiel name {short}")
    if short not in _TYPES:
        engine = _spec_of(game, {}).game
        _TYPES[short] = _game_type(short, game, engine)
        cls = type(f"StandoffOpenSpielGame_{short}", (StandoffOpenSpielGame,), {"short_name": short})
        pyspiel.register_game(_TYPES[short], cls)
    return short


def load(game: str, **params: Any) -> pyspiel.Game:
    """``pyspiel.load_game`` by Standoff game name (registered first if need be):
    ``load(name, ruleset=...)``."""
    short = register(game)
    ints = _INTS[short]
    return pyspiel.load_game(short, {k: (int(v) if k in ints else str(v)) for k, v in params.items()})


def _register_known() -> None:
    """Register the games of the plugin registry (the built-in games and the installed plugins')."""
    from ..server.plugins import load_registry

    for game in load_registry().games:
        register(game)


_register_known()
