"""The result of a finished game: a banner above the board (below it when there is no
room), so the final board and its winning line stay in view.

Controls: Enter play again, V review the game, Esc look at the board, M main menu, T the last
tree; or click.
"""

from __future__ import annotations

import time

import pygame

from game.app.menu import OverlayMenu
from game.app.navigation import BackToTitle, GameInPlay
from game.app.scenes.play_text import Names
from game.app.widgets import Button, dim, row_rects
from game.i18n import N_, _
from game.learn.rating import GAME, change_text
from game.rules import MAX, MIN, Mode

JUST_STORED = 120.0
"""Seconds: a game stored this recently is the one that just ended (its rating change is shown)."""


class GameOverScene(OverlayMenu):
    name = "game over"

    def __init__(self, play: GameInPlay):
        super().__init__()
        self.play = play
        self.title = play.result_text()
        self.rating_change: str | None = None

    def on_enter(self) -> None:
        """The rating's change, where the game just stored moved it (against a level)."""
        rated = self.app.rating()
        history = rated.history if rated is not None else ()
        if history and history[-1].event.kind == GAME and time.time() - history[-1].event.at < JUST_STORED:
            point = history[-1]
            self.rating_change = _("rating {change}").format(
                change=change_text(point.before.rating, point.after.rating)
            )
        super().on_enter()

    def subtitle_lines(self) -> list[str]:
        lines = []
        outcome = self.play.outcome
        if outcome is not None and self.play.rules.mode is Mode.FULL_BOARD:
            lines.append(
                _("Points: player 1 {score}, player 2 {score2}").format(score=outcome.score[0], score2=outcome.score[1])
            )
        elif outcome is not None and outcome.winner is not None:
            lines.append(self.discs_text())
        tally = self.play.tally_line()
        if tally and self.rating_change:
            lines.append(_("{tally} · {change}").format(tally=tally, change=self.rating_change))
        elif tally or self.rating_change:
            lines.append(tally or self.rating_change or "")
        return lines

    def discs_text(self) -> str:
        """How long the game was, in discs (plies) and each player's moves, never mixed."""
        moves = self.play.match.moves
        first = (len(moves) + 1) // 2
        second = len(moves) // 2
        if first == second:
            return _("after {count} discs, {first} moves each").format(count=len(moves), first=first)
        one, two = self.play.side_name(MAX), self.play.side_name(MIN)
        if _("You") in (one, two):  # whole sentences: "von dir", "vom Computer", never "von du"
            said = (
                _("after {count} discs: {first} moves by you, {second} by the computer")
                if one == _("You")
                else _("after {count} discs: {first} moves by the computer, {second} by you")
            )
            return said.format(count=len(moves), first=first, second=second)
        names = Names(one, two)  # "player 1" inside the sentence ("Spieler 1" in German)
        return _("after {count} discs: {first} moves by {one}, {second} by {two}").format(
            count=len(moves), first=first, one=names.subject(MAX), second=second, two=names.subject(MIN)
        )

    # -- a banner above the board (or below it), so the final board stays in view ------
    def banner_height(self, size: tuple[int, int]) -> int:
        return self.title_step(size) + self.line_step(size) * 2 + self.button_height(size) + 22

    def title_size(self, size: tuple[int, int]) -> int:
        return max(22, min(40, size[1] // 20))

    def line_size(self, size: tuple[int, int]) -> int:
        return max(14, min(20, size[1] // 40))

    def title_step(self, size: tuple[int, int]) -> int:
        """From the title down to the first line, at the UI scale."""
        big = self.title_size(size)
        return int(self.app.theme.pitch(big, big + 2, bold=True))

    def line_step(self, size: tuple[int, int]) -> int:
        small = self.line_size(size)
        return int(self.app.theme.pitch(small, small + 2))

    def button_height(self, size: tuple[int, int]) -> int:
        return max(30, min(44, size[1] // 18))

    def panel_rect(self, size: tuple[int, int]) -> pygame.Rect:
        """A banner across the window: above the board where there is room, else below
        it, else wherever it hides least of the winning runs."""
        w, h = size
        banner = pygame.Rect(10, 6, w - 20, self.banner_height(size))
        candidates = [banner, banner.move(0, h - 12 - banner.bottom)]  # top, bottom
        outcome = self.play.outcome
        if outcome is None or not outcome.runs:
            return banner
        layout = self.play.board_layout(size)
        reach = layout.radius + 6
        cells = [layout.center(row, col) for run in outcome.runs for row, col in run]
        runs = [pygame.Rect(x - reach, y - reach, 2 * reach, 2 * reach) for x, y in cells]

        def hidden(rect: pygame.Rect) -> int:
            return sum(rect.clip(run).width * rect.clip(run).height for run in runs)

        return min(candidates, key=hidden)  # the first of the best: the top when free

    def button_rects(self, size: tuple[int, int]) -> list[pygame.Rect]:
        """The buttons side by side along the banner's bottom."""
        panel = self.panel_rect(size)
        height = self.button_height(size)
        row = pygame.Rect(panel.left + 12, panel.bottom - height - 10, panel.width - 24, height)
        row.width = min(row.width, 220 * len(self.buttons))
        row.centerx = panel.centerx
        return row_rects(row, len(self.buttons), 10)

    def draw(self, surface: pygame.Surface) -> None:
        size = surface.get_size()
        dim(surface, 50)  # a light shade: the final board is the point
        panel = self.panel_rect(size)
        theme = self.app.theme
        p = theme.palette
        pygame.draw.rect(surface, p.panel, panel, border_radius=12)
        pygame.draw.rect(surface, p.accent, panel, 2, border_radius=12)
        big, small = self.title_size(size), self.line_size(size)
        y = panel.top + 8
        title, fitted = theme.fitted(self.title, big, panel.width - 24, bold=True)
        theme.text(surface, title, fitted, (panel.centerx, y), bold=True, anchor="midtop")
        y += self.title_step(size)
        for line in self.subtitle_lines()[:2]:
            line, fitted = theme.fitted(line, small, panel.width - 24)
            theme.text(surface, line, fitted, (panel.centerx, y), color=p.muted, anchor="midtop")
            y += self.line_step(size)
        for button, rect in zip(self.buttons, self.button_rects(size)):
            button.draw(surface, theme, rect=rect)

    def build_buttons(self) -> list[Button]:
        buttons = [
            Button(N_("Play again"), self.play_again, "Enter"),
            Button(N_("Review"), self.review, "V"),
            Button(N_("Look at the board"), self.app.pop, "Esc"),
        ]
        if self.play.last_tree_index() is not None:  # book and solver answers have no tree
            buttons.append(Button(N_("Open the last tree"), self.tree, "T"))
        buttons.append(Button(N_("Main menu"), self.main_menu, "M"))
        return buttons

    def play_again(self) -> None:
        self.play.restart()
        self.app.pop()

    def review(self) -> None:
        self.play.open_review()

    def tree(self) -> None:
        """The last tree, over this panel: Esc there comes back here, keys and all."""
        self.play.open_tree()

    def main_menu(self) -> None:
        self.app.reset(BackToTitle())

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN and event.key == pygame.K_m:
            self.main_menu()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_v:
            self.review()
        elif event.type == pygame.KEYDOWN and event.key == pygame.K_t and self.play.searches:
            if self.play.last_tree_index() is None:
                self.play.open_tree()  # only says why there is no tree
            else:
                self.tree()
        else:
            super().handle_event(event)
