"""Draws a board in any rectangle and maps pointer positions to columns and cells.

The board frame is drawn over the discs (its holes are transparent), so a falling disc
passes behind the frame as in the real game.  Everything scales with the window.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pygame

from game.app.animation import DiscDrop
from game.app.theme import Color, Theme
from game.board import Board
from game.notation import column_letter
from game.rules import EMPTY, Cell, Rules, Run

NOTE_SMALLEST = 11.0
"""The column badges' least text size above 100 % (the UI scale multiplies it): a badge
grows with the text size rather than keep its text at the 100 % size."""


@dataclass(frozen=True)
class ColumnNote:
    """A short label over a column (its exact score, "win 18", "draw", "lose 12"), on ``color``."""

    text: str
    color: Color


@dataclass
class BoardLayout:
    """Where the board sits: the cell size and the rect of the grid of holes."""

    rules: Rules
    area: pygame.Rect

    def __post_init__(self) -> None:
        rows, cols = self.rules.rows, self.rules.cols
        # 1.5 rows above the board for the column notes (exact scores), the ghost disc
        # (gravity) and the drop start, and room below (and left, without gravity) for
        # the column and row labels.
        self.cell = max(8, int(min(self.area.width / (cols + 1.0), self.area.height / (rows + 2.0))))
        width, height = self.cell * cols, self.cell * rows
        self.grid_rect = pygame.Rect(0, 0, width, height)
        self.grid_rect.midbottom = (self.area.centerx, self.area.bottom - int(self.cell * 0.5))
        self.radius = int(self.cell * 0.41)

    def note_rect(self, col: int) -> pygame.Rect:
        """Where a column's note (its exact score) is drawn: a badge high above the column."""
        rect = pygame.Rect(0, 0, int(self.cell * 0.96), max(12, int(self.cell * 0.38)))
        rect.midtop = (round(self.center(0, col)[0]), self.grid_rect.top - int(self.cell * 1.5))
        return rect

    def center(self, row: float, col: float) -> tuple[float, float]:
        """Pixel centre of a (possibly fractional) row and column."""
        return (self.grid_rect.left + (col + 0.5) * self.cell, self.grid_rect.top + (row + 0.5) * self.cell)

    def column_at(self, pos: tuple[int, int]) -> int | None:
        """The column under ``pos`` (anywhere above or on the board), or None."""
        x, y = pos
        if not (self.grid_rect.left <= x < self.grid_rect.right):
            return None
        if y > self.grid_rect.bottom or y < self.grid_rect.top - self.cell * 1.5:
            return None
        return int((x - self.grid_rect.left) // self.cell)

    def cell_at(self, pos: tuple[int, int]) -> Cell | None:
        """The cell under ``pos``, or None."""
        if not self.grid_rect.collidepoint(pos):
            return None
        col = int((pos[0] - self.grid_rect.left) // self.cell)
        row = int((pos[1] - self.grid_rect.top) // self.cell)
        return row, col


class BoardView:
    """Draws discs, the frame, the ghost disc, highlights and glowing runs."""

    def __init__(self, theme: Theme):
        self.theme = theme
        self._frame_cache: dict[tuple[int, int, int, str], pygame.Surface] = {}

    def _frame(self, layout: BoardLayout) -> pygame.Surface:
        """The board face with see-through holes (cached per size and palette)."""
        p = self.theme.palette
        key = (layout.rules.rows, layout.rules.cols, layout.cell, p.name)
        frame = self._frame_cache.get(key)
        if frame is None:
            pad = max(4, layout.cell // 8)
            rect = layout.grid_rect.inflate(pad * 2, pad * 2)
            frame = pygame.Surface(rect.size, pygame.SRCALPHA)
            pygame.draw.rect(frame, p.board, frame.get_rect(), border_radius=pad * 2)
            pygame.draw.rect(frame, p.board_edge, frame.get_rect(), max(2, pad // 2), border_radius=pad * 2)
            for row in range(layout.rules.rows):
                for col in range(layout.rules.cols):
                    center = (pad + (col + 0.5) * layout.cell, pad + (row + 0.5) * layout.cell)
                    pygame.draw.circle(frame, (0, 0, 0, 0), center, layout.radius + 1)
                    pygame.draw.aacircle(frame, p.board_edge, center, layout.radius + 1, 2)
            if len(self._frame_cache) > 8:
                self._frame_cache.clear()
            self._frame_cache[key] = frame
        return frame

    def draw(
        self,
        surface: pygame.Surface,
        layout: BoardLayout,
        grid: np.ndarray,
        *,
        hidden: set[Cell] = frozenset(),  # type: ignore[assignment]
        drop: DiscDrop | None = None,
        highlight_col: int | None = None,
        highlight_cell: Cell | None = None,
        ghost: tuple[Cell, int, bool] | None = None,  # (cell, side, above the board?)
        hint: int | Cell | None = None,
        glow: Sequence[Run] = (),
        glow_sides: Sequence[int] | None = None,
        notes: Sequence[ColumnNote | None] = (),
        last: Cell | None = None,
        t: float = 0.0,
    ) -> None:
        """Draw the board; ``glow`` runs light up (in each run's side colour when
        ``glow_sides`` gives the sides, as in full-board mode), ``notes`` label columns."""
        pad = max(4, layout.cell // 8)
        self.theme.keep_clear(layout.grid_rect.inflate(pad * 2, pad * 2))  # (its column names: ``draw_labels``)
        self.draw_highlights(surface, layout, highlight_col, highlight_cell)
        self.draw_discs(surface, layout, grid, hidden, drop, ghost)
        surface.blit(self._frame(layout), (layout.grid_rect.left - pad, layout.grid_rect.top - pad))
        self.draw_labels(surface, layout)
        # Marks over the frame: last move, hint, glowing runs, column notes.
        if last is not None:
            x, y = layout.center(*last)
            dot = max(3, layout.radius // 6)  # on a halo: a disc's own mark is as dark as the dot in monochrome
            pygame.draw.circle(surface, self.theme.palette.panel, (x, y), dot + max(2, dot // 2))
            pygame.draw.circle(surface, self.theme.palette.accent, (x, y), dot)
        if hint is not None:
            self.draw_hint(surface, layout, hint, ghost)
        if glow:
            self.draw_glow(surface, layout, glow, glow_sides, t)
        for col, note in enumerate(notes):
            if note is not None:
                self.draw_note(surface, layout, col, note)

    def draw_position(
        self,
        surface: pygame.Surface,
        layout: BoardLayout,
        board: Board,
        *,
        highlight_col: int | None = None,
        ghost: tuple[Cell, int, bool] | None = None,
        notes: Sequence[ColumnNote | None] = (),
    ) -> None:
        """Draw ``board`` as it stands, as the boards one explores show it: its last disc
        marked and, once the game is over, its winning lines lit."""
        outcome = board.outcome()
        self.draw(
            surface,
            layout,
            board.grid,
            last=board.last_cell(),
            ghost=ghost,
            highlight_col=highlight_col,
            notes=notes,
            glow=outcome.runs if outcome is not None else (),
        )

    def draw_highlights(
        self, surface: pygame.Surface, layout: BoardLayout, column: int | None, cell: Cell | None
    ) -> None:
        """The back of the holes, with the column (or cell) under the cursor lit."""
        p = self.theme.palette
        pygame.draw.rect(surface, p.hole, layout.grid_rect)
        top, left, size = layout.grid_rect.top, layout.grid_rect.left, layout.cell
        if column is not None:
            lit = pygame.Rect(left + column * size, top, size, layout.grid_rect.height)
            pygame.draw.rect(surface, _mix(p.hole, p.accent, 0.22), lit)
        if cell is not None:
            r, c = cell
            pygame.draw.rect(
                surface, _mix(p.hole, p.accent, 0.3), pygame.Rect(left + c * size, top + r * size, size, size)
            )

    def draw_discs(
        self,
        surface: pygame.Surface,
        layout: BoardLayout,
        grid: np.ndarray,
        hidden: set[Cell],
        drop: DiscDrop | None,
        ghost: tuple[Cell, int, bool] | None,
    ) -> None:
        """The discs behind the frame: the grid's, the falling one, the ghost."""
        for row in range(layout.rules.rows):
            for col in range(layout.rules.cols):
                side = int(grid[row, col])
                if side != EMPTY and (row, col) not in hidden:
                    self.theme.draw_disc(surface, layout.center(row, col), layout.radius, side)
        if drop is not None:
            self.theme.draw_disc(surface, layout.center(drop.y, drop.col), layout.radius, drop.side)
        if ghost is not None:
            (row, col), side, above = ghost
            if above:
                self.theme.draw_disc(surface, layout.center(-1.05, col), layout.radius, side, alpha=200)
            self.theme.draw_disc(surface, layout.center(row, col), layout.radius, side, alpha=90)

    def draw_hint(
        self, surface: pygame.Surface, layout: BoardLayout, hint: int | Cell, ghost: tuple[Cell, int, bool] | None
    ) -> None:
        """A ring on the hinted cell, or an arrow over the hinted column."""
        glow = self.theme.palette.glow
        if isinstance(hint, tuple):
            x, y = layout.center(*hint)
            pygame.draw.circle(surface, glow, (x, y), layout.radius + 3, max(3, layout.cell // 14))
        elif ghost is not None and ghost[2] and ghost[0][1] == hint:
            # The ghost disc waits over the hinted column: ring it rather than draw
            # the arrow across it.
            x, y = layout.center(-1.05, hint)
            pygame.draw.circle(surface, glow, (x, y), layout.radius + 3, max(3, layout.cell // 14))
        else:
            x, _ = layout.center(0, hint)
            arrow_y = layout.grid_rect.top - layout.cell * 0.15
            size = layout.cell * 0.3
            pygame.draw.polygon(surface, glow, [(x - size, arrow_y - size), (x + size, arrow_y - size), (x, arrow_y)])

    def draw_glow(
        self,
        surface: pygame.Surface,
        layout: BoardLayout,
        glow: Sequence[Run],
        glow_sides: Sequence[int] | None,
        t: float,
    ) -> None:
        """The winning runs, pulsing (full board: each in its side's mark colour)."""
        p = self.theme.palette
        strength = self.theme.pulse(t)
        width = max(3, int(layout.cell * (0.06 + 0.05 * strength)))
        for index, run in enumerate(glow):
            if glow_sides is None:
                color, line_color = _mix(p.glow, (255, 255, 255), 0.4 * strength), None
            else:  # each player's runs in that player's mark colour (seen on its own discs)
                mark = self.theme.side_colors(glow_sides[index])[1]
                color, line_color = _mix(mark, (255, 255, 255), 0.25 * strength), mark
            for row, col in run:
                pygame.draw.circle(surface, color, layout.center(row, col), layout.radius + 2, width)
            first, last_cell = layout.center(*run[0]), layout.center(*run[-1])
            pygame.draw.line(surface, line_color or color, first, last_cell, max(2, width // 2))

    def draw_note(self, surface: pygame.Surface, layout: BoardLayout, col: int, note: ColumnNote) -> None:
        """A column's badge: its text on the note's colour, clear of the rounded ends; on two
        lines ("pierde" over "18") in a taller badge where a narrow column has no room for one."""
        rect = layout.note_rect(col)
        scale = self.theme.scale
        font = self.theme.font
        # The badge's size at 100 %, made bigger by the UI scale like every text; the badge
        # grows with it (taller, as wide as its column), never the text smaller than
        # NOTE_SMALLEST at a big scale ("lose" over "18" where one line is too wide).
        size: float = min(max(11, int(rect.height * 0.75)), rect.height * 0.9)
        least = 9.0 if scale <= 1 else NOTE_SMALLEST
        rect.height = max(rect.height, font(size, True).get_linesize() + 4)
        if scale > 1:
            rect.width = max(rect.width, min(layout.cell - 4, font(size, True).size(note.text)[0] + rect.height))
            rect.centerx = round(layout.center(0, col)[0])
        room = rect.width - 2 * int(rect.height * 0.4)  # the straight middle and a little of each end
        while size > least and font(size, True).size(note.text)[0] > room:
            size = max(least, size - 0.5)  # shrink rather than cut "lose 18"
            room = rect.width - 2 * int(rect.height * 0.4)
        if font(size, True).size(note.text)[0] > room:  # still too wide: into the round ends, not cut
            room = rect.width - 4
        lines = [note.text]
        if font(size, True).size(note.text)[0] > room and " " in note.text:
            lines = note.text.rsplit(" ", 1)
        while size > 8 / scale and max(font(size, True).size(line)[0] for line in lines) > rect.width - 4:
            size -= 0.5  # a narrow column on a small board: whole words, smaller, never cut
        if len(lines) == 2:
            rect.height = 2 * font(size, True).get_linesize() + 4
            # each line clear of the badge's round ends, not running into them ("pierde" at 200 %)
            while size > 8 / scale and max(font(size, True).size(line)[0] for line in lines) > inner_width(rect):
                size -= 0.5
                rect.height = 2 * font(size, True).get_linesize() + 4
        radius = min(rect.height, rect.width) // 2
        self.theme.keep_clear(rect)  # a column's exact score: part of the board
        pygame.draw.rect(surface, note.color, rect, border_radius=radius)
        ink = readable_on(note.color)
        if _contrast(note.color, self.theme.palette.background) < 1.5:  # a white badge on white
            pygame.draw.rect(surface, ink, rect, max(1, rect.height // 12), border_radius=radius)
        step = rect.height / len(lines)
        for index, line in enumerate(lines):
            center = (rect.centerx, rect.top + step * (index + 0.5))
            self.theme.text(
                surface,
                self.theme.fit(line, size, rect.width - 4, bold=True),
                size,
                center,
                color=ink,
                bold=True,
                anchor="center",
            )

    def draw_labels(self, surface: pygame.Surface, layout: BoardLayout) -> None:
        """Column names under the board (as moves are written), row numbers without gravity."""
        rules = layout.rules
        size: float = max(15, int(layout.cell * 0.45))
        color = self.theme.palette.muted
        y = layout.grid_rect.bottom + layout.cell * 0.12
        # As big as the UI scale makes them, as far as the room under the board allows: they
        # must not run into what lies below it (buttons, lines of text).
        while size > 11 / self.theme.scale and self.theme.font(size).size("8")[1] > layout.area.bottom + 2 - y:
            size -= 0.5
        for col in range(rules.cols):
            name = str(col + 1) if rules.gravity and rules.cols <= 9 else column_letter(col)
            label = self.theme.text(surface, name, size, (layout.center(0, col)[0], y), color=color, anchor="midtop")
            self.theme.keep_clear(label)
        if not rules.gravity:
            x = layout.grid_rect.left - layout.cell * 0.18
            for row in range(rules.rows):
                label = self.theme.text(
                    surface, str(rules.rows - row), size, (x, layout.center(row, 0)[1]), color=color, anchor="midright"
                )
                self.theme.keep_clear(label)


def inner_width(badge: pygame.Rect) -> int:
    """The width of a two-line badge's text inside its round ends (a quarter of its
    rounding on each side: the words' corners stay on the colour)."""
    return badge.width - 2 * max(3, min(badge.height, badge.width) // 4)


def _luminance(color: Color) -> float:
    """The relative luminance of an sRGB colour (WCAG 2)."""
    linear = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in color]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: Color, b: Color) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def readable_on(fill: Color) -> Color:
    """White on a fill dark enough for it (contrast 3:1, WCAG's for bold text), else black."""
    return (255, 255, 255) if _contrast(fill, (255, 255, 255)) >= 3.0 else (0, 0, 0)


def _mix(a: Color, b: Color, share: float) -> Color:
    """The colour ``share`` of the way from ``a`` to ``b``."""
    return (int(a[0] + (b[0] - a[0]) * share), int(a[1] + (b[1] - a[1]) * share), int(a[2] + (b[2] - a[2]) * share))
