"""What the play search's transposition table saves: nodes and CPU time with and without
it, depths 4 to 9, pruning on (best first) and off, on seeded middle-game positions.

Run ``python -m lab.table_bench [--positions N] [--seed S] [--python]``.  Every row
searches the same positions twice, table off and on (``ai.search.search(..., table=...)``),
checks that the value and the move are the same, and prints the nodes of the last pass
(summed over the positions), the table's hits and cutoffs, and the CPU time (user + sys,
so other processes on the machine count less).  ``--python`` runs the Python passes (the
reference, the ones that record trees) instead of the compiled ones; without pruning it
stops at depth 6 (depth 7 is minutes there).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import time

from ai.compiled import search_kernel
from ai.compiled.kernel_file import PURE_PYTHON_ENV
from ai.search import SearchResult, search
from game.board import Board
from game.rules import STANDARD


def positions(count: int, seed: int) -> list[Board]:
    """Seeded 6x7 positions of 6 to 14 random discs, the game still open."""
    rng = random.Random(seed)
    found: list[Board] = []
    while len(found) < count:
        board = Board(STANDARD)
        for _ in range(rng.randrange(6, 15)):
            board.push(rng.choice(board.legal_moves()))
            if board.is_game_over():
                break
        if not board.is_game_over():
            found.append(board)
    return found


def cpu() -> float:
    times = os.times()
    return times.user + times.system


def run(boards: list[Board], depth: int, pruning: bool, table: bool) -> tuple[list[SearchResult], float]:
    started = cpu()
    results = [
        search(board.grid, board.rules, depth, to_move=board.to_move, pruning=pruning, table=table) for board in boards
    ]
    return results, cpu() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python", action="store_true", help="the Python passes, not the compiled ones")
    args = parser.parse_args()
    if args.python:
        os.environ[PURE_PYTHON_ENV] = "1"
    elif search_kernel.LOADER.kernel() is None:
        raise SystemExit("the compiled search is not available: run with --python")
    boards = positions(args.positions, args.seed)
    print(
        f"# {platform.processor() or platform.machine()}, CPython {platform.python_version()}, load {os.getloadavg()}"
    )
    print(f"# {len(boards)} positions (seed {args.seed}), {'Python' if args.python else 'compiled'} passes")
    print("| depth | pruning | nodes off | nodes on | saved | hits | of them cutoffs | CPU s off | CPU s on |")
    print("|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for pruning in (True, False):
        for depth in range(4, 10):
            if not pruning and depth > (6 if args.python else 8):
                continue
            off, off_seconds = run(boards, depth, pruning, table=False)
            on, on_seconds = run(boards, depth, pruning, table=True)
            for a, b in zip(off, on):
                assert (a.move, a.value) == (b.move, b.value), "the table changed a move or a value"
                assert b.stats.nodes <= a.stats.nodes
            nodes_off = sum(r.stats.nodes for r in off)
            nodes_on = sum(r.stats.nodes for r in on)
            hits = sum(r.stats.table.hits for r in on if r.stats.table)
            cutoffs = sum(r.stats.table.cutoffs for r in on if r.stats.table)
            saved = 1 - nodes_on / nodes_off if nodes_off else 0.0
            print(
                f"| {depth} | {'on' if pruning else 'off'} | {nodes_off:,} | {nodes_on:,} | {saved:.0%} | {hits:,} "
                f"| {cutoffs:,} | {off_seconds:.3f} | {on_seconds:.3f} |"
            )
    print(f"# load after: {os.getloadavg()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")


if __name__ == "__main__":
    main()
