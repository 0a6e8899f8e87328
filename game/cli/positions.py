"""The position or game a command is given: a Max-Connect-4 board file, or any SOURCE
``game.sources`` reads (a move string, a ``?pos=`` link, a game file, a board file)."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace

from game.board import Board
from game.board_file import parse_board_text
from game.cli.errors import CliError
from game.cli.files import read_input_file, short
from game.cli.options import rules_from_args
from game.i18n import _
from game.rules import Mode
from game.sources import Source, SourceError, is_moves_text, read_source


def read_board_file(path: str, args: argparse.Namespace) -> Board:
    """Load a board file; its size unless --rows/--cols say otherwise (each on its own)."""
    rules = rules_from_args(args)
    try:
        text = read_input_file(path).decode("ascii")
    except UnicodeDecodeError:
        raise CliError(_("{path} is not a text board file (bytes that are not ASCII)").format(path=path)) from None
    size = {name: getattr(args, name) for name in ("rows", "cols") if getattr(args, name) is not None}
    try:
        grid, to_move = parse_board_text(text, gravity=rules.gravity, **size)
        rules = replace(rules, rows=grid.shape[0], cols=grid.shape[1])
    except ValueError as error:  # BoardFileError, or a size that cannot hold the line length
        raise CliError(f"{path}: {error}") from None
    board = Board(rules, grid, to_move)
    outcome = board.outcome()
    if outcome is not None and rules.mode is Mode.CLASSIC and not board.is_full():
        raise CliError(
            _("{path}: the game is already over ({result_text})").format(path=path, result_text=outcome.result_text())
        )
    return board


def read_game(text: str, args: argparse.Namespace) -> Source:
    """The game a SOURCE names (``game.sources``: a move string, a ``?pos=`` link, a game
    file or a board file), read with the rule options; one line when it is none."""
    rules = rules_from_args(args)
    try:
        number = getattr(args, "game_number", None) or 1
        found = read_source(text, rules, number=number, rows=args.rows, cols=args.cols)
    except SourceError as error:
        message = str(error)
        if is_moves_text(text) and os.path.exists(text):
            message += _(" (a file of that name: write ./{short})").format(short=short(text))
        raise CliError(message) from None
    if found.games_in_file > 1 and getattr(args, "game_number", None) is None:
        print(
            _("note: {short} holds {games_in_file} games: this is the first (--game N for another)").format(
                short=short(text), games_in_file=found.games_in_file
            ),
            file=sys.stderr,
        )
    return found


def read_position(text: str, args: argparse.Namespace) -> Board:
    """The position after every move of the game a SOURCE names (``read_game``)."""
    found = read_game(text, args)
    board = found.game.board()
    outcome = board.outcome()
    if found.game.start is not None and not board.moves and outcome is not None:
        if board.rules.mode is Mode.CLASSIC and not board.is_full():
            raise CliError(
                _("{label}: the game is already over ({result_text})").format(
                    label=found.label, result_text=outcome.result_text()
                )
            )
    return board
