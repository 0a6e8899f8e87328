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

The move played is the root's most-visited child.  Two switches change the textbook's
search, each off by default:

- ``solver=True`` is MCTS-Solver (Winands, Bjornsson and Saito 2008): a node whose game
  is over is *proven*; a node whose side to move has a proven winning child is proven
  won, and one whose moves all have proven children takes the best of their results.
  Proofs propagate up the tree, selection passes over moves proven lost, and a proven
  root ends the search early with its exact result (``MctsResult.proved``).
- ``policy=PlayoutPolicy.TACTICAL`` makes the playouts less random: a side that can win at
  once does, else it blocks the opponent's win at once, else it plays at random.

Everything random comes from one seeded generator (``ai.compiled.mcts_kernel.rng_next``,
written once for both sides), and UCB's logarithm uses basic arithmetic only: the same
position, playouts, seed and switches grow the same tree on every machine.  The playouts
run in the compiled kernel (``ai.compiled.mcts_kernel``) where it loads, else in the Python
grower below (``_Grower``), the reference, step for step the same search: the steps above,
exactly as the kernel's docstring spells them out.

The tree is stored flat (one slot per node in numpy columns; a node's children are the
nodes whose parent it is, in the order they were expanded) with light ``MctsNode`` views,
like ``ai.tree`` stores the minimax tree; every playout is kept too (the node it reached,
its result and, up to ``KEEP_MOVES_UP_TO`` playouts, its random moves) so the tree overlay
can replay the search playout by playout.  Invariants the tests hold: the root's visits
equal the playouts; a node's visits are the playouts that started from it (its
expansion's, and every one that selection ended on it when its game is over or it is
proven) plus its children's visits, so its children together never have more visits than
it has.  No pygame here.
"""

from __future__ import annotations

import enum
import math
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ai.bitboard import Geometry, geometry
from ai.compiled import mcts_kernel
from ai.compiled.mcts_kernel import DRAW, GOING_ON, MAX_WON, MIN_WON, GrowthOptions, rng_below, seed_words, uct_log
from ai.search import game_over_value
from ai.search_types import SearchCancelled
from game.notation import format_move
from game.rules import MAX, Mode, Rules

__all__ = [
    "DRAW",
    "EXPLORATION",
    "KEEP_MOVES_UP_TO",
    "MAX_PLAYOUTS",
    "MAX_WON",
    "MIN_WON",
    "MctsError",
    "MctsNode",
    "MctsResult",
    "MctsTree",
    "Playout",
    "PlayoutPolicy",
    "Proved",
    "STOP_EVERY",
    "format_mcts_tree",
    "mcts",
]

EXPLORATION = math.sqrt(2)
"""UCT's C: the textbook value for results between 0 and 1."""
MAX_PLAYOUTS = 1_000_000
"""The most playouts a search (and a level ``mcts:N``) may ask for."""
STOP_EVERY = 64
"""Playouts between two looks at ``should_stop`` and the clock."""
KEEP_MOVES_UP_TO = 100_000
"""A search of at most this many playouts keeps every playout's random moves for the
replay (a byte a move); a bigger one keeps its playouts' paths and results only."""


class MctsError(ValueError):
    """A search that cannot be run: no playouts, or more than ``MAX_PLAYOUTS``."""


class PlayoutPolicy(enum.Enum):
    """How a playout picks its moves."""

    RANDOM = "random"  # uniformly random legal moves: the textbook's
    TACTICAL = "tactical"  # a win at once if there is one, else a block of one, else random

    @classmethod
    def of(cls, tactics: bool) -> PlayoutPolicy:
        """TACTICAL where ``tactics`` (a level's or a command's switch), else RANDOM."""
        return cls.TACTICAL if tactics else cls.RANDOM

    @property
    def code(self) -> int:
        """The kernel's number for the policy."""
        return mcts_kernel.POLICY_TACTICAL if self is PlayoutPolicy.TACTICAL else mcts_kernel.POLICY_RANDOM


class Proved(enum.Enum):
    """A result MCTS-Solver proved, for the side to move at the root."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


@dataclass(frozen=True)
class Playout:
    """One playout, as the replay shows it: the path selection took (node ids from the
    root), the node expanded (None where selection ended on a finished game or a proven
    node), the random moves played from there (empty where they were not kept), and the
    result in half points from MAX's side."""

    number: int  # 0-based
    path: tuple[int, ...]
    expanded: int | None
    moves: tuple[int, ...]
    result: int  # MAX_WON, DRAW or MIN_WON


@dataclass(frozen=True)
class NodeColumns:
    """One row a node (node 0 the root), in the order the nodes were added."""

    parent: np.ndarray  # -1 at the root
    move: np.ndarray  # -1 at the root
    visits: np.ndarray
    score: np.ndarray  # half points won by the side that moved into the node
    over: np.ndarray  # the result of a finished game at the node, else GOING_ON
    ply: np.ndarray  # moves from the root
    proof: np.ndarray  # the proven result (MCTS-Solver; a finished game's too), else GOING_ON


@dataclass(frozen=True)
class PlayoutColumns:
    """One row a playout: the node it started from, whether it expanded that node, its
    result, where its moves end in ``moves`` (all empty where ``moves_kept`` is False)."""

    node: np.ndarray
    expanded: np.ndarray
    result: np.ndarray
    moves_end: np.ndarray
    moves: np.ndarray
    moves_kept: bool


def _columns(rows: dict[str, Any], kinds: dict[str, str]) -> dict[str, np.ndarray]:
    """Compact numpy columns (``kinds``: each column's dtype) from sequences."""
    return {name: np.asarray(rows[name], dtype=kinds[name]) for name in kinds}


_NODE_KINDS = {
    "parent": "int32",
    "move": "int16",
    "visits": "int32",
    "score": "int64",
    "over": "int8",
    "ply": "int16",
    "proof": "int8",
}
_PLAYOUT_KINDS = {"node": "int32", "expanded": "int8", "result": "int8", "moves_end": "int64", "moves": "int8"}


class MctsTree:
    """The tree one MCTS grew: node 0 is the root; a node's children are in the order
    they were expanded (ascending ids)."""

    def __init__(
        self,
        rules: Rules,
        grid: np.ndarray,
        to_move: int,
        *,
        seed: int,
        exploration: float,
        nodes: NodeColumns,
        playouts: PlayoutColumns,
        solver: bool = False,
        policy: PlayoutPolicy = PlayoutPolicy.RANDOM,
    ):
        self.rules = rules
        self.grid = np.array(grid, dtype=np.int8)
        self.to_move = to_move
        self.seed = seed
        self.exploration = exploration
        self.solver = solver
        self.policy = policy
        self._parent, self._move, self._visits = nodes.parent, nodes.move, nodes.visits
        self._score, self._over, self._ply, self._proof = nodes.score, nodes.over, nodes.ply, nodes.proof
        self._runs = playouts
        self._child_index: tuple[np.ndarray, np.ndarray] | None = None

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_child_index"] = None  # rebuilt where it is read
        return state

    def _children_of(self, index: int) -> np.ndarray:
        """The ids of ``index``'s children, in the order they were expanded."""
        if self._child_index is None:
            parents = self._parent[1:].astype(np.int64)
            order = np.argsort(parents, kind="stable") + 1
            starts = np.concatenate(([0], np.cumsum(np.bincount(parents, minlength=len(self)))))
            self._child_index = (order, starts)
        order, starts = self._child_index
        return order[starts[index] : starts[index + 1]]

    # -- reading -------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._move)

    @property
    def playouts(self) -> int:
        """Playouts run (the root's visits)."""
        return len(self._runs.node)

    @property
    def moves_kept(self) -> bool:
        """Whether every playout's random moves were kept (``KEEP_MOVES_UP_TO``)."""
        return self._runs.moves_kept

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
        """The line MCTS expects from the root (the root not included): the most-visited
        child, then its most-visited child, ... (with the solver: ``chosen_child``)."""
        line = []
        node = self.root.chosen_child()
        while node is not None:
            line.append(node)
            node = node.chosen_child()
        return line

    def playout(self, number: int) -> Playout:
        """Playout ``number`` (0-based) as the replay shows it."""
        if not 0 <= number < self.playouts:
            raise IndexError(f"no playout {number}: the search ran {self.playouts}")
        runs = self._runs
        start = int(runs.node[number])
        path = [start]
        while self._parent[path[-1]] >= 0:
            path.append(int(self._parent[path[-1]]))
        path.reverse()
        expanded = start if runs.expanded[number] else None
        begin = int(runs.moves_end[number - 1]) if number else 0
        moves = tuple(int(move) for move in runs.moves[begin : int(runs.moves_end[number])])
        return Playout(number, tuple(path), expanded, moves, int(runs.result[number]))

    def same_as(self, other: MctsTree) -> bool:
        """Whether ``other`` holds the same nodes and playouts (the compiled and the Python grower's)."""
        mine = (self._parent, self._move, self._visits, self._score, self._over, self._ply, self._proof)
        theirs = (other._parent, other._move, other._visits, other._score, other._over, other._ply, other._proof)
        runs, other_runs = self._runs, other._runs
        return (
            all(np.array_equal(a, b) for a, b in zip(mine, theirs))
            and all(
                np.array_equal(getattr(runs, name), getattr(other_runs, name))
                for name in ("node", "expanded", "result", "moves_end", "moves")
            )
            and runs.moves_kept == other_runs.moves_kept
        )


@dataclass(frozen=True)
class MctsNode:
    """A light view of one node of an ``MctsTree``."""

    tree: MctsTree = field(repr=False)
    index: int

    @property
    def parent(self) -> MctsNode | None:
        parent = int(self.tree._parent[self.index])
        return None if parent < 0 else MctsNode(self.tree, parent)

    @property
    def move(self) -> int | None:
        """The 0-based move that led here (None at the root)."""
        return None if self.index == 0 else int(self.tree._move[self.index])

    @property
    def visits(self) -> int:
        return int(self.tree._visits[self.index])

    @property
    def ply(self) -> int:
        """Moves from the root."""
        return int(self.tree._ply[self.index])

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
        return int(self.tree._score[self.index]) / (2 * visits) if visits else 0.0

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
        return self.mean + self.tree.exploration * math.sqrt(uct_log(parent.visits) / self.visits)

    @property
    def game_over(self) -> int | None:
        """The result (half points from MAX's side) where the game is over here, else None."""
        over = int(self.tree._over[self.index])
        return None if over == GOING_ON else over

    @property
    def proof(self) -> int | None:
        """The result MCTS-Solver proved here (half points from MAX's side), else None;
        only a solver's search proves more than finished games."""
        proof = int(self.tree._proof[self.index])
        return None if proof == GOING_ON else proof

    def proved_for(self, side: int) -> Proved | None:
        """The proven result here for ``side`` (MAX or MIN), else None."""
        proof = self.proof
        if proof is None:
            return None
        if proof == DRAW:
            return Proved.DRAW
        return Proved.WIN if (proof == MAX_WON) == (side == MAX) else Proved.LOSS

    def children(self) -> list[MctsNode]:
        return [MctsNode(self.tree, int(child)) for child in self.tree._children_of(self.index)]

    @property
    def is_leaf(self) -> bool:
        return len(self.tree._children_of(self.index)) == 0

    def most_visited_child(self) -> MctsNode | None:
        """The child with the most visits (ties: the better mean, then centre-most)."""
        return self._ranked(self.children())

    def chosen_child(self) -> MctsNode | None:
        """The child MCTS plays from here: the most-visited one; with the solver, among
        the children that keep this node's proven result where it is proven, else among
        those not proven lost for the side to move."""
        children = self.children()
        if self.tree.solver and children:
            mine = self.proved_for(self.to_move)
            if mine is not None:
                keeping = [child for child in children if child.proved_for(self.to_move) is mine]
            else:
                keeping = [child for child in children if child.proved_for(self.to_move) is not Proved.LOSS]
            children = keeping or children
        return self._ranked(children)

    def _ranked(self, children: list[MctsNode]) -> MctsNode | None:
        if not children:
            return None
        rules = self.tree.rules
        centre = (rules.cols - 1) / 2

        def rank(child: MctsNode) -> tuple[int, float, float]:
            move = child.move or 0
            col = move if rules.gravity else move % rules.cols
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
    """What one MCTS found: the move (``MctsNode.chosen_child`` of the root), the playouts
    it ran (fewer than asked where a clock stopped it, ``completed`` False, or where the
    solver proved the root), its tree, and (solver) the root's proven result."""

    move: int | None
    playouts: int
    asked: int
    seed: int
    seconds: float
    tree: MctsTree = field(repr=False, compare=False)
    compiled: bool = False  # the playouts ran in the compiled kernel

    @property
    def proved(self) -> Proved | None:
        """The exact result MCTS-Solver proved for the side to move, else None."""
        return self.tree.root.proved_for(self.tree.to_move)

    @property
    def completed(self) -> bool:
        """Whether the search did its work: every playout asked, or a proof first."""
        return self.playouts >= self.asked or self.proved is not None

    @property
    def root_children(self) -> list[MctsNode]:
        """The root's children, by move."""
        return sorted(self.tree.root.children(), key=lambda node: node.move or 0)

    @property
    def principal_variation(self) -> tuple[int, ...]:
        """The line MCTS expects: the moves it would choose, from the root down."""
        return tuple(node.move or 0 for node in self.tree.best_line())

    @property
    def value(self) -> int:
        """The chosen move's mean as a value from MAX's side, -100 (MIN wins every playout)
        to +100 (MAX wins every one): MCTS has no heuristic value."""
        best = self.tree.root.chosen_child()
        mean = best.mean_for_max if best is not None else 0.5
        return round(200 * mean) - 100

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds > 0 else 0.0


def _result_of(geo: Geometry, first: int, second: int) -> int:
    """The result of a finished position (half points from MAX's side), else GOING_ON:
    the search's ``game_over_value`` in the playouts' terms."""
    value = game_over_value(geo, first, second)
    if value is None:
        return GOING_ON
    return MAX_WON if value > 0 else MIN_WON if value < 0 else DRAW


def mcts(
    grid: np.ndarray,
    rules: Rules,
    playouts: int,
    *,
    to_move: int,
    seed: int = 0,
    exploration: float = EXPLORATION,
    solver: bool = False,
    policy: PlayoutPolicy = PlayoutPolicy.RANDOM,
    keep_moves: bool | None = None,
    compiled: bool = True,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> MctsResult:
    """Run ``playouts`` UCT playouts from the position and return the move to play.

    Args:
        grid, rules, to_move: the position (``to_move`` 1 for MAX, -1 for MIN).
        playouts: the work: 1..``MAX_PLAYOUTS`` playouts, one new node each at most.
        seed: seeds every random choice (the expansion order and the playouts).
        exploration: UCT's C.
        solver: MCTS-Solver: proven results propagate, a proven root ends the search.
        policy: the playouts' moves: random (the textbook) or tactical.
        keep_moves: keep every playout's random moves for the replay (default: up to
            ``KEEP_MOVES_UP_TO`` playouts).
        compiled: grow the tree in the compiled kernel where it loads (the same tree as
            the Python grower's, faster); False runs the Python grower, the reference.
        time_limit: seconds (an outside clock's safety cap, never a level's): the search
            stops after the playouts in flight and answers with what it has.
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
    keep = playouts <= KEEP_MOVES_UP_TO if keep_moves is None else keep_moves
    geo = geometry(rules)
    first, second = geo.from_grid(np.asarray(grid))
    over = _result_of(geo, first, second)
    untried = _legal(geo, first | second) if over == GOING_ON else []
    options = GrowthOptions((first, second, to_move), playouts, seed, exploration, solver, policy.code, keep)
    # Under a clock a kernel still to be compiled (the first start) is not waited for.
    fast = mcts_kernel.compiled_growth(rules, options, wait=time_limit is None) if compiled else None
    grower: _Grower | _Compiled = _Grower(geo, options) if fast is None else _Compiled(fast)
    grower.add_root(over, untried)
    done = 0
    if over == GOING_ON:
        while done < playouts:
            if done % STOP_EVERY == 0 and done:
                if should_stop is not None and should_stop():
                    raise SearchCancelled()
                if deadline is not None and time.perf_counter() >= deadline:
                    break
            ran = grower.grow_some(min(STOP_EVERY, playouts - done))
            done += ran
            if ran < STOP_EVERY and done < playouts:  # the solver proved the root
                break
    tree = MctsTree(
        rules, grid, to_move, seed=seed, exploration=exploration, solver=solver, policy=policy, **grower.columns()
    )
    chosen = tree.root.chosen_child()
    move = None if chosen is None else chosen.move
    return MctsResult(move, done, playouts, seed, time.perf_counter() - started, tree, compiled=fast is not None)


def _legal(geo: Geometry, mask: int) -> list[int]:
    """The legal moves of a position, in move order."""
    return [move for move, add, keep in geo.move_steps if (mask + add) & keep]


class _Compiled:
    """The compiled kernel's growth, as ``mcts`` drives a grower."""

    def __init__(self, growth: mcts_kernel.CompiledGrowth):
        self.growth = growth

    def add_root(self, over: int, untried: list[int]) -> None:
        self.growth.add_root(over, sum(1 << move for move in untried))

    def grow_some(self, count: int) -> int:
        return self.growth.grow_some(count)

    def columns(self) -> dict[str, Any]:
        """The tree's columns, compact."""
        growth, k = self.growth, mcts_kernel
        count, done = int(growth.state[k.S_NODES]), int(growth.state[k.S_PLAYOUTS])
        nodes = growth.nodes[:, :count]
        rows = {
            "parent": nodes[k.N_PARENT], "move": nodes[k.N_MOVE], "visits": nodes[k.N_VISITS],
            "score": nodes[k.N_SCORE], "over": nodes[k.N_OVER], "ply": nodes[k.N_PLY], "proof": nodes[k.N_PROOF],
        }  # fmt: skip
        runs = growth.playouts[:, :done]
        kept = bool(growth.params[k.P_KEEP_MOVES])
        plays = {
            "node": runs[k.L_NODE], "expanded": runs[k.L_EXPANDED], "result": runs[k.L_RESULT],
            "moves_end": runs[k.L_MOVES_END], "moves": growth.unpacked_moves() if kept else [],
        }  # fmt: skip
        return {
            "nodes": NodeColumns(**_columns(rows, _NODE_KINDS)),
            "playouts": PlayoutColumns(**_columns(plays, _PLAYOUT_KINDS), moves_kept=kept),
        }


class _Grower:
    """Grows a tree one playout at a time, in Python: the reference for the compiled kernel.

    A position is carried as two bitboards (``ai.bitboard``): MAX's discs and MIN's.  The
    steps are the module docstring's, in the order ``ai.compiled.mcts_kernel`` spells them
    out; the kernel keeps a node's children newest first, this grower in expansion order.
    """

    def __init__(self, geo: Geometry, options: GrowthOptions):
        self.geo = geo
        self.first, self.second, to_move = options.root
        self.root_max = to_move == MAX
        self.exploration = options.exploration
        self.solver = options.solver
        self.tactical = options.policy == mcts_kernel.POLICY_TACTICAL and geo.rules.mode is Mode.CLASSIC
        self.keep_moves = options.keep_moves
        self.rng = seed_words(options.seed)
        self.parent, self.move, self.visits, self.score = array("i"), array("i"), array("i"), array("q")
        self.over, self.ply, self.proof = array("b"), array("h"), array("b")
        self.children: list[list[int]] = []
        self.untried: list[list[int]] = []
        self.run_node, self.run_expanded, self.run_result = array("i"), array("b"), array("b")
        self.run_moves_end, self.run_moves = array("q"), array("b")

    def add_root(self, over: int, untried: list[int]) -> None:
        self._add(-1, -1, over, untried)

    def _add(self, parent: int, move: int, over: int, untried: list[int]) -> int:
        index = len(self.move)
        self.parent.append(parent)
        self.move.append(move)
        self.visits.append(0)
        self.score.append(0)
        self.over.append(over)
        self.ply.append(self.ply[parent] + 1 if parent >= 0 else 0)
        self.proof.append(over)
        self.children.append([])
        self.untried.append(untried)
        if parent >= 0:
            self.children[parent].append(index)
        return index

    def grow_some(self, count: int) -> int:
        ran = 0
        while ran < count and not (self.solver and self.proof[0] != GOING_ON):
            self.playout()
            ran += 1
        return ran

    def side_max(self, node: int) -> bool:
        """Whether MAX is to move at ``node``."""
        return self.root_max == (self.ply[node] % 2 == 0)

    def playout(self) -> None:
        """One playout: selection, expansion, a random game, back-up (and the solver's proofs)."""
        node, own, other, max_to_move = self.select()
        result = self.over[node]
        if self.solver and result == GOING_ON:
            result = self.proof[node]  # a proven node ends selection like a finished game
        moves: list[int] = []
        expanded = result == GOING_ON
        if expanded:
            node, own, other, max_to_move = self.expand(node, own, other, max_to_move)
            result = self.over[node]
            if result == GOING_ON:
                result = self.random_game(own, other, max_to_move, moves)
            elif self.solver:
                self.prove_up(node)
        self.back_up(node, result)
        self.run_node.append(node)
        self.run_expanded.append(expanded)
        self.run_result.append(result)
        if self.keep_moves:
            self.run_moves.extend(moves)
        self.run_moves_end.append(len(self.run_moves))

    def select(self) -> tuple[int, int, int, bool]:
        """1. Down the fully expanded nodes by UCB, to a node with an untried move, a
        finished game or (solver) a proof; return it and its position (MAX's discs,
        MIN's, whether MAX is to move)."""
        steps, exploration, solver = self.geo.move_steps, self.exploration, self.solver
        visits, score, children, proof = self.visits, self.score, self.children, self.proof
        node, own, other, max_to_move = 0, self.first, self.second, self.root_max
        while self.over[node] == GOING_ON and not self.untried[node]:
            if solver and proof[node] != GOING_ON:
                break
            log_n = uct_log(visits[node])
            lost = MIN_WON if max_to_move else MAX_WON  # a child proven lost for the side to move
            best, best_ucb = -1, -1.0
            for child in children[node]:  # Inv: a fully expanded node's children have visits >= 1
                if solver and proof[child] == lost:
                    continue
                n = visits[child]
                ucb = float(score[child]) / float(2 * n) + exploration * math.sqrt(log_n / float(n))
                if ucb > best_ucb:
                    best, best_ucb = child, ucb
            node = best
            _, add, keep = steps[self.move[node]]
            bit = ((own | other) + add) & keep
            if max_to_move:
                own |= bit
            else:
                other |= bit
            max_to_move = not max_to_move
        return node, own, other, max_to_move

    def expand(self, node: int, own: int, other: int, max_to_move: bool) -> tuple[int, int, int, bool]:
        """2. Add one untried move of ``node``, chosen at random, as a new child."""
        tried = self.untried[node]
        move = tried.pop(rng_below(self.rng, 0, len(tried)))
        _, add, keep = self.geo.move_steps[move]
        bit = ((own | other) + add) & keep
        if max_to_move:
            own |= bit
        else:
            other |= bit
        over = _result_of(self.geo, own, other)
        child = self._add(node, move, over, _legal(self.geo, own | other) if over == GOING_ON else [])
        return child, own, other, not max_to_move

    def random_game(self, own: int, other: int, max_to_move: bool, moves: list[int]) -> int:
        """3. Moves by the playout policy to the end (appended to ``moves``); return the result."""
        geo, rng, tactical = self.geo, self.rng, self.tactical
        steps, threats, board = geo.move_steps, geo.threats, geo.board_mask
        while True:  # Inv: the game goes on at the top of the loop
            mask = own | other
            legal = _legal(geo, mask)
            pool = legal
            if tactical:  # a win at once, else a block of the opponent's, else any move
                empty = board ^ mask
                mine, theirs = (own, other) if max_to_move else (other, own)
                for side in (mine, theirs):
                    cells = threats(side, empty)
                    hits = [move for move in legal if (mask + steps[move][1]) & steps[move][2] & cells]
                    if hits:
                        pool = hits
                        break
            move = pool[rng_below(rng, 0, len(pool))]
            moves.append(move)
            _, add, keep = steps[move]
            bit = (mask + add) & keep
            if max_to_move:
                own |= bit
            else:
                other |= bit
            result = _result_of(geo, own, other)
            if result != GOING_ON:
                return result
            max_to_move = not max_to_move

    def back_up(self, node: int, result: int) -> None:
        """4. A visit and the result on every node up to the root, from the side that moved into it."""
        visits, score, parent_of = self.visits, self.score, self.parent
        while node >= 0:
            visits[node] += 1
            score[node] += 2 - result if self.side_max(node) else result  # the mover is the other side
            node = parent_of[node]

    def prove_up(self, node: int) -> None:
        """5. ``node`` was just proven: prove the ancestors that this decides."""
        proof = self.proof
        parent = self.parent[node]
        while parent >= 0:
            side_max = self.side_max(parent)
            best_for_side = MAX_WON if side_max else MIN_WON
            if proof[node] == best_for_side:
                proof[parent] = best_for_side  # a winning move: the side to move wins here
            elif self.untried[parent]:
                return  # a move not yet tried might still do better
            else:
                results = [proof[child] for child in self.children[parent]]
                if GOING_ON in results:
                    return
                proof[parent] = max(results) if side_max else min(results)
            node, parent = parent, self.parent[parent]

    def columns(self) -> dict[str, Any]:
        """The tree's columns, compact."""
        rows = {
            "parent": self.parent, "move": self.move, "visits": self.visits, "score": self.score,
            "over": self.over, "ply": self.ply, "proof": self.proof,
        }  # fmt: skip
        plays = {
            "node": self.run_node, "expanded": self.run_expanded, "result": self.run_result,
            "moves_end": self.run_moves_end, "moves": self.run_moves,
        }  # fmt: skip
        return {
            "nodes": NodeColumns(**_columns(rows, _NODE_KINDS)),
            "playouts": PlayoutColumns(**_columns(plays, _PLAYOUT_KINDS), moves_kept=self.keep_moves),
        }


def format_mcts_tree(tree: MctsTree, *, max_depth: int = 2, min_visits: int = 1) -> str:
    """The tree as indented text, ``max_depth`` levels below the root, each node's children
    most visited first: move, visits, mean result (for the side that moved there), UCB,
    and what the solver proved there (for the side that moved there)."""
    lines: list[str] = []

    def walk(node: MctsNode, indent: int) -> None:
        ucb = node.ucb
        said = f"{'  ' * indent}{node.label()}  visits {node.visits:,}  mean {node.mean:.3f}"
        said += "" if ucb is None else f"  UCB {ucb:.3f}"
        proved = node.proved_for(node.mover) if tree.solver else None
        lines.append(said + ("" if proved is None else f"  proven {proved.value}"))
        if indent >= max_depth:
            return
        for child in sorted(node.children(), key=lambda c: (-c.visits, c.index)):
            if child.visits >= min_visits:
                walk(child, indent + 1)

    walk(tree.root, 0)
    return "\n".join(lines)
