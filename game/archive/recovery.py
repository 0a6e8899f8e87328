"""The recovery files: finished games the archive could not write, kept beside it.

When the archive is closed with games still waiting (a full disk, a read-only or newer
file), they go to ``games.sqlite3.recovery-<time>-<pid>.jsonl`` beside it, one JSON
object a line with the columns of a stored game.  The next open of a writable archive
stores each game that is not stored yet and deletes the file (one with lines it cannot
read is kept, and said).  A game that cannot go there either is named in one line
(``lost_game_line``) for the player to copy.
"""

from __future__ import annotations

import json
import logging
import os
import time
from pathlib import Path

from game.archive.database import FILE_NAME
from game.records import GameRecord, load_json, record_from_row, record_to_row
from game.regular_file import create_new, read_regular

log = logging.getLogger("game.archive.store")

RECOVERY_PREFIX = FILE_NAME + ".recovery-"
RECOVERY_SUFFIX = ".jsonl"
MAX_RECOVERY_BYTES = 64 * 1024 * 1024
"""A recovery file holds the games of one session (a few hundred bytes each)."""


def write_recovery_file(home: Path, records: list[GameRecord]) -> Path | None:
    """Write ``records`` to a new recovery file in ``home``, whole and synced; None (nothing
    left behind) when it cannot be written."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = home / f"{RECOVERY_PREFIX}{stamp}-{os.getpid()}{RECOVERY_SUFFIX}"
    text = "".join(json.dumps(record_to_row(r), sort_keys=True) + "\n" for r in records)
    try:
        create_new(target, text.encode("utf-8"))
    except OSError as error:
        log.warning("cannot write the recovery file %s: %s", target, error.strerror or error)
        return None
    log.warning("%d finished game(s) kept in %s: the next start takes them in", len(records), target)
    return target


def recovery_files(home: Path | None) -> list[Path]:
    """The recovery files in ``home``, oldest first."""
    if home is None:
        return []
    try:
        return sorted(home.glob(f"{RECOVERY_PREFIX}*{RECOVERY_SUFFIX}"))
    except OSError:
        return []


def read_recovery_file(path: Path) -> tuple[list[GameRecord], int]:
    """The games of a recovery file, and how many of its lines could not be read (a FIFO,
    a device or a link to one of its name is not read, and counts as one)."""
    records: list[GameRecord] = []
    bad = 0
    try:
        lines = read_regular(path, MAX_RECOVERY_BYTES).decode("utf-8", errors="replace").splitlines()
    except OSError as error:
        log.warning("the recovery file %s cannot be read: %s", path, error.strerror or error)
        return [], 1
    for line in lines:
        if not line.strip():
            continue
        try:
            row = load_json(line)
            if not isinstance(row, dict):
                raise ValueError("not an object")
            records.append(record_from_row({"id": None, **row}))
        except (ValueError, KeyError, TypeError):
            bad += 1
    return records, bad


def lost_game_line(record: GameRecord) -> str:
    """A finished game no file would take, in one line a player can still copy."""
    return (
        f"this finished game could not be kept: {record.date_text}, {record.rules.describe()}, "
        f"{record.first} v {record.second}, {record.result.text}, moves {record.moves_string}"
    )
