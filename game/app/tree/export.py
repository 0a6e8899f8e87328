"""The overlay's export (E): the tree on screen as JSON and DOT in the preference folder."""

from __future__ import annotations

import time
from pathlib import Path

from ai.tree import SearchTree
from ai.tree_export import export_tree

WINDOW_LIMIT = 200_000
"""Nodes the window exports at most (a few seconds of writing); larger trees: the CLI."""


def export_to_folder(tree: SearchTree, folder: Path, root: int = 0) -> str:
    """Write ``tree`` as ``tree-<time>.json`` (every node) and ``.dot`` (the subtree of
    ``root``, the one on screen) in ``folder``; return the sentence to show, short enough
    for a toast (the folder is the preference folder's ``trees``, which How to play names)."""
    if len(tree) > WINDOW_LIMIT:
        return f"{len(tree):,} nodes: too many to export here; use 'connect4 analyze ... --export-tree'"
    stem = time.strftime("tree-%Y%m%d-%H%M%S")
    counter = 1
    while (folder / f"{stem}.json").exists():
        stem = time.strftime(f"tree-%Y%m%d-%H%M%S-{counter}")
        counter += 1
    try:
        folder.mkdir(parents=True, exist_ok=True)
        export_tree(tree, folder / f"{stem}.json")
        export_tree(tree, folder / f"{stem}.dot", root=root)
    except OSError as error:
        return f"Could not export the tree: {error.strerror or error}"
    return f"Saved {folder.name}/{stem}.json and .dot in the preference folder"
