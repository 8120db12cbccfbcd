"""``ts-heuristic``'s habits of issue 25, each at a position where the heuristic before the fixes
(the frozen plugin copy ``ts-heuristic-v1`` in tests/plugins/ts_heuristic_v1) chose wrong and the
bot now chooses right. Each position is asked through wire-decoded views, like a remote bot.

1. an opponent's event fired while the turn's space attempt could take the card;
2. the victim of Quagmire / Bear Trap playing it on itself (for Operations or as its headline),
   and the trap kept in hand leaving no room for a DEFCON card;
3. an influence arms race: Operations spent where the opponent already holds its stability;
4. a non-battleground coup once military operations are met; a battleground coup bringing
   DEFCON to 2 on ourselves;
5. lasting effects and the end game: Nixon giving the China Card's final-scoring VP on turn 10;
   a scoring card that scores for us held instead of played; one whose region none of our cards
   can improve held instead of played.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from standoff.bots.ts_heuristic import Ctx, TSHeuristicBot, read_view
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.state import USSR
from standoff.server.wire import encode_view
from tests.kits.ts_positions import GAME, card, influence, play, position

FROZEN = Path(__file__).resolve().parent.parent / "plugins" / "ts_heuristic_v1"


@pytest.fixture(autouse=True)
def strict(monkeypatch):
    """Exceptions inside the bot must fail the tests, not fall back silently."""
    monkeypatch.setattr(TSHeuristicBot, "strict", True)


def frozen_bot(seed: int = 0):
    if str(FROZEN) not in sys.path:
        sys.path.insert(0, str(FROZEN))
    from standoff_ts_heuristic_v1.bot import TSHeuristicBot as Frozen

    bot = Frozen(seed)
    bot.strict = True
    return bot


def ask(bot, state) -> tuple[str, str]:
    d = GAME.decision(state)
    view = encode_view(GAME.name, GAME.view(state, d.role)).twilight_struggle
    index = bot.choose(d, view)
    assert isinstance(index, int) and 0 <= index < len(d.options)
    return d.step, d.options[index].key


def old_and_new(make) -> tuple[str, str]:
    """The frozen heuristic's answer and the current one's, each on a fresh copy of the position."""
    return ask(frozen_bot(), make())[1], ask(TSHeuristicBot(0), make())[1]


# -- 1. the space race takes the opponent's event ----------------------------------------------------


def _marshall_plan():
    # Turn 1, the USSR plays Marshall Plan (a US event: 1 US influence in each of 7 Western European
    # countries the USSR does not control, and NATO made playable). The USSR space marker is on
    # box 0: box 1 needs 2 Operations, Marshall Plan has 4, and no attempt was made this turn.
    state = position(hands={"ussr": ["marshall_plan", "socialist_governments"], "us": ["comecon"]},
                     phasing="ussr", turn=1, end_turn=10)
    return play(state, "card:marshall_plan")


def test_an_opponent_event_goes_to_space_while_the_attempt_is_open():
    """Sent to the space race the card's event never fires (rules: a card used for a space
    attempt has no event) and the USSR may gain the box; for Operations it hands the US seven
    Western European influence. The old heuristic placed influence, firing the event."""
    old, new = old_and_new(_marshall_plan)
    assert old.startswith("use:influence")
    assert new == "use:space"


# -- 2. never trap ourselves ----------------------------------------------------------------------------


def _quagmire():
    state = position(hands={"us": ["quagmire", "decolonization"], "ussr": ["comecon"]}, phasing="us", turn=4,
                     defcon=4, end_turn=10)
    return play(state, "card:quagmire")


def test_the_us_never_plays_quagmire_on_itself():
    """Quagmire played by the US for Operations fires for the USSR: the US then spends its action
    rounds discarding 2-Ops cards and rolling 1-4 to escape. Space (no event) instead."""
    old, new = old_and_new(_quagmire)
    assert old.startswith("use:") and old != "use:space"
    assert new == "use:space"


def test_the_ussr_never_headlines_bear_trap():
    """The USSR must headline one of two US events. A headlined Bear Trap fires for the US: the
    USSR is trapped from its first round (each round a 2+ Ops discard and a 1-4 roll to get out)
    instead of playing cards. Containment only adds an Operation to the US's cards this turn. The
    old heuristic headlined Bear Trap."""
    def make():
        state = position(hands={"ussr": ["bear_trap", "containment"], "us": ["comecon"]}, phasing="ussr",
                         turn=4, defcon=4, end_turn=10)
        state.ar = 0
        state.stack = [("end_turn",), ("headline_choose", USSR, False)]
        return state

    old, new = old_and_new(make)
    assert old == "card:bear_trap"
    assert new == "card:containment"


def test_the_trap_kept_in_hand_shares_the_slots_of_the_defcon_droppers():
    """Turn 5, action round 6 of 7, DEFCON 2: the US holds Quagmire, "We Will Bury You" (its event
    lowers DEFCON: fired on the US's round at DEFCON 2 it loses the game) and Che, with two rounds
    to play. Quagmire is never fired on the US itself, so like "We Will Bury You" it can only be
    kept or sent to space: one card can be kept, so the turn's space attempt belongs to one of
    those two (not to Che). Counting only the DEFCON card, the bot had spent the attempt on Che
    and was then forced to fire "We Will Bury You" at DEFCON 2 (a mirror game lost that way)."""
    state = position(hands={"us": ["quagmire", "we_will_bury_you", "che"], "ussr": ["nasser", "comecon"]},
                     phasing="us", turn=5, defcon=2, end_turn=10, rounds=3)
    state.ar = 6
    bot = TSHeuristicBot(0)
    d = GAME.decision(state)
    x = Ctx(bot, read_view(encode_view(GAME.name, GAME.view(state, d.role)).twilight_struggle), d)
    assert sorted(bot.danger_cards(x)) == sorted(card(c) for c in ("quagmire", "we_will_bury_you"))
    assert bot.space_for_danger(x)
    che = dict((k, v) for v, k in bot.card_uses(x, card("che")))
    wwby = dict((k, v) for v, k in bot.card_uses(x, card("we_will_bury_you")))
    assert wwby["use:space"] > che["use:space"] + 2.0


# -- 3. no influence arms race --------------------------------------------------------------------------


def _influence_plan(bot, state) -> list[str]:
    """The countries ``bot`` places its Operations in, marker by marker."""
    out = []
    while True:
        step, key = ask(bot, state)
        if step != "influence":
            return out
        out.append(key[8:])
        play(state, key)


def test_operations_spread_instead_of_racing_for_a_committed_country():
    """Turn 4, the US plays Containment (3 Operations) for influence. The USSR holds East Germany
    with 3 (its stability) and France with 5 against 3: both are countries the USSR has committed
    to, where each US marker is answered by one of theirs. Breaking East Germany costs the US 2
    of its 3 points and one USSR point restores it. Angola and Panama, empty battlegrounds, cost
    1 point each and the USSR has no marker there (nor in Italy, 2 points for a battleground). The
    old heuristic spent 2 points on East Germany; now every point goes where the USSR has no
    marker."""
    def make():
        state = position(hands={"us": ["containment", "decolonization", "nasser"], "ussr": ["comecon"]},
                         phasing="us", turn=4, defcon=4, end_turn=10, rounds=5,
                         influence={"france": (3, 5), "west_germany": (4, 0)})
        return play(state, "card:containment", "use:influence")

    old = _influence_plan(frozen_bot(), make())
    new = _influence_plan(TSHeuristicBot(0), make())
    assert "east_germany" in old
    state = make()
    assert new and all(influence(state, c)[1] == 0 for c in new)  # no USSR marker where they go


# -- 4. no non-battleground coup once military operations are met ---------------------------------------


def _coup_or_influence(milops: int):
    # Every battleground but Nigeria is the US's (stability + 2); the USSR holds Sudan (1, a
    # non-battleground of stability 1, next to US Egypt); Nigeria (a battleground of stability 1)
    # is empty and out of the US's reach: its neighbours Saharan States, Cameroon and Ivory Coast
    # are empty. DEFCON 4; the US has `milops` military operations.
    def make():
        inf = {c.id: (c.stability + 2, 0) for c in M.COUNTRIES if c.battleground}
        inf.update({"sudan": (0, 1), "nigeria": (0, 0)})
        state = position(hands={"us": ["decolonization", "defectors"], "ussr": ["comecon"]}, phasing="us", turn=4,
                         defcon=4, end_turn=10, influence=inf)
        state.milops = [0, milops]
        state.space = [0, 4]  # box 5 needs 3 Operations: Defectors (2) cannot go to space
        return play(state, "card:defectors")

    return make


def test_no_non_battleground_coup_once_military_operations_are_met():
    """With 4 military operations at DEFCON 4 the requirement is met, so the coup in Sudan earns
    none: its 2 Operations only buy a die roll for a non-battleground next to a country the US
    already holds. Influence places for sure: 2 in Saharan States (stability 1) controls it and
    opens Nigeria, an empty battleground, to the US. The old heuristic couped Sudan."""
    make = _coup_or_influence(4)
    old, new = old_and_new(make)
    assert old == "use:coup"
    assert new == "use:influence"
    state = play(make(), new)
    assert ask(TSHeuristicBot(0), state) == ("influence", "country:saharan_states")


def test_a_coup_still_meets_missing_military_operations():
    """Without military operations the same coup is worth its operations (the shortfall costs VP
    at the end of the turn): both bots coup."""
    old, new = old_and_new(_coup_or_influence(0))
    assert old == new == "use:coup"


def _coup_at(defcon: int):
    # The position of _coup_or_influence, DEFCON `defcon`, the US without military operations,
    # couping with Defectors (2 Operations); Nigeria (battleground, stability 1) holds 2 USSR
    # markers, Sudan (not a battleground, stability 1) 1.
    def make():
        inf = {c.id: (c.stability + 2, 0) for c in M.COUNTRIES if c.battleground}
        inf.update({"sudan": (0, 1), "nigeria": (0, 2)})
        state = position(hands={"us": ["defectors", "decolonization", "nasser"], "ussr": ["comecon"]}, phasing="us",
                         turn=4, defcon=defcon, end_turn=10, rounds=5, influence=inf)
        state.milops = [0, 0]
        state.space = [0, 4]
        return play(state, "card:defectors", "use:coup")

    return make


def test_no_battleground_coup_bringing_defcon_to_2_on_ourselves():
    """At DEFCON 3 a coup in Nigeria brings DEFCON to 2 for the rest of the turn: four more US
    rounds in which a USSR card whose event lowers DEFCON cannot be played, and no US
    battleground coup. Sudan earns the same 2 military operations without moving DEFCON. The
    old heuristic couped Nigeria."""
    make = _coup_at(3)
    old = ask(frozen_bot(), make())
    new = ask(TSHeuristicBot(0), make())
    assert old == ("coup", "country:nigeria")
    assert new == ("coup", "country:sudan")


def test_a_battleground_coup_still_taken_above_defcon_3():
    """The same coup at DEFCON 4 leaves DEFCON at 3: Nigeria, the battleground, is still taken."""
    assert ask(TSHeuristicBot(0), _coup_at(4)()) == ("coup", "country:nigeria")


# -- 5. the end game -------------------------------------------------------------------------------------


def test_a_scoring_card_that_scores_for_us_is_played_at_once():
    """Turn 4, the US holds Middle East Scoring with 5 action rounds to come: the US controls
    Iran (a battleground), the USSR Syria, so it scores 4 VP to 3 now. Held, it is a target for
    the USSR's rounds (one coup in Iran and it scores against the US). The old heuristic held it
    (it played scoring cards early only from 2 VP) and played Containment."""
    def make():
        return position(hands={"us": ["middle_east_scoring", "containment", "decolonization", "nasser", "defectors"],
                               "ussr": ["comecon"]}, phasing="us", turn=4, defcon=4, end_turn=10, rounds=5,
                        influence={"iran": (2, 0), "syria": (0, 2)})

    old, new = old_and_new(make)
    assert old == "card:containment"
    assert new == "card:middle_east_scoring"


def _middle_east(israel: tuple[int, int], defcon: int = 2):
    # Turn 4, the US holds Middle East Scoring with 5 action rounds to come. The USSR controls
    # Iran, Iraq and Syria (domination: 5 VP and 2 battlegrounds, the US has nothing there),
    # Israel as given. At DEFCON 2 no coup or realignment is allowed in the Middle East.
    def make():
        return position(hands={"us": ["middle_east_scoring", "containment", "decolonization", "nasser", "defectors"],
                               "ussr": ["comecon"]}, phasing="us", turn=4, defcon=defcon, end_turn=10, rounds=5,
                        influence={"israel": israel, "iran": (0, 2), "iraq": (0, 3), "syria": (0, 2)})

    return make


def test_a_scoring_card_whose_region_cannot_improve_is_played_now():
    """The Middle East scores −7 for the US, and none of its cards can change that: no US marker
    in or next to the region (Israel empty), so no influence can go there, and DEFCON 2 rules out
    coups and realignments there. Held, the card costs the same action round later, while only
    the USSR's rounds move the region: it can only get worse. The old heuristic held it (it plays
    a scoring card early only when it scores for us) and played Containment: the card is then
    held to the end of the turn without the region improving (issue 25 habit 5)."""
    old, new = old_and_new(_middle_east((0, 0)))
    assert old == "card:containment"
    assert new == "card:middle_east_scoring"


@pytest.mark.parametrize(("israel", "defcon"), [((1, 0), 2), ((0, 0), 3)])
def test_a_scoring_card_is_still_held_while_its_region_can_improve(israel, defcon):
    """With a US marker in Israel (influence can reach the region), or at DEFCON 3 (coups in the
    Middle East allowed), the US can still improve the region: the card is held and Containment
    played (holding a card that scores badly pays while our rounds can raise its score)."""
    assert ask(TSHeuristicBot(0), _middle_east(israel, defcon)()) == ("action_round", "card:containment")


def test_nixon_does_not_give_away_the_china_card_on_the_last_turn():
    """Turn 10, the USSR holds The China Card: Nixon played for Operations fires for the US, who
    receives the card, and with it the China Card's VP at final scoring (a 2 VP swing) and the
    USSR's last use of it. The old heuristic played it for influence; now it goes to space."""
    def make():
        state = position(hands={"ussr": ["nixon_plays_the_china_card", "decolonization"], "us": ["comecon"]},
                         phasing="ussr", turn=10, defcon=4, end_turn=10)
        return play(state, "card:nixon_plays_the_china_card")

    old, new = old_and_new(make)
    assert old.startswith("use:influence")
    assert new == "use:space"


def test_the_space_attempt_stays_for_a_defcon_dropper_that_must_go():
    """DEFCON 2, the USSR holds Duck and Cover and Five Year Plan (US cards: the first lowers
    DEFCON when it fires on the USSR's round, the second may discard it at random and fire it),
    Marshall Plan and East European Unrest, with rounds for three of its four cards. Only one of
    the two DEFCON cards can be kept, the other must go to the space race, the one safe way to
    play it (its event does not fire): Marshall Plan, although harmful, is not sent to space in
    its place (a tournament game against random was lost by DEFCON 1 that way)."""
    def make():
        state = position(hands={"ussr": ["duck_and_cover", "five_year_plan", "marshall_plan", "east_european_unrest"],
                                "us": ["nasser"]}, phasing="ussr", turn=3, defcon=2, end_turn=10, rounds=5)
        state.ar = 4
        return play(state, "card:marshall_plan")

    step, key = ask(TSHeuristicBot(0), make())
    assert step == "card_use" and key != "use:space"
