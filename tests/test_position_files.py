"""Hand-written positions (tests/positions/) loaded from files, with the outcomes the rulebooks
give: Schotten Totten / Battle Line (the referee digest's claim proofs, Fog, Mud, tactics rules) and
Twilight Struggle (DEFCON, the China Card, Missile Envy, lasting effects, the end of a turn).

Each file is what a bot author writes to put a bot in a position: the JSON object of
docs/positions.md, the one-line notation (Schotten Totten) or the compact form (Twilight
Struggle). The expectations are written from the rules, not read from the engine.
"""

from __future__ import annotations

import json
import pathlib

import pytest

from standoff.sdk.positions import load_position, to_position
from standoff.server.games.twilight_struggle import map_data as M

HERE = pathlib.Path(__file__).parent / "positions"


def load(name: str):
    game_name = "schotten-totten" if name.startswith("st/") else "twilight-struggle"
    return load_position(HERE / name, game_name)


def keys(game, state) -> list[str]:
    return [option.key for option in game.decision(state).options]


def play(game, state, *choices: str) -> None:
    """Apply options by key (chance included: ``die:6``)."""
    for key in choices:
        decision = game.decision(state)
        game.apply(state, decision.options[decision.index_of(key)])


def test_every_file_loads_and_writes_back():
    files = sorted(p for p in HERE.rglob("*") if p.is_file())
    assert len([p for p in files if p.parent.name == "st"]) >= 10
    assert len([p for p in files if p.parent.name == "ts"]) >= 10
    for path in files:
        game, state = load(f"{path.parent.name}/{path.name}")
        assert game.decision(state) is not None or game.outcome(state) is not None
        position = to_position(state)
        _, again = load_position(json.dumps(position), game.name)
        assert to_position(again) == position, path.name


# -- Schotten Totten / Battle Line (shared/schotten-totten/rules.md) ------------------------------------


def test_claim_proof_of_a_top_wedge():
    """§4: red 8-9-10 complete; nothing the opponent can still draw beats it strictly (another
    8-9-10 wedge would only tie, and a tie goes to the side complete first): claimable."""
    game, state = load("st/claim_proof_wedge.txt")
    assert keys(game, state) == ["flag:1", "done"]
    play(game, state, "flag:1")
    assert to_position(state)["flags"][0]["claimed_by"] == "p1"


def test_a_host_is_not_provable_against_an_empty_side():
    game, state = load("st/claim_host_not_provable.txt")
    reason = game.explain_claim(state, "p1", 1)
    assert "could still beat it" in reason and "red-8, red-9, red-10" in reason
    assert game.decision(state).role == "p2"  # p1's claim phase had nothing to offer


def test_two_unbeatable_cards_are_not_a_claim():
    """§4.1: the side must be complete."""
    game, state = load("st/claim_incomplete_side.txt")
    assert game.explain_claim(state, "p1", 1) == "p1's side of flag 1 is not complete (2 of 3 cards)"


def test_equal_formations_go_to_the_side_complete_first():
    """§3: equal rank and sum: the side that completed its formation first wins."""
    game, state = load("st/claim_tie_p1_completed_first.txt")
    assert "flag:1" in keys(game, state)
    game, state = load("st/claim_tie_p2_completed_last.txt")
    assert "as strong and completed first" in game.explain_claim(state, "p2", 1)
    assert game.explain_claim(state, "p1", 1) is None


def test_an_equal_completion_still_loses_to_the_side_complete_first():
    """§4: O missing k cards: an equal result still loses to P (phalanx of 10s against 10, 10
    and the last 10)."""
    game, state = load("st/claim_equal_completion_loses.txt")
    assert keys(game, state) == ["flag:1", "done"]


def test_a_wedge_the_opponent_may_still_complete_blocks_the_claim():
    game, state = load("st/claim_wedge_threat.txt")
    assert "green-8" in game.explain_claim(state, "p1", 1)


def test_fog_counts_only_the_sum():
    """§3: under Fog, p1's three 1s (a phalanx, sum 3) lose to p2's 2, 2, 3 (sum 7)."""
    game, state = load("st/fog_sum_only.txt")
    assert keys(game, state) == ["flag:2", "done"]
    play(game, state, "flag:2")
    assert to_position(state)["flags"][1]["claimed_by"] == "p2"


def test_mud_leaving_makes_the_owner_discard_one_of_four():
    """§4 policy: Mud left flag 3; p1's four cards there: p1 discards one; the default (on a
    timeout) leaves the strongest formation: red 1-2-3, a wedge, so blue 9 goes."""
    game, state = load("st/mud_discard.json")
    decision = game.decision(state)
    assert (decision.role, decision.step) == ("p1", "mud_discard")
    assert keys(game, state) == ["card:red-1", "card:red-2", "card:red-3", "card:blue-9"]
    assert decision.options[game.fallback_index(state)].key == "card:blue-9"
    play(game, state, "card:blue-9")
    position = to_position(state)
    assert position["flags"][2]["sides"]["p1"] == ["red-1", "red-2", "red-3"]
    assert position["discards"]["p1"] == ["redeploy", "blue-9"]


def test_the_count_rule_forbids_a_second_tactics_card_ahead():
    """§5: p1 has played 2 tactics, p2 1: p1 may not play Alexander now."""
    game, state = load("st/count_rule.txt")
    assert keys(game, state) == ["card:red-6", "card:orange-6", "card:yellow-6", "card:green-6"]


def test_one_leader_per_game():
    """§5: Alexander played, Darius stays dead in hand."""
    game, state = load("st/leader_dead.txt")
    assert "card:darius" not in keys(game, state)


def test_breakthrough_ends_the_game():
    game, state = load("st/breakthrough.txt")
    play(game, state, "flag:3")
    outcome = game.outcome(state)
    assert (outcome.winner, outcome.termination) == ("p1", "breakthrough")


def test_envelopment_ends_the_game():
    game, state = load("st/envelopment.txt")
    play(game, state, "flag:9")
    outcome = game.outcome(state)
    assert (outcome.winner, outcome.termination) == ("p1", "envelopment")


def test_pass_only_without_a_troop_placement():
    """§2: a player with no legal troop placement (and no tactics card) may only pass."""
    game, state = load("st/pass_when_no_room.txt")
    assert keys(game, state) == ["pass"]


def test_traitor_takes_only_an_opponent_troop_at_an_unclaimed_flag():
    """§5: never a tactics card (Companion Cavalry), never from a claimed flag (green 4)."""
    game, state = load("st/traitor_targets.txt")
    assert keys(game, state) == ["card:blue-4"]


def test_classic_claims_at_the_start_of_the_turn():
    """§7: original Schotten Totten, claims at the start of the turn, before playing."""
    game, state = load("st/classic_claim_at_start.txt")
    decision = game.decision(state)
    assert (decision.step, keys(game, state)) == ("claim", ["flag:1", "done"])
    play(game, state, "done")
    assert game.decision(state).step == "play"


# -- Twilight Struggle (shared/twilight-struggle/map.md, cards.md) ------------------------------------------


def test_a_coup_at_defcon_2_only_outside_europe_asia_and_the_middle_east():
    """map.md §8: at DEFCON 2 coups are forbidden in Europe, Asia and the Middle East; a coup in a
    battleground degrades DEFCON by 1: to 1, and the phasing player (the US) loses."""
    game, state = load("ts/coup_at_defcon_2.txt")
    play(game, state, "card:marshall_plan", "use:coup")
    assert keys(game, state) == ["country:angola", "country:zimbabwe", "country:panama"]
    play(game, state, "country:angola", "die:6")
    outcome = game.outcome(state)
    assert (outcome.winner, outcome.termination, state.defcon) == ("ussr", "defcon", 1)


def test_a_coup_outside_battlegrounds_keeps_defcon():
    """map.md §5: roll + ops − 2 × stability: 6 + 4 − 2 = 8 in Zimbabwe (stability 1): the
    USSR's 1 influence goes, 7 US influence come; military ops +4; DEFCON stays at 2."""
    game, state = load("ts/coup_at_defcon_2.txt")
    play(game, state, "card:marshall_plan", "use:coup", "country:zimbabwe", "die:6")
    assert to_position(state)["influence"]["zimbabwe"] == {"ussr": 0, "us": 7}
    assert (state.defcon, state.milops[1]) == (2, 4)


def test_the_china_card_is_not_played_over_a_held_scoring_card():
    """map.md §13: not played if doing so would leave a scoring card unplayed."""
    game, state = load("ts/china_card_held_scoring.txt")
    assert keys(game, state) == ["card:asia_scoring"]
    game, state = load("ts/china_card_rounds_to_spare.txt")
    assert keys(game, state) == ["card:asia_scoring", "card:the_china_card"]


def test_the_china_card_gives_one_more_op_in_asia():
    """map.md §13: 4 Ops, +1 when all are spent in Asia (5 to place)."""
    game, state = load("ts/china_card_asia_bonus.txt")
    play(game, state, "card:the_china_card", "use:influence")
    frame = to_position(state)["stack"][-1]
    assert (frame["step"], frame["left"], frame["china_bonus"]) == ("influence", 5, True)
    assert state.china == 1 and not state.china_face_up  # passed face down to the US


def test_missile_envy_must_be_played_for_operations():
    """cards.md #49: Missile Envy sits in the opponent's hand and must be played for Ops in its
    next action round; its event does not occur then."""
    game, state = load("ts/missile_envy.txt")
    assert keys(game, state) == ["card:missile_envy"]
    play(game, state, "card:missile_envy")
    assert "use:event" not in keys(game, state)


def test_a_scoring_card_held_at_the_end_of_the_turn_loses():
    """map.md §12 (tournament rule): a player holding a scoring card at the reveal step loses."""
    game, state = load("ts/held_scoring_card.txt")
    assert game.decision(state) is None
    outcome = game.outcome(state)
    assert (outcome.winner, outcome.termination) == ("ussr", "held_scoring_card")


def test_a_coup_under_the_cuban_missile_crisis_loses():
    """cards.md #40: after the USSR's Cuban Missile Crisis, a US coup loses the game."""
    game, state = load("ts/cuban_missile_crisis.txt")
    play(game, state, "card:marshall_plan", "use:coup", "country:angola")
    if game.outcome(state) is None:  # the attempt is made (its die) and loses
        play(game, state, "die:1")
    assert game.outcome(state).winner == "ussr"


def test_red_scare_purge_takes_an_op_from_every_card():
    """cards.md #31: played by the USSR, US cards are worth 1 Op less this turn (Marshall Plan: 3)."""
    game, state = load("ts/red_scare_purge.txt")
    play(game, state, "card:marshall_plan", "use:influence")
    assert to_position(state)["stack"][-1]["left"] == 3


def test_containment_adds_an_op_up_to_four():
    """cards.md #25: US cards +1 Op, at most 4: Duck and Cover 3 → 4, Marshall Plan stays 4."""
    game, state = load("ts/containment.txt")
    play(game, state, "card:duck_and_cover", "use:influence")
    assert to_position(state)["stack"][-1]["left"] == 4
    game, state = load("ts/containment.txt")
    play(game, state, "card:marshall_plan", "use:influence")
    assert to_position(state)["stack"][-1]["left"] == 4


def test_duck_and_cover_at_defcon_2_is_nuclear_war_for_its_player():
    """map.md §8: DEFCON 1 ends the game, the phasing player loses (its own event)."""
    game, state = load("ts/duck_and_cover_at_defcon_2.txt")
    play(game, state, "card:duck_and_cover", "use:event")
    outcome = game.outcome(state)
    assert (outcome.winner, outcome.termination) == ("ussr", "defcon")


def test_chernobyl_bars_ussr_influence_in_the_named_region():
    """cards.md #94: no USSR influence placed in Europe by Operations this turn (Syria's
    neighbours still open)."""
    game, state = load("ts/chernobyl.txt")
    play(game, state, "card:the_reformer", "use:influence")
    options = keys(game, state)
    assert all(M.COUNTRIES[M.INDEX[k.split(":")[1]]].region != M.EUROPE for k in options)
    assert "country:syria" in options and "country:lebanon" in options


def test_defectors_headlined_by_the_us_cancels_the_ussr_headline():
    """map.md §11: Defectors headlined by the US cancels the USSR headline: that card goes to the
    discard pile without effect (Fidel places nothing in Cuba)."""
    game, state = load("ts/defectors_headline.json")
    game.decision(state)
    position = to_position(state)
    assert "fidel" in position["discard"] and "cuba" not in position["influence"]
    assert "fidel" not in position["events_played"]


def test_europe_control_when_europe_is_scored_wins():
    """map.md §12: Europe Control when Europe is scored wins the game (all 5 battlegrounds
    here: Poland, East and West Germany, France, Italy; more countries than the US)."""
    game, state = load("ts/europe_control.json")
    play(game, state, "card:europe_scoring", "use:event")
    outcome = game.outcome(state)
    assert (outcome.winner, outcome.termination) == ("ussr", "europe_control")


def test_a_bot_on_a_position_as_docs_show_it():
    """docs/positions.md's example of a bot test: ts-heuristic at DEFCON 2 starts no nuclear war."""
    from standoff.server.plugins import load_registry
    from standoff.server.seats import InProcessSeat
    from standoff.server.wire import match_started_message

    game, state = load("ts/coup_at_defcon_2.txt")
    bot = load_registry(entry_points=False).make_bot("ts-heuristic", 1, game.name)
    seat = InProcessSeat(bot, game, "test")
    seat.start(match_started_message("test", game, state.rules, "us", {"ussr": "x", "us": "me"}, 1))
    asked = 0
    while (decision := game.decision(state)) is not None and decision.role == "us":
        option = decision.options[seat.ask(state, decision, state.number + 1, {})]
        assert option.key not in ("country:angola", "country:panama")
        game.apply(state, option)
        asked += 1
    assert asked >= 2 and game.outcome(state) is None


@pytest.mark.parametrize(("name", "role"), [("ts/missile_envy.txt", "us"), ("ts/coup_at_defcon_2.txt", "ussr"),
                                            ("st/count_rule.txt", "p2"), ("st/mud_discard.json", "p1")])
def test_a_belief_from_a_view_and_a_position_file(name, role):
    """The SDK's forward model starts from what the bot assumes (a position file) and its view:
    every sample keeps the view and re-deals the rest."""
    import random

    from standoff.sdk.simulate import Belief
    from standoff.sdk.types import SimulationError

    game, state = load(name)
    view = game.view(state, role)
    belief = Belief.from_position(game, view, HERE / name)
    rng = random.Random(5)
    samples = belief.samples(rng, 4)
    assert all(game.view(s, role) == view for s in samples)
    hidden = [to_position(s)["hands"] for s in samples]
    assert any(h != to_position(state)["hands"] for h in hidden)  # the other hand is re-dealt
    other = dict(view, turn=view["turn"] + 1)
    with pytest.raises(SimulationError, match=r"the position shows a different view \(fields: turn\)"):
        Belief.from_position(game, other, HERE / name)


# -- views say what the rules make public ------------------------------------------------------------


def test_views_carry_control_the_event_under_way_and_who_rolls():
    from standoff.sdk.positions import from_position

    game, state = load("ts/europe_control.json")
    control = game.view(state, "us")["control"]
    assert control == {"uk": "us", "france": "ussr", "italy": "ussr", "west_germany": "ussr",
                       "east_germany": "ussr", "poland": "ussr"}  # map.md §5: influence ≥ stability...
    state = from_position(game, "twilight-struggle\nturn: 2  phasing: ussr\nhand ussr: comecon\nhand us: nato\n")
    play(game, state, "card:comecon", "use:event")
    decision = game.decision(state)
    assert decision.step == "event_place"
    assert game.view(state, "us")["event"] == {"card": "comecon", "side": "ussr"}
    game, state = load("ts/coup_at_defcon_2.txt")
    assert game.view(state, "us")["event"] is None
    play(game, state, "card:marshall_plan", "use:coup", "country:zimbabwe")
    assert game.decision(state).prompt == "die of us: coup in zimbabwe (4 ops)"


def test_the_china_card_and_un_intervention_are_never_headlined():
    """map.md §11: The China Card and UN Intervention can never be headlined."""
    game, state = load("ts/headline_restrictions.txt")
    decision = game.decision(state)
    assert (decision.role, decision.step, keys(game, state)) == ("ussr", "headline", ["card:fidel", "card:nasser"])


def test_the_json_files_satisfy_the_schema():
    jsonschema = pytest.importorskip("jsonschema")
    from standoff.sdk.positions import position_schema

    validator = jsonschema.Draft202012Validator(position_schema())
    files = sorted(HERE.rglob("*.json"))
    assert files
    for path in files:
        errors = list(validator.iter_errors(json.loads(path.read_text())))
        assert not errors, f"{path.name}: {errors[0].message}"
