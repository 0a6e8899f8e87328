"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): one rating period.

Written here rather than taken from PyPI: the ``glicko2`` package (2.1.0, deepy/glicko2,
last release January 2024) computes the volatility's function with the rating (mu) where
the paper has the deviation (phi) in step 5, has no type hints, and installs a top-level
``tests`` package into site-packages (which would shadow this project's ``tests``).  The
steps below follow the paper's numbering; ``tests/test_puzzles_rating.py`` checks the
paper's worked example (1500/200/0.06 against 1400/30 won, 1550/100 lost, 1700/300 lost:
1464.06, 151.52, 0.05999).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's factor between the rating scale and its own (step 2)."""
TAU = 0.5
"""The system constant: how much the volatility may change (the paper's example value)."""
CONVERGENCE = 0.000001
START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06


@dataclass(frozen=True)
class Glicko:
    """A player's rating, rating deviation and volatility."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY


@dataclass(frozen=True)
class Result:
    """One game of a rating period: the opponent's rating and deviation, and the score (1, 0.5, 0)."""

    rating: float
    deviation: float
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) (the paper's iteration, as written there)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, results: Sequence[Result], *, tau: float = TAU) -> Glicko:
    """The player's rating after a rating period with ``results`` (none: only the
    deviation grows, step 6)."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        return Glicko(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    opponents = [((r.rating - START_RATING) / SCALE, r.deviation / SCALE, r.score) for r in results]
    # Step 3: the estimated variance of the rating from the game outcomes alone.
    v = 1.0 / sum(
        _g(phi_j) ** 2 * _expected(mu, mu_j, phi_j) * (1 - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, _ in opponents
    )
    # Step 4: the estimated improvement.
    improvement = sum(_g(phi_j) * (s - _expected(mu, mu_j, phi_j)) for mu_j, phi_j, s in opponents)
    delta = v * improvement
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_new = mu + phi_new * phi_new * improvement
    return Glicko(SCALE * mu_new + START_RATING, SCALE * phi_new, sigma_new)  # step 8
