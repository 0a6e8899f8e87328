"""The course's progress, kept in the archive: per lesson, how many answers were given and
when it was first solved (``course_progress``, schema 5 of ``game.archive.database``).

A lesson is named by its key (``game.learn.course.Lesson.key``), never its number, so a
course that gains lessons keeps everyone's progress.  Reads never raise: an archive that
cannot be read (or is only in memory) has no progress, and a write it refuses is False.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from game.archive.store import Archive


@dataclass(frozen=True)
class LessonProgress:
    """One lesson's row: answers given, and when it was first solved (None: not yet)."""

    attempts: int
    solved_at: float | None

    @property
    def solved(self) -> bool:
        return self.solved_at is not None


def course_progress(archive: Archive) -> dict[str, LessonProgress]:
    """Every lesson tried so far, by key (empty where the archive cannot say)."""
    try:
        rows = archive.connection.execute("SELECT lesson, attempts, solved_at FROM course_progress").fetchall()
    except sqlite3.Error:
        return {}
    found = {}
    for key, attempts, solved_at in rows:
        if isinstance(key, str) and isinstance(attempts, int):
            found[key] = LessonProgress(attempts, float(solved_at) if isinstance(solved_at, (int, float)) else None)
    return found


def record_answer(archive: Archive, lesson_key: str, *, right: bool) -> bool:
    """Count an answer to the lesson ``lesson_key`` (a right one solves it, the first time);
    False when the archive would not take it (read-only, damaged, locked)."""
    if not archive.writable:
        return False
    now = time.time()
    try:
        archive.connection.execute(  # one statement: atomic in the archive's autocommit mode
            "INSERT INTO course_progress (lesson, attempts, solved_at, updated_at) VALUES (?, 1, ?, ?)"
            " ON CONFLICT (lesson) DO UPDATE SET attempts = attempts + 1,"
            " solved_at = COALESCE(solved_at, excluded.solved_at), updated_at = excluded.updated_at",
            (lesson_key, now if right else None, now),
        )
    except sqlite3.Error:
        return False
    return True
