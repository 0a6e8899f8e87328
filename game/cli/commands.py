"""The table of commands: each command's name, its line in ``--help`` and the module that
adds its arguments and runs it.

The parser is built from ``COMMANDS`` and a command is run through it.  A command's module
is imported only when that command is chosen (``load``): ``--help`` imports no AI module,
the cheap commands (``games``, ``open``) never the solver or numba, and each command module
imports what it needs at its top.  A command module ends with ``COMMANDS``, a dict from each of its names to its
``CommandCode``; a test checks that the table and the modules agree.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

AddArguments = Callable[[argparse.ArgumentParser], None]
"""Adds a command's arguments (and its description) to its parser."""
Run = Callable[[argparse.Namespace, TextIO, TextIO], int]
"""Runs a command on the parsed arguments, stdout and stdin; returns the exit code."""


@dataclass(frozen=True)
class CommandCode:
    """What a command module gives for one of its commands."""

    add_arguments: AddArguments
    run: Run
    user_errors: tuple[type[Exception], ...] = ()
    """Errors of the layers below (a book the solver cannot do without) said in one line."""


@dataclass(frozen=True)
class Command:
    """A line of the table: the command, its line in ``--help``, its module."""

    name: str
    help: str
    module: str

    def load(self) -> CommandCode:
        """Import the command's module (now, not before) and return its code."""
        code = importlib.import_module(self.module).COMMANDS[self.name]
        if not isinstance(code, CommandCode):
            raise TypeError(f"{self.module}.COMMANDS[{self.name!r}] is not a CommandCode")
        return code


COMMANDS = (
    Command(
        "one-move",
        "Max-Connect-4: read a board file, play one computer move, write the result",
        "game.cli.assignment",
    ),
    Command(
        "interactive", "Max-Connect-4: play a whole game against the computer in the terminal", "game.cli.assignment"
    ),
    Command("analyze", "search a position and show the move, values, statistics and the tree", "game.cli.analysis"),
    Command(
        "explain",
        "why the exact verdict holds: a proved reason (forced line, double threat, strategy of pairs)",
        "game.cli.explain",
    ),
    Command("solve", "exact perfect-play scores of move strings (benchmark format)", "game.cli.solving"),
    Command(
        "engine",
        "be a bot on stdin/stdout (arena Four-in-a-Row or native position/go/bestmove dialect)",
        "game.cli.matches",
    ),
    Command("match", "play a match between levels or external engines, with W/D/L, score and Elo", "game.cli.matches"),
    Command(
        "tournament",
        "a round robin or gauntlet of many levels or engines, with a rating list, intervals and LOS",
        "game.cli.tournaments",
    ),
    Command("connectx", "write a Kaggle ConnectX submission (one self-contained main.py)", "game.cli.matches"),
    Command(
        "review",
        "the exact review of a game: every move classed best/good/mistake/blunder, accuracy, a graph",
        "game.cli.review",
    ),
    Command("games", "list the stored games (the archive the window fills), or export them", "game.cli.games"),
    Command(
        "explore",
        "the solved openings: every column's exact value beside your own games from there",
        "game.cli.explore",
    ),
    Command("host", "host a game on the local network: an address and a join code to read aloud", "game.cli.network"),
    Command("join", "join (or --watch) a game hosted on the local network", "game.cli.network"),
    Command("puzzles", "puzzles checked by the exact solver, near a rating or from your own games", "game.cli.puzzles"),
    Command("rating", "your Glicko-2 rating from your games against the levels and your puzzles", "game.cli.puzzles"),
    Command("package", "build the program as one folder that runs without Python (PyInstaller)", "game.cli.package"),
)
"""Every command of the command line's own (the window's commands are added by ``game.launcher``)."""

HELP_ORDER = (
    "one-move",
    "interactive",
    "analyze",
    "explain",
    "open",
    "solve",
    "depth-chart",
    "mcts-chart",
    "engine",
    "match",
    "tournament",
    "connectx",
    "review",
    "games",
    "explore",
    "host",
    "join",
    "course",
    "puzzles",
    "rating",
    "package",
)
"""The order ``--help`` lists the commands in (a command not named here comes last)."""


def in_help_order(commands: tuple[Command, ...]) -> tuple[Command, ...]:
    """``commands`` in ``HELP_ORDER``."""
    return tuple(sorted(commands, key=lambda c: HELP_ORDER.index(c.name) if c.name in HELP_ORDER else len(HELP_ORDER)))
