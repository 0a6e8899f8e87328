"""The archive's puzzle tables (schema 6): every puzzle attempt and the player's own puzzles.

The attempts, with the games against levels, are what the player's rating is made of
(``game.learn.rating`` replays them in order), so the rating and its history live in the
archive: an archive copied to another machine rates the same.  The player's own puzzles are
stored whole (a puzzle line of ``game.puzzle_file``) beside the game they came from.

An archive only read (a newer version's, or one that could not be upgraded) may lack
these tables: it then has no attempts and no puzzles, and nothing is written.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from dataclasses import dataclass

from game.archive.store import Archive
from game.puzzle_file import Puzzle, PuzzleFileError, parse_line

MAX_ATTEMPTS_READ = 100_000
"""The newest attempts read (more than anyone plays; a damaged file cannot make it slow)."""


@dataclass(frozen=True)
class PuzzleAttempt:
    """One try at a puzzle: when, which, its rating then, solved or not, hints taken."""

    tried_at: float
    puzzle: str
    puzzle_rating: int
    solved: bool
    hints: int = 0

    @property
    def score(self) -> float:
        """The attempt as a game result against the puzzle: a hint makes a solve a miss."""
        return 1.0 if self.solved and not self.hints else 0.0


def record_attempt(archive: Archive, attempt: PuzzleAttempt) -> bool:
    """Keep an attempt; False when the archive would not take it (it is then not rated)."""
    if not archive.writable:
        return False
    try:
        with archive.connection:
            archive.connection.execute(
                "INSERT INTO puzzle_attempts (tried_at, puzzle, puzzle_rating, solved, hints) VALUES (?, ?, ?, ?, ?)",
                (attempt.tried_at, attempt.puzzle, attempt.puzzle_rating, int(attempt.solved), attempt.hints),
            )
    except sqlite3.Error:
        return False
    return True


def attempts(archive: Archive) -> list[PuzzleAttempt]:
    """Every readable attempt, oldest first (a damaged row is left out)."""
    try:
        rows = archive.connection.execute(
            "SELECT tried_at, puzzle, puzzle_rating, solved, hints FROM puzzle_attempts"
            " ORDER BY tried_at DESC, id DESC LIMIT ?",
            (MAX_ATTEMPTS_READ,),
        ).fetchall()
    except sqlite3.Error:
        return []
    found = []
    for tried_at, puzzle, rating, solved, hints in reversed(rows):
        if isinstance(tried_at, (int, float)) and isinstance(puzzle, str) and isinstance(rating, int):
            if 0 < rating < 5000 and solved in (0, 1) and isinstance(hints, int) and hints >= 0:
                found.append(PuzzleAttempt(float(tried_at), puzzle[:40], rating, bool(solved), hints))
    return found


def add_own_puzzles(
    archive: Archive, puzzles: Iterable[tuple[Puzzle, int | None]], looked_at: Iterable[int] = ()
) -> int:
    """Keep the player's own puzzles (each with its game's id), each position once, and
    the games ``looked_at`` (not looked at again); return how many puzzles were new."""
    if not archive.writable:
        return 0
    added = 0
    now = time.time()
    try:
        with archive.connection:
            for puzzle, game_id in puzzles:
                cursor = archive.connection.execute(
                    "INSERT OR IGNORE INTO my_puzzles (puzzle, game_id, found_at, line) VALUES (?, ?, ?, ?)",
                    (puzzle.id, game_id, now, puzzle.to_line()),
                )
                added += cursor.rowcount
            for game_id in looked_at:
                archive.connection.execute(
                    "INSERT OR REPLACE INTO my_puzzle_games (game_id, looked_at) VALUES (?, ?)", (game_id, now)
                )
    except sqlite3.Error:
        return 0
    return added


def own_puzzles(archive: Archive) -> list[Puzzle]:
    """The player's own puzzles, newest first (a line that is not a puzzle is left out)."""
    try:
        rows = archive.connection.execute("SELECT line FROM my_puzzles ORDER BY found_at DESC").fetchall()
    except sqlite3.Error:
        return []
    found = []
    for (line,) in rows:
        if isinstance(line, str) and len(line) < 400:
            try:
                found.append(parse_line(line))
            except PuzzleFileError:
                continue
    return found


def own_puzzle_games(archive: Archive) -> set[int]:
    """The ids of the games already looked at for puzzles."""
    try:
        rows = archive.connection.execute("SELECT game_id FROM my_puzzle_games").fetchall()
    except sqlite3.Error:
        return set()
    return {int(row[0]) for row in rows if isinstance(row[0], int)}
