"""Standoff's games as OpenSpiel Python games.

    import pyspiel
    import standoff.sdk.rl_openspiel  # registers the games

    game = pyspiel.load_game("python_standoff_schotten_totten", {"ruleset": "classic"})
    game = pyspiel.load_game("python_standoff_twilight_struggle", {"end_turn": 4})

Every ruleset and rules option is a game parameter: strings (``""`` takes the ruleset's default),
and ints for the whole-number options ``decision_cap`` and ``end_turn`` (0: the default).
The games are sequential, imperfect information, with explicit chance nodes: a chance node's
outcomes are the engine's chance options (the deal, each draw, each die) as action ids of the
game's table (:func:`standoff.sdk.rl.action_table`), with their probabilities (uniform, or the
decision's weights). Players are the rules' roles in order (Schotten Totten ``p1``, ``p2``...;
Twilight Struggle 0 = ``ussr``, 1 = ``us``). Returns are zero-sum: +1 / -1, 0 for a draw (with
three seats a loss is -1/2).

What a player observes is built from its seat's view (``game.view(state, role)``) and nothing
else:

* ``information_state_string``: the view as canonical JSON with its whole history (every
  decision as that seat saw it, hidden keys redacted): perfect recall;
* ``observation_string``: the same view without the history;
* ``information_state_tensor`` and ``observation_tensor``: the observation vector of
  :mod:`standoff.sdk.rl` (the view's current facts and its last history entries; the same vector
  for both, it is not a perfect-recall encoding).

``state.resample_from_infostate(player, sampler)`` re-deals what the player cannot see with the
engine's ``determinize`` (so OpenSpiel's ISMCTS runs unchanged; the sampler's stream seeds the
re-deal).

Needs open-spiel (``pip install 'standoff[rl]'``).
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import numpy as np
import pyspiel

from ..server.core.game import CHANCE
from .rl import RLSpec, recent_view, spec_for

__all__ = ["GAMES", "StandoffOpenSpielGame", "StandoffOpenSpielState", "load"]

#: OpenSpiel short name → Standoff game name
GAMES = {
    "python_standoff_schotten_totten": "schotten-totten",
    "python_standoff_twilight_struggle": "twilight-struggle",
}
#: game parameters: the ruleset and every rules option of the game ("" = the ruleset's default)
_PARAMETERS = {
    "schotten-totten": ("claim_timing", "tactics", "first", "stalemate", "decision_cap"),
    "twilight-struggle": ("optional_cards", "chinese_civil_war", "bid", "end_turn"),
}
#: whole-number options: OpenSpiel parameters of type int (0 = the ruleset's default), since
#: OpenSpiel reads ``end_turn=10`` in a game string as an int
_INT_PARAMETERS = frozenset(("decision_cap", "end_turn"))
_MAX_GAME_LENGTH = {"schotten-totten": 20_000, "twilight-struggle": 50_000}


def _game_type(short_name: str, game: str, max_players: int, min_players: int) -> pyspiel.GameType:
    params = {"ruleset": ""} | {name: (0 if name in _INT_PARAMETERS else "") for name in _PARAMETERS[game]}
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Standoff {game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_TYPES = {
    "python_standoff_schotten_totten": _game_type("python_standoff_schotten_totten", "schotten-totten", 3, 2),
    "python_standoff_twilight_struggle": _game_type("python_standoff_twilight_struggle", "twilight-struggle", 2, 2),
}


def _spec_of(game: str, params: dict[str, Any]) -> RLSpec:
    ruleset = params.get("ruleset") or None
    options = {k: str(v) for k, v in params.items() if k != "ruleset" and v not in ("", None, 0)}
    return spec_for(game, ruleset, options)


class StandoffOpenSpielGame(pyspiel.Game):
    """One Standoff game, ruleset and option set as an OpenSpiel game."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        name = GAMES[self.short_name]
        self.rl = _spec_of(name, params)
        n = len(self.rl.roles)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.rl.num_actions,
            max_chance_outcomes=self.rl.num_actions,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_MAX_GAME_LENGTH[name],
        )
        full = {"ruleset": self.rl.rules.ruleset} | dict(self.rl.rules.options)
        game_type = _TYPES[self.short_name]
        super().__init__(game_type, info, {
            k: (int if k in _INT_PARAMETERS else str)(full.get(k, v)) for k, v in game_type.parameter_specification.items()
        })

    def new_initial_state(self) -> StandoffOpenSpielState:
        return StandoffOpenSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.rl, perfect_recall)


class _SchottenTotten(StandoffOpenSpielGame):
    short_name = "python_standoff_schotten_totten"


class _TwilightStruggle(StandoffOpenSpielGame):
    short_name = "python_standoff_twilight_struggle"


class _Match:
    """What a state holds: the spec (shared), the engine state and its pending decision. Copied by
    the engine's own ``copy()`` when OpenSpiel clones a state (deepcopy of the Python state)."""

    __slots__ = ("rl", "state", "decision")

    def __init__(self, rl: RLSpec, state: Any) -> None:
        self.rl = rl
        self.state = state
        self.decision = rl.game.decision(state)

    def __deepcopy__(self, memo: dict) -> _Match:
        clone = _Match.__new__(_Match)
        clone.rl = self.rl
        clone.state = self.state.copy()
        clone.decision = self.decision
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
        render = getattr(self.rl.game, "render", None)
        return render(self.engine_state) if render else repr(self.engine_state)

    # -- what a player knows --

    def view(self, player: int, recent: bool = False) -> dict[str, Any]:
        """The player's view; ``recent``: with only the recent history (what observations use)."""
        state = self.match.state
        if recent:
            return recent_view(self.rl.game, state, self.rl.roles[player], getattr(state, "number", 0))
        return self.rl.game.view(state, self.rl.roles[player])

    def resample_from_infostate(self, player: int, sampler: Any = None) -> StandoffOpenSpielState:
        """A state the player cannot tell from this one: the engine's ``determinize`` for its
        role, seeded from ``sampler`` (a ``pyspiel.UniformProbabilitySampler``, or anything
        callable returning a float in [0, 1)) or else from Python's ``random``."""
        seed = int(sampler() * 2**53) if callable(sampler) else random.getrandbits(53)
        other = self.rl.game.determinize(self.engine_state, self.rl.roles[player], random.Random(seed))
        clone = copy.deepcopy(self)
        clone.match = _Match(self.rl, other)
        return clone


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


class _Observer:
    """OpenSpiel's PyObserver: tensor and strings of one player, from that player's view."""

    def __init__(self, spec: RLSpec, perfect_recall: bool) -> None:
        self.rl = spec
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(spec.observation_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: StandoffOpenSpielState, player: int) -> None:
        self.tensor[:] = self.rl.observe(state.view(player, recent=True))

    def string_from(self, state: StandoffOpenSpielState, player: int) -> str:
        view = state.view(player, recent=not self.perfect_recall)
        if not self.perfect_recall:
            view = {k: v for k, v in view.items() if k not in ("history", "history_from")}
        return _canonical(view)


for _cls in (_SchottenTotten, _TwilightStruggle):
    pyspiel.register_game(_TYPES[_cls.short_name], _cls)


def load(game: str = "schotten-totten", **params: str) -> pyspiel.Game:
    """``pyspiel.load_game`` by Standoff game name: ``load("schotten-totten", ruleset="classic")``."""
    short = {v: k for k, v in GAMES.items()}[game]
    return pyspiel.load_game(short, {k: (int(v) if k in _INT_PARAMETERS else str(v)) for k, v in params.items()})
