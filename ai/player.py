"""How a level plays a move: the one entry point the window, the CLI, the engine and the
benchmarks share, so a level means the same thing everywhere.

    from ai.player import choose_move
    choice = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)

A level is a depth-limited search (``ai.search``), with a beginner's noise where the
level asks for it, or, for the Perfect level on the standard board, the exact player of
``ai.perfect`` (opening book + solver).  Callers never need to know which engine answered.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np

from ai.book import BookError
from ai.levels import Level
from ai.perfect import PerfectPlayer, is_standard, moves_left, shared_player
from ai.search import ProgressCallback, SearchResult, search
from ai.solver import Solver, SolverStopped
from ai.tree import DEFAULT_BUDGET
from ai.values import WIN
from game.rules import MAX, Rules

_SOLVERS: dict[Rules, Solver] = {}


def shared_solver(rules: Rules) -> Solver:
    """The process-wide endgame solver of ``rules`` (its table kept between moves)."""
    if rules not in _SOLVERS:
        _SOLVERS[rules] = Solver(rules)
    return _SOLVERS[rules]


NOT_STANDARD_NOTE = "perfect play is only for the standard board: playing Expert"


@dataclass(frozen=True)
class Choice:
    """The move a level chose and what it knew when it chose it."""

    move: int | None  # None when the game is already over
    value: int  # from MAX's side (``ai.values``)
    depth: int  # the deepest finished search pass (0 for a book or solver answer)
    nodes: int
    seconds: float
    result: SearchResult | None = None  # the heuristic search, where one was run
    exact_scores: dict[int, int] | None = None  # exact column scores (benchmark convention) found in time
    outcome: int | None = None  # perfect play: 1/0/-1 win/draw/loss for the side to move
    note: str | None = None  # something the person should know (e.g. a fallback)


def exact_value(score: int, grid: np.ndarray, to_move: int) -> int:
    """An exact score of the side to move (benchmark convention) on the ``ai.values`` scale
    from MAX's side: a win ``p`` plies away is ``WIN - p``."""
    if score == 0:
        return 0
    own = int((grid == to_move).sum())
    other = int((grid == -to_move).sum())
    discs = moves_left(score, own, other, grid.size)
    plies = 2 * discs - 1 if score > 0 else 2 * discs
    value = WIN - plies if score > 0 else plies - WIN
    return value * to_move


def choose_move(
    level: Level,
    grid: np.ndarray,
    rules: Rules,
    to_move: int,
    *,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
    record_tree: bool = False,
    tree_budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    perfect_player: PerfectPlayer | None = None,
) -> Choice:
    """Choose ``level``'s move in this position.

    Args:
        level: what to play like (depth, pruning, time budget, order, noise, perfect).
        grid, rules, to_move: the position (``to_move`` is 1 for MAX, -1 for MIN).
        time_limit: seconds for this move; overrides the level's own budget when smaller.
        should_stop: polled during the search; True cancels it (``SearchCancelled`` or
            ``SolverStopped``).
        on_progress: progress reports of the search.
        record_tree, tree_budget: keep the heuristic search's tree (``result.tree``), at
            most ``tree_budget`` nodes (the window's tree overlay shows it).
        seed: seeds a noisy level's judgement (same seed, same position: same move).
        perfect_player: the Perfect level's player (its tables survive between moves, and
            ``ponder`` fills them); by default one shared per process.

    Returns:
        A ``Choice``; its ``move`` is 0-based (a column under gravity, a cell index without).
    """
    grid = np.asarray(grid, dtype=np.int8)
    note = None
    if level.perfect:
        if is_standard(rules):
            return _perfect_choice(level, grid, rules, to_move, time_limit, should_stop, perfect_player)
        note = NOT_STANDARD_NOTE
        level = replace(level, perfect=False)
    started = time.perf_counter()
    limits = [t for t in (level.time_limit, time_limit) if t]
    exact = _exact_phase(level, grid, rules, to_move, min(limits) if limits else None, should_stop, perfect_player)
    if isinstance(exact, Choice):
        return exact
    candidates, kept = exact if exact is not None else ([], 0)  # the columns keeping the best outcome
    if limits:  # the search gets what the solver left of the move's time
        limits = [max(min(limits) - (time.perf_counter() - started), 0.05)]
    result = search(
        grid,
        rules,
        level.depth,
        pruning=level.pruning,
        time_limit=min(limits) if limits else None,
        to_move=to_move,
        should_stop=should_stop,
        on_progress=on_progress,
        record_tree=record_tree,
        tree_budget=tree_budget,
        order=level.order,
        noise=level.noise,
        seed=seed,
    )
    move = result.move
    if candidates and move is not None and move not in candidates:  # it would give away what the solver keeps
        what = "win" if kept > 0 else "draw"
        note = (
            f"the exact solver chose column {candidates[0] + 1}: it keeps the {what}, "
            f"the search's column {move + 1} would not"
        )
        move = candidates[0]
        result = replace(result, move=move, principal_variation=(move,))
    return Choice(
        move=move,
        value=result.value,
        depth=result.depth,
        nodes=result.stats.total_nodes,
        seconds=time.perf_counter() - started,
        result=result,
        outcome=kept if candidates else None,
        note=note,
    )


def _exact_phase(
    level: Level,
    grid: np.ndarray,
    rules: Rules,
    to_move: int,
    time_limit: float | None,
    should_stop: Callable[[], bool] | None,
    player: PerfectPlayer | None,
) -> Choice | tuple[list[int], int] | None:
    """A level's exact knowledge, before its search: the opening book up to
    ``level.book_discs`` discs (standard board), or the solver from
    ``level.endgame_cells`` empty cells on (CLASSIC rules with gravity).

    Returns a ``Choice`` for a book move; for the endgame, the columns (centre first)
    that keep the best outcome and that outcome (1 win, 0 draw), so the search picks among
    them; None where no exact answer came in ``level.solver_seconds`` (then the search
    decides alone).

    Raises:
        SolverStopped: ``should_stop`` returned True.
    """
    seconds = min(level.solver_seconds, time_limit) if time_limit else level.solver_seconds
    discs = int(np.count_nonzero(grid))
    try:
        if level.knows_openings(rules) and discs <= level.book_discs:
            return _perfect_choice(replace(level, time_budget=seconds), grid, rules, to_move, None, should_stop, player)
        if level.solves_endgames(rules) and grid.size - discs <= level.endgame_cells:
            return _endgame_columns(grid, rules, to_move, seconds, should_stop)
    except SolverStopped:
        if should_stop is not None and should_stop():
            raise
    except BookError:  # the books are not installed (a ConnectX submission): search instead
        pass
    return None


def _endgame_columns(
    grid: np.ndarray, rules: Rules, to_move: int, seconds: float, should_stop: Callable[[], bool] | None
) -> tuple[list[int], int] | None:
    """The columns whose exact outcome is the best, centre first, and that outcome (1 a
    win, 0 a draw); None when every column loses (the search then fights on).  CLASSIC
    rules with gravity only (``Level.solves_endgames``).

    Raises:
        SolverStopped: the time ran out or ``should_stop`` said so.
    """
    solver = shared_solver(rules)
    geo = solver.geo
    first, second = geo.from_grid(grid)
    if geo.line_starts(first) or geo.line_starts(second):
        return None  # the game is over: nothing to solve
    current = first if to_move == MAX else second
    mask = first | second
    deadline = time.perf_counter() + seconds
    outcomes: dict[int, int] = {}
    for col in geo.centre_order:
        _, add, keep = geo.move_steps[col]
        bit = (mask + add) & keep
        if not bit:
            continue
        if geo.line_starts(current | bit):
            return [col], 1  # a win with this disc
        if (mask | bit).bit_count() == rules.cells:
            outcomes[col] = 0
            continue
        remaining = max(deadline - time.perf_counter(), 0.0)
        child = solver.solve_bits(current ^ mask, mask | bit, weak=True, should_stop=should_stop, time_limit=remaining)
        outcomes[col] = -child.score
    best = max(outcomes.values(), default=-1)
    if best < 0:
        return None
    return [col for col, outcome in outcomes.items() if outcome == best], best


def _perfect_choice(
    level: Level,
    grid: np.ndarray,
    rules: Rules,
    to_move: int,
    time_limit: float | None,
    should_stop: Callable[[], bool] | None,
    player: PerfectPlayer | None,
) -> Choice:
    """The Perfect level on the standard board."""
    from ai.bitboard import geometry
    from ai.search import _game_over  # the one place that knows a finished position

    geo = geometry(rules)
    over = _game_over(geo, *geo.from_grid(grid))
    if over is not None:
        return Choice(None, over, 0, 0, 0.0)
    limits = [t for t in (level.time_limit, time_limit) if t]
    player = player or shared_player()
    chosen = player.choose(grid, rules, to_move, time_limit=min(limits) if limits else None, should_stop=should_stop)
    if chosen.score is not None:
        value = exact_value(chosen.score, grid, to_move)
    elif chosen.outcome:  # won or lost, distance not found in time: the game's end as a bound
        value = (WIN - int((grid == 0).sum())) * chosen.outcome * to_move
    else:
        value = 0
    return Choice(
        move=chosen.move,
        value=value,
        depth=0,
        nodes=chosen.nodes,
        seconds=chosen.seconds,
        exact_scores=dict(chosen.scores) or None,
        outcome=chosen.outcome,
    )
