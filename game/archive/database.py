"""The archive's file: its schema and migrations, the connections that read and write
it, and what is done with a file that cannot be used as it is (``game.archive.store`` decides
when).  See ``game.archive.store`` for the rules: an older file is backed up and migrated in one
transaction, a newer one only ever read, a damaged one moved aside.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from game import regular_file
from game.records import MAX_ID, MAX_MOVES_TEXT, MAX_NAME, MAX_REVIEW_TEXT, MAX_RULES_TEXT
from game.regular_file import open_regular, regular_status, remove_own, writable_target

log = logging.getLogger("game.archive.store")

FILE_NAME = "games.sqlite3"
BUSY_SECONDS = 2.0
"""How long a write waits for another window's transaction before it gives up (and the
game waits in memory for the next write)."""

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the finished games
    (
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            played_at REAL NOT NULL,
            rules TEXT NOT NULL,
            first TEXT NOT NULL,
            second TEXT NOT NULL,
            moves TEXT NOT NULL,
            result TEXT NOT NULL
        )""",
        "CREATE INDEX games_played_at ON games (played_at)",
    ),
    # 2: each side's search depth (for the review's "a depth-N search ...") and the review
    (
        "ALTER TABLE games ADD COLUMN first_depth INTEGER",
        "ALTER TABLE games ADD COLUMN second_depth INTEGER",
        "ALTER TABLE games ADD COLUMN review TEXT",
    ),
    # 3: the game in progress (one row), offered again after a crash
    (
        """CREATE TABLE in_progress (
            slot INTEGER PRIMARY KEY CHECK (slot = 1),
            saved_at REAL NOT NULL,
            rules TEXT NOT NULL,
            first TEXT NOT NULL,
            second TEXT NOT NULL,
            moves TEXT NOT NULL,
            settings TEXT NOT NULL DEFAULT '{}'
        )""",
    ),
    # 4: a game in progress per window (slot: the window's id; owner: its process), so
    # the games of two windows that crashed can both be resumed
    (
        """CREATE TABLE in_progress_by_window (
            slot TEXT PRIMARY KEY,
            owner TEXT,
            saved_at REAL NOT NULL,
            rules TEXT NOT NULL,
            first TEXT NOT NULL,
            second TEXT NOT NULL,
            moves TEXT NOT NULL,
            settings TEXT NOT NULL DEFAULT '{}'
        )""",
        "INSERT INTO in_progress_by_window"
        " SELECT 'schema-3', NULL, saved_at, rules, first, second, moves, settings FROM in_progress",
        "DROP TABLE in_progress",
        "ALTER TABLE in_progress_by_window RENAME TO in_progress",
    ),
    # 5: the course's progress (game.archive.course_progress): one row per lesson tried
    (
        """CREATE TABLE course_progress (
            lesson TEXT PRIMARY KEY,
            attempts INTEGER NOT NULL DEFAULT 0,
            solved_at REAL,
            updated_at REAL NOT NULL
        )""",
    ),
    # 6: puzzles: every attempt (what the player's rating is made of, with the games), the
    # player's own puzzles, found in their reviewed games, and the games already looked at
    (
        """CREATE TABLE puzzle_attempts (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            tried_at REAL NOT NULL,
            puzzle TEXT NOT NULL,
            puzzle_rating INTEGER NOT NULL,
            solved INTEGER NOT NULL,
            hints INTEGER NOT NULL DEFAULT 0
        )""",
        "CREATE INDEX puzzle_attempts_tried_at ON puzzle_attempts (tried_at)",
        """CREATE TABLE my_puzzles (
            puzzle TEXT PRIMARY KEY,
            game_id INTEGER,
            found_at REAL NOT NULL,
            line TEXT NOT NULL
        )""",
        "CREATE TABLE my_puzzle_games (game_id INTEGER PRIMARY KEY, looked_at REAL NOT NULL)",
    ),
    # 7: each attempt's puzzle themes (the dashboard counts it under them) and the seconds it
    # took; Storm's and Streak's runs (unrated: their score, the best one is the record)
    (
        "ALTER TABLE puzzle_attempts ADD COLUMN themes TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE puzzle_attempts ADD COLUMN seconds REAL",
        """CREATE TABLE puzzle_runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            ended_at REAL NOT NULL,
            score INTEGER NOT NULL,
            missed INTEGER NOT NULL,
            best_combo INTEGER NOT NULL,
            seconds REAL NOT NULL
        )""",
        "CREATE INDEX puzzle_runs_kind_score ON puzzle_runs (kind, score)",
    ),
)
SCHEMA_VERSION = len(MIGRATIONS)


GAME_COLUMNS = ("id", "played_at", "rules", "first", "second", "moves", "result")
"""The columns a games table must have for its games to be read."""
OPTIONAL_COLUMNS = ("first_depth", "second_depth", "review")
"""Columns added by later schemas: read as NULL where a file lacks them."""


class NotUtf8(bytes):
    """A text column whose bytes are not UTF-8 (a bit flip, another program's write): not a
    ``str``, so the row's checks refuse that one row instead of the whole listing failing
    ("Could not decode to UTF-8 column")."""


def read_text(raw: bytes) -> str | NotUtf8:
    """A stored text as ``str``, or its bytes marked as not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return NotUtf8(raw)


def connect(path: Path | str) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    connection.row_factory = sqlite3.Row
    connection.text_factory = read_text
    return connection


def connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that can never write ``path``: ``mode=ro`` while a WAL file holds
    part of it, else ``immutable`` (no lock files made, so a read-only folder works)."""
    wal = path.with_name(path.name + "-wal")
    query = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    connection = sqlite3.connect(
        f"{path.resolve().as_uri()}?{query}", uri=True, isolation_level=None, check_same_thread=False
    )
    connection.row_factory = sqlite3.Row
    connection.text_factory = read_text
    return connection


class NewerArchive(Exception):
    """The file was written by a newer version of the game (its schema is unknown here)."""

    def __init__(self, found: int):
        super().__init__(f"schema {found}; this version knows up to {SCHEMA_VERSION}")
        self.found = found


class UpgradeFailed(Exception):
    """An older file could not be brought up to date (it was left as it was)."""


def user_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def header_version(path: Path) -> int | None:
    """The schema version in a SQLite file's header, read without SQLite (None: not a
    SQLite file, or unreadable); a WAL file may hold a newer one."""
    try:
        descriptor, _status = open_regular(path)
    except OSError:
        return None
    with open(descriptor, "rb") as file:
        header = file.read(100)
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        return None
    return int.from_bytes(header[60:64], "big", signed=True)


def companions(path: Path) -> tuple[Path, Path]:
    """The WAL files SQLite keeps beside the archive (``-wal``, ``-shm``)."""
    return path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def migrate(connection: sqlite3.Connection, *, backup: Path | None = None) -> int:
    """Bring the schema up to ``SCHEMA_VERSION`` in one transaction; return the version
    found.  With ``backup`` (the database's file), an older file is first copied beside
    it.  Raises ``NewerArchive`` for a newer file and ``UpgradeFailed`` when a step (or
    the copy) fails: the file is then as it was."""
    found = user_version(connection)
    if found > SCHEMA_VERSION:
        raise NewerArchive(found)
    if found == SCHEMA_VERSION:
        return found
    connection.execute("BEGIN IMMEDIATE")  # a lock error here is no failed upgrade: the caller waits
    try:
        current = user_version(connection)  # another window may have migrated meanwhile
        if current > SCHEMA_VERSION:
            raise NewerArchive(current)
        if current < SCHEMA_VERSION:
            if current > 0 and backup is not None:
                _back_up(backup, current)
            try:
                for version in range(current, SCHEMA_VERSION):
                    for statement in MIGRATIONS[version]:
                        connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            except sqlite3.Error as error:
                raise UpgradeFailed(f"step {version + 1} failed: {error}") from error
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return found


def backup_path(path: Path, version: int) -> Path:
    """Where the copy of a schema-``version`` archive goes before its upgrade."""
    return path.with_name(f"{path.name}.schema-{version}.backup")


def _back_up(path: Path, version: int) -> None:
    """Copy the archive (as committed: the caller holds the write lock) beside itself."""
    target = backup_path(path, version)
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        writable_target(target)  # a FIFO or a device of its name is not replaced
        regular_status(part)
        source = connect(path)
        try:
            copy = sqlite3.connect(str(part))
            try:
                source.backup(copy)
            finally:
                copy.close()
        finally:
            source.close()
        os.replace(part, target)
    except (sqlite3.Error, OSError) as error:
        try:
            remove_own(part)
        except OSError:
            pass
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UpgradeFailed(f"no backup copy could be made ({reason})") from error


def games_select(connection: sqlite3.Connection) -> str | None:
    """The query that reads the games of this file (None: it has no games table this
    version can read)."""
    try:
        columns = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
    except sqlite3.Error:
        return None
    if not set(GAME_COLUMNS) <= columns:
        return None
    return select_for(columns)


BOUNDS = {
    "rules": MAX_RULES_TEXT,
    "first": MAX_NAME,
    "second": MAX_NAME,
    "moves": MAX_MOVES_TEXT,
    "result": 8,
    "review": MAX_REVIEW_TEXT,
}
"""Text columns are read at most one character past these lengths (a damaged row of a
gigabyte costs no more to refuse than a short one)."""


def select_for(columns: set[str]) -> str:
    """The query reading the games of a table with these columns (missing optional
    columns read as NULL; text read at most one past its bound)."""
    parts = []
    for name in GAME_COLUMNS + OPTIONAL_COLUMNS:
        if name not in columns:
            parts.append(f"NULL AS {name}")
        elif name in BOUNDS:
            parts.append(f"substr({name}, 1, {BOUNDS[name] + 1}) AS {name}")
        else:
            parts.append(name)
    return f"SELECT {', '.join(parts)} FROM games"


GAMES_SELECT = select_for(set(GAME_COLUMNS + OPTIONAL_COLUMNS))


def id_when_exhausted(connection: sqlite3.Connection) -> int | None:
    """The id to give the next game explicitly, or None to let SQLite choose (the usual case).

    AUTOINCREMENT gives a new row an id past the largest ever used (a row's, or
    ``sqlite_sequence``'s after a delete), and past ``MAX_ID`` it fails every insert with
    "database or disk is full": one row at ``MAX_ID`` (another program, a bit flip) would stop
    every save.  Then the lowest free id is chosen.  Chosen over renumbering the games at a
    migration: an id is what a player types (``review ID``) and an export names (``[Id]``),
    so the stored games keep theirs; only the new game gets an id below the largest.
    """
    try:
        row = connection.execute(
            "SELECT max(coalesce((SELECT max(id) FROM games), 0),"
            " coalesce((SELECT max(seq) FROM sqlite_sequence WHERE name = 'games'), 0))"
        ).fetchone()
    except sqlite3.OperationalError:  # no sqlite_sequence: no AUTOINCREMENT, SQLite finds a free id itself
        return None
    if row is None or type(row[0]) is not int or row[0] < MAX_ID:
        return None
    free = connection.execute(
        "SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM games WHERE id = 1)"
        " UNION ALL SELECT id + 1 FROM games AS g WHERE id >= 1 AND id < ?"
        " AND NOT EXISTS (SELECT 1 FROM games WHERE id = g.id + 1)"
        " ORDER BY 1 LIMIT 1",
        (MAX_ID,),
    ).fetchone()
    if free is None:
        raise sqlite3.OperationalError("every id of the games table is taken")
    return int(free[0])


def open_for_writing(path: Path) -> sqlite3.Connection:
    """A read-write connection to the archive at ``path``: WAL, every commit synced,
    checked, migrated (after a backup copy).  Raises what ``migrate`` raises, and
    ``sqlite3.DatabaseError`` for a damaged file."""
    if path.exists() and not path.is_file():
        raise sqlite3.DatabaseError(f"{path.name} is not a file")
    connection = connect(path)
    try:
        connection.execute("PRAGMA journal_mode = WAL").fetchone()
        connection.execute("PRAGMA synchronous = FULL")  # a finished game survives a power cut
        check = connection.execute("PRAGMA quick_check").fetchone()[0]
        if check != "ok":
            raise sqlite3.DatabaseError(f"integrity check: {check}")
        migrate(connection, backup=path)
    except BaseException:
        connection.close()
        raise
    return connection


@contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any error (SQLite ends some
    failed transactions itself: then there is nothing to roll back)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise


def is_locked(error: sqlite3.Error) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def set_aside(path: Path) -> Path | None:
    """Move a damaged archive (and its WAL files) next to itself; None when it cannot (a
    link's regular target is copied, the link kept; anything but a regular file stays)."""
    try:
        target = regular_file.set_aside(path)
    except FileNotFoundError:
        return None
    except OSError as error:
        log.warning("cannot move the damaged archive %s aside: %s", path, error.strerror or error)
        return None
    for extra, suffix in zip(companions(path), ("-wal", "-shm"), strict=True):
        try:
            if regular_status(extra) is not None and not os.path.islink(extra):
                os.replace(extra, target.with_name(target.name + suffix))
        except OSError:
            pass
    return target
