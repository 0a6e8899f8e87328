"""One try at one puzzle, headless: the position, the moves so far, the hints, the time.

The puzzle screen draws a ``PuzzleTry``, ``puzzles --play`` plays one in a terminal, Storm
and Streak play their puzzles with it, and tests drive it directly: no pygame and no
solver here (the owner asks the solver for a wrong move's verdict and hands it over).

- The person plays the side to move (``person``); at each of their steps exactly one
  column is right: the line's (``game.puzzle_file``).
- A right step that is not the last is answered by the opponent's reply from the line,
  ``reply_delay`` seconds later (``reply_due``; ``advance`` plays it), so the person sees
  their own disc land first.
- The last right step solves the puzzle.
- A wrong step ends the try, missed: the wrong disc stays on the board with the owner's
  verdict and refutation (``refute``) and why it fails (``explain_wrong``), until
  ``show_right_move`` takes them back and plays the right column.
- A hint shows the right column and makes the try count as missed at once; the person may
  still play the line out ("done with a hint").

The result (``result``) is decided once, at the first wrong step, the first hint or the last
right step; ``attempt`` is then the archive's row (``game.archive.puzzle_store``), so leaving
after a hint costs what the hint said it would.  Times are the owner's clock (seconds).
"""

from __future__ import annotations

import enum

from ai.exact import ExactScore
from ai.explain.explanation import Explanation
from game.archive.puzzle_store import PuzzleAttempt
from game.board import Board
from game.puzzle_file import Puzzle

REPLY_SECONDS = 0.6
"""The pause before the opponent's reply, so the person sees their own disc land."""


class TryResult(enum.Enum):
    """How a try counts: solved (every step right, no hint) or missed."""

    SOLVED = "solved"
    MISSED = "missed"


class Played(enum.Enum):
    """What a column played did."""

    IGNORED = "ignored"  # not the person's turn: a reply is due, a wrong disc is shown, or it is over
    ILLEGAL = "illegal"  # the column is full
    RIGHT = "right"  # a right step; the opponent's reply is due
    SOLVED = "solved"  # the last right step: the goal is plain
    WRONG = "wrong"  # a wrong column: the try is missed


class PuzzleTry:
    """A puzzle being played: the board as it stands, the step reached, hints, the result."""

    def __init__(self, puzzle: Puzzle, *, started: float, reply_delay: float = REPLY_SECONDS):
        self.puzzle = puzzle
        self.board: Board = puzzle.board()
        self.person = self.board.to_move
        self.step = 0  # index into the line of the move to play next
        self.hints = 0
        self.hint_column: int | None = None  # the column the last hint showed, until a disc is played
        self.started = started
        self.reply_delay = reply_delay
        self.reply_due: float | None = None  # when the opponent's reply is played
        self.result: TryResult | None = None
        self.decided_at: float | None = None
        self.finished = False  # the line is played out (or the right move shown after a wrong one)
        self.wrong: int | None = None  # the wrong column, on the board until the right one is shown
        self.wrong_cell: tuple[int, int] | None = None  # where its disc landed
        self.before_wrong: Board | None = None  # the position the wrong disc was played in
        self.verdict: ExactScore | None = None  # the wrong move's exact verdict (the owner's solver)
        self.refutation: int | None = None  # the opponent's answer to it, on the board
        self.why: Explanation | None = None  # why the wrong move fails (the explainer's)
        self.handed_over = False  # the archive's row was handed to the owner (``take_attempt``)

    # -- questions ----------------------------------------------------------------------
    def right_column(self) -> int | None:
        """The column to play now (None: the try is over or it is not the person's turn)."""
        line = self.puzzle.line_moves
        if self.finished or self.wrong is not None or self.reply_due is not None or self.step >= len(line):
            return None
        return line[self.step]

    @property
    def solved(self) -> bool:
        return self.result is TryResult.SOLVED

    @property
    def missed(self) -> bool:
        return self.result is TryResult.MISSED

    @property
    def started_playing(self) -> bool:
        """Whether anything was done: a disc played or a hint taken."""
        return self.step > 0 or self.hints > 0 or self.wrong is not None

    def seconds(self, now: float) -> float:
        """Seconds spent: up to the result where it is decided."""
        end = self.decided_at if self.decided_at is not None else now
        return max(0.0, end - self.started)

    def attempt(self, tried_at: float) -> PuzzleAttempt | None:
        """The archive's row for this try (None: its result is not decided yet)."""
        if self.result is None:
            return None
        puzzle = self.puzzle
        return PuzzleAttempt(
            tried_at,
            puzzle.id,
            puzzle.rating,
            solved=self.result is TryResult.SOLVED,
            hints=self.hints,
            themes=puzzle.themes,
            seconds=round(self.seconds(0.0), 3),
        )

    def take_attempt(self, tried_at: float) -> PuzzleAttempt | None:
        """The archive's row, the first time it is asked for once the result is decided (the
        owner stores it); None before that and after."""
        if self.handed_over:
            return None
        found = self.attempt(tried_at)
        self.handed_over = found is not None
        return found

    # -- moves --------------------------------------------------------------------------
    def play(self, column: int, now: float) -> Played:
        """The person plays ``column`` (0-based)."""
        right = self.right_column()
        if right is None:
            return Played.IGNORED
        if not self.board.is_legal(column):
            return Played.ILLEGAL
        self.hint_column = None
        landed = self.board.cell_of(column)
        before = self.board.copy()
        self.board.push(column)
        if column != right:
            self.wrong, self.wrong_cell, self.before_wrong = column, landed, before
            self._decide(TryResult.MISSED, now)
            return Played.WRONG
        self.step += 1
        if self.step >= len(self.puzzle.line_moves):
            self.finished = True
            self._decide(TryResult.SOLVED if not self.hints else TryResult.MISSED, now)
            return Played.SOLVED
        self.reply_due = now + self.reply_delay
        return Played.RIGHT

    def advance(self, now: float) -> int | None:
        """Play the opponent's reply if it is due by ``now``; the column played, or None."""
        if self.reply_due is None or now < self.reply_due:
            return None
        self.reply_due = None
        reply = self.puzzle.line_moves[self.step]
        self.board.push(reply)
        self.step += 1
        return reply

    def take_hint(self, now: float) -> int | None:
        """Show the right column; the try counts as missed from now on (None: no hint now)."""
        right = self.right_column()
        if right is None:
            return None
        self.hints += 1
        self.hint_column = right
        self._decide(TryResult.MISSED, now)
        return right

    def refute(self, verdict: ExactScore | None, reply: int | None) -> int | None:
        """The wrong move's verdict and the opponent's answer, played on the board where it is
        legal (the column played, or None)."""
        if self.wrong is None:
            return None
        self.verdict = verdict
        if reply is not None and self.board.is_legal(reply) and not self.board.is_game_over():
            self.board.push(reply)
            self.refutation = reply
            return reply
        self.refutation = None
        return None

    def explain_wrong(self, explanation: Explanation) -> None:
        """Why the wrong move fails (the explainer's refutation of it)."""
        if self.wrong is not None:
            self.why = explanation

    def show_right_move(self) -> int | None:
        """Take the wrong disc (and its refutation) back and play the right column; the try
        is over (the column played, or None: no wrong disc is shown)."""
        if self.wrong is None:
            return None
        keep = len(self.puzzle.moves) + self.step
        while len(self.board.moves) > keep:
            self.board.pop()
        right = self.puzzle.line_moves[self.step]
        self.board.push(right)
        self.wrong = self.wrong_cell = self.before_wrong = None
        self.refutation = None
        self.finished = True
        return right

    def _decide(self, result: TryResult, now: float) -> None:
        if self.result is None:
            self.result, self.decided_at = result, now
