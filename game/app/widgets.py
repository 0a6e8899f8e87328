"""Buttons and option selectors: rectangles that draw themselves and answer events."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pygame

from game.app.theme import Theme


@dataclass
class Button:
    """A clickable label; ``key_hint`` is shown small after the label (e.g. "U")."""

    label: str
    action: Callable[[], None]
    key_hint: str = ""
    enabled: bool = True
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    focused: bool = False

    def handle_event(self, event: pygame.event.Event) -> bool:
        """Run the action on a left click inside; return True if the event was used."""
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos):
            if self.enabled:
                self.action()
            return True
        return False

    def draw(self, surface: pygame.Surface, theme: Theme, size: int | None = None) -> None:
        p = theme.palette
        hovered = self.enabled and self.rect.collidepoint(pygame.mouse.get_pos())
        color = p.disabled if not self.enabled else (p.button_hover if hovered or self.focused else p.button)
        pygame.draw.rect(surface, color, self.rect, border_radius=max(4, self.rect.height // 5))
        if self.focused:
            pygame.draw.rect(surface, p.accent, self.rect.inflate(6, 6), 2, border_radius=max(4, self.rect.height // 4))
        size = size or max(14, int(self.rect.height * 0.5))
        label = self.label if not self.key_hint else f"{self.label}"
        text_rect = theme.text(surface, label, size, self.rect.center, color=p.button_text, anchor="center")
        if self.key_hint and self.rect.width > text_rect.width + 40:
            theme.text(
                surface,
                self.key_hint,
                max(11, size * 2 // 3),
                (self.rect.right - 8, self.rect.bottom - 4),
                color=p.button_text,
                anchor="bottomright",
            )


@dataclass
class Selector:
    """A row "Label   < value >" that cycles through ``options`` (clicks or Left/Right)."""

    label: str
    options: Sequence
    index: int
    on_change: Callable[[object], None]
    format: Callable[[object], str] = str
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    focused: bool = False

    @property
    def value(self):
        return self.options[self.index]

    def set_value(self, value) -> None:
        if value in self.options:
            self.index = list(self.options).index(value)

    def step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.options)
        self.on_change(self.value)

    def arrow_rects(self) -> tuple[pygame.Rect, pygame.Rect]:
        size = self.rect.height
        right = pygame.Rect(self.rect.right - size, self.rect.top, size, size)
        left = pygame.Rect(self.rect.right - int(size * 5.5), self.rect.top, size, size)
        return left, right

    def handle_event(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            left, right = self.arrow_rects()
            if left.collidepoint(event.pos):
                self.step(-1)
                return True
            if right.collidepoint(event.pos) or self.rect.collidepoint(event.pos):
                self.step(1)
                return True
        return False

    def draw(self, surface: pygame.Surface, theme: Theme) -> None:
        p = theme.palette
        if self.focused:
            pygame.draw.rect(surface, p.panel, self.rect.inflate(12, 6), border_radius=6)
            pygame.draw.rect(surface, p.accent, self.rect.inflate(12, 6), 2, border_radius=6)
        size = max(14, int(self.rect.height * 0.62))
        theme.text(surface, self.label, size, (self.rect.left, self.rect.centery), anchor="midleft")
        left, right = self.arrow_rects()
        for rect, glyph in ((left, "<"), (right, ">")):
            pygame.draw.rect(surface, p.button, rect, border_radius=6)
            theme.text(surface, glyph, size, rect.center, color=p.button_text, anchor="center", bold=True)
        middle = (left.right + right.left) / 2
        theme.text(surface, self.format(self.value), size, (middle, self.rect.centery), anchor="center", bold=True)


class FocusList:
    """Keyboard focus over a list of widgets: Up/Down move, Enter/Left/Right act."""

    def __init__(self, items: list):
        self.items = items
        self.index = 0
        self._sync()

    def focus(self, index: int) -> None:
        """Move the keyboard focus to item ``index`` (the mouse pointed at it)."""
        self.index = index
        self._sync()

    def _sync(self) -> None:
        for i, item in enumerate(self.items):
            item.focused = i == self.index

    def handle_key(self, key: int) -> bool:
        if not self.items:
            return False
        if key in (pygame.K_DOWN, pygame.K_TAB):
            self.index = (self.index + 1) % len(self.items)
        elif key == pygame.K_UP:
            self.index = (self.index - 1) % len(self.items)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            item = self.items[self.index]
            if isinstance(item, Button):
                if item.enabled:
                    item.action()
            else:
                item.step(1)
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and isinstance(self.items[self.index], Selector):
            self.items[self.index].step(-1 if key == pygame.K_LEFT else 1)
        else:
            return False
        self._sync()
        return True


def stack_rects(area: pygame.Rect, count: int, height: int, gap: int, width: int | None = None) -> list[pygame.Rect]:
    """``count`` rects of ``height`` centred in ``area``, one under the other."""
    width = width or area.width
    total = count * height + (count - 1) * gap
    top = area.centery - total // 2
    return [pygame.Rect(area.centerx - width // 2, top + i * (height + gap), width, height) for i in range(count)]


def row_rects(area: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal rects side by side filling ``area``."""
    width = (area.width - gap * (count - 1)) / count
    return [
        pygame.Rect(round(area.left + i * (width + gap)), area.top, round(width), area.height) for i in range(count)
    ]
