"""Which window a game in progress belongs to.

Each window keeps its games in progress in rows of its own, one for each kind of game
(``game.records.Unfinished``: against the computer, two players, over the network...):
the row's ``slot`` is the window's slot and the kind, ``WINDOW/KIND`` (``row_slot``); a row
kept before kinds were kept apart has the window's slot alone, its kind in its settings.
Each row holds the process that owns it (``game.processes``).  A row whose process is still running
belongs to that window and is offered to no other; a row whose process has gone (a crash,
a kill) is offered to the next window, which takes it over when it resumes the game.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from typing import Any

from game.processes import owner_is_running
from game.records import InProgress, Unfinished, check_moves, check_name, load_json, rules_from_text

log = logging.getLogger(__name__)


def row_slot(window: str, kind: Unfinished) -> str:
    """The row a window keeps its unfinished game of ``kind`` in."""
    return f"{window}/{kind.value}"


def unfinished_from_row(row: sqlite3.Row | Mapping[str, Any]) -> InProgress:
    """The game in progress a row holds (``ValueError``, ``KeyError``... when damaged)."""
    rules = rules_from_text(row["rules"])
    settings = load_json(row["settings"] or "{}")
    if not isinstance(settings, dict):
        raise ValueError("its settings are not a JSON object")
    slot = str(row["slot"])
    _window, mark, named = slot.rpartition("/")
    try:
        kind = Unfinished(named) if mark else Unfinished.of_settings(settings)
    except ValueError:
        kind = Unfinished.of_settings(settings)
    return InProgress(
        float(row["saved_at"]),
        rules,
        check_name(row["first"], "player 1"),
        check_name(row["second"], "player 2"),
        check_moves(row["moves"], rules),
        settings,
        slot,
        kind,
    )


def unfinished_rows(connection: sqlite3.Connection, window: str) -> list[InProgress]:
    """The games left unfinished that ``window`` may resume, each kind apart: its own
    first, then those of windows that are no longer running, newest first (a running
    window's games are its own); rows that cannot be read are left out, said in the log."""
    try:
        rows = connection.execute(
            "SELECT * FROM in_progress ORDER BY substr(slot, 1, ?) = ? DESC, saved_at DESC", (len(window), window)
        ).fetchall()
    except sqlite3.Error as error:
        log.warning("the unfinished games in the archive cannot be read: %s", error)
        return []
    kept = []
    for row in rows:
        owner = row["owner"] if "owner" in row.keys() else None  # an older schema's row: no owner
        try:
            if row["moves"] and (str(row["slot"]).startswith(window) or not owner_is_running(owner)):
                kept.append(unfinished_from_row(row))
        except (ValueError, TypeError, KeyError, IndexError) as error:
            log.warning("an unfinished game in the archive cannot be read: %s", error)
    return kept
