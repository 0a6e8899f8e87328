"""The pause menu over a game: the rules, the level and the tally, and the way out.
The computer's search, if any, goes on underneath.

Controls: Up/Down choose, Enter activate, Esc resume; or click.
"""

from __future__ import annotations

from game.app.menu import OverlayMenu
from game.app.navigation import BackToTitle, GameInPlay, ShowHelp
from game.app.widgets import Button
from game.i18n import N_, _


class PauseScene(OverlayMenu):
    title = N_("Paused")
    name = "pause"

    def __init__(self, play: GameInPlay):
        super().__init__()
        self.play = play

    def subtitle_lines(self) -> list[str]:
        lines = [self.play.rules.said(), self.play.level_line(), self.play.tally_line()]
        return [line for line in lines if line]

    def build_buttons(self) -> list[Button]:
        return [
            Button(N_("Resume"), self.app.pop, "Esc"),
            Button(N_("Restart"), self.restart),
            Button(N_("How to play"), self.help),
            Button(N_("Main menu"), self.main_menu),
            Button(N_("Review the game"), self.review),
            Button(N_("Quit"), self.app.quit),
        ]

    def restart(self) -> None:
        self.play.restart()
        self.app.pop()

    def review(self) -> None:
        if not self.play.match.moves:
            self.app.show_toast(_("No moves to review yet"))
            return
        self.play.open_review()

    def help(self) -> None:
        self.app.push(ShowHelp())

    def main_menu(self) -> None:
        self.app.reset(BackToTitle())
