"""The rating list of a tournament: Elo ratings fitted to every game at once, with 95%
intervals and the likelihood of superiority (LOS) of each player over each other.

The model (Bradley-Terry, as Ordo and BayesElo use it; a draw counts as half a point
each way, as in Ordo): player i's expected score against j is
``E(i, j) = 1 / (1 + 10 ** (-(R_i - R_j) / 400))``, and the ratings are those that make
the games most likely::

    ln L(R) = sum over pairs of  s(i, j) ln E(i, j) + s(j, i) ln E(j, i)

where ``s(i, j)`` is i's points against j.  Only differences are defined: one player,
the anchor, is held at a fixed rating.  ``ln L`` is concave, and Newton's method finds
its maximum in a few steps.

When no finite maximum exists
    Draw an arrow i -> j when i scored against j.  The maximum is finite exactly when every
    player reaches every other along arrows (Zermelo 1929, Ford 1957).  Otherwise the
    players fall into groups that do (strongly connected), and between two groups every
    point went one way: the likelihood keeps growing as their gap does.  So a player is
    rated only against the anchor's group: finite inside it, ``+inf`` in a group whose
    points all went its way on the way to the anchor, ``-inf`` below, and ``nan`` where the
    games do not say (a group that never met one on the anchor's side of it).  The fit
    does not invent a finite number there; the interval says what the games do.

Intervals (95%)
    A finite rating: +/- 1.96 standard errors from the curvature of ``ln L`` at its
    maximum (the inverse of the observed information, the anchor held).  An infinite one:
    from where the profile log-likelihood (the best ``ln L`` with that rating held) is
    1.92 below the maximum, half the 95% point of chi-squared with one degree of freedom,
    up to infinity.  Both treat games as independent (see ``docs/matches.md``).

LOS
    ``LOS(a, b) = Phi(z)``, where ``z`` is the signed root of the likelihood ratio of "a
    and b are equally strong": ``z ** 2 = 2 (ln L_max - ln L_max with R_a = R_b)``, the
    sign that of ``R_a - R_b``.  Near a finite maximum this is ``Phi(dR / sigma)`` with
    sigma from the curvature; where the maximum is at infinity it stays below 1 as the
    evidence says (a single won game between two players: 0.88).
    ``LOS(a, b) + LOS(b, a) = 1``.

Numpy only; arithmetic over a table of points, knowing nothing of games or engines.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.bots.statistics import Z_95

NATURAL = 400 / math.log(10)
"""Elo per natural unit: ``E = 1 / (1 + exp(-(R_i - R_j) / NATURAL))``."""
PROFILE_DROP = Z_95**2 / 2
"""How far below its maximum the profile log-likelihood sits at a 95% bound (1.92)."""
RIDGE = 1e-9
"""A pull towards the anchor, in natural units squared, on the fits whose maximum may be at
infinity (profiles and LOS): it keeps Newton's steps finite, and moves ``ln L`` by less
than 1e-6 at the point it stops."""
RIDGE_NOISE = 1e-6
"""A likelihood ratio smaller than this is the ridge's, not the games': no evidence."""
NEWTON_STEPS = 200
TOLERANCE = 1e-10


@dataclass(frozen=True)
class Rating:
    """A player's line of the list: the rating, its 95% interval, games and points.

    ``elo`` is ``+inf`` or ``-inf`` when every point between the player's group and the
    anchor's went one way, ``nan`` when the games do not place the player against the
    anchor; ``low`` and ``high`` are then as open as the games leave them.
    """

    name: str
    elo: float
    low: float
    high: float
    games: int
    points: float

    @property
    def score(self) -> float:
        """Points over games played, 0..1 (0.5 before any game)."""
        return self.points / self.games if self.games else 0.5


@dataclass(frozen=True)
class RatingList:
    """The fit: each player's ``Rating`` (in the players' order) and the LOS matrix
    (``los[i][j]``: the likelihood that player i is stronger than player j)."""

    ratings: tuple[Rating, ...]
    los: tuple[tuple[float, ...], ...]
    anchor: int
    anchor_elo: float

    def ranked(self) -> list[int]:
        """The players' indices, strongest first: by rating, an infinite one by its finite
        bound, then by score; players the games do not place come last."""
        return sorted(range(len(self.ratings)), key=lambda i: _rank_key(self.ratings[i]))

    def leader(self) -> str:
        """The name of the first player of ``ranked``."""
        return self.ratings[self.ranked()[0]].name


def rating_text(value: float) -> str:
    """A rating in whole Elo points; ``+inf``, ``-inf``, or ``n/a`` where the games do not place it."""
    if math.isnan(value):
        return "n/a"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:.0f}"


def _rank_key(rating: Rating) -> tuple[int, float, float, float]:
    if math.isnan(rating.elo):
        return (1, 0.0, 0.0, -rating.score)
    bound = rating.low if math.isfinite(rating.low) else rating.high
    return (0, -rating.elo, -bound if math.isfinite(bound) else 0.0, -rating.score)


def fit_ratings(
    names: Sequence[str],
    points: np.ndarray,
    games: np.ndarray,
    *,
    anchor: int = 0,
    anchor_elo: float = 0.0,
    with_intervals: bool = True,
    with_los: bool = True,
) -> RatingList:
    """The maximum-likelihood ratings of ``names``, their 95% intervals and the LOS matrix
    (``with_intervals``, ``with_los`` False: not worked out, the intervals then nothing
    but the rating and LOS empty; a progress line needs only the order).

    Args:
        names: the players.
        points: ``points[i, j]``, i's points against j (a win 1, a draw 1/2).
        games: ``games[i, j]``, the games i and j played (symmetric).
        anchor, anchor_elo: the player held fixed and its rating.

    Raises:
        ValueError: the tables do not fit together (points above games, a negative count,
            shapes that differ), or the anchor is not a player.
    """
    table = _Table(names, points, games)
    if not 0 <= anchor < table.size:
        raise ValueError(f"the anchor must be one of the {table.size} players, not {anchor}")
    best = _maximize(table, _Constraint.anchored(table.size, anchor))
    above, below = table.places(anchor)
    group = [i for i in range(table.size) if table.reach[i, anchor] and table.reach[anchor, i]]
    deviations = _deviations(table, anchor, group) if with_intervals else {}
    ratings = []
    for i, name in enumerate(table.names):
        if i in group:
            elo = float(best.theta[i]) * NATURAL
            half = Z_95 * deviations.get(i, 0.0)
            value, low, high = elo, elo - half, elo + half
        elif above[i] or below[i]:
            value = math.inf if above[i] else -math.inf
            bound = _profile_bound(table, anchor, i, best.loglik, upwards=bool(below[i])) if with_intervals else value
            low, high = (bound, math.inf) if above[i] else (-math.inf, bound)
        else:
            value, low, high = math.nan, -math.inf, math.inf
        ratings.append(
            Rating(
                name,
                value + anchor_elo,
                low + anchor_elo,
                high + anchor_elo,
                int(table.games[i].sum()),
                float(table.points[i].sum()),
            )
        )
    los = _los_matrix(table, anchor, best) if with_los else ()
    return RatingList(tuple(ratings), los, anchor, anchor_elo)


# -- the table of points ----------------------------------------------------------------


class _Table:
    """The points and games of a tournament, checked, with the arrows of "scored against"."""

    def __init__(self, names: Sequence[str], points: np.ndarray, games: np.ndarray):
        self.names = list(names)
        self.size = len(self.names)
        self.points = np.asarray(points, dtype=float)
        self.games = np.asarray(games, dtype=float)
        shape = (self.size, self.size)
        if self.points.shape != shape or self.games.shape != shape:
            raise ValueError(f"points and games must be {self.size} x {self.size} tables")
        if (self.games < 0).any() or (self.points < 0).any() or (self.points > self.games + 1e-9).any():
            raise ValueError("points must lie between 0 and the games played")
        if not np.allclose(self.games, self.games.T) or not np.allclose(self.points + self.points.T, self.games):
            raise ValueError("each game must count for both players: points[i, j] + points[j, i] = games[i, j]")
        scored = self.points > 0
        reach = scored | np.eye(self.size, dtype=bool)
        for k in range(self.size):  # Warshall: i reaches j along arrows through players up to k
            reach |= reach[:, k : k + 1] & reach[k : k + 1, :]
        self.reach = reach
        met = (self.games > 0) | np.eye(self.size, dtype=bool)
        for k in range(self.size):
            met |= met[:, k : k + 1] & met[k : k + 1, :]
        self.met = met

    def places(self, anchor: int) -> tuple[np.ndarray, np.ndarray]:
        """Which players lie infinitely above the anchor (they reach it, it does not reach
        them) and which infinitely below."""
        to_anchor, from_anchor = self.reach[:, anchor], self.reach[anchor, :]
        return to_anchor & ~from_anchor, from_anchor & ~to_anchor

    def linked(self, i: int, j: int) -> bool:
        """True when games join i and j (through other players)."""
        return bool(self.met[i, j])

    def merged(self, a: int, b: int) -> tuple[_Table, float]:
        """This table with b's games counted as a's (their games together dropped), and the
        log-likelihood those dropped games have when the two are equal."""
        keep = [i for i in range(self.size) if i != b]
        points, games = self.points.copy(), self.games.copy()
        points[a] += points[b]
        points[:, a] += points[:, b]
        games[a] += games[b]
        games[:, a] += games[:, b]
        together = self.games[a, b]
        points[a, a] = games[a, a] = 0.0
        names = [self.names[i] for i in keep]
        return _Table(names, points[np.ix_(keep, keep)], games[np.ix_(keep, keep)]), together * math.log(0.5)


def _log_expected(difference: np.ndarray) -> np.ndarray:
    """``ln E`` for rating differences in natural units, without overflow."""
    logs: np.ndarray = -np.logaddexp(0.0, -difference)
    return logs


def _loglik(table: _Table, theta: np.ndarray) -> float:
    difference = theta[:, None] - theta[None, :]
    return float((table.points * _log_expected(difference)).sum())


# -- the fit ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Constraint:
    """Which ratings move: ``free`` lists the players fitted; the others are held at
    ``held`` (natural units)."""

    free: tuple[int, ...]
    held: np.ndarray

    @staticmethod
    def anchored(size: int, anchor: int) -> _Constraint:
        """Every rating free but the anchor's, held at 0."""
        return _Constraint(tuple(i for i in range(size) if i != anchor), np.zeros(size))

    def holding(self, player: int, value: float) -> _Constraint:
        """This constraint with ``player`` held at ``value`` too."""
        held = self.held.copy()
        held[player] = value
        return _Constraint(tuple(i for i in self.free if i != player), held)


@dataclass(frozen=True)
class _Best:
    theta: np.ndarray  # every player's rating, natural units, the anchor at 0
    loglik: float  # ln L there (without the ridge)


def _maximize(table: _Table, constraint: _Constraint) -> _Best:
    """The maximum of ``ln L - RIDGE |theta|^2`` over the free ratings, by Newton's method
    with halved steps (the objective is strictly concave, so this converges)."""
    free = list(constraint.free)
    theta = constraint.held.copy()
    games = table.games

    def objective(values: np.ndarray) -> float:
        return _loglik(table, values) - RIDGE * float((values[free] ** 2).sum())

    current = objective(theta)
    for _ in range(NEWTON_STEPS):
        if not free:
            break
        expected = np.exp(_log_expected(theta[:, None] - theta[None, :]))
        gradient = (table.points - games * expected).sum(axis=1)[free] - 2 * RIDGE * theta[free]
        weight = games * expected * expected.T
        hessian = weight - np.diag(weight.sum(axis=1))
        hessian = hessian[np.ix_(free, free)] - 2 * RIDGE * np.eye(len(free))
        step = np.linalg.solve(hessian, -gradient)
        scale = 1.0
        while True:
            trial = theta.copy()
            trial[free] += scale * step
            value = objective(trial)
            if value >= current - 1e-12 * max(1.0, abs(current)) or scale < 1e-8:
                break
            scale /= 2
        theta, gain, current = trial, value - current, value
        if np.abs(scale * step).max() < TOLERANCE or abs(gain) < 1e-13:
            break
    return _Best(theta, _loglik(table, theta))


def _deviations(table: _Table, anchor: int, group: list[int]) -> dict[int, float]:
    """The standard error (Elo) of each rating in the anchor's group, from the curvature of
    ``ln L`` over the games inside the group at its maximum (the anchor held)."""
    inside = sorted(group)
    free = [i for i in inside if i != anchor]
    if not free:
        return {}
    sub_points = table.points[np.ix_(inside, inside)]
    sub_games = table.games[np.ix_(inside, inside)]
    part = _Table([table.names[i] for i in inside], sub_points, sub_games)
    at = inside.index(anchor)
    best = _maximize(part, _Constraint.anchored(len(inside), at))
    expected = np.exp(_log_expected(best.theta[:, None] - best.theta[None, :]))
    weight = part.games * expected * expected.T
    information = np.diag(weight.sum(axis=1)) - weight
    keep = [k for k in range(len(inside)) if k != at]
    try:
        covariance = np.linalg.inv(information[np.ix_(keep, keep)])
    except np.linalg.LinAlgError:  # no curvature to speak of (gaps beyond any double): no bound
        return {inside[k]: math.inf for k in keep}
    return {inside[k]: math.sqrt(max(0.0, covariance[n, n])) * NATURAL for n, k in enumerate(keep)}


def _profile(table: _Table, anchor: int, player: int, value: float) -> float:
    """The best ``ln L`` with ``player`` held at ``value`` (Elo over the anchor)."""
    constraint = _Constraint.anchored(table.size, anchor).holding(player, value / NATURAL)
    return _maximize(table, constraint).loglik


def _profile_bound(table: _Table, anchor: int, player: int, best: float, *, upwards: bool) -> float:
    """The finite end of an infinite rating's 95% interval (Elo over the anchor): where the
    profile log-likelihood is ``PROFILE_DROP`` below the maximum ``best``.  ``upwards``: the
    rating is ``-inf`` and the bound is its upper end."""
    target = best - PROFILE_DROP
    away = 1.0 if upwards else -1.0  # from the infinite side towards the finite one
    start = 0.0
    step = 200.0
    if _profile(table, anchor, player, start) >= target:
        inside, outside = start, start + away * step
        while _profile(table, anchor, player, outside) >= target:
            step *= 2
            if step > 1e6:
                return outside  # the games barely bear on it: as wide as a number can say
            inside, outside = outside, outside + away * step
    else:
        inside, outside = start - away * step, start
        while _profile(table, anchor, player, inside) < target:  # the maximum lies that way
            step *= 2
            outside, inside = inside, inside - away * step
    for _ in range(60):
        middle = (inside + outside) / 2
        if _profile(table, anchor, player, middle) >= target:
            inside = middle
        else:
            outside = middle
        if abs(inside - outside) < 0.01:
            break
    return (inside + outside) / 2


def _los_matrix(table: _Table, anchor: int, best: _Best) -> tuple[tuple[float, ...], ...]:
    """LOS of every row player over every column player (see the module)."""
    size = table.size
    los = [[0.5] * size for _ in range(size)]
    for a in range(size):
        for b in range(a + 1, size):
            merged, constant = table.merged(a, b)
            keep_anchor = anchor if anchor < b else (a if anchor == b else anchor - 1)
            equal = _maximize(merged, _Constraint.anchored(merged.size, keep_anchor)).loglik + constant
            drop = best.loglik - equal
            drop = drop if drop > RIDGE_NOISE else 0.0
            difference = float(best.theta[a] - best.theta[b])
            z = math.copysign(math.sqrt(2 * drop), difference) if difference else 0.0
            if not table.linked(a, b):
                z = 0.0  # no games join them: nothing is known either way
            los[a][b] = 0.5 * math.erfc(-z / math.sqrt(2))
            los[b][a] = 1.0 - los[a][b]
    return tuple(tuple(row) for row in los)
