"""Draws an explanation (``ai.explain``) on a board the ``BoardView`` has drawn.

Three kinds of mark, each told by its shape and its words, never by colour alone (the
colour-vision palettes and monochrome read the same):

- a **threat**: a faint disc of the side that threatens (its ring or cross says whose),
  with its row's number under it, in a round tag for an odd row and a square one for an
  even row (odd rows serve player 1, even rows player 2);
- a **pair** of the strategy: the same letter (A, B, ...) on both of its squares, in a
  round tag at the top of the hole; two squares of different columns joined by a line;
- the **forced line** (and the columns a strategy starts with): faint discs of the side
  that plays them, numbered in the order they are played.

Drawing changes nothing.  Squares are ``ai.explain`` squares (a column and a row counted
1..6 from the bottom); the board's cells count rows from the top.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pygame

from ai.explain.explanation import Explanation, Square, Threat
from game.app.board_view import BoardLayout
from game.app.theme import Theme
from game.rules import EMPTY, Cell

FAINT = 110
"""How opaque a marked disc is (of 255): the board's own discs stay the plain ones."""
PAIR_LABELS = "ABCDEFGHJKLMNPQRSTUVWXYZ"
"""The pairs' letters, in the strategy's order (I and O left out: they read as 1 and a disc)."""


def cell_of(square: Square, rows: int) -> Cell:
    """The board cell (row 0 at the top) of a square (row 1 at the bottom)."""
    return rows - square.row, square.col


def line_cells(grid: np.ndarray, start_side: int, columns: Iterable[int]) -> list[tuple[Cell, int]]:
    """Where each disc of a line of columns lands from ``grid``, and whose it is (the sides
    take turns from ``start_side``)."""
    heights = [int(np.count_nonzero(grid[:, col] != EMPTY)) for col in range(grid.shape[1])]
    rows = grid.shape[0]
    cells = []
    side = start_side
    for col in columns:
        if heights[col] >= rows:
            break  # a column already full: the line ends here (never expected)
        cells.append(((rows - 1 - heights[col], col), side))
        heights[col] += 1
        side = -side
    return cells


def draw_threats(
    surface: pygame.Surface,
    theme: Theme,
    layout: BoardLayout,
    grid: np.ndarray,
    threats: Iterable[Threat],
    *,
    discs: bool = True,
    tags: bool = True,
) -> None:
    """Each threat on an empty square: a faint disc of its side (``discs``; a square both
    sides threaten: two small discs side by side) and its row under it (``tags``)."""
    rows = layout.rules.rows
    sides: dict[Square, list[int]] = {}
    for threat in threats:
        sides.setdefault(threat.square, []).append(threat.side)
    for square, whose in sides.items():
        row, col = cell_of(square, rows)
        if grid[row, col] != EMPTY:
            continue
        x, y = layout.center(row, col)
        if discs and len(whose) == 1:
            theme.draw_disc(surface, (x, y), layout.radius, whose[0], alpha=FAINT)
        elif discs:
            for shift, side in zip((-0.45, 0.45), sorted(whose, reverse=True)):
                theme.draw_disc(
                    surface, (x + shift * layout.radius, y - 0.15 * layout.radius), layout.radius * 0.5, side
                )
        if tags:
            _badge(surface, theme, layout, str(square.row), (x, y + layout.radius * ROW_TAG), square=not square.is_odd)


ROW_TAG, NUMBER_TAG, PAIR_TAG = 0.55, -0.3, -0.5
"""Where a hole's tags sit, in disc radii under its centre: the threat's row at the foot, the
line's number above the middle, the pair's letter at the top (never both of the last two)."""


def draw_explanation(
    surface: pygame.Surface, theme: Theme, layout: BoardLayout, grid: np.ndarray, e: Explanation
) -> None:
    """The explanation's threats, its strategy's pairs and its forced line (or the columns
    the strategy starts with), over ``grid`` (the position explained): the faint discs
    first, then every tag over them."""
    reason = e.reason
    strategy = reason.strategy
    rows = layout.rules.rows
    numbered: list[tuple[Cell, int]] = []
    if reason.line:
        numbered = line_cells(grid, e.to_move, reason.line)
    elif strategy is not None and strategy.after:
        numbered = line_cells(grid, e.to_move, strategy.after)
    on_line = {cell for cell, _side in numbered}
    standing = [t for t in e.threats if cell_of(t.square, rows) not in on_line]  # a line's disc shows who plays there
    draw_threats(surface, theme, layout, grid, standing, tags=False)
    for cell, side in numbered:
        theme.draw_disc(surface, layout.center(*cell), layout.radius, side, alpha=FAINT + 40)
    draw_threats(surface, theme, layout, grid, e.threats, discs=False)
    if strategy is not None:
        ink = theme.palette.text
        for index, (a, b) in enumerate(strategy.pairs):
            label = PAIR_LABELS[index % len(PAIR_LABELS)]
            ends = [layout.center(*cell_of(square, rows)) for square in (a, b)]
            tops = [(x, y + layout.radius * PAIR_TAG) for x, y in ends]
            if a.col != b.col:  # a pair across columns (a baseinverse): joined, so it is found
                pygame.draw.line(surface, ink, tops[0], tops[1], max(1, layout.cell // 30))
            for top in tops:
                _badge(surface, theme, layout, label, top)
    for number, (cell, _side) in enumerate(numbered, start=1):
        x, y = layout.center(*cell)
        _badge(surface, theme, layout, str(number), (x, y + layout.radius * NUMBER_TAG), bold=True)


def tag_radius(layout: BoardLayout) -> int:
    """A tag's radius: a fifth of a cell (at least 8 pixels), whatever the UI scale."""
    return max(8, int(layout.cell * 0.19))


def _badge(
    surface: pygame.Surface,
    theme: Theme,
    layout: BoardLayout,
    text: str,
    center: tuple[float, float],
    *,
    bold: bool = False,
    square: bool = False,
) -> None:
    """A tag with a letter or a number, dark on the panel colour with a dark edge: round,
    or (``square``) square."""
    p = theme.palette
    radius = tag_radius(layout)
    edge = max(1, radius // 6)
    if square:
        box = pygame.Rect(0, 0, radius * 2 - 2, radius * 2 - 2)
        box.center = (round(center[0]), round(center[1]))
        pygame.draw.rect(surface, p.panel, box)
        pygame.draw.rect(surface, p.text, box, edge)
    else:
        pygame.draw.circle(surface, p.panel, center, radius)
        pygame.draw.circle(surface, p.text, center, radius, edge)
    size = radius * 1.25 / max(1.0, theme.scale)  # the tag's size, whatever the UI scale
    theme.text(surface, text, size, center, color=p.text, bold=bold, anchor="center")
