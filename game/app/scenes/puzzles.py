"""The puzzle screen: puzzles near your rating, by theme, from your own games, the daily one.

The try at the puzzle on the screen is a headless ``PuzzleTry`` (``game.learn.puzzle_attempt``:
the position, the moves so far, the hints, the time), which this scene draws and feeds with
input and the worker's answers.  A right step is answered by the opponent's strongest reply
from the line; a wrong one by the solver's verdict of the move tried and the refutation
played on the board (Perfect's reply: a SCORES-free hint job for the worker), then the right
move.  Each try moves the rating (Glicko-2, kept in the archive) once its result is decided:
the first wrong move, the first hint (a hint counts the puzzle as missed at once, so leaving
after it costs what it said) or the last right step.  The player's own puzzles are looked for
in their reviewed games by the worker (``OwnPuzzlesJob``); the dashboard (the solve rate in
each theme) is read from the archive a few pages a frame; nothing of the solver runs in the
frame loop.

Controls: 1..7 or click a column to play it; F puzzles for you, M from my games, D the
daily puzzle, T the themes and your rate in each (choose one to practise it), P practise
your weakest theme, S Storm, K Streak; H hint; N next puzzle; Space show the right move
after a wrong one; A the analysis board on the puzzle's position; C copy its moves, Ctrl+L
copy its link; Esc back.
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
from game.app.navigation import OpenAnalysis, ShowPuzzleThemes, ShowStorm, ShowStreak
from game.app.scene import Scene
from game.app.scenes import explain_text
from game.app.scenes.board_panel import SideLayout, board_pointer, draw_header, draw_said, side_layout
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
    add_own_puzzles,
    latest_attempts,
    own_puzzle_games,
    own_puzzles,
    record_attempt,
    set_own_themes,
    tally_pages,
)
from game.board import Board
from game.i18n import N_, _
from game.learn.dashboard import READ_SECONDS, Dashboard, DashboardRead, practise, themes_by_id
from game.learn.glicko import START_RATING
from game.learn.puzzle_attempt import Played, PuzzleTry
from game.learn.puzzle_set import daily, near, shipped_puzzles
from game.learn.puzzle_words import (
    Source,
    goal_sentence,
    hint_sentence,
    missed_sentence,
    right_step_sentence,
    sides,
    solved_sentence,
    source_name,
    standing_sentence,
    strengths_sentence,
    themes_sentence,
    title_sentence,
    wrong_sentence,
)
from game.learn.rating import player_rating, streak
from game.puzzle_file import Puzzle, PuzzleFileError
from game.puzzle_file import Theme as PuzzleTheme

STREAK_READ = 5_000
"""The newest attempts the streak is counted back through (a longer one is said as this)."""
KEYS = N_(
    "Keys: 1..7 play a column, H hint, N next puzzle, Space the right move after a wrong one, "
    "T themes, P practise your weakest, Ctrl+L copy the link."
)
NO_MINE = N_("No puzzles from your games yet: review your games against the levels (Past games), then look again.")
NO_THEME = N_("No puzzle of this theme in the set.")


def puzzles_layout(size: tuple[int, int], theme: Theme | None = None) -> SideLayout:
    """The board left, the puzzle's words and the lists right, the buttons along the bottom."""
    return side_layout(size, 0.42, 300, 520, theme)


class ShownTry:
    """The try at the puzzle on the screen (``attempt``), as the screen and the tests read it."""

    attempt: PuzzleTry | None

    @property
    def puzzle(self) -> Puzzle | None:
        return self.attempt.puzzle if self.attempt is not None else None

    @property
    def board(self) -> Board:
        return self.attempt.board if self.attempt is not None else Board()

    @property
    def done(self) -> bool:
        """The line is played out (solved, done with a hint, or the right move shown)."""
        return self.attempt is not None and self.attempt.finished

    @property
    def failed(self) -> bool:
        """A wrong move was played."""
        return self.attempt is not None and self.attempt.missed and not self.attempt.hints

    @property
    def reply_due(self) -> float | None:
        return self.attempt.reply_due if self.attempt is not None else None

    @property
    def hint_column(self) -> int | None:
        return self.attempt.hint_column if self.attempt is not None else None

    @property
    def person(self) -> int:
        return self.attempt.person if self.attempt is not None else 1

    @property
    def why(self) -> Explanation | None:
        """Why the wrong try fails (the explainer's, from the AI process)."""
        return self.attempt.why if self.attempt is not None else None

    def right_column(self) -> int | None:
        return self.attempt.right_column() if self.attempt is not None else None


class PuzzlesScene(ShownTry, Scene):
    name = "puzzles"

    def __init__(
        self,
        source: Source = Source.FOR_YOU,
        *,
        theme: PuzzleTheme | None = None,
        today: datetime.date | None = None,
        seed: int | None = None,
    ):
        super().__init__()
        self.source = source
        self.theme = theme  # the theme played (Source.THEME)
        self.today = today
        self.rng = random.Random(seed if seed is not None else time.time_ns())
        self.attempt: PuzzleTry | None = None
        self.change = (START_RATING, START_RATING)  # the rating before and after the last result
        self.said = ""  # the last sentence about the puzzle (the verdicts)
        self.rated = player_rating([], [])  # the App's, from on_enter
        self.waiting = False  # the App's rating is still being replayed
        self.rating = round(START_RATING)
        self.provisional = True
        self.streak = 0
        self.tried: list[str] = []
        self.mine: list[Puzzle] = []
        self.looking = False
        self.reading: DashboardRead | None = None  # the dashboard, read a few pages a frame
        self.view: BoardView | None = None
        self.hover: int | None = None
        self.verdict_job = JobSlot(self)
        self.mine_job = JobSlot(self)
        self.why_job = JobSlot(self)  # why the wrong try fails, after its verdict
        self.list_buttons = [
            Button(N_("Puzzles for you"), lambda: self.choose(Source.FOR_YOU), "F"),
            Button(N_("Themes"), self.open_themes, "T"),
            Button(N_("From my games"), lambda: self.choose(Source.MINE), "M"),
            Button(N_("Storm"), lambda: self.app.push(ShowStorm()), "S"),
            Button(N_("Daily puzzle"), lambda: self.choose(Source.DAILY), "D"),
            Button(N_("Streak"), lambda: self.app.push(ShowStreak()), "K"),
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
        self.read_dashboard()
        self.choose(self.source)

    def on_resume(self) -> None:
        """Back from the analysis board, the themes, Storm or Streak: the archive may hold
        more since (a game imported)."""
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

    def read_dashboard(self) -> None:
        """Start reading every attempt for the dashboard (``update`` steps it)."""
        try:
            shipped: tuple[Puzzle, ...] = shipped_puzzles()
        except PuzzleFileError:
            shipped = ()
        themes_of = themes_by_id(shipped, own_puzzles(self.app.archive))
        self.reading = DashboardRead(tally_pages(self.app.archive), themes_of)

    def dashboard(self) -> Dashboard | None:
        """The solve rate in each theme (None: still being read)."""
        return self.reading.dashboard() if self.reading is not None else None

    # -- choosing a puzzle ----------------------------------------------------------------
    def choose(self, source: Source) -> None:
        self.source = source
        if source is Source.MINE:
            self.mine = own_puzzles(self.app.archive)
            self.look_for_mine()
        self.next_puzzle()

    def choose_theme(self, theme: PuzzleTheme) -> None:
        """Play puzzles of ``theme`` (from the themes screen, or P for the weakest)."""
        self.theme = theme
        self.choose(Source.THEME)

    def practise_weakest(self) -> None:
        found = self.dashboard()
        if found is None or found.weakest is None:
            self.app.show_toast(strengths_sentence(found), 4.0)
            return
        self.choose_theme(found.weakest)

    def open_themes(self) -> None:
        self.app.push(ShowPuzzleThemes(self))

    def look_for_mine(self) -> None:
        """Ask the worker for puzzles in reviewed games not looked at yet, and for the themes
        of the player's puzzles found before puzzles had themes."""
        done = own_puzzle_games(self.app.archive)
        waiting = tuple(r for r in self.app.archive.games() if r.id is not None and r.id not in done and r.review)
        unthemed = tuple(p for p in self.mine if not p.themes)
        if waiting or unthemed:
            self.looking = True
            self.mine_job.submit(OwnPuzzlesJob(waiting, unthemed))

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
        elif self.source is Source.THEME and self.theme is not None:
            found = practise([p for p in shipped if p.id not in self.tried] or shipped, self.theme, self.rating, 1)
            puzzle = found[0] if found else None
        else:
            found = near(shipped, self.rating, 1, self.rng.randrange(1 << 30), skip=self.tried)
            puzzle = found[0] if found else None
        self.start(puzzle)

    def start(self, puzzle: Puzzle | None) -> None:
        self.verdict_job.cancel()
        self.why_job.cancel()
        self.attempt = PuzzleTry(puzzle, started=self.app.time) if puzzle is not None else None
        if puzzle is None:
            if self.source is Source.MINE:
                self.said = _("Looking for puzzles in your reviewed games...") if self.looking else _(NO_MINE)
            else:
                self.said = _(NO_THEME)
        else:
            self.said = goal_sentence(puzzle, self.person)
        self.app.dirty = True

    # -- playing ------------------------------------------------------------------------
    def play(self, column: int) -> None:
        """The person plays ``column``: right, the opponent replies; wrong, the verdict."""
        attempt = self.attempt
        if attempt is None:
            return
        played = attempt.play(column, self.app.time)
        if played is Played.IGNORED:
            return
        if played is Played.ILLEGAL:
            self.app.show_toast(attempt.board.why_illegal(column, zero_based=True))
            return
        self.app.sounds.play("drop")
        if played is Played.WRONG:
            self.keep_result()
            self.said = wrong_sentence(column, None, self.person, None)
            board = attempt.board
            self.verdict_job.submit(
                SearchJob(
                    board.grid.copy(),
                    board.rules,
                    board.to_move,
                    level=PRESETS["Perfect"],
                    purpose=JobPurpose.HINT,
                    record_tree=False,
                )
            )
        elif played is Played.SOLVED:
            self.keep_result()
            self.said = solved_sentence(attempt.puzzle, *self.change, attempt.hints)
        else:
            self.said = right_step_sentence(column, None)
        self.app.dirty = True

    def keep_result(self) -> None:
        """Store the try once its result is decided (a wrong move, a hint, the last step) and
        say the rating's change."""
        attempt = self.attempt
        row = attempt.take_attempt(time.time()) if attempt is not None else None
        if attempt is None or row is None:
            return
        previous = self.rated.current.rating  # read on entering or after the last result: nothing else moved it
        if record_attempt(self.app.archive, row) and self.reading is not None:
            self.reading.add(row)
        self.tried.append(attempt.puzzle.id)
        self.refresh_standing()
        self.change = (previous, self.rated.current.rating)

    def update(self, dt: float) -> None:
        if self.waiting:  # the rating was still being replayed
            self.refresh_standing()
            self.app.dirty = self.app.dirty or not self.waiting
        if self.reading is not None and self.reading.step(READ_SECONDS):
            self.app.dirty = True  # the dashboard is in
        attempt = self.attempt
        if attempt is not None:
            before = attempt.step
            reply = attempt.advance(self.app.time)
            if reply is not None:
                self.said = right_step_sentence(attempt.puzzle.line_moves[before - 1], reply)
                self.app.dirty = True
        if self.verdict_job.lost():
            self.verdict_job.done()
            self.show_right_move()
        if self.why_job.lost():  # another screen's job took the worker: ask again
            self.why_job.done()
            self.ask_why()

    def is_animating(self) -> bool:
        return self.reply_due is not None or (self.reading is not None and not self.reading.done)

    def on_worker_event(self, event: WorkerEvent) -> None:
        if self.mine_job.owns(event):
            self.mine_job.done()
            self.looking = False
            if isinstance(event, OwnPuzzlesResult):
                add_own_puzzles(self.app.archive, event.found, event.looked)
                set_own_themes(self.app.archive, event.themed)
                self.mine = own_puzzles(self.app.archive)
                if self.source is Source.MINE and self.puzzle is None:
                    self.next_puzzle()
            elif isinstance(event, JobFailed):
                self.app.show_toast(event.message, 5.0)
            self.app.dirty = True
            return
        if self.why_job.owns(event):
            self.why_job.done()
            if isinstance(event, ExplainResult) and self.attempt is not None:
                self.attempt.explain_wrong(event.explanation)
                self.app.dirty = True
            return
        if not self.verdict_job.owns(event):
            return
        self.verdict_job.done()
        if isinstance(event, JobResult):
            self.show_refutation(event.answer.exact, event.answer.move)
        else:
            self.show_right_move()

    def show_refutation(self, exact: ExactScore | None, reply: int | None) -> None:
        """The wrong move's verdict, and the opponent's refutation on the board."""
        attempt = self.attempt
        if attempt is None or attempt.wrong is None:
            return
        attempt.refute(exact, reply)
        said = wrong_sentence(attempt.wrong, exact, self.person, attempt.refutation)
        self.said = said + " " + _("Space: the right move.")
        self.app.dirty = True
        self.ask_why()

    def ask_why(self) -> None:
        """Ask the worker why the wrong try fails: its refutation in words."""
        attempt = self.attempt
        before = attempt.before_wrong if attempt is not None else None
        if attempt is None or before is None or attempt.wrong is None or attempt.why is not None:
            return
        self.why_job.submit(ExplainJob(before.grid.copy(), before.rules, before.to_move, attempt.wrong))

    def why_sentence(self, *, short: bool = False) -> str:
        """ "Why: ..." of the last wrong try, as the retry of a mistake says it (``short``: in
        one line, where the panel has no room for the whole)."""
        if self.why is None:
            return ""
        said = explain_text.why_brief if short else explain_text.why_full
        return said(self.why, sides(self.person))

    def show_right_move(self) -> None:
        """Take the wrong move (and its refutation) back and play the right one."""
        attempt = self.attempt
        right = attempt.show_right_move() if attempt is not None else None
        if right is None:
            return
        self.said = missed_sentence(right, *self.change)
        self.app.dirty = True

    def hint(self) -> None:
        attempt = self.attempt
        right = attempt.take_hint(self.app.time) if attempt is not None else None
        if right is None:
            return
        self.keep_result()
        self.said = hint_sentence(right, *self.change)
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
        if (column := board_pointer(self, self.board.rules, lay.board, event)) is not None:
            self.play(column)
        elif event.type == pygame.KEYDOWN:
            self.key(event)

    def key(self, event: pygame.event.Event) -> None:
        key, ctrl = event.key, bool(event.mod & pygame.KMOD_CTRL)
        keys = {
            pygame.K_h: self.hint,
            pygame.K_n: self.next_puzzle,
            pygame.K_f: lambda: self.choose(Source.FOR_YOU),
            pygame.K_m: lambda: self.choose(Source.MINE),
            pygame.K_d: lambda: self.choose(Source.DAILY),
            pygame.K_t: self.open_themes,
            pygame.K_p: self.practise_weakest,
            pygame.K_s: lambda: self.app.push(ShowStorm()),
            pygame.K_k: lambda: self.app.push(ShowStreak()),
            pygame.K_a: self.open_analysis,
            pygame.K_c: self.copy,
        }
        if key == pygame.K_ESCAPE:
            self.back()
        elif ctrl and key == pygame.K_l:
            if self.puzzle is not None:
                copy_link(self.app, self.puzzle.board())
        elif pygame.K_1 <= key <= pygame.K_7:
            self.play(key - pygame.K_1)
        elif key in (pygame.K_SPACE, pygame.K_RETURN) and self.attempt is not None and self.attempt.wrong is not None:
            self.verdict_job.cancel()
            self.show_right_move()
        elif key in keys and not ctrl:
            keys[key]()

    # -- words ------------------------------------------------------------------------------
    def header(self) -> tuple[str, str]:
        standing = standing_sentence(self.rating, self.streak, self.provisional)
        if self.puzzle is None:
            return source_name(self.source, self.theme), standing
        return title_sentence(self.source, self.puzzle, self.theme), standing

    def status_line(self) -> str:
        """For spoken output: the puzzle, the goal and the verdicts."""
        title, standing = self.header()
        if self.puzzle is not None and self.attempt is not None and not self.attempt.started_playing:
            where = _("Position after {moves}.").format(moves=self.puzzle.moves)
            return f"{title}. {where} {self.said} {themes_sentence(self.puzzle)}".rstrip()
        if self.why is not None:
            return f"{self.said} {explain_text.why_spoken(self.why, sides(self.person))} {standing}."
        return f"{self.said} {standing}."

    # -- drawing ------------------------------------------------------------------------------
    def list_rects(self, lay: SideLayout) -> list[pygame.Rect]:
        """The six lists' buttons, two a row in three rows at the panel's foot."""
        height = max(30, min(40, lay.buttons.height))
        area = pygame.Rect(
            lay.panel.left + 10, lay.panel.bottom - 3 * (height + 6) - 6, lay.panel.width - 20, 3 * (height + 6)
        )
        rects = []
        for row in stack_rects(area, 3, height, 6, area.width):
            rects.extend(row_rects(row, 2, 6))
        return rects

    def draw(self, surface: pygame.Surface) -> None:
        assert self.view is not None
        theme = self.app.theme
        p = theme.palette
        lay = puzzles_layout(surface.get_size(), theme)
        draw_header(surface, theme, lay, *self.header())
        layout = BoardLayout(self.board.rules, lay.board)
        outcome = self.board.outcome()
        attempt = self.attempt
        self.view.draw(
            surface,
            layout,
            self.board.grid,
            last=self.board.last_cell(),
            highlight_col=self.hover if not self.done else None,
            hint=self.hint_column,
            glow=outcome.runs if outcome is not None else (),
        )
        if attempt is not None and attempt.wrong_cell is not None:  # the tried disc, ringed (the words say why)
            x, y = layout.center(*attempt.wrong_cell)
            width = max(3, layout.cell // 14)  # on a light band: monochrome's warning grey is lost on its black board
            pygame.draw.circle(surface, p.panel, (x, y), layout.radius + 6, width + 4)
            pygame.draw.circle(surface, p.warning, (x, y), layout.radius + 4, width)
        self.draw_panel(surface, lay)
        playing = self.right_column() is not None
        enabled = {"Hint": playing, "Analysis": self.puzzle is not None}
        enabled["Copy"] = enabled["Next"] = self.puzzle is not None or self.source is not Source.MINE
        for button, rect in zip(self.buttons, row_rects(lay.buttons, len(self.buttons), 8)):
            button.draw(surface, theme, rect=rect, enabled=enabled.get(button.label, True))
        chosen = {Source.FOR_YOU: "Puzzles for you", Source.MINE: "From my games", Source.DAILY: "Daily puzzle"}
        chosen[Source.THEME] = "Themes"
        for button, rect in zip(self.list_buttons, self.list_rects(lay)):
            button.focused = button.label == chosen[self.source]
            button.draw(surface, theme, rect=rect)

    def draw_panel(self, surface: pygame.Surface, lay: SideLayout) -> None:
        theme = self.app.theme
        p = theme.palette
        pygame.draw.rect(surface, p.panel, lay.panel, border_radius=10)
        color = p.good if self.done and not self.failed and not self.attempt_hints() else p.text
        bottom = self.list_rects(lay)[0].top - 8
        notes = []
        if self.why is not None:  # why the wrong try fails: whole, or in one line rather than cut
            width, small = lay.panel.width - 24, lay.text - 2
            said = [(line, lay.text) for line in theme.wrap(self.said, lay.text, width)]
            for short in (False, True):
                why = [(line, small) for line in theme.wrap(self.why_sentence(short=short), small, width)]
                room = lay.panel.top + 10 + sum(theme.pitch(size, size + 6) for _line, size in said + why)
                if room + theme.pitch(small, small + 6) <= bottom:
                    break
            notes.append(self.why_sentence(short=short))
        if self.puzzle is not None:
            goal = goal_sentence(self.puzzle, self.person)
            notes += [goal] if goal != self.said else []
            notes += [themes_sentence(self.puzzle)] if self.puzzle.themes else []
        notes += [strengths_sentence(self.dashboard()), _(KEYS)]
        draw_said(
            surface,
            self.app.theme,
            lay,
            lay.panel.top + 10,
            bottom,
            (self.said, p.warning if self.failed else color),
            notes,
        )

    def attempt_hints(self) -> int:
        return self.attempt.hints if self.attempt is not None else 0
