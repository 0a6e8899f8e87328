"""Ctrl+C / Ctrl+V: the position as a move string through pygame's clipboard (and
pasted: a ``?pos=`` link or game file text too, ``game.sources``).

No clipboard (a system without one, or pygame without scrap) means a toast that says
so, never an error; a paste that is not a position says why in a toast.
"""

from __future__ import annotations

import pygame

from game.app.scene import SceneHost
from game.board import Board
from game.game_file import looks_like_game_file
from game.i18n import _
from game.position_text import MAX_PASTE, PositionTextError, position_text, read_position
from game.rules import Rules
from game.sources import SourceError, is_link, read_text


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
