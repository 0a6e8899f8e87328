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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ai.bitboard import geometry
from game.rules import MAX, Mode, Rules


class SolverError(ValueError):
    """A position the solver cannot take (wrong rules, or the game is already over)."""


class SolverStopped(Exception):
    """``should_stop`` asked the solver to give up (a time budget ran out)."""


@dataclass(frozen=True)
class Solution:
    """A solved position: ``score`` from the side to move, and the work it took."""

    score: int
    nodes: int


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
    """Solves positions of one rule set; keeps nothing between ``solve`` calls."""

    def __init__(self, rules: Rules):
        if rules.mode is not Mode.CLASSIC or not rules.gravity:
            raise SolverError("the exact solver needs CLASSIC rules with gravity")
        self.rules = rules
        self.geo = geometry(rules)
        self.cells = rules.cells
        self.nodes = 0
        geo = self.geo
        order = geo.centre_order
        self._columns = [((1 << rules.rows) - 1) << (col * geo.height) for col in order]
        self._table: dict[int, tuple[int, bool]] = {}
        self._should_stop: Callable[[], bool] | None = None

    # -- entry points ---------------------------------------------------------------
    def solve_grid(
        self, grid: np.ndarray, to_move: int, *, weak: bool = False, should_stop: Callable[[], bool] | None = None
    ) -> Solution:
        """Solve a grid position with ``to_move`` (1 or -1) to play.

        Raises:
            SolverStopped: ``should_stop`` (polled every 2048 nodes) returned True.
        """
        first, second = self.geo.from_grid(np.asarray(grid, dtype=np.int8))
        current = first if to_move == MAX else second
        self._should_stop = should_stop
        try:
            return self.solve_bits(current, first | second, weak=weak)
        finally:
            self._should_stop = None

    def solve_moves(self, moves: list[int], *, weak: bool = False) -> Solution:
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
        return self.solve_bits(current, mask, weak=weak)

    def solve_bits(self, current: int, mask: int, *, weak: bool = False) -> Solution:
        """Solve the position given as (side to move's discs, all discs)."""
        geo = self.geo
        if geo.line_starts(current) or geo.line_starts(current ^ mask):
            raise SolverError("the game is already over (there is a line on the board)")
        self.nodes = 0
        self._table = {}
        played = mask.bit_count()
        cells = self.cells
        if played >= cells:
            return Solution(0, 0)
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
        score = low
        if weak:
            score = (score > 0) - (score < 0)
        return Solution(score, self.nodes)

    # -- the search -----------------------------------------------------------------
    def _column(self, col: int) -> int:
        return ((1 << self.rules.rows) - 1) << (col * self.geo.height)

    def _possible(self, mask: int) -> int:
        return (mask + self.geo.bottom_mask) & self.geo.board_mask

    def _negamax(self, current: int, mask: int, played: int, alpha: int, beta: int) -> int:
        """Score of the position for the side to move, within (alpha, beta).

        Invariants: alpha < beta, and the side to move cannot win with its next move.
        """
        self.nodes += 1
        if self._should_stop is not None and not self.nodes & 2047 and self._should_stop():
            raise SolverStopped()
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
        entry = self._table.get(key)
        if entry is not None:
            value, is_lower = entry
            if is_lower:
                if alpha < value:
                    alpha = value
                    if alpha >= beta:
                        return alpha
            elif value < high:
                high = value
        if beta > high:
            beta = high
            if alpha >= beta:
                return beta

        candidates = []
        threats = geo.threats
        for rank, column in enumerate(self._columns):
            move = moves & column
            if move:
                empty_after = board_mask ^ (mask | move)
                candidates.append((-threats(current | move, empty_after).bit_count(), rank, move))
        if len(candidates) > 1:
            candidates.sort()
        next_played = played + 1
        for _, _, move in candidates:
            score = -self._negamax(current ^ mask, mask | move, next_played, -beta, -alpha)
            if score >= beta:
                self._table[key] = (score, True)
                return score
            if score > alpha:
                alpha = score
        self._table[key] = (alpha, False)
        return alpha


def solve_moves_string(moves: str, rules: Rules | None = None, *, weak: bool = False) -> Solution:
    """Solve a benchmark move string such as ``"4453"``."""
    from game.notation import parse_moves

    rules = rules or Rules()
    return Solver(rules).solve_moves(parse_moves(moves, rules), weak=weak)
