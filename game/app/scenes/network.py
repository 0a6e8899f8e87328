"""The network menu: host a game on the local network, join one, or watch one.

Hosting opens the network table (``HostGame``) with the Options' rules and a new join
code; joining and watching open the join form (``OpenJoinForm``).  The player's name is
the Options' (the login name unless one is set there).

Controls: H hosts, F says who moves first, J joins, W watches, Esc goes back; or click.
"""

from __future__ import annotations

import pygame

from game.app.navigation import HostGame, OpenJoinForm
from game.app.scene import Scene
from game.app.scenes.network_draw import draw_heading
from game.app.scenes.network_text import menu_lines
from game.app.widgets import Button, click_buttons, display_size, stack_rects
from game.i18n import N_, _
from game.net.client import player_name
from game.net.host import HostSettings
from game.net.words import new_code


class NetworkMenuScene(Scene):
    name = "network"

    def __init__(self) -> None:
        super().__init__()
        self.host_first = True
        self.first_button = Button(N_("Who moves first"), self.toggle_first, "F")
        self.buttons = [
            Button(N_("Host a game"), self.host_game, "H"),
            self.first_button,
            Button(N_("Join a game"), lambda: self.open_form(watch=False), "J"),
            Button(N_("Watch a game"), lambda: self.open_form(watch=True), "W"),
            Button(N_("Back"), self.back, "Esc"),
        ]

    def host_game(self) -> None:
        settings = HostSettings(
            code=new_code(),
            name=player_name(self.app.settings.name),
            rules=self.app.settings.rules(),
            host_first=self.host_first,
        )
        self.app.push(HostGame(settings, fallback=True))

    def open_form(self, *, watch: bool) -> None:
        self.app.push(OpenJoinForm(watch=watch))

    def toggle_first(self) -> None:
        self.host_first = not self.host_first
        self.app.dirty = True

    def back(self) -> None:
        self.app.pop()

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            click_buttons(self.buttons, self.button_rects(display_size()), event)
        elif event.type == pygame.KEYDOWN:
            keys = {pygame.K_h: self.host_game, pygame.K_f: self.toggle_first, pygame.K_ESCAPE: self.back}
            keys[pygame.K_j] = lambda: self.open_form(watch=False)
            keys[pygame.K_w] = lambda: self.open_form(watch=True)
            if event.key in keys:
                keys[event.key]()

    def button_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        w, h = size
        height = max(30, min(48, h // 14), self.app.theme.font(16).get_linesize() + 12)
        area = pygame.Rect(0, h // 6, w, h - h // 3)
        return stack_rects(area, len(self.buttons), height, height // 3, min(w - 40, int(420 * self.app.theme.scale)))

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        draw_heading(surface, theme, _("Network game"), menu_lines(self.app.settings.rules(), self.host_first))
        for button, rect in zip(self.buttons, self.button_rects(surface.get_size())):
            label = button.label
            if button is self.first_button:
                label = N_("First move: you") if self.host_first else N_("First move: your guest")
            button.draw(surface, theme, rect=rect, label=label)
