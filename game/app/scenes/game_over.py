"""The result of a finished game, over the board, placed so the winning line stays in view.

Controls: Enter play again, Esc look at the board, M main menu, T the last tree; or click.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.app.scenes.menu import OverlayMenu, dim
from game.app.widgets import Button
from game.rules import MAX, MIN, Mode

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
            lines.append(self.discs_text())
        tally = self.play.tally_line()
        if tally:
            lines.append(tally)
        return lines

    def is_animating(self) -> bool:
        return False  # still (the board beneath says when it moves)

    def discs_text(self) -> str:
        """How long the game was, in discs (plies) and each player's moves, never mixed."""
        moves = self.play.match.moves
        first = (len(moves) + 1) // 2
        second = len(moves) // 2
        if first == second:
            return f"after {len(moves)} discs, {first} moves each"
        one, two = self.play.side_name(MAX).lower(), self.play.side_name(MIN).lower()
        return f"after {len(moves)} discs: {first} moves by {one}, {second} by {two}"

    def panel_rect(self, size: tuple[int, int]) -> pygame.Rect:
        """The panel centred, or moved up or down, whichever hides least of the winning runs."""
        panel = super().panel_rect(size)
        panel.width = min(panel.width, 400)  # narrow enough to stand beside the board
        panel.centerx = size[0] // 2
        outcome = self.play.outcome
        if outcome is None or not outcome.runs:
            return panel
        layout = self.play.board_layout(size)
        cells = [layout.center(row, col) for run in outcome.runs for row, col in run]
        reach = layout.radius + 6
        runs = [pygame.Rect(x - reach, y - reach, 2 * reach, 2 * reach) for x, y in cells]
        w, h = size
        margin = 10
        candidates = [
            panel,
            panel.move(0, margin - panel.top),  # at the top
            panel.move(0, h - margin - panel.bottom),  # at the bottom
            panel.move(margin - panel.left, 0),  # left
            panel.move(w - margin - panel.right, 0),  # right
        ]

        def hidden(rect: pygame.Rect) -> int:
            return sum(rect.clip(run).width * rect.clip(run).height for run in runs)

        return min(candidates, key=hidden)  # the first of the best: centred when free

    def draw(self, surface: pygame.Surface) -> None:
        dim(surface, 70)  # lighter than the pause menu: the final board is the point
        panel = self.panel_rect(surface.get_size())
        p = self.app.theme.palette
        pygame.draw.rect(surface, p.panel, panel, border_radius=14)
        pygame.draw.rect(surface, p.accent, panel, 2, border_radius=14)
        super(OverlayMenu, self).draw(surface)

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
