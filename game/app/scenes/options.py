"""Options: the rules (size, line length, gravity, mode), who starts against the
computer, sound, the colours (a palette per type of colour vision among them), motion,
spoken output, text size, the language (``game.i18n``: the next frame is worded in
it) and the player's name over the network (typed; empty: the account's name).  Rule changes apply to the next game, the others at once;
all are saved at once.  The opponent is chosen on the title menu (one place), not here.

Controls: Up/Down choose a row, Left/Right change it, typing fills the name row, Esc back;
or click the arrows.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame

from game.app.scene import Scene
from game.app.settings import LANGUAGE_CHOICES, MOTIONS, STARTERS, THEMES, UI_SCALES
from game.app.widgets import Button, FocusList, Selector, TextField, display_size, stack_rects
from game.i18n import LANGUAGES, N_, _, catalog_problem, set_language
from game.net.client import clean_name, default_name
from game.net.protocol import MAX_NAME_CHARS
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
                    self.app.speak(_("Spoken output on"))
                self.app.save_settings()
                self._sync()

            return apply

        self.size = Selector(
            N_("Board size"),
            SIZE_PRESETS + ["custom"],
            0,
            self._set_size,
            format=lambda v: f"{v[0]}x{v[1]}" if isinstance(v, tuple) else _("custom"),
        )
        self.rows = Selector(N_("Rows"), list(range(MIN_ROWS, MAX_ROWS + 1)), 0, setter("rows"))
        self.cols = Selector(N_("Columns"), list(range(MIN_COLS, MAX_COLS + 1)), 0, setter("cols"))
        self.connect = Selector(N_("Connect"), list(range(MIN_CONNECT, MAX_CONNECT + 1)), 0, setter("connect"))
        self.gravity = Selector(
            N_("Gravity"), [True, False], 0, setter("gravity"), format=lambda v: _("on") if v else _("off")
        )
        self.mode = Selector(
            N_("Mode"),
            [m.value for m in Mode],
            0,
            setter("mode"),
            format=lambda v: _("first line wins") if v == "classic" else _("full board: most lines"),
        )
        self.first = Selector(
            N_("Who starts vs computer"),
            list(STARTERS),
            0,
            setter("first"),
            format=lambda v: _("you") if v == "human" else _("the computer"),
        )
        self.sound = Selector(N_("Sound"), [True, False], 0, setter("sound"), format=self._sound_word)
        self.theme = Selector(
            N_("Colours"), list(THEMES), 0, setter("theme"), format=lambda v: _(THEME_NAMES.get(v, v))
        )
        self.motion = Selector(N_("Motion"), list(MOTIONS), 0, setter("motion"), format=lambda v: _(MOTION_NAMES[v]))
        self.speech = Selector(
            N_("Spoken output"), [False, True], 0, setter("speech"), format=lambda v: _("on") if v else _("off")
        )
        self.scale = Selector(N_("Text size"), list(UI_SCALES), 0, setter("ui_scale"), format=lambda v: f"{v} %")
        self.language = Selector(
            N_("Language"),
            list(LANGUAGE_CHOICES),
            0,
            setter("language"),
            format=lambda v: _("System") if v == "system" else LANGUAGES[v],
        )
        self.name_field = TextField(
            N_("Your name (network)"),
            s.name,
            self._set_name,
            MAX_NAME_CHARS,
            placeholder=default_name(),
        )
        self.back = Button(N_("Back"), self.close, key_hint="Esc")
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
            self.language,
        ]
        self.focus = FocusList([*self.selectors, self.name_field, self.back])
        self._sync()
        self.layout(display_size())

    def _set_size(self, value: object) -> None:
        if isinstance(value, tuple):
            self.app.settings.rows, self.app.settings.cols = value
            self._fix_connect()
            self.app.save_settings()
        self._sync()

    def _sound_word(self, on: object) -> str:
        """The Sound row's value: on or muted, or, with no sound device, that there is none
        (the choice is still kept for a computer that has one)."""
        if not self.app.sounds.available:
            return _("no sound device")
        return _("on") if on else _("muted")

    def _set_name(self, text: str) -> None:
        """The name as typed so far, taken as any typed text is (``clean_name``: one line,
        printable, spaces run together); nothing left: the account's name."""
        self.app.settings.name = clean_name(text)
        self.app.save_settings()

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
            (self.language, s.language),
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
        set_language(s.language)  # the scenes word their text as they draw: the next frame speaks it
        if problem := catalog_problem():  # that language's catalog is damaged: English, and why
            app.show_toast(problem, 8.0)
        if not s.speech:
            app.speech.stop()

    def close(self) -> None:
        self.app.save_settings()
        self.app.pop()

    def layout(self, size: tuple[int, int]) -> None:
        """Place the rows for a window of ``size`` (on enter, each update and each click).

        Rows, title, note and Back share the height: n rows with their gaps take
        n * 4/3 row heights, the title 2 and the note with Back 3.2.
        """
        w, h = size
        count = len(self.selectors) + 1  # and the name row
        scale = self.app.theme.scale  # bigger text: taller and wider rows, where the window has room
        row = max(20, min(int(40 * scale), int(h / (count * 4 / 3 + 5.2))))
        width = min(w - 40, int(620 * scale))
        top = row * 2
        area = pygame.Rect(0, top, w, int(count * row * 4 / 3))
        rects = stack_rects(area, count, row, row // 3, width)
        for selector, rect in zip(self.selectors, rects):
            selector.rect = rect
            selector.measure(self.app.theme)
        self.name_field.rect = rects[-1]
        widest = max(selector.value_width for selector in self.selectors)
        for selector in self.selectors:  # one column of arrows
            selector.value_width = widest
        self.back.rect = pygame.Rect(0, 0, 200, int(row * 1.2))
        self.back.rect.midbottom = (w // 2, h - row // 2)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE:
            self.close()
        elif self.name_field.focused and self.name_field.type(event):
            return
        else:
            self.layout(display_size())
            if self.focus.handle_event(event):
                self.app.sounds.play("click")

    def update(self, dt: float) -> None:
        self.layout(display_size())

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        row = self.selectors[0].rect.height
        title = int(row * 1.5)  # inside the window and above the first row at any UI scale
        while title > 12 and theme.font(title, True).size(_("Options"))[1] > row * 2 - 4:
            title -= 1
        top = max(row * 1.0, theme.font(title, True).size(_("Options"))[1] / 2 + 2)
        theme.text(surface, _("Options"), title, (surface.get_width() / 2, top), bold=True, anchor="center")
        for selector in self.selectors:
            selector.draw(surface, theme)
        self.name_field.draw(surface, theme, box_left=self.selectors[0].arrow_rects()[0].left)
        self.back.draw(surface, theme)
        s = self.app.settings
        note = _("Next game: {describe}. Changes are saved at once.").format(describe=s.rules().said())
        theme.text(
            surface,
            note,
            max(14, row // 2),
            (surface.get_width() / 2, self.back.rect.top - row * 0.3),
            color=theme.palette.muted,
            anchor="midbottom",
        )


THEME_NAMES = {
    "classic": N_("classic"),
    "night": N_("night"),
    "monochrome": N_("monochrome"),
    "contrast": N_("high contrast"),
    "protanopia": N_("protanopia (red)"),
    "deuteranopia": N_("deuteranopia (green)"),
    "tritanopia": N_("tritanopia (blue)"),
}
"""How the Colours row names a palette (the others by their own name)."""
MOTION_NAMES = {"normal": N_("normal"), "fast": N_("fast"), "off": N_("off (no animation)")}
