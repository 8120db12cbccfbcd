"""Standoff's games as PettingZoo AEC environments and Gymnasium single-agent environments.

    from standoff.sdk.rl_envs import StandoffAECEnv, StandoffGymEnv

    env = StandoffAECEnv(game_name, ruleset=ruleset)      # every seat is an agent
    env = StandoffGymEnv(game_name, opponent="random")    # one seat vs a bot of the registry

Every game of the plugin registry has both (:func:`standoff.sdk.rl.spec_for`: its own tables or
the generic ones). Gymnasium ids are derived from the game's name (:func:`gym_id`:
``standoff/<Name>-v0``, the name's words capitalised); importing this module registers those of
the games the registry finds.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``
(:mod:`standoff.sdk.rl`: built from the seat's view only), actions are the game's fixed action
ids. Chance decisions (deals, draws, dice) are sampled inside the environment with a
``random.Random`` seeded by ``reset(seed=...)``; the same seed and actions replay the same match.
Rewards come at the end: +1 win, -1 loss, 0 draw (with three seats a loss is -1/2, so that the
rewards sum to 0).

Needs gymnasium and pettingzoo (``pip install 'standoff[rl]'``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from ..server.core.game import CHANCE, sample_chance
from .rl import RLSpec, spec_for

__all__ = ["GYM_IDS", "StandoffAECEnv", "StandoffGymEnv", "aec_env", "gym_env", "gym_id", "rewards_of"]


def rewards_of(spec: RLSpec, outcome: Any) -> dict[str, float]:
    """Zero-sum rewards from an outcome's scores: win +1, loss -1 (-1/(n-1) with n seats), draw 0."""
    n = len(spec.roles)
    return {role: (n * score - 1) / (n - 1) for role, score in zip(spec.roles, outcome.scores, strict=True)}


def _spaces(spec: RLSpec) -> tuple[spaces.Dict, spaces.Discrete]:
    observation = spaces.Dict({
        "observation": spaces.Box(-1.0, 8.0, (spec.observation_size,), np.float32),
        "action_mask": spaces.Box(0, 1, (spec.num_actions,), np.int8),
    })
    return observation, spaces.Discrete(spec.num_actions)


class _Table:
    """One match of the engine with chance played by a seeded generator."""

    def __init__(self, spec: RLSpec, rng: random.Random) -> None:
        self.spec = spec
        self.rng = rng
        self.state = spec.game.new_state(spec.rules)
        self.decision = None
        self.decisions = 0  # the seats' decisions
        self.applied = 0  # every decision, chance included (the views' history numbers)
        # each seat's observer reads only the history entries new since its last view
        self.observers = {role: spec.observer(role) for role in spec.roles}
        self.advance()

    def advance(self) -> None:
        """Play chance decisions until a seat must decide or the match is over."""
        game, state = self.spec.game, self.state
        while (decision := game.decision(state)) is not None and decision.role == CHANCE:
            game.apply(state, decision.options[sample_chance(self.rng, decision)])
            self.applied += 1
        self.decision = decision

    def play(self, action: int) -> None:
        index = self.spec.option_index(self.decision, action)
        self.spec.game.apply(self.state, self.decision.options[index])
        self.decisions += 1
        self.applied += 1
        self.advance()

    def observe(self, role: str, *, to_move: bool) -> dict[str, np.ndarray]:
        spec = self.spec
        observer = self.observers[role]
        observation = observer.observe(spec.game.view(self.state, role, observer.history_from(self.applied)))
        if to_move and self.decision is not None and self.decision.role == role:
            mask = spec.mask(self.decision)
        else:
            mask = np.zeros(spec.num_actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}


class StandoffAECEnv(AECEnv):
    """A PettingZoo AEC environment: every role of the game is an agent (``p1``, ``p2``...;
    ``ussr``, ``us``). The agent to act is the role of the engine's pending decision, so turn order
    follows the rules (several decisions in a row by one seat are normal). An illegal action
    raises ``ValueError``."""

    metadata = {"render_modes": ["ansi"], "name": "standoff_v0", "is_parallelizable": False}

    def __init__(self, game: str, ruleset: str | None = None, options: Mapping[str, str] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.rl = spec_for(game, ruleset, options)
        self.possible_agents = list(self.rl.roles)
        observation, action = _spaces(self.rl)
        self.observation_spaces = {a: observation for a in self.possible_agents}
        self.action_spaces = {a: action for a in self.possible_agents}
        self.render_mode = render_mode
        self._rng = random.Random(0)
        self.table: _Table | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.table = _Table(self.rl, self._rng)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.table.observe(agent, to_move=agent == self.agent_selection)

    def _after_move(self) -> None:
        decision = self.table.decision
        if decision is not None:
            self.agent_selection = decision.role
            return
        outcome = self.rl.game.outcome(self.table.state)
        for agent, reward in rewards_of(self.rl, outcome).items():
            self.rewards[agent] = reward
            self.terminations[agent] = True
            self.infos[agent] = {"termination": outcome.termination, "winner": outcome.winner}
        # the dead agents then take their ``step(None)`` turns, in seat order
        self.agent_selection = self.agents[0]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.table.play(int(action))
        self._after_move()
        self._accumulate_rewards()
        if self.render_mode == "ansi":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: pass render_mode='ansi'")
            return None
        return self.rl.render(self.table.state)

    def close(self) -> None:
        pass


def aec_env(game: str, **kwargs: Any) -> StandoffAECEnv:
    return StandoffAECEnv(game, **kwargs)


class _BotSeat:
    """A built-in (or any) bot in a seat, fed wire-decoded decisions and views like in a match."""

    def __init__(self, bot: Any, spec: RLSpec, role: str, seed: int, names: dict[str, str]) -> None:
        from ..server.seats import InProcessSeat
        from ..server.wire import match_started_message

        self.seat = InProcessSeat(bot, spec.game, "rl-env")
        self.seat.start(match_started_message("rl-env", spec.game, spec.rules, role, names, seed))
        self.number = 0

    def choose(self, state: Any, decision: Any) -> int:
        self.number += 1
        return self.seat.ask(state, decision, self.number, {})


class StandoffGymEnv(gymnasium.Env):
    """A Gymnasium environment: the agent plays one seat against a bot in the others.

    ``opponent``: the name of a bot of the plugin registry that plays the game (``random``,
    ``greedy``...: ``standoff bots`` lists them), a :class:`~standoff.sdk.Bot` class, or a
    callable ``seed -> Bot``; the bot is reseeded from each episode's seed. ``seat``:
    the agent's role, or ``None`` to alternate at random (from the episode's seed). The bot sees
    only its own view, through the same wire decoding as in a match.

    ``illegal``: what an action outside the mask does: ``"lose"`` (the default: the episode ends
    with reward -1 and ``info["illegal"]``; samplers that ignore the mask, like Gymnasium's
    checker, then still see valid episodes) or ``"raise"`` (``ValueError``). ``step()`` once the
    episode has ended (or before the first ``reset()``) raises ``RuntimeError``: call ``reset()``."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: str, ruleset: str | None = None, options: Mapping[str, str] | None = None,
                 opponent: Any = "random", seat: str | None = None, illegal: str = "lose",
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.rl = spec_for(game, ruleset, options)
        if seat is not None and seat not in self.rl.roles:
            raise ValueError(f"seat {seat!r} is not a role of {game}: {self.rl.roles}")
        if illegal not in ("lose", "raise"):
            raise ValueError("illegal must be 'lose' or 'raise'")
        self.observation_space, self.action_space = _spaces(self.rl)
        self.opponent = opponent
        self._registry: Any = None
        if isinstance(opponent, str):  # a name: checked now, made per episode
            self._registry = _registry(refresh=opponent not in _registry().bots)
            spec = self._registry.bot(opponent)
            if not spec.plays(self.rl.game.name):
                raise ValueError(f"bot {opponent!r} does not play {self.rl.game.name} (it plays {', '.join(spec.games)})")
        self.seat = seat
        self.illegal = illegal
        self.render_mode = render_mode
        self._rng = random.Random(0)
        self.table: _Table | None = None
        self.role = seat or self.rl.roles[0]
        self.bots: dict[str, _BotSeat] = {}

    def _make_bot(self, seed: int) -> Any:
        opponent = self.opponent
        if isinstance(opponent, str):
            return self._registry.make_bot(opponent, seed, self.rl.game.name)
        return opponent(seed)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        episode_seed = self._rng.getrandbits(63)
        roles = self.rl.roles
        self.role = self.seat or roles[self._rng.randrange(len(roles))]
        names = {r: ("agent" if r == self.role else str(self.opponent)) for r in roles}
        self.bots = {}
        for i, role in enumerate(roles):
            if role != self.role:
                self.bots[role] = _BotSeat(self._make_bot(episode_seed + i), self.rl, role, episode_seed + i, names)
        self.table = _Table(self.rl, random.Random(episode_seed))
        reward, done = self._opponents_move()
        if done:  # the bots ended the match before the agent's first decision
            raise RuntimeError("the match ended before the agent's first decision")
        return self._observation(), {"role": self.role}

    def _observation(self) -> dict[str, np.ndarray]:
        return self.table.observe(self.role, to_move=True)

    def _opponents_move(self) -> tuple[float, bool]:
        table = self.table
        while table.decision is not None and table.decision.role != self.role:
            decision = table.decision
            index = self.bots[decision.role].choose(table.state, decision)
            self.rl.game.apply(table.state, decision.options[index])
            table.applied += 1
            table.advance()
        if table.decision is None:
            outcome = self.rl.game.outcome(table.state)
            return rewards_of(self.rl, outcome)[self.role], True
        return 0.0, False

    def step(self, action: int):
        table = self.table
        if table is None or table.decision is None:
            raise RuntimeError("the episode is over (or not started): call reset() before step()")
        info: dict[str, Any] = {"role": self.role}
        mask = self.rl.mask(table.decision)
        action = int(action)
        if not (0 <= action < len(mask)) or not mask[action]:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal now")
            info["illegal"] = True
            table.decision = None
            return self._observation(), -1.0, True, False, info
        table.play(action)
        reward, done = self._opponents_move()
        if done:
            outcome = self.rl.game.outcome(table.state)
            info.update(termination=outcome.termination, winner=outcome.winner)
        return self._observation(), reward, done, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.rl.render(self.table.state)


def gym_env(game: str, **kwargs: Any) -> StandoffGymEnv:
    return StandoffGymEnv(game, **kwargs)


def _registry(refresh: bool = False) -> Any:
    """The plugin registry (loaded once per process, again with ``refresh``: a plugin installed
    since): the opponents' bots, the games."""
    global _REGISTRY
    if _REGISTRY is None or refresh:
        from ..server.plugins import load_registry

        _REGISTRY = load_registry()
    return _REGISTRY


_REGISTRY: Any = None

#: Gymnasium id → game name, of the games registered so far (:func:`gym_id`)
GYM_IDS: dict[str, str] = {}


def gym_id(game: str) -> str:
    """The Gymnasium id of game ``game``, registered if it is not yet: ``standoff/<Name>-v0``,
    the words of the game's name (split at ``-``, ``_``, spaces) capitalised and joined
    (``gymnasium.make(gym_id(name), ruleset=..., opponent=...)``)."""
    name = "".join(word[:1].upper() + word[1:] for word in re.split(r"[-_ ]+", game) if word)
    env_id = f"standoff/{name}-v0"
    if GYM_IDS.setdefault(env_id, game) != game:
        raise ValueError(f"games {GYM_IDS[env_id]!r} and {game!r} have the same Gymnasium id {env_id}")
    if env_id not in gymnasium.registry:
        gymnasium.register(id=env_id, entry_point=StandoffGymEnv, kwargs={"game": game})
    return env_id


for _game in _registry().games:
    gym_id(_game)
