"""``depth-chart``: how often each search depth keeps the exact outcome, as a table and a PNG.

A command of the window's package because the chart is drawn by the window's own drawing
(``game.app.depth_chart``, headless); the measure is ``ai.depth_truth``.  ``game.launcher``
adds it to the command line's table (``game.cli`` sits below the window).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TextIO

from ai.book import BookError
from ai.depth_table import MAX_DEPTH
from ai.depth_truth import benchmark_boards, depth_truth, position_cell
from game.app.depth_chart import save_depth_chart
from game.board import Board
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.files import check_folder, check_output, shown
from game.i18n import _, number


def add_depth_chart_arguments(chart: argparse.ArgumentParser) -> None:
    """depth-chart [MOVES] --out FILE.png [--positions N]."""
    chart.description = (
        "For depths 1..12: how often the depth-limited search (alpha-beta, as the levels "
        "play) picks a move that keeps the exact outcome, over a seeded sample of middle-game "
        "benchmark positions where a move can change it (and for MOVES, if given), with the nodes "
        "searched with and without pruning. Drawn headless with pygame."
    )
    chart.add_argument("moves", metavar="MOVES", nargs="?", help="a position to chart beside the sample")
    chart.add_argument("--out", required=True, metavar="FILE.png", help="the PNG to write")
    chart.add_argument("--positions", type=int, default=12, help="benchmark positions in the sample (default 12)")


def run_depth_chart(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """depth-chart: measure, print the table, draw the PNG."""
    if not 0 <= args.positions <= 200:
        raise CliError(f"--positions must be 0 to 200, not {args.positions}")
    if Path(args.out).suffix.lower() != ".png":
        raise CliError(f"--out {args.out}: name a .png file")
    if not args.moves and not args.positions:
        raise CliError(_("nothing to chart: give MOVES, or --positions 1 or more"))
    check_output(args.out)
    check_folder(args.out)
    current = None
    if args.moves:
        board = Board.from_moves(args.moves)
        if board.is_game_over():
            raise CliError(_("{moves}: the game is already over").format(moves=args.moves))
        current = depth_truth([board], _("the position after {moves}").format(moves=args.moves))
    bench = None
    if args.positions:
        boards = benchmark_boards(args.positions)
        bench = depth_truth(boards, _("middle-game benchmark positions where a move can change the outcome"))
    print(_("depth  kept (sample)  nodes pruned  nodes unpruned") + (_("  this position") if current else ""), file=out)
    for index in range(MAX_DEPTH):
        cells = [f"{index + 1:>5}"]
        if bench is not None:
            row = bench.rows[index]
            cells.append(f"{row.kept:>6}/{row.judged:<6}" if row.judged else f"{'-':>13}")
            cells += [f"{number(row.pruned_nodes, ',.0f'):>12}" if row.pruned_nodes else f"{'-':>12}"]
            cells += [f"{number(row.full_nodes, ',.0f'):>14}" if row.full_nodes else f"{'-':>14}"]
        if current is not None:
            cells.append(f"  {position_cell(current.rows[index])}")
        print("  ".join(cells), file=out)
    for truth in (bench, current):
        if truth is not None and truth.note:
            print(f"{truth.label}: {truth.note}", file=out)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # drawn headless: read when pygame starts its display
    try:
        save_depth_chart(args.out, current, bench)
    except (OSError, RuntimeError) as error:  # pygame.error is a RuntimeError
        raise CliError(_("could not write {shown}: {error}").format(shown=shown(args.out), error=error)) from None
    print(_("Chart written to {shown}").format(shown=shown(args.out)), file=out)
    return 0


COMMANDS = {"depth-chart": CommandCode(add_depth_chart_arguments, run_depth_chart, user_errors=(BookError,))}
