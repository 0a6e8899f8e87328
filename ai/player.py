"""The one decider: how a level picks a move, and the one answer it gives.

Every front end asks here (the window's moves, hints and column scores, the CLI, the
engine, the match runner, the strength benchmark, ConnectX) and none re-decides:

    from ai.player import choose_move
    answer = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)
    answer.move, answer.decided_by, answer.exact, answer.column_scores, answer.result

A level answers from (in this order) the opening book (``Level.book_discs``, standard
board), the exact solver (Perfect; ``Level.endgame_cells`` for the endgame), its
depth-limited search (``ai.search``), or, when an outside clock (``movetime``: the
engine's and ConnectX's safety cap) runs out first, a fallback.  ``Answer.decided_by``
says which; ``Answer.exact`` is what is known for certain (``ai.exact``).  Perfect off
the standard board plays the Expert preset, and says so.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, replace

import numpy as np

from ai.answer import Answer, DecidedBy, Purpose
from ai.bitboard import geometry
from ai.book import BookError, BookFile
from ai.book_check import trusted_book
from ai.exact import ExactScore
from ai.levels import OFF_BOARD_LEVEL, PRESETS, Level, exact_nodes, level_played, solvable, solver_nodes_for
from ai.mcts import PlayoutPolicy, Proved, mcts
from ai.perfect import PerfectPlayer, forget_shared_tables, shared_player
from ai.search import game_over_value, search
from ai.search_types import ProgressCallback, SearchCancelled, SearchProgress, SearchResult
from ai.solver import (
    BOOK_PLIES,
    WEAK_BOOK_PLIES,
    SolveLimit,
    Solver,
    SolverError,
    SolverStopped,
    compact_table_slots,
)
from ai.tree import DEFAULT_BUDGET, SearchTree
from game.board import Board
from game.i18n import N_, _
from game.rules import STANDARD, Mode, Rules

LOG = logging.getLogger(__name__)
NOT_STANDARD_NOTE = N_("perfect play is only for the standard 6x7 board: playing Expert")
SOLVED_OFF_BOARD_NOTE = N_("off the standard board: the solver proved this position, the move keeps its result")
BAD_BOOK_NOTE = N_("the opening book cannot be used ({problem}): {stand_in}; reinstall bitbully-databases")
"""Said by every answer a level gives without the book it would use (``level_here``)."""
_SOLVERS: dict[Rules, Solver] = {}


def shared_solver(rules: Rules) -> Solver:
    """The process-wide exact solver of ``rules`` (its table kept between moves); the
    standard board shares the Perfect player's."""
    if rules == STANDARD:
        return shared_player().solver
    if rules not in _SOLVERS:
        _SOLVERS[rules] = Solver(rules)
    return _SOLVERS[rules]


def keep_tables_of(rules: Rules) -> None:
    """Give back the tables of the process's shared solvers of boards other than ``rules``:
    Perfect's (the standard board: 64 + 8 MB once it has played or hinted) and those of
    ``shared_solver``.  A player who moved on to 7x8 has no use for 6x7 answers, and the
    AI worker that kept them carried them through every 7x8 move (its peak over a long
    session: 211 MB).  A solver needed again starts with empty tables, as in a new process."""
    if rules != STANDARD:
        forget_shared_tables()
    for other, solver in _SOLVERS.items():
        if other != rules:
            solver.clear()


def level_solver(rules: Rules) -> Solver:
    """A solver with empty tables for one move of a level (its endgame verdict and the
    check of the column it keeps), so that what the endgame solve decides depends on the
    position, the level and the seed only: not on what this process solved before (another
    level's look, a hint, another game or puzzle), which with a node budget decides whether
    a solve finishes.  (Hard played column 4 in 46644423222663423, and column 6 after Expert
    had looked at it; in 80 seeded games, 2,113 moves of Hard and Expert, empty tables
    changed none.)  Perfect's play (Perfect, and Expert's openings) keeps the shared
    player's tables, for its speed: its move always keeps the exact result, but the nodes
    it reports, and which winning column where the quickest is not found within its
    budget, can still depend on them.

    Its table is a million slots (the process's small table memory, 8 MB: ``ai.tables``,
    cleared for it) where the compiled solver can pack the board's keys into so few (6x7),
    else the exact table's size where the compiled solver runs (7x8: the process's 64 MB,
    cleared for it).  Boards the compiled solver does not take keep the small table: their
    Python solver allocates it whole, at each move.
    """
    return Solver(rules, use_book=False, table_slots=compact_table_slots(rules))


@dataclass(frozen=True)
class Asked:
    """What a caller asks of a level's move beside the position: why (a move or a hint),
    who hears of the search's passes, whether its tree is kept and how much of it, and
    the seed of a noisy level's judgement.  It travels as one value from ``choose_move``
    (or ``Thinking``) to the search (``search_level``)."""

    purpose: Purpose = Purpose.MOVE
    on_progress: ProgressCallback | None = None  # under a clock (``Thinking``): finished passes only
    record_tree: bool = False
    tree_budget: int = DEFAULT_BUDGET
    seed: int = 0


def choose_move(
    level: Level,
    grid: np.ndarray,
    rules: Rules,
    to_move: int,
    *,
    purpose: Purpose = Purpose.MOVE,
    movetime: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    on_progress: ProgressCallback | None = None,
    record_tree: bool = False,
    tree_budget: int = DEFAULT_BUDGET,
    seed: int = 0,
    perfect_player: PerfectPlayer | None = None,
) -> Answer:
    """Choose ``level``'s move in this position: the one place a move is decided.

    Args:
        level: what to play like (depth, pruning, budget, order, noise, book, endgame, perfect).
        grid, rules, to_move: the position (``to_move`` is 1 for MAX, -1 for MIN).
        purpose: MOVE plays the level; HINT plays it without a beginner's blur and adds
            the exact score of every column where the solver finds them within its budget
            (the best exact column then overrules the search's).
        movetime: an outside clock in seconds (the engine's ``movetime``, ConnectX's
            ``actTimeout``): a safety cap, never part of a level.  The answer is on time;
            if the level had not finished, the deepest finished pass or a fallback move
            answers (``DecidedBy.FALLBACK``).
        should_stop: polled during the work; True cancels it (``SearchCancelled`` or
            ``SolverStopped``).
        on_progress: progress reports of the search.
        record_tree, tree_budget: keep the heuristic search's tree (``result.tree``), at
            most ``tree_budget`` nodes (the window's tree overlay shows it).
        seed: seeds a noisy level's judgement (same seed, same position: same move).
        perfect_player: the Perfect player (its tables survive between moves, and
            ``ponder`` fills them); by default one shared per process.

    Returns:
        An ``Answer``; its ``move`` is 0-based (a column under gravity, a cell index without).
    """
    grid = np.asarray(grid, dtype=np.int8)
    asked = Asked(purpose=purpose, on_progress=on_progress, record_tree=record_tree, tree_budget=tree_budget, seed=seed)
    if movetime is not None:
        board = Board(rules, grid, to_move=to_move)
        return _on_the_clock(level, board, seconds=movetime, asked=asked, should_stop=should_stop)
    position = _Position(grid, rules, to_move, should_stop=should_stop, perfect_player=perfect_player)
    return _choose_now(level, position, asked)


def _choose_now(level: Level, position: _Position, asked: Asked) -> Answer:
    """``choose_move`` without an outside clock; ``position.soft_limit`` (seconds) is the
    share of a clock the work may use, where one is running."""
    grid, rules = position.grid, position.rules
    geo = geometry(rules)
    over = game_over_value(geo, *geo.from_grid(grid))
    if over is not None:
        return Answer(None, DecidedBy.SEARCH, level, over)
    started = time.perf_counter()
    level, note = level_here(level, grid, rules)
    if asked.purpose is Purpose.HINT:
        level = replace(level, noise=0)
    answer = _decide(level, position, asked)
    if note == _(NOT_STANDARD_NOTE) and answer.exact is not None and level.endgame_cells >= rules.cells:
        note = _(SOLVED_OFF_BOARD_NOTE)  # Perfect off the standard board, and the solver proved it
    if asked.purpose is Purpose.HINT:
        answer = _with_column_scores(answer, position)
    return replace(_with_note(answer, note), seconds=time.perf_counter() - started)


def level_here(level: Level, grid: np.ndarray, rules: Rules) -> tuple[Level, str | None]:
    """The level that plays this position, and the note that says why where it is not
    ``level`` (None where it is).

    Perfect off the standard board is Expert (``ai.levels.level_played``).  Where a level
    would answer from the opening book (Perfect, or a level that knows the openings, up
    to the book's discs on the standard board), the book is checked first
    (``ai.book_check.trusted_book``, once per process): without it an exact solve from
    an early position can take hours, so on a missing or damaged book Perfect plays the
    Expert preset without the book, and another level plays without its book.
    """
    played = level_played(level, rules)
    if played != level:
        return played, _(NOT_STANDARD_NOTE)
    discs = int(np.count_nonzero(grid))
    uses_book = level.perfect or (level.knows_openings(rules) and discs <= level.book_discs)
    if rules != STANDARD or discs > BOOK_PLIES or not uses_book:
        return level, None
    try:
        trusted_book()
    except BookError as error:
        if level.perfect:
            stand_in, who = (
                replace(PRESETS[OFF_BOARD_LEVEL], book_discs=0),
                _("{level} plays for Perfect").format(level=OFF_BOARD_LEVEL),
            )
        else:
            stand_in, who = replace(level, book_discs=0), _("the level plays without it")
        return stand_in, _(BAD_BOOK_NOTE).format(problem=error, stand_in=who)
    if discs < WEAK_BOOK_PLIES:  # the weak search's first stop (without it, the 12-ply book answers)
        try:
            trusted_book(BookFile.PLY_8)
        except BookError:
            pass
    return level, None


def _with_note(answer: Answer, note: str | None) -> Answer:
    """``answer`` with ``note`` said first (once: nothing when it already says it)."""
    if not note or (answer.note is not None and note in answer.note):
        return answer
    return replace(answer, note=f"{note}; {answer.note}" if answer.note else note)


@dataclass(frozen=True)
class _Position:
    """The position being decided and the hooks every step needs."""

    grid: np.ndarray
    rules: Rules
    to_move: int
    _: KW_ONLY
    should_stop: Callable[[], bool] | None
    perfect_player: PerfectPlayer | None = None
    soft_limit: float | None = None  # seconds of an outside clock the work may use (a safety cap)

    @property
    def discs(self) -> int:
        return int(np.count_nonzero(self.grid))

    def stopped(self) -> bool:
        return self.should_stop is not None and self.should_stop()


def _decide(level: Level, position: _Position, asked: Asked) -> Answer:
    """Book, solver, then search: the first that knows answers."""
    rules = position.rules
    if level.is_mcts:
        return _monte_carlo(level, position, asked)
    if level.perfect:
        return _perfect(level, position)
    endgame: Solver | None = None  # the level's own solver for this move, if it solves the endgame
    try:
        verdict: _Verdict | None = None  # what the solver proved of the position, within the level's nodes
        started = time.perf_counter()
        try:
            if level.knows_openings(rules) and position.discs <= level.book_discs:
                return _perfect(level, position)
            empty = position.grid.size - position.discs
            if level.solves_endgames(rules) and empty <= level.endgame_cells_on(rules):
                endgame = level_solver(rules)
                verdict = _endgame_verdict(position, solver_nodes_for(level, rules, empty), endgame)
        except SolverStopped:
            if position.stopped():
                raise
        left = position.soft_limit
        if left is not None:  # an outside clock runs: the search gets what the solver left of it
            left = max(left - (time.perf_counter() - started), 0.05)
        result = search_level(
            level,
            position.grid,
            rules,
            to_move=position.to_move,
            asked=asked,
            time_limit=left,
            should_stop=position.should_stop,
        )
        move, decided_by, note, exact = result.move, DecidedBy.SEARCH, None, None
        solver_spent = 0
        if verdict is not None:
            exact = ExactScore.from_outcome(verdict.outcome, position.to_move)
            solver_spent = verdict.nodes
            if verdict.outcome >= 0 and move is not None:  # the search's move must keep the win or draw
                assert endgame is not None  # it proved the verdict
                column, checked = _keeping_column(position, verdict, move, endgame)
                solver_spent += checked
                if column != move:  # it would give away what the solver keeps
                    if verdict.outcome > 0:
                        note = _(
                            "the exact solver chose column {column}: it keeps the win, "
                            "the search's column {searched} would not"
                        )
                    else:
                        note = _(
                            "the exact solver chose column {column}: it keeps the draw, "
                            "the search's column {searched} would not"
                        )
                    note = note.format(column=column + 1, searched=move + 1)
                    move, decided_by = column, DecidedBy.OVERRULED
        if exact is None and result.proven:
            exact = ExactScore.from_value(result.value)
        return Answer(
            move,
            decided_by,
            level,
            result.value,
            exact=exact,
            result=result,
            nodes=result.stats.total_nodes + solver_spent,
            note=note,
        )

    finally:
        if endgame is not None:  # its table given back: nothing kept for a later move (``level_solver``)
            endgame.clear()


def _monte_carlo(level: Level, position: _Position, asked: Asked) -> Answer:
    """A level ``mcts:N``: the most-visited move of N seeded playouts (``ai.mcts``); an
    outside clock cuts the playouts short and the search so far answers, saying so."""
    found = mcts(
        position.grid,
        position.rules,
        level.playouts,
        to_move=position.to_move,
        seed=asked.seed,
        solver=level.mcts_solver,
        policy=PlayoutPolicy.of(level.mcts_tactics),
        time_limit=position.soft_limit,
        should_stop=position.should_stop,
    )
    note = None
    if not found.completed:
        said = _("the clock ran out after {playouts:,} of {asked:,} playouts: their most-visited move answered")
        note = said.format(playouts=found.playouts, asked=found.asked)
    proved = found.proved
    exact = None
    if proved is not None:  # MCTS-Solver proved the position: its outcome is exact
        outcome = {Proved.WIN: 1, Proved.DRAW: 0, Proved.LOSS: -1}[proved]
        exact = ExactScore.from_outcome(outcome, position.to_move)
    return Answer(
        found.move,
        DecidedBy.MCTS,
        level,
        found.value,
        exact=exact,
        nodes=len(found.tree),
        note=note,
        mcts=found,
    )


def search_level(
    level: Level,
    grid: np.ndarray,
    rules: Rules,
    *,
    to_move: int,
    asked: Asked = Asked(),
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> SearchResult:
    """``level``'s heuristic search of the position: ``ai.search.search`` with the level's
    depth, pruning, node budget, move order, table and noise (``asked.seed`` seeds the noise; the
    progress, the tree and its budget are ``asked``'s too).  The one
    place a level becomes a search: ``_decide``, ``search_tree`` and the worker's plain
    search to compare all search through it.

    Raises:
        SearchCancelled: ``should_stop`` returned True.
    """
    return search(
        grid,
        rules,
        level.depth,
        pruning=level.pruning,
        node_limit=level.node_limit,
        order=level.order,
        noise=level.noise,
        seed=asked.seed,
        table=level.table,
        time_limit=time_limit,
        to_move=to_move,
        should_stop=should_stop,
        on_progress=asked.on_progress,
        record_tree=asked.record_tree,
        tree_budget=asked.tree_budget,
    )


def search_tree(
    answer: Answer,
    grid: np.ndarray,
    rules: Rules,
    to_move: int,
    *,
    seed: int = 0,
    tree_budget: int = DEFAULT_BUDGET,
    should_stop: Callable[[], bool] | None = None,
) -> SearchTree | None:
    """The tree of the search behind ``answer`` (asked without a tree and without an
    outside clock, with the same ``seed``), recorded by the Python search.

    The level's search is run again in ``ai.search``'s Python passes, which record the
    tree: the same nodes as the compiled passes that answered, so the same move, value,
    depth and node count.  Anything else (an answer from a clock-cut search, say) gives
    None and a warning, never a tree of another search.  None too where no search
    answered (the book, the solver).

    Raises:
        SearchCancelled: ``should_stop`` returned True.
    """
    result = answer.result
    if result is None or result.tree is not None:
        return None if result is None else result.tree
    grid = np.asarray(grid, dtype=np.int8)
    replay = search_level(
        answer.level,
        grid,
        rules,
        to_move=to_move,
        asked=Asked(record_tree=True, tree_budget=tree_budget, seed=seed),
        should_stop=should_stop,
    )
    played = (result.move, result.value, result.stats.depth, result.stats.total_nodes)
    recorded = (replay.move, replay.value, replay.stats.depth, replay.stats.total_nodes)
    if recorded != played:
        LOG.warning("the recorded search differs from the one that answered (%s, not %s): no tree", recorded, played)
        return None
    return replay.tree


@dataclass(frozen=True)
class _Verdict:
    """What the exact solver proved of a position within a level's nodes: its outcome (1 a
    win, 0 a draw, -1 a loss, with perfect play), a column that keeps it, and the nodes
    left of the level's budget for checking another column."""

    outcome: int
    column: int
    nodes: int
    nodes_left: int
    current: int  # the position as the solver has it (side to move's discs, all discs)
    mask: int


def _endgame_verdict(position: _Position, node_limit: int, solver: Solver) -> _Verdict:
    """The position's outcome and a column that keeps it: one weak solve of the position
    (the root searched like any node), not one per column, which proved the same in up
    to eight times the nodes.

    Raises:
        SolverStopped: the time or the nodes ran out, or ``should_stop`` said so.
    """
    current, mask = solver.position(position.grid, position.to_move)
    solved = solver.best_move(
        current,
        mask,
        limit=SolveLimit(weak=True, time=position.soft_limit, nodes=node_limit, should_stop=position.should_stop),
    )
    return _Verdict(
        outcome=solved.score,
        column=solved.move,
        nodes=solved.nodes,
        nodes_left=max(node_limit - solved.nodes, 0),
        current=current,
        mask=mask,
    )


def _keeping_column(position: _Position, verdict: _Verdict, searched: int, solver: Solver) -> tuple[int, int]:
    """The column to play where the solver proved a win or a draw: the search's own when it
    keeps that outcome, else the centre-most column that does; and the solver nodes the
    checks took.  Where the level's nodes run out before the search's column is judged,
    it stands (as when the solve itself runs out); later in the look, the column the
    solve proved stands in for the centre-most one.

    Raises:
        SolverStopped: ``should_stop`` said so.
    """
    spent = 0
    order = [searched] + [col for col in solver.geo.centre_order if col != searched]
    for col in order:
        if col == verdict.column:
            return col, spent
        try:
            outcome, nodes = _column_outcome(
                solver, col, position, verdict=verdict, node_limit=verdict.nodes_left - spent
            )
        except SolverStopped:
            if position.stopped():
                raise
            return searched if col == searched else verdict.column, verdict.nodes_left  # all of it
        spent += nodes
        if outcome == verdict.outcome:
            return col, spent
    return verdict.column, spent


def _column_outcome(
    solver: Solver, col: int, position: _Position, *, verdict: _Verdict, node_limit: int
) -> tuple[int, int]:
    """The outcome (1/0/-1) of playing ``col`` (-2 where it is full), and the nodes it took."""
    current, mask = verdict.current, verdict.mask
    _, add, keep = solver.geo.move_steps[col]
    bit = (mask + add) & keep
    if not bit:
        return -2, 0
    if solver.geo.line_starts(current | bit):
        return 1, 0
    if (mask | bit).bit_count() == solver.cells:
        return 0, 0
    child = solver.solve_bits(
        current ^ mask,
        mask | bit,
        limit=SolveLimit(weak=True, time=position.soft_limit, nodes=node_limit, should_stop=position.should_stop),
        low=-verdict.outcome,  # no column does better than the position's outcome
    )
    return -child.score, child.nodes


def _perfect(level: Level, position: _Position) -> Answer:
    """Perfect play on the standard board: the book up to 12 discs, the solver after;
    ``level.solver_nodes`` bound the search for the distance (the outcome is always found)."""
    player = position.perfect_player or shared_player()
    chosen = player.choose(
        position.grid,
        position.rules,
        position.to_move,
        time_limit=position.soft_limit,
        node_limit=level.solver_nodes,
        should_stop=position.should_stop,
    )
    grid, to_move = position.grid, position.to_move
    if chosen.score is not None:
        exact = ExactScore.from_score(chosen.score, grid, to_move)
    else:  # the outcome is known, its distance was not worked out in time
        exact = ExactScore.from_outcome(chosen.outcome, to_move)
    columns = {col: ExactScore.from_score(score, grid, to_move) for col, score in chosen.scores.items()}
    # The book's reach, when the books passed their check (else the solver worked it out)
    by_book = position.discs <= BOOK_PLIES and player.solver.book_note is None
    decided_by = DecidedBy.BOOK if by_book else DecidedBy.SOLVER
    return Answer(
        chosen.move,
        decided_by,
        level,
        exact.value,
        exact=exact,
        column_scores=columns or None,
        nodes=chosen.nodes,
    )


# -- exact column scores (hints, the board's column badges, analyze) ---------------------
def column_scores(
    grid: np.ndarray,
    rules: Rules,
    to_move: int,
    *,
    node_limit: int | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> dict[int, ExactScore] | None:
    """The exact result after each playable column, or None where the solver does not
    prove them all within ``node_limit`` nodes (default ``exact_nodes(rules)``), or the
    rules are not the solver's.

    Raises:
        SolverStopped: ``should_stop`` returned True.
    """
    if not solvable(rules):
        return None
    grid = np.asarray(grid, dtype=np.int8)
    if node_limit is None:
        node_limit = exact_nodes(rules)
    try:
        solver = shared_solver(rules)
        current, mask = solver.position(grid, to_move)
        scores = solver.analyze(current, mask, limit=SolveLimit(nodes=node_limit, should_stop=should_stop)).complete()
    except SolverStopped:
        if should_stop is not None and should_stop():
            raise
        return None
    except (BookError, SolverError):
        return None
    return {col: ExactScore.from_score(score, grid, to_move) for col, score in scores.items()}


def _with_column_scores(answer: Answer, position: _Position) -> Answer:
    """A hint's answer with every column's exact result; the best of them overrules the
    search's column where it keeps less."""
    scores = answer.column_scores
    if not scores or len(scores) < len(_open_moves(position)):
        scores = (
            column_scores(position.grid, position.rules, position.to_move, should_stop=position.should_stop) or scores
        )
    if not scores or answer.move is None:
        return answer
    side = position.to_move

    def rank(exact: ExactScore) -> tuple[int, int]:  # a sooner win, a later loss
        plies = exact.plies or 0
        return exact.pov(side), -plies if exact.pov(side) > 0 else plies

    best = max(rank(exact) for exact in scores.values())
    exact = next(e for e in scores.values() if rank(e) == best)
    move, decided_by, note = answer.move, answer.decided_by, answer.note
    if move not in scores or rank(scores[move]) != best:
        centre = (position.rules.cols - 1) / 2
        searched, move = move, min((m for m, e in scores.items() if rank(e) == best), key=lambda m: abs(m - centre))
        if decided_by is DecidedBy.SEARCH:
            decided_by = DecidedBy.OVERRULED
            said = _("the exact scores chose column {column}; the search's column {searched} keeps less")
            note = said.format(column=move + 1, searched=searched + 1)
    return replace(answer, move=move, decided_by=decided_by, exact=exact, column_scores=scores, note=note)


def _open_moves(position: _Position) -> list[int]:
    return Board(position.rules, position.grid, to_move=position.to_move).legal_moves()


# -- the outside clock: the engine's movetime, ConnectX's actTimeout ------------------------
SOFT_SHARE = 0.8
"""Share of the move time the level may use before it should answer; the rest is margin
for the pass in flight and the pipe."""
SAFETY_SECONDS = 0.05
"""Kept back from every clock: the answer must be on the wire before the limit."""
SAFETY_NET_DEPTH = 6
SAFETY_NET_SHARE = 0.1
"""Before the level thinks, a search of at most this depth in this share of the move
time leaves a fallback move better than a quick guess."""
STOP_NET_SECONDS = 2.0
"""A search a person stopped before any pass finished (no pruning: one pass to the full
depth) leaves its move to a safety net made then, in a tenth of this."""
MAX_THINK_SECONDS = 86_400.0
"""A day: longer move times are cut to this (thread timers cannot wait for ever)."""


class Thinking:
    """One move being chosen against a clock; ``best_so_far`` answers from any thread.

    ``run`` does the work in the caller's thread; ``best_so_far`` is the move of the
    level's deepest finished pass, else the safety net's, else a quick safe move.
    """

    def __init__(
        self,
        level: Level,
        board: Board,
        seconds: float | None,
        *,
        asked: Asked = Asked(),
        should_stop: Callable[[], bool] | None = None,
        should_finish: Callable[[], bool] | None = None,
        on_report: ProgressCallback | None = None,
    ):
        """``asked.on_progress`` hears of each finished pass of the level's search;
        ``should_stop`` is the caller's stop request (the clock's is ``self.should_stop``);
        ``should_finish`` is a person's "stop and play": the best move so far answers (as
        when the clock runs out); ``on_report`` hears every progress report."""
        self.level = level
        self._finish = should_finish
        self._on_report = on_report
        self.finished_by_request = False  # ``should_finish`` ended the thinking
        self._nodes = 0  # positions the level's search has visited so far
        self.asked = asked
        self.board = board.copy()
        self.seconds = None if seconds is None else min(seconds, MAX_THINK_SECONDS)
        self.started = time.perf_counter()
        self.stop_requested = threading.Event()
        self._outside_stop = should_stop
        self._on_pass = asked.on_progress
        self._progress: SearchProgress | None = None
        self._reported_depth = 0
        self._net: Answer | None = None
        self._note: str | None = None  # why another level plays, said by every answer (``level_here``)

    @property
    def deadline(self) -> float | None:
        """When the answer is due (``perf_counter`` time), or None without a clock."""
        if self.seconds is None:
            return None
        return self.started + max(0.0, self.seconds - SAFETY_SECONDS)

    def should_stop(self) -> bool:
        deadline = self.deadline
        if self._outside_stop is not None and self._outside_stop():
            self.stop_requested.set()
        if self._finish is not None and not self.stop_requested.is_set() and self._finish():
            self.finished_by_request = True
            self.stop_requested.set()
        return self.stop_requested.is_set() or (deadline is not None and time.perf_counter() >= deadline)

    def _progress_seen(self, progress: SearchProgress) -> None:
        self._nodes = progress.nodes
        if self._on_report is not None:
            self._on_report(progress)
        if progress.move is not None:
            self._progress = progress
        if self._on_pass is not None and progress.completed_depth > self._reported_depth:
            self._reported_depth = progress.completed_depth
            self._on_pass(progress)

    def best_so_far(self) -> Answer:
        """The level's deepest finished pass, else the safety net, else the quick move
        (with the note of ``level_here``, where the level had one)."""
        return _with_note(self._fallback(), self._note)

    def _fallback(self) -> Answer:
        elapsed = time.perf_counter() - self.started
        progress = self._progress
        stopped = self.finished_by_request
        if progress is not None and progress.move is not None and progress.value is not None:
            said = (
                _("stopped: the deepest finished pass ({depth} plies) answered")
                if stopped
                else _("the clock ran out: the deepest finished pass ({depth} plies) answered")
            )
            note = said.format(depth=progress.completed_depth)
            return Answer(
                progress.move,
                DecidedBy.FALLBACK,
                self.level,
                progress.value,
                nodes=progress.nodes,
                seconds=elapsed,
                note=note,
            )
        net = self._net
        if net is not None and net.move is not None:
            nodes = self._nodes if stopped else net.nodes  # stopped: what the level's search had done
            return replace(net, seconds=elapsed, note=self._net_note(stopped), nodes=nodes)
        move = quick_move(self.board.copy())
        note = (
            _("stopped before any search: a quick safe move answered")
            if stopped
            else _("the clock ran out before any search: a quick safe move answered")
        )
        return Answer(move, DecidedBy.FALLBACK, self.level, 0, seconds=elapsed, note=note)

    def _cast_safety_net(self, seconds: float, should_stop: Callable[[], bool] | None = None) -> None:
        """A shallow search first, so a level that reports no passes (book, solver) still
        leaves a searched move when the clock runs out (``should_stop``: by default the
        clock's and the caller's stop)."""
        board = self.board
        try:
            result = search(
                board.grid,
                board.rules,
                SAFETY_NET_DEPTH,
                time_limit=max(0.005, seconds * SAFETY_NET_SHARE),
                to_move=board.to_move,
                should_stop=should_stop or self.should_stop,
            )
        except SearchCancelled:
            return
        self._net = Answer(
            result.move,
            DecidedBy.FALLBACK,
            self.level,
            result.value,
            result=result,
            nodes=result.stats.total_nodes,
            note=self._net_note(False),
        )

    def _net_note(self, stopped: bool) -> str | None:
        """What the safety net's answer says: the clock ran out, or a person stopped the search."""
        if self._net is None or self._net.result is None:
            return None
        depth = self._net.result.depth
        if stopped:
            return _("stopped: a quick {depth}-ply alpha-beta search answered").format(depth=depth)
        return _("the clock ran out: a {depth}-ply safety-net search answered").format(depth=depth)

    def run(self) -> Answer:
        """Think until the level is done or the clock says stop."""
        board = self.board
        if not board.is_game_over():
            # The book's check first (the clock counts it), so a fallback answer says its note too.
            _, self._note = level_here(self.level, board.grid, board.rules)
            if self.seconds is not None:
                self._cast_safety_net(self.seconds)
        soft = None
        if self.seconds is not None:
            soft = max(0.01, self.started + self.seconds * SOFT_SHARE - SAFETY_SECONDS - time.perf_counter())
        position = _Position(board.grid, board.rules, board.to_move, should_stop=self.should_stop, soft_limit=soft)
        try:
            answer = _choose_now(self.level, position, replace(self.asked, on_progress=self._progress_seen))
        except (SearchCancelled, SolverStopped):
            if self._outside_stop is not None and self._outside_stop():
                raise
            if self.finished_by_request and self._progress is None and self._net is None:
                # Stopped before a pass finished (one pass to the full depth, without
                # pruning): a few milliseconds of alpha-beta find the move to play.
                self._cast_safety_net(STOP_NET_SECONDS, self._outside_stop or (lambda: False))
            return self.best_so_far()
        return replace(answer, seconds=time.perf_counter() - self.started)


def _on_the_clock(
    level: Level, board: Board, *, seconds: float, asked: Asked, should_stop: Callable[[], bool] | None
) -> Answer:
    """``choose_move`` under an outside clock: the level thinks in a thread, and when the
    time is up the best move found so far answers (the late work is told to stop)."""
    thinking = Thinking(level, board, seconds, asked=asked, should_stop=should_stop)
    answers: list[Answer] = []
    failures: list[BaseException] = []

    def think() -> None:
        try:
            answers.append(thinking.run())
        except (SearchCancelled, SolverStopped) as stopped:
            failures.append(stopped)
        except Exception:  # a failing level still owes a move
            answers.append(thinking.best_so_far())

    worker = threading.Thread(target=think, daemon=True, name="choose_move")
    worker.start()
    worker.join(max(0.0, (thinking.seconds or 0.0) - SAFETY_SECONDS))
    if answers:
        return answers[0]
    if failures:
        raise failures[0]
    thinking.stop_requested.set()
    if should_stop is not None and should_stop():
        raise SearchCancelled()
    return thinking.best_so_far()


def quick_move(board: Board) -> int | None:
    """A sensible move at once: win now, else block, else a safe move nearest the centre.

    The last fallback when the clock ran out before a single search pass finished.
    """
    moves = board.legal_moves()
    if not moves:
        return None
    rules = board.rules
    side = board.to_move

    def wins_for(player: int, move: int) -> bool:
        if rules.mode is not Mode.CLASSIC:
            return False
        saved = board.to_move
        board.to_move = player
        board.push(move)
        outcome = board.outcome()
        board.pop()
        board.to_move = saved
        return outcome is not None and outcome.winner == player

    for move in moves:
        if wins_for(side, move):
            return move
    for move in moves:
        if wins_for(-side, move):
            return move

    def gives_a_win(move: int) -> bool:
        board.push(move)
        try:
            return any(wins_for(-side, reply) for reply in board.legal_moves())
        finally:
            board.pop()

    def distance_to_centre(move: int) -> float:
        col = move if rules.gravity else move % rules.cols
        return abs(col - (rules.cols - 1) / 2)

    ordered = sorted(moves, key=distance_to_centre)
    safe = [move for move in ordered if not gives_a_win(move)]
    return (safe or ordered)[0]
