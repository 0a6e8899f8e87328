"""The tree a search explored, stored compactly, with light ``Node`` views.

Nodes are stored in visit (pre-)order in one flat ``array('i')``, ``FIELDS`` ints per
node (44 bytes), so a million nodes take about 44 MB.  Because of the pre-order, the
subtree of node ``n`` is the index range ``[n, end(n))`` and its first child, if any, is
``n + 1``; the next sibling of a child ``c`` is ``end(c)``.

Past the node budget the search keeps counting but stops storing: each stored node
knows how many nodes its subtree really had, so the difference was counted, not stored.

With the transposition table on, a node answered from the table is a leaf of reason
``LeafReason.TABLE``; what answered it (the node that stored the entry, its depth and
bound) is kept beside the flat array in ``SearchTree.table_hits`` (hits are few), so the
nodes marked "from the table" are exactly the table's hits.
"""

from __future__ import annotations

import enum
from array import array
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ai.heuristic import TACTICAL
from ai.values import fmt_value
from game.board import Board
from game.i18n import N_, _, ngettext
from game.notation import format_move
from game.rules import MAX, MIN, Rules

DEFAULT_BUDGET = 2_000_000
"""Nodes stored before the tree switches to counting only."""

# Field offsets inside a node's record.
PARENT, MOVE, INFO, VALUE, ALPHA_IN, BETA_IN, ALPHA_OUT, BETA_OUT, END, LEGAL, SUBTREE = range(11)
FIELDS = 11
_IS_MAX = 1 << 8  # INFO: bits 0-7 the ply, bit 8 MAX to move, bits 9-11 the leaf reason
_REASON_SHIFT = 9


class BoundKind(str, enum.Enum):
    """What a stored value says: the exact minimax value, or only a bound on it.

    With alpha-beta a node searched with the window ``[alpha, beta]`` that returns
    ``v >= beta`` failed high: a refutation was found, here or below, and the moves
    after it were not searched, so the true value is at least ``v`` (LOWER).  ``v <=
    alpha`` failed low: the true value is at most ``v`` (UPPER).  Strictly inside the
    window the value is exact (fail-soft alpha-beta), and without pruning every value is.
    """

    EXACT = "exact"
    LOWER = "lower"  # the true value is >= the stored one
    UPPER = "upper"  # the true value is <= the stored one

    @property
    def sign(self) -> str:
        """The mark written before a value: ``>=`` / ``<=``, nothing when exact."""
        return _SIGNS[self]

    @staticmethod
    def of(value: int, alpha_in: int, beta_in: int, *, pruning: bool, exact_leaf: bool = False) -> BoundKind:
        """The kind of ``value`` returned by a node searched with ``[alpha_in, beta_in]``.

        ``exact_leaf``: the node was valued directly (a leaf), never by a search.
        """
        if not pruning or exact_leaf:
            return BoundKind.EXACT
        if value >= beta_in:
            return BoundKind.LOWER
        if value <= alpha_in:
            return BoundKind.UPPER
        return BoundKind.EXACT


_SIGNS = {BoundKind.EXACT: "", BoundKind.LOWER: ">=", BoundKind.UPPER: "<="}


FORCED_MEANING = N_(
    "a side wins by force just past the depth limit: a win to play or two threats "
    "(the heuristic's {tactical}; +F for MAX, -F for MIN; plies not counted)"
)
"""What ``+F`` / ``-F`` stand for, for the legend, the detail panel and the CLI."""


def forced_meaning() -> str:
    """``FORCED_MEANING`` in the language in use, its number filled in."""
    return _(FORCED_MEANING).format(tactical=f"{TACTICAL:,}")


def is_forced_value(value: int) -> bool:
    """Tell whether ``value`` is the heuristic's forced-leaf value (``ai.heuristic.TACTICAL``)."""
    return abs(value) == TACTICAL


def fmt_tree_value(value: int) -> str:
    """``fmt_value``, with the heuristic's forced-leaf value named ``+F`` / ``-F``."""
    if is_forced_value(value):
        return "+F" if value > 0 else "-F"
    return fmt_value(value)


def fmt_bounded(value: int, kind: BoundKind) -> str:
    """A value as a person reads it, with its bound mark: ``20``, ``>=20``, ``<=+W3``, ``-F``."""
    return kind.sign + fmt_tree_value(value)


BOUND_MEANING = {
    BoundKind.EXACT: N_("exact: every move that could change it was searched"),
    BoundKind.LOWER: N_("a lower bound: cutoffs here or below left moves unsearched, the true value may be higher"),
    BoundKind.UPPER: N_("an upper bound: cutoffs here or below left moves unsearched, the true value may be lower"),
}
"""One sentence per kind, for the detail panel and the legend (translated where shown)."""

BOUND_NOTE = N_("Key: >=v / <=v is only a bound: cutoffs left moves unsearched, the true value may be higher / lower")
"""The one-line key to the bound marks, for the CLI and the overlay's legend (translated where shown)."""


class LeafReason(enum.IntEnum):
    """Why a node has no children."""

    NONE = 0  # an inner node
    DEPTH = 1  # the depth limit: valued by the heuristic
    WIN = 2  # the move into it completed a line
    FULL = 3  # the board is full
    TABLE = 4  # answered from the transposition table: its subtree was searched before


@dataclass(frozen=True)
class TableHit:
    """What answered a node from the transposition table: the stored entry.

    ``entry``: the node whose search stored it (its index in the same tree; -1 if that
    node was past the budget); ``depth``: the plies the stored search looked ahead (the
    same as this node's: an entry only answers a search to its own depth); ``bound``:
    EXACT answered the value outright, LOWER / UPPER were a table cutoff (the stored bound
    alone lay outside this node's window)."""

    entry: int
    depth: int
    bound: BoundKind

    @property
    def is_cutoff(self) -> bool:
        """Whether the table cut this node off by a bound (not an exact value)."""
        return self.bound is not BoundKind.EXACT


@dataclass
class TreeRecorder:
    """Appends nodes during a search; becomes a ``SearchTree`` when the search ends."""

    budget: int = DEFAULT_BUDGET

    def __post_init__(self) -> None:
        self.data = array("i")
        self.stored = 0
        self.table_hits: dict[int, TableHit] = {}

    def table_hit(
        self, parent: int, move: int, ply: int, is_max: bool, alpha: int, beta: int, value: int, hit: TableHit
    ) -> None:
        """Store a node answered from the transposition table (a leaf of reason TABLE)."""
        if self.stored < self.budget:
            self.table_hits[self.stored] = hit
        self.leaf(parent, move, ply, is_max, alpha, beta, value, LeafReason.TABLE)

    def open(self, parent: int, move: int, ply: int, is_max: bool, alpha: int, beta: int, nodes: int) -> int:
        """Store a node as it is entered; return its index, or -1 past the budget."""
        if self.stored >= self.budget:
            return -1
        index = self.stored
        self.stored += 1
        self.data.extend((parent, move, ply | (_IS_MAX if is_max else 0), 0, alpha, beta, alpha, beta, 0, 0, nodes))
        return index

    def leaf(
        self, parent: int, move: int, ply: int, is_max: bool, alpha: int, beta: int, value: int, reason: int
    ) -> None:
        """Store a finished leaf in one step (most nodes are leaves)."""
        if self.stored >= self.budget:
            return
        self.stored += 1
        self.data.extend(
            (
                parent,
                move,
                ply | (_IS_MAX if is_max else 0) | (reason << _REASON_SHIFT),
                value,
                alpha,
                beta,
                alpha,
                beta,
                self.stored,
                0,
                1,
            )
        )

    def close(self, index: int, value: int, alpha: int, beta: int, reason: int, legal: int, nodes: int) -> None:
        """Finish a node as the search leaves it (``nodes``: the search's count now)."""
        base = index * FIELDS
        data = self.data
        data[base + VALUE] = value
        data[base + ALPHA_OUT] = alpha
        data[base + BETA_OUT] = beta
        data[base + END] = self.stored
        data[base + LEGAL] = legal
        data[base + INFO] |= reason << _REASON_SHIFT
        data[base + SUBTREE] = nodes - data[base + SUBTREE]  # nodes counted in the subtree


class SearchTree:
    """What one search pass explored: the root position and every stored node."""

    def __init__(
        self,
        data: array[int],
        rules: Rules,
        grid: np.ndarray,
        to_move: int,
        depth: int,
        pruning: bool,
        *,
        table_hits: dict[int, TableHit] | None = None,
    ):
        """``table_hits``: the nodes answered from the transposition table (None: it was off)."""
        self.data = data
        self.rules = rules
        self.grid = grid
        self.to_move = to_move
        self.depth = depth
        self.pruning = pruning
        self.table_hits = table_hits

    @property
    def table(self) -> bool:
        """Whether the search ran with the transposition table."""
        return self.table_hits is not None

    def __len__(self) -> int:
        return len(self.data) // FIELDS

    @property
    def root(self) -> Node:
        return Node(self, 0)

    def node(self, index: int) -> Node:
        return Node(self, index)

    def field(self, index: int, offset: int) -> int:
        return self.data[index * FIELDS + offset]

    @property
    def counted(self) -> int:
        """How many nodes the search visited (the root included), stored or not."""
        return self.field(0, SUBTREE)

    @property
    def is_complete(self) -> bool:
        """Tell whether every visited node was stored (the budget was not reached)."""
        return self.counted == len(self)

    def nbytes(self) -> int:
        """Bytes used by the node records."""
        return self.data.itemsize * len(self.data)

    def nodes_per_ply(self) -> list[int]:
        """Count the stored nodes at each ply: index 0 is the root."""
        if not len(self):
            return []
        info = np.frombuffer(self.data, dtype=np.int32)[INFO::FIELDS]  # a view: no copy of the tree
        return [int(count) for count in np.bincount(info.astype(np.uint8))]  # the ply is INFO's low byte

    def child_indices(self, index: int) -> list[int]:
        """Indices of the searched children of ``index``, in search order (pre-order walk)."""
        data = self.data
        end = data[index * FIELDS + END]
        child = index + 1
        result = []
        while child < end:
            result.append(child)
            child = data[child * FIELDS + END]
        return result

    def iter_nodes(self) -> Iterator[Node]:
        for index in range(len(self)):
            yield Node(self, index)

    def principal_variation(self) -> list[Node]:
        """Follow from the root the child whose value is the node's value (first such)."""
        line: list[Node] = []
        node = self.root
        while True:
            best = node.best_child()
            if best is None:
                return line
            line.append(best)
            node = best


class _Field:
    """A node's field in its tree's flat array (``PARENT`` ... ``SUBTREE``), read as a property."""

    def __init__(self, offset: int, doc: str | None = None):
        self.offset = offset
        self.__doc__ = doc

    def __get__(self, node: Node, owner: type[Node]) -> int:
        return node.tree.data[node.index * FIELDS + self.offset]


class Node:
    """A light view of one node of a ``SearchTree``; holds only the tree and an index."""

    __slots__ = ("tree", "index")

    value = _Field(VALUE)
    alpha_in = _Field(ALPHA_IN)
    beta_in = _Field(BETA_IN)
    alpha_out = _Field(ALPHA_OUT)
    beta_out = _Field(BETA_OUT)
    legal_count = _Field(LEGAL, "How many moves were legal here (0 for leaves).")
    subtree_size = _Field(SUBTREE, "Nodes the search visited in this subtree, this node included.")

    def __init__(self, tree: SearchTree, index: int):
        self.tree = tree
        self.index = index

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other.tree is self.tree and other.index == self.index

    def __hash__(self) -> int:
        return hash((id(self.tree), self.index))

    def __repr__(self) -> str:
        return f"<Node {self.index} move={self.move} {self.side_name} value={self.value}>"

    def _get(self, offset: int) -> int:
        return self.tree.data[self.index * FIELDS + offset]

    @property
    def parent(self) -> Node | None:
        parent = self._get(PARENT)
        return None if parent < 0 else Node(self.tree, parent)

    @property
    def move(self) -> int | None:
        """The move that led here from the parent (None at the root)."""
        move = self._get(MOVE)
        return None if move < 0 else move

    @property
    def ply(self) -> int:
        """Distance from the root (the root is 0)."""
        return self._get(INFO) & 0xFF

    @property
    def is_max(self) -> bool:
        """Tell whether MAX is to move here (a maximizing node)."""
        return bool(self._get(INFO) & _IS_MAX)

    @property
    def side_name(self) -> str:
        return "MAX" if self.is_max else "MIN"

    @property
    def to_move(self) -> int:
        return MAX if self.is_max else MIN

    @property
    def table_hit(self) -> TableHit | None:
        """The stored entry that answered this node, or None (searched, or a plain leaf)."""
        hits = self.tree.table_hits
        return hits.get(self.index) if hits else None

    @property
    def bound(self) -> BoundKind:
        """Whether ``value`` is exact or only a bound (see ``BoundKind``)."""
        hit = self.table_hit
        if hit is not None:
            return hit.bound
        return BoundKind.of(self.value, self.alpha_in, self.beta_in, pruning=self.tree.pruning, exact_leaf=self.is_leaf)

    @property
    def value_text(self) -> str:
        """The value with its bound mark (``>=20``): what the overlay and the CLI print."""
        return fmt_bounded(self.value, self.bound)

    @property
    def leaf_reason(self) -> LeafReason:
        return LeafReason((self._get(INFO) >> _REASON_SHIFT) & 0x7)

    @property
    def is_leaf(self) -> bool:
        return self.leaf_reason is not LeafReason.NONE

    @property
    def stored_subtree_size(self) -> int:
        return self._get(END) - self.index

    @property
    def unstored(self) -> int:
        """Nodes of this subtree that were counted but not stored (past the budget)."""
        return self.subtree_size - self.stored_subtree_size

    def children(self) -> list[Node]:
        """The children that were searched, in the order they were searched."""
        return [Node(self.tree, child) for child in self.tree.child_indices(self.index)]

    @property
    def searched_count(self) -> int:
        return len(self.children())

    @property
    def pruned_count(self) -> int:
        """Legal moves never searched because of a cutoff (0 if children were unstored)."""
        if self.is_leaf or self.unstored:
            return 0
        return self.legal_count - self.searched_count

    def path(self) -> list[int]:
        """The moves from the root to this node."""
        moves = []
        node: Node | None = self
        while node is not None and node.move is not None:
            moves.append(node.move)
            node = node.parent
        return moves[::-1]

    def board(self) -> Board:
        """Return a ``game.board.Board`` of the position at this node."""
        board = Board(self.tree.rules, self.tree.grid, self.tree.to_move)
        for move in self.path():
            board.push(move)
        return board

    def pruned_moves(self) -> list[int]:
        """The legal moves that the cutoff here left unsearched."""
        if not self.pruned_count:
            return []
        searched = {child.move for child in self.children()}
        return [m for m in self.board().legal_moves() if m not in searched]

    def best_child(self) -> Node | None:
        """The first searched child whose value equals this node's value."""
        for child in self.children():
            if child.value == self.value:
                return child
        return None

    def cutoff_reason(self) -> str | None:
        """Explain the cutoff at this node, or None if it searched every child."""
        pruned = self.pruned_count
        if not pruned:
            return None
        if self.is_max:
            said = ngettext(
                "value {value} >= beta {bound}: {pruned} move not searched",
                "value {value} >= beta {bound}: {pruned} moves not searched",
                pruned,
            )
            bound = self.beta_out
        else:
            said = ngettext(
                "value {value} <= alpha {bound}: {pruned} move not searched",
                "value {value} <= alpha {bound}: {pruned} moves not searched",
                pruned,
            )
            bound = self.alpha_out
        return said.format(value=fmt_tree_value(self.value), bound=fmt_tree_value(bound), pruned=pruned)


def nodes_text(count: int) -> str:
    """ "1 node", "2 nodes", "1,000 nodes"."""
    return ngettext("{count:,} node", "{count:,} nodes", count).format(count=count)


def minimal_tree(depth: int, branching: int = 7) -> tuple[int, int]:
    """Knuth-Moore minimal alpha-beta tree: (nodes below the root, leaves).

    With perfect move order alpha-beta visits b^ceil(k/2) + b^floor(k/2) - 1 nodes at
    ply k; no search with pruning can do better on a uniform tree.
    """
    per_ply = [branching ** ((k + 1) // 2) + branching ** (k // 2) - 1 for k in range(1, depth + 1)]
    return (sum(per_ply), per_ply[-1]) if per_ply else (0, 0)


def format_tree(tree: SearchTree, max_depth: int | None = None) -> str:
    """Draw the tree as indented text: move, MAX/MIN, value, window, leaf reason, cutoffs.

    A value only known as a bound after a cutoff is written ``value>=20`` / ``value<=30``.
    """
    rules = tree.rules
    lines = []
    stack = [(tree.root, 0)]
    while stack:
        node, level = stack.pop()
        move = "root" if node.move is None else format_move(node.move, rules)
        bound = node.bound
        relation = "=" if bound is BoundKind.EXACT else bound.sign
        text = f"{'  ' * level}{move} {node.side_name} value{relation}{fmt_tree_value(node.value)}"
        if tree.pruning:  # plain minimax carries no window worth showing
            text += f" [a={fmt_tree_value(node.alpha_in)}, b={fmt_tree_value(node.beta_in)}]"
        if node.is_leaf:
            text += f" leaf:{node.leaf_reason.name.lower()}"
        hit = node.table_hit
        if hit is not None:  # which stored entry answered it: the node that stored it, its depth, its bound
            text += f" (entry of node {hit.entry}, depth {hit.depth}, {hit.bound.value}"
            text += ", table cutoff)" if hit.is_cutoff else ")"
        if node.pruned_count:
            pruned = " ".join(format_move(m, rules) for m in node.pruned_moves())
            text += f" cutoff: {node.cutoff_reason()} (pruned {pruned})"
        if node.unstored:
            text += f" (+{nodes_text(node.unstored)} counted, not stored)"
        lines.append(text)
        if max_depth is None or level < max_depth:
            stack.extend((child, level + 1) for child in reversed(node.children()))
        elif not node.is_leaf and node.children():
            lines.append(f"{'  ' * (level + 1)}... {nodes_text(node.subtree_size - 1)} below")
    return "\n".join(lines)
