"""The computer player, without a window: the one decider, search, exact solver, levels.

    from ai import choose_move, PRESETS
    answer = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)
    answer.move, answer.decided_by, answer.exact

``ai.textbook`` is minimax as the lecture writes it (``maximize`` / ``minimize``, and
``textbook_search`` recording its tree); ``ai.search`` the same search made fast;
``ai.solver`` the exact solver; ``ai.player`` the one place a move is decided;
``ai.exact`` the exact-score type and its words; ``ai.values`` the value scale.
The measuring tools live in ``lab``, which nothing else here imports.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ai.answer import Answer, DecidedBy
from ai.exact import ExactScore
from ai.levels import PRESETS, Level
from ai.search import search
from ai.search_types import SearchResult
from ai.textbook import maximize, minimize, textbook_search
from ai.values import INF, WIN, fmt_value, is_win_value, plies_to_end

if TYPE_CHECKING:
    from ai.player import choose_move
    from ai.solver import Solver

_LOADED_ON_USE = {"choose_move": "ai.player", "Solver": "ai.solver"}
"""Names whose modules bring the exact solver (and numba, once it runs): loaded when first
used, so ``import ai.review`` in the window never pulls the solver in through this face."""


def __getattr__(name: str) -> Any:
    if name in _LOADED_ON_USE:
        return getattr(importlib.import_module(_LOADED_ON_USE[name]), name)
    raise AttributeError(f"module 'ai' has no attribute {name!r}")


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
