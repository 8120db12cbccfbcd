"""``greedy``: a formation-aware Schotten Totten / Battle Line bot with no search.

It plays toward the best formation each side can still reach and claims whenever it can.

How it judges a position (all from the view it receives, never from the referee's state):

* Every unclaimed flag gets a *value*, an estimate in ``[0, 1]`` of the chance of winning it:
  exact when both sides are complete or when our complete side beats everything the opponent can
  still reach (``best_completion`` over the troops not on the table), ``0`` when the opponent's
  complete side beats everything we can reach, high when our own hand completes a formation the
  opponent cannot beat, otherwise a logistic of the difference between our *estimated* formation
  and the opponent's. Estimates are the strongest reachable formations, discounted per missing
  card (ours are also ready to be discounted per card that is not in our hand; head-to-head
  matches between variants measured no discount as best).
* A play is scored by the change of value it makes at the flags it touches (one flag for a troop,
  two for Traitor or Redeploy). Adding a card never raises what a side could reach, so the score
  rewards progress toward certain formations, completing provable ones and dumping low cards on
  flags that are already lost, and punishes breaking a formation we were building.
* Tactics pay a fixed cost on top of that (they let the opponent play one in turn, and morale
  cards are scarce): morale cards are evaluated like troops (as jokers) and Fog, Mud, Deserter,
  Traitor and Redeploy by the value they change; Scout and passing get fixed, low scores.
* Draws take troops, except a tactics card when the troops in hand (nearly) fill every free slot
  we have, or when we hold no tactics card while the opponent holds two or more; and never a
  tactics card the count rule would not let us play (we may play one only while we have played
  no more than the opponent: against an opponent that plays none, one in the whole game; the
  opponent's played and held tactics set how many we can use). Against an
  opponent whose hand is all tactics it may not play (count rule), having no room and no tactics
  card ourselves means both sides pass: a stalemate draw. For the same reason we never pass right
  after the opponent passed unless we are behind on flags.

Several opponents (``three_player``): every side of a flag but ours is an opponent's, and a flag
is won only by beating all of them, so its value is the product of the chances against each
opponent (each estimated as above; "the opponent's reachable formations" draw on every troop not
on the table and not in our hand, i.e. the deck and *both* other hands). Deserter and Traitor may
target any opponent; passing is a stalemate only after *every* opponent passed in succession. With
one opponent all of this is exactly the two-player bot. Measured over 200 three-player games
(one greedy, two ``random``, the seat rotating): greedy won 184, random 9, 7 stalemate draws.

``play`` and ``place`` (and a tactics card and its target) are separate decisions: the whole plan
is computed at ``play`` and remembered for the decisions that follow; a remembered choice that is
not offered is recomputed. Ties are broken with ``self.rng`` among the best options in the order
they were offered, so the bot is deterministic given its seed.
"""

from __future__ import annotations

from typing import Any

from ..sdk.bot import Bot
from ..sdk.views import as_dict
from ..server.games.schotten_totten import cards as C
from ..server.games.schotten_totten.formations import strength
from .greedy_position import _Position

# The position model (flag values, move deltas) is in :mod:`.greedy_position`; its names stay
# importable from here for the bots that build on greedy (``probability``, ``ismcts``).
from .greedy_position import _BIG as _BIG
from .greedy_position import _logistic as _logistic
from .greedy_position import _score as _score
from .greedy_position import _without as _without

# --- tuning --------------------------------------------------------------------------------------

#: Per missing card of one of our sides, whatever fills it (time, and the risk of losing the tie).
D_MISSING = 1.0
#: Extra discount per card of our best reachable formation that we do not hold (0 measured best).
D_EXTERNAL = 0.0
#: Discount per missing card of the opponent's best reachable formation.
D_OPPONENT = 5.0
#: Scale of the logistic that turns an estimated strength difference into a chance of winning
#: (one formation rank is 10 units).
TEMPERATURE = 16.0
#: Chance of winning a flag our own hand completes into a formation the opponent cannot beat.
P_CERTAIN = 0.9
#: Costs of tactics cards, in flag-value units.
COST_TACTICS = 0.2
COST_LEADER = 0.3
#: Fixed scores of moves that change no flag.
SCORE_SCOUT = -0.45
SCORE_PASS = -0.5
#: Tie-break: a played card's value costs this much (dump low cards, keep high ones).
COST_PER_VALUE = 0.001

_EPS = 1e-9
Plan = dict[str, Any]


def _card(key: str) -> int:
    """Card id of a ``card:<name>`` option key."""
    return C.card_from_name(key[5:])


def _flag(key: str) -> int:
    """0-based flag of a ``flag:<n>`` option key."""
    return int(key[5:]) - 1


class GreedyBot(Bot):
    """Formation-aware: plays toward the best reachable formation, claims whenever possible."""

    name = "greedy"
    games = ("schotten-totten",)

    #: Tests set this to see exceptions; in play, an unexpected failure falls back to a safe
    #: option rather than forfeiting, counted and logged (:meth:`Bot.count_fallback`).
    strict = False
    # Tuning constants (see the module's top); class attributes so that variants can subclass.
    D_MISSING = D_MISSING
    D_EXTERNAL = D_EXTERNAL
    D_OPPONENT = D_OPPONENT
    TEMPERATURE = TEMPERATURE
    P_CERTAIN = P_CERTAIN
    COST_TACTICS = COST_TACTICS
    COST_LEADER = COST_LEADER
    SCORE_SCOUT = SCORE_SCOUT
    SCORE_PASS = SCORE_PASS
    COST_PER_VALUE = COST_PER_VALUE
    #: Draw tactics once the troops in hand plus this many fill every free slot we have.
    draw_margin = 4
    #: Draw tactics while we hold none and the opponent holds at least this many (0: never).
    reserve = 2

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._plan: Plan = {}

    # -- entry point -----------------------------------------------------------------------------

    def choose(self, decision: Any, view: Any) -> int:
        options = decision.options
        if len(options) == 1:
            return 0
        try:
            index = self._choose(decision, as_dict(view))
        except Exception as exc:
            if self.strict:
                raise
            self.count_fallback(exc, decision)
            return self._fallback(options)
        if index is None or not 0 <= index < len(options):
            # A handler that could not work out an answer (a plan or a card it cannot find):
            # an internal error too, counted the same way.
            self.count_fallback(f"no answer ({index!r}) for {len(options)} options", decision)
            return self._fallback(options)
        return index

    def _fallback(self, options) -> int:
        """A harmless option: anything but ``pass``/``done``/``discard`` if there is one."""
        keep = [i for i, o in enumerate(options) if o.key not in ("pass", "done", "discard")]
        return keep[0] if keep else 0

    def _pick(self, scored: list[tuple[float, int]]) -> int:
        """Index of the best score; ties broken with ``self.rng`` in the given order."""
        best = max(s for s, _ in scored)
        tied = [i for s, i in scored if s >= best - _EPS]
        return tied[0] if len(tied) == 1 else tied[self.rng.randrange(len(tied))]

    def _choose(self, decision: Any, view: Any) -> int | None:
        step = decision.step
        options = decision.options
        keys = [o.key for o in options]
        if step == "claim":
            flags = [i for i, k in enumerate(keys) if k.startswith("flag:")]
            return flags[0] if flags else 0
        if step in ("draw", "scout_draw"):
            return self._draw(_Position(view, decision.role, self), keys)
        pos = self._position(view, decision.role)
        if step == "play":
            return self._play(pos, keys)
        handler = getattr(self, "_step_" + step, None)
        if handler is None:
            return self.rng.randrange(len(options))
        plan = self._plan
        self._plan = {}
        return handler(pos, keys, plan)

    #: target steps whose handler answers first from the plan our ``play`` left, without the
    #: position: step -> (kind of option, plan entry)
    _PLANNED = {"place": ("flag", "flag"), "environment": ("flag", "flag"),
                "deserter": ("card", "target"), "traitor_to": ("flag", "flag")}

    def planned(self, decision: Any) -> int | None:
        """What :meth:`_choose` answers at a target step when the plan our ``play`` left decides
        it (the plan is then used up, as there), else None with the plan kept. No position is
        built (the probability bot's: its flag odds, from deals of the unseen troops), so a
        search that plays this bot in its lines (``ismcts``'s ``reply``) answers the targets of
        the opponent's moves for nothing: half the cost of its lines. Unlike :meth:`_choose`, it
        draws no random numbers."""
        entry = self._PLANNED.get(decision.step)
        if entry is None:
            return None
        found = self._index([o.key for o in decision.options], entry[0], self._plan.get(entry[1]))
        if found is not None:
            self._plan = {}
        return found

    def forget_plan(self) -> None:
        """Drop the plan our last ``play`` left (its card was not played after all): the target
        steps to come then work out the card from the history."""
        self._plan = {}

    def _position(self, view: dict[str, Any], role: str) -> _Position:
        """The position the play and target steps judge (subclasses weigh it differently)."""
        return _Position(view, role, self)

    # -- draw ----------------------------------------------------------------------------------

    def _draw(self, pos: _Position, keys: list[str]) -> int:
        """Troops, unless the troops in hand already fill every free slot we have (then a tactics
        card is worth more: it can still be played when we have no room left), or we hold no
        tactics card while the opponent holds ``reserve`` or more. Never a tactics card the count
        rule will not let us play (:meth:`_tactics_room`): tactics hoarded beyond it are dead
        cards, and a hand of them against an opponent with no room ends in a stalemate."""
        if "deck:troops" not in keys:
            return 0
        if "deck:tactics" in keys and self._tactics_room(pos) > 0:
            room = sum(pos.size(f) - len(pos.mine[f]) for f in pos.open_flags())
            if len(pos.hand_troops) + self.draw_margin >= room:
                return keys.index("deck:tactics")
            no_tactics = len(pos.hand_troops) == len(pos.hand)
            if self.reserve and no_tactics and pos.opp_tactics >= self.reserve:
                return keys.index("deck:tactics")
        return keys.index("deck:troops")

    @staticmethod
    def _tactics_room(pos: _Position) -> int:
        """How many more tactics cards we could take into hand and still play, by the count
        rule (rules digest §5: we may play one only while we have played no more than every
        opponent). Each opponent can raise its count by at most the tactics cards it holds, so
        we can play at most ``min over opponents (played + held) - ours + 1`` more; the ones we
        hold already (a second leader after the first was played is dead: not counted) use
        that up. Negative: we hold more than we can play."""
        played = pos.tactics_played
        others = pos.opponent_tactics
        ceiling = min((played.get(o, 0) + others.get(o, 0) for o in pos.opps), default=0)
        playable = ceiling - played.get(pos.role, 0) + 1
        held = [c for c in pos.hand if c >= 60 and not (pos.leader_played and c in C.LEADERS)]
        return max(0, playable) - len(held)

    # -- play ----------------------------------------------------------------------------------

    def _play(self, pos: _Position, keys: list[str]) -> int:
        open_flags = pos.open_flags()
        scored: list[tuple[float, int]] = []
        plans: dict[int, Plan] = {}
        for i, key in enumerate(keys):
            if key == "pass":
                scored.append((self._pass_score(pos), i))
                continue
            if not key.startswith("card:"):
                scored.append((self.SCORE_PASS - 1, i))
                continue
            card = _card(key)
            best, plan = self._evaluate_card(pos, card, open_flags)
            plan["card"] = card
            plans[i] = plan
            scored.append((best, i))
        index = self._pick(scored)
        self._plan = plans.get(index, {})
        return index

    def _pass_score(self, pos: _Position) -> float:
        """Passing right after every opponent passed ends the game in a draw (stalemate): avoid
        that unless we are behind on claimed flags."""
        passed: set[str] = set()
        for entry in reversed(pos.history):
            if len(entry) >= 4 and entry[2] == "play":
                if entry[1] in pos.opps and entry[3] == "pass" and entry[1] not in passed:
                    passed.add(entry[1])
                    if len(passed) < len(pos.opps):
                        continue
                    mine = pos.claimed.count(pos.role)
                    theirs = max(pos.claimed.count(o) for o in pos.opps)
                    return self.SCORE_PASS if mine < theirs else -5.0
                break
        return self.SCORE_PASS

    def _evaluate_card(self, pos: _Position, card: int, open_flags: list[int]):
        """Best score of playing ``card`` now and the plan that reaches it."""
        if card < 60 or card in C.MORALE:
            if card < 60:
                hand = pos.hand_without(card)
                cost = self.COST_PER_VALUE * C.value_of(card)
            else:
                hand = pos.hand_troops
                cost = self.COST_LEADER if card in C.LEADERS else self.COST_TACTICS
            best, where = -1e9, None
            for f in open_flags:
                s = pos.place_delta(card, f, hand) - cost
                if s > best + _EPS:
                    best, where = s, f
            return best, {"flag": where}
        if card in C.ENVIRONMENT:
            best, where = -1e9, None
            for f in range(9):
                s = pos.environment_delta(card, f)
                if s > best + _EPS:
                    best, where = s, f
            return best - self.COST_TACTICS, {"flag": where}
        if card == C.SCOUT:
            return self.SCORE_SCOUT, {}
        if card == C.DESERTER:
            best, target = -1e9, None
            for t in self._opp_movable(pos):
                s, _ = pos.removal_delta(t)
                if s > best + _EPS:
                    best, target = s, t
            return best - self.COST_TACTICS, {"target": target}
        if card == C.TRAITOR:
            best, target, where = self._best_traitor(pos, open_flags)
            return best - self.COST_TACTICS, {"target": target, "flag": where}
        if card == C.REDEPLOY:
            best, target, where = self._best_redeploy(pos)
            return best - self.COST_TACTICS, {"target": target, "flag": where}
        return self.SCORE_PASS - 1, {}

    def _opp_movable(self, pos: _Position) -> list[int]:
        out: list[int] = []
        for f in range(9):
            if pos.claimed[f] is not None:
                continue
            for side in pos.theirs[f]:
                out.extend(side)
            if pos.fog_owner[f] in pos.opps:
                out.append(C.FOG)
            if pos.mud_owner[f] in pos.opps:
                out.append(C.MUD)
        return out

    def _best_traitor(self, pos: _Position, open_flags: list[int], only: int | None = None):
        """Best ``(score, troop, flag)`` for Traitor: the few troops whose loss hurts the
        opponent most, each tried at every open flag of ours."""
        removals = []
        for f in range(9):
            if pos.claimed[f] is not None:
                continue
            for c in (c for side in pos.theirs[f] for c in side):
                if c < 60 and (only is None or c == only):
                    removals.append((pos.removal_delta(c)[0], -C.value_of(c), c, f))
        removals.sort(reverse=True)
        best, target, where = -1e9, None, None
        for _, _, c, source in removals[:3]:
            for f in open_flags:
                s = pos.traitor_delta(c, source, f)
                if s > best + _EPS:
                    best, target, where = s, c, f
        return best, target, where

    def _best_redeploy(self, pos: _Position, only: int | None = None):
        """Best ``(score, card, flag or None)`` for Redeploy over our movable cards."""
        open_flags = pos.open_flags()
        best, target, where = -1e9, None, None
        for f in range(9):
            if pos.claimed[f] is not None:
                continue
            cards = list(pos.mine[f])
            if pos.fog_owner[f] == pos.role:
                cards.append(C.FOG)
            if pos.mud_owner[f] == pos.role:
                cards.append(C.MUD)
            for c in cards:
                if only is not None and c != only:
                    continue
                if c in C.ENVIRONMENT:
                    marks = pos.fog if c == C.FOG else pos.mud
                    targets = [g for g in range(9) if pos.claimed[g] is None and not marks[g]]
                else:
                    targets = [g for g in open_flags if g != f]
                for g in [None, *targets]:
                    s = pos.redeploy_delta(c, f, g)
                    if s > best + _EPS:
                        best, target, where = s, c, g
        return best, target, where

    # -- the decisions that follow a play --------------------------------------------------------

    def _best_flag(self, keys: list[str], score) -> int | None:
        scored = [(score(_flag(k)), i) for i, k in enumerate(keys) if k.startswith("flag:")]
        return self._pick(scored) if scored else None

    @staticmethod
    def _index(keys: list[str], kind: str, what: int | None) -> int | None:
        """Index of the option ``flag:<what + 1>`` / ``card:<name of what>``, if offered."""
        if what is None:
            return None
        key = f"flag:{what + 1}" if kind == "flag" else f"card:{C.card_name(what)}"
        return keys.index(key) if key in keys else None

    def _last_played(self, pos: _Position, step: str = "play") -> int | None:
        """The card we chose last at ``step``, from the history in the view (when no plan
        remembers it)."""
        for entry in reversed(pos.history):
            if len(entry) >= 4 and entry[1] == pos.role and entry[2] == step:
                key = entry[3]
                return _card(key) if isinstance(key, str) and key.startswith("card:") else None
        return None

    def _step_place(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        found = self._index(keys, "flag", plan.get("flag"))
        if found is not None:
            return found
        card = plan.get("card")
        if card is None:
            card = self._last_played(pos)
        if card is None:
            return None
        hand = pos.hand_troops  # the card has left the hand already
        return self._best_flag(keys, lambda f: pos.place_delta(card, f, hand))

    def _step_environment(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        found = self._index(keys, "flag", plan.get("flag"))
        if found is not None:
            return found
        card = plan.get("card")
        if card is None:
            card = self._last_played(pos)
        if card not in C.ENVIRONMENT:
            return None
        return self._best_flag(keys, lambda f: pos.environment_delta(card, f))

    def _step_deserter(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        found = self._index(keys, "card", plan.get("target"))
        if found is not None:
            return found
        scored = [
            (pos.removal_delta(_card(k))[0], i) for i, k in enumerate(keys) if k.startswith("card:")
        ]
        return self._pick(scored) if scored else None

    def _step_traitor(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        target, flag = plan.get("target"), plan.get("flag")
        found = self._index(keys, "card", target)
        if found is None:
            _, target, flag = self._best_traitor(pos, pos.open_flags())
            found = self._index(keys, "card", target)
        if found is not None:
            self._plan = {"target": target, "flag": flag}
        return found

    def _step_traitor_to(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        found = self._index(keys, "flag", plan.get("flag"))
        if found is not None:
            return found
        card = plan.get("target")
        if card is None:
            card = self._last_played(pos, "traitor")
        where = None if card is None else pos.find(card)
        if where is None:
            return None
        source = where[0]
        return self._best_flag(keys, lambda f: pos.traitor_delta(card, source, f))

    def _step_redeploy(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        target, flag = plan.get("target"), plan.get("flag")
        found = self._index(keys, "card", target)
        if found is None:
            _, target, flag = self._best_redeploy(pos)
            found = self._index(keys, "card", target)
        if found is not None:
            self._plan = {"target": target, "flag": flag}  # flag None: discard it
        return found

    def _step_redeploy_to(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        card = plan.get("target")
        if card is not None:
            flag = plan.get("flag")
            found = keys.index("discard") if flag is None and "discard" in keys else None
            if found is None:
                found = self._index(keys, "flag", flag)
            if found is not None:
                return found
        else:
            card = self._last_played(pos, "redeploy")
        source = self._redeploy_source(pos, card)
        if card is None or source is None:
            return None
        scored = []
        for i, k in enumerate(keys):
            if k == "discard":
                scored.append((pos.redeploy_delta(card, source, None), i))
            elif k.startswith("flag:"):
                scored.append((pos.redeploy_delta(card, source, _flag(k)), i))
        return self._pick(scored) if scored else None

    def _redeploy_source(self, pos: _Position, card: int | None) -> int | None:
        if card is None:
            return None
        if card in C.ENVIRONMENT:
            return pos.env_flag(card)
        found = pos.find(card)
        return None if found is None else found[0]

    def _step_scout_return(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        """Return the card of least use: troops by their best placement now, tactics by a fixed
        worth (a dead second leader is worth nothing)."""
        open_flags = pos.open_flags()
        scored = [
            (-self._worth(pos, _card(k), open_flags), i)
            for i, k in enumerate(keys)
            if k.startswith("card:")
        ]
        return self._pick(scored) if scored else None

    def _worth(self, pos: _Position, card: int, open_flags: list[int]) -> float:
        if card < 60:
            hand = pos.hand_without(card)
            best = max((pos.place_delta(card, f, hand) for f in open_flags), default=-1.0)
            return best + self.COST_PER_VALUE * C.value_of(card) * 10
        if card in C.LEADERS and pos.leader_played:
            return -2.0
        # Tactics cards beyond what the count rule lets us play are returned first.
        dead = -1.0 if self._tactics_room(pos) < 0 else 0.0
        if card in C.LEADERS:
            return 0.5 + dead
        if card in (C.COMPANION_CAVALRY, C.SHIELD_BEARERS, C.TRAITOR, C.DESERTER):
            return 0.2 + dead
        return -0.3 + dead

    def _step_mud_discard(self, pos: _Position, keys: list[str], plan: Plan) -> int | None:
        """Mud left: discard the card whose loss leaves our side strongest."""
        cards = [(_card(k), i) for i, k in enumerate(keys) if k.startswith("card:")]
        ids = {c for c, _ in cards}
        flag = next(
            (f for f in range(9) if ids and ids <= set(pos.mine[f]) and len(pos.mine[f]) > 3),
            None,
        )
        if flag is None:
            return None
        side = pos.mine[flag]
        scored = []
        for c, i in cards:
            rest = tuple(x for x in side if x != c)
            s = pos.value(flag, rest, pos.theirs[flag], pos.hand_troops, size=3)
            scored.append((s + 1e-3 * strength(rest, pos.fog[flag])[1] / 10, i))
        return self._pick(scored)
