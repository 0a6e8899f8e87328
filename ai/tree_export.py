"""Trees you can take away: a recorded search written as JSON or as Graphviz DOT.

JSON holds every stored node (id, parent, move, side, value, bound kind, the alpha/beta
window it was searched with, ply, leaf reason, the moves a cutoff left unsearched);
``search_nodes`` is the count the search itself reports (the root is not counted, so a
complete tree stores ``search_nodes + 1`` nodes).  DOT draws MAX as a triangle pointing
up and MIN pointing down, as the overlay does, and each pruned move as a dashed edge to a
small grey point.  No pygame here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ai.tree import LeafReason, SearchTree
from game.notation import format_move

FORMATS = (".json", ".dot")
LEAF_WORDS = {
    LeafReason.DEPTH: "depth limit",
    LeafReason.WIN: "won",
    LeafReason.FULL: "full board",
    LeafReason.NONE: "",
}
"""The file endings ``export_tree`` understands."""


def tree_to_dict(tree: SearchTree) -> dict[str, Any]:
    """Every stored node of ``tree`` as plain data (see the module docstring)."""
    rules = tree.rules
    nodes = []
    for node in tree.iter_nodes():
        reason = node.leaf_reason
        nodes.append(
            {
                "id": node.index,
                "parent": None if node.parent is None else node.parent.index,
                "move": None if node.move is None else format_move(node.move, rules),
                "side": node.side_name,
                "value": node.value,
                "value_text": node.value_text,
                "bound": node.bound.value,
                "alpha": node.alpha_in,
                "beta": node.beta_in,
                "depth": node.ply,
                "leaf": None if reason is LeafReason.NONE else reason.name.lower(),
                "pruned": [format_move(move, rules) for move in node.pruned_moves()],
            }
        )
    return {
        "rules": rules.describe(),
        "depth": tree.depth,
        "pruning": tree.pruning,
        "to_move": "MAX" if tree.root.is_max else "MIN",
        "search_nodes": tree.counted - 1,
        "stored_nodes": len(tree),
        "complete": tree.is_complete,
        "nodes": nodes,
    }


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tree_to_dot(tree: SearchTree) -> str:
    """``tree`` as a Graphviz digraph: MAX up-triangles, MIN down-triangles, cutoffs dashed."""
    rules = tree.rules
    lines = [
        "digraph search {",
        f"  label={_quote(f'{rules.describe()}, depth {tree.depth}, alpha-beta ' + ('on' if tree.pruning else 'off'))};",
        '  node [fontname="Helvetica", fontsize=10, style=filled];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for node in tree.iter_nodes():
        shape = "triangle" if node.is_max else "invtriangle"
        colour = "#f4c542" if node.is_max else "#e0605a"
        label = node.value_text
        if node.is_leaf:
            label += "\\n" + LEAF_WORDS[node.leaf_reason]
        lines.append(f"  n{node.index} [shape={shape}, fillcolor={_quote(colour)}, label={_quote(label)}];")
        if node.parent is not None:
            label = format_move(node.move or 0, rules)
            lines.append(f"  n{node.parent.index} -> n{node.index} [label={_quote(label)}];")
        for move in node.pruned_moves():
            name = f"p{node.index}_{move}"
            lines.append(f'  {name} [shape=point, width=0.08, fillcolor="#999999", color="#999999"];')
            lines.append(
                f'  n{node.index} -> {name} [style=dashed, color="#999999", label={_quote(format_move(move, rules))}];'
            )
        if node.unstored:
            name = f"u{node.index}"
            lines.append(f"  {name} [shape=plaintext, style=solid, label={_quote(f'+{node.unstored:,} not stored')}];")
            lines.append(f"  n{node.index} -> {name} [style=dotted];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def export_tree(tree: SearchTree, path: str | Path) -> Path:
    """Write ``tree`` to ``path`` as JSON or DOT, by its ending; return the path written.

    Raises:
        ValueError: the ending is neither ``.json`` nor ``.dot``.
        OSError: the file could not be written.
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix == ".json":
        text = json.dumps(tree_to_dict(tree), indent=1)
    elif suffix == ".dot":
        text = tree_to_dot(tree)
    else:
        raise ValueError(
            f"{target.name}: a tree is exported as .json or .dot, not {suffix or 'a name without an ending'}"
        )
    target.write_text(text, encoding="utf-8")
    return target
