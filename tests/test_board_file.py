"""Max-Connect-4 board files: the real shared files load; bad files are refused by line."""

from __future__ import annotations

import numpy as np
import pytest

from game.board_file import BoardFileError, format_board_text, load_board, parse_board_text, save_board
from game.rules import MAX, MIN, Mode, Rules

FILES = ["empty_lf.txt", "empty_crlf.txt", "midgame_lf.txt", "midgame_cr.txt"]


@pytest.mark.parametrize("name", FILES)
def test_every_shared_file_loads_and_round_trips(data_dir, tmp_path, name):
    path = data_dir / "maxconnect4" / name
    board = load_board(path, Rules(mode=Mode.FULL_BOARD))
    assert board.grid.shape == (6, 7)
    grid, to_move = parse_board_text(path.read_bytes().decode())
    assert np.array_equal(grid, board.grid) and to_move == board.to_move
    out = tmp_path / "out.txt"
    save_board(out, board)
    again = load_board(out, Rules(mode=Mode.FULL_BOARD))
    assert np.array_equal(again.grid, board.grid) and again.to_move == board.to_move
    # The written file is the canonical LF form of the same digits.
    digits = [line.strip() for line in path.read_bytes().decode().replace("\r", "\n").split("\n") if line.strip()]
    assert out.read_text().split() == digits


def test_midgame_files_hold_the_expected_position(data_dir):
    board = load_board(data_dir / "maxconnect4" / "midgame_cr.txt", Rules(mode=Mode.FULL_BOARD))
    assert board.to_move == MIN
    assert list(board.grid[5]) == [MAX, MIN, MIN, MIN, MIN, 0, 0]
    assert board.score() == (2, 1)


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r", "\r\r\n"])
def test_all_line_endings_load(ending):
    text = ending.join(["0000000"] * 5 + ["1200000", "1"]) + ending
    grid, to_move = parse_board_text(text)
    assert grid[5, 0] == MAX and grid[5, 1] == MIN and to_move == MAX


def test_other_sizes_use_the_same_layout(tmp_path):
    text = "00000\n00000\n00000\n12000\n1\n"
    grid, to_move = parse_board_text(text)
    assert grid.shape == (4, 5)
    path = tmp_path / "small.txt"
    path.write_text(text)
    board = load_board(path, Rules(connect=3))
    assert board.rules.rows == 4 and board.rules.cols == 5 and board.rules.connect == 3
    assert format_board_text(board.grid, board.to_move) == text


@pytest.mark.parametrize(
    "text, message",
    [
        ("0000000\n" * 5 + "000000\n1\n", r"line 6: 6 cells, expected 7"),
        ("0000000\n" * 5 + "0003000\n1\n", r"line 6, column 4: '3' is not 0, 1 or 2"),
        ("0000000\n" * 4 + "0100000\n0000000\n2\n", r"line 5, column 2: a disc floats"),
        ("0000000\n" * 5 + "1110000\n2\n", r"impossible piece counts: 3 discs of player 1 and 0"),
        ("0000000\n" * 5 + "1100000\n1\n", r"impossible piece counts"),
        ("0000000\n" * 5 + "1200000\n3\n", r"line 7: the player to move must be 1 or 2"),
        ("0000000\n" * 5 + "1000000\n1\n", r"line 7: player 1 cannot be to move"),
        ("0000000\n0000000\n1\n", r"2 board lines|line"),
    ],
)
def test_bad_files_are_refused_naming_line_and_fault(text, message):
    with pytest.raises(BoardFileError, match=message):
        parse_board_text(text)


def test_size_can_be_demanded():
    with pytest.raises(BoardFileError, match="expected 7"):
        parse_board_text("00000000\n" * 6 + "1\n", cols=7)
    with pytest.raises(BoardFileError, match="expected 6"):
        parse_board_text("0000000\n" * 7 + "1\n", rows=6)


def test_gravity_off_allows_floating_discs():
    text = "0000000\n" * 4 + "0100000\n0000000\n2\n"
    grid, _ = parse_board_text(text, gravity=False)
    assert grid[4, 1] == MAX


def test_unreadable_and_binary_files_give_a_clear_error(tmp_path):
    with pytest.raises(BoardFileError, match="cannot read"):
        load_board(tmp_path / "missing.txt", Rules())
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00\x01")
    with pytest.raises(BoardFileError, match="not a text board file"):
        load_board(binary, Rules())
