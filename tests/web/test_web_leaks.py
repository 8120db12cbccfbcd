"""THE LEAK TEST of the web face: while a match is being played, every HTTP response the face
gives about it (pages, their scripts, the JSON API, the event streams) holds nothing hidden: no
card of either hand, no deck order, not the seed, no record line (no deal key). Modelled on the
wire leak test (tests/reliability/test_security_limits.py): property style, the hidden cards are
re-dealt (the game's ``determinize``, for each seat) and what a spectator is served does not
change; plus direct string checks on the bytes served, which are first shown to be able to see
a leak (the same checks find the hands in the record and the omniscient page).

The match is a Twilight Struggle match between a remote seat the test plays at its own pace and
``ts-heuristic``: held mid-game (the remote seat's decision unanswered), so the state served is
the state checked; then again later, and for Schotten Totten too.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from kits.web import PacedSeat, first_events, get, patient, web_server

from standoff.server.core.record import parse_record, replay_steps
from standoff.server.games.twilight_struggle.card_data import CARD_BY_NUMBER
from standoff.server.plugins import load_registry
from standoff.tournaments.html import html_board
from standoff.tournaments.web_live import LiveBoard
from standoff.tournaments.web_pages import live_script

REGISTRY = load_registry(entry_points=False)


def _responses(url: str, match_id: str) -> dict[str, str]:
    """Every response the web face gives that is about the match in play, by name."""
    out = {}
    for path, params in (("", {}), ("", {"sections": "1"}), ("matches", {}), (f"matches/{match_id}", {}),
                         ("api/standings", {}), ("api/matches", {"state": "playing"}),
                         ("api/matches", {"state": "finished"}), (f"api/matches/{match_id}", {}),
                         (f"api/matches/{match_id}/live", {})):
        response = get(url + path, **params)
        assert response.status_code == 200, (path, response.text[:300])
        out[f"/{path}?{params}"] = response.text
    events = first_events(url + f"api/matches/{match_id}/events", 1)
    out["events"] = json.dumps(events)
    out["front events"] = json.dumps(first_events(url + "api/events", 1))
    return out


def _state_now(game, record_path):
    """The record written so far (complete lines) and the state it replays to."""
    text = record_path.read_text(encoding="utf-8")
    record = parse_record(text[:text.rfind("\n") + 1].splitlines())
    state = None
    for step in replay_steps(game, record):
        state = step.state
    return record, state


def _dynamic(page: str, game_name: str) -> str:
    """A page without its static parts, each checked to be the game's and the same for every
    match (the board's data island: the map and every card's text; the script: the live
    page's code with the game's board script)."""
    board = html_board(game_name)
    found = re.search(r'<script type="application/json" id="board-data">(.*?)</script>', page, re.S)
    if found:
        assert json.loads(found.group(1)) == json.loads(json.dumps(board.data()))
        page = page.replace(found.group(0), "")
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    for script in scripts:
        assert script == live_script(board.script if board else "") or "EventSource(\"/api/events\")" in script
        page = page.replace(script, "")
    return page


def _hidden_from_all(game, state, hands: dict[str, set[str]], others: set[str] = frozenset()) -> set[str]:
    """The cards of ``hands`` (by role) that another seat does not see, and of ``others`` (the
    deck) those no seat sees: a card a seat's view names (in its history too) is not hidden
    from it (e.g. a card being played, announced but not yet out of the hand)."""
    seen = {role: json.dumps(game.view(state, role)) for role in state.rules.roles}

    def named(card: str, role: str) -> bool:
        return re.search(rf'[":]{re.escape(card)}"', seen[role]) is not None

    hidden = {card for role, cards in hands.items() for card in cards
              if not all(named(card, other) for other in state.rules.roles if other != role)}
    return hidden | {card for card in others if not any(named(card, role) for role in state.rules.roles)}


def _hidden_cards_ts(game, state) -> set[str]:
    hands = {role: set(game.view(state, role)["hand"]) - {"the_china_card"} for role in state.rules.roles}
    return _hidden_from_all(game, state, hands, {CARD_BY_NUMBER[n].id for n in state.deck})


def _check_strings(responses: dict[str, str], game_name: str, record, hidden: set[str]) -> None:
    seed = str(record.header["seed"])
    for name, text in responses.items():
        assert seed not in text, (name, "the seed")
        assert '"type":"decision"' not in text and '"type": "decision"' not in text, (name, "a record line")
        assert '"type":"header"' not in text, (name, "the record's header")
        dynamic = _dynamic(text, game_name) if text.lstrip().startswith("<!DOCTYPE") else text
        for card in hidden:
            assert not re.search(rf"(?<![A-Za-z0-9_-]){re.escape(card)}(?![A-Za-z0-9_-])", dynamic), (name, card)
    # the deal lines of the record name the cards dealt: none still hidden is served as a key
    dealt = [move["key"] for move in record.moves if move["role"] == "chance" and move["step"] == "deal"]
    assert dealt
    for key in dealt:
        if key.split(":", 1)[1] in hidden:
            assert all(f'{key}"' not in text for text in responses.values()), key  # (green-1 is not green-10)


def _check_redeals(game, record_path, served_live: dict) -> None:
    """The spectator's snapshot is the same whatever the hidden cards are (both seats' re-deals)."""
    board = LiveBoard(record_path)
    board.advance()
    snapshot = board.snapshot()
    assert {**snapshot, "match_id": served_live["match_id"]} == served_live  # what was served
    determinize = game.determinize
    rng = random.Random(5)
    real = board.state
    changed = 0
    for role in real.rules.roles:
        for _ in range(3):
            board.state = determinize(real, role, rng)
            changed += json.dumps(game.view(board.state, role), sort_keys=True) != json.dumps(
                game.view(real, role), sort_keys=True) or board.state is not real
            assert board.snapshot() == snapshot, role
    board.state = real
    assert changed  # the re-deals did deal other cards


@pytest.fixture
def served(tmp_path):
    server, url = web_server(tmp_path)
    yield server, url
    server.stop()


def test_twilight_struggle_in_play_leaks_nothing_over_http(served):
    server, url = served
    game = REGISTRY.game("twilight-struggle")
    seat = PacedSeat(server, "watched", seed=3)
    match_id = server.start_match(["remote:watched", "ts-heuristic"], game="twilight-struggle", seed=2024,
                                  **patient()).match_id
    path = server.data_dir / "records" / f"{match_id}.jsonl"
    checked = 0
    for answer in (12, 30):  # mid-turn 1, then later
        seat.play(answer)
        if seat.wait_for_decision() is None:
            break
        record, state = _state_now(game, path)
        hidden = _hidden_cards_ts(game, state)
        assert len(hidden) > 8
        responses = _responses(url, match_id)
        # the checks can see a leak: the record names the seed and every card in a hand
        omniscient = path.read_text()
        assert str(record.header["seed"]) in omniscient
        hands = {card for role in ("ussr", "us") for card in game.view(state, role)["hand"]} - {"the_china_card"}
        assert hands and all(f"card:{card}" in omniscient for card in hands)
        _check_strings(responses, "twilight-struggle", record, hidden)
        _check_redeals(game, path, json.loads(responses[f"/api/matches/{match_id}/live?{{}}"]))
        checked += 1
    assert checked == 2
    seat.finish()
    seat.close()


def test_schotten_totten_in_play_leaks_nothing_over_http(served):
    server, url = served
    game = REGISTRY.game("schotten-totten")
    seat = PacedSeat(server, "watched", seed=4)
    match_id = server.start_match(["greedy", "remote:watched"], seed=2025, **patient()).match_id
    path = server.data_dir / "records" / f"{match_id}.jsonl"
    seat.play(9)
    assert seat.wait_for_decision() is not None
    record, state = _state_now(game, path)
    hands = _hidden_from_all(game, state, {role: set(game.view(state, role)["hand"]) for role in state.rules.roles})
    assert len(hands) >= 12
    responses = _responses(url, match_id)
    _check_strings(responses, "schotten-totten", record, hands)
    _check_redeals(game, path, json.loads(responses[f"/api/matches/{match_id}/live?{{}}"]))
    seat.finish()
    seat.close()
