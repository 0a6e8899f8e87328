"""Speed of the search, the tree recorder and the solver: ``python -m lab.bench``.

Prints tables; asserts nothing.  First the play search compiled against the Python one
on the same positions (their node counts checked equal), every preset's moves in the
AI worker process on 6x7 and 7x8, and ``analyze --level expert`` as a whole process.
Then the Python search and its tree recorder on the empty 6x7 board and three mid-game
positions (the first 12 moves of the first three lines of ``Test_L2_R1``).  Each time is
the median of several runs.  ``--quick`` skips the full ``Test_L2_R1`` solver run.
Then exact scores of seeded early positions (0..14 discs): what ``solve`` costs there.
Then Perfect's first move past the book in the balanced lines (its hardest proofs), the
compiled solver against the pure-Python one on the same positions, Perfect's per-move
times in whole games, and ``analyze --level perfect`` as a new process.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ai.book import book
from ai.compiled import search_kernel, solver_kernel
from ai.compiled.kernel_file import PURE_PYTHON_ENV
from ai.levels import PRESETS
from ai.perfect import PerfectPlayer
from ai.player import choose_move
from ai.search import search
from ai.solver import SolveLimit, Solver, compact_table_slots
from ai.tables import SIGN_TABLE_SLOTS, TABLE_SLOTS, TableMemory
from ai.tree import DEFAULT_BUDGET, minimal_tree
from game.app.worker import AIWorker
from game.app.worker_protocol import JobResult, SearchJob, TreeReady
from game.board import Board
from game.notation import parse_moves
from game.rules import STANDARD, Rules

T = TypeVar("T")

DATA = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions"
MID_GAME_PREFIX = 12


def machine() -> str:
    """One line naming the CPU and Python, for quoting next to the figures."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import os

    return f"{cpu}, {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}"


def positions(data: Path = DATA) -> list[tuple[str, Board]]:
    """The benchmark positions: the empty board and three mid-game ones."""
    result = [("empty", Board())]
    source = data / "Test_L2_R1"
    lines = source.read_text().split("\n")[:3] if source.exists() else []
    fallback = ["444444535353", "343434252526", "445566332211"]
    for index in range(3):
        moves = lines[index].split()[0][:MID_GAME_PREFIX] if lines else fallback[index]
        result.append((moves, Board.from_moves(moves)))
    return result


def timed(function: Callable[[], T], repeat: int) -> tuple[float, T]:
    """Run ``function`` ``repeat`` times (at least once); return (median seconds, last result)."""
    times = []
    for _ in range(max(1, repeat)):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def timed_cpu(function: Callable[[], T], repeat: int) -> tuple[float, float, T]:
    """Like ``timed``, with the process's CPU seconds too: (median wall, median CPU, last
    result).  Where other work shares the cores, the CPU time is the fairer figure."""
    walls, cpus = [], []
    for _ in range(max(1, repeat)):
        started, cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu)
    return statistics.median(walls), statistics.median(cpus), result


def table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]
    lines = ["  ".join(h.rjust(w) for h, w in zip(headers, widths))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in rows]
    return "\n".join(lines)


def bench_search(repeat: int) -> None:
    print("\n## The Python search (6x7, classic): time is the whole call, iterative deepening included")
    rows = []
    for name, board in positions():
        for depth, pruning in ((6, False), (6, True), (8, True), (10, True)):
            seconds, result = timed(
                lambda: _python_search(
                    lambda: search(board.grid, board.rules, depth, pruning=pruning, to_move=board.to_move)
                ),
                repeat,
            )
            stats = result.stats
            minimal_nodes, minimal_leaves = minimal_tree(depth)
            rows.append(
                [
                    name,
                    str(depth),
                    "on" if pruning else "off",
                    f"{seconds * 1000:.1f}",
                    f"{stats.nodes:,}",
                    f"{stats.total_nodes:,}",
                    f"{stats.total_nodes / seconds:,.0f}",
                    f"{stats.nodes / minimal_nodes:.2f}" if pruning else "-",
                    f"{stats.leaves / minimal_leaves:.2f}" if pruning else "-",
                    str(result.move + 1 if result.move is not None else "-"),
                ]
            )
    print(
        table(
            ["position", "depth", "a-b", "ms", "nodes", "all passes", "nodes/s", "nodes/KM", "leaves/KM", "move"],
            rows,
        )
    )
    print(
        "KM = Knuth-Moore minimal tree for b = 7: nodes below the root "
        + ", ".join(f"d{d}: {minimal_tree(d)[0]:,}" for d in (6, 8, 10))
        + "; leaves "
        + ", ".join(f"d{d}: {minimal_tree(d)[1]:,}" for d in (6, 8, 10))
    )


def play_positions() -> list[tuple[str, Board]]:
    """Where the play search is timed: the search table's 6x7 positions, then 7x8 and 7x8
    connect 5 after 8 and 14 discs of a seeded game (two random discs, then Medium)."""
    import random

    found = positions()
    for name, rules in (("7x8", Rules(rows=7, cols=8)), ("7x8 k5", Rules(rows=7, cols=8, connect=5))):
        rng = random.Random(8)
        board = Board(rules)
        for _ in range(2):
            board.push(rng.choice(board.legal_moves()))
        while board.ply < 14:
            board.push(choose_move(PRESETS["Medium"], board.grid, rules, board.to_move).move or 0)
            if board.ply in (8, 14):
                found.append((f"{name} {board.moves_string()}", board.copy()))
    return found


def _python_search(call: Callable[[], T]) -> T:
    """``call`` with the compiled search switched off (``CONNECT4_PURE_PYTHON``)."""
    import os

    saved = os.environ.get(PURE_PYTHON_ENV)
    os.environ[PURE_PYTHON_ENV] = "1"
    try:
        return call()
    finally:
        if saved is None:
            del os.environ[PURE_PYTHON_ENV]
        else:
            os.environ[PURE_PYTHON_ENV] = saved


def bench_play(repeat: int) -> None:
    """The play search compiled (``ai.compiled.search_kernel``) and in Python (``ai.search``)
    on the same positions in one run: the same nodes (checked), the speed of each."""
    print("\n## Play search: compiled against Python on the same positions (same nodes, checked)")
    if not search_kernel.LOADER.prepare():
        print(f"compiled search unavailable ({search_kernel.LOADER.state}): nothing to compare")
        return
    rows, ratios, speeds = [], [], []
    for name, board in play_positions():
        settings = [(8, True, None), (12, True, 300_000)] + ([(6, False, None)] if board.rules == STANDARD else [])
        for depth, pruning, limit in settings:

            def run() -> Any:
                return search(board.grid, board.rules, depth, pruning=pruning, node_limit=limit, to_move=board.to_move)

            compiled_wall, compiled_s, compiled = timed_cpu(run, repeat)
            python_wall, python_s, python = timed_cpu(lambda: _python_search(run), 1)
            same = (compiled.move, compiled.value, compiled.stats.total_nodes) == (
                python.move,
                python.value,
                python.stats.total_nodes,
            )
            nodes = compiled.stats.total_nodes
            ratios.append(python_s / compiled_s)
            speeds.append(nodes / compiled_s)
            rows.append(
                [
                    name,
                    f"{compiled.stats.depth}" + ("" if limit is None else f" ({limit // 1000}k)"),
                    "on" if pruning else "off",
                    f"{nodes:,}",
                    f"{compiled_s * 1000:.1f}",
                    f"{compiled_wall * 1000:.1f}",
                    f"{nodes / compiled_s:,.0f}",
                    f"{python_s * 1000:.0f}",
                    f"{nodes / python_s:,.0f}",
                    f"{ratios[-1]:.0f}",
                    "yes" if same else "NO",
                ]
            )
    headers = ["position", "depth", "a-b", "nodes", "compiled cpu ms", "wall ms", "nodes/s", "python cpu ms"]
    print(table([*headers, "nodes/s", "x", "same"], rows))
    print(
        "Times are CPU seconds of the process (the search's thread and the one watching it), "
        "the median of the runs; wall: the same runs by the clock."
    )
    print(
        f"Compiled: median {statistics.median(speeds):,.0f} nodes/s; "
        f"{statistics.median(ratios):.0f}x the Python search (median; min {min(ratios):.0f}x)"
    )


def bench_presets_in_worker(games: int, slowest: int = 12) -> None:
    """Every preset's moves as the window gets them: a ``SearchJob`` to the AI worker
    process (a tree asked for, as the play screen asks), each move's CPU in the worker (all
    its threads, from the job taken to the answer sent: ``JobResult.cpu_seconds``) and its
    wall time from the job sent to the answer; the next move waits until the tree has
    arrived too (a person's thinking time).  Each preset plays itself from ``games`` seeded
    openings, on 6x7 and 7x8.  Then the ``slowest`` moves by CPU, named by position."""
    import random

    print("\n## Every preset's moves in the AI worker process (CPU in the worker; wall: job sent to answer)")
    worker = AIWorker(use_process=True)
    rows = []
    moves_seen: list[tuple[float, float, str, str, str, int, str]] = []  # cpu, wall, board, preset, moves, nodes, by
    try:
        # The worker's start and its kernel files' loading are not a move's: one job first.
        warm = Board.from_moves("4453443352")
        worker.submit(
            SearchJob(warm.grid.copy(), STANDARD, warm.to_move, level=PRESETS["Hard"], record_tree=False), None
        )
        while worker.current is not None:
            worker.poll()
            time.sleep(0.01)
        time.sleep(1.0)  # the kernels load in the worker's background (files ``main`` made): a moment
        for board_name, rules in (("6x7", STANDARD), ("7x8", Rules(rows=7, cols=8))):
            for preset, level in PRESETS.items():
                cpus: list[float] = []
                walls: list[float] = []
                trees: list[float] = []
                for game in range(games):
                    rng = random.Random(100 + game)
                    board = Board(rules)
                    board.push(rng.choice(board.legal_moves()))
                    while not board.is_game_over():
                        worker.submit(SearchJob(board.grid.copy(), rules, board.to_move, level=level), None)
                        started = time.perf_counter()
                        answered = tree = None
                        while answered is None or (worker.receiving and tree is None):
                            for _, event in worker.poll():
                                now = time.perf_counter() - started
                                if isinstance(event, JobResult):
                                    answered = (now, event)
                                elif isinstance(event, TreeReady):
                                    tree = now
                            time.sleep(0.001)
                        wall, result = answered
                        cpus.append(result.cpu_seconds)
                        walls.append(wall)
                        answer = result.answer
                        moves_seen.append(
                            (
                                result.cpu_seconds,
                                wall,
                                board_name,
                                preset,
                                board.moves_string() or "-",
                                answer.nodes,
                                answer.decided_by.value,
                            )
                        )
                        if tree is not None:
                            trees.append(tree)
                        assert answer.move is not None
                        board.push(answer.move)
                worst = max(m for m in moves_seen if m[2] == board_name and m[3] == preset)
                rows.append(
                    [
                        board_name,
                        preset,
                        str(len(cpus)),
                        f"{statistics.median(cpus):.3f}",
                        f"{max(cpus):.3f}",
                        f"{statistics.median(walls):.3f}",
                        f"{max(walls):.3f}",
                        f"{statistics.median(trees):.2f}" if trees else "-",
                        f"{len(worst[4]) if worst[4] != '-' else 0} discs, {worst[6]}",
                    ]
                )
                print("  " + "  ".join(rows[-1]), flush=True)
    finally:
        worker.shutdown()
    headers = ["board", "preset", "moves", "cpu median s", "cpu max s", "wall median s", "wall max s", "tree median s"]
    print(table([*headers, "slowest move (cpu)"], rows))
    print(f"\nThe {slowest} slowest moves by CPU in the worker:")
    ranked = sorted(moves_seen, reverse=True)[:slowest]
    print(
        table(
            ["board", "preset", "position (moves)", "cpu s", "wall s", "nodes", "decided by"],
            [[b, p, m, f"{c:.3f}", f"{w:.3f}", f"{n:,}", d] for c, w, b, p, m, n, d in ranked],
        )
    )
    over = sum(1 for move in moves_seen if move[0] > 0.2)
    print(f"{len(moves_seen)} moves; {over} over 0.2 s of CPU")


def bench_tree(repeat: int) -> None:
    print("\n## Tree recording (depth 8 with pruning, and depth 6 without)")
    rows = []
    for name, board in positions():
        for depth, pruning in ((8, True), (6, False)):
            plain, _ = timed(  # the Python search, as the recording one
                lambda: _python_search(
                    lambda: search(board.grid, board.rules, depth, pruning=pruning, to_move=board.to_move)
                ),
                repeat,
            )
            recorded, result = timed(
                lambda: search(
                    board.grid, board.rules, depth, pruning=pruning, to_move=board.to_move, record_tree=True
                ),
                repeat,
            )
            tree = result.tree
            assert tree is not None  # recorded
            rows.append(
                [
                    name,
                    str(depth),
                    "on" if pruning else "off",
                    f"{plain * 1000:.1f}",
                    f"{recorded * 1000:.1f}",
                    f"{recorded / plain:.2f}",
                    f"{len(tree):,}",
                    f"{tree.nbytes() / len(tree):.0f}",
                ]
            )
    print(table(["position", "depth", "a-b", "plain ms", "recorded ms", "ratio", "nodes", "bytes/node"], rows))

    print(f"Default recording budget: {DEFAULT_BUDGET:,} nodes")


def bench_solver(full: bool) -> None:
    print("\n## Exact solver")
    rows = []
    solver = Solver(STANDARD)
    for name, limit in (("Test_L3_R1", None), ("Test_L2_R1", None if full else 200)):
        path = DATA / name
        if not path.exists():
            print(f"{path} not found: skipped")
            continue
        lines = [line.split() for line in path.read_text().split("\n") if line.strip()]
        lines = lines[:limit] if limit else lines
        correct = 0
        nodes = 0
        times = []
        for moves, expected in lines:
            started = time.perf_counter()
            solution = solver.solve_moves(parse_moves(moves, STANDARD))
            times.append(time.perf_counter() - started)
            nodes += solution.nodes
            correct += solution.score == int(expected)
        rows.append(
            [
                name,
                f"{len(lines)}",
                f"{correct}",
                f"{statistics.mean(times) * 1000:.2f}",
                f"{max(times) * 1000:.1f}",
                f"{nodes / len(lines):,.0f}",
            ]
        )
    print(table(["file", "positions", "correct", "mean ms", "max ms", "mean nodes"], rows))


TABLE_SIZES = (8_388_617, 4_194_319, 2_097_169, 1_048_583, 524_309, 262_147)
"""Slots of the tables ``bench_table`` compares (primes; the first is ``ai.tables.TABLE_SLOTS``,
the fourth ``SIGN_TABLE_SLOTS``, the compact table of ``ai.solver.compact_table_slots``)."""


def bench_table(repeat: int) -> None:
    """The solver's speed by the size of its transposition table: seeded positions past the
    book solved one after another on one solver (as ``solve`` does), its table touched first
    (no first-touch cost in the figures), the best of ``repeat`` runs: CPU, nodes, nodes/s;
    then what clearing a table of each of the process's sizes costs."""
    import random

    print("\n## The transposition table's size (positions solved one after another on one solver)")
    groups: list[tuple[str, list[Board]]] = []
    for plies, count, seed in ((13, 64, 48), (16, 64, 49), (22, 200, 50)):
        rng = random.Random(seed)
        boards: list[Board] = []
        while len(boards) < count:
            board = Board()
            board.push_random(rng, plies)
            if not board.is_game_over() and board.ply == plies:
                boards.append(board)
        groups.append((f"{count} x {plies} discs", boards))
    solver_kernel.LOADER.prepare()
    rows = []
    for slots in TABLE_SIZES:
        for name, boards in groups:
            best, nodes = float("inf"), 0
            for _ in range(max(1, repeat)):
                solver = Solver(STANDARD, table_slots=slots, own_table=True)
                words = solver.table().array
                assert words is not None
                words[:] = 0  # its pages taken before the clock runs
                started, nodes = time.process_time(), 0
                for board in boards:
                    nodes += solver.solve_grid(board.grid, board.to_move).nodes
                best = min(best, time.process_time() - started)
            megabytes = slots * 8 / (1 << 20)
            rows.append(
                [f"{slots:,}", f"{megabytes:.0f}", name, f"{best * 1000:.0f}", f"{nodes:,}", f"{nodes / best:,.0f}"]
            )
    print(table(["slots", "MB", "positions", "cpu ms", "nodes", "nodes/s"], rows))
    print(f"solve's table on 6x7 (compact_table_slots): {compact_table_slots(STANDARD):,} slots")
    print("\nClearing a buffer of the process's table memory as it changes hands (its pages written first):")
    memory = TableMemory()
    for slots in (SIGN_TABLE_SLOTS, TABLE_SLOTS):
        holders = [Solver(STANDARD, own_table=True) for _ in range(2)]
        for turn in range(max(1, repeat)):
            lent = memory.lend(holders[turn % 2], slots, 50, 42)
            assert lent.array is not None
            lent.array[::512] = 1  # a word on every page
            lent.written()
            started = time.process_time()
            again = memory.lend(holders[(turn + 1) % 2], slots, 50, 42)
            cleared = time.process_time() - started
            assert again.array is not None
            started = time.process_time()
            again.array[::512] = 1
            touched = time.process_time() - started
            print(
                f"  {slots * 8 >> 20} MB: cleared in {cleared * 1000:.2f} ms; every page written again in "
                f"{touched * 1000:.1f} ms"
            )


def early_positions(per_ply: int, seed: int = 20261122) -> list[Board]:
    """Seeded random positions of 0..14 discs (no finished game), ``per_ply`` of each."""
    import random

    rng = random.Random(seed)
    boards = [Board()]
    for plies in range(1, 15):
        found = 0
        while found < per_ply:
            board = Board()
            board.push_random(rng, plies)
            if not board.is_game_over():
                boards.append(board)
                found += 1
    return boards


def bench_early(per_ply: int) -> None:
    """`solve` from the empty board on: exact scores of early positions, per disc count.

    Checked: 12-disc positions against the 12-ply book; every position's exact score
    against its weak (win/draw/loss) solve.  One solver for all, as ``solve`` uses.
    """

    print("\n## Exact scores of early positions (book + search down to it up to 12 discs, solver after)")
    solver = Solver(STANDARD)
    rows = []
    all_times = []
    by_ply: dict[int, list[tuple[float, bool]]] = {}
    for board in early_positions(per_ply):
        started = time.perf_counter()
        score = solver.solve_grid(board.grid, board.to_move).score
        seconds = time.perf_counter() - started
        weak = solver.solve_grid(board.grid, board.to_move, limit=SolveLimit(weak=True)).score
        correct = weak == (score > 0) - (score < 0)
        if board.ply == 12:
            first, second = solver.geo.from_grid(board.grid)
            known = book().score(first, second)
            correct = correct and (known is None or known == score)
        by_ply.setdefault(board.ply, []).append((seconds, correct))
        all_times.append(seconds)
    for ply, results in sorted(by_ply.items()):
        times = [t for t, _ in results]
        rows.append(
            [
                str(ply),
                str(len(results)),
                str(sum(ok for _, ok in results)),
                f"{statistics.mean(times) * 1000:.0f}",
                f"{max(times) * 1000:.0f}",
            ]
        )
    print(table(["discs", "positions", "correct", "mean ms", "max ms"], rows))
    print(f"All {len(all_times)} positions: mean {statistics.mean(all_times) * 1000:.0f} ms")


def perfect_lines(discs: int = 12) -> list[str]:
    """Positions of ``discs`` discs (even) that Perfect, moving first, meets against an
    opponent that always plays one of its slowest losses: the balanced lines, where the
    first proof past the book is hardest.  Found through the books (well under a second)."""

    perfect, opponent = PerfectPlayer(), PerfectPlayer()
    found: set[str] = set()

    def walk(board: Board) -> None:
        if board.is_game_over():
            return
        if board.ply == discs:
            found.add(board.moves_string())
            return
        if board.ply % 2 == 0:
            followers = [perfect.choose(board.grid, board.rules, board.to_move, time_limit=None).move]
        else:
            scores = opponent.column_scores(board.grid, board.to_move)
            followers = sorted(col for col, score in scores.items() if score == max(scores.values()))
        for col in followers:
            board.push(col)
            walk(board)
            board.pop()

    walk(Board())
    return sorted(found)


def bench_perfect(count: int | None) -> None:
    """Perfect's first move past the book in the balanced lines: a new player each time
    (nothing learned before), only the value-keeping search (no quickest-win polish)."""

    print("\n## Perfect's first move past the book (12 discs, balanced lines, a new player each)")
    lines = perfect_lines()
    lines = lines[:count] if count else lines
    times, nodes = [], []
    for moves in lines:
        board = Board.from_moves(moves)
        started = time.perf_counter()
        choice = PerfectPlayer().choose(board.grid, board.rules, board.to_move, time_limit=0.0)
        times.append(time.perf_counter() - started)
        nodes.append(choice.nodes)
    row = [
        str(len(lines)),
        f"{statistics.median(times):.2f}",
        f"{max(times):.2f}",
        str(sum(t > 1 for t in times)),
        f"{statistics.mean(nodes):,.0f}",
        f"{sum(nodes) / sum(times):,.0f}",
    ]
    print(table(["positions", "median s", "max s", "over 1 s", "mean nodes", "nodes/s"], [row]))


class _Opponent(Protocol):
    """A player Perfect's games are timed against."""

    name: str

    def move(self, board: Board) -> int: ...


class _EqualMovesAtRandom:
    """The exact solver as an opponent: a seeded random move among the best exact scores."""

    def __init__(self, seed: int):
        import random

        self.name = f"solver (seed {seed})"
        self.rng = random.Random(seed)
        self.player = PerfectPlayer()

    def move(self, board: Board) -> int:
        scores = self.player.column_scores(board.grid, board.to_move)
        best = max(scores.values())
        return self.rng.choice(sorted(col for col, value in scores.items() if value == best))


class _Preset:
    def __init__(self, name: str, seed: int):

        self.name = name
        self.level = PRESETS[name]
        self.seed = seed

    def move(self, board: Board) -> int:

        choice = choose_move(self.level, board.grid, board.rules, board.to_move, seed=self.seed + board.ply)
        assert choice.move is not None
        return choice.move


def perfect_game_times(opponents: Sequence[_Opponent], log: Callable[[str], object] = print) -> dict[int, list[float]]:
    """Perfect (the preset, pondering off, a new player per game) from the empty board,
    first and then second, against each opponent: its seconds per move by disc count."""

    by_discs: dict[int, list[float]] = {}
    for opponent in opponents:
        for perfect_first in (True, False):
            board, player = Board(), PerfectPlayer()
            worst = 0.0
            while not board.is_game_over():
                if (board.ply % 2 == 0) == perfect_first:
                    started = time.perf_counter()
                    choice = choose_move(
                        PRESETS["Perfect"], board.grid, board.rules, board.to_move, perfect_player=player
                    )
                    seconds = time.perf_counter() - started
                    by_discs.setdefault(board.ply, []).append(seconds)
                    worst = max(worst, seconds)
                    assert choice.move is not None
                    board.push(choice.move)
                else:
                    board.push(opponent.move(board))
            outcome = board.outcome()
            winner = None if outcome is None or outcome.winner is None else outcome.winner
            perfect_side = 1 if perfect_first else -1
            result = "drew" if winner is None else ("won" if int(winner) == perfect_side else "LOST")
            log(
                f"  Perfect {'first' if perfect_first else 'second'} vs {opponent.name}: {result} "
                f"in {board.ply} plies, slowest move {worst:.2f} s"
            )
    return by_discs


def bench_perfect_games(presets: list[str], solver_games: int) -> None:
    """Perfect's per-move times in whole games (the issue's target: every move at most
    1.0 s, median at most 0.2 s at 12-14 discs)."""
    print("\n## Perfect's moves in games from the empty board (pondering off, first and second)")
    opponents: list[_Opponent] = [_Preset(name, 7) for name in presets]
    opponents += [_EqualMovesAtRandom(20261124 + i) for i in range(solver_games)]
    by_discs = perfect_game_times(opponents)
    rows = []
    for discs, times in sorted(by_discs.items()):
        rows.append([str(discs), str(len(times)), f"{statistics.median(times):.3f}", f"{max(times):.3f}"])
    print(table(["discs", "moves", "median s", "max s"], rows))
    every = [t for times in by_discs.values() for t in times]
    middle = [t for discs in (12, 13, 14) for t in by_discs.get(discs, [])]
    print(
        f"All {len(every)} moves: median {statistics.median(every):.3f} s, max {max(every):.2f} s, "
        f"{sum(t > 1 for t in every)} over 1 s; at 12-14 discs: median "
        f"{statistics.median(middle) if middle else float('nan'):.3f} s, max {max(middle, default=0.0):.2f} s"
    )


def bench_compiled_ratio(python_count: int) -> None:
    """The compiled search against the pure-Python one on the same balanced 12-disc
    positions (Perfect's first proof past the book): the same nodes, the time ratio."""

    print("\n## Compiled / pure-Python solver on the same positions (Perfect's first move past the book)")
    if not solver_kernel.LOADER.prepare():
        print(f"compiled solver unavailable: {solver_kernel.LOADER.status()}")
        return
    lines = perfect_lines()
    warm = Board.from_moves(lines[-1])  # the process's first table costs its huge pages: not timed
    PerfectPlayer().choose(warm.grid, warm.rules, warm.to_move, time_limit=0.0)
    rows = []
    compiled_times, ratios = [], []
    for index, moves in enumerate(lines):
        board = Board.from_moves(moves)
        timings = []
        for pure in (False, True) if index < python_count else (False,):
            player = PerfectPlayer()
            player.solver = Solver(STANDARD, pure_python=pure)
            started = time.perf_counter()
            choice = player.choose(board.grid, board.rules, board.to_move, time_limit=0.0)
            timings.append((time.perf_counter() - started, choice.nodes))
        compiled_times.append(timings[0][0])
        if len(timings) == 2:
            assert timings[0][1] == timings[1][1], f"{moves}: the two paths visited different nodes"
            ratios.append(timings[1][0] / timings[0][0])
            rows.append(
                [moves, f"{timings[0][1]:,}", f"{timings[0][0]:.3f}", f"{timings[1][0]:.2f}", f"{ratios[-1]:.1f}"]
            )
    print(table(["position", "nodes (both)", "compiled s", "python s", "ratio"], rows))
    print(
        f"Compiled on all {len(lines)}: median {statistics.median(compiled_times):.3f} s, "
        f"max {max(compiled_times):.2f} s, {sum(t > 1 for t in compiled_times)} over 1 s; "
        f"ratio median {statistics.median(ratios):.1f}x on {len(ratios)}"
    )


def _analyze(moves: str, level: str) -> Any:
    """``python main.py analyze MOVES --level LEVEL`` in a new process."""
    import subprocess

    main_py = Path(__file__).resolve().parents[1] / "main.py"
    command = [sys.executable, str(main_py), "analyze", moves, "--level", level]
    return subprocess.run(command, capture_output=True, text=True, check=False)


def _analyze_table(title: str, chosen: list[str], level: str, repeat: int, expect: str) -> None:
    """Time ``analyze`` of each position (the median of ``repeat`` runs) and print a table."""
    rows, walls, cpus = [], [], []
    for moves in chosen:
        times = []
        for _ in range(max(1, repeat)):
            before = _children_cpu()
            started = time.perf_counter()
            done = _analyze(moves, level)
            times.append((time.perf_counter() - started, _children_cpu() - before))
        wall, cpu = sorted(times)[len(times) // 2]
        walls.append(wall)
        cpus.append(cpu)
        ok = "ok" if done.returncode == 0 and expect in done.stdout else "FAILED"
        if ok != "ok":
            said = (done.stderr.strip().splitlines() or ["(nothing on stderr)"])[-1]
            print(f"  {moves}: exit code {done.returncode}: {said}", flush=True)
        rows.append([moves, str(len(moves)), f"{wall:.2f}", f"{cpu:.2f}" if cpu >= 0 else "-", ok])
    print(f"\n### {title}")
    print(table(["moves", "discs", "wall s", "cpu s", "result"], rows))
    print(
        f"{len(walls)} positions: wall median {statistics.median(walls):.2f} s, max {max(walls):.2f} s; "
        f"cpu median {statistics.median(cpus):.2f} s, max {max(cpus):.2f} s "
        "(cpu is the work where the machine is loaded)"
    )


def bench_analyze_process(count: int, repeat: int = 1) -> None:
    """``python main.py analyze MOVES --level perfect`` in a new process each time (the
    compiled solver's kernel file warm): what a user waits for, on positions the opening
    book answers (4, 8 and 11 discs of the balanced lines) and, apart, on positions past
    it (12 and 13 discs), where the compiled solver is loaded."""
    import random
    import subprocess

    lines = perfect_lines()[:count]
    rng = random.Random(13)
    past = []
    for moves in lines:
        board = Board.from_moves(moves)
        past.append(moves)
        board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            past.append(board.moves_string())
    in_book = list(dict.fromkeys(moves[:discs] for moves in lines for discs in (4, 8, 11)))[: len(past)]
    _analyze(past[0], "perfect")  # the kernel file made (or loaded) once, before the clock runs
    probe = (
        "import sys; from game.cli.main import main; main(['analyze', '4453', '--level', 'perfect']); "
        "print('numba' in sys.modules, 'llvmlite' in sys.modules, file=sys.stderr)"
    )
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    print("\n## analyze MOVES --level perfect, a new process each (the compiled solver's file warm)")
    print(f"numba, llvmlite loaded for a position the book answers (4453): {loaded.stderr.strip() or '?'}")
    for title, chosen in (("answered by the book (4, 8, 11 discs)", in_book), ("past the book (12, 13 discs)", past)):
        _analyze_table(title, chosen, "perfect", repeat, "Exact values for")


def bench_analyze_expert(count: int, repeat: int = 1) -> None:
    """``python main.py analyze MOVES --level expert`` in a new process each time (the
    kernel files warm) on 8- and 9-disc positions of the balanced lines, past Expert's
    book (7 discs): its 300,000-node search, compiled, and the process around it."""
    lines = perfect_lines()
    chosen = list(dict.fromkeys(moves[:discs] for moves in lines for discs in (8, 9)))[:count]
    _analyze(chosen[0], "expert")  # the kernel files made (or loaded) once, before the clock runs
    print("\n## analyze MOVES --level expert, a new process each (the kernel files warm)")
    _analyze_table("8 and 9 discs (Expert's search answers)", chosen, "expert", repeat, "Level expert plays")


def _load_average() -> str:
    """The 1, 5 and 15 minute load averages (other work on the cores makes figures slower)."""
    try:
        import os

        return ", ".join(f"{load:.2f}" for load in os.getloadavg())
    except (AttributeError, OSError):
        return "?"


def _children_cpu() -> float:
    """CPU seconds of finished child processes (-1 where the platform cannot say)."""
    try:
        import resource
    except ImportError:
        return -1.0
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repeats, 200 Test_L2_R1 positions")
    sections = [
        "play",
        "presets",
        "expert",
        "search",
        "tree",
        "solver",
        "early",
        "perfect",
        "ratio",
        "games",
        "analyze",
        "table",
    ]
    parser.add_argument("--only", choices=sections, action="append", help="run only this part (repeatable)")
    parser.add_argument("--games", type=int, default=4, help="presets: seeded games of each preset a board (default 4)")
    args = parser.parse_args(argv)
    quick = args.quick
    repeat = 1 if quick else 3
    presets = ["Beginner", "Hard"] if quick else ["Beginner", "Easy", "Medium", "Hard", "Expert", "Perfect"]
    parts = {
        "play": lambda: bench_play(repeat),
        "presets": lambda: bench_presets_in_worker(games=1 if quick else args.games),
        "expert": lambda: bench_analyze_expert(count=4 if quick else 12, repeat=1 if quick else 3),
        "search": lambda: bench_search(repeat),
        "tree": lambda: bench_tree(repeat),
        "solver": lambda: bench_solver(full=not quick),
        "early": lambda: bench_early(per_ply=1 if quick else 3),
        "perfect": lambda: bench_perfect(count=8 if quick else None),
        "ratio": lambda: bench_compiled_ratio(python_count=2 if quick else 6),
        "games": lambda: bench_perfect_games(presets, solver_games=1 if quick else 4),
        "analyze": lambda: bench_analyze_process(count=3 if quick else 10, repeat=1 if quick else 5),
        "table": lambda: bench_table(repeat=1 if quick else 3),
    }
    solver_kernel.LOADER.prepare()  # both kernel files made (or loaded) before any clock runs
    searching = "fast search ready" if search_kernel.LOADER.prepare() else f"fast search {search_kernel.LOADER.state}"
    print(f"# lab.bench on {machine()}; {solver_kernel.LOADER.status()}, {searching}; load average {_load_average()}")
    for name in sections:
        if not args.only or name in args.only:
            parts[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
