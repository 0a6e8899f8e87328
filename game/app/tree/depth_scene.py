"""Depth against truth in the window (D in the tree overlay): the chart of ``ai.depth_truth``.

The measuring is a job for the AI worker (``DepthJob``: the solver and a dozen searches
take seconds): the chart fills in as the current position, then the benchmark sample,
are done.  Closing the chart cancels the job.

Controls:
- Esc or D: back to the tree (a measurement under way stops)
"""

from __future__ import annotations

import pygame

from ai.depth_table import SAMPLE, DepthTruth
from ai.tree import SearchTree
from game.app.depth_chart import draw_depth_chart
from game.app.tree.chart_overlay import ChartOverlay
from game.app.worker_protocol import DepthJob, DepthResult, Job, WorkerEvent
from game.board import Board
from game.i18n import N_


class DepthChartScene(ChartOverlay):
    name = "depth chart"
    close_key = pygame.K_d
    done_text = N_("Done. Esc goes back to the tree.")

    def __init__(self, tree: SearchTree, positions: int = SAMPLE):
        super().__init__(Board(tree.rules, tree.grid, tree.to_move))
        self.positions = positions
        self.current: DepthTruth | None = None
        self.bench: DepthTruth | None = None

    def measure_job(self) -> Job:
        board = self.board
        return DepthJob(board.grid.copy(), board.rules, board.to_move, self.positions)

    def take(self, event: WorkerEvent) -> bool:
        if not isinstance(event, DepthResult):
            return False
        self.current, self.bench, self.status = event.current, event.bench, event.status
        return event.final

    def draw_chart(self, surface: pygame.Surface, area: pygame.Rect, status: str) -> None:
        draw_depth_chart(surface, area, self.app.theme, self.current, self.bench, status)
