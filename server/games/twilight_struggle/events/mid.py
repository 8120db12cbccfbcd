"""Mid War events. So far the four Mid War scoring cards (the other Mid War events belong to the
next issue; a game reaching turn 4 is refused until they exist)."""

from __future__ import annotations

from .. import board as B
from .. import map_data as M
from ..state import TSState
from . import event


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
