"""Minimax with alpha-beta pruning as the lecture writes it (AIMA's max_value / min_value).

Hold this file next to the lecture notes: ``maximize`` and ``minimize`` are the two
mutually recursive functions of the textbook, over ``game.Board`` (push a move, look,
pop it again), with pruning as a flag.  It is slow and meant to be read; ``ai.search``
computes the same values thousands of times faster (bitboards, move ordering, a cache),
and the tests hold the two equal: the same value always, and the same node count when
the order cannot matter (pruning off).

Values are from MAX's side (``ai.values``): a win ``p`` plies below the root is worth
``WIN - p``, a loss ``p - WIN``; a position at the depth limit gets the heuristic of
``ai.heuristic``; a full board gets its final score (0 for a classic draw).
"""

from __future__ import annotations

from dataclasses import dataclass

from ai.bitboard import geometry
from ai.heuristic import make_evaluator, make_final_value
from ai.values import INF, WIN
from game.board import Board
from game.rules import MAX, Mode


@dataclass(frozen=True)
class TextbookResult:
    """The textbook's answer: the move, its value and the positions it looked at."""

    move: int | None
    value: int
    nodes: int  # positions below the root that were visited (pushed)


def textbook_search(board: Board, depth: int, *, pruning: bool = True) -> TextbookResult:
    """Choose the move of the side to move by minimax to ``depth`` plies.

    Args:
        board: the position; it is copied, never changed.
        depth: plies to look ahead (>= 1).
        pruning: alpha-beta cutoffs on (same value, fewer positions) or off.

    Returns:
        The best move (the first of equals, in ``board.legal_moves()`` order), its value
        and the number of positions visited.
    """
    if depth < 1:
        raise ValueError("depth must be at least 1")
    board = board.copy()
    geo = geometry(board.rules)
    heuristic, final_score = make_evaluator(geo), make_final_value(geo)
    root_plies = len(board.moves)
    nodes = 0

    def terminal_value(depth: int) -> int | None:
        """The value of a finished game or of the depth limit; None to search on."""
        outcome = board.outcome()
        if outcome is not None:
            if board.rules.mode is Mode.FULL_BOARD or outcome.winner is None:
                return final_score(*geo.from_grid(board.grid))
            return (WIN - (len(board.moves) - root_plies)) * outcome.winner
        if depth == 0:
            return heuristic(*geo.from_grid(board.grid))
        return None

    def maximize(depth: int, alpha: int, beta: int) -> int:
        """MAX to move: the greatest value among the children."""
        nonlocal nodes
        value = terminal_value(depth)
        if value is not None:
            return value
        value = -INF
        for move in board.legal_moves():
            board.push(move)
            nodes += 1
            value = max(value, minimize(depth - 1, alpha, beta))
            board.pop()
            if pruning and value >= beta:
                return value  # MIN has a better choice higher up: the rest cannot matter
            alpha = max(alpha, value)
        return value

    def minimize(depth: int, alpha: int, beta: int) -> int:
        """MIN to move: the least value among the children."""
        nonlocal nodes
        value = terminal_value(depth)
        if value is not None:
            return value
        value = INF
        for move in board.legal_moves():
            board.push(move)
            nodes += 1
            value = min(value, maximize(depth - 1, alpha, beta))
            board.pop()
            if pruning and value <= alpha:
                return value  # MAX has a better choice higher up: the rest cannot matter
            beta = min(beta, value)
        return value

    if board.is_game_over():
        return TextbookResult(None, terminal_value(0) or 0, 0)
    maximizing = board.to_move == MAX
    best_move, best_value = None, -INF if maximizing else INF
    alpha, beta = -INF, INF
    for move in board.legal_moves():
        board.push(move)
        nodes += 1
        value = minimize(depth - 1, alpha, beta) if maximizing else maximize(depth - 1, alpha, beta)
        board.pop()
        if (value > best_value) if maximizing else (value < best_value):
            best_move, best_value = move, value
            if maximizing:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
    return TextbookResult(best_move, best_value, nodes)
