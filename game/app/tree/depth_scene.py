"""Depth against truth in the window (D in the tree overlay): the chart of ``ai.depth_truth``.

The measuring runs in a thread (the solver and a dozen searches take seconds), away from
the frame loop: the chart fills in as the current position, then the benchmark sample,
are done.  Closing the chart stops the thread at its next poll.

Controls:
- Esc or D: back to the tree (a measurement under way stops)
"""

from __future__ import annotations

import threading

import pygame

from ai.depth_truth import SAMPLE, DepthTruth, benchmark_boards, depth_truth
from ai.search import SearchCancelled
from ai.tree import SearchTree
from game.app.depth_chart import draw_depth_chart
from game.app.scene import Scene
from game.app.scenes.menu import dim
from game.board import Board
from game.notation import format_move
from game.rules import STANDARD


class DepthChartScene(Scene):
    is_overlay = True
    name = "depth chart"

    def __init__(self, tree: SearchTree, positions: int = SAMPLE):
        super().__init__()
        self.board = Board(tree.rules, tree.grid, tree.to_move)
        self.positions = positions
        self.current: DepthTruth | None = None
        self.bench: DepthTruth | None = None
        self.status = "Measuring this position..."
        self.failed: str | None = None
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._measure, name="depth-chart", daemon=True)

    def on_enter(self) -> None:
        self.thread.start()

    def on_exit(self) -> None:
        self._stop.set()  # the thread ends at its next poll; nothing waits for it here

    @property
    def done(self) -> bool:
        return not self.thread.is_alive() and self.thread.ident is not None

    def _measure(self) -> None:
        try:
            label = f"this position ({len(self.board.legal_moves())} moves to choose from)"
            self.current = depth_truth([self.board], label, should_stop=self._stop.is_set)
            if self.board.rules == STANDARD and self.positions:  # the benchmark is the standard board's
                self.status = "Picking the benchmark sample..."
                boards = benchmark_boards(self.positions)

                def on_position(number: int, count: int) -> None:
                    self.status = f"Measuring benchmark position {number + 1}/{count}..."

                self.bench = depth_truth(
                    boards,
                    "middle-game benchmark positions where a move can change the outcome",
                    should_stop=self._stop.is_set,
                    on_position=on_position,
                )
            self.status = ""
        except SearchCancelled:
            self.status = "Stopped."
        except Exception as error:  # noqa: BLE001  (a thread must say what went wrong, not vanish)
            self.failed = f"The measurement failed: {error}"
            self.status = self.failed

    def is_animating(self) -> bool:
        return not self.done

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_ESCAPE, pygame.K_d):
            self.app.stack.pop()

    def draw(self, surface: pygame.Surface) -> None:
        dim(surface, 150)
        theme = self.app.theme
        p = theme.palette
        w, h = surface.get_size()
        panel = pygame.Rect(12, 12, w - 24, h - 24)
        pygame.draw.rect(surface, p.panel, panel, border_radius=6)
        pygame.draw.rect(surface, p.muted, panel, 1, border_radius=6)
        moves = " ".join(format_move(m, self.board.rules) for m in self.board.moves)
        status = self.status or "Done. Esc goes back to the tree."
        if moves:
            status = f"{status}  (position: {moves})"
        draw_depth_chart(surface, panel.inflate(-8, -8), theme, self.current, self.bench, status)
