"""A frozen copy of ``ts-heuristic`` as of commit 9fc0320 (before issue 25's fixes), as the
plugin bot ``ts-heuristic-v1``: the baseline the new heuristic is measured against. Load it with
``PYTHONPATH=tests/plugins/ts_heuristic_v1 STANDOFF_PLUGINS=standoff_ts_heuristic_v1.plugin``.
Not a built-in bot; never edited (only its imports are absolute).

``ts-heuristic``: a rule-based Twilight Struggle bot with no search.

It reads only the view it is given (decoded from the wire, turned into the engine's dict with
:func:`standoff.sdk.views.as_dict`) and the engine's static map, card and rules tables; never the
referee's state. Every decision is judged by one number, a rough VP-equivalent from our side:
the board evaluation (per-country soft control plus weighted region scoring), VP, and the per-card
models of what events would do. The package, from the bottom up (no module imports one above it):

* :mod:`.data`: the tables, taken or derived at import time from the engine's
  (``map_data``, ``card_data``, ``ops.SPACE`` / ``ops.OWN_SPACE``, the side numbers of ``state``);
* :mod:`.evaluation`: the control and region-tier rules over influence lists, and the
  incremental :class:`Evaluator` (influence plans by packages, coup and realignment odds);
* :mod:`.context`: :class:`Ctx`, what one decision knows (read from the view), and the weights;
* :mod:`.simulation`: :class:`Sim`, the scratch board the event models run on, and their shared
  building blocks;
* :mod:`.events_early`, :mod:`.events_mid`, :mod:`.events_late`: one short model per card,
  gathered by card number in :data:`.events.EVENTS`;
* :mod:`.valuation`: what a card's uses, operations and events are worth, and DEFCON safety;
* :mod:`.choices`: the card choices, discards and ``choice:`` questions;
* :mod:`.bot`: :class:`TSHeuristicBot`, the dispatch and the remaining steps (set-up, action
  round, card use, influence, coups, realignments, headline, event placements and removals).

Ties are broken with ``self.rng``, so the bot is deterministic given its seed.
``standoff.bots.ts_search`` builds on it (:class:`Ctx`, :class:`Evaluator` as its judge).
"""

from __future__ import annotations

from .bot import TSHeuristicBot
from .context import Ctx, read_view
from .data import CARD_NUM, SCORING_CARDS, SIDE, WIN
from .evaluation import Evaluator
from .events import EVENTS
from .simulation import Sim

__all__ = ["CARD_NUM", "EVENTS", "SCORING_CARDS", "SIDE", "WIN", "Ctx", "Evaluator", "Sim", "TSHeuristicBot", "read_view"]
