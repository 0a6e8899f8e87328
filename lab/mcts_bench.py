"""How fast Monte Carlo tree search runs: ``python -m lab.mcts_bench`` (prints a table).

Seeded playouts from a few positions on 6x7 and one bigger board: playouts a second, nodes,
the move, and whether it agrees with the exact solver's best columns where those are known
(``ai.player.column_scores``).  The figure says whether the Python playouts are fast
enough for a level to feel quick, or a compiled kernel is needed (``docs/mcts.md``).
"""

from __future__ import annotations

import argparse
import statistics

from ai.mcts import mcts
from ai.player import column_scores
from game.board import Board
from game.notation import format_move
from game.rules import Rules

POSITIONS = [("", Rules()), ("4453", Rules()), ("44444362", Rules()), ("11223", Rules()), ("", Rules(rows=7, cols=8))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.mcts_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--playouts", type=int, nargs="*", default=[1000, 5000, 20000])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per row (the median time is shown)")
    args = parser.parse_args(argv)
    print(
        f"{'position':<12} {'board':<6} {'playouts':>8} {'nodes':>7} {'s (median)':>10} {'playouts/s':>10}  move  exact best"
    )
    for moves, rules in POSITIONS:
        board = Board.from_moves(moves, rules)
        exact = column_scores(board.grid, rules, board.to_move, node_limit=2_000_000) if rules == Rules() else None
        best = ""
        if exact:
            top = max(score.pov(board.to_move) for score in exact.values())
            best = " ".join(format_move(c, rules) for c, s in sorted(exact.items()) if s.pov(board.to_move) == top)
        for playouts in args.playouts:
            runs = [mcts(board.grid, rules, playouts, to_move=board.to_move, seed=seed) for seed in range(args.seeds)]
            seconds = statistics.median(run.seconds for run in runs)
            moves_played = ",".join(format_move(run.move or 0, rules) for run in runs)
            print(
                f"{moves or '(empty)':<12} {rules.rows}x{rules.cols:<4} {playouts:>8,} {len(runs[0].tree):>7,}"
                f" {seconds:>10.3f} {playouts / seconds:>10,.0f}  {moves_played:<5} {best}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
