"""Rules, board, match and notation: what a game of any variant does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.board import Board, IllegalMoveError, Termination
from game.match import Match
from game.notation import NotationError, parse_moves
from game.rules import MAX, MIN, Mode, Rules, RulesError, runs_of, score
from tests.helpers import ALL_VARIANTS, random_board, variant_id


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(rows=3),
        dict(rows=11),
        dict(cols=3),
        dict(cols=13),
        dict(connect=2),
        dict(connect=7),
        dict(rows=4, cols=4, connect=5),
    ],
)
def test_rules_out_of_range_are_refused(kwargs):
    with pytest.raises(RulesError):
        Rules(**kwargs)


def test_every_size_and_connect_in_range_is_accepted():
    for rows in range(4, 11):
        for cols in range(4, 13):
            for connect in range(3, 7):
                if connect <= max(rows, cols):
                    assert Rules(rows, cols, connect).cells == rows * cols


def test_gravity_stacks_discs_from_the_bottom():
    board = Board.from_moves("4444")
    assert [board.grid[r, 3] for r in range(6)] == [0, 0, MIN, MAX, MIN, MAX]
    assert board.to_move == MAX


def test_full_column_is_an_illegal_move_with_a_message():
    board = Board.from_moves("444444")
    with pytest.raises(IllegalMoveError, match="column 4 is full"):
        board.push(3)
    with pytest.raises(IllegalMoveError, match="off the board"):
        board.push(7)


@pytest.mark.parametrize(
    "moves, cells",
    [
        ("1122334", [(5, 0), (5, 1), (5, 2), (5, 3)]),  # row
        ("1212121", [(2, 0), (3, 0), (4, 0), (5, 0)]),  # column
        ("12233434744", [(5, 0), (4, 1), (3, 2), (2, 3)]),  # diagonal up-right
        ("76655454144", [(5, 6), (4, 5), (3, 4), (2, 3)]),  # diagonal up-left
    ],
)
def test_classic_line_wins_and_names_the_line(moves, cells):
    board = Board.from_moves(moves)
    outcome = board.outcome()
    assert outcome is not None and outcome.winner == MAX
    assert outcome.termination is Termination.LINE
    assert sorted(outcome.runs[0]) == sorted(cells)
    assert board.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="over"):
        board.push(0)


def test_second_player_can_win():
    board = Board.from_moves("71212121")
    assert board.outcome().winner == MIN


def test_full_board_without_line_is_a_draw():
    grid = np.array(
        [
            [1, -1, 1, -1, 1, -1, 1],
            [1, -1, 1, -1, 1, -1, 1],
            [-1, 1, -1, 1, -1, 1, -1],
            [-1, 1, -1, 1, -1, 1, -1],
            [1, -1, 1, -1, 1, -1, 1],
            [1, -1, 1, -1, 1, -1, 1],
        ],
        dtype=np.int8,
    )
    assert not runs_of(grid, MAX, 4) and not runs_of(grid, MIN, 4)
    full = Board(Rules(), grid, MAX)
    outcome = full.outcome()
    assert outcome.winner is None and outcome.termination is Termination.FULL_BOARD
    assert outcome.result_text() == "Draw"


def test_full_board_mode_counts_overlapping_runs():
    grid = np.zeros((6, 7), dtype=np.int8)
    grid[5, 0:5] = MAX  # five in a row: two runs of four
    grid[4, 0:4] = MIN  # four in a row: one run
    assert score(grid, 4) == (2, 1)
    six = np.zeros((6, 7), dtype=np.int8)
    six[5, :6] = MAX
    assert score(six, 4) == (3, 0)
    assert score(six, 3) == (4, 0)


def test_full_board_mode_plays_on_after_a_line_and_scores_at_the_end():
    rules = Rules(rows=4, cols=4, connect=3, mode=Mode.FULL_BOARD)
    board = Board(rules)
    for move in [0, 0, 1, 1, 2, 2]:  # player 1 gets three in a row: play goes on
        board.push(move)
    assert board.outcome() is None
    assert board.score() == (1, 1)
    while not board.is_game_over():
        board.push(board.legal_moves()[0])
    outcome = board.outcome()
    assert board.is_full()
    assert outcome.score == board.score()
    expected = None if outcome.score[0] == outcome.score[1] else (MAX if outcome.score[0] > outcome.score[1] else MIN)
    assert outcome.winner == expected
    assert len(outcome.runs) == sum(outcome.score)


def test_gravity_off_takes_any_empty_cell():
    rules = Rules(rows=4, cols=4, connect=3, gravity=False)
    board = Board(rules)
    board.push(0)  # top-left corner, floating
    assert board.grid[0, 0] == MAX
    with pytest.raises(IllegalMoveError, match="taken"):
        board.push(0)
    assert len(board.legal_moves()) == 15
    assert board.moves_string() == "a4"


@pytest.mark.parametrize("rules", ALL_VARIANTS, ids=variant_id)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), plies=st.integers(0, 40))
def test_move_strings_round_trip(rules, seed, plies):
    import random

    board = random_board(rules, random.Random(seed), plies)
    text = board.moves_string()
    again = Board.from_moves(text, rules)
    assert again.moves == board.moves
    assert np.array_equal(again.grid, board.grid)


def test_notation_for_wide_boards_uses_letters():
    rules = Rules(rows=6, cols=12)
    board = Board.from_moves("abl", rules)
    assert board.moves == [0, 1, 11]
    assert board.moves_string() == "abl"
    with pytest.raises(NotationError):
        parse_moves("9", rules)  # digits are ambiguous past 9 columns
    with pytest.raises(NotationError, match="column 8 does not exist on a 7-column board"):
        parse_moves("8", Rules())
    with pytest.raises(NotationError, match="expected a cell"):
        parse_moves("d1x", Rules(gravity=False))


def test_pop_restores_position_and_outcome():
    board = Board.from_moves("121212")
    before = board.grid.copy()
    board.push(0)
    assert board.is_game_over()
    assert board.pop() == 0
    assert np.array_equal(board.grid, before)
    assert not board.is_game_over()
    assert board.to_move == MAX


def test_match_undo_redo_and_new_move_clears_redo():
    match = Match()
    for move in (3, 3, 2):
        match.play(move)
    assert match.undo() == 2 and match.undo() == 3
    assert match.can_redo()
    assert match.redo() == (4, 3)  # the cell it filled again
    assert match.moves == [3, 3]
    match.play(4)
    assert not match.can_redo()
    with pytest.raises(IndexError):
        match.redo()
    match.restart()
    assert match.moves == [] and not match.can_undo()


def test_board_repr_rebuilds_the_board():
    board = Board.from_moves("4453", Rules(rows=7, cols=8, connect=5))
    rebuilt = eval(repr(board), {"Board": Board, "Rules": Rules, "Mode": Mode})  # noqa: S307
    assert rebuilt.moves == board.moves and rebuilt.rules == board.rules
    assert "X" in str(board) and "O" in str(board)
