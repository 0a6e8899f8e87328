"""Move order, the lesson after pruning: the overlay's search rerun with each move order.

Alpha-beta finds the same value whatever the order, but prunes more the sooner it tries
the best move.  ``OrderComparison`` reruns the overlay's search (same position, depth,
pruning on) left to right, centre first and best first, one after the other, in a
helper process of its own so the window keeps its frames, and reports each node count
as it arrives, to be set beside the Knuth-Moore minimal tree.

The helper process watches its parent: if the window's process goes away it stops at
its next look at the clock (every few thousand nodes).  Messages are a few bytes each,
read only after ``poll()`` says one is there, so a read never blocks a frame.
"""

from __future__ import annotations

import multiprocessing
import os
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from ai.search import MoveOrder, SearchCancelled, search
from game.rules import Rules

ORDERS = (MoveOrder.LEFT_TO_RIGHT, MoveOrder.CENTRE_FIRST, MoveOrder.BEST_FIRST)
NODE_CAP = 5_000_000
"""A run stops past this many nodes (left to right at depth 10 would take minutes)."""


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


def _run_orders(
    conn: Connection, grid: np.ndarray, rules: Rules, to_move: int, depth: int, parent: int, cap: int, noise: int
) -> None:
    """The helper process: each order in turn, a message per finished run."""
    counted = [0]

    def should_stop() -> bool:
        return os.getppid() != parent or counted[0] > cap

    def progress(report: Any) -> None:
        counted[0] = report.nodes

    try:
        for order in ORDERS:
            counted[0] = 0
            try:
                result = search(
                    grid,
                    rules,
                    depth,
                    to_move=to_move,
                    order=order,
                    should_stop=should_stop,
                    on_progress=progress,
                    noise=noise,  # with ``choose_move``'s seed (0): a noisy level's own judgement
                )
            except SearchCancelled:
                if os.getppid() != parent:
                    return
                conn.send((order.name, counted[0], counted[0], 0.0, None, None))
                continue
            stats = result.stats
            conn.send((order.name, stats.nodes, stats.total_nodes, stats.seconds, result.value, result.move))
    except (BrokenPipeError, EOFError, OSError):
        return  # the window closed the pipe
    finally:
        conn.close()


class OrderComparison:
    """The three orders' runs for one position, in a helper process; ``poll`` each frame."""

    def __init__(
        self, grid: np.ndarray, rules: Rules, to_move: int, depth: int, *, cap: int = NODE_CAP, noise: int = 0
    ):
        self.depth = depth
        self.runs: list[OrderRun] = []
        context = multiprocessing.get_context("spawn")
        reader, writer = context.Pipe(duplex=False)
        self._reader: Connection | None = reader
        self._process = context.Process(
            target=_run_orders,
            args=(writer, np.asarray(grid, dtype=np.int8), rules, to_move, depth, os.getpid(), cap, noise),
            daemon=True,
            name="connect4-order-comparison",
        )
        self._process.start()
        writer.close()  # the child holds the only writing end: its exit ends the pipe

    @property
    def running(self) -> bool:
        return self._reader is not None

    @property
    def next_order(self) -> MoveOrder | None:
        """The order being searched now (None when all are done)."""
        return ORDERS[len(self.runs)] if self.running and len(self.runs) < len(ORDERS) else None

    def poll(self) -> bool:
        """Take in the runs that have finished; return True if anything changed."""
        reader = self._reader
        if reader is None:
            return False
        changed = False
        try:
            while reader.poll():
                name, nodes, total, seconds, value, move = reader.recv()
                self.runs.append(OrderRun(MoveOrder[name], nodes, total, seconds, value, move))
                changed = True
        except (EOFError, OSError):  # finished (or died): the pipe is closed
            self._finish()
            return True
        if len(self.runs) == len(ORDERS):
            self._finish()
        return changed

    def cancel(self) -> None:
        """Stop the helper process now (closing the overlay, another search, C again)."""
        if self._process.is_alive():
            self._process.terminate()
        self._finish()

    def _finish(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None
        self._process.join(timeout=1.0)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=1.0)
