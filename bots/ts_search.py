"""``ts-search``: determinized search for Twilight Struggle on top of ``ts-heuristic``.

At the decisions that shape a game most, the headline and the action round's card (with the use
it will be played for), the bot does not trust the heuristic's one-number judgement of its options
but plays them out:

1. The heuristic (:class:`~standoff.bots.ts_heuristic.TSHeuristicBot`, kept in step on every
   decision) answers first; the values it gave its options are kept. Candidates: its ``WIDTH`` best
   (card, use) pairs at an action round (the uses it valued for each card; a held scoring card
   counts as one pair, valued 0), its ``WIDTH`` best cards at the headline. Its own answer is
   always one.
2. ``Belief(game, view, options=match.options)`` (the SDK forward model) rebuilds what the role
   knows; nothing else about the match reaches the search.
3. The iteration budget is split evenly over the candidates. Each round draws one determinization
   (``belief.sample``) and one chance seed, shared by every candidate (common random numbers: the
   candidates are compared on the same deals and dice). The candidate is applied on a copy (a
   card, then its use at the ``card_use`` step that follows), and the game goes on with
   ``ts-heuristic`` playing both sides on the engine's view of the simulated state (its own
   hidden cards, sampled) and chance from the search's generator, until ``HORIZON`` more action
   rounds have been played or the turn has ended (its held-scoring-card and military-operations
   checks done), or the game ended.
4. The judge: the real outcome (±``WIN``) if the game ended; else our VP lead plus the heuristic's
   board evaluation (:class:`~standoff.bots.ts_heuristic.Evaluator`, built once at the root, so
   every leaf is measured with the same weights).
5. The answer: the best mean; the heuristic's own answer unless another beats it by ``MARGIN``.
   At the ``card_use`` step that follows a searched action round, the searched use is played.

Defaults: 16 rollouts per searched decision (4 per candidate), ``WIDTH`` 4, ``HORIZON`` 4,
``MARGIN`` 0.25. Measured against ts-heuristic by ``benchmarks/ts_search_vs_heuristic.py``.

Budget per decision: ``TSSearchBot(seed, iterations=N)``, else ``STANDOFF_TS_SEARCH_ITERATIONS``,
else ``TSSearchBot.ITERATIONS``. Deterministic given its seed. Any exception in the search falls
back to the heuristic's answer, counted and logged (``Bot.count_fallback``; ``strict = True`` in
tests raises instead). The heuristic's own fallbacks, at the match's decisions or in a rollout
(logged with ``context="search"``), count on ts-search too.
"""

from __future__ import annotations

import os
import random
import time
from typing import Any

from ..sdk.bot import Bot
from ..sdk.simulate import Belief
from ..sdk.types import MatchInfo
from ..server.core.game import CHANCE, sample_chance
from ..server.games import get_game
from .ts_heuristic import CARD_NUM, SCORING_CARDS, SIDE, WIN, Ctx, TSHeuristicBot, read_view

ENV_ITERATIONS = "STANDOFF_TS_SEARCH_ITERATIONS"


class _Scorer(TSHeuristicBot):
    """The heuristic, keeping the values it gave the options of its last pick."""

    def _pick(self, scored):
        self.last_scored = list(scored)
        return super()._pick(scored)


class TSSearchBot(Bot):
    """Determinized search at headlines and action rounds over ts-heuristic's best options.

    See the module docstring."""

    name = "ts-search"
    version = "1"
    games = ("twilight-struggle",)

    #: rollouts per searched decision (split over the candidates)
    ITERATIONS: int = 16
    #: candidates searched
    WIDTH = 4
    #: action rounds (either side's) played after ours before judging; the turn's end stops earlier
    HORIZON = 4
    #: how much (VP-equivalents) another candidate's mean must beat the heuristic's answer by
    MARGIN = 0.25
    #: Tests set this to see exceptions instead of the fallback (counted and logged in play:
    #: :meth:`Bot.count_fallback`).
    strict = False

    def __init__(self, seed: int = 0, iterations: int | None = None) -> None:
        super().__init__(seed)
        if iterations is None:
            env = os.environ.get(ENV_ITERATIONS)
            iterations = int(env) if env else self.ITERATIONS
        self.iterations = max(1, int(iterations))
        self.options: dict[str, str] | None = None
        self.game = get_game("twilight-struggle")
        self.heuristic = self.adopt(_Scorer(seed))  # its fallbacks count on us
        self.stats: dict[str, Any] = {}
        self._pending_use: tuple | None = None
        #: totals over the bot's life: searched decisions, rollouts, seconds spent searching
        self.searches = 0
        self.total_iterations = 0
        self.search_seconds = 0.0

    def start(self, match: MatchInfo) -> None:
        super().start(match)
        self.options = dict(match.options) or None
        self.heuristic.start(match)
        self._pending_use = None

    # -- entry point -----------------------------------------------------------------------------

    def choose(self, decision: Any, view: Any) -> int:
        options = decision.options
        self.heuristic.last_scored = None
        base = self.heuristic.choose(decision, view)  # always asked: keeps its plans in step
        if len(options) <= 1:
            return 0
        step = decision.step
        pending, self._pending_use = self._pending_use, None
        try:
            if step == "card_use" and pending is not None:
                keys = [o.key for o in options]
                history = read_view(view)["history"]
                last = history[-1] if history else None
                if last is not None and list(last[1:]) == [decision.role, "action_round", pending[0]] \
                        and pending[1] in keys:
                    return keys.index(pending[1])
                return base
            if step not in ("action_round", "headline"):
                return base
            return self._search(decision, view, base)
        except Exception as exc:
            if self.strict:
                raise
            self.count_fallback(exc, decision)
            return base

    # -- candidates ------------------------------------------------------------------------------

    def _candidates(self, decision: Any, base: int) -> list[tuple[int, str | None, float]]:
        """``(option index, use key or None, heuristic value)``, best first, the heuristic's
        own answer first of all."""
        keys = [o.key for o in decision.options]
        h = self.heuristic
        scored = h.last_scored or []
        pairs: list[tuple[float, int, str | None]] = []
        if decision.step == "action_round":
            memo = {c: uses for (_, c), (uses, _) in h._uses_memo.items()}
            for i, k in enumerate(keys):
                c = CARD_NUM.get(k[5:]) if k.startswith("card:") else None
                if c is None or c in SCORING_CARDS:
                    continue
                for v, use in memo.get(c, ()):
                    if use is not None:
                        pairs.append((v, i, use))
            score_of = {i: v for v, i in scored}
            scoring = [(score_of.get(i, 0.0), i) for i, k in enumerate(keys)
                       if k.startswith("card:") and CARD_NUM.get(k[5:]) in SCORING_CARDS]
            for v, i in sorted(scoring, reverse=True)[:1]:
                pairs.append((v, i, None))
            base_use = None
            base_uses = [p for p in pairs if p[1] == base and p[2] is not None]
            if base_uses:
                base_use = max(base_uses, key=lambda p: p[0])[2]
        else:
            pairs = [(v, i, None) for v, i in scored]
            base_use = None
        pairs.sort(key=lambda p: -p[0])
        out: list[tuple[int, str | None, float]] = [(base, base_use, 0.0)]
        seen = {(base, base_use)}
        for v, i, use in pairs:
            if len(out) >= self.WIDTH:
                break
            if (i, use) in seen or v <= -WIN / 2:
                continue
            seen.add((i, use))
            out.append((i, use, v))
        return out

    # -- the search ------------------------------------------------------------------------------

    def _search(self, decision: Any, view: Any, base: int) -> int:
        cands = self._candidates(decision, base)
        if len(cands) <= 1:
            return base
        started = time.perf_counter()
        game = self.game
        belief = Belief(game, view, options=self.options)
        me = decision.role
        me_index = belief.rules.roles.index(me)
        root = belief.state
        v = read_view(view)
        x = Ctx(self.heuristic, v, decision)
        judge = x.ev
        rounds = max(1, self.iterations // len(cands))
        totals = [0.0] * len(cands)
        counts = [0] * len(cands)
        rng = self.rng
        for _ in range(rounds):
            sample = belief.sample(rng)
            seed = rng.getrandbits(32)
            for j, (index, use, _) in enumerate(cands):
                state = sample.copy()
                value = self._playout(game, state, decision.options[index].key, use, me, me_index,
                                      judge, seed, root.turn)
                if value is None:
                    continue
                totals[j] += value
                counts[j] += 1
        means = [totals[j] / counts[j] if counts[j] else -1e9 for j in range(len(cands))]
        best = 0
        for j in range(1, len(cands)):
            if means[j] > means[best] + (self.MARGIN if best == 0 else 0.0):
                best = j
        index, use, _ = cands[best]
        if decision.step == "action_round" and use is not None:
            # the card_use decision comes next: the last entry of its view's history is our card
            self._pending_use = (decision.options[index].key, use)
        elapsed = time.perf_counter() - started
        self.searches += 1
        self.total_iterations += rounds * len(cands)
        self.search_seconds += elapsed
        self.stats = {
            "step": decision.step,
            "rounds": rounds,
            "candidates": [(decision.options[i].key, u, round(m, 3), n)
                           for (i, u, _), m, n in zip(cands, means, counts)],
            "chosen": best,
            "seconds": elapsed,
        }
        return index

    def _rollout_bot(self, seed: int) -> TSHeuristicBot:
        """The heuristic that plays a side in a rollout: its fallbacks count on us, marked as
        taken in the search."""
        bot = self.adopt(TSHeuristicBot(seed))
        bot.fallback_context = "search"
        return bot

    def _playout(self, game, state, key: str, use: str | None, me: str, me_index: int, judge,
                 seed: int, turn: int) -> float | None:
        """Apply the candidate in ``state`` (a determinization), play on with the heuristic for
        both sides, judge. ``None``: the candidate is not offered in this sample."""
        chance = random.Random(seed)
        bots = {r: self._rollout_bot(seed + k) for k, r in enumerate(state.rules.roles)}
        d = game.decision(state)
        option = next((o for o in d.options if o.key == key), None)
        if option is None:
            return None
        game.apply(state, option)
        need_use = use
        rounds = 0
        while True:
            d = game.decision(state)
            if d is None:
                return WIN * (2.0 * game.outcome(state).scores[me_index] - 1.0)
            options = d.options
            if d.role == CHANCE:
                game.apply(state, options[sample_chance(chance, d)])
                continue
            step = d.step
            if step in ("action_round", "headline"):
                if step == "action_round":
                    rounds += 1
                if rounds > self.HORIZON or state.turn != turn:
                    break
            if len(options) == 1:
                game.apply(state, options[0])
                continue
            i = bots[d.role].choose(d, game.view(state, d.role))
            if need_use is not None and step == "card_use" and d.role == me:
                for k, o in enumerate(options):
                    if o.key == need_use:
                        i = k
                        break
                need_use = None
            game.apply(state, options[i])
        mine = SIDE[me]
        lead = state.vp if mine == 1 else -state.vp
        return lead + judge.total([list(state.inf[mine]), list(state.inf[1 - mine])])
