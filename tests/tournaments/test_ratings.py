"""Rating maths (standoff.tournaments.ratings): incremental Elo, trinomial/pentanomial Elo with 95%
margins, LOS, and the joint Bradley-Terry fit with Fisher-information intervals."""

from __future__ import annotations

import math
import random

import pytest

from standoff.tournaments.ratings import (
    ELO_PER_NAT,
    Z95,
    bradley_terry,
    bt_log_likelihood,
    elo_from_score,
    elo_log,
    elo_ratings,
    elo_update,
    expected_score,
    format_table,
    los,
    pentanomial,
    pentanomial_elo,
    score_from_elo,
    trinomial_elo,
)


def wdl(a: str, b: str, w: int, d: int, l: int) -> list[tuple[str, str, float]]:
    """W/D/L of ``a`` against ``b`` as results, alternating seats."""
    out = []
    for s, count in ((1, w), (0.5, d), (0, l)):
        for k in range(count):
            out.append((a, b, s) if k % 2 == 0 else (b, a, 1 - s))
    return out


def random_tournament(seed: int, players: int = 6, games: int = 240) -> list[tuple[str, str, float]]:
    rng = random.Random(seed)
    names = [f"p{i}" for i in range(players)]
    strength = {n: rng.gauss(0, 150) for n in names}
    out = []
    for _ in range(games):
        a, b = rng.sample(names, 2)
        p, u = score_from_elo(strength[a] - strength[b]), rng.random()
        out.append((a, b, 1 if u < 0.8 * p else 0.5 if u < 0.8 * p + 0.2 else 0))
    return out


def all_finite(result) -> bool:
    numbers = [p.rating for p in result.players] + [p.margin for p in result.players]
    numbers += [x for row in result.los for x in row] + [x for row in result.covariance for x in row]
    return all(math.isfinite(x) for x in numbers)


# --- incremental Elo ---------------------------------------------------------------------------


def test_expected_score_and_k32_update():
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1600, 1500) + expected_score(1500, 1600) == pytest.approx(1.0, abs=1e-15)
    ra, rb = elo_update(1600, 1500, 1, 32.0)
    assert round(ra - 1600, 4) == 11.5179
    assert ra + rb == pytest.approx(3100.0, abs=1e-12)
    ra, rb = elo_update(1600, 1500, 0.5, 32.0)
    assert round(ra - 1600, 4) == round(11.5179 - 16, 4)
    assert expected_score(0, 1e9) == 0.0 and expected_score(1e9, 0) == 1.0


def test_elo_log_replays_in_order():
    results = [("a", "b", 1), ("b", "c", 0.5), ("a", "c", 0)]
    log = elo_log(results, k=32.0, start=1500.0)
    assert [e.index for e in log] == [0, 1, 2]
    first, second, third = log
    assert (first.rating_a_before, first.rating_b_before) == (1500.0, 1500.0)
    assert first.delta_a == pytest.approx(16.0)
    assert second.rating_a_before == first.rating_b_after == pytest.approx(1484.0)
    assert second.rating_b_before == 1500.0
    assert third.rating_a_before == first.rating_a_after
    assert third.rating_b_before == second.rating_b_after
    final = elo_ratings(results)
    assert list(final) == ["a", "b", "c"]
    assert final["a"] == third.rating_a_after and final["c"] == third.rating_b_after
    assert sum(final.values()) == pytest.approx(4500.0)
    assert elo_log([]) == [] and elo_ratings([]) == {}


@pytest.mark.parametrize("bad", [("a", "a", 1), ("a", "b", 0.25), ("a", "b"), ("a", "b", float("nan"))])
def test_malformed_results_are_rejected(bad):
    with pytest.raises(ValueError):
        elo_log([bad])
    with pytest.raises(ValueError):
        bradley_terry([bad])


# --- trinomial / pentanomial / LOS ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("w", "d", "l", "elo", "margin"),
    [(60, 20, 20, 147.19, 66.01), (38, 30, 32, 20.87, 57.56), (1200, 2500, 1000, 14.79, 6.80), (30, 40, 30, 0.00, 53.16)],
)
def test_trinomial_vectors(w, d, l, elo, margin):
    est = trinomial_elo(w, d, l)
    assert round(est.elo, 2) == elo
    assert round(est.margin, 2) == margin
    assert est.n == w + d + l and est.score == pytest.approx((w + d / 2) / (w + d + l))
    lo, hi = est.interval
    assert (hi - lo) / 2 == pytest.approx(est.margin)


def test_trinomial_uses_population_variance_and_exact_z():
    assert Z95 == 1.959964
    est = trinomial_elo(60, 20, 20)
    assert est.stderr == pytest.approx(math.sqrt(0.16 / 100))  # var = (60·.09 + 20·.04 + 20·.49)/100
    even = trinomial_elo(30, 40, 30)
    assert even.elo == 0.0 and math.copysign(1.0, even.elo) == 1.0  # never prints as -0.00
    assert f"{even.elo:+.2f}" == "+0.00"


def test_trinomial_edge_cases():
    perfect = trinomial_elo(10, 0, 0)
    assert perfect.elo == math.inf and perfect.margin == math.inf
    assert trinomial_elo(0, 0, 10).elo == -math.inf
    assert trinomial_elo(9, 0, 1).margin == math.inf  # the upper bound of the score passes 1
    with pytest.raises(ValueError):
        trinomial_elo(0, 0, 0)
    with pytest.raises(ValueError):
        trinomial_elo(-1, 2, 3)


def test_pentanomial_vector_and_counts():
    est = pentanomial_elo([5, 20, 50, 30, 15])
    assert (round(est.elo, 2), round(est.margin, 2)) == (43.66, 32.00)
    assert est.n == 120
    totals = [0] * 5 + [0.5] * 20 + [1] * 50 + [1.5] * 30 + [2] * 15
    random.Random(3).shuffle(totals)
    assert pentanomial(totals) == [5, 20, 50, 30, 15]
    assert pentanomial([]) == [0, 0, 0, 0, 0]
    with pytest.raises(ValueError):
        pentanomial([0.75])
    with pytest.raises(ValueError):
        pentanomial_elo([1, 2, 3])
    with pytest.raises(ValueError):
        pentanomial_elo([0, 0, 0, 0, 0])


def test_los():
    assert los(0, 0) == 0.5
    assert los(10, 10) == 0.5
    assert los(60, 20) == pytest.approx(0.5 * (1 + math.erf(40 / math.sqrt(160))))
    for w, l in [(3, 1), (60, 20), (0, 7)]:
        assert los(w, l) + los(l, w) == pytest.approx(1.0, abs=1e-15)
    assert los(60, 20) > 0.999


def test_elo_score_round_trip():
    for elo in (-500.0, -10.0, 0.0, 147.19, 800.0):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo, abs=1e-9)
    assert elo_from_score(0.0) == -math.inf and elo_from_score(1.0) == math.inf


# --- Bradley-Terry: known answers -----------------------------------------------------------------


def test_bt_two_players_equals_trinomial_elo():
    result = bradley_terry(wdl("a", "b", 60, 20, 20))
    a, b = result.player("a"), result.player("b")
    assert a.rating - b.rating == pytest.approx(elo_from_score(0.7), abs=1e-7)
    assert round(a.rating - b.rating, 2) == round(trinomial_elo(60, 20, 20).elo, 2) == 147.19
    assert a.rating + b.rating == pytest.approx(0.0, abs=1e-9)
    assert result.regularized == (False,)
    assert (a.games, a.wins, a.draws, a.losses, a.score_pct) == (100, 60, 20, 20, 70.0)
    assert (b.wins, b.draws, b.losses, b.score_pct) == (20, 20, 60, 30.0)


def test_bt_exact_three_player_solution():
    # Pairwise scores 2/3, 2/3 and 4/5 are exactly σ(ln 2), σ(ln 2), σ(ln 4): the MLE is θ = (ln 2, 0, -ln 2).
    results = wdl("a", "b", 2, 0, 1) + wdl("b", "c", 2, 0, 1) + wdl("a", "c", 4, 0, 1)
    result = bradley_terry(results)
    step = 400 * math.log10(2)
    assert result.names == ("a", "b", "c")
    assert result.player("a").rating == pytest.approx(step, abs=1e-7)
    assert result.player("b").rating == pytest.approx(0.0, abs=1e-7)
    assert result.player("c").rating == pytest.approx(-step, abs=1e-7)


def test_bt_fisher_interval_matches_binomial_formula():
    wins, losses = 30, 10
    n, p = wins + losses, wins / (wins + losses)
    se_logodds = 1 / math.sqrt(n * p * (1 - p))
    anchored = bradley_terry(wdl("a", "b", wins, 0, losses), anchor="b")
    assert anchored.player("b").rating == 0.0 and anchored.player("b").margin == 0.0
    assert anchored.player("a").rating == pytest.approx(ELO_PER_NAT * math.log(p / (1 - p)), abs=1e-7)
    assert anchored.player("a").margin == pytest.approx(Z95 * se_logodds * ELO_PER_NAT, rel=1e-9)
    centred = bradley_terry(wdl("a", "b", wins, 0, losses))
    for name in "ab":  # each rating is ± half the difference
        assert centred.player(name).margin == pytest.approx(Z95 * se_logodds * ELO_PER_NAT / 2, rel=1e-9)
    expected_los = 0.5 * math.erfc(-math.log(p / (1 - p)) / se_logodds / math.sqrt(2))
    assert centred.los_of("a", "b") == pytest.approx(expected_los, rel=1e-9)


THREE = wdl("a", "b", 6, 2, 2) + wdl("b", "c", 5, 3, 2) + wdl("a", "c", 3, 1, 6) + wdl("c", "b", 1, 1, 1)


def test_bt_three_players_gradient_is_zero():
    result = bradley_terry(THREE)
    ratings = result.ratings()
    h = 1e-3
    for name in ratings:
        up = dict(ratings, **{name: ratings[name] + h})
        down = dict(ratings, **{name: ratings[name] - h})
        grad = (bt_log_likelihood(THREE, up) - bt_log_likelihood(THREE, down)) / (2 * h)
        assert abs(grad) < 1e-6
    assert sum(ratings.values()) == pytest.approx(0.0, abs=1e-9)


def test_bt_three_players_agrees_with_brute_force_grid():
    fit = bradley_terry(THREE, anchor="c").ratings()

    def ll(ra, rb):
        return bt_log_likelihood(THREE, {"a": ra, "b": rb, "c": 0.0})

    best, step = (0.0, 0.0), 64.0
    while step > 1e-3:  # coarse-to-fine grid search; the log-likelihood is concave
        candidates = [(best[0] + i * step, best[1] + j * step) for i in range(-8, 9) for j in range(-8, 9)]
        best = max(candidates, key=lambda xy: ll(*xy))
        step /= 4
    assert fit["a"] == pytest.approx(best[0], abs=0.01)
    assert fit["b"] == pytest.approx(best[1], abs=0.01)
    assert ll(fit["a"], fit["b"]) >= ll(*best) - 1e-9


def test_bt_covariance_is_pseudo_inverse_of_fisher_information():
    result = bradley_terry(random_tournament(1))
    assert result.regularized == (False,)
    cov, info, m = result.covariance, result.information, len(result.players)
    for i in range(m):
        assert sum(info[i]) == pytest.approx(0.0, abs=1e-12)  # singular along the common shift
        for j in range(m):
            product = sum(cov[i][k] * info[k][j] for k in range(m))
            assert product == pytest.approx((1.0 if i == j else 0.0) - 1.0 / m, abs=1e-9)
            assert cov[i][j] == pytest.approx(cov[j][i], abs=1e-9)
    for i, p in enumerate(result.players):
        assert p.margin == pytest.approx(Z95 * math.sqrt(cov[i][i]))


def test_bt_gauge_choice_changes_levels_not_differences():
    results = random_tournament(5)
    centred, anchored = bradley_terry(results), bradley_terry(results, anchor="p3")
    assert anchored.player("p3").rating == 0.0
    rc, ra = centred.ratings(), anchored.ratings()
    for x in rc:
        for y in rc:
            assert rc[x] - rc[y] == pytest.approx(ra[x] - ra[y], abs=1e-7)
            assert centred.los_of(x, y) == pytest.approx(anchored.los_of(x, y), abs=1e-9)


def test_los_matrix_is_complementary():
    result = bradley_terry(random_tournament(7, players=8, games=300))
    m = len(result.players)
    for i in range(m):
        assert result.los[i][i] == 0.5
        for j in range(m):
            assert result.los[i][j] + result.los[j][i] == pytest.approx(1.0, abs=1e-12)
            if result.players[i].rating > result.players[j].rating:
                assert result.los[i][j] > 0.5


def test_bt_is_deterministic_whatever_the_input_order():
    results = random_tournament(11)
    base = bradley_terry(results)
    rng = random.Random(0)
    for _ in range(3):
        shuffled = [(b, a, 1 - s) if rng.random() < 0.5 else (a, b, s) for a, b, s in results]
        rng.shuffle(shuffled)
        again = bradley_terry(shuffled)
        assert again == base
        assert format_table(again) == format_table(base)


# --- Bradley-Terry: edge cases, all finite ----------------------------------------------------------


def test_no_games_at_all():
    empty = bradley_terry([])
    assert empty.players == () and empty.los == () and empty.components == ()
    assert format_table(empty) == "No players."
    idle = bradley_terry([], players=["y", "x"])
    assert idle.names == ("x", "y")
    assert all(p.rating == 0.0 and p.margin == 0.0 and p.games == 0 and p.score_pct is None for p in idle.players)
    assert idle.los == ((0.5, 0.5), (0.5, 0.5))
    assert "x" in format_table(idle)


def test_single_player():
    solo = bradley_terry([], players=["solo"])
    (p,) = solo.players
    assert (p.name, p.rating, p.margin, p.games) == ("solo", 0.0, 0.0, 0)
    assert solo.los == ((0.5,),) and solo.covariance == ((0.0,),)
    assert "solo" in format_table(solo)
    assert bradley_terry([], players=["solo"], anchor="solo").player("solo").rating == 0.0


def test_one_decisive_game_is_regularised():
    result = bradley_terry([("a", "b", 1)])
    assert result.regularized == (True,)
    assert all_finite(result)
    a, b = result.player("a"), result.player("b")
    assert a.rating > 0 > b.rating and a.rating == pytest.approx(-b.rating)
    assert 0.5 < result.los_of("a", "b") < 1.0
    assert "Regularised" in format_table(result)


def test_one_drawn_game_needs_no_prior():
    result = bradley_terry([("a", "b", 0.5)])
    assert result.regularized == (False,)
    assert result.player("a").rating == pytest.approx(0.0, abs=1e-12)
    # var(diff) = 1 / (n p (1-p)) = 4 log-odds², split evenly between the two centred ratings.
    assert result.player("a").margin == pytest.approx(Z95 * ELO_PER_NAT * 2 / 2)
    assert result.los_of("a", "b") == pytest.approx(0.5)


def test_player_winning_or_losing_everything_stays_finite_and_ordered():
    results = (
        wdl("ace", "mid", 5, 0, 0) + wdl("ace", "low", 4, 0, 0)
        + wdl("mid", "low", 3, 2, 3) + wdl("mid", "dud", 3, 0, 0) + wdl("low", "dud", 2, 0, 0)
    )
    result = bradley_terry(results)
    assert result.regularized == (True,)
    assert all_finite(result)
    assert result.names[0] == "ace" and result.names[-1] == "dud"
    assert result.player("ace").wins == 9 and result.player("dud").losses == 5
    assert result.player("ace").rating > result.player("mid").rating > result.player("dud").rating
    assert sum(result.ratings().values()) == pytest.approx(0.0, abs=1e-9)
    huge = bradley_terry(wdl("a", "b", 1000, 0, 0))
    assert all_finite(huge) and huge.player("a").rating > 500


def test_prior_options():
    results = wdl("a", "b", 60, 20, 20)
    shrunk = bradley_terry(results, prior="always")
    assert shrunk.regularized == (True,)
    assert 0 < shrunk.player("a").rating < bradley_terry(results).player("a").rating
    heavier = bradley_terry(results, prior="always", prior_draws=10)
    assert heavier.player("a").rating < shrunk.player("a").rating
    with pytest.raises(ValueError):
        bradley_terry(results, prior="never")
    with pytest.raises(ValueError):
        bradley_terry(results, prior_draws=0)
    with pytest.raises(ValueError):
        bradley_terry(results, anchor="nobody")


def test_disconnected_players():
    results = wdl("a", "b", 6, 2, 2) + wdl("x", "y", 2, 2, 2) + wdl("y", "z", 3, 1, 1) + wdl("x", "z", 1, 1, 3)
    result = bradley_terry(results, players=["loner"])
    assert result.components == (("a", "b"), ("loner",), ("x", "y", "z"))
    assert result.regularized == (False, False, False)
    assert all_finite(result)
    by_comp = {}
    for p in result.players:
        by_comp.setdefault(p.component, []).append(p.rating)
    for ratings in by_comp.values():
        assert sum(ratings) == pytest.approx(0.0, abs=1e-9)  # each component centred on its own
    assert result.los_of("a", "x") == 0.5 and result.los_of("z", "b") == 0.5
    assert result.covariance[result.index("a")][result.index("y")] == 0.0
    assert result.player("a").rating - result.player("b").rating == pytest.approx(elo_from_score(0.7), abs=1e-7)
    table = format_table(result)
    assert "Grp" in table and "no games link" in table and "?" in table
    anchored = bradley_terry(results, anchor="y")
    assert anchored.player("y").rating == 0.0
    assert sum(p.rating for p in anchored.players if p.name in "ab") == pytest.approx(0.0, abs=1e-9)


def test_format_table_layout():
    result = bradley_terry(THREE)
    table = format_table(result)
    lines = table.splitlines()
    assert lines[0].split()[:4] == ["Rank", "Player", "Rating", "±"]
    rows = lines[2:5]
    assert [row.split()[1] for row in rows] == list(result.names)
    assert rows[0].split()[0] == "1"
    assert "Likelihood of superiority" in table
    top = result.players[0]
    assert f"{top.rating:+.1f}" in rows[0] and f"{top.margin:.1f}" in rows[0]
    assert f"{top.score_pct:.1f}%" in rows[0]
    assert not table.endswith("\n")
