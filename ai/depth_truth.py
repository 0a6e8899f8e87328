"""Depth against truth: how deep must the search look before its move keeps the exact outcome?

For each position and each depth 1..12 the depth-limited search (alpha-beta, best-first
order, as the levels play) picks a move; the exact solver (``ai.perfect``) says whether
that move keeps the position's game-theoretic outcome (a win stays a win, a draw a
draw).  Beside it, the nodes the search needed with pruning and, while it stays under a
cap, without.  Bounded in time: a node cap per search, a sample of the benchmark
positions, and ``should_stop`` polled throughout.  The exact outcome is asked with the
hints' budget of solver positions (work, never time: a first start's compiling solver
or a busy machine judges the same), and where it is not known the table says why.  No
pygame here.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from ai.book import BookError
from ai.depth_table import MAX_DEPTH, SAMPLE, DepthRow, DepthTruth, outcome_sign
from ai.levels import exact_nodes
from ai.perfect import PerfectPlayer
from ai.search import search
from ai.search_types import SearchCancelled, SearchProgress
from ai.solver import SolveLimit, SolverStopped
from game.board import Board
from game.i18n import _
from game.rules import STANDARD

PRUNED_CAP = 400_000
"""Nodes a search with pruning may use on one position (all its passes)."""
FULL_CAP = 150_000
"""Nodes a search without pruning may use at one depth; deeper ones are not run."""
BENCHMARK = Path(__file__).parent / "data" / "positions" / "Test_L2_R1"
"""Middle-game positions of the standard board with their exact scores (see its README)."""


def benchmark_boards(count: int = SAMPLE, seed: int = 1, player: PerfectPlayer | None = None) -> list[Board]:
    """A seeded sample of ``count`` critical benchmark positions (the same for the same seed).

    ``player`` is the exact solver to ask (default: a new one, with tables of its own).

    Critical: some move would change the exact outcome (where every move wins, or every
    move loses, any depth "keeps" it and the position tells nothing).
    """
    lines = [line.split()[0] for line in BENCHMARK.read_text().splitlines() if line.strip()]
    random.Random(seed).shuffle(lines)
    boards = []
    player = player or PerfectPlayer()
    for moves in lines:
        board = Board.from_moves(moves)
        scores = exact_scores(player, board)
        if scores and len({outcome_sign(score) for score in scores.values()}) > 1:
            boards.append(board)
            if len(boards) == count:
                break
    return boards


def exact_scores(
    player: PerfectPlayer, board: Board, should_stop: Callable[[], bool] = lambda: False
) -> dict[int, int] | None:
    """The exact score of every column (from the side to move), or None (``exact_outcome``
    says why).  ``player`` is the caller's own (its solver's tables are not safe to share
    with the window's worker thread)."""
    return exact_outcome(player, board, should_stop)[0]


def exact_outcome(
    player: PerfectPlayer,
    board: Board,
    should_stop: Callable[[], bool] = lambda: False,
    *,
    node_limit: int | None = None,
) -> tuple[dict[int, int] | None, str]:
    """The exact score of every column (from the side to move) and "", or None and why:
    off the standard board, not solved within ``node_limit`` solver positions (default:
    the hints' budget, ``ai.levels.exact_nodes``), or the opening book failed its check.

    Raises:
        SearchCancelled: ``should_stop`` returned True.
    """
    if board.rules != STANDARD:
        return None, _("off the standard board ({rules}): the solver knows 6x7, connect 4").format(
            rules=board.rules.said()
        )
    budget = exact_nodes(STANDARD) if node_limit is None else node_limit
    try:
        scores = player.column_scores(
            board.grid, board.to_move, limit=SolveLimit(nodes=budget, should_stop=should_stop)
        )
    except SolverStopped:
        if should_stop():
            raise SearchCancelled() from None
        return None, _("not solved within {budget:,} positions").format(budget=budget)
    except BookError as error:
        return None, _("the opening book failed its check ({error})").format(error=error)
    return scores, ""


def _one(
    player: PerfectPlayer, board: Board, depths: range, should_stop: Callable[[], bool]
) -> tuple[dict[int, bool], dict[int, int], dict[int, int], str]:
    """For one position: depth -> kept the outcome, nodes with pruning, nodes without;
    and why the outcome is not known ("" when it is)."""
    kept: dict[int, bool] = {}
    scores, why = exact_outcome(player, board, should_stop)
    best = max(scores.values()) if scores else None
    pruned: dict[int, int] = {}
    moves: dict[int, int] = {}
    seen = {"nodes": 0}

    def progress(report: SearchProgress) -> None:
        seen["nodes"] = report.nodes
        if report.completed_depth == report.depth and report.move is not None:
            pruned[report.depth] = report.nodes  # all passes so far: what the level pays
            moves[report.depth] = report.move

    def stop() -> bool:
        return should_stop() or seen["nodes"] > PRUNED_CAP

    try:
        result = search(
            board.grid, board.rules, depths.stop - 1, to_move=board.to_move, should_stop=stop, on_progress=progress
        )
        if result.move is not None:
            for depth in depths:  # a proven result ends the deepening: deeper passes play the same
                if depth > result.depth and result.proven:
                    moves[depth], pruned[depth] = result.move, pruned.get(result.depth, 0)
    except SearchCancelled:
        if should_stop():
            raise
    # The cap is work, not time: a pass that ended past it does not count, however soon
    # the stop was heard (the compiled search can finish a whole pass between two reports).
    for depth in [depth for depth, nodes in pruned.items() if nodes > PRUNED_CAP]:
        del pruned[depth]
        moves.pop(depth, None)
    if scores is not None and best is not None:
        for depth, move in moves.items():
            kept[depth] = outcome_sign(scores[move]) == outcome_sign(best)
    full: dict[int, int] = {}
    for depth in depths:
        if depth > 1 and full.get(depth - 1, FULL_CAP) * len(board.legal_moves()) > FULL_CAP:
            break
        if should_stop():
            raise SearchCancelled()
        result = search(
            board.grid,
            board.rules,
            depth,
            pruning=False,
            to_move=board.to_move,
            iterative=False,
            should_stop=should_stop,
        )
        full[depth] = result.stats.nodes
    return kept, {d: n for d, n in pruned.items() if d in depths}, full, why


def depth_truth(
    boards: list[Board],
    label: str,
    *,
    depths: range = range(1, MAX_DEPTH + 1),
    should_stop: Callable[[], bool] = lambda: False,
    on_position: Callable[[int, int], None] | None = None,
    player: PerfectPlayer | None = None,
) -> DepthTruth:
    """Measure ``boards`` at each of ``depths`` (see the module docstring).

    ``player`` is the exact solver to ask: a new one by default; the AI worker passes its
    own, its tables just cleared (the same answers as a new one's, the budget counts the
    same work), so that it never holds two solvers' tables at once (75 MB each).

    Raises:
        SearchCancelled: ``should_stop`` returned True.
    """
    kept: dict[int, list[bool]] = {d: [] for d in depths}
    pruned: dict[int, list[int]] = {d: [] for d in depths}
    full: dict[int, list[int]] = {d: [] for d in depths}
    unknown: dict[str, int] = {}  # why an outcome is not known -> positions
    player = player or PerfectPlayer()
    for number, board in enumerate(boards):
        if on_position is not None:
            on_position(number, len(boards))
        one_kept, one_pruned, one_full, why = _one(player, board, depths, should_stop)
        if why:
            unknown[why] = unknown.get(why, 0) + 1
        for depth in depths:
            if depth in one_kept:
                kept[depth].append(one_kept[depth])
            if depth in one_pruned:
                pruned[depth].append(one_pruned[depth])
            if depth in one_full:
                full[depth].append(one_full[depth])

    def mean(counts: list[int]) -> float | None:
        """The mean when every position has a count (a mean over fewer would mislead)."""
        return sum(counts) / len(counts) if counts and len(counts) == len(boards) else None

    rows = tuple(DepthRow(d, sum(kept[d]), len(kept[d]), mean(pruned[d]), mean(full[d])) for d in depths)
    return DepthTruth(label, len(boards), rows, _note(unknown, rows, len(boards)))


def _note(unknown: dict[str, int], rows: tuple[DepthRow, ...], positions: int) -> str:
    """What the table lacks and why: outcomes not known, depths not searched."""
    parts = []
    for why, count in unknown.items():
        if positions == 1:
            parts.append(_("no exact outcome: {why}").format(why=why))
        else:
            parts.append(
                _("{count} of {positions} positions without an exact outcome: {why}").format(
                    count=count, positions=positions, why=why
                )
            )
    missing = [row.depth for row in rows if row.pruned_nodes is None]
    if missing and positions:
        depths = str(missing[0]) if len(missing) == 1 else f"{missing[0]}-{missing[-1]}"
        if positions == 1:
            line = _("depth {depths} not searched: past the {cap:,}-node cap")
        else:
            line = _("depth {depths} not searched in some positions: past the {cap:,}-node cap")
        parts.append(line.format(depths=depths, cap=PRUNED_CAP))
    return "; ".join(parts)


def position_cell(row: DepthRow) -> str:
    """One position's cell of the table: "keeps (534 nodes)", "changes (...)", "- (..)"
    where the outcome is not known (the note says why), or why the depth has no search."""
    if row.pruned_nodes is None:
        return _("not searched (past the {cap:,}-node cap)").format(cap=PRUNED_CAP)
    kept = "-" if not row.judged else (_("keeps") if row.kept else _("changes"))
    return _("{kept} ({nodes:,.0f} nodes)").format(kept=kept, nodes=row.pruned_nodes)
