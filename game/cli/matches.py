"""The bots: ``engine`` (a bot on stdin/stdout), ``match`` (a tournament between levels or
engines) and ``connectx`` (a Kaggle ConnectX submission); ``game.bots`` does the work."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from pathlib import Path
from typing import Protocol, TextIO

from ai.book import BookError
from ai.levels import LevelNotFound, find_level, level_names, strongest_level
from game.bots.connectx import write_submission
from game.bots.engine import Engine
from game.bots.runners import MatchPlan, Progress, cluster_executor, default_jobs, play_match
from game.bots.statistics import Sprt
from game.bots.tournament import PgnWriter, PlayerChoice, format_outcome, make_player
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.files import capped_lines, check_name_length, is_terminal, short
from game.cli.options import add_rule_options, rules_from_args
from game.i18n import N_, _
from game.rules import Mode


def add_engine_arguments(engine: argparse.ArgumentParser) -> None:
    """engine [--level NAME]."""
    engine.description = (
        "Speak a line protocol on stdin/stdout; the first command picks the dialect. "
        "Columns are 0-based on the wire. See docs/engine-protocol.md."
    )
    levels = ", ".join(level_names())
    engine.add_argument(
        "--level", default=strongest_level(), metavar="NAME", help=f"{levels} (default {strongest_level()})"
    )


def add_match_arguments(match: argparse.ArgumentParser) -> None:
    """match A B [--games N] [--movetime MS] [--jobs N] [--sprt ELO0 ELO1] [--cluster ADDRESS] ..."""
    match.description = (
        "A and B: a level (" + ", ".join(level_names()) + ") or engine:COMMAND, a program speaking "
        "the native dialect (e.g. engine:'python3 bot.py'). Each balanced opening is played "
        "twice, each side moving first once."
    )
    match.add_argument("player_a", metavar="A", help="a level name, depth:N, or engine:COMMAND")
    match.add_argument("player_b", metavar="B", help="the opponent, in the same forms")
    match.add_argument(
        "--games",
        type=int,
        metavar="N",
        help="games to play (default 20; with --sprt the most it plays, default 10,000)",
    )
    match.add_argument("--movetime", type=int, default=1000, metavar="MS", help="milliseconds per move (default 1000)")
    match.add_argument("--pgn", metavar="FILE", help="write every game to FILE in a PGN-like format")
    match.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="shuffle the openings with S and seed the noisy levels' judgement (Beginner)",
    )
    match.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="games played at once, each in its own worker process (default: the cores, at most the games)",
    )
    match.add_argument(
        "--sprt",
        nargs=2,
        type=float,
        metavar=("ELO0", "ELO1"),
        help="play game pairs until a sequential test decides between A - B <= ELO0 (H0) and >= ELO1 (H1); "
        "--games is the most it plays",
    )
    match.add_argument("--alpha", type=float, default=0.05, help="SPRT false positive rate (default 0.05)")
    match.add_argument("--beta", type=float, default=0.05, help="SPRT false negative rate (default 0.05)")
    match.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play on a Dask cluster (tcp://host:8786; needs pip install .[cluster]) instead of local workers",
    )
    add_rule_options(match, Mode.CLASSIC)


def add_connectx_arguments(connectx: argparse.ArgumentParser) -> None:
    """connectx --out DIR [--level NAME] [--force]."""
    connectx.description = (
        "Write DIR/main.py: the game and AI sources bundled into one file whose last "
        "function is agent(observation, configuration); it needs only numpy."
    )
    connectx.add_argument("--out", required=True, metavar="DIR", help="folder to write main.py into")
    connectx.add_argument("--level", help="the agent's level (default: game.bots.connectx.LEVEL)")
    connectx.add_argument("--force", action="store_true", help="overwrite DIR/main.py if it exists")


def run_engine(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """``game.bots.engine.serve``, with each protocol line capped at ``MAX_INPUT_BYTES`` (an
    endless line, as from /dev/zero, ends the session with one error line)."""
    if stdin is sys.stdin and hasattr(stdin, "reconfigure"):
        stdin.reconfigure(errors="replace")  # a stray byte makes a bad line, not a crash
    try:
        engine = Engine(out, level=args.level)
    except LevelNotFound as error:
        raise CliError(str(error)) from None
    if is_terminal(stdin):
        print(_(ENGINE_PROMPT), file=sys.stderr, flush=True)
    return engine.run(capped_lines(stdin, _("a protocol line")))


ENGINE_PROMPT = N_(
    "engine: waiting for protocol lines on standard input, e.g. 'position 3 3' then 'go movetime 1000' (0-based columns; docs/engine-protocol.md); Ctrl+D to end"
)
"""Said on stderr when ``engine`` would otherwise wait silently on a terminal."""

MAX_MATCH_GAMES = 100_000

MAX_MOVETIME_MS = 3_600_000  # an hour

MAX_MATCH_JOBS = 256

SPRT_MAX_GAMES = 10_000


def run_match(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """match: play it with Ctrl+C and ``kill`` stopping it cleanly (the finished games still reported)."""
    return run_stoppable(lambda stop: _match(args, out, stop))


def run_stoppable(play: Callable[[threading.Event], int]) -> int:
    """``play(stop)``, with Ctrl+C and ``kill PID`` raising KeyboardInterrupt in it and
    setting ``stop`` (a match or a tournament stops cleanly, its finished games reported)."""
    main_thread = threading.current_thread() is threading.main_thread()
    stop = threading.Event()
    match_process = os.getpid()

    def interrupt(signum: int, frame: object) -> None:
        if os.getpid() != match_process:  # a pool worker forked a moment ago: it ignores Ctrl+C
            return
        stop.set()  # also a flag: the games stop even where the exception goes astray
        raise KeyboardInterrupt

    # First of all: an exception raised inside an import (C code) can be swallowed, and the
    # match would go on; the flag stops it all the same.  ``kill PID`` stops the match as
    # Ctrl+C does: the pool and its engines are shut down and the finished games reported.
    previous = (
        {number: signal.signal(number, interrupt) for number in (signal.SIGINT, signal.SIGTERM)} if main_thread else {}
    )
    try:
        return play(stop)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextlib.contextmanager
def closed_after(*closers: Callable[[], None] | None) -> Iterator[None]:
    """Call each closer (a game file's, a cluster's) after the block, however it ends."""
    try:
        yield
    finally:
        for close in closers:
            if close is not None:
                close()


def notice(text: str) -> None:
    """A runner's notice (a worker died, games replayed) on a line of its own, below the
    progress line."""
    print(f"\n{text}", file=sys.stderr, flush=True)


def player_choices(texts: list[str], seed: int, *, by_work: bool = False) -> list[PlayerChoice]:
    """The players named on the command line, each checked before any game.

    Raises:
        CliError: an unknown level, or an engine command that names no program to run.
    """
    try:
        choices = [PlayerChoice(text, seed, by_work) for text in texts]
        for choice in choices:
            make_player(choice.text, seed=seed, by_work=by_work)
    except (LevelNotFound, ValueError) as error:
        raise CliError(str(error)) from None
    return choices


def _match(args: argparse.Namespace, out: TextIO, stop: threading.Event) -> int:
    """``match``, with Ctrl+C setting ``stop`` (``run_match``)."""
    rules = rules_from_args(args)
    jobs, sprt = _match_options(args)
    seed = args.seed if args.seed is not None else 0
    specs = player_choices([args.player_a, args.player_b], seed)
    names = [spec.name for spec in specs]
    executor, close_cluster = match_cluster(args.cluster)
    pgn = PgnWriter(args.pgn, names[0], names[1], rules) if args.pgn else None
    if args.pgn:
        check_name_length(args.pgn, f"--pgn {short(args.pgn)}")
        try:
            open(args.pgn, "a", encoding="utf-8").close()  # can it be written? (truncated at the first game)
        except OSError as error:
            raise CliError(
                _("cannot write {pgn}: {value}").format(pgn=args.pgn, value=error.strerror or error)
            ) from None
    with closed_after(pgn.close if pgn is not None else None, close_cluster):
        outcome = play_match(
            specs[0],
            specs[1],
            MatchPlan(rules, games=args.games, movetime=args.movetime / 1000, seed=args.seed),
            jobs=jobs,
            executor=executor,
            sprt=sprt,
            on_game=pgn.add if pgn is not None else None,
            progress=Progress(args.games, sprt=sprt),
            notice=notice,
            stop_requested=stop.is_set,
        )
    print(format_outcome(outcome), file=out)
    return last_words(pgn, args.pgn, out, interrupted=outcome.interrupted, error=outcome.error)


class GameFile(Protocol):
    """A ``--pgn`` file being written as games finish (a match's, a tournament's)."""

    failed: str | None
    written: int

    def failure_line(self) -> str | None: ...


def last_words(pgn: GameFile | None, path: str | None, out: TextIO, *, interrupted: bool, error: str | None) -> int:
    """After the report: where the games went (on ``out``) or, as the very last line,
    that they could not all go there; returns the exit code (130 stopped by the user, 1
    an error or a game file that failed, else 0)."""
    if pgn is not None and pgn.failed is None and pgn.written:
        print(_("Games written to {pgn}").format(pgn=path), file=out)
    failure = pgn.failure_line() if pgn is not None else None
    if failure is not None:  # the last line: not lost among the progress lines
        print(failure, file=sys.stderr)
    if interrupted:
        return 130
    if error is not None:
        return 1
    return 1 if failure is not None else 0


def _match_options(args: argparse.Namespace) -> tuple[int, Sprt | None]:
    """match's numbers, checked (``args.games`` gets its default): the jobs, and the SPRT
    where ``--sprt`` asks for one.

    Raises:
        CliError: a number out of its range, or SPRT bounds that make no test.
    """
    if args.games is None:
        args.games = SPRT_MAX_GAMES if args.sprt is not None else 20
    jobs = checked_jobs(args.games, args.movetime, args.jobs)
    if args.sprt is None:
        return jobs, None
    try:
        return jobs, Sprt(args.sprt[0], args.sprt[1], alpha=args.alpha, beta=args.beta)
    except ValueError as error:
        raise CliError(str(error)) from None


def checked_jobs(games: int, movetime: int, jobs: int | None, *, games_option: str = "--games") -> int:
    """The games (``games_option`` says which option gave them), ``--movetime`` and
    ``--jobs`` checked; returns the jobs (default: one per core, at most one per game).

    Raises:
        CliError: a number out of its range.
    """
    if not 1 <= games <= MAX_MATCH_GAMES:
        raise CliError(f"{games_option} must be 1..{MAX_MATCH_GAMES:,}, not {games}")
    if not 1 <= movetime <= MAX_MOVETIME_MS:
        raise CliError(f"--movetime must be 1..{MAX_MOVETIME_MS:,} ms, not {movetime}")
    chosen: int = jobs if jobs is not None else default_jobs(games)
    if not 1 <= chosen <= MAX_MATCH_JOBS:
        raise CliError(f"--jobs must be 1..{MAX_MATCH_JOBS}, not {chosen}")
    return chosen


def match_cluster(address: str | None) -> tuple[Executor | None, Callable[[], None] | None]:
    """The executor of the Dask cluster at ``address`` and what closes it; (None, None)
    without ``--cluster`` (the games run here).

    Raises:
        CliError: no Dask, or a bad address (game.bots.cluster says what and where in one line).
    """
    if address is None:  # "" too is refused, not played here
        return None, None

    try:
        return cluster_executor(address)
    except ImportError:
        raise CliError("--cluster needs Dask's distributed: pip install .[cluster]") from None
    except ValueError as error:
        raise CliError(str(error)) from None


def run_connectx(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """connectx: write DIR/main.py, never over this game's own main.py nor, without --force, any other."""
    if args.level:
        try:
            find_level(args.level)
        except LevelNotFound as error:
            raise CliError(str(error)) from None
    check_name_length(args.out, f"--out {short(args.out)}")
    if Path(args.out).exists() and not Path(args.out).is_dir():
        raise CliError(f"--out {args.out} is a file, not a folder")
    target, own = Path(args.out) / "main.py", Path(__file__).resolve().parents[2] / "main.py"
    if target.exists() and os.path.samefile(target, own):
        raise CliError(
            _("{target} is this game's own main.py: write the submission into another folder").format(target=target)
        )
    if target.exists() and not args.force:
        raise CliError(
            _("{target} already exists: give --force to overwrite it, or another folder").format(target=target)
        )
    try:
        path = write_submission(Path(args.out), level=args.level)
    except OSError as error:
        raise CliError(
            _("cannot write into {out}: {value}").format(out=args.out, value=error.strerror or error)
        ) from None
    print(
        _("Wrote {path} ({st_size:,} bytes): submit it as the ConnectX agent.").format(
            path=path, st_size=path.stat().st_size
        ),
        file=out,
    )
    return 0


COMMANDS = {
    "engine": CommandCode(add_engine_arguments, run_engine, user_errors=(BookError,)),
    "match": CommandCode(add_match_arguments, run_match, user_errors=(BookError,)),
    "connectx": CommandCode(add_connectx_arguments, run_connectx, user_errors=(BookError,)),
}
