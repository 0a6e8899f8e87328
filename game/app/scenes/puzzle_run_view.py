"""What the Storm and Streak screens share: a run of puzzles (``game.learn.puzzle_runs``,
headless) drawn beside its words, started with Space, kept in the archive when it ends.

The run's clock is the App's (``SceneHost.time``), so the run pauses with nothing and a
test steps it frame by frame.  The run is unrated: nothing here touches the rating.  A
screen is a subclass (``storm.py``, ``streak.py``) that says which run it makes and what its
header says; this module defines no screen of its own.
"""

from __future__ import annotations

import random
import time

import pygame

from game.app.board_view import BoardLayout, BoardView
from game.app.scene import Scene
from game.app.scenes.board_panel import SideLayout, board_pointer, draw_header, draw_said, side_layout
from game.app.scenes.puzzle_runs_text import (
    best_sentence,
    over_sentence,
    rules_sentence,
    run_title,
    start_sentence,
)
from game.app.widgets import Button, click_buttons, display_size, row_rects
from game.archive.run_store import RunRecord, best_run, record_run
from game.board import Board
from game.i18n import N_, _
from game.learn.puzzle_attempt import Played, PuzzleTry
from game.learn.puzzle_runs import RUN_LENGTH, PuzzleRun, RunKind, rising_puzzles
from game.learn.puzzle_set import shipped_puzzles
from game.learn.puzzle_words import goal_sentence, right_step_sentence
from game.puzzle_file import Puzzle, PuzzleFileError


class PuzzleRunScene(Scene):
    """A run of puzzles: Space starts it, 1..7 play, the end is kept."""

    kind = RunKind.STORM

    def __init__(self, *, seed: int | None = None):
        super().__init__()
        self.rng = random.Random(seed if seed is not None else time.time_ns())
        self.run: PuzzleRun | None = None  # None: not started yet
        self.best: RunRecord | None = None
        self.new_best = False
        self.said = ""
        self.ending = ""  # what the last move said, where it ended the run (kept before the score)
        self.view: BoardView | None = None
        self.hover: int | None = None
        self.buttons = [
            Button(N_("Start"), self.start, "Space"),
            *self.extra_buttons(),
            Button(N_("Back"), self.back, "Esc"),
        ]

    # -- what a screen says of its own ------------------------------------------------------
    def make_run(self, puzzles: list[Puzzle]) -> PuzzleRun:
        raise NotImplementedError

    def standing(self) -> str:
        """The header's second line while the run goes on."""
        raise NotImplementedError

    def big_text(self) -> str:
        """The panel's big figure: Storm's clock, Streak's count."""
        raise NotImplementedError

    def extra_buttons(self) -> list[Button]:
        return []

    def on_played(self, played: Played, column: int, attempt: PuzzleTry) -> None:
        """Words after a move of the person's (the run has counted it)."""

    # -- life cycle -------------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.best = best_run(self.app.archive, self.kind.value)
        self.said = rules_sentence(self.kind)

    def start(self) -> None:
        """A new run (the clock starts now)."""
        if self.run is not None and not self.run.over:
            return
        try:
            shipped = shipped_puzzles()
        except PuzzleFileError as error:
            self.app.show_toast(str(error), 6.0)
            return
        self.run = self.make_run(rising_puzzles(shipped, RUN_LENGTH, self.rng.randrange(1 << 30)))
        self.new_best = False
        self.ending = ""
        current = self.run.current
        self.said = goal_sentence(current.puzzle, current.person) if current is not None else ""
        self.app.dirty = True

    def back(self) -> None:
        self.app.pop()

    @property
    def attempt(self) -> PuzzleTry | None:
        """The try on the board: the current puzzle's, or at the end the last one."""
        run = self.run
        if run is None:
            return None
        return run.current if run.current is not None and not run.over else (run.current or run.last)

    def play(self, column: int) -> None:
        run = self.run
        if run is None or run.over or run.current is None:
            return
        attempt = run.current
        played = run.play(column)
        if played is Played.ILLEGAL:
            self.app.show_toast(attempt.board.why_illegal(column, zero_based=True))
            return
        if played is Played.IGNORED:
            return
        self.app.sounds.play("drop")
        if played is Played.RIGHT:
            self.said = right_step_sentence(column, None)
        self.on_played(played, column, attempt)
        if run.over:
            self.finish()
        self.app.dirty = True

    def update(self, dt: float) -> None:
        run = self.run
        if run is None or run.over:
            return
        attempt = run.current
        reply = run.tick()
        if reply is not None and attempt is not None:
            self.said = right_step_sentence(attempt.puzzle.line_moves[attempt.step - 2], reply)
        if run.over:
            self.finish()
        self.app.dirty = True  # the clock moves

    def finish(self) -> None:
        """Keep the run that just ended and say how it went."""
        run = self.run
        record = run.record() if run is not None else None
        if run is None or record is None:
            return
        before = self.best
        self.new_best = record.score > 0 and (before is None or record.score > before.score)
        record_run(self.app.archive, record)
        self.best = best_run(self.app.archive, self.kind.value) or (record if self.new_best else before)
        self.said = " ".join(
            filter(None, [self.ending, over_sentence(self.kind, record.score, self.new_best, self.best)])
        )
        self.app.dirty = True

    def is_animating(self) -> bool:
        return self.run is not None and not self.run.over

    # -- input ------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        lay = run_layout(display_size(), self)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, row_rects(lay.buttons, len(self.buttons), 8), event):
                return
        if (column := board_pointer(self, self.board.rules, lay.board, event)) is not None:
            self.play(column)
        elif event.type == pygame.KEYDOWN:
            self.key(event.key)

    def key(self, key: int) -> None:
        if key == pygame.K_ESCAPE:
            self.back()
        elif key in (pygame.K_SPACE, pygame.K_RETURN):
            self.start()
        elif pygame.K_1 <= key <= pygame.K_7:
            self.play(key - pygame.K_1)

    # -- words and drawing ------------------------------------------------------------------
    @property
    def board(self) -> Board:
        attempt = self.attempt
        return attempt.board if attempt is not None else Board()

    def header(self) -> tuple[str, str]:
        if self.run is None or self.run.over:
            return run_title(self.kind), best_sentence(self.best)
        return run_title(self.kind), self.standing()

    def status_line(self) -> str:
        title, standing = self.header()
        return f"{title}. {standing} {self.said}"

    def panel_blocks(self) -> list[str]:
        """The panel's texts after the verdict: the goal while a run goes on, else the rules."""
        run = self.run
        if run is None:
            return [start_sentence()]
        if run.over:
            return [rules_sentence(self.kind)]
        current = run.current
        goal = goal_sentence(current.puzzle, current.person) if current is not None else ""
        return [goal] if goal != self.said else []

    def draw(self, surface: pygame.Surface) -> None:
        assert self.view is not None
        theme = self.app.theme
        lay = run_layout(surface.get_size(), self)
        draw_header(surface, theme, lay, *self.header())
        board = self.board
        layout = BoardLayout(board.rules, lay.board)
        outcome = board.outcome()
        running = self.run is not None and not self.run.over
        self.view.draw(
            surface,
            layout,
            board.grid,
            last=board.last_cell(),
            highlight_col=self.hover if running else None,
            glow=outcome.runs if outcome is not None else (),
        )
        self.draw_panel(surface, lay)
        labels = {"Start": _("Start") if self.run is None else _("Again")}
        for button, rect in zip(self.buttons, row_rects(lay.buttons, len(self.buttons), 8)):
            enabled = self.button_enabled(button.label)
            button.draw(surface, theme, rect=rect, enabled=enabled, label=labels.get(button.label))

    def button_enabled(self, label: str) -> bool:
        if label == "Start":
            return self.run is None or self.run.over
        return True

    def draw_panel(self, surface: pygame.Surface, lay: SideLayout) -> None:
        theme = self.app.theme
        p = theme.palette
        panel = lay.panel
        pygame.draw.rect(surface, p.panel, panel, border_radius=10)
        big = lay.text * 2 + 8
        theme.text(
            surface, self.big_text(), big, (panel.centerx, panel.top + 10), color=p.accent, anchor="midtop", bold=True
        )
        top = panel.top + 14 + theme.pitch(big, big + 8, bold=True)
        said = (self.said, p.good if self.new_best else p.text)
        draw_said(surface, theme, lay, top, panel.bottom - 8, said, self.panel_blocks())


def run_layout(size: tuple[int, int], scene: Scene) -> SideLayout:
    """The board left, the run's words right, the buttons along the bottom."""
    return side_layout(size, 0.42, 300, 520, scene.app.theme)
