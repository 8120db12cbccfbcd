"""Reinforcement learning on Standoff's engines: fixed action ids, observation tensors built from a
seat's view alone, and the adapter that turns a trained policy into a :class:`~standoff.sdk.Bot`.

Needs the ``rl`` extra (``pip install 'standoff[rl]'``: numpy; the environments also need
gymnasium, pettingzoo and open-spiel). The engines never import numpy: this module sits on top.

    from standoff.sdk.rl import spec_for, policy_bot

    spec = spec_for("schotten-totten", "classic")     # action table + observation encoder
    obs = spec.observe(game.view(state, role))         # float32 vector, from the view only
    mask = spec.mask(decision)                         # int8, 1 for the legal action ids
    bot = policy_bot(lambda obs, mask: int(mask.argmax()), "schotten-totten", ruleset="classic")

The same :class:`RLSpec` (action table and encoder) serves the PettingZoo and Gymnasium
environments (:mod:`standoff.sdk.rl_envs`), the OpenSpiel games (:mod:`standoff.sdk.rl_openspiel`)
and :class:`PolicyBot`, so an agent trained in any of them plays unchanged in tournaments and over
gRPC. docs/training.md walks through it.

Action ids: one table per game, every option key the engine can offer (chance outcomes included,
so OpenSpiel chance nodes use the same ids), sorted; :attr:`ActionTable.keys`. The table does not
depend on the ruleset (a ruleset offers a subset). Keys the table lacks raise
:class:`UnknownAction`: the tests play many random matches of every ruleset to keep it complete.

Observations: :meth:`RLSpec.observe` reads only the view dict (``game.view(state, role)`` or, in a
bot, ``as_dict(view)``), its history included: a Twilight Struggle seat remembers the cards of the
other hand a reveal showed it (The Cambridge Five's scoring cards, CIA Created, Lone Gunman) while
they stay there, in the ``opponent_hand`` slice (:mod:`standoff.sdk.rl_views`). Seats are ordered
from the observer: "me" first, then the others in the rules' order after it, so one policy can
play every seat. :attr:`Encoder.layout` names the slices (``hand``, ``flag3.me``,
``influence.us``...) for hand-written features.
"""

from __future__ import annotations

import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from .bot import Bot
from .views import as_dict

__all__ = [
    "ActionTable",
    "Encoder",
    "PolicyBot",
    "RLSpec",
    "UnknownAction",
    "action_table",
    "recent_view",
    "policy_bot",
    "spec_for",
]

ST = "schotten-totten"
TS = "twilight-struggle"
#: history entries at the end of the view encoded as one-hot action ids (what was just played:
#: the card a ``place`` step places, the card whose use a ``card_use`` step chooses...)
RECENT = 3


def recent_view(game: Any, state: Any, role: str, applied: int) -> dict[str, Any]:
    """``game.view(state, role)`` with only the recent history the observation needs (entries
    numbered after ``applied - 16``, ``applied`` being the number of decisions applied so far,
    chance included): the whole history costs time linear in the match's length. For Schotten
    Totten the observation is the same as from the full view; a Twilight Struggle seat's also
    needs what its earlier history showed of the other hand: along a match, ask views from
    :meth:`RLSpec.observer`'s ``history_from`` and observe them with that observer."""
    return game.view(state, role, max(0, applied - 16))


class UnknownAction(KeyError):
    """An option key that is not in the game's action table (the table is incomplete: a bug)."""


class ActionTable:
    """A fixed, sorted table of every option key a game can offer: key ↔ action id."""

    def __init__(self, game: str, keys: Sequence[str]) -> None:
        self.game = game
        self.keys: tuple[str, ...] = tuple(sorted(set(keys)))
        self.index: dict[str, int] = {k: i for i, k in enumerate(self.keys)}

    def __len__(self) -> int:
        return len(self.keys)

    def id(self, key: str) -> int:
        try:
            return self.index[key]
        except KeyError:
            raise UnknownAction(f"{self.game}: option key {key!r} is not in the action table") from None

    def ids(self, options: Sequence[Any]) -> list[int]:
        """The action id of each option (engine or SDK options: anything with ``.key``), in order."""
        return [self.id(o.key) for o in options]

    def mask(self, options: Sequence[Any]) -> np.ndarray:
        mask = np.zeros(len(self.keys), dtype=np.int8)
        for o in options:
            mask[self.id(o.key)] = 1
        return mask


# -- the action tables ---------------------------------------------------------------------------


def _st_keys() -> list[str]:
    from ..server.games.schotten_totten import cards as C
    from ..server.games.schotten_totten.state import DECK_NAMES

    keys = [f"card:{C.card_name(c)}" for c in range(70)]
    keys += [f"flag:{f}" for f in range(1, 10)]
    keys += [f"deck:{name}" for name in DECK_NAMES]
    keys += ["pass", "done", "discard"]
    keys += [f"role:p{n}" for n in range(1, 4)]  # chance: who starts
    return keys


#: ``choice:<key>`` literals of Twilight Struggle's event choices (events/*.py, ``ask(...)``);
#: the others are card ids, country ids and regions, added below.
TS_CHOICE_WORDS = (
    "accept", "add_ussr_influence", "boycott", "coup", "defcon_1", "defcon_2", "defcon_3", "defcon_4",
    "defcon_5", "double_ussr_influence", "influence", "keep", "leave_defcon", "lose_west_germany",
    "lower_defcon", "neither", "none", "one_in_south_africa_two_adjacent", "participate", "play",
    "raise_defcon", "realign", "remove_us_influence", "return", "two_in_south_africa", "un_intervention",
)


def _ts_keys() -> list[str]:
    from ..server.games.twilight_struggle import card_data as CD
    from ..server.games.twilight_struggle import map_data as M
    from ..server.games.twilight_struggle.turn import USE_OPTIONS

    cards = [c.id for c in CD.CARDS]
    countries = [c.id for c in M.COUNTRIES]
    regions = [name.lower().replace(" ", "_") for name in M.REGIONS]
    keys = [f"card:{c}" for c in cards]
    keys += [f"country:{c}" for c in countries] + ["country:chinese_civil_war"]
    keys += [f"die:{n}" for n in range(1, 7)]
    keys += [o.key for o in USE_OPTIONS.values()]
    keys += ["done", "pass"]
    keys += [f"choice:{k}" for k in (*cards, *countries, *regions, *TS_CHOICE_WORDS)]
    return keys


@lru_cache(maxsize=None)
def action_table(game: str) -> ActionTable:
    """The action table of a built-in game (``schotten-totten`` or ``twilight-struggle``)."""
    if game == ST:
        return ActionTable(game, _st_keys())
    if game == TS:
        return ActionTable(game, _ts_keys())
    raise ValueError(f"no action table for game {game!r}")


# -- observation encoders --------------------------------------------------------------------------


class Encoder(ABC):
    """Builds the observation vector of a view. Subclasses list their slices in ``_build``."""

    def __init__(self, table: ActionTable, roles: Sequence[str]) -> None:
        self.table = table
        self.roles = tuple(roles)
        self.layout: dict[str, slice] = {}
        self.size = 0
        self._build()

    def _add(self, name: str, width: int) -> None:
        self.layout[name] = slice(self.size, self.size + width)
        self.size += width

    def seats(self, me: str) -> list[str]:
        """The roles from ``me``'s seat: ``me`` first, then the others in turn order."""
        i = self.roles.index(me)
        return list(self.roles[i:] + self.roles[:i])

    @abstractmethod
    def _build(self) -> None:
        """Lay out the vector: one :meth:`_add` per named slice."""

    @abstractmethod
    def encode(self, view: Mapping[str, Any], known: Sequence[str] = ()) -> np.ndarray:
        """The observation vector (``float32``, length ``size``) of ``view``; ``known``: cards the
        seat knows to be in another hand beyond what the view lists (its history's reveals:
        :class:`~standoff.sdk.rl_views.HandMemory`)."""

    def _cards(self, out: np.ndarray, name: str, cards: Any) -> None:
        """One-hot ``cards`` in slice ``name`` (subclasses map card ids to ``card_index``)."""
        base = self.layout[name].start
        index = self.card_index
        for c in cards:
            out[base + index[c]] = 1.0

    def _recent(self, out: np.ndarray, view: Mapping[str, Any], me: str) -> None:
        """The last history entries: action id one-hot, and whether ``me`` played it."""
        history = view.get("history") or ()
        entries = list(history[-RECENT:]) if len(history) else []
        n = len(self.table)
        for back, entry in enumerate(reversed(entries)):
            _, who, _, key = entry
            base = self.layout[f"recent{back}"].start
            j = self.table.index.get(key)
            if j is not None:
                out[base + j] = 1.0
            out[base + n] = 1.0 if who == me else 0.0
            out[base + n + 1] = 1.0 if who == "chance" else 0.0


def _bucket(text: str, size: int) -> int:
    """A stable bucket for a free-form name (steps, lasting effects): crc32, not ``hash``."""
    return zlib.crc32(text.encode()) % size


class SchottenTottenEncoder(Encoder):
    """Schotten Totten / Battle Line: hand, the nine flags (cards per seat, claims, Fog, Mud,
    completion), the other seats' hand sizes and known cards, the decks, discards, tactics counts,
    the step and the last history entries."""

    STEPS = ("play", "place", "claim", "draw", "environment", "scout_draw", "scout_return", "redeploy",
             "redeploy_to", "deserter", "traitor", "traitor_to", "mud_discard")

    def _build(self) -> None:
        from ..server.games.schotten_totten import cards as C

        self.card_index = {C.card_name(c): c for c in range(70)}
        r = len(self.roles)
        self._add("hand", 70)
        for f in range(9):
            for s in range(r):
                self._add(f"flag{f + 1}.seat{s}", 70)
                self._add(f"flag{f + 1}.seat{s}.complete", 1)
            self._add(f"flag{f + 1}.claimed", r + 1)  # by seat 0..r-1, or nobody
            self._add(f"flag{f + 1}.fog", 1)
            self._add(f"flag{f + 1}.mud", 1)
        for s in range(1, r):
            self._add(f"seat{s}.hand_size", 2)  # troops, tactics (/10)
            self._add(f"seat{s}.known", 70)
        self._add("decks", 4)  # sizes /60, /10; cards put back on top (Scout) /3, per deck
        self._add("deck_tops", 70)
        for s in range(r):
            self._add(f"seat{s}.discard", 70)
            self._add(f"seat{s}.tactics", 2)  # tactics played /10, leader played
        self._add("step", len(self.STEPS) + 1)
        self._add("to_move", 1)
        for back in range(RECENT):
            self._add(f"recent{back}", len(self.table) + 2)

    def encode(self, view: Mapping[str, Any], known: Sequence[str] = ()) -> np.ndarray:
        # (Scout's known cards are in the view itself: ``known`` is empty for this game)
        out = np.zeros(self.size, dtype=np.float32)
        me = view["role"]
        seats = self.seats(me)
        L = self.layout
        self._cards(out, "hand", view["hand"])
        for f, flag in enumerate(view["flags"]):
            sides = flag["sides"]
            for s, role in enumerate(seats):
                side = sides[role]
                self._cards(out, f"flag{f + 1}.seat{s}", side["cards"])
                out[L[f"flag{f + 1}.seat{s}.complete"].start] = side["completed_at"] is not None
            claimed = flag["claimed_by"]
            out[L[f"flag{f + 1}.claimed"].start + (seats.index(claimed) if claimed else len(seats))] = 1.0
            out[L[f"flag{f + 1}.fog"].start] = flag.get("fog") is not None
            out[L[f"flag{f + 1}.mud"].start] = flag.get("mud") is not None
        opponents = view["opponents"]
        for s, role in enumerate(seats[1:], start=1):
            other = opponents[role]
            base = L[f"seat{s}.hand_size"].start
            out[base] = other["troops"] / 10
            out[base + 1] = other["tactics"] / 10
            self._cards(out, f"seat{s}.known", other["known"])
        decks = view["decks"]
        base = L["decks"].start
        out[base] = decks["troops"]["size"] / 60
        out[base + 1] = decks.get("tactics", {"size": 0})["size"] / 10
        for name, deck in decks.items():
            tops = deck["top"]  # from the top down: a card another seat put back is "unknown"
            out[base + (3 if name == "tactics" else 2)] = len(tops) / 3
            self._cards(out, "deck_tops", (c for c in tops if c != "unknown"))
        discards = view.get("discards", {})
        tactics = view.get("tactics_played", {})
        leaders = view.get("leader_played", {})
        for s, role in enumerate(seats):
            self._cards(out, f"seat{s}.discard", discards.get(role, ()))
            base = L[f"seat{s}.tactics"].start
            out[base] = tactics.get(role, 0) / 10
            out[base + 1] = bool(leaders.get(role, False))
        step = view.get("step")
        base = L["step"].start
        out[base + (self.STEPS.index(step) if step in self.STEPS else len(self.STEPS))] = 1.0
        out[L["to_move"].start] = view.get("to_move") == me
        self._recent(out, view, me)
        return out


class TwilightStruggleEncoder(Encoder):
    """Twilight Struggle: hand, the known cards of the other hand, influence and control per
    country, the tracks (VP, DEFCON, military operations, space race, turn, action round), The
    China Card, headlines, the event under way, the piles (discard, removed, events played),
    lasting effects (hashed), the step (hashed) and the last history entries."""

    STEP_BUCKETS = 64
    EFFECT_BUCKETS = 64

    def _build(self) -> None:
        from ..server.games.twilight_struggle import card_data as CD
        from ..server.games.twilight_struggle import map_data as M

        self.card_index = {c.id: i for i, c in enumerate(CD.CARDS)}
        self.country_index = {c.id: i for i, c in enumerate(M.COUNTRIES)}
        nc, nk = len(self.card_index), len(self.country_index)
        self._add("side", 2)
        self._add("hand", nc)
        self._add("opponent_hand", nc)
        self._add("opponent_hand_size", 1)
        for s in range(2):
            self._add(f"seat{s}.influence", nk)
            self._add(f"seat{s}.control", nk)
            self._add(f"seat{s}.tracks", 2)  # military ops /5, space /8
        self._add("tracks", 6)  # vp /20, defcon /5, turn /10, action round /8, phasing is me, deck size /100
        self._add("china", 3)  # held by me, by the other, face up
        for s in range(2):
            self._add(f"seat{s}.headline", nc)
        self._add("event", nc + 2)  # card under way, by me, by the other
        self._add("discard", nc)
        self._add("removed", nc)
        self._add("events_played", nc)
        self._add("effects", self.EFFECT_BUCKETS)
        self._add("step", self.STEP_BUCKETS)
        self._add("misc", 2)  # chinese civil war, bid
        for back in range(RECENT):
            self._add(f"recent{back}", len(self.table) + 2)

    def encode(self, view: Mapping[str, Any], known: Sequence[str] = ()) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.float32)
        me = view["role"]
        seats = self.seats(me)
        L = self.layout
        out[L["side"].start + self.roles.index(me)] = 1.0
        self._cards(out, "hand", view["hand"])
        # the other hand as far as the seat knows it: open (Aldrich Ames Remix) or shown earlier
        # (The Cambridge Five, CIA Created, Lone Gunman...: ``known``)
        self._cards(out, "opponent_hand", {*(view.get("opponent_hand") or ()), *known})
        out[L["opponent_hand_size"].start] = view.get("opponent_hand_size", 0) / 10
        influence = view["influence"]
        control = view.get("control", {})
        countries = self.country_index
        for s, role in enumerate(seats):
            base = L[f"seat{s}.influence"].start
            cbase = L[f"seat{s}.control"].start
            for country, amounts in influence.items():
                out[base + countries[country]] = min(amounts.get(role, 0), 80) / 10
            for country, who in control.items():
                if who == role:
                    out[cbase + countries[country]] = 1.0
            base = L[f"seat{s}.tracks"].start
            out[base] = view.get("military_ops", {}).get(role, 0) / 5
            out[base + 1] = view.get("space", {}).get(role, 0) / 8
        base = L["tracks"].start
        vp = view.get("vp", 0)
        vp = max(-20, min(20, vp))  # the game ends at 20 (a final scoring may overshoot)
        out[base] = (vp if me == self.roles[1] else -vp) / 20  # positive: good for me
        out[base + 1] = view.get("defcon", 5) / 5
        out[base + 2] = view.get("turn", 0) / 10
        out[base + 3] = view.get("action_round", 0) / 8
        out[base + 4] = view.get("phasing") == me
        out[base + 5] = view.get("deck_size", 0) / 100
        china = view.get("china_card") or {}
        base = L["china"].start
        out[base] = china.get("holder") == me
        out[base + 1] = china.get("holder") not in (None, me)
        out[base + 2] = bool(china.get("face_up"))
        headline = view.get("headline") or {}
        for s, role in enumerate(seats):
            card = headline.get(role)
            if card:
                self._cards(out, f"seat{s}.headline", (card,))
        event = view.get("event")
        if event:
            base = L["event"].start
            out[base + self.card_index[event["card"]]] = 1.0
            out[base + len(self.card_index) + (0 if event.get("side") == me else 1)] = 1.0
        self._cards(out, "discard", view.get("discard", ()))
        self._cards(out, "removed", view.get("removed", ()))
        self._cards(out, "events_played", view.get("events_played", ()))
        base = L["effects"].start
        for effect in view.get("effects", ()):
            out[base + _bucket(effect, self.EFFECT_BUCKETS)] = 1.0
        step = view.get("step")
        if step:
            out[L["step"].start + _bucket(step, self.STEP_BUCKETS)] = 1.0
        base = L["misc"].start
        out[base] = view.get("chinese_civil_war", 0) / 3
        out[base + 1] = (view.get("rules") or {}).get("bid", 0) / 5
        self._recent(out, view, me)
        return out


# -- the spec: everything the environments share ----------------------------------------------------


@dataclass(frozen=True)
class RLSpec:
    """A game and ruleset as an RL problem: the engine's game and rules, the action table, the
    observation encoder."""

    game: Any
    rules: Any
    table: ActionTable
    encoder: Encoder

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
        history (``history_from`` 0: Twilight Struggle's reveals are read from it; ``ValueError``
        otherwise). Along a match, :meth:`observer` reads only each view's new entries."""
        view = as_dict(view)
        return self.observer(view["role"]).observe(view)

    def observer(self, role: str) -> Any:
        """A :class:`~standoff.sdk.rl_views.SeatObserver`: ``role``'s observations along one match,
        remembering what its history showed (The Cambridge Five's reveal...)."""
        from .rl_views import SeatObserver

        return SeatObserver(self, role)

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


def _game(name: str) -> Any:
    from ..server.plugins import builtin_game_specs

    for spec in builtin_game_specs():
        if spec.game.name == name:
            return spec.game
    raise ValueError(f"unknown game {name!r}")


_ENCODERS = {ST: SchottenTottenEncoder, TS: TwilightStruggleEncoder}


def spec_for(game: str, ruleset: str | None = None, options: Mapping[str, str] | None = None) -> RLSpec:
    """The :class:`RLSpec` of a built-in game, ruleset and rules options (made once, then shared:
    specs are read-only)."""
    return _spec(game, ruleset, tuple(sorted((options or {}).items())))


@lru_cache(maxsize=64)
def _spec(game: str, ruleset: str | None, options: tuple[tuple[str, str], ...]) -> RLSpec:
    engine = _game(game)
    rules = engine.rules(ruleset, dict(options))
    table = action_table(game)
    return RLSpec(engine, rules, table, _ENCODERS[game](table, rules.roles))


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
