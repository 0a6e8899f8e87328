"""An MCTS tree you can take away: JSON (every node) or Graphviz DOT (the busiest nodes).

JSON holds every node (id, parent, move, side to move, visits, value: the mean result
for the side that moved there, 0..1, and the UCB its parent compared), the playouts and
the seed that grew it; DOT draws the nodes with at least ``DOT_MIN_SHARE`` of the root's
visits, sized by visits, the most-visited line in bold, as ``ai.tree_export`` does for a
minimax tree (whose endings, ``FORMATS``, it shares).  No pygame here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ai.mcts import MctsTree
from ai.tree_export import FORMATS, dot_quote, write_tree_file
from game.notation import format_move

DOT_MIN_SHARE = 0.01
"""A DOT picture draws the nodes with at least this share of the root's visits (and the
most-visited line): 5,000 playouts make 5,000 nodes, far too many to read."""

__all__ = ["DOT_MIN_SHARE", "FORMATS", "export_mcts_tree", "mcts_json", "mcts_to_dict", "mcts_to_dot"]


def mcts_to_dict(tree: MctsTree) -> dict[str, Any]:
    """Every node of ``tree`` as plain data (see the module docstring)."""
    head, nodes = mcts_json(tree)
    return {**head, "nodes": list(nodes)}


def mcts_json(tree: MctsTree) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """``mcts_to_dict`` in two parts, the head and the nodes one by one (an export streams them)."""
    rules = tree.rules
    head = {
        "search": "mcts",
        "rules": rules.describe(),
        "to_move": "MAX" if tree.to_move > 0 else "MIN",
        "playouts": tree.playouts,
        "seed": tree.seed,
        "exploration": tree.exploration,
        "value_meaning": "mean result for the side that moved into the node: 1 win, 0.5 draw, 0 loss",
    }

    def nodes() -> Iterator[dict[str, Any]]:
        for node in tree.iter_nodes():
            parent = node.parent
            ucb = node.ucb
            yield {
                "id": node.index,
                "parent": None if parent is None else parent.index,
                "move": None if node.move is None else format_move(node.move, rules),
                "side": node.side_name,
                "visits": node.visits,
                "value": round(node.mean, 6),
                "ucb": None if ucb is None else round(ucb, 6),
                "depth": node.ply,
                "game_over": node.game_over is not None,
            }

    return head, nodes()


def mcts_to_dot(tree: MctsTree, *, min_share: float = DOT_MIN_SHARE) -> str:
    """``tree`` as a Graphviz digraph: nodes with ``min_share`` of the root's visits and the
    most-visited line (bold); each node shows its visits and mean, its size grows with visits."""
    rules = tree.rules
    root_visits = max(tree.root.visits, 1)
    line = {node.index for node in tree.best_line()}
    drawn = {node.index for node in tree.iter_nodes() if node.visits >= min_share * root_visits} | line | {0}
    legend = (
        f"Monte Carlo tree search, {rules.describe()}: {tree.playouts:,} playouts (seed {tree.seed}), "
        f"{len(tree):,} nodes; drawn: {len(drawn):,} with at least {min_share:.0%} of the visits. "
        "Each node: visits and the mean result for the side that moved there; bold: the most-visited line"
    )
    lines = [
        "digraph mcts {",
        f"  label={dot_quote(legend)};",
        '  labelloc=b; fontname="Helvetica"; fontsize=11; nodesep=0.12; ranksep=0.35;',
        '  node [fontname="Helvetica", fontsize=10, style=filled, shape=circle, margin=0.01];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for index in sorted(drawn):
        node = tree.node(index)
        colour = "#f4c542" if node.is_max else "#e0605a"
        width = 0.35 + 0.9 * (node.visits / root_visits) ** 0.5
        bold = ", penwidth=3" if index in line else ""
        label = f"{node.visits:,}\n{node.mean:.2f}"
        lines.append(f"  n{index} [fillcolor={dot_quote(colour)}, width={width:.2f}, label={dot_quote(label)}{bold}];")
        parent = node.parent
        if parent is not None and parent.index in drawn:
            edge_bold = ", penwidth=3" if index in line else ""
            lines.append(
                f"  n{parent.index} -> n{index} [label={dot_quote(format_move(node.move or 0, rules))}{edge_bold}];"
            )
    lines.append("}")
    return "\n".join(lines) + "\n"


def export_mcts_tree(tree: MctsTree, path: str | Path) -> Path:
    """Write ``tree`` to ``path`` as JSON (every node) or DOT, by its ending; return the path.

    Raises:
        ValueError: the ending is neither ``.json`` nor ``.dot``.
        OSError: the file could not be written.
    """
    return write_tree_file(path, lambda: mcts_json(tree), lambda: mcts_to_dot(tree))
