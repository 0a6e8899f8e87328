"""``solve``: exact perfect-play scores of move strings, or of one game (benchmark format)."""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
from typing import TextIO

from ai.book import BookError, book_problems
from ai.compiled import solver_kernel
from ai.solver import (
    Solution,
    SolveLimit,
    Solver,
    SolverError,
    SolverProgress,
    SolverStopped,
    compact_table_slots,
)
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.files import is_terminal, read_line, short
from game.cli.options import add_game_option, add_rule_options, check_seconds, plural, rules_from_args
from game.cli.positions import read_game
from game.game_file import looks_like_game_file
from game.i18n import N_, _
from game.notation import NotationError, parse_moves
from game.rules import Mode
from game.sources import Source, SourceError, is_link, is_moves_text, read_link, read_text_file


def add_solve_arguments(solve: argparse.ArgumentParser) -> None:
    """solve [SOURCE] [--weak] [--time-limit S] and the rules."""
    solve.description = (
        "Read lines of move strings (or ?pos= links) from a file or stdin "
        "(anything after the first space is ignored) and print 'MOVES SCORE' per line; or solve "
        "the one game SOURCE names (a move string, a link, a game file, a board file). Score: from the side "
        "to move, 22 minus the winner's discs at the end on 6x7 (negative for a loss), "
        "0 for a draw."
    )
    solve.add_argument(
        "file",
        metavar="SOURCE",
        nargs="?",
        help="a file of move-string lines, or one game: a move string, a ?pos= link, a game file "
        "or a board file (default: lines from standard input)",
    )
    add_game_option(solve)
    solve.add_argument("--weak", action="store_true", help="only win/draw/loss as 1/0/-1")
    solve.add_argument(
        "--time-limit",
        type=float,
        metavar="S",
        help="seconds per position; a line not solved in time says 'unknown within S s'",
    )
    solve.add_argument(
        "--solver-status",
        action="store_true",
        help="say on stderr at the end which exact solver answered: the fast (compiled) one or the pure-Python one",
    )
    add_rule_options(solve, Mode.CLASSIC)


PROGRESS_SECONDS = 2.0
"""solve: seconds between two progress lines on stderr."""

SOLVE_PROMPT = N_("solve: reading positions from standard input, one per line; Ctrl+D to end")
"""Said on stderr when ``solve`` would otherwise wait silently on a terminal."""

BOOK_FALLBACK = N_("the exact solver works without it (same answers, slower)")


class SolveWatch:
    """``solve``'s progress on stderr for a line that takes long (with or without
    ``--time-limit``): polled by the solver every few thousand nodes, it prints a line
    every ``PROGRESS_SECONDS`` and never stops the solve."""

    def __init__(self, solver: Solver, number: int, moves: str):
        self.solver = solver
        self.number, self.moves = number, moves
        self.started = self.last_report = time.perf_counter()
        self.low: int | None = None
        self.high: int | None = None

    def bounds(self, progress: SolverProgress) -> None:
        """The solver's ``on_progress``: the score's bounds so far."""
        self.low, self.high = progress.low, progress.high

    def __call__(self) -> bool:
        now = time.perf_counter()
        if now - self.last_report >= PROGRESS_SECONDS:
            self.last_report = now
            known = (
                _(", score between {low} and {high}").format(low=self.low, high=self.high)
                if self.low is not None
                else ""
            )
            print(
                _("solve: line {number} ({short}): {now:.0f} s, {plural} searched{known}").format(
                    number=self.number,
                    short=short(self.moves),
                    now=now - self.started,
                    plural=plural(self.solver.nodes, "position"),
                    known=known,
                ),
                file=sys.stderr,
                flush=True,
            )
        return False


def _limit(args: argparse.Namespace, watch: SolveWatch) -> SolveLimit:
    """The solver's budget for one ``solve`` position: ``--weak``, ``--time-limit``, and
    ``watch`` polled for progress (it never stops the solve)."""
    return SolveLimit(weak=args.weak, time=args.time_limit, should_stop=watch)


def _solve_input(args: argparse.Namespace, stdin: TextIO) -> tuple[TextIO, Source | None]:
    """What ``solve`` reads: lines of move strings (a file of them, or stdin), or one
    game (a move string, a ``?pos=`` link, a game file or a board file: ``game.sources``)."""

    if not args.file:
        if is_terminal(stdin):
            print(_(SOLVE_PROMPT), file=sys.stderr, flush=True)
        return stdin, None
    if not os.path.exists(args.file) and (is_moves_text(args.file) or is_link(args.file)):
        return io.StringIO(""), read_game(args.file, args)
    try:
        text = read_text_file(args.file)
    except SourceError as error:
        raise CliError(str(error)) from None
    lines = [line.strip() for line in text.strip().splitlines()]
    board_file = len(lines) >= 5 and all(line.isdigit() for line in lines)
    if board_file or looks_like_game_file(text):
        return io.StringIO(""), read_game(args.file, args)
    return io.StringIO(text), None


def _solve_line(solver: Solver, words: str, number: int, args: argparse.Namespace) -> tuple[str, Solution]:
    """(what the line is called, its solution) for a line of ``solve``: a move string or a link."""
    moves_text = words
    watch = SolveWatch(solver, number, moves_text)
    try:
        if is_link(moves_text) and not is_moves_text(moves_text):
            game = read_link(moves_text)
            moves_text, moves = game.moves_string(), list(game.moves)
        else:
            moves = parse_moves("" if moves_text in ('""', "''", "-") else moves_text, solver.rules)
        solution = solver.solve_moves(moves, limit=_limit(args, watch), on_progress=watch.bounds)
    except (NotationError, SolverError, SourceError) as error:
        raise CliError(_("line {number}: {words}: {error}").format(number=number, words=words, error=error)) from None
    return moves_text, solution


def _game_name(found: Source) -> str:
    """How ``solve`` names a game's position: its move string, else where it came from."""
    return found.game.moves_string() if found.game.from_empty else found.label


def _solve_game(solver: Solver, found: Source, args: argparse.Namespace) -> tuple[str, Solution]:
    """(its name, its solution) for the one game ``solve`` was given."""
    game = found.game
    name = _game_name(found)
    watch = SolveWatch(solver, 1, name)
    board = game.board()
    try:
        if game.from_empty:
            solution = solver.solve_moves(list(game.moves), limit=_limit(args, watch), on_progress=watch.bounds)
        else:
            solution = solver.solve_grid(board.grid, board.to_move, limit=_limit(args, watch))
    except SolverError as error:
        raise CliError(f"{found.label}: {error}") from None
    return name, solution


def run_solve(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """solve: a score per line read (or for the one game given), book problems and progress on stderr."""
    check_seconds(args.time_limit, "--time-limit")
    source, game = _solve_input(args, stdin)
    rules = game.game.rules if game is not None else rules_from_args(args)
    try:
        solver = Solver(rules, table_slots=compact_table_slots(rules))  # fastest for a list past the book
    except SolverError as error:
        raise CliError(str(error)) from None
    started = last_report = time.perf_counter()
    unknown = 0
    noted: set[str] = set()
    with source:
        number = 0
        while game is not None or (line := read_line(source, _("line {number}").format(number=number + 1))):
            number += 1
            words = line.split() if game is None else ["-"]
            if not words:
                continue
            name = words[0] if game is None else _game_name(game)
            try:
                name, solution = (
                    _solve_line(solver, words[0], number, args) if game is None else _solve_game(solver, game, args)
                )
            except SolverStopped:
                unknown += 1
                print(
                    _("{name} unknown within {time_limit:g} s").format(name=name, time_limit=args.time_limit),
                    file=out,
                    flush=True,
                )
            else:
                print(f"{name} {solution.score}", file=out, flush=True)
            for problem in ([solver.book_note] if solver.book_note else []) + book_problems():
                if problem not in noted:  # each book that failed its check, said once
                    noted.add(problem)
                    print(
                        _("note: {problem}; {BOOK_FALLBACK}").format(problem=problem, BOOK_FALLBACK=_(BOOK_FALLBACK)),
                        file=sys.stderr,
                        flush=True,
                    )
            now = time.perf_counter()
            if now - last_report >= PROGRESS_SECONDS:
                last_report = now
                print(
                    _("solve: {plural} in {now:.1f} s").format(plural=plural(number, "line"), now=now - started)
                    + (_(", {unknown} unknown").format(unknown=unknown) if unknown else ""),
                    file=sys.stderr,
                    flush=True,
                )
            if game is not None:
                break
    if args.solver_status:
        print(f"solver: {solver_kernel.LOADER.status()}", file=sys.stderr)  # the loader's words are English
    return 0


COMMANDS = {"solve": CommandCode(add_solve_arguments, run_solve, user_errors=(BookError,))}
