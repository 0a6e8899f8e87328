"""The exact solver's kernel: ``ai.solver``'s negamax, node for node, compiled by numba.

``ai.solver.Solver`` calls ``LOADER.kernel()`` for every search that reaches no opening
book (from 13 discs on the standard board, every search on other boards) and falls back
to its own pure-Python negamax, the reference, when the kernel is not there.  It is the
same search, node for node (the contract, and the tests that hold it: ``ai.compiled``),
on the same table (the numpy array of ``ai.solver.TranspositionTable``); only the
recursion is an explicit stack, because numba cannot load a cached recursive function
(numba issue 6061: a crash on the second run).

``LOADER`` is this kernel's ``ai.compiled.kernel_file.KernelLoader`` (the loading rules
are written there): ``prepare()`` loads the kernel file (about 0.05 s) or compiles and
saves it (the first start: 5-15 s), ``prepare_in_background()``, ``is_ready()``,
``status()`` (one line for the person), ``kernel()`` (a ``SolverKernel``, or None), ``path``.

The functions below run as plain Python too (slowly); ``ai.compiled.kernel_file.build``
compiles them with ``ai.compiled.bits``'s helpers, leaving this module's names as they are.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import numpy.typing as npt

from ai.compiled.bits import popcount, threats
from ai.compiled.kernel_file import KernelLoader, KernelSpec, LoadedKernel, addresses

STOPPED = -(1 << 20)
"""What the kernel returns when it gave up (``state[STATE_REASON]`` says why)."""
CHECK_MASK = 2047
"""The stop flag is read when ``nodes & CHECK_MASK == 0`` (``ai.solver.CHECK_EVERY``)."""
NO_LIMIT = (1 << 62) - 1
"""``state[STATE_LIMIT]`` with no node limit."""

# The kernel's in/out state (an int64 array): nodes so far, the node limit, why it stopped.
STATE_NODES, STATE_LIMIT, STATE_REASON = 0, 1, 2
REASON_FLAG, REASON_NODE_LIMIT = 1, 2
# The kernel's parameters (an int64 array), from the solver's geometry.
P_CELLS, P_BOARD, P_BOTTOM, P_HEIGHT, P_CONNECT, P_ETC_BELOW, P_ORDER_BELOW, P_COLUMNS = range(8)
PARAMS = 8

Int64Array = npt.NDArray[np.int64]

# Fields of a stack frame.
(
    F_CURRENT,
    F_MASK,
    F_PLAYED,
    F_ALPHA,
    F_BETA,
    F_LOWER,
    F_UPPER,
    F_SLOT,
    F_CHECK,
    F_ALPHA_IN,
    F_BEST,
    F_FIRST,
    F_MOVES,
    F_COUNT,
    F_INDEX,
    F_MODE,
) = range(16)
FIELDS = 16
MODE_ONE, MODE_LOOP = 1, 2  # a frame searching its only move / its ordered moves


# -- the search (plain Python until ``ai.compiled.kernel_file`` compiles it) ------------------


def slot_and_check(key: int, slots: int, reciprocal: float) -> tuple[int, int]:
    """``(key % slots, key // slots + 1)``: a key's slot and check, as ``ai.solver`` has them.

    The quotient comes from a multiplication by the reciprocal instead of a 64-bit
    division, then is corrected: the double holds the key to 53 bits, so the estimate is
    off by at most one for the table's sizes (more only for tiny test tables: the loops).
    Keys of boards with 64 bits a position (7x8) can pass 2**63 and wrap to negative in
    an int64: the true key is then ``key + 2**64``, and the int64 arithmetic below wraps
    the same way, so the remainder comes out right.
    """
    true_key = np.float64(key) if key >= 0 else np.float64(key) + 18446744073709551616.0
    check = np.int64(true_key * reciprocal)
    slot = key - check * slots
    while slot < 0:
        check -= 1
        slot += slots
    while slot >= slots:
        check += 1
        slot -= slots
    return slot, check + 1


def negamax(
    words: Int64Array,
    slots: int,
    params: Int64Array,
    columns: Int64Array,
    state: Int64Array,
    flag: Int64Array,
    scratch: Int64Array,
    current0: int,
    mask0: int,
    played0: int,
    alpha0: int,
    beta0: int,
    wins0: int,
) -> int:
    """``ai.solver.Solver._negamax`` over an explicit stack: the same nodes, the same table.

    Returns the score, or ``STOPPED`` with ``state[STATE_REASON]`` set: the node limit
    ``state[STATE_LIMIT]`` was passed, or ``flag[0]`` was set (read every 2048 nodes).
    ``state[STATE_NODES]`` counts nodes on from its value on entry.

    ``scratch`` (int64, shape ``(3, depth, FIELDS)`` with ``depth = cells - played0 + 2``)
    holds the stack's frames, the moves' order and their threats: the caller's, so the
    compiled code allocates nothing.
    """
    # Contract (the one of ``ai.solver.PythonNegamax._negamax``, for every frame):
    # on entry alpha < beta, and the side to move cannot win with its next disc.
    # Returns v; with s the position's true score:
    #   v <= alpha (fail-low):  s <= v (alpha as raised by the known bounds, or the best
    #                           score still possible when that is lower);
    #   v >= beta  (fail-high): s >= v (the refuting child's score, or a known lower bound);
    #   alpha < v < beta:       s == v;
    #   v == STOPPED:           nothing is known; the table holds only true bounds still.
    # Inv: frame[d] is the node at stack depth d; while its children are searched,
    # low <= F_ALPHA < F_BETA <= high, and F_ALPHA only rises; every table word written
    # is a true bound of its position (lower <= s <= upper).  A long function for speed:
    # numba cannot cache a recursive one, so the recursion is this explicit stack.
    cells = params[P_CELLS]
    board_mask = params[P_BOARD]
    bottom_mask = params[P_BOTTOM]
    height = params[P_HEIGHT]
    connect = params[P_CONNECT]
    etc_below = params[P_ETC_BELOW]
    order_below = params[P_ORDER_BELOW]
    ncols = params[P_COLUMNS]
    reciprocal = 1.0 / slots  # for the slot and check of a key (see slot_and_check)
    frame = scratch[0]  # (depth, FIELDS): the stack's frames
    prio = scratch[1]  # ((64 - threats made) << 4 | rank), sorted
    wins = scratch[2]  # the threats a move makes (-1: not counted)
    nodes = state[STATE_NODES]
    limit = state[STATE_LIMIT]
    d = 0
    a_current, a_mask, a_played, a_alpha, a_beta, a_wins = current0, mask0, played0, alpha0, beta0, wins0
    value = 0
    while True:
        # -- enter a node (the arguments in a_*), at stack depth d ---------------------
        nodes += 1
        if nodes > limit:
            state[STATE_NODES] = nodes
            state[STATE_REASON] = REASON_NODE_LIMIT
            return STOPPED
        if (nodes & CHECK_MASK) == 0 and flag[0] != 0:
            state[STATE_NODES] = nodes
            state[STATE_REASON] = REASON_FLAG
            return STOPPED
        current, mask, played, alpha, beta = a_current, a_mask, a_played, a_alpha, a_beta
        opponent_wins = a_wins
        pushed = False
        done = False
        possible = (mask + bottom_mask) & board_mask
        if opponent_wins < 0:
            opponent_wins = threats(current ^ mask, board_mask ^ mask, height, connect, 1)
        forced = possible & opponent_wins
        moves = 0
        if forced:
            if forced & (forced - 1):  # two threats to block: lost next move
                value = -((cells - played) // 2)
                done = True
            else:
                possible = forced
        if not done:
            moves = possible & ~(opponent_wins >> 1)  # never under an opponent threat
            if moves == 0:
                value = -((cells - played) // 2)
                done = True
            elif played >= cells - 2:
                value = 0
                done = True
        if not done:
            low = -((cells - 2 - played) // 2)
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    value = alpha
                    done = True
        high = 0
        lower = 0
        upper = 0
        slot = 0
        check = 0
        first_rank = -1
        if not done:
            high = (cells - 1 - played) // 2
            slot, check = slot_and_check(current + mask, slots, reciprocal)
            entry = words[slot]
            if (entry >> 20) == check:
                lower = ((entry >> 8) & 255) - cells
                upper = (entry & 255) - cells
                first_rank = ((entry >> 16) & 15) - 1
                if alpha < lower:
                    alpha = lower
                    if alpha >= beta:
                        value = alpha
                        done = True
                if not done and upper < high:
                    high = upper
            else:
                lower = -cells
                upper = cells
        if not done and beta > high:
            beta = high
            if alpha >= beta:
                value = beta
                done = True
        if not done:
            # alpha < beta here, both inside the position's possible score range.
            opponent = current ^ mask
            frame[d, F_CURRENT] = current
            frame[d, F_MASK] = mask
            frame[d, F_PLAYED] = played
            frame[d, F_ALPHA] = alpha
            frame[d, F_BETA] = beta
            frame[d, F_LOWER] = lower
            frame[d, F_UPPER] = upper
            frame[d, F_SLOT] = slot
            frame[d, F_CHECK] = check
            frame[d, F_FIRST] = first_rank
            frame[d, F_MOVES] = moves
            if (moves & (moves - 1)) == 0:  # one move: nothing to order
                frame[d, F_MODE] = MODE_ONE
                a_current, a_mask, a_played = opponent, mask | moves, played + 1
                a_alpha, a_beta, a_wins = -beta, -alpha, -1
                pushed = True
            else:
                if played < etc_below:  # enhanced transposition cutoff
                    for rank in range(ncols):
                        move = moves & columns[rank]
                        if move:
                            child_slot, child_check = slot_and_check(opponent + (mask | move), slots, reciprocal)
                            child_entry = words[child_slot]
                            if (child_entry >> 20) == child_check and (child_entry & 255) - cells <= -beta:
                                score = cells - (child_entry & 255)
                                words[slot] = check << 20 | (max(score, lower) + cells) << 8 | (upper + cells)
                                value = score
                                done = True
                                break
                if not done:
                    count = 0
                    for rank in range(ncols):
                        move = moves & columns[rank]
                        if move:
                            if rank == first_rank:
                                item, made = rank, -1
                            elif played >= order_below:
                                item, made = (64 << 4) | rank, -1
                            else:
                                made = threats(current | move, board_mask ^ (mask | move), height, connect, 1)
                                item = ((64 - popcount(made)) << 4) | rank
                            i = count  # insertion sort: items are distinct (their ranks are)
                            while i > 0 and prio[d, i - 1] > item:
                                prio[d, i] = prio[d, i - 1]
                                wins[d, i] = wins[d, i - 1]
                                i -= 1
                            prio[d, i] = item
                            wins[d, i] = made
                            count += 1
                    frame[d, F_ALPHA_IN] = alpha
                    frame[d, F_BEST] = prio[d, 0] & 15
                    frame[d, F_COUNT] = count
                    frame[d, F_INDEX] = 0
                    frame[d, F_MODE] = MODE_LOOP
                    a_current, a_mask, a_played = opponent, mask | (moves & columns[prio[d, 0] & 15]), played + 1
                    a_alpha, a_beta, a_wins = -beta, -alpha, wins[d, 0]
                    pushed = True
        if pushed:
            d += 1
            continue
        # -- return ``value`` from depth d to its parents, until one pushes a child -------
        while True:
            if d == 0:
                state[STATE_NODES] = nodes
                return value
            d -= 1
            score = -value
            alpha = frame[d, F_ALPHA]
            beta = frame[d, F_BETA]
            lower = frame[d, F_LOWER]
            upper = frame[d, F_UPPER]
            slot = frame[d, F_SLOT]
            check = frame[d, F_CHECK]
            if frame[d, F_MODE] == MODE_ONE:
                if score >= beta:
                    words[slot] = check << 20 | (max(score, lower) + cells) << 8 | (upper + cells)
                    value = score
                elif score > alpha:
                    words[slot] = check << 20 | (score + cells) << 8 | (score + cells)
                    value = score
                else:
                    words[slot] = check << 20 | (lower + cells) << 8 | (min(alpha, upper) + cells)
                    value = alpha
                continue
            index = frame[d, F_INDEX]
            rank = prio[d, index] & 15
            if score >= beta:
                words[slot] = check << 20 | (rank + 1) << 16 | (max(score, lower) + cells) << 8 | (upper + cells)
                value = score
                continue
            if score > alpha:
                alpha = score
                frame[d, F_ALPHA] = alpha
                frame[d, F_BEST] = rank
            index += 1
            if index < frame[d, F_COUNT]:
                frame[d, F_INDEX] = index
                mask = frame[d, F_MASK]
                a_current = frame[d, F_CURRENT] ^ mask
                a_mask = mask | (frame[d, F_MOVES] & columns[prio[d, index] & 15])
                a_played = frame[d, F_PLAYED] + 1
                a_alpha, a_beta, a_wins = -beta, -alpha, wins[d, index]
                d += 1
                break
            best_rank = frame[d, F_BEST]
            if alpha > frame[d, F_ALPHA_IN]:  # an exact score inside the window
                words[slot] = check << 20 | (best_rank + 1) << 16 | (alpha + cells) << 8 | (alpha + cells)
            else:
                first_rank = frame[d, F_FIRST]
                keep = first_rank if first_rank >= 0 else best_rank
                words[slot] = check << 20 | (keep + 1) << 16 | (lower + cells) << 8 | (min(alpha, upper) + cells)
            value = alpha


# -- the machine code, as ``ai.solver`` calls it ----------------------------------------


class SolverKernel(LoadedKernel):
    """The solver's machine code as ``ai.solver`` calls it: ``kernel(words, slots, params,
    columns, state, flag, current, mask, played, alpha, beta, wins)``, ``negamax``'s
    arguments without its scratch rows (allocated here)."""

    def __call__(  # the solver's arrays, not raw addresses
        self,
        words: np.ndarray,
        slots: int,
        params: np.ndarray,
        columns: np.ndarray,
        state: np.ndarray,
        flag: np.ndarray,
        current: int,
        mask: int,
        played: int,
        alpha: int,
        beta: int,
        wins: int,
    ) -> int:
        depth = int(params[P_CELLS]) - int(played) + 2  # the most plies still to come, + 2
        scratch = np.zeros((3, depth, FIELDS), np.int64)
        words_p, params_p, columns_p, state_p, flag_p, scratch_p = addresses(
            words, params, columns, state, flag, scratch
        )
        result: int = self.entry(
            words_p, len(words), slots, params_p, columns_p, len(columns), state_p, flag_p, scratch_p, depth,
            current, mask, played, alpha, beta, wins,
        )  # fmt: skip
        return result


def c_entry(search: Any, carray: Any) -> Any:
    """The C-callable entry ``ai.compiled.kernel_file`` compiles: ``negamax`` over plain pointers."""

    def entry(  # type: ignore[no-untyped-def]
        words_p, n_words, slots, params_p, columns_p, n_columns, state_p, flag_p, scratch_p, depth, c, m, p, a, b, w
    ):
        return search(
            carray(words_p, (n_words,)),
            slots,
            carray(params_p, (PARAMS,)),
            carray(columns_p, (n_columns,)),
            carray(state_p, (3,)),
            carray(flag_p, (1,)),
            carray(scratch_p, (3, depth, FIELDS)),
            c,
            m,
            p,
            a,
            b,
            w,
        )

    return entry


SPEC = KernelSpec(
    name="solver",
    core=sys.modules[__name__],
    entry="negamax",
    helpers=("slot_and_check",),
    wrapper=c_entry,
    args="piippipppiiiiiii",
    loaded=SolverKernel,
)
"""What ``ai.compiled.kernel_file`` compiles from this module, and the entry's arguments
(p: a pointer to int64s, i: an int64)."""

LOADER = KernelLoader(SPEC, "solver")
"""The kernel of this process: ``LOADER.kernel()`` loads it on first use (about 0.05 s;
the first start compiles it, 5-15 s), ``LOADER.prepare_in_background()`` ahead of time."""
