"""What a match's games score: a game's record, the match's totals, Elo with its 95%
error bar, and the SPRT on game pairs (pentanomial, as fishtest runs it).

Arithmetic over finished games only: ``game.bots.runners`` plays them.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from game.board import Termination
from game.bots.players import Failure, Side, other
from game.notation import format_moves
from game.rules import Rules

Z_95 = 1.959964


# -- games and matches -----------------------------------------------------------------


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a match."""

    number: int
    opening: str
    first: Side  # who played the first move of the game (the opening's first disc too)
    moves: tuple[int, ...]  # all moves from the empty board, the opening included
    winner: Side | None  # None: a draw
    termination: Termination | Failure  # how the board ended it, or how a player failed
    failed_side: Side | None = None  # the side that failed (lost by ``termination``)
    detail: str = ""  # what the failure was, in words
    seconds: dict[Side, float] = field(default_factory=dict)  # time per side for the moves it made
    move_counts: dict[Side, int] = field(default_factory=dict)  # moves each side made (opening excluded)
    move_seconds: tuple[float, ...] = ()  # the time of each move after the opening, in order

    @property
    def failure(self) -> Failure | None:
        """The failure that decided the game, or None if the board did."""
        return self.termination if isinstance(self.termination, Failure) else None

    def score_of(self, side: Side) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss of ``side``."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner is side else 0.0

    def side_at(self, ply: int) -> Side:
        """The side that played the disc at ``ply`` (0 = the first disc of the game)."""
        return self.first if ply % 2 == 0 else other(self.first)

    def moves_string(self, rules: Rules) -> str:
        """The game in the project's notation (``analyze`` replays it)."""
        return format_moves(list(self.moves), rules)

    def result_text(self) -> str:
        """``1-0`` first player won, ``0-1`` second won, ``1/2-1/2`` draw (PGN style)."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is self.first else "0-1"


@dataclass(frozen=True)
class MatchResult:
    """A whole match, from A's side: wins, draws, losses, Elo and every game."""

    name_a: str
    name_b: str
    rules: Rules
    movetime: float
    games: tuple[GameRecord, ...]

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.winner is Side.A)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.winner is Side.B)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.winner is None)

    @property
    def score(self) -> float:
        """A's points (win 1, draw 1/2) over the games played, 0..1."""
        return (self.wins + self.draws / 2) / len(self.games) if self.games else 0.5

    @property
    def elo(self) -> tuple[float, float]:
        """A's Elo difference over B and its 95% error bar."""
        return elo(self.score, len(self.games), draws=self.draws)

    def failures(self, side: Side) -> dict[Failure, int]:
        """How many games ``side`` lost by each kind of failure."""
        counted = {failure: 0 for failure in Failure}
        for game in self.games:
            failure = game.failure
            if game.failed_side is side and failure is not None:
                counted[failure] += 1
        return counted

    def mean_move_seconds(self, side: Side) -> float:
        moves = sum(g.move_counts.get(side, 0) for g in self.games)
        spent = sum(g.seconds.get(side, 0.0) for g in self.games)
        return spent / moves if moves else 0.0


# -- Elo -------------------------------------------------------------------------------


def elo(score: float, games: int, *, draws: int = 0) -> tuple[float, float]:
    """The Elo difference a score (0..1 over ``games``) means, with a 95% error bar.

    The error comes from the per-game standard deviation (draws make it smaller); it is
    the half width of the interval the score's 95% range maps to.  A score of 0 or 1 has
    no finite Elo: it returns -inf/+inf with an infinite error.
    """
    if games <= 0:
        return 0.0, math.inf
    draw_share = draws / games
    variance = max(0.0, score * (1 - score) - draw_share / 4)
    return _elo_with_bar(score, math.sqrt(variance / games))


def _elo_with_bar(score: float, standard_error: float) -> tuple[float, float]:
    """The Elo of ``score`` and the half width of its 95% interval (infinite at 0 or 1)."""
    if score <= 0.0 or score >= 1.0:
        return (math.inf if score >= 1.0 else -math.inf), math.inf
    low, high = score - Z_95 * standard_error, score + Z_95 * standard_error
    if low <= 0.0 or high >= 1.0:
        return elo_of(score), math.inf
    return elo_of(score), (elo_of(high) - elo_of(low)) / 2


def elo_of(score: float) -> float:
    """The logistic Elo difference that gives an expected ``score`` (0 < score < 1)."""
    return -400 * math.log10(1 / score - 1)


def score_of_elo(diff: float) -> float:
    """The expected score of a player ``diff`` Elo stronger (logistic)."""
    return 1 / (1 + 10 ** (-diff / 400))


def fmt_elo(diff: float, error: float) -> str:
    """``+123 +/- 45``; infinite values as ``+inf`` and ``n/a``."""
    shown = f"{round(diff):+d}" if math.isfinite(diff) else ("+inf" if diff > 0 else "-inf")
    bar = f"{error:.0f}" if math.isfinite(error) else "n/a"
    return f"{shown} +/- {bar}"


# -- SPRT ------------------------------------------------------------------------------


class Verdict(enum.Enum):
    """Where a sequential test stands."""

    H0 = "H0 accepted"  # not the gain hoped for: elo <= elo0 is the better bet
    H1 = "H1 accepted"  # the gain is there: elo >= elo1
    CONTINUE = "undecided"


PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A's mean score over a game pair: the five outcomes of the pentanomial model."""
PAIR_PRIOR = (0.25, 0.5, 0.5, 0.5, 0.25)
"""Pseudo-counts added to the pair counts before the LLR: without them the first pairs
(all draws, say) would have no variance and cross a bound at once; after a few dozen
pairs they no longer matter."""


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test on game pairs, as fishtest runs it.

    The model is *pentanomial*: each opening is played as a game pair (once with each
    colour) and the unit of evidence is the pair's score, 0, 1/4, 1/2, 3/4 or 1.  The two
    games of a pair share an opening, so they are not independent (a lopsided opening
    gives one side the win in both colours' games or in neither); the trinomial model
    counts them as independent and misjudges the variance, the pentanomial model measures
    the variance of pairs as they come.  This is why fishtest moved to it.  The LLR is
    the generalised SPRT's normal approximation (Van den Bergh), with logistic Elo::

        LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

    where N is the number of pairs, m and v the mean and variance of the pair score,
    and s0, s1 the expected scores at ``elo0`` and ``elo1``.  The test accepts H1 when
    LLR >= log((1 - beta) / alpha) and H0 when LLR <= log(beta / (1 - alpha)).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, not {self.elo0:g} and {self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, not {value:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR bounds (lower: accept H0, upper: accept H1)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 over H0 after these pair counts (see the class)."""
        pairs = sum(pentanomial)
        if pairs == 0:
            return 0.0
        # two pseudo-pairs spread over the outcomes: a short run's variance is never 0
        mean, variance = _pair_moments([c + prior for c, prior in zip(pentanomial, PAIR_PRIOR)])
        s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def verdict(self, pentanomial: Sequence[int]) -> Verdict:
        value = self.llr(pentanomial)
        lower, upper = self.bounds
        if value >= upper:
            return Verdict.H1
        if value <= lower:
            return Verdict.H0
        return Verdict.CONTINUE


def _pair_outcome(first: GameRecord, second: GameRecord) -> int:
    """Which of ``PAIR_SCORES`` A scored over a game pair (0 to 4)."""
    return round((first.score_of(Side.A) + second.score_of(Side.A)) * 2)


def _pair_moments(counts: Sequence[float]) -> tuple[float, float]:
    """The mean and variance of A's pair score over these counts of ``PAIR_SCORES``
    (their sum is not 0)."""
    total = sum(counts)
    mean = sum(c * x for c, x in zip(counts, PAIR_SCORES)) / total
    variance = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES)) / total
    return mean, variance


def pentanomial(games: Sequence[GameRecord]) -> list[int]:
    """Counts of A's pair scores 0, 1/4, 1/2, 3/4, 1 over complete pairs (games 2k-1, 2k)."""
    by_number = {g.number: g for g in games}
    counts = [0] * 5
    for number in sorted(by_number):
        if number % 2 == 1 and number + 1 in by_number:
            counts[_pair_outcome(by_number[number], by_number[number + 1])] += 1
    return counts


def pair_elo(pentanomial_counts: Sequence[int]) -> tuple[float, float]:
    """A's Elo and 95% error bar from pair counts (the pairs' own variance)."""
    pairs = sum(pentanomial_counts)
    if pairs == 0:
        return 0.0, math.inf
    mean, variance = _pair_moments(pentanomial_counts)
    return _elo_with_bar(mean, math.sqrt(variance / pairs))


@dataclass(frozen=True)
class SprtOutcome:
    """Where the test stopped: its verdict, LLR and the pairs it counted."""

    test: Sprt
    verdict: Verdict
    llr: float
    pentanomial: tuple[int, ...]

    @property
    def games(self) -> int:
        return 2 * sum(self.pentanomial)

    def lines(self) -> list[str]:
        """The fishtest-style summary."""
        lower, upper = self.test.bounds
        t = self.test
        return [
            f"SPRT: elo0 {t.elo0:g}, elo1 {t.elo1:g}, alpha {t.alpha:g}, beta {t.beta:g} "
            "(pentanomial on game pairs, logistic Elo)",
            f"LLR: {self.llr:.2f} ({lower:.2f}, {upper:.2f}) [{t.elo0:g}, {t.elo1:g}]: {self.verdict.value}",
            f"Games: {self.games} ({self.games // 2} pairs)  Ptnml(0-2): {', '.join(map(str, self.pentanomial))}",
            f"Elo (pairs): {fmt_elo(*pair_elo(self.pentanomial))} (95%)",
        ]


def sprt_prefix(test: Sprt, records: dict[int, GameRecord]) -> SprtOutcome:
    """Run ``test`` over the complete pairs from game 1 on, in order, stopping at the
    first pair where a bound is crossed (so the answer is the same for any finishing
    order of the games)."""
    counts = [0] * 5
    value = 0.0
    number = 1
    while number in records and number + 1 in records:
        counts[_pair_outcome(records[number], records[number + 1])] += 1
        number += 2
        value = test.llr(counts)
        verdict = test.verdict(counts)
        if verdict is not Verdict.CONTINUE:
            return SprtOutcome(test, verdict, value, tuple(counts))
    return SprtOutcome(test, Verdict.CONTINUE, value, tuple(counts))
