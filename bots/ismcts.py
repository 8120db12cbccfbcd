"""``ismcts``: determinized information-set Monte Carlo search, tuned for Schotten Totten / Battle Line.

Any other game with a forward model (its own, or the generic one built on its ``determinize``:
:mod:`standoff.sdk.simulate`) gets the plain determinized search (:meth:`IsmctsBot._choose_any`):
per round one world sampled from the view and one seed, every option applied to a copy of that
world and played out by uniformly random players (:func:`~standoff.sdk.simulate.rollout`, the
seed's draws: common random numbers), the option with the best mean result chosen.

What it does at a Schotten Totten decision of its own (two players; otherwise, and for ``draw`` /
``scout_draw``, it answers as :class:`~standoff.bots.probability.ProbabilityBot`, always claims at
``claim``):

1. **Belief.** :class:`~standoff.sdk.simulate.Belief` replays the role's view (nothing else) into
   an engine state; ``belief.sample(rng)`` re-deals every card the role cannot see, uniformly.
2. **Candidates.** Every complete move of ours (a card and all its targets) is applied once and
   judged statically; the ``WIDTH`` best cards with their ``SUB_WIDTH`` best continuations are
   searched, plus the probability bot's own answer (the *anchor*) if it is not among them.
3. **Paired lines** (``SELECTION = "paired"``). Rounds of common random numbers: one sampled deal
   and one seed per round, every candidate played from a copy of that deal with that seed: our
   move, then the opponent's reply by the probability bot on its view of the sample (``REPLY``,
   ``REPLY_ALL``; ``reply="troops"``: the fast policy below) and a fast policy for both sides
   (claim, draw troops, greedy troop placement by the flag model, pass when allowed), cut at our
   ``DEPTH``-th next play (1: after the opponent's reply).
   ``SELECTION = "ucb"`` is the older tree walk (UCB1 with availability counts, ``EXPLORATION``,
   the static values worth ``PRIOR_VISITS`` visits).
4. **Judge.** :class:`FlagModel` (greedy's per-flag estimate, computed from the state and only
   from what we would see there: our hand and the table) combined into a chance of winning the
   game by :func:`~standoff.bots.probability.game_value`, or the game's result if it ended.
5. **Answer.** The first move of the line with the best mean, unless the anchor's best line is
   within ``MARGIN`` of it: then the anchor (the flag model does not see what a tactics card kept
   in hand is worth, nor probability's flag weights).

Budget per searched decision: ``iterations`` lines (a round costs one line per candidate) or
``seconds``, from the constructor, else ``$STANDOFF_ISMCTS_SECONDS`` / ``$STANDOFF_ISMCTS_ITERATIONS``,
else ``ITERATIONS = 400`` (about 0.5 s with the default reply, 60 ms with ``reply="troops"``,
compiled engine). Knobs: the constructor's ``depth`` and
``selection``, and any of ``_KNOBS`` as a lower-case keyword (``IsmctsBot(seed, margin=0.05,
width=6)``; in ``benchmarks/bot_strength.py``: ``ismcts:margin=0.05,width=6``). Deterministic
given its seed with an iteration budget. An internal error is answered by the probability bot and
counted (:meth:`~standoff.sdk.bot.Bot.count_fallback`). Measurements: docs/bots.md.
"""

from __future__ import annotations

import math
import os
import random
import time
from typing import Any

from ..sdk.bot import Bot
from ..sdk.simulate import Belief, SimulationError, rollout
from ..sdk.types import MatchInfo
from ..sdk.views import as_dict
from ..server.core.game import CHANCE
from ..server.games import get_game
from ..server.plugins import game_spec
from .flag_model import FlagModel, PastPosition, placement_gains
from .greedy import GreedyBot
from .probability import ProbabilityBot, game_value

ENV_ITERATIONS = "STANDOFF_ISMCTS_ITERATIONS"
ENV_SECONDS = "STANDOFF_ISMCTS_SECONDS"
#: The game the flag model and the tuned search are for; any other is searched plainly.
TUNED_GAME = "schotten-totten"
#: Decisions at which a position is judged: no card is in limbo between a play and its target.
_STABLE = frozenset(("play", "draw", "draw_card"))


#: The class attributes a constructor keyword (lower case) may set: ``IsmctsBot(seed, margin=0.05)``.
_KNOBS = frozenset(("EXPLORATION", "WIDTH", "SUB_WIDTH", "PRIOR_VISITS", "MARGIN", "REPLY", "REPLY_SCENARIOS", "REPLY_ALL",
                    "BELIEF_TAU"))
#: The opponent's reply in a line (``REPLY``): the troop policy, or a bot that plays tactics.
_REPLIES = ("troops", "greedy", "probability")


class _Node:
    __slots__ = ("children", "visits", "total", "avail", "role", "allowed")

    def __init__(self, role: str | None) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.role = role  # who chose the move leading here
        self.allowed: set[str] | None = None  # the options searched here (None: all)


class IsmctsBot(Bot):
    """Determinized ISMCTS on the real rules engine, hidden cards sampled from its view.

    Plays every game with a forward model: Schotten Totten with the tuned search below, any
    other with the plain one (:meth:`_choose_any`).

    Budget per decision: ``iterations`` or ``seconds`` (constructor), else the environment
    (``STANDOFF_ISMCTS_SECONDS``, ``STANDOFF_ISMCTS_ITERATIONS``), else the class attributes
    ``SECONDS`` / ``ITERATIONS``. Deterministic given its seed with an iteration budget.
    """

    name = "ismcts"
    games = ()  # every game: the tuned search for TUNED_GAME, the plain one for the others

    #: default budget per decision: iterations, or seconds when ``SECONDS`` is set
    ITERATIONS: int = 400
    SECONDS: float | None = None
    #: UCB exploration constant (rewards are game-win chances in [0, 1])
    EXPLORATION = 0.5
    #: our candidate moves at the root: the ``WIDTH`` best first choices by static evaluation,
    #: each with its ``SUB_WIDTH`` best continuations
    WIDTH = 5
    SUB_WIDTH = 3
    #: weight (in visits) of that static evaluation
    PRIOR_VISITS = 2
    #: judge a line at our DEPTH-th next play (1: after the opponent's reply; 0: as soon as our
    #: move and our draw are done)
    DEPTH = 1
    #: how the root's candidates share the iterations: ``"paired"`` plays every candidate on the
    #: same sampled deal with the same chance draws (common random numbers: the candidates are
    #: compared on identical hidden cards, so the deal's luck cancels out of their differences),
    #: ``"ucb"`` the tree walk of :meth:`_iterate` (one candidate per sample, UCB1)
    SELECTION = "paired"
    #: paired selection keeps the probability bot's own answer (its flag weights, tactics costs
    #: and draw rules see what the flag model here does not: the worth of a tactics card kept in
    #: hand) unless another move's mean beats it by more than this (a chance of winning the game)
    MARGIN = 0.02
    #: how the opponent replies in a line when its (sampled) hand offers it a tactics card at a
    #: ``play``: ``"troops"`` the fast troop policy (:meth:`_policy`, which never plays one),
    #: ``"greedy"`` / ``"probability"`` that bot's answer on the opponent's view of the sample
    #: (its hand there is the sampled one: nothing hidden is read), the rest of that move (the
    #: card's targets) by the same bot; a reply without a playable tactics card stays the policy's
    #: (the default since issue 22: 62.5% against probability in 200 paired games where the
    #: troop policy's replies score 57.0%; docs/bots.md)
    REPLY = "probability"
    #: ``REPLY = "probability"``: its deals of the unseen troops per reply (the bot's own: 24)
    REPLY_SCENARIOS = 6
    #: 1: the reply bot plays every opponent move of a line (``play`` and its steps), not only
    #: those at which a tactics card is offered (the default); 0: only those
    REPLY_ALL = 1
    #: paired selection: weigh each sampled deal by how well it explains the opponent's last troop
    #: play (:meth:`_deal_weight`: ``exp((gain of the card and flag it chose - best gain) /
    #: BELIEF_TAU)`` by the flag model, its hand then taken as the sampled hand plus that card);
    #: None or 0: every deal weighs the same (uniform re-deals)
    BELIEF_TAU: float | None = None
    #: Tests set this to see exceptions instead of the fallback (counted and logged in play:
    #: :meth:`Bot.count_fallback`).
    strict = False
    # The flag model's constants (greedy's, see standoff.bots.greedy)
    D_MISSING = ProbabilityBot.D_MISSING
    D_OPPONENT = ProbabilityBot.D_OPPONENT
    TEMPERATURE = ProbabilityBot.TEMPERATURE
    P_CERTAIN = ProbabilityBot.P_CERTAIN
    USE_CERTAIN = True

    def __init__(self, seed: int = 0, iterations: int | None = None, seconds: float | None = None,
                 depth: int | None = None, selection: str | None = None, **knobs: Any) -> None:
        super().__init__(seed)
        for name, value in knobs.items():  # e.g. margin=0.05, width=6: the class attributes
            attr = name.upper()
            if attr not in _KNOBS:
                raise ValueError(f"ismcts has no knob {name!r} (knobs: {', '.join(sorted(k.lower() for k in _KNOBS))})")
            setattr(self, attr, value)
        if depth is not None:  # else the class attribute (a subclass may set it)
            if not isinstance(depth, int) or depth < 0:
                raise ValueError(f"ismcts depth must be a whole number >= 0, not {depth!r}")
            self.DEPTH = depth
        if selection is not None:
            self.SELECTION = selection
        if iterations is None and seconds is None:
            env_seconds = os.environ.get(ENV_SECONDS)
            env_iterations = os.environ.get(ENV_ITERATIONS)
            if env_seconds:
                seconds = float(env_seconds)
            elif env_iterations:
                iterations = int(env_iterations)
            else:
                iterations, seconds = self.ITERATIONS, self.SECONDS
        if seconds is not None:
            iterations = None
        if self.SELECTION not in ("paired", "ucb"):
            raise ValueError(f"IsmctsBot.SELECTION must be 'paired' or 'ucb', not {self.SELECTION!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.options: dict[str, str] | None = None
        self.game = get_game(TUNED_GAME)
        #: answers draws and the decisions the search cannot (its own fallbacks count on us)
        self.fallback = self.adopt(ProbabilityBot(seed))
        self.stats: dict[str, Any] = {}
        #: totals over the bot's life: searched decisions, iterations, seconds spent searching
        self.searches = 0
        self.total_iterations = 0
        self.search_seconds = 0.0
        self._memo: dict[tuple, float] = {}
        self._model = FlagModel(self.fallback)
        self._anchor: str | None = None
        #: the opponent's last troop play and our troops placed since (:func:`_last_opponent_play`)
        self._last_play: tuple | None = None
        #: paired selection: the sum of the deals' weights in the last search (rounds if uniform)
        self.weight_sum = 0.0
        if self.REPLY not in _REPLIES:
            raise ValueError(f"IsmctsBot.REPLY must be one of {', '.join(_REPLIES)}, not {self.REPLY!r}")
        #: the opponent's reply in a line when it may play a tactics card (None: the policy's)
        self._reply: Any = None
        if self.REPLY == "greedy":
            self._reply = GreedyBot(seed)
        elif self.REPLY == "probability":
            self._reply = ProbabilityBot(seed)
            self._reply.SCENARIOS = int(self.REPLY_SCENARIOS)
        if self._reply is not None:
            self._reply.strict = True  # an error in a line is the search's (counted there)
        #: lines' opponent decisions answered by the reply bot (totals over the bot's life)
        self.replies = 0

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.options = dict(match.options) or None
        self.fallback.start(match)

    # -- entry point -----------------------------------------------------------------------------

    def choose(self, decision: Any, view: Any) -> int:
        options = decision.options
        if len(options) == 1:
            return 0
        view = as_dict(view)
        if view.get("game", TUNED_GAME) != TUNED_GAME:
            return self._choose_any(decision, view)
        keys = [o.key for o in options]
        if decision.step == "claim":
            flags = [i for i, k in enumerate(keys) if k.startswith("flag:")]
            return flags[0] if flags else 0
        if decision.step in ("draw", "scout_draw") or len(view["flags"][0]["sides"]) != 2:
            return self.fallback.choose(decision, view)
        began = time.perf_counter()
        try:
            belief = Belief(self.game, view, options=self.options, check=False)
            self._anchor = None
            self._last_play = _last_opponent_play(view, decision.role) if self.BELIEF_TAU else None
            if self.SELECTION == "paired" and self.MARGIN is not None:
                self._anchor = keys[self.fallback.choose(decision, view)]
            index = self._search(belief, keys)
            if decision.step == "play" and (index is None or keys[index] != self._anchor):
                # The probability bot's plan is for the card it would have played: at our card's
                # target steps it must work out the card from the history (its anchor there, and
                # its answer if the search fails), not answer with another card's target.
                self.fallback.forget_plan()
            self.searches += 1
            self.total_iterations += self.stats.get("iterations", 0)
            self.search_seconds += time.perf_counter() - began
        except (SimulationError, KeyError, ValueError) as exc:
            if self.strict:
                raise
            self.count_fallback(exc, decision)
            return self.fallback.choose(decision, view)
        if index is None:
            self.count_fallback("the search found no move among the options", decision)
            return self.fallback.choose(decision, view)
        return index

    # -- any other game: the plain determinized search ------------------------------------------

    def _choose_any(self, decision: Any, view: dict) -> int:
        """A decision of a game other than :data:`TUNED_GAME`: :meth:`_search_any` on the
        game's forward model; an error there (counted) and a search that tried nothing are
        answered uniformly at random."""
        began = time.perf_counter()
        try:
            game = game_spec(view["game"]).game
            belief = Belief(game, view, options=self.options, check=False)
            index = self._search_any(game, belief, [o.key for o in decision.options])
        except (SimulationError, LookupError, ValueError) as exc:  # LookupError: an unknown game
            if self.strict:
                raise
            self.count_fallback(exc, decision)
            return self.rng.randrange(len(decision.options))
        self.searches += 1
        self.total_iterations += self.stats.get("iterations", 0)
        self.search_seconds += time.perf_counter() - began
        if index is None:
            self.count_fallback("the search tried no option", decision)
            return self.rng.randrange(len(decision.options))
        return index

    def _search_any(self, game: Any, belief: Belief, keys: list[str]) -> int | None:
        """Rounds of one sampled world and one seed: every option (by key) applied to a copy of
        the world and played out uniformly with that seed; the index of the best mean result for
        the role (ties: the first), ``None`` if no option was ever offered in a sample. The
        budget counts lines, at least one round, as the paired search's does."""
        rng, me, count = self.rng, belief.me, len(keys)
        totals, tried = [0.0] * count, [0] * count
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        done = rounds = 0
        while not rounds or (
            (self.iterations is None or done + count <= self.iterations)
            and (deadline is None or time.perf_counter() < deadline)
        ):
            world = belief.sample(rng)
            seed = rng.getrandbits(64)
            offered = {o.key: o for o in game.decision(world).options}
            for i, key in enumerate(keys):
                option = offered.get(key)
                if option is None:  # not an option in this world (the view should rule it out)
                    continue
                line = world.copy()
                game.apply(line, option)
                totals[i] += rollout(game, line, rng=random.Random(seed)).scores[me]
                tried[i] += 1
            done += count
            rounds += 1
        means = [t / n if n else None for t, n in zip(totals, tried, strict=True)]
        self.stats = {"iterations": done, "rounds": rounds,
                      "moves": {k: (n, m) for k, n, m in zip(keys, tried, means, strict=True) if n}}
        ranked = [i for i in range(count) if means[i] is not None]
        return max(ranked, key=lambda i: (means[i], -i)) if ranked else None

    # -- search ----------------------------------------------------------------------------------

    def _search(self, belief: Belief, keys: list[str]) -> int | None:
        """The answer's index in ``keys``, searched on ``belief`` (None: no searched move is offered).
        ``self._anchor``: the probability bot's answer (its key) for the paired selection, or None."""
        anchor = self._anchor
        game = self.game
        me = belief.role
        rng = self.rng
        self._memo = {}
        self._model = FlagModel(self)
        root = _Node(None)
        moves = self._root_moves(game, belief.state, me, rng)
        if not moves:
            return None
        if self.SELECTION == "paired":
            return self._search_paired(game, belief, keys, self._candidates(moves, anchor), me, rng, anchor)
        for path, value in self._candidates(moves):
            node = root
            for key in path:
                if node.allowed is None:
                    node.allowed = set()
                node.allowed.add(key)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(me)
                    child.visits = self.PRIOR_VISITS
                    child.total = value * self.PRIOR_VISITS
                elif value * self.PRIOR_VISITS > child.total:
                    child.total = value * self.PRIOR_VISITS
                node = child
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.iterations
        done = 0
        if len(root.children) > 1:
            while True:
                if budget is not None and done >= budget:
                    break
                if deadline is not None and done and time.perf_counter() >= deadline:
                    break
                self._iterate(game, belief.sample(rng), root, me, rng)
                done += 1
        self.stats = {
            "iterations": done,
            "moves": {k: (c.visits, c.total / c.visits) for k, c in root.children.items() if c.visits},
        }
        best, best_rank = None, None
        for i, key in enumerate(keys):
            child = root.children.get(key)
            if child is not None and child.visits:
                rank = (child.visits, child.total / child.visits)
                if best_rank is None or rank > best_rank:
                    best, best_rank = i, rank
        return best

    def _search_paired(self, game, belief: Belief, keys: list[str], moves: list, me: str,
                       rng: random.Random, anchor: str | None = None) -> int | None:
        """Every candidate line played on the same samples: per round one sampled deal and one
        seed for the chance draws and the policy's random choices, each candidate applied to a
        copy of that deal and played on (:meth:`_playout`); the answer is the first move of the
        candidate with the best mean (ties: the better static value, then the order of
        :meth:`_candidates`), unless ``anchor`` (the probability bot's answer) has a line within
        ``MARGIN`` of it: then the anchor. ``iterations`` counts lines, so a round costs one per
        candidate (at least one round)."""
        count = len(moves)
        totals = [0.0] * count
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = self.iterations
        done = rounds = 0
        weights = 0.0
        last = self._last_play if self.BELIEF_TAU else None
        if count > 1:
            while True:
                if budget is not None and done + count > budget and rounds:
                    break
                if deadline is not None and rounds and time.perf_counter() >= deadline:
                    break
                deal = belief.sample(rng)
                seed = rng.getrandbits(64)
                weight = 1.0 if last is None else self._deal_weight(deal, me, last)
                for i, (path, _) in enumerate(moves):
                    totals[i] += weight * self._playout(game, deal.copy(), path, me, random.Random(seed))
                done += count
                rounds += 1
                weights += weight
        means = [t / weights if weights > 0 else 0.0 for t in totals]
        self.weight_sum = weights
        self.stats = {"iterations": done, "rounds": rounds,
                      "moves": {" ".join(path): (rounds, mean) for (path, _), mean in zip(moves, means, strict=True)}}
        order = sorted(range(count), key=lambda i: (-means[i], -moves[i][1], i))
        first = moves[order[0]][0][0]
        if anchor is not None and first != anchor:
            held = [means[i] for i, (path, _) in enumerate(moves) if path[0] == anchor]
            if held and means[order[0]] - max(held) <= self.MARGIN:
                first = anchor
        self.stats["anchor"] = anchor
        return keys.index(first) if first in keys else None

    def _playout(self, game, state, path: tuple[str, ...], me: str, rng: random.Random) -> float:
        """Our move ``path`` (option keys; chance in between from ``rng``) applied to ``state``,
        then the line played on by the policy, judged as :meth:`_iterate` judges it. A step of
        ``path`` this sample does not offer (a draw decided it) leaves the rest to the policy."""
        me_index = state.rules.roles.index(me)
        step_at = 0
        plays = 0
        depth = self.DEPTH
        decide, apply = game.decision, game.apply
        reply = self._reply
        replying = False  # the reply bot is playing the opponent's current move
        reply_all = bool(self.REPLY_ALL)
        while True:
            decision = decide(state)
            if decision is None:
                return state.outcome.scores[me_index]
            options = decision.options
            role = decision.role
            if role == CHANCE:
                apply(state, options[rng.randrange(len(options))])
                continue
            if step_at < len(path):
                key = path[step_at]
                option = next((o for o in options if o.key == key), None)
                if option is not None and role == me:
                    apply(state, option)
                    step_at += 1
                    continue
                if role == me and len(options) > 1 and decision.step != "claim":
                    step_at = len(path)  # not offered here: the policy goes on
            if role != me and depth == 0:
                return self._evaluate(game, state, me)
            if role == me and decision.step == "play":
                plays += 1
                if plays >= depth:
                    return self._evaluate(game, state, me)
            if len(options) == 1:
                apply(state, options[0])
                continue
            if reply is not None and role != me:
                step = decision.step
                if step == "play":  # a tactics card offered: the reply bot plays this move
                    replying = reply_all or any(isinstance(o.value, int) and o.value >= 60 for o in options)
                if replying and step not in ("claim", "draw", "scout_draw"):
                    apply(state, options[self._reply_index(game, state, decision, role, rng)])
                    continue
            apply(state, options[self._policy(state, decision, rng)])

    def _reply_index(self, game, state, decision, role: str, rng: random.Random) -> int:
        """The reply bot's answer for ``role`` (the opponent) in a line: on that role's view of
        the sampled state (its recent history only: greedy reads the last passes), with the
        line's random numbers (common to every candidate of a round)."""
        reply = self._reply
        reply.rng = rng
        if decision.step != "play":
            index = reply.planned(decision)  # the target its play chose: no view, no position
            if index is not None:
                self.replies += 1
                return index
        history = state.history
        since = max(0, history[0][0] - 12) if history is not None else 0
        view = game.view(state, role, since)
        self.replies += 1
        try:
            index = reply._choose(decision, view)
        except (SimulationError, KeyError, ValueError):
            raise
        except Exception as exc:  # the search's caller answers ValueError by probability, counted
            raise ValueError(f"the reply bot failed at {decision.step!r}: {exc!r}") from exc
        if index is None or not 0 <= index < len(decision.options):
            raise ValueError(f"the reply bot found no answer at {decision.step!r}")
        return index

    def _deal_weight(self, deal, me: str, last: tuple) -> float:
        """How well the sampled ``deal`` explains the opponent's last troop play ``last`` (see
        :func:`_last_opponent_play`): the position then rebuilt from the sample (that card back in
        the opponent's hand, it and our troops placed since off the table; the opponent's draw
        since is not taken out), every troop of that hand on every open flag scored as the flag
        model's troop policy scores them (the gain in that flag's chance, less a small cost per
        value) from the opponent's side, and ``exp((chosen - best) / BELIEF_TAU)``: 1 when the
        sampled hand would have made that play, smaller the better a play it would have had."""
        card, flag, ours = last
        roles = deal.rules.roles
        n = len(roles)
        me_index = roles.index(me)
        opp = 1 - me_index
        sides = list(deal.sides)
        back = 1 << card
        for c, f in ours:
            side = sides[f * n + me_index]
            if c not in side:
                return 1.0  # moved since (Redeploy, Traitor...): not rebuilt
            sides[f * n + me_index] = tuple(x for x in side if x != c)
            back |= 1 << c
        side = sides[flag * n + opp]
        if card not in side:
            return 1.0
        sides[flag * n + opp] = tuple(x for x in side if x != card)
        hands = list(deal.hands)
        hands[opp] = tuple(hands[opp]) + (card,)
        then = PastPosition(deal, tuple(sides), tuple(hands), back)
        gains = placement_gains(self._model, then, opp)
        chosen = gains.get((card, flag))
        if chosen is None or not gains:
            return 1.0
        return math.exp((chosen - max(gains.values())) / self.BELIEF_TAU)

    def _candidates(self, moves: list, anchor: str | None = None) -> list:
        """The moves searched: the ``WIDTH`` best first choices (a card to play...) by static value,
        each with its ``SUB_WIDTH`` best continuations (its target...); ``anchor``'s too."""
        groups: dict[str, list] = {}
        for path, value in sorted(moves, key=lambda m: -m[1]):
            groups.setdefault(path[0], []).append((path, value))
        ranked = sorted(groups.values(), key=lambda g: -g[0][1])[: self.WIDTH]
        if anchor in groups and all(g[0][0][0] != anchor for g in ranked):
            ranked.append(groups[anchor])
        return [move for group in ranked for move in group[: self.SUB_WIDTH]]

    def _root_moves(self, game, state, me: str, rng: random.Random) -> list[tuple[tuple[str, ...], float]]:
        """Every complete move of ours from the root (a play and its targets), with the static
        value of the position it leads to."""
        out: list[tuple[tuple[str, ...], float]] = []
        self._expand(game, state.copy(), me, rng, (), out)
        return out

    def _expand(self, game, state, me, rng, prefix, out) -> None:
        while True:
            decision = game.decision(state)
            if decision is None:
                out.append((prefix, state.outcome.scores[state.rules.roles.index(me)]))
                return
            options = decision.options
            if decision.role == CHANCE:
                game.apply(state, options[rng.randrange(len(options))])
                continue
            if prefix and decision.step in _STABLE:
                out.append((prefix, self._evaluate(game, state, me)))
                return
            if decision.step == "claim" and prefix:
                game.apply(state, options[0])
                continue
            if len(options) == 1 and prefix:
                game.apply(state, options[0])
                continue
            if decision.role != me:  # an opponent's sub-decision inside our move (Mud leaving)
                game.apply(state, options[0])
                continue
            for option in options:
                branch = state.copy()
                game.apply(branch, option)
                self._expand(game, branch, me, rng, prefix + (option.key,), out)
            return

    def _iterate(self, game, state, root: _Node, me: str, rng: random.Random) -> None:
        """One iteration: our move down the tree (UCB with availability counts), the rest of the
        line played by the policy, the position judged at our ``DEPTH``-th next play."""
        node = root
        path: list[_Node] = []
        in_tree = True
        plays = 0
        c = self.EXPLORATION
        me_index = state.rules.roles.index(me)
        while True:
            decision = game.decision(state)
            if decision is None:
                reward = state.outcome.scores[me_index]
                break
            options = decision.options
            role = decision.role
            if role == CHANCE:
                game.apply(state, options[rng.randrange(len(options))])
                continue
            step = decision.step
            if path and role != me and self.DEPTH == 0:
                reward = self._evaluate(game, state, me)  # our move and our draw are done
                break
            if path and step == "play" and role == me:
                plays += 1
                if plays >= self.DEPTH:
                    reward = self._evaluate(game, state, me)
                    break
            if len(options) == 1:
                game.apply(state, options[0])
                continue
            if in_tree and (role != me or (path and step in ("claim", "draw", "play"))):
                in_tree = False  # our move is complete
            if not in_tree:
                game.apply(state, options[self._policy(state, decision, rng)])
                continue
            children = node.children
            allowed = node.allowed
            fresh = []
            best, best_score = None, -1.0
            for option in options:
                key = option.key
                if allowed is not None and key not in allowed:
                    continue
                child = children.get(key)
                if child is None:
                    child = children[key] = _Node(role)
                child.avail += 1
                if child.visits == 0:
                    fresh.append((option, child))
                    continue
                if fresh:
                    continue
                score = child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                if score > best_score:
                    best_score, best = score, (option, child)
            if fresh:
                option, child = fresh[rng.randrange(len(fresh))]
            elif best is None:  # nothing searched is offered in this sample: the policy plays
                in_tree = False
                game.apply(state, options[self._policy(state, decision, rng)])
                continue
            else:
                option, child = best
            game.apply(state, option)
            path.append(child)
            node = child
        for child in path:
            child.visits += 1
            child.total += reward

    def _policy(self, state, decision, rng: random.Random) -> int:
        """How every player moves off the tree (on the sampled cards): always claim, draw troops,
        play and place troops the greedy way (the card and flag that raise that player's chance
        at the flag most), pass when allowed and no troop can be placed, else at random."""
        options = decision.options
        step = decision.step
        if step == "claim" or step in ("draw", "scout_draw"):
            return 0
        role = state.rules.roles.index(decision.role)
        if step == "play":
            troops = [o.value for o in options if isinstance(o.value, int) and o.value < 60]
            if troops:
                choice = self._model.best_placement(state, role, troops)
                if choice is not None:
                    return next(i for i, o in enumerate(options) if o.value == choice[0])
            for i, o in enumerate(options):
                if o.key == "pass":
                    return i
            return rng.randrange(len(options))
        if step == "place":
            card = state.stack[-1][1]
            if card < 60:
                choice = self._model.best_placement(state, role, [card])
                if choice is not None:
                    for i, o in enumerate(options):
                        if o.value == choice[1]:
                            return i
        return rng.randrange(len(options))

    # -- judging a position ------------------------------------------------------------------------

    def _evaluate(self, game, state, me: str) -> float:
        """Our chance of winning the game as we would see ``state``: each flag's odds
        (:class:`FlagModel`) combined into breakthrough/envelopment chances
        (:func:`~standoff.bots.probability.game_value`). Memoised on what we see."""
        me_index = state.rules.roles.index(me)
        key = (
            tuple(state.sides),
            tuple(state.placed),
            tuple(state.claimed),
            tuple(state.fog),
            tuple(state.mud),
            state.hands[me_index],
            state.table,
        )
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = game_value(self._model.flags(state, me_index))
        return found


def _last_opponent_play(view: dict, me: str) -> tuple | None:
    """From the view's history: the opponent's last ``play`` if it was a troop placed on a flag,
    as ``(card, flag, ((our troop, its flag), ...))`` with the troops we placed since; None if
    its last play was a pass or a tactics card, or ours since was a tactics card."""
    from ..server.games.schotten_totten import cards as C

    history = view.get("history") or []
    ours: list[tuple[int, int]] = []
    pending: int | None = None  # our troop awaiting its place entry
    for i in range(len(history) - 1, -1, -1):
        entry = history[i]
        if len(entry) < 4:
            continue
        _, role, step, key = entry[:4]
        if role == me:
            if step == "place" and isinstance(key, str) and key.startswith("flag:"):
                pending = int(key[5:]) - 1
            elif step == "play":
                if key == "pass":
                    pending = None
                    continue
                card = C.card_from_name(key[5:]) if isinstance(key, str) and key.startswith("card:") else 99
                if card >= 60 or pending is None:
                    return None
                ours.append((card, pending))
                pending = None
            continue
        if role == "chance" or step != "play":
            continue
        if not (isinstance(key, str) and key.startswith("card:")):
            return None
        card = C.card_from_name(key[5:])
        if card >= 60:
            return None
        nxt = history[i + 1] if i + 1 < len(history) else None
        if not nxt or nxt[1] != role or nxt[2] != "place" or not str(nxt[3]).startswith("flag:"):
            return None
        return card, int(nxt[3][5:]) - 1, tuple(ours)
    return None
