"""The play search's kernel: one pass of ``ai.search``'s alpha-beta, compiled by numba.

``ai.search.search`` runs its passes here when no tree is to be recorded and the board
fits a 64-bit word (``ai.bitboard.fits_compiled``); the Python passes in ``ai.search``
stay the reference, the fallback, and the ones that record trees.  What "the same
search" means here, and the test that holds it, is written once in ``ai.compiled``.

**The evaluation as arrays, not generated source.**  ``ai.heuristic`` generates Python
source per rule set because a loop over directions and window planes costs several times
the shifts it wraps in the interpreter.  Compiled, that loop costs little (the shift
counts are loop-invariant registers), and one compiled kernel then serves every rule set:
the terms (weights, masks, K, height) come in an int64 array (``rule_params``).  Generated
numba source would mean one kernel file and one 10-20 s compilation per rule set a person
tries (a new board size would wait on numba in the middle of a game); arrays mean one
kernel, compiled once at the first start, loaded in about 0.05 s by every later process.
K = 4 keeps a straight-line path for the threats (``ai.compiled.bits``), the hottest function.

The recursion is an explicit stack, as in ``ai.compiled.solver_kernel`` (numba cannot load
a cached recursive function).  Values are int64 bitboards: the layout of ``ai.bitboard`` (a
sentinel bit on each column), which keeps every disc below bit 63 on the boards that fit,
so right shifts never see a sign bit; left shifts may push bits past 63, where they are
dropped as the Python ints' extra bits would be masked off.

``LOADER`` is this kernel's ``ai.compiled.kernel_file.KernelLoader`` (the loading rules
are written there): ``CONNECT4_PURE_PYTHON=1`` or no numba (where a build is needed)
means the Python search; a damaged or unsaveable file is built again or the Python
search plays, with one warning, never a traceback.
"""

from __future__ import annotations

import functools
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.bitboard import fits_compiled, geometry
from ai.compiled.bits import line_starts, popcount, run_starts, threats
from ai.compiled.kernel_file import KernelLoader, KernelSpec, LoadedKernel, addresses
from ai.cost import full_tree_positions
from ai.heuristic import POINT, TACTICAL, row_parity_masks, weights_for
from ai.search_types import (
    CHECK_EVERY,
    ColumnValue,
    MoveOrder,
    OutOfTime,
    PassSettings,
    SearchCancelled,
    SearchResult,
    SearchStats,
    TableStats,
)
from ai.tree import BoundKind
from ai.values import INF, WIN, is_win_value, plies_to_end
from game.rules import MAX, Mode, Rules

Int64Array = npt.NDArray[np.int64]

STOPPED = -(1 << 62)
"""What a pass returns when it gave up; ``state[S_REASON]`` says why."""
REASON_CANCEL, REASON_OUT = 1, 2  # a stop request; the node budget or the clock (after pass 1)
FLAG_STOP, FLAG_TIME = 1, 2  # what the caller's thread writes into ``flag[0]``

# params: the rule set, the evaluation's terms, the pass's settings (int64).
(
    P_BOARD,
    P_BOTTOM,
    P_HEIGHT,
    P_CONNECT,
    P_ROWS,
    P_GRAVITY,
    P_CLASSIC,
    P_MOVES,
    P_CENTRE,
    P_CENTRE_W,
    P_W1,
    P_W2,
    P_W3,
    P_W4,
    P_W5,
    P_W6,
    P_PARITY_GOOD,
    P_PARITY_OTHER,
    P_DEAD,
    P_GOOD,
    P_FIRSTS,
    P_SECONDS,
    P_KEEP1,
    P_KEEP2,
    P_KEEP4,
    P_KEEP8,
    P_PRUNING,
    P_REMEMBER,
    P_NOISE,
    P_LANE,
    P_DEPTH,
    P_SLOTS,
    P_NODE_LIMIT,
    P_DONE,
    P_HAS_BEST,
    P_TABLE_LIMIT,
    P_TABLE,
    P_VALUE_LIMIT,
    P_VALUE_SLOTS,
) = range(39)
PARAMS = 39
# state (int64): what a pass counted, the tables' sizes, why it stopped.
S_NODES, S_LEAVES, S_CUTOFFS, S_STORED, S_REASON = range(5)
S_PROBES, S_HITS, S_STORES, S_TABLE_CUTOFFS, S_VALUES_STORED = range(5, 10)
STATE = 10
# Columns of the transposition table ``values`` (``ai.search``'s ``ctx.table``): the key
# as ``table_slot`` reads it, then the depth searched, the value, its bound.
V_DEPTH, V_VALUE, V_KIND = 2, 3, 4
VALUE_FIELDS = 5
KIND_EXACT, KIND_LOWER, KIND_UPPER = 0, 1, 2  # ``ai.tree.BoundKind`` as ints
# ``leaf`` codes of search_pass: how the value frame d takes was found.
LEAF_NONE, LEAF_VALUED, LEAF_TABLE_EXACT, LEAF_TABLE_BOUND = 0, 1, 2, 3
# Fields of a stack frame (one per ply).
F_FIRST, F_SECOND, F_DEPTH, F_ALPHA, F_BETA, F_IN, F_BEST, F_BEST_MOVE = range(8)
F_WINS, F_INDEX, F_COUNT, F_MAX, F_MOVE = range(8, 13)
FIELDS = 13
# Rows of ``roots``: per root move, seen, its value, the window it was searched with, a leaf.
R_SEEN, R_VALUE, R_ALPHA, R_BETA, R_LEAF = range(5)

_MOD = (1 << 61) - 1
_PRIME1 = 11400714785074694791 - (1 << 64)
_PRIME2 = 14029467366897019727 - (1 << 64)
_PRIME5 = 2870177450012600261
_LENGTH3 = 3 ^ (_PRIME5 ^ 3527539)


# -- the evaluation (plain Python until ``ai.compiled.kernel_file`` compiles it) ----------


def side_value(own: int, other: int, params: Int64Array) -> int:
    """``own``'s open windows weighted by the discs they hold (``ai.heuristic._side_source``)."""
    height = params[P_HEIGHT]
    k = params[P_CONNECT]
    avail = params[P_BOARD] ^ other
    w1, w2, w3 = params[P_W1], params[P_W2], params[P_W3]
    w4, w5, w6 = params[P_W4], params[P_W5], params[P_W6]
    s = 0
    for step in (1, height, height - 1, height + 1):
        f = run_starts(avail, step, k)  # the windows of k cells ``own`` may still fill
        # t_m: windows whose first i + 1 planes hold at least m own discs (the last
        # plane never joins t1: the generated source does the same).
        t1 = own
        t2 = t3 = t4 = t5 = t6 = 0
        for i in range(1, k):
            o = own >> (i * step)
            t6 |= t5 & o
            t5 |= t4 & o
            t4 |= t3 & o
            t3 |= t2 & o
            t2 |= t1 & o
            if i < k - 1:
                t1 |= o
        s += tier_value(w1, f & t1) + tier_value(w2, f & t2) + tier_value(w3, f & t3)
        s += tier_value(w4, f & t4) + tier_value(w5, f & t5) + tier_value(w6, f & t6)
    return s


def tier_value(weight: int, windows: int) -> int:
    """``weight`` for each of the ``windows`` (a tier's weight; a tier of weight 0 is not counted)."""
    return weight * popcount(windows) if weight else 0


def fill_up(t: int, params: Int64Array) -> int:
    """Every cell above a cell of ``t`` in its column (``ai.heuristic._fill_up_source``)."""
    rows = params[P_ROWS]
    x = t << 1
    if rows > 1:
        x |= (x & params[P_KEEP1]) << 1
    if rows > 2:
        x |= (x & params[P_KEEP2]) << 2
    if rows > 4:
        x |= (x & params[P_KEEP4]) << 4
    if rows > 8:
        x |= (x & params[P_KEEP8]) << 8
    return int(x & params[P_BOARD])


def evaluate(first: int, second: int, params: Int64Array) -> int:
    """``ai.heuristic``'s evaluation of a position that is not over, for MAX."""
    board = params[P_BOARD]
    height = params[P_HEIGHT]
    k = params[P_CONNECT]
    gravity = params[P_GRAVITY]
    mask = first | second
    empty = board ^ mask
    tf = threats(first, empty, height, k, gravity)
    ts = threats(second, empty, height, k, gravity)
    playable = ((mask + params[P_BOTTOM]) & board) if gravity else empty
    if params[P_CLASSIC]:
        pf = tf & playable
        ps = ts & playable
        if popcount(first) <= popcount(second):
            if pf:
                return TACTICAL
            if (ps & (ps - 1)) or (gravity and ((ps << 1) & ts)):
                return -TACTICAL
        else:
            if ps:
                return -TACTICAL
            if (pf & (pf - 1)) or (gravity and ((pf << 1) & tf)):
                return TACTICAL
    centre = params[P_CENTRE]
    s = side_value(first, second, params) - side_value(second, first, params)
    s += params[P_CENTRE_W] * (popcount(first & centre) - popcount(second & centre))
    if not params[P_CLASSIC]:
        s += POINT * (popcount(line_starts(first, height, k)) - popcount(line_starts(second, height, k)))
    if gravity:
        firsts, seconds = params[P_FIRSTS], params[P_SECONDS]
        above_tf = fill_up(tf, params)
        above_ts = fill_up(ts, params)
        live_f = tf & ~above_ts
        live_s = ts & ~above_tf
        s += params[P_PARITY_GOOD] * (popcount(live_f & firsts) - popcount(live_s & seconds))
        s += params[P_PARITY_OTHER] * (popcount(live_f & seconds) - popcount(live_s & firsts))
        if params[P_DEAD]:
            s += params[P_DEAD] * (popcount(tf & above_ts) - popcount(ts & above_tf))
        if params[P_GOOD]:
            s += params[P_GOOD] * ((1 if live_f & firsts else 0) - (1 if live_s & seconds else 0))
    return int(s)


def tuple_hash(lane: int, first: int, second: int) -> int:
    """CPython's ``hash((seed, first, second))`` with ``lane = hash(seed)`` (64-bit
    xxHash-style tuple hash; int64 arithmetic wraps as the C code's unsigned does)."""
    acc = _PRIME5
    for item in (lane, first % _MOD, second % _MOD):
        acc += item * _PRIME2
        acc = (acc << 31) | ((acc >> 33) & 0x7FFFFFFF)
        acc *= _PRIME1
    acc += _LENGTH3
    if acc == -1:
        return 1546275796
    return acc


def leaf_value(first: int, second: int, params: Int64Array) -> int:
    """The evaluation, blurred as ``ai.search._noisy`` blurs it (forced leaves stay exact)."""
    value = evaluate(first, second, params)
    noise = params[P_NOISE]
    if noise and -TACTICAL < value < TACTICAL:
        value += tuple_hash(params[P_LANE], first, second) % (2 * noise + 1) - noise
    return value


def final_value(first: int, second: int, params: Int64Array) -> int:
    """A full board's value: 0 in CLASSIC, the point difference in FULL_BOARD."""
    if params[P_CLASSIC]:
        return 0
    height, k = params[P_HEIGHT], params[P_CONNECT]
    return POINT * (popcount(line_starts(first, height, k)) - popcount(line_starts(second, height, k)))


# -- the best-move and transposition tables: a dict's semantics (exact keys), open addressing --


def table_slot(table: Int64Array, slots: int, first: int, second: int) -> int:
    """The slot of (first, second): where it is stored, or the empty slot it would take."""
    h = first * -7046029254386353131 + second * 0x2545F4914F6CDD1D
    h ^= (h >> 29) & 0x7FFFFFFFF
    slot = h & (slots - 1)
    while table[slot, 0] != 0 and (table[slot, 0] != first + 1 or table[slot, 1] != second):
        slot = (slot + 1) & (slots - 1)
    return slot


def table_claim(table: Int64Array, slots: int, first: int, second: int, state: Int64Array, stored: int) -> int:
    """The slot of (first, second), taken for it if it was empty (``state[stored]`` counts
    the positions a table holds): the best-move table's and the transposition table's."""
    slot = table_slot(table, slots, first, second)
    if table[slot, 0] == 0:
        table[slot, 0] = first + 1
        table[slot, 1] = second
        state[stored] += 1
    return slot


def table_clear(table: Int64Array, slots: int) -> None:
    for slot in range(slots):
        table[slot, 0] = 0


# -- one pass ------------------------------------------------------------------------------


def open_node(
    params: Int64Array,
    steps: Int64Array,
    table: Int64Array,
    killers: Int64Array,
    frames: Int64Array,
    orders: Int64Array,
    pv: Int64Array,
    d: int,
    first: int,
    second: int,
    depth: int,
    alpha: int,
    beta: int,
    max_to_move: int,
) -> None:
    """Set up the node at ply ``d``: its window, its threats to win, its move order."""
    board = params[P_BOARD]
    mask = first | second
    frames[d, F_FIRST] = first
    frames[d, F_SECOND] = second
    frames[d, F_DEPTH] = depth
    frames[d, F_ALPHA] = alpha
    frames[d, F_BETA] = beta
    frames[d, F_MAX] = max_to_move
    frames[d, F_BEST] = -INF if max_to_move else INF
    frames[d, F_IN] = alpha if max_to_move else beta
    frames[d, F_BEST_MOVE] = -1
    frames[d, F_INDEX] = 0
    pv[d, 0] = 0
    wins = 0
    if params[P_CLASSIC]:
        own = first if max_to_move else second
        wins = threats(own, board ^ mask, params[P_HEIGHT], params[P_CONNECT], params[P_GRAVITY])
    frames[d, F_WINS] = wins
    # The order of ``ai.search._move_order_maker``: the stored best move, the killer, the rest.
    slot = table_slot(table, params[P_SLOTS], first, second)
    best = table[slot, 2] if table[slot, 0] != 0 else -1
    killer = killers[d]
    count = 0
    if best >= 0:
        orders[0, d, 0] = best
        count = 1
    if killer >= 0 and killer != best:
        orders[0, d, count] = killer
        count += 1
    for i in range(params[P_MOVES]):
        move = steps[2, i]
        if move != best and move != killer:
            orders[0, d, count] = move
            count += 1
    if depth >= 3 and best < 0 and params[P_REMEMBER]:
        # ``by_static_value``: playable moves by the child's value, best first; a stable
        # insertion sort keeps ties in the order above (the Python sort's rank).
        kept = 0
        for i in range(count):
            move = orders[0, d, i]
            bit = (mask + steps[0, move]) & steps[1, move]
            if bit == 0:
                continue
            if max_to_move:
                key = -leaf_value(first | bit, second, params)
            else:
                key = leaf_value(first, second | bit, params)
            j = kept
            while j > 0 and orders[1, d, j - 1] > key:
                orders[0, d, j] = orders[0, d, j - 1]
                orders[1, d, j] = orders[1, d, j - 1]
                j -= 1
            orders[0, d, j] = move
            orders[1, d, j] = key
            kept += 1
        count = kept
    frames[d, F_COUNT] = count


def search_pass(
    params: Int64Array,
    steps: Int64Array,
    table: Int64Array,
    values: Int64Array,
    killers: Int64Array,
    state: Int64Array,
    flag: Int64Array,
    frames: Int64Array,
    orders: Int64Array,
    pv: Int64Array,
    roots: Int64Array,
    first0: int,
    second0: int,
    max0: int,
) -> int:
    """One pass of ``ai.search._Pass`` to ``params[P_DEPTH]`` from the root (first0, second0).

    Returns the root's value, or ``STOPPED`` with ``state[S_REASON]`` set: ``flag[0]``
    asked to stop, or (once a pass has finished: ``params[P_HAS_BEST]``) the clock ran
    out or the earlier passes' nodes plus this one's passed ``params[P_NODE_LIMIT]``,
    looked at every ``CHECK_EVERY`` nodes as ``ai.search._Deepening.check`` does.
    ``state`` gets the pass's nodes, leaves, cutoffs (and with ``params[P_TABLE]`` the
    transposition table's probes, hits, stores, cutoffs); ``pv[0]`` the principal
    variation (its length first); ``roots`` each root move's value and window.
    """
    # Contract of each frame (``ai.search._Pass``'s maximize/minimize, fail-soft): on entry
    # alpha < beta; the value v it hands its parent is <= alpha (an upper bound), >= beta
    # (a lower bound, the rest cut) or exact; without pruning always exact.  Inv: frame d is
    # the node at ply d; alpha only rises at MAX frames, beta only falls at MIN frames;
    # pv[d] holds the line of the frame's best child so far (length in column 0).
    # With the table (``values``): a child is answered from its entry, not opened, when the
    # entry is of the child's depth and exact, or a bound outside the child's window; every
    # frame stores its result when done (exact, or the bound its window makes it).
    board = params[P_BOARD]
    pruning = params[P_PRUNING]
    remember = params[P_REMEMBER]
    slots = params[P_SLOTS]
    node_limit = params[P_NODE_LIMIT]
    done = params[P_DONE]
    has_best = params[P_HAS_BEST]
    use_table = params[P_TABLE]
    value_slots = values.shape[0]
    nodes = 0
    leaves = 0
    cutoffs = 0
    probes = 0
    hits = 0
    stores = 0
    table_cutoffs = 0
    open_node(params, steps, table, killers, frames, orders, pv, 0, first0, second0, params[P_DEPTH], -INF, INF, max0)
    d = 0
    have = False  # a child's value (or a leaf's) waits to be taken by frame d
    value = 0
    leaf = 0
    while True:
        if have:
            have = False
            move = frames[d, F_MOVE]
            alpha = frames[d, F_ALPHA]
            beta = frames[d, F_BETA]
            if d == 0:
                roots[R_SEEN, move] = 1
                roots[R_VALUE, move] = value
                roots[R_ALPHA, move] = alpha
                roots[R_BETA, move] = beta
                roots[R_LEAF, move] = 1 if leaf == LEAF_VALUED or leaf == LEAF_TABLE_EXACT else 0
            better = value > frames[d, F_BEST] if frames[d, F_MAX] else value < frames[d, F_BEST]
            if better:
                frames[d, F_BEST] = value
                frames[d, F_BEST_MOVE] = move
                pv[d, 1] = move
                length = 0 if leaf else pv[d + 1, 0]
                for i in range(length):
                    pv[d, 2 + i] = pv[d + 1, 1 + i]
                pv[d, 0] = 1 + length
                cut = False
                if frames[d, F_MAX]:
                    if value > alpha:
                        frames[d, F_ALPHA] = value
                        cut = pruning != 0 and value >= beta
                elif value < beta:
                    frames[d, F_BETA] = value
                    cut = pruning != 0 and alpha >= value
                if cut:
                    cutoffs += 1
                    if remember:
                        killers[d] = move
                    frames[d, F_INDEX] = frames[d, F_COUNT]
        index = frames[d, F_INDEX]
        if index < frames[d, F_COUNT]:
            frames[d, F_INDEX] = index + 1
            move = orders[0, d, index]
            first = frames[d, F_FIRST]
            second = frames[d, F_SECOND]
            mask = first | second
            bit = (mask + steps[0, move]) & steps[1, move]
            if bit == 0:
                continue
            nodes += 1
            if nodes % CHECK_EVERY == 0:
                state[S_NODES] = nodes
                if flag[0] == FLAG_STOP:
                    state[S_REASON] = REASON_CANCEL
                    return STOPPED
                if state[S_STORED] > params[P_TABLE_LIMIT]:
                    table_clear(table, slots)
                    state[S_STORED] = 0
                if state[S_VALUES_STORED] > params[P_VALUE_LIMIT]:
                    table_clear(values, value_slots)
                    state[S_VALUES_STORED] = 0
                if has_best and (flag[0] == FLAG_TIME or (node_limit >= 0 and done + nodes > node_limit)):
                    state[S_REASON] = REASON_OUT
                    return STOPPED
            frames[d, F_MOVE] = move
            max_to_move = frames[d, F_MAX]
            if max_to_move:
                first |= bit
            else:
                second |= bit
            if bit & frames[d, F_WINS]:
                value = WIN - d - 1 if max_to_move else d + 1 - WIN
            elif mask | bit == board:
                value = final_value(first, second, params)
            elif frames[d, F_DEPTH] == 1:
                value = leaf_value(first, second, params)
            else:
                depth = frames[d, F_DEPTH] - 1
                alpha, beta = frames[d, F_ALPHA], frames[d, F_BETA]
                if use_table:
                    probes += 1
                    vslot = table_slot(values, value_slots, first, second)
                    if values[vslot, 0] != 0 and values[vslot, V_DEPTH] == depth:
                        kind = values[vslot, V_KIND]
                        stored = values[vslot, V_VALUE]
                        if (
                            kind == KIND_EXACT
                            or (kind == KIND_LOWER and stored >= beta)
                            or (kind == KIND_UPPER and stored <= alpha)
                        ):
                            hits += 1
                            value = stored
                            if kind == KIND_EXACT:
                                leaf = LEAF_TABLE_EXACT
                            else:
                                table_cutoffs += 1
                                leaf = LEAF_TABLE_BOUND
                            have = True
                            continue
                open_node(
                    params,
                    steps,
                    table,
                    killers,
                    frames,
                    orders,
                    pv,
                    d + 1,
                    first,
                    second,
                    depth,
                    alpha,
                    beta,
                    1 - max_to_move,
                )
                d += 1
                continue
            leaves += 1
            leaf = LEAF_VALUED
            have = True
            continue
        # The node is done: remember its best move where it is one (not a fail-low).
        best = frames[d, F_BEST]
        if remember and (best > frames[d, F_IN] if frames[d, F_MAX] else best < frames[d, F_IN]):
            slot = table_claim(table, slots, frames[d, F_FIRST], frames[d, F_SECOND], state, S_STORED)
            table[slot, 2] = frames[d, F_BEST_MOVE]
        if use_table:
            vslot = table_claim(values, value_slots, frames[d, F_FIRST], frames[d, F_SECOND], state, S_VALUES_STORED)
            # The window it was searched with: alpha_in..beta at MAX, alpha..beta_in at MIN.
            low = frames[d, F_IN] if frames[d, F_MAX] else frames[d, F_ALPHA]
            high = frames[d, F_BETA] if frames[d, F_MAX] else frames[d, F_IN]
            kind = KIND_EXACT
            if pruning != 0 and best <= low:
                kind = KIND_UPPER
            elif pruning != 0 and best >= high:
                kind = KIND_LOWER
            values[vslot, V_DEPTH] = frames[d, F_DEPTH]
            values[vslot, V_VALUE] = best
            values[vslot, V_KIND] = kind
            stores += 1
        value = best
        if d == 0:
            state[S_NODES] = nodes
            state[S_LEAVES] = leaves
            state[S_CUTOFFS] = cutoffs
            state[S_PROBES] = probes
            state[S_HITS] = hits
            state[S_STORES] = stores
            state[S_TABLE_CUTOFFS] = table_cutoffs
            return int(value)
        d -= 1
        leaf = LEAF_NONE
        have = True


def c_entry(compiled: Callable[..., int], carray: Callable[..., Any]) -> Callable[..., int]:
    """The C-callable entry ``ai.compiled.kernel_file`` compiles: plain pointers and sizes in."""

    def entry(  # type: ignore[no-untyped-def]
        params_p,
        steps_p,
        moves,
        table_p,
        slots,
        values_p,
        value_slots,
        killers_p,
        plies,
        state_p,
        flag_p,
        frames_p,
        orders_p,
        pv_p,
        roots_p,
        depth,
        first,
        second,
        max0,
    ):
        return compiled(
            carray(params_p, (PARAMS,)),
            carray(steps_p, (3, moves)),
            carray(table_p, (slots, 3)),
            carray(values_p, (value_slots, VALUE_FIELDS)),
            carray(killers_p, (plies,)),
            carray(state_p, (STATE,)),
            carray(flag_p, (1,)),
            carray(frames_p, (depth, FIELDS)),
            carray(orders_p, (2, depth, moves)),
            carray(pv_p, (depth, depth + 1)),
            carray(roots_p, (5, moves)),
            first,
            second,
            max0,
        )

    return entry


SPEC = KernelSpec(
    name="search",
    core=sys.modules[__name__],
    entry="search_pass",
    helpers=(
        "tier_value",
        "side_value",
        "fill_up",
        "evaluate",
        "tuple_hash",
        "leaf_value",
        "final_value",
        "table_slot",
        "table_claim",
        "table_clear",
        "open_node",
    ),
    wrapper=c_entry,
    args="ppipipipippppppiiii",
    loaded=LoadedKernel,
)
"""What ``ai.compiled.kernel_file`` compiles from this module, and the entry's arguments
(p: a pointer to int64s, i: an int64)."""

LOADER = KernelLoader(SPEC, "search")
"""The kernel of this process: ``LOADER.kernel()`` loads it on first use (about 0.05 s;
the first start compiles it, 10-20 s), ``LOADER.prepare_in_background()`` ahead of time."""


# -- the Python side: parameters, arrays, and the passes of one search ---------------------


@functools.lru_cache(maxsize=32)
def rule_params(rules: Rules) -> tuple[int, ...]:
    """The rule set's part of ``params``: the board, its moves, the evaluation's terms."""
    geo = geometry(rules)
    weights = weights_for(rules)
    tiers = dict(weights.tiers)
    centre = 0
    for col in {(rules.cols - 1) // 2, rules.cols // 2}:
        centre |= ((1 << rules.rows) - 1) << (col * geo.height)
    firsts, seconds = row_parity_masks(geo)
    keeps = []
    for step in (1, 2, 4, 8):  # cells that stay in their column when moved up by ``step``
        keep = 0
        for col in range(rules.cols):
            for row in range(max(rules.rows - step, 0)):
                keep |= 1 << (col * geo.height + row)
        keeps.append(keep)
    values = [0] * PARAMS
    values[P_BOARD], values[P_BOTTOM], values[P_HEIGHT] = geo.board_mask, geo.bottom_mask, geo.height
    values[P_CONNECT], values[P_ROWS], values[P_GRAVITY] = rules.connect, rules.rows, int(rules.gravity)
    values[P_CLASSIC], values[P_MOVES] = int(rules.mode is Mode.CLASSIC), len(geo.move_steps)
    values[P_CENTRE], values[P_CENTRE_W] = centre, weights.centre
    for m in range(1, 7):
        values[P_W1 + m - 1] = tiers.get(m, 0)
    values[P_PARITY_GOOD], values[P_PARITY_OTHER] = weights.parity_good, weights.parity_other
    values[P_DEAD], values[P_GOOD] = weights.dead_threat, weights.good_threat
    values[P_FIRSTS], values[P_SECONDS] = firsts, seconds
    values[P_KEEP1], values[P_KEEP2], values[P_KEEP4], values[P_KEEP8] = keeps
    return tuple(values)


def move_steps(rules: Rules, order: MoveOrder) -> Int64Array:
    """Rows: each move's ``add`` and ``keep`` (``Geometry.move_steps``), then the moves in
    the static order (left to right, or centre first)."""
    geo = geometry(rules)
    static = [m for m, _, _ in geo.move_steps] if order is MoveOrder.LEFT_TO_RIGHT else list(geo.centre_order)
    return np.array([[a for _, a, _ in geo.move_steps], [k for _, _, k in geo.move_steps], static], dtype=np.int64)


def table_slots(rules: Rules, depth: int, node_limit: int | None, table_limit: int) -> int:
    """Slots of the best-move table: the first power of two at least 1.5 times the most
    positions it can hold at once (one per node searched, at most ``table_limit`` plus a
    check's worth): a load of at most 2/3, so a probe stays short; 24 MB at the most (a
    table twice that size cost 18 ms to allocate and touch, a sixth of Expert's move)."""
    most = table_limit + 2 * CHECK_EVERY
    if node_limit is not None:
        most = min(most, node_limit + 2 * CHECK_EVERY + rules.cells)
    most = min(most, full_tree_positions(rules, depth) + 1)
    slots = 1024
    while 2 * slots < 3 * most:
        slots *= 2
    return slots


def usable(rules: Rules) -> bool:
    """Whether the compiled search takes these rules (one 64-bit word a position)."""
    return fits_compiled(rules)


PERIOD = 0.004
"""Seconds between two looks at the stop request and the clock while a pass runs."""
PROGRESS_PERIOD = 0.05
"""Seconds between two progress reports while a pass runs."""


@dataclass
class Limits:
    """What may stop the passes of one search, looked at from the caller's thread."""

    should_stop: Callable[[], bool] | None
    deadline: float | None
    on_progress: Callable[[int], None] | None  # told the nodes of the pass under way
    table: int  # ``ai.search.TABLE_LIMIT``: stored best moves past which the table starts again
    values: int = 0  # ``ai.search.value_table_limit()``: the same for the transposition table

    @property
    def watched(self) -> bool:
        """Whether a pass must run beside a watching thread (else it runs in this one)."""
        if self.should_stop is not None or self.deadline is not None or self.on_progress is not None:
            return True
        return threading.current_thread() is threading.main_thread()  # so Ctrl+C still stops it


class CompiledPasses:
    """The passes of one ``ai.search.search`` call, compiled: the best-move table and the
    killers they share, as ``ai.search._Context`` keeps them for the Python passes."""

    def __init__(
        self,
        kernel: LoadedKernel,
        rules: Rules,
        position: tuple[int, int, int],
        *,
        params: Int64Array,
        steps: Int64Array,
        limits: Limits,
    ):
        """Passes from ``position`` (first's discs, second's, the side to move) with the
        search's ``params`` (``search_params``) and its move order's ``steps``."""
        self.kernel, self.rules, self.limits = kernel, rules, limits
        self.first, self.second, self.to_move = position
        self.empty = rules.cells - (self.first | self.second).bit_count()
        self.pruning = bool(params[P_PRUNING])
        self.params = params
        self.steps = steps
        self.table = np.zeros((int(params[P_SLOTS]), 3), dtype=np.int64)
        # The transposition table (one unused slot when it is off), sized for its own limit.
        self.table_on = bool(params[P_TABLE])
        self.values = np.zeros((int(params[P_VALUE_SLOTS]) if self.table_on else 1, VALUE_FIELDS), dtype=np.int64)
        self.killers = np.full(rules.cells + 2, -1, dtype=np.int64)
        self.state = np.zeros(STATE, dtype=np.int64)
        self.flag = np.zeros(1, dtype=np.int64)
        self.pass_arrays: tuple[np.ndarray, ...] = ()  # the running pass's line arrays (``one_pass``)

    def one_pass(self, depth: int, *, done_nodes: int, has_best: bool, started: float) -> SearchResult:
        """One pass to ``depth`` (``done_nodes``: the earlier passes' nodes).

        Raises:
            ai.search_types.SearchCancelled: a stop request.
            ai.search_types.OutOfTime: the clock or the node budget, once a pass has finished.
        """
        # The stack never goes deeper than the empty cells, whatever depth was asked for.
        params, moves, rows = self.params, int(self.params[P_MOVES]), min(depth, self.empty) + 2
        params[P_DEPTH], params[P_DONE], params[P_HAS_BEST] = depth, done_nodes, int(has_best)
        frames = np.zeros((rows, FIELDS), dtype=np.int64)
        orders = np.zeros((2, rows, moves), dtype=np.int64)
        pv = np.zeros((rows, rows + 1), dtype=np.int64)
        roots = np.zeros((5, moves), dtype=np.int64)
        stored = self.state[S_STORED], self.state[S_VALUES_STORED]  # the tables live on from pass to pass
        self.state[:] = 0
        self.state[S_STORED], self.state[S_VALUES_STORED] = stored
        arrays = addresses(params, self.steps, self.table, self.values, self.killers, self.state, self.flag)
        p_params, p_steps, p_table, p_values, p_killers, p_state, p_flag = arrays
        p_frames, p_orders, p_pv, p_roots = addresses(frames, orders, pv, roots)
        args = (
            p_params, p_steps, moves, p_table, len(self.table), p_values, len(self.values), p_killers,
            len(self.killers), p_state, p_flag,
            p_frames, p_orders, p_pv, p_roots, rows, self.first, self.second, int(self.to_move == MAX),
        )  # fmt: skip
        # Held by ``self`` (which the pass's thread holds), not only by this frame: the
        # arrays the kernel writes live as long as the pass does.
        self.pass_arrays = (frames, orders, pv, roots)
        value = self._run(depth, lambda: self.kernel(*args))
        if value == STOPPED:
            if self.state[S_REASON] == REASON_CANCEL:
                raise SearchCancelled()
            raise OutOfTime()
        nodes, leaves, cutoffs = (int(self.state[i]) for i in (S_NODES, S_LEAVES, S_CUTOFFS))
        line = tuple(int(m) for m in pv[0, 1 : 1 + pv[0, 0]])
        root_values = {
            move: ColumnValue(
                int(roots[R_VALUE, move]),
                BoundKind.of(
                    int(roots[R_VALUE, move]),
                    int(roots[R_ALPHA, move]),
                    int(roots[R_BETA, move]),
                    pruning=self.pruning,
                    exact_leaf=bool(roots[R_LEAF, move]),
                ),
            )
            for move in range(moves)
            if roots[R_SEEN, move]
        }
        table = None
        if self.table_on:
            table = TableStats(*(int(self.state[i]) for i in (S_PROBES, S_HITS, S_STORES, S_TABLE_CUTOFFS)))
        stats = SearchStats(depth, nodes, leaves, cutoffs, time.perf_counter() - started, done_nodes + nodes, table)
        proven = is_win_value(value) and plies_to_end(value) <= depth
        move = line[0] if line else None
        return SearchResult(move, value, line, root_values, stats, self.pruning, proven=proven)

    def _run(self, depth: int, call: Callable[[], int]) -> int:
        """Run a pass: here, or (with limits to watch) in a thread while this one watches
        the stop request, the clock and Ctrl+C, and reports progress."""
        limits = self.limits
        if not limits.watched:
            return call()
        box: list[int] = []
        thread = threading.Thread(target=lambda: box.append(call()), name="search-pass", daemon=True)
        thread.start()
        reported = time.perf_counter()
        try:
            while thread.is_alive():
                thread.join(PERIOD)
                if limits.should_stop is not None and limits.should_stop():
                    self.flag[0] = FLAG_STOP
                elif limits.deadline is not None and time.perf_counter() > limits.deadline and not self.flag[0]:
                    self.flag[0] = FLAG_TIME
                now = time.perf_counter()
                if limits.on_progress is not None and now - reported >= PROGRESS_PERIOD and thread.is_alive():
                    reported = now
                    limits.on_progress(int(self.state[S_NODES]))
        except BaseException:
            self.flag[0] = FLAG_STOP  # Ctrl+C or a failing callback: the pass stops at its next check
            _join_through_interrupts(thread)
            raise
        return box[0]


def _join_through_interrupts(thread: threading.Thread) -> None:
    """Wait for a stopped pass to end, whatever Ctrl+C comes meanwhile: the kernel writes
    into this process's arrays until it returns, so nobody may leave before it has (a
    second Ctrl+C once let the arrays go while it ran: a crash)."""
    while thread.is_alive():
        try:
            thread.join()
        except KeyboardInterrupt:
            continue


def compiled_passes(
    rules: Rules,
    position: tuple[int, int, int],
    *,
    depth: int,
    settings: PassSettings,
    node_limit: int | None,
    limits: Limits,
) -> CompiledPasses | None:
    """The compiled passes of a search, or None where the Python search must run (the
    board does not fit, ``CONNECT4_PURE_PYTHON``, no numba, a failed kernel)."""
    if not usable(rules):
        return None
    kernel = LOADER.kernel()
    if kernel is None:
        return None
    params = search_params(rules, depth, settings, node_limit, limits.table, limits.values)
    return CompiledPasses(
        kernel, rules, position, params=params, steps=move_steps(rules, settings.order), limits=limits
    )


def search_params(
    rules: Rules, depth: int, settings: PassSettings, node_limit: int | None, table_limit: int, value_limit: int = 0
) -> Int64Array:
    """The kernel's ``params`` for a search to ``depth`` with ``settings`` (pruning, move
    order, noise, the seed of the noisy levels' blur): the rules' part, then the search's."""
    params = np.array(rule_params(rules), dtype=np.int64)
    params[P_PRUNING], params[P_REMEMBER] = int(settings.pruning), int(settings.order is MoveOrder.BEST_FIRST)
    params[P_NOISE], params[P_LANE] = settings.noise, hash(settings.context_seed)
    params[P_TABLE_LIMIT] = table_limit
    params[P_TABLE] = int(settings.table)
    params[P_VALUE_LIMIT] = value_limit
    params[P_VALUE_SLOTS] = table_slots(rules, depth, node_limit, value_limit) if settings.table else 1
    params[P_SLOTS] = table_slots(rules, depth, node_limit, table_limit)
    params[P_NODE_LIMIT] = -1 if node_limit is None else node_limit
    return params
