"""Shared helpers for the tests: variants, random positions and a reference minimax."""

from __future__ import annotations

import random

from ai.bitboard import geometry
from ai.heuristic import make_evaluator, make_final_value
from ai.values import WIN
from game.board import Board
from game.rules import MAX, Mode, Rules

CLASSIC_VARIANTS = [
    Rules(),
    Rules(rows=4, cols=5, connect=3),
    Rules(rows=7, cols=8, connect=5),
    Rules(rows=5, cols=10, connect=4),
    Rules(rows=6, cols=6, connect=6),
    Rules(rows=4, cols=4, connect=3, gravity=False),
    Rules(rows=5, cols=5, connect=4, gravity=False),
]
FULL_BOARD_VARIANTS = [
    Rules(mode=Mode.FULL_BOARD),
    Rules(rows=4, cols=5, connect=3, mode=Mode.FULL_BOARD),
    Rules(rows=4, cols=4, connect=3, gravity=False, mode=Mode.FULL_BOARD),
]
ALL_VARIANTS = CLASSIC_VARIANTS + FULL_BOARD_VARIANTS


def variant_id(rules: Rules) -> str:
    return rules.describe().replace(", ", "-").replace(" ", "")


def random_board(rules: Rules, rng: random.Random, plies: int) -> Board:
    """Play up to ``plies`` random moves, stopping before the game would end."""
    board = Board(rules)
    for _ in range(plies):
        moves = board.legal_moves()
        rng.shuffle(moves)
        for move in moves:
            board.push(move)
            if board.is_game_over():
                board.pop()
                continue
            break
        else:
            break
    return board


def reference_minimax(board: Board, depth: int, ply: int = 0) -> int:
    """Plain minimax over ``game.board`` (numpy rules), the same values as ``ai.search``.

    Independent of the search's bitboard move generation, win detection and pruning;
    it shares only the leaf heuristic.
    """
    geo = geometry(board.rules)
    outcome = board.outcome()
    if outcome is not None:
        if board.rules.mode is Mode.FULL_BOARD or outcome.winner is None:
            first, second = geo.from_grid(board.grid)
            return make_final_value(geo)(first, second)
        return (WIN - ply) * outcome.winner
    if depth == 0:
        return make_evaluator(geo)(*geo.from_grid(board.grid))
    values = []
    for move in board.legal_moves():
        board.push(move)
        values.append(reference_minimax(board, depth - 1, ply + 1))
        board.pop()
    return max(values) if board.to_move == MAX else min(values)
