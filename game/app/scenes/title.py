"""The title menu.

Controls: Up/Down choose, Enter play, Esc twice quits (the first press says so); or click.
"""

from __future__ import annotations

import functools

import pygame

from game.app.menu import MenuScene
from game.app.navigation import (
    NewGame,
    OpenAnalysis,
    OpenExplorer,
    OpenNetwork,
    ResumeGame,
    ShowCourse,
    ShowHelp,
    ShowLevelSelect,
    ShowOptions,
    ShowPastGames,
    ShowPuzzles,
)
from game.app.scenes.title_text import resume_label
from game.app.settings import Opponent
from game.app.widgets import Button, stack_rects
from game.i18n import N_, _
from game.learn.glicko import START_RATING
from game.records import InProgress
from game.rules import MAX, MIN

MAX_RESUMES = 3
"""Unfinished games the title lists at most (the newest; one of each kind per window)."""
QUIT_CONFIRM_SECONDS = 3.0
"""After a first Esc on the title, a second one within this many seconds quits."""
ROW_GAP = 0.25
"""The gap between two rows, in button heights: a quarter, so eleven rows keep the
buttons (and their text) as tall as ten rows with a third did on 800x600."""


class TitleScene(MenuScene):
    title = N_("Connect Four")
    name = "title"

    def __init__(self) -> None:
        super().__init__()
        self.quit_armed_until: float | None = None  # app time until which Esc quits
        self.rating = round(START_RATING)  # the player's rating, read from the archive as the menu shows
        self.provisional = True  # said beside it while a few results can still move it far
        self.waiting = False  # the App's rating is still being replayed: asked again each frame
        # Button rows laid out, always: the menu's buttons and, under Quit, at least one row
        # kept for the unfinished games, so the first coming and going moves no other.
        self.rows = 1

    def on_enter(self) -> None:
        """(Also on resume, as every menu rebuilds there: a game or a puzzle may have moved the rating.)"""
        self.take_rating()
        super().on_enter()

    def take_rating(self) -> None:
        """The rating the App keeps (``SceneHost.rating``); while it is first replayed, the
        start rating, and the rating is asked for again each frame until it is there."""
        rated = self.app.rating()
        self.waiting = rated is None
        if rated is not None:
            self.rating, self.provisional = rated.rating, rated.provisional

    def subtitle_lines(self) -> list[str]:
        s = self.app.settings
        tally = s.tally
        if self.provisional:
            rating = _("Your rating: {rating:,} (provisional)").format(rating=self.rating)
        else:
            rating = _("Your rating: {rating:,}").format(rating=self.rating)
        if self.quit_armed_until is not None:  # in place of the tally: nothing else moves
            return [_("a minimax explorer you can play"), _("Press Esc again to quit (any other key: stay)"), rating]
        return [
            _("a minimax explorer you can play"),
            _("{describe}  ·  you {tally} / draws {tally2} / computer {tally3}").format(
                describe=s.rules().said(), tally=tally["wins"], tally2=tally["draws"], tally3=tally["losses"]
            ),
            rating,
        ]

    def build_buttons(self) -> list[Button]:
        """The menu's buttons, then (in the last rows) the unfinished games, each apart."""
        resume = [Button(resume_label(kept), functools.partial(self.resume, kept)) for kept in self.unfinished_games()]
        menu = [
            Button(N_("Play vs computer"), lambda: self.start(Opponent.COMPUTER)),
            Button(N_("Two players"), lambda: self.start(Opponent.HUMAN)),
            Button(N_("Computer vs computer"), lambda: self.start(Opponent.DEMO)),
            Button(N_("Options"), self.open_options),
            Button(N_("How to play"), self.open_help),
            Button(N_("Past games"), self.open_past_games),
            Button(N_("Analysis board"), self.open_analysis),
            Button(N_("Opening explorer"), self.open_explorer),
            Button(N_("Puzzles"), self.open_puzzles),
            Button(N_("Learn"), self.open_course),
            Button(N_("Network game"), self.open_network),
            Button(N_("Quit"), self.app.quit),
        ]
        self.rows = len(menu) + max(1, len(resume))
        return menu + resume

    def button_height(self, size: tuple[int, int]) -> int:
        """As the menu's, but small enough for every row to fit the window."""
        lines = len(self.subtitle_lines())
        room = (size[1] - 16) / (2.2 + self.line_pitch(1.0) * lines + self.rows * (1 + ROW_GAP))
        return max(26, min(super().button_height(size), int(room)))

    def button_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """The first rows of ``self.rows``: where a button stands never depends on how many there are."""
        height = self.button_height(size)
        lines = len(self.subtitle_lines())
        top_space = int(height * 2.2) + lines * int(self.line_pitch(height))
        area = pygame.Rect(0, top_space, size[0], size[1] - top_space)
        rows = stack_rects(area, self.rows, height, int(height * ROW_GAP), min(size[0] - 40, 360))
        return rows[: len(self.buttons)]

    def unfinished_games(self) -> list[InProgress]:
        """The games left in the middle (this window's, and those of windows that stopped),
        newest first: at most ``MAX_RESUMES``."""
        return self.app.archive.unfinished_games()[:MAX_RESUMES]

    def resume(self, kept: InProgress) -> None:
        self.app.push(ResumeGame(kept))

    def open_past_games(self) -> None:
        self.app.push(ShowPastGames())

    def open_analysis(self) -> None:
        self.app.push(OpenAnalysis())

    def open_explorer(self) -> None:
        self.app.push(OpenExplorer())

    def open_network(self) -> None:
        self.app.push(OpenNetwork())

    def open_course(self) -> None:
        self.app.push(ShowCourse())

    def open_puzzles(self) -> None:
        self.app.push(ShowPuzzles())

    def start(self, opponent: Opponent) -> None:
        self.app.settings.opponent = opponent
        self.app.push(NewGame() if opponent is Opponent.HUMAN else ShowLevelSelect())

    def open_options(self) -> None:
        self.app.push(ShowOptions())

    def open_help(self) -> None:
        self.app.push(ShowHelp())

    def on_back(self) -> None:
        """Esc: quit only when pressed again soon, so a stray press loses nothing."""
        if self.quit_armed_until is not None and self.app.time < self.quit_armed_until:
            self.app.quit()
            return
        self.quit_armed_until = self.app.time + QUIT_CONFIRM_SECONDS
        self.app.dirty = True

    def update(self, dt: float) -> None:
        super().update(dt)
        if self.waiting:  # the rating was still being replayed
            self.take_rating()
            self.app.dirty = self.app.dirty or not self.waiting
        if self.quit_armed_until is not None and self.app.time >= self.quit_armed_until:
            self.quit_armed_until = None  # the question lapses: the tally line comes back
            self.app.dirty = True

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN) and getattr(event, "key", None) != pygame.K_ESCAPE:
            if self.quit_armed_until is not None:
                self.quit_armed_until = None  # anything else: the next Esc asks again
                self.app.dirty = True
        super().handle_event(event)

    def draw(self, surface: pygame.Surface) -> None:
        super().draw(surface)
        # A row of discs under the title: the two sides and their marks.
        w = surface.get_width()
        rects = self.button_rects(surface.get_size())
        height = rects[0].height if rects else 40
        radius = max(8, height // 3)
        y = rects[0].top - radius * 1.6 if rects else 100
        for i in range(7):
            side = MAX if i % 2 == 0 else MIN
            x = w / 2 + (i - 3) * radius * 2.6
            self.app.theme.draw_disc(surface, (x, y), radius, side)
