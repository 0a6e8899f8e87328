"""Recorded trees a tree-overlay scene asks the AI worker for (the code walk's textbook
search, practice's trees), one job after another.

A ``TreeAsk`` says which search to record; ``TreeFetch`` sends them in turn, takes in the
answers the scene hands it, and asks again if another job took the worker meanwhile.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ai.levels import Level
from ai.search import MoveOrder
from ai.tree import SearchTree
from game.app.job_slot import JobSlot
from game.app.worker_protocol import (
    Job,
    JobFailed,
    JobPurpose,
    JobResult,
    SearchJob,
    TextbookJob,
    TreeReady,
    WorkerEvent,
)
from game.board import Board
from game.i18n import _
from game.rules import Rules

if TYPE_CHECKING:  # a type only: practice's sentences (which ask through TreeAsk) stay without pygame
    from game.app.scene import Scene


@dataclass(frozen=True)
class TreeAsk:
    """A search whose tree is wanted: the textbook's (left to right) or the fast one's."""

    grid: np.ndarray
    rules: Rules
    to_move: int
    depth: int
    pruning: bool
    textbook: bool
    order: MoveOrder = MoveOrder.BEST_FIRST

    @classmethod
    def of(cls, board: Board, depth: int, *, pruning: bool, textbook: bool) -> TreeAsk:
        return cls(board.grid.copy(), board.rules, board.to_move, depth, pruning, textbook)

    def job(self) -> Job:
        """The worker job that records this tree."""
        if self.textbook:
            return TextbookJob(self.grid, self.rules, self.to_move, self.depth, self.pruning)
        level = Level(self.depth, self.pruning, order=self.order)
        return SearchJob(self.grid, self.rules, self.to_move, level=level, purpose=JobPurpose.COMPARE)


class TreeFetch:
    """Asks for ``asks`` one after another; ``trees`` fills in order, ``ready`` once all came."""

    def __init__(self, scene: Scene, asks: list[TreeAsk]):
        self.asks = asks
        self.trees: list[SearchTree] = []
        self.nodes: list[int] = []  # each search's node count, as its answer said
        self.failed: str | None = None
        self.slot = JobSlot(scene)

    @property
    def ready(self) -> bool:
        return len(self.trees) == len(self.asks)

    def update(self) -> None:
        """Ask for the next tree (again, if another job took the worker); call each frame."""
        if self.ready or self.failed is not None:
            return
        if self.slot.id is None or self.slot.lost():
            self.slot.submit(self.asks[len(self.trees)].job())

    def take(self, event: WorkerEvent) -> bool:
        """Take in the worker's event if it is this fetch's; True if it was."""
        if not self.slot.owns(event):
            return False
        if isinstance(event, JobResult):
            self.nodes.append(event.answer.nodes)
            if not event.tree_follows:
                self.slot.done()
                self.failed = _("the search recorded no tree")
        elif isinstance(event, TreeReady):
            self.slot.done()
            self.trees.append(event.tree)
        elif isinstance(event, JobFailed):
            self.slot.done()
            self.failed = event.message
        return True

    def cancel(self) -> None:
        self.slot.cancel()
