"""The ``explore`` command: the solved-opening explorer in a terminal.

connect4 explore              the empty board: every column's exact value and your games
connect4 explore 4453 --json  {"moves": "4453", "columns": [{"column": 1, "score": ..., ...}]}
"""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from ai.book import BookError
from game.board import Board
from game.cli.archive_folder import add_home_option, open_archive
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.i18n import _, ngettext
from game.learn.explorer import ExploreRow, exact_columns, explore_json, explore_rows
from game.rules import MAX, STANDARD
from game.sources import SourceError, read_source


def add_explore_arguments(explore: argparse.ArgumentParser) -> None:
    """explore [MOVES] [--json] [--home DIR]."""
    explore.description = (
        "MOVES is a move string from the empty 6x7 board (1-based columns, e.g. 4453; "
        "none: the empty board), a solver-page link with ?pos=, or a game file (its last position). For every playable column: its exact value with perfect play "
        "(from the opening book and the solver, within a hint's budget; score in the benchmark "
        "convention from the side to move, the negation of 'solve' of the position it leaves), and "
        "the stored games in which you were to move there: how often you played it, how those "
        "games ended for you, and how often it threw the exact outcome away."
    )
    explore.add_argument("moves", metavar="MOVES", nargs="?", default="", help="or a ?pos= link, or a game file")
    explore.add_argument("--json", action="store_true", help="print one JSON object")
    add_home_option(explore)


def run_explore(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """Print the explorer's rows for the position after ``args.moves``."""
    text = args.moves.strip()
    try:
        game = read_source("" if text in ('""', "''", "-") else text).game
    except SourceError as error:
        raise CliError(str(error)) from None
    if game.rules != STANDARD or not game.from_empty:
        raise CliError(_("the explorer is for games from the empty 6x7 board (connect 4, gravity, classic)"))
    board = game.board()
    records = open_archive(args.home, reading=True).games()
    scores = exact_columns(board)
    reached, rows = explore_rows(board, scores, records)
    if args.json:
        print(json.dumps(explore_json(board, reached, rows)), file=out)
        return 0
    for line in explore_lines(board, reached, rows, proven=scores is not None):
        print(line, file=out)
    return 0


def explore_lines(board: Board, reached: int, rows: list[ExploreRow], *, proven: bool) -> list[str]:
    """The table the command prints."""
    moves = board.moves_string() or _("the empty board")
    who = _("player 1") if board.to_move == MAX else _("player 2")
    games = ngettext(
        "{reached} of your stored games reached it", "{reached} of your stored games reached it", reached
    ).format(reached=reached)
    lines = [_("Position: {moves}, {who} to move; {games}.").format(moves=moves, who=who, games=games)]
    outcome = board.outcome()
    if outcome is not None:
        return lines + [_("The game is over here: {result_text}.").format(result_text=outcome.result_text())]
    if not proven:
        lines.append(_("The exact values were not proven within a hint's budget here."))
    heads = (_("column"), _("exact value for {who}").format(who=who), _("score"), _("you played it"), _("W/D/L"))
    left = _("left the truth")
    lines.append(f"{heads[0]:>6}  {heads[1]:<26}{heads[2]:>6}  {heads[3]:>13}  {heads[4]:<8} {left}")
    for row in rows:
        score = "" if row.score is None else f"{row.score:+d}" if row.score else "0"
        wdl = f"{row.games.wins}/{row.games.draws}/{row.games.losses}" if row.games.games else "-"
        left = str(row.left_truth) if row.games.games else "-"
        lines.append(f"{row.column + 1:>6}  {row.words:<26}{score:>6}  {row.games.games:>13}  {wdl:<8} {left}")
    lines.append(
        _(
            "Score: + a win, - a loss, 0 a draw; |score| = 22 - the winner's discs at the end. Your games: those in which you were to move here."
        )
    )
    return lines


COMMANDS = {"explore": CommandCode(add_explore_arguments, run_explore, user_errors=(BookError,))}
