"""A vertical menu of buttons with a title: the base of the title, pause and game-over
screens (a base beside ``Scene``, not a screen of its own).

Controls: Up/Down (or Tab) choose, Enter/Space activate, mouse click activates, Esc runs
the scene's ``on_back``.
"""

from __future__ import annotations

import pygame

from game.app.scene import Scene
from game.app.widgets import Button, FocusList, dim, display_size, stack_rects
from game.i18n import _

SUBTITLE_GROWTH = 1.6
"""How much bigger, at most, the lines under a menu's title get with the UI scale (at 200 %
they were as small as at 100 %; more would push the buttons off an 800x600 window)."""


class MenuScene(Scene):
    """Title, optional lines of text, and buttons."""

    title = ""

    def __init__(self) -> None:
        super().__init__()
        self.buttons: list[Button] = []
        self.focus = FocusList([])

    def build_buttons(self) -> list[Button]:
        raise NotImplementedError

    def subtitle_lines(self) -> list[str]:
        return []

    def on_back(self) -> None:
        self.app.pop()

    def on_enter(self) -> None:
        self.buttons = self.build_buttons()
        self.focus = FocusList(self.buttons)
        self.layout(display_size())

    def on_resume(self) -> None:
        self.on_enter()

    def panel_rect(self, size: tuple[int, int]) -> pygame.Rect:
        return pygame.Rect((0, 0), size)

    def panel_width(self, size: tuple[int, int]) -> int:
        return size[0]

    def line_pitch(self, height: float) -> float:
        """The room of a line of text under the title: it grows with the UI scale (up to
        1.6 times), so that big text makes these lines bigger too, not only the buttons."""
        return height * 0.6 * max(1.0, min(self.app.theme.scale, SUBTITLE_GROWTH))

    def subtitle_rows(self, size: tuple[int, int]) -> list[tuple[str, float]]:
        """The lines of text under the title, each with the size it is drawn at: smaller (as
        far as the 100 % size) where the UI scale makes it too wide, else on two rows."""
        theme = self.app.theme
        height = self.button_height(size)
        line_size = min(height * 0.5, self.line_pitch(height) * 0.8 / theme.scale)  # the lines fill their room
        width = self.panel_width(size) - 24
        rows: list[tuple[str, float]] = []
        for line in self.subtitle_lines():
            fitted = theme.shrink(line, line_size, width)
            parts = [line] if theme.font(fitted).size(line)[0] <= width else theme.wrap(line, fitted, width)
            rows += [(part, fitted) for part in parts]
        return rows

    def button_height(self, size: tuple[int, int]) -> int:
        return max(34, min(54, size[1] // 13))

    def button_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """Where the buttons go in a window of ``size`` (a pure function of the size)."""
        panel = self.panel_rect(size)
        height = self.button_height(size)
        width = min(panel.width - 40, 360)
        lines = len(self.subtitle_rows(size))
        top_space = int(height * 2.2) + lines * int(self.line_pitch(height))
        area = pygame.Rect(panel.left, panel.top + top_space, panel.width, panel.height - top_space)
        gap = height // 3
        rects = stack_rects(area, len(self.buttons), height, gap, width)
        if self.is_overlay and rects:  # packed under the text, not centred in the panel
            shift = rects[0].top - area.top
            rects = [rect.move(0, -shift) for rect in rects]
        return rects

    def layout(self, size: tuple[int, int]) -> None:
        """Give the buttons their rects for hit tests (on enter, each update, each click)."""
        for button, rect in zip(self.buttons, self.button_rects(size)):
            button.rect = rect

    def update(self, dt: float) -> None:
        self.layout(display_size())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.on_back()
        elif event.type in (pygame.KEYDOWN, pygame.MOUSEBUTTONDOWN):
            self.layout(display_size())
            if self.focus.handle_event(event):
                self.app.sounds.play("click")
        elif event.type == pygame.MOUSEMOTION:
            self.layout(display_size())
            for index, button in enumerate(self.buttons):
                if button.rect.collidepoint(event.pos):
                    self.focus.focus(index)

    def draw(self, surface: pygame.Surface) -> None:
        size = surface.get_size()
        panel = self.panel_rect(size)
        rects = self.button_rects(size)
        theme = self.app.theme
        height = self.button_height(size)
        title = _(self.title)  # kept in English (``N_``), worded as it is drawn
        text_size = min(int(height * 1.25), height * 1.6 / theme.scale)  # a title's room, at any UI scale
        while text_size > 16 and theme.font(text_size, True).size(title)[0] > panel.width - 40:
            text_size -= 2
        theme.text(surface, title, text_size, (panel.centerx, panel.top + height * 1.1), bold=True, anchor="center")
        y = panel.top + height * 2.0 + (self.line_pitch(height) - height * 0.6) / 2  # grown lines: clear of the title
        for line, fitted in self.subtitle_rows(size):
            theme.text(surface, line, fitted, (panel.centerx, y), anchor="center", color=theme.palette.muted)
            y += self.line_pitch(height)
        for button, rect in zip(self.buttons, rects):
            button.draw(surface, theme, rect=rect)


class OverlayMenu(MenuScene):
    """A menu drawn in a panel over the dimmed scene beneath it."""

    is_overlay = True

    def panel_rect(self, size: tuple[int, int]) -> pygame.Rect:
        """A panel just big enough for the title, the lines of text and the buttons."""
        w, h = size
        height = self.button_height(size)
        lines = len(self.subtitle_rows(size))
        content = int(height * 2.2) + lines * int(self.line_pitch(height)) + len(self.buttons) * (height + height // 3)
        rect = pygame.Rect(0, 0, self.panel_width(size), min(h - 20, content + height // 2))
        rect.center = (w // 2, h // 2)
        return rect

    def panel_width(self, size: tuple[int, int]) -> int:
        return min(size[0] - 40, int(460 * self.app.theme.scale))

    def draw(self, surface: pygame.Surface) -> None:
        dim(surface)
        panel = self.panel_rect(surface.get_size())
        p = self.app.theme.palette
        pygame.draw.rect(surface, p.panel, panel, border_radius=14)
        pygame.draw.rect(surface, p.accent, panel, 2, border_radius=14)
        super().draw(surface)
