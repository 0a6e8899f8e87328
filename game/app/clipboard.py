"""Ctrl+C / Ctrl+V: the position as a move string through pygame's clipboard.

No clipboard (a system without one, or pygame without scrap) means a toast that says
so, never an error; a paste that is not a position says why in a toast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.board import Board
from game.position_text import PositionTextError, position_text, read_position
from game.rules import Rules

if TYPE_CHECKING:
    from game.app.loop import App


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


def copy_moves(app: App, board: Board) -> None:
    """Copy ``board`` as a move string (a board file when it did not start empty)."""
    text = position_text(board)
    if not put_text(text):
        app.show_toast("No clipboard here: the position is " + (text if len(text) < 50 else "too long to show"), 5.0)
        return
    shown = text if "\n" not in text else "the board (Max-Connect-4 format)"
    app.show_toast(f"Copied {shown or 'the empty board'}")


def paste_position(app: App, rules: Rules) -> Board | None:
    """The position on the clipboard under ``rules``, or None (a toast says why)."""
    text = get_text()
    if text is None:
        app.show_toast("No clipboard here: nothing to paste")
        return None
    try:
        return read_position(text, rules)
    except PositionTextError as error:
        app.show_toast(f"Not pasted: {error}", 4.0)
        return None
