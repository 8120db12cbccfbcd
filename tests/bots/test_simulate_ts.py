"""The SDK's forward model for Twilight Struggle (``standoff.sdk.simulate`` / ``simulate_ts``):
a ``Belief`` rebuilt from a view shows exactly that view (history included), its samples show it
too with the hidden cards re-dealt (the other hand, the draw pile, a secret headline), known cards
stay where the role saw them, every option of a sample's decision applies and rollouts end."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from kits.bots import wire

from standoff.server.games.twilight_struggle import belief as simulate_ts
from standoff.sdk.simulate import Belief, SimulationError, infer_rules, rollout, sample_state
from standoff.server.games.twilight_struggle.belief import candidate_rules
from standoff.sdk.types import HistoryBook
from standoff.sdk.views import as_dict
from standoff.server.core.game import CHANCE
from standoff.server.games import get_game
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import determinize as D
from standoff.server.games.twilight_struggle.game import hand_open
from standoff.server.games.twilight_struggle.state import US, USSR
from standoff.server.local import chance_rng, sample_chance

GAME = get_game("twilight-struggle")
ROLES = ("ussr", "us")


def cautious(state, decision, rng: random.Random, steer: str | None = None) -> int:
    """Random, but scoring cards are played, coups avoided and DEFCON kept up, so that games
    reach the later turns; ``steer`` (a card id) is played as an event when its side holds it."""
    options = decision.options
    keys = [o.key for o in options]
    if steer:
        if decision.step == "action_round" and f"card:{steer}" in keys:
            if CD.CARD_BY_ID[steer].side in (decision.role, CD.NEUTRAL):
                return keys.index(f"card:{steer}")
        if decision.step == "card_use" and state.stack[-1][1] == CD.CARD_BY_ID[steer].number:
            for key in ("use:event", "use:influence:event_first"):
                if key in keys:
                    return keys.index(key)
    if decision.step == "action_round":
        scoring = [i for i, o in enumerate(options) if o.value and CD.CARD_BY_NUMBER[o.value].scoring]
        if scoring:
            return rng.choice(scoring)
    good = [i for i, k in enumerate(keys) if "coup" not in k and not k.startswith("choice:defcon_")]
    if decision.step == "card_use" and state.defcon <= 3:
        safe = [i for i in good if keys[i] in ("use:influence", "use:space") or keys[i].endswith("event_after")]
        good = [i for i in safe if keys[i] != "use:influence:event_after"] or safe or good
    return rng.choice(good or range(len(options)))


def play(seed: int, options: dict, *, policy: str = "cautious", steer: str | None = None):
    """(state, decision) before every decision of a seeded game (the state is shared: copy it)."""
    rules = GAME.rules(None, options)
    chance, players = chance_rng(seed), random.Random(seed)
    state = GAME.new_state(rules)
    while (decision := GAME.decision(state)) is not None:
        yield state, decision
        if decision.role == CHANCE:
            index = sample_chance(chance, decision)
        elif policy == "random":
            index = players.randrange(len(decision.options))
        else:
            index = cautious(state, decision, players, steer)
        GAME.apply(state, decision.options[index])


def hidden(state, me: int):
    them = 1 - me
    return state.hands[them], state.deck, state.headline[them]


def check_cards(state, real) -> None:
    """Every card is where the real state has one (re-deals only move hidden cards around)."""
    def cards(s):
        drawn = [c for f in s.stack if f[0] in ("tehran_draw", "tehran_discard") for c in f[-1]]
        return sorted([*s.hands[0], *s.hands[1], *s.deck, *s.discard, *s.removed,
                       *(h for h in s.headline if h), *drawn])
    assert cards(state) == cards(real)


# (seed range, options, every n-th player decision, policy): short games for speed, cautious games
# for the later turns (Mid and Late War, reshuffles).
CASES = [
    (range(0, 8), {"end_turn": "3"}, 9, "random"),
    (range(8, 14), {"end_turn": "10"}, 29, "cautious"),
    (range(14, 18), {"end_turn": "10"}, 41, "cautious"),
    (range(18, 20), {"end_turn": "6", "chinese_civil_war": "on", "bid": "us:2"}, 23, "cautious"),
]


@pytest.mark.parametrize(("seeds", "options", "every", "policy"), CASES)
def test_beliefs_and_samples_show_the_same_view(seeds, options, every, policy):
    """Both roles, at decisions of every kind: the replayed state and each sample show the view
    byte for byte (history included), samples keep the pending decision (the same option keys for
    the role's own), differ in their hidden cards, accept every option and play on to the end."""
    checked = differ = 0
    seen_steps, seen_keys = set(), set()
    for seed in seeds:
        count = 0
        for state, decision in play(seed, options, policy=policy):
            if decision.role == CHANCE:
                continue
            count += 1
            if count % every and not (decision.step == "headline" and state.turn == 2):
                continue
            for role in ROLES:
                me = ROLES.index(role)
                view = GAME.view(state, role)
                text = json.dumps(view)
                belief = Belief(GAME, view, options=options)
                assert json.dumps(GAME.view(belief.state, role)) == text
                assert belief.decision().step == decision.step
                samples = belief.samples(random.Random(checked), 3)
                for k, sample in enumerate(samples):
                    check_cards(sample, state)
                    assert json.dumps(GAME.view(sample, role)) == text
                    mine = GAME.decision(sample)
                    assert (mine.role, mine.step) == (decision.role, decision.step)
                    if decision.role == role:
                        assert [o.key for o in mine.options] == [o.key for o in decision.options]
                    for option in mine.options:
                        GAME.apply(sample.copy(), option)
                    if k == 0:
                        outcome = rollout(GAME, sample.copy(), rng=random.Random(k))
                        assert outcome is not None and sum(outcome.scores) == pytest.approx(1.0)
                if len({hidden(s, me) for s in samples}) > 1:
                    differ += 1
                checked += 1
                seen_steps.add(decision.step)
                seen_keys.update(e[2] for e in view["history"])
    assert checked >= 30
    assert differ > checked * 3 // 4  # re-deals differ (the draw pile alone nearly always)
    assert "headline" in seen_steps and "action_round" in seen_steps
    if options["end_turn"] == "10":
        assert {"reshuffle", "headline_reveal"} <= seen_keys


def first(seeds, options, want, *, steer=None):
    """The first (state copy, decision) of the seeded games where ``want(state, decision)``."""
    for seed in seeds:
        for state, decision in play(seed, options, steer=steer):
            if want(state, decision):
                return state.copy(), decision
    raise AssertionError("no such position in these games")


def test_headline_phase_secret_and_revealed():
    """The US chooses its headline after the USSR chose in secret: the USSR headline is re-dealt
    (any card with a headline flag among the unseen ones), the US's own stays; once revealed,
    both stay."""
    state, decision = first(range(5), {"end_turn": "3"}, lambda s, d: d.role == "us" and d.step == "headline" and s.turn == 2)
    view = GAME.view(state, "us")
    assert "ussr" not in view["headline"] and state.headline[USSR]
    belief = Belief(GAME, view, options={"end_turn": "3"})
    unseen = set(state.hands[USSR]) | set(state.deck) | {state.headline[USSR]}
    headlines = set()
    for k in range(30):
        sample = belief.sample(random.Random(k))
        assert GAME.view(sample, "us") == view
        assert CD.CARD_BY_NUMBER[sample.headline[USSR]].headline
        assert set(sample.hands[USSR]) | {sample.headline[USSR]} <= unseen
        headlines.add(sample.headline[USSR])
    assert len(headlines) > 5
    # The USSR's view at the same moment: its own headline stays; the US hand is re-dealt.
    view = GAME.view(state, "ussr")
    assert view["headline"] == {"ussr": CD.CARD_BY_NUMBER[state.headline[USSR]].id}
    belief = Belief(GAME, view, options={"end_turn": "3"})
    hands = set()
    for k in range(5):
        sample = belief.sample(random.Random(k))
        assert sample.headline[USSR] == state.headline[USSR] and GAME.view(sample, "ussr") == view
        hands.add(sample.hands[US])
    assert len(hands) > 1
    # After the reveal (the next player's decision), both headlines are fixed.
    GAME.apply(state, decision.options[0])
    while GAME.decision(state).role == CHANCE:
        GAME.apply(state, GAME.decision(state).options[0])
    for role in ROLES:
        view = GAME.view(state, role)
        assert set(view["headline"]) == {"ussr", "us"}
        sample = sample_state(GAME, view, random.Random(1), options={"end_turn": "3"})
        assert sample.headline == state.headline and GAME.view(sample, role) == view


def test_lone_gunman_reveal_is_kept():
    """Lone Gunman shows the US hand to the USSR (only): the USSR's samples keep those cards in
    the US hand for as long as they stay there (the draw pile is still re-dealt); the US's
    samples do not know more than before."""
    def after_reveal(s, d):
        # a reveal the USSR sees (not, say, CIA Created showing its own hand to the US), early
        # enough in the turn that the USSR hand has cards left to re-deal in the US's samples
        return d.role == "ussr" and len(s.hands[USSR]) >= 3 and any(
            e[2] == "reveal_hand" and e[3] != "hand:hidden" for e in GAME.view(s, "ussr")["history"][-3:])

    options = {"end_turn": "10"}
    state, decision = first(range(30), options, after_reveal, steer="lone_gunman")
    view = GAME.view(state, "ussr")
    shown = next(e[3] for e in reversed(view["history"]) if e[2] == "reveal_hand")
    assert shown != "hand:hidden"
    belief = Belief(GAME, view, options=options)
    decks = set()
    for k in range(5):
        sample = belief.sample(random.Random(k))
        assert sample.hands[US] == state.hands[US] and GAME.view(sample, "ussr") == view
        decks.add(sample.deck)
    assert len(decks) == 1  # only the draw pile is unknown, and it has no order
    # The US's own view of the reveal is redacted, and its samples re-deal the USSR hand.
    us_view = GAME.view(state, "us")
    assert ["hand:hidden"] == [e[3] for e in us_view["history"] if e[2] == "reveal_hand"][-1:]
    us_belief = Belief(GAME, us_view, options=options)
    assert len({us_belief.sample(random.Random(k)).hands[USSR] for k in range(5)}) > 1
    # Later in the turn: the revealed cards the US still holds stay known.
    revealed = {CD.CARD_BY_ID[n].number for n in shown[5:].split(",") if n}
    turn = state.turn
    later = None
    for s, d in play_on(state, 7):
        if s.turn != turn:
            break
        if d.role == "ussr" and d.step == "action_round":
            later = s.copy()
    assert later is not None
    if later is not None:
        view = GAME.view(later, "ussr")
        belief = Belief(GAME, view, options=options)
        still = revealed & set(later.hands[US])
        for k in range(5):
            sample = belief.sample(random.Random(k))
            assert still <= set(sample.hands[US]) and GAME.view(sample, "ussr") == view


def test_aldrich_ames_open_hand():
    """Aldrich Ames Remix opens the US hand to the USSR for the turn (``opponent_hand``): the
    USSR's samples keep it exactly, and its choice among those cards is the real one."""
    options = {"end_turn": "10"}
    state, decision = first(range(40), options, lambda s, d: d.role == "ussr" and s.has("aldrich_ames:turn"),
                            steer="aldrich_ames_remix")
    view = GAME.view(state, "ussr")
    assert view["opponent_hand"] and decision.step == "aldrich_ames_remix"
    belief = Belief(GAME, view, options=options)
    for k in range(5):
        sample = belief.sample(random.Random(k))
        assert sample.hands[US] == state.hands[US] and GAME.view(sample, "ussr") == view
        assert [o.key for o in GAME.decision(sample).options] == [o.key for o in decision.options]


def play_on(state, seed: int):
    chance, players = chance_rng(seed), random.Random(seed)
    while (decision := GAME.decision(state)) is not None:
        yield state, decision
        if decision.role == CHANCE:
            index = sample_chance(chance, decision)
        else:
            index = cautious(state, decision, players)
        GAME.apply(state, decision.options[index])


def test_our_man_in_tehran_draws():
    """Our Man in Tehran's draws are seen by the US only: at the US's discard decision its drawn
    cards stay in every sample; the USSR's next view replays them as fillers."""
    options = {"end_turn": "10"}
    state, decision = first(range(40), options, lambda s, d: d.step == "tehran_discard",
                            steer="our_man_in_tehran")
    view = GAME.view(state, "us")
    belief = Belief(GAME, view, options=options)
    drawn = state.stack[-1][-1]
    for k in range(5):
        sample = belief.sample(random.Random(k))
        assert sample.stack[-1][-1] == drawn and GAME.view(sample, "us") == view
        for option in GAME.decision(sample).options:
            GAME.apply(sample.copy(), option)
    for s, d in play_on(state, 3):
        if d.role == "ussr":
            view = GAME.view(s, "ussr")
            assert any(e[3] == "card:hidden" and e[2] == "tehran_draw" for e in view["history"])
            sample = sample_state(GAME, view, random.Random(0), options=options)
            assert GAME.view(sample, "ussr") == view
            break


def test_typed_wire_views_carry_the_rules():
    """Views decoded from wire bytes (histories completed by HistoryBook) carry the match's rules
    (``TwilightStruggleView.rules``): a Belief needs no options, ``end_turn`` included (which no
    view could imply before), and the view's rules win over options passed out of band."""
    options = {"end_turn": "4", "chinese_civil_war": "on", "bid": "ussr:3"}
    book = HistoryBook()
    sent = dict.fromkeys(ROLES, 0)
    checked = 0
    for state, decision in play(5, options):
        if decision.role == CHANCE:
            continue
        role = decision.role
        view = GAME.view(state, role, sent[role])  # incremental, as the referee sends it
        if view["history"]:
            sent[role] = view["history"][-1][0]
        bot_decision, typed = wire(GAME, decision, view, f"m-{role}")
        book.complete(bot_decision.match_id, typed)
        full = GAME.view(state, role)
        assert as_dict(typed) == full
        assert typed.rules.end_turn == 4 and typed.rules.bid_side == "ussr" and typed.rules.chinese_civil_war
        if state.number % 25 == 0:
            inferred = infer_rules(GAME, typed)
            assert inferred == GAME.rules(None, options)
            assert infer_rules(GAME, typed, {"end_turn": "10", "bid": "none"}) == inferred  # the view wins
            sample = sample_state(GAME, typed, random.Random(checked))
            assert GAME.view(sample, role) == full
            checked += 1
    assert checked > 5


def test_views_without_rules_still_infer_them():
    """A view of an older server (no ``rules``): the Chinese Civil War variant and the bid are
    inferred from the view, optional cards tried both ways, ``end_turn`` taken from the options."""
    options = {"end_turn": "4", "chinese_civil_war": "on", "bid": "ussr:3"}
    checked = 0
    for state, decision in play(5, options):
        if decision.role == CHANCE or state.number % 40 or state.ar < 1:  # after the bid
            continue
        role = decision.role
        old = GAME.view(state, role)
        del old["rules"]
        inferred = infer_rules(GAME, old)
        assert inferred.chinese_civil_war and (inferred.bid_side, inferred.bid) == ("ussr", 3)
        assert inferred.end_turn == 10  # not in such a view
        belief = Belief(GAME, old, options={"end_turn": "4"})
        assert belief.rules == GAME.rules(None, options)
        assert GAME.view(belief.sample(random.Random(checked)), role) == GAME.view(state, role)
        checked += 1
    assert checked > 3
    # optional_cards: both tried when no optional card was seen yet; "off" replays an "off" game
    state, decision = first([1], {"optional_cards": "off"}, lambda s, d: d.step == "headline")
    view = GAME.view(state, decision.role)
    assert not Belief(GAME, view).rules.optional_cards  # from the view's rules
    del view["rules"]
    assert [r.optional_cards for r in candidate_rules(GAME, view)] == [True, False]
    assert not Belief(GAME, view).rules.optional_cards


# -- one re-deal for the engine's determinize and the Belief ------------------------------------------


def test_engine_determinize_and_belief_share_one_redeal_with_the_same_knowledge():
    """``TwilightStruggle.determinize`` and ``Belief.sample`` call the same re-deal (the engine's
    ``determinize`` module) with the same inputs: what the role knows of the other hand (the
    engine's ``state.known`` / the replay's), the secret headline. Checked over whole games
    steered to the cards that show or give cards (Missile Envy, Lone Gunman, CIA Created, SALT,
    Grain Sales, The Cambridge Five), at decisions of every kind, both roles; the cards a pending
    choice of the other side lists from its hand are the replay's fillers there, the real cards
    here (both keep them)."""
    assert simulate_ts.redeal is D.redeal
    steers = ["missile_envy", "lone_gunman", "cia_created", "salt_negotiations", "grain_sales_to_soviets",
              "the_cambridge_five"]
    compared = knowing = 0
    for seed, steer in enumerate(steers, start=60):
        for state, decision in play(seed, {"end_turn": "10"}, steer=steer):
            if decision.role == CHANCE or state.number % 13:
                continue
            for role in ROLES:
                me = ROLES.index(role)
                belief = Belief(GAME, GAME.view(state, role))
                ts = belief.replayed
                engine = D.knowledge(state, me, hand_open(state, me)) - D.listed_in_pending_choice(state, 1 - me)
                replay = ts.known - D.listed_in_pending_choice(ts.state, 1 - me)
                assert engine == replay, (seed, steer, state.number, role)
                assert D.secret_headline(state, me) == ts.secret_headline
                compared += 1
                knowing += bool(engine)
                world = GAME.determinize(state, role, random.Random(compared))
                assert GAME.view(world, role) == GAME.view(state, role)
                them = 1 - me
                assert engine <= set(world.hands[them]) | {world.headline[them]}
    assert compared > 300 and knowing > 20


def _toy(hand, deck, headline, known=()):
    """A USSR hand, draw pile and secret headline seen by the US, at the US's own headline."""
    state = GAME.new_state(GAME.rules(None, {"end_turn": "3"}))
    state.hands = [tuple(sorted(CD.CARD_BY_ID[c].number for c in hand)),
                   tuple(sorted(CD.CARD_BY_ID[c].number for c in ("truman_doctrine", "containment")))]
    state.deck = tuple(sorted(CD.CARD_BY_ID[c].number for c in deck))
    state.headline = [CD.CARD_BY_ID[headline].number, 0]
    state.known = [frozenset(CD.CARD_BY_ID[c].number for c in known), frozenset()]
    state.stack = [("end_turn",), ("headline_reveal",), ("headline_choose", US, False)]
    assert GAME.decision(state).step == "headline" and GAME.decision(state).role == "us"
    return state


def test_secret_headline_redeal_is_uniform_over_the_consistent_deals():
    """The other side's secret headline: every deal consistent with what the role knows is
    equally likely (the old engine re-deal shuffled the hand first and took the headline among
    the rest, which under-weights UN Intervention, never a headline, in the hand: H/P instead
    of H/(P-1)). Here the US knows Fidel is in the USSR hand-or-headline; UN Intervention cannot
    be the headline. Places: 2 hand cards + the headline; 4 unknown cards. Deals: Fidel the
    headline: C(4, 2) = 6; one of the 3 eligible unknown cards: 3 each → 15 in all."""
    state = _toy(["fidel", "un_intervention"], ["nato", "comecon"], "nasser", known=["fidel"])
    assert D.secret_headline(state, US) and D.knowledge(state, US) == {CD.CARD_BY_ID["fidel"].number}
    counts = Counter()
    rng = random.Random(3)
    n = 15000
    for _ in range(n):
        world = GAME.determinize(state, "us", rng)
        counts[(world.headline[USSR], world.hands[USSR])] += 1
    assert len(counts) == 15
    for deal, count in counts.items():
        assert abs(count / n - 1 / 15) < 0.012, (deal, count)
    fidel = CD.CARD_BY_ID["fidel"].number
    assert all(fidel in hand or headline == fidel for headline, hand in counts)


def test_a_headline_chosen_in_the_open_is_not_redealt():
    """Man in Earth Orbit (space box 4): "opponent must choose and reveal its headline before this
    player chooses" (map.md §7); the old engine re-dealt that public card in the ability holder's
    samples."""
    state = _toy(["fidel", "comecon"], ["nato", "nasser"], "de_stalinization")
    state.space = [0, 4]  # the US holds the ability: the USSR chose first, visibly
    assert not D.secret_headline(state, US)
    for k in range(10):
        world = GAME.determinize(state, "us", random.Random(k))
        assert world.headline[USSR] == state.headline[USSR]
    state.space = [0, 0]
    assert len({GAME.determinize(state, "us", random.Random(k)).headline[USSR] for k in range(20)}) > 1


def test_engine_determinize_keeps_a_pending_choice_of_the_other_hand_playable():
    """The other side chooses among its own cards (Blockade's discard by the US): the old engine
    re-deal moved the listed cards away, so its options named cards the re-dealt hand did not
    hold (applying one raised). Now they stay, and every option applies."""
    state, decision = first(range(60), {"end_turn": "10"}, lambda s, d: d.step == "blockade" and len(d.options) > 1,
                            steer="blockade")
    listed = D.listed_in_pending_choice(state, US)
    assert listed
    for k in range(10):
        world = GAME.determinize(state, "ussr", random.Random(k))
        assert listed <= set(world.hands[US]) and GAME.view(world, "ussr") == GAME.view(state, "ussr")
        for option in GAME.decision(world).options:
            GAME.apply(world.copy(), option)


def test_engine_determinize_redeals_our_man_in_tehran_draws_for_the_ussr():
    """Our Man in Tehran's draws are seen by the US only: the USSR's re-deals move them (the old
    engine re-deal kept the real ones: a leak into search), the US's keep them."""
    state, decision = first(range(40), {"end_turn": "10"}, lambda s, d: d.step == "tehran_discard",
                            steer="our_man_in_tehran")
    drawn = state.stack[-1][-1]
    redealt = set()
    for k in range(10):
        world = GAME.determinize(state, "ussr", random.Random(k))
        assert GAME.view(world, "ussr") == GAME.view(state, "ussr") and len(world.stack[-1][-1]) == len(drawn)
        redealt.add(world.stack[-1][-1])
        assert GAME.determinize(state, "us", random.Random(k)).stack[-1][-1] == drawn
    assert len(redealt) > 1


def test_errors_are_clear():
    state, decision = first([2], {"end_turn": "3"}, lambda s, d: d.role == "us" and d.step == "action_round")
    view = GAME.view(state, "us")
    with pytest.raises(SimulationError, match="incremental"):
        Belief(GAME, dict(view, history_from=5))
    for field, value in (("vp", view["vp"] + 3), ("defcon", 1), ("deck_size", view["deck_size"] - 1)):
        with pytest.raises(SimulationError, match=field):
            Belief(GAME, dict(view, **{field: value}), options={"end_turn": "3"})
    tampered = json.loads(json.dumps(view))
    tampered["hand"][0] = next(c.id for c in CD.CARDS if c.id not in tampered["hand"] and c.number in state.deck)
    with pytest.raises(SimulationError, match="hand"):
        Belief(GAME, tampered, options={"end_turn": "3"})
    tampered = json.loads(json.dumps(view))
    entry = next(e for e in tampered["history"] if e[2] == "setup_place")
    entry[3] = "country:cuba"  # not a set-up country
    with pytest.raises(SimulationError, match="country:cuba"):
        Belief(GAME, tampered, options={"end_turn": "3"})
    with pytest.raises(SimulationError, match="no forward model"):
        Belief(get_game("schotten-totten"), view)
