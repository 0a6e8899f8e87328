"""The textbook's alpha-beta (``ai.textbook.maximize`` / ``minimize``) on a tree you build.

A learner's tree is not a Connect Four position: its leaves carry the values the learner
typed or drew, and its moves are the children in the order the learner set.  The two
textbook functions only look at four things of the position they search (its moves so
far, its legal moves, push and pop) and ask ``Textbook.terminal_value`` for a leaf's
value; ``TreePosition`` answers those for a built tree, so the very code the course
teaches judges the learner's predictions, cut for cut, with no second alpha-beta.

A tree is nested tuples: a leaf is an ``int`` (its value for MAX), an inner node a tuple
of its children, in the order they are searched.  A node is named by its path, the child
indices from the root (``()`` is the root).  MAX moves at the root.  No pygame here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, cast

from ai.textbook import Textbook, maximize
from ai.tree import LeafReason, TreeRecorder
from ai.values import INF
from game.board import Board

GameTree: TypeAlias = int | tuple["GameTree", ...]
"""A leaf's value (for MAX), or an inner node's children in the order they are searched."""
Path = tuple[int, ...]
"""A node: the child indices from the root."""


def subtree(tree: GameTree, path: Path) -> GameTree:
    """The node at ``path``."""
    for index in path:
        assert isinstance(tree, tuple)
        tree = tree[index]
    return tree


def minimax_value(tree: GameTree, max_to_move: bool = True) -> int:
    """The plain minimax value of ``tree`` (every leaf looked at)."""
    if isinstance(tree, int):
        return tree
    values = [minimax_value(child, not max_to_move) for child in tree]
    return max(values) if max_to_move else min(values)


class TreePosition:
    """The part of ``game.Board`` the textbook's functions use, for a built tree: the moves
    so far (child indices), the legal moves (the node's children, in order), push and pop.
    Every node pushed is remembered (``entered``)."""

    def __init__(self, tree: GameTree):
        self.tree = tree
        self.moves: list[int] = []
        self.entered: list[Path] = [()]

    def node(self) -> GameTree:
        return subtree(self.tree, tuple(self.moves))

    def legal_moves(self) -> list[int]:
        node = self.node()
        return [] if isinstance(node, int) else list(range(len(node)))

    def push(self, move: int) -> None:
        self.moves.append(move)
        self.entered.append(tuple(self.moves))

    def pop(self) -> None:
        self.moves.pop()


@dataclass
class TreeTextbook(Textbook):
    """``Textbook`` on a ``TreePosition``: a leaf's value is the one the learner gave it."""

    def __post_init__(self) -> None:
        self.root_plies = 0  # no heuristic, no geometry: the tree's leaves have their values

    @property
    def position(self) -> TreePosition:
        return cast(TreePosition, self.board)

    def terminal_value(self, depth: int) -> int | None:
        node = self.position.node()
        return node if isinstance(node, int) else None

    def leaf_reason(self) -> LeafReason:
        return LeafReason.DEPTH  # a leaf of a built tree: its value is given


class WindowRecorder:
    """What ``ai.textbook.recorded`` tells a recorder, kept per node: the window (alpha,
    beta) each node was searched with and the value it returned (the part of
    ``ai.tree.TreeRecorder``'s interface the textbook calls)."""

    def __init__(self) -> None:
        self.paths: list[Path] = []
        self.windows: dict[Path, tuple[int, int]] = {}
        self.values: dict[Path, int] = {}

    def open(self, parent: int, move: int, ply: int, is_max: bool, alpha: int, beta: int, nodes: int) -> int:
        path = (*self.paths[parent], move) if parent >= 0 else ()
        self.paths.append(path)
        self.windows[path] = (alpha, beta)
        return len(self.paths) - 1

    def close(self, index: int, value: int, alpha: int, beta: int, reason: int, legal: int, nodes: int) -> None:
        self.values[self.paths[index]] = value


@dataclass(frozen=True)
class AlphaBetaRun:
    """What the textbook's search did on a built tree: the root's value, the nodes it
    entered in order, the branches it cut (the children of entered nodes it never
    entered: the top of each pruned subtree), and each entered node's window (alpha, beta
    on entry) and value."""

    value: int
    entered: tuple[Path, ...]
    cut: frozenset[Path]
    cutoffs: int  # nodes whose loop stopped at alpha >= beta
    leaves: int  # leaves the search looked at
    windows: dict[Path, tuple[int, int]]
    values: dict[Path, int]


def alpha_beta(tree: GameTree, *, pruning: bool = True) -> AlphaBetaRun:
    """Run ``ai.textbook``'s ``maximize`` on ``tree`` (MAX at the root), children in their
    order, and say what it entered and cut.

    Raises:
        ValueError: the root is a leaf (there is nothing to search).
    """
    if isinstance(tree, int):
        raise ValueError("a game tree needs at least one move at the root")
    position = TreePosition(tree)
    recorder = WindowRecorder()
    # The textbook functions only push, pop and list moves on the board they are given,
    # and tell the recorder each node's window and value.
    s = TreeTextbook(cast(Board, position), pruning, cast(TreeRecorder, recorder))
    value = maximize(s, tree_height(tree), -INF, INF)
    entered = tuple(position.entered)
    seen = set(entered)
    cut = set()
    for path in entered:
        node = subtree(tree, path)
        if isinstance(node, tuple):
            cut |= {(*path, index) for index in range(len(node)) if (*path, index) not in seen}
    return AlphaBetaRun(value, entered, frozenset(cut), s.cutoffs, s.leaves, recorder.windows, recorder.values)


def tree_height(tree: GameTree) -> int:
    """Plies from the root to the deepest leaf."""
    return 0 if isinstance(tree, int) else 1 + max(tree_height(child) for child in tree)
