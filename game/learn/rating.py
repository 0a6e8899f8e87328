"""The player's rating: Glicko-2 over their games against the levels and their puzzles.

Every finished game on the standard board between the person and a preset level counts
(the level's rating from ``ai.ladder``: the measured 6x7 ladder), and so does every puzzle
attempt (the puzzle's rating; a hint makes it a miss).  Two-player and computer-vs-computer
games do not count, nor games on other boards (the ladder's ratings are 6x7's).  Each game
or puzzle is one Glicko-2 rating period, replayed in the order they happened, so games
imported from a file count like games played here.  A new player starts at the scale's
middle (1500) with the wide deviation of 350.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from ai.ladder import LEVEL_DEVIATION, level_rating
from game.i18n import number
from game.learn.glicko import Glicko, Result, rate
from game.records import GameRecord
from game.rules import STANDARD

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


@dataclass(frozen=True)
class RatedEvent:
    """One game or puzzle that moves the rating: when, what, against whom, the score."""

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
    """The current rating, its history and what it is made of."""

    current: Glicko
    history: tuple[RatingPoint, ...]
    games: int
    puzzles: int

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
        """What ``rating --json`` prints."""
        return {"rating": self.rating, "deviation": self.deviation, "games": self.games, "puzzles": self.puzzles}


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


def replay(events: Iterable[RatedEvent], start: Glicko | None = None) -> PlayerRating:
    """The rating after ``events``, in the order they happened."""
    current = start if start is not None else Glicko()
    history = []
    games = puzzles = 0
    for event in sorted(events, key=lambda e: e.at):
        after = rate(current, [Result(event.opponent_rating, event.opponent_deviation, event.score)])
        history.append(RatingPoint(event, current, after))
        current = after
        games += event.kind == GAME
        puzzles += event.kind == PUZZLE
    return PlayerRating(current, tuple(history), games, puzzles)


def player_rating(records: Sequence[GameRecord], attempts: Iterable[Attempt]) -> PlayerRating:
    """The player's rating from the stored games and the puzzle attempts."""
    events = [e for e in (game_event(r) for r in records) if e is not None]
    events += [puzzle_event(a.tried_at, a.puzzle, a.puzzle_rating, a.score) for a in attempts]
    return replay(events)


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
