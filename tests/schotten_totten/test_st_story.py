"""Schotten Totten told as a story (issue 44, item 1): sentences, not keys, for every viewer.

Oracles from the issue and the rules digest: no raw option key (``card:``, ``flag:``, ``deck:``)
in any sentence; every claim names the formations on both sides (wedge, phalanx, battalion,
skirmish line, host) with its proof under it; each player turn is a chapter ("Turn 12 · p1");
a card played is said with its destination ("p1 plays Red 8 to flag 3"); a seat's story never
names a card it did not see, and is unchanged when the cards it cannot see are re-dealt.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import re

import pytest

from standoff.server.core.record import Record, replay_steps, start_state
from standoff.server.local import play_match
from standoff.server.plugins import game_spec, load_registry
from standoff.server.story import Chapter, StoryLine, tell

SPEC = game_spec("schotten-totten")
GAME = SPEC.game
FORMATIONS = ("wedge", "phalanx", "battalion", "skirmish line", "host")
#: An option key left in a sentence: ``card:red-5``, ``flag:4``, ``deck:troops``, ``role:p1``...
RAW_KEY = re.compile(r"\b(?:card|flag|deck|role|hand):\w|\b[a-z]+-\d+\b|\b[a-z]+_[a-z_]+\b")
CARD = re.compile(r"\b(Red|Orange|Yellow|Green|Blue|Purple) (10|[1-9])\b|\b(Alexander|Darius|Companion Cavalry|"
                  r"Shield Bearers|Fog|Mud|Scout|Redeploy|Deserter|Traitor)\b")

#: The matches told: (ruleset, options, bots, seed). Seed 204 (random bots) has Mud leave a flag
#: with a 4-card side; the others have Scout, Redeploy, Deserter, Traitor, Fog and Mud played.
MATCHES = [
    ("battle_line", {}, ("greedy", "probability"), 7),
    ("battle_line", {}, ("random", "random"), 204),
    *[("battle_line", {}, (a, b), seed) for seed, (a, b) in enumerate(
        [("random", "random"), ("random", "greedy"), ("probability", "random"), ("greedy", "greedy"),
         ("probability", "greedy"), ("random", "probability"), ("random", "random"), ("greedy", "random")], 1)],
    ("battle_line", {"claim_timing": "start_of_turn"}, ("greedy", "random"), 3),
    ("battle_line", {"claim_timing": "end_of_turn"}, ("random", "probability"), 4),
    *[("classic", {}, (a, b), seed) for seed, (a, b) in enumerate(
        [("greedy", "probability"), ("random", "greedy"), ("probability", "random")], 1)],
    ("three_player", {}, ("random", "random", "random"), 2),
]
FAST = MATCHES[:2]


@functools.cache
def record_of(ruleset: str, options: tuple, bots: tuple, seed: int) -> Record:
    registry = load_registry(entry_points=False)
    rules = GAME.rules(ruleset, dict(options))
    lines: list[dict] = []
    played = play_match(GAME, rules, {r: registry.make_bot(b, seed + i, GAME.name) for i, (r, b) in
                                      enumerate(zip(rules.roles, bots, strict=True))}, seed, on_line=lines.append)
    assert played.outcome is not None
    return Record(lines[0], lines[1:-1], lines[-1])


def _record(match) -> Record:
    ruleset, options, bots, seed = match
    return record_of(ruleset, tuple(sorted(options.items())), tuple(bots), seed)


@functools.cache
def _story(match_key, role):
    match = (match_key[0], dict(match_key[1]), match_key[2], match_key[3])
    return tell(GAME, _record(match), SPEC.story(), as_role=role, table=SPEC.html_board.table)


def story_of(match, role):
    return _story((match[0], tuple(sorted(match[1].items())), tuple(match[2]), match[3]), role)


def viewers(record):
    return [*record.header["roles"], None]


def _check_sentences(match):
    record = _record(match)
    for role in viewers(record):
        story = story_of(match, role)
        for line in story.lines:
            for text in (line.text, *line.detail):
                assert not RAW_KEY.search(text), f"raw key in {role}'s story: {text!r}"
            assert line.text[0].isupper() or line.text[:2] in {f"p{i}" for i in range(1, 4)}, line.text
            assert line.text.endswith("."), line.text


def test_sentences_have_no_raw_keys_fast():
    for match in FAST:
        _check_sentences(match)


@pytest.mark.parametrize("match", MATCHES, ids=[f"{m[0]}-{'-'.join(m[2])}-{m[3]}" for m in MATCHES])
def test_every_viewer_reads_sentences_without_raw_keys(match):
    _check_sentences(match)


def test_the_corpus_plays_every_step_the_game_can_log():
    """The sweep above would prove little if some step never came up: every step of the game's
    step table that asks a decision occurs in the matches told."""
    from standoff.server.games.schotten_totten.steps import STEPS

    seen = {move["step"] for match in MATCHES for move in _record(match).moves}
    asked = set(STEPS) - {"turn", "end_turn"}  # these two never ask
    assert asked <= seen, f"no match of the corpus logs {sorted(asked - seen)}"


@pytest.mark.parametrize("match", FAST + MATCHES[-5:], ids=lambda m: f"{m[0]}-{m[3]}")
def test_each_decision_is_told(match):
    """Each card placed is said with its destination, each claim as a claim line, each deck
    choice by its draw, each Scout by its draws and returns, every tactics card by name."""
    record = _record(match)
    for role in viewers(record):
        story = story_of(match, role)
        by_number: dict[int, list[StoryLine]] = {}
        for line in story.lines:
            by_number.setdefault(line.number, []).append(line)
        for move in record.moves:
            n, who, step, key = move["n"], move["role"], move["step"], move["key"]
            told = " ".join(line.text for line in by_number.get(n, []))
            if step == "place":
                flag = key.split(":")[1]
                assert re.search(rf"^{who} plays [A-Z][a-z]+( [A-Z][a-z]+| \d+)? to flag {flag}\b", told), (n, told)
            elif step == "claim" and key != "done":
                claim = [line for line in by_number[n] if line.kind == "claim"]
                assert len(claim) == 1 and claim[0].text.startswith(f"{who} claims flag {key.split(':')[1]}")
            elif step == "environment":
                assert re.search(rf"{who} plays (Fog|Mud) at flag {key.split(':')[1]}:", told), (n, told)
            elif step in ("redeploy_to", "traitor_to", "deserter", "mud_discard"):
                word = {"redeploy_to": "Redeploy", "traitor_to": "Traitor", "deserter": "Deserter",
                        "mud_discard": "Mud has left flag"}[step]
                assert word in told, (n, step, told)
            elif step == "play" and key == "card:scout":
                assert f"{who} plays Scout" in told
            elif step == "play" and key == "pass":
                assert f"{who} passes" in told


def test_chapters_are_the_player_turns():
    match = FAST[0]
    record = _record(match)
    moves = record.moves
    for role in viewers(record):
        story = story_of(match, role)
        chapters = story.chapters
        assert chapters[0] == Chapter("Setup", 1)
        turns = chapters[1:]
        assert [c.title.split(" \u00b7 ")[0] for c in turns] == [f"Turn {i}" for i in range(1, len(turns) + 1)]
        for chapter in turns:
            # it begins with that player's first decision of the turn, and names the player
            first = moves[chapter.number - 1]
            assert first["role"] == chapter.title.split(" \u00b7 ")[1]
            assert moves[chapter.number - 2]["role"] == "chance" or moves[chapter.number - 2]["role"] != first["role"]
        assert [c.number for c in chapters] == sorted(c.number for c in chapters)


def test_claims_are_told_with_the_formations_on_both_sides_and_their_proof():
    claims = 0
    for match in MATCHES[:4] + MATCHES[-4:]:
        record = _record(match)
        for role in viewers(record):
            for line in story_of(match, role).lines:
                if line.kind != "claim":
                    continue
                claims += 1
                head, _, against = line.text.partition(" against ")
                assert any(f" {name} (sum " in head for name in FORMATIONS), line.text
                assert any(f"{name} (sum " in against for name in FORMATIONS) or "no longer be completed" in against, line.text
                # the proof: the claimant's formation, then each other side with its verdict
                sides = [d for d in line.detail if re.match(r"p\d: ", d)]
                assert len(sides) == len(record.header["roles"]), line.detail
                assert sides[0].startswith(line.role + ": ") and sides[0].endswith(", complete")
                assert all(re.search(r"beats|completed|can never complete", d) for d in sides[1:]), line.detail
    assert claims > 40


def test_a_claims_proof_names_the_best_the_other_side_could_still_make():
    """The first claim of seed 7: p2's red wedge 8-9-10 against p1's Orange 8 and 10, whose best
    (Orange 9) only equals it: p2 completed first (decision 81)."""
    match = FAST[0]
    line = next(line for line in story_of(match, "p1").lines if line.kind == "claim")
    assert line.text == "p2 claims flag 3: a wedge (sum 27) against p1's side, at best a wedge (sum 27)."
    assert line.detail == (
        "p2: Red 8, Red 9 and Red 10: a wedge (sum 27), complete",
        "p1: Orange 8 and Orange 10: needs one more card; the best still possible, with Orange 9, is a wedge "
        "(sum 27): its best only equals it, and p2 completed first",
    )


def test_the_end_is_told_as_the_outcome_says():
    for match in MATCHES:
        record = _record(match)
        footer = record.footer
        last = story_of(match, None).lines[-1]
        assert last.kind == "end" and last.number == len(record.moves)
        termination = footer["termination"]
        word = {"breakthrough": "breaks through", "envelopment": "envelops", "stalemate": "stalemate",
                "decision_cap": "decision cap"}[termination]
        assert word in last.text, (termination, last.text)
        if footer.get("winner"):
            assert last.text.startswith(footer["winner"]) and last.text.endswith(f"{footer['winner']} wins.")


def test_draws_name_the_card_for_the_drawer_and_count_it_for_the_other_seat():
    match = FAST[0]
    p1 = [line.text for line in story_of(match, "p1").lines if line.kind == "deal"]
    p2 = [line.text for line in story_of(match, "p2").lines if line.kind == "deal"]
    everything = [line.text for line in story_of(match, None).lines if line.kind == "deal"]
    assert "p1 draws Purple 3." in p1 and "p1 draws Purple 3." in everything
    assert "p1 draws Purple 3." not in p2 and "p1 draws a troop card." in p2
    assert "p2 is dealt seven troop cards." in p1
    assert any(t.startswith("p2 is dealt Red 8, ") for t in everything)


def _seen_cards(record, role):
    """For each decision number, the cards ``role`` had seen once it was answered: its hands,
    the table, the discards, the cards it knows in other hands."""
    from standoff.server.games.schotten_totten.claims import card_text

    seen, out = set(), {}

    def look(view):
        names = list(view.get("hand") or [])
        for flag in view.get("flags") or []:
            names += [c for side in flag["sides"].values() for c in side["cards"]]
            names += [card for card in ("fog", "mud") if flag.get(card)]
        for cards in (view.get("discards") or {}).values():
            names += cards
        for other in (view.get("opponents") or {}).values():
            names += other.get("known") or []
        seen.update(card_text(n) for n in names)

    for step in replay_steps(GAME, record):
        look(GAME.view(step.state, role))
        out[step.number] = set(seen)
    return out


@pytest.mark.parametrize("match", [FAST[0], MATCHES[3], MATCHES[-2]], ids=lambda m: f"{m[0]}-{m[3]}")
def test_a_seat_story_names_only_cards_the_seat_saw(match):
    """Hypothetical completions in a claim's proof are the one exception (detail lines, drawn
    from the troops off the table: public), so the sentences themselves are checked."""
    record = _record(match)
    for role in record.header["roles"]:
        seen = _seen_cards(record, role)
        for line in story_of(match, role).lines:
            named = {m.group(0) for m in CARD.finditer(line.text)}
            unseen = named - seen[line.number]
            assert not unseen, f"{role}'s story names {unseen} at decision {line.number}: {line.text}"


def redealt_story(record, role, rng):
    """The seat's story told from states in which everything ``role`` cannot see was re-dealt at
    every decision (the game's ``determinize``), as the wire leak test rebuilds its messages;
    and the number of decisions after which the re-deal changed the other hands."""
    rules = GAME.rules(record.header.get("ruleset"), record.header.get("options") or {})
    state = start_state(GAME, rules, record.header)

    def view_of(state):
        view = dict(GAME.view(GAME.determinize(state, role, rng), role, 1 << 62))
        view.pop("history")
        view.pop("history_from")
        return view

    teller = SPEC.story()
    before = view_of(state)
    items = [(1, item) for item in teller.start(before)]
    changed = 0
    me = rules.roles.index(role)
    for step in replay_steps(GAME, record):
        other = GAME.determinize(step.state, role, rng)
        changed += other.hands[:me] + other.hands[me + 1:] != step.state.hands[:me] + step.state.hands[me + 1:]
        entries = [list(e) for e in GAME.view(other, role, step.number - 1)["history"] if e[0] == step.number]
        after = view_of(step.state)
        items += [(step.number, item) for item in teller.tell(before, entries, after)]
        before = after
    return items, changed


@pytest.mark.parametrize("match", [FAST[0], FAST[1], MATCHES[-2]], ids=lambda m: f"{m[0]}-{m[3]}")
def test_a_seat_story_is_unchanged_when_hidden_cards_are_redealt(match):
    record = _record(match)
    rng = random.Random(5)
    for role in record.header["roles"]:
        told = [(item.number, dataclasses.replace(item, number=0)) for item in story_of(match, role).items]
        items, changed = redealt_story(record, role, rng)
        assert items == told
        assert changed > len(record.moves) // 2  # the re-deal did change what the seat cannot see


def test_story_text_reads_as_the_text_replay_prints_it():
    story = story_of(FAST[0], "p1")
    text = story.text()
    assert text[:5] == [
        "Setup",
        "  Battle Line rules: 60 troop cards (1 to 10 in six colours), 9 flags, with the 10 tactics cards.",
        "  p1 is dealt Red 1, Orange 3, Orange 8, Orange 10, Green 1, Blue 2 and Purple 9.",
        "  p2 is dealt seven troop cards.",
        "  p2 starts (drawn at random).",
    ]
    assert text[5:8] == ["Turn 1 \u00b7 p2", "  p2 plays Red 8 to flag 3.", "  p2 draws a troop card."]
    assert text[-1] == "  p1 breaks through with flags 5, 6 and 7 side by side: p1 wins."
    # a claim's proof sits under it
    at = text.index("  p2 claims flag 3: a wedge (sum 27) against p1's side, at best a wedge (sum 27).")
    assert text[at + 1].startswith("      p2: Red 8, Red 9 and Red 10")


def test_a_match_from_a_position_is_told_from_there():
    """tests/positions/st/breakthrough.txt: p1 holds flags 1 and 2 and completes a yellow wedge
    8-9-10 at flag 3 (turn 10); its claim is its first decision and wins by breakthrough. The
    record numbers that move 1, the position's history 19: the story still hears it."""
    from pathlib import Path

    from standoff.server.position_files import read_position

    position = read_position(Path(__file__).parent.parent / "positions" / "st" / "breakthrough.txt", GAME)
    registry = load_registry(entry_points=False)
    rules = GAME.rules(position["ruleset"], position["options"])
    lines: list[dict] = []
    play_match(GAME, rules, {r: registry.make_bot("greedy", i, GAME.name) for i, r in enumerate(rules.roles)}, 3,
               on_line=lines.append, position=position)
    record = Record(lines[0], lines[1:-1], lines[-1])
    for role in ("p1", "p2", None):
        text = tell(GAME, record, SPEC.story(), as_role=role, table=SPEC.html_board.table).text()
        assert text[:4] == [
            "Setup",
            "  Battle Line rules: 60 troop cards (1 to 10 in six colours), 9 flags, with the 10 tactics cards.",
            "  The match starts from a position: turn 10, p1 to move.",
            "Turn 10 \u00b7 p1",
        ]
        assert text[4] == "  p1 claims flag 3: a wedge (sum 27) against p2's side, at best a wedge (sum 27)."
        assert text[-1] == "  p1 breaks through with flags 1, 2 and 3 side by side: p1 wins."
