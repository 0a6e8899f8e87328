"""Balanced openings: the checked list of the standard board (``STANDARD_OPENINGS``) and,
for other rules, the most even short openings a shallow search finds.

A match plays each opening twice, once with each colour (``game.bots.runners.schedule``),
so a slight edge of an opening cancels out.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from ai.search import search
from game.board import Board
from game.rules import STANDARD, Rules

STANDARD_OPENINGS = (
    "344", "434", "244", "334", "343", "424", "433", "353", "355", "364", "425", "242",
    "325", "332", "363", "365", "225", "263", "313", "315", "322", "362", "366", "375",
    "213", "266", "273", "275", "312", "316", "372", "411", "113", "311", "112", "211",
)  # fmt: skip
"""Three-ply openings of the standard board whose exact value is a draw, one of each
mirror pair, nearest the centre first.  Each was checked by minimax over win/draw/loss
down to 8 plies, where the 8-ply book of ``bitbully-databases`` (``ai.book``) gives the
exact value.  All have the same length, so no game can repeat another's from a shorter
opening; each is played with both colours, so a slight edge cancels out."""

BALANCE_STEP = 20
"""Heuristic values this close count as equally even when openings are ranked."""


def openings(rules: Rules, count: int, *, seed: int | None = None, pool: Sequence[str] = ()) -> list[str]:
    """``count`` roughly balanced openings as move strings (deterministic).

    The standard board has its checked list; other rules take the two-ply openings
    (one of each mirror pair) whose shallow heuristic value is nearest to even, ties
    broken by the move string; ``pool`` gives a list of one's own instead.  With more
    games than openings the list goes round again.  ``seed`` shuffles the list first (the
    same seed, the same openings).
    """
    pool = list(pool or opening_pool(rules))
    if seed is not None:
        random.Random(seed).shuffle(pool)
    return [pool[i % len(pool)] for i in range(max(0, count))]


def opening_pool(rules: Rules) -> tuple[str, ...]:
    """Every opening ``openings`` draws from for ``rules``, in its order."""
    return STANDARD_OPENINGS if rules == STANDARD else _balanced_openings(rules)


@functools.lru_cache(maxsize=16)
def _balanced_openings(rules: Rules) -> tuple[str, ...]:
    depth = 4 if rules.gravity else 2  # without gravity every cell is a move: keep it cheap

    def balance(board: Board) -> int:
        return abs(search(board.grid, rules, depth, to_move=board.to_move).value)

    def children(board: Board) -> list[Board]:
        result = []
        for move in board.legal_moves():
            child = board.copy()
            child.push(move)
            if not child.is_game_over():
                result.append(child)
        return result

    def mirrored(board: Board) -> str:
        flipped = Board(rules)
        for move in board.moves:
            row, col = divmod(move, rules.cols) if not rules.gravity else (0, move)
            col = rules.cols - 1 - col
            flipped.push(col if rules.gravity else row * rules.cols + col)
        return flipped.moves_string()

    parents = children(Board(rules))
    if not rules.gravity:  # every cell is a move: grow only from the most even first moves
        parents = sorted(parents, key=lambda b: (balance(b), b.moves_string()))[:4]

    def off_centre(board: Board) -> float:
        total = 0.0
        for move in board.moves:
            row, col = divmod(move, rules.cols) if not rules.gravity else ((rules.rows - 1) / 2, move)
            total += abs(col - (rules.cols - 1) / 2) + abs(row - (rules.rows - 1) / 2)
        return total

    # even first (in steps of BALANCE_STEP heuristic points), then nearest the centre
    ranked = sorted(
        (balance(b) // BALANCE_STEP, off_centre(b), b.moves_string(), mirrored(b)) for p in parents for b in children(p)
    )
    chosen: list[str] = []
    taken: set[str] = set()
    for _, _, moves, mirror in ranked:
        if moves not in taken:
            chosen.append(moves)
            taken.update((moves, mirror))
    return tuple(chosen) or ("",)
