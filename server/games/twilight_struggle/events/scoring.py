"""The scoring cards (#1-3 Early War, #37, 38, 79, 81 Mid War), in card order, and the step that
scores a region (cards.md §4; map.md §6 for the arithmetic, in :mod:`..board`).

Step: ``("score_region", region[, hooks_done])``: the lasting effects acting before a region
scoring card scores run first (hooks.SCORING_HOOKS, e.g. Shuttle Diplomacy's question; the frame
counts those done so each runs once), then the region is scored (board.apply_region_scoring)
and the effects acting after it run (hooks.AFTER_SCORING_HOOKS). Southeast Asia scoring (#38)
scores at once, without them.
"""

from __future__ import annotations

from .. import board as B
from .. import hooks as H
from .. import map_data as M
from ..common import TSStep
from ..state import TSState
from .registry import event


@event(1)
def asia_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.ASIA))


@event(2)
def europe_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.EUROPE))


@event(3)
def middle_east_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.MIDDLE_EAST))


@event(37)
def central_america_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.CENTRAL_AMERICA))


@event(38)
def southeast_asia_scoring(state: TSState, actor: int) -> None:
    """1 VP per controlled Southeast Asian country, 2 for Thailand; net difference (starred)."""
    us, ussr = B.southeast_asia_scoring(state)
    state.vp += us - ussr
    B.check_vp(state)


@event(79)
def africa_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.AFRICA))


@event(81)
def south_america_scoring(state: TSState, actor: int) -> None:
    state.stack.append(("score_region", M.SOUTH_AMERICA))


class ScoreRegion(TSStep):
    """A region scoring card: lasting effects may act first (hooks.SCORING_HOOKS), then the
    region is scored and the effects acting after a scoring run (hooks.AFTER_SCORING_HOOKS)."""

    name = "score_region"

    def run(self, game, state, frame):
        _, region, *rest = frame
        done = rest[0] if rest else 0
        while done < len(H.SCORING_HOOKS):
            hook = H.SCORING_HOOKS[done]
            done += 1
            state.stack[-1] = ("score_region", region, done)
            if hook(state, region):
                return None
        state.stack.pop()
        B.apply_region_scoring(state, region)
        for after in H.AFTER_SCORING_HOOKS:
            after(state, region)
        return None


STEPS = (ScoreRegion(),)
