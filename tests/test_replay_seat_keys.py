"""`standoff replay --as SEAT` shows each decision's own key as that seat saw it (issue 44).

A Twilight Struggle decision is often followed by automatic history entries with the same number
(the headline's reveals and events, a coup's result, a war's result): the replay showed the last
of them as the decision's key (``[31] us headline -> hand:blockade`` where the record has
``card:cia_created``; ``[35] chance die -> card:asia_scoring``). The oracle is the rulebook's
hidden information: a seat sees its own choices, every public one (dice, cards played, places,
the other side's card uses), and not the other side's secret headline, nor cards drawn into the
other side's hand (the deal, Our Man in Tehran's and Ask Not's draws, which only the US sees).
"""

from __future__ import annotations

import re

import pytest

from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.local import bot_seed, play_match
from standoff.server.plugins import load_registry
from standoff.server.review import replay_lines, review

TS = get_game("twilight-struggle")
ROLES = ("ussr", "us")
#: What a redacted choice reads as in a seat's replay.
REDACTED = {"?", "card:hidden", "hand:hidden"}
#: Draws into the US hand only the US sees (Our Man in Tehran; Ask Not What Your Country...).
US_ONLY_DRAWS = {"tehran_draw", "ask_not_draw"}
LINE = re.compile(r"^\[(\d+)\] (\S+) (\S+) -> (\S+)")


@pytest.fixture(scope="module")
def record():
    """A whole deluxe match between two heuristic bots (headlines every turn, coups, wars, one
    Our Man in Tehran at this seed: each has automatic entries after the decision)."""
    registry = load_registry(entry_points=False)
    rules = TS.rules(None, {})
    bots = {role: registry.make_bot("ts-heuristic", bot_seed(7, role), TS.name) for role in ROLES}
    result = play_match(TS, rules, bots, 7, bot_names={r: "ts-heuristic" for r in ROLES}, timing=False)
    return result.record


def shown_keys(record, seat) -> dict[int, str]:
    """Decision number -> the key ``standoff replay --as SEAT --quiet`` prints."""
    shown = {}
    for line in replay_lines(TS, record, as_role=seat, quiet=True):
        match = LINE.match(line)
        if match:
            shown[int(match[1])] = match[4]
    return shown


@pytest.mark.parametrize("seat", ROLES)
def test_each_decision_shows_its_own_key_as_the_seat_saw_it(record, seat):
    shown = shown_keys(record, seat)
    assert sorted(shown) == [m["n"] for m in record.moves]
    other = next(r for r in ROLES if r != seat)
    frames = review(TS, record, as_role=seat).frames
    before = {f.number: f.view for f in frames}  # the view when the decision was asked
    after = {f.number: frames[i + 1].view for i, f in enumerate(frames[:-1])}  # the view right after
    seen_deals = hidden_deals = 0
    kinds = set()
    for move in record.moves:
        number, role, step, key = move["n"], move["role"], move["step"], move["key"]
        got = shown[number]
        where = f"[{number}] {role} {step}: record {key}, shown {got}"
        if role == seat:
            assert got == key, where  # the seat's own choice
        elif role == other and step == "headline":
            # chosen in secret, unless this seat reached Man in Earth Orbit (space box 4) first:
            # the other side then headlines first, face up
            space = before[number]["space"]
            if space[seat] >= 4 > space[other]:
                assert got == key, where
            else:
                assert got in REDACTED, where
        elif step in US_ONLY_DRAWS:
            assert got == key if seat == "us" else got in REDACTED, where
        elif step == "deal":
            # A card dealt to this seat is known to it (and in its hand right after); one dealt
            # to the other side is not.
            if got == key:
                seen_deals += 1
                if number in after:
                    assert key.removeprefix("card:") in after[number]["hand"], where
            else:
                assert got in REDACTED, where
                hidden_deals += 1
        else:
            assert got == key, where  # public: the other side's plays, dice, random discards
        kinds.add((role == seat, role == CHANCE, step))
    assert seen_deals > 20 and hidden_deals > 20
    # the record has the cases the fix is about: a headline, a die right after an event
    assert (True, False, "headline") in kinds and (False, True, "die") in kinds
