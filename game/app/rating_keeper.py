"""The player's rating as the window shows it, kept off the frame loop's back.

Replaying every game and puzzle attempt (``game.learn.rating``) takes about half a second
of CPU at 100,000 attempts: far too long for a frame.  The App keeps one ``RatingKeeper``.
It replays the archive once, a page of attempts at a time (``step``, which the App's frame
loop calls with a few milliseconds to spend), and afterwards takes in only what was stored
since (``refresh``: the game just finished, the attempt just made, microseconds).  A
screen asks ``refresh()`` when it opens: the latest rating, or None until the first replay
is done (the screen says the start rating meanwhile and asks again).

Where rows appear that are older than the last event taken in (games imported from a
file) or rows went away, it replays again from the start; games still waiting to be
written (``Archive.pending``) are counted in the rating shown but not kept, so they are
never counted twice once written.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

from game.archive.puzzle_store import MAX_ATTEMPTS_READ, attempt_count, attempt_pages
from game.archive.store import Archive, games_stored_after
from game.learn.rating import PlayerRating, RatedEvent, RatingFold, game_event, in_order, puzzle_event
from game.records import GameRecord

PAGE = 1_000
"""Attempts a step of the replay reads and folds in (about 5 ms on the project's machine)."""
FIRST_STEP_SECONDS = 0.02
"""What ``refresh`` spends on a replay it starts: a small archive's whole replay."""
NEW_AT_ONCE = 4 * PAGE
"""At most this many new attempts are taken in by ``refresh`` itself; more start a replay."""


def _game_events(records: list[GameRecord]) -> list[RatedEvent]:
    return in_order(event for event in (game_event(record) for record in records) if event is not None)


class RatingKeeper:
    """The archive's rating, replayed once in steps and kept up to date after that."""

    def __init__(self, archive: Archive):
        self.archive = archive
        self._fold: RatingFold | None = None  # every stored row up to the marks below, folded in
        self._game_mark = 0  # the highest stored game id taken in
        self._attempt_key: tuple[object, int] | None = None  # the last attempt row taken in (time, id)
        self._attempt_rows = 0  # attempt rows accounted for: taken in, skipped, or older than the newest read
        self._replay: Iterator[None] | None = None
        self._rated: PlayerRating | None = None

    @property
    def replaying(self) -> bool:
        """Whether a replay is under way (the App steps it)."""
        return self._replay is not None

    def refresh(self) -> PlayerRating | None:
        """The rating with what was stored since the last look taken in; None while the first
        replay is under way (and the last rating known while a later one is)."""
        if self._replay is not None:
            return self._rated
        fold = self._fold
        if fold is None:
            return self._replay_from_the_start()
        records, game_mark = games_stored_after(self.archive, self._game_mark)
        rows = attempt_count(self.archive)
        pages = []
        if rows != self._attempt_rows:
            pages = list(attempt_pages(self.archive, page=NEW_AT_ONCE + 1, after=self._attempt_key))[:1]
        taken = sum(len(page.attempts) + page.skipped for page in pages)
        if taken > NEW_AT_ONCE or self._attempt_rows + taken != rows:  # many, or stored out of order, or gone
            return self._replay_from_the_start()
        events = _game_events(records) + [
            puzzle_event(a.tried_at, a.puzzle, a.puzzle_rating, a.score) for page in pages for a in page.attempts
        ]
        try:
            fold.add(in_order(events))
        except ValueError:  # older than what is taken in already: from the start
            return self._replay_from_the_start()
        fold.skipped += sum(page.skipped for page in pages)
        self._game_mark, self._attempt_rows = game_mark, rows
        if pages and pages[-1].key is not None:
            self._attempt_key = pages[-1].key
        self._rated = self._with_pending(fold)
        return self._rated

    def _replay_from_the_start(self) -> PlayerRating | None:
        """Start a replay and take its first step here (a small archive's whole replay):
        the new rating where it is done, else the last one known."""
        self._replay = self._replaying()
        self.step(FIRST_STEP_SECONDS)
        return self._rated

    def step(self, budget: float) -> bool:
        """Go on with the replay for about ``budget`` seconds; True when it has just ended
        (a new rating to show)."""
        if self._replay is None:
            return False
        deadline = time.perf_counter() + budget
        for _ in self._replay:
            if time.perf_counter() >= deadline:
                return False
        self._replay = None
        return True

    def _with_pending(self, fold: RatingFold) -> PlayerRating:
        """The fold's rating, with the games still waiting to be written counted (not kept)."""
        pending = _game_events(list(self.archive.pending))
        if not pending:
            return fold.rating()
        try:
            return fold.rating_with(pending)
        except ValueError:  # a waiting game older than the rating's last event: shown as stored
            return fold.rating()

    def _replaying(self) -> Iterator[None]:
        """Replay the archive from the start, a page of attempts a step, the games merged in
        by time; then keep the fold and its marks."""
        archive = self.archive
        records, game_mark = games_stored_after(archive, 0)
        games = _game_events(records)
        rows = attempt_count(archive)
        fold = RatingFold()
        accounted = max(rows - MAX_ATTEMPTS_READ, 0)  # older than the newest read: never read
        key = None
        taken = 0  # games folded in so far
        yield
        for page in attempt_pages(archive, page=PAGE):
            events = [puzzle_event(a.tried_at, a.puzzle, a.puzzle_rating, a.score) for a in page.attempts]
            until = taken
            while until < len(games) and events and games[until].at <= events[-1].at:
                until += 1
            fold.add(in_order(games[taken:until] + events))
            fold.skipped += page.skipped
            taken = until
            accounted += len(page.attempts) + page.skipped
            key = page.key
            yield
        fold.add(games[taken:])
        self._fold, self._game_mark, self._attempt_key, self._attempt_rows = fold, game_mark, key, accounted
        self._rated = self._with_pending(fold)
