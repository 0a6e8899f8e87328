"""The puzzle screen: puzzles near your rating, from your own games, and the daily one.

A puzzle is a position, a goal (win, or save the draw) and its line (``game.puzzle_file``);
at every step exactly one column reaches the goal.  A right step is answered by the
opponent's strongest reply from the line; a wrong one by the solver's verdict of the move
tried and the refutation played on the board (Perfect's reply: a SCORES-free hint job for
the worker), then the right move.  Each puzzle tried moves the rating (Glicko-2, kept in
the archive); a hint counts the puzzle as missed.  The player's own puzzles are looked for
in their reviewed games by the worker (``OwnPuzzlesJob``); nothing of the solver runs in
the frame loop.

Controls: 1..7 or click a column to play it; F puzzles for you, M from my games, D the
daily puzzle; H hint; N next puzzle; Space show the right move after a wrong one; A the
analysis board on the puzzle's position; C copy its moves, Ctrl+L copy its link; Esc back.
"""

from __future__ import annotations

import datetime
import random
import time

import pygame

from ai.exact import ExactScore
from ai.explain.explanation import Explanation
from ai.levels import PRESETS
from game.app.board_view import BoardLayout, BoardView
from game.app.clipboard import copy_link, copy_moves
from game.app.job_slot import JobSlot
from game.app.navigation import OpenAnalysis
from game.app.scene import Scene
from game.app.scenes import explain_text
from game.app.scenes.board_panel import SideLayout, side_layout
from game.app.scenes.puzzles_text import (
    Source,
    goal_sentence,
    hint_sentence,
    missed_sentence,
    right_step_sentence,
    sides,
    solved_sentence,
    standing_sentence,
    title_sentence,
    wrong_sentence,
)
from game.app.theme import Theme
from game.app.widgets import Button, click_buttons, display_size, row_rects, stack_rects
from game.app.worker_protocol import (
    ExplainJob,
    ExplainResult,
    JobFailed,
    JobPurpose,
    JobResult,
    OwnPuzzlesJob,
    OwnPuzzlesResult,
    SearchJob,
    WorkerEvent,
)
from game.archive.puzzle_store import (
    PuzzleAttempt,
    add_own_puzzles,
    latest_attempts,
    own_puzzle_games,
    own_puzzles,
    record_attempt,
)
from game.board import Board
from game.i18n import N_, _
from game.learn.glicko import START_RATING
from game.learn.puzzle_set import daily, near, shipped_puzzles
from game.learn.rating import player_rating, streak
from game.puzzle_file import Puzzle, PuzzleFileError

STREAK_READ = 5_000
"""The newest attempts the streak is counted back through (a longer one is said as this)."""
REPLY_SECONDS = 0.6
"""The pause before the opponent's reply is played, so the person sees their own disc land."""
KEYS = N_(
    "Keys: 1..7 play a column, H hint, N next puzzle, Space the right move after a wrong one, Ctrl+L copy the link."
)
NO_MINE = N_("No puzzles from your games yet: review your games against the levels (Past games), then look again.")


def puzzles_layout(size: tuple[int, int], theme: Theme | None = None) -> SideLayout:
    """The board left, the puzzle's words and the lists right, the buttons along the bottom."""
    return side_layout(size, 0.42, 300, 520, theme)


class PuzzlesScene(Scene):
    name = "puzzles"

    def __init__(self, source: Source = Source.FOR_YOU, *, today: datetime.date | None = None, seed: int | None = None):
        super().__init__()
        self.source = source
        self.today = today
        self.rng = random.Random(seed if seed is not None else time.time_ns())
        self.puzzle: Puzzle | None = None
        self.board = Board()
        self.step = 0  # index into the puzzle's line of the move to play next
        self.person = 1
        self.hints = 0
        self.hint_column: int | None = None
        self.failed = False
        self.done = False
        self.wrong: int | None = None  # the column tried wrongly, on the board until the right one is shown
        self.wrong_cell: tuple[int, int] | None = None  # where its disc landed (ringed)
        self.reply_due: float | None = None
        self.change = (START_RATING, START_RATING)  # the rating before and after the last attempt
        self.refutation: int | None = None
        self.said = ""  # the last sentence about the puzzle (the verdicts)
        self.rated = player_rating([], [])  # the App's, from on_enter
        self.waiting = False  # the App's rating is still being replayed
        self.rating = round(START_RATING)
        self.provisional = True
        self.streak = 0
        self.tried: list[str] = []
        self.mine: list[Puzzle] = []
        self.looking = False
        self.view: BoardView | None = None
        self.hover: int | None = None
        self.verdict_job = JobSlot(self)
        self.mine_job = JobSlot(self)
        self.why_job = JobSlot(self)  # why the wrong try fails, after its verdict
        self.before_wrong: Board | None = None  # the position the wrong try was played in
        self.why: Explanation | None = None
        self.list_buttons = [
            Button(N_("Puzzles for you"), lambda: self.choose(Source.FOR_YOU), "F"),
            Button(N_("From my games"), lambda: self.choose(Source.MINE), "M"),
            Button(N_("Daily puzzle"), lambda: self.choose(Source.DAILY), "D"),
        ]
        self.buttons = [
            Button(N_("Hint"), self.hint, "H"),
            Button(N_("Next"), self.next_puzzle, "N"),
            Button(N_("Analysis"), self.open_analysis, "A"),
            Button(N_("Copy"), self.copy, "C"),
            Button(N_("Back"), self.back, "Esc"),
        ]

    # -- life cycle ---------------------------------------------------------------------
    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.refresh_standing()
        self.choose(self.source)

    def on_resume(self) -> None:
        """Back from the analysis board: the archive may hold more since (a game imported)."""
        self.refresh_standing()

    def on_exit(self) -> None:
        self.verdict_job.cancel()
        self.mine_job.cancel()
        self.why_job.cancel()

    def refresh_standing(self) -> None:
        """The rating the App keeps (``SceneHost.rating``: None while it is first replayed,
        then asked again each frame) and the streak, from the newest attempts."""
        rated = self.app.rating()
        self.waiting = rated is None
        if rated is not None:
            self.rated = rated
            self.rating, self.provisional = rated.rating, rated.provisional
        self.streak = streak(latest_attempts(self.app.archive, STREAK_READ))

    # -- choosing a puzzle ----------------------------------------------------------------
    def choose(self, source: Source) -> None:
        self.source = source
        if source is Source.MINE:
            self.mine = own_puzzles(self.app.archive)
            self.look_for_mine()
        self.next_puzzle()

    def look_for_mine(self) -> None:
        """Ask the worker for puzzles in reviewed games not looked at yet."""
        done = own_puzzle_games(self.app.archive)
        waiting = tuple(r for r in self.app.archive.games() if r.id is not None and r.id not in done and r.review)
        if waiting:
            self.looking = True
            self.mine_job.submit(OwnPuzzlesJob(waiting))

    def next_puzzle(self) -> None:
        try:
            shipped = shipped_puzzles()
        except PuzzleFileError as error:
            self.app.show_toast(str(error), 6.0)
            return
        puzzle: Puzzle | None
        if self.source is Source.DAILY:
            puzzle = daily(shipped, self.today or datetime.date.today())
        elif self.source is Source.MINE:
            fresh = [p for p in self.mine if p.id not in self.tried] or self.mine
            puzzle = fresh[0] if fresh else None
        else:
            found = near(shipped, self.rating, 1, self.rng.randrange(1 << 30), skip=self.tried)
            puzzle = found[0] if found else None
        self.start(puzzle)

    def start(self, puzzle: Puzzle | None) -> None:
        self.verdict_job.cancel()
        self.why_job.cancel()
        self.why = self.before_wrong = None
        self.puzzle = puzzle
        self.step = 0
        self.hints = 0
        self.hint_column = None
        self.failed = self.done = False
        self.wrong = self.wrong_cell = None
        self.reply_due = None
        if puzzle is None:
            self.board = Board()
            self.said = _("Looking for puzzles in your reviewed games...") if self.looking else _(NO_MINE)
        else:
            self.board = puzzle.board()
            self.person = self.board.to_move
            self.said = goal_sentence(puzzle, self.person)
        self.app.dirty = True

    # -- playing ------------------------------------------------------------------------
    def right_column(self) -> int | None:
        if self.puzzle is None or self.done or self.step >= len(self.puzzle.line_moves):
            return None
        return self.puzzle.line_moves[self.step]

    def play(self, column: int) -> None:
        """The person plays ``column``: right, the opponent replies; wrong, the verdict."""
        right = self.right_column()
        if right is None or self.reply_due is not None or self.wrong is not None:
            return
        if not self.board.is_legal(column):
            self.app.show_toast(self.board.why_illegal(column, zero_based=True))
            return
        self.hint_column = None
        landed = self.board.cell_of(column)
        before = self.board.copy()
        self.board.push(column)
        self.app.sounds.play("drop")
        if column != right:
            self.wrong, self.wrong_cell = column, landed
            self.before_wrong = before
            self.finish(solved=False)
            self.said = wrong_sentence(column, None, self.person, None)
            self.verdict_job.submit(
                SearchJob(
                    self.board.grid.copy(),
                    self.board.rules,
                    self.board.to_move,
                    level=PRESETS["Perfect"],
                    purpose=JobPurpose.HINT,
                    record_tree=False,
                )
            )
            self.app.dirty = True
            return
        self.step += 1
        assert self.puzzle is not None
        if self.step >= len(self.puzzle.line_moves):
            self.finish(solved=True)
        else:
            self.reply_due = self.app.time + REPLY_SECONDS
            self.said = right_step_sentence(column, None)
        self.app.dirty = True

    def finish(self, *, solved: bool) -> None:
        """Record the attempt once (the first wrong move ends it) and say the rating's change."""
        if self.failed or self.done:
            return
        assert self.puzzle is not None
        archive = self.app.archive
        previous = self.rated.current.rating  # read on entering or after the last attempt: nothing else moved it
        record_attempt(archive, PuzzleAttempt(time.time(), self.puzzle.id, self.puzzle.rating, solved, self.hints))
        self.tried.append(self.puzzle.id)
        self.refresh_standing()  # one replay of the archive (it was three: 300 ms at 5,000 games)
        self.change = (previous, self.rated.current.rating)
        if solved:
            self.done = True
            self.said = solved_sentence(self.puzzle, *self.change, self.hints)
        else:
            self.failed = True

    def update(self, dt: float) -> None:
        if self.waiting:  # the rating was still being replayed
            self.refresh_standing()
            self.app.dirty = self.app.dirty or not self.waiting
        if self.reply_due is not None and self.app.time >= self.reply_due:
            self.reply_due = None
            assert self.puzzle is not None
            reply = self.puzzle.line_moves[self.step]
            self.board.push(reply)
            self.step += 1
            self.said = right_step_sentence(self.puzzle.line_moves[self.step - 2], reply)
            self.app.dirty = True
        if self.verdict_job.lost():
            self.verdict_job.done()
            self.show_right_move(None, None)
        if self.why_job.lost():  # another screen's job took the worker: ask again
            self.why_job.done()
            self.ask_why()

    def is_animating(self) -> bool:
        return self.reply_due is not None

    def on_worker_event(self, event: WorkerEvent) -> None:
        if self.mine_job.owns(event):
            self.mine_job.done()
            self.looking = False
            if isinstance(event, OwnPuzzlesResult):
                add_own_puzzles(self.app.archive, event.found, event.looked)
                self.mine = own_puzzles(self.app.archive)
                if self.source is Source.MINE and self.puzzle is None:
                    self.next_puzzle()
            elif isinstance(event, JobFailed):
                self.app.show_toast(event.message, 5.0)
            self.app.dirty = True
            return
        if self.why_job.owns(event):
            self.why_job.done()
            if isinstance(event, ExplainResult):
                self.why = event.explanation
                self.app.dirty = True
            return
        if not self.verdict_job.owns(event):
            return
        self.verdict_job.done()
        if isinstance(event, JobResult):
            self.show_refutation(event.answer.exact, event.answer.move)
        else:
            self.show_right_move(None, None)

    def show_refutation(self, exact: ExactScore | None, reply: int | None) -> None:
        """The wrong move's verdict, and the opponent's refutation on the board."""
        if self.wrong is None:
            return
        if reply is not None and self.board.is_legal(reply) and not self.board.is_game_over():
            self.board.push(reply)
        else:
            reply = None
        self.refutation = reply
        self.said = wrong_sentence(self.wrong, exact, self.person, reply) + " " + _("Space: the right move.")
        self.app.dirty = True
        self.ask_why()

    def ask_why(self) -> None:
        """Ask the worker why the wrong try fails: its refutation in words."""
        before = self.before_wrong
        if before is None or self.wrong is None or self.why is not None:
            return
        self.why_job.submit(ExplainJob(before.grid.copy(), before.rules, before.to_move, self.wrong))

    def why_sentence(self, *, short: bool = False) -> str:
        """ "Why: ..." of the last wrong try, as the retry of a mistake says it (``short``: in
        one line, where the panel has no room for the whole)."""
        if self.why is None:
            return ""
        said = explain_text.why_brief if short else explain_text.why_full
        return said(self.why, sides(self.person))

    def show_right_move(self, exact: ExactScore | None, reply: int | None) -> None:
        """Take the wrong move (and its refutation) back and play the right one."""
        if self.wrong is None or self.puzzle is None:
            return
        while len(self.board.moves) > len(self.puzzle.line_moves[: self.step]) + len(self.puzzle.moves):
            self.board.pop()
        right = self.puzzle.line_moves[self.step]
        self.board.push(right)
        self.wrong = self.wrong_cell = None
        self.done = True
        self.said = missed_sentence(right, *self.change)
        self.app.dirty = True

    def hint(self) -> None:
        right = self.right_column()
        if right is None or self.wrong is not None:
            return
        self.hints += 1
        self.hint_column = right
        self.said = hint_sentence(right)
        self.app.dirty = True

    # -- elsewhere ----------------------------------------------------------------------
    def open_analysis(self) -> None:
        if self.puzzle is not None:
            self.app.push(OpenAnalysis(self.puzzle.board()))

    def copy(self) -> None:
        if self.puzzle is not None:
            copy_moves(self.app, self.puzzle.board())

    def back(self) -> None:
        self.app.pop()

    # -- input ----------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        lay = puzzles_layout(display_size(), self.app.theme)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, row_rects(lay.buttons, len(self.buttons), 8), event):
                return
            if click_buttons(self.list_buttons, self.list_rects(lay), event):
                return
            column = BoardLayout(self.board.rules, lay.board).column_at(event.pos)
            if column is not None:
                self.play(column)
        elif event.type == pygame.MOUSEMOTION:
            column = BoardLayout(self.board.rules, lay.board).column_at(event.pos)
            if column != self.hover:
                self.hover = column
                self.app.dirty = True
        elif event.type == pygame.KEYDOWN:
            self.key(event)

    def key(self, event: pygame.event.Event) -> None:
        key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
        if key == pygame.K_ESCAPE:
            self.back()
        elif ctrl and key == pygame.K_l:
            if self.puzzle is not None:
                copy_link(self.app, self.puzzle.board())
        elif pygame.K_1 <= key <= pygame.K_7:
            self.play(key - pygame.K_1)
        elif key in (pygame.K_SPACE, pygame.K_RETURN) and self.wrong is not None:
            self.verdict_job.cancel()
            self.show_right_move(None, None)
        elif key == pygame.K_h:
            self.hint()
        elif key == pygame.K_n:
            self.next_puzzle()
        elif key == pygame.K_f:
            self.choose(Source.FOR_YOU)
        elif key == pygame.K_m:
            self.choose(Source.MINE)
        elif key == pygame.K_d:
            self.choose(Source.DAILY)
        elif key == pygame.K_a:
            self.open_analysis()
        elif key == pygame.K_c:
            self.copy()

    # -- words ------------------------------------------------------------------------------
    def header(self) -> tuple[str, str]:
        standing = standing_sentence(self.rating, self.streak, self.provisional)
        if self.puzzle is None:
            return _(self.source.value), standing
        return title_sentence(self.source, self.puzzle), standing

    def status_line(self) -> str:
        """For spoken output: the puzzle, the goal and the verdicts."""
        title, standing = self.header()
        if self.puzzle is not None and self.step == 0 and not self.failed:
            where = _("Position after {moves}.").format(moves=self.puzzle.moves)
            return f"{title}. {where} {self.said}"
        if self.why is not None:
            return f"{self.said} {explain_text.why_spoken(self.why, sides(self.person))} {standing}."
        return f"{self.said} {standing}."

    # -- drawing ------------------------------------------------------------------------------
    def list_rects(self, lay: SideLayout) -> list[pygame.Rect]:
        height = max(30, min(40, lay.buttons.height))
        area = pygame.Rect(
            lay.panel.left + 10, lay.panel.bottom - 3 * (height + 6) - 6, lay.panel.width - 20, 3 * (height + 6)
        )
        return stack_rects(area, 3, height, 6, area.width)

    def draw(self, surface: pygame.Surface) -> None:
        assert self.view is not None
        theme = self.app.theme
        p = theme.palette
        lay = puzzles_layout(surface.get_size(), theme)
        title, standing = self.header()
        title, fitted = theme.fitted(title, lay.text + 4, lay.header.width, bold=True)
        theme.text(surface, title, fitted, lay.header.topleft, bold=True)
        standing, fitted = theme.fitted(standing, lay.text, lay.header.width)
        theme.text(surface, standing, fitted, (lay.header.left, lay.header.top + lay.second), color=p.muted)
        layout = BoardLayout(self.board.rules, lay.board)
        outcome = self.board.outcome()
        self.view.draw(
            surface,
            layout,
            self.board.grid,
            last=self.board.last_cell(),
            highlight_col=self.hover if not self.done else None,
            hint=self.hint_column,
            glow=outcome.runs if outcome is not None else (),
        )
        if self.wrong_cell is not None:  # the tried disc, ringed in the warning colour (the words say why)
            x, y = layout.center(*self.wrong_cell)
            width = max(3, layout.cell // 14)  # on a light band: monochrome's warning grey is lost on its black board
            pygame.draw.circle(surface, p.panel, (x, y), layout.radius + 6, width + 4)
            pygame.draw.circle(surface, p.warning, (x, y), layout.radius + 4, width)
        self.draw_panel(surface, lay)
        enabled = {"Hint": self.right_column() is not None and self.wrong is None, "Analysis": self.puzzle is not None}
        enabled["Copy"] = enabled["Next"] = self.puzzle is not None  # none: no puzzle from my games yet
        for button, rect in zip(self.buttons, row_rects(lay.buttons, len(self.buttons), 8)):
            button.draw(surface, theme, rect=rect, enabled=enabled.get(button.label, True))
        for button, rect in zip(self.list_buttons, self.list_rects(lay)):
            button.focused = _(button.label) == _(self.source.value)
            button.draw(surface, theme, rect=rect)

    def draw_panel(self, surface: pygame.Surface, lay: SideLayout) -> None:
        theme = self.app.theme
        p = theme.palette
        panel = lay.panel
        pygame.draw.rect(surface, p.panel, panel, border_radius=10)
        x0, width = panel.left + 12, panel.width - 24
        y: float = panel.top + 10
        bottom = self.list_rects(lay)[0].top - 8
        color = p.good if self.done and not self.failed and not self.hints else (p.warning if self.failed else p.text)
        small = lay.text - 2
        blocks = [[(line, lay.text, color) for line in theme.wrap(self.said, lay.text, width)]]
        for short in (False, True):  # the reason whole, or in one line rather than cut
            why = [("", small, p.text)] + [
                (line, lay.text, p.text) for line in theme.wrap(self.why_sentence(short=short), lay.text, width)
            ]
            if y + sum(theme.pitch(size, size + 6) for _line, size, _shade in blocks[0] + why) <= bottom:
                break
        if self.why is not None:  # part of the verdict: kept with it
            blocks[0] += why
        if self.puzzle is not None:
            goal = goal_sentence(self.puzzle, self.person)
            if goal != self.said:
                blocks.append(
                    [("", small, p.muted)] + [(line, small, p.muted) for line in theme.wrap(goal, small, width)]
                )
        blocks.append([("", small, p.muted)] + [(line, small, p.muted) for line in theme.wrap(_(KEYS), small, width)])
        lines = blocks[0]  # the verdict, cut only if it alone is too long; the goal and the keys whole or not at all
        for block in blocks[1:]:
            if y + sum(theme.pitch(size, size + 6) for _line, size, _shade in lines + block) <= bottom:
                lines = lines + block
        for line, size, shade in lines:
            if y + theme.font(size).get_height() > bottom:
                break
            theme.text(surface, line, size, (x0, y), color=shade)
            y += theme.pitch(size, size + 6)
