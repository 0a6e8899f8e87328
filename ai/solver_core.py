"""The compiled core of the exact solver: ``ai.solver``'s negamax, node for node, in numba.

``ai.solver.Solver`` calls :func:`kernel` for every search that reaches no opening book
(from 13 discs on the standard board, every search on other boards) and falls back to
its own pure-Python negamax, the reference, when the kernel is not there.  The search
here is the same one: the same move order, the same transposition-table words (the
numpy array of ``ai.solver.TranspositionTable``, shared by both paths), the same node
count; only the recursion is an explicit stack, because numba cannot load a cached
recursive function (numba issue 6061: a crash on the second run).

Loading rules (for the window's worker and every other caller):

- ``CONNECT4_PURE_PYTHON=1`` forces the Python path (nothing here loads llvmlite or numba).
- The search is compiled once by numba into machine code that ``ai.kernel_file`` keeps in
  a folder the game owns under the user's cache folder (``$XDG_CACHE_HOME/connect4/solver``
  or ``~/.cache/connect4/solver`` on Linux, ``~/Library/Caches/connect4/solver`` on macOS,
  ``%LOCALAPPDATA%\\connect4\\cache\\solver`` on Windows), never beside the code.  Later
  processes load that file with llvmlite alone (about 0.05 s; numba is not imported).
- A kernel file that is damaged or was built for another source, CPU or llvmlite is
  built again; one that cannot be saved (a read-only folder, a file where the folder
  should be) is compiled again by the next process.  Either is one warning.  A valid
  file in a read-only folder is simply used.
- No llvmlite, no numba where a build is needed, or any failure while building or
  loading, means the Python path and one warning (``logging``, once per process: one
  line on stderr where logging is not configured).  Never a traceback.

API:

    prepare()               # load the kernel file (about 0.05 s), or compile and save it
                            # (the first start: 5-15 s); blocks; safe from a background
                            # thread; True when compiled
    prepare_in_background() # the same in a daemon thread; solves use Python until it is done
    is_ready()              # True once the compiled search can be used (never blocks)
    status()                # one line for the user: "preparing the fast solver (first start only)"
    kernel()                # the compiled negamax, or None (prepares first, unless a
                            # background preparation is under way)
    kernel_path()           # the kernel file in use or tried (None before ``prepare``)

The functions below run as plain Python too (slowly); ``ai.kernel_file.build`` compiles
them, leaving this module's names as they are.
"""

from __future__ import annotations

import logging
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import numpy.typing as npt

LOG = logging.getLogger(__name__)

PURE_PYTHON_ENV = "CONNECT4_PURE_PYTHON"
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
Kernel = Callable[[Int64Array, int, Int64Array, Int64Array, Int64Array, Int64Array, int, int, int, int, int, int], int]
"""The compiled search as ``kernel()`` hands it out: ``negamax``'s arguments without its
scratch rows (table, slots, params, columns, state, stop flag, side to move's discs, all
discs, discs played, alpha, beta, opponent's threats)."""

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


def cache_folder() -> Path:
    """The game's folder for the compiled solver, under the user's cache folder."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
        return Path(base) / "connect4" / "cache" / "solver"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "connect4" / "solver"
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "connect4" / "solver"


def pure_python_forced() -> bool:
    """True when ``CONNECT4_PURE_PYTHON`` asks for the Python path."""
    return os.environ.get(PURE_PYTHON_ENV, "").strip() not in ("", "0")


# -- the search (plain Python until ``prepare`` compiles it) -----------------------------


def popcount(bits: int) -> int:
    """Number of set bits (few in the callers: threat cells)."""
    count = 0
    while bits:
        bits &= bits - 1
        count += 1
    return count


def threats(p: int, empty: int, height: int, connect: int) -> int:
    """The empty cells that complete a run of ``connect`` of ``p`` (gravity: vertical
    runs only on top); ``ai.bitboard``'s generated function, for any ``connect``."""
    if connect == 4:
        r = (p << 1) & (p << 2) & (p << 3)
        for step in (height, height - 1, height + 1):
            b1 = p << step
            b2 = b1 & (p << 2 * step)
            a1 = p >> step
            a2 = a1 & (p >> 2 * step)
            r |= (b2 & (p << 3 * step)) | (b2 & a1) | (b1 & a2) | (a2 & (p >> 3 * step))
        return r & empty
    r = p << 1
    for i in range(2, connect):
        r &= p << i
    for step in (height, height - 1, height + 1):
        for below in range(connect):
            m = -1
            for i in range(1, below + 1):
                m &= p << (i * step)
            for i in range(1, connect - below):
                m &= p >> (i * step)
            r |= m
    return r & empty


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
            opponent_wins = threats(current ^ mask, board_mask ^ mask, height, connect)
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
                                made = threats(current | move, board_mask ^ (mask | move), height, connect)
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


# -- loading -----------------------------------------------------------------------------

_lock = threading.Lock()
_state = "new"  # new, preparing, ready, failed
_background: threading.Thread | None = None
_warned = False
_path: Path | None = None
_compiled: Kernel | None = None


def _warn(reason: str) -> None:
    """Say once per process that the Python path is used, and why."""
    global _warned
    if _warned:
        return
    _warned = True
    LOG.warning("the fast (compiled) solver is not available (%s): using the slower pure-Python solver", reason)


def _load() -> Kernel:
    """The compiled search from its kernel file, or built (and saved) now.

    Raises:
        ImportError: no llvmlite, or no numba where a build is needed.
        Exception: numba or llvmlite failed.
    """
    global _path
    from ai import kernel_file

    prepared = kernel_file.load_or_build(sys.modules[__name__], cache_folder())
    _path = prepared.path
    if prepared.problem:
        LOG.warning("the compiled solver's cache: %s", prepared.problem)
    return prepared.kernel


def kernel_path() -> Path | None:
    """The kernel file in use, or the one tried last (None before ``prepare``)."""
    return _path


def prepare() -> bool:
    """Load the compiled search, or compile and save it; True when the compiled path is ready.

    Blocks (the first start of an install: several seconds); safe to call from any
    thread, and again (later calls return at once).  False means the Python path: forced
    by ``CONNECT4_PURE_PYTHON``, or no llvmlite or numba, or a failure (warned once).
    """
    global _state, _compiled
    if pure_python_forced():
        return False
    with _lock:
        if _state == "ready":
            return True
        if _state == "failed":
            return False
        _state = "preparing"
        try:
            _compiled = _load()
        except ImportError as error:
            _state = "failed"
            _warn(f"numba or llvmlite is not installed: {error}")
            return False
        except Exception as error:  # numba, llvmlite or the file system: never a traceback
            _state = "failed"
            _warn(f"{type(error).__name__}: {error}")
            return False
        _state = "ready"
        return True


def prepare_in_background() -> threading.Thread:
    """Start ``prepare`` in a daemon thread (once); until it ends, solves use Python."""
    global _background
    with _lock:
        if _background is None:
            _background = threading.Thread(target=prepare, name="prepare-fast-solver", daemon=True)
            _background.start()
        return _background


def is_ready() -> bool:
    """True when the compiled search is in use (never blocks)."""
    return _state == "ready" and not pure_python_forced()


def status() -> str:
    """One line for the user about the fast solver."""
    if pure_python_forced():
        return "pure-Python solver (CONNECT4_PURE_PYTHON is set)"
    return {
        "new": "fast solver not loaded yet",
        "preparing": "preparing the fast solver (first start only)",
        "ready": "fast solver ready",
        "failed": "fast solver unavailable: using the slower pure-Python solver",
    }[_state]


def kernel() -> Kernel | None:
    """The compiled negamax, or None for the Python path.

    Prepares it first (blocking) unless a background preparation is under way, in which
    case the caller uses Python until it is done.
    """
    if pure_python_forced():
        return None
    if _state == "ready":
        return _compiled
    background = _background
    if background is not None and background.is_alive():
        return None
    return _compiled if prepare() else None
