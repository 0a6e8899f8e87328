"""Move strings that people type and read, and that round-trip.

- Gravity on, up to 9 columns: one 1-based digit per move, ``"4453"`` (the notation of
  the public Connect Four solver benchmarks).
- Gravity on, wider boards: one column letter per move, ``"ddec"`` (``a`` = column 1).
  Letters are accepted on narrow boards too.
- Gravity off: a column letter and a 1-based row counted from the bottom per move,
  ``"d1d2e1"`` (as on a chess board).

Spaces and commas between moves are ignored.  Digits are ASCII: a digit of another width
or script (full-width ``４``, Arabic-Indic ``٤``, ``²``) is refused with the move string
meant in ASCII (``ascii_digits``), never read as something else.
"""

from __future__ import annotations

import re
import unicodedata

from game.rules import Cell, Rules

_CELL_TOKEN = re.compile(r"([a-l])(\d{1,2})")


class NotationError(ValueError):
    """A move string that cannot be read under the given rules."""


def column_letter(col: int) -> str:
    """Return the letter of a 0-based column: 0 -> ``a``."""
    return chr(ord("a") + col)


def format_cell(cell: Cell, rules: Rules) -> str:
    """Return a cell as ``d1`` (column letter, row counted 1-based from the bottom)."""
    row, col = cell
    return f"{column_letter(col)}{rules.rows - row}"


def format_move(move: int, rules: Rules) -> str:
    """Return one move as a person reads it."""
    if rules.gravity:
        return str(move + 1) if rules.cols <= 9 else column_letter(move)
    return format_cell(divmod(move, rules.cols), rules)


def format_moves(moves: list[int], rules: Rules) -> str:
    """Return a move list as one string that ``parse_moves`` reads back."""
    return "".join(format_move(m, rules) for m in moves)


def ascii_digits(text: str) -> str:
    """``text`` with each digit of another width or script (full-width ``４``, Arabic-Indic
    ``٤``) written as its ASCII digit: the move string a person meant."""
    return "".join(
        str(unicodedata.digit(char)) if not char.isascii() and unicodedata.digit(char, None) is not None else char
        for char in text
    )


def parse_moves(text: str, rules: Rules) -> list[int]:
    """Read a move string into move ids (see the module docstring).

    Raises:
        NotationError: a character or token that is not a move of these rules.  Whether
        the moves are legal is the board's business, not this function's.
    """
    text = re.sub(r"[\s,]+", "", text).lower()
    for position, char in enumerate(text, start=1):
        if not char.isascii() and unicodedata.digit(char, None) is not None:  # not '²', '③' or '４'
            raise NotationError(
                f"character {position} {char!r} is not a column: write the moves in ASCII digits, "
                f"as {ascii_digits(text)}"
            )
    if rules.gravity:
        moves = []
        for position, char in enumerate(text, start=1):
            if char.isascii() and char.isdigit() and rules.cols <= 9:
                col = int(char) - 1
            elif "a" <= char <= "l":
                col = ord(char) - ord("a")
            else:
                names = f"1..{rules.cols}" if rules.cols <= 9 else f"the letters a..{chr(ord('a') + rules.cols - 1)}"
                raise NotationError(f"character {position} {char!r} is not a column (columns are {names})")
            if not 0 <= col < rules.cols:
                name = char if char.isdigit() else f"{char} ({col + 1})"
                raise NotationError(
                    f"character {position} {char!r}: column {name} does not exist on a {rules.cols}-column board "
                    f"(columns are 1..{rules.cols})"
                )
            moves.append(col)
        return moves
    moves = []
    position = 0
    while position < len(text):
        match = _CELL_TOKEN.match(text, position)
        if not match:
            raise NotationError(f"character {position + 1} {text[position]!r}: expected a cell such as d1")
        col = ord(match.group(1)) - ord("a")
        row_from_bottom = int(match.group(2))
        if not (0 <= col < rules.cols and 1 <= row_from_bottom <= rules.rows):
            raise NotationError(f"cell {match.group(0)} is off the {rules.rows}x{rules.cols} board")
        moves.append((rules.rows - row_from_bottom) * rules.cols + col)
        position = match.end()
    return moves


def parse_move(text: str, rules: Rules) -> int:
    """Read exactly one move."""
    moves = parse_moves(text, rules)
    if len(moves) != 1:
        raise NotationError(f"expected one move, got {text!r}")
    return moves[0]
