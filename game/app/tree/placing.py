"""Where the tree overlay's parts go for the window's size, computed before drawing.

``relayout`` places the panels, the nodes (``layout.layout``), the path in the header and
the buttons, and works out what ``draw.py`` needs beyond them, so that drawing changes
nothing.  Functions of the scene's state; the scene calls them when its view changes.
"""

from __future__ import annotations

import pygame

from game.app.theme import Theme
from game.app.tree.layout import PRUNED, layout, path_to
from game.app.tree.legend import legend_layout
from game.app.tree.overlay import Areas, TreeOverlay
from game.app.widgets import Button, row_rects
from game.i18n import N_, _

SPEEDS = (1, 3, 10, 30, 100, 300, 1000, 3000)
"""Replay steps per second, one per press of S."""

MIN_ROW = 46.0
"""Pixels between two rows of the tree, at least: a node, its value, the next node's label."""

TIGHT_ROW = 38.0
"""The least, beside the legend: the next row's node just clears its parent's value."""

DEEP_ROW = 24.0
"""The least of all: rows closer than ``TIGHT_ROW`` so that a deep tree's last row stays in view."""

BUTTON_FONT = 16
STRIP_HEIGHT = 32
"""A row of the bottom strip's buttons at 100 %; it grows with the UI scale (``strip_height``)."""
STRIP_GAP = 6
TOAST_FONT = 20  # the size App.draw_toast writes in


def areas_for(size: tuple[int, int], theme: Theme | None = None, button_rows: int = 1) -> Areas:
    """The panels for a window of ``size``; the header holds the title and the path at
    the ``theme``'s UI scale, the bottom panel its lines over ``button_rows`` rows of buttons."""
    w, h = size
    margin = 12
    header = pygame.Rect(margin, margin, w - 2 * margin, header_height(theme))
    side = min(340, max(240, int(w * 0.3)))
    bottom_h = min(190, max(150, int(h * 0.26))) + strip_height(theme, button_rows) - STRIP_HEIGHT
    bottom = pygame.Rect(margin, h - margin - bottom_h, w - 2 * margin, bottom_h)
    detail = pygame.Rect(w - margin - side, header.bottom + 8, side, bottom.top - header.bottom - 16)
    canvas = pygame.Rect(margin, header.bottom + 8, detail.left - 2 * margin, bottom.top - header.bottom - 16)
    return Areas(header, canvas, detail, bottom)


def strip_height(theme: Theme | None, rows: int = 1) -> int:
    """The bottom strip of buttons: ``rows`` rows, each tall enough for a label over its key
    at the UI scale (``STRIP_HEIGHT`` at 100 %)."""
    row = STRIP_HEIGHT
    if theme is not None:
        row = max(row, theme.font(BUTTON_FONT).get_linesize() + theme.font(11).get_linesize() + 8)
    return rows * row + (rows - 1) * STRIP_GAP


def path_top(theme: Theme | None) -> int:
    """The path's row in the header: under the title (22 bold), at the UI scale."""
    return 34 if theme is None or theme.scale <= 1 else 8 + theme.font(22, True).get_linesize()


def header_height(theme: Theme | None) -> int:
    return 62 if theme is None or theme.scale <= 1 else path_top(theme) + theme.font(18).get_linesize() + 6


def row_pitch(height: float, rows: int, roomy: float) -> float:
    """Pixels between rows: ``roomy`` or more where every row fits so; else closer (down to
    ``DEEP_ROW``), so that the deepest row and its values stay on the canvas."""
    even = height / max(1, rows)
    if even >= roomy:
        return min(84.0, even)
    return max(DEEP_ROW, height / (rows + 0.3))  # the last row's value label hangs below it


def relayout(scene: TreeOverlay) -> None:
    """Compute where everything goes for the window's size (``draw`` only reads it)."""
    surface = pygame.display.get_surface()
    if surface is None:
        return
    scene.button_rows = button_rows(scene, surface.get_width())
    scene.areas = areas_for(surface.get_size(), scene.app.theme, scene.button_rows)
    tree = scene.tree
    if tree is None:
        scene.drawn, scene.crumbs, scene.legend = [], [], None
        layout_buttons(scene)
        return
    canvas = scene.areas.canvas
    rows = tree.depth - tree.node(scene.view.root).ply + 1
    theme = scene.app.theme
    legend = scene.cached(("legend", canvas.size, tree.pruning), lambda: legend_layout(theme, canvas, tree))
    if scene.legend_open is None:  # by default only where the tree keeps room to breathe
        roomy = (canvas.height - 20 - legend.box.height) / (tree.depth + 1) >= 56  # the whole tree's rows
        scene.legend = legend if roomy else None
    else:
        scene.legend = legend if scene.legend_open else None
    height = canvas.height - 12 - (scene.legend.box.height + 8 if scene.legend is not None else 0)
    # Asked for where the tree's rows would not all fit beside it: the legend takes the canvas.
    scene.legend_page = scene.legend is not None and height < rows * TIGHT_ROW
    if scene.legend_page:
        scene.legend = scene.cached(
            ("legend-page", canvas.size, tree.pruning), lambda: legend_layout(theme, canvas, tree, page=True)
        )
        height = canvas.height - 12
    scene.drawn = (
        []
        if scene.legend_page
        else layout(
            tree,
            scene.view,
            (canvas.left + 10, canvas.top + 6, canvas.width - 20, max(60, height)),
            row_height=row_pitch(height, rows, MIN_ROW if scene.legend is None else TIGHT_ROW),
            line=scene.line(),
        )
    )
    scene.crumbs = crumb_rects(scene)
    # What draw needs beyond the tree, worked out here so that drawing changes nothing.
    scene.stub_moves = {item.index: scene.pruned_moves(item.index) for item in scene.drawn if item.kind == PRUNED}
    scene.selected_board = scene.cached(("board", id(tree), scene.selected), tree.node(scene.selected).board)
    scene.per_ply = scene.cached(("ply", id(tree)), tree.nodes_per_ply)
    scene.root_moves = scene.cached(("legal", id(tree)), lambda: len(tree.root.board().legal_moves()))
    layout_buttons(scene)


def crumb_rects(scene: TreeOverlay) -> list[tuple[pygame.Rect, int]]:
    """Where each node of the path to the view's root is written in the header."""
    theme = scene.app.theme
    tree = scene.known_tree
    header = scene.areas.header
    x = header.left + 10 + theme.font(18).size(_("Path:"))[0] + 8
    y = header.top + path_top(theme)
    crumbs = []
    for index in path_to(tree, scene.view.root):
        width, height = theme.font(18, bold=index == scene.view.root).size(scene.move_label(tree.node(index).move))
        crumbs.append((pygame.Rect(x, y, width, height), index))
        x += width + 6
        if index != scene.view.root:
            x += theme.font(18).size(">")[0] + 6
    return crumbs


def tree_buttons(scene: TreeOverlay) -> list[Button]:
    """The bottom strip's buttons, in the order ``layout_buttons`` relabels them: the
    replay's first (the first row, where there are two), then the others."""
    return [
        Button("|<", lambda: scene.replay_jump(start=True), "Home"),  # the keys of keys.py
        Button("<", scene.replay_back, ","),
        Button(N_("Play"), scene.toggle_play, "Space"),
        Button(">", scene.replay_forward, "."),
        Button(">|", lambda: scene.replay_jump(start=False), "End"),
        Button(N_("Speed"), scene.next_speed, "S"),
        Button(N_("Compare"), scene.toggle_compare, "C"),
        Button(N_("Orders"), scene.toggle_orders, "O"),
        Button(N_("Legend"), scene.toggle_legend, "L"),
        Button(N_("Fit"), scene.fit, "F"),
        Button(N_("Close"), scene.close, "Esc"),
    ]


FIRST_ROW = 6
"""Buttons in the first row when the strip takes two: the replay's."""

LABELS = {
    2: (N_("Play"), N_("Pause")),
    5: (f"x{max(SPEEDS)}",),
    6: (N_("Compare"), N_("Cancel")),
    7: (N_("Orders"), N_("Stop")),
    8: (N_("Legend"),),  # "No legend" only where it fits
}
"""The labels a strip button takes in turn; the strip is laid out for the longest, so that
it does not change rows as they change."""


def strip_rects(strip: pygame.Rect, count: int, rows: int) -> list[pygame.Rect]:
    """``count`` buttons in ``strip``: one row, or two (the first ``FIRST_ROW``, then the rest)."""
    if rows == 1:
        return row_rects(strip, count, STRIP_GAP)
    height = (strip.height - STRIP_GAP) // 2
    first = pygame.Rect(strip.left, strip.top, strip.width, height)
    second = pygame.Rect(strip.left, strip.bottom - height, strip.width, height)
    return row_rects(first, FIRST_ROW, STRIP_GAP) + row_rects(second, count - FIRST_ROW, STRIP_GAP)


def button_rows(scene: TreeOverlay, width: int) -> int:
    """One row of buttons where each shows its label (at the UI scale's size) and key whole
    in a window ``width`` wide, in the language, else two."""
    theme = scene.app.theme
    buttons = scene.buttons
    strip = pygame.Rect(0, 0, width - 44, strip_height(theme))  # the bottom panel's width, less its margins
    for index, (button, rect) in enumerate(zip(buttons, strip_rects(strip, len(buttons), 1))):
        labels = LABELS.get(index, (button.label,)) if len(buttons) == 11 else (button.label,)
        faces = [button.face(theme, BUTTON_FONT, rect=rect, label=label) for label in labels]
        if not all(face.fits and face.full for face in faces):
            return 2
    return 1


def layout_buttons(scene: TreeOverlay) -> None:
    bottom = scene.areas.bottom
    height = strip_height(scene.app.theme, scene.button_rows)
    strip = pygame.Rect(bottom.left + 10, bottom.bottom - 8 - height, bottom.width - 20, height)
    for button, rect in zip(scene.buttons, strip_rects(strip, len(scene.buttons), scene.button_rows)):
        button.rect = rect
    if len(scene.buttons) == 11:  # labels in English: the button words them as it draws
        scene.buttons[2].label = N_("Pause") if scene.playing else N_("Play")
        scene.buttons[5].label = f"x{SPEEDS[scene.speed_index]}"
        scene.buttons[6].label = N_("Cancel") if scene.compare_job is not None else N_("Compare")
        scene.buttons[7].label = N_("Stop") if scene.orders is not None and scene.orders.running else N_("Orders")
        legend = scene.buttons[8]
        hide = (
            N_("No legend") if legend.face(scene.app.theme, BUTTON_FONT, label=N_("No legend")).fits else N_("Legend")
        )
        legend.label = N_("Legend") if not scene.shows_legend() else hide


def demo_select(scene: TreeOverlay) -> None:
    """Show the biggest search of the match with a pruned branch selected."""
    candidates = [i for i, r in enumerate(scene.play.searches) if r.result.tree is not None]
    if not candidates:
        return
    scene.show_search(max(candidates, key=lambda i: len(scene.play.searches[i].result.tree or ())))
    tree = scene.known_tree
    for child in tree.root.children():
        if child.pruned_count:
            scene.select(child.index, follow=False)
            scene.relayout()
            return
    for node in tree.iter_nodes():
        if node.pruned_count and node.ply <= 3:
            parent = node.parent
            scene.focus(parent.index if parent else node.index)
            scene.select(node.index, follow=False)
            return
    scene.relayout()


def toast_bottom(scene: TreeOverlay, size: tuple[int, int]) -> int:
    """Where toasts end over the overlay: above the bottom panel, over the tree, never over
    the panel's or the legend's words (above the legend, or under a legend shown in place
    of the tree)."""
    theme = scene.app.theme
    areas = areas_for(size, theme, scene.button_rows)
    bottom = areas.bottom.top - 6
    legend = scene.legend
    if legend is None:
        return bottom
    height = theme.font(TOAST_FONT).get_linesize() + 14
    if bottom - height >= legend.box.bottom:  # room under it (a legend page)
        return bottom
    if legend.box.top - 6 - height >= areas.canvas.top:
        return legend.box.top - 6
    return bottom
