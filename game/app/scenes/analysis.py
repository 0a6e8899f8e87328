"""The analysis board: both sides played by hand, the exact score of every column on the
standard board (Perfect's scores, a job for the AI worker), take back, and branches.

Taking back keeps the moves for Redo; playing another move there starts a branch, and
the line it left is kept: B goes through the kept lines.

Explain (W, standard board) says why the position is what it is: the explainer's reason
(``ai.explain``, an ``ExplainJob`` for the worker, asked after the column scores) in a
panel beside the board, and on the board its threats (odd or even rows), the pairs of
its strategy and its forced line (``game.app.explain_view``); it stays on as the
position changes, until W again.

Controls: click a column (or 1..9, Left/Right + Enter) to drop a disc; U or Backspace
take back, Ctrl+Y redo, B the next kept branch, N a new empty board; W explain (why);
E the opening explorer at this position (standard board); Ctrl+C copy the position as a
move string, Ctrl+V paste a move string or a Max-Connect-4 board; Esc back.
"""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from ai.answer import Answer
from ai.exact import ExactScore, verdict
from ai.explain.explanation import Explanation
from ai.levels import HINT_EXACT_NODES
from game.app.board_view import BoardLayout, BoardView, ColumnNote
from game.app.clipboard import copy_moves, paste_position
from game.app.explain_view import draw_explanation
from game.app.job_slot import JobSlot
from game.app.navigation import OpenExplorer
from game.app.scene import Scene
from game.app.scenes import explain_text
from game.app.scenes.board_panel import refused, scores_job, taken_back
from game.app.scenes.play_view import notes_for
from game.app.theme import Theme
from game.app.widgets import Button, click_buttons, display_size, row_rects
from game.app.worker_protocol import ExplainJob, ExplainResult, JobFailed, JobResult, WorkerEvent
from game.board import Board
from game.i18n import N_, _, ngettext
from game.notation import format_move
from game.rules import MAX, MIN, STANDARD, Rules


def analysis_areas(
    size: tuple[int, int], theme: Theme | None = None
) -> tuple[pygame.Rect, pygame.Rect, pygame.Rect, int]:
    """(header, board, button row, text size) for a window of ``size``; the header holds
    ``header_steps`` at the ``theme``'s UI scale."""
    w, h = size
    m = 12
    text = max(15, min(20, h // 34))
    header = pygame.Rect(m, m, w - 2 * m, sum(header_steps(text, theme)))
    bh = max(30, min(42, h // 16))
    buttons = pygame.Rect(m, h - m - bh, w - 2 * m, bh)
    board = pygame.Rect(m, header.bottom + 4, w - 2 * m, buttons.top - header.bottom - 12)
    return header, board, buttons, text


def explain_panel(board: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The board's area split for Explain: (the board, the reason's panel on the right)."""
    width = max(220, min(420, int(board.width * 0.38)))
    panel = pygame.Rect(board.right - width, board.top, width, board.height)
    return pygame.Rect(board.left, board.top, board.width - width - 12, board.height), panel


def header_steps(text: int, theme: Theme | None) -> tuple[int, int, int]:
    """Pixels from each of the header's three lines to the next (the first is bigger and bold)."""
    if theme is None:
        return text + 6, text + 4, text + 4
    return (
        int(theme.pitch(text + 2, text + 6, bold=True)),
        int(theme.pitch(text, text + 4)),
        int(theme.pitch(text, text + 4)),
    )


class AnalysisScene(Scene):
    name = "analysis"

    def __init__(self, board: Board | None = None):
        super().__init__()
        self.board = board if board is not None else Board()
        self.redo: list[int] = []
        self.lines: list[list[int]] = []  # branches left behind (whole move lists)
        self.line_index = 0
        self.cursor = self.board.rules.cols // 2
        self.view: BoardView | None = None
        self.job = JobSlot(self)  # the column scores of the position shown
        self.answer: Answer | None = None  # Perfect's answer for the position shown
        self.scores: Mapping[int, ExactScore] | None = None
        self.no_scores_reason: str | None = None  # why there are no exact scores here (book, budget)
        self.arrived = False
        self.explaining = False  # W: the explanation on the board and beside it
        self.why_job = JobSlot(self)  # the explanation of the position shown
        self.explanation: Explanation | None = None
        self.why_note: str | None = None  # why there is no explanation here
        self.buttons = [
            Button(N_("Undo"), self.take_back, "U"),
            Button(N_("Redo"), self.redo_move, "Ctrl+Y"),
            Button(N_("Branch"), self.next_branch, "B"),
            Button(N_("Copy"), self.copy, "Ctrl+C"),
            Button(N_("Paste"), self.paste, "Ctrl+V"),
            Button(N_("New"), self.new_board, "N"),
            Button(N_("Explain"), self.toggle_explain, "W"),
            Button(N_("Explore"), self.open_explorer, "E"),
            Button(N_("Back"), self.back, "Esc"),
        ]

    @property
    def rules(self) -> Rules:
        return self.board.rules

    # -- life cycle ---------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.ask_scores()

    def on_exit(self) -> None:
        self.job.cancel()
        self.why_job.cancel()

    def is_animating(self) -> bool:
        """Only the frame the scores (or the explanation) arrive in."""
        return self.arrived

    def update(self, dt: float) -> None:
        self.arrived = False
        if self.job.lost():  # another scene's job took the worker: ask again
            self.ask_scores()
        elif self.why_job.lost():
            self.want_why()

    def on_worker_event(self, event: WorkerEvent) -> None:
        if self.why_job.owns(event):
            self.take_why(event)
            return
        if not self.job.owns(event):
            return
        self.want_why_after(event)
        if isinstance(event, JobResult):
            self.job.done()
            self.arrived = True
            self.answer = event.answer
            self.scores = event.answer.column_scores
            if self.scores is None:  # the budget ran out, or the book could not be used
                why = event.answer.note or _("not proven within {HINT_EXACT_NODES:,} positions here").format(
                    HINT_EXACT_NODES=HINT_EXACT_NODES
                )
                self.no_scores_reason = _("No exact scores: {message}").format(message=why)
        elif isinstance(event, JobFailed):
            self.job.done()
            self.arrived = True
            self.no_scores_reason = _("No exact scores: {message}").format(message=event.message)

    def ask_scores(self) -> None:
        """Ask the worker for the exact column scores of the position on the board: a hint
        of Perfect's through the one decider, as the play screen's badges (then, with
        Explain on, the explanation)."""
        self.job.cancel()
        self.answer = None
        self.scores = None
        self.no_scores_reason = None
        self.why_job.cancel()
        self.explanation = None
        self.why_note = None
        if self.rules != STANDARD or self.board.is_game_over():
            self.want_why()
            return
        self.job.submit(scores_job(self.board))

    # -- why (Explain) ------------------------------------------------------------------
    def toggle_explain(self) -> None:
        """W: say why the position is what it is, on the board and beside it; again: stop."""
        if not self.explaining and self.rules != STANDARD:
            self.app.show_toast(explain_text.refused(standard=False, over=False), 4.0)
            return
        self.explaining = not self.explaining
        if self.explaining:
            self.want_why()
        else:
            self.why_job.cancel()

    def want_why(self) -> None:
        """Ask for the explanation of the position shown, with Explain on, once the column
        scores are in (one job at a time: asking now would cancel them)."""
        if not self.explaining or self.job.id is not None or self.why_job.id is not None:
            return
        if self.explanation is not None:  # this position's (a new one drops it: ``ask_scores``)
            return
        self.why_note = explain_text.refused(self.rules == STANDARD, self.board.is_game_over()) or None
        if self.why_note is None:
            self.why_job.submit(ExplainJob(self.board.grid.copy(), self.rules, self.board.to_move))

    def want_why_after(self, event: WorkerEvent) -> None:
        """The column scores' job has answered: the explanation may be asked for now."""
        if isinstance(event, JobResult | JobFailed):
            self.job.done()
            self.want_why()

    def take_why(self, event: WorkerEvent) -> None:
        if isinstance(event, ExplainResult):
            self.why_job.done()
            self.arrived = True
            self.explanation = event.explanation
        elif isinstance(event, JobFailed):
            self.why_job.done()
            self.arrived = True
            self.why_note = event.message

    # -- moves ------------------------------------------------------------------------
    def play(self, move: int) -> None:
        if refused(self.app, self.board, move, _("The game is over here: take back (U) or start anew (N)")):
            return
        if self.redo:
            if self.redo[-1] == move:
                self.redo.pop()
            else:  # a branch: keep the line we leave
                line = list(self.board.moves) + list(reversed(self.redo))
                if line not in self.lines:
                    self.lines.append(line)
                self.redo.clear()
                self.app.show_toast(
                    _("New branch: the old line is kept ({count} kept, B to go back)").format(count=len(self.lines))
                )
        self.board.push(move)
        self.ask_scores()

    def take_back(self) -> None:
        move = taken_back(self.app, self.board, _("Nothing to take back"))
        if move is not None:
            self.redo.append(move)
            self.ask_scores()

    def redo_move(self) -> None:
        if not self.redo:
            self.app.show_toast(_("Nothing to redo"))
            return
        self.board.push(self.redo.pop())
        self.ask_scores()

    def next_branch(self) -> None:
        """Switch to the next kept line (the current one is kept in its place)."""
        if not self.lines:
            self.app.show_toast(_("No other branch: take back and play another move to make one"))
            return
        current = list(self.board.moves) + list(reversed(self.redo))
        self.line_index %= len(self.lines)
        target = self.lines[self.line_index]
        self.lines[self.line_index] = current
        self.line_index = (self.line_index + 1) % len(self.lines)
        self.set_line(target)
        self.app.show_toast(_("Branch: {format_line}").format(format_line=format_line(target, self.board)))

    def set_line(self, line: list[int]) -> None:
        """Show the whole of ``line`` (moves from the same start)."""
        start, first = self.board.start_grid(), self.board.start_to_move()
        board = Board(self.rules, start, first)
        for move in line:
            board.push(move)
        self.board = board
        self.redo = []
        self.ask_scores()

    def new_board(self) -> None:
        self.board = Board(self.rules)
        self.redo.clear()
        self.ask_scores()

    def copy(self) -> None:
        copy_moves(self.app, self.board)

    def paste(self) -> None:
        board = paste_position(self.app, self.rules)
        if board is not None:
            self.board = board
            self.redo.clear()
            self.app.show_toast(_("Pasted: {value} discs").format(value=len(board.moves) or board.ply))
            self.ask_scores()

    def open_explorer(self) -> None:
        """The opening explorer at this position (moves from the empty standard board)."""
        if self.rules != STANDARD or self.board.start_grid().any():
            self.app.show_toast(_("The opening explorer is for games from the empty 6x7 board"))
            return
        self.app.push(OpenExplorer(tuple(self.board.moves)))

    def back(self) -> None:
        self.app.pop()

    # -- input ------------------------------------------------------------------------
    def board_area(self, size: tuple[int, int]) -> tuple[pygame.Rect, pygame.Rect | None]:
        """Where the board goes and, with Explain on, the reason's panel beside it."""
        area = analysis_areas(size, self.app.theme)[1]
        return explain_panel(area) if self.explaining else (area, None)

    def handle_event(self, event: pygame.event.Event) -> None:
        header, _area, row, _ = analysis_areas(display_size(), self.app.theme)
        area = self.board_area(display_size())[0]
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, row_rects(row, len(self.buttons), 8), event):
                return
            layout = BoardLayout(self.rules, area)
            if self.rules.gravity:
                col = layout.column_at(event.pos)
                if col is not None:
                    self.cursor = col
                    self.play(col)
            else:
                cell = layout.cell_at(event.pos)
                if cell is not None:
                    self.play(self.board.move_at(cell))
        elif event.type == pygame.MOUSEMOTION and self.rules.gravity:
            col = BoardLayout(self.rules, area).column_at(event.pos)
            if col is not None:
                self.cursor = col
        elif event.type == pygame.KEYDOWN:
            key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
            letters = {
                pygame.K_b: self.next_branch,
                pygame.K_n: self.new_board,
                pygame.K_e: self.open_explorer,
                pygame.K_w: self.toggle_explain,
            }
            if key == pygame.K_ESCAPE:
                self.back()
            elif ctrl and key == pygame.K_c:
                self.copy()
            elif ctrl and key == pygame.K_v:
                self.paste()
            elif ctrl and key == pygame.K_y:
                self.redo_move()
            elif key in (pygame.K_u, pygame.K_BACKSPACE) or (ctrl and key == pygame.K_z):
                self.take_back()
            elif key in letters:
                letters[key]()
            elif key in (pygame.K_LEFT, pygame.K_RIGHT):
                self.cursor = (self.cursor + (1 if key == pygame.K_RIGHT else -1)) % self.rules.cols
            elif key in (pygame.K_RETURN, pygame.K_SPACE, pygame.K_DOWN) and self.rules.gravity:
                self.play(self.cursor)
            elif pygame.K_1 <= key <= pygame.K_9 and self.rules.gravity and key - pygame.K_1 < self.rules.cols:
                self.cursor = key - pygame.K_1
                self.play(self.cursor)

    # -- drawing ----------------------------------------------------------------------
    def status_lines(self) -> list[str]:
        """What the header says: whose move, the exact result, what the badges mean."""
        board = self.board
        who = _("Player 1") if board.to_move == MAX else _("Player 2")
        moves = board.moves_string() if not board.start_grid().any() else _("{ply} discs").format(ply=board.ply)
        first = _("Analysis board: {value}").format(value=moves or _("the empty board"))
        outcome = board.outcome()
        if outcome is not None:
            return [first, outcome.result_text() + ".", _("U takes back, N starts anew.")]
        if self.rules != STANDARD:
            return [first, _("{who} to move.").format(who=who), _("Exact scores only on 6x7 with 4 in a row.")]
        if self.no_scores_reason is not None:
            return [first, _("{who} to move.").format(who=who), self.no_scores_reason]
        if self.scores is None:
            return [first, _("{who} to move: working out the exact scores...").format(who=who), ""]
        exact = self.answer.exact if self.answer is not None else None
        words = (
            verdict(exact, {MAX: _("player 1"), MIN: _("player 2")})
            if exact is not None
            else _("exact result not known")
        )
        kept = (
            ngettext("{count} branch kept", "{count} branches kept", len(self.lines)).format(count=len(self.lines))
            if self.lines
            else ""
        )
        legend = _("Badges: each column's exact result for the side to move (in its own moves)")
        if self.answer is not None and self.answer.note:  # e.g. proven without a damaged book: say so
            legend = _("Note: {note}").format(note=self.answer.note)
        return [
            first,
            _("{who} to move: {words}.").format(who=who, words=words),
            legend + (f" · {kept}" if kept else ""),
        ]

    def notes(self) -> list[ColumnNote | None]:
        if self.scores is None:
            return []
        board = self.board
        return notes_for(self.scores, board.rules, board.to_move, self.app.theme.palette) if board.rules.gravity else []

    def draw(self, surface: pygame.Surface) -> None:
        assert self.view is not None
        theme = self.app.theme
        p = theme.palette
        header, _area, row, text = analysis_areas(surface.get_size(), theme)
        area, panel = self.board_area(surface.get_size())
        y = header.top
        steps = header_steps(text, theme)
        for index, line in enumerate(self.status_lines()):
            size = text + 2 if index == 0 else text
            color = p.text if index < 2 else p.muted
            line, fitted = theme.fitted(line, size, header.width, bold=index == 0)  # the UI scale gives way first
            theme.text(surface, line, fitted, (header.centerx, y), bold=index == 0, color=color, anchor="midtop")
            y += steps[min(index, 2)]
        layout = BoardLayout(self.rules, area)
        ghost = None
        if self.rules.gravity and not self.board.is_game_over():
            cell = self.board.cell_of(self.cursor)
            if cell is not None:
                ghost = (cell, self.board.to_move, False)
        self.view.draw_position(
            surface,
            layout,
            self.board,
            ghost=ghost,
            highlight_col=self.cursor if self.rules.gravity else None,
            notes=self.notes(),
        )
        if self.explaining and self.explanation is not None:
            draw_explanation(surface, theme, layout, self.board.grid, self.explanation)
        if panel is not None:
            self.draw_why_panel(surface, panel, text)
        for button, rect in zip(self.buttons, row_rects(row, len(self.buttons), 8)):
            enabled = {"Undo": bool(self.board.moves), "Redo": bool(self.redo), "Branch": bool(self.lines)}
            button.draw(surface, theme, rect=rect, enabled=enabled.get(button.label, True))
            if button.label == "Explain" and self.explaining:  # on: ringed, as a switch that is on
                pygame.draw.rect(surface, p.text, rect.inflate(4, 4), 2, border_radius=8)

    def why_lines(self) -> list[tuple[str, bool]]:
        """The panel's paragraphs, each with whether it is the reason itself (the legend's are not)."""
        names = explain_text.player_names()
        if self.explanation is None:
            return [(self.why_note or explain_text.working(), True)]
        said = explain_text.reason(self.explanation, names)
        return [(said, True)] + [(line, False) for line in explain_text.legend(self.explanation)]

    def draw_why_panel(self, surface: pygame.Surface, panel: pygame.Rect, text: int) -> None:
        """The reason in words beside the board, then what the marks mean; smaller where
        the whole does not fit (never below the 100 % size), cut only past that."""
        theme = self.app.theme
        p = theme.palette
        pygame.draw.rect(surface, p.panel, panel, border_radius=10)
        title = explain_text.panel_title(self.explanation is not None and self.explanation.proved)
        width = panel.width - 24
        size: float = text
        least = text / theme.scale if theme.scale > 1 else text - 3
        paragraphs = self.why_lines()
        while True:
            body = [
                (line, size if first else size - 2, first)
                for paragraph, first in paragraphs
                for line in theme.wrap(paragraph, size if first else size - 2, width)
            ]
            height = theme.pitch(size + 1, size + 8, bold=True) + sum(theme.pitch(s, s + 5) for _, s, _ in body)
            if height <= panel.height - 20 or size <= least:
                break
            size -= 0.5
        y: float = panel.top + 10
        title, fitted = theme.fitted(title, size + 1, width, bold=True)
        theme.text(surface, title, fitted, (panel.left + 12, y), bold=True)
        y += theme.pitch(size + 1, size + 8, bold=True)
        for line, line_size, first in body:
            if y + theme.font(line_size).get_height() > panel.bottom - 6:
                break
            theme.text(surface, line, line_size, (panel.left + 12, y), color=p.text if first else p.muted)
            y += theme.pitch(line_size, line_size + 5)

    def status_line(self) -> str | None:
        """With Explain on, for spoken output: the verdict and the reason's spoken form."""
        if not self.explaining or self.explanation is None:
            return None
        return f"{self.status_lines()[1]} {explain_text.why_spoken(self.explanation, explain_text.player_names())}"


def format_line(line: list[int], board: Board) -> str:
    """A kept line as a move string (shortened past 30 moves)."""
    text = "".join(format_move(m, board.rules) for m in line)
    return text if len(text) <= 30 else text[:27] + "..."
