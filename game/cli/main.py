"""The command line: Max-Connect-4 compatible play, position analysis and solving (the
checks, the rule options and the reading of positions they share are the modules beside it).

Every failure the user can cause (unreadable file, illegal position or move, bad option)
ends with one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ai.book import BookError
from ai.depth_table import MAX_DEPTH
from ai.depth_truth import benchmark_boards, depth_truth, position_cell
from ai.exact import ExactScore, verdict
from ai.levels import Level
from ai.search import SearchResult
from ai.tree import (
    BOUND_NOTE,
    FORCED_MEANING,
    BoundKind,
    SearchTree,
    fmt_bounded,
    format_tree,
    is_forced_value,
)
from ai.tree_export import FORMATS, export_tree
from game.board import Board, IllegalMoveError
from game.board_file import BoardFileError, save_board
from game.cli.board_words import VALUE_KEY, player_name, print_board, shown_value
from game.cli.errors import EXIT_BAD_INPUT, EXIT_INTERRUPTED, CliError, SearchInterrupted, one_line
from game.cli.files import (
    capped_lines,
    check_folder,
    check_name_length,
    check_output,
    is_terminal,
    read_line,
    short,
    shown,
)
from game.cli.options import (
    Parser,
    add_game_option,
    add_rule_options,
    check_depth,
    check_seconds,
    plural,
    program_name,
    refuse_nul,
    rules_from_args,
)
from game.cli.positions import read_board_file, read_game, read_position
from game.cli.search_watch import SearchWatch, watched_search
from game.display_check import display_problem
from game.i18n import N_, SYSTEM, _, set_language
from game.notation import NotationError, format_move, parse_move, parse_moves
from game.rules import MAX, MIN, Mode, RulesError

if TYPE_CHECKING:
    from concurrent.futures import Executor

    from game.bots.arena import Sprt
    from game.sources import Source


def build_parser() -> argparse.ArgumentParser:
    prog = program_name()
    parser = Parser(
        prog=prog,
        description="Connect Four: a minimax explorer you can play. Without a command, the game window opens.",
        epilog=f"Also: '{prog} demo --out DIR' plays computer against computer headless "
        f"and saves screenshots of every screen into DIR; '{prog} install-desktop' gives the game "
        f"a menu entry and icons ('{prog} uninstall-desktop' removes them); '{prog} --version'.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    _add_max_connect4_commands(commands)
    _add_analyze_command(commands)
    _add_open_command(commands)
    _add_solve_and_chart_commands(commands)
    _add_bot_commands(commands)
    from game.cli import review as review_cli

    review_cli.add_commands(commands, add_rule_options, Mode.CLASSIC)
    from game.cli import explore as explore_cli

    explore_cli.add_command(commands)
    return parser


def _add_max_connect4_commands(commands: argparse._SubParsersAction) -> None:
    """one-move and interactive: the Max-Connect-4 assignment's two commands."""
    one = commands.add_parser(
        "one-move",
        help="Max-Connect-4: read a board file, play one computer move, write the result",
        description="Read IN, let the computer make the move of the player to move, "
        "print the board and score, and write the new position to OUT.",
    )
    one.add_argument("input", metavar="IN", help="the board file to read (6 lines of digits, then the player to move)")
    one.add_argument("output", metavar="OUT", help="the file to write the position after the move to")
    one.add_argument(
        "depth", metavar="DEPTH", type=int, help="how many plies (discs) the computer looks ahead, 1 or more"
    )
    one.add_argument("--no-pruning", action="store_true", help="plain minimax, no alpha-beta")
    add_rule_options(one, Mode.FULL_BOARD)

    inter = commands.add_parser(
        "interactive",
        help="Max-Connect-4: play a whole game against the computer in the terminal",
        description="Play from IN (an empty board if it does not exist) until the board "
        "is full; the computer writes computer.txt after its moves, you human.txt after "
        "yours.",
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


def _add_analyze_command(commands: argparse._SubParsersAction) -> None:
    analyze = commands.add_parser(
        "analyze",
        help="search a position and show the move, values, statistics and the tree",
        description="SOURCE is a move string (e.g. 4453, 1-based columns from the "
        "empty board; letters+rows such as d1d2 without gravity; spaces or commas between "
        "moves are fine), a solver-page link (https://connect4.gamesolver.org/?pos=4453), "
        "a game file (.c4, docs/game-file.md) or a Max-Connect-4 board file. Text made only "
        "of moves is read as moves: write ./NAME for a file with such a name.",
    )
    analyze.add_argument("position", metavar="SOURCE")
    add_game_option(analyze)
    analyze.add_argument("--depth", type=int, default=6, help="plies to search (default 6)")
    analyze.add_argument("--no-pruning", action="store_true", help="plain minimax, no alpha-beta")
    analyze.add_argument("--time-limit", type=float, help="seconds; iterative deepening stops then")
    analyze.add_argument("--tree", action="store_true", help="print the search tree as text")
    analyze.add_argument("--tree-depth", type=int, default=2, help="levels of the tree to print (default 2)")
    analyze.add_argument(
        "--export-tree",
        metavar="FILE",
        help="write every node of the search tree to FILE.json (data) or FILE.dot (Graphviz)",
    )
    analyze.add_argument(
        "--export-depth",
        type=int,
        metavar="D",
        help="plies a FILE.dot draws (default: as many as stay legible; the expected line always to its leaf)",
    )
    analyze.add_argument(
        "--level",
        metavar="NAME",
        help="also print the move this level would play (a preset such as perfect, or depth:N)",
    )
    add_rule_options(analyze, Mode.CLASSIC)


def _add_open_command(commands: argparse._SubParsersAction) -> None:
    opener = commands.add_parser(
        "open",
        help="open the window on a game: a game file, a move string, a ?pos= link or a board file",
        description="Open the game window on SOURCE: a game file (.c4, docs/game-file.md), a move "
        "string such as 4453, a solver-page link (https://connect4.gamesolver.org/?pos=4453) or a "
        "Max-Connect-4 board file. A game opens in its review, to step through move by move; "
        "P there plays on from the shown move against any level.",
    )
    opener.add_argument("source", metavar="SOURCE")
    add_game_option(opener)
    add_rule_options(opener, Mode.CLASSIC)


def _add_solve_and_chart_commands(commands: argparse._SubParsersAction) -> None:
    """solve (exact scores of move strings) and depth-chart (the depths against the solver)."""
    solve = commands.add_parser(
        "solve",
        help="exact perfect-play scores of move strings (benchmark format)",
        description="Read lines of move strings (or ?pos= links) from a file or stdin "
        "(anything after the first space is ignored) and print 'MOVES SCORE' per line; or solve "
        "the one game SOURCE names (a move string, a link, a game file, a board file). Score: from the side "
        "to move, 22 minus the winner's discs at the end on 6x7 (negative for a loss), "
        "0 for a draw.",
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
    add_rule_options(solve, Mode.CLASSIC)
    chart = commands.add_parser(
        "depth-chart",
        help="chart how often each search depth keeps the exact outcome, and its nodes (PNG)",
        description="For depths 1..12: how often the depth-limited search (alpha-beta, as the levels "
        "play) picks a move that keeps the exact outcome, over a seeded sample of middle-game "
        "benchmark positions where a move can change it (and for MOVES, if given), with the nodes "
        "searched with and without pruning. Drawn headless with pygame.",
    )
    chart.add_argument("moves", metavar="MOVES", nargs="?", help="a position to chart beside the sample")
    chart.add_argument("--out", required=True, metavar="FILE.png", help="the PNG to write")
    chart.add_argument("--positions", type=int, default=12, help="benchmark positions in the sample (default 12)")


def _add_bot_commands(commands: argparse._SubParsersAction) -> None:
    """The bot subcommands: engine, match, connectx (game.bots.engine, game.bots.tournament, game.bots.connectx)."""
    from ai.levels import level_names, strongest_level

    levels = ", ".join(level_names())
    engine = commands.add_parser(
        "engine",
        help="be a bot on stdin/stdout (arena Four-in-a-Row or native position/go/bestmove dialect)",
        description="Speak a line protocol on stdin/stdout; the first command picks the dialect. "
        "Columns are 0-based on the wire. See docs/engine-protocol.md.",
    )
    engine.add_argument(
        "--level", default=strongest_level(), metavar="NAME", help=f"{levels} (default {strongest_level()})"
    )

    match = commands.add_parser(
        "match",
        help="play a match between levels or external engines, with W/D/L, score and Elo",
        description="A and B: a level (" + levels + ") or engine:COMMAND, a program speaking "
        "the native dialect (e.g. engine:'python3 bot.py'). Each balanced opening is played "
        "twice, each side moving first once.",
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

    connectx = commands.add_parser(
        "connectx",
        help="write a Kaggle ConnectX submission (one self-contained main.py)",
        description="Write DIR/main.py: the game and AI sources bundled into one file whose last "
        "function is agent(observation, configuration); it needs only numpy.",
    )
    connectx.add_argument("--out", required=True, metavar="DIR", help="folder to write main.py into")
    connectx.add_argument("--level", help="the agent's level (default: game.bots.connectx.LEVEL)")
    connectx.add_argument("--force", action="store_true", help="overwrite DIR/main.py if it exists")


def _computer_move(board: Board, depth: int, pruning: bool, out: TextIO, command: str) -> SearchResult:
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


def cmd_one_move(args: argparse.Namespace, out: TextIO) -> int:
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


def cmd_interactive(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
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


def _search_stats(result: SearchResult) -> str:
    """ "Depth 6, alpha-beta on: 1,234 nodes, ..." for analyze."""
    stats = result.stats
    said = _(
        "Depth {depth}{value}, alpha-beta {pruning}: {plural}, {plural2}, {plural3}, {seconds:.3f}s, {nodes_per_second:,.0f} nodes/s"
    )
    text = said.format(
        depth=stats.depth,
        value="" if result.completed else _(" (time ran out)"),
        pruning=_("on") if result.pruning else _("off"),
        plural=plural(stats.nodes, "node"),
        plural2=plural(stats.leaves, "leaf", "leaves"),
        plural3=plural(stats.cutoffs, "cutoff"),
        seconds=stats.seconds,
        nodes_per_second=stats.nodes_per_second,
    )
    if stats.total_nodes != stats.nodes:
        text += _(" ({plural} in all passes)").format(plural=plural(stats.total_nodes, "node"))
    return text


def _print_tree(tree: SearchTree, max_depth: int, out: TextIO) -> None:
    """The recorded tree as indented text, with its key and what the budget left out."""
    print(
        _("\nSearch tree ({plural} stored; W<n> = win in n plies):").format(plural=plural(len(tree), "node")), file=out
    )
    if tree.pruning:
        print(_(BOUND_NOTE), file=out)
    print(format_tree(tree, max_depth=max_depth), file=out)
    if not tree.is_complete:
        left = plural(tree.counted - len(tree), "node")
        print(_("(past the budget: {plural} counted, not stored)").format(plural=left), file=out)


def cmd_analyze(args: argparse.Namespace, out: TextIO) -> int:
    check_depth(args.depth)
    check_seconds(args.time_limit, "--time-limit")
    if args.tree_depth < 0:
        raise CliError(f"--tree-depth must be 0 (the root only) or more, not {args.tree_depth}")
    level = _find_level(args.level) if args.level else None  # checked before any output
    if args.export_depth is not None and args.export_depth < 1:
        raise CliError(f"--export-depth must be 1 or more, not {args.export_depth}")
    if args.export_tree:
        _check_export(args.export_tree, args.position)
    board = read_position(args.position, args)
    rules = board.rules
    print(_("Rules: {describe}").format(describe=rules.said()), file=out)
    print_board(board, out)
    outcome = board.outcome()
    if outcome is not None:
        print(_("The game is over: {result_text}").format(result_text=outcome.result_text()), file=out)
        return 0
    depth = check_depth(args.depth, board)
    mover = player_name(board.to_move)
    print(_("To move: {mover}, {value}").format(mover=mover, value="MAX" if board.to_move == MAX else "MIN"), file=out)
    print(_(VALUE_KEY), file=out, flush=True)
    limit_hint = "--time-limit S plays the deepest depth finished in S seconds"
    watch = SearchWatch("analyze", board, depth, not args.no_pruning, limit_hint, args.time_limit)
    result = watched_search(
        watch,
        board,
        depth,
        pruning=not args.no_pruning,
        record_tree=args.tree or bool(args.export_tree),
        time_limit=args.time_limit,
    )
    assert result.move is not None
    print(
        _("Best move: {format_move}   value {shown_value}").format(
            format_move=format_move(result.move, rules), shown_value=shown_value(result.value)
        ),
        file=out,
    )
    print(
        _("Expected line: {join}").format(join=" ".join(format_move(m, rules) for m in result.principal_variation)),
        file=out,
    )
    parts = []
    for move, column_value in result.move_values.items():
        parts.append(f"{format_move(move, rules)}:{fmt_bounded(column_value.value, column_value.kind)}")
    print(_("Move values: ") + "  ".join(parts), file=out)
    if any(column_value.kind is not BoundKind.EXACT for column_value in result.move_values.values()):
        print(_(BOUND_NOTE), file=out)
    if any(is_forced_value(column_value.value) for column_value in result.move_values.values()):
        print(_("Key: +F / -F: {FORCED_MEANING}").format(FORCED_MEANING=FORCED_MEANING), file=out)
    print(_search_stats(result), file=out)
    _print_exact_values(args, board, out)
    if level is not None:
        from ai.player import choose_move

        answer = choose_move(level, board.grid, rules, board.to_move)
        assert answer.move is not None
        said = _("decided by the {value}").format(value=answer.decided_by.value) + (
            f": {answer.note}" if answer.note else ""
        )
        print(
            _("Level {level} plays: {format_move} ({said})").format(
                level=args.level, format_move=format_move(answer.move, rules), said=said
            ),
            file=out,
        )
    if result.tree is not None and args.tree:
        _print_tree(result.tree, args.tree_depth, out)
    if args.export_tree and result.tree is not None:
        _write_tree(result.tree, args.export_tree, out, args.export_depth)
    return 0


def _check_export(output: str, *inputs: str) -> None:
    """analyze --export-tree: refuse a name that is not .json/.dot, or an input's, before searching."""
    if Path(output).suffix.lower() not in FORMATS:
        raise CliError(f"--export-tree {output}: name a .json file (data) or a .dot file (Graphviz)")
    check_output(output, *inputs)
    check_folder(output)


def _write_tree(tree: SearchTree, output: str, out: TextIO, plies: int | None = None) -> None:
    try:
        export_tree(tree, output, plies=plies)
    except OSError as error:
        raise CliError(
            _("could not write the tree to {shown}: {value}").format(shown=shown(output), value=error.strerror or error)
        ) from None
    stored = _("{count:,} nodes: the root and the {counted:,} the search counts").format(
        count=len(tree), counted=tree.counted - 1
    )
    if not tree.is_complete:
        stored = _("{count:,} of {counted:,} nodes: the rest were past the budget, counted, not stored").format(
            count=len(tree), counted=tree.counted
        )
    print(_("Tree written to {shown} ({stored})").format(shown=shown(output), stored=stored), file=out)


def cmd_depth_chart(args: argparse.Namespace, out: TextIO) -> int:
    """depth-chart: measure, print the table, draw the PNG (pygame imported only here)."""
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
            cells += [f"{row.pruned_nodes:>12,.0f}" if row.pruned_nodes else f"{'-':>12}"]
            cells += [f"{row.full_nodes:>14,.0f}" if row.full_nodes else f"{'-':>14}"]
        if current is not None:
            cells.append(f"  {position_cell(current.rows[index])}")
        print("  ".join(cells), file=out)
    for truth in (bench, current):
        if truth is not None and truth.note:
            print(f"{truth.label}: {truth.note}", file=out)
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from game.app.depth_chart import save_depth_chart  # pygame: only for this command

    try:
        save_depth_chart(args.out, current, bench)
    except (OSError, RuntimeError) as error:  # pygame.error is a RuntimeError
        raise CliError(_("could not write {shown}: {error}").format(shown=shown(args.out), error=error)) from None
    print(_("Chart written to {shown}").format(shown=shown(args.out)), file=out)
    return 0


PROGRESS_SECONDS = 2.0
"""solve: seconds between two progress lines on stderr."""


def _find_level(name: str) -> Level:
    from ai.levels import LevelNotFound, find_level

    try:
        return find_level(name)
    except LevelNotFound as error:
        raise CliError(f"--level: {error}") from None


def perfect_play_verdict(score: int, board: Board) -> str:
    """An exact score (from the side to move) in words naming both sides (``ai.exact``)."""
    exact = ExactScore.from_score(score, board.grid, board.to_move)
    return verdict(exact, {MAX: player_name(MAX), MIN: player_name(MIN)})


def _print_exact_values(args: argparse.Namespace, board: Board, out: TextIO) -> None:
    """analyze: the exact result of every column, wherever the solver proves them all within
    the hint's budget (``ai.player.column_scores``: the same positions on every machine);
    elsewhere it says the values above are only estimates."""
    from ai.levels import exact_nodes, solvable
    from ai.player import column_scores
    from ai.solver import SolverStopped

    rules = board.rules
    if not solvable(rules):
        print(
            _(
                "Exact values: none for these rules (the solver needs gravity and classic scoring); the values above are estimates"
            ),
            file=out,
        )
        return
    deadline = None if args.time_limit is None else time.perf_counter() + args.time_limit
    try:
        exact = column_scores(
            board.grid,
            rules,
            board.to_move,
            should_stop=None if deadline is None else (lambda: time.perf_counter() > deadline),
        )
    except SolverStopped:  # --time-limit ran out first
        print(
            _("Exact values: not found within {time_limit:g} s; the values above are estimates").format(
                time_limit=args.time_limit
            ),
            file=out,
        )
        return
    if exact is None:
        print(
            _(
                "Exact values: not proven within {exact_nodes:,} solver positions; the values above are estimates"
            ).format(exact_nodes=exact_nodes(rules)),
            file=out,
        )
        return
    scores = {col: score.score(board.to_move, board.grid) for col, score in exact.items()}
    parts = [f"{format_move(col, rules)}:{scores[col]:+d}" for col in sorted(scores)]
    mover = player_name(board.to_move)
    print(
        _(
            "Exact values for {mover}, to move (perfect play; + a win, - a loss, 0 a draw; |score| = {cells} - the winner's discs at the end): "
        ).format(mover=mover, cells=rules.cells // 2 + 1)
        + "  ".join(parts),
        file=out,
    )
    best = max(sorted(scores), key=lambda col: scores[col])
    print(
        _("Best: column {format_move}: {perfect_play_verdict}").format(
            format_move=format_move(best, rules), perfect_play_verdict=perfect_play_verdict(scores[best], board)
        ),
        file=out,
    )


SOLVE_PROMPT = N_("solve: reading positions from standard input, one per line; Ctrl+D to end")
"""Said on stderr when ``solve`` would otherwise wait silently on a terminal."""
BOOK_FALLBACK = N_("the exact solver works without it (same answers, slower)")


class SolveWatch:
    """``solve``'s progress on stderr for a line that takes long (with or without
    ``--time-limit``): polled by the solver every few thousand nodes, it prints a line
    every ``PROGRESS_SECONDS`` and never stops the solve."""

    def __init__(self, solver: Any, number: int, moves: str):
        self.solver = solver
        self.number, self.moves = number, moves
        self.started = self.last_report = time.perf_counter()
        self.low: int | None = None
        self.high: int | None = None

    def bounds(self, progress: Any) -> None:
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


def _solve_input(args: argparse.Namespace, stdin: TextIO) -> tuple[TextIO, Source | None]:
    """What ``solve`` reads: lines of move strings (a file of them, or stdin), or one
    game (a move string, a ``?pos=`` link, a game file or a board file: ``game.sources``)."""
    import io

    from game.game_file import looks_like_game_file
    from game.sources import SourceError, is_link, is_moves_text, read_text_file

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


def _solve_line(solver: Any, words: str, number: int, args: argparse.Namespace) -> tuple[str, Any]:
    """(what the line is called, its solution) for a line of ``solve``: a move string or a link."""
    from ai.solver import SolverError
    from game.sources import SourceError, is_link, is_moves_text, read_link

    moves_text = words
    watch = SolveWatch(solver, number, moves_text)
    try:
        if is_link(moves_text) and not is_moves_text(moves_text):
            game = read_link(moves_text)
            moves_text, moves = game.moves_string(), list(game.moves)
        else:
            moves = parse_moves("" if moves_text in ('""', "''", "-") else moves_text, solver.rules)
        solution = solver.solve_moves(
            moves, weak=args.weak, time_limit=args.time_limit, should_stop=watch, on_progress=watch.bounds
        )
    except (NotationError, SolverError, SourceError) as error:
        raise CliError(_("line {number}: {words}: {error}").format(number=number, words=words, error=error)) from None
    return moves_text, solution


def _game_name(found: Source) -> str:
    """How ``solve`` names a game's position: its move string, else where it came from."""
    return found.game.moves_string() if found.game.from_empty else found.label


def _solve_game(solver: Any, found: Source, args: argparse.Namespace) -> tuple[str, Any]:
    """(its name, its solution) for the one game ``solve`` was given."""
    from ai.solver import SolverError

    game = found.game
    name = _game_name(found)
    watch = SolveWatch(solver, 1, name)
    board = game.board()
    try:
        if game.from_empty:
            solution = solver.solve_moves(
                list(game.moves),
                weak=args.weak,
                time_limit=args.time_limit,
                should_stop=watch,
                on_progress=watch.bounds,
            )
        else:
            solution = solver.solve_grid(
                board.grid, board.to_move, weak=args.weak, time_limit=args.time_limit, should_stop=watch
            )
    except SolverError as error:
        raise CliError(f"{found.label}: {error}") from None
    return name, solution


def cmd_solve(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    from ai.book import book_problems
    from ai.solver import Solver, SolverError, SolverStopped

    check_seconds(args.time_limit, "--time-limit")
    source, game = _solve_input(args, stdin)
    rules = game.game.rules if game is not None else rules_from_args(args)
    try:
        solver = Solver(rules)
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
    return 0


def cmd_engine(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """``game.bots.engine.serve``, with each protocol line capped at ``MAX_INPUT_BYTES`` (an
    endless line, as from /dev/zero, ends the session with one error line)."""
    from ai.levels import LevelNotFound
    from game.bots.engine import Engine

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


def cmd_match(args: argparse.Namespace, out: TextIO) -> int:
    main_thread = threading.current_thread() is threading.main_thread()
    stop = threading.Event()
    match_process = os.getpid()

    def interrupt(signum: int, frame: object) -> None:
        if os.getpid() != match_process:  # a pool worker forked a moment ago: it ignores Ctrl+C
            return
        stop.set()  # also a flag: the match stops even where the exception goes astray
        raise KeyboardInterrupt

    # First of all: an exception raised inside an import (C code) can be swallowed, and the
    # match would go on; the flag stops it all the same.  ``kill PID`` stops the match as
    # Ctrl+C does: the pool and its engines are shut down and the finished games reported.
    previous = (
        {number: signal.signal(number, interrupt) for number in (signal.SIGINT, signal.SIGTERM)} if main_thread else {}
    )
    try:
        return _match(args, out, stop)
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


def _match(args: argparse.Namespace, out: TextIO, stop: threading.Event) -> int:
    """``match``, with Ctrl+C setting ``stop`` (``cmd_match``)."""
    from ai.levels import LevelNotFound
    from game.bots.arena import Progress, play_match
    from game.bots.tournament import PgnWriter, PlayerChoice, format_outcome, make_player

    rules = rules_from_args(args)
    jobs, sprt = _match_options(args)
    seed = args.seed if args.seed is not None else 0
    try:
        specs = [PlayerChoice(args.player_a, seed), PlayerChoice(args.player_b, seed)]
        names = [make_player(spec.text, seed=seed).name for spec in specs]  # checks both before any game
    except (LevelNotFound, ValueError) as error:
        raise CliError(str(error)) from None
    executor, close_cluster = _match_cluster(args.cluster)
    pgn = PgnWriter(args.pgn, names[0], names[1], rules) if args.pgn else None
    if args.pgn:
        check_name_length(args.pgn, f"--pgn {short(args.pgn)}")
        try:
            open(args.pgn, "a", encoding="utf-8").close()  # can it be written? (truncated at the first game)
        except OSError as error:
            raise CliError(
                _("cannot write {pgn}: {value}").format(pgn=args.pgn, value=error.strerror or error)
            ) from None
    try:
        outcome = play_match(
            specs[0],
            specs[1],
            rules,
            games=args.games,
            movetime=args.movetime / 1000,
            seed=args.seed,
            jobs=jobs,
            executor=executor,
            sprt=sprt,
            on_game=pgn.add if pgn is not None else None,
            progress=Progress(args.games, sprt=sprt),
            notice=lambda text: print(f"\n{text}", file=sys.stderr, flush=True),
            stop_requested=stop.is_set,
        )
    finally:
        if pgn is not None:
            pgn.close()
        if close_cluster is not None:
            close_cluster()
    print(format_outcome(outcome), file=out)
    if pgn is not None and pgn.failed is None and pgn.written:
        print(_("Games written to {pgn}").format(pgn=args.pgn), file=out)
    failure = pgn.failure_line() if pgn is not None else None
    if failure is not None:  # the last line: not lost among the progress lines
        print(failure, file=sys.stderr)
    if outcome.interrupted:
        return 130
    if outcome.error is not None:
        return 1
    return 1 if pgn is not None and pgn.failed is not None else 0


def _match_options(args: argparse.Namespace) -> tuple[int, Sprt | None]:
    """match's numbers, checked (``args.games`` gets its default): the jobs, and the SPRT
    where ``--sprt`` asks for one.

    Raises:
        CliError: a number out of its range, or SPRT bounds that make no test.
    """
    from game.bots.arena import Sprt, default_jobs

    if args.games is None:
        args.games = SPRT_MAX_GAMES if args.sprt is not None else 20
    if not 1 <= args.games <= MAX_MATCH_GAMES:
        raise CliError(f"--games must be 1..{MAX_MATCH_GAMES:,}, not {args.games}")
    if not 1 <= args.movetime <= MAX_MOVETIME_MS:
        raise CliError(f"--movetime must be 1..{MAX_MOVETIME_MS:,} ms, not {args.movetime}")
    jobs: int = args.jobs if args.jobs is not None else default_jobs(args.games)
    if not 1 <= jobs <= MAX_MATCH_JOBS:
        raise CliError(f"--jobs must be 1..{MAX_MATCH_JOBS}, not {jobs}")
    if args.sprt is None:
        return jobs, None
    try:
        return jobs, Sprt(args.sprt[0], args.sprt[1], alpha=args.alpha, beta=args.beta)
    except ValueError as error:
        raise CliError(str(error)) from None


def _match_cluster(address: str | None) -> tuple[Executor | None, Callable[[], None] | None]:
    """The executor of the Dask cluster at ``address`` and what closes it; (None, None)
    without ``--cluster`` (the games run here).

    Raises:
        CliError: no Dask, or a bad address (game.bots.cluster says what and where in one line).
    """
    if address is None:  # "" too is refused, not played here
        return None, None
    from game.bots.arena import cluster_executor

    try:
        return cluster_executor(address)
    except ImportError:
        raise CliError("--cluster needs Dask's distributed: pip install .[cluster]") from None
    except ValueError as error:
        raise CliError(str(error)) from None


def cmd_connectx(args: argparse.Namespace, out: TextIO) -> int:
    from ai.levels import LevelNotFound, find_level
    from game.bots.connectx import write_submission

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


def cmd_open(args: argparse.Namespace) -> int:
    """``open SOURCE``: the window on the game SOURCE names (read first: a bad source is
    one line and exit code 2, and no window)."""
    found = read_game(args.source, args)
    problem = display_problem()
    if problem:
        raise CliError(problem)
    from game.app.loop import launch

    return launch(opened=found)


def cmd_review_or_games(args: argparse.Namespace, out: TextIO) -> int:
    """``review`` and ``games`` (game.cli.review) and ``explore`` (game.cli.explore)."""
    from game.cli import review as review_cli

    if args.command == "review":
        return review_cli.cmd_review(args, out, read_game)
    if args.command == "explore":
        from game.cli.explore import cmd_explore

        return cmd_explore(args, out)
    return review_cli.cmd_games(args, out)


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None, stdin: TextIO | None = None) -> int:
    """Run a subcommand; return the exit code."""
    out = stdout or sys.stdout
    inp = stdin or sys.stdin
    set_language(SYSTEM)  # messages in the system's language...
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "json", False):
        set_language("en")  # ...machine-readable output in English
    try:
        refuse_nul(args)
        if args.command == "one-move":
            return cmd_one_move(args, out)
        if args.command == "interactive":
            return cmd_interactive(args, out, inp)
        if args.command == "open":
            return cmd_open(args)
        if args.command == "analyze":
            return cmd_analyze(args, out)
        if args.command == "solve":
            return cmd_solve(args, out, inp)
        if args.command == "depth-chart":
            return cmd_depth_chart(args, out)
        if args.command == "engine":
            return cmd_engine(args, out, inp)
        if args.command == "match":
            return cmd_match(args, out)
        if args.command == "connectx":
            return cmd_connectx(args, out)
        if args.command in ("review", "games", "explore"):
            return cmd_review_or_games(args, out)
        parser.print_help(out)
        return 0
    except (CliError, BoardFileError, NotationError, IllegalMoveError, RulesError) as error:
        message = one_line(str(error))
        print(
            _("{prog} {command}: error: {message}").format(prog=parser.prog, command=args.command, message=message),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except UnicodeDecodeError as error:  # standard input (files are read as bytes)
        print(
            _("{prog} {command}: error: the input is not UTF-8 text ({reason})").format(
                prog=parser.prog, command=args.command, reason=error.reason
            ),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except SearchInterrupted as stopped:
        print(stopped, file=sys.stderr)
        return EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print(_("{prog} {command}: stopped by Ctrl+C").format(prog=parser.prog, command=args.command), file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except BookError as error:  # a book the solver could not do without
        print(
            _("{prog} {command}: error: {error}").format(prog=parser.prog, command=args.command, error=error),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    except OSError as error:  # a file system refusal no check above foresaw
        where = f" ({short(error.filename)})" if getattr(error, "filename", None) else ""
        print(
            _("{prog} {command}: error: {value}{where}").format(
                prog=parser.prog, command=args.command, value=error.strerror or error, where=where
            ),
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
