"""The overlay's export (E): the tree on screen as JSON and DOT in the preference folder."""

from __future__ import annotations

import time
from pathlib import Path

from ai.tree import SearchTree
from ai.tree_export import export_tree
from game.i18n import _

WINDOW_LIMIT = 200_000
"""Nodes the window exports at most (a few seconds of writing); larger trees: the CLI."""


def export_to_folder(tree: SearchTree, folder: Path, root: int = 0) -> str:
    """Write ``tree`` as ``tree-<time>.json`` (every node) and ``.dot`` (the subtree of
    ``root``, the one on screen) in ``folder``; return the sentence to show, short enough
    for a toast (the folder is the preference folder's ``trees``, which How to play names)."""
    if len(tree) > WINDOW_LIMIT:
        return _("{count:,} nodes: too many to export here; use 'connect4 analyze ... --export-tree'").format(
            count=len(tree)
        )
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
        return _("Could not export the tree: {value}").format(value=error.strerror or error)
    return _("Saved {name}/{stem}.json and .dot in the preference folder").format(name=folder.name, stem=stem)
