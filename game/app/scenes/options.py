"""Options: the rules (size, line length, gravity, mode), who starts, the opponent,
sound and theme.  Changes apply to the next game and are saved at once.

Controls: Up/Down choose a row, Left/Right change it, Esc back; or click the arrows.
"""

from __future__ import annotations

import pygame

from game.app.scene import Scene
from game.app.settings import OPPONENTS, STARTERS, THEMES
from game.app.widgets import Button, FocusList, Selector, stack_rects
from game.rules import MAX_COLS, MAX_CONNECT, MAX_ROWS, MIN_COLS, MIN_CONNECT, MIN_ROWS, Mode

SIZE_PRESETS = [(6, 7), (7, 8), (8, 9)]
OPPONENT_NAMES = {"computer": "the computer", "human": "a second player", "demo": "computer vs computer"}


class OptionsScene(Scene):
    name = "options"

    def on_enter(self) -> None:
        s = self.app.settings

        def setter(name):
            def apply(value) -> None:
                setattr(s, name, value)
                self._fix_connect()
                if name == "theme":
                    self.app.theme.set(value)
                if name == "sound":
                    self.app.sounds.enabled = value
                self.app.save_settings()
                self._sync()

            return apply

        self.size = Selector(
            "Board size",
            SIZE_PRESETS + ["custom"],
            0,
            self._set_size,
            format=lambda v: f"{v[0]} x {v[1]}" if isinstance(v, tuple) else "custom",
        )
        self.rows = Selector("Rows", list(range(MIN_ROWS, MAX_ROWS + 1)), 0, setter("rows"))
        self.cols = Selector("Columns", list(range(MIN_COLS, MAX_COLS + 1)), 0, setter("cols"))
        self.connect = Selector("Connect", list(range(MIN_CONNECT, MAX_CONNECT + 1)), 0, setter("connect"))
        self.gravity = Selector("Gravity", [True, False], 0, setter("gravity"), format=lambda v: "on" if v else "off")
        self.mode = Selector(
            "Mode",
            [m.value for m in Mode],
            0,
            setter("mode"),
            format=lambda v: "first line wins" if v == "classic" else "full board: most lines",
        )
        self.first = Selector(
            "Who starts", list(STARTERS), 0, setter("first"), format=lambda v: "you" if v == "human" else "the computer"
        )
        self.opponent = Selector("Opponent", list(OPPONENTS), 0, setter("opponent"), format=lambda v: OPPONENT_NAMES[v])
        self.sound = Selector("Sound", [True, False], 0, setter("sound"), format=lambda v: "on" if v else "muted")
        self.theme = Selector("Theme", list(THEMES), 0, setter("theme"))
        self.back = Button("Back", self.close, key_hint="Esc")
        self.selectors = [
            self.size,
            self.rows,
            self.cols,
            self.connect,
            self.gravity,
            self.mode,
            self.first,
            self.opponent,
            self.sound,
            self.theme,
        ]
        self.focus = FocusList(self.selectors + [self.back])
        self._sync()

    def _set_size(self, value) -> None:
        if isinstance(value, tuple):
            self.app.settings.rows, self.app.settings.cols = value
            self._fix_connect()
            self.app.save_settings()
        self._sync()

    def _fix_connect(self) -> None:
        s = self.app.settings
        s.connect = min(s.connect, max(s.rows, s.cols))

    def _sync(self) -> None:
        """Show the settings' current values in every selector."""
        s = self.app.settings
        self.size.set_value((s.rows, s.cols) if (s.rows, s.cols) in SIZE_PRESETS else "custom")
        for selector, value in (
            (self.rows, s.rows),
            (self.cols, s.cols),
            (self.connect, s.connect),
            (self.gravity, s.gravity),
            (self.mode, s.mode),
            (self.first, s.first),
            (self.opponent, s.opponent),
            (self.sound, s.sound),
            (self.theme, s.theme),
        ):
            selector.set_value(value)

    def close(self) -> None:
        self.app.save_settings()
        self.app.stack.pop()

    def layout(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        row = max(24, min(40, (h - 160) // (len(self.selectors) + 2)))
        width = min(w - 60, 620)
        top = int(row * 2.4)
        area = pygame.Rect(0, top, w, h - top - int(row * 3.4))  # room below for the note and Back
        for selector, rect in zip(self.selectors, stack_rects(area, len(self.selectors), row, row // 3, width)):
            selector.rect = rect
        self.back.rect = pygame.Rect(0, 0, 200, int(row * 1.2))
        self.back.rect.midbottom = (w // 2, h - row // 2)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.close()
            elif self.focus.handle_key(event.key):
                self.app.sounds.play("click")
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.layout(pygame.display.get_surface())
            for index, widget in enumerate(self.focus.items):
                if widget.handle_event(event):
                    self.focus.focus(index)
                    self.app.sounds.play("click")
                    break

    def draw(self, surface: pygame.Surface) -> None:
        self.layout(surface)
        theme = self.app.theme
        row = self.selectors[0].rect.height
        theme.text(surface, "Options", int(row * 1.5), (surface.get_width() / 2, row * 1.2), bold=True, anchor="center")
        for selector in self.selectors:
            selector.draw(surface, theme)
        self.back.draw(surface, theme)
        s = self.app.settings
        note = f"Next game: {s.rules().describe()}. Changes are saved at once."
        theme.text(
            surface,
            note,
            max(14, row // 2),
            (surface.get_width() / 2, self.back.rect.top - row * 0.4),
            color=theme.palette.muted,
            anchor="midbottom",
        )
