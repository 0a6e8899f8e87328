"""The overlay's comparisons: pruning and the table switched (``PruningComparison``) and move order.

Pruning and the transposition table: the overlay's search is timed again beside the
same search with pruning switched and beside it with the table switched, all in the
worker now and all after a warm-up: the first search of a session pays a one-time cost
(loading the compiled search, its tables) that the shown search may have paid, so its
own time is never set beside a warm one.  With the table on, the run with it off is the
real count of nodes the same search needs without it (the statistics show it).

Move order, the lesson after pruning: the overlay's search rerun with each move order.

Alpha-beta finds the same value whatever the order, but prunes more the sooner it tries
the best move.  ``OrderComparison`` reruns the overlay's search (same position, depth,
pruning on) left to right, centre first and best first, one after the other, as COMPARE
jobs on the window's AI worker (the same worker and the same typed messages as every
other search), and keeps each node count as it arrives, to be set beside the
Knuth-Moore minimal tree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ai.levels import Level
from ai.search import MoveOrder, SearchResult
from ai.tree import SearchTree
from game.app.scene import Scene, SceneHost
from game.app.worker_protocol import (
    JobCancelled,
    JobFailed,
    JobProgress,
    JobPurpose,
    JobResult,
    SearchJob,
    WorkerEvent,
)
from game.rules import Rules

ORDERS = (MoveOrder.LEFT_TO_RIGHT, MoveOrder.CENTRE_FIRST, MoveOrder.BEST_FIRST)
NODE_CAP = 5_000_000
"""A run stops past this many nodes (left to right at depth 10 would take minutes)."""


WARM_UP_DEPTH = 2
"""The warm-up searches' depth: enough to load and run the compiled search with each
pruning setting, too little to cost time of its own."""


@dataclass(frozen=True)
class PruningRun:
    """One search of a comparison: a warm-up (not timed for the comparison) or a timed
    run, with pruning and the table on or off."""

    pruning: bool
    warm_up: bool
    result: SearchResult
    table: bool = False


def compare_job(tree: SearchTree, level: Level) -> SearchJob:
    """The shown search as a COMPARE job: the level's own search settings as the search was
    (the same move order and seeded noise), at the tree's depth, pruning and table, no budget."""
    level = replace(level, depth=tree.depth, pruning=tree.pruning, table=tree.table, node_budget=0, perfect=False)
    return SearchJob(tree.grid, tree.rules, tree.to_move, level=level, purpose=JobPurpose.COMPARE, record_tree=False)


class PruningComparison:
    """The shown search, the same search with pruning switched and with the transposition
    table switched, timed like with like: first a shallow warm-up with each setting, then
    the timed runs, one worker job after another.  The scene that started it hands over
    its worker events (``take``)."""

    def __init__(self, app: SceneHost, owner: Scene, job: SearchJob):
        """``job``: the shown search as a COMPARE job (its level's own settings, no budget)."""
        self.app, self.owner = app, owner
        level = job.level
        shown, switched = level, replace(level, pruning=not level.pruning)
        other_table = replace(level, table=not level.table)
        shallow = min(WARM_UP_DEPTH, level.depth)
        self.plan: list[tuple[Level, bool]] = [  # (the level searched, a warm-up?) in order
            (replace(shown, depth=shallow), True),
            (replace(switched, depth=shallow), True),
            (replace(other_table, depth=shallow), True),
            (shown, False),
            (switched, False),
            (other_table, False),
        ]
        self.job = job
        self.runs: list[PruningRun] = []
        self.progress: JobProgress | None = None
        self.failed: str | None = None
        self.job_id: int | None = None
        self._submit_next()

    @property
    def running(self) -> bool:
        return self.job_id is not None

    @property
    def warming_up(self) -> bool:
        """The job under way is a warm-up."""
        return self.running and self.plan[len(self.runs)][1]

    def switched_result(self) -> SearchResult | None:
        """The timed run with pruning switched, once the timed runs have finished."""
        shown = self.job.level
        if self.running or self.timed(shown.pruning, shown.table) is None:
            return None
        return self.timed(not shown.pruning, shown.table)

    def table_switched(self) -> SearchResult | None:
        """The timed run with the table switched, once it has finished."""
        shown = self.job.level
        return self.timed(shown.pruning, not shown.table)

    def timed(self, pruning: bool, table: bool | None = None) -> SearchResult | None:
        """The timed run with ``pruning`` and ``table`` (the shown search's by default), once finished."""
        table = self.job.level.table if table is None else table
        found = (run for run in self.runs if not run.warm_up and (run.pruning, run.table) == (pruning, table))
        return next((run.result for run in found), None)

    def _submit_next(self) -> None:
        level, _warm_up = self.plan[len(self.runs)]
        self.progress = None
        self.job_id = self.app.submit(replace(self.job, level=level), self.owner)

    def take(self, event: WorkerEvent) -> bool:
        """Take in a worker event if it is this comparison's; True if it was."""
        if self.job_id is None or event.job_id != self.job_id:
            return False
        if isinstance(event, JobProgress):
            self.progress = event
        elif isinstance(event, JobResult) and event.result is not None:
            level, warm_up = self.plan[len(self.runs)]
            self.runs.append(PruningRun(level.pruning, warm_up, event.result, level.table))
            self.job_id = None
            if len(self.runs) < len(self.plan):
                self._submit_next()
        elif isinstance(event, JobFailed):
            self.failed, self.job_id = event.message, None
        elif isinstance(event, JobCancelled):
            self.job_id = None
        return True

    def cancel(self) -> None:
        """Stop now (closing the overlay, another search, C again)."""
        if self.job_id is not None and self.app.worker.current == self.job_id:
            self.app.worker.cancel()
        self.job_id = None


@dataclass(frozen=True)
class OrderRun:
    """One finished (or capped) run: ``nodes`` below the root of the deepest pass."""

    order: MoveOrder
    nodes: int
    total_nodes: int  # all iterative-deepening passes
    seconds: float
    value: int | None  # None when the run was stopped at the node cap
    move: int | None

    @property
    def capped(self) -> bool:
        return self.value is None


class OrderComparison:
    """The three orders' runs for one position, one worker job after another; the scene
    that started it hands over its worker events (``take``)."""

    def __init__(
        self,
        app: SceneHost,
        owner: Scene,
        grid: np.ndarray,
        rules: Rules,
        to_move: int,
        depth: int,
        *,
        cap: int = NODE_CAP,
        noise: int = 0,
    ):
        self.app, self.owner = app, owner
        self.grid, self.rules, self.to_move = np.asarray(grid, dtype=np.int8), rules, to_move
        self.depth, self.cap, self.noise = depth, cap, noise
        self.runs: list[OrderRun] = []
        self.job_id: int | None = None
        self._submit_next()

    @property
    def running(self) -> bool:
        return self.job_id is not None

    @property
    def next_order(self) -> MoveOrder | None:
        """The order being searched now (None when all are done)."""
        return ORDERS[len(self.runs)] if self.running and len(self.runs) < len(ORDERS) else None

    def _submit_next(self) -> None:
        # The level's judgement (its noise, with choose_move's seed 0), pruning on, capped.
        level = Level(self.depth, order=ORDERS[len(self.runs)], noise=self.noise, node_budget=self.cap)
        job = SearchJob(self.grid, self.rules, self.to_move, level=level, purpose=JobPurpose.COMPARE, record_tree=False)
        self.job_id = self.app.submit(job, self.owner)

    def take(self, event: WorkerEvent) -> bool:
        """Take in a worker event if it is this comparison's; True if it was."""
        if self.job_id is None or event.job_id != self.job_id:
            return False
        if isinstance(event, JobResult) and event.result is not None:
            result = event.result
            stats = result.stats
            value = result.value if result.completed else None  # None: stopped at the node cap
            order = ORDERS[len(self.runs)]
            self.runs.append(OrderRun(order, stats.nodes, stats.total_nodes, stats.seconds, value, result.move))
            self.job_id = None
            if len(self.runs) < len(ORDERS):
                self._submit_next()
        elif isinstance(event, (JobFailed, JobCancelled)):
            self.job_id = None
        return True

    def cancel(self) -> None:
        """Stop now (closing the overlay, another search, O again)."""
        if self.job_id is not None and self.app.worker.current == self.job_id:
            self.app.worker.cancel()
        self.job_id = None
