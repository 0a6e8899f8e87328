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
from game.app.job_slot import JobSlot
from game.app.scene import Scene
from game.app.widgets import dim
from game.app.worker_protocol import DepthJob, DepthResult, JobFailed, WorkerEvent
from game.board import Board
from game.i18n import _
from game.notation import format_move


class DepthChartScene(Scene):
    is_overlay = True
    name = "depth chart"

    def __init__(self, tree: SearchTree, positions: int = SAMPLE):
        super().__init__()
        self.board = Board(tree.rules, tree.grid, tree.to_move)
        self.positions = positions
        self.current: DepthTruth | None = None
        self.bench: DepthTruth | None = None
        self.status = _("Measuring this position...")
        self.failed: str | None = None
        self.job = JobSlot(self)
        self.finished = False

    def on_enter(self) -> None:
        self.ask()

    def ask(self) -> None:
        """Ask the worker to measure (again from the start if another job took it)."""
        board = self.board
        self.job.submit(DepthJob(board.grid.copy(), board.rules, board.to_move, self.positions))

    def on_exit(self) -> None:
        self.job.cancel()

    @property
    def done(self) -> bool:
        return self.finished

    def update(self, dt: float) -> None:
        if self.job.lost() and not self.finished:
            self.ask()

    def on_worker_event(self, event: WorkerEvent) -> None:
        if not self.job.owns(event):
            return
        if isinstance(event, DepthResult):
            self.current, self.bench, self.status = event.current, event.bench, event.status
            if event.final:
                self.job.done()
                self.finished = True
        elif isinstance(event, JobFailed):
            self.job.done()
            self.finished = True
            self.failed = _("The measurement failed: {message}").format(message=event.message)
            self.status = self.failed

    def is_animating(self) -> bool:
        return not self.done

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_d):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        dim(surface, 150)
        theme = self.app.theme
        p = theme.palette
        w, h = surface.get_size()
        panel = pygame.Rect(12, 12, w - 24, h - 24)
        pygame.draw.rect(surface, p.panel, panel, border_radius=6)
        pygame.draw.rect(surface, p.muted, panel, 1, border_radius=6)
        moves = " ".join(format_move(m, self.board.rules) for m in self.board.moves)
        status = self.status or _("Done. Esc goes back to the tree.")
        if moves:
            status = _("{status}  (position: {moves})").format(status=status, moves=moves)
        draw_depth_chart(surface, panel.inflate(-8, -8), theme, self.current, self.bench, status)
