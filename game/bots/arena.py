"""Headless matches: balanced openings, one game between two players, Elo, SPRT, and the
parallel runner that plays a match's games in worker processes (or on a Dask cluster).

    from game.bots.arena import LevelSpec, play_match
    outcome = play_match(LevelSpec("Hard", PRESETS["Hard"]), LevelSpec("Easy", PRESETS["Easy"]),
                         Rules(), games=20, jobs=2)
    print(outcome.result.score)

A front end above the AI, beside ``game.bots.engine``: only ``ai.*`` and the headless rules
(``game.rules``, ``game.board``, ``game.notation``) are imported here; ``game.bots.tournament``
adds external engines, PGN and the report on top, and ``python -m lab.strength`` plays
its ladders with it.

Games and players
    A player has a ``name``, ``choose(board, seconds) -> move`` (raising ``PlayerFailed``
    to lose the game) and ``close()``.  A *player spec* is a small picklable, hashable
    value with a ``name`` that builds a player when called: a worker process receives the
    spec, builds the player once and keeps it for its later games (one engine process per
    running game).

The schedule
    Game ``n`` (1-based) plays opening ``(n - 1) // 2`` of the seeded list, A moving first
    in odd games: every opening is played as a *game pair*, once with each colour.  A game
    depends only on its task (opening, colours, rules, seeded players), so the same seed
    gives the same games for any number of workers, in any order of finishing; results
    are put back in game order.

A worker that dies
    If a worker process dies mid-match (killed, out of memory), every game it or its
    pool-mates had not finished is replayed from its start in a fresh pool (the games are
    seeded: the replay is the same game).  This is said once per death on the notice
    stream.  A game that has been in ``MAX_REPLAYS`` + 1 pools that died is not played
    again: it is reported as unplayed and left out of the score, and the match finishes.
    On a Dask cluster the scheduler itself reruns a lost worker's tasks; a cluster left
    without workers, or whose scheduler is gone, stops the match within seconds with the
    reason (``game.bots.cluster``).
"""

from __future__ import annotations

import atexit
import concurrent.futures as cf
import enum
import functools
import math
import multiprocessing
import os
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TextIO

from ai.levels import Level
from ai.perfect import PerfectPlayer
from ai.player import choose_move
from ai.search import search
from game.board import Board, Termination
from game.bots.cluster import Cluster
from game.notation import format_moves, parse_moves
from game.rules import MAX, MIN, STANDARD, Rules

DEFAULT_MOVETIME_MS = 1000
Z_95 = 1.959964
MAX_REPLAYS = 2
"""How many times a game whose worker died is played again before it is given up."""
PROGRESS_SECONDS = 1.0
"""The progress line is redrawn at least this often."""
STOP_SECONDS = 3.0
"""On Ctrl+C or at the end, how long a worker gets to close its engines before it is killed."""


class Failure(enum.Enum):
    """How a player can lose a game without the board deciding it."""

    ILLEGAL_MOVE = "illegal move"
    CRASH = "crash"
    TIME = "time"


class PlayerFailed(Exception):
    """A player could not give a legal move in time; it loses the game."""

    def __init__(self, failure: Failure, detail: str):
        super().__init__(f"{failure.value}: {detail}")
        self.failure = failure
        self.detail = detail


class Player(Protocol):
    """Anything that can play moves in a match."""

    name: str

    def choose(self, board: Board, seconds: float) -> int:
        """Return a move for the side to move within ``seconds`` (raises ``PlayerFailed``)."""
        ...

    def close(self) -> None:
        """Free what the player holds (an engine process)."""
        ...


class PlayerSpec(Protocol, Hashable):
    """A picklable, hashable recipe for a player: ``spec()`` builds it, ``spec.name`` names it."""

    @property
    def name(self) -> str: ...

    def __call__(self) -> Player: ...


# -- a level as a player ----------------------------------------------------------------


class LevelChooser:
    """A level playing through ``ai.player.choose_move`` with its own budget (no move clock).

    ``seed + ply`` seeds a noisy level's judgement, so the same position in the same game
    gets the same move on every run.
    """

    def __init__(self, name: str, level: Level, *, seed: int = 0):
        self.name = name
        self.level = level
        self.seed = seed
        self.perfect = PerfectPlayer() if level.perfect else None

    def choose(self, board: Board, seconds: float) -> int:
        answer = choose_move(
            self.level,
            board.grid,
            board.rules,
            board.to_move,
            seed=self.seed + board.ply,
            perfect_player=self.perfect,
        )
        if answer.move is None:
            raise PlayerFailed(Failure.CRASH, f"{self.name} found no move")
        return answer.move

    def close(self) -> None:
        pass


@dataclass(frozen=True)
class LevelSpec:
    """A ``LevelChooser`` to build in a worker: its name, level and seed."""

    name: str
    level: Level
    seed: int = 0

    def __call__(self) -> LevelChooser:
        return LevelChooser(self.name, self.level, seed=self.seed)


# -- openings -------------------------------------------------------------------------

STANDARD_OPENINGS = (
    "344", "434", "244", "334", "343", "424", "433", "353", "355", "364", "425", "242",
    "325", "332", "363", "365", "225", "263", "313", "315", "322", "362", "366", "375",
    "213", "266", "273", "275", "312", "316", "372", "411", "113", "311", "112", "211",
)  # fmt: skip
"""Three-ply openings of the standard board whose exact value is a draw, one of each
mirror pair, nearest the centre first.  Each was checked by minimax over win/draw/loss
down to 8 plies, where the 8-ply book of ``bitbully-databases`` (``ai.book``) gives the
exact value.  All have the same length, so no game can repeat another's from a shorter
opening; each is played with both colours, so a slight edge cancels out."""


BALANCE_STEP = 20
"""Heuristic values this close count as equally even when openings are ranked."""


def openings(rules: Rules, count: int, *, seed: int | None = None) -> list[str]:
    """``count`` roughly balanced openings as move strings (deterministic).

    The standard board has its checked list; other rules take the two-ply openings
    (one of each mirror pair) whose shallow heuristic value is nearest to even, ties
    broken by the move string.  With more games than openings the list goes round again.
    ``seed`` shuffles the list first (the same seed, the same openings).
    """
    pool = list(opening_pool(rules))
    if seed is not None:
        random.Random(seed).shuffle(pool)
    return [pool[i % len(pool)] for i in range(max(0, count))]


def opening_pool(rules: Rules) -> tuple[str, ...]:
    """Every opening ``openings`` draws from for ``rules``, in its order."""
    return STANDARD_OPENINGS if rules == STANDARD else _balanced_openings(rules)


@functools.lru_cache(maxsize=16)
def _balanced_openings(rules: Rules) -> tuple[str, ...]:
    depth = 4 if rules.gravity else 2  # without gravity every cell is a move: keep it cheap

    def balance(board: Board) -> int:
        return abs(search(board.grid, rules, depth, to_move=board.to_move).value)

    def children(board: Board) -> list[Board]:
        result = []
        for move in board.legal_moves():
            child = board.copy()
            child.push(move)
            if not child.is_game_over():
                result.append(child)
        return result

    def mirrored(board: Board) -> str:
        flipped = Board(rules)
        for move in board.moves:
            row, col = divmod(move, rules.cols) if not rules.gravity else (0, move)
            col = rules.cols - 1 - col
            flipped.push(col if rules.gravity else row * rules.cols + col)
        return flipped.moves_string()

    parents = children(Board(rules))
    if not rules.gravity:  # every cell is a move: grow only from the most even first moves
        parents = sorted(parents, key=lambda b: (balance(b), b.moves_string()))[:4]

    def off_centre(board: Board) -> float:
        total = 0.0
        for move in board.moves:
            row, col = divmod(move, rules.cols) if not rules.gravity else ((rules.rows - 1) / 2, move)
            total += abs(col - (rules.cols - 1) / 2) + abs(row - (rules.rows - 1) / 2)
        return total

    # even first (in steps of BALANCE_STEP heuristic points), then nearest the centre
    ranked = sorted(
        (balance(b) // BALANCE_STEP, off_centre(b), b.moves_string(), mirrored(b)) for p in parents for b in children(p)
    )
    chosen: list[str] = []
    taken: set[str] = set()
    for _, _, moves, mirror in ranked:
        if moves not in taken:
            chosen.append(moves)
            taken.update((moves, mirror))
    return tuple(chosen) or ("",)


# -- games ----------------------------------------------------------------------------


class Side(enum.Enum):
    """Which player of the match: the first named (A) or the second (B)."""

    A = "A"
    B = "B"


@dataclass(frozen=True)
class GameRecord:
    """One finished game of a match."""

    number: int
    opening: str
    first: Side  # who played the first move of the game (the opening's first disc too)
    moves: tuple[int, ...]  # all moves from the empty board, the opening included
    winner: Side | None  # None: a draw
    termination: Termination | Failure  # how the board ended it, or how a player failed
    failed_side: Side | None = None  # the side that failed (lost by ``termination``)
    detail: str = ""  # what the failure was, in words
    seconds: dict[Side, float] = field(default_factory=dict)  # time per side for the moves it made
    move_counts: dict[Side, int] = field(default_factory=dict)  # moves each side made (opening excluded)
    move_seconds: tuple[float, ...] = ()  # the time of each move after the opening, in order

    @property
    def failure(self) -> Failure | None:
        """The failure that decided the game, or None if the board did."""
        return self.termination if isinstance(self.termination, Failure) else None

    def score_of(self, side: Side) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss of ``side``."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner is side else 0.0

    def side_at(self, ply: int) -> Side:
        """The side that played the disc at ``ply`` (0 = the first disc of the game)."""
        return self.first if ply % 2 == 0 else other(self.first)

    def moves_string(self, rules: Rules) -> str:
        """The game in the project's notation (``analyze`` replays it)."""
        return format_moves(list(self.moves), rules)

    def result_text(self) -> str:
        """``1-0`` first player won, ``0-1`` second won, ``1/2-1/2`` draw (PGN style)."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is self.first else "0-1"


def other(side: Side) -> Side:
    """The opponent's side."""
    return Side.B if side is Side.A else Side.A


def play_game(
    player_a: Player,
    player_b: Player,
    opening: str,
    rules: Rules,
    *,
    a_first: bool = True,
    movetime: float = DEFAULT_MOVETIME_MS / 1000,
    number: int = 1,
) -> GameRecord:
    """Play one game from ``opening`` (a move string) to the end.

    ``a_first``: A plays the first move of the game; the opening's moves are played for
    both sides as given, then the side to move thinks.  ``movetime`` is seconds per move.
    A player that fails (``PlayerFailed``) loses the game.
    """
    board = Board(rules)
    for move in parse_moves(opening, rules):
        board.push(move)
    first = Side.A if a_first else Side.B
    players = {Side.A: player_a, Side.B: player_b}
    side_of = {MAX: first, MIN: other(first)}
    seconds = {Side.A: 0.0, Side.B: 0.0}
    counts = {Side.A: 0, Side.B: 0}
    times: list[float] = []

    def record(
        winner: Side | None, termination: Termination | Failure, failed_side: Side | None = None, detail: str = ""
    ) -> GameRecord:
        return GameRecord(
            number,
            opening,
            first,
            tuple(board.moves),
            winner,
            termination,
            failed_side,
            detail,
            dict(seconds),
            dict(counts),
            tuple(times),
        )

    while True:
        outcome = board.outcome()
        if outcome is not None:
            winner = None if outcome.winner is None else side_of[outcome.winner]
            return record(winner, outcome.termination)
        side = side_of[board.to_move]
        started = time.perf_counter()
        try:
            move = players[side].choose(board.copy(), movetime)
            if not board.is_legal(move):
                raise PlayerFailed(Failure.ILLEGAL_MOVE, f"move {move} is not legal here")
        except PlayerFailed as failed:  # its thinking time is not counted: no move came of it
            return record(other(side), failed.failure, side, failed.detail)
        spent = time.perf_counter() - started
        seconds[side] += spent
        counts[side] += 1
        times.append(spent)
        board.push(move)


# -- results and Elo ------------------------------------------------------------------


@dataclass(frozen=True)
class MatchResult:
    """A whole match, from A's side: wins, draws, losses, Elo and every game."""

    name_a: str
    name_b: str
    rules: Rules
    movetime: float
    games: tuple[GameRecord, ...]

    @property
    def wins(self) -> int:
        return sum(1 for g in self.games if g.winner is Side.A)

    @property
    def losses(self) -> int:
        return sum(1 for g in self.games if g.winner is Side.B)

    @property
    def draws(self) -> int:
        return sum(1 for g in self.games if g.winner is None)

    @property
    def score(self) -> float:
        """A's points (win 1, draw 1/2) over the games played, 0..1."""
        return (self.wins + self.draws / 2) / len(self.games) if self.games else 0.5

    @property
    def elo(self) -> tuple[float, float]:
        """A's Elo difference over B and its 95% error bar."""
        return elo(self.score, len(self.games), draws=self.draws)

    def failures(self, side: Side) -> dict[Failure, int]:
        """How many games ``side`` lost by each kind of failure."""
        counted = {failure: 0 for failure in Failure}
        for game in self.games:
            failure = game.failure
            if game.failed_side is side and failure is not None:
                counted[failure] += 1
        return counted

    def mean_move_seconds(self, side: Side) -> float:
        moves = sum(g.move_counts.get(side, 0) for g in self.games)
        spent = sum(g.seconds.get(side, 0.0) for g in self.games)
        return spent / moves if moves else 0.0


def elo(score: float, games: int, *, draws: int = 0) -> tuple[float, float]:
    """The Elo difference a score (0..1 over ``games``) means, with a 95% error bar.

    The error comes from the per-game standard deviation (draws make it smaller); it is
    the half width of the interval the score's 95% range maps to.  A score of 0 or 1 has
    no finite Elo: it returns -inf/+inf with an infinite error.
    """
    if games <= 0:
        return 0.0, math.inf
    if score <= 0.0 or score >= 1.0:
        return (math.inf if score >= 1.0 else -math.inf), math.inf
    draw_share = draws / games
    variance = max(0.0, score * (1 - score) - draw_share / 4)
    return _elo_with_bar(score, math.sqrt(variance / games))


def _elo_with_bar(score: float, standard_error: float) -> tuple[float, float]:
    if score <= 0.0 or score >= 1.0:
        return (math.inf if score >= 1.0 else -math.inf), math.inf
    low, high = score - Z_95 * standard_error, score + Z_95 * standard_error
    if low <= 0.0 or high >= 1.0:
        return elo_of(score), math.inf
    return elo_of(score), (elo_of(high) - elo_of(low)) / 2


def elo_of(score: float) -> float:
    """The logistic Elo difference that gives an expected ``score`` (0 < score < 1)."""
    return -400 * math.log10(1 / score - 1)


def score_of_elo(diff: float) -> float:
    """The expected score of a player ``diff`` Elo stronger (logistic)."""
    return 1 / (1 + 10 ** (-diff / 400))


def fmt_elo(diff: float, error: float) -> str:
    """``+123 +/- 45``; infinite values as ``+inf`` and ``n/a``."""
    shown = f"{round(diff):+d}" if math.isfinite(diff) else ("+inf" if diff > 0 else "-inf")
    bar = f"{error:.0f}" if math.isfinite(error) else "n/a"
    return f"{shown} +/- {bar}"


# -- SPRT -----------------------------------------------------------------------------


class Verdict(enum.Enum):
    """Where a sequential test stands."""

    H0 = "H0 accepted"  # not the gain hoped for: elo <= elo0 is the better bet
    H1 = "H1 accepted"  # the gain is there: elo >= elo1
    CONTINUE = "undecided"


PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""A's mean score over a game pair: the five outcomes of the pentanomial model."""
PAIR_PRIOR = (0.25, 0.5, 0.5, 0.5, 0.25)
"""Pseudo-counts added to the pair counts before the LLR: without them the first pairs
(all draws, say) would have no variance and cross a bound at once; after a few dozen
pairs they no longer matter."""


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test on game pairs, as fishtest runs it.

    The model is *pentanomial*: each opening is played as a game pair (once with each
    colour) and the unit of evidence is the pair's score, 0, 1/4, 1/2, 3/4 or 1.  The two
    games of a pair share an opening, so they are not independent (a lopsided opening
    gives one side the win in both colours' games or in neither); the trinomial model
    counts them as independent and misjudges the variance, the pentanomial model measures
    the variance of pairs as they come.  This is why fishtest moved to it.  The LLR is
    the generalised SPRT's normal approximation (Van den Bergh), with logistic Elo::

        LLR = N (s1 - s0) (2 m - s0 - s1) / (2 v)

    where N is the number of pairs, m and v the mean and variance of the pair score,
    and s0, s1 the expected scores at ``elo0`` and ``elo1``.  The test accepts H1 when
    LLR >= log((1 - beta) / alpha) and H0 when LLR <= log(beta / (1 - alpha)).
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"SPRT needs elo0 < elo1, not {self.elo0:g} and {self.elo1:g}")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ValueError(f"SPRT {name} must be between 0 and 0.5, not {value:g}")

    @property
    def bounds(self) -> tuple[float, float]:
        """The LLR bounds (lower: accept H0, upper: accept H1)."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, pentanomial: Sequence[int]) -> float:
        """The log-likelihood ratio of H1 over H0 after these pair counts (see the class)."""
        pairs = sum(pentanomial)
        if pairs == 0:
            return 0.0
        # two pseudo-pairs spread over the outcomes: a short run's variance is never 0
        counts = [c + prior for c, prior in zip(pentanomial, PAIR_PRIOR)]
        total = sum(counts)
        mean = sum(c * x for c, x in zip(counts, PAIR_SCORES)) / total
        variance = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES)) / total
        s0, s1 = score_of_elo(self.elo0), score_of_elo(self.elo1)
        return pairs * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    def verdict(self, pentanomial: Sequence[int]) -> Verdict:
        value = self.llr(pentanomial)
        lower, upper = self.bounds
        if value >= upper:
            return Verdict.H1
        if value <= lower:
            return Verdict.H0
        return Verdict.CONTINUE


def pentanomial(games: Sequence[GameRecord]) -> list[int]:
    """Counts of A's pair scores 0, 1/4, 1/2, 3/4, 1 over complete pairs (games 2k-1, 2k)."""
    by_number = {g.number: g for g in games}
    counts = [0] * 5
    for number in sorted(by_number):
        if number % 2 == 1 and number + 1 in by_number:
            points = by_number[number].score_of(Side.A) + by_number[number + 1].score_of(Side.A)
            counts[round(points * 2)] += 1
    return counts


def pair_elo(pentanomial_counts: Sequence[int]) -> tuple[float, float]:
    """A's Elo and 95% error bar from pair counts (the pairs' own variance)."""
    pairs = sum(pentanomial_counts)
    if pairs == 0:
        return 0.0, math.inf
    mean = sum(c * x for c, x in zip(pentanomial_counts, PAIR_SCORES)) / pairs
    variance = sum(c * (x - mean) ** 2 for c, x in zip(pentanomial_counts, PAIR_SCORES)) / pairs
    return _elo_with_bar(mean, math.sqrt(variance / pairs))


@dataclass(frozen=True)
class SprtOutcome:
    """Where the test stopped: its verdict, LLR and the pairs it counted."""

    test: Sprt
    verdict: Verdict
    llr: float
    pentanomial: tuple[int, ...]

    @property
    def games(self) -> int:
        return 2 * sum(self.pentanomial)

    def lines(self) -> list[str]:
        """The fishtest-style summary."""
        lower, upper = self.test.bounds
        t = self.test
        return [
            f"SPRT: elo0 {t.elo0:g}, elo1 {t.elo1:g}, alpha {t.alpha:g}, beta {t.beta:g} "
            "(pentanomial on game pairs, logistic Elo)",
            f"LLR: {self.llr:.2f} ({lower:.2f}, {upper:.2f}) [{t.elo0:g}, {t.elo1:g}]: {self.verdict.value}",
            f"Games: {self.games} ({self.games // 2} pairs)  Ptnml(0-2): {', '.join(map(str, self.pentanomial))}",
            f"Elo (pairs): {fmt_elo(*pair_elo(self.pentanomial))} (95%)",
        ]


def sprt_prefix(test: Sprt, records: dict[int, GameRecord]) -> SprtOutcome:
    """Run ``test`` over the complete pairs from game 1 on, in order, stopping at the
    first pair where a bound is crossed (so the answer is the same for any finishing
    order of the games)."""
    counts = [0] * 5
    value = 0.0
    number = 1
    while number in records and number + 1 in records:
        points = records[number].score_of(Side.A) + records[number + 1].score_of(Side.A)
        counts[round(points * 2)] += 1
        number += 2
        value = test.llr(counts)
        verdict = test.verdict(counts)
        if verdict is not Verdict.CONTINUE:
            return SprtOutcome(test, verdict, value, tuple(counts))
    return SprtOutcome(test, Verdict.CONTINUE, value, tuple(counts))


# -- the schedule and the worker side ---------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one game of a match."""

    number: int
    opening: str
    a_first: bool
    rules: Rules
    movetime: float
    player_a: PlayerSpec
    player_b: PlayerSpec


def schedule(
    player_a: PlayerSpec, player_b: PlayerSpec, rules: Rules, *, games: int, movetime: float, seed: int | None
) -> list[GameTask]:
    """The match's games in order: each opening twice (a game pair), A first in the odd game."""
    pool = openings(rules, len(opening_pool(rules)), seed=seed)
    return [
        GameTask(n + 1, pool[n // 2 % len(pool)], n % 2 == 0, rules, movetime, player_a, player_b) for n in range(games)
    ]


_players: dict[tuple[int, Side, PlayerSpec], Player] = {}
_players_lock = threading.Lock()


def _player(spec: PlayerSpec, side: Side) -> Player:
    """This thread's player for ``spec`` on ``side``, built on first use and kept."""
    key = (threading.get_ident(), side, spec)
    with _players_lock:
        player = _players.get(key)
        if player is None:
            player = _players[key] = spec()
    return player


def close_players() -> None:
    """Close every player this process built for games (their engines exit)."""
    with _players_lock:
        players = list(_players.values())
        _players.clear()
    for player in players:
        try:
            player.close()
        except Exception as problem:  # closing must go on for the others
            print(f"cannot close {player.name}: {problem}", file=sys.stderr)


atexit.register(close_players)


def play_task(task: GameTask) -> GameRecord:
    """Play one scheduled game with this process's (or thread's) players."""
    a = _player(task.player_a, Side.A)
    b = _player(task.player_b, Side.B)
    return play_game(a, b, task.opening, task.rules, a_first=task.a_first, movetime=task.movetime, number=task.number)


GROUPS_ENV = "CONNECT4_PROCESS_GROUPS"
"""Names a folder where a pool worker lists the process groups it starts (an external
engine's), one empty file per group id, taken out when the group is killed.  A worker
that dies cannot kill its engines; the runner kills the groups still listed."""


def note_group(group: int) -> None:
    """List a process group this process started (see ``GROUPS_ENV``)."""
    folder = os.environ.get(GROUPS_ENV)
    if folder:
        try:
            open(os.path.join(folder, str(group)), "w").close()
        except OSError:
            pass


def forget_group(group: int) -> None:
    """Take a killed process group off the list."""
    folder = os.environ.get(GROUPS_ENV)
    if folder:
        try:
            os.unlink(os.path.join(folder, str(group)))
        except OSError:
            pass


def _kill_listed_groups(folder: str) -> None:
    for name in os.listdir(folder):
        if name.isdigit() and hasattr(os, "killpg"):
            try:
                os.killpg(int(name), signal.SIGKILL)
            except OSError:
                pass
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


def _worker_start() -> None:
    """A pool worker: leave Ctrl+C to the parent; on SIGTERM close the engines and go."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def stop(signum: int, frame: object) -> None:
        close_players()
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), name="parent-watch", daemon=True).start()
    from multiprocessing import util

    util.Finalize(None, close_players, exitpriority=100)  # a normal pool shutdown


PARENT_POLL_SECONDS = 0.5


def _exit_when_orphaned(parent: int) -> None:
    """A pool worker whose match process died without shutting the pool down (SIGKILL, a
    crash) is handed to another parent: close the engines and go, not play on alone."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    close_players()
    os._exit(0)


# -- the runner -------------------------------------------------------------------------


def default_jobs(games: int) -> int:
    """One worker per core, at most one per game."""
    return max(1, min(os.cpu_count() or 1, games))


class Progress:
    """The match so far on one stderr line: games done, A's score, Elo with its bar."""

    def __init__(self, total: int, stream: TextIO | None = None, *, sprt: Sprt | None = None):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.sprt = sprt
        self.started = time.perf_counter()
        self.records: dict[int, GameRecord] = {}
        self._lock = threading.Lock()
        self._shown = False

    def add(self, record: GameRecord) -> None:
        with self._lock:
            self.records[record.number] = record

    def line(self) -> str:
        with self._lock:
            games = list(self.records.values())
        done = len(games)
        points = sum(g.score_of(Side.A) for g in games)
        draws = sum(1 for g in games if g.winner is None)
        text = f"{done}/{self.total} games, A {points:g} points"
        if done:
            text += f", Elo {fmt_elo(*elo(points / done, done, draws=draws))}"
        if self.sprt is not None:
            text += f", LLR {self.sprt.llr(pentanomial(games)):.2f}"
        return text + f", {time.perf_counter() - self.started:.0f} s"

    def show(self) -> None:
        """Redraw the line (``\\r``, no newline)."""
        self.stream.write("\r" + self.line() + "   ")
        self.stream.flush()
        self._shown = True

    def finish(self) -> None:
        self.show()
        self.stream.write("\n")
        self.stream.flush()


@dataclass(frozen=True)
class MatchOutcome:
    """A finished (or stopped) match: the result, the SPRT verdict, what was not played."""

    result: MatchResult
    sprt: SprtOutcome | None = None
    interrupted: bool = False
    unplayed: tuple[int, ...] = ()  # games given up after their workers died too often
    notices: tuple[str, ...] = ()
    error: str | None = None  # why the match stopped early, if a game could not be played


class MatchStopped(Exception):
    """A game could not be played at all (not a player's failure): the match stops."""


def play_match(
    player_a: PlayerSpec,
    player_b: PlayerSpec,
    rules: Rules = STANDARD,
    *,
    games: int = 20,
    movetime: float = DEFAULT_MOVETIME_MS / 1000,
    seed: int | None = None,
    jobs: int | None = None,
    executor: cf.Executor | None = None,
    sprt: Sprt | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
    progress: Progress | None = None,
    notice: Callable[[str], None] | None = None,
    stop_requested: Callable[[], bool] | None = None,
) -> MatchOutcome:
    """Play a match, its games in parallel: ``jobs`` worker processes (default one per
    core, at most ``games``), or ``executor`` (a Dask cluster's, say) when given.

    ``jobs=1`` without an executor plays in this process.  ``on_game`` hears of each
    game as it finishes (in finishing order); ``progress`` is redrawn at least once a
    second; ``notice`` hears of dead workers and replays.  With ``sprt`` the games are
    played as pairs until the test decides (``games`` is the most it may play).  Ctrl+C
    stops the match: the outcome says ``interrupted`` and holds the games finished.
    ``stop_requested`` is asked about once a second: True stops the match as Ctrl+C does
    (the match command's signal handler sets it; it also stops a match whose
    KeyboardInterrupt went astray).
    """
    tasks = schedule(player_a, player_b, rules, games=games, movetime=movetime, seed=seed)
    records: dict[int, GameRecord] = {}
    say = notice or (lambda text: print(text, file=sys.stderr))
    said: list[str] = []

    def tell(text: str) -> None:
        said.append(text)
        say(text)

    def decided() -> bool:
        if stop_requested is not None and stop_requested():
            raise KeyboardInterrupt  # stopped: the games finished so far are the outcome
        return sprt is not None and sprt_prefix(sprt, records).verdict is not Verdict.CONTINUE

    def finished(record: GameRecord) -> None:
        records[record.number] = record
        if progress is not None:
            progress.add(record)
        if on_game is not None:
            on_game(record)

    workers = jobs if jobs is not None else default_jobs(games)
    interrupted = False
    error: str | None = None
    unplayed: list[int] = []
    try:
        if executor is None and workers <= 1:
            _play_here(tasks, finished, decided, progress)
        else:
            unplayed = _play_in_pool(tasks, workers, executor, finished, decided, progress, tell)
    except KeyboardInterrupt:
        interrupted = True
    except MatchStopped as problem:
        error = str(problem)
    if progress is not None:
        progress.finish()
    sprt_outcome = sprt_prefix(sprt, records) if sprt is not None else None
    kept = sorted(records.values(), key=lambda g: g.number)
    if sprt_outcome is not None and sprt_outcome.verdict is not Verdict.CONTINUE:
        kept = [g for g in kept if g.number <= sprt_outcome.games]  # the same stop for any finishing order
    result = MatchResult(player_a.name, player_b.name, rules, movetime, tuple(kept))
    return MatchOutcome(result, sprt_outcome, interrupted, tuple(unplayed), tuple(said), error)


def _play_here(
    tasks: list[GameTask],
    finished: Callable[[GameRecord], None],
    decided: Callable[[], bool],
    progress: Progress | None,
) -> None:
    """Play the games one by one in this process; a ticker thread keeps the progress line fresh."""
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(PROGRESS_SECONDS):
            if progress is not None:
                progress.show()

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        if progress is not None:
            progress.show()
        for task in tasks:
            try:
                record = play_task(task)
            except Exception as problem:
                raise MatchStopped(f"game {task.number} could not be played: {problem}") from problem
            finished(record)
            if decided():
                break
    finally:
        stop.set()
        ticker.join(PROGRESS_SECONDS + 1)
        close_players()


def _new_pool(workers: int) -> cf.ProcessPoolExecutor:
    # fork starts a worker in milliseconds with the levels' tables already loaded; it is
    # safe on Linux only (macOS and Windows spawn, importing the game afresh)
    method = "fork" if sys.platform.startswith("linux") else None
    return cf.ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method), initializer=_worker_start)


def _play_in_pool(
    tasks: list[GameTask],
    workers: int,
    executor: cf.Executor | None,
    finished: Callable[[GameRecord], None],
    decided: Callable[[], bool],
    progress: Progress | None,
    tell: Callable[[str], None],
) -> list[int]:
    """Play the games on ``executor`` or a pool of ``workers`` processes; returns the
    games given up after their workers died (see the module's rule).  A Dask cluster's
    executor (``game.bots.cluster``) is asked about its health once a second: a cluster with
    no worker, or gone, stops the match (``MatchStopped`` says why)."""
    own = executor is None
    groups = tempfile.mkdtemp(prefix="connect4-groups-") if own else None
    saved_env = os.environ.get(GROUPS_ENV)
    if groups is not None:
        os.environ[GROUPS_ENV] = groups  # the workers inherit it
    pool: cf.Executor = executor if executor is not None else _new_pool(workers)
    window = 2 * workers if own else 64  # games submitted ahead of the finished ones
    cluster = pool if isinstance(pool, Cluster) else None  # asked about its health once a second
    asked = 0.0
    waiting: deque[GameTask] = deque(tasks)
    running: dict[cf.Future[GameRecord], GameTask] = {}
    deaths: dict[int, int] = {}
    given_up: list[int] = []

    def give_up_or_replay(lost: list[GameTask]) -> list[GameTask]:
        again: list[GameTask] = []
        for task in sorted(lost, key=lambda t: t.number):
            deaths[task.number] = deaths.get(task.number, 0) + 1
            if deaths[task.number] > MAX_REPLAYS:
                given_up.append(task.number)
            else:
                again.append(task)
        waiting.extendleft(reversed(again))
        return again

    try:
        while (waiting or running) and not decided():
            while waiting and len(running) < window:
                task = waiting.popleft()
                running[pool.submit(play_task, task)] = task
            done, _ = cf.wait(running, timeout=PROGRESS_SECONDS, return_when=cf.FIRST_COMPLETED)
            lost = _collect(done, running, finished, given_up, tell)
            if cluster is not None and (lost or time.monotonic() - asked >= PROGRESS_SECONDS):
                asked = time.monotonic()
                stop, notes = cluster.health()
                for note in notes:
                    tell(note)
                if stop is None and lost and not cluster.connected():
                    stop = f"lost the cluster at {cluster.address}: the connection to its scheduler was lost"
                if stop is not None:
                    raise MatchStopped(stop)
            if lost and own:
                lost += list(running.values())
                running.clear()
                _stop_pool(pool)
                if groups is not None:
                    _kill_listed_groups(groups)  # the dead worker's engines
                again = give_up_or_replay(lost)
                numbers = ", ".join(str(t.number) for t in again) or "none"
                text = f"a worker process died: replaying unfinished games {numbers} in fresh workers"
                if given_up:
                    text += f"; given up (not counted): games {', '.join(map(str, given_up))}"
                tell(text)
                pool = _new_pool(workers)
            elif lost:
                give_up_or_replay(lost)  # the cluster is there: submitted again
            if progress is not None:
                progress.show()
    finally:
        for future in running:
            future.cancel()
        if own:
            _stop_pool(pool)
        if groups is not None:
            _kill_listed_groups(groups)
            shutil.rmtree(groups, ignore_errors=True)
            if saved_env is None:
                os.environ.pop(GROUPS_ENV, None)
            else:
                os.environ[GROUPS_ENV] = saved_env
    return sorted(given_up)


def _collect(
    done: set[cf.Future[GameRecord]],
    running: dict[cf.Future[GameRecord], GameTask],
    finished: Callable[[GameRecord], None],
    given_up: list[int],
    tell: Callable[[str], None],
) -> list[GameTask]:
    """Take the ``done`` games out of ``running`` and hand each record to ``finished``;
    return the games lost with their worker (a dead process, a cluster's lost game). A game
    whose cluster workers kept dying joins ``given_up``.

    Raises:
        MatchStopped: a game failed for another reason (a cluster worker without the
            engine's program, say).
    """
    lost: list[GameTask] = []
    for future in done:
        task = running.pop(future)
        try:
            record = future.result()
        except (cf.BrokenExecutor, cf.CancelledError):  # a dead worker; a cluster's lost game
            lost.append(task)
        except Exception as problem:  # e.g. a cluster worker without the engine's program
            if type(problem).__name__ == "KilledWorker":  # Dask: its workers kept dying
                given_up.append(task.number)
                tell(f"game {task.number} was given up: every cluster worker that played it died")
                continue
            raise MatchStopped(f"game {task.number} could not be played: {problem}") from problem
        else:
            finished(record)
    return lost


def _stop_pool(pool: cf.Executor) -> None:
    """Shut a process pool down without waiting on games: SIGTERM (the workers close
    their engines), then SIGKILL for any that linger."""
    processes = list(getattr(pool, "_processes", {}).values()) if isinstance(pool, cf.ProcessPoolExecutor) else []
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(1.0)


def run_match(
    player_a: Player,
    player_b: Player,
    rules: Rules = STANDARD,
    *,
    games: int = 20,
    movetime: float = DEFAULT_MOVETIME_MS / 1000,
    seed: int | None = None,
    on_game: Callable[[GameRecord], None] | None = None,
) -> MatchResult:
    """Play ``games`` games in this process between two built players, in order.

    Each opening twice, A first in one and B first in the other; ``movetime`` is seconds
    per move; ``seed`` shuffles the openings; ``on_game`` hears of every finished game.
    The players stay open: close them when done.  ``play_match`` is the parallel form.
    """
    records: list[GameRecord] = []
    for task in schedule(
        _Named(player_a.name), _Named(player_b.name), rules, games=games, movetime=movetime, seed=seed
    ):
        record = play_game(
            player_a, player_b, task.opening, rules, a_first=task.a_first, movetime=movetime, number=task.number
        )
        records.append(record)
        if on_game is not None:
            on_game(record)
    return MatchResult(player_a.name, player_b.name, rules, movetime, tuple(records))


@dataclass(frozen=True)
class _Named:
    """A spec that only names a player (``run_match`` plays with players already built)."""

    name: str

    def __call__(self) -> Player:
        raise TypeError("a named spec builds no player")


def cluster_executor(address: str) -> tuple[cf.Executor, Callable[[], None]]:
    """A ``concurrent.futures`` executor on the Dask cluster at ``address`` (a scheduler,
    ``tcp://host:8786``; ``game.bots.cluster`` bounds every wait), and a function that closes
    the workers' players and the client.

    Raises:
        ValueError: no address, or the scheduler cannot be reached (``game.bots.cluster.ClusterError``,
        its message one line).
        ImportError: Dask's ``distributed`` is not installed (``pip install .[cluster]``).
    """
    from game.bots.cluster import check_address, connect

    cluster = connect(check_address(address))
    return cluster, functools.partial(cluster.close, close_players)


def client_executor(client: Any) -> tuple[cf.Executor, Callable[[], None]]:
    """The executor of a connected Dask ``Client`` and a function that closes the
    workers' players and the client."""
    from game.bots.cluster import Cluster

    cluster = Cluster(client, str(client.scheduler.address))
    return cluster, functools.partial(cluster.close, close_players)
