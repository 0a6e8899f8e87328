"""The network screen's pieces: the join form (the address and code fields, and the games
found on the local network, whose search runs in a thread the scene starts), the heading
and the panel beside the board.  Not a scene: the network screen holds and draws them."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.app.scenes.network_text import form_title
from game.app.theme import Theme
from game.app.widgets import Button, click_buttons, row_rects
from game.i18n import N_, _
from game.net.client import split_address
from game.net.discovery import FoundGame
from game.net.protocol import DEFAULT_PORT
from game.net.words import CodeError, normal_code

MAX_FIELD_CHARS = 100
SHOWN_GAMES = 5


def draw_heading(surface: pygame.Surface, theme: Theme, title: str, lines: list[str]) -> int:
    """A bold title and muted lines, centred at the top; the y under them."""
    w, h = surface.get_size()
    size = max(15, min(20, h // 34))
    shown, fitted = theme.fitted(title, size + 10, w - 40, bold=True)
    y = theme.text(surface, shown, fitted, (w // 2, 16), bold=True, anchor="midtop").bottom + 8
    for line in lines:
        shown, fitted = theme.fitted(line, size, w - 40)
        y = theme.text(surface, shown, fitted, (w // 2, y), color=theme.palette.muted, anchor="midtop").bottom + 4
    return y


class JoinForm:
    """Where to join (or watch) and with which code; ``join`` is called with ``(address, port, code)``."""

    def __init__(self, join: Callable[[str, int, str], None], search: Callable[[], None], back: Callable[[], None]):
        self.join = join
        self.fields = {"address": "", "code": ""}
        self.focus = "address"
        self.watch = False
        self.found: list[FoundGame] = []
        self.found_note: str | None = None
        self.searching = False
        self.note: str | None = None
        self.buttons = [
            Button(N_("Join"), self.submit, "Enter"),
            Button(N_("Search again"), search, "F5"),
            Button(N_("Back"), back, "Esc"),
        ]

    def submit(self) -> None:
        """Join with what the fields hold (a bad address or code is said under them)."""
        try:
            address, port = split_address(self.fields["address"], DEFAULT_PORT)
            if not address:
                raise ValueError(_("type the host's address"))
            code = normal_code(self.fields["code"])
        except (ValueError, CodeError) as error:
            self.note = str(error)
            return
        self.join(address, port, code)

    # -- input ---------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event, size: tuple[int, int]) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, self.button_rects(size), event):
                return
            for game, rect in zip(self.found, self.found_rects(size)):
                if rect.collidepoint(event.pos):
                    self.fields["address"] = game.target
                    self.focus = "code"
            return
        if event.type != pygame.KEYDOWN:
            return
        key = event.key
        keys = {pygame.K_ESCAPE: self.buttons[2].action, pygame.K_F5: self.buttons[1].action}
        if key in keys:
            keys[key]()
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.submit()
        elif key == pygame.K_TAB:
            self.focus = "code" if self.focus == "address" else "address"
        elif key in (pygame.K_UP, pygame.K_DOWN) and self.found:
            targets = [game.target for game in self.found[:SHOWN_GAMES]]
            index = targets.index(self.fields["address"]) if self.fields["address"] in targets else -1
            index = (index + (1 if key == pygame.K_DOWN else -1)) % len(targets)
            self.fields["address"] = targets[index]
        elif key == pygame.K_BACKSPACE:
            self.fields[self.focus] = self.fields[self.focus][:-1]
            self.note = None
        elif event.unicode and event.unicode.isprintable() and len(self.fields[self.focus]) < MAX_FIELD_CHARS:
            self.fields[self.focus] += event.unicode
            self.note = None

    # -- where things are, and drawing ------------------------------------------------------------------
    def button_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        height = max(30, min(42, h // 16))
        return row_rects(pygame.Rect(12, h - 12 - height, w - 24, height), len(self.buttons), 8)

    def field_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        text = max(15, min(20, h // 34))
        width = min(w - 40, 520)
        top = int(h * 0.16) + 2 * (text + 8)
        return [pygame.Rect(w // 2 - width // 2, top + i * (text + 22), width, text + 14) for i in range(2)]

    def found_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        line = max(24, h // 22)
        width = min(w - 40, 520)
        top = int(h * 0.42)
        return [
            pygame.Rect(w // 2 - width // 2, top + i * (line + 4), width, line)
            for i in range(min(len(self.found), SHOWN_GAMES))
        ]

    def draw(self, surface: pygame.Surface, theme: Theme) -> None:
        p = theme.palette
        size = surface.get_size()
        text = max(15, min(20, size[1] // 34))
        if self.searching:
            found_line = _("Looking for games on the local network ...")
        elif self.found:
            found_line = _("Games on the local network (click one, or Up/Down):")
        else:
            found_line = self.found_note or _("No game found on the local network: type the address.")
        draw_heading(surface, theme, form_title(self.watch), [found_line])
        for game, rect in zip(self.found, self.found_rects(size)):
            pygame.draw.rect(
                surface, p.accent if self.fields["address"] == game.target else p.panel, rect, border_radius=6
            )
            shown, fitted = theme.fitted(f"{game.name} · {game.rules} · {game.target}", text, rect.width - 16)
            theme.text(surface, shown, fitted, (rect.left + 8, rect.centery), anchor="midleft")
        rects = self.field_rects(size)
        for rect, (name, label) in zip(rects, (("address", _("Address")), ("code", _("Join code")))):
            focused = self.focus == name
            pygame.draw.rect(surface, p.panel, rect, border_radius=6)
            pygame.draw.rect(surface, p.accent if focused else p.muted, rect, 2, border_radius=6)
            shown, fitted = theme.fitted(
                f"{label}: {self.fields[name]}" + ("_" if focused else ""), text, rect.width - 16
            )
            theme.text(surface, shown, fitted, (rect.left + 8, rect.centery), anchor="midleft")
        note = self.note or _("Tab: the next field · Enter: join · Esc: back")
        shown, fitted = theme.fitted(note, text, size[0] - 40)
        color = p.text if self.note else p.muted
        theme.text(surface, shown, fitted, (size[0] // 2, rects[-1].bottom + 8), color=color, anchor="midtop")
        for button, rect in zip(self.buttons, self.button_rects(size)):
            button.draw(surface, theme, rect=rect)


def draw_panel(
    surface: pygame.Surface,
    theme: Theme,
    panel: pygame.Rect,
    text: int,
    top: list[str],
    log: list[str],
    prompt: str,
    chat_open: bool,
) -> None:
    """The panel beside the board: ``top`` (the code, the addresses), the latest ``log``
    lines wrapped, and the chat line at the bottom (framed while it is being typed)."""
    p = theme.palette
    pygame.draw.rect(surface, p.panel, panel, border_radius=8)
    inner = panel.inflate(-16, -16)
    step = int(theme.pitch(text - 2, text + 4))
    lines = [(line, p.text) for line in top] + ([("", p.text)] if top else [])
    lines += [(part, p.muted) for line in log for part in theme.wrap(line, text - 2, inner.width)]
    room = max(0, (inner.height - step * 2) // step)
    y = inner.top
    for line, color in lines[-room:] if len(lines) > room else lines:
        shown, fitted = theme.fitted(line, text - 2, inner.width)
        theme.text(surface, shown, fitted, (inner.left, y), color=color)
        y += step
    shown, fitted = theme.fitted(prompt, text - 2, inner.width)
    if chat_open:
        box = pygame.Rect(inner.left - 4, inner.bottom - step - 4, inner.width + 8, step + 8)
        pygame.draw.rect(surface, p.accent, box, 2, border_radius=6)
    theme.text(surface, shown, fitted, (inner.left, inner.bottom - step), color=p.text if chat_open else p.muted)
