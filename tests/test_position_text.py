"""Positions pasted in and copied out, and the review screen's sentences (no pygame)."""

from __future__ import annotations

import pytest

from ai.reviewer import review_board
from game.app.scenes.review_text import detail_lines, header_lines, list_line, turning_points_line
from game.board import Board
from game.position_text import PositionTextError, position_text, read_position
from game.rules import MAX, MIN, Rules

BOARD_TEXT = "0000000\n0000000\n0000000\n0000000\n0000000\n0001200\n1\n"


def test_a_move_string_round_trips():
    board = read_position(" 44, 53 ", Rules())
    assert board.moves == [3, 3, 4, 2]
    assert position_text(board) == "4453"


def test_a_max_connect_4_board_is_read_and_written_back_as_a_board():
    board = read_position(BOARD_TEXT.replace("\n", "\r\n"), Rules())
    assert board.ply == 2 and board.to_move == MAX and board.grid[5, 3] == MAX and board.grid[5, 4] == MIN
    assert position_text(board) == BOARD_TEXT
    board.push(0)
    assert read_position(position_text(board), Rules()).grid.tolist() == board.grid.tolist()


def test_gravity_off_moves_use_cells():
    rules = Rules(rows=4, cols=4, connect=3, gravity=False)
    assert position_text(read_position("a1d4", rules)) == "a1d4"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("hello", "not a move string"),
        ("4444444", "column 4"),
        ("48", "8"),
        ("0000000\n0000000\n1\n", "not a board"),
        ("00000\n00000\n00000\n00000\n00000\n00000\n1\n", "6x5"),
        ("4" * 20000, "too long"),
        ("0000000\n0000000\n1000000\n1000000\n1200000\n1220000\n2\n", "already over"),
    ],
)
def test_bad_pastes_say_why_in_one_line(text, words):
    with pytest.raises(PositionTextError) as caught:
        read_position(text, Rules())
    message = str(caught.value)
    assert words in message and "\n" not in message


def test_review_sentences():
    board = Board.from_moves("4455667")
    review = review_board(board)
    names = {MAX: "you", MIN: "Medium"}
    assert header_lines(None, names, 3, 7) == ["Reviewing the game: 3 of 7 moves"]
    assert "player 1 (you) 75%" in header_lines(review, names, 7, 7)[1]
    assert list_line(review, review.moves[2]) == " 3. P1   5  blunder"
    lines = detail_lines(review, 3, names)
    assert lines[0] == "Move 3: player 1 (you) played column 5: blunder."
    assert lines[1] == "Why: Column 5 turns the win into a loss."  # its refutation (the answer: no simple reason)
    assert lines[2] == "Best was column 4; before the move: player 1 wins in 20 moves with perfect play."
    assert lines[3] == "After it: player 2 wins in 19 moves with perfect play."
    assert lines[4].startswith("A depth-6 search would have played column 4")
    assert detail_lines(review, 0, names) == [
        "The start of the game.",
        "From here: player 1 wins in 21 moves with perfect play.",
    ]
    assert turning_points_line(review) == "Turning points: 3 (P1 blunder), 4 (P2 blunder)"


def test_the_review_says_how_many_turning_points_the_graph_marks():
    """Issue 52: the review named 3 turning points while its graph marked 4."""
    review = review_board(Board.from_moves("363767665174"))
    marked = [m.ply for m in review.moves if not m.move_class.keeps_outcome]
    assert len(marked) == 4 and len(review.turning_points) == 3
    line = turning_points_line(review)
    assert line.startswith("Turning points, the worst 3 of the 4 marked: ")
    assert line.count("(P") == 3


@pytest.mark.parametrize("text", ["４４５３", "٤٤٥٣"])
def test_a_paste_in_other_digits_is_refused_as_the_commands_refuse_it(text):
    """A paste inside a game said "not a move string"; the commands name the columns meant."""
    with pytest.raises(PositionTextError, match="digits other than ASCII: write the columns as 4453"):
        read_position(text, Rules())
