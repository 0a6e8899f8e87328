"""How fast Monte Carlo tree search runs: ``python -m lab.mcts_bench`` (prints tables).

1. Seeded searches from a few positions on 6x7 and one bigger board, in the compiled
   kernel (``ai.compiled.mcts_kernel``) and in the Python grower (``ai.mcts``, the
   reference), with the CPU seconds of each (``time.process_time``: the machine is
   shared), playouts a second, the move, whether both grew the same tree, and whether the
   move keeps the exact outcome (``ai.player.column_scores`` referees on 6x7).
2. MCTS-Solver on the benchmark's endgames (``Test_L3_R1``: 1 to 14 empty cells): how
   many it proves within a budget, never a wrong one (the file's exact scores referee),
   and the playouts it needed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from ai.compiled import mcts_kernel
from ai.mcts import MctsResult, PlayoutPolicy, Proved, mcts
from ai.player import column_scores
from game.board import Board
from game.notation import format_move
from game.rules import Rules

POSITIONS = [("", Rules()), ("4453", Rules()), ("44444362", Rules()), ("11223", Rules()), ("", Rules(rows=7, cols=8))]
ENDGAMES = Path(__file__).resolve().parent.parent / "ai" / "data" / "positions" / "Test_L3_R1"


def timed(board: Board, playouts: int, seed: int, *, compiled: bool) -> tuple[MctsResult, float]:
    """A search and its CPU seconds."""
    started = time.process_time()
    found = mcts(board.grid, board.rules, playouts, to_move=board.to_move, seed=seed, compiled=compiled)
    return found, time.process_time() - started


def speed_table(playouts_list: list[int], seeds: int, python_up_to: int) -> None:
    print(
        f"{'position':<10} {'board':<5} {'playouts':>8} {'compiled s':>10} {'playouts/s':>11}"
        f" {'Python s':>9} {'playouts/s':>10} {'same':>5}  move  keeps"
    )
    for moves, rules in POSITIONS:
        board = Board.from_moves(moves, rules)
        exact = column_scores(board.grid, rules, board.to_move, node_limit=2_000_000) if rules == Rules() else None
        best = max((score.pov(board.to_move) for score in exact.values()), default=0) if exact else None
        for playouts in playouts_list:
            fast = [timed(board, playouts, seed, compiled=True) for seed in range(seeds)]
            seconds = statistics.median(cpu for _, cpu in fast)
            row = f"{moves or '(empty)':<10} {rules.rows}x{rules.cols:<3} {playouts:>8,} {seconds:>10.4f} {playouts / seconds:>11,.0f}"
            if playouts <= python_up_to:
                slow = [timed(board, playouts, seed, compiled=False) for seed in range(seeds)]
                python = statistics.median(cpu for _, cpu in slow)
                same = all(a.tree.same_as(b.tree) for (a, _), (b, _) in zip(fast, slow))
                row += f" {python:>9.3f} {playouts / python:>10,.0f} {'yes' if same else 'NO':>5}"
            else:
                row += f" {'-':>9} {'-':>10} {'-':>5}"
            chosen = ",".join(format_move(found.move or 0, rules) for found, _ in fast)
            keeps = "-"
            if exact and best is not None:
                keeps = ",".join(
                    "yes" if found.move is not None and exact[found.move].pov(board.to_move) == best else "no"
                    for found, _ in fast
                )
            print(f"{row}  {chosen:<5} {keeps}")


def solver_table(budgets: list[int], count: int) -> None:
    lines = [line.split() for line in ENDGAMES.read_text().splitlines() if line.strip()][:count]
    print(f"\nMCTS-Solver on the first {len(lines)} endgames of Test_L3_R1 (1 to 14 empty cells), seed 0, compiled")
    print(f"{'budget':>8} {'proved':>7} {'right':>6} {'wrong':>6} {'share':>6} {'median playouts':>16} {'CPU s':>7}")
    for budget in budgets:
        proved = right = wrong = 0
        used = []
        started = time.process_time()
        for moves, score in lines:
            board = Board.from_moves(moves)
            found = mcts(board.grid, board.rules, budget, to_move=board.to_move, seed=0, solver=True, keep_moves=False)
            truth = Proved.WIN if int(score) > 0 else Proved.LOSS if int(score) < 0 else Proved.DRAW
            used.append(found.playouts)
            if found.proved is not None:
                proved += 1
                right += found.proved is truth
                wrong += found.proved is not truth
        share = right / len(lines)
        cpu = time.process_time() - started
        print(
            f"{budget:>8,} {proved:>7} {right:>6} {wrong:>6} {share:>6.1%} {statistics.median(used):>16,.0f} {cpu:>7.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.mcts_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--playouts", type=int, nargs="*", default=[1000, 5000, 20000, 100000])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per row (the median CPU time is shown)")
    parser.add_argument("--python-up-to", type=int, default=20000, help="the Python grower runs up to this budget")
    parser.add_argument("--endgames", type=int, default=1000, help="endgame positions for the solver table")
    args = parser.parse_args(argv)
    kernel = "compiled playouts ready" if mcts_kernel.LOADER.prepare() else mcts_kernel.LOADER.status()
    print(f"# lab.mcts_bench: {kernel}; {PlayoutPolicy.RANDOM.value} playouts; CPU seconds (process time)")
    speed_table(args.playouts, args.seeds, args.python_up_to)
    solver_table([1_000, 10_000, 200_000], args.endgames)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
