"""What the analysis board, the opening explorer and the retry share: a board beside a
panel, the review's progress bar, Perfect's column scores of a position as a job for the worker, the refusal
of a move that cannot be played and the taking back of one.  No AI here: the job is the worker's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import pygame

from ai.levels import PRESETS
from game.app.board_view import BoardLayout
from game.app.scene import SceneHost
from game.app.theme import Color, Theme
from game.app.worker_protocol import JobPurpose, SearchJob
from game.board import Board
from game.i18n import _
from game.rules import Rules


@dataclass(frozen=True)
class SideLayout:
    """A header, the board left, a panel right, the buttons along the bottom."""

    header: pygame.Rect
    board: pygame.Rect
    panel: pygame.Rect
    buttons: pygame.Rect
    text: int
    second: int = 0  # the header's second line, below its top (under the title, at the UI scale)


def side_layout(size: tuple[int, int], share: float, least: int, most: int, theme: Theme | None = None) -> SideLayout:
    """A pure function of the window size (and the ``theme``'s UI scale: the header's two
    lines' heights); the panel takes ``share`` of the width, at least ``least`` and at most
    ``most`` pixels."""
    w, h = size
    m = 12
    text = max(15, min(20, h // 34))
    title, line = text + 12, text + 2  # the title (text + 4, bold) and the line under it
    if theme is not None:
        title, line = int(theme.pitch(text + 4, title, bold=True)), int(theme.pitch(text, line))
    header = pygame.Rect(m, m, w - 2 * m, title + line)
    bh = max(30, min(42, h // 16))
    buttons = pygame.Rect(m, h - m - bh, w - 2 * m, bh)
    panel_w = max(least, min(most, int(w * share)))
    top, height = header.bottom + 6, buttons.top - header.bottom - 16
    panel = pygame.Rect(w - m - panel_w, top, panel_w, height)
    board = pygame.Rect(m, top, panel.left - 2 * m, height)
    return SideLayout(header, board, panel, buttons, text, title)


def scores_job(board: Board) -> SearchJob:
    """Perfect's exact column scores of ``board``: a hint of the one decider's (the book,
    then the solver within a hint's budget), as the play screen's badges."""
    return SearchJob(
        board.grid.copy(),
        board.rules,
        board.to_move,
        level=PRESETS["Perfect"],
        purpose=JobPurpose.SCORES,
        record_tree=False,
    )


def refused(app: SceneHost, board: Board, move: int, over: str) -> bool:
    """Say why ``move`` cannot be played in ``board`` (``over``: when the game is over);
    True when it cannot."""
    if board.is_game_over():
        app.show_toast(over)
        return True
    if not board.is_legal(move):
        app.show_toast(board.why_illegal(move, zero_based=True))
        return True
    return False


def taken_back(app: SceneHost, board: Board, nothing: str) -> int | None:
    """Take the last move back from ``board`` and return it; at the board's start say
    ``nothing`` and return None."""
    if not board.moves:
        app.show_toast(nothing)
        return None
    return board.pop()


def draw_progress(surface: pygame.Surface, theme: Theme, plot: pygame.Rect, done: int, total: int, size: int) -> None:
    """The review's progress bar, over the middle of the graph, while the worker reviews."""
    p = theme.palette
    bar = pygame.Rect(0, 0, min(plot.width - 20, 420), 22)
    bar.center = plot.center
    pygame.draw.rect(surface, p.panel, bar.inflate(16, 40), border_radius=8)
    pygame.draw.rect(surface, p.hole, bar, border_radius=6)
    filled = bar.copy()
    filled.width = int(bar.width * done / max(1, total))
    pygame.draw.rect(surface, p.accent, filled, border_radius=6)
    theme.text(
        surface,
        _("Reviewing... {done} of {total} moves").format(done=done, total=total),
        size,
        (bar.centerx, bar.top - 4),
        anchor="midbottom",
    )


def draw_header(surface: pygame.Surface, theme: Theme, lay: SideLayout, title: str, second: str) -> None:
    """The title (bold) and the line under it (muted), each fitted to the header's width."""
    title, fitted = theme.fitted(title, lay.text + 4, lay.header.width, bold=True)
    theme.text(surface, title, fitted, lay.header.topleft, bold=True)
    second, fitted = theme.fitted(second, lay.text, lay.header.width)
    theme.text(surface, second, fitted, (lay.header.left, lay.header.top + lay.second), color=theme.palette.muted)


def draw_said(
    surface: pygame.Surface,
    theme: Theme,
    lay: SideLayout,
    top: float,
    bottom: float,
    said: tuple[str, Color],
    notes: list[str],
) -> None:
    """In the panel from ``top`` to ``bottom``: ``said`` (the verdict, in its colour, cut only
    where it alone is too long), then each of ``notes`` (small, muted) whole or not at all."""
    p = theme.palette
    x0, width = lay.panel.left + 12, lay.panel.width - 24
    small = lay.text - 2
    lines = [(line, lay.text, said[1]) for line in theme.wrap(said[0], lay.text, width)]
    for note in notes:
        more = [("", small, p.muted)] + [(line, small, p.muted) for line in theme.wrap(note, small, width)]
        if top + sum(theme.pitch(size, size + 6) for _line, size, _shade in lines + more) <= bottom:
            lines = lines + more
    y = top
    for line, size, shade in lines:
        if y + theme.font(size).get_height() > bottom:
            break
        drawn = theme.text(surface, line, size, (x0, y), color=shade)
        y += max(theme.pitch(size, size + 6), drawn.height)  # a capital with an accent (Ú) stands taller


class Pointing(Protocol):
    """A screen with a board a person points at: the column under the pointer is lit."""

    app: SceneHost
    hover: int | None


def board_pointer(scene: Pointing, rules: Rules, board: pygame.Rect, event: pygame.event.Event) -> int | None:
    """The column a left click on ``board`` plays (None: the event is no such click); a move
    of the pointer keeps the column under it in ``scene.hover`` and redraws when it changes."""
    if event.type == pygame.MOUSEMOTION:
        column = BoardLayout(rules, board).column_at(event.pos)
        if column != scene.hover:
            scene.hover = column
            scene.app.dirty = True
    elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
        return BoardLayout(rules, board).column_at(event.pos)
    return None
