"""The ``ts-heuristic`` Twilight Struggle bot: legal answers from wire-decoded views in odd
positions, determinism given its seed, DEFCON safety (never a suicide), scoring cards never held,
military operations, a few positions it must get right, and a bounded match against ``random``;
and its package: tables that are the engine's, region scoring that agrees with the engine's,
small documented modules."""

from __future__ import annotations

import ast
import random
from collections import Counter
from pathlib import Path

import pytest

import standoff.bots.ts_heuristic as PACKAGE
from standoff.bots.random_bot import RandomBot
from standoff.bots.ts_heuristic import WIN, Ctx, TSHeuristicBot, read_view
from standoff.bots.ts_heuristic import data as DATA
from standoff.sdk.views import as_dict
from standoff.server.core.flow import iter_history
from standoff.server.games import get_game
from standoff.server.games.twilight_struggle import board as GAME_BOARD
from standoff.server.games.twilight_struggle import card_data as CD
from standoff.server.games.twilight_struggle import map_data as M
from standoff.server.games.twilight_struggle import ops as GAME_OPS
from standoff.server.games.twilight_struggle.rules import make_rules
from standoff.server.games.twilight_struggle.state import NOBODY, US, USSR, TSState
from standoff.server.local import play_match
from standoff.server.wire import encode_view

GAME = get_game("twilight-struggle")
SIDE = {"us": US, "ussr": USSR}


@pytest.fixture(autouse=True)
def strict(monkeypatch):
    """Exceptions inside the bot must fail the tests, not fall back silently."""
    monkeypatch.setattr(TSHeuristicBot, "strict", True)


def wire_view(state, role):
    """The view a remote bot receives: the engine's view, encoded to the wire and decoded."""
    return encode_view(GAME.name, GAME.view(state, role)).twilight_struggle


def ask(bot, state):
    d = GAME.decision(state)
    idx = bot.choose(d, wire_view(state, d.role))
    assert isinstance(idx, int) and 0 <= idx < len(d.options), (d.step, idx)
    return d, d.options[idx].key


def card(name: str) -> int:
    return CD.CARD_BY_ID[name].number


def position(*, hands, influence=None, defcon=5, turn=1, phasing="ussr", rounds=1, effects=(), milops=(0, 0),
             vp=0, events_played=()) -> TSState:
    """A state at an action round of ``phasing`` (set-up influence plus ``influence`` overrides:
    country → (us, ussr)); ``rounds`` rounds pending, alternating from ``phasing``."""
    state = TSState(make_rules(None, {"end_turn": "10"}), len(M.COUNTRIES))
    for i, c in enumerate(M.COUNTRIES):
        state.inf[US][i], state.inf[USSR][i] = c.start_us, c.start_ussr
    for name, (us, ussr) in (influence or {}).items():
        state.inf[US][M.INDEX[name]], state.inf[USSR][M.INDEX[name]] = us, ussr
    held = set()
    for side, cards in hands.items():
        state.hands[SIDE[side]] = tuple(sorted(card(c) for c in cards))
        held.update(state.hands[SIDE[side]])
    state.deck = tuple(n for n in CD.EARLY_WAR + CD.MID_WAR if n not in held)
    state.defcon, state.turn, state.ar, state.vp = defcon, turn, 1, vp
    state.milops = [milops[0], milops[1]]  # (ussr, us)
    state.phasing = SIDE[phasing]
    state.effects = frozenset(effects)
    state.events_played = frozenset(card(c) for c in events_played)
    total = 6 if turn <= 3 else 7
    state.stack = [("end_turn",)]
    side = SIDE[phasing]
    sides = [side if k % 2 == 0 else 1 - side for k in range(rounds)]
    first = total - (rounds + 1) // 2 + 1  # the last rounds of the turn
    state.stack.extend(("action_round", first + k // 2, s) for k, s in reversed(list(enumerate(sides))))
    return state


def play_out(state, bots, rng, *, until_step=None, limit=400):
    """Let the bots (and random chance) play until the match ends, ``until_step`` is pending, or
    ``limit`` decisions; returns the keys chosen by the bots."""
    chosen = []
    for _ in range(limit):
        d = GAME.decision(state)
        if d is None or (until_step and d.step == until_step and chosen):
            break
        if d.role == "chance":
            GAME.apply(state, d.options[rng.randrange(len(d.options))])
            continue
        _, key = ask(bots[d.role], state)
        chosen.append((d.role, d.step, key))
        GAME.apply(state, d.options[d.index_of(key)])
    return chosen


def play(bots, seed, *, options=None):
    rules = GAME.rules(None, options or {})
    return play_match(GAME, rules, bots, seed)


# --- identity, determinism, views ---------------------------------------------------------------


def test_identity():
    bot = TSHeuristicBot(1)
    assert bot.name == "ts-heuristic"
    assert bot.games == ("twilight-struggle",)
    assert bot.plays("twilight-struggle") and not bot.plays("schotten-totten")


def test_deterministic_given_seed():
    for pair in ((TSHeuristicBot, RandomBot), (TSHeuristicBot, TSHeuristicBot)):
        runs = []
        for _ in range(2):
            bots = {"ussr": pair[0](5), "us": pair[1](6)}
            result = play(bots, 31, options={"end_turn": "4"})
            runs.append(([(m["role"], m["step"], m["key"]) for m in result.record.moves], result.outcome))
        assert runs[0] == runs[1]


def test_reads_wire_views_like_engine_views():
    """The bot's own reader of a wire view gives what sdk.views.as_dict gives (and the engine)."""
    state = GAME.new_state(GAME.rules())
    rng = random.Random(4)
    for _ in range(600):
        d = GAME.decision(state)
        if d is None:
            break
        for role in ("ussr", "us"):
            wire = wire_view(state, role)
            mine = dict(read_view(wire))
            mine["history"] = list(mine["history"])
            assert mine == as_dict(wire)
        GAME.apply(state, d.options[rng.randrange(len(d.options))])


def test_falls_back_safely_on_a_broken_view(monkeypatch):
    """Outside tests an internal failure must not forfeit: a safe option is chosen instead (here a
    coup step at DEFCON 2 with a view the bot cannot read: the non-battleground target)."""
    monkeypatch.setattr(TSHeuristicBot, "strict", False)
    state = position(hands={"ussr": ["comecon"], "us": ["truman_doctrine"]}, defcon=2,
                     influence={"nigeria": (3, 0), "kenya": (1, 0)})
    state.stack.append(("coup", USSR, 3, False, False, False, card("comecon"), None))
    d = GAME.decision(state)
    idx = TSHeuristicBot(0).choose(d, {"defcon": 2})
    assert d.options[idx].key == "country:kenya"


# --- legal answers everywhere --------------------------------------------------------------------


def test_answers_are_legal_in_random_positions():
    """Random games: the bot answers every decision of either role from the decoded view (its
    answer is checked), then a random option is applied."""
    steps = Counter()
    for g in range(24):
        options = {"chinese_civil_war": "on"} if g % 6 == 5 else {}
        state = GAME.new_state(GAME.rules(None, options))
        rng = random.Random(2000 + g)
        bots = {"ussr": TSHeuristicBot(g), "us": TSHeuristicBot(g + 1)}
        while (d := GAME.decision(state)) is not None:
            if d.role != "chance":
                ask(bots[d.role], state)
                steps[d.step] += 1
            GAME.apply(state, d.options[rng.randrange(len(d.options))])
    assert {"setup_place", "headline", "action_round", "card_use", "influence", "coup", "realign",
            "event_place", "event_remove"} <= set(steps)


def test_answers_are_legal_deep_into_the_game():
    """Games driven mostly by the bot (a random option 15% of the time) reach the Mid and Late War
    and their event steps; every answer is checked."""
    steps = Counter()
    turns = []
    for g in range(8):
        options = {"bid": "us:2"} if g % 3 == 1 else ({"optional_cards": "off"} if g % 3 == 2 else {})
        state = GAME.new_state(GAME.rules(None, options))
        rng = random.Random(3000 + g)
        bots = {"ussr": TSHeuristicBot(g), "us": TSHeuristicBot(g + 7)}
        while (d := GAME.decision(state)) is not None:
            if d.role == "chance":
                GAME.apply(state, d.options[rng.randrange(len(d.options))])
                continue
            _, key = ask(bots[d.role], state)
            steps[d.step] += 1
            index = rng.randrange(len(d.options)) if rng.random() < 0.15 else d.index_of(key)
            GAME.apply(state, d.options[index])
        turns.append(state.turn)
    assert max(turns) >= 8
    assert len(steps) >= 25, sorted(steps)


# --- DEFCON safety ---------------------------------------------------------------------------------


def test_never_suicides_against_itself():
    """Heuristic vs heuristic: no game ends by DEFCON 1 (it is always the phasing side's doing),
    by a coup under the Cuban Missile Crisis, or by a held scoring card."""
    endings = Counter()
    for g in range(30):
        bots = {"ussr": TSHeuristicBot(g), "us": TSHeuristicBot(g + 100)}
        endings[play(bots, 5000 + g).outcome.termination] += 1
    assert not endings & Counter({"defcon": 1, "cuban_missile_crisis": 1, "held_scoring_card": 1}), endings


@pytest.mark.parametrize("role", ["ussr", "us"])
def test_no_battleground_coup_at_defcon_2(role):
    """At a coup step at DEFCON 2 it takes the non-battleground target."""
    me = SIDE[role]
    enemy = "us" if role == "ussr" else "ussr"
    inf = {"nigeria": (0, 0), "kenya": (0, 0)}
    inf["nigeria"] = (3, 0) if enemy == "us" else (0, 3)
    inf["kenya"] = (1, 0) if enemy == "us" else (0, 1)
    state = position(hands={"ussr": ["comecon"], "us": ["truman_doctrine"]}, influence=inf, defcon=2,
                     phasing=role)
    state.stack.append(("coup", me, 3, False, False, False, card("comecon"), None))
    d, key = ask(TSHeuristicBot(0), state)
    assert d.step == "coup" and "country:nigeria" in [o.key for o in d.options]
    assert not M.COUNTRIES[M.INDEX[key[8:]]].battleground


@pytest.mark.parametrize("seed", range(6))
def test_defcon_2_rounds_are_survived(seed):
    """Its own action rounds at DEFCON 2, holding DEFCON droppers of both sides and coup targets:
    the round never ends the game against it."""
    rng = random.Random(seed)
    for role in ("ussr", "us"):
        hands = {
            "ussr": ["duck_and_cover", "we_will_bury_you", "cia_created", "olympic_games", "comecon"],
            "us": ["duck_and_cover", "we_will_bury_you", "lone_gunman", "summit", "nato"],
        }
        hands["us" if role == "ussr" else "ussr"] = ["truman_doctrine"]
        state = position(hands=hands, defcon=2, turn=5, phasing=role, rounds=1,
                         influence={"nigeria": (1, 1), "angola": (1, 1), "kenya": (1, 1), "panama": (2, 2)})
        bots = {"ussr": TSHeuristicBot(seed), "us": TSHeuristicBot(seed + 1)}
        played = play_out(state, bots, rng, until_step="headline")
        assert played
        outcome = GAME.outcome(state)
        assert outcome is None or outcome.winner == role or outcome.termination != "defcon", (played, outcome)


def test_never_plays_a_defcon_dropper_at_defcon_2():
    for role, mine, theirs in (("us", "duck_and_cover", "we_will_bury_you"), ("ussr", "we_will_bury_you",
                                                                                "duck_and_cover")):
        state = position(hands={role: [mine, theirs], ("us" if role == "ussr" else "ussr"): ["comecon"]},
                         defcon=2, turn=5, phasing=role, rounds=2)
        bot = TSHeuristicBot(1)
        d, key = ask(bot, state)
        GAME.apply(state, d.options[d.index_of(key)])
        d, use = ask(bot, state)
        if key == "card:" + mine:
            assert use != "use:event"  # its own dropper as an event: nuclear war
        else:
            assert use == "use:space"  # the opponent's dropper only goes to the space race


def test_no_coup_under_the_missile_crisis():
    state = position(hands={"ussr": ["comecon", "fidel", "nasser"], "us": ["truman_doctrine"]},
                     influence={"zaire": (1, 0), "angola": (2, 0), "panama": (1, 0)}, defcon=2, turn=5,
                     effects={"cuban_missile_crisis:ussr:turn"}, milops=(0, 0), rounds=1)
    bot = TSHeuristicBot(3)
    rng = random.Random(3)
    played = play_out(state, {"ussr": bot, "us": TSHeuristicBot(4)}, rng, until_step="headline")
    assert not any(step == "card_use" and ":coup" in key for role, step, key in played if role == "ussr")
    assert state.outcome is None or state.outcome.termination != "cuban_missile_crisis"


def test_opponent_phasing_at_defcon_2_is_punished():
    """Olympic Games sponsored by the phasing opponent at DEFCON 2: boycott (it loses); when we
    would lose ourselves, we participate."""
    state = position(hands={"ussr": ["comecon"], "us": ["truman_doctrine"]}, defcon=2, phasing="us")
    state.stack.append(("ev_choice", USSR, "olympic_games", ("participate", "boycott"), US))
    assert ask(TSHeuristicBot(0), state)[1] == "choice:boycott"
    state = position(hands={"ussr": ["comecon"], "us": ["truman_doctrine"]}, defcon=2, phasing="ussr")
    state.stack.append(("ev_choice", USSR, "olympic_games", ("participate", "boycott"), US))
    assert ask(TSHeuristicBot(0), state)[1] == "choice:participate"


def test_how_i_learned_never_sets_defcon_1_while_phasing():
    keys = tuple(f"defcon_{n}" for n in range(1, 6))
    state = position(hands={"ussr": ["comecon"], "us": ["truman_doctrine"]}, defcon=3, phasing="ussr", turn=5)
    state.stack.append(("ev_choice", USSR, "how_i_learned_to_stop_worrying", keys, None))
    assert ask(TSHeuristicBot(0), state)[1] != "choice:defcon_1"
    state.phasing = US  # e.g. through Grain Sales: the opponent is phasing and loses at DEFCON 1
    assert ask(TSHeuristicBot(0), state)[1] == "choice:defcon_1"


def test_headline_avoids_defcon_droppers_at_defcon_3():
    state = position(hands={"us": ["duck_and_cover", "olympic_games", "truman_doctrine"], "ussr": ["comecon"]},
                     defcon=3, phasing="us")
    state.stack = [("end_turn",), ("headline_choose", US, False)]
    assert ask(TSHeuristicBot(0), state)[1] == "card:truman_doctrine"


# --- scoring cards and military operations --------------------------------------------------------


@pytest.mark.parametrize("role", ["ussr", "us"])
def test_scoring_card_is_never_held(role):
    """Its last round with a scoring card and a good card: the scoring card is played."""
    other = "us" if role == "ussr" else "ussr"
    state = position(hands={role: ["asia_scoring", "containment", "comecon"], other: ["nasser"]}, phasing=role,
                     rounds=1)
    d, key = ask(TSHeuristicBot(0), state)
    assert key == "card:asia_scoring"
    state = position(hands={role: ["asia_scoring", "europe_scoring", "containment"], other: ["nasser"]},
                     phasing=role, rounds=3)  # two rounds of ours left for two scoring cards
    d, key = ask(TSHeuristicBot(0), state)
    assert key in ("card:asia_scoring", "card:europe_scoring")


def test_favourable_scoring_card_is_played_early():
    # the USSR dominates the Middle East now: score it at once
    inf = {"iraq": (0, 4), "syria": (0, 3), "egypt": (0, 2), "libya": (0, 2), "iran": (1, 0), "israel": (1, 0)}
    state = position(hands={"ussr": ["middle_east_scoring", "comecon", "nasser", "fidel"], "us": ["nato"]},
                     influence=inf, rounds=7)
    assert ask(TSHeuristicBot(0), state)[1] == "card:middle_east_scoring"


def test_meets_military_operations_on_its_last_round():
    """Last round, DEFCON 3, no military operations yet: a coup in a non-battleground (3 VP of
    shortfall otherwise) rather than influence."""
    state = position(hands={"ussr": ["comecon", "nasser"], "us": ["truman_doctrine"]},
                     influence={"kenya": (1, 0), "sudan": (1, 0)}, defcon=3, turn=2, milops=(0, 0), rounds=1)
    bot = TSHeuristicBot(0)
    d, key = ask(bot, state)
    GAME.apply(state, d.options[d.index_of(key)])
    d, use = ask(bot, state)
    assert "coup" in use
    GAME.apply(state, d.options[d.index_of(use)])
    d, target = ask(bot, state)
    assert d.step == "coup"
    GAME.apply(state, d.options[d.index_of(target)])
    GAME.apply(state, GAME.decision(state).options[0])  # the die; then the turn ends
    assert state.outcome is None or state.outcome.winner == "ussr"
    assert not [e for e in iter_history(state.history) if e.step == "military_ops_shortfall" and e.role == "ussr"]


def test_places_influence_toward_battleground_control():
    """Its influence goes to battlegrounds: the US controls more of them after its round."""
    state = position(hands={"us": ["containment", "nato"], "ussr": ["comecon"]}, phasing="us", rounds=1,
                     influence={"saudi_arabia": (0, 0), "jordan": (1, 0), "libya": (0, 0), "egypt": (0, 0)},
                     milops=(5, 5))
    def controlled():
        return sum(1 for c in M.BATTLEGROUNDS if GAME_BOARD.controls(state, US, c))

    before = controlled()
    bot = TSHeuristicBot(0)
    played = play_out(state, {"us": bot, "ussr": bot}, random.Random(0), until_step="headline")
    assert any(step == "influence" for _, step, _ in played)
    assert controlled() >= before + 1, played


# --- strength ------------------------------------------------------------------------------------


def test_beats_random():
    """A measured rate with a wide margin (200-game runs of benchmarks/ts_heuristic_vs_random.py
    score 100%); and it never loses by DEFCON 1 or a held scoring card."""
    score = 0.0
    for g in range(40):
        mine, other = ("ussr", "us") if g % 2 == 0 else ("us", "ussr")
        bots = {mine: TSHeuristicBot(g), other: RandomBot(g + 1)}
        outcome = play(bots, 9000 + g).outcome
        score += outcome.scores[0 if mine == "ussr" else 1]
        if outcome.winner != mine:
            assert outcome.termination not in ("defcon", "held_scoring_card", "cuban_missile_crisis"), outcome
    assert score / 40 >= 0.85


# --- the package: the engine's tables, small modules ---------------------------------------------


def test_tables_are_the_engines():
    """The space race table and the superpower neighbours are the engine's own objects; the
    tables derived from map and card data say what the engine's data says."""
    assert DATA.SPACE is GAME_OPS.SPACE
    assert DATA.OWN_SPACE[USSR] is GAME_OPS.OWN_SPACE[USSR] and DATA.OWN_SPACE[US] is GAME_OPS.OWN_SPACE[US]
    assert DATA.REGIONS == M.REGIONS and DATA.SIDE == SIDE
    assert DATA.STAB == GAME_BOARD.STABILITY and DATA.BG == GAME_BOARD.BATTLEGROUND
    assert [DATA.SCORING[DATA.RIDX[r]] for r in M.REGIONS] == [M.SCORING[r] for r in M.REGIONS]
    # every region scoring card scores its own region; Southeast Asia Scoring is apart
    assert set(DATA.SCORING_REGION) == set(CD.SCORING_CARDS) - {card("southeast_asia_scoring")}
    assert sorted(DATA.SCORING_REGION.values()) == list(range(len(M.REGIONS)))
    for number, region in DATA.SCORING_REGION.items():
        assert CD.CARD_BY_NUMBER[number].id == M.REGIONS[region].lower().replace(" ", "_") + "_scoring"
    assert {M.REGIONS[r] for r in DATA.MID_REGIONS} == {M.AFRICA, M.CENTRAL_AMERICA, M.SOUTH_AMERICA}
    assert DATA.DEFCON_DROPPERS == {card("duck_and_cover"), card("we_will_bury_you"), card("soviets_shoot_down_kal_007")}


@pytest.mark.parametrize("role", ["ussr", "us"])
def test_scoring_agrees_with_the_engine(role):
    """The bot's region scoring over influence lists (Ctx.score_net) gives the engine's net VP
    (board.score_region, board.southeast_asia_scoring) on random boards, Europe control as a win
    and Formosan Resolution included."""
    rng = random.Random(11 if role == "ussr" else 12)
    me = SIDE[role]
    bot = TSHeuristicBot(0)
    seen = Counter()
    for trial in range(150):
        effects = ("formosan_resolution",) if trial % 2 else ()
        state = position(hands={"ussr": [], "us": []}, effects=effects)
        lean = rng.random()
        for i, c in enumerate(M.COUNTRIES):
            roll = rng.random()
            if roll < 0.8 * lean:
                us, ussr = c.stability + rng.randrange(3), rng.randrange(2)
            elif roll < 0.8:
                us, ussr = rng.randrange(2), c.stability + rng.randrange(3)
            else:
                us, ussr = rng.randrange(4), rng.randrange(4)
            state.inf[US][i], state.inf[USSR][i] = us, ussr
        x = Ctx(bot, read_view(wire_view(state, role)), None)
        for number, region in DATA.SCORING_REGION.items():
            us_vp, ussr_vp, europe = GAME_BOARD.score_region(state, M.REGIONS[region])
            if europe != NOBODY:
                expected = WIN if europe == me else -WIN
                seen["europe control"] += 1
            else:
                expected = float(us_vp - ussr_vp if me == US else ussr_vp - us_vp)
            assert x.score_net(number) == expected, (trial, M.REGIONS[region])
        us_vp, ussr_vp = GAME_BOARD.southeast_asia_scoring(state)
        assert x.score_net(card("southeast_asia_scoring")) == float(us_vp - ussr_vp if me == US else ussr_vp - us_vp)
    assert seen["europe control"] >= 1


def test_package_modules_are_small_and_documented():
    folder = Path(PACKAGE.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) >= 8
    for path in modules:
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 800, path.name
        assert ast.get_docstring(ast.parse(text)), path.name


def _extra_round(hand: list[str], **kw):
    """The US at North Sea Oil's optional 8th action round (turn 8), holding ``hand``."""
    from kits import ts_positions as P

    state = P.position(hands={"us": hand, "ussr": []}, turn=8, phasing="us", end_turn=10,
                       effects=["north_sea_oil:turn"], **kw)
    state.stack = [("end_turn",), ("action_round", 8, US)]
    state.ar, state.china, state.pending = 8, USSR, None
    return state


def test_the_optional_extra_round_is_taken_for_a_useful_card():
    """Space Station / North Sea Oil's extra round is a choice (step ``extra_action_round``): with
    the Marshall Plan (a US event) in hand the bot takes it; no fallback is counted."""
    state = _extra_round(["marshall_plan"])
    bot = TSHeuristicBot(3)
    d, key = ask(bot, state)
    assert (d.step, key, bot.fallbacks) == ("extra_action_round", "choice:accept", 0)


def test_the_optional_extra_round_is_declined_when_playing_would_lose():
    """DEFCON 2, the US holds only "We Will Bury You" (a USSR event: "Degrade DEFCON one level",
    which would reach DEFCON 1 in the US's own round) and both space tracks are at their end
    (no way to space it): every use of the card loses, so the round is declined."""
    state = _extra_round(["we_will_bury_you"], defcon=2)
    state.space = [8, 8]
    bot = TSHeuristicBot(3)
    d, key = ask(bot, state)
    assert (d.step, key, bot.fallbacks) == ("extra_action_round", "pass", 0)
    GAME.apply(state, d.options[[o.key for o in d.options].index("choice:accept")])
    assert [o.key for o in GAME.decision(state).options] == ["card:we_will_bury_you"]  # forced if taken


def test_the_optional_extra_round_is_taken_holding_a_scoring_card():
    """The extra round may be declined even with a scoring card in hand (the engine asks), but a
    scoring card held at the end of the turn loses (map.md §10 F): the bot takes the round, even
    when the scoring card is all it holds, and then plays it."""
    for hand in (["asia_scoring"], ["asia_scoring", "we_will_bury_you"]):
        state = _extra_round(hand)
        bot = TSHeuristicBot(3)
        d, key = ask(bot, state)
        assert (d.step, key, bot.fallbacks) == ("extra_action_round", "choice:accept", 0), hand
        GAME.apply(state, d.options[d.index_of(key)])
        d, key = ask(bot, state)
        assert (d.step, key) == ("action_round", "card:asia_scoring"), hand


def test_a_coup_chosen_under_the_missile_crisis_is_cancelled_first():
    """At ``missile_crisis_coup`` (its coup is chosen; cards.md #40: a coup under the crisis loses
    unless cancelled first by removing 2 influence) the bot cancels, never ``keep``."""
    state = position(hands={"ussr": ["comecon"], "us": ["truman_doctrine"]}, defcon=2, phasing="us",
                     effects={"cuban_missile_crisis:ussr:turn"}, influence={"cuba": (0, 3), "honduras": (1, 0)})
    state.stack.append(("coup_roll", USSR, M.INDEX["honduras"], 2, True))
    state.stack.append(("ev_choice", USSR, "missile_crisis_coup", ("cuba", "keep"), None))
    bot = TSHeuristicBot(0)
    d, key = ask(bot, state)
    assert (d.step, key, bot.fallbacks) == ("missile_crisis_coup", "choice:cuba", 0)


def test_region_weights_count_the_scoring_cards():
    """Card counting (issue 25, seventh round), turns 1-8: a region's weight in the evaluation
    follows where its scoring card can be. Oracle from the rules: a scoring card in the discard
    pile cannot be played again before a reshuffle, so its region weighs least; an unseen one may
    be in the opponent's hand (its share of the unseen cards) and weighs more the larger that
    share; one seen in the opponent's hand (Aldrich Ames Remix opens the US hand to the USSR)
    will be scored this turn and weighs as much as one in our own hand."""
    bot = TSHeuristicBot(0)
    asia = M.REGIONS.index("Asia")

    def asia_weight(state, role):
        return Ctx(bot, read_view(wire_view(state, role)), None).ev.wr[asia]

    def state_with(*, discard=(), us_hand=("nasser", "fidel"), turn=5, effects=(), deck=None):
        state = position(hands={"ussr": ["vietnam_revolts", "decolonization"], "us": list(us_hand)},
                         turn=turn, effects=effects)
        state.discard = tuple(card(c) for c in discard)
        state.deck = tuple(n for n in state.deck if n not in state.discard)
        if deck is not None:
            state.deck = state.deck[:deck]
        return state

    unseen = asia_weight(state_with(), "ussr")
    discarded = asia_weight(state_with(discard=["asia_scoring"]), "ussr")
    assert discarded < Ctx.REGION_WEIGHT < unseen < Ctx.HELD_WEIGHT
    # the smaller the draw pile, the likelier the opponent's hand holds the card
    assert asia_weight(state_with(deck=4), "ussr") > unseen
    # seen in the opponent's hand: as if held; Aldrich Ames Remix's lasting effect opens it
    seen = asia_weight(state_with(us_hand=("nasser", "asia_scoring"), effects=("aldrich_ames:turn",)), "ussr")
    assert seen == Ctx.HELD_WEIGHT
    # turns 9-10 weigh every region for the final scoring, wherever its card is
    late = [asia_weight(state_with(discard=d, turn=9), "ussr") for d in ((), ["asia_scoring"])]
    assert late[0] == late[1]
