"""A position and its move history: push, pop, legal moves, outcome.

A move is an ``int``: the 0-based column when gravity is on, the cell index
``row * cols + col`` when it is off.  People read and type moves 1-based (see
``game.notation``).
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field

import numpy as np

from game.i18n import N_, _
from game.notation import format_cell, format_moves, parse_moves
from game.rules import EMPTY, MAX, MIN, STANDARD, Cell, Mode, Rules, Run, runs_of, runs_through, score

TEXT_MARKS = {EMPTY: ".", MAX: "O", MIN: "X"}
"""Marks in text: ``O`` for player 1 (the ring on the window's discs), ``X`` for player 2 (the cross)."""
TEXT_LEGEND = N_("O = player 1 (moves first, MAX), X = player 2 (MIN)")  # translated where printed


class IllegalMoveError(ValueError):
    """A move that is not legal in the position it was tried in."""


class Termination(enum.Enum):
    """Why a game ended."""

    LINE = "line"
    """CLASSIC: a player completed a line."""
    FULL_BOARD = "full board"
    """The board filled up (a CLASSIC draw, or the FULL_BOARD count)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended.

    ``winner`` is 1, -1, or None for a draw.  ``runs`` are the cells to light up: the
    winning line(s) in CLASSIC, every scoring run of both sides in FULL_BOARD.
    ``score`` is the FULL_BOARD points ``(first, second)``; (0, 0) in CLASSIC.
    """

    winner: int | None
    termination: Termination
    runs: tuple[Run, ...] = ()
    score: tuple[int, int] = (0, 0)

    def result_text(self, names: dict[int, str] | None = None) -> str:
        """Say the result for a person: "Player 1 wins 5-3", "Draw"."""
        names = names or {MAX: _("Player 1"), MIN: _("Player 2")}
        scored = self.termination is Termination.FULL_BOARD and self.score != (0, 0)
        if self.winner is None:
            said = _("Draw {score}") if scored else _("Draw")
        elif names[self.winner] in ("You", _("You")):
            said = _("You win {score}") if scored else _("You win")
        else:
            said = _("{name} wins {score}") if scored else _("{name} wins")
        name = names[self.winner] if self.winner is not None else ""
        return said.format(name=name, score=f"{self.score[0]}-{self.score[1]}")


@dataclass
class Board:
    """A position under some rules, with the moves that led to it from ``start``."""

    rules: Rules = STANDARD
    grid: np.ndarray = field(default=None)  # type: ignore[arg-type]  # None: an empty board
    to_move: int = MAX
    moves: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.grid is None:
            self.grid = self.rules.empty_grid()
        else:
            self.grid = np.array(self.grid, dtype=np.int8, copy=True)
        if self.grid.shape != (self.rules.rows, self.rules.cols):
            raise ValueError(f"grid shape {self.grid.shape} does not match {self.rules.describe()}")
        self._cells: list[Cell] = []  # where each pushed move landed
        self._outcome: Outcome | None = None
        self._outcome_known = False
        replay, self.moves = list(self.moves), []
        for move in replay:
            self.push(move)

    # -- construction ---------------------------------------------------------------
    @classmethod
    def from_moves(cls, moves: str, rules: Rules = STANDARD) -> Board:
        """Play a move string such as ``"4453"`` from the empty board."""
        board = cls(rules)
        for move in parse_moves(moves, rules):
            board.push(move)
        return board

    def moves_string(self) -> str:
        """Return the moves played since the start, in the notation ``from_moves`` reads."""
        return format_moves(self.moves, self.rules)

    def copy(self) -> Board:
        """Return an independent copy with the same history."""
        twin = Board(self.rules, self.start_grid(), self.start_to_move())
        for move in self.moves:
            twin.push(move)
        return twin

    def start_grid(self) -> np.ndarray:
        """Return the position before the first move of the history."""
        grid: np.ndarray = self.grid.copy()
        for row, col in self._cells:
            grid[row, col] = EMPTY
        return grid

    def start_to_move(self) -> int:
        """Return who was to move at the start of the history."""
        return self.to_move if len(self.moves) % 2 == 0 else -self.to_move

    # -- moves ----------------------------------------------------------------------
    def cell_of(self, move: int) -> Cell | None:
        """Return the cell ``move`` would fill now, or None if it is not playable."""
        rules = self.rules
        if rules.gravity:
            if not 0 <= move < rules.cols:
                return None
            empty_rows = np.flatnonzero(self.grid[:, move] == EMPTY)
            return (int(empty_rows[-1]), move) if empty_rows.size else None
        if not 0 <= move < rules.cells:
            return None
        row, col = divmod(move, rules.cols)
        return (row, col) if self.grid[row, col] == EMPTY else None

    def move_at(self, cell: Cell) -> int:
        """Return the move id that targets ``cell`` (its column under gravity)."""
        return cell[1] if self.rules.gravity else cell[0] * self.rules.cols + cell[1]

    def legal_moves(self) -> list[int]:
        """Return the playable moves in increasing order; none once the game is over."""
        if self.is_game_over():
            return []
        if self.rules.gravity:
            return [int(c) for c in np.flatnonzero(self.grid[0] == EMPTY)]
        return [int(i) for i in np.flatnonzero(self.grid.reshape(-1) == EMPTY)]

    def is_legal(self, move: int) -> bool:
        """Tell whether ``move`` can be played now."""
        return not self.is_game_over() and self.cell_of(move) is not None

    def push(self, move: int) -> Cell:
        """Play ``move`` for the side to move and return the cell it filled.

        Raises:
            IllegalMoveError: the game is over, or the column is full / the cell taken
            / the move is off the board.
        """
        cell = None if self.is_game_over() else self.cell_of(move)
        if cell is None:
            raise IllegalMoveError(self.why_illegal(move))
        self.grid[cell] = self.to_move
        self.to_move = -self.to_move
        self.moves.append(move)
        self._cells.append(cell)
        self._outcome_known = False
        return cell

    def why_illegal(self, move: int, *, zero_based: bool = False) -> str:
        """Say why ``move`` cannot be played: for people (1-based columns, cells such as
        ``d3``), or for a protocol that numbers from 0 (``zero_based``)."""
        rules = self.rules
        if self.is_game_over():
            return "the game is already over (a line is complete or the board full)"
        base = 0 if zero_based else 1
        if rules.gravity:
            if not 0 <= move < rules.cols:
                return f"column {move + base} is off the board ({base}..{rules.cols - 1 + base})"
            return f"column {move + base} is full"
        if not 0 <= move < rules.cells:
            return f"cell {move} is off the board" + (f" (0..{rules.cells - 1})" if zero_based else "")
        if zero_based:
            return f"cell {move} (row {move // rules.cols} from the top, column {move % rules.cols}) is taken"
        return f"cell {format_cell(divmod(move, rules.cols), rules)} is taken"

    def push_random(self, rng: random.Random, plies: int) -> None:
        """Play up to ``plies`` legal moves drawn with ``rng``, fewer where the game ends."""
        end = self.ply + plies
        while self.ply < end and not self.is_game_over():
            self.push(rng.choice(self.legal_moves()))

    def pop(self) -> int:
        """Take back the last move and return it."""
        if not self.moves:
            raise IndexError("no move to take back")
        move = self.moves.pop()
        cell = self._cells.pop()
        self.grid[cell] = EMPTY
        self.to_move = -self.to_move
        self._outcome_known = False
        return move

    def peek(self) -> int | None:
        """Return the last move played, or None."""
        return self.moves[-1] if self.moves else None

    def last_cell(self) -> Cell | None:
        """Return the cell filled by the last move, or None."""
        return self._cells[-1] if self._cells else None

    @property
    def ply(self) -> int:
        """How many discs are on the board."""
        return int(np.count_nonzero(self.grid))

    def is_full(self) -> bool:
        """Tell whether no empty cell is left."""
        return not (self.grid == EMPTY).any()

    # -- outcome --------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """Return how the game ended, or None while it goes on."""
        if not self._outcome_known:
            self._outcome = self._compute_outcome()
            self._outcome_known = True
        return self._outcome

    def is_game_over(self) -> bool:
        """Tell whether the game has ended."""
        return self.outcome() is not None

    def _compute_outcome(self) -> Outcome | None:
        rules = self.rules
        k = rules.connect
        if rules.mode is Mode.FULL_BOARD:
            if not self.is_full():
                return None
            first, second = runs_of(self.grid, MAX, k), runs_of(self.grid, MIN, k)
            points = (len(first), len(second))
            winner = None if points[0] == points[1] else (MAX if points[0] > points[1] else MIN)
            return Outcome(winner, Termination.FULL_BOARD, tuple(first + second), points)
        last = self.last_cell()
        if last is not None:
            lines = runs_through(self.grid, last, k)
            if lines:
                return Outcome(int(self.grid[last]), Termination.LINE, tuple(lines))
        elif self.ply:  # a position loaded without history: look everywhere
            for side in (MAX, MIN):
                lines = runs_of(self.grid, side, k)
                if lines:
                    return Outcome(side, Termination.LINE, tuple(lines))
        if self.is_full():
            return Outcome(None, Termination.FULL_BOARD)
        return None

    def score(self) -> tuple[int, int]:
        """Return the points ``(first, second)`` scored so far under FULL_BOARD counting."""
        return score(self.grid, self.rules.connect)

    # -- text -----------------------------------------------------------------------
    def __str__(self) -> str:
        """The board in text, top row first, with the column names under it (see ``TEXT_MARKS``)."""
        lines = [" ".join(TEXT_MARKS[int(v)] for v in row) for row in self.grid]
        if self.rules.cols <= 9:
            lines.append(" ".join(str(c + 1) for c in range(self.rules.cols)))
        else:
            lines.append(" ".join(chr(ord("a") + c) for c in range(self.rules.cols)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"Board.from_moves({self.moves_string()!r}, {self.rules!r})"
