"""A question over the scene beneath (``AskFirst``): what will happen, said plainly, then
the choice: go on (``then``, in place of the question) or go back.

Controls: Enter (or the first button) goes on, Esc goes back; Up/Down choose; or click.
"""

from __future__ import annotations

from game.app.menu import OverlayMenu
from game.app.navigation import Request
from game.app.widgets import Button
from game.i18n import N_


class ConfirmScene(OverlayMenu):
    name = "confirm"

    def __init__(self, title: str, lines: tuple[str, ...], yes_label: str, then: Request):
        super().__init__()
        self.title = title
        self.lines = lines
        self.yes_label = yes_label
        self.then = then

    def subtitle_lines(self) -> list[str]:
        return list(self.lines)

    def build_buttons(self) -> list[Button]:
        return [Button(self.yes_label, self.go_on, "Enter"), Button(N_("Back"), self.app.pop, "Esc")]

    def go_on(self) -> None:
        self.app.replace(self.then)
