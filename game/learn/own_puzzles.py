"""The player's own puzzles: the positions before their mistakes and blunders (from the
stored reviews) that have a unique saving or winning move, rated by the levels and given
their themes (``ai.puzzle_themes``) like the shipped set.  Solver and level work: the
command line runs it, the window's worker too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable

from ai.puzzle_themes import classify
from ai.puzzles import PuzzleChecker, rate_puzzle
from ai.solver import SolverStopped
from game.learn.training import drills_of_records
from game.puzzle_file import Puzzle, make_puzzle
from game.records import GameRecord
from game.rules import STANDARD


class PuzzleSearchStopped(Exception):
    """``should_stop`` said to stop looking (the window left the screen)."""


def find_own_puzzles(
    records: Iterable[GameRecord],
    checker: PuzzleChecker | None = None,
    *,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[list[tuple[Puzzle, int | None]], list[int]]:
    """The puzzles in the reviewed games of ``records`` (each with its game's id), and the
    ids of the games looked at (those with an exact review on the standard board).

    Raises:
        PuzzleSearchStopped: ``should_stop`` returned True (polled between positions).
    """
    checker = checker if checker is not None else PuzzleChecker()
    found: list[tuple[Puzzle, int | None]] = []
    looked: list[int] = []
    for record in records:
        drills, waiting = drills_of_records([record])
        if waiting or record.rules != STANDARD:
            continue
        if record.id is not None:
            looked.append(record.id)
        for drill in drills:
            if should_stop is not None and should_stop():
                raise PuzzleSearchStopped("stopped")
            if drill.start is not None:
                continue
            puzzle = checker.find(drill.board())
            if puzzle is None:
                continue
            unrated = make_puzzle(drill.before, puzzle.goal, puzzle.line, 0, "game")
            rated = dataclasses.replace(unrated, rating=rate_puzzle(unrated))
            found.append((with_themes(rated, checker, should_stop), record.id))
    return found, looked


def with_themes(
    puzzle: Puzzle, checker: PuzzleChecker | None = None, should_stop: Callable[[], bool] | None = None
) -> Puzzle:
    """``puzzle`` with its themes (``ai.puzzle_themes.classify``).

    Raises:
        PuzzleSearchStopped: ``should_stop`` returned True.
    """
    try:
        themes = classify(puzzle, solver=checker.solver if checker is not None else None, should_stop=should_stop)
    except SolverStopped:
        raise PuzzleSearchStopped("stopped") from None
    return dataclasses.replace(puzzle, themes=themes)
