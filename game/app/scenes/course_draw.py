"""Drawing the course's lesson page: its board and the textbook's small tree (pure
functions of what they are given; the scene ``game.app.scenes.course`` calls them)."""

from __future__ import annotations

import pygame

from game.app.theme import Theme
from game.board import Board
from game.i18n import _
from game.learn.course import SMALL_TREE, alpha_beta_skipped, tree_minimax
from game.rules import MAX


def draw_board(theme: Theme, surface: pygame.Surface, area: pygame.Rect, board: Board) -> int:
    """The lesson's position, as the play screen draws discs (rings and crosses); returns
    the bottom of what it drew (the line under the board says who is to move)."""
    p = theme.palette
    rules = board.rules
    cell = min(area.width / rules.cols, (area.height - 24) / rules.rows)
    width, height = cell * rules.cols, cell * rules.rows
    left = area.left + (area.width - width) / 2
    top = area.top
    pygame.draw.rect(surface, p.board, pygame.Rect(int(left), int(top), int(width), int(height)), border_radius=8)
    for row in range(rules.rows):
        for col in range(rules.cols):
            centre = (left + (col + 0.5) * cell, top + (row + 0.5) * cell)
            value = int(board.grid[row, col])
            if value:
                theme.draw_disc(surface, centre, cell * 0.42, value)
            else:
                pygame.draw.circle(surface, p.hole, (round(centre[0]), round(centre[1])), int(cell * 0.42))
    label_size = max(11, int(cell * 0.32))
    for col in range(rules.cols):
        theme.text(
            surface,
            str(col + 1),
            label_size,
            (left + (col + 0.5) * cell, top + height + 2),
            color=p.muted,
            anchor="midtop",
        )
    said = _("player 1 (ring) to move") if board.to_move == MAX else _("player 2 (cross) to move")
    return theme.text(
        surface,
        said,
        label_size,
        (left + width / 2, top + height + label_size * 1.5),
        color=p.muted,
        anchor="midtop",
    ).bottom


def draw_small_tree(theme: Theme, surface: pygame.Surface, area: pygame.Rect, *, solved: bool, show_cuts: bool) -> None:
    """The textbook's two-ply tree: MAX (triangle up) over three MIN nodes (triangles
    down) over nine leaves; the root and MIN values stay hidden until the exercise is solved.
    A caption over it says it is an example of its own: the board above is where O tries
    the lesson's tool, not the position this tree grows from."""
    p = theme.palette
    caption, caption_size = theme.fitted(_("An example tree, not this board's"), 14, area.width)
    said = theme.text(surface, caption, caption_size, (area.centerx, area.top), color=p.muted, anchor="midtop")
    area = pygame.Rect(area.left, said.bottom + 2, area.width, max(1, area.bottom - said.bottom - 2))
    leaves = [value for branch in SMALL_TREE for value in branch]
    step = area.width / len(leaves)
    size = max(11, min(22, int(step * 0.45)))
    levels = (area.top + area.height * 0.15, area.top + area.height * 0.5, area.top + area.height * 0.85)
    root = (area.centerx, levels[0])
    mins = [(area.left + step * (3 * b + 1.5), levels[1]) for b in range(len(SMALL_TREE))]
    leaf_points = [(area.left + step * (i + 0.5), levels[2]) for i in range(len(leaves))]
    for b, point in enumerate(mins):
        pygame.draw.line(surface, p.muted, root, point, 2)
        for i in range(3):
            pygame.draw.line(surface, p.muted, point, leaf_points[3 * b + i], 2)
    r = size * 0.9
    triangle(surface, root, r, up=True, color=p.max_node)
    for point in mins:
        triangle(surface, point, r, up=False, color=p.min_node)
    # Once solved: the values minimax found, and (alpha-beta's lesson) the leaves it cut
    cut = set(alpha_beta_skipped(SMALL_TREE)) if solved and show_cuts else set()
    for index, (point, value) in enumerate(zip(leaf_points, leaves)):
        skipped = divmod(index, 3) in cut
        box = pygame.Rect(point[0] - r, point[1] - r * 0.8, 2 * r, 1.6 * r)
        pygame.draw.rect(surface, p.panel, box, border_radius=4)
        theme.text(surface, str(value), size, point, anchor="center", color=p.pruned if skipped else p.text)
        if skipped:  # crossed out, and said in words: colour is never the only clue
            pygame.draw.line(surface, p.cutoff, box.bottomleft, box.topright, 2)
            theme.text(surface, _("cut"), int(size * 0.7), (point[0], box.bottom + 2), color=p.cutoff, anchor="midtop")
    theme.text(surface, "MAX", int(size * 0.8), (root[0] + r * 1.4, root[1]), color=p.muted, anchor="midleft")
    theme.text(surface, "MIN", int(size * 0.8), (mins[-1][0] + r * 1.4, mins[-1][1]), color=p.muted, anchor="midleft")
    if solved:
        theme.text(
            surface,
            f"= {tree_minimax(SMALL_TREE)}",
            size,
            (root[0] - r * 1.3, root[1]),
            bold=True,
            anchor="midright",
        )
        for point, branch in zip(mins, SMALL_TREE):
            theme.text(surface, f"= {min(branch)}", size, (point[0] - r * 1.2, point[1]), bold=True, anchor="midright")


def triangle(
    surface: pygame.Surface, centre: tuple[float, float], r: float, *, up: bool, color: tuple[int, int, int]
) -> None:
    x, y = centre
    points = (
        [(x, y - r), (x - r, y + r * 0.8), (x + r, y + r * 0.8)]
        if up
        else [(x, y + r), (x - r, y - r * 0.8), (x + r, y - r * 0.8)]
    )
    pygame.draw.polygon(surface, color, points)
