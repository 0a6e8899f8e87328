"""Reviewing a game: the exact solver (standard board) or a search scores every column
of every position the players faced, and ``ai.review``'s classes judge the moves played.

    review = review_game(board.rules, board.moves, depths={MAX: 6, MIN: 8})

On the standard board each mistake and blunder is also explained (``ai.explain``: what
it handed over and the other side's proved answer), with the review's own solver.
This is the work; the review's data and words live in ``ai.review``, which the window
reads without loading the solver.  ``should_stop`` and ``on_progress`` make it
cancellable and visible (the window runs it as a job in its worker process).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ai.explain.explainer import ExplainError, explain_move
from ai.explain.explanation import Explanation
from ai.perfect import PerfectPlayer
from ai.review import (
    ESTIMATE_DEPTH,
    ESTIMATE_NODES,
    HORIZON_NODES,
    PERSON_DEPTH,
    GameReview,
    MoveReview,
    classify,
)
from ai.search import search
from ai.search_types import SearchCancelled
from ai.solver import SolveLimit, SolverStopped
from ai.values import WIN, is_win_value
from game.board import Board
from game.rules import MAX, STANDARD, Rules


class ReviewStopped(Exception):
    """``should_stop`` asked the review to give up."""


# -- scoring the columns of one position -----------------------------------------------
@dataclass(frozen=True)
class _Estimate:
    """Search values of every legal move, the depth they were searched to, the work."""

    scores: dict[int, int]
    depth: int
    nodes: int


def _estimate_scores(board: Board, depth: int, budget: int, should_stop: Callable[[], bool] | None) -> _Estimate:
    """Search values of every legal move from the side to move (off the standard board).

    Every column is searched to depth 1, then 2, ... up to ``depth``; a pass that does not
    finish within ``budget`` positions (all columns together) is dropped, so the values
    all come from one depth, the deepest the budget allowed (depth 1 always finishes).
    """
    side = board.to_move
    kept: dict[int, int] = {}
    reached = 0
    used = 0
    for current in range(1, depth + 1):
        scores: dict[int, int] = {}
        proven = True  # every column ended or proved a result: deeper passes change nothing
        for move in board.legal_moves():
            board.push(move)
            try:
                outcome = board.outcome()
                if outcome is not None:
                    if outcome.winner is None:
                        value = 0
                    else:
                        value = (WIN - 1) if outcome.winner == side else -(WIN - 1)
                else:
                    left = budget - used if current > 1 else None
                    if left is not None and left <= 0:
                        break
                    result = search(
                        board.grid,
                        board.rules,
                        current,
                        to_move=board.to_move,
                        should_stop=should_stop,
                        node_limit=left,
                    )
                    used += result.stats.total_nodes
                    if not result.completed:
                        break
                    proven = proven and result.proven
                    value = side * result.value
                    if is_win_value(value):  # one ply further from the root than the child's
                        value -= 1 if value > 0 else -1
                scores[move] = value
            finally:
                board.pop()
        else:
            kept, reached = scores, current
            if proven or used >= budget:
                break
            continue
        break  # this pass ran out of positions: the previous one stands
    return _Estimate(kept, reached, used)


def _best_order(scores: dict[int, int], cols: int) -> tuple[int, ...]:
    """The best moves, centre first (the order the players break ties in)."""
    best = max(scores.values())
    centre = (cols - 1) / 2
    return tuple(sorted((m for m, s in scores.items() if s == best), key=lambda m: (abs(m % cols - centre), m)))


def review_game(
    rules: Rules,
    moves: Sequence[int],
    *,
    start: np.ndarray | None = None,
    start_to_move: int = MAX,
    depths: dict[int, int] | None = None,
    estimate_depth: int = ESTIMATE_DEPTH,
    estimate_nodes: int = ESTIMATE_NODES,
    horizon_nodes: int = HORIZON_NODES,
    should_stop: Callable[[], bool] | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    player: PerfectPlayer | None = None,
    done: Sequence[MoveReview] = (),
    on_move: Callable[[MoveReview], None] | None = None,
    explain: bool = True,
) -> GameReview:
    """Review the game ``moves`` (0-based move ids) played from ``start``.

    Args:
        rules: the rules the game was played under.
        moves: the moves played, in order.
        start: the starting grid (default: the empty board); ``start_to_move`` moves first.
        depths: each side's search depth for "a depth-N search would have played X"
            (a person: ``PERSON_DEPTH``, the default).
        estimate_depth: off the standard board, plies searched below each column at most.
        estimate_nodes: off the standard board, the positions one move's columns may
            visit together; the deepest depth they all finish within is used.
        horizon_nodes: the positions "a depth-N search would have played X" may visit;
            past them the deepest depth finished is named.
        should_stop: polled between moves and inside the searches; True stops it (``ReviewStopped``).
        on_progress: called as ``on_progress(done, total)`` after each move reviewed.
        player: the perfect player whose tables to use (default: a fresh one).
        done: the first moves' reviews from an earlier, stopped run, kept: it goes on where it stopped.
        on_move: called with each move's review as soon as it is made (streaming).
        explain: on the standard board, explain each mistake and blunder (``MoveReview.why``).

    Returns:
        A ``GameReview`` with every move classed.

    Raises:
        ReviewStopped: ``should_stop`` returned True.
        IllegalMoveError: a move is not legal where it was played.
    """
    exact = rules == STANDARD
    grid = rules.empty_grid() if start is None else np.asarray(start, dtype=np.int8)
    board = Board(rules, grid, start_to_move)
    depths = depths or {}
    perfect = (player or PerfectPlayer()) if exact else None
    reviewed: list[MoveReview] = []
    graph: list[int] = []
    budgets = (estimate_depth, estimate_nodes, horizon_nodes)
    for index, move in enumerate(moves):
        fresh = index >= len(done)  # else reviewed by an earlier run: the same position, the same scores
        if fresh:
            if should_stop is not None and should_stop():
                raise ReviewStopped("the review was cancelled")
            if board.is_game_over():
                break
            this = _review_move(board, index + 1, move, perfect, depths, budgets, should_stop, explain=explain)
        else:
            this = done[index]
        if not graph:
            graph.append(this.side * this.best_score)
        reviewed.append(this)
        graph.append(this.side * this.score)
        board.push(move)
        if fresh and on_move is not None:
            on_move(this)
        if fresh and on_progress is not None:
            on_progress(index + 1, len(moves))
    return GameReview(
        rules=rules,
        start=tuple(tuple(int(v) for v in row) for row in grid),
        start_to_move=start_to_move,
        played=tuple(moves),
        moves=tuple(reviewed),
        graph=tuple(graph),
        exact=exact,
    )


def _review_move(
    board: Board,
    number: int,
    move: int,
    perfect: PerfectPlayer | None,
    depths: dict[int, int],
    budgets: tuple[int, int, int],
    should_stop: Callable[[], bool] | None,
    *,
    explain: bool = True,
) -> MoveReview:
    """The review of move ``number`` (``move``, played in ``board``): by the exact column
    scores on the standard board (``perfect``; with ``explain``, a mistake's or blunder's
    refutation too), else by a search's estimates within ``budgets`` (estimate depth,
    estimate nodes, horizon nodes: ``review_game``'s).

    Raises:
        ReviewStopped: ``should_stop`` returned True.
    """
    estimate_depth, estimate_nodes, horizon_nodes = budgets
    exact = perfect is not None
    try:
        if perfect is not None:
            scores = perfect.column_scores(board.grid, board.to_move, limit=SolveLimit(should_stop=should_stop))
            this = _judge(board, number, move, scores, exact, depths, horizon_nodes, should_stop)
            if explain and not this.move_class.keeps_outcome:
                this = replace(this, why=_why(board, move, perfect, should_stop))
            return this
        estimate = _estimate_scores(board, estimate_depth, estimate_nodes, should_stop)
        this = _judge(board, number, move, estimate.scores, exact, depths, horizon_nodes, should_stop)
        return replace(this, estimate_depth=estimate.depth, nodes=this.nodes + estimate.nodes)
    except (SolverStopped, SearchCancelled) as stopped:
        raise ReviewStopped("the review was cancelled") from stopped


def _why(board: Board, move: int, perfect: PerfectPlayer, should_stop: Callable[[], bool] | None) -> Explanation | None:
    """Why ``move`` in ``board`` lost value (its refutation), with the review's solver.

    Raises:
        SolverStopped: ``should_stop`` said so.
    """
    try:
        return explain_move(board.grid, board.to_move, move, solver=perfect.solver, should_stop=should_stop)
    except ExplainError:  # the game was over before the move: nothing to explain
        return None


def _judge(
    board: Board,
    ply: int,
    move: int,
    scores: dict[int, int],
    exact: bool,
    depths: dict[int, int],
    horizon_nodes: int,
    should_stop: Callable[[], bool] | None,
) -> MoveReview:
    """The review of ``move`` played in ``board`` whose columns score ``scores`` (from the
    mover's side); for a move that lost an outcome, what the mover's search would have played.

    Raises:
        IllegalMoveError: ``move`` is not legal in ``board``.
        SearchCancelled: ``should_stop`` said so during that search.
    """
    if move not in scores:
        board.push(move)  # raises IllegalMoveError, which says why
    side = board.to_move
    best_moves = _best_order(scores, board.rules.cols)
    best = scores[best_moves[0]]
    move_class = classify(scores[move], best, exact=exact)
    depth = depths.get(side, PERSON_DEPTH)
    horizon = None
    nodes = 0
    if not move_class.keeps_outcome:
        result = search(board.grid, board.rules, depth, to_move=side, should_stop=should_stop, node_limit=horizon_nodes)
        horizon, nodes = result.move, result.stats.total_nodes
        if not result.completed:  # the budget stopped it: name the depth it finished
            depth = result.depth
    return MoveReview(
        ply=ply,
        side=side,
        move=move,
        move_class=move_class,
        score=scores[move],
        best_score=best,
        best_moves=best_moves,
        scores=scores,
        horizon_depth=depth,
        horizon_move=horizon,
        nodes=nodes,
    )


def review_board(board: Board, **options: Any) -> GameReview:
    """Review the moves of ``board`` from its starting position (see ``review_game``)."""
    return review_game(
        board.rules, board.moves, start=board.start_grid(), start_to_move=board.start_to_move(), **options
    )
