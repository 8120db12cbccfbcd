"""Chance is secret: a bot that tries every channel of the service predicts its opponent's hand
no better than chance (tests/kits/cheater.py lists the channels).

Before this was fixed, the server derived a match's seed from its public id and listed it in
``ListMatches``: the same cheater reproduced the whole deal of every match (7 of 7 cards).
"""

from __future__ import annotations

import random
import statistics

import pytest
from kits.cheater import Cheater, dealt_hands, score
from kits.server import ServerThread

from standoff.sdk.client import run_in_thread
from standoff.server.core.chance import ChanceStream
from standoff.server.core.game import Decision, Option, sample_chance
from standoff.server.games import get_game
from standoff.server.local import chance_rng

MATCHES = 8


@pytest.mark.parametrize("game", ["schotten-totten", "twilight-struggle"])
def test_a_cheating_bot_learns_nothing_from_ids_summaries_seeds_records_or_standings(tmp_path, game):
    server = ServerThread(tmp_path).start()
    try:
        token = server.tokens.add("cheater")
        cheater = Cheater(server.address, token)
        thread, box = run_in_thread(cheater, server.address, token, matches=MATCHES)
        opponent = "ts-heuristic" if game == "twilight-struggle" else "greedy"
        options = {"end_turn": "1"} if game == "twilight-struggle" else {}
        ids = []
        for n in range(MATCHES):
            bots = ["remote:cheater", opponent] if n % 2 else [opponent, "remote:cheater"]
            ids.append(server.start_match(bots, game=game, options=options).match_id)
        for match_id in ids:
            server.wait_finished(match_id, timeout=120)
        thread.join(60)
        records = {match_id: server.record(match_id) for match_id in ids}
    finally:
        server.stop()
    assert not [r for r in box if isinstance(r, BaseException)], box
    result = score(cheater, records)
    assert result["matches"] == MATCHES
    # No channel gave a seed that reproduces the cheater's own hand...
    assert result["reproduced"] == 0, cheater.predictions
    # ...and its guesses of the opponent's hand are at chance level: hand h among u unseen cards
    # gives h*h/u expected hits (about 0.9 for Schotten Totten, 1.8 for Twilight Struggle's
    # Early War deck); knowing the deal would give h (7 or 8) every time.
    hand = len(next(iter(cheater.predictions.values()))["hand"])
    assert result["mean_hits"] < hand / 2, result


def test_the_chance_stream_is_a_pure_function_of_its_seed():
    a, b = ChanceStream(42), ChanceStream(42)
    assert [a.randrange(53) for _ in range(500)] == [b.randrange(53) for _ in range(500)]
    assert [ChanceStream(43).randrange(53) for _ in range(5)] != [ChanceStream(42).randrange(53) for _ in range(5)]
    # purposes are independent streams of one seed
    assert [ChanceStream(42, "faults").randrange(1 << 30) for _ in range(3)] != [
        ChanceStream(42).randrange(1 << 30) for _ in range(3)
    ]
    # same seed, same deal: a match is reproducible from its seed
    game = get_game("schotten-totten")
    assert dealt_hands(game, game.rules(), 7) == dealt_hands(game, game.rules(), 7)


def test_the_chance_stream_is_uniform_and_unbiased():
    stream = ChanceStream(1)
    n = 60_000
    counts = [0] * 6
    for _ in range(n):
        counts[stream.randrange(6)] += 1
    # chi-square with 5 degrees of freedom: 20.5 is the 0.999 quantile
    chi2 = sum((c - n / 6) ** 2 / (n / 6) for c in counts)
    assert chi2 < 20.5, counts
    # a range that does not divide 2**64 is drawn without modulo bias (rejection sampling)
    big = 3 * (1 << 62)
    low = sum(stream.randrange(big) < (1 << 62) for _ in range(30_000)) / 30_000
    assert abs(low - 1 / 3) < 0.02
    floats = [stream.random() for _ in range(10_000)]
    assert 0.0 <= min(floats) and max(floats) < 1.0 and abs(statistics.mean(floats) - 0.5) < 0.02
    with pytest.raises(ValueError):
        stream.randrange(0)


def test_weighted_chance_options_follow_their_weights():
    decision = Decision("chance", "roll", "", (Option("a", "a"), Option("b", "b")), (1.0, 3.0))
    for rng in (ChanceStream(5), random.Random(5)):
        picks = [sample_chance(rng, decision) for _ in range(20_000)]
        assert abs(picks.count(1) / len(picks) - 0.75) < 0.02


def test_observed_draws_do_not_predict_the_next_one():
    """Mersenne Twister's state follows from 624 outputs; the keyed stream's next word is
    independent of everything seen before it. A simple check: given the previous draw, the next
    one is still uniform (no pair of draws correlates)."""
    stream = chance_rng(99)
    pairs = [(stream.randrange(2), stream.randrange(2)) for _ in range(20_000)]
    same = sum(a == b for a, b in pairs) / len(pairs)
    assert abs(same - 0.5) < 0.02
