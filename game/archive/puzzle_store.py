"""The archive's puzzle tables (schemas 6 and 7): every puzzle attempt (with its puzzle's
themes and the seconds it took) and the player's own puzzles.

The attempts, with the games against levels, are what the player's rating is made of
(``game.learn.rating`` replays them in order), so the rating and its history live in the
archive: an archive copied to another machine rates the same.  The player's own puzzles are
stored whole (a puzzle line of ``game.puzzle_file``) beside the game they came from.

An archive only read (a newer version's, or one that could not be upgraded) may lack
these tables: it then has no attempts and no puzzles, and nothing is written.
"""

from __future__ import annotations

import functools
import math
import sqlite3
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from game.archive.store import Archive
from game.puzzle_file import Puzzle, PuzzleFileError, Theme, format_themes, parse_line

MAX_ATTEMPTS_READ = 100_000
"""The newest attempts read (more than anyone plays; a damaged file cannot make it slow)."""


class PuzzleAttempt(NamedTuple):
    """One try at a puzzle: when, which, its rating then, solved or not, hints taken, the
    puzzle's themes and the seconds the try took (None: not known, an older row); a named
    tuple: a replay of the rating reads a hundred thousand of them."""

    tried_at: float
    puzzle: str
    puzzle_rating: int
    solved: bool
    hints: int = 0
    themes: tuple[Theme, ...] = ()
    seconds: float | None = None

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
                "INSERT INTO puzzle_attempts (tried_at, puzzle, puzzle_rating, solved, hints, themes, seconds)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    attempt.tried_at,
                    attempt.puzzle,
                    attempt.puzzle_rating,
                    int(attempt.solved),
                    attempt.hints,
                    format_themes(attempt.themes),
                    attempt.seconds,
                ),
            )
    except sqlite3.Error:
        return False
    return True


@dataclass(frozen=True)
class AttemptsRead:
    """Attempts read, oldest first, and the rows left out as damaged (``skipped``: a time
    that is not a date, an infinity among them, or a value out of its range); ``key`` is
    the last row read (its time and id), where the next read goes on."""

    attempts: list[PuzzleAttempt]
    skipped: int
    key: tuple[object, int] | None = None


def read_attempts(archive: Archive, *, newest: int = MAX_ATTEMPTS_READ) -> AttemptsRead:
    """The newest ``newest`` attempt rows, oldest first: the readable ones, and how many were not."""
    try:
        rows = (
            _plain(archive)
            .execute(
                f"SELECT {attempt_columns(archive)} FROM puzzle_attempts ORDER BY tried_at DESC, id DESC LIMIT ?",
                (newest,),
            )
            .fetchall()
        )
    except sqlite3.Error:
        return AttemptsRead([], 0)
    rows.reverse()
    found = _readable(rows)
    return AttemptsRead(found, len(rows) - len(found), (rows[-1][1], rows[-1][0]) if rows else None)


def attempt_columns(archive: Archive) -> str:
    """The columns an attempt is read from: its id, time, puzzle, rating, result, hints,
    themes and seconds (an archive only read that is older than schema 7 has neither of the
    last two: an empty text and NULL stand in)."""
    return f"id, tried_at, puzzle, puzzle_rating, solved, hints, {_themes_column(archive)}, {_seconds_column(archive)}"


def _plain(archive: Archive) -> sqlite3.Cursor:
    """A cursor of the archive's connection whose rows are plain tuples (quicker to read in
    bulk than the connection's named rows)."""
    cursor = archive.connection.cursor()
    cursor.row_factory = None
    return cursor


def _readable(rows: list[tuple[object, ...]]) -> list[PuzzleAttempt]:
    """The rows (in ``attempt_columns``' order) that are whole attempts, in their order."""
    found = []
    for _, tried_at, puzzle, rating, solved, hints, themes, seconds in rows:
        if isinstance(tried_at, (int, float)) and math.isfinite(tried_at) and isinstance(puzzle, str):
            if isinstance(rating, int) and 0 < rating < 5000 and solved in (0, 1):
                if isinstance(hints, int) and hints >= 0:
                    spent = float(seconds) if isinstance(seconds, (int, float)) and 0 <= seconds < 1e9 else None
                    found.append(
                        PuzzleAttempt(
                            float(tried_at), puzzle[:40], rating, bool(solved), hints, read_themes(themes), spent
                        )
                    )
    return found


def _columns(archive: Archive) -> set[str]:
    try:
        return {row[1] for row in archive.connection.execute("PRAGMA table_info(puzzle_attempts)")}
    except sqlite3.Error:
        return set()


def _themes_column(archive: Archive) -> str:
    """``themes``, or an empty text where an archive only read is older than schema 7."""
    return "substr(themes, 1, 400)" if "themes" in _columns(archive) else "''"


def _seconds_column(archive: Archive) -> str:
    return "seconds" if "seconds" in _columns(archive) else "NULL"


def read_themes(text: object) -> tuple[Theme, ...]:
    """A stored themes field; names this version does not know are left out."""
    return _themes_of(text) if isinstance(text, str) else ()


@functools.lru_cache(maxsize=256)
def _themes_of(text: str) -> tuple[Theme, ...]:
    """(A set's puzzles share a few dozen of these: a hundred thousand rows parse them once.)"""
    found = {theme for theme in Theme if theme.value in text.split(",")}
    return tuple(theme for theme in Theme if theme in found)


def attempt_count(archive: Archive) -> int:
    """How many attempt rows the archive holds, readable or not (0: none, or no table)."""
    try:
        found = archive.connection.execute("SELECT count(*) FROM puzzle_attempts").fetchone()
    except sqlite3.Error:
        return 0
    return int(found[0]) if found else 0


def attempt_pages(archive: Archive, *, page: int, after: tuple[object, int] | None = None) -> Iterator[AttemptsRead]:
    """The attempts stored after the row ``after`` (its time and id: ``AttemptsRead.key``), else
    the newest ``MAX_ATTEMPTS_READ``, oldest first, ``page`` rows a query: the window's
    rating keeper reads a page a frame."""
    connection = _plain(archive)
    columns = attempt_columns(archive)
    later = "WHERE (tried_at, id) > (?, ?)"
    try:
        bounds, key = later, tuple(after or ())
        if after is None:  # the newest MAX_ATTEMPTS_READ: from the oldest of them on
            first = connection.execute(
                "SELECT tried_at, id FROM puzzle_attempts ORDER BY tried_at DESC, id DESC LIMIT 1 OFFSET ?",
                (MAX_ATTEMPTS_READ - 1,),
            ).fetchone()
            bounds, key = ("", ()) if first is None else ("WHERE (tried_at, id) >= (?, ?)", tuple(first))
        while True:
            rows = connection.execute(
                f"SELECT {columns} FROM puzzle_attempts {bounds} ORDER BY tried_at, id LIMIT ?", (*key, page)
            ).fetchall()
            if not rows:
                return
            found = _readable(rows)
            bounds, key = later, (rows[-1][1], rows[-1][0])
            yield AttemptsRead(found, len(rows) - len(found), (rows[-1][1], rows[-1][0]))
            if len(rows) < page:
                return
    except sqlite3.Error:
        return


def attempts(archive: Archive) -> list[PuzzleAttempt]:
    """Every readable attempt (the newest ``MAX_ATTEMPTS_READ``), oldest first (a damaged
    row is left out: ``read_attempts`` counts them)."""
    return read_attempts(archive).attempts


def latest_attempts(archive: Archive, count: int) -> list[PuzzleAttempt]:
    """The newest ``count`` readable attempts, oldest first (a streak is counted back from them)."""
    return read_attempts(archive, newest=count).attempts


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


def set_own_themes(archive: Archive, puzzles: Iterable[Puzzle]) -> int:
    """Keep the themes found for the player's own puzzles (stored before puzzles had themes);
    return how many rows changed."""
    if not archive.writable:
        return 0
    changed = 0
    try:
        with archive.connection:
            for puzzle in puzzles:
                cursor = archive.connection.execute(
                    "UPDATE my_puzzles SET line = ? WHERE puzzle = ?", (puzzle.to_line(), puzzle.id)
                )
                changed += cursor.rowcount
    except sqlite3.Error:
        return 0
    return changed


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


@dataclass(frozen=True)
class ThemeTally:
    """Attempts counted together for the dashboard: those whose puzzle had ``themes`` (or,
    for attempts stored before themes were kept, those of ``puzzle``: the set says its
    themes), how many, and how many of them were solved without a hint."""

    puzzle: str
    themes: tuple[Theme, ...]
    attempts: int
    solved: int


def tally_pages(archive: Archive, *, page: int = 500) -> Iterator[list[ThemeTally]]:
    """Every attempt counted by theme, ``page`` rows a query in the order they were stored,
    counted by SQLite (a page takes a few milliseconds): the window reads a
    few pages a frame, so a hundred thousand attempts never hold up a frame.  A damaged row
    is left out."""
    after = 0
    while True:
        try:
            rows = archive.connection.execute(
                f"SELECT themes, CASE WHEN themes = '' THEN substr(puzzle, 1, 40) ELSE '' END,"
                " sum(ok), sum(ok AND solved = 1 AND hints = 0), max(id) FROM"
                f" (SELECT id, puzzle, {_themes_column(archive)} AS themes, solved, hints,"
                "   typeof(puzzle) = 'text' AND solved IN (0, 1) AND typeof(hints) = 'integer' AS ok"
                "  FROM puzzle_attempts WHERE id > ? ORDER BY id LIMIT ?)"
                " GROUP BY 1, 2",
                (after, page),
            ).fetchall()
        except sqlite3.Error:
            return
        if not rows:
            return
        after = max(int(row[4]) for row in rows)
        yield [
            ThemeTally(puzzle if isinstance(puzzle, str) else "", read_themes(themes), count, solved)
            for themes, puzzle, count, solved, _ in rows
            if count
        ]
