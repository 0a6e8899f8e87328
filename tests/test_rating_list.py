"""The rating list's fit (``game.bots.rating_list``, issue 51): on results drawn from known
ratings it recovers them within its 95% intervals; LOS is a probability each way; a player
that won (or lost) every game gets an infinite rating with an interval open on that side."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from game.bots.rating_list import NATURAL, fit_ratings
from game.bots.statistics import elo_of

TRUE_ELO = (0, 150, -100, 300, 50, -250)
"""Six players' ratings (the first the anchor, at 0): 550 Elo from the weakest to the strongest."""


def expected(diff: float) -> float:
    return 1 / (1 + 10 ** (-diff / 400))


def draw_games(
    ratings: tuple[float, ...], pairs: list[tuple[int, int]], games: int, draws: float, rng: random.Random
) -> tuple[np.ndarray, np.ndarray]:
    """Points and games of ``games`` independent games a pair, each scored so that its
    expected score is the logistic Elo one: a draw with chance ``draws`` between equals
    (fewer the more lopsided), a win with the rest of the expected score."""
    size = len(ratings)
    points, played = np.zeros((size, size)), np.zeros((size, size))
    for a, b in pairs:
        score = expected(ratings[a] - ratings[b])
        draw = draws * 4 * score * (1 - score)
        win = score - draw / 2
        for _ in range(games):
            roll = rng.random()
            got = 1.0 if roll < win else (0.5 if roll < win + draw else 0.0)
            points[a, b] += got
            points[b, a] += 1 - got
            played[a, b] += 1
            played[b, a] += 1
    return points, played


def round_robin(size: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(size) for b in range(a + 1, size)]


def gauntlet(size: int) -> list[tuple[int, int]]:
    return [(0, b) for b in range(1, size)]


@pytest.mark.slow  # 800 fits: a few seconds
@pytest.mark.parametrize(
    ("schedule", "games", "draws"),
    [(round_robin, 10, 0.0), (round_robin, 10, 0.3), (gauntlet, 20, 0.0), (gauntlet, 20, 0.3)],
    ids=["round-robin", "round-robin-draws", "gauntlet", "gauntlet-draws"],
)
def test_the_fit_recovers_known_ratings_within_its_95_percent_intervals(schedule, games, draws):
    """200 seeded tournaments of six players drawn from ``TRUE_ELO``: each rating (against
    the anchor) lies inside its reported interval in at least 90% of them.  The figures
    (``-s`` prints them) are in docs/matches.md: each rating inside 91.5-100% of the time;
    all five at once 79.5-95.5% (each interval is one rating's, not a band for all at
    once: five independent 95% intervals would hold together 77% of the time)."""
    rng = random.Random(51)
    names = [f"p{i}" for i in range(len(TRUE_ELO))]
    inside = np.zeros(len(TRUE_ELO))
    all_inside = 0
    for _ in range(200):
        points, played = draw_games(TRUE_ELO, schedule(len(TRUE_ELO)), games, draws, rng)
        fit = fit_ratings(names, points, played, with_los=False)
        hits = [rating.low <= TRUE_ELO[i] <= rating.high for i, rating in enumerate(fit.ratings)]
        inside += hits
        all_inside += all(hits)
    coverage = inside[1:] / 200  # the anchor is exact
    print(
        f"\n{schedule.__name__}, {games} games a pair, {draws:.0%} draws: each rating inside {coverage}, "
        f"all at once {all_inside / 200:.3f}"
    )
    assert (coverage >= 0.90).all(), coverage


def test_two_players_get_the_elo_of_their_score():
    """The fit of a single pair is the logistic Elo of its score (as ``match`` reports)."""
    points = np.array([[0.0, 13.5], [6.5, 0.0]])
    played = np.array([[0.0, 20.0], [20.0, 0.0]])
    fit = fit_ratings(["a", "b"], points, played, anchor=1, anchor_elo=1000)
    assert fit.ratings[0].elo == pytest.approx(1000 + elo_of(13.5 / 20), abs=1e-6)
    assert fit.ratings[1].elo == fit.ratings[1].low == fit.ratings[1].high == 1000
    # the curvature's interval: 1.96 binomial standard errors of the score, in Elo at the fit
    score = 13.5 / 20
    half = 1.959964 * NATURAL / math.sqrt(20 * score * (1 - score))
    assert fit.ratings[0].high - fit.ratings[0].elo == pytest.approx(half, rel=1e-6)
    assert fit.ratings[0].score == score and fit.ratings[0].games == 20


def random_table(rng: random.Random, size: int) -> tuple[np.ndarray, np.ndarray]:
    ratings = tuple(rng.uniform(-400, 400) for _ in range(size))
    return draw_games(ratings, round_robin(size), rng.randint(1, 6), 0.3, rng)


def test_los_of_a_over_b_and_of_b_over_a_add_up_to_one():
    rng = random.Random(7)
    for _ in range(20):
        points, played = random_table(rng, 5)
        fit = fit_ratings([str(i) for i in range(5)], points, played)
        for a in range(5):
            assert fit.los[a][a] == 0.5
            for b in range(5):
                assert fit.los[a][b] + fit.los[b][a] == pytest.approx(1.0, abs=1e-12)
                assert 0.0 <= fit.los[a][b] <= 1.0
                ea, eb = fit.ratings[a].elo, fit.ratings[b].elo
                if math.isfinite(ea) and math.isfinite(eb) and abs(ea - eb) > 1:
                    assert (fit.los[a][b] > 0.5) == (ea > eb)  # the stronger row is the likelier


def test_a_player_that_won_every_game_is_first_with_an_interval_open_above():
    rng = random.Random(3)
    ratings = (0, 100, -50, 200, 400)
    points, played = draw_games(ratings, round_robin(5), 8, 0.2, rng)
    champion, loser = 4, 2
    for other in range(5):  # the champion won all its games, the loser lost all of its
        if other != champion:
            points[champion, other], points[other, champion] = played[champion, other], 0.0
        if other not in (loser, champion):
            points[other, loser], points[loser, other] = played[other, loser], 0.0
    fit = fit_ratings(list("abcde"), points, played)
    best, worst = fit.ratings[champion], fit.ratings[loser]
    assert fit.ranked()[0] == champion and fit.ranked()[-1] == loser
    assert best.elo == math.inf and best.high == math.inf and math.isfinite(best.low)
    assert worst.elo == -math.inf and worst.low == -math.inf and math.isfinite(worst.high)
    finite = [r for i, r in enumerate(fit.ratings) if i not in (champion, loser)]
    assert best.low > max(r.elo for r in finite)  # 32 won games: its bound is above the rest
    assert all(fit.los[champion][other] > 0.5 for other in range(5) if other != champion)


def test_one_won_game_says_little_and_the_interval_says_so():
    """One game, won: the loser is -inf against the winner, yet the winner only 0.88 likely
    the stronger, and the loser may be up to 306 Elo stronger (where losing one game has a
    14.7% chance)."""
    points, played = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0, 1.0], [1.0, 0.0]])
    fit = fit_ratings(["winner", "loser"], points, played)
    loser = fit.ratings[1]
    assert loser.elo == -math.inf and loser.low == -math.inf and loser.high == pytest.approx(306.1, abs=0.1)
    assert fit.los[0][1] == pytest.approx(0.8805, abs=1e-4)
    winner = fit_ratings(["winner", "loser"], points, played, anchor=1).ratings[0]
    assert winner.elo == math.inf and winner.high == math.inf and winner.low == pytest.approx(-306.1, abs=0.1)


def test_a_player_the_games_do_not_place_gets_no_rating():
    """A beat B, X beat B; A and X never met: X is +inf over B, but nothing is known of X
    against A (the anchor)."""
    points = np.array([[0.0, 3.0, 0.0], [0.0, 0.0, 0.0], [0.0, 3.0, 0.0]])
    played = np.array([[0.0, 3.0, 0.0], [3.0, 0.0, 3.0], [0.0, 3.0, 0.0]])
    fit = fit_ratings(["A", "B", "X"], points, played)
    unplaced = fit.ratings[2]
    assert math.isnan(unplaced.elo) and unplaced.low == -math.inf and unplaced.high == math.inf
    assert fit.ranked()[-1] == 2 and fit.los[0][2] == 0.5 and fit.los[2][0] == 0.5


def test_tables_that_do_not_add_up_are_refused():
    with pytest.raises(ValueError, match="count for both"):
        fit_ratings(["a", "b"], np.array([[0.0, 2.0], [1.0, 0.0]]), np.array([[0.0, 2.0], [2.0, 0.0]]))
    with pytest.raises(ValueError, match="between 0 and the games"):
        fit_ratings(["a", "b"], np.array([[0.0, 3.0], [-1.0, 0.0]]), np.array([[0.0, 2.0], [2.0, 0.0]]))
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings(["a", "b"], np.zeros((2, 2)), np.zeros((2, 2)), anchor=2)
