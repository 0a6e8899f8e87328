"""How a level plays a move: the one entry point the window, the CLI, the engine and the
benchmarks share, so a level means the same thing everywhere.

    from ai.player import choose_move
    choice = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)

Today a level is a depth-limited search (``ai.search``); the Perfect level and the
beginner's noise plug in here, so callers never need to know which engine answered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ai.levels import Level
from ai.search import ProgressCallback, SearchResult, search
from ai.tree import DEFAULT_BUDGET
from game.rules import Rules


@dataclass(frozen=True)
class Choice:
    """The move a level chose and what it knew when it chose it."""

    move: int | None  # None when the game is already over
    value: int  # from MAX's side (``ai.values``)
    depth: int  # the deepest finished search pass (0 for a book or solver answer)
    nodes: int
    seconds: float
    result: SearchResult | None = None  # the heuristic search, where one was run


def choose_move(
    level: Level,
    grid: np.ndarray,
    rules: Rules,
    to_move: int,
    *,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
    record_tree: bool = False,
    tree_budget: int = DEFAULT_BUDGET,
) -> Choice:
    """Choose ``level``'s move in this position.

    Args:
        level: what to play like (depth, pruning, time budget ...).
        grid, rules, to_move: the position (``to_move`` is 1 for MAX, -1 for MIN).
        time_limit: seconds for this move; overrides the level's own budget when smaller.
        should_stop: polled during the search; True cancels it (``SearchCancelled``).
        on_progress: progress reports of the search.
        record_tree, tree_budget: keep the heuristic search's tree (``result.tree``), at
            most ``tree_budget`` nodes (the window's tree overlay shows it).

    Returns:
        A ``Choice``; its ``move`` is 0-based (a column under gravity, a cell index without).
    """
    limits = [t for t in (level.time_limit, time_limit) if t]
    result = search(
        grid,
        rules,
        level.depth,
        pruning=level.pruning,
        time_limit=min(limits) if limits else None,
        to_move=to_move,
        should_stop=should_stop,
        on_progress=on_progress,
        record_tree=record_tree,
        tree_budget=tree_budget,
    )
    return Choice(
        move=result.move,
        value=result.value,
        depth=result.depth,
        nodes=result.stats.total_nodes,
        seconds=result.stats.seconds,
        result=result,
    )
