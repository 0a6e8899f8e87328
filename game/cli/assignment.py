"""``one-move`` and ``interactive``: the classic Max-Connect-4 assignment's two commands
(FULL_BOARD rules by default, board files in and out)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

from ai.book import BookError
from ai.search import SearchResult
from game.board import Board, IllegalMoveError
from game.board_file import save_board
from game.cli.board_words import player_name, print_board, shown_value
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.files import check_output, read_line
from game.cli.options import add_rule_options, check_depth, plural, rules_from_args
from game.cli.positions import read_board_file
from game.cli.search_watch import SearchWatch, watched_search
from game.i18n import _
from game.notation import NotationError, format_move, parse_move
from game.rules import Mode


def add_one_move_arguments(one: argparse.ArgumentParser) -> None:
    """one-move IN OUT DEPTH: the Max-Connect-4 assignment's one-move mode."""
    one.description = (
        "Read IN, let the computer make the move of the player to move, "
        "print the board and score, and write the new position to OUT."
    )
    one.add_argument("input", metavar="IN", help="the board file to read (6 lines of digits, then the player to move)")
    one.add_argument("output", metavar="OUT", help="the file to write the position after the move to")
    one.add_argument(
        "depth", metavar="DEPTH", type=int, help="how many plies (discs) the computer looks ahead, 1 or more"
    )
    one.add_argument("--no-pruning", action="store_true", help="plain minimax, no alpha-beta")
    add_rule_options(one, Mode.FULL_BOARD)


def add_interactive_arguments(inter: argparse.ArgumentParser) -> None:
    """interactive IN computer-next|human-next DEPTH: the assignment's interactive mode."""
    inter.description = (
        "Play from IN (an empty board if it does not exist) until the board "
        "is full; the computer writes computer.txt after its moves, you human.txt after "
        "yours."
    )
    inter.add_argument("input", metavar="IN", help="the board file to start from (an empty board if it does not exist)")
    inter.add_argument(
        "first",
        metavar="computer-next|human-next",
        choices=["computer-next", "human-next"],
        help="who makes the next move",
    )
    inter.add_argument("depth", metavar="DEPTH", type=int, help="how many plies (discs) the computer looks ahead")
    inter.add_argument("--no-pruning", action="store_true", help="plain minimax, no alpha-beta")
    inter.add_argument("--dir", default=".", help="folder for computer.txt and human.txt")
    add_rule_options(inter, Mode.FULL_BOARD)


def _computer_move(board: Board, depth: int, pruning: bool, out: TextIO, command: str) -> SearchResult:
    """Search ``board`` to ``depth``, play the move found on it and say it with its value and statistics."""
    watch = SearchWatch(command, board, depth, pruning, _("give a smaller DEPTH to limit it"))
    result = watched_search(watch, board, depth, pruning=pruning)
    assert result.move is not None
    side = board.to_move
    board.push(result.move)
    stats = result.stats
    print(
        _(
            "Computer plays {format_move} as {player_name}, value {shown_value}  [depth {depth}, {plural}, {plural2}, {seconds:.3f}s]"
        ).format(
            format_move=format_move(result.move, board.rules),
            player_name=player_name(side),
            shown_value=shown_value(result.value),
            depth=stats.depth,
            plural=plural(stats.nodes, "node"),
            plural2=plural(stats.cutoffs, "cutoff"),
            seconds=stats.seconds,
        ),
        file=out,
    )
    return result


def run_one_move(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """one-move: read IN, play the computer's move, print the board and write OUT."""
    check_depth(args.depth)
    check_output(args.output, args.input)
    board = read_board_file(args.input, args)
    depth = check_depth(args.depth, board)
    print_board(board, out)
    if board.is_game_over():
        print(_("The board is full: no move to make."), file=out)
        return 0
    _computer_move(board, depth, not args.no_pruning, out, "one-move")
    print_board(board, out)
    save_board(args.output, board)
    return 0


def run_interactive(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """interactive: computer and person in turn until the board is full (or q, or the end of input)."""
    check_depth(args.depth)
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        raise CliError(f"--dir {args.dir} is a file, not a folder")
    check_output(folder / "computer.txt", args.input)
    check_output(folder / "human.txt", args.input)
    if os.path.lexists(args.input):
        board = read_board_file(args.input, args)
    else:
        board = Board(rules_from_args(args))
        print(_("{input} does not exist: starting from an empty board.").format(input=args.input), file=out)
    depth = check_depth(args.depth, board)
    computer_side = board.to_move if args.first == "computer-next" else -board.to_move
    rules = board.rules
    print_board(board, out)
    while not board.is_game_over():
        if board.to_move == computer_side:
            _computer_move(board, depth, not args.no_pruning, out, "interactive")
            print_board(board, out)
            save_board(folder / "computer.txt", board)
            continue
        prompt = _("column 1..{cols}").format(cols=rules.cols) if rules.gravity else _("cell such as d1")
        print(
            _("Your move, {player_name}: {prompt}, or q to quit: ").format(
                player_name=player_name(board.to_move), prompt=prompt
            ),
            end="",
            file=out,
            flush=True,
        )
        line = read_line(stdin, _("a line of input"))
        if not line:  # the end of input (Ctrl+D, or a script's last line): a way to stop
            print(file=out)  # ends the prompt's line
            print(_("input ended"), file=sys.stderr)
            return 0
        text = line.strip()
        if not stdin.isatty():  # a terminal shows what was typed; piped input is shown here
            print(text, file=out)
        if text.lower() in ("q", "quit", "exit"):
            print(_("Bye."), file=out)
            return 0
        try:
            move = parse_move(text, rules)
            board.push(move)
        except (NotationError, IllegalMoveError) as error:
            print(_("Not a legal move: {error}. Try again.").format(error=error), file=out)
            continue
        print(
            _("You play {format_move} as {player_name}.").format(
                format_move=format_move(move, rules), player_name=player_name(-board.to_move)
            ),
            file=out,
        )
        print_board(board, out)
        save_board(folder / "human.txt", board)
    outcome = board.outcome()
    assert outcome is not None
    print(_("Game over: {result_text}").format(result_text=outcome.result_text()), file=out)
    return 0


COMMANDS = {
    "one-move": CommandCode(add_one_move_arguments, run_one_move, user_errors=(BookError,)),
    "interactive": CommandCode(add_interactive_arguments, run_interactive, user_errors=(BookError,)),
}
