"""Positions as text, in and out: a move string or a Max-Connect-4 board, as pasted.

``read_position`` takes what a person pastes (Ctrl+V in the window): a move string such
as ``4453`` (1-based columns from the empty board; ``d1d2`` without gravity) or the
text of a Max-Connect-4 board file (rows of digits, top row first, then the player to
move).  ``position_text`` writes the move string back (Ctrl+C).
"""

from __future__ import annotations

import re

from game.board import Board, IllegalMoveError
from game.board_file import BoardFileError, format_board_text, parse_board_text
from game.i18n import _
from game.notation import NotationError
from game.rules import MAX, Rules
from game.sources import SourceError, other_digits

MAX_PASTE = 10_000
"""Characters read from a paste at most: a position is a few dozen."""


class PositionTextError(ValueError):
    """Pasted text that is neither a move string nor a board of these rules."""


def read_position(text: str, rules: Rules) -> Board:
    """The position ``text`` describes under ``rules`` (its size, for a board file).

    Raises:
        PositionTextError: one line saying why the text was not taken.
    """
    text = text.strip()
    if not text:
        raise PositionTextError(_("the clipboard is empty"))
    if len(text) > MAX_PASTE:
        raise PositionTextError(_("the text is too long for a position ({count:,} characters)").format(count=len(text)))
    if "\n" in text or "\r" in text:
        try:
            grid, to_move = parse_board_text(text, gravity=rules.gravity)
        except BoardFileError as error:
            raise PositionTextError(_("not a board: {error}").format(error=error)) from None
        if grid.shape != (rules.rows, rules.cols):
            raise PositionTextError(
                _("the board is {shape}x{shape2}, the game is {rows}x{cols}: change the size in Options").format(
                    shape=grid.shape[0], shape2=grid.shape[1], rows=rules.rows, cols=rules.cols
                )
            )
        board = Board(rules, grid, to_move)
        if board.is_game_over():
            raise PositionTextError(_("the game on that board is already over"))
        return board
    shown = text if len(text) <= 30 else text[:27] + "..."
    try:
        other_digits(text)  # "４４５３" is refused in the words every command uses
    except SourceError as error:
        raise PositionTextError(str(error)) from None
    if not re.fullmatch(r"[0-9a-lA-L\s,]*", text):
        raise PositionTextError(_("{shown!r} is not a move string (such as 4453) or a board").format(shown=shown))
    try:
        return Board.from_moves(text, rules)
    except NotationError as error:
        raise PositionTextError(f"{shown!r}: {error}") from None
    except IllegalMoveError as error:
        raise PositionTextError(f"{shown!r}: {error}") from None


def position_text(board: Board) -> str:
    """The move string of ``board`` from its start (what Ctrl+C copies).

    A board set up from a pasted board file has no moves from the empty board: it is
    written as a board file then (rows of digits, then the player to move).
    """
    start = board.start_grid()
    if not start.any() and board.start_to_move() == MAX:
        return board.moves_string()
    return format_board_text(board.grid, board.to_move)
