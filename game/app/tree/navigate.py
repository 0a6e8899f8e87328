"""Moving about the tree overlay: which node a key or a click means, how a zoom moves the view."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ai.tree import SearchTree
from game.app.tree.layout import NODE, Placed, View

PICK_RADIUS = 16.0
"""Pixels from a node's centre that still pick it."""


def navigation_target(tree: SearchTree, selected: int, key: int) -> int | None:
    """The node an arrow key moves to from ``selected`` (None: nowhere to go).

    Up: the parent; Down: the child on the expected line (else the first); Left/Right:
    the previous / next sibling in search order.
    """
    node = tree.node(selected)
    if key == pygame.K_UP and node.parent is not None:
        return node.parent.index
    if key == pygame.K_DOWN:
        children = node.children()
        best = node.best_child()
        return (best or children[0]).index if children else None
    if key in (pygame.K_LEFT, pygame.K_RIGHT) and node.parent is not None:
        siblings = [c.index for c in node.parent.children()]
        position = siblings.index(node.index) + (1 if key == pygame.K_RIGHT else -1)
        if 0 <= position < len(siblings):
            return siblings[position]
    return None


def zoomed(view: View, canvas: pygame.Rect, factor: float, around: tuple[float, float] | None) -> View:
    """``view`` zoomed by ``factor``, the point under ``around`` (default: the centre) kept in place."""
    x = around[0] if around else canvas.centerx
    zoom = max(0.2, min(400.0, view.zoom * factor))
    real = zoom / view.zoom
    pan_x = x - canvas.left - (x - canvas.left - view.pan_x) * real
    return View(view.root, zoom, pan_x, view.pan_y)


def node_at(drawn: list[Placed], pos: tuple[int, int], is_drawn: Callable[[int], bool]) -> int | None:
    """The drawn node nearest ``pos`` within ``PICK_RADIUS``, if any."""
    best, best_distance = None, PICK_RADIUS**2
    for item in drawn:
        if item.kind == NODE and is_drawn(item.index):
            distance = (item.x - pos[0]) ** 2 + (item.y - pos[1]) ** 2
            if distance < best_distance:
                best, best_distance = item.index, distance
    return best
