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
MAX_VOLATILITY = 0.1
"""The most the volatility may grow to (Lichess's bound): with one game a period and
results that do not follow the ratings (a coin's, say), it otherwise grows without end,
and after a few thousand attempts the rating overflows (a title screen that crashed).
A player whose results follow the ratings stays near the start's 0.06."""


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
    """Step 5: the Illinois algorithm on f(x) (the paper's iteration, as written there).

    f(x) = e^x (delta^2 - phi^2 - v - e^x) / (2 (phi^2 + v + e^x)^2) - (x - a) / tau^2, its
    sums kept in the paper's order (written out where it is evaluated: a rating replays
    one such step per game or puzzle, a hundred thousand of them for a keen puzzler)."""
    a = math.log(sigma * sigma)
    spread = delta * delta - phi * phi - v  # delta^2 - phi^2 - v
    width = phi * phi + v  # phi^2 + v
    tau2 = tau * tau
    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(spread)
    else:
        k = 1
        while True:
            x = a - k * tau
            ex = math.exp(x)
            if not ex * (spread - ex) / (2.0 * (width + ex) ** 2) - (x - a) / tau2 < 0:  # the paper: while f(x) < 0
                break
            k += 1
        big_b = a - k * tau
    ex = math.exp(big_a)
    f_a = ex * (spread - ex) / (2.0 * (width + ex) ** 2) - (big_a - a) / tau2
    ex = math.exp(big_b)
    f_b = ex * (spread - ex) / (2.0 * (width + ex) ** 2) - (big_b - a) / tau2
    while abs(big_b - big_a) > CONVERGENCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        ex = math.exp(big_c)
        f_c = ex * (spread - ex) / (2.0 * (width + ex) ** 2) - (big_c - a) / tau2
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate(player: Glicko, results: Sequence[Result], *, tau: float = TAU) -> Glicko:
    """The player's rating after a rating period with ``results`` (none: only the
    deviation grows, step 6)."""
    if not results:
        phi, sigma = player.deviation / SCALE, player.volatility
        return Glicko(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    opponents = [(result.rating, result.deviation, result.score) for result in results]
    return Glicko(*rate_period(player.rating, player.deviation, player.volatility, opponents, tau))


def rate_period(
    rating: float,
    deviation: float,
    volatility: float,
    opponents: Sequence[tuple[float, float, float]],
    tau: float = TAU,
) -> tuple[float, float, float]:
    """``rate`` over plain numbers: (rating, deviation, volatility) after the period's games,
    each (opponent's rating, opponent's deviation, score); at least one game.  A replay of a
    hundred thousand puzzles calls it once each, without the objects around it."""
    mu = (rating - START_RATING) / SCALE
    phi = deviation / SCALE
    sigma = volatility
    # Steps 3 and 4: the estimated variance of the rating from the game outcomes alone,
    # and the estimated improvement (sums of one term each for a single game, the usual case).
    variance = improvement = 0.0
    for opponent, spread, score in opponents:
        mu_j, phi_j = (opponent - START_RATING) / SCALE, spread / SCALE
        g, expected = _g(phi_j), _expected(mu, mu_j, phi_j)
        variance += g**2 * expected * (1 - expected)
        improvement += g * (score - expected)
    v = 1.0 / variance
    delta = v * improvement
    sigma_new = min(_new_volatility(sigma, phi, v, delta, tau), MAX_VOLATILITY)  # step 5
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu_new = mu + phi_new * phi_new * improvement
    return SCALE * mu_new + START_RATING, SCALE * phi_new, sigma_new  # step 8
