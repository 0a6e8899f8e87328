"""Learn from your mistakes: each mistake or blunder again, from the position before it.

The board shows the position; the column played in the game is marked.  The player
drops a disc where they now would; the exact solver judges it (a SCORES job for the AI
worker, Perfect's column scores through the one decider, asked for as the position
appears): a move that keeps the exact outcome is well done, else an arrow shows the
best column, every column shows its exact result, a second job works out the best
answer to the try ("what it allows": a faint disc, and its result in words) and a third
why the try fails (``ai.explain``'s refutation, in the puzzles' words).  The first try at each position scores as the
review's accuracy (best 1, good 1/2); the round's score is kept at the top.

``MistakesQueueScene`` (Past games, M): your mistakes across stored games, in one queue.
The games with an exact review give their mistakes at once (the archive keeps every
mistake's ply in the review's summary).  The others are reviewed first, one after the
other, by the worker (a ``ReviewJob``, as the review screen asks for): each review is
kept in the archive and adds the person's mistakes to the queue.  N starts with the
mistakes found so far; the rest of the games stay for the next time.

Controls: click a column or 1..7 to try it; R try again (it no longer scores); N, Enter
or Right the next position; Esc back.
"""

from __future__ import annotations

from collections.abc import Mapping

import pygame

from ai.exact import ExactScore
from ai.explain.explanation import Explanation
from ai.review import GameReview, MoveClass
from game.app.board_view import BoardLayout, BoardView, ColumnNote
from game.app.job_slot import JobSlot
from game.app.scene import Scene
from game.app.scenes import explain_text
from game.app.scenes.board_panel import SideLayout, draw_progress, refused, scores_job, side_layout
from game.app.scenes.play_view import notes_for
from game.app.theme import Theme
from game.app.widgets import Button, click_buttons, display_size, row_rects
from game.app.worker_protocol import (
    ExplainJob,
    ExplainResult,
    JobFailed,
    JobResult,
    ReviewJob,
    ReviewMove,
    ReviewResult,
    WorkerEvent,
)
from game.board import Board
from game.i18n import N_, _, ngettext
from game.learn.training import (
    Drill,
    RoundScore,
    Verdict,
    columns_of_scores,
    drills_of_game,
    drills_of_records,
    drills_of_review,
    judge,
    prompt_line,
    verdict_lines,
)
from game.records import GameRecord
from game.rules import MAX, MIN


def retry_layout(size: tuple[int, int], theme: Theme | None = None) -> SideLayout:
    """A pure function of the window size: the header, the board left, the judgement
    right, the buttons along the bottom."""
    return side_layout(size, 0.36, 260, 420, theme)


class RetryScene(Scene):
    name = "retry"

    def __init__(self, drills: list[Drill], title: str | None = None):
        super().__init__()
        self.drills = list(drills)
        self.title = title or _("Learn from your mistakes")
        self.index = 0
        self.score = RoundScore()
        self.firsts: dict[int, Verdict] = {}  # each position's first try, by index
        self.view: BoardView | None = None
        self.job = JobSlot(self)  # the position's column scores, then the answer to a try
        self.columns: Mapping[int, ExactScore] | None = None
        self.no_scores: str | None = None  # why the position cannot be judged
        self.tried: int | None = None
        self.verdict: Verdict | None = None
        self.reply: tuple[int, ExactScore] | None = None
        self.why: Explanation | None = None  # why the try fails
        self.counted = False  # this position's first try is in the score
        self.asking = ""  # "scores", "reply" or "why": what the job in flight is for
        self.note: str | None = None  # said under the queue (games still to review)
        self.buttons = [
            Button(N_("Try again"), self.try_again, "R"),
            Button(N_("Next"), self.next_drill, "N"),
            Button(N_("Back"), self.back, "Esc"),
        ]

    # -- the position -------------------------------------------------------------------
    @property
    def drill(self) -> Drill | None:
        return self.drills[self.index] if self.index < len(self.drills) else None

    @property
    def finished(self) -> bool:
        return self.index >= len(self.drills)

    def board(self) -> Board:
        drill = self.drill
        assert drill is not None
        return drill.board()

    def on_enter(self) -> None:
        self.view = BoardView(self.app.theme)
        self.start_drill()

    def on_exit(self) -> None:
        self.job.cancel()

    def start_drill(self) -> None:
        self.columns = None
        self.no_scores = None
        self.tried = self.verdict = self.reply = self.why = None
        self.counted = False
        if self.drill is not None:
            self.ask("scores", self.board())

    def ask(self, what: str, board: Board) -> None:
        """Perfect's column scores of ``board`` from the worker (the one decider's hint)."""
        self.asking = what
        self.job.submit(scores_job(board))

    def update(self, dt: float) -> None:
        if self.job.lost():  # another scene's job took the worker: ask again
            self.job.done()
            if self.asking == "scores" and self.columns is None and self.drill is not None:
                self.ask("scores", self.board())
            elif self.asking == "reply" and self.verdict is not None:
                self.ask_reply(self.verdict)
            elif self.asking == "why" and self.verdict is not None:
                self.ask_why(self.verdict)

    def on_worker_event(self, event: WorkerEvent) -> None:
        if not self.job.owns(event):
            return
        if isinstance(event, JobResult):
            self.job.done()
            if self.asking == "scores":
                self.take_scores(event.answer.column_scores)
            elif self.asking == "reply" and event.answer.move is not None and event.answer.exact is not None:
                self.reply = (event.answer.move, event.answer.exact)
            if self.asking == "reply" and self.verdict is not None:
                self.ask_why(self.verdict)
        elif isinstance(event, ExplainResult):
            self.job.done()
            self.why = event.explanation
        elif isinstance(event, JobFailed):
            self.job.done()
            if self.asking == "scores":
                self.take_scores(None, event.message)
        self.app.dirty = True

    def take_scores(self, columns: Mapping[int, ExactScore] | None, failure: str | None = None) -> None:
        """The position's exact column scores: judge the waiting try, if any."""
        board = self.board()
        if not columns or len(columns) < len(board.legal_moves()):
            drill = self.drill
            if drill is not None and drill.scores:  # the review's, exact too
                columns = columns_of_scores(board, drill.scores)
            else:
                self.no_scores = failure or _("the solver did not prove this position within a hint's budget")
                return
        self.columns = dict(columns)
        if self.tried is not None:
            self.judge_try()

    # -- tries --------------------------------------------------------------------------
    def try_column(self, column: int) -> None:
        if self.finished or self.verdict is not None or self.tried is not None:
            return
        if refused(self.app, self.board(), column, _("The game is over here")):
            return
        if self.no_scores is not None:
            self.app.show_toast(_("This position cannot be judged exactly: N for the next one"))
            return
        self.tried = column
        if self.columns is not None:
            self.judge_try()

    def judge_try(self) -> None:
        assert self.columns is not None and self.tried is not None
        self.verdict = judge(self.board(), self.columns, self.tried)
        if not self.counted:
            self.counted = True
            self.score.add(self.verdict)
            self.firsts[self.index] = self.verdict
        if not self.verdict.kept:
            self.ask_reply(self.verdict)

    def ask_reply(self, verdict: Verdict) -> None:
        """The best answer to a try that gave the outcome away (what it allows)."""
        board = self.board()
        board.push(verdict.tried)
        if not board.is_game_over():
            self.ask("reply", board)
        else:
            self.ask_why(verdict)

    def ask_why(self, verdict: Verdict) -> None:
        """Why the try fails (after its answer): the explainer's refutation of it."""
        board = self.board()
        self.asking = "why"
        self.job.submit(ExplainJob(board.grid.copy(), board.rules, board.to_move, verdict.tried))

    def why_sentence(self, *, short: bool = False) -> str:
        """ "Why: ..." of the try, in the puzzles' words (``short``: in one line, where the
        panel has no room for the whole)."""
        if self.why is None or self.drill is None:
            return ""
        said = explain_text.why_brief if short else explain_text.why_full
        return said(self.why, self.why_names())

    def why_names(self) -> dict[int, str]:
        """The sides as the reason names them: you (where you played) and the players, as
        the judgement above it names them."""
        drill = self.drill
        you = {self.board().to_move: "you"} if drill is not None and drill.who == "you" else {}
        return explain_text.player_names(you)

    def try_again(self) -> None:
        """Take the try back (only the first try scores)."""
        if self.tried is None:
            return
        self.job.cancel()
        self.tried = self.verdict = self.reply = self.why = None

    def next_drill(self) -> None:
        if self.finished:
            self.index = 0  # a new round over the same positions
            self.score = RoundScore()
            self.firsts = {}
        else:
            self.index += 1
        self.job.cancel()
        self.start_drill()

    def back(self) -> None:
        self.app.pop()

    # -- input --------------------------------------------------------------------------
    def handle_event(self, event: pygame.event.Event) -> None:
        lay = retry_layout(display_size(), self.app.theme)
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            if click_buttons(self.buttons, row_rects(lay.buttons, len(self.buttons), 8), event):
                return
            if self.drill is not None:
                column = BoardLayout(self.drill.rules, lay.board).column_at(event.pos)
                if column is not None:
                    self.try_column(column)
        elif event.type == pygame.KEYDOWN:
            key = event.key
            if key == pygame.K_ESCAPE:
                self.back()
            elif key == pygame.K_r:
                self.try_again()
            elif key in (pygame.K_n, pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_RIGHT):
                self.next_drill()
            elif (
                pygame.K_1 <= key <= pygame.K_9 and self.drill is not None and key - pygame.K_1 < self.drill.rules.cols
            ):
                self.try_column(key - pygame.K_1)

    # -- drawing ------------------------------------------------------------------------
    def header_lines(self) -> tuple[str, str]:
        total = len(self.drills)
        if not total:
            return self.title, _("Nothing to retry here.")
        if self.finished:
            return _("{title}: the round is over").format(title=self.title), _(
                "N or Enter plays the same positions again; Esc goes back."
            )
        drill = self.drill
        assert drill is not None
        played = self.verdict_of_played()
        title = _("{title}: position {index} of {total}").format(title=self.title, index=self.index + 1, total=total)
        return title, prompt_line(drill, played)

    def status_line(self) -> str:
        """For spoken output: the judgement once there is one (and why it fails), else the task."""
        if self.verdict is not None or self.drill is None:
            if self.why is not None and self.drill is not None:
                return f"{self.panel_lines()[0]} {explain_text.why_spoken(self.why, self.why_names())}"
            return self.panel_lines()[0]
        return self.header_lines()[1]

    def verdict_of_played(self) -> MoveClass | None:
        """The class of the move played in the game (known once the scores are)."""
        drill = self.drill
        if drill is None:
            return None
        if self.columns is not None:
            return judge(self.board(), self.columns, drill.played).move_class
        return drill.move_class

    def panel_lines(self, *, short: bool = False) -> list[str]:
        """The judgement and what it means (``short``: the reason in one line)."""
        drill = self.drill
        note = [self.note] if self.note else []
        if drill is None:
            if not self.drills:
                return [_("Nothing to retry: no mistake or blunder of yours is known yet."), *note]
            return [self.score_text(), *note]
        if self.no_scores is not None:
            return [
                _("No exact judgement here: {no_scores}.").format(no_scores=self.no_scores),
                _("N: the next position."),
            ]
        if self.verdict is not None:
            lines = verdict_lines(drill, self.verdict, self.reply, replying=self.job.id is not None)
            why = self.why_sentence(short=short)
            if why:
                lines.append(why)
            key = _(
                "The badges over the board: each column's exact result for the side to move, in the winner's own moves."
            )
            return lines + [key, "", _("R: try again (it no longer scores) · N: next")]
        if self.tried is not None:
            return [_("Judging with the exact solver...")]
        side = _("player {value}").format(value=1 if self.board().to_move > 0 else 2)
        lines = [
            (
                _("To move: {side} (you), as in the game.")
                if drill.who == "you"
                else _("To move: {side}, as in the game.")
            ).format(side=side),
            _("Click a column (or press 1-7) for the move you would play now."),
            _("The exact solver judges it: keep the win (or the draw) to score."),
        ]
        if self.columns is None:
            lines.append(_("(The solver is working the position out...)"))
        return lines + note

    def draw(self, surface: pygame.Surface) -> None:
        theme = self.app.theme
        p = theme.palette
        lay = retry_layout(surface.get_size(), theme)
        title, prompt = self.header_lines()
        room = lay.header.width - 220  # the score's place on the right
        if self.drills and not self.finished:
            score = self.score_text()
            drawn = theme.text(
                surface, score, lay.text - 1, (lay.header.right, lay.header.top + 4), color=p.muted, anchor="topright"
            )
            room = min(room, drawn.left - lay.header.left - 20)
        title, fitted = theme.fitted(title, lay.text + 4, room, bold=True)  # the UI scale gives way first
        theme.text(surface, title, fitted, lay.header.topleft, bold=True)
        prompt, fitted = theme.fitted(prompt, lay.text, lay.header.width)
        theme.text(surface, prompt, fitted, (lay.header.left, lay.header.top + lay.second - 2))
        self.draw_middle(surface, lay)
        self.draw_panel(surface, lay)
        enabled = {"Try again": self.tried is not None, "Next": self.can_go_on()}
        labels = {"Next": self.next_label()}
        for button, rect in zip(self.buttons, row_rects(lay.buttons, len(self.buttons), 8)):
            button.draw(
                surface, theme, rect=rect, enabled=enabled.get(button.label, True), label=labels.get(button.label)
            )

    def draw_middle(self, surface: pygame.Surface, lay: SideLayout) -> None:
        """Where the board goes: the position, or at the end the round's summary."""
        if self.drill is not None:
            self.draw_board(surface, lay)
        elif self.drills:
            self.draw_summary(surface, lay)

    def draw_board(self, surface: pygame.Surface, lay: SideLayout) -> None:
        assert self.view is not None
        board = self.board()
        layout = BoardLayout(board.rules, lay.board)
        mover = board.to_move
        palette = self.app.theme.palette
        notes: list[ColumnNote | None] = [None] * board.rules.cols
        hint = ghost = None
        if self.verdict is not None and self.columns is not None:
            notes = notes_for(self.columns, board.rules, mover, palette)
            if not self.verdict.kept:
                hint = self.verdict.best_moves[0]  # an arrow over the column: the reply may land in its cell
        drill = self.drill
        assert drill is not None
        if self.verdict is None:
            notes[drill.played] = ColumnNote(_("played"), palette.warning)
        last = board.last_cell()
        if self.tried is not None:
            cell = board.cell_of(self.tried)
            board.push(self.tried)
            last = cell
            if self.reply is not None and not board.is_game_over():
                reply_cell = board.cell_of(self.reply[0])
                if reply_cell is not None:
                    ghost = (reply_cell, board.to_move, False)
        self.view.draw(surface, layout, board.grid, last=last, hint=hint, ghost=ghost, notes=notes)

    def can_go_on(self) -> bool:
        """Tell whether Next (N) does something: the next position, or a new round."""
        return bool(self.drills)

    def next_label(self) -> str:
        return _("Again") if self.finished else _("Next")

    def score_text(self) -> str:
        left = len(self.drills) - self.index - (1 if self.index in self.firsts else 0)
        return self.score.text(len(self.drills), max(0, left))

    def summary_lines(self) -> list[tuple[str, bool | None]]:
        """The round, one line per position: what the first try found (None: skipped)."""
        lines: list[tuple[str, bool | None]] = []
        for index, drill in enumerate(self.drills):
            first = self.firsts.get(index)
            where = _("{index}. Move {ply} of {label}: ").format(index=index + 1, ply=drill.ply, label=drill.label)
            if first is None:
                lines.append((where + "skipped", None))
            elif first.kept:
                lines.append(
                    (
                        where
                        + _("column {tried} found ({value})").format(
                            tried=first.tried + 1, value=first.move_class.word
                        ),
                        True,
                    )
                )
            else:
                best = first.best_moves[0] + 1
                lines.append(
                    (
                        where
                        + _("column {tried} missed; best was column {best}").format(tried=first.tried + 1, best=best),
                        False,
                    )
                )
        return lines

    def draw_summary(self, surface: pygame.Surface, lay: SideLayout) -> None:
        """The round's positions and how each first try went, where the board stands."""
        theme = self.app.theme
        p = theme.palette
        y: float  # moves down by line pitches at the UI scale
        x, y = lay.board.left + 4, lay.board.top + 6
        theme.text(surface, _("This round"), lay.text + 2, (x, y), bold=True)
        y += lay.text + 12
        colors = {True: p.good, False: p.warning, None: p.muted}
        for line, found in self.summary_lines():
            if y + lay.text > lay.board.bottom:
                break
            line, fitted = theme.fitted(line, lay.text, lay.board.width - 8)
            theme.text(surface, line, fitted, (x, y), color=colors[found])
            y += theme.pitch(lay.text, lay.text + 8)

    def draw_panel(self, surface: pygame.Surface, lay: SideLayout) -> None:
        """The judgement's lines, wrapped: as big as the UI scale makes them where they fit,
        smaller down to their 100 % size, the reason in one line before anything is cut."""
        theme = self.app.theme
        p = theme.palette
        pygame.draw.rect(surface, p.panel, lay.panel, border_radius=10)
        y: float  # moves down by line pitches at the UI scale
        x, y = lay.panel.left + 12, lay.panel.top + 10
        width = lay.panel.width - 24
        room = lay.panel.bottom - 6 - y
        least = lay.text / theme.scale if theme.scale > 1 else lay.text

        def height(lines: list[str], size: float) -> float:
            rows = sum(len(theme.wrap(line, size, width)) if line else 1 for line in lines)
            return rows * theme.pitch(size, size + 5) + 4 * len(lines)

        for short in (False, True):
            lines, size = self.panel_lines(short=short), float(lay.text)
            while size > least and height(lines, size) > room:
                size = max(least, size - 0.5)
            if height(lines, size) <= room:
                break
        good = self.verdict is not None and self.verdict.kept
        for index, line in enumerate(lines):
            color = p.text
            if index == 0 and self.verdict is not None:
                color = p.good if good else p.warning
            for part in theme.wrap(line, size, width) if line else [""]:
                if y + size > lay.panel.bottom - 6:
                    return
                theme.text(surface, part, size, (x, y), color=color)
                y += theme.pitch(size, size + 5)
            y += 4


def retry_of_review(review: GameReview, depths: Mapping[int, int], names: Mapping[int, str]) -> RetryScene:
    """The retry of a reviewed game's mistakes: the person's (the sides without a search
    depth), or every side's where no person played."""
    people = [side for side in (MAX, MIN) if side not in depths]
    sides = people or [MAX, MIN]
    who = {
        side: "you"
        if len(people) == 1 and side in people
        else _("player {value}").format(value=1 if side == MAX else 2)
        + (f" ({names[side]})" if names.get(side) and side not in people else "")
        for side in (MAX, MIN)
    }
    return RetryScene(drills_of_review(review, sides, _("this game"), who))


class MistakesQueueScene(RetryScene):
    """The retry of a queue of stored games' mistakes, reviewing the unreviewed first."""

    def __init__(self, records: list[GameRecord]):
        drills, waiting = drills_of_records(records)
        super().__init__(drills, _("Your mistakes, all games"))
        self.to_review = waiting
        self.review_count = len(waiting)
        self.review_job = JobSlot(self)
        self.moves_reviewed = 0  # of the game under review

    @property
    def reviewing(self) -> bool:
        return bool(self.to_review)

    def on_exit(self) -> None:
        super().on_exit()
        self.review_job.cancel()

    def start_drill(self) -> None:
        """The first position once every game has its review; until then, the reviews."""
        if self.reviewing:
            self.review_next()
        else:
            super().start_drill()

    def review_next(self) -> None:
        """Ask the worker for the review of the next game that has none; when none is
        left, the first position."""
        if not self.to_review:
            super().start_drill()
            return
        record = self.to_review[0]
        depths = {s: d for s, d in ((MAX, record.first_depth), (MIN, record.second_depth)) if d}
        empty = record.rules.empty_grid()
        self.moves_reviewed = 0
        self.review_job.submit(ReviewJob(record.rules, tuple(record.moves), empty, MAX, depths))

    def update(self, dt: float) -> None:
        if self.reviewing:
            if self.review_job.lost():  # another job took the worker: this game again
                self.review_next()
            return
        super().update(dt)

    def on_worker_event(self, event: WorkerEvent) -> None:
        if not self.review_job.owns(event):
            super().on_worker_event(event)
            return
        if isinstance(event, ReviewMove):
            self.moves_reviewed = event.done
            self.app.dirty = True
        elif isinstance(event, ReviewResult | JobFailed):
            self.review_job.done()
            record = self.to_review.pop(0)
            if isinstance(event, ReviewResult):
                self.keep_review(record, event)
            self.review_next()
            self.app.dirty = True

    def keep_review(self, record: GameRecord, event: ReviewResult) -> None:
        """The review made just now: into the archive, its mistakes into the queue."""
        if record.id is not None:
            self.app.archive.set_review(record.id, event.review.summary())
        self.drills.extend(drills_of_game(record, event.review))

    def next_drill(self) -> None:
        if self.reviewing:  # start with the mistakes found so far
            self.review_job.cancel()
            left = len(self.to_review)
            self.to_review = []
            self.note = ngettext(
                "{left} game not reviewed yet: it waits for the next round.",
                "{left} games not reviewed yet: they wait for the next round.",
                left,
            ).format(left=left)
            self.index = 0
            self.start_drill()
            return
        super().next_drill()

    @property
    def finished(self) -> bool:
        return not self.reviewing and super().finished

    def try_column(self, column: int) -> None:
        if not self.reviewing:
            super().try_column(column)

    def can_go_on(self) -> bool:
        return self.reviewing or super().can_go_on()

    def next_label(self) -> str:
        return _("Start now") if self.reviewing else super().next_label()

    def draw_middle(self, surface: pygame.Surface, lay: SideLayout) -> None:
        """While reviewing, the review's progress bar where the board goes."""
        if not self.reviewing:
            super().draw_middle(surface, lay)
            return
        total = len(self.to_review[0].moves)
        draw_progress(surface, self.app.theme, lay.board, self.moves_reviewed, total, lay.text)

    def header_lines(self) -> tuple[str, str]:
        if self.reviewing:
            done = self.review_count - len(self.to_review)
            return (
                _("{title}: reviewing your games first").format(title=self.title),
                _("Game {done} of {review_count} has no review yet: the exact review finds its mistakes.").format(
                    done=done + 1, review_count=self.review_count
                ),
            )
        return super().header_lines()

    def panel_lines(self, *, short: bool = False) -> list[str]:
        if self.reviewing:
            found = len(self.drills)
            return [
                _("Mistakes found so far: {found}.").format(found=found),
                _("Each review is kept in the archive, so this happens once per game."),
                _("N: start now with the mistakes found so far."),
            ]
        return super().panel_lines(short=short)
