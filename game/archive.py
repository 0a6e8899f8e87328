"""The game archive: every finished game, and the game in progress, in a SQLite file.

The archive lives in the preference folder (the caller passes it: this module knows
nothing of pygame) as ``games.sqlite3``.  The schema has a version (``PRAGMA
user_version``) and migrations that bring an older file up to date; the journal is WAL
(two windows may read and write at once) and every write is one transaction.

A finished game is the player's record, so it is never lost:
- a corrupt or unreadable file is moved aside (``games.sqlite3.corrupt-<time>``) with
  one warning, and a fresh archive is started;
- a write that fails (a full disk, a read-only folder, a database locked by another
  window for longer than ``BUSY_SECONDS``) keeps the game in memory, says so once, and
  writes it with the next game (or ``flush``) once the database takes writes again;
- a folder where no database can be made at all gives an archive in memory, with one
  warning: the session's games are listed, and the warning says they are not kept.

    archive = Archive.open(folder)
    game_id = archive.add_game(rules, moves, result, first="human", second="Medium")
    archive.games(level="Medium", result=GameResult.FIRST)     # newest first
"""

from __future__ import annotations

import enum
import json
import logging
import os
import sqlite3
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from game.notation import format_moves, parse_moves
from game.rules import MAX, Mode, Rules

log = logging.getLogger(__name__)

FILE_NAME = "games.sqlite3"
BUSY_SECONDS = 2.0
"""How long a write waits for another window's transaction before it gives up (and the
game waits in memory for the next write)."""
HUMAN = "human"
"""The ``first`` / ``second`` of a side a person played."""

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


class GameResult(str, enum.Enum):
    """How a stored game ended."""

    FIRST = "1"  # player 1 won
    SECOND = "2"  # player 2 won
    DRAW = "draw"

    @classmethod
    def of_winner(cls, winner: int | None) -> GameResult:
        if winner is None:
            return cls.DRAW
        return cls.FIRST if winner == MAX else cls.SECOND

    @property
    def text(self) -> str:
        return {"1": "player 1 won", "2": "player 2 won", "draw": "draw"}[self.value]


def rules_to_text(rules: Rules) -> str:
    return json.dumps(
        {
            "rows": rules.rows,
            "cols": rules.cols,
            "connect": rules.connect,
            "gravity": rules.gravity,
            "mode": rules.mode.value,
        }
    )


def rules_from_text(text: str) -> Rules:
    data = json.loads(text)
    return Rules(data["rows"], data["cols"], data["connect"], bool(data["gravity"]), Mode(data["mode"]))


@dataclass(frozen=True)
class GameRecord:
    """One stored game.  ``moves`` are 0-based move ids; ``first``/``second`` are
    ``HUMAN`` or a level's name; the depths are the levels' search depths (None: a person)."""

    id: int | None
    played_at: float
    rules: Rules
    first: str
    second: str
    moves: tuple[int, ...]
    result: GameResult
    first_depth: int | None = None
    second_depth: int | None = None
    review: dict | None = field(default=None, compare=False)

    @property
    def moves_string(self) -> str:
        return format_moves(list(self.moves), self.rules)

    @property
    def date_text(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.played_at))

    def level(self) -> str | None:
        """The computer's level in a game against a person (None otherwise)."""
        if self.first == HUMAN and self.second != HUMAN:
            return self.second
        if self.second == HUMAN and self.first != HUMAN:
            return self.first
        return None

    def person_result(self) -> str | None:
        """ "win" / "draw" / "loss" for the person in a game against the computer."""
        if self.level() is None:
            return None
        if self.result is GameResult.DRAW:
            return "draw"
        person_first = self.first == HUMAN
        return "win" if (self.result is GameResult.FIRST) == person_first else "loss"

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "date": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(self.played_at)),
            "rules": self.rules.describe(),
            "first": self.first,
            "second": self.second,
            "moves": self.moves_string,
            "result": self.result.value,
            "review": self.review,
        }


@dataclass(frozen=True)
class InProgress:
    """The game being played when the program last stopped."""

    saved_at: float
    rules: Rules
    first: str
    second: str
    moves: tuple[int, ...]
    settings: dict


def _row_to_record(row: sqlite3.Row) -> GameRecord:
    rules = rules_from_text(row["rules"])
    return GameRecord(
        id=row["id"],
        played_at=row["played_at"],
        rules=rules,
        first=row["first"],
        second=row["second"],
        moves=tuple(parse_moves(row["moves"], rules)),
        result=GameResult(row["result"]),
        first_depth=row["first_depth"],
        second_depth=row["second_depth"],
        review=json.loads(row["review"]) if row["review"] else None,
    )


def _connect(path: Path | str) -> sqlite3.Connection:
    connection = sqlite3.connect(str(path), timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    connection.row_factory = sqlite3.Row
    return connection


def migrate(connection: sqlite3.Connection) -> int:
    """Bring the schema up to ``SCHEMA_VERSION``, one transaction per step; return the
    version found.  A file from a newer version is refused (``sqlite3.DatabaseError``)."""
    found = connection.execute("PRAGMA user_version").fetchone()[0]
    if found > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(f"the archive is from a newer version (schema {found} > {SCHEMA_VERSION})")
    for version in range(found, SCHEMA_VERSION):
        connection.execute("BEGIN IMMEDIATE")
        try:
            current = connection.execute("PRAGMA user_version").fetchone()[0]
            if current == version:  # another window may have migrated meanwhile
                for statement in MIGRATIONS[version]:
                    connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {version + 1}")
            connection.execute("COMMIT")
        except BaseException:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise
    return found


def _is_locked(error: sqlite3.Error) -> bool:
    return "locked" in str(error) or "busy" in str(error)


class Archive:
    """The archive of one preference folder (or in memory: ``Archive.in_memory()``).

    ``warning`` holds the one sentence a front end shows when something went wrong
    (None when all is well); ``pending`` the finished games not yet written.
    """

    def __init__(self, connection: sqlite3.Connection, path: Path | None, warning: str | None = None):
        self.connection = connection
        self.path = path
        self.warning = warning
        self.pending: list[GameRecord] = []
        self.set_aside: Path | None = None
        self._warned = warning is not None
        if warning:
            log.warning("%s", warning)

    # -- opening ------------------------------------------------------------------------
    @classmethod
    def open(cls, folder: Path | str) -> Archive:
        """The archive in ``folder``: never raises; see ``warning``."""
        path = Path(folder) / FILE_NAME
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
            if not os.access(folder, os.W_OK) or (path.is_file() and not os.access(path, os.W_OK)):
                return cls._read_only(path)
            return cls(cls._open_file(path), path)
        except sqlite3.OperationalError as error:
            if _is_locked(error):
                return cls._memory(
                    f"the game archive {path} is locked by another program: games are kept until it is free", path
                )
            moved = _set_aside(path)
            if moved is None:
                return cls._memory(
                    f"the game archive {path} cannot be opened ({error}): this session's games are not kept"
                )
            return cls._fresh(path, moved, error)
        except sqlite3.DatabaseError as error:  # not a database, or damaged
            moved = _set_aside(path)
            if moved is None:
                return cls._memory(f"the game archive {path} is damaged and cannot be moved aside: games are not kept")
            return cls._fresh(path, moved, error)
        except OSError as error:
            return cls._memory(
                f"no game archive in {folder} ({error.strerror or error}): this session's games are not kept"
            )

    @classmethod
    def _fresh(cls, path: Path, moved: Path, error: Exception) -> Archive:
        warning = f"the game archive was unreadable ({error}): kept as {moved.name}, a new one started"
        try:
            archive = cls(cls._open_file(path), path, warning)
        except (sqlite3.Error, OSError) as again:
            return cls._memory(f"the game archive {path} cannot be made ({again}): this session's games are not kept")
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
            migrate(connection)
        except BaseException:
            connection.close()
            raise
        return connection

    @classmethod
    def _memory(cls, warning: str, path: Path | None = None) -> Archive:
        connection = _connect(":memory:")
        migrate(connection)
        archive = cls(connection, None, warning)
        archive.retry_path = path
        return archive

    @classmethod
    def _read_only(cls, path: Path) -> Archive:
        """A folder (or file) that cannot be written: its games copied into memory."""
        warning = f"the game archive {path} is read-only: this session's games are shown but not kept"
        connection = _connect(":memory:")
        if path.is_file():
            try:
                source = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
                try:
                    source.backup(connection)
                finally:
                    source.close()
            except sqlite3.Error as error:
                warning = f"the game archive {path} is read-only and unreadable ({error}): games are not kept"
                connection.close()
                connection = _connect(":memory:")
        try:
            migrate(connection)
        except sqlite3.Error:
            connection.close()
            connection = _connect(":memory:")
            migrate(connection)
        return cls(connection, None, warning)

    @classmethod
    def in_memory(cls) -> Archive:
        """An archive that keeps nothing on disk (for tests and tools)."""
        connection = _connect(":memory:")
        migrate(connection)
        return cls(connection, None)

    retry_path: Path | None = None
    """A database that was locked when opened: tried again before each write."""

    def _reconnect(self) -> None:
        """Once the locked database opens, move this session's games into it."""
        path = self.retry_path
        if path is None:
            return
        try:
            connection = self._open_file(path)
        except (sqlite3.Error, OSError):
            return
        session = [_row_to_record(row) for row in self.connection.execute("SELECT * FROM games ORDER BY id")]
        self.connection.close()
        self.connection, self.path, self.retry_path = connection, path, None
        self.pending = session + self.pending

    def close(self) -> None:
        self.flush()
        self.connection.close()

    # -- writing ------------------------------------------------------------------------
    def _warn_once(self, text: str) -> None:
        if not self._warned:
            self._warned = True
            self.warning = text
            log.warning("%s", text)

    def _insert(self, record: GameRecord) -> int:
        cursor = self.connection.execute(
            "INSERT INTO games (played_at, rules, first, second, moves, result, first_depth, second_depth, review)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.played_at,
                rules_to_text(record.rules),
                record.first,
                record.second,
                record.moves_string,
                record.result.value,
                record.first_depth,
                record.second_depth,
                json.dumps(record.review) if record.review is not None else None,
            ),
        )
        return int(cursor.lastrowid or 0)

    def flush(self) -> bool:
        """Write the games kept in memory; True when none is left waiting."""
        self._reconnect()
        if not self.pending:
            return True
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
            self._warn_once(
                f"the game archive cannot be written ({error}): {len(self.pending)} game(s) kept until it can"
            )
            return False
        self.pending.clear()
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
        ``pending`` and goes in with the next write).
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
        self.pending.append(record)
        if not self.flush():
            return None
        row = self.connection.execute("SELECT max(id) FROM games").fetchone()
        return int(row[0]) if row and row[0] is not None else None

    def set_review(self, game_id: int, summary: dict) -> bool:
        """Keep a game's review summary; False when the database would not take it."""
        try:
            self.connection.execute("UPDATE games SET review = ? WHERE id = ?", (json.dumps(summary), game_id))
        except sqlite3.Error as error:
            self._warn_once(f"the game archive cannot be written ({error})")
            return False
        return True

    def save_in_progress(
        self, rules: Rules, moves: Sequence[int], *, first: str, second: str, settings: dict | None = None
    ) -> bool:
        """Keep the game being played (one row, replaced at every move)."""
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
            self._warn_once(f"the game archive cannot be written ({error})")
            return False
        return True

    def clear_in_progress(self) -> None:
        try:
            self.connection.execute("DELETE FROM in_progress")
        except sqlite3.Error as error:
            self._warn_once(f"the game archive cannot be written ({error})")

    # -- reading ------------------------------------------------------------------------
    def in_progress(self) -> InProgress | None:
        """The game left unfinished, if one was kept (and it has at least one move)."""
        try:
            row = self.connection.execute("SELECT * FROM in_progress WHERE slot = 1").fetchone()
            if row is None or not row["moves"]:
                return None
            rules = rules_from_text(row["rules"])
            return InProgress(
                row["saved_at"],
                rules,
                row["first"],
                row["second"],
                tuple(parse_moves(row["moves"], rules)),
                json.loads(row["settings"] or "{}"),
            )
        except (sqlite3.Error, ValueError, KeyError) as error:
            log.warning("the unfinished game in the archive cannot be read: %s", error)
            return None

    def games(
        self, *, level: str | None = None, result: str | None = None, limit: int | None = None
    ) -> list[GameRecord]:
        """Stored games, newest first, with the ones still waiting to be written.

        ``level``: only games with that computer level on either side (``HUMAN``: games
        between two people); ``result``: a ``GameResult`` value, or "win"/"draw"/"loss"
        from the person's side.
        """
        try:
            rows = self.connection.execute("SELECT * FROM games ORDER BY played_at DESC, id DESC").fetchall()
        except sqlite3.Error as error:
            self._warn_once(f"the game archive cannot be read ({error})")
            rows = []
        records = sorted(self.pending, key=lambda r: -r.played_at)
        for row in rows:
            try:
                records.append(_row_to_record(row))
            except (ValueError, KeyError) as error:  # one bad row does not hide the others
                log.warning("game %s in the archive cannot be read: %s", row["id"], error)
        if level is not None:
            records = [
                r for r in records if (level == HUMAN and r.first == r.second == HUMAN) or level in (r.first, r.second)
            ]
        if result is not None:
            records = [r for r in records if r.result.value == result or r.person_result() == result]
        return records[:limit] if limit is not None else records

    def game(self, game_id: int) -> GameRecord | None:
        try:
            row = self.connection.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        except sqlite3.Error:
            return None
        return _row_to_record(row) if row is not None else None

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
