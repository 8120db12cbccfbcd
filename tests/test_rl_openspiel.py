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


# -- observation types (pyspiel.IIGObservationType) -------------------------------------------------------

OBSERVED = [("schotten-totten", "classic"), ("schotten-totten", "three_player"), ("twilight-struggle", "deluxe")]


def _observer(game, perfect_recall=False, public_info=True, private_info=None):
    private_info = pyspiel.PrivateInfoType.SINGLE_PLAYER if private_info is None else private_info
    return game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=perfect_recall, public_info=public_info, private_info=private_info))


def _observed(observer, state, player):
    observer.set_from(state, player)
    return observer.string_from(state, player), observer.tensor.copy()


def _hand_cards(state):
    """The names of every card in a hand now (both games' engine states)."""
    game = state.rl.game
    if game.name == "twilight-struggle":
        from standoff.server.games.twilight_struggle.game import card_name
    else:
        from standoff.server.games.schotten_totten.cards import card_name
    return {card_name(c) for hand in state.engine_state.hands for c in hand}


def _strings(data):
    if isinstance(data, dict):
        return {s for v in data.values() for s in _strings(v)}
    if isinstance(data, list):
        return {s for v in data for s in _strings(v)}
    return {data} if isinstance(data, str) else set()


@pytest.mark.parametrize(("game_name", "ruleset"), OBSERVED)
def test_public_observer_shows_no_private_card(game_name, ruleset):
    """``private_info=NONE``: no card of any hand in the string (its facts: the history and the list
    of events played may name a card played, reshuffled and drawn again) nor in the tensor's hand
    slices, and both are
    the same after a re-deal of what EITHER seat cannot see (its own hand included), whereas the
    seat's observation does change."""
    import json

    game = rl_openspiel.load(game_name, ruleset=ruleset)
    layout = game.rl.encoder.layout
    private_slices = [s for name, s in layout.items() if name == "hand" or name.endswith(".known")
                      or name in ("deck_tops", "opponent_hand")]
    observers = [_observer(game, pr, private_info=pyspiel.PrivateInfoType.NONE) for pr in (False, True)]
    seat = _observer(game)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    checked = changed = 0
    for state in _walk(game, 11, every=7 if game_name == "schotten-totten" else 13):
        if state.is_terminal() or state.is_chance_node():
            continue
        hands = _hand_cards(state)
        for player in range(game.num_players()):
            flat, tensor = _observed(observers[0], state, player)
            recall = _observed(observers[1], state, player)[0]
            facts = {k: v for k, v in json.loads(flat).items() if k != "events_played"}
            assert not _strings(facts) & hands, sorted(_strings(facts) & hands)
            assert all(not tensor[s].any() for s in private_slices)
            assert _observed(seat, state, player)[0] != flat
            for role in range(game.num_players()):
                other = state.resample_from_infostate(role, sampler)
                assert _observed(observers[0], other, player)[0] == flat
                assert _observed(observers[1], other, player)[0] == recall
                assert np.array_equal(_observed(observers[0], other, player)[1], tensor)
                changed += _observed(seat, other, player)[0] != _observed(seat, state, player)[0]
                checked += 1
        if checked > 60:
            break
    assert checked > 20 and changed > checked // 4, (checked, changed)


@pytest.mark.parametrize(("game_name", "ruleset"), OBSERVED)
def test_default_observer_is_the_seats_view(game_name, ruleset):
    """The default observation (and ``SINGLE_PLAYER`` with public information) is the seat's view:
    its hand in the string, the vector of standoff.sdk.rl; ``ALL_PLAYERS`` is every seat's view;
    ``public_info=False`` keeps the seat's additions to the public view (empty without private
    information)."""
    import json

    game = rl_openspiel.load(game_name, ruleset=ruleset)
    spec = game.rl
    n = game.num_players()
    everyone = _observer(game, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
    private = _observer(game, public_info=False)
    nothing = _observer(game, public_info=False, private_info=pyspiel.PrivateInfoType.NONE)
    assert nothing.tensor.shape == (0,) and everyone.tensor.shape == (n * spec.observation_size,)
    checked = 0
    for state in _walk(game, 12, every=9):
        if state.is_terminal() or state.is_chance_node():
            continue
        for player in range(n):
            role = spec.roles[player]
            view = state.view(player)
            string = state.observation_string(player)
            assert string == _observed(_observer(game), state, player)[0]
            assert json.loads(string)["hand"] == view["hand"] and json.loads(string)["role"] == role
            assert state.information_state_string(player) == _observed(_observer(game, True), state, player)[0]
            assert np.array_equal(np.array(state.observation_tensor(player), np.float32), spec.observe(view))
            both, tensor = _observed(everyone, state, player)
            assert {r: json.loads(both)[r]["hand"] for r in spec.roles} == {
                r: state.view(p)["hand"] for p, r in enumerate(spec.roles)}
            assert np.array_equal(tensor, np.concatenate([spec.observe(state.view(p)) for p in range(n)]))
            mine, part = _observed(private, state, player)
            assert json.loads(mine)["hand"] == view["hand"] and "flags" not in mine and "influence" not in mine
            assert part[spec.encoder.layout["hand"]].any() == bool(view["hand"])
            assert not part[spec.encoder.layout["to_move" if "to_move" in spec.encoder.layout else "tracks"]].any()
            assert _observed(nothing, state, player)[0] == ""
            checked += 1
        if checked > 30:
            break
    assert checked > 10


def test_the_cambridge_five_reveal_is_in_the_openspiel_observation():
    """The USSR (player 0) played The Cambridge Five and saw a scoring card of the US hand: its
    observation tensor has it in the other hand and its observation string lists it
    (``opponent_known``); the public observation and the US's observation string do not."""
    import json

    from test_rl import _cambridge_five_shown

    engine_state, keys, shown = _cambridge_five_shown()
    game = rl_openspiel.load("twilight-struggle")
    spec = game.rl
    state = game.new_initial_state()
    for key in keys:
        state.apply_action(spec.table.id(key))
    assert str(state) == spec.game.render(engine_state)
    ussr = json.loads(state.observation_string(0))
    assert ussr["opponent_hand"] == [] and set(shown) <= set(ussr["opponent_known"])
    tensor = np.array(state.observation_tensor(0))
    index, other_hand = spec.encoder.card_index, spec.encoder.layout["opponent_hand"]
    assert all(tensor[other_hand][index[c]] == 1.0 for c in shown)
    assert "opponent_known" not in json.loads(state.observation_string(1))
    public, public_tensor = _observed(_observer(game, private_info=pyspiel.PrivateInfoType.NONE), state, 0)
    assert not set(shown) & _strings(json.loads(public)) and not public_tensor[other_hand].any()
    private = json.loads(_observed(_observer(game, public_info=False), state, 0)[0])
    assert set(shown) <= set(private["opponent_known"])
