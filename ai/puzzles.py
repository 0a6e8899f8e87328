"""Puzzles' checking: is a position a puzzle, what is its line, does a puzzle hold.

A puzzle (``game.puzzle_file.Puzzle``) is sound when, with the exact solver's verdicts:

- the side to move can win (goal ``win``) or can only draw (goal ``draw``), and at every
  one of its steps along the line **exactly one column** reaches the goal (every other
  column wins nothing, or loses);
- the opponent's replies are its strongest: for a win, the reply with the longest
  resistance (the solver's best exact score, centre first on ties); for a draw, a reply
  that keeps the draw and leaves the player the fewest saving columns;
- the line ends with the player's step after which the goal is plain: a four on the
  board, or a win already shown (every reply leaves the player a four), or for a draw a
  position where more than one column holds it (or the board is full);
- the first step is not an immediate four nor the block of one (those are the Beginner
  screens' job, not a puzzle's), and it has at least ``MIN_COLUMNS`` playable columns (a
  choice between one or two columns is no puzzle).

A *forced block* is a later step of the line where the opponent threatens four at a
playable square (``forced_blocks``): the maker keeps them to at most a third of the set's
later steps.

``PuzzleChecker.find`` makes a puzzle's line from a position; ``PuzzleChecker.problems``
re-checks a puzzle from a file.  ``level_solves`` plays a level on a puzzle (the maker rates
puzzles with it).  Everything here is solver work: front ends run it in the worker process
or a command, never in the window's frame loop.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ai.ladder import LEVEL_RATINGS, puzzle_rating
from ai.levels import PRESETS, Level
from ai.player import choose_move
from ai.solver import SolveLimit, Solver
from game.board import Board
from game.puzzle_file import MAX_LINE_STEPS, Goal, Puzzle
from game.rules import STANDARD

WIN, DRAW, LOSS = 1, 0, -1
WEAK = SolveLimit(weak=True)
DEFAULT_MAX_STEPS = 4
"""The maker's longest line, in player steps: longer forced lines are rare and hard to read."""
MIN_COLUMNS = 3
"""The fewest playable columns a puzzle's first step has."""
NOISY_LEVELS = ("Beginner", "Easy")
"""The presets whose judgement is blurred (seeded): they try a puzzle once per seed."""


@dataclass(frozen=True)
class Found:
    """A position that is a puzzle: its goal and its line (0-based columns)."""

    goal: Goal
    line: tuple[int, ...]


class PuzzleChecker:
    """The exact solver's view of puzzle positions (one solver, its tables kept)."""

    def __init__(self, solver: Solver | None = None):
        self.solver = solver if solver is not None else Solver(STANDARD)
        self.geo = self.solver.geo
        self._known: dict[tuple[int, int], dict[int, int]] | None = None  # outcomes seen, while ``problems`` runs

    # -- verdicts ---------------------------------------------------------------------
    def _bits(self, board: Board) -> tuple[int, int]:
        return self.solver.position(board.grid, board.to_move)

    def _playable(self, mask: int) -> list[tuple[int, int]]:
        """(column, bit) of every playable column, centre first."""
        found = []
        for col in self.geo.centre_order:
            _, add, keep = self.geo.move_steps[col]
            bit = (mask + add) & keep
            if bit:
                found.append((col, bit))
        return found

    def outcomes(self, board: Board) -> dict[int, int]:
        """Every playable column's outcome for the side to move: WIN, DRAW or LOSS."""
        if self._known is None:
            return dict(self._each_outcome(board))
        key = self._bits(board)
        if key not in self._known:  # a re-check meets a position again (a reply, then its step)
            self._known[key] = dict(self._each_outcome(board))
        return dict(self._known[key])

    def _each_outcome(self, board: Board) -> Iterator[tuple[int, int]]:
        """(column, outcome) for each playable column, centre first, each solved only when
        asked for (a caller that has seen enough stops early)."""
        current, mask = self._bits(board)
        for col, bit in self._playable(mask):
            if self.geo.line_starts(current | bit):
                yield col, WIN
            elif (mask | bit).bit_count() == STANDARD.cells:
                yield col, DRAW
            else:
                yield col, -self.solver.solve_bits(current ^ mask, mask | bit, limit=WEAK).score

    def exact_scores(self, board: Board) -> dict[int, int]:
        """Every playable column's exact score for the side to move (centre first)."""
        current, mask = self._bits(board)
        return self.solver.analyze(current, mask).complete()

    def wins_at_once(self, board: Board, side: int) -> list[int]:
        """The columns where ``side``'s disc would make four now."""
        current, mask = self._bits(board)
        own = current if side == board.to_move else current ^ mask
        return [col for col, bit in self._playable(mask) if self.geo.line_starts(own | bit)]

    def is_plain_answer(self, board: Board) -> bool:
        """Whether the position's answer is a four now or the block of one (not a puzzle)."""
        return bool(self.wins_at_once(board, board.to_move) or self.wins_at_once(board, -board.to_move))

    def forced_blocks(self, puzzle: Puzzle) -> int:
        """How many of the puzzle's later steps block a four the opponent threatens."""
        board = puzzle.board()
        count = 0
        for index, move in enumerate(puzzle.line_moves):
            if index and index % 2 == 0 and self.wins_at_once(board, -board.to_move):
                count += 1
            board.push(move)
        return count

    @staticmethod
    def goal_columns(outcomes: dict[int, int], goal: Goal) -> list[int]:
        """The columns that reach ``goal``: the winning ones, or for a draw the drawing ones."""
        wanted = WIN if goal is Goal.WIN else DRAW
        return [col for col, outcome in outcomes.items() if outcome == wanted]

    def win_is_plain(self, board: Board) -> bool:
        """After the player's move (opponent to move): a four on the board, or every reply
        leaves the player a four."""
        outcome = board.outcome()
        if outcome is not None:
            return outcome.winner is not None
        player = -board.to_move
        for move in board.legal_moves():
            board.push(move)
            stuck = board.outcome() is None and not self.wins_at_once(board, player)
            board.pop()
            if stuck:
                return False
        return True

    # -- the line ---------------------------------------------------------------------
    def strongest_reply(self, board: Board, goal: Goal) -> int:
        """The opponent's reply: the longest resistance to a win; against a draw, a reply
        that keeps it and leaves the player the fewest saving columns (centre first)."""
        if goal is Goal.WIN:
            scores = self.exact_scores(board)
            return max(scores, key=lambda col: scores[col])  # first of the best: centre first
        outcomes = self.outcomes(board)
        best = max(outcomes.values())
        keeping = [col for col, outcome in outcomes.items() if outcome == best]
        fewest: tuple[int, int] | None = None
        for col in keeping:
            board.push(col)
            saving = len(self.goal_columns(self.outcomes(board), Goal.DRAW)) if board.outcome() is None else 0
            board.pop()
            if fewest is None or saving < fewest[0]:
                fewest = (saving, col)
        assert fewest is not None
        return fewest[1]

    def _first_outcomes(self, board: Board, known: int | None) -> dict[int, int] | None:
        """``outcomes``, but None as soon as two columns win (or, where the position is
        ``known`` to be a draw, two columns draw): no puzzle then, whatever the others do."""
        result: dict[int, int] = {}
        for col, outcome in self._each_outcome(board):
            result[col] = outcome
            counted = list(result.values())
            if counted.count(WIN) > 1 or (known == DRAW and counted.count(DRAW) > 1):
                return None
        return result

    def find(self, board: Board, *, max_steps: int = DEFAULT_MAX_STEPS, known: int | None = None) -> Found | None:
        """The puzzle in this position, or None: no goal with exactly one column at every
        step, an answer that is a four or a block, or a line longer than ``max_steps``.
        ``known``: the position's outcome for the side to move where it is known already
        (the opening book's), which lets a position that is no puzzle be dropped sooner."""
        if board.rules != STANDARD or board.outcome() is not None or self.is_plain_answer(board):
            return None
        if len(board.legal_moves()) < MIN_COLUMNS:
            return None
        first = self._first_outcomes(board, known)
        if first is None:
            return None
        outcomes = first
        best = max(outcomes.values())
        if best == LOSS:
            return None
        goal = Goal.WIN if best == WIN else Goal.DRAW
        line = self._line(board.copy(), goal, outcomes, max_steps)
        return None if line is None else Found(goal, tuple(line))

    def _line(self, board: Board, goal: Goal, outcomes: dict[int, int], max_steps: int) -> list[int] | None:
        line: list[int] = []
        for _step in range(max_steps):
            right = self.goal_columns(outcomes, goal)
            if len(right) != 1:
                return None
            board.push(right[0])
            line.append(right[0])
            if goal is Goal.WIN and self.win_is_plain(board):
                return line
            if goal is Goal.DRAW and board.outcome() is not None:
                return line
            reply = self.strongest_reply(board, goal)
            board.push(reply)
            if board.outcome() is not None:  # the board filled: the draw is saved
                return line if goal is Goal.DRAW else None
            outcomes = self.outcomes(board)
            if goal is Goal.DRAW and len(self.goal_columns(outcomes, Goal.DRAW)) > 1:
                return line  # the danger is over: more than one column holds the draw
            line.append(reply)
        return None

    # -- re-checking a puzzle -----------------------------------------------------------
    def problems(self, puzzle: Puzzle) -> list[str]:
        """What is wrong with ``puzzle`` (empty: it is sound), from the solver's verdicts:
        the first step is no four and no block; at each player step the one right column is
        the line's; each reply keeps the opponent's best outcome; after the last step the
        goal is plain (a four, or every reply leaves a four; for a draw, every reply that
        keeps it leaves more than one saving column, or the board is full); and each reply
        is the one ``find`` takes among the opponent's equally good ones (the longest
        resistance, the fewest saving columns)."""
        self._known = {}
        try:
            return self._problems(puzzle)
        finally:
            self._known = None

    def _problems(self, puzzle: Puzzle) -> list[str]:
        board = puzzle.board()
        if self.is_plain_answer(board):
            return [f"{puzzle.id}: the answer is a four now or the block of one"]
        if len(board.legal_moves()) < MIN_COLUMNS:
            return [f"{puzzle.id}: the first step has fewer than {MIN_COLUMNS} playable columns"]
        line = puzzle.line_moves
        if len(line) // 2 + 1 > MAX_LINE_STEPS:
            return [f"{puzzle.id}: the line is longer than {MAX_LINE_STEPS} steps"]
        for index, move in enumerate(line):
            if board.outcome() is not None:
                return [f"{puzzle.id}: the game is over before move {index + 1} of the line"]
            outcomes = self.outcomes(board)
            if index % 2 == 0:
                right = self.goal_columns(outcomes, puzzle.goal)
                if right != [move]:
                    said = ", ".join(str(col + 1) for col in right) or "none"
                    return [f"{puzzle.id}: step {index // 2 + 1}: the columns that reach the goal are {said}"]
            elif outcomes[move] != max(outcomes.values()):
                return [f"{puzzle.id}: reply {index // 2 + 1} (column {move + 1}) is not among the opponent's best"]
            elif (best := self.strongest_reply(board, puzzle.goal)) != move:
                return [f"{puzzle.id}: reply {index // 2 + 1} is column {move + 1}, the strongest is {best + 1}"]
            board.push(move)
        if puzzle.goal is Goal.WIN and not self.win_is_plain(board):
            return [f"{puzzle.id}: the win is not plain at the end of the line"]
        if puzzle.goal is Goal.DRAW and not self._draw_is_safe(board):
            return [f"{puzzle.id}: a reply still leaves a single saving column at the end of the line"]
        return []

    def _draw_is_safe(self, board: Board) -> bool:
        """After the player's last step: every reply that keeps the draw leaves the player
        more than one saving column (or ends the game)."""
        if board.outcome() is not None:
            return True
        outcomes = self.outcomes(board)
        best = max(outcomes.values())
        for col in [c for c, outcome in outcomes.items() if outcome == best]:
            board.push(col)
            saving = self._saving_columns(board, enough=2) if board.outcome() is None else 2
            board.pop()
            if saving < 2:
                return False
        return True

    def _saving_columns(self, board: Board, *, enough: int) -> int:
        """The columns that hold the draw for the side to move, counted up to ``enough``
        (the rest are not solved: the check only asks whether there are that many)."""
        saving = 0
        for _col, outcome in self._each_outcome(board):
            saving += outcome == DRAW
            if saving >= enough:
                break
        return saving


def level_solves(level: Level, puzzle: Puzzle, seed: int = 0) -> bool:
    """Whether ``level`` plays every one of the puzzle's steps (the opponent plays the line)."""
    board = puzzle.board()
    for index, move in enumerate(puzzle.line_moves):
        if index % 2 == 0:
            answer = choose_move(level, board.grid, board.rules, board.to_move, seed=seed + index)
            if answer.move != move:
                return False
        board.push(move)
    return True


def solve_rates(
    puzzle: Puzzle, seeds: int = 4, *, first_seed: int = 0, levels: tuple[str, ...] = ()
) -> dict[str, float]:
    """Each preset's share of solves of ``puzzle``: the noisy ones over ``seeds`` seeds from
    ``first_seed`` (a later range is a fresh set of tries), the others once (their play does
    not depend on the seed).  ``levels``: only these presets (all when empty)."""
    rates = {}
    for name in levels or tuple(LEVEL_RATINGS):
        tries = range(first_seed, first_seed + seeds) if name in NOISY_LEVELS else range(1)
        rates[name] = sum(level_solves(PRESETS[name], puzzle, seed) for seed in tries) / len(tries)
    return rates


def rate_puzzle(puzzle: Puzzle, seeds: int = 4) -> int:
    """The puzzle's rating on the levels' scale, from which levels solve it."""
    return puzzle_rating(solve_rates(puzzle, seeds))
