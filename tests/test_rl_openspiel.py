"""Standoff's games as OpenSpiel Python games (standoff.sdk.rl_openspiel): OpenSpiel's own random
simulation test on every ruleset, chance nodes from the engine's chance decisions, strings and
tensors from views only, and OpenSpiel's MCTS and ISMCTS bots playing them unchanged."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")
pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'standoff[rl]')")

from standoff.sdk import rl_openspiel  # noqa: E402

CASES = [
    ("python_standoff_schotten_totten", {"ruleset": "classic"}),
    ("python_standoff_schotten_totten", {"ruleset": "battle_line"}),
    ("python_standoff_schotten_totten", {"ruleset": "three_player"}),
    ("python_standoff_schotten_totten", {"ruleset": "classic", "claim_timing": "end_of_turn", "stalemate": "flags"}),
    ("python_standoff_twilight_struggle", {}),
    ("python_standoff_twilight_struggle", {"end_turn": 3, "bid": "us:2", "chinese_civil_war": "on"}),
]


@pytest.mark.parametrize(("name", "params"), CASES)
def test_openspiel_random_sim_test(name, params):
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_game_parameters_are_the_rules():
    game = rl_openspiel.load("schotten-totten", ruleset="classic")
    assert game.get_parameters()["claim_timing"] == "start_of_turn"  # the ruleset's default
    assert game.num_players() == 2 and game.num_distinct_actions() == 87
    assert rl_openspiel.load("schotten-totten", ruleset="three_player").num_players() == 3
    assert rl_openspiel.load("twilight-struggle").get_parameters()["end_turn"] == 10
    with pytest.raises(Exception):
        rl_openspiel.load("schotten-totten", ruleset="no_such_ruleset")


def _walk(game, seed, every=1):
    """States along a random playthrough (chance sampled from its outcomes' probabilities)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    n = 0
    while not state.is_terminal():
        n += 1
        if n % every == 0:
            yield state
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            assert abs(sum(probs) - 1) < 1e-9
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    yield state


def test_chance_nodes_are_the_engines_chance_decisions():
    game = rl_openspiel.load("schotten-totten", ruleset="classic")
    state = game.new_initial_state()
    assert state.is_chance_node()  # the deal, one card at a time
    outcomes = state.chance_outcomes()
    assert len(outcomes) == len(state.decision.options) == 54
    assert {state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in outcomes} == {o.key for o in state.decision.options}
    final = list(_walk(game, 1))[-1]
    assert final.is_terminal() and sorted(final.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("game_name", ["schotten-totten", "twilight-struggle"])
def test_information_is_the_views_only(game_name):
    """Re-deal what a player cannot see (resample_from_infostate → the engine's determinize):
    its strings and tensors do not change."""
    game = rl_openspiel.load(game_name)
    checked = changed = 0
    for state in _walk(game, 3, every=5 if game_name == "schotten-totten" else 11):
        if state.is_terminal() or state.is_chance_node():
            continue
        for player in range(game.num_players()):
            other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.observation_string(player) == state.observation_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            assert other.observation_tensor(player) == state.observation_tensor(player)
            if player == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            opponent = 1 - player
            changed += other.observation_tensor(opponent) != state.observation_tensor(opponent)
            checked += 1
        if checked > 60:
            break
    assert checked > 20
    assert changed > 0  # the re-deal does move hidden cards


def test_openspiel_mcts_and_ismcts_bots_play_it():
    from open_spiel.python.algorithms import ismcts, mcts

    game = rl_openspiel.load("schotten-totten", ruleset="classic")
    rng = np.random.RandomState(4)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [
        ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=rng),
        mcts.MCTSBot(game, uct_c=2.0, max_simulations=8, evaluator=evaluator, random_state=rng),
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("game_name", ["schotten-totten", "twilight-struggle"])
def test_serialized_states_come_back(game_name):
    """OpenSpiel's serialisation (the game's parameters and the action history) replays to the
    same state: the engine is deterministic given the actions, chance outcomes included."""
    game = rl_openspiel.load(game_name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    for state in _walk(game, 5, every=37):
        again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
        assert again.history() == state.history()
        assert str(again) == str(state)
        if not state.is_chance_node() and not state.is_terminal():
            assert again.information_state_string(state.current_player()) == state.information_state_string(state.current_player())
        if state.is_terminal():
            assert again.returns() == state.returns()
