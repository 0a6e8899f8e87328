"""Tournaments of many players: a round robin (every pair plays), or a gauntlet (the first
player, the base, against each of the others), played by the match runner and rated by
one fit of all the games (``game.bots.rating_list``).

    from game.bots.round_robin import TournamentPlan, play_tournament
    plan = TournamentPlan((PlayerChoice("easy"), PlayerChoice("medium"), PlayerChoice("hard")),
                          MatchPlan(Rules(), games=8, seed=1))
    outcome = play_tournament(plan, jobs=2)
    print(outcome.ratings(outcome.anchor()).leader())

The schedule
    Each pair plays the games a match between them would (``game.bots.runners.schedule``:
    the same seeded openings for every pair, each twice, once with each colour).  The
    pairs take turns a game pair at a time, round after round, so a tournament stopped
    early has about as many games in every pair; the tournament numbers its games in
    that order (the PGN's ``Round``).  A game depends only on its task, so the same seed
    gives the same games for any ``jobs``, on a Dask cluster too; a crashed, hanging or
    lying engine loses its game and the tournament goes on (``game.bots.runners``).

The anchor
    Ratings are differences: one player is held fixed.  By default it is the first
    player; when a preset of the ladder plays on the standard board, the first such
    preset, held at its rating on the ladder's scale (``ai.ladder``), so a new engine's
    rating reads on the same scale as the levels', the puzzles' and the player's.  In a
    gauntlet it is always the base: the others are rated against it only, since they
    never meet each other (the score over all opponents would mix in who they met).
"""

from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import enum
import functools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

import numpy as np

from ai.ladder import LEVEL_RATINGS
from game.bots.players import PlayerSpec, Side
from game.bots.rating_list import RatingList, fit_ratings, rating_text
from game.bots.runners import PROGRESS_SECONDS, GameTask, MatchPlan, Progress, play_games, schedule
from game.bots.statistics import GameRecord, MatchResult
from game.rules import STANDARD


class Format(enum.Enum):
    """Who plays whom."""

    ROUND_ROBIN = "round robin"
    GAUNTLET = "gauntlet"


@dataclass(frozen=True)
class TournamentPlan:
    """A tournament: its players (specs a worker builds, as a match's), how each pair
    plays (``match``: the rules, the games a pair, the move time, the openings' seed) and
    who meets whom."""

    players: tuple[PlayerSpec, ...]
    match: MatchPlan = MatchPlan()
    format: Format = Format.ROUND_ROBIN

    def __post_init__(self) -> None:
        if len(self.players) < 2:
            raise ValueError("a tournament needs at least two players")
        names = self.names
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"each player once: {', '.join(twice)} is named more than once")

    @functools.cached_property
    def names(self) -> tuple[str, ...]:
        """The players' names, in the order given."""
        return tuple(player.name for player in self.players)

    def pairs(self) -> list[tuple[int, int]]:
        """The pairs that play, (A, B) as player indices: every pair in a round robin, the
        base (player 0) and each other in a gauntlet."""
        count = len(self.players)
        if self.format is Format.GAUNTLET:
            return [(0, other) for other in range(1, count)]
        return [(a, b) for a in range(count) for b in range(a + 1, count)]

    def schedule(self) -> list[tuple[GameTask, int, int]]:
        """Every game in tournament order, numbered from 1: (the task, its pair's index in
        ``pairs``, its number in the pair's match)."""
        matches = [schedule(self.players[a], self.players[b], self.match) for a, b in self.pairs()]
        games: list[tuple[GameTask, int, int]] = []
        for start in range(0, self.match.games, 2):  # a game pair of each pair in turn
            for pair, tasks in enumerate(matches):
                for task in tasks[start : start + 2]:
                    games.append((dataclasses.replace(task, number=len(games) + 1), pair, task.number))
        return games

    @property
    def total(self) -> int:
        return len(self.pairs()) * self.match.games

    @functools.cached_property
    def _places(self) -> dict[int, tuple[int, int, int]]:
        pairs = self.pairs()
        return {task.number: (*pairs[pair], in_pair) for task, pair, in_pair in self.schedule()}

    def placed(self, record: GameRecord) -> TournamentGame:
        """A game's record (numbered in the tournament) with the pair that played it."""
        a, b, in_pair = self._places[record.number]
        return TournamentGame(a, b, record, in_pair)


@dataclass(frozen=True)
class TournamentGame:
    """A finished game: the pair that played it (player indices, A first named) and its
    record, numbered in the tournament."""

    a: int
    b: int
    record: GameRecord
    number_in_pair: int

    def name(self, names: tuple[str, ...], side: Side) -> str:
        return names[self.a] if side is Side.A else names[self.b]

    @property
    def first(self) -> int:
        """The index of the player who moved first."""
        return self.a if self.record.first is Side.A else self.b

    @property
    def second(self) -> int:
        return self.b if self.record.first is Side.A else self.a

    def points(self, side: Side) -> float:
        return self.record.score_of(side)


@dataclass(frozen=True)
class Anchor:
    """The player held fixed in the fit, its rating, and where that comes from."""

    player: int
    elo: float
    ladder: bool  # the preset's rating on the ladder's scale (ai.ladder)


@dataclass(frozen=True)
class TournamentOutcome:
    """A finished (or stopped) tournament: its plan, every game in tournament order, and
    what stopped it short."""

    plan: TournamentPlan
    games: tuple[TournamentGame, ...]
    interrupted: bool = False
    unplayed: tuple[int, ...] = ()  # tournament numbers of games given up (their workers died)
    notices: tuple[str, ...] = ()
    error: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        return self.plan.names

    def pair_results(self) -> list[MatchResult]:
        """Each pair's games as a match (A the first named), numbered in the pair, so game
        pairs are 2k-1, 2k as in a match."""
        by_pair: dict[tuple[int, int], list[GameRecord]] = {pair: [] for pair in self.plan.pairs()}
        for game in self.games:
            by_pair[(game.a, game.b)].append(dataclasses.replace(game.record, number=game.number_in_pair))
        names, match = self.names, self.plan.match
        return [
            MatchResult(names[a], names[b], match.rules, match.movetime, tuple(sorted(g, key=lambda r: r.number)))
            for (a, b), g in by_pair.items()
        ]

    def score_table(self) -> tuple[np.ndarray, np.ndarray]:
        """``(points, games)``: ``points[i, j]`` is i's points against j, ``games[i, j]``
        the games they played."""
        size = len(self.names)
        points, games = np.zeros((size, size)), np.zeros((size, size))
        for game in self.games:
            points[game.a, game.b] += game.points(Side.A)
            points[game.b, game.a] += game.points(Side.B)
            games[game.a, game.b] += 1
            games[game.b, game.a] += 1
        return points, games

    def anchor(self, player: int | None = None, elo: float | None = None) -> Anchor:
        """The anchor of the fit (see the module): ``player`` (default: the base of a
        gauntlet, else the first preset of the ladder on the standard board, else the
        first player) held at ``elo`` (default: its ladder rating if it is a preset on the
        standard board, else 0)."""
        ladder = {name.lower(): rating for name, rating in LEVEL_RATINGS.items()}
        on_ladder = [i for i, name in enumerate(self.names) if name.lower() in ladder]
        if self.plan.match.rules != STANDARD:
            on_ladder = []  # the ladder's ratings are the standard board's
        if player is None:
            player = 0 if self.plan.format is Format.GAUNTLET or not on_ladder else on_ladder[0]
        if elo is not None:
            return Anchor(player, elo, False)
        if player in on_ladder:
            return Anchor(player, float(ladder[self.names[player].lower()]), True)
        return Anchor(player, 0.0, False)

    def ratings(self, anchor: Anchor, *, detail: bool = True) -> RatingList:
        """The rating list of the games played (``game.bots.rating_list``); ``detail``
        False: the ratings alone, without intervals and LOS (a progress line's leader)."""
        points, games = self.score_table()
        names, held, elo = self.names, anchor.player, anchor.elo
        return fit_ratings(names, points, games, anchor=held, anchor_elo=elo, with_intervals=detail, with_los=detail)


class TournamentProgress(Progress):
    """The tournament so far on one stderr line: games done of all, the current leader."""

    def __init__(self, plan: TournamentPlan, stream: TextIO | None = None):
        super().__init__(plan.total, stream)
        self.plan = plan
        self._leader = ""
        self._fitted = (0, -PROGRESS_SECONDS)  # games and time of the last fit

    def line(self) -> str:
        with self._lock:
            records = sorted(self.records.values(), key=lambda record: record.number)
        now = time.perf_counter()
        if records and len(records) != self._fitted[0] and now - self._fitted[1] >= PROGRESS_SECONDS:
            outcome = TournamentOutcome(self.plan, tuple(self.plan.placed(record) for record in records))
            ratings = outcome.ratings(outcome.anchor(), detail=False)
            best = ratings.ratings[ratings.ranked()[0]]
            self._leader = f", leader {best.name} ({rating_text(best.elo)})"
            self._fitted = (len(records), now)
        return f"{len(records)}/{self.total} games{self._leader}, {now - self.started:.0f} s"


def play_tournament(
    plan: TournamentPlan,
    *,
    jobs: int | None = None,
    executor: cf.Executor | None = None,
    on_game: Callable[[TournamentGame], None] | None = None,
    progress: Progress | None = None,
    notice: Callable[[str], None] | None = None,
    stop_requested: Callable[[], bool] | None = None,
) -> TournamentOutcome:
    """Play ``plan``'s games with ``game.bots.runners.play_games`` (``jobs`` worker
    processes, or ``executor``; Ctrl+C and ``stop_requested`` stop it with the games
    finished so far).  ``on_game`` hears of each game as it finishes."""
    scheduled = plan.schedule()
    played = play_games(
        [task for task, _, _ in scheduled],
        jobs=jobs,
        executor=executor,
        on_game=(lambda record: on_game(plan.placed(record))) if on_game is not None else None,
        progress=progress,
        notice=notice,
        stop_requested=stop_requested,
    )
    games = tuple(plan.placed(record) for record in played.records)
    return TournamentOutcome(plan, games, played.interrupted, played.unplayed, played.notices, played.error)
