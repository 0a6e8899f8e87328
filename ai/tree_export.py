"""Trees you can take away: a recorded search written as JSON or as Graphviz DOT.

JSON holds every stored node (id, parent, move, side, value, bound kind, the alpha/beta
window it was searched with, ply, leaf reason, the moves a cutoff left unsearched, and
for a node answered from the transposition table its entry: ``table``);
``search_nodes`` is the count the search itself reports (the root is not counted, so a
complete tree stores ``search_nodes + 1`` nodes).  DOT draws MAX as a triangle pointing
up and MIN pointing down, as the overlay does, a node's pruned moves as one dashed edge to
a small grey point, and only as many plies as stay legible (with the expected line to its
leaf and "+N not drawn" for the rest), saying so and the node-count rule in its label.
No pygame here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from ai.tree import LeafReason, SearchTree, TableHit
from game.notation import format_move
from game.regular_file import atomic_writer

FORMATS = (".json", ".dot")
"""The file endings ``export_tree`` understands."""
LEAF_WORDS = {
    LeafReason.DEPTH: "depth limit",
    LeafReason.WIN: "won",
    LeafReason.FULL: "full board",
    LeafReason.TABLE: "from the table",
    LeafReason.NONE: "",
}
"""Why a leaf is a leaf, in the picture's words."""
DOT_ROW = 30
"""Nodes side by side a DOT picture draws at most by default (the plies that fit, and the
expected line): a 363-node tree drawn whole is about 67,000 points wide, too wide to read
or to render (bitmaps stop at 32,767 pixels)."""


def tree_to_dict(tree: SearchTree) -> dict[str, Any]:
    """Every stored node of ``tree`` as plain data (see the module docstring)."""
    head, nodes = tree_json(tree)
    return {**head, "nodes": list(nodes)}


def tree_json(tree: SearchTree) -> tuple[dict[str, Any], Iterator[dict[str, Any]]]:
    """``tree_to_dict`` in two parts, the head and the nodes one by one (an export streams them)."""
    rules = tree.rules
    head = {
        "rules": rules.describe(),
        "depth": tree.depth,
        "pruning": tree.pruning,
        "table": tree.table,
        "to_move": "MAX" if tree.root.is_max else "MIN",
        "search_nodes": tree.counted - 1,
        "stored_nodes": len(tree),
        "complete": tree.is_complete,
    }

    def nodes() -> Iterator[dict[str, Any]]:
        for node in tree.iter_nodes():
            reason = node.leaf_reason
            yield {
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
                "table": _table_hit_json(node.table_hit),
            }

    return head, nodes()


def _table_hit_json(hit: TableHit | None) -> dict[str, Any] | None:
    """A node answered from the transposition table: the node that stored the entry, its
    depth, its bound and whether it was a table cutoff; None for a node searched or valued."""
    if hit is None:
        return None
    return {"entry": hit.entry, "depth": hit.depth, "bound": hit.bound.value, "cutoff": hit.is_cutoff}


def dot_quote(text: str) -> str:
    """A DOT string of ``text``; its newlines become DOT's centred line breaks."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + escaped.replace("\n", "\\n") + '"'


def subtree_plies(tree: SearchTree, root: int = 0) -> list[int]:
    """Stored nodes of the subtree of ``root`` at each ply below it (index 0: ``root``)."""
    top = tree.node(root).ply
    counts: list[int] = []
    for index in range(root, tree.node(root).index + tree.node(root).stored_subtree_size):
        ply = tree.node(index).ply - top
        counts.extend([0] * (ply + 1 - len(counts)))
        counts[ply] += 1
    return counts


def legible_plies(tree: SearchTree, root: int = 0, row: int = DOT_ROW) -> int:
    """The most plies below ``root`` with no more than ``row`` nodes side by side (at least
    1, so a picture always shows the root's children)."""
    plies = 0
    for ply, count in enumerate(subtree_plies(tree, root)):
        if count > row and ply > 1:
            break
        plies = ply
    return plies


def _drawn(tree: SearchTree, root: int, plies: int) -> set[int]:
    """The nodes a picture of ``plies`` plies below ``root`` draws: those, and the expected
    line from ``root`` down to its leaf."""
    top = tree.node(root).ply
    end = root + tree.node(root).stored_subtree_size
    drawn = {index for index in range(root, end) if tree.node(index).ply - top <= plies}
    node = tree.node(root).best_child()
    while node is not None:
        drawn.add(node.index)
        node = node.best_child()
    return drawn


def dot_legend(tree: SearchTree, root: int, plies: int, drawn: int) -> list[str]:
    """The picture's key: what it shows, the node-count rule, what was left out."""
    rules = tree.rules
    top = tree.node(root)
    lines = [
        f"{rules.describe()}, depth {tree.depth}, alpha-beta {'on' if tree.pruning else 'off'}: "
        "MAX (player 1) triangles up, MIN down",
        f"{tree.counted:,} nodes: the root and the {tree.counted - 1:,} the search counts"
        + ("" if tree.is_complete else f" ({len(tree):,} stored, the rest past the budget)"),
    ]
    below = len(subtree_plies(tree, root)) - 1
    where = "the root" if top.move is None else "the node after " + " ".join(format_move(m, rules) for m in top.path())
    if plies < below or root:
        lines.append(
            f"drawn: {drawn:,} nodes, {plies} {'ply' if plies == 1 else 'plies'} below {where} and the expected "
            "line to its leaf; a box +N: N nodes below, not drawn (--export-depth D draws D plies; "
            "the .json has every node)"
        )
    lines.append(
        "dashed, to a grey dot: the moves a cutoff left unsearched; >=v, <=v: only a bound; W<n>: a win in n "
        "plies; a leaf without a word stopped at the depth limit"
    )
    return lines


def tree_to_dot(tree: SearchTree, *, root: int = 0, plies: int | None = None) -> str:
    """``tree`` as a Graphviz digraph: MAX up-triangles, MIN down-triangles, cutoffs dashed.

    Draws the subtree of node ``root``, ``plies`` plies deep (default: as many as stay
    legible, ``legible_plies``) and the expected line to its leaf; each node drawn without
    all its children gets a "+N not drawn" note.  The picture's label says so, and how the
    nodes are counted.
    """
    rules = tree.rules
    if plies is None:
        plies = legible_plies(tree, root)
    drawn = _drawn(tree, root, plies)
    legend = dot_legend(tree, root, plies, len(drawn))
    lines = [
        "digraph search {",
        f"  label={dot_quote(chr(10).join(legend))};",
        '  labelloc=b; fontname="Helvetica"; fontsize=11; nodesep=0.12; ranksep=0.35',
        '  node [fontname="Helvetica", fontsize=10, style=filled, margin=0.01];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]
    for index in sorted(drawn):
        node = tree.node(index)
        shape = "triangle" if node.is_max else "invtriangle"
        colour = "#f4c542" if node.is_max else "#e0605a"
        label = node.value_text
        if node.is_leaf and node.leaf_reason is not LeafReason.DEPTH:  # the depth limit: the legend says
            label += "\n" + LEAF_WORDS[node.leaf_reason]
        lines.append(f"  n{index} [shape={shape}, fillcolor={dot_quote(colour)}, label={dot_quote(label)}];")
        hidden = sum(child.subtree_size for child in node.children() if child.index not in drawn)
        if hidden:
            lines.append(
                f"  s{index} [shape=box, style=rounded, fontsize=9, width=0.3, height=0.22, label={dot_quote(f'+{hidden:,}')}];"
            )
            lines.append(f"  n{index} -> s{index} [style=dotted, arrowhead=none];")
        if index != root and node.parent is not None:
            lines.append(f"  n{node.parent.index} -> n{index} [label={dot_quote(format_move(node.move or 0, rules))}];")
        pruned = node.pruned_moves()
        if pruned:
            cut = " ".join(format_move(move, rules) for move in pruned)
            lines.append(f'  p{index} [shape=point, width=0.08, fillcolor="#999999", color="#999999"];')
            lines.append(f'  n{index} -> p{index} [style=dashed, color="#999999", label={dot_quote(cut)}];')
        if node.unstored:
            name = f"u{index}"
            lines.append(
                f"  {name} [shape=plaintext, style=solid, label={dot_quote(f'+{node.unstored:,} not stored')}];"
            )
            lines.append(f"  n{index} -> {name} [style=dotted];")
    lines.append("}")
    return "\n".join(lines) + "\n"


def export_tree(tree: SearchTree, path: str | Path, *, root: int = 0, plies: int | None = None) -> Path:
    """Write ``tree`` to ``path`` as JSON (every node) or DOT (the subtree of ``root``,
    ``plies`` deep: see ``tree_to_dot``), by its ending; return the path written.

    Raises:
        ValueError: the ending is neither ``.json`` nor ``.dot``.
        OSError: the file could not be written (``NotRegularFile``: not a regular file).
    """
    return write_tree_file(path, lambda: tree_json(tree), lambda: tree_to_dot(tree, root=root, plies=plies))


JsonParts = tuple[dict[str, Any], Iterable[dict[str, Any]]]
"""A tree as JSON: its head (plain values) and its nodes, one by one."""


def write_tree_file(path: str | Path, as_json: Callable[[], JsonParts], as_dot: Callable[[], str]) -> Path:
    """Write a tree to ``path`` as JSON (``as_json``) or DOT (``as_dot``), by its ending
    (the minimax and the MCTS exports alike); return the path.  The file is replaced whole
    (``game.regular_file``: only a regular file, never a FIFO or a device), and a JSON
    export streams its nodes one line each, so a tree of a million nodes costs no more
    memory to write than the tree itself.

    Raises:
        ValueError: the ending is neither ``.json`` nor ``.dot``.
        OSError: the file could not be written (``NotRegularFile``: not a regular file).
    """
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(
            f"{target.name}: a tree is exported as .json or .dot, not {suffix or 'a name without an ending'}"
        )
    with atomic_writer(target) as file:
        if suffix == ".dot":
            file.write(as_dot().encode("utf-8"))
            return target
        head, nodes = as_json()
        file.write(json.dumps(head, indent=1)[:-2].encode("utf-8") + b',\n "nodes": [')
        for number, node in enumerate(nodes):
            file.write((",\n  " if number else "\n  ").encode("ascii") + json.dumps(node).encode("utf-8"))
        file.write(b"\n ]\n}\n")
    return target
