"""Ctrl+C / Ctrl+V: the position as a move string through pygame's clipboard (and
pasted: a ``?pos=`` link or game file text too, ``game.sources``); Ctrl+L the solver
page's ``?pos=`` link of a standard-board position, Ctrl+Shift+C a game's game file
text (``game.game_file``); P in a review plays on from the move shown.

No clipboard (a system without one, or pygame without scrap) means a toast that says
so, never an error; a paste that is not a position says why in a toast.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pygame

from game.app.navigation import PlayOn
from game.app.scene import SceneHost
from game.board import Board
from game.game_file import GameText, game_text, looks_like_game_file
from game.i18n import N_, _
from game.position_text import MAX_PASTE, PositionTextError, position_text, read_position
from game.records import HUMAN
from game.rules import MAX, MIN, STANDARD, Rules
from game.sources import SourceError, is_link, read_text, solver_link

PERSON = N_("a person")
"""How the review names a side a person played (the archive's ``human``)."""
SHARE_KEYS = N_(" · Ctrl+L the link, Ctrl+Shift+C the game")
"""Said after a copy where those keys work too (a game, the review)."""


def put_text(text: str) -> bool:
    """Put ``text`` on the clipboard; False when there is none."""
    try:
        pygame.scrap.put_text(text)
    except (pygame.error, AttributeError, NotImplementedError):
        return False
    return True


def get_text() -> str | None:
    """The clipboard's text, or None when there is no clipboard."""
    try:
        return pygame.scrap.get_text()
    except (pygame.error, AttributeError, NotImplementedError):
        return None


def copy_moves(app: SceneHost, board: Board, more: str = "") -> None:
    """Copy ``board`` as a move string (a board file when it did not start empty);
    ``more`` ends the toast (the other things the scene copies)."""
    text = position_text(board)
    if not put_text(text):
        app.show_toast(
            _("No clipboard here: the position is {position}").format(
                position=text if len(text) < 50 else _("too long to show")
            ),
            5.0,
        )
        return
    shown = text if "\n" not in text else _("the board (Max-Connect-4 format)")
    app.show_toast(
        _("Copied {value}{more}").format(value=shown or _("the empty board"), more=more), 4.0 if more else 2.5
    )


def paste_position(app: SceneHost, rules: Rules) -> Board | None:
    """The position on the clipboard under ``rules``, or None (a toast says why)."""
    text = get_text()
    if text is None:
        app.show_toast(_("No clipboard here: nothing to paste"))
        return None
    try:
        return _shared_position(text, rules) or read_position(text, rules)
    except (PositionTextError, SourceError) as error:
        app.show_toast(_("Not pasted: {error}").format(error=error), 4.0)
        return None


def _shared_position(text: str, rules: Rules) -> Board | None:
    """The position after a pasted ``?pos=`` link or game file text (``game.sources``),
    on these rules; None for other text (a move string or a board: ``read_position``)."""
    text = text.strip()
    if not (is_link(text) or looks_like_game_file(text)) or len(text) > MAX_PASTE:
        return None
    board = read_text(text, rules, label=_("the clipboard")).game.board()
    if board.rules != rules:
        raise SourceError(
            _("the game is on {describe}, this board {describe2}: paste it on the title screen to open it").format(
                describe=board.rules.said(), describe2=rules.said()
            )
        )
    if board.is_game_over():
        raise SourceError(_("that game is over: paste it on the title screen to review it"))
    return board


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
