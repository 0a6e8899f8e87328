"""The overlay's export (E): the tree on screen as JSON and DOT in the preference folder."""

from __future__ import annotations

import time
from pathlib import Path

from ai.tree import SearchTree
from ai.tree_export import export_tree

WINDOW_LIMIT = 200_000
"""Nodes the window exports at most (a few seconds of writing); larger trees: the CLI."""


def export_to_folder(tree: SearchTree, folder: Path) -> str:
    """Write ``tree`` as ``tree-<time>.json`` and ``.dot`` in ``folder``; return the sentence to show."""
    if len(tree) > WINDOW_LIMIT:
        return (
            f"This tree has {len(tree):,} nodes, too many to export from the window: "
            "use 'connect4 analyze MOVES --export-tree FILE.json'"
        )
    stem = time.strftime("tree-%Y%m%d-%H%M%S")
    counter = 1
    while (folder / f"{stem}.json").exists():
        stem = time.strftime(f"tree-%Y%m%d-%H%M%S-{counter}")
        counter += 1
    try:
        folder.mkdir(parents=True, exist_ok=True)
        export_tree(tree, folder / f"{stem}.json")
        export_tree(tree, folder / f"{stem}.dot")
    except OSError as error:
        return f"Could not export the tree to {folder}: {error.strerror or error}"
    return f"Tree exported to the preference folder: {folder / stem}.json and .dot ({len(tree):,} nodes)"
