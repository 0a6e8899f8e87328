"""The standard board as the explainer reads it: squares, lines of four, threats, parity.

Positions are ``ai.bitboard`` bitboards of the standard board (Python ints, bit
``col * 7 + r`` is the cell ``r`` rows above the bottom; a seventh, always empty bit on top
of each column).  A position is ``(own, mask)``: the discs of the side whose view is taken
and all discs.  This module only reads positions; the solver keeps its own helpers.
"""

from __future__ import annotations

import numpy as np

from ai.bitboard import geometry
from ai.explain.explanation import Square, Threat
from game.rules import MAX, MIN, STANDARD

GEO = geometry(STANDARD)
HEIGHT = GEO.height  # bits a column: 6 rows + the empty bit on top
ROWS, COLS = STANDARD.rows, STANDARD.cols
BOARD = GEO.board_mask
BOTTOM = GEO.bottom_mask
FULL_COLUMN = (1 << ROWS) - 1


def column_mask(col: int) -> int:
    """Every cell of column ``col``."""
    return FULL_COLUMN << (col * HEIGHT)


ODD_ROWS = sum(1 << (col * HEIGHT + r) for col in range(COLS) for r in (0, 2, 4))
"""The cells of rows 1, 3 and 5 (counted from the bottom): the odd squares."""


def bit_of(square: Square) -> int:
    return 1 << (square.col * HEIGHT + square.row - 1)


def square_of(bit: int) -> Square:
    """The square of a one-bit bitboard."""
    index = bit.bit_length() - 1
    return Square(index // HEIGHT, index % HEIGHT + 1)


def squares_of(bits: int) -> tuple[Square, ...]:
    """The squares of a bitboard, column by column, bottom up."""
    found = []
    while bits:
        low = bits & -bits
        found.append(square_of(low))
        bits ^= low
    return tuple(found)


def bits_of(squares: tuple[Square, ...] | list[Square]) -> int:
    result = 0
    for square in squares:
        result |= bit_of(square)
    return result


def playable(mask: int) -> int:
    """The lowest empty cell of every column that has one."""
    return (mask + BOTTOM) & BOARD


def column_of(bit: int) -> int:
    return (bit.bit_length() - 1) // HEIGHT


def drop(mask: int, col: int) -> int:
    """The cell a disc dropped in ``col`` fills (0: the column is full)."""
    return playable(mask) & column_mask(col)


def threats(own: int, mask: int) -> int:
    """The empty cells that would complete a line of four of ``own``'s discs."""
    return GEO.threats(own, BOARD ^ mask)


def wins_now(own: int, mask: int) -> int:
    """The cells where ``own`` (to move) completes a line with its next disc."""
    return GEO.threats(own, playable(mask))


def has_line(discs: int) -> bool:
    return bool(GEO.line_starts(discs))


def _lines() -> tuple[int, ...]:
    found = []
    for step in GEO.directions:
        for col in range(COLS):
            for r in range(ROWS):
                cells = [col * HEIGHT + r + i * step for i in range(4)]
                # a line stays on the board: no cell on a column's empty top bit, none past the edge
                if all(0 <= c < COLS * HEIGHT and c % HEIGHT < ROWS for c in cells):
                    cols = [c // HEIGHT for c in cells]
                    rows = [c % HEIGHT for c in cells]
                    if max(cols) - min(cols) in (0, 3) and max(rows) - min(rows) in (0, 3):
                        found.append(sum(1 << c for c in cells))
    return tuple(sorted(set(found)))


LINES = _lines()
"""Every line of four cells on the standard board (69), as bitboards."""


def open_lines(own: int, mask: int) -> tuple[int, ...]:
    """The lines ``own`` can still complete: none of the other side's discs on them."""
    other = own ^ mask
    return tuple(line for line in LINES if not line & other)


def threat_list(first: int, mask: int) -> tuple[Threat, ...]:
    """Both sides' threats (player 1's first), given player 1's discs and all discs."""
    found = [Threat(MAX, square) for square in squares_of(threats(first, mask))]
    found += [Threat(MIN, square) for square in squares_of(threats(first ^ mask, mask))]
    return tuple(found)


def grid_threats(grid: np.ndarray) -> tuple[Threat, ...]:
    """Both sides' threats on a grid of the standard board (row 0 at the top), player 1's
    first: what a screen marks on a position it shows, with no solver."""
    first, second = GEO.from_grid(np.asarray(grid))
    return threat_list(first, first | second)


def empty_in_column(mask: int, col: int) -> list[int]:
    """The empty cells of ``col``, bottom up, as one-bit bitboards."""
    return [1 << (col * HEIGHT + r) for r in range(ROWS) if not mask & (1 << (col * HEIGHT + r))]
