"""``open SOURCE``: the game window on a game file, a move string, a ``?pos=`` link or a board file.

A command of the window's package (``game.launcher`` adds it to the command line's table):
SOURCE is read by the command line's checked reader first, and the window opens only on
a game that can be shown.
"""

from __future__ import annotations

import argparse
from typing import TextIO

from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.options import add_game_option, add_rule_options
from game.cli.positions import read_game
from game.display_check import display_problem
from game.rules import Mode


def add_open_arguments(opener: argparse.ArgumentParser) -> None:
    """open SOURCE [--game N] and the rules."""
    opener.description = (
        "Open the game window on SOURCE: a game file (.c4, docs/game-file.md), a move "
        "string such as 4453, a solver-page link (https://connect4.gamesolver.org/?pos=4453) or a "
        "Max-Connect-4 board file. A game opens in its review, to step through move by move; "
        "P there plays on from the shown move against any level."
    )
    opener.add_argument("source", metavar="SOURCE")
    add_game_option(opener)
    add_rule_options(opener, Mode.CLASSIC)


def run_open(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """``open SOURCE``: the window on the game SOURCE names (read first: a bad source is
    one line and exit code 2, and no window)."""
    found = read_game(args.source, args)
    problem = display_problem()
    if problem:
        raise CliError(problem)
    from game.app.loop import launch  # pygame: loaded only once SOURCE is read and can be shown

    return launch(opened=found)


COMMANDS = {"open": CommandCode(add_open_arguments, run_open)}
