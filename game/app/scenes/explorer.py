"""The solved-opening explorer: every column of a position with its exact value, beside
the player's own games from there.

The exact values are Perfect's column scores (the opening book, then the solver within
a hint's budget): a SCORES job for the AI worker, as on the analysis board.  The games
are the archive's (``game.learn.explorer``): those in which the player was to move in this
position, per column how often they played it, how those games ended for them, and how
often the move threw the exact outcome away.

Controls: click a column (on the board or in the table) or press 1..7 to go deeper;
Backspace, U or Left to go up; A the analysis board here; PageDown/PageUp page the
table's footnote where it does not fit (big text); Esc back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import pygame

from ai.exact import ExactScore
from game.app.board_view import BoardLayout, BoardView
from game.app.job_slot import JobSlot
from game.app.navigation import OpenAnalysis
from game.app.scene import Scene
from game.app.scenes.board_panel import SideLayout, refused, scores_job, side_layout, taken_back
from game.app.scenes.play_view import notes_for
from game.app.theme import Theme
from game.app.widgets import Button, click_buttons, display_size, row_rects, toast_height, toast_strip_bottom
from game.app.worker_protocol import JobFailed, JobResult, WorkerEvent
from game.board import Board
from game.i18n import N_, _, ngettext
from game.learn.explorer import ExploreRow, explore_rows
from game.records import GameRecord
from game.rules import MAX, STANDARD

TABLE_KEY = N_(
    "Exact value: with perfect play, for the side to move, in the winner's own moves. You: the games in which you were to move here and played the column; W/D/L: how they ended for you; left: how often that move threw the exact outcome away."
)


def explorer_layout(size: tuple[int, int], theme: Theme | None = None) -> SideLayout:
    """A pure function of the window size (and the UI scale): the board left, the table
    (panel) right, and under the buttons a strip kept free for toasts."""
    lay = side_layout(size, 0.46, 340, 540, theme)
    if theme is None:
        return lay
    strip = toast_height(theme) - 4  # the buttons' margin below holds the rest
    return replace(
        lay,
        board=lay.board.inflate(0, -strip).move(0, -strip // 2),
        panel=lay.panel.inflate(0, -strip).move(0, -strip // 2),
        buttons=lay.buttons.move(0, -strip),
    )


def row_height(lay: SideLayout, theme: Theme | None = None) -> int:
    least = lay.text + 12
    return least if theme is None else max(least, theme.font(lay.text).get_linesize() + 8)


def head_top(lay: SideLayout, theme: Theme | None = None) -> int:
    """The table's column heads: under its title ("Columns"), at the UI scale."""
    least = lay.panel.top + lay.text + 16
    return least if theme is None else max(least, lay.panel.top + 10 + theme.font(lay.text + 2, True).get_linesize())


def first_row_top(lay: SideLayout, theme: Theme | None = None) -> int:
    least = lay.panel.top + 2 * lay.text + 22
    if theme is None:
        return least
    return max(least, head_top(lay, theme) + theme.font(lay.text - 1).get_linesize() + 8)


class ExplorerScene(Scene):
    name = "explorer"

    def __init__(self, moves: list[int] | None = None):
        super().__init__()
        self.board = Board(STANDARD)
        for move in moves or []:
            self.board.push(move)
        self.job = JobSlot(self)
        self.scores: Mapping[int, ExactScore] | None = None
        self.no_scores: str | None = None
        self.records: list[GameRecord] = []
        self.reached = 0
        self.rows: list[ExploreRow] = []
        self.view: BoardView | None = None
        self.hover: int | None = None  # the column under the pointer (board or table)
        self.note_page = 0  # the page of the table's footnote shown, where it takes more than one
        self.buttons = [
            Button(N_("Up"), self.up, "Backspace"),
            Button(N_("Analysis"), self.open_analysis, "A"),
            Button(N_("Back"), self.back, "Esc"),
        ]

    # -- life cycle ---------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.load_games()
        self.ask_scores()

    def on_resume(self) -> None:
        self.load_games()

    def on_exit(self) -> None:
        self.job.cancel()

    def load_games(self) -> None:
        self.records = self.app.archive.games()
        self.refresh_rows()

    def refresh_rows(self) -> None:
        self.reached, self.rows = explore_rows(self.board, self.scores, self.records)

    def ask_scores(self) -> None:
        """Perfect's column scores of the position, from the worker."""
        self.job.cancel()
        self.scores = None
        self.no_scores = None
        self.refresh_rows()
        board = self.board
        if board.is_game_over():
            return
        self.job.submit(scores_job(board))

    def update(self, dt: float) -> None:
        if self.job.lost():
            self.ask_scores()

    def on_worker_event(self, event: WorkerEvent) -> None:
        if not self.job.owns(event):
            return
        self.job.done()
        if isinstance(event, JobResult):
            scores = event.answer.column_scores
            if scores and len(scores) == len(self.board.legal_moves()):
                self.scores = dict(scores)
            else:
                self.no_scores = event.answer.note or _("not proven within a hint's budget here")
        elif isinstance(event, JobFailed):
            self.no_scores = event.message
        self.refresh_rows()
        self.app.dirty = True

    # -- moving ---------------------------------------------------------------------------
    def deeper(self, column: int) -> None:
        if refused(self.app, self.board, column, _("The game is over here: go up (Backspace)")):
            return
        self.board.push(column)
        self.ask_scores()

    def up(self) -> None:
        if taken_back(self.app, self.board, _("This is the empty board: nothing above it")) is not None:
            self.ask_scores()

    def open_analysis(self) -> None:
        self.app.push(OpenAnalysis(self.board.copy()))

    def back(self) -> None:
        self.app.pop()

    # -- input ----------------------------------------------------------------------------
    def row_at(self, lay: SideLayout, pos: tuple[int, int]) -> int | None:
        """The column of the table row under ``pos``."""
        if not lay.panel.collidepoint(pos):
            return None
        index = (pos[1] - first_row_top(lay, self.app.theme)) // row_height(lay, self.app.theme)
        if pos[1] >= first_row_top(lay, self.app.theme) and 0 <= index < len(self.rows):
            return self.rows[index].column
        return None

    def handle_event(self, event: pygame.event.Event) -> None:
        lay = explorer_layout(display_size(), self.app.theme)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, row_rects(lay.buttons, len(self.buttons), 8), event):
                return
            column = BoardLayout(self.board.rules, lay.board).column_at(event.pos)
            if column is None:
                column = self.row_at(lay, event.pos)
            if column is not None:
                self.deeper(column)
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 3:
            self.up()
        elif event.type == pygame.MOUSEMOTION:
            column = BoardLayout(self.board.rules, lay.board).column_at(event.pos)
            hover = column if column is not None else self.row_at(lay, event.pos)
            if hover != self.hover:
                self.hover = hover
                self.app.dirty = True
        elif event.type == pygame.KEYDOWN:
            key = event.key
            if key == pygame.K_ESCAPE:
                self.back()
            elif key in (pygame.K_BACKSPACE, pygame.K_u, pygame.K_LEFT):
                self.up()
            elif key == pygame.K_a:
                self.open_analysis()
            elif pygame.K_1 <= key <= pygame.K_7:
                self.deeper(key - pygame.K_1)
            elif key in (pygame.K_PAGEDOWN, pygame.K_PAGEUP):
                pages = len(self.footnote(lay))
                step = 1 if key == pygame.K_PAGEDOWN else -1
                self.note_page = max(0, min(pages - 1, self.note_page + step))
                self.app.dirty = True

    # -- drawing --------------------------------------------------------------------------
    def header_lines(self) -> tuple[str, str]:
        board = self.board
        moves = board.moves_string() or _("the empty board")
        who = _("player 1") if board.to_move == MAX else _("player 2")
        title = _("Opening explorer: {moves}").format(moves=moves)
        outcome = board.outcome()
        if outcome is not None:
            return title, _("The game is over here: {result_text}. Backspace goes up.").format(
                result_text=outcome.result_text()
            )
        yours = sum(row.games.games for row in self.rows)
        left = sum(row.left_truth for row in self.rows)
        n = self.reached
        if not n:
            games = ngettext(
                "{reached} of your stored games reached it. Click a column to go deeper.",
                "{reached} of your stored games reached it. Click a column to go deeper.",
                n,
            )
        elif self.scores is None or not yours:
            games = ngettext(
                "{reached} of your stored games reached it; you moved here in {yours}. Click a column to go deeper.",
                "{reached} of your stored games reached it; you moved here in {yours}. Click a column to go deeper.",
                n,
            )
        else:
            games = ngettext(
                "{reached} of your stored games reached it; you moved here in {yours} and threw the exact "
                "outcome away in {left}. Click a column to go deeper.",
                "{reached} of your stored games reached it; you moved here in {yours} and threw the exact "
                "outcome away in {left}. Click a column to go deeper.",
                n,
            )
        games = games.format(reached=n, yours=yours, left=left)
        return _("{title} · {who} to move").format(title=title, who=who), games

    def status_line(self) -> str:
        """For spoken output: the position and the player's games there."""
        title, line = self.header_lines()
        return f"{title}. {line}"

    def toast_bottom(self, size: tuple[int, int]) -> int | None:
        """Toasts go in the strip under the buttons, over none of the board or the table."""
        return toast_strip_bottom(size)

    def draw(self, surface: pygame.Surface) -> None:
        assert self.view is not None
        theme = self.app.theme
        p = theme.palette
        lay = explorer_layout(surface.get_size(), theme)
        title, line = self.header_lines()
        size = lay.text + 4
        title, fitted = theme.fitted(title, size, lay.header.width, bold=True)  # the UI scale gives way first
        theme.text(surface, title, fitted, lay.header.topleft, bold=True)
        y = lay.header.top + lay.second
        line, fitted = theme.fitted(line, lay.text, lay.header.width)
        theme.text(surface, line, fitted, (lay.header.left, y), color=p.muted)
        layout = BoardLayout(self.board.rules, lay.board)
        notes = notes_for(self.scores, self.board.rules, self.board.to_move, p) if self.scores else []
        self.view.draw_position(surface, layout, self.board, highlight_col=self.hover, notes=notes)
        self.draw_table(surface, lay)
        enabled = {"Up": bool(self.board.moves)}
        for button, rect in zip(self.buttons, row_rects(lay.buttons, len(self.buttons), 8)):
            button.draw(surface, theme, rect=rect, enabled=enabled.get(button.label, True))

    def table_status(self) -> str | None:
        if self.board.is_game_over():
            return _("No moves: the game is over.")
        if self.no_scores is not None:
            return _("No exact values: {no_scores}.").format(no_scores=self.no_scores)
        if self.scores is None:
            return _("Working out the exact values...")
        return None

    def draw_table(self, surface: pygame.Surface, lay: SideLayout) -> None:
        theme = self.app.theme
        p = theme.palette
        table = lay.panel
        pygame.draw.rect(surface, p.panel, table, border_radius=10)
        small = lay.text - 1
        x0 = table.left + 12
        width = table.width - 24
        xs = (x0, x0 + int(width * 0.1), x0 + int(width * 0.58), x0 + int(width * 0.72), x0 + int(width * 0.9))
        theme.text(surface, _("Columns"), lay.text + 2, (x0, table.top + 8), bold=True)
        who = _("player 1") if self.board.to_move == MAX else _("player 2")
        heads = (_("col"), _("value for {who}").format(who=who), _("you"), _("W/D/L"), _("left"))
        status = self.table_status()
        colors = {1: p.good, 0: p.muted, -1: p.warning}
        rows = []
        for row in self.rows:
            words = row.words if row.exact is not None else ("..." if status else _("not proven"))
            played = row.games.games
            cells = (
                str(row.column + 1),
                words,
                str(played) if played else "-",
                f"{row.games.wins}/{row.games.draws}/{row.games.losses}" if played else "",
                str(row.left_truth) if played and row.exact is not None else "",
            )
            rows.append((row, cells, colors[row.exact.pov(row.mover)] if row.exact is not None else p.muted))
        # Each column's words stay in their column: smaller (as far as the 100 % size) where
        # the UI scale makes them wider than it.
        columns = [right - left - 6 for left, right in zip(xs, (*xs[1:], table.right - 6))]
        head_size = min(theme.shrink(head, small, room) for head, room in zip(heads, columns))
        size = min(
            (
                theme.shrink(cell, lay.text, room, index == 0)
                for _row, cells, _color in rows
                for index, (cell, room) in enumerate(zip(cells, columns))
            ),
            default=lay.text,
        )
        head_y = head_top(lay, theme)
        for x, head in zip(xs, heads):
            theme.text(surface, head, head_size, (x, head_y), color=p.muted)
        row_h = row_height(lay, theme)
        y: float = first_row_top(lay, theme)
        for row, cells, color in rows:
            if row.column == self.hover:
                pygame.draw.rect(surface, p.hole, (x0 - 6, y - 4, width + 12, row_h), border_radius=4)
            pygame.draw.line(surface, p.hole, (x0, y - 4), (table.right - 12, y - 4))
            for index, (x, cell) in enumerate(zip(xs, cells)):
                theme.text(surface, cell, size, (x, y), color=color if index == 1 else p.text, bold=index == 0)
            y += row_h
        pages = self.footnote(lay)
        y = self.footnote_top(lay)
        for text in pages[min(self.note_page, len(pages) - 1)]:
            theme.text(surface, text, small - 1, (x0, y), color=p.muted)
            y += theme.pitch(small - 1, small + 3)

    def footnote_top(self, lay: SideLayout) -> float:
        return first_row_top(lay, self.app.theme) + len(self.rows) * row_height(lay, self.app.theme) + 4

    def footnote(self, lay: SideLayout) -> list[list[str]]:
        """The table's footnote (the status, then what the columns mean) in pages of the
        lines that fit under the rows: where it takes more than one (big text, a small
        window), each page ends with a line saying how to see the rest."""
        theme = self.app.theme
        small = lay.text - 1
        width = lay.panel.width - 24
        status = self.table_status()
        lines = (theme.wrap(status, small - 1, width) if status else []) + theme.wrap(_(TABLE_KEY), small - 1, width)
        pitch = theme.pitch(small - 1, small + 3)
        room = lay.panel.bottom - 4 - theme.font(small - 1).get_height() - self.footnote_top(lay)
        fits = max(1, int(room // pitch) + 1) if room >= 0 else 1
        if len(lines) <= fits:
            return [lines]
        per = max(1, fits - 1)
        pages = [lines[start : start + per] for start in range(0, len(lines), per)]
        return [
            [
                *page,
                theme.fit(
                    _("PgDn/PgUp: more ({page}/{pages})").format(page=number, pages=len(pages)),
                    small - 1,
                    width,
                ),
            ]
            for number, page in enumerate(pages, 1)
        ]
