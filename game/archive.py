"""The game archive: every finished game, and the game in progress, in a SQLite file.

The archive lives in the preference folder (the caller passes it: this module knows
nothing of pygame) as ``games.sqlite3``.  The journal is WAL (two windows may read and
write at once) and every write is one transaction.

Versions: the schema has a version (``PRAGMA user_version``, ``SCHEMA_VERSION``).
- An older file is copied to ``games.sqlite3.schema-<N>.backup`` first, then brought up
  to date in one transaction: every step of ``MIGRATIONS`` or none.
- A newer file (a later version of the game wrote it) is never changed, renamed or
  replaced: its games are read through a read-only connection and listed, and this
  session's games wait in memory (below).  If its games cannot be read by this version,
  ``refusal`` says so in one line and nothing is listed.  An older file whose upgrade
  fails is kept the same way, as it was.

Nothing lost: a finished game is the player's record.
- A corrupt or unreadable file is moved aside (``games.sqlite3.corrupt-<time>``) with
  one warning, and a fresh archive is started.
- A write that fails (a full disk, a read-only folder, a database locked by another
  window for longer than ``BUSY_SECONDS``) keeps the game in ``pending``; ``warning``
  says why and how many wait, and they go in with the next write (or ``flush``).
- ``close`` puts the games still waiting in a recovery file beside the archive
  (``games.sqlite3.recovery-<time>-<pid>.jsonl``), which the next ``open`` of a writable
  archive takes in and deletes; it returns the games that could not go there either, for
  the front end to name.

    archive = Archive.open(folder)
    game_id = archive.add_game(rules, moves, result, first="human", second="Medium")
    archive.games(level="Medium", result=GameResult.FIRST)     # newest first
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

from game.archive_records import (
    HUMAN,
    MAX_MOVES_TEXT,
    MAX_NAME,
    MAX_REVIEW_TEXT,
    MAX_RULES_TEXT,
    DamagedGame,
    GameRecord,
    GameResult,
    InProgress,
    check_moves,
    check_name,
    check_record,
    record_from_row,
    rules_from_text,
    rules_to_text,
)
from game.notation import format_moves
from game.rules import Rules

__all__ = [
    "HUMAN",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Archive",
    "DamagedGame",
    "GameRecord",
    "GameResult",
    "InProgress",
    "default_folder",
    "migrate",
]

log = logging.getLogger(__name__)

FILE_NAME = "games.sqlite3"
BUSY_SECONDS = 2.0
"""How long a write waits for another window's transaction before it gives up (and the
game waits in memory for the next write)."""
APP_FOLDER = "connect4"


def default_folder() -> Path:
    """The preference folder without pygame (for the command line): ``CONNECT4_HOME``,
    else where SDL's ``get_pref_path("", "connect4")`` puts it on this system."""
    override = os.environ.get("CONNECT4_HOME")
    if override:
        return Path(override)
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", Path.home())) / APP_FOLDER
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support" / APP_FOLDER
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / APP_FOLDER


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
)
SCHEMA_VERSION = len(MIGRATIONS)


GAME_COLUMNS = ("id", "played_at", "rules", "first", "second", "moves", "result")
"""The columns a games table must have for its games to be read."""
OPTIONAL_COLUMNS = ("first_depth", "second_depth", "review")
"""Columns added by later schemas: read as NULL where a file lacks them."""
RECOVERY_PREFIX = FILE_NAME + ".recovery-"
RECOVERY_SUFFIX = ".jsonl"


def _record_to_row(record: GameRecord) -> dict:
    """The columns of a stored game (without its id)."""
    return {
        "played_at": record.played_at,
        "rules": rules_to_text(record.rules),
        "first": record.first,
        "second": record.second,
        "moves": record.moves_string,
        "result": record.result.value,
        "first_depth": record.first_depth,
        "second_depth": record.second_depth,
        "review": json.dumps(record.review) if record.review is not None else None,
    }


def _connect(path: Path | str) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    connection.row_factory = sqlite3.Row
    return connection


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A connection that can never write ``path``: ``mode=ro`` while a WAL file holds
    part of it, else ``immutable`` (no lock files made, so a read-only folder works)."""
    wal = path.with_name(path.name + "-wal")
    query = "mode=ro" if wal.exists() else "mode=ro&immutable=1"
    connection = sqlite3.connect(
        f"{path.resolve().as_uri()}?{query}", uri=True, isolation_level=None, check_same_thread=False
    )
    connection.row_factory = sqlite3.Row
    return connection


class NewerArchive(Exception):
    """The file was written by a newer version of the game (its schema is unknown here)."""

    def __init__(self, found: int):
        super().__init__(f"schema {found}; this version knows up to {SCHEMA_VERSION}")
        self.found = found


class UpgradeFailed(Exception):
    """An older file could not be brought up to date (it was left as it was)."""


def _user_version(connection: sqlite3.Connection) -> int:
    return int(connection.execute("PRAGMA user_version").fetchone()[0])


def header_version(path: Path) -> int | None:
    """The schema version in a SQLite file's header, read without SQLite (None: not a
    SQLite file, or unreadable); a WAL file may hold a newer one."""
    try:
        with open(path, "rb") as file:
            header = file.read(100)
    except OSError:
        return None
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        return None
    return int.from_bytes(header[60:64], "big", signed=True)


def migrate(connection: sqlite3.Connection, *, backup: Path | None = None) -> int:
    """Bring the schema up to ``SCHEMA_VERSION`` in one transaction; return the version
    found.  With ``backup`` (the database's file), an older file is first copied beside
    it.  Raises ``NewerArchive`` for a newer file and ``UpgradeFailed`` when a step (or
    the copy) fails: the file is then as it was."""
    found = _user_version(connection)
    if found > SCHEMA_VERSION:
        raise NewerArchive(found)
    if found == SCHEMA_VERSION:
        return found
    connection.execute("BEGIN IMMEDIATE")  # a lock error here is no failed upgrade: the caller waits
    try:
        current = _user_version(connection)  # another window may have migrated meanwhile
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
    part = target.with_name(target.name + ".part")
    try:
        source = _connect(path)
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
            part.unlink()
        except OSError:
            pass
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise UpgradeFailed(f"no backup copy could be made ({reason})") from error


def _games_select(connection: sqlite3.Connection) -> str | None:
    """The query that reads the games of this file (None: it has no games table this
    version can read)."""
    try:
        columns = {row[1] for row in connection.execute("PRAGMA table_info(games)")}
    except sqlite3.Error:
        return None
    if not set(GAME_COLUMNS) <= columns:
        return None
    return _select(columns)


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


def _select(columns: set[str]) -> str:
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


GAMES_SELECT = _select(set(GAME_COLUMNS + OPTIONAL_COLUMNS))


def _is_locked(error: sqlite3.Error) -> bool:
    return "locked" in str(error) or "busy" in str(error)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


class Archive:
    """The archive of one preference folder (or in memory: ``Archive.in_memory()``).

    ``warning`` holds the one sentence a front end shows when something went wrong
    (None when all is well); ``pending`` the finished games not yet written;
    ``writable`` is False when the file is only read (newer, read-only, not upgraded,
    locked at start); ``refusal`` says why its games cannot be listed at all.
    """

    def __init__(
        self,
        connection: sqlite3.Connection,
        path: Path | None,
        warning: str | None = None,
        *,
        writable: bool = True,
        home: Path | None = None,
    ):
        self.connection = connection
        self.path = path
        self.home = home if home is not None else (path.parent if path is not None else None)
        self.writable = writable
        self.pending: list[GameRecord] = []
        self.set_aside: Path | None = None
        self.refusal: str | None = None
        self.retry_path: Path | None = None
        """A database that was locked when opened: tried again before each write."""
        self.select = GAMES_SELECT
        self.unreadable = 0
        """How many stored games the last ``games()`` could not read (damaged rows)."""
        self._condition = warning
        self._write_error: str | None = None
        if warning:
            log.warning("%s", warning)

    @property
    def warning(self) -> str | None:
        """What went wrong, in one sentence, with how many finished games wait."""
        text = self._write_error or self._condition
        if text is None:
            return None
        waiting = len(self.pending)
        if waiting and self._write_error is not None:
            text += f": {_plural(waiting, 'finished game')} kept in memory until it can be written"
        elif waiting:
            text += f" ({_plural(waiting, 'finished game')} of this session kept beside it when it closes)"
        return text

    # -- opening ------------------------------------------------------------------------
    @classmethod
    def open(cls, folder: Path | str) -> Archive:
        """The archive in ``folder``: never raises; see ``warning`` and ``refusal``."""
        folder = Path(folder)
        path = folder / FILE_NAME
        try:
            folder.mkdir(parents=True, exist_ok=True)
            version = header_version(path) if path.is_file() else None
            if version is not None and version > SCHEMA_VERSION:
                return cls._kept_as_it_is(path, NewerArchive(version))
            if not os.access(folder, os.W_OK) or (path.is_file() and not os.access(path, os.W_OK)):
                return cls._kept_as_it_is(path, None)
            archive = cls(cls._open_file(path), path)
        except sqlite3.OperationalError as error:
            if _is_locked(error):
                return cls._memory(
                    f"the game archive {path} is locked by another program: games are kept until it is free",
                    path,
                    retry=True,
                )
            return cls._set_aside_and_start_again(path, error)
        except (NewerArchive, UpgradeFailed) as reason:
            return cls._kept_as_it_is(path, reason)
        except sqlite3.DatabaseError as error:  # not a database, or damaged
            return cls._set_aside_and_start_again(path, error)
        except OSError as error:
            return cls._memory(
                f"no game archive in {folder} ({error.strerror or error}): this session's games are not kept", None
            )
        archive.take_in_recovered()
        return archive

    @classmethod
    def _set_aside_and_start_again(cls, path: Path, error: Exception) -> Archive:
        moved = _set_aside(path)
        if moved is None:
            return cls._memory(f"the game archive {path} cannot be opened ({error}): games are not kept", path)
        warning = f"the game archive was unreadable ({error}): kept as {moved.name}, a new one started"
        try:
            archive = cls(cls._open_file(path), path, warning)
        except (sqlite3.Error, OSError, NewerArchive, UpgradeFailed) as again:
            return cls._memory(
                f"the game archive {path} cannot be made ({again}): this session's games are not kept", path
            )
        archive.set_aside = moved
        return archive

    @staticmethod
    def _open_file(path: Path) -> sqlite3.Connection:
        if path.exists() and not path.is_file():
            raise sqlite3.DatabaseError(f"{path.name} is not a file")
        connection = _connect(path)
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

    @classmethod
    def _memory(cls, warning: str, path: Path | None, *, retry: bool = False) -> Archive:
        """No file to read or write: this session's games wait in memory."""
        connection = _connect(":memory:")
        migrate(connection)
        archive = cls(connection, None, warning, writable=False, home=path.parent if path is not None else None)
        if retry:
            archive.retry_path = path
        return archive

    @classmethod
    def _kept_as_it_is(cls, path: Path, reason: Exception | None) -> Archive:
        """A file this session only reads (a newer version's, one that could not be
        upgraded, or a read-only one): its games listed, never a byte of it changed."""
        if isinstance(reason, NewerArchive):
            what = f"is from a newer version of the game ({reason})"
        elif isinstance(reason, UpgradeFailed):
            what = f"cannot be upgraded to this version's schema ({reason})"
        else:
            what = "is read-only"
        warning = f"the game archive {path} {what}: its games are shown, the file is left as it is"
        try:
            if not path.is_file():
                raise sqlite3.DatabaseError("no file")
            connection = _connect_read_only(path)
            select = _games_select(connection)
        except sqlite3.Error as error:
            archive = cls._memory(f"the game archive {path} {what} and cannot be read ({error})", path)
            return archive
        archive = cls(connection, None, warning, writable=False, home=path.parent)
        if select is None:
            archive.refusal = (
                f"the game archive {path} {what}, and this version cannot read its games; it was left as it is"
            )
            archive.select = GAMES_SELECT
        else:
            archive.select = select
        return archive

    @classmethod
    def in_memory(cls) -> Archive:
        """An archive that keeps nothing on disk (for tests and tools)."""
        connection = _connect(":memory:")
        migrate(connection)
        return cls(connection, None)

    def _reconnect(self) -> None:
        """Once the database that was locked at start opens, write into it."""
        path = self.retry_path
        if path is None:
            return
        try:
            connection = self._open_file(path)
        except (sqlite3.Error, OSError, NewerArchive, UpgradeFailed):
            return
        self.connection.close()
        self.connection, self.path, self.retry_path, self.writable = connection, path, None, True
        self._condition = None

    def close(self) -> list[GameRecord]:
        """Write the games that wait, put those that still cannot be written in a
        recovery file beside the archive, and close.  Returns the finished games kept
        nowhere (no file could be written): the front end names them."""
        try:
            self.flush()
        except sqlite3.Error as error:  # pragma: no cover - flush says its own errors
            log.warning("the game archive: %s", error)
        lost: list[GameRecord] = []
        if self.pending:
            lost = self._keep_in_recovery_file(self.pending)
            self.pending = []
        try:
            self.connection.close()
        except sqlite3.Error as error:
            log.warning("closing the game archive: %s", error)
        return lost

    # -- the recovery file ----------------------------------------------------------------
    def _keep_in_recovery_file(self, records: list[GameRecord]) -> list[GameRecord]:
        """Write ``records`` to a new recovery file beside the archive; return those kept
        nowhere (all of them when the file cannot be written)."""
        if self.home is None:
            return list(records)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.home / f"{RECOVERY_PREFIX}{stamp}-{os.getpid()}{RECOVERY_SUFFIX}"
        text = "".join(json.dumps(_record_to_row(r), sort_keys=True) + "\n" for r in records)
        try:
            with open(target, "x", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
        except OSError as error:
            log.warning("cannot write the recovery file %s: %s", target, error.strerror or error)
            try:
                target.unlink()
            except OSError:
                pass
            return list(records)
        log.warning("%s kept in %s: the next start takes them into the archive", _plural(len(records), "game"), target)
        return []

    def recovery_files(self) -> list[Path]:
        """The recovery files beside this archive, oldest first."""
        if self.home is None:
            return []
        try:
            return sorted(self.home.glob(f"{RECOVERY_PREFIX}*{RECOVERY_SUFFIX}"))
        except OSError:
            return []

    def take_in_recovered(self) -> int:
        """Store the games of the recovery files beside the archive (each once) and
        delete the files; return how many games went in."""
        if not self.writable:
            return 0
        taken = 0
        for file in self.recovery_files():
            records, bad = _read_recovery_file(file)
            try:
                self.connection.execute("BEGIN IMMEDIATE")
                try:
                    for record in records:
                        if not self._is_stored(record):
                            self._insert(record)
                            taken += 1
                    self.connection.execute("COMMIT")
                except BaseException:
                    if self.connection.in_transaction:
                        self.connection.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                log.warning("the games of %s cannot be stored yet (%s): the file is kept", file.name, error)
                continue
            if bad:
                self._condition = f"{_plural(bad, 'line')} of {file} could not be read: the file is kept"
                log.warning("%s", self._condition)
                continue
            try:
                file.unlink()
            except OSError:
                pass
        return taken

    def _is_stored(self, record: GameRecord) -> bool:
        row = _record_to_row(record)
        found = self.connection.execute(
            "SELECT 1 FROM games WHERE played_at = ? AND rules = ? AND first = ? AND second = ? AND moves = ?",
            (row["played_at"], row["rules"], row["first"], row["second"], row["moves"]),
        ).fetchone()
        return found is not None

    # -- writing ------------------------------------------------------------------------
    def _failed_write(self, error: sqlite3.Error) -> None:
        text = f"the game archive cannot be written ({error})"
        if text != self._write_error:
            log.warning("%s", text)
        self._write_error = text

    def _insert(self, record: GameRecord) -> int:
        row = _record_to_row(record)
        names = ", ".join(row)
        cursor = self.connection.execute(
            f"INSERT INTO games ({names}) VALUES ({', '.join('?' * len(row))})", tuple(row.values())
        )
        return int(cursor.lastrowid or 0)

    def flush(self) -> bool:
        """Write the games kept in memory; True when none is left waiting."""
        self._reconnect()
        if not self.pending:
            return True
        if not self.writable:
            return False
        try:
            self.connection.execute("BEGIN IMMEDIATE")
            try:
                for record in self.pending:
                    self._insert(record)
                self.connection.execute("DELETE FROM in_progress")
                self.connection.execute("COMMIT")
            except BaseException:
                if self.connection.in_transaction:  # SQLite ends some failed ones itself
                    self.connection.execute("ROLLBACK")
                raise
        except sqlite3.Error as error:
            self._failed_write(error)
            return False
        self.pending.clear()
        self._write_error = None
        return True

    def add_game(
        self,
        rules: Rules,
        moves: Sequence[int],
        result: GameResult,
        *,
        first: str = HUMAN,
        second: str = HUMAN,
        first_depth: int | None = None,
        second_depth: int | None = None,
        review: dict | None = None,
        played_at: float | None = None,
    ) -> int | None:
        """Store a finished game (and forget the game in progress) in one transaction.

        Returns its id, or None when it could not be written yet (it then waits in
        ``pending`` and goes in with the next write, or into the recovery file).

        Raises:
            ValueError: a name, depth, date, move or summary out of ``game.archive_records``'
            bounds (nothing is stored).
        """
        record = GameRecord(
            None,
            time.time() if played_at is None else played_at,
            rules,
            first,
            second,
            tuple(moves),
            result,
            first_depth,
            second_depth,
            review,
        )
        check_record(record)  # what this version could not read back is refused now
        self.pending.append(record)
        if not self.flush():
            return None
        row = self.connection.execute("SELECT max(id) FROM games").fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def set_review(self, game_id: int, summary: dict) -> bool:
        """Keep a game's review summary; False when the database would not take it."""
        if not self.writable:
            return False
        try:
            self.connection.execute("UPDATE games SET review = ? WHERE id = ?", (json.dumps(summary), game_id))
        except sqlite3.Error as error:
            self._failed_write(error)
            return False
        return True

    def save_in_progress(
        self, rules: Rules, moves: Sequence[int], *, first: str, second: str, settings: dict | None = None
    ) -> bool:
        """Keep the game being played (one row, replaced at every move)."""
        if not self.writable:
            return False
        try:
            self.connection.execute(
                "INSERT OR REPLACE INTO in_progress (slot, saved_at, rules, first, second, moves, settings)"
                " VALUES (1, ?, ?, ?, ?, ?, ?)",
                (
                    time.time(),
                    rules_to_text(rules),
                    first,
                    second,
                    format_moves(list(moves), rules),
                    json.dumps(settings or {}),
                ),
            )
        except sqlite3.Error as error:
            self._failed_write(error)
            return False
        return True

    def clear_in_progress(self) -> None:
        if not self.writable:
            return
        try:
            self.connection.execute("DELETE FROM in_progress")
        except sqlite3.Error as error:
            self._failed_write(error)

    # -- reading ------------------------------------------------------------------------
    def in_progress(self) -> InProgress | None:
        """The game left unfinished, if one was kept (and it has at least one move)."""
        try:
            row = self.connection.execute("SELECT * FROM in_progress WHERE slot = 1").fetchone()
            if row is None or not row["moves"]:
                return None
            rules = rules_from_text(row["rules"])
            settings = json.loads(row["settings"] or "{}")
            if not isinstance(settings, dict):
                raise ValueError("its settings are not a JSON object")
            return InProgress(
                float(row["saved_at"]),
                rules,
                check_name(row["first"], "player 1"),
                check_name(row["second"], "player 2"),
                check_moves(row["moves"], rules),
                settings,
            )
        except (sqlite3.Error, ValueError, TypeError, KeyError, IndexError) as error:
            log.warning("the unfinished game in the archive cannot be read: %s", error)
            return None

    def _stored_rows(self, where: str = "", parameters: tuple = ()) -> Iterator[sqlite3.Row]:
        if self.refusal is not None:
            return iter(())
        return iter(self.connection.execute(f"{self.select} {where}", parameters).fetchall())

    def games(
        self, *, level: str | None = None, result: str | None = None, limit: int | None = None
    ) -> list[GameRecord]:
        """Stored games, newest first, with the ones still waiting to be written.

        ``level``: only games with that computer level on either side (``HUMAN``: games
        between two people); ``result``: a ``GameResult`` value, or "win"/"draw"/"loss"
        from the person's side.
        """
        try:
            rows = list(self._stored_rows("ORDER BY played_at DESC, id DESC"))
        except sqlite3.Error as error:
            text = f"the game archive cannot be read ({error})"
            if text != self._condition:
                log.warning("%s", text)
            self._condition = text
            rows = []
        records = sorted(self.pending, key=lambda r: -r.played_at)
        unreadable = 0
        for row in rows:
            try:
                records.append(record_from_row(row))
            except DamagedGame as error:  # one bad row does not hide the others
                unreadable += 1
                log.debug("%s", error)
        if unreadable != self.unreadable and unreadable:
            log.warning("%s", _plural(unreadable, "stored game") + " could not be read")
        self.unreadable = unreadable
        if level is not None:
            records = [
                r for r in records if (level == HUMAN and r.first == r.second == HUMAN) or level in (r.first, r.second)
            ]
        if result is not None:
            records = [r for r in records if r.result.value == result or r.person_result() == result]
        return records[:limit] if limit is not None else records

    def unreadable_note(self) -> str | None:
        """ "2 stored games could not be read" after a ``games()`` that skipped some."""
        if not self.unreadable:
            return None
        return f"{_plural(self.unreadable, 'stored game')} could not be read"

    def game(self, game_id: int) -> GameRecord | None:
        """Stored game ``game_id`` (None: there is none).

        Raises:
            DamagedGame: its row cannot be read; the message says why.
        """
        try:
            rows = list(self._stored_rows("WHERE id = ?", (game_id,)))
        except sqlite3.Error:
            return None
        return record_from_row(rows[0]) if rows else None

    def levels(self) -> list[str]:
        """The computer levels met in stored games, by name."""
        names = {name for r in self.games() for name in (r.first, r.second) if name != HUMAN}
        return sorted(names)

    def stats(self) -> dict[str, dict[str, int]]:
        """The person's wins, draws and losses against each computer level."""
        table: dict[str, dict[str, int]] = {}
        for record in self.games():
            level, result = record.level(), record.person_result()
            if level is None or result is None:
                continue
            table.setdefault(level, {"win": 0, "draw": 0, "loss": 0})[result] += 1
        return table

    def history(self, level: str) -> list[str]:
        """The person's results against ``level``, oldest first ("win"/"draw"/"loss")."""
        return [r.person_result() or "" for r in reversed(self.games(level=level)) if r.level() == level]

    def export_text(self) -> str:
        """Every game as PGN-like text: tag lines, then the move string."""
        parts = []
        for record in reversed(self.games()):
            parts.append(
                "\n".join(
                    [
                        f'[Id "{record.id}"]',
                        f'[Date "{record.date_text}"]',
                        f'[Rules "{record.rules.describe()}"]',
                        f'[Player1 "{record.first}"]',
                        f'[Player2 "{record.second}"]',
                        f'[Result "{record.result.text}"]',
                        "",
                        record.moves_string,
                        "",
                    ]
                )
            )
        return "\n".join(parts)


def _read_recovery_file(path: Path) -> tuple[list[GameRecord], int]:
    """The games of a recovery file, and how many of its lines could not be read."""
    records: list[GameRecord] = []
    bad = 0
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return [], 1
    for line in lines:
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if not isinstance(row, dict):
                raise ValueError("not an object")
            records.append(record_from_row({"id": None, **row}))
        except (ValueError, KeyError, TypeError):
            bad += 1
    return records, bad


def _set_aside(path: Path) -> Path | None:
    """Move a damaged archive (and its WAL files) next to itself; None when it cannot."""
    if not os.path.lexists(path):
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while os.path.lexists(target):
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
        counter += 1
    try:
        os.replace(path, target)
    except OSError as error:
        log.warning("cannot move the damaged archive %s aside: %s", path, error)
        return None
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            try:
                os.replace(extra, target.with_name(target.name + suffix))
            except OSError:
                pass
    return target
