"""The tree overlay's sentences, as pure functions of the tree, its nodes and the rules.

No pygame here: the scenes call these and paint what they return, and the tests read
them directly.  Values are written by ``ai.tree.fmt_tree_value`` only (``+F``/``-F`` for
the heuristic's forced leaves), so one value is spelled one way in every sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai.exact import ExactScore
from ai.search_types import TableStats
from ai.tree import (
    BOUND_MEANING,
    BoundKind,
    LeafReason,
    Node,
    SearchTree,
    TableHit,
    fmt_tree_value,
    forced_meaning,
    is_forced_value,
    nodes_text,
)
from game.app.tree.replay import Replay
from game.board import Board
from game.i18n import N_, _, ngettext, number
from game.notation import format_move
from game.rules import MAX

if TYPE_CHECKING:
    from game.app.tree.compare import OrderComparison

LEAF_WHY = {
    LeafReason.DEPTH: N_("depth limit: valued by the heuristic"),
    LeafReason.WIN: N_("the move completed a line: game won"),
    LeafReason.FULL: N_("the board is full: game over"),
    LeafReason.TABLE: N_("answered from the transposition table: searched before, by another order of the same moves"),
}
"""Why a node is a leaf, for the detail panel, the code walk and practice."""

TABLE_BOUNDS = {
    BoundKind.EXACT: N_("an exact value"),
    BoundKind.LOWER: N_("a lower bound"),
    BoundKind.UPPER: N_("an upper bound"),
}
"""What a transposition-table entry holds, for the detail panel."""


def table_hit_lines(node: Node, hit: TableHit) -> list[str]:
    """The detail panel on a node answered from the table: which entry, its depth and
    bound, and whether it was a table cutoff."""
    tree = node.tree
    if hit.entry >= 0:
        path = " ".join(format_move(move, tree.rules) for move in tree.node(hit.entry).path())
        said = _("From the table: the entry stored when the search met this position after {path} (node {entry})")
        lines = [said.format(path=path, entry=number(hit.entry))]
    else:
        lines = [_("From the table: an entry stored earlier in this search (a node past the stored ones)")]
    depth = ngettext(
        "Entry: searched {depth} ply deep, {bound} {value}",
        "Entry: searched {depth} plies deep, {bound} {value}",
        hit.depth,
    )
    lines.append(depth.format(depth=hit.depth, bound=_(TABLE_BOUNDS[hit.bound]), value=fmt_tree_value(node.value)))
    if hit.bound is BoundKind.LOWER:
        lines.append(
            _("Table cutoff: the stored lower bound {value} >= beta {beta}: not searched again").format(
                value=fmt_tree_value(node.value), beta=fmt_tree_value(node.beta_in)
            )
        )
    elif hit.bound is BoundKind.UPPER:
        lines.append(
            _("Table cutoff: the stored upper bound {value} <= alpha {alpha}: not searched again").format(
                value=fmt_tree_value(node.value), alpha=fmt_tree_value(node.alpha_in)
            )
        )
    else:
        lines.append(_("An exact value: taken as it is, its subtree not searched again"))
    return lines


def table_line(table: TableStats | None, without: int | None, measuring: bool) -> str | None:
    """The table's statistics (None: it was off) and, from a real run, the nodes the same
    search needed without it (``measuring``: that run is under way)."""
    if table is None:
        return None
    said = _(
        "Transposition table: {probes:,} probes, {hits:,} hits ({cutoffs:,} of them table cutoffs), {stores:,} stores"
    ).format(probes=table.probes, hits=table.hits, cutoffs=table.cutoffs, stores=table.stores)
    if without is not None:
        return said + _("; the same search without it: {nodes:,} nodes (searched now)").format(nodes=without)
    if measuring:
        return said + _("; searching without it now")
    return said + _("; C: search without it")


def node_count_text(tree: SearchTree) -> str:
    """The rule the node counts follow, with this tree's numbers (the legend says it)."""
    searched = tree.counted - 1
    return _(
        "Node counts: the search counts the {searched:,} positions below the root (the header, the status line, the chart); a subtree's count includes its own top node, so the root's is {searched2:,}."
    ).format(searched=searched, searched2=searched + 1)


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
        return (
            "..."
            if frame.best is None
            else _("best {fmt_tree_value}").format(fmt_tree_value=fmt_tree_value(frame.best))
        )
    return tree.node(index).value_text


def detail_lines(node: Node, replay: Replay | None, horizon: str | None, pruned: list[str]) -> list[str]:
    """What the detail panel says about ``node`` (at the replay's step, if any).

    ``horizon``: the exact verdict beside the value, if known; ``pruned``: the names of
    the moves a cutoff left unsearched here.
    """
    tree = node.tree
    if replay is not None and not replay.is_visited(node.index):
        return [_("Not searched yet at this step of the replay.")]
    if replay is not None and not replay.is_known(node.index):
        if node.table_hit is not None:  # the table answers it as it is entered: say so now
            return table_hit_lines(node, node.table_hit)
        frame = replay.frame(node.index)
        assert frame is not None
        lines = [_("Being searched at this step: its value is not known yet.")]
        if tree.pruning:
            lines.append(
                _("Window now: alpha {fmt_tree_value}, beta {fmt_tree_value2}").format(
                    fmt_tree_value=fmt_tree_value(frame.alpha), fmt_tree_value2=fmt_tree_value(frame.beta)
                )
            )
        best = _("none yet") if frame.best is None else fmt_tree_value(frame.best)
        lines.append(
            ngettext(
                "Best so far: {best} ({searched} child searched)",
                "Best so far: {best} ({searched} children searched)",
                frame.searched,
            ).format(best=best, searched=frame.searched)
        )
        return lines
    bound = node.bound
    lines = [_("Value: {value_text}").format(value_text=node.value_text)]
    if is_forced_value(node.value):
        lines.append(f"F: {forced_meaning()}")
    if bound is not BoundKind.EXACT:
        lines.append(_("This value is {BOUND_MEANING}.").format(BOUND_MEANING=_(BOUND_MEANING[bound])))
    if tree.pruning:
        lines.append(
            _("Window in:  alpha {fmt_tree_value}, beta {fmt_tree_value2}").format(
                fmt_tree_value=fmt_tree_value(node.alpha_in), fmt_tree_value2=fmt_tree_value(node.beta_in)
            )
        )
        lines.append(
            _("Window out: alpha {fmt_tree_value}, beta {fmt_tree_value2}").format(
                fmt_tree_value=fmt_tree_value(node.alpha_out), fmt_tree_value2=fmt_tree_value(node.beta_out)
            )
        )
    if horizon:
        lines.append(horizon)
    if node.is_leaf:
        lines.append(_("Leaf: {get}").format(get=_(LEAF_WHY.get(node.leaf_reason, ""))))
        hit = node.table_hit
        if hit is not None:
            lines += table_hit_lines(node, hit)
        if node.leaf_reason is LeafReason.DEPTH:
            lines.append(_("Heuristic value: {value:,}").format(value=node.value))
        return lines
    size = _("Subtree: {nodes_text}").format(nodes_text=nodes_text(node.subtree_size))
    if node.parent is None:  # the header counts the search's nodes: one fewer
        size += _(" (the root and the {subtree_size:,} the search counts)").format(subtree_size=node.subtree_size - 1)
    lines.append(size)
    moves = f" ({' '.join(pruned)})" if pruned else ""
    lines.append(
        _("Children: {searched_count} searched, {pruned_count} pruned{moves}").format(
            searched_count=node.searched_count, pruned_count=node.pruned_count, moves=moves
        )
    )
    reason = node.cutoff_reason()
    if reason:
        lines.append(_("Cutoff: {reason}").format(reason=reason))
    if node.unstored:
        lines.append(_("{nodes_text} below counted, not stored").format(nodes_text=nodes_text(node.unstored)))
    return lines


def exact_verdict(node: Node, exact: ExactScore) -> str:
    """The node's depth-limited value beside perfect play's result ``exact`` (of the
    node's position), counted in plies as the tree's W values are."""
    tree = node.tree
    depth = tree.depth - node.ply
    said = (
        _("Depth {depth} says {value_text}").format(depth=depth, value_text=node.value_text)
        if depth > 0
        else _("The heuristic says {value_text}").format(value_text=node.value_text)
    )
    if exact.winner == 0:
        return _("{said}; perfect play: a draw").format(said=said)
    winner, plies = exact.winner, exact.plies
    name = _("MAX (player 1)") if winner == MAX else _("MIN (player 2)")
    if plies is None:
        return _("{said}; perfect play: {name} wins (how soon was not worked out)").format(said=said, name=name)
    # In plies, as the tree's W values count (a ply: one disc, either side's).
    total = f"{'+' if winner == MAX else '-'}W{node.ply + plies}"
    return ngettext(
        "{said}; perfect play: {total}, {name} wins in {plies} ply from here",
        "{said}; perfect play: {total}, {name} wins in {plies} plies from here",
        plies,
    ).format(said=said, total=total, name=name, plies=plies)


def compare_verdict(value: int, other: int) -> str:
    """Did switching the pruning change the value? It must not for the same judgement."""
    if other == value:
        return _("same value")
    return _("value differs: {fmt_tree_value} vs {fmt_tree_value2}").format(
        fmt_tree_value=fmt_tree_value(value), fmt_tree_value2=fmt_tree_value(other)
    )


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
    minimal = _("Knuth-Moore minimal tree (b={branching}): {minimal_nodes:,} nodes, {minimal_leaves:,} leaves").format(
        branching=branching, minimal_nodes=minimal_nodes, minimal_leaves=minimal_leaves
    )
    if orders is None:
        if searched is not None and searched < minimal_nodes:
            said = _("{minimal} if no line ended early; this search needed fewer: wins ended lines early").format(
                minimal=minimal
            )
        else:
            said = _("{minimal}: the least alpha-beta visits when no line ends early").format(minimal=minimal)
        return _("{said}. O: rerun with each move order").format(said=said)
    parts = [_("minimal {minimal_nodes:,}").format(minimal_nodes=minimal_nodes)]
    for run in orders.runs:
        ratio = f" ({number(run.nodes / minimal_nodes, ',.1f')}x)" if minimal_nodes else ""
        said = _("{order} over {nodes:,}{ratio}") if run.capped else _("{order} {nodes:,}{ratio}")
        parts.append(said.format(order=_(run.order.value), nodes=run.nodes, ratio=ratio))
    searching = orders.next_order
    if searching is not None:
        parts.append(_("{value}: searching (O stops)").format(value=_(searching.value)))
    return _("Nodes at depth {depth} with alpha-beta: ").format(depth=orders.depth) + " · ".join(parts)


def with_position(status: str, board: Board) -> str:
    """A chart's status line with the moves of the position it charts, where it has any."""
    moves = " ".join(format_move(move, board.rules) for move in board.moves)
    return _("{status}  (position: {moves})").format(status=status, moves=moves) if moves else status
