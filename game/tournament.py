"""Matches between players: built-in levels and external engines, from balanced openings.

    from game.tournament import make_player, run_match
    result = run_match(make_player("hard"), make_player("easy"), Rules(), games=20)
    print(format_report(result))

A player is a built-in level (``hard``, ``depth:6``: ``LevelPlayer``) or an external
program speaking the engine's native dialect (``engine:python3 bot.py``:
``EnginePlayer``).  Every opening is played twice, each player taking the first move
once.  A player that crashes, hangs past its time or answers an illegal move loses that
game; the failure is counted and reported, and the match goes on.  ``elo`` turns a score
into an Elo difference with a 95% error bar.  ``python -m ai.strength`` builds on this.
"""

from __future__ import annotations

import enum
import functools
import math
import queue
import random
import shlex
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Protocol, TextIO

from ai.search import search
from game.board import Board, Termination
from game.engine import find_level, play_in_time
from game.notation import format_moves, parse_moves
from game.rules import MAX, MIN, STANDARD, Mode, Rules

ENGINE_PREFIX = "engine:"
DEFAULT_MOVETIME_MS = 1000
ENGINE_GRACE_SECONDS = 1.0
"""Past its move time an external engine gets this much more (pipes, a busy machine)
before it loses on time."""
ENGINE_START_SECONDS = 10.0
"""Extra time for an engine's first answer: its interpreter and imports start up."""
Z_95 = 1.959964


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


class LevelPlayer:
    """A built-in level playing through ``ai.player.choose_move`` under the move clock."""

    def __init__(self, name: str, *, seed: int = 0):
        self.level = find_level(name)
        self.name = name.lower()
        self.seed = seed  # a noisy level's judgement: same seed, same position, same move

    def choose(self, board: Board, seconds: float) -> int:
        timed = play_in_time(self.level, board, seconds, seed=self.seed)
        if timed.move is None:
            raise PlayerFailed(Failure.CRASH, f"{self.name} found no move")
        return timed.move

    def close(self) -> None:
        pass


class EnginePlayer:
    """An external program speaking the native dialect on its stdin/stdout.

    The process is started on first use and kept between games; after a crash or a time
    loss it is killed and started afresh for the next game.  Its stderr passes through
    to ours.
    """

    def __init__(
        self,
        command: str,
        *,
        name: str | None = None,
        grace: float = ENGINE_GRACE_SECONDS,
        startup: float = ENGINE_START_SECONDS,
    ):
        self.command = command
        self.name = name or f"engine:{command}"
        self.grace = grace
        self.startup = startup
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._rules_sent: Rules | None = None
        self._fresh = True

    def _start(self) -> subprocess.Popen[str]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        try:
            process = subprocess.Popen(
                shlex.split(self.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                errors="replace",  # bytes that are not UTF-8 are the engine's problem, not a crash here
                bufsize=1,
            )
        except OSError as problem:
            raise PlayerFailed(Failure.CRASH, f"cannot start {self.command!r}: {problem}") from None
        self._process = process
        self._lines = queue.Queue()
        self._rules_sent = None
        self._fresh = True
        assert process.stdout is not None
        threading.Thread(target=_pump, args=(process.stdout, self._lines), daemon=True).start()
        return process

    def _send(self, process: subprocess.Popen[str], line: str) -> None:
        assert process.stdin is not None
        try:
            process.stdin.write(line + "\n")
            process.stdin.flush()
        except OSError as problem:  # BrokenPipeError: the engine is gone
            self._kill()
            raise PlayerFailed(Failure.CRASH, f"cannot write to the engine: {problem}") from None

    def choose(self, board: Board, seconds: float) -> int:
        process = self._start()
        if board.rules != self._rules_sent and (board.rules != STANDARD or self._rules_sent is not None):
            self._send(process, "rules " + rules_words(board.rules))
        self._rules_sent = board.rules
        self._send(process, "position " + " ".join(str(m) for m in board.moves))
        self._send(process, f"go movetime {max(1, round(seconds * 1000))}")
        allowed = seconds + self.grace + (self.startup if self._fresh else 0.0)
        self._fresh = False
        deadline = time.perf_counter() + allowed
        while True:
            left = deadline - time.perf_counter()
            try:
                line = self._lines.get(timeout=max(0.0, left))
            except queue.Empty:
                self._kill()
                raise PlayerFailed(Failure.TIME, f"no bestmove within {allowed:.1f}s") from None
            if line is None:
                code = process.wait()
                self._kill()
                raise PlayerFailed(Failure.CRASH, f"the engine exited (code {code})")
            words = line.split()
            if words[:1] != ["bestmove"]:
                continue  # info lines, error lines, anything else
            if len(words) != 2 or not words[1].lstrip("-").isdigit():
                raise PlayerFailed(Failure.ILLEGAL_MOVE, f"unreadable answer {line.strip()!r}")
            move = int(words[1])
            if not board.is_legal(move):
                raise PlayerFailed(Failure.ILLEGAL_MOVE, f"bestmove {move} is not legal here")
            return move

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def close(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()


MAX_ENGINE_LINE = 64 * 1024
"""Characters kept of one line of an engine's output: a line without an end (or a
flood) costs the runner no more memory than this; the rest of the line is skipped."""


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Move an engine's output lines into a queue; None marks the end of its output."""
    try:
        while line := stream.readline(MAX_ENGINE_LINE):
            rest = line
            while not rest.endswith("\n"):  # an overlong line: keep its start, skip the rest
                rest = stream.readline(MAX_ENGINE_LINE)
                if not rest:
                    break
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def rules_words(rules: Rules) -> str:
    """The native dialect's ``rules`` arguments for ``rules``."""
    words = f"rows {rules.rows} cols {rules.cols} connect {rules.connect}"
    if not rules.gravity:
        words += " gravity off"
    if rules.mode is not Mode.CLASSIC:
        words += f" mode {rules.mode.value}"
    return words


def make_player(spec: str, *, seed: int = 0) -> Player:
    """A player from its command-line name: a level (``hard``, ``depth:6``) or
    ``engine:COMMAND``.

    Raises:
        LevelNotFound: neither a level nor an engine.
        ValueError: an engine command that is empty or names no program to run.
    """
    if spec.lower().startswith(ENGINE_PREFIX):
        command = spec[len(ENGINE_PREFIX) :].strip().strip("\"'")
        if not command:
            raise ValueError("engine: needs a command, e.g. engine:'python3 bot.py'")
        try:
            program = shlex.split(command)[0]
        except ValueError as problem:
            raise ValueError(f"engine:{command}: {problem}") from None
        if shutil.which(program) is None:
            raise ValueError(f"engine:{command}: no program {program!r} to run")
        return EnginePlayer(command)
    return LevelPlayer(spec, seed=seed)


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


# -- games and matches ----------------------------------------------------------------


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

    @property
    def failure(self) -> Failure | None:
        """The failure that decided the game, or None if the board did."""
        return self.termination if isinstance(self.termination, Failure) else None

    def score_of(self, side: Side) -> float:
        """1 for a win, 0.5 for a draw, 0 for a loss of ``side``."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner is side else 0.0

    def moves_string(self, rules: Rules) -> str:
        """The game in the project's notation (``analyze`` replays it)."""
        return format_moves(list(self.moves), rules)

    def result_text(self) -> str:
        """``1-0`` first player won, ``0-1`` second won, ``1/2-1/2`` draw (PGN style)."""
        if self.winner is None:
            return "1/2-1/2"
        return "1-0" if self.winner is self.first else "0-1"


def _other(side: Side) -> Side:
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
    side_of = {MAX: first, MIN: _other(first)}
    seconds = {Side.A: 0.0, Side.B: 0.0}
    counts = {Side.A: 0, Side.B: 0}

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
            return record(_other(side), failed.failure, side, failed.detail)
        seconds[side] += time.perf_counter() - started
        counts[side] += 1
        board.push(move)


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
    spread = Z_95 * math.sqrt(variance / games)
    low, high = score - spread, score + spread
    if low <= 0.0 or high >= 1.0:
        return _elo_of(score), math.inf
    return _elo_of(score), (_elo_of(high) - _elo_of(low)) / 2


def _elo_of(score: float) -> float:
    return -400 * math.log10(1 / score - 1)


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
    """Play ``games`` games: each opening twice, A first in one and B first in the other.

    ``movetime`` is seconds per move; ``seed`` shuffles the openings (give the same
    seed to ``make_player`` for levels that play with variety); ``on_game`` hears of
    every finished game.  The players stay open: close them when done.
    """
    pool = openings(rules, len(opening_pool(rules)), seed=seed)  # each used twice, then round again
    records: list[GameRecord] = []
    for number in range(games):
        opening = pool[number // 2 % len(pool)]
        record = play_game(
            player_a, player_b, opening, rules, a_first=number % 2 == 0, movetime=movetime, number=number + 1
        )
        records.append(record)
        if on_game is not None:
            on_game(record)
    return MatchResult(player_a.name, player_b.name, rules, movetime, tuple(records))


# -- reports --------------------------------------------------------------------------


def fmt_elo(diff: float, error: float) -> str:
    """``+123 +/- 45``; infinite values as ``+inf`` and ``n/a``."""
    shown = f"{round(diff):+d}" if math.isfinite(diff) else ("+inf" if diff > 0 else "-inf")
    bar = f"{error:.0f}" if math.isfinite(error) else "n/a"
    return f"{shown} +/- {bar}"


def format_report(result: MatchResult) -> str:
    """The match as a person reads it: totals, Elo, failures, times, every game."""
    a, b = result.name_a, result.name_b
    n = len(result.games)
    lines = [
        f"Match: {a} (A) vs {b} (B), {result.rules.describe()}, {result.movetime * 1000:.0f} ms per move, {n} games",
        f"A: {result.wins} wins, {result.draws} draws, {result.losses} losses   score {result.score * 100:.1f}%",
        f"Elo difference (A - B): {fmt_elo(*result.elo)} (95%)",
    ]
    for side, name in ((Side.A, a), (Side.B, b)):
        failed = result.failures(side)
        text = ", ".join(f"{count} {failure.value}" for failure, count in failed.items() if count) or "none"
        lines.append(
            f"{side.value} {name}: mean {result.mean_move_seconds(side) * 1000:.0f} ms per move; games lost by failure: {text}"
        )
    lines.append("Games (who moved first, result for the first player, all moves; replay with analyze):")
    for game in result.games:
        note = ""
        if game.failure is not None and game.failed_side is not None:
            note = f"  [{game.failed_side.value} lost on {game.termination.value}: {game.detail}]"
        lines.append(
            f"{game.number:3}. {game.first.value} first  {game.result_text():7}  {game.moves_string(result.rules)}{note}"
        )
    return "\n".join(lines)


def write_pgn(result: MatchResult, out: TextIO, *, date: str | None = None) -> None:
    """Write every game in a PGN-like format: tag pairs, then numbered moves and the result."""
    date = date or time.strftime("%Y.%m.%d")
    rules = result.rules
    for game in result.games:
        first, second = (result.name_a, result.name_b) if game.first is Side.A else (result.name_b, result.name_a)
        tags = {
            "Event": f"{result.name_a} vs {result.name_b}",
            "Date": date,
            "Round": str(game.number),
            "First": first,
            "Second": second,
            "Rules": rules.describe(),
            "Opening": game.opening,
            "Moves": game.moves_string(rules),
            "Result": game.result_text(),
            "Termination": game.termination.value + (f" ({game.detail})" if game.detail else ""),
        }
        for name, value in tags.items():
            escaped = value.replace("\\", "\\\\").replace('"', '\\"')
            out.write(f'[{name} "{escaped}"]\n')
        moves = [format_moves([m], rules) for m in game.moves]
        pairs = [f"{i // 2 + 1}. {' '.join(moves[i : i + 2])}" for i in range(0, len(moves), 2)]
        out.write("\n" + " ".join(pairs + [game.result_text()]) + "\n\n")


class ProgressBar:
    """A one-line progress bar on a terminal stream (stderr), redrawn per game."""

    def __init__(self, total: int, stream: TextIO | None = None, width: int = 30):
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.done = 0
        self.points = 0.0

    def __call__(self, game: GameRecord) -> None:
        self.done += 1
        self.points += game.score_of(Side.A)
        filled = round(self.width * self.done / max(1, self.total))
        bar = "#" * filled + "-" * (self.width - filled)
        end = "\n" if self.done >= self.total else ""
        self.stream.write(f"\r[{bar}] {self.done}/{self.total} games, A {self.points:g} points{end}")
        self.stream.flush()
