"""Position input mistakes are one clear line (issue 44): unknown top-level fields are errors
(as the schema says), ``--position ""`` is an error rather than the deal, an inline text's error
does not echo the text, and an effect's unknown card says what effects take (card numbers)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from standoff.server.positions import PositionError, from_position, to_position
from standoff.tournaments.cli import main

POSITIONS = Path(__file__).resolve().parent / "positions"
TS_TEXT = (POSITIONS / "ts" / "coup_at_defcon_2.txt").read_text()
FILES = {"schotten-totten": POSITIONS / "st" / "mud_discard.json", "twilight-struggle": POSITIONS / "ts" / "europe_control.json"}


@pytest.mark.parametrize("game", ["schotten-totten", "twilight-struggle"])
def test_an_unknown_top_level_field_is_an_error_naming_it(game):
    data = to_position(from_position(game, FILES[game].read_text()), game)  # every field
    from_position(game, data)  # every field a position is written with is known
    with pytest.raises(PositionError) as caught:
        from_position(game, {**data, "zzz_extra": 1})
    assert str(caught.value).startswith("zzz_extra: unknown field") and "\n" not in str(caught.value)
    with pytest.raises(PositionError, match=r"^turm: unknown field \(did you mean 'turn'\?\)$"):
        from_position(game, {"game": game, "turm": 3})


def test_an_unknown_field_in_a_file_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "p.json"
    data = json.loads((POSITIONS / "ts" / "europe_control.json").read_text())
    path.write_text(json.dumps({**data, "defcom": 3}))
    assert main(["play", "twilight-struggle", "--bot", "random", "--bot", "random", "--position", str(path)]) == 2
    err = capsys.readouterr().err
    assert err == f"standoff: error: {path}: defcom: unknown field (did you mean 'defcon'?)\n"


@pytest.mark.parametrize("empty", ["", "  "])
def test_an_empty_position_is_an_error_not_the_deal(tmp_path, capsys, empty):
    record = tmp_path / "m.jsonl"
    argv = ["play", "schotten-totten", "--bot", "random", "--bot", "random", "--position", empty, "--record", str(record)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("standoff: error: --position: empty") and captured.err.count("\n") == 1
    assert captured.out == "" and not record.exists()  # nothing played


def test_an_inline_text_error_is_one_line_without_the_text(capsys):
    """... and names the line as an editor numbers it (comment lines count)."""
    assert TS_TEXT.splitlines()[4].startswith("vp: 0")
    bad = TS_TEXT.replace("vp: 0", "vp: zz")
    assert main(["play", "twilight-struggle", "--bot", "random", "--bot", "random", "--position", bad]) == 2
    err = capsys.readouterr().err
    assert err == "standoff: error: --position: notation line 5 (vp): expected a whole number, got 'zz'\n"


def test_an_inline_position_is_named_so_in_the_summary(capsys):
    assert main(["play", "twilight-struggle", "--bot", "random", "--bot", "random", "--seed", "3",
                 "--position", TS_TEXT]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(": ussr random vs us random, from a position given inline")


def test_an_effects_unknown_card_says_effects_take_numbers(capsys):
    assert main(["play", "twilight-struggle", "--bot", "random", "--bot", "random",
                 "--position", TS_TEXT + "effects: 999\n"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "named by id" not in err
    assert "--position: effects[0].card: unknown card 999 (an effect names its card by number, 1 to 110" in err
    assert " 31 " in err.split("lasting effect:")[1] + " "  # Red Scare/Purge has one
    with pytest.raises(PositionError, match=r"^effects\[0\]\.card: unknown card 'nato2' \(an effect names its card by number"):
        from_position("twilight-struggle", {"game": "twilight-struggle", "effects": [{"card": "nato2"}]})
