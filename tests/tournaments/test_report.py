"""Tournament outputs (standoff.tournaments.report): results.jsonl reading, the Elo log,
ratings.json content and determinism, atomic file writing and the printed report."""

from __future__ import annotations

import json
import random

import pytest

from standoff.tournaments.model import Result
from standoff.tournaments.ratings import bradley_terry, elo_log, pentanomial_elo, trinomial_elo
from standoff.tournaments.report import (
    compute_ratings,
    elo_lines,
    elo_text,
    format_report,
    ratings_text,
    read_results,
    write_outputs,
)


def match(
    index: int,
    first: str,
    second: str,
    score: float,
    *,
    played: bool = True,
    pair: int | None = None,
    leg: int = 0,
    faults: dict | None = None,
    termination: str | None = None,
) -> Result:
    """A two-seat match: ``first`` is p1 and scores ``score``."""
    seats = {"p1": first, "p2": second}
    if not played:
        return Result(
            index, f"m{index:04d}", 1, 1000 + index, seats, False, None, None, {}, termination or "not_played",
            "entrant never connected", faults or {}, pair, leg,
        )
    winner = first if score == 1 else second if score == 0 else None
    role = "p1" if score == 1 else "p2" if score == 0 else None
    term = termination or ("draw" if score == 0.5 else "breakthrough")
    return Result(
        index, f"m{index:04d}", 1, 1000 + (pair if pair is not None else index), seats, True, winner, role,
        {"p1": float(score), "p2": 1.0 - score}, term, "", faults or {}, pair, leg,
    )


def three_seat(index: int, seats: tuple[str, str, str], scores: tuple[float, float, float]) -> Result:
    roles = ("p1", "p2", "p3")
    return Result(
        index, f"m{index:04d}", 2, 7, dict(zip(roles, seats)), True, None, None,
        dict(zip(roles, scores)), "score", "", {}, None, 0,
    )


def mixed() -> list[Result]:
    """Three entrants, draws, faults, a not-played match and a three-seat match."""
    return [
        match(0, "alpha", "beta", 1),
        match(1, "beta", "gamma", 0.5, faults={"p1": {"timeout": 1}}),
        match(2, "gamma", "alpha", 0, faults={"p1": {"illegal": 2}, "p2": {"timeout": 1}}),
        match(3, "alpha", "gamma", 0, played=False, faults={"p2": {"no_show": 1}}),
        three_seat(4, ("alpha", "beta", "gamma"), (2.0, 1.0, 1.0)),
        match(5, "beta", "alpha", 1, faults={"p2": {"timeout": 2}}),
    ]


def paired(totals: list[float]) -> list[Result]:
    """Paired legs of ``alpha`` vs ``beta`` with the given pair totals for ``alpha`` (seats
    swapped in leg 1)."""
    split = {0: (0, 0), 0.5: (0.5, 0), 1: (1, 0), 1.5: (1, 0.5), 2: (1, 1)}
    out = []
    for p, total in enumerate(totals):
        s0, s1 = split[total]
        if p % 2:  # vary which leg carries which score
            s0, s1 = s1, s0
        out.append(match(2 * p, "alpha", "beta", s0, pair=p, leg=0))
        out.append(match(2 * p + 1, "beta", "alpha", 1 - s1, pair=p, leg=1))
    return out


def pair_of(ratings: dict, a: str, b: str) -> dict:
    (found,) = [p for p in ratings["pairs"] if (p["a"], p["b"]) == (a, b)]
    return found


# ---------------------------------------------------------------------------------------------
# Elo log
# ---------------------------------------------------------------------------------------------


def test_elo_lines_match_elo_log_in_canonical_order() -> None:
    results = mixed()
    shuffled = results[:]
    random.Random(3).shuffle(shuffled)
    lines = elo_lines(shuffled)
    triples = [
        ("alpha", "beta", 1.0),
        ("beta", "gamma", 0.5),
        ("gamma", "alpha", 0.0),
        # match 3 not played: no line
        ("alpha", "beta", 1.0),  # three-seat match: pairs in seat order
        ("alpha", "gamma", 1.0),
        ("beta", "gamma", 0.5),
        ("beta", "alpha", 1.0),
    ]
    log = elo_log(triples)
    assert [(x["a"], x["b"], x["score_a"]) for x in lines] == triples
    assert [x["index"] for x in lines] == [0, 1, 2, 4, 4, 4, 5]
    assert [x["match_id"] for x in lines] == ["m0000", "m0001", "m0002", "m0004", "m0004", "m0004", "m0005"]
    for line, entry in zip(lines, log, strict=True):
        assert list(line) == ["index", "match_id", "a", "b", "score_a", "a_before", "b_before", "a_after", "b_after"]
        assert line["a_before"] == round(entry.rating_a_before, 4)
        assert line["b_before"] == round(entry.rating_b_before, 4)
        assert line["a_after"] == round(entry.rating_a_after, 4)
        assert line["b_after"] == round(entry.rating_b_after, 4)
    # By hand: equal ratings, a win moves k/2 = 16 points.
    assert lines[0] == {
        "index": 0, "match_id": "m0000", "a": "alpha", "b": "beta", "score_a": 1.0,
        "a_before": 1500.0, "b_before": 1500.0, "a_after": 1516.0, "b_after": 1484.0,
    }
    # beta (1484) draws gamma (1500): beta gains 32 * (0.5 - E(1484, 1500)).
    e = 1.0 / (1.0 + 10 ** ((1500 - 1484) / 400))
    assert lines[1]["a_after"] == round(1484 + 32 * (0.5 - e), 4)
    assert lines[1]["b_after"] == round(1500 - 32 * (0.5 - e), 4)


def test_elo_lines_k_and_start_and_not_played() -> None:
    lines = elo_lines([match(0, "x", "y", 0), match(1, "x", "y", 1, played=False)], k=10.0, start=1000.0)
    assert lines == [{
        "index": 0, "match_id": "m0000", "a": "x", "b": "y", "score_a": 0.0,
        "a_before": 1000.0, "b_before": 1000.0, "a_after": 995.0, "b_after": 1005.0,
    }]
    assert elo_lines([]) == []


# ---------------------------------------------------------------------------------------------
# ratings.json
# ---------------------------------------------------------------------------------------------


def test_ratings_content_three_entrants() -> None:
    r = compute_ratings(mixed(), entrants=["alpha", "beta", "gamma", "delta"])
    json.dumps(r, allow_nan=False)  # JSON-ready
    players = {p["name"]: p for p in r["players"]}
    assert set(players) == {"alpha", "beta", "gamma", "delta"}
    # alpha: W beta, W gamma (match 2), W beta + W gamma (3 seats), L beta (match 5)
    a = players["alpha"]
    assert (a["games"], a["wins"], a["draws"], a["losses"]) == (5, 4, 0, 1)
    assert a["score_pct"] == 80.0
    b = players["beta"]
    assert (b["games"], b["wins"], b["draws"], b["losses"]) == (5, 1, 2, 2)
    assert b["score_pct"] == 40.0
    g = players["gamma"]
    assert (g["games"], g["wins"], g["draws"], g["losses"]) == (4, 0, 2, 2)
    assert g["score_pct"] == 25.0
    d = players["delta"]
    assert (d["games"], d["rating"], d["margin"], d["score_pct"]) == (0, 0.0, 0.0, None)
    assert r["players"][-1]["name"] == "delta"  # no games: after those with games
    assert [p["name"] for p in r["players"][:3]] == ["alpha", "beta", "gamma"]

    # Ratings are Bradley-Terry's, rounded.
    bt = bradley_terry([t for m in mixed() for t in m.pairwise()])
    for p in bt.players:
        assert players[p.name]["rating"] == round(p.rating, 4)
        assert players[p.name]["margin"] == round(p.margin, 4)
    assert abs(sum(players[n]["rating"] for n in ("alpha", "beta", "gamma"))) < 1e-3
    assert r["los"]["alpha"]["beta"] == round(bt.los_of("alpha", "beta"), 4)
    assert "alpha" not in r["los"]["alpha"]
    assert r["los"]["delta"]["alpha"] == 0.5  # different component

    ab = pair_of(r, "alpha", "beta")
    assert (ab["games"], ab["wins"], ab["draws"], ab["losses"]) == (3, 2, 0, 1)
    tri = trinomial_elo(2, 0, 1)
    assert ab["trinomial"]["elo"] == round(tri.elo, 4)
    assert ab["trinomial"]["margin"] == "inf"  # 2/3 points: the score interval passes 100%
    assert tri.margin == float("inf")
    assert ab["pentanomial"] is None
    bg = pair_of(r, "beta", "gamma")
    assert (bg["wins"], bg["draws"], bg["losses"], bg["score_pct"]) == (0, 2, 0, 50.0)
    assert bg["trinomial"] == {"elo": 0.0, "margin": 0.0}
    assert [(p["a"], p["b"]) for p in r["pairs"]] == [("alpha", "beta"), ("alpha", "gamma"), ("beta", "gamma")]

    assert r["crosstable"]["alpha"]["beta"] == {"score": 2.0, "games": 3}
    assert r["crosstable"]["beta"]["alpha"] == {"score": 1.0, "games": 3}
    assert r["crosstable"]["gamma"]["beta"] == {"score": 1.0, "games": 2}
    assert r["crosstable"]["delta"] == {}
    assert "gamma" not in r["crosstable"]["gamma"]

    assert r["faults"] == {
        "alpha": {"timeout": 3},  # match 2 (as p2) + match 5 (as p2)
        "beta": {"timeout": 1},
        "gamma": {"illegal": 2, "no_show": 1},  # the not-played match's fault counts too
        "delta": {},
    }
    assert list(r["faults"]) == ["alpha", "beta", "delta", "gamma"]  # sorted
    assert r["terminations"] == {"breakthrough": 3, "draw": 1, "not_played": 1, "score": 1}
    assert r["matches"] == {"total": 6, "played": 5, "not_played": 1, "error": 0, "games": 7}
    assert r["components"] == [
        {"players": ["alpha", "beta", "gamma"], "regularized": False},
        {"players": ["delta"], "regularized": False},
    ]


def test_pentanomial_counts_from_paired_legs() -> None:
    results = paired([0, 0.5, 1, 1, 1.5, 2])
    # An incomplete pair (leg 1 not played) counts as games but not as a pentanomial pair.
    results.append(match(100, "alpha", "beta", 1, pair=50, leg=0))
    results.append(match(101, "beta", "alpha", 1, pair=50, leg=1, played=False))
    r = compute_ratings(results)
    ab = pair_of(r, "alpha", "beta")
    pe = pentanomial_elo([1, 1, 2, 1, 1])
    assert ab["pentanomial"] == {
        "pairs": 6, "counts": [1, 1, 2, 1, 1], "elo": round(pe.elo, 4), "margin": round(pe.margin, 4),
    }
    assert ab["games"] == 13
    # Totals 0 .5 1 1 1.5 2 = 6 points of 12, plus the lone win.
    assert (ab["wins"], ab["draws"], ab["losses"]) == (6, 2, 5)
    # Seen from the other side (names sorted, so "beta" is never "a"), nothing changes.
    swapped = compute_ratings(paired([2, 1.5, 1, 1, 0.5, 0]))
    assert pair_of(swapped, "alpha", "beta")["pentanomial"]["counts"] == [1, 1, 2, 1, 1]
    lopsided = compute_ratings(paired([2, 2, 1.5]))
    assert pair_of(lopsided, "alpha", "beta")["pentanomial"]["counts"] == [0, 0, 0, 1, 2]


def test_infinities_are_json_safe() -> None:
    r = compute_ratings([match(i, *(("zed", "abe", 0) if i % 2 else ("abe", "zed", 1))) for i in range(4)])  # abe wins all
    ab = pair_of(r, "abe", "zed")
    assert ab["trinomial"] == {"elo": "+inf", "margin": "inf"}
    text = ratings_text(r)  # allow_nan=False: would raise on a float infinity
    assert "Infinity" not in text and "NaN" not in text
    r2 = compute_ratings([match(0, "abe", "zed", 0, pair=0, leg=0), match(1, "zed", "abe", 1, pair=0, leg=1)])
    ab2 = pair_of(r2, "abe", "zed")
    assert ab2["trinomial"]["elo"] == "-inf"
    assert ab2["pentanomial"] == {"pairs": 1, "counts": [1, 0, 0, 0, 0], "elo": "-inf", "margin": "inf"}
    # Finite Elo with an infinite margin (the score interval reaches 100%).
    r3 = compute_ratings([match(0, "abe", "zed", 1), match(1, "abe", "zed", 0.5)])
    t3 = pair_of(r3, "abe", "zed")["trinomial"]
    assert isinstance(t3["elo"], float) and t3["margin"] == "inf"
    # Bradley-Terry stays finite (regularised).
    assert all(isinstance(p["rating"], float) for p in r["players"])
    assert r["components"][0]["regularized"] is True


def test_determinism_under_shuffling() -> None:
    results = mixed() + [
        match(10 + i, *(("alpha", "beta") if i % 3 else ("gamma", "beta")), (0, 0.5, 1)[i % 3], pair=20 + i // 2, leg=i % 2)
        for i in range(12)
    ]
    reference = json.dumps(compute_ratings(results, entrants=["delta", "alpha"]), sort_keys=True)
    ref_elo = elo_text(elo_lines(results))
    for seed in range(5):
        shuffled = results[:]
        random.Random(seed).shuffle(shuffled)
        again = compute_ratings(shuffled, entrants=["alpha", "delta"])
        assert json.dumps(again, sort_keys=True) == reference
        assert elo_text(elo_lines(shuffled)) == ref_elo
        assert ratings_text(again) == ratings_text(compute_ratings(results, entrants=["delta", "alpha"]))


def test_empty_and_only_not_played() -> None:
    r = compute_ratings([])
    assert r["players"] == [] and r["pairs"] == [] and r["matches"] == {"total": 0, "played": 0, "not_played": 0, "error": 0, "games": 0}
    r = compute_ratings([match(0, "solo", "ghost", 1, played=False)], entrants=["solo"])
    assert [p["name"] for p in r["players"]] == ["ghost", "solo"]
    assert all(p["games"] == 0 and p["score_pct"] is None for p in r["players"])
    assert r["pairs"] == [] and r["matches"]["not_played"] == 1
    assert r["terminations"] == {"not_played": 1}


# ---------------------------------------------------------------------------------------------
# read_results
# ---------------------------------------------------------------------------------------------


def dump(results: list[Result]) -> str:
    return "".join(json.dumps(r.to_json()) + "\n" for r in results)


def test_read_results_roundtrip_sorted(tmp_path) -> None:
    results = mixed()
    shuffled = results[:]
    random.Random(1).shuffle(shuffled)
    path = tmp_path / "results.jsonl"
    path.write_text(dump(shuffled) + "\n")  # a blank line is fine
    back = read_results(path)
    assert [r.index for r in back] == [0, 1, 2, 3, 4, 5]
    assert [r.to_json() for r in back] == [r.to_json() for r in results]
    (tmp_path / "empty.jsonl").write_text("")
    assert read_results(tmp_path / "empty.jsonl") == []


def test_read_results_torn_last_line(tmp_path) -> None:
    results = mixed()
    full = dump(results)
    path = tmp_path / "results.jsonl"
    last = json.dumps(match(9, "alpha", "beta", 1).to_json())
    for cut in (1, 10, len(last) // 2, len(last) - 1):
        path.write_text(full + last[:cut])
        assert [r.index for r in read_results(path)] == [0, 1, 2, 3, 4, 5]
    # A complete last line without its newline is kept.
    path.write_text(full + last)
    assert [r.index for r in read_results(path)][-1] == 9
    # A multi-byte character cut in half is torn too.
    path.write_bytes(full.encode() + '{"match_id": "é'.encode()[:-1])
    assert len(read_results(path)) == 6


def test_read_results_garbage_rejected_with_line_number(tmp_path) -> None:
    lines = dump(mixed()).splitlines(keepends=True)
    path = tmp_path / "results.jsonl"
    path.write_text("".join(lines[:2]) + '{"index": 7, "match\n' + "".join(lines[2:]))
    with pytest.raises(ValueError, match=r"line 3\b"):
        read_results(path)
    # Garbage on the last line *with* its newline is not a torn write.
    path.write_text("".join(lines) + "oops\n")
    with pytest.raises(ValueError, match=r"line 7\b"):
        read_results(path)
    # Valid JSON that is not a result, even unterminated at the end.
    path.write_text("".join(lines) + '{"index": 1}')
    with pytest.raises(ValueError, match=r"line 7\b.*not a result"):
        read_results(path)
    path.write_text("".join(lines[:1]) + "[1, 2]\n")
    with pytest.raises(ValueError, match=r"line 2\b"):
        read_results(path)


def test_read_results_duplicates(tmp_path) -> None:
    results = mixed()
    path = tmp_path / "results.jsonl"
    lines = dump(results).splitlines(keepends=True)
    # Identical duplicate (key order and 1 vs 1.0 do not matter).
    dup = json.loads(lines[0])
    dup["scores"] = {"p2": 0, "p1": 1}
    path.write_text("".join(lines) + json.dumps(dict(reversed(list(dup.items())))) + "\n" + lines[3])
    assert [r.index for r in read_results(path)] == [0, 1, 2, 3, 4, 5]
    # Conflicting duplicate.
    bad = json.loads(lines[0])
    bad["scores"] = {"p1": 0.0, "p2": 1.0}
    path.write_text("".join(lines) + json.dumps(bad) + "\n")
    with pytest.raises(ValueError, match=r"line 7\b.*m0000.*line 1\b"):
        read_results(path)
    # Another match claiming a used index.
    other = json.loads(lines[1])
    other["match_id"] = "zzz"
    path.write_text("".join(lines) + json.dumps(other) + "\n")
    with pytest.raises(ValueError, match=r"line 7\b.*index 1\b"):
        read_results(path)


# ---------------------------------------------------------------------------------------------
# write_outputs
# ---------------------------------------------------------------------------------------------


def test_write_outputs_files_and_idempotence(tmp_path) -> None:
    results = mixed()
    ratings = write_outputs(tmp_path, results, entrants=["delta"])
    elo_bytes = (tmp_path / "elo.jsonl").read_bytes()
    ratings_bytes = (tmp_path / "ratings.json").read_bytes()
    assert ratings == compute_ratings(results, entrants=["delta"])
    assert json.loads(ratings_bytes) == ratings
    assert ratings_bytes.decode() == ratings_text(ratings)
    assert [json.loads(x) for x in elo_bytes.decode().splitlines()] == elo_lines(results)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elo.jsonl", "ratings.json"]  # no temp files left

    shuffled = results[::-1]
    write_outputs(tmp_path, shuffled, entrants=["delta"])
    assert (tmp_path / "elo.jsonl").read_bytes() == elo_bytes
    assert (tmp_path / "ratings.json").read_bytes() == ratings_bytes

    write_outputs(tmp_path, [], k=16.0)  # an empty run rewrites both files
    assert (tmp_path / "elo.jsonl").read_bytes() == b""
    assert json.loads((tmp_path / "ratings.json").read_text())["players"] == []


def test_write_outputs_reads_back_through_read_results(tmp_path) -> None:
    results = paired([0, 0.5, 1, 1, 1.5, 2])
    (tmp_path / "results.jsonl").write_text(dump(results))
    ratings = write_outputs(tmp_path, read_results(tmp_path / "results.jsonl"))
    assert pair_of(ratings, "alpha", "beta")["pentanomial"]["counts"] == [1, 1, 2, 1, 1]


# ---------------------------------------------------------------------------------------------
# format_report
# ---------------------------------------------------------------------------------------------


def test_format_report_mentions_everything() -> None:
    results = mixed()
    ratings = compute_ratings(results, entrants=["delta"])
    text = format_report(ratings)
    for name in ("alpha", "beta", "gamma", "delta"):
        assert name in text
    for needle in ("Standings", "Likelihood of superiority", "Crosstable", "Head to head", "Faults",
                   "Terminations", "no_show 1", "not_played", "2/3", "Grp"):
        assert needle in text, needle
    assert not text.endswith("\n")
    assert max(len(line) for line in text.splitlines()) <= 100
    # The same dict read back from ratings.json prints the same report.
    assert format_report(json.loads(ratings_text(ratings))) == text


def test_format_report_pentanomial_and_infinities() -> None:
    text = format_report(compute_ratings(paired([0, 0.5, 1, 1, 1.5, 2])))
    assert "[1 1 2 1 1]" in text and "6 pairs" in text
    allwins = format_report(compute_ratings([match(i, "abe", "zed", 1) for i in range(3)]))
    assert "+inf" in allwins and "abe" in allwins and "zed" in allwins
    assert "Regularised" in allwins


def test_format_report_edge_cases() -> None:
    empty = format_report(compute_ratings([]))
    assert "No players." in empty
    solo = format_report(compute_ratings([match(0, "solo", "ghost", 1, played=False)], entrants=["solo"]))
    assert "solo" in solo and "ghost" in solo and "no games played" in solo and "not_played" in solo
    lonely = format_report(compute_ratings([], entrants=["only"]))
    assert "only" in lonely
    assert format_report({}).startswith("Matches: 0")


def test_format_report_fits_100_columns_with_many_players() -> None:
    names = [f"bot-{i:02d}-with-a-long-name-indeed" if i % 4 == 0 else f"bot{i}" for i in range(14)]
    rng = random.Random(5)
    results = []
    for i in range(200):
        a, b = rng.sample(names, 2)
        results.append(match(i, a, b, rng.choice((0, 0.5, 1))))
    text = format_report(compute_ratings(results))
    for name in names:
        assert name in text
    # Only the standings table shows full names; it may be wider only because of them.
    widest = max(len(n) for n in names)
    for line in text.splitlines():
        assert len(line) <= max(100, widest + 60), line


# ---------------------------------------------------------------------------------------------
# Fallbacks (a bot's fallback after an internal error of its own)
# ---------------------------------------------------------------------------------------------


def test_fallbacks_are_summed_per_entrant_over_its_seats() -> None:
    results = [match(0, "alpha", "beta", 1), match(1, "beta", "alpha", 0), match(2, "alpha", "gamma", 0.5),
               match(3, "gamma", "beta", 1, played=False)]
    results[0].fallbacks = {"p1": 2}  # alpha
    results[1].fallbacks = {"p2": 1, "p1": 4}  # alpha, beta
    results[3].fallbacks = {"p1": 1}  # gamma, in a match without a result: counted like faults
    r = compute_ratings(results, entrants=["delta"])
    assert r["fallbacks"] == {"alpha": 3, "beta": 4, "delta": 0, "gamma": 1}
    assert list(r["fallbacks"]) == sorted(r["fallbacks"])
    text = format_report(r)
    assert ("Fallbacks after a bot's internal error (in-process bots)\n"
            "  alpha: 3\n  beta: 4\n  gamma: 1\n") in text
    assert format_report(json.loads(ratings_text(r))) == text


def test_no_fallbacks_says_none_and_an_older_ratings_file_says_nothing() -> None:
    r = compute_ratings(mixed())
    assert set(r["fallbacks"].values()) == {0}
    assert "Fallbacks after a bot's internal error: none (in-process bots)" in format_report(r)
    del r["fallbacks"]  # ratings.json written before fallbacks were counted
    assert "Fallbacks" not in format_report(r)


def test_a_result_line_has_fallbacks_only_when_there_are_some() -> None:
    plain = match(0, "alpha", "beta", 1)
    line = plain.to_json()
    assert "fallbacks" not in line and Result.from_json(line).to_json() == line
    plain.fallbacks = {"p2": 3}
    line = plain.to_json()
    assert line["fallbacks"] == {"p2": 3}
    assert list(line)[list(line).index("faults") + 1] == "fallbacks"
    assert Result.from_json(json.loads(json.dumps(line))).fallbacks == {"p2": 3}
