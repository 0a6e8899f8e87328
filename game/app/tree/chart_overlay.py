"""What the charts over a position share (the depth chart, MCTS against the truth): a job
for the AI worker that measures, the chart drawn as its results come, Esc (or the chart's
own key) back, which cancels a measurement under way.  No scene is defined here: each
chart's scene says what it asks, what it keeps of an answer and how it draws."""

from __future__ import annotations

import pygame

from game.app.job_slot import JobSlot
from game.app.scene import Scene
from game.app.tree.text import with_position
from game.app.widgets import chart_panel
from game.app.worker_protocol import Job, JobFailed, WorkerEvent
from game.board import Board
from game.i18n import N_, _


class ChartOverlay(Scene):
    """The part of a chart's scene every chart has; a subclass gives ``measure_job``,
    ``take`` and ``draw_chart`` (and ``close_key``, ``done_text``)."""

    is_overlay = True
    close_key = pygame.K_ESCAPE
    done_text = N_("Done. Esc goes back.")

    def __init__(self, board: Board):
        super().__init__()
        self.board = board
        self.status = _("Measuring this position...")
        self.failed: str | None = None
        self.job = JobSlot(self)
        self.finished = False

    def measure_job(self) -> Job:
        raise NotImplementedError

    def take(self, event: WorkerEvent) -> bool:
        """Keep what ``event`` (one of this chart's answers) brings; True on the last one."""
        raise NotImplementedError

    def draw_chart(self, surface: pygame.Surface, area: pygame.Rect, status: str) -> None:
        raise NotImplementedError

    def on_enter(self) -> None:
        self.ask()

    def ask(self) -> None:
        """Ask the worker to measure (again from the start if another job took it)."""
        self.job.submit(self.measure_job())

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
        if isinstance(event, JobFailed):
            self.job.done()
            self.finished = True
            self.failed = _("The measurement failed: {message}").format(message=event.message)
            self.status = self.failed
        elif self.take(event):
            self.job.done()
            self.finished = True
        self.app.dirty = True

    def is_animating(self) -> bool:
        return not self.finished

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, self.close_key):
            self.app.pop()

    def draw(self, surface: pygame.Surface) -> None:
        area = chart_panel(surface, self.app.theme)
        self.draw_chart(surface, area, with_position(self.status or _(self.done_text), self.board))
