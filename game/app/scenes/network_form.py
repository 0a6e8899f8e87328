"""The join form: where to join (or watch) a network game, and with which code.

The games announced on the local network are looked for in a thread (``browse``) that
hands its answer through a queue, which ``update`` empties without waiting; typing an
address always works, with or without them.  Enter goes to the network table, joining
(``JoinGame``); a join that fails comes back here with the address and the code kept and
the reason under the fields.

Controls: type the address, Tab goes to the code, Up/Down pick a game found on the local
network (or click one), Enter joins, F5 searches again, Esc goes back.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

import pygame

from game.app.navigation import JoinGame
from game.app.scene import Scene
from game.app.scenes.network_draw import draw_heading
from game.app.scenes.network_text import form_title
from game.app.widgets import Button, click_buttons, display_size, row_rects
from game.i18n import N_, _
from game.net.client import JoinSettings, player_name, split_address
from game.net.discovery import FoundGame, browse
from game.net.protocol import DEFAULT_PORT
from game.net.words import CodeError, normal_code

MAX_FIELD_CHARS = 100
SHOWN_GAMES = 5


@dataclass(frozen=True)
class _Found:
    games: list[FoundGame]
    note: str | None


class JoinFormScene(Scene):
    """Where to join (or ``watch``) and with which code; ``note``: why the last try failed."""

    name = "join form"

    def __init__(self, watch: bool = False, address: str = "", code: str = "", note: str | None = None):
        super().__init__()
        self.watch = watch
        self.fields = {"address": address, "code": code}
        self.focus = "code" if address else "address"
        self.found: list[FoundGame] = []
        self.found_note: str | None = None
        self.searching = False
        self.note = note
        self.inbox: queue.Queue[_Found] = queue.Queue()
        self.stop = threading.Event()
        self.buttons = [
            Button(N_("Join"), self.submit, "Enter"),
            Button(N_("Search again"), self.search, "F5"),
            Button(N_("Back"), self.back, "Esc"),
        ]

    def on_enter(self) -> None:
        self.search()

    def on_exit(self) -> None:
        self.stop.set()

    def search(self) -> None:
        """Look for hosts on the local network (a thread: its answer comes through ``inbox``)."""
        if self.searching:
            return
        self.searching = True
        stop, inbox = self.stop, self.inbox

        def look() -> None:
            games, note = browse(stop=stop)
            if not stop.is_set():
                inbox.put(_Found(games, note))

        threading.Thread(target=look, name="net-browse", daemon=True).start()

    def update(self, dt: float) -> None:
        try:
            found = self.inbox.get_nowait()
        except queue.Empty:
            return
        self.searching = False
        self.found, self.found_note = found.games, found.note
        self.app.dirty = True

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
        name = player_name(self.app.settings.name)
        self.app.replace(JoinGame(JoinSettings(address, port, code, name, self.watch)))

    def back(self) -> None:
        self.app.pop()

    # -- input ---------------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        size = display_size()
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, self.button_rects(size), event):
                return
            for game, rect in zip(self.found, self.found_rects(size)):
                if rect.collidepoint(event.pos):
                    self.fields["address"] = game.target
                    self.focus = "code"
            for name, rect in zip(("address", "code"), self.field_rects(size)):
                if rect.collidepoint(event.pos):
                    self.focus = name
            return
        if event.type != pygame.KEYDOWN:
            return
        key = event.key
        if key == pygame.K_ESCAPE:
            self.back()
        elif key == pygame.K_F5:
            self.search()
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
        height = max(30, min(42, h // 16), self.app.theme.font(16).get_linesize() + 12)
        return row_rects(pygame.Rect(12, h - 12 - height, w - 24, height), len(self.buttons), 8)

    def text_size(self, size: tuple[int, int]) -> int:
        return max(15, min(20, size[1] // 34))

    def field_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        text = self.text_size(size)
        line = int(self.app.theme.pitch(text, text + 14))
        width = min(w - 40, int(520 * self.app.theme.scale))
        top = int(h * 0.16) + 2 * (text + 8)
        return [pygame.Rect(w // 2 - width // 2, top + i * (line + 8), width, line) for i in range(2)]

    def found_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        line = max(24, h // 22, self.app.theme.font(self.text_size(size)).get_linesize() + 4)
        width = min(w - 40, int(520 * self.app.theme.scale))
        top = int(h * 0.42)
        return [
            pygame.Rect(w // 2 - width // 2, top + i * (line + 4), width, line)
            for i in range(min(len(self.found), SHOWN_GAMES))
        ]

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        size = surface.get_size()
        text = self.text_size(size)
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
            theme.keep_clear(rect)
            shown, fitted = theme.fitted(f"{game.name} · {game.rules} · {game.target}", text, rect.width - 16)
            theme.text(surface, shown, fitted, (rect.left + 8, rect.centery), anchor="midleft")
        rects = self.field_rects(size)
        for rect, (name, label) in zip(rects, (("address", _("Address")), ("code", _("Join code")))):
            focused = self.focus == name
            pygame.draw.rect(surface, p.panel, rect, border_radius=6)
            pygame.draw.rect(surface, p.accent if focused else p.muted, rect, 2, border_radius=6)
            theme.keep_clear(rect)
            shown, fitted = theme.fitted(
                f"{label}: {self.fields[name]}" + ("_" if focused else ""), text, rect.width - 16
            )
            theme.text(surface, shown, fitted, (rect.left + 8, rect.centery), anchor="midleft")
        note = self.note or _("Tab: the next field · Enter: join · Esc: back")
        lines = theme.wrap(note, text, size[0] - 40) if self.note else [theme.fit(note, text, size[0] - 40)]
        y = rects[-1].bottom + 8
        for line in lines[:3]:
            color = p.warning if self.note else p.muted
            y = theme.text(surface, line, text, (size[0] // 2, y), color=color, anchor="midtop").bottom + 2
        for button, rect in zip(self.buttons, self.button_rects(size)):
            button.draw(surface, theme, rect=rect)
