"""Explain an exact verdict: the solver's result and columns, and a reason proved here.

    explanation = explain(board.grid, board.to_move)            # why the position is what it is
    explanation = explain_move(board.grid, board.to_move, 2)    # why column 3 keeps or loses it
    explanation.result, explanation.moves, explanation.reason.kind, explanation.reason.line

The result and the columns that keep it come from ``ai.solver.Solver.analyze`` (the one
home of column scores), never from here.  The reason is looked for in this order and
each is a proof before it is handed out:

- *wins now*: a playable square completes a line;
- *double threat*: two threats of one side, two playable ones or one right above another,
  and the other side cannot win first: one block cannot stop both;
- *forced win*: the solver's exact win distance is at most ``FORCED_PLIES`` plies; the line
  is the solver's, each disc the best column by ``analyze`` (quickest win, slowest loss);
- *only move*: the other side threatens to win at one playable square, so every other
  column loses at once (with the strategy that follows, when one is found);
- *zugzwang* / *strategy*: a set of pairs checked against every reply to the end
  (``ai.explain.checker``), for the side that wins, or, in a draw, for a side that
  cannot lose (the side not to move first: why the side to move cannot win);
- *refutation* (``explain_move``, a column that loses value): what the disc did (played
  under a threat, left one, gave up a square) and the other side's proved answer.

Otherwise the reason is *no simple reason*: the verdict stands (the solver proved it),
the explainer found no short proof to show.  The work is bounded in positions, not time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from ai.exact import ExactScore
from ai.explain.board import (
    BOARD,
    column_of,
    drop,
    has_line,
    square_of,
    squares_of,
    threat_list,
    threats,
    wins_now,
)
from ai.explain.explanation import (
    DRAW,
    FORCED_PLIES,
    LOSS,
    WIN,
    Cause,
    Explanation,
    Reason,
    ReasonKind,
    Square,
    Strategy,
)
from ai.explain.rules import above
from ai.explain.strategies import CHECK_BUDGET, find_strategy
from ai.player import shared_solver
from ai.solver import SolveLimit, Solver
from game.i18n import _
from game.rules import MAX, STANDARD, Rules

FIRST_MOVES = 3
"""Columns a strategy of the side to move may start with, at most (centre first)."""
EXPLAIN_BUDGET = 2 * CHECK_BUDGET
"""Positions all the strategy checks of one explanation may visit."""


class ExplainError(ValueError):
    """A position the explainer does not take: not the standard board, or the game is over."""


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


@dataclass
class _Node:
    """A position being explained: the side to move's discs, all discs, who moves, and
    the solver's scores of its columns (asked once)."""

    solver: Solver
    current: int
    mask: int
    to_move: int
    should_stop: Callable[[], bool] | None
    budget: list[int]
    _scores: dict[int, int] | None = field(default=None, repr=False)

    @property
    def other(self) -> int:
        return self.current ^ self.mask

    def scores(self) -> dict[int, int]:
        if self._scores is None:
            limit = SolveLimit(should_stop=self.should_stop)
            self._scores = self.solver.analyze(self.current, self.mask, limit=limit).complete()
        return self._scores

    def best(self) -> int:
        return max(self.scores().values())

    def keeping(self, outcome: int) -> list[int]:
        """Columns whose outcome is ``outcome``, centre first (``analyze``'s order)."""
        return [col for col, score in self.scores().items() if _sign(score) == outcome]

    def child(self, col: int) -> _Node:
        bit = drop(self.mask, col)
        return _Node(self.solver, self.other, self.mask | bit, -self.to_move, self.should_stop, self.budget)

    def plies_to_win(self) -> int | None:
        """Plies to the winning disc with perfect play (None: a draw)."""
        best = self.best()
        own, other = self.current.bit_count(), self.other.bit_count()
        return ExactScore.from_counts(best, own, other, self.to_move, STANDARD.cells).plies if best else None

    def forced_line(self) -> tuple[int, ...]:
        """Both sides' best columns by the solver (quickest win, slowest loss, centre first on
        ties) to the end of the game."""
        line: list[int] = []
        node = self
        while True:
            scores = node.scores()
            col = max(scores, key=lambda c: scores[c])
            line.append(col)
            bit = drop(node.mask, col)
            if has_line(node.current | bit) or node.mask | bit == BOARD:
                return tuple(line)
            node = node.child(col)


def _check_position(grid: np.ndarray, rules: Rules) -> None:
    if rules != STANDARD or np.asarray(grid).shape != (STANDARD.rows, STANDARD.cols):
        raise ExplainError(_("explanations are for the standard board only (6x7, connect 4, gravity, classic)"))


def _root(grid: np.ndarray, to_move: int, solver: Solver | None, should_stop: Callable[[], bool] | None) -> _Node:
    if solver is None:
        solver = shared_solver(STANDARD)
    current, mask = solver.position(np.asarray(grid, dtype=np.int8), to_move)
    if has_line(current) or has_line(current ^ mask):
        raise ExplainError(_("the game is over: there is a line on the board"))
    if mask == BOARD:
        raise ExplainError(_("the game is over: the board is full"))
    return _Node(solver, current, mask, to_move, should_stop, [EXPLAIN_BUDGET])


def explain(
    grid: np.ndarray,
    to_move: int,
    *,
    rules: Rules = STANDARD,
    solver: Solver | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Explanation:
    """The exact verdict of a position on the standard board and its reason.

    Args:
        grid, to_move: the position (``to_move`` 1 or -1).
        solver: the exact solver to ask (default: this process's shared one).
        should_stop: polled during the work; True cancels it (``SolverStopped``).

    Raises:
        ExplainError: not the standard board, or the game is over.
        SolverStopped: ``should_stop`` said so.
    """
    _check_position(grid, rules)
    node = _root(grid, to_move, solver, should_stop)
    result = _sign(node.best())
    mover, other = node.to_move, -node.to_move
    if result == WIN:
        reason = _prove(node, mover, WIN)
    elif result == LOSS:
        reason = _prove(node, other, WIN)
    elif _only_move(node) is not None:
        reason = _prove(node, mover, DRAW) or _prove(node, other, DRAW)
    else:
        reason = _prove(node, other, DRAW) or _prove(node, mover, DRAW)
    if reason is None:
        reason = Reason(ReasonKind.NO_SIMPLE_REASON, mover if result >= 0 else other, abs(result))
    return _explanation(node, reason)


def explain_move(
    grid: np.ndarray,
    to_move: int,
    move: int,
    *,
    rules: Rules = STANDARD,
    solver: Solver | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Explanation:
    """Why column ``move`` (0-based) keeps the position's result, or what it gives away.

    A column that keeps the result gets the mover's proof that starts with it; one that
    loses value gets a refutation: its cause where it is one of ``Cause`` and the proof
    of what the other side gets after it.

    Raises:
        ExplainError: not the standard board, the game is over, or the column is full.
        SolverStopped: ``should_stop`` said so.
    """
    _check_position(grid, rules)
    node = _root(grid, to_move, solver, should_stop)
    scores = node.scores()
    if move not in scores:
        raise ExplainError(_("column {column} is full").format(column=move + 1))
    result, kept = _sign(node.best()), _sign(scores[move])
    mover = node.to_move
    bit = drop(node.mask, move)
    if has_line(node.current | bit):
        reason: Reason | None = Reason(ReasonKind.WINS_NOW, mover, WIN, (square_of(bit),), (move,), column=move)
    elif kept == result and kept >= DRAW:
        reason = _prove(node, mover, kept, first=(move,))
    elif kept == result:  # every column loses: the other side's proof after this one
        then = _prove(node.child(move), -mover, WIN)
        reason = then and _prefixed(then, move)
    else:
        reason = _refutation(node, move, kept)
    if reason is None:
        holder = mover if kept >= DRAW else -mover
        reason = Reason(ReasonKind.NO_SIMPLE_REASON, holder, abs(kept))
    return _explanation(node, reason, move=move)


def _explanation(node: _Node, reason: Reason, move: int | None = None) -> Explanation:
    scores = node.scores()
    best = node.best()
    first = node.current if node.to_move == MAX else node.other
    return Explanation(
        to_move=node.to_move,
        result=_sign(best),
        score=best,
        moves=tuple(sorted(col for col, score in scores.items() if _sign(score) == _sign(best))),
        reason=reason,
        threats=threat_list(first, node.mask),
        move=move,
        move_score=None if move is None else scores[move],
        scores=dict(scores),
        discs=(squares_of(first), squares_of(first ^ node.mask)),
    )


def _prefixed(reason: Reason, move: int) -> Reason:
    """A reason found after ``move``, told from before it: its line and its strategy's
    first columns start with the move."""
    line = None if reason.line is None else (move, *reason.line)
    strategy = reason.strategy
    if strategy is not None:
        strategy = replace(strategy, after=(move, *strategy.after))
    return replace(reason, line=line, strategy=strategy)


# -- the proofs ------------------------------------------------------------------------------
def _prove(node: _Node, holder: int, claim: int, first: tuple[int, ...] | None = None) -> Reason | None:
    """A proof that ``holder`` gets ``claim`` (``WIN``, or at least ``DRAW``) from ``node``,
    or None; ``first`` limits the columns the side to move may start with."""
    if holder == node.to_move:
        return _prove_moving(node, claim, first)
    if claim == WIN:
        found = _double_threat_standing(node)
        if found is not None:
            return found
        plies = node.plies_to_win()
        if node.best() < 0 and plies is not None and plies <= FORCED_PLIES:
            return Reason(ReasonKind.FORCED_WIN, holder, WIN, line=node.forced_line())
    return _strategy_reason(node, holder, claim, ())


def _prove_moving(node: _Node, claim: int, first: tuple[int, ...] | None) -> Reason | None:
    mover = node.to_move
    keeping = [col for col in node.keeping(claim) if first is None or col in first]
    if claim == WIN:
        found = _win_for_mover(node, keeping, first)
        if found is not None:
            return found
    block = _only_move(node)
    if block is not None and (first is None or column_of(block) in first):
        strategy = _strategy(node.child(column_of(block)), mover, claim, (column_of(block),))
        col = column_of(block)
        return Reason(ReasonKind.ONLY_MOVE, mover, claim, (square_of(block),), strategy=strategy, column=col)
    for col in keeping[:FIRST_MOVES]:
        found = _strategy_reason(node.child(col), mover, claim, (col,))
        if found is not None:
            return found
    return None


def _win_for_mover(node: _Node, keeping: list[int], first: tuple[int, ...] | None) -> Reason | None:
    """Wins now, makes a double threat, or wins by force within ``FORCED_PLIES`` plies."""
    mover = node.to_move
    wins = wins_now(node.current, node.mask) & sum(drop(node.mask, col) for col in keeping)
    if wins:
        col = column_of(wins & -wins)
        return Reason(ReasonKind.WINS_NOW, mover, WIN, squares_of(wins), (col,), column=col)
    for col in keeping:
        squares = _makes_double_threat(node, col)
        if squares:
            line = (col, *node.child(col).forced_line())
            return Reason(ReasonKind.DOUBLE_THREAT, mover, WIN, squares, line, column=col)
    if first is None:
        plies = node.plies_to_win()
        if plies is not None and plies <= FORCED_PLIES:
            return Reason(ReasonKind.FORCED_WIN, mover, WIN, line=node.forced_line())
        return None
    for col in keeping:
        child = node.child(col)
        plies = child.plies_to_win()
        if plies is not None and child.best() < 0 and plies + 1 <= FORCED_PLIES:
            return Reason(ReasonKind.FORCED_WIN, mover, WIN, line=(col, *child.forced_line()))
    return None


def _strategy(node: _Node, holder: int, claim: int, after: tuple[int, ...]) -> Strategy | None:
    """A checked strategy for ``holder`` from ``node`` (the other side to move), or None."""
    if node.budget[0] <= 0 or has_line(node.other) or node.mask == BOARD:
        return None  # out of work, or the game already over: no pairs to follow
    hold = node.other  # the holder has just moved (or, with ``after`` empty, waits)
    found = find_strategy(
        holder,
        hold,
        node.mask,
        claim,
        after=after,
        budget=min(CHECK_BUDGET, node.budget[0]),
        should_stop=node.should_stop,
    )
    node.budget[0] -= found.positions
    return found.strategy


def _strategy_reason(node: _Node, holder: int, claim: int, after: tuple[int, ...]) -> Reason | None:
    strategy = _strategy(node, holder, claim, after)
    if strategy is None:
        return None
    kind = ReasonKind.ZUGZWANG if strategy.follow_up_only else ReasonKind.STRATEGY
    return Reason(kind, holder, claim, strategy.wins_at if claim == WIN else (), strategy=strategy)


def _only_move(node: _Node) -> int | None:
    """The cell the side to move must fill: the other side's one playable winning cell
    (None: none, two or more, or the side to move wins first)."""
    if wins_now(node.current, node.mask):
        return None
    theirs = wins_now(node.other, node.mask)
    return theirs if theirs and not theirs & (theirs - 1) else None


def _double(own: int, other: int, mask: int) -> tuple[int, ...]:
    """``own``'s double threat with ``other`` to move: two playable winning cells, or a
    playable one right under another; () when there is none or ``other`` wins first."""
    if wins_now(other, mask):
        return ()
    now = wins_now(own, mask)
    if now & (now - 1):
        cells = []
        while now:
            cells.append(now & -now)
            now &= now - 1
        return tuple(cells[:2])
    if now and above(now) & threats(own, mask):
        return (now, above(now))
    return ()


def _makes_double_threat(node: _Node, col: int) -> tuple[Square, ...]:
    bit = drop(node.mask, col)
    cells = _double(node.current | bit, node.other, node.mask | bit)
    return tuple(square_of(cell) for cell in cells)


def _double_threat_standing(node: _Node) -> Reason | None:
    """The other side already has a double threat against the side to move."""
    cells = _double(node.other, node.current, node.mask)
    if not cells:
        return None
    squares = tuple(square_of(cell) for cell in cells)
    return Reason(ReasonKind.DOUBLE_THREAT, -node.to_move, WIN, squares, node.forced_line())


def _refutation(node: _Node, move: int, kept: int) -> Reason:
    """Why ``move`` loses value: its cause and the other side's proof after it."""
    bit = drop(node.mask, move)
    mask_after = node.mask | bit
    cause: Cause | None = None
    squares: tuple[Square, ...] = ()
    theirs = wins_now(node.other, node.mask)
    if theirs and not theirs & bit:
        cause, squares = Cause.LEAVES_THREAT, squares_of(theirs)
    elif above(bit) & threats(node.other, mask_after):
        cause, squares = Cause.PLAYS_UNDER_THREAT, (square_of(above(bit)),)
    elif above(bit) & threats(node.current, node.mask):
        cause, squares = Cause.GIVES_UP_SQUARE, (square_of(above(bit)),)
    opponent = -node.to_move
    then = _prove(node.child(move), opponent, WIN if kept == LOSS else DRAW)
    if then is None:
        then = Reason(ReasonKind.NO_SIMPLE_REASON, opponent, WIN if kept == LOSS else DRAW)
    line = None if then.line is None else (move, *then.line)
    strategy = then.strategy and replace(then.strategy, after=(move, *then.strategy.after))
    return Reason(ReasonKind.REFUTATION, opponent, -kept, squares, line, strategy, cause, then, move)
