"""Level select: named presets, search depth, alpha-beta on/off, time budget, and what
each setting means and costs.

Controls: Up/Down choose a row, Left/Right change it, Enter start, Esc back; or click.
"""

from __future__ import annotations

import pygame

from ai.levels import MAX_DEPTH, MIN_DEPTH, PRESETS, TIME_BUDGETS, Level, describe, preset_name
from game.app.scene import Scene
from game.app.widgets import Button, FocusList, Selector, row_rects, stack_rects


class LevelSelectScene(Scene):
    name = "level select"

    def on_enter(self) -> None:
        s = self.app.settings

        def setter(name):
            def apply(value) -> None:
                setattr(s, name, value)
                self.app.save_settings()

            return apply

        self.presets = [Button(name, lambda level=level: self.use_preset(level)) for name, level in PRESETS.items()]
        self.depth = Selector(
            "Search depth", list(range(MIN_DEPTH, MAX_DEPTH + 1)), 0, setter("depth"), format=lambda v: f"{v} plies"
        )
        self.pruning = Selector(
            "Alpha-beta pruning", [True, False], 0, setter("pruning"), format=lambda v: "on" if v else "off"
        )
        self.budget = Selector(
            "Time per move",
            list(TIME_BUDGETS),
            0,
            setter("time_budget"),
            format=lambda v: f"{v:g} s" if v else "no limit",
        )
        self.start_button = Button("Start", self.start, key_hint="Enter")
        self.back = Button("Back", self.app.stack.pop, key_hint="Esc")
        self.focus = FocusList([self.depth, self.pruning, self.budget, self.start_button])
        self.focus.focus(3)  # Start
        self._sync()

    def _sync(self) -> None:
        s = self.app.settings
        self.depth.set_value(s.depth)
        self.pruning.set_value(s.pruning)
        self.budget.set_value(s.time_budget)

    def use_preset(self, level: Level) -> None:
        self.app.settings.set_level(level)
        self.app.save_settings()
        self._sync()

    def start(self) -> None:
        from game.app.scenes.play import PlayScene

        self.app.save_settings()
        self.app.stack.replace(PlayScene.from_settings(self.app.settings))

    def layout(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        row = max(26, min(44, h // 16))
        width = min(w - 60, 640)
        left = (w - width) // 2
        presets = pygame.Rect(left, int(row * 2.6), width, row)
        for button, rect in zip(self.presets, row_rects(presets, len(self.presets), row // 3)):
            button.rect = rect
        area = pygame.Rect(0, presets.bottom + row, w, row * 4)
        for selector, rect in zip((self.depth, self.pruning, self.budget), stack_rects(area, 3, row, row // 2, width)):
            selector.rect = rect
        buttons = pygame.Rect(left, h - int(row * 1.8), width, int(row * 1.2))
        self.back.rect, self.start_button.rect = row_rects(buttons, 2, row)

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key == pygame.K_ESCAPE:
                self.app.stack.pop()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.focus.index != 3:
                self.start()
            elif self.focus.handle_key(event.key):
                self.app.sounds.play("click")
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self.layout(pygame.display.get_surface())
            for widget in self.presets + [self.depth, self.pruning, self.budget, self.start_button, self.back]:
                if widget.handle_event(event):
                    self.app.sounds.play("click")
                    break

    def draw(self, surface: pygame.Surface) -> None:
        self.layout(surface)
        theme = self.app.theme
        p = theme.palette
        w = surface.get_width()
        row = self.depth.rect.height
        s = self.app.settings
        opponent = "Computer vs computer" if s.opponent == "demo" else "You vs the computer"
        theme.text(surface, "Level", int(row * 1.4), (w / 2, row * 1.0), bold=True, anchor="center")
        theme.text(
            surface,
            f"{opponent} · {s.rules().describe()}",
            int(row * 0.55),
            (w / 2, row * 1.9),
            color=p.muted,
            anchor="center",
        )
        current = preset_name(s.level())
        for button in self.presets:
            button.focused = button.label == current
            button.draw(surface, theme)
        for selector in (self.depth, self.pruning, self.budget):
            selector.draw(surface, theme)
        width = self.depth.rect.width
        y = self.budget.rect.bottom + row
        for sentence in describe(s.level(), s.rules()):
            for line in theme.wrap(sentence, int(row * 0.6), width):
                theme.text(surface, line, int(row * 0.6), (self.depth.rect.left, y))
                y += row * 0.62
            y += row * 0.25
        self.back.draw(surface, theme)
        self.start_button.draw(surface, theme)
