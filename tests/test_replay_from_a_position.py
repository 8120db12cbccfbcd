"""A replay says when its match started from a position (issue 44): the title line names it,
with where in the match the record's header puts it; a match dealt from the start says nothing."""

from __future__ import annotations

from pathlib import Path

from standoff.server.review import start_note
from standoff.tournaments.cli import main

POSITIONS = Path(__file__).resolve().parent / "positions"


def test_the_title_says_the_match_started_from_a_position(tmp_path, capsys):
    cases = [("twilight-struggle", POSITIONS / "ts" / "coup_at_defcon_2.txt", "(turn 2, action round 3, us phasing)"),
             ("schotten-totten", POSITIONS / "st" / "claim_wedge_threat.txt", "(turn 5, p2 to move)")]
    for game, source, where in cases:
        record = tmp_path / f"{game}.jsonl"
        assert main(["play", game, "--bot", "random", "--bot", "random", "--seed", "3", "--position", str(source),
                     "--record", str(record)]) == 0
        for seat in ([], ["--as", "us" if game == "twilight-struggle" else "p1"]):
            capsys.readouterr()
            assert main(["replay", str(record), "--quiet", *seat]) == 0
            title = capsys.readouterr().out.splitlines()[0]
            assert title.endswith(f": ussr random vs us random, from a position {where}" if game == "twilight-struggle"
                                  else f": p1 random vs p2 random, from a position {where}"), title


def test_a_dealt_match_says_nothing_of_positions(tmp_path, capsys):
    record = tmp_path / "st.jsonl"
    assert main(["play", "schotten-totten", "--bot", "random", "--bot", "random", "--seed", "3",
                 "--record", str(record)]) == 0
    capsys.readouterr()
    assert main(["replay", str(record), "--quiet"]) == 0
    assert "position" not in capsys.readouterr().out.splitlines()[0]
    assert start_note({"game": "schotten-totten"}) is None
    assert start_note({"position": {"game": "x"}}) == "from a position"
