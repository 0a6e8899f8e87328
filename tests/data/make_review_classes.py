"""Write ``tests/data/review_classes.txt``: seeded games and every move's class and graph
value from ``review_game``, as the checkout on ``PYTHONPATH`` reviews them.

The file in the repository was made from commit 7ca6f41 (the review run in the window's
thread), so ``tests/test_review.py`` checks that moving the review into the worker and
splitting its module changed no answer:

    git worktree add --detach /tmp/base 7ca6f41
    PYTHONPATH=/tmp/base python tests/data/make_review_classes.py > tests/data/review_classes.txt

One line a game: ``RULES MOVES CLASSES GRAPH`` (rules as rows x cols x connect; moves
1-based; classes one letter a move: b(est) g(ood) m(istake) B(lunder); the graph's values
comma-separated).
"""

from __future__ import annotations

import random

SEED = 2027
GAMES = {(6, 7, 4): 8, (7, 8, 4): 3, (6, 7, 5): 2}
"""Games per board: the standard board reviewed exactly, the others by search estimates."""


def random_game(rng: random.Random, rules) -> list[int]:
    """A random legal game of 8 to 24 plies that is not over before its last move."""
    from game.board import Board

    board = Board(rules)
    for _ in range(rng.randint(8, 24)):
        if board.is_game_over():
            break
        board.push(rng.choice(board.legal_moves()))
    return list(board.moves)


def main() -> None:
    try:
        from ai.reviewer import review_game
    except ImportError:  # before the review's work left ai.review
        from ai.review import review_game
    from game.rules import Rules

    rng = random.Random(SEED)
    letter = {"best": "b", "good": "g", "mistake": "m", "blunder": "B"}
    for (rows, cols, connect), count in GAMES.items():
        rules = Rules(rows=rows, cols=cols, connect=connect)
        for _ in range(count):
            moves = random_game(rng, rules)
            review = review_game(rules, moves)
            classes = "".join(letter[m.move_class.value] for m in review.moves)
            graph = ",".join(str(v) for v in review.graph)
            print(f"{rows}x{cols}x{connect} {''.join(str(m + 1) for m in moves)} {classes} {graph}")


if __name__ == "__main__":
    main()
