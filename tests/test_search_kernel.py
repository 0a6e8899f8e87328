"""The compiled play search (``ai.compiled.search_kernel``) is ``ai.search``'s Python search, node for node.

Each test runs the same search twice, compiled and in Python (``CONNECT4_PURE_PYTHON=1``),
and asks for the same move, value, line, root values, depth and counts: on 6x7, 7x8 and
connect 5, for every preset's search, for depths 1-10 with and without pruning (and with
the transposition table on: its probes, hits, stores and cutoffs too), and on the
other rule sets the kernel takes.  The Python side runs on a few seeded positions so the
file stays quick; the trees the window shows come from the Python search of the answer's
own search (``ai.player.search_tree``), never from another one.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from ai import player
from ai.compiled import search_kernel
from ai.compiled.kernel_file import PURE_PYTHON_ENV
from ai.levels import PRESETS, PROBE_SHARE, level_played, solver_nodes_for
from ai.player import choose_move, level_solver, search_tree
from ai.search import CHECK_EVERY, MoveOrder, SearchResult, search
from ai.solver import Solver
from game.board import Board
from game.rules import STANDARD, Mode, Rules

ROOT = Path(__file__).resolve().parent.parent
BIG = Rules(rows=7, cols=8)
CONNECT5 = Rules(rows=7, cols=8, connect=5)
BOARDS = {"6x7": STANDARD, "7x8": BIG, "7x8-k5": CONNECT5}


@pytest.fixture(scope="module", autouse=True)
def compiled():
    """The compiled search, loaded (or built) for this process."""
    saved = os.environ.pop(PURE_PYTHON_ENV, None)
    try:
        assert search_kernel.LOADER.prepare(), search_kernel.LOADER.state
        yield
    finally:
        if saved is not None:
            os.environ[PURE_PYTHON_ENV] = saved


def position(rules: Rules, discs: int, seed: int) -> Board:
    """A seeded middle-game position: two random discs, then Medium's (compiled) moves
    (the next seed where that game ended before ``discs``)."""
    rng = random.Random(seed)
    board = Board(rules)
    for _ in range(2):
        board.push(rng.choice(board.legal_moves()))
    while board.ply < discs and not board.is_game_over():
        board.push(choose_move(PRESETS["Medium"], board.grid, rules, board.to_move, seed=seed).move)
    return position(rules, discs, seed + 1) if board.is_game_over() else board


def summary(result: SearchResult) -> tuple[object, ...]:
    stats = result.stats
    return (
        result.move,
        result.value,
        result.principal_variation,
        result.move_values,
        (stats.depth, stats.nodes, stats.leaves, stats.cutoffs, stats.total_nodes, stats.table),
        result.completed,
        result.proven,
    )


def both(monkeypatch: pytest.MonkeyPatch, board: Board, depth: int, **options: object) -> tuple[tuple, tuple]:
    """(compiled, Python) summaries of the same search of ``board``."""
    compiled = search(board.grid, board.rules, depth, to_move=board.to_move, **options)
    with monkeypatch.context() as patch:
        patch.setenv(PURE_PYTHON_ENV, "1")
        assert search_kernel.LOADER.kernel() is None
        python = search(board.grid, board.rules, depth, to_move=board.to_move, **options)
    return summary(compiled), summary(python)


def test_the_kernel_checks_the_budget_as_the_python_search_does():
    assert search_kernel.CHECK_EVERY == CHECK_EVERY


@pytest.mark.parametrize("name", BOARDS)
def test_every_depth_with_and_without_pruning_gives_the_same_search(monkeypatch, name):
    rules = BOARDS[name]
    board = position(rules, 9, seed=len(name))
    for depth in range(1, 11):
        for pruning in (True, False):
            # Past a few plies a node budget keeps the Python side quick (and checks it stops alike).
            small = depth <= (5 if pruning else 3)
            limit = None if small else 2_500
            compiled, python = both(monkeypatch, board, depth, pruning=pruning, node_limit=limit)
            assert compiled == python, (name, depth, pruning)


@pytest.mark.parametrize("name", BOARDS)
def test_every_presets_search_is_the_same(monkeypatch, name):
    rules = BOARDS[name]
    board = position(rules, 10, seed=1)
    for preset, level in PRESETS.items():
        level = level_played(level, rules)
        if level.perfect:  # the standard board's Perfect: the book and the solver, no search
            continue
        if level.node_budget and name != "6x7":
            level = replace(level, node_budget=40_000)  # Expert's 300,000 on 6x7 only: CI's time
        options = {"pruning": level.pruning, "node_limit": level.node_limit, "order": level.order}
        compiled, python = both(monkeypatch, board, level.depth, noise=level.noise, seed=3, **options)
        assert compiled == python, (name, preset)
        assert level.depth < 8 or compiled[4][4] > 5_000, (name, preset)  # a real search, not a forced line


@pytest.mark.parametrize(
    "rules",
    [
        Rules(rows=5, cols=6, connect=3),
        Rules(rows=6, cols=7, connect=6),
        Rules(mode=Mode.FULL_BOARD),
        Rules(rows=5, cols=6, gravity=False),
        Rules(rows=4, cols=5, connect=3, gravity=False, mode=Mode.FULL_BOARD),
        Rules(rows=8, cols=7),
    ],
    ids=lambda r: f"{r.rows}x{r.cols}-k{r.connect}{'' if r.gravity else '-free'}-{r.mode.name.lower()}",
)
def test_the_other_rule_sets_and_move_orders_give_the_same_search(monkeypatch, rules):
    board = position(rules, rules.cells // 3, seed=rules.cells)
    for order in MoveOrder:
        for pruning in (True, False):
            depth = 4 if pruning or rules.gravity else 2
            compiled, python = both(monkeypatch, board, depth, pruning=pruning, order=order, noise=25, seed=11)
            assert compiled == python, (order, pruning)


def test_a_level_plays_the_same_moves_compiled_and_in_python(monkeypatch):
    """The ladder's games cannot change: every move of a short game between two levels."""
    board = Board(BIG)
    levels = (PRESETS["Easy"], PRESETS["Medium"])
    while not board.is_game_over() and board.ply < 14:
        level = levels[board.ply % 2]
        played = choose_move(level, board.grid, board.rules, board.to_move, seed=board.ply)
        with monkeypatch.context() as patch:
            patch.setenv(PURE_PYTHON_ENV, "1")
            reference = choose_move(level, board.grid, board.rules, board.to_move, seed=board.ply)
        assert (played.move, played.value, played.nodes) == (reference.move, reference.value, reference.nodes)
        board.push(played.move)


def test_a_board_past_64_bits_searches_in_python():
    assert not search_kernel.usable(Rules(rows=8, cols=9)) and search_kernel.usable(BIG)
    board = position(Rules(rows=8, cols=9), 6, seed=1)
    result = search(board.grid, board.rules, 3, to_move=board.to_move)
    assert result.move in board.legal_moves()


def test_the_tree_shown_is_the_tree_of_the_move_played():
    board = position(STANDARD, 10, seed=1)
    level = PRESETS["Hard"]
    answer = choose_move(level, board.grid, board.rules, board.to_move)
    assert answer.result is not None and answer.result.tree is None  # compiled: no tree
    tree = search_tree(answer, board.grid, board.rules, board.to_move)
    assert tree is not None and tree.depth == answer.result.depth
    assert tree.root.value == answer.result.value
    assert tree.root.best_child().move == answer.result.move
    assert tree.counted == answer.result.stats.nodes + 1  # the root and the last pass's nodes
    # An answer the replay does not reproduce (here a doctored value) gets no tree at all.
    other = replace(answer, result=replace(answer.result, value=answer.result.value + 1))
    assert search_tree(other, board.grid, board.rules, board.to_move) is None


def test_the_worker_sends_the_answer_first_and_then_the_same_searchs_tree():
    from game.app.worker import AIWorker
    from game.app.worker_protocol import JobResult, SearchJob, TreeReady
    from tests.test_worker import Owner, pump

    board = position(STANDARD, 10, seed=5)
    worker = AIWorker(use_process=False)
    try:
        owner = Owner()
        worker.submit(SearchJob(board.grid.copy(), STANDARD, board.to_move, level=PRESETS["Hard"]), owner)
        pump(worker, lambda: worker.current is None and not worker.receiving)
        (answer,) = [e for e in owner.events if isinstance(e, JobResult)]
        (tree,) = [e.tree for e in owner.events if isinstance(e, TreeReady)]
        assert owner.events.index(answer) < len(owner.events) - 1  # the move did not wait for the tree
        result = answer.answer.result
        assert tree.root.value == result.value and tree.root.best_child().move == answer.answer.move
    finally:
        worker.shutdown()


def run_python(
    code: str, *, compiled: bool = True, cache: Path | None = None, timeout: float = 300
) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python: with the compiled kernels (or, not ``compiled``,
    with ``CONNECT4_PURE_PYTHON=1``), and ``cache`` as its cache folder where given."""
    env = {k: v for k, v in os.environ.items() if k != "CONNECT4_PURE_PYTHON"}
    if not compiled:
        env["CONNECT4_PURE_PYTHON"] = "1"
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_pure_python_searches_without_llvmlite_or_numba():
    code = (
        "import json, sys\nfrom ai.search import search\nfrom game.board import Board\n"
        "b = Board.from_moves('4453')\nr = search(b.grid, b.rules, 9, to_move=b.to_move)\n"
        "print(json.dumps([r.move, r.value, r.stats.total_nodes, sorted({'numba', 'llvmlite'} & set(sys.modules))]))\n"
    )
    proc = run_python(code, compiled=False, timeout=120)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr
    move, value, nodes, loaded = json.loads(proc.stdout)
    board = Board.from_moves("4453")
    compiled = search(board.grid, board.rules, 9, to_move=board.to_move)  # big enough to load the kernel
    assert (move, value, nodes) == (compiled.move, compiled.value, compiled.stats.total_nodes) and loaded == []


@pytest.mark.slow
def test_a_damaged_search_kernel_is_built_again_with_one_warning(tmp_path):
    """The kernel file's rules are the solver's (tests/test_kernel_cache.py): here the
    search's own file, garbage, is built again (numba: seconds) and the move is the same."""
    assert search_kernel.LOADER.kernel() is not None  # this process's file, built if need be
    built = search_kernel.LOADER.path
    path = tmp_path / built.relative_to(built.parents[2])  # connect4/<folder>/search-*.kernel
    path.parent.mkdir(parents=True)
    path.write_bytes(os.urandom(64))
    board = Board.from_moves("4453")
    here = search(board.grid, board.rules, 9, to_move=board.to_move)
    code = (
        "import json\nfrom ai.compiled import search_kernel\nfrom ai.search import search\n"
        "from game.board import Board\nb = Board.from_moves('4453')\n"
        "r = search(b.grid, b.rules, 9, to_move=b.to_move)\n"
        "print(json.dumps([r.move, r.value, search_kernel.LOADER.state, str(search_kernel.LOADER.path)]))\n"
    )
    again = run_python(code, cache=tmp_path)
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
    assert [line for line in again.stderr.splitlines() if line.strip()] == [again.stderr.strip()]  # one line
    assert "compiled it again" in again.stderr
    assert json.loads(again.stdout) == [here.move, here.value, "ready", str(path)]
    assert path.read_bytes().startswith(b"connect4 solver kernel")


@pytest.mark.parametrize("name", BOARDS)
def test_the_transposition_table_gives_the_same_search(monkeypatch, name):
    """With the table on, the same move, value, line, root values, counts and the table's
    probes, hits, stores and cutoffs, at every depth with and without pruning, and for
    every move order."""
    rules = BOARDS[name]
    board = position(rules, 9, seed=len(name))
    hits = 0
    for depth in range(1, 11):
        for pruning in (True, False):
            small = depth <= (6 if pruning else 4)
            limit = None if small else 2_500
            compiled, python = both(monkeypatch, board, depth, pruning=pruning, node_limit=limit, table=True)
            assert compiled == python, (name, depth, pruning)
            hits += compiled[4][5].hits
    for order in MoveOrder:
        compiled, python = both(monkeypatch, board, 6, order=order, noise=25, seed=3, table=True)
        assert compiled == python, (name, order)
    assert hits > 0


def test_a_search_past_the_table_limit_empties_the_table_at_the_same_node(monkeypatch):
    """The best-move table starts again past ``TABLE_LIMIT`` positions, at the same check
    in both searches (here a small limit, so it happens often)."""
    monkeypatch.setattr(sys.modules["ai.search"], "TABLE_LIMIT", 3_000)
    board = position(BIG, 6, seed=2)
    compiled, python = both(monkeypatch, board, 9, node_limit=60_000)
    assert compiled == python
    # The transposition table too (it holds no more positions than the best-move table).
    with_table = both(monkeypatch, board, 9, node_limit=60_000, table=True)
    assert with_table[0] == with_table[1]
    monkeypatch.undo()
    assert both(monkeypatch, board, 9, node_limit=60_000)[0] != compiled  # the limit changed the search


def test_the_kernel_hashes_a_noisy_levels_positions_as_python_does():
    """The blur is ``hash((seed, first, second))``: CPython's tuple hash, rebuilt in int64."""
    rng = random.Random(4)
    for _ in range(200):
        seed = rng.getrandbits(64) - (1 << 63)
        first, second = rng.getrandbits(62), rng.getrandbits(62)
        lane = hash(seed)
        expected = hash((seed, first, second))
        with np.errstate(over="ignore"):  # int64 wraps, as the compiled code's does
            got = search_kernel.tuple_hash(np.int64(lane), np.int64(first), np.int64(second))
        assert int(got) == expected


def test_perfect_off_the_standard_board_probes_the_solver_before_its_reach(monkeypatch):
    """On 7x8 early, a whole solver budget ran out before Expert's move was played: now a
    probe of a 32nd, and the whole budget only within Expert's endgame (where it finishes)."""
    made: list[Solver] = []

    def kept_level_solver(rules: Rules) -> Solver:
        made.append(level_solver(rules))
        return made[-1]

    monkeypatch.setattr(player, "level_solver", kept_level_solver)
    board = position(BIG, 4, seed=3)
    answer = choose_move(PRESETS["Perfect"], board.grid, BIG, board.to_move)
    assert answer.result is not None and answer.exact is None  # Expert's search played
    assert len(made) == 1
    spent = made[0].nodes  # the move's solver's last call: the probe, which ran out
    assert 0 < spent <= solver_nodes_for(answer.level, BIG, BIG.cells - board.ply) + 1
    assert solver_nodes_for(answer.level, BIG, BIG.cells - board.ply) == answer.level.solver_nodes // PROBE_SHARE
    expert = PRESETS["Expert"]
    assert solver_nodes_for(expert, BIG, expert.endgame_cells_on(BIG)) == expert.solver_nodes  # Expert unchanged
    small = Rules(rows=4, cols=5)  # every position within reach: exact from the first move
    empty = Board(small)
    assert choose_move(PRESETS["Perfect"], empty.grid, small, empty.to_move).exact is not None


def test_a_small_search_leaves_the_kernel_unloaded_and_a_big_one_loads_it():
    """Below ``SMALL_SEARCH`` positions the Python passes finish before the kernel file would
    have loaded (analyze on a book position stays free of llvmlite); a bigger search loads it."""
    code = (
        "import json, sys\nfrom ai.search import search\nfrom game.board import Board\n"
        "b = Board.from_moves('4453')\nsearch(b.grid, b.rules, 5, to_move=b.to_move)\n"
        "small = 'llvmlite' in sys.modules\nsearch(b.grid, b.rules, 9, to_move=b.to_move)\n"
        "print(json.dumps([small, 'llvmlite' in sys.modules, 'numba' in sys.modules]))\n"
    )
    proc = run_python(code)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [False, True, False]  # the kernel file (built by the fixture), no numba


def test_a_stopped_pass_is_waited_for_through_more_ctrl_c():
    """A second Ctrl+C while a stopped pass winds down must not let its arrays go while the
    kernel still writes them (it crashed the process once): the wait outlasts interrupts."""
    import _thread
    import signal
    import threading

    finished = threading.Event()
    running = threading.Thread(target=lambda: (time.sleep(0.6), finished.set()), daemon=True)

    def press_twice() -> None:
        time.sleep(0.1)
        _thread.interrupt_main()
        time.sleep(0.2)
        _thread.interrupt_main()

    handler = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        running.start()
        threading.Thread(target=press_twice, daemon=True).start()
        search_kernel._join_through_interrupts(running)
        assert finished.is_set() and not running.is_alive()
    finally:
        signal.signal(signal.SIGINT, handler)
