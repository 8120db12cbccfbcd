"""The Twilight Struggle text outputs name and order the sides alike (issue 44): `standoff replay`'s
whole table, `replay --as SEAT`'s board and `replay --position N --notation` all write influence
USSR/US (the game's role order: ussr, us) and name the sides as the rulebook does (USSR, US)."""

from __future__ import annotations

import io
import re
from argparse import Namespace

import pytest

from standoff.server.games import get_game
from standoff.server.games.twilight_struggle import map_data as TM
from standoff.server.local import bot_seed, play_match
from standoff.server.plugins import load_registry
from standoff.server.records import write_record
from standoff.server.review import run_replay

GAME = get_game("twilight-struggle")
NAME_TO_ID = {c.name: c.id for c in TM.COUNTRIES}
CELL = re.compile(r"([A-Z][\w/ .'-]*?)\*? (\d+)/(\d+)(?: \[(USSR|US)\])?(?:,|$)")


@pytest.fixture(scope="module")
def record_file(tmp_path_factory):
    registry = load_registry(entry_points=False)
    rules = GAME.rules(None, {"end_turn": "3"})
    bots = {role: registry.make_bot("ts-heuristic", bot_seed(4, role), GAME.name) for role in rules.roles}
    record = play_match(GAME, rules, bots, 4, bot_names={r: "ts-heuristic" for r in rules.roles}, timing=False).record
    path = tmp_path_factory.mktemp("names") / "ts.jsonl"
    write_record(path, record)
    return path, len(record.moves)


def replay(path, **extra) -> str:
    args = Namespace(record=str(path), as_role=None, omniscient=False, start=1, step=False, quiet=False,
                     position=None, notation=False, keys=True)
    for key, value in extra.items():
        setattr(args, key, value)
    out = io.StringIO()
    assert run_replay(args, stdout=out) == 0
    return out.getvalue()


def board_at(text: str, number: int) -> list[str]:
    """The board printed under decision ``number``'s line (its own decision), unindented."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"[{number}] "))
    board = []
    for line in lines[start + 1:]:
        if not line.startswith("    ") or line.startswith("    prompt:"):
            break
        board.append(line[4:])
    return board


def influence_of_board(board: list[str]) -> dict[str, tuple[int, int]]:
    legend = board.index("influence USSR/US (* battleground, [side] in control):")
    found = {}
    for line in board[legend + 1:]:
        if not line.startswith("  "):
            break
        for name, ussr, us, _ in CELL.findall(line.split(": ", 1)[1]):
            found[NAME_TO_ID[name.strip()]] = (int(ussr), int(us))
    return found


def influence_of_notation(text: str) -> dict[str, tuple[int, int]]:
    line = next(x for x in text.splitlines() if x.startswith("influence:"))
    words = line.split(":", 1)[1].split("#", 1)[0].split()
    return {c: tuple(int(v) for v in pair.split("/")) for c, pair in zip(words[::2], words[1::2])
            if pair != "0/0"}


def test_replay_seat_replay_and_notation_agree_on_order_and_names(record_file):
    path, moves = record_file
    whole = replay(path)
    seats = {seat: replay(path, as_role=seat) for seat in ("ussr", "us")}
    compared = 0
    for number in range(40, moves, 37):
        role = re.search(rf"^\[{number}\] (\S+) ", whole, re.M)[1]
        if role == "chance":
            continue
        table, own = board_at(whole, number), board_at(seats[role], number)
        notation = replay(path, position=number, notation=True)
        influence = influence_of_notation(notation)
        assert influence_of_board(table) == influence == influence_of_board(own), number
        # the tracks line is the same, sides in role order with the rulebook's names
        tracks = next(x for x in table if x.startswith("VP "))
        assert tracks == next(x for x in own if x.startswith("VP "))
        assert re.fullmatch(r"VP [+-]\d+ \(\+ = US\)  DEFCON \d  military ops USSR \d US \d  space USSR \d US \d", tracks)
        assert re.search(r"^turn \d+, action round \d+, (USSR|US) phasing", table[0])
        assert table[0] == own[0].rsplit(", step ", 1)[0]
        # hands: the rulebook's names, the USSR first
        hands = [x.split(" hand", 1)[0] for x in table if " hand: " in x]
        assert hands == ["USSR", "US"]
        assert own[[i for i, x in enumerate(own) if " hand" in x][0]].startswith(f"{role.upper()} hand (yours): ")
        compared += 1
    assert compared >= 5
    # no lower-case role names or old markers in any board line
    for text in (whole, *seats.values()):
        boards = [line for line in text.splitlines() if line.startswith("    ")]
        assert not any(re.search(r"\*SU|\*US\b|hand of |other hand|milops", line) for line in boards)


@pytest.mark.parametrize(("seed", "reason"), [
    (1, "us (random) wins by held_scoring_card: USSR held a scoring card"),
    (2, "ussr (random) wins by defcon: DEFCON 1: nuclear war, US (phasing) loses"),
])
def test_outcome_reasons_name_the_sides_as_the_rulebook_does(capsys, seed, reason):
    """The reason is prose (the winner before it is the role id a user types with --as)."""
    from pathlib import Path

    from standoff.tournaments.cli import main

    position = Path(__file__).resolve().parents[1] / "positions" / "ts" / "coup_at_defcon_2.txt"
    assert main(["play", "twilight-struggle", "--bot", "random", "--bot", "random", "--seed", str(seed),
                 "--position", str(position)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == reason
