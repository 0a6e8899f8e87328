"""The rule set of a game: board size, line length, gravity and scoring mode.

Everything here is plain Python and numpy so the CLI, the AI and the tests can use it
without a window.  The grid convention (``docs/board-and-notation.md``): a numpy ``int8``
array of shape ``(rows, cols)``, row 0 at the top, ``1`` = the first player / MAX, ``-1`` =
the second player / MIN, ``0`` = empty.
"""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

import numpy as np

from game.i18n import _

MAX = 1
"""The first player (the human side by default): the maximizing side."""
MIN = -1
"""The second player (the computer by default): the minimizing side."""
EMPTY = 0

MIN_ROWS, MAX_ROWS = 4, 10
MIN_COLS, MAX_COLS = 4, 12
MIN_CONNECT, MAX_CONNECT = 3, 6
MIN_DEPTH, MAX_DEPTH = 1, 12
"""The search depths a level may have: the AI's levels offer them, a stored game's record is
checked against them."""

Cell = tuple[int, int]
"""A ``(row, col)`` position, row 0 at the top."""
Run = tuple[Cell, ...]
"""``connect`` cells in a straight line."""

# (d_row, d_col) for the four line directions: right, down, down-right, up-right.
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, 1), (-1, 1))


class Mode(enum.Enum):
    """How a game ends and who wins."""

    CLASSIC = "classic"
    """The first line of ``connect`` own discs wins; a full board without one is a draw."""
    FULL_BOARD = "full-board"
    """Max-Connect-4: play until the board is full; every run of ``connect`` scores."""

    def __repr__(self) -> str:  # so that repr(Rules(...)) rebuilds the object
        return f"Mode.{self.name}"


class RulesError(ValueError):
    """A rule set that cannot be played (size, connect or mode out of range)."""


@dataclass(frozen=True)
class Rules:
    """One variant of the game.  ``Rules()`` is standard Connect Four."""

    rows: int = 6
    cols: int = 7
    connect: int = 4
    gravity: bool = True
    mode: Mode = Mode.CLASSIC

    def __post_init__(self) -> None:
        if not MIN_ROWS <= self.rows <= MAX_ROWS:
            raise RulesError(f"rows must be {MIN_ROWS}..{MAX_ROWS}, not {self.rows}")
        if not MIN_COLS <= self.cols <= MAX_COLS:
            raise RulesError(f"cols must be {MIN_COLS}..{MAX_COLS}, not {self.cols}")
        if not MIN_CONNECT <= self.connect <= MAX_CONNECT:
            raise RulesError(f"connect must be {MIN_CONNECT}..{MAX_CONNECT}, not {self.connect}")
        if self.connect > max(self.rows, self.cols):
            raise RulesError(f"connect {self.connect} does not fit a {self.rows}x{self.cols} board")
        if not isinstance(self.mode, Mode):
            raise RulesError(f"unknown mode {self.mode!r}")

    @property
    def cells(self) -> int:
        """How many cells the board has (the most moves a game can last)."""
        return self.rows * self.cols

    @property
    def move_count(self) -> int:
        """How many different moves there are: columns under gravity, else cells."""
        return self.cols if self.gravity else self.cells

    def describe(self) -> str:
        """Say the variant in a few words, for menus and the CLI."""
        parts = [f"{self.rows}x{self.cols}", f"connect {self.connect}"]
        if not self.gravity:
            parts.append("no gravity")
        if self.mode is Mode.FULL_BOARD:
            parts.append("full board")
        return ", ".join(parts)

    def said(self) -> str:
        """``describe`` in the player's language, for the window and the CLI's messages
        (``describe`` itself is the game files' words and stays English)."""
        parts = [f"{self.rows}x{self.cols}", _("connect {count}").format(count=self.connect)]
        if not self.gravity:
            parts.append(_("no gravity"))
        if self.mode is Mode.FULL_BOARD:
            parts.append(_("full board"))
        return ", ".join(parts)

    def empty_grid(self) -> np.ndarray:
        """Return an empty board grid of this size."""
        return np.zeros((self.rows, self.cols), dtype=np.int8)


STANDARD = Rules()


def other(side: int) -> int:
    """Return the opponent of ``side`` (1 <-> -1)."""
    return -side


@functools.lru_cache(maxsize=64)
def all_runs(rows: int, cols: int, connect: int) -> tuple[Run, ...]:
    """Every straight line of ``connect`` cells on a ``rows`` x ``cols`` board."""
    runs: list[Run] = []
    for d_row, d_col in DIRECTIONS:
        for row in range(rows):
            for col in range(cols):
                end_row = row + d_row * (connect - 1)
                end_col = col + d_col * (connect - 1)
                if 0 <= end_row < rows and 0 <= end_col < cols:
                    runs.append(tuple((row + d_row * i, col + d_col * i) for i in range(connect)))
    return tuple(runs)


@functools.lru_cache(maxsize=64)
def _run_index(rows: int, cols: int, connect: int) -> tuple[np.ndarray, np.ndarray]:
    """Flat cell indices of every run, shape ``(n_runs, connect)``, and runs per cell."""
    runs = all_runs(rows, cols, connect)
    flat = np.array([[r * cols + c for r, c in run] for run in runs], dtype=np.intp)
    through: list[list[int]] = [[] for _ in range(rows * cols)]
    for index, run in enumerate(runs):
        for r, c in run:
            through[r * cols + c].append(index)
    per_cell = np.empty(rows * cols, dtype=object)
    for i, indices in enumerate(through):
        per_cell[i] = np.array(indices, dtype=np.intp)
    return flat, per_cell


def runs_of(grid: np.ndarray, side: int, connect: int) -> list[Run]:
    """Return every run of ``connect`` cells that all hold ``side`` (overlaps included)."""
    rows, cols = grid.shape
    flat, _ = _run_index(rows, cols, connect)
    runs = all_runs(rows, cols, connect)
    full = np.all(grid.reshape(-1)[flat] == side, axis=1)
    return [runs[i] for i in np.flatnonzero(full)]


def runs_through(grid: np.ndarray, cell: Cell, connect: int) -> list[Run]:
    """Return the runs of ``connect`` equal discs that pass through ``cell``."""
    rows, cols = grid.shape
    side = int(grid[cell])
    if side == EMPTY:
        return []
    flat, per_cell = _run_index(rows, cols, connect)
    candidates = per_cell[cell[0] * cols + cell[1]]
    runs = all_runs(rows, cols, connect)
    full = np.all(grid.reshape(-1)[flat[candidates]] == side, axis=1)
    return [runs[i] for i in candidates[full]]


def score(grid: np.ndarray, connect: int) -> tuple[int, int]:
    """Return the FULL_BOARD points ``(first player, second player)`` of a grid."""
    return len(runs_of(grid, MAX, connect)), len(runs_of(grid, MIN, connect))
