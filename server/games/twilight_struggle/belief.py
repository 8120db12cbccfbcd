"""Twilight Struggle's forward model (``GameSpec.forward_model``; the SDK's
:class:`standoff.sdk.simulate.Belief` reaches it through the game's spec).

The approach is the one of Schotten Totten's (``schotten_totten/belief.py``): the view's
``history`` is replayed on a fresh state of the real engine, which produces every piece of
bookkeeping itself (the stack of frames mid-event, lasting effects, the China Card, space race,
military operations, reshuffles, the decision number). What the role could not see is filled in:

* the other side's draws (``deal``, Ask Not's and Our Man in Tehran's draws: ``card:hidden``) get
  filler cards of the draw pile, preferably cards no later public fact names and no scoring card
  (a scoring card held at the end of a turn would end the replayed game);
* the other side's secret headline gets the card its ``headline_reveal`` names (or, while it is
  still secret, a filler from its hand).

The cards the role cannot see (the other hand except the cards it knows, the draw pile, the other
secret headline, Our Man in Tehran's draws for the USSR) are exchangeable: swapping two of them
changes nothing the role can see. So whenever a public fact names a card the replay put elsewhere
(the other side plays it, a random discard takes it from that hand, the role draws it, a hand is
revealed, Missile Envy takes it), the two identities are swapped just before the decision that
needs it. Each decision is then applied and checked: the log entries it produced, as the role sees
them, must be the history's, and the next decision must be the history's. When the engine's
automatic consequences of the hidden hand differ (a held scoring card ending the turn, Missile
Envy's highest card, a Quagmire / Bear Trap round, a headline with no eligible card...), the
decision is retried after re-dealing the other side's unknown cards (no scoring cards; low
Operations; then random re-deals), keeping every card a public fact needs.

Knowledge (``known``): the cards the role knows to be in the other hand, kept in every sample: the
whole hand it saw through CIA Created / Lone Gunman or Aldrich Ames Remix (the view's
``opponent_hand``), the scoring cards The Cambridge Five showed, and cards that went there in
public (Missile Envy, a Grain Sales card given back, SALT's pick...), each for as long as it stays
in that hand (while the other headline is secret, it may be one of them). The engine keeps the
same record in its state (``TSState.known``), which ``TwilightStruggle.determinize`` uses: the
two agree (tests/bots/test_simulate_ts.py checks it over whole games). Conservative, i.e. not
used to narrow the re-deal: negative knowledge (after The Cambridge Five the US holds no *other*
scoring card until it draws again; nobody held a scoring card at the last turn's end), what the
other side's past options imply (UN Intervention needed an opponent card...), and the engine's
headline filters (a secret headline is any card with a headline flag).

The re-deal is the engine's (``standoff.server.games.twilight_struggle.determinize``: one
implementation for ``TwilightStruggle.determinize`` and :meth:`TSBelief.sample`): uniform over
the deals consistent with the view and ``known``, the other side's secret headline included (a
known card may be it, with the weight that keeps the deal uniform), Our Man in Tehran's drawn
cards re-dealt for the USSR, the cards a pending choice of the other side lists from its hand
kept; when the pending decision is not the role's own, re-deals that change it are rejected (its
step can tell that a hand had no playable card).

What a sample does not hold: the other side's *past* hidden cards (its draws in a sample's
history are fillers: the role's view of the sample is exact, the other side's is not meaningful).

Rules: a view carries its match's rules (``rules``: optional cards, Chinese Civil War, bid, last
turn), and those are used; ``options`` (the match's, out of band) are still accepted for views of
older servers, which lack the field. For those, ``chinese_civil_war`` is inferred exactly (the
China Card's holder, the variant's claim in the history), ``bid`` from the history's ``bid``
entries (while the bid is still being placed, the amount left is unknown: one more is assumed, by
the role itself if it has not started), ``optional_cards`` from any optional card (#104-110) seen,
else both are tried ("on" first) and the first replay that reproduces the view wins; ``end_turn``
cannot be inferred (the default, 10, is used): pass the match's options.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ...forward_model import ForwardModel, SimulationError
from . import determinize as D
from . import playout
from .belief_cards import HIDDEN_CARD as HIDDEN_CARD, HIDDEN_HAND as HIDDEN_HAND  # re-exported
from .belief_replay import _Replay
from .belief_rules import candidate_rules, infer_rules

# The model is split by concern: card keys and facts (:mod:`.belief_cards`), rules inference
# (:mod:`.belief_rules`), the replay (:mod:`.belief_replay`); the belief and the re-deal are
# here. ``HIDDEN_CARD`` and ``HIDDEN_HAND`` are re-exported.
__all__ = ["FORWARD_MODEL", "TSBelief", "candidate_rules", "infer_rules", "redeal"]


class TSBelief:
    """The replayed state of one role's view (see the module's documentation): ``rules``,
    ``state`` (its hidden cards are fillers), ``me``; :meth:`sample` re-deals."""

    def __init__(self, game: Any, view: dict[str, Any], options: Mapping[str, str] | None,
                 rules: Any, check: bool) -> None:
        candidates = [rules] if rules is not None else candidate_rules(game, view, options)
        error: SimulationError | None = None
        for candidate in candidates:
            try:
                replay = _Replay(game, candidate, view)
                replay.run(view, check)
            except SimulationError as exc:
                error = error or exc
                continue
            self.game = game
            self.rules = candidate
            self.state = replay.state
            self.me = replay.me
            # a pending choice among the other hand's cards lists them: keep them there
            self.known = frozenset(set(replay.known) | D.listed_in_pending_choice(self.state, replay.them))
            self.secret_headline = replay.secret_headline()
            return
        assert error is not None
        raise error

    def sample(self, rng: random.Random) -> Any:
        """A re-deal (the engine's own, :func:`redeal` / ``determinize.resample``); when the
        pending decision is not the role's own, its step may tell about the other hand (a round
        skipped for want of cards): re-deals that change it are rejected (after 50, the replayed
        state's own hidden cards are kept)."""
        return D.resample(self.game, self.state, self.me, self.known, self.secret_headline, rng)


# -- the re-deal ---------------------------------------------------------------------------------------

#: The engine's re-deal (``standoff.server.games.twilight_struggle.determinize.redeal``), which
#: ``TwilightStruggle.determinize`` uses too: ``redeal(state, me, known, secret_headline, rng)``.
redeal = D.redeal


def _random_playout(game: Any, state: Any, rng: random.Random) -> bool:
    """The uniform rollout on the engine's own functions (compiled: C calls), when it can."""
    if not playout.plays(game):
        return False
    playout.random_playout(game, state, rng)
    return True


#: What the game's spec carries (``GameSpec.forward_model``).
FORWARD_MODEL = ForwardModel(belief=TSBelief, infer_rules=infer_rules, random_playout=_random_playout)
