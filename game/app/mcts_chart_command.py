"""``mcts-chart``: how often MCTS (plain and as MCTS-Solver) keeps the exact outcome, per budget.

A command of the window's package because the chart is drawn by the window's own drawing
(``game.app.mcts_chart``, headless); the measure is ``ai.mcts_truth``.  ``game.launcher``
adds it to the command line's table (``game.cli`` sits below the window).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TextIO

from ai.book import BookError
from ai.mcts import MAX_PLAYOUTS
from ai.mcts_table import BUDGETS, VARIANTS, MctsTruth, PositionTruth, truth_json
from ai.mcts_truth import mcts_truth
from game.app.mcts_chart import save_mcts_chart
from game.board import Board
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.files import check_folder, check_output, shown
from game.cli.options import add_rule_options
from game.cli.positions import read_position
from game.i18n import _, ngettext, number
from game.notation import format_move
from game.rules import Mode

MOST_BUDGETS = 8
"""Budgets a chart takes at most (a decade apart from 10 to 1,000,000 is six)."""
MOST_POSITIONS = 500


def add_mcts_chart_arguments(chart: argparse.ArgumentParser) -> None:
    """mcts-chart SOURCE... [--playouts LIST] [--seed S] [--json] [--out FILE.png] and the rules."""
    chart.description = (
        "For each budget of playouts: how often Monte Carlo tree search, plain (UCT) and as "
        "MCTS-Solver, chooses a column that keeps the exact outcome of the given positions "
        "(the exact solver referees, on the standard board). Seeded: the same seed gives the "
        "same output. SOURCE is a move string, a ?pos= link, a game file or a board file."
    )
    chart.add_argument("positions", metavar="SOURCE", nargs="+", help="the positions to chart")
    chart.add_argument(
        "--playouts",
        default=",".join(str(budget) for budget in BUDGETS),
        metavar="LIST",
        help="budgets, comma-separated (default 100,1000,10000,100000)",
    )
    chart.add_argument("--seed", type=int, default=0, help="the seed of every search (default 0)")
    chart.add_argument("--json", action="store_true", help="print every position's column at every budget as JSON")
    chart.add_argument("--out", metavar="FILE.png", help="also draw the chart into this PNG")
    add_rule_options(chart, Mode.CLASSIC)


def budgets_from(text: str) -> tuple[int, ...]:
    """The budgets of ``--playouts``: whole numbers 1..``MAX_PLAYOUTS``, ascending, no repeats."""
    parts = [part.strip() for part in text.split(",")]
    if not parts or not all(part.isascii() and part.isdigit() and len(part) <= 7 for part in parts):
        raise CliError(f"--playouts {text}: expected whole numbers separated by commas, such as 100,1000,10000")
    budgets = sorted({int(part) for part in parts})
    if budgets[0] < 1 or budgets[-1] > MAX_PLAYOUTS:
        raise CliError(f"--playouts {text}: each budget must be 1 to {number(MAX_PLAYOUTS)} playouts")
    if len(budgets) > MOST_BUDGETS:
        raise CliError(f"--playouts {text}: at most {MOST_BUDGETS} budgets")
    return tuple(budgets)


def run_mcts_chart(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """mcts-chart: measure, print the table (or JSON), draw the PNG."""
    budgets = budgets_from(args.playouts)
    if len(args.positions) > MOST_POSITIONS:
        raise CliError(f"at most {MOST_POSITIONS} positions, not {len(args.positions)}")
    if args.out is not None:
        if Path(args.out).suffix.lower() != ".png":
            raise CliError(f"--out {args.out}: name a .png file")
        check_output(args.out, *args.positions)
        check_folder(args.out)
    boards: list[tuple[str, Board]] = []
    for source in args.positions:
        board = read_position(source, args)
        if board.is_game_over():
            raise CliError(_("{source}: the game is already over").format(source=source))
        boards.append((source, board))
    truth = mcts_truth(boards, budgets, seed=args.seed)
    if args.json:
        json.dump(truth_json(truth), out, indent=1)
        print(file=out)
    else:
        print_table(truth, out)
    if args.out is not None:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # drawn headless: read when pygame starts its display
        try:
            save_mcts_chart(args.out, truth)
        except (OSError, RuntimeError) as error:  # pygame.error is a RuntimeError
            raise CliError(_("could not write {shown}: {error}").format(shown=shown(args.out), error=error)) from None
        if not args.json:
            print(_("Chart written to {shown}").format(shown=shown(args.out)), file=out)
    return 0


def print_table(truth: MctsTruth, out: TextIO) -> None:
    """The shares per budget, then each position's columns."""
    said = ngettext(
        "MCTS against the truth: {positions} position, seed {seed}",
        "MCTS against the truth: {positions} positions, seed {seed}",
        len(truth.positions),
    )
    print(said.format(positions=len(truth.positions), seed=truth.seed), file=out)
    print(_("playouts   plain MCTS keeps   MCTS-Solver keeps   solver proved"), file=out)
    for row in truth.rows:
        cells = [f"{number(row.playouts):>8}"]
        for variant in VARIANTS:
            share = row.share(variant)
            kept = f"{row.kept[variant]}/{row.judged}" + ("" if share is None else f" {share:4.0%}")
            cells.append(f"{kept:>16}")
        cells.append(f"{row.proved:>14}")
        print("  ".join(cells), file=out)
    if truth.note:
        print(_("Not judged: {why}").format(why=truth.note), file=out)
    for position in truth.positions:
        print(position_line(position, truth.budgets), file=out)


def position_line(position: PositionTruth, budgets: tuple[int, ...]) -> str:
    """ "4453: keeps 4; plain 3 4 4 4; solver 3 4 4 4" (a column that gives the outcome away marked with *)."""
    rules = position.board.rules

    def columns(variant: str) -> str:
        said = []
        for budget in budgets:
            move = position.chosen[variant][budget]
            mark = "*" if position.keeps(move) is False else ""
            said.append("-" if move is None else format_move(move, rules) + mark)
        return " ".join(said)

    keeping = " ".join(format_move(move, rules) for move in position.keeping) or "?"
    return _("{source}: keeping {keeping}; plain {plain}; solver {solver}").format(
        source=position.label, keeping=keeping, plain=columns("plain"), solver=columns("solver")
    )


COMMANDS = {"mcts-chart": CommandCode(add_mcts_chart_arguments, run_mcts_chart, user_errors=(BookError,))}
