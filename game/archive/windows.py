"""Which window a game in progress belongs to.

Each window keeps its game in progress in its own row of the archive (its ``slot``),
with the process that owns it (``game.processes``).  A row whose process is still running
belongs to that window and is offered to no other; a row whose process has gone (a crash,
a kill) is offered to the next window, which takes it over when it resumes the game.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from typing import Any

from game.records import InProgress, check_moves, check_name, load_json, rules_from_text


def unfinished_from_row(row: sqlite3.Row | Mapping[str, Any]) -> InProgress:
    """The game in progress a row holds (``ValueError``, ``KeyError``... when damaged)."""
    rules = rules_from_text(row["rules"])
    settings = load_json(row["settings"] or "{}")
    if not isinstance(settings, dict):
        raise ValueError("its settings are not a JSON object")
    return InProgress(
        float(row["saved_at"]),
        rules,
        check_name(row["first"], "player 1"),
        check_name(row["second"], "player 2"),
        check_moves(row["moves"], rules),
        settings,
        str(row["slot"]),
    )
