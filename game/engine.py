"""The computer as a bot on stdin/stdout: ``python main.py engine``.

Two line protocols, chosen by the first command read (README, "Engine protocol"):

- the arena Four-in-a-Row dialect: ``settings field_columns 7``, ``settings your_botid 1``,
  ``update game field 0,0,1,...;...`` (rows top first), ``action move 10000`` (time bank
  in ms) answered with ``place_disc N``;
- the native dialect: ``rules ...``, ``position MOVES``, ``level NAME``, ``go [movetime MS]``
  answered with ``info depth .. nodes .. value ..`` lines and ``bestmove N``; ``stop``,
  ``isready``, ``quit``.

Every column number on the wire is 0-based in both dialects (a protocol is read by
programs, and the arena dialect already is); people's 1-based move strings stay in the
window and the CLI.  Stdout carries protocol lines only, logs go to stderr, a bad line is
answered with ``error MESSAGE`` and the session goes on, and end of input ends it.

The search runs in a thread so ``stop`` is heard while it thinks; a timer answers with the
best move found so far when the time is up, whatever the level is doing (``Thinking``:
a shallow safety-net search first, then the level, whose deepest finished pass counts).
"""

from __future__ import annotations

import enum
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

from ai.levels import PRESETS, Level
from ai.player import choose_move
from ai.search import SearchCancelled, SearchProgress, search
from ai.solver import SolverStopped
from game.board import Board, IllegalMoveError
from game.rules import MAX, MIN, Mode, Rules, RulesError

SOFT_SHARE = 0.8
"""Share of a move's time given to the search as its budget (iterative deepening stops
starting new passes after it); the rest is margin for the pass in flight and the pipe."""
SAFETY_SECONDS = 0.05
"""Kept back from every time limit: the answer must be on the wire before the limit."""
SAFETY_NET_DEPTH = 6
SAFETY_NET_SHARE = 0.1
"""Before the level thinks, a search of at most this depth in this share of the move
time gives a fallback move better than a quick guess."""
MAX_THINK_SECONDS = 86_400.0
"""A day: longer move times are cut to this (thread timers cannot wait for ever)."""
DEPTH_PREFIX = "depth:"


class LevelNotFound(ValueError):
    """A level name that is neither a preset nor ``depth:N``."""


def level_names() -> list[str]:
    """The names ``find_level`` accepts, for messages and ``--help``."""
    return [name.lower() for name in PRESETS] + [f"{DEPTH_PREFIX}N"]


def find_level(name: str) -> Level:
    """Return the level called ``name``: a preset (any case) or ``depth:N`` (N >= 1).

    Raises:
        LevelNotFound: the name is unknown or N is not a positive whole number.
    """
    text = name.strip()
    for preset, level in PRESETS.items():
        if preset.lower() == text.lower():
            return level
    if text.lower().startswith(DEPTH_PREFIX):
        digits = text[len(DEPTH_PREFIX) :]
        if is_whole_number(digits) and int(digits) >= 1:
            return Level(int(digits))
        raise LevelNotFound(f"bad depth in {name!r}: expected depth:N with N >= 1")
    raise LevelNotFound(f"unknown level {name!r}: expected one of {', '.join(level_names())}")


def strongest_level() -> str:
    """The name of the strongest preset (the last one), the engine's default."""
    return list(PRESETS)[-1].lower()


def quick_move(board: Board) -> int | None:
    """A sensible move at once: win now, else block, else a safe move nearest the centre.

    The fallback when a search had no time to finish a single pass.
    """
    moves = board.legal_moves()
    if not moves:
        return None
    rules = board.rules
    side = board.to_move

    def wins_for(player: int, move: int) -> bool:
        if rules.mode is not Mode.CLASSIC:
            return False
        saved = board.to_move
        board.to_move = player
        board.push(move)
        outcome = board.outcome()
        board.pop()
        board.to_move = saved
        return outcome is not None and outcome.winner == player

    for move in moves:
        if wins_for(side, move):
            return move
    for move in moves:
        if wins_for(-side, move):
            return move

    def gives_a_win(move: int) -> bool:
        board.push(move)
        try:
            return any(wins_for(-side, reply) for reply in board.legal_moves())
        finally:
            board.pop()

    def distance_to_centre(move: int) -> float:
        col = move if rules.gravity else move % rules.cols
        return abs(col - (rules.cols - 1) / 2)

    ordered = sorted(moves, key=distance_to_centre)
    safe = [move for move in ordered if not gives_a_win(move)]
    return (safe or ordered)[0]


@dataclass(frozen=True)
class TimedMove:
    """A move chosen under a clock, and how far the level got."""

    move: int | None
    value: int | None  # from MAX's side; None when no search pass finished
    depth: int  # the deepest finished pass (0: a book/solver answer or the quick fallback)
    nodes: int
    seconds: float
    cut_short: bool  # the clock or a stop request ended the thinking early


class Thinking:
    """One move being chosen by a level against a clock; safe to answer from any thread.

    ``run`` does the search (in the caller's thread); ``best_so_far`` is the move of the
    deepest finished pass, or the quick fallback, at any moment.
    """

    def __init__(
        self,
        level: Level,
        board: Board,
        seconds: float | None,
        *,
        seed: int = 0,
        on_pass: Callable[[SearchProgress], None] | None = None,
    ):
        self.level = level
        self.seed = seed  # for levels that play with variety (``choose_move``'s seed)
        self.board = board.copy()
        self.seconds = None if seconds is None else min(seconds, MAX_THINK_SECONDS)
        self.started = time.perf_counter()
        self.stop_requested = threading.Event()
        self._on_pass = on_pass
        self._progress: SearchProgress | None = None
        self._reported_depth = 0
        self._net: TimedMove | None = None  # the safety net's move, once cast

    @property
    def deadline(self) -> float | None:
        """When the answer is due (``perf_counter`` time), or None without a clock."""
        if self.seconds is None:
            return None
        return self.started + max(0.0, self.seconds - SAFETY_SECONDS)

    def should_stop(self) -> bool:
        deadline = self.deadline
        return self.stop_requested.is_set() or (deadline is not None and time.perf_counter() >= deadline)

    def _progress_seen(self, progress: SearchProgress) -> None:
        if progress.move is not None:
            self._progress = progress
        if self._on_pass is not None and progress.completed_depth > self._reported_depth:
            self._reported_depth = progress.completed_depth
            self._on_pass(progress)

    def best_so_far(self) -> TimedMove:
        """The level's deepest finished pass, else the safety net, else the quick move."""
        progress = self._progress
        elapsed = time.perf_counter() - self.started
        if progress is not None and progress.move is not None:
            return TimedMove(progress.move, progress.value, progress.completed_depth, progress.nodes, elapsed, True)
        net = self._net
        if net is not None and net.move is not None:
            return TimedMove(net.move, net.value, net.depth, net.nodes, elapsed, True)
        return TimedMove(quick_move(self.board.copy()), None, 0, 0, elapsed, True)

    def _cast_safety_net(self, seconds: float) -> None:
        """A shallow search first, so a level that reports no passes (the book and exact
        solver of Perfect) still leaves a searched move when the clock runs out."""
        board = self.board
        try:
            result = search(
                board.grid,
                board.rules,
                SAFETY_NET_DEPTH,
                time_limit=max(0.005, seconds * SAFETY_NET_SHARE),
                to_move=board.to_move,
                should_stop=self.should_stop,
            )
        except SearchCancelled:
            return
        elapsed = time.perf_counter() - self.started
        self._net = TimedMove(result.move, result.value, result.depth, result.stats.total_nodes, elapsed, True)

    def run(self) -> TimedMove:
        """Search until the level is done, the soft budget is spent, or a stop comes."""
        board = self.board
        if board.is_game_over():
            return TimedMove(None, None, 0, 0, 0.0, False)
        budget = None
        if self.seconds is not None:
            self._cast_safety_net(self.seconds)
            soft_end = self.started + self.seconds * SOFT_SHARE - SAFETY_SECONDS
            budget = max(0.01, soft_end - time.perf_counter())
        try:
            choice = choose_move(
                self.level,
                board.grid,
                board.rules,
                board.to_move,
                time_limit=budget,
                should_stop=self.should_stop,
                on_progress=self._progress_seen,
                seed=self.seed,
            )
        except (SearchCancelled, SolverStopped):
            return self.best_so_far()
        elapsed = time.perf_counter() - self.started
        move = choice.move if choice.move is not None else quick_move(board.copy())
        stopped_early = choice.result is not None and not choice.result.completed
        return TimedMove(move, choice.value, choice.depth, choice.nodes, elapsed, stopped_early or self.should_stop())


def play_in_time(level: Level, board: Board, seconds: float | None, *, seed: int = 0) -> TimedMove:
    """Choose ``level``'s move in ``board`` within ``seconds`` (None: no clock).

    The level's own search stops itself in time; should it not, the best move found so
    far is returned when the time is up (the late search is told to stop and ignored).
    """
    thinking = Thinking(level, board, seconds, seed=seed)
    seconds = thinking.seconds
    if seconds is None:
        return thinking.run()
    answers: list[TimedMove] = []

    def think() -> None:
        try:
            answers.append(thinking.run())
        except Exception as problem:  # a failing level still owes a move
            print(f"engine: {problem!r}; playing the best move so far", file=sys.stderr)
            answers.append(thinking.best_so_far())

    worker = threading.Thread(target=think, daemon=True)
    worker.start()
    worker.join(max(0.0, seconds - SAFETY_SECONDS))
    if answers:
        return answers[0]
    thinking.stop_requested.set()
    return thinking.best_so_far()


# -- the protocol session ------------------------------------------------------------


class Dialect(enum.Enum):
    """The two line protocols the engine speaks."""

    ARENA = "arena"
    NATIVE = "native"


ARENA_COMMANDS = {"settings", "update", "action"}
NATIVE_COMMANDS = {"rules", "position", "level", "go", "stop", "isready", "quit"}

ARENA_TIME_PER_MOVE_MS = 500
"""The arena's default ``time_per_move``: added to the time bank after each move."""
ARENA_MIN_THINK_MS = 20


@dataclass
class ArenaState:
    """What the arena has told us so far (its settings and the latest field)."""

    rows: int = 6
    cols: int = 7
    botid: int = 1
    time_bank_ms: int = 10_000
    time_per_move_ms: int = ARENA_TIME_PER_MOVE_MS
    field: str | None = None  # the last 'update game field', rows top first


ARENA_NUMBER_SETTINGS = {
    "field_rows": "rows",
    "field_columns": "cols",
    "your_botid": "botid",
    "timebank": "time_bank_ms",
    "time_per_move": "time_per_move_ms",
}
"""The arena settings that matter here, and the ``ArenaState`` field each one sets."""


class ProtocolError(ValueError):
    """A line the engine cannot act on; answered with ``error MESSAGE``."""


class Engine:
    """A protocol session: reads commands, keeps the position, answers on ``out``."""

    def __init__(self, out: TextIO, *, level: str | None = None, log: TextIO | None = None):
        self.out = out
        self.log = log if log is not None else sys.stderr
        self.level_name = level or strongest_level()
        self.level = find_level(self.level_name)
        self.dialect: Dialect | None = None
        self.rules = Rules()
        self.board = Board(self.rules)
        self._write_lock = threading.Lock()
        self.closed = False  # the output pipe is gone
        self._job: _Job | None = None
        self.arena = ArenaState()

    # -- output -----------------------------------------------------------------------
    def send(self, line: str) -> None:
        """Write one protocol line (whole, flushed; threads never interleave).

        If the other side has closed the pipe, the session just ends (``closed``).
        """
        with self._write_lock:
            if self.closed:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (BrokenPipeError, ValueError, OSError):
                self.closed = True

    def error(self, message: str) -> None:
        self.send(f"error {message}")

    # -- the loop -----------------------------------------------------------------------
    def run(self, lines: Iterable[str]) -> int:
        """Answer every line until ``quit`` or the end of input; return the exit code."""
        for raw in lines:
            line = raw.strip()
            if not line:
                continue
            try:
                if not self.handle(line) or self.closed:
                    break
            except ProtocolError as problem:
                self.error(str(problem))
            except Exception as problem:  # a bug must not end a tournament game
                traceback.print_exc(file=self.log)
                self.error(f"internal error on {line[:60]!r}: {problem}")
        else:
            self._finish_on_end_of_input()
            return 0
        self._stop_job()
        return 0

    def handle(self, line: str) -> bool:
        """Act on one command line; False when the session should end."""
        words = line.split()
        command = words[0].lower()
        if command == "quit":
            return False
        if self.dialect is None:
            if command in ARENA_COMMANDS:
                self.dialect = Dialect.ARENA
            elif command in NATIVE_COMMANDS:
                self.dialect = Dialect.NATIVE
            else:
                raise ProtocolError(
                    f"unknown command {words[0]!r}: start with settings/update/action (arena) "
                    "or rules/position/level/go (native)"
                )
            print(f"engine: {self.dialect.value} dialect, level {self.level_name}", file=self.log)
        if self.dialect is Dialect.ARENA:
            self._arena(words)
        else:
            self._native(words)
        return True

    def _finish_on_end_of_input(self) -> None:
        """End of input: a search with a clock still answers; one without is stopped."""
        job = self._job
        if job is None:
            return
        if job.thinking.seconds is None:
            job.stop()
        job.wait()

    # -- native dialect -----------------------------------------------------------------
    def _native(self, words: list[str]) -> None:
        command, args = words[0].lower(), words[1:]
        if command == "isready":
            self.send("readyok")
            return
        if command == "stop":
            if self._job is not None:
                self._job.stop()
            return
        if command not in NATIVE_COMMANDS:
            raise ProtocolError(f"unknown command {words[0]!r} (native dialect: {', '.join(sorted(NATIVE_COMMANDS))})")
        if self._job is not None and not self._job.done.is_set():
            raise ProtocolError(f"busy thinking: {command} ignored (send stop first)")
        if command == "rules":
            self.rules = parse_rules(args)
            self.board = Board(self.rules)
        elif command == "position":
            self.board = parse_position(args, self.rules)
        elif command == "level":
            if not args:
                raise ProtocolError("level needs a name, e.g. level hard or level depth:6")
            name = " ".join(args)
            try:
                self.level = find_level(name)
            except LevelNotFound as problem:
                raise ProtocolError(str(problem)) from None
            self.level_name = name
        elif command == "go":
            self._go(args)

    def _go(self, args: list[str]) -> None:
        seconds: float | None = None
        if args:
            if len(args) != 2 or args[0].lower() != "movetime":
                raise ProtocolError(f"bad go {' '.join(args)[:60]!r}: expected go or go movetime MS")
            seconds = parse_whole_number(args[1], "bad go: movetime MS") / 1000
        if self.board.is_game_over():
            self.send("bestmove none")
            return
        to_move = self.board.to_move

        def on_pass(progress: SearchProgress) -> None:
            value = progress.value if progress.value is not None else 0
            own_view = value if to_move == MAX else -value
            self.send(
                f"info depth {progress.completed_depth} nodes {progress.nodes} value {own_view} "
                f"time {round(progress.seconds * 1000)} move {progress.move}"
            )

        self._job = _Job(
            Thinking(self.level, self.board, seconds, on_pass=on_pass),
            lambda timed: self.send(f"bestmove {'none' if timed.move is None else timed.move}"),
        )
        self._job.start()

    def _stop_job(self) -> None:
        if self._job is not None:
            self._job.stop()
            self._job.wait()

    # -- arena dialect ------------------------------------------------------------------
    def _arena(self, words: list[str]) -> None:
        command = words[0].lower()
        if command == "settings":
            if len(words) != 3:
                raise ProtocolError(f"bad settings line: expected 'settings NAME VALUE', got {' '.join(words)!r}")
            name, value = words[1], words[2]
            if name in ARENA_NUMBER_SETTINGS:
                setattr(self.arena, ARENA_NUMBER_SETTINGS[name], parse_whole_number(value, f"settings {name}"))
            # other settings (player_names, your_bot, ...) need nothing from us
        elif command == "update":
            if len(words) < 4 or words[1] != "game":
                if len(words) >= 3:
                    return  # updates about a player (e.g. 'update player1 ...') need no answer
                raise ProtocolError(f"bad update line {' '.join(words)!r}")
            if words[2] == "field":
                self.arena.field = words[3]
        elif command == "action":
            if len(words) != 3 or words[1] != "move":
                raise ProtocolError(f"bad action line {' '.join(words)[:60]!r}: expected 'action move MS'")
            self._arena_move(parse_whole_number(words[2], "action move"))
        else:
            raise ProtocolError(f"unknown command {words[0]!r} (arena dialect: settings, update, action)")

    def _arena_move(self, time_bank_ms: int) -> None:
        arena = self.arena
        if arena.field is None:
            raise ProtocolError("action move before any 'update game field'")
        try:
            rules = Rules(rows=arena.rows, cols=arena.cols, connect=4)
        except RulesError as problem:
            raise ProtocolError(f"field size: {problem}") from None
        board = parse_arena_field(arena.field, rules, arena.botid)
        own_moves_left = max(4, (rules.cells - board.ply + 1) // 2)
        think_ms = min(time_bank_ms * 0.5, time_bank_ms / own_moves_left + arena.time_per_move_ms)
        seconds = max(ARENA_MIN_THINK_MS, think_ms) / 1000
        if board.is_game_over():
            raise ProtocolError("the field shows a finished game: no move to make")
        job = _Job(Thinking(self.level, board, seconds), lambda timed: self.send(f"place_disc {timed.move}"))
        self._job = job
        job.start()
        job.wait()  # the arena sends nothing while it waits for the move


class _Job:
    """A search thread, its clock, and the one answer it sends."""

    def __init__(self, thinking: Thinking, answer: Callable[[TimedMove], None]):
        self.thinking = thinking
        self._answer = answer
        self._lock = threading.Lock()
        self.done = threading.Event()  # an answer is decided (no other will be sent)
        self.answered = threading.Event()  # ... and written
        self._timer: threading.Timer | None = None

    def start(self) -> None:
        if self.thinking.seconds is not None:
            self._timer = threading.Timer(max(0.0, self.thinking.seconds - SAFETY_SECONDS), self._time_up)
            self._timer.daemon = True
            self._timer.start()
        threading.Thread(target=self._search, daemon=True).start()

    def _search(self) -> None:
        try:
            timed = self.thinking.run()
        except Exception as problem:  # a bug must not leave the other side waiting
            print(f"engine: search failed: {problem!r}", file=sys.stderr)
            timed = self.thinking.best_so_far()
        self._deliver(timed)

    def _time_up(self) -> None:
        self.thinking.stop_requested.set()
        self._deliver(self.thinking.best_so_far())

    def stop(self) -> None:
        """Answer now with the best move so far; the search is told to stop."""
        self.thinking.stop_requested.set()
        self._deliver(self.thinking.best_so_far())

    def _deliver(self, timed: TimedMove) -> None:
        with self._lock:
            if self.done.is_set():
                return
            self.done.set()
        if self._timer is not None:
            self._timer.cancel()
        try:
            self._answer(timed)
        finally:
            self.answered.set()

    def wait(self) -> None:
        """Until the answer is written: a reply to the next line must come after it."""
        self.answered.wait()


# -- parsing -------------------------------------------------------------------------

MAX_DIGITS = 9
"""The longest whole number a protocol field takes (a billion milliseconds is 11 days):
longer ones are refused before ``int`` (which refuses over 4,300 digits, and whose result
over 308 digits overflows a float)."""


def is_whole_number(text: str) -> bool:
    """ASCII digits only, at most ``MAX_DIGITS`` (``'²'`` and ``'③'`` pass ``isdigit``
    but not ``int``)."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


def parse_whole_number(text: str, what: str) -> int:
    """Read a protocol field that is a whole number.

    Raises:
        ProtocolError: not ASCII digits, or more than ``MAX_DIGITS`` of them.
    """
    if text.isascii() and text.isdigit() and len(text) > MAX_DIGITS:
        raise ProtocolError(f"{what}: {len(text):,} digits is too long (at most {MAX_DIGITS})")
    if not is_whole_number(text):
        raise ProtocolError(f"{what}: expected a whole number, got {text[:40]!r}")
    return int(text)


def parse_rules(args: list[str]) -> Rules:
    """Read ``rows R cols C connect K [gravity on|off] [mode classic|full-board]``."""
    if len(args) % 2:
        raise ProtocolError("rules takes NAME VALUE pairs: rows 6 cols 7 connect 4 [gravity on|off] [mode classic]")
    fields: dict[str, object] = {}
    for name, value in zip(args[::2], args[1::2]):
        key = name.lower()
        if key in ("rows", "cols", "connect"):
            fields[key] = parse_whole_number(value, f"rules {key}")
        elif key == "gravity":
            if value.lower() not in ("on", "off"):
                raise ProtocolError(f"rules gravity: expected on or off, got {value!r}")
            fields["gravity"] = value.lower() == "on"
        elif key == "mode":
            try:
                fields["mode"] = Mode(value.lower())
            except ValueError:
                raise ProtocolError(f"rules mode: expected classic or full-board, got {value!r}") from None
        else:
            raise ProtocolError(f"unknown rules field {name!r} (rows, cols, connect, gravity, mode)")
    try:
        return Rules(**fields)  # type: ignore[arg-type]
    except RulesError as problem:
        raise ProtocolError(f"rules: {problem}") from None


def parse_position(args: list[str], rules: Rules) -> Board:
    """Read ``position [M1 M2 ...]``: 0-based moves from the empty board, spaces or commas."""
    tokens = [token for arg in args for token in arg.split(",") if token]
    board = Board(rules)
    for index, token in enumerate(tokens, start=1):
        if not is_whole_number(token):
            raise ProtocolError(f"position: move {index} {token[:40]!r} is not a 0-based number")
        move = int(token)
        try:
            board.push(move)
        except IllegalMoveError:
            raise ProtocolError(
                f"position: move {index} ({token}): {board.why_illegal(move, zero_based=True)}"
            ) from None
    return board


def parse_arena_field(field: str, rules: Rules, botid: int) -> Board:
    """Read an arena field (rows top first split by ``;``, cells by ``,``) as our turn.

    Cells: ``0`` empty and ``1``/``2`` the bots, or (the newer arenas) ``.`` empty and
    ``0``/``1`` the bots.  The side with fewer discs (the first player on a tie) is us.
    """
    rows = field.split(";")
    if len(rows) != rules.rows:
        raise ProtocolError(f"field has {len(rows)} rows, settings say {rules.rows}")
    dotted = "." in field
    empty = "." if dotted else "0"
    bot_ids = {"0", "1"} if dotted else {"1", "2"}
    if str(botid) not in bot_ids:
        raise ProtocolError(f"your_botid {botid} is not one of the field's marks {sorted(bot_ids)}")
    other_id = (bot_ids - {str(botid)}).pop()
    cells: list[list[str]] = []
    for number, row in enumerate(rows, start=1):
        values = row.split(",")
        if len(values) != rules.cols:
            raise ProtocolError(f"field row {number} has {len(values)} cells, settings say {rules.cols}")
        for value in values:
            if value not in (empty, *bot_ids):
                raise ProtocolError(f"field row {number}: bad cell {value!r}")
        cells.append(values)
    ours = sum(values.count(str(botid)) for values in cells)
    theirs = sum(values.count(other_id) for values in cells)
    if ours not in (theirs, theirs - 1):
        raise ProtocolError(f"field has {ours} of our discs and {theirs} of theirs: it cannot be our turn")
    us = MAX if ours == theirs else MIN
    grid = rules.empty_grid()
    for r, values in enumerate(cells):
        for c, value in enumerate(values):
            if value == str(botid):
                grid[r, c] = us
            elif value == other_id:
                grid[r, c] = -us
    floating = (grid[:-1] != 0) & (grid[1:] == 0)  # a disc with an empty cell below it
    if floating.any():
        raise ProtocolError("field has a disc floating above an empty cell")
    return Board(rules, grid, to_move=us)


def serve(level: str | None = None, *, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run a session on stdin/stdout (``python main.py engine [--level NAME]``)."""
    if stdin is None or stdin is sys.stdin:
        stdin = sys.stdin
        if hasattr(stdin, "reconfigure"):  # a stray byte makes a bad line, not a crash
            stdin.reconfigure(errors="replace")
    engine = Engine(stdout or sys.stdout, level=level)
    return engine.run(stdin)
