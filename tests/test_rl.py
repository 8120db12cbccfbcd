"""The RL bridges (standoff.sdk.rl, rl_envs, rl_openspiel; docs/training.md): the frameworks' own
checks (PettingZoo's api_test, Gymnasium's check_env, OpenSpiel's random simulation test), the
action tables' completeness, observations free of leaks, and the policy → Bot adapter."""

from __future__ import annotations

import os
import random
import warnings

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from standoff.sdk.rl import PolicyBot, action_table, spec_for  # noqa: E402
from standoff.sdk.rl_envs import StandoffAECEnv, StandoffGymEnv  # noqa: E402

LONG = os.environ.get("STANDOFF_LONG") == "1"
ST_RULESETS = ("battle_line", "classic", "three_player")
GAMES = [("schotten-totten", r) for r in ST_RULESETS] + [("twilight-struggle", "deluxe")]


def _positions(game: str, ruleset: str, matches: int, every: int, seed: int = 0):
    """(state, decision) of players' decisions along random matches (every ``every``-th)."""
    spec = spec_for(game, ruleset)
    engine = spec.game
    for m in range(matches):
        rng = random.Random(seed * 1000 + m)
        state = engine.new_state(spec.rules)
        n = 0
        while (decision := engine.decision(state)) is not None:
            if decision.role != "chance":
                n += 1
                if n % every == 0:
                    yield spec, state, decision
            engine.apply(state, decision.options[rng.randrange(len(decision.options))])


# -- action tables ---------------------------------------------------------------------------------


def test_action_tables_are_sorted_and_stable():
    for game in ("schotten-totten", "twilight-struggle"):
        table = action_table(game)
        assert list(table.keys) == sorted(table.keys)
        assert all(table.id(k) == i for i, k in enumerate(table.keys))
    assert len(action_table("schotten-totten")) == 87
    assert action_table("schotten-totten").keys[:2] == ("card:alexander", "card:blue-1")


def test_every_literal_event_choice_of_twilight_struggle_has_an_action_id():
    """The words of the engine's ``ask(state, side, name, keys)`` calls (events/*.py): every
    string literal among the keys is in the table as ``choice:<word>``, so choices that random
    matches rarely reach are covered too."""
    import ast
    import pathlib

    import standoff.server.games.twilight_struggle as ts

    table = action_table("twilight-struggle")
    words = set()
    for path in sorted((pathlib.Path(ts.__file__).parent / "events").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ask" and len(node.args) >= 4:
                parts = {id(c) for f in ast.walk(node.args[3]) if isinstance(f, ast.JoinedStr) for c in ast.walk(f)}
                words |= {c.value for c in ast.walk(node.args[3])
                          if isinstance(c, ast.Constant) and isinstance(c.value, str) and id(c) not in parts}
    assert len(words) > 15
    assert sorted(w for w in words if f"choice:{w}" not in table.index) == []


@pytest.mark.parametrize(("game", "ruleset"), GAMES)
def test_every_option_of_random_matches_has_an_action_id(game, ruleset):
    matches = {"twilight-struggle": 300 if LONG else 40}.get(game, 200 if LONG else 30)
    spec = spec_for(game, ruleset)
    engine = spec.game
    for m in range(matches):
        rng = random.Random(m)
        state = engine.new_state(spec.rules)
        while (decision := engine.decision(state)) is not None:
            ids = spec.table.ids(decision.options)  # UnknownAction if a key is missing
            assert len(set(ids)) == len(ids), decision.step
            engine.apply(state, decision.options[rng.randrange(len(decision.options))])


# -- observations: from the view only -----------------------------------------------------------------


@pytest.mark.parametrize(("game", "ruleset"), GAMES)
def test_observation_unchanged_when_hidden_cards_are_redealt(game, ruleset):
    """The leak test of views, on tensors: re-deal everything a seat cannot see
    (``game.determinize``); its observation must not change. And the re-deal must matter: the
    other seats' observations do change in some of these positions."""
    matches, every = {"twilight-struggle": (8, 7)}.get(game, (12, 3))
    if LONG:
        matches *= 10
    checked = changed = 0
    for spec, state, _decision in _positions(game, ruleset, matches, every, seed=7):
        engine = spec.game
        for role in spec.roles:
            before = spec.observe(engine.view(state, role))
            for k in range(2):
                other = engine.determinize(state, role, random.Random(checked * 3 + k))
                assert np.array_equal(spec.observe(engine.view(other, role)), before), (game, role)
                checked += 1
                for seen_by in spec.roles:
                    if seen_by != role and not np.array_equal(
                        spec.observe(engine.view(other, seen_by)), spec.observe(engine.view(state, seen_by))
                    ):
                        changed += 1
                        break
    assert checked > 100
    assert changed > checked // 10, (checked, changed)


def _ts_names(cards):
    from standoff.server.games.twilight_struggle.game import card_name

    return {card_name(c) for c in cards}


def test_seat_memory_is_the_engines_knowledge_of_the_other_hand():
    """What a Twilight Struggle seat's observer remembers of the other hand, read from its own
    views with only their new history, is the engine's record (``TSState.known``, which its
    ``determinize`` keeps): at every decision, for both seats, over whole random matches."""
    spec = spec_for("twilight-struggle", "deluxe")
    engine = spec.game
    checked = knowing = reveals = 0
    for seed in range(12 if not LONG else 120):
        rng = random.Random(seed)
        state = engine.new_state(spec.rules)
        observers = {role: spec.observer(role) for role in spec.roles}
        applied = 0
        while (decision := engine.decision(state)) is not None:
            engine.apply(state, decision.options[rng.randrange(len(decision.options))])
            applied += 1
            for side, role in enumerate(spec.roles):
                observer = observers[role]
                view = engine.view(state, role, observer.history_from(applied))
                observer.observe(view)
                reveals += sum(e[2] in ("reveal_hand", "reveal_scoring_cards") and e[1] != role
                               and e[0] == applied for e in view["history"])
                assert set(observer.known()) == _ts_names(state.known[1 - side]), (seed, applied, role)
                checked += 1
                knowing += bool(observer.known())
    assert checked > 3000 and reveals > 5 and knowing > 200, (checked, reveals, knowing)


def _cambridge_five_shown(seeds=range(200)):
    """A random match played until the USSR's The Cambridge Five shows the US hand's scoring
    cards (at least one): (engine state, the keys played, the cards shown)."""
    spec = spec_for("twilight-struggle", "deluxe")
    engine = spec.game
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.new_state(spec.rules)
        keys = []
        while (decision := engine.decision(state)) is not None:
            option = decision.options[rng.randrange(len(decision.options))]
            engine.apply(state, option)
            keys.append(option.key)
            new = engine.view(state, "ussr", len(keys) - 1)["history"]
            played = any(e[1] == "ussr" and e[3] == "card:the_cambridge_five" for e in new)
            for entry in new:
                if played and entry[2] == "reveal_scoring_cards" and entry[3] != "hand:":
                    return state, keys, entry[3][len("hand:"):].split(",")
    raise AssertionError("no match of these seeds plays The Cambridge Five with a scoring card in the US hand")


def test_the_cambridge_five_reveal_is_in_the_ussr_observation():
    """The USSR plays The Cambridge Five while the US holds a scoring card: the USSR's observation
    shows the card in the other hand (the view's ``opponent_hand`` lists nothing: the reveal is in
    the history), for as long as the US holds it; the US's observation does not change by it."""
    spec = spec_for("twilight-struggle", "deluxe")
    engine = spec.game
    state, keys, shown = _cambridge_five_shown()
    other_hand = spec.encoder.layout["opponent_hand"]
    index = spec.encoder.card_index
    view = engine.view(state, "ussr")
    assert view["opponent_hand"] == [] and shown
    ussr = spec.observe(view)
    assert all(ussr[other_hand][index[c]] == 1.0 for c in shown)
    assert ussr[other_hand].sum() == len(_ts_names(state.known[1]))
    us_hand = spec.encoder.layout["hand"]
    assert all(spec.observe(engine.view(state, "us"))[us_hand][index[c]] == 1.0 for c in shown)
    # the same along the rest of the match, with an observer reading only new history: each card
    # stays there until it leaves the US hand (a secret headline may be it: kept till the reveal)
    observer = spec.observer("ussr")
    observer.observe(view)
    rng = random.Random(1)
    held, left = set(shown), 0
    while held and (decision := engine.decision(state)) is not None:
        engine.apply(state, decision.options[rng.randrange(len(decision.options))])
        keys.append(decision)
        obs = observer.observe(engine.view(state, "ussr", observer.history_from(len(keys))))
        there = _ts_names(state.hands[1]) | _ts_names([state.headline[1]] if state.headline[1] else [])
        for card in sorted(held):
            assert obs[other_hand][index[card]] == (card in there), card
            if card not in there:
                held.discard(card)
                left += 1
    assert left or engine.decision(state) is None


def test_a_seat_observer_refuses_a_view_that_skips_history():
    spec = spec_for("twilight-struggle", "deluxe")
    engine = spec.game
    state, keys, _ = _cambridge_five_shown()
    with pytest.raises(ValueError, match="history_from"):
        spec.observe(engine.view(state, "ussr", len(keys) - 2))


def test_observation_is_deterministic_and_bounded():
    for game, ruleset in GAMES:
        for spec, state, decision in _positions(game, ruleset, 2, 5):
            view = spec.game.view(state, decision.role)
            a, b = spec.observe(view), spec.observe(view)
            assert a.dtype == np.float32 and a.shape == (spec.observation_size,)
            assert np.array_equal(a, b)
            assert a.min() >= spec.LOW and a.max() <= spec.HIGH
            mask = spec.mask(decision)
            assert mask.sum() == len(decision.options)


# -- the frameworks' own checks ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "ruleset"), GAMES)
def test_pettingzoo_api_test(game, ruleset):
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its style advice: agent names, Dict observations
        api_test(StandoffAECEnv(game, ruleset=ruleset), num_cycles=2000)


def test_pettingzoo_seed_test_and_full_matches():
    from pettingzoo.test import seed_test

    seed_test(lambda: StandoffAECEnv("schotten-totten", ruleset="classic"), num_cycles=500)
    env = StandoffAECEnv("twilight-struggle")
    for seed in range(3):
        env.reset(seed=seed)
        rng = random.Random(seed)
        final = {}
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                final[agent] = reward
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        assert sorted(final.values()) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize(("game", "opponent"), [("schotten-totten", "random"), ("schotten-totten", "greedy"),
                                                ("twilight-struggle", "ts-heuristic")])
def test_gymnasium_check_env(game, opponent):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(StandoffGymEnv(game, opponent=opponent), skip_render_check=True)


def test_gymnasium_make_by_id():
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("standoff/SchottenTotten-v0", ruleset="classic", opponent="greedy", seat="p2")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(env.unwrapped, skip_render_check=True)
    obs, info = env.reset(seed=0)
    assert info["role"] == "p2" and obs["action_mask"].sum() > 0
    assert gymnasium.make("standoff/TwilightStruggle-v0").unwrapped.rl.game.name == "twilight-struggle"


def test_gymnasium_episodes_are_seeded_and_end_with_the_outcome():
    env = StandoffGymEnv("schotten-totten", ruleset="classic", opponent="greedy")

    def episode(seed):
        obs, info = env.reset(seed=seed)
        rng = random.Random(seed)
        trace = [info["role"]]
        while True:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            obs, reward, done, truncated, info = env.step(action)
            trace.append(action)
            if done:
                return trace, reward, info

    first = episode(3)
    assert episode(3) == first
    assert first[1] in (-1.0, 0.0, 1.0) and first[2]["termination"]
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    assert env.step(illegal)[1:3] == (-1.0, True)


def test_gymnasium_step_after_the_end_names_reset():
    """``step()`` once the episode has ended (by the outcome, or by an illegal action) or before
    any ``reset()`` is a clear ``RuntimeError`` naming ``reset()``, not an AttributeError."""
    env = StandoffGymEnv("schotten-totten", ruleset="classic", opponent="random")
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        env.step(0)
    obs, _ = env.reset(seed=2)
    rng = random.Random(2)
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        obs, _, done, _, _ = env.step(int(legal[rng.randrange(len(legal))]))
    assert obs["action_mask"].sum() == 0
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    obs, _ = env.reset(seed=3)
    assert env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))[2] is True  # illegal: the end
    with pytest.raises(RuntimeError, match=r"reset\(\)"):
        env.step(0)
    obs, _ = env.reset(seed=3)  # and a reset starts again
    assert obs["action_mask"].sum() > 0


# -- the policy → Bot adapter --------------------------------------------------------------------------------


def test_policy_bot_plays_matches_like_a_bot():
    from standoff.server.local import play_match

    seen = []

    def first_legal(obs, mask):
        seen.append(obs.shape)
        return int(np.flatnonzero(mask)[0])

    for game, ruleset in (("schotten-totten", "classic"), ("twilight-struggle", "deluxe")):
        spec = spec_for(game, ruleset)
        bots = {spec.roles[0]: PolicyBot(first_legal, game, ruleset=ruleset),
                spec.roles[1]: PolicyBot(first_legal, game, ruleset=ruleset, name="second")}
        result = play_match(spec.game, spec.rules, bots, seed=5)
        assert result.outcome.rated, result.outcome
        assert all(b.fallbacks == 0 for b in bots.values())
    assert seen and len(set(seen)) == 2


def test_policy_bot_counts_an_illegal_answer_as_a_fallback():
    from standoff.server.local import play_match

    spec = spec_for("schotten-totten", "classic")
    bad = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]), "schotten-totten", ruleset="classic")
    from standoff.bots import RandomBot

    result = play_match(spec.game, spec.rules, {"p1": bad, "p2": RandomBot(1)}, seed=2)
    assert result.outcome.rated and bad.fallbacks > 0


def test_policy_bot_sees_what_the_environment_gives_the_agent():
    """The observation a PolicyBot builds from its wire-decoded view (the SDK's typed view,
    history completed by its history book) is the one the engine's view gives the environments."""
    from standoff.server.local import play_match

    for game, ruleset in (("schotten-totten", "battle_line"), ("twilight-struggle", "deluxe")):
        spec = spec_for(game, ruleset)
        engine = spec.game
        env_obs, bot_obs = [], []

        def before_decision(state):
            decision = engine.decision(state)
            env_obs.append(spec.observe(engine.view(state, decision.role)))
            return False

        def record(obs, mask, rng):
            bot_obs.append(obs.copy())
            legal = np.flatnonzero(mask)
            return int(legal[rng.randrange(len(legal))])

        bots = {role: PolicyBot(record, game, ruleset=ruleset, sample=True, seed=i) for i, role in enumerate(spec.roles)}
        result = play_match(engine, spec.rules, bots, seed=9, until=before_decision)
        assert result.outcome.rated
        assert len(bot_obs) == len(env_obs) > 20
        assert all(np.array_equal(a, b) for a, b in zip(env_obs, bot_obs))


# -- the example and the benchmark ----------------------------------------------------------------------------

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def test_training_example_runs_and_enters_a_tournament(tmp_path):
    """examples/train_schotten_totten.py --quick: a tiny training, the evaluation, and the
    tournament with the agent as a plugin bot (the full run, with its ≥ 90% against random, runs
    with STANDOFF_LONG=1)."""
    import subprocess
    import sys

    args = [] if LONG else ["--quick"]
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "train_schotten_totten.py"), *args,
                          "--out", str(tmp_path)], capture_output=True, text=True, timeout=1200)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    assert "Traceback" not in out.stderr
    import json

    trained = json.loads((tmp_path / "st_agent.json").read_text())
    assert len(trained["weights"]) == 14
    if LONG:
        assert trained["win_rate_vs_random"] >= 0.9
    results = (tmp_path / "st-agent" / "results.jsonl").read_text().splitlines()
    assert results and any("st-agent" in line for line in results)


def test_rl_benchmark_runs():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_rl_env.py"), "--seconds", "0",
                          "--only", "raw,pettingzoo,gym"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.count("\n") == 1 + 3 * 3


def test_policy_bot_plays_over_grpc(tmp_path):
    """The same PolicyBot as a remote SDK bot: it connects with a token and plays a match against
    greedy through a real referee (views decoded by the SDK, history completed by its book)."""
    from kits.server import ServerThread

    from standoff.sdk.client import run_in_thread

    server = ServerThread(tmp_path).start()
    try:
        token = server.tokens.add("agent")
        bot = PolicyBot(lambda obs, mask: int(np.flatnonzero(mask)[-1]), "schotten-totten", name="agent")
        thread, box = run_in_thread(bot, server.address, token, matches=1)
        response = server.start_match(["greedy", "remote:agent"], seed=4, wait=True, ruleset="classic")
        thread.join(60)
        assert box and box[0].match_id == response.match_id and box[0].rated
        assert bot.fallbacks == 0 and bot.spec.rules.ruleset == "classic"
    finally:
        server.stop()
