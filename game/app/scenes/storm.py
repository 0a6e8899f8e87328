"""Storm: three minutes of puzzles from easy to hard (``game.learn.puzzle_runs.StormRun``).

Right moves in a row win time (+3 s at 5, +5 s at 12, +7 s at 20, +10 s at 30 and every 10
after), a wrong move costs 10 s and goes on to the next puzzle; the score is the puzzles
solved, each run's kept in the archive beside the best.  Unrated: the rating does not move.

Controls: Space or Enter start (and start again); 1..7 or click a column to play it; Esc back.
"""

from __future__ import annotations

from game.app.scenes.puzzle_run_view import PuzzleRunScene
from game.app.scenes.puzzle_runs_text import (
    bonus_sentence,
    clock_text,
    solved_next_sentence,
    storm_standing,
    storm_wrong_sentence,
)
from game.learn.puzzle_attempt import Played, PuzzleTry
from game.learn.puzzle_runs import STORM_SECONDS, PuzzleRun, RunKind, StormRun
from game.puzzle_file import Puzzle


class StormScene(PuzzleRunScene):
    name = "storm"
    kind = RunKind.STORM

    def make_run(self, puzzles: list[Puzzle]) -> PuzzleRun:
        return StormRun(puzzles, lambda: self.app.time)

    def big_text(self) -> str:
        run = self.run
        if run is None:
            return clock_text(STORM_SECONDS)
        assert isinstance(run, StormRun)
        return clock_text(run.remaining()) if not run.over else str(run.score)

    def standing(self) -> str:
        assert isinstance(self.run, StormRun)
        return storm_standing(self.run)

    def on_played(self, played: Played, column: int, attempt: PuzzleTry) -> None:
        run = self.run
        assert isinstance(run, StormRun)
        if played is Played.WRONG:
            self.said = storm_wrong_sentence(column)
            return
        said = solved_next_sentence() if played is Played.SOLVED else self.said
        if run.bonus:
            said = bonus_sentence(run.bonus, run.combo) + " " + said
        self.said = said
