"""An exact solver for CLASSIC gravity boards: the perfect-play score of a position.

The score convention is the one of the public benchmark files (``ai/data/positions/``,
described in ``ai/data/README.md``): from the side to move, a win scores ``cells / 2 + 1``
minus the number of discs the winner has played when the game ends (22 - discs on 6x7), a
loss the negative of that, a draw 0.

The method is Pascal Pons' (blog.gamesolver.org): negamax over bitboards with
- only non-losing moves generated (never a move that lets the opponent win at once,
  and a forced block when the opponent threatens),
- moves tried by how many threats they create, centre first on ties (the best move
  the table remembers first),
- a transposition table of upper and lower bounds, in a fixed number of slots (one
  packed int each), read before the children are searched (enhanced transposition
  cutoffs),
- null-window searches that narrow the score range (iterative deepening on the score).

On the standard board the search stops at the opening books of ``ai.book``: at 12 discs
the exact score comes from the 12-ply book with win distances (and, in weak mode, at 8
discs the win/draw/loss comes from the 8-ply book).  The transposition table is kept
between calls (its entries are true bounds of a position's score, whatever the root),
so a player object that solves one position after another reuses its work: a proof
that a move wins holds, for every reply, the winning answer two plies on.  ``best_move``
searches the root like any node and names the move that reached the score.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ai.bitboard import Geometry, fits_compiled, geometry
from ai.book import EARLY_PLIES, BookError, BookFile, book, canonical_key, early_scores
from ai.compiled import solver_kernel
from ai.tables import SIGN_TABLE_SLOTS, TABLE_SLOTS, TABLES, WIDE_TABLE_SLOTS, TranspositionTable
from game.notation import parse_moves
from game.rules import MAX, Mode, Rules


class SolverError(ValueError):
    """A position the solver cannot take (wrong rules, or the game is already over)."""


class SolverStopped(Exception):
    """``should_stop`` asked the solver to give up, or its time or node budget ran out."""


@dataclass(frozen=True)
class Solution:
    """A solved position: ``score`` from the side to move, and the work it took."""

    score: int
    nodes: int


@dataclass(frozen=True)
class SolverProgress:
    """A report during a solve: the score is known to lie in ``[low, high]``."""

    low: int
    high: int
    nodes: int
    seconds: float


SolverProgressCallback = Callable[[SolverProgress], None]


@dataclass(frozen=True)
class SolveLimit:
    """What one solve may spend, and how much it must find out: the solver's budget, in
    the style of python-chess's ``engine.Limit``, passed as ``limit=`` to every entry point.

    ``weak`` asks only for win/draw/loss (1/0/-1): enough to choose a perfect move, faster.
    ``time`` is seconds and ``nodes`` solver nodes before giving up (``SolverStopped`` as the
    search enters node ``nodes + 1``: the same node on every machine, compiled or not);
    ``should_stop`` is polled every few thousand nodes, and True gives up.  None is no limit.
    """

    weak: bool = False
    time: float | None = None
    nodes: int | None = None
    should_stop: Callable[[], bool] | None = None


NO_LIMIT = SolveLimit()
"""An exact solve (not weak) that runs until it is done."""
CHECK_EVERY = 2048
"""Nodes between two looks at the clock and the stop request (a power of two)."""
CHECK_MASK = CHECK_EVERY - 1
ETC_EMPTY = 6
"""With more empty cells than this a node first looks its children up in the table: one
already known to refute the window cuts at once (an enhanced transposition cutoff)."""
ORDER_EMPTY = 10
"""With more empty cells than this, moves are ordered by the threats they make; nearer
the end the subtrees are too small to pay for counting them, and centre first is kept."""
BOOK_PLIES = 12
"""Discs of the positions of the exact opening book."""
NEAR_BOOK = 3
"""A search this many discs or fewer from the book it stops at takes a few hundred nodes at
most: where the compiled search is not loaded yet, the Python one runs it rather than load
it (about 0.05 s), so a question the books answer loads neither llvmlite nor numba."""
NO_BOOK = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint8))
"""The compiled search's book (index, bytes) where it reads none."""
WEAK_BOOK_PLIES = 8
"""Discs of the positions of the win/draw/loss book used in weak mode."""


def _trunc_half(value: int) -> int:
    """``value / 2`` rounded toward zero, as C does (the method's arithmetic)."""
    return int(value / 2)


@dataclass(frozen=True)
class MoveSolution:
    """A solved position and a move that reaches its score (``move``: 0-based column)."""

    score: int
    move: int
    nodes: int


@dataclass(frozen=True)
class Analysis:
    """The scores of a position's playable columns (``Solver.analyze``).

    ``scores`` maps each 0-based column looked at, centre first, to the score of playing
    it for the side to move (its outcome 1/0/-1 in a weak look); ``nodes`` is the work
    it took; ``stopped`` says why the look ended before every column was scored (the
    time or the nodes ran out, or ``should_stop`` said so), None when it finished.
    """

    scores: dict[int, int]
    nodes: int
    stopped: SolverStopped | None = None

    def complete(self) -> dict[int, int]:
        """The scores of a finished look.

        Raises:
            SolverStopped: the look was cut short.
        """
        if self.stopped is not None:
            raise self.stopped
        return self.scores


class PythonNegamax:
    """The reference search in plain Python: the negamax that ``ai.compiled.solver_kernel`` compiles
    node for node, and what ``Solver`` runs when the compiled core is missing or
    ``pure_python`` is asked for.  Its state (tables, counters, the board's bit masks)
    is the ``Solver``'s own: this class holds the search, ``Solver`` the rest.
    """

    # The solver's state the search reads (set up by ``Solver.__init__`` and its calls).
    rules: Rules
    geo: Geometry
    cells: int
    nodes: int
    _order: tuple[int, ...]
    _columns: list[int]
    _board_mask: int
    _bottom_mask: int
    _threats: Callable[[int, int], int]
    _etc_below: int
    _order_below: int
    _item_shift: int
    _words: list[int] | memoryview
    _slots: int
    _check_at: int
    _book_plies: int
    _book_score: Callable[[int, int], int | None] | None

    def table(self, sign_scale: bool = False) -> TranspositionTable:
        raise NotImplementedError

    def _poll(self, nodes: int) -> None:
        raise NotImplementedError

    def _search(self, current: int, mask: int, played: int, alpha: int, beta: int) -> int:
        raise NotImplementedError

    def _column(self, col: int) -> int:
        return ((1 << self.rules.rows) - 1) << (col * self.geo.height)

    def _possible(self, mask: int) -> int:
        return (mask + self.geo.bottom_mask) & self.geo.board_mask

    def _root(self, current: int, mask: int, played: int, alpha: int, beta: int) -> tuple[int, int]:
        """The negamax of the root, also naming a column: (value, column).

        The value has the meaning of ``_negamax``'s; when it is above ``alpha`` the column
        reaches at least it.  Columns that lose at once or fill the board are scored
        without a search, and tried last.  The side to move cannot win at once.
        """
        cells = self.cells
        board_mask = self._board_mask
        threats = self._threats
        possible = (mask + self._bottom_mask) & board_mask
        opponent = current ^ mask
        entry = self.table(sign_scale=self._book_plies == WEAK_BOOK_PLIES).lookup(current + mask)
        first_rank = -1 if entry is None else entry[2]
        searched: list[tuple[int, int, int]] = []  # (order key, rank, move)
        decided: list[tuple[int, int]] = []  # (value, rank)
        for rank, column in enumerate(self._columns):
            move = possible & column
            if not move:
                continue
            after = mask | move
            if after.bit_count() == cells:
                decided.append((0, rank))
            elif threats(opponent, board_mask ^ after) & ((after + self._bottom_mask) & board_mask):
                decided.append((-((cells - played) // 2), rank))
            else:
                count = threats(current | move, board_mask ^ after).bit_count()
                searched.append((-99 if rank == first_rank else -count, rank, move))
        searched.sort()
        best_value, best_rank = -cells - 1, -1
        for _, rank, move in searched:
            score = -self._search(opponent, mask | move, played + 1, -beta, -alpha)
            if score > best_value:
                best_value, best_rank = score, rank
            if score >= beta:
                return score, self._order[rank]
            if score > alpha:
                alpha = score
        for score, rank in decided:
            if score > best_value:
                best_value, best_rank = score, rank
            if score >= beta:
                break
        return best_value, self._order[best_rank]

    def _negamax(self, current: int, mask: int, played: int, alpha: int, beta: int, opponent_wins: int = -1) -> int:
        """Score of the position for the side to move, within (alpha, beta).

        ``opponent_wins``: the opponent's threat cells where the parent already counted
        them to order its moves (-1: not known).
        Table entries are read and written inline (layout: ``TranspositionTable``).
        """
        # Contract (Pons' negamax; ``ai.compiled.solver_kernel.negamax`` is the same, node for node).
        # On entry: alpha < beta, and the side to move cannot win with its next disc.
        # Returns v; with s the position's true score:
        #   v <= alpha (fail-low):  s <= v; v is alpha (as raised by the bounds below), or
        #                           the position's best possible score when that is lower;
        #   v >= beta  (fail-high): s >= v; v is the refuting child's score (may pass beta),
        #                           or a lower bound already known (table, worst possible);
        #   alpha < v < beta:       s == v.
        # Inv: low <= alpha < beta <= high while children are searched ([low, high]: the
        # scores this position can still have, narrowed by its table entry), and every
        # table entry written is a true bound: lower <= s <= upper.
        nodes = self.nodes + 1
        self.nodes = nodes
        if nodes >= self._check_at:
            self._poll(nodes)
        if played == self._book_plies:
            assert self._book_score is not None
            known = self._book_score(current, mask)
            if known is not None:
                return known
        cells = self.cells
        board_mask = self._board_mask
        possible = (mask + self._bottom_mask) & board_mask
        if opponent_wins < 0:
            opponent_wins = self._threats(current ^ mask, board_mask ^ mask)
        forced = possible & opponent_wins
        if forced:
            if forced & (forced - 1):  # two threats to block: lost next move
                return -((cells - played) // 2)
            possible = forced
        moves = possible & ~(opponent_wins >> 1)  # never play under an opponent threat
        if not moves:
            return -((cells - played) // 2)
        if played >= cells - 2:
            return 0  # neither side can win with the last two discs
        low = -((cells - 2 - played) // 2)
        if alpha < low:
            alpha = low
            if alpha >= beta:
                return alpha
        high = (cells - 1 - played) // 2
        key = current + mask
        slots = self._slots
        slot = key % slots
        check = key // slots + 1
        words = self._words
        entry = words[slot]
        first_rank = -1
        if entry >> 20 == check:  # (lower bound, upper bound, best move's rank + 1)
            lower = (entry >> 8 & 255) - cells
            upper = (entry & 255) - cells
            first_rank = (entry >> 16 & 15) - 1
            if alpha < lower:
                alpha = lower
                if alpha >= beta:
                    return alpha
            if upper < high:
                high = upper
        else:
            lower, upper = -cells, cells
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta
        # alpha < beta here, both inside the position's possible score range.
        next_played = played + 1
        opponent = current ^ mask
        if not moves & (moves - 1):  # one move: nothing to order
            score = -self._negamax(opponent, mask | moves, next_played, -beta, -alpha)
            if score >= beta:
                words[slot] = check << 20 | (max(score, lower) + cells) << 8 | (upper + cells)
                return score
            if score > alpha:
                words[slot] = check << 20 | (score + cells) << 8 | (score + cells)
                return score
            words[slot] = check << 20 | (lower + cells) << 8 | (min(alpha, upper) + cells)
            return alpha
        columns = self._columns
        if played < self._etc_below:  # enhanced transposition cutoff: a child the table already refutes
            for column in columns:
                move = moves & column
                if move:
                    child = opponent + (mask | move)
                    child_entry = words[child % slots]
                    if child_entry >> 20 == child // slots + 1 and (child_entry & 255) - cells <= -beta:
                        score = cells - (child_entry & 255)
                        words[slot] = check << 20 | (max(score, lower) + cells) << 8 | (upper + cells)
                        return score
        threats = self._threats
        # Each item: ((64 - threats the move makes) << 4 | rank) << shift | (those threats + 1),
        # so the sort orders by threats made, then centre first; the remembered best move
        # first; 0 in the low bits where the threats were not counted.
        shift = self._item_shift
        order = []
        rank = 0
        for column in columns:
            move = moves & column
            if move:
                if rank == first_rank:
                    order.append(rank << shift)
                elif played >= self._order_below:
                    order.append((64 << 4 | rank) << shift)
                else:
                    made = threats(current | move, board_mask ^ (mask | move))
                    order.append(((64 - made.bit_count()) << 4 | rank) << shift | (made + 1))
            rank += 1
        order.sort()
        alpha_in = alpha
        best_rank = order[0] >> shift & 15
        low_bits = (1 << shift) - 1
        for item in order:
            rank = item >> shift & 15
            score = -self._negamax(
                opponent, mask | (moves & columns[rank]), next_played, -beta, -alpha, (item & low_bits) - 1
            )
            if score >= beta:
                words[slot] = check << 20 | (rank + 1) << 16 | (max(score, lower) + cells) << 8 | (upper + cells)
                return score
            if score > alpha:
                alpha = score
                best_rank = rank
        if alpha > alpha_in:  # an exact score inside the window
            words[slot] = check << 20 | (best_rank + 1) << 16 | (alpha + cells) << 8 | (alpha + cells)
        else:
            keep = first_rank if first_rank >= 0 else best_rank
            words[slot] = check << 20 | (keep + 1) << 16 | (lower + cells) << 8 | (min(alpha, upper) + cells)
        return alpha


class LimitedSearch(PythonNegamax):
    """One call's limits (a node budget, a deadline, a stop request) and where its searches
    run: compiled (``ai.compiled.solver_kernel``) where the core takes them, else ``PythonNegamax``.
    Its state is the ``Solver``'s own, like ``PythonNegamax``'s.
    """

    _should_stop: Callable[[], bool] | None
    _deadline: float | None
    _node_limit: int
    _array: np.ndarray | None
    _core_params: np.ndarray | None
    _core_columns: np.ndarray
    _core_state: np.ndarray
    _stop_flag: np.ndarray
    _watch: _Watch | None
    _book_view: tuple[np.ndarray, np.ndarray]
    _book_record: int
    _table: TranspositionTable | None
    busy: bool

    def _poll(self, nodes: int) -> None:
        """Give up past the node limit; every ``CHECK_EVERY`` nodes, on a stop request or
        past the deadline.  Both paths stop at the same node for the same node limit."""
        if nodes > self._node_limit:
            raise SolverStopped("the solver's node budget ran out")
        if not nodes & CHECK_MASK:
            if self._should_stop is not None and self._should_stop():
                raise SolverStopped("the solve was cancelled")
            if self._deadline is not None and time.perf_counter() > self._deadline:
                raise SolverStopped("the solver's time budget ran out")
        self._check_at = min((nodes | CHECK_MASK) + 1, self._node_limit + 1)

    def _start(self, limit: SolveLimit) -> None:
        """Set up the limits of one call (its node count starts at 0).

        The compiled search is loaded only when a search past the book needs it (in
        ``_search``): a question the books answer costs no llvmlite and no numba.
        """
        if limit.nodes is not None and limit.nodes < 0:
            raise ValueError(f"the node limit must be at least 0, not {limit.nodes}")
        self.nodes = 0
        self.busy = True
        self._should_stop = limit.should_stop
        self._deadline = None if limit.time is None else time.perf_counter() + limit.time
        self._node_limit = solver_kernel.NO_LIMIT if limit.nodes is None else limit.nodes
        self._check_at = min(CHECK_EVERY, self._node_limit + 1)
        self._stop_flag[0] = 0

    def _finish(self) -> None:
        """Forget the limits of the call; stop its watchdog."""
        self.busy = False
        self._should_stop = None
        self._deadline = None
        self._node_limit = solver_kernel.NO_LIMIT
        if self._watch is not None:
            _WATCHDOG.unwatch(self._watch)
            self._watch = None

    @property
    def compiled(self) -> bool:
        """True when searches without a book run compiled (``ai.compiled.solver_kernel``) here."""
        return self._core_params is not None and solver_kernel.LOADER.is_ready()

    def _search(self, current: int, mask: int, played: int, alpha: int, beta: int) -> int:
        """``_negamax`` from a root: compiled where it can be, counted in ``self.nodes``."""
        if self._table is not None:
            self._table.written()
        array, params = self._array, self._core_params
        if array is None or params is None:
            return self._negamax(current, mask, played, alpha, beta)
        if 0 <= self._book_plies - played <= NEAR_BOOK and not solver_kernel.LOADER.is_ready():
            return self._negamax(current, mask, played, alpha, beta)  # a few hundred nodes: no kernel to load for them
        loading = None if solver_kernel.LOADER.is_ready() else time.perf_counter()
        run = solver_kernel.LOADER.kernel()
        if loading is not None and self._deadline is not None:  # its one-time cost is not the call's
            self._deadline += time.perf_counter() - loading
        if run is None:
            return self._negamax(current, mask, played, alpha, beta)
        if self._watch is None and (self._should_stop is not None or self._deadline is not None):
            self._watch = _WATCHDOG.watch(self._stop_flag, self._should_stop, self._deadline)
        state = self._core_state
        state[solver_kernel.STATE_NODES] = self.nodes
        state[solver_kernel.STATE_LIMIT] = self._node_limit
        state[solver_kernel.STATE_REASON] = 0
        flag = self._stop_flag
        params[solver_kernel.P_BOOK_PLIES] = self._book_plies  # the book of ``_book_view``, or none (-1)
        params[solver_kernel.P_BOOK_RECORD] = self._book_record
        columns, (index, book) = self._core_columns, self._book_view
        value = run(
            array, self._slots, params, columns, state, flag, index, book, current, mask, played, alpha, beta, -1
        )
        self.nodes = int(state[solver_kernel.STATE_NODES])
        if value == solver_kernel.STOPPED:
            if state[solver_kernel.STATE_REASON] == solver_kernel.REASON_NODE_LIMIT:
                raise SolverStopped("the solver's node budget ran out")
            watch = self._watch
            if watch is not None and watch.reason == "time":
                raise SolverStopped("the solver's time budget ran out")
            raise SolverStopped("the solve was cancelled")
        return int(value)


class Solver(LimitedSearch):
    """Solves positions of one rule set; keeps its transposition tables between calls.

    ``use_book`` (default: on the standard board) stops the search at the opening books.
    The tables hold true bounds of position scores whatever the root, so a player that
    solves one position after another (the moves of a game) reuses what earlier proofs
    learned; they have a fixed number of slots (``table_slots``).  They live in the
    process's one table memory (``ai.tables.TABLES``): a new solver starts from empty
    tables, and one whose memory another solver used in between starts empty again
    (``own_table``: tables of its own, kept whatever other solvers do).

    Searches that reach no book run compiled (``ai.compiled.solver_kernel``) when numba is there,
    else (or with ``pure_python``) in this module's ``_negamax``: the same nodes, the
    same answers.  ``SolveLimit.nodes`` stops a call at the same node on every machine.
    """

    def __init__(
        self,
        rules: Rules,
        *,
        use_book: bool | None = None,
        table_slots: int = TABLE_SLOTS,
        pure_python: bool = False,
        own_table: bool = False,
    ):
        if rules.mode is not Mode.CLASSIC or not rules.gravity:
            raise SolverError("the exact solver needs CLASSIC rules with gravity")
        standard = (rules.rows, rules.cols, rules.connect) == (6, 7, 4)
        if use_book is None:
            use_book = standard
        if use_book and not standard:
            raise SolverError("the opening books are for the standard 6x7 board only")
        if rules.cols >= 16:
            raise SolverError("the exact solver takes at most 15 columns")
        self.rules = rules
        self.use_book = use_book
        self.geo = geometry(rules)
        self.cells = rules.cells
        self.nodes = 0
        geo = self.geo
        self._order = geo.centre_order  # column of each rank
        self._columns = [((1 << rules.rows) - 1) << (col * geo.height) for col in self._order]
        self._board_mask = geo.board_mask
        self._bottom_mask = geo.bottom_mask
        self._threats = geo.threats
        self._key_bits = key_bits(rules)
        self._etc_below = self.cells - ETC_EMPTY
        self._order_below = self.cells - ORDER_EMPTY
        self._item_shift = rules.cols * geo.height + 2  # room for a threat bitboard + 1 (see _negamax)
        self._table_slots = table_slots
        self._own_table = own_table
        self._tables: dict[bool, TranspositionTable] = {}  # by sign scale (see _use_table)
        self._table: TranspositionTable | None = None  # the one the search in progress uses
        self.busy = False  # in the middle of a call (``ai.tables``: its memory is not taken)
        self._words: list[int] | memoryview = []
        self._slots = 1
        self._should_stop: Callable[[], bool] | None = None
        self._deadline: float | None = None
        self._node_limit = solver_kernel.NO_LIMIT
        self._check_at = CHECK_EVERY  # the next node count at which ``_poll`` runs
        self._array: np.ndarray | None = None  # the table in use, for the compiled search
        self._core_params: np.ndarray | None = None  # the compiled search's geometry
        fits = fits_compiled(rules)  # the compiled search keeps bitboards in int64
        self._core_columns = np.array(self._columns if fits else [], dtype=np.int64)
        self._core_state = np.zeros(3, dtype=np.int64)
        self._stop_flag = np.zeros(1, dtype=np.int64)
        self._watch: _Watch | None = None
        if not pure_python and fits:
            self._core_params = np.array(
                [
                    self.cells,
                    self._board_mask,
                    self._bottom_mask,
                    geo.height,
                    rules.connect,
                    self._etc_below,
                    self._order_below,
                    rules.cols,
                    -1,  # the book's disc count and its bytes a record, set for each search (``_search``)
                    0,
                ],
                dtype=np.int64,
            )
        self._book_plies = -1  # the disc count at which ``_book_score`` answers (-1: none)
        self._book_score: Callable[[int, int], int | None] | None = None
        self._book_view = NO_BOOK  # the book's index and bytes for the compiled search (``OpeningBook.searched_view``)
        self._book_record = 0
        self.book_note: str | None = None  # why a book was left out (then solves take longer)

    def clear(self) -> None:
        """Forget the transposition tables (they are otherwise kept between calls)."""
        for table in self._tables.values():
            TABLES.give_back(table)
        self._tables.clear()
        self._table = None
        self._words, self._slots, self._array = [], 1, None

    def table(self, sign_scale: bool = False) -> TranspositionTable:
        """The exact table (or the weak searches' sign-scale one): this solver's entries, or
        an empty table where it has none (first use, or its memory served another solver)."""
        found = self._tables.get(sign_scale)
        if found is None or not found.current:
            slots = min(self._table_slots, SIGN_TABLE_SLOTS) if sign_scale else self._table_slots
            if self._own_table:
                found = TranspositionTable(slots, self._key_bits, self.cells)
            else:
                found = TABLES.lend(self, slots, self._key_bits, self.cells, beside=self._tables.get(not sign_scale))
            self._tables[sign_scale] = found
        return found

    def _use_table(self, weak: bool, played: int) -> None:
        """Choose the book and the table of a search from ``played`` discs.

        Bounds from a search that stops at the 8-ply book are in its win/draw/loss scale,
        not scores: they get a table of their own.  Every other search, weak or not,
        shares the exact table (its bounds are true score bounds).
        """
        self._set_book(weak, played)
        table = self._table = self.table(sign_scale=self._book_plies == WEAK_BOOK_PLIES)
        self._words, self._slots, self._array = table.words, table.slots, table.array

    # -- entry points ---------------------------------------------------------------
    def position(self, grid: np.ndarray, to_move: int) -> tuple[int, int]:
        """A grid with ``to_move`` (1 or -1) to play as (side to move's discs, all discs)."""
        first, second = self.geo.from_grid(np.asarray(grid, dtype=np.int8))
        current = first if to_move == MAX else second
        return current, first | second

    def analyze(
        self,
        current: int,
        mask: int,
        *,
        limit: SolveLimit = NO_LIMIT,
        enough: int | None = None,
    ) -> Analysis:
        """Score every playable column, centre first: a column that wins at once gets the
        win score, any other the negation of the score of the position it leaves (Pons'
        ``Solver::analyze``).  Every per-column score in the program comes from here.

        At the exact book's disc count the book's score of the position bounds every
        child's solve (no column scores more; the first search asks whether it scores
        exactly that).  With ``limit.weak`` each column gets its outcome (1/0/-1), and a column
        that wins at once ends the look and is reported alone: a weak score cannot tell a
        win now from a win later, and the win now is the one to play.

        Args:
            limit: its time and nodes are for the whole look (each column's solve gets
                what is left); ``should_stop`` is polled during each solve.
            enough: the position's own score where it is known (no column scores more):
                the look ends at the first column that scores it, the centre-most best
                one, which is the one a whole look would rank first (``PerfectPlayer``).

        Returns:
            An ``Analysis``; where the time or the nodes ran out, or ``should_stop`` said
            so, it holds the columns scored before that and the reason (``stopped``).

        Raises:
            SolverError: the game is over (a line on the board).
        """
        geo = self.geo
        if geo.line_starts(current) or geo.line_starts(current ^ mask):
            raise SolverError("the game is already over (there is a line on the board)")
        deadline = None if limit.time is None else time.perf_counter() + limit.time
        parent = None if limit.weak else self.book_score(current, mask)
        scores: dict[int, int] = {}
        spent = 0
        for col in geo.centre_order:
            _, add, keep = geo.move_steps[col]
            bit = (mask + add) & keep
            if not bit:
                continue
            if geo.line_starts(current | bit):  # a win with this disc
                if limit.weak:
                    return Analysis({col: 1}, spent)
                scores[col] = (self.cells + 1 - mask.bit_count()) // 2
            elif (mask | bit).bit_count() == self.cells:
                scores[col] = 0
            if col in scores:
                if enough is not None and scores[col] >= enough:
                    return Analysis(scores, spent)
                continue
            left = None
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return Analysis(scores, spent, SolverStopped("the solver's time budget ran out"))
            try:
                child = self.solve_bits(
                    current ^ mask,
                    mask | bit,
                    limit=replace(limit, time=left, nodes=None if limit.nodes is None else max(limit.nodes - spent, 0)),
                    low=None if parent is None else -parent,
                )
            except SolverStopped as stopped:
                return Analysis(scores, spent + self.nodes, stopped)
            spent += child.nodes
            scores[col] = -child.score
            if enough is not None and scores[col] >= enough:
                break  # no later column scores more: the best, centre first
        return Analysis(scores, spent)

    def book_score(self, current: int, mask: int) -> int | None:
        """The exact book's score of a position of its disc count, from the side to move
        (None at other disc counts, off the standard board, or where the book failed its
        check)."""
        played = mask.bit_count()
        if played != BOOK_PLIES:
            return None
        self._set_book(False, played)
        if self._book_plies != played or self._book_score is None:
            return None
        return self._book_score(current, mask)

    def solve_grid(
        self,
        grid: np.ndarray,
        to_move: int,
        *,
        limit: SolveLimit = NO_LIMIT,
        on_progress: SolverProgressCallback | None = None,
    ) -> Solution:
        """Solve a grid position with ``to_move`` (1 or -1) to play.

        Raises:
            SolverStopped: ``limit.should_stop`` (polled every 2048 nodes) returned True,
                ``limit.time`` seconds passed, or the search reached ``limit.nodes`` nodes.
        """
        current, mask = self.position(grid, to_move)
        return self.solve_bits(current, mask, limit=limit, on_progress=on_progress)

    def solve_moves(
        self,
        moves: list[int],
        *,
        limit: SolveLimit = NO_LIMIT,
        on_progress: SolverProgressCallback | None = None,
    ) -> Solution:
        """Solve the position after 0-based column ``moves`` from the empty board."""
        geo = self.geo
        current = mask = 0
        for count, col in enumerate(moves):
            bit = (mask + (1 << (col * geo.height))) & self._column(col)
            if not bit:
                raise SolverError(f"move {count + 1}: column {col + 1} is full")
            if geo.threats(current, bit):
                raise SolverError(f"move {count + 1}: the game is already over")
            current ^= mask
            mask |= bit
        return self.solve_bits(current, mask, limit=limit, on_progress=on_progress)

    def solve_bits(
        self,
        current: int,
        mask: int,
        *,
        limit: SolveLimit = NO_LIMIT,
        low: int | None = None,
        high: int | None = None,
        on_progress: SolverProgressCallback | None = None,
    ) -> Solution:
        """Solve the position given as (side to move's discs, all discs).

        Args:
            limit: weak or exact, and when to give up (``SolverStopped``): ``SolveLimit``.
            low, high: bounds of the score already known (say, from the parent's exact
                score): fewer null-window searches, the same answer.  With ``low`` the
                first search asks whether the score is above it (a child of a solved
                position often scores exactly its bound).
            on_progress: called after each null-window search with the score's bounds.
        """
        geo = self.geo
        if geo.line_starts(current) or geo.line_starts(current ^ mask):
            raise SolverError("the game is already over (there is a line on the board)")
        started = time.perf_counter()
        self._start(limit)
        try:
            return self._solve(current, mask, limit.weak, started, on_progress, low, high)
        finally:
            self._finish()

    def best_move(
        self,
        current: int,
        mask: int,
        *,
        low: int | None = None,
        high: int | None = None,
        limit: SolveLimit = NO_LIMIT,
    ) -> MoveSolution:
        """Solve the position and name a move that reaches its score.

        The root is searched like any node, but its loop keeps the move that lifted the
        score: no separate proof per column.  ``low``/``high`` are bounds already known
        (the book's score, or the outcome the previous move kept): with both equal a
        single null-window search finds the move.  With ``limit.weak`` the score is 1/0/-1; a
        lost position (weak) gets the first column that does not lose at once, unsearched.

        Raises:
            SolverError: the game is over (a line, or a full board).
            SolverStopped: like ``solve_bits``.
        """
        geo = self.geo
        if geo.line_starts(current) or geo.line_starts(current ^ mask):
            raise SolverError("the game is already over (there is a line on the board)")
        played = mask.bit_count()
        if played >= self.cells:
            raise SolverError("the board is full: there is no move")
        self._start(limit)
        try:
            return self._best_move(current, mask, played, limit.weak, low, high)
        finally:
            self._finish()

    def _solve(
        self,
        current: int,
        mask: int,
        weak: bool,
        started: float,
        on_progress: SolverProgressCallback | None,
        known_low: int | None = None,
        known_high: int | None = None,
    ) -> Solution:
        geo = self.geo
        played = mask.bit_count()
        self._use_table(weak, played)
        cells = self.cells
        if played >= cells:
            return Solution(0, 0)
        if self.use_book and played <= EARLY_PLIES:  # the table of solved early positions
            known = early_scores().get(canonical_key(*self._sides(current, mask)))
            if known is not None:
                return Solution((known > 0) - (known < 0) if weak else known, 0)
        if geo.threats(current, self._possible(mask)):
            score = (cells + 1 - played) // 2
            return Solution(1 if weak else score, 1)
        low, high = -((cells - played) // 2), (cells + 1 - played) // 2
        if weak:
            low, high = -1, 1
            known_low = None if known_low is None else max(min(known_low, 0), -1) + (known_low > 0)
            known_high = None if known_high is None else min(max(known_high, 0), 1) - (known_high < 0)
        if known_low is not None:
            low = max(low, min(known_low, high))
        if known_high is not None:
            high = min(high, max(known_high, low))
        probe = known_low is not None  # first ask whether the score is above its known bound
        while low < high:  # narrow [low, high] with null-window searches
            middle = low if probe else _middle(low, high)
            probe = False
            result = self._search(current, mask, played, middle, middle + 1)
            if result <= middle:
                high = result
            else:
                low = result
            if on_progress is not None:
                on_progress(SolverProgress(low, high, self.nodes, time.perf_counter() - started))
        score = low
        if weak:
            score = (score > 0) - (score < 0)
        return Solution(score, self.nodes)

    def _best_move(
        self, current: int, mask: int, played: int, weak: bool, low: int | None, high: int | None
    ) -> MoveSolution:
        cells = self.cells
        self._use_table(weak, played + 1)  # the book and table of the children, where the search starts
        bottom = self._possible(mask)
        wins = self._threats(current, bottom)
        if wins:  # a win with this disc
            return MoveSolution(1 if weak else (cells + 1 - played) // 2, self._column_of(wins & -wins), 0)
        least = -((cells - played) // 2)
        lower, upper = least, (cells - 1 - played) // 2
        if weak:
            lower, upper = -1, 1
        if low is not None:
            lower = max(lower, low)
        if high is not None:
            upper = min(upper, high)
        move = None
        while lower < upper:
            middle = _middle(lower, upper)
            result, column = self._root(current, mask, played, middle, middle + 1)
            if result <= middle:
                upper = result
            else:
                lower, move = result, column
        score = lower
        if weak:
            score = (score > 0) - (score < 0)
        if move is None:
            if score == least or (weak and score < 0):  # lost anyway: the first move that does not lose at once
                _, move = self._root(current, mask, played, least - 1, least)
            else:  # the score was known: one search for a move that reaches it
                _, move = self._root(current, mask, played, lower - 1, lower)
        return MoveSolution(score, move, self.nodes)

    def _column_of(self, bit: int) -> int:
        return (bit.bit_length() - 1) // self.geo.height

    def _sides(self, current: int, mask: int) -> tuple[int, int]:
        """(first player's discs, second player's) from (side to move's, all)."""
        if mask.bit_count() % 2 == 0:  # the first player is to move
            return current, current ^ mask
        return current ^ mask, current

    # -- the search -----------------------------------------------------------------
    def _set_book(self, weak: bool, played: int) -> None:
        """Choose the book the search stops at: the 8-ply one for a weak solve from at most
        8 discs, else the 12-ply one from at most 12 discs; none off the standard board."""
        self._book_plies, self._book_score, self._book_view = -1, None, NO_BOOK
        if not self.use_book or played > BOOK_PLIES:
            return

        small = weak and played <= WEAK_BOOK_PLIES
        for which, plies in [(BookFile.PLY_8, WEAK_BOOK_PLIES)] * small + [(BookFile.PLY_12_DISTANCES, BOOK_PLIES)]:
            try:  # a book that fails its check is not used: the search goes on past it
                opening_book = book(which).check()
            except BookError as error:
                self.book_note = str(error)
                continue
            # At an even disc count the side to move is the first player: current = first.
            self._book_plies = plies
            self._book_score = lambda current, mask, found=opening_book: found.score(current, current ^ mask)
            self._book_view = opening_book.searched_view()  # the compiled search looks positions up itself
            self._book_record = which.record_bytes
            return


class _Watch:
    """One compiled search watched: its stop flag, stop request and deadline, and why the
    watchdog stopped it ("stop", "time"; "" while it has not)."""

    def __init__(self, flag: np.ndarray, should_stop: Callable[[], bool] | None, deadline: float | None):
        self.flag = flag
        self.should_stop = should_stop
        self.deadline = deadline
        self.reason = ""


class _Watchdog:
    """Sets the stop flags of compiled searches on a stop request or at their deadline.

    The compiled search holds no GIL and calls no Python: one thread of the process asks
    each watched search's ``should_stop`` and reads the clock every few milliseconds
    instead, and sleeps while no search is watched.  (A thread of its own for every search,
    started and joined around each null-window search, cost about 0.5 ms each on a loaded
    machine, a tenth of a ``solve`` of 64 positions.)  A search no longer watched
    (``unwatch``) has its flag left alone, even by a ``should_stop`` asked just before.
    """

    PERIOD = 0.004

    def __init__(self) -> None:
        self._watched: list[_Watch] = []
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def forget(self) -> None:
        """Start again with no watched search and no thread (a forked child's state)."""
        self._watched = []
        self._changed = threading.Condition()
        self._thread = None

    def watch(self, flag: np.ndarray, should_stop: Callable[[], bool] | None, deadline: float | None) -> _Watch:
        watch = _Watch(flag, should_stop, deadline)
        with self._changed:
            self._watched.append(watch)
            if self._thread is None or not self._thread.is_alive():  # the first, or a forked process
                self._thread = threading.Thread(target=self._run, name="solver-watchdog", daemon=True)
                self._thread.start()
            self._changed.notify()
        return watch

    def unwatch(self, watch: _Watch) -> None:
        with self._changed:
            if watch in self._watched:
                self._watched.remove(watch)

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._watched:
                    self._changed.wait()
            time.sleep(self.PERIOD)
            with self._changed:
                watched = list(self._watched)
            for watch in watched:
                if watch.should_stop is not None and watch.should_stop():  # outside the lock: it may take a while
                    reason = "stop"
                elif watch.deadline is not None and time.perf_counter() > watch.deadline:
                    reason = "time"
                else:
                    continue
                with self._changed:
                    if watch in self._watched:  # still searching: stop it
                        self._watched.remove(watch)
                        watch.reason = reason
                        watch.flag[0] = 1


_WATCHDOG = _Watchdog()
"""The process's watchdog of compiled solves."""
if hasattr(os, "register_at_fork"):  # a forked child starts with no watched search and no thread
    os.register_at_fork(after_in_child=_WATCHDOG.forget)


def table_fits_compiled(rules: Rules, slots: int) -> bool:
    """Whether a table of ``slots`` slots packs ``rules``' keys into the compiled solver's
    63-bit words (fewer slots leave more of the key to each word's check)."""
    return fits_compiled(rules) and TranspositionTable.largest_entry(slots, key_bits(rules)) < 1 << 63


def key_bits(rules: Rules) -> int:
    """The bits of a position's key (``current + mask``) on ``rules``: a column's discs
    plus its mask stay below the column's sentinel bit, so no column carries into the next
    and the key is below ``2 ** (cols * height)`` (64 bits on 7x8: a check of 43 bits beside
    a 2,097,169-slot table's slot still fits the compiled solver's 63-bit words)."""
    return rules.cols * geometry(rules).height


def compact_table_slots(rules: Rules) -> int:
    """The slots of a compact table for ``rules``: a million (8 MB, the process's small
    buffers) where the compiled solver packs the keys into so few words (6x7 and smaller)
    or does not take the board at all (its Python solver allocates the table whole), else
    ``WIDE_TABLE_SLOTS`` (7x8 and 8x7, 16 MB: fewer slots leave the compiled words too short).

    A level's own endgame solves take it (``ai.player.level_solver``), and so does
    ``solve`` over a list: on 6x7 past the book a solve takes at most about a million
    nodes, and the 8 MB table answers them 1.8 times faster than the 64 MB one (it stays
    in the processor's caches) for 3% more nodes; on 7x8 the 16 MB table is 1.6 times
    faster than the 64 MB one for 1.5% more nodes (docs/benchmarks.md, "The transposition
    table")."""
    if not fits_compiled(rules) or table_fits_compiled(rules, SIGN_TABLE_SLOTS):
        return SIGN_TABLE_SLOTS
    if table_fits_compiled(rules, WIDE_TABLE_SLOTS):
        return WIDE_TABLE_SLOTS
    return TABLE_SLOTS


def _middle(low: int, high: int) -> int:
    """The next null-window threshold between ``low`` and ``high`` (Pons: halve the range,
    but first ask about the sign, then about wins and losses near the end)."""
    middle = low + (high - low) // 2
    if middle <= 0 and _trunc_half(low) < middle:
        middle = _trunc_half(low)
    elif middle >= 0 and _trunc_half(high) > middle:
        middle = _trunc_half(high)
    return middle


def solve_moves_string(moves: str, rules: Rules | None = None, *, weak: bool = False) -> Solution:
    """Solve a benchmark move string such as ``"4453"``."""
    rules = rules or Rules()
    return Solver(rules).solve_moves(parse_moves(moves, rules), limit=SolveLimit(weak=weak))
