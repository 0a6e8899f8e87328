"""The exact solver against the public benchmark scores and a brute-force check."""

from __future__ import annotations

import functools
import random

import pytest

from ai.solver import SolveLimit, Solver, SolverError, solve_moves_string
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
        assert solver.solve_moves(parse_moves(moves, Rules()), limit=SolveLimit(weak=True)).score == sign


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


def _bits(solver: Solver, board: Board) -> tuple[int, int]:
    first, second = solver.geo.from_grid(board.grid)
    return (first if board.ply % 2 == 0 else second), first | second


def test_best_move_names_a_column_that_reaches_the_score(positions_dir):
    """The root's own move, checked by solving the position it leads to."""
    rules = Rules()
    solver = Solver(rules)
    checker = Solver(rules)
    for moves, expected in _lines(positions_dir / "Test_L2_R1", step=40):
        board = Board.from_moves(moves)
        found = solver.best_move(*_bits(solver, board))
        assert found.score == int(expected), moves
        board.push(found.move)
        if board.is_game_over():
            assert board.outcome().winner is not None and found.score > 0, moves
            continue
        assert -checker.solve_grid(board.grid, board.to_move).score == found.score, moves


def test_weak_best_move_with_a_known_outcome_searches_only_for_the_move(positions_dir):
    rules = Rules()
    for moves, expected in _lines(positions_dir / "Test_L2_R1", step=100):
        board = Board.from_moves(moves)
        solver = Solver(rules)
        sign = (int(expected) > 0) - (int(expected) < 0)
        found = solver.best_move(*_bits(solver, board), limit=SolveLimit(weak=True), low=sign, high=sign)
        assert found.score == sign
        board.push(found.move)
        if not board.is_game_over():
            assert -Solver(rules).solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True)).score == sign, (
                moves
            )


def test_a_tiny_table_that_overwrites_all_the_time_keeps_answers_exact(positions_dir):
    """Entries replace each other in their slot; a slot's check bits keep a position from
    reading another one's bounds."""
    solver = Solver(Rules(), table_slots=1009)
    for moves, expected in _lines(positions_dir / "Test_L2_R1", step=25):
        assert solver.solve_moves(parse_moves(moves, Rules())).score == int(expected), moves


def test_the_table_survives_between_solves_and_answers_stay_exact():
    """A game's worth of solves on one solver (a game Perfect won against a perfect
    opponent): each later position, solved as a descendant of the first, costs fewer
    nodes than on a fresh solver, and every answer is the fresh one."""
    rules = Rules()
    moves = parse_moves("44444666613625222346355722175775115717331", rules)
    lengths = range(20, 28, 2)
    fresh = [Solver(rules).solve_moves(moves[:length]) for length in lengths]  # first: they clear the memory
    kept = Solver(rules)
    kept.solve_moves(moves[:18])
    for length, alone in zip(lengths, fresh):
        warm = kept.solve_moves(moves[:length])
        assert warm.score == alone.score
        assert warm.nodes < alone.nodes
    assert len(kept.table()) > 0 and len(kept.table(sign_scale=True)) == 0


def test_table_entries_bound_the_true_score():
    rules = Rules()
    solver = Solver(rules)
    board = Board.from_moves("4453444335")
    current, mask = _bits(solver, board)
    score = solver.solve_bits(current, mask).score
    entry = solver.table().lookup(current + mask)
    assert entry is not None
    lower, upper, _ = entry
    assert lower <= score <= upper
    assert solver.table().lookup(current + mask + 1) is None


@pytest.mark.parametrize("discs", [3, 7, 8, 11])
def test_best_move_before_the_book_searches_only_down_to_it(discs):
    """From 8 discs or fewer a weak root search stops at the books (its children's disc
    count decides which): a few thousand nodes, and the move keeps the outcome."""
    rules = Rules()
    rng = random.Random(discs)
    solver = Solver(rules)
    for _ in range(4):
        board = random_board(rules, rng, discs)
        found = solver.best_move(*_bits(solver, board), limit=SolveLimit(weak=True))
        assert found.nodes < 20_000, board.moves_string()
        assert found.score == solver.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True)).score
        board.push(found.move)
        if not board.is_game_over():
            assert -solver.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True)).score == found.score


def test_known_bounds_give_the_same_scores_with_fewer_searches(positions_dir):
    """A child of a solved position scores at least minus the parent's score: given as
    ``low``, the answer is unchanged (weak too), and a bound equal to the score is cheap."""
    rules = Rules()
    for moves, expected in _lines(positions_dir / "Test_L2_R1", step=100):
        played = parse_moves(moves, rules)
        score = int(expected)
        plain = Solver(rules).solve_moves(played)
        solver = Solver(rules)
        current, mask = _bits(solver, Board.from_moves(moves))
        for low, high in ((score, None), (score - 3, None), (None, score + 2), (score - 1, score + 1)):
            assert Solver(rules).solve_bits(current, mask, low=low, high=high).score == score, moves
            weak = Solver(rules).solve_bits(current, mask, limit=SolveLimit(weak=True), low=low, high=high).score
            assert weak == (score > 0) - (score < 0), moves
        assert solver.solve_bits(current, mask, low=score).nodes <= plain.nodes, moves
