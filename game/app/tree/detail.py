"""The detail panel's lines, placed before drawing: all of them, scrolled when they are
more than the panel holds.

At a big text size the panel's explanation is longer than the panel: rather than drop
the sentences that do not fit (it once stopped after "Window out"), everything under the
heading scrolls (Page Down / Page Up, or the wheel over the panel), and a line at the
panel's foot says so while more is below.  Positions under the heading are relative to
the scrolled area's top; ``draw.py`` paints them, offset by the scene's scroll.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from game.app.theme import Color, Theme
from game.i18n import N_, _

SMALLEST = 11
"""No line of the panel is drawn smaller than this (at 100 %; the UI scale multiplies it)."""

MORE_BELOW = N_("More below: Page Down")
BACK_UP = N_("Page Up: back to the top")
CUE_SIZE = 15


@dataclass(frozen=True)
class DetailRow:
    """One line of the panel: its text, size, colour and top (in the scrolled area)."""

    text: str
    size: float
    color: Color
    y: int


@dataclass(frozen=True)
class DetailLayout:
    """Where the panel's heading, lines and small board go; ``view``: the scrolled area
    (window pixels), ``height``: all that scrolls, ``board``: the board's top and cell size."""

    heading: DetailRow
    rows: tuple[DetailRow, ...]
    board: tuple[int, int] | None
    view: pygame.Rect
    height: int

    @property
    def most_scroll(self) -> int:
        return max(0, self.height - self.view.height)


def heading_size(theme: Theme, heading: str, width: int) -> float:
    """The heading's size: 19, smaller where it would not fit, never below ``SMALLEST``."""
    return max(SMALLEST, theme.shrink(heading, 19, width, bold=True))


def cue_height(theme: Theme) -> int:
    return theme.font(CUE_SIZE, True).get_linesize() + 6


def detail_layout(
    theme: Theme,
    rect: pygame.Rect,
    heading: str,
    line: str,
    board_rows: int | None,
    board_cols: int,
    sentences: list[tuple[str, Color]],
) -> DetailLayout:
    """Place the panel in ``rect``: the heading fixed on top, then the line of moves, the
    small board (``board_rows`` of ``board_cols``, None: no board) and each sentence
    wrapped whole; where all of that is taller than the room, the room leaves space at its
    foot for the scroll cue."""
    p = theme.palette
    width = rect.width - 24
    size = heading_size(theme, heading, width)
    head = DetailRow(theme.fit(heading, size, width, bold=True), size, p.text, rect.top + 10)
    top = rect.top + 10 + max(24, theme.font(size, True).get_linesize() + 2)
    rows: list[DetailRow] = []
    y = 0
    for text in theme.wrap(line, 16, width):
        rows.append(DetailRow(text, 16, p.muted, y))
        y += int(theme.pitch(16, 18))
    board = None
    if board_rows is not None:
        cell = max(6, min(width // board_cols, int(rect.height * (0.3 if rect.height > 420 else 0.26)) // board_rows))
        board = (y + 4, cell)
        y += 4 + cell * board_rows + 10
    size = 16 if rect.height > 420 else 15
    step = theme.font(size).get_linesize() + 2
    for text, color in sentences:
        for part in theme.wrap(text, size, width):
            rows.append(DetailRow(part, size, color, y))
            y += step
    view = pygame.Rect(rect.left, top, rect.width, rect.bottom - 6 - top)
    if y > view.height:
        view.height -= cue_height(theme)
    return DetailLayout(head, tuple(rows), board, view, y)


def cue(layout: DetailLayout, scroll: int) -> str | None:
    """The scroll cue at the panel's foot: more below, back to the top, or none."""
    if layout.most_scroll == 0:
        return None
    return _(MORE_BELOW) if scroll < layout.most_scroll else _(BACK_UP)


class DetailScroll:
    """The detail panel's layout and how far it is scrolled (pixels); another node
    starts at the top."""

    def __init__(self) -> None:
        self.layout: DetailLayout | None = None
        self.offset = 0
        self.node = -1

    def update(self, layout: DetailLayout | None, node: int) -> None:
        """Take the panel's new layout, for ``node``; keep the scroll inside it."""
        if node != self.node:
            self.node, self.offset = node, 0
        self.layout = layout
        self.offset = min(self.offset, layout.most_scroll if layout is not None else 0)

    @property
    def more(self) -> bool:
        """The panel has more below what it shows (its cue says so)."""
        return self.layout is not None and self.offset < self.layout.most_scroll

    def scroll(self, pages: float, line: int) -> None:
        """Scroll by ``pages`` (a page: the panel's height less two lines of ``line`` pixels)."""
        if self.layout is not None:
            page = max(20, self.layout.view.height - 2 * line)
            self.offset = max(0, min(self.layout.most_scroll, self.offset + round(page * pages)))
