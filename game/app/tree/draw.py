"""Painting the tree overlay from its scene's state; nothing here changes that state.

What may be shown at a replay step is decided by the scene (``node_text``,
``shows_cutoff``, ``shows_line``, ``banner``, ``detail_lines``); this module only paints.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ai.search import SearchStats
from ai.tree import BoundKind, LeafReason, Node, SearchTree, minimal_tree, nodes_text
from game.app.search_records import whose_search
from game.app.theme import Theme
from game.app.tree.detail import CUE_SIZE, SMALLEST, DetailLayout, cue, detail_layout
from game.app.tree.layout import NODE, PRUNED, SUMMARY, Placed
from game.app.tree.legend import FONT_SIZE, PAGE_TITLE, TITLE
from game.app.tree.overlay import TreeOverlay
from game.app.tree.placing import STRIP_HEIGHT, path_top, strip_height
from game.app.tree.text import compare_verdict, order_line, table_line
from game.app.widgets import dim
from game.board import Board
from game.i18n import _, ngettext, number

NODE_SIZE = 11
Color = tuple[int, int, int]


def draw_overlay(scene: TreeOverlay, surface: pygame.Surface) -> None:
    dim(surface, 90)
    theme = scene.app.theme
    p = theme.palette
    areas = scene.areas
    for rect in (areas.header, areas.canvas, areas.detail, areas.bottom):  # opaque: the game shows around them
        pygame.draw.rect(surface, p.panel, rect, border_radius=6)
        pygame.draw.rect(surface, p.muted, rect, 1, border_radius=6)
    tree = scene.tree
    if tree is None:
        if scene.record.tree_skipped:
            message = _("This move's tree was not recorded: the moves came too fast.")
        elif scene.record.tree_dropped:
            message = _("This move's tree is no longer kept: the window keeps the latest four searches' trees.")
        elif scene.record.has_tree:
            message = _("The tree of this search is still arriving...")
        else:
            message = _("This answer came from the opening book or the exact solver: it has no search tree.")
        width = areas.canvas.width - 40
        for offset, (text, size, color) in enumerate(
            ((message, 22, p.text), (_("Esc, T or a click closes"), 17, p.muted))
        ):
            line = theme.fit(text, size, width)
            theme.text(
                surface,
                line,
                size,
                (areas.canvas.centerx, areas.canvas.centery + 34 * offset),
                color=color,
                anchor="center",
            )
        return
    draw_header(scene, surface, tree)
    clip = surface.get_clip()
    surface.set_clip(areas.canvas)
    draw_tree(scene, surface, tree)
    draw_legend(scene, surface)
    surface.set_clip(clip)
    draw_detail(scene, surface, tree)
    draw_bottom(scene, surface, tree)


def header_title(scene: TreeOverlay, tree: SearchTree, width: int) -> str:
    """The header's first line: the longest wording that fits ``width`` pixels."""
    record = scene.record
    stats = record.result.stats
    whose = whose_search(record, scene.play.side_name(record.side))
    count = len(scene.play.searches)
    discs = ngettext("{ply} disc", "{ply} discs", record.ply).format(ply=record.ply)
    search = (
        _("depth {depth}, alpha-beta on, {nodes}") if tree.pruning else _("depth {depth}, alpha-beta off, {nodes}")
    ).format(depth=tree.depth, nodes=nodes_text(stats.nodes))
    titles = (  # the longest that fits: the numbers matter more than the words
        _("Search {record_index}/{count}: {whose} with {discs} down - {search}, {seconds:.3f} s").format(
            record_index=scene.record_index + 1,
            count=count,
            whose=whose,
            discs=discs,
            search=search,
            seconds=stats.seconds,
        ),
        _("Search {record_index}/{count}: {whose} - {search}, {seconds:.3f} s").format(
            record_index=scene.record_index + 1, count=count, whose=whose, search=search, seconds=stats.seconds
        ),
        _("Search {record_index}/{count}: {search}, {seconds:.3f} s").format(
            record_index=scene.record_index + 1, count=count, search=search, seconds=stats.seconds
        ),
        f"{scene.record_index + 1}/{count}: {search}",
    )
    return first_fitting(scene.app.theme, titles, 22, width, bold=True)


def draw_header(scene: TreeOverlay, surface: pygame.Surface, tree: SearchTree) -> None:
    theme = scene.app.theme
    p = theme.palette
    rect = scene.areas.header
    title = header_title(scene, tree, rect.width - 20)
    size = theme.shrink(title, 22, rect.width - 20, bold=True)
    theme.text(surface, title, size, (rect.left + 10, rect.top + 6), bold=True)
    y = rect.top + path_top(theme)
    label = theme.text(surface, _("Path:"), 18, (rect.left + 10, y), color=p.muted)
    x = label.right + 8
    for crumb, index in scene.crumbs:
        text = scene.move_label(tree.node(index).move)
        theme.text(surface, text, 18, crumb.topleft, color=p.accent, bold=index == scene.view.root)
        x = crumb.right + 6
        if index != scene.view.root:
            theme.text(surface, ">", 18, (x, y), color=p.muted)
            x += theme.font(18).size(">")[0] + 6
    if not tree.is_complete:
        note = _("Budget reached: {count:,} of {counted:,} nodes stored; '+N counted' marks the rest").format(
            count=len(tree), counted=tree.counted
        )
        theme.text(
            surface,
            theme.fit(note, 16, rect.right - x - 20),
            16,
            (rect.right - 10, y + 2),
            color=p.cutoff,
            anchor="topright",
        )
        return
    hints = (  # longest first: the new tools (K, P, D, E) are named wherever they fit
        _("[ ] other searches · K code · P practice · D depth chart · E export · F fit · L legend · Esc close"),
        _("K code · P practice · D depth chart · E export · F fit · L legend · Esc close"),
        _("K code · P practice · D depth · E export · Esc close"),
    )
    font = theme.font(16)
    hint = next((text for text in hints if font.size(text)[0] < rect.right - x - 30), None)
    if hint is not None:
        theme.text(surface, hint, 16, (rect.right - 10, y + 2), color=p.muted, anchor="topright")


def first_fitting(theme: Theme, texts: tuple[str, ...], size: float, width: float, *, bold: bool = False) -> str:
    """The first of ``texts`` (longest first) that fits ``width``; else the last one, to be
    drawn at ``Theme.shrink``'s size (the UI scale gives way), shortened only if that fails."""
    font = theme.font(size, bold)
    for text in texts:
        if font.size(text)[0] <= width:
            return text
    return theme.fit(texts[-1], theme.shrink(texts[-1], size, width, bold), width, bold=bold)


class Labels:
    """The canvas's words, placed so that no two overlap: each is drawn only where it
    covers none drawn before it, so the more important go first (at a big text size the
    tree shows fewer labels rather than a heap of them)."""

    def __init__(self, taken: list[pygame.Rect] | None = None):
        self.taken = list(taken or [])
        self.wanted: list[tuple[int, int, pygame.Rect, Callable[[], object]]] = []

    def add(self, rank: int, rect: pygame.Rect, paint: Callable[[], object]) -> None:
        """``paint`` draws a label within ``rect``; lower ``rank`` goes first."""
        self.wanted.append((rank, len(self.wanted), rect, paint))

    def draw(self) -> None:
        for _rank, _order, rect, paint in sorted(self.wanted, key=lambda want: want[:2]):
            if rect.collidelist(self.taken) == -1:
                self.taken.append(rect)
                paint()


SELECTED, ON_LINE, VALUE, MOVE, COUNTED, SUMMARY_BOX, STUB = range(7)
"""Which labels win where they would overlap: the selected node's first, the pruned moves' last."""


def label_rect(
    theme: Theme, text: str, size: float, pos: tuple[float, float], anchor: str, bold: bool = False
) -> pygame.Rect:
    """Where ``theme.text`` draws ``text`` at ``pos`` by ``anchor`` (a line's height at least)."""
    rect = pygame.Rect((0, 0), theme.font(size, bold).size(text))
    setattr(rect, anchor, (round(pos[0]), round(pos[1])))
    return rect


def draw_tree(scene: TreeOverlay, surface: pygame.Surface, tree: SearchTree) -> None:
    theme = scene.app.theme
    p = theme.palette
    line = scene.line() if scene.shows_line() else set()
    # Edges first, then nodes over them, then the words, none over another.
    for item in scene.drawn:
        if item.parent_xy is None:
            continue
        if item.kind == NODE:
            if not scene.is_drawn(item.index):
                continue
            on_line = item.index in line and tree.field(item.index, 0) in line
            color = p.glow if on_line else p.muted
            pygame.draw.line(surface, color, item.parent_xy, (item.x, item.y), 5 if on_line else 1)
        elif item.kind == PRUNED:
            if scene.shows_cutoff(item.index):
                _dashed(surface, p.pruned, item.parent_xy, (item.x, item.y))
    banner = banner_box(scene, tree)
    labels = Labels([banner[0]] if banner is not None else [])
    nodes: list[pygame.Rect] = []  # each drawn node's shape, for the summaries to keep off
    for item in scene.drawn:
        if item.kind == NODE:
            if scene.is_drawn(item.index):
                draw_node(scene, surface, tree, item, item.index in line, labels)
                nodes.append(
                    pygame.Rect(
                        round(item.x) - NODE_SIZE - 2,
                        round(item.y) - NODE_SIZE - 2,
                        2 * NODE_SIZE + 4,
                        2 * NODE_SIZE + 4,
                    )
                )
        elif item.kind == PRUNED:
            if scene.shows_cutoff(item.index):
                draw_stub(scene, surface, item, labels)
    for item in scene.drawn:
        if item.kind == SUMMARY and scene.value_known(item.index):
            draw_summary(scene, surface, tree, item, nodes, labels)
    labels.draw()
    if banner is not None:  # the cutoff reason of the selected node, in the canvas's top left corner
        box, size, lines = banner
        pygame.draw.rect(surface, p.panel, box, border_radius=4)
        pygame.draw.rect(surface, p.cutoff, box, 1, border_radius=4)
        line_h = banner_pitch(theme, size)
        for row, text in enumerate(lines):
            theme.text(surface, text, size, (box.left + 6, box.top + 3 + row * line_h), color=p.cutoff)


def banner_box(scene: TreeOverlay, tree: SearchTree) -> tuple[pygame.Rect, float, list[str]] | None:
    """The cutoff reason of the selected node, once it has happened: its box in the canvas's
    top left corner (no label is drawn under it; the detail panel says it too), size, lines."""
    reason = None if scene.legend_page else scene.banner()
    if not reason:
        return None
    theme = scene.app.theme
    canvas = scene.areas.canvas
    root_x = next((item.x for item in scene.drawn if item.kind == NODE and item.level == 0), canvas.right)
    room = max(canvas.width * 0.4, min(canvas.width - 20, root_x - canvas.left - 40))
    said = _("Cutoff at {move_label}: {reason}").format(
        move_label=scene.move_label(tree.node(scene.selected).move), reason=reason
    )
    size, lines = banner_lines(theme, said, int(room) - 12)
    line_h = banner_pitch(theme, size)
    box = pygame.Rect(
        canvas.left + 6,
        canvas.top + 6,
        max(theme.font(size).size(t)[0] for t in lines) + 12,
        line_h * len(lines) + 6,
    )
    return box, size, lines


def banner_pitch(theme: Theme, size: float) -> int:
    """Pixels from one banner line to the next: a line's height, as drawn."""
    font = theme.font(size)
    return max(font.get_linesize(), font.size("Ag")[1])


def banner_lines(theme: Theme, text: str, width: int, size: float = 15) -> tuple[float, list[str]]:
    """The cutoff banner's size and lines: two lines at most in the canvas's corner, the text
    smaller (as far as the 100 % size, never below ``SMALLEST``) where the UI scale would
    need more; all of it, whole."""
    least = max(SMALLEST, size / theme.scale if theme.scale > 1 else size)
    lines = theme.wrap(text, size, width)
    while len(lines) > 2 and size > least:
        size = max(least, size - 1)
        lines = theme.wrap(text, size, width)
    return size, lines


def draw_summary(
    scene: TreeOverlay,
    surface: pygame.Surface,
    tree: SearchTree,
    item: Placed,
    nodes: list[pygame.Rect],
    labels: Labels,
) -> None:
    """A "+N" box for nodes too small to draw, moved sideways off any node it would cover
    (and left out where it would cover a label)."""
    theme = scene.app.theme
    p = theme.palette
    node = tree.node(item.index)
    stored_children = bool(tree.child_indices(item.index))
    text = (
        "+" + number(item.count)
        if stored_children or not node.unstored
        else _("+{count:,} counted").format(count=item.count)
    )
    label = theme.font(14).size(text)
    box = pygame.Rect(0, 0, label[0] + 10, label[1] + 6)
    box.midtop = (round(item.x), round(item.y - 10))
    for shape in nodes:
        if box.colliderect(shape):
            if box.centerx <= shape.centerx:
                box.right = shape.left - 2
            else:
                box.left = shape.right + 2

    def paint() -> None:
        if item.parent_xy is not None:  # its edge only with it: a summary left out leaves no loose line
            pygame.draw.line(surface, p.pruned, item.parent_xy, (item.x, item.y - 10), 1)
        pygame.draw.rect(surface, p.panel, box, border_radius=4)
        pygame.draw.rect(surface, p.pruned, box, 1, border_radius=4)
        theme.text(surface, text, 14, box.center, color=p.muted, anchor="center")

    labels.add(SUMMARY_BOX, box, paint)


def draw_stub(scene: TreeOverlay, surface: pygame.Surface, item: Placed, labels: Labels) -> None:
    theme = scene.app.theme
    p = theme.palette
    x, y = item.x, item.y
    pygame.draw.circle(surface, p.pruned, (x, y), 6)
    if item.slot == 0 and item.parent_xy is not None:  # one cut mark on the first pruned edge of the group
        px, py = item.parent_xy
        _cross(surface, p.cutoff, (px + (x - px) * 0.6, py + (y - py) * 0.6))
    moves = scene.stub_moves.get(item.index, [])
    if item.slot < len(moves):
        text = scene.move_label(moves[item.slot])
        rect = label_rect(theme, text, 14, (x, y + 8), "midtop")
        labels.add(STUB, rect, lambda: theme.text(surface, text, 14, (x, y + 8), color=p.pruned, anchor="midtop"))


def node_shape(x: float, y: float, size: float, is_max: bool) -> list[tuple[float, float]]:
    """MAX: a triangle pointing up; MIN: pointing down."""
    if is_max:
        return [(x, y - size), (x - size, y + size * 0.8), (x + size, y + size * 0.8)]
    return [(x, y + size), (x - size, y - size * 0.8), (x + size, y - size * 0.8)]


def draw_node(
    scene: TreeOverlay, surface: pygame.Surface, tree: SearchTree, item: Placed, on_line: bool, labels: Labels
) -> None:
    theme = scene.app.theme
    p = theme.palette
    node = tree.node(item.index)
    size = NODE_SIZE
    x, y = item.x, item.y
    replay = scene.replay
    if item.index == scene.selected:
        pygame.draw.circle(surface, p.accent, (x, y), size + 9, 3)
    if replay is not None and replay.is_open(item.index):
        pygame.draw.circle(surface, p.glow, (x, y), size + 5, 2)
    if replay is not None and replay.cutoff == item.index:
        pygame.draw.circle(surface, p.cutoff, (x, y), size + 13, 3)
    if replay is not None and replay.table_hit == item.index:  # the table answers it at this step
        pygame.draw.circle(surface, p.accent, (x, y), size + 13, 3)
    points = node_shape(x, y, size, node.is_max)
    pygame.draw.polygon(surface, p.max_node if node.is_max else p.min_node, points)
    pygame.draw.polygon(surface, p.glow if on_line else p.text, points, 2 if on_line else 1)
    known = scene.value_known(item.index)
    if node.leaf_reason is LeafReason.WIN and known:
        pygame.draw.circle(surface, p.glow, (x, y), 3)
    hit = node.table_hit
    if hit is not None and scene.is_drawn(item.index):  # answered from the table: a "T" on the node
        draw_table_mark(theme, surface, (x - size - 12, y), cutoff=hit.is_cutoff)  # left: the shape stays seen
    rank = SELECTED if item.index == scene.selected else ON_LINE if on_line else None
    if node.move is not None:  # beside the node, on its own row: clear of the parent's value above
        gap = 12 if item.index == scene.selected else 3  # outside the selection ring
        move = scene.move_label(node.move)
        at = (x + size + gap, y - 3)
        labels.add(
            MOVE if rank is None else rank,
            label_rect(theme, move, 15, at, "midleft"),
            lambda: theme.text(surface, move, 15, at, anchor="midleft"),
        )
    text = scene.node_text(item.index)
    if text is not None:
        bounded = known and node.bound is not BoundKind.EXACT
        color = p.cutoff if bounded else (p.text if known else p.accent)
        value_at = (x, y + size + 2)
        rect = label_rect(theme, text, 15, value_at, "midtop", on_line)

        def paint_value() -> None:
            width, height = theme.font(15, on_line).size(text)
            backing = pygame.Rect(0, 0, width + 4, height - 2)  # keeps the value readable over lines
            backing.midtop = (round(x), round(y + size + 3))
            pygame.draw.rect(surface, p.panel, backing, border_radius=3)
            theme.text(surface, text, 15, value_at, color=color, anchor="midtop", bold=on_line)

        labels.add(VALUE if rank is None else rank, rect, paint_value)
    if known and node.unstored and tree.child_indices(item.index):
        counted = _("+{unstored:,} counted").format(unstored=node.unstored)
        at = (x + size + 3, y + 6)
        labels.add(
            COUNTED,
            label_rect(theme, counted, 13, at, "topleft"),
            lambda: theme.text(surface, counted, 13, at, color=p.cutoff),
        )


def draw_table_mark(theme: Theme, surface: pygame.Surface, at: tuple[float, float], *, cutoff: bool) -> None:
    """The mark of a node answered from the transposition table: a bold "T" beside it, in the
    cutoff colour where a stored bound cut it off (the value beside it has its >= / <=)."""
    p = theme.palette
    width, height = theme.font(12, True).size("T")  # at the UI scale: the box grows with it
    side = max(15, height + 2, width + 8)
    box = pygame.Rect(0, 0, side, side)
    box.center = (round(at[0]), round(at[1]))
    pygame.draw.rect(surface, p.panel, box, border_radius=3)
    pygame.draw.rect(surface, p.cutoff if cutoff else p.accent, box, 2, border_radius=3)
    theme.text(surface, "T", 12, box.center, color=p.cutoff if cutoff else p.text, anchor="center", bold=True)


def draw_legend(scene: TreeOverlay, surface: pygame.Surface) -> None:
    """The key to the drawing, along the bottom of the canvas (L hides it)."""
    legend = scene.legend
    if legend is None:
        return
    theme = scene.app.theme
    p = theme.palette
    pygame.draw.rect(surface, p.panel, legend.box, border_radius=6)
    pygame.draw.rect(surface, p.muted, legend.box, 1, border_radius=6)
    title = _(PAGE_TITLE) if scene.legend_page else _(TITLE)
    theme.text(
        surface,
        theme.fit(title, 15, legend.box.width - 20, bold=True),
        15,
        (legend.box.left + 10, legend.box.top + 5),
        bold=True,
    )
    line_h = theme.font(FONT_SIZE).get_linesize()
    for entry in legend.entries:
        if entry.icon:
            _legend_icon(scene, surface, entry.icon, entry.icon_rect)
        x, y = entry.text_pos
        for text in entry.lines:
            theme.text(surface, text, FONT_SIZE, (x, y), color=p.text if entry.icon else p.muted)
            y += line_h


def _legend_icon(scene: TreeOverlay, surface: pygame.Surface, icon: str, rect: pygame.Rect) -> None:
    theme = scene.app.theme
    p = theme.palette
    cx, cy = rect.left + 14, rect.centery
    if icon == "shapes":
        pygame.draw.polygon(surface, p.max_node, node_shape(cx, cy, 7, True))
        pygame.draw.polygon(surface, p.text, node_shape(cx, cy, 7, True), 1)
        pygame.draw.polygon(surface, p.min_node, node_shape(cx + 22, cy, 7, False))
        pygame.draw.polygon(surface, p.text, node_shape(cx + 22, cy, 7, False), 1)
    elif icon == "stub":
        pygame.draw.line(surface, p.pruned, (cx - 10, cy - 6), (cx + 16, cy + 4), 1)
        _cross(surface, p.cutoff, (cx + 2, cy - 1), 4)
        pygame.draw.circle(surface, p.pruned, (cx + 22, cy + 4), 5)
    elif icon == "line":
        pygame.draw.line(surface, p.glow, (rect.left + 2, cy), (rect.right - 8, cy), 5)
    elif icon == "table":
        draw_table_mark(theme, surface, (cx, cy), cutoff=False)
        draw_table_mark(theme, surface, (cx + 20, cy), cutoff=True)
    elif icon == "summary":
        box = pygame.Rect(rect.left + 2, rect.top, rect.width - 12, rect.height)
        pygame.draw.rect(surface, p.pruned, box, 1, border_radius=4)
        theme.text(surface, "+N", 13, box.center, color=p.muted, anchor="center")
    else:
        color = p.cutoff if icon.startswith((">", "<")) else p.text
        theme.text(surface, icon, 14, (rect.left + 2, rect.top), color=color, bold=True)


def detail_heading(scene: TreeOverlay, node: Node, width: int) -> str:
    """The detail panel's heading: the node and who is to move, as long as fits ``width``."""
    where = _("Root") if node.move is None else _("Move {move}").format(move=scene.move_label(node.move))
    side, player = ("MAX", _("player 1")) if node.is_max else ("MIN", _("player 2"))
    headings = (
        _("{where}: {side} ({player}) to move").format(where=where, side=side, player=player),
        _("{where}: {side} (P{player}) to move").format(where=where, side=side, player=player[-1]),
        _("{where}: {side} to move").format(where=where, side=side),
    )
    return first_fitting(scene.app.theme, headings, 19, width, bold=True)


def detail_for(scene: TreeOverlay) -> DetailLayout | None:
    """The detail panel's layout for the selected node (None: no tree yet)."""
    tree = scene.tree
    if tree is None:
        return None
    theme = scene.app.theme
    p = theme.palette
    rect = scene.areas.detail
    node = tree.node(scene.selected)
    moves = " ".join(scene.move_label(m) for m in node.path()) or _("(the position searched)")
    # The sentences about a bound or a cutoff, in its colour: their wording up to the value.
    cutoff = tuple(_(said).split("{")[0] for said in ("This value is {BOUND_MEANING}.", "Cutoff: {reason}"))
    sentences = [(text, p.cutoff if text.startswith(cutoff) else p.text) for text in scene.detail_lines(node)]
    board = scene.selected_board
    return detail_layout(
        theme,
        rect,
        detail_heading(scene, node, rect.width - 24),
        _("Line: {moves}").format(moves=moves),
        board.rules.rows if board is not None else None,
        tree.rules.cols,
        sentences,
    )


def draw_detail(scene: TreeOverlay, surface: pygame.Surface, tree: SearchTree) -> None:
    """The selected node's heading, then its line, small board and sentences, scrolled by
    ``scene.detail_panel``, with the scroll cue at the foot while there is more."""
    detail, scroll = scene.detail_panel.layout, scene.detail_panel.offset
    if detail is None:
        return
    theme = scene.app.theme
    p = theme.palette
    x = scene.areas.detail.left + 12
    head = detail.heading
    theme.text(surface, head.text, head.size, (x, head.y), bold=True)
    view, top = detail.view, detail.view.top - scroll
    clip = surface.get_clip()
    surface.set_clip(view.clip(clip) if clip else view)
    board = scene.selected_board
    if detail.board is not None and board is not None:
        board_top, cell = detail.board
        if top + board_top + cell * board.rules.rows > view.top and top + board_top < view.bottom:
            path = tree.node(scene.selected).path()
            draw_small_board(surface, theme, board, (x, top + board_top), cell, mark_last=bool(path))
    for row in detail.rows:
        y = top + row.y
        if y >= view.top and y + theme.font(row.size).get_linesize() <= view.bottom:  # only whole lines
            theme.text(surface, row.text, row.size, (x, y), color=row.color)
    surface.set_clip(clip)
    said = cue(detail, scroll)
    if said is not None:
        pygame.draw.line(surface, p.muted, (view.left + 8, view.bottom + 2), (view.right - 8, view.bottom + 2), 1)
        size = max(SMALLEST, theme.shrink(said, CUE_SIZE, view.width - 24, bold=True))
        theme.text(
            surface,
            theme.fit(said, size, view.width - 24, bold=True),
            size,
            (x, view.bottom + 5),
            color=p.accent,
            bold=True,
        )


def draw_small_board(
    surface: pygame.Surface, theme: Theme, board: Board, topleft: tuple[int, int], cell: int, *, mark_last: bool
) -> pygame.Rect:
    """A small picture of ``board`` (``cell`` pixels a cell), the last disc ringed if asked; its rect."""
    p = theme.palette
    rows, cols = board.rules.rows, board.rules.cols
    grid_rect = pygame.Rect(topleft[0], topleft[1], cell * cols, cell * rows)
    pygame.draw.rect(surface, p.board, grid_rect.inflate(6, 6), border_radius=4)
    last = board.last_cell()
    for r in range(rows):
        for c in range(cols):
            center = (grid_rect.left + (c + 0.5) * cell, grid_rect.top + (r + 0.5) * cell)
            value = int(board.grid[r, c])
            if value:
                theme.draw_disc(surface, center, cell * 0.42, value)
            else:
                pygame.draw.circle(surface, p.hole, center, cell * 0.42)
            if last == (r, c) and mark_last:
                pygame.draw.circle(surface, p.glow, center, cell * 0.46, 2)
    return grid_rect


def draw_bottom(scene: TreeOverlay, surface: pygame.Surface, tree: SearchTree) -> None:
    theme = scene.app.theme
    p = theme.palette
    rect = scene.areas.bottom
    y = float(rect.top + 8)
    # Nodes per ply: a small bar chart.
    per_ply = scene.per_ply
    chart = chart_rect(rect, strip_height(theme, scene.button_rows))
    # The title on two lines where one would need a size below SMALLEST (a long translation).
    title = _("Nodes per ply (stored)")
    title_size = max(SMALLEST, theme.shrink(title, 15, chart.width + 12))
    head = 4
    for part in theme.wrap(title, title_size, chart.width + 12)[:2]:
        theme.text(
            surface,
            theme.fit(part, title_size, chart.width + 12),
            title_size,
            (chart.left, chart.top + head - 4),
            color=p.muted,
        )
        head += banner_pitch(theme, title_size)
    head = max(20, head)  # the bars start under the title
    levels = per_ply[1:] or [0]
    pitch = chart_pitch(chart.height - head, len(levels))  # every ply gets a row: the deepest is the biggest
    label = theme.font(13)
    if pitch < label.size("8")[1]:  # rows too thin for their labels at this text size
        draw_ply_counts(scene, surface, tree, chart.inflate(12, 0).clip(rect), chart.top + head)
    else:
        bar_h = max(2, min(14, pitch - 2))
        biggest = max(levels) or 1
        left = chart.left + label.size(str(len(levels)))[0] + 6  # the bars start right of the ply numbers
        room = chart.right - left - label.size(number(biggest))[0] - 6
        for ply, count in enumerate(levels, start=1):
            top = chart.top + head + (ply - 1) * pitch
            width = int(max(1, room) * count / biggest)
            pygame.draw.rect(surface, ply_color(theme, tree, ply), (left, top, max(1, width), bar_h))
            label_y = top + bar_h // 2
            theme.text(surface, str(ply), 13, (chart.left, label_y), color=p.muted, anchor="midleft")
            theme.text(surface, number(count), 13, (left + width + 4, label_y), color=p.muted, anchor="midleft")
    tx = chart.right + 24
    size = 16 if rect.width > 1000 else 15
    room = scene.buttons[0].rect.top - 4 if scene.buttons else rect.bottom
    line_h = size * theme.scale + 3  # at the UI scale
    for text, color in bottom_lines(scene, tree, theme):
        lines = theme.wrap(text, size, rect.right - tx - 12)
        if y + line_h * (len(lines) - 1) + 17 * theme.scale > room:
            continue  # a sentence is shown whole or not at all; a shorter one may still fit
        for line in lines:
            theme.text(surface, line, size, (tx, y), color=color)
            y += line_h
    for button in scene.buttons:
        button.draw(surface, theme, size=16)


def ply_color(theme: Theme, tree: SearchTree, ply: int) -> Color:
    """The colour of the side that moves into ``ply``: its node shape's."""
    p = theme.palette
    return p.max_node if (ply % 2 == 0) == (tree.to_move == 1) else p.min_node


def draw_ply_counts(scene: TreeOverlay, surface: pygame.Surface, tree: SearchTree, box: pygame.Rect, top: int) -> None:
    """The nodes per ply as "ply: count" entries, each behind a swatch of its bar's colour,
    wrapped in ``box`` from ``top``: the chart where its rows are too thin for their labels."""
    theme = scene.app.theme
    font = theme.font(13)
    line_h = max(font.get_linesize(), font.size("8")[1])  # lines apart as drawn
    swatch = max(6, line_h // 2)
    x, y = box.left, top
    for ply, count in enumerate(scene.per_ply[1:], start=1):
        text = f"{ply}: {number(count)}"
        width = swatch + 4 + font.size(text)[0]
        if x > box.left and x + width > box.right:
            x, y = box.left, y + line_h
        pygame.draw.rect(surface, ply_color(theme, tree, ply), (x, y + (line_h - swatch) // 2, swatch, swatch))
        theme.text(surface, text, 13, (x + swatch + 4, y), color=theme.palette.muted)
        x += width + font.size("  ")[0]


def chart_rect(bottom: pygame.Rect, strip: int = STRIP_HEIGHT) -> pygame.Rect:
    """Where the nodes-per-ply chart goes in the bottom panel (its title included), above
    the buttons' ``strip`` (its height)."""
    return pygame.Rect(
        bottom.left + 12,
        bottom.top + 8,
        min(300, bottom.width // (3 if bottom.width > 1000 else 4)),
        bottom.height - 28 - strip,
    )


def chart_pitch(height: int, rows: int) -> int:
    """Pixels per ply row of the nodes-per-ply chart: all ``rows`` fit in ``height``."""
    return max(1, min(16, height // max(1, rows)))


def totals_line(tree: SearchTree, stats: SearchStats) -> str:
    """The search's totals: depth, nodes (of every pass), leaves, cutoffs, time."""
    if tree.pruning:
        said = _(
            "Depth {depth}, alpha-beta on: {nodes:,} nodes{passes}, {leaves:,} leaves, {cutoffs:,} cutoffs, {seconds:.3f} s"
        )
    else:
        said = _(
            "Depth {depth}, alpha-beta off: {nodes:,} nodes{passes}, {leaves:,} leaves, {cutoffs:,} cutoffs, {seconds:.3f} s"
        )
    passes = ""
    if stats.total_nodes != stats.nodes:
        passes = _(" ({total_nodes:,} in all passes)").format(total_nodes=stats.total_nodes)
    return said.format(
        depth=stats.depth,
        nodes=stats.nodes,
        passes=passes,
        leaves=stats.leaves,
        cutoffs=stats.cutoffs,
        seconds=stats.seconds,
    )


def compare_line(scene: TreeOverlay, tree: SearchTree) -> str:
    """The same search as shown and with pruning switched, both timed in the worker after
    a warm-up: under way, done, or how to start it."""
    comparison = scene.comparison
    if comparison is not None and comparison.running:
        progress = scene.compare_progress
        done = (
            _("{nodes:,} nodes, {seconds:.1f} s").format(nodes=progress.nodes, seconds=progress.seconds)
            if progress
            else _("starting")
        )
        if comparison.warming_up:
            return _(
                "Warming up both searches, so that neither is timed with the first search's start-up cost (C cancels)"
            )
        if comparison.timed(tree.pruning) is None:
            return _("Timing the search again as shown: {done} (C cancels)").format(done=done)
        if tree.pruning:
            return _("Searching again with pruning off: {done} (C cancels)").format(done=done)
        return _("Searching again with pruning on: {done} (C cancels)").format(done=done)
    switched = scene.compare_result
    again = comparison.timed(tree.pruning) if comparison is not None else None
    if switched is None or again is None:
        return _("C: run the same search with pruning switched, to compare nodes and time")
    on, off = (again.stats, switched.stats) if tree.pruning else (switched.stats, again.stats)
    said = _(
        "Both timed now, after a warm-up: with alpha-beta {nodes:,} nodes, {seconds:.3f} s  |  without {nodes2:,} nodes, {seconds2:.3f} s  ({saving:,.1f} x fewer nodes, {verdict})"
    )
    verdict = compare_verdict(again.value, switched.value)
    saving = off.nodes / on.nodes if on.nodes else 0
    return said.format(
        nodes=on.nodes, seconds=on.seconds, nodes2=off.nodes, seconds2=off.seconds, saving=saving, verdict=verdict
    )


def table_compare_line(scene: TreeOverlay, tree: SearchTree) -> str | None:
    """C's run with the transposition table switched, beside the shown search: once done."""
    comparison = scene.comparison
    if comparison is None or comparison.running:
        return None
    again, switched = comparison.timed(tree.pruning), comparison.table_switched()
    if again is None or switched is None:
        return None
    on, off = (again, switched) if tree.table else (switched, again)
    said = _(
        "Transposition table, timed now: on {nodes:,} nodes, {seconds:.3f} s  |  off {nodes2:,} nodes, {seconds2:.3f} s  ({saving:,.1f} x fewer nodes, {verdict})"
    )
    saving = off.stats.nodes / on.stats.nodes if on.stats.nodes else 0
    verdict = compare_verdict(on.value, off.value)
    return said.format(
        nodes=on.stats.nodes,
        seconds=on.stats.seconds,
        nodes2=off.stats.nodes,
        seconds2=off.stats.seconds,
        saving=saving,
        verdict=verdict,
    )


def table_stats_line(scene: TreeOverlay, tree: SearchTree) -> str | None:
    """The table's probes, hits, stores and cutoffs, and the nodes of the real run without it."""
    comparison = scene.comparison
    without = comparison.table_switched() if comparison is not None else None
    measuring = comparison is not None and comparison.running
    return table_line(scene.record.result.stats.table, None if without is None else without.stats.nodes, measuring)


def bottom_lines(scene: TreeOverlay, tree: SearchTree, theme: Theme) -> list[tuple[str, Color]]:
    """The totals, the comparison with the minimal tree and another run, the replay."""
    p = theme.palette
    stats = scene.record.result.stats
    legal = scene.root_moves
    minimal_nodes, minimal_leaves = minimal_tree(tree.depth, max(1, legal))
    lines: list[tuple[str, Color]] = [
        (totals_line(tree, stats), p.text),
        (order_line(minimal_nodes, minimal_leaves, legal, scene.orders, searched=stats.nodes), p.text),
    ]
    played = scene.record.played
    if scene.record.note and played is not None:  # the move played is not this search's choice
        said = _("Played {move_label}: {note}.").format(move_label=scene.move_label(played), note=scene.record.note)
        lines.insert(0, (said, p.cutoff))
    table = table_stats_line(scene, tree)
    if table is not None:
        lines.insert(1, (table, p.text))
    lines.append((compare_line(scene, tree), p.text))
    table_compared = table_compare_line(scene, tree)
    if table_compared is not None:
        lines.append((table_compared, p.text))
    replay = scene.replay
    if replay is not None:  # first: at small sizes the last lines do not fit
        color = p.cutoff if replay.cutoff is not None or replay.table_hit is not None else p.accent
        said = _("Replay step {steps:,}/{total_steps:,}: {message}")
        lines.insert(
            0, (said.format(steps=replay.steps, total_steps=replay.total_steps, message=replay.message), color)
        )
    else:
        lines.append((_("Space: replay the search step by step (, . to step, S speed)"), p.text))
    return lines


def _cross(surface: pygame.Surface, color: Color, center: tuple[float, float], arm: float = 6) -> None:
    mx, my = center
    pygame.draw.line(surface, color, (mx - arm, my - arm), (mx + arm, my + arm), 3)
    pygame.draw.line(surface, color, (mx - arm, my + arm), (mx + arm, my - arm), 3)


def _dashed(
    surface: pygame.Surface, color: Color, start: tuple[float, float], end: tuple[float, float], dash: float = 5.0
) -> None:
    x0, y0 = start
    x1, y1 = end
    length = max(1.0, ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5)
    steps = max(1, int(length / dash))
    for i in range(0, steps, 2):
        a, b = i / steps, min(1.0, (i + 1) / steps)
        pygame.draw.line(
            surface, color, (x0 + (x1 - x0) * a, y0 + (y1 - y0) * a), (x0 + (x1 - x0) * b, y0 + (y1 - y0) * b), 1
        )
