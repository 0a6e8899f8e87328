"""Max-Connect-4 board files: read, check and write.

The classic assignment format: one line per board row, TOP row first, one digit per
cell (``0`` empty, ``1`` player 1, ``2`` player 2), then a line with the player to move
(``1`` or ``2``).  Real files end their lines with LF, CRLF, a bare CR or CR CR LF; all of
them load.  Player 1 is our ``1`` (MAX), player 2 our ``-1`` (MIN).
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np

from game.board import Board
from game.i18n import N_, _
from game.regular_file import read_regular, write_atomically
from game.rules import MAX, MAX_COLS, MAX_ROWS, MIN, MIN_COLS, MIN_ROWS, Rules

MAX_BOARD_FILE_BYTES = 1 << 20
"""A board file is under 1 KB; past 1 MB it is refused unread."""
_LINE_BREAK = re.compile(r"\r*\n|\r")
_DIGIT_TO_SIDE = {"0": 0, "1": MAX, "2": MIN}
_SIDE_TO_DIGIT = {0: "0", MAX: "1", MIN: "2"}


class BoardFileError(ValueError):
    """A board file that is not a legal position; the message names the line."""


# The faults of a board file, named (translated when raised).
FEW_LINES = N_("the file has {count} line(s); expected {value} board lines and a line with the player to move")
ROWS_RANGE = N_("the file has {n_rows} board lines; boards have {MIN_ROWS}..{MAX_ROWS}")
COLS_RANGE = N_("line 1: {count} cells; boards have {MIN_COLS}..{MAX_COLS} columns")
WIDTH = N_("line {number}: {count} cells, expected {width} ({line!r})")
PLAYER_LINE = N_("line {player_number}: the player to move must be 1 or 2, not {player_line!r}")
COUNTS = N_("impossible piece counts: {ones} discs of player 1 and {twos} of player 2 (they can differ by one at most)")
WRONG_MOVER = N_(
    "line {player_number}: player {player_line} cannot be to move with {ones} discs of player 1 and {twos} of player 2"
)


def _fault(message: str, **fields: object) -> BoardFileError:
    """The error saying ``message`` (marked with ``N_``) in the player's language."""
    return BoardFileError(_(message).format(**fields))


def parse_board_text(
    text: str, *, gravity: bool = True, rows: int | None = None, cols: int | None = None
) -> tuple[np.ndarray, int]:
    """Read board-file text into ``(grid, side to move)``.

    The size comes from the file; pass ``rows``/``cols`` to demand a size.

    Raises:
        BoardFileError: naming the line and the fault (width, digit, floating disc,
        piece counts, player line).
    """
    lines = _LINE_BREAK.split(text)
    while lines and not lines[-1].strip():
        lines.pop()
    lines = [line.strip() for line in lines]
    if len(lines) < MIN_ROWS + 1:
        raise _fault(FEW_LINES, count=len(lines), value=rows or 6)
    board_lines, player_line = lines[:-1], lines[-1]
    n_rows = len(board_lines)
    if rows is not None and n_rows != rows:
        raise _fault(N_("the file has {n_rows} board lines; expected {rows}"), n_rows=n_rows, rows=rows)
    if not MIN_ROWS <= n_rows <= MAX_ROWS:
        raise _fault(ROWS_RANGE, n_rows=n_rows, MIN_ROWS=MIN_ROWS, MAX_ROWS=MAX_ROWS)
    width = cols if cols is not None else len(board_lines[0])
    if not MIN_COLS <= width <= MAX_COLS:
        raise _fault(COLS_RANGE, count=len(board_lines[0]), MIN_COLS=MIN_COLS, MAX_COLS=MAX_COLS)
    grid = np.zeros((n_rows, width), dtype=np.int8)
    for row, line in enumerate(board_lines):
        number = row + 1
        if len(line) != width:
            raise _fault(WIDTH, number=number, count=len(line), width=width, line=line)
        for col, char in enumerate(line):
            if char not in _DIGIT_TO_SIDE:
                raise _fault(
                    N_("line {number}, column {col}: {char!r} is not 0, 1 or 2"), number=number, col=col + 1, char=char
                )
            grid[row, col] = _DIGIT_TO_SIDE[char]

    if gravity:
        for col in range(width):
            for row in range(n_rows - 1):
                if grid[row, col] != 0 and grid[row + 1, col] == 0:
                    raise _fault(
                        N_("line {row}, column {col}: a disc floats over an empty cell"), row=row + 1, col=col + 1
                    )

    player_number = n_rows + 1
    if player_line not in ("1", "2"):
        raise _fault(PLAYER_LINE, player_number=player_number, player_line=player_line)
    to_move = MAX if player_line == "1" else MIN
    ones, twos = int((grid == MAX).sum()), int((grid == MIN).sum())
    if abs(ones - twos) > 1:
        raise _fault(COUNTS, ones=ones, twos=twos)
    if ones != twos:
        expected = MIN if ones > twos else MAX
        if to_move != expected:
            raise _fault(WRONG_MOVER, player_number=player_number, player_line=player_line, ones=ones, twos=twos)
    return grid, to_move


def format_board_text(grid: np.ndarray, to_move: int) -> str:
    """Write ``(grid, side to move)`` in the board-file format (LF line ends)."""
    lines = ["".join(_SIDE_TO_DIGIT[int(v)] for v in row) for row in grid]
    lines.append("1" if to_move == MAX else "2")
    return "\n".join(lines) + "\n"


def load_board(path: str | Path, rules: Rules, *, strict_size: bool = False) -> Board:
    """Read a board file into a Board; its size replaces the size in ``rules``.

    With ``strict_size`` the file must have exactly ``rules.rows`` x ``rules.cols``.

    Raises:
        BoardFileError: the file cannot be read or is not a legal position.
    """
    try:
        text = read_regular(path, MAX_BOARD_FILE_BYTES).decode("ascii")
    except OSError as error:
        raise BoardFileError(
            _("cannot read {path}: {value}").format(path=path, value=error.strerror or error)
        ) from error
    except UnicodeDecodeError as error:
        raise BoardFileError(_("{path} is not a text board file").format(path=path)) from error
    size = {"rows": rules.rows, "cols": rules.cols} if strict_size else {}
    try:
        grid, to_move = parse_board_text(text, gravity=rules.gravity, **size)
        file_rules = replace(rules, rows=grid.shape[0], cols=grid.shape[1])
    except BoardFileError as error:
        raise BoardFileError(f"{path}: {error}") from None
    except ValueError as error:  # the size cannot hold the line length asked for
        raise BoardFileError(f"{path}: {error}") from None
    return Board(file_rules, grid, to_move)


def save_board(path: str | Path, board: Board) -> None:
    """Write the board's current position to ``path``."""
    try:
        write_atomically(path, format_board_text(board.grid, board.to_move).encode("ascii"))
    except OSError as error:
        raise BoardFileError(
            _("cannot write {path}: {value}").format(path=path, value=error.strerror or error)
        ) from error
