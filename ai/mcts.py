"""Monte Carlo tree search (UCT) beside minimax: random playouts instead of a heuristic.

Where minimax looks at every move to a fixed depth and judges the leaves with the
heuristic, MCTS grows a tree one node per playout and judges by playing random games to
the end.  Each playout has four steps (Kocsis and Szepesvari's UCT):

1. **selection**: from the root, while every move of a node has a child, go to the child
   with the highest UCB = mean + C * sqrt(ln(parent's visits) / child's visits);
2. **expansion**: add one untried move (chosen at random) as a new child;
3. **playout**: from that child, both sides play random legal moves to the end;
4. **back-up**: every node on the path counts one more visit and the result (1 a win,
   1/2 a draw, 0 a loss) from the side that made the move into it.

The move played is the root's most-visited child.  Everything random comes from one
``random.Random(seed)``: the same position, playouts and seed give the same tree and the
same move on every machine (a level is work, not time: ``Level.playouts``).

The tree is stored flat (one slot per node in arrays, children in expansion order) with
light ``MctsNode`` views, like ``ai.tree`` stores the minimax tree; every playout is kept
too (the node it reached, its random moves, its result) so the tree overlay can replay
the search playout by playout.  Invariants the tests hold: the root's visits equal the
playouts; a node's visits are the playouts that started from it (its expansion's, and
every one that selection ended on it when its game is over) plus its children's visits,
so its children together never have more visits than it has.  No pygame here.
"""

from __future__ import annotations

import math
import random
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from ai.bitboard import Geometry, geometry
from ai.heuristic import make_final_value
from ai.search import game_over_value
from ai.search_types import SearchCancelled
from game.notation import format_move
from game.rules import MAX, Mode, Rules

EXPLORATION = math.sqrt(2)
"""UCT's C: the textbook value for results between 0 and 1."""
MAX_PLAYOUTS = 1_000_000
"""The most playouts a search (and a level ``mcts:N``) may ask for."""
STOP_EVERY = 64
"""Playouts between two looks at ``should_stop`` and the clock."""

# A result is kept in half points from MAX's side: 2 MAX won, 1 a draw, 0 MIN won.
MAX_WON, DRAW, MIN_WON = 2, 1, 0
_GOING_ON = -1  # a node whose game is not over


class MctsError(ValueError):
    """A search that cannot be run: no playouts, or more than ``MAX_PLAYOUTS``."""


@dataclass(frozen=True)
class Playout:
    """One playout, as the replay shows it: the path selection took (node ids from the
    root), the node expanded (None where selection ended on a finished game), the random
    moves played from there, and the result in half points from MAX's side."""

    number: int  # 0-based
    path: tuple[int, ...]
    expanded: int | None
    moves: tuple[int, ...]
    result: int  # MAX_WON, DRAW or MIN_WON


class MctsTree:
    """The tree one MCTS grew: node 0 is the root; a node's children are in the order
    they were expanded.  Nodes are only added, never removed, so an id stays valid."""

    def __init__(self, rules: Rules, grid: np.ndarray, to_move: int, *, seed: int, exploration: float):
        self.rules = rules
        self.grid = np.array(grid, dtype=np.int8)
        self.to_move = to_move
        self.seed = seed
        self.exploration = exploration
        self._parent = array("i")
        self._move = array("i")
        self._visits = array("i")
        self._score = array("i")  # half points won by the side that moved into the node
        self._over = array("b")  # the result of a finished game at the node, else _GOING_ON
        self._ply = array("h")  # moves from the root
        self._children: list[list[int]] = []
        self._playout_node = array("i")  # the node each playout started from
        self._playout_expanded = array("b")  # 1 where that node was expanded by the playout
        self._playout_result = array("b")
        self._playout_moves = array("h")
        self._playout_starts = array("i", [0])

    # -- building (the search only) ------------------------------------------------
    def _add(self, parent: int, move: int, over: int) -> int:
        index = len(self._move)
        self._parent.append(parent)
        self._move.append(move)
        self._visits.append(0)
        self._score.append(0)
        self._over.append(over)
        self._ply.append(self._ply[parent] + 1 if parent >= 0 else 0)
        self._children.append([])
        if parent >= 0:
            self._children[parent].append(index)
        return index

    def _record_playout(self, start: int, expanded: bool, moves: list[int], result: int) -> None:
        self._playout_node.append(start)
        self._playout_expanded.append(expanded)
        self._playout_result.append(result)
        self._playout_moves.extend(moves)
        self._playout_starts.append(len(self._playout_moves))

    # -- reading -------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._move)

    @property
    def playouts(self) -> int:
        """Playouts run (the root's visits)."""
        return len(self._playout_node)

    @property
    def root(self) -> MctsNode:
        return MctsNode(self, 0)

    def node(self, index: int) -> MctsNode:
        if not 0 <= index < len(self):
            raise IndexError(f"no node {index}: the tree has {len(self)}")
        return MctsNode(self, index)

    def iter_nodes(self) -> Iterator[MctsNode]:
        """Every node, in the order they were added (the root first)."""
        return (MctsNode(self, index) for index in range(len(self)))

    def best_line(self) -> list[MctsNode]:
        """The most-visited line from the root (the root not included): what MCTS expects."""
        line = []
        node = self.root.most_visited_child()
        while node is not None:
            line.append(node)
            node = node.most_visited_child()
        return line

    def playout(self, number: int) -> Playout:
        """Playout ``number`` (0-based) as the replay shows it."""
        if not 0 <= number < self.playouts:
            raise IndexError(f"no playout {number}: the search ran {self.playouts}")
        start = self._playout_node[number]
        path = [start]
        while self._parent[path[-1]] >= 0:
            path.append(self._parent[path[-1]])
        path.reverse()
        expanded = start if self._playout_expanded[number] else None
        moves = self._playout_moves[self._playout_starts[number] : self._playout_starts[number + 1]]
        return Playout(number, tuple(path), expanded, tuple(moves), self._playout_result[number])


@dataclass(frozen=True)
class MctsNode:
    """A light view of one node of an ``MctsTree``."""

    tree: MctsTree = field(repr=False)
    index: int

    @property
    def parent(self) -> MctsNode | None:
        parent = self.tree._parent[self.index]
        return None if parent < 0 else MctsNode(self.tree, parent)

    @property
    def move(self) -> int | None:
        """The 0-based move that led here (None at the root)."""
        return None if self.index == 0 else self.tree._move[self.index]

    @property
    def visits(self) -> int:
        return self.tree._visits[self.index]

    @property
    def ply(self) -> int:
        """Moves from the root."""
        return self.tree._ply[self.index]

    @property
    def to_move(self) -> int:
        """The side to move here: MAX (1) or MIN (-1)."""
        return self.tree.to_move if self.ply % 2 == 0 else -self.tree.to_move

    @property
    def is_max(self) -> bool:
        return self.to_move == MAX

    @property
    def side_name(self) -> str:
        return "MAX" if self.is_max else "MIN"

    @property
    def mover(self) -> int:
        """The side that made the move into this node (at the root: the side not to move)."""
        return -self.to_move

    @property
    def mean(self) -> float:
        """The mean result of the playouts through here, for the side that moved here:
        1 every playout won, 1/2 drawn or half won, 0 every one lost (0 when unvisited)."""
        visits = self.visits
        return self.tree._score[self.index] / (2 * visits) if visits else 0.0

    @property
    def mean_for_max(self) -> float:
        """``mean`` from MAX's side."""
        return self.mean if self.mover == MAX else 1.0 - self.mean

    @property
    def ucb(self) -> float | None:
        """The UCB selection compared when it chose among its parent's children (None at
        the root and for an unvisited node)."""
        parent = self.parent
        if parent is None or not self.visits:
            return None
        return self.mean + self.tree.exploration * math.sqrt(math.log(parent.visits) / self.visits)

    @property
    def game_over(self) -> int | None:
        """The result (half points from MAX's side) where the game is over here, else None."""
        over = self.tree._over[self.index]
        return None if over == _GOING_ON else over

    def children(self) -> list[MctsNode]:
        return [MctsNode(self.tree, child) for child in self.tree._children[self.index]]

    @property
    def is_leaf(self) -> bool:
        return not self.tree._children[self.index]

    def most_visited_child(self) -> MctsNode | None:
        """The child with the most visits (ties: the better mean, then centre-most)."""
        children = self.children()
        if not children:
            return None
        centre = (self.tree.rules.cols - 1) / 2
        cols = self.tree.rules.cols

        def rank(child: MctsNode) -> tuple[int, float, float]:
            move = child.move or 0
            col = move if self.tree.rules.gravity else move % cols
            return child.visits, child.mean, -abs(col - centre)

        return max(children, key=rank)

    def path(self) -> list[int]:
        """The moves from the root to here."""
        moves: list[int] = []
        node: MctsNode | None = self
        while node is not None and node.move is not None:
            moves.append(node.move)
            node = node.parent
        return moves[::-1]

    def label(self) -> str:
        """The move as a person reads it ("root" at the root)."""
        return "root" if self.move is None else format_move(self.move, self.tree.rules)


@dataclass(frozen=True)
class MctsResult:
    """What one MCTS found: the move (the root's most-visited child), the playouts it ran
    (fewer than asked only where a clock stopped it: ``completed`` False), its tree."""

    move: int | None
    playouts: int
    asked: int
    seed: int
    seconds: float
    tree: MctsTree = field(repr=False, compare=False)

    @property
    def completed(self) -> bool:
        return self.playouts >= self.asked

    @property
    def root_children(self) -> list[MctsNode]:
        """The root's children, by move."""
        return sorted(self.tree.root.children(), key=lambda node: node.move or 0)

    @property
    def principal_variation(self) -> tuple[int, ...]:
        """The most-visited line: the moves MCTS expects."""
        return tuple(node.move or 0 for node in self.tree.best_line())

    @property
    def value(self) -> int:
        """The chosen move's mean as a value from MAX's side, -100 (MIN wins every playout)
        to +100 (MAX wins every one): MCTS has no heuristic value."""
        best = self.tree.root.most_visited_child()
        mean = best.mean_for_max if best is not None else 0.5
        return round(200 * mean) - 100

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0


def _result_of(geo: Geometry, first: int, second: int) -> int:
    """The result of a finished position (half points from MAX's side), else _GOING_ON:
    the search's ``game_over_value`` in the playouts' terms."""
    value = game_over_value(geo, first, second)
    if value is None:
        return _GOING_ON
    return MAX_WON if value > 0 else MIN_WON if value < 0 else DRAW


def mcts(
    grid: np.ndarray,
    rules: Rules,
    playouts: int,
    *,
    to_move: int,
    seed: int = 0,
    exploration: float = EXPLORATION,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> MctsResult:
    """Run ``playouts`` UCT playouts from the position and return the most-visited move.

    Args:
        grid, rules, to_move: the position (``to_move`` 1 for MAX, -1 for MIN).
        playouts: the work: 1..``MAX_PLAYOUTS`` playouts, one new node each.
        seed: seeds every random choice (the expansion order and the playouts).
        exploration: UCT's C.
        time_limit: seconds (an outside clock's safety cap, never a level's): the search
            stops after the playout in flight and answers with what it has.
        should_stop: polled every ``STOP_EVERY`` playouts; True cancels the search.

    Returns:
        An ``MctsResult`` (``move`` None where the game is already over).

    Raises:
        MctsError: ``playouts`` out of range.
        SearchCancelled: ``should_stop`` returned True.
    """
    if not 1 <= playouts <= MAX_PLAYOUTS:
        raise MctsError(f"MCTS needs 1 to {MAX_PLAYOUTS:,} playouts, not {playouts:,}")
    started = time.perf_counter()
    deadline = None if time_limit is None else started + time_limit
    grower = _Grower(MctsTree(rules, grid, to_move, seed=seed, exploration=exploration))
    done = 0
    if grower.tree._over[0] == _GOING_ON:
        while done < playouts:
            if done % STOP_EVERY == 0 and done:
                if should_stop is not None and should_stop():
                    raise SearchCancelled()
                if deadline is not None and time.perf_counter() >= deadline:
                    break
            grower.playout()
            done += 1
    chosen = grower.tree.root.most_visited_child()
    move = None if chosen is None else chosen.move
    return MctsResult(move, done, playouts, seed, time.perf_counter() - started, grower.tree)


class _Grower:
    """Grows an ``MctsTree`` one playout at a time: the four steps of UCT.

    A position is carried as two bitboards (``ai.bitboard``): MAX's discs and MIN's.
    """

    def __init__(self, tree: MctsTree):
        self.tree = tree
        self.geo = geo = geometry(tree.rules)
        self.final = make_final_value(geo)
        self.root = geo.from_grid(tree.grid)
        self.rng = random.Random(tree.seed)
        self.classic = tree.rules.mode is Mode.CLASSIC
        self.odd_mover_max = tree.to_move == MAX  # who moved into a node at an odd ply: the root's side
        over = _result_of(geo, *self.root)
        tree._add(-1, -1, over)
        self.untried: list[list[int]] = [self.open_moves(self.root[0] | self.root[1]) if over == _GOING_ON else []]

    def open_moves(self, mask: int) -> list[int]:
        return [move for move, add, keep in self.geo.move_steps if (mask + add) & keep]

    def playout(self) -> None:
        """One playout: selection, expansion, a random game, back-up."""
        node, own, other, side = self.select()
        result = self.tree._over[node]
        moves: list[int] = []
        expanded = result == _GOING_ON
        if expanded:
            node, own, other, side = self.expand(node, own, other, side)
            result = self.tree._over[node]
            if result == _GOING_ON:
                result = self.random_game(own, other, side, moves)
        self.back_up(node, result)
        self.tree._record_playout(node, expanded, moves, result)

    def select(self) -> tuple[int, int, int, int]:
        """1. Down the fully expanded nodes by UCB, to a node with an untried move or a
        finished game; return it and its position (MAX's discs, MIN's, the side to move)."""
        tree, steps, exploration = self.tree, self.geo.move_steps, self.tree.exploration
        visits, score, children, move_of = tree._visits, tree._score, tree._children, tree._move
        log, sqrt = math.log, math.sqrt
        node, side = 0, tree.to_move
        own, other = self.root
        while tree._over[node] == _GOING_ON and not self.untried[node]:
            log_n = log(visits[node])
            best, best_ucb = -1, -1.0
            for child in children[node]:  # Inv: a fully expanded node's children have visits >= 1
                n = visits[child]
                ucb = score[child] / (2 * n) + exploration * sqrt(log_n / n)
                if ucb > best_ucb:
                    best, best_ucb = child, ucb
            node = best
            _, add, keep = steps[move_of[node]]
            bit = ((own | other) + add) & keep
            if side == MAX:
                own |= bit
            else:
                other |= bit
            side = -side
        return node, own, other, side

    def expand(self, node: int, own: int, other: int, side: int) -> tuple[int, int, int, int]:
        """2. Add one untried move of ``node``, chosen at random, as a new child."""
        tried = self.untried[node]
        pick = self.rng.randrange(len(tried))
        tried[pick], tried[-1] = tried[-1], tried[pick]
        move = tried.pop()
        _, add, keep = self.geo.move_steps[move]
        bit = ((own | other) + add) & keep
        if side == MAX:
            own |= bit
        else:
            other |= bit
        over = _result_of(self.geo, own, other)
        child = self.tree._add(node, move, over)
        self.untried.append(self.open_moves(own | other) if over == _GOING_ON else [])
        return child, own, other, -side

    def random_game(self, own: int, other: int, side: int, moves: list[int]) -> int:
        """3. Random legal moves to the end (appended to ``moves``); return the result."""
        steps, line_starts, rng = self.geo.move_steps, self.geo.line_starts, self.rng
        classic, full = self.classic, self.geo.board_mask
        while True:  # Inv: the game is not over at the top of the loop
            mask = own | other
            legal = [m for m, add, keep in steps if (mask + add) & keep]
            move = legal[rng.randrange(len(legal))]
            moves.append(move)
            _, add, keep = steps[move]
            bit = (mask + add) & keep
            if side == MAX:
                own |= bit
                if classic and line_starts(own):
                    return MAX_WON
            else:
                other |= bit
                if classic and line_starts(other):
                    return MIN_WON
            side = -side
            if (own | other) == full:
                value = self.final(own, other)
                return MAX_WON if value > 0 else MIN_WON if value < 0 else DRAW

    def back_up(self, node: int, result: int) -> None:
        """4. A visit and the result on every node up to the root, from the side that moved into it."""
        tree = self.tree
        visits, score, ply_of, parent_of = tree._visits, tree._score, tree._ply, tree._parent
        odd_mover_max = self.odd_mover_max
        while node >= 0:
            visits[node] += 1
            score[node] += result if (ply_of[node] % 2 == 1) == odd_mover_max else 2 - result
            node = parent_of[node]


def format_mcts_tree(tree: MctsTree, *, max_depth: int = 2, min_visits: int = 1) -> str:
    """The tree as indented text, ``max_depth`` levels below the root, each node's children
    most visited first: move, visits, mean result (for the side that moved there), UCB."""
    lines: list[str] = []

    def walk(node: MctsNode, indent: int) -> None:
        ucb = node.ucb
        said = f"{'  ' * indent}{node.label()}  visits {node.visits:,}  mean {node.mean:.3f}"
        lines.append(said + ("" if ucb is None else f"  UCB {ucb:.3f}"))
        if indent >= max_depth:
            return
        for child in sorted(node.children(), key=lambda c: (-c.visits, c.index)):
            if child.visits >= min_visits:
                walk(child, indent + 1)

    walk(tree.root, 0)
    return "\n".join(lines)
