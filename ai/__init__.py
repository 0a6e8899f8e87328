"""The computer player, without a window: search, exact solver, levels and benchmarks.

    from ai import search, Solver
    result = search(board.grid, board.rules, depth=6)

``ai.search`` is the fast alpha-beta search; ``ai.textbook`` the same minimax written as
the lecture shows it; ``ai.solver`` the exact solver; ``ai.values`` the value scale.
"""

from ai.levels import PRESETS, Level
from ai.search import SearchResult, search
from ai.solver import Solver
from ai.textbook import maximize, minimize, textbook_search
from ai.values import INF, WIN, fmt_value, is_win_value, plies_to_end

__all__ = [
    "INF",
    "PRESETS",
    "WIN",
    "Level",
    "SearchResult",
    "Solver",
    "fmt_value",
    "is_win_value",
    "plies_to_end",
    "search",
    "maximize",
    "minimize",
    "textbook_search",
]
