"""Scenarios written from the reference text (the rulebook digest: map.md, cards.md), deep into
the game: The China Card against a held scoring card, the Chinese Civil War variant's
Korean War penalty, the optional extra (8th) action round. Each docstring quotes the rule it
checks; the positions are built by hand (tests/kits/ts_positions) so that each rule is met head-on.
"""

from __future__ import annotations

from kits.ts_positions import GAME, card, choose, influence, keys, play, position, proves, run_event, step, who

from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle.rules import make_rules
from standoff.server.games.twilight_struggle.state import NOBODY, US, USSR

SIDE = {"ussr": USSR, "us": US}
CHINA = "card:the_china_card"


def at_rounds(rounds: list[tuple[int, str]], *, turn: int, hands: dict, china: str | None = "ussr",
              china_face_up: bool = True, **kw):
    """A position whose pending action rounds are exactly ``rounds`` ((number, side), in the order
    they will be played; the first one is asked now), then the end of the turn."""
    first = rounds[0][1]
    state = position(hands=hands, turn=turn, phasing=first, end_turn=10, **kw)
    state.stack = [("end_turn",)] + [("action_round", ar, SIDE[side]) for ar, side in reversed(rounds)]
    state.ar = rounds[0][0]
    state.china = NOBODY if china is None else SIDE[china]
    state.china_face_up = china_face_up
    state.pending = None
    return state


# -- 1a. The China Card and a held scoring card ------------------------------------------------------


def test_china_card_not_offered_when_it_would_leave_a_scoring_card_unplayed():
    """map.md §13: The China Card "may not be: ... played if doing so would leave a scoring card
    unplayed". The issue's game: the USSR holds Asia Scoring with one action round left (turn 3,
    round 6) and was offered the China Card; playing it left Asia Scoring in hand, and "a player
    holding a scoring card at this point loses" (map.md §10 F)."""
    state = at_rounds([(6, "ussr"), (6, "us")], turn=3, hands={"ussr": ["asia_scoring"], "us": ["nato"]})
    assert step(state) == "action_round" and who(state) == "ussr"
    assert keys(state) == ["card:asia_scoring"]  # not card:the_china_card
    # The scoring card is played; the turn then ends without a held scoring card.
    play(state, "card:asia_scoring", "use:event")
    assert who(state) == "us"
    assert state.china == USSR and state.hands[USSR] == ()


def test_china_card_not_offered_with_as_many_scoring_cards_as_rounds_left():
    """The same rule, generalised: playing The China Card uses one of the player's action rounds
    ("Each play uses one of the player's action rounds", map.md §13), so it is barred whenever the
    scoring cards held are at least the rounds left (this one included) — here two of each."""
    state = at_rounds([(6, "us"), (7, "ussr"), (7, "us")], turn=5,
                      hands={"us": ["asia_scoring", "europe_scoring", "nato"], "ussr": ["comecon"]}, china="us")
    assert CHINA not in keys(state)
    assert set(keys(state)) == {"card:asia_scoring", "card:europe_scoring", "card:nato"}


def test_china_card_still_offered_with_a_spare_round():
    """"would leave a scoring card unplayed": with a round to spare after it, The China Card may be
    played now and the scoring card next round."""
    state = at_rounds([(6, "ussr"), (6, "us"), (7, "ussr"), (7, "us")], turn=5,
                      hands={"ussr": ["asia_scoring", "comecon"], "us": ["nato"]})
    assert CHINA in keys(state)
    play(state, CHINA, "use:influence")
    assert state.china == US and not state.china_face_up


def test_an_extra_round_counts_as_a_round_left_for_the_china_card():
    """The US with the Space Station ability "may take one extra (8th) action round each turn"
    (map.md §7): in its 7th round it may play The China Card and keep the 8th round for its
    scoring card; in the 8th round itself the China Card would leave it unplayed."""
    hands = {"us": ["asia_scoring", "nato"], "ussr": ["comecon"]}
    state = at_rounds([(7, "us"), (8, "us")], turn=8, hands=hands, china="us")
    state.space = [0, 8]
    assert CHINA in keys(state)
    state = at_rounds([(8, "us")], turn=8, hands=hands, china="us")
    state.space = [0, 8]
    assert CHINA not in keys(state)


# -- 1b. Chinese Civil War: Korean War −1 for the USSR ------------------------------------------------


SPARE = {"ussr": ["comecon"], "us": ["nato"]}  # a card each: the round after a war die still asks


def civil_war(state, *, claimed: bool):
    state.rules = make_rules(None, {"end_turn": "10", "chinese_civil_war": "on"})
    state.china = USSR if claimed else NOBODY
    return state


def war_frame(state):
    frame = state.stack[-1]
    assert frame[0] == "war" and frame[2] == M.INDEX["south_korea"]
    return frame


@proves("korean_war")
def test_civil_war_korean_war_gets_minus_one_until_the_china_card_is_claimed():
    """map.md §13, the optional Chinese Civil War variant: "until then [the USSR claims The China
    Card] ... the USSR gets −1 on Korean War". Korean War (cards.md #11): "Roll a die and subtract 1
    for each US-controlled country adjacent to South Korea ... On 4-6 the USSR gains 2 VP". With no
    US-controlled neighbour the roll is modified by −1 only: a 4 now fails."""
    state = civil_war(position(hands=SPARE), claimed=False)
    run_event(state, "korean_war", "ussr")
    assert war_frame(state)[3] == 1  # die − 1
    assert state.milops[USSR] == 2  # the military operations are credited anyway
    choose(state, "die:4")
    assert state.vp == 0 and influence(state, "south_korea") == (1, 0)
    # Japan US-controlled: −1 for it, −1 for the variant.
    state = civil_war(position(influence={"japan": (4, 0)}), claimed=False)
    run_event(state, "korean_war", "ussr")
    assert war_frame(state)[3] == 2


def test_civil_war_penalty_also_when_the_us_plays_korean_war_for_operations():
    """The penalty is the USSR's on the Korean War roll, whoever played the card: an opponent's
    event played for operations "happens too ... resolved by the opponent as if they had played
    it" (cards.md §5.1)."""
    state = civil_war(position(phasing="us", hands={"us": ["korean_war"]}, rounds=2), claimed=False)
    play(state, "card:korean_war", "use:influence:event_first")
    assert war_frame(state)[3] == 1


@proves("korean_war")
def test_civil_war_penalty_ends_with_the_claim_and_is_absent_without_the_variant():
    """"until then": once the USSR holds The China Card (claimed through the Civil War space) the
    roll is the printed one; without the variant there is no penalty at all."""
    state = civil_war(position(hands=SPARE), claimed=True)
    run_event(state, "korean_war", "ussr")
    assert war_frame(state)[3] == 0
    choose(state, "die:4")
    assert state.vp == -2 and influence(state, "south_korea") == (0, 1)
    state = position()
    run_event(state, "korean_war", "ussr")
    assert war_frame(state)[3] == 0


def test_civil_war_penalty_names_korean_war_only():
    """The variant's text names Korean War alone ("the USSR gets −1 on Korean War"): the USSR's
    other wars (Arab-Israeli War, Indo-Pakistani War) keep their printed modifiers."""
    wars = (("arab_israeli_war", "israel", []), ("indo_pakistani_war", "pakistan", ["choice:pakistan"]))
    for name, target, extra in wars:
        plain = position()
        run_event(plain, name, "ussr", *extra)
        variant = civil_war(position(), claimed=False)
        run_event(variant, name, "ussr", *extra)
        assert plain.stack[-1][0] == variant.stack[-1][0] == "war"
        assert plain.stack[-1][2] == M.INDEX[target]
        assert variant.stack[-1][3] == plain.stack[-1][3], name


# -- 1c. The extra action round is optional ------------------------------------------------------------


def test_north_sea_oil_eighth_round_may_be_declined():
    """cards.md #86 North Sea Oil: "This turn the US may take an 8th action round." The issue's
    game: the US's only card left was Blockade (a USSR event: "discard ... a card worth 3 or more
    Operations ... or lose all of its influence in West Germany") and the engine made it play the
    round. Now the round starts with a choice: ``extra_action_round`` → ``choice:accept`` (then
    the card, as in any round) or ``pass`` (no round: nothing is played)."""
    state = at_rounds([(8, "us")], turn=8, hands={"us": ["blockade"], "ussr": []}, china="ussr",
                      effects=["north_sea_oil:turn"], influence={"west_germany": (4, 0)})
    assert step(state) == "extra_action_round" and who(state) == "us"
    assert keys(state) == ["choice:accept", "pass"]
    choose(state, "pass")
    assert state.hands[US] == (card("blockade"),)  # kept: not a scoring card
    assert influence(state, "west_germany") == (4, 0)
    assert state.turn == 9 and step(state) == "deal"  # no round played: the turn ended


def test_an_accepted_extra_round_is_an_ordinary_round():
    """Taking the extra round: the card is chosen as in any action round (no pass while the hand
    has cards: "A player must play a card if able", map.md §10 D)."""
    state = at_rounds([(8, "us")], turn=8, hands={"us": ["blockade"], "ussr": []},
                      effects=["north_sea_oil:turn"])
    choose(state, "choice:accept")
    assert step(state) == "action_round" and keys(state) == ["card:blockade"]


def test_space_station_extra_round_may_be_declined():
    """map.md §7 Space Station (box 8): "may take one extra (8th) action round each turn"; the
    first side there alone holds the ability."""
    state = at_rounds([(8, "ussr")], turn=6, hands={"ussr": ["comecon"], "us": ["nato"]}, china="us")
    state.space = [8, 3]
    assert step(state) == "extra_action_round" and who(state) == "ussr"
    choose(state, "pass")
    assert state.hands[USSR] == (card("comecon"),) and state.inf[USSR] == position().inf[USSR]


def test_extra_round_with_only_a_scoring_card_left_may_be_declined_and_the_held_card_loses():
    """cards.md #86: the US "may take an 8th action round" — also when its only card is a scoring
    card. Declined, the card is held, and "a player holding a scoring card at this point loses"
    (map.md §10 F, the reveal of held cards at the end of the turn), as after a regular last round."""
    state = at_rounds([(8, "us")], turn=8, hands={"us": ["asia_scoring"], "ussr": []}, china="ussr",
                      effects=["north_sea_oil:turn"])
    assert step(state) == "extra_action_round" and who(state) == "us"
    assert keys(state) == ["choice:accept", "pass"]
    choose(state, "pass")
    assert state.outcome.winner == "ussr" and state.outcome.termination == "held_scoring_card"


def test_space_station_round_with_only_a_scoring_card_left_may_be_declined():
    """map.md §7 Space Station: "may take one extra (8th) action round each turn"; the USSR,
    declining it with Europe Scoring in hand, holds a scoring card at the end of the turn and loses
    (map.md §10 F)."""
    state = at_rounds([(8, "ussr")], turn=6, hands={"ussr": ["europe_scoring"], "us": ["nato"]}, china="us")
    state.space = [8, 3]
    assert step(state) == "extra_action_round" and keys(state) == ["choice:accept", "pass"]
    choose(state, "pass")
    assert state.hands[USSR] == (card("europe_scoring"),)
    assert state.outcome.winner == "us" and state.outcome.termination == "held_scoring_card"


def test_extra_round_taken_with_a_held_scoring_card_never_offers_the_china_card():
    """Taken, the extra round is an ordinary round: with as many scoring cards as rounds left, The
    China Card is not offered (map.md §13: it "may not be played if doing so would leave a scoring
    card unplayed"); another card may be played, as in a regular round."""
    state = at_rounds([(8, "us")], turn=8, hands={"us": ["asia_scoring", "nato"], "ussr": []}, china="us",
                      effects=["north_sea_oil:turn"])
    assert step(state) == "extra_action_round" and keys(state) == ["choice:accept", "pass"]
    choose(state, "choice:accept")
    assert step(state) == "action_round"
    assert keys(state) == ["card:asia_scoring", "card:nato"]  # no pass, no China Card


def test_extra_round_with_only_the_china_card_left():
    """"The China Card can never be forced to be played" (map.md §10 D): with nothing else in hand
    the round offers it and ``pass``, as any round does."""
    state = at_rounds([(8, "us")], turn=8, hands={"us": [], "ussr": []}, china="us",
                      effects=["north_sea_oil:turn"])
    assert step(state) == "action_round" and keys(state) == [CHINA, "pass"]


def test_regular_rounds_still_cannot_be_passed():
    """"A player must play a card if able (cannot pass or voluntarily discard)" (map.md §10 D): the
    7th round of the Mid War is no extra round."""
    state = at_rounds([(7, "us")], turn=6, hands={"us": ["blockade"], "ussr": []})
    assert step(state) == "action_round" and keys(state) == ["card:blockade"]


def test_extra_round_laid_out_by_the_turn_is_optional():
    """The rounds the turn lays out: North Sea Oil headlined (its effect) gives the US a round 8
    after every other round; reached with a card in hand, it starts with the choice."""
    state = position(hands={"us": ["nato"], "ussr": ["comecon"]}, turn=8, end_turn=10)
    state.add_effect("north_sea_oil:turn")
    state.stack = [("end_turn",), ("action_rounds",)]
    state.pending = None
    GAME.decision(state)
    rounds = [f for f in state.stack if f[0] == "action_round"]
    assert rounds[0] == ("action_round", 8, US) and len(rounds) == 15
    state.stack = [f for f in state.stack if f[0] != "action_round" or f[1] == 8]
    state.pending = None
    assert step(state) == "extra_action_round"
