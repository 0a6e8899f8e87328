"""The computer as a bot on stdin/stdout: ``python main.py engine``.

Two line protocols, chosen by the first command read (docs/engine-protocol.md):

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
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TextIO

from ai.answer import Answer
from ai.levels import LevelNotFound, find_level, strongest_level
from ai.player import SAFETY_SECONDS, Asked, Thinking
from ai.search import SearchProgress
from game.board import Board, IllegalMoveError
from game.bots.notes import NotesSaid
from game.rules import MAX, MIN, Mode, Rules, RulesError

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
MAX_ERROR_CHARS = 240
"""The longest ``error`` message sent (the bad token it quotes is cut in the middle)."""


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
        self._notes_said = NotesSaid()

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
        """Send ``error MESSAGE``; a message echoing a huge token is cut to a readable line."""
        if len(message) > MAX_ERROR_CHARS:
            message = message[: MAX_ERROR_CHARS - 40] + " ... " + message[-35:]
        self.send(f"error {message}")

    def answer(self, line: str, answer: Answer) -> None:
        """Send a move's answer line, then its note on the log (each clause once a session:
        a refused opening book, say, is said with the first move it weakens)."""
        self.send(line)
        fresh = self._notes_said.fresh(answer.note)
        if fresh:
            print(f"engine: note: {fresh}", file=self.log, flush=True)

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
            Thinking(self.level, self.board, seconds, asked=Asked(on_progress=on_pass)),
            lambda timed: self.answer(f"bestmove {'none' if timed.move is None else timed.move}", timed),
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
        thinking = Thinking(self.level, board, seconds)
        job = _Job(thinking, lambda timed: self.answer(f"place_disc {timed.move}", timed))
        self._job = job
        job.start()
        job.wait()  # the arena sends nothing while it waits for the move


class _Job:
    """A search thread, its clock, and the one answer it sends."""

    def __init__(self, thinking: Thinking, answer: Callable[[Answer], None]):
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

    def _deliver(self, timed: Answer) -> None:
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
