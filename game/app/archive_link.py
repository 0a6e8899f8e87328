"""The window's side of the game archive: one ``Archive`` per App, and what the play
scene stores (the finished game at once, the game in progress at every move).

The play scene calls ``store_finished`` and ``store_in_progress``; the title, past-games
and review scenes read through ``archive_of``.  A warning from the archive (a damaged
file moved aside, a read-only folder) is shown once as a toast.
"""

from __future__ import annotations

import logging
import sqlite3
import sys
import weakref
from typing import TYPE_CHECKING, Any

import pygame

from ai.levels import Level, preset_name
from game.archive.recovery import lost_game_line
from game.archive.store import Archive
from game.i18n import N_, _
from game.records import HUMAN, GameResult

if TYPE_CHECKING:
    from game.app.loop import App
    from game.app.scenes.play import PlayScene

log = logging.getLogger(__name__)

_ARCHIVES: weakref.WeakKeyDictionary[Any, Archive] = weakref.WeakKeyDictionary()
_GAME_IDS: weakref.WeakKeyDictionary[Any, int] = weakref.WeakKeyDictionary()
"""The archive id of the game each play scene stored last (for its review's summary)."""


def archive_of(app: App) -> Archive:
    """The App's archive, opened on first use in its preference folder."""
    archive = _ARCHIVES.get(app)
    if archive is None:
        archive = _ARCHIVES[app] = Archive.open(app.home)
        if archive.warning:
            app.show_toast(_("Game archive: {warning}").format(warning=archive.warning), 6.0)
    return archive


def close_archive(app: App) -> None:
    """Write the games still kept in memory (the archive was locked, full or read-only),
    else put them in the recovery file beside it, and close: the window is closing, and
    no next game will write them.  A game that could go nowhere is named on stderr, one
    line each, so the player can still copy its moves."""
    archive = _ARCHIVES.pop(app, None)
    if archive is None:
        return
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
    """A level as the archive names it: its preset name, else "depth N"."""
    return preset_name(level) or _("depth {depth}").format(depth=level.depth)


def sides_of(play: PlayScene) -> tuple[str, str, int | None, int | None]:
    """(player 1, player 2, their search depths): ``HUMAN`` and None for a person."""
    from game.rules import MAX, MIN

    names: list[str] = []
    depths: list[int | None] = []
    for side in (MAX, MIN):
        if play.is_computer(side):
            names.append(level_label(play.levels[side]))
            depths.append(play.levels[side].depth)
        else:
            names.append(HUMAN)
            depths.append(None)
    return names[0], names[1], depths[0], depths[1]


def store_finished(play: PlayScene) -> int | None:
    """Store the game ``play`` just finished (once per game); return its id."""
    outcome = play.match.outcome()
    if outcome is None:
        return None
    archive = archive_of(play.app)
    first, second, first_depth, second_depth = sides_of(play)
    game_id = archive.add_game(
        play.rules,
        list(play.match.moves),
        GameResult.of_winner(outcome.winner),
        first=first,
        second=second,
        first_depth=first_depth,
        second_depth=second_depth,
    )
    if archive.warning and archive.pending:
        play.app.show_toast(_("Game archive: {warning}").format(warning=archive.warning), 5.0)
    if game_id is not None:
        _GAME_IDS[play] = game_id
    return game_id


def store_in_progress(play: PlayScene) -> None:
    """Keep the game being played, so it can be offered again after a crash."""
    if play.match.is_over():
        return
    first, second, _, _ = sides_of(play)
    settings = {"opponent": play.opponent.value, "first": "human" if play.human_side == 1 else "computer"}
    archive_of(play.app).save_in_progress(
        play.rules, list(play.match.moves), first=first, second=second, settings=settings
    )


def stored_id(play: PlayScene) -> int | None:
    """The archive id of the game ``play`` finished last, if it was stored."""
    return _GAME_IDS.get(play)


def resume_scene(app: App) -> PlayScene | None:
    """A play scene with the unfinished game's moves, its sides as they were."""
    from game.app.scenes.play import PlayScene
    from game.app.settings import Opponent

    kept = archive_of(app).in_progress()
    if kept is None:
        return None
    settings = app.settings
    try:
        opponent = Opponent(kept.settings.get("opponent", settings.opponent.value))
    except ValueError:
        opponent = settings.opponent
    first = kept.settings.get("first", settings.first)
    level2 = settings.second_level() if opponent is Opponent.DEMO else None
    scene = PlayScene(
        kept.rules, settings.level(), opponent, first if first in ("human", "computer") else "human", level2=level2
    )
    try:
        for move in kept.moves:
            scene.match.play(move)
    except ValueError as error:
        app.show_toast(_("The unfinished game could not be set up: {error}").format(error=error), 5.0)
        return None
    archive_of(app).take_in_progress(kept)  # this window's game now: offered to no other
    return scene


SHARE_KEYS = N_(" · Ctrl+L the link, Ctrl+Shift+C the game")
"""Said after a copy where those keys work too (a game, the review)."""


def copy_or_paste(play: PlayScene, *, paste: bool, link: bool = False, shift: int = 0) -> None:
    """Ctrl+C: copy the game's position as a move string (Ctrl+Shift+C: the game as game
    file text; Ctrl+L: the solver page's ``?pos=`` link); Ctrl+V: play on from a pasted
    move string, link, game or Max-Connect-4 board (the game restarts from it)."""
    from game.app.clipboard import copy_moves, paste_position
    from game.app.open_game import board_game, copy_game, copy_link
    from game.match import Match

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
