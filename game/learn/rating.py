"""The player's rating: Glicko-2 over their games against the levels and their puzzles.

Every finished game on the standard board between the person and a preset level counts
(the level's rating from ``ai.ladder``: the measured 6x7 ladder), and so does every puzzle
attempt (the puzzle's rating; a hint makes it a miss).  Two-player and computer-vs-computer
games do not count, nor games on other boards (the ladder's ratings are 6x7's).  Each game
or puzzle is one Glicko-2 rating period, replayed in the order they happened, so games
imported from a file count like games played here.  A new player starts at the scale's
middle (1500) with the wide deviation of 350.

A replay is a ``RatingFold``: events folded in one after another, which the window keeps
between its screens and adds to as new games and attempts are stored (``game.app.rating_keeper``),
so no screen replays a hundred thousand attempts inside a frame.  A rating keeps the
latest ``RECENT`` points of its history (what the graph draws), not all of them.  An event
whose time is not a date (an infinity or NaN a damaged file left) is skipped and counted.
"""

from __future__ import annotations

import copy
import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import NamedTuple, Protocol

from ai.ladder import LEVEL_DEVIATION, level_rating
from game.i18n import number
from game.learn.glicko import Glicko, rate_period
from game.records import GameRecord
from game.rules import STANDARD

RECENT = 200
"""Points of the rating's history kept: the latest, the graph's (``game.app.scenes.rating_graph``)."""
PUZZLE_DEVIATION = 80
"""A puzzle's rating deviation: its place between two ladder rungs is known to about this."""
GAME, PUZZLE = "game", "puzzle"
GAME_SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}


class Attempt(Protocol):
    """A puzzle attempt as the archive keeps it (``game.archive.puzzle_store.PuzzleAttempt``)."""

    @property
    def tried_at(self) -> float: ...

    @property
    def puzzle(self) -> str: ...

    @property
    def puzzle_rating(self) -> int: ...

    @property
    def score(self) -> float: ...


class RatedEvent(NamedTuple):
    """One game or puzzle that moves the rating: when, what, against whom, the score (a
    named tuple: a replay makes a hundred thousand of them)."""

    at: float
    kind: str
    opponent: str
    opponent_rating: float
    opponent_deviation: float
    score: float


@dataclass(frozen=True)
class RatingPoint:
    """The rating after one event (the history's points, oldest first)."""

    event: RatedEvent
    before: Glicko
    after: Glicko


PROVISIONAL_DEVIATION = 110.0
"""Above this deviation a rating is shown as provisional, as Lichess marks its ratings: a
new player (350) who misses a puzzle rated 816 goes from 1,500 to about 880 at once."""


@dataclass(frozen=True)
class PlayerRating:
    """The current rating, its latest points (at most ``RECENT``, oldest first), what it is
    made of, and how many stored rows it left out (``skipped``: a time that is no date)."""

    current: Glicko
    history: tuple[RatingPoint, ...]
    games: int
    puzzles: int
    skipped: int = 0

    @property
    def rating(self) -> int:
        return round(self.current.rating)

    @property
    def deviation(self) -> int:
        return round(self.current.deviation)

    @property
    def provisional(self) -> bool:
        """Whether the next few results can still move the rating by hundreds (said beside it)."""
        return self.current.deviation > PROVISIONAL_DEVIATION

    def to_json(self) -> dict[str, int]:
        """What ``rating --json`` prints (``skipped``: stored rows left out as damaged)."""
        return {
            "rating": self.rating,
            "deviation": self.deviation,
            "games": self.games,
            "puzzles": self.puzzles,
            "skipped": self.skipped,
        }


def game_event(record: GameRecord) -> RatedEvent | None:
    """A stored game as a rated event (None: it does not count)."""
    level = record.level()
    result = record.person_result()
    if level is None or result is None or record.rules != STANDARD:
        return None
    rating = level_rating(level)
    if rating is None:
        return None
    return RatedEvent(record.played_at, GAME, level, rating, LEVEL_DEVIATION, GAME_SCORES[result])


def puzzle_event(at: float, puzzle_id: str, puzzle_rating: int, score: float) -> RatedEvent:
    """A puzzle attempt as a rated event."""
    return RatedEvent(at, PUZZLE, puzzle_id, puzzle_rating, PUZZLE_DEVIATION, score)


class RatingFold:
    """A replay under way: events folded in, in the order they happened (the caller's
    order; ``add`` refuses one older than the last), and the rating so far."""

    def __init__(self, start: Glicko | None = None):
        self.current = start if start is not None else Glicko()
        self.games = self.puzzles = self.skipped = 0
        self.last_at = -math.inf  # the time of the last event folded in
        self._recent: deque[RatingPoint] = deque(maxlen=RECENT)

    def add(self, events: Sequence[RatedEvent]) -> None:
        """Fold ``events`` in, oldest first; one whose time is not a date is skipped (counted).

        Raises:
            ValueError: an event older than one already folded in (the caller replays from
                the start instead).
        """
        rating, deviation, volatility = self.current.rating, self.current.deviation, self.current.volatility
        recent = self._recent
        points_from = len(events) - RECENT  # only the latest are kept as points: only they are made
        last_at, games, puzzles = self.last_at, self.games, self.puzzles
        try:
            for index, event in enumerate(events):
                at = event.at
                if not math.isfinite(at):
                    self.skipped += 1
                    continue
                if at < last_at:
                    raise ValueError("an event older than the rating's last one: replay from the start")
                before = (rating, deviation, volatility)
                rating, deviation, volatility = rate_period(
                    rating, deviation, volatility, ((event.opponent_rating, event.opponent_deviation, event.score),)
                )
                if index >= points_from:
                    recent.append(RatingPoint(event, Glicko(*before), Glicko(rating, deviation, volatility)))
                last_at = at
                if event.kind == GAME:
                    games += 1
                else:
                    puzzles += 1
        finally:  # what was folded in before a refused event stays folded in
            self.current = Glicko(rating, deviation, volatility)
            self.last_at, self.games, self.puzzles = last_at, games, puzzles

    def rating(self) -> PlayerRating:
        """The rating after the events folded in so far."""
        return PlayerRating(self.current, tuple(self._recent), self.games, self.puzzles, self.skipped)

    def rating_with(self, events: Sequence[RatedEvent]) -> PlayerRating:
        """The rating if ``events`` were folded in too; this fold is left as it is.

        Raises:
            ValueError: as ``add``.
        """
        other = copy.copy(self)
        other._recent = deque(self._recent, maxlen=RECENT)
        other.add(events)
        return other.rating()


def in_order(events: Iterable[RatedEvent]) -> list[RatedEvent]:
    """``events`` oldest first (one whose time is not a date first of all: it is only counted)."""
    return sorted(events, key=lambda e: e.at if math.isfinite(e.at) else -math.inf)


def replay(events: Iterable[RatedEvent], start: Glicko | None = None) -> PlayerRating:
    """The rating after ``events``, in the order they happened."""
    fold = RatingFold(start)
    fold.add(in_order(events))
    return fold.rating()


def player_rating(records: Sequence[GameRecord], attempts: Iterable[Attempt], *, skipped: int = 0) -> PlayerRating:
    """The player's rating from the stored games and the puzzle attempts (``skipped``: rows
    the reader already left out, counted with the events left out here)."""
    events = [e for e in (game_event(r) for r in records) if e is not None]
    events += [puzzle_event(a.tried_at, a.puzzle, a.puzzle_rating, a.score) for a in attempts]
    rated = replay(events)
    return replace(rated, skipped=rated.skipped + skipped)


def streak(attempts: Sequence[Attempt]) -> int:
    """Puzzles solved in a row (without a hint), counting back from the newest attempt."""
    count = 0
    for attempt in reversed(attempts):
        if attempt.score < 1.0:
            break
        count += 1
    return count


def change_text(before: float, after: float) -> str:
    """ "1,480 -> 1,512": a rating change as the game shows it, in the language's marks
    ("1.480 -> 1.512" in German)."""
    return f"{number(round(before))} -> {number(round(after))}"
