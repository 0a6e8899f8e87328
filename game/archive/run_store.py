"""Storm's and Streak's runs in the archive (``puzzle_runs``, schema 7 of
``game.archive.database``): each finished run's score, and the best run of each kind.

Runs are unrated: nothing here is read by the player's rating.  Reads never raise: an
archive that cannot be read (or an older one only read) has no runs, and a write it refuses
is False.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass

from game.archive.store import Archive

KINDS = ("storm", "streak")
"""The kinds of run kept (``game.learn.puzzle_runs.RunKind``'s values)."""


@dataclass(frozen=True)
class RunRecord:
    """One finished run: its kind, when it ended, its score (puzzles solved), the misses,
    the longest combo of right moves and the seconds it lasted."""

    kind: str
    ended_at: float
    score: int
    missed: int
    best_combo: int
    seconds: float


def record_run(archive: Archive, run: RunRecord) -> bool:
    """Keep a finished run; False when the archive would not take it."""
    if not archive.writable or run.kind not in KINDS:
        return False
    try:
        with archive.connection:
            archive.connection.execute(
                "INSERT INTO puzzle_runs (kind, ended_at, score, missed, best_combo, seconds) VALUES (?, ?, ?, ?, ?, ?)",
                (run.kind, run.ended_at, run.score, run.missed, run.best_combo, run.seconds),
            )
    except sqlite3.Error:
        return False
    return True


def best_run(archive: Archive, kind: str) -> RunRecord | None:
    """The run of ``kind`` with the highest score (the earliest of equal ones); None: no run
    kept, or the archive cannot say."""
    try:
        rows = archive.connection.execute(
            "SELECT kind, ended_at, score, missed, best_combo, seconds FROM puzzle_runs"
            " WHERE kind = ? ORDER BY score DESC, ended_at, id LIMIT 20",
            (kind,),
        ).fetchall()
    except sqlite3.Error:
        return None
    for row in rows:  # the best readable row (a damaged one is passed over)
        found = _run(tuple(row))
        if found is not None:
            return found
    return None


def _run(row: tuple[object, ...]) -> RunRecord | None:
    kind, ended_at, score, missed, best_combo, seconds = row
    numbers = (score, missed, best_combo)
    if kind not in KINDS or not all(isinstance(n, int) and 0 <= n < 1_000_000 for n in numbers):
        return None
    if not isinstance(ended_at, (int, float)) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
        return None
    assert isinstance(kind, str) and isinstance(score, int) and isinstance(missed, int) and isinstance(best_combo, int)
    return RunRecord(kind, float(ended_at), score, missed, best_combo, float(seconds))
