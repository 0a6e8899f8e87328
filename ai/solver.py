"""An exact solver for CLASSIC gravity boards: the perfect-play score of a position.

The score convention is the one of the public benchmark files
(``shared/data/positions/README.md``): from the side to move, a win scores
``cells / 2 + 1`` minus the number of discs the winner has played when the game ends
(22 - discs on 6x7), a loss the negative of that, a draw 0.

The method is Pascal Pons' (blog.gamesolver.org): negamax over bitboards with
- only non-losing moves generated (never a move that lets the opponent win at once,
  and a forced block when the opponent threatens),
- moves tried by how many threats they create, centre first on ties,
- a transposition table of upper and lower bounds,
- null-window searches that narrow the score range (iterative deepening on the score).

On the standard board the search stops at the opening books of ``ai.book``: at 12 discs
the exact score comes from the 12-ply book with win distances (and, in weak mode, at 8
discs the win/draw/loss comes from the 8-ply book).  The transposition table is kept
between calls (its entries are true bounds of a position's score, whatever the root),
so a player object that solves one position after another reuses its work.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ai.bitboard import geometry
from game.rules import MAX, Mode, Rules


class SolverError(ValueError):
    """A position the solver cannot take (wrong rules, or the game is already over)."""


class SolverStopped(Exception):
    """``should_stop`` asked the solver to give up, or its time budget ran out."""


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
CHECK_EVERY = 2048
"""Nodes between two looks at the clock and the stop request."""
TABLE_LIMIT = 500_000
"""Entries kept in a transposition table before it is cleared (about 100 MB each at most)."""
BOOK_PLIES = 12
"""Discs of the positions of the exact opening book."""
EARLY_PLIES = 4
"""Up to this many discs an exact solve reads ``ai.book.early_scores`` (solved once)."""
WEAK_BOOK_PLIES = 8
"""Discs of the positions of the win/draw/loss book used in weak mode."""


def moves_to_end(score: int, own_discs: int, opponent_discs: int, cells: int = 42) -> int:
    """For a non-zero score, how many more discs the winner plays, the winning one included."""
    winner_discs_at_end = cells // 2 + 1 - abs(score)
    return winner_discs_at_end - (own_discs if score > 0 else opponent_discs)


def verdict_text(score: int, own_discs: int | None = None, opponent_discs: int | None = None, cells: int = 42) -> str:
    """Describe a score of the benchmark convention from the side to move.

    With the disc counts it says "wins in N" (N of the winner's own moves).
    """
    if score == 0:
        return "draw with perfect play"
    word = "wins" if score > 0 else "loses"
    if own_discs is None or opponent_discs is None:
        return f"{word} with perfect play (score {score:+d})"
    moves = moves_to_end(score, own_discs, opponent_discs, cells)
    who = "wins" if score > 0 else "loses: the opponent wins"
    return f"{who} in {moves} move{'s' if moves != 1 else ''} with perfect play"


def _trunc_half(value: int) -> int:
    """``value / 2`` rounded toward zero, as C does (the method's arithmetic)."""
    return int(value / 2)


class Solver:
    """Solves positions of one rule set; keeps its transposition tables between calls.

    ``use_book`` (default: on the standard board) stops the search at the opening books.
    """

    def __init__(self, rules: Rules, *, use_book: bool | None = None):
        if rules.mode is not Mode.CLASSIC or not rules.gravity:
            raise SolverError("the exact solver needs CLASSIC rules with gravity")
        standard = (rules.rows, rules.cols, rules.connect) == (6, 7, 4)
        if use_book is None:
            use_book = standard
        if use_book and not standard:
            raise SolverError("the opening books are for the standard 6x7 board only")
        self.rules = rules
        self.use_book = use_book
        self.geo = geometry(rules)
        self.cells = rules.cells
        self.nodes = 0
        geo = self.geo
        order = geo.centre_order
        self._columns = [((1 << rules.rows) - 1) << (col * geo.height) for col in order]
        self._tables: dict[bool, dict[int, tuple[int, int, int]]] = {False: {}, True: {}}  # by weak
        self._table = self._tables[False]
        self._should_stop: Callable[[], bool] | None = None
        self._deadline: float | None = None
        self._book_plies = -1  # the disc count at which ``_book_score`` answers (-1: none)
        self._book_score: Callable[[int, int], int | None] | None = None

    def clear(self) -> None:
        """Forget the transposition tables (they are otherwise kept between calls)."""
        for table in self._tables.values():
            table.clear()

    def _poll(self) -> None:
        if self._should_stop is not None and self._should_stop():
            raise SolverStopped("the solve was cancelled")
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise SolverStopped("the solver's time budget ran out")

    # -- entry points ---------------------------------------------------------------
    def solve_grid(
        self,
        grid: np.ndarray,
        to_move: int,
        *,
        weak: bool = False,
        should_stop: Callable[[], bool] | None = None,
        time_limit: float | None = None,
        on_progress: SolverProgressCallback | None = None,
    ) -> Solution:
        """Solve a grid position with ``to_move`` (1 or -1) to play.

        Raises:
            SolverStopped: ``should_stop`` (polled every 2048 nodes) returned True, or
                ``time_limit`` seconds passed.
        """
        first, second = self.geo.from_grid(np.asarray(grid, dtype=np.int8))
        current = first if to_move == MAX else second
        return self.solve_bits(
            current, first | second, weak=weak, should_stop=should_stop, time_limit=time_limit, on_progress=on_progress
        )

    def solve_moves(
        self,
        moves: list[int],
        *,
        weak: bool = False,
        should_stop: Callable[[], bool] | None = None,
        time_limit: float | None = None,
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
        return self.solve_bits(
            current, mask, weak=weak, should_stop=should_stop, time_limit=time_limit, on_progress=on_progress
        )

    def solve_bits(
        self,
        current: int,
        mask: int,
        *,
        weak: bool = False,
        should_stop: Callable[[], bool] | None = None,
        time_limit: float | None = None,
        on_progress: SolverProgressCallback | None = None,
    ) -> Solution:
        """Solve the position given as (side to move's discs, all discs).

        Args:
            weak: only win/draw/loss (1/0/-1): enough to choose a perfect move, faster.
            should_stop: polled every few thousand nodes; True gives up (``SolverStopped``).
            time_limit: seconds before giving up (``SolverStopped``).
            on_progress: called after each null-window search with the score's bounds.
        """
        geo = self.geo
        if geo.line_starts(current) or geo.line_starts(current ^ mask):
            raise SolverError("the game is already over (there is a line on the board)")
        started = time.perf_counter()
        self._should_stop = should_stop
        self._deadline = None if time_limit is None else started + time_limit
        try:
            return self._solve(current, mask, weak, started, on_progress)
        finally:
            self._should_stop = None
            self._deadline = None

    def exceeds(
        self,
        current: int,
        mask: int,
        threshold: int,
        *,
        weak: bool = True,
        should_stop: Callable[[], bool] | None = None,
        time_limit: float | None = None,
    ) -> bool:
        """One null-window search: is the position's score above ``threshold``?

        Cheaper than a full solve when only one question matters (does this move keep
        the win?).  ``weak`` uses (and fills) the weak table: then ``threshold`` must be
        -1 or 0.  Raises ``SolverStopped`` like ``solve_bits``.
        """
        geo = self.geo
        if geo.line_starts(current) or geo.line_starts(current ^ mask):
            raise SolverError("the game is already over (there is a line on the board)")
        played = mask.bit_count()
        cells = self.cells
        if played >= cells:
            return 0 > threshold
        if geo.threats(current, self._possible(mask)):
            return (cells + 1 - played) // 2 > threshold
        self._should_stop = should_stop
        self._deadline = None if time_limit is None else time.perf_counter() + time_limit
        self._table = self._tables[weak]
        if len(self._table) > TABLE_LIMIT:
            self._table.clear()
        self._set_book(weak, played)
        self.nodes = 0
        try:
            return self._negamax(current, mask, played, threshold, threshold + 1) > threshold
        finally:
            self._should_stop = None
            self._deadline = None

    def _solve(
        self, current: int, mask: int, weak: bool, started: float, on_progress: SolverProgressCallback | None
    ) -> Solution:
        geo = self.geo
        self.nodes = 0
        self._table = self._tables[weak]
        if len(self._table) > TABLE_LIMIT:
            self._table.clear()
        played = mask.bit_count()
        self._set_book(weak, played)
        cells = self.cells
        if played >= cells:
            return Solution(0, 0)
        if self.use_book and played <= EARLY_PLIES:  # the table of solved early positions
            from ai.book import canonical_key, early_scores

            known = early_scores().get(canonical_key(*self._sides(current, mask)))
            if known is not None:
                return Solution((known > 0) - (known < 0) if weak else known, 0)
        if geo.threats(current, self._possible(mask)):
            score = (cells + 1 - played) // 2
            return Solution(1 if weak else score, 1)
        low, high = -((cells - played) // 2), (cells + 1 - played) // 2
        if weak:
            low, high = -1, 1
        while low < high:  # narrow [low, high] with null-window searches
            middle = low + (high - low) // 2
            if middle <= 0 and _trunc_half(low) < middle:
                middle = _trunc_half(low)
            elif middle >= 0 and _trunc_half(high) > middle:
                middle = _trunc_half(high)
            result = self._negamax(current, mask, played, middle, middle + 1)
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

    def _sides(self, current: int, mask: int) -> tuple[int, int]:
        """(first player's discs, second player's) from (side to move's, all)."""
        if mask.bit_count() % 2 == 0:  # the first player is to move
            return current, current ^ mask
        return current ^ mask, current

    # -- the search -----------------------------------------------------------------
    def _set_book(self, weak: bool, played: int) -> None:
        """Choose the book the search stops at: the 8-ply one for a weak solve from at most
        8 discs, else the 12-ply one from at most 12 discs; none off the standard board."""
        self._book_plies, self._book_score = -1, None
        if not self.use_book or played > BOOK_PLIES:
            return
        from ai.book import BookFile, book

        small = weak and played <= WEAK_BOOK_PLIES
        which = BookFile.PLY_8 if small else BookFile.PLY_12_DISTANCES
        plies = WEAK_BOOK_PLIES if small else BOOK_PLIES
        opening_book = book(which)
        # At an even disc count the side to move is the first player: current = first.
        self._book_plies = plies
        self._book_score = lambda current, mask: opening_book.score(current, current ^ mask)

    def _column(self, col: int) -> int:
        return ((1 << self.rules.rows) - 1) << (col * self.geo.height)

    def _possible(self, mask: int) -> int:
        return (mask + self.geo.bottom_mask) & self.geo.board_mask

    def _negamax(self, current: int, mask: int, played: int, alpha: int, beta: int) -> int:
        """Score of the position for the side to move, within (alpha, beta).

        Invariants: alpha < beta, and the side to move cannot win with its next move.
        """
        self.nodes += 1
        if not self.nodes % CHECK_EVERY:
            self._poll()
        if played == self._book_plies:
            assert self._book_score is not None
            known = self._book_score(current, mask)
            if known is not None:
                return known
        geo = self.geo
        cells = self.cells
        board_mask = geo.board_mask
        possible = (mask + geo.bottom_mask) & board_mask
        opponent_wins = geo.threats(current ^ mask, board_mask ^ mask)
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
        entry = self._table.get(key)  # (lower bound, upper bound, best move bit)
        first_move = 0
        if entry is not None:
            lower, upper, first_move = entry
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

        candidates = []
        threats = geo.threats
        for rank, column in enumerate(self._columns):
            move = moves & column
            if move:
                if move == first_move:  # the move that refuted this position before
                    candidates.append((-99, rank, move))
                    continue
                empty_after = board_mask ^ (mask | move)
                candidates.append((-threats(current | move, empty_after).bit_count(), rank, move))
        if len(candidates) > 1:
            candidates.sort()
        next_played = played + 1
        best_move = candidates[0][2]
        alpha_in = alpha
        for _, _, move in candidates:
            score = -self._negamax(current ^ mask, mask | move, next_played, -beta, -alpha)
            if score >= beta:
                self._table[key] = (max(score, lower), upper, move)
                return score
            if score > alpha:
                alpha = score
                best_move = move
        if alpha > alpha_in:  # an exact score inside the window
            self._table[key] = (alpha, alpha, best_move)
        else:
            self._table[key] = (lower, min(alpha, upper), first_move or best_move)
        return alpha


def solve_moves_string(moves: str, rules: Rules | None = None, *, weak: bool = False) -> Solution:
    """Solve a benchmark move string such as ``"4453"``."""
    from game.notation import parse_moves

    rules = rules or Rules()
    return Solver(rules).solve_moves(parse_moves(moves, rules), weak=weak)
