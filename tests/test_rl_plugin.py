"""A game plugin gets the RL bridges with no code of its own: Goofspiel (tests/plugins/goofspiel,
installed by pip as in tests/test_game_plugin.py) brings no ``GameSpec.rl``, only its
``option_keys(rules)``; the generic action table, the generic observation (the view's hashed
facts) and the generic public view make it a PettingZoo environment passing ``api_test``, a
Gymnasium environment against the plugin's own bot, and an OpenSpiel game passing
``random_sim_test`` (docs/training.md, "Any game")."""

from __future__ import annotations

import json
import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from test_game_plugin import GAME, installed, site  # noqa: E402,F401  (the installed plugin)

from standoff.sdk.rl import GenericEncoder, action_table, spec_for  # noqa: E402
from standoff.sdk.rl_envs import StandoffAECEnv, StandoffGymEnv, gym_id  # noqa: E402
from standoff.sdk.rl_views import public_view  # noqa: E402
from standoff.server.plugins import load_registry  # noqa: E402


@pytest.fixture(scope="module")
def registry(installed):  # noqa: F811
    return load_registry()


def _positions(spec, matches, seed=0):
    """(state, decision) of the players' decisions along random matches."""
    engine = spec.game
    for m in range(matches):
        rng = random.Random(seed * 1000 + m)
        state = engine.new_state(spec.rules)
        while (decision := engine.decision(state)) is not None:
            if decision.role != "chance":
                yield state, decision
            engine.apply(state, decision.options[rng.randrange(len(decision.options))])


def test_the_plugin_game_gets_the_generic_tables(registry):
    assert registry.spec(GAME).rl is None
    spec = spec_for(GAME)
    assert spec.parts is None and isinstance(spec.encoder, GenericEncoder)
    assert spec.table.keys == tuple(sorted([f"prize:{k}" for k in range(1, 9)] + [f"card:{k}" for k in range(1, 9)]))
    assert len(action_table(GAME, options={"cards": "3"})) == 6  # the table follows the rules
    assert spec.observation_size == 2 + GenericEncoder.BUCKETS + 3 * (16 + 2)
    for state, decision in _positions(spec, 5):
        assert spec.mask(decision).sum() == len(decision.options)  # every key has an id


def test_the_generic_observation_reads_the_view_from_the_seat(registry):
    """Facts name roles from the observer (``@0`` me, ``@1`` the other), so both seats in mirror
    positions see the same facts; the vector is bounded and deterministic."""
    spec = spec_for(GAME)
    engine = spec.game
    state = engine.new_state(spec.rules)
    engine.apply(state, engine.decision(state).options[0])  # the first prize
    p1, p2 = engine.view(state, "p1"), engine.view(state, "p2")
    facts = spec.encoder.facts(p1)
    assert ".scores.@0=0" in facts and ".opponents.@1.bid_placed=false" in facts and ".hand[]=8" in facts
    assert facts == spec.encoder.facts(p2)
    a = spec.observe(p1)
    assert a.dtype == np.float32 and np.array_equal(a, spec.observe(p1))
    assert a.min() >= spec.LOW and a.max() <= spec.HIGH
    assert not np.array_equal(a, spec.observe(p2))  # the seat slice tells them apart
    assert a[spec.encoder.layout["recent0"]][spec.table.id("prize:1")] == 1.0


def test_the_generic_observation_is_unchanged_when_hidden_bids_are_redealt(registry):
    """The leak test on tensors and public views: re-deal what a seat cannot see (the other's
    pending bid); its observation and every seat's generic public view stay the same, and the
    re-deal matters (the bidder's observation changes)."""
    spec = spec_for(GAME)
    engine = spec.game
    checked = changed = 0
    for state, decision in _positions(spec, 20, seed=3):
        for role in spec.roles:
            other = engine.determinize(state, role, random.Random(checked))
            assert np.array_equal(spec.observe(engine.view(other, role)), spec.observe(engine.view(state, role)))
            for seat in spec.roles:
                public = public_view(spec, state, engine.view(state, seat))
                assert public_view(spec, other, engine.view(other, seat)) == public
                if any(bid is not None for bid in state.bids):  # a pending bid: the hands differ
                    assert "hand" not in public and "bid" not in public and "opponents" not in public
            bidder = next(r for r in spec.roles if r != role)
            changed += not np.array_equal(spec.observe(engine.view(other, bidder)), spec.observe(engine.view(state, bidder)))
            checked += 1
    assert checked > 100 and changed > 10, (checked, changed)


def test_the_generic_public_view_hides_a_pending_bid(registry):
    spec = spec_for(GAME)
    engine = spec.game
    state = engine.new_state(spec.rules)
    engine.apply(state, engine.decision(state).options[2])  # prize 3 up
    engine.apply(state, next(o for o in engine.decision(state).options if o.key == "card:5"))  # p1 bids 5
    view = engine.view(state, "p1")
    public = public_view(spec, state, view)
    assert view["history"][-1][3] == "card:5" and public["history"][-1] == [2, "p1", "bid", "hidden"]
    assert public["history"][0] == [1, "chance", "reveal", "prize:3"]
    assert public["prize"] == 3 and "card:5" not in json.dumps(public)


def test_pettingzoo_api_test_on_a_plugin_game(registry):
    from pettingzoo.test import api_test, seed_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its style advice: agent names, Dict observations
        api_test(StandoffAECEnv(GAME), num_cycles=500)
        api_test(StandoffAECEnv(GAME, options={"cards": "3"}), num_cycles=100)
    seed_test(lambda: StandoffAECEnv(GAME), num_cycles=200)


def test_gymnasium_against_the_plugins_own_bot(registry):
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    assert gym_id(GAME) == "standoff/Goofspiel-v0"
    env = gymnasium.make("standoff/Goofspiel-v0", opponent="goofspiel-greedy", seat="p2").unwrapped
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=4)
    done = False
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert reward in (-1.0, 0.0, 1.0) and info["termination"] == "points"
    with pytest.raises(ValueError, match="does not play goofspiel"):
        StandoffGymEnv(GAME, opponent="ts-heuristic")


def test_openspiel_random_sim_test_on_a_plugin_game(registry):
    pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is not installed (pip install 'standoff[rl]')")
    from standoff.sdk import rl_openspiel

    game = rl_openspiel.load(GAME)
    assert rl_openspiel.short_name(GAME) == "python_standoff_goofspiel"
    assert game.get_parameters() == {"ruleset": "standard", "cards": 8}  # a whole-number option: an int
    assert game.num_distinct_actions() == 16 and game.num_players() == 2
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    small = pyspiel.load_game("python_standoff_goofspiel", {"cards": 3})
    assert small.num_distinct_actions() == 6
    pyspiel.random_sim_test(small, num_sims=5, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(state.legal_actions()[0])  # p1's bid: p2 cannot see it
    other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(1) == state.information_state_string(1)
    assert other.observation_tensor(1) == state.observation_tensor(1)


def test_a_game_without_option_keys_is_refused_in_one_line(registry):
    from standoff_goofspiel.rules import Goofspiel

    from standoff.sdk import hookimpl

    class Keyless(Goofspiel):
        name = "keyless-goofspiel"
        option_keys = None

    class Plugin:
        @hookimpl
        def standoff_games(self):
            return [Keyless()]

    load_registry(entry_points=False, extra_plugins=[Plugin()])
    with pytest.raises(ValueError, match=r"no rl part and the game no option_keys\(rules\) method"):
        spec_for("keyless-goofspiel")
    with pytest.raises(ValueError, match="unknown game 'no-such-game'"):
        spec_for("no-such-game")
