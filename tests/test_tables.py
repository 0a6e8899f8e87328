"""One transposition-table memory per process (``ai.tables``): every solver writes the same
buffers, a solver sees its own entries or none, and a solver in the middle of a call in
another thread is never robbed of its table."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import ai.player
from ai.levels import PRESETS
from ai.perfect import PerfectPlayer, shared_player
from ai.player import choose_move, level_solver, shared_solver
from ai.solver import SolveLimit, Solver
from ai.tables import SIGN_TABLE_SLOTS, TABLE_SLOTS, TABLES, TableMemory
from game.app.worker_jobs import run_job
from game.app.worker_protocol import JobPurpose, JobResult, SearchJob
from game.board import Board
from game.notation import parse_moves
from game.rules import Rules

ROOT = Path(__file__).resolve().parent.parent
LINE = "44444666613625222346355722175775115717331"  # a game Perfect won against a perfect opponent


def _array(solver: Solver, sign_scale: bool = False) -> np.ndarray:
    array = solver.table(sign_scale).array
    assert array is not None
    return array


def test_every_solver_writes_the_same_memory_and_starts_empty():
    rules = Rules()
    moves = parse_moves(LINE, rules)[:20]
    first = Solver(rules)
    alone = first.solve_moves(moves)
    assert len(first.table()) > 0
    second = Solver(rules)
    assert len(second.table()) == 0  # a new solver sees none of the first one's entries...
    assert np.shares_memory(_array(first), _array(second))  # ...in the same pages, cleared
    assert second.solve_moves(moves) == alone  # the same nodes as the first on its fresh table
    again = first.solve_moves(moves)  # its memory served another solver: empty again
    assert again == alone
    allocated = TABLES.resident_bytes()
    for _ in range(4):
        Solver(rules).solve_moves(moves)
    # Allocated once, whatever the solvers: its three buffers at most.
    assert allocated == TABLES.resident_bytes() <= 8 * (TABLE_SLOTS + 2 * SIGN_TABLE_SLOTS)


def test_a_solver_keeps_its_entries_while_no_other_uses_the_memory():
    rules = Rules()
    moves = parse_moves(LINE, rules)
    cold = Solver(rules).solve_moves(moves[:22])
    kept = Solver(rules)
    kept.solve_moves(moves[:20])
    warm = kept.solve_moves(moves[:22])
    assert warm.score == cold.score and warm.nodes < cold.nodes


def test_a_levels_endgame_solve_leaves_perfects_tables_alone():
    """A level's own 6x7 solver (new at every move) takes the small buffer Perfect does not
    hold: Perfect's win/draw/loss table and its exact one keep their entries."""
    perfect = PerfectPlayer()
    for moves in ("44444", LINE[:20]):  # the 8-ply book's scale, then exact scores
        board = Board.from_moves(moves)
        perfect.choose(board.grid, board.rules, board.to_move, time_limit=None)
    before = len(perfect.solver.table(sign_scale=True)), len(perfect.solver.table())
    assert min(before) > 0
    board = Board.from_moves(LINE[:20])
    for _ in range(2):  # two moves, two level solvers
        level = level_solver(board.rules)
        level.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True))
        assert len(level.table()) > 0
        for table in (perfect.solver.table(), perfect.solver.table(sign_scale=True)):
            assert table.array is not None and not np.shares_memory(_array(level), table.array)
    assert (len(perfect.solver.table(sign_scale=True)), len(perfect.solver.table())) == before


def test_a_solver_in_a_call_is_never_robbed_by_another_thread():
    """The compiled search's stop request is asked from a watchdog thread: a solve made
    there (another board, whose keys would corrupt the first one's table) gets a table of
    its own while the first still searches, and both answers are exact."""
    rules, other = Rules(), Rules(rows=5, cols=6)
    moves = parse_moves("2242634744171", rules)  # 950,000 nodes: many looks at the stop request
    expected = Solver(rules, own_table=True).solve_moves(moves)
    outer = Solver(rules)
    seen: list[tuple[bool, int]] = []

    def stop_request() -> bool:
        if not seen:
            inner = Solver(other)
            score = inner.solve_moves(parse_moves("33443", other)).score
            seen.append((np.shares_memory(_array(inner), _array(outer)), score))
        return False

    found = outer.solve_moves(moves, limit=SolveLimit(should_stop=stop_request))
    assert seen, "the stop request was never asked: the test saw no second thread"
    shared, score = seen[0]
    assert not shared
    assert score == Solver(other, own_table=True).solve_moves(parse_moves("33443", other)).score
    assert (found.score, found.nodes) == (expected.score, expected.nodes)


def test_a_memory_lends_a_free_buffer_first_and_never_one_to_two_tables():
    memory = TableMemory(sizes=(101, 101, 1009))
    perfect, level, other = (Solver(Rules(), own_table=True) for _ in range(3))
    exact = memory.lend(perfect, 1009, 40, 42)
    sign = memory.lend(perfect, 101, 40, 42, beside=exact)
    assert exact.slots == 1009 and sign.slots == 101 and not np.shares_memory(exact.array, sign.array)
    mine = memory.lend(level, 101, 40, 42)  # the small buffer no one holds
    assert mine.current and sign.current and exact.current
    assert not np.shares_memory(mine.array, sign.array)
    level.busy = True  # in a call: never robbed
    taken = memory.lend(other, 101, 40, 42)  # both small ones held: the one lent longest ago, if free to take
    assert taken.current and not sign.current and mine.current
    small = memory.lend(other, 50, 40, 42, beside=taken)  # not its other table's: the big buffer
    assert small.current and not exact.current and taken.current
    other.busy = True
    robbed = memory.lend(perfect, 101, 40, 42)  # every buffer held by a solver in a call: its own
    assert robbed.current and mine.current and taken.current and small.current
    assert not any(np.shares_memory(robbed.array, table.array) for table in (mine, taken, small))


def test_a_levels_move_gives_its_table_back():
    """A level's own solver lives for one move; its table's pages go back when the move is
    made (nothing kept that no later move reads), and Perfect's tables stay."""
    board = Board.from_moves(LINE[:22])
    perfect = PerfectPlayer()
    perfect.choose(board.grid, board.rules, board.to_move, time_limit=None)
    kept = len(perfect.solver.table())
    made: list[Solver] = []

    def keep(rules: Rules) -> Solver:
        made.append(level_solver(rules))
        return made[-1]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ai.player, "level_solver", keep)
        answer = choose_move(PRESETS["Hard"], board.grid, board.rules, board.to_move)
    assert made and answer.exact is not None  # the level's solver proved the position
    assert not made[0]._tables  # given back
    assert len(perfect.solver.table()) == kept


def test_the_loaded_kernels_run_without_their_loaders_pages():
    """Once both kernels are loaded, the AI worker gives back the pages llvmlite's library
    was read into (about 46 MB of clean file pages): the kernels still answer."""
    code = (
        "from ai.compiled import search_kernel, solver_kernel\n"
        "from ai.compiled.kernel_file import forget_loader_pages\n"
        "from ai.search import search\nfrom ai.solver import Solver\n"
        "from game.board import Board\nfrom game.notation import parse_moves\nfrom game.rules import Rules\n"
        "assert solver_kernel.LOADER.prepare() and search_kernel.LOADER.prepare()\n"
        "given = forget_loader_pages()\n"
        "score = Solver(Rules()).solve_moves(parse_moves('4453444335343', Rules())).score\n"
        "board = Board.from_moves('4453')\n"
        "print(given, score, search(board.grid, board.rules, 9, to_move=board.to_move).move)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    given, score, move = done.stdout.split()
    assert score == "5" and move == "3"
    assert int(given) > (10 << 20) if sys.platform.startswith("linux") else int(given) == 0


def test_a_worker_job_on_another_board_gives_back_the_other_boards_tables():
    """The AI worker keeps only what the job's board can use: a 7x8 job gives back
    Perfect's 6x7 tables (up to 72 MB), which the worker carried through every 7x8 move of
    a long session (its peak: 211 MB); a 6x7 job gives back the 7x8 board's shared solver.
    Perfect's next 6x7 answer is the same from empty tables."""
    sent: list[object] = []

    def run(job_id: int, job: SearchJob) -> JobResult:
        run_job(job_id, job, sent.append, lambda: False)
        result = sent[-1]
        assert isinstance(result, JobResult) and result.answer.move is not None
        return result

    board = Board.from_moves(LINE[:13])
    hint = SearchJob(board.grid.copy(), Rules(), board.to_move, level=PRESETS["Perfect"], purpose=JobPurpose.HINT)
    first = run(1, replace(hint, record_tree=False))
    solver = shared_player().solver
    assert len(solver.table()) > 0
    big = Rules(rows=7, cols=8)
    run(2, SearchJob(Board(big).grid.copy(), big, 1, level=PRESETS["Hard"], record_tree=False))
    assert not solver._tables  # given back
    wide = shared_solver(big)
    wide.solve_grid(Board.from_moves("4" * 7 + "5" * 7 + "3" * 6 + "6" * 6 + "2" * 7, big).grid, 1)
    assert wide._tables
    again = run(3, replace(hint, record_tree=False))
    assert again.answer.move == first.answer.move
    assert not wide._tables
