"""Write ``tests/data/one_home.txt``: a seeded set of positions with every preset's move
and the exact column scores, as the code of the checkout on ``PYTHONPATH`` answers them.

The file in the repository was made from commit 7ca6f41 (before ``Solver.analyze``), so
``tests/test_one_home.py`` checks that the one home of the column scores changed no answer:

    git worktree add --detach /tmp/base 7ca6f41
    PYTHONPATH=/tmp/base python tests/data/make_one_home.py > tests/data/one_home.txt

Every position starts from fresh solver tables (``reset``): a level's solver works within
a node budget, and what a warm table already knows would change where that budget ends.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

POSITIONS = Path(__file__).resolve().parents[2] / "ai" / "data" / "positions"
BENCHMARK_LINES = 40
"""Lines taken from each benchmark file (the middle game and the end game of 6x7)."""
RANDOM_6X7 = 140
RANDOM_7X8 = 80
SEED = 27


def reset() -> None:
    """Forget every shared solver table (the Perfect player's and the other boards')."""
    import ai.perfect
    import ai.player

    ai.perfect._SHARED = None
    ai.player._SOLVERS.clear()


def random_lines(rng: random.Random, rules, count: int) -> list[str]:
    """``count`` move strings of random legal play, at disc counts spread over the game,
    none of them over."""
    from game.board import Board

    lines: list[str] = []
    while len(lines) < count:
        discs = rng.randrange(0, rules.cells - 5)
        board = Board(rules)
        for _ in range(discs):
            board.push(rng.choice(board.legal_moves()))
            if board.is_game_over():
                break
        if not board.is_game_over():
            lines.append(board.moves_string() or "-")
    return lines


def positions() -> list[tuple[str, str]]:
    """(board, moves) of the seeded set: ``6x7`` or ``7x8`` and 1-based columns (``-``: none)."""
    from game.rules import Rules

    found = []
    for name in ("Test_L2_R1", "Test_L3_R1"):
        with open(POSITIONS / name) as file:
            for line in file.readlines()[:BENCHMARK_LINES]:
                found.append(("6x7", line.split()[0]))
    rng = random.Random(SEED)
    found += [("6x7", moves) for moves in random_lines(rng, Rules(), RANDOM_6X7)]
    found += [("7x8", moves) for moves in random_lines(rng, Rules(rows=7, cols=8), RANDOM_7X8)]
    return found


def answers(shape: str, moves: str) -> str:
    """One line: the position, its exact column scores (or ``none``), each preset's move."""
    from ai.levels import PRESETS
    from ai.player import choose_move, column_scores
    from game.board import Board
    from game.rules import Rules

    rows, cols = (int(part) for part in shape.split("x"))
    board = Board.from_moves("" if moves == "-" else moves, Rules(rows=rows, cols=cols))
    reset()
    exact = column_scores(board.grid, board.rules, board.to_move)
    if exact is None:
        scores = "none"
    else:
        scores = ",".join(f"{col + 1}:{exact[col].score(board.to_move, board.grid)}" for col in sorted(exact))
    played = []
    for name, level in PRESETS.items():
        reset()
        answer = choose_move(level, board.grid, board.rules, board.to_move)
        assert answer.move is not None
        played.append(f"{name}:{answer.move + 1}")
    return f"{shape} {moves} {scores} {' '.join(played)}"


def main() -> None:
    print("# Made by tests/data/make_one_home.py from commit 7ca6f41 (before Solver.analyze):")
    print("#   PYTHONPATH=<checkout of 7ca6f41> python tests/data/make_one_home.py > tests/data/one_home.txt")
    print("# BOARD MOVES SCORES PRESET:MOVE...  (1-based columns; SCORES: column:exact score from")
    print("# the side to move, ai.player.column_scores's, or none where not proven in its budget)")
    for shape, moves in positions():
        print(answers(shape, moves), flush=True)


if __name__ == "__main__":
    sys.exit(main())
