"""``standoff replay`` of a Twilight Struggle record tells the match (issue 44, item 1 in the text
replay): the story by default (chapters, sentences with the number of their decision in a
margin), from the same :class:`~standoff.server.story.Story` as the report's pages (one
renderer), as a seat saw it with ``--as``; ``--from``, ``--quiet`` and ``--step`` keep working;
``--keys`` prints the decisions' keys, boards and options as before."""

from __future__ import annotations

import argparse
import functools
import io
import re

import pytest

from standoff.server.games.twilight_struggle.spec import GAME
from standoff.server.local import play_match
from standoff.server.plugins import load_registry
from standoff.server.records import write_record
from standoff.server.review import interactive, replay_lines, run_replay, screen, review
from standoff.server.review_story import story_lines, story_of


@functools.cache
def record():
    registry = load_registry(entry_points=False)
    bots = {role: registry.make_bot("ts-heuristic", 7 * 7 + i, GAME.name) for i, role in enumerate(("ussr", "us"))}
    return play_match(GAME, GAME.rules(), bots, 7).record


@pytest.fixture
def record_file(tmp_path):
    path = tmp_path / "ts.jsonl"
    write_record(path, record())
    return path


def args(path, **extra) -> argparse.Namespace:
    values = dict(record=str(path), as_role=None, omniscient=False, start=1, step=False, quiet=False, keys=False)
    values.update(extra)
    return argparse.Namespace(**values)


def printed(path, **extra) -> str:
    out = io.StringIO()
    assert run_replay(args(path, **extra), stdout=out) == 0
    return out.getvalue()


def unwrapped(text: str) -> str:
    """The replay's text with its margins and line breaks gone (sentences on one line)."""
    return re.sub(r"\s+", " ", re.sub(r"^ *\d* {2}", "", text, flags=re.M))


def test_the_default_replay_is_the_story_with_decision_numbers(record_file):
    text = printed(record_file)
    lines = text.splitlines()
    assert lines[0].startswith("twilight-struggle (deluxe) seed 7: ussr ts-heuristic vs us ts-heuristic")
    assert "Turn 1 · Headline" in lines and "Turn 1 · Action round 1" in lines and "Final scoring" in lines
    assert not re.search(r"^\[\d+\] ", text, flags=re.M)  # no key lines
    assert re.search(r"^ {4}34 {2}USSR plays Nuclear Test Ban \(4\) for Ops \(influence\)\.$", text, flags=re.M)
    # one renderer: every sentence and detail of the story is in the replay, in order
    story = story_of(GAME, record())
    flat = unwrapped(text)
    position = 0
    for line in story.lines:
        for sentence in (line.text, *line.detail):
            found = flat.find(sentence, position)
            assert found >= 0, sentence
            position = found
    assert "final position:" in text and text.rstrip().endswith("final scoring: US ahead by 17 VP")


def test_story_lines_wrap_to_the_terminal_and_number_each_decision_once():
    story = story_of(GAME, record())
    lines = list(story_lines(story))
    assert all(len(line) <= 100 for line in lines)
    numbers, chapter = [], None
    for line in lines:
        if line and not line.startswith(" "):
            chapter = line
        elif m := re.match(r"^ *(\d+)  \S", line):
            numbers.append((chapter, int(m.group(1))))
    # in order, each number once under a chapter (the last decision of a turn opens its end's
    # chapter: its number is repeated under that title)
    assert [n for _, n in numbers] == sorted(n for _, n in numbers) and len(numbers) == len(set(numbers))
    assert {n for _, n in numbers} == {line.number for line in story.lines}


def test_quiet_from_and_as_a_seat(record_file):
    quiet = printed(record_file, quiet=True, start=400, as_role="us")
    assert "final position:" not in quiet and "as seen by us (ts-heuristic)" in quiet
    assert "(the story from decision 400 on)" in quiet
    numbers = [int(n) for n in re.findall(r"^ *(\d+)  ", quiet, flags=re.M)]
    assert numbers and min(numbers) >= 400
    assert re.search(r"^Turn \d+ · (Action round \d+|Headline)$", quiet, flags=re.M)
    # the US seat never sees the USSR's deal: the USSR "draws N cards"
    seat = printed(record_file, quiet=True, as_role="us")
    assert "the USSR draws 8 cards" in unwrapped(seat).replace("The USSR draws", "the USSR draws")


def test_keys_prints_the_decisions_as_before(record_file):
    keys = printed(record_file, keys=True, quiet=True)
    assert re.search(r"^\[1\] chance deal -> card:nato$", keys, flags=re.M)
    assert keys.count("\n[") + keys.startswith("[") == len(record().moves)
    assert printed(record_file, keys=True, quiet=True) == "\n".join(
        replay_lines(GAME, record(), quiet=True)) + "\n"


def test_step_shows_the_story_so_far_under_the_board():
    result = review(GAME, record())
    story = story_of(GAME, record())
    frame = next(f for f in result.frames if f.number == 42)
    shown = screen(result, result.frames.index(frame), story)
    assert "story so far:" in shown
    told = shown.split("story so far:")[1]
    assert "USSR plays Nuclear Test Ban (4) for Ops (influence)." in told
    assert "Coup in Egypt" not in told  # decision 42's own coup is told after it
    assert "Coup in Egypt" in screen(result, result.frames.index(frame) + 1, story)
    out = io.StringIO()
    assert interactive(GAME, record(), "ussr", 40, input=["n", "q"], output=out, story=True) == 0
    assert "story so far:" in out.getvalue() and "== decision 41 of" in out.getvalue()
