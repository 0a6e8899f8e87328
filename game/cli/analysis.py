"""``analyze`` (the move, its value, every column's value, the tree as text or exported) and
``depth-chart``'s measure is ``ai.depth_truth``, its drawing the window's (``game.app.depth_chart_command``)."""

from __future__ import annotations

import argparse
import io
import json
import os
import time
from pathlib import Path
from typing import Any, TextIO

from ai.book import BookError
from ai.exact import ExactScore, verdict
from ai.levels import Level, LevelNotFound, exact_nodes, find_level, solvable
from ai.mcts import MAX_PLAYOUTS, MctsResult, PlayoutPolicy, Proved, format_mcts_tree, mcts
from ai.mcts_export import export_mcts_tree
from ai.player import choose_move, column_scores
from ai.search import SearchResult, search
from ai.solver import SolverStopped
from ai.tree import BOUND_NOTE, BoundKind, SearchTree, fmt_bounded, forced_meaning, format_tree, is_forced_value
from ai.tree_export import FORMATS, export_tree
from game.board import Board
from game.cli.board_words import VALUE_KEY, player_name, print_board, shown_value
from game.cli.commands import CommandCode
from game.cli.errors import CliError
from game.cli.files import check_folder, check_output, shown
from game.cli.options import add_game_option, add_rule_options, check_depth, check_seconds, plural
from game.cli.positions import read_position
from game.cli.search_watch import SearchWatch, watched_search
from game.i18n import N_, _, number
from game.notation import format_move
from game.rules import MAX, MIN, Mode, Rules


def add_analyze_arguments(analyze: argparse.ArgumentParser) -> None:
    """analyze SOURCE [--depth N] [--tree] [--export-tree FILE] [--level NAME] and the rules."""
    analyze.description = (
        "SOURCE is a move string (e.g. 4453, 1-based columns from the "
        "empty board; letters+rows such as d1d2 without gravity; spaces or commas between "
        "moves are fine), a solver-page link (https://connect4.gamesolver.org/?pos=4453), "
        "a game file (.c4, docs/game-file.md) or a Max-Connect-4 board file. Text made only "
        "of moves is read as moves: write ./NAME for a file with such a name."
    )
    analyze.add_argument("position", metavar="SOURCE")
    add_game_option(analyze)
    analyze.add_argument("--depth", type=int, default=6, help="plies to search (default 6)")
    analyze.add_argument("--no-pruning", action="store_true", help="plain minimax, no alpha-beta")
    analyze.add_argument(
        "--no-table",
        action="store_true",
        help="no transposition table: a position reached again by another move order is searched again",
    )
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
    analyze.add_argument(
        "--mcts",
        type=int,
        metavar="N",
        help="Monte Carlo tree search with N playouts instead of minimax (its tree: --tree, --export-tree)",
    )
    analyze.add_argument("--seed", type=int, default=0, help="with --mcts: the seed of the random playouts (default 0)")
    analyze.add_argument(
        "--mcts-solver",
        action="store_true",
        help="with --mcts: MCTS-Solver (proven wins, draws and losses climb the tree; a proof ends the search)",
    )
    analyze.add_argument(
        "--mcts-tactics",
        action="store_true",
        help="with --mcts: tactical playouts (win at once, else block a win at once, else random)",
    )
    analyze.add_argument(
        "--json", action="store_true", help="print one JSON object (move, value, depth, nodes, seconds, ...)"
    )
    add_rule_options(analyze, Mode.CLASSIC)


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


def _table_stats(result: SearchResult) -> str:
    """ "Transposition table: 562 probes, 98 hits (96 of them cutoffs), 465 stores" for analyze."""
    table = result.stats.table
    if table is None:
        return _("Transposition table: off")
    return _(
        "Transposition table (last pass): {probes:,} probes, {hits:,} hits ({cutoffs:,} of them cutoffs by a "
        "stored bound), {stores:,} stores"
    ).format(probes=table.probes, hits=table.hits, cutoffs=table.cutoffs, stores=table.stores)


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


def run_analyze(args: argparse.Namespace, out: TextIO, stdin: TextIO) -> int:
    """analyze: the position, the best move, every column's value, the statistics and the tree."""
    check_depth(args.depth)
    check_seconds(args.time_limit, "--time-limit")
    if args.tree_depth < 0:
        raise CliError(f"--tree-depth must be 0 (the root only) or more, not {args.tree_depth}")
    level = _find_level(args.level) if args.level else None  # checked before any output
    if args.export_depth is not None and args.export_depth < 1:
        raise CliError(f"--export-depth must be 1 or more, not {args.export_depth}")
    if args.export_tree:
        _check_export(args.export_tree, args.position)
    _check_mcts_and_json(args)
    board = read_position(args.position, args)
    rules = board.rules
    if args.json:
        return _run_json(args, board, level, out)
    print(_("Rules: {describe}").format(describe=rules.said()), file=out)
    print_board(board, out)
    outcome = board.outcome()
    if outcome is not None:
        print(_("The game is over: {result_text}").format(result_text=outcome.result_text()), file=out)
        return 0
    if args.mcts is not None:
        return _run_mcts(args, board, out)
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
        table=not args.no_table,
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
        print(_("Key: +F / -F: {FORCED_MEANING}").format(FORCED_MEANING=forced_meaning()), file=out)
    print(_search_stats(result), file=out)
    print(_table_stats(result), file=out)
    _print_exact_values(args, board, out)
    if level is not None:
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


def _run_mcts(args: argparse.Namespace, board: Board, out: TextIO) -> int:
    """analyze --mcts N: the most-visited move, each root child's visits and mean result,
    the most-visited line, the exact verdict beside it, and the tree (--tree, --export-tree)."""
    rules = board.rules
    mover = player_name(board.to_move)
    print(_("To move: {mover}, {value}").format(mover=mover, value="MAX" if board.to_move == MAX else "MIN"), file=out)
    found = _mcts_search(args, board)
    assert found.move is not None
    print(_("Best move: {format_move}").format(format_move=format_move(found.move, rules)), file=out)
    if found.proved is not None:
        print(_(PROVED_WORDS[found.proved]).format(mover=mover, playouts=found.playouts), file=out)
    print(
        _("Expected line (most visited): {join}").format(
            join=" ".join(format_move(m, rules) for m in found.principal_variation)
        ),
        file=out,
    )
    print(
        _("Mean result for {mover}: 1 = every playout won, 0.5 = drawn, 0 = every playout lost").format(mover=mover),
        file=out,
    )
    for child in found.root_children:
        line = _("  {move}: {visits:>8,} visits   mean {mean:.3f}   UCB {ucb:.3f}").format(
            move=format_move(child.move or 0, rules), visits=child.visits, mean=child.mean, ucb=child.ucb or 0.0
        )
        proved = child.proved_for(board.to_move) if found.tree.solver else None
        print(line + ("" if proved is None else "   " + _(CHILD_PROVED_WORDS[proved])), file=out)
    said = _(
        "Monte Carlo tree search: {playouts:,} playouts (seed {seed}), {nodes:,} nodes, {seconds:.3f}s, {rate:,.0f} playouts/s"
    )
    print(
        said.format(
            playouts=found.playouts,
            seed=found.seed,
            nodes=len(found.tree),
            seconds=found.seconds,
            rate=found.playouts_per_second,
        ),
        file=out,
    )
    if not found.completed:  # a proof that ended the search early is no cut
        print(
            _("(--time-limit ran out after {playouts:,} of {asked:,} playouts)").format(
                playouts=found.playouts, asked=found.asked
            ),
            file=out,
        )
    _print_exact_values(args, board, out)
    if args.tree:
        print(_("\nMCTS tree (visits, mean result for the side that moved there):"), file=out)
        print(format_mcts_tree(found.tree, max_depth=args.tree_depth), file=out)
    if args.export_tree:
        try:
            export_mcts_tree(found.tree, args.export_tree)
        except OSError as error:
            raise CliError(
                _("could not write the tree to {shown}: {value}").format(
                    shown=shown(args.export_tree), value=error.strerror or error
                )
            ) from None
        print(
            _("Tree written to {shown} ({count} nodes, {playouts} playouts; {size} MB)").format(
                shown=shown(args.export_tree),
                count=number(len(found.tree)),
                playouts=number(found.playouts),
                size=number(os.path.getsize(args.export_tree) / 1e6, ",.1f"),
            ),
            file=out,
        )
    return 0


def _check_mcts_and_json(args: argparse.Namespace) -> None:
    """Refuse --mcts out of range, its switches without it (and minimax's --no-table with
    it), and --tree's text with --json."""
    if args.mcts is not None and not 1 <= args.mcts <= MAX_PLAYOUTS:
        raise CliError(f"--mcts must be 1 to {MAX_PLAYOUTS:,} playouts, not {args.mcts}")
    if args.mcts is None and (args.mcts_solver or args.mcts_tactics):
        raise CliError("--mcts-solver and --mcts-tactics go with --mcts N")
    if args.mcts is not None and args.no_table:
        raise CliError("--no-table switches minimax's transposition table: MCTS has none")
    if args.json and args.tree:
        raise CliError("--tree prints the tree as text: with --json, write it with --export-tree FILE.json")


PROVED_WORDS = {
    Proved.WIN: N_("MCTS-Solver proved it: {mover} wins with perfect play ({playouts:,} playouts)"),
    Proved.DRAW: N_("MCTS-Solver proved it: a draw with perfect play ({playouts:,} playouts)"),
    Proved.LOSS: N_("MCTS-Solver proved it: {mover} loses with perfect play ({playouts:,} playouts)"),
}
CHILD_PROVED_WORDS = {
    Proved.WIN: N_("proven: wins"),
    Proved.DRAW: N_("proven: draws"),
    Proved.LOSS: N_("proven: loses"),
}
"""What MCTS-Solver proved, for the side to move: of the position, of each of its moves."""


def _mcts_search(args: argparse.Namespace, board: Board) -> MctsResult:
    """analyze --mcts N [--mcts-solver] [--mcts-tactics] [--seed S] [--time-limit S]: the search."""
    return mcts(
        board.grid,
        board.rules,
        args.mcts,
        to_move=board.to_move,
        seed=args.seed,
        solver=args.mcts_solver,
        policy=PlayoutPolicy.of(args.mcts_tactics),
        keep_moves=False,
        time_limit=args.time_limit,
    )


def _run_json(args: argparse.Namespace, board: Board, level: Level | None, out: TextIO) -> int:
    """analyze --json: one JSON object (``analysis_json``), the tree written if asked."""
    data = analysis_json(args, board, level)
    json.dump(data, out, indent=1)
    print(file=out)
    return 0


def analysis_json(args: argparse.Namespace, board: Board, level: Level | None) -> dict[str, Any]:
    """What analyze finds as plain data: the position (``board``: rows from the top, 0
    empty, 1 player 1, 2 player 2; ``moves`` played from the start, where known), the
    search (minimax or MCTS), the exact values, the level's move.  Moves are as a person
    reads them ("4"; "c2" without gravity)."""
    rules = board.rules
    data: dict[str, Any] = {
        "rules": rules.describe(),
        "board": ["".join("0" if cell == 0 else "1" if cell == MAX else "2" for cell in row) for row in board.grid],
        "moves": board.moves_string(),
        "to_move": "MAX" if board.to_move == MAX else "MIN",
    }
    outcome = board.outcome()
    if outcome is not None:
        data["game_over"] = outcome.result_text()
        return data
    if args.mcts is not None:
        data.update(_mcts_json(_mcts_search(args, board), board))
    else:
        depth = check_depth(args.depth, board, err=io.StringIO())
        result = search(
            board.grid,
            rules,
            depth,
            to_move=board.to_move,
            pruning=not args.no_pruning,
            record_tree=bool(args.export_tree),
            time_limit=args.time_limit,
            table=not args.no_table,
        )
        data.update(_minimax_json(result, rules))
        if args.export_tree and result.tree is not None:
            _write_tree(result.tree, args.export_tree, io.StringIO(), args.export_depth)
            data["tree_file"] = args.export_tree
    exact, note = _exact_values(args, board)
    data["exact"] = None if exact is None else {format_move(col, rules): score for col, score in sorted(exact.items())}
    if note:
        data["exact_note"] = note
    if level is not None:
        answer = choose_move(level, board.grid, rules, board.to_move)
        data["level"] = {
            "name": args.level,
            "move": None if answer.move is None else format_move(answer.move, rules),
            "decided_by": answer.decided_by.value,
            "note": answer.note,
        }
    return data


def _minimax_json(result: SearchResult, rules: Rules) -> dict[str, Any]:
    stats = result.stats
    return {
        "search": "minimax",
        "move": None if result.move is None else format_move(result.move, rules),
        "value": result.value,
        "depth": stats.depth,
        "completed": result.completed,
        "nodes": stats.total_nodes,
        "nodes_last_pass": stats.nodes,
        "leaves": stats.leaves,
        "cutoffs": stats.cutoffs,
        "seconds": round(stats.seconds, 6),
        "pruning": result.pruning,
        "table": None if stats.table is None else stats.table.as_dict(),  # the last pass's; None: --no-table
        "line": [format_move(move, rules) for move in result.principal_variation],
        "move_values": {
            format_move(move, rules): {"value": value.value, "bound": value.kind.name.lower()}
            for move, value in sorted(result.move_values.items())
        },
    }


def _mcts_json(found: MctsResult, board: Board) -> dict[str, Any]:
    rules, to_move = board.rules, board.to_move
    tree = found.tree
    return {
        "search": "mcts",
        "move": None if found.move is None else format_move(found.move, rules),
        "value": found.value,
        "depth": max((node.ply for node in tree.iter_nodes()), default=0),
        "nodes": len(tree),
        "seconds": round(found.seconds, 6),
        "pruning": None,
        "table": None,
        "playouts": found.playouts,
        "asked": found.asked,
        "seed": found.seed,
        "solver": tree.solver,
        "policy": tree.policy.value,
        "compiled": found.compiled,
        "proved": _proved_word(found.proved),
        "line": [format_move(move, rules) for move in found.principal_variation],
        "children": [
            {
                "move": format_move(child.move or 0, rules),
                "visits": child.visits,
                "mean": round(child.mean, 6),
                "proved": _proved_word(child.proved_for(to_move)),
            }
            for child in found.root_children
        ],
        "value_meaning": "the chosen move's mean result from MAX's side, -100 (MIN won every playout) to 100",
        "mean_meaning": "mean result of a move's playouts for the side to move: 1 won, 0.5 drawn, 0 lost",
    }


def _proved_word(proved: Proved | None) -> str | None:
    return None if proved is None else proved.value


def _check_export(output: str, *inputs: str) -> None:
    """analyze --export-tree: refuse a name that is not .json/.dot, or an input's, before searching."""
    if Path(output).suffix.lower() not in FORMATS:
        raise CliError(f"--export-tree {output}: name a .json file (data) or a .dot file (Graphviz)")
    check_output(output, *inputs)
    check_folder(output)


def _write_tree(tree: SearchTree, output: str, out: TextIO, plies: int | None = None) -> None:
    """analyze --export-tree: write the tree to ``output`` and say how much of it was stored."""
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


def _find_level(name: str) -> Level:
    """The level ``--level`` names, or one line saying which names there are."""
    try:
        return find_level(name)
    except LevelNotFound as error:
        raise CliError(f"--level: {error}") from None


def perfect_play_verdict(score: int, board: Board) -> str:
    """An exact score (from the side to move) in words naming both sides (``ai.exact``)."""
    exact = ExactScore.from_score(score, board.grid, board.to_move)
    return verdict(exact, {MAX: player_name(MAX), MIN: player_name(MIN)})


def _exact_values(args: argparse.Namespace, board: Board) -> tuple[dict[int, int] | None, str]:
    """The exact score of every column (from the side to move) where the solver proves them
    all within the hint's budget (``ai.player.column_scores``: the same positions on every
    machine), else None and why the values are only estimates."""
    rules = board.rules
    if not solvable(rules):
        return None, _(
            "Exact values: none for these rules (the solver needs gravity and classic scoring); the values above are estimates"
        )
    deadline = None if args.time_limit is None else time.perf_counter() + args.time_limit
    try:
        exact = column_scores(
            board.grid,
            rules,
            board.to_move,
            should_stop=None if deadline is None else (lambda: time.perf_counter() > deadline),
        )
    except SolverStopped:  # --time-limit ran out first
        return None, _("Exact values: not found within {time_limit:g} s; the values above are estimates").format(
            time_limit=args.time_limit
        )
    if exact is None:
        return None, _(
            "Exact values: not proven within {exact_nodes:,} solver positions; the values above are estimates"
        ).format(exact_nodes=exact_nodes(rules))
    return {col: score.score(board.to_move, board.grid) for col, score in exact.items()}, ""


def _print_exact_values(args: argparse.Namespace, board: Board, out: TextIO) -> None:
    """analyze: the exact result of every column, or why the values above are estimates."""
    rules = board.rules
    scores, why = _exact_values(args, board)
    if scores is None:
        print(why, file=out)
        return
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


COMMANDS = {
    "analyze": CommandCode(add_analyze_arguments, run_analyze, user_errors=(BookError,)),
}
