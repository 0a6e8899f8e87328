"""Where the tree overlay draws each node: a top-down layout of only what is visible.

Each node shares its horizontal span among its children (searched children weigh 1, the
moves a cutoff left unsearched weigh ``PRUNED_WEIGHT``, as thin stubs).  A subtree whose
span is off screen is skipped whole, and children that would be narrower than
``min_span`` pixels are drawn as one summary ("+N nodes") under their parent, except the
child on ``line`` (the expected line), which goes on down to its leaf beside the summary so
the learner always sees where the value comes from.  So a frame costs what is on screen,
however big the tree is.  No pygame here: plain numbers.
"""

from __future__ import annotations

import enum
from collections.abc import Collection
from dataclasses import dataclass

from ai.tree import SearchTree

PRUNED_WEIGHT = 0.35
LINE_SHARE = 0.6
"""Of a summarised node's span, the part the expected line's child keeps (on the right)."""


class ItemKind(enum.Enum):
    """What a placed item is."""

    NODE = "node"  # a searched node
    PRUNED = "pruned"  # a stub for a move a cutoff left unsearched
    SUMMARY = "summary"  # "+N": nodes too small to draw (or counted, not stored)


NODE, PRUNED, SUMMARY = ItemKind.NODE, ItemKind.PRUNED, ItemKind.SUMMARY


@dataclass(frozen=True)
class View:
    """The camera: the subtree shown, zoom (1 = fits the width) and pan (pixels)."""

    root: int = 0
    zoom: float = 1.0
    pan_x: float = 0.0
    pan_y: float = 0.0


@dataclass(frozen=True)
class Placed:
    """One drawn item: a node, a pruned stub or a summary, and the point it hangs from."""

    kind: ItemKind
    index: int  # the node (for a stub or a summary: its parent)
    x: float
    y: float
    level: int  # below the view's root
    parent_xy: tuple[float, float] | None
    slot: int = 0  # for stubs: which pruned move of the parent (0, 1, ...)
    count: int = 0  # for summaries: nodes below the parent


def layout(
    tree: SearchTree,
    view: View,
    area: tuple[float, float, float, float],  # left, top, width, height in pixels
    *,
    row_height: float = 72.0,
    min_span: float = 26.0,
    max_items: int = 5000,
    line: Collection[int] = (),
) -> list[Placed]:
    """Place the visible part of the tree in ``area``; cheap enough for every frame.

    ``line``: node indices (the expected line) kept drawn below a summary.
    """
    left, top, width, height = area
    right, bottom = left + width, top + height
    placed: list[Placed] = []
    scale = width * view.zoom
    x_root0 = left + view.pan_x
    # Iterative depth-first walk: (index, x0, x1, level, parent point)
    stack: list[tuple[int, float, float, int, tuple[float, float] | None]] = [
        (view.root, x_root0, x_root0 + scale, 0, None)
    ]
    while stack and len(placed) < max_items:
        index, x0, x1, level, parent_xy = stack.pop()
        y = top + row_height * (level + 0.5) + view.pan_y
        if y - row_height > bottom or x1 < left - min_span or x0 > right + min_span:
            continue  # nothing of this subtree is on screen
        x = (x0 + x1) / 2
        placed.append(Placed(NODE, index, x, y, level, parent_xy))
        if y + row_height > bottom + row_height:
            continue
        kids = tree.child_indices(index)
        node = tree.node(index)
        pruned = node.pruned_count
        weight = len(kids) + PRUNED_WEIGHT * pruned
        if not weight:
            if node.unstored:
                placed.append(Placed(SUMMARY, index, x, y + row_height, level + 1, (x, y), count=node.unstored))
            continue
        unit = (x1 - x0) / weight
        if unit < min_span:
            on_line = next((kid for kid in kids if kid in line), None)
            if on_line is None:
                placed.append(Placed(SUMMARY, index, x, y + row_height, level + 1, (x, y), count=node.subtree_size - 1))
                continue
            # The rest summarised on the left, the line's child going on down on the right.
            split = x0 + (x1 - x0) * (1 - LINE_SHARE)
            rest = node.subtree_size - 1 - tree.node(on_line).subtree_size
            if rest > 0:
                placed.append(Placed(SUMMARY, index, (x0 + split) / 2, y + row_height, level + 1, (x, y), count=rest))
            stack.append((on_line, split, x1, level + 1, (x, y)))
            continue
        # Children are pushed in reverse so the walk (and the drawing) goes left to right.
        position = x0 + unit * len(kids)
        for slot in range(pruned):
            stub_x = position + unit * PRUNED_WEIGHT * (slot + 0.5)
            if left - min_span <= stub_x <= right + min_span:
                placed.append(Placed(PRUNED, index, stub_x, y + row_height, level + 1, (x, y), slot=slot))
        for order in range(len(kids) - 1, -1, -1):
            start = x0 + unit * order
            stack.append((kids[order], start, start + unit, level + 1, (x, y)))
    return placed


def path_to(tree: SearchTree, index: int) -> list[int]:
    """Node indices from the root down to ``index``."""
    path = [index]
    node = tree.node(index)
    while node.parent is not None:
        node = node.parent
        path.append(node.index)
    return path[::-1]
