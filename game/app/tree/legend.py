"""The key to the tree drawing: what each shape, number and mark means.

Entries are (icon, text); the icon is a word ``draw.py`` paints as a shape ("shapes",
"stub", "line", "summary") or else a sample value written in bold.  The layout is
computed by the scene (on resize and in ``update``) so that drawing changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

import pygame

from ai.tree import SearchTree
from game.app.theme import Theme
from game.app.tree.text import node_count_text
from game.i18n import N_, _

LEGEND: tuple[tuple[str, str], ...] = (
    ("shapes", N_("MAX (player 1) takes the largest child value, MIN the smallest")),
    ("+13", N_("the heuristic's value at the depth limit; + is good for MAX")),
    ("+W3", N_("a forced win for MAX 3 plies from the root (a ply: one disc, either side's); -W3: for MIN")),
    ("+F", N_("a forced win just past the depth limit: a win to play or two threats (+F for MAX, -F for MIN)")),
    (">=20", N_(">=20, <=20: only a bound after a cutoff, not the exact value")),
    ("stub", N_("moves a cutoff left unsearched: they cannot change the choice")),
    ("[a, b]", N_("the alpha-beta window of a node while it is being searched")),
    ("line", N_("the expected line, down to the leaf its value comes from")),
    ("summary", N_("nodes too small to draw here: zoom in or focus")),
)
TABLE_LEGEND = (
    "table",
    N_("T: answered from the transposition table, not searched again (T in red: a table cutoff by a stored bound)"),
)
"""The legend's entry for a search with the transposition table."""
FONT_SIZE = 14
ICON_WIDTH = 58
TITLE = N_("Legend (L hides)")
PAGE_TITLE = N_("Legend, in place of the tree at this window size (L shows the tree again)")


def search_order_text(tree: SearchTree) -> str:
    """Why the children stand in the order they do (and what "all passes" means)."""
    if tree.pruning:
        return _(
            "Children stand in the order the search tried them, not column order (best first: the previous pass's best move, then centre first). All passes: depth 1, 2, ... counted together."
        )
    return _("Children stand in search order, not column order: centre first (without pruning order does not matter).")


@dataclass(frozen=True)
class LegendEntry:
    icon: str
    icon_rect: pygame.Rect
    lines: tuple[str, ...]
    text_pos: tuple[int, int]


@dataclass(frozen=True)
class LegendLayout:
    box: pygame.Rect
    entries: tuple[LegendEntry, ...]


def legend_layout(theme: Theme, canvas: pygame.Rect, tree: SearchTree, *, page: bool = False) -> LegendLayout:
    """Place the legend along the bottom of ``canvas`` (``page``: at its top, in place of
    the tree, where both do not fit): two columns when there is room."""
    columns = 2 if canvas.width >= 820 else 1
    width = canvas.width - 16
    column_w = (width - 8) // columns
    text_w = column_w - ICON_WIDTH - 12
    line_h = theme.font(FONT_SIZE).get_linesize()
    items = [
        (icon, tuple(theme.wrap(_(text), FONT_SIZE, text_w)))
        for icon, text in (LEGEND + (TABLE_LEGEND,) if tree.table else LEGEND)
    ]
    order_lines = tuple(theme.wrap(search_order_text(tree), FONT_SIZE, width - 20)) + tuple(
        theme.wrap(node_count_text(tree), FONT_SIZE, width - 20)
    )
    per_column = -(-len(items) // columns)
    heights = [
        sum(max(1, len(lines)) * line_h + 2 for _, lines in items[c * per_column : (c + 1) * per_column])
        for c in range(columns)
    ]
    height = 26 + max(heights) + len(order_lines) * line_h + 8
    box = pygame.Rect(canvas.left + 8, canvas.top + 8 if page else canvas.bottom - 8 - height, width, height)
    entries = []
    for column in range(columns):
        x = box.left + 8 + column * column_w
        y = box.top + 24
        for icon, lines in items[column * per_column : (column + 1) * per_column]:
            entries.append(LegendEntry(icon, pygame.Rect(x, y, ICON_WIDTH, line_h), lines, (x + ICON_WIDTH + 6, y)))
            y += max(1, len(lines)) * line_h + 2
    entries.append(
        LegendEntry(
            "", pygame.Rect(box.left + 8, box.top, 0, 0), order_lines, (box.left + 10, box.top + 24 + max(heights))
        )
    )
    return LegendLayout(box, tuple(entries))
