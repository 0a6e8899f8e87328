"""The result of a finished game, over the board (whose winning line still glows).

Controls: Enter play again, Esc look at the board, M main menu, T the last tree; or click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.app.scenes.menu import OverlayMenu
from game.app.widgets import Button
from game.rules import Mode

if TYPE_CHECKING:
    from game.app.scenes.play import PlayScene


class GameOverScene(OverlayMenu):
    name = "game over"

    def __init__(self, play: PlayScene):
        super().__init__()
        self.play = play
        self.title = play.result_text()

    def subtitle_lines(self) -> list[str]:
        lines = []
        outcome = self.play.outcome
        if outcome is not None and self.play.rules.mode is Mode.FULL_BOARD:
            lines.append(f"Points: player 1 {outcome.score[0]}, player 2 {outcome.score[1]}")
        elif outcome is not None and outcome.winner is not None:
            lines.append(f"after {len(self.play.match.moves)} moves")
        tally = self.play.tally_line()
        if tally:
            lines.append(tally)
        return lines

    def build_buttons(self) -> list[Button]:
        buttons = [
            Button("Play again", self.play_again, "Enter"),
            Button("Look at the board", self.app.stack.pop, "Esc"),
        ]
        if self.play.searches:
            buttons.append(Button("Open the last tree", self.tree, "T"))
        buttons.append(Button("Main menu", self.main_menu, "M"))
        return buttons

    def play_again(self) -> None:
        self.play.restart()
        self.app.stack.pop()

    def tree(self) -> None:
        self.app.stack.pop()
        self.play.open_tree()

    def main_menu(self) -> None:
        from game.app.scenes.title import TitleScene

        self.app.stack.reset(TitleScene())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_m:
            self.main_menu()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_t and self.play.searches:
            self.tree()
        else:
            super().handle_event(event)
