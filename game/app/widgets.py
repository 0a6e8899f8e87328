"""Buttons and option selectors: rectangles that draw themselves and answer events."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame

from game.app.theme import Theme
from game.i18n import _

SMALLEST = 14
"""The least a button's label is drawn at 100 % (a button's own height may ask for more)."""


@dataclass(frozen=True)
class Face:
    """Where a button's label and key hint go in its rect (``Button.face``)."""

    label: str  # as shown: shortened with "..." only where nothing else fits
    size: float  # the label's font size (before the UI scale)
    center: tuple[int, int]
    hint_size: float
    hint_corner: tuple[int, int]  # the key hint's bottom-right corner
    fits: bool  # label and key whole and apart, neither smaller than at 100 %
    full: bool = True  # the label at the size asked for (no smaller for the UI scale's sake)


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

    def face(
        self, theme: Theme, size: float | None = None, *, rect: pygame.Rect | None = None, label: str | None = None
    ) -> Face:
        """Place the label and the key hint in ``rect`` (default: its own).

        The label grows with the UI scale as far as the button lets it (its height, then
        its width).  The key hint sits in the bottom-right corner: beside the label where
        both fit on one line, else under it where the button is tall enough for two, else
        the label shrinks to leave the hint its room.  Only a label that still does not fit
        is cut, never the hint.
        """
        rect = rect or self.rect
        text = _(label or self.label)  # labels are kept in English and worded as drawn
        wanted = min(size or max(14, int(rect.height * 0.5)), rect.height * 0.85 / theme.scale)
        if not self.key_hint:
            shown, fitted = theme.fitted(text, wanted, rect.width - 8)
            if shown != text and theme.scale > 1:  # rather than cut: as small as the least label at 100 %
                while fitted > SMALLEST / theme.scale and theme.font(fitted).size(text)[0] > rect.width - 8:
                    fitted = max(SMALLEST / theme.scale, fitted - 0.5)
                shown = theme.fit(text, fitted, rect.width - 8)
            return Face(shown, fitted, rect.center, 0, rect.bottomright, shown == text, fitted >= wanted)
        hint_size = max(11, wanted * 2 // 3)
        hint = theme.font(hint_size)
        hint_width, hint_height = hint.size(self.key_hint)
        corner = (rect.right - 8, rect.bottom - 4)
        room = rect.width - 18 - hint_width  # left of the key: 4 px margin, 6 px gap, 8 px to the edge
        # Beside: centred where that keeps it clear of the key, else moved left.
        fitted = theme.shrink(text, wanted, room)
        width = theme.font(fitted).size(text)[0]
        if width <= room:
            center = rect.center
            if rect.centerx + width / 2 + 6 + hint_width > corner[0]:
                center = (rect.left + 4 + room // 2, rect.centery)
            return Face(text, fitted, center, hint_size, corner, True, fitted >= wanted)
        # Under: the label across the whole width, raised above the key's line (the key at
        # its smallest size); with a bigger UI scale the label shrinks to make room, as far
        # as the least label at 100 %, not below.
        hint_size = 11
        hint_top = corner[1] - theme.font(hint_size).size(self.key_hint)[1]
        fitted = theme.shrink(text, wanted, rect.width - 8)
        least = min(fitted, SMALLEST / theme.scale) if theme.scale > 1 else fitted
        while fitted > least and (
            theme.font(fitted).size(text)[1] > hint_top - rect.top - 2
            or theme.font(fitted).size(text)[0] > rect.width - 8
        ):
            fitted = max(least, fitted - 0.5)
        width, height = theme.font(fitted).size(text)
        if width <= rect.width - 8 and rect.top + 2 + height <= hint_top:
            middle = min(rect.centery, (rect.top + hint_top) // 2)
            return Face(text, fitted, (rect.centerx, middle), hint_size, corner, True, fitted >= wanted)
        # Neither (the scene should give the button more room): the label gives way, smaller
        # (down to 70 %), at last cut, and keeps clear of the key.
        fitted, least = wanted, min(wanted, max(11, wanted * 0.7))
        while fitted > least and theme.font(fitted).size(text)[0] > room:
            fitted = max(least, fitted - 1)
        shown = theme.fit(text, fitted, room)
        return Face(shown, fitted, (rect.left + 4 + room // 2, rect.centery), hint_size, corner, False, False)

    def draw(
        self,
        surface: pygame.Surface,
        theme: Theme,
        size: int | None = None,
        *,
        rect: pygame.Rect | None = None,
        enabled: bool | None = None,
        label: str | None = None,
    ) -> None:
        """Draw at ``rect`` (default: its own) as ``enabled`` says (default: its own flag),
        showing ``label`` (default: its own).

        The overrides let a scene draw from a layout it computes on the spot, so that
        drawing changes no state.
        """
        p = theme.palette
        rect = rect or self.rect
        theme.keep_clear(rect)
        enabled = self.enabled if enabled is None else enabled
        hovered = enabled and rect.collidepoint(pygame.mouse.get_pos())
        color = p.disabled if not enabled else (p.button_hover if hovered or self.focused else p.button)
        pygame.draw.rect(surface, color, rect, border_radius=max(4, rect.height // 5))
        if self.focused:  # bolder where shape must tell (monochrome: the fill alone reads as greyed out)
            ring = max(2, round(2 * p.mark_weight))
            pygame.draw.rect(
                surface,
                p.accent,
                rect.inflate(2 + 2 * ring, 2 + 2 * ring),
                ring,
                border_radius=max(4, rect.height // 4),
            )
        face = self.face(theme, size, rect=rect, label=label)
        theme.text(surface, face.label, face.size, face.center, color=p.button_text, anchor="center")
        if self.key_hint:
            theme.text(
                surface, self.key_hint, face.hint_size, face.hint_corner, color=p.button_text, anchor="bottomright"
            )


def row_font_size(rect: pygame.Rect, scale: float = 1.0) -> float:
    """A row's text size (a selector's, a text field's): 62 % of the row at 100 %, growing
    with the UI scale only as far as the row's height allows (the scene makes the rows
    taller when it can)."""
    return min(max(14, int(rect.height * 0.62)) * scale, rect.height * 0.85) / scale


def draw_row_frame(surface: pygame.Surface, theme: Theme, rect: pygame.Rect, focused: bool) -> None:
    """A row's place kept clear of toasts, and its frame while it has the keyboard focus."""
    theme.keep_clear(rect)
    if focused:
        pygame.draw.rect(surface, theme.palette.panel, rect.inflate(12, 6), border_radius=6)
        pygame.draw.rect(surface, theme.palette.accent, rect.inflate(12, 6), 2, border_radius=6)


@dataclass
class Selector:
    """A row "Label   < value >" that cycles through ``options`` (clicks or Left/Right).

    The value box between the arrows is as wide as the longest option (``measure``), so
    no value runs onto an arrow; the label gives way (it is shortened) if the row is narrow.
    """

    label: str
    options: Sequence[Any]
    index: int
    on_change: Callable[[Any], None]
    format: Callable[[Any], str] = str
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    focused: bool = False
    value_width: int = 0  # pixels for the value text, set by ``measure``

    @property
    def value(self) -> Any:
        return self.options[self.index]

    def set_value(self, value: Any) -> None:
        if value in self.options:
            self.index = list(self.options).index(value)

    def step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.options)
        self.on_change(self.value)

    def font_size(self, scale: float = 1.0) -> float:
        return row_font_size(self.rect, scale)

    def measure(self, theme: Theme) -> None:
        """Size the value box for the longest option (call after setting ``rect``)."""
        font = theme.font(self.font_size(theme.scale), True)
        widest = max(font.size(_(self.format(option)))[0] for option in self.options)
        # The value box may take at most 60% of the row; the label keeps the rest.
        self.value_width = min(widest + self.rect.height // 2, int(self.rect.width * 0.6) - 2 * self.rect.height)

    def arrow_rects(self) -> tuple[pygame.Rect, pygame.Rect]:
        size = self.rect.height
        value_width = self.value_width or int(size * 3.5)
        right = pygame.Rect(self.rect.right - size, self.rect.top, size, size)
        left = pygame.Rect(right.left - value_width - size, self.rect.top, size, size)
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
        draw_row_frame(surface, theme, self.rect, self.focused)
        size = self.font_size(theme.scale)
        left, right = self.arrow_rects()
        label = _(self.label)
        label, label_size = theme.fitted(label, size, left.left - self.rect.left - 8)
        theme.text(surface, label, label_size, (self.rect.left, self.rect.centery), anchor="midleft")
        for rect, glyph in ((left, "<"), (right, ">")):
            pygame.draw.rect(surface, p.button, rect, border_radius=6)
            theme.text(surface, glyph, size, rect.center, color=p.button_text, anchor="center", bold=True)
        middle = (left.right + right.left) / 2
        value = _(self.format(self.value))
        value, value_size = theme.fitted(value, size, right.left - left.right - 6, bold=True)
        theme.text(surface, value, value_size, (middle, self.rect.centery), anchor="center", bold=True)


@dataclass
class TextField:
    """A row "Label   [text_]" the player types into while it has the focus: printable
    characters (at most ``max_chars``), Backspace; ``on_change`` hears every change.  Empty,
    it shows ``placeholder`` (what an empty field stands for) in the muted colour."""

    label: str
    text: str
    on_change: Callable[[str], None]
    max_chars: int
    placeholder: str = ""
    rect: pygame.Rect = field(default_factory=lambda: pygame.Rect(0, 0, 0, 0))
    focused: bool = False

    def step(self, delta: int) -> None:
        """Enter on the field: nothing to cycle (it takes typed text)."""

    def type(self, event: pygame.event.Event) -> bool:
        """Take a typed key (True: it was one for the field)."""
        if event.type != pygame.KEYDOWN:
            return False
        if event.key == pygame.K_BACKSPACE:
            if not self.text:
                return True
            self.text = self.text[:-1]
        elif event.unicode and event.unicode.isprintable() and event.key not in (pygame.K_RETURN, pygame.K_TAB):
            if len(self.text) >= self.max_chars:
                return True
            self.text += event.unicode
        else:
            return False
        self.on_change(self.text)
        return True

    def handle_event(self, event: pygame.event.Event) -> bool:
        return event.type == pygame.MOUSEBUTTONDOWN and event.button == 1 and self.rect.collidepoint(event.pos)

    def font_size(self, scale: float = 1.0) -> float:
        return row_font_size(self.rect, scale)

    def draw(self, surface: pygame.Surface, theme: Theme, box_left: int | None = None) -> None:
        """The label, then the box from ``box_left`` (default: 40 % of the row) to the row's end."""
        p = theme.palette
        draw_row_frame(surface, theme, self.rect, self.focused)
        size = self.font_size(theme.scale)
        left = box_left if box_left is not None else self.rect.left + int(self.rect.width * 0.4)
        box = pygame.Rect(left, self.rect.top, self.rect.right - left, self.rect.height)
        label, label_size = theme.fitted(_(self.label), size, box.left - self.rect.left - 8)
        theme.text(surface, label, label_size, (self.rect.left, self.rect.centery), anchor="midleft")
        pygame.draw.rect(surface, p.background, box, border_radius=6)
        pygame.draw.rect(surface, p.accent if self.focused else p.muted, box, 2, border_radius=6)
        shown = self.text + ("_" if self.focused else "")
        color = p.text
        if not self.text and not self.focused:
            shown, color = self.placeholder, p.muted
        shown, fitted = theme.fitted(shown, size, box.width - 16, bold=True)
        theme.text(surface, shown, fitted, (box.left + 8, box.centery), color=color, anchor="midleft", bold=True)


class FocusList:
    """Keyboard focus over a list of widgets: Up/Down move, Enter/Left/Right act."""

    def __init__(self, items: Sequence[Button | Selector | TextField]):
        self.items = list(items)
        self.index = 0
        self._sync()

    def focus(self, index: int) -> None:
        """Move the keyboard focus to item ``index`` (the mouse pointed at it)."""
        self.index = index
        self._sync()

    def _sync(self) -> None:
        for i, item in enumerate(self.items):
            item.focused = i == self.index

    def handle_event(self, event: pygame.event.Event) -> bool:
        """A key (``handle_key``), or a click: the item under it acts and takes the focus.
        True when an item acted or the focus moved (the cue for a click sound)."""
        if event.type == pygame.KEYDOWN:
            return self.handle_key(event.key)
        if event.type == pygame.MOUSEBUTTONDOWN:
            for index, item in enumerate(self.items):
                if item.handle_event(event):
                    self.focus(index)
                    return True
        return False

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
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and isinstance(selector := self.items[self.index], Selector):
            selector.step(-1 if key == pygame.K_LEFT else 1)
        else:
            return False
        self._sync()
        return True


def display_size() -> tuple[int, int]:
    """The size of the window's surface (what the next frame is drawn on)."""
    surface = pygame.display.get_surface()
    return surface.get_size() if surface is not None else (0, 0)


def stack_rects(area: pygame.Rect, count: int, height: int, gap: int, width: int | None = None) -> list[pygame.Rect]:
    """``count`` rects of ``height`` centred in ``area``, one under the other."""
    width = width or area.width
    total = count * height + (count - 1) * gap
    top = area.centery - total // 2
    return [pygame.Rect(area.centerx - width // 2, top + i * (height + gap), width, height) for i in range(count)]


def click_buttons(buttons: Sequence[Button], rects: Sequence[pygame.Rect], event: pygame.event.Event) -> bool:
    """Place ``buttons`` at ``rects`` (where they are drawn) and let the one the click
    ``event`` falls on act; True when one did."""
    for button, rect in zip(buttons, rects):
        button.rect = rect
        if button.handle_event(event):
            return True
    return False


def row_rects(area: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """``count`` equal rects side by side filling ``area``."""
    width = (area.width - gap * (count - 1)) / count
    return [
        pygame.Rect(round(area.left + i * (width + gap)), area.top, round(width), area.height) for i in range(count)
    ]


_SHADES: dict[tuple[int, int, int], pygame.Surface] = {}


def chart_panel(surface: pygame.Surface, theme: Theme) -> pygame.Rect:
    """A chart's panel over the dimmed scene beneath (the depth chart, MCTS against the
    truth); returns where the chart goes."""
    dim(surface, 150)
    w, h = surface.get_size()
    panel = pygame.Rect(12, 12, w - 24, h - 24)
    pygame.draw.rect(surface, theme.palette.panel, panel, border_radius=6)
    pygame.draw.rect(surface, theme.palette.muted, panel, 1, border_radius=6)
    return panel.inflate(-8, -8)


def dim(surface: pygame.Surface, alpha: int = 120) -> None:
    """Darken what is already drawn (the scene beneath an overlay)."""
    key = (surface.get_width(), surface.get_height(), alpha)
    shade = _SHADES.get(key)
    if shade is None:
        _SHADES.clear()
        shade = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, alpha))
        _SHADES[key] = shade
    surface.blit(shade, (0, 0))


# -- toasts -----------------------------------------------------------------------------
TOAST_SIZE = 20
"""The size a toast writes in (``App.draw_toast``; the UI scale makes it bigger)."""


def toast_height(theme: Theme) -> int:
    """The height of a toast's box at ``theme``'s UI scale: the strip a scene whose content
    fills the window keeps free at its bottom edge (``toast_bottom``), so a toast covers
    none of its words, boards or charts."""
    return theme.font(TOAST_SIZE).get_linesize() + 14


def toast_strip_bottom(size: tuple[int, int]) -> int:
    """Where a toast's box ends in a scene that keeps a ``toast_height`` strip free at the
    bottom: 4 pixels over the window's edge."""
    return size[1] - 4
