"""MCTS against the truth in the window (G in MCTS beside minimax, a lesson of the course).

The measuring is a job for the AI worker (``MctsChartJob``: the exact solver and eight
searches up to 100,000 playouts): the chart appears when they are done, the searches
counted meanwhile.  Closing the chart cancels the job.

Controls:
- Esc or G: back (a measurement under way stops)
"""

from __future__ import annotations

import pygame

from ai.mcts_table import MctsTruth
from game.app.mcts_chart import draw_mcts_chart
from game.app.tree.chart_overlay import ChartOverlay
from game.app.worker_protocol import Job, MctsChartJob, MctsChartResult, WorkerEvent
from game.board import Board


class MctsChartScene(ChartOverlay):
    name = "mcts chart"
    close_key = pygame.K_g

    def __init__(self, board: Board, budgets: tuple[int, ...], seed: int = 0):
        super().__init__(board.copy())
        self.budgets = budgets
        self.seed = seed
        self.truth: MctsTruth | None = None

    def measure_job(self) -> Job:
        board = self.board
        return MctsChartJob(board.grid.copy(), board.rules, board.to_move, self.budgets, self.seed)

    def take(self, event: WorkerEvent) -> bool:
        if not isinstance(event, MctsChartResult):
            return False
        self.truth, self.status = event.truth or self.truth, event.status
        return event.final

    def draw_chart(self, surface: pygame.Surface, area: pygame.Rect, status: str) -> None:
        draw_mcts_chart(surface, area, self.app.theme, self.truth, status)
