"""The steps of a Schotten Totten / Battle Line match, one small class each.

Frames are tuples ``(step_name, *args)``. A turn is expanded into its phases by ``turn``:
``[claim] play [claim] draw [claim] end_turn`` (where the claim phase sits depends on the
``claim_timing`` option). Tactics cards push their own frames (``place``, ``environment``,
``scout``, ``redeploy``...). Option keys are stable: ``card:red-5``, ``flag:4``, ``deck:troops``,
``pass``, ``done``, ``discard``, ``role:p1``.

The steps live in :mod:`.turn` (set-up, the turn's phases, play, place, claim, draw) and
:mod:`.tactics` (the tactics cards' steps), on the shared options and table helpers of
:mod:`.board`; this module gathers them in ``STEPS`` and re-exports the names other modules use.
"""

from __future__ import annotations

from ...core.flow import Step
from .board import (
    BREAKTHROUGH,
    CARD_OPTIONS,
    DECISION_CAP,
    DECK_OPTIONS,
    DISCARD,
    DONE,
    ENVELOPMENT,
    FLAG_OPTIONS,
    FORCED_PASS,
    PASS,
    STALEMATE,
    claimable_flags,
    explain_claim,
    find_on_table,
    has_room,
    open_flags,
)
from .tactics import (
    Deserter,
    Environment,
    MudDiscard,
    Redeploy,
    RedeployTo,
    ScoutDraw,
    ScoutReturn,
    Traitor,
    TraitorTo,
    tactics_playable,
)
from .turn import (
    ROLE_OPTIONS_CACHE,
    Claim,
    Deal,
    Draw,
    DrawCard,
    EndTurn,
    FirstPlayer,
    Place,
    Play,
    Turn,
)

__all__ = [
    "BREAKTHROUGH",
    "CARD_OPTIONS",
    "DECISION_CAP",
    "DECK_OPTIONS",
    "DISCARD",
    "DONE",
    "ENVELOPMENT",
    "FLAG_OPTIONS",
    "FORCED_PASS",
    "PASS",
    "ROLE_OPTIONS_CACHE",
    "STALEMATE",
    "STEPS",
    "Claim",
    "Deal",
    "Deserter",
    "Draw",
    "DrawCard",
    "EndTurn",
    "Environment",
    "FirstPlayer",
    "MudDiscard",
    "Place",
    "Play",
    "Redeploy",
    "RedeployTo",
    "ScoutDraw",
    "ScoutReturn",
    "Traitor",
    "TraitorTo",
    "Turn",
    "claimable_flags",
    "explain_claim",
    "find_on_table",
    "has_room",
    "open_flags",
    "tactics_playable",
]

STEPS: dict[str, Step] = {
    step.name: step
    for step in (
        Deal(),
        FirstPlayer(),
        Turn(),
        EndTurn(),
        Play(),
        Place(),
        Environment(),
        Claim(),
        Draw(),
        DrawCard(),
        ScoutDraw(),
        ScoutReturn(),
        Redeploy(),
        RedeployTo(),
        MudDiscard(),
        Deserter(),
        Traitor(),
        TraitorTo(),
    )
}
