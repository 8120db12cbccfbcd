"""The story contract (server/story.py): a teller hears every decision once, in order, with the
history entries as the viewer saw them; seats hear redacted entries, the omniscient viewer the
true ones; lines and chapters are numbered by the decision they follow from."""

from __future__ import annotations

import pytest

from standoff.server.core.record import Record
from standoff.server.local import play_match
from standoff.server.plugins import game_spec, load_registry
from standoff.server.story import Chapter, Story, StoryLine, tell


class Echo:
    """A teller that says each entry as it came, and opens a chapter when the view's turn
    changes: what it hears is what the test checks."""

    def __init__(self) -> None:
        self.heard: list[tuple[dict, list, dict]] = []

    def start(self, view):
        return [Chapter("Setup")]

    def tell(self, before, entries, after):
        self.heard.append((dict(before), [list(e) for e in entries], dict(after)))
        out = []
        if before.get("turn") != after.get("turn"):
            out.append(Chapter(f"Turn {after.get('turn')}"))
        out += [StoryLine(" ".join(str(x) for x in e[1:]), role=e[1]) for e in entries]
        return out


def _record(game_name: str, bots: tuple[str, str], seed: int) -> tuple[object, Record]:
    registry = load_registry(entry_points=False)
    game = game_spec(game_name).game
    rules = game.rules()
    lines: list[dict] = []
    played = play_match(game, rules, {r: registry.make_bot(b, seed + i, game_name) for i, (r, b) in
                                      enumerate(zip(rules.roles, bots))}, seed, on_line=lines.append)
    assert played.outcome is not None
    return game, Record(lines[0], lines[1:-1], lines[-1])


@pytest.fixture(scope="module", params=[("schotten-totten", ("random", "random")),
                                        ("twilight-struggle", ("ts-heuristic", "ts-heuristic"))], ids=["st", "ts"])
def match(request):
    return _record(request.param[0], request.param[1], 11)


def test_a_seat_hears_its_own_history_and_the_omniscient_viewer_the_record(match):
    game, record = match
    roles = game.rules().roles
    for role in roles:
        teller = Echo()
        tell(game, record, teller, as_role=role)
        heard = [e for _, entries, _ in teller.heard for e in entries]
        # every entry once, in order, as the seat's own view of the end shows its history
        from standoff.server.core.record import replay
        final = replay(game, record)
        assert heard == [list(e) for e in game.view(final, role)["history"]]
        assert all("history" not in before and "history" not in after for before, _, after in teller.heard)
    teller = Echo()
    tell(game, record, teller)
    assert len(teller.heard) == len(record.moves)
    for number, ((_, entries, _), move) in enumerate(zip(teller.heard, record.moves), 1):
        assert entries and entries[0][:4] == [number, move["role"], move["step"], move["key"]]
        assert all(e[0] == number for e in entries)


def test_a_seat_hears_the_hidden_entries_redacted(match):
    game, record = match
    omniscient = [e for _, entries, _ in _heard(game, record, None) for e in entries]
    for role in game.rules().roles:
        seat = [e for _, entries, _ in _heard(game, record, role) for e in entries]
        assert [e[:3] for e in seat] == [e[:3] for e in omniscient]
        differ = [(s, o) for s, o in zip(seat, omniscient) if s != o]
        assert differ, "the other seat's cards reached this seat's story"
        # what the seat missed is what the record dealt (chance) or chose in secret
        assert {s[3] for s, _ in differ} <= {"card:hidden", "deck:troops", "deck:tactics", "hand:hidden"}


def _heard(game, record, role):
    teller = Echo()
    tell(game, record, teller, as_role=role)
    return teller.heard


def test_lines_and_chapters_are_numbered_by_their_decision(match):
    game, record = match
    story = tell(game, record, Echo())
    assert story.items[0] == Chapter("Setup", 1)
    numbers = [item.number for item in story.items]
    assert numbers == sorted(numbers) and numbers[-1] == len(record.moves)
    turns = [c for c in story.chapters if c.title.startswith("Turn")]
    assert len(turns) >= 2
    # a viewer at decision n has heard the lines numbered below n, and no chapter after them
    upto = turns[1].number
    text = story.text(upto=upto)
    assert turns[1].title not in text and turns[0].title in text
    assert len([t for t in text if t.startswith("  ")]) == len([s for s in story.lines if s.number < upto])
    data = story.to_json()
    assert data["chapters"][0] == ["Setup", 1]
    assert data["story"][0][:4] == [story.lines[0].number, story.lines[0].text, "play", story.lines[0].role]


def test_a_line_of_an_unknown_kind_is_refused(match):
    game, record = match

    class Bad(Echo):
        def tell(self, before, entries, after):
            return [StoryLine("x", kind="gossip")]

    with pytest.raises(ValueError, match="gossip"):
        tell(game, record, Bad())


def test_story_text_puts_details_under_their_line():
    story = Story((Chapter("Turn 1", 1), StoryLine("Europe scored", "scoring", None, ("USSR +3",), 2)))
    assert story.text() == ["Turn 1", "  Europe scored", "      USSR +3"]
    assert story.to_json()["story"] == [[2, "Europe scored", "scoring", None, ["USSR +3"]]]
