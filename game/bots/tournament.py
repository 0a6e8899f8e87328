"""Matches between players: built-in levels and external engines, from balanced openings.

    from game.bots.runners import MatchPlan, play_match
    from game.bots.tournament import PlayerChoice, format_report
    outcome = play_match(PlayerChoice("hard"), PlayerChoice("easy"), MatchPlan(Rules(), games=20), jobs=2)
    print(format_report(outcome.result))

A player is a built-in level (``hard``, ``depth:6``: ``LevelPlayer``, under the move
clock of ``ai.player.choose_move``) or an external program speaking the engine's native
dialect (``engine:python3 bot.py``: ``EnginePlayer``).  Every opening is played twice,
each player taking the first move once.  A player that crashes, hangs past its time or
answers an illegal move loses that game; the failure is counted and reported, and the
match goes on.  The headless machinery is beside it in ``game.bots``: ``players``,
``openings``, ``statistics`` (Elo, SPRT) and ``runners`` (games, the parallel runner);
this module adds external engines, the report and PGN.

An external engine can not hang or sink the runner: it runs in its own process group
(a session on POSIX), killed as a group, so a wrapper script without ``exec`` or a child
it left behind goes with it; every wait has a bound; its output is read by a thread that
keeps only ``bestmove``/``readyok`` lines, at most ``MAX_ENGINE_LINE`` characters each
and ``MAX_QUEUED_LINES`` of them; an answer counts only for the position it answers
(``isready``/``readyok`` before each position marks where a stale answer ends).
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import IO, Any, TextIO

from ai.levels import find_level
from game.board import Board
from game.bots.players import Failure, LevelChooser, Player, PlayerFailed, Side, level_move
from game.bots.runners import ENGINE_START, MAX_REPLAYS, MatchOutcome, forget_group, note_group
from game.bots.statistics import GameRecord, MatchResult, fmt_elo
from game.game_file import GameText, game_text
from game.rules import STANDARD, Mode, Rules

__all__ = [
    "EnginePlayer",
    "LevelPlayer",
    "PgnWriter",
    "PlayerChoice",
    "format_outcome",
    "format_report",
    "make_player",
    "write_pgn",
]

ENGINE_PREFIX = "engine:"
ENGINE_GRACE_SECONDS = 1.0
"""Past its move time an external engine gets this much more (pipes, a busy machine)
before it loses on time."""
ENGINE_START_SECONDS = 10.0
"""Extra time for an engine's first answer: its interpreter and imports start up."""
EXIT_SECONDS = 0.5
"""After an engine's process has exited, how long its last lines get to arrive."""
QUIT_SECONDS = 2.0
"""How long ``close`` lets an engine quit by itself before its group is killed."""
KILL_SECONDS = 5.0
"""How long to wait for a killed engine to be gone (it always is, unless the OS is stuck)."""
MAX_ENGINE_LINE = 64 * 1024
"""Bytes kept of one line of an engine's output: a line without an end (or a flood)
costs the runner no more memory than this; the rest of the line is skipped."""
MAX_QUEUED_LINES = 32
"""Answer lines kept while nobody reads them; more are dropped (they are stale)."""
_BESTMOVE = re.compile(r"bestmove\s+(-?[0-9]{1,9})\s*")


class LevelPlayer:
    """A built-in level playing through ``ai.player.choose_move`` under the move clock."""

    def __init__(self, name: str, *, seed: int = 0):
        self.level = find_level(name)
        self.name = name.lower()
        self.seed = seed  # a noisy level's judgement: same seed, same position, same move

    def choose(self, board: Board, seconds: float) -> int:
        return level_move(self.name, self.level, board, seed=self.seed, movetime=seconds)

    def close(self) -> None:
        pass


class EnginePlayer:
    """An external program speaking the native dialect on its stdin/stdout.

    The process is started on first use and kept between games; after a crash or a time
    loss its process group is killed and it is started afresh for the next game.  Its
    stderr passes through to ours.
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
        self._process: subprocess.Popen[bytes] | None = None
        self._reader: _Reader | None = None
        self._rules_sent: Rules | None = None
        self._fresh = True
        self._speaks_ready = False  # it answered isready once: lines before readyok are stale

    def _start(self) -> tuple[subprocess.Popen[bytes], _Reader]:
        if self._process is not None and self._reader is not None and self._process.poll() is None:
            return self._process, self._reader
        self._kill()
        options: dict[str, Any] = {"start_new_session": True} if os.name == "posix" else {}
        if os.name == "nt":
            options["creationflags"] = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
        with ENGINE_START:  # a stop waits until the engine is known and listed
            try:
                process = subprocess.Popen(
                    shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, **options
                )
            except (OSError, ValueError) as problem:
                raise PlayerFailed(Failure.CRASH, f"cannot start {self.command!r}: {problem}") from None
            assert process.stdout is not None
            self._process = process
            note_group(process.pid)  # the runner kills it should this worker die
        self._reader = _Reader(process.stdout)
        self._rules_sent = None
        self._fresh = True
        self._speaks_ready = False
        return process, self._reader

    def _send(self, process: subprocess.Popen[bytes], *lines: str) -> None:
        assert process.stdin is not None
        try:
            process.stdin.write("".join(line + "\n" for line in lines).encode())
            process.stdin.flush()
        except OSError as problem:  # BrokenPipeError: the engine is gone
            self._kill()
            raise PlayerFailed(Failure.CRASH, f"cannot write to the engine: {problem}") from None

    def choose(self, board: Board, seconds: float) -> int:
        process, reader = self._start()
        reader.drain()  # anything said since the last answer answers nothing now
        commands = ["isready"]
        if board.rules != self._rules_sent and (board.rules != STANDARD or self._rules_sent is not None):
            commands.append("rules " + rules_words(board.rules))
        self._rules_sent = board.rules
        commands += [
            "position " + " ".join(str(m) for m in board.moves),
            f"go movetime {max(1, round(seconds * 1000))}",
        ]
        self._send(process, *commands)
        allowed = seconds + self.grace + (self.startup if self._fresh else 0.0)
        self._fresh = False
        deadline = time.monotonic() + allowed
        ready = False
        exited_at: float | None = None
        while True:
            now = time.monotonic()
            if now >= deadline:
                self._kill()
                raise PlayerFailed(Failure.TIME, f"no bestmove within {allowed:.1f}s")
            line = reader.get(min(0.1, deadline - now))
            if line is None:
                if exited_at is None and process.poll() is not None:
                    exited_at = now
                if reader.ended.is_set() or (exited_at is not None and now - exited_at >= EXIT_SECONDS):
                    code = process.poll()
                    self._kill()
                    why = f"the engine exited (code {code})" if code is not None else "the engine closed its output"
                    raise PlayerFailed(Failure.CRASH, why)
                continue
            if line.startswith("readyok"):
                ready = self._speaks_ready = True
                continue
            if self._speaks_ready and not ready:
                continue  # a late answer to an earlier position
            found = _BESTMOVE.fullmatch(line.strip())
            if found is None:
                raise PlayerFailed(Failure.ILLEGAL_MOVE, f"unreadable answer {_shorten(line.strip())!r}")
            move = int(found.group(1))
            if not board.is_legal(move):
                raise PlayerFailed(Failure.ILLEGAL_MOVE, f"bestmove {move} is not legal here")
            return move

    def _kill(self) -> None:
        """Kill the engine's whole process group and reap it (bounded)."""
        process, self._process = self._process, None
        self._reader = None  # its thread ends when the last writer of the pipe is gone
        if process is None:
            return
        _kill_group(process)
        forget_group(process.pid)
        try:
            process.wait(timeout=KILL_SECONDS)
        except subprocess.TimeoutExpired:
            print(f"{self.name}: process {process.pid} did not die", file=sys.stderr)
        if process.stdin is not None:
            try:
                process.stdin.close()
            except OSError:
                pass

    def close(self) -> None:
        process = self._process
        if process is not None and process.poll() is None:
            try:
                assert process.stdin is not None
                process.stdin.write(b"quit\n")
                process.stdin.flush()
                process.stdin.close()  # and the end of its input: a bot that reads on to it ends too
                process.wait(timeout=QUIT_SECONDS)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()  # the group too: a wrapper's children, a child it left behind


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    if os.name == "posix":
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    if process.poll() is None:
        try:
            process.kill()
        except OSError:
            pass


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} characters)"


class _Reader:
    """A thread reading an engine's stdout: it keeps the answer lines (``bestmove``,
    ``readyok``) and drops the rest, so a flood costs no memory.  It alone touches the
    stream (no lock for a close to wait on) and closes it at the end of output."""

    def __init__(self, stream: IO[bytes]):
        self.lines: queue.Queue[str] = queue.Queue(MAX_QUEUED_LINES)
        self.ended = threading.Event()
        threading.Thread(target=self._run, args=(stream,), daemon=True).start()

    def _run(self, stream: IO[bytes]) -> None:
        try:
            while line := stream.readline(MAX_ENGINE_LINE):
                rest = line
                while not rest.endswith(b"\n"):  # an overlong line: keep its start, skip the rest
                    rest = stream.readline(MAX_ENGINE_LINE)
                    if not rest:
                        break
                if line.startswith((b"bestmove", b"readyok")):
                    try:
                        self.lines.put_nowait(line.decode("utf-8", "replace"))
                    except queue.Full:
                        pass  # nobody asked: stale
        except (OSError, ValueError):
            pass
        finally:
            self.ended.set()
            try:
                stream.close()
            except OSError:
                pass

    def get(self, timeout: float) -> str | None:
        try:
            return self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None

    def drain(self) -> None:
        while True:
            try:
                self.lines.get_nowait()
            except queue.Empty:
                return


def rules_words(rules: Rules) -> str:
    """The native dialect's ``rules`` arguments for ``rules``."""
    words = f"rows {rules.rows} cols {rules.cols} connect {rules.connect}"
    if not rules.gravity:
        words += " gravity off"
    if rules.mode is not Mode.CLASSIC:
        words += f" mode {rules.mode.value}"
    return words


def engine_command(text: str) -> str:
    """The command of ``engine:COMMAND``; a command quoted whole (``engine:"python3 bot.py"``)
    loses its quotes, any other keeps them (``python3 "my bot.py"``).

    Raises:
        ValueError: the command is empty, unbalanced, or names no program to run.
    """
    command = text[len(ENGINE_PREFIX) :].strip()
    try:
        words = shlex.split(command)
    except ValueError as problem:
        raise ValueError(f"engine:{command}: {problem}") from None
    if len(words) == 1 and command[:1] in "\"'" and command[:1] == command[-1:]:
        command = words[0].strip()  # the whole command was quoted: its words are inside
        try:
            words = shlex.split(command)
        except ValueError as problem:
            raise ValueError(f"engine:{command}: {problem}") from None
    if not words:
        raise ValueError("engine: needs a command, e.g. engine:'python3 bot.py'")
    if shutil.which(words[0]) is None:
        raise ValueError(f"engine:{command}: no program {words[0]!r} to run")
    return command


def make_player(spec: str, *, seed: int = 0, by_work: bool = False) -> Player:
    """A player from its command-line name: a level (``hard``, ``depth:6``) or
    ``engine:COMMAND``.  ``by_work``: a level plays by its work alone, with no move clock
    (``LevelChooser``, as the ladder was measured), so no machine and no load changes its
    moves; otherwise it plays under the match's clock (``LevelPlayer``).

    Raises:
        LevelNotFound: neither a level nor an engine.
        ValueError: an engine command that is empty or names no program to run.
    """
    if spec.lower().startswith(ENGINE_PREFIX):
        return EnginePlayer(engine_command(spec))
    if by_work:
        return LevelChooser(spec.strip().lower(), find_level(spec), seed=seed)
    return LevelPlayer(spec, seed=seed)


@dataclass(frozen=True)
class PlayerChoice:
    """A command-line player (a level or ``engine:COMMAND``) for ``play_match``: each
    worker builds its own (one engine process per running game).  ``by_work``: see
    ``make_player``."""

    text: str
    seed: int = 0
    by_work: bool = False

    @property
    def name(self) -> str:
        return make_player(self.text, seed=self.seed, by_work=self.by_work).name

    def __call__(self) -> Player:
        return make_player(self.text, seed=self.seed, by_work=self.by_work)


# -- reports --------------------------------------------------------------------------


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


def pgn_text(
    game: GameRecord,
    name_a: str,
    name_b: str,
    rules: Rules,
    date: str,
    played_at: float | None = None,
    *,
    event: str | None = None,
) -> str:
    """One game as a game file's game (``game.game_file``): its tags, then numbered moves
    and the result; ``Round``, ``Opening`` and ``Termination`` say the match's part.
    ``played_at``: when it finished (then ``Date``, ``Time`` and ``Timestamp`` say it, and
    two equal games of a match are two games when imported).  ``event``: the ``Event`` tag
    (default ``A vs B``)."""
    first, second = (name_a, name_b) if game.first is Side.A else (name_b, name_a)
    tags = {
        "Event": event or f"{name_a} vs {name_b}",
        "Date": date,
        "Round": str(game.number),
        "Opening": game.opening,
        "Termination": game.termination.value + (f" ({game.detail})" if game.detail else ""),
    }
    played = GameText(
        rules, game.moves, first=first, second=second, result=game.result_text(), played_at=played_at, tags=tags
    )
    return game_text(played)


def write_pgn(result: MatchResult, out: TextIO, *, date: str | None = None) -> None:
    """Write every game of ``result`` in the PGN-like format."""
    date = date or time.strftime("%Y.%m.%d")
    for game in result.games:
        out.write(pgn_text(game, result.name_a, result.name_b, result.rules, date))


class PgnWriter:
    """Writes each game to a file as it finishes (in finishing order; ``Round`` is its
    number).  The file is not touched before the first game is ready (an old file is
    not truncated by a match that ends before it); a failed write is said once on
    ``warn`` and writing stops, while the match and its report go on."""

    def __init__(self, path: str, name_a: str, name_b: str, rules: Rules, *, warn: TextIO | None = None):
        self.path = path
        self.names = (name_a, name_b)
        self.rules = rules
        self.warn = warn if warn is not None else sys.stderr
        self.date = time.strftime("%Y.%m.%d")
        self.written = 0
        self.offered = 0
        self.failed: str | None = None
        self._file: TextIO | None = None

    def add(self, game: GameRecord) -> None:
        self.offered += 1
        if self.failed is not None:
            return
        try:
            if self._file is None:
                self._file = open(self.path, "w", encoding="utf-8")
            self._file.write(pgn_text(game, *self.names, self.rules, self.date, time.time()))
            self._file.flush()
            self.written += 1
        except OSError as problem:
            self.failed = problem.strerror or str(problem)
            say_cannot_write(self.warn, self.path, self.failed, self.written, "match")

    def close(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError as problem:
                if self.failed is None:
                    self.failed = problem.strerror or str(problem)
                    self.warn.write(f"cannot write {self.path}: {self.failed}\n")
            self._file = None

    def failure_line(self) -> str | None:
        """The last word on a failed file, for after the report: what failed, and how
        many of the games it got (None when every game was written)."""
        if self.failed is None:
            return None
        return cannot_write_line(self.path, self.failed, self.written, self.offered, "match")


def say_cannot_write(warn: TextIO, path: str, failed: str, written: int, what: str) -> None:
    """Say once, as it happens, that a game file cannot be written and the ``what`` (match,
    tournament) goes on."""
    warn.write(
        f"\ncannot write {path}: {failed}; the {what} goes on without it "
        f"({written} games written, the report has them all)\n"
    )
    warn.flush()


def cannot_write_line(path: str, failed: str, written: int, offered: int, what: str) -> str:
    """The last word on a game file that failed: what failed and how many games it got."""
    return (
        f"{what}: error: cannot write {path}: {failed}; {written} of {offered} "
        "games written to it (the report above has them all)"
    )


def format_outcome(outcome: MatchOutcome) -> str:
    """The report of ``format_report``, then the SPRT summary and what stopped short."""
    lines = [format_report(outcome.result)]
    if outcome.sprt is not None:
        lines += outcome.sprt.lines()
    lines += stop_lines(len(outcome.result.games), outcome.unplayed, outcome.interrupted, outcome.error)
    return "\n".join(lines)


def stop_lines(played: int, unplayed: tuple[int, ...], interrupted: bool, error: str | None) -> list[str]:
    """What kept games from being played: given up (their workers died), Ctrl+C, an error."""
    lines = []
    if unplayed:
        lines.append(
            f"Not played (their worker process died {1 + MAX_REPLAYS} times): games " + ", ".join(map(str, unplayed))
        )
    if interrupted:
        lines.append(f"Stopped by the user after {played} finished games.")
    if error is not None:
        lines.append(f"Stopped after {played} finished games: {error}")
    return lines
