"""Opening a game in the window, and sharing one out of it.

- ``opened_request``: where a game read by ``game.sources`` opens (``main.py open``, a
  file dropped on the window, Ctrl+V on the title, Past games and review screens): its
  review, to step through move by move, or the analysis board for a position without
  moves; the App's router builds the scene.
- ``play_on``: P in a review: choose any level, then play on from the move shown.
- ``copy_link`` / ``copy_game``: the solver-page ``?pos=`` link of a standard-board
  position, and the game file text (``game.game_file``) of a game, on the clipboard.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from game.app.clipboard import copy_moves, get_text, put_text
from game.app.navigation import OpenAnalysis, OpenReview, PlayOn
from game.app.scene import SceneHost
from game.board import Board
from game.game_file import GameText, game_text
from game.i18n import N_, _
from game.records import HUMAN
from game.rules import MAX, MIN, STANDARD
from game.sources import Source, SourceError, read_source, read_text, solver_link

PERSON = N_("a person")
"""How the review names a side a person played (the archive's ``human``)."""
PASTE_SCENES = frozenset({"title", "past games", "review"})
"""Scenes where Ctrl+V opens what is pasted (the play and analysis scenes paste a position)."""
SHARE_KEYS = N_(" · Ctrl+L the link, Ctrl+Shift+C the game")
"""Said after a copy where those keys work too (a game, the review)."""


def opened_request(found: Source) -> OpenReview | OpenAnalysis:
    """The review of the game (at its last move), or the analysis board on a position
    without moves."""
    game = found.game
    if not game.moves:
        return OpenAnalysis(game.board())
    names = {
        side: _(PERSON) if name == HUMAN else name
        for side, name in ((MAX, game.first), (MIN, game.second))
        if name is not None
    }
    depths = {side: d for side, d in ((MAX, game.first_depth), (MIN, game.second_depth)) if d}
    return OpenReview(
        game.rules,
        tuple(game.moves),
        start=game.start,
        start_to_move=game.start_to_move,
        names=names,
        depths=depths,
    )


def show_opened(app: SceneHost, found: Source) -> None:
    """Push the scene of an opened game, and say what was opened."""
    app.push(opened_request(found))
    game = found.game
    what = _("{count} moves").format(count=len(game.moves)) if game.moves else _("a position")
    more = (
        _(" (game 1 of {games_in_file})").format(games_in_file=found.games_in_file) if found.games_in_file > 1 else ""
    )
    keys = _("Left/Right step, P plays on from here") if game.moves else _("play on by hand")
    app.show_toast(
        _("Opened {what} from {label}{more}: {keys}").format(what=what, label=found.label, more=more, keys=keys), 5.0
    )


def open_dropped(app: SceneHost, path: str) -> None:
    """A file dropped on the window: its game opens, or a toast says why not."""
    try:
        found = read_source(path, app.settings.rules())
    except SourceError as error:
        app.show_toast(_("Not opened: {error}").format(error=error), 6.0)
        return
    show_opened(app, found)


def open_pasted(app: SceneHost) -> None:
    """Ctrl+V where nothing else pastes: open the game (or link, moves, board) pasted."""
    text = get_text()
    if text is None:
        app.show_toast(_("No clipboard here: nothing to paste"))
        return
    try:
        found = read_text(text, app.settings.rules(), label=_("the clipboard"))
    except SourceError as error:
        app.show_toast(_("Not opened: {error}").format(error=error), 6.0)
        return
    show_opened(app, found)


def play_on(app: SceneHost, board: Board) -> None:
    """P: choose a level, then play on from ``board``."""
    if board.is_game_over():
        app.show_toast(_("The game is over here: step back to a move to play on from"))
        return
    app.push(PlayOn(board))


def copy_link(app: SceneHost, board: Board) -> None:
    """Ctrl+L: the solver page's ``?pos=`` link of the position (the standard board only)."""
    start_empty = not board.start_grid().any() and board.start_to_move() == MAX
    if board.rules != STANDARD or not start_empty:
        why = _("the standard 6x7 board") if board.rules != STANDARD else _("a game from the empty board")
        app.show_toast(_("No link: the solver page shows only {why}; Ctrl+C copies the moves").format(why=why))
        return
    link = solver_link(board.moves_string())
    if not put_text(link):
        app.show_toast(_("No clipboard here: the link is {link}").format(link=link), 6.0)
        return
    app.show_toast(_("Copied the link {link}").format(link=link), 4.0)


def board_game(board: Board, names: dict[int, str], depths: dict[int, int], result: str | None = None) -> GameText:
    """A game file's game of ``board`` from its start; ``names`` as the window says them."""
    outcome = board.outcome()
    if result is None:
        result = "*" if outcome is None else {MAX: "1-0", MIN: "0-1", None: "1/2-1/2"}[outcome.winner]
    start = board.start_grid()
    archived = {
        side: HUMAN if name.lower() in (PERSON, _(PERSON), "you", _("you"), HUMAN) else name
        for side, name in names.items()
    }
    return GameText(
        board.rules,
        tuple(board.moves),
        start if start.any() else None,
        board.start_to_move(),
        archived.get(MAX),
        archived.get(MIN),
        depths.get(MAX),
        depths.get(MIN),
        result,
        time.time(),
    )


def copy_game(app: SceneHost, game: GameText) -> None:
    """Ctrl+Shift+C: the game file text of the game (tags and moves)."""
    if not put_text(game_text(game)):
        app.show_toast(_("No clipboard here: use 'games --export' to write the games to a file"), 6.0)
        return
    app.show_toast(_("Copied the game ({count} moves) as game file text").format(count=len(game.moves)), 4.0)


def share_key(app: SceneHost, event: pygame.event.Event, shown: Board, game: Callable[[], GameText]) -> None:
    """The review's sharing keys: Ctrl+C the ``shown`` position's moves, Ctrl+L its
    ``?pos=`` link, Ctrl+Shift+C the whole ``game`` as game file text; P plays on from
    the shown move."""
    if event.key == pygame.K_p:
        play_on(app, shown)
    elif event.key == pygame.K_l:
        copy_link(app, shown)
    elif event.mod & pygame.KMOD_SHIFT:
        copy_game(app, game())
    else:
        copy_moves(app, shown, _(SHARE_KEYS))
