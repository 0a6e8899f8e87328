"""The puzzle themes and your strengths and weaknesses: over the puzzle screen.

Each theme (``game.puzzle_file.Theme``, decided by ``ai.puzzle_themes``) with your solve rate
in it and the attempts it is made of ("too few to tell" under five), your strongest and
weakest themes, what the chosen theme means and how many puzzles of it the set has.
Choosing a theme plays it on the puzzle screen; "Practise" plays your weakest.  The rates
are the puzzle screen's dashboard (``ThemeChooser.dashboard``: read from the archive a few
pages a frame); this screen reads nothing itself.

Controls: Up/Down choose a theme, Enter or a click plays it; P practise your weakest theme;
Esc back.
"""

from __future__ import annotations

import pygame

from game.app.navigation import ThemeChooser
from game.app.scene import Scene
from game.app.widgets import Button, click_buttons, display_size, row_rects
from game.i18n import N_, _, ngettext
from game.learn.dashboard import Dashboard, ThemeRecord
from game.learn.puzzle_set import shipped_puzzles
from game.learn.puzzle_words import rate_text, strengths_sentence
from game.puzzle_file import PuzzleFileError, Theme

THEMES = tuple(Theme)


class PuzzleThemesScene(Scene):
    name = "puzzle themes"

    def __init__(self, chooser: ThemeChooser):
        super().__init__()
        self.chooser = chooser
        self.selected = 0
        self.counts: dict[Theme, int] = {}
        self.buttons = [
            Button(N_("Play this theme"), self.play_selected, "Enter"),
            Button(N_("Practise the weakest"), self.practise, "P"),
            Button(N_("Back"), self.back, "Esc"),
        ]

    def on_enter(self) -> None:
        try:
            puzzles = shipped_puzzles()
        except PuzzleFileError:
            puzzles = ()
        self.counts = {theme: sum(theme in p.themes for p in puzzles) for theme in THEMES}

    def dashboard(self) -> Dashboard | None:
        return self.chooser.dashboard()

    # -- actions --------------------------------------------------------------------------
    def play(self, theme: Theme) -> None:
        self.chooser.choose_theme(theme)
        self.app.pop()

    def play_selected(self) -> None:
        self.play(THEMES[self.selected])

    def practise(self) -> None:
        found = self.dashboard()
        if found is None or found.weakest is None:
            self.app.show_toast(strengths_sentence(found), 4.0)
            return
        self.play(found.weakest)

    def back(self) -> None:
        self.app.pop()

    def update(self, dt: float) -> None:
        if self.dashboard() is None:
            self.app.dirty = True  # the puzzle screen under this one is still reading

    def is_animating(self) -> bool:
        return self.dashboard() is None

    # -- input ------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        size = display_size()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, row_rects(self.button_area(size), len(self.buttons), 8), event):
                return
            for index, rect in enumerate(self.row_rects(size)):
                if rect.collidepoint(event.pos):
                    self.selected = index
                    self.play_selected()
                    return
        elif event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.back()
            elif event.key in (pygame.K_UP, pygame.K_DOWN):
                self.selected = (self.selected + (1 if event.key == pygame.K_DOWN else -1)) % len(THEMES)
                self.app.dirty = True
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
                self.play_selected()
            elif event.key == pygame.K_p:
                self.practise()

    # -- layout -----------------------------------------------------------------------------
    def text_size(self, size: tuple[int, int]) -> int:
        return max(15, min(20, size[1] // 34))

    def button_area(self, size: tuple[int, int]) -> pygame.Rect:
        height = max(30, min(42, size[1] // 16))
        return pygame.Rect(12, size[1] - 12 - height, size[0] - 24, height)

    def table_top(self, size: tuple[int, int]) -> int:
        theme, text = self.app.theme, self.text_size(size)
        return int(12 + theme.pitch(text + 4, text + 16, bold=True) + theme.pitch(text, text + 6) + 8)

    def row_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """One row a theme, between the header and the footer (the chosen theme's meaning)."""
        theme, text = self.app.theme, self.text_size(size)
        footer = 3 * theme.pitch(text - 2, text + 4) + 12
        top, bottom = self.table_top(size), self.button_area(size).top - 8 - footer
        pitch = max(text + 8, min(theme.font(text).get_linesize() + 10, (bottom - top) / len(THEMES)))
        return [pygame.Rect(12, int(top + i * pitch), size[0] - 24, int(pitch) - 4) for i in range(len(THEMES))]

    # -- drawing ----------------------------------------------------------------------------
    def status_line(self) -> str:
        record = self.record(THEMES[self.selected])
        said = f"{_(THEMES[self.selected].label)}: {rate_text(record)}." if record is not None else ""
        return f"{_('Puzzle themes')}. {strengths_sentence(self.dashboard())} {said}".strip()

    def record(self, theme: Theme) -> ThemeRecord | None:
        found = self.dashboard()
        return found.record(theme) if found is not None else None

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        size = surface.get_size()
        surface.fill(p.background)
        text = self.text_size(size)
        width = size[0] - 24
        title, fitted = theme.fitted(_("Puzzle themes"), text + 4, width, bold=True)
        theme.text(surface, title, fitted, (12, 12), bold=True)
        line, fitted = theme.fitted(strengths_sentence(self.dashboard()), text, width)
        theme.text(surface, line, fitted, (12, 12 + theme.pitch(text + 4, text + 16, bold=True)), color=p.muted)
        found = self.dashboard()
        rows = self.row_rects(size)
        for index, (item, rect) in enumerate(zip(THEMES, rows)):
            chosen = index == self.selected
            pygame.draw.rect(surface, p.button_hover if chosen else p.panel, rect, border_radius=6)
            shade = p.button_text if chosen else p.text
            marks = ""
            if found is not None and item is found.strongest:
                marks = " · " + _("strongest")  # (the font has no arrows)
            elif found is not None and item is found.weakest:
                marks = " · " + _("weakest")
            name, fitted = theme.fitted(_(item.label) + marks, text, rect.width * 0.55 - 12)
            theme.text(surface, name, fitted, (rect.left + 10, rect.centery), color=shade, anchor="midleft")
            record = found.record(item) if found is not None else None
            said = rate_text(record) if record is not None else _("reading...")
            said, fitted = theme.fitted(said, text - 1, rect.width * 0.45 - 12)
            theme.text(surface, said, fitted, (rect.right - 10, rect.centery), color=shade, anchor="midright")
        chosen_theme = THEMES[self.selected]
        count = self.counts.get(chosen_theme, 0)
        about = (
            _(chosen_theme.meaning)
            + " "
            + ngettext(
                "The set has {count} puzzle of this theme.", "The set has {count} puzzles of this theme.", count
            ).format(count=count)
        )
        y: float = rows[-1].bottom + 10
        small = text - 2
        for part in theme.wrap(about, small, width)[:3]:
            theme.text(surface, part, small, (12, y), color=p.muted)
            y += theme.pitch(small, small + 4)
        enabled = {"Practise the weakest": found is not None and found.weakest is not None}
        for button, rect in zip(self.buttons, row_rects(self.button_area(size), len(self.buttons), 8)):
            button.draw(surface, theme, rect=rect, enabled=enabled.get(button.label, True))
