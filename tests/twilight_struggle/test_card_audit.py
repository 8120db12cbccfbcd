"""The card audit (scripts/card_audit.py): every one of the 110 cards has an event function (The
China Card excepted by design) and a test that *proves* it -- marked @proves, resolving the event
through the engine and asserting on its effect -- and docs/cards.md, the audit table, is current.
The other tests check the mechanism itself: a test that only names a card, stops half-way through
its event or calls the event function by hand proves nothing."""

from __future__ import annotations

import importlib.util
import json
import pathlib
import subprocess
import sys

import pytest
from kits import ts_positions as P
from kits.ts_positions import EventWatch, influence, keys, play, position, proves, run_event

from standoff.server.games.twilight_struggle import TwilightStruggle
from standoff.server.games.twilight_struggle.events import EVENTS, early_war
from standoff.server.games.twilight_struggle.game import STEPS
from standoff.server.games.twilight_struggle.state import USSR, TSState

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _audit():
    spec = importlib.util.spec_from_file_location("card_audit_under_test", ROOT / "scripts" / "card_audit.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


AUDIT = _audit()


def test_every_card_has_an_event_and_a_proving_test_and_the_table_is_current():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "card_audit.py"), "--check"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr


# -- run-time half: @proves and EventWatch -----------------------------------------------------


def at(**kw):
    kw.setdefault("hands", {"ussr": ["comecon"], "us": ["containment"]})
    kw.setdefault("rounds", 2)
    return position(**kw)


def test_proves_fails_a_test_that_only_names_the_card():
    @proves("fidel")
    def names_fidel():
        state = at(hands={"ussr": ["fidel", "comecon"]}, influence={"cuba": (2, 0)})
        play(state, "card:fidel")
        assert "use:event" in keys(state)  # about Fidel, but its event never happens

    with pytest.raises(AssertionError, match="never carried out"):
        names_fidel()


def test_proves_fails_an_event_left_half_way():
    @proves("socialist_governments")
    def stops_at_the_first_question():
        state = at(influence={"france": (3, 0), "italy": (2, 0)})
        run_event(state, "socialist_governments", "ussr", "country:france")  # 1 of 3 removals
        assert influence(state, "france") == (2, 0)

    with pytest.raises(AssertionError, match="began but was not resolved"):
        stops_at_the_first_question()


def test_proves_fails_an_event_function_called_by_hand():
    @proves("fidel")
    def calls_the_function():
        state = at(influence={"cuba": (2, 0)})
        early_war.fidel(state, USSR)  # not through the engine's event step
        assert influence(state, "cuba") == (0, 3)

    with pytest.raises(AssertionError, match="never carried out"):
        calls_the_function()


def test_proves_passes_a_resolved_event_and_logs_it(tmp_path, monkeypatch):
    log = tmp_path / "proofs.jsonl"
    monkeypatch.setenv(P.PROOF_LOG, str(log))

    @proves("fidel", 12)
    def resolves_both():
        state = at(influence={"cuba": (2, 0), "romania": (1, 1)})
        run_event(state, "fidel", "ussr")
        run_event(state, "romanian_abdication", "ussr")
        assert influence(state, "cuba") == (0, 3) and influence(state, "romania") == (0, 3)

    resolves_both()
    first = resolves_both.__wrapped__.__code__.co_firstlineno
    assert [json.loads(line) for line in log.read_text().splitlines()] == [
        # the lines of the test at which each event was resolved: the two run_event calls
        {"test": "test_card_audit::resolves_both", "cards": [8, 12], "lines": {"8": first + 3, "12": first + 4}}]


def test_a_failing_proving_test_logs_nothing(tmp_path, monkeypatch):
    log = tmp_path / "proofs.jsonl"
    monkeypatch.setenv(P.PROOF_LOG, str(log))

    @proves("fidel")
    def wrong_expectation():
        state = at(influence={"cuba": (2, 0)})
        run_event(state, "fidel", "ussr")
        assert influence(state, "cuba") == (2, 0)

    with pytest.raises(AssertionError):
        wrong_expectation()
    assert not log.exists()


def test_event_watch_counts_an_event_finished_on_a_copy_and_restores_the_engine():
    spec, steps, copy = EVENTS[7], TwilightStruggle.steps, TSState.copy
    with EventWatch([7]) as watch:
        state = at(influence={"france": (3, 0), "italy": (2, 0)})
        run_event(state, "socialist_governments", "ussr", "country:france")
        assert watch.started[7] == 1 and watch.resolved[7] == 0
        other = state.copy()
        play(other, "country:france", "country:italy")
        assert watch.resolved[7] == 1 and influence(other, "france") == (1, 0)
    assert EVENTS[7] is spec and TwilightStruggle.steps is steps is STEPS and TSState.copy is copy


def test_event_watch_counts_an_event_that_ends_the_match():
    with EventWatch([4]) as watch:
        state = at(defcon=2)
        run_event(state, "duck_and_cover", "us")
        assert state.outcome is not None
    assert watch.resolved[4] == 1


# -- static half: what the audit reads in a test's text ---------------------------------------

HEAD = """\
from kits.ts_positions import influence, keys, play, position, proves, run_event, step
from standoff.server.games.twilight_struggle import board as B
from standoff.server.games.twilight_struggle import map_data as M
"""


def scan(body: str):
    return {i.name: i for i in AUDIT.scan_source(HEAD + body, "test_example")}


def test_a_test_that_only_names_a_card_proves_nothing():
    infos = scan('''
def test_names():
    state = position()
    run_event(state, "fidel", "ussr")
    assert influence(state, "cuba") == (0, 3)
''')
    assert infos["test_names"].proves == () and infos["test_names"].names == {8}


def test_a_marked_test_asserting_only_on_options_does_not_qualify():
    infos = scan('''
@proves("socialist_governments")
def test_options():
    state = position()
    run_event(state, "socialist_governments", "ussr")
    assert keys(state) == ["country:uk"] and step(state) == "event_remove"
''')
    assert infos["test_options"].proves == (7,)
    assert any("no assert reads an effect" in p for p in infos["test_options"].problems)


def test_an_assert_before_the_engine_runs_does_not_count():
    infos = scan('''
@proves("fidel")
def test_early():
    state = position()
    assert influence(state, "cuba") == (0, 0)
    run_event(state, "fidel", "ussr")
''')
    assert infos["test_early"].problems


def test_effect_asserts_through_locals_and_module_helpers_count():
    infos = scan('''
def check(state):
    assert state.vp == -2

@proves("korean_war")
def test_helper():
    state = position()
    run_event(state, "korean_war", "ussr", "die:6")
    check(state)

@proves("fidel")
def test_local():
    state = position()
    run_event(state, "fidel", "ussr")
    us, ussr = influence(state, "cuba")
    assert ussr == 3
''')
    assert infos["test_helper"].problems == [] and infos["test_local"].problems == []


def test_scoring_cards_need_literal_numbers_not_the_scoring_function():
    infos = scan('''
@proves("africa_scoring")
def test_engine_expectation():
    state = position()
    us, ussr, _ = B.score_region(state, M.AFRICA)
    run_event(state, "africa_scoring", "us")
    assert state.vp == us - ussr

@proves("africa_scoring")
def test_computed_elsewhere():
    state = position()
    expected = 3
    run_event(state, "africa_scoring", "us")
    assert state.vp == expected

@proves("africa_scoring")
def test_by_hand(scoring="unused"):
    state = position()
    run_event(state, "africa_scoring", "us")
    assert state.vp == (6 + 5) - 1  # Control 6 + 5 battlegrounds, USSR Presence 1
''')
    assert any("score_region" in p for p in infos["test_engine_expectation"].problems)
    assert any("literal" in p for p in infos["test_computed_elsewhere"].problems)
    assert infos["test_by_hand"].problems == []  # a local name with "scor" in it is no engine code


def test_a_home_made_proves_does_not_qualify():
    infos = AUDIT.scan_source('''
def proves(*cards):
    return lambda f: f

@proves(8)
def test_fake():
    state = position()
    play(state, "card:fidel", "use:event")
    assert state.vp == 0
''', "test_example")
    assert any("not the one imported" in p for p in infos[0].problems)


def test_marks_must_name_cards_literally():
    infos = scan('''
CARD = 8

@proves(CARD, "no_such_card")
def test_indirect():
    state = position()
    run_event(state, "fidel", "ussr")
    assert state.vp == 0
''')
    assert any("not a literal card number or id" in p for p in infos["test_indirect"].problems)


def test_effect_lines_are_the_effect_asserts_and_the_calls_of_helpers_holding_one():
    infos = scan('''
def check(state):
    assert state.vp == -2

@proves("korean_war")
def test_lines():
    state = position()
    assert keys(state)
    run_event(state, "korean_war", "ussr", "die:6")
    assert influence(state, "south_korea") == (0, 1)
    check(state)
''')
    start = len(HEAD.splitlines())
    # the options assert (line 8) does not count; the influence assert and the helper call do
    assert infos["test_lines"].effect_lines == [start + 10, start + 11]
