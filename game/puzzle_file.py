"""Puzzles on the standard board: the puzzle type and the text file that holds a set.

A puzzle is a position reached from the empty board (``moves``), a goal for the side to
move (win, or save the draw where every other column loses) and its line: the player's
move, the opponent's strongest reply, the player's next move, ... up to the player's last
step, after which the goal is plain.  At every one of the player's steps exactly one
column reaches the goal; ``ai.puzzles`` checks that with the exact solver.

The file (``game/data/puzzles.txt``, made by ``python -m lab.puzzle_maker``) has one
puzzle a line, fields split by single spaces, ``#`` lines are comments::

    ID MOVES GOAL LINE RATING SOURCE THEMES
    b1c2d3e4 444435353522 win 3632 1507 book double_threat,long_combination

``MOVES`` and ``LINE`` are 1-based columns (``game.notation``); ``GOAL`` is ``win`` or
``draw``; ``RATING`` is on the levels' scale (``ai.ladder``); ``SOURCE`` says where the
position came from (``self-play``, ``book``, ``game``); ``THEMES`` are the puzzle's themes
(``Theme``'s values, split by commas; ``ai.puzzle_themes`` decides them).  A line of an
older set has no ``THEMES`` field: it loads with no themes.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game.board import Board, IllegalMoveError
from game.i18n import N_
from game.notation import NotationError, format_moves, parse_moves
from game.regular_file import read_regular, write_atomically
from game.rules import STANDARD

SHIPPED_FILE = Path(__file__).resolve().parent / "data" / "puzzles.txt"
MAX_PUZZLE_FILE_BYTES = 16 * 1024 * 1024
"""A puzzle file of the shipped kind is tens of kilobytes; past 16 MB it is refused unread."""
"""The puzzle set the game ships."""
MAX_LINE_STEPS = 8
"""The most player steps a puzzle's line may have (a longer one is not a puzzle anyone reads)."""
SOURCES = ("self-play", "book", "game")


class Theme(str, enum.Enum):
    """What a puzzle is about, decided from the explainer's proved reasons by
    ``ai.puzzle_themes.classify`` (docs/puzzles.md says how each is decided)."""

    WIN_NOW = "win_now"
    FORCED_WIN = "forced_win"
    DOUBLE_THREAT = "double_threat"
    ONLY_MOVE = "only_move"
    ODD_THREAT = "odd_threat"
    EVEN_THREAT = "even_threat"
    ZUGZWANG = "zugzwang"
    FOLLOW_UP = "follow_up"
    SAVE_THE_DRAW = "save_the_draw"
    LONG_COMBINATION = "long_combination"

    @property
    def label(self) -> str:
        """The theme's name, in English (``_(theme.label)`` where a person reads it)."""
        return THEME_LABELS[self]

    @property
    def meaning(self) -> str:
        """One sentence on what the theme means, in English (translate where shown)."""
        return THEME_MEANINGS[self]


THEME_LABELS = {
    Theme.WIN_NOW: N_("Win now"),
    Theme.FORCED_WIN: N_("Forced win"),
    Theme.DOUBLE_THREAT: N_("Double threat"),
    Theme.ONLY_MOVE: N_("Only move"),
    Theme.ODD_THREAT: N_("Odd threat"),
    Theme.EVEN_THREAT: N_("Even threat"),
    Theme.ZUGZWANG: N_("Zugzwang"),
    Theme.FOLLOW_UP: N_("Follow-up strategy"),
    Theme.SAVE_THE_DRAW: N_("Save the draw"),
    Theme.LONG_COMBINATION: N_("Long combination"),
}
THEME_MEANINGS = {
    Theme.WIN_NOW: N_("One move, and whatever the reply your next disc wins now: four in a row."),
    Theme.FORCED_WIN: N_("Your first move starts a win by force within seven discs, whatever the replies."),
    Theme.DOUBLE_THREAT: N_("Two threats one disc cannot both stop: make one, or keep the opponent from making one."),
    Theme.ONLY_MOVE: N_("On the way the opponent threatens four at one square: block it, every other column loses."),
    Theme.ODD_THREAT: N_("Player 1 wins on an odd row in the end: make such a threat, or stop it."),
    Theme.EVEN_THREAT: N_("Player 2 wins on an even row in the end: make such a threat, or stop it."),
    Theme.ZUGZWANG: N_("In the end the loser has to play right under the winner's threat."),
    Theme.FOLLOW_UP: N_("After your move, answering by pairs of squares (claimeven and Allis's other rules) holds."),
    Theme.SAVE_THE_DRAW: N_("You cannot win: find the one column that does not lose."),
    Theme.LONG_COMBINATION: N_("Three or more steps of yours before the goal is plain."),
}


def parse_themes(text: str) -> tuple[Theme, ...]:
    """Themes from a file's field (``double_threat,zugzwang``), in ``Theme``'s order.

    Raises:
        ValueError: a name that is no theme (the message names it).
    """
    found = set()
    for name in text.split(","):
        try:
            found.add(Theme(name))
        except ValueError:
            raise ValueError(f"{name!r} is no theme (themes: {', '.join(t.value for t in Theme)})") from None
    return tuple(theme for theme in Theme if theme in found)


def format_themes(themes: Iterable[Theme]) -> str:
    """The file's field for ``themes`` (empty: none)."""
    return ",".join(theme.value for theme in themes)


class PuzzleFileError(ValueError):
    """A puzzle file or line that cannot be read: the message says where and why."""


class Goal(str, enum.Enum):
    """What the side to move must reach."""

    WIN = "win"
    DRAW = "draw"


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: the position after ``moves``, its goal, its line and its rating."""

    id: str
    moves: str
    goal: Goal
    line: str
    rating: int
    source: str = "self-play"
    themes: tuple[Theme, ...] = ()

    @property
    def line_moves(self) -> list[int]:
        """The line as 0-based columns: the player's steps at even places."""
        return parse_moves(self.line, STANDARD)

    @property
    def steps(self) -> list[int]:
        """The player's moves of the line, 0-based."""
        return self.line_moves[0::2]

    @property
    def solution(self) -> int:
        """The 1-based column of the first step."""
        return self.steps[0] + 1

    def board(self) -> Board:
        """The puzzle's position, with its moves from the empty board."""
        return Board.from_moves(self.moves, STANDARD)

    def link_moves(self) -> str:
        """The moves string to share (the position; the answer is not in it)."""
        return self.moves

    def to_json(self) -> dict[str, Any]:
        """The puzzle as the ``puzzles --json`` command prints it."""
        return {
            "id": self.id,
            "moves": self.moves,
            "goal": self.goal.value,
            "solution": [self.solution],
            "line": self.line,
            "rating": self.rating,
            "source": self.source,
            "themes": [theme.value for theme in self.themes],
        }

    def to_line(self) -> str:
        """The puzzle as a line of a puzzle file (the themes' field only where it has themes)."""
        line = f"{self.id} {self.moves} {self.goal.value} {self.line} {self.rating} {self.source}"
        return f"{line} {format_themes(self.themes)}" if self.themes else line


def puzzle_id(moves: str) -> str:
    """A puzzle's id: the same position always gets the same one (8 hex digits)."""
    return hashlib.sha1(moves.encode("ascii")).hexdigest()[:8]


def make_puzzle(
    moves: Sequence[int], goal: Goal, line: Sequence[int], rating: int, source: str, themes: Iterable[Theme] = ()
) -> Puzzle:
    """A puzzle from 0-based moves and line."""
    text = format_moves(list(moves), STANDARD)
    ordered = tuple(theme for theme in Theme if theme in set(themes))
    return Puzzle(puzzle_id(text), text, goal, format_moves(list(line), STANDARD), rating, source, ordered)


def parse_line(text: str, where: str = "") -> Puzzle:
    """One puzzle from a file line.

    Raises:
        PuzzleFileError: the line is not a puzzle; the message names ``where``.
    """
    fields = text.split()
    prefix = f"{where}: " if where else ""
    if len(fields) not in (6, 7):
        raise PuzzleFileError(
            f"{prefix}a puzzle line has 6 or 7 fields (id moves goal line rating source [themes]), not {len(fields)}"
        )
    ident, moves, goal_text, line, rating_text, source = fields[:6]
    try:
        themes = parse_themes(fields[6]) if len(fields) == 7 else ()
    except ValueError as error:
        raise PuzzleFileError(f"{prefix}{error}") from None
    try:
        goal = Goal(goal_text)
    except ValueError:
        raise PuzzleFileError(f"{prefix}the goal is 'win' or 'draw', not {goal_text!r}") from None
    try:
        rating = int(rating_text)
    except ValueError:
        raise PuzzleFileError(f"{prefix}the rating {rating_text!r} is not a whole number") from None
    if source not in SOURCES:
        raise PuzzleFileError(f"{prefix}the source is one of {', '.join(SOURCES)}, not {source!r}")
    try:
        board = Board.from_moves(moves, STANDARD)
        steps = parse_moves(line, STANDARD)
        if board.is_game_over():
            raise PuzzleFileError(f"{prefix}the game is already over after {moves}")
        if not steps or len(steps) % 2 == 0 or len(steps) // 2 + 1 > MAX_LINE_STEPS:
            raise PuzzleFileError(f"{prefix}the line has the player's moves at both ends and 1..{MAX_LINE_STEPS} steps")
        for move in steps:
            board.push(move)
    except (NotationError, IllegalMoveError) as error:
        raise PuzzleFileError(f"{prefix}{error}") from None
    return Puzzle(ident, moves, goal, line, rating, source, themes)


def read_puzzles(path: Path | str = SHIPPED_FILE) -> list[Puzzle]:
    """Every puzzle of a puzzle file, in its order.

    Raises:
        PuzzleFileError: the file cannot be read, or a line is not a puzzle.
    """
    try:
        text = read_regular(path, MAX_PUZZLE_FILE_BYTES).decode("utf-8")
    except OSError as error:
        raise PuzzleFileError(f"{path}: the puzzle file cannot be read ({error.strerror or error})") from None
    except UnicodeDecodeError as error:
        raise PuzzleFileError(f"{path}: the puzzle file cannot be read ({error})") from None
    puzzles = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            puzzles.append(parse_line(stripped, f"{path}, line {number}"))
    return puzzles


def write_puzzles(path: Path | str, puzzles: Iterable[Puzzle], header: Sequence[str] = ()) -> None:
    """Write a puzzle file whole (``header`` lines become comments).

    Raises:
        OSError: it cannot be written (``NotRegularFile``: a FIFO, a device or a link to one
            is in its place, and left as it is).
    """
    lines = [f"# {line}" for line in header]
    lines.append("# ID MOVES GOAL LINE RATING SOURCE THEMES")
    lines.extend(p.to_line() for p in puzzles)
    write_atomically(path, ("\n".join(lines) + "\n").encode("utf-8"))
