"""Choosing puzzles: near a rating, the daily puzzle, the next one after a try.

The shipped set is ``game/data/puzzles.txt`` (``game.puzzle_file``); the player's own
puzzles come from the archive.  Choices are pure functions of the set, a rating and a
seed or a date, so the command line and the window pick the same puzzles.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import random
from collections.abc import Sequence

from game.puzzle_file import SHIPPED_FILE, Puzzle, read_puzzles

NEAR_POOL = 4
"""``near`` draws ``count`` puzzles from the ``NEAR_POOL * count`` nearest to the rating."""


@functools.cache
def shipped_puzzles() -> tuple[Puzzle, ...]:
    """The set the game ships (read once).

    Raises:
        PuzzleFileError: the file is missing or damaged (the install is broken).
    """
    return tuple(read_puzzles(SHIPPED_FILE))


def near(
    puzzles: Sequence[Puzzle], rating: float, count: int, seed: int = 0, *, skip: Sequence[str] = ()
) -> list[Puzzle]:
    """``count`` puzzles near ``rating``: seeded picks among the nearest, easiest first."""
    pool = [p for p in puzzles if p.id not in set(skip)] or list(puzzles)
    pool.sort(key=lambda p: (abs(p.rating - rating), p.id))
    nearest = pool[: max(count * NEAR_POOL, count)]
    chosen = random.Random(seed).sample(nearest, min(count, len(nearest)))
    return sorted(chosen, key=lambda p: (p.rating, p.id))


def daily(puzzles: Sequence[Puzzle], day: datetime.date) -> Puzzle:
    """The puzzle of ``day``: the same for everyone on that date (a hash of the date)."""
    if not puzzles:
        raise ValueError("no puzzles to choose from")
    digest = hashlib.sha256(day.isoformat().encode("ascii")).digest()
    ordered = sorted(puzzles, key=lambda p: p.id)
    return ordered[int.from_bytes(digest[:8], "big") % len(ordered)]


def find(puzzles: Sequence[Puzzle], puzzle_id: str) -> Puzzle | None:
    """The puzzle with this id (None: not in the set)."""
    return next((p for p in puzzles if p.id == puzzle_id), None)
