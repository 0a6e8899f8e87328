"""Perfect play on the standard board: exact verdicts, the Perfect level and pondering.

Every position of standard Connect Four (6x7, connect 4, gravity, classic) has an exact
value: the opening books answer 8- and 12-disc positions, a search down to them answers
earlier ones, and the exact solver (``ai.solver``) answers later ones.

    player = PerfectPlayer()
    choice = player.choose(grid, rules, to_move, time_limit=1.0)     # a value-keeping move
    player.ponder(grid, rules, to_move, should_stop)                 # while the person thinks
    exact_column_scores(grid, rules, to_move, time_limit=2.0)        # {col: score} or None

Scores are in the benchmark convention (``ai.solver``): from the side to move, a win is
22 minus the winner's discs at the end of the game, a loss the negative, a draw 0.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ai.bitboard import geometry
from ai.solver import NO_LIMIT, SolveLimit, Solver, SolverStopped
from game.rules import STANDARD, Rules


class NotStandardError(ValueError):
    """Perfect play was asked for off the standard board."""


def _sign(score: int) -> int:
    return (score > 0) - (score < 0)


@dataclass(frozen=True)
class PerfectChoice:
    """A value-keeping move and what is known about it.

    ``outcome`` is 1/0/-1 (win/draw/loss for the side to move, with perfect play);
    ``score`` the exact benchmark score where it was found in time, else None;
    ``scores`` the exact score of each column scored: every column, unless the time or
    the nodes ran out first, or (at 12 discs) the look ended at the book's best one.
    """

    move: int
    outcome: int
    score: int | None
    scores: dict[int, int]
    seconds: float
    nodes: int


class PerfectPlayer:
    """Plays the standard board perfectly; keeps the solver's tables between moves.

    One object per game (or per worker) lets each move reuse the previous moves' work, and
    ``ponder`` fills those tables with the answers to the person's likely replies.
    """

    def __init__(self) -> None:
        self.rules = Rules()
        self.geo = geometry(self.rules)
        self.solver = Solver(self.rules)
        # After this player's last move: (its discs, all discs, the outcome the move kept).
        self._kept: tuple[int, int, int] | None = None

    # -- positions as the solver's bitboards ---------------------------------------
    def _position(self, grid: np.ndarray, to_move: int) -> tuple[int, int]:
        return self.solver.position(grid, to_move)

    def _children(self, current: int, mask: int) -> list[tuple[int, int]]:
        """(column, bit) of every playable column, centre first."""
        geo = self.geo
        result = []
        for col in geo.centre_order:
            _, add, keep = geo.move_steps[col]
            bit = (mask + add) & keep
            if bit:
                result.append((col, bit))
        return result

    def _win_now_score(self, mask: int) -> int:
        """Score of winning with the next disc."""
        return (self.rules.cells + 1 - mask.bit_count()) // 2

    # -- entry points ----------------------------------------------------------------
    def column_scores(
        self,
        grid: np.ndarray,
        to_move: int,
        *,
        limit: SolveLimit = NO_LIMIT,
    ) -> dict[int, int]:
        """Exact score (or 1/0/-1 outcome when ``limit.weak``) of every playable column.

        ``limit.nodes`` bounds the solver's nodes over all the columns (the same stop on
        every machine).

        Raises:
            SolverStopped: the time or the nodes ran out, or ``limit.should_stop`` said so.
        """
        current, mask = self._position(grid, to_move)
        analysis = self.solver.analyze(current, mask, limit=limit)
        return analysis.complete()

    def choose(
        self,
        grid: np.ndarray,
        rules: Rules,
        to_move: int,
        *,
        time_limit: float | None = 1.0,
        should_stop: Callable[[], bool] | None = None,
        node_limit: int | None = None,
    ) -> PerfectChoice:
        """A move that keeps the position's exact value; the quickest win / slowest loss
        among those when the exact scores are found within ``time_limit`` seconds and
        ``node_limit`` solver nodes (a node budget plays the same move on every machine).

        First the outcome (win/draw/loss) and a move that keeps it come from one weak
        search of the position (always finished, whatever the time limit: perfect play
        needs it).  What is already known narrows it: at 12 discs the book's score, later
        the outcome this player's previous move kept (the opponent's reply cannot make
        it worse).  Then, with the time left, exact column scores pick the quickest win or
        slowest loss.  Ties go to the centre.  At 12 discs the book's score is the best
        column's, so the look ends at the first column (centre first) that scores it.

        Raises:
            NotStandardError: ``rules`` are not the standard board.
            SolverStopped: ``should_stop`` returned True.
        """
        if rules != STANDARD:
            raise NotStandardError("perfect play is only for the standard 6x7 connect-4 board")
        started = time.perf_counter()
        deadline = None if time_limit is None else started + time_limit
        current, mask = self._position(grid, to_move)
        children = self._children(current, mask)
        if not children:
            raise ValueError("the board is full: there is no move to choose")
        solver = self.solver
        scores: dict[int, int] = {}
        for col, bit in children:  # a win with this disc
            if self.geo.line_starts(current | bit):
                scores[col] = self._win_now_score(mask)
                return PerfectChoice(col, 1, scores[col], scores, time.perf_counter() - started, 0)
        low, high = self._known_outcome(current, mask)
        weak = solver.best_move(current, mask, limit=SolveLimit(weak=True, should_stop=should_stop), low=low, high=high)
        outcome, move, nodes = weak.score, weak.move, weak.nodes
        bits = dict(children)
        if outcome != 0:  # the quickest win / slowest loss, with the time and nodes left
            left = None if deadline is None else deadline - time.perf_counter()
            analysis = solver.analyze(  # at 12 discs the book's score is the best column's: its first ends the look
                current,
                mask,
                limit=SolveLimit(time=left, nodes=node_limit, should_stop=should_stop),
                enough=solver.book_score(current, mask),
            )
            nodes += analysis.nodes
            if analysis.stopped is not None and should_stop is not None and should_stop():
                raise analysis.stopped
            scores = analysis.scores
            if scores:
                best = max(scores, key=lambda col: scores[col])  # first (centre-most) on ties
                if _sign(scores[best]) == outcome:
                    move = best
        self._kept = (current | bits[move], mask | bits[move], outcome)
        return PerfectChoice(
            move=move,
            outcome=outcome,
            score=scores.get(move),
            scores=scores,
            seconds=time.perf_counter() - started,
            nodes=nodes,
        )

    def _known_outcome(self, current: int, mask: int) -> tuple[int | None, int | None]:
        """Bounds of the outcome (1/0/-1) known without a search: (low, high), None unknown.

        At the book's disc count the book says it.  Right after this player's own move
        and one reply, the outcome is at least the one that move kept.
        """
        score = self.solver.book_score(current, mask)
        if score is not None:
            return _sign(score), _sign(score)
        if self._kept is not None:
            own, after, outcome = self._kept  # after my last move
            reply = mask ^ after
            if own == current and after & mask == after and reply and not reply & (reply - 1):
                return outcome, None
        return None, None

    def ponder(self, grid: np.ndarray, rules: Rules, to_move: int, should_stop: Callable[[], bool]) -> int:
        """Think on the opponent's time: solve our answer to each of their likely replies.

        Call it after the computer's move with the position the person now faces
        (``to_move`` = the person's side).  It walks the replies centre-first, making
        after each one the search ``choose`` would make (outcome and a move that keeps
        it) into the player's tables, until ``should_stop`` returns True or every reply
        is done.  The next ``choose`` then mostly reads its answer from the tables.
        Returns the number of replies finished.
        """
        if rules != STANDARD:
            return 0
        current, mask = self._position(grid, to_move)
        if self.geo.line_starts(current) or self.geo.line_starts(current ^ mask):
            return 0  # the game is over: nothing to think about
        done = 0
        for _, bit in self._children(current, mask):
            if should_stop():
                break
            if self.geo.line_starts(current | bit) or (mask | bit).bit_count() >= self.rules.cells - 1:
                done += 1
                continue
            reply_current, reply_mask = current ^ mask, mask | bit  # the computer to move
            low, high = self._known_outcome(reply_current, reply_mask)
            try:  # the search ``choose`` will make after this reply: its proof goes into the tables
                self.solver.best_move(
                    reply_current, reply_mask, limit=SolveLimit(weak=True, should_stop=should_stop), low=low, high=high
                )
            except SolverStopped:
                break
            done += 1
        return done


_SHARED: PerfectPlayer | None = None


def shared_player() -> PerfectPlayer:
    """The process-wide player (its tables shared by every caller in this process)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = PerfectPlayer()
    return _SHARED


def forget_shared_tables() -> None:
    """Give back the process-wide player's tables, if it was made (its next move starts
    with empty tables, as in a new process; the outcome its last move kept stays known)."""
    if _SHARED is not None:
        _SHARED.solver.clear()


def exact_column_scores(
    grid: np.ndarray,
    rules: Rules,
    to_move: int,
    time_limit: float | None = 2.0,
    *,
    should_stop: Callable[[], bool] | None = None,
) -> dict[int, int] | None:
    """The exact score of every playable column, from the side to move, or None.

    None: the rules are not the standard board, or the scores were not all found within
    ``time_limit`` seconds.  Scores are in the benchmark convention (see module doc).
    """
    if rules != STANDARD:
        return None
    try:
        return shared_player().column_scores(grid, to_move, limit=SolveLimit(time=time_limit, should_stop=should_stop))
    except SolverStopped:
        return None
