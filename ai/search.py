"""Minimax with optional alpha-beta pruning, made fast.

``ai.textbook`` is the reference to read first: AIMA's max_value / min_value written
over ``game.Board`` exactly as the lecture shows them.  This module is the same pair of
mutually recursive functions, ``maximize`` and ``minimize``, with the speed-ups below;
they return the same values (tests/test_search.py checks it against a plain minimax).
Pruning is a flag of the same code: with it off the loops never break, and the search
visits the whole tree to the depth limit.

Move order (``MoveOrder``): left to right, centre first, or best first (the default:
the best move of the previous iterative-deepening pass, then the killer move, then the
rest by their static value), so a learner can see how much the order alone prunes.

Speed (see ``python -m lab.bench``) comes from bitboards in Python ints, generated line
arithmetic, a cache of leaf evaluations, moves tried centre-first with the best move of
the previous iterative-deepening pass first, and children that end the game valued in
the parent without a call.  Values are for MAX: a win ``p`` plies from the root is
``WIN - p`` (so the quickest win and the slowest loss are preferred); below that, the
heuristic of ``ai.heuristic``.

The transposition table (``table=True``, a learner's switch; off for every preset):
different move orders reach the same position (4-3 then 3-4), and a search without a
table searches it again each time.  With the table, every inner node's result is stored
under its position: the depth it was searched to, its value and whether that value is
exact or only a bound (``BoundKind``, by the window it was searched with).  Before a
child is searched its entry is looked up (a probe); the entry answers the child (a hit)
when it was searched to the same depth and it settles the child in the window it would
be searched with: an exact value always, a lower bound ``>= beta`` or an upper bound
``<= alpha`` (a table cutoff).  In Connect Four a position always lies at the same ply
(it has the same discs), so within a pass it is always asked to the same depth and an
entry holds the same depth-limited minimax value the search would find: the root's value
and move are the same as without the table, from fewer nodes.  Entries of earlier passes
(a smaller depth) never answer; they are overwritten.  The line may stop at a hit.

Compiled passes: a search that records no tree, on a board of up to 64 bits a position
(``ai.bitboard.fits_compiled``), runs its passes in ``ai.compiled.search_kernel`` (numba), which
visits the same nodes in the same order: the same move, value, line and counts, 10-30
times sooner.  The Python passes here are the reference, the fallback (no numba,
``CONNECT4_PURE_PYTHON=1``) and the ones that record trees, so a tree shown is the tree
of the search that played (``ai.player.search_tree``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ai.bitboard import Geometry, geometry
from ai.compiled import search_kernel
from ai.cost import full_tree_positions, pruned_tree_positions
from ai.heuristic import TACTICAL, make_evaluator, make_final_value
from ai.search_types import (
    CHECK_EVERY,
    ColumnValue,
    MoveOrder,
    OutOfTime,
    PassSettings,
    ProgressCallback,
    SearchCancelled,
    SearchProgress,
    SearchResult,
    SearchStats,
    TableStats,
)
from ai.tree import DEFAULT_BUDGET, BoundKind, LeafReason, SearchTree, TableHit, TreeRecorder
from ai.values import INF, WIN, is_win_value, plies_to_end
from game.rules import MAX, MIN, Mode, Rules

__all__ = [
    # The search's types (their home: ``ai.search_types``), re-exported for its callers.
    "CHECK_EVERY",
    "ColumnValue",
    "MoveOrder",
    "PassSettings",
    "ProgressCallback",
    "SearchCancelled",
    "SearchProgress",
    "SearchResult",
    "SearchStats",
    "TableStats",
    # The search's own face.
    "EXACT",
    "LOWER",
    "NO_MOVE",
    "SMALL_SEARCH",
    "TABLE_LIMIT",
    "UPPER",
    "game_over_value",
    "order_key",
    "order_key_moves",
    "search",
]

EXACT, LOWER, UPPER = BoundKind.EXACT, BoundKind.LOWER, BoundKind.UPPER
"""Kinds of a root child's value: exact, or only a bound because of a cutoff."""

NO_MOVE = -1
"""A move id for "none" (no best move stored, no killer yet)."""
ORDER_SHIFT = 8
"""An order key packs two move ids in one int: ``best << ORDER_SHIFT | (killer + 1)``.
Move ids are < 255 (at most 120 cells), so the killer fits in the low 8 bits."""
Order = tuple[tuple[int, int, int], ...]
"""Moves in the order a node tries them, as ``Geometry.move_steps`` has them: (move, add, keep)."""


def order_key(best: int, killer: int) -> int:
    """The key of the move order "``best`` first, then ``killer``, then the rest".

    The hot loops inline this same expression (a call would cost more than the work).
    """
    return best << ORDER_SHIFT | (killer + 1)


def order_key_moves(key: int) -> tuple[int, int]:
    """(best, killer) of an order key; ``NO_MOVE`` where none."""
    return key >> ORDER_SHIFT, (key & ((1 << ORDER_SHIFT) - 1)) - 1


Entry = tuple[int, int, BoundKind, int]
"""A transposition-table entry: the depth searched, the value, its bound, the tree node that stored it."""


def _never(*args: object) -> Any:
    raise AssertionError("the tree recorder was called without a recorder")


class _Pass:
    """One depth-limited pass: the maximize/minimize pair and its counters.

    Everything the hot loop needs is bound to locals of the closures built in
    ``__init__``; attribute look-ups there would cost more than the bit arithmetic.
    """

    # Contract of ``maximize`` / ``minimize`` (fail-soft alpha-beta).  On entry
    # alpha < beta; with m the node's depth-limited minimax value, the returned v is
    #   v <= alpha (fail-low):  m <= v (an upper bound: no child reached alpha);
    #   v >= beta  (fail-high): m >= v (a lower bound: a cutoff, the rest unsearched);
    #   alpha < v < beta:       m == v.
    # Without pruning nothing is cut and v == m always.  Inv (with pruning, per node):
    # alpha_in <= alpha < beta <= beta_in while children are searched; MAX only raises
    # alpha, MIN only lowers beta; a move is remembered as the node's best only where v is
    # exact or a bound on the mover's side (above alpha for MAX, below beta for MIN).

    def __init__(self, ctx: _Context, depth_limit: int, recorder: TreeRecorder | None):
        geo = ctx.geo
        board_mask = geo.board_mask
        threats = geo.threats
        classic = geo.rules.mode is Mode.CLASSIC
        evaluate = ctx.evaluate
        final_value = ctx.final_value
        cache = ctx.eval_cache
        best_moves = ctx.best_moves
        pruning = ctx.pruning
        check = ctx.check
        orders, ordered = ctx.orders, ctx.ordered
        key_shift = ctx.key_shift
        shift = ORDER_SHIFT
        remember = ctx.order is MoveOrder.BEST_FIRST  # keep best and killer moves for ordering
        playable = ctx.playable
        pv: list[tuple[int, ...]] = [()] * (depth_limit + 2)
        killers = ctx.killers
        root_values: dict[int, ColumnValue] = {}
        # Without a recorder these are never called (every call is behind ``node >= 0``).
        rec_open: Callable[..., int] = recorder.open if recorder else _never
        rec_close: Callable[..., None] = recorder.close if recorder else _never
        rec_leaf: Callable[..., None] = recorder.leaf if recorder else _never
        rec_hit: Callable[..., None] = recorder.table_hit if recorder else _never
        table = ctx.table  # the transposition table, None when it is off
        WIN_LEAF, FULL_LEAF, DEPTH_LEAF = int(LeafReason.WIN), int(LeafReason.FULL), int(LeafReason.DEPTH)
        nodes = leaves = cutoffs = 0
        probes = hits = stores = table_cutoffs = 0

        def by_static_value(order: Order, first: int, second: int, mask: int, max_to_move: bool) -> Order:
            """Sort playable moves best-first by the heuristic value of the child position.

            Used where no earlier pass left a best move and the subtree is deep enough
            (>= 3 plies) for the better order to repay the evaluations.
            """
            scored = []
            for rank, step in enumerate(order):
                bit = (mask + step[1]) & step[2]
                if not bit:
                    continue
                child_first, child_second = (first | bit, second) if max_to_move else (first, second | bit)
                child_key = child_first << key_shift | child_second
                cached = cache.get(child_key)
                value = cached if cached is not None else evaluate(child_first, child_second)
                if cached is None:
                    cache[child_key] = value
                scored.append((-value if max_to_move else value, rank, step))
            scored.sort()
            return tuple(step for _, _, step in scored)

        def column_value(value: int, alpha: int, beta: int, reason: int, hit: Entry | None) -> ColumnValue:
            """A root child's value and its kind, by the window it was searched with."""
            exact = bool(reason) or (hit is not None and hit[2] is EXACT)  # a leaf, or an exact entry
            return ColumnValue(value, BoundKind.of(value, alpha, beta, pruning=pruning, exact_leaf=exact))

        # The transposition table's three steps (no-ops when it is off): look a child up,
        # take the entry that answers it, store a node's result.  An entry answers a child
        # searched to its depth if it is exact or a bound outside the child's window.
        def probe(key: int, depth: int, alpha: int, beta: int) -> Entry | None:
            nonlocal probes
            if table is None:
                return None
            probes += 1
            entry = table.get(key)
            if entry is None or entry[0] != depth:
                return None
            kind = entry[2]
            return entry if kind is EXACT or (entry[1] >= beta if kind is LOWER else entry[1] <= alpha) else None

        def answered(hit: Entry, node: int, move: int, ply: int, is_max: bool, alpha: int, beta: int) -> int:
            nonlocal hits, table_cutoffs
            hits += 1
            if hit[2] is not EXACT:
                table_cutoffs += 1  # a table cutoff: the stored bound alone settles the child
            if node >= 0:
                rec_hit(node, move, ply, is_max, alpha, beta, hit[1], TableHit(hit[3], hit[0], hit[2]))
            return hit[1]

        def store(key: int, depth: int, best: int, alpha_in: int, beta_in: int, node: int) -> None:
            nonlocal stores
            if table is None:
                return
            stores += 1
            kind = EXACT if not pruning or alpha_in < best < beta_in else UPPER if best <= alpha_in else LOWER
            table[key] = (depth, best, kind, node)

        def maximize(first: int, second: int, depth: int, ply: int, alpha: int, beta: int, node: int) -> int:
            """MAX to move: return the greatest value of a child (alpha < beta on entry).

            ``depth`` >= 1.  Children that end the game or sit at the depth limit are valued here,
            without a call: they are most of the tree.  ``node`` is this node's index in the
            recorded tree, or -1 when nothing is recorded.
            """
            nonlocal nodes, leaves, cutoffs
            mask = first | second
            key = first << key_shift | second
            wins = threats(first, board_mask ^ mask) if classic else 0
            # order_key(best, killer), inlined: -1 (NO_MOVE) where none is known.
            ok = best_moves.get(key, -1) << shift | (killers[ply] + 1)
            order = orders.get(ok)
            if order is None:
                order = ordered(ok)
            if depth >= 3 and ok < 0 and remember:  # no best move stored: sort by static value
                order = by_static_value(order, first, second, mask, True)
            best = -INF
            best_move = -1
            alpha_in = alpha
            line: tuple[int, ...] = ()
            for move, add, keep in order:
                bit = (mask + add) & keep
                if not bit:
                    continue
                nodes += 1
                if not nodes % CHECK_EVERY:
                    check(nodes)
                alpha_before, hit = alpha, None
                tail: tuple[int, ...] = ()
                if bit & wins:
                    leaves += 1
                    value = WIN - ply - 1
                    reason = WIN_LEAF
                elif mask | bit == board_mask:
                    leaves += 1
                    value = final_value(first | bit, second)
                    reason = FULL_LEAF
                elif depth == 1:
                    leaves += 1
                    child_key = (first | bit) << key_shift | second
                    cached = cache.get(child_key)
                    value = cached if cached is not None else evaluate(first | bit, second)
                    if cached is None:
                        cache[child_key] = value
                    reason = DEPTH_LEAF
                else:
                    hit = probe((first | bit) << key_shift | second, depth - 1, alpha, beta)
                    if hit is None:
                        child = rec_open(node, move, ply + 1, False, alpha, beta, nodes - 1) if node >= 0 else -1
                        value = minimize(first | bit, second, depth - 1, ply + 1, alpha, beta, child)
                        tail = pv[ply + 1]
                    else:
                        value = answered(hit, node, move, ply + 1, False, alpha, beta)
                    reason = 0
                if reason and node >= 0:
                    rec_leaf(node, move, ply + 1, False, alpha, beta, value, reason)
                if not ply:
                    root_values[move] = column_value(value, alpha_before, beta, reason, hit)
                if value > best:
                    best = value
                    best_move = move
                    line = (move,) + tail
                    if value > alpha:
                        alpha = value
                        if pruning and alpha >= beta:
                            cutoffs += 1
                            if remember:
                                killers[ply] = move
                            break  # beta cutoff: MIN above never lets play reach here
            # best <= alpha_in: every child was only an upper bound, none is a real best.
            if best > alpha_in and remember:
                best_moves[key] = best_move
            store(key, depth, best, alpha_in, beta, node)  # beta is this node's beta_in: MAX never lowers it
            pv[ply] = line
            if node >= 0:
                rec_close(node, best, alpha, beta, LeafReason.NONE, playable(mask), nodes)
            return best

        def minimize(first: int, second: int, depth: int, ply: int, alpha: int, beta: int, node: int) -> int:
            """MIN to move: return the least value of a child (mirror of ``maximize``)."""
            nonlocal nodes, leaves, cutoffs
            mask = first | second
            key = first << key_shift | second
            wins = threats(second, board_mask ^ mask) if classic else 0
            ok = best_moves.get(key, -1) << shift | (killers[ply] + 1)
            order = orders.get(ok)
            if order is None:
                order = ordered(ok)
            if depth >= 3 and ok < 0 and remember:
                order = by_static_value(order, first, second, mask, False)
            best = INF
            best_move = -1
            beta_in = beta
            line: tuple[int, ...] = ()
            for move, add, keep in order:
                bit = (mask + add) & keep
                if not bit:
                    continue
                nodes += 1
                if not nodes % CHECK_EVERY:
                    check(nodes)
                beta_before, hit = beta, None
                tail: tuple[int, ...] = ()
                if bit & wins:
                    leaves += 1
                    value = ply + 1 - WIN
                    reason = WIN_LEAF
                elif mask | bit == board_mask:
                    leaves += 1
                    value = final_value(first, second | bit)
                    reason = FULL_LEAF
                elif depth == 1:
                    leaves += 1
                    child_key = first << key_shift | second | bit
                    cached = cache.get(child_key)
                    value = cached if cached is not None else evaluate(first, second | bit)
                    if cached is None:
                        cache[child_key] = value
                    reason = DEPTH_LEAF
                else:
                    hit = probe(first << key_shift | second | bit, depth - 1, alpha, beta)
                    if hit is None:
                        child = rec_open(node, move, ply + 1, True, alpha, beta, nodes - 1) if node >= 0 else -1
                        value = maximize(first, second | bit, depth - 1, ply + 1, alpha, beta, child)
                        tail = pv[ply + 1]
                    else:
                        value = answered(hit, node, move, ply + 1, True, alpha, beta)
                    reason = 0
                if reason and node >= 0:
                    rec_leaf(node, move, ply + 1, True, alpha, beta, value, reason)
                if not ply:
                    root_values[move] = column_value(value, alpha, beta_before, reason, hit)
                if value < best:
                    best = value
                    best_move = move
                    line = (move,) + tail
                    if value < beta:
                        beta = value
                        if pruning and alpha >= beta:
                            cutoffs += 1
                            if remember:
                                killers[ply] = move
                            break  # alpha cutoff: MAX above never lets play reach here
            if best < beta_in and remember:
                best_moves[key] = best_move
            store(key, depth, best, alpha, beta_in, node)  # alpha is this node's alpha_in: MIN never raises it
            pv[ply] = line
            if node >= 0:
                rec_close(node, best, alpha, beta, LeafReason.NONE, playable(mask), nodes)
            return best

        def counts() -> tuple[int, int, int]:
            return nodes, leaves, cutoffs

        def table_counts() -> TableStats | None:
            return None if table is None else TableStats(probes, hits, stores, table_cutoffs)

        self.maximize = maximize
        self.minimize = minimize
        self.counts = counts
        self.table_counts = table_counts
        self.pv = pv
        self.root_values = root_values


TABLE_LIMIT = 1 << 19
"""Positions kept in each of the evaluation cache and the best-move table (~50 MB each)."""
VALUE_TABLE_LIMIT = 1 << 16
"""Positions kept in the transposition table before it starts again (it only saves work):
enough for a depth-9 search's inner positions, and small (the compiled table's 131,072
slots take 5 MB; 1,048,576 slots, a fresh 40 MB to touch, cost a depth-9 search 0.1 s)."""


def value_table_limit() -> int:
    """The transposition table's limit (never above ``TABLE_LIMIT``, which tests lower)."""
    return min(TABLE_LIMIT, VALUE_TABLE_LIMIT)


class _Context:
    """What stays the same across the passes of one search."""

    def __init__(self, rules: Rules, settings: PassSettings, check: Callable[[int], None]):
        geo = geometry(rules)
        self.geo = geo
        self.pruning = settings.pruning
        self.check = check
        self.order = order = settings.order
        self.evaluate = make_evaluator(geo)
        if settings.noise:
            self.evaluate = _noisy(self.evaluate, settings.noise, settings.context_seed)
        self.final_value = make_final_value(geo)
        self.eval_cache: dict[int, int] = {}
        self.best_moves: dict[int, int] = {}
        # The transposition table: position -> (depth, value, bound, tree node that stored it).
        self.table: dict[int, Entry] | None = {} if settings.table else None
        self.killers = [-1] * (rules.cells + 2)  # per ply: the last move that caused a cutoff
        self.key_shift = geo.height * rules.cols
        self.orders, self.ordered = _move_order_maker(geo, order)
        self.playable: Callable[[int], int]  # the moves open in a position (its mask)
        if rules.gravity:
            bottom, board = geo.bottom_mask, geo.board_mask
            self.playable = lambda mask: ((mask + bottom) & board).bit_count()
        else:
            board = geo.board_mask
            self.playable = lambda mask: (board ^ mask).bit_count()


def _noisy(evaluate: Callable[[int, int], int], noise: int, seed: int) -> Callable[[int, int], int]:
    """``evaluate`` plus seeded noise in [-noise, noise]: a player who judges roughly.

    Forced leaves (``TACTICAL``) and wins stay exact, so a noisy level still takes an
    immediate win and blocks an immediate loss; only its positional judgement blurs.
    The blur is a function of the position (and the seed), not of the order leaves are
    met in, so alpha-beta and plain minimax still agree on the value, as they must.
    """
    spread = 2 * noise + 1

    def noisy(first: int, second: int) -> int:
        value = evaluate(first, second)
        if abs(value) >= TACTICAL:
            return value
        # Ints and tuples of ints hash the same in every run (PYTHONHASHSEED touches str only).
        return value + hash((seed, first, second)) % spread - noise

    return noisy


def _move_order_maker(geo: Geometry, move_order: MoveOrder) -> tuple[dict[int, Order], Callable[[int], Order]]:
    """Move orders by (best move of the previous pass, killer move) and their maker.

    An order key (``order_key``) names the best move and the killer, ``NO_MOVE`` for
    none; its order tries the best move, then the killer, then the rest in the static
    order (centre first, or left to right for ``MoveOrder.LEFT_TO_RIGHT``).  Orders are
    built on first use and kept, so the search only pays a dict look-up.
    """
    steps = {move: (move, add, keep) for move, add, keep in geo.move_steps}
    if move_order is MoveOrder.LEFT_TO_RIGHT:
        static = tuple(geo.move_steps)
    else:
        static = tuple(steps[m] for m in geo.centre_order)
    orders: dict[int, Order] = {}

    def ordered(key: int) -> Order:
        best, killer = order_key_moves(key)
        front = [m for m in (best, killer) if m >= 0]
        if len(front) == 2 and front[0] == front[1]:
            front.pop()
        order = tuple(steps[m] for m in front) + tuple(s for s in static if s[0] not in front)
        orders[key] = order
        return order

    return orders, ordered


def search(
    grid: np.ndarray,
    rules: Rules,
    depth: int,
    *,
    pruning: bool = True,
    record_tree: bool = False,
    time_limit: float | None = None,
    node_limit: int | None = None,
    to_move: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
    tree_budget: int = DEFAULT_BUDGET,
    iterative: bool | None = None,
    order: MoveOrder = MoveOrder.BEST_FIRST,
    noise: int = 0,
    seed: int = 0,
    table: bool = False,
) -> SearchResult:
    """Choose a move for the side to move by depth-limited minimax (``table``: see above).

    Args:
        grid: the position (``int8``, row 0 at the top, 1 = MAX, -1 = MIN, 0 = empty).
        rules: the variant being played.
        depth: plies to look ahead (>= 1).
        pruning: alpha-beta cutoffs on (same value, fewer nodes) or off (full minimax).
        record_tree: keep the explored tree of the last completed pass in ``result.tree``.
        time_limit: seconds; iterative deepening then returns the deepest finished pass
            (depth 1 always finishes).
        node_limit: nodes (all passes); iterative deepening then returns the deepest
            pass finished within them: the same answer on every machine (a level's
            budget is work, never wall time).
        to_move: 1 (MAX) or -1 (MIN); by default the side with fewer discs, MAX on ties.
        should_stop: polled every few thousand nodes; True cancels the search.
        on_progress: called after each finished pass and every few thousand nodes.
        tree_budget: nodes stored at most when recording; past it they are only counted.
        iterative: search depth 1, 2, ... up to ``depth`` (default: with pruning or a
            time limit, where the previous pass orders the moves of the next).
        order: how each node orders its moves (``MoveOrder``); the value is the same,
            only the work differs.
        noise: leaf values get seeded noise in [-noise, noise] (a beginner's rough
            judgement); wins, losses and forced leaves stay exact.
        seed: seeds the noise (the same seed and position give the same move).
        table: the transposition table (the same value and move, fewer nodes; ``stats.table``).

    Returns:
        A ``SearchResult``; ``move`` is None when the game is already over.

    Raises:
        SearchCancelled: ``should_stop`` returned True.
    """
    if depth < 1:
        raise ValueError("depth must be at least 1")
    grid = np.asarray(grid, dtype=np.int8)
    if to_move is None:
        to_move = MAX if (grid == MAX).sum() <= (grid == MIN).sum() else MIN
    geo = geometry(rules)
    first, second = geo.from_grid(grid)
    if iterative is None:
        iterative = pruning or time_limit is not None or node_limit is not None
    # The compiled passes' one-time cost (a file load, about 0.05 s) is not the search's.
    use_compiled = not record_tree and _compiled_pays(
        geo, first | second, depth, pruning=pruning, node_limit=node_limit
    )
    passes = _Deepening(time_limit, node_limit=node_limit, should_stop=should_stop, on_progress=on_progress)
    over = game_over_value(geo, first, second)
    if over is not None:
        stats = SearchStats(0, 0, 0, 0, time.perf_counter() - passes.started, 0)  # nothing searched, no table
        return SearchResult(None, over, (), {}, stats, pruning)
    depths = range(1 if iterative else depth, depth + 1)
    settings = PassSettings(pruning, order, noise, hash((seed, first, second)), table)
    one_pass = (
        _compiled(passes, rules, (first, second, to_move), depth=depth, settings=settings) if use_compiled else None
    )
    if one_pass is None:
        one_pass = _python_passes(
            passes, rules, (grid, to_move), settings=settings, tree_budget=tree_budget if record_tree else None
        )
    return passes.run(one_pass, depths)


def _python_passes(
    passes: _Deepening,
    rules: Rules,
    position: tuple[np.ndarray, int],
    *,
    settings: PassSettings,
    tree_budget: int | None,
) -> Callable[[int], SearchResult]:
    """The Python passes of a search from ``position`` (the grid, the side to move);
    ``tree_budget``: record each pass's tree, None: do not."""
    ctx = _Context(rules, settings, passes.check)
    passes.ctx = ctx

    def python_pass(depth: int) -> SearchResult:
        recorder = TreeRecorder(tree_budget) if tree_budget is not None else None
        return _one_pass(ctx, position, depth, recorder=recorder, started=passes.started, done_nodes=passes.done_nodes)

    return python_pass


SMALL_SEARCH = 20_000
"""Positions below which a search does not load the compiled search for itself: the Python
passes finish in about 0.1 s, what loading the kernel file (llvmlite) costs a process that
has not yet.  Either way the same nodes are visited."""


def _compiled_pays(geo: Geometry, mask: int, depth: int, *, pruning: bool, node_limit: int | None) -> bool:
    """Whether this search runs compiled: the board fits, and the kernel is loaded already
    or the search is big enough to be worth loading it (which this does)."""
    if not search_kernel.usable(geo.rules):
        return False
    if not search_kernel.LOADER.is_ready():
        moves = sum(1 for _, add, keep in geo.move_steps if (mask + add) & keep)
        estimate = full_tree_positions(geo.rules, depth, moves)
        if pruning:
            estimate = min(estimate, pruned_tree_positions(depth, moves))
        if min(estimate, node_limit or estimate) < SMALL_SEARCH:
            return False
    return search_kernel.LOADER.kernel() is not None


def _compiled(
    passes: _Deepening,
    rules: Rules,
    position: tuple[int, int, int],
    *,
    depth: int,
    settings: PassSettings,
) -> Callable[[int], SearchResult] | None:
    """The compiled passes of this search (``ai.compiled.search_kernel``), or None for the Python ones:
    they visit the same nodes, but record no tree."""
    if not search_kernel.usable(rules):
        return None
    on_progress = passes.on_progress

    def report(nodes: int) -> None:  # the pass under way, as ``_Deepening.check`` reports it
        best = passes.best
        progress = SearchProgress(
            passes.depth,
            best.depth if best else 0,
            passes.done_nodes + nodes,
            best.move if best else None,
            best.value if best else None,
            time.perf_counter() - passes.started,
        )
        assert on_progress is not None
        on_progress(progress)

    limits = search_kernel.Limits(
        should_stop=passes.should_stop,
        deadline=passes.deadline,
        on_progress=report if on_progress is not None else None,
        table=TABLE_LIMIT,
        values=value_table_limit(),
    )
    compiled = search_kernel.compiled_passes(
        rules, position, depth=depth, settings=settings, node_limit=passes.node_limit, limits=limits
    )
    if compiled is None:
        return None

    def compiled_pass(depth: int) -> SearchResult:
        return compiled.one_pass(
            depth, done_nodes=passes.done_nodes, has_best=passes.best is not None, started=passes.started
        )

    return compiled_pass


class _Deepening:
    """The passes of one ``search`` call (iterative deepening) and the limits they run
    under: ``check`` is what the passes poll every ``CHECK_EVERY`` nodes."""

    def __init__(
        self,
        time_limit: float | None,
        *,
        node_limit: int | None,
        should_stop: Callable[[], bool] | None,
        on_progress: ProgressCallback | None,
    ):
        self.started = time.perf_counter()
        self.deadline = None if time_limit is None else self.started + time_limit
        self.node_limit = node_limit
        self.should_stop = should_stop
        self.on_progress = on_progress
        self.done_nodes = 0  # nodes of finished passes
        self.best: SearchResult | None = None  # the deepest finished pass
        self.depth = 1  # the pass under way
        self.ctx: _Context | None = None

    def check(self, nodes: int) -> None:
        """Stop on request, or past the clock or the node budget once a pass has finished;
        keep the position tables bounded; report progress."""
        if self.should_stop is not None and self.should_stop():
            raise SearchCancelled()
        ctx = self.ctx
        # The position tables grow with every new position; past TABLE_LIMIT they start
        # again (they only save work and order moves), so memory stays bounded at any depth.
        if ctx is not None and len(ctx.eval_cache) > TABLE_LIMIT:
            ctx.eval_cache.clear()
        if ctx is not None and len(ctx.best_moves) > TABLE_LIMIT:
            ctx.best_moves.clear()
        if ctx is not None and ctx.table is not None and len(ctx.table) > value_table_limit():
            ctx.table.clear()
        now = time.perf_counter()
        best, deadline, node_limit = self.best, self.deadline, self.node_limit
        if best is not None and (
            (deadline is not None and now > deadline)
            or (node_limit is not None and self.done_nodes + nodes > node_limit)
        ):
            raise OutOfTime()
        if self.on_progress is not None:
            self.on_progress(
                SearchProgress(
                    self.depth,
                    best.depth if best else 0,
                    self.done_nodes + nodes,
                    best.move if best else None,
                    best.value if best else None,
                    now - self.started,
                )
            )

    def run(self, one_pass: Callable[[int], SearchResult], depths: range) -> SearchResult:
        """Search each depth in turn (``one_pass(depth)``) until the last, a proven result,
        or a limit; the deepest finished pass answers."""
        for depth in depths:
            self.depth = depth
            try:
                result = one_pass(depth)
            except OutOfTime:
                break
            self.best, self.done_nodes = result, result.stats.total_nodes
            if self.on_progress is not None:
                self.on_progress(
                    SearchProgress(depth, depth, self.done_nodes, result.move, result.value, result.stats.seconds)
                )
            if result.proven:
                break  # a forced result inside the horizon: deeper passes cannot change it
            if self.deadline is not None and time.perf_counter() > self.deadline:
                break
            if self.node_limit is not None and self.done_nodes >= self.node_limit:
                break
        best = self.best
        assert best is not None
        if best.depth < depths[-1] and not best.proven:  # the time budget stopped a pass
            stats = replace(best.stats, seconds=time.perf_counter() - self.started, total_nodes=self.done_nodes)
            best = replace(best, stats=stats, completed=False)
        return best


def _one_pass(
    ctx: _Context,
    position: tuple[np.ndarray, int],
    depth: int,
    *,
    recorder: TreeRecorder | None,
    started: float,
    done_nodes: int,
) -> SearchResult:
    """One pass of ``search`` from ``position`` (the grid, the side to move) to ``depth``
    (``done_nodes``: the earlier passes' nodes).

    Raises:
        OutOfTime: the clock or the node budget stopped it (``check``).
    """
    grid, to_move = position
    one = _Pass(ctx, depth, recorder)
    root = -1
    if recorder is not None:
        root = recorder.open(-1, -1, 0, to_move == MAX, -INF, INF, -1)
    first, second = ctx.geo.from_grid(grid)
    if to_move == MAX:
        value = one.maximize(first, second, depth, 0, -INF, INF, root)
    else:
        value = one.minimize(first, second, depth, 0, -INF, INF, root)
    nodes, leaves, cutoffs = one.counts()
    table = one.table_counts()
    tree = None
    if recorder is not None:
        hits = recorder.table_hits if ctx.table is not None else None
        tree = SearchTree(recorder.data, ctx.geo.rules, grid.copy(), to_move, depth, ctx.pruning, table_hits=hits)
    pv = one.pv[0]
    stats = SearchStats(depth, nodes, leaves, cutoffs, time.perf_counter() - started, done_nodes + nodes, table)
    # A forced result inside the horizon: deeper passes cannot change it.
    proven = is_win_value(value) and plies_to_end(value) <= depth
    move = pv[0] if pv else None
    root_values = dict(sorted(one.root_values.items()))
    return SearchResult(move, value, pv, root_values, stats, ctx.pruning, tree=tree, proven=proven)


def game_over_value(geo: Geometry, first: int, second: int) -> int | None:
    """Return the value of a finished position, or None if play goes on."""
    rules = geo.rules
    if rules.mode is Mode.CLASSIC:
        if geo.line_starts(first):
            return WIN
        if geo.line_starts(second):
            return -WIN
    if (first | second) == geo.board_mask:
        return make_final_value(geo)(first, second)
    return None
