"""The compiled solver (``ai.compiled.solver_kernel``) against the pure-Python one, and its loading rules.

The compiled search must be the same search: the same score, the same move, the same node
count and the same table words, on seeded positions of several boards.  Node limits stop
both at the same node; a stop request stops the compiled search; without numba, or with
no writable cache folder, or with ``CONNECT4_PURE_PYTHON=1``, the solver still solves.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from ai.compiled import solver_kernel
from ai.compiled.kernel_file import PURE_PYTHON_ENV
from ai.solver import SolveLimit, Solver, SolverStopped, table_fits_compiled
from ai.tables import SIGN_TABLE_SLOTS, WIDE_TABLE_SLOTS
from game.board import Board
from game.notation import parse_moves
from game.rules import Rules
from tests.helpers import random_board

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def compiled():
    """Compile (or load) the fast solver once for the whole session."""
    saved = os.environ.pop(PURE_PYTHON_ENV, None)
    try:
        assert solver_kernel.LOADER.prepare(), solver_kernel.LOADER.status()
        yield
    finally:
        if saved is not None:
            os.environ[PURE_PYTHON_ENV] = saved


@pytest.fixture
def fast(compiled, monkeypatch):
    """The compiled path, even when the suite runs with ``CONNECT4_PURE_PYTHON=1``."""
    monkeypatch.delenv(PURE_PYTHON_ENV, raising=False)


def _lines(path: Path, step: int) -> list[tuple[str, int]]:
    rows = [line.split() for line in path.read_text().split("\n") if line.strip()]
    return [(moves, int(score)) for moves, score in rows[::step]]


def _bits(solver: Solver, board: Board) -> tuple[int, int]:
    first, second = solver.geo.from_grid(board.grid)
    return (first if board.ply % 2 == 0 else second), first | second


def _pair(rules: Rules) -> tuple[Solver, Solver]:
    fast, slow = Solver(rules, own_table=True), Solver(rules, pure_python=True, own_table=True)  # side by side
    assert fast.compiled and not slow.compiled
    return fast, slow


def _seeded_boards(rules: Rules, seed: int, count: int, low: int, high: int) -> list[Board]:
    rng = random.Random(seed)
    boards: list[Board] = []
    while len(boards) < count:
        board = random_board(rules, rng, rng.randrange(low, high))
        if not board.is_game_over():
            boards.append(board)
    return boards


def test_compiled_and_python_visit_the_same_nodes_on_the_benchmark_positions(fast, positions_dir):
    """Each side keeps its tables across the positions, so the tables must stay equal too."""
    rules = Rules()
    compiled, python = _pair(rules)
    positions = _lines(positions_dir / "Test_L3_R1", 50) + _lines(positions_dir / "Test_L2_R1", 40)
    for moves, expected in positions:
        played = parse_moves(moves, rules)
        one, two = compiled.solve_moves(played), python.solve_moves(played)
        assert (one.score, one.nodes) == (two.score, two.nodes) == (expected, one.nodes), moves
    assert np.array_equal(compiled.table().array, python.table().array)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules(rows=4, cols=5, connect=4),
        Rules(rows=5, cols=6, connect=3),
        pytest.param(Rules(rows=6, cols=8, connect=5), marks=pytest.mark.slow),  # a long pure-Python solve
        Rules(rows=7, cols=8),
        Rules(rows=7, cols=8, connect=5),
    ],
    ids=["6x7", "4x5-k4", "5x6-k3", "6x8-k5", "7x8", "7x8-k5"],
)
def test_compiled_and_python_agree_on_seeded_positions(fast, rules):
    """Scores, weak scores, best moves and node counts, position by position."""
    compiled, python = _pair(rules)
    low = rules.cells // 2 if rules.cells > 30 else rules.cells // 3
    for board in _seeded_boards(rules, 16, 6, max(low, 13), rules.cells - 2):
        for weak in (False, True):
            one = compiled.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=weak))
            two = python.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=weak))
            assert (one.score, one.nodes) == (two.score, two.nodes), board.moves_string()
        one_move = compiled.best_move(*_bits(compiled, board))
        two_move = python.best_move(*_bits(python, board))
        assert one_move == two_move, board.moves_string()
    assert np.array_equal(compiled.table().array, python.table().array)


def test_compiled_and_python_read_the_books_alike(fast):
    """From early positions the searches stop at the opening books, which the compiled
    search looks up itself: the 8-ply book in a weak search, the 12-ply distance book
    (whose missing positions are searched on) in an exact one.  Same moves, scores, nodes
    and table words, on seeded positions of 3 to 11 discs (within 40,000 nodes)."""
    rules = Rules()
    compiled, python = _pair(rules)
    rng = random.Random(48)
    looked = 0
    while looked < 10:
        board = random_board(rules, rng, rng.randrange(3, 12))
        if board.is_game_over():
            continue
        for weak in (True, False):
            limit = SolveLimit(weak=weak, nodes=40_000)
            try:
                one = compiled.best_move(*_bits(compiled, board), limit=limit)
            except SolverStopped:
                one = None
            try:
                two = python.best_move(*_bits(python, board), limit=limit)
            except SolverStopped:
                two = None
            assert one == two and compiled.nodes == python.nodes, (board.moves_string(), weak)
        looked += 1
    assert np.array_equal(compiled.table(sign_scale=True).array, python.table(sign_scale=True).array)
    assert np.array_equal(compiled.table().array, python.table().array)


@pytest.mark.slow
def test_keys_past_two_to_the_63_land_in_the_same_slots_on_7x8(fast):
    """7x8 takes 64 bits a position: with the last column full and its top disc the side
    to move's, every key is 2**63 or more, which an int64 holds as a negative number.
    Both paths must still write the same words, node for node (stopped by a node limit:
    the position is far from solved)."""
    rules = Rules(rows=7, cols=8)
    board = Board.from_moves("88888884", rules)
    compiled, python = _pair(rules)
    current, mask = _bits(compiled, board)
    assert current + mask >= 1 << 63
    for solver in (compiled, python):
        with pytest.raises(SolverStopped, match="node budget"):
            solver.solve_grid(board.grid, board.to_move, limit=SolveLimit(nodes=150_000))
        assert solver.nodes == 150_001
    assert np.count_nonzero(compiled.table().array) > 10_000
    assert np.array_equal(compiled.table().array, python.table().array)


def test_a_16_mb_table_holds_7x8_keys_past_two_to_the_63_on_both_paths(fast):
    """A key (discs + mask) stays below 2**64 on 7x8, so a table of ``WIDE_TABLE_SLOTS``
    (16 MB) leaves a 43-bit check that the compiled solver's 63-bit words hold; counting a
    65th key bit had made 64 MB the least, and a level's 7x8 endgame solver 1.6 times
    slower a node.  Both paths write the same words with keys past 2**63, and solve
    seeded positions alike, with the same scores as the 64 MB table."""
    rules = Rules(rows=7, cols=8)
    assert table_fits_compiled(rules, WIDE_TABLE_SLOTS) and not table_fits_compiled(rules, SIGN_TABLE_SLOTS)
    compiled = Solver(rules, table_slots=WIDE_TABLE_SLOTS, own_table=True)
    python = Solver(rules, table_slots=WIDE_TABLE_SLOTS, pure_python=True, own_table=True)
    assert compiled.compiled and compiled.table().array is not None
    board = Board.from_moves("88888884", rules)
    assert sum(_bits(compiled, board)) >= 1 << 63
    for solver in (compiled, python):
        with pytest.raises(SolverStopped, match="node budget"):
            solver.solve_grid(board.grid, board.to_move, limit=SolveLimit(nodes=100_000))
    assert np.count_nonzero(compiled.table().array) > 10_000
    assert np.array_equal(compiled.table().array, python.table().array)
    big = Solver(rules, own_table=True)
    for board in _seeded_boards(rules, 48, 4, 34, rules.cells - 2):
        one = compiled.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True))
        two = python.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True))
        assert (one.score, one.nodes) == (two.score, two.nodes), board.moves_string()
        assert big.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True)).score == one.score
    assert np.array_equal(compiled.table().array, python.table().array)


def test_a_node_limit_stops_both_paths_at_the_same_node(fast, positions_dir):
    rules = Rules()
    moves = parse_moves(_lines(positions_dir / "Test_L2_R1", 1)[336][0], rules)
    needed = Solver(rules).solve_moves(moves).nodes
    assert needed > 10_000
    for limit in (0, 1, 100, 2047, 2048, 2049, needed // 2, needed - 1):
        stopped = []
        for solver in _pair(rules):
            with pytest.raises(SolverStopped, match="node budget"):
                solver.solve_moves(moves, limit=SolveLimit(nodes=limit))
            stopped.append(solver.nodes)
        assert stopped == [limit + 1, limit + 1]
    for solver in _pair(rules):
        assert solver.solve_moves(moves, limit=SolveLimit(nodes=needed)).nodes == needed


def test_a_node_limit_bounds_best_move_the_same_way(fast, positions_dir):
    rules = Rules()
    board = Board.from_moves(_lines(positions_dir / "Test_L2_R1", 1)[317][0])
    compiled, python = _pair(rules)
    needed = Solver(rules).best_move(*_bits(compiled, board)).nodes
    for solver in (compiled, python):
        with pytest.raises(SolverStopped):
            solver.best_move(*_bits(solver, board), limit=SolveLimit(nodes=needed - 1))
        assert solver.nodes == needed
    fresh = _pair(rules)
    assert fresh[0].best_move(*_bits(compiled, board), limit=SolveLimit(nodes=needed)) == fresh[1].best_move(
        *_bits(python, board), limit=SolveLimit(nodes=needed)
    )


def test_a_stop_request_and_a_time_limit_stop_the_compiled_search(fast):
    """The empty board without the books: minutes of work, given up on request."""
    solver = Solver(Rules(), use_book=False)
    assert solver.compiled
    asked = threading.Event()
    timer = threading.Timer(0.05, asked.set)
    timer.start()
    with pytest.raises(SolverStopped, match="cancelled"):
        solver.solve_moves([], limit=SolveLimit(should_stop=asked.is_set))
    timer.join()
    with pytest.raises(SolverStopped, match="time budget"):
        solver.solve_moves([], limit=SolveLimit(time=0.05))
    # What the stopped searches wrote are true bounds: answers stay exact.
    assert (
        solver.solve_moves(parse_moves("4453444335343", Rules())).score
        == Solver(Rules(), pure_python=True).solve_moves(parse_moves("4453444335343", Rules())).score
    )


def test_a_stop_asked_as_a_solve_ends_never_stops_the_next_one(fast):
    """One watchdog thread serves every compiled solve of the process: a stop request that
    says yes just as its solve finishes must not reach the solver's next call (the same
    stop flag), nor another solver's."""
    rules = Rules()
    quick = parse_moves("4453444335343", rules)  # a few thousand nodes: done before the first look, mostly
    longer = parse_moves("44444666613625222", rules)  # 260,000 nodes: the watchdog looks many times
    solver, other = Solver(rules), Solver(rules, own_table=True)
    expected = Solver(rules, own_table=True).solve_moves(longer).score
    for _ in range(30):
        try:
            solver.solve_moves(quick, limit=SolveLimit(should_stop=lambda: True))
        except SolverStopped:
            pass
        for each in (solver, other):
            assert each.solve_moves(longer, limit=SolveLimit(time=60.0)).score == expected


def test_the_pure_python_switch_forces_the_python_path(fast, monkeypatch):
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    solver = Solver(Rules())
    assert not solver.compiled
    assert solver_kernel.LOADER.kernel() is None
    assert "CONNECT4_PURE_PYTHON" in solver_kernel.LOADER.status()
    assert solver.solve_moves(parse_moves("4453444335343", Rules())).score == 5
    monkeypatch.delenv(PURE_PYTHON_ENV)
    assert solver.compiled and solver_kernel.LOADER.status() == "fast solver ready"


def test_preparing_in_the_background_ends_ready(fast):
    solver_kernel.LOADER.prepare_in_background().join()
    assert solver_kernel.LOADER.is_ready()


SOLVE_PAST_THE_BOOK = """
import logging
from ai.compiled import solver_kernel
from ai.solver import Solver
from game.notation import parse_moves
from game.rules import Rules
for _ in range(2):
    solver = Solver(Rules())
    print(solver.solve_moves(parse_moves("4453444335343", Rules())).score, solver.compiled)
print(solver_kernel.LOADER.status())
"""


def _run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def _env(**changes: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in ("NUMBA_CACHE_DIR", "CONNECT4_PURE_PYTHON")}
    env.update(changes)
    return env


@pytest.mark.slow
def test_without_numba_the_solver_solves_with_one_warning(tmp_path):
    """No numba and no kernel file built before (an empty cache folder): the Python path."""
    result = _run("import sys; sys.modules['numba'] = None\n" + SOLVE_PAST_THE_BOOK, _env(XDG_CACHE_HOME=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["5 False", "5 False"]
    assert "pure-Python" in result.stdout
    warnings = [line for line in result.stderr.splitlines() if "fast (compiled) solver is not available" in line]
    assert len(warnings) == 1 and "numba or llvmlite is not installed" in warnings[0], result.stderr


@pytest.mark.slow
def test_the_cache_goes_to_the_games_folder_under_the_users_cache(tmp_path):
    beside_the_code = sorted((ROOT / "ai").rglob("*.nb[ic]")) + sorted((ROOT / "ai").rglob("*.kernel"))
    result = _run(SOLVE_PAST_THE_BOOK, _env(XDG_CACHE_HOME=str(tmp_path)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[:2] == ["5 True", "5 True"]
    assert list((tmp_path / "connect4" / "solver").glob("solver-*.kernel"))
    assert sorted((ROOT / "ai").rglob("*.nb[ic]")) + sorted((ROOT / "ai").rglob("*.kernel")) == beside_the_code
    assert "fast (compiled) solver is not available" not in result.stderr
