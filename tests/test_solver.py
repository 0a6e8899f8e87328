"""The exact solver against the public benchmark scores and a brute-force check."""

from __future__ import annotations

import functools
import random

import pytest

from ai.solver import Solver, SolverError, solve_moves_string
from game.board import Board
from game.notation import parse_moves
from game.rules import Mode, Rules
from tests.helpers import random_board


def _lines(path, step=1):
    rows = [line.split() for line in path.read_text().split("\n") if line.strip()]
    return rows[::step]


def test_solver_reproduces_every_end_game_score(positions_dir):
    solver = Solver(Rules())
    rows = _lines(positions_dir / "Test_L3_R1")
    assert len(rows) == 1000
    wrong = [
        (moves, expected)
        for moves, expected in rows
        if solver.solve_moves(parse_moves(moves, Rules())).score != int(expected)
    ]
    assert wrong == []


def test_solver_reproduces_a_sample_of_middle_game_scores(positions_dir):
    solver = Solver(Rules())
    rows = _lines(positions_dir / "Test_L2_R1", step=10)
    assert len(rows) == 100
    for moves, expected in rows:
        assert solver.solve_moves(parse_moves(moves, Rules())).score == int(expected), moves


def test_weak_solve_gives_only_the_sign(positions_dir):
    solver = Solver(Rules())
    for moves, expected in _lines(positions_dir / "Test_L3_R1", step=50):
        sign = (int(expected) > 0) - (int(expected) < 0)
        assert solver.solve_moves(parse_moves(moves, Rules()), weak=True).score == sign


def _exact_score(board: Board) -> int:
    """Brute-force negamax over game.board, in the benchmark score convention."""
    rules = board.rules

    @functools.cache
    def score(key: bytes, to_move: int) -> int:
        best = -rules.cells
        for move in board.legal_moves():
            board.push(move)
            outcome = board.outcome()
            if outcome is not None and outcome.winner is not None:
                discs = (board.ply + 1) // 2
                value = rules.cells // 2 + 1 - discs
            elif outcome is not None:
                value = 0
            else:
                value = -score(board.grid.tobytes(), board.to_move)
            board.pop()
            best = max(best, value)
        return best

    return score(board.grid.tobytes(), board.to_move)


@pytest.mark.parametrize(
    "rules", [Rules(rows=4, cols=4, connect=3), Rules(rows=4, cols=5, connect=4)], ids=["4x4-k3", "4x5-k4"]
)
def test_solver_agrees_with_brute_force_on_small_boards(rules):
    rng = random.Random(7)
    solver = Solver(rules)
    checked = 0
    for _ in range(200):
        board = random_board(rules, rng, rng.randrange(rules.cells // 2, rules.cells - 1))
        if board.is_game_over():
            continue
        assert solver.solve_grid(board.grid, board.to_move).score == _exact_score(board), board.moves_string()
        checked += 1
        if checked == 25:
            break
    assert checked == 25


def test_solver_refuses_what_it_cannot_solve():
    with pytest.raises(SolverError, match="CLASSIC rules with gravity"):
        Solver(Rules(mode=Mode.FULL_BOARD))
    with pytest.raises(SolverError, match="CLASSIC rules with gravity"):
        Solver(Rules(gravity=False))
    with pytest.raises(SolverError, match="already over"):
        solve_moves_string("1212121")
    with pytest.raises(SolverError, match="full"):
        solve_moves_string("4444444")


def test_immediate_win_scores_by_discs_played():
    # X has played 3 discs and wins with its 4th: 22 - 4 = 18.
    assert solve_moves_string("121212").score == 18
