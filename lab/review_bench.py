"""How long the exact review of a whole game takes: ``python -m lab.review_bench``.

Plays one game for each pairing of levels (the levels' own deterministic moves), then
reviews it with a fresh reviewer (cold tables) and prints a table: plies, the move
string, seconds, and the slowest single position.  The solver in use is whatever
``ai.solver`` provides (pure Python, or its compiled core where there is one).
"""

from __future__ import annotations

import argparse
import time

from ai.levels import PRESETS
from ai.player import choose_move
from ai.reviewer import review_game
from game.board import Board

PAIRINGS = (("Medium", "Medium"), ("Hard", "Expert"), ("Perfect", "Perfect"))


def play(first: str, second: str) -> Board:
    """A game between two presets, each playing its own deterministic moves."""
    board = Board()
    while not board.is_game_over():
        level = PRESETS[first] if board.to_move == 1 else PRESETS[second]
        move = choose_move(level, board.grid, board.rules, board.to_move).move
        assert move is not None  # the game is not over
        board.push(move)
    return board


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.review_bench", description=__doc__)
    parser.parse_args(argv)
    print(f"{'game':<18} {'plies':>5}  {'moves':<42}  {'review':>8}  {'slowest ply':>11}")
    for first, second in PAIRINGS:
        board = play(first, second)
        stamps: list[float] = []
        started = time.perf_counter()
        review_game(board.rules, board.moves, on_progress=lambda done, total: stamps.append(time.perf_counter()))
        seconds = time.perf_counter() - started
        steps = [b - a for a, b in zip([started, *stamps], stamps)]
        slowest = max(range(len(steps)), key=steps.__getitem__)
        name = f"{first} v {second}"
        print(
            f"{name:<18} {len(board.moves):>5}  {board.moves_string():<42}  {seconds:>7.2f}s"
            f"  {slowest + 1:>4} {steps[slowest]:>5.2f}s"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
