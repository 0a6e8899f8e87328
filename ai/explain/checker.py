"""The proof of a strategy: follow the pairs against every reply, to the end of the game.

A strategy (``ai.explain.explanation.Strategy``) is a deterministic policy for its side,
the *holder*, given its pairs: at each of its turns it

1. completes a line if it can (any playable cell that does);
2. otherwise, the opponent's last disc having filled one square of a pair, takes the
   other square of that pair, which must be playable now.

``check`` starts with the opponent to move and tries every legal reply at every turn,
depth first, remembering each position it has decided (the key of ``ai.solver``: the
holder's discs plus all discs).  A position fails when

- the opponent can complete a line (it will: it is to move);
- the opponent's disc is in no pair, or its pair's other square is not playable, and the
  holder cannot win at once (the policy has no move: the strategy does not cover it);
- the board fills up with no line while the claim is a win.

Nothing else is asked: no solver, no heuristics.  The claim holds when no position
reached fails: for ``WIN`` every game ends in a line of the holder's, for ``DRAW`` the
opponent never completes a line.  Work is counted in positions and bounded
(``budget``), so the same question gets the same answer on every machine.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ai.explain.board import BOARD, playable, wins_now
from ai.explain.explanation import WIN
from ai.solver import SolverStopped

POLL_EVERY = 4096
"""Positions between two looks at ``should_stop``."""


class OutOfWork(Exception):
    """The check used up its budget of positions before it was decided."""


@dataclass(frozen=True)
class Proof:
    """The outcome of a check: ``holds``; the positions visited; the cells where the holder
    completed a line (a bitboard); and, when it does not hold, ``failure`` in a few words."""

    holds: bool
    positions: int
    wins_at: int = 0
    failure: str = ""


class _Check:
    def __init__(self, partner: Mapping[int, int], claim: int, budget: int, should_stop: Callable[[], bool] | None):
        self.partner = partner
        self.need_win = claim == WIN
        self.budget = budget
        self.should_stop = should_stop
        self.seen: dict[int, bool] = {}
        self.wins_at = 0
        self.failure = ""

    def holds(self, hold: int, mask: int) -> bool:
        """Whether the policy keeps the claim from here, the opponent to move."""
        key = hold + mask
        known = self.seen.get(key)
        if known is not None:
            return known
        if len(self.seen) >= self.budget:
            raise OutOfWork
        if self.should_stop is not None and not len(self.seen) % POLL_EVERY and self.should_stop():
            raise SolverStopped("the explanation was cancelled")
        self.seen[key] = True  # no position repeats on its own line: the flag is only read by others
        result = self._replies(hold, mask)
        self.seen[key] = result
        return result

    def _replies(self, hold: int, mask: int) -> bool:
        opponent = hold ^ mask
        moves = playable(mask)
        if wins_now(opponent, mask):
            self.failure = "the opponent completes a line"
            return False
        while moves:
            bit = moves & -moves
            moves ^= bit
            after = mask | bit
            if after == BOARD:  # the opponent's disc filled the board: a draw
                if self.need_win:
                    self.failure = "the board fills up"
                    return False
                continue
            win = wins_now(hold, after)
            if win:
                self.wins_at |= win & -win  # the policy takes the lowest such cell
                continue
            other = self.partner.get(bit, 0)
            if not other & playable(after):
                self.failure = "a disc the pairs do not answer"
                return False
            answered = after | other
            if answered == BOARD:
                if self.need_win:
                    self.failure = "the board fills up"
                    return False
                continue
            if not self.holds(hold | other, answered):
                return False
        return True


def check(
    hold: int,
    mask: int,
    partner: Mapping[int, int],
    claim: int,
    *,
    budget: int,
    should_stop: Callable[[], bool] | None = None,
) -> Proof:
    """Check the pair policy of the holder (discs ``hold``) in the position ``mask``, the
    opponent to move: does it get the holder ``claim`` against every reply?

    Args:
        partner: each paired cell (a one-bit bitboard) to the other cell of its pair.
        claim: ``WIN`` or ``DRAW`` (at least a draw).
        budget: positions the check may decide; past them it is undecided (``OutOfWork``).

    Raises:
        OutOfWork: the budget ran out.
        SolverStopped: ``should_stop`` said so.
    """
    run = _Check(partner, claim, budget, should_stop)
    holds = run.holds(hold, mask)
    return Proof(holds, len(run.seen), run.wins_at if holds else 0, "" if holds else run.failure)
