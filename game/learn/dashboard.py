"""Strengths and weaknesses: the player's solve rate in each puzzle theme.

Every stored puzzle attempt counts under each theme of its puzzle (the themes kept with the
attempt; an older attempt without them takes its puzzle's themes from the set, where the
puzzle is still in it); solved means solved without a hint, as for the rating.  A theme
with fewer than ``MIN_ATTEMPTS`` attempts shows no rate: "too few to tell".  The strongest
and the weakest themes are the highest and lowest rates among the themes with a rate (at
least two of them), and "practise this" opens puzzles of the weakest theme near the
player's rating.

``DashboardFold`` takes attempts in as they are read (the window reads a page a frame),
``dashboard`` is the one-call form; both are pure (no archive, no solver).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from game.learn.puzzle_set import near
from game.puzzle_file import Puzzle, Theme

MIN_ATTEMPTS = 5
"""Attempts a theme needs before its rate is shown."""
READ_SECONDS = 0.004
"""What a frame of the window spends reading the attempts, while a read is under way."""


class Attempt(Protocol):
    """An attempt as the dashboard reads it (``game.archive.puzzle_store.PuzzleAttempt``)."""

    @property
    def puzzle(self) -> str: ...

    @property
    def themes(self) -> tuple[Theme, ...]: ...

    @property
    def score(self) -> float: ...


class Tally(Protocol):
    """Attempts counted together (``game.archive.puzzle_store.ThemeTally``): their themes
    (empty: an older attempt's, its ``puzzle``'s in the set), how many, how many solved."""

    @property
    def puzzle(self) -> str: ...

    @property
    def themes(self) -> tuple[Theme, ...]: ...

    @property
    def attempts(self) -> int: ...

    @property
    def solved(self) -> int: ...


@dataclass(frozen=True)
class Counted:
    """A ``Tally`` made here (one attempt, or a test's)."""

    puzzle: str
    themes: tuple[Theme, ...]
    attempts: int
    solved: int


def counted(attempt: Attempt) -> Counted:
    """One attempt as a tally of one: solved when it scored (no hint)."""
    return Counted(attempt.puzzle, attempt.themes, 1, int(attempt.score == 1.0))


@dataclass(frozen=True)
class ThemeRecord:
    """One theme's attempts and solves."""

    theme: Theme
    attempts: int
    solved: int

    @property
    def rate(self) -> float | None:
        """The share solved; None under ``MIN_ATTEMPTS`` attempts (too few to tell)."""
        return self.solved / self.attempts if self.attempts >= MIN_ATTEMPTS else None

    @property
    def too_few(self) -> bool:
        return self.attempts < MIN_ATTEMPTS


@dataclass(frozen=True)
class Dashboard:
    """Every theme's record (in ``Theme``'s order), the strongest and the weakest theme."""

    records: tuple[ThemeRecord, ...]
    strongest: Theme | None
    weakest: Theme | None
    attempts: int

    def record(self, theme: Theme) -> ThemeRecord:
        return next(r for r in self.records if r.theme is theme)

    def to_json(self) -> dict[str, Any]:
        """What ``rating --json`` prints under ``themes``: per theme the attempts, the solves
        and the rate (null: too few to tell)."""
        return {
            "themes": {
                r.theme.value: {"attempts": r.attempts, "solved": r.solved, "rate": r.rate} for r in self.records
            },
            "strongest": self.strongest.value if self.strongest else None,
            "weakest": self.weakest.value if self.weakest else None,
        }


class DashboardFold:
    """Attempts taken in so far, counted per theme."""

    def __init__(self, themes_of: Callable[[str], tuple[Theme, ...]] = lambda _puzzle: ()):
        self.themes_of = themes_of  # an older attempt's themes, by its puzzle's id
        self.tried = {theme: 0 for theme in Theme}
        self.solved = {theme: 0 for theme in Theme}
        self.attempts = 0

    def add(self, tallies: Iterable[Tally]) -> None:
        for tally in tallies:
            self.attempts += tally.attempts
            for theme in tally.themes or self.themes_of(tally.puzzle):
                self.tried[theme] += tally.attempts
                self.solved[theme] += tally.solved

    def dashboard(self) -> Dashboard:
        records = tuple(ThemeRecord(theme, self.tried[theme], self.solved[theme]) for theme in Theme)
        rated = [r for r in records if r.rate is not None]
        strongest = weakest = None
        if len(rated) >= 2:  # one theme with a rate is neither strong nor weak beside the others
            strongest = max(rated, key=lambda r: (r.solved / r.attempts, r.attempts)).theme
            weakest = min(rated, key=lambda r: (r.solved / r.attempts, -r.attempts)).theme
        return Dashboard(records, strongest, weakest, self.attempts)


def dashboard(attempts: Iterable[Attempt], themes_of: Callable[[str], tuple[Theme, ...]] | None = None) -> Dashboard:
    """The dashboard of ``attempts`` (``themes_of``: an older attempt's themes by puzzle id)."""
    fold = DashboardFold(themes_of) if themes_of is not None else DashboardFold()
    fold.add(counted(attempt) for attempt in attempts)
    return fold.dashboard()


def themes_by_id(*sets: Sequence[Puzzle]) -> Callable[[str], tuple[Theme, ...]]:
    """A puzzle's themes by its id, from ``sets`` (the shipped set, the player's own)."""
    known = {puzzle.id: puzzle.themes for puzzle_set in sets for puzzle in puzzle_set}
    return lambda puzzle: known.get(puzzle, ())


def practise(puzzles: Sequence[Puzzle], theme: Theme, rating: float, count: int, seed: int = 0) -> list[Puzzle]:
    """``count`` puzzles of ``theme`` near ``rating`` (``game.learn.puzzle_set.near``)."""
    return near([p for p in puzzles if theme in p.themes], rating, count, seed)


class DashboardRead:
    """The dashboard read a few pages at a time (``step``), so that a hundred thousand
    attempts never hold up a frame: ``dashboard()`` is None until the last page is in."""

    def __init__(self, pages: Iterator[Sequence[Tally]], themes_of: Callable[[str], tuple[Theme, ...]]):
        self.fold = DashboardFold(themes_of)
        self._pages = pages
        self.done = False

    def step(self, budget: float) -> bool:
        """Read pages for about ``budget`` seconds; True when the read has just ended."""
        if self.done:
            return False
        deadline = time.perf_counter() + budget
        for page in self._pages:
            self.fold.add(page)
            if time.perf_counter() >= deadline:
                return False
        self.done = True
        return True

    def add(self, attempt: Attempt) -> None:
        """An attempt stored after the read ended (one stored before is read with the pages)."""
        if self.done:
            self.fold.add([counted(attempt)])

    def dashboard(self) -> Dashboard | None:
        return self.fold.dashboard() if self.done else None
