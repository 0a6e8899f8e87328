"""Your mistakes across stored games, in one queue (Past games, M).

The games with an exact review give their mistakes at once (the archive keeps every
mistake's ply in the review's summary).  The others are reviewed first, one after the
other, by the worker (a ``ReviewJob``, as the review screen asks for): each review is
kept in the archive and adds the person's mistakes to the queue.  N starts with the
mistakes found so far; the rest of the games stay for the next time.
"""

from __future__ import annotations

import pygame

from game.app.job_slot import JobSlot
from game.app.scenes.board_panel import SideLayout
from game.app.scenes.retry import RetryScene
from game.app.worker_protocol import JobFailed, ReviewJob, ReviewMove, ReviewResult, WorkerEvent
from game.i18n import _, ngettext
from game.learn.training import drills_of_game, drills_of_records
from game.records import GameRecord
from game.rules import MAX, MIN


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
        from game.app.archive_link import archive_of

        if record.id is not None:
            archive_of(self.app).set_review(record.id, event.review.summary())
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
        from game.app.scenes.review import draw_progress

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

    def panel_lines(self) -> list[str]:
        if self.reviewing:
            found = len(self.drills)
            return [
                _("Mistakes found so far: {found}.").format(found=found),
                _("Each review is kept in the archive, so this happens once per game."),
                _("N: start now with the mistakes found so far."),
            ]
        return super().panel_lines()
