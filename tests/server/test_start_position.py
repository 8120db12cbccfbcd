"""StartMatch with a start position (admin only): the match starts there and its record, served by
GetMatchRecord, carries the position and replays exactly; a bad position is INVALID_ARGUMENT with
the loader's one line; a non-admin token may not start matches at all."""

from __future__ import annotations

import json
import pathlib

import grpc
import pytest

from standoff.server.core.record import parse_record, replay
from standoff.server.games import get_game

POSITIONS = pathlib.Path(__file__).resolve().parent.parent / "positions"


def test_start_match_from_a_position_replays_from_it(server):
    text = (POSITIONS / "st" / "claim_proof_wedge.txt").read_text()
    response = server.start_match(["greedy", "random"], wait=True, start_position=text)
    record = parse_record(server.record(response.match_id).splitlines())
    position = record.header["position"]
    assert position["flags"][0]["sides"]["p1"] == ["red-8", "red-9", "red-10"]
    assert record.moves[0]["key"] == "flag:1"  # the first decision is the position's: p1's claim
    game = get_game("schotten-totten")
    final = replay(game, record)
    assert game.outcome(final).winner == record.footer["winner"]


def test_start_match_from_a_twilight_struggle_position(server):
    data = json.loads((POSITIONS / "ts" / "europe_control.json").read_text())
    response = server.start_match(["ts-heuristic", "random"], wait=True, game="twilight-struggle",
                                  start_position=json.dumps(data))
    assert response.summary.result.termination == "europe_control"


def test_a_bad_start_position_is_invalid_argument(server):
    with pytest.raises(grpc.RpcError) as caught:
        server.start_match(["greedy", "random"], start_position='{"game": "schotten-totten", "hands": {"p1": ["x9"]}}')
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details() == "start position: hands.p1[0]: unknown card 'x9' (cards are named like red-5 or alexander)"
    with pytest.raises(grpc.RpcError) as caught:
        server.start_match(["greedy", "random"], ruleset="classic",
                           start_position=(POSITIONS / "st" / "claim_proof_wedge.txt").read_text())
    assert "differ from the match's" in caught.value.details()


def test_start_positions_are_for_admins_only(server):
    token = server.tokens.add("alice")
    with pytest.raises(grpc.RpcError) as caught:
        server.start_match(["greedy", "random"], token=token,
                           start_position=(POSITIONS / "st" / "claim_proof_wedge.txt").read_text())
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED


def test_standoff_match_position_flag(server, capsys):
    from standoff.tournaments.cli import main

    path = POSITIONS / "st" / "breakthrough.txt"
    code = main(["match", "--address", server.address, "--token", server.admin, "--game", "schotten-totten",
                 "--bot", "greedy", "--bot", "random", "--position", str(path)])
    out = capsys.readouterr().out
    assert code == 0 and "p1 wins by breakthrough" in out
    assert main(["match", "--address", server.address, "--token", server.admin, "--game", "schotten-totten",
                 "--bot", "greedy", "--bot", "random", "--position", "missing.json"]) == 2
    assert "no position file 'missing.json'" in capsys.readouterr().err
