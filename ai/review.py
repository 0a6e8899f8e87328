"""The review of a finished (or unfinished) game: every move classed, accuracy, turning points.

On the standard board every move is classed against the exact solver and opening book
(``ai.perfect``): the exact score of each column of the position the player faced,
from the player's side, decides the class of the column that was played.

- *best*: the best exact score (the quickest win, the slowest loss, or a draw kept),
- *good*: the same outcome as the best move, but a slower win or a quicker loss,
- *mistake*: one step worse (a win thrown to a draw, a draw thrown to a loss),
- *blunder*: a win thrown to a loss.

Accuracy counts distance as well as outcome: a best move counts 1, a good move 1/2 (it
kept the outcome but won more slowly or lost sooner), a mistake or blunder 0, over the
player's moves (``ACCURACY_RULE`` says so in the review).  The turning points are the moves that changed the outcome, the worst first (up to three).
The graph is the exact score after every ply, from player 1's side.

Off the standard board the same classes come from a search of every column (wins and
losses it proves, the heuristic elsewhere); the review says they are estimates.

    review = review_game(board.rules, board.moves, depths={MAX: 6, MIN: 8})  # ai.reviewer
    review.moves[3].move_class      # MoveClass.MISTAKE
    review.accuracy(MAX)            # 0.86

This module is the review's data and words only: ``ai.reviewer`` does the work (the
solver, the searches), so the window can show a review it never computed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from ai.exact import ExactScore, verdict
from ai.explain.explanation import Explanation
from ai.values import is_win_value, plies_to_end
from game.board import Board
from game.i18n import N_, _, ngettext
from game.rules import MAX, MIN, Rules

PERSON_DEPTH = 6
"""The search depth a person's move is compared with ("a depth-6 search would have ...")."""
ESTIMATE_DEPTH = 4
"""Plies searched below each column off the standard board (the estimate's horizon), at most."""
ESTIMATE_NODES = 100_000
"""Off the standard board, the positions the search of one move's columns may visit: every
column is searched one ply deeper at a time, and the deepest depth all columns finished
within these positions is the estimate (work, not time: the same on every machine)."""
HORIZON_NODES = 200_000
"""The positions "a depth-N search would have played X" may visit: past them the deepest
depth finished is the one named."""
ESTIMATE_GAP = 150
"""Off the standard board, a move whose heuristic value is this far below the best one
(about an open three) is a mistake even when no search proved a win or a loss."""
TURNING_POINTS = 3
"""At most this many turning points are named."""
GOOD_CREDIT = 0.5
"""What a good move counts towards accuracy (a best move counts 1, a lost outcome 0)."""
ACCURACY_RULE = N_("best counts 1, good 1/2 (a slower win or a quicker loss), mistake and blunder 0")
"""How accuracy is counted, in the words the review shows (window and command line; translated
where shown)."""


class MoveClass(enum.Enum):
    """How good a move was, against the best move in the same position."""

    BEST = N_("best")  # the values are the files' words; ``word`` says them to a person
    GOOD = N_("good")
    MISTAKE = N_("mistake")
    BLUNDER = N_("blunder")

    @property
    def word(self) -> str:
        """The class in the player's language."""
        return _(self.value)

    @property
    def keeps_outcome(self) -> bool:
        return self in (MoveClass.BEST, MoveClass.GOOD)

    @property
    def credit(self) -> float:
        """What the move counts towards accuracy (``ACCURACY_RULE``)."""
        return {MoveClass.BEST: 1.0, MoveClass.GOOD: GOOD_CREDIT}.get(self, 0.0)


@dataclass(frozen=True)
class MoveReview:
    """One move of the game and what the review knows of it.

    Scores are from the side that played (``side``): on the standard board exact
    benchmark scores (``ai.solver``), off it search values.  ``move`` and the columns of
    ``scores`` and ``best_moves`` are 0-based move ids.  ``horizon_move`` is the move a
    depth-``horizon_depth`` search would have played here (looked up for mistakes and
    blunders only, else None).  ``estimate_depth`` is the depth every column was searched
    to off the standard board (None: exact scores); ``nodes`` the search positions this
    move's review visited (the estimate and the horizon's search).
    """

    ply: int  # 1-based: the ply-th disc of the game
    side: int
    move: int
    move_class: MoveClass
    score: int
    best_score: int
    best_moves: tuple[int, ...]
    scores: dict[int, int] = field(compare=False)
    horizon_depth: int = PERSON_DEPTH
    horizon_move: int | None = None
    estimate_depth: int | None = None
    nodes: int = 0
    why: Explanation | None = field(default=None, compare=False)

    @property
    def outcome_drop(self) -> int:
        """Steps of outcome lost by this move: 0 kept, 1 mistake, 2 blunder."""
        return {MoveClass.MISTAKE: 1, MoveClass.BLUNDER: 2}.get(self.move_class, 0)


@dataclass(frozen=True)
class GameReview:
    """The review of a game: the moves, the graph and what they add up to.

    ``graph[i]`` is the value after ``i`` plies from player 1's side (``graph[0]`` the
    starting position): an exact score when ``exact``, else a search value.
    ``complete`` is False when the review stopped early (only ``moves`` reviewed).
    """

    rules: Rules
    start: tuple[tuple[int, ...], ...]
    start_to_move: int
    played: tuple[int, ...]
    moves: tuple[MoveReview, ...]
    graph: tuple[int, ...]
    exact: bool

    @property
    def complete(self) -> bool:
        return len(self.moves) == len(self.played)

    def accuracy(self, side: int) -> float | None:
        """``side``'s moves' mean credit (``ACCURACY_RULE``; None: it played no move)."""
        own = [m for m in self.moves if m.side == side]
        if not own:
            return None
        return sum(m.move_class.credit for m in own) / len(own)

    def counts(self, side: int) -> dict[MoveClass, int]:
        """How many moves of each class ``side`` played."""
        result = {cls: 0 for cls in MoveClass}
        for m in self.moves:
            if m.side == side:
                result[m.move_class] += 1
        return result

    @property
    def turning_points(self) -> tuple[MoveReview, ...]:
        """The moves that threw away an outcome: blunders first, then the earliest."""
        lost = [m for m in self.moves if not m.move_class.keeps_outcome]
        lost.sort(key=lambda m: (-m.outcome_drop, m.ply))
        return tuple(sorted(lost[:TURNING_POINTS], key=lambda m: m.ply))

    def result_after(self, ply: int) -> str:
        """The result after ``ply`` plies of the game in words (``result_words``)."""
        start = self.board_at(0).ply
        # graph[0] was searched at the start; graph[i] as the value of the i-th move,
        # one ply before the position it describes
        return result_words(self.graph[ply], start + ply, exact=self.exact, ply_counted=ply == 0)

    def board_at(self, ply: int) -> Board:
        """The position after ``ply`` plies of the game."""
        board = Board(self.rules, np.array(self.start, dtype=np.int8), self.start_to_move)
        for move in self.played[:ply]:
            board.push(move)
        return board

    def summary(self) -> dict[str, object]:
        """What the archive keeps: accuracy, class counts, turning points and every
        mistake's and blunder's ply (the training queue's), JSON-ready."""
        return {
            "exact": self.exact,
            "accuracy": {"1": self.accuracy(MAX), "2": self.accuracy(MIN)},
            "counts": {
                str(1 if side == MAX else 2): {cls.value: n for cls, n in self.counts(side).items()}
                for side in (MAX, MIN)
            },
            "turning_points": [m.ply for m in self.turning_points],
            "mistakes": [m.ply for m in self.moves if not m.move_class.keeps_outcome],
        }


# -- the one place that puts results into words (swap for ai.exact at merge) ----------
def result_words(value: int, ply: int, *, exact: bool, cells: int = 42, ply_counted: bool = True) -> str:
    """A graph value after ``ply`` plies in words, from player 1's side.

    Exact: "player 1 wins in 3 moves" (the winner's own discs from here, the winning one
    included), "draw", "player 2 has won".  Estimates: "player 1 wins in 5 plies" for a
    proven win, else "about even" / "player 1 is better" (the search's judgement).  A
    search value counts plies from the position it was searched in: ``ply_counted=False``
    says that was one ply earlier (a move's value, told after the move).
    """
    winner = _("player 1") if value > 0 else _("player 2")
    if exact:
        found = ExactScore.from_first_player_score(value, ply, cells)
        if found.plies == 0:
            return _("{winner} has won").format(winner=winner)
        return verdict(found, {MAX: _("player 1"), MIN: _("player 2")})
    if is_win_value(value):
        left = plies_to_end(value) - (0 if ply_counted else 1)
        if left <= 0:
            return _("{winner} has won").format(winner=winner)
        return ngettext("{winner} wins in {left} ply (search)", "{winner} wins in {left} plies (search)", left).format(
            winner=winner, left=left
        )
    if abs(value) < ESTIMATE_GAP:
        return _("about even (search estimate)")
    return _("{winner} is better (search estimate)").format(winner=winner)


def graph_height(value: int, *, exact: bool) -> float:
    """A graph value as a height in [-1, 1]: +1 player 1 wins at once, 0 a draw.

    Wins sit above 0.5 (the quicker the higher), losses below -0.5, so the line crosses
    the draw band exactly when the outcome changes; estimates stay inside +-0.45.
    """
    if exact:
        if value == 0:
            return 0.0
        return (1 if value > 0 else -1) * (0.5 + 0.5 * min(abs(value), 21) / 21)
    if is_win_value(value):
        return (1 if value > 0 else -1) * (0.5 + 0.5 * max(0.0, 1 - plies_to_end(value) / 42))
    return max(-0.45, min(0.45, value / 1000))


def _outcome(score: int, exact: bool) -> int:
    """1/0/-1 from a score (exact) or a search value (a proven win or loss, else 0)."""
    if exact or is_win_value(score):
        return (score > 0) - (score < 0)
    return 0


def classify(played: int, best: int, *, exact: bool = True) -> MoveClass:
    """The class of a move scoring ``played`` where the best move scores ``best``.

    Both scores from the mover's side; exact benchmark scores, or (``exact=False``)
    search values whose proven wins and losses count as outcomes.
    """
    if played >= best:
        return MoveClass.BEST
    drop = _outcome(best, exact) - _outcome(played, exact)
    if drop >= 2:
        return MoveClass.BLUNDER
    if drop == 1:
        return MoveClass.MISTAKE
    if not exact and not is_win_value(best) and best - played >= ESTIMATE_GAP:
        return MoveClass.MISTAKE
    return MoveClass.GOOD


def sparkline(review: GameReview) -> str:
    """The graph as one line of text: high blocks player 1 ahead, low player 2."""
    blocks = "▁▂▃▄▅▆▇█"
    chars = []
    for value in review.graph:
        height = graph_height(value, exact=review.exact)
        chars.append(blocks[min(7, int((height + 1) / 2 * 8))])
    return "".join(chars)


def side_number(side: int) -> int:
    """1 for player 1 (MAX), 2 for player 2."""
    return 1 if side == MAX else 2
