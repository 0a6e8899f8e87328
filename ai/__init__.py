"""The computer player, without a window: the one decider, search, exact solver, levels.

    from ai import choose_move, PRESETS
    answer = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)
    answer.move, answer.decided_by, answer.exact

``ai.textbook`` is minimax as the lecture writes it (``maximize`` / ``minimize``, and
``textbook_search`` recording its tree); ``ai.search`` the same search made fast;
``ai.solver`` the exact solver; ``ai.player`` the one place a move is decided;
``ai.exact`` the exact-score type and its words; ``ai.values`` the value scale.
The measuring tools live in ``ai.lab``, which nothing else here imports.
"""

from ai.answer import Answer, DecidedBy
from ai.exact import ExactScore
from ai.levels import PRESETS, Level
from ai.player import choose_move
from ai.search import SearchResult, search
from ai.solver import Solver
from ai.textbook import maximize, minimize, textbook_search
from ai.values import INF, WIN, fmt_value, is_win_value, plies_to_end

__all__ = [
    "INF",
    "PRESETS",
    "WIN",
    "Answer",
    "DecidedBy",
    "ExactScore",
    "Level",
    "SearchResult",
    "Solver",
    "choose_move",
    "fmt_value",
    "is_win_value",
    "maximize",
    "minimize",
    "plies_to_end",
    "search",
    "textbook_search",
]
