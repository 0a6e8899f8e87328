"""A network game into the player's own archive, kept as it goes: after every move the
game so far is this archive's game in progress (replaced at each move, as the window's
play screen keeps its game), so a crash or a kill of either side loses nothing; the
finished game is stored once (``add_game``, which forgets the game in progress).  After a
drop, a host that stops or a player who leaves, the game in progress stays, for the title
menu to offer: kept as the window's unfinished network game, apart from its games against
the computer or at one screen, with how to go on over the network (``game.net.comeback``).

Both players keep the same record: the same rules, moves and result, each side named by
the name its player gave.  A watcher keeps nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from game.archive.store import Archive
from game.net.comeback import Comeback
from game.net.events import Event, GameOver, Joined, Moved, Table, Welcome
from game.records import Unfinished
from game.rules import MAX, MIN


def keep_finished(archive: Archive, table: Table) -> int | None:
    """Store the finished game; its id (None: it waits in memory, see ``archive.warning``)."""
    assert table.over is not None
    return archive.add_game(
        table.rules,
        list(table.board.moves),
        table.over.result,
        first=table.name(MAX),
        second=table.name(MIN),
        kind=Unfinished.NETWORK,
    )


def keep_unfinished(archive: Archive, table: Table, comeback: Comeback | None = None) -> bool:
    """Keep the game so far as this window's unfinished network game, with how to go on
    (``comeback``; None: the game can only go on at one screen).  False: it could not be
    written."""
    if not table.board.moves:
        return True  # nothing played: nothing to keep
    return archive.save_in_progress(
        table.rules,
        list(table.board.moves),
        first=table.name(MAX),
        second=table.name(MIN),
        settings={"opponent": "human", "network": comeback.to_settings() if comeback is not None else True},
        kind=Unfinished.NETWORK,
    )


class GameKeeper:
    """One player's copy of one network game, following the game's events (a watcher's,
    or one without an archive, keeps nothing); ``comeback`` says, when asked, how this
    player goes on with it over the network."""

    def __init__(self, archive: Archive | None, comeback: Callable[[], Comeback | None] | None = None):
        self.archive = archive
        self.comeback = comeback or (lambda: None)
        self.finished_id: int | None = None
        self.finished = False

    def follow(self, table: Table, event: Event) -> None:
        """Keep what ``event`` (already taken in by ``table``) changed: the game so far after
        a welcome, a join or a move; the finished game at its end."""
        if self.archive is None or not table.side or self.finished:
            return
        if isinstance(event, GameOver):
            self.finished = True
            self.finished_id = keep_finished(self.archive, table)
        elif isinstance(event, Welcome | Joined | Moved) and table.over is None:
            keep_unfinished(self.archive, table, self.comeback())

    def keep_so_far(self, table: Table | None) -> None:
        """Keep the game so far now (leaving, a drop, a host that broke the protocol)."""
        if self.archive is not None and table is not None and table.side and table.over is None and not self.finished:
            keep_unfinished(self.archive, table, self.comeback())
