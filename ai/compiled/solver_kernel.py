"""The exact solver's kernel: ``ai.solver``'s negamax, node for node, compiled by numba.

``ai.solver.Solver`` calls ``LOADER.kernel()`` for every search of a board whose positions
fit 64 bits and falls back to its own pure-Python negamax, the reference, when the kernel
is not there.  It is the same search, node for node (the contract, and the tests that hold
it: ``ai.compiled``), on the same table (the numpy array of ``ai.tables.TranspositionTable``);
only the recursion is an explicit stack, because numba cannot load a cached recursive
function (numba issue 6061: a crash on the second run).  On the standard board it reads
the opening book a search stops at itself (``book_score``: the 8-ply book in a weak
search, the 12-ply distance book in an exact one), from the mapped file and its sparse
index (``ai.book.OpeningBook.searched_view``), as ``ai.book`` reads them.

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
from ai.compiled.kernel_file import KernelLoader, KernelSpec, LoadedKernel, addresses, byte_address

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
(
    P_CELLS,
    P_BOARD,
    P_BOTTOM,
    P_HEIGHT,
    P_CONNECT,
    P_ETC_BELOW,
    P_ORDER_BELOW,
    P_COLUMNS,
    P_BOOK_PLIES,
    P_BOOK_RECORD,
) = range(10)
PARAMS = 10
"""``params[P_BOOK_PLIES]``: the disc count at which the book answers (8 or 12 on the standard
board, -1: none); ``params[P_BOOK_RECORD]``: its file's bytes a record (3 or 5)."""
BOOK_BLOCK = 1024
"""Records between two keys of a book's sparse index (``ai.book.BLOCK``)."""
NOT_IN_BOOK = -(1 << 40)
"""What a book look-up gives for a position the book does not hold."""

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


def book_code(first: int, mask: int, height: int, ncols: int, mirror: bool) -> int:
    """The Huffman key of a standard-board position (``ai.book.huffman_key``): each column
    from the left (from the right: ``mirror``) bottom up, ``10`` a first-player disc, ``11``
    a second-player one, ``0`` the column's end, and one ``0`` more at the very end."""
    code = 0
    full = (1 << height) - 1
    for index in range(ncols):
        shift = (ncols - 1 - index if mirror else index) * height
        column = (mask >> shift) & full
        own = (first >> shift) & full
        row = 0
        while (column >> row) & 1:
            code = (code << 2) | (2 if (own >> row) & 1 else 3)
            row += 1
        code <<= 1
    return code << 1


def record_key(data: npt.NDArray[np.uint8], record: int, size: int) -> int:
    """The key of record ``record`` of a book file's bytes (``ai.book``'s layouts): a 3-byte
    record (the 8-ply book) is big-endian with its value in the low two bits, a 5-byte one
    (the 12-ply distance book) a signed big-endian 4-byte key and a value byte."""
    at = record * size
    if size == 3:
        return ((int(data[at]) << 16) | (int(data[at + 1]) << 8) | int(data[at + 2])) & ~3
    key = (int(data[at]) << 24) | (int(data[at + 1]) << 16) | (int(data[at + 2]) << 8) | int(data[at + 3])
    return key - (1 << 32) if key >= 1 << 31 else key


def book_lookup(index: Int64Array, data: npt.NDArray[np.uint8], size: int, key: int) -> int:
    """The value code stored with ``key`` in a book file, or ``NOT_IN_BOOK``: the block the
    sparse ``index`` (every ``BOOK_BLOCK``-th record's key) points to, searched by halves
    (``ai.book.OpeningBook._find``).  A 3-byte record's code is its low two bits (1 a loss
    for the first player), a 5-byte record's its signed last byte."""
    low, high = 0, len(index)  # the last block whose first key is not above ``key``
    while low < high:
        middle = (low + high) // 2
        if index[middle] <= key:
            low = middle + 1
        else:
            high = middle
    if low == 0:
        return NOT_IN_BOOK
    start = (low - 1) * BOOK_BLOCK
    low, high = start, min(start + BOOK_BLOCK, len(data) // size)
    while low < high:  # the first record whose key is not below ``key``
        middle = (low + high) // 2
        if record_key(data, middle, size) < key:
            low = middle + 1
        else:
            high = middle
    if low == start + BOOK_BLOCK or low * size >= len(data) or record_key(data, low, size) != key:
        return NOT_IN_BOOK
    if size == 3:
        return int(data[low * size + 2]) & 3
    value = int(data[low * size + 4])
    return value - 256 if value >= 128 else value


def book_score(
    index: Int64Array, data: npt.NDArray[np.uint8], size: int, first: int, mask: int, height: int, ncols: int
) -> int:
    """The book's score of a standard-board position of its discs (the first player to move),
    tried as it is and as its mirror image (``ai.book.OpeningBook.score``): the 8-ply book's
    1/0/-1 (a position it leaves out is a win), the 12-ply distance book's exact score, or
    ``NOT_IN_BOOK`` (that book leaves out some positions: the search goes on)."""
    for mirror in (False, True):
        key = book_code(first, mask, height, ncols, mirror)
        if size == 5 and key >= 1 << 31:  # the 12-ply files store signed 32-bit keys
            key -= 1 << 32
        found = book_lookup(index, data, size, key)
        if found != NOT_IN_BOOK:
            if size == 3:
                return -found  # 0 a draw, 1 a loss for the first player
            if found == 0:
                return 0
            played = popcount(mask)
            half = (height - 1) * ncols // 2
            if found > 0:  # the first player wins ``100 - found`` plies from now
                return half + 1 - (played + 100 - found + 1) // 2
            return -(half + 1 - (played + 100 + found) // 2)
    return 1 if size == 3 else NOT_IN_BOOK


def negamax(
    words: Int64Array,
    slots: int,
    params: Int64Array,
    columns: Int64Array,
    state: Int64Array,
    flag: Int64Array,
    scratch: Int64Array,
    book_index: Int64Array,
    book: npt.NDArray[np.uint8],
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
    book_plies = params[P_BOOK_PLIES]
    book_record = params[P_BOOK_RECORD]
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
        moves = 0
        if played == book_plies:  # the opening book's score ends the node, where it has one
            found = book_score(book_index, book, book_record, current, mask, height, ncols)
            if found != NOT_IN_BOOK:
                value = found
                done = True
        possible = (mask + bottom_mask) & board_mask
        if not done:
            if opponent_wins < 0:
                opponent_wins = threats(current ^ mask, board_mask ^ mask, height, connect, 1)
            forced = possible & opponent_wins
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
    columns, state, flag, book_index, book, current, mask, played, alpha, beta, wins)``, ``negamax``'s
    arguments without its scratch rows (allocated here)."""

    def __call__(  # the solver's arrays, not raw addresses
        self,
        words: np.ndarray,
        slots: int,
        params: np.ndarray,
        columns: np.ndarray,
        state: np.ndarray,
        flag: np.ndarray,
        book_index: np.ndarray,
        book: np.ndarray,
        current: int,
        mask: int,
        played: int,
        alpha: int,
        beta: int,
        wins: int,
    ) -> int:
        depth = int(params[P_CELLS]) - int(played) + 2  # the most plies still to come, + 2
        scratch = np.zeros((3, depth, FIELDS), np.int64)
        words_p, params_p, columns_p, state_p, flag_p, scratch_p, index_p = addresses(
            words, params, columns, state, flag, scratch, book_index
        )
        book_p = byte_address(book)
        result: int = self.entry(
            words_p, len(words), slots, params_p, columns_p, len(columns), state_p, flag_p, scratch_p, depth,
            index_p, len(book_index), book_p, len(book), current, mask, played, alpha, beta, wins,
        )  # fmt: skip
        return result


def c_entry(search: Any, carray: Any) -> Any:
    """The C-callable entry ``ai.compiled.kernel_file`` compiles: ``negamax`` over plain pointers."""

    def entry(  # type: ignore[no-untyped-def]
        words_p, n_words, slots, params_p, columns_p, n_columns, state_p, flag_p, scratch_p, depth, index_p, n_index,
        book_p, n_book, c, m, p, a, b, w,
    ):  # fmt: skip
        return search(
            carray(words_p, (n_words,)),
            slots,
            carray(params_p, (PARAMS,)),
            carray(columns_p, (n_columns,)),
            carray(state_p, (3,)),
            carray(flag_p, (1,)),
            carray(scratch_p, (3, depth, FIELDS)),
            carray(index_p, (n_index,)),
            carray(book_p, (n_book,)),
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
    helpers=("slot_and_check", "book_code", "record_key", "book_lookup", "book_score"),
    wrapper=c_entry,
    args="piippipppipibiiiiiii",
    loaded=SolverKernel,
)
"""What ``ai.compiled.kernel_file`` compiles from this module, and the entry's arguments
(p: a pointer to int64s, b: a pointer to bytes, i: an int64)."""

LOADER = KernelLoader(SPEC, "solver")
"""The kernel of this process: ``LOADER.kernel()`` loads it on first use (about 0.05 s;
the first start compiles it, 5-15 s), ``LOADER.prepare_in_background()`` ahead of time."""
