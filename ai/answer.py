"""The one answer a level gives: its move, who decided it, and what it knew.

``ai.player.choose_move`` makes these; every front end carries and shows them.  This
module is light (no solver, no numba) so the window can read answers it never computed.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from ai.exact import ExactScore
from ai.levels import Level
from ai.mcts import MctsResult
from ai.search_types import SearchResult


class Purpose(enum.Enum):
    """What a move is asked for."""

    MOVE = "move"  # the level's own move, as it plays
    HINT = "hint"  # the best move for the side to move: no beginner's blur, exact scores where found


class DecidedBy(enum.Enum):
    """Who decided the move of an ``Answer``."""

    BOOK = "opening book"
    SOLVER = "exact solver"
    SEARCH = "search"
    OVERRULED = "search overruled by the solver"
    FALLBACK = "fallback"  # the outside clock ran out: a shallow search or a quick safe move
    MCTS = "Monte Carlo tree search"  # a level ``mcts:N``: the most-visited move of its playouts

    @property
    def is_exact(self) -> bool:
        """The move itself came from perfect knowledge (book or solver)."""
        return self in (DecidedBy.BOOK, DecidedBy.SOLVER)


@dataclass(frozen=True)
class Answer:
    """A level's move and everything it knew when it chose it (immutable).

    ``value`` is the heuristic search's value from MAX's side (the exact one when no
    search ran); ``exact`` the position's exact result where known; ``column_scores`` the
    exact result after each column, where known; ``result`` the search (stats, line, move
    values, tree), None for book and solver answers; ``mcts`` a Monte Carlo level's search
    (``value`` is then its mean result from MAX's side, -100..100: ``MctsResult.value``).
    """

    move: int | None  # 0-based; None when the game is already over
    decided_by: DecidedBy
    level: Level  # the level that played (Perfect off the standard board: Expert)
    value: int
    exact: ExactScore | None = None
    column_scores: Mapping[int, ExactScore] | None = None
    result: SearchResult | None = None
    nodes: int = 0  # everything this answer cost: solver and search nodes
    seconds: float = 0.0
    note: str | None = None  # something the person should know (an overrule, a stand-in level)
    mcts: MctsResult | None = None  # a Monte Carlo level's search (its playouts and tree)

    @property
    def depth(self) -> int:
        """The deepest finished search pass (0: no search decided)."""
        return self.result.depth if self.result is not None else 0

    @property
    def cut_short(self) -> bool:
        """A clock or a budget stopped the thinking before the level was done."""
        if self.mcts is not None and not self.mcts.completed:
            return True
        return self.decided_by is DecidedBy.FALLBACK or (self.result is not None and not self.result.completed)
