"""The tree overlay's sentences, as pure functions of the tree, its nodes and the rules.

No pygame here: the scenes call these and paint what they return, and the tests read
them directly.  Values are written by ``ai.tree.fmt_tree_value`` only (``+F``/``-F`` for
the heuristic's forced leaves), so one value is spelled one way in every sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.exact import ExactScore
from ai.tree import (
    BOUND_MEANING,
    FORCED_MEANING,
    BoundKind,
    LeafReason,
    Node,
    SearchTree,
    fmt_tree_value,
    is_forced_value,
    nodes_text,
)
from game.app.tree.replay import Replay
from game.rules import MAX

if TYPE_CHECKING:
    from game.app.tree.compare import OrderComparison

LEAF_WHY = {
    LeafReason.DEPTH: "depth limit: valued by the heuristic",
    LeafReason.WIN: "the move completed a line: game won",
    LeafReason.FULL: "the board is full: game over",
}
"""Why a node is a leaf, for the detail panel, the code walk and practice."""


def node_count_text(tree: SearchTree) -> str:
    """The rule the node counts follow, with this tree's numbers (the legend says it)."""
    searched = tree.counted - 1
    return (
        f"Node counts: the search counts the {searched:,} positions below the root (the header, the "
        f"status line, the chart); a subtree's count includes its own top node, so the root's is {searched + 1:,}."
    )


def node_text(tree: SearchTree, index: int, replay: Replay | None) -> str | None:
    """The text under a node: its value with its bound mark, the live window while the
    replay is inside it, or None when the replay has not reached it."""
    if replay is None:
        return tree.node(index).value_text
    if not replay.is_visited(index):
        return None
    if not replay.is_known(index):
        frame = replay.frame(index)
        assert frame is not None
        if tree.pruning:
            return f"[{fmt_tree_value(frame.alpha)}, {fmt_tree_value(frame.beta)}]"
        return "..." if frame.best is None else f"best {fmt_tree_value(frame.best)}"
    return tree.node(index).value_text


def detail_lines(node: Node, replay: Replay | None, horizon: str | None, pruned: list[str]) -> list[str]:
    """What the detail panel says about ``node`` (at the replay's step, if any).

    ``horizon``: the exact verdict beside the value, if known; ``pruned``: the names of
    the moves a cutoff left unsearched here.
    """
    tree = node.tree
    if replay is not None and not replay.is_visited(node.index):
        return ["Not searched yet at this step of the replay."]
    if replay is not None and not replay.is_known(node.index):
        frame = replay.frame(node.index)
        assert frame is not None
        lines = ["Being searched at this step: its value is not known yet."]
        if tree.pruning:
            lines.append(f"Window now: alpha {fmt_tree_value(frame.alpha)}, beta {fmt_tree_value(frame.beta)}")
        best = "none yet" if frame.best is None else fmt_tree_value(frame.best)
        plural = "" if frame.searched == 1 else "ren"
        lines.append(f"Best so far: {best} ({frame.searched} child{plural} searched)")
        return lines
    bound = node.bound
    lines = [f"Value: {node.value_text}"]
    if is_forced_value(node.value):
        lines.append(f"F: {FORCED_MEANING}")
    if bound is not BoundKind.EXACT:
        lines.append(f"This value is {BOUND_MEANING[bound]}.")
    if tree.pruning:
        lines.append(f"Window in:  alpha {fmt_tree_value(node.alpha_in)}, beta {fmt_tree_value(node.beta_in)}")
        lines.append(f"Window out: alpha {fmt_tree_value(node.alpha_out)}, beta {fmt_tree_value(node.beta_out)}")
    if horizon:
        lines.append(horizon)
    if node.is_leaf:
        lines.append(f"Leaf: {LEAF_WHY.get(node.leaf_reason, '')}")
        if node.leaf_reason is LeafReason.DEPTH:
            lines.append(f"Heuristic value: {node.value:,}")
        return lines
    size = f"Subtree: {nodes_text(node.subtree_size)}"
    if node.parent is None:  # the header counts the search's nodes: one fewer
        size += f" (the root and the {node.subtree_size - 1:,} the search counts)"
    lines.append(size)
    moves = f" ({' '.join(pruned)})" if pruned else ""
    lines.append(f"Children: {node.searched_count} searched, {node.pruned_count} pruned{moves}")
    reason = node.cutoff_reason()
    if reason:
        lines.append(f"Cutoff: {reason}")
    if node.unstored:
        lines.append(f"{nodes_text(node.unstored)} below counted, not stored")
    return lines


def exact_verdict(node: Node, exact: ExactScore) -> str:
    """The node's depth-limited value beside perfect play's result ``exact`` (of the
    node's position), counted in plies as the tree's W values are."""
    tree = node.tree
    depth = tree.depth - node.ply
    said = f"Depth {depth} says {node.value_text}" if depth > 0 else f"The heuristic says {node.value_text}"
    if exact.winner == 0:
        return f"{said}; perfect play: a draw"
    winner, plies = exact.winner, exact.plies
    name = "MAX (player 1)" if winner == MAX else "MIN (player 2)"
    if plies is None:
        return f"{said}; perfect play: {name} wins (how soon was not worked out)"
    # In plies, as the tree's W values count (a ply: one disc, either side's).
    total = f"{'+' if winner == MAX else '-'}W{node.ply + plies}"
    return f"{said}; perfect play: {total}, {name} wins in {plies} pl{'y' if plies == 1 else 'ies'} from here"


def compare_verdict(value: int, other: int) -> str:
    """Did switching the pruning change the value? It must not for the same judgement."""
    if other == value:
        return "same value"
    return f"value differs: {fmt_tree_value(value)} vs {fmt_tree_value(other)}"


def order_line(
    minimal_nodes: int,
    minimal_leaves: int,
    branching: int,
    orders: OrderComparison | None,
    searched: int | None = None,
) -> str:
    """The Knuth-Moore minimal tree and, once asked for, each move order's node count.

    The minimal tree is the least alpha-beta visits on a uniform tree (every line
    ``depth`` plies, ``branching`` moves at each node); a won game or a full column ends
    a line early, so a real search can need fewer (``searched``: its node count)."""
    minimal = f"Knuth-Moore minimal tree (b={branching}): {minimal_nodes:,} nodes, {minimal_leaves:,} leaves"
    if orders is None:
        if searched is not None and searched < minimal_nodes:
            said = f"{minimal} if no line ended early; this search needed fewer: wins ended lines early"
        else:
            said = f"{minimal}: the least alpha-beta visits when no line ends early"
        return f"{said}. O: rerun with each move order"
    parts = [f"minimal {minimal_nodes:,}"]
    for run in orders.runs:
        ratio = f" ({run.nodes / minimal_nodes:,.1f}x)" if minimal_nodes else ""
        parts.append(f"{run.order.value} {'over ' if run.capped else ''}{run.nodes:,}{ratio}")
    searching = orders.next_order
    if searching is not None:
        parts.append(f"{searching.value}: searching (O stops)")
    return f"Nodes at depth {orders.depth} with alpha-beta: " + " · ".join(parts)
