"""Minimax with alpha-beta pruning as the lecture writes it (AIMA's max_value / min_value).

Hold this file next to the lecture notes: ``maximize`` and ``minimize`` are the two
mutually recursive functions of the textbook, over ``game.Board`` (push a move, look,
pop it again), with pruning as a flag.  It is slow and meant to be read; ``ai.search``
computes the same values thousands of times faster (bitboards, move ordering, a cache),
and the tests hold the two equal: the same value always, and the same tree node for node
when the order cannot matter (pruning off, moves left to right).

Values are from MAX's side (``ai.values``): a win ``p`` plies below the root is worth
``WIN - p``, a loss ``p - WIN``; a position at the depth limit gets the heuristic of
``ai.heuristic``; a full board gets its final score (0 for a classic draw).

``@recorded`` only watches the two functions from outside (it counts, and with
``record_tree=True`` stores each node in the same ``ai.tree.TreeRecorder`` as the fast
search); what the functions compute is all in their own twelve lines.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from ai.bitboard import geometry
from ai.heuristic import make_evaluator, make_final_value
from ai.search_types import SearchStats
from ai.tree import DEFAULT_BUDGET, LeafReason, SearchTree, TreeRecorder
from ai.values import INF, WIN
from game.board import Board
from game.rules import MAX, Mode


@dataclass
class Textbook:
    """What ``maximize`` and ``minimize`` share: the board, the pruning flag, counters."""

    board: Board
    pruning: bool
    recorder: TreeRecorder | None = None
    nodes: int = 0  # positions below the root that were visited (pushed)
    leaves: int = 0
    cutoffs: int = 0
    root_values: dict[int, int] = field(default_factory=dict)  # root move -> value returned
    _open: list[int] = field(default_factory=list)  # recorded indices of the nodes being searched
    _children: list[int] = field(default_factory=list)  # children pushed so far, per open node

    def __post_init__(self) -> None:
        self.root_plies = len(self.board.moves)
        geo = self.geo = geometry(self.board.rules)
        self.heuristic, self.final_score = make_evaluator(geo), make_final_value(geo)

    def terminal_value(self, depth: int) -> int | None:
        """The value of a finished game or of the depth limit; None to search on."""
        board = self.board
        outcome = board.outcome()
        if outcome is not None:
            if board.rules.mode is Mode.FULL_BOARD or outcome.winner is None:
                return self.final_score(*self.geo.from_grid(board.grid))
            return (WIN - (len(board.moves) - self.root_plies)) * outcome.winner
        if depth == 0:
            return self.heuristic(*self.geo.from_grid(board.grid))
        return None

    def push(self, move: int) -> None:
        """Play ``move``: the search goes one node deeper."""
        self.board.push(move)
        self.nodes += 1
        if self._children:
            self._children[-1] += 1

    def pop(self) -> None:
        self.board.pop()

    def leaf_reason(self) -> LeafReason:
        """Why the position on the board, valued without children, is a leaf."""
        outcome = self.board.outcome()
        if outcome is None:
            return LeafReason.DEPTH
        if outcome.winner is not None and self.board.rules.mode is Mode.CLASSIC:
            return LeafReason.WIN
        return LeafReason.FULL


Search = Callable[[Textbook, int, int, int], int]


def recorded(search: Search) -> Search:
    """Watch ``maximize`` / ``minimize`` from outside: count leaves and cutoffs, and with
    a recorder store each node as the fast search does (entered with its window, closed
    with its value), so the two trees can be compared node for node."""
    is_max = search.__name__ == "maximize"

    @functools.wraps(search)
    def watched(s: Textbook, depth: int, alpha: int, beta: int) -> int:
        board, recorder = s.board, s.recorder
        ply = len(board.moves) - s.root_plies
        index = -1
        if recorder is not None and (not s._open or s._open[-1] >= 0):  # no parent stored: none below
            parent = s._open[-1] if s._open else -1
            move = board.moves[-1] if ply else -1
            index = recorder.open(parent, move, ply, is_max, alpha, beta, s.nodes - 1)
        s._open.append(index)
        s._children.append(0)
        value = search(s, depth, alpha, beta)
        s._open.pop()
        searched = s._children.pop()
        if not searched:
            s.leaves += 1
        elif s.pruning and (value >= beta if is_max else value <= alpha):
            s.cutoffs += 1  # the loop stopped at ``alpha >= beta``
        if index >= 0 and recorder is not None:
            alpha_out, beta_out = (max(alpha, value), beta) if is_max else (alpha, min(beta, value))
            if not searched:
                alpha_out, beta_out = alpha, beta
            reason = s.leaf_reason() if not searched else LeafReason.NONE
            legal = len(board.legal_moves()) if searched else 0
            recorder.close(index, value, alpha_out, beta_out, reason, legal, s.nodes)
        if ply == 1:
            s.root_values[board.moves[-1]] = value
        return value

    return watched


# -- the textbook: hold these two beside the lecture -------------------------------------
@recorded
def maximize(s: Textbook, depth: int, alpha: int, beta: int) -> int:
    """MAX to move: the greatest value among the children (alpha < beta on entry)."""
    value = s.terminal_value(depth)
    if value is not None:
        return value  # a leaf: the game is over or the depth limit is reached
    value = -INF
    for move in s.board.legal_moves():
        s.push(move)
        value = max(value, minimize(s, depth - 1, alpha, beta))
        s.pop()
        alpha = max(alpha, value)
        if s.pruning and alpha >= beta:
            break  # MIN has a better choice higher up: the other moves cannot matter
    return value


@recorded
def minimize(s: Textbook, depth: int, alpha: int, beta: int) -> int:
    """MIN to move: the least value among the children (alpha < beta on entry)."""
    value = s.terminal_value(depth)
    if value is not None:
        return value  # a leaf: the game is over or the depth limit is reached
    value = INF
    for move in s.board.legal_moves():
        s.push(move)
        value = min(value, maximize(s, depth - 1, alpha, beta))
        s.pop()
        beta = min(beta, value)
        if s.pruning and alpha >= beta:
            break  # MAX has a better choice higher up: the other moves cannot matter
    return value


# -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TextbookResult:
    """The textbook's answer: the move, its value, what it cost and (if asked) its tree."""

    move: int | None
    value: int
    stats: SearchStats
    tree: SearchTree | None = field(default=None, repr=False, compare=False)

    @property
    def nodes(self) -> int:
        """Positions below the root that were visited (pushed)."""
        return self.stats.nodes


def textbook_search(
    board: Board, depth: int, *, pruning: bool = True, record_tree: bool = False, tree_budget: int = DEFAULT_BUDGET
) -> TextbookResult:
    """Choose the move of the side to move by minimax to ``depth`` plies.

    Args:
        board: the position; it is copied, never changed.
        depth: plies to look ahead (>= 1).
        pruning: alpha-beta cutoffs on (same value, fewer positions) or off.
        record_tree: keep every node in ``result.tree`` (the ``ai.tree`` format of the
            fast search); past ``tree_budget`` nodes they are only counted.

    Returns:
        The best move (the first of equals, in ``board.legal_moves()`` order), its value,
        the search's stats and, if asked, its tree.
    """
    if depth < 1:
        raise ValueError("depth must be at least 1")
    started = time.perf_counter()
    root = board.copy()
    s = Textbook(root, pruning, TreeRecorder(tree_budget) if record_tree else None)
    if root.is_game_over():
        value = s.terminal_value(0) or 0
        return TextbookResult(None, value, SearchStats(depth, 0, 0, 0, time.perf_counter() - started, 0))
    value = (maximize if root.to_move == MAX else minimize)(s, depth, -INF, INF)
    # The first root move that reached the value: every earlier one stayed below it.
    move = next(m for m, v in s.root_values.items() if v == value)
    stats = SearchStats(depth, s.nodes, s.leaves, s.cutoffs, time.perf_counter() - started, s.nodes)
    tree = None
    if s.recorder is not None:
        tree = SearchTree(s.recorder.data, board.rules, board.grid.copy(), board.to_move, depth, pruning)
    return TextbookResult(move, value, stats, tree)
