"""How to play: the rules of the chosen variant and every control.

Controls: Esc, Enter or a click goes back; Up/Down scroll.
"""

from __future__ import annotations

import pygame

from game.app.scene import Scene
from game.i18n import N_, _
from game.rules import Mode

CONTROLS = [
    (N_("Mouse"), N_("click a column (or a cell without gravity) to drop a disc")),
    (N_("Left / Right"), N_("move the column cursor (Up / Down too without gravity)")),
    (N_("Down, Enter, Space"), N_("drop in the cursor column")),
    ("1 .. 9", N_("drop in that column")),
    (N_("U or Ctrl+Z"), N_("undo (your move and the computer's reply)")),
    (N_("Ctrl+Y"), N_("redo")),
    ("H", N_("hint: the best move, with the exact verdict and why, on the standard board")),
    ("S", N_("keep every column's exact score on the board, and why, or not (standard board)")),
    ("T", N_("open the tree the computer just searched")),
    ("R", N_("restart the game")),
    ("B", N_("read the board aloud, column by column (spoken output on, in Options)")),
    (N_("Ctrl+C / Ctrl+V"), N_("copy the position as a move string / paste a move string or a board")),
    (N_("V (game over)"), N_("review the game: every move classed exactly, the evaluation graph")),
    (N_("Ctrl+L"), N_("copy a link to the position (standard board, games from the empty board)")),
    (N_("Ctrl+Shift+C"), N_("copy the game as a game file (.c4)")),
    (N_("Drop a file"), N_("open a game file, a board file or a link dropped on the window")),
    (N_("L (review)"), N_("retry your mistakes: find a better move, the exact solver judges")),
    (N_("P (review)"), N_("play on from the move shown, against any level")),
    (N_("M (past games)"), N_("train the mistakes of every stored game in one queue")),
    (N_("E (analysis board)"), N_("the opening explorer: every column's exact value beside your own games")),
    (
        N_("W (analysis board)"),
        N_("explain: why the position is what it is, its threats, pairs and forced line drawn on the board"),
    ),
    (N_("D / N (network game)"), N_("offer or accept a draw / decline it")),
    (N_("R twice (network game)"), N_("resign")),
    (N_("Tab (network game)"), N_("the chat line: type, Enter sends it")),
    (N_("F / M / D (puzzles)"), N_("puzzles near your rating / from your own games / the daily puzzle")),
    (N_("T / P (puzzles)"), N_("the themes and your solve rate in each / practise your weakest theme")),
    (N_("S / K (puzzles)"), N_("Storm: three minutes, easy to hard / Streak: until the first miss (S skips once)")),
    (N_("G (past games)"), N_("your rating over time: every game against a level and every puzzle")),
    (N_("Esc"), N_("menu / back")),
    ("F11", N_("full screen")),
    ("F12", N_("save a screenshot")),
]


class HowToPlayScene(Scene):
    name = "how to play"

    def __init__(self) -> None:
        super().__init__()
        self.scroll = 0

    def handle_event(self, event: pygame.event.Event) -> None:
        if event.type == pygame.KEYDOWN:
            if event.key in (pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_BACKSPACE):
                self.app.pop()
            elif event.key == pygame.K_DOWN:
                self.scroll += 30
            elif event.key == pygame.K_UP:
                self.scroll = max(0, self.scroll - 30)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self.app.pop()
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - event.y * 30)

    def rules_text(self) -> list[str]:
        rules = self.app.settings.rules()
        k = rules.connect
        lines = [
            _("Two players take turns dropping discs into a {rows} x {cols} board.").format(
                rows=rules.rows, cols=rules.cols
            )
            if rules.gravity
            else _(
                "Two players take turns placing discs on any empty cell of a {rows} x {cols} board (gravity is off)."
            ).format(rows=rules.rows, cols=rules.cols),
            _(
                "Player 1 moves first and is MAX in the search tree, whoever plays it. Player 1's discs carry a ring, player 2's a cross, so the colours are never the only clue (the command line writes them O and X)."
            ),
        ]
        if rules.mode is Mode.CLASSIC:
            lines.append(
                _("The first to line up {k} discs in a row, column or diagonal wins. A full board is a draw.").format(
                    k=k
                )
            )
        else:
            lines.append(
                _(
                    "Full-board mode: play goes on until the board is full. Every run of {k} own discs in a line scores a point, overlapping runs each count ({k2} in a row = 2 points). Most points wins."
                ).format(k=k, k2=k + 1)
            )
        lines.append(
            _(
                "The computer searches the game tree with minimax: it assumes you answer with your best move. Alpha-beta pruning skips branches that cannot change its choice. Press T after its move to walk that tree."
            )
        )
        return lines

    def content_height(self, size: int, width: int) -> float:
        """The height of the text at font ``size`` in a column ``width`` wide."""
        theme = self.app.theme
        lines = sum(len(theme.wrap(paragraph, size, width)) for paragraph in self.rules_text())
        paragraphs = len(self.rules_text())
        controls = sum(len(theme.wrap(_(action), size, width * 0.7)) for _key, action in CONTROLS)
        em = size * theme.scale
        return em * (4 + lines * 1.1 + paragraphs * 0.5 + 0.5 + 1.6 + controls * 1.15)

    def column_width(self, w: int) -> int:
        return min(w - 60, int(820 * self.app.theme.scale))

    def text_size(self, w: int, h: int) -> int:
        """The largest font size (up to 26) at which, at 100 %, everything fits above the
        footer; a bigger UI scale makes that size bigger (the page then scrolls), as far as
        each control's key and action still fit their columns."""
        theme = self.app.theme
        scale, theme.scale = theme.scale, 1.0
        try:
            size = max(16, min(26, h // 30))
            while size > 12 and self.content_height(size, min(w - 60, 820)) > h - size * 2:
                size -= 1
        finally:
            theme.scale = scale
        width = self.column_width(w)

        def fits(size: int) -> bool:
            keys = max(theme.font(size, True).size(_(key))[0] for key, _action in CONTROLS)
            actions = max(theme.font(size).size(_(action))[0] for _key, action in CONTROLS)
            return keys <= width * 0.3 - 8 and actions <= width * 0.7

        while size > 12 and not fits(size):
            size -= 1
        return size

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        w, h = surface.get_size()
        size = self.text_size(w, h)
        em = size * theme.scale  # a line's height grows with the UI scale
        width = self.column_width(w)
        left = (w - width) // 2
        self.scroll = min(self.scroll, max(0, int(self.content_height(size, width) - (h - em * 2))))  # not past the end
        y: float = em * 2 - self.scroll
        theme.text(surface, _("How to play"), size * 2, (w / 2, y), bold=True, anchor="center")
        y += em * 2
        for paragraph in self.rules_text():
            for line in theme.wrap(paragraph, size, width):
                theme.text(surface, line, size, (left, y))
                y += em * 1.1
            y += em * 0.5
        y += em * 0.5
        theme.text(surface, _("Controls"), int(size * 1.3), (left, y), bold=True)
        y += em * 1.6
        for key, action in CONTROLS:
            theme.text(surface, _(key), size, (left, y), bold=True)
            for line in theme.wrap(_(action), size, width * 0.7):  # a long one on two lines, not cut
                theme.text(surface, line, size, (left + width * 0.3, y))
                y += em * 1.15
        footer = _("Esc or click: back")
        if self.content_height(size, width) > h - em * 2:  # a big UI scale: the page is longer than the window
            footer = _("Up/Down or the wheel: scroll · Esc or click: back")
            pygame.draw.rect(surface, theme.palette.background, pygame.Rect(0, int(h - em * 1.6), w, h))
        theme.text(surface, footer, size, (w / 2, h - em), anchor="center", color=theme.palette.muted)
