"""A network game into the player's own archive: finished (``add_game``), or as it stands
when the connection is lost for good or the player leaves (the archive's game in progress,
which the title menu then offers to resume at this screen, two players on one computer).

Both players keep the same record: the same rules, moves and result, each side named by
the name its player gave.  A watcher keeps nothing.
"""

from __future__ import annotations

from game.archive.store import Archive
from game.net.events import Table
from game.rules import MAX, MIN


def keep_finished(archive: Archive, table: Table) -> int | None:
    """Store the finished game; its id (None: it waits in memory, see ``archive.warning``)."""
    assert table.over is not None
    return archive.add_game(
        table.rules, list(table.board.moves), table.over.result, first=table.name(MAX), second=table.name(MIN)
    )


def keep_unfinished(archive: Archive, table: Table) -> bool:
    """Keep the game so far as this archive's unfinished game (False: it could not be written)."""
    if not table.board.moves:
        return True  # nothing played: nothing to keep
    return archive.save_in_progress(
        table.rules,
        list(table.board.moves),
        first=table.name(MAX),
        second=table.name(MIN),
        settings={"opponent": "human", "network": True},
    )
