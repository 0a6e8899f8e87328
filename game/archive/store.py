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
  (``game.archive.recovery``), which the next ``open`` of a writable archive takes in
  and deletes; it returns the games that could not go there either, for the front end
  to name.
- Every row is checked as it is read (``game.records``): a damaged one is
  skipped and counted (``unreadable``), never a crash.
- Each window keeps its game in progress in its own row (``game.archive.windows``):
  after a crash of two windows both games can be resumed.

The pieces: ``game.records`` (what is stored, and its checks),
``game.archive.database`` (schema, migrations, connections), ``game.archive.recovery`` (the
recovery files), ``game.archive.windows`` (whose game in progress a row is).

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
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from game.archive.database import (
    BUSY_SECONDS,
    FILE_NAME,
    GAMES_SELECT,
    MIGRATIONS,
    SCHEMA_VERSION,
    NewerArchive,
    UpgradeFailed,
    companions,
    connect,
    connect_read_only,
    games_select,
    header_version,
    id_when_exhausted,
    is_locked,
    migrate,
    open_for_writing,
    set_aside,
    transaction,
)
from game.archive.recovery import lost_game_line, read_recovery_file, recovery_files, write_recovery_file
from game.archive.windows import row_slot, unfinished_rows
from game.game_file import games_text, record_game
from game.notation import format_moves
from game.processes import this_process
from game.records import (
    HUMAN,
    DamagedGame,
    GameRecord,
    GameResult,
    InProgress,
    Unfinished,
    check_record,
    record_from_row,
    record_to_row,
    rules_to_text,
)
from game.regular_file import NotRegularFile, regular_status, remove_own, write_export
from game.rules import Rules

__all__ = [
    "BUSY_SECONDS",
    "FILE_NAME",
    "HUMAN",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "Archive",
    "DamagedGame",
    "GameRecord",
    "GameResult",
    "InProgress",
    "default_folder",
    "import_games",
    "lost_game_line",
    "migrate",
    "write_export",
]

log = logging.getLogger(__name__)

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


def _not_a_file(path: Path) -> str | None:
    """What to say when the archive's name, or a WAL file's, is taken by something that is
    not a regular file (never opened, moved or replaced); None when they are files or absent."""
    for each in (path, *companions(path)):
        try:
            regular_status(each)
        except NotRegularFile as error:
            return (
                f"the game archive {each} is {error.strerror}: it is left as it is, and this session's games "
                "are kept beside it when the game closes"
            )
        except OSError:  # no folder yet, or none can be: said where the folder is made
            return None
    return None


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
        self.slot = uuid.uuid4().hex
        """This window's rows of ``in_progress``, one per kind of game (``windows.row_slot``)."""
        self._finishing: set[Unfinished] = set()
        """The kinds of the finished games waiting in ``pending``: their game in progress
        is forgotten in the transaction that stores them."""
        self.unreadable = 0
        self._last_id: int | None = None
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
        if (in_the_way := _not_a_file(path)) is not None:
            return cls._memory(in_the_way, path)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            version = header_version(path) if path.is_file() else None
            if version is not None and version > SCHEMA_VERSION:
                return cls._kept_as_it_is(path, NewerArchive(version))
            if not os.access(folder, os.W_OK) or (path.is_file() and not os.access(path, os.W_OK)):
                return cls._kept_as_it_is(path, None)
            archive = cls(open_for_writing(path), path)
        except sqlite3.OperationalError as error:
            if is_locked(error):
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
        moved = set_aside(path)
        if moved is None:
            return cls._memory(f"the game archive {path} cannot be opened ({error}): games are not kept", path)
        warning = f"the game archive was unreadable ({error}): kept as {moved.name}, a new one started"
        try:
            archive = cls(open_for_writing(path), path, warning)
        except (sqlite3.Error, OSError, NewerArchive, UpgradeFailed) as again:
            return cls._memory(
                f"the game archive {path} cannot be made ({again}): this session's games are not kept", path
            )
        archive.set_aside = moved
        return archive

    @classmethod
    def _memory(cls, warning: str, path: Path | None, *, retry: bool = False) -> Archive:
        """No file to read or write: this session's games wait in memory."""
        connection = connect(":memory:")
        migrate(connection)
        archive = cls(connection, None, warning, writable=False, home=path.parent if path is not None else None)
        if retry:
            archive.retry_path = path
        return archive

    @classmethod
    def _kept_as_it_is(cls, path: Path, reason: Exception | None) -> Archive:
        """A file only read (newer, not upgraded, read-only): its games listed, never a byte changed."""
        what = "is read-only"
        if isinstance(reason, NewerArchive):
            what = f"is from a newer version of the game ({reason})"
        elif isinstance(reason, UpgradeFailed):
            what = f"cannot be upgraded to this version's schema ({reason})"
        warning = f"the game archive {path} {what}: its games are shown, the file is left as it is"
        try:
            if not path.is_file():
                raise sqlite3.DatabaseError("no file")
            connection = connect_read_only(path)
            select = games_select(connection)
        except sqlite3.Error as error:
            return cls._memory(f"the game archive {path} {what} and cannot be read ({error})", path)
        archive = cls(connection, None, warning, writable=False, home=path.parent)
        archive.select = select or GAMES_SELECT
        if select is None:
            archive.refusal = (
                f"the game archive {path} {what}, and this version cannot read its games; it is left as it is"
            )
            archive._condition = archive.refusal  # said instead of "its games are shown"
        return archive

    @classmethod
    def in_memory(cls) -> Archive:
        """An archive that keeps nothing on disk (for tests and tools)."""
        connection = connect(":memory:")
        migrate(connection)
        return cls(connection, None)

    def _reconnect(self) -> None:
        """Once the database that was locked at start opens, write into it."""
        path = self.retry_path
        if path is None:
            return
        try:
            connection = open_for_writing(path)
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
        lost, self.pending = self.pending, []
        if lost and self.home is not None and write_recovery_file(self.home, lost) is not None:
            lost = []  # the next start takes them in
        try:
            self.connection.close()
        except sqlite3.Error as error:
            log.warning("closing the game archive: %s", error)
        return lost

    # -- the recovery files -----------------------------------------------------------------
    def recovery_files(self) -> list[Path]:
        """The recovery files beside this archive, oldest first."""
        return recovery_files(self.home)

    def take_in_recovered(self) -> int:
        """Store the games of the recovery files beside the archive (each once) and
        delete the files; return how many games went in."""
        taken = 0
        for file in self.recovery_files() if self.writable else []:
            records, bad = read_recovery_file(file)
            try:
                with transaction(self.connection):
                    new = [record for record in records if not self._is_stored(record)]
                    for record in new:
                        self._insert(record)
            except sqlite3.Error as error:
                log.warning("the games of %s cannot be stored yet (%s): the file is kept", file.name, error)
                continue
            taken += len(new)
            if bad:
                self._condition = f"{_plural(bad, 'line')} of {file} could not be read: the file is kept"
                log.warning("%s", self._condition)
            else:
                remove_own(file)  # (one that is not a regular file was not read: kept above)
        return taken

    def _is_stored(self, record: GameRecord) -> bool:
        row = record_to_row(record)
        key = (row["played_at"], row["rules"], row["first"], row["second"], row["moves"])
        same = "played_at = ? AND rules = ? AND first = ? AND second = ? AND moves = ?"
        return self.connection.execute(f"SELECT 1 FROM games WHERE {same}", key).fetchone() is not None

    # -- writing ------------------------------------------------------------------------
    def _failed_write(self, error: sqlite3.Error) -> None:
        text = f"the game archive cannot be written ({error})"
        if text != self._write_error:
            log.warning("%s", text)
        self._write_error = text

    def _insert(self, record: GameRecord) -> int:
        row = record_to_row(record)
        if (chosen := id_when_exhausted(self.connection)) is not None:  # the ids ran out: a free one
            row = {"id": chosen, **row}
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
            with transaction(self.connection):
                for record in self.pending:
                    self._last_id = self._insert(record)
                for kind in self._finishing:
                    self.connection.execute("DELETE FROM in_progress WHERE slot = ?", (row_slot(self.slot, kind),))
        except sqlite3.Error as error:
            self._failed_write(error)
            return False
        self.pending.clear()
        self._finishing.clear()
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
        review: dict[str, Any] | None = None,
        played_at: float | None = None,
        kind: Unfinished | None = None,
    ) -> int | None:
        """Store a finished game (and forget this window's game in progress of ``kind``,
        the one it finished) in one transaction.

        Returns its id, or None when it could not be written yet (it then waits in
        ``pending`` and goes in with the next write, or into the recovery file).

        Raises:
            ValueError: a name, depth, date, move or summary out of ``game.records``'
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
        if kind is not None:
            self._finishing.add(kind)
        if not self.flush():
            return None
        return self._last_id  # this game went in last (not max(id): a new game may get a lower one)

    def set_review(self, game_id: int, summary: dict[str, Any]) -> bool:
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
        self,
        rules: Rules,
        moves: Sequence[int],
        *,
        first: str,
        second: str,
        settings: dict[str, Any] | None = None,
        kind: Unfinished = Unfinished.COMPUTER,
    ) -> bool:
        """Keep the game being played in this window's row of its ``kind`` (replaced at
        every move; the unfinished games of the other kinds stay as they are)."""
        slot = row_slot(self.slot, kind)
        kept = InProgress(time.time(), rules, first, second, tuple(moves), settings or {}, slot, kind)
        return self._write_in_progress(kept)

    def take_in_progress(self, kept: InProgress) -> bool:
        """Make ``kept`` (another window's, left when it stopped, or one of this window's
        kept before kinds were kept apart) this window's game in progress of its kind, in
        one transaction: resumed here, it is offered nowhere else."""
        slot = row_slot(self.slot, kept.kind)
        return kept.slot == slot or self._write_in_progress(replace(kept, slot=slot), replacing=kept.slot)

    def _write_in_progress(self, kept: InProgress, *, replacing: str | None = None) -> bool:
        if not self.writable:
            return False
        row = (
            kept.slot,
            this_process(),
            kept.saved_at,
            rules_to_text(kept.rules),
            kept.first,
            kept.second,
            format_moves(list(kept.moves), kept.rules),
            json.dumps(kept.settings),
        )
        try:
            with transaction(self.connection):
                if replacing is not None:
                    self.connection.execute("DELETE FROM in_progress WHERE slot = ?", (replacing,))
                self.connection.execute(
                    "INSERT OR REPLACE INTO in_progress (slot, owner, saved_at, rules, first, second, moves, settings)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    row,
                )
        except sqlite3.Error as error:
            self._failed_write(error)
            return False
        return True

    # -- reading ------------------------------------------------------------------------
    def unfinished_games(self) -> list[InProgress]:
        """The games left unfinished that this window may resume, each kind apart: its own
        first, then those of windows that are no longer running, newest first
        (``game.archive.windows.unfinished_rows``)."""
        return unfinished_rows(self.connection, self.slot)

    def in_progress(self) -> InProgress | None:
        """The game to offer for resuming: this window's, else the newest one a window
        left when it stopped (None: there is none with a move)."""
        games = self.unfinished_games()
        return games[0] if games else None

    def _stored_rows(self, where: str = "", parameters: tuple[object, ...] = ()) -> Iterator[sqlite3.Row]:
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
        if unreadable != self.unreadable and unreadable:  # front ends say it (unreadable_note)
            log.info("%s", _plural(unreadable, "stored game") + " could not be read")
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
        """Every game, oldest first, as a game file (``game.game_file``)."""
        return games_text(record_game(record) for record in reversed(self.games()))


def import_games(archive: Archive, records: Sequence[tuple[GameRecord, bool]]) -> tuple[int, int]:
    """Store games read from a file in ``archive``, in one transaction, each game once: a
    game already stored (the same time, rules, players and moves; for a game whose file
    gave no time, the same rules, players, moves and result at any time) is skipped.
    ``records``: (the game, whether its file gave its time).  Returns (stored, skipped).

    Raises:
        sqlite3.Error: the archive would not take them (none is stored).
    """
    if not archive.writable:
        raise sqlite3.OperationalError(archive.warning or "the game archive is not writable here")
    stored = skipped = 0
    connection = archive.connection
    with transaction(connection):
        for record, dated in records:
            check_record(record)
            row = record_to_row(record)
            if dated:
                key = (row["played_at"], row["rules"], row["first"], row["second"], row["moves"])
                same = "played_at = ? AND rules = ? AND first = ? AND second = ? AND moves = ?"
            else:
                key = (row["rules"], row["first"], row["second"], row["moves"], row["result"])
                same = "rules = ? AND first = ? AND second = ? AND moves = ? AND result = ?"
            if connection.execute(f"SELECT 1 FROM games WHERE {same}", key).fetchone() is not None:
                skipped += 1
                continue
            archive._insert(record)
            stored += 1
    return stored, skipped


def games_stored_after(archive: Archive, game_id: int) -> tuple[list[GameRecord], int]:
    """The stored games (not ``pending`` ones) with ids above ``game_id``, in the order they
    were stored (unreadable ones left out), and the highest id read (``game_id`` where
    none): for a reader that takes in only what is new (the window's rating keeper)."""
    try:
        rows = list(archive._stored_rows("WHERE id > ? ORDER BY id", (game_id,)))
    except sqlite3.Error:
        return [], game_id
    records = []
    for row in rows:
        try:
            records.append(record_from_row(row))
        except DamagedGame:  # counted by ``Archive.games``; here only left out
            continue
    return records, max((int(row["id"]) for row in rows), default=game_id)
