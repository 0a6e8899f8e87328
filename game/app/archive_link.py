"""The window's side of the game archive: what the play scene stores (the finished game
at once, the game in progress at every move), and its copy and paste keys.

The App opens one ``Archive`` per window on first use (``SceneHost.archive``) and closes
it with ``close_archive``; the play scene calls ``store_finished`` and
``store_in_progress``; the title, past-games and review scenes read through the host.
A warning from the archive (a damaged file moved aside, a read-only folder) is shown
once as a toast.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
import weakref
from typing import Any, Protocol

import pygame

from ai.levels import Level
from ai.levels import level_label as ai_level_label
from game.app.clipboard import SHARE_KEYS, board_game, copy_game, copy_link, copy_moves, paste_position
from game.app.navigation import OpenReview
from game.app.play_screen import JobsGame
from game.app.scene import SceneHost
from game.archive.recovery import lost_game_line
from game.archive.store import Archive
from game.i18n import _
from game.match import Match
from game.records import HUMAN, GameResult, Unfinished
from game.rules import MAX, MIN

log = logging.getLogger(__name__)

_GAME_IDS: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
"""The archive id of the game each play scene stored last (for its review's summary)."""


class PlayedGame(JobsGame, Protocol):
    """What the archive reads of a play scene, beyond what its jobs read of it (the same
    scene), and what Ctrl+V changes: a pasted position is a new ``match``."""

    match: Match
    kind: Unfinished  # which of the window's unfinished games it is kept as

    @property
    def human_side(self) -> int: ...

    def side_name(self, side: int) -> str: ...

    def restart(self) -> None: ...


def open_archive(host: SceneHost) -> Archive:
    """The archive in the host's preference folder; its warning, if any, said in a toast."""
    archive = Archive.open(host.home)
    if archive.warning:
        host.show_toast(_("Game archive: {warning}").format(warning=archive.warning), 6.0)
    return archive


def close_archive(archive: Archive) -> None:
    """Write the games still kept in memory (the archive was locked, full or read-only),
    else put them in the recovery file beside it, and close: the window is closing, and
    no next game will write them.  A game that could go nowhere is named on stderr, one
    line each, so the player can still copy its moves."""
    try:
        lost = archive.close()
    except sqlite3.Error as error:  # pragma: no cover - close says its own errors
        log.warning("closing the game archive: %s", error)
        return
    for record in lost:
        print(
            _("Game archive: {lost_game_line}").format(lost_game_line=lost_game_line(record)),
            file=sys.stderr,
            flush=True,
        )


def level_label(level: Level) -> str:
    """A level as the archive names it: its preset name, else "MCTS N" or "depth N"."""
    return ai_level_label(level)


def sides_of(play: PlayedGame) -> tuple[str, str, int | None, int | None]:
    """(player 1, player 2, their search depths): ``HUMAN`` and None for a person."""
    names: list[str] = []
    depths: list[int | None] = []
    for side in (MAX, MIN):
        if play.is_computer(side):
            names.append(level_label(play.levels[side]))
            depths.append(play.levels[side].depth)
        else:  # a person ("human"; a network game played on here: the player's name)
            names.append(play.side_name(side) if play.kind is Unfinished.NETWORK else HUMAN)
            depths.append(None)
    return names[0], names[1], depths[0], depths[1]


def store_finished(play: PlayedGame) -> int | None:
    """Store the game ``play`` just finished (once per game); return its id."""
    outcome = play.match.outcome()
    if outcome is None:
        return None
    archive = play.app.archive
    first, second, first_depth, second_depth = sides_of(play)
    game_id = archive.add_game(
        play.rules,
        list(play.match.moves),
        GameResult.of_winner(outcome.winner),
        first=first,
        second=second,
        first_depth=first_depth,
        second_depth=second_depth,
        kind=play.kind,
    )
    if archive.warning and archive.pending:
        play.app.show_toast(_("Game archive: {warning}").format(warning=archive.warning), 5.0)
    if game_id is not None:
        _GAME_IDS[play] = game_id
    return game_id


def store_in_progress(play: PlayedGame) -> None:
    """Keep the game being played, so it can be offered again after a crash."""
    if play.match.is_over():
        return
    first, second, _, _ = sides_of(play)
    settings: dict[str, object] = {
        "opponent": play.opponent.value,
        "first": "human" if play.human_side == 1 else "computer",
    }
    if play.kind is Unfinished.NETWORK:  # a network game played on here, at one screen
        settings["network"] = "local"
    play.app.archive.save_in_progress(
        play.rules, list(play.match.moves), first=first, second=second, settings=settings, kind=play.kind
    )


def stored_id(play: PlayedGame) -> int | None:
    """The archive id of the game ``play`` finished last, if it was stored."""
    return _GAME_IDS.get(play)


def review_request(play: PlayedGame) -> OpenReview:
    """The review of the game on ``play``'s board (finished or not)."""
    names, depths = {}, {}
    for side in (MAX, MIN):
        if play.is_computer(side):
            names[side] = level_label(play.levels[side])
            depths[side] = play.levels[side].depth
        else:
            names[side] = play.side_name(side).lower()
    board = play.match.board
    return OpenReview(
        play.rules,
        tuple(board.moves),
        start=board.start_grid(),
        start_to_move=board.start_to_move(),
        names=names,
        depths=depths,
        game_id=stored_id(play) if play.match.is_over() else None,
    )


def copy_or_paste(play: PlayedGame, *, paste: bool, link: bool = False, shift: int = 0) -> None:
    """Ctrl+C: copy the game's position as a move string (Ctrl+Shift+C: the game as game
    file text; Ctrl+L: the solver page's ``?pos=`` link); Ctrl+V: play on from a pasted
    move string, link, game or Max-Connect-4 board (the game restarts from it)."""
    if link:
        copy_link(play.app, play.match.board)
    elif shift & pygame.KMOD_SHIFT and not paste:
        first, second, first_depth, second_depth = sides_of(play)
        depths = {side: d for side, d in ((1, first_depth), (-1, second_depth)) if d}
        copy_game(play.app, board_game(play.match.board, {1: first, -1: second}, depths))
    elif not paste:
        copy_moves(play.app, play.match.board, _(SHARE_KEYS))
    else:
        board = paste_position(play.app, play.rules)
        if board is not None:
            play.restart()
            play.match = Match(board.rules, board=board)
            play.app.show_toast(_("Pasted a position with {ply} discs").format(ply=board.ply))
