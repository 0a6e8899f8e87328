"""Timing this machine's search: the calibration behind the level screen's times.

``calibrate`` plays a few plain levels' moves from the empty standard board (through
``ai.player.choose_move``, as the worker plays them) and measures what
``ai.cost.Calibration`` holds: the cost of a one-pass, one-ply search (a pass's cost
whatever its size), then the
positions a second without pruning and with it, each from a search deep enough to take
about ``TARGET_SECONDS`` (deeper on a fast machine, shallower on the pure-Python path).
It takes about a second; the window's worker runs it once (at the first start, and
again for a new version of the game) and keeps the figures with the settings.

The times are the process's CPU seconds (``time.process_time``: the worker's other
threads are idle by then, the kernels compiled), not wall seconds: they say what this
machine does, not how busy it was that second.  On a quiet machine a move's wall time is
its CPU time; on a busy one it is longer, by the load.  A level
is never defined by them: they only say how long its work takes here.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import numpy as np

from ai.compiled import search_kernel
from ai.cost import Calibration
from ai.levels import Level
from ai.player import choose_move
from ai.search import SearchProgress
from game.rules import MAX, STANDARD
from game.version import __version__

TARGET_SECONDS = 0.12
"""A timed search is deepened until it takes about this long (long enough to measure a rate)."""
DEPTHS = {False: range(4, 9), True: range(6, 13)}
"""The depths tried without pruning and with it (the deepest is used if none takes long enough)."""
REPEATS = 3
"""Each timing is the median of this many runs (a busy machine disturbs some)."""
PASS_REPEATS = 9
"""The one-ply search that times a pass is repeated more: it takes well under a millisecond."""


def calibrate(should_stop: Callable[[], bool] | None = None) -> Calibration:
    """Time the search on this machine (about a second).

    Raises:
        ai.search.SearchCancelled: ``should_stop`` returned True.
    """
    stop = should_stop or (lambda: False)
    grid = np.zeros((STANDARD.rows, STANDARD.cols), dtype=np.int8)

    def timed(depth: int, pruning: bool, repeats: int = REPEATS) -> tuple[float, int]:
        times, nodes = [], 0
        for _ in range(repeats):
            # As the worker plays a move: through the one decider, with a stop request to
            # poll and progress to report.
            cpu = time.process_time()
            level = Level(depth, pruning)
            answer = choose_move(level, grid, STANDARD, MAX, should_stop=stop, on_progress=_ignore)
            times.append(time.process_time() - cpu)
            assert answer.result is not None  # a plain level: the search decided
            nodes = answer.result.stats.total_nodes
        return statistics.median(times), nodes

    pass_seconds = timed(1, False, PASS_REPEATS)[0]
    rates = {}
    for pruning, depths in DEPTHS.items():
        for depth in depths:
            seconds, nodes = timed(depth, pruning)
            if seconds >= TARGET_SECONDS or depth == depths[-1]:
                break
        passes = depth if pruning else 1
        rates[pruning] = nodes / max(seconds - passes * pass_seconds, seconds / 10)
    engine = "compiled" if search_kernel.LOADER.is_ready() and search_kernel.usable(STANDARD) else "python"
    return Calibration(pass_seconds, rates[False], rates[True], engine, __version__)


def _ignore(progress: SearchProgress) -> None:
    """Progress nobody reads (the worker's searches report it: the timing pays for it too)."""
