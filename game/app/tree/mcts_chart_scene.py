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
from game.app.job_slot import JobSlot
from game.app.mcts_chart import draw_mcts_chart
from game.app.scene import Scene
from game.app.widgets import dim
from game.app.worker_protocol import JobFailed, MctsChartJob, MctsChartResult, WorkerEvent
from game.board import Board
from game.i18n import _
from game.notation import format_move


class MctsChartScene(Scene):
    is_overlay = True
    name = "mcts chart"

    def __init__(self, board: Board, budgets: tuple[int, ...], seed: int = 0):
        super().__init__()
        self.board = board.copy()
        self.budgets = budgets
        self.seed = seed
        self.truth: MctsTruth | None = None
        self.status = _("Measuring this position...")
        self.finished = False

    def on_enter(self) -> None:
        self.job = JobSlot(self)
        self.ask()

    def ask(self) -> None:
        """Ask the worker to measure (again from the start if another job took it)."""
        board = self.board
        self.job.submit(MctsChartJob(board.grid.copy(), board.rules, board.to_move, self.budgets, self.seed))

    def on_exit(self) -> None:
        self.job.cancel()

    def update(self, dt: float) -> None:
        if self.job.lost() and not self.finished:
            self.ask()

    def on_worker_event(self, event: WorkerEvent) -> None:
        if not self.job.owns(event):
            return
        if isinstance(event, MctsChartResult):
            self.truth, self.status = event.truth or self.truth, event.status
            if event.final:
                self.job.done()
                self.finished = True
        elif isinstance(event, JobFailed):
            self.job.done()
            self.finished = True
            self.status = _("The measurement failed: {message}").format(message=event.message)
        self.app.dirty = True

    def is_animating(self) -> bool:
        return not self.finished

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_g):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        dim(surface, 150)
        theme = self.app.theme
        p = theme.palette
        w, h = surface.get_size()
        panel = pygame.Rect(12, 12, w - 24, h - 24)
        pygame.draw.rect(surface, p.panel, panel, border_radius=6)
        pygame.draw.rect(surface, p.muted, panel, 1, border_radius=6)
        status = self.status or _("Done. Esc goes back.")
        moves = " ".join(format_move(move, self.board.rules) for move in self.board.moves)
        if moves:
            status = _("{status}  (position: {moves})").format(status=status, moves=moves)
        draw_mcts_chart(surface, panel.inflate(-8, -8), theme, self.truth, status)
