"""Streak: puzzles of rising difficulty until the first wrong move
(``game.learn.puzzle_runs.StreakRun``); one skip a run.  The best streak is kept in the
archive.  Unrated: the rating does not move.

Controls: Space or Enter start (and start again); 1..7 or click a column to play it; S skip
the puzzle (once a run); Esc back.
"""

from __future__ import annotations

import pygame

from game.app.scenes.puzzle_run_view import PuzzleRunScene
from game.app.scenes.puzzle_runs_text import (
    skipped_sentence,
    solved_next_sentence,
    streak_standing,
    streak_wrong_sentence,
)
from game.app.widgets import Button
from game.i18n import N_
from game.learn.puzzle_attempt import Played, PuzzleTry
from game.learn.puzzle_runs import PuzzleRun, RunKind, StreakRun
from game.learn.puzzle_words import goal_sentence
from game.puzzle_file import Puzzle


class StreakScene(PuzzleRunScene):
    name = "streak"
    kind = RunKind.STREAK

    def make_run(self, puzzles: list[Puzzle]) -> PuzzleRun:
        return StreakRun(puzzles, lambda: self.app.time)

    def extra_buttons(self) -> list[Button]:
        return [Button(N_("Skip"), self.skip, "S")]

    def big_text(self) -> str:
        return str(self.run.score) if self.run is not None else "0"

    def standing(self) -> str:
        assert isinstance(self.run, StreakRun)
        return streak_standing(self.run)

    def skip(self) -> None:
        run = self.run
        if isinstance(run, StreakRun) and run.skip():
            current = run.current
            goal = goal_sentence(current.puzzle, current.person) if current is not None else ""
            self.said = f"{skipped_sentence()} {goal}"
            self.app.dirty = True

    def on_played(self, played: Played, column: int, attempt: PuzzleTry) -> None:
        if played is Played.WRONG:
            right = attempt.show_right_move()  # the run ends here: the board shows what was right
            self.said = self.ending = streak_wrong_sentence(column, right)
        elif played is Played.SOLVED:
            self.said = solved_next_sentence()

    def key(self, key: int) -> None:
        if key == pygame.K_s:
            self.skip()
        else:
            super().key(key)

    def button_enabled(self, label: str) -> bool:
        if label == "Skip":
            return isinstance(self.run, StreakRun) and self.run.can_skip
        return super().button_enabled(label)
