"""What every command shares: the one-line error parser, the rule options and the checks of
the numbers and names a command is given."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import TextIO

from game.board import Board
from game.cli.errors import EXIT_BAD_INPUT, CliError, one_line
from game.cli.files import shown
from game.i18n import _, counted
from game.rules import Mode, Rules, RulesError


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage dump)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        message = one_line(message)  # an argument may hold a newline, or be huge
        self.exit(EXIT_BAD_INPUT, _("{prog}: error: {message} (see --help)\n").format(prog=self.prog, message=message))


def add_rule_options(parser: argparse.ArgumentParser, default_mode: Mode) -> None:
    """``--rows --cols --connect --no-gravity --mode``: the rules a command plays by."""
    group = parser.add_argument_group("rules")
    group.add_argument("--rows", type=int, help="board rows, 4..10 (default 6, or the file's)")
    group.add_argument("--cols", type=int, help="board columns, 4..12 (default 7, or the file's)")
    group.add_argument("--connect", type=int, default=4, help="line length K, 3..6 (default 4)")
    group.add_argument("--no-gravity", action="store_true", help="discs may go in any empty cell")
    group.add_argument(
        "--mode",
        choices=[m.value for m in Mode],
        default=default_mode.value,
        help=f"classic: first line wins; full-board: play to the end, every line scores (default {default_mode.value})",
    )


def add_game_option(parser: argparse.ArgumentParser) -> None:
    """``--game N``: which game of a game file holding several."""
    parser.add_argument(
        "--game", dest="game_number", type=int, metavar="N", help="the game of a file with several (default 1)"
    )


def program_name() -> str:
    """How the user started us: ``connect4`` (the installed script) or ``main.py``."""
    return "connect4" if Path(sys.argv[0]).name == "connect4" else "main.py"


def rules_from_args(args: argparse.Namespace) -> Rules:
    """Build the rules the options ask for (size defaults 6x7; ``--rows 0`` is refused)."""
    try:
        return Rules(
            rows=6 if args.rows is None else args.rows,
            cols=7 if args.cols is None else args.cols,
            connect=args.connect,
            gravity=not args.no_gravity,
            mode=Mode(args.mode),
        )
    except RulesError as error:
        raise CliError(str(error)) from None


def check_depth(depth: int, board: Board | None = None, err: TextIO | None = None) -> int:
    """Refuse a depth under 1; cap it at the board's empty cells (said once on ``err``)."""
    if depth < 1:
        raise CliError(_("depth must be at least 1, not {depth}").format(depth=depth))
    if board is not None:
        empty = max(1, int((board.grid == 0).sum()))
        if depth > empty:
            shown = (
                f"{depth:,}"
                if depth < 10**12
                else _("{depth}... ({count} digits)").format(depth=str(depth)[:6], count=len(str(depth)))
            )
            print(
                _("note: depth {shown} capped at {empty}, the empty cells left").format(shown=shown, empty=empty),
                file=err or sys.stderr,
            )
            return empty
    return depth


def check_seconds(seconds: float | None, option: str) -> float | None:
    """Refuse a number of seconds that is not finite and positive; None (no limit) passes."""
    if seconds is not None and not (math.isfinite(seconds) and seconds > 0):
        raise CliError(
            _("{option} must be a positive number of seconds, not {seconds}").format(option=option, seconds=seconds)
        )
    return seconds


def refuse_nul(args: argparse.Namespace) -> None:
    """No file name or option can hold a NUL character (a shell cannot pass one; a caller can)."""
    for name, value in vars(args).items():
        if isinstance(value, str) and "\x00" in value:
            raise CliError(_("{name} holds a NUL character: {shown}").format(name=name, shown=shown(value)))


def plural(count: int, one: str, many: str = "") -> str:
    """``1 node``, ``2,000 nodes`` (in the language in use)."""
    return counted(count, one)
