"""Options: the rules (size, line length, gravity, mode), who starts against the
computer, sound, the colours (a palette per type of colour vision among them), motion,
spoken output and text size.  Rule changes apply to the next game, the others at once;
all are saved at once.  The opponent is chosen on the title menu (one place), not here.

Controls: Up/Down choose a row, Left/Right change it, Esc back; or click the arrows.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.app.scene import Scene
from game.app.settings import MOTIONS, STARTERS, THEMES, UI_SCALES
from game.app.widgets import Button, FocusList, Selector, display_size, stack_rects
from game.rules import MAX_COLS, MAX_CONNECT, MAX_ROWS, MIN_COLS, MIN_CONNECT, MIN_ROWS, Mode

SIZE_PRESETS = [(6, 7), (7, 8), (8, 9)]


class OptionsScene(Scene):
    name = "options"

    def on_enter(self) -> None:
        s = self.app.settings

        def setter(name: str) -> Callable[[object], None]:
            def apply(value: object) -> None:
                setattr(s, name, value)
                self._fix_connect()
                self._apply()
                if name == "speech" and value:
                    self.app.speak("Spoken output on")
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
            "Who starts vs computer",
            list(STARTERS),
            0,
            setter("first"),
            format=lambda v: "you" if v == "human" else "the computer",
        )
        self.sound = Selector("Sound", [True, False], 0, setter("sound"), format=lambda v: "on" if v else "muted")
        self.theme = Selector("Colours", list(THEMES), 0, setter("theme"), format=lambda v: THEME_NAMES.get(v, v))
        self.motion = Selector("Motion", list(MOTIONS), 0, setter("motion"), format=MOTION_NAMES.__getitem__)
        self.speech = Selector(
            "Spoken output", [False, True], 0, setter("speech"), format=lambda v: "on" if v else "off"
        )
        self.scale = Selector("Text size", list(UI_SCALES), 0, setter("ui_scale"), format=lambda v: f"{v} %")
        self.back = Button("Back", self.close, key_hint="Esc")
        self.selectors = [
            self.size,
            self.rows,
            self.cols,
            self.connect,
            self.gravity,
            self.mode,
            self.first,
            self.sound,
            self.theme,
            self.motion,
            self.speech,
            self.scale,
        ]
        self.focus = FocusList([*self.selectors, self.back])
        self._sync()
        self.layout(display_size())

    def _set_size(self, value: object) -> None:
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
            (self.sound, s.sound),
            (self.theme, s.theme),
            (self.motion, s.motion),
            (self.speech, s.speech),
            (self.scale, s.ui_scale),
        ):
            selector.set_value(value)

    def _apply(self) -> None:
        """Put the look, sound and speech settings to work at once."""
        s, app = self.app.settings, self.app
        app.theme.set(s.theme)
        app.theme.motion = s.motion
        app.theme.scale = s.ui_scale / 100
        app.sounds.enabled = s.sound
        app.speech.enabled = s.speech
        if not s.speech:
            app.speech.stop()

    def close(self) -> None:
        self.app.save_settings()
        self.app.stack.pop()

    def layout(self, size: tuple[int, int]) -> None:
        """Place the rows for a window of ``size`` (on enter, each update and each click).

        Rows, title, note and Back share the height: n rows with their gaps take
        n * 4/3 row heights, the title 2 and the note with Back 3.2.
        """
        w, h = size
        count = len(self.selectors)
        scale = self.app.theme.scale  # bigger text: taller and wider rows, where the window has room
        row = max(20, min(int(40 * scale), int(h / (count * 4 / 3 + 5.2))))
        width = min(w - 40, int(620 * scale))
        top = row * 2
        area = pygame.Rect(0, top, w, int(count * row * 4 / 3))
        for selector, rect in zip(self.selectors, stack_rects(area, count, row, row // 3, width)):
            selector.rect = rect
            selector.measure(self.app.theme)
        widest = max(selector.value_width for selector in self.selectors)
        for selector in self.selectors:  # one column of arrows
            selector.value_width = widest
        self.back.rect = pygame.Rect(0, 0, 200, int(row * 1.2))
        self.back.rect.midbottom = (w // 2, h - row // 2)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.close()
            elif self.focus.handle_key(event.key):
                self.app.sounds.play("click")
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.layout(display_size())
            for index, widget in enumerate(self.focus.items):
                if widget.handle_event(event):
                    self.focus.focus(index)
                    self.app.sounds.play("click")
                    break

    def update(self, dt: float) -> None:
        self.layout(display_size())

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        row = self.selectors[0].rect.height
        title = int(row * 1.5)  # its top inside the window at any UI scale
        top = max(row * 1.0, theme.font(title, True).get_height() / 2 + 2)
        theme.text(surface, "Options", title, (surface.get_width() / 2, top), bold=True, anchor="center")
        for selector in self.selectors:
            selector.draw(surface, theme)
        self.back.draw(surface, theme)
        s = self.app.settings
        note = f"Next game: {s.rules().describe()}. Changes are saved at once."
        theme.text(
            surface,
            note,
            max(14, row // 2),
            (surface.get_width() / 2, self.back.rect.top - row * 0.3),
            color=theme.palette.muted,
            anchor="midbottom",
        )


THEME_NAMES = {
    "contrast": "high contrast",
    "protanopia": "protanopia (red)",
    "deuteranopia": "deuteranopia (green)",
    "tritanopia": "tritanopia (blue)",
}
"""How the Colours row names a palette (the others by their own name)."""
MOTION_NAMES = {"normal": "normal", "fast": "fast", "off": "off (no animation)"}
