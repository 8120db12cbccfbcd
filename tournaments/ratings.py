"""Rating maths for the tournament scheduler: pure functions, no I/O, standard library only.

Ratings are never stored as mutable truth: every function here recomputes them from the list of
game results, so the same results always give the same numbers.

A *result* is a triple ``(player_a, player_b, score_a)``: two distinct player names (strings) and
the score of ``player_a``, one of ``1`` (win), ``0.5`` (draw) or ``0`` (loss). Lists of results are
in canonical match order (the order the matches were scheduled), which matters only for the
incremental Elo log.

What is here:

* :func:`expected_score`, :func:`elo_update` and :func:`elo_log`: incremental (online) Elo.
* :func:`trinomial_elo`, :func:`pentanomial_elo`, :func:`los` and :func:`pentanomial`: the Elo
  difference between two players with a 95% interval, as cutechess and fishtest report it.
* :func:`bradley_terry`: joint maximum-likelihood ratings of many players with Fisher-information
  intervals, the covariance and the likelihood-of-superiority matrix; :func:`format_table` prints
  it as a standings table.

Matches of more than two players are not rated here directly: the tournament turns each into its
pairwise results first (:meth:`standoff.tournaments.model.Result.pairwise`; why, and what it
costs, in :mod:`standoff.tournaments.report`).

Conventions: ratings and margins are in Elo units (``400·log10`` of the odds); a margin is the
half-width of a 95% interval, using :data:`Z95` ``= 1.959964``; variances are *population*
variances (divide by ``N``, not ``N - 1``), which is what reproduces cutechess/fishtest.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from .ranks import standings_ranks

__all__ = [
    "ELO_PER_NAT",
    "Z95",
    "BradleyTerryResult",
    "EloEntry",
    "EloEstimate",
    "PlayerRating",
    "Result",
    "bradley_terry",
    "bradley_terry_pairs",
    "bt_log_likelihood",
    "elo_from_score",
    "elo_log",
    "elo_ratings",
    "elo_update",
    "expected_score",
    "format_table",
    "los",
    "pentanomial",
    "pentanomial_elo",
    "score_from_elo",
    "trinomial_elo",
]

Z95 = 1.959964
"""The two-sided 95% normal quantile, exactly as cutechess/fishtest use it."""

ELO_PER_NAT = 400.0 / math.log(10.0)
"""Elo points per natural-log unit of odds (≈ 173.7178): ``elo = ELO_PER_NAT * theta``."""

Result = tuple[str, str, float]
"""``(player_a, player_b, score_a)`` with ``score_a`` in ``{1, 0.5, 0}``."""

_SCORES = (0, 0.5, 1)
_PAIR_SCORES = (0, 0.5, 1, 1.5, 2)


def _check_result(result: Sequence) -> tuple[str, str, float]:
    try:
        a, b, score = result
    except (TypeError, ValueError):
        raise ValueError(f"a result is (player_a, player_b, score_a), got {result!r}") from None
    if a == b:
        raise ValueError(f"a player cannot play itself: {result!r}")
    if score not in _SCORES:
        raise ValueError(f"score_a must be 1, 0.5 or 0, got {score!r} in {result!r}")
    return a, b, float(score)


# ---------------------------------------------------------------------------------------------
# Incremental Elo
# ---------------------------------------------------------------------------------------------


def expected_score(ra: float, rb: float) -> float:
    """The expected score of a player rated ``ra`` against one rated ``rb``:
    ``1 / (1 + 10 ** ((rb - ra) / 400))``, in ``[0, 1]``.

    >>> round(expected_score(1600, 1500), 5)
    0.64006
    """
    diff = (rb - ra) / 400.0
    if diff > 300:  # 10 ** 300 is still a float; beyond it the answer is 0 anyway
        return 0.0
    return 1.0 / (1.0 + 10.0**diff)


def elo_update(ra: float, rb: float, score_a: float, k: float = 32.0) -> tuple[float, float]:
    """The ratings ``(ra', rb')`` after one game in which player A scored ``score_a``.

    ``ra' = ra + k (score_a - E)`` with ``E = expected_score(ra, rb)``, and B loses exactly what A
    gains (``rb' = rb - (ra' - ra)``), so the sum of ratings is conserved.

    :raises: :exc:`ValueError` if ``score_a`` is not ``1``, ``0.5`` or ``0``.

    >>> round(elo_update(1600, 1500, 1)[0] - 1600, 4)
    11.5179
    """
    if score_a not in _SCORES:
        raise ValueError(f"score_a must be 1, 0.5 or 0, got {score_a!r}")
    delta = k * (score_a - expected_score(ra, rb))
    return ra + delta, rb - delta


@dataclass(frozen=True, slots=True)
class EloEntry:
    """One line of the incremental Elo log: the game and both ratings before and after it."""

    index: int
    """Position of the game in the results list (0-based)."""
    player_a: str
    player_b: str
    score_a: float
    rating_a_before: float
    rating_b_before: float
    rating_a_after: float
    rating_b_after: float

    @property
    def delta_a(self) -> float:
        """Rating change of player A (player B's change is its negation)."""
        return self.rating_a_after - self.rating_a_before


def elo_log(results: Iterable[Result], k: float = 32.0, start: float = 1500.0) -> list[EloEntry]:
    """Replays ``results`` in order through :func:`elo_update` and returns one :class:`EloEntry`
    per game. Every player starts at ``start`` on its first game. Empty results give ``[]``.

    :raises: :exc:`ValueError` if a result is malformed (not a triple, a player against itself, or
        a score other than ``1``, ``0.5``, ``0``).
    """
    ratings: dict[str, float] = {}
    log = []
    for index, result in enumerate(results):
        a, b, score = _check_result(result)
        ra, rb = ratings.get(a, start), ratings.get(b, start)
        na, nb = elo_update(ra, rb, score, k)
        ratings[a], ratings[b] = na, nb
        log.append(EloEntry(index, a, b, score, ra, rb, na, nb))
    return log


def elo_ratings(results: Iterable[Result], k: float = 32.0, start: float = 1500.0) -> dict[str, float]:
    """The final incremental Elo rating of every player that appears in ``results`` (see
    :func:`elo_log`), as a dict sorted by player name."""
    ratings: dict[str, float] = {}
    for entry in elo_log(results, k, start):
        ratings[entry.player_a] = entry.rating_a_after
        ratings[entry.player_b] = entry.rating_b_after
    return dict(sorted(ratings.items()))


# ---------------------------------------------------------------------------------------------
# Head-to-head Elo difference: trinomial (W/D/L) and pentanomial (game pairs)
# ---------------------------------------------------------------------------------------------


def elo_from_score(x: float) -> float:
    """The Elo difference that gives an expected score ``x``: ``-400 log10(1/x - 1)``.

    Returns ``-inf`` for ``x <= 0`` and ``+inf`` for ``x >= 1``; ``0.0`` (never ``-0.0``) at 0.5.
    """
    if x <= 0.0:
        return -math.inf
    if x >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / x - 1.0) + 0.0


def score_from_elo(elo: float) -> float:
    """The expected score at an Elo difference ``elo`` (inverse of :func:`elo_from_score`)."""
    return expected_score(elo, 0.0)


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """An Elo difference with its 95% margin, as cutechess prints ``elo ± margin``."""

    elo: float
    """``elo_from_score(score)``; ``±inf`` when the score is 1 or 0."""
    margin: float
    """Half-width of the 95% interval in Elo: ``(Elo(p + z·se) - Elo(p - z·se)) / 2``. It is
    ``inf`` when the interval on the score reaches 0 or 1 (including ``p`` itself being 0 or 1)."""
    score: float
    """Mean score ``p`` per game (trinomial) or per game of a pair (pentanomial), in ``[0, 1]``."""
    stderr: float
    """Standard error of ``score``: ``sqrt(var / n)`` with the population variance."""
    n: int
    """Number of samples: games (trinomial) or game pairs (pentanomial)."""

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval in Elo, ``(Elo(p - z·se), Elo(p + z·se))`` (not symmetric)."""
        z = Z95 * self.stderr
        return elo_from_score(self.score - z), elo_from_score(self.score + z)


def _estimate(values: Sequence[float], counts: Sequence[int]) -> EloEstimate:
    """Mean/population variance of a discrete distribution → :class:`EloEstimate`."""
    if any(not isinstance(c, int) or c < 0 for c in counts):
        raise ValueError(f"counts must be non-negative integers, got {list(counts)!r}")
    n = sum(counts)
    if n == 0:
        raise ValueError("no games: the Elo difference is undefined")
    p = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - p) ** 2 for c, v in zip(counts, values)) / n
    se = math.sqrt(var / n)
    elo = elo_from_score(p)
    if math.isfinite(elo):
        margin = (elo_from_score(p + Z95 * se) - elo_from_score(p - Z95 * se)) / 2.0
    else:
        margin = math.inf
    return EloEstimate(elo, margin, p, se, n)


def trinomial_elo(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo difference with a 95% margin from a W/D/L record, as cutechess/fishtest compute it.

    ``p = (W + D/2) / N``; per-game variance ``(W(1-p)² + D(1/2-p)² + L(0-p)²) / N`` (population
    variance: dividing by ``N - 1`` does *not* reproduce cutechess); ``se = sqrt(var / N)``;
    ``elo = Elo(p)`` and ``margin = (Elo(p + z·se) - Elo(p - z·se)) / 2`` with ``z = 1.959964``.

    >>> e = trinomial_elo(60, 20, 20)
    >>> round(e.elo, 2), round(e.margin, 2)
    (147.19, 66.01)

    :raises: :exc:`ValueError` if a count is negative or not an integer, or there are no games.
    """
    return _estimate((1.0, 0.5, 0.0), (wins, draws, losses))


def pentanomial_elo(counts: Sequence[int]) -> EloEstimate:
    """Elo difference with a 95% margin from pentanomial counts of game pairs (each opening/seed
    played twice with the seats swapped), as fishtest computes it.

    ``counts = [LL, LD, WL+DD, WD, WW]``: the number of pairs whose total score was 0, 0.5, 1, 1.5
    and 2. The sample is the pair score halved (0, 0.25, 0.5, 0.75, 1); ``p`` is its mean, the
    variance is the population variance over pairs, ``se = sqrt(var / pairs)``, and the Elo and
    margin follow as in :func:`trinomial_elo`. ``n`` of the result counts pairs.

    >>> e = pentanomial_elo([5, 20, 50, 30, 15])
    >>> round(e.elo, 2), round(e.margin, 2)
    (43.66, 32.0)

    :raises: :exc:`ValueError` unless ``counts`` has five non-negative integers with a positive sum.
    """
    counts = list(counts)
    if len(counts) != 5:
        raise ValueError(f"pentanomial counts have 5 entries, got {counts!r}")
    return _estimate((0.0, 0.25, 0.5, 0.75, 1.0), counts)


def pentanomial(pair_scores: Iterable[float]) -> list[int]:
    """Pentanomial counts ``[LL, LD, WL+DD, WD, WW]`` from the total scores of game pairs
    (each total in ``{0, 0.5, 1, 1.5, 2}``, from one player's point of view).

    >>> pentanomial([2, 1, 1, 0.5, 1.5, 2])
    [0, 1, 2, 1, 2]

    :raises: :exc:`ValueError` if a total is not one of the five values.
    """
    counts = [0, 0, 0, 0, 0]
    for total in pair_scores:
        if total not in _PAIR_SCORES:
            raise ValueError(f"a pair total is 0, 0.5, 1, 1.5 or 2, got {total!r}")
        counts[int(total * 2)] += 1
    return counts


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority from wins and losses (draws carry no information):
    ``0.5 (1 + erf((W - L) / sqrt(2 (W + L))))``. Returns ``0.5`` when ``W + L == 0``.
    """
    if wins + losses <= 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


# ---------------------------------------------------------------------------------------------
# Small dense linear algebra
# ---------------------------------------------------------------------------------------------


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Inverse of a square matrix by Gauss-Jordan elimination with partial pivoting.

    :raises: :exc:`ArithmeticError` if the matrix is (numerically) singular.
    """
    n = len(matrix)
    aug = [list(map(float, row)) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    scale = max((abs(x) for row in matrix for x in row), default=0.0)
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(aug[r][col]))
        if abs(aug[pivot][col]) <= 1e-14 * scale or scale == 0.0:
            raise ArithmeticError("singular matrix")
        aug[col], aug[pivot] = aug[pivot], aug[col]
        inv_p = 1.0 / aug[col][col]
        row_c = [x * inv_p for x in aug[col]]
        aug[col] = row_c
        for r in range(n):
            if r != col:
                f = aug[r][col]
                if f != 0.0:
                    row_r = aug[r]
                    aug[r] = [x - f * y for x, y in zip(row_r, row_c)]
    return [row[n:] for row in aug]


def _matvec(m: list[list[float]], v: list[float]) -> list[float]:
    return [sum(a * b for a, b in zip(row, v)) for row in m]


# ---------------------------------------------------------------------------------------------
# Bradley-Terry
# ---------------------------------------------------------------------------------------------


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


def _log_sigmoid(x: float) -> float:
    if x >= 0:
        return -math.log1p(math.exp(-x))
    return x - math.log1p(math.exp(x))


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One player's line in a :class:`BradleyTerryResult`."""

    name: str
    rating: float
    """Elo, relative to the gauge: the mean of the player's component is 0, or the anchor is 0."""
    margin: float
    """Half-width of the 95% interval, ``Z95 · sqrt(var)`` from the covariance (Elo). ``0.0`` for
    a player alone in its component (no games, or the only player): its rating is 0 by definition
    of the gauge and there is nothing to compare it with."""
    games: int
    wins: int
    draws: int
    losses: int
    score_pct: float | None
    """``100 (W + D/2) / games``; ``None`` for a player without games."""
    component: int
    """Index into :attr:`BradleyTerryResult.components`: ratings in different components are not
    comparable (no chain of games links them)."""

    @property
    def stderr(self) -> float:
        """Standard error of the rating (Elo)."""
        return self.margin / Z95


@dataclass(frozen=True, slots=True)
class BradleyTerryResult:
    """Output of :func:`bradley_terry`. All matrices are indexed in the order of :attr:`players`
    (the standings: rating descending, ties by name)."""

    players: tuple[PlayerRating, ...]
    los: tuple[tuple[float, ...], ...]
    """``los[i][j]``: likelihood that player ``i`` is stronger than player ``j``,
    ``Φ((r_i - r_j) / sqrt(var_i + var_j - 2 cov_ij))``. ``los[i][j] + los[j][i] == 1``; the
    diagonal, and pairs in different components, are ``0.5``."""
    covariance: tuple[tuple[float, ...], ...]
    """Covariance of the ratings (Elo²) in the reported gauge; zero between components."""
    information: tuple[tuple[float, ...], ...]
    """Observed Fisher information (Hessian of the negative log-likelihood, including the prior
    when a component is regularised) in Elo⁻², block diagonal by component. For an unregularised
    component in the mean-zero gauge, ``covariance`` is its Moore-Penrose pseudo-inverse."""
    components: tuple[tuple[str, ...], ...]
    """Groups of players linked by games (names sorted; groups ordered by their first name)."""
    regularized: tuple[bool, ...]
    """Per component: whether the virtual-draw prior was applied (see :func:`bradley_terry`)."""
    anchor: str | None
    prior_draws: float
    """Weight of the prior where it was applied, in virtual draws per player."""

    @property
    def names(self) -> tuple[str, ...]:
        """Player names in standings order (the matrix order)."""
        return tuple(p.name for p in self.players)

    def index(self, name: str) -> int:
        """Row/column of ``name`` in the matrices. :raises: :exc:`KeyError` if unknown."""
        for i, p in enumerate(self.players):
            if p.name == name:
                return i
        raise KeyError(name)

    def player(self, name: str) -> PlayerRating:
        """The :class:`PlayerRating` of ``name``. :raises: :exc:`KeyError` if unknown."""
        return self.players[self.index(name)]

    def ratings(self) -> dict[str, float]:
        """``{name: rating}`` in standings order."""
        return {p.name: p.rating for p in self.players}

    def los_of(self, a: str, b: str) -> float:
        """Likelihood that ``a`` is stronger than ``b``."""
        return self.los[self.index(a)][self.index(b)]


def _strongly_connected(members: list[int], score: list[list[float]]) -> bool:
    """Whether the graph with an edge i→j when i scored against j is strongly connected (the
    Zermelo/Ford condition for a finite Bradley-Terry maximum-likelihood estimate)."""
    m = len(members)
    for forward in (True, False):
        seen = {0}
        stack = [0]
        while stack:
            u = stack.pop()
            for v in range(m):
                if v not in seen and (score[u][v] if forward else score[v][u]) > 0:
                    seen.add(v)
                    stack.append(v)
        if len(seen) != m:
            return False
    return True


def _fit_component(
    games: list[list[float]], score: list[list[float]], prior: float
) -> tuple[list[float], list[list[float]], list[list[float]]]:
    """Newton's method on the log-strengths of one connected component.

    ``games[i][j]`` / ``score[i][j]``: games between i and j and i's score in them. With
    ``prior == 0`` parameter 0 is fixed at 0 (the gauge); with ``prior > 0`` each player has
    ``prior`` virtual draws against a virtual opponent fixed at 0, and all parameters are free.

    Returns ``(theta, sigma, hessian)``: the log-strengths, their covariance in that
    parameterisation (zero row/column for a fixed parameter), and the full Hessian of the negative
    log-likelihood, all in natural-log units.
    """
    m = len(games)
    free = list(range(m)) if prior > 0 else list(range(1, m))
    theta = [0.0] * m

    def loglik(t: list[float]) -> float:
        total = 0.0
        for i in range(m):
            for j in range(i + 1, m):
                n = games[i][j]
                if n:
                    d = t[i] - t[j]
                    s = score[i][j]
                    total += s * _log_sigmoid(d) + (n - s) * _log_sigmoid(-d)
            if prior:
                total += prior * 0.5 * (_log_sigmoid(t[i]) + _log_sigmoid(-t[i]))
        return total

    def grad_hess(t: list[float]) -> tuple[list[float], list[list[float]]]:
        g = [0.0] * m
        h = [[0.0] * m for _ in range(m)]
        for i in range(m):
            for j in range(i + 1, m):
                n = games[i][j]
                if n:
                    p = _sigmoid(t[i] - t[j])
                    r = score[i][j] - n * p
                    g[i] += r
                    g[j] -= r
                    w = n * p * (1.0 - p)
                    h[i][i] += w
                    h[j][j] += w
                    h[i][j] -= w
                    h[j][i] -= w
            if prior:
                p = _sigmoid(t[i])
                g[i] += prior * (0.5 - p)
                h[i][i] += prior * p * (1.0 - p)
        return g, h

    total_games = sum(sum(row) for row in games) / 2.0 + prior * m
    tol = 1e-10 * max(1.0, total_games)
    current = loglik(theta)
    for _ in range(200):
        g, h = grad_hess(theta)
        gf = [g[i] for i in free]
        if max((abs(x) for x in gf), default=0.0) <= tol:
            break
        step = _matvec(_invert([[h[i][j] for j in free] for i in free]), gf)
        t = 1.0
        for _ in range(60):
            trial = theta[:]
            for k, i in enumerate(free):
                trial[i] += t * step[k]
            value = loglik(trial)
            if value >= current - 1e-12 * abs(current):
                break
            t *= 0.5
        if max(abs(t * x) for x in step) < 1e-13:
            theta = trial
            break
        theta, current = trial, value
    _, h = grad_hess(theta)
    sigma = [[0.0] * m for _ in range(m)]
    if free:
        inv = _invert([[h[i][j] for j in free] for i in free])
        for a, i in enumerate(free):
            for b, j in enumerate(free):
                sigma[i][j] = inv[a][b]
    return theta, sigma, h


def _normal_cdf(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


def bradley_terry(
    results: Iterable[Result],
    *,
    anchor: str | None = None,
    players: Iterable[str] = (),
    prior: str = "auto",
    prior_draws: float = 1.0,
) -> BradleyTerryResult:
    """Joint maximum-likelihood Bradley-Terry ratings of every player from all results.

    Model: ``P(i beats j) = 1 / (1 + exp(θ_j - θ_i))``; a draw counts as half a win and half a
    loss (the log-likelihood of a game is ``s log P + (1 - s) log(1 - P)``). It is maximised by
    Newton's method (with step halving) on the log-strengths θ, and ratings are reported in Elo,
    ``rating = θ · 400 / ln 10``. With two players the rating difference is exactly
    ``elo_from_score(score)``: W/D/L 60/20/20 gives +147.19.

    Gauge: only differences are identified. Each connected component (players linked by a chain of
    games) is centred to mean rating 0, except that with ``anchor=name`` the anchor's component is
    shifted so the anchor is exactly 0 (and has margin 0). Ratings of different components are not
    comparable: their mutual LOS is 0.5 and their covariance 0.

    Intervals: the observed Fisher information ``I`` (Hessian of the negative log-likelihood) of a
    component is singular along the common shift. The covariance is computed with one parameter
    fixed (``θ_0 = 0``, inverse of the reduced ``I``) and then mapped to the reported gauge:
    ``cov = A Σ Aᵀ`` with ``A`` the centring (or anchor-subtracting) map. In the mean-zero gauge
    this equals the pseudo-inverse ``I⁺``. ``margin = 1.959964 · sqrt(cov_ii)``. For two players
    without draws the margin of the difference is ``1.959964 / sqrt(N p (1-p))`` in log-odds units.

    Regularisation: the maximum-likelihood estimate is finite iff, within the component, every
    split of the players into two groups has each group scoring at least half a point against the
    other (Zermelo/Ford: the graph "i scored against j" is strongly connected). When it is not —
    a player won or lost every game, a single decisive game, one group swept another — the
    component gets a weak prior: every player has ``prior_draws`` (default 1) virtual draws against
    a virtual opponent fixed at rating 0. Its ratings are then finite posterior modes, ordered
    sensibly (the sweeper above the swept), and its information includes the prior. The prior is
    applied only where needed (``prior="auto"``) or to every component with games
    (``prior="always"``), and :attr:`BradleyTerryResult.regularized` says where it was.

    Edge cases, all finite: no games at all gives every player (from ``players``) rating 0, margin
    0 and an all-0.5 LOS matrix (and no results and no ``players`` give an empty result); a player
    alone in its component (including a single player) has rating 0, margin 0 and ``score_pct``
    ``None`` if it has no games.

    Determinism: results are aggregated per pair (sums of half points, which are exact) and
    players processed in sorted name order, so the output is identical whatever the order of the
    results and of each result's two players.

    :param results: ``(player_a, player_b, score_a)`` triples.
    :param anchor: a player whose rating is fixed at 0, or ``None`` for mean-zero components.
    :param players: extra player names to include even without games.
    :param prior: ``"auto"`` or ``"always"`` (see Regularisation).
    :param prior_draws: weight of the prior, in virtual draws per player (must be > 0).
    :raises: :exc:`ValueError` for a malformed result, an unknown ``anchor``, an unknown ``prior``
        or a non-positive ``prior_draws``.
    """
    pairs: dict[tuple[str, str], list[int]] = {}  # aggregated, then fitted: bradley_terry_pairs
    for result in results:
        a, b, s = _check_result(result)
        key, s_first = ((a, b), s) if a < b else ((b, a), 1.0 - s)
        pairs.setdefault(key, [0, 0, 0])[{1.0: 0, 0.5: 1, 0.0: 2}[s_first]] += 1
    return bradley_terry_pairs(pairs, anchor=anchor, players=players, prior=prior, prior_draws=prior_draws)


def bradley_terry_pairs(
    pairs: Mapping[tuple[str, str], Sequence[int]],
    *,
    anchor: str | None = None,
    players: Iterable[str] = (),
    prior: str = "auto",
    prior_draws: float = 1.0,
) -> BradleyTerryResult:
    """:func:`bradley_terry` from per-pair counts: ``pairs`` maps ``(a, b)`` (either order) to
    ``a``'s wins, draws and losses against ``b``. The fit needs only these, so the result is bit
    for bit :func:`bradley_terry`'s over the games they count, at a cost independent of their
    number (a run's index keeps them: :mod:`standoff.tournaments.run_index`). Raises as
    :func:`bradley_terry` does, and for a player against itself or a count that is not a
    non-negative integer."""
    if prior not in ("auto", "always"):
        raise ValueError(f"prior must be 'auto' or 'always', got {prior!r}")
    if not prior_draws > 0:
        raise ValueError(f"prior_draws must be positive, got {prior_draws!r}")

    pair_games: dict[tuple[str, str], int] = {}
    pair_score: dict[tuple[str, str], float] = {}  # score of the first (smaller) name
    wdl: dict[str, list[int]] = {name: [0, 0, 0] for name in players}
    for (a, b), (w, d, lo) in pairs.items():
        if a == b or any(not isinstance(c, int) or isinstance(c, bool) or c < 0 for c in (w, d, lo)):
            raise ValueError(f"a player cannot play itself, and wins, draws and losses are non-negative integers: "
                             f"got {(a, b)!r}: {[w, d, lo]!r}")
        a, b, w, lo = (a, b, w, lo) if a < b else (b, a, lo, w)
        if w + d + lo:  # else the pair links nobody
            for name, row in ((a, (w, d, lo)), (b, (lo, d, w))):
                wdl[name] = [x + y for x, y in zip(wdl.get(name, [0, 0, 0]), row)]
            pair_games[(a, b)] = pair_games.get((a, b), 0) + w + d + lo
            # Half points are exact in binary floating point: w + d/2 is the sum of the games' scores.
            pair_score[(a, b)] = pair_score.get((a, b), 0.0) + (w + 0.5 * d)

    names = sorted(wdl)
    if anchor is not None and anchor not in wdl:
        raise ValueError(f"anchor {anchor!r} is not a player")
    index = {name: i for i, name in enumerate(names)}
    n_all = len(names)
    neighbours: list[list[int]] = [[] for _ in range(n_all)]
    for a, b in sorted(pair_games):
        neighbours[index[a]].append(index[b])
        neighbours[index[b]].append(index[a])

    comp_of = [-1] * n_all
    comps: list[list[int]] = []
    for start in range(n_all):
        if comp_of[start] >= 0:
            continue
        comp_of[start] = len(comps)
        members, stack = [], [start]
        while stack:
            u = stack.pop()
            members.append(u)
            for v in neighbours[u]:
                if comp_of[v] < 0:
                    comp_of[v] = len(comps)
                    stack.append(v)
        comps.append(sorted(members))

    rating = [0.0] * n_all
    cov = [[0.0] * n_all for _ in range(n_all)]
    info = [[0.0] * n_all for _ in range(n_all)]
    regularized = []
    c = ELO_PER_NAT
    for members in comps:
        m = len(members)
        if m == 1:
            regularized.append(False)
            continue
        games = [[0.0] * m for _ in range(m)]
        score = [[0.0] * m for _ in range(m)]
        for x, i in enumerate(members):
            for y, j in enumerate(members):
                if i < j and (key := (names[i], names[j])) in pair_games:
                    games[x][y] = games[y][x] = float(pair_games[key])
                    score[x][y] = pair_score[key]
                    score[y][x] = pair_games[key] - pair_score[key]
        use_prior = prior == "always" or not _strongly_connected(members, score)
        regularized.append(use_prior)
        theta, sigma, hess = _fit_component(games, score, prior_draws if use_prior else 0.0)

        local_anchor = members.index(index[anchor]) if anchor is not None and index[anchor] in members else None
        if local_anchor is None:
            shift = sum(theta) / m
            row_mean = [sum(row) / m for row in sigma]
            all_mean = sum(row_mean) / m
            gauge_cov = [[sigma[x][y] - row_mean[x] - row_mean[y] + all_mean for y in range(m)] for x in range(m)]
        else:
            a = local_anchor
            shift = theta[a]
            gauge_cov = [[sigma[x][y] - sigma[x][a] - sigma[a][y] + sigma[a][a] for y in range(m)] for x in range(m)]
        for x, i in enumerate(members):
            rating[i] = c * (theta[x] - shift) + 0.0
            for y, j in enumerate(members):
                cov[i][j] = c * c * gauge_cov[x][y]
                info[i][j] = hess[x][y] / (c * c)
        if local_anchor is not None:
            rating[members[local_anchor]] = 0.0

    order = sorted(range(n_all), key=lambda i: (-round(rating[i], 9), names[i]))
    los_matrix = []
    for i in order:
        row = []
        for j in order:
            if i == j or comp_of[i] != comp_of[j]:
                row.append(0.5)
                continue
            diff = rating[i] - rating[j]
            var = cov[i][i] + cov[j][j] - 2.0 * cov[i][j]
            if var > 1e-12 * (1.0 + cov[i][i] + cov[j][j]):
                row.append(_normal_cdf(diff / math.sqrt(var)))
            else:
                row.append(0.5 if diff == 0 else (1.0 if diff > 0 else 0.0))
        los_matrix.append(tuple(row))

    entries = []
    for i in order:
        w, d, lo = wdl[names[i]]
        g = w + d + lo
        margin = Z95 * math.sqrt(max(cov[i][i], 0.0))
        pct = 100.0 * (w + d / 2.0) / g if g else None
        entries.append(PlayerRating(names[i], rating[i], margin, g, w, d, lo, pct, comp_of[i]))

    return BradleyTerryResult(
        players=tuple(entries),
        los=tuple(los_matrix),
        covariance=tuple(tuple(cov[i][j] for j in order) for i in order),
        information=tuple(tuple(info[i][j] for j in order) for i in order),
        components=tuple(tuple(names[i] for i in members) for members in comps),
        regularized=tuple(regularized),
        anchor=anchor,
        prior_draws=float(prior_draws),
    )


def bt_log_likelihood(results: Iterable[Result], ratings: Mapping[str, float]) -> float:
    """The Bradley-Terry log-likelihood (natural log, draws as half points, no prior) of
    ``results`` at the given Elo ``ratings``. :func:`bradley_terry` maximises it.

    :raises: :exc:`ValueError` for a malformed result; :exc:`KeyError` for a player missing from
        ``ratings``.
    """
    total = 0.0
    for result in results:
        a, b, s = _check_result(result)
        d = (ratings[a] - ratings[b]) / ELO_PER_NAT
        total += s * _log_sigmoid(d) + (1.0 - s) * _log_sigmoid(-d)
    return total


# ---------------------------------------------------------------------------------------------
# Printing
# ---------------------------------------------------------------------------------------------


def format_table(result: BradleyTerryResult) -> str:
    """A standings table (rank, player, rating, ±, games, W/D/L, score %) followed by the
    likelihood-of-superiority matrix (row beats column, in %; columns are ranks; ``?`` between
    players of different components), as a tournament prints at the end. Players without games show ``-`` for ± and score. When the players form
    several components, a ``Grp`` column tells them apart (ratings only compare within a group);
    notes under the table say where the prior was applied and what the gauge is. The text has no
    trailing newline.
    """
    players = result.players
    if not players:
        return "No players."
    width = max(6, max(len(p.name) for p in players))
    many = len(result.components) > 1
    head = f"{'Rank':>4}  {'Player':<{width}}  {'Rating':>7}  {'±':>6}  {'Games':>5}  {'W':>4}  {'D':>4}  {'L':>4}  {'Score':>6}"
    if many:
        head += "  Grp"
    lines = [head, "-" * len(head)]
    for rank, p in zip(standings_ranks(players), players):  # tied ratings share a place
        margin = f"{p.margin:6.1f}" if p.games else f"{'-':>6}"
        pct = f"{p.score_pct:5.1f}%" if p.score_pct is not None else f"{'-':>6}"
        line = (
            f"{rank:>4}  {p.name:<{width}}  {p.rating:+7.1f}  {margin}  {p.games:>5}  "
            f"{p.wins:>4}  {p.draws:>4}  {p.losses:>4}  {pct}"
        )
        if many:
            line += f"  {p.component + 1:>3}"
        lines.append(line)
    notes = []
    if many:
        notes.append("Ratings compare only within a group (Grp): no games link the groups.")
    if any(result.regularized):
        flagged = [str(i + 1) for i, r in enumerate(result.regularized) if r]
        where = f" (group{'s' if len(flagged) > 1 else ''} {', '.join(flagged)})" if many else ""
        draws = f"{result.prior_draws:g} virtual draw{'' if result.prior_draws == 1 else 's'}"
        notes.append(f"Regularised{where}: {draws} per player vs a virtual 0-rated opponent (no finite ML fit).")
    if result.anchor is not None:
        notes.append(f"Anchor: {result.anchor} = 0.")
    else:
        notes.append("Mean rating 0; ± is the 95% interval (Fisher information).")
    lines.extend(notes)

    if len(players) > 1:
        lines.append("")
        lines.append("Likelihood of superiority (row better than column, %)")
        lines.append(f"{'':>4}  {'':<{width}}" + "".join(f"{rank:>6}" for rank in range(1, len(players) + 1)))
        for rank, (p, row) in enumerate(zip(players, result.los), 1):
            cells = "".join(
                f"{'-':>6}" if col == rank else f"{'?':>6}" if q.component != p.component else f"{100.0 * v:6.1f}"
                for col, (q, v) in enumerate(zip(players, row), 1)
            )
            lines.append(f"{rank:>4}  {p.name:<{width}}" + cells)
    return "\n".join(lines)
