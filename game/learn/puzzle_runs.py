"""Storm and Streak: runs of puzzles against a clock or until the first miss, headless.

Both are unrated: a run never stores a puzzle attempt, so the player's rating
(``game.learn.rating``) does not move; the archive keeps each finished run's score
(``game.archive.run_store``) and the best one is the record.  Both take the clock as a
function (seconds, monotonic), so a test runs three minutes in a moment.

**Storm** (``StormRun``): ``STORM_SECONDS`` on the clock, puzzles from easy to hard (rising
ratings); each right move adds one to the combo and the combo's marks add time: +3 s at 5
right moves in a row, +5 s at 12, +7 s at 20, +10 s at 30 and at every 10 more after that;
a wrong move costs ``MISS_SECONDS`` seconds, ends the combo and goes on to the next puzzle.
The run ends when the clock reaches zero (or the puzzles run out); its score is the
puzzles solved.

**Streak** (``StreakRun``): puzzles of rising difficulty (a puzzle's rating is never below
the one before it) until the first wrong move; one skip a run passes a puzzle by without
ending the streak.  Its score is the puzzles solved.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable, Sequence

from game.archive.run_store import RunRecord
from game.learn.puzzle_attempt import Played, PuzzleTry
from game.puzzle_file import Puzzle

STORM_SECONDS = 180.0
"""A Storm's clock at the start: three minutes."""
MISS_SECONDS = 10.0
"""What a wrong move costs in Storm."""
COMBO_BONUSES = ((5, 3.0), (12, 5.0), (20, 7.0), (30, 10.0))
"""(right moves in a row, seconds added) in Storm."""
BONUS_EVERY = 10
"""After the last mark, every this many more right moves in a row add the last bonus again."""
RUN_REPLY_SECONDS = 0.3
"""The pause before the opponent's reply in a run (quicker than the puzzle screen's)."""
RUN_LENGTH = 120
"""Puzzles a run lines up (from easy to hard): more than anyone solves in three minutes."""

Clock = Callable[[], float]


class RunKind(enum.Enum):
    STORM = "storm"
    STREAK = "streak"


def rising_puzzles(puzzles: Sequence[Puzzle], count: int, seed: int) -> list[Puzzle]:
    """``count`` puzzles from easy to hard: the set by rating cut in ``count`` slices, one
    drawn from each (seeded), so ratings never go down along the list."""
    ordered = sorted(puzzles, key=lambda p: (p.rating, p.id))
    if not ordered or count < 1:
        return []
    rng = random.Random(seed)
    slices = min(count, len(ordered))
    chosen = []
    for index in range(slices):
        low, high = index * len(ordered) // slices, (index + 1) * len(ordered) // slices
        chosen.append(ordered[rng.randrange(low, high)])
    return sorted(chosen, key=lambda p: (p.rating, p.id))


def combo_bonus(combo: int) -> float:
    """Seconds Storm adds when the combo reaches ``combo`` (0: none at this count)."""
    for mark, seconds in COMBO_BONUSES:
        if combo == mark:
            return seconds
    last, seconds = COMBO_BONUSES[-1]
    return seconds if combo > last and (combo - last) % BONUS_EVERY == 0 else 0.0


class PuzzleRun:
    """What Storm and Streak share: the puzzles in order, the try at the current one, the
    score and the combo."""

    kind = RunKind.STORM

    def __init__(self, puzzles: Sequence[Puzzle], clock: Clock):
        self.puzzles = list(puzzles)
        self.clock = clock
        self.started = clock()
        self.index = 0
        self.solved = 0
        self.missed = 0
        self.combo = 0
        self.best_combo = 0
        self.ended_at: float | None = None
        self.current: PuzzleTry | None = None
        self.last: PuzzleTry | None = None  # the try before the current one (the screen says how it went)
        self._next()

    @property
    def score(self) -> int:
        """The puzzles solved."""
        return self.solved

    @property
    def over(self) -> bool:
        return self.ended_at is not None

    def play(self, column: int) -> Played:
        """The person plays ``column`` in the current puzzle."""
        self.tick()
        current = self.current
        if self.over or current is None:
            return Played.IGNORED
        played = current.play(column, self.clock())
        if played in (Played.RIGHT, Played.SOLVED):
            self.combo += 1
            self.best_combo = max(self.best_combo, self.combo)
            self._right()
        if played is Played.SOLVED:
            self.solved += 1
            self._next()
        elif played is Played.WRONG:
            self.missed += 1
            self.combo = 0
            self._wrong()
        return played

    def tick(self) -> int | None:
        """Go on with the clock: the opponent's reply where it is due (the column played),
        the end where the run is over."""
        if self.over or self.current is None:
            return None
        return self.current.advance(self.clock())

    def record(self) -> RunRecord | None:
        """The archive's row of the finished run (None: still running)."""
        if self.ended_at is None:
            return None
        return RunRecord(
            self.kind.value, self.ended_at, self.score, self.missed, self.best_combo, self.ended_at - self.started
        )

    def _next(self) -> None:
        self.last = self.current
        if self.index >= len(self.puzzles):
            self.current = None
            self._end()
            return
        self.current = PuzzleTry(self.puzzles[self.index], started=self.clock(), reply_delay=RUN_REPLY_SECONDS)
        self.index += 1

    def _end(self) -> None:
        if self.ended_at is None:
            self.ended_at = self.clock()

    def _right(self) -> None:
        """A right move (the combo is counted already)."""

    def _wrong(self) -> None:
        """A wrong move (the miss is counted already)."""


class StormRun(PuzzleRun):
    """Three minutes, puzzles from easy to hard, time won by combos and lost by misses."""

    kind = RunKind.STORM

    def __init__(self, puzzles: Sequence[Puzzle], clock: Clock, *, seconds: float = STORM_SECONDS):
        self.deadline = clock() + seconds
        self.bonus = 0.0  # the last bonus won (the screen shows it for a moment)
        super().__init__(puzzles, clock)

    def remaining(self) -> float:
        """Seconds left on the clock (0 once the run is over)."""
        if self.ended_at is not None:
            return 0.0
        return max(0.0, self.deadline - self.clock())

    def tick(self) -> int | None:
        if self.ended_at is None and self.clock() >= self.deadline:
            self.ended_at = self.deadline
            return None
        return super().tick()

    def _right(self) -> None:
        self.bonus = combo_bonus(self.combo)
        self.deadline += self.bonus

    def _wrong(self) -> None:
        self.deadline -= MISS_SECONDS
        if self.clock() >= self.deadline:
            self.ended_at = self.clock()
        else:
            self._next()


class StreakRun(PuzzleRun):
    """Puzzles of rising difficulty until the first wrong move; one skip a run."""

    kind = RunKind.STREAK

    def __init__(self, puzzles: Sequence[Puzzle], clock: Clock):
        self.skipped = False
        super().__init__(puzzles, clock)

    @property
    def can_skip(self) -> bool:
        return not self.skipped and not self.over and self.current is not None and self.current.result is None

    def skip(self) -> bool:
        """Pass the current puzzle by (once a run); whether it did."""
        if not self.can_skip:
            return False
        self.skipped = True
        self._next()
        return True

    def _wrong(self) -> None:
        self._end()
